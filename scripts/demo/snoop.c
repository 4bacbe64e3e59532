/* Tries to read the judge's password file. */
#include <stdio.h>

int main(void)
{
	FILE *f = fopen("/etc/passwd", "r");
	printf("%s\n", f ? "opened it" : "could not open it");
	return 0;
}
