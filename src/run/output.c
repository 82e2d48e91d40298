/*
 * output.c - a command's JSON document and text report, in memory.
 */
#define _GNU_SOURCE /* open_memstream */

#include "run/output.h"
#include "use/report.h"

#include <stdarg.h>
#include <stdlib.h>

void
sf_run_output_clear(sf_run_output *o)
{
	if (o == NULL)
		return;
	json_decref(o->json);
	free(o->text);
	o->json = NULL;
	o->text = NULL;
	o->write_json = NULL;
	o->json_arg = NULL;
}

int
sf_run_text(sf_run_print_fn print, const void *arg, char **text, sf_error *err)
{
	size_t length = 0;
	FILE *out;
	int rc;

	*text = NULL;
	if ((out = open_memstream(text, &length)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	rc = print(out, arg);
	/* a stream that could not grow may close with no text at all */
	if (fclose(out) != 0 || rc != SF_OK || *text == NULL) {
		free(*text);
		*text = NULL;
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	return SF_OK;
}

int
sf_run_json_print(const json_t *json, FILE *out, sf_error *err)
{
	return sf_report_print_json(json, out, err);
}

/* sf_run_json_print() as an sf_run_print_fn: arg is the JSON. */
static int
print_json(FILE *out, const void *arg)
{
	return sf_report_print_json(arg, out, NULL);
}

int
sf_run_json_text(const json_t *json, char **text, sf_error *err)
{
	return sf_run_text(print_json, json, text, err);
}

int
sf_run_json_save(const json_t *json, const char *path, sf_error *err)
{
	return sf_report_save(json, path, err);
}

int
sf_run_request(sf_error *err, const char *fmt, ...)
{
	char message[SF_ERROR_MESSAGE_MAX];
	va_list ap;

	if (err == NULL)
		return SF_EREQUEST;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	sf_error_clear(err);
	return sf_error_set(err, SF_EREQUEST, "%s", message);
}

int
sf_run_output_json_print(const sf_run_output *o, FILE *out, sf_error *err)
{
	int rc;

	if (o->json != NULL)
		return sf_report_print_json(o->json, out, err);
	if (o->write_json == NULL)
		return SF_OK;
	rc = o->write_json(out, o->json_arg);
	if (rc == SF_OK && (fputc('\n', out) == EOF || ferror(out)))
		rc = SF_EIO;
	if (rc == SF_ENOMEM)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc != SF_OK)
		return sf_error_set(err, SF_EIO, "could not write the report");
	return SF_OK;
}

/* sf_run_output_json_print() as an sf_run_print_fn: arg is the output. */
static int
print_output_json(FILE *out, const void *arg)
{
	return sf_run_output_json_print(arg, out, NULL);
}

int
sf_run_output_json_text(const sf_run_output *o, char **text, sf_error *err)
{
	*text = NULL;
	if (o->json == NULL && o->write_json == NULL)
		return SF_OK;
	return sf_run_text(print_output_json, o, text, err);
}
