/* plag_norm.h - one spelling for code a copier can rewrite for free.
 *
 * Promises: plag_norm() rewrites preprocessed tokens so that these forms,
 * which mean the same, give the same tokens (and so the same fingerprints):
 *   1. Bodies of if, else, for, while and do are always a braced block:
 *      `if (c) x;` and `if (c) { x; }` are one form.
 *   2. `for (I; C; S) B` is `I; while (C) { B S; }`, with S also before
 *      every `continue` of that loop (not of loops inside it); an empty C
 *      is `1`.  `if (C) { do B while (C); }` is `while (C) B`.
 *   3. Parentheses that change nothing go: `a + (b * c)`, `(a < b) && c`,
 *      `return (x);`, `(p)->f`, `if ((c))` (kept: calls, casts, and groups
 *      holding a comma, an assignment or ?:).
 *   4. `T a = 1, *b;` is `T a = 1; T *b;` when T is type keywords (a tag
 *      with its name) or one identifier (a typedef's name).
 *   5. As statements, `x++`, `++x`, `x += 1`, `x = x + 1` and `x = 1 + x`
 *      are `x++` (and the same with -- and - 1); `x = x OP e` is
 *      `x OP= e` for OP among + - * / % & | ^ << >> when e holds no operator
 *      binding as loosely as OP (a fully parenthesised e loses its
 *      parentheses).  x is an identifier with members, arrows and indexes.
 *   6. `a > b` is `b < a` and `a >= b` is `b <= a` when both sides are
 *      simple: identifiers, numbers, calls, indexes, members, casts and
 *      arithmetic (no comparison, bitwise or logical operator, no
 *      assignment), each at most PLAG_NORM_OPERAND tokens.
 *   7. The arms of an if / else if chain are sorted by their normalised
 *      tokens (identifiers as one class, so renaming does not change the
 *      order); a final plain else stays last.  This is what a token-level
 *      method can do: it cannot tell whether the conditions exclude each
 *      other, so it also sorts chains whose order matters (harmless for
 *      comparison: both files get the same order), and it cannot undo a
 *      chain turned into a switch, nested ifs merged with &&, or branches
 *      swapped under a negated condition.
 * What it does not parse it leaves as it is: malformed code, statements
 * nested deeper than PLAG_NORM_DEPTH, operands longer than the limit.
 * Cost: the tokens times the nesting depth (each rewrite looks at a bounded
 * window or moves a statement once per level it is nested in).  Tokens keep their lines;
 * added tokens take the line of the code they come from.
 */
#ifndef JUDGE_PLAG_NORM_H
#define JUDGE_PLAG_NORM_H

#include "judge/plag/plag_raw.h"

#define PLAG_NORM_OPERAND 64
#define PLAG_NORM_DEPTH 200

/* The normalised code of one preprocessed token (plag_tokens.h). */
uint32_t plag_raw_code(const struct plag_raw *t);

/* Rewrites in[0..n) into *out (caller frees; it may hold more tokens than
 * in: braces, a loop's step before each continue).  atoms receives the
 * number `1` (an empty for condition). */
enum plag_err plag_norm(const struct plag_raw *in, size_t n, struct plag_atoms *atoms,
			struct plag_raw **out, size_t *nout);

#endif
