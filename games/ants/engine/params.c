/* params.c - Ants' default parameters (the seed's table) and the
 * parameters file: `key value` lines, `#` comments, every key optional,
 * every value range-checked, every error naming its line and key.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* Index into the parameters as an int array (ants.h); -1 is `players`,
 * which is fixed at 4 and only accepted for symmetry with the other games. */
struct ant_key {
	const char *name;
	int index, min, max;
};

#define ANT_LIFE_MAX 10000
#define ANT_AMOUNT_MAX 100 /* nutrients of a bonus or of an egg */

static const struct ant_key ant_keys[] = {
	{ "players", -1, ANT_PLAYERS, ANT_PLAYERS },
	{ "rounds", ANT_P_ROUNDS, 1, ANT_MAX_ROUNDS },
	{ "rows", ANT_P_ROWS, ANT_MIN_ROWS, ANT_MAX_ROWS },
	{ "cols", ANT_P_COLS, ANT_MIN_ROWS, ANT_MAX_ROWS },
	{ "queen_period", ANT_P_QUEEN_PERIOD, 1, ANT_MAX_ROUNDS },
	{ "soldier_carbo", ANT_P_NEED + 0, 0, ANT_AMOUNT_MAX },
	{ "soldier_prote", ANT_P_NEED + 1, 0, ANT_AMOUNT_MAX },
	{ "soldier_lipid", ANT_P_NEED + 2, 0, ANT_AMOUNT_MAX },
	{ "worker_carbo", ANT_P_NEED + 3, 0, ANT_AMOUNT_MAX },
	{ "worker_prote", ANT_P_NEED + 4, 0, ANT_AMOUNT_MAX },
	{ "worker_lipid", ANT_P_NEED + 5, 0, ANT_AMOUNT_MAX },
	{ "bread_carbo", ANT_P_FOOD + 0, 0, ANT_AMOUNT_MAX },
	{ "bread_prote", ANT_P_FOOD + 1, 0, ANT_AMOUNT_MAX },
	{ "bread_lipid", ANT_P_FOOD + 2, 0, ANT_AMOUNT_MAX },
	{ "seed_carbo", ANT_P_FOOD + 3, 0, ANT_AMOUNT_MAX },
	{ "seed_prote", ANT_P_FOOD + 4, 0, ANT_AMOUNT_MAX },
	{ "seed_lipid", ANT_P_FOOD + 5, 0, ANT_AMOUNT_MAX },
	{ "leaf_carbo", ANT_P_FOOD + 6, 0, ANT_AMOUNT_MAX },
	{ "leaf_prote", ANT_P_FOOD + 7, 0, ANT_AMOUNT_MAX },
	{ "leaf_lipid", ANT_P_FOOD + 8, 0, ANT_AMOUNT_MAX },
	{ "num_ini_soldiers", ANT_P_INI_SOLDIERS, 0, ANT_MAX_INITIAL - 1 },
	{ "num_ini_workers", ANT_P_INI_WORKERS, 0, ANT_MAX_INITIAL - 1 },
	{ "bonus_rows", ANT_P_BONUS_ROWS, 1, ANT_MAX_ROWS / 2 },
	{ "bonus_cols", ANT_P_BONUS_COLS, 1, ANT_MAX_ROWS / 2 },
	{ "bonus_period", ANT_P_BONUS_PERIOD, 1, ANT_MAX_ROUNDS },
	{ "worker_life", ANT_P_WORKER_LIFE, 1, ANT_LIFE_MAX },
	{ "soldier_life", ANT_P_SOLDIER_LIFE, 1, ANT_LIFE_MAX },
	{ "queen_life", ANT_P_QUEEN_LIFE, 1, ANT_LIFE_MAX },
};

#define ANT_NKEYS ((int)(sizeof ant_keys / sizeof ant_keys[0]))

static int ant_key_find(const char *name, size_t len)
{
	for (int k = 0; k < ANT_NKEYS; k++)
		if (strlen(ant_keys[k].name) == len && memcmp(ant_keys[k].name, name, len) == 0)
			return k;
	return -1;
}

const char *ant_param_name(int index)
{
	for (int k = 0; k < ANT_NKEYS; k++)
		if (ant_keys[k].index == index)
			return ant_keys[k].name;
	return "?";
}

/* ---- lines --------------------------------------------------------------- */

struct ant_parse {
	struct ant_params *p;
	char *err;
	int key_line[ANT_NKEYS]; /* where each key was given, 0: not given */
};

__attribute__((format(printf, 4, 5))) static int ant_fail(struct ant_parse *ps, int line,
								    const char *key, const char *fmt, ...)
{
	int n = line > 0 ? snprintf(ps->err, GAME_ERRLEN, "line %d: %s: ", line, key)
			 : snprintf(ps->err, GAME_ERRLEN, "%s: ", key);
	if (n < 0 || n >= GAME_ERRLEN)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, GAME_ERRLEN - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool ant_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Cuts the next line off *text, without comment and surrounding blanks. */
static bool ant_next_line(const char **text, const char **s, size_t *len)
{
	const char *t = *text;
	if (!*t)
		return false;
	const char *end = strchr(t, '\n');
	size_t n = end ? (size_t)(end - t) : strlen(t);
	*text = end ? end + 1 : t + n;
	const char *hash = memchr(t, '#', n);
	if (hash)
		n = (size_t)(hash - t);
	while (n && ant_blank(*t))
		t++, n--;
	while (n && ant_blank(t[n - 1]))
		n--;
	*s = t;
	*len = n;
	return true;
}

static bool ant_parse_int(const char *s, size_t len, int *out)
{
	if (len == 0 || len > 9)
		return false;
	int v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static int ant_parse_line(struct ant_parse *ps, const char *s, size_t len, int line)
{
	size_t klen = 0;
	while (klen < len && !ant_blank(s[klen]))
		klen++;
	char key[40];
	snprintf(key, sizeof key, "%.*s", (int)(klen < 39 ? klen : 39), s);
	int k = ant_key_find(s, klen);
	if (k < 0)
		return ant_fail(ps, line, key, "unknown key");
	if (ps->key_line[k])
		return ant_fail(ps, line, key, "given twice (first on line %d)", ps->key_line[k]);
	const char *v = s + klen;
	size_t vlen = len - klen;
	while (vlen && ant_blank(*v))
		v++, vlen--;
	int value;
	if (!ant_parse_int(v, vlen, &value))
		return ant_fail(ps, line, key, "expected one non-negative integer");
	const struct ant_key *ak = &ant_keys[k];
	if (value < ak->min || value > ak->max)
		return ant_fail(ps, line, key, "%d is out of range (%d..%d)", value, ak->min,
				ak->max);
	if (ak->index >= 0)
		((int *)ps->p)[ak->index] = value;
	ps->key_line[k] = line;
	return 0;
}

/* ---- checks across keys -------------------------------------------------- */

static int ant_line_of(const struct ant_parse *ps, const char *key)
{
	return ps->key_line[ant_key_find(key, strlen(key))];
}

static int ant_check_all(struct ant_parse *ps)
{
	const struct ant_params *p = ps->p;
	int side = p->rows < p->cols ? p->rows : p->cols;
	/* The food rectangles live inside a quadrant. */
	if (p->bonus_rows > p->rows / 2)
		return ant_fail(ps, ant_line_of(ps, "bonus_rows"), "bonus_rows",
				"%d does not fit in a quadrant of %d rows", p->bonus_rows,
				p->rows / 2);
	if (p->bonus_cols > p->cols / 2)
		return ant_fail(ps, ant_line_of(ps, "bonus_cols"), "bonus_cols",
				"%d does not fit in a quadrant of %d columns", p->bonus_cols,
				p->cols / 2);
	int ls = ant_line_of(ps, "num_ini_soldiers"), lw = ant_line_of(ps, "num_ini_workers");
	if (1 + p->ini_soldiers + p->ini_workers > ANT_MAX_INITIAL)
		return ant_fail(ps, ls > lw ? ls : lw, "num_ini_soldiers + num_ini_workers",
				"%d ants with the queen, at most %d", 1 + p->ini_soldiers + p->ini_workers,
				ANT_MAX_INITIAL);
	/* Corners are kept dry up to one diagonal past the colony, and must not
	 * meet: see board.c. */
	int k = ant_corner_diagonals(p);
	if (k + 1 > side / 2)
		return ant_fail(ps, ls > lw ? ls : lw, "num_ini_soldiers + num_ini_workers",
				"%d ants need %d diagonals of a corner; the board allows %d",
				1 + p->ini_soldiers + p->ini_workers, k, side / 2 - 1);
	return 0;
}

int ant_params_parse(const char *text, struct ant_params *p, char err[GAME_ERRLEN])
{
	ant_params_default(p);
	struct ant_parse ps = { .p = p, .err = err };
	const char *s;
	size_t len;
	int line = 0;
	if (!text)
		text = "";
	while (ant_next_line(&text, &s, &len)) {
		line++;
		if (len && ant_parse_line(&ps, s, len, line) < 0)
			return -1;
	}
	return ant_check_all(&ps);
}
