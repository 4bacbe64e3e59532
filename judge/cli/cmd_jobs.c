/* judge jobs: the queue, running, queued and parked jobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/holder.h"
#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/report.h"
#include "judge/store/store_serve.h"

/* What a job is about, in a few words: "submission 3", "qualifying
 * dominator seed 1001: #1 Dummy Dummy Dummy", "submission.qualified to
 * hooks.example.org". */
static void put_payload(const json_t *job)
{
	const json_t *p = json_object_get(job, "payload");
	const char *kind = report_str(job, "kind");
	if (strcmp(kind, "compile") == 0 && json_is_integer(json_object_get(p, "submission"))) {
		printf("submission %lld", report_num(p, "submission"));
	} else if (strcmp(kind, "match") == 0 && json_is_object(p)) {
		printf("%s ", report_str(p, "kind"));
		board_cell(stdout, report_str(p, "game"), 0);
		printf(" seed %lld:", report_num(p, "seed"));
		size_t i;
		const json_t *seat;
		json_array_foreach(json_object_get(p, "seats"), i, seat) {
			putchar(' ');
			if (json_is_integer(json_object_get(seat, "submission")))
				printf("#%lld", report_num(seat, "submission"));
			else
				board_cell(stdout, report_str(seat, "house"), 0);
		}
	} else if (strcmp(kind, "notify") == 0 && json_is_object(p)) {
		/* Only the host: a webhook's URL often carries its secret. */
		const char *url = report_str(p, "url"), *host = strstr(url, "://");
		host = host ? host + 3 : url;
		char shown[256];
		snprintf(shown, sizeof shown, "%.*s", (int)strcspn(host, "/?#"), host);
		board_cell(stdout, report_str(json_object_get(p, "body"), "event"), 0);
		fputs(" to ", stdout);
		board_cell(stdout, shown, 0);
	} else {
		char *text = json_dumps(p, JSON_COMPACT | JSON_ENCODE_ANY);
		board_cell(stdout, text ? text : "?", 0);
		free(text);
	}
}

/* The state's particulars: a running job's worker and lease, a queued
 * job's wait for its retry. */
static void put_job_state(const json_t *job)
{
	const json_t *lease = json_object_get(job, "lease_left_ms");
	if (strcmp(report_str(job, "state"), "running") == 0) {
		fputs("  [", stdout);
		board_cell(stdout, report_str(job, "worker"), 0);
		if (holder_gone(report_str(job, "worker")))
			fputs(", whose process is gone: a worker started on this host takes it "
			      "over at once", stdout);
		long long left = json_integer_value(lease);
		if (left >= 0)
			printf(", lease %lld s left]", (left + 999) / 1000);
		else
			printf(", lease expired %lld s ago: claimable again]", -left / 1000);
	} else if (strcmp(report_str(job, "state"), "queued") == 0 && json_object_get(job, "waits_ms")) {
		printf("  [retry in %lld s]", (report_num(job, "waits_ms") + 999) / 1000);
	}
}

static void jobs_print(const json_t *out)
{
	const json_t *list = json_object_get(out, "jobs"), *job;
	if (json_array_size(list))
		printf("%6s  %-7s  %-7s  %8s  %s\n", "id", "kind", "state", "attempts", "what");
	size_t i;
	json_array_foreach(list, i, job) {
		printf("%6lld  ", report_num(job, "id"));
		board_cell(stdout, report_str(job, "kind"), 7);
		fputs("  ", stdout);
		board_cell(stdout, report_str(job, "state"), 7);
		printf("  %8lld  ", report_num(job, "attempts"));
		put_payload(job);
		put_job_state(job);
		putchar('\n');
		if (*report_str(job, "last_error")) {
			printf("%8slast error: ", "");
			board_cell(stdout, report_str(job, "last_error"), 0);
			putchar('\n');
		}
	}
	const json_t *c = json_object_get(out, "counts");
	printf("%lld queued, %lld running, %lld parked, %lld done\n", report_num(c, "queued"),
	       report_num(c, "running"), report_num(c, "parked"), report_num(c, "done"));
}

static int run_jobs(const struct read_args *a)
{
	struct store *s = report_open(a);
	if (!s)
		return 2;
	json_t *out;
	err_t err;
	int rc = store_report_jobs(s, safe_json_text, a->all, &out, err) < 0 ? 2 : 0;
	if (rc)
		report_failed(a, err->msg);
	store_close(s);
	if (rc == 0 && a->json)
		rc = report_json(out) < 0 ? 2 : 0;
	else if (rc == 0)
		jobs_print(out);
	json_decref(out);
	return rc;
}

int cmd_jobs(int argc, char **argv)
{
	struct read_args a = { .cmd = "jobs" };
	const struct opt opts[] = {
		OPT_BOOL("all", 0, &a.all, "list the done jobs too"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge jobs", .opts = opts,
		.json = &a.json, .json_help = "print {\"counts\": {...}, \"jobs\": [...]}",
		.summary = "Shows the queue: running jobs (with their worker and the time left on its\n"
			   "lease), queued ones in the order they will be taken, and parked ones (with\n"
			   "their attempts and last error: they failed too often and wait for a person),\n"
			   "then how many jobs are in each state.",
		.exits = "0 shown, 2 bad usage or an unusable database.",
	};
	int status;
	return report_parse(&cmd, NULL, argc, argv, &a, &status) < 0 ? status : run_jobs(&a);
}
