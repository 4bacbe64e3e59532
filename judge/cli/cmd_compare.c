/* judge compare: two versions of one's player, paired (judge/event/
 * compare.h): `judge compare NEW OLD` queues the matches, `judge compare
 * --show ID` says what they show so far. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/event/compare.h"

struct compare_args {
	const char *author, *queue;
	int64_t pairs, show;
	bool json;
};

static int parse_args(int argc, char **argv, struct compare_args *a, int64_t v[2], int *status)
{
	const struct opt opts[] = {
		OPT_NUM("pairs", 'n', "N", &a->pairs, 2, COMPARE_PAIRS_MAX, NULL,
			"pairs of matches to play (default 20)"),
		OPT_NUM("show", 0, "ID", &a->show, 1, INT64_MAX, "a comparison's number",
			"what comparison ID shows so far"),
		OPT_STR("author", 0, "NAME", &a->author, "whose versions (default $USER)"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge compare", .args = "[NEW OLD]", .min_args = 0, .max_args = 2,
		.json = &a->json, .json_help = "--show as JSON",
		.queue = &a->queue,
		.opts = opts,
		.summary = "Is submission NEW better than OLD?  Queues N pairs of unrated matches: in\n"
			   "each pair both versions meet the same opponents (other authors' qualified\n"
			   "players, the Demo in the seats left), on the same seed, from the same\n"
			   "seat.  `--show ID` then reports the difference in win rate and in mean\n"
			   "rank with their 95% confidence intervals over the pairs played so far.",
		.exits = "0 done, 1 refused or no such comparison, 2 bad usage or an unusable\n"
			 "database.",
	};
	*a = (struct compare_args){ .pairs = 20,
				    .author = opt_user() };
	int n = opt_parse(&cmd, argc, argv, status);
	if (n < 0)
		return -1;
	if ((n == 2) == (a->show > 0)) {
		*status = opt_bad(&cmd, "give NEW OLD (two submission numbers), or --show ID");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *end;
		v[i] = strtoll(argv[i + 1], &end, 10);
		if (*end || v[i] <= 0) {
			*status = opt_bad(&cmd, "'%s' is not a submission number", argv[i + 1]);
			return -1;
		}
	}
	return 0;
}

/* "+12% [+4%, +20%]", or "+12% (too few pairs for an interval)". */
static void say_interval(const char *what, const struct compare_interval *c, double scale,
			 const char *unit)
{
	printf("  %-10s %+.2f%s", what, c->mean * scale, unit);
	if (isnan(c->low))
		printf("  (too few pairs for an interval)\n");
	else
		printf("  [%+.2f%s, %+.2f%s]\n", c->low * scale, unit, c->high * scale, unit);
}

static int show(struct store *s, const struct compare_args *a)
{
	struct compare_summary c;
	err_t err;
	int found = compare_read(s, a->show, &c, err);
	if (found <= 0) {
		fprintf(stderr, "judge compare: %s\n", found < 0 ? err->msg : "no such comparison");
		return found < 0 ? 2 : 1;
	}
	if (a->json) {
		json_t *j = compare_json(&c);
		char *text = json_dumps(j, JSON_INDENT(2));
		printf("%s\n", text);
		free(text);
		json_decref(j);
		return 0;
	}
	printf("submission %lld vs %lld: %d of %d pairs played (95%% intervals)\n",
	       (long long)c.a, (long long)c.b, c.wins.n, c.queued_pairs);
	say_interval("wins", &c.wins, 100, "%");
	say_interval("mean rank", &c.rank, 1, "");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a;
	int64_t v[2];
	int status;
	if (parse_args(argc, argv, &a, v, &status) < 0)
		return status;
	err_t err;
	struct store *s = opt_store("judge compare", a.queue, false);
	if (!s)
		return 2;
	int64_t id;
	int rc = a.show ? show(s, &a) : compare_queue(s, a.author, v[0], v[1], (int)a.pairs, &id, err);
	store_close(s);
	if (a.show)
		return rc;
	if (rc != 0) {
		fprintf(stderr, "judge compare: %s\n", err->msg);
		return rc < 0 ? 2 : 1;
	}
	printf("comparison %lld: %lld pairs of matches queued (judge compare --show %lld)\n",
	       (long long)id, (long long)a.pairs, (long long)id);
	return 0;
}
