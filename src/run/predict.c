/*
 * predict.c (run/) - the pipeline of `scalefit predict`, and its text.
 */
#include "run/predict.h"
#include "run/average.h"
#include "base/escape.h"
#include "input/csv.h"
#include "input/dataset.h"
#include "input/override.h"
#include "use/assign.h"
#include "use/json.h"
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

/* The points of a prediction: every --at, then the grid's rows. */
typedef struct points {
	double *
	    *columns; /* one per input of the fit (sf_assign_columns_free) */
	size_t n;
	int *lines;       /* the grid's rows' lines; NULL without a grid */
	double *observed; /* n: the grid's output at its rows, NaN at --at's
	                     points; NULL when the grid has no output */
} points;

static void
points_clear(points *pts, size_t ninputs)
{
	sf_assign_columns_free(pts->columns, ninputs);
	free(pts->lines);
	free(pts->observed);
	*pts = (points){0};
}

/* The texts of --input NAME=EXPR, one slot per input of f (NULL where
 * none): *exprs (free it, not its texts, which point into s). */
static int
input_texts(const sf_fitfile *f, const sf_run_predict_settings *s,
            const char ***exprs, sf_error *err)
{
	*exprs = NULL;
	if (s->ninputs == 0)
		return SF_OK;
	if ((*exprs = calloc(f->ninputs + 1, sizeof **exprs)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t k = 0; k < s->ninputs; k++) {
		const char *expr;
		char name[128];
		size_t i;

		if (sf_override_input_split(s->inputs[k], name, sizeof name,
		                            &expr) != SF_OK)
			return sf_run_request(
			    err,
			    "--input '%s' is not NAME=EXPR (an "
			    "input of the fit and the grid's "
			    "column or expression it takes, "
			    "such as p=workers)",
			    s->inputs[k]);
		if ((i = sf_assign_input(f, name, err)) == SF_FITFILE_NONE)
			return sf_run_request(err, "--input '%s': %s",
			                      s->inputs[k], err->message);
		if ((*exprs)[i] != NULL)
			return sf_run_request(err, "--input %s is given twice",
			                      name);
		(*exprs)[i] = expr;
	}
	return SF_OK;
}

/* The grid's output (f's model.output, as fit read it) at its rows, after
 * the nat points of --at: *observed, or NULL when the grid cannot give
 * it (a column it lacks).  Returns SF_OK or SF_ENOMEM. */
static int
grid_output(const sf_fitfile *f, const sf_table *t, size_t nat,
            double **observed, sf_error *err)
{
	size_t rows = sf_table_rows(t);
	double *y = malloc((nat + rows + 1) * sizeof *y);
	sf_error e;
	int rc;

	*observed = NULL;
	if (y == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t k = 0; k < nat; k++)
		y[k] = NAN;
	if ((rc = sf_dataset_eval_table(t, f->output, y + nat, &e)) != SF_OK) {
		free(y);
		return rc == SF_ENOMEM ? sf_error_set(err, rc, "out of memory")
		                       : SF_OK;
	}
	*observed = y;
	return SF_OK;
}

/* The grid's points: its inputs' columns, lines and output. */
static int
grid_points(const sf_fitfile *f, const sf_run_predict_settings *s,
            double ***grid, size_t *rows, points *pts, sf_error *err)
{
	sf_table *table = NULL;
	const char **exprs = NULL;
	int rc;

	if ((rc = input_texts(f, s, &exprs, err)) != SF_OK ||
	    (rc = sf_table_load(s->grid, NULL, &table, err)) != SF_OK ||
	    (rc = sf_assign_grid(f, table, exprs, grid, err)) != SF_OK ||
	    (rc = grid_output(f, table, s->nat, &pts->observed, err)) != SF_OK)
		goto done;
	*rows = sf_table_rows(table);
	if ((pts->lines = malloc((*rows + 1) * sizeof *pts->lines)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else
		memcpy(pts->lines, sf_table_row_lines(table),
		       *rows * sizeof *pts->lines);
done:
	free(exprs);
	sf_table_free(table);
	return rc;
}

/* The points of every --at, then of the grid, as one column per input
 * of f, into *pts (points_clear()). */
static int
gather_points(const sf_fitfile *f, const sf_run_predict_settings *s,
              points *pts, sf_error *err)
{
	size_t ni = f->ninputs, rows = 0;
	double **grid = NULL, **out = calloc(ni + 1, sizeof *out);
	double *values = calloc(ni + 1, sizeof *values);
	unsigned char *given = calloc(ni + 1, 1);
	int rc = SF_OK;

	*pts = (points){0};
	if (out == NULL || values == NULL || given == NULL)
		goto nomem;
	if (s->grid != NULL &&
	    (rc = grid_points(f, s, &grid, &rows, pts, err)) != SF_OK)
		goto done;
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
	pts->columns = out;
	pts->n = s->nat + rows;
	out = NULL;
	goto done;
nomem:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	if (rc != SF_OK)
		points_clear(pts, ni);
	sf_assign_columns_free(out, ni);
	sf_assign_columns_free(grid, ni);
	free(values);
	free(given);
	return rc;
}

/*
 * Refuse the first point where fit f's formula (its time or a term, as p
 * predicts it) is not a number: a point outside the formula's domain,
 * such as p = 0 in 1 / p.  Named by its --at text, or by its grid row's
 * FILE:LINE (lines).  Returns SF_OK when there is none.
 */
static int
refuse_nonfinite(const sf_run_predict_settings *s, const sf_fitfile *f,
                 const sf_prediction *p, const int *lines, sf_error *err)
{
	const char *what;
	double value;
	size_t k = sf_prediction_nonfinite(f, p, &what, &value);
	char point[256] = "", cell[96], name[160];
	size_t used = 0;

	if (k == p->n)
		return SF_OK;
	for (size_t i = 0; i < f->ninputs && used < sizeof point; i++) {
		int w;

		sf_text_input(f, i, p->inputs[i * p->n + k], cell, sizeof cell);
		w = snprintf(point + used, sizeof point - used, "%s%s = %s",
		             i ? ", " : "", f->inputs[i].name, cell);
		used += w > 0 ? (size_t)w : 0;
	}
	snprintf(name, sizeof name, "%s%s", strcmp(what, "time") ? "term " : "",
	         strcmp(what, "time") ? what : "the time");
	if (k < s->nat)
		return sf_run_request(
		    err,
		    "--at '%s': %s is %s there: the point "
		    "lies outside the formula's domain",
		    s->at[k], name, isnan(value) ? "not a number" : "infinite");
	return sf_error_at(
	    err, SF_EVALUE, s->grid, lines != NULL ? lines[k - s->nat] : 0, 0,
	    "at %s %s is %s: the point lies outside the "
	    "formula's domain; leave it out",
	    point, name, isnan(value) ? "not a number" : "infinite");
}

/* One fit's predictions, and the unit its text's header names; as CSV,
 * its group's label (NULL: no group column) and whether the header line
 * comes first. */
typedef struct one_text {
	const sf_fitfile *f;
	const sf_prediction *p;
	const char *unit;
	const char *group;
	int header;
} one_text;

/* The lines above the table: the bands and the interval of a new run. */
static void
print_bands(FILE *out, const sf_fitfile *f, const sf_prediction *p)
{
	/* The name and output come from the file: escaped. */
	sf_escape_print(out, f->name[0] ? f->name : "fit", 0);
	fputs(": predicted ", out);
	sf_escape_print(out, f->output, 0);
	fprintf(out, " at %zu point%s", p->n, p->n == 1 ? "" : "s");
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
	if (p->interval)
		sf_text_new_run_line(out, "95% interval for a new run: ", f,
		                     p->growth_unknown);
	else
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
	if (t->p->observed != NULL)
		fprintf(out, "%12s  %8s  ", "observed", "error");
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
	if (p->observed != NULL) {
		double e = sf_prediction_error(p, k);

		if (isnan(p->observed[k]))
			fprintf(out, "%12s  ", "-");
		else
			fprintf(out, "%12.6g  ", p->observed[k]);
		if (isnan(e))
			fprintf(out, "%8s  ", "-");
		else
			fprintf(out, "%+7.2f%%  ", e);
	}
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
/* What makes a new run's interval wide at each point beyond the fitted
 * range: its largest part (use/predict.h), the first POINTS_PARTS. */
enum { POINTS_PARTS = 20 };

static void
print_parts(FILE *out, const sf_prediction *p)
{
	size_t shown = 0;

	for (size_t k = 0; k < p->n && shown < POINTS_PARTS; k++) {
		const sf_predict_point *pt = &p->points[k];
		int top = 0;

		if (!p->interval || !(pt->beyond.distance2 > 0) ||
		    !isfinite(pt->parts[0]))
			continue;
		for (int q = 1; q < SF_PARTS; q++)
			if (pt->parts[q] > pt->parts[top])
				top = q;
		fprintf(out,
		        "%s point %zu: %s (%.0f%% of the interval's "
		        "variance)",
		        shown == 0 ? "\nwhat makes a new run's interval wide "
		                     "beyond the range:\n "
		                   : ";\n ",
		        k + 1, sf_part_name(top), 100 * pt->parts[top]);
		shown++;
	}
	if (shown > 0)
		fputc('\n', out);
}

/* Under the table of a grid with its output: the points' scores against
 * it, as validate reports its held-out rows'. */
static void
print_scores(FILE *out, const sf_fitfile *f, const sf_prediction *p)
{
	sf_holdout_scores sc;

	if (p->observed == NULL)
		return;
	sf_prediction_scores(p, &sc);
	fputs("\nagainst the grid's ", out);
	sf_escape_print(out, f->output, 0);
	if (sc.count == 0) {
		fputs(": no row has a measured value\n", out);
		return;
	}
	fprintf(out,
	        ": %zu rows, MAPE %.3g%%, max error %.3g%%, bias %+.3g%%\n",
	        sc.count, sc.mape, sc.max_ape, sc.bias);
	if (sc.interval_rows > 0)
		fprintf(out,
		        "95%% intervals for a new run: %.3g%% of %zu rows "
		        "inside, mean half-width %.3g%%, interval score "
		        "%.3g%%\n",
		        sc.coverage95, sc.interval_rows, sc.mean_halfwidth_pct,
		        sc.interval_score);
}

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
	print_scores(out, t->f, t->p);
	print_parts(out, t->p);
	return SF_OK;
}

/* The CSV header of one fit's predictions. */
static void
csv_head(FILE *out, const one_text *t)
{
	const sf_fitfile *f = t->f;
	const sf_prediction *p = t->p;
	int first = 1;

	if (t->group != NULL) {
		sf_text_csv_field(out, "group", first);
		first = 0;
	}
	for (size_t i = 0; i < f->ninputs; i++, first = 0)
		sf_text_csv_field(out, f->inputs[i].name, first);
	sf_text_csv_field(out, "time", first);
	if (p->observed != NULL) {
		sf_text_csv_field(out, "observed", 0);
		sf_text_csv_field(out, "error_pct", 0);
	}
	if (p->interval) {
		sf_text_csv_field(out, "interval95_lo", 0);
		sf_text_csv_field(out, "interval95_hi", 0);
	}
	sf_text_csv_field(out, "ci95_lo", 0);
	sf_text_csv_field(out, "ci95_hi", 0);
	if (p->bootstrap) {
		sf_text_csv_field(out, "ci95_bootstrap_lo", 0);
		sf_text_csv_field(out, "ci95_bootstrap_hi", 0);
	}
	for (size_t j = 0; j < f->nterms; j++)
		sf_text_csv_field(out, f->terms[j].name, 0);
	sf_text_csv_field(out, "extrapolated", 0);
	putc('\n', out);
}

/* Input i of point k as a CSV field: a text input's value by name. */
static void
csv_input(FILE *out, const sf_fitfile *f, size_t i, double x, int first)
{
	if (f->inputs[i].levels != NULL && x >= 0 &&
	    x < (double)f->inputs[i].nlevels)
		sf_text_csv_field(out, f->inputs[i].levels[(size_t)x], first);
	else
		sf_text_csv_number(out, x, first);
}

/* One fit's predictions as CSV: an sf_run_print_fn. */
static int
print_csv_one(FILE *out, const void *arg)
{
	const one_text *t = arg;
	const sf_fitfile *f = t->f;
	const sf_prediction *p = t->p;

	if (t->header)
		csv_head(out, t);
	for (size_t k = 0; k < p->n; k++) {
		const sf_predict_point *pt = &p->points[k];
		int first = 1;

		if (t->group != NULL) {
			sf_text_csv_field(out, t->group, first);
			first = 0;
		}
		for (size_t i = 0; i < f->ninputs; i++, first = 0)
			csv_input(out, f, i, p->inputs[i * p->n + k], first);
		sf_text_csv_number(out, pt->time, first);
		if (p->observed != NULL) {
			sf_text_csv_number(out, p->observed[k], 0);
			sf_text_csv_number(out, sf_prediction_error(p, k), 0);
		}
		if (p->interval) {
			sf_text_csv_number(out, pt->pi.lo, 0);
			sf_text_csv_number(out, pt->pi.hi, 0);
		}
		sf_text_csv_number(out, pt->ci.lo, 0);
		sf_text_csv_number(out, pt->ci.hi, 0);
		if (p->bootstrap) {
			sf_text_csv_number(out, pt->boot.lo, 0);
			sf_text_csv_number(out, pt->boot.hi, 0);
		}
		for (size_t j = 0; j < f->nterms; j++)
			sf_text_csv_number(out, p->terms[j * p->n + k], 0);
		sf_text_csv_field(
		    out, sf_prediction_outside(p, k) ? "true" : "false", 0);
		putc('\n', out);
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

static int
print_average(FILE *out, const void *arg)
{
	const average_text *t = arg;
	const sf_fitfile *const *fits = t->fits, *f = fits[0];
	const sf_average *avg = t->avg;
	size_t nfits = avg->nfits;
	char cell[96], head[160];

	sf_escape_print(out, f->output, 0);
	fprintf(out, " averaged over %zu fits (%s):", nfits,
	        sf_average_weights_said(t->how));
	for (size_t i = 0; i < nfits; i++) {
		fputs(i ? ", " : " ", out);
		sf_escape_print(
		    out, fits[i]->name[0] ? fits[i]->name : fits[i]->path, 0);
		fprintf(out, " %.3f", avg->weight[i]);
	}
	fprintf(out, "\ntime: the median of the fits' weighted mixture, and "
	             "its 95%% interval for a new run\n\n");
	for (size_t i = 0; i < f->ninputs; i++)
		fprintf(out, "%*s  ", sf_text_width(f->inputs[i].name, 8),
		        f->inputs[i].name);
	sf_text_time_header(f, t->s->unit != NULL ? t->s->unit : f->unit, head,
	                    sizeof head);
	fprintf(out, "%*s  %-28s", sf_text_width(head, 12), head,
	        "95% new run");
	for (size_t i = 0; i < nfits; i++) {
		fputs("  ", out);
		sf_escape_print(out, fits[i]->name,
		                sf_text_width(fits[i]->name, 12));
	}
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

/* Several fits averaged, as CSV: an sf_run_print_fn. */
static int
print_csv_average(FILE *out, const void *arg)
{
	const average_text *t = arg;
	const sf_fitfile *const *fits = t->fits, *f = fits[0];
	const sf_average *avg = t->avg;

	for (size_t i = 0; i < f->ninputs; i++)
		sf_text_csv_field(out, f->inputs[i].name, i == 0);
	sf_text_csv_field(out, "time", f->ninputs == 0);
	sf_text_csv_field(out, "interval95_lo", 0);
	sf_text_csv_field(out, "interval95_hi", 0);
	for (size_t i = 0; i < avg->nfits; i++)
		sf_text_csv_field(out, fits[i]->name, 0);
	sf_text_csv_field(out, "extrapolated", 0);
	putc('\n', out);
	for (size_t k = 0; k < avg->n; k++) {
		int outside = 0;

		for (size_t i = 0; i < f->ninputs; i++)
			csv_input(out, f, i,
			          avg->each[0]->inputs[i * avg->n + k], i == 0);
		sf_text_csv_number(out, avg->time[k], f->ninputs == 0);
		sf_text_csv_number(out, avg->interval[k].lo, 0);
		sf_text_csv_number(out, avg->interval[k].hi, 0);
		for (size_t i = 0; i < avg->nfits; i++) {
			sf_text_csv_number(out, avg->each[i]->points[k].time,
			                   0);
			outside |= sf_prediction_outside(avg->each[i], k);
		}
		sf_text_csv_field(out, outside ? "true" : "false", 0);
		putc('\n', out);
	}
	return SF_OK;
}

/* The k fits averaged as how says. */
static int
average_fits(const sf_run_predict_settings *s, const sf_fitfile *const *fits,
             size_t k, const sf_average_asked *how, sf_run_predict_result *r,
             sf_error *err)
{
	points pts;
	int rc;

	for (size_t i = 0; i < k; i++)
		sf_fitfile_warn(fits[i], s->warn, s->warn_ctx);
	if (sf_average_check(fits, k, err) != SF_OK)
		return sf_run_request(err, "%s", err->message);
	if ((rc = gather_points(fits[0], s, &pts, err)) != SF_OK)
		return rc;
	rc = sf_average_run(fits, k, how, (const double *const *)pts.columns,
	                    pts.n, &r->average, err);
	if (rc != SF_OK) {
		points_clear(&pts, fits[0]->ninputs);
		return rc == SF_EVALUE ? sf_run_request(err, "%s", err->message)
		                       : rc;
	}
	for (size_t i = 0; i < k && rc == SF_OK; i++)
		rc = refuse_nonfinite(s, fits[i], r->average->each[i],
		                      pts.lines, err);
	points_clear(&pts, fits[0]->ninputs);
	if (rc != SF_OK)
		return rc;
	for (size_t i = 0; i < k && !s->quiet; i++)
		sf_prediction_warn(fits[i], r->average->each[i], s->warn,
		                   s->warn_ctx);
	{
		average_text t = {fits, s, r->average, how->how};

		return sf_run_text(s->csv ? print_csv_average : print_average,
		                   &t, &r->out.text, err);
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
		if ((rc = sf_run_average_load(
		         "predict", s->fits[r->nfits],
		         s->texts != NULL ? s->texts[r->nfits] : NULL,
		         &r->fits[r->nfits], err)) != SF_OK)
			return rc;
	return average_fits(s, (const sf_fitfile *const *)r->fits, s->nfits,
	                    &s->weights, r, err);
}

/* Predict with fit f: *p, and its text in *text. */
static int
predict_one(const sf_run_predict_settings *s, const sf_fitfile *f,
            const char *group, int header, sf_prediction **p, char **text,
            sf_error *err)
{
	points pts;
	int rc;

	sf_fitfile_warn(f, s->warn, s->warn_ctx);
	if ((rc = gather_points(f, s, &pts, err)) != SF_OK)
		return rc;
	rc = sf_predict(f, (const double *const *)pts.columns, pts.n, p, err);
	if (rc == SF_OK) {
		(*p)->observed = pts.observed;
		pts.observed = NULL;
		rc = refuse_nonfinite(s, f, *p, pts.lines, err);
	}
	points_clear(&pts, f->ninputs);
	if (rc != SF_OK)
		return rc;
	if (!s->quiet)
		sf_prediction_warn(f, *p, s->warn, s->warn_ctx);
	{
		one_text t = {f, *p, s->unit, group, header};

		return sf_run_text(s->csv ? print_csv_one : print_one, &t, text,
		                   err);
	}
}

/* Every group of a groups file, one after the other. */
static int
predict_groups(const sf_run_predict_settings *s, sf_run_predict_result *r,
               sf_error *err)
{
	const sf_fitfile_set *set = r->set;
	char *texts = NULL;
	size_t length = 0;
	FILE *all = open_memstream(&texts, &length);
	int rc = SF_OK;

	if (all == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < set->count && rc == SF_OK; i++) {
		char *text = NULL;

		rc = predict_one(s, set->fits[i], set->labels[i], i == 0,
		                 &r->predictions[i], &text, err);
		if (rc == SF_OK && s->csv)
			fputs(text, all); /* one table, a group column */
		else if (rc == SF_OK) {
			fprintf(all, "%s== group ", i > 0 ? "\n" : "");
			sf_escape_print(all, set->labels[i], 0);
			fprintf(all, " ==\n%s", text);
		}
		free(text);
	}
	if (all != NULL && fclose(all) != 0 && rc == SF_OK)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	r->out.text = texts;
	r->groups_document = 1;
	return rc;
}

/* Group k's document (an sf_json_element_fn over the result): its key and
 * label, then its prediction's members and points. */
static int
write_group(FILE *out, const void *ctx, size_t k, int depth)
{
	const sf_run_predict_result *r = ctx;
	const sf_fitfile_set *set = r->set;
	json_t *head =
	    json_pack("{s:O, s:s}", "key", json_array_get(set->keys, k),
	              "label", set->labels[k]);
	int rc = SF_ENOMEM;

	if (head != NULL && sf_prediction_head_json(head, set->fits[k],
	                                            r->predictions[k]) == SF_OK)
		rc = sf_prediction_write_json(out, head, set->fits[k],
		                              r->predictions[k], depth);
	json_decref(head);
	return rc;
}

/* The JSON document of r, written one point at a time (sf_run_output's
 * write_json): the average's, the groups', or the one fit's. */
static int
write_json(FILE *out, const void *arg)
{
	const sf_run_predict_result *r = arg;
	json_t *head = json_object();
	int rc = SF_ENOMEM;

	if (r->average != NULL)
		rc = sf_average_write_json(
		    out, (const sf_fitfile *const *)r->fits, r->average);
	else if (head != NULL && r->groups_document)
		rc = sf_json_write_tail(out, head, 0, "groups", r->set->count,
		                        write_group, r);
	else if (head != NULL &&
	         sf_prediction_head_json(head, r->set->fits[0],
	                                 r->predictions[0]) == SF_OK)
		rc = sf_prediction_write_json(out, head, r->set->fits[0],
		                              r->predictions[0], 0);
	json_decref(head);
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
		return predict_one(s, r->set->fits[0], NULL, 1,
		                   &r->predictions[0], &r->out.text, err);
	return predict_groups(s, r, err);
}

/* What s asks that cannot be done: SF_EREQUEST and why, else SF_OK. */
static int
check_request(const sf_run_predict_settings *s, sf_error *err)
{
	if (s->nfits == 0)
		return sf_run_request(err, "no fit file to predict with");
	int rc = sf_run_average_asked(s->nfits > 1, &s->weights, s->nfits,
	                              s->group, err);

	if (rc != SF_OK)
		return rc;
	if (s->nat == 0 && s->grid == NULL)
		return sf_run_request(err, "say where to predict: --at "
		                           "NAME=VALUE,... or --grid FILE.csv");
	if (s->json && s->csv)
		return sf_run_request(err, "--json and --csv: choose one");
	if (s->ninputs > 0 && s->grid == NULL)
		return sf_run_request(err,
		                      "--input maps the columns of a "
		                      "--grid FILE.csv to the fit's inputs: "
		                      "give a grid");
	return SF_OK;
}

int
sf_run_predict(const sf_run_predict_settings *s, sf_run_predict_result **out,
               sf_error *err)
{
	sf_run_predict_result *r;
	int rc;

	*out = NULL;
	if ((rc = check_request(s, err)) != SF_OK)
		return rc;
	if ((r = calloc(1, sizeof *r)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	rc =
	    s->nfits > 1 ? predict_average(s, r, err) : predict_file(s, r, err);
	if (rc != SF_OK) {
		sf_run_predict_result_free(r);
		return rc;
	}
	/* The document is written when printed: a grid of a million
	 * points never becomes a million jansson trees at once. */
	if (s->json) {
		r->out.write_json = write_json;
		r->out.json_arg = r;
	}
	*out = r;
	return SF_OK;
}
