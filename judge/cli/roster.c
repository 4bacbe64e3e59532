#include "judge/cli/roster.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static char *trimmed(char *f)
{
	while (*f == ' ' || *f == '\t')
		f++;
	size_t len = strlen(f);
	while (len && (f[len - 1] == ' ' || f[len - 1] == '\t'))
		f[--len] = '\0';
	return f;
}

static int one_line(char *line, int number, roster_line_fn *each, void *ctx)
{
	char *field[3] = { 0 }, *save = NULL;
	line[strcspn(line, "\r\n")] = '\0';
	if (!*trimmed(line) || *trimmed(line) == '#')
		return 0;
	int n = 0;
	for (char *f = strtok_r(line, ",", &save); f && n < 3; f = strtok_r(NULL, ",", &save))
		field[n++] = trimmed(f);
	return each(ctx, field[0] ? field[0] : "", field[1], field[2], number);
}

int roster_each(const char *path, const char *prog, roster_line_fn *each, void *ctx)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "%s: cannot read %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	char line[512];
	int number = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f))
		rc = one_line(line, ++number, each, ctx);
	fclose(f);
	return rc;
}
