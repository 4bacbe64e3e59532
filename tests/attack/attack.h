/* attack.h - what the attack programs share: reading their orders from
 * stdin (raw read(2), so an attack makes no call beyond the one it tests)
 * and saying so when a forbidden call came back instead of ending them. */
#ifndef ATTACK_H
#define ATTACK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads one line (without its newline) from stdin. */
static inline void input_line(char *buf, size_t size)
{
	size_t n = 0;

	while (n + 1 < size && read(0, buf + n, 1) == 1 && buf[n] != '\n')
		n++;
	buf[n] = '\0';
}

/* Reads a number from stdin. */
static inline long input_long(void)
{
	char buf[32];

	input_line(buf, sizeof buf);
	return strtol(buf, NULL, 10);
}

/* The call under test returned: the sandbox let it through. */
static inline _Noreturn void survived(const char *call, long ret)
{
	char msg[128];
	int n = snprintf(msg, sizeof msg, "attack: %s returned %ld\n", call,
			 ret);

	if (write(2, msg, (size_t)n) < 0)
		_exit(43);
	_exit(42);
}

#endif
