#include "judge/replay/replay_io.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "judge/base/file_write.h"
#include "judge/base/json_text.h"
#include "judge/base/safe_text.h"

/* ---- gzip ---------------------------------------------------------------- */

/* deflateInit2's window bits for a gzip wrapper (15 + 16); zlib writes a
 * header with no time and no name, so the bytes depend on the data only.
 * Level 4: on a Dominator replay (84 KB) 1.5 ms for 32.4 KB, where level 9
 * takes 8 ms, a fifth of the worker's CPU per match, for 31.4 KB. */
#define GZIP_WINDOW (15 + 16)
#define GZIP_LEVEL 4

/* len past what a replay may be: said in err. */
static bool too_large(size_t len, err_t err)
{
	if (len > REPLAY_MAX_BYTES)
		err_set(err, "the replay is larger than %zu MiB", (size_t)REPLAY_MAX_BYTES >> 20);
	return len > REPLAY_MAX_BYTES;
}

int replay_gzip(const void *data, size_t len, uint8_t **out, size_t *out_len,
		err_t err)
{
	if (too_large(len, err))
		return -1;
	z_stream z = { 0 };
	if (deflateInit2(&z, GZIP_LEVEL, Z_DEFLATED, GZIP_WINDOW, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		err_set(err, "cannot compress the replay: out of memory");
		return -1;
	}
	size_t cap = deflateBound(&z, (uLong)len);
	uint8_t *buf = malloc(cap);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	int rc = buf ? deflate(&z, Z_FINISH) : Z_MEM_ERROR;
	*out_len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		err_set(err, "cannot compress the replay: %s",
			 rc == Z_MEM_ERROR ? "out of memory" : "zlib failed");
		return -1;
	}
	*out = buf;
	return 0;
}

static bool is_gzip(const uint8_t *bytes, size_t len)
{
	return len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

static int copy_text(const uint8_t *bytes, size_t len, char **text, size_t *text_len,
		     err_t err)
{
	*text = malloc(len + 1);
	if (!*text) {
		err_set(err, "out of memory for a replay of %zu bytes", len);
		return -1;
	}
	memcpy(*text, bytes, len);
	(*text)[len] = '\0';
	*text_len = len;
	return 0;
}

/* Room for more output, doubling up to REPLAY_MAX_BYTES; one byte more is
 * always kept for the NUL. */
static int grow(char **buf, size_t *cap, z_stream *z, err_t err)
{
	if (*cap > REPLAY_MAX_BYTES) {
		err_set(err, "the replay decompresses to more than %zu MiB",
			 REPLAY_MAX_BYTES >> 20);
		return -1;
	}
	size_t ncap = *cap ? *cap * 2 : 1 << 16;
	if (ncap > REPLAY_MAX_BYTES + 1)
		ncap = REPLAY_MAX_BYTES + 1;
	char *n = realloc(*buf, ncap);
	if (!n) {
		err_set(err, "out of memory decompressing the replay");
		return -1;
	}
	z->next_out = (Bytef *)n + z->total_out;
	z->avail_out = (uInt)(ncap - 1 - z->total_out);
	*buf = n;
	*cap = ncap;
	return 0;
}

static void gunzip_error(int rc, size_t rest, const z_stream *z, err_t err)
{
	if (rc == Z_STREAM_END)
		err_set(err, "%zu bytes follow the end of the compressed replay", rest);
	else if (rc == Z_MEM_ERROR)
		err_set(err, "out of memory decompressing the replay");
	else if (rc == Z_BUF_ERROR)
		err_set(err, "the compressed replay is cut short");
	else
		err_set(err, "the compressed replay is damaged (%s)",
			 z->msg ? z->msg : "not gzip data");
}

static int gunzip(const uint8_t *bytes, size_t len, char **text, size_t *text_len,
		  err_t err)
{
	z_stream z = { 0 };
	if (inflateInit2(&z, GZIP_WINDOW) != Z_OK) {
		err_set(err, "out of memory decompressing the replay");
		return -1;
	}
	z.next_in = (Bytef *)bytes;
	z.avail_in = (uInt)len;
	char *buf = NULL;
	size_t cap = 0;
	int rc = Z_OK;
	for (;;) {
		if (z.avail_out == 0 && grow(&buf, &cap, &z, err) < 0) {
			rc = Z_ERRNO;
			break;
		}
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_out == 0))
			break;
	}
	size_t out = z.total_out, rest = z.avail_in;
	if (rc != Z_ERRNO && (rc != Z_STREAM_END || rest))
		gunzip_error(rc, rest, &z, err);
	inflateEnd(&z);
	if (rc == Z_STREAM_END && rest == 0) {
		buf[out] = '\0';
		*text = buf;
		*text_len = out;
		return 0;
	}
	free(buf);
	return -1;
}

int replay_text(const uint8_t *bytes, size_t len, char **text, size_t *text_len,
		err_t err)
{
	if (too_large(len, err))
		return -1;
	return is_gzip(bytes, len) ? gunzip(bytes, len, text, text_len, err)
				   : copy_text(bytes, len, text, text_len, err);
}

int replay_log_text(const struct store_seat_log *log, char **text, size_t *len,
		    err_t err)
{
	char *raw;
	size_t raw_len;
	if (replay_text(log->bytes, log->len, &raw, &raw_len, err) < 0)
		return -1;
	*text = safe_utf8(raw, raw_len, len);
	free(raw);
	if (!*text) {
		err_set(err, "reading a log: out of memory");
		return -1;
	}
	return 0;
}

/* ---- files --------------------------------------------------------------- */

static int read_whole(const char *path, uint8_t **out, size_t *len, err_t err)
{
	FILE *f = fopen(path, "rbe");
	if (!f) {
		err_set(err, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || cap > REPLAY_MAX_BYTES)
			break;
		uint8_t *grown = realloc(buf, cap * 2);
		if (!grown)
			free(buf);
		buf = grown;
		cap *= 2;
	}
	bool bad = ferror(f);
	fclose(f);
	if (!buf || bad || n > REPLAY_MAX_BYTES) {
		err_set(err, "cannot read %s: %s", path,
			 !buf ? "out of memory" : bad ? "read error" : "larger than 256 MiB");
		free(buf);
		return -1;
	}
	*out = buf;
	*len = n;
	return 0;
}

static json_t *parse_text(const char *text, size_t len, const char *what, err_t err)
{
	json_error_t e;
	json_t *j = json_loadb(text, len, 0, &e);
	if (!j)
		err_set(err, "%s is not JSON: line %d: %s", what, e.line, e.text);
	return j;
}

json_t *replay_read_file(const char *path, err_t err)
{
	uint8_t *bytes;
	size_t len, text_len;
	char *text = NULL;
	err_t why;
	if (read_whole(path, &bytes, &len, err) < 0)
		return NULL;
	int rc = replay_text(bytes, len, &text, &text_len, why);
	free(bytes);
	if (rc < 0) {
		err_set(err, "%s: %.400s", path, why->msg);
		return NULL;
	}
	json_t *j = parse_text(text, text_len, path, err);
	free(text);
	return j;
}

static bool gz_name(const char *path)
{
	size_t n = strlen(path);
	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

int replay_write_text(const char *path, const char *text, size_t len, err_t err)
{
	uint8_t *packed = NULL;
	size_t packed_len = 0;
	if (gz_name(path) && replay_gzip(text, len, &packed, &packed_len, err) < 0)
		return -1;
	err_t why;
	int rc = packed ? file_write_whole(path, (const char *)packed, packed_len, 0644, why)
			: file_write_whole(path, text, len, 0644, why);
	free(packed);
	if (rc < 0)
		err_set(err, "%s", why->msg);
	return rc;
}

/* The replay as compact JSON (json_dumps' bytes, written faster), or NULL
 * with err said. */
static char *replay_dump(const json_t *replay, size_t *len, err_t err)
{
	struct jtext t = { 0 };
	jtext_json(&t, replay);
	char *text = jtext_finish(&t, len);
	if (!text)
		err_set(err, "out of memory writing the replay");
	return text;
}

int replay_write_file(const char *path, const json_t *replay, err_t err)
{
	size_t len;
	char *text = replay_dump(replay, &len, err);
	int rc = text ? replay_write_text(path, text, len, err) : -1;
	free(text);
	return rc;
}

int replay_pack(const json_t *replay, uint8_t **out, size_t *out_len, err_t err)
{
	size_t len;
	char *text = replay_dump(replay, &len, err);
	int rc = text ? replay_gzip(text, len, out, out_len, err) : -1;
	free(text);
	return rc;
}

/* ---- the store ----------------------------------------------------------- */

int replay_stored_text(struct store *s, int64_t id, char **text, size_t *len,
		       err_t err)
{
	uint8_t *bytes;
	size_t n;
	bool exists;
	int rc = store_match_replay(s, id, &bytes, &n, &exists, err);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		err_set(err, "%s %lld", exists ? "no replay stored for match"
								: "no match", (long long)id);
		return 0;
	}
	err_t why;
	rc = replay_text(bytes, n, text, len, why) < 0 ? -1 : 1;
	if (rc < 0)
		err_set(err, "the replay of match %lld: %.400s", (long long)id, why->msg);
	free(bytes);
	return rc;
}
