/* report.h - what judge status, matches, replay and jobs share: the
 * arguments they read, the store they read them from, and printing the
 * JSON each builds first (--json prints it; the table a person reads is
 * printed from the same object, so the two never say different things).
 */
#ifndef JUDGE_REPORT_H
#define JUDGE_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/cli/options.h"
#include "judge/store/store.h"

struct read_args {
	const char *cmd, *queue, *game, *player, *output, *html;
	int64_t target; /* SUBMISSION or MATCH */
	int64_t limit;
	int log_seat;   /* judge replay --log SEAT; -1: not asked */
	bool json, all;
};

/* Reads the command line against c, and --queue, into a (its one
 * argument, if c takes one, is the id of a `what`, "submission" or
 * "match"): 0, or -1 when the command is done with exit status *status. */
int report_parse(const struct opt_command *c, const char *what, int argc, char **argv,
		 struct read_args *a, int *status);

/* The store at a->queue, opened to read; NULL said. */
struct store *report_open(const struct read_args *a);
void report_failed(const struct read_args *a, const char *err);

/* j on stdout, indented by two: 0, or -1. */
int report_json(json_t *j);
/* j on stdout as jansson's flags say (JSON_INDENT(1)), then a newline. */
int report_json_as(json_t *j, size_t flags);

/* o's key: "" or 0 when it is not there. */
const char *report_str(const json_t *o, const char *key);
long long report_num(const json_t *o, const char *key);

/* "label      2025-05-01 12:00:00 UTC" from the milliseconds at key. */
void report_time(const char *label, const json_t *o, const char *key);

/* "round 50: CPU budget exceeded (cpu-limit)", or "-" for a player that
 * played to the end. */
void report_frozen(const json_t *seat);

#endif
