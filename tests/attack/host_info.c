/* Looks for the host in what the kernel hands a program at start: prints
 * its arguments, its environment and the file name the kernel recorded for
 * the exec (AT_EXECFN) on stderr, one per line, then "end".  A path of the
 * judge's machine in any of them would tell a contestant where the judge
 * keeps its files. */
#include <stdio.h>
#include <sys/auxv.h>

extern char **environ;

int main(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		fprintf(stderr, "argv[%d]=%s\n", i, argv[i]);
	for (char **e = environ; e && *e; e++)
		fprintf(stderr, "env=%s\n", *e);
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	fprintf(stderr, "execfn=%s\n", execfn ? execfn : "(none)");
	fprintf(stderr, "end\n");
	return 0;
}
