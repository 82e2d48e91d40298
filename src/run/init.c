/*
 * init.c (run/) - the model `scalefit init` writes, its whole steps
 * chosen by a fit (init.h).
 */
#include "run/init.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "input/problem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The AICc of the model text fitted on the rows of t it binds (one
 * thread, no restarts), or INFINITY when it does not fit. */
static double
aicc_of(const sf_table *t, const char *text)
{
	sf_model_set *set = NULL;
	sf_problem p = {0};
	sf_fit_options o;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	sf_error ignored;
	double aicc = INFINITY;

	sf_fit_options_init(&o);
	o.threads = 1;
	o.first_run_only = 1;
	if (sf_problem_open_written("init", "MODEL.yaml", text, t, &set, &p,
	                            &ignored) == SF_OK &&
	    sf_tune_fit(set->models[0], p.data, p.formula, &o, &r, &ignored) ==
	        SF_OK &&
	    sf_stats_compute(p.formula, p.data, r, &s, &ignored) == SF_OK &&
	    isfinite(s->aicc))
		aicc = s->aicc;
	sf_stats_free(s);
	sf_fit_result_free(r);
	sf_problem_close(&p);
	sf_model_set_free(set);
	return aicc;
}

int
sf_run_init_model(const sf_table *t, sf_scaffold *g, const char *name,
                  const char *data_file, char **text, sf_error *err)
{
	static const char *const said[SF_STEPS_RULES] = {
	    "with n / (p * b)", "rounded down", "rounded up"};
	double aicc[SF_STEPS_RULES];
	char note[256];
	int best = SF_STEPS_QUOTIENT, other, rc;

	g->steps_rounding = SF_STEPS_QUOTIENT;
	g->steps_note = NULL;
	if (!sf_scaffold_whole_steps(t, g))
		return sf_scaffold_write(t, g, name, data_file, text, err);
	for (int k = 0; k < SF_STEPS_RULES; k++) {
		char *written = NULL;

		g->steps_rounding = (sf_steps_rule)k;
		if ((rc = sf_scaffold_write(t, g, name, data_file, &written,
		                            err)) != SF_OK) {
			g->steps_rounding = SF_STEPS_QUOTIENT;
			return rc;
		}
		aicc[k] = aicc_of(t, written);
		free(written);
	}
	for (int k = SF_STEPS_FLOOR; k < SF_STEPS_RULES; k++)
		if (aicc[k] < aicc[SF_STEPS_QUOTIENT] - SF_AICC_NO_SUPPORT &&
		    (best == SF_STEPS_QUOTIENT || aicc[k] < aicc[best]))
			best = k;
	g->steps_rounding = (sf_steps_rule)best;
	if (best == SF_STEPS_QUOTIENT)
		snprintf(note, sizeof note,
		         "steps n / (p * b): whole steps fit the runs no "
		         "clearly better (AICc %.1f as written, %.1f rounded "
		         "down, %.1f rounded up)",
		         aicc[SF_STEPS_QUOTIENT], aicc[SF_STEPS_FLOOR],
		         aicc[SF_STEPS_CEIL]);
	else {
		/* the other rounding */
		other = best == SF_STEPS_FLOOR ? SF_STEPS_CEIL : SF_STEPS_FLOOR;
		snprintf(note, sizeof note,
		         "whole steps, %s: the runs' fit's AICc %.1f, against "
		         "%.1f %s and %.1f %s",
		         said[best], aicc[best], aicc[SF_STEPS_QUOTIENT],
		         said[SF_STEPS_QUOTIENT], aicc[other], said[other]);
	}
	g->steps_note = note;
	rc = sf_scaffold_write(t, g, name, data_file, text, err);
	g->steps_note = NULL;
	return rc;
}
