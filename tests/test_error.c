/*
 * test_error.c - error records, their formatting, and name suggestions.
 */
#include "base/error.h"
#include "base/suggest.h"
#include "testing.h"

#include <string.h>

static void
test_set_keeps_code_and_message(void)
{
	sf_error e;

	sf_error_clear(&e);
	CU_ASSERT_EQUAL(sf_error_set(&e, SF_EVALUE, "min %d > max %d", 3, 2),
	                SF_EVALUE);
	CU_ASSERT_EQUAL(e.code, SF_EVALUE);
	CU_ASSERT_STRING_EQUAL(e.message, "min 3 > max 2");
	CU_ASSERT_EQUAL(e.line, 0);
	/* a new error forgets the unknown name of the one before */
	strcpy(e.name, "xx");
	sf_error_set(&e, SF_EVALUE, "another");
	CU_ASSERT_STRING_EQUAL(e.name, "");
	strcpy(e.name, "xx");
	sf_error_at(&e, SF_ENAME, "f", 1, 2, "another");
	CU_ASSERT_STRING_EQUAL(e.name, "");
}

static void
test_null_record_is_allowed(void)
{
	CU_ASSERT_EQUAL(sf_error_set(NULL, SF_EIO, "x"), SF_EIO);
	CU_ASSERT_EQUAL(sf_error_at(NULL, SF_ENAME, "f", 1, 2, "y"), SF_ENAME);
	sf_error_clear(NULL);
	sf_error_quote(NULL, "abc", 3);
	sf_error_prefix(NULL, "p");
	CU_ASSERT_EQUAL(sf_error_format(NULL, "error", NULL, 0), 0u);
}

static void
test_format_with_caret(void)
{
	const char text[] = "name: x\ntime: a + * b\n";
	char buf[1024];
	sf_error e;

	sf_error_clear(&e);
	sf_error_at(&e, SF_ESYNTAX, "m.yaml", 2, 11, "expected an operand");
	sf_error_quote(&e, text, sizeof text - 1);
	CU_ASSERT_STRING_EQUAL(e.source, "time: a + * b");
	sf_error_format(&e, "error", buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(
	    buf, "scalefit: error: m.yaml:2:11: expected an operand\n"
	         "    time: a + * b\n"
	         "              ^\n");
}

static void
test_format_keeps_tabs(void)
{
	const char text[] = "\ta,\tb";
	char buf[256];
	sf_error e;

	sf_error_clear(&e);
	sf_error_at(&e, SF_ESYNTAX, "d.csv", 1, 5, "bad");
	sf_error_quote(&e, text, sizeof text - 1);
	sf_error_format(&e, "error", buf, sizeof buf);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n    \t  \t^\n"));
}

/* A model file's "\e]0;x\a" reaches the terminal as text, not as a
 * command, in the file name, the message and the quoted line, and the
 * caret still points at the column. */
static void
test_format_escapes_controls(void)
{
	const char text[] = "time: \"\033]0;x\a + q\"";
	char buf[512];
	sf_error e;

	sf_error_clear(&e);
	sf_error_at(&e, SF_ENAME, "m\033.yaml", 1, 15, "unknown name '%s'",
	            "\033]0;x\a");
	sf_error_quote(&e, text, sizeof text - 1);
	sf_error_format(&e, "error", buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(
	    buf, "scalefit: error: m\\x1b.yaml:1:15: unknown name "
	         "'\\x1b]0;x\\x07'\n"
	         "    time: \"\\x1b]0;x\\x07 + q\"\n"
	         "                        ^\n");
}

static void
test_format_without_position(void)
{
	char buf[256];
	sf_error e;

	sf_error_clear(&e);
	sf_error_at(&e, SF_EIO, "missing.csv", 0, 0, "cannot open: %s",
	            "No such file");
	sf_error_format(&e, "error", buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(
	    buf, "scalefit: error: missing.csv: cannot open: No such file\n");
	sf_error_at(&e, SF_EVALUE, "d.csv", 4, 0, "row skipped");
	sf_error_format(&e, "warning", buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf,
	                       "scalefit: warning: d.csv:4: row skipped\n");
	sf_error_at(&e, SF_EUSAGE, NULL, 0, 0, "no model");
	sf_error_format(&e, "error", buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "scalefit: error: no model\n");
}

/* snprintf semantics: the needed length is returned, the text is cut. */
static void
test_format_truncates(void)
{
	char small[16], big[512];
	sf_error e;
	size_t need;

	sf_error_clear(&e);
	sf_error_at(&e, SF_ENAME, "model.yaml", 3, 7, "unknown name 'lamda'");
	sf_error_quote(&e, "a\nb\nc = lamda\n", 14);
	need = sf_error_format(&e, "error", small, sizeof small);
	CU_ASSERT_EQUAL(strlen(small), sizeof small - 1);
	CU_ASSERT_EQUAL(sf_error_format(&e, "error", big, sizeof big), need);
	CU_ASSERT_EQUAL(strlen(big), need);
}

static void
test_quote_missing_line(void)
{
	sf_error e;

	sf_error_clear(&e);
	sf_error_at(&e, SF_ESYNTAX, "f", 9, 1, "x");
	sf_error_quote(&e, "one\ntwo\n", 8);
	CU_ASSERT_STRING_EQUAL(e.source, "");
	CU_ASSERT_EQUAL(e.source_column, 0);
}

static void
test_quote_crlf_and_last_line(void)
{
	sf_error e;

	sf_error_clear(&e);
	sf_error_at(&e, SF_ESYNTAX, "f", 2, 2, "x");
	sf_error_quote(&e, "a,b\r\nc,d", 8);
	CU_ASSERT_STRING_EQUAL(e.source, "c,d");
	CU_ASSERT_EQUAL(e.source_column, 2);
}

/* A long line is cut to a window that keeps the caret in view. */
static void
test_quote_long_line(void)
{
	char text[1000];
	sf_error e;

	memset(text, 'x', sizeof text);
	text[700] = '!';
	sf_error_clear(&e);
	sf_error_at(&e, SF_ESYNTAX, "f", 1, 701, "x");
	sf_error_quote(&e, text, sizeof text);
	CU_ASSERT_EQUAL(strlen(e.source), SF_ERROR_SOURCE_MAX - 1);
	CU_ASSERT_TRUE(e.source_column > 0);
	CU_ASSERT_EQUAL(e.source[e.source_column - 1], '!');
}

static void
test_quote_nul_byte(void)
{
	sf_error e;

	sf_error_clear(&e);
	sf_error_at(&e, SF_ESYNTAX, "f", 1, 3, "x");
	sf_error_quote(&e, "a\0b", 3);
	CU_ASSERT_STRING_EQUAL(e.source, "a?b");
}

/* Positions of byte offsets: lines end at '\n' (a CR is a byte of its
 * line), columns count bytes, an offset past the end is the end. */
static void
test_position(void)
{
	static const char text[] = "ab\ncd\r\n\nx";
	static const struct {
		size_t off;
		int line, column;
	} cases[] = {
	    {0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3},  {6, 2, 4},
	    {7, 3, 1}, {8, 4, 1}, {9, 4, 2}, {99, 4, 2},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int line = 0, column = 0;

		sf_error_position(text, sizeof text - 1, cases[i].off, &line,
		                  &column);
		CU_ASSERT_EQUAL(line, cases[i].line);
		CU_ASSERT_EQUAL(column, cases[i].column);
	}
}

static void
test_prefix(void)
{
	sf_error e;

	sf_error_clear(&e);
	sf_error_set(&e, SF_ENAME, "unknown name 'x'");
	sf_error_prefix(&e, "in term '%s': ", "comm");
	CU_ASSERT_STRING_EQUAL(e.message, "in term 'comm': unknown name 'x'");
}

static void
test_status_names(void)
{
	CU_ASSERT_STRING_EQUAL(sf_status_name(SF_OK), "success");
	CU_ASSERT_STRING_EQUAL(sf_status_name(SF_ENOMEM), "out of memory");
	CU_ASSERT_STRING_EQUAL(sf_status_name(-1), "unknown error");
	CU_ASSERT_STRING_EQUAL(sf_status_name(1000), "unknown error");
}

static void
test_distance(void)
{
	static const struct {
		const char *a, *b;
		int d;
	} cases[] = {
	    {"", "", 0},
	    {"fit", "fit", 0},
	    {"fit", "fti", 1},
	    {"fit", "fitt", 1},
	    {"fit", "it", 1},
	    {"lambda", "lamda", 1},
	    {"kitten", "sitting", 3},
	    {"", "abc", 3},
	    {"Scale", "scale", 0},
	    {"ca", "abc", 3}, /* OSA, not full Damerau */
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CU_ASSERT_EQUAL(sf_suggest_distance(cases[i].a, cases[i].b),
		                cases[i].d);
}

static void
test_nearest(void)
{
	static const char *const names[] = {
	    "check", "fit", "predict", "scale", NULL, "validate", "compare"};
	const size_t n = sizeof names / sizeof names[0];

	CU_ASSERT_STRING_EQUAL(sf_suggest_nearest("fti", names, n), "fit");
	CU_ASSERT_STRING_EQUAL(sf_suggest_nearest("predcit", names, n),
	                       "predict");
	CU_ASSERT_STRING_EQUAL(sf_suggest_nearest("valdate", names, n),
	                       "validate");
	CU_ASSERT_PTR_NULL(sf_suggest_nearest("zzzzzz", names, n));
	CU_ASSERT_PTR_NULL(sf_suggest_nearest("x", names, 0));
}

/* A name's index among the candidates, or their count and the nearest. */
static void
test_match(void)
{
	static const char *const names[] = {"relative", NULL, "sse", "log"};
	const char *near = "x";

	CU_ASSERT_EQUAL(sf_suggest_match("sse", names, 4, &near), 2);
	CU_ASSERT_STRING_EQUAL(near, "x"); /* untouched when found */
	CU_ASSERT_EQUAL(sf_suggest_match("log", names, 4, NULL), 3);
	CU_ASSERT_EQUAL(sf_suggest_match("sse2", names, 4, &near), 4);
	CU_ASSERT_STRING_EQUAL(near, "sse");
	CU_ASSERT_EQUAL(sf_suggest_match("quantile", names, 4, &near), 4);
	CU_ASSERT_PTR_NULL(near);
	CU_ASSERT_EQUAL(sf_suggest_match("SSE", names, 4, NULL), 4);
	CU_ASSERT_EQUAL(sf_suggest_match(NULL, names, 4, &near), 4);
	CU_ASSERT_PTR_NULL(near);
}

/* Choices as messages offer them: commas, then "or"; cut to the buffer. */
static void
test_list(void)
{
	static const char *const names[] = {"lshade", NULL, "jso", "de"};
	char buf[64], small[8];

	CU_ASSERT_STRING_EQUAL(sf_suggest_list(names, 4, buf, sizeof buf),
	                       "lshade, jso or de");
	CU_ASSERT_STRING_EQUAL(sf_suggest_list(names + 2, 2, buf, sizeof buf),
	                       "jso or de");
	CU_ASSERT_STRING_EQUAL(sf_suggest_list(names, 2, buf, sizeof buf),
	                       "lshade");
	CU_ASSERT_STRING_EQUAL(sf_suggest_list(names, 0, buf, sizeof buf), "");
	CU_ASSERT_STRING_EQUAL(sf_suggest_list(names, 4, small, sizeof small),
	                       "lshade,");
	CU_ASSERT_PTR_EQUAL(sf_suggest_list(names, 4, buf, 0), buf);
}

int
main(void)
{
	static CU_TestInfo error_tests[] = {
	    {"set keeps code and message", test_set_keeps_code_and_message},
	    {"NULL record is allowed", test_null_record_is_allowed},
	    {"format with caret", test_format_with_caret},
	    {"position of a byte offset", test_position},
	    {"format keeps tabs", test_format_keeps_tabs},
	    {"format escapes control characters", test_format_escapes_controls},
	    {"format without position", test_format_without_position},
	    {"format truncates like snprintf", test_format_truncates},
	    {"quote a missing line", test_quote_missing_line},
	    {"quote CRLF and last line", test_quote_crlf_and_last_line},
	    {"quote a long line", test_quote_long_line},
	    {"quote a NUL byte", test_quote_nul_byte},
	    {"prefix", test_prefix},
	    {"status names", test_status_names},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo suggest_tests[] = {
	    {"edit distance", test_distance},
	    {"nearest name", test_nearest},
	    {"list of choices", test_list},
	    {"match a name", test_match},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"error", NULL, NULL, NULL, NULL, error_tests},
	    {"suggest", NULL, NULL, NULL, NULL, suggest_tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
