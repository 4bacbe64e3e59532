/* test_seat.c - the judge's end of a player's channel, with a real
 * sandboxed process on the other end. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/play/seat.h"

static void start(struct seat *s, struct sbx_policy **pol, const char *attack, size_t max_in)
{
	const char *dir = getenv("ATTACK_DIR");
	char path[512], err[SBX_ERRLEN];
	snprintf(path, sizeof path, "%s/%s", dir ? dir : "build/attack", attack);
	struct sbx_limits lim = { .cpu_ns = 2000000000ULL, .wall_ns = 10000000000ULL,
				  .memory_bytes = 64 << 20, .stderr_bytes = 4096 };
	signal(SIGPIPE, SIG_IGN);
	*pol = sbx_policy_new(SBX_PLAYER, &lim, err);
	cr_assert_not_null(*pol, "%s", err);
	cr_assert_eq(seat_start(s, *pol, path, 0, max_in, err), 0, "%s", err);
	cr_assert_not(s->frozen, "%s", s->reason);
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
	seat_finish(&s);
	seat_free(&s);
	sbx_policy_free(pol);
}
