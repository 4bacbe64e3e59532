/* judge repro MATCH SEAT --player FILE [--asan] [--gdb]: a frozen seat's
 * failing turn played again by the contestant's own build (repro.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/base/config.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/store/store.h"
#include "judge/replay/fault.h"
#include "judge/replay/replay_io.h"
#include "judge/replay/repro.h"
#include "judge/replay/repro_build.h"

struct repro_args {
	const char *player, *record, *replay, *queue, *config;
	bool asan, gdb;
	int64_t wait_s;
	int64_t match;
	int seat;
};

static const char summary[] =
"Plays again the turn on which a player froze in match MATCH (crashed, ran out\n"
"of time, broke the protocol), with your own build of it: the match is\n"
"re-created from its replay up to that turn (your player gets every message\n"
"its seat got, the other seats play what they played), then your player gets\n"
"the exact bytes it was given at that turn.  It says whether the failure came\n"
"again: with --asan, AddressSanitizer's report names the line of the fault;\n"
"with --gdb, gdb prints the backtrace (of the crash, or of where it spins).\n"
"In AIC2018 a seat whose unit crashed (or broke its energy count) plays on:\n"
"its record names the unit and its step, and the re-created step ends your\n"
"player where the unit's code failed.  AIC2018 players are built as the\n"
"judge builds them, with line information for --gdb; --asan is not\n"
"available there (AddressSanitizer's checks would be charged energy).\n"
"\n"
"The record comes from the judge's database, or from two files downloaded\n"
"from the service: --record (GET /api/matches/MATCH/faults/SEAT, yours only)\n"
"and --replay (GET /api/matches/MATCH/replay).  Your player runs here outside\n"
"the judge's sandbox: give it only your own code.";

static const char *const forms[] = {
	"judge repro MATCH SEAT --player FILE [--asan] [--gdb] [--queue FILE]",
	"judge repro --record FAULT.json --replay REPLAY.json --player FILE [--asan] [--gdb]",
	NULL,
};

/* ---- the record ----------------------------------------------------------- */

static json_t *read_json_file(const char *path, err_t err)
{
	return replay_read_file(path, err);
}

static int record_from_files(const struct repro_args *a, struct fault *f, json_t **replay,
			     err_t err)
{
	json_t *rec = read_json_file(a->record, err);
	if (!rec)
		return -1;
	int rc = fault_parse(rec, f, err);
	json_decref(rec);
	if (rc == 0 && !(*replay = read_json_file(a->replay, err)))
		rc = -1;
	return rc;
}

static int record_from_store(const struct repro_args *a, struct fault *f, json_t **replay,
			     err_t err)
{
	struct store *s = store_open(a->queue, false, err);
	if (!s)
		return -1;
	struct store_fault sf;
	int rc = store_match_fault(s, a->match, a->seat, &sf, err);
	if (rc == 0)
		err_set(err, "match %lld has no seat %d in %s", (long long)a->match,
			 a->seat, a->queue);
	else if (rc > 0)
		rc = fault_from_store(a->match, a->seat, &sf, f, err);
	free(sf.input);
	char *text = NULL;
	size_t len;
	if (rc > 0 && replay_stored_text(s, a->match, &text, &len, err) > 0)
		*replay = json_loadb(text, len, 0, NULL);
	free(text);
	store_close(s);
	if (rc > 0 && !*replay && !err->msg[0])
		err_set(err, "match %lld's replay does not read", (long long)a->match);
	return rc > 0 && *replay ? 0 : -1;
}

static void say_record(const struct fault *f, FILE *out)
{
	fprintf(out, "match %lld, seat %d (%s): %s ", (long long)f->match, f->seat, f->player,
		f->unit ? "its team played on, but a unit died" : "frozen");
	if (f->round < 0)
		fprintf(out, "before the first round");
	else
		fprintf(out, "in round %d", f->round);
	fprintf(out, ": %s\n  CPU: %.3f s of its %.3f s in the whole match, %.3f s from its last "
		"message on; memory %.1f MiB\n  its last message: number %d (0 is the start), "
		"%zu bytes%s\n", f->reason, f->cpu_ns / 1e9, f->cpu_budget_ns / 1e9,
		f->turn_cpu_ns / 1e9, f->peak_memory / 1048576.0, f->message, f->input_size,
		f->input_len < f->input_size ? " (the first 256 KiB kept)" : "");
}

static int reproduce(const struct repro_args *a, const struct fault *f, const json_t *replay,
		     const char *bin);

/* ---- the player ----------------------------------------------------------- */

static bool is_source(const char *path)
{
	size_t len = strlen(path);
	return len > 2 && strcmp(path + len - 2, ".c") == 0;
}

/* ---- the run -------------------------------------------------------------- */

static const char *signal_name(int sig)
{
	const char *s = sigdescr_np(sig);
	return s ? s : "a signal";
}

/* ", its step S, where unit U died" for the record of a unit's crash. */
static const char *unit_note(const struct fault *f, const struct repro_outcome *o,
			     char note[96])
{
	note[0] = 0;
	if (f->unit)
		snprintf(note, 96, ", its step %d, where unit %d died", o->step, f->unit);
	return note;
}

/* What happened, against the record: 0 reproduced, 1 not. */
static int verdict(const struct fault *f, const struct repro_outcome *o, int64_t wait_s,
		   bool gdb)
{
	char note[96];
	if (o->message != f->message) {
		printf("not reproduced: your player stopped at its message %d (round %d), before "
		       "the failing turn; ", o->message, o->round);
		if (o->end == REPRO_CRASHED)
			printf("it was killed by signal %d (%s)\n", o->status, signal_name(o->status));
		else if (o->end == REPRO_EXITED)
			printf("it exited with status %d\n", o->status);
		else
			printf("it did not answer within %lld s\n", (long long)wait_s);
		return 1;
	}
	if (gdb && o->end == REPRO_EXITED)
		printf("reproduced: gdb stopped your player at round %d (its backtrace above); in "
		       "the match: %s\n", o->round, f->reason);
	else if (o->end == REPRO_CRASHED)
		printf("reproduced: your player was killed by signal %d (%s) at round %d%s, as in "
		       "the match (%s)\n", o->status, signal_name(o->status), o->round,
		       unit_note(f, o, note), f->reason);
	else if (o->end == REPRO_EXITED)
		printf("reproduced: your player ended with status %d at round %d%s%s; in the "
		       "match: %s\n", o->status, o->round, unit_note(f, o, note),
		       o->status ? " (see the report above)" : "", f->reason);
	else if (o->end == REPRO_SILENT && gdb)
		printf("reproduced: your player did not answer round %d within %lld s (gdb shows "
		       "where it was, above); in the match: %s\n", o->round, (long long)wait_s,
		       f->reason);
	else if (o->end == REPRO_SILENT)
		printf("reproduced: your player did not answer round %d within %lld s (%.3f s of "
		       "CPU); in the match: %s\n", o->round, (long long)wait_s, o->cpu_s, f->reason);
	else
		printf("not reproduced: your player answered round %d after %.3f s of CPU; in the "
		       "match: %s\n", o->round, o->cpu_s, f->reason);
	return o->end == REPRO_ANSWERED;
}

/* The turns before the failing one were answered in the match: waited for
 * longer than --wait, as gdb may take seconds to start on a busy machine. */
#define EARLIER_WAIT_S 30

static int reproduce(const struct repro_args *a, const struct fault *f, const json_t *replay,
		     const char *bin)
{
	char *plain[] = { (char *)bin, NULL };
	char *gdb[] = { "gdb", "-q", "-nx", "-batch", "-ex", "run <&3 >&4", "-ex", "bt",
			"--args", (char *)bin, NULL };
	struct repro_spec spec = {
		.replay = replay, .fault = f, .argv = a->gdb ? gdb : plain, .fds_3_4 = a->gdb,
		.interrupt_signal = a->gdb ? SIGINT : 0, .log = stderr,
		.turn_wait_ns = (uint64_t)(a->wait_s > EARLIER_WAIT_S ? a->wait_s : EARLIER_WAIT_S) *
				1000000000ULL,
		.fault_wait_ns = (uint64_t)a->wait_s * 1000000000ULL,
	};
	struct repro_outcome o;
	err_t err = {0};
	if (repro_run(&spec, &o, err) < 0) {
		fprintf(stderr, "judge repro: %s\n", err->msg);
		return 2;
	}
	fflush(stderr);
	return verdict(f, &o, a->wait_s, a->gdb);
}

static int with_player(const struct repro_args *a, const struct fault *f, const json_t *replay)
{
	const struct game *game = game_find(json_string_value(json_object_get(replay, "game")));
	if (!game) {
		fprintf(stderr, "judge repro: the replay is of no game this judge knows\n");
		return 2;
	}
	if (!is_source(a->player)) {
		if (a->asan)
			fprintf(stderr, "judge repro: --asan builds a source file (FILE.c); %s runs "
				"as it is\n", a->player);
		return reproduce(a, f, replay, a->player);
	}
	struct judge_config cfg;
	char dir[] = "/tmp/judge-repro-XXXXXX", bin[64];
	err_t cerr;
	if (cfg_init(&cfg, a->config, cerr) < 0) {
		fprintf(stderr, "judge repro: %s\n", cerr->msg);
		return 2;
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "judge repro: cannot make a folder in /tmp: %s\n", strerror(errno));
		return 2;
	}
	snprintf(bin, sizeof bin, "%s/player", dir);
	enum repro_build_result built = repro_build(&cfg, game, a->player, a->asan, dir, bin,
						    stderr);
	int rc = built == REPRO_BUILT ? reproduce(a, f, replay, bin)
				      : built == REPRO_BUILD_REFUSED ? 2 : 1;
	unlink(bin);
	rmdir(dir);
	return rc;
}

/* ---- the command line ----------------------------------------------------- */

static int parse(int argc, char **argv, struct repro_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_STR("player", 'p', "FILE", &a->player, "your player: its source AIName.c "
			"(built here with the game's kit and -g) or a program already built",
			.required = true),
		OPT_BOOL("asan", 0, &a->asan, "build it under AddressSanitizer: an out-of-bounds "
			 "access is reported with its line (not for AIC2018)"),
		OPT_BOOL("gdb", 0, &a->gdb, "run it under gdb, which prints the backtrace where it "
			 "crashed (or, when it does not answer, where it was)"),
		OPT_NUM("wait", 0, "SECONDS", &a->wait_s, 1, 3600, "a number of seconds",
			"how long to wait for its answer to the failing turn (default 10; to "
			"the turns before it, answered in the match, at least "
			OPT_TEXT(EARLIER_WAIT_S) " s)"),
		OPT_STR("record", 0, "FILE", &a->record, "the fault record downloaded from the "
			"service (then --replay too, and no MATCH SEAT)"),
		OPT_STR("replay", 0, "FILE", &a->replay, "the match's replay downloaded from the "
			"service"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge repro", .args = "MATCH SEAT", .min_args = 0, .max_args = 2,
		.queue = &a->queue, .config = &a->config,
		.forms = forms, .opts = opts, .summary = summary,
		.exits = "0 when the failure came again at the same turn, 1 when it did not (or "
			 "your player stopped earlier), 2 for bad usage or a record that cannot be "
			 "read.",
	};
	int n = opt_parse(&cmd, argc, argv, status);
	if (n < 0)
		return -1;
	if (!a->record != !a->replay)
		*status = opt_bad(&cmd, "--record and --replay go together");
	else if (a->record && n != 0)
		*status = opt_bad(&cmd, "with --record, MATCH and SEAT are the record's");
	else if (!a->record && n != 2)
		*status = opt_bad(&cmd, "say which match and seat: MATCH SEAT (seats are numbered "
				  "from 0), or --record and --replay");
	else if (!a->record) {
		char *end;
		a->match = strtoll(argv[1], &end, 10);
		long seat = strtol(argv[2], &end, 10);
		if (a->match <= 0 || *end || seat < 0 || seat >= GAME_MAX_PLAYERS)
			*status = opt_bad(&cmd, "MATCH is a match's number, SEAT one of its seats "
					  "(0 to %d)", GAME_MAX_PLAYERS - 1);
		a->seat = (int)seat;
	}
	return *status ? -1 : 0;
}

int cmd_repro(int argc, char **argv)
{
	struct repro_args a = { .wait_s = 10 };
	int status = 0;
	if (parse(argc, argv, &a, &status) < 0)
		return status;
	struct fault f = { 0 };
	json_t *replay = NULL;
	err_t err = {0};
	int rc = a.record ? record_from_files(&a, &f, &replay, err)
			  : record_from_store(&a, &f, &replay, err);
	if (rc < 0) {
		fprintf(stderr, "judge repro: %s\n", err->msg);
		fault_free(&f);
		return 2;
	}
	say_record(&f, stderr);
	rc = with_player(&a, &f, replay);
	json_decref(replay);
	fault_free(&f);
	return rc;
}
