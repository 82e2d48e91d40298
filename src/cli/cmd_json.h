/*
 * cmd_json.h - the few jansson helpers that `predict` and `scale` share
 * when they build their JSON output.  Internal to the program.
 *
 * Both record an allocation failure in *ok instead of returning it, so a
 * whole tree can be built and checked once at the end.
 */
#ifndef SF_CMD_JSON_H
#define SF_CMD_JSON_H

#include <jansson.h>

/* Set o[key] = v, taking v's reference; a NULL v or a failure clears *ok. */
void cmd_json_put(json_t *o, const char *key, json_t *v, int *ok);

/* The array [a, b] of two numbers (null when not finite), or NULL when out
 * of memory. */
json_t *cmd_json_pair(double a, double b);

#endif /* SF_CMD_JSON_H */
