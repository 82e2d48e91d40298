/*
 * csv.h - the measurement table: a CSV file loaded into typed columns.
 *
 * sf_table_load() reads a CSV file (RFC 4180, with the additions listed
 * below) into an immutable sf_table: one header line of column names, then
 * data rows, each column typed as numeric (doubles, NaN for an empty cell)
 * or text (dictionary-encoded: the distinct strings sorted by strcmp, and
 * per row the index of its string, stored as a double).  Every column,
 * numeric or text, is therefore a `const double *` of sf_table_rows()
 * values, which is what the expression evaluator reads; a text literal in a
 * formula (`model == 'cnn'`) is turned into its code once, with
 * sf_table_column_code().
 *
 * The format:
 *   - Fields are separated by a delimiter (',' by default) and records by
 *     LF or CRLF; the last record may lack its line end.
 *   - A field may be quoted with '"'; inside quotes the delimiter, CR and LF
 *     are ordinary characters and '""' stands for one quote.  Spaces and
 *     tabs may surround a quoted field and are dropped; a quote anywhere
 *     else in an unquoted field, or anything but spaces, tabs, a delimiter
 *     or the line end after a closing quote, is an error.
 *   - Unquoted fields are trimmed of surrounding spaces and tabs; the
 *     content of a quoted field is kept exactly.
 *   - A UTF-8 byte order mark at the start is skipped.  A line whose first
 *     byte is the comment character ('#' by default) is a comment, and a
 *     line of only spaces and tabs is blank; both are skipped wherever they
 *     appear outside quotes (so a one-column file writes a missing value as
 *     "").  Other bytes, invalid UTF-8 included, pass through; a NUL byte is
 *     an error.
 *   - The first record that is not a comment or blank is the header: the
 *     column names, trimmed of surrounding spaces (quoted or not), kept
 *     otherwise as written.  They must be non-empty and distinct; they need
 *     not be identifiers.  At least one data row must follow.
 *   - Every data row has as many fields as the header.
 *
 * Column types.  A non-empty cell is a *number* when all of it is a decimal
 * floating-point literal, [+-]digits[.digits][(e|E)[+-]digits] (digits on
 * at least one side of the point), read as the correctly rounded double
 * whatever the process locale (base/number.h).  Hexadecimal numbers,
 * thousands separators and decimal commas are not numbers.  "nan", "inf"
 * and "infinity" (any case, optional sign) are *non-finite markers*.  Then,
 * per column, counting its non-empty cells:
 *   1. all numbers (and at least one): numeric;
 *   2. numbers and non-finite markers only: an error at the first marker
 *      (a measurement is finite; leave the cell empty for a missing value);
 *   3. a number that overflows a double (1e999): an error at that cell
 *      when the column is otherwise numeric, as in 1 or 2 (an underflow
 *      rounds to zero or a subnormal, and is accepted);
 *   4. some other cells, but numbers make up at least numeric_share (90%
 *      by default) of the non-empty cells: an error at the first cell that
 *      is not a finite number, since this is a numeric column with a typo
 *      ("12.5x", "0x10", "n/a") rather than a text column;
 *   5. otherwise text.  An all-empty column is numeric (all NaN).
 * In a text column every cell is text, numbers and markers as written and
 * an empty cell as the string "" (a level like any other, sorting first).
 *
 * Positions.  Errors name FILE:LINE:COL, line and column counting from 1,
 * the column in bytes (after the byte order mark on line 1), and quote the
 * offending physical line (sf_error_quote()).  A field-count error points at
 * the start of the first extra field or at the end of a short record; a
 * quote error at the quote; a cell error at the cell's first byte (its
 * opening quote if quoted).  Each data row keeps the line its record starts
 * on (sf_table_row_lines()), so later stages can cite a row.
 *
 * Errors (the int returned by every fallible function; err filled when not
 * NULL):
 *   SF_ENOMEM   out of memory;
 *   SF_EIO      the file cannot be opened or read, or changed while read;
 *   SF_ESYNTAX  empty file (no header), a NUL byte, an unterminated quote
 *               (at the opening quote), a quote inside an unquoted field,
 *               text after a closing quote, the wrong number of fields, a
 *               file or record too long to number (over INT_MAX lines or
 *               bytes on a line);
 *   SF_ENAME    an empty or duplicate column name (the message also gives
 *               the line and column of the first occurrence);
 *   SF_EVALUE   a header without data rows; a non-finite marker or an
 *               overflowing number in a numeric column; a bad option;
 *   SF_ETYPE    a cell that is not a number in a mostly numeric column.
 *
 * Ownership.  A table owns all of its memory, copies everything it keeps
 * (the file name, the names, the strings) and keeps nothing of the caller's
 * after sf_table_load() or sf_table_parse() returns.  Pointers returned by
 * the accessors belong to the table and stay valid until sf_table_free().
 *
 * Thread safety.  Loading touches no global state: no setlocale(), no
 * statics, so tables may be loaded on several threads at once.  A loaded
 * table is never modified, so any number of threads may read one
 * concurrently; sf_table_free() must not race with readers.
 *
 * Memory.  sf_table_load() streams a regular file through a fixed-size
 * buffer (grown only for a record longer than it), so a table of R rows and
 * C columns needs about 8 * R * C bytes plus 4 * R for line numbers, not the
 * size of the file.  A pipe or other non-seekable input is read into memory
 * whole.  A text column that holds numbers is reread in a second pass
 * (rereading a regular file, after which its SHA-256 must be unchanged).
 */
#ifndef SF_CSV_H
#define SF_CSV_H

#include <stddef.h>

#include "base/error.h"

/* "No such column / string / name": returned by the lookup functions. */
#define SF_CSV_NONE ((size_t)-1)

/* The type a column was given (see "Column types" above). */
typedef enum sf_csv_kind {
	SF_CSV_NUMERIC = 0, /* doubles; NaN marks an empty cell */
	SF_CSV_TEXT         /* codes into the sorted distinct strings */
} sf_csv_kind;

/*
 * Reading options.  Initialise with sf_csv_options_init() and change the
 * fields you need; passing NULL where options are expected means the
 * defaults.
 */
typedef struct sf_csv_options {
	char delimiter;       /* field separator: ',' (also ';', '\t', '|'...);
	                         not '"', CR, LF, NUL, space or the comment */
	char comment;         /* comment marker at the start of a line: '#';
	                         '\0' for none */
	double numeric_share; /* rule 4 above: 0.9; a value above 1 turns the
	                         rule off (mixed columns become text) */
} sf_csv_options;

/* An immutable loaded table.  Opaque; read it with the accessors below. */
typedef struct sf_table sf_table;

/* Set opt to the defaults: ',', '#', 0.9. */
void sf_csv_options_init(sf_csv_options *opt);

/*
 * Load the CSV file at path into a new table, stored in *out (and *out is
 * NULL on failure).  opt may be NULL for the defaults.  The table records
 * path as its file name, used in errors and returned by sf_table_file().
 * Returns SF_OK or an error code listed at the top of this file, with err
 * (optional) naming the file, line and column.  The caller frees the table
 * with sf_table_free().  Thread-safe (see above).
 */
int sf_table_load(const char *path, const sf_csv_options *opt, sf_table **out,
                  sf_error *err);

/*
 * Parse length bytes of CSV text at text (need not be NUL-terminated, may
 * hold any bytes) into a new table, as sf_table_load() does for a file.
 * name (may be NULL) is used as the file name in errors and by
 * sf_table_file().  The text is not kept.  Same returns and ownership as
 * sf_table_load().
 */
int sf_table_parse(const char *text, size_t length, const char *name,
                   const sf_csv_options *opt, sf_table **out, sf_error *err);

/* Free table t and everything it owns.  Accepts NULL. */
void sf_table_free(sf_table *t);

/* The file name given to load or parse ("" when parse had none). */
const char *sf_table_file(const sf_table *t);

/*
 * The SHA-256 of every byte of the input (byte order mark, comments and
 * line ends included), as 64 lower-case hex digits.
 */
const char *sf_table_sha256(const sf_table *t);

/* The number of data rows (at least 1). */
size_t sf_table_rows(const sf_table *t);

/* The number of columns (at least 1). */
size_t sf_table_columns(const sf_table *t);

/*
 * For each data row in order, the 1-based line of the file its record
 * starts on: an array of sf_table_rows(t) ints.
 */
const int *sf_table_row_lines(const sf_table *t);

/* The name of column col (0-based, < sf_table_columns()), as trimmed. */
const char *sf_table_column_name(const sf_table *t, size_t col);

/* Where column col's name is in the header: 1-based line and column. */
void sf_table_column_position(const sf_table *t, size_t col, int *line,
                              int *column);

/* The index of the column named exactly name, or SF_CSV_NONE. */
size_t sf_table_column_find(const sf_table *t, const char *name);

/*
 * The index of the column whose name is the likeliest misspelling of name,
 * for "did you mean" hints, as every name scalefit suggests is chosen
 * (sf_suggest_nearest(), base/suggest.h), or SF_CSV_NONE when none is
 * close.
 */
size_t sf_table_column_nearest(const sf_table *t, const char *name);

/* The type of column col. */
sf_csv_kind sf_table_column_kind(const sf_table *t, size_t col);

/*
 * The sf_table_rows(t) values of column col: the numbers of a numeric
 * column (NaN for an empty cell), or for a text column each row's code,
 * an integer index into sf_table_column_levels().
 */
const double *sf_table_column_values(const sf_table *t, size_t col);

/* How many cells of numeric column col are empty (NaN); 0 for text. */
size_t sf_table_column_missing(const sf_table *t, size_t col);

/*
 * The distinct strings of text column col, sorted by strcmp; their number
 * is stored in *count.  For a numeric column returns NULL and *count = 0.
 */
const char *const *sf_table_column_levels(const sf_table *t, size_t col,
                                          size_t *count);

/*
 * The code of string text in text column col (its index in the sorted
 * levels), or SF_CSV_NONE when no cell of the column holds text or the
 * column is numeric.  A comparison with an absent string is then known to
 * be false for every row.
 */
size_t sf_table_column_code(const sf_table *t, size_t col, const char *text);

/*
 * For a text column, its first non-empty cell that is not a finite number:
 * the position (file, line, column, quoted line) and a message such as
 * "'n/a' is not a number", so a caller needing numbers can explain why the
 * column is text.  NULL for a numeric column.
 */
const sf_error *sf_table_column_first_text(const sf_table *t, size_t col);

#endif /* SF_CSV_H */
