/*
 * validation.c - a validation's values as text and its JSON document.
 */
#include "use/validation.h"
#include "base/escape.h"

#include "use/json.h"
#include "use/report.h"

#include <stdio.h>

void
sf_validation_value(const sf_dataset_input *in, double v, char *buf,
                    size_t size)
{
	if (in->levels != NULL && v >= 0 && v < (double)in->nlevels)
		sf_escape(buf, size, in->levels[(size_t)v], 0);
	else
		snprintf(buf, size, "%g", v);
}

/* The interval scores of s as members of o. */
static void
interval_scores_json(json_t *o, const sf_holdout_scores *s, int *ok)
{
	sf_json_put(o, "interval_rows",
	            json_integer((json_int_t)s->interval_rows), ok);
	sf_json_put(o, "coverage95", sf_json_number(s->coverage95), ok);
	sf_json_put(o, "mean_halfwidth_pct",
	            sf_json_number(s->mean_halfwidth_pct), ok);
	sf_json_put(o, "interval_score", sf_json_number(s->interval_score), ok);
}

void
sf_validation_scores_json(json_t *o, const sf_holdout_scores *s, int *ok)
{
	sf_json_put(o, "rows", json_integer((json_int_t)s->count), ok);
	sf_json_put(o, "mape", sf_json_number(s->mape), ok);
	sf_json_put(o, "max_ape", sf_json_number(s->max_ape), ok);
	sf_json_put(o, "bias", sf_json_number(s->bias), ok);
	interval_scores_json(o, s, ok);
}

/* The scores by value of every input with 2 to SF_HOLDOUT_LEVELS_MAX
 * held-out values. */
static json_t *
groups_json(const sf_dataset *d, const sf_holdout *h, int *ok)
{
	json_t *groups = json_object();
	double values[SF_HOLDOUT_LEVELS_MAX];

	for (size_t i = 0; i < d->ninputs && groups != NULL && *ok; i++) {
		size_t n = sf_holdout_levels(h, d, i, values);
		json_t *list;

		if (n < 2)
			continue;
		list = json_array();
		for (size_t g = 0; g < n && list != NULL; g++) {
			sf_holdout_scores s;
			json_t *o;

			if (sf_holdout_score_level(h, d, i, values[g], &s,
			                           NULL) != SF_OK) {
				*ok = 0;
				break;
			}
			/* The value as it is: the text's is for people. */
			o = json_pack(
			    "{s:o, s:I, s:o, s:o, s:o}", "value",
			    d->inputs[i].levels != NULL
			        ? json_string(
			              d->inputs[i].levels[(size_t)values[g]])
			        : sf_json_number(values[g]),
			    "rows", (json_int_t)s.count, "mape",
			    sf_json_number(s.mape), "max_ape",
			    sf_json_number(s.max_ape), "bias",
			    sf_json_number(s.bias));
			if (o != NULL)
				interval_scores_json(o, &s, ok);
			if (o == NULL || json_array_append_new(list, o) != 0)
				*ok = 0;
		}
		sf_json_put(groups, d->inputs[i].name, list, ok);
	}
	if (groups == NULL)
		*ok = 0;
	return groups;
}

/* The scores by distance beyond the training range (validate.h's bands);
 * an empty list without intervals. */
static json_t *
bands_json(const sf_dataset *d, const sf_holdout *h, int *ok)
{
	sf_holdout_scores s[SF_HOLDOUT_BANDS];
	json_t *list = json_array();

	if (list == NULL || sf_holdout_score_bands(h, d, s, NULL) != SF_OK) {
		*ok = 0;
		return list;
	}
	for (size_t b = 0; b < SF_HOLDOUT_BANDS && h->distance != NULL; b++) {
		json_t *o = json_pack("{s:s, s:I, s:o, s:o}", "doublings",
		                      sf_holdout_band_name(b), "rows",
		                      (json_int_t)s[b].count, "mape",
		                      sf_json_number(s[b].mape), "bias",
		                      sf_json_number(s[b].bias));

		if (o != NULL)
			interval_scores_json(o, &s[b], ok);
		if (o == NULL || json_array_append_new(list, o) != 0)
			*ok = 0;
	}
	return list;
}

/* One object per held-out row. */
static json_t *
predictions_json(const sf_dataset *d, const sf_holdout *h, int *ok)
{
	json_t *rows = json_array();

	for (size_t r = 0; r < d->rows && rows != NULL; r++) {
		json_t *row;

		if (h->fold[r] == SF_FOLD_TRAIN)
			continue;
		row = json_pack(
		    "{s:I, s:I, s:i, s:o, s:o, s:[o, o]}", "row", (json_int_t)r,
		    "line", (json_int_t)d->lines[r], "fold", h->fold[r],
		    "observed", sf_json_number(d->output[r]), "predicted",
		    sf_json_number(h->predicted[r]), "interval95",
		    sf_json_number(h->lo95[r]), sf_json_number(h->hi95[r]));
		if (row != NULL && h->distance != NULL)
			sf_json_put(row, "distance",
			            sf_json_number(h->distance[r]), ok);
		for (size_t i = 0; i < d->ninputs && row != NULL; i++)
			sf_json_put(row, d->inputs[i].name,
			            sf_json_number(d->inputs[i].values[r]), ok);
		if (row == NULL || json_array_append_new(rows, row) != 0)
			*ok = 0;
	}
	if (rows == NULL)
		*ok = 0;
	return rows;
}

json_t *
sf_validation_json(const sf_model *m, const sf_dataset *d, const sf_holdout *h,
                   const char *method, const char *train)
{
	json_t *root, *v;
	sf_holdout_scores all;
	int ok = 1;

	root = json_pack(
	    "{s:s, s:{s:s, s:s, s:s}, s:{s:s, s:o, s:I, s:I, s:I, s:I, "
	    "s:o, s:o, s:o, s:I}}",
	    "scalefit_version", PACKAGE_VERSION, "model", "name", m->name,
	    "file", m->path, "data", d->file, "validation", "method", method,
	    "train", train != NULL ? json_string(train) : json_null(), "folds",
	    (json_int_t)h->nfolds, "rows", (json_int_t)d->rows,
	    "rows_predicted", (json_int_t)h->predicted_rows, "failed_folds",
	    (json_int_t)h->failed_folds, "mape", sf_json_number(h->mape),
	    "max_ape", sf_json_number(h->max_ape), "bias",
	    sf_json_number(h->bias), "evaluations", (json_int_t)h->evaluations);
	if (root == NULL)
		return NULL;
	v = json_object_get(root, "validation");
	sf_holdout_score(h, d, NULL, &all);
	interval_scores_json(v, &all, &ok);
	sf_json_put(v, "groups", groups_json(d, h, &ok), &ok);
	sf_json_put(v, "distance_bands", bands_json(d, h, &ok), &ok);
	sf_json_put(v, "predictions", predictions_json(d, h, &ok), &ok);
	return sf_json_done(root, ok);
}
