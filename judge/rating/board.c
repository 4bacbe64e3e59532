/* board.c - a game's leaderboard, read and ranked (board.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/json_text.h"
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
static int load_rows(struct store *s, struct board *b, char err[ERR_LEN])
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
		snprintf(err, ERR_LEN, "out of memory");
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
static int load_sizes(struct store *s, struct board *b, char err[ERR_LEN])
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

int board_load(struct store *s, struct board *b, char err[ERR_LEN])
{
	if (load_rows(s, b, err) < 0 || (b->sizes && load_sizes(s, b, err) < 0))
		return -1;
	rank_rows(b);
	return 0;
}

/* {"2":5,"4":1}: the sizes played only. */
static void put_sizes(struct jtext *t, const struct board_row *r)
{
	jtext_lit(t, "{");
	for (int k = 0; k <= GAME_MAX_PLAYERS; k++)
		if (r->by_size[k]) {
			char key[8];
			snprintf(key, sizeof key, "%d", k);
			jtext_int_member(t, key, r->by_size[k]);
		}
	jtext_lit(t, "}");
}

static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void put_row(struct jtext *t, const struct board *b, const struct board_row *r,
		    const struct board_marks *marks)
{
	jtext_lit(t, "{");
	jtext_int_member(t, "rank", r->rank);
	jtext_int_member(t, "submission", r->submission);
	jtext_str_member(t, "player", r->player);
	jtext_str_member(t, "author", r->author);
	jtext_real_member(t, "score", r->score);
	jtext_real_member(t, "mu", r->mu);
	jtext_real_member(t, "sigma", r->sigma);
	jtext_int_member(t, "games", r->games);
	jtext_int_member(t, "wins", r->wins);
	if (b->sizes) {
		jtext_key(t, "games_by_players");
		put_sizes(t, r);
	}
	if (marks)
		jtext_bool_member(t, "suspected",
				  marks->n && bsearch(&r->submission, marks->suspected, marks->n,
						      sizeof *marks->suspected, by_id));
	if (r->nrecent) {
		jtext_key(t, "recent");
		jtext_lit(t, "[");
		for (int i = 0; i < r->nrecent; i++) {
			if (i)
				jtext_lit(t, ",");
			jtext_int(t, r->recent[i]);
		}
		jtext_lit(t, "]");
	}
	jtext_lit(t, "}");
}

void board_rows_text(struct jtext *t, const struct board *b, const struct board_marks *marks)
{
	jtext_lit(t, "[");
	for (size_t i = 0; i < b->n; i++) {
		if (i)
			jtext_lit(t, ",");
		put_row(t, b, &b->row[i], marks);
	}
	jtext_lit(t, "]");
}

json_t *board_json(const struct board *b)
{
	struct jtext t = { 0 };
	board_rows_text(&t, b, NULL);
	char *text = jtext_finish(&t, NULL);
	json_t *rows = text ? json_loads(text, 0, NULL) : NULL;
	free(text);
	return rows;
}

char *board_page_text(struct store *s, const struct board *b, const struct board_marks *marks,
		      const json_t *disqualified, size_t *len, char err[ERR_LEN])
{
	json_t *sizes = NULL;
	if (store_match_sizes(s, b->game, &sizes, err) <= 0)
		return NULL;
	struct jtext t = { 0 };
	jtext_lit(&t, "{");
	jtext_str_member(&t, "game", b->game);
	jtext_str_member(&t, "title", b->title);
	jtext_int_member(&t, "generated_at", b->generated_ms);
	jtext_key(&t, "rows");
	board_rows_text(&t, b, marks);
	jtext_key(&t, "match_sizes");
	jtext_value(&t, sizes);
	jtext_bool_member(&t, "organiser", marks != NULL);
	jtext_bool_member(&t, "mixed_sizes", b->sizes);
	if (disqualified) {
		jtext_key(&t, "disqualified");
		jtext_value(&t, disqualified);
	}
	jtext_lit(&t, "}");
	json_decref(sizes);
	char *text = jtext_finish(&t, len);
	if (!text)
		snprintf(err, ERR_LEN, "out of memory");
	return text;
}

json_t *board_page_json(struct store *s, const struct board *b, char err[ERR_LEN])
{
	size_t len;
	char *text = board_page_text(s, b, NULL, NULL, &len, err);
	json_t *out = text ? json_loadb(text, len, 0, NULL) : NULL;
	if (text && !out)
		snprintf(err, ERR_LEN, "out of memory");
	free(text);
	return out;
}
