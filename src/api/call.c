/*
 * call.c - the scope, errors and warnings of the C API's calls.
 */
#include "api/call.h"

#include <gsl/gsl_errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The public codes are the library's own. */
_Static_assert((int)SCALEFIT_ENOMEM == (int)SF_ENOMEM &&
                   (int)SCALEFIT_EIO == (int)SF_EIO &&
                   (int)SCALEFIT_ESYNTAX == (int)SF_ESYNTAX &&
                   (int)SCALEFIT_ENAME == (int)SF_ENAME &&
                   (int)SCALEFIT_ETYPE == (int)SF_ETYPE &&
                   (int)SCALEFIT_EVALUE == (int)SF_EVALUE &&
                   (int)SCALEFIT_EUSAGE == (int)SF_EUSAGE &&
                   (int)SCALEFIT_EFAIL == (int)SF_EFAIL &&
                   (int)SCALEFIT_EINTERNAL == (int)SF_EINTERNAL &&
                   (int)SCALEFIT_EREQUEST == (int)SF_EREQUEST,
               "scalefit.h's codes are base/error.h's");
_Static_assert(sizeof((scalefit_error *)0)->file >= SF_ERROR_FILE_MAX &&
                   sizeof((scalefit_error *)0)->message >= SF_ERROR_MESSAGE_MAX,
               "a scalefit_error holds an sf_error's place and message");

/* Process state: GSL's error handler is turned off once. */
static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

/* Process state: one file written at a time (call.h says why). */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

static void
gsl_off(void)
{
	gsl_set_error_handler_off();
}

void
sf_call_begin(sf_call *call)
{
	pthread_once(&gsl_once, gsl_off);
	call->old = (locale_t)0;
	call->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (call->c != (locale_t)0)
		call->old = uselocale(call->c);
}

void
sf_call_end(sf_call *call)
{
	if (call->c == (locale_t)0)
		return;
	uselocale(call->old);
	freelocale(call->c);
	call->c = (locale_t)0;
}

void
sf_call_write_lock(void)
{
	pthread_mutex_lock(&write_lock);
}

void
sf_call_write_unlock(void)
{
	pthread_mutex_unlock(&write_lock);
}

void
sf_call_clear(scalefit_error *out)
{
	if (out == NULL)
		return;
	out->code = SCALEFIT_OK;
	out->line = out->column = 0;
	out->file[0] = out->message[0] = out->text[0] = '\0';
}

/* The diagnostic sf_error_format writes, without its "scalefit: SEVERITY: "
 * and its final newline, into buf (size bytes). */
static size_t
format_text(const sf_error *e, const char *severity, char *buf, size_t size)
{
	size_t skip = strlen("scalefit: : ") + strlen(severity);
	size_t n = sf_error_format(e, severity, buf, size);

	if (n >= size)
		n = size - 1;
	if (n >= skip)
		memmove(buf, buf + skip, n - skip + 1);
	n = n >= skip ? n - skip : 0;
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

int
sf_call_error(scalefit_error *out, const sf_error *e)
{
	if (out == NULL)
		return e->code;
	out->code = e->code;
	out->line = e->line;
	out->column = e->column;
	snprintf(out->file, sizeof out->file, "%s", e->file);
	snprintf(out->message, sizeof out->message, "%s", e->message);
	format_text(e, "error", out->text, sizeof out->text);
	return e->code;
}

char *
sf_call_text(const sf_error *e, const char *severity)
{
	size_t size = sf_error_format(e, severity, NULL, 0) + 1;
	char *text = malloc(size);

	if (text != NULL)
		format_text(e, severity, text, size);
	return text;
}

/* Room for one more text in w: 0, or -1 when memory ran out. */
static int
grow(sf_warnings *w)
{
	size_t cap = w->cap > 0 ? 2 * w->cap : 8;
	char **more;

	if (w->count < w->cap)
		return 0;
	if ((more = realloc(w->texts, cap * sizeof *more)) == NULL)
		return -1;
	w->texts = more;
	w->cap = cap;
	return 0;
}

void
sf_warnings_keep(void *ctx, const sf_error *warning)
{
	sf_warnings *w = ctx;
	char *text = NULL;

	if (grow(w) != 0 || (text = sf_call_text(warning, "warning")) == NULL)
		w->lost = 1;
	else
		w->texts[w->count++] = text;
}

int
sf_warnings_append(sf_warnings *to, const sf_warnings *from)
{
	for (size_t i = 0; i < from->count; i++) {
		if (grow(to) != 0 ||
		    (to->texts[to->count] = strdup(from->texts[i])) == NULL)
			return SF_ENOMEM;
		to->count++;
	}
	return from->lost ? SF_ENOMEM : SF_OK;
}

void
sf_warnings_clear(sf_warnings *w)
{
	if (w == NULL)
		return;
	for (size_t i = 0; i < w->count; i++)
		free(w->texts[i]);
	free(w->texts);
	memset(w, 0, sizeof *w);
}

const char *
scalefit_code_name(int code)
{
	return sf_status_name(code);
}

const char *
scalefit_version(void)
{
	return PACKAGE_VERSION;
}
