/* ladder.c - a ranked match's result applied to the ladder (ladder.h). */
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "games/game.h"
#include "judge/notify/events.h"
#include "judge/rating/ladder.h"
#include "judge/rating/rating.h"

/* The seats' ratings if every one is still in the ranked pool: 1; 0 when
 * one was superseded meanwhile; -1. */
static int load_ratings(struct store *s, const struct ladder_seat *seats, int n,
			struct rating *r, err_t err)
{
	for (int i = 0; i < n; i++) {
		struct store_rated now;
		int found = store_ranked_rating(s, seats[i].submission, &now, err);
		if (found <= 0)
			return found;
		r[i] = (struct rating){ now.mu, now.sigma };
	}
	return 1;
}

static int read_places(struct store *s, const char *game, const struct rating *r, int n,
		       int *place, err_t err)
{
	for (int i = 0; i < n; i++)
		if ((place[i] = store_board_place(s, game, rating_score(r[i]), err)) < 0)
			return -1;
	return 0;
}

static int rank_events(struct store *s, const struct hook_config *hc, const char *game,
		       const struct ladder_seat *seats, int n, const int *before,
		       const struct rating *after, err_t err)
{
	int now[GAME_MAX_PLAYERS];
	if (read_places(s, game, after, n, now, err) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (now[i] == before[i])
			continue;
		json_t *data = json_pack("{s:s, s:i, s:i, s:f}", "player", seats[i].name, "old_rank",
					 before[i], "new_rank", now[i], "score",
					 rating_score(after[i]));
		int rc = data ? events_record(s, hc, "rank.changed", seats[i].submission, data, err)
			      : -1;
		if (!data)
			err_set(err, "recording a rank change: out of memory");
		json_decref(data);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static bool anybody_listens(const struct hook_config *hc)
{
	size_t which[HOOK_MAX_ENDPOINTS];
	return hook_select(hc, HOOK_RANK_CHANGED, which) > 0;
}

int ladder_rate(struct store *s, const struct hook_config *hc, int64_t match, const char *game,
		const struct ladder_seat *seats, int n, err_t err)
{
	struct rating before[GAME_MAX_PLAYERS], after[GAME_MAX_PLAYERS];
	int rank[GAME_MAX_PLAYERS], places[GAME_MAX_PLAYERS];
	if (n < 2 || n > GAME_MAX_PLAYERS) {
		err_set(err, "match %lld has %d seats: it cannot be rated",
			 (long long)match, n);
		return -1;
	}
	int all = load_ratings(s, seats, n, before, err);
	if (all <= 0)
		return all;
	bool listened = anybody_listens(hc);
	if (listened && read_places(s, game, before, n, places, err) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		rank[i] = seats[i].rank;
	struct rating_params p = rating_params_default();
	int rc = rating_update(&p, (size_t)n, before, rank, after);
	if (rc != RATING_OK) {
		err_set(err, "rating update: %s", rating_strerror(rc));
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (store_rate(s, seats[i].submission, after[i].mu, after[i].sigma, rank[i] == 1, n,
			       err) < 0)
			return -1;
	if (store_mark_rated(s, match, err) < 0 ||
	    (listened && rank_events(s, hc, game, seats, n, places, after, err) < 0))
		return -1;
	return 1;
}
