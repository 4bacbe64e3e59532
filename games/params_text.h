/* params_text.h - the parameters files of every game: `key value` lines,
 * `#` comments, blank lines, and whatever section a game adds (a board, a
 * map), read by the engines (not by players).
 *
 * Promises: a key is looked up in the engine's table, parsed as a decimal
 * integer filling its word, range-checked and stored at its offset in the
 * engine's parameters struct; an error reads "line N: key: what" (or
 * "key: what" for a key left at its default) and stops the parse.  The
 * key table a game reads its file with also writes its replay's "params".
 */
#ifndef GAMES_PARAMS_TEXT_H
#define GAMES_PARAMS_TEXT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "games/game.h"

struct pt_key {
	const char *name;
	size_t offset; /* of its int in the parameters struct, or PT_NOT_STORED */
	int min, max;
};

#define PT_KEY(type, field, lo, hi) { #field, offsetof(type, field), lo, hi }
/* A key that is checked but not stored (a value fixed by the game). */
#define PT_NOT_STORED ((size_t)-1)
/* A key whose one value the game fixes (`players 4`): accepted, not stored. */
#define PT_FIXED(name, value) { name, PT_NOT_STORED, value, value }
#define PT_MAX_KEYS 32

/* One line of the text, without its comment and surrounding blanks. */
struct pt_line {
	const char *s;
	size_t len;
	int number;
};

/* A parse in progress: the engine's keys, where each was given (0: not). */
struct pt_parse {
	const struct pt_key *keys;
	int nkeys;
	void *params;
	struct err *err;
	int key_line[PT_MAX_KEYS];
};

__attribute__((format(printf, 4, 5)))
int pt_fail(const struct pt_parse *ps, int line, const char *key, const char *fmt, ...);

/* Cuts the next line off *text; false at the end. */
bool pt_next_line(const char **text, struct pt_line *line);

/* A decimal integer of at most 9 digits filling the whole word. */
bool pt_parse_int(const char *s, size_t len, int *out);

/* Reads a `key value` line into the parameters; 0 or -1 (err set). */
int pt_key_line(struct pt_parse *ps, const struct pt_line *l);

/* The line a key was given on, 0 if it was not. */
int pt_line_of(const struct pt_parse *ps, const char *key);

/* A game's section: after a line holding its keyword alone ("board",
 * "map"), every non-blank line is one of its rows.  begin and other may
 * be NULL. */
struct pt_section {
	const char *keyword;
	int (*begin)(void *ctx, int line);                /* 0 or -1 */
	int (*row)(void *ctx, const struct pt_line *l);   /* 0 or -1 */
	/* A line before the section that is not `key value` (Star War's
	 * "start"): 1 when the game took it, 0 when it is not the game's. */
	int (*other)(void *ctx, const struct pt_line *l);
};

/* A section whose rows give one character a cell (Dominator's board,
 * Star War's map): every row as wide as the first, at most max_rows rows
 * of max_cols cells.  value(c) is the cell a character stands for, or
 * PT_NO_CELL; put(ctx, index, value) stores cell index (row * cols +
 * col); cells names the characters allowed, for the error. */
struct pt_grid {
	const char *keyword;
	int max_rows, max_cols;
	const char *cells;
	int (*value)(char c);
	void (*put)(void *ctx, int index, int value);
};
#define PT_NO_CELL INT_MIN

/* The rows read so far and the first one's width. */
struct pt_grid_size {
	int rows, cols;
};

/* One row of a grid section into *size and, cell by cell, put(ctx, ...);
 * 0, or -1 with err naming the line and what is wrong with the row. */
int pt_grid_row(struct pt_parse *ps, const struct pt_grid *g, struct pt_grid_size *size,
		const struct pt_line *l, void *ctx);

/* Reads the whole text (NULL: empty): `key value` lines and, with sec,
 * its section.  Returns the keyword's line (0: no section), or -1 with
 * err set, also when the section has no row. */
int pt_read(struct pt_parse *ps, const char *text, const struct pt_section *sec, void *ctx);

/* A game's parameters file, stated once: its key table, its section and
 * its checks (each may be NULL).  The same table names the replay's
 * "params" (pt_json), so a key is listed in one place only. */
struct pt_format {
	const struct pt_key *keys;
	int nkeys;
	const struct pt_section *section;
	int (*check_section)(void *ctx, int line); /* line: the section's keyword's */
	int (*check_all)(void *ctx);
};

/* Reads text into params (which hold the defaults) as f says: pt_read()
 * with ctx = ps, then check_section(ps, line) when the section was given,
 * then check_all(ps).  ps is the first member of the game's own parse
 * struct (the checks' ctx), whose other members the caller set.  0, or -1
 * with err filled. */
int pt_read_params(const struct pt_format *f, struct pt_parse *ps, void *params,
		   const char *text, err_t err);

/* The parameters as a JSON object, key by key in the table's order; a key
 * not stored gives its fixed value (its min).  New reference. */
json_t *pt_json(const struct pt_format *f, const void *params);

/* A game states its int parameters once, as a list macro of X(field, min,
 * max) (Dominator's DOM_PARAMS): the list of PT_INT_FIELD declares them
 * in its parameters struct, the list of its own PT_KEY (of that struct)
 * makes its key table, and its start message may take them from it too. */
#define PT_INT_FIELD(field, lo, hi) int field;

#endif
