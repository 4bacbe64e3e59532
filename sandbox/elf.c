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
 * before the first instruction runs. */
static int loaded_size(int fd, const Elf64_Ehdr *eh, uint64_t *total, bool *dynamic)
{
	*total = 0;
	*dynamic = false;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		off_t off = eh->e_phoff + (off_t)i * eh->e_phentsize;
		if (pread(fd, &ph, sizeof ph, off) != sizeof ph)
			return -1;
		if (ph.p_type == PT_INTERP)
			*dynamic = true;
		if (ph.p_type == PT_LOAD) {
			if (ph.p_memsz > (1ULL << 47))
				return -1;
			*total += (ph.p_memsz + 4095) & ~4095ULL;
		}
	}
	return 0;
}

int sbx_elf_check(int fd, const struct sbx_limits *lim, struct sbx_result *res)
{
	Elf64_Ehdr eh;
	if (pread(fd, &eh, sizeof eh, 0) != sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		return refuse(res, SBX_SETUP, "not an x86-64 executable");
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 64)
		return refuse(res, SBX_SETUP, "malformed executable (program headers)");
	uint64_t total;
	bool dynamic;
	if (loaded_size(fd, &eh, &total, &dynamic) < 0)
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
