/* work_schedule.c - ranked matches, planned ahead: each game's queue of
 * ranked matches is topped up to sched_ranked_ahead(slots) by matchmaking
 * over its ranked pool (the games of queued and running matches counted as
 * played) until every player has the configured minimum of games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "games/seed.h"
#include "judge/worker/matchmaking.h"
#include "judge/worker/work.h"

/* More games than the registry holds are not scheduled. */
#define GAMES_MAX 32

struct pool {
	struct mm_player *p;
	size_t n;
};

/* The game's ranked pool as the next match must see it: the games of its
 * queued and running ranked matches counted as played.  *queued: how many
 * of those wait; *planned: how many there are. */
static int load_pool(struct store *s, const char *game, int min_games, struct pool *pool,
		     int *queued, int *planned, err_t err)
{
	struct store_rated *rated;
	size_t n;
	if (store_ranked_pool(s, game, &rated, &n, err) < 0)
		return -1;
	*planned = store_ranked_planned(s, game, rated, n, queued, err);
	pool->p = n && *planned >= 0 ? calloc(n, sizeof *pool->p) : NULL;
	for (size_t i = 0; pool->p && i < n; i++)
		pool->p[pool->n++] = (struct mm_player){
			.id = rated[i].id, .mu = rated[i].mu, .sigma = rated[i].sigma,
			.games = rated[i].games, .new_player = rated[i].games < min_games,
		};
	free(rated);
	if (*planned < 0)
		return -1;
	if (n && !pool->p) {
		err_set(err, "reading the ranked pool of %s: out of memory", game);
		return -1;
	}
	return 0;
}

/* Why no ranked match of g can be scheduled with this pool, into why;
 * "" when one can, or when nobody qualified in g (a game nobody plays
 * needs no explaining). */
static void idle_reason(const struct game *g, const struct pool *pool,
			const struct mm_params *p, char *why, size_t size)
{
	*why = '\0';
	if (pool->n > 0 && pool->n < (size_t)game_min_players(g))
		snprintf(why, size, "%zu qualified player%s, a match needs %d", pool->n,
			 pool->n == 1 ? "" : "s", game_min_players(g));
	else if (pool->n > 0 && mm_should_stop(pool->p, pool->n, p))
		snprintf(why, size, "each of the %zu qualified players has its %d ranked games "
			 "(worker.min_games)", pool->n, p->min_games);
}

/* Appends "game: what" to the worker's idle line. */
static void add_idle(struct work *w, const struct game *g, const char *what)
{
	size_t at = strlen(w->idle);
	if (*what && at < sizeof w->idle)
		snprintf(w->idle + at, sizeof w->idle - at, "%s%s: %s", at ? "; " : "", g->name,
			 what);
}

/* The game's pool (load_pool) and why no ranked match of it can be made
 * ("" when one can, or ranked matches of it are under way).  0 or -1. */
static int game_pool(struct store *s, const struct game *g, const struct mm_params *params,
		     struct pool *pool, int *queued, char *why, size_t size,
		     err_t err)
{
	int planned;
	*why = '\0';
	if (load_pool(s, g->name, params->min_games, pool, queued, &planned, err) < 0)
		return -1;
	if (planned == 0)
		idle_reason(g, pool, params, why, size);
	return 0;
}

int worker_idle_reason(struct store *s, const char *game, int min_games, char *why, size_t size)
{
	const struct game *g = game_find(game);
	struct pool pool = { 0 };
	struct mm_params params = mm_params_default();
	params.min_games = min_games;
	err_t serr = {0};
	int queued;
	*why = '\0';
	int rc = g ? game_pool(s, g, &params, &pool, &queued, why, size, serr) : 0;
	free(pool.p);
	return rc < 0 ? -1 : 0;
}

/* The batch's random draws: with worker.seed_secret, from the secret and
 * the games the pool has played so far, so that the same history schedules
 * the same matches with the same seeds (a rejudge, or the tournament moved
 * to another store); else from the clock. */
static struct rng batch_rng(const struct work *w, const struct pool *pool)
{
	const char *secret = w->o->cfg->worker.seed_secret;
	if (!secret[0])
		return rng_seeded((uint64_t)store_now_ms());
	uint64_t games = 0;
	for (size_t i = 0; i < pool->n; i++)
		games += (uint64_t)pool->p[i].games;
	return rng_seeded(seed_derive(games, secret, (unsigned)pool->n));
}

/* A ranked match's seed: from the batch's draws under a secret, which
 * nobody without it can predict; else fresh. */
static uint64_t match_seed(const struct work *w, struct rng *r)
{
	const char *secret = w->o->cfg->worker.seed_secret;
	if (!secret[0])
		return seed_fresh();
	uint64_t draw = (uint64_t)rng_next(r) << 31 | rng_next(r);
	return seed_derive(draw, secret, 0) >> 2;
}

static int queue_match(struct work *w, const char *game, const struct pool *pool,
		       const size_t *pick, int k, struct rng *r, err_t err)
{
	int order[GAME_MAX_PLAYERS];
	rng_permutation(r, order, k); /* no seat is anybody's by right */
	json_t *seats = json_array();
	for (int i = 0; i < k; i++)
		json_array_append_new(seats, json_pack("{s:I}", "submission",
						       (json_int_t)pool->p[pick[order[i]]].id));
	json_t *p = json_pack("{s:s, s:s, s:I, s:o}", "kind", "ranked", "game", game, "seed",
			      (json_int_t)match_seed(w, r), "seats", seats);
	char *text = json_dumps(p, JSON_COMPACT);
	int rc = text ? store_enqueue(w->store, "match", text, SCHED_RANKED, 0, NULL, err) : -1;
	if (!text)
		err_set(err, "out of memory");
	free(text);
	json_decref(p);
	return rc;
}

/* How many players the next match has: a game of a fixed count, that
 * count; a game of a range (Blitz: 2 to 6), any size of it the pool can
 * fill, drawn at random, so that a tournament mixes them as Halite's did.
 * 0 when the pool is too small. */
static int match_size(const struct game *g, size_t pool, struct rng *r)
{
	int lo = game_min_players(g), hi = game_max_players(g);
	if ((size_t)hi > pool)
		hi = (int)pool;
	if (hi < lo)
		return 0;
	return hi == lo ? lo : lo + rng_uniform(r, 0, hi - lo);
}

/* Tops the game's queue of ranked matches up to ahead, within room,
 * counting each planned game at once so that one batch is already
 * balanced.  One transaction. */
static int top_up_game(struct work *w, const struct game *g, int ahead, long room, int *queued,
		       err_t err)
{
	struct pool pool = { 0 };
	struct mm_params params = mm_params_default();
	params.min_games = (int)w->o->cfg->worker.min_games;
	char why[256];
	int waiting = 0;
	int rc = store_begin(w->store, err);
	if (rc == 0)
		rc = game_pool(w->store, g, &params, &pool, &waiting, why, sizeof why, err);
	if (rc == 0)
		add_idle(w, g, why);
	struct rng rng = batch_rng(w, &pool), *r = &rng;
	int added = 0;
	while (rc == 0 && *queued + added < room && waiting + added < ahead &&
	       !mm_should_stop(pool.p, pool.n, &params)) {
		size_t pick[GAME_MAX_PLAYERS];
		int k = match_size(g, pool.n, r);
		int e = k ? mm_pick(pool.p, pool.n, (size_t)k, &params, r, pick) : MM_EFEW;
		if (e == MM_EFEW)
			break;
		if (e != MM_OK) {
			err_set(err, "matchmaking: %s", mm_strerror(e));
			rc = -1;
			break;
		}
		if ((rc = queue_match(w, g->name, &pool, pick, k, r, err)) < 0)
			break;
		for (int i = 0; i < k; i++)
			pool.p[pick[i]].games++;
		added++;
	}
	free(pool.p);
	if (rc == 0 && store_commit(w->store, err) < 0)
		rc = -1;
	if (rc < 0)
		store_rollback(w->store);
	else
		*queued += added;
	return rc;
}

int work_schedule(struct work *w, long room, int *queued, err_t err)
{
	const struct game *const *games = game_list();
	const char *names[GAMES_MAX];
	size_t n = 0;
	while (games[n] && n < GAMES_MAX) {
		names[n] = games[n]->name;
		n++;
	}
	int waiting[GAMES_MAX], ahead = sched_ranked_ahead(w->o->slots);
	*queued = 0;
	w->idle[0] = '\0';
	/* Read first, outside a transaction: most of the time enough wait,
	 * and no write lock is taken. */
	if (store_ranked_queued(w->store, names, n, waiting, err) < 0)
		return -1;
	int rc = 0;
	for (size_t g = 0; g < n && rc == 0 && *queued < room; g++)
		if (waiting[g] <= ahead / 2)
			rc = top_up_game(w, games[g], ahead, room, queued, err);
	return rc;
}
