/* Ends badly, as stdin says: "segv" writes through NULL, "abort" aborts,
 * a number exits with that status. */
#include "attack.h"

int main(void)
{
	char order[16];

	input_line(order, sizeof order);
	if (strcmp(order, "segv") == 0)
		*(volatile int *)NULL = 1;
	if (strcmp(order, "abort") == 0)
		abort();
	return atoi(order);
}
