/* test_render.c - the render layer the document writers share: pairing, filters, tool fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "render.h"

static struct txc_arena *arena;

static const struct txc_json *json(const char *text)
{
	const struct txc_json *v;
	assert_int_equal(txc_json_parse(arena, text, strlen(text), &v), 0);
	return v;
}

static struct txc_block call(enum txc_tool tool, const char *name, const char *id, const char *input)
{
	struct txc_block b = {.kind = TXC_BLOCK_TOOL_USE, .tool = tool, .name = txc_str_c(name), .id = txc_str_c(id)};
	b.input = json(input);
	return b;
}

static void test_read_fields(void **state)
{
	(void)state;
	struct txc_tool_fields f;
	struct txc_block b = call(TXC_TOOL_READ, "Read", "c", "{\"file_path\":\"/a/b.c\",\"offset\":10,\"limit\":5}");
	txc_render_tool_fields(&b, &f);
	assert_string_equal(f.path.ptr, "/a/b.c");
	assert_int_equal(f.lines, TXC_LINES_RANGE);
	assert_int_equal(f.line_from, 10);
	assert_int_equal(f.line_to, 14);
	b = call(TXC_TOOL_READ, "Read", "c", "{\"file_path\":\"/x\",\"offset\":7}");
	txc_render_tool_fields(&b, &f);
	assert_int_equal(f.lines, TXC_LINES_FROM);
	assert_int_equal(f.line_from, 7);
	b = call(TXC_TOOL_READ, "Read", "c", "{\"file_path\":\"/x\"}");
	txc_render_tool_fields(&b, &f);
	assert_int_equal(f.lines, TXC_LINES_NONE);
	/* the end of a huge range wraps instead of overflowing (UBSan would stop here) */
	b = call(TXC_TOOL_READ, "Read", "c", "{\"file_path\":\"/x\",\"offset\":9223372036854775807,\"limit\":3}");
	txc_render_tool_fields(&b, &f);
	assert_int_equal(f.lines, TXC_LINES_RANGE);
}

static void test_bash_and_edit_fields(void **state)
{
	(void)state;
	struct txc_tool_fields f;
	struct txc_block b = call(TXC_TOOL_BASH, "Bash", "c",
				  "{\"command\":\"make -j2\",\"timeout_ms\":500,\"run_in_background\":true}");
	txc_render_tool_fields(&b, &f);
	assert_string_equal(f.command.ptr, "make -j2");
	assert_non_null(f.timeout_ms);
	assert_true(f.background);
	b = call(TXC_TOOL_EDIT, "Edit", "c",
		 "{\"file_path\":\"/f\",\"old_string\":\"a\\nb\\nc\",\"new_string\":\"d\"}");
	txc_render_tool_fields(&b, &f);
	assert_int_equal(f.removed, 3);
	assert_int_equal(f.added, 1);
	b = call(TXC_TOOL_MULTIEDIT, "MultiEdit", "c",
		 "{\"file_path\":\"/f\",\"edits\":[{\"old_string\":\"a\",\"new_string\":\"b\\nc\"},"
		 "{\"old_string\":\"-x\",\"new_string\":\"+y\"}]}");
	txc_render_tool_fields(&b, &f);
	assert_int_equal(f.added, 3);   /* "+b" "+c" "++y", not "@@" */
	assert_int_equal(f.removed, 2); /* "-a" "--x" */
	struct txc_buf d = TXC_BUF_INIT;
	txc_render_edit_diff(&d, &b);
	assert_string_equal(d.buf, "-a\n+b\n+c\n@@\n--x\n++y\n");
	txc_buf_release(&d);
	b = call(TXC_TOOL_RAW, "patch", "c", "{\"path\":\"p.c\",\"patch\":\"@@ x\"}");
	txc_render_tool_fields(&b, &f);
	assert_string_equal(f.path.ptr, "p.c");
	assert_string_equal(f.patch.ptr, "@@ x");
	assert_null(f.file_path.ptr);
}

/* ---- the walker: a handler table that logs what it is given ---- */

static void logf_(void *ctx, const char *s)
{
	txc_buf_addstr(ctx, s);
	txc_buf_addch(ctx, ' ');
}

static void on_start(void *ctx, const struct txc_render_counts *n)
{
	txc_buf_addf(ctx, "doc(%zu,%zu) ", n->messages, n->tool_calls);
}
static void on_end(void *ctx)
{
	logf_(ctx, "end");
}
static void on_msg(void *ctx, const struct txc_message *m, enum txc_render_who who)
{
	(void)m;
	logf_(ctx, who == TXC_RENDER_USER ? "U" : who == TXC_RENDER_ASSISTANT ? "A" : "R");
}
static void on_text(void *ctx, const struct txc_block *b)
{
	logf_(ctx, b->text.ptr);
}
static void on_thinking(void *ctx, const struct txc_block *b)
{
	(void)b;
	logf_(ctx, "think");
}
static void on_tool(void *ctx, const struct txc_render_call *c)
{
	txc_buf_addf(ctx, "call:%s->%s%s ", c->call->id.ptr, c->result ? c->result->output_text.ptr : "none",
		     c->show_result ? "" : "(hidden)");
}
static void on_orphan(void *ctx, const struct txc_block *r, bool in_user)
{
	txc_buf_addf(ctx, "orphan:%s%s ", r->output_text.ptr, in_user ? "" : "(in assistant)");
}

static const struct txc_render_ops log_ops = {
	.doc_start = on_start,
	.doc_end = on_end,
	.message_start = on_msg,
	.text = on_text,
	.thinking = on_thinking,
	.tool = on_tool,
	.orphan_result = on_orphan,
};

static struct txc_block result(const char *id, const char *text)
{
	return (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT, .id = txc_str_c(id), .output_text = txc_str_c(text)};
}

static struct txc_buf walk_log; /* what the last walk logged */

static const char *walk(const struct txc_transcript *t, enum txc_detail detail, bool compacted)
{
	struct txc_out out;
	struct txc_write_opts o = {.detail = detail, .include_compacted = compacted};
	txc_buf_release(&walk_log);
	txc_out_init_buf(&out);
	txc_render_walk(&out, t, &o, &log_ops, &walk_log);
	txc_out_release(&out);
	return walk_log.buf;
}

/* an image file's extension: the media subtype, lower-cased; jpeg as jpg; img when there is none */
static void test_image_ext(void **state)
{
	(void)state;
	static const char *const cases[][2] = {{"image/png", "png"},  {"image/PNG", "png"},  {"IMAGE/Gif", "gif"},
					       {"image/jpeg", "jpg"}, {"image/JPEG", "jpg"}, {"image/svg+xml", "svg"},
					       {"image/", "img"},     {"x", "img"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char ext[16];
		txc_render_image_ext(ext, txc_str_c(cases[i][0]));
		assert_string_equal(ext, cases[i][1]);
	}
}

/* what an image may be shown or saved as: an image/ type of plain characters, not SVG, base64 data */
static void test_image_check(void **state)
{
	(void)state;
	static const struct {
		const char *type, *data;
		enum txc_image_check want;
	} cases[] = {
		{"image/png", "iVBO+/w==", TXC_IMAGE_OK},
		{"image/vnd.x-icon", "AAAA", TXC_IMAGE_OK},
		{"IMAGE/Z9", "", TXC_IMAGE_OK},
		{"image/p ng", "AAAA", TXC_IMAGE_BAD_TYPE},
		{"image/png;x", "AAAA", TXC_IMAGE_BAD_TYPE},
		{"image/png~", "AAAA", TXC_IMAGE_BAD_TYPE},
		{"image/p\x80g", "AAAA", TXC_IMAGE_BAD_TYPE},
		{"image", "AAAA", TXC_IMAGE_BAD_TYPE},
		{"video/mp4", "AAAA", TXC_IMAGE_BAD_TYPE},
		{"image/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "AAAA", TXC_IMAGE_BAD_TYPE},
		{"image/svg+xml", "AAAA", TXC_IMAGE_SCRIPTABLE},
		{"IMAGE/SVG", "AAAA", TXC_IMAGE_SCRIPTABLE},
		{"image/png", "AA\nAA", TXC_IMAGE_BAD_DATA},
		{"image/png", "AA-_", TXC_IMAGE_BAD_DATA},
		{"image/png", "AA~", TXC_IMAGE_BAD_DATA},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct txc_block b = {.kind = TXC_BLOCK_IMAGE,
				      .media_type = txc_str_c(cases[i].type),
				      .data = txc_str_c(cases[i].data)};
		if (txc_render_image_check(&b) != cases[i].want)
			fail_msg("image check of %s / %s", cases[i].type, cases[i].data);
	}
	char ext[16];
	txc_render_image_ext(ext, txc_str_c("image/x-icon"));
	assert_string_equal(ext, "x");
	txc_render_image_ext(ext, txc_str_c("image/abcdefghijklmnopqrst"));
	assert_string_equal(ext, "abcdefghijklmno");
}

/* escape sequences go, text stays: an OSC that never ends takes only its ESC ] with it */
static void test_clean_escapes(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{"a\x1b[31mred\x1b[0m b", "ared b"},
		{"t\x1b]0;title\x07 after", "t after"},
		{"t\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ end", "tlink end"},
		{"keep \x1b]this text, never ended\nand this line", "keep this text, never ended\nand this line"},
		{"crlf\r\nline", "crlf\nline"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_text_clean(&b, cases[i][0], strlen(cases[i][0]));
		assert_string_equal(b.buf ? b.buf : "", cases[i][1]);
		txc_buf_release(&b);
	}
}

/* text cleaning reads eight bytes at a time: each byte value, at each offset, does what it did
 * byte by byte (a control replaced, ESC x dropped, a lone CR a line end, invalid UTF-8 repaired) */
static void test_clean_every_offset(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++) {
		for (size_t off = 0; off < 24; off++) {
			char in[24];
			memset(in, 'a', sizeof(in));
			in[off] = (char)c;
			struct txc_buf want = TXC_BUF_INIT, got = TXC_BUF_INIT;
			txc_buf_add(&want, in, off);
			size_t rest = off + 1;
			if (c == 0x1B)
				rest += off + 1 < sizeof(in); /* ESC a: a two-byte sequence; a last ESC alone goes */
			else if (c == '\r')
				txc_buf_addch(&want, '\n');
			else if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7F)
				txc_buf_addstr(&want, "\xEF\xBF\xBD");
			else
				txc_buf_addch(&want, c);
			txc_buf_add(&want, in + rest, sizeof(in) - rest);
			txc_text_clean(&got, in, sizeof(in));
			if (strcmp(got.buf, want.buf) != 0)
				fail_msg("byte 0x%02x at offset %zu: got '%s'", c, off, got.buf);
			txc_buf_release(&want);
			txc_buf_release(&got);
		}
	}
}

static void test_walk(void **state)
{
	(void)state;
	struct txc_block hi = {.kind = TXC_BLOCK_TEXT, .text = txc_str_c("hi")};
	struct txc_block asst[3] = {
		{.kind = TXC_BLOCK_THINKING, .text = txc_str_c("hmm")},
		call(TXC_TOOL_RAW, "t", "A", "{}"),
		call(TXC_TOOL_RAW, "t", "B", "{}"),
	};
	struct txc_block rb = result("B", "rB"), ra = result("A", "rA"), ra2 = result("A", "again"),
			 old = {.kind = TXC_BLOCK_TEXT, .text = txc_str_c("old")};
	struct txc_message m[] = {
		{.role = TXC_ROLE_USER, .blocks = &old, .n_blocks = 1, .compacted = true},
		{.role = TXC_ROLE_USER, .blocks = &hi, .n_blocks = 1},
		{.role = TXC_ROLE_ASSISTANT, .blocks = asst, .n_blocks = 3},
		{.role = TXC_ROLE_USER, .blocks = &rb, .n_blocks = 1},
		{.role = TXC_ROLE_USER, .blocks = &ra, .n_blocks = 1},
		{.role = TXC_ROLE_USER, .blocks = &ra2, .n_blocks = 1}, /* A answered already: no call claims it */
	};
	struct txc_transcript t = {.messages = m, .n_messages = 6};
	/* results out of order still pair by id; a used result is not shown again; compacted left out */
	assert_string_equal(walk(&t, TXC_DETAIL_NORMAL, false),
			    "doc(5,2) U hi A think call:A->rA call:B->rB R orphan:again end ");
	assert_string_equal(walk(&t, TXC_DETAIL_NORMAL, true),
			    "doc(6,2) U old U hi A think call:A->rA call:B->rB R orphan:again end ");
	/* brief: no reasoning, calls without their results, the results still consumed */
	assert_string_equal(walk(&t, TXC_DETAIL_BRIEF, false),
			    "doc(5,2) U hi A call:A->none(hidden) call:B->none(hidden) R orphan:again end ");
	/* prompts: what people typed */
	assert_string_equal(walk(&t, TXC_DETAIL_PROMPTS, false), "doc(5,2) U hi end ");
}

int main(void)
{
	arena = txc_arena_new(0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_fields),
		cmocka_unit_test(test_bash_and_edit_fields),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_image_ext),
		cmocka_unit_test(test_image_check),
		cmocka_unit_test(test_clean_escapes),
		cmocka_unit_test(test_clean_every_offset),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	txc_buf_release(&walk_log);
	txc_arena_free(arena);
	return rc;
}
