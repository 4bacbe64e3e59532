/* test_record.c - the helpers the games' messages are written with
 * (games/kit/record.h), the orders message built on a game's layout
 * (games/kit/orders.h), and each game's message lengths: what its
 * encoder writes is what its proto.h says, at the least and at the most. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "games/ants/proto.h"
#include "games/blitz/proto.h"
#include "games/dominator/proto.h"
#include "games/kit/orders.h"
#include "games/kit/record.h"
#include "games/starwar/proto.h"

Test(record, a_checked_field_refuses_outside_its_range_and_a_short_read)
{
	const uint8_t bytes[] = { 3, 0x34, 0x12, 9 };
	struct wire_r r = wire_reader(bytes, sizeof bytes);
	uint8_t a;
	uint16_t b;
	cr_expect(record_u8_in(&r, &a, 3, 3) && a == 3);
	cr_expect(record_u16_in(&r, &b, 0, 0x1234) && b == 0x1234, "little-endian");
	r = wire_reader(bytes, sizeof bytes);
	cr_expect(!record_u8_in(&r, &a, 4, 9), "below");
	cr_expect(!record_u16_in(&r, &b, 0, 0x1233), "above");
	cr_expect(record_u8_in(&r, &a, 9, 9), "the last byte");
	cr_expect(!record_u8_in(&r, &a, 0, 255), "past the end");
}

/* A count beyond the array is refused before anything is read into it. */
Test(record, blocks_and_lists_keep_to_their_arrays)
{
	uint8_t buf[16], into[4] = { 7, 7, 7, 7 };
	struct wire_w w = wire_writer(buf, sizeof buf);
	const uint8_t cells[5] = { 1, 2, 3, 4, 5 };
	record_put_block(&w, cells, 5, 4, 1);
	cr_expect_eq(record_length(&w), 0, "5 cells of 4 were written");
	w = wire_writer(buf, sizeof buf);
	record_put_block(&w, cells, 4, 4, 1);
	wire_u16(&w, 5);
	cr_assert_eq(record_length(&w), 6);

	struct wire_r r = wire_reader(buf, 6);
	cr_expect(!record_get_block(&r, into, 5, 4, 1), "5 cells of 4 were read");
	cr_expect_eq(into[0], 7, "read before the count was judged");
	cr_expect(record_get_block(&r, into, 4, 4, 1) && memcmp(into, cells, 4) == 0);
	uint16_t count;
	cr_expect(!record_get_count(&r, &count, 4), "a list of 5 taken into 4");
	r = wire_reader(buf, 5);
	cr_expect(record_get_block(&r, into, 4, 4, 1));
	cr_expect(!record_get_count(&r, &count, 9), "a count cut short");
	w = wire_writer(buf, 3);
	record_put_block(&w, cells, 4, 4, 1);
	cr_expect_eq(record_length(&w), 0, "written past the room given");
}

/* A layout written as a game writes its own. */
struct t_order {
	uint16_t id;
	uint8_t dir;
};

static void t_order_put(struct wire_w *w, const void *order)
{
	const struct t_order *o = order;
	wire_u16(w, o->id);
	wire_u8(w, o->dir);
}

static bool t_order_get(struct wire_r *r, void *order)
{
	struct t_order *o = order;
	o->id = wire_get_u16(r);
	o->dir = wire_get_u8(r);
	return !r->bad;
}

static const struct orders_layout t_orders = { sizeof(struct t_order), 4, "more than 4 orders", 3,
					       t_order_put, t_order_get };

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

/* ---- each game's lengths ------------------------------------------------------ */

static uint8_t buf[1 << 20];

Test(record, start_messages_are_as_long_as_each_proto_says)
{
	struct dom_msg_start dom = { .version = DOM_PROTO_VERSION, .players = DOM_PLAYERS,
				     .params = { .rows = DOM_MIN_ROWS, .cols = DOM_MIN_ROWS } };
	cr_expect_eq(dom_start_encode(&dom, buf, sizeof buf), DOM_START_LEN);
	struct ant_msg_start ant = { .version = ANT_PROTO_VERSION, .players = ANT_PLAYERS };
	cr_expect_eq(ant_start_encode(&ant, buf, sizeof buf), ANT_START_LEN);
	struct sw_msg_start sw = { .version = SW_PROTO_VERSION, .players = SW_PLAYERS };
	cr_expect_eq(sw_start_encode(&sw, buf, sizeof buf), SW_START_LEN);
	struct bz_msg_start bz = { .version = BZ_PROTO_VERSION };
	cr_expect_eq(bz_start_encode(&bz, buf, sizeof buf), BZ_START_LEN);
	cr_expect_eq(dom_start_encode(&dom, buf, DOM_START_LEN - 1), 0, "written past its room");
}

/* The largest views fill each game's VIEW_MAX exactly, and decode again. */
Test(record, the_largest_views_are_each_protos_view_max)
{
	static struct dom_msg_view dom;
	dom = (struct dom_msg_view){ .rows = DOM_MAX_ROWS, .cols = DOM_MAX_ROWS,
				     .nunits = DOM_MAX_UNITS };
	size_t len = dom_view_encode(&dom, buf, sizeof buf);
	cr_expect_eq(len, DOM_VIEW_MAX);
	cr_expect(dom_view_decode(buf, len, &dom));
	cr_expect(!dom_view_decode(buf, len - 1, &dom));

	static struct ant_msg_view ant;
	ant = (struct ant_msg_view){ .h = { .rows = ANT_MAX_ROWS, .cols = ANT_MAX_ROWS },
				     .nants = ANT_MAX_CELLS };
	len = ant_view_encode(&ant, buf, sizeof buf);
	cr_expect_eq(len, ANT_VIEW_MAX);
	cr_expect(ant_view_decode(buf, len, &ant));

	static struct sw_msg_view sw;
	sw = (struct sw_msg_view){ .rows = SW_MAX_ROWS, .cols = SW_MAX_COLS,
				   .nships = SW_MAX_SHIPS };
	len = sw_view_encode(&sw, buf, sizeof buf);
	cr_expect_eq(len, SW_VIEW_MAX);
	cr_expect(sw_view_decode(buf, len, &sw));

	static struct bz_msg_view bz;
	bz = (struct bz_msg_view){ .width = BZ_MAX_SIDE, .height = BZ_MAX_SIDE };
	len = bz_view_encode(&bz, buf, sizeof buf);
	cr_expect_eq(len, BZ_VIEW_MAX);
	cr_expect(bz_view_decode(buf, len, 0, &bz));
	cr_expect_eq(BZ_VIEW_HEAD + BZ_MAX_SITES * BZ_SITE_LEN, BZ_VIEW_MAX);
}
