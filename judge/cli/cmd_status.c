/* judge status, matches, replay, jobs: reading the store.  Each command
 * builds its answer as JSON first; --json prints that, and the table a
 * person reads is printed from the same object, so the two never say
 * different things. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/base/config.h"
#include "judge/cli/commands.h"
#include "judge/cli/why_waiting.h"
#include "judge/worker/matchmaking.h"
#include "judge/rating/rating.h"
#include "judge/replay/replay_io.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "judge/replay/viewer.h"

#define DEFAULT_LIMIT 20

/* ---- arguments, shared by the four commands ------------------------------ */

struct read_args {
	const char *cmd, *queue, *game, *player, *output, *html;
	int64_t target; /* SUBMISSION or MATCH */
	long limit;
	int log_seat;   /* judge replay --log SEAT; -1: not asked */
	bool json, all;
};

struct read_cmd {
	const char *name;
	const char *options;   /* the option letters it takes */
	const char *target;    /* its one argument ("SUBMISSION"), or NULL */
	void (*usage)(FILE *out);
};

static bool parse_number(const char *s, long long min, long long *v)
{
	char *end;
	*v = strtoll(s, &end, 10);
	return end != s && !*end && *v >= min;
}

static int parse_option(int c, struct read_args *a)
{
	long long v;
	switch (c) {
	case 'q': a->queue = optarg; break;
	case 'g': a->game = optarg; break;
	case 'p': a->player = optarg; break;
	case 'o': a->output = optarg; break;
	case 'H': a->html = optarg; break;
	case 'j': a->json = true; break;
	case 'a': a->all = true; break;
	case 'L':
		if (!parse_number(optarg, 0, &v) || v >= GAME_MAX_PLAYERS) {
			fprintf(stderr, "judge %s: --log wants a seat number (0 is the first seat), "
				"not '%s'\n", a->cmd, optarg);
			return -1;
		}
		a->log_seat = (int)v;
		break;
	case 'n':
		if (!parse_number(optarg, 0, &v)) {
			fprintf(stderr, "judge %s: --limit wants a count, not '%s'\n", a->cmd, optarg);
			return -1;
		}
		a->limit = (long)v;
		break;
	default: return -1;
	}
	return 0;
}

static int parse_target(const struct read_cmd *rc, int argc, char **argv, struct read_args *a)
{
	long long v;
	if (!rc->target && optind == argc)
		return 0;
	if (!rc->target || optind + 1 != argc) {
		fprintf(stderr, "judge %s: %s (see --help)\n", a->cmd,
			rc->target ? "give one id" : "takes no argument");
		return -1;
	}
	if (!parse_number(argv[optind], 1, &v)) {
		fprintf(stderr, "judge %s: '%s' is not a %s id\n", a->cmd, argv[optind],
			strcmp(rc->target, "MATCH") == 0 ? "match" : "submission");
		return -1;
	}
	a->target = v;
	return 0;
}

static int check_game(const struct read_args *a)
{
	if (!a->game || game_find(a->game))
		return 0;
	fprintf(stderr, "judge %s: unknown game '%s'; the judge knows:", a->cmd, a->game);
	for (const struct game *const *g = game_list(); *g; g++)
		fprintf(stderr, " %s", (*g)->name);
	fputc('\n', stderr);
	return -1;
}

static int parse_args(const struct read_cmd *rc, int argc, char **argv, struct read_args *a)
{
	static const struct option longopts[] = {
		{ "queue", 1, 0, 'q' }, { "game", 1, 0, 'g' }, { "player", 1, 0, 'p' },
		{ "limit", 1, 0, 'n' }, { "output", 1, 0, 'o' }, { "json", 0, 0, 'j' },
		{ "all", 0, 0, 'a' }, { "html", 1, 0, 'H' }, { "log", 1, 0, 'L' },
		{ "help", 0, 0, 'h' }, { 0 },
	};
	*a = (struct read_args){ .cmd = rc->name, .queue = STORE_DEFAULT_PATH,
				 .limit = DEFAULT_LIMIT, .log_seat = -1 };
	int c, li = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, strchr(rc->options, 'o') ? "ho:" : "h", longopts,
				&li)) != -1) {
		if (c == 'h') {
			rc->usage(stdout);
			exit(0);
		}
		if (c != '?' && !strchr(rc->options, c)) {
			fprintf(stderr, "judge %s: --%s is not an option of this command\n", a->cmd,
				li >= 0 ? longopts[li].name : "?");
			return -1;
		}
		if (c == '?' || parse_option(c, a) < 0)
			return -1;
		li = -1;
	}
	return parse_target(rc, argc, argv, a) < 0 ? -1 : check_game(a);
}

/* ---- the store ------------------------------------------------------------ */

static struct store *open_store(const struct read_args *a)
{
	char err[STORE_ERRLEN];
	struct store *s = store_open(a->queue, false, err);
	if (!s)
		fprintf(stderr, "judge %s: %s\n", a->cmd, err);
	return s;
}

static void read_failed(const struct read_args *a, const char *err)
{
	fprintf(stderr, "judge %s: reading %s: %s\n", a->cmd, a->queue, err);
}

/* ---- output helpers ------------------------------------------------------- */

static int print_json(json_t *j)
{
	if (!j || json_dumpf(j, stdout, JSON_INDENT(2)) < 0)
		return -1;
	putchar('\n');
	return 0;
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static long long num(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static void put_time(const char *label, const json_t *o, const char *key)
{
	char when[32];
	board_time(num(o, key), when);
	printf("%-11s %s\n", label, when);
}

/* "round 50: CPU budget exceeded (cpu-limit)", or "-" for a player that
 * played to the end. */
static void put_frozen(const json_t *seat)
{
	const json_t *round = json_object_get(seat, "frozen_round");
	if (!json_is_integer(round)) {
		fputs("-", stdout);
		return;
	}
	if (json_integer_value(round) < 0)
		fputs("at the start", stdout);
	else
		printf("round %lld", (long long)json_integer_value(round));
	if (*str(seat, "reason")) {
		fputs(": ", stdout);
		board_cell(stdout, str(seat, "reason"), 0);
	}
	if (*str(seat, "verdict")) {
		fputs(" (", stdout);
		board_cell(stdout, str(seat, "verdict"), 0);
		fputs(")", stdout);
	}
}

/* ---- judge status SUBMISSION ---------------------------------------------- */

static void status_usage(FILE *out)
{
	fprintf(out,
"usage: judge status SUBMISSION [--json] [--queue FILE]\n"
"\n"
"Shows what became of a submission (the id scripts/upload printed): its game,\n"
"player, author, state and times, the compiler's messages if it did not\n"
"compile, each qualifying match (seat, score, rank, and the round and reason\n"
"if the player was frozen), the outcome, and its rating once it is ranked.\n"
"\n"
"  --json         print it as one JSON object\n"
"  --queue FILE   the judge's database (default db/jobs.sqlite)\n"
"\n"
"exit status: 0 shown, 1 no such submission, 2 bad usage or an unusable\n"
"database.\n");
}

/* The outcome counts as the worker decides: only the matches since the
 * last rejudge; the list keeps the earlier ones (before_rejudge). */
static int status_counts(const struct read_args *a, struct store *s, json_t *sub)
{
	int played = 0, won = 0;
	char err[STORE_ERRLEN];
	if (store_qualifying_record(s, a->target, &played, &won, err) < 0) {
		fprintf(stderr, "judge %s: %s\n", a->cmd, err);
		return -1;
	}
	json_t *q = json_object_get(sub, "qualifying");
	size_t all = json_array_size(json_object_get(q, "matches"));
	json_object_set_new(q, "played", json_integer(played));
	json_object_set_new(q, "won", json_integer(won));
	json_object_set_new(q, "before_rejudge", json_integer((json_int_t)all - played));
	return 0;
}

/* The organisers' latest disqualification of the player in its game
 * ({reason, decided_by, created_at}), or null: the player is out of the
 * ranking and matchmaking, whatever its state says. */
static int status_disqualified(const struct read_args *a, struct store *s, json_t *sub)
{
	char err[STORE_ERRLEN];
	json_t *all;
	if (store_disqualifications(s, str(sub, "game"), &all, err) < 0) {
		fprintf(stderr, "judge %s: %s\n", a->cmd, err);
		return -1;
	}
	json_t *latest = json_null();
	size_t i;
	json_t *d;
	json_array_foreach(all, i, d) { /* newest first */
		if (strcmp(str(d, "name"), str(sub, "player")) == 0) {
			latest = json_incref(d);
			break;
		}
	}
	json_decref(all);
	json_object_set_new(sub, "disqualified", latest);
	return 0;
}

/* Why nothing moves, when something is stuck ("waiting": null when not):
 * no worker at work, or no ranked match possible for a qualified player.
 * The minimum of games is the configuration's ($JUDGE_CONFIG or the
 * default file), as the worker reads it. */
static int status_waiting(const struct read_args *a, struct store *s, json_t *sub)
{
	struct judge_config cfg;
	char why[600], err[CFG_ERRLEN];
	int min_games = cfg_init(&cfg, NULL, err) == 0 ? (int)cfg.worker.min_games
						       : mm_params_default().min_games;
	int rc = why_waiting(s, a->queue, str(sub, "state"), str(sub, "game"), min_games, why,
			     sizeof why);
	if (rc < 0) {
		fprintf(stderr, "judge %s: cannot read the queue\n", a->cmd);
		return -1;
	}
	json_object_set_new(sub, "waiting", rc == 1 ? json_string(why) : json_null());
	return 0;
}

/* What the state means for the contestant, and whether it qualified (null
 * while that is undecided). */
static void status_outcome(json_t *sub)
{
	const char *state = str(sub, "state");
	json_t *q = json_object_get(sub, "qualifying");
	long long won = num(q, "won"), played = num(q, "played");
	bool rated = json_is_object(json_object_get(sub, "rating"));
	char text[200];
	json_t *qualified = json_null();
	if (strcmp(state, "queued") == 0 || strcmp(state, "compiling") == 0) {
		snprintf(text, sizeof text, "waiting to be compiled");
	} else if (strcmp(state, "compile_failed") == 0) {
		snprintf(text, sizeof text, "did not compile");
		qualified = json_false();
	} else if (strcmp(state, "qualifying") == 0) {
		snprintf(text, sizeof text, "qualifying: won %lld of the %lld matches played so far",
			 won, played);
	} else {
		bool in = strcmp(state, "qualified") == 0 ||
			  (strcmp(state, "superseded") == 0 && rated);
		snprintf(text, sizeof text, "%s%s: won %lld of %lld qualifying matches",
			 in ? "qualified" : "not qualified",
			 strcmp(state, "superseded") == 0 ? ", then superseded by a newer submission"
							  : "", won, played);
		qualified = json_boolean(in);
	}
	json_object_set_new(sub, "outcome", json_string(text));
	json_object_set_new(sub, "qualified", qualified);
}

/* 1 found, 0 no such submission, -1 error (said). */
static int status_load(const struct read_args *a, struct store *s, json_t **out)
{
	char err[STORE_ERRLEN];
	int found = store_report_submission(s, safe_json_text, a->target, out, err);
	if (found < 0)
		read_failed(a, err);
	json_t *rt = found > 0 ? json_object_get(*out, "rating") : NULL;
	if (json_is_object(rt)) {
		struct rating x = { json_real_value(json_object_get(rt, "mu")),
				    json_real_value(json_object_get(rt, "sigma")) };
		json_object_set_new(rt, "score", json_real(rating_score(x)));
	}
	if (found > 0 && (status_counts(a, s, *out) < 0 || status_waiting(a, s, *out) < 0 ||
			  status_disqualified(a, s, *out) < 0)) {
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	if (found > 0)
		status_outcome(*out);
	return found;
}

static void status_print_matches(const json_t *q)
{
	const json_t *list = json_object_get(q, "matches");
	if (json_array_size(list) == 0) {
		printf("\nno qualifying match played yet\n");
		return;
	}
	long long earlier = num(q, "before_rejudge");
	printf("\nqualifying matches");
	if (earlier > 0)
		printf(" (the first %lld played before the organisers' last rejudge, not counted)",
		       earlier);
	printf(":\n%6s  %4s  %8s  %4s  %s\n", "match", "seat", "score", "rank", "frozen");
	size_t i;
	const json_t *m;
	json_array_foreach(list, i, m) {
		printf("%6lld  %4lld  %8lld  %4lld  ", num(m, "match"), num(m, "seat"),
		       num(m, "score"), num(m, "rank"));
		put_frozen(m);
		putchar('\n');
	}
}

static void status_print(const json_t *sub)
{
	static const char *const fields[][2] = {
		{ "game", "game" }, { "player", "player" }, { "author", "author" },
		{ "state", "state" }, { "outcome", "outcome" },
	};
	printf("%-11s %lld\n", "submission", num(sub, "submission"));
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
		printf("%-11s ", fields[i][0]);
		board_cell(stdout, str(sub, fields[i][1]), 0);
		putchar('\n');
	}
	const json_t *dq = json_object_get(sub, "disqualified");
	if (json_is_object(dq)) {
		char when[32];
		board_time(num(dq, "created_at"), when);
		printf("%-11s by %s on %s, out of the ranking and matchmaking: ", "disqualified",
		       str(dq, "decided_by"), when);
		board_cell(stdout, str(dq, "reason"), 0);
		putchar('\n');
	} else if (json_is_string(json_object_get(sub, "waiting"))) {
		printf("%-11s %s\n", "waiting", str(sub, "waiting"));
	}
	put_time("submitted", sub, "created_at");
	put_time("updated", sub, "updated_at");
	const json_t *rt = json_object_get(sub, "rating");
	char score[32], mu[32], sigma[32];
	if (json_is_object(rt))
		printf("%-11s score %s (mu %s, sigma %s), %lld games, %lld wins\n", "rating",
		       board_num(json_real_value(json_object_get(rt, "score")), score),
		       board_num(json_real_value(json_object_get(rt, "mu")), mu),
		       board_num(json_real_value(json_object_get(rt, "sigma")), sigma),
		       num(rt, "games"), num(rt, "wins"));
	if (strcmp(str(sub, "state"), "compile_failed") == 0) {
		printf("\ncompile log:\n");
		if (*str(sub, "compile_log"))
			board_lines(stdout, str(sub, "compile_log"), "  ");
		else
			printf("  (empty)\n");
	}
	if (strcmp(str(sub, "plagiarism"), "suspected") == 0)
		printf("%-11s suspected: too similar to another file; `judge plagiarism --game %s`"
		       " lists the pairs (it keeps playing: a person decides)\n", "plagiarism",
		       str(sub, "game"));
	status_print_matches(json_object_get(sub, "qualifying"));
}

static int run_status(const struct read_args *a)
{
	struct store *s = open_store(a);
	if (!s)
		return 2;
	json_t *sub = NULL;
	int found = status_load(a, s, &sub);
	store_close(s);
	int rc = found < 0 ? 2 : found == 0 ? 1 : 0;
	if (found == 0)
		fprintf(stderr, "judge status: no submission %lld in %s\n", (long long)a->target,
			a->queue);
	else if (found > 0 && a->json)
		rc = print_json(sub) < 0 ? 2 : 0;
	else if (found > 0)
		status_print(sub);
	json_decref(sub);
	return rc;
}

/* ---- judge matches ---------------------------------------------------------- */

static void matches_usage(FILE *out)
{
	fprintf(out,
"usage: judge matches [--player NAME] [--game GAME] [--limit N] [--json] [--queue FILE]\n"
"\n"
"Lists the played matches, most recent first: id, game, kind (qualifying or\n"
"ranked), whether it changed the ratings, and each seat's player, score and\n"
"rank, with the round and reason of every player frozen.\n"
"\n"
"  --player NAME  only the matches NAME played in (a shipped player too)\n"
"  --game GAME    only this game's matches\n"
"  --limit N      at most N matches (default %d; 0: all)\n"
"  --json         print a JSON array\n"
"  --queue FILE   the judge's database (default db/jobs.sqlite)\n"
"\n"
"exit status: 0 listed (none too), 1 no such player, 2 bad usage or an\n"
"unusable database.\n", DEFAULT_LIMIT);
}

/* The list, and whether the player asked for is known (1, 0 unknown: a
 * typo worth an error, not an empty list); NULL, said, on an error. */
static json_t *matches_load(const struct read_args *a, struct store *s, int *known)
{
	char err[STORE_ERRLEN];
	json_t *list;
	*known = 1;
	if (store_report_matches(s, safe_json_text, a->game, a->player, a->limit, &list, err) < 0) {
		read_failed(a, err);
		return NULL;
	}
	if (json_array_size(list) == 0 && a->player &&
	    (*known = store_player_known(s, a->player, a->game, err)) < 0) {
		read_failed(a, err);
		json_decref(list);
		return NULL;
	}
	return list;
}

static void matches_print(const json_t *list)
{
	if (json_array_size(list) == 0)
		printf("no matches\n");
	size_t i, k;
	const json_t *m, *p;
	json_array_foreach(list, i, m) {
		char when[32];
		board_time(num(m, "created_at"), when);
		printf("%smatch %lld  ", i ? "\n" : "", num(m, "match"));
		board_cell(stdout, str(m, "game"), 0);
		fputs("  ", stdout);
		board_cell(stdout, str(m, "kind"), 0);
		printf("  %s  %s\n", json_is_true(json_object_get(m, "rated")) ? "rated" : "unrated",
		       when);
		json_array_foreach(json_object_get(m, "players"), k, p) {
			printf("  seat %lld  ", num(p, "seat"));
			board_cell(stdout, str(p, "name"), 12);
			printf("  %8lld  rank %lld", num(p, "score"), num(p, "rank"));
			if (json_is_integer(json_object_get(p, "frozen_round"))) {
				fputs("  frozen ", stdout);
				put_frozen(p);
			}
			putchar('\n');
		}
	}
}

static int run_matches(const struct read_args *a)
{
	struct store *s = open_store(a);
	if (!s)
		return 2;
	int known;
	json_t *list = matches_load(a, s, &known);
	store_close(s);
	int rc = !list ? 2 : known == 0 ? 1 : 0;
	if (known == 0) {
		fprintf(stderr, "judge matches: no player named '%s'%s%s in %s\n", a->player,
			a->game ? " in " : "", a->game ? a->game : "", a->queue);
	} else if (rc == 0 && a->json) {
		rc = print_json(list) < 0 ? 2 : 0;
	} else if (rc == 0) {
		matches_print(list);
	}
	json_decref(list);
	return rc;
}

/* ---- judge replay MATCH -o FILE | --html FILE ------------------------------- */

static void replay_usage(FILE *out)
{
	fprintf(out,
"usage: judge replay MATCH [-o FILE] [--html FILE] [--queue FILE]\n"
"       judge replay MATCH --log SEAT [-o FILE] [--queue FILE]\n"
"       judge replay check FILE|MATCH [--queue FILE]\n"
"\n"
"Writes the stored replay of match MATCH (an id `judge matches` lists): the\n"
"JSON the match produced, byte for byte (the store keeps it compressed).\n"
"`judge replay check` re-runs a replay's engine and compares every round\n"
"(see `judge replay check --help`).\n"
"\n"
"  -o, --output FILE  where to write it (- for standard output); a name\n"
"                     ending in .gz gets it gzip-compressed\n"
"  --html FILE        write the match as one self-contained HTML page\n"
"  --log SEAT         write what seat SEAT's player (0 is the first seat)\n"
"                     wrote to stderr in the match instead, as text (to\n"
"                     standard output unless -o); kept unless\n"
"                     worker.keep_logs is false\n"
"  --queue FILE       the judge's database (default db/jobs.sqlite)\n"
"\n"
"exit status: 0 written, 1 no such match or no replay or log stored, 2 bad usage,\n"
"an unusable database or a file that cannot be written.\n");
}

/* The page of the replay run_replay has already read. */
static int replay_page(const struct read_args *a, struct store *s, const char *text, size_t len)
{
	char err[VIEWER_ERRLEN];
	if (viewer_write_stored(s, a->target, text, len, a->html, err) == 0)
		return 0;
	fprintf(stderr, "judge replay: %s\n", err);
	return 2;
}

/* judge replay MATCH --log SEAT: the seat's stored stderr as text. */
static int write_log(const struct read_args *a, struct store *s)
{
	char err[REPLAY_ERRLEN];
	struct store_seat_log log;
	int found = store_match_log(s, a->target, a->log_seat, &log, err);
	if (found <= 0) {
		if (found == 0)
			fprintf(stderr, "judge replay: match %lld has no seat %d in %s\n",
				(long long)a->target, a->log_seat, a->queue);
		else
			read_failed(a, err);
		return found == 0 ? 1 : 2;
	}
	int rc = 1;
	char *text = NULL;
	size_t len;
	if (!log.bytes)
		fprintf(stderr, "judge replay: seat %d of match %lld wrote nothing to stderr, or "
			"its log was not kept (worker.keep_logs)\n", a->log_seat, (long long)a->target);
	else if (replay_log_text(&log, &text, &len, err) < 0 ||
		 replay_write_text(a->output ? a->output : "-", text, len, err) < 0)
		fprintf(stderr, "judge replay: %s\n", err), rc = 2;
	else
		rc = 0;
	free(text);
	free(log.bytes);
	return rc;
}

static int run_replay(const struct read_args *a)
{
	if (a->log_seat >= 0) {
		if (a->html) {
			fprintf(stderr, "judge replay: --log and --html do not go together\n");
			return 2;
		}
		struct store *s = open_store(a);
		int rc = s ? write_log(a, s) : 2;
		store_close(s);
		return rc;
	}
	if (!a->output && !a->html) {
		fprintf(stderr, "judge replay: say where to write it: -o FILE or --html FILE "
				"(see --help)\n");
		return 2;
	}
	char err[REPLAY_ERRLEN], serr[STORE_ERRLEN];
	struct store *s = store_open(a->queue, false, serr);
	if (!s) {
		fprintf(stderr, "judge replay: %s\n", serr);
		return 2;
	}
	char *text = NULL;
	size_t len;
	int found = replay_stored_text(s, a->target, &text, &len, err);
	int rc = found > 0 && (!a->output || replay_write_text(a->output, text, len, err) == 0) ? 0
		 : found == 0 ? 1 : 2;
	if (rc)
		fprintf(stderr, "judge replay: %s%s%s\n", err, found == 0 ? " in " : "",
			found == 0 ? a->queue : "");
	else if (a->html)
		rc = replay_page(a, s, text, len);
	store_close(s);
	free(text);
	return rc;
}

/* ---- judge jobs -------------------------------------------------------------- */

static void jobs_usage(FILE *out)
{
	fprintf(out,
"usage: judge jobs [--all] [--json] [--queue FILE]\n"
"\n"
"Shows the queue: running jobs (with their worker and the time left on its\n"
"lease), queued ones in the order they will be taken, and parked ones (with\n"
"their attempts and last error: they failed too often and wait for a person),\n"
"then how many jobs are in each state.\n"
"\n"
"  --all          list the done jobs too\n"
"  --json         print {\"counts\": {...}, \"jobs\": [...]}\n"
"  --queue FILE   the judge's database (default db/jobs.sqlite)\n"
"\n"
"exit status: 0 shown, 2 bad usage or an unusable database.\n");
}

/* What a job is about, in a few words: "submission 3", "qualifying
 * dominator seed 1001: #1 Dummy Dummy Dummy", "submission.qualified to
 * hooks.example.org". */
static void put_payload(const json_t *job)
{
	const json_t *p = json_object_get(job, "payload");
	const char *kind = str(job, "kind");
	if (strcmp(kind, "compile") == 0 && json_is_integer(json_object_get(p, "submission"))) {
		printf("submission %lld", num(p, "submission"));
	} else if (strcmp(kind, "match") == 0 && json_is_object(p)) {
		printf("%s ", str(p, "kind"));
		board_cell(stdout, str(p, "game"), 0);
		printf(" seed %lld:", num(p, "seed"));
		size_t i;
		const json_t *seat;
		json_array_foreach(json_object_get(p, "seats"), i, seat) {
			putchar(' ');
			if (json_is_integer(json_object_get(seat, "submission")))
				printf("#%lld", num(seat, "submission"));
			else
				board_cell(stdout, str(seat, "house"), 0);
		}
	} else if (strcmp(kind, "notify") == 0 && json_is_object(p)) {
		/* Only the host: a webhook's URL often carries its secret. */
		const char *url = str(p, "url"), *host = strstr(url, "://");
		host = host ? host + 3 : url;
		char shown[256];
		snprintf(shown, sizeof shown, "%.*s", (int)strcspn(host, "/?#"), host);
		board_cell(stdout, str(json_object_get(p, "body"), "event"), 0);
		fputs(" to ", stdout);
		board_cell(stdout, shown, 0);
	} else {
		char *text = json_dumps(p, JSON_COMPACT | JSON_ENCODE_ANY);
		board_cell(stdout, text ? text : "?", 0);
		free(text);
	}
}

/* The state's particulars: a running job's worker and lease, a queued
 * job's wait for its retry. */
static void put_job_state(const json_t *job)
{
	const json_t *lease = json_object_get(job, "lease_left_ms");
	if (strcmp(str(job, "state"), "running") == 0) {
		fputs("  [", stdout);
		board_cell(stdout, str(job, "worker"), 0);
		long long left = json_integer_value(lease);
		if (left >= 0)
			printf(", lease %lld s left]", (left + 999) / 1000);
		else
			printf(", lease expired %lld s ago: claimable again]", -left / 1000);
	} else if (strcmp(str(job, "state"), "queued") == 0 && json_object_get(job, "waits_ms")) {
		printf("  [retry in %lld s]", (num(job, "waits_ms") + 999) / 1000);
	}
}

static void jobs_print(const json_t *out)
{
	const json_t *list = json_object_get(out, "jobs"), *job;
	if (json_array_size(list))
		printf("%6s  %-7s  %-7s  %8s  %s\n", "id", "kind", "state", "attempts", "what");
	size_t i;
	json_array_foreach(list, i, job) {
		printf("%6lld  ", num(job, "id"));
		board_cell(stdout, str(job, "kind"), 7);
		fputs("  ", stdout);
		board_cell(stdout, str(job, "state"), 7);
		printf("  %8lld  ", num(job, "attempts"));
		put_payload(job);
		put_job_state(job);
		putchar('\n');
		if (*str(job, "last_error")) {
			printf("%8slast error: ", "");
			board_cell(stdout, str(job, "last_error"), 0);
			putchar('\n');
		}
	}
	const json_t *c = json_object_get(out, "counts");
	printf("%lld queued, %lld running, %lld parked, %lld done\n", num(c, "queued"),
	       num(c, "running"), num(c, "parked"), num(c, "done"));
}

static int run_jobs(const struct read_args *a)
{
	struct store *s = open_store(a);
	if (!s)
		return 2;
	json_t *out;
	char err[STORE_ERRLEN];
	int rc = store_report_jobs(s, safe_json_text, a->all, &out, err) < 0 ? 2 : 0;
	if (rc)
		read_failed(a, err);
	store_close(s);
	if (rc == 0 && a->json)
		rc = print_json(out) < 0 ? 2 : 0;
	else if (rc == 0)
		jobs_print(out);
	json_decref(out);
	return rc;
}

/* ---- entry points ---------------------------------------------------------------- */

static const struct read_cmd cmd_defs[] = {
	{ "status", "qj", "SUBMISSION", status_usage },
	{ "matches", "qjgpn", NULL, matches_usage },
	{ "replay", "qoHL", "MATCH", replay_usage },
	{ "jobs", "qja", NULL, jobs_usage },
};

static int run(int which, int argc, char **argv, int (*fn)(const struct read_args *))
{
	struct read_args a;
	return parse_args(&cmd_defs[which], argc, argv, &a) < 0 ? 2 : fn(&a);
}

int cmd_status(int argc, char **argv)
{
	return run(0, argc, argv, run_status);
}

int cmd_matches(int argc, char **argv)
{
	return run(1, argc, argv, run_matches);
}

int cmd_replay(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "check") == 0)
		return cmd_replay_check(argc - 1, argv + 1);
	return run(2, argc, argv, run_replay);
}

int cmd_jobs(int argc, char **argv)
{
	return run(3, argc, argv, run_jobs);
}
