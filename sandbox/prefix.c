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
 * let through only as the kit maps it, every argument equal: read-only,
 * shared, its whole size, its descriptor.
 */
#include <linux/audit.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "sandbox/internal.h"

#define PREFIX_MAX 48

/* Instructions, and which of their jumps go past their rule (resolved
 * once the rule is whole). */
struct rules {
	struct sock_filter f[PREFIX_MAX];
	bool next_t[PREFIX_MAX], next_f[PREFIX_MAX];
	int n, rule_start;
};

static void load(struct rules *r, uint32_t offset)
{
	r->f[r->n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset);
}

/* Goes on when the word loaded compares as op to v; otherwise to the next
 * rule. */
static void need(struct rules *r, uint16_t op, uint32_t v)
{
	r->next_f[r->n] = true;
	r->f[r->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | op | BPF_K, v, 0, 0);
}

/* Goes on when the word loaded is at most v. */
static void need_at_most(struct rules *r, uint32_t v)
{
	r->next_t[r->n] = true;
	r->f[r->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, v, 0, 0);
}

static uint32_t arg_low(int i)
{
	return offsetof(struct seccomp_data, args) + 8 * i;
}

static void need_arg(struct rules *r, int i, uint64_t v)
{
	load(r, arg_low(i));
	need(r, BPF_JEQ, (uint32_t)v);
	load(r, arg_low(i) + 4);
	need(r, BPF_JEQ, (uint32_t)(v >> 32));
}

static void begin_rule(struct rules *r, int nr)
{
	r->rule_start = r->n;
	load(r, offsetof(struct seccomp_data, arch));
	need(r, BPF_JEQ, AUDIT_ARCH_X86_64);
	load(r, offsetof(struct seccomp_data, nr));
	need(r, BPF_JEQ, (uint32_t)nr);
}

/* The rule allows; its failed checks jump here, past it. */
static void end_rule(struct rules *r)
{
	r->f[r->n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (int i = r->rule_start; i < r->n; i++) {
		uint8_t past = (uint8_t)(r->n - i - 1);
		if (r->next_t[i])
			r->f[i].jt = past;
		if (r->next_f[i])
			r->f[i].jf = past;
	}
}

/* brk(addr) with addr in [from, to]: the two share their upper half. */
static void brk_rule(struct rules *r, uint64_t from, uint64_t to)
{
	begin_rule(r, SYS_brk);
	load(r, arg_low(0) + 4);
	need(r, BPF_JEQ, (uint32_t)(from >> 32));
	load(r, arg_low(0));
	need(r, BPF_JGE, (uint32_t)from);
	need_at_most(r, (uint32_t)to);
	end_rule(r);
}

/* mmap(NULL, size, PROT_READ, MAP_SHARED, SBX_FD_SHARED, 0), as the kit
 * maps its region (games/kit/io.h). */
static void shared_rule(struct rules *r, uint64_t size)
{
	static const uint64_t fixed[] = { 0, 0, PROT_READ, MAP_SHARED, SBX_FD_SHARED, 0 };
	begin_rule(r, SYS_mmap);
	for (int i = 0; i < 6; i++)
		need_arg(r, i, i == 1 ? size : fixed[i]);
	end_rule(r);
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
	struct rules r = { .n = 0 };
	if (heap_start)
		brk_rule(&r, heap_start, heap_start + SBX_HEAP_UNASKED);
	if (shared_size)
		shared_rule(&r, shared_size);
	size_t total = (size_t)r.n + pol->prog.len;
	struct sock_filter *f = malloc(total * sizeof *f);
	if (!f)
		return -1;
	memcpy(f, r.f, (size_t)r.n * sizeof *f);
	memcpy(f + r.n, pol->prog.filter, pol->prog.len * sizeof *f);
	*prog = (struct sock_fprog){ .len = (unsigned short)total, .filter = f };
	return 0;
}
