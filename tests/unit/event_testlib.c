/* event_testlib.c - a simulated worker for the tournament tests
 * (event_testlib.h). */
#include "tests/unit/event_testlib.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/event/run.h"
#include "judge/store/store_tournament.h"
#include "tests/unit/db_testlib.h"

/* A qualified player of author "sN" (its strength: N). */
int64_t event_sim_player(struct store *s, const struct event_sim *sim, int n)
{
	char author[16], name[16], sha[16];
	err_t err = {0};
	snprintf(author, sizeof author, "s%d", n);
	snprintf(name, sizeof name, "P%d", n);
	snprintf(sha, sizeof sha, "%08x", n);
	struct store_new_submission sub = { .game = sim->game, .author = author, .name = name,
					    .source = "int x;", .source_len = 6,
					    .source_sha256 = sha };
	int64_t id;
	struct store_submission row;
	cr_assert_eq(store_submit(s, &sub, &id, err), 0, "%s", err->msg);
	cr_assert_eq(store_get_submission(s, id, &row, err), 1, "%s", err->msg);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	cr_assert_eq(store_conclude_qualification(s, &row, true, 25, 8, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	teststore_run(s, "DELETE FROM jobs WHERE kind = 'compile'");
	return id;
}

/* A tournament of spec with n students, each with a representative;
 * started. */
int64_t event_sim_tournament(struct store *s, const struct event_sim *sim, const char *name,
			     json_t *spec, int n, uint64_t seed)
{
	err_t err = {0};
	err_t eerr = {0};
	int64_t t;
	cr_assert_eq(store_tournament_create(s, sim->game, name, spec, seed, &t, err), 0, "%s", err->msg);
	json_decref(spec);
	for (int i = 1; i <= n; i++) {
		char author[16];
		snprintf(author, sizeof author, "s%d", i);
		int64_t sub = teststore_int(s, "SELECT COALESCE(MAX(id), 0) FROM submissions"
					       " WHERE author = 's%d'", i);
		if (!sub)
			sub = event_sim_player(s, sim, i);
		cr_assert_eq(store_entrant_add(s, t, author, i % 2 ? "A" : "B", NULL, err), 1, "%s",
			     err->msg);
		cr_assert_eq(store_entrant_pick(s, t, author, sub, err), 1, "%s", err->msg);
	}
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	cr_assert_eq(event_start(s, t, 1000, eerr), 1, "%s", eerr->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	return t;
}

/* The strength of a seat of a job's payload: the student's number, 50 for
 * the opponent; the score adds a little luck from the match seed. */
static int64_t seat_score(struct store *s, const struct event_sim *sim, json_t *seat,
			  uint64_t seed, int k)
{
	json_t *sub = json_object_get(seat, "submission");
	int64_t n = sub ? teststore_int(s, "SELECT CAST(SUBSTR(name, 2) AS INTEGER) FROM submissions"
					" WHERE id = %lld", (long long)json_integer_value(sub)) : 0;
	if (sim->favourites)
		return sub ? 1000 - n : 0;
	int64_t strength = sub ? n * 7 % 100 : 50;
	return strength * 10 + (int64_t)((seed >> (8 * k)) % 400);
}

/* Claims one tournament job and records a result for it, as the worker
 * does, in one transaction; commit false rolls it back (a worker killed
 * before its commit).  0 when no job waits. */
int event_sim_play(struct store *s, const struct event_sim *sim, bool commit)
{
	char note[256];
	err_t err = {0};
	err_t eerr = {0};
	struct store_job job;
	int got = store_claim(s, "w1", 60000, 5, &job, err);
	cr_assert_geq(got, 0, "%s", err->msg);
	if (!got)
		return 0;
	json_t *p = json_loads(job.payload, 0, NULL);
	cr_assert_str_eq(json_string_value(json_object_get(p, "kind")), "tournament");
	uint64_t seed = (uint64_t)json_integer_value(json_object_get(p, "seed"));
	json_t *seats = json_object_get(p, "seats");
	int64_t score[8];
	for (size_t k = 0; k < json_array_size(seats); k++)
		score[k] = seat_score(s, sim, json_array_get(seats, k), seed, (int)k);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	cr_assert_eq(store_complete(s, job.id, "w1", err), 0, "%s", err->msg);
	struct store_new_match m = { .job = job.id, .game = sim->game, .kind = "tournament",
				     .seed = (int64_t)seed, .replay = "x", .replay_len = 1 };
	int64_t match;
	cr_assert_eq(store_add_match(s, &m, &match, err), 0, "%s", err->msg);
	for (size_t k = 0; k < json_array_size(seats); k++) {
		int rank = 1;
		for (size_t j = 0; j < json_array_size(seats); j++)
			rank += score[j] > score[k];
		json_t *sub = json_object_get(json_array_get(seats, k), "submission");
		struct store_match_player mp = { .seat = (int)k,
						 .submission = sub ? json_integer_value(sub) : 0,
						 .name = sub ? "x" : "Dummy", .score = score[k],
						 .rank = rank, .frozen_round = -1 };
		cr_assert_eq(store_add_match_player(s, match, &mp, err), 0, "%s", err->msg);
	}
	cr_assert_eq(event_match_recorded(s, job.id, match, note, sizeof note, eerr), 1, "%s",
		     eerr->msg);
	if (commit)
		cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	else
		store_rollback(s);
	json_decref(p);
	store_job_clear(&job);
	return 1;
}

int event_sim_run(struct store *s, const struct event_sim *sim, int most)
{
	int played = 0;
	while (played < most && event_sim_play(s, sim, true))
		played++;
	return played;
}

