/* fuzz_orders.c - the libFuzzer entry points of the orders targets: the
 * input layout and the checks every engine must pass (fuzz_orders.h); the
 * game's own checks come through the hooks of fuzz_orders_game, defined by
 * the target linked with this file. */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "games/kit/rng.h"
#include "games/seed.h"
#include "tests/fuzz/fuzz_orders.h"

#define FUZZ_NAME "fuzz_orders"
#include "tests/fuzz/fuzz_check.h"

#define G fuzz_orders_game

/* Rounds played before an input starts, by depth (fuzz_orders.h). */
static const int fuzz_depth[FUZZ_DEPTHS] = { 0, 10, 40, 150 };

static const struct game *game;
static void *templates[FUZZ_MAX_SETS][FUZZ_MAX_SEEDS][FUZZ_DEPTHS];
/* Allocated once: the match an input plays, its copy that replays the
 * recorded orders, and the engine's messages. */
static void *match, *replayed;
static uint8_t *start_buf, *view_buf, *warm_buf;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	check(G.nsets >= 1 && G.nsets <= FUZZ_MAX_SETS, "%s: %d parameter sets", G.game, G.nsets);
	for (int s = 0; s < G.nsets; s++)
		check(G.sets[s].seeds >= 1 && G.sets[s].seeds <= FUZZ_MAX_SEEDS,
		      "%s: set %s has %d seeds", G.game, G.sets[s].name, G.sets[s].seeds);
	if (G.init)
		G.init();
	game = game_find(G.game);
	check(game, "no game named %s in the registry", G.game);
	check(game->players >= 1 && game->players <= 4, "%s: %d players", G.game, game->players);
	match = malloc(G.state_size);
	replayed = malloc(G.state_size);
	start_buf = malloc(game->start_max);
	view_buf = malloc(game->view_max);
	warm_buf = malloc(2 + FUZZ_WARM_ORDERS * G.order_len);
	check(match && replayed && start_buf && view_buf && warm_buf, "out of memory");
	return 0;
}

/* The warm-up: rounds of well-formed orders from a fixed generator (see
 * fuzz_orders.h), nobody frozen. */
static void warm_up(struct game_state *g, int rounds, uint64_t seed)
{
	struct rng rng = rng_seeded(seed);
	/* within the match's own limit (Blitz: its map's sites) */
	struct fuzz_run run = { .game = game, .g = g };
	int limit = G.max_orders_of ? G.max_orders_of(&run) : G.max_orders;
	int n = FUZZ_WARM_ORDERS < limit ? FUZZ_WARM_ORDERS : limit;
	size_t len = 2 + (size_t)n * G.order_len;
	err_t err;
	for (int r = 0; r < rounds && !game_over(game, g); r++) {
		for (int p = 0; p < game->players; p++) {
			warm_buf[0] = (uint8_t)(n & 0xff);
			warm_buf[1] = (uint8_t)(n >> 8);
			for (int k = 0; k < n; k++) {
				uint8_t *o = warm_buf + 2 + k * G.order_len;
				int id = rng_uniform(&rng, 0, FUZZ_WARM_IDS - 1);
				o[0] = (uint8_t)id;
				o[1] = (uint8_t)(id >> 8);
				for (size_t b = 2; b < G.order_len; b++)
					o[b] = (uint8_t)rng_uniform(&rng, 0, 9);
			}
			check(game->orders(g, p, warm_buf, len, err) == 0,
			      "%s: warm-up orders refused: %s", G.game, err->msg);
		}
		game->advance(g);
	}
}

static void check_replay_header(struct fuzz_run *r);

/* Made on first use, so a short run pays only for the sets it meets; the
 * same (set, seed, depth) always gives the same match, so inputs stay
 * reproducible. */
static const void *template(int set, int seed, int depth)
{
	if (!templates[set][seed][depth]) {
		err_t err = {0};
		struct game_state *g = game->create(G.sets[set].params, (uint64_t)seed + 1, err);
		check(g, "%s, set %s, seed %d: create failed: %s", G.game, G.sets[set].name, seed + 1,
		      err->msg);
		int rounds = fuzz_depth[depth] < game->rounds(g) ? fuzz_depth[depth]
								 : game->rounds(g) - 1;
		warm_up(g, rounds, (uint64_t)((set * FUZZ_MAX_SEEDS + seed) * FUZZ_DEPTHS + depth));
		/* Every input starts from this state: its replay header once. */
		struct fuzz_run r = { .game = game, .g = g, .set = set };
		check_replay_header(&r);
		templates[set][seed][depth] = g;
	}
	return templates[set][seed][depth];
}

static struct game_state *copy_match(const void *t, void *into)
{
	memcpy(into, t, G.state_size);
	return into;
}

/* ---- what the engine writes --------------------------------------------- */

static void hash_bytes(struct fuzz_run *r, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		r->hash = (r->hash ^ b[i]) * 0x100000001b3ull;
}

static void hash_json(struct fuzz_run *r, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	check(s, "%s: replay: json_dumps failed", G.game);
	hash_bytes(r, s, strlen(s));
	free(s);
}

/* An encoder given one byte too few must say so (0) without writing past
 * its buffer: an exact-size allocation lets ASan see any stray byte. */
static void check_short_cap(struct fuzz_run *r, int player, bool start, size_t len)
{
	uint8_t *small = malloc(len - 1 ? len - 1 : 1);
	check(small, "out of memory");
	size_t got = start ? game->start(r->g, player, small, len - 1)
			   : game->view(r->g, player, small, len - 1);
	check(got == 0, "%s: %s of player %d: %zu bytes into a buffer of %zu", G.game,
	      start ? "start" : "view", player, got, len - 1);
	free(small);
}

static void check_start(struct fuzz_run *r)
{
	uint8_t *buf = start_buf;
	for (int p = 0; p < game->players; p++) {
		size_t len = game->start(r->g, p, buf, game->start_max);
		check(len > 0 && len <= game->start_max, "%s: start of player %d: %zu bytes (max %zu)",
		      G.game, p, len, game->start_max);
		if (G.start)
			G.start(r, p, buf, len);
		hash_bytes(r, buf, len);
		if (p == 0)
			check_short_cap(r, p, true, len);
	}
}

/* Player 0's view after every round (it carries the checks of the round);
 * all of them and the encoder's bound at the start and the end of the
 * input only: views cost most of the run. */
void fuzz_check_start(const struct fuzz_run *r, int p, const struct fuzz_start *s, void *first,
		      size_t size)
{
	check(s->decoded, "start of player %d does not decode", p);
	check(s->me < 0 || s->me == p, "start of player %d says it is player %d", p, s->me);
	check(s->seed == seed_derive(r->seed, SEED_PLAYER, (unsigned)p),
	      "start of player %d: seed %llu, not its own", p, (unsigned long long)s->seed);
	if (p == 0)
		memcpy(first, s->params, size);
	check(memcmp(s->params, first, size) == 0,
	      "start of player %d: parameters differ from player 0's", p);
	check(r->game->rounds(r->g) == s->rounds, "rounds() %d, the start of player %d says %ld",
	      r->game->rounds(r->g), p, s->rounds);
}

bool fuzz_same_view(int p, const uint8_t *buf, size_t len)
{
	static uint8_t *first;
	static size_t first_len, first_cap;
	if (p > 0) {
		check(len == first_len && memcmp(buf, first, len) == 0,
		      "player %d's view is not player 0's", p);
		return false;
	}
	if (len > first_cap) {
		first = realloc(first, len);
		check(first, "out of memory for a view of %zu bytes", len);
		first_cap = len;
	}
	memcpy(first, buf, len);
	first_len = len;
	return true;
}

static void check_views(struct fuzz_run *r, bool all)
{
	uint8_t *buf = view_buf;
	for (int p = 0; p < (all ? game->players : 1); p++) {
		size_t len = game->view(r->g, p, buf, game->view_max);
		check(len > 0 && len <= game->view_max, "%s: view of player %d: %zu bytes (max %zu)",
		      G.game, p, len, game->view_max);
		if (G.view)
			G.view(r, p, buf, len, all);
		hash_bytes(r, buf, len);
		if (all && p == game->round(r->g) % game->players)
			check_short_cap(r, p, false, len);
	}
	if (G.views_done)
		G.views_done(r, all);
}

static void check_replay_header(struct fuzz_run *r)
{
	json_t *h = game->replay_header(r->g);
	check(json_is_object(h), "%s: replay_header is not an object", G.game);
	hash_json(r, h);
	json_decref(h);
}

/* The replay's promise: what replay_orders records, given back through
 * replay_message to the copy that saw none of the players' bytes (frozen
 * players told so, as `judge replay check` does), is what the engine holds
 * there too. */
static void replay_orders_back(struct fuzz_run *r)
{
	json_t *orders = game->replay_orders(r->g);
	uint8_t *buf = malloc(game->orders_max);
	err_t err;
	check(orders && buf, "%s: replay_orders failed", G.game);
	for (int p = 0; p < game->players; p++) {
		if (r->frozen[p]) {
			game->status(r->replayed, p, -1);
			continue;
		}
		size_t len = game->replay_message(r->replayed, p, orders, buf, game->orders_max);
		check(len > 0, "%s: replay_message of player %d refused replay_orders' own form",
		      G.game, p);
		check(game->orders(r->replayed, p, buf, len, err) == 0,
		      "%s: the replayed orders of player %d are refused: %s", G.game, p, err->msg);
	}
	json_t *again = game->replay_orders(r->replayed);
	check(json_equal(orders, again), "%s: replayed orders are not taken back as recorded",
	      G.game);
	json_decref(again);
	json_decref(orders);
	free(buf);
}

static void check_replayed_round(struct fuzz_run *r, const json_t *frame)
{
	game->advance(r->replayed);
	json_t *again = game->replay_round(r->replayed);
	check(json_equal(frame, again), "%s: round %d resolved from the replay's orders differs",
	      G.game, game->round(r->g));
	json_decref(again);
}

static void resolve(struct fuzz_run *r)
{
	bool frozen[GAME_MAX_PLAYERS];
	memcpy(frozen, r->frozen, sizeof frozen);
	int round = game->round(r->g);
	if (G.before_advance)
		G.before_advance(r);
	replay_orders_back(r);
	game->advance(r->g);
	check(game->round(r->g) == round + 1, "%s: round() %d after advancing round %d", G.game,
	      game->round(r->g), round);
	check_views(r, false);
	if (G.after_advance)
		G.after_advance(r, frozen);
	json_t *f = game->replay_round(r->g);
	check(json_is_object(f), "%s: replay_round is not an object", G.game);
	check_replayed_round(r, f);
	if (G.replay_round)
		G.replay_round(r, f);
	hash_json(r, f);
	json_decref(f);
	memset(r->sent, 0, sizeof r->sent);
}

/* ---- what the player writes ---------------------------------------------- */

/* What the message's layout says, read here without the game's decoder:
 * u16 count, then count orders of order_len bytes, at most max_orders a
 * round. */
static int expected(const struct fuzz_run *r, int player, const uint8_t *b, size_t len,
		    int *count)
{
	if (len < 2)
		return -1;
	size_t n = (size_t)b[0] | (size_t)b[1] << 8;
	size_t max = (size_t)(G.max_orders_of ? G.max_orders_of(r) : G.max_orders);
	if (n > max || len != 2 + G.order_len * n || r->sent[player] + n > max)
		return -1;
	*count = (int)n;
	return 0;
}

static void tell_status(struct fuzz_run *r, int player, int how, int arg)
{
	static const double odd[4] = { __builtin_nan(""), __builtin_inf(), 1e300, -0.0 };
	if (how == 0)
		return;
	double share = how == 1 ? arg / 4.0 : how == 2 ? odd[arg & 3] : -1.0;
	game->status(r->g, player, share);
	if (share < 0)
		r->frozen[player] = true;
}

static void take_orders(struct fuzz_run *r, int player, const uint8_t *data, size_t len)
{
	/* Its own allocation, so a read past the message is a read past a
	 * heap block, even in the middle of the input. */
	uint8_t *msg = malloc(len ? len : 1);
	struct err *err = malloc(sizeof *err);
	check(msg && err, "out of memory");
	memcpy(msg, data, len);
	memset(err->msg, 0x5a, sizeof err->msg);
	int count = 0, want = expected(r, player, msg, len, &count);
	int got = game->orders(r->g, player, msg, len, err);
	check(got == 0 || got == -1, "%s: orders of player %d returned %d", G.game, player, got);
	if (got < 0)
		check(err->msg[0] && memchr(err->msg, '\0', ERR_LEN),
		      "%s: orders of player %d: -1 without a terminated reason", G.game, player);
	/* A frozen player's messages go nowhere; either answer is fine. */
	if (!r->frozen[player]) {
		check(got == want,
		      "%s: orders of player %d (%zu bytes, %d sent this round): %d, not %d%s%.*s",
		      G.game, player, len, r->sent[player], got, want, got < 0 ? ": " : "",
		      got < 0 ? ERR_LEN : 0, err->msg);
		if (got == 0) {
			r->sent[player] += count;
			if (G.orders)
				G.orders(r, player, msg + 2, count);
		} else {
			r->frozen[player] = true; /* the runner freezes it */
		}
	}
	hash_bytes(r, &got, sizeof got);
	free(msg);
	free(err);
}

/* ---- one input ----------------------------------------------------------- */

static uint64_t play(int set, int seed, int depth, const uint8_t *data, size_t size)
{
	static struct fuzz_run r;
	r = (struct fuzz_run){ .game = game, .set = set, .seed = (uint64_t)seed + 1,
			       .hash = 0xcbf29ce484222325ull };
	r.g = copy_match(template(set, seed, depth), match);
	r.replayed = copy_match(template(set, seed, depth), replayed);
	if (G.begin)
		G.begin(&r);
	check_start(&r);
	check_views(&r, false); /* player 0's, for the hooks; all of them at the end */

	int rounds = game->rounds(r.g), played = 0;
	int cap = G.sets[set].max_rounds ? G.sets[set].max_rounds : FUZZ_MAX_ROUNDS;
	bool pending = false;
	size_t off = 0;
	while (size - off >= 3 && played < cap && !game_over(game, r.g)) {
		uint8_t ctl = data[off];
		size_t len = (size_t)data[off + 1] | (size_t)data[off + 2] << 8;
		off += 3;
		if (len > size - off)
			len = size - off;
		int player = (ctl & 3) % game->players;
		tell_status(&r, player, ctl >> 3 & 3, ctl >> 5);
		take_orders(&r, player, data + off, len);
		pending = true;
		off += len;
		/* An ejection may end the match before the round is resolved. */
		if (ctl & 4 && !game_over(game, r.g)) {
			resolve(&r);
			pending = false;
			played++;
		}
	}
	if (pending && !game_over(game, r.g))
		resolve(&r);
	check(game->round(r.g) <= rounds, "%s: round() %d past rounds() %d", G.game,
	      game->round(r.g), rounds);
	check_views(&r, true);
	return r.hash; /* the match buffers are the harness's: never destroyed */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	int set = (data[0] & 7) % G.nsets;
	int seed = (data[1] & 7) % G.sets[set].seeds, depth = data[1] >> 3 & 3;
	uint64_t h = play(set, seed, depth, data + 2, size - 2);
	/* game.h: deterministic for (parameters, seed, orders). */
	if (data[0] & 0x80)
		check(play(set, seed, depth, data + 2, size - 2) == h,
		      "%s: the same input played twice gave different bytes", G.game);
	return 0;
}
