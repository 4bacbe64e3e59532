/* command.c - what one `judge play` costs beyond its match, for every game,
 * every player already compiled: the CPU (user + system, the judge's and
 * every process it waited for) of (w) the whole command `judge play GAME
 * Demo...` and of (m) the same match played by match_play in a new
 * process (this program again), with the same binaries, parameters and
 * seed, its replay built and freed as the command does, the two in turns.
 * (w) - (m), run by run, is the command's fixed cost: starting the judge,
 * reading its configuration, finding the players in the compile cache.
 * It is taken from the same pair on a match of SHORT_ROUNDS rounds (the
 * game's parameters file with only its rounds changed): the fixed cost
 * does not depend on the match's length, but the noise of a long match
 * does, and on a loaded VM a 110 ms match varies by more than the 5 ms
 * sought.  (s) is the floor it cannot go below: `judge play --help`, a
 * start of the same binary that does nothing.  Goal: the fixed cost <= 8
 * ms for each game; the middle half of its runs says how far to trust the
 * median.
 *
 * The judge is $JUDGE_BIN, else build/judge.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/bench_match.h"
#include "games/game.h"
#include "games/params_text.h"
#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/play/match.h"
#include "judge/play/players.h"

#define RUNS ((int)bench_size(11, 1))
#define SHORT_RUNS ((int)bench_size(41, 1))
#define RUNS_MAX 64
#define SHORT_ROUNDS 10
#define SEED "3"
#define PARAMS_MAX (1 << 20)

static struct judge_config cfg;

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench: %s: %s\n", what, why);
	exit(1);
}

static uint64_t cpu_ns(const struct rusage *u)
{
	return ((uint64_t)u->ru_utime.tv_sec + (uint64_t)u->ru_stime.tv_sec) * 1000000000u +
	       ((uint64_t)u->ru_utime.tv_usec + (uint64_t)u->ru_stime.tv_usec) * 1000u;
}

/* The CPU of a child of this process (and of its own children). */
static uint64_t child_cpu(pid_t pid, const char *what)
{
	int status;
	struct rusage u;
	if (wait4(pid, &status, 0, &u) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die(what, "failed (run it by hand to see why)");
	return cpu_ns(&u);
}

/* The CPU of argv run to its end, its output dropped; it must exit 0. */
static uint64_t command_cpu(char *const argv[])
{
	pid_t pid = fork();
	if (pid < 0)
		die("fork", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	return child_cpu(pid, argv[0]);
}

/* The text of the parameters file at path, NULL when there is none. */
static char *read_params(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *text = calloc(1, PARAMS_MAX + 1);
	if (!text || fread(text, 1, PARAMS_MAX, f) == PARAMS_MAX)
		die(path, "too large");
	fclose(f);
	return text;
}

/* The parameters file given (the game's, perhaps missing) with its rounds
 * line set to SHORT_ROUNDS, written to path: its lines as the engines cut
 * them (games/params_text.h), comments dropped. */
static void write_short_params(const char *given, const char *path)
{
	char *text = read_params(given);
	FILE *f = fopen(path, "we");
	if (!f)
		die(path, strerror(errno));
	fprintf(f, "rounds %d\n", SHORT_ROUNDS);
	const char *rest = text ? text : "";
	for (struct pt_line l = { 0 }; pt_next_line(&rest, &l);) {
		bool rounds = l.len > 6 && memcmp(l.s, "rounds", 6) == 0 &&
			      (l.s[6] == ' ' || l.s[6] == '\t');
		if (!rounds)
			fprintf(f, "%.*s\n", (int)l.len, l.s);
	}
	if (fclose(f) != 0)
		die(path, "cannot write it");
	free(text);
}

static int players_of(const struct game *gm)
{
	return game_players_ok(gm, 4) ? 4 : game_min_players(gm);
}

/* This process's CPU and that of every child it has waited for. */
static uint64_t cpu_so_far(void)
{
	struct rusage self, children;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	return cpu_ns(&self) + cpu_ns(&children);
}

/* `bench-command --match GAME PARAMS`: prints the CPU of the match alone,
 * played as judge play sets it up, its replay built and freed, in a
 * process as new as the command's (a forked copy of this one would find
 * its memory laid out by earlier matches). */
static int match_only(const char *game, const char *params_file)
{
	const struct game *gm = game_find(game);
	char demo[PATH_MAX], *params = read_params(params_file);
	struct match_result r;
	bench_compile_shipped(&cfg, game, "Demo", demo);
	uint64_t before = cpu_so_far();
	bench_match(&cfg, gm, params, strtoull(SEED, NULL, 10), players_of(gm), demo, "Demo", &r);
	match_result_free(&r);
	printf("%llu\n", (unsigned long long)(cpu_so_far() - before));
	free(params);
	return 0;
}

/* (m), from `bench-command --match GAME PARAMS`. */
static uint64_t match_cpu(const struct game *gm, const char *params)
{
	char cmd[64 + PATH_MAX];
	snprintf(cmd, sizeof cmd, "/proc/%d/exe --match %s %s", (int)getpid(), gm->name, params);
	FILE *p = popen(cmd, "r");
	unsigned long long ns = 0;
	if (!p || fscanf(p, "%llu", &ns) != 1 || pclose(p) != 0)
		die(cmd, "the match alone failed (run it by hand to see why)");
	return ns;
}

/* (w) and (m) of the match that params sets, runs times each, in turns
 * (a change of the machine's load falls on both); fixed[] gets (w) - (m),
 * run by run, sorted. */
static void pairs(const struct game *gm, char **play, const char *params, int runs, uint64_t *w,
		  uint64_t *m, int64_t *fixed)
{
	for (int i = 0; i < runs; i++) {
		m[i] = i % 2 ? match_cpu(gm, params) : 0;
		w[i] = command_cpu(play);
		m[i] = i % 2 ? m[i] : match_cpu(gm, params);
		fixed[i] = (int64_t)w[i] - (int64_t)m[i];
	}
	bench_sort_i64(fixed, runs);
}

static void compare(const char *judge, const struct game *gm)
{
	int n = players_of(gm);
	char given[PATH_MAX], short_params[PATH_MAX];
	paths_game_params(cfg.data_dir, gm->name, given);
	snprintf(short_params, sizeof short_params, "build/bench-command-%s.cnf", gm->name);
	write_short_params(given, short_params);
	char *play[8 + GAME_MAX_PLAYERS] = { (char *)judge, "play", (char *)gm->name };
	for (int i = 0; i < n; i++)
		play[3 + i] = "Demo";
	play[3 + n] = "--seed";
	play[4 + n] = SEED;
	play[5 + n] = "--params";
	play[6 + n] = given;
	if (access(given, R_OK) != 0)
		play[5 + n] = NULL; /* none: the game's defaults */
	char *start[] = { (char *)judge, "play", "--help", NULL };
	uint64_t w[RUNS_MAX], m[RUNS_MAX], s[RUNS_MAX], sw[RUNS_MAX], sm[RUNS_MAX];
	int64_t fixed[RUNS_MAX], short_fixed[RUNS_MAX];
	command_cpu(play); /* every player compiled and cached */
	pairs(gm, play, given, RUNS, w, m, fixed);
	play[5 + n] = "--params";
	play[6 + n] = short_params;
	pairs(gm, play, short_params, SHORT_RUNS, sw, sm, short_fixed);
	for (int i = 0; i < SHORT_RUNS; i++)
		s[i] = command_cpu(start);
	int k = SHORT_RUNS;
	printf("%s, %d Demos, players cached (CPU, medians of %d runs):\n", gm->title, n, RUNS);
	printf("  (w) judge play          %8.1f ms\n", bench_median(w, RUNS) / 1e6);
	printf("  (m) the match alone     %8.1f ms   ((w) - (m) %.1f ms)\n",
	       bench_median(m, RUNS) / 1e6, fixed[RUNS / 2] / 1e6);
	printf("  fixed cost              %8.1f ms   (goal <= 8: (w) - (m) of a %d-round match, %d "
	       "runs; their middle half %.1f to %.1f)\n", short_fixed[k / 2] / 1e6, SHORT_ROUNDS, k,
	       short_fixed[k / 4] / 1e6, short_fixed[k - 1 - k / 4] / 1e6);
	printf("  (s) judge play --help   %8.1f ms   (starting the judge at all)\n",
	       bench_median(s, k) / 1e6);
	fflush(stdout);
}

/* On one CPU, as judge play pins its match: both sides run alike. */
static void pin_to_one_cpu(void)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof one, &one) < 0)
		die("sched_setaffinity", strerror(errno));
}

int main(int argc, char **argv)
{
	err_t err;
	const char *judge = getenv("JUDGE_BIN") ? getenv("JUDGE_BIN") : "build/judge";
	signal(SIGPIPE, SIG_IGN);
	pin_to_one_cpu();
	if (cfg_init(&cfg, NULL, err) < 0)
		die("config", err->msg);
	if (argc == 4 && strcmp(argv[1], "--match") == 0)
		return match_only(argv[2], argv[3]);
	for (const struct game *const *g = game_list(); *g; g++)
		compare(judge, *g);
	return 0;
}
