/*
 * names.c - a set of names with a number each (names.h).
 */
#include "base/names.h"
#include "base/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64-bit, of the len bytes at s. */
static uint64_t
hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211u;
	}
	return h;
}

/* The slot holding the name of len bytes at name, or the empty slot
 * where it would go. */
static size_t
slot(const sf_names *t, const char *name, size_t len)
{
	size_t mask = t->capacity - 1, i = (size_t)hash(name, len) & mask;

	while (t->keys[i] != NULL &&
	       (strncmp(t->keys[i], name, len) != 0 || t->keys[i][len] != '\0'))
		i = (i + 1) & mask;
	return i;
}

void
sf_names_init(sf_names *t)
{
	memset(t, 0, sizeof *t);
}

void
sf_names_free(sf_names *t)
{
	if (t == NULL)
		return;
	free(t->keys);
	free(t->values);
	sf_names_init(t);
}

/* Rehash into twice the slots (16 at first). */
static int
grow(sf_names *t)
{
	sf_names bigger = {0, 0, NULL, NULL};

	bigger.capacity = t->capacity == 0 ? 16 : 2 * t->capacity;
	if (bigger.capacity < t->capacity)
		return SF_ENOMEM;
	bigger.keys = calloc(bigger.capacity, sizeof *bigger.keys);
	bigger.values = calloc(bigger.capacity, sizeof *bigger.values);
	if (bigger.keys == NULL || bigger.values == NULL) {
		free(bigger.keys);
		free(bigger.values);
		return SF_ENOMEM;
	}
	for (size_t i = 0; i < t->capacity; i++)
		if (t->keys[i] != NULL) {
			size_t j =
			    slot(&bigger, t->keys[i], strlen(t->keys[i]));

			bigger.keys[j] = t->keys[i];
			bigger.values[j] = t->values[i];
		}
	bigger.count = t->count;
	free(t->keys);
	free(t->values);
	*t = bigger;
	return SF_OK;
}

int
sf_names_add(sf_names *t, const char *name, size_t value, size_t *existing)
{
	size_t i;

	if (existing != NULL)
		*existing = SF_NAMES_NONE;
	if (2 * (t->count + 1) > t->capacity && grow(t) != SF_OK)
		return SF_ENOMEM;
	i = slot(t, name, strlen(name));
	if (t->keys[i] != NULL) {
		if (existing != NULL)
			*existing = t->values[i];
		return SF_OK;
	}
	t->keys[i] = name;
	t->values[i] = value;
	t->count++;
	return SF_OK;
}

size_t
sf_names_find(const sf_names *t, const char *name)
{
	return sf_names_find_n(t, name, strlen(name));
}

size_t
sf_names_find_n(const sf_names *t, const char *name, size_t len)
{
	size_t i;

	if (t->capacity == 0)
		return SF_NAMES_NONE;
	i = slot(t, name, len);
	return t->keys[i] == NULL ? SF_NAMES_NONE : t->values[i];
}
