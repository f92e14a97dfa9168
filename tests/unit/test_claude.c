/*
 * test_claude.c - the Claude Code reader alone: the mapping (model_claude.c:
 * turns merged by message.id, usage once per turn, results named by their
 * call, compaction, one message per result, no rows of its own: Hermes's
 * writer makes them from the model, with Hermes's tool names and keys; bad
 * lines) and the backend
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
#include <uuid/uuid.h>

#include "txc/harness.h"
#include "txc/model_claude.h"
#include "txc/model_hermes.h"
#include "txc/reader.h"
#include "txc/writer.h"
#include "txc/writer_claude.h"

#include "hermes_rows.h" /* src/writer: the rows the Hermes writer makes of a model */

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

static struct txc_transcript *build(void)
{
	struct txc_transcript *t = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(t);
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
	struct txc_transcript *t = build();
	assert_null(t->native);             /* the model only: rows are the Hermes writer's */
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

static char *emitted(const struct txc_json *v)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_json_emit(&b, v, 0);
	return txc_buf_detach(&b, NULL);
}

static void assert_json(const struct txc_json *v, const char *want)
{
	char *s = emitted(v);
	assert_string_equal(s, want);
	free(s);
}

/* the Hermes writer's export object of t (its rows made from the model: hermes_rows.c), in arena a */
static const struct txc_json *hermes_of(struct txc_arena *a, const struct txc_transcript *t)
{
	struct txc_out out;
	struct txc_diag d = {0};
	struct txc_write_opts o = {0};
	const struct txc_json *v;
	txc_out_init_buf(&out);
	assert_int_equal(txc_writer_lookup("hermes")->write(&out, t, &o, &d), TXC_OK);
	assert_int_equal(txc_json_parse(a, out.buf.buf, out.buf.len, &v), 0);
	txc_out_release(&out);
	return v;
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
	/* lines without the compact_boundary (the writer leaves compacted rows out, as Hermes does) */
	struct txc_transcript *t = txc_transcript_new();
	struct txc_claude_builder *cb = txc_claude_begin(t);
	for (size_t i = 0; i < 10; i++)
		if (i != 4)
			txc_claude_add_line(cb, lines[i], strlen(lines[i]));
	txc_claude_end(cb, NULL);
	struct txc_arena *ar = txc_arena_new(0);
	const struct txc_json *o = hermes_of(ar, t), *rows = txc_json_get(o, "messages");
	struct txc_buf b = TXC_BUF_INIT;
	const struct txc_json *a = row_with(rows, "assistant", 0);
	assert_non_null(a);
	txc_json_emit(&b, txc_json_get(a, "tool_calls"), 0);
	assert_non_null(strstr(b.buf, "\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\": \\\"/w/a\\\"}\""));
	assert_non_null(strstr(b.buf, "\"name\":\"terminal\",\"arguments\":\"{\\\"command\\\": \\\"ls\\\", "
				      "\\\"timeout\\\": 5}\""));
	assert_string_equal(txc_json_cstr(txc_json_get(a, "reasoning")), "hmm");
	assert_null(txc_json_get(a, "claude")); /* Hermes's columns only, as Hermes's exporter writes */
	assert_string_equal(txc_json_cstr(txc_json_get(row_with(rows, "tool", 0), "tool_name")), "read_file");
	assert_string_equal(txc_json_cstr(txc_json_get(row_with(rows, "tool", 1), "tool_name")), "terminal");
	assert_int_equal(rows->n, 5); /* the weird and system records make no row */
	assert_json(txc_json_get(o, "estimated_cost_usd"), "0.5");
	txc_buf_release(&b);
	txc_arena_free(ar);
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
	assert_int_equal(txc_store_open_kind(&s, "claude", p, &d), TXC_E_NOTFOUND);
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
	assert_int_equal(txc_store_open_kind(&s, "claude", p, &d), TXC_OK);
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
	assert_true(txc_str_eq(t->meta.source, "claude-code")); /* as the listing says (Hermes's "source") */
	txc_transcript_free(t);
	txc_sid_release(&id);
	assert_int_equal(txc_store_resolve(s, "nope", &id, &d), TXC_E_NOTFOUND);
	txc_arena_free(a);
	txc_store_close(s);
	char rm[600];
	snprintf(rm, sizeof(rm), "rm -rf '%s'", root);
	assert_int_equal(system(rm), 0);
}

/* ---- odd records (coverage of the mapping's every branch, each asserted) ---- */

static void test_time_edges(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"20",                 /* shorter than the year */
		"2026-01-02T03:04:0", /* shorter than a time */
		"2026/01-02T03:04:05",
		"2026-0!-02T03:04:05",
		"2026-0a-02T03:04:05",
		"2026-01/02T03:04:05",
		"2026-01-0xT03:04:05",
		"2026-01-02X03:04:05",
		"2026-01-02T0x:04:05",
		"2026-01-02T03-04:05",
		"2026-01-02T03:0x:05",
		"2026-01-02T03:04-05",
		"2026-01-02T03:04:0x",
		"2026-00-02T03:04:05",
		"2026-01-00T03:04:05",
		"2026-01-32T03:04:05",
		"2026-01-02T24:04:05",
		"2026-01-02T03:60:05",
		"2026-01-02T03:04:61",
		"2026-01-02T03:04:05+0x:00",
		"2026-01-02T03:04:05+01",
		"2026-01-02T03:04:05+01-00",
		"2026-01-02T03:04:05+01:0x",
		"2026-01-02T03:04:05x",
		"2026-01-02T03:04:05.5x",
	};
	double t = -1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (txc_claude_time(bad[i], strlen(bad[i]), &t))
			fail_msg("'%s' taken for a time", bad[i]);
		assert_true(t == -1); /* untouched */
	}
	assert_true(txc_claude_time("2026-01-02 03:04:05", 19, &t) && t == 1767323045.0);
	assert_true(txc_claude_time("2026-01-02T03:04:60Z", 20, &t) && t == 1767323100.0); /* a leap second */
	assert_true(txc_claude_time("2026-01-02T03:04:05.Z", 21, &t) && t == 1767323045.0);
	assert_true(txc_claude_time("2026-01-02T03:04:05.", 20, &t) && t == 1767323045.0);
	assert_true(txc_claude_time("2026-01-02T03:04:05-05:30", 25, &t) && t == 1767342845.0);
	assert_true(txc_claude_time("2026-01-02T03:04:05.5+01:00", 27, &t) && t == 1767319445.5);
}

static int feed(struct txc_claude_builder *b, const char *line)
{
	return txc_claude_add_line(b, line, strlen(line));
}

/* the lines, each a record the builder takes (0), into a new transcript */
static struct txc_transcript *load(const char *const *ls, size_t n, double *last)
{
	struct txc_transcript *t = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(t);
	for (size_t i = 0; i < n; i++)
		if (feed(b, ls[i]) != 0)
			fail_msg("line %zu not taken: %s", i, ls[i]);
	txc_claude_end(b, last);
	return t;
}

static void assert_text(const struct txc_block *blk, const char *text)
{
	assert_int_equal(blk->kind, TXC_BLOCK_TEXT);
	assert_int_equal(blk->text.len, strlen(text));
	assert_memory_equal(blk->text.ptr, text, blk->text.len);
}

static const char *const user_lines[] = {
	/* nothing to show: blank, empty, missing and null content, a meta record */
	"{\"type\":\"user\",\"sessionId\":\"S2\",\"timestamp\":\"not a time\",\"message\":{\"content\":\" \\t\\r\\n\"}}",
	"{\"type\":\"user\",\"timestamp\":\"\",\"message\":{\"content\":\"\"}}",
	"{\"type\":\"user\",\"message\":{}}",
	"{\"type\":\"user\",\"message\":{\"content\":null}}",
	"{\"type\":\"user\",\"isMeta\":true,\"message\":{\"content\":\"meta\"}}",
	/* content that is neither text nor a list */
	"{\"type\":\"user\",\"timestamp\":\"2026-01-01T00:00:10Z\",\"message\":{\"content\":42}}",
	/* every kind of item a user record may hold */
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":7},\"plain\","
	"{\"type\":\"text\",\"text\":\"\"},{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"data\":\"\"}},"
	"{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"u\"}},"
	"{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"data\":\"AAAA\"}},{\"type\":\"document\"},"
	"{\"type\":\"text\",\"text\":\"<command-name>/clear</command-name>\"},"
	"{\"type\":\"text\",\"text\":\"<command-name></command-name><local-command-stdout>Set</local-command-stdout>\"},"
	"{\"type\":\"text\",\"text\":\"<b>bold</b>\"},{\"type\":\"text\",\"text\":\"<command-name>cut\"}]}}",
};

static void test_user_records(void **state)
{
	(void)state;
	double last;
	struct txc_transcript *t = load(user_lines, sizeof(user_lines) / sizeof(user_lines[0]), &last);
	assert_true(last == 1767225610.0);
	assert_true(t->meta.started_at == 1767225610.0);
	assert_true(txc_str_eq(t->meta.id, "S2"));
	assert_null(t->meta.title.ptr);
	assert_int_equal(t->n_messages, 2);
	const struct txc_message *m = &t->messages[0];
	assert_int_equal(m->role, TXC_ROLE_USER);
	assert_true(m->time == 1767225610.0);
	assert_int_equal(m->n_blocks, 1);
	assert_text(&m->blocks[0], "[unknown block] 42");
	m = &t->messages[1];
	assert_true(m->time == 1767225610.0); /* no timestamp: the previous record's */
	assert_int_equal(m->n_blocks, 10);
	assert_text(&m->blocks[0], "[text block] {\"type\":\"text\",\"text\":7}");
	assert_text(&m->blocks[1], "plain");
	assert_text(&m->blocks[2], "[image block] {\"type\":\"image\",\"source\":{\"type\":\"base64\",\"data\":\"\"}}");
	assert_text(&m->blocks[3], "[image block] {\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"u\"}}");
	assert_int_equal(m->blocks[4].kind, TXC_BLOCK_IMAGE);
	assert_true(txc_str_eq(m->blocks[4].media_type, "") && txc_str_eq(m->blocks[4].data, "AAAA"));
	assert_text(&m->blocks[5], "[document block] {\"type\":\"document\"}");
	assert_text(&m->blocks[6], "/clear");
	assert_text(&m->blocks[7], "Set");
	assert_text(&m->blocks[8], "<b>bold</b>");
	assert_text(&m->blocks[9], "<command-name>cut");
	assert_false(t->meta.has_usage || t->meta.has_cost);
	txc_transcript_free(t);
}

static const char *const assistant_lines[] = {
	"{\"type\":\"assistant\",\"message\":{\"id\":\"A0\",\"content\":\"  \"}}",
	"{\"type\":\"assistant\",\"timestamp\":\"2026-01-01T00:00:05Z\",\"message\":{\"id\":\"A1\",\"model\":"
	"\"<synthetic>\",\"content\":\"plain answer\",\"stop_reason\":\"pause_turn\",\"usage\":\"n/a\"},"
	"\"costUSD\":\"1\"}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"A2\",\"model\":\"claude-y\",\"content\":[{\"text\":\"no type\"},"
	"{\"type\":\"text\"},{\"type\":\"text\",\"text\":1},{\"type\":\"thinking\"},{\"type\":\"thinking\",\"thinking\":5},"
	"{\"type\":\"thinking\",\"thinking\":\"plain thought\"},{\"type\":\"redacted_thinking\",\"data\":\"ENC\"},"
	"{\"type\":\"tool_use\",\"id\":\"t9\"},{\"type\":\"tool_use\",\"name\":\"Read\",\"input\":\"/x\"},"
	"{\"type\":\"tool_use\",\"id\":5,\"name\":\"Bash\"},{\"type\":\"tool_use\",\"id\":\"\",\"name\":\"Grep\","
	"\"input\":{}},{\"type\":\"server_tool_use\",\"id\":\"s\"}],\"stop_reason\":\"max_tokens\","
	"\"usage\":{\"output_tokens\":4}},\"costUSD\":1e999}",
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\"},"
	"{\"type\":\"tool_result\",\"tool_use_id\":\"\",\"content\":null},"
	"{\"type\":\"tool_result\",\"tool_use_id\":7,\"content\":\"{\\\"a\\\":1}\"},"
	"{\"type\":\"tool_result\",\"tool_use_id\":\"t9\",\"content\":\"42\"},"
	"{\"type\":\"tool_result\",\"tool_use_id\":\"zz\",\"content\":[{\"type\":\"text\",\"text\":\"arr\"}],"
	"\"is_error\":false},{\"type\":\"tool_result\",\"tool_use_id\":\"zz\",\"is_error\":true,"
	"\"content\":\"[no result was recorded for this call]\"},"
	"{\"type\":\"tool_result\",\"tool_use_id\":\"q\",\"content\":\"[1,2]\",\"is_error\":\"yes\"}]}}",
};

static void test_assistant_records(void **state)
{
	(void)state;
	struct txc_transcript *t = load(assistant_lines, sizeof(assistant_lines) / sizeof(assistant_lines[0]), NULL);
	assert_int_equal(t->n_messages, 8); /* A1, A2, six results (the placeholder is none) */
	const struct txc_message *m = &t->messages[0];
	assert_int_equal(m->role, TXC_ROLE_ASSISTANT);
	assert_int_equal(m->n_blocks, 1);
	assert_text(&m->blocks[0], "plain answer");
	assert_true(txc_str_eq(m->model, "<synthetic>"));
	assert_int_equal(m->stop, TXC_STOP_OTHER);
	assert_true(txc_str_eq(m->stop_other, "pause_turn"));
	assert_true(txc_str_eq(t->meta.model, "claude-y")); /* not the synthetic one */
	m = &t->messages[1];
	assert_int_equal(m->stop, TXC_STOP_MAX_TOKENS);
	assert_null(m->stop_other.ptr);
	assert_int_equal(m->n_blocks, 12);
	assert_text(&m->blocks[0], "[unknown block] {\"text\":\"no type\"}");
	assert_text(&m->blocks[1], "[text block] {\"type\":\"text\"}");
	assert_text(&m->blocks[2], "[text block] {\"type\":\"text\",\"text\":1}");
	assert_text(&m->blocks[3], "[thinking block] {\"type\":\"thinking\"}");
	assert_text(&m->blocks[4], "[thinking block] {\"type\":\"thinking\",\"thinking\":5}");
	assert_int_equal(m->blocks[5].kind, TXC_BLOCK_THINKING);
	assert_true(txc_str_eq(m->blocks[5].text, "plain thought"));
	assert_null(m->blocks[5].signature.ptr);
	assert_false(m->blocks[5].redacted);
	assert_int_equal(m->blocks[6].kind, TXC_BLOCK_THINKING);
	assert_true(txc_str_eq(m->blocks[6].text, "") && txc_str_eq(m->blocks[6].encrypted, "ENC"));
	assert_true(m->blocks[6].redacted); /* the writers keep it as Anthropic's */
	assert_text(&m->blocks[7], "[tool_use block] {\"type\":\"tool_use\",\"id\":\"t9\"}");
	for (int i = 8; i < 11; i++) {
		assert_int_equal(m->blocks[i].kind, TXC_BLOCK_TOOL_USE);
		assert_true(txc_str_eq(m->blocks[i].id, ""));
	}
	assert_true(txc_str_eq(m->blocks[8].source_name, "read_file"));
	assert_true(txc_str_eq(m->blocks[9].source_name, "terminal"));
	assert_int_equal(m->blocks[9].input->kind, TXC_JSON_OBJECT); /* no input: {} */
	assert_true(txc_str_eq(m->blocks[10].source_name, "Grep"));
	assert_text(&m->blocks[11], "[server_tool_use block] {\"type\":\"server_tool_use\",\"id\":\"s\"}");
	/* the results, one message each; an id-less one named by the latest id-less call */
	static const char *const ids[] = {"", "", "", "t9", "zz", "q"};
	for (int i = 0; i < 6; i++) {
		m = &t->messages[2 + i];
		assert_int_equal(m->role, TXC_ROLE_USER);
		assert_int_equal(m->n_blocks, 1);
		assert_int_equal(m->blocks[0].kind, TXC_BLOCK_TOOL_RESULT);
		assert_true(txc_str_eq(m->blocks[0].id, ids[i]));
		assert_false(m->blocks[0].is_error);
	}
	const struct txc_block *r = t->messages[2].blocks;
	assert_true(txc_str_eq(r->name, "Grep") && txc_str_eq(r->output_text, "") && r->output == NULL);
	assert_true(txc_str_eq(t->messages[3].blocks[0].output_text, ""));
	r = t->messages[4].blocks;
	assert_true(txc_str_eq(r->output_text, "{\"a\":1}") && r->output_json);
	r = t->messages[5].blocks;
	assert_true(txc_str_eq(r->output_text, "42") && !r->output_json);
	assert_null(r->name.ptr); /* t9 was no call */
	r = t->messages[6].blocks;
	assert_non_null(r->output);
	assert_int_equal(r->output->kind, TXC_JSON_ARRAY);
	r = t->messages[7].blocks;
	assert_true(txc_str_eq(r->output_text, "[1,2]") && r->output_json); /* is_error "yes": not true */
	assert_int_equal(t->meta.output_tokens, 4);
	assert_true(t->meta.has_usage);
	assert_false(t->meta.has_cost); /* "1" and 1e999 are no cost */
	assert_int_equal(t->meta.tool_call_count, 3);
	txc_transcript_free(t);
}

static const char *const turn_lines[] = {
	"{\"type\":\"summary\",\"summary\":\"first\"}",
	"{\"type\":\"summary\",\"summary\":\"second\"}",
	"{\"type\":\"summary\"}",
	"{\"type\":\"custom-title\"}",
	"{\"type\":\"system\",\"subtype\":\"info\",\"timestamp\":\"2026-01-01T00:00:00Z\"}",
	"{\"type\":\"system\",\"timestamp\":\"junk\"}",
	"{\"x\":1}",
	"{\"type\":\"assistant\",\"timestamp\":\"2026-01-01T00:00:01Z\",\"foo\":1,\"message\":{\"id\":\"M\","
	"\"content\":[{\"type\":\"thinking\",\"thinking\":\"a\",\"signature\":\"S1\"},{\"type\":\"thinking\","
	"\"thinking\":\"b\"}],\"stop_reason\":\"stop_sequence\"}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"E\",\"content\":[]}}",
	"{\"type\":\"assistant\",\"foo\":2,\"bar\":3,\"message\":{\"id\":\"M\",\"content\":[{\"type\":\"text\",\"text\":"
	"\"two\"},{\"type\":\"tool_use\",\"id\":\"b1\",\"name\":\"Bash\",\"input\":{\"command\":\"x\",\"timeout_ms\":"
	"\"5\",\"run_in_background\":true}},{\"type\":\"tool_use\",\"id\":\"b2\",\"name\":\"Bash\",\"input\":{"
	"\"command\":\"y\",\"timeout_ms\":-1000}},{\"type\":\"tool_use\",\"id\":\"b3\",\"name\":\"Bash\",\"input\":{"
	"\"command\":\"z\",\"timeout_ms\":1500}},{\"type\":\"tool_use\",\"id\":\"r1\",\"name\":\"Read\",\"input\":[1]}],"
	"\"stop_reason\":\"error\"}}",
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"base64\","
	"\"media_type\":\"image/png\",\"data\":\"AAAA\"}}]}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"K\",\"content\":\"k1\",\"stop_reason\":\"pause_turn\"}}",
	"{\"type\":\"system\",\"subtype\":\"compact_boundary\"}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"K\",\"content\":\"k2\"}}",
};

static void test_turns_and_rows(void **state)
{
	(void)state;
	struct txc_transcript *t = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(t);
	for (size_t i = 0; i < sizeof(turn_lines) / sizeof(turn_lines[0]); i++)
		assert_int_equal(feed(b, turn_lines[i]), 0);
	for (int i = 0; i < 17; i++) /* more records than the first room for them */
		assert_int_equal(feed(b, "{\"type\":\"progress\"}"), 0);
	txc_claude_end(b, NULL);
	assert_true(txc_str_eq(t->meta.title, "first")); /* the first summary; no custom title */
	assert_true(txc_str_eq(t->meta.id, ""));
	assert_int_equal(t->n_messages, 4);
	const struct txc_message *m = &t->messages[0];
	assert_int_equal(m->n_blocks, 7); /* one turn across the empty record between */
	assert_true(txc_str_eq(m->blocks[0].signature, "S1") && txc_str_eq(m->blocks[1].text, "b"));
	assert_text(&m->blocks[2], "two");
	assert_int_equal(m->stop, TXC_STOP_ERROR);
	assert_int_equal(t->messages[1].role, TXC_ROLE_USER);
	assert_true(t->messages[2].compacted && !t->messages[3].compacted); /* K twice: two turns */
	assert_text(&t->messages[2].blocks[0], "k1");
	assert_text(&t->messages[3].blocks[0], "k2");
	struct txc_arena *ar = txc_arena_new(0);
	const struct txc_hermes_native *o = txc_hermes_rows_of(ar, t); /* compacted rows too */
	const struct txc_json *rows = o->rows;
	assert_int_equal(rows->n, 4);          /* the records that made no message make no row */
	assert_int_equal(o->n_active_rows, 1); /* M, the image and k1 were compacted */
	const struct txc_json *a = rows->items[0];
	assert_json(txc_json_get(a, "role"), "\"assistant\"");
	assert_json(txc_json_get(a, "content"), "\"two\"");
	assert_json(txc_json_get(a, "reasoning"), "\"a\\n\\nb\"");
	assert_json(txc_json_get(a, "finish_reason"), "\"error\"");
	assert_null(txc_json_get(a, "claude"));
	/* Hermes's keys again where they map exactly (timeout in whole seconds), else as Claude wrote them */
	assert_json(
		txc_json_get(a, "tool_calls"),
		"[{\"id\":\"b1\",\"type\":\"function\",\"function\":{\"name\":\"terminal\",\"arguments\":"
		"\"{\\\"command\\\": \\\"x\\\", \\\"timeout_ms\\\": \\\"5\\\", \\\"background\\\": true}\"}},"
		"{\"id\":\"b2\",\"type\":\"function\",\"function\":{\"name\":\"terminal\",\"arguments\":"
		"\"{\\\"command\\\": \\\"y\\\", \\\"timeout_ms\\\": -1000}\"}},"
		"{\"id\":\"b3\",\"type\":\"function\",\"function\":{\"name\":\"terminal\",\"arguments\":"
		"\"{\\\"command\\\": \\\"z\\\", \\\"timeout_ms\\\": 1500}\"}},"
		"{\"id\":\"r1\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"[1]\"}}]");
	assert_json(txc_json_get(rows->items[1], "content"),
		    "[{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}}]");
	assert_json(txc_json_get(rows->items[2], "active"), "0");
	assert_json(txc_json_get(rows->items[2], "finish_reason"), "\"pause_turn\""); /* as written */
	assert_json(txc_json_get(rows->items[3], "content"), "\"k2\"");
	assert_json(txc_json_get(rows->items[3], "active"), "1");
	assert_json(txc_json_get(o->session, "message_count"), "4");
	assert_json(txc_json_get(o->session, "ended_at"), "null"); /* Claude Code records no end */
	assert_json(o->last_active, "1767225601.0");               /* its newest message */
	txc_arena_free(ar);
	txc_transcript_free(t);
}

/* the session's usage is there when any of its four counts is */
static void test_usage_totals(void **state)
{
	(void)state;
	static const char *const usage[] = {"{\"cache_read_input_tokens\":3}", "{\"cache_creation_input_tokens\":2}",
					    "{\"input_tokens\":0,\"output_tokens\":-5}"};
	for (int i = 0; i < 3; i++) {
		char line[256];
		snprintf(line, sizeof(line),
			 "{\"type\":\"assistant\",\"costUSD\":0.25,\"message\":{\"id\":\"u\",\"content\":\"x\","
			 "\"usage\":%s}}",
			 usage[i]);
		const char *ls[] = {line};
		struct txc_transcript *t = load(ls, 1, NULL);
		assert_int_equal(t->meta.has_usage, i < 2);
		assert_int_equal(t->meta.cache_read_tokens, i == 0 ? 3 : 0);
		assert_int_equal(t->meta.cache_write_tokens, i == 1 ? 2 : 0);
		assert_int_equal(t->meta.output_tokens, 0);
		assert_true(t->meta.has_cost && t->meta.cost_usd == 0.25);
		txc_transcript_free(t);
	}
}

struct warned {
	int skipped, cut;
};

static void on_warn(void *ctx, enum txc_warn w, const char *where, size_t n)
{
	struct warned *x = ctx;
	(void)where;
	if (w == TXC_W_SKIPPED_LINES)
		x->skipped += (int)n;
	else if (w == TXC_W_CUT_LINE)
		x->cut += (int)n;
}

static void path_of(char *p, size_t cap, const char *root, const char *rel)
{
	snprintf(p, cap, "%s/%s", root, rel);
}

/* a guard sink that keeps what it is given (one line each: kind, path) */
static void keep_guard(void *ctx, const char *path, enum txc_guard_kind kind)
{
	struct txc_buf *b = ctx;
	txc_buf_addf(b, "%d %s\n", (int)kind, path);
}

/* the registry: Hermes the default, then Claude Code, then Codex CLI; Claude's locator, guard and opener */
static void test_harness_registry(void **state)
{
	(void)state;
	size_t n;
	const struct txc_harness *const *all = txc_harness_all(&n);
	assert_int_equal(n, 3);
	assert_string_equal(all[0]->name, "hermes");
	assert_ptr_equal(txc_harness_find("claude"), all[1]);
	assert_ptr_equal(txc_harness_find("codex"), all[2]);
	assert_null(txc_harness_find("nonesuch"));
	assert_null(txc_harness_find(NULL));
	struct txc_store *s = (struct txc_store *)1;
	struct txc_diag d = {0};
	assert_int_equal(txc_store_open_kind(&s, "nonesuch", "/nonexistent", &d), TXC_E_USAGE);
	assert_null(s);
	assert_string_equal(d.msg, "no harness 'nonesuch'");
	const struct txc_harness *c = all[1];
	assert_int_equal(c->opts, 0);
	char root[] = "/tmp/txc-claude-XXXXXX", p[512];
	assert_non_null(mkdtemp(root));
	setenv("CLAUDE_CONFIG_DIR", root, 1);
	struct txc_locate l = {0};
	char *where = c->locate(&l, &d);
	path_of(p, sizeof(p), root, "projects");
	assert_string_equal(where, p);
	const char *dirs[] = {"projects", "projects/-w", "projects/-w/s", "projects/-w/s/subagents"};
	for (size_t i = 0; i < 4; i++) {
		path_of(p, sizeof(p), root, dirs[i]);
		assert_int_equal(mkdir(p, 0700), 0);
	}
	path_of(p, sizeof(p), root, "projects/-w/s.jsonl");
	put(p, "{}\n");
	path_of(p, sizeof(p), root, "projects/-w/s/subagents/agent-a.jsonl");
	put(p, "{}\n");
	path_of(p, sizeof(p), root, "projects/-w/notes.txt");
	put(p, "x");
	struct txc_buf got = TXC_BUF_INIT, want = TXC_BUF_INIT;
	struct txc_guard_sink g = {keep_guard, &got};
	c->guard(where, &g);
	txc_buf_addf(&want, "%d %s/-w/s.jsonl\n%d %s/-w/s/subagents/agent-a.jsonl\n%d %s\n", TXC_GUARD_SOURCE, where,
		     TXC_GUARD_SOURCE, where, TXC_GUARD_FOLDER, where);
	assert_string_equal(got.buf, want.buf);
	unsetenv("CLAUDE_CONFIG_DIR");
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	unsetenv("HOME");
	assert_null(c->locate(&l, &d));
	assert_int_equal(d.code, TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "neither CLAUDE_CONFIG_DIR nor HOME"));
	if (home != NULL)
		setenv("HOME", home, 1);
	free(home);
	free(where);
	txc_buf_release(&got);
	txc_buf_release(&want);
}

/* the projects folder itself: missing, not a folder, unreadable as a path, empty */
static void test_backend_folder(void **state)
{
	(void)state;
	char root[] = "/tmp/txc-claude-XXXXXX", p[512];
	assert_non_null(mkdtemp(root));
	struct txc_store *s;
	struct txc_diag d = {0};
	path_of(p, sizeof(p), root, "file");
	put(p, "x");
	assert_int_equal(txc_store_open_kind(&s, "claude", p, &d), TXC_E_USAGE);
	assert_null(s);
	assert_non_null(strstr(d.msg, "is not a folder"));
	path_of(p, sizeof(p), root, "file/projects"); /* a path through a file: missing too */
	assert_int_equal(txc_store_open_kind(&s, "claude", p, &d), TXC_E_NOTFOUND);
	path_of(p, sizeof(p), root, "loop");
	assert_int_equal(symlink(p, p), 0); /* a path that cannot be looked up: a failure, not "missing" */
	assert_int_equal(txc_store_open_kind(&s, "claude", p, &d), TXC_E_FAIL);
	assert_non_null(strstr(d.msg, "no Claude Code projects folder at"));
	path_of(p, sizeof(p), root, "empty");
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(txc_store_open_kind(&s, "claude", p, &d), TXC_OK);
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n = 9;
	assert_int_equal(txc_store_sessions(s, 0, a, &v, &n, &d), TXC_OK);
	assert_int_equal(n, 0);
	struct txc_sid id = {TXC_ID_TEXT, txc_str_c("x"), false, 0};
	struct txc_transcript *t = NULL;
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_E_NOTFOUND);
	assert_null(t);
	txc_arena_free(a);
	txc_store_close(s);
	char rm[600];
	snprintf(rm, sizeof(rm), "rm -rf '%s'", root);
	assert_int_equal(system(rm), 0);
}

/* what a walk leaves out, a BOM, bad and cut lines, and files that change under a listing */
static void test_backend_files(void **state)
{
	(void)state;
	char root[] = "/tmp/txc-claude-XXXXXX", p[512], q[512];
	assert_non_null(mkdtemp(root));
	const char *dirs[] = {"projects", "projects/-p", "projects/-p/d.jsonl", "projects/-q"};
	for (size_t i = 0; i < 4; i++) {
		path_of(p, sizeof(p), root, dirs[i]);
		assert_int_equal(mkdir(p, 0700), 0);
	}
	static const char one[] = "{\"type\":\"user\",\"message\":{\"content\":\"x\"}}\n";
	const char *files[] = {"projects/stray.jsonl", "projects/-p/.h.jsonl", "projects/-p/b.jsonl",
			       "projects/-p/c.jsonl", "projects/-q/z.jsonl"};
	for (size_t i = 0; i < 5; i++) {
		path_of(p, sizeof(p), root, files[i]);
		put(p, one);
	}
	path_of(p, sizeof(p), root, "projects/-p/c.jsonl");
	put(p, "\n{\"type\":\"user\",\"message\":{\"content\":\"x\"}}\n"); /* a first line shorter than a BOM */
	path_of(p, sizeof(p), root, "projects/-p/a.jsonl");
	put(p, "\xEF\xBB\xBF{\"type\":\"user\",\"message\":{\"content\":\"first\"}}\n"
	       "{not json}\n"
	       "{\"type\":\"assistant\",\"message\":{\"content\":\"second\"}}\n"
	       "{\"type\":\"user\",\"message\":{\"content\":\"cut");
	path_of(p, sizeof(p), root, "projects/-link");
	assert_int_equal(symlink("-p", p), 0);
	path_of(p, sizeof(p), root, "projects/-p/l.jsonl");
	assert_int_equal(symlink("a.jsonl", p), 0);

	struct txc_store *s, *s2;
	struct warned w = {0};
	struct txc_diag d = {.warn = on_warn, .warn_ctx = &w};
	path_of(p, sizeof(p), root, "projects");
	assert_int_equal(txc_store_open_kind(&s, "claude", p, &d), TXC_OK);
	assert_int_equal(txc_store_open_kind(&s2, "claude", p, &d), TXC_OK);
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	assert_int_equal(txc_store_sessions(s, 0, a, &v, &n, &d), TXC_OK);
	assert_int_equal(n, 4); /* no links, dot-names, folders named .jsonl or files outside a folder */
	static const char *const want[] = {"z", "c", "b", "a"}; /* no times: by id, descending */
	for (size_t i = 0; i < n; i++)
		assert_true(txc_str_eq(v[i].sid.text, want[i]));
	assert_true(txc_str_eq(v[3].n_messages, "2")); /* the BOM's record too */
	assert_true(txc_str_eq(v[1].n_messages, "1"));
	assert_int_equal(w.skipped, 1);
	assert_int_equal(w.cut, 1);

	struct txc_transcript *t;
	struct txc_sid id = {TXC_ID_TEXT, txc_str_c("a"), false, 0};
	assert_int_equal(txc_store_load(s2, &id, TXC_LOAD_MODEL_ONLY, &t, &d), TXC_OK); /* s2 walks */
	assert_int_equal(t->n_messages, 2);
	assert_text(&t->messages[0].blocks[0], "first");
	assert_true(txc_str_eq(t->meta.cwd, "/p"));
	txc_transcript_free(t);
	id = (struct txc_sid){TXC_ID_TEXT, txc_str_c("z"), true, 0}; /* no place: found by its name */
	assert_int_equal(txc_store_load(s, &id, TXC_LOAD_MODEL_ONLY, &t, &d), TXC_OK);
	assert_true(txc_str_eq(t->meta.cwd, "/q"));
	txc_transcript_free(t);
	id = (struct txc_sid){TXC_ID_TEXT, txc_str_c("b"), true, 99};
	assert_int_equal(txc_store_load(s, &id, TXC_LOAD_MODEL_ONLY, &t, &d), TXC_OK);
	txc_transcript_free(t);

	id = (struct txc_sid){TXC_ID_TEXT, txc_str_c("nope"), false, 0};
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_E_NOTFOUND);
	assert_non_null(strstr(d.msg, "no session 'nope' in"));
	/* b is deleted, c becomes a folder, -q a file: each load says which and why */
	path_of(p, sizeof(p), root, "projects/-p/b.jsonl");
	assert_int_equal(unlink(p), 0);
	path_of(p, sizeof(p), root, "projects/-p/c.jsonl");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkdir(p, 0700), 0);
	path_of(p, sizeof(p), root, "projects/-q");
	path_of(q, sizeof(q), root, "projects/-q/z.jsonl");
	assert_int_equal(unlink(q), 0);
	assert_int_equal(rmdir(p), 0);
	put(p, "");
	t = NULL;
	id = (struct txc_sid){TXC_ID_TEXT, txc_str_c("b"), true, 2};
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_E_NOTFOUND);
	assert_non_null(strstr(d.msg, "cannot open"));
	id.pos = 3;
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_E_FAIL);
	assert_non_null(strstr(d.msg, "cannot read"));
	id.pos = 4;
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_E_FAIL);
	assert_non_null(strstr(d.msg, "Not a directory"));
	assert_null(t);
	/* a listing after its walk: the missing file fails it */
	assert_int_equal(txc_store_sessions(s2, 0, a, &v, &n, &d), TXC_E_NOTFOUND);
	assert_non_null(strstr(d.msg, "b.jsonl"));
	txc_arena_free(a);
	txc_store_close(s);
	txc_store_close(s2);
	char rm[600];
	snprintf(rm, sizeof(rm), "rm -rf '%s'", root);
	assert_int_equal(system(rm), 0);
}

/* claude_ids.c: a chain renamed by its caller, bytes that are no UTF-8, a child without an id */
static void test_ids(void **state)
{
	(void)state;
	static const char ns[] = "5f0c6b3e-27a4-4c8b-9a51-3d6e2f1b7c90"; /* claude_ids.c's session namespace */
	struct txc_transcript *root = txc_transcript_new(), *t = txc_transcript_new();
	root->meta.id = txc_str_c("R");
	struct txc_segment seg[2] = {{.id = txc_str_c("R"), .t = root}, {.id = txc_str_c("T2"), .t = root}};
	t->segments = seg;
	t->n_segments = 2;
	char got[37], want[37];
	static const char *const as[][2] = {{"T2", "lineage:R"}, {"T3", "lineage:R|T3"}, {"X", "lineage:R|X"}};
	for (int i = 0; i < 3; i++) {
		t->meta.id = txc_str_c(as[i][0]);
		txc_claude_session_uuid(t, TXC_STR_NULL, got);
		txc_claude_uuid5(want, ns, as[i][1], strlen(as[i][1]));
		assert_string_equal(got, want);
	}
	seg[1].id = txc_str_c("");
	t->meta.id = txc_str_c("");
	txc_claude_session_uuid(t, TXC_STR_NULL, got);
	txc_claude_uuid5(want, ns, "lineage:R", 9);
	assert_string_equal(got, want);
	t->segments = NULL;
	t->n_segments = 0;
	txc_transcript_free(t);
	txc_transcript_free(root);

	struct txc_buf b = TXC_BUF_INIT;
	txc_claude_project_folder(&b, "/a\xff\xc3(b", 6);
	assert_string_equal(b.buf, "-a---b");
	txc_buf_release(&b);
	char x[18], y[18];
	txc_claude_agent_id(TXC_STR_NULL, x);
	txc_claude_agent_id(txc_str_c(""), y);
	assert_string_equal(x, "ae3b0c44298fc1c14"); /* sha256("") */
	assert_string_equal(x, y);
}

/* ---- the Claude writer over odd models (writer_claude.c sees only the model) ---- */

static char *write_claude(const struct txc_transcript *t, const struct txc_write_opts *o)
{
	struct txc_out out;
	struct txc_diag d = {0};
	txc_out_init_buf(&out);
	assert_int_equal(txc_writer_claude.write(&out, t, o, &d), TXC_OK);
	char *s = strndup(out.buf.buf ? out.buf.buf : "", out.buf.len);
	txc_out_release(&out);
	return s;
}

static void assert_has(const char *out, const char *want)
{
	if (strstr(out, want) == NULL)
		fail_msg("missing %s in %.2000s", want, out);
}

static int count_of(const char *out, const char *what)
{
	int n = 0;
	for (const char *p = out; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

#define LOAD(ls) load(ls, sizeof(ls) / sizeof(ls[0]), NULL)

static const char *const ids_lines[] = {
	"{\"type\":\"user\",\"message\":{\"content\":\"go\"}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"A\",\"content\":[{\"type\":\"tool_use\",\"id\":\"x\",\"name\":"
	"\"Bash\",\"input\":{\"command\":\"a\"}}]}}",
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"x\",\"content\":\"1\"}]}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"B\",\"content\":[{\"type\":\"tool_use\",\"id\":\"x_2\",\"name\":"
	"\"Bash\",\"input\":{\"command\":\"b\"}}]}}",
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"x_2\",\"content\":\"2\"}]}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"C\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"\","
	"\"signature\":\"S\"},{\"type\":\"tool_use\",\"id\":\"x\",\"name\":\"Bash\",\"input\":{\"command\":\"c\"}}]}}",
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"x\",\"content\":[]}]}}",
};

static void test_writer_ids(void **state)
{
	(void)state;
	struct txc_transcript *t = LOAD(ids_lines);
	struct txc_write_opts o = {0};
	char *out = write_claude(t, &o);
	assert_int_equal(count_of(out, "\n"), 7);
	/* a provider id used again is x_2, taken too: x_3, and its result follows it */
	assert_has(out, "\"content\":[{\"type\":\"tool_use\",\"id\":\"x\",\"name\":\"Bash\"");
	assert_has(out, "\"content\":[{\"type\":\"tool_use\",\"id\":\"x_2\",\"name\":\"Bash\"");
	/* thinking the API withheld still carries its signature */
	assert_has(out,
		   "\"content\":[{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"S\"},{\"type\":\"tool_use\","
		   "\"id\":\"x_3\",\"name\":\"Bash\",\"input\":{\"command\":\"c\"}}]");
	/* an empty list is no list of blocks the API takes: its text */
	assert_has(out, "\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"x_3\",\"content\":\"[]\"}]");
	free(out);
	o.reasoning = TXC_REASONING_TEXT; /* no text to show: left out */
	out = write_claude(t, &o);
	assert_has(out, "\"content\":[{\"type\":\"tool_use\",\"id\":\"x_3\",\"name\":\"Bash\"");
	assert_int_equal(count_of(out, "\"thinking\""), 0);
	free(out);
	txc_transcript_free(t);
}

static const char *const image_first_lines[] = {
	"{\"type\":\"assistant\",\"message\":{\"id\":\"A\",\"content\":\"old\"}}",
	"{\"type\":\"system\",\"subtype\":\"compact_boundary\"}",
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"base64\","
	"\"media_type\":\"image/png\",\"data\":\"AAAA\"}},{\"type\":\"text\",\"text\":\"[CONTEXT COMPACTION] no\"}]}}",
};

static const char *const summary_lines[] = {
	"{\"type\":\"assistant\",\"message\":{\"id\":\"A\",\"content\":\"old\"}}",
	"{\"type\":\"system\",\"subtype\":\"compact_boundary\"}",
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"[CONTEXT COMPACTION] s1\"},"
	"{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"AAAA\"}},"
	"{\"type\":\"text\",\"text\":\"s2\"}]}}",
};

static void test_writer_compaction(void **state)
{
	(void)state;
	struct txc_write_opts o = {.include_compacted = true};
	struct txc_transcript *t = LOAD(image_first_lines);
	char *out = write_claude(t, &o);
	/* a message that does not begin with text is no summary: a note, then the message */
	assert_has(out,
		   "\"isCompactSummary\":true,\"message\":{\"role\":\"user\",\"content\":\"[The messages above were "
		   "archived by compaction; no summary was recorded.]\"}}");
	assert_has(out, "\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\","
			"\"data\":\"AAAA\"}},{\"type\":\"text\",\"text\":\"[CONTEXT COMPACTION] no\"}]");
	assert_int_equal(count_of(out, "\n"), 4);
	free(out);
	txc_transcript_free(t);
	t = LOAD(summary_lines);
	out = write_claude(t, &o);
	/* the summary is its texts, the image between them left out */
	assert_has(out, "\"isCompactSummary\":true,\"message\":{\"role\":\"user\",\"content\":\"[CONTEXT COMPACTION] "
			"s1\\n\\ns2\"}}");
	assert_int_equal(count_of(out, "\n"), 3);
	free(out);
	txc_transcript_free(t);
}

static const char *const odd_lines[] = {
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"t\"},{\"type\":\"text\",\"text\":"
	"\"th\"},{\"type\":\"text\",\"text\":\"call\"},{\"type\":\"text\",\"text\":\"res\"},{\"type\":\"text\","
	"\"text\":\"img\"}]}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"A\",\"content\":[{\"type\":\"text\",\"text\":\"img\"},"
	"{\"type\":\"text\",\"text\":\"res\"}]}}",
};

/* blocks no Claude record makes, as other sources' models hold them */
static void test_writer_odd_blocks(void **state)
{
	(void)state;
	struct txc_transcript *t = LOAD(odd_lines);
	struct txc_block *u = t->messages[0].blocks, *a = t->messages[1].blocks;
	u[1].kind = TXC_BLOCK_THINKING;
	u[2].kind = TXC_BLOCK_TOOL_USE;
	u[2].name = txc_str_c("Bash");
	const struct txc_json *in;
	assert_int_equal(txc_json_parse(t->arena, "{\"command\":\"ls\"}", 16, &in), 0);
	u[2].input = in;
	u[3].kind = TXC_BLOCK_TOOL_RESULT;
	u[3].id = txc_str_c("nope");
	u[3].output_text = txc_str_c("out");
	u[4].kind = TXC_BLOCK_IMAGE;
	u[4].media_type = txc_str_c("image/png");
	u[4].data = txc_str_c("");
	a[0].kind = TXC_BLOCK_IMAGE;
	a[0].media_type = txc_str_c("image/x-a-media-type-far-longer-than-the-sixty-bytes-a-note-keeps-of-it");
	a[0].data = txc_str_c("AAAA");
	a[1].kind = TXC_BLOCK_TOOL_RESULT;
	a[1].id = TXC_STR_NULL;
	a[1].is_error = true;
	a[1].output_text = txc_str_c("bad");
	struct txc_write_opts o = {0};
	char *out = write_claude(t, &o);
	assert_has(out,
		   "\"content\":[{\"type\":\"text\",\"text\":\"t\"},{\"type\":\"text\",\"text\":\"th\"},"
		   "{\"type\":\"text\",\"text\":\"[tool call Bash] {\\\"command\\\":\\\"ls\\\"}\"},"
		   "{\"type\":\"text\",\"text\":\"[tool result, id nope, without a matching call]\\nout\"},"
		   "{\"type\":\"text\",\"text\":\"[image: image/png, 0 bytes of base64 not carried over: its data is "
		   "not valid base64]\"}]");
	assert_has(out,
		   "\"content\":[{\"type\":\"text\",\"text\":\"[image: image/x-a-media-type-far-longer-than-the-"
		   "sixty-bytes-a-note-, 4 bytes of base64 not carried over]\"},{\"type\":\"text\",\"text\":\"[tool "
		   "result (error), id , without a matching call]\\nbad\"}]");
	free(out);
	txc_transcript_free(t);
}

/* token totals a count cannot hold: no share goes below zero or past the total */
static void test_writer_usage_extremes(void **state)
{
	(void)state;
	static const char *const ls[] = {
		"{\"type\":\"user\",\"message\":{\"content\":\"q\"}}",
		"{\"type\":\"assistant\",\"message\":{\"id\":\"A\",\"content\":\"a\"}}",
		"{\"type\":\"user\",\"message\":{\"content\":\"q\"}}",
		"{\"type\":\"assistant\",\"message\":{\"id\":\"B\",\"content\":\"b\"}}",
	};
	struct txc_transcript *t = LOAD(ls);
	t->meta.has_usage = true;
	t->meta.input_tokens = INT64_MIN;
	t->meta.output_tokens = INT64_MAX;
	struct txc_write_opts o = {0};
	char *out = write_claude(t, &o);
	/* no negative share, and no record claims more than its weight (20,000 + the bytes so far / 4):
	 * the totals are scaled down to the weights together */
	assert_has(out, "\"usage\":{\"input_tokens\":0,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,"
			"\"output_tokens\":20000}");
	assert_has(out, "\"usage\":{\"input_tokens\":0,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,"
			"\"output_tokens\":20001}");
	free(out);
	txc_transcript_free(t);
}

static const char *const four_lines[] = {
	"{\"type\":\"user\",\"message\":{\"content\":\"a\"}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"A\",\"content\":\"b\"}}",
	"{\"type\":\"user\",\"message\":{\"content\":\"c\"}}",
	"{\"type\":\"assistant\",\"message\":{\"id\":\"B\",\"content\":\"d\"}}",
};

#define NOTE_ARCHIVED "[The messages above were archived by compaction; no summary was recorded.]"

/* a chain (--lineage) and a part of one (--follow): where boundaries go, and what they say */
static void test_writer_segments(void **state)
{
	(void)state;
	struct txc_transcript *root = txc_transcript_new(), *t = LOAD(four_lines);
	root->meta.id = txc_str_c("R");
	struct txc_segment seg[3] = {{.first = 0, .t = root},
				     {.id = txc_str_c("S1"), .first = 2, .t = root},
				     {.id = txc_str_c("S2"), .first = 4, .t = root}};
	t->segments = seg;
	t->n_segments = 3; /* the last one has no message */
	struct txc_write_opts o = {0};
	char *out = write_claude(t, &o);
	assert_int_equal(count_of(out, "\"subtype\":\"compact_boundary\""), 1);
	assert_has(out, "\"isCompactSummary\":true,\"message\":{\"role\":\"user\",\"content\":\"[This conversation "
			"continues Hermes session , which ended with unknown; no summary was recorded.]\"}}");
	free(out);
	/* a summary with no text of its own */
	t->messages[2].compact_summary = true;
	t->messages[2].blocks[0].text = txc_str_c("");
	out = write_claude(t, &o);
	assert_has(out, "\"isCompactSummary\":true,\"message\":{\"role\":\"user\",\"content\":\"\"}}");
	assert_int_equal(count_of(out, "\n"), 5);
	free(out);
	/* a message with no block is no summary either */
	t->messages[2].compact_summary = false;
	t->messages[2].n_blocks = 0;
	out = write_claude(t, &o);
	assert_has(out, "\"content\":\"[This conversation continues Hermes session , which ended with unknown; no "
			"summary was recorded.]\"}}");
	assert_has(out, "\"message\":{\"role\":\"user\",\"content\":[]}}");
	free(out);
	t->messages[2].n_blocks = 1;
	/* a boundary before anything is written restarts nothing */
	seg[1].first = 0;
	t->n_segments = 2;
	out = write_claude(t, &o);
	assert_int_equal(count_of(out, "compact_boundary"), 0);
	assert_int_equal(count_of(out, "\n"), 4);
	free(out);

	/* --follow: a part that continues a chain's session after records of it */
	t->segments = NULL;
	t->n_segments = 0;
	t->messages[2].compact_summary = false;
	seg[0].id = txc_str_c("P");
	seg[0].end_reason = txc_str_c("compression");
	struct txc_write_part part = {.continued = true, .records = 3, .begins = &seg[1]};
	o.part = &part;
	out = write_claude(t, &o);
	assert_has(out, "{\"parentUuid\":null,");
	assert_has(out, "\"logicalParentUuid\":null,");
	assert_has(out, "\"content\":\"[This conversation continues Hermes session P, which ended with compression; "
			"no summary was recorded.]\"}}");
	assert_int_equal(part.records, 3 + 6);
	assert_int_equal(strlen(part.session), 36);
	assert_int_equal(count_of(out, "\"type\":\"summary\""), 0);
	free(out);
	part = (struct txc_write_part){.continued = true, .records = 0, .begins = &seg[1]}; /* nothing before it */
	out = write_claude(t, &o);
	assert_int_equal(count_of(out, "compact_boundary"), 0);
	free(out);

	/* archived history before a part (--include-compacted): its note, not the chain's */
	t->messages[0].compacted = true;
	o.include_compacted = true;
	part = (struct txc_write_part){0};
	out = write_claude(t, &o);
	assert_int_equal(count_of(out, "compact_boundary"), 1);
	assert_has(out, "\"content\":\"" NOTE_ARCHIVED "\"}}");
	free(out);
	part = (struct txc_write_part){.begins = &seg[1]};
	seg[1].first = 3;
	t->segments = seg;
	t->n_segments = 2; /* a chain too: a boundary after the archived message, and one before segment 2 */
	out = write_claude(t, &o);
	assert_int_equal(count_of(out, "compact_boundary"), 2);
	assert_has(out, "\"content\":\"" NOTE_ARCHIVED "\"}}");
	assert_has(out, "\"content\":\"[This conversation continues Hermes session P, which ended with compression; "
			"no summary was recorded.]\"}}");
	free(out);
	t->segments = NULL;
	t->n_segments = 0;
	txc_transcript_free(t);
	txc_transcript_free(root);
}

/* txc's UUIDv5 is the RFC's: libuuid's for names of every length around SHA-1's block edges, and the
 * RFC 9562 example (DNS namespace, "www.example.com") */
static void test_uuid5_as_libuuid(void **state)
{
	(void)state;
	static const char *const nss[] = {"5f0c6b3e-27a4-4c8b-9a51-3d6e2f1b7c90",
					  "9f0d9836-9ee7-4c62-83b4-fb8e01365c9f",
					  "6ba7b810-9dad-11d1-80b4-00c04fd430c8"};
	char name[300], got[37], want[37];
	for (size_t i = 0; i < sizeof(name); i++)
		name[i] = (char)(i * 131 + 7); /* every byte value, NULs too */
	for (size_t k = 0; k < 3; k++)
		for (size_t len = 0; len < sizeof(name); len++) {
			uuid_t ns, u;
			uuid_parse(nss[k], ns);
			uuid_generate_sha1(u, ns, name, len);
			uuid_unparse_lower(u, want);
			txc_claude_uuid5(got, nss[k], name, len);
			assert_string_equal(got, want);
		}
	txc_claude_uuid5(got, nss[2], "www.example.com", 15);
	assert_string_equal(got, "2ed6657d-e927-568b-95e1-2665a8aea6a2");
}

/*
 * The branch by uuid (txc_claude_branch): canonical uuids compare as their 16 bytes, every nibble
 * counts (the first, the last), and an uppercase one is another uuid, not the lowercase one.
 */
#define BR(u, p, typ, extra)                                                                                    \
	"{\"type\":\"" typ "\",\"uuid\":\"" u "\",\"parentUuid\":" p ",\"timestamp\":\"2026-01-01T00:00:00Z\"," \
	"\"message\":{\"role\":\"" typ "\"," extra "\"content\":\"x\"}}"
static void test_branch_uuids(void **state)
{
	(void)state;
	static const char *const ls[] = {
		BR("0f000000-0000-4000-8000-000000000001", "null", "user", ""),
		BR("0f000000-0000-4000-8000-000000000002", "\"0f000000-0000-4000-8000-000000000001\"", "assistant",
		   "\"id\":\"m1\","),
		/* rewound: off the branch */
		BR("1f000000-0000-4000-8000-000000000001", "\"0f000000-0000-4000-8000-000000000002\"", "user", ""),
		BR("1f000000-0000-4000-8000-000000000002", "\"1f000000-0000-4000-8000-000000000001\"", "assistant",
		   "\"id\":\"m2\","),
		BR("0F000000-0000-4000-8000-000000000001", "\"0f000000-0000-4000-8000-000000000002\"", "user", ""),
		BR("0f000000-0000-4000-8000-000000000003", "\"0F000000-0000-4000-8000-000000000001\"", "assistant",
		   "\"id\":\"m3\","),
	};
	struct txc_transcript *t = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(t);
	for (size_t i = 0; i < sizeof(ls) / sizeof(ls[0]); i++)
		assert_int_equal(feed(b, ls[i]), 0);
	unsigned char *aside;
	size_t n;
	assert_int_equal(txc_claude_branch(b, false, &aside, &n), 2);
	assert_int_equal(n, 6);
	static const unsigned char want[] = {0, 0, 1, 1, 0, 0};
	assert_memory_equal(aside, want, 6);
	free(aside);
	txc_claude_end(b, NULL);
	txc_transcript_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_backend),
		cmocka_unit_test(test_time_edges),
		cmocka_unit_test(test_user_records),
		cmocka_unit_test(test_assistant_records),
		cmocka_unit_test(test_turns_and_rows),
		cmocka_unit_test(test_usage_totals),
		cmocka_unit_test(test_backend_folder),
		cmocka_unit_test(test_backend_files),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_writer_ids),
		cmocka_unit_test(test_writer_compaction),
		cmocka_unit_test(test_writer_odd_blocks),
		cmocka_unit_test(test_writer_usage_extremes),
		cmocka_unit_test(test_writer_segments),
		cmocka_unit_test(test_uuid5_as_libuuid),
		cmocka_unit_test(test_harness_registry),
		cmocka_unit_test(test_branch_uuids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
