/* board.c - a game's leaderboard, read and ranked (board.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/grow.h"
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

struct loading {
	struct board *b;
	size_t cap;
	struct err *err;
};

static struct board_row *new_row(struct loading *l)
{
	struct board *b = l->b;
	if (!grow_room(&b->row, &l->cap, b->n + 1, sizeof *b->row, 64))
		return NULL;
	return &b->row[b->n++];
}

/* A player's row, or one more size of the last one (a player's rows come
 * together). */
static int add_row(void *ctx, const struct store_board_row *in)
{
	struct loading *l = ctx;
	struct board_row *r = l->b->n ? &l->b->row[l->b->n - 1] : NULL;
	if (!r || r->submission != in->id) {
		if ((r = new_row(l)))
			*r = (struct board_row){
				.submission = in->id, .player = strdup(in->name),
				.author = strdup(in->author), .mu = in->mu, .sigma = in->sigma,
				.games = in->games, .wins = in->wins, .suspected = in->suspected,
				.score = rating_score((struct rating){ in->mu, in->sigma }),
			};
		if (!r || !r->player || !r->author) {
			err_set(l->err, "out of memory");
			return -1;
		}
	}
	if (in->players > 0 && in->players <= GAME_MAX_PLAYERS)
		r->by_size[in->players] = in->games_of_size;
	return 0;
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

/* A row's place in the order, its score's key computed once (not in each
 * of the sort's 20,000 comparisons of 2,000 rows). */
struct ranking {
	long long key;
	const struct board_row *row;
};

static int by_rank(const void *pa, const void *pb)
{
	const struct ranking *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	if (a->row->games != b->row->games)
		return a->row->games > b->row->games ? -1 : 1;
	return (a->row->submission > b->row->submission) - (a->row->submission < b->row->submission);
}

/* Standard competition ranking: 1, 2, 2, 4. */
static int rank_rows(struct board *b, err_t err)
{
	struct ranking *order = malloc((b->n + 1) * sizeof *order);
	struct board_row *ranked = malloc((b->n + 1) * sizeof *ranked);
	if (!order || !ranked) {
		free(order);
		free(ranked);
		err_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < b->n; i++)
		order[i] = (struct ranking){ score_key(b->row[i].score), &b->row[i] };
	qsort(order, b->n, sizeof *order, by_rank);
	for (size_t i = 0; i < b->n; i++) {
		ranked[i] = *order[i].row;
		bool tie = i > 0 && order[i].key == order[i - 1].key;
		ranked[i].rank = tie ? ranked[i - 1].rank : (int)i + 1;
	}
	free(order);
	free(b->row);
	b->row = ranked;
	return 0;
}

int board_load(struct store *s, struct board *b, err_t err)
{
	struct loading l = { .b = b, .err = err };
	if (store_board_rows(s, b->game, b->sizes, b->organiser, add_row, &l, err) < 0)
		return -1;
	return rank_rows(b, err);
}

/* About what a row takes as JSON text (names of 12 and authors of 63
 * characters, the maximum, take more). */
#define BOARD_ROW_TEXT 256

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

static void put_row(struct jtext *t, const struct board *b, const struct board_row *r)
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
	if (b->organiser)
		jtext_bool_member(t, "suspected", r->suspected);
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

void board_rows_text(struct jtext *t, const struct board *b)
{
	jtext_lit(t, "[");
	for (size_t i = 0; i < b->n; i++) {
		if (i)
			jtext_lit(t, ",");
		put_row(t, b, &b->row[i]);
	}
	jtext_lit(t, "]");
}

json_t *board_json(const struct board *b)
{
	struct jtext t = { 0 };
	board_rows_text(&t, b);
	char *text = jtext_finish(&t, NULL);
	json_t *rows = text ? json_loads(text, 0, NULL) : NULL;
	free(text);
	return rows;
}

char *board_page_text(struct store *s, const struct board *b, const json_t *disqualified,
		      size_t *len, err_t err)
{
	json_t *sizes = NULL;
	if (store_match_sizes(s, b->game, &sizes, err) <= 0)
		return NULL;
	struct jtext t = { 0 };
	jtext_reserve(&t, (b->n + 1) * BOARD_ROW_TEXT);
	jtext_lit(&t, "{");
	jtext_str_member(&t, "game", b->game);
	jtext_str_member(&t, "title", b->title);
	jtext_int_member(&t, "generated_at", b->generated_ms);
	jtext_key(&t, "rows");
	board_rows_text(&t, b);
	jtext_key(&t, "match_sizes");
	jtext_value(&t, sizes);
	jtext_bool_member(&t, "organiser", b->organiser);
	jtext_bool_member(&t, "mixed_sizes", b->sizes);
	if (disqualified) {
		jtext_key(&t, "disqualified");
		jtext_value(&t, disqualified);
	}
	jtext_lit(&t, "}");
	json_decref(sizes);
	char *text = jtext_finish(&t, len);
	if (!text)
		err_set(err, "out of memory");
	return text;
}

json_t *board_page_json(struct store *s, const struct board *b, err_t err)
{
	size_t len;
	char *text = board_page_text(s, b, NULL, &len, err);
	json_t *out = text ? json_loadb(text, len, 0, NULL) : NULL;
	if (text && !out)
		err_set(err, "out of memory");
	free(text);
	return out;
}
