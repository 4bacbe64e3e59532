/* compare.c - version comparisons: the paired plan, and the intervals
 * (compare.h). */
#include "judge/event/compare.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "games/seed.h"
#include "judge/store/store_compare.h"

/* ---- the interval -------------------------------------------------------------- */

/* The 97.5th percentile of Student's t with df degrees of freedom: exact
 * for 1 and 2, else the Cornish-Fisher expansion about the normal's
 * (within 0.2% from 3 on). */
static double t975(int df)
{
	if (df == 1)
		return 12.7062;
	if (df == 2)
		return 4.3027;
	const double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
	double n = df;
	return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n);
}

void compare_interval(const double *d, int n, struct compare_interval *out)
{
	double sum = 0, sq = 0;
	for (int i = 0; i < n; i++)
		sum += d[i];
	double mean = n > 0 ? sum / n : 0;
	for (int i = 0; i < n; i++)
		sq += (d[i] - mean) * (d[i] - mean);
	*out = (struct compare_interval){ .n = n, .mean = mean, .low = NAN, .high = NAN };
	if (n < 2)
		return;
	double half = t975(n - 1) * sqrt(sq / (n - 1) / n);
	out->low = mean - half;
	out->high = mean + half;
}

/* ---- the plan ---------------------------------------------------------------------- */

static int refused(err_t err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int refused(err_t err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return 1;
}

/* Submission id, checked: author's, compiled; its game into game. */
static int version(struct store *s, const char *author, int64_t id, char game[32],
		   err_t err)
{
	struct store_submission sub;
	int found = store_get_submission(s, id, &sub, err);
	if (found < 0)
		return -1;
	if (found == 0 || strcmp(sub.author, author) != 0)
		return refused(err, "submission %lld is not one of yours: compare two of your own "
			       "versions (My submissions lists them)", (long long)id);
	if (!sub.binary_path[0])
		return refused(err, "submission %lld is %s, not compiled: it cannot play",
			       (long long)id, sub.state);
	snprintf(game, 32, "%s", sub.game);
	return 0;
}

/* The match of one side of pair k: the version in seat k mod n, the
 * others' qualified players taken in turn, the Demo in what is left. */
static json_t *pair_seats(const struct store_rated *others, size_t nothers, int n, int k,
			  int64_t version)
{
	json_t *seats = json_array();
	int seat = k % n;
	size_t take = nothers < (size_t)n - 1 ? nothers : (size_t)n - 1;
	for (int i = 0, j = 0; i < n; i++) {
		if (i == seat)
			json_array_append_new(seats, json_pack("{s:I}", "submission", (json_int_t)version));
		else if ((size_t)j < take)
			json_array_append_new(seats, json_pack("{s:I}", "submission", (json_int_t)
				others[((size_t)k * take + (size_t)j++) % nothers].id));
		else
			json_array_append_new(seats, json_pack("{s:s}", "house", "Demo"));
	}
	return seats;
}

static int queue_pairs(struct store *s, int64_t id, const char *game, const int64_t v[2],
		       const struct store_rated *others, size_t nothers, int pairs,
		       err_t err)
{
	const struct game *g = game_find(game);
	int n = !g || game_players_ok(g, 4) ? 4 : game_min_players(g);
	for (int k = 0; k < pairs; k++) {
		json_int_t seed = (json_int_t)(seed_fresh() >> 2);
		for (int side = 0; side < 2; side++) {
			json_t *job = json_pack("{s:s, s:s, s:I, s:o}", "kind", "comparison", "game",
						game, "seed", seed, "seats",
						pair_seats(others, nothers, n, k, v[side]));
			char *payload = job ? json_dumps(job, JSON_COMPACT) : NULL;
			int rc = payload ? store_compare_add(s, id, k, side, k % n, payload, err) : -1;
			if (!payload)
				err_set(err, "out of memory");
			free(payload);
			json_decref(job);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

/* The game's qualified players of other authors (malloc'd). */
static int opponents(struct store *s, const char *game, const char *author,
		     struct store_rated **out, size_t *n, err_t err)
{
	if (store_ranked_pool(s, game, out, n, err) < 0)
		return -1;
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*out)[i].author, author) != 0)
			(*out)[kept++] = (*out)[i];
	*n = kept;
	return 0;
}

int compare_queue_within(struct store *s, const char *author, int64_t a, int64_t b, int pairs,
			 int64_t *id, err_t err)
{
	char game[32], game_b[32];
	if (a == b)
		return refused(err, "compare two different submissions");
	if (pairs < 2 || pairs > COMPARE_PAIRS_MAX)
		return refused(err, "ask for 2 to %d pairs of matches", COMPARE_PAIRS_MAX);
	int rc = version(s, author, a, game, err);
	if (rc == 0)
		rc = version(s, author, b, game_b, err);
	if (rc != 0)
		return rc;
	if (strcmp(game, game_b) != 0)
		return refused(err, "submission %lld plays %s and %lld plays %s: compare versions of "
			       "one game", (long long)a, game, (long long)b, game_b);
	struct store_rated *others = NULL;
	size_t nothers = 0;
	const int64_t v[2] = { a, b };
	rc = opponents(s, game, author, &others, &nothers, err);
	if (rc == 0 && store_compare_create(s, author, game, a, b, id, err) < 0)
		rc = -1;
	if (rc == 0)
		rc = queue_pairs(s, *id, game, v, others, nothers, pairs, err);
	free(others);
	return rc;
}

int compare_queue(struct store *s, const char *author, int64_t a, int64_t b, int pairs,
		  int64_t *id, err_t err)
{
	if (store_begin(s, err) < 0)
		return -1;
	int rc = compare_queue_within(s, author, a, b, pairs, id, err);
	if (rc == 0 && store_commit(s, err) < 0)
		rc = -1;
	if (rc != 0)
		store_rollback(s);
	return rc;
}

/* ---- the results ------------------------------------------------------------------- */

int compare_read(struct store *s, int64_t id, struct compare_summary *out,
		 err_t err)
{
	json_t *head, *rows;
	int found = store_compare_get(s, id, &head, err);
	if (found <= 0)
		return found < 0 ? -1 : 0;
	*out = (struct compare_summary){ .id = id,
		.a = json_integer_value(json_object_get(head, "a")),
		.b = json_integer_value(json_object_get(head, "b")),
		.queued_pairs = (int)(json_integer_value(json_object_get(head, "matches")) / 2) };
	snprintf(out->author, sizeof out->author, "%s",
		 json_string_value(json_object_get(head, "author")));
	json_decref(head);
	if (!(rows = store_compare_results(s, id, err)))
		return -1;
	size_t n = json_array_size(rows);
	double *wins = calloc(n + 1, sizeof *wins), *rank = calloc(n + 1, sizeof *rank);
	int pairs = 0;
	for (size_t i = 0; wins && rank && i + 1 < n; i++) {
		json_t *x = json_array_get(rows, i), *y = json_array_get(rows, i + 1);
		if (json_integer_value(json_object_get(x, "pair")) !=
		    json_integer_value(json_object_get(y, "pair")))
			continue; /* one side of this pair is not played yet */
		json_int_t ra = json_integer_value(json_object_get(x, "rank"));
		json_int_t rb = json_integer_value(json_object_get(y, "rank"));
		wins[pairs] = (ra == 1) - (rb == 1);
		rank[pairs++] = (double)(ra - rb);
		i++;
	}
	json_decref(rows);
	int rc = 1;
	if (!wins || !rank) {
		err_set(err, "out of memory");
		rc = -1;
	}
	if (rc == 1) {
		compare_interval(wins, pairs, &out->wins);
		compare_interval(rank, pairs, &out->rank);
		/* A difference of win rates lies in [-1, 1], whatever t says. */
		if (!isnan(out->wins.low)) {
			out->wins.low = fmax(out->wins.low, -1);
			out->wins.high = fmin(out->wins.high, 1);
		}
	}
	free(wins);
	free(rank);
	return rc;
}

static json_t *interval_json(const struct compare_interval *c)
{
	return json_pack("{s:i, s:f, s:o, s:o}", "pairs", c->n, "mean", c->mean, "low",
			 isnan(c->low) ? json_null() : json_real(c->low), "high",
			 isnan(c->high) ? json_null() : json_real(c->high));
}

json_t *compare_json(const struct compare_summary *c)
{
	return json_pack("{s:I, s:I, s:I, s:i, s:o, s:o}", "comparison", (json_int_t)c->id, "a",
			 (json_int_t)c->a, "b", (json_int_t)c->b, "queued_pairs", c->queued_pairs,
			 "wins", interval_json(&c->wins), "rank", interval_json(&c->rank));
}
