/*
 * test_claude.c - the Claude Code reader alone: the mapping (model_claude.c:
 * turns merged by message.id, usage once per turn, results named by their
 * call, compaction, one message per result, rows for Hermes's writer with
 * Hermes's tool names, unknown records kept, bad lines) and the backend
 * (claude_code.c: a projects folder in a temporary directory, subagents,
 * repeated file names, a missing folder).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "txc/model_claude.h"
#include "txc/model_hermes.h"
#include "txc/reader.h"

static void test_time(void **state)
{
	(void)state;
	double t;
	assert_true(txc_claude_time("2026-01-02T03:04:05.250Z", 24, &t));
	assert_true(t == 1767323045.25);
	assert_true(txc_claude_time("2026-01-02T04:04:05+01:00", 25, &t));
	assert_true(t == 1767323045.0);
	assert_true(txc_claude_time("1970-01-01T00:00:00", 19, &t) && t == 0);
	assert_false(txc_claude_time("2026-13-02T03:04:05Z", 20, &t));
	assert_false(txc_claude_time("2026-01-02T03:04:05Zjunk", 24, &t));
	assert_false(txc_claude_time("2026-01-02", 10, &t));
}

static const char *const lines[] = {
	"{\"type\":\"user\",\"sessionId\":\"S\",\"cwd\":\"/w\",\"timestamp\":\"2026-01-01T00:00:01Z\","
	"\"message\":{\"role\":\"user\",\"content\":\"hi\"}}",
	"{\"type\":\"assistant\",\"timestamp\":\"2026-01-01T00:00:02Z\",\"message\":{\"id\":\"m1\",\"model\":\"claude-x\","
	"\"content\":[{\"type\":\"thinking\",\"thinking\":\"hmm\",\"signature\":\"SIG\"}],"
	"\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"m1\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":"
	"\"Read\",\"input\":{\"file_path\":\"/w/a\"}},{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"Bash\","
	"\"input\":{\"command\":\"ls\",\"timeout_ms\":5000}}],\"stop_reason\":\"tool_use\","
	"\"usage\":{\"input_tokens\":10,\"output_tokens\":7}},\"costUSD\":0.5}",
	"{\"type\":\"user\",\"toolUseResult\":{\"k\":1},\"message\":{\"role\":\"user\",\"content\":["
	"{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"text\"},"
	"{\"type\":\"tool_result\",\"tool_use_id\":\"t2\",\"content\":\"boom\",\"is_error\":true}]}}",
	"{\"type\":\"system\",\"subtype\":\"compact_boundary\"}",
	"{\"type\":\"weird\",\"x\":[1,2]}",
	"",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"m2\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}",
	"{\"type\":\"custom-title\",\"customTitle\":\"T\"}",
	"{\"type\":\"summary\",\"summary\":\"not the title\"}",
	"[1]",
	"{\"type\":\"user\",\"message\":{\"content\":\"cut",
};

static struct txc_transcript *build(bool rows)
{
	struct txc_transcript *t = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(t, rows);
	int want[] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, -1, -1};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(txc_claude_add_line(b, lines[i], strlen(lines[i])), want[i]);
	double last;
	txc_claude_end(b, &last);
	assert_true(last == 1767225602.0);
	return t;
}

static void test_mapping(void **state)
{
	(void)state;
	struct txc_transcript *t = build(false);
	assert_null(t->native);
	assert_int_equal(t->n_messages, 5); /* hi, the merged turn, two results, done */
	const struct txc_message *a = &t->messages[1];
	assert_int_equal(a->n_blocks, 3);
	assert_int_equal(a->blocks[0].kind, TXC_BLOCK_THINKING);
	assert_true(txc_str_eq(a->blocks[0].signature, "SIG"));
	assert_true(txc_str_eq(a->blocks[1].name, "Read") && a->blocks[1].tool == TXC_TOOL_READ);
	assert_true(txc_str_eq(a->blocks[1].source_name, "read_file"));
	assert_int_equal(a->stop, TXC_STOP_TOOL_USE);
	assert_true(txc_str_eq(a->model, "claude-x"));
	for (int i = 2; i < 4; i++) {
		assert_int_equal(t->messages[i].n_blocks, 1);
		assert_int_equal(t->messages[i].blocks[0].kind, TXC_BLOCK_TOOL_RESULT);
	}
	assert_true(txc_str_eq(t->messages[2].blocks[0].name, "read_file"));
	assert_false(t->messages[2].blocks[0].is_error);
	assert_true(t->messages[3].blocks[0].is_error);
	for (int i = 0; i < 4; i++)
		assert_true(t->messages[i].compacted);
	assert_false(t->messages[4].compacted);
	assert_true(txc_str_eq(t->meta.title, "T"));
	assert_true(txc_str_eq(t->meta.cwd, "/w") && txc_str_eq(t->meta.id, "S"));
	assert_int_equal(t->meta.input_tokens, 10); /* the turn's usage once, its last record's */
	assert_int_equal(t->meta.output_tokens, 7);
	assert_true(t->meta.has_cost && !t->meta.cost_is_actual && t->meta.cost_usd == 0.5);
	assert_int_equal(t->meta.tool_call_count, 2);
	txc_transcript_free(t);
}

static const struct txc_json *row_with(const struct txc_json *rows, const char *role, size_t nth)
{
	for (size_t i = 0; i < rows->n; i++)
		if (strcmp(txc_json_cstr(txc_json_get(rows->items[i], "role")), role) == 0 && nth-- == 0)
			return rows->items[i];
	return NULL;
}

static void test_rows(void **state)
{
	(void)state;
	struct txc_transcript *t = build(true);
	const struct txc_json *rows = t->native->rows;
	struct txc_buf b = TXC_BUF_INIT;
	const struct txc_json *a = row_with(rows, "assistant", 0);
	assert_non_null(a);
	txc_json_emit(&b, txc_json_get(a, "tool_calls"), 0);
	assert_non_null(strstr(b.buf, "\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\": \\\"/w/a\\\"}\""));
	assert_non_null(strstr(b.buf, "\"name\":\"terminal\",\"arguments\":\"{\\\"command\\\": \\\"ls\\\", "
				      "\\\"timeout\\\": 5}\""));
	assert_string_equal(txc_json_cstr(txc_json_get(a, "reasoning")), "hmm");
	txc_buf_reset(&b);
	txc_json_emit(&b, txc_json_get(a, "claude"), 0);
	assert_non_null(strstr(b.buf, "\"signature\":\"SIG\""));
	assert_non_null(strstr(b.buf, "\"costUSD\":0.5"));
	assert_string_equal(txc_json_cstr(txc_json_get(row_with(rows, "tool", 1), "tool_name")), "terminal");
	txc_buf_reset(&b);
	txc_json_emit(&b, txc_json_get(row_with(rows, "tool", 0), "claude"), 0);
	assert_string_equal(b.buf, "{\"toolUseResult\":{\"k\":1}}");
	assert_non_null(row_with(rows, "claude:weird", 0));
	assert_non_null(row_with(rows, "claude:system", 0));
	assert_int_equal(txc_json_get(a, "active")->s.ptr[0], '0'); /* compacted */
	assert_string_equal(txc_json_cstr(txc_json_get(t->native->session, "source")), "claude-code");
	txc_buf_release(&b);
	txc_transcript_free(t);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_backend(void **state)
{
	(void)state;
	char root[] = "/tmp/txc-claude-XXXXXX", p[512];
	assert_non_null(mkdtemp(root));
	struct txc_store *s;
	struct txc_diag d = {0};
	snprintf(p, sizeof(p), "%s/projects", root);
	assert_int_equal(txc_store_open_claude(&s, p, &d), TXC_E_NOTFOUND);
	const char *dirs[] = {"projects", "projects/-a", "projects/-b", "projects/-a/u1", "projects/-a/u1/subagents"};
	for (size_t i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(p, 0700), 0);
	}
	static const char one[] = "{\"type\":\"user\",\"timestamp\":\"2026-01-01T00:00:01Z\",\"message\":{\"content\":"
				  "\"x\"}}\n";
	const char *files[] = {"-a/u1.jsonl", "-b/u1.jsonl", "-a/u1/subagents/agent-a9.jsonl"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/projects/%s", root, files[i]);
		put(p, one);
	}
	snprintf(p, sizeof(p), "%s/projects", root);
	assert_int_equal(txc_store_open_claude(&s, p, &d), TXC_OK);
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	assert_int_equal(txc_store_sessions(s, 0, a, &v, &n, &d), TXC_OK);
	assert_int_equal(n, 3);
	int seen = 0;
	for (size_t i = 0; i < n; i++) {
		seen |= txc_str_eq(v[i].sid.text, "u1") ? 1 : txc_str_eq(v[i].sid.text, "u1~2") ? 2 : 0;
		seen |= txc_str_eq(v[i].sid.text, "agent-a9") && txc_str_eq(v[i].source, "subagent") ? 4 : 0;
		assert_true(txc_str_eq(v[i].n_messages, "1"));
	}
	assert_int_equal(seen, 7);
	struct txc_sid id;
	assert_int_equal(txc_store_resolve(s, "u1~", &id, &d), TXC_OK);
	struct txc_transcript *t;
	assert_int_equal(txc_store_load(s, &id, TXC_LOAD_MODEL_ONLY, &t, &d), TXC_OK);
	assert_true(txc_str_eq(t->meta.cwd, "/b")); /* no cwd in the records: the folder's */
	assert_true(txc_str_eq(t->meta.id, "u1~2"));
	txc_transcript_free(t);
	txc_sid_release(&id);
	assert_int_equal(txc_store_resolve(s, "nope", &id, &d), TXC_E_NOTFOUND);
	txc_arena_free(a);
	txc_store_close(s);
	char rm[600];
	snprintf(rm, sizeof(rm), "rm -rf '%s'", root);
	assert_int_equal(system(rm), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_backend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
