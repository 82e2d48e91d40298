/*
 * json.c - building JSON documents with one failure flag.
 */
#include "use/json.h"

#include "use/report.h"

#include <stdarg.h>

void
sf_json_put(json_t *o, const char *key, json_t *v, int *ok)
{
	if (v == NULL || json_object_set_new(o, key, v) != 0)
		*ok = 0;
}

json_t *
sf_json_pair(double a, double b)
{
	json_t *v = json_array();

	if (v != NULL && (json_array_append_new(v, sf_json_number(a)) != 0 ||
	                  json_array_append_new(v, sf_json_number(b)) != 0)) {
		json_decref(v);
		return NULL;
	}
	return v;
}

int
sf_json_new(int *ok, const char *kinds, ...)
{
	va_list ap;
	int made = 1;

	va_start(ap, kinds);
	for (const char *k = kinds; *k != '\0'; k++) {
		json_t **v = va_arg(ap, json_t **);

		*v = *k == 'a' ? json_array() : json_object();
		made &= *v != NULL;
	}
	va_end(ap);
	if (made)
		return 1;
	va_start(ap, kinds);
	for (const char *k = kinds; *k != '\0'; k++) {
		json_t **v = va_arg(ap, json_t **);

		json_decref(*v);
		*v = NULL;
	}
	va_end(ap);
	*ok = 0;
	return 0;
}
