/* test_kit_io.c - the player kit's reading of the judge's frames, through
 * a real pipe on descriptor 0 as in a player. */
#include <criterion/criterion.h>
#include <unistd.h>

#include "games/kit/io.h"

static int judge_end;

/* The test process's stdin becomes the read end of a fresh pipe. */
static void pipe_to_stdin(void)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(dup2(p[0], 0), 0);
	close(p[0]);
	judge_end = p[1];
}

static void send_bytes(const void *bytes, size_t n)
{
	cr_assert_eq(write(judge_end, bytes, n), (ssize_t)n);
}

static void expect_frame(struct kit_inbox *in, const char *want)
{
	size_t len;
	const uint8_t *f = kit_next_frame(in, &len);
	cr_assert_not_null(f, "no frame where \"%s\" was sent", want);
	cr_assert_eq(len, strlen(want));
	cr_assert_arr_eq(f, want, len);
}

TestSuite(kit_io, .init = pipe_to_stdin);

Test(kit_io, frames_arriving_together_or_in_pieces)
{
	static uint8_t buf[FRAME_HEADER + 16];
	struct kit_inbox in = { .buf = buf, .cap = sizeof buf };
	send_bytes("\3\0\0\0abc\2\0\0\0de\0\0\0\0\5\0", 19);
	expect_frame(&in, "abc");
	expect_frame(&in, "de");
	expect_frame(&in, "");
	send_bytes("\0\0hel", 5);
	send_bytes("lo", 2);
	expect_frame(&in, "hello");
	close(judge_end);
	size_t len;
	cr_expect_null(kit_next_frame(&in, &len), "the judge closed the channel");
}

Test(kit_io, a_frame_larger_than_the_buffer_is_refused)
{
	static uint8_t buf[FRAME_HEADER + 16];
	struct kit_inbox in = { .buf = buf, .cap = sizeof buf };
	send_bytes("\20\0\0\0" "0123456789abcdef" "\21\0\0\0", 24);
	expect_frame(&in, "0123456789abcdef");
	size_t len;
	cr_expect_null(kit_next_frame(&in, &len), "17 bytes announced, 16 fit");
}
