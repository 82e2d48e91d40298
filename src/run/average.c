/*
 * average.c (run/) - several fit files as one answer (average.h).
 */
#include "run/average.h"
#include "run/output.h"
#include "use/fitgroups.h"

#include <stdio.h>
#include <stdlib.h>

int
sf_run_average_asked(int averaged, const sf_average_asked *weights, size_t n,
                     const char *group, sf_error *err)
{
	if (averaged && group != NULL)
		return sf_run_request(err, "--group goes with one fit file, "
		                           "not an average of several");
	if (weights->given && n < 2)
		return sf_run_request(err, "--weights goes with two or more "
		                           "fit files");
	return SF_OK;
}

int
sf_run_average_load(const char *verb, const char *path, const char *text,
                    sf_fitfile **out, sf_error *err)
{
	sf_fitfile_set *set = NULL;
	int rc = sf_fitfile_load_groups_text(path, text, NULL,
	                                     SF_FITFILE_NO_MEASURED, &set, err);

	if (rc != SF_OK)
		return rc;
	if (set->grouped)
		rc = sf_run_request(err,
		                    "%s holds the fits of %zu groups (a --by "
		                    "fit): an average takes plain fit files; "
		                    "%s a group alone with --group KEY",
		                    path, set->count, verb);
	else if (set->fits[0]->nmembers > 0)
		rc =
		    sf_run_request(err,
		                   "%s is an ensemble's fit, already a mixture "
		                   "of its formulas: %s it alone",
		                   path, verb);
	else {
		*out = set->fits[0];
		set->fits[0] = NULL;
	}
	sf_fitfile_set_free(set);
	return rc;
}

int
sf_run_average_models(json_t *doc, const sf_fitfile *e, sf_error *err)
{
	json_t *models = sf_average_models_json(
	    (const sf_fitfile *const *)e->members, e->weights, e->nmembers);

	if (models == NULL || json_object_set_new(doc, "models", models) != 0)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

int
sf_run_average_ensemble(const char *verb, const char *const *paths,
                        const char *const *texts, size_t n,
                        const sf_average_asked *how, sf_warn_fn warn,
                        void *warn_ctx, sf_fitfile **out, sf_error *err)
{
	sf_fitfile **fits = calloc(n + 1, sizeof *fits);
	char label[64];
	int rc = fits != NULL ? SF_OK
	                      : sf_error_set(err, SF_ENOMEM, "out of memory");

	*out = NULL;
	for (size_t i = 0; i < n && rc == SF_OK; i++)
		if ((rc = sf_run_average_load(verb, paths[i],
		                              texts != NULL ? texts[i] : NULL,
		                              &fits[i], err)) == SF_OK)
			sf_fitfile_warn(fits[i], warn, warn_ctx);
	snprintf(label, sizeof label, "the average of %zu fit files", n);
	if (rc == SF_OK && (rc = sf_average_ensemble(label, fits, n, how, out,
	                                             err)) == SF_EVALUE)
		rc = sf_run_request(err, "%s", err->message);
	if (rc == SF_OK) /* each file's own warnings are said above */
		(*out)->version_newer = 0;
	for (size_t i = 0; fits != NULL && i < n; i++)
		sf_fitfile_free(fits[i]);
	free(fits);
	return rc;
}
