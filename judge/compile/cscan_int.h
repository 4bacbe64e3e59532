/* cscan_int.h - what the files of the cscan module share (cscan.c: the
 * source and gcc -E checks, cscan_as.c: the assembly, cscan_obj.c: the
 * object file).  Not for use outside judge/cscan*.c. */
#ifndef JUDGE_CSCAN_INT_H
#define JUDGE_CSCAN_INT_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "judge/compile/cscan.h"

/* "name:line: message", or "name: message" for line 0.  Returns 1, the
 * value every check returns when it refuses. */
__attribute__((format(printf, 4, 5)))
int cscan_refuse(err_t err, const char *name, unsigned line, const char *fmt, ...);

/* True when w[0..n) is one of the NULL-terminated list's words. */
bool cscan_in_list(const char *const *list, const char *w, size_t n);

/* The section names plain C compiled by gcc puts in an object file (without
 * the ".rela" prefix of relocation sections): exact names, and prefixes
 * followed by digits and dots only (".rodata.str1.1", ".init_array.00101").
 * object: also those the assembler makes itself (.symtab, .eh_frame...). */
bool cscan_section_allowed(const char *s, size_t n, bool object);

/* Where the attribute scanner of gcc -E output stands. */
struct cs_attr {
	enum { ATTR_IDLE, ATTR_KEYWORD, ATTR_PAREN, ATTR_BRACKET, ATTR_LIST } state;
	bool c2x;     /* [[...]] rather than __attribute__((...)) */
	bool message; /* in the arguments of warning(), deprecated()... */
	unsigned depth; /* brackets open inside the attribute list */
};

/* Reads one line of gcc -E output (not a directive) into a; mine: its
 * tokens come from the contestant's file, so its attributes are checked.
 * 0, or 1 with err set, "NAME:LINE: ...". */
int cscan_attr_line(struct cs_attr *a, const char *p, size_t n, bool mine, unsigned line,
		    const char *name, err_t err);

/* Checks the strings of a #pragma message line of the contestant's. */
int cscan_pragma_message(const char *p, size_t n, unsigned line, const char *name,
			 err_t err);

/* ELF64 relocatable objects, read from memory as hostile bytes
 * (cscan_obj.c).  [off, off + size) lies inside a buffer of len bytes: */
bool cscan_elf_inside(uint64_t off, uint64_t size, size_t len);
/* An x86-64 relocatable whose section headers lie inside the buffer: */
bool cscan_elf_header_ok(const Elf64_Ehdr *eh, size_t len);
/* Section header i (i < e_shnum, checked by the caller): */
Elf64_Shdr cscan_elf_section(const unsigned char *buf, const Elf64_Ehdr *eh, unsigned i);
/* The string at off in a string table checked to lie inside the buffer,
 * or NULL if it does not end inside the table: */
const char *cscan_elf_string(const unsigned char *buf, const Elf64_Shdr *strtab, Elf64_Word off);

#endif
