/*
 * md_text.c - a model's Markdown, kept and made inert (txc_md_text).
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"

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
 *    autolink; a '>' in a word a GFM autolink would take is "&gt;", so that the
 *    autolink ends before it), no backtick may open a code span except the pairs the writer
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
	*fch = *q;
	*flen = n;
	*body = q;
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
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("_+.#-", *p))
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
	*dn = q - *ds;
	*p = q;
	return q < stop && depth == 0;
}

/* the rest of an inline link after its destination: title, ')'; *end past the ')' */
static bool link_rest(const char *s, size_t p, size_t len, size_t *end)
{
	if (skip_ws_nl(s, &p, len) && p < len && (s[p] == '"' || s[p] == '\'' || s[p] == '(')) {
		char close = s[p] == '(' ? ')' : s[p];
		size_t stop = len - p > 4 * MD_DEST_SCAN ? p + 4 * MD_DEST_SCAN
							 : len; /* longer: no link (over-approximated) */
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
	for (size_t i = 0; i < n; i++) {
		txc_buf_addch(b, '\\');
		txc_buf_addch(b, ch);
	}
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

/* what a line of prose remembers as it goes */
struct line_state {
	bool no_close[81]; /* run lengths with no closer further on; runs over 80 never open a span (cmark) */
	/*
	 * GFM's extended autolinks take a whole word from "www." or "scheme://" to the next
	 * blank or '<', backticks included: a backtick there opens no span for a renderer,
	 * so it must not open one here either.  linky: such a word is under way.
	 */
	bool linky;
	size_t seen; /* linky is known for the bytes before this */
	bool table;  /* a possible GFM table row */
};

static void track_linky(struct line_state *ls, const char *s, size_t i, size_t len)
{
	for (; ls->seen < i; ls->seen++) {
		size_t k = ls->seen;
		if (s[k] == ' ' || s[k] == '\t')
			ls->linky = false;
		else if ((s[k] == '.' && k >= 3 && has_prefix_ci(s + k - 3, 3, "www")) ||
			 (s[k] == ':' && k + 2 < len && s[k + 1] == '/' && s[k + 2] == '/'))
			ls->linky = true;
	}
}

/* a run of backticks or tildes at i: a code span kept, or escaped; the index past it */
static size_t prose_run(struct txc_buf *b, const char *s, size_t i, size_t le, const struct prose_state *ps,
			struct line_state *ls)
{
	char c = s[i];
	size_t n = run_at(s + i, s + le, c), k = i + n, close = 0;
	/* a length once without a closer has none further on: each fails once (linear) */
	bool may = c == '`' && i >= ps->tail && !ls->linky && n < sizeof(ls->no_close) && !ls->no_close[n];
	while (may && k < le && close == 0) {
		size_t m = run_at(s + k, s + le, '`');
		if (m == n)
			close = k;
		k += m ? m : 1;
	}
	if (may && close == 0)
		ls->no_close[n] = true;
	if (close) {
		txc_buf_add(b, s + i, n);
		keep_span(b, s + i + n, close - i - n, ls->table);
		txc_buf_add(b, s + close, n);
		return close + n;
	}
	if (c == '`' || n >= 3)
		add_escaped_run(b, c, n);
	else
		txc_buf_add(b, s + i, n);
	return i + n;
}

/*
 * A ']' at i: "](" with an unsafe destination or "]:" with an unsafe definition
 * loses its link (written, 2 returned); else the region where code spans cannot
 * be is extended past a link's destination or a label, and 0 returned.
 */
static size_t prose_bracket(struct txc_buf *b, const char *s, size_t i, size_t len, struct prose_state *ps)
{
	size_t end, ds, dn;
	char nx = s[i + 1];
	if (nx == '(') {
		/* a scheme decides: no link at all; else no code spans until the link ends */
		size_t p = i + 2;
		bool whole = link_dest(s, &p, len, &ds, &dn);
		if (!dest_safe(s + ds, dn)) {
			txc_buf_addstr(b, "]\\(");
			return 2;
		}
		if (!(whole && link_rest(s, p, len, &end)))
			end = para_end_at(ps, s, i, len);
		ps->tail = max_z(ps->tail, end);
	} else if (nx == '[') {
		/* a reference label runs to the next unescaped bracket, at most 999 bytes */
		size_t k = i + 2;
		while (k < len && k - i < 1003 && s[k] != ']' && s[k] != '[')
			k += s[k] == '\\' && k + 1 < len ? 2 : 1;
		ps->tail = max_z(ps->tail, k); /* the closing ']' is checked itself */
	} else if (nx == ':' && !refdef_safe(s, i + 2, len)) {
		txc_buf_addstr(b, "]\\:");
		return 2;
	}
	return 0;
}

/* one line of prose [i, le) of s */
static void prose_line(struct txc_buf *b, const char *s, size_t i, size_t le, size_t len, struct prose_state *ps,
		       bool table)
{
	/* the bytes this loop may write otherwise than as they are; the rest is copied a run at a time */
	static const bool special[256] = {
		['\\'] = true, ['<'] = true, ['>'] = true, ['`'] = true, ['~'] = true, [']'] = true};
	struct line_state ls = {.seen = i, .table = table};
	while (i < le) {
		size_t j = i;
		while (j < le && !special[(unsigned char)s[j]])
			j++;
		txc_buf_add(b, s + i, j - i);
		if ((i = j) == le)
			break;
		char c = s[i];
		size_t used = 0;
		if (c == '\\' && i + 1 < le && md_punct(s[i + 1])) {
			/* "\<" reads '<': written as the entity, like every '<' */
			track_linky(&ls, s, i, len);
			if (s[i + 1] == '<')
				txc_buf_addstr(b, "&lt;");
			else if (s[i + 1] == '>' && ls.linky)
				txc_buf_addstr(b, "&gt;");
			else
				txc_buf_add(b, s + i, 2);
			i += 2;
		} else if (c == '<') {
			txc_buf_addstr(b, "&lt;");
			i++;
		} else if (c == '>') {
			/* "<https://...>" lost its '<': a GFM autolink would take the '>' into the URL, but
			 * stops before an entity */
			track_linky(&ls, s, i, len);
			txc_buf_addstr(b, ls.linky ? "&gt;" : ">");
			i++;
		} else if (c == '`' || c == '~') {
			track_linky(&ls, s, i, len); /* only prose_run() reads it: brought up to i here */
			i = prose_run(b, s, i, le, ps, &ls);
		} else if (c == ']' && i + 1 < len && (used = prose_bracket(b, s, i, len, ps)) != 0) {
			/* checked in link regions too: if the outer link is no link, an inner one is */
			i += used;
		} else {
			txc_buf_addch(b, c);
			i++;
		}
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
	txc_md_fence(b, lang, code->buf, code->len);
}

struct text_state {
	struct txc_buf *out, pro;  /* pro: prose waiting to be escaped */
	size_t lists[16], n_lists; /* content columns of the open list items */
	size_t dedent;             /* columns to drop from lines that followed a code block */
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
	emit_code(st, lang.buf, &code);
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

/* lines after a code block from inside a list item: drop exactly dedent columns, if white space allows */
static const char *drop_dedent(struct text_state *st, const char *s, size_t *ind)
{
	if (st->dedent == 0 || *ind < st->dedent) {
		st->dedent = 0;
		return s;
	}
	const char *q = s;
	size_t col = 0;
	while (col < st->dedent)
		col = *q++ == ' ' ? col + 1 : (col / 4 + 1) * 4;
	if (col != st->dedent)
		return s;
	*ind -= st->dedent;
	return q;
}

/* a list item starting at s (indent ind): its content column opens a list level */
static void note_list_item(struct text_state *st, const char *s, const char *le, size_t ind)
{
	const char *q = s;
	while (q < le && (*q == ' ' || *q == '\t'))
		q++;
	size_t m = list_marker(q, le);
	if (m == 0)
		return;
	size_t c = ind + m + 1;
	size_t sp = indent_of(q + m, le);
	if (sp >= 1 && sp <= 4)
		c = ind + m + sp;
	list_base(st, ind);
	if (st->n_lists < sizeof(st->lists) / sizeof(st->lists[0]))
		st->lists[st->n_lists++] = c;
}

/* line k of n: a code block (the line after it returned) or a line of prose (k + 1) */
static size_t text_line(struct text_state *st, const char **ls, const char **le, size_t n, size_t k)
{
	char fch;
	size_t flen;
	const char *body, *s = ls[k];
	if (blank_line(s, le[k])) {
		txc_buf_addch(&st->pro, '\n');
		st->prev_blank = true;
		return k + 1;
	}
	size_t ind = indent_of(s, le[k]);
	s = drop_dedent(st, s, &ind);
	size_t base = st->prev_blank ? list_base(st, ind) : 0;
	if (st->prev_blank && ind >= base + 4) {
		ls[k] = s;
		return text_indented(st, ls, le, n, k, base);
	}
	if (fence_open(s, le[k], &fch, &flen, &body)) {
		ls[k] = s;
		return text_fence(st, ls, le, n, k);
	}
	note_list_item(st, s, le[k], ind);
	txc_buf_add(&st->pro, s, (size_t)(le[k] - s));
	txc_buf_addch(&st->pro, '\n');
	st->prev_blank = false;
	return k + 1;
}

void txc_md_text(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_text_clean(&t, p, len);
	size_t n = txc_text_count_lines(t.buf, t.len) + 1;
	const char **ls = txc_xcalloc(n, sizeof(*ls)), **le = txc_xcalloc(n, sizeof(*le));
	n = 0;
	for (const char *s = t.buf, *end = t.buf + t.len; s < end; n++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		ls[n] = s;
		le[n] = nl ? nl : end;
		s = nl ? nl + 1 : end;
	}
	struct text_state st = {.out = b, .pro = TXC_BUF_INIT, .prev_blank = true};
	txc_buf_grow(&st.pro, t.len); /* the prose of the text is at most all of it: no growing by doublings */
	for (size_t k = 0; k < n;)
		k = text_line(&st, ls, le, n, k);
	flush_prose(&st);
	txc_buf_release(&st.pro);
	free(ls);
	free(le);
	txc_buf_release(&t);
}
