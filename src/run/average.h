/*
 * average.h (run/) - several fit files as one answer: the plain fits an
 * average takes (predict averages them itself, use/average.h), and their
 * ensemble, which scale sweeps and next ranks runs for as they do an
 * ensemble's fit file's (use/fitgroups.h).
 *
 * A file that is not one plain fit (a --by fit's groups, an ensemble's
 * fit) is a fault of the request, and so are fits that cannot be
 * averaged (use/average.h says which and why).
 *
 * Ownership: what is loaded is the caller's.  Thread safety: one thread
 * per call.
 */
#ifndef SF_RUN_AVERAGE_H
#define SF_RUN_AVERAGE_H

#include "base/error.h"
#include "use/average.h"
#include "use/fitfile.h"

#include <jansson.h>
#include <stddef.h>

/*
 * What a request to average (averaged: the command will average its n fit
 * files) cannot have: --group (a group of one groups file) with an
 * average, --weights with fewer than two files.  SF_EREQUEST and why,
 * else SF_OK.
 */
int sf_run_average_asked(int averaged, const sf_average_asked *weights,
                         size_t n, const char *group, sf_error *err);

/*
 * The fit file at path (text: its text in memory, or NULL) into *out when
 * it is one plain fit, which an average takes.  Otherwise SF_EREQUEST,
 * saying what to do instead, in the command's verb ("predict", "sweep",
 * "rank runs for"): an ensemble's fit alone, a group of a groups file
 * alone with --group KEY.  The loader's errors as they are.
 */
int sf_run_average_load(const char *verb, const char *path, const char *text,
                        sf_fitfile **out, sf_error *err);

/*
 * The n >= 2 fit files paths (texts: NULL, or each one's text, NULL to
 * read it) as one ensemble's fit weighted as how says
 * (sf_average_ensemble), into *out; what each file's loading found
 * suspicious (a later version's file) to warn, each naming its file.
 * Returns SF_OK, the errors of sf_run_average_load(), SF_EREQUEST (fits
 * that cannot be averaged, and why), SF_ENOMEM.
 */
int sf_run_average_ensemble(const char *verb, const char *const *paths,
                            const char *const *texts, size_t n,
                            const sf_average_asked *how, sf_warn_fn warn,
                            void *warn_ctx, sf_fitfile **out, sf_error *err);

/*
 * doc (a JSON object) with "models": the fits average e
 * (sf_run_average_ensemble) was made of and their weights, as predict's
 * document lists them.  SF_OK, or SF_ENOMEM (doc unchanged).
 */
int sf_run_average_models(json_t *doc, const sf_fitfile *e, sf_error *err);

#endif /* SF_RUN_AVERAGE_H */
