/* test_range.c - ID#RANGE: the parse, and the slice of a transcript widened around tool pairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

static void test_words(void **state)
{
	(void)state;
	char w[64];
	txc_range_words(w, 7, 7);
	assert_string_equal(w, "message 7");
	txc_range_words(w, 7, 12);
	assert_string_equal(w, "messages 7-12");
}

/* a transcript from Hermes rows (JSON array text) */
static struct txc_transcript *from_rows(const char *rows)
{
	struct txc_transcript *t = txc_transcript_new();
	const struct txc_json *s, *r;
	assert_int_equal(txc_json_parse(t->arena, "{\"id\":\"s\"}", 10, &s), 0);
	assert_int_equal(txc_json_parse(t->arena, rows, strlen(rows), &r), 0);
	txc_hermes_native(t)->session = s;
	txc_hermes_native(t)->rows = r;
	txc_model_from_hermes(t);
	return t;
}

static int slice_of(struct txc_transcript *t, const char *text, struct txc_slice_info *in, struct txc_diag *d)
{
	struct txc_range r;
	assert_int_equal(txc_range_parse(text, strlen(text), &r, d), TXC_OK);
	return txc_model_slice(t, &r, in, d);
}

/* a result before any call of its id, a call without an id, one id called twice: only a call
 * before a result pairs with it, the nearest */
static void test_odd_pairs(void **state)
{
	(void)state;
	static const char rows[] =
		"[{\"id\":1,\"role\":\"tool\",\"tool_call_id\":\"d\",\"content\":\"early\"},"
		"{\"id\":2,\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"x\"}}]},"
		"{\"id\":3,\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"d\",\"function\":{\"name\":\"x\"}}]},"
		"{\"id\":4,\"role\":\"tool\",\"tool_call_id\":\"d\",\"content\":\"r4\"},"
		"{\"id\":5,\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"d\",\"function\":{\"name\":\"x\"}}]},"
		"{\"id\":6,\"role\":\"tool\",\"tool_call_id\":\"d\",\"content\":\"r6\"}]";
	struct txc_slice_info in;
	struct txc_diag d = {0};
	struct txc_transcript *t = from_rows(rows);
	assert_int_equal(slice_of(t, "1", &in, &d), TXC_OK); /* no call before it: alone */
	assert_true(in.first == 1 && in.last == 1 && !in.widened);
	txc_transcript_free(t);
	t = from_rows(rows);
	assert_int_equal(slice_of(t, "2", &in, &d), TXC_OK); /* a call without an id pairs with nothing */
	assert_true(in.first == 2 && in.last == 2 && !in.widened);
	txc_transcript_free(t);
	t = from_rows(rows);
	assert_int_equal(slice_of(t, "6", &in, &d), TXC_OK); /* the nearest call of its id: 5, not 3 */
	assert_true(in.first == 5 && in.last == 6 && in.widened);
	txc_transcript_free(t);
	t = from_rows(rows);
	assert_int_equal(slice_of(t, "3", &in, &d), TXC_OK); /* 3's result is 4 (6 answers 5) */
	assert_true(in.first == 3 && in.last == 4 && in.widened);
	txc_transcript_free(t);
}

/* 40 calls each answered at once: past the first 64 pairs, each still kept with its result */
static void test_many_pairs(void **state)
{
	(void)state;
	char rows[16384];
	size_t n = 0;
	n += (size_t)snprintf(rows + n, sizeof(rows) - n, "[");
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(
			rows + n, sizeof(rows) - n,
			"%s{\"id\":%d,\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"c%d\","
			"\"function\":{\"name\":\"x\"}}]},{\"id\":%d,\"role\":\"tool\",\"tool_call_id\":\"c%d\","
			"\"content\":\"r\"}",
			i ? "," : "", 2 * i + 1, i, 2 * i + 2, i);
	snprintf(rows + n, sizeof(rows) - n, "]");
	struct txc_slice_info in;
	struct txc_diag d = {0};
	struct txc_transcript *t = from_rows(rows);
	assert_int_equal(slice_of(t, "78", &in, &d), TXC_OK);
	assert_true(in.first == 77 && in.last == 78 && in.widened && t->n_messages == 2);
	txc_transcript_free(t);
	t = from_rows(rows);
	assert_int_equal(slice_of(t, "3-5", &in, &d), TXC_OK);
	assert_true(in.first == 3 && in.last == 6 && in.widened && t->n_messages == 4);
	txc_transcript_free(t);
}

/* messages without a number (0) around and inside the range stay out at its ends, in it inside */
static void test_unnumbered(void **state)
{
	(void)state;
	static const int64_t numbers[] = {0, 1, 0, 2, 0, 4, 0};
	struct txc_slice_info in;
	struct txc_diag d = {0};
	struct txc_transcript *t = txc_transcript_new();
	t->messages = txc_arena_array(t->arena, 7, sizeof(*t->messages));
	for (size_t i = 0; i < 7; i++)
		t->messages[t->n_messages++] = (struct txc_message){.role = TXC_ROLE_USER, .number = numbers[i]};
	struct txc_message *all = t->messages;
	assert_int_equal(slice_of(t, "1-2", &in, &d), TXC_OK);
	assert_true(t->messages == all + 1 && t->n_messages == 3 && in.first == 1 && in.last == 2 && in.n_numbers == 4);
	t->messages = all, t->n_messages = 7;
	assert_int_equal(slice_of(t, "3", &in, &d), TXC_E_USAGE); /* 3 has no row: between 2 and 4 */
	assert_string_equal(d.msg, "message 3: nothing to convert (rows without text)");
	memset(&d, 0, sizeof(d));
	assert_int_equal(slice_of(t, "3-4", &in, &d), TXC_OK);
	assert_true(t->messages == all + 5 && t->n_messages == 1 && in.first == 3 && in.last == 4);
	txc_transcript_free(t);
	/* numbers that start late (a session read from its middle): before the first, nothing */
	t = txc_transcript_new();
	t->messages = txc_arena_array(t->arena, 2, sizeof(*t->messages));
	t->messages[0] = (struct txc_message){.role = TXC_ROLE_USER, .number = 6};
	t->messages[1] = (struct txc_message){.role = TXC_ROLE_USER, .number = 7};
	t->n_messages = 2;
	memset(&d, 0, sizeof(d));
	assert_int_equal(slice_of(t, "2-5", &in, &d), TXC_E_USAGE);
	assert_string_equal(d.msg, "messages 2-5: nothing to convert (rows without text)");
	t->messages[0].number = 0;
	memset(&d, 0, sizeof(d));
	assert_int_equal(slice_of(t, "5", &in, &d), TXC_E_USAGE);
	assert_string_equal(d.msg, "message 5: nothing to convert (rows without text)");
	txc_transcript_free(t);
}

/* built directly (as another reader may): one message answering two calls, with no number of its
 * own; a call and its result in one message */
static void test_shared_results(void **state)
{
	(void)state;
	struct txc_transcript *t = txc_transcript_new();
	struct txc_block *b = txc_arena_array(t->arena, 6, sizeof(*b));
	b[0] = (struct txc_block){.kind = TXC_BLOCK_TOOL_USE, .id = txc_str_c("a")};
	b[1] = (struct txc_block){.kind = TXC_BLOCK_TOOL_USE, .id = txc_str_c("b")};
	b[2] = (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT, .id = txc_str_c("a")};
	b[3] = (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT, .id = txc_str_c("b")};
	b[4] = (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT, .id = txc_str_c("c")};
	b[5] = (struct txc_block){.kind = TXC_BLOCK_TOOL_USE, .id = txc_str_c("c")};
	t->messages = txc_arena_array(t->arena, 4, sizeof(*t->messages));
	t->messages[0] = (struct txc_message){.role = TXC_ROLE_ASSISTANT, .blocks = b, .n_blocks = 1, .number = 1};
	t->messages[1] = (struct txc_message){.role = TXC_ROLE_ASSISTANT, .blocks = b + 1, .n_blocks = 1, .number = 2};
	t->messages[2] = (struct txc_message){.role = TXC_ROLE_USER, .blocks = b + 2, .n_blocks = 2};
	t->messages[3] = (struct txc_message){.role = TXC_ROLE_ASSISTANT, .blocks = b + 4, .n_blocks = 2, .number = 3};
	t->n_messages = 4;
	struct txc_message *all = t->messages;
	struct txc_slice_info in;
	struct txc_diag d = {0};
	assert_int_equal(slice_of(t, "1", &in, &d), TXC_OK); /* on to the results, and so to b's call */
	assert_true(t->messages == all && t->n_messages == 3 && in.first == 1 && in.last == 2 && in.widened);
	t->messages = all, t->n_messages = 4;
	assert_int_equal(slice_of(t, "3", &in, &d), TXC_OK); /* its own call: nothing more */
	assert_true(t->messages == all + 3 && t->n_messages == 1 && in.first == 3 && in.last == 3 && !in.widened);
	txc_transcript_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),    cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_slice),          cmocka_unit_test(test_slice_empty_session),
		cmocka_unit_test(test_words),          cmocka_unit_test(test_odd_pairs),
		cmocka_unit_test(test_many_pairs),     cmocka_unit_test(test_unnumbered),
		cmocka_unit_test(test_shared_results),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
