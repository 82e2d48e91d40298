/*
 * data.c - a command's model and rows, opened one way.
 */
#include "run/data.h"
#include "base/suggest.h"
#include "input/library.h"
#include "run/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int
sf_run_data_load(const char *path, const char *library, unsigned flags,
                 const sf_data_override *change, sf_warn_fn warn,
                 void *warn_ctx, sf_model_set **out, sf_error *err)
{
	char *file = NULL;
	int rc;

	*out = NULL;
	if (path[0] == SF_LIBRARY_PREFIX) {
		if ((rc = sf_library_find(library, path + 1, warn, warn_ctx,
		                          &file, err)) != SF_OK)
			return rc;
		path = file;
	}
	rc = sf_model_load_flags(path, flags, out, warn, warn_ctx, err);
	free(file);
	return rc == SF_OK ? sf_run_data_change(out, change, err) : rc;
}

int
sf_run_data_change(sf_model_set **set, const sf_data_override *change,
                   sf_error *err)
{
	int rc = SF_OK;

	for (size_t i = 0; rc == SF_OK && change != NULL && i < (*set)->count;
	     i++)
		rc = sf_model_override((*set)->models[i], change, err);
	if (rc != SF_OK) {
		sf_model_set_free(*set);
		*set = NULL;
	}
	return rc;
}

const sf_model *
sf_run_data_choose(const sf_model_set *set, const char *name, const char *path,
                   sf_error *err)
{
	const char *names[64], *near;
	size_t n = 0;

	/* An ensemble is read as one: its first model stands for it. */
	if (name == NULL && (set->count == 1 || set->ensemble))
		return set->models[0];
	for (size_t i = 0; i < set->count; i++) {
		if (name != NULL && strcmp(set->models[i]->name, name) == 0)
			return set->models[i];
		if (n < 64)
			names[n++] = set->models[i]->name;
	}
	if (name == NULL) {
		sf_error_set(err, SF_EREQUEST,
		             "%s holds %zu models: choose one with --model "
		             "NAME, or rank them with 'scalefit compare'",
		             path, set->count);
		return NULL;
	}
	if ((near = sf_suggest_nearest(name, names, n)) != NULL)
		sf_error_set(err, SF_EREQUEST,
		             "%s has no model named '%s'; did you mean '%s'?",
		             path, name, near);
	else
		sf_error_set(err, SF_EREQUEST, "%s has no model named '%s'",
		             path, name);
	return NULL;
}

int
sf_run_data_open(const sf_model *m, const sf_run_data *d, sf_loss loss,
                 int named, sf_warn_fn warn, void *warn_ctx, sf_problem *p,
                 sf_error *err)
{
	return sf_problem_open_rows(m, d->path, d->table, loss, named, warn,
	                            warn_ctx, p, err);
}

int
sf_run_data_prepare(const sf_model_set *set, const sf_run_data *d,
                    const sf_fit_options *o, sf_warn_fn warn, void *warn_ctx,
                    const sf_model **m, sf_problem *p, sf_error *err)
{
	memset(p, 0, sizeof *p);
	if ((*m = sf_run_data_choose(set, d->model, set->models[0]->path,
	                             err)) == NULL)
		return SF_EREQUEST;
	return sf_run_data_open(*m, d, sf_fit_loss(*m, o), set->count > 1, warn,
	                        warn_ctx, p, err);
}

int
sf_run_data_grouped(const sf_model *m, const sf_run_data *d)
{
	return d->by != NULL || m->by.text != NULL;
}

int
sf_run_data_ensemble(const sf_model_set *set, const sf_run_data *d,
                     const sf_fit_options *o, int *ensemble, sf_error *err)
{
	const sf_loss_method *first;

	*ensemble = set->ensemble && d->model == NULL;
	if (!*ensemble)
		return SF_OK;
	if (sf_run_data_grouped(set->models[0], d))
		return sf_run_request(
		    err,
		    "%s is an ensemble, fitted on all its rows: "
		    "it takes no %s; choose one of its "
		    "formulas with --model NAME to run it by "
		    "group",
		    set->models[0]->path, d->by != NULL ? "--by" : "data.by");
	first = sf_loss_get(sf_fit_loss(set->models[0], o));
	for (size_t i = 1; i < set->count; i++) {
		const sf_loss_method *l =
		    sf_loss_get(sf_fit_loss(set->models[i], o));

		if (l->multiplicative != first->multiplicative)
			return sf_run_request(
			    err,
			    "%s is an ensemble whose formulas' errors differ "
			    "in kind: '%s' fits with loss %s (%s errors), "
			    "'%s' with %s (%s): their mixture needs one; give "
			    "them one loss (fit.loss, or --loss)",
			    set->models[0]->path, set->models[0]->name,
			    first->name,
			    first->multiplicative ? "multiplicative"
			                          : "additive",
			    set->models[i]->name, l->name,
			    l->multiplicative ? "multiplicative" : "additive");
	}
	return SF_OK;
}

int
sf_run_data_read(sf_read_fn read, void *ctx, const char *name, sf_table **out,
                 sf_error *err)
{
	size_t n;
	char *text;
	int rc;

	*out = NULL;
	if ((rc = sf_units_read(read, ctx, &text, &n, err)) != SF_OK)
		return rc;
	rc = sf_table_parse(text, n, name, NULL, out, err);
	free(text);
	return rc;
}

/* Whether DIR holds a formula library (an expressions/ folder). */
static int
has_library(const char *dir)
{
	char path[4096];
	struct stat st;

	if ((size_t)snprintf(path, sizeof path, "%s/expressions", dir) >=
	    sizeof path)
		return 0;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *
sf_run_library_dir(void)
{
	const char *dir = getenv("SCALEFIT_LIBRARY");

	if (dir != NULL && dir[0] != '\0')
		return dir;
	/* A program run from the tree it was built in, before make install,
	 * finds the library of that source tree. */
	if (!has_library(SF_PKGDATADIR) && has_library(SF_SRCDIR))
		return SF_SRCDIR;
	return SF_PKGDATADIR;
}
