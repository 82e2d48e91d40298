/*
 * json.c - building JSON documents with one failure flag.
 */
#include "use/json.h"

#include "use/report.h"

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
