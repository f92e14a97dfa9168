/* test_model.c - the Hermes -> model mapping, rule by rule, and Claude helpers. */
#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "txc/artifacts.h"
#include "txc/model_hermes.h"
#include "txc/writer_claude.h"
#include "txc/writer_hermes.h"

static struct txc_transcript *load(const char *session, const char *rows)
{
	struct txc_transcript *t = txc_transcript_new();
	const struct txc_json *s, *r;
	assert_int_equal(txc_json_parse(t->arena, session, strlen(session), &s), 0);
	assert_int_equal(txc_json_parse(t->arena, rows, strlen(rows), &r), 0);
	txc_hermes_native(t)->session = s;
	txc_hermes_native(t)->rows = r;
	txc_model_from_hermes(t);
	return t;
}

static const char *input_text(const struct txc_block *b)
{
	static struct txc_buf out = TXC_BUF_INIT;
	txc_buf_reset(&out);
	txc_json_emit(&out, b->input, 0);
	return out.buf;
}

static void test_meta(void **state)
{
	(void)state;
	struct txc_transcript *t =
		load("{\"id\":\"s1\",\"started_at\":1768000000.0,\"cwd\":\"/repo\",\"git_branch\":\"\","
		     "\"title\":\"T\",\"model\":\"m\",\"actual_cost_usd\":0.5,\"input_tokens\":3}",
		     "[]");
	assert_string_equal(t->meta.id.ptr, "s1");
	assert_true(t->meta.started_at == 1768000000.0);
	assert_string_equal(t->meta.cwd.ptr, "/repo");
	assert_null(t->meta.git_branch.ptr); /* empty string = absent */
	assert_true(t->meta.has_cost && t->meta.cost_is_actual);
	assert_true(t->meta.has_usage);
	txc_transcript_free(t);
	t = load("{\"id\":\"s2\",\"started_at\":\"nope\"}", "[]");
	assert_true(t->meta.started_at == 0); /* missing or malformed start: the epoch */
	txc_transcript_free(t);
}

static void test_user_content(void **state)
{
	(void)state;
	struct txc_transcript *t = load(
		"{\"id\":\"s\"}",
		"[{\"role\":\"user\",\"content\":\"  \\n\",\"timestamp\":1},"
		"{\"role\":\"user\",\"content\":null,\"timestamp\":2},"
		"{\"role\":\"user\",\"content\":\" hi \",\"timestamp\":3},"
		"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},{\"type\":\"image_url\",\"image_url\":{\"url\":"
		"\"data:image/png;base64,aGVsbG8=\"}},{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://x/y.png\"}},"
		"{\"type\":\"text\",\"text\":5}],\"timestamp\":4},"
		"{\"role\":\"session_meta\",\"content\":\"x\",\"timestamp\":5},{\"role\":\"system\",\"content\":\"y\",\"timestamp\":6}]");
	assert_int_equal(t->n_messages, 2); /* blank, null, session_meta and system make no turn */
	assert_int_equal(t->messages[0].blocks[0].kind, TXC_BLOCK_TEXT);
	assert_string_equal(t->messages[0].blocks[0].text.ptr, " hi "); /* untrimmed */
	const struct txc_message *m = &t->messages[1];
	assert_int_equal(m->n_blocks, 4); /* a text part whose text is not a string is kept, as its JSON */
	assert_int_equal(m->blocks[3].kind, TXC_BLOCK_TEXT);
	assert_string_equal(m->blocks[3].text.ptr, "{\"type\":\"text\",\"text\":5}");
	assert_int_equal(m->blocks[1].kind, TXC_BLOCK_IMAGE);
	assert_string_equal(m->blocks[1].media_type.ptr, "image/png");
	assert_string_equal(m->blocks[1].data.ptr, "aGVsbG8=");
	assert_int_equal(m->blocks[2].kind, TXC_BLOCK_TEXT); /* http image: its JSON as text */
	assert_non_null(strstr(m->blocks[2].text.ptr, "https://x/y.png"));
	txc_transcript_free(t);
}

static void test_assistant_reasoning(void **state)
{
	(void)state;
	struct txc_transcript *t = load(
		"{\"id\":\"s\",\"model\":\"gpt\"}",
		"[{\"role\":\"assistant\",\"content\":\"a\",\"reasoning_content\":\"rc\",\"reasoning\":\"r\",\"timestamp\":1,"
		"\"finish_reason\":\"stop\"},"
		"{\"role\":\"assistant\",\"content\":\"b\",\"reasoning_content\":\"  \",\"reasoning\":\"r\",\"timestamp\":2,"
		"\"finish_reason\":\"weird\"},"
		"{\"role\":\"assistant\",\"content\":\"\",\"codex_reasoning_items\":\"enc\",\"timestamp\":3,\"finish_reason\":\"length\"},"
		"{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":\"not-json\",\"timestamp\":4}]");
	assert_int_equal(t->n_messages, 3); /* the empty assistant with broken tool_calls is dropped */
	assert_int_equal(t->messages[0].blocks[0].kind, TXC_BLOCK_THINKING);
	assert_string_equal(t->messages[0].blocks[0].text.ptr, "rc");
	assert_int_equal(t->messages[0].stop, TXC_STOP_END_TURN);
	assert_string_equal(t->messages[0].model.ptr, "gpt");
	/* whitespace reasoning_content is discarded and reasoning is not tried */
	assert_int_equal(t->messages[1].blocks[0].kind, TXC_BLOCK_TEXT);
	assert_int_equal(t->messages[1].stop, TXC_STOP_OTHER);
	assert_string_equal(t->messages[1].stop_other.ptr, "weird");
	assert_int_equal(t->messages[2].blocks[0].kind, TXC_BLOCK_THINKING);
	assert_string_equal(t->messages[2].blocks[0].text.ptr, "");
	assert_string_equal(t->messages[2].blocks[0].encrypted.ptr, "enc");
	assert_int_equal(t->messages[2].stop, TXC_STOP_MAX_TOKENS);
	txc_transcript_free(t);
}

static const struct txc_block *call(const char *name, const char *args_json_string)
{
	static struct txc_transcript *t;
	if (t != NULL)
		txc_transcript_free(t);
	struct txc_buf rows = TXC_BUF_INIT;
	txc_buf_addf(&rows,
		     "[{\"role\":\"assistant\",\"content\":null,\"timestamp\":1,\"tool_calls\":[{\"id\":\"c\",\"type\":"
		     "\"function\",\"function\":{\"name\":\"%s\",\"arguments\":%s}}]}]",
		     name, args_json_string);
	t = load("{\"id\":\"s\"}", rows.buf);
	txc_buf_release(&rows);
	assert_int_equal(t->n_messages, 1);
	return &t->messages[0].blocks[0];
}

static void test_tools(void **state)
{
	(void)state;
	const struct txc_block *b =
		call("read_file", "\"{\\\"path\\\":\\\"/a\\\",\\\"offset\\\":1,\\\"limit\\\":null}\"");
	assert_int_equal(b->tool, TXC_TOOL_READ);
	assert_string_equal(b->name.ptr, "Read");
	assert_string_equal(b->source_name.ptr, "read_file");
	assert_string_equal(input_text(b), "{\"file_path\":\"/a\",\"offset\":1}");
	b = call("write_file", "\"{\\\"path\\\":\\\"/a\\\",\\\"content\\\":\\\"x\\\"}\"");
	assert_int_equal(b->tool, TXC_TOOL_WRITE);
	b = call(
		"patch",
		"\"{\\\"mode\\\":\\\"replace\\\",\\\"path\\\":\\\"/a\\\",\\\"old_string\\\":\\\"o\\\",\\\"new_string\\\":\\\"n\\\"}\"");
	assert_int_equal(b->tool, TXC_TOOL_EDIT);
	assert_string_equal(input_text(b), "{\"file_path\":\"/a\",\"old_string\":\"o\",\"new_string\":\"n\"}");
	b = call("patch", "\"{\\\"mode\\\":\\\"patch\\\",\\\"patch\\\":\\\"*** Begin Patch\\\"}\"");
	assert_int_equal(b->tool, TXC_TOOL_RAW);
	assert_string_equal(b->name.ptr, "patch");
	b = call("terminal", "\"{\\\"command\\\":\\\"ls\\\",\\\"timeout\\\":30,\\\"background\\\":true}\"");
	assert_int_equal(b->tool, TXC_TOOL_BASH);
	assert_string_equal(input_text(b), "{\"command\":\"ls\",\"timeout_ms\":30000,\"run_in_background\":true}");
	/* an unknown key keeps it Raw, under the Claude name with the renamed keys */
	b = call("terminal", "\"{\\\"command\\\":\\\"ls\\\",\\\"pty\\\":true,\\\"timeout\\\":1.5}\"");
	assert_int_equal(b->tool, TXC_TOOL_RAW);
	assert_string_equal(b->name.ptr, "Bash");
	assert_string_equal(input_text(b), "{\"command\":\"ls\",\"pty\":true,\"timeout\":1.5}");
	/* arguments that are not JSON stay as the string, losslessly */
	b = call("read_file", "\"not-json\"");
	assert_int_equal(b->tool, TXC_TOOL_RAW);
	assert_string_equal(b->name.ptr, "read_file");
	assert_string_equal(input_text(b), "\"not-json\"");
	b = call("Read", "\"{\\\"file_path\\\":\\\"/a\\\",\\\"offset\\\":-1}\"");
	assert_int_equal(b->tool, TXC_TOOL_RAW); /* negative integer is not a u64 */
	b = call("MultiEdit", "{\"file_path\":\"/a\",\"edits\":[{\"old_string\":\"a\",\"new_string\":\"b\",\"x\":1}]}");
	assert_int_equal(b->tool, TXC_TOOL_RAW); /* unknown key inside an edit */
	b = call("web_search", "\"{\\\"query\\\":\\\"q\\\",\\\"n\\\":1.0}\"");
	assert_int_equal(b->tool, TXC_TOOL_RAW);
	assert_string_equal(input_text(b), "{\"query\":\"q\",\"n\":1.0}"); /* numbers keep their text */
	b = call("/release", "\"{\\\"args\\\":\\\"patch\\\"}\"");
	assert_int_equal(b->tool, TXC_TOOL_COMMAND);
}

static void test_tool_results(void **state)
{
	(void)state;
	struct txc_transcript *t = load(
		"{\"id\":\"s\"}",
		"[{\"role\":\"tool\",\"tool_call_id\":\"a\",\"content\":\"{\\\"success\\\":false}\",\"timestamp\":1},"
		"{\"role\":\"tool\",\"tool_call_id\":\"b\",\"content\":\"{\\\"exit_code\\\":2}\",\"timestamp\":2},"
		"{\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"{\\\"error\\\":\\\"\\\"}\",\"timestamp\":3},"
		"{\"role\":\"tool\",\"tool_call_id\":\"d\",\"content\":\"{\\\"error\\\":null,\\\"exit_code\\\":0}\",\"timestamp\":4},"
		"{\"role\":\"tool\",\"tool_call_id\":\"e\",\"content\":\"plain\",\"effect_disposition\":\"denied\",\"timestamp\":5},"
		"{\"role\":\"tool\",\"tool_call_id\":\"f\",\"content\":\"42\",\"timestamp\":6},"
		"{\"role\":\"tool\",\"tool_call_id\":\"g\",\"content\":null,\"timestamp\":7},"
		"{\"role\":\"tool\",\"content\":\"no id\",\"timestamp\":8}]");
	assert_int_equal(t->n_messages, 8);
	bool want_err[] = {true, true, true, false, true, false, false, false};
	for (int i = 0; i < 8; i++) {
		const struct txc_block *b = &t->messages[i].blocks[0];
		assert_int_equal(t->messages[i].role, TXC_ROLE_USER);
		assert_int_equal(b->kind, TXC_BLOCK_TOOL_RESULT);
		assert_int_equal(b->is_error, want_err[i]);
	}
	assert_true(t->messages[4].blocks[0].denied);
	assert_null(t->messages[5].blocks[0].output);             /* "42" stays text */
	assert_non_null(t->messages[6].blocks[0].output);         /* null is JSON null */
	assert_string_equal(t->messages[7].blocks[0].id.ptr, ""); /* kept, as an orphan */
	txc_transcript_free(t);
}

static void folder_is(const char *cwd, const char *want)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_claude_project_folder(&b, cwd, strlen(cwd));
	assert_string_equal(b.buf, want);
	txc_buf_release(&b);
}

static void test_claude_folder(void **state)
{
	(void)state;
	folder_is("/tmp/repo", "-tmp-repo");
	folder_is("/tmp/My_Repo.v2", "-tmp-My-Repo-v2");
	folder_is("/tmp/with space/ü-dir", "-tmp-with-space---dir");
	folder_is("/tmp/emoji-😀-dir", "-tmp-emoji----dir");
	folder_is("/../../etc", "-------etc");
	char long_cwd[260];
	memset(long_cwd, 'a', 250);
	long_cwd[0] = '/';
	long_cwd[250] = '\0';
	struct txc_buf b = TXC_BUF_INIT;
	txc_claude_project_folder(&b, long_cwd, 250);
	/* 200 kept, then '-' and base 36 of |Java hash| */
	assert_int_equal(b.buf[200], '-');
	int32_t h = 0;
	for (int i = 0; i < 250; i++)
		h = (int32_t)((uint32_t)h * 31u + (unsigned char)long_cwd[i]);
	char t36[16];
	txc_base36(t36, (uint32_t)(h < 0 ? -(int64_t)h : h));
	assert_string_equal(b.buf + 201, t36);
	txc_buf_release(&b);
}

static void test_session_uuid(void **state)
{
	(void)state;
	struct txc_transcript *t = load("{\"id\":\"20260802_093000_c0ffee\"}", "[]");
	char a[37], b[37];
	txc_claude_session_uuid(t, (struct txc_str){0}, a);
	txc_claude_session_uuid(t, (struct txc_str){0}, b);
	assert_string_equal(a, b);
	assert_int_equal(a[14], '5'); /* version 5 */
	txc_transcript_free(t);
}

/* ids of every JSON type keep a name and a kind; 1 and "1" get different Claude session ids */
static void test_session_ids(void **state)
{
	(void)state;
	static const struct {
		const char *session, *name;
		enum txc_id_kind kind;
	} cases[] = {
		{"{\"id\":\"abc\"}", "abc", TXC_ID_TEXT},        {"{\"id\":1}", "1", TXC_ID_INT},
		{"{\"id\":2.50}", "2.50", TXC_ID_REAL},          {"{\"id\":true}", "true", TXC_ID_JSON},
		{"{\"id\":[1,2]}", "[1,2]", TXC_ID_JSON},        {"{\"id\":null}", "no-id", TXC_ID_NONE},
		{"{\"id\":\"\"}", "no-id", TXC_ID_NONE},         {"{}", "no-id", TXC_ID_NONE},
		{"{\"id\":\"a\\u0000b\"}", "a\0b", TXC_ID_TEXT},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct txc_transcript *t = load(cases[i].session, "[]");
		size_t len = strcmp(cases[i].name, "a") == 0 ? 3 : strlen(cases[i].name);
		assert_int_equal(t->meta.id_kind, cases[i].kind);
		assert_int_equal(t->meta.id.len, len);
		assert_memory_equal(t->meta.id.ptr, cases[i].name, len);
		txc_transcript_free(t);
	}
	struct txc_transcript *i1 = load("{\"id\":1}", "[]"), *s1 = load("{\"id\":\"1\"}", "[]");
	char a[37], b[37];
	txc_claude_session_uuid(i1, (struct txc_str){0}, a);
	txc_claude_session_uuid(s1, (struct txc_str){0}, b);
	assert_string_not_equal(a, b);
	txc_transcript_free(i1);
	txc_transcript_free(s1);
}

/* the Hermes writer writes Hermes's own rows; a transcript without them (another harness) gets rows made
 * from its model (hermes_rows.c; test_reader's test_rows_from_model has a whole one) */
static void test_hermes_needs_native(void **state)
{
	(void)state;
	struct txc_write_opts opt = {0};
	struct txc_diag d = {0};
	struct txc_out out;
	struct txc_transcript *t = txc_transcript_new();
	txc_out_init_buf(&out);
	assert_int_equal(txc_writer_hermes.write(&out, t, &opt, &d), TXC_OK);
	assert_null(t->native); /* the rows were the writer's, for the write only */
	txc_buf_addch(&out.buf, '\0');
	assert_non_null(strstr(out.buf.buf, "\"message_count\": 0"));
	assert_non_null(strstr(out.buf.buf, "\"messages\": []}\n"));
	out.buf.len = 0;
	txc_transcript_free(t);
	t = load("{\"id\":\"s1\"}",
		 "[{\"role\":\"user\",\"content\":\"hi\",\"active\":1},{\"role\":\"user\",\"active\":0}]");
	assert_int_equal(txc_writer_hermes.write(&out, t, &opt, &d), TXC_OK);
	txc_buf_addch(&out.buf, '\0');
	assert_string_equal(
		out.buf.buf,
		"{\"id\": \"s1\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\", \"active\": 1}]}\n");
	assert_int_equal(t->native->n_active_rows, 1);
	txc_out_release(&out);
	txc_transcript_free(t);
}

/* ---- artifacts: each rule of the desktop app, and what it leaves out ---- */
static struct txc_json *art_row(struct txc_arena *a, const char *role, const char *content, const char *tool)
{
	struct txc_json *r = txc_json_object(a, 5);
	txc_json_put(r, txc_str_c("role"), txc_json_string(a, role, strlen(role)));
	txc_json_put(r, txc_str_c("content"), txc_json_string(a, content, strlen(content)));
	txc_json_put(r, txc_str_c("timestamp"), txc_json_int(a, 1));
	if (tool != NULL) {
		txc_json_put(r, txc_str_c("tool_call_id"), txc_json_string(a, "c", 1));
		txc_json_put(r, txc_str_c("tool_name"), txc_json_string(a, tool, strlen(tool)));
	}
	return r;
}

/* "rule kind value" lines of what txc_artifacts_find reports for rows (role, content, tool)... */
static const char *artifacts_of(const char *const *rows, size_t n)
{
	static struct txc_buf out = TXC_BUF_INIT;
	struct txc_transcript *t = txc_transcript_new();
	struct txc_json *arr = txc_json_array(t->arena, n);
	for (size_t i = 0; i < n; i += 3)
		txc_json_push(arr, art_row(t->arena, rows[i], rows[i + 1], rows[i + 2]));
	const struct txc_json *s;
	assert_int_equal(txc_json_parse(t->arena, "{\"id\":\"s\"}", 10, &s), 0);
	txc_hermes_native(t)->session = s;
	txc_hermes_native(t)->rows = arr;
	txc_model_from_hermes(t);
	struct txc_artifact *v;
	size_t k = txc_artifacts_find(t, t->arena, &v);
	txc_buf_reset(&out);
	for (size_t i = 0; i < k; i++)
		txc_buf_addf(&out, "%s %s %.*s\n", v[i].rule, txc_artifact_kind_name(v[i].kind), (int)v[i].value.len,
			     v[i].value.ptr);
	txc_transcript_free(t);
	return out.buf ? out.buf : "";
}

static void test_artifacts(void **state)
{
	(void)state;
	const char *text =
		"MEDIA:\t`/q/back tick.mp3` MEDIA:'/q/single.wav' MEDIA: nodot MEDIA: a.b!? MEDIA:..x\n"
		"[site](HTTP://Example.com/x) [doc](./r.pdf#page=2) [pic](C:/img/p.PNG?raw=1) [no](note.txt)\n"
		"[open](./unterminated.pdf [broken\n](./x.pdf) [empty]() ![](/i/a.gif) ![x](data:image/png;base64,AA)\n"
		"see xhttp://not.a.url and (https://u.example/a?b=1) and 'C:\\dir\\f.docx'; ~/home.csv, ../up.json.\n"
		"~/noext and /etc/passwd and file:/x.png and \\\\srv\\share\\a.zip! /x/request_dump_1.json MEDIA:";
	const char *rows[] = {
		"assistant",
		text,
		NULL,
		"tool",
		"{\"saved_to\": \"  /s/strong.bin  \", \"nested\": {\"output_path\": [\"/s/a.txt\", 3]}}",
		"terminal",
		"tool",
		"{\"path\": \"/w/weak.png\", \"media_x\": \"https://m.example/v.mp4\", \"note\": \"MEDIA:/w/tag.png\", "
		"\"image\": \"not a path\"}",
		"bfl_flux3_pro",
		"tool",
		"{\"path\": \"/w/ignored.png\"}",
		"read_file",
		"tool",
		"done MEDIA:/w/text.png",
		"tts_speak",
		"tool",
		"<untrusted_tool_result source=\"x\">\nno blank line",
		"web_extract",
		"tool",
		"{\"_multimodal\": true, \"meta\": {\"screenshot_path\": \"/m/s.webp\"}}",
		"browser_snapshot",
		"tool",
		"Screenshot path: /v/one.png\nother\nScreenshot path: /v/two.png",
		"browser_vision",
	};
	const char *want = "media-tag file /q/back tick.mp3\n"
			   "media-tag file /q/single.wav\n"
			   "media-tag file a.b\n" /* trailing punctuation dropped; a dot then a non-dot */
			   "media-tag file ..x\n"
			   "markdown-link link HTTP://Example.com/x\n"
			   "markdown-link file ./r.pdf#page=2\n"
			   "markdown-link image C:/img/p.PNG?raw=1\n"
			   "path file ./unterminated.pdf\n" /* not a link (a space, a line break): still a path */
			   "path file ./x.pdf\n"
			   "markdown-image image /i/a.gif\n"
			   "markdown-image image data:image/png;base64,AA\n"
			   "url link https://u.example/a?b=1\n"
			   "path file C:\\dir\\f.docx\n"
			   "path file ~/home.csv\n"
			   "path file ../up.json\n"
			   "path file \\\\srv\\share\\a.zip\n"
			   "result-key file /s/strong.bin\n"
			   "result-key file /s/a.txt\n"
			   "result-key image /w/weak.png\n"
			   "result-key link https://m.example/v.mp4\n"
			   "media-tag image /w/tag.png\n"
			   "media-tag image /w/text.png\n"
			   "result-key image /m/s.webp\n"
			   "screenshot image /v/one.png\n"
			   "screenshot image /v/two.png\n";
	assert_string_equal(artifacts_of(rows, sizeof(rows) / sizeof(rows[0])), want);
}

/* a value longer than 4096 bytes (a data:image, a long URL) is listed whole, not dropped */
static void test_artifacts_long(void **state)
{
	(void)state;
	struct txc_buf text = TXC_BUF_INIT, want = TXC_BUF_INIT;
	txc_buf_addstr(&text, "![big](data:image/png;base64,");
	for (int i = 0; i < 2000; i++)
		txc_buf_addstr(&text, "QUJD");
	txc_buf_addstr(&text, ") and https://example.com/");
	for (int i = 0; i < 5000; i++)
		txc_buf_addch(&text, 'p');
	txc_buf_addf(&want, "markdown-image image %.*s\n", 22 + 8000, text.buf + 7); /* "![big](" before it */
	txc_buf_addf(&want, "url link %s\n", text.buf + text.len - 5020);
	const char *rows[] = {"assistant", text.buf, NULL};
	assert_string_equal(artifacts_of(rows, 3), want.buf);
	txc_buf_release(&text);
	txc_buf_release(&want);
}

/* the typed/raw decision: every field known, required ones present, types right (else RAW) */
static enum txc_tool tool_of(const char *name, const char *input)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *in;
	assert_int_equal(txc_json_parse(a, input, strlen(input), &in), 0);
	struct txc_block b = {0};
	txc_model_tool_set(a, &b, txc_str_c(name), in);
	enum txc_tool k = b.tool;
	txc_arena_free(a);
	return k;
}

static void test_tool_kinds(void **state)
{
	(void)state;
	assert_int_equal(tool_of("Read", "{\"file_path\": \"/a\", \"offset\": 5, \"limit\": null}"), TXC_TOOL_READ);
	assert_int_equal(tool_of("Read", "{\"file_path\": \"/a\", \"offset\": \"5\"}"),
			 TXC_TOOL_RAW); /* a string offset */
	assert_int_equal(tool_of("Read", "{\"file_path\": \"/a\", \"offset\": -5}"), TXC_TOOL_RAW); /* negative */
	assert_int_equal(tool_of("Read", "{\"file_path\": \"/a\", \"offset\": 123456789012345678901}"),
			 TXC_TOOL_RAW); /* 21 digits */
	assert_int_equal(tool_of("Read", "{\"file_path\": \"/a\", \"offset\": 18446744073709551615}"), TXC_TOOL_READ);
	assert_int_equal(tool_of("Read", "{\"file_path\": null}"), TXC_TOOL_RAW);                 /* required null */
	assert_int_equal(tool_of("Read", "{\"file_path\": \"/a\", \"extra\": 1}"), TXC_TOOL_RAW); /* unknown field */
	assert_int_equal(tool_of("Read", "[\"/a\"]"), TXC_TOOL_RAW);                              /* not an object */
	assert_int_equal(tool_of("Write", "{\"file_path\": \"/a\"}"), TXC_TOOL_RAW);              /* content missing */
	assert_int_equal(tool_of("Bash", "{\"command\": \"ls\", \"run_in_background\": false, \"timeout_ms\": 5}"),
			 TXC_TOOL_BASH);
	assert_int_equal(tool_of("Bash", "{\"command\": \"ls\", \"run_in_background\": \"yes\"}"), TXC_TOOL_RAW);
	assert_int_equal(
		tool_of("Edit",
			"{\"file_path\": \"/a\", \"old_string\": \"x\", \"new_string\": \"y\", \"replace_all\": true}"),
		TXC_TOOL_EDIT);
	assert_int_equal(
		tool_of("MultiEdit",
			"{\"file_path\": \"/a\", \"edits\": [{\"old_string\": \"x\", \"new_string\": \"y\"}]}"),
		TXC_TOOL_MULTIEDIT);
	assert_int_equal(tool_of("MultiEdit", "{\"file_path\": \"/a\", \"edits\": {\"old_string\": \"x\"}}"),
			 TXC_TOOL_RAW);
	assert_int_equal(tool_of("MultiEdit", "{\"file_path\": \"/a\", \"edits\": [{\"old_string\": \"x\"}]}"),
			 TXC_TOOL_RAW);
	assert_int_equal(tool_of("/review", "{\"args\": \"x\"}"), TXC_TOOL_COMMAND);
	assert_int_equal(tool_of("/review", "{\"args\": 1}"), TXC_TOOL_RAW);
	assert_int_equal(tool_of("read", "{\"file_path\": \"/a\"}"), TXC_TOOL_RAW); /* names are exact */
	/* stop reasons: Hermes and Claude spellings in, Claude spelling out */
	const char *in[] = {"stop", "tool_calls", "length", "stop_sequence", "cancelled", "error", "weird"};
	const char *out[] = {"end_turn", "tool_use", "max_tokens", "stop_sequence", "aborted", "error", NULL};
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		const char *got = txc_model_stop_name(txc_model_stop_from_text(in[i], strlen(in[i])));
		if (out[i] == NULL)
			assert_null(got);
		else
			assert_string_equal(got, out[i]);
	}
	assert_null(txc_model_stop_name(TXC_STOP_NONE));
}

/* numbers of any type where counts go; whitespace of every Unicode kind; odd tool_calls and timeouts */
static void test_odd_values(void **state)
{
	(void)state;
	struct txc_transcript *t = load(
		"{\"id\":\"s\",\"input_tokens\":1500.7,\"output_tokens\":1e300,\"cache_read_tokens\":-3,\"cache_write_tokens\":\"7\","
		"\"message_count\":99999999999999999999999,\"ended_at\":\"x\",\"estimated_cost_usd\":0.25}",
		"[{\"role\":\"assistant\",\"content\":\"a\",\"timestamp\":1,"
		"\"reasoning_content\":\"\\u00a0\\u2003\\u3000\\u205f\\u1680\\u0085\\u2028\\u2029\\u202f\\t \\r\\n\"},"
		"{\"role\":\"assistant\",\"content\":\"b\",\"timestamp\":2,\"reasoning_content\":\"\\u00a0x\"},"
		"{\"role\":\"assistant\",\"content\":null,\"timestamp\":3,\"tool_calls\":\"[{\\\"id\\\":\\\"k\\\",\\\"type\\\":\\\"function\\\","
		"\\\"function\\\":{\\\"name\\\":\\\"terminal\\\",\\\"arguments\\\":{\\\"command\\\":\\\"ls\\\",\\\"timeout\\\":-1}}}]\"},"
		"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"other\",\"x\":1}],\"timestamp\":4}]");
	assert_int_equal(t->meta.input_tokens, 1500); /* a real count: its integer part */
	assert_int_equal(t->meta.output_tokens, 0);   /* too big for a count */
	assert_int_equal(t->meta.cache_read_tokens, -3);
	assert_int_equal(t->meta.cache_write_tokens, 0); /* text is no number */
	assert_int_equal(t->meta.message_count, 0);
	assert_false(t->meta.has_ended);
	assert_true(t->meta.has_cost && !t->meta.cost_is_actual);
	assert_int_equal(t->n_messages, 4);
	assert_int_equal(t->messages[0].blocks[0].kind, TXC_BLOCK_TEXT); /* all-whitespace reasoning dropped */
	assert_int_equal(t->messages[1].blocks[0].kind, TXC_BLOCK_THINKING);
	const struct txc_block *b = &t->messages[2].blocks[0]; /* tool_calls stored as a JSON string */
	assert_int_equal(b->kind, TXC_BLOCK_TOOL_USE);
	assert_string_equal(b->name.ptr, "Bash");
	assert_int_equal(b->tool, TXC_TOOL_RAW); /* a negative timeout is not a Bash timeout_ms */
	assert_string_equal(input_text(b), "{\"command\":\"ls\",\"timeout\":-1}");
	assert_int_equal(t->messages[3].n_blocks, 2);
	assert_string_equal(t->messages[3].blocks[1].text.ptr, "{\"type\":\"other\",\"x\":1}"); /* kept as its JSON */
	txc_transcript_free(t);
}

/* txc_block_copy: every string and JSON tree of a block moves into the arena passed; NULLs stay NULL */
static void test_block_copy(void **state)
{
	(void)state;
	struct txc_arena *scratch = txc_arena_new(0), *keep = txc_arena_new(0);
	const struct txc_json *in, *out;
	assert_int_equal(txc_json_parse(scratch, "{\"a\":[1,\"x\"]}", 13, &in), 0);
	assert_int_equal(txc_json_parse(scratch, "\"done\"", 6, &out), 0);
	struct txc_block b = {.kind = TXC_BLOCK_TOOL_USE, .input = in, .output = out};
	struct txc_str *fields[] = {&b.text, &b.signature,   &b.encrypted,   &b.id,
				    &b.name, &b.source_name, &b.output_text, &b.media_type};
	char names[8][16];
	for (int i = 0; i < 8; i++) {
		snprintf(names[i], sizeof(names[i]), "f%d", i);
		*fields[i] = txc_arena_str(scratch, names[i], strlen(names[i]));
	}
	/* b.data stays NULL */
	txc_block_copy(keep, &b);
	txc_arena_reset(scratch);
	memset(txc_arena_alloc(scratch, 4096), 'Z', 4096); /* the old bytes are gone */
	for (int i = 0; i < 8; i++) {
		assert_int_equal(fields[i]->len, strlen(names[i]));
		assert_memory_equal(fields[i]->ptr, names[i], fields[i]->len);
	}
	assert_null(b.data.ptr);
	struct txc_buf e = TXC_BUF_INIT;
	txc_json_emit(&e, b.input, 0);
	txc_buf_addch(&e, ' ');
	txc_json_emit(&e, b.output, 0);
	assert_string_equal(e.buf, "{\"a\":[1,\"x\"]} \"done\"");
	txc_buf_release(&e);
	txc_arena_free(scratch);
	txc_arena_free(keep);
}

/* the arena: strings packed one after the other (a long session's many short ids and names take
 * no padding), every other object still at max_align_t's alignment, zeroed */
static void test_arena_packing(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	struct txc_str s1 = txc_arena_str(a, "ab", 2), s2 = txc_arena_str(a, "cde", 3);
	assert_ptr_equal(s2.ptr, s1.ptr + 3); /* "ab" and its NUL, then the next */
	assert_string_equal(s1.ptr, "ab");
	assert_string_equal(s2.ptr, "cde");
	for (int i = 0; i < 3; i++) {
		unsigned char *p = txc_arena_alloc(a, 24);
		assert_int_equal((uintptr_t)p % alignof(max_align_t), 0);
		for (int k = 0; k < 24; k++)
			assert_int_equal(p[k], 0);
		txc_arena_str(a, "x", 1);
	}
	char big[40000];
	memset(big, 'q', sizeof(big));
	struct txc_str b = txc_arena_str(a, big, sizeof(big)); /* its own block */
	assert_int_equal(b.len, sizeof(big));
	assert_int_equal(b.ptr[sizeof(big)], '\0');
	txc_arena_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_ids),
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_user_content),
		cmocka_unit_test(test_assistant_reasoning),
		cmocka_unit_test(test_tools),
		cmocka_unit_test(test_tool_results),
		cmocka_unit_test(test_claude_folder),
		cmocka_unit_test(test_session_uuid),
		cmocka_unit_test(test_hermes_needs_native),
		cmocka_unit_test(test_artifacts),
		cmocka_unit_test(test_artifacts_long),
		cmocka_unit_test(test_tool_kinds),
		cmocka_unit_test(test_odd_values),
		cmocka_unit_test(test_block_copy),
		cmocka_unit_test(test_arena_packing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
