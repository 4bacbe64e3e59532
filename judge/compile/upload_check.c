/* upload_check.c - the checks every upload passes before it is stored. */
#include <stdio.h>
#include <string.h>

#include "games/game.h"
#include "judge/compile/cscan.h"
#include "judge/compile/source.h"
#include "judge/compile/upload_check.h"

bool upload_author_valid(const char *a)
{
	size_t n = strlen(a);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)a[i] < 0x20 || a[i] == 0x7f)
			return false;
	return n >= 1 && n <= 63;
}

int upload_check(const char *game, const char *author, const char *label, const char *src,
		 size_t len, char name[PLAYER_NAME_MAX + 1], char err[UPLOAD_ERRLEN])
{
	char why[CSCAN_ERRLEN];
	if (!game_find(game))
		snprintf(err, UPLOAD_ERRLEN, "unknown game '%s'", game);
	else if (!upload_author_valid(author))
		snprintf(err, UPLOAD_ERRLEN, "the author name must be 1 to 63 printable characters");
	else if (len == 0)
		snprintf(err, UPLOAD_ERRLEN, "%s is empty", label);
	else if (cscan_text(label, src, len, why) != 0)
		snprintf(err, UPLOAD_ERRLEN, "%s (upload the C source file, not a binary)", why);
	else if (src_player_name(src, len, name) < 0)
		snprintf(err, UPLOAD_ERRLEN,
			 "%s does not name its player: write PLAYER_NAME(Name), Name being 1 to 12 "
			 "letters, digits or _", label);
	else
		return 0;
	return -1;
}
