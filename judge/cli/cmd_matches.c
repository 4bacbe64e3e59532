/* judge matches: the played matches, most recent first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/report.h"
#include "judge/store/store_serve.h"

#define DEFAULT_LIMIT 20

/* The list, and whether the player asked for is known (1, 0 unknown: a
 * typo worth an error, not an empty list); NULL, said, on an error. */
static json_t *matches_load(const struct read_args *a, struct store *s, int *known)
{
	err_t err;
	json_t *list;
	*known = 1;
	if (store_report_matches(s, safe_json_text, a->game, a->player, a->limit, &list, err) < 0) {
		report_failed(a, err->msg);
		return NULL;
	}
	if (json_array_size(list) == 0 && a->player &&
	    (*known = store_player_known(s, a->player, a->game, err)) < 0) {
		report_failed(a, err->msg);
		json_decref(list);
		return NULL;
	}
	return list;
}

static void matches_print(const json_t *list)
{
	if (json_array_size(list) == 0)
		printf("no matches\n");
	size_t i, k;
	const json_t *m, *p;
	json_array_foreach(list, i, m) {
		char when[32];
		board_time(report_num(m, "created_at"), when);
		printf("%smatch %lld  ", i ? "\n" : "", report_num(m, "match"));
		board_cell(stdout, report_str(m, "game"), 0);
		fputs("  ", stdout);
		board_cell(stdout, report_str(m, "kind"), 0);
		printf("  %s  %s\n", json_is_true(json_object_get(m, "rated")) ? "rated" : "unrated",
		       when);
		json_array_foreach(json_object_get(m, "players"), k, p) {
			printf("  seat %lld  ", report_num(p, "seat"));
			board_cell(stdout, report_str(p, "name"), 12);
			printf("  %8lld  rank %lld", report_num(p, "score"), report_num(p, "rank"));
			if (json_is_integer(json_object_get(p, "frozen_round"))) {
				fputs("  frozen ", stdout);
				report_frozen(p);
			}
			putchar('\n');
		}
	}
}

static int run_matches(const struct read_args *a)
{
	struct store *s = report_open(a);
	if (!s)
		return 2;
	int known;
	json_t *list = matches_load(a, s, &known);
	store_close(s);
	int rc = !list ? 2 : known == 0 ? 1 : 0;
	if (known == 0) {
		fprintf(stderr, "judge matches: no player named '%s'%s%s in %s\n", a->player,
			a->game ? " in " : "", a->game ? a->game : "", a->queue);
	} else if (rc == 0 && a->json) {
		rc = report_json(list) < 0 ? 2 : 0;
	} else if (rc == 0) {
		matches_print(list);
	}
	json_decref(list);
	return rc;
}

int cmd_matches(int argc, char **argv)
{
	struct read_args a = { .cmd = "matches", .limit = DEFAULT_LIMIT };
	const struct opt opts[] = {
		OPT_STR("player", 0, "NAME", &a.player,
			"only the matches NAME played in (a shipped player too)"),
		OPT_GAME(&a.game),
		OPT_NUM("limit", 0, "N", &a.limit, 0, INT64_MAX, "a count",
			"at most N matches (default " OPT_TEXT(DEFAULT_LIMIT) "; 0: all)"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge matches", .opts = opts,
		.json = &a.json, .json_help = "print a JSON array",
		.summary = "Lists the played matches, most recent first: id, game, kind (qualifying or\n"
			   "ranked), whether it changed the ratings, and each seat's player, score and\n"
			   "rank, with the round and reason of every player frozen.",
		.exits = "0 listed (none too), 1 no such player, 2 bad usage or an unusable "
			 "database.",
	};
	int status;
	return report_parse(&cmd, NULL, argc, argv, &a, &status) < 0 ? status : run_matches(&a);
}
