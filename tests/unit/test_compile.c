/* Tests of the compile step: hash (SHA-256 hex), cscan (the source, gcc -E
 * and assembly checks) and compile (gcc under the sandbox, the cache, the
 * limits, the `judge compile` command).  Fixtures are in tests/compile/: a
 * tiny game (game/dominator.h, game/runtime.c), sources that compile
 * (good/), one that does not (error/) and hostile ones (hostile/). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge/cli/commands.h"
#include "games/game.h"
#include "judge/compile/compile.h"
#include "judge/compile/cscan.h"
#include "judge/compile/toolchain.h"
#include "judge/base/hash.h"

#define FIX "tests/compile/"
#define HEADER FIX "game/dominator.h"
#define COURSE "games/kit/course.h" /* the shared header of the course games */
#define UNITS FIX "units/"
#define TRACE_PC "-fsanitize-coverage=trace-pc"
#define SHARED_MEMORY(file, line, name, kind) \
	file ":" line ": `" name "` is a writable " kind " variable: in this game units share " \
	"no memory (keep a unit's state in its run() function's locals, and share through the " \
	"team array); constants (const) are fine\n"
#define MIB (1024ULL * 1024)
#define SEC 1000000000ULL
#define COMPILER_UID 61064 /* the default config's: sandbox uid_base + uid_count */

/* ---- hash ------------------------------------------------------------------ */

Test(hash, known_digests)
{
	char hex[HASH_HEXLEN + 1];
	cr_assert_eq(hash_hex("", 0, hex), 0);
	cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	cr_assert_eq(hash_hex("abc", 3, hex), 0);
	cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(hash, pieces_equal_one_call)
{
	const char text[] = "The quick brown fox jumps over the lazy dog";
	char one[HASH_HEXLEN + 1], pieces[HASH_HEXLEN + 1];
	cr_assert_eq(hash_hex(text, sizeof text - 1, one), 0);
	struct hash h;
	cr_assert_eq(hash_init(&h), 0);
	hash_update(&h, text, 10);
	hash_update(&h, text + 10, 0);
	hash_update(&h, text + 10, sizeof text - 11);
	cr_assert_eq(hash_final(&h, pieces), 0);
	cr_expect_str_eq(pieces, one);
	cr_expect_str_eq(one, "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
}

static void field_digest(const char *a, const char *b, char hex[HASH_HEXLEN + 1])
{
	struct hash h;
	cr_assert_eq(hash_init(&h), 0);
	hash_field(&h, "x", a, strlen(a));
	hash_field(&h, "x", b, strlen(b));
	cr_assert_eq(hash_final(&h, hex), 0);
}

Test(hash, fields_are_framed)
{
	char ab_c[HASH_HEXLEN + 1], a_bc[HASH_HEXLEN + 1], manual[HASH_HEXLEN + 1];
	field_digest("ab", "c", ab_c);
	field_digest("a", "bc", a_bc);
	cr_expect_str_neq(ab_c, a_bc);
	/* tag, NUL, the length in 8 little-endian bytes, the data */
	const char framed[] = "x\0\2\0\0\0\0\0\0\0ab" "x\0\1\0\0\0\0\0\0\0c";
	cr_assert_eq(hash_hex(framed, sizeof framed - 1, manual), 0);
	cr_expect_str_eq(ab_c, manual);
}

/* ---- cscan: the source ----------------------------------------------------- */

static void refused_as(const char *src, const char *header, const char *msg)
{
	err_t err = {0};
	int rc = cscan_source("AIName.c", src, strlen(src), header, err);
	cr_expect_eq(rc, 1, "not refused (rc %d, %s):\n%s", rc, err->msg, src);
	cr_expect_str_eq(err->msg, msg, "source:\n%s", src);
}

static void refused(const char *src, const char *msg)
{
	refused_as(src, "dominator.h", msg);
}

static void accepted(const char *src)
{
	err_t err = {0};
	int rc = cscan_source("AIName.c", src, strlen(src), "dominator.h", err);
	cr_expect_eq(rc, 0, "refused: %s\nsource:\n%s", err->msg, src);
}

#define NOT_INCLUDABLE(h) \
	"#include " h " is not allowed: only the standard C headers and dominator.h may be included"

Test(cscan, include_of_a_path_names_the_line)
{
	refused("#include \"dominator.h\"\nint x;\n#include \"/etc/passwd\"\n",
		"AIName.c:3: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("#include </dev/zero>\n", "AIName.c:1: " NOT_INCLUDABLE("</dev/zero>"));
	refused("#include \"../dominator.h\"\n", "AIName.c:1: " NOT_INCLUDABLE("\"../dominator.h\""));
	refused("#include \"./stdio.h\"\n", "AIName.c:1: " NOT_INCLUDABLE("\"./stdio.h\""));
}

Test(cscan, include_of_an_unknown_header)
{
	refused("#include <unistd.h>\n", "AIName.c:1: " NOT_INCLUDABLE("<unistd.h>"));
	refused("#include <sys/stat.h>\n", "AIName.c:1: " NOT_INCLUDABLE("<sys/stat.h>"));
	refused("#include <stdio.h >\n", "AIName.c:1: " NOT_INCLUDABLE("<stdio.h >"));
	refused_as("#include \"dominator.h\"\n", NULL,
		   "AIName.c:1: #include \"dominator.h\" is not allowed: only the standard C "
		   "headers may be included");
}

Test(cscan, every_standard_header_and_the_game_header)
{
	static const char *const names[] = {
		"assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h",
		"inttypes.h", "iso646.h", "limits.h", "locale.h", "math.h", "setjmp.h",
		"signal.h", "stdalign.h", "stdarg.h", "stdatomic.h", "stdbool.h",
		"stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h",
		"string.h", "tgmath.h", "threads.h", "time.h", "uchar.h", "wchar.h",
		"wctype.h", "dominator.h",
	};
	char src[2048] = "";
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char line[64];
		snprintf(line, sizeof line, i % 2 ? "#include <%s>\n" : "# include \"%s\"\n", names[i]);
		strcat(src, line);
		cr_expect_eq(cscan_standard_header(names[i]), i < 29, "%s", names[i]);
	}
	accepted(src);
	cr_expect(!cscan_standard_header("unistd.h"));
}

Test(cscan, computed_include)
{
	refused("#include H\n",
		"AIName.c:1: #include H is not allowed: name the header directly, e.g. "
		"#include <stdio.h>");
	/* and a macro to name it would come before the #include */
	refused("#define H \"/etc/passwd\"\n#include H\n",
		"AIName.c:2: #include after the #define or #undef on line 1: put every #include "
		"before your first macro, so that no macro of yours can change the headers' text");
	refused("#include\n", "AIName.c:1: #include without a header name");
	refused("#include \"stdio.h\n", "AIName.c:1: #include \"stdio.h has no closing \"");
}

Test(cscan, splices_as_the_preprocessor_sees_them)
{
	refused("#inc\\\nlude \"/etc/passwd\"\n", "AIName.c:1: " NOT_INCLUDABLE("\"/etc/passwd\""));
	/* GCC splices even with blanks between the backslash and the newline */
	refused("int a;\n#inc\\ \t\f\v\nlude \"/etc/passwd\"\n",
		"AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("#inc\\\r\nlude \"/etc/pass\\\nwd\"\r\n", "AIName.c:1: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("\\\n#include \"/etc/passwd\"\n", "AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("int a; \\\n\\\n\n#include \"/x\"\n", "AIName.c:4: " NOT_INCLUDABLE("\"/x\""));
	/* a // comment ending in a splice swallows the next line */
	accepted("// not a directive: \\\n#include \"/etc/passwd\"\n");
	/* a backslash, then another backslash-newline: one backslash is left
	 * before a newline, and GCC splices only once */
	refused("int a; \\\\\n\n", "AIName.c:1: a backslash outside a string or character literal "
				    "is not allowed (universal character names cannot be used here)");
}

Test(cscan, comments_and_literals)
{
	refused("/* a comment\n spanning lines */ #include \"/etc/passwd\"\n",
		"AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("# /* c */ include /* c\n */ \"/etc/passwd\"\n",
		"AIName.c:1: " NOT_INCLUDABLE("\"/etc/passwd\""));
	accepted("/* #include \"/etc/passwd\" asm */\nint x; // asm __asm__\n");
	accepted("const char *s = \"#include \\\"/etc/passwd\\\" asm\";\n");
	accepted("char c = '\\''; int not_asm = 'a';\nchar *t = u8\"asm\" L\"_Pragma\";\n");
	/* not the first token of its line: gcc does not treat it as a directive */
	accepted("int x; /* a comment\n spanning lines */ #include \"/etc/passwd\"\n");
	accepted("char q = '\"'; #include \"/etc/passwd\"\n");
	/* an unterminated literal ends with its line, as in GCC */
	refused("const char *s = \"unterminated\n#include \"/etc/passwd\"\n",
		"AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("char c = 'x\n#include \"/etc/passwd\"\n",
		"AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	/* an unterminated comment runs to the end */
	accepted("int x; /* never closed\n#include \"/etc/passwd\"\n");
}

Test(cscan, hash_spellings)
{
	refused("%:include \"/etc/passwd\"\n", "AIName.c:1: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("  \t#  include </dev/zero>\n", "AIName.c:1: " NOT_INCLUDABLE("</dev/zero>"));
	/* ## and %:%: are the paste operator, even first on a line */
	accepted("##include \"/etc/passwd\"\n");
	accepted("%:%:include \"/etc/passwd\"\n");
	refused("%:#include \"/etc/passwd\"\n",
		"AIName.c:1: ##include \"/etc/passwd\" is not allowed: use #include, #define, "
		"#undef, #if, #ifdef, #ifndef, #elif, #else, #endif, #pragma, #error or "
		"#warning");
	accepted("#\n# \n#/* null directive */\n");
}

#define NOT_A_DIRECTIVE(d) \
	d " is not allowed: use #include, #define, #undef, #if, #ifdef, #ifndef, #elif, " \
	  "#else, #endif, #pragma, #error or #warning"

Test(cscan, directives_outside_the_list)
{
	refused("#include_next <stdio.h>\n", "AIName.c:1: " NOT_A_DIRECTIVE("#include_next"));
	refused("#import \"dominator.h\"\n", "AIName.c:1: " NOT_A_DIRECTIVE("#import"));
	refused("int x;\n#embed \"/etc/passwd\"\n", "AIName.c:2: " NOT_A_DIRECTIVE("#embed"));
	refused("#line 1 \"/etc/passwd\"\n", "AIName.c:1: " NOT_A_DIRECTIVE("#line"));
	refused("#ident \"x\"\n", "AIName.c:1: " NOT_A_DIRECTIVE("#ident"));
	refused("#assert machine(x86)\n", "AIName.c:1: " NOT_A_DIRECTIVE("#assert"));
	refused("# 1 \"/usr/include/stdio.h\" 3\n",
		"AIName.c:1: line markers (# 1 \"/usr/include/stdio.h\" 3) are not allowed");
	/* checked even where a conditional would skip them */
	refused("#if 0\n#include \"/etc/passwd\"\n#endif\n",
		"AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	accepted("#define A 1\n#undef A\n#ifdef A\n#elif defined(B)\n#else\n#endif\n"
		 "#ifndef C\n#if 1\n#endif\n#endif\n#warning w\n#error e\n");
}

#define PRAGMA_LIST \
	" is not allowed: use only #pragma once, pack, message, STDC ..., GCC diagnostic, " \
	"optimize, target, push_options, pop_options, unroll, ivdep, warning, error or poison"

Test(cscan, pragmas)
{
	refused("#pragma GCC dependency \"/etc/passwd\"\n",
		"AIName.c:1: #pragma GCC dependency" PRAGMA_LIST);
	refused("#pragma /**/ GCC\tsystem_header\n", "AIName.c:1: #pragma GCC system_header" PRAGMA_LIST);
	refused("#pragma GCC pch_preprocess \"/etc/passwd\"\n",
		"AIName.c:1: #pragma GCC pch_preprocess" PRAGMA_LIST);
	/* names, linkage and visibility stay as the C says */
	refused("int x;\n#pragma weak x\n", "AIName.c:2: #pragma weak" PRAGMA_LIST);
	refused("#pragma redefine_extname a b\n", "AIName.c:1: #pragma redefine_extname" PRAGMA_LIST);
	refused("#pragma GCC visibility push(hidden)\n", "AIName.c:1: #pragma GCC visibility" PRAGMA_LIST);
	refused("#pragma push_macro(\"X\")\n", "AIName.c:1: #pragma push_macro" PRAGMA_LIST);
	refused("#pragma\n", "AIName.c:1: #pragma " PRAGMA_LIST);
	accepted("#pragma once\n#pragma GCC optimize(\"O3\")\n#pragma GCC diagnostic push\n"
		 "#pragma STDC FP_CONTRACT ON\n#pragma pack(1)\n#pragma GCC target(\"avx2\")\n"
		 "#pragma GCC unroll 4\n#pragma message \"hello\"\n");
}

Test(cscan, messages_are_printable_ascii)
{
	refused("#warning caf\xc3\xa9\n",
		"AIName.c:1: #warning text may only use printable ASCII characters");
	refused("int x;\n#error \"\xc3\xa9\"\n",
		"AIName.c:2: #error text may only use printable ASCII characters");
	refused("#warning a\fb\n", "AIName.c:1: #warning text may only use printable ASCII characters");
	accepted("#warning \"the CPU time limit exceeded? no: a warning of the contestant's\"\n");
}

#define DEFINE_FIRST(l) \
	"#include after the #define or #undef on line " l ": put every #include before your " \
	"first macro, so that no macro of yours can change the headers' text"

Test(cscan, no_macro_before_an_include)
{
	refused("#define ai_move leak\n#include \"dominator.h\"\n", "AIName.c:2: " DEFINE_FIRST("1"));
	refused("#include <stdio.h>\n#define printf puts\n#include <math.h>\n",
		"AIName.c:3: " DEFINE_FIRST("2"));
	refused("#undef __STDC_VERSION__\n#include <stdio.h>\n", "AIName.c:2: " DEFINE_FIRST("1"));
	/* even where a conditional would skip either */
	refused("#if 0\n#define X\n#endif\n#if 0\n#include <stdio.h>\n#endif\n",
		"AIName.c:5: " DEFINE_FIRST("2"));
	/* a feature macro, empty or a number, changes no header line */
	refused("#define _GNU_SOURCE __attribute__((section(\"x\")))\n#include <stdio.h>\n",
		"AIName.c:2: " DEFINE_FIRST("1"));
	refused("#define NDEBUG 1 2\n#include <assert.h>\n", "AIName.c:2: " DEFINE_FIRST("1"));
	accepted("#define _GNU_SOURCE\n#define NDEBUG 1\n#define _POSIX_C_SOURCE 200809L\n"
		 "#define _USE_MATH_DEFINES\n#define __STDC_FORMAT_MACROS /* c++ habit */\n"
		 "#undef NDEBUG\n#include <assert.h>\n#include \"dominator.h\"\n"
		 "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n#undef MAX\nint x;\n");
}

Test(cscan, refused_identifiers)
{
	refused("int f(void) { asm(\"nop\"); }\n",
		"AIName.c:1: asm is not allowed: inline assembler cannot be used");
	refused("\n__asm__ volatile(\"\");\n",
		"AIName.c:2: __asm__ is not allowed: inline assembler cannot be used");
	refused("int x __asm(\"y\");\n", "AIName.c:1: __asm is not allowed: inline assembler cannot be used");
	refused("#define A asm\n", "AIName.c:1: asm is not allowed: inline assembler cannot be used");
	refused("__as\\\nm__(\"nop\");\n",
		"AIName.c:1: __asm__ is not allowed: inline assembler cannot be used");
	refused("_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n",
		"AIName.c:1: _Pragma is not allowed: write #pragma on a line of its own instead");
	refused("#if __has_include(\"/etc/passwd\")\n#endif\n",
		"AIName.c:1: __has_include is not allowed: it looks up files on the judge");
	refused("#if __has_include_next(<stdio.h>)\n#endif\n",
		"AIName.c:1: __has_include_next is not allowed: it looks up files on the judge");
	refused("int x = __has_embed(\"/etc/passwd\");\n",
		"AIName.c:1: __has_embed is not allowed: it looks up files on the judge");
	accepted("int my_asm, asmx, _asm, __asm___, Pragma, _Pragma_;\n");
}

Test(cscan, raw_strings_and_numbers)
{
	refused("const char *s = R\"x(\n#include \"/etc/passwd\"\n)x\";\n",
		"AIName.c:1: raw string literals (R\"...\") are not allowed");
	refused("const char *s = u8R\"(x)\";\n", "AIName.c:1: raw string literals (u8R\"...\") are not allowed");
	refused("const void *s = LR\"(x)\";\n", "AIName.c:1: raw string literals (LR\"...\") are not allowed");
	/* R after a digit belongs to a pp-number: no raw string starts, the
	 * string ends with its line, and GCC processes the next one */
	refused("int a = 1R\"x(\n#include \"/etc/passwd\"\n)x\";\n",
		"AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	refused("int a = xR\"x(\n#include \"/etc/passwd\"\n)x\";\n",
		"AIName.c:2: " NOT_INCLUDABLE("\"/etc/passwd\""));
	accepted("double d = 0x1p-3 + 1e+5 + .5e-1; int u = 0xe+1;\n");
}

Test(cscan, characters_gcc_and_the_scanner_could_read_apart)
{
	refused("int a = 1 \\ 2;\n", "AIName.c:1: a backslash outside a string or character literal "
				    "is not allowed (universal character names cannot be used here)");
	refused("int \\u00e9 = 1;\n", "AIName.c:1: a backslash outside a string or character literal "
				    "is not allowed (universal character names cannot be used here)");
	refused("int x;\nint \xc3\xa9 = 1;\n",
		"AIName.c:2: non-ASCII characters may only appear in comments and string literals");
	/* GCC reads UTF-8 in names: the whole name is refused, not its ASCII part */
	refused("int asm\xc3\xa9;\n",
		"AIName.c:1: non-ASCII characters may only appear in comments and string literals");
	refused("#incl\xc3\xa9 <stdio.h>\n",
		"AIName.c:1: non-ASCII characters may only appear in comments and string literals");
	accepted("// caf\xc3\xa9\nconst char *s = \"caf\xc3\xa9\"; /* \xe2\x82\xac */\n");
	accepted("int $dollar = 1;\n");
}

Test(cscan, not_text)
{
	err_t err;
	cr_expect_eq(cscan_source("a.c", "", 0, NULL, err), 1);
	cr_expect_str_eq(err->msg, "a.c: the file is empty");
	cr_expect_eq(cscan_source("a.c", "int x;\nint\0y;\n", 14, NULL, err), 1);
	cr_expect_str_eq(err->msg, "a.c:2: the file contains a NUL byte: submit C source text");
	cr_expect_eq(cscan_text("a.c", "int\x01;\n", 6, err), 1);
	cr_expect_str_eq(err->msg, "a.c:1: control character 0x01: submit C source text");
	/* a byte-order mark: GCC would skip it, but the scanner reads bytes */
	cr_expect_eq(cscan_source("a.c", "\xef\xbb\xbfint x;\n", 10, NULL, err), 1);
	cr_expect_str_eq(err->msg,
			 "a.c:1: the file starts with a byte-order mark (bytes EF BB BF): "
			      "save it as UTF-8 without BOM, or as plain ASCII");
	cr_expect_eq(cscan_text("a.c", "int a;\rint b;\n", 14, err), 1);
	cr_expect_str_eq(err->msg,
			 "a.c:1: a carriage return that does not end a line: save the file "
			      "with LF or CRLF line endings");
	const char *crlf = "int a;\r\n\tint b;\f\v\r\n";
	cr_expect_eq(cscan_text("a.c", crlf, strlen(crlf), err), 0);
}

Test(cscan, fixture_sources_pass)
{
	static const char *const files[] = {
		FIX "good/AIName.c", FIX "good/angled.c", FIX "good/warning.c",
		FIX "good/standalone.c", FIX "error/syntax_error.c",
	};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		FILE *f = fopen(files[i], "r");
		cr_assert_not_null(f, "%s", files[i]);
		char buf[8192];
		err_t err = {0};
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		cr_expect_eq(cscan_source("AIName.c", buf, n, "dominator.h", err), 0, "%s: %s",
			     files[i], err->msg);
	}
}

/* ---- cscan: gcc -E output ---------------------------------------------------- */

#define PP_HEAD "# 0 \"AIName.c\"\n# 0 \"<built-in>\"\n# 0 \"<command-line>\"\n" \
		"# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n# 0 \"<command-line>\" 2\n" \
		"# 1 \"AIName.c\"\n"

static int pp(const char *text, err_t err)
{
	err->msg[0] = '\0';
	return cscan_preprocessed("AIName.c", text, strlen(text), "dominator.h", "course.h", err);
}

Test(cscan_pp, clean_output_passes)
{
	err_t err;
	const char *text = PP_HEAD
		"# 1 \"dominator.h\" 1\nint dom(void);\n# 2 \"AIName.c\" 2\n"
		"# 1 \"./dominator.h\" 1\nint x __asm__(\"y\");\n# 3 \"AIName.c\" 2\n"
		"# 1 \"/usr/include/stdio.h\" 1 3 4\n"
		"extern int fscanf (void) __asm__ (\"\" \"__isoc99_fscanf\");\n"
		"#pragma GCC diagnostic push\n"
		"# 4 \"AIName.c\" 2\n"
		"const char *s = \"__asm__ _Pragma\"; char c = '\\'';\n"
		"#pragma GCC optimize(\"O3\")\n"
		"int f(void) { return 0; }\n";
	cr_expect_eq(pp(text, err), 0, "%s", err->msg);
}

Test(cscan_pp, files_the_source_may_not_read)
{
	err_t err;
	cr_expect_eq(pp(PP_HEAD "# 1 \"/etc/passwd\" 1\nroot:x:0:0\n", err), 1);
	cr_expect_str_eq(err->msg,
			 "AIName.c: the program made the preprocessor read \"/etc/passwd\", "
			      "which is not allowed");
	/* a system header is one gcc flags 3, under /usr */
	cr_expect_eq(pp(PP_HEAD "# 1 \"/usr/include/stdio.h\" 1\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "# 1 \"/etc/passwd\" 1 3\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "# 1 \"/usr/include/../../etc/passwd\" 1 3 4\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c: the program made the preprocessor read "
			      "\"/usr/include/../../etc/passwd\", which is not allowed");
	cr_expect_eq(pp(PP_HEAD "# 1 \"/usr/include/stdio.h\" 1 31\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "# 7 \"other.c\"\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "# 7\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c: the preprocessor produced an unreadable line marker");
}

/* The header the game header shares (course.h) is trusted as the game
 * header is, and only when the compile names it. */
Test(cscan_pp, the_shared_header_only_when_named)
{
	err_t err;
	const char *text = PP_HEAD "# 1 \"dominator.h\" 1\n# 1 \"course.h\" 1\n"
			   "int x __asm__(\"y\");\n# 2 \"dominator.h\" 2\n# 2 \"AIName.c\" 2\n";
	cr_expect_eq(pp(text, err), 0, "%s", err->msg);
	cr_expect_eq(cscan_preprocessed("AIName.c", text, strlen(text), "dominator.h", NULL, err),
		     1);
	cr_expect_str_eq(err->msg, "AIName.c: the program made the preprocessor read \"course.h\", "
			      "which is not allowed");
	cr_expect_eq(pp(PP_HEAD "# 1 \"./course.h\" 1\nint y;\n", err), 0, "%s", err->msg);
	cr_expect_eq(pp(PP_HEAD "# 1 \"other.h\" 1\nint y;\n", err), 1);
}

Test(cscan_pp, macro_made_asm_and_pragmas)
{
	err_t err;
	cr_expect_eq(pp(PP_HEAD "\n\n\n\n\n\n__asm__(\".incbin \\\"/etc/hostname\\\"\");\n", err), 1);
	cr_expect_str_eq(err->msg,
			 "AIName.c:7: __asm__ is not allowed: inline assembler cannot be used "
			      "(it came from a macro)");
	/* line numbers follow the markers */
	cr_expect_eq(pp(PP_HEAD "# 1 \"/usr/include/stdio.h\" 1 3 4\nint a;\n# 41 \"AIName.c\" 2\n"
			"int b;\nasm(\"\");\n", err), 1);
	cr_expect_str_eq(err->msg,
			 "AIName.c:42: asm is not allowed: inline assembler cannot be used "
			      "(it came from a macro)");
	cr_expect_eq(pp(PP_HEAD "\n#pragma GCC pch_preprocess \"/etc/hostname\"\n", err), 1);
	cr_expect_str_eq(err->msg,
			 "AIName.c:2: #pragma GCC pch_preprocess is not allowed (it came from "
			      "_Pragma in a macro)");
	cr_expect_eq(pp(PP_HEAD "#pragma GCC  dependency \"x\"\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "_Pragma(\"x\")\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c:1: _Pragma is not allowed: write #pragma on a line of its own "
			      "instead (it came from a macro)");
}

/* Each item, put into fmt (one %s), is refused by check. */
static void each_refused(int (*check)(const char *, err_t), const char *fmt,
			 const char *const *items, size_t n)
{
	char text[512];
	err_t err;
	for (size_t i = 0; i < n; i++) {
		snprintf(text, sizeof text, fmt, items[i]);
		cr_expect_eq(check(text, err), 1, "%s passed", items[i]);
	}
}

#define ATTRIBUTE_REFUSED(l, a) \
	"AIName.c:" l ": the attribute " a " is not allowed: it changes the sections, symbols or " \
	"assembler text the compiler writes"

Test(cscan_pp, attributes_that_write_assembler_text_or_change_linkage)
{
	err_t err;
	/* every spelling, the list's later entries, across lines */
	static const struct {
		const char *text, *message;
	} cases[] = {
		{ "\nint x __attribute__((section(\".data\"))) = 1;\n",
		  ATTRIBUTE_REFUSED("2", "section") },
		{ "int x __attribute ((aligned(8), __section__ (\".d\")));\n",
		  ATTRIBUTE_REFUSED("1", "section") },
		{ "int x __attribute__((\n  unused,\n  weakref(\"y\")));\n",
		  ATTRIBUTE_REFUSED("3", "weakref") },
		{ "[[gnu::symver(\"f@V\")]] int f(void);\n", ATTRIBUTE_REFUSED("1", "symver") },
		{ "<:<:__gnu__::__alias__(\"g\"):>:> int f(void);\n", ATTRIBUTE_REFUSED("1", "alias") },
		{ "void f(void) __attribute__((no_sanitize_address));\n",
		  ATTRIBUTE_REFUSED("1", "no_sanitize_address") },
		{ "int x __attribute__((section\".d\"));\n", ATTRIBUTE_REFUSED("1", "section") },
		{ "int x __attribute__((unused, L\"\", alias(\"y\")));\n",
		  ATTRIBUTE_REFUSED("1", "alias") },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[256];
		snprintf(text, sizeof text, PP_HEAD "%s", cases[i].text);
		cr_expect_eq(pp(text, err), 1, "%s passed", cases[i].text);
		cr_expect_str_eq(err->msg, cases[i].message);
	}
	const char *const others[] = {
		"ifunc(\"r\")", "naked", "target_clones(\"avx2\",\"default\")", "visibility(\"hidden\")",
		"weak", "copy(g)", "retain", "noinit", "patchable_function_entry(1)",
		"no_sanitize(\"undefined\")", "indirect_branch(\"thunk\")", "fentry_name(\"x\")",
	};
	each_refused(pp, PP_HEAD "void f(void) __attribute__((%s));\n", others,
		     sizeof others / sizeof *others);
	/* the nesting runs through the header's lines as the compiler reads it */
	cr_expect_eq(pp(PP_HEAD "int x __attribute__((aligned(\n# 1 \"/usr/include/stdio.h\" 1 3 4\n"
			"8), unused\n# 3 \"AIName.c\" 2\n, section(\"x\")));\n", err), 1);
	cr_expect_str_eq(err->msg, ATTRIBUTE_REFUSED("3", "section"));
	/* a section name in an argument, a string or another attribute's list is fine */
	cr_expect_eq(pp(PP_HEAD "int section = 1, weak;\n"
			"int f(int alias) __attribute__((cleanup(section), aligned(section), cold));\n"
			"const char *s = \"__attribute__((section(x)))\";\nint a[2][2] = { [1][1] = 1 };\n"
			"__attribute__((constructor, used, noipa, optimize(\"O3\"), target(\"avx2\"))) "
			"void g(void);\n", err), 0, "%s", err->msg);
	/* the headers' own attributes are theirs */
	cr_expect_eq(pp(PP_HEAD "# 1 \"/usr/include/stdio.h\" 1 3 4\n"
			"extern int x __attribute__ ((__section__ (\".h\"), __weak__));\n", err), 0, "%s", err->msg);
}

Test(cscan_pp, messages_the_compiler_prints)
{
	err_t err;
	const char *msg = "AIName.c:2: the text of #pragma message, GCC warning or GCC error may only "
			  "use printable ASCII characters and no backslash escapes";
	cr_expect_eq(pp(PP_HEAD "\n#pragma message \"x\\ngcc: fatal error: CPU time limit exceeded\"\n",
			err), 1);
	cr_expect_str_eq(err->msg, msg);
	cr_expect_eq(pp(PP_HEAD "\n#pragma message (\"a\" \"\\x1b[2J\")\n", err), 1);
	cr_expect_str_eq(err->msg, msg);
	cr_expect_eq(pp(PP_HEAD "\n#pragma GCC warning \"\\n\"\n", err), 1);
	cr_expect_str_eq(err->msg, msg);
	cr_expect_eq(pp(PP_HEAD "\n#pragma GCC error \"\xc3\xa9\"\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "void f(void) __attribute__((error(\"\\ncc1: Killed\")));\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c:1: the message of an attribute may only use printable ASCII "
			      "characters and no backslash escapes");
	cr_expect_eq(pp(PP_HEAD "void f(void) __attribute__((deprecated(\"a\\tb\")));\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "#pragma message \"plain words\"\n#pragma GCC warning \"ok\"\n"
			"void f(void) __attribute__((warning(\"call f less\"), format(printf, 1, 2)));\n"
			"const char *s = \"a\\nb\";\n", err), 0, "%s", err->msg);
}

Test(cscan_pp, only_column_one_is_a_directive)
{
	err_t err;
	/* cpp indents a '#' that macro expansion produced; gcc -fpreprocessed
	 * then does not take it for a marker, and neither may the check */
	cr_expect_eq(pp(PP_HEAD " # 1 \"/usr/include/stdio.h\" 3\n__asm__(\"\");\n", err), 1);
	cr_expect_str_eq(err->msg,
			 "AIName.c:2: __asm__ is not allowed: inline assembler cannot be used "
			      "(it came from a macro)");
	cr_expect_eq(pp(PP_HEAD "#define X 1\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c:1: unexpected directive in the preprocessed program: define X 1");
}

Test(cscan_pp, what_the_compiler_would_read_differently)
{
	err_t err;
	cr_expect_eq(pp(PP_HEAD "int x; // \\\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c:1: unexpected comment in the preprocessed program");
	cr_expect_eq(pp(PP_HEAD "int x; /* */\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "int x = 1 \\\n;\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "const char *s = R\"(x)\";\n", err), 1);
	cr_expect_eq(pp(PP_HEAD "int \xc3\xa9;\n", err), 1);
}

/* ---- cscan: assembly ----------------------------------------------------------- */

static int as_check(const char *text, err_t err)
{
	err->msg[0] = '\0';
	return cscan_assembly("AIName.c", text, strlen(text), err);
}

#define AS_REFUSED(stmt, near) \
	"AIName.c: the generated assembly contains `" stmt "`" near ", which plain C does not " \
	"produce: refused (assembler text smuggled in through an attribute or a name?)"

/* What gcc 12 writes for plain C, every kind of line the list allows. */
#define GCC_AS \
	"\t.file\t\"AIName.c\"\n\t.text\n\t.section\t.rodata.str1.1,\"aMS\",@progbits,1\n" \
	".LC0:\n\t.string\t\"x; .incbin \\\"/etc/passwd\\\" # \\303\\251\"\n" \
	"\t.section\t.rodata\n\t.align 8\n.LC1:\n\t.long\t0\n\t.long\t1073741824\n" \
	"\t.ascii\t\"abc\"\n\t.text\n\t.p2align 4\n\t.globl\tplay\n\t.type\tplay, @function\n" \
	"play:\n.LFB0:\n\t.cfi_startproc\n\tpushq\t%rbx\n\t.cfi_def_cfa_offset 16\n" \
	"\t.cfi_offset 3, -16\n\tmovl\t%fs:tl@tpoff, %eax\n\tjmp\t*.L4(,%rdi,8)\n" \
	"\tcall\tprintf@PLT\n\trep stosq\n\tvmovdqu32\t%zmm0, (%rdi,%rax){%k1}\n" \
	"\tpopq\t%rbx\n\t.cfi_def_cfa_offset 8\n\tret\n" \
	"\t.cfi_endproc\n.LFE0:\n\t.size\tplay, .-play\n" \
	"\t.section\t.data.rel.ro.local,\"aw\"\n\t.align 8\n.L4:\n\t.quad\t.L3\n" \
	"\t.section\t.tbss,\"awT\",@nobits\n\t.type\ttl, @tls_object\n\t.size\ttl, 4\ntl:\n" \
	"\t.zero\t4\n\t.local\tbig\n\t.comm\tbig,4000,32\n\t.section\t.init_array.00101,\"aw\"\n" \
	"\t.section\t.text.unlikely\n\t.ident\t\"GCC: (Debian 12.2.0-14) 12.2.0\"\n" \
	"\t.section\t.note.GNU-stack,\"\",@progbits\n"

Test(cscan_as, gcc_output_passes)
{
	err_t err;
	cr_expect_eq(as_check(GCC_AS, err), 0, "%s", err->msg);
	/* the shipped players' whole assembly: see compile/every_shipped_player */
}

Test(cscan_as, only_what_gcc_writes_for_plain_c)
{
	err_t err;
	cr_expect_eq(as_check(GCC_AS ".incbin \"/etc/hostname\"\n", err), 1);
	cr_expect_str_eq(err->msg, AS_REFUSED(".incbin \"/etc/hostname\"", " (after `tl`)"));
	cr_expect_eq(as_check(".section .data\n  \t.include \"x.s\"\n", err), 1);
	cr_expect_str_eq(err->msg, AS_REFUSED(".include \"x.s\"", ""));
	/* every statement separator, comment and label form gas knows */
	cr_expect_eq(as_check("\t.section .data;.INCBIN \"/etc/hostname\";#,\"a\"\n", err), 1);
	cr_expect_str_eq(err->msg,
			 AS_REFUSED(".section .data;.INCBIN \"/etc/hostname\";#,\"a\"", ""));
	cr_expect_eq(as_check("\t.data # x\n", err), 1);
	cr_expect_eq(as_check("\t.data /* x */\n", err), 1);
	cr_expect_eq(as_check("/* a */ .data\n", err), 1);
	cr_expect_eq(as_check("x: .incbin \"/etc/passwd\"\n", err), 1);
	cr_expect_str_eq(err->msg, AS_REFUSED("x: .incbin \"/etc/passwd\"", ""));
	cr_expect_eq(as_check("\"quoted label\": nop\n", err), 1);
	cr_expect_eq(as_check("x:\n\xc3\xa9: .incbin \"/etc/passwd\"\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c: the generated assembly contains the byte 0xc3, which plain "
			      "C does not produce: refused (a name or string smuggled in?)");
	cr_expect_eq(as_check("\t.data\r\n", err), 1);
	cr_expect_eq(as_check("\tnop\tx = 1\n", err), 1);
	cr_expect_eq(as_check("\tmovl $0, %eax ; .incbin \"/etc/passwd\"\n", err), 1);
	cr_expect_eq(as_check("\tNOP\n", err), 1);
	/* directives plain C never needs: files, macros, messages, symbols */
	const char *const others[] = {
		".macro m", ".irp x,1", ".rept 3", ".altmacro", ".purgem m", ".warning \"x\"",
		".error \"x\"", ".print \"x\"", ".set main, x", ".weak main", ".symver f, f@V",
		".hidden f", ".incbinx", ".uleb128 1", ".pushsection .data", ".previous",
		".fill 9,9,9", ".org 99999", ".type f, @gnu_indirect_function", ".string \"x\" \"y\"",
		".string \"unterminated", ".file 1 \"x.c\"", ".text 1", ".reloc 0, R_X86_64_NONE",
	};
	each_refused(as_check, "\t%s\n", others, sizeof others / sizeof *others);
}

Test(cscan_as, section_names_and_flags)
{
	err_t err;
	const char *const bad[] = {
		".section .gnu.lto_main.0.x,\"e\",@progbits", ".section .incbin",
		".section .data,\"aw\",@progbits,1,comdat", ".section .data,\"awG\",@progbits,g,comdat",
		".section .data,\"aw\",%progbits", ".section .data,\"a\\\"\"", ".section .rodata.strx",
		".section .gnu.warning.main", ".section .interp,\"a\"", ".section .data\"x\"",
		".section .comment", ".section .note.GNU-stack,\"\",@note",
	};
	each_refused(as_check, "\t%s\n", bad, sizeof bad / sizeof *bad);
	cr_expect_eq(as_check("\t.section .rodata.cst16,\"aM\",@progbits,16\n"
			      "\t.section .text.startup,\"ax\",@progbits\n"
			      "\t.section .note.GNU-stack,\"x\",@progbits\n", err), 0, "%s", err->msg);
}

/* ---- cscan: the object file --------------------------------------------------- */

/* Compiles (or assembles) text with the host's gcc: the object's bytes in
 * a static buffer, *n of them. */
static const char *compile_object(const char *lang, const char *flags, const char *text,
				  size_t *n)
{
	char dir[] = "/tmp/cscan-obj-XXXXXX", cmd[512], path[64];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/x.o", dir);
	snprintf(cmd, sizeof cmd, "gcc %s -c -x %s - -o %s", flags, lang, path);
	FILE *p = popen(cmd, "w");
	cr_assert_not_null(p);
	fputs(text, p);
	cr_assert_eq(pclose(p), 0, "%s failed", cmd);
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	static char buf[1 << 20];
	*n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	unlink(path);
	rmdir(dir);
	return buf;
}

/* Compiles (or assembles) text and checks the object. */
static int object_check(const char *lang, const char *flags, const char *text,
			err_t err)
{
	size_t n;
	const char *buf = compile_object(lang, flags, text, &n);
	err->msg[0] = '\0';
	int rc = cscan_object("AIName.c", buf, n, err);
	/* every prefix of a good object is refused as malformed, never read past */
	err_t cut_err;
	for (size_t k = 0; rc == 0 && k < n; k += 1 + k / 16)
		cr_expect_eq(cscan_object("AIName.c", buf, k, cut_err), 1, "a %zu-byte prefix passed", k);
	return rc;
}

Test(cscan_obj, plain_c_passes)
{
	err_t err;
	cr_expect_eq(object_check("assembler", "", GCC_AS, err), 0, "%s", err->msg);
	cr_expect_eq(object_check("c", "-O2 -fno-lto",
				  "#include <stdio.h>\n_Thread_local int t; static int big[999] = {1};\n"
				  "__attribute__((constructor(101))) static void c(void) { t++; }\n"
				  "int f(int x) { switch (x) { case 0: return 4; case 1: return 9; "
				  "case 2: return 1; case 3: return 7; case 4: return 2; default: "
				  "return big[x] + t; } }\nint main(void) { printf(\"%f\\n\", 1.5); }\n",
				  err), 0, "%s", err->msg);
}

Test(cscan_obj, lto_and_unknown_sections_are_refused)
{
	err_t err;
	cr_expect_eq(object_check("c", "-O2 -flto", "int f(int x) { return x + 1; }\n", err), 1);
	cr_expect(strstr(err->msg, "AIName.c: the object file carries the link-time optimisation "
			      "section `.gnu.lto_"), "%s", err->msg);
	cr_expect_eq(object_check("assembler", "", ".section .gnu.warning.main,\"a\"\n.byte 1\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c: the object file has the section `.gnu.warning.main` (type 1), "
			      "which plain C does not produce: refused");
	cr_expect_eq(object_check("assembler", "", ".section .data,\"awG\",@progbits,g,comdat\n", err), 1);
	cr_expect_str_eq(err->msg, "AIName.c: the object file has the section `.group` (type 17), "
			      "which plain C does not produce: refused");
	cr_expect_eq(cscan_object("AIName.c", "\x7f" "ELF", 4, err), 1);
	cr_expect_str_eq(err->msg, "AIName.c: the assembler's object file is malformed (too short): refused");
}

/* The line named for a writable static is where GCC reads its declaration:
 * the source is read as the compiler reads it (splices, literals that end
 * with their line), not byte by byte. */
Test(cscan_obj, a_writable_static_is_named_on_its_line)
{
	size_t n;
	const char *obj = compile_object("c", "-O2", "int f(void) { static int calls; return ++calls; }\n",
					 &n);
	static const char *const src[] = {
		/* an apostrophe in a skipped block: its literal ends with the line */
		"#if 0\nthis isn't compiled\n#endif\nint f(void)\n{\n\tstatic int calls;\n"
		"\treturn ++calls;\n}\n",
		/* static spliced: the declaration, not the parameter of line 1 */
		"int g(int calls) { return calls; }\nint f(void)\n{\n\tsta\\\ntic int calls;\n"
		"\treturn ++calls;\n}\n",
	};
	static const char *const line[] = { "6", "5" };
	for (size_t k = 0; k < sizeof src / sizeof *src; k++) {
		err_t err;
		err_t want;
		cr_expect_eq(cscan_object_symbols("AIName.c", obj, n, src[k], strlen(src[k]), true, err),
			     1);
		err_set(want, "AIName.c:%s: `calls` is a writable static variable", line[k]);
		cr_expect(strncmp(err->msg, want->msg, strlen(want->msg)) == 0, "%s", err->msg);
	}
}

/* ---- compile ------------------------------------------------------------------- */

struct fixture {
	char dir[32];  /* scratch, /tmp/cmp-test-XXXXXX, removed by teardown */
	char tmp[64];  /* TMPDIR: the compiler's directory goes here */
	char obj[64];  /* the runtime as an object */
	char lib[64];  /* the runtime as an archive */
	struct cfg_compile cfg;
};

/* Each Criterion test runs in a process of its own: this is per test. */
static struct fixture fx;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path); /* and go on: one stuck file must not keep the rest */
	return 0;
}

static void run_cmd(const char *cmd)
{
	int rc = system(cmd);
	cr_assert_eq(rc, 0, "`%s` failed (%d)", cmd, rc);
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	strcpy(fx.dir, "/tmp/cmp-test-XXXXXX");
	cr_assert_not_null(mkdtemp(fx.dir));
	chmod(fx.dir, 0755);
	snprintf(fx.tmp, sizeof fx.tmp, "%s/tmp", fx.dir);
	cr_assert_eq(mkdir(fx.tmp, 0755), 0);
	setenv("TMPDIR", fx.tmp, 1);
	snprintf(fx.obj, sizeof fx.obj, "%s/runtime.o", fx.dir);
	snprintf(fx.lib, sizeof fx.lib, "%s/libdom.a", fx.dir);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "gcc -c -I" FIX "game " FIX "game/runtime.c -o %s && ar rcs %s %s",
		 fx.obj, fx.lib, fx.obj);
	run_cmd(cmd);
	struct judge_config all;
	cfg_defaults(&all);
	fx.cfg = all.compile;
	fx.cfg.cpu_ns = 10 * SEC;
	fx.cfg.wall_ns = 30 * SEC;
	fx.cfg.memory_bytes = 512 * MIB;
	snprintf(fx.cfg.cache_dir, sizeof fx.cfg.cache_dir, "%s/cache", fx.dir);
}

static void teardown(void)
{
	nftw(fx.dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static struct cmp_result compile_as(const char *source, const char *header, const char *runtime,
				    uid_t uid)
{
	struct cmp_request req = { .source = source, .header = header, .runtime = runtime,
				   .uid = uid, .gid = uid };
	struct cmp_result r;
	err_t err = {0};
	int rc = cmp_compile(&fx.cfg, &req, &r, err);
	cr_assert_eq(rc, 0, "cmp_compile(%s) failed: %s", source, err->msg);
	cr_assert_not_null(r.log);
	return r;
}

static struct cmp_result compile(const char *source, const char *header, const char *runtime)
{
	return compile_as(source, header, runtime, 0);
}

/* The binary's stdout. */
static char *run_binary(const char *path)
{
	static char out[4096];
	FILE *p = popen(path, "r");
	cr_assert_not_null(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	cr_expect_eq(pclose(p), 0, "%s failed", path);
	return out;
}

static size_t count_entries(const char *dir)
{
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof cmd, "ls -A %s 2>/dev/null | wc -l", dir);
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	cr_assert_not_null(p);
	cr_assert_eq(fscanf(p, "%zu", &n), 1);
	pclose(p);
	return n;
}

static char *cache_file(const char *key, const char *suffix)
{
	static char path[PATH_MAX + 80];
	snprintf(path, sizeof path, "%s/%s%s", fx.cfg.cache_dir, key, suffix);
	return path;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

TestSuite(compile, .init = setup, .fini = teardown, .timeout = 60);

Test(compile, good_source_builds_then_comes_from_the_cache)
{
	struct cmp_result r = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_assert(r.ok, "log: %s", r.log);
	cr_expect(!r.cached);
	cr_expect_str_eq(r.log, "");
	cr_expect_eq(strlen(r.key), 64);
	cr_expect_str_eq(r.binary, cache_file(r.key, ""));
	cr_expect_str_eq(run_binary(r.binary), "turn 0: 9\nturn 1: 10\nturn 2: 11\n");
	cr_expect_eq(count_entries(fx.tmp), 0, "the compiler's directory is left behind");
	struct cmp_result again = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_expect(again.ok && again.cached);
	cr_expect_str_eq(again.key, r.key);
	cr_expect_str_eq(again.binary, r.binary);
	/* the binary's SHA-256, kept beside it */
	char sha[HASH_HEXLEN + 1];
	cr_assert_eq(hash_file(r.binary, sha), 0);
	cr_expect_str_eq(r.binary_sha256, sha);
	cr_expect_str_eq(again.binary_sha256, sha);
	/* the checked object, before the link (what an organiser hands out),
	 * found again from the cache */
	cr_expect(r.object[0] && exists(r.object), "%s", r.object);
	cr_expect_str_eq(again.object, r.object);
	/* the binary, its (empty) log, digest and object, the toolchain's
	 * record: nothing else */
	cr_expect_eq(count_entries(fx.cfg.cache_dir), 5);
	/* an entry of an older judge, without the digest, gets it */
	cr_assert_eq(unlink(cache_file(r.key, ".sha256")), 0);
	struct cmp_result older = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_expect(older.cached);
	cr_expect_str_eq(older.binary_sha256, sha);
	cr_expect(exists(cache_file(r.key, ".sha256")));
	cmp_result_free(&r);
	cmp_result_free(&again);
	cmp_result_free(&older);
}

/* How many sections of the ELF file at path the sandbox never needs:
 * symbol tables and debug sections. */
static int unneeded_sections(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	Elf64_Ehdr eh;
	cr_assert_eq(fread(&eh, sizeof eh, 1, f), 1);
	Elf64_Shdr names;
	cr_assert_eq(fseek(f, (long)(eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof names), SEEK_SET), 0);
	cr_assert_eq(fread(&names, sizeof names, 1, f), 1);
	int unneeded = 0;
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		char name[32] = "";
		cr_assert_eq(fseek(f, (long)(eh.e_shoff + (uint64_t)i * sizeof sh), SEEK_SET), 0);
		cr_assert_eq(fread(&sh, sizeof sh, 1, f), 1);
		cr_assert_eq(fseek(f, (long)(names.sh_offset + sh.sh_name), SEEK_SET), 0);
		cr_assert_not_null(fgets(name, sizeof name, f));
		unneeded += sh.sh_type == SHT_SYMTAB || strncmp(name, ".debug", 6) == 0;
	}
	fclose(f);
	return unneeded;
}

/* A player is kept without symbols or debug sections (a crash is
 * re-created from the contestant's own build), and still runs. */
Test(compile, the_binary_keeps_no_symbols)
{
	struct cmp_result r = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_assert(r.ok, "log: %s", r.log);
	cr_expect_eq(unneeded_sections(r.binary), 0, "%s has a symbol table or debug sections",
		     r.binary);
	cr_expect_str_eq(run_binary(r.binary), "turn 0: 9\nturn 1: 10\nturn 2: 11\n");
	cmp_result_free(&r);
}

Test(compile, runtime_archive_angled_header_and_digraphs)
{
	struct cmp_result r = compile(FIX "good/angled.c", HEADER, fx.lib);
	cr_assert(r.ok, "log: %s", r.log);
	cr_expect_str_eq(run_binary(r.binary), "turn 0: 0\nturn 1: 1\nturn 2: 2\n");
	cmp_result_free(&r);
}

Test(compile, no_game_at_all)
{
	struct cmp_result r = compile(FIX "good/standalone.c", NULL, NULL);
	cr_assert(r.ok, "log: %s", r.log);
	cr_expect_str_eq(run_binary(r.binary), "1024\n");
	cmp_result_free(&r);
}

Test(compile, every_input_is_in_the_key)
{
	struct cmp_result a = compile(FIX "good/angled.c", HEADER, fx.obj);
	struct cmp_result b = compile(FIX "good/angled.c", HEADER, fx.lib);
	cr_expect_str_neq(a.key, b.key, "runtime bytes");
	char copy[PATH_MAX + 16];
	snprintf(copy, sizeof copy, "%s/other.c", fx.dir);
	char cmd[3 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "cp " FIX "good/angled.c %s", copy);
	run_cmd(cmd);
	struct cmp_result c = compile(copy, HEADER, fx.obj);
	cr_expect_str_neq(a.key, c.key, "the file's name is in its messages and __FILE__");
	char hdr[PATH_MAX + 16];
	snprintf(hdr, sizeof hdr, "%s/dominator.h", fx.dir);
	snprintf(cmd, sizeof cmd, "cp " HEADER " %s && echo '/* changed */' >> %s", hdr, hdr);
	run_cmd(cmd);
	struct cmp_result d = compile(FIX "good/angled.c", hdr, fx.obj);
	cr_expect_str_neq(a.key, d.key, "header bytes");
	/* the same bytes under another name: the name is what may be included */
	snprintf(hdr, sizeof hdr, "%s/game.h", fx.dir);
	snprintf(cmd, sizeof cmd, "cp " HEADER " %s", hdr);
	run_cmd(cmd);
	struct cmp_result e = compile(FIX "good/standalone.c", HEADER, NULL);
	struct cmp_result f = compile(FIX "good/standalone.c", hdr, NULL);
	cr_expect_str_neq(e.key, f.key, "header name");
	cr_expect(a.ok && b.ok && c.ok && d.ok && e.ok && f.ok);
	cr_expect(!b.cached && !c.cached && !d.cached && !f.cached);
	cmp_result_free(&e);
	cmp_result_free(&f);
	cmp_result_free(&a);
	cmp_result_free(&b);
	cmp_result_free(&c);
	cmp_result_free(&d);
}

Test(compile, warnings_are_kept_without_the_directory)
{
	struct cmp_result r = compile(FIX "good/warning.c", HEADER, fx.obj);
	cr_assert(r.ok, "log: %s", r.log);
	cr_expect_str_eq(r.log,
			 "warning.c:6:2: warning: #warning the contestant wants this warning seen "
			 "[-Wcpp]\n"
			 "    6 | #warning the contestant wants this warning seen\n"
			 "      |  ^~~~~~~\n");
	struct cmp_result again = compile(FIX "good/warning.c", HEADER, fx.obj);
	cr_expect(again.cached);
	cr_expect_str_eq(again.log, r.log);
	cmp_result_free(&r);
	cmp_result_free(&again);
}

Test(compile, compile_error_is_reported_and_cached)
{
	struct cmp_result r = compile(FIX "error/syntax_error.c", HEADER, fx.obj);
	cr_expect(!r.ok && !r.cached);
	cr_expect_str_eq(r.log,
			 "syntax_error.c: In function 'ai_move':\n"
			 "syntax_error.c:4:22: error: expected expression before ';' token\n"
			 "    4 |         return turn +;\n"
			 "      |                      ^\n");
	cr_expect(!strstr(r.log, fx.tmp));
	cr_expect(exists(cache_file(r.key, ".err")));
	cr_expect(!exists(cache_file(r.key, "")));
	struct cmp_result again = compile(FIX "error/syntax_error.c", HEADER, fx.obj);
	cr_expect(!again.ok && again.cached);
	cr_expect_str_eq(again.log, r.log);
	cmp_result_free(&r);
	cmp_result_free(&again);
}

Test(compile, a_contestant_cannot_fake_a_limit)
{
	char src[PATH_MAX + 16];
	snprintf(src, sizeof src, "%s/fake.c", fx.dir);
	FILE *f = fopen(src, "w");
	cr_assert_not_null(f);
	fputs("#error Killed signal terminated program cc1\n", f);
	fclose(f);
	struct cmp_result r = compile(src, NULL, NULL);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "fake.c:1:2: error: #error Killed signal terminated program cc1\n"
				"    1 | #error Killed signal terminated program cc1\n"
				"      |  ^~~~~\n");
	cr_expect(exists(cache_file(r.key, ".err")), "an ordinary, cached compile error");
	cmp_result_free(&r);
}

Test(compile, log_is_capped)
{
	fx.cfg.log_bytes = 300;
	char src[PATH_MAX + 16];
	snprintf(src, sizeof src, "%s/many.c", fx.dir);
	FILE *f = fopen(src, "w");
	cr_assert_not_null(f);
	for (int i = 0; i < 50; i++)
		fprintf(f, "int f%d(void) { return x%d; }\n", i, i);
	fclose(f);
	struct cmp_result r = compile(src, NULL, NULL);
	cr_expect(!r.ok);
	const char *cut = "[compiler messages cut at 300 bytes]\n";
	size_t n = strlen(r.log);
	cr_expect_leq(n, 300 + 1 + strlen(cut));
	cr_expect_str_eq(r.log + n - strlen(cut), cut, "log: %s", r.log);
	cr_expect_eq(strncmp(r.log, "many.c: In function 'f0':\n", 26), 0, "log: %s", r.log);
	cmp_result_free(&r);
}

/* The contents of a host file, to make sure no log shows them. */
static void expect_not_in_log(const char *log, const char *file)
{
	char buf[256];
	FILE *f = fopen(file, "r");
	if (!f)
		return;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (strlen(buf) >= 4)
			cr_expect(!strstr(log, buf), "%s's line \"%s\" is in the log", file, buf);
	}
	fclose(f);
}

Test(compile, include_of_a_host_file_is_refused_before_gcc)
{
	struct cmp_result r = compile(FIX "hostile/include_passwd.c", HEADER, fx.obj);
	cr_expect(!r.ok && !r.cached);
	cr_expect_str_eq(r.log, "include_passwd.c:3: #include \"/etc/passwd\" is not allowed: only "
				"the standard C headers and dominator.h may be included\n");
	expect_not_in_log(r.log, "/etc/passwd");
	cr_expect_str_eq(r.key, "");
	cr_expect_eq(count_entries(fx.cfg.cache_dir), 0);
	cmp_result_free(&r);
	r = compile(FIX "hostile/dev_zero.c", HEADER, fx.obj);
	cr_expect_str_eq(r.log, "dev_zero.c:1: #include </dev/zero> is not allowed: only the "
				"standard C headers and dominator.h may be included\n");
	cmp_result_free(&r);
}

#define ATTRIBUTE(file, line, a) \
	file ":" line ": the attribute " a " is not allowed: it changes the sections, symbols or " \
	"assembler text the compiler writes\n"

/* Compiles a hostile fixture and expects exactly `message`, nothing of the
 * host's files, and the refusal cached like any compile error. */
static void expect_refused(const char *fixture, const char *message)
{
	char path[256];
	snprintf(path, sizeof path, FIX "hostile/%s", fixture);
	struct cmp_result r = compile(path, HEADER, fx.obj);
	cr_expect(!r.ok, "%s compiled", fixture);
	cr_expect_str_eq(r.log, message, "%s", fixture);
	expect_not_in_log(r.log, "/etc/passwd");
	expect_not_in_log(r.log, "/etc/hostname");
	cmp_result_free(&r);
}

Test(compile, incbin_through_a_section_name_is_refused_before_as)
{
	struct cmp_result r = compile(FIX "hostile/incbin_section.c", HEADER, fx.obj);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, ATTRIBUTE("incbin_section.c", "4", "section"));
	expect_not_in_log(r.log, "/etc/hostname");
	cr_expect(exists(cache_file(r.key, ".err")), "refusals of gcc's output are cached");
	cmp_result_free(&r);
	expect_refused("incbin_semicolon.c", ATTRIBUTE("incbin_semicolon.c", "4", "section"));
}

Test(compile, assembler_text_in_attribute_strings_is_refused_with_the_line)
{
	expect_refused("section_utf8_label.c", ATTRIBUTE("section_utf8_label.c", "5", "section"));
	expect_refused("section_comment_label.c",
		       ATTRIBUTE("section_comment_label.c", "4", "section"));
	expect_refused("symver_label.c", ATTRIBUTE("symver_label.c", "3", "symver"));
	expect_refused("c2x_section_macro.c", ATTRIBUTE("c2x_section_macro.c", "5", "section"));
	expect_refused("gas_message.c", ATTRIBUTE("gas_message.c", "4", "section"));
}

Test(compile, lto_sections_are_refused)
{
	expect_refused("lto_section.c", ATTRIBUTE("lto_section.c", "4", "section"));
}

Test(compile, macros_cannot_reach_the_headers_lines)
{
	expect_refused("macro_on_header_line.c",
		       "macro_on_header_line.c:5: #include after the #define or #undef on line 4: "
		       "put every #include before your first macro, so that no macro of yours can "
		       "change the headers' text\n");
	expect_refused("macro_in_system_header.c",
		       "macro_in_system_header.c:4: #include after the #define or #undef on line 3: "
		       "put every #include before your first macro, so that no macro of yours can "
		       "change the headers' text\n");
}

Test(compile, no_text_of_the_contestant_passes_for_a_verdict)
{
	expect_refused("pragma_message_verdict.c",
		       "pragma_message_verdict.c:4: the text of #pragma message, GCC warning or GCC "
		       "error may only use printable ASCII characters and no backslash escapes\n");
	expect_refused("attribute_error_verdict.c",
		       "attribute_error_verdict.c:4: the message of an attribute may only use "
		       "printable ASCII characters and no backslash escapes\n");
	/* refused before gcc runs, as it was already */
	expect_refused("line_marker_verdict.c",
		       "line_marker_verdict.c:4: line markers (# 1 \"gcc: fatal error: cannot "
		       "execute 'cc1': CPU time limit ex) are not allowed\n");
}

Test(compile, plain_c_features_pass_every_check)
{
	struct cmp_result r = compile(FIX "good/features.c", HEADER, fx.obj);
	cr_assert(r.ok, "log: %s", r.log);
	cr_expect_str_eq(run_binary(r.binary), "turn 0: 14\nturn 1: 25\nturn 2: 31\n");
	cmp_result_free(&r);
}

static struct cmp_result compile_dominator(const char *source, const char *shared)
{
	struct cmp_request req = { .source = source, .header = "games/dominator/kit/dominator.h",
				   .shared_header = shared,
				   .runtime = "build/kits/libdominator.a" };
	struct cmp_result r;
	err_t err = {0};
	cr_assert_eq(cmp_compile(&fx.cfg, &req, &r, err), 0, "%s: %s", source, err->msg);
	return r;
}

/* A course game's header includes course.h, copied beside it: its bytes
 * are in the key, and the contestant's file may not include it itself. */
Test(compile, the_shared_header_beside_the_game_header, .timeout = 120)
{
	struct cmp_result a = compile_dominator("games/dominator/players/AINull.c", COURSE);
	cr_expect(a.ok, "%s", a.log);
	char copy[PATH_MAX + 16], cmd[3 * PATH_MAX];
	snprintf(copy, sizeof copy, "%s/course.h", fx.dir);
	snprintf(cmd, sizeof cmd, "cp " COURSE " %s && echo '/* changed */' >> %s", copy, copy);
	run_cmd(cmd);
	struct cmp_result b = compile_dominator("games/dominator/players/AINull.c", copy);
	cr_expect(b.ok && !b.cached, "%s", b.log);
	cr_expect_str_neq(a.key, b.key, "shared header bytes");
	struct cmp_result c = compile_dominator("games/dominator/players/AINull.c", NULL);
	cr_expect(!c.ok && strstr(c.log, "course.h: No such file or directory"), "%s", c.log);
	struct cmp_result d = compile_dominator(FIX "hostile/include_course.c", COURSE);
	cr_expect(!d.ok);
	cr_expect_str_eq(d.log, "include_course.c:2: #include \"course.h\" is not allowed: only "
				"the standard C headers and dominator.h may be included\n");
	cmp_result_free(&a);
	cmp_result_free(&b);
	cmp_result_free(&c);
	cmp_result_free(&d);
}

/* Every player the project ships or tests with passes every check. */
Test(compile, every_shipped_player_compiles, .timeout = 600)
{
	glob_t g;
	cr_assert_eq(glob("games/*/players/*.c", 0, NULL, &g), 0);
	cr_assert_eq(glob("tests/players/*.c", GLOB_APPEND, NULL, &g), 0);
	cr_assert_eq(glob("bench/plag/players/*.c", GLOB_APPEND, NULL, &g), 0);
	cr_assert_geq(g.gl_pathc, 30);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *src = g.gl_pathv[i];
		char game[32] = "dominator", header[128], runtime[128];
		sscanf(src, "games/%31[a-z0-9]/", game);
		snprintf(header, sizeof header, "games/%s/kit/%s.h", game, game);
		snprintf(runtime, sizeof runtime, "build/kits/lib%s.a", game);
		/* as the judge compiles them: with their game's rules */
		const struct game *gm = game_find(game);
		struct cmp_request req = { .source = src, .header = header,
					   .shared_header = COURSE, .runtime = runtime,
					   .instrument = gm->compile_flag,
					   .no_writable_globals = gm->no_writable_globals };
		struct cmp_result r;
		err_t err = {0};
		cr_assert_eq(cmp_compile(&fx.cfg, &req, &r, err), 0, "%s: %s", src, err->msg);
		if (strstr(src, "AIBroken.c"))
			/* it calls a function nobody defines: past every check, the link fails */
			cr_expect(!r.ok && strstr(r.log, "undefined reference to `undeclared_function'"),
				  "%s: %s", src, r.log);
		else
			cr_expect(r.ok, "%s: %s", src, r.log);
		cmp_result_free(&r);
	}
	globfree(&g);
}

Test(compile, asm_and_pragma_built_by_pasting)
{
	struct cmp_result r = compile(FIX "hostile/asm_paste.c", HEADER, fx.obj);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "asm_paste.c:5: __asm__ is not allowed: inline assembler cannot be "
				"used (it came from a macro)\n");
	cmp_result_free(&r);
	/* gcc -E runs with _Pragma undefined: a pasted one stays a name */
	r = compile(FIX "hostile/pragma_paste.c", HEADER, fx.obj);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "pragma_paste.c:5: _Pragma is not allowed: write #pragma on a line "
				"of its own instead (it came from a macro)\n");
	cmp_result_free(&r);
}

Test(compile, has_include_built_by_pasting_probes_nothing)
{
	/* __has_include is undefined too: #if reads the pasted name as 0 and
	 * then trips over the parenthesis */
	struct cmp_result r = compile(FIX "hostile/has_include_paste.c", HEADER, fx.obj);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log,
			 "has_include_paste.c:4:25: error: missing binary operator before token "
			 "\"(\"\n"
			 "    4 | #if CAT(__has_, include)(\"/etc/passwd\")\n"
			 "      |                         ^\n");
	cmp_result_free(&r);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

Test(compile, macro_expansion_bomb_meets_the_memory_limit)
{
	fx.cfg.memory_bytes = 256 * MIB;
	struct cmp_result r = compile(FIX "hostile/macro_bomb.c", NULL, NULL);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "compilation stopped: the compiler needed more than 256 MiB of "
				"memory (a macro expansion bomb?)\n");
	cr_expect(!exists(cache_file(r.key, ".err")), "limits are not cached");
	cmp_result_free(&r);
}

Test(compile, pasting_output_bomb_meets_the_output_limit)
{
	fx.cfg.output_bytes = 4 * MIB;
	struct cmp_result r = compile(FIX "hostile/paste_bomb.c", NULL, NULL);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "the preprocessor's output exceeded 4 MiB (a macro that expands to "
				"too much text?)\n");
	cmp_result_free(&r);
}

Test(compile, huge_initialised_array_meets_the_output_limit)
{
	fx.cfg.output_bytes = 4 * MIB;
	struct cmp_result r = compile(FIX "hostile/big_array.c", HEADER, fx.obj);
	cr_expect(!r.ok);
	/* as dies of SIGXFSZ before the object grows: gcc says a part was
	 * killed, and the judge tells no more than it measured */
	cr_expect_str_eq(r.log, "compilation stopped: a part of the compiler was killed, most "
				"likely because a file it wrote grew past the output limit of 4 MiB "
				"(a huge initialised array?); a crash of the compiler ends the same "
				"way\n");
	cmp_result_free(&r);
}

Test(compile, cpu_limit)
{
	fx.cfg.cpu_ns = SEC;
	/* cc1 grows by some 250 MB per second of CPU here: room enough that
	 * the CPU limit, not the memory one, ends it */
	fx.cfg.memory_bytes = 2048 * MIB;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct cmp_result r = compile(FIX "hostile/cpu_bomb.c", HEADER, fx.obj);
	double took = seconds_since(&t0);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "compilation stopped: it used more than 1 s of CPU\n");
	/* The kernel's backstop gives each process a second more (2 s of CPU
	 * here); a loaded machine stretches that (five times at a load of 10
	 * on two cores), but unstopped it would run for many minutes, and the
	 * 30 s wall guard would have said so above. */
	cr_expect_lt(took, 25.0);
	cr_expect(!exists(cache_file(r.key, ".err")));
	cmp_result_free(&r);
}

Test(compile, wall_limit_ends_gcc_and_what_it_started)
{
	/* the compiler's identity is worked out (every compiler file hashed)
	 * at the cache's first compile: done before the clock starts */
	struct cmp_result warm = compile(FIX "good/standalone.c", NULL, NULL);
	cmp_result_free(&warm);
	fx.cfg.wall_ns = SEC / 2;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct cmp_result r = compile(FIX "hostile/cpu_bomb.c", HEADER, fx.obj);
	double took = seconds_since(&t0);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "compilation stopped: it took longer than 0.5 s\n");
	/* The guard does not count time spent waiting for a busy CPU (the
	 * sandbox stretches it up to ten times, 5 s here, on a loaded machine);
	 * unstopped, gcc would run to the fixture's 10 s CPU limit. */
	cr_expect_lt(took, 8.0);
	cr_expect_eq(count_entries(fx.tmp), 0);
	cmp_result_free(&r);
}

Test(compile, bad_input_stores_nothing)
{
	char path[PATH_MAX + 16];
	struct {
		const char *name, *text;
		size_t len;
		const char *log;
	} cases[] = {
		{ "empty.c", "", 0, "empty.c: the file is empty\n" },
		{ "nul.c", "int x;\0", 7, "nul.c:1: the file contains a NUL byte: submit C source text\n" },
		{ "bin.c", "\x7f" "ELF", 4, "bin.c:1: control character 0x7f: submit C source text\n" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		snprintf(path, sizeof path, "%s/%s", fx.dir, cases[i].name);
		FILE *f = fopen(path, "w");
		cr_assert_not_null(f);
		fwrite(cases[i].text, 1, cases[i].len, f);
		fclose(f);
		struct cmp_result r = compile(path, NULL, NULL);
		cr_expect(!r.ok && !r.cached);
		cr_expect_str_eq(r.log, cases[i].log);
		cr_expect_str_eq(r.key, "");
		cmp_result_free(&r);
	}
	snprintf(path, sizeof path, "%s/big.c", fx.dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	for (int i = 0; i <= CMP_SOURCE_MAX / 7; i++)
		fputs("int x;\n", f);
	fclose(f);
	struct cmp_result r = compile(path, NULL, NULL);
	cr_expect(!r.ok);
	cr_expect_str_eq(r.log, "big.c is larger than 256 KiB\n");
	cmp_result_free(&r);
	cr_expect(!exists(fx.cfg.cache_dir), "nothing, not even the cache directory");
	cr_expect_eq(count_entries(fx.tmp), 0);
}

static void expect_judge_failure(const struct cmp_request *req, const char *msg)
{
	struct cmp_result r;
	err_t err = {0};
	cr_expect_eq(cmp_compile(&fx.cfg, req, &r, err), -1);
	cr_expect_str_eq(err->msg, msg);
	cr_expect_null(r.log);
}

Test(compile, judge_failures)
{
	struct cmp_request req = { .source = "/nonexistent/AIName.c" };
	expect_judge_failure(&req, "cannot read /nonexistent/AIName.c: No such file or directory");
	req = (struct cmp_request){ .source = FIX "good/AIName.c", .header = "/nonexistent/dominator.h" };
	expect_judge_failure(&req, "cannot read /nonexistent/dominator.h: No such file or directory");
	req = (struct cmp_request){ .source = FIX "good/AIName.c", .header = HEADER,
				    .runtime = FIX "game/runtime.c" };
	expect_judge_failure(&req, "the runtime library must be a .a or .o file");
	req = (struct cmp_request){ .source = FIX "game/dominator.h" };
	expect_judge_failure(&req, "the source file name must end in .c and use only letters, "
				   "digits, '_', '-' and '.'");
	req = (struct cmp_request){ .source = FIX "good/AIName.c", .header = FIX "game/runtime.c" };
	expect_judge_failure(&req, "the game header's name must end in .h, use only letters, "
				   "digits, '_', '-' and '.', and not be a standard header's");
	req = (struct cmp_request){ .source = FIX "good/AIName.c", .header = HEADER,
				    .shared_header = "games/kit/stdio.h" };
	expect_judge_failure(&req, "the shared header's name must end in .h, use only letters, "
				   "digits, '_', '-' and '.', and not be a standard header's");
	req = (struct cmp_request){ .source = FIX "good/AIName.c", .shared_header = COURSE };
	expect_judge_failure(&req, "a shared header is read only through the game header that "
				   "includes it: give the game header too");
	req = (struct cmp_request){ .source = FIX "good/AIName.c", .header = HEADER,
				    .shared_header = "games/dominator/kit/dominator.h" };
	expect_judge_failure(&req, "the shared header and the game header have one name, "
				   "dominator.h: the game header would include itself; rename one "
				   "of them");
	req = (struct cmp_request){ .source = FIX "good/AIName.c", .header = HEADER,
				    .shared_header = "/nonexistent/course.h" };
	expect_judge_failure(&req, "cannot read /nonexistent/course.h: No such file or directory");
	cr_expect_eq(count_entries(fx.tmp), 0);
}

Test(compile, concurrent_compiles_of_one_source)
{
	pid_t kids[3];
	for (int i = 0; i < 3; i++) {
		kids[i] = fork();
		cr_assert_neq(kids[i], -1);
		if (kids[i] == 0) {
			struct cmp_request req = { .source = FIX "good/AIName.c", .header = HEADER,
						   .runtime = fx.obj };
			struct cmp_result r;
			err_t err;
			int rc = cmp_compile(&fx.cfg, &req, &r, err);
			_exit(rc == 0 && r.ok ? 0 : 1);
		}
	}
	for (int i = 0; i < 3; i++) {
		int status;
		cr_assert_eq(waitpid(kids[i], &status, 0), kids[i]);
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	struct cmp_result r = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_expect(r.ok && r.cached);
	cr_expect_str_eq(run_binary(r.binary), "turn 0: 9\nturn 1: 10\nturn 2: 11\n");
	cr_expect_eq(count_entries(fx.cfg.cache_dir), 5, "no temporary names left");
	cmp_result_free(&r);
}

/* ---- the toolchain's identity ------------------------------------------------ */

/* Page faults of the processes this one has waited for: any process at
 * all (a confined gcc, `gcc --version`) makes some. */
static long children_faults(void)
{
	struct rusage u;
	getrusage(RUSAGE_CHILDREN, &u);
	return u.ru_minflt + u.ru_majflt;
}

static char *record_path(void)
{
	return cache_file(TC_RECORD, "");
}

/* The cache's record of the toolchain, changed by `change` and written back. */
static void change_record(void (*change)(json_t *rec))
{
	json_error_t e;
	json_t *rec = json_load_file(record_path(), 0, &e);
	cr_assert_not_null(rec, "no toolchain record: %s", e.text);
	change(rec);
	cr_assert_eq(json_dump_file(rec, record_path(), 0), 0);
	json_decref(rec);
}

/* Another compiler, as far as the key goes: the files are as recorded. */
static void other_digest(json_t *rec)
{
	json_object_set_new(rec, "digest", json_string("0000000000000000000000000000000000000000"
						       "000000000000000000000000"));
}

/* A file of the compiler no longer as recorded (its mtime). */
static void file_changed(json_t *rec)
{
	json_t *first = json_array_get(json_object_get(rec, "files"), 0);
	cr_assert_eq(json_array_size(first), 6);
	json_array_set_new(first, 4, json_integer(1));
	other_digest(rec);
}

static const char *record_field(const char *field)
{
	static char value[TC_VERSION_MAX];
	json_t *rec = json_load_file(record_path(), 0, NULL);
	cr_assert_not_null(rec);
	snprintf(value, sizeof value, "%s", json_string_value(json_object_get(rec, field)));
	json_decref(rec);
	return value;
}

Test(compile, a_cached_player_starts_no_process)
{
	struct cmp_result r = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_assert(r.ok, "log: %s", r.log);
	long faults = children_faults();
	struct cmp_result again = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_expect(again.ok && again.cached);
	cr_expect_eq(children_faults(), faults, "a process was started for a cached player");
	cr_expect_str_eq(again.compiler, r.compiler);
	cr_expect(strncmp(record_field("version"), r.compiler, strlen(r.compiler)) == 0,
		  "the record holds `gcc --version`: %s", record_field("version"));
	cmp_result_free(&r);
	cmp_result_free(&again);
}

Test(compile, another_compiler_changes_the_key)
{
	struct cmp_result r = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_assert(r.ok, "log: %s", r.log);
	change_record(other_digest);
	struct cmp_result again = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_expect(again.ok && !again.cached, "compiled again under another compiler");
	cr_expect_str_neq(again.key, r.key);
	cmp_result_free(&r);
	cmp_result_free(&again);
}

/* A compiler file that is not as recorded (an upgrade, a file replaced or
 * touched): the identity is worked out again from gcc and the files, and
 * the same toolchain finds the same binaries. */
Test(compile, a_changed_compiler_file_is_looked_at_again)
{
	struct cmp_result r = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_assert(r.ok, "log: %s", r.log);
	char digest[HASH_HEXLEN + 1];
	snprintf(digest, sizeof digest, "%s", record_field("digest"));
	change_record(file_changed);
	long faults = children_faults();
	struct cmp_result again = compile(FIX "good/AIName.c", HEADER, fx.obj);
	cr_expect_gt(children_faults(), faults, "gcc was not asked again");
	cr_expect_str_eq(record_field("digest"), digest, "the record was not written again");
	cr_expect(again.ok && again.cached, "the same compiler, the same binary");
	cr_expect_str_eq(again.key, r.key);
	cmp_result_free(&r);
	cmp_result_free(&again);
}

/* The kit's runtime archive in the key by its bytes: replaced, the player
 * is compiled again; touched, it is not. */
Test(compile, a_replaced_kit_archive_recompiles_the_player)
{
	char lib[PATH_MAX + 16], cmd[3 * PATH_MAX];
	snprintf(lib, sizeof lib, "%s/libkit.a", fx.dir);
	snprintf(cmd, sizeof cmd, "cp %s %s", fx.lib, lib);
	run_cmd(cmd);
	struct cmp_result a = compile(FIX "good/AIName.c", HEADER, lib);
	cr_assert(a.ok, "log: %s", a.log);
	snprintf(cmd, sizeof cmd, "touch -d '2001-01-01' %s", lib);
	run_cmd(cmd);
	struct cmp_result touched = compile(FIX "good/AIName.c", HEADER, lib);
	cr_expect(touched.ok && touched.cached, "the same bytes, the same binary");
	snprintf(cmd, sizeof cmd, "cd %s && cp %s extra.o && ar rcs %s extra.o", fx.dir, fx.obj,
		 lib);
	run_cmd(cmd);
	struct cmp_result replaced = compile(FIX "good/AIName.c", HEADER, lib);
	cr_expect(replaced.ok && !replaced.cached, "log: %s", replaced.log);
	cr_expect_str_neq(replaced.key, a.key);
	cmp_result_free(&a);
	cmp_result_free(&touched);
	cmp_result_free(&replaced);
}

Test(compile, as_an_unprivileged_user)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to switch users");
	struct cmp_result r = compile_as(FIX "good/AIName.c", HEADER, fx.obj, COMPILER_UID);
	cr_assert(r.ok, "log: %s", r.log);
	struct stat st;
	cr_assert_eq(stat(r.binary, &st), 0);
	cr_expect_eq(st.st_uid, 0, "the cache's copy belongs to the judge");
	cr_expect_str_eq(run_binary(r.binary), "turn 0: 9\nturn 1: 10\nturn 2: 11\n");
	cr_expect_eq(count_entries(fx.tmp), 0);
	cmp_result_free(&r);
}

/* ---- judge compile -------------------------------------------------------------- */

/* Call cr_redirect_stdout() and cr_redirect_stderr() once per test first. */
static int run_cmd_compile(int argc, const char **argv)
{
	int rc = cmd_compile(argc, (char **)argv);
	fflush(stdout);
	fflush(stderr);
	return rc;
}

/* The first line judge compile wrote on the redirected stderr. */
static void expect_first_error(const char *want)
{
	char buf[512] = "";
	cr_expect_not_null(fgets(buf, sizeof buf, cr_get_redirected_stderr()));
	cr_expect_str_eq(buf, want);
}

static void write_config(char path[PATH_MAX])
{
	snprintf(path, PATH_MAX, "%s/judge.json", fx.dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "{ \"compile\": { \"cache_dir\": \"%s\", \"cpu_ms\": 10000 } }\n",
		fx.cfg.cache_dir);
	fclose(f);
}

Test(cmd_compile, help, .init = setup, .fini = teardown)
{
	cr_redirect_stdout();
	const char *argv[] = { "compile", "--help", NULL };
	cr_expect_eq(run_cmd_compile(2, argv), 0);
	char buf[128] = "";
	cr_expect_not_null(fgets(buf, sizeof buf, cr_get_redirected_stdout()));
	cr_expect_str_eq(buf, "usage: judge compile FILE [--header H [--shared-header S]] "
			      "[--runtime LIB]\n");
}

Test(cmd_compile, bad_usage, .init = setup, .fini = teardown)
{
	cr_redirect_stderr();
	const char *none[] = { "compile", NULL };
	cr_expect_eq(run_cmd_compile(1, none), 2);
	const char *unknown[] = { "compile", "a.c", "--frobnicate", NULL };
	cr_expect_eq(run_cmd_compile(3, unknown), 2);
	const char *dangling[] = { "compile", "a.c", "--header", NULL };
	cr_expect_eq(run_cmd_compile(3, dangling), 2);
	const char *missing[] = { "compile", "/nonexistent/a.c", NULL };
	cr_expect_eq(run_cmd_compile(2, missing), 2);
	expect_first_error("judge compile: give FILE (see --help)\n");
}

Test(cmd_compile, compiles_and_prints_the_path, .init = setup, .fini = teardown, .timeout = 60)
{
	char config[PATH_MAX], out[PATH_MAX + 16];
	write_config(config);
	snprintf(out, sizeof out, "%s/AIName", fx.dir);
	cr_redirect_stdout();
	cr_redirect_stderr();
	const char *argv[] = { "compile", FIX "good/AIName.c", "--header", HEADER, "--runtime",
			       fx.lib, "-o", out, "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(10, argv), 0);
	char buf[PATH_MAX + 32] = "";
	cr_expect_not_null(fgets(buf, sizeof buf, cr_get_redirected_stdout()));
	buf[strcspn(buf, "\n")] = '\0';
	cr_expect_str_eq(buf, out);
	cr_expect_str_eq(run_binary(out), "turn 0: 9\nturn 1: 10\nturn 2: 11\n");
}

/* A course game's player: its header includes the shared one. */
Test(cmd_compile, the_shared_header, .init = setup, .fini = teardown, .timeout = 60)
{
	char config[PATH_MAX];
	write_config(config);
	cr_redirect_stdout();
	cr_redirect_stderr();
	const char *argv[] = { "compile", "games/ants/players/AINull.c", "--header",
			       "games/ants/kit/ants.h", "--shared-header", COURSE, "--runtime",
			       "build/kits/libants.a", "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(10, argv), 0);
	const char *missing[] = { "compile", "games/ants/players/AINull.c", "--header",
				  "games/ants/kit/ants.h", "--shared-header", "/nonexistent/course.h",
				  "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(8, missing), 2);
	expect_first_error("judge compile: cannot read /nonexistent/course.h: No such file or "
			   "directory\n");
}

/* A contestant who names only the game's header: the shared one comes from
 * the data directory, not as "course.h: No such file or directory". */
Test(cmd_compile, the_shared_header_by_default, .init = setup, .fini = teardown, .timeout = 60)
{
	char config[PATH_MAX];
	write_config(config);
	cr_redirect_stdout();
	cr_redirect_stderr();
	const char *argv[] = { "compile", "games/ants/players/AINull.c", "--header",
			       "games/ants/kit/ants.h", "--runtime", "build/kits/libants.a",
			       "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(8, argv), 0);
}

/* --game compiles as judge play does, AIC2018's own checks included: a
 * writable global passes plain gcc but not the game. */
Test(cmd_compile, a_game_chooses_header_runtime_and_checks, .init = setup, .fini = teardown,
     .timeout = 120)
{
	char config[PATH_MAX];
	write_config(config);
	cr_redirect_stdout();
	cr_redirect_stderr();
	const char *shipped[] = { "compile", "games/aic2018/players/AIDemo.c", "--game", "aic2018",
				  "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(6, shipped), 0);
	const char *global[] = { "compile", UNITS "globals.c", "--game", "aic2018", "--config",
				 config, NULL };
	cr_expect_eq(run_cmd_compile(6, global), 1);
	expect_first_error(SHARED_MEMORY("globals.c", "3", "counter", "global"));
	const char *both[] = { "compile", "a.c", "--game", "ants", "--header", HEADER, NULL };
	cr_expect_eq(run_cmd_compile(6, both), 2);
	const char *unknown[] = { "compile", "a.c", "--game", "chess", NULL };
	cr_expect_eq(run_cmd_compile(4, unknown), 2);
}

/* A contestant's file `name` with that text in the test's folder; its path
 * in path. */
static void write_player(char path[PATH_MAX + 16], const char *name, const char *text)
{
	snprintf(path, PATH_MAX + 16, "%s/%s", fx.dir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

/* `judge compile FILE --game dominator` of file `name` holding text exits 1
 * with one line: "judge compile: PATH" then said. */
static void expect_name_refused(const char *name, const char *text, const char *said)
{
	char config[PATH_MAX], source[PATH_MAX + 16];
	write_config(config);
	write_player(source, name, text);
	cr_redirect_stderr();
	const char *argv[] = { "compile", source, "--game", "dominator", "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(6, argv), 1);
	char want[PATH_MAX + 512];
	snprintf(want, sizeof want, "judge compile: %s%s: write PLAYER_NAME(Name); once, on a line "
		 "of its own outside every #if and function, Name being 1 to 12 letters, digits "
		 "or _\n", source, said);
	expect_first_error(want);
}

/* A file without PLAYER_NAME: what to write, not the linker's
 * "undefined reference to `player_name'". */
Test(cmd_compile, no_player_name_says_what_to_write, .init = setup, .fini = teardown,
     .timeout = 60)
{
	expect_name_refused("AINameless.c", "#include \"dominator.h\"\nvoid play(void) {}\n",
			    " does not name its player");
}

/* With --game, the upload's rule for the name too: a file that compiles
 * but names its player by hand is refused as the upload refuses it. */
Test(cmd_compile, a_name_the_upload_refuses_is_refused, .init = setup, .fini = teardown,
     .timeout = 60)
{
	expect_name_refused("AIAlias.c", "#include \"dominator.h\"\n#if 0\nPLAYER_NAME(Alias);\n"
			    "#endif\nconst char player_name[] = \"Demo\";\nvoid play(void) {}\n",
			    ":5: writes player_name itself, which PLAYER_NAME(Name) defines (only a "
			    "function may read it)");
}

/* The course's random(low, high) and round() are errors that name the C
 * functions to use, not a silent call of the C library's random(). */
Test(cmd_compile, the_course_names_c_has_point_to_theirs, .init = setup, .fini = teardown,
     .timeout = 60)
{
	char config[PATH_MAX], source[PATH_MAX + 16];
	write_config(config);
	write_player(source, "AICourse.c", "#include \"ants.h\"\nPLAYER_NAME(Course);\n"
		     "void play(void)\n{\n\tif (round() < 10)\n\t\tmove(0, (Dir)random(0, 3));\n}\n");
	cr_redirect_stdout();
	cr_redirect_stderr();
	const char *argv[] = { "compile", source, "--game", "ants", "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(6, argv), 1);
	char log[4096] = "";
	size_t n = fread(log, 1, sizeof log - 1, cr_get_redirected_stderr());
	log[n] = '\0';
	cr_expect(strstr(log, "too few arguments to function 'round'"), "%s", log);
	cr_expect(strstr(log, "the course's round() is current_round()"), "%s", log);
	cr_expect(strstr(log, "too many arguments to function 'random'"), "%s", log);
	cr_expect(strstr(log, "random(low, high) is random_int(low, high)"), "%s", log);
}

/* Without a game, the refusal of the game's header says what to add. */
Test(cmd_compile, no_game_given_says_to_add_one, .init = setup, .fini = teardown, .timeout = 60)
{
	char config[PATH_MAX];
	write_config(config);
	cr_redirect_stderr();
	const char *argv[] = { "compile", "games/ants/players/AINull.c", "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(4, argv), 1);
	expect_first_error("AINull.c:2: #include \"ants.h\" is not allowed: only the standard C "
			   "headers may be included\n");
	char buf[512] = "";
	cr_expect_not_null(fgets(buf, sizeof buf, cr_get_redirected_stderr()));
	cr_expect_str_eq(buf, "judge compile: no game was given, so no game header may be "
			      "included: add --game GAME (see --help)\n");
}

Test(cmd_compile, compile_error_exits_1, .init = setup, .fini = teardown, .timeout = 60)
{
	char config[PATH_MAX];
	write_config(config);
	cr_redirect_stderr();
	const char *argv[] = { "compile", FIX "hostile/include_passwd.c", "--header", HEADER,
			       "--config", config, NULL };
	cr_expect_eq(run_cmd_compile(6, argv), 1);
	expect_first_error("include_passwd.c:3: #include \"/etc/passwd\" is not allowed: only "
			   "the standard C headers and dominator.h may be included\n");
}

/* ---- games whose units share no memory (AIC2018) --------------------------- */


static struct cmp_result compile_units(const char *fixture)
{
	char source[256], runtime[PATH_MAX + 32], cmd[PATH_MAX * 2 + 64];
	snprintf(source, sizeof source, UNITS "%s", fixture);
	snprintf(runtime, sizeof runtime, "%s/units_runtime.o", fx.dir);
	snprintf(cmd, sizeof cmd, "gcc -c " UNITS "runtime.c -o %s", runtime);
	run_cmd(cmd);
	struct cmp_request req = { .source = source, .runtime = runtime,
				   .instrument = TRACE_PC, .no_writable_globals = true };
	struct cmp_result r;
	err_t err = {0};
	cr_assert_eq(cmp_compile(&fx.cfg, &req, &r, err), 0, "%s: %s", fixture, err->msg);
	return r;
}

static void expect_units_refused(const char *fixture, const char *message)
{
	struct cmp_result r = compile_units(fixture);
	cr_expect(!r.ok, "%s compiled", fixture);
	cr_expect_str_eq(r.log, message, "%s said: %s", fixture, r.log);
	cmp_result_free(&r);
}

Test(compile, writable_globals_and_statics_are_refused_with_name_and_line)
{
	expect_units_refused("globals.c", SHARED_MEMORY("globals.c", "3", "counter", "global"));
	expect_units_refused("static_local.c",
			     SHARED_MEMORY("static_local.c", "7", "calls", "static"));
	expect_units_refused("thread_local.c",
			     SHARED_MEMORY("thread_local.c", "2", "seen", "global"));
}

Test(compile, constants_pass_and_the_file_is_instrumented)
{
	struct cmp_result r = compile_units("constants.c");
	cr_assert(r.ok, "refused: %s", r.log);
	char *out = run_binary(r.binary);
	cr_expect(strstr(out, " counted\n") != NULL, "the runtime's hook saw blocks: %s", out);
	cmp_result_free(&r);
}

Test(compile, what_would_escape_the_energy_count_is_refused)
{
	expect_units_refused("no_instrument.c",
			     ATTRIBUTE("no_instrument.c", "3", "no_instrument_function"));
	expect_units_refused("own_hook.c",
			     "own_hook.c: defines `__sanitizer_cov_trace_pc`, a name of the energy "
			     "count's instrumentation, which only the game's runtime may define: "
			     "refused\n");
}

Test(compile, other_games_keep_their_globals)
{
	/* the same source, without the game's rules: compiles */
	struct cmp_request req = { .source = UNITS "globals.c" };
	struct cmp_result r;
	err_t err = {0};
	cr_assert_eq(cmp_compile(&fx.cfg, &req, &r, err), 0, "%s", err->msg);
	cr_expect_not(strstr(r.log, "writable"), "%s", r.log);
	cmp_result_free(&r);
}
