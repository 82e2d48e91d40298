/*
 * check.c (run/) - a model and its rows checked without fitting, and what
 * scalefit understood of them.
 */
#include "run/check.h"
#include "base/escape.h"
#include "base/number.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sf_run_check_result_free(sf_run_check_result *r)
{
	if (r == NULL)
		return;
	sf_groups_free(r->groups);
	sf_run_output_clear(&r->out);
	sf_problem_close(&r->problem);
	free(r);
}

static void
print_range(FILE *out, const double *v, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	if (lo == hi)
		fprintf(out, "always %g", lo);
	else
		fprintf(out, "%g to %g", lo, hi);
}

static size_t
name_width(const sf_model *m)
{
	size_t w = 4;

	for (size_t i = 0; i < m->ninputs; i++)
		w = strlen(m->inputs[i].name) > w ? strlen(m->inputs[i].name)
		                                  : w;
	for (size_t i = 0; i < m->nparams; i++)
		w = strlen(m->params[i].name) > w ? strlen(m->params[i].name)
		                                  : w;
	for (size_t i = 0; i < m->nterms; i++)
		w = strlen(m->terms[i].name) > w ? strlen(m->terms[i].name) : w;
	return w;
}

static void
print_data(FILE *out, const sf_problem *p)
{
	const sf_dataset *d = p->data;
	size_t repeated, most;
	double cv;

	fputs("data:  ", out);
	sf_escape_print(out, d->file, 0);
	fputc('\n', out);
	fprintf(out, "       %zu rows in the file", d->table_rows);
	if (p->model->where.text != NULL)
		fprintf(out, ", %zu left out by where: %s", d->filtered_out,
		        p->model->where.text);
	if (d->skipped > 0)
		fprintf(out, ", %zu skipped as unusable", d->skipped);
	fprintf(out, "; %zu rows to fit\n", d->rows);
	sf_dataset_repetitions(d, &repeated, &most, &cv);
	fprintf(out, "       %zu configurations", d->nconfigs);
	if (repeated > 0)
		fprintf(out,
		        ", %zu repeated (up to %zu times; median coefficient "
		        "of variation %.2g%%)",
		        repeated, most, 100 * cv);
	else
		fprintf(out, ", none repeated");
	fprintf(out, "\n       output: %s, ", sf_model_output(p->model));
	print_range(out, d->output, d->rows);
	fprintf(out, "\n");
}

/* The model, its rows and its inputs. */
static void
print_inputs(FILE *out, const sf_problem *p, int w)
{
	const sf_model *m = p->model;
	const sf_dataset *d = p->data;

	/* Paths and names come from outside: escaped. */
	fputs("model: ", out);
	sf_escape_print(out, m->name, 0);
	fputs(" (", out);
	sf_escape_print(out, m->path, 0);
	fputs(")\n", out);
	if (m->description[0] != '\0')
		fprintf(out, "       %s\n", m->description);
	print_data(out, p);
	fprintf(out, "\ninputs:\n");
	for (size_t i = 0; i < m->ninputs; i++) {
		fprintf(out, "  %-*s = %-20s ", w, m->inputs[i].name,
		        m->inputs[i].expr.text);
		if (d->inputs[i].levels != NULL)
			fprintf(out, "text, %zu values", d->inputs[i].nlevels);
		else
			print_range(out, d->inputs[i].values, d->rows);
		fprintf(out, "\n");
	}
}

/* The parameters: fitted within bounds, or fixed. */
static void
print_params(FILE *out, const sf_problem *p, int w)
{
	const sf_model *m = p->model;

	fprintf(out, "\nparameters: %zu fitted, %zu fixed\n",
	        p->formula->nparams, m->nparams - p->formula->nparams);
	for (size_t i = 0; i < m->nparams; i++) {
		const sf_model_param *q = &m->params[i];
		char a[32], b[32];

		if (q->fixed) {
			fprintf(out, "  %-*s = %s (fixed)\n", w, q->name,
			        sf_format_double(a, sizeof a, q->value));
			continue;
		}
		fprintf(out, "  %-*s in [%s, %s]", w, q->name,
		        sf_format_double(a, sizeof a, q->min),
		        sf_format_double(b, sizeof b, q->max));
		if (q->has_init)
			fprintf(out, ", starting at %s",
			        sf_format_double(a, sizeof a, q->init));
		fprintf(out, "\n");
	}
}

/* The terms and the time as compiled, and the fit's settings. */
static void
print_formula(FILE *out, const sf_problem *p, int w)
{
	const sf_model *m = p->model;
	/* classic DE's strategy; the adaptive algorithms have none */
	int strategy = !sf_de_method_get(m->fit.algorithm)->adaptive;
	char *text;

	if (m->nterms > 0)
		fprintf(out, "\nterms:\n");
	for (size_t k = 0; k < m->nterms; k++) {
		text = sf_formula_canonical_term(p->formula, m, k);
		fprintf(out, "  %-*s = %s   [%s]\n", w, m->terms[k].name,
		        text != NULL ? text : m->terms[k].expr.text,
		        m->terms[k].derived
		            ? "derived input"
		            : sf_term_kind_name(m->terms[k].kind));
		free(text);
	}
	text = sf_formula_canonical_time(p->formula, m);
	fprintf(out, "\ntime = %s\n", text != NULL ? text : m->time.text);
	free(text);
	fprintf(out, "\nfit:   loss %s, regularization %s",
	        sf_loss_name(m->fit.loss), sf_penalty_name(m->fit.penalty));
	if (m->fit.penalty != SF_PENALTY_NONE) {
		if (m->fit.lambda_auto)
			fprintf(out, " (lambda auto)");
		else
			fprintf(out, " (lambda %g)", m->fit.lambda);
	}
	fprintf(out, ", optimizer %s%s%s\n",
	        sf_de_algorithm_name(m->fit.algorithm), strategy ? " " : "",
	        strategy ? m->fit.strategy : "");
}

/* What scalefit understood of problem arg: an sf_run_print_fn. */
static int
print_model(FILE *out, const void *arg)
{
	const sf_problem *p = arg;
	int w = (int)name_width(p->model);

	print_inputs(out, p, w);
	print_params(out, p, w);
	print_formula(out, p, w);
	return SF_OK;
}

int
sf_run_check(const sf_model *m, const sf_run_data *d, int named,
             sf_warn_fn warn, void *warn_ctx, sf_run_check_result **out,
             sf_error *err)
{
	sf_run_check_result *r = calloc(1, sizeof *r);
	int rc;

	*out = NULL;
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	r->model = m;
	if ((rc = sf_run_data_open(m, d, m->fit.loss, named, warn, warn_ctx,
	                           &r->problem, err)) != SF_OK ||
	    (rc = sf_run_text(print_model, &r->problem, &r->out.text, err)) !=
	        SF_OK) {
		sf_run_check_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}

int
sf_run_check_groups(sf_run_check_result *r, const sf_run_data *d, sf_error *err)
{
	const sf_model *m = r->model;
	const sf_table *t =
	    r->problem.table != NULL ? r->problem.table : d->table;
	int rc;

	if (m->by.text == NULL || r->groups != NULL)
		return SF_OK;
	if ((rc = sf_groups_split(t, r->problem.data, m->by.text, m->path,
	                          &m->by, &r->groups, err)) != SF_OK)
		sf_error_quote(err, m->source, m->source_length);
	return rc;
}
