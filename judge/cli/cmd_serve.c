/* judge serve: the HTTP API and pages over the judge's store, until
 * SIGINT or SIGTERM. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/base/config_running.h"
#include "judge/cli/commands.h"
#include "judge/base/log.h"
#include "judge/cli/in_force.h"
#include "judge/cli/options.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"

static const char summary[] =
"Answers the judge's HTTP API and pages (leaderboards, players, matches with\n"
"their replays, contestants' submissions and uploads, organisers' pages) over\n"
"the same store the workers use, until SIGINT or SIGTERM.  Requests carry a\n"
"token (`judge token add`) as Authorization: Bearer TOKEN.  Speaks plain HTTP:\n"
"put a reverse proxy in front for TLS (see the README, \"The service\").\n"
"Limits (body and header sizes, connections, requests per minute, timeouts)\n"
"and whether the leaderboards are public are the config's \"serve\" section.";

struct serve_args {
	const char *queue, *listen, *config, *access_log;
	struct judge_config cfg;
};

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct serve_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_STR("listen", 0, "HOST:PORT", &a->listen, "where to listen (default "
			"127.0.0.1:8080; port 0: any free port, printed at start)"),
		OPT_STR("access-log", 0, "FILE", &a->access_log, "a line per request (time, "
			"client, method, path, status, bytes, milliseconds, token's author) "
			"appended to FILE; - for standard output.  Bytes a client chose are "
			"written as \\xNN.  Default: no access log"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge serve", .opts = opts, .summary = summary,
		.queue = &a->queue, .config = &a->config, .settings = &a->cfg,
		.exits = "0 stopped by a signal, 2 bad usage or it could not start.",
	};
	*a = (struct serve_args){ .listen = "127.0.0.1:8080" };
	return opt_parse(&cmd, argc, argv, status) < 0 ? -1 : 0;
}

/* NULL: no log; "-": standard output; else the file, appended to. */
static int open_access_log(const char *path, FILE **out)
{
	*out = NULL;
	if (!path)
		return 0;
	*out = strcmp(path, "-") == 0 ? stdout : fopen(path, "ae");
	if (!*out) {
		fprintf(stderr, "judge serve: cannot open the access log %s: %s; give a file this "
			"user may write, or - for standard output\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Says the settings in force and records them for `judge config`: before
 * the service says it listens, so that whoever waits for that line finds
 * both done. */
static void say_settings(struct in_force *f)
{
	char line[2048];
	in_force_said(f, line, sizeof line);
	log_line(stderr, "judge serve", "%s", line);
	if (in_force_publish(f, line, sizeof line) < 0)
		log_line(stderr, "judge serve", "%s", line);
}

/* Waits for SIGINT or SIGTERM.  The service's threads read its settings
 * with every request, so none changes under them: on SIGHUP the file is
 * read again and what changed is named, to be applied by a restart. */
static void wait_for_stop(struct in_force *f, const sigset_t *signals)
{
	char line[2048];
	struct judge_config running = *f->cfg;
	struct in_force file = *f;
	file.cfg = &running;
	for (int sig = SIGHUP; sig == SIGHUP;) {
		sigwait(signals, &sig);
		if (sig != SIGHUP)
			break;
		int changed = in_force_reload(&file, line, sizeof line);
		const char *what = strchr(line, ':') ? strchr(line, ':') + 2 : line;
		if (changed > 0)
			log_line(stderr, "judge serve", "the settings file now says %s; the service "
				 "reads its settings at start only: restart it (systemctl restart "
				 "judge-serve) to apply them", what);
		else
			log_line(stderr, "judge serve", "%s", changed == 0 ? "the settings file says "
				 "what runs" : line);
		running = *f->cfg; /* what runs stays what it started with */
	}
	log_line(stderr, "judge serve", "stopping");
}

int cmd_serve(int argc, char **argv)
{
	struct serve_args a;
	int status;
	if (parse_args(argc, argv, &a, &status) < 0)
		return status;
	char host[64];
	err_t err;
	struct serve_options o = { .queue = a.queue, .host = host };
	if (serve_parse_listen(a.listen, host, sizeof host, &o.port, err) < 0)
		return opt_fail("judge serve", 2, err->msg);
	if (open_access_log(a.access_log, &o.access_log) < 0)
		return 2;
	o.limits = a.cfg.serve;
	o.contest = a.cfg.contest;
	o.data_dir = a.cfg.data_dir;
	o.settings = &a.cfg;
	/* Blocked before the server's threads start, so they inherit it and
	 * only sigwait() below takes these signals. */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	struct serve *sv = serve_start(&o, err);
	if (!sv)
		return opt_fail("judge serve", 2, err->msg);
	struct in_force f = { .cfg = &a.cfg, .path = a.config, .program = "judge-serve" };
	cfgrun_dir(a.queue, f.dir);
	say_settings(&f);
	printf("judge serve: listening on http://%s:%u/ (queue %s)\n", host, serve_port(sv),
	       a.queue);
	fflush(stdout);
	wait_for_stop(&f, &stop);
	cfgrun_withdraw(f.dir, f.program);
	serve_stop(sv);
	if (o.access_log && o.access_log != stdout)
		fclose(o.access_log);
	return 0;
}
