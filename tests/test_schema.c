/*
 * test_schema.c - YAML documents opened and their nodes read with typed
 * access (input/schema.h): every error's code, FILE:LINE:COL and message.
 */
#include "input/schema.h"
#include "base/error.h"
#include "testing.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* What a case does with the value of key x. */
typedef enum op {
	OP_OPEN,      /* only open the text */
	OP_NUMBER,    /* sf_schema_number */
	OP_UNIT,      /* sf_schema_number_in [0, 1] */
	OP_POSITIVE,  /* sf_schema_number_in [0, inf] */
	OP_COUNT,     /* sf_schema_count, at least 4 */
	OP_COUNT_IN,  /* sf_schema_count_in 1 to 8 */
	OP_BOOL,      /* sf_schema_bool */
	OP_CHOICE,    /* sf_schema_choice of lshade, jso, de */
	OP_MAPPING,   /* sf_schema_expect a mapping */
	OP_KEYS,      /* sf_schema_keys, allowed: expr, kind */
	OP_ANY_KEYS,  /* sf_schema_keys, any name */
	OP_PRINTABLE, /* sf_schema_refuse_control, no line breaks */
} op;

/* Run op on the value of key x of the document text; the status. */
static int
run(const char *text, size_t length, op what, sf_error *err)
{
	static const char *const choices[] = {"lshade", "jso", "de"};
	static const char *const keys[] = {"expr", "kind"};
	sf_schema s;
	yaml_node_t *root, *x;
	const char *t;
	double d;
	size_t n;
	int rc, k;

	rc = sf_schema_open(&s, "test", "t.yaml", text, length, NULL, NULL, err,
	                    &root);
	if (rc != SF_OK || what == OP_OPEN)
		goto done;
	x = sf_schema_get(&s, root, "x");
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	switch (what) {
	case OP_NUMBER:
		rc = sf_schema_number(&s, x, "x", &d);
		break;
	case OP_UNIT:
		rc = sf_schema_number_in(&s, x, "x", 0, 1, &d);
		break;
	case OP_POSITIVE:
		rc = sf_schema_number_in(&s, x, "x", 0, INFINITY, &d);
		break;
	case OP_COUNT:
		rc = sf_schema_count(&s, x, "x", 4, &n);
		break;
	case OP_COUNT_IN:
		rc = sf_schema_count_in(&s, x, "x", 1, 8, &n);
		break;
	case OP_BOOL:
		rc = sf_schema_bool(&s, x, "x", &k);
		break;
	case OP_CHOICE:
		rc = sf_schema_choice(&s, x, "x", choices, 3, &k);
		break;
	case OP_MAPPING:
		rc = sf_schema_expect(&s, x, YAML_MAPPING_NODE, "x");
		break;
	case OP_KEYS:
	case OP_ANY_KEYS:
		rc = sf_schema_expect(&s, x, YAML_MAPPING_NODE, "x");
		if (rc == SF_OK)
			rc = sf_schema_keys(&s, x, "x",
			                    what == OP_KEYS ? keys : NULL, 2);
		break;
	case OP_PRINTABLE:
		rc = sf_schema_text(&s, x, "x", &t);
		if (rc == SF_OK)
			rc = sf_schema_refuse_control(&s, x, "x", t, 0);
		break;
	case OP_OPEN:
		break;
	}
done:
	sf_schema_close(&s);
	return rc;
}

/* Every error: its code, position and a part of its message. */
static void
test_errors(void)
{
	static const struct {
		const char *text;
		op what;
		int code, line, column;
		const char *message;
	} cases[] = {
	    {"", OP_OPEN, SF_ESYNTAX, 0, 0, "the test file is empty"},
	    {"# only a comment\n", OP_OPEN, SF_ESYNTAX, 0, 0,
	     "the test file is empty"},
	    {"x: [1\n", OP_OPEN, SF_ESYNTAX, 2, 1, "YAML syntax: did not find"},
	    {"x:\n\ty: 1\n", OP_OPEN, SF_ESYNTAX, 2, 1,
	     "a tab in the indentation"},
	    {"x: 1\n---\ny: 2\n", OP_OPEN, SF_ESYNTAX, 3, 1,
	     "a test file holds one YAML document; this is a second one"},
	    {"x: \"a\\0b\"\n", OP_OPEN, SF_ESYNTAX, 1, 4,
	     "a NUL character (\\0) is not allowed in a string"},
	    {"x: abc\n", OP_NUMBER, SF_ETYPE, 1, 4,
	     "x must be a number, not 'abc'"},
	    {"x: 1e999\n", OP_NUMBER, SF_EVALUE, 1, 4,
	     "x '1e999' is out of the range of a double"},
	    {"x: [1]\n", OP_NUMBER, SF_ETYPE, 1, 4,
	     "x must be a scalar, not a list"},
	    {"x: 5\n", OP_UNIT, SF_EVALUE, 1, 4,
	     "x must be between 0 and 1, not 5"},
	    {"x: -1\n", OP_POSITIVE, SF_EVALUE, 1, 4, "x must be >= 0, not -1"},
	    {"x: many\n", OP_COUNT, SF_ETYPE, 1, 4,
	     "x must be a whole number, not 'many'"},
	    {"x: 1.5\n", OP_COUNT, SF_EVALUE, 1, 4,
	     "x must be a whole number >= 4, not '1.5'"},
	    {"x: 3\n", OP_COUNT, SF_EVALUE, 1, 4,
	     "x must be a whole number >= 4, not '3'"},
	    {"x: 9007199254740993\n", OP_COUNT, SF_EVALUE, 1, 4,
	     "x must be at most 9007199254740992 (2^53)"},
	    {"x: 9\n", OP_COUNT_IN, SF_EVALUE, 1, 4,
	     "x must be a whole number from 1 to 8, not 9"},
	    {"x: maybe\n", OP_BOOL, SF_ETYPE, 1, 4,
	     "x must be true or false, not 'maybe'"},
	    {"x: shade\n", OP_CHOICE, SF_EVALUE, 1, 4,
	     "unknown x 'shade'; did you mean 'lshade'?"},
	    {"x: zzzzzz\n", OP_CHOICE, SF_EVALUE, 1, 4,
	     "unknown x 'zzzzzz' (one of: lshade, jso, de)"},
	    {"x: [1]\n", OP_MAPPING, SF_ETYPE, 1, 4,
	     "x must be a mapping, not a list"},
	    {"x:\n  expr: 1\n  kind: io\n  expr: 2\n", OP_KEYS, SF_ENAME, 4, 3,
	     "duplicate key 'expr' (first given on line 2)"},
	    {"x: {exrp: 1}\n", OP_KEYS, SF_ENAME, 1, 5,
	     "unknown key 'exrp' in x; did you mean 'expr'?"},
	    {"x: {zzzzzz: 1}\n", OP_KEYS, SF_ENAME, 1, 5,
	     "unknown key 'zzzzzz' in x"},
	    {"x: {expr: max(a, b)}\n", OP_KEYS, SF_ENAME, 1, 18,
	     "a comma inside {...} ends the value"},
	    {"x: {[1]: 2}\n", OP_ANY_KEYS, SF_ETYPE, 1, 5,
	     "a key must be a scalar, not a list"},
	    {"x: \"a\\eb\"\n", OP_PRINTABLE, SF_EVALUE, 1, 4,
	     "x holds the control character \\x1B, which is printed as it "
	     "is: leave it out"},
	    {"x: \"a\\nb\"\n", OP_PRINTABLE, SF_EVALUE, 1, 4,
	     "control character \\x0A"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sf_error err;
		int rc;

		sf_error_clear(&err);
		rc = run(cases[i].text, strlen(cases[i].text), cases[i].what,
		         &err);
		CU_ASSERT_EQUAL(rc, cases[i].code);
		CU_ASSERT_EQUAL(err.code, cases[i].code);
		CU_ASSERT_STRING_EQUAL(err.file, "t.yaml");
		CU_ASSERT_EQUAL(err.line, cases[i].line);
		CU_ASSERT_EQUAL(err.column, cases[i].column);
		if (rc != cases[i].code || err.line != cases[i].line ||
		    err.column != cases[i].column ||
		    strstr(err.message, cases[i].message) == NULL) {
			fprintf(stderr, "\ncase %zu: %d %d:%d '%s'\n", i, rc,
			        err.line, err.column, err.message);
			CU_FAIL("error message");
		}
	}
}

/* Good values read as they should, with no error. */
static void
test_values(void)
{
	static const char text[] =
	    "n: 2e5\nc: 12\nb: Off\nk: jso\nm: {expr: a, kind: io}\n";
	static const char *const choices[] = {"lshade", "jso", "de"};
	static const char *const keys[] = {"expr", "kind"};
	sf_schema s;
	yaml_node_t *root, *m;
	double d = 0;
	size_t n = 0;
	int b = 1, k = 0;
	sf_error err;

	sf_error_clear(&err);
	CU_ASSERT_EQUAL_FATAL(sf_schema_open(&s, "test", "t.yaml", text,
	                                     strlen(text), NULL, NULL, &err,
	                                     &root),
	                      SF_OK);
	CU_ASSERT_EQUAL(sf_schema_pairs(root), 5);
	CU_ASSERT_EQUAL(
	    sf_schema_number(&s, sf_schema_get(&s, root, "n"), "n", &d), SF_OK);
	CU_ASSERT_EQUAL(d, 2e5);
	CU_ASSERT_EQUAL(
	    sf_schema_count(&s, sf_schema_get(&s, root, "n"), "n", 0, &n),
	    SF_OK);
	CU_ASSERT_EQUAL(n, 200000);
	CU_ASSERT_EQUAL(sf_schema_count_in(&s, sf_schema_get(&s, root, "c"),
	                                   "c", 1, 12, &n),
	                SF_OK);
	CU_ASSERT_EQUAL(n, 12);
	CU_ASSERT_EQUAL(
	    sf_schema_bool(&s, sf_schema_get(&s, root, "b"), "b", &b), SF_OK);
	CU_ASSERT_EQUAL(b, 0);
	CU_ASSERT_EQUAL(sf_schema_choice(&s, sf_schema_get(&s, root, "k"), "k",
	                                 choices, 3, &k),
	                SF_OK);
	CU_ASSERT_EQUAL(k, 1);
	m = sf_schema_get(&s, root, "m");
	CU_ASSERT_EQUAL(sf_schema_keys(&s, m, "m", keys, 2), SF_OK);
	CU_ASSERT_STRING_EQUAL(sf_schema_scalar(sf_schema_get(&s, m, "kind")),
	                       "io");
	CU_ASSERT_STRING_EQUAL(sf_schema_kind(m), "a mapping");
	CU_ASSERT_PTR_NULL(sf_schema_get(&s, root, "absent"));
	CU_ASSERT_EQUAL(sf_schema_at(&s, m).line, 5);
	CU_ASSERT_EQUAL(sf_schema_at(&s, m).column, 4);
	CU_ASSERT_EQUAL(err.code, SF_OK);
	sf_schema_close(&s);
}

/* A NUL byte in the text, a byte order mark before the first key, and a
 * warning at a node. */
static void
test_bytes_and_warnings(void)
{
	static const char nul[] = "x: 1\ny: 2\0\n";
	static const char bom[] = "\xEF\xBB\xBFx: 1\ny: [a, b]\n";
	sf_test_warnings w = {0};
	sf_schema s;
	yaml_node_t *root;
	sf_error err;

	sf_error_clear(&err);
	CU_ASSERT_EQUAL(sf_schema_open(&s, "model", "m.yaml", nul,
	                               sizeof nul - 1, NULL, NULL, &err, &root),
	                SF_ESYNTAX);
	sf_schema_close(&s);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_EQUAL(err.column, 5);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "the model file contains a NUL byte (is it a "
	                       "text file?)");
	CU_ASSERT_EQUAL_FATAL(sf_schema_open(&s, "model", "m.yaml", bom,
	                                     sizeof bom - 1, sf_test_warn, &w,
	                                     &err, &root),
	                      SF_OK);
	/* byte columns: the byte order mark's three count, as the quoted
	 * line holds them */
	CU_ASSERT_EQUAL(sf_schema_at(&s, root).column, 4);
	CU_ASSERT_EQUAL(sf_schema_at(&s, root).offset, 3);
	sf_schema_warn(&s, sf_schema_get(&s, root, "y"), "look at %s", "y");
	CU_ASSERT_EQUAL(w.count, 1);
	CU_ASSERT_EQUAL(w.last.line, 2);
	CU_ASSERT_EQUAL(w.last.column, 4);
	CU_ASSERT_STRING_EQUAL(w.last.message, "look at y");
	CU_ASSERT_EQUAL(sf_schema_fail_at(&s, 2, 1, SF_EVALUE, "at %d", 2),
	                SF_EVALUE);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_STRING_EQUAL(err.message, "at 2");
	CU_ASSERT_EQUAL(sf_schema_oom(&s), SF_ENOMEM);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "out of memory while loading the model");
	sf_schema_close(&s);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"every error at its position", test_errors},
	    {"values read", test_values},
	    {"NUL bytes, byte order marks, warnings", test_bytes_and_warnings},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"schema", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
