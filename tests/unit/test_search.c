/* test_search.c - the search query (search.h): parsing, the FTS5 expression, row checks, snippets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "txc/search.h"

static struct txc_query parse(const char *s, size_t len)
{
	struct txc_query q;
	struct txc_diag d = {0};
	assert_int_equal(txc_query_parse(s, len, &q, &d), TXC_OK);
	return q;
}

/* the FTS5 expression of s ("" when the index cannot narrow) */
static void expect_fts(const char *s, const char *want)
{
	struct txc_query q = parse(s, strlen(s));
	char *f = txc_query_fts(&q);
	assert_string_equal(f ? f : "", want);
	free(f);
	txc_query_free(&q);
}

static bool matches(const char *query, const char *text)
{
	struct txc_query q = parse(query, strlen(query));
	struct txc_str col = {text, strlen(text)};
	bool m = txc_query_match(&q, &col, 1);
	txc_query_free(&q);
	return m;
}

static void test_terms(void **state)
{
	(void)state;
	const char *text = "retry \"exact  phrase\" -skip deploy* chat-send";
	struct txc_query q = parse(text, strlen(text));
	assert_int_equal(q.n, 5);
	assert_string_equal(q.v[0].text, "retry");
	assert_string_equal(q.v[1].text, "exact phrase");
	assert_true(q.v[2].negated);
	assert_true(q.v[3].prefix);
	assert_string_equal(q.v[4].text, "chat send");
	assert_int_equal(q.n_positive, 4);
	txc_query_free(&q);
}

static void test_fts_expression(void **state)
{
	(void)state;
	expect_fts("retry loop", "\"retry\" AND \"loop\"");
	expect_fts("deploy*", "\"deploy\"*");
	expect_fts("chat-send P2.2 snake_case", "\"chat send\" AND \"P2 2\" AND \"snake case\"");
	expect_fts("C++", "\"C\"");
	expect_fts("col:term", "\"col term\"");
	expect_fts("NOT", "\"NOT\""); /* a word, never the operator */
	expect_fts("a OR b AND NEAR(c d)", "\"a\" AND \"OR\" AND \"b\" AND \"AND\" AND \"NEAR c\" AND \"d\"");
	expect_fts("\"unbalanced retry", "\"unbalanced\" AND \"retry\"");
	expect_fts("retry -loop", "\"retry\"");     /* exclusions are checked on each row */
	expect_fts("caf\xc3\xa9 au", "\"au\"");     /* a non-ASCII token is left to the row check */
	expect_fts("\xe6\x9d\xb1\xe4\xba\xac", ""); /* CJK: a substring, the index cannot narrow */
	expect_fts("\xf0\x9f\x8e\x89 party", "\"party\"");
	expect_fts("**x x** *", "\"x\" AND \"x\"*"); /* a leading * is punctuation */
}

/* the trigram expression of s ("" when trigram cannot narrow) */
static void expect_trigram(const char *s, const char *want)
{
	struct txc_query q = parse(s, strlen(s));
	char *f = txc_query_trigram(&q);
	assert_string_equal(f ? f : "", want);
	free(f);
	txc_query_free(&q);
}

static void test_trigram_expression(void **state)
{
	(void)state;
	expect_trigram("東京タワー", "\"東京タワー\"");
	expect_trigram("東京タワー 週末の -予定", "\"東京タワー\" \"週末の\""); /* exclusions are checked on rows */
	expect_trigram("東京", "");                                             /* 2 characters: trigram cannot match */
	expect_trigram("東京タワー 東京", "");                                  /* every word needs 3+ */
	expect_trigram("🎉", "");
	expect_trigram("café-au-lait", "\"café\" \"lait\"");  /* word tokens, each 3+; "au" is left to the row check */
	expect_trigram("\"東京 タワー\"", "\"東京 タワー\""); /* a phrase is one substring, space and all */
	expect_trigram("deploy*", "\"deploy\"");              /* a prefix is a substring */
	expect_trigram("AND NOT", "\"AND\" \"NOT\"");         /* plain words, quoted */
	expect_trigram("AND OR", "");                         /* OR: too short */
}

static void test_refused(void **state)
{
	(void)state;
	struct txc_query q;
	struct txc_diag d = {0};
	assert_int_equal(txc_query_parse("!!! ... ()", 10, &q, &d), TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "no word to find"));
	assert_int_equal(txc_query_parse("-retry -\"a b\"", 13, &q, &d), TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "only excludes"));
	assert_int_equal(txc_query_parse("", 0, &q, &d), TXC_E_USAGE);
	assert_int_equal(txc_query_parse("\"", 1, &q, &d), TXC_E_USAGE);
}

static void test_hostile_bytes(void **state)
{
	(void)state;
	struct txc_query q = parse("a\0b", 3); /* NUL separates */
	assert_int_equal(q.n, 2);
	txc_query_free(&q);
	q = parse("\xff\xfe retry \xc3", 10); /* invalid UTF-8: separators */
	assert_int_equal(q.n, 1);
	assert_string_equal(q.v[0].text, "retry");
	txc_query_free(&q);
	size_t n = 1 << 20;
	char *big = malloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = i % 7 == 6 ? ' ' : (char)('a' + i % 26);
	q = parse(big, n); /* 1 MB: parsed, no crash (the CLI refuses more than TXC_QUERY_MAX) */
	assert_true(q.n > 100000);
	char *f = txc_query_fts(&q);
	assert_non_null(f);
	free(f);
	txc_query_free(&q);
	free(big);
}

static void test_match(void **state)
{
	(void)state;
	assert_true(matches("retry loop", "the Retry LOOP"));
	assert_false(matches("retry", "retrying"));         /* whole tokens */
	assert_true(matches("retry*", "retrying"));         /* a prefix */
	assert_true(matches("chat-send", "Chat_Send now")); /* punctuation is a separator */
	assert_false(matches("chat-send", "chat and send"));
	assert_true(matches("\"send chat\"", "send, chat"));
	assert_false(matches("retry -loop", "retry loop"));
	assert_true(matches("C++", "C and more"));
	assert_true(matches("\xe6\x9d\xb1\xe4\xba\xac",
			    "\xe5\x9c\xa8\xe6\x9d\xb1\xe4\xba\xac\xe3\x81\xa7")); /* CJK substring */
	assert_true(matches("\xf0\x9f\x8e\x89", "party\xf0\x9f\x8e\x89!"));       /* emoji */
	assert_false(matches("caf\xc3\xa9", "cafe"));                             /* exact non-ASCII */
	struct txc_query q = parse("x", 1);
	struct txc_str nul = {"a\0x", 3};
	assert_true(txc_query_match(&q, &nul, 1)); /* NUL in a row: a separator */
	txc_query_free(&q);
	q = parse("retry loop", 10);
	struct txc_str cols[2] = {{"retry", 5}, {"loop", 4}};
	assert_true(txc_query_match(&q, cols, 2)); /* words may sit in different columns */
	txc_query_free(&q);
}

static void test_snippet(void **state)
{
	(void)state;
	struct txc_query q = parse("word", 4);
	struct txc_buf t = TXC_BUF_INIT;
	for (int i = 0; i < 40; i++)
		txc_buf_addstr(&t, "\xe9\x80\xb1"); /* 3-byte characters before and after */
	txc_buf_addstr(&t, " word ");
	for (int i = 0; i < 40; i++)
		txc_buf_addstr(&t, "\xe9\x80\xb1");
	struct txc_snippet s;
	txc_query_snippet(&q, t.buf, t.len, 40, &s);
	assert_true(s.cut_left && s.cut_right);
	assert_true(txc_utf8_valid(t.buf + s.start, s.end - s.start));
	assert_int_equal(s.n, 1);
	assert_memory_equal(t.buf + s.mark[0][0], "word", 4);
	assert_int_equal(s.mark[0][1] - s.mark[0][0], 4);
	txc_buf_release(&t);
	txc_query_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_fts_expression),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_hostile_bytes),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_snippet),
		cmocka_unit_test(test_trigram_expression),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
