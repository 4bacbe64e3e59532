#include "judge/compile/toolchain.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/base/file_write.h"

/* Asked with -print-prog-name= and -print-file-name=: a name gcc does not
 * find comes back as it went, and is left out. */
static const char *const tc_programs[] = { "cc1", "collect2", "as", "ld", NULL };
static const char *const tc_files[] = { "liblto_plugin.so", "libc.a", "libm.a", "libgcc.a",
					"libgcc_eh.a", "crt1.o", "crti.o", "crtn.o",
					"crtbeginT.o", "crtend.o", NULL };
/* where gcc finds a program it names bare (the compile step's PATH) */
static const char *const tc_path[] = { "/usr/bin", "/bin", NULL };

#define TC_FILES_MAX 32

static long long time_ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* What a file's record holds of its stat(), in the record's order. */
static void stat_fields(const struct stat *st, long long f[5])
{
	f[0] = (long long)st->st_dev;
	f[1] = (long long)st->st_ino;
	f[2] = (long long)st->st_size;
	f[3] = time_ns(&st->st_mtim);
	f[4] = time_ns(&st->st_ctim);
}

/* [path, dev, inode, size, mtime ns, ctime ns], or NULL when it is gone. */
static json_t *file_entry(const char *path)
{
	struct stat st;
	long long f[5];
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	stat_fields(&st, f);
	return json_pack("[sIIIII]", path, f[0], f[1], f[2], f[3], f[4]);
}

/* Whether the entry's file still stats as recorded. */
static bool entry_current(const json_t *entry)
{
	json_t *now = file_entry(json_string_value(json_array_get(entry, 0)) ?: "");
	bool same = now && json_array_size(entry) == 6 && json_equal(now, entry);
	json_decref(now);
	return same;
}

/* The record's identity, if every file it lists is as it was. */
static bool record_current(const json_t *rec, struct tc_identity *id)
{
	const char *version = json_string_value(json_object_get(rec, "version"));
	const char *digest = json_string_value(json_object_get(rec, "digest"));
	json_t *files = json_object_get(rec, "files");
	if (!version || !digest || strlen(digest) != HASH_HEXLEN || !json_array_size(files))
		return false;
	size_t i;
	json_t *entry;
	json_array_foreach(files, i, entry)
		if (!entry_current(entry))
			return false;
	snprintf(id->version, sizeof id->version, "%s", version);
	snprintf(id->digest, sizeof id->digest, "%s", digest);
	return true;
}

static bool read_record(const char *record, struct tc_identity *id)
{
	json_t *rec = json_load_file(record, JSON_REJECT_DUPLICATES, NULL);
	bool ok = rec && record_current(rec, id);
	json_decref(rec);
	return ok;
}

/* The file gcc names in its answer to `arg` (a bare program name looked
 * up as gcc looks it up), into path; "" when there is none. */
static int ask_path(tc_ask_fn ask, void *ctx, const char *arg, char path[PATH_MAX])
{
	char *said;
	path[0] = '\0';
	if (ask(ctx, arg, &said) < 0)
		return -1;
	said[strcspn(said, "\n")] = '\0';
	if (said[0] == '/')
		snprintf(path, PATH_MAX, "%s", said);
	for (const char *const *dir = tc_path; said[0] != '/' && !strchr(said, '/') && *dir; dir++) {
		snprintf(path, PATH_MAX, "%s/%s", *dir, said);
		if (access(path, F_OK) == 0)
			break;
		path[0] = '\0';
	}
	free(said);
	return 0;
}

/* Appends path's entry to files unless it is there or missing. */
static void add_file(json_t *files, const char *path)
{
	size_t i;
	json_t *entry;
	json_array_foreach(files, i, entry)
		if (strcmp(json_string_value(json_array_get(entry, 0)), path) == 0)
			return;
	json_t *e = path[0] && json_array_size(files) < TC_FILES_MAX ? file_entry(path) : NULL;
	if (e)
		json_array_append_new(files, e);
}

/* Every file gcc names, with its stat() taken now: a file that changes
 * while it is hashed then differs from its record next time. */
static json_t *list_files(const char *gcc, tc_ask_fn ask, void *ctx)
{
	json_t *files = json_array();
	char path[PATH_MAX], arg[64];
	add_file(files, gcc);
	for (const char *const *p = tc_programs; *p; p++) {
		snprintf(arg, sizeof arg, "-print-prog-name=%s", *p);
		if (ask_path(ask, ctx, arg, path) < 0)
			goto failed;
		add_file(files, path);
	}
	for (const char *const *f = tc_files; *f; f++) {
		snprintf(arg, sizeof arg, "-print-file-name=%s", *f);
		if (ask_path(ask, ctx, arg, path) < 0)
			goto failed;
		add_file(files, path);
	}
	return files;
failed:
	json_decref(files);
	return NULL;
}

static int hash_contents(struct hash *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	char buf[65536];
	ssize_t n;
	hash_field(h, "file", path, strlen(path));
	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			hash_update(h, buf, (size_t)n);
	int saved = errno;
	close(fd);
	errno = saved;
	return n < 0 ? -1 : 0;
}

static int digest_of(const char *version, const json_t *files, char digest[HASH_HEXLEN + 1],
		     err_t err)
{
	struct hash h;
	if (hash_init(&h) < 0) {
		err_set(err, "cannot start a SHA-256 digest");
		return -1;
	}
	hash_field(&h, "version", version, strlen(version));
	size_t i;
	json_t *entry;
	json_array_foreach(files, i, entry) {
		const char *path = json_string_value(json_array_get(entry, 0));
		if (hash_contents(&h, path) < 0) {
			err_set(err, "cannot read the compiler's file %s: %s", path,
				 strerror(errno));
			hash_abort(&h);
			return -1;
		}
	}
	if (hash_final(&h, digest) == 0)
		return 0;
	err_set(err, "SHA-256 failed");
	return -1;
}

/* Asks gcc, hashes its files and writes the record (a record that cannot
 * be written only costs the next command the same work). */
static int work_out(const char *record, const char *gcc, tc_ask_fn ask, void *ctx,
		    struct tc_identity *id, err_t err)
{
	char *version;
	if (ask(ctx, "--version", &version) < 0)
		return -1;
	snprintf(id->version, sizeof id->version, "%s", version);
	free(version);
	json_t *files = list_files(gcc, ask, ctx);
	if (!files)
		return -1;
	int rc = digest_of(id->version, files, id->digest, err);
	json_t *rec = rc == 0 ? json_pack("{sssssO}", "version", id->version, "digest",
					  id->digest, "files", files)
			      : NULL;
	char *text = rec ? json_dumps(rec, JSON_INDENT(1)) : NULL;
	err_t werr;
	if (text)
		file_write_whole(record, text, strlen(text), 0600, werr);
	free(text);
	json_decref(rec);
	json_decref(files);
	return rc;
}

int tc_identity(const char *cache_dir, const char *gcc, tc_ask_fn ask, void *ctx,
		struct tc_identity *id, err_t err)
{
	char record[PATH_MAX];
	if (snprintf(record, sizeof record, "%s/" TC_RECORD, cache_dir) >= (int)sizeof record) {
		err_set(err, "the cache directory's path is too long");
		return -1;
	}
	if (read_record(record, id))
		return 0;
	return work_out(record, gcc, ask, ctx, id, err);
}
