/*
 * test_yaml_out.c - the YAML writer (base/yaml_out.h): the escapes of a
 * double-quoted scalar, byte for byte (quotes, backslashes, control
 * characters, DEL, the characters YAML reads as line breaks, invalid
 * UTF-8); every hostile text read back by libyaml as itself, as a value
 * and as a key; comments that cannot end early; which keys stay plain;
 * numbers written plain as the shortest text that reads back exactly
 * (to libyaml a plain scalar; to YAML 1.1 and 1.2 a number), a number that
 * is not finite refused with the keys that lead to it; misuse reported;
 * and a whole document of mappings, flow collections and notes.
 */
#include "base/number.h"
#include "base/yaml_out.h"
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static char *
quoted(const char *text)
{
	sf_text t = SF_TEXT_INIT;

	sf_yaml_out_quote(&t, text);
	return sf_text_take(&t);
}

static void
test_escapes(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"plain", "\"plain\""},
	    {"", "\"\""},
	    {"a \"q\" b\\c", "\"a \\\"q\\\" b\\\\c\""},
	    {"l1\nl2\tx", "\"l1\\nl2\\tx\""},
	    {"\r\x01\x1b[0m", "\"\\x0D\\x01\\x1B[0m\""},
	    {"del\x7f", "\"del\\x7F\""},
	    {"a: b", "\"a: b\""},
	    {"[x", "\"[x\""},
	    {"*x &y #z", "\"*x &y #z\""},
	    {"x #y", "\"x #y\""},
	    {"- x", "\"- x\""},
	    {" lead, trail ", "\" lead, trail \""},
	    {"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80",
	     "\"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80\""},
	    {"nel\xc2\x85", "\"nel\\x85\""},
	    {"c1\xc2\x9b", "\"c1\\x9B\""},
	    {"ls\xe2\x80\xa8ps\xe2\x80\xa9", "\"ls\\u2028ps\\u2029\""},
	    {"\xef\xbb\xbf"
	     "bom",
	     "\"\\uFEFFbom\""},
	    {"\xef\xbf\xbe", "\"\\uFFFE\""},
	    {"bad\xff", "\"bad\\xFF\""},
	    {"cut\xc3", "\"cut\\xC3\""},
	    {"long\xc0\xaf", "\"long\\xC0\\xAF\""},
	    {"sur\xed\xa0\x80", "\"sur\\xED\\xA0\\x80\""},
	    {"big\xf4\x90\x80\x80", "\"big\\xF4\\x90\\x80\\x80\""},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *q = quoted(cases[i].in);
		CU_ASSERT_PTR_NOT_NULL_FATAL(q);
		if (strcmp(q, cases[i].out) != 0)
			fprintf(stderr, "\n%zu: %s\n", i, q);
		CU_ASSERT_STRING_EQUAL(q, cases[i].out);
		free(q);
	}
}

/* The scalar of key in the top mapping of document text, malloc'd; NULL
 * when the text does not parse or has no such key.  *keys gets the top
 * mapping's size. */
static char *
load_value(const char *text, const char *key, size_t *keys)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	char *value = NULL;

	*keys = 0;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
	                             strlen(text));
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_parser_delete(&parser);
		return NULL;
	}
	root = yaml_document_get_root_node(&doc);
	if (root != NULL && root->type == YAML_MAPPING_NODE)
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		     p < root->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(&doc, p->key);
			yaml_node_t *v = yaml_document_get_node(&doc, p->value);
			(*keys)++;
			if (k->type == YAML_SCALAR_NODE &&
			    v->type == YAML_SCALAR_NODE &&
			    strcmp((char *)k->data.scalar.value, key) == 0) {
				free(value);
				value = strdup((char *)v->data.scalar.value);
			}
		}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return value;
}

/* Hostile texts, valid UTF-8: each read back as itself, as a value, as a
 * key and beside a comment holding it. */
static const char *const hostile[] = {
    "x\nwhere: p > 1",
    "a: b",
    "[x",
    "*x",
    "#x",
    "&x",
    "x #y",
    "esc\x1b[1m",
    "say \"hi\"",
    "back\\slash\\n",
    "tab\there",
    "cr\r\nlf",
    "nel\xc2\x85"
    "where: 1",
    "ls\xe2\x80\xa8"
    "where: 1",
    "\xef\xbb\xbf"
    "bom",
    "caf\xc3\xa9 \xf0\x9f\x98\x80",
    "",
    " ",
    "- item",
    "? key",
    "{a: 1}",
    "'single'",
    "|",
    ">",
    "%TAG",
    "---",
    "...",
    "@x",
    "`x",
    "null",
    "~",
    "true",
    "0x1F",
    "del\x7f",
};

static void
test_round_trip(void)
{
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		sf_text t = SF_TEXT_INIT;
		sf_yaml_out y;
		char *doc, *back, *as_key;
		size_t keys;

		sf_yaml_out_init(&y, &t);
		sf_yaml_out_comment(&y, "about %s", hostile[i]);
		sf_yaml_out_pair(&y, "name", hostile[i], hostile[i]);
		sf_yaml_out_pair(&y, hostile[i], "v", NULL);
		sf_yaml_out_flow_seq(&y, "list");
		sf_yaml_out_item(&y, hostile[i]);
		sf_yaml_out_end(&y, hostile[i]);
		doc = sf_text_take(&t);
		CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
		back = load_value(doc, "name", &keys);
		as_key = load_value(doc, hostile[i], &keys);
		if (back == NULL || strcmp(back, hostile[i]) != 0 || keys != 3)
			fprintf(stderr, "\n%zu:\n%s\n", i, doc);
		CU_ASSERT_PTR_NOT_NULL(back);
		if (back != NULL)
			CU_ASSERT_STRING_EQUAL(back, hostile[i]);
		CU_ASSERT_PTR_NOT_NULL(as_key);
		if (as_key != NULL)
			CU_ASSERT_STRING_EQUAL(as_key, "v");
		/* name, the hostile key, list: nothing else became a key */
		CU_ASSERT_EQUAL(keys, 3);
		/* every line but the last ends where the writer ended it */
		{
			size_t lines = 0;
			for (const char *p = doc; *p != '\0'; p++)
				lines += *p == '\n';
			CU_ASSERT_EQUAL(lines, 4);
		}
		free(back);
		free(as_key);
		free(doc);
	}
}

/* Invalid UTF-8 cannot be written as itself (YAML is Unicode): escaped,
 * the document still parses, the bytes read back as \xNN would. */
static void
test_invalid_utf8(void)
{
	sf_text t = SF_TEXT_INIT;
	sf_yaml_out y;
	char *doc, *back;
	size_t keys;

	sf_yaml_out_init(&y, &t);
	sf_yaml_out_comment(&y, "bytes \xff\xfe");
	sf_yaml_out_pair(&y, "name",
	                 "a\xff"
	                 "b",
	                 "c\xc3");
	doc = sf_text_take(&t);
	CU_ASSERT_STRING_EQUAL(doc, "# bytes \\xFF\\xFE\n"
	                            "name: \"a\\xFFb\"  # c\\xC3\n");
	back = load_value(doc, "name", &keys);
	CU_ASSERT_PTR_NOT_NULL_FATAL(back);
	CU_ASSERT_STRING_EQUAL(back, "a\xc3\xbf"
	                             "b"); /* U+00FF */
	free(back);
	free(doc);
}

/* A number is written plain and reads back as the same double; its text
 * is a number to YAML 1.1 too (a point before any exponent). */
static void
test_numbers(void)
{
	static const struct {
		double v;
		const char *text;
	} cases[] = {
	    {0, "0"},
	    {1000, "1000"},
	    {-3, "-3"},
	    {0.1, "0.1"},
	    {1.0 / 3, "0.3333333333333333"},
	    {2e-05, "2.0e-05"},
	    {2.5e-07, "2.5e-07"},
	    {1e21, "1.0e+21"},
	    {1e7, "1.0e+07"},
	    {123456, "123456"},
	    {DBL_MAX, "1.7976931348623157e+308"},
	    {DBL_MIN, "2.2250738585072014e-308"},
	    {5e-324, "5.0e-324"},
	    {-1.5e-300, "-1.5e-300"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sf_text t = SF_TEXT_INIT;
		sf_yaml_out y;
		char *doc = NULL, *back, want[96];
		size_t keys;
		double v = NAN;

		sf_yaml_out_init(&y, &t);
		sf_yaml_out_number(&y, "v", cases[i].v, NULL);
		CU_ASSERT_EQUAL_FATAL(sf_yaml_out_finish(&y, &doc, NULL),
		                      SF_OK);
		snprintf(want, sizeof want, "v: %s\n", cases[i].text);
		if (strcmp(doc, want) != 0)
			fprintf(stderr, "\n%zu: %s", i, doc);
		CU_ASSERT_STRING_EQUAL(doc, want);
		back = load_value(doc, "v", &keys);
		CU_ASSERT_PTR_NOT_NULL_FATAL(back);
		CU_ASSERT_EQUAL(sf_parse_double(back, &v), SF_OK);
		CU_ASSERT(v == cases[i].v);
		CU_ASSERT(strchr(back, 'e') == NULL ||
		          strchr(back, '.') < strchr(back, 'e'));
		free(back);
		free(doc);
	}
}

/* A number that is not finite is never written: the document is
 * refused, naming the keys that lead to it. */
static void
test_not_finite(void)
{
	static const double bad[] = {INFINITY, -INFINITY, NAN};
	static const char *const said[] = {"parameters.t0.max would be inf",
	                                   "parameters.t0.max would be -inf",
	                                   "parameters.t0.max would be nan"};

	for (size_t i = 0; i < 3; i++) {
		sf_text t = SF_TEXT_INIT;
		sf_yaml_out y;
		sf_error err;
		char *doc = NULL;

		sf_error_clear(&err);
		sf_yaml_out_init(&y, &t);
		sf_yaml_out_pair(&y, "name", "m", NULL);
		sf_yaml_out_map(&y, "parameters");
		sf_yaml_out_flow_map(&y, "t0");
		sf_yaml_out_number(&y, "min", 0, NULL);
		sf_yaml_out_number(&y, "max", bad[i], NULL);
		sf_yaml_out_end(&y, NULL);
		sf_yaml_out_end(&y, NULL);
		sf_yaml_out_number(&y, "tie", 0.05, NULL);
		CU_ASSERT_EQUAL(sf_yaml_out_finish(&y, &doc, &err), SF_EVALUE);
		CU_ASSERT_PTR_NULL(doc);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, said[i]));
		CU_ASSERT_PTR_NULL(t.data); /* nothing left behind */
	}
	{
		sf_text t = SF_TEXT_INIT;
		sf_yaml_out y;
		sf_error err;
		char *doc = NULL;

		sf_yaml_out_init(&y, &t);
		sf_yaml_out_map(&y, "discover");
		sf_yaml_out_flow_seq(&y, "exponents");
		sf_yaml_out_item_number(&y, 0.5);
		sf_yaml_out_item_number(&y, NAN);
		sf_yaml_out_end(&y, NULL);
		CU_ASSERT_EQUAL(sf_yaml_out_finish(&y, &doc, &err), SF_EVALUE);
		CU_ASSERT_PTR_NOT_NULL(
		    strstr(err.message, "discover.exponents would be nan"));
	}
}

static void
test_keys(void)
{
	static const char *const plain[] = {
	    "t0", "n", "c_compute", "_x", "Overhead", "e_comm2", "y"};
	static const char *const quoted_keys[] = {
	    "",     "1x",  "a-b", "a b", "on",  "Yes", "NULL",
	    "true", "OFF", "no",  "é",   "a.b", "a:b"};

	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		CU_ASSERT(sf_yaml_out_plain_key(plain[i]));
	for (size_t i = 0; i < sizeof quoted_keys / sizeof quoted_keys[0]; i++)
		CU_ASSERT(!sf_yaml_out_plain_key(quoted_keys[i]));
}

static void
test_document(void)
{
	sf_text t = SF_TEXT_INIT;
	sf_yaml_out y;
	char *doc;

	sf_yaml_out_init(&y, &t);
	sf_yaml_out_comment(&y, "A model");
	sf_yaml_out_comment(&y, "%s", "");
	sf_yaml_out_pair(&y, "name", "m", NULL);
	sf_yaml_out_map(&y, "data");
	sf_yaml_out_pair(&y, "file", "d.csv", "relative to this file");
	sf_yaml_out_comment(&y, "where: \"x == 'a'\"");
	sf_yaml_out_end(&y, NULL);
	sf_yaml_out_map(&y, "parameters");
	sf_yaml_out_flow_map(&y, "t0");
	sf_yaml_out_number(&y, "min", 0, NULL);
	sf_yaml_out_number(&y, "max", 1.0 / 3, NULL);
	sf_yaml_out_end(&y, "fitted 0.2");
	sf_yaml_out_end(&y, NULL);
	sf_yaml_out_map(&y, "discover");
	sf_yaml_out_flow_seq(&y, "exponents");
	sf_yaml_out_item_number(&y, -0.5);
	sf_yaml_out_item_number(&y, 1e21);
	sf_yaml_out_end(&y, NULL);
	sf_yaml_out_count(&y, "beam", 8, NULL);
	sf_yaml_out_bool(&y, "overlap", 1, NULL);
	sf_yaml_out_end(&y, NULL);
	doc = sf_text_take(&t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_STRING_EQUAL(doc,
	                       "# A model\n"
	                       "#\n"
	                       "name: \"m\"\n"
	                       "data:\n"
	                       "  file: \"d.csv\"  # relative to this file\n"
	                       "  # where: \"x == 'a'\"\n"
	                       "parameters:\n"
	                       "  t0: {min: 0, max: 0.3333333333333333}  "
	                       "# fitted 0.2\n"
	                       "discover:\n"
	                       "  exponents: [-0.5, 1.0e+21]\n"
	                       "  beam: 8\n"
	                       "  overlap: true\n");
	free(doc);

	/* misuse leaves no text: an item outside a sequence, a comment in a
	 * flow collection, an end with nothing open, a flow left open */
	sf_yaml_out_init(&y, &t);
	sf_yaml_out_item(&y, "x");
	CU_ASSERT_PTR_NULL(sf_text_take(&t));
	sf_yaml_out_init(&y, &t);
	sf_yaml_out_flow_map(&y, "a");
	sf_yaml_out_comment(&y, "no");
	CU_ASSERT_PTR_NULL(sf_text_take(&t));
	sf_yaml_out_init(&y, &t);
	sf_yaml_out_end(&y, NULL);
	CU_ASSERT_EQUAL(sf_yaml_out_finish(&y, &doc, NULL), SF_EINTERNAL);
	CU_ASSERT_PTR_NULL(doc);
	sf_yaml_out_init(&y, &t);
	sf_yaml_out_flow_seq(&y, "a");
	CU_ASSERT_EQUAL(sf_yaml_out_finish(&y, &doc, NULL), SF_EINTERNAL);
	CU_ASSERT_PTR_NULL(doc);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"escapes of a double-quoted scalar", test_escapes},
	    {"hostile texts read back as themselves", test_round_trip},
	    {"invalid UTF-8 escaped, still YAML", test_invalid_utf8},
	    {"numbers plain, read back exactly", test_numbers},
	    {"a number not finite refused, named", test_not_finite},
	    {"plain keys: safe identifiers only", test_keys},
	    {"a document: maps, flows, comments, notes", test_document},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"yaml_out", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
