/* internal.h - what the files of AIC2018's rules share and nobody else
 * needs: placing and removing units, damage and death, experience. */
#ifndef AIC_RULES_INTERNAL_H
#define AIC_RULES_INTERNAL_H

#include "games/aic2018/world.h"

static inline struct aic_cell *aic_cell_at(struct aic_world *w, struct aic_loc l)
{
	return &w->cell[aic_index(l)];
}

static inline const struct aic_cell *aic_cell_c(const struct aic_world *w, struct aic_loc l)
{
	return &w->cell[aic_index(l)];
}

static inline bool aic_valid_slot(const struct aic_world *w, int slot)
{
	return slot >= 0 && slot < AIC_MAX_UNITS && w->unit[slot].id != 0;
}

/* units.c: adds (+1) or removes (-1) a unit's vision disc to its team's counts. */
void aic_vision_add(struct aic_world *w, int slot, int sign);
/* map.c: the cells of the disc of squared radius r around c that are in
 * the map, as rows from the north: row i is y = row[i].y, x in
 * [row[i].x0, row[i].x1]. */
struct aic_disc {
	int rows;
	struct {
		int16_t y, x0, x1;
	} row[AIC_MAX_SIDE];
};
void aic_disc(const struct aic_world *w, struct aic_loc c, int r, struct aic_disc *d);

/* units.c: a new unit on a free cell, put in the order at position pos;
 * its slot.  No check: the callers checked. */
int aic_place_unit(struct aic_world *w, int team, int type, struct aic_loc l, int id, int pos,
		   int construction);
/* units.c: damage to a unit from a team's unit of a type (team -1: no
 * one); kills it at 0 HP.  True when it died. */
bool aic_hurt(struct aic_world *w, int slot, int damage, int by_team, int by_type);
/* units.c: damage to the tree on a cell; a growing small tree, or one at
 * 0 HP, is gone. */
void aic_hurt_tree(struct aic_world *w, struct aic_loc l, int damage);
/* units.c: moves a unit to a free cell (vision follows). */
void aic_relocate(struct aic_world *w, int slot, struct aic_loc to);
/* units.c: the level EXP gives a unit type. */
int aic_level_for(int type, int exp);
/* units.c: the unit's skills: passive from level 1, active from 2;
 * workers have both from the start, barracks none. */
bool aic_has_passive(const struct aic_unit *u);
bool aic_has_active(const struct aic_unit *u);
/* units.c: the unit can act now (live, not under construction). */
int aic_check_actor(const struct aic_world *w, int slot);
/* units.c: the checks of an attack or a skill on a target cell: in the
 * map, within [min_range, range], seen by the team, not behind an oak. */
int aic_check_target(const struct aic_world *w, int slot, struct aic_loc t, int range,
		     int min_range);
/* turns.c: the chance p that a cell that may get VP gets them in a round
 * (the rules: 1 / (50 sqrt(T))). */
void aic_vp_chance(struct aic_world *w, double p);
/* economy.c: marks an id used. */
void aic_use_id(struct aic_world *w, int id);
bool aic_id_free(const struct aic_world *w, int id);

#endif
