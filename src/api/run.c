/*
 * run.c - the C API's runs (api/scalefit.h): each a thin layer over its
 * command's run (run/): the settings read by name (api/options.h), the
 * model set and rows given as run/ takes them (api/inputs.h), the run,
 * and its output kept as a report (api/result.h).
 */
#include "api/call.h"
#include "api/inputs.h"
#include "api/options.h"
#include "api/result.h"
#include "base/atomic.h"
#include "run/compare.h"
#include "run/discover.h"
#include "run/fit.h"
#include "run/next.h"
#include "run/predict.h"
#include "run/scale.h"
#include "run/validate.h"
#include "use/fitgroups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one call of a run holds until it ends. */
typedef struct call_state {
	sf_call call;
	sf_error e;
	sf_options o;
	sf_warnings w;
	const sf_model_set *set; /* the model set run on */
	sf_model_set *owned;     /* that set, when loaded for this call */
	sf_table *table;         /* the rows of columns in memory */
	scalefit_report report;  /* the result, until it is handed over */
} call_state;

static void
begin(call_state *x, scalefit_error *err)
{
	memset(x, 0, sizeof *x);
	sf_call_begin(&x->call);
	sf_error_clear(&x->e);
	sf_call_clear(err);
}

/* End the call: release what it holds; rc's error to err. */
static int
end(call_state *x, int rc, scalefit_error *err)
{
	sf_options_free(&x->o);
	sf_warnings_clear(&x->w);
	sf_model_set_free(x->owned);
	sf_table_free(x->table);
	sf_result_clear(&x->report);
	sf_call_end(&x->call);
	return rc == SF_OK ? SCALEFIT_OK : sf_call_error(err, &x->e);
}

/* begin, for a call that returns a report: *out stays NULL unless the
 * call ends well. */
static void
begin_report(call_state *x, scalefit_report **out, scalefit_error *err)
{
	begin(x, err);
	*out = NULL;
}

/* end, handing the call's report to *out when rc is SF_OK. */
static int
end_report(call_state *x, int rc, scalefit_report **out, scalefit_error *err)
{
	return end(x, rc == SF_OK ? sf_result_hand(&x->report, out, &x->e) : rc,
	           err);
}

/* The model set of m to run on (x->set), with the data change, and the
 * rows of d into data. */
static int
open_inputs(call_state *x, const scalefit_model *m, unsigned flags,
            const scalefit_data *d, sf_run_data *data)
{
	int rc = sf_inputs_models(m, flags, &data->change, x->o.quiet, &x->w,
	                          &x->set, &x->owned, &x->e);

	return rc == SF_OK ? sf_inputs_rows(d, data, &x->table, &x->e) : rc;
}

/* The warnings' sink of a run: x's list, or none when quiet. */
static sf_warn_fn
warner(const call_state *x)
{
	return x->o.quiet ? NULL : sf_warnings_keep;
}

/* ---- fit ----------------------------------------------------------------- */

/* Refuse output when it names the model file or the rows' file. */
static int
check_output(call_state *x, const sf_model *m, const sf_run_data *data)
{
	const char *output = x->o.output;
	const char *rows = data->path != NULL ? data->path : m->data_file;

	if (output == NULL)
		return SF_OK;
	if (sf_file_same(output, m->path))
		return sf_run_request(
		    &x->e,
		    "--output '%s' is the model file '%s': it "
		    "would be overwritten",
		    output, m->path);
	if (rows != NULL && data->table == NULL && sf_file_same(output, rows))
		return sf_run_request(&x->e,
		                      "--output '%s' is the data file '%s': it "
		                      "would be overwritten",
		                      output, rows);
	return SF_OK;
}

/* json written to path atomically, one file at a time (api/call.h). */
static int
save(const json_t *json, const char *path, sf_error *err)
{
	int rc;

	sf_call_write_lock();
	rc = sf_run_json_save(json, path, err);
	sf_call_write_unlock();
	return rc;
}

/* The fit of x's model set with settings r, into *out. */
static int
fit(call_state *x, sf_run_fit_settings *r, scalefit_fit **out)
{
	const sf_model *m = sf_run_data_choose(x->set, r->data.model,
	                                       x->set->models[0]->path, &x->e);
	sf_run_fit_result *res = NULL;
	char name[300];
	int rc;

	if (m == NULL)
		return SF_EREQUEST;
	if ((rc = check_output(x, m, &r->data)) != SF_OK ||
	    (rc = sf_run_fit(x->set, r, &res, &x->e)) != SF_OK)
		return rc;
	rc =
	    sf_result_make(&x->report, "fit", &res->out, &x->w,
	                   res->fleet != NULL && res->fleet->failed > 0, &x->e);
	sf_run_fit_result_free(res);
	if (rc == SF_OK && x->o.output != NULL)
		rc = save(x->report.json, x->o.output, &x->e);
	snprintf(name, sizeof name, "fit of %s", m->name);
	return rc != SF_OK ? rc : sf_result_fit(&x->report, name, out, &x->e);
}

int
scalefit_run_fit(const scalefit_model *m, const scalefit_data *d,
                 const scalefit_settings *s, scalefit_fit **out,
                 scalefit_error *err)
{
	sf_run_fit_settings r;
	call_state x;
	int rc;

	begin(&x, err);
	*out = NULL;
	sf_run_fit_settings_init(&r);
	if ((rc = sf_options_fit(s, &r, &x.o, &x.e)) == SF_OK &&
	    (rc = open_inputs(&x, m, 0, d, &r.data)) == SF_OK) {
		r.json = 1;
		r.warn = warner(&x);
		r.warn_ctx = &x.w;
		rc = fit(&x, &r, out);
	}
	return end(&x, rc, err);
}

/* A NUL after the length bytes of *text. */
static int
terminate(char **text, size_t length, sf_error *err)
{
	char *more = realloc(*text, length + 1);

	if (more == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	more[length] = '\0';
	*text = more;
	return SF_OK;
}

int
scalefit_fit_load(const char *path, scalefit_fit **out, scalefit_error *err)
{
	sf_fitfile_set *check = NULL;
	sf_run_output o = {0};
	json_error_t jerr;
	char *text = NULL;
	size_t length = 0;
	call_state x;
	int rc;

	begin(&x, err);
	*out = NULL;
	/* Read as predict reads it, so its errors are predict's. */
	if ((rc = sf_fitfile_read(path, &text, &length, &x.e)) == SF_OK &&
	    (rc = terminate(&text, length, &x.e)) == SF_OK &&
	    (rc = sf_fitfile_load_groups_text(path, text, NULL,
	                                      SF_FITFILE_NO_MEASURED, &check,
	                                      &x.e)) == SF_OK) {
		if ((o.json = json_loadb(text, length, 0, &jerr)) == NULL)
			rc = sf_error_set(&x.e, SF_ENOMEM, "out of memory");
		else if ((rc = sf_result_make(&x.report, "fit", &o, &x.w, 0,
		                              &x.e)) == SF_OK)
			rc = sf_result_fit(&x.report, path, out, &x.e);
	}
	sf_fitfile_set_free(check);
	free(text);
	return end(&x, rc, err);
}

int
scalefit_fit_save(const scalefit_fit *f, const char *path, scalefit_error *err)
{
	call_state x;

	begin(&x, err);
	return end(&x, save(f->report.json, path, &x.e), err);
}

/* ---- validate, compare --------------------------------------------------- */

int
scalefit_run_validate(const scalefit_model *m, const scalefit_data *d,
                      const scalefit_settings *s, scalefit_report **out,
                      scalefit_error *err)
{
	sf_run_validate_settings r;
	sf_run_validate_result *res = NULL;
	call_state x;
	int rc;

	begin_report(&x, out, err);
	sf_run_validate_settings_init(&r);
	if ((rc = sf_options_validate(s, &r, &x.o, &x.e)) != SF_OK ||
	    (rc = open_inputs(&x, m, 0, d, &r.data)) != SF_OK)
		return end(&x, rc, err);
	r.json = 1;
	r.warn = warner(&x);
	r.warn_ctx = &x.w;
	if ((rc = sf_run_validate(x.set, &r, &res, &x.e)) == SF_OK)
		rc = sf_result_make(&x.report, "validate", &res->out, &x.w,
		                    res->fleet != NULL
		                        ? res->fleet->failed > 0
		                        : res->holdout->predicted_rows == 0,
		                    &x.e);
	sf_run_validate_result_free(res);
	return end_report(&x, rc, out, err);
}

int
scalefit_run_compare(const scalefit_model *const *models, size_t n,
                     const scalefit_data *d, const scalefit_settings *s,
                     scalefit_report **out, scalefit_error *err)
{
	sf_model_set *sets[SF_RUN_COMPARE_MAX] = {0};
	sf_model_set *owned[SF_RUN_COMPARE_MAX] = {0};
	sf_run_compare_settings r;
	sf_run_compare_result *res = NULL;
	call_state x;
	int rc;

	begin_report(&x, out, err);
	sf_run_compare_settings_init(&r);
	if ((rc = sf_options_compare(s, &r, &x.o, &x.e)) != SF_OK)
		return end(&x, rc, err);
	if (n == 0 || n > SF_RUN_COMPARE_MAX)
		return end(&x,
		           sf_run_request(&x.e,
		                          n == 0 ? "compare needs at least one "
		                                   "model file"
		                                 : "at most %d model files",
		                          SF_RUN_COMPARE_MAX),
		           err);
	for (size_t i = 0; i < n && rc == SF_OK; i++) {
		const sf_model_set *set = NULL;

		rc = sf_inputs_models(models[i], 0, &r.data.change, x.o.quiet,
		                      &x.w, &set, &owned[i], &x.e);
		/* run/compare only reads the sets it borrows. */
		sets[i] = (sf_model_set *)set;
	}
	if (rc == SF_OK &&
	    (rc = sf_inputs_rows(d, &r.data, &x.table, &x.e)) == SF_OK) {
		r.json = 1;
		r.warn = warner(&x);
		r.warn_ctx = &x.w;
		if ((rc = sf_run_compare(sets, n, &r, &res, &x.e)) == SF_OK)
			rc = sf_result_make(
			    &x.report, "compare", &res->out, &x.w,
			    res->fleet != NULL && res->fleet->failed > 0, &x.e);
	}
	sf_run_compare_result_free(res);
	for (size_t i = 0; i < n && i < SF_RUN_COMPARE_MAX; i++)
		sf_model_set_free(owned[i]);
	return end_report(&x, rc, out, err);
}

/* ---- predict, scale, next ------------------------------------------------ */

/* The names and FIT.json texts of n fits, as run/ takes them: new arrays
 * of pointers into the fits, in *names and *texts. */
static int
fit_texts(const scalefit_fit *const *fits, size_t n, const char ***names,
          const char ***texts, sf_error *err)
{
	*names = calloc(n + 1, sizeof **names);
	*texts = calloc(n + 1, sizeof **texts);
	if (*names == NULL || *texts == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		(*names)[i] = fits[i]->name;
		(*texts)[i] = fits[i]->report.json_text;
	}
	return SF_OK;
}

int
scalefit_run_predict(const scalefit_fit *const *fits, size_t n,
                     const scalefit_settings *s, scalefit_report **out,
                     scalefit_error *err)
{
	sf_run_predict_settings r;
	sf_run_predict_result *res = NULL;
	const char **names = NULL, **texts = NULL;
	call_state x;
	int rc;

	begin_report(&x, out, err);
	memset(&r, 0, sizeof r);
	if ((rc = sf_options_predict(s, n, &r, &x.o, &x.e)) == SF_OK &&
	    (rc = fit_texts(fits, n, &names, &texts, &x.e)) == SF_OK) {
		r.fits = names;
		r.texts = texts;
		r.nfits = n;
		r.json = 1;
		r.warn = sf_warnings_keep; /* quiet: r.quiet, as predict's */
		r.warn_ctx = &x.w;
		if ((rc = sf_run_predict(&r, &res, &x.e)) == SF_OK)
			rc = sf_result_make(&x.report, "predict", &res->out,
			                    &x.w, 0, &x.e);
	}
	sf_run_predict_result_free(res);
	free(names);
	free(texts);
	return end_report(&x, rc, out, err);
}

/* Never draw the chart over one of the n fits' files. */
static int
check_plot(call_state *x, const char *plot, const char *const *names, size_t n)
{
	for (size_t i = 0; plot != NULL && i < n; i++)
		if (sf_file_same(plot, names[i]))
			return sf_run_request(
			    &x->e,
			    "--plot '%s' is the fit file '%s': "
			    "it would be overwritten",
			    plot, names[i]);
	return SF_OK;
}

/* The scale run of r, its chart written under the write lock, and its
 * report (with the chart's SVG when drawn) into x. */
static int
scale(call_state *x, const sf_run_scale_settings *r)
{
	sf_run_scale_result *res = NULL;
	int rc;

	if (r->plot != NULL)
		sf_call_write_lock();
	rc = sf_run_scale(r, &res, &x->e);
	if (r->plot != NULL)
		sf_call_write_unlock();
	if (rc == SF_OK)
		rc = sf_result_make(&x->report, "scale", &res->out, &x->w, 0,
		                    &x->e);
	if (rc == SF_OK && res->chart != NULL) {
		size_t length = 0;
		const char *svg = sf_svg_text_of(res->chart, &length);

		if ((x->report.svg = malloc(length + 1)) == NULL)
			rc = sf_error_set(&x->e, SF_ENOMEM, "out of memory");
		else {
			memcpy(x->report.svg, svg, length);
			x->report.svg[length] = '\0';
		}
	}
	sf_run_scale_result_free(res);
	return rc;
}

int
scalefit_run_scale(const scalefit_fit *const *fits, size_t n,
                   const scalefit_settings *s, scalefit_report **out,
                   scalefit_error *err)
{
	sf_run_scale_settings r;
	const char **names = NULL, **texts = NULL;
	call_state x;
	int rc;

	begin_report(&x, out, err);
	sf_run_scale_settings_init(&r);
	if ((rc = sf_options_scale(s, &r, &x.o, &x.e)) == SF_OK &&
	    (rc = fit_texts(fits, n, &names, &texts, &x.e)) == SF_OK &&
	    (rc = check_plot(&x, r.plot, names, n)) == SF_OK) {
		r.fits = names;
		r.texts = texts;
		r.nfits = n;
		r.json = 1;
		r.warn = sf_warnings_keep; /* quiet: r.quiet, as scale's */
		r.warn_ctx = &x.w;
		rc = scale(&x, &r);
	}
	free(names);
	free(texts);
	return end_report(&x, rc, out, err);
}

int
scalefit_run_next(const scalefit_fit *const *fits, size_t n,
                  const scalefit_settings *s, scalefit_report **out,
                  scalefit_error *err)
{
	sf_run_next_settings r;
	sf_run_next_result *res = NULL;
	const char **names = NULL, **texts = NULL;
	call_state x;
	int rc;

	begin_report(&x, out, err);
	sf_run_next_settings_init(&r);
	if ((rc = sf_options_next(s, &r, &x.o, &x.e)) == SF_OK &&
	    (rc = fit_texts(fits, n, &names, &texts, &x.e)) == SF_OK) {
		r.fits = names;
		r.texts = texts;
		r.nfits = n;
		r.json = 1;
		r.warn = sf_warnings_keep; /* next has nothing to silence */
		r.warn_ctx = &x.w;
		if ((rc = sf_run_next(&r, &res, &x.e)) == SF_OK)
			rc = sf_result_make(&x.report, "next", &res->out, &x.w,
			                    0, &x.e);
	}
	sf_run_next_result_free(res);
	free(names);
	free(texts);
	return end_report(&x, rc, out, err);
}

/* ---- discover ------------------------------------------------------------ */

/* The answer's model file of res written to output whole (base/atomic.h),
 * one file at a time (api/call.h). */
static int
write_model(const char *output, const sf_run_discover_result *res,
            sf_error *err)
{
	int rc;

	if (output == NULL || res->model_text == NULL)
		return SF_OK;
	sf_call_write_lock();
	rc = sf_write_atomic(output, res->model_text, strlen(res->model_text),
	                     "the model file", err);
	sf_call_write_unlock();
	return rc;
}

int
scalefit_run_discover(const scalefit_model *m, const scalefit_data *d,
                      const scalefit_settings *s, scalefit_report **out,
                      scalefit_error *err)
{
	sf_run_discover_settings r;
	sf_run_discover_result *res = NULL;
	call_state x;
	int rc;

	begin_report(&x, out, err);
	sf_run_discover_settings_init(&r);
	if ((rc = sf_options_discover(s, &r.options, &r.data.change, &x.o,
	                              &x.e)) != SF_OK ||
	    (rc = open_inputs(&x, m, SF_MODEL_FORMULA_OPTIONAL, d, &r.data)) !=
	        SF_OK)
		return end(&x, rc, err);
	r.data.by = x.o.by;
	r.data.details = x.o.details;
	r.output = x.o.output;
	r.library = sf_run_library_dir();
	r.shapes = x.o.shapes;
	r.json = 1;
	r.warn = warner(&x);
	r.warn_ctx = &x.w;
	if ((rc = sf_run_discover(x.set, &r, &res, &x.e)) == SF_OK &&
	    (rc = write_model(r.output, res, &x.e)) == SF_OK)
		rc = sf_result_make(
		    &x.report, "discover", &res->out, &x.w,
		    res->fleet != NULL && res->fleet->failed > 0, &x.e);
	sf_run_discover_result_free(res);
	return end_report(&x, rc, out, err);
}
