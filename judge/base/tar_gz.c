/* tar_gz.c - the ustar records of a folder's tree, then gzip (zlib) over
 * the whole, all in memory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "judge/base/tar_gz.h"
#include "judge/base/grow.h"

#define TAR_BLOCK 512
#define TAR_NAME 100
#define TAR_PREFIX 155

struct tar {
	char *b;
	size_t len, cap;
	time_t mtime;
	struct err *err;
};

static int tar_fail(struct tar *t, const char *what, const char *path)
{
	err_set(t->err, "cannot archive %s: %s", path, what);
	return -1;
}

/* n more bytes at the end, zeroed; NULL when out of memory. */
static char *tar_room(struct tar *t, size_t n)
{
	if (!grow_room(&t->b, &t->cap, t->len + n, 1, 1 << 16))
		return NULL;
	char *p = t->b + t->len;
	memset(p, 0, n);
	t->len += n;
	return p;
}

/* name goes into the header's name, or is split at a '/' into prefix and
 * name as ustar allows. */
static int tar_put_name(char *h, const char *name)
{
	size_t n = strlen(name);
	if (n < TAR_NAME) {
		memcpy(h, name, n);
		return 0;
	}
	for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
		size_t pre = (size_t)(slash - name);
		if (pre <= TAR_PREFIX && n - pre - 1 < TAR_NAME && n - pre - 1 > 0) {
			memcpy(h + 345, name, pre);
			memcpy(h, slash + 1, n - pre - 1);
			return 0;
		}
	}
	return -1;
}

static int tar_header(struct tar *t, const char *name, char type, mode_t mode, size_t size)
{
	char *h = tar_room(t, TAR_BLOCK);
	if (!h)
		return tar_fail(t, "out of memory", name);
	if (tar_put_name(h, name) < 0)
		return tar_fail(t, "its path is too long for a tar archive", name);
	snprintf(h + 100, 8, "%07o", (unsigned)(mode & 0777));
	snprintf(h + 108, 8, "%07o", 0);
	snprintf(h + 116, 8, "%07o", 0);
	snprintf(h + 124, 12, "%011llo", (unsigned long long)size);
	snprintf(h + 136, 12, "%011llo", (unsigned long long)t->mtime);
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < TAR_BLOCK; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	return 0;
}

static int tar_file(struct tar *t, const char *path, const char *name, const struct stat *st)
{
	size_t size = (size_t)st->st_size;
	if (tar_header(t, name, '0', st->st_mode, size) < 0)
		return -1;
	char *data = tar_room(t, (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK);
	int fd = data ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
	if (fd < 0)
		return tar_fail(t, data ? strerror(errno) : "out of memory", path);
	size_t got = 0;
	for (ssize_t r; got < size && (r = read(fd, data + got, size - got)) > 0;)
		got += (size_t)r;
	close(fd);
	return got == size ? 0 : tar_fail(t, "it changed while it was read", path);
}

static int tar_tree(struct tar *t, const char *path, const char *name)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return tar_fail(t, strerror(errno), path);
	if (S_ISREG(st.st_mode))
		return tar_file(t, path, name, &st);
	if (!S_ISDIR(st.st_mode))
		return tar_fail(t, "neither a file nor a folder", path);
	char dir_name[PATH_MAX];
	snprintf(dir_name, sizeof dir_name, "%s/", name);
	if (tar_header(t, dir_name, '5', st.st_mode, 0) < 0)
		return -1;
	struct dirent **list;
	int n = scandir(path, &list, NULL, alphasort);
	if (n < 0)
		return tar_fail(t, strerror(errno), path);
	int rc = 0;
	for (int i = 0; i < n; i++) {
		const char *e = list[i]->d_name;
		char sub[PATH_MAX], sub_name[PATH_MAX];
		if (rc == 0 && strcmp(e, ".") != 0 && strcmp(e, "..") != 0) {
			if (snprintf(sub, sizeof sub, "%s/%s", path, e) >= (int)sizeof sub ||
			    snprintf(sub_name, sizeof sub_name, "%s/%s", name, e) >=
				    (int)sizeof sub_name)
				rc = tar_fail(t, "its path is too long", path);
			else
				rc = tar_tree(t, sub, sub_name);
		}
		free(list[i]);
	}
	free(list);
	return rc;
}

/* gzip of in (zlib's deflate with a gzip wrapper). */
static int gzip_bytes(const char *in, size_t in_len, char **out, size_t *len,
		      err_t err)
{
	z_stream z = { 0 };
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		err_set(err, "cannot compress the archive: zlib refused to start");
		return -1;
	}
	size_t cap = deflateBound(&z, in_len);
	*out = malloc(cap);
	if (!*out) {
		deflateEnd(&z);
		err_set(err, "cannot compress the archive: out of memory");
		return -1;
	}
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)in_len;
	z.next_out = (Bytef *)*out;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	*len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		err_set(err, "cannot compress the archive: zlib error %d", rc);
		return -1;
	}
	return 0;
}

int tgz_folder(const char *dir, const char *top, char **out, size_t *len,
	       err_t err)
{
	struct tar t = { .mtime = time(NULL), .err = err };
	*out = NULL;
	int rc = tar_tree(&t, dir, top);
	/* the end of a tar archive: two zero blocks */
	if (rc == 0 && !tar_room(&t, 2 * TAR_BLOCK))
		rc = tar_fail(&t, "out of memory", dir);
	if (rc == 0)
		rc = gzip_bytes(t.b, t.len, out, len, err);
	free(t.b);
	return rc;
}
