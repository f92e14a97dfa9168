/*
 * writer_terminal.c - a session to read in a terminal (`txc view`): coloured
 * role headings with message numbers and times, text wrapped to a width,
 * reasoning folded (normal) or dimmed (full), each tool call one typed header
 * line with its result indented under it, images as a placeholder line.
 *
 * Safety: its bytes go to the terminal as they are (TXC_WCAP_TERMINAL), so
 * every byte from the transcript passes through unit(): controls, C1, bidi
 * controls and line separators are shown escaped (\x1b, \u202e), invalid
 * UTF-8 as \xNN; the only escape sequences are its own SGR colours, and only
 * with o->color.  Widths come from txc_utf8_width (no locale).
 */
#include <stdio.h>
#include <string.h>

#include "render.h"

enum { MIN_WIDTH = 20, MAX_WIDTH = 1000, INDENT = 2, RESULT_INDENT = 4, CHILD_INDENT = INDENT + 2 };

struct term {
	struct txc_out *out;
	struct txc_buf *b;
	const struct txc_transcript *t;
	const struct txc_write_opts *o;
	size_t width;
	size_t image_no;
};

/* ---- colour ---- */

static void sgr(struct term *T, const char *code)
{
	if (T->o->color)
		txc_buf_addf(T->b, "\x1b[%sm", code);
}

static void sgr_end(struct term *T)
{
	if (T->o->color)
		txc_buf_addstr(T->b, "\x1b[m");
}

/* ---- one code point as shown: escaped when it could drive the terminal ---- */

static bool must_escape(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	       cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The unit at p[i]: its shown bytes into out, its columns into *cols; returns the bytes it used. */
static size_t unit(const char *p, size_t len, size_t i, char out[16], size_t *olen, size_t *cols)
{
	uint32_t cp;
	size_t n = txc_utf8_seq((const unsigned char *)p + i, len - i, &cp);
	if (n == 0) {
		*olen = (size_t)snprintf(out, 16, "\\x%02x", (unsigned char)p[i]);
		*cols = *olen;
		return 1;
	}
	if (must_escape(cp)) {
		*olen = (size_t)snprintf(out, 16, cp < 0x80 ? "\\x%02x" : "\\u%04x", (unsigned)cp);
		*cols = *olen;
		return n;
	}
	memcpy(out, p + i, n);
	*olen = n;
	*cols = (size_t)txc_utf8_width(cp);
	return n;
}

/* columns of p shown on one line */
static size_t cols_of(const char *p, size_t len)
{
	size_t c = 0, i = 0;
	while (i < len) {
		char u[16];
		size_t ol, w;
		i += unit(p, len, i, u, &ol, &w);
		c += w;
	}
	return c;
}

/* p on one line at most max columns (line breaks and tabs as spaces), cut with "…"; the columns used */
static size_t put_clip(struct term *T, const char *p, size_t len, size_t max)
{
	size_t used = 0, i = 0;
	bool cut = cols_of(p, len) > max;
	size_t room = cut ? (max ? max - 1 : 0) : max;
	while (i < len) {
		char u[16];
		size_t ol, w;
		size_t n = p[i] == '\n' || p[i] == '\t' ? 1 : unit(p, len, i, u, &ol, &w);
		if (n == 1 && (p[i] == '\n' || p[i] == '\t')) {
			u[0] = ' ';
			ol = w = 1;
		}
		if (used + w > room)
			break;
		txc_buf_add(T->b, u, ol);
		used += w;
		i += n;
	}
	if (cut && max) {
		txc_buf_addstr(T->b, "…");
		used++;
	}
	return used;
}

static void spaces(struct txc_buf *b, size_t n)
{
	while (n--)
		txc_buf_addch(b, ' ');
}

/* ---- wrapping ---- */

/* message text as typed, CRLF as LF: every other control stays, to be shown escaped */
static void crlf(struct txc_buf *out, const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!(p[i] == '\r' && i + 1 < len && p[i + 1] == '\n'))
			txc_buf_addch(out, p[i]);
}

/* one line (no '\n') with tabs expanded to stops of 8 */
static void expand_tabs(struct txc_buf *out, const char *p, size_t len)
{
	size_t col = 0;
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '\t') {
			do
				txc_buf_addch(out, ' ');
			while (++col % 8);
		} else {
			txc_buf_addch(out, p[i]);
			col += ((unsigned char)p[i] & 0xC0) != 0x80;
		}
	}
}

/* a word wider than the line: broken wherever the line is full */
static void put_long_word(struct term *T, const char *w, size_t len, size_t indent, size_t *col)
{
	size_t i = 0;
	while (i < len) {
		char u[16];
		size_t ol, cw;
		size_t n = unit(w, len, i, u, &ol, &cw);
		if (*col + cw > T->width && *col > indent) {
			txc_buf_addch(T->b, '\n');
			spaces(T->b, indent);
			*col = indent;
		}
		txc_buf_add(T->b, u, ol);
		*col += cw;
		i += n;
	}
}

/* one line of prose, word-wrapped at T->width, each line indented */
static void wrap_line(struct term *T, const char *p, size_t len, size_t indent)
{
	size_t col = indent, i = 0;
	spaces(T->b, indent);
	while (i < len) {
		size_t gap = 0;
		while (i + gap < len && p[i + gap] == ' ')
			gap++;
		size_t ws = i + gap, we = ws;
		while (we < len && p[we] != ' ')
			we++;
		if (we == ws) /* trailing spaces: dropped */
			break;
		size_t w = cols_of(p + ws, we - ws);
		if (col > indent && col + gap + w > T->width) {
			txc_buf_addch(T->b, '\n');
			spaces(T->b, indent);
			col = indent;
		} else {
			spaces(T->b, gap);
			col += gap;
		}
		put_long_word(T, p + ws, we - ws, indent, &col);
		i = we;
	}
	txc_buf_addch(T->b, '\n');
}

/* text: each of its lines word-wrapped */
static void wrap_text(struct term *T, const char *p, size_t len, size_t indent)
{
	struct txc_buf line = TXC_BUF_INIT;
	const char *end = p + len;
	while (p <= end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		txc_buf_reset(&line);
		expand_tabs(&line, p, (size_t)(le - p));
		wrap_line(T, line.buf, line.len, indent);
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	txc_buf_release(&line);
}

/* a diff's line coloured as git colours it (headers bold, hunks cyan, - red, + green); NULL: plain */
static const char *diff_color(const char *p, size_t len)
{
	if (len >= 3 && (memcmp(p, "---", 3) == 0 || memcmp(p, "+++", 3) == 0))
		return "1";
	return len == 0 ? NULL : *p == '@' ? "36" : *p == '-' ? "31" : *p == '+' ? "32" : NULL;
}

/* a result's line: prefixed, broken hard at the width (output keeps its spacing); color: its SGR or NULL */
static void result_line(struct term *T, const char *p, size_t len, const char *color)
{
	struct txc_buf line = TXC_BUF_INIT;
	expand_tabs(&line, p, len);
	size_t start = RESULT_INDENT + 2, col = start, i = 0;
	spaces(T->b, RESULT_INDENT);
	sgr(T, "2");
	txc_buf_addstr(T->b, "│");
	sgr_end(T);
	txc_buf_addch(T->b, ' ');
	if (color)
		sgr(T, color);
	while (i < line.len) {
		char u[16];
		size_t ol, cw;
		size_t n = unit(line.buf, line.len, i, u, &ol, &cw);
		if (col + cw > T->width && col > start) {
			if (color)
				sgr_end(T);
			txc_buf_addch(T->b, '\n');
			spaces(T->b, RESULT_INDENT);
			sgr(T, "2");
			txc_buf_addstr(T->b, "│");
			sgr_end(T);
			txc_buf_addch(T->b, ' ');
			if (color)
				sgr(T, color);
			col = start;
		}
		txc_buf_add(T->b, u, ol);
		col += cw;
		i += n;
	}
	if (color)
		sgr_end(T);
	txc_buf_addch(T->b, '\n');
	txc_buf_release(&line);
}

static void result_body(struct term *T, const char *p, size_t len, bool diff)
{
	const char *end = p + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		result_line(T, p, (size_t)(le - p), diff ? diff_color(p, (size_t)(le - p)) : NULL);
		p = nl ? nl + 1 : end;
	}
}

/* ---- tool calls ---- */

static const char *first_line(struct txc_str s, size_t *len, bool *more)
{
	const char *nl = s.ptr ? memchr(s.ptr, '\n', s.len) : NULL;
	*len = nl ? (size_t)(nl - s.ptr) : s.len;
	*more = nl != NULL && (size_t)(nl - s.ptr) + 1 < s.len;
	return s.ptr ? s.ptr : "";
}

/* the files a patch names ("*** Update File: a.c"), comma-separated */
static void patch_files(struct txc_buf *s, struct txc_str patch)
{
	const char *p = patch.ptr, *end = patch.ptr + patch.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *f =
			(size_t)(le - p) > 4 && memcmp(p, "*** ", 4) == 0 ? memchr(p, ':', (size_t)(le - p)) : NULL;
		if (f != NULL && f - p >= 9 && memcmp(f - 4, "File", 4) == 0) {
			if (s->len)
				txc_buf_addstr(s, ", ");
			f += f + 1 < le && f[1] == ' ' ? 2 : 1;
			txc_buf_add(s, f, (size_t)(le - f));
		}
		p = nl ? nl + 1 : end;
	}
}

static bool is_true(const struct txc_json *o, const char *key)
{
	const struct txc_json *v = txc_json_get(o, key);
	return v != NULL && v->kind == TXC_JSON_TRUE;
}

/* "$ npm run dev  (background)": the command's first line ("…" when it has more) */
static void bash_subject(struct txc_buf *s, struct txc_str command, bool background)
{
	size_t n;
	bool more;
	const char *p = first_line(command, &n, &more);
	txc_buf_addstr(s, "$ ");
	txc_buf_add(s, p, n);
	if (more)
		txc_buf_addstr(s, " …");
	if (background)
		txc_buf_addstr(s, "  (background)");
}

/* what follows the tool's name on its header line, as plain text (escaped when shown) */
static void call_subject(struct txc_buf *s, const struct txc_block *c, const struct txc_tool_fields *f)
{
	switch (c->tool) {
	case TXC_TOOL_READ:
		txc_buf_add(s, f->file_path.ptr ? f->file_path.ptr : "", f->file_path.len);
		if (f->lines == TXC_LINES_RANGE)
			txc_buf_addf(s, " (lines %lld–%lld)", (long long)f->line_from, (long long)f->line_to);
		else if (f->lines == TXC_LINES_FROM)
			txc_buf_addf(s, " (from line %lld)", (long long)f->line_from);
		break;
	case TXC_TOOL_BASH: bash_subject(s, f->command, f->background); break;
	case TXC_TOOL_WRITE:
		txc_buf_add(s, f->file_path.ptr ? f->file_path.ptr : "", f->file_path.len);
		txc_buf_addf(s, " (%zu lines)", txc_text_count_lines(f->content.ptr, f->content.len));
		break;
	case TXC_TOOL_EDIT:
	case TXC_TOOL_MULTIEDIT: txc_buf_add(s, f->file_path.ptr ? f->file_path.ptr : "", f->file_path.len); break;
	default:
		if (f->patch.ptr != NULL && f->path.ptr != NULL)
			txc_buf_add(s, f->path.ptr, f->path.len);
		else if (f->patch.ptr != NULL)
			patch_files(s, f->patch);
		else if (f->command.ptr != NULL && txc_str_eq(c->name, "Bash")) /* a Bash call with more arguments */
			bash_subject(s, f->command,
				     is_true(c->input, "run_in_background") || is_true(c->input, "background"));
		else if (!(c->input->kind == TXC_JSON_OBJECT && c->input->n == 0))
			txc_json_emit(s, c->input, 0);
		break;
	}
}

/* "  ● Name subject +a −r", one line, cut to the width */
static void call_header(struct term *T, const struct txc_block *c, const struct txc_tool_fields *f)
{
	bool edit = c->tool == TXC_TOOL_EDIT || c->tool == TXC_TOOL_MULTIEDIT;
	char counts[64] = "";
	if (edit)
		snprintf(counts, sizeof(counts), " +%zu −%zu", f->added, f->removed);
	size_t counts_cols = edit ? cols_of(counts, strlen(counts)) : 0;
	spaces(T->b, INDENT);
	sgr(T, "1;36");
	txc_buf_addstr(T->b, "● ");
	size_t room = T->width - INDENT - 2;
	size_t used = put_clip(T, c->name.ptr ? c->name.ptr : "", c->name.len, room > 24 ? 24 : room);
	sgr_end(T);
	struct txc_buf s = TXC_BUF_INIT;
	call_subject(&s, c, f);
	if (s.len && used + 1 + counts_cols < room) {
		txc_buf_addch(T->b, ' ');
		put_clip(T, s.buf, s.len, room - used - 1 - counts_cols);
	}
	txc_buf_release(&s);
	if (edit) {
		txc_buf_addch(T->b, ' ');
		sgr(T, "32");
		txc_buf_addf(T->b, "+%zu", f->added);
		sgr_end(T);
		txc_buf_addch(T->b, ' ');
		sgr(T, "31");
		txc_buf_addf(T->b, "−%zu", f->removed);
		sgr_end(T);
	}
	txc_buf_addch(T->b, '\n');
}

/* --detail full: what the call sends, under its header (a diff coloured) */
static void call_input(struct term *T, const struct txc_block *c, const struct txc_tool_fields *f)
{
	struct txc_buf body = TXC_BUF_INIT, clean = TXC_BUF_INIT;
	bool diff = false;
	if (c->tool == TXC_TOOL_EDIT || c->tool == TXC_TOOL_MULTIEDIT) {
		txc_render_edit_diff(&body, c);
		diff = true;
	} else if (c->tool == TXC_TOOL_WRITE && f->content.ptr) {
		txc_buf_add(&body, f->content.ptr, f->content.len);
	} else if (c->tool == TXC_TOOL_READ) {
		/* its header says it all */
	} else if (c->tool == TXC_TOOL_BASH) {
		size_t n;
		bool more;
		first_line(f->command, &n, &more);
		if (more)
			txc_buf_add(&body, f->command.ptr, f->command.len);
	} else if (f->patch.ptr != NULL) {
		txc_buf_add(&body, f->patch.ptr, f->patch.len);
		diff = true;
	} else if (!(c->input->kind == TXC_JSON_OBJECT && c->input->n == 0)) {
		txc_json_emit(&body, c->input, TXC_JSON_INDENT);
	}
	crlf(&clean, body.buf, body.len);
	while (clean.len && clean.buf[clean.len - 1] == '\n')
		clean.len--;
	const char *p = clean.buf, *end = clean.buf + clean.len;
	while (clean.len && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *color = !diff ? NULL : *p == '+' ? "32" : *p == '-' ? "31" : NULL;
		spaces(T->b, RESULT_INDENT);
		if (color)
			sgr(T, color);
		struct txc_buf line = TXC_BUF_INIT;
		expand_tabs(&line, p, (size_t)(le - p));
		put_clip(T, line.buf, line.len, T->width - RESULT_INDENT);
		txc_buf_release(&line);
		if (color)
			sgr_end(T);
		txc_buf_addch(T->b, '\n');
		p = nl ? nl + 1 : end;
	}
	txc_buf_release(&body);
	txc_buf_release(&clean);
}

static void dim_wrapped(struct term *T, const char *p, size_t len, size_t indent);

/* a note, dim; one too wide for the terminal is broken between words, as prose is */
static void dim_line(struct term *T, size_t indent, const char *text)
{
	if (indent + cols_of(text, strlen(text)) > T->width) {
		dim_wrapped(T, text, strlen(text), indent);
		return;
	}
	spaces(T->b, indent);
	sgr(T, "2");
	txc_buf_addstr(T->b, text);
	sgr_end(T);
	txc_buf_addch(T->b, '\n');
}

/* a result under its call: its status when not plain success, its lines, what was cut */
static void tool_result(struct term *T, const struct txc_block *res)
{
	struct txc_render_result r;
	txc_render_result_init(&r, res, T->o);
	bool bad_exit = r.exit_code.ptr != NULL && !(r.exit_code.len == 1 && r.exit_code.ptr[0] == '0');
	if (res->denied || res->is_error || bad_exit) {
		spaces(T->b, RESULT_INDENT);
		sgr(T, res->denied ? "1;35" : "1;31");
		txc_buf_addstr(T->b, res->denied ? "⊘ denied" : res->is_error ? "✗ error" : "✗ failed");
		if (r.exit_code.ptr != NULL)
			txc_buf_addf(T->b, " · exit %.*s", (int)r.exit_code.len, r.exit_code.ptr);
		sgr_end(T);
		txc_buf_addch(T->b, '\n');
	}
	if (r.body.len)
		result_body(T, r.body.buf, r.body.len, strcmp(r.lang, "diff") == 0);
	else
		dim_line(T, RESULT_INDENT, "│ (no output)");
	if (r.truncated) {
		char all[64];
		snprintf(all, sizeof(all), "… %zu line%s, truncated", r.file_lines, r.file_lines == 1 ? "" : "s");
		dim_line(T, RESULT_INDENT, all);
	}
	if (r.cut) {
		char more[128];
		snprintf(more, sizeof(more), "… %zu more line%s (--max-output-lines %ld; --detail full shows all)",
			 r.cut, r.cut == 1 ? "" : "s", T->o->max_output_lines);
		dim_line(T, RESULT_INDENT, more);
	}
	txc_render_result_release(&r);
}

/* ---- the walker's handlers ---- */

static void fmt_time(char out[48], double secs, bool utc)
{
	if (!txc_time_format(out, 48, secs, utc, utc ? "%Y-%m-%d %H:%M:%S UTC" : "%Y-%m-%d %H:%M:%S %z"))
		strcpy(out, "unknown time");
}

/* text word-wrapped without colour, then dimmed line by line: a pager shows each line alone */
static void dim_wrapped(struct term *T, const char *p, size_t len, size_t indent)
{
	struct txc_buf w = TXC_BUF_INIT;
	struct term U = *T;
	U.b = &w;
	wrap_text(&U, p, len, indent);
	for (const char *q = w.buf, *end = w.buf + w.len; q < end;) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		sgr(T, "2");
		txc_buf_add(T->b, q, (size_t)(nl - q));
		sgr_end(T);
		txc_buf_addch(T->b, '\n');
		q = nl + 1;
	}
	txc_buf_release(&w);
}

/* between the parts: a no-break space first, so that a wrapped line never starts with the dot */
#define SEP "\xC2\xA0· "

/* SEP between the parts of the line under the title (one line each: they are names) */
static void meta_part(struct txc_buf *b, struct txc_str s)
{
	if (s.ptr == NULL || s.len == 0)
		return;
	if (b->len)
		txc_buf_addstr(b, SEP);
	for (size_t i = 0; i < s.len && i < 200; i++)
		txc_buf_addch(b, s.ptr[i] == '\n' || s.ptr[i] == '\t' ? ' ' : s.ptr[i]);
}

static void on_doc_start(void *ctx, const struct txc_render_counts *n)
{
	struct term *T = ctx;
	const struct txc_meta *me = &T->t->meta;
	struct txc_str title = me->title.ptr ? me->title : me->id;
	sgr(T, "1");
	put_clip(T, title.ptr ? title.ptr : "session", title.ptr ? title.len : 7, T->width);
	sgr_end(T);
	txc_buf_addch(T->b, '\n');
	struct txc_buf line = TXC_BUF_INIT;
	meta_part(&line, me->id);
	meta_part(&line, me->source);
	meta_part(&line, me->model);
	if (me->started_at != 0) {
		char when[48];
		fmt_time(when, me->started_at, T->o->utc);
		txc_buf_addf(&line, "%sstarted %s", line.len ? SEP : "", when);
	}
	txc_buf_addf(&line, SEP "%zu message%s" SEP "%zu tool call%s", n->messages, n->messages == 1 ? "" : "s",
		     n->tool_calls, n->tool_calls == 1 ? "" : "s");
	struct txc_buf c = TXC_BUF_INIT;
	crlf(&c, line.buf, line.len);
	dim_wrapped(T, c.buf, c.len, 0);
	txc_buf_release(&c);
	txc_buf_release(&line);
	txc_buf_addch(T->b, '\n');
	if (T->t->n_messages == 0) {
		dim_line(T, INDENT, "(no messages)");
		txc_buf_addch(T->b, '\n');
	}
}

/* exactly one trailing newline (the walk calls no doc_end for --follow's parts: more may come after
 * their blank line); doc_start wrote the title, so there is a buffer */
static void on_doc_end(void *ctx)
{
	struct txc_buf *b = ((struct term *)ctx)->b;
	while (b->len > 1 && b->buf[b->len - 1] == '\n' && b->buf[b->len - 2] == '\n')
		b->len--;
	b->buf[b->len] = '\0';
}

/* "#12 Assistant · 2026-01-02 03:04:05 UTC ─────" to the width */
static void on_message_start(void *ctx, const struct txc_message *m, enum txc_render_who who)
{
	static const char *const names[] = {
		[TXC_RENDER_USER] = "User",
		[TXC_RENDER_TOOL_RESULT] = "Tool",
		[TXC_RENDER_ASSISTANT] = "Assistant",
		[TXC_RENDER_INSTRUCTIONS] = "Instructions",
	};
	static const char *const colors[] = {
		[TXC_RENDER_USER] = "1;32",
		[TXC_RENDER_TOOL_RESULT] = "1;33",
		[TXC_RENDER_ASSISTANT] = "1;34",
		[TXC_RENDER_INSTRUCTIONS] = "1;35",
	};
	struct term *T = ctx;
	char head[64], when[48], tail[96];
	const char *name = who == TXC_RENDER_INSTRUCTIONS ? txc_render_instructions_name(m) : names[who];
	int hn = m->number ? snprintf(head, sizeof(head), "#%zu %s", m->number, name)
			   : snprintf(head, sizeof(head), "%s", name);
	fmt_time(when, m->time, T->o->utc);
	int tn = snprintf(tail, sizeof(tail), " · %s%s ", when, m->compacted ? " · archived by compaction" : "");
	sgr(T, colors[who]);
	txc_buf_add(T->b, head, (size_t)hn);
	sgr_end(T);
	if ((size_t)hn + cols_of(tail, (size_t)tn) > T->width + 1) { /* a narrow terminal: the time under it */
		txc_buf_addch(T->b, '\n');
		tail[tn - 1] = '\0';
		dim_line(T, INDENT, tail + strlen(" · "));
		return;
	}
	if ((size_t)hn + cols_of(tail, (size_t)tn) > T->width) /* no room for the rule, nor the space before it */
		tn--;
	sgr(T, "2");
	txc_buf_add(T->b, tail, (size_t)tn);
	size_t used = (size_t)hn + cols_of(tail, (size_t)tn);
	while (used < T->width) {
		txc_buf_addstr(T->b, "─");
		used++;
	}
	sgr_end(T);
	txc_buf_addch(T->b, '\n');
}

static void on_message_end(void *ctx, const struct txc_message *m)
{
	(void)m;
	txc_buf_addch(((struct term *)ctx)->b, '\n');
}

static void on_text(void *ctx, const struct txc_block *blk)
{
	struct term *T = ctx;
	struct txc_buf c = TXC_BUF_INIT;
	crlf(&c, blk->text.ptr, blk->text.len);
	while (c.len && c.buf[c.len - 1] == '\n')
		c.len--;
	wrap_text(T, c.buf, c.len, INDENT);
	txc_buf_release(&c);
}

/* normal: folded to one line naming WHAT and its length; full: OPEN, then the text dimmed */
static void dim_folded(struct term *T, const struct txc_block *blk, const char *open, const char *what)
{
	struct txc_buf c = TXC_BUF_INIT;
	crlf(&c, blk->text.ptr, blk->text.len);
	while (c.len && c.buf[c.len - 1] == '\n')
		c.len--;
	size_t lines = txc_text_count_lines(c.buf, c.len);
	char head[128];
	if (T->o->detail == TXC_DETAIL_FULL) {
		dim_line(T, INDENT, open);
		dim_wrapped(T, c.buf, c.len, RESULT_INDENT);
	} else {
		snprintf(head, sizeof(head), "▸ %s (%zu line%s; --detail full shows it)", what, lines,
			 lines == 1 ? "" : "s");
		dim_line(T, INDENT, head);
	}
	txc_buf_release(&c);
}

static void on_thinking(void *ctx, const struct txc_block *blk)
{
	dim_folded(ctx, blk, "▾ reasoning", "reasoning");
}

/* Hermes's api_content where it differs from the text shown */
static void on_replayed(void *ctx, const struct txc_block *blk)
{
	dim_folded(ctx, blk, "▾ replayed to the provider as (api_content)", "replayed to the provider as other text");
}

static void on_image(void *ctx, const struct txc_block *blk)
{
	struct term *T = ctx;
	T->image_no++;
	size_t len = blk->data.len, pad = 0;
	while (pad < 2 && pad < len && blk->data.ptr[len - 1 - pad] == '=')
		pad++;
	size_t bytes = len / 4 * 3 - (len % 4 == 0 ? pad : 0);
	char size[32];
	if (bytes < 1024)
		snprintf(size, sizeof(size), "%zu B", bytes);
	else if (bytes < 1024 * 1024)
		snprintf(size, sizeof(size), "%.1f KB", (double)bytes / 1024);
	else
		snprintf(size, sizeof(size), "%.1f MB", (double)bytes / (1024 * 1024));
	spaces(T->b, INDENT);
	sgr(T, "35");
	txc_buf_addf(T->b, "[image %zu: ", T->image_no);
	put_clip(T, blk->media_type.ptr ? blk->media_type.ptr : "", blk->media_type.len, 40);
	if (txc_render_image_check(blk) == TXC_IMAGE_OK)
		txc_buf_addf(T->b, ", %s]", size);
	else
		txc_buf_addf(T->b, ", %s, not a displayable image]", size);
	sgr_end(T);
	txc_buf_addch(T->b, '\n');
}

static void on_tool(void *ctx, const struct txc_render_call *c)
{
	struct term *T = ctx;
	struct txc_tool_fields f;
	txc_render_tool_fields(c->call, &f);
	call_header(T, c->call, &f);
	if (T->o->detail == TXC_DETAIL_FULL)
		call_input(T, c->call, &f);
	if (!c->show_result)
		return;
	if (c->result != NULL)
		tool_result(T, c->result);
	else
		dim_line(T, RESULT_INDENT, "(no result recorded)");
}

static void on_orphan_result(void *ctx, const struct txc_block *blk, bool in_user)
{
	struct term *T = ctx;
	if (in_user) {
		spaces(T->b, INDENT);
		sgr(T, "2");
		txc_buf_addstr(T->b, "↳ result without a matching call");
		if (blk->name.len) {
			/* too wide for one line: "from NAME" under it, indented, not wrapped by the terminal */
			size_t name = cols_of(blk->name.ptr, blk->name.len);
			const char *what = "↳ result without a matching call from ";
			if (INDENT + cols_of(what, strlen(what)) + (name < 24 ? name : 24) > T->width) {
				sgr_end(T);
				txc_buf_addch(T->b, '\n');
				spaces(T->b, INDENT + 2);
				sgr(T, "2");
				txc_buf_addstr(T->b, "from ");
			} else {
				txc_buf_addstr(T->b, " from ");
			}
			put_clip(T, blk->name.ptr, blk->name.len, 24);
		}
		sgr_end(T);
		txc_buf_addch(T->b, '\n');
	}
	tool_result(T, blk);
}

/* ---- lineage: segments of a chain, delegate children ---- */

/* a rule to the width after used columns: " ═══…" */
static void rule_to_width(struct term *T, size_t used)
{
	if (used + 2 > T->width)
		return;
	txc_buf_addch(T->b, ' ');
	for (used++; used < T->width; used++)
		txc_buf_addstr(T->b, "═");
}

/* "══ Segment 2 of 5 · id · after compression at TIME ═════" to the width; when that does not fit,
 * what ended the segment before, and when, goes under it, wrapped: the time is never cut */
static void on_segment(void *ctx, const struct txc_segment *s, size_t index, size_t n)
{
	struct term *T = ctx;
	struct txc_buf head = TXC_BUF_INIT, tail = TXC_BUF_INIT;
	char when[48];
	txc_buf_addf(&head, "Segment %zu of %zu" SEP, index + 1, n);
	txc_buf_add(&head, s->id.ptr ? s->id.ptr : "", s->id.len);
	if (index > 0) {
		const struct txc_segment *prev = s - 1;
		txc_buf_addstr(&tail, "after ");
		if (prev->end_reason.ptr)
			txc_buf_add(&tail, prev->end_reason.ptr, prev->end_reason.len);
		else
			txc_buf_addstr(&tail, "an unknown end");
		fmt_time(when, prev->has_ended ? prev->ended : s->started, T->o->utc);
		txc_buf_addf(&tail, " at %s", when);
	} else {
		fmt_time(when, s->started, T->o->utc);
		txc_buf_addf(&tail, "started %s", when);
	}
	size_t room = T->width - 4; /* "══ " before, a space after */
	bool one_line = cols_of(head.buf, head.len) + 3 + cols_of(tail.buf, tail.len) <= room;
	if (one_line) {
		txc_buf_addstr(&head, SEP);
		txc_buf_add(&head, tail.buf, tail.len);
	}
	sgr(T, "1;35");
	txc_buf_addstr(T->b, "══ ");
	/* the id and reason come from the store: put_clip and wrap_text show them escaped */
	rule_to_width(T, 3 + put_clip(T, head.buf, head.len, room));
	sgr_end(T);
	txc_buf_addch(T->b, '\n');
	if (!one_line)
		dim_wrapped(T, tail.buf, tail.len, 3);
	txc_buf_addch(T->b, '\n');
	txc_buf_release(&head);
	txc_buf_release(&tail);
}

/* "  ↳ subagent session ID — TITLE" (sep before the title), one line, cut to the width */
static void child_line(struct term *T, const struct txc_child *c, const char *sep, const char *tail)
{
	struct txc_buf line = TXC_BUF_INIT;
	txc_buf_add(&line, c->id.ptr ? c->id.ptr : "", c->id.len);
	if (c->title.ptr) {
		txc_buf_addstr(&line, sep);
		txc_buf_add(&line, c->title.ptr, c->title.len);
	}
	txc_buf_addstr(&line, tail);
	spaces(T->b, INDENT);
	sgr(T, "1;36");
	txc_buf_addstr(T->b, "↳ subagent session ");
	sgr_end(T);
	size_t head = INDENT + 19; /* the columns of the indent and "↳ subagent session " */
	put_clip(T, line.buf, line.len, T->width > head + 8 ? T->width - head : 8);
	txc_buf_addch(T->b, '\n');
	txc_buf_release(&line);
}

static const struct txc_render_ops term_ops; /* (a child is walked with it: txc_render_walk_child) */

/* a line naming the child, or (--children) its transcript under it, each line behind a bar */
static void on_child(void *ctx, const struct txc_child *c)
{
	struct term *T = ctx;
	if (c->t == NULL || !T->o->children) {
		child_line(T, c, " — ", "");
		return;
	}
	char tail[48];
	snprintf(tail, sizeof(tail), SEP "%zu message%s", c->t->n_messages, c->t->n_messages == 1 ? "" : "s");
	child_line(T, c, SEP, tail);
	/* rendered narrower on its own, then indented: every byte in it already went through unit() */
	struct txc_buf sub = TXC_BUF_INIT;
	struct term U = {.out = T->out, .b = &sub, .t = c->t, .o = T->o, .image_no = T->image_no};
	U.width = T->width - CHILD_INDENT < MIN_WIDTH ? MIN_WIDTH : T->width - CHILD_INDENT;
	txc_render_walk_child(T->out, c->t, T->o, &term_ops, &U);
	T->image_no = U.image_no;
	while (sub.len && sub.buf[sub.len - 1] == '\n')
		sub.len--;
	for (const char *p = sub.buf, *end = sub.buf + sub.len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		spaces(T->b, INDENT);
		sgr(T, "36");
		txc_buf_addstr(T->b, "┃");
		sgr_end(T);
		if (le > p)
			txc_buf_addch(T->b, ' ');
		txc_buf_add(T->b, p, (size_t)(le - p));
		txc_buf_addch(T->b, '\n');
		p = nl ? nl + 1 : end;
	}
	txc_buf_release(&sub);
}

static const struct txc_render_ops term_ops = {
	.doc_start = on_doc_start,
	.doc_end = on_doc_end,
	.message_start = on_message_start,
	.message_end = on_message_end,
	.text = on_text,
	.thinking = on_thinking,
	.replayed = on_replayed,
	.image = on_image,
	.tool = on_tool,
	.orphan_result = on_orphan_result,
	.segment = on_segment,
	.child = on_child,
};

static int write_terminal(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
			  struct txc_diag *d)
{
	(void)d;
	struct term T = {.out = out, .b = &out->buf, .t = t, .o = o, .width = o->width > 0 ? (size_t)o->width : 80};
	if (T.width < MIN_WIDTH)
		T.width = MIN_WIDTH;
	if (T.width > MAX_WIDTH) /* --width 99999999999 drew headings' rules that long: a hang, then no memory */
		T.width = MAX_WIDTH;
	txc_render_walk(out, t, o, &term_ops, &T);
	return TXC_OK;
}

const struct txc_writer_ops txc_writer_terminal = {
	.name = "terminal",
	.summary = "for reading in a terminal (txc view): wrapped, coloured, tool calls one line each",
	.ext = "txt",
	.caps = TXC_WCAP_TERMINAL,
	.opts = TXC_WOPT_DETAIL | TXC_WOPT_MAX_LINES | TXC_WOPT_COMPACTED | TXC_WOPT_UTC | TXC_WOPT_WIDTH |
		TXC_WOPT_CHILDREN,
	.write = write_terminal,
};
