/* params.c - Ants' default parameters (the seed's table) and the
 * parameters file: `key value` lines, `#` comments, every key optional,
 * every value range-checked, every error naming its line and key.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games/params_text.h"
#include "games/ants/ants.h"

void ant_params_default(struct ant_params *p)
{
	*p = (struct ant_params){
		.rounds = 250,
		.rows = 25,
		.cols = 25,
		.queen_period = 2,
		.need = { { 3, 3, 3 }, { 1, 1, 1 } },
		.food = { { 2, 0, 1 }, { 0, 1, 2 }, { 1, 2, 0 } },
		.ini_soldiers = 3,
		.ini_workers = 11,
		.bonus_rows = 3,
		.bonus_cols = 3,
		.bonus_period = 25,
		.worker_life = 75,
		.soldier_life = 150,
		.queen_life = 300,
	};
}

int ant_corner_diagonals(const struct ant_params *p)
{
	int ants = 1 + p->ini_soldiers + p->ini_workers, k = 0;
	while (k * (k + 1) / 2 < ants)
		k++;
	return k;
}

/* ---- keys ---------------------------------------------------------------- */

/* The parameters are an int array (ants.h); `players` is fixed at 4 and
 * only accepted for symmetry with the other games. */
#define ANT_AT(index) ((size_t)(index) * sizeof(int))

#define ANT_LIFE_MAX 10000
#define ANT_AMOUNT_MAX 100 /* nutrients of a bonus or of an egg */

static const struct pt_key ant_keys[] = {
	PT_FIXED("players", ANT_PLAYERS),
	{ "rounds", ANT_AT(ANT_P_ROUNDS), 1, ANT_MAX_ROUNDS },
	{ "rows", ANT_AT(ANT_P_ROWS), ANT_MIN_ROWS, ANT_MAX_ROWS },
	{ "cols", ANT_AT(ANT_P_COLS), ANT_MIN_ROWS, ANT_MAX_ROWS },
	{ "queen_period", ANT_AT(ANT_P_QUEEN_PERIOD), 1, ANT_MAX_ROUNDS },
	{ "soldier_carbo", ANT_AT(ANT_P_NEED + 0), 0, ANT_AMOUNT_MAX },
	{ "soldier_prote", ANT_AT(ANT_P_NEED + 1), 0, ANT_AMOUNT_MAX },
	{ "soldier_lipid", ANT_AT(ANT_P_NEED + 2), 0, ANT_AMOUNT_MAX },
	{ "worker_carbo", ANT_AT(ANT_P_NEED + 3), 0, ANT_AMOUNT_MAX },
	{ "worker_prote", ANT_AT(ANT_P_NEED + 4), 0, ANT_AMOUNT_MAX },
	{ "worker_lipid", ANT_AT(ANT_P_NEED + 5), 0, ANT_AMOUNT_MAX },
	{ "bread_carbo", ANT_AT(ANT_P_FOOD + 0), 0, ANT_AMOUNT_MAX },
	{ "bread_prote", ANT_AT(ANT_P_FOOD + 1), 0, ANT_AMOUNT_MAX },
	{ "bread_lipid", ANT_AT(ANT_P_FOOD + 2), 0, ANT_AMOUNT_MAX },
	{ "seed_carbo", ANT_AT(ANT_P_FOOD + 3), 0, ANT_AMOUNT_MAX },
	{ "seed_prote", ANT_AT(ANT_P_FOOD + 4), 0, ANT_AMOUNT_MAX },
	{ "seed_lipid", ANT_AT(ANT_P_FOOD + 5), 0, ANT_AMOUNT_MAX },
	{ "leaf_carbo", ANT_AT(ANT_P_FOOD + 6), 0, ANT_AMOUNT_MAX },
	{ "leaf_prote", ANT_AT(ANT_P_FOOD + 7), 0, ANT_AMOUNT_MAX },
	{ "leaf_lipid", ANT_AT(ANT_P_FOOD + 8), 0, ANT_AMOUNT_MAX },
	{ "num_ini_soldiers", ANT_AT(ANT_P_INI_SOLDIERS), 0, ANT_MAX_INITIAL - 1 },
	{ "num_ini_workers", ANT_AT(ANT_P_INI_WORKERS), 0, ANT_MAX_INITIAL - 1 },
	{ "bonus_rows", ANT_AT(ANT_P_BONUS_ROWS), 1, ANT_MAX_ROWS / 2 },
	{ "bonus_cols", ANT_AT(ANT_P_BONUS_COLS), 1, ANT_MAX_ROWS / 2 },
	{ "bonus_period", ANT_AT(ANT_P_BONUS_PERIOD), 1, ANT_MAX_ROUNDS },
	{ "worker_life", ANT_AT(ANT_P_WORKER_LIFE), 1, ANT_LIFE_MAX },
	{ "soldier_life", ANT_AT(ANT_P_SOLDIER_LIFE), 1, ANT_LIFE_MAX },
	{ "queen_life", ANT_AT(ANT_P_QUEEN_LIFE), 1, ANT_LIFE_MAX },
};

struct ant_parse {
	struct pt_parse pt;
	struct ant_params *p;
};

/* ---- checks across keys -------------------------------------------------- */

static int ant_check_all(void *ctx)
{
	struct ant_parse *ps = ctx;
	const struct ant_params *p = ps->p;
	int side = p->rows < p->cols ? p->rows : p->cols;
	/* The food rectangles live inside a quadrant. */
	if (p->bonus_rows > p->rows / 2)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "bonus_rows"), "bonus_rows",
				"%d does not fit in a quadrant of %d rows", p->bonus_rows,
				p->rows / 2);
	if (p->bonus_cols > p->cols / 2)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "bonus_cols"), "bonus_cols",
				"%d does not fit in a quadrant of %d columns", p->bonus_cols,
				p->cols / 2);
	int ls = pt_line_of(&ps->pt, "num_ini_soldiers"), lw = pt_line_of(&ps->pt, "num_ini_workers");
	if (1 + p->ini_soldiers + p->ini_workers > ANT_MAX_INITIAL)
		return pt_fail(&ps->pt, ls > lw ? ls : lw, "num_ini_soldiers + num_ini_workers",
				"%d ants with the queen, at most %d", 1 + p->ini_soldiers + p->ini_workers,
				ANT_MAX_INITIAL);
	/* A colony on a dry board stays in its quadrant, one diagonal short of
	 * its middle (water pushes it a little further out: board.c). */
	int k = ant_corner_diagonals(p);
	if (k + 1 > side / 2)
		return pt_fail(&ps->pt, ls > lw ? ls : lw, "num_ini_soldiers + num_ini_workers",
				"%d ants need %d diagonals of a corner; the board allows %d",
				1 + p->ini_soldiers + p->ini_workers, k, side / 2 - 1);
	return 0;
}

_Static_assert(sizeof ant_keys / sizeof *ant_keys <= PT_MAX_KEYS,
	       "ant_keys: more keys than struct pt_parse has room for");

static const struct pt_format ant_params_format = {
	ant_keys, (int)(sizeof ant_keys / sizeof *ant_keys), NULL, NULL, ant_check_all
};

int ant_params_parse(const char *text, struct ant_params *p, err_t err)
{
	ant_params_default(p);
	struct ant_parse ps = { .p = p };
	return pt_read_params(&ant_params_format, &ps.pt, p, text, err);
}

json_t *ant_params_json(const struct ant_params *p)
{
	return pt_json(&ant_params_format, p);
}
