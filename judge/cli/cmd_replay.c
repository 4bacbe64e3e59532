/* judge replay MATCH -o FILE | --html FILE | --log SEAT: a stored match's
 * replay, page or a player's log; `judge replay check` is cmd_replay_check.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/cli/report.h"
#include "judge/replay/replay_io.h"
#include "judge/replay/viewer.h"

/* The page of the replay run_replay has already read. */
static int replay_page(const struct read_args *a, struct store *s, const char *text, size_t len)
{
	err_t err;
	if (viewer_write_stored(s, a->target, text, len, a->html, err) == 0)
		return 0;
	fprintf(stderr, "judge replay: %s\n", err->msg);
	return 2;
}

/* judge replay MATCH --log SEAT: the seat's stored stderr as text. */
static int write_log(const struct read_args *a, struct store *s)
{
	err_t err;
	struct store_seat_log log;
	int found = store_match_log(s, a->target, a->log_seat, &log, err);
	if (found <= 0) {
		if (found == 0)
			fprintf(stderr, "judge replay: match %lld has no seat %d in %s\n",
				(long long)a->target, a->log_seat, a->queue);
		else
			report_failed(a, err->msg);
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
		fprintf(stderr, "judge replay: %s\n", err->msg), rc = 2;
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
		struct store *s = report_open(a);
		int rc = s ? write_log(a, s) : 2;
		store_close(s);
		return rc;
	}
	if (!a->output && !a->html) {
		fprintf(stderr, "judge replay: say where to write it: -o FILE or --html FILE "
				"(see --help)\n");
		return 2;
	}
	err_t err;
	err_t serr;
	struct store *s = store_open(a->queue, false, serr);
	if (!s) {
		fprintf(stderr, "judge replay: %s\n", serr->msg);
		return 2;
	}
	char *text = NULL;
	size_t len;
	int found = replay_stored_text(s, a->target, &text, &len, err);
	int rc = found > 0 && (!a->output || replay_write_text(a->output, text, len, err) == 0) ? 0
		 : found == 0 ? 1 : 2;
	if (rc)
		fprintf(stderr, "judge replay: %s%s%s\n", err->msg, found == 0 ? " in " : "",
			found == 0 ? a->queue : "");
	else if (a->html)
		rc = replay_page(a, s, text, len);
	store_close(s);
	free(text);
	return rc;
}

static const char *const replay_forms[] = {
	"judge replay MATCH [-o FILE] [--html FILE] [--queue FILE]",
	"judge replay MATCH --log SEAT [-o FILE] [--queue FILE]",
	"judge replay check FILE|MATCH [--queue FILE]",
	NULL,
};

int cmd_replay(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "check") == 0)
		return cmd_replay_check(argc - 1, argv + 1);
	struct read_args a = { .cmd = "replay" };
	int64_t seat = -1;
	const struct opt opts[] = {
		OPT_STR("output", 'o', "FILE", &a.output, "where to write it (- for standard "
			"output); a name ending in .gz gets it gzip-compressed"),
		OPT_STR("html", 0, "FILE", &a.html, "write the match as one self-contained HTML "
			"page"),
		OPT_NUM("log", 0, "SEAT", &seat, 0, GAME_MAX_PLAYERS - 1, "a seat number",
			"write what seat SEAT's player (0 is the first seat) wrote to stderr in the "
			"match instead, as text (to standard output unless -o); kept unless "
			"worker.keep_logs is false"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge replay", .args = "MATCH", .min_args = 1, .max_args = 1,
		.forms = replay_forms, .opts = opts,
		.summary = "Writes the stored replay of match MATCH (an id `judge matches` lists): the\n"
			   "JSON the match produced, byte for byte (the store keeps it compressed).\n"
			   "`judge replay check` re-runs a replay's engine and compares every round\n"
			   "(see `judge replay check --help`).",
		.exits = "0 written, 1 no such match or no replay or log stored, 2 bad usage, an "
			 "unusable database or a file that cannot be written.",
	};
	int status;
	if (report_parse(&cmd, "match", argc, argv, &a, &status) < 0)
		return status;
	a.log_seat = (int)seat;
	return run_replay(&a);
}
