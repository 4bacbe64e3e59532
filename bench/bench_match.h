/* bench_match.h - a sandboxed match as `judge play` plays it, for the
 * benchmarks that time one: n copies of one compiled player under the
 * configured limits, pinned to this CPU; and a shipped player compiled as
 * the judge compiles it.  Header only. */
#ifndef BENCH_MATCH_H
#define BENCH_MATCH_H

#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/compile/compile.h"
#include "judge/play/match.h"
#include "judge/play/players.h"

/* game's shipped player (Null, Demo, Dummy) compiled into binary; a
 * player missing or not compiling ends the benchmark with the reason. */
static inline void bench_compile_shipped(const struct judge_config *cfg, const char *game,
					 const char *player, char binary[PATH_MAX])
{
	char source[PATH_MAX];
	err_t err;
	if (!paths_shipped_player(cfg->data_dir, game, player, source)) {
		fprintf(stderr, "bench: %s: no such player\n", source);
		exit(1);
	}
	struct cmp_result r;
	if (players_compile(cfg, game, source, &r, err) < 0 || !r.ok) {
		fprintf(stderr, "bench: %s: %s\n", source, r.ok ? err->msg : r.log);
		exit(1);
	}
	snprintf(binary, PATH_MAX, "%s", r.binary);
	cmp_result_free(&r);
}

/* Plays n copies of the shipped player `label` (its name, as its
 * PLAYER_NAME says) into *r (match_result_free it) and returns its wall time; a
 * match that cannot run, or a player that froze, ends the benchmark with
 * the reason. */
static inline uint64_t bench_match(const struct judge_config *cfg, const struct game *gm,
				   const char *params, uint64_t seed, int n, const char *binary,
				   const char *label, struct match_result *r)
{
	struct match_spec spec = {
		.game = gm, .params = params, .seed = seed, .nplayers = n, .pin_cpu = true,
		.cpu = sched_getcpu(),
		.limits = { .cpu_ns = cfg->sandbox.cpu_ns, .wall_ns = cfg->sandbox.wall_ns,
			    .memory_bytes = cfg->sandbox.memory_bytes,
			    .stderr_bytes = cfg->sandbox.stderr_bytes },
		.uid_base = cfg->sandbox.uid_base, .uid_count = cfg->sandbox.uid_count,
		.wall_budget_factor = cfg->sandbox.wall_budget_factor,
		.wall_round_ns = cfg->sandbox.wall_round_ns
	};
	for (int i = 0; i < n; i++)
		spec.entry[i] = (struct match_entry){ .binary = binary, .name = label, .label = label };
	err_t err;
	uint64_t t0 = bench_now_ns();
	if (match_play(&spec, r, err) < 0) {
		fprintf(stderr, "bench: %s match: %s\n", gm->name, err->msg);
		exit(1);
	}
	uint64_t t = bench_now_ns() - t0;
	for (int i = 0; i < n; i++)
		if (r->seat[i].frozen) {
			fprintf(stderr, "bench: %s: %s froze: %s\n", gm->name, label,
				r->seat[i].reason);
			exit(1);
		}
	return t;
}

#endif
