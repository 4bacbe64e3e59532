/* Needs no game: its own main, and libm. */
#include <math.h>
#include <stdio.h>
int main(void)
{
	printf("%.0f\n", pow(2.0, 10.0));
	return 0;
}
