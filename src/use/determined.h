/*
 * determined.h - which inputs the others determine in the fitted rows.
 *
 * A sweep varies one input and holds the others.  When the data has an
 * input that is a function of the others (the steps of a run, made of
 * its samples, workers and batch) and changes with the swept one, holding
 * it fixed pairs values the runs never paired: `scale` warns, and the
 * model should declare it derived (inputs: NAME: {derived: EXPR},
 * input/model.h), so that it follows the inputs it is made of.
 *
 * Pure functions of their arguments; thread-safe.
 */
#ifndef SF_DETERMINED_H
#define SF_DETERMINED_H

#include <stddef.h>

/*
 * Over the n rows of x (row-major, k columns; the values compared as they
 * are), whether column y is determined by the others and moves with
 * column w (w != y): rows equal in every other column are equal in y,
 * and some rows equal in every column but y and w differ in y (so in w
 * too).  *out gets 1 or 0.  Returns 0, or -1 when out of memory (*out 0).
 * O(n log n) time, O(n) memory.
 */
int sf_determined_moves(const double *x, size_t n, size_t k, size_t y, size_t w,
                        int *out);

/*
 * The held input of the rows x (n rows, k columns, as above) that warns a
 * sweep of column s: among the columns other than s and those skip marks
 * (skip may be NULL; skip[c] != 0 leaves column c out: a text input) that
 * are determined and move with s, the one with the most distinct values
 * (a quantity made of others takes more values than each of them: a
 * run's steps beside its batch, which its steps determine as well).
 * *out gets its index, or k when there is none.  Returns 0, or -1 when
 * out of memory (*out k).
 */
int sf_determined_held(const double *x, size_t n, size_t k, size_t s,
                       const int *skip, size_t *out);

#endif /* SF_DETERMINED_H */
