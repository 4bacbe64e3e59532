/* grow.c - the memory limit, kept by the judge at each call that grows the
 * player's address space.
 *
 * RLIMIT_AS alone makes such a call fail quietly: malloc returns NULL, and a
 * player that then exits 0 would read as a plain exit.  So brk (but the
 * query brk(0)), mmap and mremap are notified (policy.c), and the judge
 * applies the kernel's own rule first (may_expand_vm: the pages mapped now,
 * VmSize, plus the pages asked for, against the limit).  A call that would
 * pass it freezes the player with memory-limit before the call fails; any
 * other call proceeds unchanged, and RLIMIT_AS stays as the backstop.
 *
 * The judge does not see the kernel's answer, so it keeps a lower bound of
 * the program break, which makes every brk's growth an upper bound: 0 at
 * first, then the address of each brk it let through (the break moves
 * there, or stays higher when the kernel refuses an address below the
 * heap's start).  Only when that bound would pass the limit before any brk
 * went through is the heap's start read (/proc/PID/stat, costly) for the
 * exact answer.  A brk the kernel refuses for another reason (the heap
 * would run into a mapping, terabytes away) would leave the bound too
 * high; nothing else moves the break.  An mmap over an existing mapping
 * (MAP_FIXED) counts whole, as if nothing were replaced: judged at most a
 * little early.
 *
 * The filter lets brk through unasked while the break stays in the
 * heap's first MiB (prefix.c): what that grows is mapped, so the next call
 * the judge is asked about counts it.  Near the limit a brk unasked could
 * fail quietly; malloc then asks for an mmap instead, which is judged.
 *
 * Reading VmSize costs a read of /proc/PID/statm, which stays open.  (Opening
 * it while the player's exec runs, to overlap the two, measured slower.)
 */
#include <fcntl.h>
#include <linux/mman.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/internal.h"

#define PAGE 4096ULL

static uint64_t page_up(uint64_t v)
{
	return v > UINT64_MAX - (PAGE - 1) ? UINT64_MAX & ~(PAGE - 1) : (v + PAGE - 1) & ~(PAGE - 1);
}

/* Bytes mapped now (VmSize, the total RLIMIT_AS is checked against).
 * statm stays open: it is read at every growth. */
bool sbx_mapped_now(struct sbx_proc *p, uint64_t *bytes)
{
	char buf[128];
	unsigned long long pages;
	if (p->statm_fd < 0)
		p->statm_fd = sbx_open_proc(p, "statm");
	if (sbx_read_text(p->statm_fd, buf, sizeof buf) <= 0 || sscanf(buf, "%llu", &pages) != 1)
		return false;
	*bytes = pages * PAGE;
	return true;
}

/* start_brk, the 47th field of /proc/PID/stat. */
static bool start_brk(const struct sbx_proc *p, uint64_t *at)
{
	char buf[SBX_STAT_LEN];
	const char *s = sbx_stat_field(p, 47, buf);
	unsigned long long v;
	if (!s || sscanf(s, "%llu", &v) != 1)
		return false;
	*at = v;
	return true;
}

/* The program break now, to the page: the end of the [heap] line of
 * /proc/PID/maps, or the heap's start (as the kernel placed it) while it
 * has no page. */
static bool heap_end(const struct sbx_proc *p, uint64_t *at)
{
	int fd = sbx_open_proc(p, "maps");
	FILE *f = fd < 0 ? NULL : fdopen(fd, "re");
	char line[256];
	unsigned long long from, to;
	bool found = false;
	while (f && !found && fgets(line, sizeof line, f))
		found = strstr(line, "[heap]") && sscanf(line, "%llx-%llx", &from, &to) == 2;
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	if (found)
		*at = to;
	return found || start_brk(p, at);
}

/* At most how far brk(addr) moves the break up, in bytes; exact once the
 * break is known and `room` (what the limit leaves) is not enough.  Where
 * the filter lets the heap's first MiB through unasked, the break may have
 * moved there, up or down, since the last call the judge saw: the bound
 * then counts from the heap's start, and the exact answer reads where the
 * heap ends. */
static bool brk_growth(struct sbx_proc *p, uint64_t addr, uint64_t room, uint64_t *grow)
{
	uint64_t to = page_up(addr), low = p->heap_start ? p->heap_start : p->brk_now;
	*grow = to > page_up(low) ? to - page_up(low) : 0;
	if (*grow <= room || (!p->heap_start && p->brk_now))
		return true;
	uint64_t at;
	if (!(p->heap_start ? heap_end(p, &at) : start_brk(p, &at)))
		return false;
	p->brk_now = at;
	*grow = to > page_up(at) ? to - page_up(at) : 0;
	return true;
}

/* The bytes the call may add to the address space. */
static bool growth(struct sbx_proc *p, const struct seccomp_data *d, uint64_t room,
		   uint64_t *grow)
{
	switch (d->nr) {
	case SYS_brk:
		return brk_growth(p, d->args[0], room, grow);
	case SYS_mmap:
		*grow = page_up(d->args[1]);
		return true;
	case SYS_mremap: {
		uint64_t old = page_up(d->args[1]), want = page_up(d->args[2]);
		/* MREMAP_DONTUNMAP keeps the old mapping; old size 0 copies it. */
		if ((d->args[3] & MREMAP_DONTUNMAP) || old == 0)
			*grow = want;
		else
			*grow = want > old ? want - old : 0;
		return true;
	}
	}
	*grow = 0;
	return true;
}

bool sbx_grow_call(const struct seccomp_data *d)
{
	return d->nr == SYS_brk || d->nr == SYS_mmap || d->nr == SYS_mremap;
}

bool sbx_grow_check(struct sbx_proc *p, const struct seccomp_data *d)
{
	uint64_t grow, now, limit = p->lim.memory_bytes;
	if (!limit)
		return true;
	if (d->nr == SYS_brk && d->args[0] == 0)
		return true; /* filtered out; only asks where the break is */
	if (!sbx_mapped_now(p, &now) || !growth(p, d, now < limit ? limit - now : 0, &grow)) {
		/* Gone meanwhile (killed by us, or by a signal): nothing to judge. */
		return true;
	}
	if (grow && (grow > limit || now > limit - grow)) {
		char msg[sizeof p->res.message];
		snprintf(msg, sizeof msg,
			 "memory limit exceeded: asked for %.1f MiB more with %.1f MiB in use, "
			 "the limit is %llu MiB", grow / 1048576.0, now / 1048576.0,
			 (unsigned long long)(limit >> 20));
		sbx_kill(p, SBX_MEMORY, "", msg);
		return false;
	}
	if (d->nr == SYS_brk)
		p->brk_now = d->args[0];
	return true;
}
