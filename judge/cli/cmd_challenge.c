/* judge challenge: queue unrated matches of one's player against chosen
 * opponents, through the same checks as the service's POST
 * /api/challenges (judge/event/challenge.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/compile/upload_check.h"
#include "judge/event/challenge.h"

struct challenge_args {
	const char *game, *player, *author, *queue, *config;
	int64_t seeds;
	struct judge_config cfg;
};

/* 0 and the seats in rq; -1 when the command is done with *status. */
static int parse_args(int argc, char **argv, struct challenge_args *a,
		      struct challenge_request *rq, int *status)
{
	const struct opt opts[] = {
		OPT_GAME(&a->game, .required = true),
		OPT_STR("player", 'p', "NAME", &a->player, "your player (default: the first seat)"),
		OPT_NUM("seeds", 'n', "N", &a->seeds, 1, CHALLENGE_SEEDS_MAX, NULL,
			"matches to play, each on a fresh seed (default 1)"),
		OPT_STR("author", 0, "NAME", &a->author, "who asks (default $USER)"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge challenge", .args = "SEAT...", .min_args = 2,
		.queue = &a->queue, .config = &a->config, .settings = &a->cfg,
		.max_args = GAME_MAX_PLAYERS, .opts = opts,
		.summary = "Queues unrated matches of your player against the opponents you name, in\n"
			   "the seat order you give: a SEAT is your player, another contestant's\n"
			   "qualified player, or a shipped one (Demo, Dummy, Null).  For example:\n"
			   "  judge challenge --game dominator Sauron Dummy Saruman Demo -n 3\n"
			   "They run after qualifying and ranked work, never change a rating, and\n"
			   "are visible only to the authors who played and to organisers.  Each\n"
			   "author may queue contest.challenges_per_hour of them an hour; while\n"
			   "contest.frozen is set, the opponents must be shipped players.",
		.exits = "0 queued, 1 refused (the message says why and, over the limit, when\n"
			 "the next is allowed), 2 bad usage or an unusable database.",
	};
	*a = (struct challenge_args){ .seeds = 1,
				      .author = opt_user() };
	int n = opt_parse(&cmd, argc, argv, status);
	if (n < 0)
		return -1;
	if (!upload_author_valid(a->author)) {
		*status = opt_bad(&cmd, "give --author NAME: 1 to 63 printable characters");
		return -1;
	}
	*rq = (struct challenge_request){ .game = a->game, .author = a->author,
		.player = a->player ? a->player : argv[1], .nseats = n, .seeds = (int)a->seeds };
	for (int i = 0; i < n; i++)
		rq->seats[i] = argv[i + 1];
	return 0;
}

int cmd_challenge(int argc, char **argv)
{
	struct challenge_args a;
	struct challenge_request rq;
	int status;
	if (parse_args(argc, argv, &a, &rq, &status) < 0)
		return status;
	struct store *s = opt_store("judge challenge", a.queue, false);
	if (!s)
		return 2;
	err_t err;
	struct challenge_queued q;
	enum challenge_outcome rc = challenge_queue(s, &a.cfg.contest, a.cfg.data_dir, &rq,
						    store_now_ms(), &q, err);
	store_close(s);
	if (rc != CHALLENGE_QUEUED) {
		fprintf(stderr, "judge challenge: %s\n", err->msg);
		return rc == CHALLENGE_FAILED ? 2 : 1;
	}
	printf("%s: jobs", err->msg);
	for (int i = 0; i < q.n; i++)
		printf(" %lld", (long long)q.jobs[i]);
	printf("\n");
	return 0;
}
