#include "judge/play/match.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/play/debug.h"
#include "judge/play/seat.h"

struct match {
	const struct match_spec *spec;
	const struct game *game;
	struct game_state *g;
	struct sbx_policy *pol;
	struct sbx_limits limits; /* the spec's, grown for per-turn budgets */
	int n;
	uint64_t cpu_mark[GAME_MAX_PLAYERS]; /* CPU used when the step began */
	uint64_t cpu_end[GAME_MAX_PLAYERS];  /* ... when the last step was checked */
	bool cpu_end_known[GAME_MAX_PLAYERS]; /* and not yet used as a start */
	struct seat seat[GAME_MAX_PLAYERS];
	char name[GAME_MAX_PLAYERS][PLAYER_NAME_MAX + 1];
	uint8_t *buf;
	size_t buf_cap;
	json_t *start;  /* the replay's header: the state before round 1 */
	json_t *rounds;
	json_t *live;       /* the last round's "live", shared while it holds */
	unsigned live_mask; /* ... and the seats it says play */
	struct debug_record debug; /* marks and CPU per round, for the replay */
	int steps[GAME_MAX_PLAYERS]; /* each seat's steps so far in the round */
	struct match_fault *unit_fault[GAME_MAX_PLAYERS]; /* game.h: unit_fault */
};

/* The steps with CPU budgets, as a contestant reads them. */
#define STEP_START "its start"
#define STEP_TURN "one turn"
#define STEP_UNITS "its units' turns"

static bool alive(const struct match *m, int i)
{
	return !m->seat[i].frozen;
}

/* Seat i's CPU clock.  Reading it is a system call, and while a player
 * waits for its next message its clock stands still: so it is read at
 * most once between two messages (the budget check's read serves the
 * status, the CPU plot and the next budget's start). */
static uint64_t seat_clock(struct match *m, int i)
{
	if (!m->cpu_end_known[i]) {
		m->cpu_end[i] = sbx_cpu_ns(m->seat[i].proc);
		m->cpu_end_known[i] = true;
	}
	return m->cpu_end[i];
}

/* Where seat i's next message is written: straight into the region it
 * reads messages from, where it has one (game.h: start() and view() write
 * a message whole), so that it is not copied there once more. */
static uint8_t *message_room(struct match *m, int i, size_t *cap)
{
	uint8_t *room = seat_outbox(&m->seat[i], cap);
	if (room && *cap >= m->buf_cap)
		return room;
	*cap = m->buf_cap;
	return m->buf;
}

/* Writes seat i its start (or its view): the clock then is the input's
 * (for a crash record). */
static void write_seat(struct match *m, int i, bool start)
{
	size_t cap;
	uint8_t *room = message_room(m, i, &cap);
	size_t len = start ? m->game->start(m->g, i, room, cap) : m->game->view(m->g, i, room, cap);
	m->seat[i].input_cpu_ns = seat_clock(m, i);
	m->cpu_end_known[i] = false;
	seat_send(&m->seat[i], room, len);
}

/* Sends seat i its message, and it runs again. */
static void send_seat(struct match *m, int i, bool start)
{
	write_seat(m, i, start);
	seat_await(&m->seat[i], m->spec->limits.wall_ns);
}

/* The players of a round run once the judge gives up the CPU (seat.h),
 * so all their guards start at one instant, after the last message. */
static void send_all(struct match *m, bool start)
{
	for (int i = 0; i < m->n; i++)
		if (alive(m, i))
			write_seat(m, i, start);
	uint64_t now = sbx_now_ns();
	for (int i = 0; i < m->n; i++)
		if (alive(m, i))
			seat_await_at(&m->seat[i], m->spec->limits.wall_ns, now);
}

/* Per-turn budgets (game.h): each seat may use `budget` of CPU from its
 * message on.  The sandbox stops a seat that overruns while the runner
 * waits for its answer, within that step; check_budget() catches, after
 * the answers, what a seat used once it had answered.  Each step starts
 * where the last one's check read the clock (cpu_end), so the steps cover
 * the seat's CPU time end to end and each clock is read once a turn (a
 * system call); the runner's own work between them, while the players
 * wait for their views, counts in the next step. */
static void mark_seat_cpu(struct match *m, int i, uint64_t budget, const char *step)
{
	m->cpu_mark[i] = sbx_arm_cpu(m->seat[i].proc, budget, step, seat_clock(m, i));
}

static void mark_cpu(struct match *m, uint64_t budget, const char *step)
{
	/* most games have no budget per step: no clock to read each round */
	for (int i = 0; budget && i < m->n; i++)
		if (alive(m, i))
			mark_seat_cpu(m, i, budget, step);
}

/* Seat i used more CPU since its mark than `budget`: frozen.  Returns the
 * CPU clock it read. */
static uint64_t check_seat_budget(struct match *m, int i, int round, uint64_t budget,
				  const char *step)
{
	uint64_t now = sbx_cpu_ns(m->seat[i].proc), used = now - m->cpu_mark[i];
	m->cpu_end[i] = now;
	m->cpu_end_known[i] = true;
	if (used > budget) {
		char why[160];
		snprintf(why, sizeof why, SBX_STEP_CPU_MESSAGE, used / 1e9, step, budget / 1e9);
		seat_freeze(&m->seat[i], round, SBX_CPU, why);
	}
	return now;
}

static void check_budget(struct match *m, int round, uint64_t budget, const char *step)
{
	for (int i = 0; budget && i < m->n; i++)
		if (alive(m, i))
			check_seat_budget(m, i, round, budget, step);
}

/* The name seat i's program announced (len bytes at f, hostile) against
 * the one it was given: a program may not play under another player's
 * name, which every record of the match would then show. */
static void check_name(struct match *m, int i, const uint8_t *f, size_t len)
{
	const char *expected = m->name[i];
	if (!player_name_valid((const char *)f, len)) {
		seat_freeze(&m->seat[i], -1, SBX_STOPPED,
			    "protocol error: its name must be 1 to 12 letters, digits or _ "
			    "(write PLAYER_NAME(Name), without quotes)");
	} else if (len != strlen(expected) || memcmp(f, expected, len) != 0) {
		char why[96];
		snprintf(why, sizeof why, "its program calls itself '%.*s' but it was uploaded as '%s'",
			 (int)len, (const char *)f, expected);
		seat_freeze(&m->seat[i], -1, SBX_STOPPED, why);
	}
}

static void take_names(struct match *m)
{
	mark_cpu(m, m->game->init_cpu_ns, STEP_START);
	send_all(m, true);
	seat_collect(m->seat, m->n, -1);
	check_budget(m, -1, m->game->init_cpu_ns, STEP_START);
	for (int i = 0; i < m->n; i++) {
		size_t len;
		const uint8_t *f = seat_frame(&m->seat[i], &len);
		if (!f)
			continue;
		check_name(m, i, f, len);
		debug_start_cpu(&m->debug, i, seat_clock(m, i));
		seat_consume(&m->seat[i]);
		sbx_arm_wall(m->seat[i].proc, 0);
	}
}

/* Each player's share of its CPU budget, or -1 once frozen.  After the
 * orders only the seats that froze meanwhile need telling. */
static void tell_status(struct match *m, bool frozen_only)
{
	for (int i = 0; i < m->n; i++) {
		double share = -1;
		if (alive(m, i) && frozen_only)
			continue;
		if (alive(m, i) && m->limits.cpu_ns) {
			share = (double)seat_clock(m, i) / m->limits.cpu_ns;
		} else if (alive(m, i)) {
			share = 0;
		}
		m->game->status(m->g, i, share);
	}
}

/* Keeps the debug marks that came with seat i's answer: false when they
 * are not marks (the seat is frozen). */
static bool take_seat_marks(struct match *m, int i, int round)
{
	bool bad;
	size_t len;
	const uint8_t *marks = seat_marks(&m->seat[i], &len, &bad);
	if (!bad && (!marks || debug_take_marks(&m->debug, i, round, marks, len) == 0))
		return true;
	seat_freeze(&m->seat[i], round, SBX_STOPPED,
		    "protocol error: its debug marks are malformed (draw with the kit's calls)");
	return false;
}

/* Gives seat i's answer, if whole, to the engine. */
static void take_seat_orders(struct match *m, int i, int round)
{
	err_t err;
	size_t len;
	const uint8_t *f = seat_frame(&m->seat[i], &len);
	if (!f || !take_seat_marks(m, i, round))
		return;
	if (m->game->orders(m->g, i, f, len, err) < 0) {
		err_prefix(err, "protocol error");
		seat_freeze(&m->seat[i], round, SBX_STOPPED, err->msg);
		return;
	}
	seat_consume(&m->seat[i]);
	sbx_arm_wall(m->seat[i].proc, 0);
}

static void take_orders(struct match *m, int round)
{
	for (int i = 0; i < m->n; i++)
		take_seat_orders(m, i, round);
}

/* A record of the seat's last input (a copy), with the CPU used since. */
static struct match_fault *fault_of_input(struct seat *s, uint64_t cpu_now, uint64_t budget)
{
	struct match_fault *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	*f = (struct match_fault){ .message = s->messages - 1, .input_size = s->input_size,
				   .cpu_budget_ns = budget };
	f->input = seat_last_input(s, &f->input_len);
	if (cpu_now > s->input_cpu_ns && s->messages > 0)
		f->turn_cpu_ns = cpu_now - s->input_cpu_ns;
	return f;
}

/* Seat s's first unit that died by its own fault, with what the seat was
 * given for that step (a copy: the seat plays on). */
static void keep_unit_fault(struct match *m, int s, int round)
{
	int unit;
	err_t why;
	if (!m->game->unit_fault || !m->game->unit_fault(m->g, s, &unit, why) ||
	    m->unit_fault[s])
		return;
	struct match_fault *f = fault_of_input(&m->seat[s], seat_clock(m, s), m->limits.cpu_ns);
	if (!f)
		return;
	f->unit = unit;
	f->round = round;
	f->step = m->steps[s];
	snprintf(f->reason, sizeof f->reason, "%.*s", (int)sizeof f->reason - 1, why->msg);
	m->unit_fault[s] = f;
}

/* A round of a game whose units act one after another: one seat at a
 * time, as the engine says, each step's CPU against its units' turns (the
 * sandbox stops a seat past it while the runner waits). */
static void play_steps(struct match *m, int round)
{
	const struct game *gm = m->game;
	for (int s; (s = gm->next_seat(m->g)) >= 0;) {
		if (s >= m->n || !alive(m, s))
			break; /* the engine knows who froze: never happens */
		int units = gm->step_units ? gm->step_units(m->g, s) : 1;
		uint64_t budget = gm->turn_cpu_ns * (uint64_t)(units > 0 ? units : 1);
		if (budget)
			mark_seat_cpu(m, s, budget, STEP_UNITS);
		send_seat(m, s, false);
		seat_collect(&m->seat[s], 1, round);
		if (budget && alive(m, s))
			check_seat_budget(m, s, round, budget, STEP_UNITS);
		take_seat_orders(m, s, round);
		keep_unit_fault(m, s, round);
		m->steps[s]++;
		tell_status(m, true);
	}
	memset(m->steps, 0, sizeof m->steps);
}

/* The player's stderr as kept; a log cut at its cap ends with a line that
 * says so, so that a contestant reading it knows the rest is missing. */
static void copy_log(struct match_seat *ms, const struct sbx_result *r)
{
	char note[160] = "";
	if (r->log_dropped > 0)
		snprintf(note, sizeof note, "%s[judge: log cut at %zu bytes; %zu more bytes dropped]\n",
			 r->log_len && r->log[r->log_len - 1] != '\n' ? "\n" : "", r->log_len,
			 r->log_dropped);
	size_t extra = strlen(note);
	ms->log = malloc(r->log_len + extra + 1);
	if (!ms->log)
		return;
	memcpy(ms->log, r->log, r->log_len);
	memcpy(ms->log + r->log_len, note, extra + 1);
	ms->log_len = r->log_len + extra;
}

/* Which seats still play, as the replay's rounds say it: one array for
 * every round until a seat stops (nobody changes a recorded round). */
static json_t *live_seats(struct match *m)
{
	unsigned mask = 0;
	for (int i = 0; i < m->n; i++)
		mask |= (unsigned)alive(m, i) << i;
	if (!m->live || mask != m->live_mask) {
		json_decref(m->live);
		m->live = json_array();
		m->live_mask = mask;
		for (int i = 0; i < m->n; i++)
			json_array_append_new(m->live, json_integer(alive(m, i)));
	}
	return json_incref(m->live);
}

/* The game's record of the round, plus the orders it resolved and which
 * seats still play: with those, `judge replay check` replays the round. */
static void record_round(struct match *m, json_t *orders)
{
	json_t *frame = m->game->replay_round(m->g);
	for (int i = 0; i < m->n; i++)
		debug_end_round(&m->debug, i, seat_clock(m, i));
	json_object_set_new(frame, "orders", orders);
	json_object_set_new(frame, "live", live_seats(m));
	json_array_append_new(m->rounds, frame);
}

static void play_rounds(struct match *m)
{
	/* A frozen player may end the game early (Blitz: its pieces go to
	 * the map), so the end is checked again after the runner's word. */
	for (int r = 0; !game_over(m->game, m->g); r++) {
		/* The turn's CPU budget starts where the last check read the
		 * clocks, and the status takes the same reads (seat_clock).  A
		 * game of steps budgets each step instead. */
		bool stepwise = game_stepwise(m->game);
		if (!stepwise)
			mark_cpu(m, m->game->turn_cpu_ns, STEP_TURN);
		tell_status(m, false);
		if (game_over(m->game, m->g))
			break;
		if (stepwise) {
			/* the round changed the world as it went: always recorded */
			play_steps(m, r);
			json_t *orders = m->game->replay_orders(m->g);
			m->game->advance(m->g);
			record_round(m, orders);
			continue;
		}
		send_all(m, false);
		seat_collect(m->seat, m->n, r);
		check_budget(m, r, m->game->turn_cpu_ns, STEP_TURN);
		take_orders(m, r);
		tell_status(m, true);
		if (game_over(m->game, m->g))
			break;
		/* What the engine will act on: a seat frozen meanwhile has none. */
		json_t *orders = m->game->replay_orders(m->g);
		m->game->advance(m->g);
		record_round(m, orders);
	}
}

static int start_seats(struct match *m, err_t err)
{
	const struct match_spec *spec = m->spec;
	for (int i = 0; i < m->n; i++) {
		struct sbx_uid uid = { 0, -1 };
		if (geteuid() == 0 &&
		    sbx_uid_claim(spec->uid_base, spec->uid_count, &uid, err) < 0)
			return -1;
		size_t max_in = m->game->orders_max > 64 ? m->game->orders_max : 64;
		if (seat_start(&m->seat[i], m->pol, spec->entry[i].binary, uid.uid, max_in,
			       m->buf_cap, err) < 0) {
			sbx_uid_release(&uid);
			return -1;
		}
		m->seat[i].uid = uid;
	}
	return 0;
}

_Static_assert(MATCH_INPUT_KEEP == SEAT_INPUT_KEEP, "a seat keeps what a fault holds");

static void fill_result(struct match *m, struct match_result *out)
{
	int64_t score[GAME_MAX_PLAYERS];
	int rank[GAME_MAX_PLAYERS];
	m->game->scores(m->g, score);
	game_ranks(m->game, m->g, m->n, rank);
	out->nplayers = m->n;
	out->rounds = m->game->round(m->g);
	for (int i = 0; i < m->n; i++)
		seat_end(&m->seat[i]);
	for (int i = 0; i < m->n; i++) {
		struct match_seat *ms = &out->seat[i];
		struct seat *s = &m->seat[i];
		const struct sbx_result *r = seat_finish(s);
		memcpy(ms->name, m->name[i], sizeof ms->name);
		ms->score = score[i];
		ms->rank = rank[i];
		ms->frozen = s->frozen;
		ms->frozen_round = s->frozen_round;
		ms->verdict = s->frozen ? r->verdict : SBX_RUNNING;
		snprintf(ms->reason, sizeof ms->reason, "%s", s->frozen ? s->reason : "");
		ms->cpu_ns = r->cpu_ns;
		ms->peak_memory = r->peak_memory;
		copy_log(ms, r);
		if (s->frozen)
			ms->fault = fault_of_input(s, r->cpu_ns, m->limits.cpu_ns);
		else
			ms->fault = m->unit_fault[i];
		if (ms->fault == m->unit_fault[i])
			m->unit_fault[i] = NULL;
	}
}

static json_t *replay_players(const struct match *m)
{
	json_t *players = json_array();
	for (int i = 0; i < m->n; i++) {
		const struct match_entry *e = &m->spec->entry[i];
		json_array_append_new(players, json_pack("{s:s, s:s, s:s?, s:s?}",
			"name", m->name[i], "label", e->label ? e->label : e->binary,
			"binary_sha256", e->binary_sha256, "source_sha256", e->source_sha256));
	}
	return players;
}

static json_t *replay_result(const struct match_result *r)
{
	json_t *scores = json_array(), *ranks = json_array(), *frozen = json_array();
	for (int i = 0; i < r->nplayers; i++) {
		const struct match_seat *s = &r->seat[i];
		json_array_append_new(scores, json_integer(s->score));
		json_array_append_new(ranks, json_integer(s->rank));
		if (s->frozen)
			json_array_append_new(frozen, json_pack("[i, i, s]", i, s->frozen_round,
								sbx_verdict_name(s->verdict)));
	}
	return json_pack("{s:o, s:o, s:o}", "scores", scores, "ranks", ranks, "frozen", frozen);
}

static json_t *build_replay(struct match *m, const struct match_result *r)
{
	const struct match_spec *spec = m->spec;
	const struct sbx_limits *l = &m->limits;
	json_t *replay = json_pack("{s:i, s:s, s:I, s:s?, s:o, s:s?, s:{s:I, s:I, s:I}, s:O, s:O, s:o}",
		"format", MATCH_REPLAY_FORMAT, "game", m->game->name, "seed", (json_int_t)spec->seed,
		"params_file", spec->params, "players", replay_players(m), "compiler", spec->compiler,
		"limits", "cpu_ms", (json_int_t)(l->cpu_ns / 1000000),
		"memory_mb", (json_int_t)(l->memory_bytes >> 20),
		"wall_ms", (json_int_t)(l->wall_ns / 1000000),
		"start", m->start, "rounds", m->rounds,
		"result", replay_result(r));
	debug_finish(&m->debug, replay);
	return replay;
}

/* The players of a match share one core (match_spec.pin_cpu), so while the
 * judge waits for one, the others may each use up their CPU budget too:
 * with four players, four budgets.  Beyond that, each round costs the
 * judge itself some wall time (views, pipes, five context switches: 25 to
 * 260 us measured), which the per-round allowance covers many times.
 * cpu_ns is the match's budget: the judge's, or what the game raised it to
 * (its turns' budgets, its own least budget). */
static uint64_t wall_budget(const struct match_spec *spec, uint64_t cpu_ns, int rounds)
{
	if (!cpu_ns)
		return 0; /* no CPU budget: no time bound at all */
	return spec->wall_budget_factor * cpu_ns +
	       (uint64_t)(rounds > 0 ? rounds : 0) * spec->wall_round_ns;
}

static int prepare(struct match *m, const struct match_spec *spec, err_t err)
{
	const struct game *game = spec->game;
	*m = (struct match){ .spec = spec, .game = game, .n = spec->nplayers };
	if (!game_players_ok(game, m->n)) {
		err_set(err, "%s is played by %d to %d players, not %d",
			 game->title, game_min_players(game), game_max_players(game), m->n);
		return -1;
	}
	for (int i = 0; i < m->n; i++) {
		const char *name = spec->entry[i].name;
		if (!name || !player_name_valid(name, strlen(name))) {
			err_set(err, "seat %d has no valid player name", i);
			return -1;
		}
		snprintf(m->name[i], sizeof m->name[i], "%s", name);
	}
	m->g = game_create(game, spec->params, spec->seed, m->n, err);
	if (!m->g)
		return -1;
	m->start = game->replay_header(m->g);
	debug_init(&m->debug, m->n);
	m->buf_cap = game_message_max(game);
	m->buf = malloc(m->buf_cap);
	m->rounds = json_array();
	m->limits = spec->limits;
	/* With budgets per turn, the whole match may take them all. */
	uint64_t all_turns = game->init_cpu_ns + (uint64_t)game->rounds(m->g) * game->turn_cpu_ns;
	if (game->turn_cpu_ns && !game_stepwise(game) && all_turns > m->limits.cpu_ns)
		m->limits.cpu_ns = all_turns;
	if (game->match_cpu_ns > m->limits.cpu_ns)
		m->limits.cpu_ns = game->match_cpu_ns;
	m->limits.wall_budget_ns = wall_budget(spec, m->limits.cpu_ns, game->rounds(m->g));
	m->pol = sbx_policy_new(SBX_PLAYER, &m->limits, err);
	/* A round goes to every seat at once: the players wait for the judge
	 * to send them all before they run (sandbox.h).  A game of steps
	 * waits for one seat at a time, which would only wait longer. */
	if (m->pol && !game_stepwise(game))
		sbx_policy_set_batch(m->pol);
	return m->buf && m->pol ? 0 : -1;
}

static void release(struct match *m)
{
	for (int i = 0; i < m->n; i++)
		if (m->seat[i].in || m->seat[i].proc)
			seat_free(&m->seat[i]);
	if (m->g)
		m->game->destroy(m->g);
	sbx_policy_free(m->pol);
	json_decref(m->start);
	json_decref(m->rounds);
	json_decref(m->live);
	debug_free(&m->debug);
	free(m->buf);
	for (int i = 0; i < m->n; i++)
		if (m->unit_fault[i]) {
			free(m->unit_fault[i]->input);
			free(m->unit_fault[i]);
		}
}

/* Players inherit the affinity of the thread that starts them. */
static bool pin(const struct match_spec *spec, cpu_set_t *saved)
{
	if (!spec->pin_cpu || sched_getaffinity(0, sizeof *saved, saved) < 0)
		return false;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(spec->cpu, &one);
	return sched_setaffinity(0, sizeof one, &one) == 0;
}

int match_play(const struct match_spec *spec, struct match_result *out, err_t err)
{
	struct match m;
	cpu_set_t saved;
	memset(out, 0, sizeof *out);
	bool pinned = pin(spec, &saved);
	int rc = prepare(&m, spec, err);
	if (rc == 0)
		rc = start_seats(&m, err);
	if (rc == 0) {
		take_names(&m);
		play_rounds(&m);
		fill_result(&m, out);
		out->replay = build_replay(&m, out);
	}
	release(&m);
	if (pinned)
		sched_setaffinity(0, sizeof saved, &saved);
	return rc;
}

void match_result_free(struct match_result *r)
{
	for (int i = 0; i < r->nplayers; i++) {
		free(r->seat[i].log);
		if (r->seat[i].fault)
			free(r->seat[i].fault->input);
		free(r->seat[i].fault);
	}
	json_decref(r->replay);
	memset(r, 0, sizeof *r);
}
