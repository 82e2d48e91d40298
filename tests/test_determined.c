/*
 * test_determined.c - which inputs the others determine in the fitted
 * rows (use/determined.h): a run's steps made of its samples, workers and
 * batch move with the workers, and are the held input a sweep of them
 * warns of (not the batch, which the steps determine too); a free input of
 * a full grid does not move; an input the others fix but that never
 * changes with the one asked about does not move with it.
 */
#include "use/determined.h"
#include "testing.h"

#include <math.h>

/* Rows of p, b, n, steps = max(1, floor(n / (p b))), over a grid of p
 * and b at two n, in a scrambled order. */
enum { ROWS = 2 * 5 * 3, K = 4 };

static void
grid(double *x)
{
	static const double ps[] = {16, 1, 4, 2, 8}, bs[] = {64, 32, 128};
	size_t r = 0;

	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < 5; j++)
			for (size_t l = 0; l < 3; l++, r++) {
				double *row = x + r * K, n = i ? 50000 : 20000;

				row[0] = ps[j];
				row[1] = bs[l];
				row[2] = n;
				row[3] = fmax(1, floor(n / (ps[j] * bs[l])));
			}
}

static void
test_moves(void)
{
	double x[ROWS * K], x3[ROWS * 3];
	int moves = -1, skip[K] = {0};
	size_t held;

	grid(x);
	/* steps is made of the others and changes with p, with b, with n */
	for (size_t w = 0; w < 3; w++) {
		CU_ASSERT_EQUAL(sf_determined_moves(x, ROWS, K, 3, w, &moves),
		                0);
		CU_ASSERT_EQUAL(moves, 1);
	}
	/* b is free of p and n, but steps determines it too (rows of equal
	 * n and steps and other p differ in b): of the two, steps takes
	 * more values, and is the one made of the others */
	CU_ASSERT_EQUAL(sf_determined_moves(x, ROWS, K, 1, 0, &moves), 0);
	CU_ASSERT_EQUAL(moves, 1);
	CU_ASSERT_EQUAL(sf_determined_held(x, ROWS, K, 0, NULL, &held), 0);
	CU_ASSERT_EQUAL(held, 3);
	skip[3] = 1;
	CU_ASSERT_EQUAL(sf_determined_held(x, ROWS, K, 0, skip, &held), 0);
	CU_ASSERT_EQUAL(held, 1);
	/* without steps, b is free: rows equal in p and n take several b */
	for (size_t r = 0; r < ROWS; r++)
		x3[r * 3] = x[r * K], x3[r * 3 + 1] = x[r * K + 1],
		       x3[r * 3 + 2] = x[r * K + 2];
	CU_ASSERT_EQUAL(sf_determined_moves(x3, ROWS, 3, 1, 0, &moves), 0);
	CU_ASSERT_EQUAL(moves, 0);
	CU_ASSERT_EQUAL(sf_determined_held(x3, ROWS, 3, 0, NULL, &held), 0);
	CU_ASSERT_EQUAL(held, 3);
	/* with every steps the same at each (p, b, n), held n moves not */
	for (size_t r = 0; r < ROWS; r++)
		x[r * K + 2] = 50000, x[r * K + 3] = 7;
	CU_ASSERT_EQUAL(sf_determined_moves(x, ROWS, K, 3, 0, &moves), 0);
	CU_ASSERT_EQUAL(moves, 0);
	/* no rows, one row */
	CU_ASSERT_EQUAL(sf_determined_moves(x, 0, K, 3, 0, &moves), 0);
	CU_ASSERT_EQUAL(moves, 0);
	CU_ASSERT_EQUAL(sf_determined_moves(x, 1, K, 3, 0, &moves), 0);
	CU_ASSERT_EQUAL(moves, 0);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"a run's steps move with its workers; a free batch not",
	     test_moves},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"determined", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
