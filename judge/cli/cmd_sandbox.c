/* cmd_sandbox.c - `judge sandbox run`: run any static binary under the
 * player sandbox, with this command's stdin and stdout as its protocol
 * pipes, and print one JSON line saying how it ended. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/cli/commands.h"
#include "judge/base/config.h"
#include "sandbox/sandbox.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: judge sandbox run [OPTIONS] BINARY [ARGS...]\n"
"\n"
"Runs BINARY (static, x86-64) exactly as the judge runs a player: seccomp\n"
"allow-list, CPU budget, memory limit, wall-clock guard, captured stderr.\n"
"Its stdin and stdout are pipes fed from and copied to this command's own;\n"
"its stderr (capped) is copied to this command's stderr when it ends.  Then\n"
"one JSON line on stdout says how it ended: verdict, detail (the forbidden\n"
"call, the signal), message, exit_status, signal, cpu_ns, peak_memory,\n"
"wall_ns, stderr_bytes, stderr_dropped.\n"
"\n"
"options (defaults from the config file):\n"
"  --cpu MS         CPU budget, user + system\n"
"  --wall MS        wall-clock guard\n"
"  --memory MB      memory (address space) limit\n"
"  --stderr KB      stderr kept\n"
"  --output KB      stdout allowed before the output-limit verdict (0: none)\n"
"  --uid N          run as uid/gid N when root (default: a free player uid)\n"
"  --config FILE    settings (without it: $JUDGE_CONFIG, else config/judge.json\n"
"                   in the data directory; `judge config` shows which)\n"
"\n"
"exit status: 0 if the program exited with status 0, 1 for any other end,\n"
"2 for bad usage or a failure of the judge itself.\n");
}

struct run_opts {
	struct sbx_limits lim;
	uint64_t output_bytes;
	uid_t uid;            /* 0: claim one of the configured player uids */
	uid_t uid_base;
	unsigned uid_count;
	char **argv;
};

static int parse_u64(const char *s, uint64_t unit, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > UINT64_MAX / unit)
		return -1;
	*out = v * unit;
	return 0;
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{ "cpu", 1, 0, 'c' }, { "wall", 1, 0, 'w' }, { "memory", 1, 0, 'm' },
		{ "stderr", 1, 0, 'e' }, { "output", 1, 0, 'o' }, { "uid", 1, 0, 'u' },
		{ "config", 1, 0, 'C' }, { "help", 0, 0, 'h' }, { 0 },
	};
	struct judge_config cfg;
	char err[CFG_ERRLEN];
	const char *config = NULL;
	for (int i = 1; i + 1 < argc && argv[i][0] == '-'; i++)
		if (strcmp(argv[i], "--config") == 0)
			config = argv[i + 1];
	if (cfg_init(&cfg, config, err) < 0) {
		fprintf(stderr, "judge sandbox: %s\n", err);
		return -1;
	}
	o->lim = (struct sbx_limits){
		.cpu_ns = cfg.sandbox.cpu_ns, .wall_ns = cfg.sandbox.wall_ns,
		.memory_bytes = cfg.sandbox.memory_bytes,
		.stderr_bytes = cfg.sandbox.stderr_bytes, .open_files = cfg.sandbox.open_files,
	};
	o->uid_base = cfg.sandbox.uid_base;
	o->uid_count = cfg.sandbox.uid_count;
	uint64_t uid = 0;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		int bad = 0;
		switch (c) {
		case 'c': bad = parse_u64(optarg, 1000000, &o->lim.cpu_ns); break;
		case 'w': bad = parse_u64(optarg, 1000000, &o->lim.wall_ns); break;
		case 'm': bad = parse_u64(optarg, 1 << 20, &o->lim.memory_bytes); break;
		case 'e': bad = parse_u64(optarg, 1024, &o->lim.stderr_bytes); break;
		case 'o': bad = parse_u64(optarg, 1024, &o->output_bytes); break;
		case 'u': bad = parse_u64(optarg, 1, &uid) || uid > 0x7fffffff; o->uid = uid; break;
		case 'C': break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
		if (bad) {
			const struct option *lo = longopts;
			while (lo->val != c)
				lo++;
			fprintf(stderr, "judge sandbox: invalid value '%s' for --%s\n", optarg,
				lo->name);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "judge sandbox run: which binary? (see --help)\n");
		return -1;
	}
	o->argv = argv + optind;
	return 0;
}

/* Copies our stdin to the player and its stdout to ours until it ends. */
struct pump {
	int in_src, in_dst;   /* our stdin -> player's stdin */
	int out_src;          /* player's stdout -> our stdout */
	char buf[65536];
	size_t len, off;
	uint64_t out_total, out_limit;
	char last; /* the last byte copied to our stdout */
};

static void pump_input(struct pump *pm)
{
	if (pm->len == pm->off) {
		ssize_t n = read(pm->in_src, pm->buf, sizeof pm->buf);
		if (n <= 0 && !(n < 0 && errno == EINTR)) {
			close(pm->in_dst);
			pm->in_dst = pm->in_src = -1;
			return;
		}
		pm->len = n > 0 ? n : 0;
		pm->off = 0;
	}
	ssize_t w = write(pm->in_dst, pm->buf + pm->off, pm->len - pm->off);
	if (w > 0)
		pm->off += w;
	else if (w < 0 && errno != EAGAIN && errno != EINTR) {
		/* The player closed its stdin: what is left goes nowhere. */
		close(pm->in_dst);
		pm->in_dst = pm->in_src = -1;
	}
}

static void pump_output(struct pump *pm, struct sbx_proc *p)
{
	char buf[65536];
	ssize_t n = read(pm->out_src, buf, sizeof buf);
	if (n <= 0) {
		if (n == 0 || errno != EINTR) {
			close(pm->out_src);
			pm->out_src = -1;
		}
		return;
	}
	uint64_t before = pm->out_total;
	pm->out_total += n;
	if (pm->out_limit && pm->out_total > pm->out_limit) {
		char msg[128];
		snprintf(msg, sizeof msg, "output limit exceeded: wrote more than %llu bytes",
			 (unsigned long long)pm->out_limit);
		sbx_stop(p, SBX_OUTPUT, msg);
		/* What is still in the pipe after the stop goes nowhere. */
		n = before < pm->out_limit ? (ssize_t)(pm->out_limit - before) : 0;
	}
	if (n > 0)
		pm->last = buf[n - 1];
	fwrite(buf, 1, n, stdout);
	fflush(stdout);
}

static void pump_until_end(struct pump *pm, struct sbx_proc *p)
{
	while (sbx_running(p) || pm->out_src >= 0) {
		struct pollfd fds[2 + SBX_POLLFDS];
		int n = 0, in = -1, out = -1;
		bool want_in = pm->in_dst >= 0;
		if (want_in) {
			in = n;
			fds[n++] = pm->len == pm->off ? (struct pollfd){ pm->in_src, POLLIN, 0 }
						       : (struct pollfd){ pm->in_dst, POLLOUT, 0 };
		}
		if (pm->out_src >= 0) {
			out = n;
			fds[n++] = (struct pollfd){ pm->out_src, POLLIN, 0 };
		}
		n += sbx_pollfds(p, fds + n);
		int64_t t = sbx_timeout_ns(p);
		struct timespec ts = { t / 1000000000, t % 1000000000 };
		if (ppoll(fds, n, t < 0 ? NULL : &ts, NULL) < 0 && errno != EINTR)
			break;
		if (in >= 0 && fds[in].revents)
			pump_input(pm);
		if (out >= 0 && fds[out].revents)
			pump_output(pm, p);
		sbx_service(p);
	}
}

/* The report goes on a line of its own, even after output that did not
 * end its last line. */
static void print_report(const struct sbx_result *r, char last_out)
{
	if (r->log_len)
		fwrite(r->log, 1, r->log_len, stderr);
	json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:i, s:I, s:I, s:I, s:I, s:I}",
			      "verdict", sbx_verdict_name(r->verdict), "detail", r->detail,
			      "message", r->message, "exit_status", r->exit_status,
			      "signal", r->signal, "cpu_ns", (json_int_t)r->cpu_ns,
			      "peak_memory", (json_int_t)r->peak_memory,
			      "wall_ns", (json_int_t)r->wall_ns,
			      "stderr_bytes", (json_int_t)(r->log_len + r->log_dropped),
			      "stderr_dropped", (json_int_t)r->log_dropped);
	char *s = json_dumps(j, JSON_COMPACT);
	printf("%s%s\n", last_out && last_out != '\n' ? "\n" : "", s);
	fflush(stdout);
	free(s);
	json_decref(j);
}

static int run(struct run_opts *o)
{
	char err[SBX_ERRLEN];
	struct sbx_policy *pol = sbx_policy_new(SBX_PLAYER, &o->lim, err);
	if (!pol) {
		fprintf(stderr, "judge sandbox: %s\n", err);
		return 2;
	}
	struct sbx_uid claim = { o->uid, -1 };
	if (geteuid() == 0 && !o->uid &&
	    sbx_uid_claim(o->uid_base, o->uid_count, &claim, err) < 0) {
		fprintf(stderr, "judge sandbox: %s\n", err);
		return 2;
	}
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		perror("judge sandbox: pipe");
		return 2;
	}
	struct sbx_spec spec = {
		.path = o->argv[0], .argv = (const char *const *)o->argv,
		.stdin_fd = in[0], .stdout_fd = out[1], .uid = claim.uid, .gid = claim.uid,
	};
	struct sbx_proc *p = sbx_start(pol, &spec, err);
	close(in[0]);
	close(out[1]);
	if (!p) {
		fprintf(stderr, "judge sandbox: %s\n", err);
		return 2;
	}
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	struct pump *pm = calloc(1, sizeof *pm);
	*pm = (struct pump){ .in_src = 0, .in_dst = in[1], .out_src = out[0],
			     .out_limit = o->output_bytes };
	pump_until_end(pm, p);
	const struct sbx_result *r = sbx_finish(p);
	print_report(r, pm->last);
	int rc = r->verdict == SBX_EXITED && r->exit_status == 0 ? 0 : 1;
	if (pm->in_dst >= 0)
		close(pm->in_dst);
	if (pm->out_src >= 0)
		close(pm->out_src);
	free(pm);
	sbx_free(p);
	sbx_uid_release(&claim);
	sbx_policy_free(pol);
	return rc;
}

int cmd_sandbox(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "run") != 0) {
		usage(stderr);
		return 2;
	}
	struct run_opts o = { 0 };
	if (parse_args(argc - 1, argv + 1, &o) < 0)
		return 2;
	return run(&o);
}
