/* dominator_dummy.c - how strong the shipped Dummy player is: compile Dummy
 * and Demo through the judge's compile step, play the seeded matches Dummy
 * Demo Demo Demo (Dummy in seat 0) in the sandbox with the configured
 * limits, and print Dummy's strict win rate (goal >= 80%) and its CPU per
 * match.  Falling short of the goal is reported, not failed: the exit status
 * is non-zero only when the benchmark could not run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "games/game.h"
#include "judge/compile.h"
#include "judge/config.h"
#include "judge/match.h"

#define FIRST_SEED 1
#define LAST_SEED 50
#define GOAL_PERCENT 80
#define HEADER "games/dominator/kit/dominator.h"
#define RUNTIME "build/kits/libdominator.a"
#define PARAMS "config/games/dominator.cnf"
#define PARAMS_MAX (1 << 20)

struct tally {
	int matches, wins, shared_wins, frozen;
	uint64_t cpu_total, cpu_max;
};

/* Compiles a player into the compile cache, as `judge play` does. */
static int compile(const struct judge_config *cfg, const char *source, struct cmp_result *out)
{
	char err[CMP_ERRLEN];
	struct sbx_uid uid = { 0, -1 };
	if (geteuid() == 0 &&
	    sbx_uid_claim(cfg->sandbox.uid_base, cfg->sandbox.uid_count, &uid, err) < 0) {
		fprintf(stderr, "bench: %s\n", err);
		return -1;
	}
	struct cmp_request req = { .source = source, .header = HEADER, .runtime = RUNTIME,
				   .uid = uid.uid, .gid = uid.uid };
	int rc = cmp_compile(&cfg->compile, &req, out, err);
	sbx_uid_release(&uid);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err);
		return -1;
	}
	if (!out->ok) {
		fprintf(stderr, "bench: %s does not compile:\n%s", source, out->log);
		return -1;
	}
	return 0;
}

/* The default game's parameters file, the one `judge play` reads; NULL
 * (the engine's defaults, the same game) when it is absent. */
static char *read_params(void)
{
	FILE *f = fopen(PARAMS, "re");
	if (!f)
		return NULL;
	char *text = calloc(1, PARAMS_MAX + 1);
	if (text && fread(text, 1, PARAMS_MAX, f) == PARAMS_MAX) {
		free(text); /* too big to be the default game: use the defaults */
		text = NULL;
	}
	fclose(f);
	return text;
}

/* Dummy wins strictly when it alone has rank 1. */
static void count_match(const struct match_result *r, struct tally *t)
{
	const struct match_seat *dummy = &r->seat[0];
	int firsts = 0;
	for (int i = 0; i < r->nplayers; i++)
		firsts += r->seat[i].rank == 1;
	t->matches++;
	t->wins += dummy->rank == 1 && firsts == 1;
	t->shared_wins += dummy->rank == 1 && firsts > 1;
	t->frozen += dummy->frozen;
	t->cpu_total += dummy->cpu_ns;
	if (dummy->cpu_ns > t->cpu_max)
		t->cpu_max = dummy->cpu_ns;
}

static int play_all(const struct judge_config *cfg, const char *dummy, const char *demo,
		    const char *params, struct tally *t)
{
	const struct cfg_sandbox *sb = &cfg->sandbox;
	struct match_spec spec = {
		.game = game_find("dominator"), .params = params, .nplayers = 4,
		.uid_base = sb->uid_base, .uid_count = sb->uid_count,
		.limits = { .cpu_ns = sb->cpu_ns, .wall_ns = sb->wall_ns,
			    .memory_bytes = sb->memory_bytes, .stderr_bytes = sb->stderr_bytes,
			    .open_files = sb->open_files },
	};
	if (!spec.game) {
		fprintf(stderr, "bench: the judge has no dominator game\n");
		return -1;
	}
	spec.entry[0] = (struct match_entry){ .binary = dummy, .label = "Dummy" };
	for (int i = 1; i < 4; i++)
		spec.entry[i] = (struct match_entry){ .binary = demo, .label = "Demo" };
	for (uint64_t seed = FIRST_SEED; seed <= LAST_SEED; seed++) {
		struct match_result r;
		char err[MATCH_ERRLEN];
		spec.seed = seed;
		if (match_play(&spec, &r, err) < 0) {
			fprintf(stderr, "bench: seed %llu: %s\n", (unsigned long long)seed, err);
			return -1;
		}
		count_match(&r, t);
		match_result_free(&r);
	}
	return 0;
}

static void report(const struct tally *t, uint64_t wall_ns)
{
	double rate = 100.0 * t->wins / t->matches;
	printf("Dominator: Dummy (seat 0) vs Demo Demo Demo, seeds %d..%d:\n", FIRST_SEED,
	       LAST_SEED);
	printf("  matches             %8d\n", t->matches);
	printf("  Dummy strict wins   %8d   (shared first places, not counted: %d)\n", t->wins,
	       t->shared_wins);
	printf("  win rate            %7.1f%%   (goal >= %d%%: %s)\n", rate, GOAL_PERCENT,
	       rate >= GOAL_PERCENT ? "met" : "NOT met");
	printf("  Dummy CPU / match   %8.1f ms mean, %.1f ms max (frozen in %d)\n",
	       t->cpu_total / 1e6 / t->matches, t->cpu_max / 1e6, t->frozen);
	printf("  wall time           %8.1f s\n", wall_ns / 1e9);
}

int main(void)
{
	struct judge_config cfg;
	char err[CFG_ERRLEN];
	if (cfg_init(&cfg, NULL, err) < 0) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	if (access(RUNTIME, R_OK) != 0) {
		fprintf(stderr, "bench: %s is missing: run `make %s` first\n", RUNTIME, RUNTIME);
		return 1;
	}
	struct cmp_result dummy = { 0 }, demo = { 0 };
	struct tally t = { 0 };
	char *params = read_params();
	uint64_t t0 = bench_now_ns();
	int rc = compile(&cfg, "games/dominator/players/AIDummy.c", &dummy) < 0 ||
		 compile(&cfg, "games/dominator/players/AIDemo.c", &demo) < 0 ||
		 play_all(&cfg, dummy.binary, demo.binary, params, &t) < 0;
	if (!rc)
		report(&t, bench_now_ns() - t0);
	free(params);
	cmp_result_free(&dummy);
	cmp_result_free(&demo);
	return rc;
}
