/* serve.c - `judge serve` under load: 64 clients at once, each on its own
 * keep-alive connection, ask for a leaderboard's JSON and a match's replay
 * (in turns) while a worker judges ranked matches on the same store; then
 * the same server, same clients, answering a constant response
 * (/api/ping); then the real load again with 300 more connections open
 * from three other addresses, each sending a header line every 2 s (a
 * slow-headers attack: the service must neither refuse the clients nor
 * slow down for them).  Prints requests per second and the 99th
 * percentile latency of each, and the ratios of the real loads' rates to
 * the constant one's (goal >= 0.5 for both).  Both measured side by side in one run, in turns (the
 * medians of 5 rounds each, after a warm-up round), so the machine's other
 * load weighs on both.  The clients accept gzip, as browsers do, so a
 * replay comes as the store keeps it; replays and, for a second, the
 * leaderboard are answered from the server's memory (judge/serve/cache.h):
 * that is part of what is measured.  Speed is reported, never failed: the exit
 * status is non-zero only when something cannot be set up or a request
 * fails. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "judge/base/config.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"

#define CLIENTS 64
#define REQUESTS_MAX 200 /* per client and phase */
#define REQUESTS ((int)bench_size(REQUESTS_MAX, 20))
#define ROUNDS ((int)bench_size(5, 1)) /* phases of each kind, in turns; the medians are reported */
#define GOAL 0.5
#define TRICKLERS 300 /* slow connections, from 127.0.0.2 to .4 */
#define TRICKLE_MS 2000

extern char **environ;

static uint16_t port;

struct client {
	const char *paths[2];    /* asked in turns */
	uint64_t lat[REQUESTS_MAX]; /* ns */
	int failed;
};

/* ---- a keep-alive HTTP client ---------------------------------------------- */

static int connect_server(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0 ? fd : -1;
}

/* One request, its whole response read (Content-Length): the status. */
static int ask(int fd, const char *path, char **buf, size_t *cap)
{
	char req[256];
	/* As a browser asks: a replay then comes as the store keeps it, gzip. */
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: bench\r\n"
			 "Accept-Encoding: gzip, deflate\r\n\r\n", path);
	if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n)
		return -1;
	size_t len = 0, need = 0;
	for (;;) {
		if (len + 65536 > *cap) {
			*cap = (*cap + 65536) * 2;
			*buf = realloc(*buf, *cap);
		}
		ssize_t r = recv(fd, *buf + len, *cap - len - 1, 0);
		if (r <= 0)
			return -1;
		len += (size_t)r;
		(*buf)[len] = 0;
		char *end = strstr(*buf, "\r\n\r\n");
		if (end && !need) {
			char *cl = strcasestr(*buf, "Content-Length:");
			if (!cl || cl > end)
				return -1;
			need = (size_t)(end + 4 - *buf) + strtoull(cl + 15, NULL, 10);
		}
		if (need && len >= need)
			break;
	}
	int status = 0;
	sscanf(*buf, "HTTP/1.1 %d", &status);
	return status;
}

static void *client_run(void *arg)
{
	struct client *c = arg;
	char *buf = NULL;
	size_t cap = 0;
	int fd = connect_server();
	for (int i = 0; i < REQUESTS && !c->failed; i++) {
		uint64_t t0 = bench_now_ns();
		if (fd < 0 || ask(fd, c->paths[i % 2], &buf, &cap) != 200)
			c->failed = 1;
		c->lat[i] = bench_now_ns() - t0;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

struct figures {
	double per_s, p99_ms;
};

static int phase(const char *a, const char *b, struct figures *f)
{
	static struct client cl[CLIENTS];
	pthread_t t[CLIENTS];
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < CLIENTS; i++) {
		cl[i] = (struct client){ .paths = { a, b } };
		pthread_create(&t[i], NULL, client_run, &cl[i]);
	}
	int failed = 0;
	for (int i = 0; i < CLIENTS; i++) {
		pthread_join(t[i], NULL);
		failed |= cl[i].failed;
	}
	double secs = (double)(bench_now_ns() - t0) / 1e9;
	static uint64_t all[CLIENTS * REQUESTS_MAX];
	for (int i = 0; i < CLIENTS; i++)
		memcpy(all + (size_t)i * REQUESTS, cl[i].lat, REQUESTS * sizeof *all);
	qsort(all, CLIENTS * REQUESTS, sizeof *all, bench_cmp_u64);
	f->per_s = CLIENTS * REQUESTS / secs;
	f->p99_ms = (double)all[CLIENTS * REQUESTS * 99 / 100] / 1e6;
	if (failed)
		fprintf(stderr, "bench serve: a request to %s or %s failed\n", a, b);
	return failed ? -1 : 0;
}

/* ---- slow connections -------------------------------------------------------- */

struct tricklers {
	pthread_t thread;
	volatile int stop;
	int fd[TRICKLERS];
	int open; /* how many are open now (the server may have cut or refused some) */
};

/* A connection from 127.0.0.(2 + i % 3) that has sent a request line. */
static int trickler_connect(int i)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	me.sin_addr.s_addr = htonl(INADDR_LOOPBACK + 2 + (uint32_t)(i % 3));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof me) < 0 ||
	    connect(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    send(fd, "GET /api/ping HTTP/1.1\r\nHost: bench\r\n", 37, MSG_NOSIGNAL) != 37) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Keeps the connections open, each sending a line every TRICKLE_MS, and
 * opens again any the server closed (cut at its deadline, or refused). */
static void *trickle(void *arg)
{
	struct tricklers *t = arg;
	while (!t->stop) {
		int open = 0;
		for (int i = 0; i < TRICKLERS; i++) {
			struct pollfd p = { .fd = t->fd[i], .events = POLLIN };
			if (t->fd[i] >= 0 && poll(&p, 1, 0) != 0) {
				close(t->fd[i]); /* answered or closed: the server is done with it */
				t->fd[i] = -1;
			}
			if (t->fd[i] < 0)
				t->fd[i] = trickler_connect(i);
			else
				send(t->fd[i], "X-Slow: 1\r\n", 11, MSG_NOSIGNAL | MSG_DONTWAIT);
			open += t->fd[i] >= 0;
		}
		t->open = open;
		for (int waited = 0; waited < TRICKLE_MS && !t->stop; waited += 50)
			usleep(50 * 1000);
	}
	for (int i = 0; i < TRICKLERS; i++)
		if (t->fd[i] >= 0)
			close(t->fd[i]);
	return NULL;
}

static int tricklers_start(struct tricklers *t)
{
	*t = (struct tricklers){ 0 };
	for (int i = 0; i < TRICKLERS; i++)
		t->fd[i] = -1;
	if (pthread_create(&t->thread, NULL, trickle, t) != 0)
		return -1;
	for (int waited = 0; t->open < TRICKLERS && waited < 5000; waited += 10)
		usleep(10 * 1000);
	return t->open == TRICKLERS ? 0 : -1;
}

static void tricklers_stop(struct tricklers *t)
{
	t->stop = 1;
	pthread_join(t->thread, NULL);
}

/* The real load with the slow connections open. */
static int phase_trickled(const char *a, const char *b, struct figures *f)
{
	struct tricklers t;
	int rc = tricklers_start(&t);
	if (rc < 0)
		fprintf(stderr, "bench serve: only %d of %d slow connections stayed open\n", t.open,
			TRICKLERS);
	rc |= phase(a, b, f);
	tricklers_stop(&t);
	return rc;
}

/* ---- the store and its worker ------------------------------------------------ */

/* Starts argv with its output (the worker's log) thrown away. */
static int spawn_quiet(char *const argv[], pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawn(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc == 0 ? 0 : -1;
}

static int run_wait(char *const argv[])
{
	pid_t pid;
	int st;
	if (spawn_quiet(argv, &pid) < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* The latest match of the tournament with a replay. */
static int64_t latest_match(const char *queue)
{
	err_t err;
	struct store *s = store_open(queue, false, err);
	int64_t id = 0;
	int n = 0;
	if (s && store_recent_matches(s, 1, 1, &id, &n, err) == 0 && n == 1) {
		store_close(s);
		return id;
	}
	fprintf(stderr, "bench serve: no match with a replay: %s\n", s ? err->msg : "no store");
	store_close(s);
	return -1;
}

/* The shipped players uploaded and judged, with a few ranked matches. */
static int tournament(const char *judge, const char *queue)
{
	static const char *const players[] = { "Demo", "Dummy", "Null" };
	char file[256], author[32], worker[300];
	for (int i = 0; i < 3; i++) {
		snprintf(file, sizeof file, "games/dominator/players/AI%s.c", players[i]);
		snprintf(author, sizeof author, "author%d", i);
		char *argv[] = { (char *)judge, "submit", file, "--game", "dominator", "--author",
				 author, "--queue", (char *)queue, NULL };
		if (run_wait(argv) < 0)
			return -1;
	}
	snprintf(worker, sizeof worker, "%s-worker", judge);
	char *argv[] = { worker, "--queue", (char *)queue, "--exit-when-idle", "--ranked-matches",
			 "12", NULL };
	return run_wait(argv);
}

int main(int argc, char **argv)
{
	const char *judge = argc > 1 ? argv[1] : "build/judge";
	char dir[] = "/tmp/bench-serve-XXXXXX", queue[128], cfg[128], worker[300];
	if (!mkdtemp(dir))
		return 1;
	snprintf(queue, sizeof queue, "%s/jobs.sqlite", dir);
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	FILE *f = fopen(cfg, "w");
	/* Qualify against Null, then keep playing ranked matches meanwhile. */
	fprintf(f, "{\"worker\": {\"qualify_matches\": 2, \"qualify_opponent\": \"Null\","
		   " \"min_games\": 100000}}\n");
	fclose(f);
	setenv("JUDGE_CONFIG", cfg, 1);
	signal(SIGPIPE, SIG_IGN);
	if (tournament(judge, queue) < 0) {
		fprintf(stderr, "bench serve: the tournament could not be set up\n");
		return 1;
	}
	struct judge_config jc;
	cfg_defaults(&jc);
	struct serve_options o = { .queue = queue, .host = "127.0.0.1", .limits = jc.serve };
	o.limits.per_minute = 1u << 30;
	/* Room for the clients and the slow connections; the defaults would keep
	 * the slow addresses to the reserve's share, which is what the unit
	 * tests check, not what is measured here. */
	o.limits.connections = CLIENTS * 2 + TRICKLERS + o.limits.reserved;
	o.limits.per_ip = CLIENTS * 2;
	err_t err;
	struct serve *sv = serve_start(&o, err);
	if (!sv) {
		fprintf(stderr, "bench serve: %s\n", err->msg);
		return 1;
	}
	port = serve_port(sv);
	int64_t match = latest_match(queue);
	if (match < 0)
		return 1;
	char replay[64];
	snprintf(replay, sizeof replay, "/api/matches/%lld/replay", (long long)match);
	snprintf(worker, sizeof worker, "%s-worker", judge);
	char *wargv[] = { worker, "--queue", queue, "--jobs", "1", NULL };
	pid_t wpid;
	if (spawn_quiet(wargv, &wpid) < 0) {
		fprintf(stderr, "bench serve: cannot start %s\n", worker);
		return 1;
	}
	struct figures warm, constant, real, slow;
	uint64_t c_rate[ROUNDS], c_p99[ROUNDS], r_rate[ROUNDS], r_p99[ROUNDS];
	uint64_t s_rate[ROUNDS], s_p99[ROUNDS];
	int rc = phase("/api/ping", replay, &warm); /* connections, threads, caches */
	for (int i = 0; i < ROUNDS && rc == 0; i++) {
		rc |= phase("/api/ping", "/api/ping", &constant);
		rc |= phase("/api/leaderboard/dominator", replay, &real);
		rc |= phase_trickled("/api/leaderboard/dominator", replay, &slow);
		s_rate[i] = (uint64_t)slow.per_s;
		s_p99[i] = (uint64_t)(slow.p99_ms * 1000);
		c_rate[i] = (uint64_t)constant.per_s;
		c_p99[i] = (uint64_t)(constant.p99_ms * 1000);
		r_rate[i] = (uint64_t)real.per_s;
		r_p99[i] = (uint64_t)(real.p99_ms * 1000);
	}
	constant = (struct figures){ (double)bench_median(c_rate, ROUNDS),
				     (double)bench_median(c_p99, ROUNDS) / 1000 };
	real = (struct figures){ (double)bench_median(r_rate, ROUNDS),
				 (double)bench_median(r_p99, ROUNDS) / 1000 };
	slow = (struct figures){ (double)bench_median(s_rate, ROUNDS),
				 (double)bench_median(s_p99, ROUNDS) / 1000 };
	kill(wpid, SIGTERM);
	waitpid(wpid, NULL, 0);
	serve_stop(sv);
	char rm[160];
	snprintf(rm, sizeof rm, "rm -rf %s", dir);
	if (system(rm) != 0)
		rc = -1;
	printf("serve: %d clients, a worker judging: leaderboard JSON + replay %.0f requests/s"
	       " (p99 %.1f ms); constant response %.0f requests/s (p99 %.1f ms);"
	       " ratio %.2f (goal >= %.1f)\n", CLIENTS, real.per_s, real.p99_ms, constant.per_s,
	       constant.p99_ms, real.per_s / constant.per_s, GOAL);
	printf("serve: the same with %d slow connections open (3 addresses, a header line every"
	       " %d s): %.0f requests/s (p99 %.1f ms); ratio to the constant response %.2f"
	       " (goal >= %.1f)\n", TRICKLERS, TRICKLE_MS / 1000, slow.per_s, slow.p99_ms,
	       slow.per_s / constant.per_s, GOAL);
	return rc ? 1 : 0;
}
