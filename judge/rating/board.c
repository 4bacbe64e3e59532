/* board.c - a game's leaderboard, read and ranked (board.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/safe_text.h"
#include "judge/rating/board.h"
#include "judge/rating/rating.h"
#include "judge/store/store_serve.h"

void board_free(struct board *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->row[i].player);
		free(b->row[i].author);
	}
	free(b->row);
}

/* The ranked pool: qualified submissions with a rating (a superseded one
 * keeps its ratings row but has left the pool). */
static int load_rows(struct store *s, struct board *b, char err[STORE_ERRLEN])
{
	struct store_rated *pool;
	size_t n;
	if (store_ranked_pool(s, b->game, &pool, &n, err) < 0)
		return -1;
	b->row = n ? calloc(n, sizeof *b->row) : NULL;
	int rc = n && !b->row ? -1 : 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct board_row *r = &b->row[b->n++];
		*r = (struct board_row){
			.submission = pool[i].id, .player = strdup(pool[i].name),
			.author = strdup(pool[i].author), .mu = pool[i].mu, .sigma = pool[i].sigma,
			.games = pool[i].games, .wins = pool[i].wins,
		};
		r->score = rating_score((struct rating){ r->mu, r->sigma });
		rc = r->player && r->author ? 0 : -1;
	}
	free(pool);
	if (rc < 0)
		snprintf(err, STORE_ERRLEN, "out of memory");
	return rc;
}

/* ---- matches by size (a game with a range of players) ------------------- */

static int by_submission(const void *key, const void *elem)
{
	int64_t a = *(const int64_t *)key, b = ((const struct board_row *)elem)->submission;
	return (a > b) - (a < b);
}

/* The rows are still in submission order (the pool's) when sizes are
 * read: ranking comes after. */
static void count_size(void *ctx, int64_t submission, int players, int games)
{
	struct board *b = ctx;
	struct board_row *r = bsearch(&submission, b->row, b->n, sizeof *b->row, by_submission);
	if (r && players >= 0 && players <= GAME_MAX_PLAYERS)
		r->by_size[players] = games;
}

/* How many rated matches of each size every ranked player played, from
 * the counters recorded with each result. */
static int load_sizes(struct store *s, struct board *b, char err[STORE_ERRLEN])
{
	return store_pool_sizes(s, b->game, count_size, b, err);
}

void board_sizes_text(const struct board_row *r, char out[BOARD_SIZES_LEN])
{
	size_t len = 0;
	out[0] = '\0';
	for (int k = 0; k <= GAME_MAX_PLAYERS; k++)
		if (r->by_size[k])
			len += (size_t)snprintf(out + len, BOARD_SIZES_LEN - len, "%s%d:%d",
						len ? " " : "", k, r->by_size[k]);
}


/* Scores are compared to a millionth: two computations of the same skill
 * that differ in the last bit must not split a tie.  Rounding (not a
 * tolerance) keeps the order transitive. */
static long long score_key(double score)
{
	return llround(score * 1e6);
}

static int by_rank(const void *pa, const void *pb)
{
	const struct board_row *a = pa, *b = pb;
	long long ka = score_key(a->score), kb = score_key(b->score);
	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return (a->submission > b->submission) - (a->submission < b->submission);
}

/* Standard competition ranking: 1, 2, 2, 4. */
static void rank_rows(struct board *b)
{
	if (b->n)
		qsort(b->row, b->n, sizeof *b->row, by_rank);
	for (size_t i = 0; i < b->n; i++) {
		bool tie = i > 0 && score_key(b->row[i].score) == score_key(b->row[i - 1].score);
		b->row[i].rank = tie ? b->row[i - 1].rank : (int)i + 1;
	}
}

int board_load(struct store *s, struct board *b, char err[STORE_ERRLEN])
{
	if (load_rows(s, b, err) < 0 || (b->sizes && load_sizes(s, b, err) < 0))
		return -1;
	rank_rows(b);
	return 0;
}

/* {"2": 5, "4": 1}: the sizes played only. */
static json_t *sizes_json(const struct board_row *r)
{
	json_t *o = json_object();
	for (int k = 0; o && k <= GAME_MAX_PLAYERS; k++)
		if (r->by_size[k]) {
			char key[8];
			snprintf(key, sizeof key, "%d", k);
			json_object_set_new(o, key, json_integer(r->by_size[k]));
		}
	return o;
}

json_t *board_json(const struct board *b)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < b->n; i++) {
		const struct board_row *r = &b->row[i];
		json_t *o = json_pack("{s:i, s:I, s:o, s:o, s:f, s:f, s:f, s:i, s:i}", "rank",
				      r->rank, "submission", (json_int_t)r->submission, "player",
				      safe_json_text(r->player), "author", safe_json_text(r->author),
				      "score", r->score, "mu", r->mu, "sigma", r->sigma, "games",
				      r->games, "wins", r->wins);
		if (o && b->sizes)
			json_object_set_new(o, "games_by_players", sizes_json(r));
		if (json_array_append_new(arr, o) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	return arr;
}

static json_t *recent_json(const struct board_row *r)
{
	json_t *ids = json_array();
	for (int i = 0; i < r->nrecent; i++)
		json_array_append_new(ids, json_integer(r->recent[i]));
	return ids;
}

json_t *board_page_json(struct store *s, const struct board *b, char err[STORE_ERRLEN])
{
	json_t *sizes = NULL, *rows = board_json(b), *out = NULL;
	if (rows && store_match_sizes(s, b->game, &sizes, err) > 0)
		out = json_pack("{s:s, s:s, s:I, s:O, s:O, s:b, s:b}", "game", b->game, "title",
				b->title, "generated_at", (json_int_t)b->generated_ms, "rows", rows,
				"match_sizes", sizes, "organiser", 0, "mixed_sizes", b->sizes);
	if (!rows || (sizes && !out))
		snprintf(err, STORE_ERRLEN, "out of memory");
	for (size_t i = 0; out && i < b->n; i++)
		if (b->row[i].nrecent)
			json_object_set_new(json_array_get(rows, i), "recent", recent_json(&b->row[i]));
	json_decref(rows);
	json_decref(sizes);
	return out;
}
