/*
 * modelfile.c - the model file of a discovered formula and its fit
 * through the pipeline (sf_discover_model_text, sf_discover_refit,
 * discover.h): a complete, commented model whose data.file is relative to
 * where it is written, its constants bounded so that no bound is active,
 * and the discover: block that found it.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "base/number.h"
#include "base/text.h"
#include "discover/board.h"
#include "discover/discover.h"
#include "fit/tune.h"
#include "fit/validate.h"
#include "input/problem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when name is a whole name (identifier) in text. */
static int
mentions(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text; *p != '\0';) {
		const char *start = p;

		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z'))) {
			/* a number's exponent is not a name: skip it whole */
			if (*p >= '0' && *p <= '9')
				while ((*p >= '0' && *p <= '9') || *p == '.' ||
				       *p == 'e' || *p == 'E')
					p++;
			else
				p++;
			continue;
		}
		while (*p == '_' || (*p >= 'a' && *p <= 'z') ||
		       (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			p++;
		if ((size_t)(p - start) == len && memcmp(start, name, len) == 0)
			return 1;
	}
	return 0;
}

/* text as a YAML double-quoted scalar. */
static void
put_quoted(sf_text *b, const char *text)
{
	sf_text_printf(b, "\"");
	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			sf_text_printf(b, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			sf_text_printf(b, "\\x%02x", (unsigned char)*p);
		else
			sf_text_printf(b, "%c", *p);
	}
	sf_text_printf(b, "\"");
}

/* The directory part of path ("." when it has none), malloc'd. */
static char *
directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (slash == NULL)
		return sf_text_dup(".");
	if (slash == path)
		return sf_text_dup("/");
	if ((dir = malloc((size_t)(slash - path) + 1)) != NULL) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	return dir;
}

/* The next component of an absolute path at *p ("a" of "/a/b"), its
 * length in *n; NULL at the end. */
static const char *
component(const char **p, size_t *n)
{
	const char *start;

	while (**p == '/')
		(*p)++;
	if (**p == '\0')
		return NULL;
	start = *p;
	while (**p != '\0' && **p != '/')
		(*p)++;
	*n = (size_t)(*p - start);
	return start;
}

/* file as a path relative to the directory of out_path, so that the
 * model file finds its data wherever it is written; file as given when
 * either cannot be resolved. */
static char *
relative_to(const char *out_path, const char *file)
{
	char *dir = directory_of(out_path), *from = NULL, *to = NULL;
	char *result = NULL;
	const char *a, *b, *ca, *cb;
	size_t na = 0, nb = 0;
	sf_text out = SF_TEXT_INIT;

	if (dir != NULL) {
		from = realpath(dir, NULL);
		to = realpath(file, NULL);
	}
	if (from == NULL || to == NULL) {
		result = sf_text_dup(file);
		goto done;
	}
	/* skip the common components, go up from the rest of from's */
	a = from, b = to;
	for (;;) {
		const char *sa = a, *sb = b;
		ca = component(&a, &na);
		cb = component(&b, &nb);
		if (ca == NULL || cb == NULL || na != nb ||
		    memcmp(ca, cb, na) != 0) {
			a = sa, b = sb;
			break;
		}
	}
	while (component(&a, &na) != NULL)
		sf_text_printf(&out, "../");
	for (int first = 1; (cb = component(&b, &nb)) != NULL; first = 0)
		sf_text_printf(&out, "%s%.*s", first ? "" : "/", (int)nb, cb);
	result = sf_text_take(&out);
done:
	free(dir);
	free(from);
	free(to);
	return result;
}

static const char *
kind_words(sf_term_kind kind)
{
	switch (kind) {
	case SF_TERM_OVERHEAD:
		return "start-up, once per run";
	case SF_TERM_COMPUTE:
		return "computation: each worker's share of the work";
	case SF_TERM_COMMUNICATION:
		return "grows with the workers: communication";
	case SF_TERM_IO:
		return "per sample, not split over the workers: the input "
		       "pipeline";
	default:
		return "";
	}
}

static void
put_number(sf_text *b, double v)
{
	char t[32];

	sf_text_printf(b, "%s", sf_format_double(t, sizeof t, v));
}

/* The discover: block that was used. */
static void
put_discover(sf_text *b, const sf_discover_result *r)
{
	sf_text_printf(
	    b, "discover:\n  extrapolate: %s\n  count: %s\n  workers: %s\n",
	    r->extrapolate, r->count != NULL ? r->count : "none",
	    r->workers != NULL ? r->workers : "none");
	sf_text_printf(b, "  inputs: [");
	for (size_t i = 0; i < r->ninputs; i++)
		sf_text_printf(b, "%s%s", i > 0 ? ", " : "", r->inputs[i]);
	sf_text_printf(b, "]\n  exponents: [");
	for (size_t i = 0; i < r->nexponents; i++) {
		char t[48];
		sf_text_printf(b, "%s", i > 0 ? ", " : "");
		/* the same double the grid holds: 1/3 is 0.3333333333333333 */
		sf_text_printf(b, "%s",
		               sf_format_double(t, sizeof t, r->exponents[i]));
	}
	sf_text_printf(b, "]\n  logs: [");
	for (size_t i = 0; i < r->nlogs; i++)
		sf_text_printf(b, "%s%d", i > 0 ? ", " : "", r->logs[i]);
	sf_text_printf(b, "]\n  factors: %zu\n  max_terms: %zu\n  beam: %zu\n",
	               r->factors, r->max_terms, r->beam);
	sf_text_printf(
	    b, "  budget: %zu\n  overlap: %s\n  continuous: %s\n  tie: ",
	    r->budget, r->overlap ? "true" : "false",
	    r->continuous ? "true" : "false");
	put_number(b, r->tie);
	sf_text_printf(b, "\n");
}

int
sf_discover_model_text(const sf_discover_result *r, size_t index,
                       const sf_model *m, const char *out_path,
                       const char *data_path, char **text, sf_error *err)
{
	const sf_discover_candidate *c = &r->board[index];
	const char *base;
	char *file = NULL;
	sf_text b = SF_TEXT_INIT;

	*text = NULL;
	if (c->model != NULL)
		return sf_error_set(err, SF_EVALUE,
		                    "'%s' is the model file's own formula",
		                    c->model);
	if (data_path == NULL)
		data_path = m->data_file;
	if (data_path != NULL &&
	    (file = relative_to(out_path, data_path)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	base = data_path != NULL ? strrchr(data_path, '/') : NULL;
	base = base != NULL ? base + 1 : data_path != NULL ? data_path : "?";

	sf_text_printf(
	    &b,
	    "# %s-discovered: a formula found by scalefit discover, chosen "
	    "by how well\n# it extrapolates.\n#\n",
	    m->name);
	sf_text_printf(&b, "# From %zu training rows of %s", r->rows, base);
	if (r->held_out > 0)
		sf_text_printf(
		    &b,
		    " (%zu more rows were held out by --train and not "
		    "used)",
		    r->held_out);
	sf_text_printf(
	    &b,
	    ",\n# extrapolating along %s: each fold fits the rows up to a "
	    "value of %s\n# and predicts the rows above it; the MAPE of "
	    "its predictions:\n",
	    r->extrapolate, r->extrapolate);
	for (size_t f = 0; f < r->nfolds; f++) {
		char lv[32];
		sf_text_printf(
		    &b, "#   fit %s <= %s: %.3g%%\n", r->extrapolate,
		    sf_format_double(lv, sizeof lv, r->levels[r->fold_last[f]]),
		    c->fold_mape[f]);
	}
	sf_text_printf(
	    &b,
	    "# Mean %.3g%%; MAPE %.3g%% on the training rows, AICc %.6g, "
	    "%zu constants.\n# The choice among %zu formulas over %zu "
	    "term shapes (up to %zu terms,\n# beam %zu).\n#\n",
	    c->score, c->mape, c->aicc, c->k, r->evaluated, r->shapes,
	    r->max_terms, r->beam);
	sf_text_printf(&b, "#   time = %s\n#\n", c->formula);
	sf_text_printf(
	    &b, "# Terms (the kinds are what the shapes suggest, for `scalefit "
	        "scale`'s\n# shares; check them):\n");
	for (size_t t = 0; t < c->nterms; t++)
		sf_text_printf(&b, "#   %-10s %-26s %s\n", c->terms[t].name,
		               c->terms[t].shape,
		               c->terms[t].nparams == 2 &&
		                       strncmp(c->terms[t].shape, "max(", 4) ==
		                           0
		                   ? "the slower of two overlapped parts"
		                   : kind_words(c->terms[t].kind));
	sf_text_printf(
	    &b,
	    "# Bounds: every constant of a term is >= 0 (a start-up at 0 is "
	    "one the rows\n# do without); each upper bound is ten times "
	    "what the shortest run\n# allows (no term can exceed a "
	    "measured time), rounded up to a power of\n# 10, so none is "
	    "reached; a fitted exponent stays within half a unit\n# of "
	    "the grid's.\n");
	sf_text_printf(&b, "name: %s-discovered\ndescription: ", m->name);
	{
		sf_text d = SF_TEXT_INIT;
		sf_text_printf(&d, "Found by scalefit discover: %s",
		               c->formula);
		if (d.failed) {
			b.failed = 1;
		} else {
			put_quoted(&b, d.data);
			sf_text_free(&d);
		}
	}
	sf_text_printf(&b, "\ndata:\n");
	if (file != NULL) {
		sf_text_printf(&b, "  file: ");
		put_quoted(&b, file);
		sf_text_printf(&b, "\n");
	}
	if (m->where.text != NULL) {
		sf_text_printf(&b, "  where: ");
		put_quoted(&b, m->where.text);
		sf_text_printf(&b, "\n");
	}
	if (m->output.text != NULL) {
		sf_text_printf(&b, "  output: ");
		put_quoted(&b, m->output.text);
		sf_text_printf(&b, "\n");
	}
	if (m->weight.text != NULL) {
		sf_text_printf(&b, "  weight: ");
		put_quoted(&b, m->weight.text);
		sf_text_printf(&b, "\n");
	}
	sf_text_printf(&b, "inputs:\n");
	for (size_t i = 0; i < m->ninputs; i++) {
		const char *name = m->inputs[i].name;
		int used = strcmp(name, r->extrapolate) == 0 ||
		           (r->train != NULL && mentions(r->train, name));
		for (size_t t = 0; t < c->nterms; t++)
			used |= mentions(c->terms[t].expr, name);
		if (!used)
			continue;
		sf_text_printf(&b, "  %s: ", m->inputs[i].name);
		put_quoted(&b, m->inputs[i].expr.text);
		sf_text_printf(&b, "\n");
	}
	sf_text_printf(&b, "parameters:\n");
	for (size_t t = 0; t < c->nterms; t++)
		for (size_t q = 0; q < c->terms[t].nparams; q++) {
			const sf_discover_term *x = &c->terms[t];
			char v[32];
			sf_text_printf(&b, "  %s: {min: ", x->param[q]);
			put_number(&b, x->lower[q]);
			sf_text_printf(&b, ", max: ");
			put_number(&b, x->upper[q]);
			sf_text_printf(
			    &b, "}  # fitted %s\n",
			    sf_format_double(v, sizeof v, x->value[q]));
		}
	sf_text_printf(&b, "terms:\n");
	for (size_t t = 0; t < c->nterms; t++) {
		sf_text_printf(&b, "  %s: {expr: ", c->terms[t].name);
		put_quoted(&b, c->terms[t].expr);
		sf_text_printf(&b, ", kind: %s}\n",
		               sf_term_kind_name(c->terms[t].kind));
	}
	sf_text_printf(&b, "time: ");
	for (size_t t = 0; t < c->nterms; t++)
		sf_text_printf(&b, "%s%s", t > 0 ? " + " : "",
		               c->terms[t].name);
	sf_text_printf(&b, "\nfit:\n  loss: %s\n", sf_loss_name(r->loss));
	if (m->fit.weighting == SF_WEIGHTS_INVERSE_VARIANCE)
		sf_text_printf(&b, "  weights: inverse_variance\n");
	put_discover(&b, r);
	free(file);
	if ((*text = sf_text_take(&b)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

int
sf_discover_refit(sf_discover_result *r, size_t index, const char *path,
                  const char *text, const sf_discover_options *o,
                  sf_fit_result **fit, sf_error *err)
{
	sf_discover_candidate *c = &r->board[index];
	sf_model_set *set = NULL;
	sf_problem p = {0};
	sf_dataset *train = NULL;
	sf_fit_result *res = NULL;
	sf_fit_options fo = o->fit;
	double *pred = NULL, ape = 0;
	size_t held;
	const sf_model *m;
	char *formula;
	int rc;

	if (fit != NULL)
		*fit = NULL;
	/* the file's own loss, as `scalefit fit FILE` would */
	fo.has_loss = 0;
	fo.progress = NULL;
	if ((rc = sf_model_parse(path, text, strlen(text), &set, NULL, NULL,
	                         err)) != SF_OK)
		return rc;
	m = set->models[0];
	if ((rc = sf_problem_open(m, NULL, m->fit.loss, NULL, NULL, &p, err)) !=
	        SF_OK ||
	    (rc = sf_discover_split(p.data, o->train, &train, &held, err)) !=
	        SF_OK ||
	    (rc = sf_tune_fit(m, train, p.formula, &fo, &res, err)) != SF_OK)
		goto done;
	if ((pred = malloc((train->rows + 1) * sizeof *pred)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_predict_rows(p.formula, train, res->theta, pred, err)) !=
	    SF_OK)
		goto done;
	for (size_t q = 0; q < train->rows; q++)
		ape +=
		    fabs(pred[q] - train->output[q]) / fabs(train->output[q]);
	for (size_t t = 0; t < c->nterms; t++)
		for (size_t q = 0; q < c->terms[t].nparams; q++)
			for (size_t j = 0; j < p.formula->nparams; j++)
				if (strcmp(m->params[p.formula->fitted[j]].name,
				           c->terms[t].param[q]) == 0)
					c->terms[t].value[q] = res->theta[j];
	c->mape = 100 * ape / (double)train->rows;
	c->refitted = 1;
	if ((formula = sf_board_formula_text(c)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	free(c->formula);
	c->formula = formula;
	if (fit != NULL) {
		*fit = res;
		res = NULL;
	}
done:
	free(pred);
	sf_fit_result_free(res);
	sf_dataset_free(train);
	sf_problem_close(&p);
	sf_model_set_free(set);
	return rc;
}
