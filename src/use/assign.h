/*
 * assign.h - values for a fit's inputs, as people write them: on the
 * command line ("p=64,b=32,n=1.28e6") or as the columns of a CSV grid.
 *
 * Names are the formula's input names (the keys of FIT.json's
 * model.inputs); a misspelt one is answered with the nearest known name.
 * Numbers are read by number.h (C locale, complete, finite).  A text input
 * takes one of the values it had in the fitted data, and is stored as that
 * value's code, as the compiled formula expects.
 *
 * Errors fill err with a message meant to follow the option's name
 * ("--at: ...") and no position for command-line text; grid errors name
 * FILE:LINE:COL.  Thread-safe; nothing is kept from the arguments.
 */
#ifndef SF_ASSIGN_H
#define SF_ASSIGN_H

#include "input/csv.h"
#include "base/error.h"
#include "use/fitfile.h"

#include <stddef.h>

/*
 * The slot of input name in f, or SF_FITFILE_NONE with err filled
 * (SF_ENAME: "unknown input 'q'; did you mean 'p'? (inputs: p, n)").
 */
size_t sf_assign_input(const sf_fitfile *f, const char *name, sf_error *err);

/*
 * Read one value of input i from text: a number, or for a text input one
 * of its values.  Returns SF_OK, SF_ESYNTAX (not a number), SF_EVALUE
 * (out of range) or SF_ENAME (an unknown text value), err naming text.
 */
int sf_assign_value(const sf_fitfile *f, size_t i, const char *text,
                    double *value, sf_error *err);

/*
 * Parse "name=value[,name=value]..." into values (one slot per input):
 * values[i] is set and given[i] becomes 1 for each name.  Returns SF_OK or
 * SF_ESYNTAX (an item that is not name=value, a bad number), SF_ENAME (an
 * unknown input, one given twice in text), SF_EVALUE, with err filled.
 */
int sf_assign_parse(const sf_fitfile *f, const char *text, double *values,
                    unsigned char *given, sf_error *err);

/*
 * The points of a CSV grid: *columns gets f->ninputs new arrays of
 * sf_table_rows(t) values each (free with sf_assign_columns_free()).
 * Input i takes the grid's column of its own name, or else, as fit read it
 * from the data, its text: exprs[i] when exprs and it are not NULL (an
 * --input override, which the column of its name does not outrank), else
 * the fit's model.inputs entry: a column of that name whole (a text
 * input's values translated to the fit's codes), or an expression over the
 * grid's numeric columns (input/dataset.h).  So a grid is a column per
 * input, the data's own columns, or both.  Other columns are ignored.
 * Returns SF_OK, or SF_ENAME (a missing column, named with the nearest one
 * and the input's text; an unknown text value), SF_ETYPE (text in a
 * numeric input's column), SF_EVALUE (an empty cell; a value that is not a
 * number), SF_ESYNTAX (a bad --input expression), SF_ENOMEM, with err at
 * FILE:LINE:COL.
 */
int sf_assign_grid(const sf_fitfile *f, const sf_table *t,
                   const char *const *exprs, double ***columns, sf_error *err);

/* sf_assign_grid() with the fit's own inputs (exprs NULL). */
int sf_assign_table(const sf_fitfile *f, const sf_table *t, double ***columns,
                    sf_error *err);

/* Free n columns made by sf_assign_table().  Accepts NULL. */
void sf_assign_columns_free(double **columns, size_t n);

#endif /* SF_ASSIGN_H */
