/* replay_runs.h - the replays' one-letter-per-id strings, for the engines.
 *
 * Several replays give one letter per id (a unit, an ant) in id order and
 * leave the ids without one out: a decimal number k stands for k ids
 * skipped, and the ids skipped at the end are not written.  "3a1b" is
 * ids 0 to 2 skipped, 'a' for id 3, id 4 skipped, 'b' for id 5.  Such a
 * string needs at most two characters per id (a run of k costs at most k
 * digits).
 *
 * Promises: the writer never writes past its buffer (it stops and says
 * so); the reader takes any bytes (a replay is hostile input too) and
 * refuses what is not in that form: a number without its letter, a zero
 * or a leading zero, an id at or past the limit.  Header only.
 *
 * runs_message() turns such a string of a replay's orders back into one
 * player's orders message: the body of an engine's replay_message.
 */
#ifndef GAMES_REPLAY_RUNS_H
#define GAMES_REPLAY_RUNS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "games/kit/orders.h"

struct runs_writer {
	char *s;
	size_t cap, len;
	int next; /* the first id not written yet */
	bool overflow;
};

static inline struct runs_writer runs_writer(char *s, size_t cap)
{
	if (cap)
		s[0] = '\0';
	return (struct runs_writer){ .s = s, .cap = cap, .overflow = cap == 0 };
}

/* Letter for id; ids must come in increasing order. */
static inline void runs_put(struct runs_writer *w, int id, char letter)
{
	char num[16] = "";
	int skip = id - w->next;
	size_t n = skip > 0 ? (size_t)snprintf(num, sizeof num, "%d", skip) : 0;
	if (w->overflow || skip < 0 || w->len + n + 2 > w->cap) {
		w->overflow = true;
		return;
	}
	memcpy(w->s + w->len, num, n);
	w->len += n;
	w->s[w->len++] = letter;
	w->s[w->len] = '\0';
	w->next = id + 1;
}

struct runs_reader {
	const char *s;
	int next;
};

static inline struct runs_reader runs_reader(const char *s)
{
	return (struct runs_reader){ .s = s };
}

/* The next letter and its id (below limit): 1, 0 at the end of the
 * string, -1 when the string is not in the form above.  Letters are the
 * caller's to judge; digits never are letters. */
static inline int runs_get(struct runs_reader *r, int limit, int *id, char *letter)
{
	if (!*r->s)
		return 0;
	if (*r->s == '0')
		return -1;
	long skip = 0;
	while (*r->s >= '0' && *r->s <= '9') {
		skip = skip * 10 + (*r->s++ - '0');
		if (skip >= limit)
			return -1;
	}
	if (!*r->s || r->next + skip >= limit)
		return -1;
	*id = r->next + (int)skip;
	*letter = *r->s++;
	r->next = *id + 1;
	return 1;
}

/* One (id, letter) of a replay's orders string as player's order: 1 with
 * the order written at `order`, 0 when the id is not the player's (it is
 * skipped), -1 when the letter means no order of the game. */
typedef int (*runs_order_fn)(const void *state, int player, int id, char letter, void *order);

/* The orders message (layout l) of player, a seat of `players`, from a
 * replay's orders string, each letter read by take(); ids are below
 * limit.  Returns its length, 0 when there is no such seat, the replay is
 * not a string of this form, holds more than l->max orders or a letter
 * take() refuses, or the message does not fit in cap.  scratch has room
 * for l->max orders. */
static inline size_t runs_message(const json_t *orders, int players, int limit, const void *state,
				  int player, runs_order_fn take, const struct orders_layout *l,
				  void *scratch, uint8_t *buf, size_t cap)
{
	const char *s = json_string_value(orders);
	if (!s || player < 0 || player >= players)
		return 0;
	struct runs_reader r = runs_reader(s);
	int n = 0, id, got;
	char c;
	while ((got = runs_get(&r, limit, &id, &c)) > 0) {
		if (n == l->max)
			return 0;
		int kept = take(state, player, id, c, (uint8_t *)scratch + (size_t)n * l->size);
		if (kept < 0)
			return 0;
		n += kept;
	}
	return got < 0 ? 0 : orders_encode(l, scratch, (size_t)n, buf, cap);
}

#endif
