/* test_reasoning.c - signed reasoning: Anthropic thinking signatures kept byte for byte, unsigned as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "txc/model_hermes.h"

/* one assistant row with these reasoning columns (JSON member text, may be empty) */
static struct txc_transcript *load(const char *members)
{
	char rows[4096];
	snprintf(rows, sizeof(rows), "[{\"id\":1,\"role\":\"assistant\",\"content\":\"answer\"%s%s}]",
		 *members ? "," : "", members);
	struct txc_transcript *t = txc_transcript_new();
	const struct txc_json *s, *r;
	assert_int_equal(txc_json_parse(t->arena, "{\"id\":\"s\"}", 10, &s), 0);
	assert_int_equal(txc_json_parse(t->arena, rows, strlen(rows), &r), 0);
	txc_hermes_native(t)->session = s;
	txc_hermes_native(t)->rows = r;
	txc_model_from_hermes(t);
	assert_int_equal(t->n_messages, 1);
	return t;
}

static bool str_is(struct txc_str s, const char *want)
{
	return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

static void test_native_signed(void **state)
{
	(void)state;
	/* as Hermes stores it: a JSON string, ASCII-escaped; reasoning doubled by Hermes's extractor */
	struct txc_transcript *t = load(
		"\"reasoning\":\"T1\\n\\nT2\\n\\nT1\\n\\nT2\",\"reasoning_details\":\"[{\\\"type\\\": \\\"thinking\\\", "
		"\\\"thinking\\\": \\\"T1 \\\\u00e9\\\", \\\"signature\\\": \\\"S1+/=\\\"}, {\\\"type\\\": \\\"redacted_thinking\\\", "
		"\\\"data\\\": \\\"D1\\\"}, {\\\"type\\\": \\\"thinking\\\", \\\"thinking\\\": \\\"T2\\\", \\\"signature\\\": "
		"\\\"S2\\\"}]\"");
	const struct txc_message *m = &t->messages[0];
	assert_int_equal(m->n_blocks, 4);
	assert_int_equal(m->blocks[0].kind, TXC_BLOCK_THINKING);
	assert_true(str_is(m->blocks[0].text, "T1 \xc3\xa9") && str_is(m->blocks[0].signature, "S1+/="));
	assert_true(m->blocks[1].redacted && str_is(m->blocks[1].encrypted, "D1") && m->blocks[1].text.len == 0);
	assert_true(str_is(m->blocks[2].text, "T2") && str_is(m->blocks[2].signature, "S2"));
	assert_true(m->blocks[3].kind == TXC_BLOCK_TEXT && str_is(m->blocks[3].text, "answer"));
	txc_transcript_free(t);
}

static void test_openrouter(void **state)
{
	(void)state;
	/* decoded already (a source that gives JSON): an Anthropic format signs, another does not */
	struct txc_transcript *t = load(
		"\"reasoning\":\"R\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"R\",\"signature\":\"SIG\","
		"\"format\":\"anthropic-claude-v1\",\"index\":0},{\"type\":\"reasoning.encrypted\",\"data\":\"ENC\","
		"\"format\":\"anthropic-claude-v1\"},{\"type\":\"reasoning.summary\",\"summary\":\"x\"}]");
	const struct txc_message *m = &t->messages[0];
	assert_int_equal(m->n_blocks, 3);
	assert_true(str_is(m->blocks[0].text, "R") && str_is(m->blocks[0].signature, "SIG"));
	assert_true(m->blocks[1].redacted && str_is(m->blocks[1].encrypted, "ENC"));
	txc_transcript_free(t);
}

static void test_unsigned_as_before(void **state)
{
	(void)state;
	static const char *const cases[] = {
		/* a signature from a provider that is not Anthropic */
		"\"reasoning\":\"R\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"R\",\"signature\":\"S\","
		"\"format\":\"openai-responses-v1\"}]",
		/* thinking without a signature, an empty one, details that are not JSON */
		"\"reasoning\":\"R\",\"reasoning_details\":[{\"type\":\"thinking\",\"thinking\":\"R\"}]",
		"\"reasoning\":\"R\",\"reasoning_details\":[{\"type\":\"thinking\",\"thinking\":\"R\",\"signature\":\"\"}]",
		"\"reasoning\":\"R\",\"reasoning_details\":\"[{not json\"",
		"\"reasoning\":\"R\"",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct txc_transcript *t = load(cases[i]);
		const struct txc_message *m = &t->messages[0];
		assert_int_equal(m->n_blocks, 2);
		assert_true(m->blocks[0].kind == TXC_BLOCK_THINKING && str_is(m->blocks[0].text, "R"));
		assert_true(m->blocks[0].signature.len == 0 && !m->blocks[0].redacted);
		txc_transcript_free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_native_signed),
		cmocka_unit_test(test_openrouter),
		cmocka_unit_test(test_unsigned_as_before),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
