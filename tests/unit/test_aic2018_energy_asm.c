/* test_aic2018_energy_asm.c - the energy rewrite of a unit's assembly
 * (games/aic2018/engine/energy_asm.h), on what gcc -S -O2 -ffixed-r15
 * makes of small functions. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/aic2018/engine/energy_asm.h"

static char *rewrite_ok(const char *s)
{
	char *out = NULL;
	err_t err;
	size_t n = 0;
	int rc = energy_asm_rewrite(s, strlen(s), &out, &n, err);
	cr_assert_eq(rc, 0, "refused: %s", err);
	cr_assert_eq(strlen(out), n);
	return out;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* for (;;) {} */
static const char empty_loop[] = "\t.text\n\t.globl\tspin\n\t.type\tspin, @function\nspin:\n"
				 ".LFB0:\n\t.p2align 4,,10\n.L2:\n\tjmp\t.L2\n\t.size\tspin, .-spin\n";

Test(aic2018_energy_asm, an_empty_loop_is_charged_and_checked_every_round)
{
	char *out = rewrite_ok(empty_loop);
	const char *loop = strstr(out, ".L2:\n");
	cr_assert(loop);
	const char *jump = strstr(loop, "\tjmp\t.L2");
	cr_assert(jump, "%s", out);
	size_t body = (size_t)(jump - loop);
	cr_expect(memmem(loop, body, "(%r15), %r15", 12), "the round is charged:\n%s", out);
	cr_expect(memmem(loop, body, "call\t__aic_energy_pause", 23), "and checked:\n%s", out);
	cr_expect(memmem(loop, body, "pushfq", 6), "flags kept: they may be live:\n%s", out);
	free(out);
}

static const char library_calls[] =
	"\t.text\n\t.globl\tcp\n\t.type\tcp, @function\ncp:\n\tsubq\t$8, %rsp\n"
	"\tmovl\t$200000, %edx\n\tcall\tmemcpy@PLT\n\tleaq\tsin(%rip), %rax\n"
	"\tcall\tuc_yield@PLT\n\taddq\t$8, %rsp\n\tret\n";

Test(aic2018_energy_asm, library_calls_go_to_the_counted_copies_and_the_api_stays)
{
	char *out = rewrite_ok(library_calls);
	cr_expect(strstr(out, "call\t__aic_memcpy@PLT"), "%s", out);
	cr_expect(strstr(out, "leaq\t__aic_sin(%rip)"), "a function's address too: %s", out);
	cr_expect(strstr(out, "call\tuc_yield@PLT"), "%s", out);
	cr_expect_eq(count(out, "call\tmemcpy"), 0);
	char want[64];
	snprintf(want, sizeof want, "leaq\t-%d(%%r15), %%r15", 7 + ENERGY_ASM_CHECK);
	cr_expect(strstr(out, want), "seven instructions and the entry's check, charged once:\n%s",
		  out);
	free(out);
}

/* The rewrite's refusal of s; its message must hold want. */
static void refused(const char *s, const char *want)
{
	char *out = NULL;
	err_t err;
	size_t n;
	cr_expect_eq(energy_asm_rewrite(s, strlen(s), &out, &n, err), 1,
		     "not refused:\n%s", s);
	cr_expect(strstr(err->msg, want), "want `%s` in: %s", want, err->msg);
}

Test(aic2018_energy_asm, a_function_it_cannot_count_is_refused_by_name)
{
	static const char s[] = "\t.text\nf:\n\tcall\tfprintf@PLT\n\tret\n";
	char *out = NULL;
	err_t err;
	size_t n;
	cr_expect_eq(energy_asm_rewrite(s, strlen(s), &out, &n, err), 1);
	cr_expect(strstr(err->msg, "`fprintf`"), "%s", err->msg);
	cr_expect(strstr(err->msg, "memcpy"), "the message lists what may be used: %s", err->msg);
	static const char j[] = "\t.text\nf:\n\tjmp\tlongjmp\n";
	cr_expect_eq(energy_asm_rewrite(j, strlen(j), &out, &n, err), 1);
	cr_expect(strstr(err->msg, "`longjmp`"), "%s", err->msg);
}

Test(aic2018_energy_asm, the_counts_own_names_may_not_be_defined)
{
	static const char s[] = "\t.text\n__aic_energy_pause:\n\tret\n";
	char *out = NULL;
	err_t err;
	size_t n;
	cr_expect_eq(energy_asm_rewrite(s, strlen(s), &out, &n, err), 1);
	cr_expect(strstr(err->msg, "__aic_energy_pause"), "%s", err->msg);
}

Test(aic2018_energy_asm, divisions_weigh_more_and_string_instructions_pay_per_element)
{
	static const char s[] = "\t.text\nf:\n\tmovq\t%rdi, %rax\n\tcqto\n\tidivq\t%rsi\n"
				"\tmovl\t$100, %ecx\n\trep movsq\n\tret\n";
	char *out = rewrite_ok(s);
	char want[64];
	snprintf(want, sizeof want, "leaq\t-%d(%%r15), %%r15", 5 + ENERGY_ASM_DIV);
	cr_expect(strstr(out, want), "want %s in\n%s", want, out);
	cr_expect(strstr(out, "leaq\t(%r15,%rcx), %r15\n\tnotq\t%r15\n\trep movsq"), "%s", out);
	free(out);
}

Test(aic2018_energy_asm, jump_table_targets_and_backward_jumps_are_checked_forward_ones_not)
{
	static const char s[] =
		"\t.text\nf:\n\tcmpl\t$1, %edi\n\tja\t.L5\n\tleaq\t.L4(%rip), %rdx\n\tjmp\t*%rdx\n"
		"\t.section\t.rodata\n.L4:\n\t.long\t.L3-.L4\n\t.text\n.L3:\n\tmovl\t$1, %eax\n"
		".L6:\n\taddl\t$1, %eax\n\tcmpl\t$9, %eax\n\tjne\t.L6\n.L5:\n\tret\n";
	char *out = rewrite_ok(s);
	cr_expect_eq(count(out, "call\t__aic_energy_pause"), 2, ".L3 and .L6, not .L5:\n%s", out);
	const char *l5 = strstr(out, ".L5:\n");
	cr_expect(l5 && !strstr(l5, "__aic_energy_pause"), "%s", out);
	free(out);
}

Test(aic2018_energy_asm, the_same_input_gives_the_same_output)
{
	char *a = rewrite_ok(library_calls), *b = rewrite_ok(library_calls);
	cr_expect_str_eq(a, b);
	free(a);
	free(b);
}

/* What a unit's libc state would be shared through is not there to call. */
Test(aic2018_energy_asm, the_shared_state_of_the_c_library_is_out_of_reach)
{
	static const char *const names[] = { "rand", "srand", "strtok", "setenv", "putenv",
					     "getenv", "__errno_location", "setlocale", "signal",
					     "sigaction", "malloc", "free", "atexit", "fesetround" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char s[128], want[64];
		snprintf(s, sizeof s, "\t.text\nf:\n\tcall\t%s@PLT\n\tret\n", names[i]);
		snprintf(want, sizeof want, "`%s`", names[i]);
		refused(s, want);
	}
}

Test(aic2018_energy_asm, constructors_and_destructors_are_refused)
{
	refused("\t.text\nc:\n\tret\n\t.section\t.init_array,\"aw\"\n\t.quad\tc\n",
		"constructor or destructor");
	refused("\t.text\nc:\n\tret\n\t.section\t.fini_array.00100,\"aw\"\n\t.quad\tc\n",
		"constructor or destructor");
	refused("\t.text\nc:\n\tret\n\t.section\t.ctors,\"aw\"\n\t.quad\tc\n",
		"constructor or destructor");
}

/* What __builtin_ia32_rdtsc, _rdrand, _fxsave, _wrpkru... compile to, and
 * any naming of the count's register. */
Test(aic2018_energy_asm, instructions_that_reach_past_the_game_are_refused)
{
	static const char *const insns[] = { "rdtsc", "rdtscp", "rdrand\t%eax", "cpuid",
					     "syscall", "int\t$128", "fnstsw\t%ax", "fnstenv\t(%rdi)",
					     "fxsave64\t(%rdi)", "xsave\t(%rdi)", "wrpkru", "rdpkru",
					     "wrfsbase\t%rax", "fninit", "fnclex", "xbegin\t.L1" };
	for (size_t i = 0; i < sizeof insns / sizeof *insns; i++) {
		char s[128];
		snprintf(s, sizeof s, "\t.text\nf:\n\t%s\n\tret\n", insns[i]);
		refused(s, "which a unit may not run");
	}
	refused("\t.text\nf:\n\tmovq\t$1, %r15\n\tret\n", "r15");
	refused("\t.text\nf:\n\tpushq\t%r15d\n\tret\n", "r15");
	char *out = rewrite_ok("\t.text\nf:\n\tfnstcw\t-2(%rsp)\n\tfldcw\t-2(%rsp)\n"
			       "\tstmxcsr\t-4(%rsp)\n\tret\n");
	free(out); /* the control words are each unit's own (coro.h) */
}

/* char a[1 << 20]; char v[n]; _Alignas(8192) locals: every move of the
 * stack pointer by a page or more first calls the probe with its size. */
Test(aic2018_energy_asm, large_frames_are_probed_small_ones_not)
{
	static const char s[] =
		"\t.text\nf:\n\tsubq\t$1048584, %rsp\n\tsubq\t%rdi, %rsp\n"
		"\tandq\t$-8192, %rsp\n\tleaq\t-5000(%rsp), %rsp\n\taddq\t$-4096, %rsp\n"
		"\tsubq\t$4088, %rsp\n\tandq\t$-32, %rsp\n\taddq\t$-128, %rsp\n"
		"\tleaq\t-8(%rbp), %rsp\n\tret\n";
	char *out = rewrite_ok(s);
	cr_expect_eq(count(out, "call\t__aic_stack_probe"), 5, "%s", out);
	static const char *const sizes[] = { "pushq\t$1048584\n", "pushq\t%rdi\n",
					     "pushq\t$8192\n", "pushq\t$5000\n", "pushq\t$4096\n" };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		cr_expect(strstr(out, sizes[i]), "%s in\n%s", sizes[i], out);
	const char *probe = strstr(out, "pushq\t$1048584\n\tcall\t__aic_stack_probe\n"
				       "\tleaq\t136(%rsp), %rsp\n\tsubq\t$1048584, %rsp");
	cr_expect(probe, "the probe comes right before the move:\n%s", out);
	free(out);
	refused("\t.text\nf:\n\tsubq\t8(%rsp), %rsp\n\tret\n", "stack probe cannot follow");
}

/* What gcc -g adds to a function (labels of lexical blocks, line and
 * view directives, debugging sections naming code labels and views) is
 * rewritten to the same charges and checks as the function without it:
 * the instructions the assembler gets are the same, line for line. */
static const char plain_function[] =
	"\t.text\n\t.globl\tf\n\t.type\tf, @function\nf:\n.LFB0:\n\tmovl\t%edi, %eax\n"
	"\taddl\t$1, %eax\n\timull\t%eax, %eax\n.L3:\n\tsubl\t$1, %eax\n\tjne\t.L3\n\tret\n"
	".LFE0:\n\t.size\tf, .-f\n";
static const char debug_function[] =
	"\t.text\n.Ltext0:\n\t.file 1 \"f.c\"\n\t.globl\tf\n\t.type\tf, @function\nf:\n.LVL0:\n"
	".LFB0:\n\t.loc 1 2 1 view -0\n\tmovl\t%edi, %eax\n.LBB2:\n\t.loc 1 3 5 view .LVU1\n"
	"\taddl\t$1, %eax\n.LVL1:\n\timull\t%eax, %eax\n.LBE2:\n.L3:\n\tsubl\t$1, %eax\n"
	"\tjne\t.L3\n\tret\n.LFE0:\n\t.size\tf, .-f\n.Letext0:\n"
	"\t.section\t.debug_info,\"\",@progbits\n\t.quad\t.LFB0\n\t.quad\t.LFE0-.LFB0\n"
	"\t.quad\t.LBB2\n\t.quad\t.Ltext0\n\t.section\t.debug_loclists,\"\",@progbits\n"
	"\t.uleb128 .LVU1\n\t.quad\t.LVL1\n\t.byte\t0\n";

/* The instruction lines of s (a label or a directive gives none). */
static char *instructions(const char *s)
{
	char *out = calloc(1, strlen(s) + 1), *o = out;
	for (const char *line = s; *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
		if (line[0] == '\t' && line[1] != '.')
			o = mempcpy(o, line, n);
		line += n;
	}
	return out;
}

Test(aic2018_energy_asm, line_information_changes_no_charge_and_no_check)
{
	char *plain = rewrite_ok(plain_function), *debug = rewrite_ok(debug_function);
	char *a = instructions(plain), *b = instructions(debug);
	cr_expect_str_eq(b, a, "with -g:\n%s\nwithout:\n%s", debug, plain);
	free(a);
	free(b);
	free(plain);
	free(debug);
}
