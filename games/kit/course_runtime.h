/* course_runtime.h - what the course games' runtimes (Dominator, Ants, Star
 * War) share on top of runtime.h: the functions of course.h that every one
 * answers alike, and the lookups of the units a view lists.  Ordinary
 * functions over tables each game fills: its runtime.c defines
 * `kit_course`, a struct course_kit of a few functions over its own start
 * and view, and a game whose view lists units keeps them in a struct
 * kit_units over arrays of its own.  It defines functions: include it once per kit, in its
 * runtime.c, after the game's header (which declares course.h's types).
 */
#ifndef KIT_COURSE_RUNTIME_H
#define KIT_COURSE_RUNTIME_H

#include <string.h>

#include "games/kit/runtime.h"

/* What course.h's shared answers read of the game: its fixed number of
 * players, the start's rounds and rows, the last view's round, and a
 * player's score and share of the CPU budget (millionths; -1: frozen) in
 * the last view, for a player from 0 to players - 1. */
struct course_kit {
	int players;
	int (*rounds)(void);
	int (*rows)(void);
	int (*round)(void);
	long long (*score)(int player);
	int (*cpu)(int player);
};
extern const struct course_kit kit_course; /* the game's runtime.c */

int nb_players(void)
{
	return kit_course.players;
}

int nb_rounds(void)
{
	return kit_course.rounds();
}

int rows(void)
{
	return kit_course.rows();
}

int current_round(void)
{
	return kit_course.round();
}

Pos pos(int i, int j)
{
	return (Pos){ i, j };
}

long long score(int player)
{
	return player >= 0 && player < kit_course.players ? kit_course.score(player) : 0;
}

/* -1: frozen, or no such player. */
double status(int player)
{
	if (player < 0 || player >= kit_course.players || kit_course.cpu(player) < 0)
		return -1;
	return kit_course.cpu(player) / 1e6;
}

/* course.h's drawing calls: a Pos is (row i, column j). */
void draw_dot(Pos p, int colour) { kit_draw(DRAW_DOT, colour, p.i, p.j, 0, 0, NULL); }
void draw_line(Pos a, Pos b, int colour) { kit_draw(DRAW_LINE, colour, a.i, a.j, b.i, b.j, NULL); }
void draw_text(Pos p, int colour, const char *text) { kit_draw(DRAW_TEXT, colour, p.i, p.j, 0, 0, text); }

/* The lookups of a view's units (ants), over the game's arrays:
 * index[max_ids] (a unit's place in the view), at[cells] (the id on a
 * cell), lists[players][types][per_list] and list_len[players][types]
 * (one player's units of one type, in the view's order).  Rebuilt from
 * each view: kit_units_clear(), then kit_unit_add() for the k-th unit of
 * the view (an id of max_ids or more is left out: no lookup answers for
 * it). */
struct kit_units {
	int players, types, max_ids, cells, per_list;
	int *index, *at, *lists, *list_len;
};

static inline void kit_units_clear(const struct kit_units *u)
{
	memset(u->index, -1, sizeof *u->index * (size_t)u->max_ids);
	memset(u->at, -1, sizeof *u->at * (size_t)u->cells);
	memset(u->list_len, 0, sizeof *u->list_len * (size_t)(u->players * u->types));
}

static inline void kit_unit_add(const struct kit_units *u, int k, int id, int cell, int player,
				int type)
{
	if (id >= u->max_ids)
		return;
	int list = player * u->types + type;
	u->index[id] = k;
	u->at[cell] = id;
	u->lists[list * u->per_list + u->list_len[list]++] = id;
}

/* The unit's place in the view, -1: none. */
static inline int kit_unit_index(const struct kit_units *u, int id)
{
	return id < 0 || id >= u->max_ids ? -1 : u->index[id];
}

/* The id on a cell, -1: none. */
static inline int kit_unit_at(const struct kit_units *u, int cell)
{
	return u->at[cell];
}

/* One player's units of one type (none for a player out of range). */
static inline Ids kit_units(const struct kit_units *u, int player, int type)
{
	if (player < 0 || player >= u->players)
		return (Ids){ 0, u->lists };
	int list = player * u->types + type;
	return (Ids){ u->list_len[list], u->lists + list * u->per_list };
}

#endif
