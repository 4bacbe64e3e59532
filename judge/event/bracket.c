/* bracket.c - single and double elimination brackets (bracket.h). */
#include "judge/event/bracket.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/seed.h"

#define UNKNOWN BRK_UNKNOWN

enum src_kind { SRC_SEED, SRC_WINNER, SRC_LOSER };

struct src {
	enum src_kind kind;
	int at; /* a seed (0 = the best) or a series */
};

struct series {
	char bracket;
	int round;
	struct src from[2];
	int loser_level; /* how far its loser lasted; 0: the loser drops, not out */
	/* as the record decides it */
	int64_t p[2];
	int64_t winner, loser; /* UNKNOWN until decided */
	bool skipped;          /* a reset that was not needed */
	int wins[2], played;
};

struct shape {
	struct series s[2 * BRK_MAX + 2];
	int n;
	int champion_level;
};

/* Seeds in bracket order: 1 meets the last, and 1 and 2 can meet only in
 * the final (each half of the order holds one of them). */
static void seed_order(int size, int *order)
{
	order[0] = 0;
	for (int len = 1; len < size; len *= 2)
		for (int i = len - 1; i >= 0; i--) {
			order[2 * i] = order[i];
			order[2 * i + 1] = 2 * len - 1 - order[i];
		}
}

static int add(struct shape *sh, char bracket, int round, struct src a, struct src b, int level)
{
	sh->s[sh->n] = (struct series){ .bracket = bracket, .round = round, .from = { a, b },
					.loser_level = level, .winner = UNKNOWN,
					.loser = UNKNOWN };
	return sh->n++;
}

static struct src from(enum src_kind kind, int at)
{
	return (struct src){ kind, at };
}

/* The winners' bracket; wb[j - 1][i] is round j's series i.  Its final's
 * index is returned. */
static int build_winners(struct shape *sh, int rounds, bool dbl, int wb[][BRK_MAX / 2])
{
	int size = 1 << rounds, order[BRK_MAX];
	seed_order(size, order);
	for (int j = 1; j <= rounds; j++)
		for (int i = 0; i < size >> j; i++) {
			struct src a = j == 1 ? from(SRC_SEED, order[2 * i])
					      : from(SRC_WINNER, wb[j - 2][2 * i]);
			struct src b = j == 1 ? from(SRC_SEED, order[2 * i + 1])
					      : from(SRC_WINNER, wb[j - 2][2 * i + 1]);
			wb[j - 1][i] = add(sh, 'W', j, a, b, dbl ? 0 : j);
		}
	return wb[rounds - 1][0];
}

/* The losers' bracket: its champion's source. */
static struct src build_losers(struct shape *sh, int rounds, int wb[][BRK_MAX / 2])
{
	if (rounds == 1)
		return from(SRC_LOSER, wb[0][0]);
	int size = 1 << rounds, prev[BRK_MAX / 2], cur[BRK_MAX / 2];
	for (int i = 0; i < size / 4; i++)
		prev[i] = add(sh, 'L', 1, from(SRC_LOSER, wb[0][2 * i]),
			      from(SRC_LOSER, wb[0][2 * i + 1]), 1);
	for (int k = 1; k < rounds; k++) {
		int m = size >> (k + 1);
		for (int i = 0; i < m; i++) /* the drops of round k + 1, reversed */
			cur[i] = add(sh, 'L', 2 * k, from(SRC_WINNER, prev[i]),
				     from(SRC_LOSER, wb[k][m - 1 - i]), 2 * k);
		if (k == rounds - 1)
			return from(SRC_WINNER, cur[0]);
		for (int i = 0; i < m / 2; i++)
			prev[i] = add(sh, 'L', 2 * k + 1, from(SRC_WINNER, cur[2 * i]),
				      from(SRC_WINNER, cur[2 * i + 1]), 2 * k + 1);
	}
	return from(SRC_WINNER, cur[0]); /* not reached */
}

static void build(struct shape *sh, const struct brk_rules *r, int n)
{
	int rounds = 1;
	while (1 << rounds < n)
		rounds++;
	_Static_assert(BRK_MAX <= 256, "wb below is sized for 8 rounds");
	int wb[8][BRK_MAX / 2];
	sh->n = 0;
	int final = build_winners(sh, rounds, r->double_elim, wb);
	if (!r->double_elim) {
		sh->champion_level = rounds + 1;
		return;
	}
	struct src lb = build_losers(sh, rounds, wb);
	int last = 2 * rounds - 1;
	int gf = add(sh, 'F', 1, from(SRC_WINNER, final), lb, last);
	if (r->reset)
		add(sh, 'R', 1, from(SRC_WINNER, gf), from(SRC_LOSER, gf), last);
	sh->champion_level = last + 1;
}

/* ---- reading the record ------------------------------------------------- */

static int64_t resolve(const struct shape *sh, struct src src, const int64_t *entrants, int n)
{
	if (src.kind == SRC_SEED)
		return src.at < n ? entrants[src.at] : BRK_BYE;
	const struct series *s = &sh->s[src.at];
	return src.kind == SRC_WINNER ? s->winner : s->loser;
}

static int seed_of(const int64_t *entrants, int n, int64_t who)
{
	for (int i = 0; i < n; i++)
		if (entrants[i] == who)
			return i;
	return n;
}

struct tally {
	int wins[2], played;
	bool recorded[64];
};

static int count_games(const struct series *s, int idx, const struct brk_game *games,
		       int ngames, struct tally *t, err_t err)
{
	memset(t, 0, sizeof *t);
	for (int k = 0; k < ngames; k++) {
		const struct brk_game *g = &games[k];
		if (g->series != idx)
			continue;
		if (g->game < 0 || g->game >= 64 ||
		    (g->winner != BRK_BYE && g->winner != s->p[0] && g->winner != s->p[1])) {
			err_set(err, "game %d of series %d: winner %lld did not play it",
				 g->game, idx, (long long)g->winner);
			return -1;
		}
		if (t->recorded[g->game])
			continue;
		t->recorded[g->game] = true;
		t->played++;
		t->wins[0] += g->winner == s->p[0];
		t->wins[1] += g->winner == s->p[1];
	}
	return 0;
}

static void decide(struct series *s, int w)
{
	s->winner = s->p[w];
	s->loser = s->p[1 - w];
}

static int add_todo(struct brk_plan *plan, const struct series *s, int idx, int game,
		    uint64_t seed)
{
	struct brk_todo *t = realloc(plan->todo, (size_t)(plan->ntodo + 1) * sizeof *t);
	if (!t)
		return -1;
	plan->todo = t;
	bool swap = game % 2; /* seats alternate from game to game */
	t[plan->ntodo++] = (struct brk_todo){
		.series = idx, .game = game, .bracket = s->bracket, .round = s->round,
		.first = s->p[swap], .second = s->p[!swap],
		.seed = seed_derive(seed_derive(seed, "bracket series", (unsigned)idx), "game",
				    (unsigned)game) >> 2,
	};
	return 0;
}

/* A series whose players are known: decided by byes or its games, or the
 * games that could decide it go to the plan. */
static int play_series(const struct brk_rules *r, struct series *s, int idx,
		       const int64_t *entrants, int n, uint64_t seed, const struct brk_game *games,
		       int ngames, struct brk_plan *plan, err_t err)
{
	if (s->p[0] == BRK_BYE || s->p[1] == BRK_BYE) {
		decide(s, s->p[0] == BRK_BYE);
		return 0;
	}
	struct tally t;
	if (count_games(s, idx, games, ngames, &t, err) < 0)
		return -1;
	s->wins[0] = t.wins[0];
	s->wins[1] = t.wins[1];
	s->played = t.played;
	int majority = r->best_of / 2 + 1;
	for (int w = 0; w < 2; w++)
		if (t.wins[w] >= majority) {
			decide(s, w);
			return 0;
		}
	if (t.played >= 2 * r->best_of) {
		decide(s, seed_of(entrants, n, s->p[1]) < seed_of(entrants, n, s->p[0]));
		return 0;
	}
	int need = majority - (t.wins[0] > t.wins[1] ? t.wins[0] : t.wins[1]);
	for (int g = 0; need > 0 && g < 64; g++)
		if (!t.recorded[g]) {
			if (add_todo(plan, s, idx, g, seed) < 0) {
				err_set(err, "out of memory planning a bracket");
				return -1;
			}
			need--;
		}
	return 0;
}

static int walk(const struct brk_rules *r, struct shape *sh, const int64_t *entrants, int n,
		uint64_t seed, const struct brk_game *games, int ngames, struct brk_plan *plan,
		err_t err)
{
	for (int i = 0; i < sh->n; i++) {
		struct series *s = &sh->s[i];
		s->p[0] = resolve(sh, s->from[0], entrants, n);
		s->p[1] = resolve(sh, s->from[1], entrants, n);
		if (s->p[0] == UNKNOWN || s->p[1] == UNKNOWN)
			continue;
		/* the reset is played only when the losers' champion won */
		if (s->bracket == 'R' && sh->s[s->from[0].at].winner == sh->s[s->from[0].at].p[0]) {
			s->skipped = true;
			continue;
		}
		if (play_series(r, s, i, entrants, n, seed, games, ngames, plan, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- the outcome --------------------------------------------------------- */

static int champion_of(const struct shape *sh)
{
	for (int i = sh->n - 1; i >= 0; i--)
		if (!sh->s[i].skipped)
			return i;
	return 0;
}

static void places(const struct shape *sh, const int64_t *entrants, int n, struct brk_plan *plan)
{
	const struct series *last = &sh->s[champion_of(sh)];
	if (last->winner == UNKNOWN)
		return;
	int level[n];
	for (int i = 0; i < n; i++)
		level[i] = entrants[i] == last->winner ? sh->champion_level : 0;
	for (int k = 0; k < sh->n; k++)
		for (int i = 0; i < n; i++)
			if (sh->s[k].loser == entrants[i] && sh->s[k].loser_level > level[i])
				level[i] = sh->s[k].loser_level;
	for (int i = 0; i < n; i++) {
		plan->place[i] = 1;
		for (int j = 0; j < n; j++)
			plan->place[i] += level[j] > level[i];
	}
	plan->done = true;
	plan->champion = last->winner;
}

static int describe(const struct shape *sh, struct brk_plan *plan)
{
	plan->series = calloc(sh->n > 0 ? (size_t)sh->n : 1, sizeof *plan->series);
	if (!plan->series)
		return -1;
	for (int i = 0; i < sh->n; i++) {
		const struct series *s = &sh->s[i];
		plan->series[i] = (struct brk_series){
			.bracket = s->bracket, .round = s->round, .player = { s->p[0], s->p[1] },
			.wins = { s->wins[0], s->wins[1] }, .played = s->played,
			.winner = s->winner, .skipped = s->skipped,
		};
	}
	plan->nseries = sh->n;
	return 0;
}

static int check(const struct brk_rules *r, const int64_t *entrants, int n,
		 const struct brk_game *games, int ngames, int nseries, err_t err)
{
	if (r->best_of < 1 || r->best_of % 2 == 0 || r->best_of > 31 || n < 2 || n > BRK_MAX) {
		err_set(err, "a bracket needs 2 to %d entrants and series of an odd "
			 "number of games up to 31 (%d entrants, best of %d)", BRK_MAX, n, r->best_of);
		return -1;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j <= i; j++)
			if (entrants[i] <= 0 || (j < i && entrants[j] == entrants[i])) {
				err_set(err, "entrant %lld is %s", (long long)entrants[i],
					 entrants[i] <= 0 ? "not a player id" : "listed twice");
				return -1;
			}
	for (int k = 0; k < ngames; k++)
		if (games[k].series < 0 || games[k].series >= nseries) {
			err_set(err, "a game of series %d, which this bracket does not "
				 "have", games[k].series);
			return -1;
		}
	return 0;
}

int brk_plan(const struct brk_rules *r, const int64_t *entrants, int n, uint64_t seed,
	     const struct brk_game *games, int ngames, struct brk_plan *plan,
	     err_t err)
{
	*plan = (struct brk_plan){ 0 };
	if (check(r, entrants, n, NULL, 0, 0, err) < 0)
		return -1;
	struct shape *sh = malloc(sizeof *sh);
	plan->place = calloc((size_t)n, sizeof *plan->place);
	int rc = -1;
	if (!sh || !plan->place)
		err_set(err, "out of memory planning a bracket");
	else {
		build(sh, r, n);
		rc = check(r, entrants, n, games, ngames, sh->n, err);
		rc = rc ? rc : walk(r, sh, entrants, n, seed, games, ngames, plan, err);
	}
	if (rc == 0 && describe(sh, plan) < 0) {
		err_set(err, "out of memory planning a bracket");
		rc = -1;
	}
	if (rc == 0)
		places(sh, entrants, n, plan);
	free(sh);
	if (rc < 0)
		brk_plan_free(plan);
	return rc;
}

void brk_plan_free(struct brk_plan *plan)
{
	free(plan->todo);
	free(plan->place);
	free(plan->series);
	*plan = (struct brk_plan){ 0 };
}
