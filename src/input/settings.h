/*
 * settings.h - how to fit: the `fit:` block of a model file
 * (scalefit-model(5)), its defaults and the names of its choices.
 *
 * The loss and the optimiser are solve/'s vocabularies (solve/loss.h's
 * and solve/de.h's tables); this header holds the rest of what a model
 * file says about fitting, and reads the block.  The command line's
 * options override some of these per run (fit/fit.h's sf_fit_options).
 *
 * Everything here is a plain value or a pure function (thread-safe),
 * except sf_settings_load, which works in its sf_schema's load.
 */
#ifndef SF_SETTINGS_H
#define SF_SETTINGS_H

#include "solve/de.h"
#include "solve/loss.h"

#include <stddef.h>
#include <stdint.h>

typedef enum sf_penalty {
	SF_PENALTY_NONE = 0,
	SF_PENALTY_L2,
	SF_PENALTY_L1
} sf_penalty;

typedef enum sf_weighting {
	SF_WEIGHTS_NONE = 0, /* every row counts once */
	SF_WEIGHTS_COLUMN,   /* data.weight: an expression over columns */
	SF_WEIGHTS_INVERSE_VARIANCE /* from the spread of repetitions */
} sf_weighting;

/* How the global search sees the parameters (see fit.c). */
typedef enum sf_search_scale {
	SF_SCALE_AUTO = 0, /* search both ways, keep the better fit */
	SF_SCALE_LINEAR,   /* as they are */
	SF_SCALE_LOG       /* wide boxes by sign-preserving log magnitude */
} sf_search_scale;

typedef enum sf_init_method {
	SF_INIT_LATIN = 0,
	SF_INIT_UNIFORM
} sf_init_method;

/* The longest input name fit.prior.hardware holds, with its NUL; and
 * the inputs it may name, the first of the model's (those with a model
 * error of their own: fit/interval.h's SF_INTERVAL_INPUTS). */
enum { SF_SETTINGS_NAME = 64, SF_SETTINGS_HARDWARE_INPUTS = 16 };

/*
 * How to fit.  Numeric settings left at 0 (or negative for tol/atol) mean
 * "the algorithm's default"; has_* flags record what the file set, so the
 * report can show which values were chosen by the user.
 */
typedef struct sf_fit_settings {
	sf_loss loss;       /* solve/loss.h */
	double huber_delta; /* > 0; default 0.1 (10% relative error) */
	sf_penalty penalty;
	double lambda;   /* >= 0 */
	int lambda_auto; /* `lambda: auto`: chosen by cross-validation */
	sf_weighting weighting;
	sf_de_algorithm algorithm; /* solve/de.h */
	char strategy[24];         /* classic DE strategy name ("best1bin") */
	size_t population;         /* absolute population size, or 0 */
	double popsize;         /* population = popsize x fitted parameters */
	size_t max_evals;       /* 0: default */
	size_t max_generations; /* 0: default */
	double tol, atol;       /* < 0: default */
	double mutation_lo, mutation_hi; /* F, or dither range; 0: default */
	double recombination;            /* CR; < 0: default */
	sf_init_method init;
	sf_search_scale scale;
	uint64_t seed;
	int has_seed;
	int polish;        /* 1 (default): least-squares polish */
	int separable;     /* 1 (default): constants the residuals are
	                    * linear in are solved, not searched */
	double time_limit; /* seconds; 0: none */
	size_t stagnation; /* generations without progress; 0: default */
	/* The prior of the model error beyond the fitted range
	 * (fit/interval.h): its scale per doubling, degrees of freedom and
	 * bias weight, 0: the built-in one's (fitted on the bundled corpus);
	 * its noise weight, < 0: the built-in one's. */
	double prior_scale, prior_dof, prior_bias_weight, prior_noise_weight;
	/* How fast two formulas that fit the rows part ways per doubling
	 * beyond them (`discover` writes it), < 0: unknown; and the prior's
	 * scale beside it (0) and its weight (< 0), the built-in ones'. */
	double prior_disagreement, prior_agreed_scale,
	    prior_disagreement_weight;
	/* How far the largest measured levels came out above the model
	 * file's formula, per doubling, when its regime check fired on the
	 * rows (`discover` writes it), < 0: none known. */
	double prior_regime;
	/* The input that is a hardware speed (a GPU's FLOPS), "" none, and
	 * where the file names it; the prior's scale along it, 0: the
	 * built-in one's. */
	char prior_hardware[SF_SETTINGS_NAME];
	int prior_hardware_line, prior_hardware_column;
	double prior_hardware_scale;
} sf_fit_settings;

/* Fill s with the defaults of a model file without a `fit:` block. */
void sf_fit_settings_default(sf_fit_settings *s);

/* Names for the report: "l2", "auto", ... (a loss's and an algorithm's
 * are solve/loss.h's and solve/de.h's). */
const char *sf_penalty_name(sf_penalty penalty);
const char *sf_search_scale_name(sf_search_scale scale);

/*
 * Read the `fit:` block node of the YAML document schema is loading
 * (input/schema.h) into s, over the values s holds (the defaults, or a
 * models: file's shared block); data.weight must have been read first
 * (it sets s->weighting).  Returns SF_OK, or the first error, with its
 * position, in the schema's sf_error; warnings (a classic-DE key given
 * to an adaptive algorithm) go to its warn function.
 */
struct sf_schema;
struct yaml_node_s;
int sf_settings_load(struct sf_schema *schema, const struct yaml_node_s *node,
                     sf_fit_settings *s);

#endif /* SF_SETTINGS_H */
