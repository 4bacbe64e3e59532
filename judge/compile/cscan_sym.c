/* cscan_sym.c - the object check of symbols (cscan_object_symbols): no
 * definition of the instrumentation's hooks, and for games whose units
 * must not share memory, no writable variable.  Runs after cscan_object()
 * passed, so the section headers are sound; symbols are still read as
 * hostile bytes.  The line of a refused variable comes from the source's
 * tokens: the object has no line information. */
#include "judge/compile/cscan_int.h"

#include <stdio.h>

#include "judge/base/clex.h"

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Sections a running program may write: initialised, zeroed, per thread. */
static bool writable_section(const char *s)
{
	if (starts(s, ".data.rel.ro"))
		return false; /* constants that hold addresses */
	return strcmp(s, ".data") == 0 || starts(s, ".data.") || strcmp(s, ".bss") == 0 ||
	       starts(s, ".bss.") || starts(s, ".tdata") || starts(s, ".tbss");
}

/* ---- the declaration's line, from the source's tokens -------------------- */

static bool is_punct(const struct clex_token *t, enum clex_punct p)
{
	return t->kind == CLEX_PUNCT && t->punct == p;
}

/* The line where the variable `id` (len bytes) is declared: for a static
 * local, its first appearance after `static` in the same statement inside
 * a function body; for a file-scope one, its first appearance outside
 * every brace; otherwise its first appearance.  0 when it never appears,
 * -1 when out of memory. */
static long declaration_line(const char *src, size_t n, const char *id, size_t len, bool local)
{
	struct clex_text text;
	if (clex_splice(src, n, &text) < 0)
		return -1;
	struct clex lx;
	struct clex_token t;
	clex_init(&lx, &text, 0);
	unsigned depth = 0;
	long first = 0, found = 0;
	bool after_static = false;
	while (!found && clex_next(&lx, &t)) {
		const char *w = text.c + t.start;
		if (is_punct(&t, CLEX_P_SEMI) || is_punct(&t, CLEX_P_LBRACE) ||
		    is_punct(&t, CLEX_P_RBRACE))
			after_static = false;
		depth += is_punct(&t, CLEX_P_LBRACE);
		depth -= is_punct(&t, CLEX_P_RBRACE) && depth;
		if (t.kind != CLEX_WORD)
			continue;
		if (t.len == 6 && memcmp(w, "static", 6) == 0)
			after_static = true;
		if (t.len == len && memcmp(w, id, len) == 0) {
			if (local ? after_static && depth > 0 : depth == 0)
				found = t.line;
			else if (!first)
				first = t.line;
		}
	}
	clex_text_free(&text);
	return found ? found : first;
}

/* ---- symbols ------------------------------------------------------------- */

struct objview {
	const unsigned char *buf;
	size_t len;
	Elf64_Ehdr eh;
	Elf64_Shdr shstr;
};

static const char *section_of(const struct objview *o, Elf64_Half ndx)
{
	if (ndx == SHN_UNDEF || ndx >= o->eh.e_shnum)
		return NULL;
	Elf64_Shdr sh = cscan_elf_section(o->buf, &o->eh, ndx);
	return cscan_elf_string(o->buf, &o->shstr, sh.sh_name);
}

static int refuse_variable(err_t err, const char *name, const char *sym,
			   const char *src, size_t src_len)
{
	/* a static local is "name.N" in the object */
	size_t len = strcspn(sym, ".");
	bool local = sym[len] == '.';
	if (len > 60)
		len = 60;
	long line = declaration_line(src, src_len, sym, len, local);
	if (line < 0) {
		err_set(err, "out of memory checking %s", name);
		return -1;
	}
	return cscan_refuse(err, name, (unsigned)line,
			    "`%.*s` is a writable %s variable: in this game units share no memory "
			    "(keep a unit's state in its run() function's locals, and share through "
			    "the team array); constants (const) are fine", (int)len, sym,
			    local ? "static" : "global");
}

static int check_symbol(const struct objview *o, const Elf64_Sym *sym, const char *sname,
			bool no_writable, const char *name, const char *src, size_t src_len,
			err_t err)
{
	int type = ELF64_ST_TYPE(sym->st_info);
	if (starts(sname, "__sanitizer") && sym->st_shndx != SHN_UNDEF)
		return cscan_refuse(err, name, 0,
				    "defines `%.60s`, a name of the energy count's instrumentation, "
				    "which only the game's runtime may define: refused", sname);
	if (!no_writable || (type != STT_OBJECT && type != STT_TLS && type != STT_NOTYPE))
		return 0;
	const char *sec = section_of(o, sym->st_shndx);
	bool writable = sym->st_shndx == SHN_COMMON || (sec && writable_section(sec));
	if (!writable || !sname[0] || sname[0] == '.')
		return 0; /* assembler labels (.L...) are not variables */
	return refuse_variable(err, name, sname, src, src_len);
}

/* A writable section with bytes in it but no variable's symbol (a
 * compound literal at file scope, say): refused as such. */
static int check_section_bytes(const struct objview *o, const char *name,
			       err_t err)
{
	for (unsigned i = 1; i < o->eh.e_shnum; i++) {
		Elf64_Shdr sh = cscan_elf_section(o->buf, &o->eh, i);
		const char *sec = cscan_elf_string(o->buf, &o->shstr, sh.sh_name);
		if (sec && sh.sh_size > 0 && writable_section(sec))
			return cscan_refuse(err, name, 0,
					    "the program has writable data (section %.40s) but in this "
					    "game units share no memory: keep state in run()'s locals",
					    sec);
	}
	return 0;
}

static int check_symtab(const struct objview *o, const Elf64_Shdr *symtab, bool no_writable,
			const char *name, const char *src, size_t src_len, err_t err)
{
	if (symtab->sh_link >= o->eh.e_shnum || symtab->sh_entsize != sizeof(Elf64_Sym))
		return cscan_refuse(err, name, 0, "the object's symbol table is malformed: refused");
	Elf64_Shdr strtab = cscan_elf_section(o->buf, &o->eh, symtab->sh_link);
	if (strtab.sh_type != SHT_STRTAB || !cscan_elf_inside(strtab.sh_offset, strtab.sh_size, o->len))
		return cscan_refuse(err, name, 0, "the object's symbol names are malformed: refused");
	size_t count = symtab->sh_size / sizeof(Elf64_Sym);
	for (size_t k = 1; k < count; k++) {
		Elf64_Sym sym;
		memcpy(&sym, o->buf + symtab->sh_offset + k * sizeof sym, sizeof sym);
		const char *sname = cscan_elf_string(o->buf, &strtab, sym.st_name);
		if (!sname)
			return cscan_refuse(err, name, 0, "a symbol name is malformed: refused");
		int rc = check_symbol(o, &sym, sname, no_writable, name, src, src_len, err);
		if (rc)
			return rc;
	}
	return 0;
}

int cscan_object_symbols(const char *name, const void *data, size_t len, const char *src,
			 size_t src_len, bool no_writable, err_t err)
{
	struct objview o = { .buf = data, .len = len };
	if (len < sizeof o.eh)
		return cscan_refuse(err, name, 0, "the object file is malformed: refused");
	memcpy(&o.eh, data, sizeof o.eh);
	if (!cscan_elf_header_ok(&o.eh, len))
		return cscan_refuse(err, name, 0, "the object file is malformed: refused");
	o.shstr = cscan_elf_section(o.buf, &o.eh, o.eh.e_shstrndx);
	if (!cscan_elf_inside(o.shstr.sh_offset, o.shstr.sh_size, len))
		return cscan_refuse(err, name, 0, "the object file is malformed: refused");
	for (unsigned i = 1; i < o.eh.e_shnum; i++) {
		Elf64_Shdr sh = cscan_elf_section(o.buf, &o.eh, i);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (!cscan_elf_inside(sh.sh_offset, sh.sh_size, len))
			return cscan_refuse(err, name, 0, "the object's symbols are malformed: refused");
		int rc = check_symtab(&o, &sh, no_writable, name, src, src_len, err);
		if (rc)
			return rc;
	}
	return no_writable ? check_section_bytes(&o, name, err) : 0;
}
