/* Sleeps 100 s: only the wall-clock guard can end it. */
#include <time.h>

#include "attack.h"

int main(void)
{
	struct timespec t = { 100, 0 };

	survived("nanosleep", nanosleep(&t, NULL));
}
