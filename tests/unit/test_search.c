/* test_search.c - the search query (search.h): parsing, the FTS5 expression, row checks, snippets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* Whether the character c (UTF-8) separates tokens in a row: "retry" is found after "x" c only then. */
static bool separates(const char *c)
{
	char text[32];
	snprintf(text, sizeof(text), "x%sretry", c);
	return matches("retry", text);
}

static void test_separators(void **state)
{
	(void)state;
	/* Latin-1: punctuation and symbols split; ª ² ³ µ ¹ º ¼ ½ ¾ are letters or numbers; × ÷ split; é does not */
	static const char *const split[] = {"\xc2\xa7",         "\xc2\xab",         "\xc3\x97",     "\xc3\xb7",
					    "\xe2\x80\x94",     "\xe2\x86\x92",     "\xe2\xb8\x98", "\xe3\x80\x81",
					    "\xe3\x80\x8c",     "\xe3\x80\xb0",     "\xe3\x80\xbd", "\xef\xb8\xb1",
					    "\xef\xbc\x81",     "\xef\xbc\x9f",     "\xef\xbc\xbb", "\xef\xbd\x9b",
					    "\xf0\x9f\x8e\x89", "\xf3\xa0\x80\x81", "\xc2\xbf",     "\xe2\x9e\xa1",
					    "\xf0\x9f\x84\x90", "\xf0\x9f\x80\x84"};
	static const char *const kept[] = {
		"\xc2\xaa",     "\xc2\xb2",     "\xc2\xb3",     "\xc2\xb5",         "\xc2\xb9",     "\xc2\xba",
		"\xc2\xbd",     "\xc3\xa9",     "\xe2\x81\xb4", "\xe2\x84\x83",     "\xe2\x83\x97", "\xe2\x91\xa0",
		"\xe2\x9d\xb6", "\xe2\xb8\xaf", "\xe3\x81\x82", "\xf0\x9f\x84\x80", "\xd0\x94",     "\xf0\x90\x80\x80"};
	for (size_t i = 0; i < sizeof(split) / sizeof(split[0]); i++)
		if (!separates(split[i]))
			fail_msg("'%s' should separate tokens", split[i]);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (separates(kept[i]))
			fail_msg("'%s' should be part of a token", kept[i]);
}

/* Which query words are substrings (CJK, symbols) rather than tokens. */
static void test_text_kind(void **state)
{
	(void)state;
	static const char *const cjk[] = {"\xe2\xba\x80", "\xe3\x81\x82",     "\xea\xb0\x80", "\xef\xa4\x80",
					  "\xef\xbd\xa6", "\xf0\xa0\x80\x80", "\xe2\x80\x94"};
	static const char *const words[] = {"\xd0\x94\xd0\xb0", "caf\xc3\xa9", "x\xf3\xa0\x84\x80"};
	for (size_t i = 0; i < sizeof(cjk) / sizeof(cjk[0]); i++) {
		struct txc_query q = parse(cjk[i], strlen(cjk[i]));
		if (!q.v[0].text_kind)
			fail_msg("'%s' should be a substring", cjk[i]);
		txc_query_free(&q);
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct txc_query q = parse(words[i], strlen(words[i]));
		if (q.v[0].text_kind)
			fail_msg("'%s' should be a word", words[i]);
		txc_query_free(&q);
	}
	/* ASCII punctuation around a substring word is dropped, inside it is kept */
	const char *both = "(\xe6\x9d\xb1\xe4\xba\xac)! --\xe6\x9d\xb1_1%\xe4\xba\xac";
	struct txc_query q = parse(both, strlen(both));
	assert_int_equal(q.n, 2);
	assert_string_equal(q.v[0].text, "\xe6\x9d\xb1\xe4\xba\xac");
	assert_true(q.v[1].negated);
	assert_string_equal(q.v[1].text, "\xe6\x9d\xb1_1%\xe4\xba\xac");
	txc_query_free(&q);
}

static void test_items(void **state)
{
	(void)state;
	struct txc_query q = parse("a\rb\fc\vd\te\nf", 11); /* every white space separates items */
	assert_int_equal(q.n, 6);
	txc_query_free(&q);
	q = parse("- retry -", 9); /* a lone '-' is punctuation, not an exclusion */
	assert_int_equal(q.n, 1);
	assert_false(q.v[0].negated);
	txc_query_free(&q);
	q = parse("\"exact phrase\"* loop**", 22);
	assert_int_equal(q.n, 2);
	assert_true(q.v[0].prefix);
	assert_string_equal(q.v[0].text, "exact phrase");
	assert_true(q.v[1].prefix);
	assert_string_equal(q.v[1].text, "loop");
	txc_query_free(&q);
	expect_fts("abc-caf\xc3\xa9-def", "\"abc\" AND \"def\""); /* the non-ASCII token splits the phrase */
	expect_fts("\"exact phrase\"* retry", "\"exact phrase\"* AND \"retry\"");
	assert_false(matches("chat-send", "say chat")); /* the text ends after the first token */
	assert_true(matches("\"exact phrase\"*", "an exact phrases"));
	assert_false(matches("\"exact phrase\"", "an exact phrases"));
	/* a phrase holding NUL cannot be a trigram phrase */
	struct txc_query t = parse("\"\xe6\x9d\xb1\xe4\xba\xac\0\xe3\x82\xbf\"", 12);
	assert_null(txc_query_trigram(&t));
	txc_query_free(&t);
	assert_true(txc_query_is_message_role(txc_str_c("tool")));
	assert_false(txc_query_is_message_role(txc_str_c("system")));
	assert_false(txc_query_is_message_role(TXC_STR_NULL));
}

static void test_snippet_marks(void **state)
{
	(void)state;
	struct txc_snippet s;
	struct txc_buf t = TXC_BUF_INIT;
	for (int i = 0; i < 30; i++)
		txc_buf_addstr(&t, "word ");
	struct txc_query q = parse("word", 4);
	txc_query_snippet(&q, t.buf, t.len, 1000, &s); /* more matches than marks: the first 16 */
	assert_int_equal(s.n, TXC_SNIP_MARKS);
	assert_int_equal(s.mark[15][0], 75);
	assert_false(s.cut_left || s.cut_right);
	txc_query_free(&q);
	txc_buf_release(&t);

	const char *text = "retry loop again";
	q = parse("loop retry \"retry loop\" again", 29); /* marks kept in order; overlapping ones dropped */
	txc_query_snippet(&q, text, strlen(text), 1000, &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.mark[0][0], 0);
	assert_int_equal(s.mark[0][1], 5);
	assert_int_equal(s.mark[1][0], 6);
	assert_int_equal(s.mark[1][1], 10);
	assert_int_equal(s.mark[2][0], 11);
	txc_query_free(&q);
	q = parse("\"retry loop\" loop", 17);
	txc_query_snippet(&q, text, strlen(text), 1000, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.mark[0][1], 10);
	txc_query_free(&q);
	q = parse("loop \"retry loop\"", 17);
	txc_query_snippet(&q, text, strlen(text), 1000, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.mark[0][0], 6);
	txc_query_free(&q);

	q = parse("again", 5); /* a match the window's end cuts: marked up to the end */
	txc_query_snippet(&q, text, strlen(text), 13, &s);
	assert_int_equal(s.start, 8);
	assert_int_equal(s.end, 16);
	txc_query_snippet(&q, text, strlen(text), 4, &s);
	assert_int_equal(s.start, 10);
	assert_int_equal(s.end, 14);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.mark[0][0], 11);
	assert_int_equal(s.mark[0][1], 14);
	assert_true(s.cut_left && s.cut_right);
	txc_query_free(&q);

	q = parse("nothing", 7); /* no match in this column: the text's start */
	txc_query_snippet(&q, text, strlen(text), 8, &s);
	assert_int_equal(s.start, 0);
	assert_int_equal(s.end, 8);
	assert_int_equal(s.n, 0);
	txc_query_free(&q);

	q = parse("\xf0\x9f\x98\x80", 4); /* the window would end at the match: it runs to the text's end */
	const char *emoji = "abcde\xf0\x9f\x8e\x89x\xf0\x9f\x98\x80";
	txc_query_snippet(&q, emoji, strlen(emoji), 8, &s);
	assert_int_equal(s.start, 5);
	assert_int_equal(s.end, 14);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.mark[0][0], 10);
	assert_true(s.cut_left && !s.cut_right);
	txc_query_snippet(&q, "", 0, 8, &s); /* an empty text: an empty window */
	assert_int_equal(s.start, 0);
	assert_int_equal(s.end, 0);
	assert_int_equal(s.n, 0);
	txc_query_free(&q);

	/* a window narrower than one character: empty, at a character boundary, never inside one */
	const char *cjk = "xx\xe6\x9d\xb1\xe4\xba\xac";
	q = parse("\xe6\x9d\xb1\xe4\xba\xac", 6);
	txc_query_snippet(&q, cjk, strlen(cjk), 2, &s);
	assert_int_equal(s.start, 2);
	assert_int_equal(s.end, 2);
	assert_int_equal(s.n, 0);
	assert_true(s.cut_left && s.cut_right);
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
		cmocka_unit_test(test_separators),
		cmocka_unit_test(test_text_kind),
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_snippet_marks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
