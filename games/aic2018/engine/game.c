/* game.c - AIC2018 as the judge sees it (games/game.h): a round is a
 * series of steps, each a run of one team's consecutive units (the
 * world's order), answered by that team's process at once.
 *
 * orders() applies a step's answer with the same rules the kit ran it
 * with: each entry is the next unit of the team that takes orders, in the
 * world's order (units under construction, unpaid or poisoned to death in
 * between are passed as aic_turn_start says, as the kit does); an action
 * the rules refuse is a protocol error (the kit checked it on its copy
 * with the same rules: only an altered kit sends one); the win is checked
 * after every unit.  An entry
 * for a unit that is not next, or more entries than the team has units
 * before the enemy's next one, is a protocol error; what came before it
 * stays applied and recorded.
 */
#include "games/aic2018/engine/engine.h"
#include "games/aic2018/engine/energy_asm.h"

#include <stdio.h>
#include <stdlib.h>

#include "games/aic2018/rules/internal.h"
#include "games/engine.h"

#define UNIT_TURN_CPU_NS (20 * 1000 * 1000ULL) /* generous: 15000 blocks take ~0.1 ms */
/* A team whose every unit spends its energy every round: 2000 rounds of
 * 50 such units take about 1 s here (10 us a unit's turn), an army of
 * hundreds more; the judge's default whole-match second is for the course
 * games' one program. */
#define MATCH_CPU_NS (20 * 1000 * 1000 * 1000ULL)

static struct game_state *create(const char *params, uint64_t seed, err_t err)
{
	struct aic_params p;
	if (aic_params_parse(params, &p, err) < 0)
		return NULL;
	struct game_state *g = game_state_alloc(sizeof *g, "AIC2018", err);
	if (!g)
		return NULL;
	if (aic_world_init(&g->w, &p, seed) < 0) {
		err_set(err, "no map of %d x %d joins the two starts in %d tries: try another "
			"seed or a larger size", g->w.width, g->w.height, AIC_MAP_TRIES);
		free(g);
		return NULL;
	}
	g->acting = -1;
	g->steps = json_array();
	aic_round_start(&g->w);
	return g;
}

static void destroy(struct game_state *g)
{
	if (g) {
		json_decref(g->steps);
		aic_replay_free(&g->replay);
	}
	free(g);
}

static int rounds(const struct game_state *g)
{
	return g->w.p.rounds;
}

static int round_(const struct game_state *g)
{
	return g->w.round;
}

static size_t start(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	(void)g;
	return aic_start_encode(player, buf, cap);
}

static size_t view(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	struct game_state *m = (struct game_state *)g; /* the view is built in g's scratch */
	if (g->acting < 0 || g->w.unit[g->acting].team != player)
		return 0;
	return aic_step_view(m, buf, cap);
}

/* The engine's part of a round up to the next unit that takes orders:
 * turn starts of the units before it (a frozen team's units only count
 * down), the win check after each.  Its seat, or -1 at the round's end. */
static int next_seat(struct game_state *g)
{
	struct aic_world *w = &g->w;
	if (g->acting >= 0)
		return w->unit[g->acting].team;
	while (!aic_over(w)) {
		int s = aic_next_unit(w);
		if (s < 0)
			return -1;
		int team = w->unit[s].team;
		if (aic_turn_start(w, s) == AIC_TURN_ACT && !g->frozen[team]) {
			g->acting = s;
			return team;
		}
		aic_check_win(w);
	}
	return -1;
}

static int step_units(const struct game_state *g, int player)
{
	return g->w.team[player].units;
}

/* ---- orders ---------------------------------------------------------------- */

static int apply(struct game_state *g, int slot, const struct aic_action *a)
{
	struct aic_world *w = &g->w;
	struct aic_loc at = { a->a, a->b };
	switch (a->kind) {
	case AIC_ACT_MOVE:
		return aic_move(w, slot, a->a);
	case AIC_ACT_ATTACK:
		return aic_attack(w, slot, at);
	case AIC_ACT_ABILITY:
		return aic_use_ability(w, slot, at);
	case AIC_ACT_SPAWN: {
		/* draw only for a spawn that will happen: the kit was given the
		 * ids of the next successful spawns */
		int e = aic_can_spawn(w, slot, a->a, a->b);
		return e ? e : aic_spawn(w, slot, a->a, a->b, aic_draw_id(w));
	}
	case AIC_ACT_GATHER:
		return aic_gather_vps(w, slot, a->a);
	case AIC_ACT_BUY:
		return aic_buy_vps(w, w->unit[slot].team, a->a | a->b << 8);
	case AIC_ACT_DIE:
		if (a->a != AIC_DIED_RETURNED && !g->faulted_unit[w->unit[slot].team]) {
			g->faulted_unit[w->unit[slot].team] = w->unit[slot].id;
			g->faulted_why[w->unit[slot].team] = a->a;
		}
		aic_hurt(w, slot, w->unit[slot].hp, -1, 0);
		return AIC_OK;
	default:
		return AIC_ERRORS;
	}
}

/* Moves on to the team's next unit that takes orders: passes its own
 * units that do not act; -1 when the next one is the enemy's or the round
 * or the match is over. */
static int next_own_unit(struct game_state *g, int team)
{
	struct aic_world *w = &g->w;
	while (!aic_over(w) && w->cursor + 1 < w->norder &&
	       w->unit[w->order[w->cursor + 1]].team == team) {
		int s = aic_next_unit(w);
		if (aic_turn_start(w, s) == AIC_TURN_ACT)
			return s;
		aic_check_win(w);
	}
	return -1;
}

static json_t *entry_json(struct aic_replay *r, int slot, const struct aic_action *acts, int n)
{
	json_t *flat = json_array();
	for (int i = 0; i < n; i++) {
		json_array_append_new(flat, aic_json_int(r, acts[i].kind));
		json_array_append_new(flat, aic_json_int(r, acts[i].a));
		json_array_append_new(flat, aic_json_int(r, acts[i].b));
	}
	json_t *entry = aic_json_ints(r, &slot, 1);
	json_array_append_new(entry, flat);
	return entry;
}

static int take_entry(struct game_state *g, struct wire_r *r, int slot, json_t *entries,
		      err_t err)
{
	int n = wire_get_u8(r);
	struct aic_action acts[AIC_MAX_ACTIONS];
	if (n > AIC_MAX_ACTIONS) {
		err_set(err, "unit %d: %d actions in one turn (at most %d)",
			g->w.unit[slot].id, n, AIC_MAX_ACTIONS);
		return -1;
	}
	for (int i = 0; i < n; i++)
		wire_copy(r, &acts[i], sizeof acts[i]);
	if (r->bad) {
		err_set(err, "the orders end in the middle of unit %d's actions",
			g->w.unit[slot].id);
		return -1;
	}
	int done = 0, e = AIC_OK;
	while (done < n && aic_alive(&g->w, slot) && (e = apply(g, slot, &acts[done])) == AIC_OK)
		done++;
	json_array_append_new(entries, entry_json(&g->replay, slot, acts, done));
	aic_check_win(&g->w);
	if (done < n && aic_alive(&g->w, slot)) {
		err_set(err, "unit %d's action %d breaks the rules (%s); the kit "
			"checks every action with the same rules, so its memory was altered",
			g->w.unit[slot].id, done + 1, e < AIC_ERRORS ? aic_strerror(e) : "unknown");
		return -1;
	}
	return 0;
}

static int take_entries(struct game_state *g, int team, struct wire_r *r, int count,
			json_t *entries, err_t err)
{
	int slot = g->acting;
	for (int k = 0; k < count; k++) {
		if (k > 0 && !aic_over(&g->w))
			slot = next_own_unit(g, team);
		if (aic_over(&g->w))
			return 0; /* the match ended: the rest never ran */
		int want = wire_get_u16(r);
		if (slot < 0 || want != slot) {
			err_set(err, "orders for %d units, but only %d of the team's "
				"units act before the enemy's next one", count, k);
			return -1;
		}
		if (take_entry(g, r, slot, entries, err) < 0)
			return -1;
	}
	return 0;
}

static int orders(struct game_state *g, int player, const uint8_t *buf, size_t len,
		  err_t err)
{
	if (g->acting < 0 || g->w.unit[g->acting].team != player) {
		err_set(err, "orders when none of its units is to act");
		return -1;
	}
	struct wire_r r = wire_reader(buf, len);
	int count = wire_get_u16(&r);
	json_t *entries = json_array();
	int rc = count < 1 ? err_fail(err, "orders for no unit")
			   : take_entries(g, player, &r, count, entries, err);
	if (rc == 0 && !aic_over(&g->w) && r.off != r.len) {
		err_set(err, "%zu bytes after the last unit's orders", r.len - r.off);
		rc = -1;
	}
	/* A step is recorded when it changed something: a replay then feeds
	 * exactly the steps that were taken. */
	if (json_array_size(entries)) {
		json_t *step = aic_json_ints(&g->replay, &player, 1);
		json_array_append_new(step, entries);
		json_array_append_new(g->steps, step);
		g->steps_fed++;
	} else {
		json_decref(entries);
	}
	g->acting = -1;
	return rc;
}

static int unit_fault(struct game_state *g, int player, int *unit, err_t why)
{
	if (player < 0 || player >= AIC_TEAMS || !g->faulted_unit[player])
		return 0;
	*unit = g->faulted_unit[player];
	err_set(why, "unit %d died: %s", *unit,
		aic_death_words(g->faulted_why[player]));
	g->faulted_unit[player] = 0;
	return 1;
}

static void status(struct game_state *g, int player, double cpu_share)
{
	if (cpu_share >= 0 || player < 0 || player >= AIC_TEAMS)
		return;
	g->frozen[player] = true;
	/* a unit waiting for the frozen team's answer takes none */
	if (g->acting >= 0 && g->w.unit[g->acting].team == player)
		g->acting = -1;
}

static void advance(struct game_state *g)
{
	aic_round_end(&g->w);
	if (!aic_over(&g->w))
		aic_round_start(&g->w);
	json_decref(g->steps);
	g->steps = json_array();
	g->steps_fed = 0;
	g->acting = -1;
}

static void scores(const struct game_state *g, int64_t *score)
{
	for (int t = 0; t < AIC_TEAMS; t++)
		score[t] = g->w.team[t].vp;
}

static bool over(const struct game_state *g)
{
	return aic_over(&g->w);
}

static void ranks(const struct game_state *g, int *rank)
{
	aic_ranks(&g->w, rank);
}

/* ---- replay ------------------------------------------------------------------ */

static json_t *replay_header(const struct game_state *g)
{
	return aic_replay_header(&((struct game_state *)g)->replay, &g->w);
}

static json_t *replay_round(const struct game_state *g)
{
	return aic_replay_round(&((struct game_state *)g)->replay, &g->w);
}

/* {"steps": [[seat, [[slot, [kind, a, b, ...]], ...]], ...]}: what each
 * step's orders() kept, in order. */
static json_t *replay_orders(const struct game_state *g)
{
	return json_pack("{s:O}", "steps", g->steps);
}

static bool put_entry(struct aic_orders_w *o, const json_t *entry)
{
	const json_t *flat = json_array_get(entry, 1);
	json_int_t slot = json_integer_value(json_array_get(entry, 0));
	size_t n = json_array_size(flat);
	if (!json_is_integer(json_array_get(entry, 0)) || !json_is_array(flat) || n % 3 ||
	    slot < 0 || slot >= AIC_MAX_UNITS)
		return false;
	aic_orders_entry(o, (int)slot);
	for (size_t i = 0; i < n; i += 3) {
		json_int_t v[3];
		for (int k = 0; k < 3; k++) {
			v[k] = json_integer_value(json_array_get(flat, i + (size_t)k));
			if (v[k] < 0 || v[k] > 255)
				return false;
		}
		if (!aic_orders_action(o, (struct aic_action){ (uint8_t)v[0], (uint8_t)v[1],
							      (uint8_t)v[2], 0 }))
			return false;
	}
	return true;
}

/* The message of this round's next recorded step, if it is player's. */
static size_t replay_message(const struct game_state *g, int player, const json_t *rec,
			     uint8_t *buf, size_t cap)
{
	const json_t *step = json_array_get(json_object_get(rec, "steps"), (size_t)g->steps_fed);
	const json_t *entries = json_array_get(step, 1);
	if (json_integer_value(json_array_get(step, 0)) != player || !json_is_array(entries) ||
	    json_array_size(entries) == 0)
		return 0;
	struct aic_orders_w o = aic_orders_begin(buf, cap);
	size_t i;
	const json_t *e;
	json_array_foreach(entries, i, e)
		if (!put_entry(&o, e))
			return 0;
	return aic_orders_end(&o);
}

const struct game aic2018_game = {
	.name = "aic2018",
	.title = "AIC2018",
	.players = 2,
	.start_max = AIC_START_LEN,
	.view_max = AIC_VIEW_MAX,
	.orders_max = AIC_ORDERS_MAX,
	.create = create,
	.destroy = destroy,
	.rounds = rounds,
	.round = round_,
	.start = start,
	.view = view,
	.orders = orders,
	.status = status,
	.advance = advance,
	.scores = scores,
	.over = over,
	.ranks = ranks,
	.turn_cpu_ns = UNIT_TURN_CPU_NS,
	.match_cpu_ns = MATCH_CPU_NS,
	.compile_flag = "-ffixed-r15",
	.asm_pass = energy_asm_rewrite,
	.asm_pass_version = ENERGY_ASM_VERSION,
	.no_writable_globals = true,
	.next_seat = next_seat,
	.step_units = step_units,
	.unit_fault = unit_fault,
	.replay_header = replay_header,
	.replay_round = replay_round,
	.replay_orders = replay_orders,
	.replay_message = replay_message,
};
