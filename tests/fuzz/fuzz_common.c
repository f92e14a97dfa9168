/* fuzz_common.c - run every writer over every session of a store, check the output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "txc/model_claude.h"
#include "txc/reader.h"
#include "txc/writer.h"

static void fail(const char *what, const char *writer)
{
	fprintf(stderr, "fuzz: %s from writer %s\n", what, writer);
	abort();
}

static void check_json_lines(const struct txc_buf *b, const char *writer)
{
	struct txc_arena *a = txc_arena_new(0);
	const char *p = b->buf, *end = b->buf + b->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			fail("a JSON line without its newline", writer);
		const struct txc_json *v;
		if (txc_json_parse(a, p, (size_t)(nl - p), &v) != 0)
			fail("an invalid JSON line", writer);
		p = nl + 1;
	}
	txc_arena_free(a);
}

/* an HTML page: whole, and its one script is its own (text never opens a tag of its own) */
static void check_html(const struct txc_buf *b, const char *writer)
{
	const char *end = "</html>\n";
	size_t n_open = 0;
	for (const char *p = b->buf; (p = strstr(p, "<script")) != NULL; p++)
		n_open++;
	if (b->len < 20 || strncmp(b->buf, "<!DOCTYPE html>\n", 16) != 0 ||
	    strcmp(b->buf + b->len - strlen(end), end) != 0)
		fail("a page not whole", writer);
	if (n_open != 1)
		fail("a page without exactly one <script", writer);
}

/* a terminal writer: no control byte but '\n', and ESC only to open its own SGR colours */
static void check_terminal(const struct txc_buf *b, const char *writer, bool color)
{
	for (size_t i = 0; i < b->len; i++) {
		unsigned char c = (unsigned char)b->buf[i];
		if (c == 0x1B && color && i + 1 < b->len && b->buf[i + 1] == '[') {
			size_t j = i + 2;
			while (j < b->len && ((b->buf[j] >= '0' && b->buf[j] <= '9') || b->buf[j] == ';'))
				j++;
			if (j < b->len && b->buf[j] == 'm') {
				i = j;
				continue;
			}
		}
		if ((c < 0x20 && c != '\n') || c == 0x7F)
			fail("a raw control byte", writer);
	}
}

static void run_writer(const struct txc_writer_ops *w, const struct txc_transcript *t, const struct txc_write_opts *o)
{
	struct txc_out out;
	struct txc_diag d = {0};
	txc_out_init_buf(&out);
	if (w->write(&out, t, o, &d) == 0) {
		if (!txc_utf8_valid(out.buf.buf, out.buf.len))
			fail("invalid UTF-8", w->name);
		if (strcmp(w->name, "html") == 0)
			check_html(&out.buf, w->name);
		else if (strcmp(w->ext, "jsonl") == 0)
			check_json_lines(&out.buf, w->name);
		if (w->caps & TXC_WCAP_TERMINAL)
			check_terminal(&out.buf, w->name, o->color);
	}
	txc_out_release(&out);
}

static void run_all(const struct txc_transcript *t)
{
	size_t n;
	const struct txc_writer_ops *const *ws = txc_writer_all(&n);
	struct txc_write_opts o = {0};
	o.max_output_lines = 3;
	o.utc = true;
	o.images = TXC_IMAGES_INLINE;
	for (size_t i = 0; i < n; i++)
		run_writer(ws[i], t, &o);
	o.bulk = true;
	o.reasoning = TXC_REASONING_TEXT;
	o.detail = TXC_DETAIL_BRIEF;
	o.include_compacted = true;
	o.images = TXC_IMAGES_OMIT;
	o.cwd = txc_str_c("/tmp");
	for (size_t i = 0; i < n; i++)
		run_writer(ws[i], t, &o);
	o.detail = TXC_DETAIL_FULL;
	o.reasoning = TXC_REASONING_DROP;
	o.color = true;
	o.width = 20;
	for (size_t i = 0; i < n; i++)
		run_writer(ws[i], t, &o);
	o.detail = TXC_DETAIL_PROMPTS;
	for (size_t i = 0; i < n; i++)
		run_writer(ws[i], t, &o);
}

void fuzz_check_store(struct txc_store *s)
{
	struct txc_diag d = {0};
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *list;
	size_t n_list;
	if (txc_store_sessions(s, TXC_LIST_ARCHIVED, a, &list, &n_list, &d) != 0)
		list = NULL;
	struct txc_sid *ids = NULL;
	size_t n = 0;
	if (txc_store_export_order(s, &ids, &n, &d) == 0) {
		for (size_t i = 0; i < n && i < 8; i++) {
			struct txc_sid id = {0};
			char *arg = txc_xstrndup(ids[i].text.ptr, ids[i].text.len);
			if (txc_store_resolve(s, arg, &id, &d) == 0)
				txc_sid_release(&id);
			free(arg);
			for (unsigned flags = 0; flags < 4; flags++) {
				struct txc_transcript *t;
				if (txc_store_load(s, &ids[i], flags, &t, &d) != 0)
					continue;
				run_all(t);
				txc_transcript_free(t);
			}
		}
		txc_store_free_ids(ids, n);
	}
	txc_arena_free(a);
}

void fuzz_put_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0)
		abort();
}

/* the live assistant messages' tool calls, one string (texts may change: an image becomes a note) */
static void shape(const struct txc_transcript *t, struct txc_buf *b)
{
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		if (m->compacted || m->role != TXC_ROLE_ASSISTANT)
			continue;
		for (size_t k = 0; k < m->n_blocks; k++) {
			const struct txc_block *blk = &m->blocks[k];
			if (blk->kind == TXC_BLOCK_TOOL_USE)
				txc_buf_addf(b, "call %.*s\n", (int)blk->name.len, blk->name.ptr);
		}
	}
}

/* what the Claude writer makes of t, read back, has t's shape */
void fuzz_claude_round_trip(const struct txc_transcript *t)
{
	size_t n;
	const struct txc_writer_ops *const *ws = txc_writer_all(&n);
	const struct txc_writer_ops *claude = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(ws[i]->name, "claude") == 0)
			claude = ws[i];
	struct txc_out out;
	struct txc_diag d = {0};
	struct txc_write_opts o = {0};
	txc_out_init_buf(&out);
	if (claude == NULL || claude->write(&out, t, &o, &d) != 0)
		abort();
	struct txc_transcript *back = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(back);
	const char *p = out.buf.buf, *end = out.buf.buf + out.buf.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL || txc_claude_add_line(b, p, (size_t)(nl - p)) < 0)
			abort(); /* txc's own output is whole JSON lines */
		p = nl + 1;
	}
	txc_claude_end(b, NULL);
	struct txc_buf x = TXC_BUF_INIT, y = TXC_BUF_INIT;
	shape(t, &x);
	shape(back, &y);
	if (x.len != y.len || (x.len && memcmp(x.buf, y.buf, x.len) != 0)) {
		fprintf(stderr, "fuzz: the Claude round trip changed the turns:\n%.*s---\n%.*s", (int)x.len,
			x.buf ? x.buf : "", (int)y.len, y.buf ? y.buf : "");
		abort();
	}
	txc_buf_release(&x);
	txc_buf_release(&y);
	txc_transcript_free(back);
	txc_out_release(&out);
}
