/* view.c - the filesystem a confined tool sees.
 *
 * The parent plans, the child builds.  The plan is a list of steps with
 * every path already joined and every flag already known, because the
 * child, sharing the parent's memory until exec, may not allocate or
 * format.  The child mounts a small tmpfs on the caller's empty directory,
 * recreates the allowed paths inside it (bind mounts, read-only but for the
 * one writable directory), then makes it the root and drops the old root
 * entirely (pivot_root, then a detached unmount), so no path, not even
 * "..", leads back to the host's files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/internal.h"

#define VIEW_MAX_OPS 96

static int add_op(struct view_plan *p, enum view_op_kind kind, const char *path,
		  const char *source, unsigned long flags)
{
	if (p->nop == VIEW_MAX_OPS)
		return -1;
	struct view_op *op = &p->op[p->nop];
	*op = (struct view_op){ .kind = kind, .flags = flags };
	if (asprintf(&op->path, "%s%s", p->root, path) < 0) {
		op->path = NULL;
		return -1;
	}
	if (source && !(op->source = strdup(source)))
		return -1;
	p->nop++;
	return 0;
}

static bool planned_dir(const struct view_plan *p, const char *full)
{
	for (size_t i = 0; i < p->nop; i++)
		if (p->op[i].kind == VIEW_DIR && strcmp(p->op[i].path, full) == 0)
			return true;
	return false;
}

/* Every directory on the way to `path` (and `path` itself when `self`). */
static int add_dirs(struct view_plan *p, const char *path, bool self)
{
	char prefix[PATH_MAX], full[PATH_MAX * 2];
	size_t n = strlen(path);
	for (size_t i = 1; i <= n; i++) {
		if (i < n && path[i] != '/')
			continue;
		if (i == n && !self)
			break;
		snprintf(prefix, sizeof prefix, "%.*s", (int)i, path);
		snprintf(full, sizeof full, "%s%s", p->root, prefix);
		if (!planned_dir(p, full) && add_op(p, VIEW_DIR, prefix, NULL, 0) < 0)
			return -1;
	}
	return 0;
}

/* The flags a remount of a bind of `path` must keep: in a user namespace
 * the kernel refuses to clear what the host's mount set (ro, nosuid,
 * nodev, noexec, and the atime behaviour), and we only ever add. */
static unsigned long kept_flags(const char *path)
{
	struct statvfs sv;
	if (statvfs(path, &sv) < 0)
		return 0;
	unsigned long f = 0;
	f |= sv.f_flag & ST_RDONLY ? MS_RDONLY : 0;
	f |= sv.f_flag & ST_NOSUID ? MS_NOSUID : 0;
	f |= sv.f_flag & ST_NODEV ? MS_NODEV : 0;
	f |= sv.f_flag & ST_NOEXEC ? MS_NOEXEC : 0;
	f |= sv.f_flag & ST_NOATIME ? MS_NOATIME : 0;
	f |= sv.f_flag & ST_NODIRATIME ? MS_NODIRATIME : 0;
	f |= sv.f_flag & ST_RELATIME ? MS_RELATIME : 0;
	return f;
}

/* Absolute, with no "." or ".." component: what the child mounts is what
 * the caller named. */
static bool plain_path(const char *path)
{
	if (path[0] != '/' || strlen(path) >= PATH_MAX)
		return false;
	for (const char *c = path; *c; c++) {
		if (c[0] != '/' || c[1] != '.')
			continue;
		size_t dots = c[2] == '.' ? 2 : 1;
		if (c[1 + dots] == '/' || c[1 + dots] == '\0')
			return false;
	}
	return true;
}

static int plan_readonly(struct view_plan *p, const char *path, err_t err)
{
	struct stat st;
	if (!plain_path(path)) {
		err_set(err, "sandbox: view path %s is not absolute and plain", path);
		return -1;
	}
	if (lstat(path, &st) < 0)
		return 0; /* not on this host: nothing to show */
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(path, target, sizeof target - 1);
		if (n < 0)
			return 0;
		target[n] = '\0';
		return add_dirs(p, path, false) < 0 || add_op(p, VIEW_LINK, path, target, 0) < 0
			       ? -1 : 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_set(err, "sandbox: view path %s is not a directory", path);
		return -1;
	}
	unsigned long f = kept_flags(path) | MS_RDONLY | MS_NOSUID | MS_NODEV;
	return add_dirs(p, path, true) < 0 || add_op(p, VIEW_BIND, path, path, f) < 0 ? -1 : 0;
}

static int plan_steps(struct view_plan *p, const struct sbx_view *v, err_t err)
{
	for (const char *const *r = v->readonly; r && *r; r++)
		if (plan_readonly(p, *r, err) < 0)
			return -1;
	if (v->writable) {
		if (!plain_path(v->writable)) {
			err_set(err, "sandbox: writable path %s is not plain", v->writable);
			return -1;
		}
		unsigned long f = kept_flags(v->writable) | MS_NOSUID | MS_NODEV | MS_NOEXEC;
		if (add_dirs(p, v->writable, true) < 0 ||
		    add_op(p, VIEW_BIND, v->writable, v->writable, f & ~(unsigned long)MS_RDONLY) < 0)
			return -1;
	}
	/* A device node stays usable on a read-only mount, not on a nodev one. */
	unsigned long devf = (kept_flags("/dev/null") & ~(unsigned long)MS_NODEV) |
			     MS_RDONLY | MS_NOSUID | MS_NOEXEC;
	return add_dirs(p, "/dev", true) < 0 ||
	       add_op(p, VIEW_FILE_BIND, "/dev/null", "/dev/null", devf) < 0 ? -1 : 0;
}

int sbx_view_plan(const struct sbx_view *v, struct view_plan *p, err_t err)
{
	*p = (struct view_plan){ 0 };
	err->msg[0] = '\0';
	if (!v->root || !plain_path(v->root)) {
		err_set(err, "sandbox: the view's root must be an absolute path");
		return -1;
	}
	p->root = strdup(v->root);
	p->op = calloc(VIEW_MAX_OPS, sizeof *p->op);
	p->own_user = geteuid() != 0;
	snprintf(p->uid_map, sizeof p->uid_map, "0 %u 1", (unsigned)geteuid());
	snprintf(p->gid_map, sizeof p->gid_map, "0 %u 1", (unsigned)getegid());
	if (!p->root || !p->op || plan_steps(p, v, err) < 0) {
		if (!err->msg[0] || strncmp(err->msg, "sandbox: ", 9) != 0)
			err_set(err, "sandbox: the view needs more than %d steps or memory",
				VIEW_MAX_OPS);
		sbx_view_plan_free(p);
		return -1;
	}
	return 0;
}

void sbx_view_plan_free(struct view_plan *p)
{
	for (size_t i = 0; p->op && i < p->nop; i++) {
		free(p->op[i].path);
		free(p->op[i].source);
	}
	free(p->op);
	free(p->root);
	*p = (struct view_plan){ 0 };
}

/* ---- in the child ---------------------------------------------------------- */

static CHILD_FN size_t raw_len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static CHILD_FN long write_proc(const char *file, const char *text)
{
	long fd = raw(SYS_openat, AT_FDCWD, (long)file, O_WRONLY | O_CLOEXEC, 0, 0);
	if (fd < 0)
		return fd;
	long r = raw(SYS_write, fd, (long)text, (long)raw_len(text), 0, 0);
	raw(SYS_close, fd, 0, 0, 0, 0);
	return r < 0 ? r : 0;
}

/* In a user namespace of our own we are nobody until mapped: become its
 * root (which is still the caller's own uid outside). */
static CHILD_FN long map_user(const struct view_plan *p)
{
	long r = write_proc("/proc/self/setgroups", "deny");
	r = r ? r : write_proc("/proc/self/uid_map", p->uid_map);
	return r ? r : write_proc("/proc/self/gid_map", p->gid_map);
}

static CHILD_FN long bind_here(const struct view_op *op)
{
	long r = raw(SYS_mount, (long)op->source, (long)op->path, 0, MS_BIND, 0);
	return r ? r : raw(SYS_mount, 0, (long)op->path, 0,
			   (long)(MS_BIND | MS_REMOUNT | op->flags), 0);
}

static CHILD_FN long do_op(const struct view_op *op)
{
	long r;
	switch (op->kind) {
	case VIEW_DIR:
		r = raw(SYS_mkdir, (long)op->path, 0755, 0, 0, 0);
		return r == -EEXIST ? 0 : r;
	case VIEW_LINK:
		return raw(SYS_symlink, (long)op->source, (long)op->path, 0, 0, 0);
	case VIEW_FILE_BIND:
		r = raw(SYS_openat, AT_FDCWD, (long)op->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644, 0);
		if (r < 0)
			return r;
		raw(SYS_close, r, 0, 0, 0, 0);
		return bind_here(op);
	case VIEW_BIND:
		return bind_here(op);
	}
	return -EINVAL;
}

CHILD_FN long sbx_view_enter(const struct view_plan *p)
{
	long r = p->own_user ? map_user(p) : 0;
	/* Nothing we mount may propagate back to the host's namespace. */
	r = r ? r : raw(SYS_mount, 0, (long)"/", 0, MS_REC | MS_PRIVATE, 0);
	r = r ? r : raw(SYS_mount, (long)"judge-view", (long)p->root, (long)"tmpfs",
			MS_NOSUID | MS_NODEV, (long)"size=64k,nr_inodes=256,mode=755");
	for (size_t i = 0; i < p->nop && !r; i++)
		r = do_op(&p->op[i]);
	r = r ? r : raw(SYS_mount, 0, (long)p->root, 0,
			MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, 0);
	r = r ? r : raw(SYS_chdir, (long)p->root, 0, 0, 0, 0);
	r = r ? r : raw(SYS_pivot_root, (long)".", (long)".", 0, 0, 0);
	/* The old root now lies under the new one at "/": detach it. */
	r = r ? r : raw(SYS_umount2, (long)".", MNT_DETACH, 0, 0, 0);
	return r ? r : raw(SYS_chdir, (long)"/", 0, 0, 0, 0);
}
