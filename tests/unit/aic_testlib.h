/* aic_testlib.h - small worlds from text maps for AIC2018's rule tests. */
#ifndef AIC_TESTLIB_H
#define AIC_TESTLIB_H

#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "games/aic2018/rules/internal.h" /* white box: placing units */
#include "judge/base/error.h"

/* The parameters (keys) and the rows of a map, into w; no VP appear
 * unless the keys ask, wood 10000 unless they set it. */
static inline struct aic_world *aic_test_world(struct aic_world *w, const char *keys,
					       const char *const *rows)
{
	static char text[8192];
	size_t n = (size_t)snprintf(text, sizeof text, "%s\n%s\n%s\nmap\n",
				    strstr(keys, "vp ") ? "" : "vp 0",
				    strstr(keys, "start_wood") ? "" : "start_wood 10000", keys);
	for (int i = 0; rows[i]; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s\n", rows[i]);
	err_t err;
	struct aic_params p;
	cr_assert_eq(aic_params_parse(text, &p, err), 0, "%s", err->msg);
	cr_assert_eq(aic_world_init(w, &p, 7), 0, "no map joins the starts");
	return w;
}

static inline int aic_test_unit(const struct aic_world *w, int x, int y)
{
	int s = aic_unit_at(w, (struct aic_loc){ x, y });
	cr_assert_neq(s, AIC_NO_UNIT, "no unit at %d,%d", x, y);
	return s;
}

/* Sets a unit's EXP and the level it gives (white box: no vision change,
 * so not for archers' Binoculars). */
static inline void aic_test_exp(struct aic_world *w, int slot, int exp)
{
	w->unit[slot].exp = (int16_t)exp;
	w->unit[slot].level = (uint8_t)(exp >= aic_types[w->unit[slot].type].exp[2]   ? 3
					: exp >= aic_types[w->unit[slot].type].exp[1] ? 2
					: exp >= aic_types[w->unit[slot].type].exp[0] ? 1
										       : 0);
}

#define AIC_L(x, y) ((struct aic_loc){ (x), (y) })

#endif
