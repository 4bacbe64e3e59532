/* Blocks reading stdin, which the judge keeps open and silent. */
#include "attack.h"

int main(void)
{
	char c;

	survived("read", read(0, &c, 1));
}
