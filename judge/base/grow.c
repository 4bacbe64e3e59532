/* grow.c - room in an array that grows by doubling (grow.h). */
#include "judge/base/grow.h"

#include <stdint.h>
#include <stdlib.h>

bool grow_room(void *array, size_t *cap, size_t need, size_t size, size_t first)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : first;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return false;
		c *= 2;
	}
	void **p = array;
	void *grown = realloc(*p, c * size);
	if (!grown)
		return false;
	*p = grown;
	*cap = c;
	return true;
}
