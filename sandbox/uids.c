/* uids.c - one unprivileged uid per running player, machine-wide.
 *
 * A held flock on uid-N.lock is the claim.  The kernel drops it when the
 * holder closes the file or dies, so a crashed worker never leaks a uid. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

static int try_claim(uid_t uid)
{
	char path[128];
	snprintf(path, sizeof path, SBX_UID_LOCK_DIR "/uid-%u.lock", (unsigned)uid);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	int saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int sbx_uid_claim(uid_t base, unsigned count, struct sbx_uid *out, err_t err)
{
	if (mkdir(SBX_UID_LOCK_DIR, 0700) < 0 && errno != EEXIST) {
		err_set(err, "sandbox: cannot create %s: %s", SBX_UID_LOCK_DIR,
			strerror(errno));
		return -1;
	}
	for (unsigned i = 0; i < count; i++) {
		int fd = try_claim(base + i);
		if (fd >= 0) {
			*out = (struct sbx_uid){ base + i, fd };
			return 0;
		}
		if (errno != EWOULDBLOCK) {
			err_set(err, "sandbox: uid lock %u: %s", (unsigned)(base + i),
				strerror(errno));
			return -1;
		}
	}
	err_set(err,
		"sandbox: all %u player uids from %u are in use; raise sandbox.uid_count",
		count, (unsigned)base);
	return -1;
}

void sbx_uid_release(struct sbx_uid *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
}
