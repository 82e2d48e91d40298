/*
 * test_csv.c - CUnit tests of the CSV reader (csv.[ch]) and SHA-256
 * (sha256.[ch]).
 *
 * Good files under tests/data/csv/good are loaded and checked cell by cell;
 * every file under tests/data/csv/bad is in the table bad_files below with
 * the error code, line, column and message part it must produce.  The
 * number converter is checked against strtod() on two million generated
 * literals, and again under a German LC_NUMERIC when the system has one.
 * Fixtures are found under $srcdir (the top source directory, set by
 * `make check`), or the current directory.
 */
#define _POSIX_C_SOURCE 200809L

#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input/csv.h"
#include "base/sha256.h"
#include "testing.h"

/* The path of fixture tests/data/csv/NAME, in a static buffer (tests are
 * serial). */
static const char *
fixture(const char *name)
{
	char rel[1024];

	snprintf(rel, sizeof rel, "csv/%s", name);
	return sf_test_data(rel);
}

/* Load fixture name with default options; fails the test on error. */
static sf_table *
load_good(const char *name, const sf_csv_options *opt)
{
	sf_table *t = NULL;
	sf_error err;
	int status = sf_table_load(fixture(name), opt, &t, &err);

	if (status != SF_OK) {
		char msg[2048];

		sf_error_format(&err, "error", msg, sizeof msg);
		fprintf(stderr, "\n%s", msg);
	}
	CU_ASSERT_EQUAL_FATAL(status, SF_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	return t;
}

/* Is the text-column cell at row r equal to s? */
static int
text_is(const sf_table *t, size_t col, size_t r, const char *s)
{
	size_t n;
	const char *const *levels = sf_table_column_levels(t, col, &n);
	double code = sf_table_column_values(t, col)[r];

	return levels != NULL && code >= 0 && code < (double)n &&
	       strcmp(levels[(size_t)code], s) == 0;
}

/* Are a and b the same double, bit for bit (so -0 != 0, NaN == NaN)? */
static int
same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* ------------------------------------------------------------------ */

static void
test_sha256_vectors(void)
{
	/* FIPS 180-4 examples (and the NIST CAVP "a million a"). */
	static const struct {
		const char *text;
		size_t repeat;
		const char *hex;
	} cases[] = {
	    {"abc", 1,
	     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a"
	     "d"},
	    {"", 1,
	     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85"
	     "5"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c"
	     "1"},
	    {"a", 1000000,
	     "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd"
	     "0"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned char digest[SF_SHA256_SIZE];
		char hex[SF_SHA256_HEX_SIZE];
		sf_sha256 ctx;
		size_t n = strlen(cases[i].text);

		sf_sha256_init(&ctx);
		for (size_t k = 0; k < cases[i].repeat; k++)
			sf_sha256_update(&ctx, cases[i].text, n);
		sf_sha256_final(&ctx, digest);
		sf_sha256_hex(digest, hex);
		CU_ASSERT_STRING_EQUAL(hex, cases[i].hex);
	}
}

/* Pieces of every size give the digest of the whole. */
static void
test_sha256_pieces(void)
{
	unsigned char whole[SF_SHA256_SIZE], split[SF_SHA256_SIZE];
	char text[1000];
	sf_sha256 ctx;

	for (size_t i = 0; i < sizeof text; i++)
		text[i] = (char)(i * 7 + 3);
	sf_sha256_init(&ctx);
	sf_sha256_update(&ctx, text, sizeof text);
	sf_sha256_final(&ctx, whole);
	for (size_t piece = 1; piece <= 130; piece++) {
		sf_sha256_init(&ctx);
		for (size_t off = 0; off < sizeof text; off += piece)
			sf_sha256_update(&ctx, text + off,
			                 off + piece <= sizeof text
			                     ? piece
			                     : sizeof text - off);
		sf_sha256_final(&ctx, split);
		CU_ASSERT(memcmp(whole, split, sizeof whole) == 0);
	}
}

/* ------------------------------------------------------------------ */

static void
test_good_quoting(void)
{
	sf_table *t = load_good("good/quoting.csv", NULL);

	CU_ASSERT_EQUAL(sf_table_rows(t), 3);
	CU_ASSERT_EQUAL(sf_table_columns(t), 3);
	CU_ASSERT_EQUAL(sf_table_column_kind(t, 0), SF_CSV_TEXT);
	CU_ASSERT(text_is(t, 0, 0, "plain"));
	CU_ASSERT(text_is(t, 0, 1, "with, comma"));
	CU_ASSERT(text_is(t, 1, 1, "say \"hi\""));
	CU_ASSERT(text_is(t, 0, 2, "multi\nline"));
	CU_ASSERT(text_is(t, 1, 2, "  kept  "));
	CU_ASSERT_EQUAL(sf_table_column_kind(t, 2), SF_CSV_NUMERIC);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 2)[2], 3.0);
	CU_ASSERT_EQUAL(sf_table_row_lines(t)[0], 2);
	CU_ASSERT_EQUAL(sf_table_row_lines(t)[1], 3);
	CU_ASSERT_EQUAL(sf_table_row_lines(t)[2], 4);
	sf_table_free(t);
}

static void
test_good_crlf(void)
{
	sf_table *t = load_good("good/crlf.csv", NULL);

	CU_ASSERT_STRING_EQUAL(sf_table_column_name(t, 1), "time");
	CU_ASSERT_EQUAL(sf_table_rows(t), 3);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 1)[0], 10.5);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 1)[2], 3.0);
	/* A CRLF inside quotes is content. */
	CU_ASSERT(text_is(t, 0, 2, "a\r\nb"));
	CU_ASSERT(text_is(t, 0, 0, "1"));
	sf_table_free(t);
}

static void
test_good_bom(void)
{
	sf_table *t = load_good("good/bom.csv", NULL);
	int line, column;

	CU_ASSERT_STRING_EQUAL(sf_table_column_name(t, 0), "workers");
	sf_table_column_position(t, 0, &line, &column);
	CU_ASSERT_EQUAL(line, 1);
	CU_ASSERT_EQUAL(column, 1);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 1)[0], 2.5);
	/* sha256sum of the file, BOM included. */
	CU_ASSERT_STRING_EQUAL(
	    sf_table_sha256(t),
	    "c31287543eda12c83a595bb652dd18132d1a36a6399bbe50e7bf7c443e1ebcb2");
	sf_table_free(t);
}

static void
test_good_comments(void)
{
	sf_table *t = load_good("good/comments.csv", NULL);
	int line, column;

	CU_ASSERT_EQUAL(sf_table_rows(t), 2);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 0)[1], 3.0);
	CU_ASSERT_EQUAL(sf_table_row_lines(t)[0], 7);
	CU_ASSERT_EQUAL(sf_table_row_lines(t)[1], 10);
	sf_table_column_position(t, 1, &line, &column);
	CU_ASSERT_EQUAL(line, 5);
	CU_ASSERT_EQUAL(column, 3);
	sf_table_free(t);
}

static void
test_good_no_final_newline(void)
{
	sf_table *t = load_good("good/no_final_newline.csv", NULL);

	CU_ASSERT_EQUAL(sf_table_rows(t), 2);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 1)[1], 4.0);
	sf_table_free(t);
}

static void
test_good_empty_cells(void)
{
	sf_table *t = load_good("good/empty_cells.csv", NULL);

	CU_ASSERT(isnan(sf_table_column_values(t, 0)[1]));
	CU_ASSERT(isnan(sf_table_column_values(t, 1)[0]));
	CU_ASSERT_EQUAL(sf_table_column_missing(t, 0), 1);
	CU_ASSERT_EQUAL(sf_table_column_missing(t, 1), 1);
	/* In a text column an empty cell is the string "". */
	CU_ASSERT_EQUAL(sf_table_column_kind(t, 2), SF_CSV_TEXT);
	CU_ASSERT_EQUAL(sf_table_column_missing(t, 2), 0);
	CU_ASSERT(text_is(t, 2, 1, ""));
	CU_ASSERT_EQUAL(sf_table_column_code(t, 2, ""), 0);
	sf_table_free(t);

	/* "" is an empty cell too (found by the fuzzer: an empty quoted
	 * field before any other quoted field). */
	{
		static const char text[] = "a,b\n\"\",\"x\"\n2,\"\"\n";
		sf_error err;

		CU_ASSERT_EQUAL_FATAL(
		    sf_table_parse(text, sizeof text - 1, NULL, NULL, &t, &err),
		    SF_OK);
		CU_ASSERT(isnan(sf_table_column_values(t, 0)[0]));
		CU_ASSERT_EQUAL(sf_table_column_values(t, 0)[1], 2.0);
		CU_ASSERT(text_is(t, 1, 0, "x"));
		CU_ASSERT(text_is(t, 1, 1, ""));
		sf_table_free(t);
		CU_ASSERT_EQUAL(
		    sf_table_parse("\"\"\n1\n", 5, NULL, NULL, &t, &err),
		    SF_ENAME);
	}
}

static void
test_good_dictionary(void)
{
	sf_table *t = load_good("good/dictionary.csv", NULL);
	static const char *const sorted[] = {"CNN", "cnn", "mlp", "rnn"};
	static const double codes[] = {1, 3, 0, 1, 2, 3};
	const char *const *levels;
	size_t n;

	levels = sf_table_column_levels(t, 0, &n);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_STRING_EQUAL(levels[i], sorted[i]);
	for (size_t r = 0; r < 6; r++)
		CU_ASSERT_EQUAL(sf_table_column_values(t, 0)[r], codes[r]);
	CU_ASSERT_EQUAL(sf_table_column_code(t, 0, "cnn"), 1);
	CU_ASSERT_EQUAL(sf_table_column_code(t, 0, "rnn"), 3);
	CU_ASSERT_EQUAL(sf_table_column_code(t, 0, "gan"), SF_CSV_NONE);
	CU_ASSERT_EQUAL(sf_table_column_code(t, 1, "1"), SF_CSV_NONE);
	CU_ASSERT_PTR_NULL(sf_table_column_levels(t, 1, &n));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NULL(sf_table_column_first_text(t, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(sf_table_column_first_text(t, 0));
	CU_ASSERT_EQUAL(sf_table_column_first_text(t, 0)->line, 2);
	CU_ASSERT_EQUAL(sf_table_column_first_text(t, 0)->column, 1);
	sf_table_free(t);
}

static void
test_good_numbers(void)
{
	static const double expect[] = {0,
	                                1,
	                                -1,
	                                1,
	                                0.5,
	                                -0.5,
	                                1000,
	                                1000,
	                                0.001,
	                                -0.0,
	                                0,
	                                12,
	                                7.25,
	                                42,
	                                1.5e-310,
	                                0,
	                                DBL_MAX,
	                                0.1,
	                                1.2345678901234568e29};
	sf_table *t = load_good("good/numbers.csv", NULL);
	const double *v = sf_table_column_values(t, 0);

	CU_ASSERT_EQUAL_FATAL(sf_table_rows(t),
	                      sizeof expect / sizeof expect[0]);
	CU_ASSERT_EQUAL(sf_table_column_kind(t, 0), SF_CSV_NUMERIC);
	for (size_t r = 0; r < sizeof expect / sizeof expect[0]; r++) {
		CU_ASSERT(same_bits(v[r], expect[r]));
		if (!same_bits(v[r], expect[r]))
			fprintf(stderr, "\nrow %zu: %.17g\n", r, v[r]);
	}
	sf_table_free(t);
}

/* A text column holding numbers is reread: file and memory alike. */
static void
test_good_mixed_text(void)
{
	sf_table *t = load_good("good/mixed_text.csv", NULL);
	const sf_error *why;

	CU_ASSERT_EQUAL(sf_table_column_kind(t, 0), SF_CSV_TEXT);
	CU_ASSERT(text_is(t, 0, 0, "1"));
	CU_ASSERT(text_is(t, 0, 2, "none"));
	CU_ASSERT(text_is(t, 0, 3, "01"));
	CU_ASSERT(text_is(t, 0, 4, ""));
	why = sf_table_column_first_text(t, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(why);
	CU_ASSERT_EQUAL(why->line, 4);
	CU_ASSERT_EQUAL(why->column, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why->message, "'none'"));
	CU_ASSERT_STRING_EQUAL(why->source, "none,3.5");
	sf_table_free(t);
}

static void
test_good_options(void)
{
	sf_csv_options opt;
	sf_table *t;
	sf_error err;

	sf_csv_options_init(&opt);
	opt.delimiter = ';';
	t = load_good("good/semicolon.csv", &opt);
	CU_ASSERT_EQUAL(sf_table_columns(t), 2);
	/* "1,5" is no number: with a decimal comma the column is text. */
	CU_ASSERT_EQUAL(sf_table_column_kind(t, 0), SF_CSV_TEXT);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 1)[0], 2.0);
	sf_table_free(t);

	/* No comment character: '#' starts a name. */
	sf_csv_options_init(&opt);
	opt.comment = '\0';
	CU_ASSERT_EQUAL(sf_table_parse("#a,b\n1,2\n", 9, "x", &opt, &t, &err),
	                SF_OK);
	CU_ASSERT_STRING_EQUAL(sf_table_column_name(t, 0), "#a");
	sf_table_free(t);

	/* Tabs as delimiter are not trimmed away; spaces are. */
	sf_csv_options_init(&opt);
	opt.delimiter = '\t';
	CU_ASSERT_EQUAL(
	    sf_table_parse("a\t b \n 1 \t\n", 11, "x", &opt, &t, &err), SF_OK);
	CU_ASSERT_STRING_EQUAL(sf_table_column_name(t, 1), "b");
	CU_ASSERT_EQUAL(sf_table_column_values(t, 0)[0], 1.0);
	CU_ASSERT_EQUAL(sf_table_column_missing(t, 1), 1);
	sf_table_free(t);

	/* numeric_share above 1: a mostly numeric column becomes text. */
	sf_csv_options_init(&opt);
	opt.numeric_share = 2;
	t = load_good("bad/typo_number.csv", &opt);
	CU_ASSERT_EQUAL(sf_table_column_kind(t, 1), SF_CSV_TEXT);
	CU_ASSERT(text_is(t, 1, 9, "12.5x"));
	CU_ASSERT(text_is(t, 1, 3, "3"));
	sf_table_free(t);

	/* Bad options. */
	static const char delimiters[] = {'"', '\n', '\r', '\0', ' ', '#'};
	for (size_t i = 0; i < sizeof delimiters; i++) {
		sf_csv_options_init(&opt);
		opt.delimiter = delimiters[i];
		t = (sf_table *)&opt;
		CU_ASSERT_EQUAL(
		    sf_table_parse("a\n1\n", 4, "x", &opt, &t, &err),
		    SF_EVALUE);
		CU_ASSERT_PTR_NULL(t);
	}
	sf_csv_options_init(&opt);
	opt.comment = '"';
	CU_ASSERT_EQUAL(sf_table_parse("a\n1\n", 4, "x", &opt, &t, &err),
	                SF_EVALUE);
	sf_csv_options_init(&opt);
	opt.numeric_share = NAN;
	CU_ASSERT_EQUAL(sf_table_load(fixture("good/bom.csv"), &opt, &t, &err),
	                SF_EVALUE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "numeric_share"));
}

/* ------------------------------------------------------------------ */

/* Every bad fixture: what must be reported, and where. */
static const struct {
	const char *file;
	int code;
	int line, column;
	const char *message; /* a part of the message */
} bad_files[] = {
    {"empty.csv", SF_ESYNTAX, 0, 0, "empty file"},
    {"only_comments.csv", SF_ESYNTAX, 0, 0, "no header line"},
    {"header_only.csv", SF_EVALUE, 1, 0, "no data rows"},
    {"header_then_comments.csv", SF_EVALUE, 2, 0, "no data rows"},
    {"too_many_fields.csv", SF_ESYNTAX, 3, 5,
     "expected 2 fields (as in the header), got 3"},
    {"too_few_fields.csv", SF_ESYNTAX, 3, 4,
     "expected 3 fields (as in the header), got 2"},
    {"too_few_fields_crlf.csv", SF_ESYNTAX, 2, 4, "got 2"},
    {"too_many_after_multiline.csv", SF_ESYNTAX, 3, 6, "got 3"},
    {"unterminated_quote.csv", SF_ESYNTAX, 3, 3, "unterminated quoted"},
    {"unterminated_quote_bom.csv", SF_ESYNTAX, 1, 1, "unterminated"},
    {"quote_in_unquoted.csv", SF_ESYNTAX, 2, 5,
     "quote inside an unquoted field"},
    {"garbage_after_quote.csv", SF_ESYNTAX, 2, 8, "'x' after a closing quote"},
    {"duplicate_name.csv", SF_ENAME, 1, 7,
     "duplicate column name 'y' (first at line 1, column 3)"},
    {"duplicate_name_trimmed.csv", SF_ENAME, 2, 9,
     "duplicate column name 'time' (first at line 2, column 2)"},
    {"empty_name.csv", SF_ENAME, 1, 3, "empty column name (field 2"},
    {"empty_name_trailing.csv", SF_ENAME, 1, 5, "empty column name"},
    {"nul_byte.csv", SF_ESYNTAX, 3, 4, "NUL byte"},
    {"nul_in_comment.csv", SF_ESYNTAX, 1, 7, "NUL byte"},
    {"typo_number.csv", SF_ETYPE, 11, 3,
     "'12.5x' is not a number, but column 'b' is numeric (9 of its 10"},
    {"hex_number.csv", SF_ETYPE, 11, 1, "'0x10' is not a number"},
    {"decimal_comma.csv", SF_ETYPE, 11, 3, "'3,5' is not a number"},
    {"dangling_exponent.csv", SF_ETYPE, 11, 1, "'1e' is not a number"},
    {"first_error_wins.csv", SF_ETYPE, 11, 4, "'2x'"},
    {"overflow.csv", SF_EVALUE, 3, 3,
     "'1e999' is out of the range of a double"},
    {"overflow_negative.csv", SF_EVALUE, 2, 3, "'-1e400' is out of"},
    {"nan_in_numeric.csv", SF_EVALUE, 3, 3,
     "non-finite value 'nan' in numeric column 'b'"},
    {"inf_in_numeric.csv", SF_EVALUE, 2, 3, "'-Infinity'"},
};

static void
test_bad_files(void)
{
	for (size_t i = 0; i < sizeof bad_files / sizeof bad_files[0]; i++) {
		char name[256];
		sf_table *t = (sf_table *)name; /* must be set to NULL */
		sf_error err;
		int status;

		snprintf(name, sizeof name, "bad/%s", bad_files[i].file);
		status = sf_table_load(fixture(name), NULL, &t, &err);
		CU_ASSERT_EQUAL(status, bad_files[i].code);
		CU_ASSERT_EQUAL(err.code, bad_files[i].code);
		CU_ASSERT_PTR_NULL(t);
		CU_ASSERT_EQUAL(err.line, bad_files[i].line);
		CU_ASSERT_EQUAL(err.column, bad_files[i].column);
		CU_ASSERT_PTR_NOT_NULL(
		    strstr(err.message, bad_files[i].message));
		CU_ASSERT_STRING_EQUAL(err.file, fixture(name));
		/* A positioned error quotes its line, caret on the column. */
		if (bad_files[i].column > 0) {
			CU_ASSERT(err.source[0] != '\0');
			CU_ASSERT_EQUAL(err.source_column, bad_files[i].column);
		}
		if (status != bad_files[i].code ||
		    err.line != bad_files[i].line ||
		    err.column != bad_files[i].column ||
		    strstr(err.message, bad_files[i].message) == NULL)
			fprintf(stderr, "\n%s: %d %d:%d %s\n", name, status,
			        err.line, err.column, err.message);
	}
}

/* Every file in tests/data/csv/bad is in the table, and none is missing. */
static void
test_bad_files_listed(void)
{
	size_t n = sizeof bad_files / sizeof bad_files[0];

	CU_ASSERT(n >= 20);
	for (size_t i = 0; i < n; i++) {
		char name[256];
		struct stat st;

		snprintf(name, sizeof name, "bad/%s", bad_files[i].file);
		CU_ASSERT_EQUAL(stat(fixture(name), &st), 0);
	}
}

/* The error quote shows the right physical line of a multi-line record. */
static void
test_error_quote(void)
{
	static const char text[] = "a,b\n\"x\ny\",1,2\n";
	sf_table *t;
	sf_error err;
	char msg[1024];

	CU_ASSERT_EQUAL(
	    sf_table_parse(text, sizeof text - 1, "mem.csv", NULL, &t, &err),
	    SF_ESYNTAX);
	CU_ASSERT_STRING_EQUAL(err.source, "y\",1,2");
	CU_ASSERT_EQUAL(err.source_column, 6);
	sf_error_format(&err, "error", msg, sizeof msg);
	CU_ASSERT_STRING_EQUAL(msg, "scalefit: error: mem.csv:3:6: expected 2 "
	                            "fields (as in the header), got 3\n"
	                            "    y\",1,2\n"
	                            "         ^\n");
}

static void
test_io_errors(void)
{
	sf_table *t;
	sf_error err;

	CU_ASSERT_EQUAL(
	    sf_table_load(fixture("no/such/file.csv"), NULL, &t, &err), SF_EIO);
	CU_ASSERT_PTR_NULL(t);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot open"));
	CU_ASSERT_EQUAL(sf_table_load(fixture("good"), NULL, &t, &err), SF_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "directory"));
	/* err may be NULL. */
	CU_ASSERT_EQUAL(
	    sf_table_load(fixture("bad/overflow.csv"), NULL, &t, NULL),
	    SF_EVALUE);
	CU_ASSERT_EQUAL(sf_table_parse("a\n", 2, NULL, NULL, &t, NULL),
	                SF_EVALUE);
	sf_table_free(NULL);
}

/* ------------------------------------------------------------------ */

/* Are two tables equal in shape, names, kinds, values, lines and hash? */
static int
same_table(const sf_table *a, const sf_table *b)
{
	size_t rows = sf_table_rows(a);

	if (rows != sf_table_rows(b) ||
	    sf_table_columns(a) != sf_table_columns(b) ||
	    strcmp(sf_table_sha256(a), sf_table_sha256(b)) != 0 ||
	    memcmp(sf_table_row_lines(a), sf_table_row_lines(b),
	           rows * sizeof(int)) != 0)
		return 0;
	for (size_t c = 0; c < sf_table_columns(a); c++) {
		size_t na, nb;
		const char *const *la = sf_table_column_levels(a, c, &na);
		const char *const *lb = sf_table_column_levels(b, c, &nb);

		if (strcmp(sf_table_column_name(a, c),
		           sf_table_column_name(b, c)) != 0 ||
		    sf_table_column_kind(a, c) != sf_table_column_kind(b, c) ||
		    na != nb)
			return 0;
		for (size_t i = 0; i < na; i++)
			if (strcmp(la[i], lb[i]) != 0)
				return 0;
		for (size_t r = 0; r < rows; r++)
			if (!same_bits(sf_table_column_values(a, c)[r],
			               sf_table_column_values(b, c)[r]))
				return 0;
	}
	return 1;
}

/* Write n bytes to a new temporary file; its name goes to path. */
static int
write_temp(char *path, const char *text, size_t n)
{
	int fd;
	FILE *f;

	strcpy(path, "/tmp/test_csv.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || (f = fdopen(fd, "wb")) == NULL)
		return -1;
	if (fwrite(text, 1, n, f) != n) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/*
 * A file well over the 1 MiB buffer: records straddle every refill, one
 * quoted field (3 MiB) is longer than the buffer, a text column is reread;
 * streaming the file and parsing the same bytes in memory must agree, and
 * the hash must be the file's.
 */
static void
test_large_file(void)
{
	size_t cap = 8u << 20, n = 0;
	char *text = malloc(cap), path[64];
	sf_table *streamed = NULL, *parsed = NULL;
	sf_error err;
	unsigned char digest[SF_SHA256_SIZE];
	char hex[SF_SHA256_HEX_SIZE];
	sf_sha256 ctx;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	n += (size_t)sprintf(text + n, "\xEF\xBB\xBFid,kind,value,note\r\n");
	for (int r = 0; n + 4096 < cap / 2; r++) {
		n += (size_t)sprintf(text + n,
		                     "%d,%s,%.6g,\"n%d, \"\"q\"\"\"\r\n", r,
		                     r % 7 == 0 ? "none" : (r % 2 ? "1" : "2"),
		                     r * 0.125, r % 5);
		if (r % 1000 == 0)
			n += (size_t)sprintf(text + n, "# comment %d\n\n", r);
	}
	n += (size_t)sprintf(text + n, "-1,big,,\"");
	memset(text + n, 'x', 3u << 20);
	n += 3u << 20;
	n += (size_t)sprintf(text + n, "\nmore\"\r\n-2,end,1e-3,last");
	CU_ASSERT_FATAL(n < cap);
	CU_ASSERT_EQUAL_FATAL(write_temp(path, text, n), 0);

	CU_ASSERT_EQUAL(sf_table_load(path, NULL, &streamed, &err), SF_OK);
	CU_ASSERT_EQUAL(sf_table_parse(text, n, path, NULL, &parsed, &err),
	                SF_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(streamed);
	CU_ASSERT_PTR_NOT_NULL_FATAL(parsed);
	CU_ASSERT(same_table(streamed, parsed));
	sf_sha256_init(&ctx);
	sf_sha256_update(&ctx, text, n);
	sf_sha256_final(&ctx, digest);
	sf_sha256_hex(digest, hex);
	CU_ASSERT_STRING_EQUAL(sf_table_sha256(streamed), hex);
	CU_ASSERT_EQUAL(sf_table_column_kind(streamed, 1), SF_CSV_TEXT);
	CU_ASSERT_EQUAL(sf_table_column_kind(streamed, 2), SF_CSV_NUMERIC);
	CU_ASSERT_EQUAL(sf_table_column_missing(streamed, 2), 1);
	{
		size_t rows = sf_table_rows(streamed);
		size_t note = 3;

		CU_ASSERT(text_is(streamed, 1, 0, "none"));
		CU_ASSERT(text_is(streamed, 1, 1, "1"));
		CU_ASSERT(text_is(streamed, 3, 0, "n0, \"q\""));
		CU_ASSERT(text_is(streamed, 1, rows - 1, "end"));
		CU_ASSERT_EQUAL(sf_table_column_values(streamed, 2)[rows - 1],
		                1e-3);
		CU_ASSERT_EQUAL(sf_table_column_values(streamed, 2)[3], 0.375);
		/* The long field, and the line after its embedded LF. */
		size_t nlevels;
		const char *const *levels =
		    sf_table_column_levels(streamed, note, &nlevels);
		size_t code =
		    (size_t)sf_table_column_values(streamed, note)[rows - 2];

		CU_ASSERT_FATAL(code < nlevels);
		CU_ASSERT_EQUAL(strlen(levels[code]), (3u << 20) + 5);
		CU_ASSERT_EQUAL(sf_table_row_lines(streamed)[rows - 1],
		                sf_table_row_lines(streamed)[rows - 2] + 2);
	}
	sf_table_free(streamed);
	sf_table_free(parsed);
	remove(path);
	free(text);
}

/* A pipe cannot be reread: it is read whole, then parsed. */
static void
test_pipe(void)
{
	static const char text[] = "gpu,t\n1,2\nnone,3\n";
	char path[64];
	int fds[2];
	pid_t pid;
	sf_table *t = NULL;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		_exit(write(fds[1], text, sizeof text - 1) ==
		              (ssize_t)(sizeof text - 1)
		          ? 0
		          : 1);
	}
	close(fds[1]);
	snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
	CU_ASSERT_EQUAL(sf_table_load(path, NULL, &t, &err), SF_OK);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(sf_table_column_kind(t, 0), SF_CSV_TEXT);
	CU_ASSERT(text_is(t, 0, 1, "none"));
	CU_ASSERT(text_is(t, 0, 0, "1"));
	CU_ASSERT_STRING_EQUAL(sf_table_file(t), path);
	sf_table_free(t);
}

/* Parsing reads only the given bytes (ASan catches an overread). */
static void
test_parse_exact_buffer(void)
{
	static const char text[] = "a,b\n1,2.5";
	char *copy = malloc(sizeof text - 1);
	sf_table *t;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	memcpy(copy, text, sizeof text - 1);
	CU_ASSERT_EQUAL(
	    sf_table_parse(copy, sizeof text - 1, NULL, NULL, &t, &err), SF_OK);
	CU_ASSERT_EQUAL(sf_table_column_values(t, 1)[0], 2.5);
	CU_ASSERT_STRING_EQUAL(sf_table_file(t), "");
	sf_table_free(t);
	free(copy);
}

/* ------------------------------------------------------------------ */

/* Under a locale with a decimal comma nothing changes. */
static void
test_locale(void)
{
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8",
	                                    "de_DE", "fr_FR.UTF-8"};
	const char *set = NULL;
	sf_table *before, *after;

	before = load_good("good/numbers.csv", NULL);
	for (size_t i = 0; i < sizeof names / sizeof names[0] && set == NULL;
	     i++)
		set = setlocale(LC_NUMERIC, names[i]);
	if (set == NULL) {
		sf_table_free(before);
		fprintf(stderr, "(no decimal-comma locale: skipped) ");
		return;
	}
	/* Prove the locale is in force: strtod stops at the point. */
	CU_ASSERT_EQUAL(strtod("1.5", NULL), 1.0);
	after = load_good("good/numbers.csv", NULL);
	CU_ASSERT(same_table(before, after));
	setlocale(LC_NUMERIC, "C");
	sf_table_free(before);
	sf_table_free(after);
}

/* ------------------------------------------------------------------ */

static void
test_names(void)
{
	sf_table *t;
	sf_error err;

	t = load_good("good/quoting.csv", NULL);
	CU_ASSERT_EQUAL(sf_table_column_find(t, "desc"), 1);
	CU_ASSERT_EQUAL(sf_table_column_find(t, "Desc"), SF_CSV_NONE);
	CU_ASSERT_EQUAL(sf_table_column_nearest(t, "Desc"), 1);
	CU_ASSERT_EQUAL(sf_table_column_nearest(t, "vlaue"), 2);
	CU_ASSERT_EQUAL(sf_table_column_nearest(t, "zzz"), SF_CSV_NONE);
	sf_table_free(t);

	/* A one-letter name is one edit from its typo, as a mistyped
	 * --at name or formula name is (base/suggest.h). */
	CU_ASSERT_EQUAL_FATAL(
	    sf_table_parse("p,n,gpus\n1,2,3\n", 15, NULL, NULL, &t, &err),
	    SF_OK);
	CU_ASSERT_EQUAL(sf_table_column_nearest(t, "q"), 0);
	CU_ASSERT_EQUAL(sf_table_column_nearest(t, "N"), 1);
	CU_ASSERT_EQUAL(sf_table_column_nearest(t, "gpu"), 2);
	CU_ASSERT_EQUAL(sf_table_column_nearest(t, "xy"), SF_CSV_NONE);
	sf_table_free(t);
}

/* ------------------------------------------------------------------ */

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"sha256 FIPS 180-4 vectors", test_sha256_vectors},
	    {"sha256 in pieces", test_sha256_pieces},
	    {"good: quoting", test_good_quoting},
	    {"good: CRLF", test_good_crlf},
	    {"good: BOM and sha256", test_good_bom},
	    {"good: comments and blank lines", test_good_comments},
	    {"good: no final newline", test_good_no_final_newline},
	    {"good: empty cells", test_good_empty_cells},
	    {"good: dictionary order", test_good_dictionary},
	    {"good: number spellings", test_good_numbers},
	    {"good: text column with numbers", test_good_mixed_text},
	    {"options", test_good_options},
	    {"bad files", test_bad_files},
	    {"bad files listed", test_bad_files_listed},
	    {"error quote", test_error_quote},
	    {"I/O errors", test_io_errors},
	    {"large file, streamed vs parsed", test_large_file},
	    {"pipe", test_pipe},
	    {"parse reads only length bytes", test_parse_exact_buffer},
	    {"locale", test_locale},
	    {"column names and suggestions", test_names},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"csv", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
