#include "judge/base/file_write.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum target_kind {
	TARGET_STDOUT,
	TARGET_REPLACE, /* new or regular: a temporary file renamed over it */
	TARGET_STREAM,  /* character device or FIFO: written in place */
};

/* One output being written. */
struct file_out {
	const char *path;         /* as the user named it, for messages */
	enum target_kind kind;
	int fd;
	char final[PATH_MAX];     /* TARGET_REPLACE: the name renamed over */
	char tmp[PATH_MAX + 8];   /* TARGET_REPLACE: the temporary file, or "" */
};

__attribute__((format(printf, 3, 4)))
static int refuse(const char *path, err_t err, const char *fmt, ...)
{
	char why[ERR_LEN / 2];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	/* a long path is cut, never the reason */
	int room = ERR_LEN - (int)sizeof "cannot write : " - (int)strlen(why);
	err_set(err, "cannot write %.*s: %s", room, path, why);
	return -1;
}

static int refuse_errno(const char *path, err_t err)
{
	return refuse(path, err, "%s", strerror(errno));
}

/* What a file that is neither written in place nor replaced is, in words. */
static const char *other_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISBLK(mode) ? "a block device"
	       : S_ISSOCK(mode)                             ? "a socket"
							    : "not a regular file";
}

static int refuse_kind(const char *path, mode_t mode, bool link, err_t err)
{
	const char *hint = S_ISDIR(mode) ? "name a file in it"
					 : "name a regular file, a FIFO or a character device "
					   "such as /dev/null";
	return refuse(path, err, "it is %s%s; %s", link ? "a symbolic link to " : "",
		      other_kind(mode), hint);
}

/* Decides o->kind (and o->final) from what o->path is now. */
static int classify(struct file_out *o, err_t err)
{
	struct stat st;
	o->final[0] = '\0';
	if (strcmp(o->path, "-") == 0) {
		o->kind = TARGET_STDOUT;
		return 0;
	}
	if (lstat(o->path, &st) < 0) {
		if (errno != ENOENT)
			return refuse_errno(o->path, err);
		o->kind = TARGET_REPLACE;
		snprintf(o->final, sizeof o->final, "%s", o->path);
		return 0;
	}
	bool link = S_ISLNK(st.st_mode);
	if (link && stat(o->path, &st) < 0)
		return errno == ENOENT ? refuse(o->path, err, "it is a symbolic link to a file that "
					       "does not exist; remove the link or name "
					       "another file")
				       : refuse_errno(o->path, err);
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		o->kind = TARGET_STREAM;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return refuse_kind(o->path, st.st_mode, link, err);
	o->kind = TARGET_REPLACE;
	if (!link)
		snprintf(o->final, sizeof o->final, "%s", o->path);
	else if (!realpath(o->path, o->final))
		return refuse_errno(o->path, err);
	return 0;
}

int file_check_target(const char *path, err_t err)
{
	struct file_out o = { .path = path };
	return classify(&o, err);
}

int file_check_dir(const char *dir, const char *option, err_t err)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
	} else if (errno != ENOENT) {
		return refuse_errno(dir, err);
	} else if (lstat(dir, &st) < 0) {
		return 0; /* missing: made later */
	}
	const char *what = S_ISLNK(st.st_mode)    ? "a symbolic link to nothing"
			   : S_ISREG(st.st_mode)  ? "a regular file"
			   : S_ISCHR(st.st_mode)  ? "a character device"
			   : S_ISFIFO(st.st_mode) ? "a FIFO"
						  : other_kind(st.st_mode);
	err_set(err, "%s wants a directory (made when missing), and %s is %s", option,
		 dir, what);
	return -1;
}

static int out_open(struct file_out *o, mode_t mode, err_t err)
{
	o->fd = -1;
	o->tmp[0] = '\0';
	if (classify(o, err) < 0)
		return -1;
	if (o->kind == TARGET_STDOUT) {
		o->path = "standard output";
		o->fd = STDOUT_FILENO;
		return fflush(stdout) == 0 ? 0 : refuse_errno(o->path, err);
	}
	if (o->kind == TARGET_STREAM) {
		/* no O_CREAT nor O_TRUNC: if the name was changed since, nothing
		 * is made, and what it became is checked again */
		struct stat st;
		o->fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (o->fd < 0 || fstat(o->fd, &st) < 0)
			return refuse_errno(o->path, err);
		if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
			return refuse(o->path, err, "it changed while it was being opened");
		return 0;
	}
	if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s.XXXXXX", o->final) >= sizeof o->tmp) {
		o->tmp[0] = '\0';
		return refuse(o->path, err, "%s", strerror(ENAMETOOLONG));
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		o->tmp[0] = '\0';
		return refuse_errno(o->path, err);
	}
	return fchmod(o->fd, mode) < 0 ? refuse_errno(o->path, err) : 0;
}

static int out_write(struct file_out *o, const void *data, size_t len, err_t err)
{
	return file_write_all(o->fd, data, len) < 0 ? refuse_errno(o->path, err) : 0;
}

/* Ends the output, well (`ok`: renamed into place) or not (removed). */
static int out_close(struct file_out *o, bool ok, err_t err)
{
	int rc = ok ? 0 : -1;
	if (o->fd >= 0 && o->kind != TARGET_STDOUT && close(o->fd) < 0 && ok)
		rc = refuse_errno(o->path, err);
	o->fd = -1;
	if (rc == 0 && o->tmp[0] && rename(o->tmp, o->final) < 0)
		rc = refuse_errno(o->path, err);
	if (rc < 0 && o->tmp[0])
		unlink(o->tmp);
	return rc;
}

int file_write_all(int fd, const void *buf, size_t len)
{
	const char *data = buf;
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

int file_write_whole(const char *path, const char *data, size_t len, mode_t mode,
		     err_t err)
{
	struct file_out o = { .path = path };
	int rc = out_open(&o, mode, err);
	rc = rc ? rc : out_write(&o, data, len, err);
	return out_close(&o, rc == 0, err);
}

/* Copies the open file in to o. */
static int out_copy(struct file_out *o, int in, const char *from, err_t err)
{
	char buf[65536];
	for (;;) {
		ssize_t r = read(in, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err_set(err, "cannot read %s: %s", from, strerror(errno));
			return -1;
		}
		if (r == 0 || out_write(o, buf, (size_t)r, err) < 0)
			return r == 0 ? 0 : -1;
	}
}

int file_copy(const char *from, const char *path, mode_t mode, err_t err)
{
	int in = open(from, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		err_set(err, "cannot read %s: %s", from,
			 in < 0 ? strerror(errno) : "not a regular file");
		if (in >= 0)
			close(in);
		return -1;
	}
	struct file_out o = { .path = path };
	int rc = out_open(&o, mode, err);
	rc = rc ? rc : out_copy(&o, in, from, err);
	close(in);
	return out_close(&o, rc == 0, err);
}
