/* cmd_sandbox.c - `judge sandbox run`: run any static binary under the
 * player sandbox, with this command's stdin and stdout as its protocol
 * pipes, and print one JSON line saying how it ended. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/base/config.h"
#include "sandbox/sandbox.h"

static const char summary[] =
"Runs BINARY (static, x86-64) exactly as the judge runs a player: seccomp\n"
"allow-list, CPU budget, memory limit, wall-clock guard, captured stderr.\n"
"Its stdin and stdout are pipes fed from and copied to this command's own;\n"
"its stderr (capped) is copied to this command's stderr when it ends.  Then\n"
"one JSON line on stdout says how it ended: verdict, detail (the forbidden\n"
"call, the signal), message, exit_status, signal, cpu_ns, peak_memory,\n"
"wall_ns, stderr_bytes, stderr_dropped.\n"
"\n"
"The limits' defaults are the config file's.";

static const char *const sandbox_forms[] = {
	"judge sandbox run [OPTIONS] BINARY [ARGS...]",
	NULL,
};

struct run_opts {
	struct sbx_limits lim;
	uint64_t output_bytes;
	uid_t uid;            /* 0: claim one of the configured player uids */
	uid_t uid_base;
	unsigned uid_count;
	char **argv;
};

/* The limits given on the command line, in their units; -1: the config's. */
struct given_limits {
	int64_t cpu_ms, wall_ms, memory_mb, stderr_kb, output_kb, uid;
	const char *config;
};

/* The value given, times unit, or the config's. */
static uint64_t given_or(int64_t value, uint64_t unit, uint64_t config)
{
	return value >= 0 ? (uint64_t)value * unit : config;
}

static int apply_limits(const struct given_limits *g, struct run_opts *o)
{
	struct judge_config cfg;
	err_t err;
	if (cfg_init(&cfg, g->config, err) < 0) {
		fprintf(stderr, "judge sandbox: %s\n", err->msg);
		return -1;
	}
	o->lim = (struct sbx_limits){
		.cpu_ns = given_or(g->cpu_ms, 1000000, cfg.sandbox.cpu_ns),
		.wall_ns = given_or(g->wall_ms, 1000000, cfg.sandbox.wall_ns),
		.memory_bytes = given_or(g->memory_mb, 1 << 20, cfg.sandbox.memory_bytes),
		.stderr_bytes = given_or(g->stderr_kb, 1024, cfg.sandbox.stderr_bytes),
		.open_files = cfg.sandbox.open_files,
	};
	o->output_bytes = given_or(g->output_kb, 1024, 0);
	o->uid = (uid_t)given_or(g->uid, 1, 0);
	o->uid_base = cfg.sandbox.uid_base;
	o->uid_count = cfg.sandbox.uid_count;
	return 0;
}

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct run_opts *o, int *status)
{
	struct given_limits g = { -1, -1, -1, -1, -1, -1, NULL };
	const struct opt opts[] = {
		OPT_NUM("cpu", 0, "MS", &g.cpu_ms, 0, UINT64_MAX / 1000000, "a number of "
			"milliseconds", "CPU budget, user + system"),
		OPT_NUM("wall", 0, "MS", &g.wall_ms, 0, UINT64_MAX / 1000000, "a number of "
			"milliseconds", "wall-clock guard"),
		OPT_NUM("memory", 0, "MB", &g.memory_mb, 0, UINT64_MAX >> 20, "a number of MiB",
			"memory (address space) limit"),
		OPT_NUM("stderr", 0, "KB", &g.stderr_kb, 0, UINT64_MAX >> 10, "a number of KiB",
			"stderr kept"),
		OPT_NUM("output", 0, "KB", &g.output_kb, 0, UINT64_MAX >> 10, "a number of KiB",
			"stdout allowed before the output-limit verdict (0: none)"),
		OPT_NUM("uid", 0, "N", &g.uid, 0, 0x7fffffff, "a uid",
			"run as uid/gid N when root (default: a free player uid)"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge sandbox", .args = "run BINARY [ARGS...]", .min_args = 2,
		.config = &g.config,
		.max_args = -1, .options_before = 2, .forms = sandbox_forms, .opts = opts,
		.summary = summary,
		.exits = "0 if the program exited with status 0, 1 for any other end, 2 for bad "
			 "usage or a failure of the judge itself.",
	};
	if (opt_parse(&cmd, argc, argv, status) < 0)
		return -1;
	if (strcmp(argv[1], "run") != 0) {
		*status = opt_bad(&cmd, "say run BINARY");
		return -1;
	}
	*status = 2;
	o->argv = argv + 2;
	return apply_limits(&g, o);
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
	err_t err;
	struct sbx_policy *pol = sbx_policy_new(SBX_PLAYER, &o->lim, err);
	if (!pol) {
		fprintf(stderr, "judge sandbox: %s\n", err->msg);
		return 2;
	}
	struct sbx_uid claim = { o->uid, -1 };
	if (geteuid() == 0 && !o->uid &&
	    sbx_uid_claim(o->uid_base, o->uid_count, &claim, err) < 0) {
		fprintf(stderr, "judge sandbox: %s\n", err->msg);
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
		fprintf(stderr, "judge sandbox: %s\n", err->msg);
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
	struct run_opts o = { 0 };
	int status;
	if (parse_args(argc, argv, &o, &status) < 0)
		return status;
	return run(&o);
}
