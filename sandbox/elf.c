/* elf.c - refuse, before forking, a binary that cannot be a player. */
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/internal.h"

static int refuse(struct sbx_result *res, enum sbx_verdict v, const char *why)
{
	res->verdict = v;
	snprintf(res->message, sizeof res->message, "%s", why);
	return -1;
}

/* Bytes the loader must map: what the kernel would charge to RLIMIT_AS
 * before the first instruction runs; and, for a program loaded at fixed
 * addresses (ET_EXEC), where its heap starts when the kernel does not
 * randomize it: at the page after its highest segment's end. */
static int loaded_size(const Elf64_Phdr *ph, unsigned n, bool fixed, uint64_t *total,
		       uint64_t *heap_start, bool *dynamic)
{
	uint64_t end = 0;
	*total = 0;
	*dynamic = false;
	for (unsigned i = 0; i < n; i++) {
		if (ph[i].p_type == PT_INTERP)
			*dynamic = true;
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_memsz > (1ULL << 47) || ph[i].p_vaddr > (1ULL << 47))
			return -1;
		*total += (ph[i].p_memsz + 4095) & ~4095ULL;
		if (ph[i].p_vaddr + ph[i].p_memsz > end)
			end = ph[i].p_vaddr + ph[i].p_memsz;
	}
	*heap_start = fixed ? (end + 4095) & ~4095ULL : 0;
	return 0;
}

int sbx_elf_check(int fd, const struct sbx_limits *lim, struct sbx_result *res,
		  uint64_t *heap_start)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[64];
	if (pread(fd, &eh, sizeof eh, 0) != sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		return refuse(res, SBX_SETUP, "not an x86-64 executable");
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 64)
		return refuse(res, SBX_SETUP, "malformed executable (program headers)");
	uint64_t total;
	bool dynamic;
	ssize_t len = (ssize_t)(eh.e_phnum * sizeof *ph);
	if (pread(fd, ph, len, (off_t)eh.e_phoff) != len ||
	    loaded_size(ph, eh.e_phnum, eh.e_type == ET_EXEC, &total, heap_start, &dynamic) < 0)
		return refuse(res, SBX_SETUP, "malformed executable (segments)");
	if (dynamic)
		return refuse(res, SBX_SETUP,
			      "the program is not statically linked (build it with -static)");
	if (lim->memory_bytes && total > lim->memory_bytes) {
		res->verdict = SBX_MEMORY;
		snprintf(res->message, sizeof res->message,
			 "memory limit exceeded: the program's code and static data need %llu MiB, "
			 "the limit is %llu MiB", (unsigned long long)(total >> 20),
			 (unsigned long long)(lim->memory_bytes >> 20));
		return -1;
	}
	return 0;
}
