/* judge disqualify | reinstate: an organiser takes a player out of the
 * ranking and matchmaking, or lets it back; every decision is kept. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/store/store_serve.h"

struct dq_args {
	const char *game, *reason, *by, *queue;
	bool list;
};

static int history(struct store *s, const char *game)
{
	char when[32], lifted[32];
	err_t err;
	json_t *all, *d;
	if (store_disqualification_history(s, game, &all, err) < 0) {
		fprintf(stderr, "judge disqualify: %s\n", err->msg);
		return 2;
	}
	size_t i;
	json_array_foreach(all, i, d) {
		board_time(json_integer_value(json_object_get(d, "created_at")), when);
		printf("%-20s %-23s by ", json_string_value(json_object_get(d, "name")), when);
		board_cell(stdout, json_string_value(json_object_get(d, "decided_by")), 0);
		fputs(": ", stdout);
		board_cell(stdout, json_string_value(json_object_get(d, "reason")), 0);
		if (json_is_integer(json_object_get(d, "reinstated_at"))) {
			board_time(json_integer_value(json_object_get(d, "reinstated_at")), lifted);
			printf("; reinstated %s by ", lifted);
			board_cell(stdout, json_string_value(json_object_get(d, "reinstated_by")), 0);
		}
		putchar('\n');
	}
	if (!json_array_size(all))
		printf("no player of %s was ever disqualified\n", game);
	json_decref(all);
	return 0;
}

static int decide(struct store *s, bool reinstate, const char *name, const struct dq_args *a)
{
	err_t err;
	const char *prog = reinstate ? "judge reinstate" : "judge disqualify";
	int rc = reinstate ? store_reinstate(s, a->game, name, a->by, err)
			   : store_disqualify(s, a->game, name, a->reason, a->by, err);
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", prog, err->msg);
	else if (rc == 0)
		fprintf(stderr, "%s: %s %s\n", prog, name, reinstate ? "is not disqualified in this "
			"game (judge disqualify --list)" : "is no player of this game");
	else
		printf("%s %s in %s\n", name, reinstate ? "reinstated: back in the ranking and "
		       "matchmaking" : "disqualified: out of the ranking and matchmaking", a->game);
	return rc < 0 ? 2 : rc == 0 ? 1 : 0;
}

static int run(int argc, char **argv, bool reinstate)
{
	struct dq_args a = { .by = opt_user() };
	const struct opt opts[] = {
		OPT_GAME(&a.game, .required = true),
		OPT_STR("reason", 0, "TEXT", &a.reason, "disqualify: why (shown to the player)"),
		OPT_STR("by", 0, "NAME", &a.by, "who decides (default: $USER)"),
		OPT_BOOL("list", 0, &a.list, "every decision of the game, lifted ones too"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = reinstate ? "judge reinstate" : "judge disqualify",
		.args = "PLAYER", .min_args = 0, .max_args = 1, .opts = opts, .queue = &a.queue,
		.summary = reinstate ? "Lets a disqualified player back into the ranking and "
				       "matchmaking;\nthe disqualification stays in its history."
				     : "Takes a player out of the ranking and matchmaking, with a "
				       "reason its\nauthor sees; --list shows every decision.",
		.exits = "0 done, 1 no such player (or not disqualified), 2 bad usage or an "
			 "unusable database.",
	};
	int status, n = opt_parse(&cmd, argc, argv, &status);
	if (n < 0)
		return status;
	if ((n == 1) == a.list || (n == 1 && !reinstate && (!a.reason || !*a.reason)))
		return opt_bad(&cmd, a.list ? "--list takes no PLAYER" : reinstate ? "name the PLAYER"
			       : "name the PLAYER and give --reason TEXT");
	err_t err;
	struct store *s = store_open(a.queue, false, err);
	if (!s) {
		fprintf(stderr, "%s: %s\n", cmd.name, err->msg);
		return 2;
	}
	int rc = a.list ? history(s, a.game) : decide(s, reinstate, argv[1], &a);
	store_close(s);
	return rc;
}

int cmd_disqualify(int argc, char **argv)
{
	return run(argc, argv, false);
}

int cmd_reinstate(int argc, char **argv)
{
	return run(argc, argv, true);
}
