/*
 * fitplot.c - the chart of a fit: observed against predicted, and the
 * errors by input.
 *
 * Layout, in pixels: the title and subtitle, the legend, the panel of
 * observed against predicted with its axis labels and title, then one
 * panel of errors per input that varies, each with its own x axis.
 */
#include "use/fitplot.h"
#include "use/assign.h"
#include "use/chart.h"
#include "use/predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	TOP_HEIGHT = 340,   /* observed against predicted */
	PANEL_HEIGHT = 130, /* the errors along one input */
	UNDER = 62          /* a panel's tick labels and axis title */
};

/* ---- the rows ------------------------------------------------------------ */

static void
rows_free(sf_fitplot_rows *r)
{
	free(r->inputs);
	free(r->observed);
	free(r->predicted);
}

/* Room for n rows of ni inputs in *r (zeroed by the caller): 1, or 0 when
 * out of memory (free with rows_free() either way). */
static int
rows_alloc(sf_fitplot_rows *r, size_t ni, size_t n)
{
	r->n = n;
	r->worst = n;
	r->mape = NAN;
	r->inputs = malloc((ni * n + 1) * sizeof *r->inputs);
	r->observed = malloc((n + 1) * sizeof *r->observed);
	r->predicted = malloc((n + 1) * sizeof *r->predicted);
	return r->inputs != NULL && r->observed != NULL && r->predicted != NULL;
}

/* The error of row k's prediction, predicted / observed - 1, as validate
 * reports it (NaN when the observed time is 0). */
static double
row_error(const sf_fitplot_rows *r, size_t k)
{
	double y = r->observed[k];

	return y != 0 ? r->predicted[k] / y - 1 : NAN;
}

/* Predict r's rows from f, then their MAPE and the worst row. */
static int
rows_predict(const sf_fitfile *f, sf_fitplot_rows *r, sf_error *err)
{
	const double **columns;
	sf_prediction *pred = NULL;
	double sum = 0;
	size_t used = 0;
	int rc;

	if (r->n == 0)
		return SF_OK;
	if ((columns = calloc(f->ninputs + 1, sizeof *columns)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < f->ninputs; i++)
		columns[i] = &r->inputs[i * r->n];
	rc = sf_predict(f, columns, r->n, &pred, err);
	free(columns);
	if (rc != SF_OK)
		return rc;
	for (size_t k = 0; k < r->n; k++) {
		double e;

		r->predicted[k] = pred->points[k].time;
		if (!isfinite(e = row_error(r, k)))
			continue;
		sum += fabs(e);
		used++;
		if (r->worst == r->n || fabs(e) > fabs(row_error(r, r->worst)))
			r->worst = k;
	}
	r->mape = used > 0 ? 100 * sum / (double)used : NAN;
	sf_prediction_free(pred);
	return SF_OK;
}

/* The fit that holds f's measured rows: f, or for an ensemble its first
 * formula's (every member fitted the same rows). */
static const sf_fitfile *
rows_of(const sf_fitfile *f)
{
	return f->nmembers > 0 && f->nmeasured == 0 ? f->members[0] : f;
}

/* The fit's measured rows, predicted by f (an ensemble: its mixture). */
static int
fitted_rows(const sf_fitfile *fit, sf_fitplot_rows *r, sf_error *err)
{
	const sf_fitfile *f = rows_of(fit);
	size_t n = f->nmeasured, ni = f->ninputs;

	if (!rows_alloc(r, ni, n))
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < ni; i++)
			r->inputs[i * n + k] = f->measured_inputs[k * ni + i];
		r->observed[k] = f->measured[k];
	}
	return rows_predict(fit, r, err);
}

/* A row as a key: its inputs, then its time (n values at v). */
typedef struct row_key {
	const double *v;
	size_t n;
} row_key;

static int
compare_keys(const void *a, const void *b)
{
	const row_key *p = a, *q = b;

	for (size_t i = 0; i < p->n; i++)
		if (p->v[i] != q->v[i])
			return p->v[i] < q->v[i] ? -1 : 1;
	return 0;
}

/* The fitted rows as sorted keys over a row-major copy *values (inputs,
 * then the time): NULL when out of memory. */
static row_key *
fitted_keys(const sf_fitfile *fit, double **values)
{
	const sf_fitfile *f = rows_of(fit);
	size_t n = f->nmeasured, w = f->ninputs + 1;
	row_key *keys = malloc((n + 1) * sizeof *keys);

	*values = malloc((n * w + 1) * sizeof **values);
	if (keys == NULL || *values == NULL) {
		free(keys);
		free(*values);
		*values = NULL;
		return NULL;
	}
	for (size_t k = 0; k < n; k++) {
		memcpy(&(*values)[k * w], &f->measured_inputs[k * f->ninputs],
		       f->ninputs * sizeof **values);
		(*values)[k * w + f->ninputs] = f->measured[k];
		keys[k] = (row_key){&(*values)[k * w], w};
	}
	qsort(keys, n, sizeof *keys, compare_keys);
	return keys;
}

/* Keep the rows of the data (columns: the inputs', y: the output's) whose
 * values are all finite and that are not fitted rows, into r. */
static int
keep_held(const sf_fitfile *f, double *const *columns, const double *y,
          size_t rows, sf_fitplot_rows *r, sf_error *err)
{
	size_t ni = f->ninputs, m = 0, nf = rows_of(f)->nmeasured;
	double *values = NULL, *row = malloc((ni + 2) * sizeof *row);
	row_key *keys = fitted_keys(f, &values);

	if (row == NULL || keys == NULL || !rows_alloc(r, ni, rows)) {
		free(row);
		free(keys);
		free(values);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < rows; k++) {
		row_key key = {row, ni + 1};
		int finite = isfinite(y[k]);

		for (size_t i = 0; i < ni; i++)
			finite &= isfinite(row[i] = columns[i][k]);
		row[ni] = y[k];
		if (!finite || (nf > 0 && bsearch(&key, keys, nf, sizeof *keys,
		                                  compare_keys) != NULL))
			continue;
		for (size_t i = 0; i < ni; i++)
			r->inputs[i * rows + m] = row[i];
		r->observed[m++] = y[k];
	}
	/* Input-major with a stride of rows: close the columns up to m. */
	for (size_t i = 1; i < ni; i++)
		memmove(&r->inputs[i * m], &r->inputs[i * rows],
		        m * sizeof *r->inputs);
	r->n = r->worst = m;
	free(row);
	free(keys);
	free(values);
	return SF_OK;
}

/* The data's rows that are not the fit's: read, kept and predicted. */
static int
held_rows(const sf_fitfile *f, const sf_table *t, sf_fitplot_rows *r,
          sf_error *err)
{
	size_t out = sf_table_column_find(t, f->output);
	double **columns = NULL;
	int rc;

	if (out == SF_CSV_NONE)
		return sf_error_at(err, SF_ENAME, sf_table_file(t), 1, 1,
		                   "the data has no column '%s' (the fit's "
		                   "output) to plot",
		                   f->output);
	if (sf_table_column_kind(t, out) != SF_CSV_NUMERIC) {
		int line, column;

		sf_table_column_position(t, out, &line, &column);
		return sf_error_at(err, SF_ETYPE, sf_table_file(t), line,
		                   column, "column '%s' holds text, not times",
		                   f->output);
	}
	if ((rc = sf_assign_table(f, t, &columns, err)) != SF_OK)
		return rc;
	rc = keep_held(f, columns, sf_table_column_values(t, out),
	               sf_table_rows(t), r, err);
	sf_assign_columns_free(columns, f->ninputs);
	return rc == SF_OK ? rows_predict(f, r, err) : rc;
}

int
sf_fitplot_new(const sf_fitfile *f, const sf_table *data, sf_fitplot **out,
               sf_error *err)
{
	sf_fitplot *p = calloc(1, sizeof *p);
	int rc;

	*out = NULL;
	if (p == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	p->f = f;
	if ((rc = fitted_rows(f, &p->fitted, err)) == SF_OK && data != NULL)
		rc = held_rows(f, data, &p->held, err);
	if (rc == SF_OK && p->fitted.n + p->held.n == 0)
		rc = sf_error_at(err, SF_EVALUE, f->path, 0, 0,
		                 "no row to draw: the fit file holds no "
		                 "residuals%s",
		                 data != NULL ? " and the data no usable row"
		                              : " (give the rows with --data)");
	if (rc != SF_OK) {
		sf_fitplot_free(p);
		return rc;
	}
	*out = p;
	return SF_OK;
}

void
sf_fitplot_free(sf_fitplot *p)
{
	if (p == NULL)
		return;
	rows_free(&p->fitted);
	rows_free(&p->held);
	free(p);
}

/* ---- the chart ----------------------------------------------------------- */

/* What the drawing needs besides the rows. */
typedef struct chart {
	sf_chart_panel top, panel[SF_FITPLOT_PANELS];
	size_t input[SF_FITPLOT_PANELS]; /* each panel's input */
	int pow2[SF_FITPLOT_PANELS];     /* its axis labelled 1, 2, 4, ... */
	size_t npanels;
	char clip[SF_FITPLOT_PANELS][24];
	double *error_fitted, *error_held; /* each row's error */
	char title[256], subtitle[256], xlabel[160], ylabel[160];
	char fitted_label[96], held_label[96];
} chart;

/* Widen [*lo, *hi] to the values of input i in both sets of rows. */
static void
input_range(const sf_fitplot *p, size_t i, double *lo, double *hi, int log)
{
	sf_chart_extend(lo, hi, &p->fitted.inputs[i * p->fitted.n], p->fitted.n,
	                log);
	sf_chart_extend(lo, hi, &p->held.inputs[i * p->held.n], p->held.n, log);
}

/* 1 when every value of input i is a whole power of two. */
static int
input_pow2(const sf_fitplot *p, size_t i)
{
	const sf_fitplot_rows *sets[2] = {&p->fitted, &p->held};

	for (size_t s = 0; s < 2; s++)
		for (size_t k = 0; k < sets[s]->n; k++) {
			double v = sets[s]->inputs[i * sets[s]->n + k];
			int e;

			if (!(v >= 1) || frexp(v, &e) != 0.5)
				return 0;
		}
	return 1;
}

/* The panels of errors: each numeric input whose value varies, its axis
 * log when positive over a factor of 8 or more; the whole height in
 * *height. */
static void
place_panels(const sf_fitplot *p, chart *c, double y0, const sf_axis *ey,
             double *height)
{
	const sf_fitfile *f = p->f;

	c->npanels = 0;
	for (size_t i = 0; i < f->ninputs && c->npanels < SF_FITPLOT_PANELS;
	     i++) {
		sf_chart_panel *pn = &c->panel[c->npanels];
		double lo = INFINITY, hi = -INFINITY, plo = INFINITY,
		       phi = -INFINITY;
		int log;

		if (f->inputs[i].levels != NULL)
			continue;
		input_range(p, i, &lo, &hi, 0);
		if (!(lo < hi))
			continue;
		input_range(p, i, &plo, &phi, 1);
		log = lo > 0 && hi >= 8 * lo;
		snprintf(c->clip[c->npanels], sizeof c->clip[0], "errors-%zu",
		         c->npanels);
		c->input[c->npanels] = i;
		c->pow2[c->npanels] = log && input_pow2(p, i);
		sf_chart_pad(&lo, &hi, log, 0.04);
		*pn = c->top;
		pn->y0 = y0;
		pn->y1 = y0 + PANEL_HEIGHT;
		pn->clip = c->clip[c->npanels];
		pn->x = (sf_axis){lo, hi, log, pn->x0 + SF_CHART_INSET,
		                  pn->x1 - SF_CHART_INSET};
		pn->y = *ey;
		pn->y.from = pn->y1;
		pn->y.to = pn->y0;
		y0 = pn->y1 + UNDER;
		c->npanels++;
	}
	*height = y0;
}

/* The time axes of the top panel (the same range on both: the diagonal
 * is the diagonal), log when every time is positive.  0 when there is
 * no finite time. */
static int
time_axes(const sf_fitplot *p, chart *c)
{
	const sf_fitplot_rows *sets[2] = {&p->fitted, &p->held};
	double lo = INFINITY, hi = -INFINITY;
	int log = 1;

	for (size_t s = 0; s < 2; s++)
		for (size_t k = 0; k < sets[s]->n; k++)
			log &= !(sets[s]->observed[k] <= 0) &&
			       !(sets[s]->predicted[k] <= 0);
	for (size_t s = 0; s < 2; s++) {
		sf_chart_extend(&lo, &hi, sets[s]->observed, sets[s]->n, log);
		sf_chart_extend(&lo, &hi, sets[s]->predicted, sets[s]->n, log);
	}
	if (!(lo <= hi))
		return 0;
	sf_chart_pad(&lo, &hi, log, 0.05);
	c->top.x = (sf_axis){lo, hi, log, c->top.x0 + SF_CHART_INSET,
	                     c->top.x1 - SF_CHART_INSET};
	c->top.y = (sf_axis){lo, hi, log, c->top.y1 - SF_CHART_INSET,
	                     c->top.y0 + SF_CHART_INSET};
	return 1;
}

/* The errors' axis: symmetric about 0, at least +-5%. */
static sf_axis
error_axis(const chart *c, const sf_fitplot *p)
{
	double lo = -0.05, hi = 0.05, m;

	sf_chart_extend(&lo, &hi, c->error_fitted, p->fitted.n, 0);
	sf_chart_extend(&lo, &hi, c->error_held, p->held.n, 0);
	m = 1.1 * fmax(-lo, hi);
	return (sf_axis){-m, m, 0, 0, 0};
}

/* The legend: the two kinds of row, with their counts and MAPE, and the
 * diagonal. */
static void
draw_legend(const sf_fitplot *p, const chart *c, sf_chart_legend *l)
{
	if (p->fitted.n > 0)
		sf_chart_legend_entry(l, SF_CHART_DOT, SF_CHART_MEASURED,
		                      c->fitted_label);
	if (p->held.n > 0)
		sf_chart_legend_entry(l, SF_CHART_RING, SF_CHART_MEASURED,
		                      c->held_label);
	sf_chart_legend_entry(l, SF_CHART_DASHED, SF_CHART_AXIS,
	                      "observed = predicted (no error)");
}

/* The top panel: the diagonal, then the rows. */
static void
draw_top(sf_svg *s, const sf_fitplot *p, const chart *c)
{
	const sf_chart_panel *pn = &c->top;

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	sf_svg_printf(s,
	              "<line class=\"diagonal\" x1=\"%.2f\" y1=\"%.2f\" "
	              "x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
	              "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n",
	              sf_axis_map(&pn->x, pn->x.lo),
	              sf_axis_map(&pn->y, pn->x.lo),
	              sf_axis_map(&pn->x, pn->x.hi),
	              sf_axis_map(&pn->y, pn->x.hi), SF_CHART_AXIS);
	sf_chart_points(s, pn, p->fitted.predicted, p->fitted.observed,
	                p->fitted.n, SF_CHART_MEASURED, 0);
	sf_chart_points(s, pn, p->held.predicted, p->held.observed, p->held.n,
	                SF_CHART_MEASURED, 1);
	sf_svg_printf(s, "</g>\n");
	sf_chart_frame(s, pn);
	sf_chart_y_title(s, pn, c->ylabel);
	sf_svg_text(s, (pn->x0 + pn->x1) / 2, pn->y1 + 42,
	            "text-anchor=\"middle\"", c->xlabel);
}

/* Panel j: the line of no error, then each row's error at its input. */
static void
draw_errors(sf_svg *s, const sf_fitplot *p, const chart *c, size_t j)
{
	const sf_chart_panel *pn = &c->panel[j];
	const sf_fitfile_input *in = &p->f->inputs[c->input[j]];
	size_t i = c->input[j];
	double zero = sf_axis_map(&pn->y, 0);
	char title[256];

	sf_chart_grid(s, pn, c->pow2[j], 1, 1);
	sf_svg_printf(s, "<g class=\"errors\" clip-path=\"url(#%s)\">\n",
	              pn->clip);
	sf_svg_line(s, pn->x0, zero, pn->x1, zero, SF_CHART_AXIS,
	            "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"");
	sf_chart_points(s, pn, &p->fitted.inputs[i * p->fitted.n],
	                c->error_fitted, p->fitted.n, SF_CHART_MEASURED, 0);
	sf_chart_points(s, pn, &p->held.inputs[i * p->held.n], c->error_held,
	                p->held.n, SF_CHART_MEASURED, 1);
	sf_svg_printf(s, "</g>\n");
	sf_chart_frame(s, pn);
	sf_chart_y_title(s, pn, "error");
	if (strcmp(in->column, in->name) != 0)
		snprintf(title, sizeof title, "%.100s (%.100s)", in->name,
		         in->column);
	else
		snprintf(title, sizeof title, "%.200s", in->name);
	sf_svg_text(s, (pn->x0 + pn->x1) / 2, pn->y1 + 42,
	            "text-anchor=\"middle\"", title);
}

/* The texts: titles, axis titles, the legend's counts and MAPE. */
static void
chart_texts(const sf_fitplot *p, chart *c)
{
	const sf_fitfile *f = p->f;

	snprintf(c->title, sizeof c->title,
	         "%.100s: observed against predicted %.100s",
	         f->name[0] ? f->name : "fit", f->output);
	snprintf(c->subtitle, sizeof c->subtitle,
	         "below: each row's error (predicted / observed - 1) by input");
	snprintf(c->xlabel, sizeof c->xlabel, "predicted %.100s", f->output);
	snprintf(c->ylabel, sizeof c->ylabel, "observed %.100s", f->output);
	snprintf(c->fitted_label, sizeof c->fitted_label,
	         "fitted: %zu rows, MAPE %.3g%%", p->fitted.n, p->fitted.mape);
	snprintf(c->held_label, sizeof c->held_label,
	         "not fitted: %zu rows, MAPE %.3g%%", p->held.n, p->held.mape);
}

/* Each row's error into c (arrays allocated by the caller). */
static void
chart_errors(const sf_fitplot *p, chart *c)
{
	for (size_t k = 0; k < p->fitted.n; k++)
		c->error_fitted[k] = row_error(&p->fitted, k);
	for (size_t k = 0; k < p->held.n; k++)
		c->error_held[k] = row_error(&p->held, k);
}

/* The document of p's chart, laid out in c. */
static sf_svg *
chart_draw(const sf_fitplot *p, chart *c, double height)
{
	sf_chart_legend l;
	sf_svg *s = sf_chart_new(height, c->title, c->subtitle);

	if (s == NULL)
		return NULL;
	l = (sf_chart_legend){s, SF_CHART_LEFT, 78, 1};
	draw_legend(p, c, &l);
	sf_svg_printf(s, "<defs>\n");
	sf_chart_clip_path(s, &c->top);
	for (size_t j = 0; j < c->npanels; j++)
		sf_chart_clip_path(s, &c->panel[j]);
	sf_svg_printf(s, "</defs>\n");
	sf_chart_grid(s, &c->top, 0, 1, 0);
	draw_top(s, p, c);
	for (size_t j = 0; j < c->npanels; j++)
		draw_errors(s, p, c, j);
	return s;
}

int
sf_fitplot_draw(const sf_fitplot *p, sf_svg **out, sf_error *err)
{
	chart c;
	sf_chart_legend measure = {NULL, SF_CHART_LEFT, 78, 1};
	sf_axis ey;
	double height;
	sf_svg *s;

	*out = NULL;
	memset(&c, 0, sizeof c);
	chart_texts(p, &c);
	c.error_fitted = malloc((p->fitted.n + 1) * sizeof *c.error_fitted);
	c.error_held = malloc((p->held.n + 1) * sizeof *c.error_held);
	if (c.error_fitted == NULL || c.error_held == NULL) {
		free(c.error_fitted);
		free(c.error_held);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	chart_errors(p, &c);
	/* Measure the legend first: it decides where the panels go. */
	draw_legend(p, &c, &measure);
	c.top.x0 = SF_CHART_LEFT;
	c.top.x1 = SF_CHART_WIDTH - SF_CHART_RIGHT;
	c.top.y0 = measure.y + 16;
	c.top.y1 = c.top.y0 + TOP_HEIGHT;
	c.top.clip = "fit-panel";
	if (!time_axes(p, &c)) {
		free(c.error_fitted);
		free(c.error_held);
		return sf_error_set(err, SF_EVALUE, "no finite time to plot");
	}
	ey = error_axis(&c, p);
	place_panels(p, &c, c.top.y1 + UNDER, &ey, &height);
	s = chart_draw(p, &c, height - UNDER + 52);
	free(c.error_fitted);
	free(c.error_held);
	if (s == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return sf_chart_finish(s, out, err);
}
