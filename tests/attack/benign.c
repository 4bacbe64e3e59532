/* An honest player: reads N numbers, sorts them, prints them with their
 * sum and Euclidean norm, and a debug line on stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static long *read_numbers(int n)
{
	size_t cap = 1;
	long *v = malloc(cap * sizeof *v);

	for (int i = 0; v && i < n; i++) {
		if ((size_t)i == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof *v);
		}
		if (v && scanf("%ld", &v[i]) != 1)
			exit(3);
	}
	return v;
}

int main(void)
{
	int n;

	if (scanf("%d", &n) != 1 || n <= 0)
		return 2;
	long *v = read_numbers(n);
	double *squares = calloc((size_t)n, sizeof *squares);
	if (!v || !squares)
		return 4;
	qsort(v, (size_t)n, sizeof *v, by_value);
	long sum = 0;
	double sumsq = 0;
	for (int i = 0; i < n; i++) {
		printf("%ld%c", v[i], i + 1 < n ? ' ' : '\n');
		sum += v[i];
		squares[i] = (double)v[i] * (double)v[i];
		sumsq += squares[i];
	}
	printf("sum %ld\nnorm %.3f\n", sum, sqrt(sumsq));
	fprintf(stderr, "debug: sorted %d numbers\n", n);
	free(squares);
	free(v);
	return 0;
}
