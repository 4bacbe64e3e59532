/* compile_confine.c - the cost of confining the compiler: the Demo player
 * of Dominator compiled through the compile step confined (namespaces,
 * the toolchain-only view) and unconfined (the same gcc commands under the
 * same limits and uid), interleaved so both see the same machine, each
 * with an empty cache, and the ratio of the medians (goal <= 1.2). */
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "judge/compile/compile.h"
#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/play/players.h"

#define ROUNDS ((int)bench_size(15, 1))

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static uint64_t compile_once(struct cfg_compile *cfg, const struct cmp_request *req)
{
	nftw(cfg->cache_dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	struct cmp_result r;
	err_t err;
	uint64_t t0 = bench_now_ns();
	if (cmp_compile(cfg, req, &r, err) < 0 || !r.ok) {
		fprintf(stderr, "bench: the Demo did not compile: %s\n", err->msg);
		exit(1);
	}
	uint64_t t = bench_now_ns() - t0;
	cmp_result_free(&r);
	return t;
}

int main(void)
{
	struct judge_config cfg;
	err_t err;
	if (cfg_init(&cfg, NULL, err) < 0) {
		fprintf(stderr, "bench: %s\n", err->msg);
		return 1;
	}
	char source[PATH_MAX], header[PATH_MAX], shared[PATH_MAX], runtime[PATH_MAX];
	char cache[] = "/tmp/bench-compile-XXXXXX";
	if (!paths_shipped_player(cfg.data_dir, "dominator", "Demo", source) || !mkdtemp(cache)) {
		fprintf(stderr, "bench: no Demo player or no temporary directory\n");
		return 1;
	}
	paths_game_header(cfg.data_dir, "dominator", header);
	paths_shared_header(cfg.data_dir, shared);
	paths_in(runtime, cfg.data_dir, "build/kits/libdominator.a");
	snprintf(cfg.compile.cache_dir, sizeof cfg.compile.cache_dir, "%s", cache);
	uid_t uid = geteuid() == 0 ? cfg.sandbox.uid_base + cfg.sandbox.uid_count : 0;
	struct cmp_request req = { .source = source, .header = header, .shared_header = shared,
				   .runtime = runtime, .uid = uid, .gid = uid };
	/* The unconfined mode warns on every compile: not what is measured. */
	FILE *quiet = freopen("/dev/null", "w", stderr);
	uint64_t conf[ROUNDS], unconf[ROUNDS];
	for (int i = 0; i < ROUNDS; i++) {
		cfg.compile.unconfined = false;
		conf[i] = compile_once(&cfg.compile, &req);
		cfg.compile.unconfined = true;
		unconf[i] = compile_once(&cfg.compile, &req);
	}
	nftw(cache, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	uint64_t mc = bench_median(conf, ROUNDS), mu = bench_median(unconf, ROUNDS);
	printf("compile of the Dominator Demo, empty cache (median of %d)%s:\n", ROUNDS,
	       quiet ? "" : " [stderr not silenced]");
	printf("  confined            %8.1f ms\n", mc / 1e6);
	printf("  unconfined          %8.1f ms\n", mu / 1e6);
	printf("  ratio               %8.3f   (goal <= 1.2)\n", (double)mc / mu);
	return 0;
}
