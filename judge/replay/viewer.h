/* viewer.h - the replay viewer: one self-contained HTML page per replay.
 *
 * Promises.  The page needs nothing but itself: the viewer's HTML, CSS and
 * JavaScript (web/viewer/, compiled into the programs) and the replay are
 * inlined, nothing is fetched.  Whatever text the replay holds (player
 * names, labels, reasons), it cannot end the script element that carries
 * it: '<', '>' and '&' are written as JSON escapes.  A replay of more than
 * VIEWER_GZIP_OVER bytes is carried gzip-compressed and base64-encoded
 * (the page inflates it with the browser's DecompressionStream).  The page
 * is written as file_write.h says: a file whole or not at all (temporary
 * file, then rename), "-" standard output, a device or FIFO in place.
 */
#ifndef JUDGE_VIEWER_H
#define JUDGE_VIEWER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/replay/web_page.h"
#include "judge/store/store.h"
#include "judge/base/error.h"

#define VIEWER_GZIP_OVER (64 * 1024)

/* The page for one replay, in a new buffer (free it).  0, or -1 with err
 * filled. */
int viewer_page(const json_t *replay, char **page, size_t *len, err_t err);

/* Writes the page for one replay to path.  0, or -1 with err filled. */
int viewer_write(const char *path, const json_t *replay, err_t err);

/* Adds the words a person reads (the judge's reason) to the replay's
 * record of seat's freeze: result.frozen's [seat, round, verdict] gets a
 * fourth element, which the page shows instead of the bare verdict. */
void viewer_add_reason(json_t *replay, int seat, const char *reason);

/* Writes the page of stored match `match` (its replay and each frozen
 * player's reason, as the store keeps them) to path.  0; 1 when there is
 * no such match or it has no replay; -1 on an error.  err says which. */
int viewer_write_match(struct store *s, int64_t match, const char *path, err_t err);

/* The same for a replay already read from the store (its JSON text). */
int viewer_write_stored(struct store *s, int64_t match, const char *text, size_t len,
			const char *path, err_t err);

/* The page (as viewer_page) of a replay already read from the store. */
int viewer_page_stored(struct store *s, int64_t match, const char *text, size_t len,
		       char **page, size_t *page_len, err_t err);

#endif
