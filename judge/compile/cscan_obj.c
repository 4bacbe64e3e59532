/* cscan_obj.c - the object check: the assembler's output, read as hostile
 * bytes.  An ELF64 little-endian x86-64 relocatable whose every section has
 * a name and a type that plain C produces; so no LTO section (.gnu.lto_*)
 * ever reaches the linker's plugin, and nothing the assembly check missed
 * reaches the link.
 *
 * sandbox/elf.c reads a player's executable through its program headers
 * (what the loader maps); a relocatable object has none, so this reads the
 * section headers instead, from memory, every offset checked. */
#include "judge/compile/cscan_int.h"

#define OBJ_MAX_SECTIONS 4096

static const Elf64_Word object_types[] = {
	SHT_PROGBITS, SHT_NOBITS, SHT_RELA, SHT_SYMTAB, SHT_STRTAB, SHT_INIT_ARRAY,
	SHT_FINI_ARRAY, SHT_X86_64_UNWIND, /* .eh_frame, as newer assemblers mark it */
};

static bool type_allowed(Elf64_Word t)
{
	for (size_t i = 0; i < sizeof object_types / sizeof *object_types; i++)
		if (object_types[i] == t)
			return true;
	return false;
}

bool cscan_elf_inside(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

static int malformed(err_t err, const char *name, const char *what)
{
	return cscan_refuse(err, name, 0, "the assembler's object file is malformed (%s): refused",
			    what);
}

bool cscan_elf_header_ok(const Elf64_Ehdr *eh, size_t len)
{
	return memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	       eh->e_ident[EI_DATA] == ELFDATA2LSB && eh->e_ident[EI_VERSION] == EV_CURRENT &&
	       eh->e_type == ET_REL && eh->e_machine == EM_X86_64 && eh->e_phnum == 0 &&
	       eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shnum > 1 &&
	       eh->e_shnum <= OBJ_MAX_SECTIONS && eh->e_shstrndx > 0 &&
	       eh->e_shstrndx < eh->e_shnum &&
	       cscan_elf_inside(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), len);
}

Elf64_Shdr cscan_elf_section(const unsigned char *buf, const Elf64_Ehdr *eh, unsigned i)
{
	Elf64_Shdr sh;
	memcpy(&sh, buf + eh->e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
	return sh;
}

const char *cscan_elf_string(const unsigned char *buf, const Elf64_Shdr *strtab, Elf64_Word off)
{
	if (off >= strtab->sh_size)
		return NULL;
	const char *s = (const char *)buf + strtab->sh_offset + off;
	return memchr(s, '\0', strtab->sh_size - off) ? s : NULL;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

static int check_section(err_t err, const char *name, const Elf64_Shdr *sh,
			 const char *sname, size_t len)
{
	if (sh->sh_type != SHT_NOBITS && !cscan_elf_inside(sh->sh_offset, sh->sh_size, len))
		return malformed(err, name, "a section lies outside the file");
	const char *show = printable(sname) ? sname : "(a name with unprintable bytes)";
	if (strncmp(sname, ".gnu.lto_", 9) == 0)
		return cscan_refuse(err, name, 0,
				    "the object file carries the link-time optimisation section "
				    "`%.60s`, which plain C compiled without LTO does not produce: "
				    "refused", show);
	const char *base = sname;
	if (sh->sh_type == SHT_RELA && strncmp(sname, ".rela", 5) == 0)
		base += 5;
	if (!type_allowed(sh->sh_type) || !cscan_section_allowed(base, strlen(base), true))
		return cscan_refuse(err, name, 0,
				    "the object file has the section `%.60s` (type %u), which plain "
				    "C does not produce: refused", show, (unsigned)sh->sh_type);
	return 0;
}

int cscan_object(const char *name, const void *data, size_t len, err_t err)
{
	const unsigned char *buf = data;
	Elf64_Ehdr eh;
	if (len < sizeof eh)
		return malformed(err, name, "too short");
	memcpy(&eh, buf, sizeof eh);
	if (!cscan_elf_header_ok(&eh, len))
		return malformed(err, name, "not an x86-64 relocatable object with section headers");
	Elf64_Shdr strtab = cscan_elf_section(buf, &eh, eh.e_shstrndx);
	if (strtab.sh_type != SHT_STRTAB || strtab.sh_size == 0 ||
	    !cscan_elf_inside(strtab.sh_offset, strtab.sh_size, len))
		return malformed(err, name, "section names");
	if (cscan_elf_section(buf, &eh, 0).sh_type != SHT_NULL)
		return malformed(err, name, "the first section header");
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		Elf64_Shdr sh = cscan_elf_section(buf, &eh, i);
		const char *sname = cscan_elf_string(buf, &strtab, sh.sh_name);
		if (!sname)
			return malformed(err, name, "a section name");
		int rc = check_section(err, name, &sh, sname, len);
		if (rc)
			return rc;
	}
	return 0;
}
