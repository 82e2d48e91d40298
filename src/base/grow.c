/*
 * grow.c - room for one more item (grow.h).
 */
#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>

void *
sf_grow(void *items, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t want;
	void *moved;

	if (n < *cap)
		return items;
	want = *cap > 0 ? 2 * *cap : first;
	if (want < *cap || size == 0 || want > SIZE_MAX / size)
		return NULL;
	if ((moved = realloc(items, want * size)) == NULL)
		return NULL;
	*cap = want;
	return moved;
}
