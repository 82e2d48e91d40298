/*
 * fuzz_csv.c - fuzz target for the CSV reader (sf_table_parse).
 *
 * With libFuzzer (tests/fuzz/libfuzzer.sh does this):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -Isrc src/error.c src/sha256.c src/csv.c tests/fuzz/fuzz_csv.c \
 *       -lm -o fuzz_csv
 *   ./fuzz_csv tests/fuzz/corpus_csv
 * Without it (any C compiler, for CI smoke runs), tests/fuzz/standalone.c
 * gives it a main() that runs the target once on every file named on the
 * command line or found in the directories named there; make check
 * builds it and tests/fuzz/smoke.sh runs it:
 *   tests/fuzz/fuzz_csv tests/fuzz/corpus_csv
 *
 * The first input byte picks the options (delimiter, comment, share), so
 * the fuzzer explores them too; the rest is the CSV text.  Beyond "no
 * crash, no leak", the target checks invariants a caller relies on: a
 * failure leaves *out NULL and an error code in err; a success gives a
 * table whose text codes are in range, whose levels are sorted and
 * distinct, whose row lines increase, and whose numeric cells are finite
 * or NaN.  A broken invariant aborts, which the fuzzer reports.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "input/csv.h"

static void
fuzz_check_table(const sf_table *t)
{
	size_t rows = sf_table_rows(t), cols = sf_table_columns(t);
	const int *lines = sf_table_row_lines(t);

	FUZZ_CHECK(rows > 0 && cols > 0);
	FUZZ_CHECK(strlen(sf_table_sha256(t)) == 64);
	for (size_t r = 0; r < rows; r++)
		FUZZ_CHECK(lines[r] >= 2 &&
		           (r == 0 || lines[r] > lines[r - 1]));
	for (size_t c = 0; c < cols; c++) {
		const double *v = sf_table_column_values(t, c);
		const char *name = sf_table_column_name(t, c);
		size_t n, missing = 0;
		const char *const *levels = sf_table_column_levels(t, c, &n);

		FUZZ_CHECK(name[0] != '\0');
		FUZZ_CHECK(sf_table_column_find(t, name) == c);
		if (sf_table_column_kind(t, c) == SF_CSV_NUMERIC) {
			FUZZ_CHECK(levels == NULL && n == 0);
			FUZZ_CHECK(sf_table_column_first_text(t, c) == NULL);
			for (size_t r = 0; r < rows; r++) {
				FUZZ_CHECK(isfinite(v[r]) || isnan(v[r]));
				missing += isnan(v[r]) != 0;
			}
			FUZZ_CHECK(missing == sf_table_column_missing(t, c));
			continue;
		}
		FUZZ_CHECK(levels != NULL && n > 0 && n <= rows);
		FUZZ_CHECK(sf_table_column_first_text(t, c) != NULL);
		for (size_t i = 1; i < n; i++)
			FUZZ_CHECK(strcmp(levels[i - 1], levels[i]) < 0);
		for (size_t i = 0; i < n; i++)
			FUZZ_CHECK(sf_table_column_code(t, c, levels[i]) == i);
		for (size_t r = 0; r < rows; r++)
			FUZZ_CHECK(v[r] >= 0 && v[r] < (double)n &&
			           v[r] == floor(v[r]));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char delimiters[] = {',', ';', '\t', '|'};
	sf_csv_options opt;
	sf_table *t = (sf_table *)&opt; /* must come back NULL on error */
	sf_error err;
	int status;

	sf_csv_options_init(&opt);
	if (size > 0) {
		opt.delimiter = delimiters[data[0] & 3];
		opt.comment = data[0] & 4 ? '\0' : '#';
		opt.numeric_share = data[0] & 8 ? 0.5 : 0.9;
		data++;
		size--;
	}
	status = sf_table_parse((const char *)data, size, "fuzz.csv", &opt, &t,
	                        &err);
	if (status != SF_OK) {
		char msg[2048];

		FUZZ_CHECK(t == NULL);
		FUZZ_CHECK(err.code == status);
		FUZZ_CHECK(err.message[0] != '\0');
		FUZZ_CHECK(err.line >= 0 && err.column >= 0);
		sf_error_format(&err, "error", msg, sizeof msg);
		return 0;
	}
	fuzz_check_table(t);
	sf_table_free(t);
	return 0;
}
