/* prefix.c - the part of a player's filter written for its launch.
 *
 * A few calls every player makes have arguments the judge knows before the
 * player starts: glibc growing the heap at start-up (the thread-local
 * storage, then malloc's first arena), and the kit mapping the region its
 * messages come in.  Asking the parent about each costs a round trip
 * through the listener; so the launch's filter begins with rules that let
 * them through unasked, and the policy's program follows unchanged.
 *
 * brk is let through while the break stays within the heap's first MiB:
 * the heap's start is known because players run without address
 * randomization (launch.c).  The growth unasked is at most that MiB, and
 * the parent's memory check (grow.c) counts every byte of it, since it
 * reads the mapped total at each call it is asked about.  The region is
 * let through only as the kit maps it: read-only, shared, its whole size,
 * its descriptor.
 */
#include <linux/audit.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "sandbox/internal.h"

#define PREFIX_MAX 32

/* Where a jump of the prefix goes: on, to a rule's body, or past the
 * prefix to the policy's program, which then judges the call as it
 * always does. */
enum target { ON, BRK_BODY, MMAP_BODY, POLICY, TARGETS };

struct prefix {
	struct sock_filter f[PREFIX_MAX];
	uint8_t jt[PREFIX_MAX], jf[PREFIX_MAX]; /* enum target */
	int at[TARGETS]; /* where each target is, once known */
	int n;
};

static void emit(struct prefix *x, struct sock_filter f, enum target jt, enum target jf)
{
	x->jt[x->n] = jt;
	x->jf[x->n] = jf;
	x->f[x->n++] = f;
}

static void load(struct prefix *x, uint32_t offset)
{
	emit(x, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset), ON, ON);
}

/* Goes on when the word loaded compares as op to v, else to the policy. */
static void need(struct prefix *x, uint16_t op, uint32_t v)
{
	emit(x, (struct sock_filter)BPF_JUMP(BPF_JMP | op | BPF_K, v, 0, 0), ON, POLICY);
}

/* Goes on when the word loaded is at most v, else to the policy. */
static void need_at_most(struct prefix *x, uint32_t v)
{
	emit(x, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, v, 0, 0), POLICY, ON);
}

static uint32_t arg_low(int i)
{
	return offsetof(struct seccomp_data, args) + 8 * i;
}

/* Argument i's lower half is v (where the kernel reads no more of it). */
static void need_low(struct prefix *x, int i, uint32_t v)
{
	load(x, arg_low(i));
	need(x, BPF_JEQ, v);
}

static void need_arg(struct prefix *x, int i, uint64_t v)
{
	need_low(x, i, (uint32_t)v);
	load(x, arg_low(i) + 4);
	need(x, BPF_JEQ, (uint32_t)(v >> 32));
}

static void allow(struct prefix *x)
{
	emit(x, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), ON, ON);
}

/* A body starts with the architecture: another ABI's call of the same
 * number is the policy's to judge. */
static void begin_body(struct prefix *x, enum target body)
{
	x->at[body] = x->n;
	load(x, offsetof(struct seccomp_data, arch));
	need(x, BPF_JEQ, AUDIT_ARCH_X86_64);
}

/* brk(addr) with addr in [from, to]: the two share their upper half. */
static void brk_body(struct prefix *x, uint64_t from, uint64_t to)
{
	begin_body(x, BRK_BODY);
	load(x, arg_low(0) + 4);
	need(x, BPF_JEQ, (uint32_t)(from >> 32));
	load(x, arg_low(0));
	need(x, BPF_JGE, (uint32_t)from);
	need_at_most(x, (uint32_t)to);
	allow(x);
}

/* mmap(any, size, PROT_READ, MAP_SHARED, SBX_FD_SHARED, any), as the kit
 * maps its region (games/kit/io.h).  The length is the whole size, all 64
 * bits: what the mapping adds.  The kernel reads the lower half of the
 * protection, the flags and the descriptor; without MAP_FIXED the address
 * is a hint; an offset cannot make the mapping longer. */
static void mmap_body(struct prefix *x, uint64_t size)
{
	begin_body(x, MMAP_BODY);
	need_arg(x, 1, size);
	need_low(x, 2, PROT_READ);
	need_low(x, 3, MAP_SHARED);
	need_low(x, 4, SBX_FD_SHARED);
	allow(x);
}

/* The kernel runs a filter once per system call number to learn which
 * calls it always allows, and installing it costs about that: so every
 * call but these two passes the prefix in three instructions (the
 * number, two comparisons), and only their bodies look further. */
static void build(struct prefix *x, uint64_t heap_start, uint64_t shared_size)
{
	load(x, offsetof(struct seccomp_data, nr));
	if (heap_start)
		emit(x, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_brk, 0, 0),
		     BRK_BODY, shared_size ? ON : POLICY);
	if (shared_size)
		emit(x, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 0),
		     MMAP_BODY, POLICY);
	if (heap_start)
		brk_body(x, heap_start, heap_start + SBX_HEAP_UNASKED);
	if (shared_size)
		mmap_body(x, shared_size);
	x->at[POLICY] = x->n;
	for (int i = 0; i < x->n; i++) {
		if (x->jt[i] != ON)
			x->f[i].jt = (uint8_t)(x->at[x->jt[i]] - i - 1);
		if (x->jf[i] != ON)
			x->f[i].jf = (uint8_t)(x->at[x->jf[i]] - i - 1);
	}
}

uint64_t sbx_heap_unasked(uint64_t heap_start, const struct sbx_limits *lim)
{
	uint64_t end = heap_start + SBX_HEAP_UNASKED;
	/* Under a small limit, a MiB grown unasked is too large a share of it. */
	if (lim->memory_bytes && lim->memory_bytes < 16 * SBX_HEAP_UNASKED)
		return 0;
	return heap_start >> 32 == end >> 32 ? heap_start : 0;
}

int sbx_launch_program(const struct sbx_policy *pol, uint64_t heap_start, uint64_t shared_size,
		       struct sock_fprog *prog)
{
	struct prefix x = { .n = 0 };
	if (heap_start || shared_size)
		build(&x, heap_start, shared_size);
	size_t total = (size_t)x.n + pol->prog.len;
	struct sock_filter *f = malloc(total * sizeof *f);
	if (!f)
		return -1;
	memcpy(f, x.f, (size_t)x.n * sizeof *f);
	memcpy(f + x.n, pol->prog.filter, pol->prog.len * sizeof *f);
	*prog = (struct sock_fprog){ .len = (unsigned short)total, .filter = f };
	return 0;
}
