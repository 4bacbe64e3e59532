/* work_compile.c - a compile job: the submission's source becomes a
 * binary (or a compile error the contestant reads), and a compiled one gets
 * its qualification's first step queued (work_qualify.c), all in one
 * transaction with the job's end. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/base/file_write.h"
#include "judge/base/hash.h"
#include "judge/play/players.h"
#include "judge/replay/replay_io.h"
#include "judge/worker/work.h"

/* The compile step wants a file named like the contestant's: AIName.c. */
static int write_source(const struct store_submission *sub, const char *src, size_t len,
			char dir[64], char path[PATH_MAX], err_t err)
{
	snprintf(dir, 64, "/tmp/judge-src-XXXXXX");
	if (!mkdtemp(dir)) {
		err_set(err, "cannot make a temporary folder: %m");
		return -1;
	}
	snprintf(path, PATH_MAX, "%s/AI%s.c", dir, sub->name);
	err_t why;
	if (file_write_whole(path, src, len, 0644, why) < 0) {
		err_set(err, "%s", why->msg);
		return -1;
	}
	return 0;
}

static void remove_source(const char *dir, const char *path)
{
	unlink(path);
	rmdir(dir);
}

/* The submission's fingerprints, or why it has none (error not empty). */
struct fingerprint {
	struct plag_fps fps;
	err_t error;
};

/* The compiled binary's bytes (malloc'd) and their SHA-256: what the store
 * keeps, so every machine plays exactly these bytes. */
static int read_binary(const char *path, uint8_t **bytes, size_t *len,
		       char sha[HASH_HEXLEN + 1], err_t err)
{
	FILE *f = fopen(path, "rbe");
	long size = -1;
	*bytes = NULL;
	if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
		*bytes = malloc(size ? (size_t)size : 1);
	*len = *bytes && fread(*bytes, 1, (size_t)size, f) == (size_t)size ? (size_t)size : 0;
	if (f)
		fclose(f);
	if (!*bytes || *len != (size_t)size || hash_hex(*bytes, *len, sha) < 0) {
		free(*bytes);
		*bytes = NULL;
		err_set(err, "cannot read the binary %.200s", path);
		return -1;
	}
	return 0;
}

/* Records the outcome (with the binary, stored once by its hash), queues
 * what follows, and ends the job: one transaction, so a crash anywhere
 * leaves the job to be done again. */
static int record(struct work *w, const struct store_submission *sub,
		  const struct cmp_result *res, const struct fingerprint *fp,
		  err_t err)
{
	char sha[HASH_HEXLEN + 1] = "";
	uint8_t *binary = NULL;
	size_t len = 0;
	if (res->ok && read_binary(res->binary, &binary, &len, sha, err) < 0)
		return -1;
	const char *state = !res->ok ? "compile_failed" : "qualifying";
	/* The store keeps the binary gzip-compressed (half its size); its
	 * hash is the plain binary's, checked again before it runs. */
	uint8_t *packed = NULL;
	size_t packed_len = 0;
	err_t rerr;
	if (res->ok && replay_gzip(binary, len, &packed, &packed_len, rerr) < 0) {
		free(binary);
		err_set(err, "compressing the binary: %.200s", rerr->msg);
		return -1;
	}
	free(binary);
	int stored = store_begin(w->store, err);
	if (stored == 0 && res->ok)
		stored = store_put_binary(w->store, sha, packed, packed_len, err);
	free(packed);
	if (stored < 0 ||
	    store_set_state(w->store, sub->id, state, res->ok ? res->binary : NULL,
			    res->ok ? sha : NULL, res->log, err) < 0)
		return -1;
	json_t *data = json_pack("{s:s, s:s, s:s}", "player", sub->name, "author", sub->author,
				 "log", res->log);
	int rc = !res->ok ? 0 : work_qualify_begin(w, sub, err);
	if (rc == 0)
		rc = work_event(w, res->ok ? "submission.compiled" : "submission.failed", sub->id,
				data, err);
	if (rc == 0)
		rc = work_plag_record(w, sub, &fp->fps, fp->error->msg, err);
	if (rc == 0)
		rc = work_done(w, err);
	json_decref(data);
	if (rc == 0 && store_commit(w->store, err) < 0)
		rc = -1;
	return rc;
}

int work_compile(struct work *w, err_t err)
{
	json_int_t id = json_integer_value(json_object_get(w->payload, "submission"));
	struct store_submission sub;
	char dir[64], path[PATH_MAX], *src = NULL;
	size_t len;
	int found = store_get_submission(w->store, id, &sub, err);
	if (found <= 0 || store_get_source(w->store, id, &src, &len, err) < 0) {
		if (found == 0)
			err_set(err, "no such submission");
		return -1;
	}
	struct cmp_result res = { 0 };
	struct fingerprint fp;
	work_plag_fingerprint(w, sub.game, src, len, &fp.fps, fp.error);
	int rc = write_source(&sub, src, len, dir, path, err);
	free(src);
	if (rc == 0) {
		rc = players_compile(w->o->cfg, sub.game, path, &res, err);
		remove_source(dir, path);
	}
	if (rc == 0)
		rc = record(w, &sub, &res, &fp, err);
	if (rc == 0)
		snprintf(w->outcome, sizeof w->outcome, "submission %lld (%s by %s, %s): %s",
			 (long long)id, sub.name, sub.author, sub.game,
			 res.ok ? "compiled, qualifying matches queued" : "does not compile");
	cmp_result_free(&res);
	plag_fps_free(&fp.fps);
	return rc;
}
