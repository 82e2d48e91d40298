/*
 * sweep.h - how the predicted time scales along one input: the points of a
 * sweep, speedup, parallel efficiency, cost, each term's share, and the
 * headline answers (the fastest point, how far efficiency stays >= 50%,
 * where communication overtakes compute, the cheapest point).
 *
 * Definitions, with x0 the first point of the sweep and T(x) the predicted
 * time with every other input held at its base value:
 *   speedup      T(x0) / T(x)                      (worker sweeps only)
 *   efficiency   speedup * x0 / x                  (worker sweeps only)
 *   cost         price * w * T(x) * hours_per_unit, w the worker count
 *                (x itself in a worker sweep, else the base value of the
 *                worker input)
 *   share        term / T for each term that is a part of the time (no
 *                other term uses it, see fitfile.h); rest = 1 - their sum;
 *                NaN, all of them, when the time is not the sum of those
 *                terms and a remainder (fitfile.h's terms_sum)
 *   kind time    the sum of the terms of a kind (compute, communication,
 *                io, overhead) that count for it
 *   throughput   samples / (T in seconds), the samples those of a run, n,
 *                when the fit has an input counting them (held fixed),
 *                else a step's, b x p (the batch per worker times the
 *                worker count, or b alone without one): batch sweeps only
 *
 * The headline answers are not read off the table's few points: they are
 * searched over every whole value of an integer input (up to
 * SF_SWEEP_DENSE_MAX of them), otherwise over SF_SWEEP_DENSE_POINTS points
 * spaced as the sweep is (and the table's points), with the crossover then
 * refined by bisection; over a list of values, over those values alone.
 *
 * Ownership: results are new objects the caller frees with their _free;
 * settings are read during the call only.  Thread safety: as predict.h.
 */
#ifndef SF_SWEEP_H
#define SF_SWEEP_H

#include "base/error.h"
#include "use/fitfile.h"
#include "use/predict.h"

#include <stddef.h>

/* Whole values searched at most for the answers; beyond, a grid. */
#define SF_SWEEP_DENSE_MAX 65536
#define SF_SWEEP_DENSE_POINTS 4097

/* The efficiency the answer "efficient up to" asks for. */
#define SF_SWEEP_EFFICIENCY 0.5

/* The knee of a batch sweep: the least batch whose throughput is within
 * this fraction of the highest. */
#define SF_SWEEP_KNEE 0.05

/* A rest of the time this small everywhere is rounding, not a part. */
#define SF_SWEEP_REST_NEGLIGIBLE 1e-9

/* The kinds of SF_TERM_* (model.h), as indices of sf_sweep.kind. */
#define SF_SWEEP_KINDS 5

/* What the crossover answer found: where the leader of communication
 * and compute changes. */
enum sf_sweep_crossover {
	SF_SWEEP_CROSS_NONE = 0, /* no term counts for compute or for
	                            communication: no answer */
	SF_SWEEP_CROSS_AT,       /* the other kind leads from crossover_x on */
	SF_SWEEP_CROSS_NEVER     /* the same kind leads over the whole range */
};

/* How to space a sweep. */
typedef enum sf_sweep_spacing {
	SF_SWEEP_AUTO = 0, /* log when lo > 0 and hi >= 10 lo, else linear */
	SF_SWEEP_LOG,
	SF_SWEEP_LINEAR
} sf_sweep_spacing;

/* What a sweep holds fixed and how it reads the time. */
typedef struct sf_sweep_settings {
	size_t var;            /* the swept input */
	const double *base;    /* a value per input; base[var] is ignored */
	int workers;           /* 1: var is the worker count */
	size_t worker_input;   /* the worker count's input, or
	                          SF_FITFILE_NONE */
	int integer;           /* var takes whole values only */
	int pow2;              /* and the answers are searched on powers of
	                          two (a batch whose fitted values all were) */
	int throughput;        /* 1: answer the highest throughput and the
	                          knee (a batch sweep) */
	size_t samples_input;  /* the input counting the samples of a run
	                          (n), or SF_FITFILE_NONE: then a step's
	                          samples, var x the worker count */
	int log;               /* 1: points are log-spaced (for the search) */
	double price;          /* per worker-hour; NaN or <= 0: no cost */
	double hours_per_unit; /* hours in one unit of the time */
} sf_sweep_settings;

/* The sweep at its points. */
typedef struct sf_sweep {
	size_t n;            /* points */
	double *x;           /* the n values of the swept input */
	sf_prediction *pred; /* the predictions there */
	double *speedup;     /* n; NULL unless a worker sweep */
	double *efficiency;  /* n; NULL unless a worker sweep */
	double *cost;        /* n; NULL without a price */
	double *throughput;  /* n: samples per second; NULL unless
	                        s->throughput */
	double *share;       /* nterms x n, term-major; NaN for a term that
	                        is not a part of the time, and for all when
	                        the time is not their sum */
	double *rest;        /* n: 1 - the sum of the shares (NaN then) */
	double *kind;        /* SF_SWEEP_KINDS x n: time by kind */
} sf_sweep;

/* The headline answers over [lo, hi]. */
typedef struct sf_sweep_answers {
	size_t searched;          /* points searched */
	int every_whole;          /* 1: they were every whole value from lo to
	                             hi */
	int listed;               /* 1: they were the listed values only */
	double fastest;           /* x of the least time */
	double fastest_time;      /* its time */
	sf_band fastest_band;     /* and 95% band (sf_prediction_band()) */
	sf_band fastest_interval; /* and a new run's 95% interval (NaN
	                             without the fit's error model) */
	double efficient;         /* the largest x with efficiency >= 50%;
	                             NaN unless a worker sweep */
	int crossover;            /* enum sf_sweep_crossover */
	int comm_first;           /* 1: communication > compute at lo */
	double crossover_x;       /* for SF_SWEEP_CROSS_AT: the first x
	                             where the other kind leads */
	double cheapest;          /* x of the least cost; NaN: no price */
	double cheapest_cost, cheapest_time;
	int on_pow2;            /* 1: searched on the powers of two (and the
	                           ends and the table's points) */
	double best_x;          /* x of the highest throughput; NaN unless
	                           s->throughput */
	double best_throughput; /* its samples per second */
	double knee;            /* the least x whose throughput is within
	                           SF_SWEEP_KNEE of the highest */
	double knee_throughput;
	double knee_time; /* the time there */
} sf_sweep_answers;

/* 1 when a sweep over [lo, hi] spaced s is log-spaced. */
int sf_sweep_is_log(double lo, double hi, sf_sweep_spacing s);

/* The values of `integer` for sf_sweep_values(). */
enum sf_sweep_whole {
	SF_SWEEP_REAL = 0, /* any value */
	SF_SWEEP_POW2 = 1, /* whole values; by default powers of two on a
	                      log sweep */
	SF_SWEEP_WHOLE = 2 /* whole values; by default 1, 2, 5 x 10^k on a
	                      log sweep */
};

/*
 * The points of a sweep from lo to hi (lo <= hi; lo > 0 when log), both
 * included, in increasing order, into a new array *out of *n values the
 * caller frees.  integer is an sf_sweep_whole (any nonzero value asks for
 * whole values).  points == 0 picks them:
 *   SF_SWEEP_POW2, log  lo, the powers of 2 between, hi
 *   SF_SWEEP_WHOLE, log as real, log (whole, since lo >= 1)
 *   integer, linear  every whole value when there are at most 17, else 11
 *                    points rounded
 *   real, log        lo, the values 1, 2, 5 x 10^k between, hi (decades
 *                    only when those would be over 25 points)
 *   real, linear     11 points
 * otherwise `points` points spaced as asked (rounded when integer, and
 * then without repeats).  Returns SF_OK, SF_EVALUE (a bad range) or
 * SF_ENOMEM.
 */
int sf_sweep_values(double lo, double hi, int integer, int log, size_t points,
                    double **out, size_t *n, sf_error *err);

/*
 * Evaluate the sweep at the n points x (x[0] is x0).  Returns SF_OK and a
 * new sweep in *out, or an error of sf_predict().
 */
int sf_sweep_run(const sf_fitfile *f, const sf_sweep_settings *s,
                 const double *x, size_t n, sf_sweep **out, sf_error *err);

/* Release w.  Accepts NULL. */
void sf_sweep_free(sf_sweep *w);

/* The share of the time no term explains (the rest) is worth showing: 1
 * when it exceeds SF_SWEEP_REST_NEGLIGIBLE in size at some point of w. */
int sf_sweep_rest_matters(const sf_sweep *w);

/*
 * Search [lo, hi] for the headline answers (see the top of this file).
 * Returns SF_OK or an error of sf_predict().
 */
int sf_sweep_answer(const sf_fitfile *f, const sf_sweep_settings *s, double lo,
                    double hi, sf_sweep_answers *a, sf_error *err);

/*
 * The same, with the ntable points of a table (sorted) searched too, so
 * that no answer contradicts a row of it: with a grid between the table's
 * rows, a row with 50.1% efficiency could be passed over.  listed: search
 * the table's points only (a list of values was given; a crossover is then
 * the first listed value where the other kind leads, not refined).
 */
int sf_sweep_answer_points(const sf_fitfile *f, const sf_sweep_settings *s,
                           double lo, double hi, const double *table,
                           size_t ntable, int listed, sf_sweep_answers *a,
                           sf_error *err);

#endif /* SF_SWEEP_H */
