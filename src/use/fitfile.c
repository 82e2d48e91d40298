/*
 * fitfile.c - reading FIT.json back into a compiled formula, section by
 * section.
 *
 * jansson parses the text and says where a syntax error is; an ill-typed
 * or missing value is reported at FILE:LINE:COL by its path through
 * jsondoc.h's typed access.  The formula is compiled by formula.h's
 * builder, as a model's is; place() tells it where each name and formula
 * is in the file.
 */
#include "use/fitfile.h"
#include "use/jsondoc.h"
#include "use/jsonpath.h"
#include "base/file.h"
#include "base/number.h"
#include "base/suggest.h"
#include "base/units.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the loader needs everywhere: the document (its text for
 * positions, the error record, the fit's warnings) and the fit being
 * filled. */
typedef struct loader {
	sf_jsondoc doc;
	sf_fitfile *f;
	/* term k's formula is the value of "model.terms.NAME" itself (1) or
	 * of its "expr" member (0) */
	unsigned char *term_is_string;
	double *lower, *upper;    /* theta's bounds, NaN when not given */
	const char **fixed_names; /* while compiling: the fixed constants */
	unsigned flags;           /* enum sf_fitfile_flag */
	/* The residuals array's '[' and ']' when it was kept out of the
	 * tree (its elements are parsed one at a time), else both 0. */
	size_t res_open, res_close;
	size_t measured_cap; /* rows f->measured has room for */
} loader;

/* ---- sections ------------------------------------------------------------ */

static int
load_inputs(loader *ld, const json_t *model)
{
	sf_fitfile *f = ld->f;
	const char *name;
	json_t *inputs, *v;
	int rc;

	inputs = sf_jsondoc_member(&ld->doc, model, "model", "inputs", "object",
	                           1, &rc);
	if (inputs == NULL)
		return rc;
	f->inputs = calloc(json_object_size(inputs) + 1, sizeof *f->inputs);
	if (f->inputs == NULL)
		return sf_jsondoc_oom(&ld->doc);
	json_object_foreach(inputs, name, v)
	{
		sf_fitfile_input *in = &f->inputs[f->ninputs++];
		char path[SF_JSONDOC_PATH_MAX];
		json_t *column = v, *levels;

		in->lo = in->hi = NAN;
		sf_jsondoc_member_path(path, "model.inputs", name);
		if ((in->name = strdup(name)) == NULL)
			return sf_jsondoc_oom(&ld->doc);
		if (json_is_object(v)) {
			column = sf_jsondoc_member(&ld->doc, v, path, "column",
			                           "string", 1, &rc);
			if (column == NULL)
				return rc;
			levels = sf_jsondoc_member(&ld->doc, v, path, "levels",
			                           "array", 1, &rc);
			if (levels == NULL)
				return rc;
			in->levels = calloc(json_array_size(levels) + 1,
			                    sizeof *in->levels);
			if (in->levels == NULL)
				return sf_jsondoc_oom(&ld->doc);
			for (size_t k = 0; k < json_array_size(levels); k++) {
				char at[SF_JSONDOC_PATH_MAX],
				    lpath[SF_JSONDOC_PATH_MAX];
				json_t *s = json_array_get(levels, k);

				sf_jsondoc_member_path(lpath, path, "levels");
				sf_jsondoc_element_path(at, lpath, k);
				if (!sf_jsondoc_check_type(&ld->doc, s, at,
				                           "string"))
					return SF_ETYPE;
				in->levels[k] = strdup(json_string_value(s));
				if (in->levels[k] == NULL)
					return sf_jsondoc_oom(&ld->doc);
				in->nlevels++;
			}
		} else if (!sf_jsondoc_check_type(&ld->doc, v, path,
		                                  "string")) {
			return SF_ETYPE;
		}
		if ((in->column = strdup(json_string_value(column))) == NULL)
			return sf_jsondoc_oom(&ld->doc);
	}
	return SF_OK;
}

/* The fitted parameters (theta order) and the fixed constants. */
static int
load_parameters(loader *ld, const json_t *root, json_t *fixed)
{
	sf_fitfile *f = ld->f;
	const char *name;
	json_t *params, *v;
	size_t n;
	int rc;

	params = sf_jsondoc_member(&ld->doc, root, "", "parameters", "object",
	                           1, &rc);
	if (params == NULL)
		return rc;
	n = json_object_size(params);
	f->param_names = calloc(n + 1, sizeof *f->param_names);
	f->theta = calloc(n + 1, sizeof *f->theta);
	ld->lower = calloc(n + 1, sizeof *ld->lower);
	ld->upper = calloc(n + 1, sizeof *ld->upper);
	if (f->param_names == NULL || f->theta == NULL || ld->lower == NULL ||
	    ld->upper == NULL)
		return sf_jsondoc_oom(&ld->doc);
	json_object_foreach(params, name, v)
	{
		char path[SF_JSONDOC_PATH_MAX], at[SF_JSONDOC_PATH_MAX];
		json_t *value, *bound;
		double x;
		size_t j = f->nparams;

		sf_jsondoc_member_path(path, "parameters", name);
		if (!sf_jsondoc_check_type(&ld->doc, v, path, "object"))
			return SF_ETYPE;
		value = sf_jsondoc_member(&ld->doc, v, path, "value", "number",
		                          1, &rc);
		if (value == NULL)
			return rc;
		sf_jsondoc_member_path(at, path, "value");
		if (!isfinite(x = json_number_value(value)))
			return sf_jsondoc_fail(&ld->doc, at, SF_EVALUE,
			                       "%s is not finite", at);
		if (json_is_true(json_object_get(v, "fixed"))) {
			/* model.fixed, when present, already has it. */
			if (json_object_get(fixed, name) == NULL &&
			    json_object_set(fixed, name, value) != 0)
				return sf_jsondoc_oom(&ld->doc);
			continue;
		}
		if ((f->param_names[j] = strdup(name)) == NULL)
			return sf_jsondoc_oom(&ld->doc);
		/* Counted now: a bad bound below must not leak the name. */
		f->nparams++;
		f->theta[j] = x;
		ld->lower[j] = ld->upper[j] = NAN;
		if ((bound = sf_jsondoc_member(&ld->doc, v, path, "min",
		                               "number", 0, &rc)) != NULL)
			ld->lower[j] = json_number_value(bound);
		else if (rc != SF_OK)
			return rc;
		if ((bound = sf_jsondoc_member(&ld->doc, v, path, "max",
		                               "number", 0, &rc)) != NULL)
			ld->upper[j] = json_number_value(bound);
		else if (rc != SF_OK)
			return rc;
		/* A fit keeps its constants within their bounds: one
		 * outside was edited (a time of -62494.8 followed). */
		if (ld->lower[j] > ld->upper[j])
			return sf_jsondoc_fail(&ld->doc, path, SF_EVALUE,
			                       "%s has min %g > max %g", path,
			                       ld->lower[j], ld->upper[j]);
		if (x < ld->lower[j] || x > ld->upper[j])
			return sf_jsondoc_fail(
			    &ld->doc, at, SF_EVALUE,
			    "%s is %g, outside its bounds [%g, %g]: the "
			    "file was edited or damaged",
			    at, x, ld->lower[j], ld->upper[j]);
	}
	return SF_OK;
}

static int
load_terms(loader *ld, const json_t *model)
{
	sf_fitfile *f = ld->f;
	const char *name;
	json_t *terms, *v;
	int rc;

	terms = sf_jsondoc_member(&ld->doc, model, "model", "terms", "object",
	                          1, &rc);
	if (terms == NULL)
		return rc;
	f->terms = calloc(json_object_size(terms) + 1, sizeof *f->terms);
	ld->term_is_string = calloc(json_object_size(terms) + 1, 1);
	if (f->terms == NULL || ld->term_is_string == NULL)
		return sf_jsondoc_oom(&ld->doc);
	json_object_foreach(terms, name, v)
	{
		sf_fitfile_term *t = &f->terms[f->nterms];
		char path[SF_JSONDOC_PATH_MAX];
		json_t *expr = v, *kind;

		sf_jsondoc_member_path(path, "model.terms", name);
		ld->term_is_string[f->nterms++] = json_is_string(v);
		if ((t->name = strdup(name)) == NULL)
			return sf_jsondoc_oom(&ld->doc);
		t->kind = sf_term_kind_guess(name);
		if (json_is_object(v)) {
			if ((expr = sf_jsondoc_member(&ld->doc, v, path, "expr",
			                              "string", 1, &rc)) ==
			    NULL)
				return rc;
			kind = sf_jsondoc_member(&ld->doc, v, path, "kind",
			                         "string", 0, &rc);
			if (rc != SF_OK)
				return rc;
			for (int k = SF_TERM_OTHER;
			     kind != NULL && k <= SF_TERM_OVERHEAD; k++)
				if (strcmp(json_string_value(kind),
				           sf_term_kind_name(k)) == 0)
					t->kind = (sf_term_kind)k;
		} else if (!json_is_string(v)) {
			return sf_jsondoc_fail(
			    &ld->doc, path, SF_ETYPE,
			    "%s should be a string or an object with "
			    "expr, not %s",
			    path, sf_jsondoc_type_name(v));
		}
		if ((t->expr = strdup(json_string_value(expr))) == NULL)
			return sf_jsondoc_oom(&ld->doc);
	}
	return SF_OK;
}

/*
 * Covariance entries (i, j) and (j, i), i > j, against what a fit writes:
 * the matrix is symmetric (to rounding), an entry is null exactly when
 * one of its constants has no variance (held at a bound), and no
 * correlation lies outside [-1, 1].  An edited matrix gave bands of
 * +-69,000 around 15.3.
 */
static int
check_covariance(loader *ld, size_t i, size_t j)
{
	const size_t p = ld->f->nparams;
	const double *c = ld->f->cov;
	double a = c[i * p + j], b = c[j * p + i];
	double vi = c[i * p + i], vj = c[j * p + j], scale = sqrt(vi * vj);
	char at[SF_JSONDOC_PATH_MAX], other[SF_JSONDOC_PATH_MAX];

	sf_jsondoc_element_path(at, "covariance", i);
	sf_jsondoc_element_path(at, at, j);
	sf_jsondoc_element_path(other, "covariance", j);
	sf_jsondoc_element_path(other, other, i);
	if (isnan(a) != (isnan(vi) || isnan(vj)) || isnan(b) != isnan(a))
		return sf_jsondoc_fail(
		    &ld->doc, isnan(a) == isnan(b) ? at : other, SF_EVALUE,
		    "%s and %s should be null exactly when the variance "
		    "of %s or %s is: the file was edited or damaged",
		    at, other, ld->f->param_names[i], ld->f->param_names[j]);
	if (isnan(a))
		return SF_OK;
	if (fabs(a - b) > 1e-9 * fmax(fmax(fabs(a), fabs(b)), scale))
		return sf_jsondoc_fail(
		    &ld->doc, at, SF_EVALUE,
		    "%s is %g but %s is %g: a covariance is symmetric; "
		    "the file was edited or damaged",
		    at, a, other, b);
	if (fabs(a) > scale * (1 + 1e-6) + 1e-300)
		return sf_jsondoc_fail(
		    &ld->doc, at, SF_EVALUE,
		    "%s is %g: a correlation of %.4g between %s and %s, "
		    "outside [-1, 1]; the file was edited or damaged",
		    at, a, a / scale, ld->f->param_names[i],
		    ld->f->param_names[j]);
	return SF_OK;
}

/* covariance: P x P numbers or nulls; absent or null means none. */
static int
load_covariance(loader *ld, const json_t *root)
{
	sf_fitfile *f = ld->f;
	size_t p = f->nparams;
	json_t *rows;
	int rc;

	rows = sf_jsondoc_member(&ld->doc, root, "", "covariance", "array", 0,
	                         &rc);
	if (rows == NULL)
		return rc;
	if (json_array_size(rows) != p)
		return sf_jsondoc_fail(
		    &ld->doc, "covariance", SF_EVALUE,
		    "covariance has %zu rows, but the fit has %zu "
		    "parameters",
		    json_array_size(rows), p);
	if ((f->cov = calloc(p * p + 1, sizeof *f->cov)) == NULL)
		return sf_jsondoc_oom(&ld->doc);
	for (size_t i = 0; i < p; i++) {
		char path[SF_JSONDOC_PATH_MAX], at[SF_JSONDOC_PATH_MAX];
		json_t *row = json_array_get(rows, i);

		sf_jsondoc_element_path(path, "covariance", i);
		if (!sf_jsondoc_check_type(&ld->doc, row, path, "array"))
			return SF_ETYPE;
		if (json_array_size(row) != p)
			return sf_jsondoc_fail(&ld->doc, path, SF_EVALUE,
			                       "%s has %zu values, not %zu",
			                       path, json_array_size(row), p);
		for (size_t j = 0; j < p; j++) {
			sf_jsondoc_element_path(at, path, j);
			if ((rc = sf_jsondoc_number(
			         &ld->doc, json_array_get(row, j), at, 1,
			         &f->cov[i * p + j])) != SF_OK)
				return rc;
		}
		/* A negative variance would give a band of zero (or NaN)
		 * width: the file was corrupted. */
		if (f->cov[i * p + i] < 0) {
			sf_jsondoc_element_path(path, "covariance", i);
			sf_jsondoc_element_path(path, path, i);
			return sf_jsondoc_fail(
			    &ld->doc, path, SF_EVALUE,
			    "%s is a variance and should be >= 0, not %g", path,
			    f->cov[i * p + i]);
		}
	}
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < i; j++)
			if ((rc = check_covariance(ld, i, j)) != SF_OK)
				return rc;
	return SF_OK;
}

static int
load_dof(loader *ld, const json_t *root)
{
	json_t *metrics, *dof;
	int rc;

	metrics =
	    sf_jsondoc_member(&ld->doc, root, "", "metrics", "object", 0, &rc);
	if (metrics == NULL)
		return rc;
	dof = sf_jsondoc_member(&ld->doc, metrics, "metrics", "dof", "number",
	                        0, &rc);
	if (dof == NULL)
		return rc;
	ld->f->dof = json_number_value(dof);
	if (!(ld->f->dof >= 0))
		return sf_jsondoc_fail(&ld->doc, "metrics.dof", SF_EVALUE,
		                       "metrics.dof should be >= 0, not %g",
		                       ld->f->dof);
	return SF_OK;
}

/* A string member's copy, "" when absent or not a string. */
static char *
optional_text(const json_t *obj, const char *key)
{
	const json_t *v = obj != NULL ? json_object_get(obj, key) : NULL;

	return strdup(json_is_string(v) ? json_string_value(v) : "");
}

/* What model averaging compares: the fit's AICc, rows and loss.  All
 * optional; a value of the wrong type counts as absent. */
static int
load_provenance(loader *ld, const json_t *root)
{
	sf_fitfile *f = ld->f;
	const json_t *metrics = json_object_get(root, "metrics");
	const json_t *data = json_object_get(root, "data");
	const json_t *model = json_object_get(root, "model");
	const json_t *fit =
	    model != NULL ? json_object_get(model, "fit") : NULL;
	const json_t *aicc =
	    metrics != NULL ? json_object_get(metrics, "aicc") : NULL;
	const json_t *rows =
	    data != NULL ? json_object_get(data, "rows") : NULL;

	f->aicc = json_is_number(aicc) ? json_number_value(aicc) : NAN;
	f->data_rows = json_is_number(rows) ? json_number_value(rows) : NAN;
	f->data_sha256 = optional_text(data, "sha256");
	f->data_where = optional_text(data, "where");
	f->loss = optional_text(fit, "loss");
	if (f->data_sha256 == NULL || f->data_where == NULL || f->loss == NULL)
		return sf_jsondoc_oom(&ld->doc);
	return SF_OK;
}

static int
load_ranges(loader *ld, const json_t *root)
{
	sf_fitfile *f = ld->f;
	json_t *ranges;
	int rc;

	ranges = sf_jsondoc_member(&ld->doc, root, "", "input_ranges", "object",
	                           0, &rc);
	if (ranges == NULL)
		return rc;
	for (size_t i = 0; i < f->ninputs; i++) {
		char path[SF_JSONDOC_PATH_MAX], at[SF_JSONDOC_PATH_MAX];
		json_t *pair = json_object_get(ranges, f->inputs[i].name);

		sf_jsondoc_member_path(path, "input_ranges", f->inputs[i].name);
		if (pair == NULL || f->inputs[i].levels != NULL)
			continue;
		if (!sf_jsondoc_check_type(&ld->doc, pair, path, "array"))
			return SF_ETYPE;
		if (json_array_size(pair) != 2)
			return sf_jsondoc_fail(&ld->doc, path, SF_EVALUE,
			                       "%s should be [lowest, highest]",
			                       path);
		sf_jsondoc_element_path(at, path, 0);
		if ((rc = sf_jsondoc_number(&ld->doc, json_array_get(pair, 0),
		                            at, 1, &f->inputs[i].lo)) != SF_OK)
			return rc;
		sf_jsondoc_element_path(at, path, 1);
		if ((rc = sf_jsondoc_number(&ld->doc, json_array_get(pair, 1),
		                            at, 1, &f->inputs[i].hi)) != SF_OK)
			return rc;
		if (f->inputs[i].lo > f->inputs[i].hi)
			return sf_jsondoc_fail(
			    &ld->doc, path, SF_EVALUE, "%s is empty: %g > %g",
			    path, f->inputs[i].lo, f->inputs[i].hi);
	}
	return SF_OK;
}

/* jansson's error jerr about the text from byte offset base on (0: the
 * whole file; else one residual row) as an SF_ESYNTAX at FILE:LINE:COL. */
static int
syntax_error(const loader *ld, size_t base, const json_error_t *jerr)
{
	int line = jerr->line, column = jerr->column;

	/* jansson's column counts characters; ours bytes.  Its position
	 * is the byte offset after the last byte it read, the end of the
	 * offending token: point at that byte. */
	if (jerr->position >= 0 &&
	    base + (size_t)jerr->position <= ld->doc.length) {
		size_t at = base + (size_t)jerr->position;
		int l, c;

		sf_error_position(ld->doc.text, ld->doc.length,
		                  at > 0 ? at - 1 : 0, &l, &c);
		if (base > 0 || l == jerr->line)
			line = l, column = c;
	}
	sf_error_at(ld->doc.err, SF_ESYNTAX, ld->doc.name, line > 0 ? line : 0,
	            column > 0 ? column : 0, "not valid JSON: %s", jerr->text);
	sf_error_quote(ld->doc.err, ld->doc.text, ld->doc.length);
	return SF_ESYNTAX;
}

/* A syntax error at byte offset off of the text. */
static int
syntax_at(const loader *ld, size_t off, const char *what)
{
	char message[SF_ERROR_MESSAGE_MAX];

	snprintf(message, sizeof message, "not valid JSON: %s", what);
	return sf_jsondoc_error_at(&ld->doc, ld->doc.err, off, SF_ESYNTAX,
	                           message);
}

/* Residual row r (row, from the tree or parsed alone) into the measured
 * rows when every input and the observation are finite. */
static int
add_measured(loader *ld, const json_t *row, size_t r)
{
	sf_fitfile *f = ld->f;
	const size_t ni = f->ninputs;
	char path[SF_JSONDOC_PATH_MAX], at[SF_JSONDOC_PATH_MAX];
	json_t *inputs, *v;
	double *x, y;
	int complete = 1, rc;

	if (f->nmeasured == ld->measured_cap) {
		size_t cap = 2 * ld->measured_cap + 64;
		double *xs =
		    realloc(f->measured_inputs, (cap * ni + 1) * sizeof *xs);
		double *ys;

		if (xs == NULL)
			return sf_jsondoc_oom(&ld->doc);
		f->measured_inputs = xs;
		if ((ys = realloc(f->measured, cap * sizeof *ys)) == NULL)
			return sf_jsondoc_oom(&ld->doc);
		f->measured = ys;
		ld->measured_cap = cap;
	}
	x = &f->measured_inputs[f->nmeasured * ni];
	sf_jsondoc_element_path(path, "residuals", r);
	if (!sf_jsondoc_check_type(&ld->doc, row, path, "object"))
		return SF_ETYPE;
	sf_jsondoc_member_path(at, path, "inputs");
	if ((inputs = sf_jsondoc_member(&ld->doc, row, path, "inputs", "object",
	                                1, &rc)) == NULL)
		return rc;
	for (size_t i = 0; i < ni; i++) {
		char ip[SF_JSONDOC_PATH_MAX];

		sf_jsondoc_member_path(ip, at, f->inputs[i].name);
		v = json_object_get(inputs, f->inputs[i].name);
		if (v == NULL) {
			complete = 0;
			continue;
		}
		if ((rc = sf_jsondoc_number(&ld->doc, v, ip, 1, &x[i])) !=
		    SF_OK)
			return rc;
		complete &= isfinite(x[i]) != 0;
	}
	if ((v = sf_jsondoc_member(&ld->doc, row, path, "observed", "number", 0,
	                           &rc)) == NULL)
		return rc;
	y = json_number_value(v);
	if (complete && isfinite(y))
		f->measured[f->nmeasured++] = y;
	return SF_OK;
}

/* The residuals kept out of the tree (ld->res_open): each element parsed
 * alone from the text, so a million rows never become a million jansson
 * objects at once (1.26 GB for 1M rows, 172 MB of text). */
static int
stream_residuals(loader *ld)
{
	size_t at = ld->res_open, start, end;
	const char *problem;
	int rc = SF_OK;

	for (size_t r = 0; rc == SF_OK; r++) {
		json_error_t jerr;
		json_t *row;

		if (!sf_jsonpath_element(ld->doc.text, ld->res_close, &at,
		                         &start, &end, &problem))
			return problem == NULL ? SF_OK
			                       : syntax_at(ld, at, problem);
		row =
		    json_loadb(ld->doc.text + start, end - start,
		               JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
		if (row == NULL)
			return syntax_error(ld, start, &jerr);
		rc = add_measured(ld, row, r);
		json_decref(row);
	}
	return rc;
}

/* The measured rows, for plots and a scale's whole-valued inputs; a row
 * with a value missing is skipped. */
static int
load_residuals(loader *ld, const json_t *root)
{
	json_t *rows;
	int rc;

	if (ld->res_open < ld->res_close)
		return ld->flags & SF_FITFILE_NO_MEASURED
		           ? SF_OK
		           : stream_residuals(ld);
	rows =
	    sf_jsondoc_member(&ld->doc, root, "", "residuals", "array", 0, &rc);
	for (size_t r = 0; rows != NULL && r < json_array_size(rows); r++)
		if ((rc = add_measured(ld, json_array_get(rows, r), r)) !=
		    SF_OK)
			return rc;
	return rc;
}

/*
 * The bootstrap's replicates (kept of them usable, n in all) against the
 * fit: its count and its parameters' names as fit writes them; a constant
 * the fit knows to within a standard error cannot have replicates all
 * equal to another value (an error: they are another fit's, or made up);
 * a fitted value outside the range of its replicates is suspicious (a
 * warning).
 */
static int
check_replicates(loader *ld, const json_t *boot, size_t n, size_t kept)
{
	const sf_fitfile *f = ld->f;
	const size_t p = f->nparams;
	const json_t *count = json_object_get(boot, "replicates");
	const json_t *names = json_object_get(boot, "parameters");
	const char *name;
	json_t *v;
	size_t j = 0;

	if (json_is_number(count) && json_number_value(count) != (double)n)
		return sf_jsondoc_fail(
		    &ld->doc, "bootstrap.replicates", SF_EVALUE,
		    "bootstrap.replicates is %g, but bootstrap.samples "
		    "holds %zu",
		    json_number_value(count), n);
	json_object_foreach((json_t *)names, name, v)
	{
		if (j >= p || strcmp(name, f->param_names[j]) != 0)
			return sf_jsondoc_fail(
			    &ld->doc, "bootstrap.parameters", SF_EVALUE,
			    "bootstrap.parameters names %s where the "
			    "fit's constant %zu is %s: the replicates "
			    "are another fit's",
			    name, j + 1, j < p ? f->param_names[j] : "-");
		j++;
	}
	if (json_is_object(names) && j != p)
		return sf_jsondoc_fail(
		    &ld->doc, "bootstrap.parameters", SF_EVALUE,
		    "bootstrap.parameters names %zu constants, the fit "
		    "has %zu",
		    j, p);
	for (j = 0; j < p && kept >= 2; j++) {
		double lo = INFINITY, hi = -INFINITY, x = f->theta[j];
		double se = f->cov != NULL ? sqrt(f->cov[j * p + j]) : NAN;
		char at[SF_JSONDOC_PATH_MAX];

		for (size_t r = 0; r < kept; r++) {
			lo = fmin(lo, f->samples[r * p + j]);
			hi = fmax(hi, f->samples[r * p + j]);
		}
		/* a constant at a bound may stay there in every replicate */
		if (x == ld->lower[j] || x == ld->upper[j] ||
		    lo == ld->lower[j] || hi == ld->upper[j])
			continue;
		sf_jsondoc_member_path(at, "parameters", f->param_names[j]);
		if (lo == hi && lo != x && se > 1e-9 * fabs(x))
			return sf_jsondoc_fail(
			    &ld->doc, "bootstrap.samples", SF_EVALUE,
			    "the %zu bootstrap replicates of %s are all "
			    "%g, but the fit's value is %g with a standard "
			    "error of %g: they are not this fit's "
			    "replicates",
			    kept, f->param_names[j], lo, x, se);
		if (kept >= SF_FITFILE_MIN_SAMPLES && (x < lo || x > hi))
			sf_jsondoc_warn(
			    &ld->doc, at,
			    "%s is %g, outside the range [%g, %g] of its %zu "
			    "bootstrap replicates: they may be another fit's",
			    f->param_names[j], x, lo, hi, kept);
	}
	return SF_OK;
}

static int
load_bootstrap(loader *ld, const json_t *root)
{
	sf_fitfile *f = ld->f;
	size_t p = f->nparams, n, kept = 0;
	json_t *boot, *samples;
	int rc;

	boot = sf_jsondoc_member(&ld->doc, root, "", "bootstrap", "object", 0,
	                         &rc);
	if (boot == NULL)
		return rc;
	samples = sf_jsondoc_member(&ld->doc, boot, "bootstrap", "samples",
	                            "array", 1, &rc);
	if (samples == NULL)
		return rc;
	n = json_array_size(samples);
	if ((f->samples = calloc(n * p + 1, sizeof *f->samples)) == NULL)
		return sf_jsondoc_oom(&ld->doc);
	for (size_t s = 0; s < n; s++) {
		char path[SF_JSONDOC_PATH_MAX], at[SF_JSONDOC_PATH_MAX];
		json_t *theta = json_array_get(samples, s);
		size_t nulls = 0;

		sf_jsondoc_element_path(path, "bootstrap.samples", s);
		if (!sf_jsondoc_check_type(&ld->doc, theta, path, "array"))
			return SF_ETYPE;
		if (json_array_size(theta) != p)
			return sf_jsondoc_fail(
			    &ld->doc, path, SF_EVALUE,
			    "%s has %zu values, but the fit has %zu "
			    "parameters",
			    path, json_array_size(theta), p);
		/* fit --bootstrap writes a failed replicate as all nulls:
		 * skip it. */
		for (size_t j = 0; j < p; j++)
			nulls += json_is_null(json_array_get(theta, j));
		if (p > 0 && nulls == p)
			continue;
		for (size_t j = 0; j < p; j++) {
			double *x = &f->samples[kept * p + j];

			sf_jsondoc_element_path(at, path, j);
			if ((rc = sf_jsondoc_number(&ld->doc,
			                            json_array_get(theta, j),
			                            at, 0, x)) != SF_OK)
				return rc;
			if (!isfinite(*x))
				return sf_jsondoc_fail(&ld->doc, at, SF_EVALUE,
				                       "%s is not finite", at);
			/* replicates are fits within the same bounds */
			if (*x < ld->lower[j] || *x > ld->upper[j])
				return sf_jsondoc_fail(
				    &ld->doc, at, SF_EVALUE,
				    "%s is %g, outside the bounds [%g, "
				    "%g] of %s: not a replicate of this "
				    "fit",
				    at, *x, ld->lower[j], ld->upper[j],
				    f->param_names[j]);
		}
		kept++;
	}
	if ((rc = check_replicates(ld, boot, n, kept)) != SF_OK)
		return rc;
	/* A band from a handful of replicates is mostly noise (one gives
	 * zero width): below the minimum they are not used, and the band
	 * comes from the covariance. */
	f->nsamples = kept >= SF_FITFILE_MIN_SAMPLES ? kept : 0;
	return SF_OK;
}

/* ---- compiling ------------------------------------------------------------
 */

/* The byte offset, in the file, of byte column (1-based) of the string
 * value at offset quote; an escape sequence counts as one byte. */
static size_t
string_offset(const loader *ld, size_t quote, int column)
{
	size_t i = quote + 1;

	for (int c = 1;
	     c < column && i < ld->doc.length && ld->doc.text[i] != '"'; c++)
		i += ld->doc.text[i] != '\\'      ? 1
		     : ld->doc.text[i + 1] == 'u' ? 6
		                                  : 2;
	return i;
}

/* The path of formula text number index: 0, model.time; k, the
 * formula of term k - 1. */
static void
text_path(const loader *ld, size_t index, char *path)
{
	const sf_fitfile_term *t;

	if (index == 0) {
		snprintf(path, SF_JSONDOC_PATH_MAX, "model.time");
		return;
	}
	t = &ld->f->terms[index - 1];
	snprintf(path, SF_JSONDOC_PATH_MAX, "model.terms.%s%s", t->name,
	         ld->term_is_string[index - 1] ? "" : ".expr");
}

static void place_at(const loader *ld, sf_error *e, const char *path,
                     int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Rewrite e as an error at the value named path, or at byte column of that
 * string value when column > 0, keeping its code. */
static void
place_at(const loader *ld, sf_error *e, const char *path, int column,
         const char *fmt, ...)
{
	char message[SF_ERROR_MESSAGE_MAX];
	size_t off = sf_jsonpath_locate(ld->doc.text, ld->doc.length, path);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	if (column > 0)
		off = string_offset(ld, off, column);
	sf_jsondoc_error_at(&ld->doc, e, off, e->code, message);
}

/* Place error e, which the engine raised about a part of the formula
 * (formula.h), in the file: at the name's entry, or inside the formula's
 * string. */
static void
place(void *ctx, sf_formula_part part, size_t index, sf_error *e)
{
	const loader *ld = ctx;
	const sf_fitfile *f = ld->f;
	char path[SF_JSONDOC_PATH_MAX];

	if (part == SF_FORMULA_INPUT) {
		sf_jsondoc_member_path(path, "model.inputs",
		                       f->inputs[index].name);
		place_at(ld, e, path, 0, "input '%s': %s",
		         f->inputs[index].name, e->message);
	} else if (part == SF_FORMULA_PARAM && index < f->nparams) {
		sf_jsondoc_member_path(path, "parameters",
		                       f->param_names[index]);
		place_at(ld, e, path, 0, "parameter '%s': %s",
		         f->param_names[index], e->message);
	} else if (part == SF_FORMULA_PARAM) {
		const char *name = ld->fixed_names[index - f->nparams];

		sf_jsondoc_member_path(path, "model.fixed", name);
		place_at(ld, e, path, 0, "fixed constant '%s': %s", name,
		         e->message);
	} else {
		text_path(ld, part == SF_FORMULA_TIME ? 0 : index + 1, path);
		place_at(ld, e, path, e->column, "in %.120s: %.380s", path,
		         e->message);
	}
}

/* Compile the formula: the fitted parameters in theta order, then the
 * fixed constants (model.fixed, and parameters marked fixed). */
static int
compile_formula(loader *ld, const json_t *fixed)
{
	sf_fitfile *f = ld->f;
	size_t nfixed = json_object_size(fixed), n = 0;
	sf_formula_input *inputs = calloc(f->ninputs + 1, sizeof *inputs);
	sf_formula_param *params =
	    calloc(f->nparams + nfixed + 1, sizeof *params);
	sf_formula_term *terms = calloc(f->nterms + 1, sizeof *terms);
	sf_formula_source src = {.time = f->time,
	                         .inputs = inputs,
	                         .ninputs = f->ninputs,
	                         .params = params,
	                         .terms = terms,
	                         .nterms = f->nterms,
	                         .place = place,
	                         .place_ctx = ld};
	const char *name;
	json_t *v;
	int rc = SF_OK;

	ld->fixed_names = calloc(nfixed + 1, sizeof *ld->fixed_names);
	if (inputs == NULL || params == NULL || terms == NULL ||
	    ld->fixed_names == NULL) {
		rc = sf_jsondoc_oom(&ld->doc);
		goto done;
	}
	for (size_t i = 0; i < f->ninputs; i++) {
		inputs[i].name = f->inputs[i].name;
		inputs[i].levels = (const char *const *)f->inputs[i].levels;
		inputs[i].nlevels = f->inputs[i].nlevels;
	}
	for (size_t j = 0; j < f->nparams; j++, n++) {
		params[n].name = f->param_names[j];
		params[n].min = ld->lower[j];
		params[n].max = ld->upper[j];
	}
	json_object_foreach((json_t *)fixed, name, v)
	{
		char path[SF_JSONDOC_PATH_MAX];

		sf_jsondoc_member_path(path, "model.fixed", name);
		if ((rc = sf_jsondoc_number(&ld->doc, v, path, 0,
		                            &params[n].value)) != SF_OK)
			goto done;
		params[n].name = ld->fixed_names[n - f->nparams] = name;
		params[n++].fixed = 1;
	}
	for (size_t k = 0; k < f->nterms; k++) {
		terms[k].name = f->terms[k].name;
		terms[k].text = f->terms[k].expr;
	}
	src.nparams = n;
	rc = sf_formula_build(&src, &f->formula, NULL, NULL, ld->doc.err);
done:
	free(inputs);
	free(params);
	free(terms);
	free(ld->fixed_names);
	ld->fixed_names = NULL;
	return rc;
}

/* Which terms are parts of the time, which count for their kind, and
 * whether the time is the sum of its parts. */
static void
classify_terms(sf_fitfile *f)
{
	const char **parts = calloc(f->nterms + 1, sizeof *parts);
	size_t nparts = 0;

	for (size_t j = 0; j < f->nterms; j++) {
		sf_fitfile_term *t = &f->terms[j];

		t->component = t->counts_for_kind = 1;
		for (size_t k = 0; k < f->nterms; k++) {
			if (k == j ||
			    !sf_expr_mentions(f->terms[k].expr, t->name))
				continue;
			t->component = 0;
			if (f->terms[k].kind != SF_TERM_OTHER)
				t->counts_for_kind = 0;
		}
		if (t->component && parts != NULL)
			parts[nparts++] = t->name;
	}
	f->terms_sum = parts != NULL && sf_expr_sum_of(f->time, parts, nparts);
	free(parts);
}

/* ---- entry points ----------------------------------------------------------
 */

static int
load_all(loader *ld, json_t *root)
{
	sf_fitfile *f = ld->f;
	json_t *model, *time, *text, *fixed;
	int rc;

	if (!sf_jsondoc_check_type(&ld->doc, root, "", "object"))
		return SF_ETYPE;
	if (json_is_array(json_object_get(root, "groups"))) {
		json_t *g0 = json_array_get(json_object_get(root, "groups"), 0);
		const char *label =
		    json_string_value(json_object_get(g0, "label"));
		return sf_error_at(
		    ld->doc.err, SF_EUSAGE, ld->doc.name, 0, 0,
		    "holds the fits of %zu groups (a --by fit): choose one "
		    "with --group KEY%s%s",
		    json_array_size(json_object_get(root, "groups")),
		    label != NULL ? ", e.g. --group " : "",
		    label != NULL ? label : "");
	}
	text = sf_jsondoc_member(&ld->doc, root, "", "scalefit_version",
	                         "string", 0, &rc);
	if (rc != SF_OK)
		return rc;
	/* A later major version may mean what this one reads differently:
	 * the commands warn. */
	if (text != NULL) {
		const char *v = json_string_value(text);

		snprintf(f->version, sizeof f->version, "%s", v);
		f->version_newer =
		    strtol(v, NULL, 10) > strtol(PACKAGE_VERSION, NULL, 10);
	}
	if ((model = sf_jsondoc_member(&ld->doc, root, "", "model", "object", 1,
	                               &rc)) == NULL)
		return rc;
	if ((time = sf_jsondoc_member(&ld->doc, model, "model", "time",
	                              "string", 1, &rc)) == NULL)
		return rc;
	if ((f->time = strdup(json_string_value(time))) == NULL)
		return sf_jsondoc_oom(&ld->doc);
	text = sf_jsondoc_member(&ld->doc, model, "model", "name", "string", 0,
	                         &rc);
	if (rc != SF_OK)
		return rc;
	f->name = strdup(text != NULL ? json_string_value(text) : "");
	text = sf_jsondoc_member(&ld->doc, model, "model", "output", "string",
	                         0, &rc);
	if (rc != SF_OK)
		return rc;
	f->output = strdup(text != NULL ? json_string_value(text) : "time");
	if (f->name == NULL || f->output == NULL)
		return sf_jsondoc_oom(&ld->doc);
	text = sf_jsondoc_member(&ld->doc, model, "model", "unit", "string", 0,
	                         &rc);
	if (rc != SF_OK)
		return rc;
	/* A unit this version does not know is no unit (seconds). */
	for (size_t k = 0; text != NULL && k < SF_MODEL_UNITS; k++)
		if (strcmp(json_string_value(text), sf_model_units[k]) == 0)
			f->unit = sf_model_units[k];
	fixed = sf_jsondoc_member(&ld->doc, model, "model", "fixed", "object",
	                          0, &rc);
	if (rc != SF_OK)
		return rc;
	/* A copy: fixed parameters listed only under parameters join it. */
	fixed = fixed != NULL ? json_copy(fixed) : json_object();
	if (fixed == NULL)
		return sf_jsondoc_oom(&ld->doc);
	if ((rc = load_inputs(ld, model)) != SF_OK ||
	    (rc = load_parameters(ld, root, fixed)) != SF_OK ||
	    (rc = load_terms(ld, model)) != SF_OK ||
	    (rc = load_covariance(ld, root)) != SF_OK ||
	    (rc = load_dof(ld, root)) != SF_OK ||
	    (rc = load_ranges(ld, root)) != SF_OK ||
	    (rc = load_residuals(ld, root)) != SF_OK ||
	    (rc = load_bootstrap(ld, root)) != SF_OK ||
	    (rc = sf_fitfile_load_interval(&ld->doc, ld->f, root)) != SF_OK ||
	    (rc = load_provenance(ld, root)) != SF_OK ||
	    (rc = compile_formula(ld, fixed)) != SF_OK) {
		json_decref(fixed);
		return rc;
	}
	json_decref(fixed);
	classify_terms(f);
	return SF_OK;
}

static int
parse(const char *text, size_t length, const char *name, unsigned flags,
      sf_fitfile **out, sf_error *err)
{
	loader ld = {.doc = {.name = name != NULL ? name : "",
	                     .text = text,
	                     .length = length,
	                     .err = err},
	             .flags = flags};
	json_error_t jerr;
	json_t *root;
	int rc;

	*out = NULL;
	/* The residuals' rows are parsed one at a time (stream_residuals):
	 * a million of them as one tree took 1.26 GB. */
	root = sf_jsonpath_load_without(text, length, "residuals",
	                                JSON_REJECT_DUPLICATES, &ld.res_open,
	                                &ld.res_close, &jerr);
	if (root == NULL)
		return syntax_error(&ld, 0, &jerr);
	ld.f = calloc(1, sizeof *ld.f);
	if (ld.f != NULL) { /* its warnings are the fit's */
		ld.doc.warnings = &ld.f->warnings;
		ld.doc.nwarnings = &ld.f->nwarnings;
	}
	if (ld.f == NULL || (ld.f->path = strdup(ld.doc.name)) == NULL) {
		rc = sf_jsondoc_oom(&ld.doc);
	} else {
		rc = load_all(&ld, root);
	}
	json_decref(root);
	free(ld.term_is_string);
	free(ld.lower);
	free(ld.upper);
	if (rc != SF_OK) {
		sf_fitfile_free(ld.f);
		return rc;
	}
	*out = ld.f;
	return SF_OK;
}

int
sf_fitfile_parse(const char *text, size_t length, const char *name,
                 sf_fitfile **out, sf_error *err)
{
	return parse(text, length, name, 0, out, err);
}

enum { FITFILE_MAX_BYTES = 1 << 30 };

int
sf_fitfile_load(const char *path, sf_fitfile **out, sf_error *err)
{
	return sf_fitfile_load_flags(path, 0, out, err);
}

/* Read the whole of the fit file at path into *text (malloc'd, *length
 * bytes), refusing one larger than FITFILE_MAX_BYTES. */
static int
read_fitfile(const char *path, char **out, size_t *out_length, sf_error *err)
{
	FILE *in;
	int rc;

	*out = NULL;
	*out_length = 0;
	/* A FIFO or a device is refused, not waited on (base/file.h). */
	if ((rc = sf_file_fopen(path, &in, err)) != SF_OK)
		return rc;
	/* JSON holds no NUL byte: the parser reports the first. */
	return sf_file_read_all(in, path, FITFILE_MAX_BYTES, "a fit file", 1,
	                        out, out_length, err);
}

/* read_fitfile as an sf_read_fn: ctx is the path. */
static int
fitfile_reader(void *ctx, char **out, size_t *length, sf_error *err)
{
	return read_fitfile(ctx, out, length, err);
}

int
sf_fitfile_read(const char *path, char **text, size_t *length, sf_error *err)
{
	return sf_units_read(fitfile_reader, (void *)path, text, length, err);
}

int
sf_fitfile_parse_flags(char *text, size_t length, const char *name,
                       unsigned flags, sf_fitfile **out, sf_error *err)
{
	return parse(text, length, name, flags, out, err);
}

int
sf_fitfile_load_flags(const char *path, unsigned flags, sf_fitfile **out,
                      sf_error *err)
{
	char *text;
	size_t length;
	int rc;

	*out = NULL;
	if ((rc = sf_fitfile_read(path, &text, &length, err)) != SF_OK)
		return rc;
	rc = sf_fitfile_parse_flags(text, length, path, flags, out, err);
	free(text);
	return rc;
}

const char *
sf_fitfile_no_interval(const sf_fitfile *f, char *buf, size_t n)
{
	if (isfinite(f->data_rows) && f->data_rows <= (double)f->nparams)
		snprintf(buf, n,
		         "its %g rows leave no residual degree of freedom for "
		         "its %zu constants, so fit calibrated no error model",
		         f->data_rows, f->nparams);
	else if (f->version[0] == '\0')
		snprintf(buf, n,
		         "it has no prediction_interval (written by an older "
		         "scalefit): refit it with this version");
	else if (strcmp(f->version, PACKAGE_VERSION) != 0)
		snprintf(buf, n,
		         "it has no prediction_interval (written by scalefit "
		         "%s): refit it with this version",
		         f->version);
	else
		snprintf(buf, n,
		         "it has no prediction_interval: its fit could not "
		         "calibrate an error model (fit's report says why)");
	return buf;
}

void
sf_fitfile_free(sf_fitfile *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->ninputs; i++) {
		free(f->inputs[i].name);
		free(f->inputs[i].column);
		for (size_t k = 0; k < f->inputs[i].nlevels; k++)
			free(f->inputs[i].levels[k]);
		free(f->inputs[i].levels);
	}
	for (size_t j = 0; j < f->nparams; j++)
		free(f->param_names[j]);
	for (size_t k = 0; k < f->nterms; k++) {
		free(f->terms[k].name);
		free(f->terms[k].expr);
	}
	sf_formula_free(f->formula);
	free(f->data_sha256);
	free(f->data_where);
	free(f->loss);
	free(f->inputs);
	free(f->param_names);
	free(f->theta);
	free(f->cov);
	free(f->terms);
	free(f->samples);
	free(f->measured_inputs);
	free(f->measured);
	free(f->warnings);
	free(f->path);
	free(f->name);
	free(f->time);
	free(f->output);
	for (size_t m = 0; m < f->nmembers; m++)
		sf_fitfile_free(f->members[m]);
	free(f->members);
	free(f->weights);
	free(f);
}

void
sf_fitfile_warn(const sf_fitfile *f, sf_warn_fn warn, void *ctx)
{
	sf_error w;

	if (warn == NULL)
		return;
	if (f->version_newer) {
		sf_error_clear(&w);
		sf_error_at(&w, SF_OK, f->path, 0, 0,
		            "written by scalefit %s, a later major version "
		            "than this one (%s): it may mean what this "
		            "version reads otherwise",
		            f->version, PACKAGE_VERSION);
		warn(ctx, &w);
	}
	for (size_t i = 0; i < f->nwarnings; i++)
		warn(ctx, &f->warnings[i]);
}

size_t
sf_fitfile_input_find(const sf_fitfile *f, const char *name)
{
	for (size_t i = 0; i < f->ninputs; i++)
		if (strcmp(f->inputs[i].name, name) == 0)
			return i;
	return SF_FITFILE_NONE;
}

void
sf_fitfile_member_columns(const sf_fitfile *e, const sf_fitfile *m,
                          const double *const *columns, const double **out)
{
	for (size_t i = 0; i < m->ninputs; i++)
		out[i] = columns[sf_fitfile_input_find(e, m->inputs[i].name)];
}

size_t
sf_fitfile_level_find(const sf_fitfile *f, size_t i, const char *text)
{
	if (i >= f->ninputs || f->inputs[i].levels == NULL)
		return SF_FITFILE_NONE;
	for (size_t k = 0; k < f->inputs[i].nlevels; k++)
		if (strcmp(f->inputs[i].levels[k], text) == 0)
			return k;
	return SF_FITFILE_NONE;
}
