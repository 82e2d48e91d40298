/*
 * comparison.c - a comparison's JSON document.
 */
#include "use/comparison.h"

#include "use/json.h"
#include "use/report.h"

#include <string.h>

/* A candidate's extrapolation scores by value: {"p": [{"value": 32,
 * "rows": 3, "mape": 4.1, "bias": -2.0}, ...], ...}. */
static json_t *
by_level_json(const sf_compare_candidate *c)
{
	json_t *o = json_object(), *list = NULL;
	int ok = o != NULL;

	for (size_t l = 0; l < c->nby_level && ok; l++) {
		const sf_compare_level *x = &c->by_level[l];

		if (l == 0 || strcmp(x->input, c->by_level[l - 1].input) != 0) {
			list = json_array();
			sf_json_put(o, x->input, list, &ok);
			if (!ok)
				break;
		}
		if (json_array_append_new(
		        list, json_pack("{s:o, s:I, s:o, s:o}", "value",
		                        sf_json_number(x->value), "rows",
		                        (json_int_t)x->rows, "mape",
		                        sf_json_number(x->mape), "bias",
		                        sf_json_number(x->bias))) != 0)
			ok = 0;
	}
	return sf_json_done(o, ok);
}

/* The comparison's object around the candidates' list (consumed): the
 * ranking keys only when asked for (--rank) or by --train, so that the
 * document of a plain comparison is as it always was.  NULL when out of
 * memory. */
static json_t *
comparison_object(const sf_compare *cmp, json_t *list)
{
	json_t *o = json_pack(
	    "{s:I, s:o}", "kfold", (json_int_t)cmp->s.kfold, "train",
	    cmp->s.train != NULL ? json_string(cmp->s.train) : json_null());
	int ok = o != NULL;

	if (o != NULL &&
	    (cmp->s.rank != SF_COMPARE_RANK_DEFAULT || cmp->s.train != NULL)) {
		sf_json_put(o, "ranked_by",
		            json_string(sf_compare_ranking_get(
		                            sf_compare_rank_used(cmp))
		                            ->name),
		            &ok);
		sf_json_put(o, "ranked_because",
		            json_string(cmp->s.rank != SF_COMPARE_RANK_DEFAULT
		                            ? "--rank"
		                            : "--train"),
		            &ok);
	}
	if (o != NULL) {
		sf_json_put(o, "same_rows",
		            json_boolean(sf_compare_other_row_set(cmp) == 0),
		            &ok);
		sf_json_put(o, "comparable",
		            json_boolean(sf_compare_other_rows(cmp) == 0), &ok);
		sf_json_put(o, "candidates", json_incref(list), &ok);
	}
	json_decref(list);
	return sf_json_done(o, ok);
}

json_t *
sf_comparison_json(const sf_compare *cmp)
{
	json_t *list = json_array(), *root;

	for (size_t i = 0; i < cmp->n && list != NULL; i++) {
		const sf_compare_candidate *x = cmp->c[cmp->order[i]];
		json_t *o = json_pack(
		    "{s:I, s:s, s:s, s:I, s:I, s:b, s:o, s:o, "
		    "s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:b, s:s}",
		    "rank", (json_int_t)(i + 1), "model", x->model->name,
		    "file", x->model->path, "parameters", (json_int_t)x->k,
		    "rows", (json_int_t)x->n, "failed", x->failed, "sse",
		    sf_json_number(x->sse), "mape", sf_json_number(x->mape),
		    "aicc", sf_json_number(x->aicc), "bic",
		    sf_json_number(x->bic), "akaike_weight",
		    sf_json_number(x->weight), "cv_mape",
		    sf_json_number(x->cv_mape), "extrapolation_mape",
		    sf_json_number(x->extra_mape), "max_abs_correlation",
		    sf_json_number(x->max_corr), "at_bound",
		    (json_int_t)x->at_bound, "over_parameterised", x->over,
		    "poorly_determined", x->poor);
		int ok = o != NULL;

		if (o != NULL) {
			sf_json_put(o, "label", json_string(x->label), &ok);
			sf_json_put(o, "rows_sha256", json_string(x->rows_sha),
			            &ok);
		}
		if (o != NULL)
			sf_json_put(o, "extrapolation_by_level",
			            cmp->s.train != NULL ? by_level_json(x)
			                                 : json_null(),
			            &ok);
		if (!ok)
			json_decref(o);
		if (!ok || json_array_append_new(list, o) != 0) {
			json_decref(list);
			return NULL;
		}
	}
	if (list == NULL)
		return NULL;
	if ((root = json_pack("{s:s, s:o}", "scalefit_version", PACKAGE_VERSION,
	                      "comparison", comparison_object(cmp, list))) ==
	    NULL)
		return NULL;
	/* Exact fits: their aicc is null (-inf) and they share the weight;
	 * the note says so (only then: other documents are unchanged). */
	if (root != NULL && sf_compare_exact(cmp) > 0 &&
	    json_object_set_new(
	        json_object_get(root, "comparison"), "note",
	        json_string("aicc and bic are -inf (null) for the candidates "
	                    "that fit the rows exactly (sse 0): they share "
	                    "the Akaike weight equally")) != 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}
