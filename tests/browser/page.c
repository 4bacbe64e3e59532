/* page.c - the viewer page of a replay file, for the browser tests and the
 * benchmark: `viewer-page REPLAY.json PAGE.html`. */
#include <jansson.h>
#include <stdio.h>

#include "judge/replay/viewer.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: viewer-page REPLAY.json PAGE.html\n");
		return 2;
	}
	json_error_t jerr;
	json_t *replay = json_load_file(argv[1], 0, &jerr);
	if (!replay) {
		fprintf(stderr, "viewer-page: %s: %s (line %d)\n", argv[1], jerr.text, jerr.line);
		return 1;
	}
	err_t err;
	int rc = viewer_write(argv[2], replay, err);
	if (rc < 0)
		fprintf(stderr, "viewer-page: %s\n", err->msg);
	json_decref(replay);
	return rc < 0 ? 1 : 0;
}
