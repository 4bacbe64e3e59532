/* judge - one program, many subcommands (git style). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/hash.h"
#include "judge/base/version.h"
#include "judge/cli/commands.h"
#include "judge/notify/webhook.h"

/* What a command may reach beyond local files, which decides what the
 * program starts for it: each costs more than a match's own set-up. */
enum reach {
	LOCAL, /* files alone: OpenSSL started lean, no TLS (hash.h) */
	STORE, /* a store, maybe PostgreSQL over TLS */
	HTTP,  /* a store and HTTP as a client (libcurl): webhooks, uploads */
};

struct judge_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	enum reach reach;
};

static const struct judge_cmd commands[] = {
	{ "play", cmd_play, "compile players and play one match", LOCAL },
	{ "submit", cmd_submit, "store a submission in the queue (scripts/upload)", HTTP },
	{ "worker", cmd_worker, "take jobs from the queue (also judge-worker)", HTTP },
	{ "ratings", cmd_ratings, "recompute ratings from the match history", STORE },
	{ "leaderboard", cmd_leaderboard, "the ranked players of a game (--json, --html)", STORE },
	{ "status", cmd_status, "what became of a submission", STORE },
	{ "matches", cmd_matches, "the played matches, most recent first", STORE },
	{ "replay", cmd_replay, "write a stored match's replay; `replay check` verifies one", STORE },
	{ "repro", cmd_repro, "play again the turn a player froze on, with your own build "
	  "(--asan, --gdb)", STORE },
	{ "jobs", cmd_jobs, "the queue: running, queued and parked jobs", STORE },
	{ "plagiarism", cmd_plagiarism, "similar pairs of files, and one pair side by side", STORE },
	{ "archive", cmd_archive, "import files of earlier years to compare against", STORE },
	{ "serve", cmd_serve, "the HTTP API and pages over the store", STORE },
	{ "token", cmd_token, "tokens for the service: add, import a roster, list, revoke", STORE },
	{ "disqualify", cmd_disqualify, "take a player out of the ranking (--list: history)",
	  STORE },
	{ "reinstate", cmd_reinstate, "let a disqualified player back", STORE },
	{ "tournament", cmd_tournament, "an event of phases: create, add, pick, start, "
	  "opponent, show, grades, plan", STORE },
	{ "reference", cmd_reference, "the organiser's private opponents: add, object, list",
	  STORE },
	{ "challenge", cmd_challenge, "queue unrated matches of your player against chosen "
	  "opponents", STORE },
	{ "compare", cmd_compare, "two versions of your player, paired: queue, then --show",
	  STORE },
	{ "store", cmd_store, "copy a whole tournament into another store (PostgreSQL)", STORE },
	{ "kit", cmd_kit, "the student kit of a game: header, runner, opponents, upload script",
	  LOCAL },
	{ "compile", cmd_compile, "compile one contestant's file", LOCAL },
	{ "sandbox", cmd_sandbox, "run a binary under the player sandbox", LOCAL },
	{ "config", cmd_config, "the effective settings and where each came from", LOCAL },
	{ 0 },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: judge COMMAND [ARGS...]\n\ncommands:\n");
	for (const struct judge_cmd *c = commands; c->name; c++)
		fprintf(out, "  %-12s %s\n", c->name, c->summary);
	fprintf(out, "\n`judge COMMAND --help` explains each one; `judge --version` says "
		     "which judge this is.\n");
}

/* libcurl starts (before any thread) only for a command that needs it:
 * loading it is most of what starting the judge would cost. */
static int run(const struct judge_cmd *c, int argc, char **argv)
{
	err_t err;
	if (c->reach == LOCAL)
		hash_start_lean();
	if (c->reach == HTTP && hook_global_init(err) < 0) {
		fprintf(stderr, "judge: %s\n", err->msg);
		return 1;
	}
	if (c->reach == HTTP)
		atexit(hook_global_cleanup);
	return c->run(argc, argv);
}

int main(int argc, char **argv)
{
	/* A player may close its pipes at any time; a write to them must be an
	 * error the judge handles, not a signal that kills it. */
	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("judge %s\n", judge_version);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (const struct judge_cmd *c = commands; c->name; c++)
		if (strcmp(c->name, argv[1]) == 0)
			return run(c, argc - 1, argv + 1);
	fprintf(stderr, "judge: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
