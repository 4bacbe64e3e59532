/* report.c - what judge status, matches, replay and jobs share; see report.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/board_html.h"
#include "judge/cli/report.h"

int report_parse(const struct opt_command *c, const char *what, int argc, char **argv,
		 struct read_args *a, int *status)
{
	struct opt_command with_queue = *c;
	with_queue.queue = &a->queue;
	c = &with_queue;
	int n = opt_parse(c, argc, argv, status);
	if (n < 0)
		return -1;
	char *end;
	if (n == 1) {
		a->target = strtoll(argv[1], &end, 10);
		if (*end || end == argv[1] || a->target < 1) {
			*status = opt_bad(c, "'%s' is not a %s id", argv[1], what);
			return -1;
		}
	}
	return 0;
}

struct store *report_open(const struct read_args *a)
{
	err_t err;
	struct store *s = store_open(a->queue, false, err);
	if (!s)
		fprintf(stderr, "judge %s: %s\n", a->cmd, err->msg);
	return s;
}

void report_failed(const struct read_args *a, const char *err)
{
	fprintf(stderr, "judge %s: reading %s: %s\n", a->cmd, a->queue, err);
}

int report_json(json_t *j)
{
	return report_json_as(j, JSON_INDENT(2));
}

int report_json_as(json_t *j, size_t flags)
{
	if (!j || json_dumpf(j, stdout, flags) < 0)
		return -1;
	putchar('\n');
	return 0;
}

const char *report_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

long long report_num(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

void report_time(const char *label, const json_t *o, const char *key)
{
	char when[32];
	board_time(report_num(o, key), when);
	printf("%-11s %s\n", label, when);
}

void report_frozen(const json_t *seat)
{
	const json_t *round = json_object_get(seat, "frozen_round");
	if (!json_is_integer(round)) {
		fputs("-", stdout);
		return;
	}
	if (json_integer_value(round) < 0)
		fputs("at the start", stdout);
	else
		printf("round %lld", (long long)json_integer_value(round));
	if (*report_str(seat, "reason")) {
		fputs(": ", stdout);
		board_cell(stdout, report_str(seat, "reason"), 0);
	}
	if (*report_str(seat, "verdict")) {
		fputs(" (", stdout);
		board_cell(stdout, report_str(seat, "verdict"), 0);
		fputs(")", stdout);
	}
}
