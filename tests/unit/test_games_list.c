/* games/LIST is the one list of the games: the judge's registry is built
 * from it, in its order, and what scripts/games reads from it (every game,
 * the course games) is what the judge knows. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "games/game.h"
#include "tests/unit/cli_testlib.h"

/* The names `scripts/games ARGS` prints, one a line, into out. */
static void listed(const char *args, char *out, size_t cap)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "scripts/games %s", args);
	cr_assert_eq(cli_run(cmd, out, cap), 0, "%s: %s", cmd, out);
}

Test(games_list, the_registry_is_the_list_in_its_order)
{
	char want[1024], have[1024] = "", course[1024] = "";
	listed("", want, sizeof want);
	for (const struct game *const *g = game_list(); *g; g++) {
		const struct game_entry *e = game_entry((*g)->name);
		cr_assert(e && e->game == *g, "%s has no entry", (*g)->name);
		cr_assert(e->kit_entry && *e->kit_entry, "%s names no kit entry points", (*g)->name);
		snprintf(have + strlen(have), sizeof have - strlen(have), "%s\n", (*g)->name);
		if (e->course)
			snprintf(course + strlen(course), sizeof course - strlen(course), "%s\n",
				 (*g)->name);
	}
	cr_assert_str_eq(have, want);
	listed("course", want, sizeof want);
	cr_assert_str_eq(course, want);
	cr_assert_null(game_entry("chess"));
}
