/* fuzz_aic2018_steps.c - libFuzzer target: hostile orders against the
 * AIC2018 engine, step by step as the runner plays it (next_seat, view,
 * orders, status, advance).  AIC2018's rounds are steps of one team, so
 * the orders harness of the other games (fuzz_orders.h) does not fit.
 *
 * Input: u8 set (which parameters), then messages until the input or the
 * match ends: u8 ctl (bit 0: the runner freezes the seat instead of
 * answering), u16 len (little-endian, cut short by the input's end), len
 * bytes handed to orders() as they are.  The bytes are usually garbage,
 * so a message may also start from the real next unit's slot: bit 1 of
 * ctl puts the acting unit's slot in front of the bytes (u16 count 1).
 *
 * Each set's match is created once (map generation is the slow part) and
 * every input plays on a copy: the engine's state is one struct whose only
 * pointer is the round's steps, replaced in the copy.
 *
 * Checks: orders() returns 0 or -1 with a reason; a refused or frozen seat
 * is never asked again; every view decodes with the kit's decoder, fits
 * view_max and shows none of the enemy's wood; the replay's frames are
 * JSON objects; the round count only grows.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "games/aic2018/engine/engine.h"
#include "games/game.h"

#define FUZZ_NAME "fuzz_aic2018_steps"
#include "tests/fuzz/fuzz_check.h"

static const char *const sets[] = {
	"width 20\nheight 20\nrounds 40\n",
	"width 24\nheight 30\nrounds 15\nworkers 3\nstart_wood 2000\n",
	NULL, /* the defaults */
};
#define NSETS (sizeof sets / sizeof sets[0])

static uint8_t view[AIC_VIEW_MAX], msg[AIC_ORDERS_MAX];
static struct aic_world seen;
static struct aic_step step;

static void check_view(const struct game *gm, struct game_state *g, int seat)
{
	size_t len = gm->view(g, seat, view, sizeof view);
	check(len > 0 && len <= gm->view_max, "view of seat %d: %zu bytes", seat, len);
	aic_view_blank(&seen);
	check(aic_view_decode(view, len, seat, &step, &seen), "view of seat %d does not decode",
	      seat);
	check(seen.team[1 - seat].wood == 0, "seat %d sees the enemy's wood", seat);
}

/* One message from the input into msg; its length. */
static size_t next_message(const uint8_t **p, const uint8_t *end, const struct game_state *g,
			   uint8_t ctl)
{
	size_t len = 0, at = 0;
	if (end - *p >= 2) {
		len = (size_t)(*p)[0] | (size_t)(*p)[1] << 8;
		*p += 2;
	}
	if (ctl & 2) {
		msg[0] = 1, msg[1] = 0;
		msg[2] = (uint8_t)g->acting, msg[3] = (uint8_t)(g->acting >> 8);
		at = 4;
	}
	if (len > (size_t)(end - *p))
		len = (size_t)(end - *p);
	if (len > sizeof msg - at)
		len = sizeof msg - at;
	memcpy(msg + at, *p, len);
	*p += len;
	return at + len;
}

/* A fresh copy of the set's match (created the first time it is asked). */
static struct game_state *match_of(const struct game *gm, uint8_t pick)
{
	static struct game_state *made[NSETS * 4], *work;
	err_t err;
	struct game_state **m = &made[pick % (NSETS * 4)];
	if (!*m) {
		*m = gm->create(sets[pick % NSETS], pick % (NSETS * 4) / NSETS, err);
		check(*m != NULL, "create: %s", err->msg);
	}
	if (!work)
		work = malloc(sizeof *work);
	check(work != NULL, "out of memory");
	memcpy(work, *m, sizeof *work);
	work->steps = json_array();
	return work;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const struct game *gm = game_find("aic2018");
	err_t err;
	struct game_state *g = match_of(gm, data[0]);
	json_decref(gm->replay_header(g));
	bool frozen[2] = { false, false };
	const uint8_t *p = data + 1, *end = data + size;
	while (p < end && !game_over(gm, g) && !(frozen[0] && frozen[1])) {
		int round = gm->round(g), seat = gm->next_seat(g);
		if (seat < 0) {
			json_decref(gm->replay_orders(g));
			gm->advance(g);
			json_t *f = gm->replay_round(g);
			check(json_is_object(f), "replay_round is not an object");
			json_decref(f);
			check(gm->round(g) >= round, "the round went back");
			continue;
		}
		check(!frozen[seat], "frozen seat %d asked for orders", seat);
		check_view(gm, g, seat);
		uint8_t ctl = *p++;
		if (ctl & 1) {
			frozen[seat] = true;
			gm->status(g, seat, -1);
			continue;
		}
		size_t len = next_message(&p, end, g, ctl);
		err->msg[0] = '\0';
		if (gm->orders(g, seat, msg, len, err) < 0) {
			check(memchr(err->msg, '\0', ERR_LEN) && err->msg[0],
			      "a refusal without a reason");
			frozen[seat] = true;
			gm->status(g, seat, -1);
		}
	}
	json_decref(g->steps);
	aic_replay_free(&g->replay); /* the replay's shared integers of this run */
	return 0;
}
