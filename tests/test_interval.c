/*
 * test_interval.c - prediction intervals (fit/interval.h): the distance
 * beyond the fitted range and the interval's formula against hand
 * computations, and calibration by simulation with fixed seeds: with the
 * right formula and a known noise level, 95% intervals cover 93-97% of
 * new measurements over 1000 simulated fits, inside the range and beyond
 * it; with a term missing, the model-error part widens the interval beyond
 * the range, where noise and parameters alone miss most new runs.
 */
#include "base/rng.h"
#include "fit/interval.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "input/csv.h"
#include "input/dataset.h"
#include "input/formula.h"
#include "input/model.h"
#include "testing.h"

#include <gsl/gsl_cdf.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
close_to(double x, double y, double rel)
{
	return fabs(x - y) <= rel * fabs(y);
}

/* The distance alone: the norm over inputs of sf_interval_doublings. */
static double
distance(size_t n, const double *lo, const double *hi,
         const unsigned char *numeric, const double *x)
{
	return sqrt(
	    sf_interval_beyond_at(NULL, n, lo, hi, numeric, x).distance2);
}

static void
test_distance(void)
{
	const double lo[] = {1, 2, -1, 0}, hi[] = {4, 64, 1, 0};
	const unsigned char numeric[] = {1, 1, 1, 0};
	double x[4] = {2, 16, 0, 5};

	/* inside every range */
	CU_ASSERT_EQUAL(distance(4, lo, hi, numeric, x), 0);
	/* p = 16 from [1, 4]: two doublings */
	x[0] = 16;
	CU_ASSERT_DOUBLE_EQUAL(distance(4, lo, hi, numeric, x), 2, 1e-15);
	/* and b = 1 below [2, 64]: one halving; the norm of (2, 1) */
	x[1] = 1;
	CU_ASSERT_DOUBLE_EQUAL(distance(4, lo, hi, numeric, x), sqrt(5), 1e-15);
	/* a range through zero is measured in widths: 2 = one width above */
	x[0] = 2;
	x[1] = 16;
	x[2] = 3;
	CU_ASSERT_DOUBLE_EQUAL(distance(4, lo, hi, numeric, x), 1, 1e-15);
	/* a text input (numeric 0) never counts, nor does NULL numeric
	 * skip numeric ones */
	x[2] = 0;
	x[3] = 7;
	CU_ASSERT_EQUAL(distance(4, lo, hi, numeric, x), 0);
	CU_ASSERT_DOUBLE_EQUAL(distance(3, lo, hi, NULL, x), 0, 0);
	/* a range that is not finite never counts */
	CU_ASSERT_EQUAL(sf_interval_doublings(NAN, 4, 16), 0);
}

/* im with the model error (bias, growth, dof) along every input. */
static void
set_error(sf_interval_model *im, double bias, double growth, double dof)
{
	for (size_t j = 0; j <= SF_INTERVAL_INPUTS; j++) {
		im->along[j].bias = bias;
		im->along[j].growth = growth;
		im->along[j].growth_dof = dof;
		im->along[j].trend = im->along[j].trend_var = 0;
		im->along[j].trend_cov = 0; /* no slope carried */
	}
}

/* D doublings beyond along input 0 of im. */
static sf_interval_beyond
out_by(const sf_interval_model *im, double D)
{
	sf_interval_beyond b = {0, 0, 0, 0, 0, 0, 0};

	sf_interval_beyond_add(im, 0, D, &b);
	return b;
}

static void
test_interval_at(void)
{
	sf_interval_model im;
	sf_interval_beyond b;
	double lo, hi, s;

	memset(&im, 0, sizeof im);
	im.multiplicative = 1;
	im.sigma = 0.05;
	im.t = 2;
	set_error(&im, 0, 0.1, 0);
	/* f = 100, mean variance 4 (2% of f), two doublings out: s^2 =
	 * 0.05^2 + 0.02^2 + 0.2^2 */
	s = sqrt(0.0025 + 0.0004 + 0.04);
	b = out_by(&im, 2);
	sf_interval_at(&im, 100, 4, &b, &lo, &hi);
	CU_ASSERT(close_to(lo, 100 * exp(-2 * s), 1e-14));
	CU_ASSERT(close_to(hi, 100 * exp(2 * s), 1e-14));
	/* unknown growth and mean variance count as 0 */
	set_error(&im, 0, NAN, 0);
	b = out_by(&im, 5);
	sf_interval_at(&im, 100, NAN, &b, &lo, &hi);
	CU_ASSERT(close_to(hi, 100 * exp(0.1), 1e-14));
	/* additive: f +- t sqrt(s^2 + v + (c D f)^2) */
	im.multiplicative = 0;
	im.sigma = 3;
	set_error(&im, 0, 0.1, 0);
	b = out_by(&im, 1);
	sf_interval_at(&im, 50, 16, &b, &lo, &hi);
	CU_ASSERT(close_to(hi - 50, 2 * sqrt(9 + 16 + 25), 1e-14));
	CU_ASSERT(close_to(50 - lo, 2 * sqrt(9 + 16 + 25), 1e-14));
	b = out_by(&im, 0);
	sf_interval_at(&im, INFINITY, 0, &b, &lo, &hi);
	CU_ASSERT(isnan(lo) && isnan(hi));
	/* the model part as a t with growth_dof degrees of freedom and a
	 * bias: centre ln 100 + 0.05 D, quantile at Welch-Satterthwaite's
	 * degrees of freedom (A = (0.1 D)^2 with 4, B = 0.05^2 with 9) */
	im.multiplicative = 1;
	im.sigma = 0.05;
	im.t = 2.2621571627409915; /* t(0.975, 9) */
	im.dof = 9;
	set_error(&im, 0.05, 0.1, 4);
	{
		double A = 0.04, B = 0.0025;
		double dof = (A + B) * (A + B) / (A * A / 4 + B * B / 9);
		double q = gsl_cdf_tdist_Pinv(0.975, dof) * sqrt(A + B);

		b = out_by(&im, 2);
		sf_interval_at(&im, 100, 0, &b, &lo, &hi);
		CU_ASSERT(close_to(lo, 100 * exp(0.1 - q), 1e-12));
		CU_ASSERT(close_to(hi, 100 * exp(0.1 + q), 1e-12));
	}
	/* each input its own error: 2 doublings along input 0 (0.1 per
	 * doubling, dof 4) and 1 along input 1 (0.3, bias -0.1, dof 6):
	 * variance and centre add, the dof by Welch-Satterthwaite over the
	 * three parts */
	im.ninputs = 2;
	im.along[1].bias = -0.1;
	im.along[1].growth = 0.3;
	im.along[1].growth_dof = 6;
	{
		double A0 = 0.04, A1 = 0.09, B = 0.0025, A = A0 + A1;
		double dof =
		    (A + B) * (A + B) / (A0 * A0 / 4 + A1 * A1 / 6 + B * B / 9);
		double q = gsl_cdf_tdist_Pinv(0.975, dof) * sqrt(A + B);

		b = out_by(&im, 2);
		sf_interval_beyond_add(&im, 1, 1, &b);
		CU_ASSERT_DOUBLE_EQUAL(b.distance2, 5, 1e-15);
		sf_interval_at(&im, 100, 0, &b, &lo, &hi);
		CU_ASSERT(close_to(lo, 100 * exp(0.1 - 0.1 - q), 1e-12));
		CU_ASSERT(close_to(hi, 100 * exp(0.1 - 0.1 + q), 1e-12));
	}
	/* inside the range neither: the fit's own t */
	b = out_by(&im, 0);
	sf_interval_at(&im, 100, 0, &b, &lo, &hi);
	CU_ASSERT(close_to(hi, 100 * exp(im.t * 0.05), 1e-14));
	/* below the range the prior alone (scale s0 = 0.2, 40 dof; the
	 * chain's bias 0.05 and growth 0.1 are of the way up), the pooled
	 * noise; without the prior's scale (an older fit file), the
	 * posterior as above the range */
	im.prior_scale = 0.2;
	im.prior.dof = 40;
	b = out_by(&im, -2);
	CU_ASSERT_DOUBLE_EQUAL(b.distance2, 4, 1e-15);
	CU_ASSERT_EQUAL(b.shift, 0);
	CU_ASSERT_DOUBLE_EQUAL(b.var, 0.16, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(b.var_over_dof, 0.16 * 0.16 / 40, 1e-15);
	CU_ASSERT_EQUAL(b.noise, 0);
	im.prior_scale = 0;
	b = out_by(&im, -2);
	CU_ASSERT_DOUBLE_EQUAL(b.shift, 0.1, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(b.var, 0.04, 1e-15);
	/* a line's slope carried: the error per doubling mu + gamma t over
	 * the d = 2 doublings above, mu d + gamma d^2 / 2, its variance (s
	 * d)^2 + var(gamma) d^4 / 4 + cov(mu, gamma) d^3, and that variance's
	 * square over the dof; below the range never, with the prior's scale
	 * or without it */
	im.along[0].trend = 0.03;
	im.along[0].trend_var = 0.0004;
	im.along[0].trend_cov = -0.001;
	{
		const double v = 0.04 + 0.0004 * 16 / 4 - 0.001 * 8;

		b = out_by(&im, 2);
		CU_ASSERT_DOUBLE_EQUAL(b.shift, 0.05 * 2 + 0.03 * 4 / 2, 1e-15);
		CU_ASSERT_DOUBLE_EQUAL(b.var, v, 1e-15);
		CU_ASSERT_DOUBLE_EQUAL(b.var_over_dof, v * v / 4, 1e-15);
	}
	b = out_by(&im, -2);
	CU_ASSERT_DOUBLE_EQUAL(b.shift, 0.1, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(b.var, 0.04, 1e-15);
	im.prior_scale = 0.2;
	b = out_by(&im, -2);
	CU_ASSERT_EQUAL(b.shift, 0);
	CU_ASSERT_DOUBLE_EQUAL(b.var, 0.16, 1e-15);
	/* seen from 2 doublings up, the same line: the error at 1 doubling
	 * beyond the new top is the old one at 3 less that at 2 (centre and,
	 * the growth's scatter part aside, variance) */
	{
		sf_interval_along a = im.along[0];
		const sf_interval_beyond at2 = out_by(&im, 2),
		                         at3 = out_by(&im, 3);

		sf_interval_along_moved(&a, 2);
		im.along[0] = a;
		b = out_by(&im, 1);
		CU_ASSERT_DOUBLE_EQUAL(b.shift, at3.shift - at2.shift, 1e-15);
		CU_ASSERT_DOUBLE_EQUAL(a.bias, 0.05 + 0.03 * 2, 1e-15);
		CU_ASSERT_DOUBLE_EQUAL(a.growth * a.growth,
		                       0.01 + 4 * 0.0004 - 4 * 0.001, 1e-15);
		CU_ASSERT_DOUBLE_EQUAL(a.trend_cov, -0.001 + 2 * 0.0004, 1e-15);
		a.trend_var = 0; /* no slope carried: nothing moves */
		sf_interval_along_moved(&a, 2);
		CU_ASSERT_DOUBLE_EQUAL(a.bias, 0.05 + 0.03 * 2, 1e-15);
	}
}

/* The simulated experiment: p = 1, 2, 3, 4, 6, 8, three runs each. */
static const double sim_p[] = {1, 2, 3, 4, 6, 8};
enum { SIM_LEVELS = 6, SIM_REPS = 3, SIM_FITS = 1000 };
#define SIM_SIGMA 0.05

/* The truth: a + b / p + c p, a = 10, b = 100, c as given; c < 0 is
 * instead contention that sets in above p = 4, |c| (p - 4)^2 (a regime
 * change inside the measured range). */
static double
truth(double p, double c)
{
	if (c < 0)
		return 10 + 100 / p - c * (p > 4 ? (p - 4) * (p - 4) : 0);
	return 10 + 100 / p + c * p;
}

typedef struct sim {
	sf_model_set *set;
	sf_table *table;
	sf_dataset *data;
	sf_formula *formula;
} sim;

static void
sim_free(sim *s)
{
	sf_formula_free(s->formula);
	sf_dataset_free(s->data);
	sf_table_free(s->table);
	sf_model_set_free(s->set);
	memset(s, 0, sizeof *s);
}

/* The model yaml bound to the CSV text csv (len bytes) and compiled into
 * *s.  Returns 0, or -1 (s freed) saying why. */
static int
sim_parse(sim *s, const char *yaml, const char *csv, size_t len)
{
	sf_csv_options opt;
	sf_error err;

	sf_csv_options_init(&opt);
	if (sf_model_parse("sim.yaml", yaml, strlen(yaml), &s->set, NULL, NULL,
	                   &err) != SF_OK ||
	    sf_table_parse(csv, len, "sim.csv", &opt, &s->table, &err) !=
	        SF_OK ||
	    sf_dataset_bind(s->set->models[0], s->table, 1, &s->data, NULL,
	                    NULL, &err) != SF_OK ||
	    sf_formula_compile(s->set->models[0], s->data, &s->formula, NULL,
	                       NULL, &err) != SF_OK) {
		fprintf(stderr, "sim: %s\n", err.message);
		sim_free(s);
		return -1;
	}
	return 0;
}

/* s's model fitted (one thread) into *r, its statistics into *st and its
 * error model into *im.  Returns 0, or -1 (the caller frees *r and *st,
 * which may be NULL). */
static int
sim_calibrate(const sim *s, sf_fit_result **r, sf_stats **st,
              sf_interval_model *im)
{
	sf_fit_options o;
	sf_error err;

	*r = NULL;
	*st = NULL;
	sf_fit_options_init(&o);
	o.threads = 1;
	if (sf_tune_fit(s->set->models[0], s->data, s->formula, &o, r, &err) ==
	        SF_OK &&
	    sf_stats_compute(s->formula, s->data, *r, st, &err) == SF_OK &&
	    sf_interval_calibrate(s->set->models[0], s->data, s->formula, &o,
	                          *r, *st, NULL, im, &err) == SF_OK)
		return 0;
	return -1;
}

/* s's error model into *im (sim_calibrate), s freed.  Returns 0 or -1. */
static int
sim_error_model(sim *s, sf_interval_model *im)
{
	sf_fit_result *r;
	sf_stats *st;
	int rc = sim_calibrate(s, &r, &st, im);

	sf_stats_free(st);
	sf_fit_result_free(r);
	sim_free(s);
	return rc;
}

/* The model of the simulations: a + b / p, the right formula when the
 * truth's c is 0. */
static const char sim_model[] = "name: sim\n"
                                "data: {file: sim.csv, output: y}\n"
                                "inputs: {p: p}\n"
                                "parameters:\n"
                                "  a: {min: 0, max: 1000}\n"
                                "  b: {min: 0, max: 10000}\n"
                                "time: a + b / p\n";

/* One simulated dataset from the truth with multiplicative noise, and the
 * model a + b / p bound to it. */
static int
sim_open(sim *s, sf_rng *rng, double c)
{
	char csv[4096];
	size_t len = 0;

	memset(s, 0, sizeof *s);
	len += (size_t)snprintf(csv + len, sizeof csv - len, "p,y\n");
	for (size_t l = 0; l < SIM_LEVELS; l++)
		for (size_t r = 0; r < SIM_REPS; r++)
			len += (size_t)snprintf(
			    csv + len, sizeof csv - len, "%g,%.17g\n", sim_p[l],
			    truth(sim_p[l], c) *
			        exp(sf_rng_normal(rng, 0, SIM_SIGMA)));
	return sim_parse(s, sim_model, csv, len);
}

/*
 * The posterior along input j of im's cuts weighed as scattering w s0
 * about their line (interval.h), by hand, another way than interval.c
 * takes: the line by weighted least squares with the ridge, its level
 * then shrunk by the bias's prior (the marginal), and its slope
 * conditioned on that level.  The model error's bias, growth and, when
 * line (the chain drawn as a line of its own), its climb.
 */
static sf_interval_along
hand_posterior(const sf_interval_model *im, size_t j, double w, int line)
{
	const double c2 = im->prior_scale * im->prior_scale;
	const double prior_var = c2 / im->prior.bias_weight;
	double S0 = 0, S1 = 0, S2 = 1 / c2, T0 = 0, T1 = 0, ss = 0, E = 0;
	double det, a, b, var_a, var_mu, lean;
	sf_interval_along out = {0};

	for (size_t i = 0; i < im->chain_cuts && i < SF_INTERVAL_CUTS_KEPT;
	     i++) {
		const sf_interval_cut *k = &im->cuts[i];
		const double u = 1 / (k->noise + w * w * c2);

		if (k->input != j)
			continue;
		S0 += u, S1 += u * k->below, S2 += u * k->below * k->below;
		T0 += u * k->slope, T1 += u * k->slope * k->below;
		E += 1;
	}
	det = S0 * S2 - S1 * S1;
	CU_ASSERT_FATAL(det > 0);
	a = (T0 * S2 - T1 * S1) / det;
	b = (S0 * T1 - S1 * T0) / det;
	var_a = S2 / det;
	for (size_t i = 0; i < im->chain_cuts && i < SF_INTERVAL_CUTS_KEPT;
	     i++) {
		const sf_interval_cut *k = &im->cuts[i];
		const double r = k->slope - (a + b * k->below);

		if (k->input == j && r * r > k->noise)
			ss += r * r - k->noise;
	}
	out.bias = a * prior_var / (prior_var + var_a);
	var_mu = prior_var * var_a / (prior_var + var_a);
	out.growth =
	    sqrt((im->prior.dof * c2 + ss) / (im->prior.dof + E) + var_mu);
	if (line) {
		/* b given the level: b + lean (level - a), lean = cov(a, b) /
		 * var(a) = -S1 / S2 */
		lean = -S1 / S2;
		out.trend = -(b + lean * (out.bias - a));
		out.trend_var =
		    S0 / det - lean * lean * var_a + lean * lean * var_mu;
		out.trend_cov = -lean * var_mu;
	}
	return out;
}

/* Coverage counts of one simulated fit's intervals at p = 4 (inside) and
 * p = 16 (a doubling beyond the fitted 1-8), each checked on one new run. */
typedef struct coverage {
	size_t fits, inside, beyond, beyond_noise_only, regimes;
	double growth_sum, prior_scale_sum, width_beyond, width_noise_only;
	/* the line's slope carried (0 for a chain of fewer than
	 * SF_INTERVAL_TREND_CUTS cuts) and its t statistic, summed */
	double trend_sum, trend_t_sum;
	/* beyond, the fits without a regime only, with the model error as
	 * the chain's line gives it and as the prior's scatter would */
	size_t calm, calm_beyond, calm_beyond_prior;
	double calm_bias, calm_bias_prior;
} coverage;

static void
simulate(double c, uint64_t seed, coverage *cov)
{
	sf_rng rng;

	memset(cov, 0, sizeof *cov);
	sf_rng_seed(&rng, seed, 7);
	for (size_t k = 0; k < SIM_FITS; k++) {
		sf_fit_result *r;
		sf_stats *st;
		sf_interval_model im;
		sf_interval_beyond at;
		sim s;
		double lo, hi, y, v[2], g[2];

		if (sim_open(&s, &rng, c) != 0) {
			CU_FAIL("simulated data did not load");
			return;
		}
		if (sim_calibrate(&s, &r, &st, &im) != 0) {
			CU_FAIL("a simulated fit failed");
			sf_stats_free(st);
			sf_fit_result_free(r);
			sim_free(&s);
			return;
		}
		cov->fits++;
		cov->regimes += im.regime;
		cov->growth_sum += im.along[0].growth;
		cov->trend_sum += im.along[0].trend;
		if (im.along[0].trend_var > 0)
			cov->trend_t_sum +=
			    im.along[0].trend / sqrt(im.along[0].trend_var);
		cov->prior_scale_sum += im.prior_scale;
		/* the fitted mean's variance at p: g = (1, 1/p) */
		for (size_t q = 0; q < 2; q++) {
			double p = q == 0 ? 4 : 16;

			g[0] = 1;
			g[1] = 1 / p;
			v[q] = 0;
			for (size_t a = 0; a < 2; a++)
				for (size_t b = 0; b < 2; b++)
					if (!isnan(st->cov[a * 2 + a]) &&
					    !isnan(st->cov[b * 2 + b]))
						v[q] += g[a] *
						        st->cov[a * 2 + b] *
						        g[b];
		}
		at = out_by(&im, 0);
		sf_interval_at(&im, r->theta[0] + r->theta[1] / 4, v[0], &at,
		               &lo, &hi);
		y = truth(4, c) * exp(sf_rng_normal(&rng, 0, SIM_SIGMA));
		cov->inside += lo <= y && y <= hi;
		at = out_by(&im, 1);
		sf_interval_at(&im, r->theta[0] + r->theta[1] / 16, v[1], &at,
		               &lo, &hi);
		y = truth(16, c) * exp(sf_rng_normal(&rng, 0, SIM_SIGMA));
		cov->beyond += lo <= y && y <= hi;
		cov->width_beyond += log(hi / lo);
		if (!im.regime && !im.pace_widened) {
			sf_interval_model at_s0 = im;
			const sf_interval_along h =
			    hand_posterior(&im, 0, 1, 0);

			/* the chain at s0: no line, so no slope carried */
			at_s0.along[0].bias = h.bias;
			at_s0.along[0].growth = h.growth;
			at_s0.along[0].trend = at_s0.along[0].trend_var = 0;
			at_s0.along[0].trend_cov = 0;
			cov->calm++;
			cov->calm_beyond += lo <= y && y <= hi;
			cov->calm_bias += im.along[0].bias;
			cov->calm_bias_prior += at_s0.along[0].bias;
			at = out_by(&at_s0, 1);
			sf_interval_at(&at_s0, r->theta[0] + r->theta[1] / 16,
			               v[1], &at, &lo, &hi);
			cov->calm_beyond_prior += lo <= y && y <= hi;
		}
		set_error(&im, 0, NAN, 0);
		at = out_by(&im, 1);
		sf_interval_at(&im, r->theta[0] + r->theta[1] / 16, v[1], &at,
		               &lo, &hi);
		cov->beyond_noise_only += lo <= y && y <= hi;
		cov->width_noise_only += log(hi / lo);
		sf_stats_free(st);
		sf_fit_result_free(r);
		sim_free(&s);
	}
}

/* The right formula: coverage near 95% inside the range and beyond it. */
static void
test_calibrated(void)
{
	coverage cov;
	double inside, beyond;

	simulate(0, 20261123, &cov);
	CU_ASSERT_EQUAL_FATAL(cov.fits, SIM_FITS);
	inside = 100.0 * (double)cov.inside / (double)cov.fits;
	beyond = 100.0 * (double)cov.beyond / (double)cov.fits;
	printf("\n    right formula: coverage %.1f%% inside, %.1f%% a "
	       "doubling beyond; mean growth %.4f; regime warnings %zu; mean "
	       "slope carried %+.4f (t %+.2f)\n",
	       inside, beyond, cov.growth_sum / (double)cov.fits, cov.regimes,
	       cov.trend_sum / (double)cov.fits,
	       cov.trend_t_sum / (double)cov.fits);
	CU_ASSERT(inside >= 93 && inside <= 97);
	/* a right formula's top cut rarely looks like a change: the check
	 * is one-sided at 95% against the model error's spread, which the
	 * prior keeps wider than the noise of a cut (measured: 15 of 1000;
	 * 4 at twice the spread) */
	CU_ASSERT(cov.regimes <= SIM_FITS / 50);
	/* Beyond the range a right formula's interval is conservative on
	 * purpose: the corpus prior says fitted formulas miss by some 7-12%
	 * per doubling even where their chain looked clean (interval.h), and
	 * four clean cuts shrink that, not away.  What bounds it from above
	 * is the width: clean cuts keep the growth near the prior's scale
	 * at the fit's noise, never inflate it. */
	CU_ASSERT(beyond >= 93);
	CU_ASSERT(cov.growth_sum <= 1.25 * cov.prior_scale_sum);
	/* a right formula's chain leans neither way: the slope carried
	 * beyond is centred on 0 (measured -0.0021, t -0.04; carried only
	 * when it climbed, it was +0.0235) */
	CU_ASSERT(fabs(cov.trend_sum) < 0.005 * (double)cov.fits);
	CU_ASSERT(fabs(cov.trend_t_sum) < 0.2 * (double)cov.fits);
}

/* A missing term (c p): beyond the range the formula is biased; the model
 * error widens the interval, where the noise alone misses. */
static void
test_missing_term(void)
{
	coverage cov;
	double beyond, noise_only;

	simulate(0.5, 77, &cov);
	CU_ASSERT_EQUAL_FATAL(cov.fits, SIM_FITS);
	beyond = 100.0 * (double)cov.beyond / (double)cov.fits;
	noise_only = 100.0 * (double)cov.beyond_noise_only / (double)cov.fits;
	printf("\n    missing term: coverage %.1f%% a doubling beyond "
	       "(noise and parameters alone: %.1f%%); mean growth %.4f, "
	       "widths %.3f vs %.3f; regime warnings %zu\n",
	       beyond, noise_only, cov.growth_sum / (double)cov.fits,
	       cov.width_beyond / (double)cov.fits,
	       cov.width_noise_only / (double)cov.fits, cov.regimes);
	/* Wider, and covering most new runs where noise and parameters
	 * alone miss most: the chain's errors grow toward its top cuts, and
	 * their trend carries the interval's centre and spread beyond. */
	CU_ASSERT(cov.width_beyond > 1.25 * cov.width_noise_only);
	CU_ASSERT(noise_only < 25);
	CU_ASSERT(beyond >= 85);
	CU_ASSERT(beyond > 2 * noise_only);
}

/*
 * Contention that sets in late and mild (0.05 (p - 4)^2 above p = 4: the
 * runs at 6 and 8 workers 1-4% slower than a + b / p, at 16 44%): the
 * regime check rarely fires, but the chain's cuts miss more the nearer
 * the top they end.  Weighed as scattering about their own line (four
 * cuts), that trend carries the interval's centre up at the top and its
 * slope on beyond it; weighed as scattering the prior's scale, it was
 * shrunk away and no line carried.  Paired on the same fits, those
 * without a regime or pace widening.
 */
static void
test_late_contention(void)
{
	coverage cov;
	double line, at_s0;

	simulate(-0.05, 4242, &cov);
	CU_ASSERT_EQUAL_FATAL(cov.fits, SIM_FITS);
	CU_ASSERT_FATAL(cov.calm >= SIM_FITS / 2);
	line = 100.0 * (double)cov.calm_beyond / (double)cov.calm;
	at_s0 = 100.0 * (double)cov.calm_beyond_prior / (double)cov.calm;
	printf("\n    late contention: %zu fits without a regime or pace "
	       "widening: coverage "
	       "%.1f%% a doubling beyond with the chain's line (mean bias "
	       "%+.4f), %.1f%% with the prior's scatter (%+.4f); all fits "
	       "%.1f%%, regime warnings %zu\n",
	       cov.calm, line, cov.calm_bias / (double)cov.calm, at_s0,
	       cov.calm_bias_prior / (double)cov.calm,
	       100.0 * (double)cov.beyond / (double)cov.fits, cov.regimes);
	/* measured: 36.5% against 26.3% (mean bias +0.0102 against
	 * +0.0048); 29.8% with the line's level at the top but its slope
	 * not carried beyond it.  Still far from 95%, as the contention at
	 * 16 is mostly beyond what 1-8 show (bench/contention.py) */
	CU_ASSERT(cov.calm_bias - cov.calm_bias_prior >
	          0.003 * (double)cov.calm);
	CU_ASSERT(line >= at_s0 + 7);
}

/* The error model *im of the model a + b / p fitted to one simulated
 * dataset (truth(p, c), rng stream seq), with the formulas' disagreement
 * g and the model file's formula's regime R in its fit.prior (< 0:
 * none).  Returns 0, or -1 after a test failure. */
static int
one_error_model(double c, uint64_t seq, double g, double R,
                sf_interval_model *im)
{
	sf_rng rng;
	sim s;

	sf_rng_seed(&rng, 20261127, seq);
	if (sim_open(&s, &rng, c) != 0)
		return -1;
	s.set->models[0]->fit.prior_disagreement = g;
	s.set->models[0]->fit.prior_regime = R;
	return sim_error_model(&s, im);
}

/*
 * The growth is never zero: a well-fitting formula whose chain predicts
 * its larger levels well (the right formula, four cuts along p) still
 * reports the model error the corpus prior says such formulas have,
 * shrunk by its evidence, not removed (issue: a lucky chain).
 */
static void
test_never_zero(void)
{
	sf_interval_model im;
	const sf_interval_prior p = sf_interval_prior_default();

	CU_ASSERT_EQUAL_FATAL(one_error_model(0, 7, -1, -1, &im), 0);
	CU_ASSERT(im.chain_cuts >= 3);
	/* the prior's scale at this fit's noise (interval.h) */
	CU_ASSERT_DOUBLE_EQUAL(
	    im.prior_scale,
	    sqrt(p.scale * p.scale + pow(p.noise_weight * im.sigma, 2)), 1e-12);
	CU_ASSERT(im.sigma > 0.01 && im.prior_scale > p.scale);
	CU_ASSERT(im.along[0].growth >=
	          im.prior_scale *
	              sqrt(p.dof / (p.dof + (double)im.chain_cuts)));
	CU_ASSERT(im.along[0].growth_dof > p.dof);
	CU_ASSERT_EQUAL(im.along[0].evidence, (double)im.chain_cuts);
}

/*
 * A known disagreement (fit.prior.disagreement, as discover writes it):
 * the prior's scale becomes sqrt(a'^2 + (r sigma)^2 + (q G)^2), so
 * formulas that agree (G = 0) leave a narrower interval beyond the range
 * than an unknown disagreement, and formulas that part by 30% per
 * doubling a wider one; inside the range all three are the noise's, and
 * the ensemble's weight (which compares formulas of one dataset) does not
 * move.
 */
static void
test_disagreement(void)
{
	const sf_interval_prior p = sf_interval_prior_default();
	const double g[3] = {-1, 0, 0.3};
	sf_interval_model im[3];
	double beyond[3], inside[3], noise2;

	for (size_t k = 0; k < 3; k++) {
		sf_interval_beyond b;
		double lo, hi;

		CU_ASSERT_EQUAL_FATAL(one_error_model(0, 7, g[k], -1, &im[k]),
		                      0);
		b = out_by(&im[k], 2);
		sf_interval_at(&im[k], 100, 0, &b, &lo, &hi);
		beyond[k] = log(hi / lo);
		b = out_by(&im[k], 0);
		sf_interval_at(&im[k], 100, 0, &b, &lo, &hi);
		inside[k] = log(hi / lo);
	}
	noise2 = pow(p.noise_weight * im[0].sigma, 2);
	CU_ASSERT(isnan(im[0].disagreement));
	CU_ASSERT_EQUAL(im[2].disagreement, 0.3);
	CU_ASSERT_DOUBLE_EQUAL(im[0].prior_scale,
	                       sqrt(p.scale * p.scale + noise2), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(im[1].prior_scale,
	                       sqrt(p.agreed_scale * p.agreed_scale + noise2),
	                       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(im[2].prior_scale,
	                       sqrt(p.agreed_scale * p.agreed_scale + noise2 +
	                            pow(p.disagreement_weight * 0.3, 2)),
	                       1e-12);
	CU_ASSERT(beyond[1] < beyond[0] && beyond[0] < beyond[2]);
	CU_ASSERT(im[1].along[0].growth < im[0].along[0].growth);
	CU_ASSERT(im[2].along[0].growth > im[0].along[0].growth);
	CU_ASSERT_DOUBLE_EQUAL(inside[1], inside[0], 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(inside[2], inside[0], 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(im[2].weight, im[0].weight, 1e-12);
}

/*
 * A regime change: the formula fits p <= 4, and contention sets in at 6
 * and 8.  The top cut (fit p <= 6, predict 8) misses on the slow side by
 * far more than the other cuts, so the report warns, and the interval is
 * wide on purpose: the model error's centre and spread reach the top
 * cut's error per doubling.
 */
static void
test_regime(void)
{
	sf_interval_model im;
	double top = NAN, upto = 0;

	CU_ASSERT_EQUAL_FATAL(one_error_model(-1, 9, -1, -1, &im), 0);
	for (size_t i = 0; i < im.chain_cuts && i < SF_INTERVAL_CUTS_KEPT; i++)
		if (im.cuts[i].upto > upto) {
			upto = im.cuts[i].upto;
			top = im.cuts[i].slope;
		}
	CU_ASSERT_EQUAL(im.regime, 1);
	CU_ASSERT_EQUAL(im.regime_input, 0);
	CU_ASSERT(upto == 6 && top > 0.3);
	/* the centre half way to the top cut's error, within one spread */
	CU_ASSERT(im.along[0].bias > 0 && im.along[0].bias < top);
	CU_ASSERT(im.along[0].growth >= top - im.along[0].bias);
	/* the top levels slowed down (contention) while the formula keeps
	 * speeding up: the pace check holds the measured pace too */
	CU_ASSERT(im.pace_checked && im.pace_input == 0 && im.pace_widened);
	CU_ASSERT(im.pace_measured > 1 && im.pace_beyond < 1);
	/* the formula misses the top level (p = 8): its residuals there make
	 * a new run's noise above the range larger than the pooled one */
	CU_ASSERT(im.along[0].noise > im.sigma);
	/* the averaging weight is the chain's evidence, not widened */
	CU_ASSERT(im.weight > 1 / (im.along[0].bias * im.along[0].bias +
	                           im.along[0].growth * im.along[0].growth));
}

/* Whole runs of n samples in steps of 16 per worker, max(1, floor(n /
 * (16 p))) of them, each 0.01 + 0.032 + 0.03 (p - 1) / p s long (0.2%
 * noise), fitted by a formula whose steps are the model's: the error model
 * into *im. */
static int
whole_steps_model(const char *steps, sf_interval_model *im)
{
	char yaml[512], csv[8192];
	size_t len = 0;
	sf_rng rng;
	sim s;

	snprintf(yaml, sizeof yaml,
	         "name: steps\n"
	         "data: {file: sim.csv, output: y}\n"
	         "inputs: {p: p, n: n}\n"
	         "parameters:\n"
	         "  a: {min: 0, max: 1}\n"
	         "  w: {min: 0, max: 1}\n"
	         "terms: {steps: \"%s\"}\n"
	         "time: steps * (a + w * (p - 1) / p)\n",
	         steps);
	sf_rng_seed(&rng, 20261128, 7);
	len += (size_t)snprintf(csv + len, sizeof csv - len, "p,n,y\n");
	for (int p = 1; p <= 8; p++)
		for (int n = 128; n <= 512; n *= 2)
			for (int k = 0; k < 2; k++) {
				double whole = floor(n / (16.0 * p));

				len += (size_t)snprintf(
				    csv + len, sizeof csv - len,
				    "%d,%d,%.17g\n", p, n,
				    (whole > 1 ? whole : 1) *
				        (0.042 + 0.03 * (p - 1) / p) *
				        exp(sf_rng_normal(&rng, 0, 0.002)));
			}
	if (sim_parse(&s, yaml, csv, len) != 0)
		return -1;
	return sim_error_model(&s, im);
}

/*
 * The pace check and whole steps.  At the top level's median-time row (8
 * workers, 256 samples: 2 steps, as at 7) the measured time hardly moves
 * from 7 workers, and at 16 a run takes 1 step: a formula with the
 * rounded steps falls by half beyond the range, faster than the measured
 * pace, but gives that pace between the measured rows itself - not the
 * smooth formula the convexity argument is about, so nothing is widened.
 * The same rows with n / (16 p) steps: that formula misses the measured
 * pace between the rows too, and is widened.
 */
static void
test_pace_whole_steps(void)
{
	sf_interval_model whole, smooth;

	CU_ASSERT_EQUAL_FATAL(
	    whole_steps_model("max(1, floor(n / (16 * p)))", &whole), 0);
	CU_ASSERT_EQUAL_FATAL(whole_steps_model("n / (16 * p)", &smooth), 0);
	CU_ASSERT_FATAL(whole.pace_checked && whole.pace_input == 0);
	CU_ASSERT(whole.pace_beyond <
	          whole.pace_measured - SF_INTERVAL_PACE_SLACK);
	CU_ASSERT(!whole.pace_widened);
	CU_ASSERT_FATAL(smooth.pace_checked && smooth.pace_input == 0);
	CU_ASSERT(smooth.pace_widened);
}

/*
 * The model file's formula's regime (fit.prior.regime, as discover writes
 * it): a formula whose own chain sees no change widens toward it, as for
 * its own regime - the model error's centre half way from the posterior
 * with its cuts weighed as scattering s0 (a chain of 3 or more cuts is
 * otherwise weighed as its own line's), its variance plus the square of
 * that half (the mixture's) - and says it was the file's;
 * inside the range and in the ensemble's weight nothing moves.  A
 * formula whose own top cut missed by more keeps its own.
 */
static void
test_regime_carried(void)
{
	const double R = 0.3;
	sf_interval_model own, carried, below, steep;
	sf_interval_beyond b;
	sf_interval_along hand;
	double half, lo[2], hi[2];

	CU_ASSERT_EQUAL_FATAL(one_error_model(0, 7, -1, -1, &own), 0);
	CU_ASSERT_EQUAL_FATAL(one_error_model(0, 7, -1, R, &carried), 0);
	CU_ASSERT_EQUAL(own.regime, 0);
	CU_ASSERT(isnan(own.regime_prior));
	CU_ASSERT_EQUAL(carried.regime_prior, R);
	CU_ASSERT_EQUAL(carried.regime, 1);
	CU_ASSERT_EQUAL(carried.regime_carried, 1);
	CU_ASSERT_EQUAL(carried.regime_input, 0);
	CU_ASSERT_EQUAL(carried.regime_slope, R);
	/* the right formula: the pace check, which widened both on this
	 * seed's noise before it weighed the measured pace against that
	 * noise, is quiet; own's model error widened toward R */
	CU_ASSERT_FATAL(!own.pace_widened && !carried.pace_widened);
	CU_ASSERT_FATAL(own.chain_cuts <= SF_INTERVAL_CUTS_KEPT);
	/* own's chain (4 cuts) weighed as its line, by hand */
	hand = hand_posterior(&own, 0, SF_INTERVAL_CUT_SCATTER, 1);
	CU_ASSERT_DOUBLE_EQUAL(own.along[0].bias, hand.bias, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(own.along[0].growth, hand.growth, 1e-12);
	CU_ASSERT_FATAL(own.along[0].trend_var > 0);
	CU_ASSERT_DOUBLE_EQUAL(own.along[0].trend, hand.trend, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(own.along[0].trend_var, hand.trend_var, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(own.along[0].trend_cov, hand.trend_cov, 1e-12);
	hand = hand_posterior(&own, 0, 1, 0);
	CU_ASSERT(fabs(hand.bias - own.along[0].bias) > 1e-6);
	half = (R - hand.bias) / 2;
	CU_ASSERT(half > 0.1);
	CU_ASSERT_DOUBLE_EQUAL(carried.along[0].bias, hand.bias + half, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(carried.along[0].growth,
	                       sqrt(hand.growth * hand.growth + half * half),
	                       1e-12);
	/* the line's slope carries on under the regime's mixture */
	CU_ASSERT_EQUAL(carried.along[0].trend, own.along[0].trend);
	CU_ASSERT_EQUAL(carried.along[0].trend_var, own.along[0].trend_var);
	CU_ASSERT_EQUAL(carried.along[0].trend_cov, own.along[0].trend_cov);
	CU_ASSERT_DOUBLE_EQUAL(carried.weight, own.weight, 1e-12);
	b = out_by(&own, 0);
	sf_interval_at(&own, 100, 0, &b, &lo[0], &hi[0]);
	b = out_by(&carried, 0);
	sf_interval_at(&carried, 100, 0, &b, &lo[1], &hi[1]);
	CU_ASSERT_DOUBLE_EQUAL(lo[1], lo[0], 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(hi[1], hi[0], 1e-12);
	b = out_by(&own, 1);
	sf_interval_at(&own, 100, 0, &b, &lo[0], &hi[0]);
	b = out_by(&carried, 1);
	sf_interval_at(&carried, 100, 0, &b, &lo[1], &hi[1]);
	CU_ASSERT(hi[1] > hi[0] * exp(0.05));
	/* the regime simulation's own top cut misses by more than 0.01 */
	CU_ASSERT_EQUAL_FATAL(one_error_model(-1, 9, -1, -1, &steep), 0);
	CU_ASSERT_EQUAL_FATAL(one_error_model(-1, 9, -1, 0.01, &below), 0);
	CU_ASSERT_EQUAL(below.regime, 1);
	CU_ASSERT_EQUAL(below.regime_carried, 0);
	CU_ASSERT(below.regime_slope > 0.3);
	CU_ASSERT_EQUAL(below.regime_slope, steep.regime_slope);
	CU_ASSERT_DOUBLE_EQUAL(below.along[0].bias, steep.along[0].bias, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(below.along[0].growth, steep.along[0].growth,
	                       1e-15);
}

/* Runs of mean(x, y) over the grid xs x ys, reps of each, with SIM_SIGMA
 * log-normal noise, as CSV text under header into csv; its length. */
static size_t
grid_csv(char *csv, size_t size, const char *header, const double *xs,
         size_t nx, const double *ys, size_t ny, size_t reps,
         double (*mean)(double, double), sf_rng *rng)
{
	size_t len = (size_t)snprintf(csv, size, "%s\n", header);

	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			for (size_t k = 0; k < reps; k++)
				len += (size_t)snprintf(
				    csv + len, size - len, "%g,%g,%.17g\n",
				    xs[i], ys[j],
				    mean(xs[i], ys[j]) *
				        exp(sf_rng_normal(rng, 0, SIM_SIGMA)));
	return len;
}

/* test_per_input's truth: b^2, which its formula lacks. */
static double
per_input_mean(double p, double b)
{
	return 10 + 100 / p + b * b / 20;
}

/*
 * Each input its own model error: a + c / p + d b fitted to 10 + 100 / p
 * + b^2 / 20 (right in p, wrong in b: the time grows as b^2 beyond the
 * measured b) on p = 1-8 and b = 1-16.  The cuts along b miss on the slow
 * side, the more the nearer its top they end, and those along p do not, so
 * the error along b is centred higher and its interval wider than along p
 * (b's three cuts draw a line, whose slope is carried beyond; p's two do
 * not); pooled, both would have been the same.
 */
static void
test_per_input(void)
{
	static const char yaml[] = "name: two\n"
	                           "data: {file: two.csv, output: y}\n"
	                           "inputs: {p: p, b: b}\n"
	                           "parameters:\n"
	                           "  a: {min: 0, max: 1000}\n"
	                           "  c: {min: 0, max: 10000}\n"
	                           "  d: {min: 0, max: 1000}\n"
	                           "time: a + c / p + d * b\n";
	static const double ps[] = {1, 2, 4, 8}, bs[] = {1, 2, 4, 8, 16};
	char csv[8192];
	size_t len;
	sf_rng rng;
	sim s;
	sf_fit_result *r;
	sf_stats *st;
	sf_interval_model im;

	memset(&s, 0, sizeof s);
	sf_rng_seed(&rng, 20261127, 11);
	len = grid_csv(csv, sizeof csv, "p,b,y", ps, 4, bs, 5, 2,
	               per_input_mean, &rng);
	CU_ASSERT_FATAL(sim_parse(&s, yaml, csv, len) == 0);
	CU_ASSERT_FATAL(sim_calibrate(&s, &r, &st, &im) == 0);
	printf("\n    along p: bias %+.4f growth %.4f (%g cuts); along b: bias "
	       "%+.4f growth %.4f trend %.4f (sd %.4f, %g cuts)\n",
	       im.along[0].bias, im.along[0].growth, im.along[0].evidence,
	       im.along[1].bias, im.along[1].growth, im.along[1].trend,
	       sqrt(im.along[1].trend_var), im.along[1].evidence);
	CU_ASSERT(im.along[0].evidence >= 2 && im.along[1].evidence >= 2);
	CU_ASSERT(im.along[1].bias > im.along[0].bias);
	/* b's three cuts climb toward its top (the b^2 the formula lacks),
	 * and the line's slope is carried beyond; p's two cuts draw no
	 * line */
	CU_ASSERT(im.along[1].trend > 0 && im.along[1].trend_var > 0);
	CU_ASSERT_EQUAL(im.along[0].trend_var, 0);
	/* a doubling beyond along b: its interval leans up more than a
	 * doubling beyond along p */
	{
		sf_interval_beyond bp = {0, 0, 0, 0, 0, 0, 0},
		                   bb = {0, 0, 0, 0, 0, 0, 0};
		double lo_p, hi_p, lo_b, hi_b;

		sf_interval_beyond_add(&im, 0, 1, &bp);
		sf_interval_beyond_add(&im, 1, 1, &bb);
		sf_interval_at(&im, 100, 0, &bp, &lo_p, &hi_p);
		sf_interval_at(&im, 100, 0, &bb, &lo_b, &hi_b);
		CU_ASSERT(hi_b > hi_p);
		CU_ASSERT(log(hi_b / lo_b) > log(hi_p / lo_p));
	}
	sf_stats_free(st);
	sf_fit_result_free(r);
	sim_free(&s);
}

/* test_hardware's truth: a speed g dividing the work. */
static double
hardware_mean(double p, double g)
{
	return 10 + 400 / (p * g);
}

/* The error model of a + c / (p g) over p = 1, 2, 4 and g = 4, 8 (two
 * levels: no chain along g) with fit: fit (a flow mapping, or "" none). */
static int
hardware_error_model(const char *fit, sf_interval_model *im)
{
	static const double ps[] = {1, 2, 4}, gs[] = {4, 8};
	char yaml[1024], csv[4096];
	size_t len;
	sf_rng rng;
	sim s;

	memset(&s, 0, sizeof s);
	snprintf(yaml, sizeof yaml,
	         "name: hw\n"
	         "data: {file: hw.csv, output: y}\n"
	         "inputs: {p: p, g: g}\n"
	         "parameters:\n"
	         "  a: {min: 0, max: 1000}\n"
	         "  c: {min: 0, max: 10000}\n"
	         "time: a + c / (p * g)\n%s",
	         fit);
	sf_rng_seed(&rng, 20261128, 3);
	len = grid_csv(csv, sizeof csv, "p,g,y", ps, 3, gs, 2, 3, hardware_mean,
	               &rng);
	if (sim_parse(&s, yaml, csv, len) != 0)
		return -1;
	return sim_error_model(&s, im);
}

/*
 * An input that is a hardware speed (fit.prior.hardware): along it the
 * prior's scale is sqrt(h^2 + (r sigma)^2), h the corpus's for one (GPU
 * generations miss a FLOPS formula by far more per doubling than worker
 * counts do), above the range and below it; the other inputs' error is
 * untouched, a point's model error says how much of it is the hardware
 * speed's own, and the ensemble weight does not move (a prior every
 * member shares would only flatten the weights).
 */
static void
test_hardware(void)
{
	const sf_interval_prior p = sf_interval_prior_default();
	sf_interval_model plain, hw;
	sf_interval_beyond a = {0, 0, 0, 0, 0, 0, 0}, b = {0, 0, 0, 0, 0, 0, 0};
	double lo_a, hi_a, lo_b, hi_b, ratio;

	CU_ASSERT_EQUAL_FATAL(hardware_error_model("", &plain), 0);
	CU_ASSERT_EQUAL_FATAL(
	    hardware_error_model("fit: {prior: {hardware: g}}\n", &hw), 0);
	CU_ASSERT_EQUAL(plain.hardware, SIZE_MAX);
	CU_ASSERT_EQUAL(hw.hardware, 1);
	CU_ASSERT_DOUBLE_EQUAL(hw.hardware_prior_scale,
	                       sqrt(p.hardware_scale * p.hardware_scale +
	                            pow(p.noise_weight * hw.sigma, 2)),
	                       1e-12);
	CU_ASSERT(p.hardware_scale > p.scale);
	/* g has 2 levels: the prior alone, its scale the hardware one's */
	CU_ASSERT_EQUAL(hw.along[1].evidence, 0);
	ratio = hw.hardware_prior_scale / hw.prior_scale;
	CU_ASSERT_DOUBLE_EQUAL(hw.along[1].growth / plain.along[1].growth,
	                       ratio, 1e-9);
	CU_ASSERT(ratio > 2);
	/* p's error as before */
	CU_ASSERT_DOUBLE_EQUAL(hw.along[0].growth, plain.along[0].growth,
	                       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(hw.along[0].bias, plain.along[0].bias, 1e-12);
	/* below the range along g (a slower GPU): the hardware prior alone */
	sf_interval_beyond_add(&plain, 1, -1, &a);
	sf_interval_beyond_add(&hw, 1, -1, &b);
	CU_ASSERT_DOUBLE_EQUAL(b.var / a.var, ratio * ratio, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(b.hardware, b.var + b.shift * b.shift, 1e-15);
	CU_ASSERT_EQUAL(a.hardware, 0);
	/* beyond along p too: the hardware speed's own part stays g's */
	{
		sf_interval_beyond c = b;

		sf_interval_beyond_add(&hw, 0, 1, &c);
		CU_ASSERT(c.var > b.var && c.hardware == b.hardware);
	}
	/* a doubling beyond along g: wider */
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	sf_interval_beyond_add(&plain, 1, 1, &a);
	sf_interval_beyond_add(&hw, 1, 1, &b);
	sf_interval_at(&plain, 100, 0, &a, &lo_a, &hi_a);
	sf_interval_at(&hw, 100, 0, &b, &lo_b, &hi_b);
	CU_ASSERT(hi_b > hi_a && lo_b < lo_a);
	CU_ASSERT_DOUBLE_EQUAL(hw.weight, plain.weight, 1e-12);
}

/* Levels and noise of the heteroscedastic simulation: repeats that
 * scatter 25% at p <= 4 and 3% at p = 6 and 8 (and at 16, the new run
 * beyond), as runs placed over machines in more ways at a few workers
 * than at many do. */
static const double hetero_p[] = {1, 2, 4, 6, 8};
enum { HETERO_LEVELS = 5, HETERO_REPS = 16, HETERO_FITS = 400 };

static double
hetero_sd(double p)
{
	return p <= 4 ? 0.25 : 0.03;
}

/* One heteroscedastic dataset of the right formula, bound to a + b / p,
 * into *s; the relative sample scatter of its top level's repeats (as
 * interval.c pools it) into *top. */
static int
hetero_open(sim *s, sf_rng *rng, double *top)
{
	char csv[8192];
	size_t len = 0;

	memset(s, 0, sizeof *s);
	len += (size_t)snprintf(csv + len, sizeof csv - len, "p,y\n");
	for (size_t l = 0; l < HETERO_LEVELS; l++) {
		double y[HETERO_REPS], mean = 0, ss = 0;

		for (size_t r = 0; r < HETERO_REPS; r++) {
			y[r] =
			    truth(hetero_p[l], 0) *
			    exp(sf_rng_normal(rng, 0, hetero_sd(hetero_p[l])));
			mean += y[r] / HETERO_REPS;
			len +=
			    (size_t)snprintf(csv + len, sizeof csv - len,
			                     "%g,%.17g\n", hetero_p[l], y[r]);
		}
		for (size_t r = 0; r < HETERO_REPS; r++)
			ss += (y[r] - mean) * (y[r] - mean);
		*top = sqrt(ss / (HETERO_REPS - 1)) / mean;
	}
	return sim_parse(s, sim_model, csv, len);
}

/*
 * The noise above the range is the top level's: with repeats that
 * scatter far more at the small levels than at the top one, the noise of
 * a new run beyond is the top level's (its repeats' scatter, or the
 * residuals' there if larger) shrunk toward the pooled one (a prior worth
 * SF_INTERVAL_TOP_NOISE_PRIOR_DOF runs): over 400 simulated fits the interval a
 * doubling beyond holds 95% of new runs and is narrower than with the pooled
 * noise, and its noise part alone holds 93% or more at a fraction of the pooled
 * noise's width (which holds them all); inside the range and below it the
 * interval is the pooled noise's, as before.
 */
static void
test_top_noise(void)
{
	sf_rng rng;
	size_t fits = 0, whole = 0, covered = 0, covered_pooled = 0;
	double width = 0, width_pooled = 0;

	sf_rng_seed(&rng, 20261128, 3);
	for (size_t k = 0; k < HETERO_FITS; k++) {
		sf_fit_result *r;
		sf_stats *st;
		sf_interval_model im, pooled;
		sf_interval_beyond at;
		sim s;
		double top, lo, hi, plo, phi, y, f16, n, want;

		if (hetero_open(&s, &rng, &top) != 0 ||
		    sim_calibrate(&s, &r, &st, &im) != 0) {
			CU_FAIL("a simulated fit failed");
			return;
		}
		/* the top level's noise - its repeats' scatter, or the
		 * residuals' there if larger (each row counting the fit's
		 * share of degrees of freedom) - shrunk toward sigma */
		n = HETERO_REPS - 1;
		{
			double ss = 0,
			       share = (double)st->dof / (double)s.data->rows;
			size_t m = 0;

			for (size_t i = 0; i < s.data->rows; i++)
				if (s.data->inputs[0].values[i] == 8) {
					double e = log(
					    s.data->output[i] /
					    (r->theta[0] + r->theta[1] / 8));
					ss += e * e;
					m++;
				}
			if (sqrt(ss / ((double)m * share)) > top) {
				top = sqrt(ss / ((double)m * share));
				n = (double)m * share;
			}
		}
		want = sqrt((n * top * top + SF_INTERVAL_TOP_NOISE_PRIOR_DOF *
		                                 im.sigma * im.sigma) /
		            (n + SF_INTERVAL_TOP_NOISE_PRIOR_DOF));
		if (k < 3) {
			CU_ASSERT_DOUBLE_EQUAL(im.along[0].noise, want,
			                       1e-6 * want);
			CU_ASSERT_DOUBLE_EQUAL(
			    im.along[0].noise_dof,
			    n + SF_INTERVAL_TOP_NOISE_PRIOR_DOF, 1e-9);
			CU_ASSERT(im.along[0].noise < im.sigma);
		}
		pooled = im;
		pooled.along[0].noise = pooled.along[0].noise_dof = 0;
		/* inside and below the range: the pooled noise's interval */
		for (int q = 0; q < 2; q++) {
			at = out_by(&im, q == 0 ? 0 : -1);
			CU_ASSERT_EQUAL(at.noise, 0);
			sf_interval_at(&im, 50, 0, &at, &lo, &hi);
			at = out_by(&pooled, q == 0 ? 0 : -1);
			sf_interval_at(&pooled, 50, 0, &at, &plo, &phi);
			CU_ASSERT_DOUBLE_EQUAL(lo, plo, 1e-12 * plo);
			CU_ASSERT_DOUBLE_EQUAL(hi, phi, 1e-12 * phi);
		}
		/* a doubling beyond: one new run there, in the whole
		 * interval (no wider than the pooled noise's) and in the
		 * noise's part alone (the model error left out) */
		f16 = r->theta[0] + r->theta[1] / 16;
		y = truth(16, 0) * exp(sf_rng_normal(&rng, 0, hetero_sd(16)));
		at = out_by(&im, 1);
		sf_interval_at(&im, f16, 0, &at, &lo, &hi);
		at = out_by(&pooled, 1);
		sf_interval_at(&pooled, f16, 0, &at, &plo, &phi);
		fits++;
		whole += lo <= y && y <= hi;
		CU_ASSERT(log(hi / lo) < log(phi / plo));
		set_error(&im, 0, NAN, 0);
		set_error(&pooled, 0, NAN, 0);
		at = out_by(&im, 1);
		sf_interval_at(&im, f16, 0, &at, &lo, &hi);
		at = out_by(&pooled, 1);
		sf_interval_at(&pooled, f16, 0, &at, &plo, &phi);
		covered += lo <= y && y <= hi;
		covered_pooled += plo <= y && y <= phi;
		width += log(hi / lo);
		width_pooled += log(phi / plo);
		sf_stats_free(st);
		sf_fit_result_free(r);
		sim_free(&s);
	}
	printf("\n    a doubling beyond: %.1f%% covered; the noise's part "
	       "alone, the top level's %.1f%% (width %.3f), the pooled "
	       "%.1f%% (width %.3f)\n",
	       100.0 * (double)whole / (double)fits,
	       100.0 * (double)covered / (double)fits, width / (double)fits,
	       100.0 * (double)covered_pooled / (double)fits,
	       width_pooled / (double)fits);
	CU_ASSERT(whole >= 0.95 * (double)fits);
	CU_ASSERT(covered >= 0.93 * (double)fits);
	CU_ASSERT(width < 0.75 * width_pooled);
}

int
main(void)
{
	CU_TestInfo interval_tests[] = {
	    {"distance beyond the fitted range", test_distance},
	    {"each input its own model error", test_per_input},
	    {"a hardware speed's prior", test_hardware},
	    {"the interval's formula", test_interval_at},
	    {"calibrated with the right formula (1000 fits)", test_calibrated},
	    {"wider with a missing term (1000 fits)", test_missing_term},
	    {"late contention: the chain's own line (1000 fits)",
	     test_late_contention},
	    {"never zero beyond the range", test_never_zero},
	    {"the formulas' disagreement in the prior", test_disagreement},
	    {"wide on purpose after a regime change", test_regime},
	    {"the pace check and whole steps", test_pace_whole_steps},
	    {"the model file's formula's regime carried", test_regime_carried},
	    {"the noise above the range: the top level's (400 fits)",
	     test_top_noise},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"interval", NULL, NULL, NULL, NULL, interval_tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
