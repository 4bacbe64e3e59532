/* replay_io.h - a match's replay as bytes: files, the store, gzip.
 *
 * A replay (judge/play/match.h makes it) is compact JSON.  The store keeps it
 * gzip-compressed (a match row's `replay`, a BLOB; rows written before
 * that hold the plain JSON text, and are read as well); files are plain
 * JSON unless their name ends in .gz.
 *
 * Promises: compressing is deterministic (no time or file name in the
 * gzip header), so one replay gives the same bytes every time; reading
 * takes any bytes, plain or gzip, and refuses what does not decompress,
 * is not JSON, or would grow past REPLAY_MAX_BYTES, with a message that
 * says which.
 */
#ifndef JUDGE_REPLAY_IO_H
#define JUDGE_REPLAY_IO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/store/store.h"
#include "judge/base/error.h"

#define REPLAY_MAX_BYTES ((size_t)256 << 20)

/* gzip of len bytes: malloc'd into *out. */
int replay_gzip(const void *data, size_t len, uint8_t **out, size_t *out_len,
		err_t err);
/* The JSON text of stored or file bytes, gzip or plain: malloc'd and
 * NUL-terminated into *text (any bytes, not only JSON: the store's
 * compressed binaries are read back with it too). */
int replay_text(const uint8_t *bytes, size_t len, char **text, size_t *text_len,
		err_t err);

/* FILE, plain or gzip, parsed; NULL with err. */
json_t *replay_read_file(const char *path, err_t err);
/* Compact JSON into path, gzip-compressed when path ends in .gz; "-" is
 * standard output (plain).  Written as file_write.h says: a device or a
 * FIFO in place, a directory refused. */
int replay_write_file(const char *path, const json_t *replay, err_t err);
/* The same for a replay's JSON text. */
int replay_write_text(const char *path, const char *text, size_t len, err_t err);
/* The bytes the store keeps: gzip of the compact JSON. */
int replay_pack(const json_t *replay, uint8_t **out, size_t *out_len, err_t err);

/* A seat's stored stderr log (store_match_log) as text: inflated, made
 * valid UTF-8 (safe_utf8), malloc'd into *text; -1 with err. */
int replay_log_text(const struct store_seat_log *log, char **text, size_t *len,
		    err_t err);

/* Match `id`'s replay from the store as plain JSON text (malloc'd): 1;
 * 0 when there is no such match or no replay stored (err says which);
 * -1 when the store or the stored bytes failed (err). */
int replay_stored_text(struct store *s, int64_t id, char **text, size_t *len,
		       err_t err);

#endif
