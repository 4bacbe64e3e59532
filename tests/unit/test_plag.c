/* test_plag.c - plagiarism fingerprints: tokenizer (judge/plag/plag_tokens.c,
 * plag_raw.c over judge/base/clex.c, plag_macro.c), winnowing and hash sets
 * (plag_winnow.c), pair similarity (plag_sim.c), equivalent forms
 * (plag_norm.c). */
#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/plag/plag_sim.h"
#include "judge/plag/plag_tokens.h"
#include "judge/plag/plag_winnow.h"
#include "tests/unit/game_testlib.h"
#include "tests/unit/gen_testlib.h"

/* ---- helpers ----------------------------------------------------------- */

static struct plag_tokens tokens_of(const char *src)
{
	struct plag_tokens t;
	err_t err = {0};
	enum plag_err e = plag_tokenize(src, strlen(src), NULL, &t, err);
	cr_assert_eq(e, PLAG_OK, "tokenize failed (%s): %s\nsource:\n%s", plag_strerror(e),
		     err->msg, src);
	return t;
}

/* The token names joined by spaces, e.g. "int ID ;". */
static char *render(const struct plag_tokens *t)
{
	size_t cap = 16, used = 0;
	for (size_t i = 0; i < t->n; i++)
		cap += strlen(plag_tok_name(t->v[i].code)) + 1;
	char *s = malloc(cap);
	cr_assert_not_null(s);
	s[0] = '\0';
	for (size_t i = 0; i < t->n; i++)
		used += (size_t)snprintf(s + used, cap - used, "%s%s", i ? " " : "",
					 plag_tok_name(t->v[i].code));
	return s;
}

static void expect_tokens(const char *src, const char *want)
{
	struct plag_tokens t = tokens_of(src);
	char *got = render(&t);
	plag_tokens_free(&t);
	cr_expect_str_eq(got, want, "source:\n%s", src);
	free(got);
}

/* Both sources give the same codes (lines may differ). */
static void expect_same_codes(const char *a, const char *b)
{
	struct plag_tokens ta = tokens_of(a), tb = tokens_of(b);
	char *ra = render(&ta), *rb = render(&tb);
	cr_expect_str_eq(ra, rb, "sources differ:\n%s\n----\n%s", a, b);
	free(ra);
	free(rb);
	plag_tokens_free(&ta);
	plag_tokens_free(&tb);
}

static void expect_error_lim(const char *src, size_t len, const struct plag_tok_limits *lim,
			     enum plag_err want, const char *msg_part)
{
	struct plag_tokens t = { (void *)1, 99 };
	err_t err = {0};
	enum plag_err e = plag_tokenize(src, len, lim, &t, err);
	cr_expect_eq(e, want, "got %s (%s), want %s", plag_strerror(e), err->msg,
		     plag_strerror(want));
	cr_expect_null(t.v, "output must be empty on error");
	cr_expect_eq(t.n, 0);
	cr_expect(strstr(err->msg, msg_part) != NULL, "message \"%s\" lacks \"%s\"", err->msg,
		  msg_part);
	plag_tokens_free(&t);
}

static void expect_error(const char *src, enum plag_err want, const char *msg_part)
{
	expect_error_lim(src, strlen(src), NULL, want, msg_part);
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(gen_rand(s) % n);
}

/* Appends n random tokens with codes in [1, alphabet]; line = index + 1. */
static void random_tokens(struct plag_token *t, size_t from, size_t n, uint32_t alphabet,
			  uint64_t *rng)
{
	for (size_t i = from; i < from + n; i++)
		t[i] = (struct plag_token){ .code = 1 + rng_below(rng, alphabet), .line = 0 };
}

static void number_lines(struct plag_token *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		t[i].line = (uint32_t)i + 1;
}

static struct plag_fps winnow(const struct plag_token *t, size_t n, unsigned k, unsigned w)
{
	struct plag_fps f;
	err_t err = {0};
	enum plag_err e = plag_winnow(t, n, k, w, &f, err);
	cr_assert_eq(e, PLAG_OK, "winnow: %s", err->msg);
	return f;
}

static struct plag_fps winnow_src(const char *src)
{
	struct plag_tokens t = tokens_of(src);
	struct plag_fps f = winnow(t.v, t.n, PLAG_K_DEFAULT, PLAG_W_DEFAULT);
	plag_tokens_free(&t);
	return f;
}

static bool share_a_hash(const struct plag_fps *a, const struct plag_fps *b)
{
	struct plag_hashset s = { 0 };
	cr_assert_eq(plag_hashset_add_fps(&s, b, NULL), PLAG_OK);
	bool found = false;
	for (size_t i = 0; i < a->n && !found; i++)
		found = plag_hashset_has(&s, a->v[i].hash);
	plag_hashset_free(&s);
	return found;
}

static struct plag_pair compare(const struct plag_fps *a, const struct plag_fps *b,
				const struct plag_hashset *ignore)
{
	struct plag_pair p;
	err_t err = {0};
	enum plag_err e = plag_compare(a, b, ignore, 1, &p, err);
	cr_assert_eq(e, PLAG_OK, "compare: %s", err->msg);
	return p;
}

/* Two small players for a board game, written independently. */
static const char *const PLAYER_MINIMAX =
	"#include <stdio.h>\n"
	"#include \"game.h\"\n"
	"#define INF 1000000\n"
	"#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
	"\n"
	"static int evaluate(const struct board *b, int me)\n"
	"{\n"
	"\tint score = 0;\n"
	"\tfor (int r = 0; r < ROWS; r++)\n"
	"\t\tfor (int c = 0; c < COLS; c++)\n"
	"\t\t\tif (b->cell[r][c] == me)\n"
	"\t\t\t\tscore += weight[r][c];\n"
	"\t\t\telse if (b->cell[r][c] != EMPTY)\n"
	"\t\t\t\tscore -= weight[r][c];\n"
	"\treturn score;\n"
	"}\n"
	"\n"
	"static int minimax(struct board *b, int depth, int me, int turn)\n"
	"{\n"
	"\tstruct move moves[MAX_MOVES];\n"
	"\tint n = legal_moves(b, turn, moves);\n"
	"\tif (depth == 0 || n == 0)\n"
	"\t\treturn evaluate(b, me);\n"
	"\tint best = turn == me ? -INF : INF;\n"
	"\tfor (int i = 0; i < n; i++) {\n"
	"\t\tstruct board next = *b;\n"
	"\t\tplay(&next, moves[i], turn);\n"
	"\t\tint v = minimax(&next, depth - 1, me, 3 - turn);\n"
	"\t\tbest = turn == me ? MAX(best, v) : -MAX(-best, -v);\n"
	"\t}\n"
	"\treturn best;\n"
	"}\n"
	"\n"
	"int main(void)\n"
	"{\n"
	"\tstruct board b;\n"
	"\tint me;\n"
	"\twhile (read_board(stdin, &b, &me) == 0) {\n"
	"\t\tstruct move moves[MAX_MOVES];\n"
	"\t\tint n = legal_moves(&b, me, moves), pick = 0, best = -INF;\n"
	"\t\tfor (int i = 0; i < n; i++) {\n"
	"\t\t\tstruct board next = b;\n"
	"\t\t\tplay(&next, moves[i], me);\n"
	"\t\t\tint v = minimax(&next, 4, me, 3 - me);\n"
	"\t\t\tif (v > best) {\n"
	"\t\t\t\tbest = v;\n"
	"\t\t\t\tpick = i;\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t\tprintf(\"%d %d\\n\", moves[pick].row, moves[pick].col);\n"
	"\t\tfflush(stdout);\n"
	"\t}\n"
	"\treturn 0;\n"
	"}\n";

static const char *const PLAYER_GREEDY =
	"#include <stdlib.h>\n"
	"#include <stdio.h>\n"
	"#include \"game.h\"\n"
	"\n"
	"/* Take the move that flips most stones; random among equals. */\n"
	"typedef struct { unsigned seed; long flips; } state_t;\n"
	"\n"
	"static unsigned next_random(state_t *s)\n"
	"{\n"
	"    s->seed = s->seed * 1103515245u + 12345u;\n"
	"    return (s->seed >> 16) & 0x7fff;\n"
	"}\n"
	"\n"
	"static long count_flips(const struct board *bd, struct move m, int who)\n"
	"{\n"
	"    struct board copy;\n"
	"    memcpy(&copy, bd, sizeof copy);\n"
	"    long before = stones(&copy, who);\n"
	"    play(&copy, m, who);\n"
	"    return stones(&copy, who) - before - 1;\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"    state_t st = { argc > 1 ? (unsigned)atoi(argv[1]) : 7u, 0 };\n"
	"    struct board bd;\n"
	"    int who;\n"
	"    do {\n"
	"        if (read_board(stdin, &bd, &who) != 0)\n"
	"            break;\n"
	"        struct move list[MAX_MOVES], chosen;\n"
	"        int count = legal_moves(&bd, who, list);\n"
	"        long most = -1;\n"
	"        unsigned ties = 0;\n"
	"        for (int k = count - 1; k >= 0; --k) {\n"
	"            long f = count_flips(&bd, list[k], who);\n"
	"            if (f > most) { most = f; chosen = list[k]; ties = 1; }\n"
	"            else if (f == most && next_random(&st) % ++ties == 0) chosen = list[k];\n"
	"        }\n"
	"        st.flips += most;\n"
	"        printf(\"%d %d\\n\", chosen.row, chosen.col);\n"
	"        fflush(stdout);\n"
	"    } while (1);\n"
	"    return EXIT_SUCCESS;\n"
	"}\n";

/* PLAYER_MINIMAX after a copier's usual work: names changed, comments and
 * layout changed, constants changed, a macro for the loop. */
static const char *const PLAYER_MINIMAX_DISGUISED =
	"#include \"game.h\"\n"
	"#include <stdio.h>\n"
	"#define BIG 99999 /* infinity */\n"
	"#define MAX(x, y) ((x) > (y) ? (x) : (y))\n"
	"#define EACH(i, n) for (int i = 0; i < n; i++)\n"
	"// heuristic\n"
	"static int heur(const struct board *bb, int self) {\n"
	"  int total = 0;\n"
	"  EACH(row, ROWS) EACH(col, COLS)\n"
	"    if (bb->cell[row][col] == self) total += weight[row][col];\n"
	"    else if (bb->cell[row][col] != EMPTY) total -= weight[row][col];\n"
	"  return total;\n"
	"}\n"
	"static int search(struct board *bb, int d, int self, int side) {\n"
	"  struct move ms[MAX_MOVES]; int cnt = legal_moves(bb, side, ms);\n"
	"  if (d == 0 || cnt == 0) return heur(bb, self);\n"
	"  int top = side == self ? -BIG : BIG;\n"
	"  EACH(j, cnt) {\n"
	"    struct board nb = *bb; play(&nb, ms[j], side);\n"
	"    int val = search(&nb, d - 1, self, 3 - side);\n"
	"    top = side == self ? MAX(top, val) : -MAX(-top, -val);\n"
	"  }\n"
	"  return top;\n"
	"}\n"
	"int main(void) {\n"
	"  struct board bb; int self;\n"
	"  while (read_board(stdin, &bb, &self) == 0) {\n"
	"    struct move ms[MAX_MOVES];\n"
	"    int cnt = legal_moves(&bb, self, ms), choice = 0, top = -BIG;\n"
	"    EACH(j, cnt) {\n"
	"      struct board nb = bb; play(&nb, ms[j], self);\n"
	"      int val = search(&nb, 6, self, 3 - self);\n"
	"      if (val > top) { top = val; choice = j; }\n"
	"    }\n"
	"    printf(\"%d %d\\n\", ms[choice].row, ms[choice].col); fflush(stdout);\n"
	"  }\n"
	"  return 0;\n"
	"}\n";

/* ---- tokenizer ---------------------------------------------------------- */

Test(plag_tokens, identifiers_and_numbers_are_classes_keywords_stay)
{
	expect_tokens("int main(void) { unsigned count = 0; while (count < 10) count++; "
		      "return count; }",
		      "int ID ( void ) { unsigned ID = NUM ; while ( ID < NUM ) { ID ++ ; } "
		      "return ID ; }");
	expect_tokens("x = 0x1Fu + 1.5e-3f + .5 + 1'000'000 + 0b101;",
		      "ID = NUM + NUM + NUM + NUM + NUM ;");
	expect_tokens("static const struct s *p = sizeof(long double);",
		      "static const struct ID * ID = sizeof ( long double ) ;");
}

/* ---- equivalent forms (plag_norm.c) ------------------------------------- */

/* The statement list body inside a function, as source. */
static char *in_function(const char *body)
{
	size_t n = strlen(body) + 64;
	char *s = malloc(n);
	cr_assert_not_null(s);
	snprintf(s, n, "void f(int *p, int n) {\n%s\n}\n", body);
	return s;
}

/* Every body of the list has the same codes as the first. */
static void expect_all_same(const char *const *bodies, size_t n)
{
	char *first = in_function(bodies[0]);
	for (size_t i = 1; i < n; i++) {
		char *other = in_function(bodies[i]);
		expect_same_codes(first, other);
		free(other);
	}
	free(first);
}

static void expect_different_codes(const char *a, const char *b)
{
	char *fa = in_function(a), *fb = in_function(b);
	struct plag_tokens ta = tokens_of(fa), tb = tokens_of(fb);
	char *ra = render(&ta), *rb = render(&tb);
	cr_expect_str_neq(ra, rb, "different code collapsed:\n%s\n----\n%s", a, b);
	free(ra);
	free(rb);
	free(fa);
	free(fb);
	plag_tokens_free(&ta);
	plag_tokens_free(&tb);
}

#define ALL_SAME(...)                                                                    \
	do {                                                                                 \
		static const char *const v_[] = { __VA_ARGS__ };                             \
		expect_all_same(v_, sizeof v_ / sizeof *v_);                                 \
	} while (0)

Test(plag_norm, increments_are_one_statement)
{
	ALL_SAME("x++;", "++x;", "x += 1;", "x = x + 1;", "x = 1 + x;");
	ALL_SAME("x--;", "--x;", "x -= 1;", "x = x - 1;");
	ALL_SAME("p->n[i + 1].c++;", "++p->n[i + 1].c;", "p->n[i + 1].c += 1;",
		 "p->n[i + 1].c = p->n[i + 1].c + 1;");
	ALL_SAME("s = s * (a + b);", "s *= a + b;");
	ALL_SAME("s = s + a * b;", "s += a * b;");
	ALL_SAME("return (a + b);", "return a + b;");
	/* What is not the same stays apart. */
	expect_different_codes("x++;", "x--;");
	expect_different_codes("x++;", "x += 2;");
	expect_different_codes("x = y + 1;", "x++;");
	expect_different_codes("s = s * a + b;", "s *= a + b;");
	expect_different_codes("s = s - a - b;", "s -= a - b;");
	expect_different_codes("y = x++;", "y = x += 1;");
}

Test(plag_norm, needless_parentheses_go_and_declarations_come_one_by_one)
{
	ALL_SAME("x = a + b * c;", "x = a + (b * c);", "x = (a + (b * c));");
	ALL_SAME("x = a < b && c == d || !e;", "x = ((a < b) && (c == d)) || (!e);");
	ALL_SAME("x = a - b - c;", "x = (a - b) - c;");
	ALL_SAME("if (c) return p->x[1] + 1;", "if ((c)) return ((p)->x[1] + 1);");
	ALL_SAME("int i = 0, *q = &n, v[2] = { 1, 2 };", "int i = 0; int *q = &n; int v[2] = { 1, 2 };");
	ALL_SAME("Pos a = pos(1, 2), b;", "Pos a = pos(1, 2); Pos b;");
	ALL_SAME("static const struct s x, y;", "static const struct s x; static const struct s y;");
	/* Parentheses that matter stay. */
	expect_different_codes("x = a - (b - c);", "x = a - b - c;");
	expect_different_codes("x = (a + b) * c;", "x = a + b * c;");
	expect_different_codes("x = (Dir)d;", "x = d;");
	expect_different_codes("x = -(a + b);", "x = -a + b;");
	expect_different_codes("x = f((a, b));", "x = f(a, b);");
	expect_different_codes("g(a, b);", "g(a); g(b);");
}

Test(plag_norm, comparisons_face_one_way)
{
	ALL_SAME("if (a < b) f();", "if (b > a) f();");
	ALL_SAME("while (i + 1 <= n) g();", "while (n >= i + 1) g();");
	ALL_SAME("return y[2] < f(x);", "return f(x) > y[2];");
	ALL_SAME("x = b < a && c != 0;", "x = a > b && c != 0;");
	ALL_SAME("x = c ? (int)u->v < 3 : 0;", "x = c ? 3 > (int)u->v : 0;");
	expect_different_codes("if (a < b) f();", "if (a <= b) f();");
	expect_different_codes("if (a > b) f();", "if (a >= b) f();");
	/* Operands bound by a looser operator are not simple: left alone. */
	expect_different_codes("x = a & b > c;", "x = c < a & b;");
}

Test(plag_norm, for_and_while_are_one_loop)
{
	ALL_SAME("for (i = 0; i < n; i++) { if (p[i]) continue; s += p[i]; }",
		 "i = 0; while (i < n) { if (p[i]) { i++; continue; } s += p[i]; i++; }",
		 "i = 0; while (n > i) { if (p[i]) { ++i; continue; } s = s + p[i]; i += 1; }");
	ALL_SAME("for (int i = 0; i < n; ++i) s += p[i];",
		 "int i = 0; while (i < n) { s += p[i]; i = i + 1; }");
	ALL_SAME("for (;;) g();", "while (1) g();", "while (1) { g(); }");
	ALL_SAME("while (c) g();", "for (; c;) g();", "if (c) do g(); while (c);",
		 "if (c) { do { g(); } while (c); }");
	/* A continue of an inner while does not get the outer step. */
	ALL_SAME("for (i = 0; i < n; i++) while (g()) continue;",
		 "i = 0; while (i < n) { while (g()) { continue; } i++; }");
	expect_different_codes("for (i = 0; i < n; i++) g();", "for (i = 0; i < n; i += 2) g();");
	expect_different_codes("if (c) do g(); while (d);", "while (c) g();");
}

Test(plag_norm, bodies_are_braced_and_if_chains_sorted)
{
	ALL_SAME("if (c) f(); else g();", "if (c) { f(); } else { g(); }");
	ALL_SAME("if (v == 1) { f(); } else if (v == 2) { x = 1; } else { g(); }",
		 "if (v == 2) x = 1; else if (v == 1) f(); else g();");
	ALL_SAME("if (v == 1) f(); else if (v == 2) { if (w == 3) x = 1; else if (w == 4) "
		 "x += 2; } else if (v == 3) g();",
		 "if (v == 3) g(); else if (v == 2) { if (w == 4) x += 2; else if (w == 3) "
		 "x = 1; } else if (v == 1) f();");
	/* The plain else stays last: swapping it with an arm is another program. */
	expect_different_codes("if (v == 1) { f(); } else { x = 1; }",
			       "if (v == 1) { x = 1; } else { f(); }");
}

/* Malformed code is left as it is, never lost or read past. */
Test(plag_norm, malformed_code_is_kept_as_it_is)
{
	static const char *const bad[] = {
		"void f(void) { if (a) x(); else if (b",
		"void f(void) { if (a) x(); else if (b) { y(); else if (c) z();",
		"void f(void) { for (i = 0; i < n i++) { continue; }",
		"void f(void) { for (;;",
		"void f(void) { do x++; while (c",
		"void f(void) { if (c) do { g(); } while (d",
		"void f(void) { x = a > ; y = > b; z = (((a); }",
		"int a, , b; int = 1, 2;",
		"} } ) ) else else if if ( ( { {",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct plag_tokens t = tokens_of(bad[i]);
		cr_expect_gt(t.n, 0, "%s", bad[i]);
		plag_tokens_free(&t);
	}
	/* A chain whose last condition never closes keeps all its tokens. */
	expect_tokens("if (a) x(); else if (b",
		      "if ( ID ) { ID ( ) ; } else if ( ID");
}

Test(plag_norm, equivalent_files_have_the_same_fingerprints)
{
	static const char a[] =
		"int best(const int *v, int n) {\n"
		"\tint b = -1, at = 0;\n"
		"\tfor (int i = 0; i < n; i++) {\n"
		"\t\tif (v[i] <= b)\n\t\t\tcontinue;\n"
		"\t\tb = v[i];\n\t\tat = i;\n\t}\n"
		"\tif (at == 0) return 1; else if (at == 1) return 2; else return b;\n}\n";
	static const char b[] =
		"int top(const int *arr, int count) {\n"
		"\tint high = -1, where = 0;\n"
		"\tint k = 0;\n"
		"\twhile (count > k) {\n"
		"\t\tif (high >= arr[k]) { k = k + 1; continue; }\n"
		"\t\thigh = arr[k];\n\t\twhere = k;\n\t\tk += 1;\n\t}\n"
		"\tif (where == 1) { return (2); }\n\telse if (where == 0) { return (1); }\n"
		"\telse { return high; }\n}\n";
	struct plag_fps fa = winnow_src(a), fb = winnow_src(b);
	cr_assert_gt(fa.n, 2);
	cr_assert_eq(fa.n, fb.n);
	for (size_t i = 0; i < fa.n; i++)
		cr_expect_eq(fa.v[i].hash, fb.v[i].hash, "fingerprint %zu differs", i);
	plag_fps_free(&fa);
	plag_fps_free(&fb);
	/* A different program (a minimum, counted down) keeps other fingerprints. */
	static const char c[] =
		"int best(const int *v, int n) {\n"
		"\tint b = -1, at = 0;\n"
		"\tfor (int i = n; i > 0; i--) {\n"
		"\t\tif (v[i] >= b)\n\t\t\tbreak;\n"
		"\t\tb = v[i];\n\t\tat -= i;\n\t}\n"
		"\treturn at == 0 ? b : 2;\n}\n";
	fa = winnow_src(a);
	struct plag_fps fc = winnow_src(c);
	struct plag_pair pair;
	cr_assert_eq(plag_compare(&fa, &fc, NULL, 1, &pair, NULL), PLAG_OK);
	cr_expect_lt(pair.a_in_b, 0.5, "a different program shares %.0f%%", pair.a_in_b * 100);
	plag_fps_free(&fa);
	plag_fps_free(&fc);
}

Test(plag_tokens, string_and_char_literals_are_one_class)
{
	expect_tokens("c = 'a' + L'b' + u'\\'' + '\\n';", "ID = STR + STR + STR + STR ;");
	expect_tokens("s = \"a\\\"b\"; t = u8\"x\"; w = L\"y\";",
		      "ID = STR ; ID = STR ; ID = STR ;");
	/* Adjacent literals are one literal: splitting a string is free. */
	expect_tokens("printf(\"a\" \"b\"\n \"c\", 'x', 'y');", "ID ( STR , STR , STR ) ;");
	expect_same_codes("puts(\"hello world\");", "puts(\"hello \" \"world\");");
}

Test(plag_tokens, comments_and_layout_are_ignored)
{
	expect_tokens("int/*c*/a=1;//x\n", "int ID = NUM ;");
	expect_tokens("// line comment \\\n continued\nint y; /* multi\n line */ int z;",
		      "int ID ; int ID ;");
	expect_same_codes("int f(int a){if(a>0){return a*2;}else{return -a;}}",
			  "/* doc */\nint\nf (int a)\n{\n\tif (a > 0) {\n\t\treturn a * 2;"
			  "  // twice\n\t} else {\n\t\treturn - a;\n\t}\n}\n");
	/* Backslash-newline splices vanish wherever they are, also with blanks
	 * before the newline (GCC accepts that too). */
	expect_tokens("int \\\n x;", "int ID ;");
	expect_same_codes("return count;", "re\\\ntu\\  \nrn co\\\nunt;");
	struct plag_tokens t = tokens_of("a\\\nb c\nd");
	cr_assert_eq(t.n, 3);
	cr_expect_eq(t.v[0].line, 1);
	cr_expect_eq(t.v[1].line, 2);
	cr_expect_eq(t.v[2].line, 3);
	plag_tokens_free(&t);
}

Test(plag_tokens, punctuators_and_digraphs)
{
	expect_tokens("a <<= b >>= c; d->e...; f <: 0 :> <% %> && || != == ^= |= ? : ~ ! %",
		      "ID <<= ID >>= ID ; ID -> ID ... ; ID [ NUM ] { } && || != == ^= |= ? : "
		      "~ ! %");
	expect_tokens("a+++++b", "ID ++ ++ + ID");
	expect_tokens("x = y @ z ` w;", "ID = ID OTHER ID OTHER ID ;");
}

Test(plag_tokens, keyword_synonyms_share_a_code)
{
	expect_tokens("_Bool b; __inline__ int f(void); __typeof__(b) c; _Static_assert(1, \"\");",
		      "bool ID ; inline int ID ( void ) ; typeof ( ID ) ID ; "
		      "static_assert ( NUM , STR ) ;");
	expect_same_codes("bool ok = true;", "_Bool ok = true;");
	expect_tokens("_Bool _Alignas _Alignof __alignof__ _Static_assert _Thread_local __asm__ "
		      "__asm __inline__ __inline __typeof__ __typeof __restrict__ __restrict "
		      "__volatile__ __const __signed__ __attribute",
		      "bool alignas alignof alignof static_assert thread_local asm asm inline "
		      "inline typeof typeof restrict restrict volatile const signed __attribute__");
	cr_expect_str_eq(plag_tok_name(PLAG_TOK_KEYWORD), "auto");
	cr_expect_str_eq(plag_tok_name(PLAG_TOK_PUNCT), "[");
	cr_expect_str_eq(plag_tok_name(0), "<invalid>");
	cr_expect_str_eq(plag_tok_name(PLAG_TOK_PUNCT + 1000), "<invalid>");
	cr_expect_str_eq(plag_tok_name(PLAG_TOK_KEYWORD + 100), "<invalid>");
}

Test(plag_tokens, identifiers_may_hold_dollar_and_utf8)
{
	expect_tokens("int caf\xc3\xa9 = 1; int $x;", "int ID = NUM ; int ID ;");
	/* A byte order mark is not a token. */
	expect_tokens("\xef\xbb\xbfint x;", "int ID ;");
}

Test(plag_tokens, each_token_keeps_its_line)
{
	const char *src = "int a;\n"                 /* 1 */
			  "\n"                        /* 2 */
			  "/* x\n"                    /* 3 */
			  " y */ int b;\n"            /* 4 */
			  "#define M 1 + \\\n"        /* 5 */
			  " 2\n"                      /* 6 */
			  "int c = M;\n"              /* 7 */
			  "s = \"ab\\\n"              /* 8 */
			  "cd\"; d;\n";               /* 9 */
	uint32_t want[] = { 1, 1, 1, 4, 4, 4, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 9, 9, 9 };
	struct plag_tokens t = tokens_of(src);
	cr_assert_eq(t.n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < t.n; i++)
		cr_expect_eq(t.v[i].line, want[i], "token %zu (%s): line %u, want %u", i,
			     plag_tok_name(t.v[i].code), t.v[i].line, want[i]);
	plag_tokens_free(&t);
}

Test(plag_tokens, includes_and_other_directives_are_dropped)
{
	struct plag_tokens t = tokens_of("#include <stdio.h>\n#include \"it's.h\"\n"
					 "#pragma once\n#line 40\n#\n#error don't\n"
					 "# 1 \"file.c\"\n  #  include <x.h>\nint x;");
	char *r = render(&t);
	cr_expect_str_eq(r, "int ID ;");
	cr_expect_eq(t.v[0].line, 9);
	free(r);
	plag_tokens_free(&t);
	/* A '#' in the middle of a line is no directive. */
	expect_tokens("a # b;", "ID # ID ;");
}

Test(plag_tokens, unterminated_literal_ends_at_its_line)
{
	expect_tokens("char *s = \"abc\nint x;", "char * ID = STR int ID ;");
}

/* ---- macros ------------------------------------------------------------- */

Test(plag_macro, object_like)
{
	expect_tokens("#define N 10\n#define LOOP for (;;)\nint a[N]; LOOP {}",
		      "int ID [ NUM ] ; while ( NUM ) { }");
	expect_tokens("#define EMPTY\nint EMPTY x EMPTY;", "int ID ;");
	/* Space before '(' in the definition: object-like. */
	expect_tokens("#define F (x)\nF(1)", "ID ( NUM )");
	expect_same_codes("#define F (x)\nF(1)", "(x)(1)");
}

Test(plag_macro, function_like)
{
	expect_tokens("#define SQ(x) ((x) * (x))\nint y = SQ(a + 1);",
		      "int ID = ( ID + NUM ) * ( ID + NUM ) ;");
	expect_same_codes("#define SQ(x) ((x) * (x))\nint y = SQ(a + 1);",
			  "int y = ((a + 1) * (a + 1));");
	expect_tokens("#define F(a, b) a - b\nF((x, y), f(1, 2));",
		      "( ID , ID ) - ID ( NUM , NUM ) ;");
	expect_tokens("#define Z() 0\n#define ONE(x) [x]\nZ() + ONE();", "NUM + [ ] ;");
	/* Arguments may span lines; the expansion is on the line of the name. */
	struct plag_tokens t = tokens_of("#define ADD(a, b) a + b\nz = ADD(x,\n y);");
	cr_assert_eq(t.n, 6);
	for (size_t i = 0; i < 5; i++)
		cr_expect_eq(t.v[i].line, 2);
	cr_expect_eq(t.v[5].line, 3);
	plag_tokens_free(&t);
}

Test(plag_macro, function_like_name_without_call_is_a_name)
{
	expect_tokens("#define F(x) x + 1\nint F; g(F);", "int ID ; ID ( ID ) ;");
}

Test(plag_macro, nested_calls_expand_arguments_first)
{
	expect_same_codes("#define SQ(x) ((x)*(x))\nv = SQ(SQ(a));",
			  "v = ((((a)*(a)))*(((a)*(a))));");
	expect_same_codes("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nm = MAX(x, MAX(y, z));",
			  "m = ((x) > (((y) > (z) ? (y) : (z))) ? (x) : (((y) > (z) ? (y) : (z))));");
	/* A macro naming another one, called with arguments found later. */
	expect_tokens("#define G(x) <x>\n#define H G\nH(1);", "< NUM > ;");
}

Test(plag_macro, variadic)
{
	expect_tokens("#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)\nLOG(\"%d %d\", a, b);",
		      "ID ( STR , ID , ID ) ;");
	expect_tokens("#define V(...) g(__VA_ARGS__)\nV(); V(1, (2, 3));",
		      "ID ( ) ; ID ( NUM , ( NUM , NUM ) ) ;");
	expect_tokens("#define W(a, ...) a\nW(1);", "NUM ;");
	expect_tokens("#define N(args...) f(args)\nN(1, 2);", "ID ( NUM , NUM ) ;");
	/* GNU: ", ## __VA_ARGS__" drops the comma when nothing follows. */
	expect_tokens("#define P(fmt, ...) printf(fmt, ## __VA_ARGS__)\nP(\"x\"); P(\"%d\", 1);",
		      "ID ( STR ) ; ID ( STR , NUM ) ;");
}

Test(plag_macro, stringize_and_paste)
{
	expect_tokens("#define S(x) #x\ns = S(a + b);", "ID = STR ;");
	expect_tokens("#define CAT(a, b) a ## b\nCAT(in, t) v = CAT(+, =) CAT(x, 1);",
		      "int ID = += ID ;");
	/* A pasted name is a macro name like any other. */
	expect_tokens("#define AB 42\n#define CAT(a, b) a##b\nx = CAT(A, B);", "ID = NUM ;");
	/* An empty argument next to ## leaves the other side alone. */
	expect_tokens("#define CAT(a, b) a##b\nCAT(, y) CAT(x, );", "ID ID ;");
	/* An invalid paste keeps both tokens. */
	expect_tokens("#define CAT(a, b) a##b\nCAT(+, x);", "+ ID ;");
}

/* The examples of C17 6.10.3.5; the expected streams are what gcc -E
 * makes of them, normalised. */
Test(plag_macro, examples_of_the_c_standard)
{
	expect_tokens("#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n"
		      "#define z z[0]\n#define h g(~\n#define m(a) a(w)\n#define w 0,1\n"
		      "#define t(a) a\n#define p() int\n#define q(x) x\n#define r(x,y) x ## y\n"
		      "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n"
		      "g(x+(3,4)-w) | h 5) & m(f)^m(m);\n"
		      "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n",
		      "ID ( NUM * ( ID + NUM ) ) + ID ( NUM * ID ( NUM * ID [ NUM ] ) ) % "
		      "ID ( NUM * NUM ) + ID ( NUM ) ; "
		      "ID ( NUM * ( NUM + ( NUM , NUM ) - NUM , NUM ) ) | ID ( NUM * ~ NUM ) & "
		      "ID ( NUM * ( NUM , NUM ) ) ^ ID ( NUM , NUM ) ; "
		      "int ID [ ] = { NUM , NUM , NUM , NUM , } ;");
	/* The same as the standard's expansion written out (needless
	 * parentheses go in both). */
	expect_same_codes("#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n"
			  "#define z z[0]\n#define h g(~\n#define m(a) a(w)\n#define w 0,1\n"
			  "#define t(a) a\n#define p() int\n#define q(x) x\n#define r(x,y) x ## y\n"
			  "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n"
			  "g(x+(3,4)-w) | h 5) & m(f)^m(m);\n"
			  "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n",
			  "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);\n"
			  "f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);\n"
			  "int i[] = { 1, 23, 4, 5, };\n");
	expect_tokens("#define hash_hash # ## #\n#define mkstr(a) # a\n"
		      "#define in_between(a) mkstr(a)\n#define join(c, d) in_between(c hash_hash d)\n"
		      "char p[] = join(x, y);",
		      "char ID [ ] = STR ;");
	expect_tokens("#define t(x,y,z) x ## y ## z\n"
		      "int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,), t(10,,), t(,11,), t(,,12), "
		      "t(,,) };",
		      "int ID [ ] = { NUM , NUM , NUM , NUM , NUM , NUM , NUM , } ;");
}

Test(plag_macro, undef_redefine_and_order)
{
	expect_tokens("a = N;\n#define N 1\nb = N;\n#undef N\nc = N;\n#define N \"s\"\nd = N;",
		      "ID = ID ; ID = NUM ; ID = ID ; ID = STR ;");
	expect_tokens("#define int long\nint x;", "long ID ;");
}

Test(plag_macro, hiding_code_in_macros_does_not_help)
{
	expect_same_codes("int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += i * i; "
			  "return s; }",
			  "#define BEGIN {\n#define END }\n"
			  "#define FOR(v, n) for (int v = 0; v < n; v++)\n"
			  "#define SQ(x) x * x\n#define RET(x) return x;\n"
			  "int main(void) BEGIN int s = 0; FOR(i, 10) s += SQ(i); RET(s) END");
}

Test(plag_macro, self_reference_stops)
{
	expect_tokens("#define A A + 1\nx = A;", "ID = ID + NUM ;");
	expect_tokens("#define A B\n#define B A\nx = A; y = B;", "ID = ID ; ID = ID ;");
	expect_tokens("#define f(x) f(x + 1)\nf(2);", "ID ( NUM + NUM ) ;");
	expect_tokens("#define f(x) x f\nf(1)(2);", "NUM ID ( NUM ) ;");
	/* Standard C: the argument is expanded before f is disabled. */
	expect_tokens("#define f(x) [x]\nf(f(1));", "[ [ NUM ] ] ;");
}

Test(plag_macro, deep_nesting_is_an_error)
{
	struct gen_text src = { 0 };
	gen_printf(&src, "#define M0 x\n");
	for (int i = 1; i <= 200; i++)
		gen_printf(&src, "#define M%d M%d y\n", i, i - 1);
	gen_printf(&src, "M200;\n");
	expect_error_lim(src.s, src.n, NULL, PLAG_E_MACRO_DEPTH, "nested deeper than 128");

	struct plag_tok_limits lim;
	plag_tok_limits_default(&lim);
	lim.max_depth = 250;
	struct plag_tokens t;
	err_t err;
	cr_assert_eq(plag_tokenize(src.s, src.n, &lim, &t, err), PLAG_OK, "%s", err->msg);
	cr_expect_eq(t.n, 202); /* x, 200 y, ; */
	plag_tokens_free(&t);
	free(src.s);
}

Test(plag_macro, deeply_nested_arguments_are_an_error)
{
	struct gen_text src = { 0 };
	gen_printf(&src, "#define f(x) x\n");
	for (int i = 0; i < 300; i++)
		gen_printf(&src, "f(");
	gen_printf(&src, "1");
	for (int i = 0; i < 300; i++)
		gen_printf(&src, ")");
	gen_printf(&src, ";\n");
	expect_error_lim(src.s, src.n, NULL, PLAG_E_MACRO_DEPTH, "nested deeper");
	free(src.s);
}

Test(plag_macro, expansion_bombs_are_stopped, .timeout = 20)
{
	struct gen_text src = { 0 };
	gen_printf(&src, "#define A0 x x\n");
	for (int i = 1; i <= 40; i++)
		gen_printf(&src, "#define A%d A%d A%d\n", i, i - 1, i - 1);
	gen_printf(&src, "A40;\n");
	expect_error_lim(src.s, src.n, NULL, PLAG_E_TOO_MANY, "tokens");
	free(src.s);

	expect_error("#define D(x) x x x x x x x x\nD(D(D(D(D(D(D(D(D(1)))))))));",
		     PLAG_E_TOO_MANY, "macro expansion makes more than");

	/* Pasting long names again and again. */
	struct gen_text p = { 0 };
	gen_printf(&p, "#define C(a, b) a##b\n#define L ");
	for (int i = 0; i < 100000; i++)
		gen_printf(&p, "n");
	gen_printf(&p, "\n#define R(a) C(a, x)\n#define T(a) R(a) R(a) R(a) R(a) R(a) R(a) R(a) R(a)\n"
		     "#define U(a) T(a) T(a) T(a) T(a) T(a) T(a) T(a) T(a)\n"
		     "U(L) U(L) U(L) U(L) U(L) U(L) U(L) U(L)\n");
	expect_error_lim(p.s, p.n, NULL, PLAG_E_TOO_MANY, "pasting");
	free(p.s);
}

Test(plag_macro, token_limit_applies)
{
	struct plag_tok_limits lim;
	plag_tok_limits_default(&lim);
	lim.max_tokens = 100;
	struct gen_text src = { 0 };
	for (int i = 0; i < 50; i++)
		gen_printf(&src, "a;");
	struct plag_tokens t;
	err_t err;
	cr_expect_eq(plag_tokenize(src.s, src.n, &lim, &t, err), PLAG_OK, "%s", err->msg);
	plag_tokens_free(&t);
	gen_printf(&src, "b");
	expect_error_lim(src.s, src.n, &lim, PLAG_E_TOO_MANY, "more than 100 tokens");
	free(src.s);
}

Test(plag_macro, conditionals)
{
	expect_tokens("#if 0\nhidden junk (\n#define N 5\n#else\nint a;\n#endif\n"
		      "#ifdef X\nint b;\n#else\nint c;\n#endif\n"
		      "#if 1\nint d;\n#elif 1\nnever;\n#else\nnever;\n#endif\n"
		      "#if 0\n#if 1\nnever;\n#endif\nnever;\n#elif 0\nnever;\n#elif SOMETHING\n"
		      "int e;\n#endif\n"
		      "N;",
		      "int ID ; int ID ; int ID ; int ID ; int ID ; ID ;");
	/* Include guards: both the guard and the code stay. */
	expect_tokens("#ifndef G_H\n#define G_H\nint g;\n#endif\n", "int ID ;");
}

Test(plag_macro, malformed_directives_and_calls)
{
	expect_error("int a;\n#endif\n", PLAG_E_SYNTAX, "without #if (line 2)");
	expect_error("#if X\nint a;\n", PLAG_E_SYNTAX, "#if at line 1 has no #endif");
	expect_error("#define\nint a;", PLAG_E_SYNTAX, "without a macro name (line 1)");
	expect_error("#define 3 4\n", PLAG_E_SYNTAX, "without a macro name");
	expect_error("#undef\n", PLAG_E_SYNTAX, "#undef without a macro name");
	expect_error("#define F(a, a) a\n", PLAG_E_SYNTAX, "repeated parameter");
	expect_error("#define F(a b) a\n", PLAG_E_SYNTAX, "bad parameter list");
	expect_error("#define F(a,\n", PLAG_E_SYNTAX, "bad parameter list");
	expect_error("#define F(a) a\n\nF(1, 2);", PLAG_E_SYNTAX,
		     "macro F takes 1 argument(s), not 2 (line 3)");
	expect_error("#define F(a, b) a\nF(1);", PLAG_E_SYNTAX, "takes 2 argument(s), not 1");
	expect_error("#define F(a) a\nF(1;", PLAG_E_SYNTAX, "unterminated call of macro F (line 2)");
	expect_error("int x; /* never closed\n", PLAG_E_SYNTAX, "unterminated comment");
}

/* ---- bad input ---------------------------------------------------------- */

Test(plag_input, empty)
{
	expect_error_lim("", 0, NULL, PLAG_E_EMPTY, "empty source");
	expect_error("  \n// only a comment\n/* and another */\n", PLAG_E_EMPTY, "no C tokens");
	expect_error("#include <stdio.h>\n#define X 1\n", PLAG_E_EMPTY, "no C tokens");
	expect_error("#define E\nE E\n", PLAG_E_EMPTY, "no C tokens");
}

Test(plag_input, binary)
{
	expect_error_lim("int\0x;", 6, NULL, PLAG_E_BINARY, "byte 0x00 at offset 3 (line 1)");
	expect_error("int x;\n\x01\x02", PLAG_E_BINARY, "byte 0x01 at offset 7 (line 2)");
	expect_error("\x7f" "ELF", PLAG_E_BINARY, "byte 0x7f");
}

Test(plag_input, huge)
{
	size_t len = PLAG_MAX_BYTES_DEFAULT;
	char *src = malloc(len + 1);
	cr_assert_not_null(src);
	for (size_t i = 0; i < len + 1; i++)
		src[i] = "a;\n"[i % 3];
	/* At the limit: fine. */
	struct plag_tokens t;
	err_t err;
	cr_expect_eq(plag_tokenize(src, len, NULL, &t, err), PLAG_OK, "%s", err->msg);
	plag_tokens_free(&t);
	expect_error_lim(src, len + 1, NULL, PLAG_E_TOO_BIG, "over the limit of 1048576");
	free(src);
}

Test(plag_input, bad_arguments)
{
	struct plag_tokens t;
	err_t err;
	cr_expect_eq(plag_tokenize(NULL, 3, NULL, &t, err), PLAG_E_PARAM);
	cr_expect_eq(plag_tokenize("x;", 2, NULL, NULL, err), PLAG_E_PARAM);
	struct plag_tok_limits lim;
	plag_tok_limits_default(&lim);
	lim.max_depth = 0;
	expect_error_lim("x;", 2, &lim, PLAG_E_PARAM, "limits out of range");
	plag_tok_limits_default(&lim);
	lim.max_bytes = (size_t)PLAG_MAX_BYTES_CAP + 1;
	expect_error_lim("x;", 2, &lim, PLAG_E_PARAM, "limits out of range");
	/* No error buffer: still an error code, no crash. */
	cr_expect_eq(plag_tokenize("", 0, NULL, &t, NULL), PLAG_E_EMPTY);
}

/* ---- winnowing ---------------------------------------------------------- */

/* The paper's definition, literally: every window's rightmost minimum,
 * recorded when it differs from the previous window's choice. */
static size_t naive_winnow(const struct plag_token *t, size_t n, unsigned k, unsigned w,
			   uint32_t *pos)
{
	if (n < k)
		return 0;
	size_t nk = n - k + 1, windows = nk >= w ? nk - w + 1 : 1, span = nk >= w ? w : nk;
	size_t count = 0;
	for (size_t s = 0; s < windows; s++) {
		size_t best = s;
		for (size_t i = s; i < s + span; i++)
			if (plag_kgram_hash(t + i, k) <= plag_kgram_hash(t + best, k))
				best = i;
		if (count == 0 || pos[count - 1] != best)
			pos[count++] = (uint32_t)best;
	}
	return count;
}

Test(plag_winnow, bad_parameters)
{
	struct plag_token t[4] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 } };
	struct plag_fps f;
	err_t err;
	cr_expect_eq(plag_winnow(t, 4, 0, 4, &f, err), PLAG_E_PARAM);
	cr_expect_eq(plag_winnow(t, 4, 2, 0, &f, err), PLAG_E_PARAM);
	cr_expect_eq(plag_winnow(t, 4, PLAG_K_MAX + 1, 4, &f, err), PLAG_E_PARAM);
	cr_expect_eq(plag_winnow(t, 4, 2, PLAG_W_MAX + 1, &f, err), PLAG_E_PARAM);
	cr_expect_eq(plag_winnow(NULL, 4, 2, 2, &f, err), PLAG_E_PARAM);
	cr_expect_eq(plag_winnow(t, 4, 2, 2, NULL, err), PLAG_E_PARAM);
}

Test(plag_winnow, short_streams)
{
	struct plag_token t[5] = { { 7, 1 }, { 8, 2 }, { 9, 3 }, { 7, 4 }, { 8, 5 } };
	struct plag_fps f = winnow(t, 2, 3, 4);
	cr_expect_eq(f.n, 0);
	cr_expect_eq(f.ntokens, 2);
	plag_fps_free(&f);
	f = winnow(t, 3, 3, 4);
	cr_assert_eq(f.n, 1);
	cr_expect_eq(f.v[0].tok, 0);
	cr_expect_eq(f.v[0].hash, plag_kgram_hash(t, 3));
	cr_expect_eq(f.v[0].first_line, 1);
	cr_expect_eq(f.v[0].last_line, 3);
	plag_fps_free(&f);
	/* Three k-grams, window 4: one window, its minimum. */
	f = winnow(t, 5, 3, 4);
	cr_assert_eq(f.n, 1);
	uint32_t pos[8];
	cr_expect_eq(naive_winnow(t, 5, 3, 4, pos), 1);
	cr_expect_eq(f.v[0].tok, pos[0]);
	plag_fps_free(&f);
	f = winnow(t, 0, 3, 4);
	cr_expect_eq(f.n, 0);
	plag_fps_free(&f);
}

Test(plag_winnow, hash_is_fixed_and_depends_only_on_codes_in_order)
{
	struct plag_token t[12], u[12];
	for (uint32_t i = 0; i < 12; i++) {
		t[i] = (struct plag_token){ .code = PLAG_TOK_IDENT + i, .line = i + 1 };
		u[i] = (struct plag_token){ .code = PLAG_TOK_IDENT + i, .line = 1000 };
	}
	/* Pinned: stored fingerprints stay comparable across builds; change
	 * this value only together with PLAG_HASH_VERSION. */
	cr_expect_eq(plag_kgram_hash(t, 12), 0xe51f17d4022944a9ULL, "hash is now 0x%016llx",
		     (unsigned long long)plag_kgram_hash(t, 12));
	cr_expect_eq(PLAG_HASH_VERSION, 2);
	cr_expect_eq(plag_kgram_hash(t, 12), plag_kgram_hash(u, 12));
	u[3].code = t[4].code;
	u[4].code = t[3].code;
	cr_expect_neq(plag_kgram_hash(t, 12), plag_kgram_hash(u, 12));
	cr_expect_neq(plag_kgram_hash(t, 11), plag_kgram_hash(t, 12));
}

Test(plag_winnow, selection_matches_the_definition)
{
	static struct plag_token t[400];
	uint32_t pos[400];
	for (uint64_t seed = 1; seed <= 300; seed++) {
		uint64_t rng = seed;
		size_t n = 1 + rng_below(&rng, 399);
		unsigned k = 1 + rng_below(&rng, 15), w = 1 + rng_below(&rng, 12);
		/* Small alphabets give repeated k-grams, hence ties. */
		uint32_t alphabet = seed % 3 == 0 ? 2 : seed % 3 == 1 ? 5 : 500;
		random_tokens(t, 0, n, alphabet, &rng);
		number_lines(t, n);
		struct plag_fps f = winnow(t, n, k, w);
		size_t want = naive_winnow(t, n, k, w, pos);
		cr_assert_eq(f.n, want, "seed %llu: %zu fingerprints, want %zu",
			     (unsigned long long)seed, f.n, want);
		for (size_t i = 0; i < want; i++) {
			cr_assert_eq(f.v[i].tok, pos[i], "seed %llu fp %zu",
				     (unsigned long long)seed, i);
			cr_assert_eq(f.v[i].hash, plag_kgram_hash(t + pos[i], k));
			cr_assert_eq(f.v[i].first_line, pos[i] + 1);
			cr_assert_eq(f.v[i].last_line, pos[i] + k);
		}
		plag_fps_free(&f);
	}
}

Test(plag_winnow, every_window_holds_a_fingerprint)
{
	static struct plag_token t[2000];
	for (uint64_t seed = 1; seed <= 200; seed++) {
		uint64_t rng = seed * 7919;
		size_t n = 50 + rng_below(&rng, 1950);
		unsigned k = 1 + rng_below(&rng, 20), w = 1 + rng_below(&rng, 20);
		random_tokens(t, 0, n, seed % 2 ? 3 : 1000, &rng);
		struct plag_fps f = winnow(t, n, k, w);
		size_t nk = n - k + 1;
		cr_assert_gt(f.n, 0);
		cr_assert_lt(f.v[0].tok, w);
		cr_assert_geq(f.v[f.n - 1].tok + w, nk);
		for (size_t i = 1; i < f.n; i++) {
			cr_assert_gt(f.v[i].tok, f.v[i - 1].tok);
			cr_assert_leq(f.v[i].tok - f.v[i - 1].tok, w, "seed %llu",
				      (unsigned long long)seed);
		}
		plag_fps_free(&f);
	}
}

/* The guarantee: a shared run of w + k - 1 tokens anywhere in two
 * otherwise unrelated streams gives a shared fingerprint. */
Test(plag_winnow, shared_run_of_w_plus_k_minus_1_gives_a_shared_fingerprint)
{
	static struct plag_token a[1200], b[1200];
	for (uint64_t seed = 1; seed <= 2000; seed++) {
		uint64_t rng = seed * 104729;
		unsigned k = 1 + rng_below(&rng, 30), w = 1 + rng_below(&rng, 30);
		size_t run = w + k - 1;
		size_t pa = rng_below(&rng, 300), qa = rng_below(&rng, 300);
		size_t pb = rng_below(&rng, 300), qb = rng_below(&rng, 300);
		if (seed % 5 == 0)
			pa = 0; /* at the start of one, at the end of the other */
		if (seed % 5 == 0)
			qb = 0;
		uint32_t alphabet = seed % 4 == 0 ? 4 : 1 << 20;
		random_tokens(a, 0, pa, alphabet, &rng);
		random_tokens(a, pa, run, alphabet, &rng);
		random_tokens(a, pa + run, qa, alphabet, &rng);
		random_tokens(b, 0, pb, alphabet, &rng);
		memcpy(b + pb, a + pa, run * sizeof *a);
		random_tokens(b, pb + run, qb, alphabet, &rng);
		struct plag_fps fa = winnow(a, pa + run + qa, k, w);
		struct plag_fps fb = winnow(b, pb + run + qb, k, w);
		cr_assert(share_a_hash(&fa, &fb), "seed %llu: k=%u w=%u, run at %zu and %zu",
			  (unsigned long long)seed, k, w, pa, pb);
		plag_fps_free(&fa);
		plag_fps_free(&fb);
	}
}

Test(plag_winnow, renamed_and_reformatted_copies_give_identical_fingerprints)
{
	const char *orig =
		"int best_move(const int *board, int n)\n{\n"
		"\tint best = -1, score = -1000; /* the best so far */\n"
		"\tfor (int i = 0; i < n; i++) {\n"
		"\t\tif (board[i] != 0)\n\t\t\tcontinue;\n"
		"\t\tint s = value(board, i) * 3 + 7;\n"
		"\t\tif (s > score) {\n\t\t\tscore = s;\n\t\t\tbest = i;\n\t\t}\n\t}\n"
		"\treturn best;\n}\n";
	const char *copy =
		"// my own work\nint pick(const int *b, int len) {\n"
		"  int res = -1, top = -99; for (int j = 0; j < len; j++) { if (b[j] != 0) continue;"
		" int v = eval(b, j) * 5 + 2;\n  if (v > top) { top = v; res = j; } }\n"
		"  return res; }\n";
	struct plag_fps fa = winnow_src(orig), fb = winnow_src(copy);
	cr_assert_gt(fa.n, 3);
	cr_assert_eq(fa.n, fb.n);
	cr_expect_eq(fa.ntokens, fb.ntokens);
	bool lines_differ = false;
	for (size_t i = 0; i < fa.n; i++) {
		cr_expect_eq(fa.v[i].hash, fb.v[i].hash, "fingerprint %zu", i);
		cr_expect_eq(fa.v[i].tok, fb.v[i].tok, "fingerprint %zu", i);
		lines_differ |= fa.v[i].first_line != fb.v[i].first_line;
	}
	cr_expect(lines_differ, "the copy is laid out differently");
	plag_fps_free(&fa);
	plag_fps_free(&fb);
}

Test(plag_winnow, fingerprints_carry_their_lines)
{
	/* One token per line except "x = 1 ;" on line 5. */
	const char *src = "a\n=\nb\n;\nx = 1 ;\nc\n(\n)\n;\n";
	struct plag_tokens t = tokens_of(src);
	cr_assert_eq(t.n, 12);
	struct plag_fps f = winnow(t.v, t.n, 3, 1); /* w = 1: every k-gram */
	cr_assert_eq(f.n, 10);
	uint32_t first[10] = { 1, 2, 3, 4, 5, 5, 5, 5, 6, 7 };
	uint32_t last[10] = { 3, 4, 5, 5, 5, 5, 6, 7, 8, 9 };
	for (size_t i = 0; i < f.n; i++) {
		cr_expect_eq(f.v[i].tok, i);
		cr_expect_eq(f.v[i].first_line, first[i], "fp %zu", i);
		cr_expect_eq(f.v[i].last_line, last[i], "fp %zu", i);
	}
	plag_fps_free(&f);
	plag_tokens_free(&t);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (const unsigned char *b = p; n--; b++)
		h = (h ^ *b) * 0x100000001b3ULL;
	return h;
}

/* Stored fingerprints of earlier years are compared with new ones: a change
 * to the tokenizer (or the lexer under it) that moves any token, line or
 * fingerprint of a real player must bump PLAG_HASH_VERSION. */
Test(plag_winnow, fingerprints_of_benchmark_players_are_fixed)
{
	static const struct {
		const char *file;
		size_t ntokens;
		uint64_t tokens, fps;
	} players[] = {
		{ "bench/plag/players/AIAlder.c", 1993, 0x9acd1327214d418dULL, 0xf9df4fc0eb1589cdULL },
		{ "bench/plag/players/AIBirch.c", 1507, 0xd1b39d9236357a82ULL, 0x10243adba50f12caULL },
	};
	for (size_t k = 0; k < sizeof players / sizeof *players; k++) {
		size_t len;
		char *src = gt_slurp(players[k].file, &len);
		cr_assert_not_null(src, "%s", players[k].file);
		struct plag_tokens t = tokens_of(src);
		uint64_t th = 0xcbf29ce484222325ULL, fh = th;
		for (size_t i = 0; i < t.n; i++)
			th = fnv(fnv(th, &t.v[i].code, 4), &t.v[i].line, 4);
		struct plag_fps f = winnow(t.v, t.n, 14, 6);
		for (size_t i = 0; i < f.n; i++) {
			fh = fnv(fnv(fh, &f.v[i].hash, 8), &f.v[i].tok, 4);
			fh = fnv(fnv(fh, &f.v[i].first_line, 4), &f.v[i].last_line, 4);
		}
		cr_expect_eq(t.n, players[k].ntokens, "%s: %zu tokens", players[k].file, t.n);
		cr_expect_eq(th, players[k].tokens, "%s: tokens now 0x%016llx", players[k].file,
			     (unsigned long long)th);
		cr_expect_eq(fh, players[k].fps, "%s: fingerprints now 0x%016llx", players[k].file,
			     (unsigned long long)fh);
		plag_fps_free(&f);
		plag_tokens_free(&t);
		free(src);
	}
}

/* ---- base exclusion ----------------------------------------------------- */

/* What the course ships: every player starts from this. */
static const char *const GAME_HEADER =
	"#define ROWS 8\n#define COLS 8\n#define MAX_MOVES 64\n"
	"enum cell { EMPTY, BLACK, WHITE };\n"
	"struct board { enum cell cell[ROWS][COLS]; int to_move; };\n"
	"struct move { int row, col; };\n"
	"int read_board(FILE *in, struct board *b, int *me);\n"
	"int legal_moves(const struct board *b, int who, struct move *out);\n"
	"void play(struct board *b, struct move m, int who);\n"
	"static const int weight[ROWS][COLS] = { { 100, -20, 10, 5, 5, 10, -20, 100 } };\n";

/* Every k-gram of src: what a base set holds. */
static struct plag_hashset base_set(const char *src)
{
	struct plag_hashset set = { 0 };
	struct plag_tokens t = tokens_of(src);
	err_t err = {0};
	cr_assert_eq(plag_hashset_add_tokens(&set, t.v, t.n, PLAG_K_DEFAULT, err), PLAG_OK, "%s",
		     err->msg);
	plag_tokens_free(&t);
	return set;
}

static char *concat(const char *a, const char *b)
{
	char *s = malloc(strlen(a) + strlen(b) + 1);
	cr_assert_not_null(s);
	strcpy(s, a);
	strcat(s, b);
	return s;
}

Test(plag_base, hashset_is_sorted_and_distinct)
{
	struct plag_hashset s = { 0 };
	uint64_t h1[] = { 9, 3, 3, 7 }, h2[] = { 7, 1, 12, 9 };
	cr_assert_eq(plag_hashset_add(&s, h1, 4, NULL), PLAG_OK);
	cr_assert_eq(plag_hashset_add(&s, h2, 4, NULL), PLAG_OK);
	cr_assert_eq(plag_hashset_add(&s, NULL, 0, NULL), PLAG_OK);
	uint64_t want[] = { 1, 3, 7, 9, 12 };
	cr_assert_eq(s.n, 5);
	for (size_t i = 0; i < 5; i++)
		cr_expect_eq(s.v[i], want[i]);
	cr_expect(plag_hashset_has(&s, 12));
	cr_expect(!plag_hashset_has(&s, 2));
	cr_expect(!plag_hashset_has(NULL, 2));
	cr_expect_eq(plag_hashset_add(NULL, h1, 4, NULL), PLAG_E_PARAM);
	cr_expect_eq(plag_hashset_add(&s, NULL, 4, NULL), PLAG_E_PARAM);
	struct plag_token t[3] = { { 5, 1 }, { 6, 1 }, { 5, 2 } };
	cr_expect_eq(plag_hashset_add_tokens(&s, t, 3, 0, NULL), PLAG_E_PARAM);
	cr_expect_eq(plag_hashset_add_tokens(&s, NULL, 3, 2, NULL), PLAG_E_PARAM);
	cr_expect_eq(plag_hashset_add_tokens(&s, t, 1, 2, NULL), PLAG_OK); /* no 2-gram */
	cr_expect_eq(s.n, 5);
	cr_expect_eq(plag_hashset_add_tokens(&s, t, 3, 2, NULL), PLAG_OK);
	cr_expect_eq(s.n, 7);
	cr_expect(plag_hashset_has(&s, plag_kgram_hash(t, 2)));
	cr_expect(plag_hashset_has(&s, plag_kgram_hash(t + 1, 2)));
	plag_hashset_free(&s);
	cr_expect_eq(s.n, 0);
}

Test(plag_base, exclusion_removes_the_base_and_only_it)
{
	struct plag_hashset set = base_set(GAME_HEADER);
	char *player = concat(GAME_HEADER, PLAYER_MINIMAX);
	struct plag_fps f = winnow_src(player), all = winnow_src(player);
	size_t removed = plag_fps_exclude(&f, &set);
	cr_expect_gt(removed, 0);
	cr_expect_eq(f.n + removed, all.n);
	cr_expect_gt(f.n, 0);
	size_t j = 0;
	for (size_t i = 0; i < all.n; i++) {
		bool in_base = plag_hashset_has(&set, all.v[i].hash);
		if (!in_base) {
			/* The rest is kept, in order. */
			cr_assert_lt(j, f.n);
			cr_expect_eq(f.v[j].tok, all.v[i].tok);
			j++;
		}
	}
	cr_expect_eq(j, f.n);

	/* The base alone: nothing left. */
	struct plag_fps only = winnow_src(GAME_HEADER);
	size_t n0 = only.n;
	cr_expect_eq(plag_fps_exclude(&only, &set), n0);
	cr_expect_eq(only.n, 0);
	cr_expect_eq(plag_fps_exclude(&all, NULL), 0);

	plag_fps_free(&only);
	plag_fps_free(&f);
	plag_fps_free(&all);
	plag_hashset_free(&set);
	free(player);
}

Test(plag_base, shared_base_code_is_not_similarity)
{
	/* Two players whose only common code is the shipped header; their own
	 * code starts differently, so no k-gram straddling the seam matches. */
	char *pa = concat(GAME_HEADER, PLAYER_MINIMAX + strlen("#include <stdio.h>\n"));
	char *pb = concat(GAME_HEADER, PLAYER_GREEDY);
	struct plag_fps fa = winnow_src(pa), fb = winnow_src(pb);
	struct plag_hashset set = base_set(GAME_HEADER);

	struct plag_pair raw = compare(&fa, &fb, NULL);
	cr_expect_gt(raw.a_in_b, 0.15, "the header alone makes them look alike: %f", raw.a_in_b);
	/* What is left is the idiom the players really share (keep the best
	 * value so far: "if ( ID < ID ) { ID = ID", braces and comparisons
	 * written one way), a fingerprint or two. */
	struct plag_pair p = compare(&fa, &fb, &set);
	cr_expect_leq(p.a_matched, 2);
	cr_expect_leq(p.b_matched, 2);
	cr_expect_lt(p.a_in_b, 0.1, "a_in_b %f", p.a_in_b);
	cr_expect_lt(p.b_in_a, 0.1, "b_in_a %f", p.b_in_a);
	cr_expect_leq(p.longest, 2);
	/* Same answer when the base is removed up front. */
	plag_fps_exclude(&fa, &set);
	plag_fps_exclude(&fb, &set);
	struct plag_pair q = compare(&fa, &fb, NULL);
	cr_expect_eq(q.a_matched, p.a_matched);
	cr_expect_eq(q.a_covered, p.a_covered);
	cr_expect_eq(q.a_tokens, p.a_tokens);
	cr_expect_eq(q.b_tokens, p.b_tokens);
	cr_expect_eq(q.a_in_b, p.a_in_b);

	plag_fps_free(&fa);
	plag_fps_free(&fb);
	plag_hashset_free(&set);
	free(pa);
	free(pb);
}

/* ---- pair similarity ---------------------------------------------------- */

/* Fingerprints with the given hashes, one k-gram apart (k = 4), so each
 * covers 4 tokens of its own. */
static struct plag_fps fps_of_hashes(const uint64_t *h, size_t n)
{
	struct plag_fps f = { .v = calloc(n, sizeof *f.v), .n = n, .k = 4, .w = 1,
			      .ntokens = (uint32_t)(4 * n) };
	cr_assert_not_null(f.v);
	for (size_t i = 0; i < n; i++)
		f.v[i] = (struct plag_fp){ .hash = h[i], .tok = (uint32_t)(4 * i),
					   .first_line = (uint32_t)i + 1, .last_line = (uint32_t)i + 1 };
	return f;
}

Test(plag_sim, scattered_matches_count_only_in_runs)
{
	static const uint64_t ha[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, hb[] = { 1, 3, 4, 6, 7, 8, 99 };
	struct plag_fps a = fps_of_hashes(ha, 8), b = fps_of_hashes(hb, 7);
	struct plag_pair p;
	/* Every shared fingerprint: 1, 3, 4, 6, 7, 8 of A's 8. */
	cr_assert_eq(plag_compare(&a, &b, NULL, 1, &p, NULL), PLAG_OK);
	cr_expect_eq(p.a_covered, 6 * 4);
	cr_expect_eq(p.a_matched, 6);
	/* Runs of two or more: 3 4 and 6 7 8; the lone 1 is a coincidence. */
	cr_assert_eq(plag_compare(&a, &b, NULL, 2, &p, NULL), PLAG_OK);
	cr_expect_eq(p.a_covered, 5 * 4);
	cr_expect_eq(p.a_matched, 5);
	cr_expect_float_eq(p.a_in_b, 5.0 / 8, 1e-12);
	/* In B all six shared ones are in runs (1 3 4 6 7 8 are consecutive there). */
	cr_expect_eq(p.b_matched, 6);
	/* Runs of three: only 6 7 8 in A. */
	cr_assert_eq(plag_compare(&a, &b, NULL, 3, &p, NULL), PLAG_OK);
	cr_expect_eq(p.a_matched, 3);
	/* An ignored fingerprint neither breaks a run nor makes one: without 5,
	 * 3 4 6 7 8 are one run of five. */
	struct plag_hashset ignore = { 0 };
	uint64_t five = 5;
	cr_assert_eq(plag_hashset_add(&ignore, &five, 1, NULL), PLAG_OK);
	cr_assert_eq(plag_compare(&a, &b, &ignore, 5, &p, NULL), PLAG_OK);
	cr_expect_eq(p.a_matched, 5);
	cr_expect_float_eq(p.a_in_b, 5.0 / 7, 1e-12);
	plag_hashset_free(&ignore);
	plag_fps_free(&a);
	plag_fps_free(&b);
}

Test(plag_sim, identical_files_score_one)
{
	struct plag_fps a = winnow_src(PLAYER_MINIMAX), b = winnow_src(PLAYER_MINIMAX);
	struct plag_pair p = compare(&a, &b, NULL);
	cr_expect_eq(p.a_in_b, 1.0);
	cr_expect_eq(p.b_in_a, 1.0);
	cr_expect_eq(p.a_matched, a.n);
	cr_expect_eq(p.a_covered, p.a_tokens);
	cr_expect_eq(p.longest, a.n);
	cr_expect_eq(p.longest_a.first_tok, a.v[0].tok);
	cr_expect_eq(p.longest_a.last_tok, a.v[a.n - 1].tok + a.k - 1);
	cr_expect_eq(p.longest_a.first_line, p.longest_b.first_line);
	cr_expect_eq(p.longest_a.last_line, p.longest_b.last_line);
	/* From evaluate() (line 6) to the last fingerprint's k-gram, near the
	 * end (the last w - 1 tokens may be past it). */
	cr_expect_eq(p.longest_a.first_line, 6);
	cr_expect_eq(p.longest_a.last_line, a.v[a.n - 1].last_line);
	cr_expect_geq(p.longest_a.last_line, 48, "the run stops at line %u", p.longest_a.last_line);
	plag_fps_free(&a);
	plag_fps_free(&b);
}

Test(plag_sim, disguised_copy_scores_high)
{
	struct plag_fps a = winnow_src(PLAYER_MINIMAX), b = winnow_src(PLAYER_MINIMAX_DISGUISED);
	struct plag_pair p = compare(&a, &b, NULL);
	cr_expect_gt(p.a_in_b, 0.9, "a_in_b %f", p.a_in_b);
	cr_expect_gt(p.b_in_a, 0.9, "b_in_a %f", p.b_in_a);
	plag_fps_free(&a);
	plag_fps_free(&b);
}

Test(plag_sim, unrelated_files_score_near_zero)
{
	struct plag_fps a = winnow_src(PLAYER_MINIMAX), b = winnow_src(PLAYER_GREEDY);
	struct plag_pair p = compare(&a, &b, NULL);
	cr_expect_lt(p.a_in_b, 0.1, "a_in_b %f", p.a_in_b);
	cr_expect_lt(p.b_in_a, 0.1, "b_in_a %f", p.b_in_a);
	plag_fps_free(&a);
	plag_fps_free(&b);

	/* Random streams share nothing at all. */
	static struct plag_token x[5000], y[5000];
	uint64_t rng = 42;
	random_tokens(x, 0, 5000, 200, &rng);
	random_tokens(y, 0, 5000, 200, &rng);
	a = winnow(x, 5000, 12, 8);
	b = winnow(y, 5000, 12, 8);
	p = compare(&a, &b, NULL);
	cr_expect_eq(p.a_matched, 0);
	cr_expect_eq(p.a_in_b, 0.0);
	cr_expect_eq(p.b_in_a, 0.0);
	cr_expect_eq(p.longest, 0);
	plag_fps_free(&a);
	plag_fps_free(&b);
}

Test(plag_sim, containment_is_asymmetric)
{
	/* A whole inside B: all of A is in B, a small part of B in A. */
	char *big = concat(PLAYER_MINIMAX, PLAYER_GREEDY + strlen("#include <stdlib.h>\n"));
	struct plag_fps a = winnow_src(PLAYER_MINIMAX), b = winnow_src(big);
	struct plag_pair p = compare(&a, &b, NULL);
	cr_expect_eq(p.a_in_b, 1.0);
	cr_expect_lt(p.b_in_a, 0.6, "b_in_a %f", p.b_in_a);
	cr_expect_gt(p.b_in_a, 0.4, "b_in_a %f", p.b_in_a);
	plag_fps_free(&a);
	plag_fps_free(&b);
	free(big);

	/* 90% of A is 30% of B. */
	static struct plag_token x[1000], y[3000];
	uint64_t rng = 7;
	random_tokens(x, 0, 1000, 1000, &rng);
	memcpy(y, x, 900 * sizeof *x);
	random_tokens(y, 900, 2100, 1000, &rng);
	a = winnow(x, 1000, 12, 8);
	b = winnow(y, 3000, 12, 8);
	p = compare(&a, &b, NULL);
	cr_expect(p.a_in_b > 0.87 && p.a_in_b <= 0.9, "a_in_b %f", p.a_in_b);
	cr_expect(p.b_in_a > 0.29 && p.b_in_a <= 0.3, "b_in_a %f", p.b_in_a);
	plag_fps_free(&a);
	plag_fps_free(&b);
}

Test(plag_sim, longest_fragment_is_located_in_both_files)
{
	/* S (300 tokens) at 200 in A and 100 in B; T (100 tokens) shared too. */
	static struct plag_token x[1000], y[800];
	uint64_t rng = 99;
	random_tokens(x, 0, 1000, 1 << 16, &rng);
	random_tokens(y, 0, 800, 1 << 16, &rng);
	memcpy(y + 100, x + 200, 300 * sizeof *x);
	memcpy(y + 600, x + 700, 100 * sizeof *x);
	number_lines(x, 1000);
	number_lines(y, 800);
	struct plag_fps a = winnow(x, 1000, 12, 8), b = winnow(y, 800, 12, 8);
	struct plag_pair p = compare(&a, &b, NULL);
	cr_assert_gt(p.longest, 0);
	cr_expect_geq(p.longest_a.first_tok, 200);
	cr_expect_leq(p.longest_a.last_tok, 499);
	cr_expect_geq(p.longest_b.first_tok, 100);
	cr_expect_leq(p.longest_b.last_tok, 399);
	cr_expect_eq(p.longest_a.first_tok - 200, p.longest_b.first_tok - 100);
	cr_expect_eq(p.longest_a.last_tok - 200, p.longest_b.last_tok - 100);
	/* Nearly all of S: at most a window lost at each end. */
	cr_expect_geq(p.longest_a.last_tok - p.longest_a.first_tok + 1, 300 - 2 * (12 + 8));
	cr_expect_eq(p.longest_a.first_line, p.longest_a.first_tok + 1);
	cr_expect_eq(p.longest_b.last_line, p.longest_b.last_tok + 1);
	plag_fps_free(&a);
	plag_fps_free(&b);
}

Test(plag_sim, longest_fragment_lines_in_sources)
{
	/* evaluate() of the minimax player (lines 6-16 there) pasted into the
	 * greedy one after its line 12. */
	const char *eval_fn = strstr(PLAYER_MINIMAX, "static int evaluate");
	const char *eval_end = strstr(PLAYER_MINIMAX, "static int minimax");
	const char *cut = PLAYER_GREEDY;
	for (int line = 0; line < 12; line++)
		cut = strchr(cut, '\n') + 1;
	struct gen_text src = { 0 };
	gen_printf(&src, "%.*s%.*s%s", (int)(cut - PLAYER_GREEDY), PLAYER_GREEDY,
		 (int)(eval_end - eval_fn), eval_fn, cut);
	struct plag_fps a = winnow_src(PLAYER_MINIMAX), b = winnow_src(src.s);
	struct plag_pair p = compare(&a, &b, NULL);
	cr_assert_gt(p.longest, 0);
	cr_expect(p.longest_a.first_line >= 6 && p.longest_a.last_line <= 17,
		  "A lines %u-%u", p.longest_a.first_line, p.longest_a.last_line);
	cr_expect(p.longest_b.first_line >= 13 && p.longest_b.last_line <= 24,
		  "B lines %u-%u", p.longest_b.first_line, p.longest_b.last_line);
	cr_expect_eq(p.longest_a.first_line - 6, p.longest_b.first_line - 13);
	cr_expect_geq(p.longest_a.last_line - p.longest_a.first_line, 6);
	plag_fps_free(&a);
	plag_fps_free(&b);
	free(src.s);
}

static size_t fp_index(const struct plag_fps *f, uint32_t tok)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].tok == tok)
			return i;
	cr_assert_fail("no fingerprint at token %u", tok);
	return 0;
}

/* Tokens of f inside k-grams of fingerprints whose hash is in g, by brute
 * force; also how many fingerprints those are. */
static uint32_t naive_covered(const struct plag_fps *f, const struct plag_fps *g, size_t *count)
{
	bool *in = calloc(f->ntokens + 1, sizeof *in);
	cr_assert_not_null(in);
	*count = 0;
	for (size_t i = 0; i < f->n; i++) {
		bool hit = false;
		for (size_t j = 0; j < g->n; j++)
			hit |= f->v[i].hash == g->v[j].hash;
		if (!hit)
			continue;
		++*count;
		for (uint32_t t = f->v[i].tok; t < f->v[i].tok + f->k; t++)
			in[t] = true;
	}
	uint32_t total = 0;
	for (uint32_t t = 0; t < f->ntokens; t++)
		total += in[t];
	free(in);
	return total;
}

/* Small alphabets make many equal hashes, the hard case for the suffix
 * array; a quadratic dynamic programme is the reference. */
Test(plag_sim, matches_and_longest_fragment_agree_with_brute_force)
{
	static struct plag_token x[300], y[300];
	static uint32_t dp[2][301];
	for (uint64_t seed = 1; seed <= 300; seed++) {
		uint64_t rng = seed * 31337;
		size_t nx = 20 + rng_below(&rng, 280), ny = 20 + rng_below(&rng, 280);
		unsigned k = 1 + rng_below(&rng, 4), w = 1 + rng_below(&rng, 4);
		uint32_t alphabet = 2 + rng_below(&rng, 3);
		random_tokens(x, 0, nx, alphabet, &rng);
		random_tokens(y, 0, ny, alphabet, &rng);
		struct plag_fps a = winnow(x, nx, k, w), b = winnow(y, ny, k, w);
		struct plag_pair p = compare(&a, &b, NULL);

		size_t na, nb;
		cr_assert_eq(p.a_covered, naive_covered(&a, &b, &na), "seed %llu",
			     (unsigned long long)seed);
		cr_assert_eq(p.b_covered, naive_covered(&b, &a, &nb));
		cr_assert_eq(p.a_matched, na);
		cr_assert_eq(p.b_matched, nb);

		uint32_t best = 0;
		memset(dp, 0, sizeof dp);
		for (size_t i = 1; i <= a.n; i++)
			for (size_t j = 1; j <= b.n; j++) {
				uint32_t v = a.v[i - 1].hash == b.v[j - 1].hash ? dp[(i - 1) % 2][j - 1] + 1 : 0;
				dp[i % 2][j] = v;
				best = v > best ? v : best;
			}
		cr_assert_eq(p.longest, best, "seed %llu: longest %zu, want %u",
			     (unsigned long long)seed, p.longest, best);
		if (best) {
			size_t ia = fp_index(&a, p.longest_a.first_tok);
			size_t ib = fp_index(&b, p.longest_b.first_tok);
			for (size_t i = 0; i < best; i++)
				cr_assert_eq(a.v[ia + i].hash, b.v[ib + i].hash);
			cr_assert_eq(p.longest_a.last_tok, a.v[ia + best - 1].tok + k - 1);
			cr_assert_eq(p.longest_b.last_tok, b.v[ib + best - 1].tok + k - 1);
		}
		plag_fps_free(&a);
		plag_fps_free(&b);
	}
}

Test(plag_sim, ignored_hashes_count_for_nothing)
{
	struct plag_fps a = winnow_src(PLAYER_MINIMAX), b = winnow_src(PLAYER_MINIMAX);
	struct plag_hashset all = { 0 };
	cr_assert_eq(plag_hashset_add_fps(&all, &a, NULL), PLAG_OK);
	struct plag_pair p = compare(&a, &b, &all);
	cr_expect_eq(p.a_tokens, 0);
	cr_expect_eq(p.a_in_b, 0.0);
	cr_expect_eq(p.longest, 0);
	/* Ignoring one hash in the middle splits the longest fragment. */
	struct plag_hashset one = { 0 };
	uint64_t mid = a.v[a.n / 2].hash;
	cr_assert_eq(plag_hashset_add(&one, &mid, 1, NULL), PLAG_OK);
	p = compare(&a, &b, &one);
	cr_expect_lt(p.longest, a.n - 1);
	cr_expect_gt(p.longest, 0);
	cr_expect_eq(p.a_in_b, 1.0);
	plag_fps_free(&a);
	plag_fps_free(&b);
	plag_hashset_free(&all);
	plag_hashset_free(&one);
}

Test(plag_sim, bad_and_empty_inputs)
{
	struct plag_token t[20];
	uint64_t rng = 5;
	random_tokens(t, 0, 20, 50, &rng);
	struct plag_fps a = winnow(t, 20, 12, 8), b = winnow(t, 20, 10, 8), e = winnow(t, 5, 12, 8);
	struct plag_pair p;
	err_t err = {0};
	cr_expect_eq(plag_compare(&a, &b, NULL, 1, &p, err), PLAG_E_PARAM);
	cr_expect(strstr(err->msg, "12-grams and 10-grams") != NULL, "%s", err->msg);
	cr_expect_eq(plag_compare(&a, NULL, NULL, 1, &p, err), PLAG_E_PARAM);
	cr_expect_eq(plag_compare(&a, &a, NULL, 1, NULL, err), PLAG_E_PARAM);
	p = compare(&a, &e, NULL);
	cr_expect_eq(p.a_in_b, 0.0);
	cr_expect_eq(p.b_in_a, 0.0);
	cr_expect_eq(p.b_tokens, 0);
	cr_expect_eq(p.longest, 0);
	plag_fps_free(&a);
	plag_fps_free(&b);
	plag_fps_free(&e);
}

/* Thousands of equal fingerprints on both sides: a pairwise match would be
 * quadratic; this must stay fast (and find the whole common stretch). */
Test(plag_sim, repetitive_files_stay_fast, .timeout = 30)
{
	size_t na = 200000, nb = 100000, period = 37;
	struct plag_token *x = malloc(na * sizeof *x), *y = malloc(nb * sizeof *y);
	cr_assert(x && y);
	uint64_t rng = 3;
	random_tokens(x, 0, period, 100, &rng);
	for (size_t i = period; i < na; i++)
		x[i] = x[i - period];
	memcpy(y, x, nb * sizeof *y);
	number_lines(x, na);
	number_lines(y, nb);
	struct plag_fps a = winnow(x, na, 12, 8), b = winnow(y, nb, 12, 8);
	struct plag_pair p = compare(&a, &b, NULL);
	cr_expect_eq(p.b_in_a, 1.0);
	cr_expect_eq(p.a_in_b, 1.0);
	cr_expect_geq(p.longest, b.n - 2);
	plag_fps_free(&a);
	plag_fps_free(&b);
	free(x);
	free(y);
}
