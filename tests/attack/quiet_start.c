/* A player as the kits make one: glibc's start, some small allocations,
 * its messages read from the region the judge shares with it; it answers
 * "ok" to each.  None of that should need an answer from the judge. */
#include <stdlib.h>

#include "games/kit/io.h"

static uint8_t buf[FRAME_HEADER + 4096];

int main(void)
{
	struct kit_inbox in = { .buf = buf, .cap = sizeof buf };
	size_t len;
	char *volatile block[200];
	for (int i = 0; i < 200; i++)
		if (!(block[i] = malloc(1024)))
			return 1;
	while (kit_next_frame(&in, &len))
		if (kit_write_frame((const uint8_t *)"ok", 2, NULL) < 0)
			return 1;
	return 0;
}
