/*
 * writer_markdown.c - a transcript people read: front matter, turns, tool calls
 * with their results beside them, reasoning folded away.
 *
 * Safety rules (docs/FORMATS.md): the writer decides every code block itself and
 * writes it as a top-level fence longer than any backtick run it holds; outside
 * code no '<', stray backtick or script link survives (see markdown_text); YAML
 * values are JSON-quoted.  Output ends with exactly one newline.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "txc/writer.h"

struct md {
	struct txc_buf *b;
	const struct txc_transcript *t;
	const struct txc_write_opts *o;
	size_t image_no;
};

/* ---- small text helpers ---- */

static size_t longest_run(const char *p, size_t len, char ch)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < len; i++) {
		run = p[i] == ch ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/* strip ANSI escape sequences (CSI, OSC, two-byte ESC x) and stray C0 controls but \n \t */
static void strip_ansi(struct txc_buf *out, const char *p, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned char c = (unsigned char)p[i];
		if (c == 0x1B) {
			i++;
			/* only ASCII belongs to a sequence: a UTF-8 byte ends it unconsumed */
			if (i < len && p[i] == '[') {
				i++;
				while (i < len && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] <= 0x3F)
					i++;
				if (i < len && (unsigned char)p[i] >= 0x40 && (unsigned char)p[i] <= 0x7E)
					i++;
			} else if (i < len && p[i] == ']') {
				while (i < len && p[i] != 0x07 && !(p[i] == 0x1B && i + 1 < len && p[i + 1] == '\\'))
					i++;
				i += i < len && p[i] == 0x1B ? 2 : i < len ? 1 : 0;
			} else if (i < len && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] <= 0x7E) {
				i++;
			}
			continue;
		}
		if (c == '\r' && i + 1 < len && p[i + 1] == '\n') {
			i++;
			continue;
		}
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
			txc_buf_addstr(out, c == '\r' ? "\n" : "\xEF\xBF\xBD");
			i++;
			continue;
		}
		txc_buf_addch(out, (char)c);
		i++;
	}
}

/* clean: valid UTF-8, no ANSI, LF line ends */
static void clean(struct txc_buf *out, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_utf8_repair(&t, p, len);
	strip_ansi(out, t.buf, t.len);
	txc_buf_release(&t);
}

static size_t count_lines(const char *p, size_t len)
{
	if (len == 0)
		return 0;
	size_t n = 1;
	for (size_t i = 0; i + 1 < len; i++)
		n += p[i] == '\n';
	return n;
}

static void fence(struct txc_buf *b, const char *lang, const char *p, size_t len)
{
	size_t n = longest_run(p, len, '`') + 1;
	if (n < 3)
		n = 3;
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	txc_buf_addstr(b, lang);
	txc_buf_addch(b, '\n');
	txc_buf_add(b, p, len);
	if (len && p[len - 1] != '\n')
		txc_buf_addch(b, '\n');
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	txc_buf_addch(b, '\n');
}

/* inline code for short untrusted values: one line, delimiter longer than any run inside */
static void code_span(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	clean(&t, p, len);
	for (size_t i = 0; i < t.len; i++)
		if (t.buf[i] == '\n' || t.buf[i] == '\t')
			t.buf[i] = ' ';
	size_t n = longest_run(t.buf, t.len, '`') + 1;
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	bool pad = t.len && (t.buf[0] == '`' || t.buf[t.len - 1] == '`' || t.buf[0] == ' ');
	if (pad)
		txc_buf_addch(b, ' ');
	txc_buf_add(b, t.buf, t.len);
	if (pad)
		txc_buf_addch(b, ' ');
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	txc_buf_release(&t);
}

/* plain inline text (titles, summaries): HTML and Markdown specials escaped, one line */
static void inline_text(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	clean(&t, p, len);
	for (size_t i = 0; i < t.len; i++) {
		char c = t.buf[i];
		if (c == '<')
			txc_buf_addstr(b, "&lt;");
		else if (c == '>')
			txc_buf_addstr(b, "&gt;");
		else if (c == '&')
			txc_buf_addstr(b, "&amp;");
		else if (c == '\n' || c == '\t')
			txc_buf_addch(b, ' ');
		else if (strchr("\\`*_[]#|~", c) != NULL)
			txc_buf_addch(b, '\\'), txc_buf_addch(b, c);
		else
			txc_buf_addch(b, c);
	}
	txc_buf_release(&t);
}

/*
 * ---- message text: Markdown kept, made inert ----
 *
 * A model's answer is Markdown and is shown as Markdown, but no renderer may find
 * raw HTML, a script link, or a code block boundary other than the ones this
 * writer decides.  So the writer decides the block structure itself instead of
 * guessing what a renderer would do with list items, quotes and indentation:
 *  - every code block it sees (a fence at any depth, however its lines are
 *    indented, or an indented block) is written again as a top-level fence after
 *    a blank line, longer than any backtick run inside, and closed: no container
 *    of the text can reach into it, nothing inside can end it;
 *  - everything else is prose, where no '<' survives (written "&lt;", which no
 *    CommonMark context turns back into a tag, so no HTML block, inline HTML or
 *    autolink), no backtick may open a code span except the pairs the writer
 *    keeps on one line (all other backticks are escaped, so a renderer pairs the
 *    same ones; none in a word a GFM autolink would take), runs of three tildes
 *    are escaped (no fence), and a link or
 *    reference definition whose destination could name a scheme other than
 *    http(s)/mailto/ftp loses its "](" or "]:" (shown the same, no link).
 * Inside link destinations, titles and reference labels a renderer does not
 * look for code spans, so there backticks are escaped too.  In a possible GFM
 * table a '|' splits cells even inside a code span, so it is escaped there.
 */

static bool md_punct(char c)
{
	return c != '\0' && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) != NULL;
}

static bool blank_line(const char *p, const char *le)
{
	while (p < le && (*p == ' ' || *p == '\t'))
		p++;
	return p == le;
}

/* leading columns (a tab to the next multiple of 4) */
static size_t indent_of(const char *p, const char *le)
{
	size_t col = 0;
	for (; p < le && (*p == ' ' || *p == '\t'); p++)
		col = *p == ' ' ? col + 1 : (col / 4 + 1) * 4;
	return col;
}

/* drop up to n leading columns of white space, keeping what a tab leaves over */
static void add_dedented(struct txc_buf *b, const char *p, const char *le, size_t n)
{
	size_t col = 0;
	while (p < le && col < n && (*p == ' ' || *p == '\t')) {
		col = *p == ' ' ? col + 1 : (col / 4 + 1) * 4;
		p++;
	}
	for (; col > n; col--)
		txc_buf_addch(b, ' ');
	txc_buf_add(b, p, (size_t)(le - p));
}

/* a list marker at p ("-", "+", "*", "1." "1)") followed by white space: its length */
static size_t list_marker(const char *p, const char *le)
{
	const char *q = p;
	if (q < le && (*q == '-' || *q == '+' || *q == '*'))
		q++;
	else {
		while (q < le && q - p < 9 && *q >= '0' && *q <= '9')
			q++;
		if (q == p || q >= le || (*q != '.' && *q != ')'))
			return 0;
		q++;
	}
	return q == le || *q == ' ' || *q == '\t' ? (size_t)(q - p) : 0;
}

/* past every container prefix a renderer might see: white space, '>', list markers */
static const char *past_containers(const char *p, const char *le)
{
	for (;;) {
		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		size_t m;
		if (p < le && *p == '>')
			p++;
		else if ((m = list_marker(p, le)) != 0)
			p += m;
		else
			return p;
	}
}

static size_t run_at(const char *p, const char *le, char ch)
{
	size_t n = 0;
	while (p + n < le && p[n] == ch)
		n++;
	return n;
}

/* Is this line a fence opener at any depth?  (Lenient on purpose: a fence too many is safe.) */
static bool fence_open(const char *p, const char *le, char *fch, size_t *flen, const char **body)
{
	const char *q = past_containers(p, le);
	if (q >= le || (*q != '`' && *q != '~'))
		return false;
	size_t n = run_at(q, le, *q);
	if (n < 3 || (*q == '`' && memchr(q + n, '`', (size_t)(le - q - n)) != NULL))
		return false;
	*fch = *q, *flen = n, *body = q;
	return true;
}

static bool fence_close(const char *p, const char *le, char fch, size_t flen)
{
	while (p < le && (*p == ' ' || *p == '\t' || *p == '>'))
		p++;
	size_t n = run_at(p, le, fch);
	return n >= flen && blank_line(p + n, le);
}

/* a content line of a fence opened after prefix pre: without that prefix's continuation */
static const char *strip_prefix(const char *p, const char *le, const char *pre, size_t plen)
{
	for (size_t i = 0; i < plen && p < le; i++) {
		if (pre[i] == '>') {
			const char *r = p;
			while (r < le && r - p < 3 && *r == ' ')
				r++;
			if (r >= le || *r != '>')
				break;
			p = r + 1;
		} else if (*p == ' ' || *p == '\t') {
			p++;
		}
	}
	return p;
}

/* the language of an info string: its first word, only characters safe in a class name */
static void info_lang(struct txc_buf *b, const char *p, const char *le)
{
	while (p < le && (*p == ' ' || *p == '\t'))
		p++;
	for (size_t n = 0; p < le && n < 32 && *p != ' ' && *p != '\t'; p++, n++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("_+.#-", *p))
			txc_buf_addch(b, *p);
}

/* a GFM table delimiter row, loosely: only | - : and blanks, with a '-' */
static bool delimiter_row(const char *p, const char *le)
{
	p = past_containers(p, le);
	bool dash = false;
	for (; p < le; p++) {
		if (*p == '-')
			dash = true;
		else if (*p != '|' && *p != ':' && *p != ' ' && *p != '\t')
			return false;
	}
	return dash;
}

/* start of the blank line that ends the paragraph holding i (or len) */
static size_t para_end(const char *s, size_t i, size_t len)
{
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		if (nl == NULL)
			return len;
		i = (size_t)(nl - s) + 1;
		const char *le = memchr(s + i, '\n', len - i);
		if (blank_line(s + i, le ? le : s + len))
			return i;
	}
	return len;
}

/* is the line after the line end at nl blank? */
static bool next_blank(const char *s, size_t nl, size_t len)
{
	const char *le = memchr(s + nl + 1, '\n', len - nl - 1);
	return blank_line(s + nl + 1, le ? le : s + len);
}

/* spaces and tabs, and at most one line end: true if any */
static bool skip_ws_nl(const char *s, size_t *p, size_t len)
{
	size_t start = *p;
	bool nl = false;
	while (*p < len && (s[*p] == ' ' || s[*p] == '\t' || (s[*p] == '\n' && !nl))) {
		nl |= s[*p] == '\n';
		(*p)++;
	}
	return *p > start;
}

/* scans that may restart at every "](" stop here: linear, and the scheme is in the first bytes */
#define MD_DEST_SCAN 4096

/*
 * The destination of an inline link after "](" as CommonMark reads our output
 * (where no destination is <...>: '<' is written "&lt;").  Its extent in *ds,
 * *dn; *p past it.  False when it cannot be one (its start is still set).
 */
static bool link_dest(const char *s, size_t *p, size_t len, size_t *ds, size_t *dn)
{
	skip_ws_nl(s, p, len);
	size_t depth = 0, q = *p, stop = len - q > MD_DEST_SCAN ? q + MD_DEST_SCAN : len;
	*ds = q;
	while (q < stop) {
		char c = s[q];
		if (c == '\\' && q + 1 < len && md_punct(s[q + 1])) {
			q += 2;
			continue;
		}
		if ((unsigned char)c <= ' ' || c == 0x7F || (c == ')' && depth == 0))
			break;
		if (c == '(' && ++depth > 32)
			break;
		depth -= c == ')';
		q++;
	}
	*dn = q - *ds, *p = q;
	return q < stop && depth == 0;
}

/* the rest of an inline link after its destination: title, ')'; *end past the ')' */
static bool link_rest(const char *s, size_t p, size_t len, size_t *end)
{
	if (skip_ws_nl(s, &p, len) && p < len && (s[p] == '"' || s[p] == '\'' || s[p] == '(')) {
		char close = s[p] == '(' ? ')' : s[p];
		size_t stop = len - p > 4 * MD_DEST_SCAN ? p + 4 * MD_DEST_SCAN : len; /* longer: no link (over-approximated) */
		for (p++; p < stop && s[p] != close; p++) {
			if (s[p] == '\\' && p + 1 < len && md_punct(s[p + 1]))
				p++;
			else if ((close == ')' && s[p] == '(') || (s[p] == '\n' && next_blank(s, p, len)))
				return false; /* a title holds no blank line */
		}
		if (p >= stop)
			return false;
		p++;
		skip_ws_nl(s, &p, len);
	}
	if (p >= len || s[p] != ')')
		return false;
	*end = p + 1;
	return true;
}

static bool has_prefix_ci(const char *p, size_t n, const char *pre)
{
	size_t k = strlen(pre);
	if (n < k)
		return false;
	for (size_t i = 0; i < k; i++)
		if ((p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]) != pre[i])
			return false;
	return true;
}

/* a destination no browser reads as javascript:, data:, vbscript: or any other scheme but these */
static bool dest_safe(const char *p, size_t n)
{
	static const char *const ok[] = {"http://", "https://", "mailto:", "ftp://"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (has_prefix_ci(p, n, ok[i]))
			return true;
	/* no scheme: a relative reference; entities and escapes could spell a ':' */
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '/' || p[i] == '?' || p[i] == '#')
			return true;
		if (p[i] == ':' || p[i] == '&' || p[i] == '\\' || p[i] == '<' || p[i] == '`')
			return false;
	}
	return true;
}

/* the destination of a possible reference definition after "]:" */
static bool refdef_safe(const char *s, size_t p, size_t len)
{
	skip_ws_nl(s, &p, len);
	/* dest_safe decides by the first '/', '?', '#', ':', '&', '\\', '<', '`' (or
	 * "https://" there): scan no further, or "]:" repeated would be quadratic */
	size_t d = p, stop = len;
	while (p < stop && p - d < MD_DEST_SCAN && (unsigned char)s[p] > ' ' && s[p] != 0x7F) {
		if (stop == len && strchr("/?#:&\\<`", s[p]))
			stop = len - p > 8 ? p + 8 : len;
		p++;
	}
	return dest_safe(s + d, p - d);
}

/* a code span the writer keeps: raw, but in a table a '|' must not split the cell */
static void keep_span(struct txc_buf *b, const char *p, size_t n, bool table)
{
	for (size_t i = 0; i < n; i++) {
		if (table && p[i] == '|' && (i == 0 || p[i - 1] != '\\'))
			txc_buf_addch(b, '\\');
		txc_buf_addch(b, p[i]);
	}
}

static void add_escaped_run(struct txc_buf *b, char ch, size_t n)
{
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '\\'), txc_buf_addch(b, ch);
}

/* where code spans cannot be: link destinations, titles, labels; and a paragraph end, kept */
struct prose_state {
	size_t tail, pend;
};

/* the end of the paragraph holding i, computed once per paragraph (linear) */
static size_t para_end_at(struct prose_state *ps, const char *s, size_t i, size_t len)
{
	if (i >= ps->pend)
		ps->pend = para_end(s, i, len);
	return ps->pend;
}

static size_t max_z(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* one line of prose [i, le) of s */
static void prose_line(struct txc_buf *b, const char *s, size_t i, size_t le, size_t len, struct prose_state *ps, bool table)
{
	bool no_close[81] = {false}; /* runs longer than 80 never open a span (as in cmark) */
	/*
	 * GFM's extended autolinks take a whole word from "www." or "scheme://" to the next
	 * blank or '<', backticks included: a backtick there opens no span for a renderer,
	 * so it must not open one here either.  linky: such a word is under way.
	 */
	bool linky = false;
	size_t seen = i;
	while (i < le) {
		for (; seen < i; seen++) {
			char w = s[seen];
			if (w == ' ' || w == '\t')
				linky = false;
			else if ((w == '.' && seen >= 3 && has_prefix_ci(s + seen - 3, 3, "www")) ||
				 (w == ':' && seen + 2 < len && s[seen + 1] == '/' && s[seen + 2] == '/'))
				linky = true;
		}
		char c = s[i];
		if (c == '\\' && i + 1 < le && md_punct(s[i + 1])) {
			if (s[i + 1] == '<') /* "\<" reads '<': written as the entity, like every '<' */
				txc_buf_addstr(b, "&lt;"), i += 2;
			else
				txc_buf_add(b, s + i, 2), i += 2;
			continue;
		}
		if (c == '<') {
			txc_buf_addstr(b, "&lt;");
			i++;
			continue;
		}
		if (c == '`' || c == '~') {
			size_t n = run_at(s + i, s + le, c), k = i + n, close = 0;
			/* a length once without a closer has none further on: each fails once (linear) */
			bool may = c == '`' && i >= ps->tail && !linky && n < sizeof(no_close) && !no_close[n];
			while (may && k < le && close == 0) {
				size_t m = run_at(s + k, s + le, '`');
				if (m == n)
					close = k;
				k += m ? m : 1;
			}
			if (may && close == 0)
				no_close[n] = true;
			if (close) {
				txc_buf_add(b, s + i, n);
				keep_span(b, s + i + n, close - i - n, table);
				txc_buf_add(b, s + close, n);
				i = close + n;
			} else if (c == '`' || n >= 3) {
				add_escaped_run(b, c, n);
				i += n;
			} else {
				txc_buf_add(b, s + i, n);
				i += n;
			}
			continue;
		}
		/* checked in link regions too: if the outer link is no link, an inner one is */
		if (c == ']' && i + 1 < len) {
			size_t end, ds, dn;
			char nx = s[i + 1];
			if (nx == '(') {
				/* a scheme decides: no link at all; else no code spans until the link ends */
				size_t p = i + 2;
				bool whole = link_dest(s, &p, len, &ds, &dn);
				if (!dest_safe(s + ds, dn)) {
					txc_buf_addstr(b, "]\\(");
					i += 2;
					continue;
				}
				ps->tail = max_z(ps->tail, whole && link_rest(s, p, len, &end) ? end : para_end_at(ps, s, i, len));
			} else if (nx == '[') {
				/* a reference label runs to the next unescaped bracket, at most 999 bytes */
				size_t k = i + 2;
				while (k < len && k - i < 1003 && s[k] != ']' && s[k] != '[')
					k += s[k] == '\\' && k + 1 < len ? 2 : 1;
				ps->tail = max_z(ps->tail, k); /* the closing ']' is checked itself */
			} else if (nx == ':' && !refdef_safe(s, i + 2, len)) {
				txc_buf_addstr(b, "]\\:");
				i += 2;
				continue;
			}
		}
		txc_buf_addch(b, c);
		i++;
	}
}

/* prose lines s[0..len) (whole lines): escaped line by line, link regions across lines */
static void prose(struct txc_buf *b, const char *s, size_t len)
{
	size_t i = 0;
	struct prose_state ps = {0, 0};
	bool table = false;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t le = nl ? (size_t)(nl - s) : len;
		if (blank_line(s + i, s + le)) {
			table = false;
		} else if (!table && nl != NULL) {
			const char *n2 = memchr(nl + 1, '\n', (size_t)(s + len - nl - 1));
			table = delimiter_row(nl + 1, n2 ? n2 : s + len);
		}
		prose_line(b, s, i, le, len, &ps, table);
		if (nl)
			txc_buf_addch(b, '\n');
		i = nl ? le + 1 : len;
	}
}

/* a code block the writer decided on: a fresh top-level fence, after a blank line */
static void code_block(struct txc_buf *b, const char *lang, const struct txc_buf *code)
{
	if (b->len && !(b->len >= 2 && b->buf[b->len - 1] == '\n' && b->buf[b->len - 2] == '\n'))
		txc_buf_addch(b, '\n');
	fence(b, lang, code->buf ? code->buf : "", code->len);
}

struct text_state {
	struct txc_buf *out, pro; /* pro: prose waiting to be escaped */
	size_t lists[16], n_lists; /* content columns of the open list items */
	size_t dedent;		   /* columns to drop from lines that followed a code block */
	bool prev_blank, after_code;
};

static void flush_prose(struct text_state *st)
{
	if (st->pro.len == 0)
		return;
	if (st->after_code && st->pro.buf[0] != '\n')
		txc_buf_addch(st->out, '\n');
	prose(st->out, st->pro.buf, st->pro.len);
	txc_buf_reset(&st->pro);
	st->after_code = false;
}

static void emit_code(struct text_state *st, const char *lang, const struct txc_buf *code)
{
	flush_prose(st);
	code_block(st->out, lang, code);
	st->after_code = true;
	st->prev_blank = true;
	st->n_lists = 0; /* a top-level fence ends every list around it */
}

/* the list items a non-blank line at this indent leaves open; their content column */
static size_t list_base(struct text_state *st, size_t ind)
{
	while (st->n_lists && st->lists[st->n_lists - 1] > ind)
		st->n_lists--;
	return st->n_lists ? st->lists[st->n_lists - 1] : 0;
}

/* a fence at line k: its content (unclosed: to the end), written as a fresh fence; next line */
static size_t text_fence(struct text_state *st, const char **ls, const char **le, size_t n, size_t k)
{
	char fch;
	size_t flen;
	const char *body;
	fence_open(ls[k], le[k], &fch, &flen, &body);
	struct txc_buf lang = TXC_BUF_INIT, code = TXC_BUF_INIT;
	info_lang(&lang, body + flen, le[k]);
	size_t j = k + 1;
	for (; j < n && !fence_close(ls[j], le[j], fch, flen); j++) {
		const char *p = strip_prefix(ls[j], le[j], ls[k], (size_t)(body - ls[k]));
		txc_buf_add(&code, p, (size_t)(le[j] - p));
		txc_buf_addch(&code, '\n');
	}
	emit_code(st, lang.buf ? lang.buf : "", &code);
	/* lines after a fence from inside a list item keep its indent: drop it */
	st->dedent = 0;
	for (const char *q = ls[k]; q < body; q++)
		st->dedent = *q == '\t' ? (st->dedent / 4 + 1) * 4 : st->dedent + 1;
	txc_buf_release(&lang);
	txc_buf_release(&code);
	return j < n ? j + 1 : n;
}

/* an indented code block from line k (indented base + 4): its lines, next line */
static size_t text_indented(struct text_state *st, const char **ls, const char **le, size_t n, size_t k, size_t base)
{
	struct txc_buf code = TXC_BUF_INIT;
	size_t j = k, last = k;
	for (; j < n && (blank_line(ls[j], le[j]) || indent_of(ls[j], le[j]) >= base + 4); j++)
		if (!blank_line(ls[j], le[j]))
			last = j;
	for (j = k; j <= last; j++) {
		add_dedented(&code, ls[j], le[j], base + 4);
		txc_buf_addch(&code, '\n');
	}
	emit_code(st, "", &code);
	st->dedent = base;
	txc_buf_release(&code);
	return last + 1;
}

static void markdown_text(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	clean(&t, p, len);
	size_t n = count_lines(t.buf, t.len) + 1, k = 0;
	const char **ls = txc_xcalloc(n, sizeof(*ls)), **le = txc_xcalloc(n, sizeof(*le));
	n = 0;
	for (const char *s = t.buf, *end = t.buf + t.len; s < end; n++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		ls[n] = s, le[n] = nl ? nl : end;
		s = nl ? nl + 1 : end;
	}
	struct text_state st = {.out = b, .pro = TXC_BUF_INIT, .prev_blank = true};
	while (k < n) {
		char fch;
		size_t flen;
		const char *body, *s = ls[k];
		if (blank_line(s, le[k])) {
			txc_buf_addch(&st.pro, '\n');
			st.prev_blank = true;
			k++;
			continue;
		}
		size_t ind = indent_of(s, le[k]);
		if (st.dedent && ind >= st.dedent) { /* drop exactly dedent columns, if white space allows */
			const char *q = s;
			size_t col = 0;
			while (col < st.dedent)
				col = *q++ == ' ' ? col + 1 : (col / 4 + 1) * 4;
			if (col == st.dedent)
				s = q, ind -= st.dedent;
		} else {
			st.dedent = 0;
		}
		size_t base = st.prev_blank ? list_base(&st, ind) : 0;
		if (st.prev_blank && ind >= base + 4) {
			ls[k] = s;
			k = text_indented(&st, ls, le, n, k, base);
			continue;
		}
		if (fence_open(s, le[k], &fch, &flen, &body)) {
			ls[k] = s;
			k = text_fence(&st, ls, le, n, k);
			continue;
		}
		const char *q = s;
		while (q < le[k] && (*q == ' ' || *q == '\t'))
			q++;
		size_t m = list_marker(q, le[k]);
		if (m != 0) {
			size_t c = ind + m + 1;
			size_t sp = indent_of(q + m, le[k]);
			if (sp >= 1 && sp <= 4)
				c = ind + m + sp;
			list_base(&st, ind);
			if (st.n_lists < sizeof(st.lists) / sizeof(st.lists[0]))
				st.lists[st.n_lists++] = c;
		}
		txc_buf_add(&st.pro, s, (size_t)(le[k] - s));
		txc_buf_addch(&st.pro, '\n');
		st.prev_blank = false;
		k++;
	}
	flush_prose(&st);
	txc_buf_release(&st.pro);
	free(ls);
	free(le);
	txc_buf_release(&t);
}

/* YAML double-quoted scalar: JSON string syntax, plus escapes for what YAML won't take raw */
static void yaml_str(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf j = TXC_BUF_INIT;
	txc_json_emit_str(&j, p, len);
	const unsigned char *s = (const unsigned char *)j.buf;
	size_t i = 0;
	while (i < j.len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(s + i, j.len - i, &cp);
		if (n == 0)
			n = 1, cp = s[i];
		/* '<' '>' '&' '[' ']' escaped too: a renderer without front-matter support shows this as
		 * text (a setext heading), where "[x](javascript:...)" would be a link */
		if (cp == '<' || cp == '>' || cp == '&' || cp == '[' || cp == ']' || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF ||
		    cp == 0x2028 || cp == 0x2029)
			txc_buf_addf(b, "\\u%04x", (unsigned)cp);
		else
			txc_buf_add(b, j.buf + i, n);
		i += n;
	}
	txc_buf_release(&j);
}

static void fmt_time(char out[48], double secs, bool utc)
{
	if (!isfinite(secs) || fabs(secs) > 2.5e11) {
		strcpy(out, "unknown time");
		return;
	}
	time_t tt = (time_t)floor(secs);
	struct tm tm;
	if (utc) {
		gmtime_r(&tt, &tm);
		strftime(out, 48, "%Y-%m-%d %H:%M:%S UTC", &tm);
	} else {
		localtime_r(&tt, &tm);
		strftime(out, 48, "%Y-%m-%d %H:%M:%S %z", &tm);
	}
}

/* ---- front matter and header ---- */

static void yaml_kv_str(struct txc_buf *b, const char *k, struct txc_str v)
{
	txc_buf_addf(b, "%s: ", k);
	if (v.ptr == NULL)
		txc_buf_addstr(b, "null");
	else
		yaml_str(b, v.ptr, v.len);
	txc_buf_addch(b, '\n');
}

static void front_matter(struct md *m, size_t n_msgs, size_t n_tools)
{
	const struct txc_meta *me = &m->t->meta;
	struct txc_buf *b = m->b;
	char iso[64];
	txc_buf_addstr(b, "---\n");
	yaml_kv_str(b, "id", me->id);
	yaml_kv_str(b, "title", me->title);
	yaml_kv_str(b, "source", me->source);
	yaml_kv_str(b, "model", me->model);
	yaml_kv_str(b, "cwd", me->cwd);
	yaml_kv_str(b, "git_branch", me->git_branch);
	/* the model keeps 0 for an unknown start: say null, not 1970 */
	if (me->started_at != 0 && txc_time_iso_ms(iso, me->started_at))
		txc_buf_addf(b, "started: \"%s\"\n", iso);
	else
		txc_buf_addstr(b, "started: null\n");
	if (me->has_ended && txc_time_iso_ms(iso, me->ended_at))
		txc_buf_addf(b, "ended: \"%s\"\n", iso);
	else
		txc_buf_addstr(b, "ended: null\n");
	txc_buf_addf(b, "messages: %zu\ntool_calls: %zu\n", n_msgs, n_tools);
	if (me->has_usage)
		txc_buf_addf(b, "tokens:\n  input: %lld\n  output: %lld\n  cache_read: %lld\n  cache_write: %lld\n  reasoning: %lld\n",
			     (long long)me->input_tokens, (long long)me->output_tokens, (long long)me->cache_read_tokens,
			     (long long)me->cache_write_tokens, (long long)me->reasoning_tokens);
	if (me->has_cost) {
		txc_buf_addstr(b, "cost_usd: ");
		txc_json_emit_real(b, me->cost_usd);
		txc_buf_addf(b, "\ncost_kind: %s\n", me->cost_is_actual ? "actual" : "estimated");
	}
	txc_buf_addstr(b, "---\n\n");
}

/* ---- tool calls ---- */

static const char *lang_of(const char *path)
{
	static const char *map[][2] = {
		{".c", "c"},	     {".h", "c"},	    {".py", "python"},	 {".js", "javascript"}, {".ts", "typescript"},
		{".rs", "rust"},     {".go", "go"},	    {".sh", "bash"},	 {".json", "json"},	{".md", "markdown"},
		{".yaml", "yaml"},   {".yml", "yaml"},	    {".toml", "toml"},	 {".html", "html"},	{".css", "css"},
		{".sql", "sql"},     {".rb", "ruby"},	    {".java", "java"},	 {".cpp", "cpp"},	{".tsx", "tsx"},
		{".jsx", "jsx"},     {".txt", "text"},	    {".xml", "xml"},	 {".diff", "diff"},	{".patch", "diff"},
	};
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	if (dot == NULL || (slash && dot < slash))
		return "";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(dot, map[i][0]) == 0)
			return map[i][1];
	return "";
}

static struct txc_str jstr(const struct txc_json *o, const char *k)
{
	const struct txc_json *v = txc_json_get(o, k);
	return v && v->kind == TXC_JSON_STRING ? v->s : TXC_STR_NULL;
}

static void diff_lines(struct txc_buf *t, char sign, struct txc_str s)
{
	const char *p = s.ptr, *end = s.ptr + s.len;
	if (s.ptr == NULL)
		return;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		txc_buf_addch(t, sign);
		txc_buf_add(t, p, (size_t)(le - p));
		txc_buf_addch(t, '\n');
		p = nl ? nl + 1 : end;
	}
}

static void json_fence(struct txc_buf *b, const struct txc_json *v)
{
	struct txc_buf t = TXC_BUF_INIT, c = TXC_BUF_INIT;
	txc_json_emit(&t, v, TXC_JSON_INDENT);
	clean(&c, t.buf, t.len);
	fence(b, "json", c.buf, c.len);
	txc_buf_release(&t);
	txc_buf_release(&c);
}

static void tool_call(struct md *m, const struct txc_block *blk)
{
	struct txc_buf *b = m->b;
	const struct txc_json *in = blk->input;
	struct txc_buf t = TXC_BUF_INIT, c = TXC_BUF_INIT;
	txc_buf_addstr(b, "**");
	inline_text(b, blk->name.ptr, blk->name.len);
	txc_buf_addstr(b, "**");
	if (m->o->detail == TXC_DETAIL_BRIEF) {
		struct txc_str key = blk->tool == TXC_TOOL_BASH ? jstr(in, "command") : jstr(in, "file_path");
		if (key.ptr != NULL) {
			txc_buf_addch(b, ' ');
			code_span(b, key.ptr, key.len > 200 ? 200 : key.len);
		}
		txc_buf_addch(b, '\n');
		return;
	}
	switch (blk->tool) {
	case TXC_TOOL_BASH: {
		struct txc_str desc = jstr(in, "description"), wd = jstr(in, "workdir");
		if (desc.ptr) {
			txc_buf_addstr(b, " — ");
			inline_text(b, desc.ptr, desc.len);
		}
		if (wd.ptr) {
			txc_buf_addstr(b, " in ");
			code_span(b, wd.ptr, wd.len);
		}
		const struct txc_json *to = txc_json_get(in, "timeout_ms");
		if (to != NULL && to->kind == TXC_JSON_INT)
			txc_buf_addf(b, " (timeout %.*s ms)", (int)to->s.len, to->s.ptr);
		if (txc_json_get(in, "run_in_background"))
			txc_buf_addstr(b, " (background)");
		txc_buf_addstr(b, "\n\n");
		struct txc_str cmd = jstr(in, "command");
		clean(&c, cmd.ptr, cmd.len);
		fence(b, "bash", c.buf, c.len);
		break;
	}
	case TXC_TOOL_READ: {
		struct txc_str path = jstr(in, "file_path");
		txc_buf_addch(b, ' ');
		code_span(b, path.ptr, path.len);
		const struct txc_json *off = txc_json_get(in, "offset"), *lim = txc_json_get(in, "limit");
		int64_t o = 1, l = 0;
		if (off)
			txc_json_is_int(off, &o);
		if (lim && txc_json_is_int(lim, &l))
			txc_buf_addf(b, " (lines %lld–%lld)", (long long)o, (long long)(o + l - 1));
		else if (off)
			txc_buf_addf(b, " (from line %lld)", (long long)o);
		txc_buf_addch(b, '\n');
		break;
	}
	case TXC_TOOL_WRITE: {
		struct txc_str path = jstr(in, "file_path"), content = jstr(in, "content");
		txc_buf_addch(b, ' ');
		code_span(b, path.ptr, path.len);
		txc_buf_addstr(b, "\n\n");
		clean(&c, content.ptr, content.len);
		fence(b, lang_of(path.ptr), c.buf, c.len);
		break;
	}
	case TXC_TOOL_EDIT:
	case TXC_TOOL_MULTIEDIT: {
		struct txc_str path = jstr(in, "file_path");
		txc_buf_addch(b, ' ');
		code_span(b, path.ptr, path.len);
		if (txc_json_get(in, "replace_all"))
			txc_buf_addstr(b, " (all occurrences)");
		txc_buf_addstr(b, "\n\n");
		const struct txc_json *edits = txc_json_get(in, "edits");
		if (blk->tool == TXC_TOOL_EDIT) {
			diff_lines(&t, '-', jstr(in, "old_string"));
			diff_lines(&t, '+', jstr(in, "new_string"));
		} else {
			for (size_t i = 0; edits && i < edits->n; i++) {
				if (i)
					txc_buf_addstr(&t, "@@\n");
				diff_lines(&t, '-', jstr(edits->items[i], "old_string"));
				diff_lines(&t, '+', jstr(edits->items[i], "new_string"));
			}
		}
		clean(&c, t.buf, t.len);
		fence(b, "diff", c.buf, c.len);
		break;
	}
	default: {
		struct txc_str patch = jstr(in, "patch");
		if (txc_str_eq(blk->name, "patch") && patch.ptr != NULL) {
			struct txc_str path = jstr(in, "path");
			if (path.ptr) {
				txc_buf_addch(b, ' ');
				code_span(b, path.ptr, path.len);
			}
			txc_buf_addstr(b, "\n\n");
			clean(&c, patch.ptr, patch.len);
			fence(b, "diff", c.buf, c.len);
		} else if (in->kind == TXC_JSON_OBJECT && in->n == 0) {
			txc_buf_addch(b, '\n');
		} else {
			txc_buf_addstr(b, "\n\n");
			json_fence(b, in);
		}
	}
	}
	txc_buf_release(&t);
	txc_buf_release(&c);
}

static void tool_result(struct md *m, const struct txc_block *blk)
{
	struct txc_buf *b = m->b;
	struct txc_buf body = TXC_BUF_INIT;
	const char *lang = "text";
	struct txc_arena *scratch = txc_arena_new(0);
	const struct txc_json *out = txc_block_output(blk, scratch);
	const struct txc_json *exit_code = NULL;
	if (out == NULL) {
		clean(&body, blk->output_text.ptr, blk->output_text.len);
	} else {
		struct txc_str text = jstr(out, "output");
		exit_code = txc_json_get(out, "exit_code");
		if (text.ptr == NULL)
			text = jstr(out, "content");
		struct txc_str err = jstr(out, "error");
		if (text.ptr != NULL && out->kind == TXC_JSON_OBJECT && out->n <= 4) {
			clean(&body, text.ptr, text.len);
			if (err.ptr && err.len) {
				txc_buf_addstr(&body, body.len ? "\n" : "");
				clean(&body, err.ptr, err.len);
			}
		} else {
			struct txc_buf t = TXC_BUF_INIT;
			txc_json_emit(&t, out, TXC_JSON_INDENT);
			clean(&body, t.buf, t.len);
			txc_buf_release(&t);
			lang = "json";
		}
	}
	while (body.len && body.buf[body.len - 1] == '\n')
		body.len--;
	size_t lines = count_lines(body.buf, body.len);
	txc_buf_addstr(b, "<details><summary>");
	txc_buf_addstr(b, blk->denied ? "denied" : blk->is_error ? "error" : "ok");
	if (exit_code != NULL && exit_code->kind == TXC_JSON_INT)
		txc_buf_addf(b, " · exit %.*s", (int)(exit_code->s.len > 20 ? 20 : exit_code->s.len), exit_code->s.ptr);
	txc_buf_addf(b, " · %zu line%s</summary>\n\n", lines, lines == 1 ? "" : "s");
	size_t cut = 0;
	if (m->o->detail == TXC_DETAIL_NORMAL && m->o->max_output_lines > 0 && lines > (size_t)m->o->max_output_lines) {
		size_t keep = 0, n = 0;
		while (keep < body.len && n < (size_t)m->o->max_output_lines) {
			if (body.buf[keep] == '\n')
				n++;
			keep++;
		}
		cut = lines - (size_t)m->o->max_output_lines;
		body.len = keep ? keep - 1 : 0;
	}
	if (body.len)
		fence(b, lang, body.buf, body.len);
	else
		txc_buf_addstr(b, "*(no output)*\n");
	if (cut)
		txc_buf_addf(b, "\n*… %zu more line%s cut (use --detail full to see everything)*\n", cut, cut == 1 ? "" : "s");
	txc_buf_addstr(b, "\n</details>\n\n");
	txc_buf_release(&body);
	txc_arena_free(scratch);
}

/* ---- images ---- */

/* File extension from a checked media type: image/png -> png, image/svg+xml -> svg. */
static void image_ext(char out[16], struct txc_str media)
{
	size_t i = 6, n = 0;
	if (media.len == 10 && memcmp(media.ptr, "image/jpeg", 10) == 0) {
		strcpy(out, "jpg");
		return;
	}
	while (i < media.len && n < 15 && media.ptr[i] >= 'a' && media.ptr[i] <= 'z')
		out[n++] = media.ptr[i++];
	out[n] = '\0';
	if (n == 0)
		strcpy(out, "img");
}

/* Percent-encode a relative link so that no character can end the link early. */
static void link_path(struct txc_buf *b, struct txc_str p)
{
	static const char hx[] = "0123456789ABCDEF";
	for (size_t i = 0; i < p.len; i++) {
		unsigned char c = (unsigned char)p.ptr[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("/-._~", c)) {
			txc_buf_addch(b, (char)c);
		} else {
			txc_buf_addch(b, '%');
			txc_buf_addch(b, hx[c >> 4]);
			txc_buf_addch(b, hx[c & 15]);
		}
	}
}

static void image_file(struct md *m, const struct txc_block *blk)
{
	struct txc_buf bytes = TXC_BUF_INIT;
	if (!txc_base64_decode(&bytes, blk->data.ptr, blk->data.len)) {
		txc_buf_addf(m->b, "*[image %zu: not valid base64 image data, omitted]*\n\n", m->image_no);
		txc_buf_release(&bytes);
		return;
	}
	char ext[16], name[64];
	image_ext(ext, blk->media_type);
	snprintf(name, sizeof(name), "image-%zu.%s", m->image_no, ext);
	m->o->assets->put(m->o->assets->ctx, name, bytes.buf, bytes.len);
	txc_buf_addf(m->b, "![image %zu](", m->image_no);
	link_path(m->b, m->o->assets->assets_link);
	txc_buf_addf(m->b, "/%s)\n\n", name);
	txc_buf_release(&bytes);
}

static void image(struct md *m, const struct txc_block *blk)
{
	struct txc_buf *b = m->b;
	m->image_no++;
	if (m->o->images == TXC_IMAGES_OMIT || m->o->detail == TXC_DETAIL_BRIEF) {
		txc_buf_addf(b, "*[image %zu: ", m->image_no);
		inline_text(b, blk->media_type.ptr, blk->media_type.len);
		txc_buf_addstr(b, " omitted]*\n\n");
		return;
	}
	/* only well-formed base64 of an image type may go into a data: URI */
	bool ok = blk->media_type.len < 64 && strncmp(blk->media_type.ptr, "image/", 6) == 0;
	for (size_t i = 0; ok && i < blk->media_type.len; i++) {
		char c = blk->media_type.ptr[i];
		ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '+' || c == '-' || c == '.';
	}
	for (size_t i = 0; ok && i < blk->data.len; i++) {
		char c = blk->data.ptr[i];
		ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
	}
	if (!ok) {
		txc_buf_addf(b, "*[image %zu: not valid base64 image data, omitted]*\n\n", m->image_no);
		return;
	}
	if (m->o->images == TXC_IMAGES_FILES && m->o->assets != NULL) {
		image_file(m, blk);
		return;
	}
	txc_buf_addf(b, "![image %zu](data:%.*s;base64,%.*s)\n\n", m->image_no, (int)blk->media_type.len,
		     blk->media_type.ptr, (int)blk->data.len, blk->data.ptr);
}

/* ---- the document ---- */

/*
 * Results by call id, so that finding a call's result is not a scan of the rest of
 * the session (30,000 unanswered calls made that quadratic).  Entries are sorted by
 * (id, message index); each id group keeps a cursor that only moves forward, since
 * calls are met in message order and a result once used or passed stays so.
 */
struct result_ix {
	struct result_ent {
		struct txc_str id;
		size_t mi;
	} *e;
	size_t *cursor; /* per entry; meaningful at a group's first entry */
	size_t n;
};

static int ent_cmp_id(struct txc_str a, struct txc_str b)
{
	int c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
	return c ? c : a.len < b.len ? -1 : a.len > b.len;
}

static int ent_cmp(const void *x, const void *y)
{
	const struct result_ent *a = x, *b = y;
	int c = ent_cmp_id(a->id, b->id);
	return c ? c : a->mi < b->mi ? -1 : a->mi > b->mi;
}

static void result_ix_build(struct result_ix *ix, const struct txc_transcript *t)
{
	ix->e = txc_xcalloc(t->n_messages + 1, sizeof(*ix->e));
	ix->cursor = txc_xcalloc(t->n_messages + 1, sizeof(*ix->cursor));
	ix->n = 0;
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		if (m->role != TXC_ROLE_USER || m->n_blocks != 1 || m->blocks[0].kind != TXC_BLOCK_TOOL_RESULT ||
		    m->blocks[0].id.len == 0)
			continue;
		ix->e[ix->n++] = (struct result_ent){m->blocks[0].id, i};
	}
	qsort(ix->e, ix->n, sizeof(*ix->e), ent_cmp);
	for (size_t i = 0; i < ix->n; i++)
		ix->cursor[i] = i;
}

static void result_ix_free(struct result_ix *ix)
{
	free(ix->e);
	free(ix->cursor);
}

/* the first unused result for id at message index >= from */
static const struct txc_block *find_result(const struct txc_transcript *t, struct result_ix *ix, size_t from,
					   struct txc_str id, const bool *used, size_t *mi_out)
{
	if (id.len == 0)
		return NULL;
	size_t lo = 0, hi = ix->n;
	while (lo < hi) { /* first entry whose id is >= id */
		size_t mid = lo + (hi - lo) / 2;
		if (ent_cmp_id(ix->e[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ix->n || ent_cmp_id(ix->e[lo].id, id) != 0)
		return NULL;
	size_t k = ix->cursor[lo];
	while (k < ix->n && ent_cmp_id(ix->e[k].id, id) == 0 && (ix->e[k].mi < from || used[ix->e[k].mi]))
		k++;
	ix->cursor[lo] = k;
	if (k == ix->n || ent_cmp_id(ix->e[k].id, id) != 0)
		return NULL;
	*mi_out = ix->e[k].mi;
	return &t->messages[ix->e[k].mi].blocks[0];
}

static void heading(struct md *m, const struct txc_message *msg, const char *who)
{
	char when[48];
	fmt_time(when, msg->time, m->o->utc);
	txc_buf_addf(m->b, "## %s · %s%s\n\n", who, when, msg->compacted ? " · *archived by compaction*" : "");
}

static int write_markdown(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
			  struct txc_diag *d)
{
	(void)d;
	struct md m = {.b = &out->buf, .t = t, .o = o};
	struct txc_buf *b = m.b;
	bool *used = txc_xcalloc(t->n_messages + 1, 1);
	struct result_ix ix;
	result_ix_build(&ix, t);
	size_t n_tools = txc_model_count_tool_uses(t), n_msgs = 0;
	for (size_t i = 0; i < t->n_messages; i++)
		n_msgs += !t->messages[i].compacted || o->include_compacted;
	front_matter(&m, n_msgs, n_tools);
	txc_buf_addstr(b, "# ");
	if (t->meta.title.ptr)
		inline_text(b, t->meta.title.ptr, t->meta.title.len);
	else
		inline_text(b, t->meta.id.ptr ? t->meta.id.ptr : "session", t->meta.id.ptr ? t->meta.id.len : 7);
	txc_buf_addf(b, "\n\n*%zu messages · %zu tool calls", n_msgs, n_tools);
	if (t->meta.source.ptr) {
		txc_buf_addstr(b, " · ");
		inline_text(b, t->meta.source.ptr, t->meta.source.len);
	}
	if (t->meta.model.ptr) {
		txc_buf_addstr(b, " · ");
		inline_text(b, t->meta.model.ptr, t->meta.model.len);
	}
	if (t->meta.started_at != 0) { /* 0: unknown (see the model); no 1970 */
		char when[48];
		fmt_time(when, t->meta.started_at, o->utc);
		txc_buf_addf(b, " · started %s", when);
	}
	txc_buf_addstr(b, "*\n\n");
	if (t->n_messages == 0)
		txc_buf_addstr(b, "*This session has no messages.*\n\n");
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *msg = &t->messages[i];
		if ((msg->compacted && !o->include_compacted) || used[i])
			continue;
		if (msg->role == TXC_ROLE_USER) {
			bool only_result = msg->n_blocks == 1 && msg->blocks[0].kind == TXC_BLOCK_TOOL_RESULT;
			if (o->detail == TXC_DETAIL_PROMPTS && only_result)
				continue;
			heading(&m, msg, only_result ? "Tool result" : "User");
			for (size_t j = 0; j < msg->n_blocks; j++) {
				const struct txc_block *blk = &msg->blocks[j];
				if (blk->kind == TXC_BLOCK_TEXT) {
					markdown_text(b, blk->text.ptr, blk->text.len);
					txc_buf_addch(b, '\n');
				} else if (blk->kind == TXC_BLOCK_IMAGE) {
					image(&m, blk);
				} else if (blk->kind == TXC_BLOCK_TOOL_RESULT) {
					txc_buf_addstr(b, "*Result without a matching call*");
					if (blk->name.len) {
						txc_buf_addstr(b, " from **");
						inline_text(b, blk->name.ptr, blk->name.len);
						txc_buf_addstr(b, "**");
					}
					txc_buf_addstr(b, "\n\n");
					tool_result(&m, blk);
				}
			}
		} else {
			if (o->detail == TXC_DETAIL_PROMPTS)
				continue;
			heading(&m, msg, "Assistant");
			for (size_t j = 0; j < msg->n_blocks; j++) {
				const struct txc_block *blk = &msg->blocks[j];
				size_t ri;
				switch (blk->kind) {
				case TXC_BLOCK_TEXT:
					markdown_text(b, blk->text.ptr, blk->text.len);
					txc_buf_addch(b, '\n');
					break;
				case TXC_BLOCK_THINKING:
					if (o->detail == TXC_DETAIL_BRIEF || blk->text.len == 0)
						break;
					txc_buf_addstr(b, "<details><summary>Reasoning</summary>\n\n");
					markdown_text(b, blk->text.ptr, blk->text.len);
					txc_buf_addstr(b, "\n</details>\n\n");
					break;
				case TXC_BLOCK_IMAGE: image(&m, blk); break;
				case TXC_BLOCK_TOOL_RESULT: tool_result(&m, blk); break;
				case TXC_BLOCK_TOOL_USE: {
					tool_call(&m, blk);
					const struct txc_block *r = find_result(t, &ix, i + 1, blk->id, used, &ri);
					if (o->detail == TXC_DETAIL_BRIEF) {
						if (r)
							used[ri] = true;
						break;
					}
					txc_buf_addch(b, '\n');
					if (r != NULL) {
						used[ri] = true;
						tool_result(&m, r);
					} else {
						txc_buf_addstr(b, "*No result was recorded for this call.*\n\n");
					}
					break;
				}
				}
			}
		}
		txc_out_maybe_flush(out);
	}
	free(used);
	result_ix_free(&ix);
	/* exactly one trailing newline */
	while (b->len > 1 && b->buf[b->len - 1] == '\n' && b->buf[b->len - 2] == '\n')
		b->len--;
	b->buf[b->len] = '\0';
	return TXC_OK;
}

const struct txc_writer_ops txc_writer_markdown = {
	.name = "markdown",
	.summary = "Markdown for people: tool calls with their results, reasoning folded",
	.ext = "md",
	.write = write_markdown,
};
