/* test_viewer.c - the viewer page: every file inlined, the replay carried
 * so that no text in it can end its script element, large replays
 * gzip-compressed, reasons added.  (tests/browser/run.py opens the pages
 * in a browser.) */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "judge/replay/replay_io.h"
#include "judge/replay/viewer.h"

#define HOSTILE "</script><img src=x onerror=alert(1)>&"

/* A replay with hostile names and `rounds` rounds of padding. */
static json_t *replay_with(int rounds)
{
	json_t *r = json_pack("{s:s, s:i, s:[{s:s, s:s}, {s:s, s:s}], s:{s:[s]},"
			      " s:[], s:{s:[i, i], s:[i, i], s:[[i, i, s]]}}",
			      "game", "dominator", "seed", 1, "players", "name", HOSTILE,
			      "label", "a", "name", "b", "label", HOSTILE, "start", "board", "X",
			      "rounds", "result", "scores", 1, 2, "ranks", 2, 1, "frozen", 1, 7,
			      "cpu-limit");
	for (int i = 0; i < rounds; i++)
		json_array_append_new(json_object_get(r, "rounds"),
				      json_pack("{s:s, s:[i, i]}", "moves", "AbCdEfGh1a2b3c", "score",
						i, i));
	return r;
}

static char *page_of(json_t *replay, size_t *len)
{
	char *page;
	err_t err;
	cr_assert_eq(viewer_page(replay, &page, len, err), 0, "%s", err->msg);
	cr_assert_eq(strlen(page), *len);
	return page;
}

/* The text of the element that carries the replay, and its encoding. */
static char *data_of(const char *page, bool *gzip)
{
	const char *at = strstr(page, "id=\"replay\"");
	cr_assert_not_null(at);
	*gzip = strncmp(at + 11, " data-encoding=\"gzip-base64\">", 29) == 0;
	const char *start = strchr(at, '>') + 1, *end = strstr(start, "</script>");
	cr_assert_not_null(end);
	return strndup(start, (size_t)(end - start));
}

Test(viewer, page_is_self_contained)
{
	size_t len;
	json_t *r = replay_with(2);
	char *page = page_of(r, &len);
	cr_assert(strstr(page, "<!DOCTYPE html>") == page);
	cr_assert_null(strstr(page, "<script src="), "a script is not inlined");
	cr_assert_null(strstr(page, "<link"), "a stylesheet is not inlined");
	cr_assert(strstr(page, "Viewer.register('dominator'"), "the games' modules are in");
	cr_assert(strstr(page, "Viewer.register('starwar'"));
	cr_assert(strstr(page, "default-src 'none'"), "no fetching allowed");
	free(page);
	json_decref(r);
}

Test(viewer, names_cannot_end_the_script)
{
	size_t len;
	json_t *r = replay_with(2);
	char *page = page_of(r, &len);
	bool gzip;
	char *data = data_of(page, &gzip);
	cr_assert_not(gzip);
	cr_assert_null(strchr(data, '<'));
	cr_assert_null(strchr(data, '>'));
	cr_assert_null(strchr(data, '&'));
	cr_assert_null(strstr(page, "<img"));
	/* The escapes mean the same text to a JSON reader. */
	json_t *back = json_loads(data, 0, NULL);
	cr_assert(json_equal(back, r));
	json_decref(back);
	free(data);
	free(page);
	json_decref(r);
}

static unsigned char *gunzip_base64(const char *b64, size_t *out_len)
{
	size_t n = strlen(b64);
	unsigned char *z = malloc(n);
	int zlen = EVP_DecodeBlock(z, (const unsigned char *)b64, (int)n);
	cr_assert_gt(zlen, 0);
	while (n > 0 && b64[--n] == '=')
		zlen--; /* EVP_DecodeBlock counts the padding */
	size_t cap = 64 << 20;
	unsigned char *out = malloc(cap);
	z_stream s = { .next_in = z, .avail_in = (uInt)zlen, .next_out = out, .avail_out = (uInt)cap };
	cr_assert_eq(inflateInit2(&s, 15 + 16), Z_OK);
	cr_assert_eq(inflate(&s, Z_FINISH), Z_STREAM_END, "not one gzip stream");
	*out_len = s.total_out;
	inflateEnd(&s);
	free(z);
	return out;
}

Test(viewer, large_replays_are_gzipped)
{
	size_t len;
	json_t *r = replay_with(4000);
	char *json = json_dumps(r, JSON_COMPACT);
	cr_assert_gt(strlen(json), VIEWER_GZIP_OVER);
	char *page = page_of(r, &len);
	bool gzip;
	char *data = data_of(page, &gzip);
	cr_assert(gzip);
	cr_assert_lt(strlen(data), strlen(json) / 4, "compression pays");
	size_t raw_len;
	unsigned char *raw = gunzip_base64(data, &raw_len);
	cr_assert_eq(raw_len, strlen(json));
	cr_assert(memcmp(raw, json, raw_len) == 0);
	free(raw);
	free(data);
	free(page);
	free(json);
	json_decref(r);
}

Test(viewer, reasons_are_added_to_the_frozen_seat_only)
{
	json_t *r = replay_with(1);
	viewer_add_reason(r, 0, "not frozen");
	viewer_add_reason(r, 1, "used more than its 1 s of CPU time");
	viewer_add_reason(r, 1, "a second reason is not added");
	json_t *f = json_array_get(json_object_get(json_object_get(r, "result"), "frozen"), 0);
	cr_assert_eq(json_array_size(f), 4);
	cr_assert_str_eq(json_string_value(json_array_get(f, 3)), "used more than its 1 s of CPU time");
	json_decref(r);
}

Test(viewer, write_reports_an_unwritable_path)
{
	err_t err;
	json_t *r = replay_with(1);
	cr_assert_eq(viewer_write("/nonexistent/dir/page.html", r, err), -1);
	cr_assert(strstr(err->msg, "/nonexistent/dir/page.html"), "%s", err->msg);
	json_decref(r);
}

/* ---- a stored match ----------------------------------------------------- */

/* A store holding match 1 (with a replay, as the store keeps it, and a
 * frozen seat's reason) and match 2 (without a replay). */
static struct store *store_with(const json_t *replay, char path[64])
{
	err_t err;
	err_t rerr;
	snprintf(path, 64, "/tmp/test-viewer-XXXXXX");
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	unlink(path);
	struct store *s = store_open(path, true, err);
	cr_assert_not_null(s, "%s", err->msg);
	uint8_t *packed;
	size_t len;
	cr_assert_eq(replay_pack(replay, &packed, &len, rerr), 0, "%s", rerr->msg);
	sqlite3 *db = store_db(s);
	cr_assert_eq(sqlite3_exec(db,
		"INSERT INTO jobs (id, kind, payload, state, created_at, updated_at)"
		" VALUES (1, 'match', '{}', 'done', 0, 0), (2, 'match', '{}', 'done', 0, 0);"
		"INSERT INTO matches (id, job_id, game, kind, seed, created_at)"
		" VALUES (1, 1, 'dominator', 'ranked', 1, 0), (2, 2, 'dominator', 'ranked', 1, 0);"
		"INSERT INTO match_players (match_id, seat, name, score, rank, frozen_round, verdict,"
		" reason, cpu_ns, peak_memory) VALUES (1, 1, 'b', 2, 1, 7, 'cpu-limit',"
		" 'crashed (SIGSEGV)', 0, 0)", NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "UPDATE matches SET replay = ? WHERE id = 1", -1, &st, NULL);
	sqlite3_bind_blob(st, 1, packed, (int)len, free);
	cr_assert_eq(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	return s;
}

Test(viewer, stored_match_with_its_reasons)
{
	json_t *r = replay_with(3);
	char db_path[64], path[] = "/tmp/test-viewer-page-XXXXXX";
	err_t err;
	struct store *s = store_with(r, db_path);
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(viewer_write_match(s, 1, path, err), 0, "%s", err->msg);
	FILE *f = fopen(path, "r");
	static char page[1 << 20];
	size_t n = fread(page, 1, sizeof page - 1, f);
	page[n] = '\0';
	fclose(f);
	unlink(path);
	bool gzip;
	char *data = data_of(page, &gzip);
	json_t *back = json_loads(data, 0, NULL);
	cr_assert_not_null(back);
	json_t *frozen = json_array_get(json_object_get(json_object_get(back, "result"), "frozen"), 0);
	cr_assert_str_eq(json_string_value(json_array_get(frozen, 3)), "crashed (SIGSEGV)");
	json_decref(back);
	free(data);
	cr_assert_eq(viewer_write_match(s, 2, path, err), 1);
	cr_assert(strstr(err->msg, "no replay stored for match 2"), "%s", err->msg);
	cr_assert_eq(viewer_write_match(s, 3, path, err), 1);
	cr_assert(strstr(err->msg, "no match 3"), "%s", err->msg);
	store_close(s);
	unlink(db_path);
	json_decref(r);
}
