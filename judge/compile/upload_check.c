/* upload_check.c - the checks every upload passes before it is stored. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "games/game.h"
#include "judge/compile/compile.h"
#include "judge/compile/cscan.h"
#include "judge/compile/upload_check.h"

static bool is_blank_char(char c)
{
	return c == ' ' || c == '\t';
}

bool upload_author_valid(const char *a)
{
	size_t n = strlen(a);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)a[i] < 0x20 || a[i] == 0x7f)
			return false;
	/* "bob " and "bob" would look alike everywhere they are shown */
	return n >= 1 && n <= 63 && !is_blank_char(a[0]) && !is_blank_char(a[n - 1]);
}

/* The same checks the compile step makes on the source (cscan_source, with
 * the game header every kit names GAME.h), so that nothing is stored that
 * would fail for a reason known now.  Messages name the file's base name,
 * as the compile log does. */
static int source_checks(const char *game, const char *label, const char *src, size_t len,
			 err_t err)
{
	char header[NAME_MAX + 1];
	err_t why;
	const char *base = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;
	snprintf(header, sizeof header, "%s.h", game);
	int rc = cscan_source(base, src, len, header, why);
	if (rc > 0)
		err_set(err, "%s", why->msg);
	else if (rc < 0)
		err_set(err, "out of memory checking %s", label);
	return rc == 0 ? 0 : -1;
}

/* What to write, ending every refusal of the name. */
#define WRITE_NAME "write PLAYER_NAME(Name); once, on a line of its own outside every " \
		   "#if and function, Name being 1 to 12 letters, digits or _"

/* Why the judge cannot take the file's name at its word, or NULL.  A name
 * the preprocessor could drop, rename or multiply, or a player_name of
 * the file's own, would let the program announce another name than the
 * one stored: every record of its matches would show that one. */
static const char *name_doubt(const struct cscan_names *n, unsigned *line)
{
	if ((*line = n->own))
		return "writes player_name itself, which PLAYER_NAME(Name) defines (only a "
		       "function may read it)";
	if ((*line = n->in_directive))
		return "writes PLAYER_NAME on a preprocessor line (#define, #undef, #if...): the "
		       "name may not come from a macro";
	if ((*line = n->in_group))
		return "writes PLAYER_NAME inside #if/#ifdef/#ifndef ... #endif: the name must "
		       "not depend on the preprocessor";
	if ((*line = n->nested))
		return "writes PLAYER_NAME inside braces or parentheses";
	return NULL;
}

int upload_name_check(const char *label, const char *src, size_t len,
		      char name[PLAYER_NAME_MAX + 1], err_t err)
{
	struct cscan_names n;
	unsigned line;
	const char *doubt;
	if (cscan_player_names(src, len, &n) < 0)
		err_set(err, "out of memory reading %s", label);
	else if ((doubt = name_doubt(&n, &line)))
		err_set(err, "%s:%u: %s: " WRITE_NAME, label, line, doubt);
	else if (n.count > 1)
		err_set(err, "%s writes PLAYER_NAME %d times: " WRITE_NAME, label,
			 n.count);
	else if (n.count == 0 || !n.name[0])
		err_set(err, "%s does not name its player: " WRITE_NAME, label);
	else {
		memcpy(name, n.name, sizeof n.name);
		return 0;
	}
	return -1;
}

/* Names the games there are, so the contestant can correct --game. */
static void unknown_game(const char *game, err_t err)
{
	int n = snprintf(err->msg, ERR_LEN, "unknown game '%.64s'; the judge knows:", game);
	for (const struct game *const *g = game_list(); *g && n < ERR_LEN; g++)
		n += snprintf(err->msg + n, ERR_LEN - (size_t)n, " %s", (*g)->name);
}

int upload_check(const char *game, const char *author, const char *label, const char *src,
		 size_t len, char name[PLAYER_NAME_MAX + 1], err_t err)
{
	err_t why;
	if (!game_find(game))
		unknown_game(game, err);
	else if (!upload_author_valid(author))
		err_set(err, "the author name must be 1 to 63 printable characters, "
			 "not blank, with no space at either end");
	else if (len == 0)
		err_set(err, "%s is empty", label);
	else if (len > CMP_SOURCE_MAX) /* read over HTTP, no file size said so */
		err_set(err, "%s is larger than %d KiB: the compile step would refuse "
			 "it; make it smaller", label, CMP_SOURCE_MAX / 1024);
	else if (cscan_text(label, src, len, why) != 0)
		err_set(err, "%s%s", why->msg, strstr(why->msg, "byte-order") ? ""
			: " (upload the C source file, not a binary)");
	else if (upload_name_check(label, src, len, name, err) == 0 &&
		 source_checks(game, label, src, len, err) == 0)
		return 0;
	return -1;
}
