/* Burns system time forever, one byte to stderr at a time. */
#include <unistd.h>

int main(void)
{
	for (;;)
		if (write(2, "x", 1) != 1)
			return 3;
}
