/*
 * fuzz_fitfile.c - fuzz target for the FIT.json reader (sf_fitfile_parse),
 * what predict, scale and next start from.
 *
 * With libFuzzer (tests/fuzz/libfuzzer.sh does this):
 *   tests/fuzz/libfuzzer.sh fitfile 600
 * Without it (any C compiler, for CI smoke runs), tests/fuzz/standalone.c
 * gives it a main() that runs the target once on every file named on the
 * command line or found in the directories named there; make check
 * builds it and tests/fuzz/smoke.sh runs it:
 *   tests/fuzz/fuzz_fitfile tests/fuzz/corpus_fitfile
 *
 * The whole input is the file's text, so every seed is a FIT.json.
 * Beyond "no crash, no hang, no leak", the target checks what predict and
 * scale rely on:
 * - a failure leaves *out NULL, the status in err.code, a message and a
 *   position that is not negative;
 * - a success gives a compiled formula, fitted values that are finite, a
 *   covariance whose diagonal is not negative where estimated, input
 *   ranges lo <= hi where known, levels that
 *   sf_fitfile_level_find() finds again, inputs that
 *   sf_fitfile_input_find() finds again, finite bootstrap replicates (at
 *   least SF_FITFILE_MIN_SAMPLES when any) and finite measured rows.
 * A broken invariant aborts, which the fuzzer reports.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "use/fitfile.h"

static void
fuzz_check_fit(const sf_fitfile *f)
{
	size_t p = f->nparams;

	FUZZ_CHECK(f->formula != NULL);
	FUZZ_CHECK(f->time != NULL && f->time[0] != '\0');
	for (size_t i = 0; i < p; i++) {
		FUZZ_CHECK(f->param_names[i] != NULL);
		FUZZ_CHECK(isfinite(f->theta[i]));
	}
	if (f->cov != NULL)
		for (size_t i = 0; i < p; i++)
			FUZZ_CHECK(isnan(f->cov[i * p + i]) ||
			           f->cov[i * p + i] >= 0);
	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		FUZZ_CHECK(sf_fitfile_input_find(f, in->name) <= i);
		FUZZ_CHECK(isnan(in->lo) || isnan(in->hi) || in->lo <= in->hi);
		for (size_t k = 0; k < in->nlevels; k++) {
			FUZZ_CHECK(k == 0 || strcmp(in->levels[k - 1],
			                            in->levels[k]) < 0);
			FUZZ_CHECK(sf_fitfile_level_find(f, i, in->levels[k]) ==
			           k);
		}
	}
	FUZZ_CHECK(f->nsamples == 0 || f->nsamples >= SF_FITFILE_MIN_SAMPLES);
	for (size_t k = 0; k < f->nsamples * p; k++)
		FUZZ_CHECK(isfinite(f->samples[k]));
	for (size_t r = 0; r < f->nmeasured; r++) {
		FUZZ_CHECK(isfinite(f->measured[r]));
		for (size_t i = 0; i < f->ninputs; i++)
			FUZZ_CHECK(
			    isfinite(f->measured_inputs[r * f->ninputs + i]));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sf_fitfile *f = (sf_fitfile *)&size; /* must come back NULL on error */
	sf_error err;
	int status;

	status =
	    sf_fitfile_parse((const char *)data, size, "fuzz.json", &f, &err);
	if (status != SF_OK) {
		char msg[2048];

		FUZZ_CHECK(f == NULL);
		FUZZ_CHECK(err.code == status);
		FUZZ_CHECK(err.message[0] != '\0');
		FUZZ_CHECK(err.line >= 0 && err.column >= 0);
		sf_error_format(&err, "error", msg, sizeof msg);
		return 0;
	}
	fuzz_check_fit(f);
	sf_fitfile_free(f);
	return 0;
}
