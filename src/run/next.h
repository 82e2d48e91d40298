/*
 * next.h (run/) - `scalefit next` as one library call: which run to
 * measure next so that the 95% interval of a new run at a target narrows
 * most, and with a budget a plan of runs (use/design.h does the work).
 *
 * The target and the candidates are written as people write them
 * (use/assign.h): the target "NAME=VALUE,..." with a value for every
 * input; the candidates either along one input, "NAME=LO:HI" (doublings
 * from LO, whole values for the worker input) or "NAME=V1,V2,...", the
 * other inputs at the target's values unless set says otherwise, or the
 * rows of a CSV with a column per input.  A text that is not understood
 * is a fault of the request (SF_EREQUEST, its message naming the option).
 *
 * Ownership: the result owns the fit, target, study, JSON and text; the
 * settings are only read during the call.  Thread safety: one thread per
 * call.
 */
#ifndef SF_RUN_NEXT_H
#define SF_RUN_NEXT_H

#include "base/error.h"
#include "run/average.h"
#include "run/output.h"
#include "use/design.h"
#include "use/fitfile.h"

/* What `scalefit next` is asked: over or candidates, one of them. */
typedef struct sf_run_next_settings {
	const char *const *fits; /* FIT.json paths; two or more: their
	                            average (run/average.h), ranked for as
	                            an ensemble's fit */
	size_t nfits;
	const char *const *texts; /* NULL, or the files' texts already in
	                             memory (NUL-terminated; NULL: read
	                             fits[i]); fits[i] names texts[i] in
	                             messages (the C API's fits) */
	const char *group;        /* of a groups file (fit --by): the one
	                             group (fitgroups.h's selector); NULL: a
	                             plain fit file, or a groups file of one
	                             group */
	sf_average_asked weights; /* of an average */
	const char *target;       /* "NAME=VALUE,...": where it matters */
	const char *over;         /* candidates along one input */
	const char *const *set;   /* with over: "NAME=VALUE,..." texts */
	size_t nset;
	const char *candidates; /* or a CSV of candidates */
	double budget;          /* of a plan, in the output's unit times
	                           workers; INFINITY: none */
	size_t runs;            /* the most runs planned; 0: 1000 with a
	                           budget, else 1 */
	size_t top;             /* ranked candidates reported */
	int json;               /* 1: build the JSON document too */
	sf_warn_fn warn;        /* warnings; NULL: none */
	void *warn_ctx;
} sf_run_next_settings;

/* Zero everything, with no budget (INFINITY) and the top 10. */
void sf_run_next_settings_init(sf_run_next_settings *s);

typedef struct sf_run_next_result {
	sf_fitfile *fit;
	double *target;    /* one value per input of the fit */
	sf_next *next;     /* the candidates ranked, the plan */
	sf_run_output out; /* JSON (when asked) and text */
} sf_run_next_result;

/*
 * Rank the candidates as above.  Returns SF_OK with a new result in *out,
 * or an error with *out NULL: those of reading the fit file or the
 * candidates' CSV, SF_EREQUEST (a target or candidates not understood,
 * neither or both of over and candidates, a fit without its error model,
 * no candidate, a groups file whose group is not chosen, fits that cannot
 * be averaged, --weights or --group with the wrong number of fits),
 * SF_ENOMEM.
 */
int sf_run_next(const sf_run_next_settings *s, sf_run_next_result **out,
                sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_next_result_free(sf_run_next_result *r);

#endif /* SF_RUN_NEXT_H */
