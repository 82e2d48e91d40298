/*
 * test_units.c - units of work and shared reads (base/units).
 *
 * Run alone it checks the plain path: units in index order, a failing
 * unit's error, a read that is the reader's own.  In a build configured
 * --with-mpi this program is compiled with its own copy of units.c whose
 * pieces (SF_UNITS_CHUNK) are 1000 bytes instead of 1 GiB, and
 * tests/fleet.sh runs it under mpirun -np 2 and 3: the results (tens of
 * kilobytes) and a read (5000 bytes) then travel in many pieces, as more
 * than 2 GiB would with the real size, and every rank must hold the same
 * bytes as one process computes.
 */
#include "base/units.h"

#include "testing.h"

#include <stdint.h>

/* Unit i's result: 1 + (i * 37) % 2000 bytes, byte k = (7 i + k) & 0xff. */
static size_t
unit_size(size_t i)
{
	return 1 + (i * 37) % 2000;
}

static int
unit_bytes(void *ctx, size_t index, char **out, size_t *size, sf_error *err)
{
	const size_t *fail_at = ctx;
	size_t n = unit_size(index);

	if (fail_at != NULL && index == *fail_at)
		return sf_error_at(err, SF_EVALUE, "unit", (int)index, 2,
		                   "unit %zu fails", index);
	if ((*out = malloc(n)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++)
		(*out)[k] = (char)((7 * index + k) & 0xff);
	*size = n;
	return SF_OK;
}

/* 1 when result i holds unit i's bytes. */
static int
unit_ok(const char *r, size_t size, size_t i)
{
	if (r == NULL || size != unit_size(i))
		return 0;
	for (size_t k = 0; k < size; k++)
		if ((unsigned char)r[k] != ((7 * i + k) & 0xff))
			return 0;
	return 1;
}

enum { NUNITS = 60 };

static void
test_results_in_order(void)
{
	char *results[NUNITS];
	size_t sizes[NUNITS], total = 0;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(
	    sf_units_run(NUNITS, unit_bytes, NULL, results, sizes, &err),
	    SF_OK);
	for (size_t i = 0; i < NUNITS; i++) {
		CU_ASSERT(unit_ok(results[i], sizes[i], i));
		total += sizes[i];
		free(results[i]);
	}
	/* More than the pieces of the MPI test build: they travel in many. */
	CU_ASSERT(total > 20 * 1000);
}

static void
test_results_to_root(void)
{
	char *results[NUNITS];
	size_t sizes[NUNITS];
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_units_run_to_root(NUNITS, unit_bytes, NULL,
	                                           results, sizes, &err),
	                      SF_OK);
	for (size_t i = 0; i < NUNITS; i++) {
		if (sf_units_root()) {
			CU_ASSERT(unit_ok(results[i], sizes[i], i));
		} else {
			CU_ASSERT_PTR_NULL(results[i]);
		}
		free(results[i]);
	}
}

static void
test_failing_unit(void)
{
	char *results[NUNITS];
	size_t sizes[NUNITS], fail_at = 41;
	sf_error err;

	sf_error_clear(&err);
	CU_ASSERT_EQUAL(
	    sf_units_run(NUNITS, unit_bytes, &fail_at, results, sizes, &err),
	    SF_EVALUE);
	CU_ASSERT_STRING_EQUAL(err.message, "unit 41 fails");
	CU_ASSERT_EQUAL(err.line, 41);
	for (size_t i = 0; i < NUNITS; i++)
		CU_ASSERT_PTR_NULL(results[i]);
}

/* A reader: 5000 bytes, byte k = k % 251, or an error at input.csv:3:4;
 * counts its calls. */
typedef struct reader {
	int calls;
	int fail;
} reader;

enum { READ_SIZE = 5000 };

static int
read_bytes(void *ctx, char **out, size_t *size, sf_error *err)
{
	reader *r = ctx;

	r->calls++;
	*out = NULL;
	*size = 0;
	if (r->fail)
		return sf_error_at(err, SF_EIO, "input.csv", 3, 4,
		                   "cannot read: it is rank %d's",
		                   sf_units_rank());
	if ((*out = malloc(READ_SIZE)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t k = 0; k < READ_SIZE; k++)
		(*out)[k] = (char)(k % 251);
	*size = READ_SIZE;
	return SF_OK;
}

static void
test_read_once(void)
{
	reader r = {0, 0};
	char *text = NULL;
	size_t size = 0;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_units_read(read_bytes, &r, &text, &size, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(size, READ_SIZE);
	for (size_t k = 0; text != NULL && k < size; k++)
		if ((unsigned char)text[k] != k % 251) {
			CU_FAIL("another byte than rank 0 read");
			break;
		}
	/* Only rank 0 reads when the read is shared. */
	CU_ASSERT_EQUAL(r.calls,
	                sf_units_sharing() && !sf_units_root() ? 0 : 1);
	free(text);
}

static void
test_read_error(void)
{
	reader r = {0, 1};
	char *text = (char *)"not touched";
	size_t size = 1;
	sf_error err;

	sf_error_clear(&err);
	CU_ASSERT_EQUAL(sf_units_read(read_bytes, &r, &text, &size, &err),
	                SF_EIO);
	/* Every rank has rank 0's message. */
	CU_ASSERT_STRING_EQUAL(err.message, "cannot read: it is rank 0's");
	CU_ASSERT_STRING_EQUAL(err.file, "input.csv");
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_EQUAL(err.column, 4);
	CU_ASSERT_PTR_NULL(text);
}

/* A unit that reads: inside a unit the read is the unit's own. */
static int
unit_reads(void *ctx, size_t index, char **out, size_t *size, sf_error *err)
{
	reader r = {0, 0};
	char *text;
	size_t n;
	int rc;

	(void)ctx;
	(void)index;
	if (sf_units_sharing())
		return sf_error_set(err, SF_EINTERNAL, "a unit shares reads");
	if ((rc = sf_units_read(read_bytes, &r, &text, &n, err)) != SF_OK)
		return rc;
	free(text);
	if ((*out = malloc(sizeof r.calls)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	memcpy(*out, &r.calls, sizeof r.calls);
	*size = sizeof r.calls;
	return SF_OK;
}

static void
test_read_inside_unit(void)
{
	char *results[5];
	size_t sizes[5];
	sf_error err;
	int calls;

	CU_ASSERT_EQUAL_FATAL(
	    sf_units_run(5, unit_reads, NULL, results, sizes, &err), SF_OK);
	for (size_t i = 0; i < 5; i++) {
		CU_ASSERT_EQUAL(sizes[i], sizeof calls);
		memcpy(&calls, results[i], sizeof calls);
		CU_ASSERT_EQUAL(calls, 1);
		free(results[i]);
	}
}

/* A reader that reads: its read is rank 0's own (the others are not in
 * it, so a shared read would wait for them forever). */
static int
read_inside_read(void *ctx, char **out, size_t *size, sf_error *err)
{
	reader inner = {0, 0};
	int rc;

	(void)ctx;
	if (sf_units_sharing())
		return sf_error_set(err, SF_EINTERNAL, "a reader shares reads");
	if ((rc = sf_units_read(read_bytes, &inner, out, size, err)) != SF_OK)
		return rc;
	if (inner.calls != 1)
		return sf_error_set(err, SF_EINTERNAL,
		                    "the reader was not run");
	return SF_OK;
}

static void
test_read_inside_read(void)
{
	char *text = NULL;
	size_t size = 0;
	sf_error err;

	sf_error_clear(&err);
	CU_ASSERT_EQUAL(
	    sf_units_read(read_inside_read, NULL, &text, &size, &err), SF_OK);
	CU_ASSERT_STRING_EQUAL(err.message, "");
	CU_ASSERT_EQUAL(size, READ_SIZE);
	free(text);
}

static void
test_seed(void)
{
	/* A unit's seed depends on the run's seed, the stream and the index
	 * only. */
	CU_ASSERT_EQUAL(sf_units_seed(7, 1, 3), sf_units_seed(7, 1, 3));
	CU_ASSERT_NOT_EQUAL(sf_units_seed(7, 1, 3), sf_units_seed(7, 1, 4));
	CU_ASSERT_NOT_EQUAL(sf_units_seed(7, 1, 3), sf_units_seed(7, 2, 3));
	CU_ASSERT_NOT_EQUAL(sf_units_seed(7, 1, 3), sf_units_seed(8, 1, 3));
}

static CU_TestInfo units_tests[] = {
    {"results in index order", test_results_in_order},
    {"results to rank 0", test_results_to_root},
    {"a failing unit fails the run", test_failing_unit},
    {"an input read once", test_read_once},
    {"rank 0's read error on every rank", test_read_error},
    {"a read inside a unit is its own", test_read_inside_unit},
    {"a read inside a reader is rank 0's own", test_read_inside_read},
    {"seeds", test_seed},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"units", NULL, NULL, NULL, NULL, units_tests},
    CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	sf_error err;

	sf_error_clear(&err);
	if (sf_units_init(&argc, &argv, &err) != SF_OK) {
		fprintf(stderr, "test_units: %s\n", err.message);
		return 2;
	}
	return sf_units_finish(sf_test_main(suites));
}
