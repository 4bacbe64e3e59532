/* viewer.c - the viewer page: web/viewer/viewer.html with its stylesheet,
 * its scripts and one replay inlined. */
#include "judge/replay/viewer.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/file_write.h"
#include "judge/base/safe_text.h"
#include "judge/replay/replay_io.h"
#include "judge/replay/web_page.h"

#define VIEWER_DIR "viewer/"

/* What the page template holds and the writer replaces. */
static const char mark_script[] = "<script src=\"";
static const char mark_style[] = "<link rel=\"stylesheet\" href=\"";
static const char mark_data[] = "<script type=\"application/json\" id=\"replay\">";

/* ---- the replay, as the page carries it ---------------------------------- */

static int put_gzip_base64(FILE *f, const char *json, size_t len)
{
	uint8_t *z;
	size_t zlen;
	err_t err;
	if (replay_gzip(json, len, &z, &zlen, err) < 0)
		return -1;
	unsigned char *b64 = malloc(4 * ((zlen + 2) / 3) + 1);
	if (b64) {
		int n = EVP_EncodeBlock(b64, z, (int)zlen);
		fwrite(b64, 1, (size_t)n, f);
	}
	free(b64);
	free(z);
	return b64 ? 0 : -1;
}

static int put_replay(FILE *f, const json_t *replay)
{
	char *json = json_dumps(replay, JSON_COMPACT);
	if (!json)
		return -1;
	size_t len = strlen(json);
	bool zip = len > VIEWER_GZIP_OVER;
	fprintf(f, "<script type=\"application/json\" id=\"replay\"%s>",
		zip ? " data-encoding=\"gzip-base64\"" : "");
	int rc = 0;
	if (zip)
		rc = put_gzip_base64(f, json, len);
	else
		web_json_escaped(f, json);
	free(json);
	return rc;
}

/* ---- the template ---------------------------------------------------------- */

/* The quoted file name after a mark: web/viewer/NAME's text, and where
 * the template goes on (after `close`). */
static const char *inline_file(const char *after_mark, const char *close, const char **next,
			       err_t err)
{
	size_t n = strcspn(after_mark, "\"");
	char name[128];
	const char *end = strstr(after_mark + n, close);
	if (n >= sizeof name - sizeof VIEWER_DIR || !end) {
		err_set(err, "the viewer's template is damaged near \"%.40s\"",
			 after_mark);
		return NULL;
	}
	snprintf(name, sizeof name, VIEWER_DIR "%.*s", (int)n, after_mark);
	const char *text = web_file(name);
	if (!text)
		err_set(err, "the viewer needs web/%s, which was not built in", name);
	*next = end + strlen(close);
	return text;
}

/* The earliest mark in s, or NULL. */
static const char *next_mark(const char *s, const char **mark)
{
	static const char *const marks[] = { mark_script, mark_style, mark_data };
	const char *best = NULL;
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
		const char *p = strstr(s, marks[i]);
		if (p && (!best || p < best)) {
			best = p;
			*mark = marks[i];
		}
	}
	return best;
}

/* The template's one line for every game's drawing module (built in from
 * games/GAME/viewer.js): a new game needs no line of its own here. */
#define GAMES_MARK "games/*.js"

static int put_game_scripts(FILE *f, const char *after, const char **next,
			    err_t err)
{
	static const char prefix[] = VIEWER_DIR "games/";
	const char *end = strstr(after, "</script>");
	if (!end) {
		err_set(err, "the viewer's template is damaged near \"%.40s\"", after);
		return -1;
	}
	*next = end + strlen("</script>");
	for (const struct web_file *w = web_files; w->name; w++) {
		if (strncmp(w->name, prefix, sizeof prefix - 1) != 0)
			continue;
		if (!web_script_safe(w->text)) {
			err_set(err, "web/%s holds \"</script\": it cannot be inlined",
				 w->name);
			return -1;
		}
		fprintf(f, "<script>\n%s</script>\n", w->text);
	}
	return 0;
}

static int put_mark(FILE *f, const char *mark, const char *at, const json_t *replay,
		    const char **next, err_t err)
{
	const char *after = at + strlen(mark);
	if (mark == mark_data) {
		*next = after;
		if (put_replay(f, replay) == 0)
			return 0;
		err_set(err, "cannot encode the replay (out of memory?)");
		return -1;
	}
	bool script = mark == mark_script;
	if (script && strncmp(after, GAMES_MARK "\"", sizeof GAMES_MARK) == 0)
		return put_game_scripts(f, after, next, err);
	const char *text = inline_file(after, script ? "</script>" : ">", next, err);
	if (!text)
		return -1;
	if (script && !web_script_safe(text)) {
		err_set(err, "a viewer script holds \"</script\": it cannot be inlined");
		return -1;
	}
	fprintf(f, script ? "<script>\n%s</script>" : "<style>\n%s</style>", text);
	return 0;
}

static int put_viewer(FILE *f, const void *replay, struct err *err)
{
	int rc = 0;
	const char *s = web_file(VIEWER_DIR "viewer.html"), *mark = NULL, *at;
	while (rc == 0 && (at = next_mark(s, &mark))) {
		fwrite(s, 1, (size_t)(at - s), f);
		rc = put_mark(f, mark, at, replay, &s, err);
	}
	if (rc == 0)
		fputs(s, f);
	return rc;
}

int viewer_page(const json_t *replay, char **page, size_t *len, err_t err)
{
	if (!web_file(VIEWER_DIR "viewer.html")) {
		err_set(err, "the viewer was not built in (web/viewer/viewer.html)");
		return -1;
	}
	return web_page_build(put_viewer, replay, page, len, err);
}

int viewer_write(const char *path, const json_t *replay, err_t err)
{
	char *page;
	size_t len;
	if (viewer_page(replay, &page, &len, err) < 0)
		return -1;
	int rc = file_write_whole(path, page, len, 0644, err);
	free(page);
	return rc;
}

void viewer_add_reason(json_t *replay, int seat, const char *reason)
{
	json_t *frozen = json_object_get(json_object_get(replay, "result"), "frozen");
	size_t i;
	json_t *entry;
	json_array_foreach(frozen, i, entry) {
		if (json_integer_value(json_array_get(entry, 0)) == seat &&
		    json_array_size(entry) == 3 && reason && *reason)
			json_array_append_new(entry, safe_json_text(reason));
	}
}

/* ---- a stored match -------------------------------------------------------- */

static void add_reason(void *replay, int seat, const char *reason)
{
	viewer_add_reason(replay, seat, reason);
}

/* The stored replay's JSON with each frozen player's reason added. */
static json_t *stored_replay(struct store *s, int64_t match, const char *text, size_t len,
			     err_t err)
{
	err_t serr;
	json_error_t jerr;
	json_t *replay = json_loadb(text, len, 0, &jerr);
	if (!replay) {
		err_set(err, "the stored replay of match %lld is not JSON: %s",
			 (long long)match, jerr.text);
	} else if (store_match_reasons(s, match, add_reason, replay, serr) < 0) {
		err_set(err, "reading match %lld: %s", (long long)match, serr->msg);
		json_decref(replay);
		replay = NULL;
	}
	return replay;
}

int viewer_write_stored(struct store *s, int64_t match, const char *text, size_t len,
			const char *path, err_t err)
{
	json_t *replay = stored_replay(s, match, text, len, err);
	int rc = replay ? viewer_write(path, replay, err) : -1;
	json_decref(replay);
	return rc;
}

int viewer_page_stored(struct store *s, int64_t match, const char *text, size_t len,
		       char **page, size_t *page_len, err_t err)
{
	json_t *replay = stored_replay(s, match, text, len, err);
	int rc = replay ? viewer_page(replay, page, page_len, err) : -1;
	json_decref(replay);
	return rc;
}

int viewer_write_match(struct store *s, int64_t match, const char *path, err_t err)
{
	char *text;
	size_t len;
	int found = replay_stored_text(s, match, &text, &len, err);
	if (found <= 0)
		return found == 0 ? 1 : -1;
	int rc = viewer_write_stored(s, match, text, len, path, err);
	free(text);
	return rc;
}
