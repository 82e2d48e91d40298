/*
 * comparison.c - a comparison's JSON document.
 */
#include "use/comparison.h"

#include "use/report.h"

json_t *
sf_comparison_json(const sf_compare *cmp)
{
	json_t *list = json_array();

	for (size_t i = 0; i < cmp->n && list != NULL; i++) {
		const sf_compare_candidate *x = cmp->c[cmp->order[i]];

		if (json_array_append_new(
		        list,
		        json_pack(
		            "{s:I, s:s, s:s, s:I, s:I, s:b, s:o, s:o, "
		            "s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:b, s:s}",
		            "rank", (json_int_t)(i + 1), "model",
		            x->model->name, "file", x->model->path,
		            "parameters", (json_int_t)x->k, "rows",
		            (json_int_t)x->n, "failed", x->failed, "sse",
		            sf_json_number(x->sse), "mape",
		            sf_json_number(x->mape), "aicc",
		            sf_json_number(x->aicc), "bic",
		            sf_json_number(x->bic), "akaike_weight",
		            sf_json_number(x->weight), "cv_mape",
		            sf_json_number(x->cv_mape), "extrapolation_mape",
		            sf_json_number(x->extra_mape),
		            "max_abs_correlation", sf_json_number(x->max_corr),
		            "at_bound", (json_int_t)x->at_bound,
		            "over_parameterised", x->over, "poorly_determined",
		            x->poor)) != 0) {
			json_decref(list);
			return NULL;
		}
	}
	return json_pack(
	    "{s:s, s:{s:I, s:o, s:o}}", "scalefit_version", PACKAGE_VERSION,
	    "comparison", "kfold", (json_int_t)cmp->s.kfold, "train",
	    cmp->s.train != NULL ? json_string(cmp->s.train) : json_null(),
	    "candidates", list);
}
