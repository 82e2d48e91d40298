/*
 * plot.c (run/) - the pipeline of `scalefit plot`, and its text.
 */
#include "run/plot.h"
#include "base/escape.h"
#include "input/csv.h"
#include "use/text.h"

#include <math.h>
#include <stdlib.h>

void
sf_run_plot_result_free(sf_run_plot_result *r)
{
	if (r == NULL)
		return;
	sf_fitplot_free(r->plot);
	sf_fitfile_set_free(r->set);
	sf_svg_free(r->chart);
	sf_run_output_clear(&r->out);
	free(r);
}

/* One line of the text: the rows of a kind, their MAPE, the worst row's
 * error and inputs. */
static void
print_rows(FILE *out, const sf_fitfile *f, const char *kind,
           const sf_fitplot_rows *rows)
{
	size_t w = rows->worst;
	char mape[32];

	fprintf(out, "  %-11s %6zu row%s", kind, rows->n,
	        rows->n == 1 ? " " : "s");
	if (!isfinite(rows->mape) || w >= rows->n) {
		fprintf(out, "\n");
		return;
	}
	snprintf(mape, sizeof mape, "%.3g%%", rows->mape);
	fprintf(out, "  MAPE %-7s  largest miss %+.3g%% at ", mape,
	        100 * (rows->predicted[w] / rows->observed[w] - 1));
	for (size_t i = 0; i < f->ninputs; i++) {
		char cell[128];

		sf_text_input(f, i, rows->inputs[i * rows->n + w], cell,
		              sizeof cell);
		fprintf(out, "%s", i > 0 ? ", " : "");
		sf_escape_print(out, f->inputs[i].name, 0);
		fprintf(out, " = ");
		sf_escape_print(out, cell, 0);
	}
	fprintf(out, "\n");
}

/* The text: what the chart shows, and where it went. */
static int
print_plot(FILE *out, const void *arg)
{
	const sf_run_plot_result *r = arg;
	const sf_fitfile *f = r->plot->f;

	sf_escape_print(out, f->name[0] ? f->name : "fit", 0);
	fputs(": observed against predicted ", out);
	sf_escape_print(out, f->output, 0);
	fputs(", and each row's error by input\n", out);
	print_rows(out, f, "fitted", &r->plot->fitted);
	if (r->plot->held.n > 0)
		print_rows(out, f, "not fitted", &r->plot->held);
	return SF_OK;
}

/* The fit: a plain fit file's, or the group of a groups file that
 * s->group chooses. */
static int
load_fit(const sf_run_plot_settings *s, sf_run_plot_result *r, sf_error *err)
{
	int rc;

	if ((rc = sf_fitfile_load_groups(s->fit, s->group, &r->set, err)) !=
	    SF_OK)
		return rc;
	if (r->set->count > 1)
		return sf_run_request(err,
		                      "%s holds the fits of %zu groups%s: plot "
		                      "draws one; choose it with --group KEY "
		                      "(e.g. --group %s)",
		                      s->fit, r->set->count,
		                      s->group != NULL ? " that match --group"
		                                       : " (a --by fit)",
		                      r->set->labels[0]);
	sf_fitfile_warn(r->set->fits[0], s->warn, s->warn_ctx);
	return SF_OK;
}

int
sf_run_plot(const sf_run_plot_settings *s, sf_run_plot_result **out,
            sf_error *err)
{
	sf_run_plot_result *r = calloc(1, sizeof *r);
	sf_table *data = NULL;
	int rc;

	*out = NULL;
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = load_fit(s, r, err)) != SF_OK ||
	    (s->data != NULL &&
	     (rc = sf_table_load(s->data, NULL, &data, err)) != SF_OK) ||
	    (rc = sf_fitplot_new(r->set->fits[0], data, &r->plot, err)) !=
	        SF_OK ||
	    (rc = sf_fitplot_draw(r->plot, &r->chart, err)) != SF_OK ||
	    (s->output != NULL &&
	     (rc = sf_svg_save(r->chart, s->output, err)) != SF_OK) ||
	    (rc = sf_run_text(print_plot, r, &r->out.text, err)) != SF_OK) {
		sf_table_free(data);
		sf_run_plot_result_free(r);
		return rc;
	}
	sf_table_free(data);
	*out = r;
	return SF_OK;
}
