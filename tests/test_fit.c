/*
 * test_fit.c - the fit driver and its statistics, end to end through the
 * library: Ernest's known answer, byte-identical results whatever the
 * thread count, every loss, the stopping rules, the failure path, the
 * penalty's bookkeeping, and the statistics of a straight-line fit against
 * their closed forms (computed here independently, from the normal
 * equations).
 */
#include "fit/fit.h"
#include "input/model.h"
#include "input/problem.h"
#include "fit/stats.h"
#include "testing.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

static int
ernest_open(sf_test_problem *fx)
{
	return sf_test_problem_load(fx, "expressions/ernest.yaml",
	                            SF_TEST_MODEL_LOSS);
}

static sf_fit_result *
fit(const sf_test_problem *fx, const sf_fit_options *o)
{
	sf_fit_result *r = NULL;
	sf_error err;

	if (sf_fit_run(fx->p.model, fx->p.data, fx->p.formula, o, &r, &err) !=
	    SF_OK) {
		fprintf(stderr, "fit: %s\n", err.message);
		sf_fit_result_free(r);
		return NULL;
	}
	return r;
}

/* Equal to 5 significant digits, as issue 5 asks of Ernest. */
static int
same5(double x, double want)
{
	return fabs(x - want) <= 0.5e-5 * fabs(want);
}

/* ---- Ernest (NSDI 2016), the known answer -------------------------------- */

static void
test_ernest_known_answer(void)
{
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r;

	CU_ASSERT_FATAL(ernest_open(&fx) == 0);
	sf_fit_options_init(&o);
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(r->nparams, 4);
	CU_ASSERT(same5(r->theta[0], 1.90013));
	CU_ASSERT(same5(r->theta[1], 162.19821));
	CU_ASSERT_EQUAL(r->theta[2], 0);
	CU_ASSERT_EQUAL(r->at_bound[2], 1); /* at its lower bound */
	CU_ASSERT(same5(r->theta[3], 1.58832));
	CU_ASSERT(same5(r->loss, 0.0745151));
	CU_ASSERT_EQUAL(r->at_bound[0] + r->at_bound[1] + r->at_bound[3], 0);
	CU_ASSERT(r->polish_ran);
	CU_ASSERT_EQUAL(r->settings.loss, SF_LOSS_SSE);
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

/* ---- determinism across thread counts ------------------------------------ */

/* NIST's Misra1a, b1 * (1 - exp(-b2 * x)): b1 is solved separably, b2
 * searched. */
static int
misra_open(sf_test_problem *fx)
{
	return sf_test_problem_load(fx, "tests/nist/Misra1a.yaml", SF_LOSS_SSE);
}

/* ---- probes: a wide local minimum next to a narrow, deeper one -------- */

/*
 * NIST's Gauss3 from its bounds, searched on the linear scale: the
 * population gathers in a wide local minimum (SSE 1357.76, one peak fitted
 * as the difference of two Gaussians) while the members near the
 * certified one (1244.4846360, NIST's value) are lost.  Without the
 * probes (fit.c) seeds 1-3 all end at 1357.76 (1 of seeds 1-8 finds the
 * certified minimum); with them 31 of 32 single runs do.  Which seeds
 * succeed moves with the last digits of the costs, so the test asks for 2
 * of 3, not for every seed.
 */
static void
test_probes_gauss3(void)
{
	sf_test_problem fx;
	sf_fit_options o;
	size_t found = 0;

	CU_ASSERT_FATAL(sf_test_problem_load(&fx, "tests/nist/Gauss3.yaml",
	                                     SF_TEST_MODEL_LOSS) == 0);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		sf_fit_result *r;

		sf_fit_options_init(&o);
		o.has_seed = 1;
		o.seed = seed;
		o.has_scale = 1;
		o.scale = SF_SCALE_LINEAR;
		r = fit(&fx, &o);
		CU_ASSERT_FATAL(r != NULL);
		found += fabs(r->loss - 1244.4846360) <= 1e-6 * 1244.4846360;
		/* never above the wide minimum */
		CU_ASSERT(r->loss <= 1357.7645 * (1 + 1e-6));
		sf_fit_result_free(r);
	}
	CU_ASSERT(found >= 2);
	sf_test_problem_close(&fx);
}

/* The runs a result lists add up to it: one per search and restart, their
 * evaluations the result's, the lowest of their costs its cost, the
 * first of each search at the population reported. */
static void
check_runs(const sf_fit_result *r)
{
	size_t evaluations = 0;
	double lowest = INFINITY;

	CU_ASSERT_EQUAL_FATAL(r->nruns, r->restarts + (size_t)r->searches);
	CU_ASSERT_EQUAL(r->runs[0].population, r->population);
	CU_ASSERT_EQUAL(r->runs[0].scale, SF_SCALE_LINEAR);
	for (size_t i = 0; i < r->nruns; i++) {
		evaluations += r->runs[i].evaluations;
		lowest = fmin(lowest, r->runs[i].cost);
		CU_ASSERT(r->runs[i].population > 0);
		CU_ASSERT_PTR_NOT_NULL(r->runs[i].stop_reason);
		/* a restart doubles the population of the run before it */
		if (i > 0 && r->runs[i].scale == r->runs[i - 1].scale)
			CU_ASSERT_EQUAL(r->runs[i].population,
			                2 * r->runs[i - 1].population);
	}
	CU_ASSERT_EQUAL(evaluations, r->evaluations);
	CU_ASSERT_EQUAL(lowest, r->cost);
}

/* Ernest is linear in every constant, so its search is switched off
 * (separable: 0) to exercise the optimisers; Misra1a keeps it on. */
static void
check_thread_independence(sf_de_algorithm algorithm, sf_loss loss, int misra)
{
	static const int threads[] = {1, 2, 7};
	sf_fit_result *r[3];
	sf_fit_options o;
	sf_test_problem fx;
	size_t P;

	CU_ASSERT_FATAL((misra ? misra_open(&fx) : ernest_open(&fx)) == 0);
	P = fx.p.formula->nparams;
	for (size_t t = 0; t < 3; t++) {
		sf_fit_options_init(&o);
		o.separable = misra;
		o.threads = threads[t];
		o.parallel_always = 1; /* small data: would run serially */
		o.has_algorithm = 1;
		o.algorithm = algorithm;
		o.has_loss = 1;
		o.loss = loss;
		o.has_seed = 1;
		o.seed = 20261122;
		r[t] = fit(&fx, &o);
		CU_ASSERT_FATAL(r[t] != NULL);
	}
	for (size_t t = 1; t < 3; t++) {
#ifdef _OPENMP
		CU_ASSERT_EQUAL(r[t]->threads, threads[t]);
#else
		CU_ASSERT_EQUAL(r[t]->threads,
		                1); /* the --disable-openmp build */
#endif
		CU_ASSERT(
		    memcmp(r[0]->theta, r[t]->theta, P * sizeof(double)) == 0);
		CU_ASSERT(memcmp(r[0]->theta_search, r[t]->theta_search,
		                 P * sizeof(double)) == 0);
		CU_ASSERT_EQUAL(r[t]->nlinear, misra ? 1 : 0);
		CU_ASSERT(memcmp(&r[0]->cost, &r[t]->cost, sizeof(double)) ==
		          0);
		CU_ASSERT_EQUAL(r[0]->evaluations, r[t]->evaluations);
		CU_ASSERT_EQUAL(r[0]->generations, r[t]->generations);
		CU_ASSERT_EQUAL(r[0]->restarts, r[t]->restarts);
		CU_ASSERT_STRING_EQUAL(r[0]->stop_reason, r[t]->stop_reason);
		CU_ASSERT_EQUAL_FATAL(r[0]->nruns, r[t]->nruns);
		for (size_t i = 0; i < r[0]->nruns; i++) {
			const sf_fit_search_run *a = &r[0]->runs[i];
			const sf_fit_search_run *b = &r[t]->runs[i];
			CU_ASSERT_EQUAL(a->scale, b->scale);
			CU_ASSERT_EQUAL(a->population, b->population);
			CU_ASSERT_EQUAL(a->evaluations, b->evaluations);
			CU_ASSERT(memcmp(&a->cost, &b->cost, sizeof a->cost) ==
			          0);
			CU_ASSERT_STRING_EQUAL(a->stop_reason, b->stop_reason);
		}
	}
	check_runs(r[0]);
	/* these converge long before their budget: the adaptive searches
	 * restart (fit.c), classic DE never does */
	if (algorithm == SF_DE_CLASSIC) {
		CU_ASSERT_EQUAL(r[0]->restarts, 0);
	} else {
		CU_ASSERT(r[0]->restarts >= 1);
	}
	for (size_t t = 0; t < 3; t++)
		sf_fit_result_free(r[t]);
	sf_test_problem_close(&fx);
}

static void
test_threads_lshade(void)
{
	check_thread_independence(SF_DE_LSHADE, SF_LOSS_RELATIVE, 0);
}

static void
test_threads_separable(void)
{
	check_thread_independence(SF_DE_LSHADE, SF_LOSS_SSE, 1);
}

static void
test_threads_jso(void)
{
	check_thread_independence(SF_DE_JSO, SF_LOSS_SSE, 0);
}

static void
test_threads_de(void)
{
	check_thread_independence(SF_DE_CLASSIC, SF_LOSS_LOG, 0);
}

/* ---- the straight line: losses, penalty, stopping, statistics ------------ */

static const char line_yaml[] = "name: line\n"
                                "data: {file: line.csv, output: y}\n"
                                "inputs: {x: x}\n"
                                "parameters:\n"
                                "  a: {min: -10, max: 10}\n"
                                "  b: {min: -5, max: 5}\n"
                                "time: a + b * x\n"
                                "fit: {loss: sse}\n";

/* The line's least-squares answer and statistics from the normal
 * equations. */
typedef struct line_answer {
	double a, b, sse, sst, se_a, se_b, cov_ab, mape, max_ape;
	size_t n;
} line_answer;

static line_answer
line_closed_form(const sf_dataset *d)
{
	line_answer L = {0};
	const double *x = d->inputs[0].values, *y = d->output;
	double xbar = 0, ybar = 0, sxx = 0, sxy = 0, s2;

	L.n = d->rows;
	for (size_t i = 0; i < L.n; i++) {
		xbar += x[i] / (double)L.n;
		ybar += y[i] / (double)L.n;
	}
	for (size_t i = 0; i < L.n; i++) {
		sxx += (x[i] - xbar) * (x[i] - xbar);
		sxy += (x[i] - xbar) * (y[i] - ybar);
		L.sst += (y[i] - ybar) * (y[i] - ybar);
	}
	L.b = sxy / sxx;
	L.a = ybar - L.b * xbar;
	for (size_t i = 0; i < L.n; i++) {
		double e = L.a + L.b * x[i] - y[i], ape = 100 * fabs(e / y[i]);
		L.sse += e * e;
		L.mape += ape / (double)L.n;
		L.max_ape = ape > L.max_ape ? ape : L.max_ape;
	}
	s2 = L.sse / (double)(L.n - 2);
	L.se_b = sqrt(s2 / sxx);
	L.se_a = sqrt(s2 * (1.0 / (double)L.n + xbar * xbar / sxx));
	L.cov_ab = -xbar * s2 / sxx;
	return L;
}

static int
close_rel(double x, double want, double tol)
{
	return fabs(x - want) <= tol * fmax(fabs(want), 1e-300);
}

static void
test_line_statistics(void)
{
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r;
	sf_stats *s = NULL;
	sf_error err;
	line_answer L;
	double n, k = 2, aic;

	CU_ASSERT_FATAL(
	    sf_test_problem_parse(&fx, "fit/line.yaml", line_yaml) == 0);
	L = line_closed_form(fx.p.data);
	n = (double)L.n;
	CU_ASSERT_EQUAL(L.n, 10);
	sf_fit_options_init(&o);
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_FATAL(
	    sf_stats_compute(fx.p.formula, fx.p.data, r, &s, &err) == SF_OK);
	CU_ASSERT(close_rel(r->theta[0], L.a, 1e-10));
	CU_ASSERT(close_rel(r->theta[1], L.b, 1e-10));
	CU_ASSERT(close_rel(s->sse, L.sse, 1e-10));
	CU_ASSERT(close_rel(s->rmse, sqrt(L.sse / n), 1e-10));
	CU_ASSERT(close_rel(s->r2, 1 - L.sse / L.sst, 1e-10));
	CU_ASSERT(close_rel(
	    s->r2_adj, 1 - (L.sse / L.sst) * (n - 1) / (n - k - 1), 1e-10));
	CU_ASSERT(close_rel(s->mape, L.mape, 1e-8));
	CU_ASSERT(close_rel(s->max_ape, L.max_ape, 1e-8));
	/* lmfit: chisqr = sse here; aic = n ln(chisqr/n) + 2k */
	aic = n * log(L.sse / n) + 2 * k;
	CU_ASSERT(close_rel(s->chisqr, L.sse, 1e-10));
	CU_ASSERT(close_rel(s->aic, aic, 1e-10));
	CU_ASSERT(close_rel(s->bic, n * log(L.sse / n) + k * log(n), 1e-10));
	CU_ASSERT(
	    close_rel(s->aicc, aic + 2 * k * (k + 1) / (n - k - 1), 1e-10));
	CU_ASSERT(close_rel(s->se[0], L.se_a, 1e-8));
	CU_ASSERT(close_rel(s->se[1], L.se_b, 1e-8));
	CU_ASSERT(close_rel(s->cov[1], L.cov_ab, 1e-8));
	CU_ASSERT(close_rel(s->corr[1], L.cov_ab / (L.se_a * L.se_b), 1e-8));
	CU_ASSERT_EQUAL(s->corr[0], 1);
	CU_ASSERT_EQUAL(s->dof, 8);
	/* t(0.975, 8) = 2.306004135204166 */
	CU_ASSERT(close_rel(s->t95, 2.306004135204166, 1e-12));
	CU_ASSERT(
	    close_rel(s->ci_low[1], L.b - 2.306004135204166 * L.se_b, 1e-8));
	CU_ASSERT(
	    close_rel(s->ci_high[1], L.b + 2.306004135204166 * L.se_b, 1e-8));
	sf_stats_free(s);
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

static void
test_every_loss(void)
{
	static const sf_loss losses[] = {SF_LOSS_RELATIVE, SF_LOSS_SSE,
	                                 SF_LOSS_LOG, SF_LOSS_ABSOLUTE,
	                                 SF_LOSS_HUBER};
	sf_test_problem fx;
	line_answer L;

	CU_ASSERT_FATAL(
	    sf_test_problem_parse(&fx, "fit/line.yaml", line_yaml) == 0);
	L = line_closed_form(fx.p.data);
	for (size_t i = 0; i < 5; i++) {
		sf_fit_options o;
		sf_fit_result *r;

		sf_fit_options_init(&o);
		o.has_loss = 1;
		o.loss = losses[i];
		r = fit(&fx, &o);
		CU_ASSERT_FATAL(r != NULL);
		CU_ASSERT(isfinite(r->cost) && r->cost >= 0);
		CU_ASSERT_EQUAL(r->cost, r->loss); /* no penalty */
		/* every loss lands near the least-squares line */
		CU_ASSERT(fabs(r->theta[1] - L.b) < 0.1);
		if (losses[i] == SF_LOSS_ABSOLUTE) {
			CU_ASSERT(!r->polish_ran);
			CU_ASSERT_PTR_NOT_NULL(r->polish_note);
		} else {
			CU_ASSERT(r->polish_ran);
		}
		sf_fit_result_free(r);
	}
	sf_test_problem_close(&fx);
}

/* The l2 penalty on bound-scaled parameters: reported apart from the
 * loss, and it pulls the fit toward zero. */
static void
test_penalty(void)
{
	static const char yaml[] =
	    "name: line\n"
	    "data: {file: line.csv, output: y}\n"
	    "inputs: {x: x}\n"
	    "parameters:\n"
	    "  a: {min: -10, max: 10}\n"
	    "  b: {min: -5, max: 5}\n"
	    "time: a + b * x\n"
	    "fit: {loss: sse, regularization: {type: l2, lambda: 100}}\n";
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r;
	line_answer L;
	double z0, z1;

	CU_ASSERT_FATAL(sf_test_problem_parse(&fx, "fit/line.yaml", yaml) == 0);
	L = line_closed_form(fx.p.data);
	sf_fit_options_init(&o);
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	z0 = r->theta[0] / 10;
	z1 = r->theta[1] / 5;
	CU_ASSERT(close_rel(r->penalty, z0 * z0 + z1 * z1, 1e-12));
	CU_ASSERT(close_rel(r->cost, r->loss + 100 * r->penalty, 1e-12));
	CU_ASSERT(r->loss > L.sse);               /* the data fit less well */
	CU_ASSERT(fabs(r->theta[0]) < fabs(L.a)); /* shrunk toward 0 */
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

static void
test_stopping_rules(void)
{
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r;

	CU_ASSERT_FATAL(
	    sf_test_problem_parse(&fx, "fit/line.yaml", line_yaml) == 0);
	sf_fit_options_init(&o);
	o.separable = 0; /* a line is solved, not searched, otherwise */
	o.max_evals = 300;
	o.has_scale = 1;
	o.scale = SF_SCALE_LINEAR;
	o.polish = 0;
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_STRING_EQUAL(r->stop_reason, "max_evals");
	CU_ASSERT_EQUAL(r->searches, 1); /* scale: linear, one search */
	CU_ASSERT(isnan(r->cost_other));
	CU_ASSERT(r->evaluations <= 300);
	CU_ASSERT(!r->polish_ran);
	CU_ASSERT_EQUAL(memcmp(r->theta, r->theta_search, 2 * sizeof(double)),
	                0);
	sf_fit_result_free(r);

	/* scale: auto searches both ways and keeps the lower cost */
	sf_fit_options_init(&o);
	o.separable = 0;
	o.max_evals = 300;
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(r->searches, 2);
	CU_ASSERT(r->cost <= r->cost_other);
	sf_fit_result_free(r);

	sf_fit_options_init(&o);
	o.separable = 0;
	o.time_limit = 1e-9;
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_STRING_EQUAL(r->stop_reason, "time_limit");
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

/* max(c, h / 40) is not linear in h, though a probe almost never sees its
 * kink (c is mostly the larger): the symbolic derivatives tell. */
static void
test_separable_kink(void)
{
	static const char kinked[] = "name: kink\n"
	                             "data: {file: line.csv, output: y}\n"
	                             "inputs: {x: x}\n"
	                             "parameters:\n"
	                             "  a: {min: -10, max: 10}\n"
	                             "  c: {min: 0, max: 1}\n"
	                             "  h: {min: 0, max: 1}\n"
	                             "time: a + x * max(c, h / 40)\n"
	                             "fit: {loss: sse}\n";
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r;

	CU_ASSERT_FATAL(sf_test_problem_parse(&fx, "fit/line.yaml", kinked) ==
	                0);
	sf_fit_options_init(&o);
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(r->nlinear, 1);
	CU_ASSERT(r->linear[0] && !r->linear[1] && !r->linear[2]);
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

/* A line is linear in both constants: one bounded solve, no search; and
 * with a box that excludes the least-squares slope, the bound. */
static void
test_separable_line(void)
{
	static const char boxed[] = "name: line\n"
	                            "data: {file: line.csv, output: y}\n"
	                            "inputs: {x: x}\n"
	                            "parameters:\n"
	                            "  a: {min: -10, max: 10}\n"
	                            "  b: {min: 0, max: 0.4}\n"
	                            "time: a + b * x\n"
	                            "fit: {loss: sse}\n";
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r;
	line_answer L;

	CU_ASSERT_FATAL(
	    sf_test_problem_parse(&fx, "fit/line.yaml", line_yaml) == 0);
	L = line_closed_form(fx.p.data);
	sf_fit_options_init(&o);
	o.polish = 0; /* the solve alone */
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(r->nlinear, 2);
	CU_ASSERT_STRING_EQUAL(r->stop_reason, "separable");
	CU_ASSERT_EQUAL(r->evaluations, 1);
	CU_ASSERT(close_rel(r->theta[0], L.a, 1e-10));
	CU_ASSERT(close_rel(r->theta[1], L.b, 1e-10));
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);

	CU_ASSERT_FATAL(sf_test_problem_parse(&fx, "fit/line.yaml", boxed) ==
	                0);
	sf_fit_options_init(&o);
	r = fit(&fx, &o);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_EQUAL(r->theta[1], 0.4); /* L.b = 0.48 is outside */
	CU_ASSERT_EQUAL(r->at_bound[1], 2);
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

/* A formula that is NaN everywhere in the box: SF_EFAIL, with a result. */
static void
test_no_finite_cost(void)
{
	static const char yaml[] = "name: nan\n"
	                           "data: {file: line.csv, output: y}\n"
	                           "inputs: {x: x}\n"
	                           "parameters:\n"
	                           "  a: {min: 1, max: 2}\n"
	                           "time: sqrt(-a) * x\n"
	                           "fit: {loss: sse}\n";
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r = NULL;
	sf_error err;

	CU_ASSERT_FATAL(sf_test_problem_parse(&fx, "fit/line.yaml", yaml) == 0);
	sf_fit_options_init(&o);
	o.max_evals = 200;
	CU_ASSERT_EQUAL(
	    sf_fit_run(fx.p.model, fx.p.data, fx.p.formula, &o, &r, &err),
	    SF_EFAIL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(isinf(r->cost));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "finite"));
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

int
main(void)
{
	CU_TestInfo ernest[] = {
	    {"known answer to 5 digits, theta2 at its bound",
	     test_ernest_known_answer},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo threads[] = {
	    {"lshade, relative: 1, 2, 7 threads identical",
	     test_threads_lshade},
	    {"jso, sse: 1, 2, 7 threads identical", test_threads_jso},
	    {"de best1bin, log: 1, 2, 7 threads identical", test_threads_de},
	    {"separable search (Misra1a): 1, 2, 7 threads identical",
	     test_threads_separable},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo line[] = {
	    {"statistics equal their closed forms", test_line_statistics},
	    {"every loss fits; absolute skips the polish", test_every_loss},
	    {"l2 penalty: scaled, reported apart, shrinks", test_penalty},
	    {"stop by max_evals and by time_limit", test_stopping_rules},
	    {"separable: a line is one bounded solve", test_separable_line},
	    {"mid-run polishes: Gauss3's certified minimum, not the wide one",
	     test_probes_gauss3},
	    {"separable: a kink the probes miss is not linear",
	     test_separable_kink},
	    {"no finite cost anywhere: SF_EFAIL", test_no_finite_cost},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"ernest", NULL, NULL, NULL, NULL, ernest},
	    {"threads", NULL, NULL, NULL, NULL, threads},
	    {"line", NULL, NULL, NULL, NULL, line},
	    CU_SUITE_INFO_NULL,
	};

	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
