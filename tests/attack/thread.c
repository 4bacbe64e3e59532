/* pthread_create: glibc 2.36 tries clone3(2) first.  No -pthread needed,
 * libpthread lives in libc since glibc 2.34. */
#include <pthread.h>

#include "attack.h"

static void *idle(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, idle, NULL);

	if (err == 0)
		pthread_join(t, NULL);
	survived("pthread_create", err);
}
