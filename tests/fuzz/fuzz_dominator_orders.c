/* fuzz_dominator_orders.c - libFuzzer target: hostile orders bytes against
 * the Dominator engine, through the `struct game` table as the runner uses it.
 *
 * One input plays a few rounds of one match:
 *
 *   u8  set      low 3 bits (mod the number of sets): which parameters;
 *                bit 7: play the input twice and demand the same bytes
 *   u8  board    which of the set's seeds (mod the set's count)
 *   then messages, up to the end of the input or MAX_ROUNDS rounds:
 *   u8  ctl      bits 0-1 the player; bit 2: resolve the round after it;
 *                bits 3-4 what the runner says first: 0 nothing,
 *                1 a CPU share of (bits 5-7) / 4, 2 an odd share (NaN,
 *                infinity, huge, -0), 3 frozen (a negative share)
 *   u16 len      little-endian; cut short by the end of the input
 *   len bytes    the orders message, handed to game->orders as they are
 *
 * It checks what must hold whatever the bytes: orders return what the
 * message's layout says (an independent reading, not the engine's decoder);
 * a refused player shows as frozen and its units stay put; a unit moves
 * only one step, the way its owner's first usable order said; views encode
 * within view_max and decode (player 0's after every round, all four and
 * their agreement at the start and the end); no unit leaves the board,
 * stands on a wall or shares a cell; land, scores, health and the replay
 * add up.  A broken rule aborts with a message, which libFuzzer reports as
 * a crash, saving the input.
 *
 * Speed: creating a match costs milliseconds (a 99 x 99 board with 1024
 * units over 100 ms under ASan), so each (set, seed) match is created once,
 * the first time an input asks for it, and every input plays on a copy.
 * dom.h promises a match is one flat struct allocated once and freed by
 * destroy, so a copy is a match; that is the only use of dom.h here,
 * everything else goes through game.h and proto.h as the runner's would.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/dominator/dom.h"
#include "games/dominator/proto.h"
#include "games/game.h"

#define MAX_ROUNDS 40 /* per input: longer inputs add little and slow the run */
#define MAX_SEEDS 8
#define FIXED_N 25

struct fuzz_set {
	const char *name;
	const char *params; /* NULL: the defaults */
	int seeds;          /* distinct boards (match seeds 1..seeds) */
};

static char fixed_board[256 + FIXED_N * (FIXED_N + 1)];

/* Each set reaches parts of the engine the others rarely do. */
static struct fuzz_set sets[] = {
	/* What contestants play. */
	{ "default", NULL, MAX_SEEDS },
	/* Crowded boxes, one-hit kills, no regeneration: captures and
	 * rebirth every round. */
	{ "crowded",
	  "rows 21\nfarmers 12\nknights 12\nwitches 4\ndamage_min 1\ndamage_max 300\n"
	  "farmer_regen 0\nknight_regen 0\n",
	  MAX_SEEDS },
	/* The end of a match within a few messages. */
	{ "short", "rounds 3\nrows 23\nfarmers 3\nknights 3\nwitches 1\n", 4 },
	/* The largest board with the most units: the view is exactly
	 * view_max bytes long. */
	{ "full", "rows 99\nfarmers 128\nknights 128\nwitches 0\n", 2 },
	/* As many witches as allowed: haunting and sweeps. */
	{ "witches", "rows 41\nfarmers 40\nknights 40\nwitches 20\n", 2 },
	/* A fixed board with inner walls and painted cells (built below). */
	{ "fixed", fixed_board, 4 },
};

#define NSETS ((int)(sizeof sets / sizeof sets[0]))

static const struct game *game;
static struct dom_state *templates[NSETS][MAX_SEEDS];

/* ---- failures ------------------------------------------------------------ */

#define FUZZ_NAME "fuzz_dominator_orders"
#include "tests/fuzz/fuzz_check.h"

/* ---- set-up -------------------------------------------------------------- */

/* 25 x 25: walls around, a cross of walls with two gaps per arm through the
 * middle band, a wall in each box, and cells already painted by every
 * player (some in a rival's box), so land starts nonzero and uneven. */
static void build_fixed_board(void)
{
	int len = snprintf(fixed_board, sizeof fixed_board,
			   "farmers 10\nknights 6\nwitches 2\nboard\n");
	const int n = FIXED_N, mid = FIXED_N / 2;
	for (int r = 0; r < n; r++) {
		for (int c = 0; c < n; c++) {
			char ch = '.';
			bool border = r == 0 || c == 0 || r == n - 1 || c == n - 1;
			bool cross = (r == mid && c >= 3 && c <= n - 4 && c != 6 && c != n - 7) ||
				     (c == mid && r >= 3 && r <= n - 4 && r != 6 && r != n - 7);
			if (border || cross || (r == 5 && c == 5) || (r == n - 6 && c == n - 6))
				ch = 'X';
			else if (r == 2 && c >= 2 && c <= 8)
				ch = '2';
			else if (c == n - 3 && r >= 14)
				ch = (char)('0' + r % 4);
			else if (r == mid + 1 && c < 8)
				ch = '1';
			fixed_board[len++] = ch;
		}
		fixed_board[len++] = '\n';
	}
	fixed_board[len] = '\0';
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	build_fixed_board();
	game = game_find("dominator");
	if (!game)
		fail("no game named dominator in the registry");
	return 0;
}

/* Made on first use, so a short run pays only for the sets it meets; the
 * same (set, seed) always gives the same match, so inputs stay
 * reproducible. */
static const struct dom_state *template(int set, int seed)
{
	if (!templates[set][seed]) {
		char err[GAME_ERRLEN] = "";
		struct game_state *g = game->create(sets[set].params, (uint64_t)seed + 1, err);
		check(g, "set %s, seed %d: create failed: %s", sets[set].name, seed + 1, err);
		templates[set][seed] = (struct dom_state *)g;
	}
	return templates[set][seed];
}

static struct game_state *copy_match(const struct dom_state *t)
{
	struct dom_state *d = malloc(sizeof *d);
	check(d, "out of memory");
	memcpy(d, t, sizeof *d);
	return (struct game_state *)d;
}

/* ---- the run ------------------------------------------------------------- */

struct run {
	struct game_state *g;
	int set;
	uint64_t seed;
	struct dom_msg_params params;
	int units;             /* on the board, all players */
	bool frozen[DOM_PLAYERS];
	int sent[DOM_PLAYERS]; /* orders accepted this round */
	/* Per unit id: its team at the start of the round (from player 0's
	 * view), and the real direction its team's first usable order chose
	 * this round (-1: none yet). */
	int8_t team[DOM_MAX_UNITS];
	int8_t chosen[DOM_MAX_UNITS];
	bool pending;          /* orders taken since the last advance */
	uint64_t hash;         /* every byte the engine produced */
};

/* Views are large (18 KB at most); one run at a time, so static. */
static struct dom_msg_view view[DOM_PLAYERS], before;
static uint16_t occupant[DOM_MAX_CELLS];

static void hash_bytes(struct run *r, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		r->hash = (r->hash ^ b[i]) * 0x100000001b3ull;
}

static void hash_json(struct run *r, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	check(s, "replay: json_dumps failed");
	hash_bytes(r, s, strlen(s));
	free(s);
}

/* An encoder given one byte too few must say so (0) without writing past
 * its buffer: an exact-size allocation lets ASan see any stray byte. */
static void check_short_cap(struct run *r, int player, bool start, size_t len)
{
	uint8_t *small = malloc(len - 1 ? len - 1 : 1);
	check(small, "out of memory");
	size_t got = start ? game->start(r->g, player, small, len - 1)
			   : game->view(r->g, player, small, len - 1);
	check(got == 0, "%s of player %d: %zu bytes into a buffer of %zu", start ? "start" : "view",
	      player, got, len - 1);
	free(small);
}

static void check_start(struct run *r)
{
	uint8_t *buf = malloc(game->start_max);
	check(buf, "out of memory");
	for (int p = 0; p < DOM_PLAYERS; p++) {
		size_t len = game->start(r->g, p, buf, game->start_max);
		check(len > 0 && len <= game->start_max, "start of player %d: %zu bytes (max %zu)",
		      p, len, game->start_max);
		struct dom_msg_start s;
		check(dom_start_decode(buf, len, &s), "start of player %d does not decode", p);
		check(s.seed == r->seed + (uint64_t)p + 1, "start of player %d: seed %llu", p,
		      (unsigned long long)s.seed);
		if (p == 0)
			r->params = s.params;
		check(memcmp(&s.params, &r->params, sizeof s.params) == 0,
		      "start of player %d: parameters differ from player 0's", p);
		hash_bytes(r, buf, len);
		if (p == 0)
			check_short_cap(r, p, true, len);
	}
	free(buf);
	const struct dom_msg_params *pp = &r->params;
	r->units = DOM_PLAYERS * (pp->farmers + pp->knights + pp->witches);
	check(game->rounds(r->g) == pp->rounds, "rounds() %d, start says %u", game->rounds(r->g),
	      pp->rounds);
}

static int full_health(const struct run *r, int type)
{
	return type == DOM_FARMER ? r->params.farmer_health
	       : type == DOM_KNIGHT ? r->params.knight_health
				    : 0;
}

/* One view on its own: the layout, the board, the units. */
static void check_one_view(struct run *r, int p, const uint8_t *buf, size_t len)
{
	struct dom_msg_view *v = &view[p];
	check(dom_view_decode(buf, len, v), "view of player %d (%zu bytes) does not decode", p,
	      len);
	int n = r->params.rows;
	size_t cells = (size_t)n * n;
	check(len == 6 + DOM_PLAYERS * DOM_VIEW_PLAYER_LEN + cells + 2 +
			     (size_t)v->nunits * DOM_VIEW_UNIT_LEN,
	      "view of player %d: %zu bytes for %u units", p, len, v->nunits);
	check(v->rows == n && v->cols == n, "view of player %d: %u x %u, the board is %d", p,
	      v->rows, v->cols, n);
	check(v->round == game->round(r->g), "view of player %d: round %u, round() %d", p,
	      v->round, game->round(r->g));

	int land[DOM_PLAYERS] = { 0 };
	for (size_t i = 0; i < cells; i++) {
		uint8_t c = v->cell[i];
		int owner = c & DOM_CELL_OWNER;
		check((c & 0x38) == 0 && owner <= DOM_PLAYERS, "view of player %d: cell %zu is %#x",
		      p, i, c);
		check(!(dom_cell_wall(c) && owner), "view of player %d: wall cell %zu has owner %d",
		      p, i, owner - 1);
		if (owner)
			land[owner - 1]++;
	}
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(v->player[q].land == land[q], "view of player %d: team %d has land %d, %d cells",
		      p, q, v->player[q].land, land[q]);

	/* Between rounds nobody waits for rebirth: every unit is on the board. */
	check(v->nunits == r->units, "view of player %d: %u units, the match has %d", p,
	      v->nunits, r->units);
	memset(occupant, 0xff, cells * sizeof *occupant);
	for (int i = 0; i < v->nunits; i++) {
		const struct dom_msg_unit *u = &v->unit[i];
		check(u->id < r->units, "view of player %d: unit id %u of %d", p, u->id, r->units);
		check(u->row < n && u->col < n, "view of player %d: unit %u off the board at (%u, %u)",
		      p, u->id, u->row, u->col);
		size_t cell = (size_t)u->row * n + u->col;
		check(!dom_cell_wall(v->cell[cell]), "view of player %d: unit %u on a wall at (%u, %u)",
		      p, u->id, u->row, u->col);
		check(occupant[cell] == 0xffff, "view of player %d: units %u and %u share (%u, %u)", p,
		      occupant[cell], u->id, u->row, u->col);
		occupant[cell] = u->id;
		int full = full_health(r, u->type);
		if (u->type == DOM_WITCH)
			check(u->health == 0, "witch %u has health %u", u->id, u->health);
		else
			check(u->health >= 1 && u->health <= full,
			      "unit %u (type %u) has health %u of %d", u->id, u->type, u->health, full);
	}
}

/* Player p's view is player 0's turned: the same units with the same type
 * and health, teams renumbered (q - p) mod 4, the same standings. */
static void check_against_view0(int p)
{
	const struct dom_msg_view *a = &view[0], *b = &view[p];
	static int16_t slot[DOM_MAX_UNITS];
	memset(slot, 0xff, sizeof slot);
	for (int i = 0; i < a->nunits; i++)
		slot[a->unit[i].id] = (int16_t)i;
	for (int i = 0; i < b->nunits; i++) {
		const struct dom_msg_unit *u = &b->unit[i];
		check(slot[u->id] >= 0, "unit %u in player %d's view, not in player 0's", u->id, p);
		const struct dom_msg_unit *w = &a->unit[slot[u->id]];
		slot[u->id] = -1; /* seen: a second copy fails above */
		check(u->type == w->type && u->health == w->health &&
			      u->owner == (w->owner - p + DOM_PLAYERS) % DOM_PLAYERS,
		      "unit %u: player %d sees type %u health %u team %u, player 0 %u %u %u", u->id, p,
		      u->type, u->health, u->owner, w->type, w->health, w->owner);
	}
	for (int q = 0; q < DOM_PLAYERS; q++) {
		const struct dom_msg_player *x = &b->player[q], *y = &a->player[(q + p) % DOM_PLAYERS];
		check(x->land == y->land && x->score == y->score && x->cpu == y->cpu,
		      "player %d's team %d is not player 0's team %d", p, q, (q + p) % DOM_PLAYERS);
	}
}

/* Player 0's view after every round (it sees the real board and teams, so
 * it carries the checks of the round); all four, their agreement and the
 * encoder's bound at the start and the end of the input only: views cost
 * most of the run, and the others only turn player 0's. */
static void check_views(struct run *r, bool all)
{
	uint8_t *buf = malloc(game->view_max);
	check(buf, "out of memory");
	for (int p = 0; p < (all ? DOM_PLAYERS : 1); p++) {
		size_t len = game->view(r->g, p, buf, game->view_max);
		check(len > 0 && len <= game->view_max, "view of player %d: %zu bytes (max %zu)", p,
		      len, game->view_max);
		check_one_view(r, p, buf, len);
		hash_bytes(r, buf, len);
		if (all && p == game->round(r->g) % DOM_PLAYERS)
			check_short_cap(r, p, false, len);
	}
	free(buf);
	for (int i = 0; i < view[0].nunits; i++)
		r->team[view[0].unit[i].id] = (int8_t)view[0].unit[i].owner;
	for (int p = 1; all && p < DOM_PLAYERS; p++)
		check_against_view0(p);
	for (int q = 0; q < DOM_PLAYERS; q++)
		check((view[0].player[q].cpu == -1) == r->frozen[q],
		      "player %d: view says cpu %d, it is %sfrozen", q, view[0].player[q].cpu,
		      r->frozen[q] ? "" : "not ");
	int64_t score[DOM_PLAYERS];
	game->scores(r->g, score);
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(score[q] == view[0].player[q].score, "scores() %lld, view %lld for team %d",
		      (long long)score[q], (long long)view[0].player[q].score, q);
}

static void check_replay_header(struct run *r)
{
	json_t *h = game->replay_header(r->g);
	check(json_is_object(h), "replay_header is not an object");
	hash_json(r, h);
	json_decref(h);
}

static void check_replay_round(struct run *r)
{
	json_t *f = game->replay_round(r->g);
	check(json_is_object(f), "replay_round is not an object");
	check(json_is_string(json_object_get(f, "moves")), "replay_round: no \"moves\"");
	json_t *score = json_object_get(f, "score");
	check(json_array_size(score) == DOM_PLAYERS, "replay_round: no \"score\" of 4");
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(json_integer_value(json_array_get(score, q)) == view[0].player[q].score,
		      "replay_round: score of team %d differs from the view", q);
	hash_json(r, f);
	json_decref(f);
}

/* Row and column steps of the directions, by the names proto.h gives them
 * (rows grow towards the bottom). */
static const int step[8][2] = {
	[DOM_BOTTOM] = { 1, 0 }, [DOM_BR] = { 1, 1 },	[DOM_RIGHT] = { 0, 1 },
	[DOM_RT] = { -1, 1 },	 [DOM_TOP] = { -1, 0 }, [DOM_TL] = { -1, -1 },
	[DOM_LEFT] = { 0, -1 },	 [DOM_LB] = { 1, -1 },
};

/* A unit that kept its team either stayed or took one step in the
 * direction its owner chose for it (never for a frozen team, never
 * diagonally unless a knight).  A capture always hands the unit to another
 * team, so a unit that kept its team was not reborn elsewhere. */
static void check_moves(const struct run *r, const bool frozen[DOM_PLAYERS])
{
	static int16_t slot[DOM_MAX_UNITS];
	memset(slot, 0xff, sizeof slot);
	for (int i = 0; i < before.nunits; i++)
		slot[before.unit[i].id] = (int16_t)i;
	for (int i = 0; i < view[0].nunits; i++) {
		const struct dom_msg_unit *u = &view[0].unit[i];
		check(slot[u->id] >= 0, "unit %u appeared from nowhere", u->id);
		const struct dom_msg_unit *b = &before.unit[slot[u->id]];
		check(u->type == b->type, "unit %u changed type %u -> %u", u->id, b->type, u->type);
		if (u->owner != b->owner)
			continue;
		int dr = u->row - b->row, dc = u->col - b->col;
		if (dr == 0 && dc == 0)
			continue;
		int dir = r->chosen[u->id];
		check(!frozen[u->owner], "unit %u of frozen team %u moved (%u,%u) -> (%u,%u)", u->id,
		      u->owner, b->row, b->col, u->row, u->col);
		check(dir >= 0 && dir < 8 && dr == step[dir][0] && dc == step[dir][1],
		      "unit %u (type %u, team %u) moved (%u,%u) -> (%u,%u), its order was %d", u->id,
		      u->type, u->owner, b->row, b->col, u->row, u->col, dir);
		check(u->type == DOM_KNIGHT || dr == 0 || dc == 0,
		      "unit %u (type %u) moved diagonally (%u,%u) -> (%u,%u)", u->id, u->type, b->row,
		      b->col, u->row, u->col);
	}
}

static void resolve(struct run *r)
{
	bool frozen[DOM_PLAYERS];
	memcpy(frozen, r->frozen, sizeof frozen);
	before = view[0];
	game->advance(r->g);
	check_views(r, false);
	check_moves(r, frozen);
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(view[0].player[q].score == before.player[q].score + view[0].player[q].land,
		      "team %d: score %lld after %lld plus land %d", q,
		      (long long)view[0].player[q].score, (long long)before.player[q].score,
		      view[0].player[q].land);
	check_replay_round(r);
	memset(r->sent, 0, sizeof r->sent);
	memset(r->chosen, -1, sizeof r->chosen);
	r->pending = false;
}

/* What the message's layout says, read here without proto.h's decoder:
 * u16 count, then count orders of 3 bytes, at most 1000 in a round. */
static int expected(const struct run *r, int player, const uint8_t *b, size_t len, int *count)
{
	if (len < 2)
		return -1;
	size_t n = (size_t)b[0] | (size_t)b[1] << 8;
	if (n > DOM_MAX_ORDERS || len != 2 + 3 * n || r->sent[player] + n > DOM_MAX_ORDERS)
		return -1;
	*count = (int)n;
	return 0;
}

/* The orders rules of dom.h: an order naming a unit of another team (or
 * none) or a direction past None is ignored; the first other one of each
 * unit counts.  Player p sees the board turned p quarter turns, and a
 * quarter turn is 2 steps of the direction circle (proto.h). */
static void choose(struct run *r, int player, const uint8_t *msg, int count)
{
	r->sent[player] += count;
	for (int i = 0; i < count; i++) {
		const uint8_t *o = msg + 2 + 3 * i;
		int id = o[0] | o[1] << 8, dir = o[2];
		if (id >= r->units || r->team[id] != player || dir > DOM_NONE || r->chosen[id] >= 0)
			continue;
		r->chosen[id] = (int8_t)(dir == DOM_NONE ? DOM_NONE : (dir + 2 * player) % 8);
	}
}

static void tell_status(struct run *r, int player, int how, int arg)
{
	static const double odd[4] = { __builtin_nan(""), __builtin_inf(), 1e300, -0.0 };
	if (how == 0)
		return;
	double share = how == 1 ? arg / 4.0 : how == 2 ? odd[arg & 3] : -1.0;
	game->status(r->g, player, share);
	if (share < 0)
		r->frozen[player] = true;
}

static void take_orders(struct run *r, int player, const uint8_t *data, size_t len)
{
	/* Its own allocation, so a read past the message is a read past a
	 * heap block, even in the middle of the input. */
	uint8_t *msg = malloc(len ? len : 1);
	char *err = malloc(GAME_ERRLEN);
	check(msg && err, "out of memory");
	memcpy(msg, data, len);
	memset(err, 0x5a, GAME_ERRLEN);
	int count = 0, want = expected(r, player, msg, len, &count);
	int got = game->orders(r->g, player, msg, len, err);
	check(got == 0 || got == -1, "orders of player %d returned %d", player, got);
	if (got < 0)
		check(err[0] && memchr(err, '\0', GAME_ERRLEN),
		      "orders of player %d: -1 without a terminated reason", player);
	/* A frozen player's messages go nowhere; either answer is fine. */
	if (!r->frozen[player]) {
		check(got == want,
		      "orders of player %d (%zu bytes, %d sent this round): %d, not %d%s%.*s", player,
		      len, r->sent[player], got, want, got < 0 ? ": " : "", got < 0 ? GAME_ERRLEN : 0,
		      err);
		if (got == 0)
			choose(r, player, msg, count);
		else
			r->frozen[player] = true; /* the runner freezes it */
	}
	hash_bytes(r, &got, sizeof got);
	r->pending = true;
	free(msg);
	free(err);
}

static uint64_t play(int set, int seed, const uint8_t *data, size_t size)
{
	static struct run r;
	r = (struct run){ .set = set, .seed = (uint64_t)seed + 1, .hash = 0xcbf29ce484222325ull };
	memset(r.chosen, -1, sizeof r.chosen);
	r.g = copy_match(template(set, seed));
	check_start(&r);
	check_replay_header(&r);
	check_views(&r, true);

	int rounds = game->rounds(r.g), played = 0;
	size_t off = 0;
	while (size - off >= 3 && played < MAX_ROUNDS && game->round(r.g) < rounds) {
		uint8_t ctl = data[off];
		size_t len = (size_t)data[off + 1] | (size_t)data[off + 2] << 8;
		off += 3;
		if (len > size - off)
			len = size - off;
		int player = ctl & 3;
		tell_status(&r, player, ctl >> 3 & 3, ctl >> 5);
		take_orders(&r, player, data + off, len);
		off += len;
		if (ctl & 4) {
			resolve(&r);
			played++;
		}
	}
	if (r.pending && game->round(r.g) < rounds)
		resolve(&r);
	check_views(&r, true);
	game->destroy(r.g);
	return r.hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	int set = (data[0] & 7) % NSETS;
	int seed = data[1] % sets[set].seeds;
	uint64_t h = play(set, seed, data + 2, size - 2);
	/* game.h: deterministic for (parameters, seed, orders). */
	if (data[0] & 0x80)
		check(play(set, seed, data + 2, size - 2) == h,
		      "the same input played twice gave different bytes");
	return 0;
}
