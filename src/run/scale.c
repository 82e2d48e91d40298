/*
 * scale.c (run/) - the pipeline of `scalefit scale`, and its text.
 */
#include "run/scale.h"
#include "base/escape.h"
#include "input/csv.h"
#include "use/plot.h"
#include "use/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sf_run_scale_settings_init(sf_run_scale_settings *s)
{
	memset(s, 0, sizeof *s);
	s->request.price = NAN;
}

void
sf_run_scale_result_free(sf_run_scale_result *r)
{
	if (r == NULL)
		return;
	/* Each array has r->count elements, or is NULL. */
	for (size_t j = 0; j < r->count; j++) {
		if (r->studies != NULL)
			sf_scale_free(r->studies[j]);
		if (r->labels != NULL)
			free(r->labels[j]);
		if (r->held_x != NULL)
			free(r->held_x[j]);
		if (r->held_y != NULL)
			free(r->held_y[j]);
	}
	free(r->studies);
	free(r->labels);
	for (size_t p = 0; p < r->nsets; p++)
		sf_fitfile_set_free(r->sets[p]);
	free(r->sets);
	sf_svg_free(r->chart);
	free(r->held_x);
	free(r->held_y);
	sf_run_output_clear(&r->out);
	free(r);
}

/* ---- text ---------------------------------------------------------------- */

static void
print_fastest(FILE *out, const sf_scale *sc)
{
	const sf_sweep_answers *a = &sc->answers;

	fprintf(out, "  fastest            %s = %.6g: %.5g ",
	        sc->f->inputs[sc->s.var].name, a->fastest, a->fastest_time);
	sf_escape_print(out, sc->f->output, 0);
	if (isfinite(a->fastest_interval.lo) &&
	    isfinite(a->fastest_interval.hi))
		fprintf(out, " (a new run: 95%% in %.5g to %.5g)",
		        a->fastest_interval.lo, a->fastest_interval.hi);
	else if (isfinite(a->fastest_band.lo) && isfinite(a->fastest_band.hi))
		fprintf(out, " (95%% band %.5g to %.5g)", a->fastest_band.lo,
		        a->fastest_band.hi);
	fprintf(out, "\n");
}

/* 1 when a point of sc's table is neither a power of two nor an end of
 * the range: the answers searched on the powers of two searched it too
 * (sweep.h), and may name it, so the text must say so. */
static int
off_pow2(const sf_scale *sc)
{
	for (size_t k = 0; k < sc->table->n; k++) {
		double x = sc->table->x[k];
		int e;

		if (x != sc->lo && x != sc->hi && frexp(x, &e) != 0.5)
			return 1;
	}
	return 0;
}

static void
print_answers(FILE *out, const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep_answers *a = &sc->answers;
	const char *x = f->inputs[sc->s.var].name;
	char comm[256], comp[256];
	const char *first, *first_terms, *second, *second_terms;

	fprintf(out, "\n");
	/* Along the batch the least time is an end of the range, not an
	 * answer: the throughput and its knee are. */
	if (isfinite(a->best_x)) {
		char basis[128];

		sf_scale_samples_text(sc, basis, sizeof basis);
		fprintf(out,
		        "  highest throughput %s = %.6g: %.5g samples/s (%s)\n",
		        x, a->best_x, a->best_throughput, basis);
		fprintf(
		    out,
		    "  knee               %s = %.6g: %.5g samples/s, within "
		    "%g%% of the highest\n",
		    x, a->knee, a->knee_throughput, 100 * SF_SWEEP_KNEE);
	} else {
		print_fastest(out, sc);
	}
	if (sc->s.workers)
		fprintf(out, "  efficiency >= 50%%  up to %s = %.6g\n", x,
		        a->efficient);
	sf_scale_kind_terms(f, SF_TERM_COMMUNICATION, comm, sizeof comm);
	sf_scale_kind_terms(f, SF_TERM_COMPUTE, comp, sizeof comp);
	/* The kind of terms above at the sweep's start, and the other. */
	first = a->comm_first ? "communication" : "compute";
	first_terms = a->comm_first ? comm : comp;
	second = a->comm_first ? "compute" : "communication";
	second_terms = a->comm_first ? comp : comm;
	switch (a->crossover) {
	case SF_SWEEP_CROSS_AT:
		fprintf(
		    out,
		    "  crossover          %s (%s) overtakes %s (%s) at %s = "
		    "%.6g\n",
		    second, second_terms, first, first_terms, x,
		    a->crossover_x);
		break;
	case SF_SWEEP_CROSS_NEVER:
		fprintf(
		    out,
		    "  crossover          none: %s (%s) stays above %s (%s) "
		    "from %s = %g to %g\n",
		    first, first_terms, second, second_terms, x, sc->lo,
		    sc->hi);
		break;
	default:
		/* No term of kind compute or none of communication: the
		 * question does not apply, and no line says otherwise. */
		break;
	}
	if (isfinite(a->cheapest)) {
		fprintf(out,
		        "  cheapest           %s = %.6g: cost %.5g per run "
		        "(%g per worker-hour, ",
		        x, a->cheapest, a->cheapest_cost, sc->s.price);
		sf_escape_print(out, f->output, 0);
		fprintf(out, " in %s%s)\n", sf_scale_unit_name(sc->unit),
		        sc->unit_guessed ? ", from its name" : "");
	}
	if (a->listed)
		fprintf(out, "  (searched the %zu values listed)\n",
		        a->searched);
	else if (a->on_pow2 && off_pow2(sc))
		fprintf(out,
		        "  (searched %zu values: the powers of two from %g to "
		        "%g and the table's %zu points)\n",
		        a->searched, sc->lo, sc->hi, sc->table->n);
	else if (a->on_pow2)
		fprintf(out, "  (searched the powers of two from %g to %g)\n",
		        sc->lo, sc->hi);
	else if (a->every_whole)
		fprintf(out, "  (searched every whole %s from %g to %g)\n", x,
		        sc->lo, sc->hi);
	else
		fprintf(out, "  (searched %zu points from %g to %g)\n",
		        a->searched, sc->lo, sc->hi);
}

/* The lines above the table: the study, its bands, a new run's noise. */
static void
print_title(FILE *out, const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	const sf_prediction *p = sc->table->pred;
	const sf_fitfile_input *in = &f->inputs[sc->s.var];
	char fixed[256];

	sf_scale_fixed_text(sc, fixed, sizeof fixed);
	/* The name, output and column come from the file: escaped. */
	sf_escape_print(out, f->name[0] ? f->name : "fit", 0);
	fputs(": ", out);
	sf_escape_print(out, f->output, 0);
	fprintf(out, " over %s", in->name);
	if (strcmp(in->column, in->name) != 0) {
		fputs(" (", out);
		sf_escape_print(out, in->column, 0);
		fputc(')', out);
	}
	fprintf(out, " from %g to %g%s%s\n", sc->lo, sc->hi,
	        fixed[0] ? ", " : "", fixed);
	if (f->nmembers > 0)
		fprintf(out, "95%% band: the mixture of its formulas' bands\n");
	else if (p->bootstrap)
		fprintf(out,
		        "95%% band: bootstrap percentiles (%zu replicates)\n",
		        p->boot_used);
	else if (isfinite(p->t))
		fprintf(out,
		        "95%% band: delta method (t = %.4g, %g degrees of "
		        "freedom)\n",
		        p->t, f->dof);
	else
		fprintf(out, "95%% band: none (the fit has no covariance)\n");
	if (p->interval)
		sf_text_new_run_line(out, "95% new run: ", f,
		                     p->growth_unknown);
}

/* The table's header line; head is the time column's. */
static void
print_columns(FILE *out, const sf_scale *sc, const char *head, int rest)
{
	const sf_fitfile *f = sc->f;
	const sf_fitfile_input *in = &f->inputs[sc->s.var];

	fprintf(out, "\n%*s  %*s  ", sf_text_width(in->name, 8), in->name,
	        sf_text_width(head, 10), head);
	if (sc->table->pred->interval)
		fprintf(out, "%-22s", "95% new run");
	fprintf(out, "%-22s", "95% band");
	if (sc->s.workers)
		fprintf(out, "  %8s  %10s", "speedup", "efficiency");
	if (sc->table->cost != NULL)
		fprintf(out, "  %10s", "cost");
	/* Shares when the time is the sum of its terms, else their values. */
	for (size_t j = 0; j < f->nterms; j++)
		if (f->terms[j].component || !f->terms_sum)
			fprintf(out, "  %*s",
			        sf_text_width(f->terms[j].name, 7),
			        f->terms[j].name);
	if (rest)
		fprintf(out, "  %7s", "rest");
	fprintf(out, "\n");
}

/* Point k's line of the table; rest: with the column of the rest. */
static void
print_row(FILE *out, const sf_scale *sc, const char *head, int rest, size_t k)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep *w = sc->table;
	const sf_prediction *p = w->pred;
	char cell[96];

	fprintf(out, "%*.6g  %*.5g  ",
	        sf_text_width(f->inputs[sc->s.var].name, 8), w->x[k],
	        sf_text_width(head, 10), p->points[k].time);
	if (p->interval) {
		sf_text_band(p->points[k].pi, 5, cell, sizeof cell);
		fprintf(out, "%-22s", cell);
	}
	sf_text_band(sf_prediction_band(p, k), 5, cell, sizeof cell);
	fprintf(out, "%-22s", cell);
	if (sc->s.workers)
		fprintf(out, "  %8.3f  %9.1f%%", w->speedup[k],
		        100 * w->efficiency[k]);
	if (w->cost != NULL)
		fprintf(out, "  %10.4g", w->cost[k]);
	for (size_t j = 0; j < f->nterms; j++)
		if (!f->terms_sum)
			fprintf(out, "  %*.5g",
			        sf_text_width(f->terms[j].name, 7),
			        p->terms[j * w->n + k]);
		else if (f->terms[j].component)
			fprintf(out, "  %*.1f%%",
			        sf_text_width(f->terms[j].name, 7) - 1,
			        100 * w->share[j * w->n + k]);
	if (rest)
		fprintf(out, "  %6.1f%%", 100 * w->rest[k]);
	fprintf(out, "%s\n", sf_prediction_outside(p, k) ? "  *" : "");
}

/* One study's text. */
static void
print_text(FILE *out, const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	int rest = sf_sweep_rest_matters(sc->table), any_outside = 0;
	char head[160];

	print_title(out, sc);
	/* The unit in the header when declared (a guessed one is in the
	 * output's name already). */
	sf_text_time_header(f, sc->unit_declared ? sc->unit : NULL, head,
	                    sizeof head);
	print_columns(out, sc, head, rest);
	for (size_t k = 0; k < sc->table->n; k++) {
		any_outside |= sf_prediction_outside(sc->table->pred, k);
		print_row(out, sc, head, rest, k);
	}
	if (any_outside)
		fprintf(out, "\n* outside the inputs' fitted ranges: an "
		             "extrapolation\n");
	if (!f->terms_sum && f->nterms > 0)
		fprintf(out,
		        "\n%s: the columns after the time are the terms' "
		        "values\n",
		        SF_SCALE_NOT_SUM);
	print_answers(out, sc);
}

/* The interval a column of several fits shows for study sc: a new run's
 * when its fit has the error model, else the band of the mean. */
static const char *
several_head(const sf_scale *sc)
{
	return sc->table->pred->interval ? "95% new run" : "95% band";
}

/* Several fits, one series each: a table with a time column per fit and
 * its interval, the answers of each, a chart with a line per fit, or
 * {"studies": [...]}. */
static void
print_several(FILE *out, sf_scale *const *sc, char *const *labels, size_t n)
{
	const sf_scale *first = sc[0];
	const sf_fitfile_input *in = &first->f->inputs[first->s.var];
	char fixed[256], head[160], cell[96];

	sf_scale_fixed_text(first, fixed, sizeof fixed);
	sf_text_time_header(first->f, first->unit_declared ? first->unit : NULL,
	                    head, sizeof head);
	fprintf(out, "%s of %zu fits over %s from %g to %g%s%s\n", head, n,
	        in->name, first->lo, first->hi, fixed[0] ? ", " : "", fixed);
	fprintf(out, "\n%*s", sf_text_width(in->name, 8), in->name);
	for (size_t j = 0; j < n; j++) {
		fputs("  ", out);
		sf_escape_print(out, labels[j], sf_text_width(labels[j], 10));
		/* The last column unpadded: no line ends in spaces. */
		fprintf(out, "  %-*s", j + 1 < n ? 22 : 0, several_head(sc[j]));
	}
	fprintf(out, "\n");
	for (size_t k = 0; k < first->table->n; k++) {
		int outside = 0;

		for (size_t j = 0; j < n; j++)
			outside |= sf_prediction_outside(sc[j]->table->pred, k);
		fprintf(out, "%*.6g", sf_text_width(in->name, 8),
		        first->table->x[k]);
		for (size_t j = 0; j < n; j++) {
			const sf_prediction *p = sc[j]->table->pred;

			sf_text_band(p->interval ? p->points[k].pi
			                         : sf_prediction_band(p, k),
			             5, cell, sizeof cell);
			fprintf(out, "  %*.5g  %-*s",
			        sf_text_width(labels[j], 10), p->points[k].time,
			        j + 1 < n || outside ? 22 : 0, cell);
		}
		fprintf(out, "%s\n", outside ? "  *" : "");
	}
	for (size_t j = 0; j < n; j++) {
		fputc('\n', out);
		sf_escape_print(out, labels[j], 0);
		fputc(':', out);
		print_answers(out, sc[j]);
	}
}

/* {"studies": [each study's document with its "label"]}. */
static json_t *
several_json(sf_scale *const *sc, char *const *labels, size_t n)
{
	json_t *root = json_object(), *list = json_array();
	int ok = root != NULL && list != NULL;

	for (size_t j = 0; ok && j < n; j++) {
		json_t *one = sf_scale_json(sc[j]);

		ok = one != NULL &&
		     json_object_set_new(one, "label",
		                         json_string(labels[j])) == 0 &&
		     json_array_append_new(list, one) == 0;
	}
	if (!ok || json_object_set_new(root, "studies", list) != 0) {
		json_decref(root);
		json_decref(list);
		return NULL;
	}
	return root;
}

/* The text of r's studies: an sf_run_print_fn. */
static int
print_studies(FILE *out, const void *arg)
{
	const sf_run_scale_result *r = arg;

	if (r->count == 1)
		print_text(out, r->studies[0]);
	else
		print_several(out, r->studies, r->labels, r->count);
	return SF_OK;
}

/* One study's table as CSV: every value, the terms' own (not shares). */
static void
csv_one(FILE *out, const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep *w = sc->table;
	const sf_prediction *p = w->pred;

	sf_text_csv_field(out, f->inputs[sc->s.var].name, 1);
	sf_text_csv_field(out, "time", 0);
	if (p->interval) {
		sf_text_csv_field(out, "interval95_lo", 0);
		sf_text_csv_field(out, "interval95_hi", 0);
	}
	sf_text_csv_field(out, p->bootstrap ? "ci95_bootstrap_lo" : "ci95_lo",
	                  0);
	sf_text_csv_field(out, p->bootstrap ? "ci95_bootstrap_hi" : "ci95_hi",
	                  0);
	if (sc->s.workers) {
		sf_text_csv_field(out, "speedup", 0);
		sf_text_csv_field(out, "efficiency", 0);
	}
	if (w->cost != NULL)
		sf_text_csv_field(out, "cost", 0);
	for (size_t j = 0; j < f->nterms; j++)
		sf_text_csv_field(out, f->terms[j].name, 0);
	sf_text_csv_field(out, "extrapolated", 0);
	putc('\n', out);
	for (size_t k = 0; k < w->n; k++) {
		sf_band band = sf_prediction_band(p, k);

		sf_text_csv_number(out, w->x[k], 1);
		sf_text_csv_number(out, p->points[k].time, 0);
		if (p->interval) {
			sf_text_csv_number(out, p->points[k].pi.lo, 0);
			sf_text_csv_number(out, p->points[k].pi.hi, 0);
		}
		sf_text_csv_number(out, band.lo, 0);
		sf_text_csv_number(out, band.hi, 0);
		if (sc->s.workers) {
			sf_text_csv_number(out, w->speedup[k], 0);
			sf_text_csv_number(out, w->efficiency[k], 0);
		}
		if (w->cost != NULL)
			sf_text_csv_number(out, w->cost[k], 0);
		for (size_t j = 0; j < f->nterms; j++)
			sf_text_csv_number(out, p->terms[j * w->n + k], 0);
		sf_text_csv_field(
		    out, sf_prediction_outside(p, k) ? "true" : "false", 0);
		putc('\n', out);
	}
}

/* The studies as CSV (--csv): an sf_run_print_fn; several fits, a time
 * column per fit (named by its label). */
static int
print_csv(FILE *out, const void *arg)
{
	const sf_run_scale_result *r = arg;
	const sf_scale *first = r->studies[0];

	if (r->count == 1) {
		csv_one(out, first);
		return SF_OK;
	}
	sf_text_csv_field(out, first->f->inputs[first->s.var].name, 1);
	for (size_t j = 0; j < r->count; j++)
		sf_text_csv_field(out, r->labels[j], 0);
	sf_text_csv_field(out, "extrapolated", 0);
	putc('\n', out);
	for (size_t k = 0; k < first->table->n; k++) {
		int outside = 0;

		sf_text_csv_number(out, first->table->x[k], 1);
		for (size_t j = 0; j < r->count; j++) {
			const sf_prediction *p = r->studies[j]->table->pred;

			sf_text_csv_number(out, p->points[k].time, 0);
			outside |= sf_prediction_outside(p, k);
		}
		sf_text_csv_field(out, outside ? "true" : "false", 0);
		putc('\n', out);
	}
	return SF_OK;
}

/* ---- the run ------------------------------------------------------------- */

/* With --weights, the fits averaged (run/average.h) as the one fit of
 * one set. */
static int
load_average(const sf_run_scale_settings *s, sf_run_scale_result *r,
             sf_error *err)
{
	sf_fitfile_set *set;
	int rc = sf_run_average_asked(s->nfits > 1, &s->weights, s->nfits,
	                              s->group, err);

	if (rc != SF_OK)
		return rc;
	if ((set = calloc(1, sizeof *set)) == NULL ||
	    (set->fits = calloc(1, sizeof *set->fits)) == NULL ||
	    (set->labels = calloc(1, sizeof *set->labels)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else
		rc = sf_run_average_ensemble("sweep", s->fits, s->texts,
		                             s->nfits, &s->weights, s->warn,
		                             s->warn_ctx, &set->fits[0], err);
	if (rc != SF_OK) {
		sf_fitfile_set_free(set);
		return rc;
	}
	set->count = 1;
	r->sets[r->nsets++] = set;
	r->count = 1;
	return SF_OK;
}

/* Every fit of every file: a groups file (from fit --by) gives each group
 * the selector chooses (every group without it); with --weights, their
 * average. */
static int
load_fits(const sf_run_scale_settings *s, sf_run_scale_result *r, sf_error *err)
{
	int rc;

	if ((r->sets = calloc(s->nfits + 1, sizeof *r->sets)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (s->weights.given) {
		if ((rc = load_average(s, r, err)) != SF_OK)
			return rc;
	} else {
		for (; r->nsets < s->nfits; r->nsets++) {
			if ((rc = sf_fitfile_load_groups_text(
			         s->fits[r->nsets],
			         s->texts != NULL ? s->texts[r->nsets] : NULL,
			         s->group, 0, &r->sets[r->nsets], err)) !=
			    SF_OK)
				return rc;
			r->count += r->sets[r->nsets]->count;
		}
	}
	r->studies = calloc(r->count + 1, sizeof *r->studies);
	r->labels = calloc(r->count + 1, sizeof *r->labels);
	if (r->studies == NULL || r->labels == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

/* Set up the study of every fit: a study the fit cannot answer is a fault
 * of the request. */
static int
new_studies(const sf_run_scale_settings *s, sf_run_scale_result *r,
            sf_error *err)
{
	int rc;

	for (size_t p = 0, j = 0; p < r->nsets; p++)
		for (size_t k = 0; k < r->sets[p]->count; k++, j++) {
			const sf_fitfile *f = r->sets[p]->fits[k];

			sf_fitfile_warn(f, s->warn, s->warn_ctx);
			rc = sf_scale_new(f, &s->request, &r->studies[j], err);
			if (rc == SF_ENOMEM)
				return rc;
			if (rc != SF_OK && r->count > 1)
				return sf_run_request(err, "%s: %s", f->path,
				                      err->message);
			if (rc != SF_OK)
				return sf_run_request(err, "%s", err->message);
		}
	return SF_OK;
}

/* Mark in keep the rows of t whose column holds the value v of a group's
 * key (a number, or a text). */
static void
key_rows(const sf_table *t, size_t col, const json_t *v, unsigned char *keep)
{
	const double *cell = sf_table_column_values(t, col);
	sf_csv_kind kind = sf_table_column_kind(t, col);
	double want = NAN;

	if (json_is_string(v) && kind == SF_CSV_TEXT) {
		size_t code =
		    sf_table_column_code(t, col, json_string_value(v));

		want = code == SF_CSV_NONE ? NAN : (double)code;
	} else if (json_is_number(v) && kind == SF_CSV_NUMERIC) {
		want = json_number_value(v);
	}
	for (size_t r = 0; r < sf_table_rows(t); r++)
		keep[r] &= cell[r] == want;
}

/* The rows of t that are a group's (its key {column: value}): every key
 * column holds the key's value.  A key column t lacks is passed over for
 * the only series, and a fault of the request among several (whose rows
 * could not be told apart). */
static int
group_rows(const sf_table *t, const json_t *key, int several,
           unsigned char *keep, sf_error *err)
{
	const char *column;
	json_t *v;

	memset(keep, 1, sf_table_rows(t));
	json_object_foreach((json_t *)key, column, v)
	{
		size_t col = sf_table_column_find(t, column);

		if (col != SF_CSV_NONE)
			key_rows(t, col, v, keep);
		else if (several)
			return sf_run_request(err,
			                      "--data %s has no column '%s', "
			                      "which tells the groups' rows "
			                      "apart",
			                      sf_table_file(t), column);
	}
	return SF_OK;
}

/* Measurements the fits did not see, on the chart: each study's rows of
 * the data (a group's only its own). */
static int
held_out(const sf_run_scale_settings *s, sf_run_scale_result *r, sf_error *err)
{
	sf_table *table = NULL;
	unsigned char *keep = NULL;
	int rc;

	if (s->plot == NULL && !s->chart)
		return sf_run_request(err, "--data draws measurements on the "
		                           "chart: it goes with --plot");
	if ((rc = sf_table_load(s->data, NULL, &table, err)) != SF_OK)
		return rc;
	r->held_x = calloc(r->count + 1, sizeof *r->held_x);
	r->held_y = calloc(r->count + 1, sizeof *r->held_y);
	keep = malloc(sf_table_rows(table) + 1);
	if (r->held_x == NULL || r->held_y == NULL || keep == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t p = 0, j = 0; rc == SF_OK && p < r->nsets; p++)
		for (size_t k = 0; rc == SF_OK && k < r->sets[p]->count;
		     k++, j++) {
			sf_scale *sc = r->studies[j];
			const json_t *key = json_array_get(r->sets[p]->keys, k);

			if (key != NULL)
				rc = group_rows(table, key, r->count > 1, keep,
				                err);
			if (rc == SF_OK)
				rc = sf_scale_held_out(
				    sc, table, key != NULL ? keep : NULL,
				    &r->held_x[j], &r->held_y[j], &sc->nheld,
				    err);
			sc->held_x = r->held_x[j];
			sc->held_y = r->held_y[j];
		}
	free(keep);
	sf_table_free(table);
	return rc;
}

/* Each study's name: its group (with its model's name when there are
 * several files), else its model's or file's. */
static int
make_labels(const sf_run_scale_settings *s, sf_run_scale_result *r,
            sf_error *err)
{
	for (size_t p = 0, j = 0; p < r->nsets; p++)
		for (size_t k = 0; k < r->sets[p]->count; k++, j++) {
			const char *group = r->sets[p]->labels[k];
			char label[512];

			if (group != NULL && s->nfits == 1)
				snprintf(label, sizeof label, "%s", group);
			else if (group != NULL)
				snprintf(label, sizeof label, "%s %s",
				         r->sets[p]->fits[k]->name, group);
			else
				sf_scale_label(
				    (const sf_scale *const *)r->studies,
				    r->count, j, label, sizeof label);
			if ((r->labels[j] = strdup(label)) == NULL)
				return sf_error_set(err, SF_ENOMEM,
				                    "out of memory");
		}
	return SF_OK;
}

/* The chart: one study's, or a line per study; written to s->plot. */
static int
draw(const sf_run_scale_settings *s, sf_run_scale_result *r, sf_error *err)
{
	int rc;

	if (s->plot == NULL && !s->chart)
		return SF_OK;
	rc = r->count == 1
	         ? sf_plot_study(r->studies[0], &r->chart, err)
	         : sf_plot_studies((const sf_scale *const *)r->studies,
	                           (const char *const *)r->labels, r->count,
	                           &r->chart, err);
	if (rc == SF_OK && s->plot != NULL)
		rc = sf_svg_save(r->chart, s->plot, err);
	return rc;
}

/* The studies, set up and run, their chart and labels. */
static int
run_studies(const sf_run_scale_settings *s, sf_run_scale_result *r,
            sf_error *err)
{
	int rc;

	if ((rc = load_fits(s, r, err)) != SF_OK ||
	    (rc = new_studies(s, r, err)) != SF_OK ||
	    (rc = sf_scale_share_points(r->studies, r->count, err)) != SF_OK)
		return rc;
	for (size_t j = 0; j < r->count; j++)
		if ((rc = sf_scale_run(r->studies[j], err)) != SF_OK)
			return rc;
	if (s->data != NULL && (rc = held_out(s, r, err)) != SF_OK)
		return rc;
	if ((rc = make_labels(s, r, err)) != SF_OK)
		return rc;
	/* The chart first: if it cannot be written, nothing is reported. */
	return draw(s, r, err);
}

/* The JSON document: one study's, or {"studies": [...]}; an average's
 * with the fits it was made of and their weights ("models", as
 * predict's). */
static int
scale_json(const sf_run_scale_settings *s, sf_run_scale_result *r,
           sf_error *err)
{
	r->out.json = r->count == 1
	                  ? sf_scale_json(r->studies[0])
	                  : several_json(r->studies, r->labels, r->count);
	if (r->out.json == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return s->weights.given ? sf_run_average_models(
	                              r->out.json, r->sets[0]->fits[0], err)
	                        : SF_OK;
}

int
sf_run_scale(const sf_run_scale_settings *s, sf_run_scale_result **out,
             sf_error *err)
{
	sf_run_scale_result *r = calloc(1, sizeof *r);
	int rc;

	*out = NULL;
	if (s->nfits == 0) {
		free(r);
		return sf_run_request(err, "no fit file to study");
	}
	if (s->json && s->csv) {
		free(r);
		return sf_run_request(err, "--json and --csv: choose one");
	}
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = run_studies(s, r, err)) != SF_OK)
		goto fail;
	for (size_t j = 0; j < r->count && !s->quiet; j++)
		sf_scale_warn(r->studies[j], s->warn, s->warn_ctx);
	if (s->json && (rc = scale_json(s, r, err)) != SF_OK)
		goto fail;
	if ((rc = sf_run_text(s->csv ? print_csv : print_studies, r,
	                      &r->out.text, err)) != SF_OK)
		goto fail;
	*out = r;
	return SF_OK;
fail:
	sf_run_scale_result_free(r);
	return rc;
}
