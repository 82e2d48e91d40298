/*
 * test_escape.c - text made safe for a terminal: controls, DEL, C1
 * controls and malformed UTF-8 shown as \xHH, the rest as it is.
 */
#include "base/escape.h"
#include "testing.h"

#include <string.h>

/* {text, flags, expected} */
static const struct {
	const char *text;
	unsigned flags;
	const char *escaped;
} cases[] = {
    {"plain text", 0, "plain text"},
    {"", 0, ""},
    {"\033]0;title\a", 0, "\\x1b]0;title\\x07"},
    {"\033[2J", 0, "\\x1b[2J"},
    {"a\tb\nc\rd", 0, "a\\x09b\\x0ac\\x0dd"},
    {"a\tb\nc", SF_ESCAPE_TAB, "a\tb\\x0ac"},
    {"a\tb\nc", SF_ESCAPE_NEWLINE, "a\\x09b\nc"},
    {"del\x7f", 0, "del\\x7f"},
    /* UTF-8 passes: é, €, 𝄞 */
    {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e", 0,
     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e"},
    /* U+009B (CSI) and U+0085 are C1 controls; U+00A0 is not */
    {"\xc2\x9b"
     "2J",
     0, "\\xc2\\x9b2J"},
    {"\xc2\x85\xc2\xa0", 0, "\\xc2\\x85\xc2\xa0"},
    /* Latin-1, a lone continuation, a truncated sequence */
    {"caf\xe9", 0, "caf\\xe9"},
    {"\x80x", 0, "\\x80x"},
    {"\xe2\x82", 0, "\\xe2\\x82"},
    /* overlong '/', a surrogate, beyond U+10FFFF, 0xff */
    {"\xc0\xaf", 0, "\\xc0\\xaf"},
    {"\xed\xa0\x80", 0, "\\xed\\xa0\\x80"},
    {"\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80"},
    {"\xff", 0, "\\xff"},
    /* a backslash is shown as it is */
    {"a\\x1b", 0, "a\\x1b"},
};

static void
test_escape_table(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char out[128];
		size_t n =
		    sf_escape(out, sizeof out, cases[i].text, cases[i].flags);

		CU_ASSERT_STRING_EQUAL(out, cases[i].escaped);
		CU_ASSERT_EQUAL(n, strlen(cases[i].escaped));
		CU_ASSERT_EQUAL(sf_escape_length(cases[i].text, cases[i].flags),
		                n);
	}
}

/* snprintf's contract, and a cut never splits an escape or a character. */
static void
test_escape_truncates_whole_pieces(void)
{
	char out[8];

	CU_ASSERT_EQUAL(sf_escape(out, sizeof out, "ab\033cd", 0), 8u);
	CU_ASSERT_STRING_EQUAL(out, "ab\\x1bc");
	CU_ASSERT_EQUAL(sf_escape(out, 6, "ab\033cd", 0), 8u);
	CU_ASSERT_STRING_EQUAL(out, "ab");
	CU_ASSERT_EQUAL(sf_escape(out, 4, "ab\xe2\x82\xac", 0), 5u);
	CU_ASSERT_STRING_EQUAL(out, "ab");
	CU_ASSERT_EQUAL(sf_escape(NULL, 0, "\033", 0), 4u);
	CU_ASSERT_EQUAL(sf_escape(out, 1, "abc", 0), 3u);
	CU_ASSERT_STRING_EQUAL(out, "");
}

/* Printed with printf's padding, counted in escaped bytes. */
static void
test_escape_print_pads(void)
{
	char *text = NULL;
	size_t length = 0;
	FILE *out = open_memstream(&text, &length);

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(sf_escape_print(out, "a\033", -8), 0);
	CU_ASSERT_EQUAL(sf_escape_print(out, "|", 0), 0);
	CU_ASSERT_EQUAL(sf_escape_print(out, "b\t", 7), 0);
	CU_ASSERT_EQUAL(sf_escape_print(out, "long text", 3), 0);
	fclose(out);
	CU_ASSERT_STRING_EQUAL(text, "a\\x1b   |  b\\x09long text");
	free(text);
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"a table of texts", test_escape_table},
	    {"a cut keeps whole pieces", test_escape_truncates_whole_pieces},
	    {"printed with padding", test_escape_print_pads},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {{"escape", NULL, NULL, NULL, NULL, tests},
	                         CU_SUITE_INFO_NULL};

	return sf_test_main(suites);
}
