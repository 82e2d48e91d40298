/*
 * settings.c - how to fit: the fit: block of a model file, its defaults
 * and names (settings.h).
 *
 * The block is read key by key through input/schema.h, which names every
 * error's FILE:LINE:COL; the losses' and algorithms' names are their
 * tables' (solve/loss.h, solve/de.h).
 */
#include "input/settings.h"
#include "input/schema.h"
#include "base/number.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const penalty_names[] = {
    [SF_PENALTY_NONE] = "none",
    [SF_PENALTY_L2] = "l2",
    [SF_PENALTY_L1] = "l1",
};
static const char *const scale_names[] = {
    [SF_SCALE_AUTO] = "auto",
    [SF_SCALE_LINEAR] = "linear",
    [SF_SCALE_LOG] = "log",
};

void
sf_fit_settings_default(sf_fit_settings *s)
{
	sf_de_settings classic;

	/* The strategy classic DE uses unless told otherwise. */
	sf_de_settings_default(&classic, SF_DE_CLASSIC);
	memset(s, 0, sizeof *s);
	s->loss = SF_LOSS_RELATIVE;
	s->huber_delta = 0.1;
	s->penalty = SF_PENALTY_NONE;
	s->algorithm = SF_DE_LSHADE;
	snprintf(s->strategy, sizeof s->strategy, "%s",
	         sf_de_strategy_name(classic.mutation, classic.crossover));
	s->tol = -1;
	s->atol = -1;
	s->prior_noise_weight = -1;
	s->prior_disagreement = -1;
	s->prior_disagreement_weight = -1;
	s->prior_regime = -1;
	s->recombination = -1;
	s->init = SF_INIT_LATIN;
	s->polish = 1;
	s->separable = 1;
}

/* The strategies' names are solve/de.h's; this puts them in the form
 * sf_schema_choice() takes, listed as they always were, the default (best1)
 * first. */
enum { NSTRATEGIES = 2 * SF_DE_MUTATIONS };

static void
strategy_choices(const char **names)
{
	static const sf_de_mutation order[SF_DE_MUTATIONS] = {
	    SF_DE_BEST1,       SF_DE_RAND1, SF_DE_CURRENTTOBEST1,
	    SF_DE_RANDTOBEST1, SF_DE_BEST2, SF_DE_RAND2,
	};

	for (int k = 0; k < SF_DE_MUTATIONS; k++) {
		names[2 * k] = sf_de_strategy_name(order[k], SF_DE_BIN);
		names[2 * k + 1] = sf_de_strategy_name(order[k], SF_DE_EXP);
	}
}

static int
load_regularization(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	static const char *const keys[] = {"type", "lambda"};
	yaml_node_t *v;
	int rc, k;

	if ((rc = sf_schema_expect(ld, node, YAML_MAPPING_NODE,
	                           "fit.regularization")) != SF_OK ||
	    (rc = sf_schema_keys(ld, node, "fit.regularization", keys, 2)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "type")) != NULL) {
		rc = sf_schema_choice(ld, v, "regularization type",
		                      penalty_names, 3, &k);
		if (rc != SF_OK)
			return rc;
		s->penalty = (sf_penalty)k;
	}
	if ((v = sf_schema_get(ld, node, "lambda")) != NULL) {
		if (v->type == YAML_SCALAR_NODE &&
		    strcmp(sf_schema_scalar(v), "auto") == 0) {
			s->lambda_auto = 1;
		} else {
			rc = sf_schema_number_in(ld, v, "lambda", 0, INFINITY,
			                         &s->lambda);
			if (rc != SF_OK)
				return rc;
			s->lambda_auto = 0;
		}
	}
	return SF_OK;
}

/* mutation: F, or [lo, hi] to dither F per generation. */
static int
load_mutation(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	yaml_node_item_t *items;
	int rc;

	if (node->type == YAML_SCALAR_NODE) {
		rc = sf_schema_number_in(ld, node, "mutation", 0, 2,
		                         &s->mutation_lo);
		/* A fixed F of 2 or more makes the mutant leave the region
		 * the population spans; dithering draws from [lo, hi), so
		 * only there may hi be 2. */
		if (rc == SF_OK && !(s->mutation_lo > 0 && s->mutation_lo < 2))
			return sf_schema_fail(ld, node, SF_EVALUE,
			                      "mutation must be > 0 and < 2, "
			                      "not %s",
			                      sf_schema_scalar(node));
		s->mutation_hi = s->mutation_lo;
		return rc;
	}
	if ((rc = sf_schema_expect(ld, node, YAML_SEQUENCE_NODE,
	                           "mutation (a number or [lo, hi])")) != SF_OK)
		return rc;
	items = node->data.sequence.items.start;
	if (node->data.sequence.items.top - items != 2)
		return sf_schema_fail(
		    ld, node, SF_EVALUE,
		    "mutation must be a number or a pair [lo, "
		    "hi]");
	if ((rc = sf_schema_number_in(ld, sf_schema_node(ld, items[0]),
	                              "mutation lo", 0, 2, &s->mutation_lo)) !=
	        SF_OK ||
	    (rc = sf_schema_number_in(ld, sf_schema_node(ld, items[1]),
	                              "mutation hi", 0, 2, &s->mutation_hi)) !=
	        SF_OK)
		return rc;
	if (!(s->mutation_lo > 0 && s->mutation_lo < s->mutation_hi))
		return sf_schema_fail(ld, node, SF_EVALUE,
		                      "mutation range needs 0 < lo < hi <= 2");
	return SF_OK;
}

/* L-SHADE and jSO adapt F and CR themselves and always use
 * current-to-pbest/1/bin: say so rather than ignore the key silently. */
static void
warn_de_only(sf_schema *ld, const yaml_node_t *node, const char *key,
             sf_de_algorithm algorithm)
{
	if (sf_de_method_get(algorithm)->adaptive)
		sf_schema_warn(ld, node,
		               "%s applies to algorithm de only; it is ignored "
		               "by %s, which adapts its own",
		               key, sf_de_algorithm_name(algorithm));
}

/* algorithm:, and strategy: (classic DE's; the others are warned of). */
static int
load_algorithm(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	yaml_node_t *v;
	int rc, k;

	if ((v = sf_schema_get(ld, node, "algorithm")) != NULL) {
		const char *names[SF_DE_ALGORITHMS];

		sf_de_algorithm_names(names);
		rc = sf_schema_choice(ld, v, "algorithm", names,
		                      SF_DE_ALGORITHMS, &k);
		if (rc != SF_OK)
			return rc;
		s->algorithm = (sf_de_algorithm)k;
	}
	if ((v = sf_schema_get(ld, node, "strategy")) != NULL) {
		const char *names[NSTRATEGIES];

		strategy_choices(names);
		rc =
		    sf_schema_choice(ld, v, "strategy", names, NSTRATEGIES, &k);
		if (rc != SF_OK)
			return rc;
		snprintf(s->strategy, sizeof s->strategy, "%s", names[k]);
		warn_de_only(ld, v, "strategy", s->algorithm);
	}
	return SF_OK;
}

/* The population's size: population: or popsize:.  One block gives one
 * of them, and a model's block overrides the shared one either way. */
static int
load_population(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	yaml_node_t *v;
	int rc;

	if ((v = sf_schema_get(ld, node, "population")) != NULL) {
		if ((rc = sf_schema_count(ld, v, "population", 4,
		                          &s->population)) != SF_OK)
			return rc;
		if (s->population > SF_DE_POPULATION_MAX)
			return sf_schema_fail(
			    ld, v, SF_EVALUE,
			    "population must be at most %u, not "
			    "%s",
			    SF_DE_POPULATION_MAX, sf_schema_scalar(v));
		s->popsize = 0;
	}
	if ((v = sf_schema_get(ld, node, "popsize")) != NULL) {
		if (sf_schema_get(ld, node, "population") != NULL)
			return sf_schema_fail(ld, v, SF_EVALUE,
			                      "give population or popsize, not "
			                      "both");
		if ((rc = sf_schema_number_in(ld, v, "popsize", 1, 1e6,
		                              &s->popsize)) != SF_OK)
			return rc;
		s->population = 0;
	}
	return SF_OK;
}

/* The budget and the spread test: max_evals, max_generations, tol, atol. */
static int
load_budget(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	yaml_node_t *v;
	int rc;

	if ((v = sf_schema_get(ld, node, "max_evals")) != NULL &&
	    (rc = sf_schema_count(ld, v, "max_evals", 1, &s->max_evals)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "max_generations")) != NULL &&
	    (rc = sf_schema_count(ld, v, "max_generations", 1,
	                          &s->max_generations)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "tol")) != NULL &&
	    (rc = sf_schema_number_in(ld, v, "tol", 0, INFINITY, &s->tol)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "atol")) != NULL &&
	    (rc = sf_schema_number_in(ld, v, "atol", 0, INFINITY, &s->atol)) !=
	        SF_OK)
		return rc;
	return SF_OK;
}

/* Classic DE's F and CR: mutation: and recombination:. */
static int
load_rates(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	yaml_node_t *v;
	int rc;

	if ((v = sf_schema_get(ld, node, "mutation")) != NULL) {
		if ((rc = load_mutation(ld, v, s)) != SF_OK)
			return rc;
		warn_de_only(ld, v, "mutation", s->algorithm);
	}
	if ((v = sf_schema_get(ld, node, "recombination")) != NULL) {
		if ((rc = sf_schema_number_in(ld, v, "recombination", 0, 1,
		                              &s->recombination)) != SF_OK)
			return rc;
		warn_de_only(ld, v, "recombination", s->algorithm);
	}
	return SF_OK;
}

/* seed: any 64-bit whole number. */
static int
load_seed(sf_schema *ld, const yaml_node_t *v, sf_fit_settings *s)
{
	const char *text;
	int rc;

	if ((rc = sf_schema_text(ld, v, "seed", &text)) != SF_OK)
		return rc;
	if (sf_parse_u64(text, &s->seed) != SF_OK)
		return sf_schema_fail(ld, v, SF_EVALUE,
		                      "seed must be a whole number from 0 "
		                      "to 18446744073709551615, not '%s'",
		                      text);
	s->has_seed = 1;
	return SF_OK;
}

/* fit.optimizer: its keys, each read in the order they always were, so a
 * block with several errors reports the same one first. */
static int
load_optimizer(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	static const char *const keys[] = {
	    "algorithm", "strategy",        "population", "popsize",
	    "max_evals", "max_generations", "tol",        "atol",
	    "mutation",  "recombination",   "init",       "seed",
	    "polish",    "time_limit",      "stagnation", "scale",
	    "separable",
	};
	static const char *const init_names[] = {
	    [SF_INIT_LATIN] = "latinhypercube",
	    [SF_INIT_UNIFORM] = "random",
	};
	const size_t nkeys = sizeof keys / sizeof keys[0];
	yaml_node_t *v;
	int rc, k;

	if ((rc = sf_schema_expect(ld, node, YAML_MAPPING_NODE,
	                           "fit.optimizer")) != SF_OK ||
	    (rc = sf_schema_keys(ld, node, "fit.optimizer", keys, nkeys)) !=
	        SF_OK ||
	    (rc = load_algorithm(ld, node, s)) != SF_OK ||
	    (rc = load_population(ld, node, s)) != SF_OK ||
	    (rc = load_budget(ld, node, s)) != SF_OK ||
	    (rc = load_rates(ld, node, s)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "init")) != NULL) {
		rc = sf_schema_choice(ld, v, "init", init_names, 2, &k);
		if (rc != SF_OK)
			return rc;
		s->init = (sf_init_method)k;
	}
	if ((v = sf_schema_get(ld, node, "scale")) != NULL) {
		rc = sf_schema_choice(ld, v, "scale", scale_names, 3, &k);
		if (rc != SF_OK)
			return rc;
		s->scale = (sf_search_scale)k;
	}
	if ((v = sf_schema_get(ld, node, "seed")) != NULL &&
	    (rc = load_seed(ld, v, s)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "polish")) != NULL &&
	    (rc = sf_schema_bool(ld, v, "polish", &s->polish)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "separable")) != NULL &&
	    (rc = sf_schema_bool(ld, v, "separable", &s->separable)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "time_limit")) != NULL &&
	    (rc = sf_schema_number_in(ld, v, "time_limit", 0, INFINITY,
	                              &s->time_limit)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "stagnation")) != NULL &&
	    (rc = sf_schema_count(ld, v, "stagnation", 0, &s->stagnation)) !=
	        SF_OK)
		return rc;
	return SF_OK;
}

/* prior.hardware: an input's name (the model checks that it is one),
 * kept with where it is written. */
static int
load_hardware(sf_schema *ld, const yaml_node_t *v, sf_fit_settings *s)
{
	const char *text;
	sf_schema_position at;
	int rc = sf_schema_text(ld, v, "hardware", &text);

	if (rc != SF_OK)
		return rc;
	if (text[0] == '\0')
		return sf_schema_fail(ld, v, SF_EVALUE,
		                      "hardware must name an input of the "
		                      "model");
	if (strlen(text) >= sizeof s->prior_hardware)
		return sf_schema_fail(ld, v, SF_EVALUE,
		                      "hardware names an input of %zu "
		                      "characters: at most %d",
		                      strlen(text), SF_SETTINGS_NAME - 1);
	at = sf_schema_at(ld, v);
	snprintf(s->prior_hardware, sizeof s->prior_hardware, "%s", text);
	s->prior_hardware_line = at.line;
	s->prior_hardware_column = at.column;
	return SF_OK;
}

/* prior: {scale: S, dof: N, bias_weight: K, noise_weight: R,
 * disagreement: G, agreed_scale: A, disagreement_weight: Q, regime: R,
 * hardware_scale: H, hardware: NAME}, each in its range: the model
 * error's prior (fit/interval.h). */
static int
load_prior(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	enum { NPRIOR = 9 };
	/* the keys, their ranges and fields, in the order they are read */
	const struct {
		const char *key;
		double lo, hi;
		double *field;
	} prior[NPRIOR] = {
	    {"scale", 1e-6, 10, &s->prior_scale},
	    {"dof", 0.01, 1000, &s->prior_dof},
	    {"bias_weight", 0.001, 1e6, &s->prior_bias_weight},
	    {"noise_weight", 0, 100, &s->prior_noise_weight},
	    {"disagreement", 0, 10, &s->prior_disagreement},
	    {"agreed_scale", 1e-6, 10, &s->prior_agreed_scale},
	    {"disagreement_weight", 0, 100, &s->prior_disagreement_weight},
	    {"regime", 0, 10, &s->prior_regime},
	    {"hardware_scale", 1e-6, 10, &s->prior_hardware_scale},
	};
	const char *keys[NPRIOR + 1];
	yaml_node_t *v;
	int rc;

	for (size_t k = 0; k < NPRIOR; k++)
		keys[k] = prior[k].key;
	keys[NPRIOR] = "hardware";
	if ((rc = sf_schema_expect(ld, node, YAML_MAPPING_NODE, "prior")) !=
	        SF_OK ||
	    (rc = sf_schema_keys(ld, node, "prior", keys, NPRIOR + 1)) != SF_OK)
		return rc;
	for (size_t k = 0; k < NPRIOR; k++)
		if ((v = sf_schema_get(ld, node, prior[k].key)) != NULL &&
		    (rc = sf_schema_number_in(ld, v, prior[k].key, prior[k].lo,
		                              prior[k].hi, prior[k].field)) !=
		        SF_OK)
			return rc;
	if ((v = sf_schema_get(ld, node, "hardware")) != NULL)
		return load_hardware(ld, v, s);
	return SF_OK;
}

int
sf_settings_load(sf_schema *ld, const yaml_node_t *node, sf_fit_settings *s)
{
	static const char *const keys[] = {"loss",           "huber_delta",
	                                   "regularization", "weights",
	                                   "optimizer",      "prior"};
	static const char *const weight_names[] = {
	    [SF_WEIGHTS_NONE] = "none",
	    [SF_WEIGHTS_COLUMN] = NULL, /* set by data.weight */
	    [SF_WEIGHTS_INVERSE_VARIANCE] = "inverse_variance",
	};
	yaml_node_t *v;
	int rc, k;

	if ((rc = sf_schema_expect(ld, node, YAML_MAPPING_NODE, "fit")) !=
	        SF_OK ||
	    (rc = sf_schema_keys(ld, node, "fit", keys, 6)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "prior")) != NULL &&
	    (rc = load_prior(ld, v, s)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "loss")) != NULL) {
		const char *names[SF_LOSSES];

		sf_loss_names(names);
		if ((rc = sf_schema_choice(ld, v, "loss", names, SF_LOSSES,
		                           &k)) != SF_OK)
			return rc;
		s->loss = (sf_loss)k;
	}
	if ((v = sf_schema_get(ld, node, "huber_delta")) != NULL) {
		if ((rc = sf_schema_number_in(ld, v, "huber_delta", 0, INFINITY,
		                              &s->huber_delta)) != SF_OK)
			return rc;
		if (s->huber_delta == 0)
			return sf_schema_fail(ld, v, SF_EVALUE,
			                      "huber_delta must be > 0");
	}
	if ((v = sf_schema_get(ld, node, "regularization")) != NULL &&
	    (rc = load_regularization(ld, v, s)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "weights")) != NULL) {
		if ((rc = sf_schema_choice(ld, v, "weights", weight_names, 3,
		                           &k)) != SF_OK)
			return rc;
		if (s->weighting == SF_WEIGHTS_COLUMN)
			return sf_schema_fail(ld, v, SF_EVALUE,
			                      "data.weight already sets the "
			                      "weights; remove one of them");
		s->weighting = (sf_weighting)k;
	}
	if ((v = sf_schema_get(ld, node, "optimizer")) != NULL &&
	    (rc = load_optimizer(ld, v, s)) != SF_OK)
		return rc;
	return SF_OK;
}

const char *
sf_penalty_name(sf_penalty penalty)
{
	return penalty_names[penalty];
}

const char *
sf_search_scale_name(sf_search_scale scale)
{
	return scale_names[scale];
}
