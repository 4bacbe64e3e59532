/* grow.h - room in an array that grows by doubling.
 *
 * Promises.  grow_room() makes an array hold at least `need` elements of
 * `size` bytes: it leaves it alone when it already does, else doubles its
 * capacity (from `first` when it has none) until it does, and moves it
 * with realloc().  On failure (no memory, or a size past SIZE_MAX) it
 * returns false with the array and its capacity unchanged, so the caller
 * still owns and frees what it had.  Doubling keeps the cost of n appends
 * linear; the callers' own limits (a request's size, a replay's) stay
 * theirs to check.
 */
#ifndef JUDGE_BASE_GROW_H
#define JUDGE_BASE_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* *array (a pointer to the array's pointer) holds *cap elements. */
bool grow_room(void *array, size_t *cap, size_t need, size_t size, size_t first);

#endif
