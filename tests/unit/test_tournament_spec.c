/* test_tournament_spec.c - a tournament's phases read from the organiser's
 * JSON (judge/event/tournament.c), and its grades. */
#include <criterion/criterion.h>

#include <string.h>

#include "judge/event/tournament.h"

static int parse(const char *text, int lo, int hi, struct tour_spec *s, struct err *err)
{
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);
	cr_assert(j, "bad JSON in the test: %s", jerr.text);
	int rc = tour_spec_parse(j, lo, hi, s, err);
	json_decref(j);
	return rc;
}

Test(tournament_spec, the_course_reads_back_as_it_was_written)
{
	err_t err;
	struct tour_spec course, again;
	tour_spec_course(&course);
	json_t *j = tour_spec_json(&course);
	cr_assert_eq(tour_spec_parse(j, 4, 4, &again, err), 0, "%s", err->msg);
	json_t *k = tour_spec_json(&again);
	cr_expect(json_equal(j, k), "%s\n%s", json_dumps(j, 0), json_dumps(k, 0));
	cr_expect_eq(again.nphases, 3);
	cr_expect_eq(again.phase[1].kind, TOUR_ELIMINATION);
	cr_expect_eq(again.phase[1].remain, 11);
	cr_expect_eq(again.phase[1].elim.beats, 2);
	cr_expect_eq(again.phase[2].final_matches, 5);
	json_decref(j);
	json_decref(k);
}

Test(tournament_spec, a_contest_with_a_deadline_and_a_bracket)
{
	err_t err;
	struct tour_spec s;
	cr_assert_eq(parse("{\"phases\": [{\"kind\": \"ladder\"},"
			   " {\"kind\": \"bracket\", \"from\": \"top\", \"top\": 16, \"best_of\": 5,"
			   "  \"starts_at\": \"2026-12-01T18:00:00Z\"}]}", 2, 2, &s, err), 0, "%s", err->msg);
	cr_expect_eq(s.phase[1].from, TOUR_FROM_TOP);
	cr_expect_eq(s.phase[1].top, 16);
	cr_expect_eq(s.phase[1].bracket.best_of, 5);
	cr_expect(s.phase[1].bracket.double_elim, "double elimination unless told");
	cr_expect_eq(s.phase[1].starts_at, 1796148000000LL);
}

Test(tournament_spec, refusals_name_the_phase_and_the_setting)
{
	err_t err;
	struct tour_spec s;
	struct { const char *json; int lo, hi; const char *says; } bad[] = {
		{ "{\"phases\": [{\"kind\": \"elimination\", \"remian\": 3}]}", 4, 4,
		  "phase 1 (elimination): unknown setting 'remian'" },
		{ "{\"phases\": [{\"kind\": \"ladder\"}, {\"kind\": \"qualification\"}]}", 4, 4,
		  "phase 2 (qualification): a qualification can only be the first phase" },
		{ "{\"phases\": [{\"kind\": \"elimination\"}]}", 2, 6,
		  "a game of a fixed number of players" },
		{ "{\"phases\": [{\"kind\": \"bracket\"}]}", 4, 4, "a game two players can play" },
		{ "{\"phases\": [{\"kind\": \"bracket\", \"best_of\": 4}]}", 2, 2, "odd" },
		{ "{\"phases\": [{\"kind\": \"qualification\", \"deadline\": \"tomorrow\"}]}", 4, 4,
		  "deadline must be a UTC time" },
		{ "{\"phases\": [{\"kind\": \"qualification\", \"matches\": 3, \"wins\": 4}]}", 4, 4,
		  "wins must be a whole number from 0 to 3" },
		{ "{\"phases\": [{\"kind\": \"round-robin\", \"size\": 7}]}", 2, 6,
		  "size must be a whole number from 2 to 6" },
		{ "{\"phases\": [{\"kind\": \"knockout\"}]}", 4, 4, "kind must be one of" },
		{ "{\"phases\": []}", 4, 4, "1 to 8 phases" },
		{ "{\"grades\": {\"qualified\": 11}, \"phases\": [{\"kind\": \"ladder\"}]}", 4, 4,
		  "above \"max\"" },
		{ "{\"phases\": [{\"kind\": \"ladder\"}, {\"kind\": \"ladder\", \"from\": \"top\"}]}",
		  4, 4, "\"top\": how many" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err->msg[0] = '\0';
		cr_expect_eq(parse(bad[i].json, bad[i].lo, bad[i].hi, &s, err), -1, "%s accepted",
			     bad[i].json);
		cr_expect(strstr(err->msg, bad[i].says), "%s: said '%s', not '%s'", bad[i].json,
			  err->msg, bad[i].says);
	}
}

/* The course's mapping: 5 for qualifying, then in proportion to the rounds
 * survived, up to 10 for a finalist; copies and the unqualified get 0. */
Test(tournament_spec, grades_follow_the_rounds_survived)
{
	struct tour_grades g = { 0, 5, 10, 0 };
	cr_expect_eq(tour_grade(&g, false, false, 0, 29), 0);
	cr_expect_eq(tour_grade(&g, true, true, 0, 29), 0, "a confirmed copy");
	cr_expect_eq(tour_grade(&g, true, false, 1, 29), 5, "out in the first round");
	cr_expect_float_eq(tour_grade(&g, true, false, 29, 29), 5 + 5.0 * 28 / 29, 1e-9);
	cr_expect_eq(tour_grade(&g, true, false, 0, 29), 10, "a finalist");
	struct tour_grades strict = { 1, 4, 10, 0.5 };
	cr_expect_eq(tour_grade(&strict, true, true, 3, 10), 0.5);
	cr_expect_eq(tour_grade(&strict, false, false, 0, 10), 1);
}
