/*
 * test_scale.c - scaling studies (use/scale.c) and their charts
 * (sf_plot_study): which input counts workers, the time's unit, the
 * sweep's set-up from the options' texts and every way it is refused, the
 * table and the headline answers, the measured points, warnings, text
 * pieces and the JSON document.
 *
 * The numbers are those of tests/data/fit/simple.json, worked out by hand
 * at the top of test_predict.c: at n = 1, T(p) = 1 + 64 / p + p, least at
 * p = 8 (T = 17); communication (p) exceeds compute (64 / p) from p = 9
 * on; efficiency against p = 1 is 66 / (p^2 + p + 64), >= 50% up to p = 7;
 * at 3.6 per worker-hour and T in seconds the cost (p^2 + p + 64) / 1000
 * is least at p = 1 (0.066).  p was fitted over [2, 16], n over [1, 1].
 */
#include "use/fitfile.h"
#include "use/plot.h"
#include "use/scale.h"
#include "use/svg.h"
#include "testing.h"

#include <math.h>
#include <string.h>

#define CLOSE(x, y, tol) CU_ASSERT_DOUBLE_EQUAL((x), (y), (tol))

/* A fit of T = a with the given inputs ({"name": "column", ...}) and
 * output, made in memory. */
static sf_fitfile *
fit_with(const char *inputs, const char *output)
{
	char text[512];
	sf_fitfile *f = NULL;
	sf_error err;
	int rc;

	snprintf(text, sizeof text,
	         "{\"model\": {\"time\": \"a\", \"terms\": {}, \"inputs\": "
	         "%s, \"output\": \"%s\"},\n \"parameters\": {\"a\": "
	         "{\"value\": 1}}}",
	         inputs, output);
	rc = sf_fitfile_parse(text, strlen(text), "made.json", &f, &err);
	if (rc != SF_OK)
		fprintf(stderr, "%s: %s\n", inputs, err.message);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return f;
}

/* A request over `over` with nothing else given. */
static sf_scale_request
request(const char *over)
{
	sf_scale_request q;

	memset(&q, 0, sizeof q);
	q.over = over;
	q.price = NAN;
	return q;
}

/* Set up q on f, which must succeed. */
static sf_scale *
set_up(const sf_fitfile *f, const sf_scale_request *q)
{
	sf_scale *sc = NULL;
	sf_error err;
	int rc = sf_scale_new(f, q, &sc, &err);

	if (rc != SF_OK)
		fprintf(stderr, "%s: %s\n", q->over, err.message);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return sc;
}

/* Set up and run q on f, which must succeed. */
static sf_scale *
run(const sf_fitfile *f, const sf_scale_request *q)
{
	sf_scale *sc = set_up(f, q);

	CU_ASSERT_EQUAL_FATAL(sf_scale_run(sc, NULL), SF_OK);
	return sc;
}

/* ---- workers and units ----------------------------------------------------
 */

static void
test_worker_input(void)
{
	static const struct {
		const char *inputs;
		size_t want;
	} cases[] = {
	    /* p wins over an input that looks like workers */
	    {"{\"gpus\": \"g\", \"p\": \"x\"}", 1},
	    /* else the first name or column that starts with a word */
	    {"{\"n\": \"samples\", \"g\": \"GPUs\"}", 1},
	    {"{\"Nodes\": \"x\", \"cores\": \"y\"}", 0},
	    {"{\"n\": \"samples\", \"ranks\": \"x\"}", 1},
	    {"{\"n\": \"samples\", \"w\": \"replicas\"}", 1},
	    /* a word inside a name is not a start */
	    {"{\"n\": \"samples\", \"mygpu\": \"x\"}", SF_FITFILE_NONE},
	    {"{\"n\": \"samples\"}", SF_FITFILE_NONE},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_fitfile *f = fit_with(cases[k].inputs, "time");

		CU_ASSERT_EQUAL(sf_scale_worker_input(f), cases[k].want);
		sf_fitfile_free(f);
	}
}

static void
test_units(void)
{
	static const struct {
		const char *output, *unit;
		int guessed;
	} cases[] = {
	    {"time_s", "s", 1},   {"epoch_ms", "ms", 1},
	    {"step_SEC", "s", 1}, {"train_seconds", "s", 1},
	    {"t_min", "min", 1},  {"Minutes", "min", 1},
	    {"wall_h", "h", 1},   {"job_hours", "h", 1},
	    {"time", "s", 0},     {"ms", "s", 0},
	    {"", "s", 0},         {"hrs", "s", 0},
	};
	static const struct {
		const char *unit, *name;
		double hours;
	} units[] = {
	    {"s", "seconds", 1 / 3600.0},
	    {"ms", "milliseconds", 1 / 3600000.0},
	    {"min", "minutes", 1 / 60.0},
	    {"h", "hours", 1},
	    {"fortnight", "seconds", 1 / 3600.0},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int guessed = -1;
		const char *unit =
		    sf_scale_guess_unit(cases[k].output, &guessed);

		CU_ASSERT_STRING_EQUAL(unit, cases[k].unit);
		CU_ASSERT_EQUAL(guessed, cases[k].guessed);
	}
	for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
		CLOSE(sf_scale_hours_per(units[k].unit), units[k].hours,
		      1e-15 * units[k].hours);
		CU_ASSERT_STRING_EQUAL(sf_scale_unit_name(units[k].unit),
		                       units[k].name);
	}
	for (size_t k = 0; k < SF_SCALE_UNITS; k++)
		CU_ASSERT_STRING_EQUAL(sf_scale_unit_name(sf_scale_units[k]),
		                       units[k].name);
}

/* ---- set-up ---------------------------------------------------------------
 */

static void
check_points(const sf_scale *sc, const double *want, size_t n)
{
	CU_ASSERT_EQUAL(sc->n, n);
	for (size_t k = 0; k < n && k < sc->n; k++)
		CLOSE(sc->x[k], want[k], 1e-12 * fabs(want[k]));
	CU_ASSERT_EQUAL(sc->lo, want[0]);
	CU_ASSERT_EQUAL(sc->hi, want[n - 1]);
}

static void
test_grid(void)
{
	static const double doubling[] = {1, 2, 4, 8, 16, 32, 64};
	static const double whole[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
	static const double five[] = {1, 17, 32, 48, 64};
	static const double nice[] = {0.1, 0.2, 0.5, 1, 2, 5, 10};
	static const double list[] = {1, 3, 9};
	static const char *const set_p8[] = {"p=8"};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc = set_up(f, &q);

	/* A worker sweep: whole values doubling, log-spaced; n keeps the
	 * single value it had in the fit; no table until run. */
	check_points(sc, doubling, 7);
	CU_ASSERT_EQUAL(sc->s.var, 0);
	CU_ASSERT_TRUE(sc->s.workers && sc->s.integer && sc->s.log);
	CU_ASSERT_EQUAL(sc->s.worker_input, 0);
	CU_ASSERT_PTR_EQUAL(sc->s.base, sc->base);
	CU_ASSERT_EQUAL(sc->base[1], 1);
	CU_ASSERT_STRING_EQUAL(sc->unit, "s"); /* epoch_s */
	CU_ASSERT_TRUE(sc->unit_guessed);
	CU_ASSERT_TRUE(sc->efficiency_panel);
	CU_ASSERT_PTR_NULL(sc->table);
	sf_scale_free(sc);

	q = request("p=2:12"); /* under 10x: linear, every whole value */
	sc = set_up(f, &q);
	check_points(sc, whole, 11);
	CU_ASSERT_FALSE(sc->s.log);
	sf_scale_free(sc);

	q = request("p=1:64"); /* --points 5 --linear: rounded */
	q.points = 5;
	q.spacing = SF_SWEEP_LINEAR;
	sc = set_up(f, &q);
	check_points(sc, five, 5);
	sf_scale_free(sc);

	q = request("n=0.1:10"); /* a real log sweep: 1, 2, 5 x 10^k */
	q.set = set_p8;
	q.nset = 1;
	q.time_unit = "min";
	q.panel = SF_SCALE_PANEL_SHARES;
	sc = set_up(f, &q);
	check_points(sc, nice, 7);
	CU_ASSERT_EQUAL(sc->s.var, 1);
	CU_ASSERT_FALSE(sc->s.workers || sc->s.integer);
	CU_ASSERT_EQUAL(sc->s.worker_input, 0);
	CU_ASSERT_EQUAL(sc->base[0], 8);
	CU_ASSERT_STRING_EQUAL(sc->unit, "min");
	CU_ASSERT_FALSE(sc->unit_guessed);
	CLOSE(sc->s.hours_per_unit, 1 / 60.0, 1e-17);
	CU_ASSERT_FALSE(sc->efficiency_panel);
	sf_scale_free(sc);

	q = request("p=9,1,3"); /* a list: sorted, exactly those values */
	sc = set_up(f, &q);
	check_points(sc, list, 3);
	CU_ASSERT_TRUE(sc->s.workers);
	sf_scale_free(sc);

	q = request("n=2.5,0.5"); /* not the worker count: any values */
	q.set = set_p8;
	q.nset = 1;
	sc = set_up(f, &q);
	CU_ASSERT_EQUAL(sc->n, 2);
	CU_ASSERT_EQUAL(sc->x[0], 0.5);
	sf_scale_free(sc);

	q = request("p=1:64"); /* another worker count: no worker sweep */
	q.workers = "n";
	q.panel = SF_SCALE_PANEL_SHARES;
	sc = set_up(f, &q);
	CU_ASSERT_EQUAL(sc->s.worker_input, 1);
	CU_ASSERT_FALSE(sc->s.workers);
	CU_ASSERT_TRUE(sc->s.integer); /* every fitted p was whole */
	CU_ASSERT_FALSE(sc->efficiency_panel);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* Every refusal: the code, and words its message must hold. */
static void
test_refusals(void)
{
	static const struct {
		const char *fit, *over, *set, *workers, *unit;
		sf_sweep_spacing spacing;
		double price;
		sf_scale_panel panel;
		int rc;
		const char *words;
	} cases[] = {
	    {"simple", NULL, NULL, NULL, NULL, 0, NAN, 0, SF_EUSAGE,
	     "no --over"},
	    {"simple", "p", NULL, NULL, NULL, 0, NAN, 0, SF_ESYNTAX,
	     "--over 'p' is not NAME=LO:HI"},
	    {"simple", "=1:3", NULL, NULL, NULL, 0, NAN, 0, SF_ESYNTAX,
	     "--over '=1:3' is not NAME=LO:HI"},
	    {"simple", "q=1:8", NULL, NULL, NULL, 0, NAN, 0, SF_ENAME,
	     "--over 'q=1:8': unknown input 'q'; did you mean 'p'?"},
	    {"ddp", "model=1:2", "b=32,n=1", NULL, NULL, 0, NAN, 0, SF_ETYPE,
	     "model is a text input; a sweep needs a number"},
	    {"simple", "p=1:x", NULL, NULL, NULL, 0, NAN, 0, SF_ESYNTAX,
	     "--over 'p=1:x': 'x' is not a number (for p)"},
	    {"simple", "p=1,x", NULL, NULL, NULL, 0, NAN, 0, SF_ESYNTAX,
	     "'x' is not a number (for p) (give NAME=LO:HI or "
	     "NAME=V1,V2,...)"},
	    {"simple", "p=", NULL, NULL, NULL, 0, NAN, 0, SF_ESYNTAX,
	     "--over 'p=': "},
	    {"simple", "p=8:1", NULL, NULL, NULL, 0, NAN, 0, SF_EVALUE,
	     "--over 'p=8:1': the range is empty (8 > 1)"},
	    {"simple", "n=1:2", "p=2,nn=3", NULL, NULL, 0, NAN, 0, SF_ENAME,
	     "--set 'p=2,nn=3': unknown input 'nn'; did you mean 'n'?"},
	    {"simple", "p=1:8", "p=2", NULL, NULL, 0, NAN, 0, SF_EUSAGE,
	     "p is swept by --over: leave it out of --set"},
	    {"ddp", "p=1:8", "n=1,model=cnn", NULL, NULL, 0, NAN, 0, SF_EUSAGE,
	     "no value for input b: give --set b=VALUE"},
	    {"ddp", "p=1:8", "b=32,n=1", NULL, NULL, 0, NAN, 0, SF_EUSAGE,
	     "give --set model=VALUE (it was 'cnn' ... 'rnn' in the fit)"},
	    {"simple", "n=1:8", "p=2", "zz", NULL, 0, NAN, 0, SF_ENAME,
	     "--workers: unknown input 'zz'"},
	    {"simple", "p=1.5:8", NULL, NULL, NULL, 0, NAN, 0, SF_EVALUE,
	     "--over 'p=1.5:8': p counts workers, so its range needs whole "
	     "numbers >= 1"},
	    {"simple", "p=0:8", NULL, NULL, NULL, 0, NAN, 0, SF_EVALUE,
	     "whole numbers >= 1"},
	    /* every value of a list over the worker count, not only its
	       ends, is a whole number >= 1 */
	    {"simple", "p=1,2.5,4", NULL, NULL, NULL, 0, NAN, 0, SF_EVALUE,
	     "--over 'p=1,2.5,4': p counts workers, so its values need to "
	     "be whole numbers >= 1, not 2.5"},
	    {"simple", "p=16,3,1.5,2.5", NULL, NULL, NULL, 0, NAN, 0, SF_EVALUE,
	     "whole numbers >= 1, not 1.5"},
	    {"simple", "p=0,2,4", NULL, NULL, NULL, 0, NAN, 0, SF_EVALUE,
	     "whole numbers >= 1, not 0"},
	    {"simple", "n=0:8", "p=2", NULL, NULL, SF_SWEEP_LOG, NAN, 0,
	     SF_EVALUE, "--log needs a range above 0, not from 0"},
	    {"simple", "p=1:8", NULL, NULL, "fortnight", 0, NAN, 0, SF_EVALUE,
	     "unknown --unit 'fortnight'"},
	    {"simple", "n=1:8", "p=2", NULL, NULL, 0, NAN,
	     SF_SCALE_PANEL_EFFICIENCY, SF_EUSAGE,
	     "--panel efficiency needs a sweep over the worker count"},
	};
	sf_fitfile *simple = sf_test_fitfile("fit/simple.json");
	sf_fitfile *ddp = sf_test_fitfile("fit/ddp.json");
	sf_fitfile *none = fit_with("{\"n\": \"samples\"}", "time");
	sf_scale_request q;
	sf_scale *sc;
	sf_error err;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *set[1] = {cases[k].set};

		q = request(cases[k].over);
		q.set = set;
		q.nset = cases[k].set != NULL;
		q.workers = cases[k].workers;
		q.time_unit = cases[k].unit;
		q.spacing = cases[k].spacing;
		q.price = cases[k].price;
		q.panel = cases[k].panel;
		sc = (sf_scale *)&q; /* must become NULL */
		CU_ASSERT_EQUAL(sf_scale_new(strcmp(cases[k].fit, "ddp") == 0
		                                 ? ddp
		                                 : simple,
		                             &q, &sc, &err),
		                cases[k].rc);
		CU_ASSERT_EQUAL(err.code, cases[k].rc);
		CU_ASSERT_PTR_NULL(sc);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].words));
		if (strstr(err.message, cases[k].words) == NULL)
			fprintf(stderr, "\ncase %zu: %s\n", k, err.message);
	}
	/* --cost needs an input counting workers; without --cost none is
	 * needed. */
	q = request("n=1:8");
	q.price = 2;
	CU_ASSERT_EQUAL(sf_scale_new(none, &q, &sc, &err), SF_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "--cost needs the worker "
	                                           "count: no input is called "
	                                           "p or looks like one"));
	q.price = NAN;
	CU_ASSERT_EQUAL_FATAL(sf_scale_new(none, &q, &sc, &err), SF_OK);
	CU_ASSERT_EQUAL(sc->s.worker_input, SF_FITFILE_NONE);
	sf_scale_free(sc);
	sf_scale_free(NULL);
	sf_fitfile_free(none);
	sf_fitfile_free(ddp);
	sf_fitfile_free(simple);
}

/* ---- the answers ------------------------------------------------------------
 */

static void
test_answers(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc;
	const sf_sweep_answers *a;

	q.price = 3.6;
	sc = run(f, &q);
	a = &sc->answers;
	for (size_t k = 0; k < sc->n; k++) {
		double x = sc->x[k], t = 1 + 64 / x + x;

		CLOSE(sc->table->pred->points[k].time, t, 1e-12);
		CLOSE(sc->table->efficiency[k], 66 / (x * t), 1e-12);
		CLOSE(sc->table->cost[k], 3.6 * x * t / 3600, 1e-12);
	}
	CU_ASSERT_EQUAL(a->searched, 64);
	CU_ASSERT_TRUE(a->every_whole);
	CU_ASSERT_EQUAL(a->fastest, 8);
	CLOSE(a->fastest_time, 17, 1e-12);
	CU_ASSERT_EQUAL(a->efficient, 7);
	CU_ASSERT_EQUAL(a->crossover, SF_SWEEP_CROSS_AT);
	CU_ASSERT_FALSE(a->comm_first);
	CU_ASSERT_EQUAL(a->crossover_x, 9);
	CU_ASSERT_EQUAL(a->cheapest, 1);
	CLOSE(a->cheapest_cost, 0.066, 1e-12);
	CLOSE(a->cheapest_time, 66, 1e-12);
	/* Running again gives the same. */
	CU_ASSERT_EQUAL_FATAL(sf_scale_run(sc, NULL), SF_OK);
	CU_ASSERT_EQUAL(sc->answers.fastest, 8);
	sf_scale_free(sc);

	/* The time in minutes: sixty times the cost. */
	q.time_unit = "min";
	sc = run(f, &q);
	CU_ASSERT_EQUAL(sc->answers.cheapest, 1);
	CLOSE(sc->answers.cheapest_cost, 3.96, 1e-12);
	sf_scale_free(sc);

	/* From p = 10 on communication leads throughout. */
	q = request("p=10:64");
	sc = run(f, &q);
	CU_ASSERT_EQUAL(sc->answers.crossover, SF_SWEEP_CROSS_NEVER);
	CU_ASSERT_TRUE(sc->answers.comm_first);
	CU_ASSERT_EQUAL(sc->answers.fastest, 10);
	CU_ASSERT(isnan(sc->answers.cheapest));
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* Along n at p = 8: compute 8 n overtakes communication 8 at n = 1. */
static void
test_answers_real(void)
{
	static const char *const set[] = {"p=8"};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("n=0.1:10");
	sf_scale *sc;

	q.set = set;
	q.nset = 1;
	sc = run(f, &q);
	/* The grid and the table's points not on it. */
	CU_ASSERT(sc->answers.searched >= SF_SWEEP_DENSE_POINTS &&
	          sc->answers.searched <= SF_SWEEP_DENSE_POINTS + sc->n);
	CU_ASSERT_FALSE(sc->answers.every_whole);
	CU_ASSERT_EQUAL(sc->answers.crossover, SF_SWEEP_CROSS_AT);
	CU_ASSERT_TRUE(sc->answers.comm_first);
	CLOSE(sc->answers.crossover_x, 1, 1e-12);
	CU_ASSERT(isnan(sc->answers.efficient));
	CU_ASSERT_PTR_NULL(sc->table->speedup);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* A fit of T = a / p + c made in memory, with c chosen so that the
 * efficiency 1 / (1 + 15 c) at p = 16 is 50.1% (49.8% at 17). */
static sf_fitfile *
fit_half_at_16(void)
{
	char text[512];
	sf_fitfile *f = NULL;
	double c = (1 / 0.501 - 1) / 15;
	int rc;

	snprintf(text, sizeof text,
	         "{\"model\": {\"time\": \"a / p + c\", \"terms\": {}, "
	         "\"inputs\": {\"p\": \"workers\"}},\n \"parameters\": "
	         "{\"a\": {\"value\": %.17g}, \"c\": {\"value\": %.17g}}}",
	         1 - c, c);
	rc = sf_fitfile_parse(text, strlen(text), "half.json", &f, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return f;
}

/* Issue 13's absurd ranges: the answers agree with the rows shown. */
static void
test_answers_consistent(void)
{
	sf_fitfile *f = fit_half_at_16();
	sf_scale_request q = request("p=1:1e200");
	sf_scale *sc = run(f, &q);
	size_t row16 = sc->n;

	/* The table shows p = 16 at >= 50%; the search's grid alone has 15
	 * and 17 around it. */
	for (size_t k = 0; k < sc->n; k++)
		if (sc->x[k] == 16)
			row16 = k;
	CU_ASSERT_FATAL(row16 < sc->n);
	CU_ASSERT(sc->table->efficiency[row16] >= 0.5);
	CU_ASSERT_FALSE(sc->answers.listed);
	CU_ASSERT_EQUAL(sc->answers.efficient, 16);
	sf_scale_free(sc);

	/* A list: the answers are among its values. */
	q = request("p=1,1e300");
	sc = run(f, &q);
	CU_ASSERT_TRUE(sc->answers.listed);
	CU_ASSERT_EQUAL(sc->answers.searched, 2);
	CU_ASSERT_EQUAL(sc->answers.fastest, 1e300);
	CU_ASSERT_EQUAL(sc->answers.efficient, 1);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* ---- measured points, warnings, text ---------------------------------------
 */

static void
test_measured(void)
{
	static const struct {
		const char *over, *set;
		size_t n;
		double first_x, first_y;
	} cases[] = {
	    {"p=1:64", NULL, 4, 2, 35.5}, /* the null observation left out */
	    {"p=3:8", NULL, 2, 4, 20.5},  /* within the range only */
	    {"p=1:64", "n=1.0000000000001", 4, 2, 35.5}, /* rounding */
	    {"p=1:64", "n=2", 0, 0, 0},                  /* other n */
	    {"n=0.5:4", "p=8", 1, 1, 17.2},
	};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	double mx[8], my[8];

	CU_ASSERT_FATAL(f->nmeasured <= 8);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *set[1] = {cases[k].set};
		sf_scale_request q = request(cases[k].over);
		sf_scale *sc;
		size_t n;

		q.set = set;
		q.nset = cases[k].set != NULL;
		sc = set_up(f, &q);
		n = sf_scale_measured(sc, mx, my);
		CU_ASSERT_EQUAL(n, cases[k].n);
		if (n > 0) {
			CU_ASSERT_EQUAL(mx[0], cases[k].first_x);
			CU_ASSERT_EQUAL(my[0], cases[k].first_y);
		}
		sf_scale_free(sc);
	}
	sf_fitfile_free(f);
}

static void
test_warnings(void)
{
	static const char *const n5[] = {"n=5"};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc = set_up(f, &q);
	sf_test_warnings w = {0};

	sf_scale_warn(sc, sf_test_warn, &w);
	CU_ASSERT_EQUAL_FATAL(w.count, 1);
	CU_ASSERT_EQUAL(w.w[0].code, SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(w.w[0].file, "fit/simple.json"));
	CU_ASSERT_STRING_EQUAL(w.w[0].message,
	                       "p from 1 to 64 reaches outside its fitted "
	                       "range [2, 16]: the points outside it are "
	                       "extrapolations");
	sf_scale_warn(sc, NULL, NULL);
	sf_scale_free(sc);

	q = request("p=4:8"); /* inside */
	sc = set_up(f, &q);
	memset(&w, 0, sizeof w);
	sf_scale_warn(sc, sf_test_warn, &w);
	CU_ASSERT_EQUAL(w.count, 0);
	sf_scale_free(sc);

	q = request("p=1:8");
	q.set = n5;
	q.nset = 1;
	sc = set_up(f, &q);
	memset(&w, 0, sizeof w);
	sf_scale_warn(sc, sf_test_warn, &w);
	CU_ASSERT_EQUAL_FATAL(w.count, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(w.w[1].file, "fit/simple.json"));
	CU_ASSERT_STRING_EQUAL(w.w[1].message,
	                       "n = 5 lies outside its fitted range [1, 1]: "
	                       "every point is an extrapolation");
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

static void
test_text(void)
{
	static const char *const set[] = {"b=32,n=1.28e6,model=rnn"};
	sf_fitfile *simple = sf_test_fitfile("fit/simple.json");
	sf_fitfile *ddp = sf_test_fitfile("fit/ddp.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc = set_up(simple, &q);
	char text[256];

	sf_scale_fixed_text(sc, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "n = 1");
	sf_scale_free(sc);
	q.set = set;
	q.nset = 1;
	sc = set_up(ddp, &q);
	sf_scale_fixed_text(sc, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "b = 32, n = 1.28e+06, model = rnn");
	sf_scale_fixed_text(sc, text, 10); /* cut, still terminated */
	CU_ASSERT_STRING_EQUAL(text, "b = 32, n");
	sf_scale_free(sc);

	sf_scale_kind_terms(simple, SF_TERM_COMMUNICATION, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "comm");
	sf_scale_kind_terms(simple, SF_TERM_COMPUTE, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "compute");
	/* ddp's steps is a building block: it counts for no kind. */
	sf_scale_kind_terms(ddp, SF_TERM_COMPUTE, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "compute");
	sf_scale_kind_terms(ddp, SF_TERM_IO, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "");
	sf_fitfile_free(ddp);
	sf_fitfile_free(simple);
}

/* ---- JSON -------------------------------------------------------------------
 */

static void
test_json(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc;
	json_t *root, *pt, *a;
	char keys[512];

	q.price = 3.6;
	sc = run(f, &q);
	root = sf_scale_json(sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	sf_test_keys(root, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "fit model output variable column workers "
	                             "spacing range fixed band level_percent "
	                             "dof t bootstrap_samples time_unit "
	                             "time_is_sum_of_terms price points "
	                             "answers");
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(root, "variable")), "p");
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(root, "column")), "workers");
	CU_ASSERT_TRUE(json_is_true(json_object_get(root, "workers")));
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(root, "spacing")), "log");
	CU_ASSERT_EQUAL(json_number_value(
	                    json_array_get(json_object_get(root, "range"), 1)),
	                64);
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(root, "fixed"), "n"), 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "band")),
	                       "delta");
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(root, "time_unit")), "s");
	CU_ASSERT_EQUAL(sf_test_number(root, "price"), 3.6);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(root, "points")), 7);

	pt = json_array_get(json_object_get(root, "points"), 3); /* p = 8 */
	sf_test_keys(pt, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "p time ci95 speedup efficiency cost "
	                             "terms shares kinds extrapolated");
	CU_ASSERT_EQUAL(sf_test_number(pt, "p"), 8);
	CU_ASSERT_EQUAL(sf_test_number(pt, "time"), 17);
	CLOSE(sf_test_number(pt, "efficiency"), 66.0 / (8 * 17), 1e-12);
	CLOSE(sf_test_number(pt, "cost"), 3.6 * 8 * 17 / 3600, 1e-12);
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(pt, "terms"), "comm"),
	                8);
	CLOSE(sf_test_number(json_object_get(pt, "shares"), "compute"),
	      8.0 / 17, 1e-12);
	CU_ASSERT_PTR_NOT_NULL(
	    json_object_get(json_object_get(pt, "shares"), "rest"));
	CU_ASSERT_EQUAL(
	    sf_test_number(json_object_get(pt, "kinds"), "communication"), 8);
	CU_ASSERT_TRUE(json_is_false(json_object_get(pt, "extrapolated")));
	pt = json_array_get(json_object_get(root, "points"), 0); /* p = 1 */
	CU_ASSERT_TRUE(json_is_true(json_object_get(pt, "extrapolated")));

	a = json_object_get(root, "answers");
	sf_test_keys(a, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "searched fastest efficient_up_to "
	                             "crossover cheapest highest_throughput "
	                             "knee");
	CU_ASSERT_TRUE(json_is_null(json_object_get(a, "knee")));
	CU_ASSERT_EQUAL(sf_test_number(a, "searched"), 64);
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(a, "fastest"), "x"), 8);
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(a, "fastest"), "time"),
	                17);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(
	                    json_object_get(a, "fastest"), "ci95")),
	                2);
	CU_ASSERT_EQUAL(sf_test_number(a, "efficient_up_to"), 7);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
	                           json_object_get(a, "crossover"), "state")),
	                       "at");
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(a, "crossover"), "x"),
	                9);
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(json_object_get(a, "crossover"),
	                                      "first_leader")),
	    "compute");
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(a, "cheapest"), "x"), 1);
	CLOSE(sf_test_number(json_object_get(a, "cheapest"), "cost"), 0.066,
	      1e-12);
	json_decref(root);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* Not a worker sweep, no price, bootstrap replicates. */
static void
test_json_other(void)
{
	static const char *const set[] = {"p=8"};
	sf_fitfile *f = sf_test_fitfile("fit/bootstrap.json");
	sf_scale_request q = request("n=1:4");
	sf_scale *sc;
	json_t *root, *pt, *a;
	char keys[512];

	q.set = set;
	q.nset = 1;
	q.time_unit = "ms";
	sc = run(f, &q);
	root = sf_scale_json(sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_TRUE(json_is_false(json_object_get(root, "workers")));
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(root, "time_unit")), "ms");
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(root, "spacing")), "linear");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "band")),
	                       "bootstrap");
	CU_ASSERT_EQUAL(sf_test_number(root, "bootstrap_samples"), 5);
	CU_ASSERT_TRUE(json_is_null(json_object_get(root, "price")));
	pt = json_array_get(json_object_get(root, "points"), 0);
	sf_test_keys(pt, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "n time ci95 ci95_bootstrap terms shares "
	                             "kinds extrapolated");
	a = json_object_get(root, "answers");
	CU_ASSERT_TRUE(json_is_null(json_object_get(a, "efficient_up_to")));
	CU_ASSERT_TRUE(json_is_null(json_object_get(a, "cheapest")));
	/* The answer's band is the bootstrap's, as the point's shown one. */
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(a, "fastest"), "x"), 1);
	CU_ASSERT_TRUE(
	    json_equal(json_object_get(json_object_get(a, "fastest"), "ci95"),
	               json_object_get(pt, "ci95_bootstrap")));
	json_decref(root);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* T = t0 + steps * step_time, the product of issue 16: steps = 100 / p
 * and step_time = 2 p^0.5, so T = 1 + 200 / sqrt(p).  Also the sum
 * compute + comm, whose shares are shown. */
static sf_fitfile *
fit_formula(const char *time, const char *terms)
{
	char text[768];
	sf_fitfile *f = NULL;
	int rc;

	snprintf(text, sizeof text,
	         "{\"model\": {\"time\": \"%s\", \"terms\": %s, "
	         "\"inputs\": {\"p\": \"workers\"}},\n \"parameters\": "
	         "{\"t0\": {\"value\": 1}, \"a\": {\"value\": 100}, "
	         "\"c\": {\"value\": 2}}}",
	         time, terms);
	rc = sf_fitfile_parse(text, strlen(text), "formula.json", &f, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return f;
}

static void
test_not_a_sum(void)
{
	sf_fitfile *f =
	    fit_formula("t0 + steps * step_time",
	                "{\"steps\": \"a / p\", \"step_time\": \"c * p^0.5\"}");
	sf_scale_request q = request("p=1:16");
	sf_scale *sc;
	sf_svg *svg = NULL;
	json_t *root, *pt;
	const char *text;

	CU_ASSERT_FALSE(f->terms_sum);
	q.panel = SF_SCALE_PANEL_SHARES;
	sc = run(f, &q);
	/* No shares: no 6085% for the step count. */
	for (size_t k = 0; k < sc->n; k++) {
		CU_ASSERT(isnan(sc->table->share[k]));
		CU_ASSERT(isnan(sc->table->share[sc->n + k]));
	}
	CU_ASSERT_FALSE(sf_sweep_rest_matters(sc->table));
	root = sf_scale_json(sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_TRUE(
	    json_is_false(json_object_get(root, "time_is_sum_of_terms")));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "note")),
	                       SF_SCALE_NOT_SUM);
	pt = json_array_get(json_object_get(root, "points"), 0);
	CU_ASSERT_TRUE(json_is_null(json_object_get(pt, "shares")));
	CLOSE(sf_test_number(json_object_get(pt, "terms"), "steps"), 100,
	      1e-12);
	CLOSE(sf_test_number(json_object_get(pt, "terms"), "step_time"), 2,
	      1e-12);
	json_decref(root);
	/* The chart draws the values as lines, with the note. */
	CU_ASSERT_EQUAL_FATAL(sf_plot_study(sc, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">" SF_SCALE_NOT_SUM "<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">value of each term<"));
	CU_ASSERT_PTR_NULL(strstr(text, "share of time"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">step_time<"));
	sf_svg_free(svg);
	sf_scale_free(sc);
	sf_fitfile_free(f);

	/* A sum with a constant remainder: shares, and the rest. */
	f = fit_formula("t0 + (compute + comm)",
	                "{\"compute\": \"a / p\", \"comm\": \"c * p\"}");
	CU_ASSERT_TRUE(f->terms_sum);
	sc = run(f, &q);
	/* at p = 1: T = 103, compute 100 */
	CLOSE(sc->table->share[0], 100.0 / 103, 1e-12);
	CLOSE(sc->table->rest[0], 1.0 / 103, 1e-12);
	root = sf_scale_json(sc);
	CU_ASSERT_TRUE(
	    json_is_true(json_object_get(root, "time_is_sum_of_terms")));
	CU_ASSERT_PTR_NULL(json_object_get(root, "note"));
	json_decref(root);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* An epoch of n samples at p workers and b per worker: T = n / (p b) (s +
 * c b), s = 1, c = 0.01; measured at b = `b1`, 16, 32, 64.  At p = 4, n =
 * 1000 the throughput n / T = 4 / (1 / b + 0.01) is highest at the top
 * of the range and within 5% of that from b = 1277 on (4096: 97.62). */
static sf_fitfile *
fit_batch(int b1)
{
	char text[1024];
	sf_fitfile *f = NULL;
	int rc;

	snprintf(text, sizeof text,
	         "{\"model\": {\"time\": \"n / (p * b) * (s + c * b)\", "
	         "\"terms\": {}, \"inputs\": {\"p\": \"workers\", \"b\": "
	         "\"batch_per_worker\", \"n\": \"samples\"}},\n"
	         " \"parameters\": {\"s\": {\"value\": 1}, \"c\": {\"value\": "
	         "0.01}},\n \"residuals\": ["
	         "{\"inputs\": {\"p\": 4, \"b\": %d, \"n\": 1000}, "
	         "\"observed\": 1},"
	         "{\"inputs\": {\"p\": 4, \"b\": 16, \"n\": 1000}, "
	         "\"observed\": 1},"
	         "{\"inputs\": {\"p\": 4, \"b\": 32, \"n\": 1000}, "
	         "\"observed\": 1},"
	         "{\"inputs\": {\"p\": 4, \"b\": 64, \"n\": 1000}, "
	         "\"observed\": 1}]}",
	         b1);
	rc = sf_fitfile_parse(text, strlen(text), "batch.json", &f, NULL);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return f;
}

static void
test_batch(void)
{
	static const char *const set[] = {"p=4,n=1000"};
	sf_fitfile *f = fit_batch(8);
	sf_scale_request q = request("b=1:4096");
	sf_scale *sc;
	sf_svg *svg = NULL;
	json_t *root, *a;
	int pow2;

	CU_ASSERT_EQUAL(sf_scale_batch_input(f), 1);
	CU_ASSERT_EQUAL(sf_scale_samples_input(f), 2);
	CU_ASSERT_TRUE(sf_scale_whole_input(f, 1, &pow2));
	CU_ASSERT_TRUE(pow2);
	q.set = set;
	q.nset = 1;
	sc = run(f, &q);
	/* The table on powers of two, 1 to 4096, and the answers too. */
	CU_ASSERT_EQUAL(sc->n, 13);
	for (size_t k = 0; k < sc->n; k++)
		CU_ASSERT_EQUAL(sc->x[k], ldexp(1, (int)k));
	CU_ASSERT_TRUE(sc->answers.on_pow2);
	CU_ASSERT_EQUAL(sc->answers.searched, 13);
	CU_ASSERT_EQUAL(sc->answers.best_x, 4096);
	CLOSE(sc->answers.best_throughput, 4 / (1 / 4096.0 + 0.01), 1e-9);
	CU_ASSERT_EQUAL(sc->answers.knee, 2048);
	CLOSE(sc->answers.knee_throughput, 4 / (1 / 2048.0 + 0.01), 1e-9);
	root = sf_scale_json(sc);
	a = json_object_get(json_object_get(root, "answers"), "knee");
	CU_ASSERT_EQUAL(sf_test_number(a, "x"), 2048);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(a, "samples")),
	                       "n / time");
	json_decref(root);
	CU_ASSERT_EQUAL_FATAL(sf_plot_study(sc, &svg, NULL), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(sf_svg_text_of(svg, NULL),
	           ">knee: b = 2048 (within 5% of the highest throughput)<"));
	sf_svg_free(svg);
	sf_scale_free(sc);
	sf_fitfile_free(f);

	/* Whole but not powers of two (24): 1-2-5 and every whole value;
	 * the knee is then 1277. */
	f = fit_batch(24);
	CU_ASSERT_TRUE(sf_scale_whole_input(f, 1, &pow2));
	CU_ASSERT_FALSE(pow2);
	sc = run(f, &q);
	CU_ASSERT_EQUAL(sc->x[2], 5);
	CU_ASSERT_TRUE(sc->answers.every_whole);
	CU_ASSERT_EQUAL(sc->answers.knee, 1277);
	sf_scale_free(sc);

	/* A throughput that overflows (1e308 samples in 1 ms) is refused,
	 * not answered as inf. */
	{
		static const char text[] =
		    "{\"model\": {\"time\": \"t0 + c * n / (p * b)\", "
		    "\"terms\": {}, \"inputs\": {\"p\": \"workers\", "
		    "\"b\": \"batch\", \"n\": \"samples\"}},\n"
		    " \"parameters\": {\"t0\": {\"value\": 1}, \"c\": "
		    "{\"value\": 0}}}";
		static const char *const huge[] = {"p=4,n=1e308"};
		sf_fitfile *flat = NULL;
		sf_scale *bad;
		sf_error err;

		CU_ASSERT_EQUAL_FATAL(sf_fitfile_parse(text, strlen(text),
		                                       "flat.json", &flat,
		                                       NULL),
		                      SF_OK);
		q = request("b=1:64");
		q.set = huge;
		q.nset = 1;
		q.time_unit = "ms";
		bad = set_up(flat, &q);
		CU_ASSERT_EQUAL(sf_scale_run(bad, &err), SF_EVALUE);
		CU_ASSERT_PTR_NOT_NULL(
		    strstr(err.message, "the highest throughput over 1 to 64 "
		                        "is not a finite number"));
		sf_scale_free(bad);
		sf_fitfile_free(flat);
	}
	/* A fractional end: the batch is swept as a real number. */
	q = request("b=0.5:4096");
	q.set = set;
	q.nset = 1;
	sc = run(f, &q);
	CU_ASSERT_FALSE(sc->s.integer);
	CU_ASSERT_FALSE(sc->answers.every_whole);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* A worker sweep's chart goes through whole p only. */
static void
test_chart_whole(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc = run(f, &q);
	sf_svg *svg = NULL;
	const char *text, *line, *end;
	size_t vertices = 0;

	CU_ASSERT_EQUAL_FATAL(sf_plot_study(sc, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, NULL);
	/* The prediction's path (the first blue line): one vertex per
	 * whole p from 1 to 64. */
	end = strstr(text, "fill=\"none\" stroke=\"#0072B2\" "
	                   "stroke-width=\"2\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(end);
	for (line = end; line > text && strncmp(line, "<path", 5) != 0; line--)
		;
	for (const char *c = line; c < end; c++)
		vertices += *c == 'M' || *c == 'L';
	CU_ASSERT_EQUAL(vertices, 64);
	sf_svg_free(svg);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* ---- the chart --------------------------------------------------------------
 */

static void
test_chart(void)
{
	static const char *const set[] = {"p=8"};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc = run(f, &q);
	sf_svg *svg = NULL;
	const char *text;
	size_t length;

	CU_ASSERT_EQUAL_FATAL(sf_plot_study(sc, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, &length);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">simple: predicted epoch_s<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">n = 1; p over 1 to 64<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">p (workers)<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">95% band of the mean<"));
	/* p = 1 to 2 and 16 to 64 lie beyond the fitted [2, 16]: greyed */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">beyond the fitted range<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "class=\"beyond\""));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(strstr(text, "class=\"beyond\"") + 1, "class=\"beyond\""));
	/* and both ends of [2, 16] are marked, the span between labelled */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "class=\"fit-edge\" x1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(strstr(text, "class=\"fit-edge\"") + 1,
	                              "class=\"fit-edge\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">fitted range<"));
	/* simple.json has no error model: no new-run interval */
	CU_ASSERT_PTR_NULL(strstr(text, "class=\"interval\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">fastest: p = 8<"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, ">communication &gt; compute from p = 9<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">measured<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "parallel efficiency"));
	CU_ASSERT_PTR_NULL(strstr(text, "share of time"));
	CU_ASSERT(length > 6 && strcmp(text + length - 7, "</svg>\n") == 0);
	sf_svg_free(svg);
	sf_scale_free(sc);

	/* The shares instead, without the io term (0 everywhere). */
	q.panel = SF_SCALE_PANEL_SHARES;
	sc = run(f, &q);
	CU_ASSERT_EQUAL_FATAL(sf_plot_study(sc, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "share of time"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">compute<"));
	CU_ASSERT_PTR_NULL(strstr(text, ">io<"));
	CU_ASSERT_PTR_NULL(strstr(text, ">rest<"));
	sf_svg_free(svg);
	sf_scale_free(sc);

	/* Along n (compute 8 n, communication 8) the least time is no
	 * answer: no fastest mark. */
	q = request("n=0.5:4");
	q.set = set;
	q.nset = 1;
	sc = run(f, &q);
	CU_ASSERT_EQUAL_FATAL(sf_plot_study(sc, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, NULL);
	CU_ASSERT_PTR_NULL(strstr(text, "fastest"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">p = 8; n over 0.5 to 4<"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, ">compute &gt; communication from n = 1<"));
	sf_svg_free(svg);
	sf_scale_free(sc);
	sf_fitfile_free(f);
}

/* Several fits on one chart: a line each, named in the legend; labels
 * tell twins apart; the tables share the first fit's points. */
static void
test_several(void)
{
	sf_fitfile *a = sf_test_fitfile("fit/simple.json");
	sf_fitfile *b = sf_test_fitfile("fit/bootstrap.json");
	sf_fitfile *c = sf_test_fitfile("fit/simple.json");
	sf_scale_request q = request("p=1:64");
	sf_scale *sc[3];
	const char *labels[] = {"cnn", "mlp"};
	sf_svg *svg = NULL;
	const char *text, *at;
	char label[256];
	size_t series = 0;

	sc[0] = set_up(a, &q);
	sc[1] = set_up(b, &q);
	sc[2] = set_up(c, &q);
	CU_ASSERT_EQUAL_FATAL(sf_scale_share_points(sc, 3, NULL), SF_OK);
	for (size_t j = 0; j < 3; j++) {
		CU_ASSERT_EQUAL(sc[j]->n, sc[0]->n);
		CU_ASSERT_EQUAL_FATAL(sf_scale_run(sc[j], NULL), SF_OK);
	}
	/* simple twice: told apart by the file */
	sf_scale_label((const sf_scale *const *)sc, 3, 0, label, sizeof label);
	CU_ASSERT_PTR_NOT_NULL(strstr(label, "simple ("));
	CU_ASSERT_PTR_NOT_NULL(strstr(label, "simple.json)"));
	sf_scale_label((const sf_scale *const *)sc, 2, 0, label, sizeof label);
	CU_ASSERT_STRING_EQUAL(label, "simple");
	CU_ASSERT_EQUAL_FATAL(
	    sf_plot_studies((const sf_scale *const *)sc, labels, 2, &svg, NULL),
	    SF_OK);
	text = sf_svg_text_of(svg, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	for (at = text; (at = strstr(at, "class=\"series\"")) != NULL; at++)
		series++;
	CU_ASSERT_EQUAL(series, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">cnn<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">mlp<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "parallel efficiency"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">predicted epoch_s of 2 fits<"));
	/* both were fitted over p in [2, 16]: marked as for one fit */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">fitted range<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "class=\"beyond\""));
	sf_svg_free(svg);
	for (size_t j = 0; j < 3; j++)
		sf_scale_free(sc[j]);
	sf_fitfile_free(a);
	sf_fitfile_free(b);
	sf_fitfile_free(c);
}

int
main(void)
{
	static CU_TestInfo setup_tests[] = {
	    {"the input counting workers", test_worker_input},
	    {"time units", test_units},
	    {"the sweep's points", test_grid},
	    {"requests refused", test_refusals},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo answer_tests[] = {
	    {"fastest, efficient, crossover, cheapest", test_answers},
	    {"a crossover between grid points", test_answers_real},
	    {"answers that agree with the table", test_answers_consistent},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo output_tests[] = {
	    {"measured points", test_measured},
	    {"extrapolation warnings", test_warnings},
	    {"fixed inputs and kinds", test_text},
	    {"the scale document", test_json},
	    {"bootstrap, no workers, no price", test_json_other},
	    {"the chart of a study", test_chart},
	    {"terms whose sum is not the time", test_not_a_sum},
	    {"batch sweeps: throughput and knee", test_batch},
	    {"a worker sweep's curve at whole p", test_chart_whole},
	    {"several fits on one chart", test_several},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"set-up", NULL, NULL, NULL, NULL, setup_tests},
	    {"answers", NULL, NULL, NULL, NULL, answer_tests},
	    {"outputs", NULL, NULL, NULL, NULL, output_tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
