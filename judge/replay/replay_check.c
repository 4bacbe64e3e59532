#include "judge/replay/replay_check.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/play/match.h"

struct check {
	const struct game *game;
	struct game_state *g;
	int n;
	uint8_t *buf;
	int stopped[GAME_MAX_PLAYERS]; /* first round a seat did not play, or -1 */
	struct replay_verdict *v;
};

static int differ(struct replay_verdict *v, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int differ(struct replay_verdict *v, const char *where, const char *fmt, ...)
{
	snprintf(v->where, sizeof v->where, "%s", where);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->what, sizeof v->what, fmt, ap);
	va_end(ap);
	return 1;
}

/* ---- saying what differs ------------------------------------------------- */

#define SHOW_LEN 64

/* A JSON value in a few words: at most SHOW_LEN characters of it. */
static void show(const json_t *j, char out[SHOW_LEN + 8])
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	if (!s)
		snprintf(out, SHOW_LEN + 8, "nothing");
	else if (strlen(s) > SHOW_LEN)
		snprintf(out, SHOW_LEN + 8, "%.*s...", SHOW_LEN - 3, s);
	else
		snprintf(out, SHOW_LEN + 8, "%s", s);
	free(s);
}

static void describe(const json_t *want, const json_t *got, char *path, size_t plen,
		     char *out, size_t cap);

static void describe_object(const json_t *want, const json_t *got, char *path, size_t plen,
			    char *out, size_t cap)
{
	const char *key;
	json_t *val;
	char shown[SHOW_LEN + 8];
	json_object_foreach((json_t *)got, key, val) {
		const json_t *w = json_object_get(want, key);
		if (json_equal(w, val))
			continue;
		size_t len = plen + (size_t)snprintf(path + plen, 128 - plen, "%s%s",
						      plen ? "." : "", key);
		if (len >= 128)
			len = 127;
		if (w) {
			describe(w, val, path, len, out, cap);
		} else {
			show(val, shown);
			snprintf(out, cap, "%s is missing (the engine has %s)", path, shown);
		}
		return;
	}
	json_object_foreach((json_t *)want, key, val) {
		if (!json_object_get(got, key)) {
			snprintf(out, cap, "%s%s%s is recorded, but the engine has no such field",
				 path, plen ? "." : "", key);
			return;
		}
	}
}

static void describe_array(const json_t *want, const json_t *got, char *path, size_t plen,
			   char *out, size_t cap)
{
	size_t nw = json_array_size(want), ng = json_array_size(got);
	for (size_t i = 0; i < nw && i < ng; i++) {
		if (json_equal(json_array_get(want, i), json_array_get(got, i)))
			continue;
		size_t len = plen + (size_t)snprintf(path + plen, 128 - plen, "[%zu]", i);
		describe(json_array_get(want, i), json_array_get(got, i), path,
			 len < 128 ? len : 127, out, cap);
		return;
	}
	snprintf(out, cap, "%s has %zu items, the engine %zu", plen ? path : "the array", nw, ng);
}

/* Long strings ("moves") are shown from their first difference. */
static void describe_strings(const char *want, const char *got, const char *path, char *out,
			     size_t cap)
{
	size_t i = 0;
	while (want[i] && want[i] == got[i])
		i++;
	size_t from = i > 8 ? i - 8 : 0;
	snprintf(out, cap, "%s differs at character %zu: recorded %s\"%.40s\", the engine %s\"%.40s\"",
		 path, i, from ? "..." : "", want + from, from ? "..." : "", got + from);
}

/* The first place where want (recorded) and got (recomputed) differ, as
 * a path ("score[2]", "units[3][1]") and both values. */
static void describe(const json_t *want, const json_t *got, char *path, size_t plen,
		     char *out, size_t cap)
{
	if (json_is_object(want) && json_is_object(got)) {
		describe_object(want, got, path, plen, out, cap);
	} else if (json_is_array(want) && json_is_array(got)) {
		describe_array(want, got, path, plen, out, cap);
	} else if (json_is_string(want) && json_is_string(got)) {
		describe_strings(json_string_value(want), json_string_value(got),
				 plen ? path : "the text", out, cap);
	} else {
		char w[SHOW_LEN + 8], g[SHOW_LEN + 8];
		show(want, w);
		show(got, g);
		snprintf(out, cap, "%s: recorded %s, the engine %s", plen ? path : "the value", w, g);
	}
}

/* 0 when equal; else 1 with the verdict saying where and what. */
static int compare(struct check *c, const char *where, const char *prefix, const json_t *want,
		   const json_t *got)
{
	if (json_equal(want, got))
		return 0;
	char path[128] = "", what[REPLAY_WHAT_LEN - 64];
	size_t plen = (size_t)snprintf(path, sizeof path, "%s", prefix);
	describe(want, got, path, plen, what, sizeof what);
	return differ(c->v, where, "%s", what);
}

/* ---- the header and the start -------------------------------------------- */

static int check_format(struct check *c, const json_t *r)
{
	const json_t *format = json_object_get(r, "format");
	if (json_integer_value(format) == 1)
		return differ(c->v, "the header",
			      "it is of format 1 (an older judge's), which holds neither the "
			      "state before round 1 nor the orders");
	if (!json_is_integer(format) || json_integer_value(format) != MATCH_REPLAY_FORMAT)
		return differ(c->v, "the header", "not a judge replay: \"format\" must be %d",
			      MATCH_REPLAY_FORMAT);
	return 0;
}

static int check_header(struct check *c, const json_t *r)
{
	if (!json_is_object(r))
		return differ(c->v, "the header", "not a judge replay: not a JSON object");
	if (check_format(c, r))
		return 1;
	const char *name = json_string_value(json_object_get(r, "game"));
	c->game = name ? game_find(name) : NULL;
	if (!c->game)
		return differ(c->v, "the header", "unknown game \"%s\"", name ? name : "");
	const json_t *players = json_object_get(r, "players");
	c->n = players ? (int)json_array_size(players) : c->game->players;
	if (!game_players_ok(c->game, c->n))
		return differ(c->v, "the header", "%d players; %s is played by %d to %d", c->n,
			      c->game->title, game_min_players(c->game), game_max_players(c->game));
	const json_t *params = json_object_get(r, "params_file");
	if (!json_is_integer(json_object_get(r, "seed")) ||
	    (params && !json_is_null(params) && !json_is_string(params)) ||
	    !json_is_array(json_object_get(r, "rounds")) ||
	    !json_is_object(json_object_get(r, "result")))
		return differ(c->v, "the header", "not a judge replay: \"seed\", \"params_file\", "
			      "\"rounds\" or \"result\" is missing or of the wrong type");
	return 0;
}

static int check_start(struct check *c, const json_t *r)
{
	err_t err;
	uint64_t seed = (uint64_t)json_integer_value(json_object_get(r, "seed"));
	c->g = game_create(c->game, json_string_value(json_object_get(r, "params_file")), seed,
			   c->n, err);
	if (!c->g)
		return differ(c->v, "the header", "its parameters do not load: %s", err->msg);
	c->buf = malloc(c->game->orders_max);
	if (!c->buf)
		return differ(c->v, "the header", "out of memory");
	json_t *start = c->game->replay_header(c->g);
	int rc = compare(c, "the start", "", json_object_get(r, "start"), start);
	json_decref(start);
	return rc;
}

/* ---- rounds --------------------------------------------------------------- */

/* Which seats play this round; a seat that stopped is frozen in the
 * engine, as the runner told it. */
static int check_live(struct check *c, const char *where, int r, const json_t *live)
{
	if (json_array_size(live) != (size_t)c->n)
		return differ(c->v, where, "\"live\" must list the %d seats", c->n);
	for (int p = 0; p < c->n; p++) {
		const json_t *l = json_array_get(live, (size_t)p);
		if (!json_is_integer(l) || json_integer_value(l) < 0 || json_integer_value(l) > 1)
			return differ(c->v, where, "live[%d] must be 0 or 1", p);
		if (json_integer_value(l) && c->stopped[p] >= 0)
			return differ(c->v, where, "seat %d plays again after it froze in round %d",
				      p, c->stopped[p]);
		if (!json_integer_value(l) && c->stopped[p] < 0)
			c->stopped[p] = r;
	}
	return 0;
}

/* A game of unit-by-unit turns: the recorded steps in the engine's order;
 * a seat whose steps end before the round's froze during it. */
static int feed_steps(struct check *c, const char *where, const json_t *orders, int round)
{
	err_t err;
	for (int p = 0; p < c->n; p++)
		if (c->stopped[p] >= 0 && c->stopped[p] < round)
			c->game->status(c->g, p, -1);
	for (int s; (s = c->game->next_seat(c->g)) >= 0;) {
		size_t len = c->game->replay_message(c->g, s, orders, c->buf, c->game->orders_max);
		if (len == 0 && c->stopped[s] < 0)
			return differ(c->v, where, "\"orders\" lack a step of seat %d", s);
		if (len == 0) {
			c->game->status(c->g, s, -1);
			continue;
		}
		if (c->game->orders(c->g, s, c->buf, len, err) < 0)
			return differ(c->v, where, "the engine refuses seat %d's orders: %s", s,
				      err->msg);
	}
	return 0;
}

/* A game of simultaneous turns: every live seat's orders, seat by seat. */
static int feed_seats(struct check *c, const char *where, const json_t *orders)
{
	err_t err;
	for (int p = 0; p < c->n; p++) {
		if (c->stopped[p] >= 0) {
			c->game->status(c->g, p, -1);
			continue;
		}
		size_t len = c->game->replay_message(c->g, p, orders, c->buf, c->game->orders_max);
		if (len == 0)
			return differ(c->v, where, "\"orders\" are not in %s's form "
				      "(games/%s/engine/replay.c describes it)", c->game->title,
				      c->game->name);
		if (c->game->orders(c->g, p, c->buf, len, err) < 0)
			return differ(c->v, where, "the engine refuses seat %d's orders: %s", p,
				      err->msg);
	}
	return 0;
}

static int feed_orders(struct check *c, const char *where, const json_t *orders, int round)
{
	if (!orders)
		return differ(c->v, where, "no \"orders\"");
	if (game_stepwise(c->game) ? feed_steps(c, where, orders, round)
				   : feed_seats(c, where, orders))
		return 1;
	json_t *taken = c->game->replay_orders(c->g);
	int rc = compare(c, where, "orders", orders, taken);
	if (rc)
		snprintf(c->v->what + strlen(c->v->what), sizeof c->v->what - strlen(c->v->what),
			 " (orders the engine does not take as recorded)");
	json_decref(taken);
	return rc;
}

static int check_round(struct check *c, int r, const json_t *frame)
{
	char where[48];
	snprintf(where, sizeof where, "round %d", r);
	if (!json_is_object(frame))
		return differ(c->v, where, "not a JSON object");
	if (check_live(c, where, r, json_object_get(frame, "live")) ||
	    feed_orders(c, where, json_object_get(frame, "orders"), r))
		return 1;
	c->game->advance(c->g);
	json_t *want = json_copy((json_t *)frame), *got = c->game->replay_round(c->g);
	json_object_del(want, "orders");
	json_object_del(want, "live");
	int rc = compare(c, where, "", want, got);
	json_decref(want);
	json_decref(got);
	return rc;
}

/* Seats the result says froze but the last round still saw playing: the
 * runner froze them after it, and a game may end on that (Blitz). */
static void freeze_the_rest(struct check *c, const json_t *result)
{
	size_t i;
	const json_t *f;
	json_array_foreach(json_object_get(result, "frozen"), i, f) {
		json_int_t seat = json_integer_value(json_array_get(f, 0));
		if (seat >= 0 && seat < c->n && c->stopped[seat] < 0)
			c->game->status(c->g, (int)seat, -1);
	}
}

/* Rounds are played until the game is over: its last round, or earlier
 * when the game ends early (one player left). */
static int check_rounds(struct check *c, const json_t *rounds, const json_t *result)
{
	size_t n = json_array_size(rounds);
	for (int p = 0; p < c->n; p++)
		c->stopped[p] = -1;
	for (int r = 0; (size_t)r < n; r++) {
		char where[48];
		snprintf(where, sizeof where, "round %d", r);
		if (game_over(c->game, c->g))
			return differ(c->v, where, "the replay has %zu rounds; the match was over "
				      "after %d", n, r);
		if (check_round(c, r, json_array_get(rounds, (size_t)r)))
			return 1;
		c->v->rounds = r + 1;
	}
	if (!game_over(c->game, c->g))
		freeze_the_rest(c, result);
	if (!game_over(c->game, c->g)) {
		char where[48];
		snprintf(where, sizeof where, "round %zu", n);
		return differ(c->v, where, "the replay has %zu rounds; the match has %d", n,
			      c->game->rounds(c->g));
	}
	return 0;
}

/* ---- the result ----------------------------------------------------------- */

static int check_scores(struct check *c, const json_t *result)
{
	int64_t score[GAME_MAX_PLAYERS];
	int rank[GAME_MAX_PLAYERS];
	c->game->scores(c->g, score);
	game_ranks(c->game, c->g, c->n, rank);
	json_t *scores = json_array(), *ranks = json_array();
	for (int p = 0; p < c->n; p++) {
		json_array_append_new(scores, json_integer(score[p]));
		json_array_append_new(ranks, json_integer(rank[p]));
	}
	int rc = compare(c, "the result", "scores", json_object_get(result, "scores"), scores) ||
		 compare(c, "the result", "ranks", json_object_get(result, "ranks"), ranks);
	json_decref(scores);
	json_decref(ranks);
	return rc;
}

/* Each [seat, round, verdict] of "frozen" against the rounds the seat
 * played: frozen in round f (-1: before the first) means it played the
 * rounds before f and none from f on. */
static int check_frozen(struct check *c, const json_t *frozen)
{
	bool listed[GAME_MAX_PLAYERS] = { false };
	size_t i;
	const json_t *f;
	if (!json_is_array(frozen))
		return differ(c->v, "the result", "\"frozen\" must be a list");
	json_array_foreach(frozen, i, f) {
		json_int_t seat = json_integer_value(json_array_get(f, 0));
		const json_t *round = json_array_get(f, 1);
		if (!json_is_integer(json_array_get(f, 0)) || seat < 0 || seat >= c->n ||
		    listed[seat] || !json_is_integer(round) || json_integer_value(round) < -1)
			return differ(c->v, "the result", "frozen[%zu] must be [seat, round, "
				      "verdict], one per seat", i);
		listed[seat] = true;
		json_int_t from = json_integer_value(round) < 0 ? 0 : json_integer_value(round);
		if (c->stopped[seat] != from)
			return differ(c->v, "the result", "seat %lld froze in round %lld, but its "
				      "last round played is %d", (long long)seat,
				      (long long)json_integer_value(round),
				      c->stopped[seat] < 0 ? c->v->rounds - 1 : c->stopped[seat] - 1);
	}
	for (int p = 0; p < c->n; p++)
		if (!listed[p] && c->stopped[p] >= 0)
			return differ(c->v, "the result", "seat %d stopped playing in round %d, "
				      "but the result does not say it froze", p, c->stopped[p]);
	return 0;
}

int replay_check(const json_t *replay, struct replay_verdict *v)
{
	memset(v, 0, sizeof *v);
	struct check c = { .v = v };
	int rc = check_header(&c, replay) || check_start(&c, replay) ||
		 check_rounds(&c, json_object_get(replay, "rounds"), json_object_get(replay, "result")) ||
		 check_scores(&c, json_object_get(replay, "result")) ||
		 check_frozen(&c, json_object_get(json_object_get(replay, "result"), "frozen"));
	if (c.g)
		c.game->destroy(c.g);
	free(c.buf);
	return rc;
}
