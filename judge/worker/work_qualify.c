/* work_qualify.c - a submission's qualification, step after step, in the
 * course's order: compiled, then a match of copies of itself (self_match;
 * a copy frozen refuses it), then `matches` matches against the opponent
 * in the other seats, `wins` of them won.  A tournament whose
 * qualification phase is under way for the game sets the steps
 * (event_qualification); else the judge's own worker.qualify_* do, with no
 * match of copies.  The steps travel in every qualifying match's payload,
 * so an opponent swapped meanwhile changes nothing for a submission
 * already on its way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "games/seed.h"
#include "judge/event/run.h"
#include "judge/play/match.h"
#include "judge/worker/work.h"

/* The seed index of the match of copies; the opponent matches take 0..99. */
#define SELF_MATCH_SEED 1000

static void configured_steps(const struct work *w, struct event_qualify *q)
{
	const struct cfg_worker *c = &w->o->cfg->worker;
	*q = (struct event_qualify){ .matches = (int)c->qualify_matches,
				     .wins = (int)c->qualify_wins };
	snprintf(q->opponent, sizeof q->opponent, "%s", c->qualify_opponent);
}

static json_t *steps_json(const struct event_qualify *q)
{
	return json_pack("{s:s, s:b, s:i, s:i, s:s}", "tournament", q->tournament, "self_match",
			 q->self_match, "matches", q->matches, "wins", q->wins, "opponent",
			 q->opponent);
}

/* The steps a qualifying match's payload carries (a match queued before
 * they did: the judge's own). */
static void payload_steps(const struct work *w, struct event_qualify *q)
{
	json_t *j = json_object_get(w->payload, "qualify");
	configured_steps(w, q);
	if (!json_is_object(j))
		return;
	const char *t = json_string_value(json_object_get(j, "tournament"));
	const char *o = json_string_value(json_object_get(j, "opponent"));
	snprintf(q->tournament, sizeof q->tournament, "%s", t ? t : "");
	if (o)
		snprintf(q->opponent, sizeof q->opponent, "%s", o);
	q->self_match = json_is_true(json_object_get(j, "self_match"));
	q->matches = (int)json_integer_value(json_object_get(j, "matches"));
	q->wins = (int)json_integer_value(json_object_get(j, "wins"));
}

/* Four seats where the game allows them (the course games need them;
 * Blitz plays 2 to 6), else the fewest it allows. */
static int seats_of(const char *game)
{
	const struct game *g = game_find(game);
	return !g || game_players_ok(g, 4) ? 4 : game_min_players(g);
}

/* One qualifying match: every seat the submission's (the match of copies),
 * or seat k % n the submission's and the opponent in the others, so that
 * no board corner favours it.  The seed is fresh (or follows from the
 * organiser's secret): a player that could guess it would know the
 * engine's random choices (games/seed.h). */
static int queue_match(struct work *w, int64_t sub, const char *game,
		       const struct event_qualify *q, bool self, unsigned k,
		       err_t err)
{
	const struct cfg_worker *c = &w->o->cfg->worker;
	int n = seats_of(game);
	json_t *seats = json_array();
	for (int seat = 0; seat < n; seat++)
		json_array_append_new(seats, self || seat == (int)(k % (unsigned)n)
				      ? json_pack("{s:I}", "submission", (json_int_t)sub)
				      : json_pack("{s:s}", "house", q->opponent));
	uint64_t seed = c->seed_secret[0] ? seed_derive((uint64_t)sub, c->seed_secret, k) >> 2
					  : seed_fresh();
	json_t *p = json_pack("{s:s, s:s, s:I, s:o, s:s, s:o}", "kind", "qualifying", "game", game,
			      "seed", (json_int_t)seed, "seats", seats, "step",
			      self ? "self" : "opponent", "qualify", steps_json(q));
	char *text = p ? json_dumps(p, JSON_COMPACT) : NULL;
	int rc = text ? store_enqueue(w->store, "match", text, SCHED_QUALIFYING, 0, NULL, err) : -1;
	if (!text)
		err_set(err, "out of memory");
	free(text);
	json_decref(p);
	return rc < 0 ? -1 : 0;
}

/* The matches against the opponent, or, when none are asked, the verdict. */
static int queue_opponent_matches(struct work *w, int64_t sub, const char *game,
				  const struct event_qualify *q, err_t err)
{
	if (q->matches == 0)
		return work_conclude(w, sub, true, "qualified: no match against an opponent asked",
				     err);
	for (int k = 0; k < q->matches; k++)
		if (queue_match(w, sub, game, q, false, (unsigned)k, err) < 0)
			return -1;
	return 0;
}

int work_qualify_begin(struct work *w, const struct store_submission *sub,
		       err_t err)
{
	struct event_qualify q;
	int found = event_qualification(w->store, sub->game, &q, err);
	if (found < 0)
		return -1;
	if (found == 0)
		configured_steps(w, &q);
	return q.self_match ? queue_match(w, sub->id, sub->game, &q, true, SELF_MATCH_SEED, err)
			    : queue_opponent_matches(w, sub->id, sub->game, &q, err);
}

/* The match of copies is passed when no copy was frozen. */
static int after_self_match(struct work *w, int64_t sub, const char *game,
			    const struct event_qualify *q, const struct match_result *r,
			    char *note, size_t cap, err_t err)
{
	for (int i = 0; i < r->nplayers; i++) {
		const struct match_seat *s = &r->seat[i];
		if (!s->frozen)
			continue;
		char why[320], round[32] = "before its first round";
		if (s->frozen_round >= 0)
			snprintf(round, sizeof round, "at round %d", s->frozen_round);
		snprintf(why, sizeof why, "not qualified at the match of copies of itself: a copy "
			 "of your player was frozen %s: %.200s", round, s->reason);
		snprintf(note, cap, "%s", why);
		return work_conclude(w, sub, false, why, err);
	}
	snprintf(note, cap, "the match of copies passed; %d against %s queued", q->matches,
		 q->opponent);
	return queue_opponent_matches(w, sub, game, q, err);
}

static int after_opponent_match(struct work *w, int64_t sub, const struct event_qualify *q,
				char *note, size_t cap, err_t err)
{
	int played, wins;
	char why[256];
	if (store_qualifying_record(w->store, sub, &played, &wins, err) < 0)
		return -1;
	if (played < q->matches) {
		snprintf(note, cap, "%d of %d qualifying matches played", played, q->matches);
		return 0;
	}
	bool passed = wins >= q->wins;
	snprintf(why, sizeof why, "%s against %s: won %d of %d, %d needed",
		 passed ? "qualified" : "not qualified", q->opponent, wins, played, q->wins);
	snprintf(note, cap, "%s", why);
	return work_conclude(w, sub, passed, why, err);
}

int work_qualify_after(struct work *w, int64_t sub, const char *game,
		       const struct match_result *r, char *note, size_t cap,
		       err_t err)
{
	struct event_qualify q;
	payload_steps(w, &q);
	const char *step = json_string_value(json_object_get(w->payload, "step"));
	if (step && strcmp(step, "self") == 0)
		return after_self_match(w, sub, game, &q, r, note, cap, err);
	return after_opponent_match(w, sub, &q, note, cap, err);
}
