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
	char *out = NULL, err[1024];
	size_t n = 0;
	int rc = energy_asm_rewrite(s, strlen(s), &out, &n, err, sizeof err);
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

Test(aic2018_energy_asm, a_function_it_cannot_count_is_refused_by_name)
{
	static const char s[] = "\t.text\nf:\n\tcall\tfprintf@PLT\n\tret\n";
	char *out = NULL, err[2048];
	size_t n;
	cr_expect_eq(energy_asm_rewrite(s, strlen(s), &out, &n, err, sizeof err), 1);
	cr_expect(strstr(err, "`fprintf`"), "%s", err);
	cr_expect(strstr(err, "memcpy"), "the message lists what may be used: %s", err);
	static const char j[] = "\t.text\nf:\n\tjmp\tlongjmp\n";
	cr_expect_eq(energy_asm_rewrite(j, strlen(j), &out, &n, err, sizeof err), 1);
	cr_expect(strstr(err, "`longjmp`"), "%s", err);
}

Test(aic2018_energy_asm, the_counts_own_names_may_not_be_defined)
{
	static const char s[] = "\t.text\n__aic_energy_pause:\n\tret\n";
	char *out = NULL, err[2048];
	size_t n;
	cr_expect_eq(energy_asm_rewrite(s, strlen(s), &out, &n, err, sizeof err), 1);
	cr_expect(strstr(err, "__aic_energy_pause"), "%s", err);
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
