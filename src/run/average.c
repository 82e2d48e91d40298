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
sf_run_average_ensemble(const char *verb, const char *const *paths,
                        const char *const *texts, size_t n,
                        const sf_average_asked *how, sf_fitfile **out,
                        sf_error *err)
{
	sf_fitfile **fits = calloc(n + 1, sizeof *fits);
	char label[64];
	int rc = fits != NULL ? SF_OK
	                      : sf_error_set(err, SF_ENOMEM, "out of memory");

	*out = NULL;
	for (size_t i = 0; i < n && rc == SF_OK; i++)
		rc = sf_run_average_load(verb, paths[i],
		                         texts != NULL ? texts[i] : NULL,
		                         &fits[i], err);
	snprintf(label, sizeof label, "the average of %zu fit files", n);
	if (rc == SF_OK && (rc = sf_average_ensemble(label, fits, n, how, out,
	                                             err)) == SF_EVALUE)
		rc = sf_run_request(err, "%s", err->message);
	for (size_t i = 0; fits != NULL && i < n; i++)
		sf_fitfile_free(fits[i]);
	free(fits);
	return rc;
}
