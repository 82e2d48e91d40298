/*
 * test_record.c - CSV records delimited and split into fields
 * (input/record.h), from memory and streamed from a file through a small
 * buffer; every error at its line and column.
 */
#define _POSIX_C_SOURCE 200809L

#include "input/record.h"
#include "base/error.h"
#include "testing.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A reader over text[0..length) in memory, as sf_table_parse sets one. */
static void
reader_text(sf_record_reader *r, const char *text, size_t length, sf_error *err)
{
	memset(r, 0, sizeof *r);
	r->delimiter = ',';
	r->comment = '#';
	r->file = "t.csv";
	r->err = err;
	r->fd = -1;
	r->data = text;
	r->len = length;
	r->eof = 1;
	r->at_start = 1;
	r->has_nul = memchr(text, '\0', length) != NULL;
	r->line = 1;
	sf_sha256_init(&r->sha);
}

/*
 * Every record of r as "LINE:field|field|...;" into out (size bytes),
 * the way the table reads them; returns sf_record_next's last answer or a
 * split's error (negated).
 */
static int
read_all(sf_record_reader *r, char *out, size_t size)
{
	const char *start, *end, *p;
	int quoted, nlines, rc;
	size_t used = 0;

	out[0] = '\0';
	while ((rc = sf_record_next(r, &start, &end, &quoted, &nlines)) > 0) {
		r->cur_line = r->line;
		r->cur_line_start = start;
		used +=
		    (size_t)snprintf(out + used, size - used, "%d:", r->line);
		for (p = start;;) {
			sf_record_cell cell;
			int status = sf_record_split(r, &p, end, quoted, &cell);

			if (status != SF_OK)
				return -status;
			used +=
			    (size_t)snprintf(out + used, size - used, "%.*s",
			                     (int)cell.length, cell.text);
			if (p == end)
				break;
			p++;
			used += (size_t)snprintf(out + used, size - used, "|");
		}
		used += (size_t)snprintf(out + used, size - used, ";");
		r->line += nlines;
	}
	return rc;
}

/* Records and fields: byte order mark, comments, blank lines, CRLF,
 * quotes with doubled quotes and line breaks, trimming. */
static void
test_records(void)
{
	static const char text[] = "\xEF\xBB\xBF# a comment\n"
	                           "a, b ,c\r\n"
	                           "\n"
	                           "  \t \n"
	                           "1,\"x \"\"q\"\" y\",3\n"
	                           "# another\n"
	                           "4,\"two\nlines\",  \n"
	                           "5,,\"\"";
	sf_record_reader r;
	sf_error err;
	char out[256];

	sf_error_clear(&err);
	reader_text(&r, text, sizeof text - 1, &err);
	CU_ASSERT_EQUAL(read_all(&r, out, sizeof out), 0);
	CU_ASSERT_STRING_EQUAL(out, "2:a|b|c;5:1|x \"q\" y|3;7:4|two\nlines|;"
	                            "9:5||;");
	CU_ASSERT_EQUAL(r.line, 10);
	CU_ASSERT_EQUAL(err.code, SF_OK);
	sf_record_reader_free(&r);
}

/* The fields after a delimiter, quotes respected. */
static void
test_count_rest(void)
{
	static const char rest[] = "b,\"c,d\",e";
	sf_record_reader r;

	reader_text(&r, rest, sizeof rest - 1, NULL);
	CU_ASSERT_EQUAL(sf_record_count_rest(&r, rest, rest + sizeof rest - 1),
	                3);
	CU_ASSERT_EQUAL(sf_record_count_rest(&r, rest, rest), 1);
}

/* Every error of the reader: code, line, column, message. */
static void
test_errors(void)
{
	static const struct {
		const char *text;
		size_t length; /* 0: strlen */
		int line, column;
		const char *message;
	} cases[] = {
	    {"a,b\n1,2\r3\n", 0, 2, 4, "a carriage return inside a line"},
	    {"a,b\n1,\0\n", 8, 2, 3, "a NUL byte: this is not a text file"},
	    {"# x\0y\na\n", 8, 1, 4, "a NUL byte"},
	    {"a,b\n1,\"2\n", 0, 2, 3,
	     "unterminated quoted field: no closing quote for this one"},
	    {"a,b\n\"1\"x,2\n", 0, 2, 4,
	     "'x' after a closing quote: expected ',' or the line end"},
	    {"a,b\n1\"2,3\n", 0, 2, 2, "a quote inside an unquoted field"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n =
		    cases[i].length ? cases[i].length : strlen(cases[i].text);
		sf_record_reader r;
		sf_error err;
		char out[256];

		sf_error_clear(&err);
		reader_text(&r, cases[i].text, n, &err);
		CU_ASSERT_EQUAL(read_all(&r, out, sizeof out), -SF_ESYNTAX);
		CU_ASSERT_EQUAL(err.code, SF_ESYNTAX);
		CU_ASSERT_STRING_EQUAL(err.file, "t.csv");
		if (err.line != cases[i].line ||
		    err.column != cases[i].column ||
		    strstr(err.message, cases[i].message) == NULL) {
			fprintf(stderr, "\ncase %zu: %d:%d '%s'\n", i, err.line,
			        err.column, err.message);
			CU_FAIL("record error");
		}
		sf_record_reader_free(&r);
	}
}

/* Streamed from a file through a buffer of 8 bytes: refilled between
 * records, grown for a record longer than the buffer, hashed whole; the
 * same records as from memory. */
static void
test_streaming(void)
{
	static const char text[] = "\xEF\xBB\xBF"
	                           "name,value\n"
	                           "# comment\n"
	                           "\"a long, quoted\nname\",1.5\n"
	                           "b,2";
	unsigned char d1[SF_SHA256_SIZE], d2[SF_SHA256_SIZE];
	char path[] = "/tmp/test_record.XXXXXX", mem[256], file[256];
	sf_record_reader r;
	sf_sha256 whole;
	sf_error err;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(write(fd, text, sizeof text - 1),
	                      (ssize_t)(sizeof text - 1));
	CU_ASSERT_EQUAL_FATAL(lseek(fd, 0, SEEK_SET), 0);
	reader_text(&r, text, sizeof text - 1, NULL);
	CU_ASSERT_EQUAL(read_all(&r, mem, sizeof mem), 0);
	sf_record_reader_free(&r);

	sf_error_clear(&err);
	reader_text(&r, "", 0, &err);
	r.fd = fd;
	r.eof = 0;
	r.cap = 8;
	r.buf = malloc(r.cap);
	r.data = r.buf;
	CU_ASSERT_EQUAL(read_all(&r, file, sizeof file), 0);
	CU_ASSERT_STRING_EQUAL(file, mem);
	CU_ASSERT_STRING_EQUAL(mem, "1:name|value;3:a long, quoted\nname|1.5;"
	                            "5:b|2;");
	CU_ASSERT(r.cap > 8);
	CU_ASSERT_EQUAL(r.bytes, sizeof text - 1);
	sf_sha256_final(&r.sha, d1);
	sf_sha256_init(&whole);
	sf_sha256_update(&whole, text, sizeof text - 1);
	sf_sha256_final(&whole, d2);
	CU_ASSERT(memcmp(d1, d2, sizeof d1) == 0);
	sf_record_reader_free(&r);
	close(fd);
	unlink(path);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"records and fields", test_records},
	    {"fields left in a record", test_count_rest},
	    {"errors at their line and column", test_errors},
	    {"streamed through a small buffer", test_streaming},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"record", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
