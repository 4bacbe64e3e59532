/* test_seat.c - the judge's end of a player's channel, with a real
 * sandboxed process on the other end. */
#include <criterion/criterion.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/play/seat.h"

static void start_under(struct seat *s, struct sbx_policy **pol, const char *attack,
			const struct sbx_limits *lim, size_t max_in, size_t max_out, bool batch)
{
	const char *dir = getenv("ATTACK_DIR");
	char path[512];
	err_t err;
	snprintf(path, sizeof path, "%s/%s", dir ? dir : "build/attack", attack);
	signal(SIGPIPE, SIG_IGN);
	*pol = sbx_policy_new(SBX_PLAYER, lim, err);
	cr_assert_not_null(*pol, "%s", err);
	if (batch)
		sbx_policy_set_batch(*pol);
	cr_assert_eq(seat_start(s, *pol, path, 0, max_in, max_out, err), 0, "%s", err);
	cr_assert_not(s->frozen, "%s", s->reason);
}

static void start_policy(struct seat *s, struct sbx_policy **pol, const char *attack,
			 size_t max_in, size_t max_out, uint64_t memory_bytes, bool batch)
{
	struct sbx_limits lim = { .cpu_ns = 2000000000ULL, .wall_ns = 10000000000ULL,
				  .memory_bytes = memory_bytes, .stderr_bytes = 4096 };
	start_under(s, pol, attack, &lim, max_in, max_out, batch);
}

static void start_limited(struct seat *s, struct sbx_policy **pol, const char *attack,
			  size_t max_in, size_t max_out, uint64_t memory_bytes)
{
	start_policy(s, pol, attack, max_in, max_out, memory_bytes, false);
}

static void start(struct seat *s, struct sbx_policy **pol, const char *attack, size_t max_in)
{
	start_limited(s, pol, attack, max_in, 0, 64 << 20);
}

/* Ends the player, frees the seat and its policy. */
static void end_seat(struct seat *s, struct sbx_policy *pol)
{
	seat_finish(s);
	seat_free(s);
	sbx_policy_free(pol);
}

static void expect_frame(struct seat *s, int round, const char *want)
{
	seat_collect(s, 1, round);
	size_t len;
	const uint8_t *f = seat_frame(s, &len);
	cr_assert_not_null(f, "round %d: no frame (%s)", round, s->reason);
	cr_assert_eq(len, strlen(want), "round %d", round);
	cr_assert_arr_eq(f, want, len, "round %d", round);
	seat_consume(s);
}

/* A seat's messages travel in the region it shares with the player: the
 * player reads each one there, and can neither map the region writable,
 * make its mapping writable nor write it through its descriptor; the
 * judge's copy of the last message is the one it sent. */
Test(seat, messages_travel_in_a_region_the_player_cannot_write, .timeout = 30)
{
	struct seat s;
	struct sbx_policy *pol;
	start_limited(&s, &pol, "shared_region", 64, 4096, 64 << 20);
	cr_assert_not_null(s.shared, "no shared region");
	seat_send(&s, (const uint8_t *)"first view", 10);
	expect_frame(&s, 0, "first viewyyy");
	seat_send(&s, (const uint8_t *)"second", 6);
	expect_frame(&s, 1, "secondyyy");
	size_t len;
	uint8_t *last = seat_last_input(&s, &len);
	cr_assert_eq(len, 6);
	cr_expect_arr_eq(last, "second", 6);
	free(last);
	/* a message written in place, where the runner puts a view */
	size_t cap;
	uint8_t *room = seat_outbox(&s, &cap);
	cr_assert_eq(room, s.shared);
	cr_assert_geq(cap, 4096);
	memcpy(room, "third", 5);
	seat_send(&s, room, 5);
	expect_frame(&s, 2, "thirdyyy");
	cr_expect_not(s.frozen, "%s", s.reason);
	end_seat(&s, pol);
}

/* A player as the kits make one (glibc's start, small allocations, its
 * messages read from the shared region) asks the judge about its exec
 * alone: the filter lets the rest through (sandbox/prefix.c), where each
 * call asked about would cost the match a round trip. */
Test(seat, a_kit_players_start_asks_the_judge_about_its_exec_alone, .timeout = 30)
{
	struct seat s;
	struct sbx_policy *pol;
	start_limited(&s, &pol, "quiet_start", 64, 4096, 64 << 20);
	cr_assert_not_null(s.shared, "no shared region");
	for (int round = 0; round < 3; round++) {
		seat_send(&s, (const uint8_t *)"a view", 6);
		expect_frame(&s, round, "ok");
	}
	const struct sbx_result *r = seat_finish(&s);
	cr_expect_eq(r->asked, 1, "asked about %u calls", r->asked);
	seat_free(&s);
	sbx_policy_free(pol);
}

/* Once it has answered, a seat's wall budget stops running while the
 * judge waits for the others: four quick answers with 300 ms between
 * them stay within a 400 ms budget. */
Test(seat, an_answered_seat_spends_no_wall_budget_while_the_others_think, .timeout = 30)
{
	struct sbx_limits lim = { .cpu_ns = 2000000000ULL, .wall_ns = 300000000ULL,
				  .wall_budget_ns = 400000000ULL, .memory_bytes = 64 << 20,
				  .stderr_bytes = 4096 };
	struct sbx_policy *pol;
	struct seat s;
	start_under(&s, &pol, "quiet_start", &lim, 64, 4096, false);
	for (int round = 0; round < 4; round++) {
		if (round > 0)
			poll(NULL, 0, 300); /* the others think */
		seat_send(&s, (const uint8_t *)"a view", 6);
		seat_await(&s, lim.wall_ns);
		expect_frame(&s, round, "ok");
	}
	cr_expect_not(s.frozen, "%s", s.reason);
	end_seat(&s, pol);
}

/* An answer read as soon as the message is sent (the judge does not wait
 * when it is there) leaves the seat's limits as they were: a player that
 * answers at once and then computes on is stopped at its CPU budget. */
Test(seat, a_player_read_without_waiting_is_still_stopped_at_its_budget, .timeout = 30)
{
	struct seat s;
	struct sbx_policy *pol;
	start(&s, &pol, "answer_then_spin", 64);
	seat_send(&s, (const uint8_t *)"go", 2);
	expect_frame(&s, 0, "ok");
	seat_send(&s, (const uint8_t *)"go", 2);
	seat_collect(&s, 1, 1);
	cr_assert(s.frozen, "still waited for");
	cr_expect_eq(s.frozen_round, 1);
	cr_expect(strstr(s.reason, "CPU budget exceeded") != NULL, "%s", s.reason);
	end_seat(&s, pol);
}

/* Under a batch policy (a match played in rounds) a player's wake-up
 * leaves the CPU to the judge: it runs as SCHED_BATCH, which it cannot
 * leave (the filter forbids sched_setscheduler); otherwise as any
 * process. */
Test(seat, players_of_a_batch_policy_run_as_sched_batch, .timeout = 30)
{
	struct seat s;
	struct sbx_policy *pol;
	start(&s, &pol, "read_block", 64);
	cr_expect_eq(sched_getscheduler(sbx_pid(s.proc)), SCHED_OTHER);
	end_seat(&s, pol);
	start_policy(&s, &pol, "read_block", 64, 0, 64 << 20, true);
	cr_expect_eq(sched_getscheduler(sbx_pid(s.proc)), SCHED_BATCH);
	end_seat(&s, pol);
}

/* Frames that arrive together are served one a round, in order; a bad
 * one freezes the seat in its own round, not in the round it arrived. */
Test(seat, frames_sent_ahead_wait_for_their_rounds, .timeout = 30)
{
	struct seat s;
	struct sbx_policy *pol;
	start(&s, &pol, "frames_ahead", 64);
	seat_send(&s, (const uint8_t *)"go", 2);
	expect_frame(&s, 0, "a");
	expect_frame(&s, 1, "bb");
	seat_collect(&s, 1, 2);
	cr_assert(s.frozen);
	cr_expect_eq(s.frozen_round, 2);
	cr_expect_str_eq(s.reason, "protocol error: a message of 1048576 bytes (at most 64 allowed)");
	end_seat(&s, pol);
}

/* A seat waited for alone (a game of steps) is served the same way: its
 * stderr drained and its memory calls answered while the judge waits for
 * its answer, turn after turn. */
Test(seat, a_seat_waited_for_alone_is_served_meanwhile, .timeout = 60)
{
	struct seat s;
	struct sbx_policy *pol;
	start(&s, &pol, "busy_turns", 64);
	for (int turn = 0; turn < 4; turn++) {
		seat_send(&s, (const uint8_t *)"go", 2);
		expect_frame(&s, turn, "ok");
	}
	cr_expect_not(s.frozen, "%s", s.reason);
	cr_expect_eq(seat_finish(&s)->log_len, 4096);
	seat_free(&s);
	sbx_policy_free(pol);
}

/* Seats that, before each answer, fill their stderr pipe and wait for
 * the judge to grant them memory are served while the judge waits for
 * them all, turn after turn, and still are once one of them closed its
 * stderr; the memory limit holds all the while. */
Test(seat, answers_wait_on_stderr_and_memory_calls_served_meanwhile, .timeout = 60)
{
	enum { SEATS = 3, TURNS = 4 };
	struct seat s[SEATS];
	struct sbx_policy *pol[SEATS];
	for (int i = 0; i < SEATS; i++)
		start(&s[i], &pol[i], "busy_turns", 64);
	for (int turn = 0; turn < TURNS; turn++) {
		for (int i = 0; i < SEATS; i++)
			seat_send(&s[i], (const uint8_t *)"go", 2);
		seat_collect(s, SEATS, turn);
		for (int i = 0; i < SEATS; i++) {
			size_t len;
			const uint8_t *f = seat_frame(&s[i], &len);
			cr_assert_not_null(f, "turn %d, seat %d: no answer (%s)", turn, i, s[i].reason);
			cr_assert_eq(len, 2);
			seat_consume(&s[i]);
		}
	}
	struct seat small;
	struct sbx_policy *small_pol;
	start_limited(&small, &small_pol, "busy_turns", 64, 0, 10 << 20);
	for (int turn = 0; turn < TURNS && !small.frozen; turn++) {
		seat_send(&small, (const uint8_t *)"go", 2);
		seat_collect(&small, 1, turn);
		seat_consume(&small);
	}
	cr_assert(small.frozen, "10 MiB held four times 4 MiB");
	cr_expect_eq(seat_finish(&small)->verdict, SBX_MEMORY, "%s", small.reason);
	seat_free(&small);
	sbx_policy_free(small_pol);
	for (int i = 0; i < SEATS; i++) {
		const struct sbx_result *r = seat_finish(&s[i]);
		cr_expect_eq(r->log_len, 4096, "seat %d kept %zu bytes of its stderr", i, r->log_len);
		seat_free(&s[i]);
		sbx_policy_free(pol[i]);
	}
}
