/* runner.c (student kit) - ./Game: one match on this machine, the players
 * linked into this program (players.h), the judge's own engine deciding.
 *
 *   ./Game Demo Dummy Demo Mine -s 7 [-i params.cnf] [-o replay.json] [--cpu MS]
 *
 * The same seed and players give the same match as on the judge: the
 * engine, the seeds, the parameters in force (params.cnf) and the order of
 * every step are the judge's.  Only the clock differs: CPU time is measured
 * here in this process, so a player close to its budget may freeze on one
 * machine and not on the other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/game.h"
#include "players.h"

#define PARAMS_MAX (1 << 20)
#define REASON_MAX 300

extern const struct game LOCAL_GAME;

struct seat {
	const struct local_player *player;
	uint64_t cpu_ns;
	int frozen_round; /* -1: before the first round */
	char reason[REASON_MAX];
	uint8_t *reply;
	long reply_len;
};

struct local_match {
	const struct game *game;
	struct game_state *g;
	int n;
	struct seat seat[LOCAL_SEATS];
	uint64_t cpu_budget_ns;
	uint8_t *buf;
	size_t buf_cap;
	json_t *rounds; /* the replay's rounds when one is written */
};

struct args {
	const char *players[LOCAL_SEATS];
	int n;
	unsigned long long seed;
	const char *params, *output;
	long cpu_ms;
};

static void usage(const char *why)
{
	fprintf(stderr, "Game: %s\n"
			"usage: ./Game PLAYER... [-s SEED] [-i PARAMS] [-o REPLAY.json] [--cpu MS]\n"
			"  PLAYER  a player linked in: an AIName.c of this folder (give Name) or an\n"
			"          opponent of opponents/; `./Game --list` names them\n",
		why);
	exit(2);
}

static const struct local_player *find_player(const char *name)
{
	if (strncmp(name, "AI", 2) == 0 && !strchr(name, '.'))
		name += 2; /* AIDemo is Demo */
	for (const struct local_player *p = local_players; p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

static const char *option_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		usage("an option needs a value");
	return argv[++*i];
}

static unsigned long long number(const char *s, unsigned long long max, const char *what)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v > max) {
		fprintf(stderr, "Game: %s must be a number from 0 to %llu, not '%s'\n", what, max, s);
		exit(2);
	}
	return v;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	*a = (struct args){ .seed = 1, .params = "params.cnf", .cpu_ms = LOCAL_CPU_MS };
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (strcmp(s, "--list") == 0) {
			for (const struct local_player *p = local_players; p->name; p++)
				printf("%s\n", p->name);
			exit(0);
		} else if (strcmp(s, "-s") == 0 || strcmp(s, "--seed") == 0) {
			a->seed = number(option_value(argc, argv, &i), (1ULL << 63) - 1, "the seed");
		} else if (strcmp(s, "-i") == 0 || strcmp(s, "--params") == 0) {
			a->params = option_value(argc, argv, &i);
		} else if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) {
			a->output = option_value(argc, argv, &i);
		} else if (strcmp(s, "--cpu") == 0) {
			a->cpu_ms = (long)number(option_value(argc, argv, &i), 3600 * 1000, "--cpu");
		} else if (s[0] == '-') {
			usage("unknown option");
		} else if (a->n == LOCAL_SEATS) {
			usage("too many players");
		} else {
			a->players[a->n++] = s;
		}
	}
}

/* The parameters file's text; NULL (the game's defaults) when there is none. */
static char *read_params(const char *path, bool given)
{
	FILE *f = fopen(path, "r");
	if (!f && !given)
		return NULL;
	if (!f) {
		fprintf(stderr, "Game: cannot read %s: %s\n", path, strerror(errno));
		exit(2);
	}
	char *text = malloc(PARAMS_MAX + 1);
	size_t n = text ? fread(text, 1, PARAMS_MAX + 1, f) : 0;
	fclose(f);
	if (!text || n > PARAMS_MAX) {
		fprintf(stderr, "Game: %s is larger than %d bytes\n", path, PARAMS_MAX);
		exit(2);
	}
	text[n] = '\0';
	return text;
}

static uint64_t cpu_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

static bool alive(const struct local_match *m, int i)
{
	return m->seat[i].reason[0] == '\0';
}

static void freeze(struct local_match *m, int i, int round, const char *why)
{
	struct seat *s = &m->seat[i];
	if (!alive(m, i))
		return;
	s->frozen_round = round;
	snprintf(s->reason, sizeof s->reason, "%s", why);
	m->game->status(m->g, i, -1);
}

/* Charges seat i the CPU time since t0; freezes it past a budget. */
static void charge(struct local_match *m, int i, int round, uint64_t t0, uint64_t step_budget)
{
	uint64_t used = cpu_now_ns() - t0;
	m->seat[i].cpu_ns += used;
	if (m->cpu_budget_ns && m->seat[i].cpu_ns > m->cpu_budget_ns)
		freeze(m, i, round, "used up its CPU time for the whole game");
	else if (step_budget && used > step_budget)
		freeze(m, i, round, "used more CPU time than one step may");
}

/* Each seat's share of its CPU budget, as the judge tells the engine. */
static void tell_status(struct local_match *m)
{
	for (int i = 0; i < m->n; i++)
		m->game->status(m->g, i, !alive(m, i)	  ? -1
					 : m->cpu_budget_ns ? (double)m->seat[i].cpu_ns / m->cpu_budget_ns
							    : 0);
}

static void start_players(struct local_match *m)
{
	for (int i = 0; i < m->n; i++) {
		size_t len = m->game->start(m->g, i, m->buf, m->buf_cap);
		uint64_t t0 = cpu_now_ns();
		int rc = m->seat[i].player->start[i](m->buf, len);
		if (rc < 0)
			freeze(m, i, -1, "its kit refused the start message");
		charge(m, i, -1, t0, m->game->init_cpu_ns);
	}
}

/* Every live seat's view and answer first, then the orders taken, as the
 * judge sends all views before it reads any orders. */
static void play_turns(struct local_match *m, int round)
{
	for (int i = 0; i < m->n; i++) {
		if (!alive(m, i))
			continue;
		size_t len = m->game->view(m->g, i, m->buf, m->buf_cap);
		uint64_t t0 = cpu_now_ns();
		struct seat *s = &m->seat[i];
		s->reply_len = s->player->turn[i](m->buf, len, s->reply, m->game->orders_max);
		charge(m, i, round, t0, m->game->turn_cpu_ns);
		if (s->reply_len < 0)
			freeze(m, i, round, "its kit could not read the view");
	}
	for (int i = 0; i < m->n; i++) {
		err_t err;
		struct seat *s = &m->seat[i];
		if (alive(m, i) &&
		    m->game->orders(m->g, i, s->reply, (size_t)s->reply_len, err) < 0) {
			err_prefix(err, "protocol error");
			freeze(m, i, round, err->msg);
		}
	}
}

static void record_round(struct local_match *m, json_t *orders)
{
	if (!m->rounds) {
		json_decref(orders);
		return;
	}
	json_t *frame = m->game->replay_round(m->g), *live = json_array();
	for (int i = 0; i < m->n; i++)
		json_array_append_new(live, json_integer(alive(m, i)));
	json_object_set_new(frame, "orders", orders);
	json_object_set_new(frame, "live", live);
	json_array_append_new(m->rounds, frame);
}

static void play_rounds(struct local_match *m)
{
	for (int r = 0; !game_over(m->game, m->g); r++) {
		tell_status(m);
		if (game_over(m->game, m->g))
			break;
		play_turns(m, r);
		if (game_over(m->game, m->g))
			break;
		json_t *orders = m->rounds ? m->game->replay_orders(m->g) : NULL;
		m->game->advance(m->g);
		record_round(m, orders);
	}
}

static json_t *replay_result(const struct local_match *m, const int64_t *score,
			     const int *rank)
{
	json_t *scores = json_array(), *ranks = json_array(), *frozen = json_array();
	for (int i = 0; i < m->n; i++) {
		json_array_append_new(scores, json_integer(score[i]));
		json_array_append_new(ranks, json_integer(rank[i]));
		if (!alive(m, i))
			json_array_append_new(frozen, json_pack("[i, i, s]", i,
								m->seat[i].frozen_round, "stopped"));
	}
	return json_pack("{s:o, s:o, s:o}", "scores", scores, "ranks", ranks, "frozen", frozen);
}

/* The replay in the judge's form, for the viewer. */
static void write_replay(const struct local_match *m, const struct args *a, const char *params,
			 json_t *start, const int64_t *score, const int *rank)
{
	json_t *replay = json_object(), *players = json_array();
	for (int i = 0; i < m->n; i++)
		json_array_append_new(players, json_pack("{s:s, s:s}", "name",
							 m->seat[i].player->name, "label",
							 a->players[i]));
	json_object_set_new(replay, "format", json_integer(2));
	json_object_set_new(replay, "game", json_string(m->game->name));
	json_object_set_new(replay, "seed", json_integer((json_int_t)a->seed));
	if (params) /* the judge's checks replay the match with the same text */
		json_object_set_new(replay, "params_file", json_string(params));
	json_object_set_new(replay, "players", players);
	json_object_set_new(replay, "start", start);
	json_object_set(replay, "rounds", m->rounds);
	json_object_set_new(replay, "result", replay_result(m, score, rank));
	FILE *f = fopen(a->output, "w");
	if (!f || json_dumpf(replay, f, JSON_COMPACT) < 0 || fclose(f) != 0) {
		fprintf(stderr, "Game: cannot write %s: %s\n", a->output, strerror(errno));
		exit(1);
	}
	json_decref(replay);
}

static void print_table(const struct local_match *m, const int64_t *score, const int *rank)
{
	printf("%-4s %-12s %10s %4s %9s  %s\n", "seat", "player", "score", "rank", "cpu",
	       "frozen");
	for (int i = 0; i < m->n; i++) {
		const struct seat *s = &m->seat[i];
		char frozen[REASON_MAX + 32] = "-";
		if (!alive(m, i) && s->frozen_round < 0)
			snprintf(frozen, sizeof frozen, "before the first round: %s", s->reason);
		else if (!alive(m, i))
			snprintf(frozen, sizeof frozen, "round %d: %s", s->frozen_round, s->reason);
		printf("%-4d %-12s %10lld %4d %7.3f s  %s\n", i, s->player->name,
		       (long long)score[i], rank[i], s->cpu_ns / 1e9, frozen);
	}
}

static void take_players(struct local_match *m, const struct args *a)
{
	if (!game_players_ok(m->game, a->n)) {
		fprintf(stderr, "Game: %s needs %d to %d players, %d given\n", m->game->title,
			game_min_players(m->game), game_max_players(m->game), a->n);
		exit(2);
	}
	m->n = a->n;
	for (int i = 0; i < m->n; i++) {
		m->seat[i].player = find_player(a->players[i]);
		if (!m->seat[i].player) {
			fprintf(stderr, "Game: no player '%s' is linked in (./Game --list names "
					"them; put AI%s.c in this folder and run make)\n",
				a->players[i], a->players[i]);
			exit(2);
		}
		m->seat[i].reply = malloc(m->game->orders_max);
		if (!m->seat[i].reply)
			exit(1);
	}
}

/* The whole match's CPU budget, raised as the judge raises it for a game
 * with budgets per turn or a least budget of its own. */
static uint64_t match_budget(const struct game *gm, const struct game_state *g, long cpu_ms)
{
	uint64_t budget = (uint64_t)cpu_ms * 1000000;
	uint64_t all_turns = gm->init_cpu_ns + (uint64_t)gm->rounds(g) * gm->turn_cpu_ns;
	if (budget && gm->turn_cpu_ns && all_turns > budget)
		budget = all_turns;
	if (budget && gm->match_cpu_ns > budget)
		budget = gm->match_cpu_ns;
	return budget;
}

int main(int argc, char **argv)
{
	struct args a;
	struct local_match m = { .game = &LOCAL_GAME };
	parse_args(argc, argv, &a);
	take_players(&m, &a);
	char *params = read_params(a.params, strcmp(a.params, "params.cnf") != 0);
	err_t err;
	m.g = game_create(m.game, params, a.seed, m.n, err);
	if (!m.g) {
		fprintf(stderr, "Game: %s: %s\n", a.params, err->msg);
		return 2;
	}
	m.cpu_budget_ns = match_budget(m.game, m.g, a.cpu_ms);
	m.buf_cap = game_message_max(m.game);
	m.buf = malloc(m.buf_cap);
	json_t *start = a.output ? m.game->replay_header(m.g) : NULL;
	m.rounds = a.output ? json_array() : NULL;
	if (!m.buf)
		return 1;
	start_players(&m);
	play_rounds(&m);
	int64_t score[LOCAL_SEATS];
	int rank[LOCAL_SEATS];
	m.game->scores(m.g, score);
	game_ranks(m.game, m.g, m.n, rank);
	print_table(&m, score, rank);
	if (a.output)
		write_replay(&m, &a, params, start, score, rank);
	json_decref(m.rounds);
	m.game->destroy(m.g);
	for (int i = 0; i < m.n; i++)
		free(m.seat[i].reply);
	free(m.buf);
	free(params);
	return 0;
}
