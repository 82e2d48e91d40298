/*
 * grow.h - room for one more item in an array that doubles as it fills:
 * the one way the modules grow their lists, tables and buffers, with the
 * size's overflow checked.
 */
#ifndef SF_GROW_H
#define SF_GROW_H

#include <stddef.h>

/*
 * items holding n items of size bytes in room for *cap of them: when
 * n < *cap, items itself; else items moved by realloc() to room for twice
 * *cap (first when *cap is 0), *cap updated.  NULL when out of memory
 * (items is still valid and *cap unchanged).
 */
void *sf_grow(void *items, size_t *cap, size_t n, size_t size, size_t first);

#endif /* SF_GROW_H */
