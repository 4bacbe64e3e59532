/* plag_list.h - the similar pairs of a game, as a person reads them, and
 * the one writer of their data.
 *
 * Promises.  Every stored pair is measured again as `judge plagiarism
 * show` measures it (plag_store_pair: the idioms as counted now), so the
 * list, `show`, the service's page and the command line's page give the
 * same numbers.  plag_list_json() is the one text of the list: `judge
 * plagiarism --json` prints its pairs, GET /api/organiser/plagiarism/GAME
 * answers it whole, and `judge plagiarism --html` embeds it whole in the
 * service's page (web/serve/plagiarism.html, drawn by plag.js): C writes
 * the data, one script draws it.  Names, authors and labels are the
 * contestants' bytes, written as valid JSON strings.
 */
#ifndef JUDGE_PLAG_LIST_H
#define JUDGE_PLAG_LIST_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/base/config.h"
#include "judge/base/error.h"
#include "judge/store/store.h"

/* One file of a pair: a submission, or an archived file (doc only). */
struct plag_list_side {
	int64_t doc, submission; /* submission 0: archived */
	char author[64], name[64], label[64];
	int first_line, last_line; /* its part of the longest shared fragment */
};

struct plag_list_pair {
	double similarity, a_in_b, b_in_a;
	int longest;               /* tokens of the longest shared fragment */
	bool flagged, fragment;    /* fragment: flagged for a long fragment */
	struct plag_list_side a, b;
};

struct plag_list {
	const char *game;
	double min;                /* the similarity asked for */
	bool flagged_too;          /* flagged pairs below min listed too */
	int64_t generated_ms;
	struct plag_list_pair *v;  /* most similar first */
	size_t n;
	size_t unmeasured;         /* stored pairs that could not be measured */
	err_t unmeasured_why;
};

/* The pairs of game at least min similar (0 to 1); min < 0 asks for the
 * flagged pairs: min is then plagiarism.flag_percent and a pair flagged
 * for a long fragment is listed below it.  0, or -1 with err (the list
 * empty).  A pair that cannot be measured is left out and counted. */
int plag_list_load(struct store *s, const struct cfg_plag *cfg, const char *game, double min,
		   struct plag_list *out, err_t err);
void plag_list_free(struct plag_list *l);

/* The pairs as a JSON array: [{similarity, a_in_b, b_in_a, longest_tokens,
 * flagged, fragment, a, b}], a side {doc, author, player, lines: [first,
 * last], submission or archive}. */
json_t *plag_list_pairs_json(const struct plag_list *l);

/* The whole list: {game, min, flagged_too, generated_at, pairs}. */
json_t *plag_list_json(const struct plag_list *l);

/* "12" (submission 12) or "doc:7 (2025)" for an archived file: how a
 * person names a file to `judge plagiarism show`. */
const char *plag_list_ref(const struct plag_list_side *s, char buf[96]);

/* A stored document as one side (its lines 0 until measured). */
void plag_list_side_read(const struct store_plag_doc *d, struct plag_list_side *s);

#endif
