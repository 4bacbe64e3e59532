/* course_runtime.h - what the course games' runtimes (Dominator, Ants, Star
 * War) share on top of runtime.h: the functions of course.h that every one
 * answers alike, and the lookups of the units a view lists.  It defines
 * functions and statics: include it once per kit, in its runtime.c, after
 * the game's header (which declares course.h's types).
 */
#ifndef KIT_COURSE_RUNTIME_H
#define KIT_COURSE_RUNTIME_H

#include <string.h>

#include "games/kit/runtime.h"

/* course.h's drawing calls: a Pos is (row i, column j). */
KIT_DRAWING_API(Pos, i, j)

/* nb_players() (PLAYERS), nb_rounds() (ROUNDS), rows() (ROWS) and
 * current_round() (ROUND), expressions on the kit's `start` and `view`;
 * pos(); score() and status(): a player's score so far and its share of
 * the CPU budget (-1: frozen, or no such player) from PLAYER[p].score and
 * PLAYER[p].cpu of the last view. */
#define KIT_COURSE_API(PLAYERS, ROUNDS, ROWS, ROUND, PLAYER)                                \
	int nb_players(void) { return PLAYERS; }                                            \
	int nb_rounds(void) { return ROUNDS; }                                              \
	int rows(void) { return ROWS; }                                                     \
	int current_round(void) { return ROUND; }                                           \
	Pos pos(int i, int j) { return (Pos){ i, j }; }                                     \
	long long score(int player)                                                         \
	{                                                                                   \
		return player >= 0 && player < (PLAYERS) ? PLAYER[player].score : 0;        \
	}                                                                                   \
	double status(int player)                                                           \
	{                                                                                   \
		if (player < 0 || player >= (PLAYERS) || PLAYER[player].cpu < 0)            \
			return -1;                                                          \
		return PLAYER[player].cpu / 1e6;                                            \
	}

/* A parameter function of the API: NAME() answers the field FIELD of the
 * start message's parameters.  A kit lists its parameters once,
 * X(NAME, FIELD) each, and expands the list with KIT_PARAM. */
#define KIT_PARAM(NAME, FIELD) int NAME(void) { return start.params.FIELD; }

/* The lookups of a view's units (ants), rebuilt from each view: call
 * kit_units_clear(), then kit_unit_add() for the k-th unit of the view (an
 * id of MAX_IDS or more is left out: no lookup answers for it).  Then
 * kit_unit_index(id) is the unit's place in the view (-1: none),
 * kit_unit_at(cell) the id on a cell (-1: none), and kit_units(player,
 * type) the ids of one player's units of one type in the view's order
 * (empty for a player out of range).  PER_LIST bounds one list. */
#define KIT_UNIT_LOOKUPS(PLAYERS, TYPES, MAX_IDS, MAX_CELLS, PER_LIST)                      \
	static int kit_index[MAX_IDS];                                                      \
	static int kit_at[MAX_CELLS];                                                       \
	static int kit_lists[PLAYERS][TYPES][PER_LIST];                                     \
	static int kit_list_len[PLAYERS][TYPES];                                            \
	static void kit_units_clear(void)                                                   \
	{                                                                                   \
		memset(kit_index, -1, sizeof kit_index);                                    \
		memset(kit_at, -1, sizeof kit_at);                                          \
		memset(kit_list_len, 0, sizeof kit_list_len);                               \
	}                                                                                   \
	static void kit_unit_add(int k, int id, int cell, int player, int type)             \
	{                                                                                   \
		if (id >= (MAX_IDS))                                                        \
			return;                                                             \
		kit_index[id] = k;                                                          \
		kit_at[cell] = id;                                                          \
		kit_lists[player][type][kit_list_len[player][type]++] = id;                 \
	}                                                                                   \
	static int kit_unit_index(int id)                                                   \
	{                                                                                   \
		return id < 0 || id >= (MAX_IDS) ? -1 : kit_index[id];                      \
	}                                                                                   \
	static inline int kit_unit_at(int cell) { return kit_at[cell]; }                    \
	static Ids kit_units(int player, int type)                                          \
	{                                                                                   \
		if (player < 0 || player >= (PLAYERS))                                      \
			return (Ids){ 0, kit_lists[0][0] };                                 \
		return (Ids){ kit_list_len[player][type], kit_lists[player][type] };        \
	}

#endif
