/* test_record.c - records stated once (games/kit/record.h) and the orders
 * message built on them (games/kit/orders.h): the bytes each kind of field
 * writes, the lengths derived from the list, and every check a decoder
 * makes, each shown refusing the one message that breaks it. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "games/kit/orders.h"
#include "games/kit/record.h"

#define T_ITEM(X) X(u8, a) X(u16, b)
RECORD(t_item, T_ITEM)

/* Every kind of field; the cells are n x n (n 1..3), each below 9, and every item's
 * a is below n; a message of exactly 3 items is refused as a whole. */
#define T_MSG(X) \
	X(is, u8, version, 3) X(range, u8, n, 1, 3) X(i32, neg) X(i64, big) X(u32, u) X(u64, w) \
	X(array, u16, arr, 3) X(record, t_item, one) X(records, t_item, two, 2) \
	X(block, uint8_t, cell, 16, (size_t)m->n * m->n, *e < 9) \
	X(list, count, t_item, item, 5, e->a < m->n)
RECORD_MESSAGE(t_msg, T_MSG, t_msg, m->count != 3)

#define T_ORDER(X) X(u16, id) X(u8, dir)
ORDERS_RECORD(t_orders, t_order, T_ORDER, 4, "more than 4 orders");

static struct t_msg sample(void)
{
	struct t_msg m = { .version = 3, .n = 2, .neg = -2, .big = -3, .u = 0x01020304,
			   .w = 0x0102030405060708ULL, .arr = { 1, 2, 0x0304 },
			   .one = { 7, 0x0809 }, .two = { { 1, 2 }, { 3, 4 } },
			   .cell = { 0, 1, 2, 8 }, .count = 2, .item = { { 0, 5 }, { 1, 6 } } };
	return m;
}

static size_t encoded(struct t_msg m, uint8_t *buf)
{
	size_t len = t_msg_encode(&m, buf, t_msg_max);
	cr_assert_gt(len, 0, "a valid message does not encode");
	return len;
}

static bool decodes(const uint8_t *buf, size_t len)
{
	struct t_msg m;
	return t_msg_decode(buf, len, &m);
}

Test(record, lengths_come_from_the_list)
{
	cr_expect_eq(t_item_len, 3);
	cr_expect_eq(t_msg_len, 1 + 1 + 4 + 8 + 4 + 8 + 3 * 2 + 3 + 2 * 3 + 2);
	cr_expect_eq(t_msg_max, t_msg_len + 16 + 5 * 3);
	cr_expect_eq(t_order_len, 3);
}

Test(record, fields_go_in_order_little_endian)
{
	uint8_t buf[t_msg_max];
	size_t len = encoded(sample(), buf);
	cr_assert_eq(len, t_msg_len + 4 + 2 * 3);
	const uint8_t head[] = { 3, 2, 0xfe, 0xff, 0xff, 0xff, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff,
				 0xff, 0xff, 4, 3, 2, 1, 8, 7, 6, 5, 4, 3, 2, 1, 1, 0, 2, 0, 4, 3,
				 7, 9, 8, 1, 2, 0, 3, 4, 0 };
	cr_expect_arr_eq(buf, head, sizeof head);
	const uint8_t tail[] = { 0, 1, 2, 8, 2, 0, 0, 5, 0, 1, 6, 0 };
	cr_expect_arr_eq(buf + sizeof head, tail, sizeof tail);
}

Test(record, decoding_gives_back_what_was_encoded)
{
	uint8_t buf[t_msg_max];
	struct t_msg in = sample(), out;
	memset(&out, 0xa5, sizeof out);
	cr_assert(t_msg_decode(buf, encoded(in, buf), &out));
	cr_expect_eq(out.neg, -2);
	cr_expect_eq(out.big, -3);
	cr_expect_eq(out.w, in.w);
	cr_expect_eq(out.arr[2], 0x0304);
	cr_expect_eq(out.one.b, 0x0809);
	cr_expect_eq(out.two[1].a, 3);
	cr_expect_arr_eq(out.cell, in.cell, 4);
	cr_expect_eq(out.count, 2);
	cr_expect_eq(out.item[1].b, 6);
}

/* Each message breaks one check and is refused; the sample passes all. */
Test(record, every_check_refuses)
{
	uint8_t buf[t_msg_max];
	struct t_msg m = sample();
	size_t len = encoded(m, buf);
	cr_assert(decodes(buf, len));
	cr_expect(!decodes(buf, len - 1), "a short message is taken");
	buf[len] = 0;
	cr_expect(!decodes(buf, len + 1), "a byte too many is taken");

	struct t_msg bad[6];
	for (int i = 0; i < 6; i++)
		bad[i] = sample();
	bad[0].version = 4;             /* is */
	bad[1].n = 4;                   /* range, above */
	bad[2].cell[3] = 9;             /* a block's ok */
	bad[3].item[1].a = 2;           /* a list's ok */
	bad[4].count = 3;               /* the message's ok */
	bad[5].n = 0, bad[5].count = 0; /* range, below */
	for (int i = 0; i < 6; i++) {
		len = t_msg_encode(&bad[i], buf, sizeof buf);
		cr_assert_gt(len, 0, "the encoder judged message %d", i);
		cr_expect(!decodes(buf, len), "broken message %d is taken", i);
	}
}

/* A count beyond the arrays is refused before anything is read into them. */
Test(record, counts_beyond_the_arrays)
{
	uint8_t buf[t_msg_max + 16];
	struct t_msg m = sample();
	m.n = 5;
	cr_expect_eq(t_msg_encode(&m, buf, sizeof buf), 0, "25 cells of 16 were written");
	m = sample();
	m.count = 6;
	cr_expect_eq(t_msg_encode(&m, buf, sizeof buf), 0, "6 items of 5 were written");
	m = sample();
	size_t len = encoded(m, buf);
	buf[len - 2 * 3 - 2] = 6; /* the count of items */
	/* four more items that pass every other check: only the count's bound
	 * can refuse this message */
	memset(buf + len, 0, 4 * 3);
	cr_expect(!decodes(buf, len + 4 * 3), "6 items of 5 were read");
	cr_expect_eq(t_msg_encode(&m, buf, len - 1), 0, "written past the room given");
}

Test(record, orders_round_trip_and_limit)
{
	struct t_order in[6] = { { 1, 2 }, { 0x0304, 5 }, { 6, 7 }, { 8, 9 }, { 10, 11 }, { 12, 13 } };
	struct t_order out[4];
	uint8_t buf[2 + 6 * 3];
	const char *why = NULL;
	size_t len = orders_encode(&t_orders, in, 2, buf, sizeof buf);
	const uint8_t want[] = { 2, 0, 1, 0, 2, 4, 3, 5 };
	cr_assert_eq(len, sizeof want);
	cr_expect_arr_eq(buf, want, sizeof want);
	cr_assert_eq(orders_decode(&t_orders, buf, len, out, &why), 2);
	cr_expect(out[1].id == 0x0304 && out[1].dir == 5);

	len = orders_encode(&t_orders, in, 6, buf, sizeof buf);
	cr_expect_eq(len, 2 + 5 * 3, "not cut to one past the limit");
	cr_expect_eq(orders_decode(&t_orders, buf, len, out, &why), -1);
	cr_expect_str_eq(why, "more than 4 orders");
	buf[0] = 1;
	cr_expect_eq(orders_decode(&t_orders, buf, 2 + 2 * 3, out, &why), -1);
	cr_expect_str_eq(why, "malformed orders message: its length does not match its count");
}
