/* judge tournament: an organiser's events.  `create` stores a tournament
 * (its phases from a JSON file, or the course's), `add` its entrants (one,
 * or a roster file), `pick` a representative, `start` a phase by hand;
 * `show`, `list`, `grades` and `plan` read it.  The worker plays what the
 * tournament plans (judge/event/run.h). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/game.h"
#include "games/seed.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/cli/report.h"
#include "judge/cli/roster.h"
#include "judge/compile/upload_check.h"
#include "judge/event/forecast.h"
#include "judge/event/run.h"
#include "judge/event/tournament.h"
#include "judge/event/view.h"
#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/store/store_reference.h"
#include "judge/store/store_plag_review.h"
#include "judge/store/store_tournament.h"

static const char *const forms[] = {
	"judge tournament create NAME --game GAME [--spec FILE | --course] [--seed N]",
	"judge tournament add NAME AUTHOR [--group G] [--pseudonym P] | --roster FILE",
	"judge tournament pick NAME AUTHOR SUBMISSION",
	"judge tournament start NAME",
	"judge tournament opponent NAME PLAYER [--phase N]",
	"judge tournament show NAME [--json]      judge tournament list [--json]",
	"judge tournament grades NAME [--csv]",
	"judge tournament plan NAME [--slots W] [--match-seconds S]",
	"(each with [--queue FILE])",
	NULL,
};

struct tour_args {
	const char *action, *name, *game, *spec, *roster, *group, *pseudonym, *queue;
	char **rest; /* the arguments after the tournament's name */
	int nrest;
	bool course, json, csv;
	uint64_t seed;
	bool seeded;
	int64_t slots, phase;
	double match_seconds;
	const char *config;
};

static const struct opt_command *the_cmd;

struct action {
	const char *name;
	int (*run)(struct store *s, const struct tour_args *a);
};
static const struct action *find_action(const char *name);

static int parse_args(int argc, char **argv, struct tour_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_GAME(&a->game),
		OPT_STR("spec", 0, "FILE", &a->spec, "create: the phases and settings, as JSON "
			"(docs/organisers.md)"),
		OPT_BOOL("course", 0, &a->course, "create: the course's tournament (qualification, "
			 "elimination to 11, a final of groups)"),
		OPT_SEED_NUM("seed", 's', "N", &a->seed, "create: the tournament's seed, which "
			     "every draw follows (default: a fresh one)"),
		OPT_STR("roster", 0, "FILE", &a->roster, "add: a CSV file of author[,group"
			"[,pseudonym]] lines"),
		OPT_STR("group", 0, "G", &a->group, "add: the author's group (class)"),
		OPT_STR("pseudonym", 0, "P", &a->pseudonym, "add: the name public pages show"),
		OPT_NUM("slots", 0, "W", &a->slots, 1, 4096, "a number of worker slots",
			"plan: the worker slots that will play it (default: this machine's cores)"),
		OPT_REAL_NUM("match-seconds", 0, "S", &a->match_seconds, 0.001, 86400,
			     "a number of seconds", "plan: one match's wall time (default: the mean "
			     "of the game's last 200 matches)"),
		OPT_NUM("phase", 0, "N", &a->phase, 1, TOUR_PHASES_MAX, "a phase's number",
			"opponent: the phase whose opponent changes (default: the one under way, "
			"or the next, that plays one)"),
		OPT_BOOL("csv", 0, &a->csv, "grades: as CSV"),
		OPT_DONE,
	};
	static struct opt_command cmd;
	cmd = (struct opt_command){
		.name = "judge tournament", .args = "ACTION [NAME] [ARGS...]", .min_args = 1,
		.json = &a->json, .json_help = "show, list: as JSON",
		.config = &a->config, .queue = &a->queue,
		.max_args = 4, .forms = forms, .opts = opts,
		.summary = "An event of phases, each starting at its time or by hand (start):\n"
			   "qualification, ladder, elimination (the course's rule), round-robin\n"
			   "groups and brackets.  The worker plays the matches each phase plans;\n"
			   "show says who is safe, who is out, and every match of the round.",
		.exits = "0 done, 1 refused (a name taken, a representative that cannot be), "
			 "2 bad usage or an unusable database.",
	};
	the_cmd = &cmd;
	*a = (struct tour_args){ 0 };
	a->slots = sysconf(_SC_NPROCESSORS_ONLN);
	int n = opt_parse(&cmd, argc, argv, status);
	if (n < 0)
		return -1;
	a->action = argv[1];
	if (!find_action(a->action)) {
		*status = opt_bad(&cmd, "say what to do: create, add, pick, start, opponent, show, "
				  "list, grades or plan");
		return -1;
	}
	a->name = n >= 2 ? argv[2] : NULL;
	a->rest = argv + 3;
	a->nrest = n >= 3 ? n - 2 : 0;
	a->seeded = a->seed != 0;
	if (!a->name && strcmp(a->action, "list") != 0) {
		*status = opt_bad(&cmd, "%s needs the tournament's NAME", a->action);
		return -1;
	}
	return 0;
}

static int fail(const char *what)
{
	fprintf(stderr, "judge tournament: %s\n", what);
	return 2;
}

/* ---- create ---------------------------------------------------------------- */

static json_t *read_spec(const char *path, err_t err)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);
	if (!j)
		err_set(err, "%s, line %d: %s", path, jerr.line, jerr.text);
	return j;
}

static int create(struct store *s, const struct tour_args *a)
{
	err_t err, serr;
	const struct game *g = a->game ? game_find(a->game) : NULL;
	if (!g || (!a->spec == !a->course))
		return opt_bad(the_cmd, "create needs --game GAME and one of --spec FILE, --course");
	struct tour_spec spec;
	json_t *json = NULL;
	if (a->course) {
		tour_spec_course(&spec);
		json = tour_spec_json(&spec);
	} else if (!(json = read_spec(a->spec, err))) {
		return fail(err->msg);
	}
	if (tour_spec_parse(json, game_min_players(g), game_max_players(g), &spec, err) < 0) {
		json_decref(json);
		err_prefix(err, "%s", a->course ? "the course" : a->spec);
		return fail(err->msg);
	}
	json_t *clean = tour_spec_json(&spec); /* stored with every default spelled out */
	json_decref(json);
	int64_t id;
	uint64_t seed = a->seeded ? a->seed : seed_fresh();
	int rc = store_tournament_create(s, g->name, a->name, clean, seed, &id, serr);
	json_decref(clean);
	if (rc < 0) {
		fprintf(stderr, "judge tournament: %s\n", serr->msg);
		return 1;
	}
	printf("tournament %s (%s): %d phase%s\n", a->name, g->title, spec.nphases,
	       spec.nphases == 1 ? "" : "s");
	return 0;
}

/* ---- entrants -------------------------------------------------------------- */

static int add_one(struct store *s, int64_t t, const char *author, const char *group,
		   const char *pseudonym, int line)
{
	err_t serr;
	if (!upload_author_valid(author)) {
		fprintf(stderr, "judge tournament: line %d: '%.80s' is not an author name (1 to 63 "
			"printable characters)\n", line, author);
		return -1;
	}
	if (store_entrant_add(s, t, author, group, pseudonym, serr) < 0) {
		fprintf(stderr, "judge tournament: %s\n", serr->msg);
		return -1;
	}
	return 0;
}

struct roster_add {
	struct store *s;
	int64_t t;
	int added;
};

static int add_person(void *ctx, const char *author, const char *group, const char *pseudonym,
		      int line)
{
	struct roster_add *r = ctx;
	int rc = add_one(r->s, r->t, author, group, pseudonym, line);
	r->added += rc == 0;
	return rc;
}

static int add_roster(struct store *s, int64_t t, const char *path, int *added)
{
	struct roster_add r = { .s = s, .t = t };
	int rc = roster_each(path, "judge tournament", add_person, &r);
	*added = r.added;
	return rc;
}

static int get(struct store *s, const char *name, struct store_tournament *t)
{
	err_t serr;
	int found = store_tournament_get(s, 0, name, t, serr);
	if (found == 0)
		fprintf(stderr, "judge tournament: no tournament named '%s' (judge tournament list)\n",
			name);
	else if (found < 0)
		fprintf(stderr, "judge tournament: %s\n", serr->msg);
	return found == 1 ? 0 : -1;
}

/* Entrants go in whole or not at all: one transaction for a roster. */
static int add(struct store *s, const struct tour_args *a)
{
	struct store_tournament t;
	err_t serr;
	if ((a->roster != NULL) == (a->nrest == 1))
		return opt_bad(the_cmd, "add takes one AUTHOR, or --roster FILE");
	if (get(s, a->name, &t) < 0)
		return 2;
	int added = 0, rc = store_begin(s, serr);
	if (rc == 0)
		rc = a->roster ? add_roster(s, t.id, a->roster, &added)
			       : add_one(s, t.id, a->rest[0], a->group, a->pseudonym, 1);
	added += !a->roster && rc == 0;
	if (rc == 0 && store_commit(s, serr) < 0)
		rc = fail(serr->msg);
	if (rc != 0)
		store_rollback(s);
	else
		printf("%d entrant%s in %s\n", added, added == 1 ? "" : "s", t.name);
	store_tournament_clear(&t);
	return rc == 0 ? 0 : 1;
}

static int pick(struct store *s, const struct tour_args *a)
{
	struct store_tournament t;
	char *end;
	err_t serr;
	if (a->nrest != 2)
		return opt_bad(the_cmd, "pick takes AUTHOR and SUBMISSION (its id)");
	long long sub = strtoll(a->rest[1], &end, 10);
	if (*end || sub <= 0)
		return opt_bad(the_cmd, "SUBMISSION is a submission's id, not '%s'", a->rest[1]);
	if (get(s, a->name, &t) < 0)
		return 2;
	int rc = store_entrant_pick(s, t.id, a->rest[0], sub, serr);
	if (rc <= 0)
		fprintf(stderr, "judge tournament: %s\n", serr->msg);
	else
		printf("%s is represented by submission %lld in %s\n", a->rest[0], sub, t.name);
	store_tournament_clear(&t);
	return rc < 0 ? 2 : rc == 0 ? 1 : 0;
}

static int start(struct store *s, const struct tour_args *a)
{
	struct store_tournament t;
	err_t serr;
	err_t err;
	if (get(s, a->name, &t) < 0)
		return 2;
	int rc = store_begin(s, serr) < 0 ? -1 : event_start(s, t.id, store_now_ms(), err);
	if (rc < 0 || (rc == 1 && store_commit(s, serr) < 0)) {
		store_rollback(s);
		fprintf(stderr, "judge tournament: %s\n", rc < 0 ? err->msg : serr->msg);
		rc = -1;
	} else if (rc == 0) {
		store_rollback(s);
		fprintf(stderr, "judge tournament: %s\n", err->msg);
	} else {
		printf("%s: phase started\n", t.name);
	}
	store_tournament_clear(&t);
	return rc < 0 ? 2 : rc == 0 ? 1 : 0;
}

/* A player a phase can seat as its opponent: shipped with the game, or the
 * organiser's reference player. */
static int known_player(struct store *s, const char *game, const char *player,
			const char *config)
{
	struct judge_config cfg;
	struct store_reference r;
	char path[PATH_MAX];
	err_t err;
	if (cfg_init(&cfg, config, err) < 0) {
		fail(err->msg);
		return -1;
	}
	if (paths_shipped_player(cfg.data_dir, game, player, path))
		return 0;
	int found = store_reference_get(s, game, player, &r, err);
	if (found == 0)
		fprintf(stderr, "judge tournament: %s has no shipped player and no reference "
			"player named %s (judge reference list --game %s)\n", game, player, game);
	else if (found < 0)
		fail(err->msg);
	return found == 1 ? 0 : -1;
}

static int opponent(struct store *s, const struct tour_args *a)
{
	struct store_tournament t;
	err_t serr;
	err_t err = {0};
	if (a->nrest != 1)
		return opt_bad(the_cmd, "opponent takes the PLAYER to seat (a shipped or reference "
			       "player)");
	if (get(s, a->name, &t) < 0)
		return 2;
	int phase = a->phase ? (int)a->phase - 1 : -1, rc = 0;
	if (known_player(s, t.game, a->rest[0], a->config) == 0) {
		rc = store_begin(s, serr) < 0 ? -1 : event_swap_opponent(s, t.id, &phase, a->rest[0], err);
		if (rc == 1 && store_commit(s, serr) < 0)
			rc = -1;
		if (rc != 1)
			store_rollback(s);
		if (rc == 1)
			printf("%s: phase %d now plays %s, from the next match planned\n", t.name,
			       phase + 1, a->rest[0]);
		else
			fprintf(stderr, "judge tournament: %s\n",
				err->msg[0] ? err->msg : serr->msg);
	}
	store_tournament_clear(&t);
	return rc < 0 ? 2 : rc == 0 ? 1 : 0;
}

/* The stored tournament's phases, read against its game: 0, or -1 said. */
static int stored_spec(const struct store_tournament *t, struct tour_spec *spec)
{
	err_t terr;
	const struct game *g = game_find(t->game);
	if (g && tour_spec_parse(t->spec, game_min_players(g), game_max_players(g), spec, terr) == 0)
		return 0;
	fail(g ? terr->msg : "the tournament's game is unknown to this judge");
	return -1;
}

/* ---- reading it -------------------------------------------------------------- */

static int list(struct store *s, const struct tour_args *a)
{
	json_t *rows, *r;
	err_t serr;
	size_t i;
	if (store_tournament_list(s, &rows, serr) < 0)
		return fail(serr->msg);
	if (a->json) {
		report_json_as(rows, JSON_INDENT(1));
	} else {
		json_array_foreach(rows, i, r)
			printf("%-24s %-10s phase %lld, round %lld\n",
			       json_string_value(json_object_get(r, "name")),
			       json_string_value(json_object_get(r, "game")),
			       (long long)json_integer_value(json_object_get(r, "phase")) + 1,
			       (long long)json_integer_value(json_object_get(r, "round")) + 1);
	}
	json_decref(rows);
	return 0;
}

static const char *entrant_state(json_t *e)
{
	if (json_is_null(json_object_get(e, "out_phase")))
		return json_is_null(json_object_get(e, "representative")) ? "no representative" : "in";
	return "out";
}

/* An entrant's author by its id; the opponent (0) as "(opponent)". */
static const char *author_of(json_t *entrants, json_int_t id)
{
	size_t i;
	json_t *e;
	json_array_foreach(entrants, i, e)
		if (json_integer_value(json_object_get(e, "id")) == id)
			return json_string_value(json_object_get(e, "author"));
	return "(opponent)";
}

static void show_text(const struct store_tournament *t, const struct tour_spec *spec,
		      json_t *entrants, json_t *round)
{
	size_t i;
	json_t *e, *m;
	bool over = t->phase >= spec->nphases;
	printf("%s (%s): ", t->name, t->game);
	if (over)
		printf("over\n");
	else
		printf("phase %d of %d, %s, %s, round %d\n", t->phase + 1, spec->nphases,
		       tour_kind_name(spec->phase[t->phase].kind),
		       t->started_at ? "under way" : "waiting to start", t->round + 1);
	printf("\n%-24s %-10s %-14s %s\n", "author", "group", "player", "state");
	json_array_foreach(entrants, i, e) {
		json_t *out = json_object_get(e, "out_round");
		printf("%-24.24s %-10.10s %-14s %s", json_string_value(json_object_get(e, "author")),
		       json_string_value(json_object_get(e, "group")),
		       json_string_value(json_object_get(e, "name")) ?
		       json_string_value(json_object_get(e, "name")) : "-", entrant_state(e));
		if (json_is_integer(out))
			printf(" in phase %lld%s", (long long)json_integer_value(
				json_object_get(e, "out_phase")) + 1,
			       json_integer_value(out) < 0 ? ", before its first match" : "");
		if (json_is_integer(out) && json_integer_value(out) >= 0)
			printf(", round %lld", (long long)json_integer_value(out) + 1);
		if (json_is_integer(json_object_get(e, "place")))
			printf(", place %lld", (long long)json_integer_value(json_object_get(e, "place")));
		putchar('\n');
	}
	if (!json_array_size(round))
		return;
	printf("\nround %d:\n", t->round + 1);
	json_array_foreach(round, i, m) {
		json_t *match = json_object_get(m, "match"), *seat;
		size_t k;
		printf("  stage %lld group %lld:",
		       (long long)json_integer_value(json_object_get(m, "stage")) + 1,
		       (long long)json_integer_value(json_object_get(m, "group")) + 1);
		json_array_foreach(json_object_get(m, "seats"), k, seat) {
			printf(" %s", author_of(entrants, json_integer_value(seat)));
			if (json_is_integer(match))
				printf(" %lld", (long long)json_integer_value(
					json_array_get(json_object_get(m, "scores"), k)));
			putchar(k + 1 < json_array_size(json_object_get(m, "seats")) ? ',' : ' ');
		}
		if (json_is_integer(match))
			printf(" (match %lld)\n", (long long)json_integer_value(match));
		else
			printf(" to play\n");
	}
}

/* The name of entrant id in the view (0: the opponent or a bye). */
static const char *view_name(json_t *view, json_t *id, const char *zero)
{
	if (json_is_null(id))
		return "?";
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(view, "entrants"), i, e)
		if (json_equal(json_object_get(e, "id"), id))
			return json_string_value(json_object_get(e, "name"));
	return zero;
}

static void show_group(json_t *view, json_t *group, const char *title)
{
	size_t i;
	json_t *row;
	printf("  %s:", title);
	json_array_foreach(json_object_get(group, "standings"), i, row)
		printf("%s %s %g pts", i ? "," : "", view_name(view, json_object_get(row, "entrant"),
								  "(opponent)"),
		       json_number_value(json_object_get(row, "points")));
	putchar('\n');
}

static void show_series(json_t *view, json_t *x)
{
	json_t *p = json_object_get(x, "players"), *w = json_object_get(x, "wins");
	printf("  %s%lld: %s %lld - %lld %s", json_string_value(json_object_get(x, "bracket")),
	       (long long)json_integer_value(json_object_get(x, "round")),
	       view_name(view, json_array_get(p, 0), "(bye)"),
	       (long long)json_integer_value(json_array_get(w, 0)),
	       (long long)json_integer_value(json_array_get(w, 1)),
	       view_name(view, json_array_get(p, 1), "(bye)"));
	if (json_is_true(json_object_get(x, "skipped")))
		printf(" (not needed)");
	else if (json_is_integer(json_object_get(x, "winner")))
		printf(", won by %s", view_name(view, json_object_get(x, "winner"), "(bye)"));
	putchar('\n');
}

/* The group and bracket phases as they stand (the elimination's round is
 * show_text's). */
static void show_finals(json_t *view)
{
	size_t i, k;
	json_t *p, *g;
	json_array_foreach(json_object_get(view, "phases"), i, p) {
		json_t *groups = json_object_get(p, "groups"), *series = json_object_get(p, "series");
		if (!json_array_size(groups) && !json_array_size(series))
			continue;
		printf("\nphase %zu, %s:\n", i + 1, json_string_value(json_object_get(p, "kind")));
		json_array_foreach(groups, k, g) {
			char title[32];
			snprintf(title, sizeof title, "group %zu", k + 1);
			show_group(view, g, title);
		}
		if (json_is_object(json_object_get(p, "final")))
			show_group(view, json_object_get(p, "final"), "final");
		json_array_foreach(series, k, g)
			show_series(view, g);
		if (json_is_integer(json_object_get(p, "champion")))
			printf("  champion: %s\n", view_name(view, json_object_get(p, "champion"), "?"));
	}
}

/* Each phase's opponent, and every swap the organiser made, when. */
static void show_opponents(const struct tour_spec *spec, json_t *log)
{
	size_t i;
	json_t *e;
	printf("\nopponents:");
	for (int p = 0; p < spec->nphases; p++)
		if (spec->phase[p].kind != TOUR_LADDER && spec->phase[p].kind != TOUR_BRACKET)
			printf(" phase %d %s;", p + 1, spec->phase[p].opponent);
	putchar('\n');
	json_array_foreach(log, i, e) {
		if (strcmp(json_string_value(json_object_get(e, "what")), "opponent") != 0)
			continue;
		json_t *d = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
		char when[32];
		board_time(json_integer_value(json_object_get(e, "at")), when);
		json_int_t of = json_integer_value(json_object_get(d, "of_phase"));
		json_int_t during = json_integer_value(json_object_get(d, "phase"));
		bool in_rounds = of == during && of < spec->nphases &&
				 spec->phase[of].kind == TOUR_ELIMINATION;
		printf("  %s: phase %lld's opponent %s swapped for %s, during phase %lld", when,
		       (long long)of + 1, json_string_value(json_object_get(d, "from")),
		       json_string_value(json_object_get(d, "to")), (long long)during + 1);
		if (in_rounds)
			printf(" before round %lld",
			       (long long)json_integer_value(json_object_get(d, "round")) + 1);
		putchar('\n');
		json_decref(d);
	}
}

static int show(struct store *s, const struct tour_args *a)
{
	struct store_tournament t;
	struct tour_spec spec;
	err_t serr;
	if (get(s, a->name, &t) < 0)
		return 2;
	json_t *entrants = NULL, *round = NULL, *log = NULL, *view = NULL;
	err_t verr;
	int rc = 0;
	if (stored_spec(&t, &spec) < 0)
		rc = 2;
	else if (store_entrants(s, t.id, &entrants, serr) < 0 ||
		 store_tmatch_round(s, t.id, t.phase, t.round, &round, serr) < 0 ||
		 store_tournament_history(s, t.id, &log, serr) < 0)
		rc = fail(serr->msg);
	else if (event_view(s, t.name, true, &view, verr) != 1)
		rc = fail(verr->msg);
	else if (a->json) {
		json_t *all = json_pack("{s:s, s:s, s:O, s:i, s:i, s:I, s:O, s:O, s:O, s:O}", "name",
					t.name, "game", t.game, "spec", t.spec, "phase", t.phase,
					"round", t.round, "started_at", (json_int_t)t.started_at,
					"entrants", entrants, "round_matches", round, "log", log,
					"phases", json_object_get(view, "phases"));
		report_json_as(all, JSON_INDENT(1));
		json_decref(all);
	} else {
		show_text(&t, &spec, entrants, round);
		show_opponents(&spec, log);
		show_finals(view);
	}
	json_decref(view);
	json_decref(entrants);
	json_decref(round);
	json_decref(log);
	store_tournament_clear(&t);
	return rc;
}

/* ---- grades ---------------------------------------------------------------------- */

/* The first elimination phase's number of rounds: its entrants less the
 * survivors it keeps. */
static int elimination_rounds(const struct tour_spec *spec, json_t *entrants, int *phase)
{
	*phase = -1;
	for (int i = 0; i < spec->nphases && *phase < 0; i++)
		if (spec->phase[i].kind == TOUR_ELIMINATION)
			*phase = i;
	if (*phase < 0)
		return 0;
	int in = 0;
	size_t i;
	json_t *e;
	json_array_foreach(entrants, i, e) {
		json_t *op = json_object_get(e, "out_phase"), *r = json_object_get(e, "out_round");
		in += json_is_null(op) || json_integer_value(op) > *phase ||
		      (json_integer_value(op) == *phase && json_integer_value(r) >= 0);
	}
	int rounds = in - spec->phase[*phase].remain;
	return rounds > 0 ? rounds : 0;
}

static void csv_field(const char *s)
{
	bool quote = s && strpbrk(s, ",\"\n");
	if (quote)
		putchar('"');
	for (; s && *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	if (quote)
		putchar('"');
}

/* Is author's file a copy the organiser confirmed (`judge plagiarism
 * confirm`)? */
static bool is_copy(json_t *copies, const char *author)
{
	size_t i;
	json_t *c;
	json_array_foreach(copies, i, c)
		if (author && strcmp(json_string_value(c), author) == 0)
			return true;
	return false;
}

static int grades(struct store *s, const struct tour_args *a)
{
	struct store_tournament t;
	struct tour_spec spec;
	err_t serr;
	json_t *entrants = NULL, *e;
	size_t i;
	if (get(s, a->name, &t) < 0)
		return 2;
	int rc = 0, elim = -1;
	if (stored_spec(&t, &spec) < 0)
		rc = 2;
	else if (store_entrants(s, t.id, &entrants, serr) < 0)
		rc = fail(serr->msg);
	json_t *copies = NULL;
	if (rc == 0 && store_plag_confirmed_authors(s, t.game, &copies, serr) < 0)
		rc = fail(serr->msg);
	int rounds = rc ? 0 : elimination_rounds(&spec, entrants, &elim);
	if (rc == 0)
		printf(a->csv ? "author,group,player,qualified,round eliminated,final place,grade\n"
			      : "%-24s %-10s %-14s %-9s %-9s %s\n", "author", "group", "player",
		       "qualified", "out in", "grade");
	json_array_foreach(entrants, i, e) {
		/* Qualified is what the author's players did, not whether one was
		 * picked: a qualified student without a representative is out
		 * before the first round (round 0), and keeps a qualified grade. */
		bool qualified = json_is_true(json_object_get(e, "qualified"));
		json_t *op = json_object_get(e, "out_phase"), *r = json_object_get(e, "out_round");
		bool out_here = json_is_integer(op) && json_integer_value(op) == elim;
		int out = out_here ? (int)json_integer_value(r) + 1 : -1;
		if (json_is_integer(op) && json_integer_value(r) < 0)
			out = qualified ? 0 : -1;
		bool copy = is_copy(copies, json_string_value(json_object_get(e, "author")));
		double grade = tour_grade(&spec.grades, qualified, copy, out < 0 ? 0 : out ? out : 1,
					  rounds);
		const char *player = json_string_value(json_object_get(e, "name"));
		if (a->csv) {
			csv_field(json_string_value(json_object_get(e, "author")));
			putchar(',');
			csv_field(json_string_value(json_object_get(e, "group")));
			printf(",%s,%s,", player ? player : "", qualified ? "yes" : "no");
			if (out >= 0)
				printf("%d", out);
			putchar(',');
			if (json_is_integer(json_object_get(e, "place")))
				printf("%lld", (long long)json_integer_value(json_object_get(e, "place")));
			printf(",%.2f\n", grade);
		} else {
			char round[24] = "-";
			if (out >= 0)
				snprintf(round, sizeof round, out ? "round %d" : "before 1", out);
			printf("%-24.24s %-10.10s %-14s %-9s %-9s %.2f\n",
			       json_string_value(json_object_get(e, "author")),
			       json_string_value(json_object_get(e, "group")), player ? player : "-",
			       qualified ? "yes" : "no", round, grade);
		}
	}
	json_decref(entrants);
	json_decref(copies);
	store_tournament_clear(&t);
	return rc;
}

/* ---- plan -------------------------------------------------------------------------- */

static int count_in(json_t *entrants)
{
	int n = 0;
	size_t i;
	json_t *e;
	json_array_foreach(entrants, i, e)
		n += json_is_null(json_object_get(e, "out_phase"));
	return n;
}

static void print_forecast(int phase, const struct tour_phase *p, const struct forecast *f,
			   double match_s)
{
	double secs = f->waves * match_s;
	printf("phase %d, %-13s %s%.0f matches in %.0f waves: %.1f h (%.0f s)\n", phase + 1,
	       tour_kind_name(p->kind), f->exact ? "" : "about ", f->matches, f->waves,
	       secs / 3600, secs);
}

static int plan(struct store *s, const struct tour_args *a)
{
	struct store_tournament t;
	struct tour_spec spec;
	err_t serr;
	err_t ferr;
	json_t *entrants = NULL;
	if (get(s, a->name, &t) < 0)
		return 2;
	double mean_ms = 0, match_s = a->match_seconds, total = 0;
	int measured = 0, rc = 0;
	if (stored_spec(&t, &spec) < 0)
		rc = 2;
	else if (store_entrants(s, t.id, &entrants, serr) < 0 ||
		 store_match_time(s, t.game, 200, &mean_ms, &measured, serr) < 0)
		rc = fail(serr->msg);
	if (rc == 0 && match_s <= 0 && !measured)
		rc = fail("no match of this game has been timed yet: give --match-seconds");
	if (rc == 0 && match_s <= 0)
		match_s = mean_ms / 1000;
	int n = rc ? 0 : count_in(entrants);
	if (rc == 0)
		printf("%s: %d entrants, %lld slots, %.3f s a match (%s)\n", t.name, n,
		       (long long)a->slots, match_s, a->match_seconds > 0 ? "given" : "measured");
	for (int i = t.phase; rc == 0 && i < spec.nphases; i++) {
		const struct tour_phase *p = &spec.phase[i];
		struct forecast f = { 0 };
		int frc = 0;
		if (p->kind == TOUR_ELIMINATION && n > p->remain) {
			frc = forecast_elimination(&p->elim, n, p->remain, (int)a->slots, 5, t.seed, &f, ferr);
			n = p->remain;
		} else if (p->kind == TOUR_ROUND_ROBIN) {
			int groups = (n + p->size - 1) / p->size;
			frc = forecast_groups(groups, p->size, p->matches, groups > 1 ? p->final_matches : 0,
					      (int)a->slots, &f, ferr);
		} else if (p->kind == TOUR_BRACKET && n >= 2) {
			frc = forecast_bracket(&p->bracket, n, (int)a->slots, 20, t.seed, &f, ferr);
		} else {
			f.exact = true;
		}
		if (frc < 0)
			rc = fail(ferr->msg);
		else
			print_forecast(i, p, &f, match_s);
		total += f.waves * match_s;
	}
	if (rc == 0)
		printf("in all: %.1f h (%.0f s) on %lld slots\n", total / 3600, total,
		       (long long)a->slots);
	json_decref(entrants);
	store_tournament_clear(&t);
	return rc;
}

static const struct action action_list[] = {
	{ "create", create }, { "add", add }, { "pick", pick }, { "start", start },
	{ "opponent", opponent },
	{ "show", show }, { "list", list }, { "grades", grades }, { "plan", plan }, { 0 },
};

static const struct action *find_action(const char *name)
{
	for (const struct action *x = action_list; x->name; x++)
		if (strcmp(x->name, name) == 0)
			return x;
	return NULL;
}

static int run_action(struct store *s, void *args)
{
	const struct tour_args *a = args;
	return find_action(a->action)->run(s, a);
}

int cmd_tournament(int argc, char **argv)
{
	struct tour_args a;
	int status;
	return parse_args(argc, argv, &a, &status) < 0 ? status
	       : opt_on_store("judge tournament", a.queue, strcmp(a.action, "create") == 0,
			      run_action, &a);
}
