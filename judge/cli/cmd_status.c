/* judge status SUBMISSION: what became of a submission. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/report.h"
#include "judge/cli/why_waiting.h"
#include "judge/rating/rating.h"
#include "judge/store/store_serve.h"
#include "judge/worker/matchmaking.h"

/* The outcome counts as the worker decides: only the matches since the
 * last rejudge; the list keeps the earlier ones (before_rejudge). */
static int status_counts(const struct read_args *a, struct store *s, json_t *sub)
{
	int played = 0, won = 0;
	err_t err;
	if (store_qualifying_record(s, a->target, &played, &won, err) < 0) {
		fprintf(stderr, "judge %s: %s\n", a->cmd, err->msg);
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
	err_t err;
	json_t *all;
	if (store_disqualifications(s, report_str(sub, "game"), &all, err) < 0) {
		fprintf(stderr, "judge %s: %s\n", a->cmd, err->msg);
		return -1;
	}
	json_t *latest = json_null();
	size_t i;
	json_t *d;
	json_array_foreach(all, i, d) { /* newest first */
		if (strcmp(report_str(d, "name"), report_str(sub, "player")) == 0) {
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
	char why[600];
	err_t err;
	int min_games = cfg_init(&cfg, NULL, err) == 0 ? (int)cfg.worker.min_games
						       : mm_params_default().min_games;
	int rc = why_waiting(s, a->queue, report_str(sub, "state"), report_str(sub, "game"), min_games, why,
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
	const char *state = report_str(sub, "state");
	json_t *q = json_object_get(sub, "qualifying");
	long long won = report_num(q, "won"), played = report_num(q, "played");
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
	err_t err;
	int found = store_report_submission(s, safe_json_text, a->target, out, err);
	if (found < 0)
		report_failed(a, err->msg);
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
	long long earlier = report_num(q, "before_rejudge");
	printf("\nqualifying matches");
	if (earlier > 0)
		printf(" (the first %lld played before the organisers' last rejudge, not counted)",
		       earlier);
	printf(":\n%6s  %4s  %8s  %4s  %s\n", "match", "seat", "score", "rank", "frozen");
	size_t i;
	const json_t *m;
	json_array_foreach(list, i, m) {
		printf("%6lld  %4lld  %8lld  %4lld  ", report_num(m, "match"), report_num(m, "seat"),
		       report_num(m, "score"), report_num(m, "rank"));
		report_frozen(m);
		putchar('\n');
	}
}

static void status_print(const json_t *sub)
{
	static const char *const fields[][2] = {
		{ "game", "game" }, { "player", "player" }, { "author", "author" },
		{ "state", "state" }, { "outcome", "outcome" },
	};
	printf("%-11s %lld\n", "submission", report_num(sub, "submission"));
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
		printf("%-11s ", fields[i][0]);
		board_cell(stdout, report_str(sub, fields[i][1]), 0);
		putchar('\n');
	}
	if (json_is_string(json_object_get(sub, "qualify_note"))) { /* the step that decided */
		printf("%-11s ", "why");
		board_cell(stdout, report_str(sub, "qualify_note"), 0);
		putchar('\n');
	}
	const json_t *dq = json_object_get(sub, "disqualified");
	if (json_is_object(dq)) {
		char when[32];
		board_time(report_num(dq, "created_at"), when);
		printf("%-11s by %s on %s, out of the ranking and matchmaking: ", "disqualified",
		       report_str(dq, "decided_by"), when);
		board_cell(stdout, report_str(dq, "reason"), 0);
		putchar('\n');
	} else if (json_is_string(json_object_get(sub, "waiting"))) {
		printf("%-11s %s\n", "waiting", report_str(sub, "waiting"));
	}
	report_time("submitted", sub, "created_at");
	report_time("updated", sub, "updated_at");
	const json_t *rt = json_object_get(sub, "rating");
	char score[32], mu[32], sigma[32];
	if (json_is_object(rt))
		printf("%-11s score %s (mu %s, sigma %s), %lld games, %lld wins\n", "rating",
		       board_num(json_real_value(json_object_get(rt, "score")), score),
		       board_num(json_real_value(json_object_get(rt, "mu")), mu),
		       board_num(json_real_value(json_object_get(rt, "sigma")), sigma),
		       report_num(rt, "games"), report_num(rt, "wins"));
	if (strcmp(report_str(sub, "state"), "compile_failed") == 0) {
		printf("\ncompile log:\n");
		if (*report_str(sub, "compile_log"))
			board_lines(stdout, report_str(sub, "compile_log"), "  ");
		else
			printf("  (empty)\n");
	}
	if (strcmp(report_str(sub, "plagiarism"), "suspected") == 0)
		printf("%-11s suspected: too similar to another file; `judge plagiarism --game %s`"
		       " lists the pairs (it keeps playing: a person decides)\n", "plagiarism",
		       report_str(sub, "game"));
	status_print_matches(json_object_get(sub, "qualifying"));
}

static int run_status(const struct read_args *a)
{
	struct store *s = report_open(a);
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
		rc = report_json(sub) < 0 ? 2 : 0;
	else if (found > 0)
		status_print(sub);
	json_decref(sub);
	return rc;
}

int cmd_status(int argc, char **argv)
{
	struct read_args a = { .cmd = "status" };
	const struct opt opts[] = {
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge status", .args = "SUBMISSION", .min_args = 1, .max_args = 1,
		.json = &a.json, .json_help = "print it as one JSON object",
		.opts = opts,
		.summary = "Shows what became of a submission (the id scripts/upload printed): its game,\n"
			   "player, author, state and times, the compiler's messages if it did not\n"
			   "compile, each qualifying match (seat, score, rank, and the round and reason\n"
			   "if the player was frozen), the outcome, and its rating once it is ranked.",
		.exits = "0 shown, 1 no such submission, 2 bad usage or an unusable database.",
	};
	int status;
	return report_parse(&cmd, "submission", argc, argv, &a, &status) < 0 ? status
									       : run_status(&a);
}
