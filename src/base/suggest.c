/*
 * suggest.c - nearest-name suggestions by edit distance, lists of choices.
 */
#include "base/suggest.h"

#include <stdio.h>
#include <string.h>

enum { SUGGEST_MAX_LEN = 64 };

static int
suggest_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int
suggest_min3(int a, int b, int c)
{
	int m = a < b ? a : b;
	return m < c ? m : c;
}

int
sf_suggest_distance(const char *a, const char *b)
{
	/* Three rows of the dynamic programme are enough for transpositions. */
	int rows[3][SUGGEST_MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b);

	if (la > SUGGEST_MAX_LEN)
		la = SUGGEST_MAX_LEN;
	if (lb > SUGGEST_MAX_LEN)
		lb = SUGGEST_MAX_LEN;
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int *cur = rows[i % 3], *prev = rows[(i - 1) % 3];
		int *prev2 = rows[(i + 1) % 3];

		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = suggest_lower((unsigned char)a[i - 1]);
			int cb = suggest_lower((unsigned char)b[j - 1]);
			int cost = ca != cb;

			cur[j] = suggest_min3(prev[j] + 1, cur[j - 1] + 1,
			                      prev[j - 1] + cost);
			if (i > 1 && j > 1 &&
			    ca == suggest_lower((unsigned char)b[j - 2]) &&
			    suggest_lower((unsigned char)a[i - 2]) == cb &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return rows[la % 3][lb];
}

const char *
sf_suggest_nearest(const char *name, const char *const *candidates, size_t n)
{
	size_t len = strlen(name);
	int limit = len / 3 > 1 ? (int)(len / 3) : 1;
	int best_distance = limit + 1;
	const char *best = NULL;

	for (size_t i = 0; i < n; i++) {
		int d;

		if (candidates[i] == NULL)
			continue;
		d = sf_suggest_distance(name, candidates[i]);
		if (d < best_distance) {
			best_distance = d;
			best = candidates[i];
		}
	}
	return best;
}

size_t
sf_suggest_match(const char *name, const char *const *names, size_t n,
                 const char **nearest)
{
	for (size_t i = 0; name != NULL && i < n; i++)
		if (names[i] != NULL && strcmp(name, names[i]) == 0)
			return i;
	if (nearest != NULL)
		*nearest =
		    name != NULL ? sf_suggest_nearest(name, names, n) : NULL;
	return n;
}

char *
sf_suggest_list(const char *const *names, size_t n, char *buf, size_t size)
{
	size_t used = 0, left = 0, written = 0;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		left += names[i] != NULL;
	for (size_t i = 0; i < n && used < size; i++) {
		int k;

		if (names[i] == NULL)
			continue;
		left--;
		k = snprintf(buf + used, size - used, "%s%s",
		             written == 0 ? ""
		             : left == 0  ? " or "
		                          : ", ",
		             names[i]);
		written++;
		if (k < 0)
			break;
		used += (size_t)k;
	}
	return buf;
}
