/* roster.h - a class's roster file, read the same way by every command
 * that takes one (`judge token import`, `judge tournament add --roster`).
 *
 * One person per line: author[,group[,third]], the third field being what
 * the command calls it (a token's label, a tournament's pseudonym);
 * blanks around fields are cut; blank lines and lines starting with # are
 * skipped.  A missing field is NULL.
 */
#ifndef JUDGE_CLI_ROSTER_H
#define JUDGE_CLI_ROSTER_H

typedef int roster_line_fn(void *ctx, const char *author, const char *group, const char *third,
			   int line);

/* Calls each for every person, in order, and stops at the first nonzero
 * answer, which it returns; 0 after the last; -1 when the file cannot be
 * read (said on stderr after "prog: "). */
int roster_each(const char *path, const char *prog, roster_line_fn *each, void *ctx);

#endif
