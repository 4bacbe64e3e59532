/* board.h - a game's leaderboard read from the store and ranked: what
 * `judge leaderboard` prints and `judge serve` sends.
 *
 * Promises: the ranked pool (qualified, not disqualified players with a
 * rating), best first by score = mu - 3 sigma (compared to a millionth,
 * so one skill computed twice never splits a tie), then games played, then
 * submission; equal scores share a rank (1, 2, 2, 4).
 */
#ifndef JUDGE_BOARD_H
#define JUDGE_BOARD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"
#include "judge/store/store.h"

#define BOARD_RECENT 3 /* matches linked per player */

/* One ranked player of a leaderboard. */
struct board_row {
	int64_t submission;
	int rank;             /* 1 = best; equal scores share a rank */
	char *player, *author;
	double score, mu, sigma;
	int games, wins;
	bool suspected;       /* its file a suspected copy (with organiser) */
	int by_size[GAME_MAX_PLAYERS + 1]; /* rated matches, by players in them
					    * (with struct board's sizes) */
	int nrecent;          /* its latest matches with a replay, newest first: */
	int64_t recent[BOARD_RECENT]; /* linked as replay-ID.html */
};

struct board {
	const char *game;     /* "dominator" */
	const char *title;    /* "Dominator" */
	int64_t generated_ms; /* when the board was read */
	bool sizes;           /* a game of a range of players: count by_size */
	bool organiser;       /* an organiser's: the rows' suspected marks */
	size_t n;
	struct board_row *row;
};

/* Reads b->game's ranked players into b (b->game, b->sizes and
 * b->organiser set, b->n 0) in one read of the store and ranks them.  0,
 * or -1 with err. */
int board_load(struct store *s, struct board *b, err_t err);
void board_free(struct board *b);

/* The rows as a JSON array, written as text into t: rank, submission,
 * player, author, score, mu, sigma, games, wins, with b->sizes
 * games_by_players ({"2": 5, "4": 1}: the sizes played only), and with
 * b->organiser suspected (true or false).  A leaderboard of thousands of
 * rows is written in a fraction of what a jansson value per row costs. */
struct jtext;
void board_rows_text(struct jtext *t, const struct board *b);
/* The same rows as jansson values; NULL when out of memory. */
json_t *board_json(const struct board *b);

/* A leaderboard page's data, as the service's page draws it (web/serve/
 * serve.js), written as text: {game, title, generated_at, rows,
 * match_sizes, organiser, mixed_sizes}, each row with "recent" (its
 * latest match ids) when they were loaded; for b->organiser, organiser
 * true, the rows' suspected marks and, when given, the disqualified list.
 * The service's answer and `judge leaderboard --html` both come from
 * here.  NULL with err filled; *len its length. */
char *board_page_text(struct store *s, const struct board *b, const json_t *disqualified,
		      size_t *len, err_t err);
/* The same, the public's, as a jansson value. */
json_t *board_page_json(struct store *s, const struct board *b, err_t err);

/* A row's matches by size, "2:5 4:1" (sizes played only), into out. */
#define BOARD_SIZES_LEN (GAME_MAX_PLAYERS * 12 + 1)
void board_sizes_text(const struct board_row *r, char out[BOARD_SIZES_LEN]);

#endif
