/* test_render.c - the render layer the document writers share: pairing, filters, tool fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

/* ---- txc_md_text: a model's Markdown kept, its block structure decided by the writer ---- */

static char *md(const char *prefix, const char *in, size_t len)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, prefix);
	txc_md_text(&b, in, len);
	txc_buf_addch(&b, '\0');
	return b.buf;
}

static void md_is(const char *in, const char *want)
{
	char *got = md("", in, strlen(in));
	if (strcmp(got, want) != 0)
		fail_msg("txc_md_text(\"%s\")\n got: \"%s\"\nwant: \"%s\"", in, got, want);
	free(got);
}

/* code blocks: every one a fresh top-level fence; what a container or a tab leaves over stays */
static void test_md_code_blocks(void **state)
{
	(void)state;
	/* an indented block in a list item: a tab past the item's 6 columns leaves 2 of its own */
	md_is("- item\n\n\t\t  code\n", "- item\n\n```\n    code\n```\n");
	/* a fence in a quote: "> " comes off its lines ("   >" too); what is no continuation stays */
	md_is("> ```py\n>    code\n   > q\n    > four\n  \n\n> ```\nafter\n",
	      "```py\n   code\nq\n    > four\n  \n\n```\n\nafter\n");
	md_is("> ```\n> a\n>```\n", "```\na\n```\n");
	/* the language: the first word of the info string, only characters safe in a class name */
	md_is("```\tpython\nx\n```\n", "```python\nx\n```\n");
	md_is("```c++\ty\nz\n```\n", "```c++\nz\n```\n");
	md_is("```c{x}\n1\n```\n", "```cx\n1\n```\n");
	md_is("```aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n2\n```\n",
	      "```aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n2\n```\n");
	/* after a fence from a 4-column list item, a tab is those 4 columns: the line is prose again */
	md_is("1.  ```\n    code\n    ```\n\tafter\n", "```\ncode\n```\n\nafter\n");
	/* a tab that overshoots the item's 2 columns cannot be dropped: 4 columns after a block is code */
	md_is("- ```\n  code\n  ```\n\tafter\n", "```\ncode\n```\n\n```\nafter\n```\n");
	/* blank lines inside an indented block stay in it */
	md_is("x\n\n    a\n\n\n    b\n", "x\n\n```\na\n\n\nb\n```\n");
	/* a list item after a tab is still a list item (no code block: no blank line before it) */
	md_is("a\n\t- b\n", "a\n\t- b\n");
	/* the block goes after a blank line whatever the buffer held before */
	char *got = md("x", "    code\n", 9);
	assert_string_equal(got, "x\n```\ncode\n```\n");
	free(got);
	got = md("xy", "    code\n", 9);
	assert_string_equal(got, "xy\n```\ncode\n```\n");
	free(got);
	got = md("x\n", "    code\n", 9);
	assert_string_equal(got, "x\n\n```\ncode\n```\n");
	free(got);
	got = md("x\n\n", "    code\n", 9);
	assert_string_equal(got, "x\n\n```\ncode\n```\n");
	free(got);
}

/* 18 nested list items: the writer tracks 16 levels; deeper items count as the 16th */
static void test_md_deep_lists(void **state)
{
	(void)state;
	struct txc_buf in = TXC_BUF_INIT, want = TXC_BUF_INIT;
	for (int k = 0; k < 18; k++) {
		txc_buf_addf(&in, "%*s- i%d\n", 2 * k, "", k);
		txc_buf_addf(&want, "%*s- i%d\n", 2 * k, "", k);
	}
	txc_buf_addf(&in, "\n%*scode\n", 40, "");
	txc_buf_addstr(&want, "\n```\n    code\n```\n");
	md_is(in.buf, want.buf);
	txc_buf_release(&in);
	txc_buf_release(&want);
}

/* links: an unsafe destination loses its "](", a link's extent keeps code spans out of it */
static void test_md_links(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		/* a title never closed before the text ends: no link, so the backtick pair is a span */
		{"[a](b \"t\n", "[a](b \"t\n"},
		{"[a](\n\nx)\n", "[a](\n\nx)\n"},
		{"[a](\tb)\n", "[a](\tb)\n"},
		/* "\c" is no escape: the destination has a '\\', which could spell a scheme */
		{"[a](b\\c) `x`\n", "[a]\\(b\\c) `x`\n"},
		/* titles in "", (), with escapes: the link ends at its ')', the span after it is kept */
		{"[a](b (t)) `x`\n", "[a](b (t)) `x`\n"},
		{"[a](b \"t\\x\") `y`\n", "[a](b \"t\\x\") `y`\n"},
		{"[a](b \"t\")x `c`\n", "[a](b \"t\")x `c`\n"},
		/* a '(' in a ( ) title, or text after the title: no link, the region runs to the paragraph's end */
		{"[a](b (t(x)) `z`\n", "[a](b (t(x)) \\`z\\`\n"},
		{"[a](b \"t\" x) `q`\n", "[a](b \"t\" x) \\`q\\`\n"},
		/* relative: '?' or '#' before any ':' is no scheme; "a:b" is one */
		{"[a](x?y:z) [b](#x:y) [c](a:b)\n", "[a](x?y:z) [b](#x:y) [c]\\(a:b)\n"},
		{"[a]: x/\n", "[a]: x/\n"},
		{"[a]: javascript:x\n", "[a]\\: javascript:x\n"},
		/* reference labels: to the next bracket, escapes skipped */
		{"[a][b[c] `x`\n", "[a][b[c] `x`\n"},
		{"[a][b\\]c] `y`\n", "[a][b\\]c] `y`\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		md_is(cases[i][0], cases[i][1]);
}

/* the scans that stop early so that hostile text stays linear */
static void test_md_long_scans(void **state)
{
	(void)state;
	struct txc_buf in = TXC_BUF_INIT, want = TXC_BUF_INIT;
	/* a title longer than 16 KiB: taken as no link, so the span after it is escaped */
	txc_buf_addstr(&in, "[a](b \"");
	for (int i = 0; i < 17000; i++)
		txc_buf_addch(&in, 'x');
	txc_buf_add(&want, in.buf, in.len);
	txc_buf_addstr(&in, "\") `c`\n");
	txc_buf_addstr(&want, "\") \\`c\\`\n");
	md_is(in.buf, want.buf);
	/* a definition's destination is judged by its first 4096 bytes: a 5000-byte word is no scheme */
	txc_buf_reset(&in);
	txc_buf_addstr(&in, "[a]: ");
	for (int i = 0; i < 5000; i++)
		txc_buf_addch(&in, 'x');
	txc_buf_addstr(&in, ":y\n");
	md_is(in.buf, in.buf);
	/* a label longer than 999 bytes is none: the span after it is kept */
	txc_buf_reset(&in);
	txc_buf_addstr(&in, "[a][");
	for (int i = 0; i < 1100; i++)
		txc_buf_addch(&in, 'b');
	txc_buf_addstr(&in, "] `c`\n");
	md_is(in.buf, in.buf);
	/* a run of more than 80 backticks never opens a span (cmark): every one escaped */
	txc_buf_reset(&in);
	txc_buf_reset(&want);
	for (int i = 0; i < 81; i++)
		txc_buf_addch(&in, '`'), txc_buf_addstr(&want, "\\`");
	txc_buf_addch(&in, 'a');
	txc_buf_addch(&want, 'a');
	for (int i = 0; i < 81; i++)
		txc_buf_addch(&in, '`'), txc_buf_addstr(&want, "\\`");
	txc_buf_addch(&in, '\n');
	txc_buf_addch(&want, '\n');
	md_is(in.buf, want.buf);
	txc_buf_release(&in);
	txc_buf_release(&want);
}

/* GFM tables: a '|' in a kept code span is escaped, so it does not split the cell */
static void test_md_tables(void **state)
{
	(void)state;
	md_is("a|b\n-\t|-\n`|x` | `a\\|b`\n", "a|b\n-\t|-\n`\\|x` | `a\\|b`\n");
	md_is("a~b ~~c~~ ~~~d\n", "a~b ~~c~~ \\~\\~\\~d\n");
}

int main(void)
{
	arena = txc_arena_new(0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_fields),    cmocka_unit_test(test_bash_and_edit_fields),
		cmocka_unit_test(test_walk),           cmocka_unit_test(test_image_ext),
		cmocka_unit_test(test_image_check),    cmocka_unit_test(test_clean_escapes),
		cmocka_unit_test(test_md_code_blocks), cmocka_unit_test(test_md_deep_lists),
		cmocka_unit_test(test_md_links),       cmocka_unit_test(test_md_long_scans),
		cmocka_unit_test(test_md_tables),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	txc_buf_release(&walk_log);
	txc_arena_free(arena);
	return rc;
}
