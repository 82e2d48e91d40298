/*
 * test_nist.c - the accuracy campaign of issue 5: the 27 NIST StRD
 * nonlinear regression problems (tests/nist/, see its README.md), fitted
 * the way a user would - `scalefit fit` defaults, loss sse, the boxes
 * [-10m, 10m] from NIST's starting values - and scored against NIST's
 * certified values by the log relative error (LRE, number of correct
 * significant digits, clipped to the digits NIST printed).
 *
 * Targets: LRE >= 6 for the residual sum of squares and for every
 * parameter (after removing the model's symmetries as the .certified
 * file's sign/permute lines say), LRE >= 4 for every standard error.
 *
 * One exception, stated rather than hidden: Lanczos1's certified RSS,
 * 1.4307867721E-25, is below what double precision can resolve - its
 * data were generated to 13 digits, so every residual evaluated in
 * double carries rounding noise of ~1e-13 relative and the computed RSS
 * is noise of the same order.  For Lanczos1 the RSS must instead be at
 * that floor (<= 1e-22) and the parameters still meet LRE >= 6.  The
 * standard errors of Lanczos1 derive from s^2 = RSS/(n-k), so they are
 * noise too and are not scored.
 *
 * Gauss3: its two Gaussian peaks overlap more than Gauss2's, and in boxes
 * that allow negative amplitudes there is a wide local minimum (SSE
 * 1357.76, one peak fitted as the difference of two Gaussians at nearly
 * the same centre, b4 ~ b7) next to the certified one (1244.48).  The
 * population gathers in the wide one while its members near the
 * certified one are still worse; the search found the certified minimum
 * for 4 of seeds 1-8 with its restarts alone.  The probes (fit.c: the
 * best distinct members at a quarter and half of a run's budget,
 * polished after it) find it for every seed.
 *
 * ENSO: x is a whole number of months, so a period P and 1 / (1/P - k)
 * for any whole k give the same values at every row and the same RSS;
 * the `alias` line of ENSO.certified folds a fitted period into the one
 * certified (a symmetry of the data like the sign and permute lines).
 * An alias is an equal answer, not a miss, but folding one of high
 * frequency costs digits: seed 7 found the period 0.0014728 (a frequency
 * of 679 per month, 1/P + 679 for P = 26.89), where the arguments
 * 2 pi x / P reach 7e5 radians and are rounded to ~1e-10, and folded it
 * kept 4.9 correct digits.  So a fit whose periods were folded is polished
 * once more from the folded point (a warm start, fit.h) and that point is
 * scored: the RSS must not change, and the parameters then carry the
 * digits of the certified alias.  Marked "a" in the table.
 *
 * make check runs seed 1 (NIST_SEEDS unset); make nist runs seeds 1-8
 * and lists the problems that missed and for how many seeds.
 *
 * Gauss2 (two overlapping Gaussian peaks in boxes ten times wider than
 * NIST's starts) needs the separable search (cost.h): with its three
 * amplitudes searched as well, the default search found the global
 * minimum for about 1 seed in 8; with them solved by linear least squares
 * it finds it for every seed tried (8 of 8).
 *
 * The table printed (problem, seed, evaluations, seconds, LREs) is the
 * campaign's report; `make nist` prints it alone.
 */
#include "fit/fit.h"
#include "input/model.h"
#include "input/problem.h"
#include "fit/stats.h"
#include "testing.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PARAMS = 10, MAX_RULES = 4 };

typedef struct rule {
	int permute;             /* 0: a sign rule, 1: a permute rule */
	int alias;               /* 1: an alias rule (members: periods) */
	int members[MAX_PARAMS]; /* sign: parameter indices */
	size_t nmembers;
	int groups[MAX_PARAMS][MAX_PARAMS]; /* permute: groups of indices */
	size_t ngroups, group_size;
	size_t key; /* permute: 0-based member to sort by */
	int descending;
} rule;

typedef struct certified {
	size_t k;
	double value[MAX_PARAMS], sd[MAX_PARAMS];
	int digits[MAX_PARAMS], sd_digits[MAX_PARAMS];
	double rss;
	int rss_digits;
	rule rules[MAX_RULES];
	size_t nrules;
} certified;

/* Significant digits of a decimal string such as "1.9280693458E-01". */
static int
significant_digits(const char *s)
{
	int n = 0, leading = 1;

	for (; *s != '\0' && *s != 'E' && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s == '0' && leading)
			continue;
		leading = 0;
		n++;
	}
	return n;
}

/* "b3" -> 2 */
static int
param_index(const char *s)
{
	return s[0] == 'b' ? atoi(s + 1) - 1 : -1;
}

/* "b3,b4,b5" -> {2, 3, 4}; returns the count. */
static size_t
param_list(char *s, int *out)
{
	size_t n = 0;

	for (char *t = strtok(s, ","); t != NULL && n < MAX_PARAMS;
	     t = strtok(NULL, ","))
		out[n++] = param_index(t);
	return n;
}

static int
load_certified(const char *path, certified *c)
{
	char line[512];
	FILE *f = fopen(path, "r");

	memset(c, 0, sizeof *c);
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		char *w[16];
		size_t n = 0;

		if (line[0] == '#')
			continue;
		for (char *t = strtok(line, " \t\n"); t != NULL && n < 16;
		     t = strtok(NULL, " \t\n"))
			w[n++] = t;
		if (n == 0)
			continue;
		if (n == 3 && param_index(w[0]) >= 0 &&
		    param_index(w[0]) < MAX_PARAMS) {
			size_t j = (size_t)param_index(w[0]);
			c->value[j] = strtod(w[1], NULL);
			c->digits[j] = significant_digits(w[1]);
			c->sd[j] = strtod(w[2], NULL);
			c->sd_digits[j] = significant_digits(w[2]);
			if (j + 1 > c->k)
				c->k = j + 1;
		} else if (strcmp(w[0], "rss") == 0 && n == 2) {
			c->rss = strtod(w[1], NULL);
			c->rss_digits = significant_digits(w[1]);
		} else if (strcmp(w[0], "sign") == 0 && n == 2 &&
		           c->nrules < MAX_RULES) {
			rule *r = &c->rules[c->nrules++];
			r->nmembers = param_list(w[1], r->members);
		} else if (strcmp(w[0], "alias") == 0 && n == 2 &&
		           c->nrules < MAX_RULES) {
			rule *r = &c->rules[c->nrules++];
			r->alias = 1;
			r->nmembers = param_list(w[1], r->members);
		} else if (strcmp(w[0], "permute") == 0 && n >= 5 &&
		           c->nrules < MAX_RULES) {
			rule *r = &c->rules[c->nrules++];
			r->permute = 1;
			for (size_t g = 1; g + 3 < n; g++)
				r->group_size =
				    param_list(w[g], r->groups[r->ngroups++]);
			r->key = (size_t)atoi(w[n - 2]) - 1;
			r->descending = strcmp(w[n - 1], "desc") == 0;
		}
	}
	fclose(f);
	return c->k > 0 && c->rss > 0 ? 0 : -1;
}

/* Put x (and its standard errors, which move with it) in canonical form.
 * Returns 1 when an alias rule moved a period, else 0. */
static int
canonicalise(const certified *c, double *x, double *se)
{
	int folded = 0;

	for (size_t i = 0; i < c->nrules; i++) {
		const rule *r = &c->rules[i];

		/* alias: on whole-number x, the periods P and 1 / (1/P - k)
		 * give the same values; fold the frequency 1/P into
		 * [-1/2, 1/2] (its standard error moves by (P'/P)^2). */
		if (r->alias) {
			for (size_t m = 0; m < r->nmembers; m++) {
				double *p = &x[r->members[m]];
				double k = round(1 / *p), q = 1 / *p - k;
				if (q != 0 && 1 / q != *p) {
					se[r->members[m]] *=
					    (1 / q) * (1 / q) / (*p * *p);
					*p = 1 / q;
					/* another alias (not only 1/(1/P)
					 * rounded) */
					folded |= k != 0;
				}
			}
			continue;
		}
		if (!r->permute) {
			if (x[r->members[0]] < 0)
				for (size_t m = 0; m < r->nmembers; m++)
					x[r->members[m]] = -x[r->members[m]];
			continue;
		}
		/* Sort the groups by their key member (few groups: insertion
		 * sort on copies). */
		double gx[MAX_PARAMS][MAX_PARAMS], gs[MAX_PARAMS][MAX_PARAMS];
		size_t order[MAX_PARAMS];
		for (size_t g = 0; g < r->ngroups; g++) {
			order[g] = g;
			for (size_t m = 0; m < r->group_size; m++) {
				gx[g][m] = x[r->groups[g][m]];
				gs[g][m] = se[r->groups[g][m]];
			}
		}
		for (size_t a = 1; a < r->ngroups; a++)
			for (size_t b = a; b > 0; b--) {
				double u = gx[order[b - 1]][r->key];
				double v = gx[order[b]][r->key];
				if (r->descending ? u >= v : u <= v)
					break;
				size_t t = order[b];
				order[b] = order[b - 1];
				order[b - 1] = t;
			}
		for (size_t g = 0; g < r->ngroups; g++)
			for (size_t m = 0; m < r->group_size; m++) {
				x[r->groups[g][m]] = gx[order[g]][m];
				se[r->groups[g][m]] = gs[order[g]][m];
			}
	}
	return folded;
}

/* Correct significant digits of x against c, clipped to [0, digits]. */
static double
lre(double x, double c, int digits)
{
	double e;

	if (!isfinite(x))
		return 0;
	if (x == c)
		return digits;
	e = -log10(fabs(x - c) / fabs(c));
	return e < 0 ? 0 : e > digits ? digits : e;
}

static const char *const problems[] = {
    "Misra1a",  "Chwirut2", "Chwirut1", "Lanczos3", "Gauss1",  "Gauss2",
    "DanWood",  "Misra1b",  "Kirby2",   "Hahn1",    "Nelson",  "MGH17",
    "Lanczos1", "Lanczos2", "Gauss3",   "Misra1c",  "Misra1d", "Roszman1",
    "ENSO",     "MGH09",    "Thurber",  "BoxBOD",   "Rat42",   "MGH10",
    "Eckerle4", "Rat43",    "Bennett5",
};

static const char *
nist_path(const char *name, const char *ext)
{
	char rel[256];

	snprintf(rel, sizeof rel, "tests/nist/%s.%s", name, ext);
	return sf_test_path(rel);
}

static void
run_problem(const char *name, uint64_t seed, double *total_seconds,
            size_t *total_evaluations, size_t *passed)
{
	sf_model_set *set = NULL;
	sf_problem p;
	sf_fit_options o;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	certified c;
	sf_error err;
	double x[MAX_PARAMS], se[MAX_PARAMS], sse;
	double lre_rss, lre_x = 99, lre_se = 99;
	int lanczos1 = strcmp(name, "Lanczos1") == 0, ok, folded;

	CU_ASSERT_FATAL(load_certified(nist_path(name, "certified"), &c) == 0);
	CU_ASSERT_FATAL(sf_model_load(nist_path(name, "yaml"), &set, NULL, NULL,
	                              &err) == SF_OK);
	CU_ASSERT_FATAL(sf_problem_open(set->models[0], NULL,
	                                set->models[0]->fit.loss, NULL, NULL,
	                                &p, &err) == SF_OK);
	sf_fit_options_init(&o);
	o.has_seed = 1;
	o.seed = seed;
	CU_ASSERT_FATAL(sf_fit_run(p.model, p.data, p.formula, &o, &r, &err) ==
	                SF_OK);
	CU_ASSERT_FATAL(sf_stats_compute(p.formula, p.data, r, &s, &err) ==
	                SF_OK);
	CU_ASSERT_FATAL(r->nparams == c.k);

	for (size_t j = 0; j < c.k; j++) {
		x[j] = r->theta[j];
		se[j] = s->se[j];
	}
	sse = s->sse;
	folded = canonicalise(&c, x, se);
	if (folded) {
		/* The certified alias of the answer, polished from the
		 * folded point; its RSS must be the answer's. */
		sf_fit_result *a = NULL;
		sf_stats *as = NULL;

		o.warm_start = x;
		CU_ASSERT_FATAL(sf_fit_run(p.model, p.data, p.formula, &o, &a,
		                           &err) == SF_OK);
		CU_ASSERT_FATAL(
		    sf_stats_compute(p.formula, p.data, a, &as, &err) == SF_OK);
		CU_ASSERT(lre(as->sse, sse, c.rss_digits) >= 6);
		for (size_t j = 0; j < c.k; j++) {
			x[j] = a->theta[j];
			se[j] = as->se[j];
		}
		canonicalise(&c, x, se);
		sf_stats_free(as);
		sf_fit_result_free(a);
	}
	lre_rss = lre(sse, c.rss, c.rss_digits);
	for (size_t j = 0; j < c.k; j++) {
		double a = lre(x[j], c.value[j], c.digits[j]);
		double b = lre(se[j], c.sd[j], c.sd_digits[j]);
		lre_x = a < lre_x ? a : lre_x;
		lre_se = b < lre_se ? b : lre_se;
	}
	if (lanczos1)
		ok = sse <= 1e-22 && lre_x >= 6;
	else
		ok = lre_rss >= 6 && lre_x >= 6 && lre_se >= 4;
	printf("\n  %-9s %4llu %8zu %7.3f   %5.1f   %5.1f   %5.1f%s %s", name,
	       (unsigned long long)seed, r->evaluations, r->seconds, lre_rss,
	       lre_x, lre_se,
	       lanczos1 ? "*"
	       : folded ? "a"
	                : " ",
	       ok ? "ok" : "FAIL");
	*total_seconds += r->seconds;
	*total_evaluations += r->evaluations;
	*passed += ok;
	if (lanczos1) {
		CU_ASSERT(s->sse <= 1e-22);
		CU_ASSERT(lre_x >= 6);
	} else {
		CU_ASSERT(lre_rss >= 6);
		CU_ASSERT(lre_x >= 6);
		CU_ASSERT(lre_se >= 4);
	}

	sf_stats_free(s);
	sf_fit_result_free(r);
	sf_problem_close(&p);
	sf_model_set_free(set);
}

/* The seeds to run: $NIST_SEEDS as FIRST-LAST or one number (make nist
 * passes 1-8), else seed 1 alone (make check). */
static void
seed_range(uint64_t *first, uint64_t *last)
{
	const char *s = getenv("NIST_SEEDS");
	char *end;

	*first = *last = 1;
	if (s == NULL || *s == '\0')
		return;
	*first = *last = strtoull(s, &end, 10);
	if (*end == '-')
		*last = strtoull(end + 1, NULL, 10);
	if (*first < 1)
		*first = 1;
	if (*last < *first)
		*last = *first;
}

static void
test_campaign(void)
{
	enum { NPROBLEMS = sizeof problems / sizeof problems[0] };
	double seconds = 0;
	size_t passed = 0, runs = 0, evaluations = 0, misses[NPROBLEMS] = {0};
	uint64_t first, last;

	seed_range(&first, &last);
	printf("\n  %-9s %4s %8s %7s   %5s   %5s   %5s", "problem", "seed",
	       "evals", "seconds", "rss", "min b", "min se");
	for (uint64_t seed = first; seed <= last; seed++)
		for (size_t i = 0; i < NPROBLEMS; i++) {
			size_t before = passed;
			fflush(stdout);
			run_problem(problems[i], seed, &seconds, &evaluations,
			            &passed);
			misses[i] += passed == before;
			runs++;
		}
	printf("\n  %zu of %zu meet the targets (seeds %llu-%llu); %.2f s of "
	       "fitting"
	       ", %zu evaluations"
	       "\n  (LRE: correct significant digits; * Lanczos1's RSS is"
	       " checked against the double-precision floor; a: a period"
	       " folded from an alias, scored after a polish there; see the"
	       " source)",
	       passed, runs, (unsigned long long)first,
	       (unsigned long long)last, seconds, evaluations);
	for (size_t i = 0; i < NPROBLEMS; i++)
		if (misses[i] > 0)
			printf("\n  %-9s missed for %zu of %llu seeds",
			       problems[i], misses[i],
			       (unsigned long long)(last - first + 1));
	printf("\n");
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"27 NIST StRD problems: RSS, parameters, standard errors",
	     test_campaign},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"nist", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	/* As scalefit's main does: GSL reports, it does not abort. */
	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
