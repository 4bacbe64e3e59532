/* judge ratings --recompute: rebuild every rating of a game from its match
 * history, in the order the matches were recorded, with the same update
 * the worker makes; --check compares instead of writing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/rating/rating.h"
#include "judge/store/store.h"

struct player {
	int64_t id;
	struct rating r;
	int games, wins;
};

/* The game's rated players, sorted by id, at their initial rating. */
struct table {
	struct player *p;
	size_t n;
};

static int by_id(const void *a, const void *b)
{
	int64_t x = ((const struct player *)a)->id, y = ((const struct player *)b)->id;
	return (x > y) - (x < y);
}

static struct player *find(struct table *t, int64_t id)
{
	struct player key = { .id = id };
	return bsearch(&key, t->p, t->n, sizeof *t->p, by_id);
}

static int load_players(struct store *s, const char *game, struct table *t, struct err *err)
{
	int64_t *ids;
	size_t n;
	if (store_rated_players(s, game, &ids, &n, err) < 0)
		return -1;
	struct rating_params params = rating_params_default();
	t->p = n ? calloc(n, sizeof *t->p) : NULL;
	for (size_t i = 0; t->p && i < n; i++)
		t->p[t->n++] = (struct player){ ids[i], rating_initial(&params), 0, 0 };
	free(ids);
	if (n && !t->p)
		err_set(err, "out of memory");
	return n && !t->p ? -1 : 0;
}

/* The seats of the match being read, rated when the next one starts. */
struct replay {
	struct table *t;
	struct rating_params params;
	struct player *seat[GAME_MAX_PLAYERS];
	int rank[GAME_MAX_PLAYERS], n;
	int64_t current;
	struct err *err;
};

static int rate_match(struct replay *r)
{
	struct rating before[GAME_MAX_PLAYERS], after[GAME_MAX_PLAYERS];
	for (int i = 0; i < r->n; i++)
		before[i] = r->seat[i]->r;
	if (rating_update(&r->params, (size_t)r->n, before, r->rank, after) != RATING_OK) {
		err_set(r->err, "match %lld cannot be rated", (long long)r->current);
		return -1;
	}
	for (int i = 0; i < r->n; i++) {
		r->seat[i]->r = after[i];
		r->seat[i]->games++;
		r->seat[i]->wins += r->rank[i] == 1;
	}
	r->n = 0;
	return 0;
}

static int replay_seat(void *ctx, int64_t match, int64_t submission, int rank)
{
	struct replay *r = ctx;
	if (match != r->current && r->n > 0 && rate_match(r) < 0)
		return -1;
	r->current = match;
	if (match < 0)
		return 0;
	struct player *p = find(r->t, submission);
	if (!p || r->n == GAME_MAX_PLAYERS) {
		err_set(r->err, "match %lld has a player without a rating",
			 (long long)match);
		return -1;
	}
	r->seat[r->n] = p;
	r->rank[r->n++] = rank;
	return 0;
}

/* Replays every rated match in id order. */
static int replay_matches(struct store *s, const char *game, struct table *t, struct err *err)
{
	struct replay r = { .t = t, .params = rating_params_default(), .current = -1, .err = err };
	return store_rated_results(s, game, replay_seat, &r, err);
}

/* Compares with the stored ratings (exactly: the same updates in the same
 * order give the same bits) or writes them; returns the mismatches, or -1. */
static int compare_or_write(struct store *s, const struct table *t, bool write, struct err *err)
{
	int mismatches = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct player *p = &t->p[i];
		struct store_rated stored;
		int found = store_get_rating(s, p->id, &stored, err);
		if (found < 0)
			return -1;
		if (found && (stored.mu != p->r.mu || stored.sigma != p->r.sigma ||
			      stored.games != p->games || stored.wins != p->wins)) {
			mismatches++;
			printf("submission %lld: stored (%.17g, %.17g, %d games), recomputed "
			       "(%.17g, %.17g, %d games)\n", (long long)p->id, stored.mu,
			       stored.sigma, stored.games, p->r.mu, p->r.sigma, p->games);
		}
		struct store_rated now = { .id = p->id, .mu = p->r.mu, .sigma = p->r.sigma,
					   .games = p->games, .wins = p->wins };
		if (write && store_put_rating(s, &now, err) < 0)
			return -1;
	}
	return mismatches;
}

int cmd_ratings(int argc, char **argv)
{
	const char *game = NULL, *queue = STORE_DEFAULT_PATH;
	bool recompute = false, check = false;
	const struct opt opts[] = {
		OPT_BOOL("recompute", 0, &recompute, "rebuild the ratings", .required = true),
		OPT_STR("game", 0, "GAME", &game, "the game", .required = true),
		OPT_BOOL("check", 0, &check, "only compare, and list the differences"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge ratings", .opts = opts,
		.queue = &queue,
		.summary = "Rebuilds every rating of GAME from its rated ranked matches, in the order\n"
			   "they were recorded, and writes them (or, with --check, only compares and\n"
			   "lists the differences).",
		.exits = "0 when every stored rating equals the recomputed one (after writing, "
			 "always), 1 when --check found a difference, 2 for bad usage or an unusable "
			 "database.",
	};
	int status;
	if (opt_parse(&cmd, argc, argv, &status) < 0)
		return status;
	err_t err;
	struct store *s = store_open(queue, false, err);
	if (!s) {
		fprintf(stderr, "judge ratings: %s\n", err->msg);
		return 2;
	}
	struct table t = { 0 };
	int rc = 2;
	int diff = -1;
	if (store_begin(s, err) == 0 && load_players(s, game, &t, err) == 0 &&
	    replay_matches(s, game, &t, err) == 0 &&
	    (diff = compare_or_write(s, &t, !check, err)) >= 0) {
		rc = store_commit(s, err) < 0 ? 2 : check && diff ? 1 : 0;
		printf("%zu ratings of %s recomputed: %d differed%s\n", t.n, game, diff,
		       check ? "" : " (now rewritten)");
	}
	if (rc == 2) {
		store_rollback(s);
		fprintf(stderr, "judge ratings: %s\n", err->msg);
	}
	free(t.p);
	store_close(s);
	return rc;
}
