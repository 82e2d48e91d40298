/*
 * predict.c (run/) - the pipeline of `scalefit predict`, and its text.
 */
#include "run/predict.h"
#include "input/csv.h"
#include "use/assign.h"
#include "use/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sf_run_predict_result_free(sf_run_predict_result *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; r->set != NULL && i < r->set->count; i++)
		sf_prediction_free(r->predictions[i]);
	free(r->predictions);
	sf_fitfile_set_free(r->set);
	sf_average_free(r->average);
	for (size_t i = 0; i < r->nfits; i++)
		sf_fitfile_free(r->fits[i]);
	free(r->fits);
	sf_run_output_clear(&r->out);
	free(r);
}

/* Point text of --at into values, every input of f given. */
static int
at_point(const sf_fitfile *f, const char *text, double *values,
         unsigned char *given, sf_error *err)
{
	int rc;

	memset(given, 0, f->ninputs);
	if ((rc = sf_assign_parse(f, text, values, given, err)) != SF_OK)
		return rc == SF_ENOMEM ? rc
		                       : sf_run_request(err, "--at '%s': %s",
		                                        text, err->message);
	for (size_t i = 0; i < f->ninputs; i++)
		if (!given[i])
			return sf_run_request(
			    err,
			    "--at '%s': no value for input %s "
			    "(every input needs one)",
			    text, f->inputs[i].name);
	return SF_OK;
}

/* The points of every --at, then of the grid, as one column per input
 * of f: *columns (sf_assign_columns_free) and their count *n. */
static int
gather_points(const sf_fitfile *f, const sf_run_predict_settings *s,
              double ***columns, size_t *n, sf_error *err)
{
	size_t ni = f->ninputs, rows = 0;
	double **grid = NULL, **out = calloc(ni + 1, sizeof *out);
	double *values = calloc(ni + 1, sizeof *values);
	unsigned char *given = calloc(ni + 1, 1);
	sf_table *table = NULL;
	int rc = SF_OK;

	if (out == NULL || values == NULL || given == NULL)
		goto nomem;
	if (s->grid != NULL) {
		if ((rc = sf_table_load(s->grid, NULL, &table, err)) != SF_OK ||
		    (rc = sf_assign_table(f, table, &grid, err)) != SF_OK)
			goto done;
		rows = sf_table_rows(table);
	}
	for (size_t i = 0; i < ni; i++)
		if ((out[i] = malloc((s->nat + rows + 1) * sizeof *out[i])) ==
		    NULL)
			goto nomem;
	for (size_t k = 0; k < s->nat; k++) {
		if ((rc = at_point(f, s->at[k], values, given, err)) != SF_OK)
			goto done;
		for (size_t i = 0; i < ni; i++)
			out[i][k] = values[i];
	}
	for (size_t i = 0; i < ni && grid != NULL; i++)
		memcpy(&out[i][s->nat], grid[i], rows * sizeof *grid[i]);
	*columns = out;
	*n = s->nat + rows;
	out = NULL;
	goto done;
nomem:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	sf_assign_columns_free(out, ni);
	sf_assign_columns_free(grid, ni);
	sf_table_free(table);
	free(values);
	free(given);
	return rc;
}

/* One fit's predictions, and the unit its text's header names. */
typedef struct one_text {
	const sf_fitfile *f;
	const sf_prediction *p;
	const char *unit;
} one_text;

/* The lines above the table: the bands and the interval of a new run. */
static void
print_bands(FILE *out, const sf_fitfile *f, const sf_prediction *p)
{
	char cell[96];

	fprintf(out, "%s: predicted %s at %zu point%s",
	        f->name[0] ? f->name : "fit", f->output, p->n,
	        p->n == 1 ? "" : "s");
	if (f->nmembers > 0)
		fprintf(out, "; 95%% confidence band: the mixture of its "
		             "formulas' bands");
	else if (isfinite(p->t))
		fprintf(out,
		        "; 95%% confidence band by the delta method (t = "
		        "%.4g, %g degrees of freedom)",
		        p->t, f->dof);
	else
		fprintf(out, "; no delta-method band (the fit has no "
		             "covariance or no degrees of freedom)");
	if (p->bootstrap)
		fprintf(out, " and by the bootstrap (%zu replicates)",
		        p->boot_used);
	fprintf(out, "\n");
	if (p->interval) {
		sf_text_noise(f, cell, sizeof cell);
		fprintf(out, "95%% interval for a new run: %s%s%s\n",
		        f->nmembers > 0 ? "" : "noise ", cell,
		        p->growth_unknown ? "; model error beyond the fitted "
		                            "range not estimated"
		                          : "");
	} else
		fprintf(out, "no interval for a new run: the fit file has no "
		             "prediction_interval (refit with this version)\n");
	fprintf(out, "\n");
}

/* The table's header line. */
static void
print_head(FILE *out, const one_text *t, const char *head)
{
	const sf_fitfile *f = t->f;

	for (size_t i = 0; i < f->ninputs; i++)
		fprintf(out, "%*s  ", sf_text_width(f->inputs[i].name, 8),
		        f->inputs[i].name);
	fprintf(out, "%*s  ", sf_text_width(head, 12), head);
	if (t->p->interval)
		fprintf(out, "%-28s", "95% new run");
	fprintf(out, "%-28s", "95% band (mean)");
	if (t->p->bootstrap)
		fprintf(out, "%-28s", "bootstrap band");
	for (size_t j = 0; j < f->nterms; j++)
		fprintf(out, "  %*s", sf_text_width(f->terms[j].name, 10),
		        f->terms[j].name);
	fprintf(out, "\n");
}

/* Point k's line of the table. */
static void
print_point(FILE *out, const one_text *t, const char *head, size_t k)
{
	const sf_fitfile *f = t->f;
	const sf_prediction *p = t->p;
	char cell[96];

	for (size_t i = 0; i < f->ninputs; i++) {
		sf_text_input(f, i, p->inputs[i * p->n + k], cell, sizeof cell);
		fprintf(out, "%*s  ", sf_text_width(f->inputs[i].name, 8),
		        cell);
	}
	fprintf(out, "%*.6g  ", sf_text_width(head, 12), p->points[k].time);
	if (p->interval) {
		sf_text_band(p->points[k].pi, 6, cell, sizeof cell);
		fprintf(out, "%-28s", cell);
	}
	sf_text_band(p->points[k].ci, 6, cell, sizeof cell);
	fprintf(out, "%-28s", cell);
	if (p->bootstrap) {
		sf_text_band(p->points[k].boot, 6, cell, sizeof cell);
		fprintf(out, "%-28s", cell);
	}
	for (size_t j = 0; j < f->nterms; j++)
		fprintf(out, "  %*.6g", sf_text_width(f->terms[j].name, 10),
		        p->terms[j * p->n + k]);
	fprintf(out, "%s\n", sf_prediction_outside(p, k) ? "  *" : "");
}

/* One fit's text: an sf_run_print_fn. */
static int
print_one(FILE *out, const void *arg)
{
	const one_text *t = arg;
	char head[160];

	print_bands(out, t->f, t->p);
	/* --unit, else the model's data.unit, in the header. */
	sf_text_time_header(t->f, t->unit != NULL ? t->unit : t->f->unit, head,
	                    sizeof head);
	print_head(out, t, head);
	for (size_t k = 0; k < t->p->n; k++)
		print_point(out, t, head, k);
	for (size_t k = 0; k < t->p->n; k++)
		if (sf_prediction_outside(t->p, k)) {
			fprintf(out, "\n* outside the inputs' fitted ranges: "
			             "an extrapolation\n");
			break;
		}
	return SF_OK;
}

/* Several fits averaged. */
typedef struct average_text {
	const sf_fitfile *const *fits;
	const sf_run_predict_settings *s;
	const sf_average *avg;
	sf_average_weights how;
} average_text;

/* What the weights of an average are called in its text. */
static const char *
weights_word(sf_average_weights how)
{
	switch (how) {
	case SF_AVERAGE_AICC:
		return "Akaike weights";
	case SF_AVERAGE_EQUAL:
		return "equal weights";
	default:
		return "weighted by extrapolation evidence";
	}
}

static int
print_average(FILE *out, const void *arg)
{
	const average_text *t = arg;
	const sf_fitfile *const *fits = t->fits, *f = fits[0];
	const sf_average *avg = t->avg;
	size_t nfits = avg->nfits;
	char cell[96], head[160];

	fprintf(out, "%s averaged over %zu fits (%s):", f->output, nfits,
	        weights_word(t->how));
	for (size_t i = 0; i < nfits; i++)
		fprintf(out, "%s %s %.3f", i ? "," : "",
		        fits[i]->name[0] ? fits[i]->name : fits[i]->path,
		        avg->weight[i]);
	fprintf(out, "\ntime: the median, and the 95%% interval for a new run, "
	             "of the mixture of\neach fit's\n\n");
	for (size_t i = 0; i < f->ninputs; i++)
		fprintf(out, "%*s  ", sf_text_width(f->inputs[i].name, 8),
		        f->inputs[i].name);
	sf_text_time_header(f, t->s->unit != NULL ? t->s->unit : f->unit, head,
	                    sizeof head);
	fprintf(out, "%*s  %-28s", sf_text_width(head, 12), head,
	        "95% new run");
	for (size_t i = 0; i < nfits; i++)
		fprintf(out, "  %*s", sf_text_width(fits[i]->name, 12),
		        fits[i]->name);
	fprintf(out, "\n");
	for (size_t k = 0; k < avg->n; k++) {
		int outside = 0;

		for (size_t i = 0; i < f->ninputs; i++) {
			sf_text_input(f, i,
			              avg->each[0]->inputs[i * avg->n + k],
			              cell, sizeof cell);
			fprintf(out, "%*s  ",
			        sf_text_width(f->inputs[i].name, 8), cell);
		}
		fprintf(out, "%*.6g  ", sf_text_width(head, 12), avg->time[k]);
		sf_text_band(avg->interval[k], 6, cell, sizeof cell);
		fprintf(out, "%-28s", cell);
		for (size_t i = 0; i < nfits; i++) {
			fprintf(out, "  %*.6g",
			        sf_text_width(fits[i]->name, 12),
			        avg->each[i]->points[k].time);
			outside |= sf_prediction_outside(avg->each[i], k);
		}
		fprintf(out, "%s\n", outside ? "  *" : "");
	}
	return SF_OK;
}

/* The k fits averaged as how says. */
static int
average_fits(const sf_run_predict_settings *s, const sf_fitfile *const *fits,
             size_t k, sf_average_weights how, sf_run_predict_result *r,
             sf_error *err)
{
	double **columns = NULL;
	size_t n = 0;
	int rc;

	if (sf_average_check(fits, k, err) != SF_OK)
		return sf_run_request(err, "%s", err->message);
	if ((rc = gather_points(fits[0], s, &columns, &n, err)) != SF_OK)
		return rc;
	rc = sf_average_run(fits, k, how, (const double *const *)columns, n,
	                    &r->average, err);
	sf_assign_columns_free(columns, fits[0]->ninputs);
	if (rc != SF_OK)
		return rc == SF_EVALUE ? sf_run_request(err, "%s", err->message)
		                       : rc;
	for (size_t i = 0; i < k && !s->quiet; i++)
		sf_prediction_warn(fits[i], r->average->each[i], s->warn,
		                   s->warn_ctx);
	if (s->json &&
	    (r->out.json = sf_average_json(fits, r->average)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	{
		average_text t = {fits, s, r->average, how};

		return sf_run_text(print_average, &t, &r->out.text, err);
	}
}

/* Several files: their fits' average (use/average.h). */
static int
predict_average(const sf_run_predict_settings *s, sf_run_predict_result *r,
                sf_error *err)
{
	int rc;

	if ((r->fits = calloc(s->nfits, sizeof *r->fits)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (; r->nfits < s->nfits; r->nfits++)
		if ((rc = sf_fitfile_load_text(
		         s->fits[r->nfits],
		         s->texts != NULL ? s->texts[r->nfits] : NULL,
		         SF_FITFILE_NO_MEASURED, &r->fits[r->nfits], err)) !=
		    SF_OK)
			return rc;
	return average_fits(s, (const sf_fitfile *const *)r->fits, s->nfits,
	                    s->weights, r, err);
}

/* Predict with fit f: *p, its JSON in *json when s->json, its text in
 * *text. */
static int
predict_one(const sf_run_predict_settings *s, const sf_fitfile *f,
            sf_prediction **p, json_t **json, char **text, sf_error *err)
{
	double **columns = NULL;
	size_t n = 0;
	int rc;

	sf_fitfile_warn_version(f->path, f, s->warn, s->warn_ctx);
	if ((rc = gather_points(f, s, &columns, &n, err)) != SF_OK)
		return rc;
	rc = sf_predict(f, (const double *const *)columns, n, p, err);
	sf_assign_columns_free(columns, f->ninputs);
	if (rc != SF_OK)
		return rc;
	if (!s->quiet)
		sf_prediction_warn(f, *p, s->warn, s->warn_ctx);
	if (s->json && (*json = sf_prediction_json(f, *p)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	{
		one_text t = {f, *p, s->unit};

		return sf_run_text(print_one, &t, text, err);
	}
}

/* Group i's document: its key and label, then its prediction's. */
static int
add_group(const sf_fitfile_set *set, size_t i, json_t *one, json_t *groups)
{
	json_t *g = json_pack("{s:O, s:s}", "key", json_array_get(set->keys, i),
	                      "label", set->labels[i]);

	if (g == NULL || json_object_update(g, one) != 0 ||
	    json_array_append_new(groups, g) != 0)
		return SF_ENOMEM;
	return SF_OK;
}

/* Every group of a groups file, one after the other. */
static int
predict_groups(const sf_run_predict_settings *s, sf_run_predict_result *r,
               sf_error *err)
{
	const sf_fitfile_set *set = r->set;
	json_t *groups = s->json ? json_array() : NULL;
	char *texts = NULL;
	size_t length = 0;
	FILE *all = open_memstream(&texts, &length);
	int rc = SF_OK;

	if (all == NULL || (s->json && groups == NULL))
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < set->count && rc == SF_OK; i++) {
		json_t *one = NULL;
		char *text = NULL;

		rc = predict_one(s, set->fits[i], &r->predictions[i], &one,
		                 &text, err);
		if (rc == SF_OK)
			fprintf(all, "%s== group %s ==\n%s", i > 0 ? "\n" : "",
			        set->labels[i], text);
		if (rc == SF_OK && s->json && add_group(set, i, one, groups))
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		json_decref(one);
		free(text);
	}
	if (all != NULL && fclose(all) != 0 && rc == SF_OK)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	r->out.text = texts;
	if (rc == SF_OK && s->json &&
	    (r->out.json = json_pack("{s:O}", "groups", groups)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	json_decref(groups);
	return rc;
}

/* One file: its fit, or each group it selects. */
static int
predict_file(const sf_run_predict_settings *s, sf_run_predict_result *r,
             sf_error *err)
{
	int rc;

	if ((rc = sf_fitfile_load_groups_text(
	         s->fits[0], s->texts != NULL ? s->texts[0] : NULL, s->group,
	         SF_FITFILE_NO_MEASURED, &r->set, err)) != SF_OK)
		return rc;
	if ((r->predictions = calloc(r->set->count, sizeof *r->predictions)) ==
	    NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	/* A groups file answers for each group it selects; one group
	 * chosen answers as a plain fit file does. */
	if (!r->set->grouped || (s->group != NULL && r->set->count == 1))
		return predict_one(s, r->set->fits[0], &r->predictions[0],
		                   &r->out.json, &r->out.text, err);
	return predict_groups(s, r, err);
}

int
sf_run_predict(const sf_run_predict_settings *s, sf_run_predict_result **out,
               sf_error *err)
{
	sf_run_predict_result *r = calloc(1, sizeof *r);
	int rc;

	*out = NULL;
	if (s->nfits == 0) {
		free(r);
		return sf_run_request(err, "no fit file to predict with");
	}
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	rc =
	    s->nfits > 1 ? predict_average(s, r, err) : predict_file(s, r, err);
	if (rc != SF_OK) {
		sf_run_predict_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}
