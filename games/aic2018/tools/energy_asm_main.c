/* energy_asm_main.c - the energy rewrite (energy_asm.h) as a filter, for
 * the build: the kit's counted library and its tests' unit bodies are
 * compiled as a contestant's file is.  Usage: aic-energy-asm IN.s OUT.s */
#include <stdio.h>
#include <stdlib.h>

#include "games/aic2018/engine/energy_asm.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536)))
			break;
		size_t n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s IN.s OUT.s\n", argv[0]);
		return 2;
	}
	size_t len, out_len;
	char *in = slurp(argv[1], &len), *out;
	err_t err;
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	int rc = energy_asm_rewrite(in, len, &out, &out_len, err);
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", argv[1], rc > 0 ? err->msg : "out of memory");
		return 1;
	}
	FILE *f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, out_len, f) != out_len || fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	free(in);
	free(out);
	return 0;
}
