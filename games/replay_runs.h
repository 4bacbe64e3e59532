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
 */
#ifndef GAMES_REPLAY_RUNS_H
#define GAMES_REPLAY_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

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

#endif
