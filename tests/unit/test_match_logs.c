/* test_match_logs.c - the store keeps each seat's stderr of a match
 * (store_add_match_log, store_match_log), and a frozen seat's record
 * (store_add_match_fault, store_match_fault), on both backends: with the
 * match's result or not at all, read back with the seat's author, marked
 * in the submission's view, copied with the rest of a tournament.  match_logs on SQLite, match_logs_pg on
 * PostgreSQL (tests/unit/pg_testlib.h), the same test bodies. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/pg_testlib.h"

static struct test_target tt;

static void setup(void)
{
	test_target_sqlite(&tt, "test-match-logs");
}

static void setup_pg(void)
{
	test_target_pg(&tt, "test-match-logs");
}

static void teardown(void)
{
	test_target_remove(&tt);
}

TestSuite(match_logs, .init = setup, .fini = teardown);
TestSuite(match_logs_pg, .init = setup_pg, .fini = teardown, .timeout = 60);

/* A match job's result begun: the match, seat 0 a shipped player, seat 1
 * alice's submission (frozen in round 7, a crash, when asked).  The
 * transaction is left open. */
static int64_t begin_frozen_match(struct store *s, bool frozen)
{
	err_t err = {0};
	struct store_new_submission sub = { .game = "dominator", .author = "alice",
					    .name = "Alice", .source = "x", .source_len = 1,
					    .source_sha256 = "0" };
	int64_t id, job, match;
	cr_assert_eq(store_submit(s, &sub, &id, err), 0, "%s", err->msg);
	cr_assert_eq(store_enqueue(s, "match", "{}", SCHED_RANKED, 0, &job, err), 0, "%s",
		     err->msg);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	struct store_new_match m = { .job = job, .game = "dominator", .kind = "ranked", .seed = 1 };
	cr_assert_eq(store_add_match(s, &m, &match, err), 0, "%s", err->msg);
	for (int seat = 0; seat < 2; seat++) {
		bool crashed = frozen && seat == 1;
		struct store_match_player p = {
			.seat = seat, .submission = seat ? id : 0, .name = seat ? "Alice" : "Dummy",
			.rank = seat + 1, .verdict = crashed ? "signaled" : NULL,
			.frozen_round = crashed ? 7 : -1,
			.reason = crashed ? "crashed: killed by signal 11 (SIGSEGV)" : NULL,
			.cpu_ns = crashed ? 5678 : 0 };
		cr_assert_eq(store_add_match_player(s, match, &p, err), 0, "%s", err->msg);
	}
	return match;
}

static int64_t begin_match(struct store *s)
{
	return begin_frozen_match(s, false);
}

/* Bytes as a log is kept (their compression is the worker's business). */
static const char kept[] = "\x1f\x8b not really gzip \0 with a NUL";

BOTH(match_logs, a_seats_log_reads_back_with_its_author)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t match = begin_match(s);
	cr_assert_eq(store_add_match_log(s, match, 1, kept, sizeof kept, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	struct store_seat_log log;
	cr_assert_eq(store_match_log(s, match, 1, &log, err), 1, "%s", err->msg);
	cr_expect_str_eq(log.author, "alice");
	cr_assert_eq(log.len, sizeof kept);
	cr_expect_eq(memcmp(log.bytes, kept, sizeof kept), 0, "the bytes as stored");
	free(log.bytes);
	/* The shipped seat wrote nothing: a seat, no log, no author. */
	cr_assert_eq(store_match_log(s, match, 0, &log, err), 1, "%s", err->msg);
	cr_expect_null(log.bytes);
	cr_expect_str_eq(log.author, "");
	cr_expect_eq(store_match_log(s, match, 2, &log, err), 0, "no such seat");
	cr_expect_eq(store_match_log(s, match + 1, 0, &log, err), 0, "no such match");
	/* Alice's view of her submission says the match has her log. */
	json_t *v;
	cr_assert_eq(store_submission_view(s, 1, &v, err), 1, "%s", err->msg);
	json_t *m = json_array_get(json_object_get(v, "matches"), 0);
	cr_expect(json_is_true(json_object_get(m, "has_log")));
	json_decref(v);
	store_close(s);
}

BOTH(match_logs, a_result_rolled_back_leaves_no_log)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t match = begin_match(s);
	cr_assert_eq(store_add_match_log(s, match, 1, kept, sizeof kept, err), 0, "%s", err->msg);
	store_rollback(s);
	cr_expect_eq(teststore_int(s, "SELECT count(*) FROM match_logs"), 0);
	cr_expect_eq(teststore_int(s, "SELECT count(*) FROM matches"), 0);
	store_close(s);
}

BOTH(match_logs, a_seat_keeps_one_log)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t match = begin_match(s);
	cr_assert_eq(store_add_match_log(s, match, 1, kept, sizeof kept, err), 0, "%s", err->msg);
	cr_expect_eq(store_add_match_log(s, match, 1, kept, sizeof kept, err), -1,
		     "a second log for the same seat must be refused");
	store_rollback(s);
	store_close(s);
}

BOTH(match_logs, a_copied_store_keeps_the_logs)
{
	struct store *s = teststore_open(tt.where, true);
	char copy[128];
	err_t err = {0};
	int64_t match = begin_match(s);
	cr_assert_eq(store_add_match_log(s, match, 1, kept, sizeof kept, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	snprintf(copy, sizeof copy, "%s/copy.sqlite", tt.dir);
	struct store *to = teststore_open(copy, true);
	int64_t rows;
	cr_assert_eq(store_copy(s, to, &rows, err), 0, "%s", err->msg);
	struct store_seat_log log;
	cr_assert_eq(store_match_log(to, match, 1, &log, err), 1, "%s", err->msg);
	cr_assert_eq(log.len, sizeof kept);
	cr_expect_eq(memcmp(log.bytes, kept, sizeof kept), 0);
	free(log.bytes);
	store_close(to);
	store_close(s);
}

/* ---- a frozen seat's record (match_faults) ------------------------------------ */

static const struct store_fault record = { .message = 8, .turn_cpu_ns = 1234,
					   .cpu_budget_ns = 1000000000, .input_size = 2465,
					   .input = (uint8_t *)kept, .input_len = sizeof kept };

/* Seat 1 (alice's) frozen in round 7 with its record; committed. */
static int64_t frozen_match(struct store *s)
{
	err_t err = {0};
	int64_t match = begin_frozen_match(s, true);
	cr_assert_eq(store_add_match_fault(s, match, 1, &record, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	return match;
}

static void expect_record(struct store *s, int64_t match)
{
	err_t err = {0};
	struct store_fault f;
	cr_assert_eq(store_match_fault(s, match, 1, &f, err), 1, "%s", err->msg);
	cr_expect_str_eq(f.author, "alice");
	cr_expect_str_eq(f.verdict, "signaled");
	cr_expect_eq(f.frozen_round, 7);
	cr_expect_eq(f.cpu_ns, 5678);
	cr_expect_eq(f.message, 8);
	cr_expect_eq(f.turn_cpu_ns, 1234);
	cr_expect_eq(f.cpu_budget_ns, 1000000000);
	cr_expect_eq(f.input_size, 2465);
	cr_assert_eq(f.input_len, sizeof kept);
	cr_expect_eq(memcmp(f.input, kept, sizeof kept), 0, "the bytes as stored");
	free(f.input);
}

BOTH(match_logs, a_frozen_seats_record_reads_back_and_is_copied)
{
	struct store *s = teststore_open(tt.where, true);
	char copy[128];
	err_t err = {0};
	int64_t match = frozen_match(s);
	expect_record(s, match);
	json_t *v;
	cr_assert_eq(store_submission_view(s, 1, &v, err), 1, "%s", err->msg);
	json_t *m = json_array_get(json_object_get(v, "matches"), 0);
	cr_expect(json_is_true(json_object_get(m, "has_fault")), "alice's page links the record");
	json_decref(v);
	cr_expect_eq(store_add_match_fault(s, match, 1, &record, err), -1,
		     "a second record for the same seat must be refused");
	struct store_fault none;
	cr_assert_eq(store_match_fault(s, match, 0, &none, err), 1, "%s", err->msg);
	cr_expect(none.message == -1 && !none.input && !none.verdict[0],
		  "the shipped seat played to the end: no record");
	cr_expect_eq(store_match_fault(s, match, 5, &none, err), 0, "no seat 5");
	snprintf(copy, sizeof copy, "%s/copy.sqlite", tt.dir);
	struct store *to = teststore_open(copy, true);
	int64_t rows;
	cr_assert_eq(store_copy(s, to, &rows, err), 0, "%s", err->msg);
	expect_record(to, match);
	store_close(to);
	store_close(s);
}

/* AIC2018: a unit of alice's seat crashed while the seat played on (no
 * verdict): the record keeps the unit, its round, step and reason, read
 * back and copied; the unit's round is the record's, the seat's row none. */
BOTH(match_logs, a_units_crash_in_a_seat_that_played_on_reads_back_and_is_copied)
{
	struct store *s = teststore_open(tt.where, true);
	char copy[128];
	err_t err = {0};
	int64_t match = begin_frozen_match(s, false);
	struct store_fault unit = record;
	unit.unit = 5464;
	unit.unit_round = 7;
	unit.unit_step = 2;
	snprintf(unit.unit_reason, sizeof unit.unit_reason, "unit 5464 died: a bad memory access");
	cr_assert_eq(store_add_match_fault(s, match, 1, &unit, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	snprintf(copy, sizeof copy, "%s/copy.sqlite", tt.dir);
	struct store *to = teststore_open(copy, true);
	int64_t rows;
	cr_assert_eq(store_copy(s, to, &rows, err), 0, "%s", err->msg);
	struct store *both[] = { s, to };
	for (int k = 0; k < 2; k++) {
		struct store_fault f;
		cr_assert_eq(store_match_fault(both[k], match, 1, &f, err), 1, "%s", err->msg);
		cr_expect_str_eq(f.verdict, "", "the seat did not freeze");
		cr_expect_eq(f.unit, 5464);
		cr_expect_eq(f.unit_round, 7);
		cr_expect_eq(f.unit_step, 2);
		cr_expect_str_eq(f.unit_reason, "unit 5464 died: a bad memory access");
		cr_expect_eq(f.message, 8);
		free(f.input);
	}
	store_close(to);
	store_close(s);
}
