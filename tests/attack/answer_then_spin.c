/* Answers its first message at once, as a player the judge reads without
 * waiting, then computes forever: its CPU budget must still stop it. */
#include <stdint.h>
#include <unistd.h>

int main(void)
{
	static const uint8_t ok[] = { 2, 0, 0, 0, 'o', 'k' };
	uint8_t buf[4096];
	if (read(0, buf, sizeof buf) <= 0 || write(1, ok, sizeof ok) != sizeof ok)
		return 1;
	for (volatile unsigned long n = 0;; n++)
		;
}
