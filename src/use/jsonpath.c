/*
 * jsonpath.c - JSON text walked without building a tree.
 *
 * These walk text jansson accepted (or, for sf_jsonpath_member and
 * sf_jsonpath_blank, text the parser will judge next), so they need not
 * check the grammar; they only must never run past the end.
 */
#include "use/jsonpath.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static size_t
skip_blank(const char *t, size_t n, size_t i)
{
	while (i < n &&
	       (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
		i++;
	return i;
}

/* i at an opening quote: the index after the closing one. */
static size_t
skip_string(const char *t, size_t n, size_t i)
{
	for (i++; i < n && t[i] != '"'; i++)
		if (t[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

/* i at the first byte of a value: the index after it. */
static size_t
skip_value(const char *t, size_t n, size_t i)
{
	int depth = 0;

	if (i < n && t[i] == '"')
		return skip_string(t, n, i);
	if (i < n && t[i] != '{' && t[i] != '[') {
		while (i < n && strchr(",}] \t\r\n", t[i]) == NULL)
			i++;
		return i;
	}
	while (i < n) {
		if (t[i] == '"') {
			i = skip_string(t, n, i);
			continue;
		}
		if (t[i] == '{' || t[i] == '[')
			depth++;
		else if ((t[i] == '}' || t[i] == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return n;
}

/* 1 when the JSON string at t[i..end) (quotes included) means key. */
static int
key_equals(const char *t, size_t i, size_t end, const char *key,
           size_t key_length)
{
	json_t *decoded;
	int same;

	if (memchr(t + i, '\\', end - i) == NULL)
		return end - i == key_length + 2 &&
		       memcmp(t + i + 1, key, key_length) == 0;
	decoded = json_loadb(t + i, end - i, JSON_DECODE_ANY, NULL);
	same = json_is_string(decoded) &&
	       json_string_length(decoded) == key_length &&
	       memcmp(json_string_value(decoded), key, key_length) == 0;
	json_decref(decoded);
	return same;
}

/* In the object at t[i], the value of key; n when absent. */
static size_t
object_member(const char *t, size_t n, size_t i, const char *key,
              size_t key_length)
{
	i = skip_blank(t, n, i + 1);
	while (i < n && t[i] == '"') {
		size_t end = skip_string(t, n, i);
		size_t value = skip_blank(t, n, skip_blank(t, n, end) + 1);

		if (key_equals(t, i, end, key, key_length))
			return value;
		i = skip_blank(t, n, skip_value(t, n, value));
		if (i < n && t[i] == ',')
			i = skip_blank(t, n, i + 1);
	}
	return n;
}

/* In the array at t[i], element index; n when there are fewer. */
static size_t
array_element(const char *t, size_t n, size_t i, size_t index)
{
	i = skip_blank(t, n, i + 1);
	for (size_t k = 0; i < n && t[i] != ']'; k++) {
		if (k == index)
			return i;
		i = skip_blank(t, n, skip_value(t, n, i));
		if (i < n && t[i] == ',')
			i = skip_blank(t, n, i + 1);
	}
	return n;
}

size_t
sf_jsonpath_locate(const char *t, size_t n, const char *path)
{
	size_t at = skip_blank(t, n, 0);
	const char *p = path;

	while (*p != '\0' && at < n) {
		size_t next = n;

		if (*p == '[') {
			char *end;
			unsigned long index = strtoul(p + 1, &end, 10);

			if (t[at] == '[')
				next = array_element(t, n, at, index);
			p = *end == ']' ? end + 1 : end;
		} else {
			size_t len;

			if (*p == '.')
				p++;
			len = strcspn(p, ".[");
			if (t[at] == '{')
				next = object_member(t, n, at, p, len);
			p += len;
		}
		if (next >= n)
			break;
		at = next;
	}
	return at;
}

/* The end of the JSON string whose opening quote is at t[i]: the index of
 * its closing quote, or n when it has none. */
static size_t
string_end(const char *t, size_t n, size_t i)
{
	for (i++; i < n && t[i] != '"'; i++)
		if (t[i] == '\\')
			i++;
	return i < n ? i : n;
}

size_t
sf_jsonpath_member(const char *t, size_t n, const char *key)
{
	size_t len = strlen(key);
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		size_t end, j;

		if (t[i] == '{' || t[i] == '[')
			depth++;
		else if (t[i] == '}' || t[i] == ']')
			depth--;
		if (t[i] != '"')
			continue;
		end = string_end(t, n, i);
		if (end == n)
			return n;
		if (depth != 1 || end - i != len + 1 ||
		    memcmp(t + i + 1, key, len) != 0) {
			i = end;
			continue;
		}
		for (j = end + 1; j < n && strchr(" \t\r\n", t[j]) != NULL; j++)
			;
		if (j >= n || t[j] != ':') {
			i = end;
			continue;
		}
		for (j++; j < n && strchr(" \t\r\n", t[j]) != NULL; j++)
			;
		return j;
	}
	return n;
}

int
sf_jsonpath_array(const char *t, size_t n, const char *key, size_t *open,
                  size_t *close)
{
	size_t j = sf_jsonpath_member(t, n, key), k;
	int d = 0;

	if (j >= n || t[j] != '[')
		return 0;
	for (k = j; k < n; k++) {
		if (t[k] == '"' && (k = string_end(t, n, k)) == n)
			return 0;
		if (t[k] == '[' || t[k] == '{')
			d++;
		else if ((t[k] == ']' || t[k] == '}') && --d == 0)
			break;
	}
	if (k >= n || t[k] != ']')
		return 0;
	*open = j;
	*close = k;
	return 1;
}

void
sf_jsonpath_blank(char *t, size_t n, const char *key)
{
	size_t j, k;

	if (!sf_jsonpath_array(t, n, key, &j, &k))
		return;
	for (size_t x = j + 1; x < k; x++)
		if (t[x] != '\n')
			t[x] = ' ';
}

/* The text as jansson reads it in sf_jsonpath_load_without(): the
 * elements between open and close blanked, line breaks kept. */
typedef struct feed {
	const char *t;
	size_t n, at, open, close;
} feed;

/* A json_load_callback_t: the next bytes of the text, blanked there. */
static size_t
feed_read(void *buffer, size_t size, void *data)
{
	feed *fd = data;
	size_t n = fd->n - fd->at < size ? fd->n - fd->at : size;
	size_t lo = fd->open + 1, hi = fd->close;
	char *b = buffer;

	memcpy(b, fd->t + fd->at, n);
	if (fd->at + n > lo && fd->at < hi) {
		size_t from = fd->at > lo ? fd->at : lo;
		size_t to = fd->at + n < hi ? fd->at + n : hi;

		for (size_t i = from; i < to; i++)
			if (b[i - fd->at] != '\n')
				b[i - fd->at] = ' ';
	}
	fd->at += n;
	return n;
}

json_t *
sf_jsonpath_load_without(const char *t, size_t n, const char *key, size_t flags,
                         size_t *open, size_t *close, json_error_t *jerr)
{
	feed fd = {t, n, 0, 0, 0};

	*open = *close = 0;
	if (!sf_jsonpath_array(t, n, key, &fd.open, &fd.close))
		return json_loadb(t, n, flags, jerr);
	*open = fd.open;
	*close = fd.close;
	return json_load_callback(feed_read, &fd, flags, jerr);
}

int
sf_jsonpath_element(const char *t, size_t close, size_t *at, size_t *start,
                    size_t *end, const char **problem)
{
	size_t i = skip_blank(t, close, *at + 1);

	*problem = NULL;
	/* *at is the '[' or the ',' before this element */
	if (i >= close) {
		if (t[*at] == ',')
			*problem = "a value expected after ','";
		*at = i;
		return 0;
	}
	*start = i;
	*end = skip_value(t, close, i);
	i = skip_blank(t, close, *end);
	*at = i;
	if (i < close && t[i] != ',') {
		*problem = "',' or ']' expected";
		return 0;
	}
	return 1;
}
