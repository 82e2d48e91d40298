/*
 * fuzz.h - what the fuzz targets share: the entry point libFuzzer (or
 * standalone.c) calls, and the check that turns a broken invariant into
 * an abort the fuzzer reports.
 */
#ifndef SF_FUZZ_H
#define SF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz: %s:%d: %s\n", __FILE__,         \
			        __LINE__, #cond);                              \
			abort();                                               \
		}                                                              \
	} while (0)

#endif /* SF_FUZZ_H */
