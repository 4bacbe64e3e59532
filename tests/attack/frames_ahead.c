/* Answers the judge's first frame with three frames in one write: "a" and
 * "bb" for this round and the next, then the header of a frame far over
 * any limit, for the round after.  Then it waits for the end. */
#include <stdint.h>
#include <unistd.h>

int main(void)
{
	static const uint8_t ahead[] = { 1, 0, 0, 0, 'a', 2, 0, 0, 0, 'b', 'b', 0, 0, 16, 0 };
	uint8_t buf[256];
	if (read(0, buf, sizeof buf) <= 0)
		return 1;
	if (write(1, ahead, sizeof ahead) != sizeof ahead)
		return 1;
	while (read(0, buf, sizeof buf) > 0)
		;
	return 0;
}
