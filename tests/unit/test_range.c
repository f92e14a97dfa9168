/* test_range.c - ID#RANGE: the parse, and the slice of a transcript widened around tool pairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "txc/model_hermes.h"
#include "txc/range.h"

static int parse(const char *s, struct txc_range *r)
{
	struct txc_diag d = {0};
	int rc = txc_range_parse(s, strlen(s), r, &d);
	assert_true(rc == TXC_OK ? d.msg[0] == '\0' : d.msg[0] != '\0' && d.code == TXC_E_USAGE);
	return rc;
}

static void test_parse_forms(void **state)
{
	(void)state;
	struct txc_range r;
	assert_int_equal(parse("12-40", &r), TXC_OK);
	assert_true(r.first == 12 && r.last == 40 && r.tail == 0);
	assert_int_equal(parse("7", &r), TXC_OK);
	assert_true(r.first == 7 && r.last == 7 && r.tail == 0);
	assert_int_equal(parse("5-", &r), TXC_OK);
	assert_true(r.first == 5 && r.last == 0 && r.tail == 0);
	assert_int_equal(parse("-20", &r), TXC_OK);
	assert_true(r.first == 0 && r.last == 0 && r.tail == 20);
	assert_int_equal(parse("3-3", &r), TXC_OK);
	assert_int_equal(parse("007-0010", &r), TXC_OK);
	assert_true(r.first == 7 && r.last == 10);
	assert_int_equal(parse("999999999999999", &r), TXC_OK); /* 15 digits: the largest taken */
}

static void test_parse_refused(void **state)
{
	(void)state;
	struct txc_range r;
	static const char *const bad[] = {"",
					  "-",
					  "0",
					  "0-5",
					  "5-0",
					  "-0",
					  "40-12",
					  "1-2-3",
					  "--5",
					  "5--",
					  "a",
					  "1a",
					  " 1",
					  "1 ",
					  "+1",
					  "1.5",
					  "1-x",
					  "x-1",
					  "#1",
					  "1#2",
					  "1,2",
					  "1..2",
					  "1000000000000000"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(bad[i], &r), TXC_E_USAGE);
	struct txc_diag d = {0};
	assert_int_equal(txc_range_parse("1\0002", 3, &r, &d), TXC_E_USAGE); /* NUL inside */
	assert_int_equal(parse("40-12", &r), TXC_E_USAGE);
	assert_int_equal(txc_range_parse("40-12", 5, &r, &d), TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "end comes before its start"));
	memset(&d, 0, sizeof(d));
	assert_int_equal(txc_range_parse("0", 1, &r, &d), TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "message 0"));
}

/*
 * Rows: 1 user, 2 assistant calling a and b, 3 result a, 4 result b, 5 assistant, 6 user (blank),
 * 7 user, 8 assistant calling c, 9 result c, 10 assistant.
 */
static struct txc_transcript *session(void)
{
	static const char rows[] =
		"[{\"id\":1,\"role\":\"user\",\"content\":\"u1\"},"
		"{\"id\":2,\"role\":\"assistant\",\"content\":\"a2\",\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"x\"}},"
		"{\"id\":\"b\",\"function\":{\"name\":\"x\"}}]},"
		"{\"id\":3,\"role\":\"tool\",\"tool_call_id\":\"a\",\"content\":\"ra\"},"
		"{\"id\":4,\"role\":\"tool\",\"tool_call_id\":\"b\",\"content\":\"rb\"},"
		"{\"id\":5,\"role\":\"assistant\",\"content\":\"a5\"},"
		"{\"id\":6,\"role\":\"user\",\"content\":\" \"},"
		"{\"id\":7,\"role\":\"user\",\"content\":\"u7\"},"
		"{\"id\":8,\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"c\",\"function\":{\"name\":\"x\"}}]},"
		"{\"id\":9,\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"rc\"},"
		"{\"id\":10,\"role\":\"assistant\",\"content\":\"a10\"}]";
	struct txc_transcript *t = txc_transcript_new();
	const struct txc_json *s, *r;
	assert_int_equal(txc_json_parse(t->arena, "{\"id\":\"s\"}", 10, &s), 0);
	assert_int_equal(txc_json_parse(t->arena, rows, strlen(rows), &r), 0);
	txc_hermes_native(t)->session = s;
	txc_hermes_native(t)->rows = r;
	txc_model_from_hermes(t);
	assert_int_equal(t->n_messages, 9); /* the blank row 6 makes no message but keeps its number */
	return t;
}

/* slice r ("N-M" text) of a fresh session; the kept numbers as "first-last", or the error */
static int slice(const char *text, struct txc_slice_info *info, int64_t *first_number, size_t *n)
{
	struct txc_transcript *t = session();
	struct txc_range r;
	struct txc_diag d = {0};
	assert_int_equal(txc_range_parse(text, strlen(text), &r, &d), TXC_OK);
	int rc = txc_model_slice(t, &r, info, &d);
	*first_number = rc == TXC_OK ? t->messages[0].number : 0;
	*n = rc == TXC_OK ? t->n_messages : 0;
	if (rc == TXC_OK)
		assert_true(t->meta.range_first == info->first && t->meta.range_last == info->last);
	else
		assert_true(d.msg[0] != '\0');
	txc_transcript_free(t);
	return rc;
}

static void test_slice(void **state)
{
	(void)state;
	struct txc_slice_info in;
	int64_t f;
	size_t n;
	assert_int_equal(slice("5-7", &in, &f, &n), TXC_OK); /* 6 is blank: 5 and 7 */
	assert_true(in.first == 5 && in.last == 7 && n == 2 && f == 5 && !in.widened && !in.cut);
	assert_int_equal(slice("3", &in, &f, &n), TXC_OK); /* a result: back to its call, on to the other result */
	assert_true(in.first == 2 && in.last == 4 && n == 3 && in.widened);
	assert_int_equal(slice("1-2", &in, &f, &n), TXC_OK); /* a call: on to both results */
	assert_true(in.first == 1 && in.last == 4 && in.widened);
	assert_int_equal(slice("-2", &in, &f, &n), TXC_OK); /* 9, 10: 9's call is 8 */
	assert_true(in.first == 8 && in.last == 10 && in.asked_first == 9 && in.widened);
	assert_int_equal(slice("-100", &in, &f, &n), TXC_OK); /* more than there are: all */
	assert_true(in.first == 1 && in.last == 10 && n == 9 && !in.widened);
	assert_int_equal(slice("9-", &in, &f, &n), TXC_OK);
	assert_true(in.first == 8 && in.last == 10);
	assert_int_equal(slice("10-99", &in, &f, &n), TXC_OK); /* the end cut to the last message */
	assert_true(in.first == 10 && in.last == 10 && in.cut && n == 1);
	assert_int_equal(slice("11", &in, &f, &n), TXC_E_USAGE); /* past the end */
	assert_int_equal(slice("11-", &in, &f, &n), TXC_E_USAGE);
	assert_int_equal(slice("6", &in, &f, &n), TXC_E_USAGE); /* only a blank row */
	assert_int_equal(in.n_numbers, 10);
}

static void test_slice_empty_session(void **state)
{
	(void)state;
	struct txc_transcript *t = txc_transcript_new();
	const struct txc_json *s, *r;
	assert_int_equal(txc_json_parse(t->arena, "{\"id\":\"s\"}", 10, &s), 0);
	assert_int_equal(txc_json_parse(t->arena, "[]", 2, &r), 0);
	txc_hermes_native(t)->session = s;
	txc_hermes_native(t)->rows = r;
	txc_model_from_hermes(t);
	struct txc_range rg = {.first = 1, .last = 0};
	struct txc_slice_info in;
	struct txc_diag d = {0};
	assert_int_equal(txc_model_slice(t, &rg, &in, &d), TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "no messages"));
	txc_transcript_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_slice),
		cmocka_unit_test(test_slice_empty_session),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
