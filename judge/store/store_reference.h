/* store_reference.h - the organiser's reference players: private
 * opponents (a stronger Dummy) for a game's qualification and eliminations.
 *
 * Promises.  A reference's source is read only by store_reference_source(),
 * which the service calls for organisers alone; its program and its object
 * file are binaries (store_get_binary), stored once by their hash.  Its
 * name is claimed in the game's names, so no contestant can upload a
 * player that plays under it.
 */
#ifndef JUDGE_STORE_REFERENCE_H
#define JUDGE_STORE_REFERENCE_H

#include <jansson.h>
#include <stdint.h>

#include "judge/store/store.h"

/* The author a reference's name is claimed for: no contestant is named so. */
#define STORE_REFERENCE_AUTHOR "(organiser)"

struct store_new_reference {
	const char *game, *name;
	const char *source;
	size_t source_len;
	const char *source_sha256;
	const char *binary_sha256, *object_sha256; /* object: NULL when none */
};

/* Inside a transaction: adds the reference, or replaces its source and
 * binaries (the organiser's stronger version).  0; -1 with err, storing
 * nothing, when a contestant plays under the name. */
int store_reference_put(struct store *s, const struct store_new_reference *r,
			err_t err);

struct store_reference {
	char game[32], name[64];
	char source_sha256[65], binary_sha256[65], object_sha256[65]; /* object: "" when none */
	int64_t created_at, updated_at;
};
/* 1 found, 0 no such reference, -1 error. */
int store_reference_get(struct store *s, const char *game, const char *name,
			struct store_reference *out, err_t err);
/* Its source, malloc'd: 1, 0 none, -1. */
int store_reference_source(struct store *s, const char *game, const char *name, char **src,
			   size_t *len, err_t err);
/* [{game, name, created_at, updated_at}] of game (NULL: every game). */
int store_reference_list(struct store *s, const char *game, json_t **out,
			 err_t err);

#endif
