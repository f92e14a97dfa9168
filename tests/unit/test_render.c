/* test_render.c - the render layer the document writers share: pairing, filters, tool fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render.h"
#include "txc/model_hermes.h"

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
		for (size_t off = 0; off < 48; off++) { /* (past two blocks of the 16-byte scan, and its tail) */
			char in[48];
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
		/* an autolink lost its '<': its '>' is an entity, which ends a GFM autolink (none elsewhere) */
		{"see <https://a.b/c> and <www.x.y/z>.\n", "see &lt;https://a.b/c&gt; and &lt;www.x.y/z&gt;.\n"},
		{"<https://a.b/c\\>, a > b\n> q https://x\n", "&lt;https://a.b/c&gt;, a > b\n> q https://x\n"},
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
	/* (cmark-gfm: a table of two cells, <code>|x</code> and <code>a|b</code>; without the escape, "`" and "x`") */
	md_is("a|b\n:-|-\t\n`|x` | `a\\|b`\n", "a|b\n:-|-\t\n`\\|x` | `a\\|b`\n");
	md_is("a~b ~~c~~ ~~~d\n", "a~b ~~c~~ \\~\\~\\~d\n");
}

/* ---- the document writers on one transcript of odd but possible values ---- */

static char *write_with(const char *name, const struct txc_transcript *t, const struct txc_write_opts *o)
{
	const struct txc_writer_ops *w = txc_writer_lookup(name);
	struct txc_out out;
	struct txc_diag d = {0};
	assert_non_null(w);
	txc_out_init_buf(&out);
	assert_int_equal(w->write(&out, t, o, &d), 0);
	char *s = malloc(out.buf.len + 1);
	memcpy(s, out.buf.buf ? out.buf.buf : "", out.buf.len);
	s[out.buf.len] = '\0';
	txc_out_release(&out);
	return s;
}

static void has(const char *out, const char *want)
{
	if (strstr(out, want) == NULL)
		fail_msg("missing \"%s\" in:\n%s", want, out);
}

static void lacks(const char *out, const char *unwanted)
{
	if (strstr(out, unwanted) != NULL)
		fail_msg("unexpected \"%s\" in:\n%s", unwanted, out);
}

/* what --images files hands over */
static struct txc_buf assets_log;
static void put_asset(void *ctx, const char *name, const char *bytes, size_t n)
{
	(void)ctx;
	txc_buf_addf(&assets_log, "%s:%zu:%.*s;", name, n, (int)n, bytes);
}

/* no title, no id, an empty source, no start; calls whose inputs lack what their kind usually has */
struct odd {
	struct txc_block user[2], asst[12], res[4], img[3];
	struct txc_message m[6];
	struct txc_segment seg[2];
	struct txc_child child[2];
	struct txc_transcript t, sub;
	struct txc_message sub_m;
	struct txc_block sub_text;
};

static void odd_build(struct odd *x)
{
	memset(x, 0, sizeof(*x));
	x->user[0] = (struct txc_block){.kind = TXC_BLOCK_TEXT,
					.text = txc_str_c("hi \xd8\x9c\xe2\x80\x8f\xe2\x80\xa9 end\n")};
	x->user[1] = (struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c("second\n\n")};
	x->asst[0] = (struct txc_block){.kind = TXC_BLOCK_THINKING, .text = txc_str_c("hmm\nmore\n")};
	x->asst[1] = call(TXC_TOOL_BASH, "Bash", "b1", "{}");
	x->asst[2] = call(TXC_TOOL_BASH, "Bash", "b2", "{\"command\":\"make\\nmake install\"}");
	x->asst[3] = call(TXC_TOOL_READ, "Read", "r1", "{\"offset\":7}");
	x->asst[4] = call(TXC_TOOL_WRITE, "Write", "w1", "{}");
	x->asst[5] = call(TXC_TOOL_EDIT, "Edit", "e1", "{\"old_string\":\"a\",\"new_string\":\"b\"}");
	x->asst[6] = call(TXC_TOOL_RAW, "patch", "p1", "{\"path\":\"x.c\",\"patch\":\"+y\"}");
	x->asst[7] = call(TXC_TOOL_RAW, "patch", "p2",
			  "{\"patch\":\"*** Begin Patch\\n*** Update File: a.c\\n*** Add File:b.c\\n*** Delete File:\\n"
			  "*** Big: c\\n*** Long Thing: d\\n*** \\n+z\"}");
	x->asst[8] = (struct txc_block){
		.kind = TXC_BLOCK_TOOL_RESULT, .id = txc_str_c("zz"), .output_text = txc_str_c("stray")};
	x->asst[9] = (struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c("done")};
	x->asst[10] = call(TXC_TOOL_RAW, "Task", "t1", "{\"prompt\":\"go\"}");
	x->asst[10].name = TXC_STR_NULL;
	x->res[0] = (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT,
				       .id = txc_str_c("b2"),
				       .output_json = true,
				       .output_text = txc_str_c("{\"output\":\"built\",\"exit_code\":2}")};
	x->res[1] = (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT,
				       .id = txc_str_c("r1"),
				       .is_error = true,
				       .output_text = txc_str_c("no such file")};
	x->img[0] = (struct txc_block){
		.kind = TXC_BLOCK_IMAGE, .media_type = txc_str_c("image/png"), .data = txc_str_c("QUJD")};
	x->img[1] = (struct txc_block){
		.kind = TXC_BLOCK_IMAGE, .media_type = txc_str_c("image/gif"), .data = txc_str_c("QQ==")};
	x->img[2] = (struct txc_block){.kind = TXC_BLOCK_IMAGE, .data = txc_str_c("A")};
	x->m[0] = (struct txc_message){.role = TXC_ROLE_USER, .blocks = x->user, .n_blocks = 2, .number = 1};
	x->m[1] = (struct txc_message){.role = TXC_ROLE_ASSISTANT, .blocks = x->asst, .n_blocks = 11, .number = 2};
	x->m[2] = (struct txc_message){.role = TXC_ROLE_USER, .blocks = &x->res[0], .n_blocks = 1, .number = 3};
	x->m[3] = (struct txc_message){.role = TXC_ROLE_USER, .blocks = &x->res[1], .n_blocks = 1, .number = 4};
	x->m[4] = (struct txc_message){.role = TXC_ROLE_USER, .blocks = x->img, .n_blocks = 3, .number = 5};
	x->t = (struct txc_transcript){.messages = x->m, .n_messages = 5};
	x->t.meta.source = txc_str_c("");
	/* a chain of two: the second segment has no id, the first ended without a reason or a time */
	x->seg[0] = (struct txc_segment){.id = txc_str_c("root"), .started = 60, .first = 0};
	x->seg[1] = (struct txc_segment){.started = 120, .first = 4};
	x->t.segments = x->seg;
	x->t.n_segments = 2;
	/* children: one without id or title placed after the Task call, one with its transcript after the end */
	x->sub_text = (struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c("child says")};
	x->sub_m = (struct txc_message){.role = TXC_ROLE_ASSISTANT, .blocks = &x->sub_text, .n_blocks = 1};
	x->sub = (struct txc_transcript){.messages = &x->sub_m, .n_messages = 1};
	x->child[0] = (struct txc_child){.message = 1, .block = 10};
	x->child[1] = (struct txc_child){.id = txc_str_c("kid"), .message = 5, .t = &x->sub};
	x->t.children = x->child;
	x->t.n_children = 2;
}

static void test_terminal_odd(void **state)
{
	(void)state;
	struct odd x;
	odd_build(&x);
	struct txc_write_opts o = {.utc = true, .detail = TXC_DETAIL_FULL, .width = 5};
	char *s = write_with("terminal", &x.t, &o);
	/* no title or id: "session"; the empty source is no part of the line under it; width 5 is 20 */
	assert_memory_equal(s, "session\n", 8);
	has(s, " 5 messages\xc2\xa0\xc2\xb7 8\ntool calls\n\n");
	/* ALM, RLM and the paragraph separator are shown escaped, never sent */
	has(s, "  hi\n  \\u061c\\u200f\\u2029\n  end\n");
	/* full: the reasoning dimmed (without colour: as it is), its trailing newline dropped */
	has(s, "  \xe2\x96\xbe reasoning\n    hmm\n    more\n");
	/* a Bash call without a command; one of two lines: the first, then the whole under it */
	has(s, "  \xe2\x97\x8f Bash $ \n    (no result\n    recorded)\n"); /* a note broken between words */
	has(s, "  \xe2\x97\x8f Bash $ make \xe2\x80\xa6\n    make\n    make install\n");
	/* exit 2 without is_error: failed */
	has(s, "    \xe2\x9c\x97 failed \xc2\xb7 exit 2\n");
	/* cut to the width */
	has(s, "  \xe2\x97\x8f Read  (from lin\xe2\x80\xa6\n    \xe2\x9c\x97 error\n");
	has(s, "  \xe2\x97\x8f Write  (0 lines)\n    (no result\n    recorded)\n");
	has(s, "  \xe2\x97\x8f Edit +1 \xe2\x88\x92"
	       "1\n    -a\n    +b\n");
	has(s, "  \xe2\x97\x8f patch x.c\n    +y\n");
	/* a patch without a path: the files it names ("File:" needs 9 bytes before it) */
	has(s, "  \xe2\x97\x8f patch a.c, b.c, \n");
	/* a result in an assistant message: no "without a matching call" line */
	lacks(s, "without a matching call");
	has(s, "    \xe2\x94\x82 stray\n");
	/* a call without a name */
	has(s, "  \xe2\x97\x8f  {\"prompt\":\"go\"}\n");
	/* images: sizes from the base64 length, padding counted; no media type: not displayable */
	has(s,
	    "  [image 1: image/png, 3 B]\n  [image 2: image/gif, 1 B]\n  [image 3: , 0 B, not a displayable image]\n");
	/* segments at the minimum width: the second has no id, what ended the first is unknown */
	has(s,
	    "\xe2\x95\x90\xe2\x95\x90 Segment 2 of 2\xc2\xa0\xe2\x80\xa6\n   after an unknown\n   end at 1970-01-01\n"
	    "   00:02:00 UTC\n");
	/* a child without id or title: the line alone; --children off: the other named only */
	has(s, "  \xe2\x86\xb3 subagent session \n");
	has(s, "  \xe2\x86\xb3 subagent session kid\n");
	lacks(s, "child says");
	free(s);
	/* --follow: the first part keeps its blank line for the next part's heading */
	struct txc_write_part part = {0};
	o.part = &part;
	o.detail = TXC_DETAIL_NORMAL;
	x.t.n_children = 0;
	s = write_with("terminal", &x.t, &o);
	assert_string_equal(s + strlen(s) - 2, "\n\n");
	has(s, "  \xe2\x96\xb8 reasoning (2\n  lines; --detail\n  full shows it)\n"); /* at 20 columns: between words */
	free(s);
}

static void test_markdown_odd(void **state)
{
	(void)state;
	struct odd x;
	odd_build(&x);
	struct txc_write_opts o = {.utc = true, .images = TXC_IMAGES_FILES};
	char *s = write_with("markdown", &x.t, &o);
	has(s, "---\nid: null\ntitle: null\nsource: \"\"\n");
	has(s, "lineage:\n  - \"root\"\n  - \"\"\n");
	has(s, "\n# session\n");
	has(s, "## Segment 2 of 2 \xc2\xb7 `` \xc2\xb7 after an unknown end at 1970-01-01 00:02:00 UTC\n");
	/* --images files without a sink: inline */
	has(s, "![image 1](data:image/png;base64,QUJD)\n");
	has(s, "*Subagent session* ``\n");
	has(s, "*Subagent session* `kid`\n");
	/* the result in an assistant message: no "without a matching call" line */
	lacks(s, "without a matching call");
	free(s);
	/* with a sink: files, and base64 that only looks well-formed is no file */
	struct txc_asset_sink sink = {.put = put_asset, .assets_link = txc_str_c("a b")};
	struct txc_write_part part = {0};
	o.assets = &sink;
	o.part = &part;
	txc_buf_release(&assets_log);
	s = write_with("markdown", &x.t, &o);
	has(s, "![image 1](a%20b/image-1.png)\n\n![image 2](a%20b/image-2.gif)\n\n");
	assert_string_equal(assets_log.buf, "image-1.png:3:ABC;image-2.gif:1:A;");
	/* --follow: no trim of the blank lines at the end */
	assert_string_equal(s + strlen(s) - 2, "\n\n");
	free(s);
	x.img[0].data = txc_str_c("QUJ");
	s = write_with("markdown", &x.t, &o);
	has(s, "*[image 1: not valid base64 image data, omitted]*\n");
	free(s);
	/* --children: the child without id or title, its transcript folded */
	x.child[0].t = &x.sub;
	o.children = true;
	s = write_with("markdown", &x.t, &o);
	has(s, "<details><summary>Subagent session  \xc2\xb7 1 messages</summary>\n");
	free(s);
}

static void test_html_odd(void **state)
{
	(void)state;
	struct odd x;
	odd_build(&x);
	struct txc_write_opts o = {.utc = true, .images = TXC_IMAGES_FILES};
	char *s = write_with("html", &x.t, &o);
	has(s, "<title>session</title>");
	has(s, "img-src data:; ");
	has(s, "<div class=\"call\"><span class=\"name\">Read</span> (from line 7)</div>\n");
	has(s, "<div class=\"call\"><span class=\"name\">Write</span></div>\n<pre><code></code></pre>\n");
	has(s, "<div class=\"call\"><span class=\"name\">Edit</span> <span class=\"note\">+1 \xe2\x88\x92"
	       "1</span></div>\n");
	has(s, "<div class=\"call\"><span class=\"name\">patch</span> <code>x.c</code></div>\n");
	has(s, " \xc2\xb7 after an unknown end at 1970-01-01 00:02:00 UTC</h2>\n");
	has(s, "<p class=\"note child\">Subagent session <code></code></p>\n");
	has(s, "<figure><img alt=\"image 1\" src=\"data:image/png;base64,QUJD\"></figure>\n");
	lacks(s, "without a matching call");
	free(s);
	struct txc_asset_sink sink = {.put = put_asset, .assets_link = txc_str_c("p")};
	o.assets = &sink;
	x.img[0].data = txc_str_c("QUJ");
	txc_buf_release(&assets_log);
	s = write_with("html", &x.t, &o);
	has(s, "img-src data: 'self'; ");
	has(s, "<p class=\"note\">[image 1: not valid base64 image data, omitted]</p>\n");
	has(s, "<figure><img alt=\"image 2\" src=\"p/image-2.gif\"></figure>\n");
	assert_string_equal(assets_log.buf, "image-2.gif:1:A;");
	free(s);
	x.child[0].t = &x.sub;
	o.children = true;
	s = write_with("html", &x.t, &o);
	has(s, "<details class=\"child\"><summary>Subagent session <code></code> \xc2\xb7 1 messages</summary>\n");
	free(s);
}

/* ---- the Hermes writer: its own rows, edge values of the session and the chain ---- */

static int hermes_write(const struct txc_transcript *t, const struct txc_write_opts *o, char **out, struct txc_diag *d)
{
	struct txc_out b;
	txc_out_init_buf(&b);
	int rc = txc_writer_lookup("hermes")->write(&b, t, o, d);
	*out = malloc(b.buf.len + 1);
	memcpy(*out, b.buf.buf ? b.buf.buf : "", b.buf.len);
	(*out)[b.buf.len] = '\0';
	txc_out_release(&b);
	return rc;
}

static void hermes_is(const struct txc_transcript *t, const struct txc_write_opts *o, const char *want)
{
	struct txc_diag d = {0};
	char *got;
	assert_int_equal(hermes_write(t, o, &got, &d), 0);
	assert_string_equal(got, want);
	free(got);
}

static void test_hermes_edges(void **state)
{
	(void)state;
	struct txc_hermes_native nv = {.session = json("{}")}, seg_nv[2];
	struct txc_transcript t = {.native = &nv}, seg_t[2];
	struct txc_write_opts o = {0};
	/* no columns, no rows: "messages" is the first key */
	hermes_is(&t, &o, "{\"messages\": []}\n");
	/* bulk: last_active when the source has it, first when there are no columns */
	o.bulk = true;
	hermes_is(&t, &o, "{\"messages\": []}\n");
	nv.last_active = json("1.5");
	hermes_is(&t, &o, "{\"last_active\": 1.5, \"messages\": []}\n");
	o.bulk = false;
	hermes_is(&t, &o, "{\"messages\": []}\n");
	/* --follow, a later part: each active row a line of its own, nothing without rows */
	struct txc_write_part part = {.continued = true};
	o.part = &part;
	hermes_is(&t, &o, "");
	nv.rows = json("[{\"id\":1,\"active\":0},{\"id\":2,\"content\":\"\\u00e9\"}]");
	hermes_is(&t, &o, "{\"id\": 2, \"content\": \"\xc3\xa9\"}\n");
	o.part = NULL;
	/* a chain whose second session has no id and no rows: null in lineage_session_ids */
	seg_nv[0] = (struct txc_hermes_native){.session = json("{\"id\":\"a\",\"message_count\":9}"),
					       .rows = json("[{\"id\":1},{\"id\":2,\"active\":0}]")};
	seg_nv[1] = (struct txc_hermes_native){.session = json("{\"title\":\"b\"}")};
	seg_t[0] = (struct txc_transcript){.native = &seg_nv[0]};
	seg_t[1] = (struct txc_transcript){.native = &seg_nv[1]};
	struct txc_segment segs[2] = {{.t = &seg_t[0]}, {.t = &seg_t[1]}};
	nv.session = json("{\"id\":\"b\",\"message_count\":0}");
	t.segments = segs;
	t.n_segments = 2;
	hermes_is(&t, &o,
		  "{\"id\": \"b\", \"message_count\": 1, \"messages\": [{\"id\": 1}], \"segments\": [{\"id\": \"a\", "
		  "\"message_count\": 9, \"messages\": [{\"id\": 1}]}, {\"title\": \"b\", \"messages\": []}], "
		  "\"lineage_session_ids\": [\"a\", null]}\n");
	/* a session of the chain from a harness without rows: its rows made from its model (hermes_rows.c) */
	struct txc_diag d = {0};
	char *got;
	seg_t[1].native = NULL;
	assert_int_equal(hermes_write(&t, &o, &got, &d), TXC_OK);
	assert_non_null(strstr(got, "{\"id\": null, \"source\": null, \"model\": null, \"started_at\": 0.0, "));
	free(got);
	/* rows without a session row: refused */
	seg_nv[1].session = NULL;
	seg_t[1].native = &seg_nv[1];
	assert_int_equal(hermes_write(&t, &o, &got, &d), TXC_E_USAGE);
	assert_string_equal(d.msg, "the hermes format needs every session of the chain read from Hermes");
	free(got);
	/* the session itself without its session row */
	nv.session = NULL;
	memset(&d, 0, sizeof(d));
	assert_int_equal(hermes_write(&t, &o, &got, &d), TXC_E_USAGE);
	assert_string_equal(got, "");
	assert_string_equal(d.msg, "the hermes format needs a session read from Hermes (its own rows)");
	free(got);
}

/* ---- render.c: fields and results from inputs that lack or mistype a member ---- */

static void test_fields_odd_inputs(void **state)
{
	(void)state;
	struct txc_tool_fields f;
	struct txc_buf d = TXC_BUF_INIT;
	/* an Edit without old_string: only "+" lines; a MultiEdit without edits: no diff */
	struct txc_block b = call(TXC_TOOL_EDIT, "Edit", "c", "{\"file_path\":\"/f\",\"new_string\":\"x\\ny\"}");
	txc_render_tool_fields(&b, &f);
	assert_int_equal(f.removed, 0);
	assert_int_equal(f.added, 2);
	txc_render_edit_diff(&d, &b);
	assert_string_equal(d.buf, "+x\n+y\n");
	txc_buf_reset(&d);
	b = call(TXC_TOOL_MULTIEDIT, "MultiEdit", "c", "{\"file_path\":\"/f\"}");
	txc_render_tool_fields(&b, &f);
	txc_render_edit_diff(&d, &b);
	assert_int_equal(d.len, 0);
	assert_int_equal(f.added + f.removed, 0);
	txc_buf_release(&d);
	/* a limit that is no integer: from the offset on */
	b = call(TXC_TOOL_READ, "Read", "c", "{\"file_path\":\"/x\",\"offset\":3,\"limit\":\"9\"}");
	txc_render_tool_fields(&b, &f);
	assert_int_equal(f.lines, TXC_LINES_FROM);
	assert_int_equal(f.line_from, 3);
	/* a timeout as a string is no timeout */
	b = call(TXC_TOOL_BASH, "Bash", "c", "{\"command\":\"x\",\"timeout_ms\":\"5\"}");
	txc_render_tool_fields(&b, &f);
	assert_null(f.timeout_ms);
	assert_false(f.background);
	/* a patch call with a file_path: that is its path, not "path" */
	b = call(TXC_TOOL_RAW, "patch", "c", "{\"file_path\":\"f.c\",\"path\":\"p.c\",\"patch\":\"+\"}");
	txc_render_tool_fields(&b, &f);
	assert_string_equal(f.path.ptr, "f.c");
	char ext[16];
	txc_render_image_ext(ext, txc_str_c("image/x~y"));
	assert_string_equal(ext, "x");
}

static void result_is(const char *output, bool as_json, const struct txc_write_opts *o, const char *body,
		      const char *lang, size_t cut)
{
	struct txc_block res = {
		.kind = TXC_BLOCK_TOOL_RESULT, .output_text = txc_str_c(output), .output_json = as_json};
	struct txc_render_result r;
	txc_render_result_init(&r, &res, o);
	/* the body is its first len bytes (a cut shortens len only) */
	assert_int_equal(r.body.len, strlen(body));
	assert_memory_equal(r.body.len ? r.body.buf : "", body, r.body.len);
	assert_string_equal(r.lang, lang);
	assert_int_equal(r.cut, cut);
	txc_render_result_release(&r);
}

static void test_result_shapes(void **state)
{
	(void)state;
	struct txc_write_opts o = {.detail = TXC_DETAIL_FULL};
	/* {output, error}: both, on their own lines; an empty error adds nothing */
	result_is("{\"output\":\"a\",\"error\":\"e\"}", true, &o, "a\ne", "text", 0);
	result_is("{\"output\":\"a\",\"error\":\"\"}", true, &o, "a", "text", 0);
	result_is("{\"output\":\"\",\"error\":\"e\"}", true, &o, "e", "text", 0);
	/* more than the four known members: the whole object, as JSON */
	result_is("{\"output\":\"a\",\"b\":1,\"c\":2,\"d\":3,\"e\":4}", true, &o,
		  "{\n  \"output\": \"a\",\n  \"b\": 1,\n  \"c\": 2,\n  \"d\": 3,\n  \"e\": 4\n}", "json", 0);
	/* normal detail with a line limit: the first lines, the rest counted */
	o.detail = TXC_DETAIL_NORMAL;
	o.max_output_lines = 2;
	result_is("1\n2\n3\n4\n", false, &o, "1\n2", "text", 2);
	result_is("1\n2\n", false, &o, "1\n2", "text", 0);
}

/* ---- the walker with a partial handler table: what it has no handler for is skipped ---- */

static void on_msg_end(void *ctx, const struct txc_message *m)
{
	(void)m;
	logf_(ctx, "/");
}
static void on_image_log(void *ctx, const struct txc_block *b)
{
	txc_buf_addf(ctx, "img:%s ", b->media_type.ptr);
}
static void on_segment_log(void *ctx, const struct txc_segment *s, size_t index, size_t n)
{
	txc_buf_addf(ctx, "seg:%s:%zu/%zu ", s->id.ptr, index + 1, n);
}
static void on_child_log(void *ctx, const struct txc_child *c)
{
	txc_buf_addf(ctx, "child:%s ", c->id.ptr);
}

static const struct txc_render_ops sparse_ops = {
	.message_end = on_msg_end,
	.image = on_image_log,
	.segment = on_segment_log,
	.child = on_child_log,
};

static const char *walk_ops(const struct txc_transcript *t, const struct txc_write_opts *o,
			    const struct txc_render_ops *ops)
{
	struct txc_out out;
	txc_buf_release(&walk_log);
	txc_out_init_buf(&out);
	txc_render_walk(&out, t, o, ops, &walk_log);
	txc_out_release(&out);
	return walk_log.buf ? walk_log.buf : "";
}

static void test_walk_sparse(void **state)
{
	(void)state;
	struct txc_block ub[3] = {
		{.kind = TXC_BLOCK_TEXT, .text = txc_str_c("hi")},
		{.kind = TXC_BLOCK_THINKING, .text = txc_str_c("user thinking is not shown")},
		call(TXC_TOOL_RAW, "t", "U", "{}"), /* a call in a user message is not walked */
	};
	struct txc_block ab[3] = {
		{.kind = TXC_BLOCK_THINKING, .text = txc_str_c("hmm")},
		call(TXC_TOOL_RAW, "t", "A", "{}"),
		{.kind = TXC_BLOCK_IMAGE, .media_type = txc_str_c("image/png")},
	};
	struct txc_block ra = result("A", "rA"), ru = result("U", "rU");
	struct txc_message m[] = {
		{.role = TXC_ROLE_USER, .blocks = ub, .n_blocks = 3},
		{.role = TXC_ROLE_ASSISTANT, .blocks = ab, .n_blocks = 3},
		{.role = TXC_ROLE_USER, .blocks = &ra, .n_blocks = 1},
		{.role = TXC_ROLE_USER, .blocks = &ru, .n_blocks = 1},
	};
	/* three segments, the last without messages; children after the call, after the end, and unplaced */
	struct txc_segment segs[3] = {
		{.id = txc_str_c("s1")}, {.id = txc_str_c("s2"), .first = 2}, {.id = txc_str_c("s3"), .first = 9}};
	struct txc_child kids[3] = {{.id = txc_str_c("k1"), .message = 1, .block = 1},
				    {.id = txc_str_c("k2"), .message = 4},
				    {.id = txc_str_c("k3"), .message = 0, .block = 2}};
	struct txc_transcript t = {
		.messages = m, .n_messages = 4, .segments = segs, .n_segments = 3, .children = kids, .n_children = 3};
	struct txc_write_opts o = {0};
	/* the user's call U is never walked, so its result shows alone; k3 (at it) comes at the end */
	assert_string_equal(walk_ops(&t, &o, &sparse_ops),
			    "seg:s1:1/3 / child:k1 img:image/png / seg:s2:2/3 / seg:s3:3/3 child:k2 child:k3 ");
	assert_string_equal(walk(&t, TXC_DETAIL_NORMAL, false), "doc(4,2) U hi A think call:A->rA R orphan:rU end ");
	/* prompts: no children at all */
	o.detail = TXC_DETAIL_PROMPTS;
	assert_string_equal(walk_ops(&t, &o, &sparse_ops), "seg:s1:1/3 / seg:s2:2/3 seg:s3:3/3 ");
	/* --follow into a continuation: its heading first, when the writer has segment headings */
	struct txc_write_part part = {.continued = true, .begins = &segs[1], .segment = 1};
	o.detail = TXC_DETAIL_NORMAL;
	o.part = &part;
	t.n_segments = 0;
	t.n_children = 0;
	assert_string_equal(walk_ops(&t, &o, &sparse_ops), "seg:s2:2/2 / img:image/png / / ");
	assert_string_equal(walk_ops(&t, &o, &log_ops), "U hi A think call:A->rA R orphan:rU ");
}

/* ---- characters each format must not pass on as they are ---- */

static void test_specials(void **state)
{
	(void)state;
	struct txc_block b[3] = {{.kind = TXC_BLOCK_TEXT, .text = txc_str_c("x \xef\xbb\xbf y \xc2\x85 z")},
				 {.kind = TXC_BLOCK_TEXT},
				 call(TXC_TOOL_EDIT, "Edit", "e", "{}")};
	struct txc_message m = {.role = TXC_ROLE_ASSISTANT, .blocks = b, .n_blocks = 3};
	struct txc_transcript t = {.messages = &m, .n_messages = 1};
	t.meta.title = txc_str_c("t\xef\xbf\xbe\xef\xbf\xbf\xe2\x80\xa8\xe2\x80\xa9\xc2\x85\xef\xbb\xbf");
	struct txc_write_opts o = {.utc = true};
	/* YAML: noncharacters, line separators, C1 and the BOM as \u escapes */
	char *s = write_with("markdown", &t, &o);
	has(s, "\ntitle: \"t\\ufffe\\uffff\\u2028\\u2029\\u0085\\ufeff\"\n");
	free(s);
	/* HTML: a BOM and C1 controls as U+FFFD; a text block without text is an empty one; an Edit without
	 * strings counts nothing and shows an empty diff */
	s = write_with("html", &t, &o);
	has(s,
	    "<div class=\"text md\">\n<p>x \xef\xbf\xbd y \xef\xbf\xbd z</p>\n</div>\n<div class=\"text md\">\n</div>\n");
	has(s, "<span class=\"note\">+0 \xe2\x88\x92"
	       "0</span></div>\n<pre class=\"lang-diff\"><code></code></pre>\n");
	free(s);
}

/* the archive's index page: rows without title, id, start or cost; one session */
static void test_html_index(void **state)
{
	(void)state;
	struct txc_index_entry e[2] = {
		{.path = txc_str_c("a b.html"), .messages = 3},
		{.path = txc_str_c("c.html"),
		 .id = txc_str_c("id<1>"),
		 .started = txc_str_c("2026-01-02"),
		 .cost = txc_str_c("0.7200177600000001"),
		 .source = txc_str_c("hermes"),
		 .model = txc_str_c("m"),
		 .messages = 25000},
	};
	struct txc_buf b = TXC_BUF_INIT;
	txc_writer_lookup("html")->index(&b, e, 1);
	has(b.buf, "<p>1 session exported by txc.</p>\n");
	has(b.buf,
	    "<tr><td data-key=\"session\"><a href=\"./a%20b.html\">session</a></td><td class=\"d\" data-key=\"\"></td>"
	    "<td class=\"src\" data-key=\"\"></td><td class=\"mdl\" data-key=\"\"></td><td class=\"n\" data-key=\"3\">3</td>"
	    "<td class=\"n\" data-key=\"-1\"></td></tr>\n");
	txc_buf_reset(&b);
	txc_writer_lookup("html")->index(&b, e, 2);
	has(b.buf, "<p>2 sessions exported by txc.</p>\n");
	has(b.buf,
	    "<tr><td data-key=\"id&lt;1&gt;\"><a href=\"./c.html\">id&lt;1&gt;</a></td>"
	    "<td class=\"d\" data-key=\"2026-01-02\">2026-01-02</td><td class=\"src\" data-key=\"hermes\">hermes</td>"
	    "<td class=\"mdl\" data-key=\"m\">m</td>"
	    "<td class=\"n\" data-key=\"25000\">25,000</td><td class=\"n\" data-key=\"0.7200177600000001\">"
	    "<span title=\"$0.7200177600000001\">$0.72</span></td></tr>\n");
	/* an untitled session by its first words; less than a cent */
	txc_buf_reset(&b);
	e[0].preview = txc_str_c("fix the <b> bug");
	e[0].cost = txc_str_c("0.004");
	txc_writer_lookup("html")->index(&b, e, 1);
	has(b.buf, "<a class=\"pv\" href=\"./a%20b.html\">fix the &lt;b&gt; bug</a>");
	has(b.buf, "<span title=\"$0.004\">&lt;$0.01</span>");
	txc_buf_release(&b);
}

/* the terminal's image line: the decoded size from the base64 length, in B, KB or MB */
static void test_terminal_images(void **state)
{
	(void)state;
	static const struct {
		size_t len;
		const char *tail, *want;
	} cases[] = {
		{0, "==", "  [image 1: image/png, 0 B]\n"},
		{2000, "", "  [image 1: image/png, 1.5 KB]\n"},
		{2000000, "=", "  [image 1: image/png, 1.4 MB]\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct txc_buf data = TXC_BUF_INIT;
		for (size_t k = 0; k < cases[i].len; k++)
			txc_buf_addch(&data, 'A');
		txc_buf_addstr(&data, cases[i].tail);
		struct txc_block img = {
			.kind = TXC_BLOCK_IMAGE, .media_type = txc_str_c("image/png"), .data = {data.buf, data.len}};
		/* a reasoning block of one empty line: folded, zero lines */
		struct txc_block more[1] = {{.kind = TXC_BLOCK_THINKING, .text = txc_str_c("\n")}};
		struct txc_message m[2] = {{.role = TXC_ROLE_USER, .blocks = &img, .n_blocks = 1, .number = 1},
					   {.role = TXC_ROLE_ASSISTANT, .blocks = more, .n_blocks = 1, .number = 2}};
		struct txc_transcript t = {.messages = m, .n_messages = 2};
		t.meta.started_at = 86400;
		struct txc_write_opts o = {.utc = true, .width = 40};
		char *s = write_with("terminal", &t, &o);
		/* no id, source or model: the start first */
		assert_memory_equal(s, "session\nstarted 1970-01-02 00:00:00 UTC\n", 39);
		has(s, cases[i].want);
		assert_string_equal(strstr(s, "\xe2\x94\x80\n  \xe2\x96\xb8 reasoning"),
				    "\xe2\x94\x80\n  \xe2\x96\xb8 reasoning (0 lines; --detail full\n  shows it)\n");
		free(s);
		txc_buf_release(&data);
	}
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
		cmocka_unit_test(test_md_code_blocks),
		cmocka_unit_test(test_md_deep_lists),
		cmocka_unit_test(test_md_links),
		cmocka_unit_test(test_md_long_scans),
		cmocka_unit_test(test_md_tables),
		cmocka_unit_test(test_terminal_odd),
		cmocka_unit_test(test_markdown_odd),
		cmocka_unit_test(test_html_odd),
		cmocka_unit_test(test_hermes_edges),
		cmocka_unit_test(test_fields_odd_inputs),
		cmocka_unit_test(test_result_shapes),
		cmocka_unit_test(test_walk_sparse),
		cmocka_unit_test(test_specials),
		cmocka_unit_test(test_html_index),
		cmocka_unit_test(test_terminal_images),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	txc_buf_release(&walk_log);
	txc_buf_release(&assets_log);
	txc_arena_free(arena);
	return rc;
}
