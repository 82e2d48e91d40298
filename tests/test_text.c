/*
 * test_text.c - the growing string (base/text.h): appends of every kind,
 * growth past many doublings, bytes with NULs, an empty text taken, reuse
 * after take and free, and sf_text_dup; the doubling array of base/grow.h.
 */
#include "base/grow.h"
#include "base/text.h"
#include "testing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void
test_appends(void)
{
	sf_text t = SF_TEXT_INIT;
	char *s;

	CU_ASSERT_STRING_EQUAL(sf_text_str(&t), "");
	sf_text_puts(&t, "a");
	sf_text_putc(&t, 'b');
	sf_text_printf(&t, "%d-%s-%.2f", 42, "x", 0.5);
	sf_text_append(&t, "cdef", 2);
	CU_ASSERT_EQUAL(t.length, strlen("ab42-x-0.50cd"));
	CU_ASSERT_STRING_EQUAL(sf_text_str(&t), "ab42-x-0.50cd");
	s = sf_text_take(&t);
	CU_ASSERT_STRING_EQUAL(s, "ab42-x-0.50cd");
	CU_ASSERT_PTR_NULL(t.data);
	CU_ASSERT_EQUAL(t.length, 0);
	free(s);
	/* reused after take */
	sf_text_printf(&t, "%s", "again");
	CU_ASSERT_STRING_EQUAL(sf_text_str(&t), "again");
	sf_text_free(&t);
	CU_ASSERT_PTR_NULL(t.data);
	sf_text_free(NULL);
}

static void
test_growth(void)
{
	sf_text t = SF_TEXT_INIT;
	char *s;

	for (int i = 0; i < 100000; i++)
		sf_text_printf(&t, "%05d\n", i % 100000);
	CU_ASSERT_EQUAL(t.length, 600000);
	s = sf_text_take(&t);
	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT_EQUAL(strncmp(s, "00000\n00001\n", 12), 0);
	CU_ASSERT_EQUAL(strcmp(s + 599994, "99999\n"), 0);
	free(s);
	/* one append far larger than the capacity so far */
	{
		char *big = malloc(100001);
		memset(big, 'x', 100000);
		big[100000] = '\0';
		sf_text_puts(&t, "<");
		sf_text_printf(&t, "%s>", big);
		CU_ASSERT_EQUAL(t.length, 100002);
		CU_ASSERT_EQUAL(sf_text_str(&t)[100001], '>');
		free(big);
		sf_text_free(&t);
	}
}

static void
test_edges(void)
{
	sf_text t = SF_TEXT_INIT;
	char *s = sf_text_take(&t), *d;

	/* nothing appended: "" */
	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	/* bytes with a NUL are kept; the length counts them */
	sf_text_append(&t, "a\0b", 3);
	CU_ASSERT_EQUAL(t.length, 3);
	CU_ASSERT_EQUAL(memcmp(t.data, "a\0b", 4), 0);
	sf_text_free(&t);
	/* a failed text stays failed and takes as NULL */
	sf_text_puts(&t, "partial");
	t.failed = 1;
	sf_text_puts(&t, " more");
	CU_ASSERT_PTR_NULL(sf_text_str(&t));
	CU_ASSERT_PTR_NULL(sf_text_take(&t));
	CU_ASSERT_EQUAL(t.failed, 0);
	d = sf_text_dup("copy");
	CU_ASSERT_STRING_EQUAL(d, "copy");
	free(d);
}

/* sf_grow: room left keeps the array; a full one doubles (first when
 * empty) and keeps its items; an impossible size fails and keeps both. */
static void
test_grow(void)
{
	size_t cap = 0, n;
	int *a = NULL, *b;

	for (n = 0; n < 1000; n++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(
		    b = sf_grow(a, &cap, n, sizeof *a, 4));
		a = b;
		a[n] = (int)n;
		CU_ASSERT(cap > n);
	}
	CU_ASSERT_EQUAL(cap, 1024); /* 4, 8, ..., 1024 */
	CU_ASSERT_PTR_EQUAL(sf_grow(a, &cap, 1000, sizeof *a, 4), a);
	for (n = 0; n < 1000; n++)
		if (a[n] != (int)n)
			break;
	CU_ASSERT_EQUAL(n, 1000);
	CU_ASSERT_PTR_NULL(sf_grow(a, &cap, cap, SIZE_MAX / 1024, 4));
	CU_ASSERT_EQUAL(cap, 1024);
	CU_ASSERT_EQUAL(a[999], 999);
	free(a);
}

/* Lower case: cut to the room, NUL-terminated, in place too; bytes
 * beyond ASCII kept. */
static void
test_lower(void)
{
	char out[8], in_place[] = "GPU_Count";

	CU_ASSERT_EQUAL(sf_text_lower("Batch_Size", out, sizeof out), 7);
	CU_ASSERT_STRING_EQUAL(out, "batch_s");
	CU_ASSERT_EQUAL(sf_text_lower("", out, sizeof out), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(sf_text_lower("ABC", out, 1), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(sf_text_lower("N\xc3\x9c", out, sizeof out), 3);
	CU_ASSERT_STRING_EQUAL(out, "n\xc3\x9c");
	CU_ASSERT_EQUAL(sf_text_lower(in_place, in_place, sizeof in_place), 9);
	CU_ASSERT_STRING_EQUAL(in_place, "gpu_count");
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"appends, take, reuse", test_appends},
	    {"growth", test_growth},
	    {"empty, NUL bytes, failure, dup", test_edges},
	    {"a doubling array", test_grow},
	    {"lower case", test_lower},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"text", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
