/* challenge.c - checks a contestant's challenge and queues its matches
 * (challenge.h). */
#include "judge/event/challenge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/seed.h"
#include "judge/base/paths.h"
#include "judge/store/store_challenge.h"

int challenge_from_json(const json_t *body, const char *author, struct challenge_request *rq,
			err_t err)
{
	static const char usage[] = "send {\"game\": \"GAME\", \"player\": \"YOUR PLAYER\", "
				    "\"seats\": [\"YOUR PLAYER\", \"Dummy\", ...], \"seeds\": N}";
	json_t *seats = json_object_get(body, "seats"), *seeds = json_object_get(body, "seeds");
	*rq = (struct challenge_request){ .author = author, .seeds = 1,
		.game = json_string_value(json_object_get(body, "game")),
		.player = json_string_value(json_object_get(body, "player")) };
	if (!json_is_object(body) || !rq->game || !rq->player || !json_is_array(seats) ||
	    (seeds && !json_is_integer(seeds))) {
		err_set(err, "%s", usage);
		return -1;
	}
	if (json_array_size(seats) > GAME_MAX_PLAYERS) {
		err_set(err, "a match has at most %d seats", GAME_MAX_PLAYERS);
		return -1;
	}
	rq->nseats = (int)json_array_size(seats);
	for (int i = 0; i < rq->nseats; i++)
		if (!(rq->seats[i] = json_string_value(json_array_get(seats, (size_t)i)))) {
			err_set(err, "seat %d is not a player's name: %s", i, usage);
			return -1;
		}
	if (seeds) {
		json_int_t n = json_integer_value(seeds);
		rq->seeds = n < 0 || n > CHALLENGE_SEEDS_MAX ? -1 : (int)n;
	}
	return 0;
}

/* ---- checking the request ---------------------------------------------------- */

struct plan {
	const struct challenge_request *rq;
	int64_t own;                          /* the challenger's submission */
	json_t *seats;                        /* the match job's seats */
};

static enum challenge_outcome refuse(enum challenge_outcome why, err_t err,
				     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static enum challenge_outcome refuse(enum challenge_outcome why, err_t err,
				     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return why;
}

static enum challenge_outcome check_shape(const struct challenge_request *rq,
					  const struct cfg_contest *contest,
					  err_t err)
{
	const struct game *g = game_find(rq->game);
	if (!g)
		return refuse(CHALLENGE_INVALID, err, "there is no game '%.32s'", rq->game);
	if (!game_players_ok(g, rq->nseats))
		return refuse(CHALLENGE_INVALID, err, "a match of %s seats %d to %d players, not %d:"
			      " name one player per seat", g->name, game_min_players(g),
			      game_max_players(g), rq->nseats);
	if (rq->seeds < 1)
		return refuse(CHALLENGE_INVALID, err, "ask for 1 to %d seeds (one match each)",
			      CHALLENGE_SEEDS_MAX);
	if (contest->challenges_per_hour == 0)
		return refuse(CHALLENGE_FORBIDDEN, err, "this contest takes no challenges "
			      "(contest.challenges_per_hour is 0)");
	if (rq->seeds > (int)contest->challenges_per_hour)
		return refuse(CHALLENGE_INVALID, err, "you may queue at most %u challenge matches "
			      "an hour: ask for fewer seeds", contest->challenges_per_hour);
	return CHALLENGE_QUEUED;
}

static enum challenge_outcome find_own(struct store *s, struct plan *p,
				       err_t err)
{
	struct store_player_now now;
	int found = store_player_now(s, p->rq->game, p->rq->player, false, &now, err);
	if (found < 0)
		return CHALLENGE_FAILED;
	if (found == 0)
		return refuse(CHALLENGE_INVALID, err, "you have no compiled player '%.32s' in %s: "
			      "upload it first, and wait for its compile", p->rq->player, p->rq->game);
	if (strcmp(now.author, p->rq->author) != 0)
		return refuse(CHALLENGE_FORBIDDEN, err, "'%.32s' is another author's player: "
			      "challenge with your own", p->rq->player);
	p->own = now.submission;
	return CHALLENGE_QUEUED;
}

/* One seat's entry in the match job: the challenger, a shipped player, or
 * another contestant's qualified player. */
static enum challenge_outcome seat_entry(struct store *s, const struct plan *p,
					 const struct cfg_contest *contest, const char *data_dir,
					 const char *name, json_t **entry, err_t err)
{
	char path[PATH_MAX];
	if (strcmp(name, p->rq->player) == 0) {
		*entry = json_pack("{s:I}", "submission", (json_int_t)p->own);
		return CHALLENGE_QUEUED;
	}
	if (paths_shipped_player(data_dir, p->rq->game, name, path)) {
		*entry = json_pack("{s:s}", "house", name);
		return CHALLENGE_QUEUED;
	}
	if (contest->frozen)
		return refuse(CHALLENGE_FORBIDDEN, err, "the contest is frozen: until it ends, "
			      "challenges meet only the shipped players (Demo, Dummy, Null), not "
			      "'%.32s'", name);
	struct store_player_now now;
	int found = store_player_now(s, p->rq->game, name, true, &now, err);
	if (found < 0)
		return CHALLENGE_FAILED;
	if (found == 0)
		return refuse(CHALLENGE_INVALID, err, "there is no qualified player '%.32s' in %s "
			      "to challenge: opponents are qualified players and the shipped Demo, "
			      "Dummy and Null", name, p->rq->game);
	*entry = json_pack("{s:I}", "submission", (json_int_t)now.submission);
	return CHALLENGE_QUEUED;
}

static enum challenge_outcome plan_seats(struct store *s, struct plan *p,
					 const struct cfg_contest *contest, const char *data_dir,
					 err_t err)
{
	bool seated = false;
	p->seats = json_array();
	for (int i = 0; i < p->rq->nseats; i++) {
		json_t *entry = NULL;
		enum challenge_outcome rc = seat_entry(s, p, contest, data_dir, p->rq->seats[i],
						       &entry, err);
		if (rc != CHALLENGE_QUEUED)
			return rc;
		seated |= strcmp(p->rq->seats[i], p->rq->player) == 0;
		json_array_append_new(p->seats, entry);
	}
	if (!seated)
		return refuse(CHALLENGE_INVALID, err, "your player '%.32s' takes no seat: put it "
			      "in at least one", p->rq->player);
	return CHALLENGE_QUEUED;
}

/* ---- the limit and the queue ----------------------------------------------------- */

/* Inside the transaction: may rq's matches be queued at now?  When not,
 * out->next_allowed_ms is the time enough of the last hour's age out. */
static enum challenge_outcome check_limit(struct store *s, const struct plan *p,
					  const struct cfg_contest *contest, int64_t now,
					  struct challenge_queued *out, err_t err)
{
	int64_t *times;
	size_t n;
	if (store_challenge_times(s, p->rq->author, now - CHALLENGE_HOUR_MS + 1, &times, &n,
				  err) < 0)
		return CHALLENGE_FAILED;
	size_t limit = contest->challenges_per_hour, want = (size_t)p->rq->seeds;
	if (n + want <= limit) {
		free(times);
		return CHALLENGE_QUEUED;
	}
	out->next_allowed_ms = times[n + want - limit - 1] + CHALLENGE_HOUR_MS;
	free(times);
	time_t at = (time_t)(out->next_allowed_ms / 1000);
	struct tm tm;
	char when[32];
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&at, &tm));
	return refuse(CHALLENGE_LIMITED, err, "you queued %zu challenge matches in the last hour "
		      "and may queue %zu an hour (contest.challenges_per_hour): %d more may be "
		      "queued from %s, in %lld min", n, limit, p->rq->seeds, when,
		      (long long)((out->next_allowed_ms - now + 59999) / 60000));
}

static int queue_matches(struct store *s, const struct plan *p, struct challenge_queued *out,
			 err_t err)
{
	char *seats = json_dumps(p->seats, JSON_COMPACT);
	int rc = seats ? 0 : -1;
	for (int k = 0; k < p->rq->seeds && rc == 0; k++) {
		int64_t seed = (int64_t)(seed_fresh() >> 2);
		json_t *job = json_pack("{s:s, s:s, s:I, s:O, s:s}", "kind", "challenge", "game",
					p->rq->game, "seed", (json_int_t)seed, "seats", p->seats,
					"challenger", p->rq->author);
		char *payload = job ? json_dumps(job, JSON_COMPACT) : NULL;
		struct store_new_challenge c = { .author = p->rq->author, .game = p->rq->game,
			.submission = p->own, .seats = seats, .seed = seed, .payload = payload };
		rc = payload ? store_add_challenge(s, &c, &out->jobs[k], err) : -1;
		if (rc == 0)
			out->n++;
		else if (!payload)
			err_set(err, "out of memory");
		free(payload);
		json_decref(job);
	}
	free(seats);
	if (!seats)
		err_set(err, "out of memory");
	return rc;
}

enum challenge_outcome challenge_queue(struct store *s, const struct cfg_contest *contest,
				       const char *data_dir, const struct challenge_request *rq,
				       int64_t now, struct challenge_queued *out,
				       err_t err)
{
	struct plan p = { .rq = rq };
	*out = (struct challenge_queued){ 0 };
	enum challenge_outcome rc = check_shape(rq, contest, err);
	if (rc == CHALLENGE_QUEUED)
		rc = find_own(s, &p, err);
	if (rc == CHALLENGE_QUEUED)
		rc = plan_seats(s, &p, contest, data_dir, err);
	if (rc == CHALLENGE_QUEUED && store_begin(s, err) < 0)
		rc = CHALLENGE_FAILED;
	else if (rc == CHALLENGE_QUEUED) {
		rc = check_limit(s, &p, contest, now, out, err);
		if (rc == CHALLENGE_QUEUED && queue_matches(s, &p, out, err) < 0)
			rc = CHALLENGE_FAILED;
		if (rc == CHALLENGE_QUEUED && store_commit(s, err) < 0)
			rc = CHALLENGE_FAILED;
		if (rc != CHALLENGE_QUEUED) {
			store_rollback(s);
			out->n = 0;
		}
	}
	json_decref(p.seats);
	if (rc == CHALLENGE_QUEUED)
		err_set(err, "%d challenge match%s of %.32s queued", out->n,
			 out->n == 1 ? "" : "es", rq->player);
	return rc;
}
