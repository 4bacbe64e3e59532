/* proto.h - the bytes of AIC2018's messages, for the judge and the kit.
 *
 * Promises: one encoder and one decoder per message, shared by the engine
 * (encodes start and view, decodes orders) and the kit (the reverse).
 * Header only, no allocation.  Decoders never read out of bounds and
 * reject a message whose length or fields do not add up.  Integers are
 * little-endian (games/kit/wire.h); the world's records travel as the
 * bytes of world.h's structs, which both sides compile from one header.
 *
 * start: "A18" u8 team (0 or 1).
 *
 * view (one step: a run of the team's units acts, the first already past
 * its turn start):
 *   "A18V" u16 batch count, batch x u16 slot: the team's units that come
 *   one after another in the order from the acting one, before the first
 *   enemy unit (the kit runs no others, but for the units they spawn);
 *   u16 id count, ids x u16: the ids the engine would give the next
 *   spawns, in order; then the team's view of the world (a copy with what
 *   the team may not know left out, see engine/view.c): the bytes of
 *   struct aic_world up to `cell`, height rows of width cells, i32
 *   ids_used, norder, cursor, norder x i16 order, norder x struct
 *   aic_unit (the units in order), u16 count and the slots of the units
 *   the team does not see (so that a spawn takes the slot the engine
 *   gives it), height rows of width seen counts.
 *
 * orders: u16 entry count, then per entry (one per unit that ran, in
 *   order) u16 slot, u8 action count (at most AIC_MAX_ACTIONS), actions x
 *   4 bytes { u8 kind, u8 a, u8 b, u8 c }: move (a: direction), attack
 *   and ability (a, b: x, y), spawn (a: direction, b: type), gather (a:
 *   direction), buy (a | b << 8: VP), die (its run() returned or failed).
 */
#ifndef AIC_PROTO_H
#define AIC_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "games/aic2018/world.h"
#include "games/kit/wire.h"

#define AIC_MAX_ACTIONS 16 /* per unit and turn */
#define AIC_MAX_IDS 64     /* spawn ids a view carries */
#define AIC_START_LEN 4
#define AIC_WORLD_HEAD offsetof(struct aic_world, cell)
#define AIC_VIEW_MAX                                                                   \
	(4 + 2 + 2 * AIC_MAX_UNITS + 2 + 2 * AIC_MAX_IDS + AIC_WORLD_HEAD +             \
	 sizeof(struct aic_cell) * AIC_MAX_CELLS + 12 +                                 \
	 (4 + sizeof(struct aic_unit)) * AIC_MAX_UNITS + 2 + AIC_MAX_CELLS)
#define AIC_ENTRY_MAX (3 + 4 * AIC_MAX_ACTIONS)
#define AIC_ORDERS_MAX (2 + AIC_ENTRY_MAX * AIC_MAX_UNITS)

enum aic_action_kind {
	AIC_ACT_MOVE = 1,
	AIC_ACT_ATTACK,
	AIC_ACT_ABILITY,
	AIC_ACT_SPAWN,
	AIC_ACT_GATHER,
	AIC_ACT_BUY,
	AIC_ACT_DIE,
	AIC_ACT_KINDS
};

struct aic_action {
	uint8_t kind, a, b, c;
};

/* Why a unit died by its own fault: an AIC_ACT_DIE's a, said by the kit,
 * named by the engine in the match's record of the seat (`judge repro`). */
enum aic_death {
	AIC_DIED_RETURNED,
	AIC_DIED_STACK,
	AIC_DIED_ARITHMETIC,
	AIC_DIED_MEMORY,
	AIC_DIED_ILLEGAL,
	AIC_DIED_ENERGY,
	AIC_DIED_NO_STACK,
	AIC_DEATHS
};

static inline const char *aic_death_words(int why)
{
	static const char *const words[AIC_DEATHS] = {
		[AIC_DIED_RETURNED] = "its run() returned",
		[AIC_DIED_STACK] = "its stack overflowed (too deep a recursion or too large locals)",
		[AIC_DIED_ARITHMETIC] = "an arithmetic error (a division by zero?)",
		[AIC_DIED_MEMORY] = "a bad memory access",
		[AIC_DIED_ILLEGAL] = "an illegal instruction",
		[AIC_DIED_ENERGY] =
			"its energy count was tampered with: far more CPU than its energy allows",
		[AIC_DIED_NO_STACK] = "no memory left for its stack",
	};
	return why >= 0 && why < AIC_DEATHS ? words[why] : "it died (the kit said no more)";
}

/* What one step's view carries besides the world. */
struct aic_step {
	int nbatch, nids, nhidden;
	int16_t batch[AIC_MAX_UNITS];
	uint16_t ids[AIC_MAX_IDS];
	int16_t hidden[AIC_MAX_UNITS]; /* slots taken by units the team does not see */
};

static inline size_t aic_start_encode(int team, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_block(&w, "A18", 3);
	wire_u8(&w, (uint8_t)team);
	return w.overflow ? 0 : w.len;
}

static inline int aic_start_decode(const uint8_t *buf, size_t len)
{
	return len == AIC_START_LEN && memcmp(buf, "A18", 3) == 0 && buf[3] < AIC_TEAMS ? buf[3]
											 : -1;
}

/* The view of `team` (world: already the team's copy). */
static inline size_t aic_view_encode(const struct aic_step *st, const struct aic_world *world,
				     int team, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_block(&w, "A18V", 4);
	wire_u16(&w, (uint16_t)st->nbatch);
	for (int i = 0; i < st->nbatch; i++)
		wire_u16(&w, (uint16_t)st->batch[i]);
	wire_u16(&w, (uint16_t)st->nids);
	for (int i = 0; i < st->nids; i++)
		wire_u16(&w, st->ids[i]);
	wire_block(&w, world, AIC_WORLD_HEAD);
	for (int y = 0; y < world->height; y++)
		wire_block(&w, &world->cell[y * AIC_STRIDE], sizeof(struct aic_cell) * world->width);
	wire_i32(&w, world->ids_used);
	wire_i32(&w, world->norder);
	wire_i32(&w, world->cursor);
	wire_block(&w, world->order, sizeof world->order[0] * (size_t)world->norder);
	for (int i = 0; i < world->norder; i++)
		wire_block(&w, &world->unit[world->order[i]], sizeof(struct aic_unit));
	wire_u16(&w, (uint16_t)st->nhidden);
	for (int i = 0; i < st->nhidden; i++)
		wire_u16(&w, (uint16_t)st->hidden[i]);
	for (int y = 0; y < world->height; y++)
		wire_block(&w, &world->seen[team][y * AIC_STRIDE], (size_t)world->width);
	return w.overflow ? 0 : w.len;
}

static inline bool aic_slot_ok(int s)
{
	return s >= 0 && s < AIC_MAX_UNITS;
}

static inline bool aic_view_counts(struct wire_r *r, struct aic_step *st)
{
	st->nbatch = wire_get_u16(r);
	if (st->nbatch > AIC_MAX_UNITS)
		return false;
	for (int i = 0; i < st->nbatch; i++)
		st->batch[i] = (int16_t)wire_get_u16(r);
	st->nids = wire_get_u16(r);
	if (st->nids > AIC_MAX_IDS)
		return false;
	for (int i = 0; i < st->nids; i++)
		st->ids[i] = wire_get_u16(r);
	return !r->bad;
}

/* A world no view was decoded into yet: nothing in it, no id known. */
static inline void aic_view_blank(struct aic_world *world)
{
	memset(world, 0, sizeof *world);
	memset(world->slot_of_id, 0xff, sizeof world->slot_of_id); /* AIC_NO_UNIT */
}

/* Clears what the last view (st) and the step played on it left in world,
 * so that the next view can be decoded into it: the units in its order
 * and the hidden ones, and their ids.  Cheaper than aic_view_blank() by
 * the 140 KB a world has and a view never fills. */
static inline void aic_view_forget(struct aic_world *world, struct aic_step *st)
{
	for (int i = 0; i < world->norder + st->nhidden; i++) {
		int s = i < world->norder ? world->order[i] : st->hidden[i - world->norder];
		int id = world->unit[s].id;
		if (id >= 1 && id <= AIC_MAX_ID)
			world->slot_of_id[id] = AIC_NO_UNIT;
		memset(&world->unit[s], 0, sizeof world->unit[s]);
	}
	world->norder = 0;
	st->nhidden = 0;
}

/* Decodes a view into world, which holds no unit (aic_view_blank, or
 * aic_view_forget after the last view): every other field a view carries
 * is overwritten, and what the team may not know stays empty. */
static inline bool aic_view_decode(const uint8_t *buf, size_t len, int team, struct aic_step *st,
				   struct aic_world *world)
{
	struct wire_r r = wire_reader(buf, len);
	const uint8_t *magic = wire_take(&r, 4);
	if (!magic || memcmp(magic, "A18V", 4) != 0 || !aic_view_counts(&r, st))
		return false;
	memset(world->seen[1 - team], 0, sizeof world->seen[1 - team]);
	if (!wire_copy(&r, world, AIC_WORLD_HEAD) || world->width < 1 || world->height < 1 ||
	    world->width > AIC_MAX_SIDE || world->height > AIC_MAX_SIDE)
		return false;
	for (int y = 0; y < world->height; y++)
		wire_copy(&r, &world->cell[y * AIC_STRIDE], sizeof(struct aic_cell) * world->width);
	world->ids_used = wire_get_i32(&r);
	world->norder = wire_get_i32(&r);
	world->cursor = wire_get_i32(&r);
	if (r.bad || world->norder < 0 || world->norder > AIC_MAX_UNITS || world->cursor < -1 ||
	    world->cursor >= world->norder)
		return false;
	wire_copy(&r, world->order, sizeof world->order[0] * (size_t)world->norder);
	for (int i = 0; i < world->norder; i++) {
		int s = world->order[i];
		if (!aic_slot_ok(s) || !wire_copy(&r, &world->unit[s], sizeof(struct aic_unit)))
			return false;
		int id = world->unit[s].id;
		if (id >= 1 && id <= AIC_MAX_ID)
			world->slot_of_id[id] = (int16_t)s;
	}
	st->nhidden = wire_get_u16(&r);
	if (st->nhidden > AIC_MAX_UNITS)
		return false;
	for (int i = 0; i < st->nhidden; i++) {
		int s = st->hidden[i] = (int16_t)wire_get_u16(&r);
		if (!aic_slot_ok(s) || world->unit[s].id)
			return false;
		world->unit[s].id = -1; /* taken, by nobody the team may know */
	}
	for (int y = 0; y < world->height; y++)
		wire_copy(&r, &world->seen[team][y * AIC_STRIDE], (size_t)world->width);
	return wire_done(&r);
}

/* ---- orders -------------------------------------------------------------- */

struct aic_orders_w {
	struct wire_w w;
	size_t entry_at; /* where the open entry's action count goes */
	int entries, actions;
};

static inline struct aic_orders_w aic_orders_begin(uint8_t *buf, size_t cap)
{
	struct aic_orders_w o = { .w = wire_writer(buf, cap) };
	wire_u16(&o.w, 0);
	return o;
}

static inline void aic_orders_entry(struct aic_orders_w *o, int slot)
{
	wire_u16(&o->w, (uint16_t)slot);
	o->entry_at = o->w.len;
	wire_u8(&o->w, 0);
	o->entries++;
	o->actions = 0;
	if (!o->w.overflow) {
		o->w.buf[0] = (uint8_t)o->entries;
		o->w.buf[1] = (uint8_t)(o->entries >> 8);
	}
}

/* False when the entry has AIC_MAX_ACTIONS already. */
static inline bool aic_orders_action(struct aic_orders_w *o, struct aic_action a)
{
	if (o->actions >= AIC_MAX_ACTIONS)
		return false;
	wire_block(&o->w, &a, 4);
	if (o->w.overflow)
		return false;
	o->w.buf[o->entry_at] = (uint8_t)++o->actions;
	return true;
}

static inline size_t aic_orders_end(const struct aic_orders_w *o)
{
	return o->w.overflow ? 0 : o->w.len;
}

#endif
