/*
 * search.c - the search query: parse what a person types, match rows,
 * cut snippets (search.h).  Pure: text in, answers out.
 *
 * The rules mirror FTS5's unicode61 tokenizer closely enough that the index
 * finds a superset of what txc_query_match() accepts: tokens are runs of
 * ASCII letters and digits and of non-ASCII characters that are not
 * symbols; ASCII is case folded.  Non-ASCII letters are compared exactly
 * (unicode61 also folds them and drops diacritics, so it may offer more
 * rows, which the match then refuses).
 */
#include <stdlib.h>
#include <string.h>

#include "txc/search.h"

/* ---- characters ---- */

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\0';
}

static bool ascii_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* CJK ideographs, kana, hangul: unicode61 keeps a run of them as one token, so a word holding one is a substring */
static bool is_cjk(uint32_t cp)
{
	return (cp >= 0x2E80 && cp <= 0x2FFF) || (cp >= 0x3040 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
	       (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF66 && cp <= 0xFF9F) || (cp >= 0x20000 && cp <= 0x3FFFF);
}

/*
 * Punctuation and symbols outside ASCII: separators.  Only characters
 * unicode61 surely splits on are here (it keeps L*, N*, Co; unsure ones,
 * such as combining marks, letter-like symbols and variation selectors,
 * are kept as token characters), so that txc's separators are always
 * unicode61's too: an ASCII token txc finds is a token of the index.
 */
static bool is_symbol(uint32_t cp)
{
	if (cp < 0x2000) /* (never ASCII: callers ask only about cp >= 0x80) */
		return (cp <= 0xBF && cp != 0xAA && cp != 0xB2 && cp != 0xB3 && cp != 0xB5 && cp != 0xB9 &&
			cp != 0xBA && !(cp >= 0xBC && cp <= 0xBE)) ||
		       cp == 0xD7 || cp == 0xF7;
	if (cp <= 0x2BFF)
		return !(cp >= 0x2070 && cp <= 0x218F) && /* (holds the combining marks 0x20D0..0x20FF) */
		       !(cp >= 0x2460 && cp <= 0x24FF) && !(cp >= 0x2776 && cp <= 0x2793);
	return (cp >= 0x2E00 && cp <= 0x2E7F && cp != 0x2E2F) || (cp >= 0x3000 && cp <= 0x3004) ||
	       (cp >= 0x3008 && cp <= 0x3020) || cp == 0x3030 || (cp >= 0x303D && cp <= 0x303F) ||
	       (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
	       (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65) ||
	       (cp >= 0x1F000 && cp <= 0x1FAFF && !(cp >= 0x1F100 && cp <= 0x1F10C)) ||
	       (cp >= 0xE0000 && cp <= 0xE007F);
}

/* The character at p: its length (an invalid byte is one) and whether it belongs to a token. */
static size_t char_at(const unsigned char *p, size_t len, bool *tok, uint32_t *cpo)
{
	uint32_t cp = p[0];
	size_t n = 1;
	if (p[0] >= 0x80) {
		n = txc_utf8_seq(p, len, &cp);
		if (n == 0) {
			*tok = false;
			*cpo = 0xFFFD;
			return 1;
		}
		*tok = !is_symbol(cp);
	} else {
		*tok = ascii_alnum(p[0]);
	}
	*cpo = cp;
	return n;
}

/* The next token at or after *i: [*ts, *te); false at the end. */
static bool next_token(const unsigned char *p, size_t len, size_t *i, size_t *ts, size_t *te)
{
	bool tok = false;
	uint32_t cp;
	while (*i < len) {
		if (p[*i] < 0x80 && !ascii_alnum(p[*i])) { /* the common case, quickly */
			(*i)++;
			continue;
		}
		size_t n = char_at(p + *i, len - *i, &tok, &cp);
		if (tok)
			break;
		*i += n;
	}
	if (*i >= len)
		return false;
	*ts = *i;
	while (*i < len) {
		if (p[*i] < 0x80) {
			if (!ascii_alnum(p[*i]))
				break;
			(*i)++;
			continue;
		}
		size_t n = char_at(p + *i, len - *i, &tok, &cp);
		if (!tok)
			break;
		*i += n;
	}
	*te = *i;
	return true;
}

/* ---- parsing ---- */

static void add_term(struct txc_query *q, const char *s, size_t len, bool negated, bool prefix)
{
	const unsigned char *p = (const unsigned char *)s;
	bool text = false, tok;
	uint32_t cp;
	for (size_t i = 0; i < len && !text;) {
		i += char_at(p + i, len - i, &tok, &cp);
		text = cp >= 0x80 && (is_cjk(cp) || is_symbol(cp));
	}
	struct txc_buf b = TXC_BUF_INIT;
	if (text) { /* the text without the ASCII punctuation around it */
		size_t a = 0, z = len;
		while (a < z && p[a] < 0x80 && !ascii_alnum(p[a]))
			a++;
		while (z > a && p[z - 1] < 0x80 && !ascii_alnum(p[z - 1]))
			z--;
		txc_buf_add(&b, s + a, z - a);
		prefix = false;
	} else {
		size_t i = 0, ts, te;
		while (next_token(p, len, &i, &ts, &te)) {
			if (b.len)
				txc_buf_addch(&b, ' ');
			txc_buf_add(&b, s + ts, te - ts);
		}
	}
	if (b.len == 0) { /* only punctuation: nothing to find */
		txc_buf_release(&b);
		return;
	}
	if (q->n == q->cap)
		q->v = txc_xrealloc(q->v, (q->cap = q->cap ? q->cap * 2 : 8) * sizeof(*q->v));
	q->v[q->n++] = (struct txc_term){b.buf, b.len, text, prefix, negated};
	q->n_positive += !negated;
	q->n_words += !negated && !text;
}

/* One item at *i: "phrase", or a word up to white space or a quote. */
static void parse_item(struct txc_query *q, const char *s, size_t len, size_t *i)
{
	bool negated = false, prefix = false;
	if (s[*i] == '-' && *i + 1 < len && !is_space((unsigned char)s[*i + 1])) {
		negated = true;
		(*i)++;
	}
	size_t a = *i, z;
	if (s[*i] == '"') {
		const char *close = memchr(s + *i + 1, '"', len - *i - 1);
		if (close == NULL) { /* an unmatched quote is a space */
			(*i)++;
			return;
		}
		a = *i + 1;
		z = (size_t)(close - s);
		*i = z + 1;
	} else {
		while (*i < len && !is_space((unsigned char)s[*i]) && s[*i] != '"')
			(*i)++;
		z = *i;
	}
	for (; *i < len && s[*i] == '*'; (*i)++) /* "phrase"* */
		prefix = true;
	for (; z > a && s[z - 1] == '*'; z--)
		prefix = true;
	add_term(q, s + a, z - a, negated, prefix);
}

int txc_query_parse(const char *s, size_t len, struct txc_query *q, struct txc_diag *d)
{
	memset(q, 0, sizeof(*q));
	for (size_t i = 0; i < len;) {
		if (is_space((unsigned char)s[i])) {
			i++;
			continue;
		}
		parse_item(q, s, len, &i);
	}
	if (q->n_positive == 0) {
		txc_diag_set(d, TXC_E_USAGE,
			     q->n ? "the query only excludes words: give at least one word to find"
				  : "the query has no word to find (a word has letters, digits or symbols)");
		txc_query_free(q);
		return TXC_E_USAGE;
	}
	return TXC_OK;
}

void txc_query_free(struct txc_query *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->v[i].text);
	free(q->v);
	memset(q, 0, sizeof(*q));
}

static bool ascii_token(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!ascii_alnum((unsigned char)p[i]))
			return false;
	return true;
}

/*
 * One word term as FTS5 phrases: each run of ASCII tokens in a row is one
 * phrase ("a b"), the last one a prefix when the term is.  A token with
 * other characters is left to the row check, since unicode61 may split or
 * fold it otherwise.  Returns how many phrases were added.
 */
static size_t term_phrases(struct txc_buf *b, const struct txc_term *t)
{
	size_t added = 0, a = 0;
	bool open = false;
	while (a < t->len) {
		const char *sp = memchr(t->text + a, ' ', t->len - a);
		size_t z = sp ? (size_t)(sp - t->text) : t->len;
		bool ascii = ascii_token(t->text + a, z - a);
		if (ascii && !open) {
			txc_buf_addstr(b, b->len ? " AND \"" : "\"");
			open = true;
			added++;
		} else if (ascii) {
			txc_buf_addch(b, ' ');
		} else if (open) {
			txc_buf_addch(b, '"');
			open = false;
		}
		if (ascii)
			txc_buf_add(b, t->text + a, z - a);
		a = z + 1;
	}
	if (open)
		txc_buf_addstr(b, t->prefix ? "\"*" : "\"");
	return added;
}

char *txc_query_fts(const struct txc_query *q)
{
	struct txc_buf b = TXC_BUF_INIT;
	size_t n = 0;
	for (size_t i = 0; i < q->n; i++)
		if (!q->v[i].negated && !q->v[i].text_kind) /* exclusions are checked on each row */
			n += term_phrases(&b, &q->v[i]);
	if (n == 0) {
		txc_buf_release(&b);
		return NULL;
	}
	return b.buf;
}

static size_t utf8_chars(const char *p, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)p[i] & 0xC0) != 0x80;
	return c;
}

/*
 * Piece [p, p+n) as one quoted trigram phrase, when it is long enough to
 * narrow by.  A piece never holds '"' (parse_item ends words and phrases at
 * one), so it needs no escaping.
 */
static bool trigram_piece(struct txc_buf *b, const char *p, size_t n)
{
	if (utf8_chars(p, n) < 3 || memchr(p, '\0', n) != NULL)
		return false;
	txc_buf_addstr(b, b->len ? " \"" : "\"");
	txc_buf_add(b, p, n);
	txc_buf_addch(b, '"');
	return true;
}

char *txc_query_trigram(const struct txc_query *q)
{
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 0; i < q->n; i++) {
		const struct txc_term *t = &q->v[i];
		if (t->negated) /* exclusions are checked on each row */
			continue;
		size_t added = 0;
		if (t->text_kind) {
			added = trigram_piece(&b, t->text, t->len);
		} else { /* tokens: a match holds each, not the separators between them */
			for (size_t a = 0; a < t->len;) {
				const char *sp = memchr(t->text + a, ' ', t->len - a);
				size_t z = sp ? (size_t)(sp - t->text) : t->len;
				added += trigram_piece(&b, t->text + a, z - a);
				a = z + 1;
			}
		}
		if (added == 0) {
			txc_buf_release(&b);
			return NULL;
		}
	}
	return b.buf; /* not empty: a parsed query has a term to find, and each added a piece */
}

struct txc_str txc_query_needle(const struct txc_query *q, size_t i)
{
	const struct txc_term *t = &q->v[i];
	if (t->text_kind)
		return (struct txc_str){t->text, t->len};
	struct txc_str best = {t->text, 0};
	for (size_t a = 0; a < t->len;) {
		const char *sp = memchr(t->text + a, ' ', t->len - a);
		size_t z = sp ? (size_t)(sp - t->text) : t->len;
		if (z - a > best.len)
			best = (struct txc_str){t->text + a, z - a};
		a = z + 1;
	}
	return best;
}

/* ---- matching ---- */

static bool same_folded(const unsigned char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fold(a[i]) != fold((unsigned char)b[i]))
			return false;
	return true;
}

/* The term's tokens from text position i on, one after another: the end of the last, or 0. */
static size_t words_at(const struct txc_term *t, const unsigned char *p, size_t len, size_t i, size_t ts, size_t te)
{
	size_t a = 0;
	for (;;) {
		const char *sp = memchr(t->text + a, ' ', t->len - a);
		size_t z = sp ? (size_t)(sp - t->text) : t->len, n = z - a;
		bool last = sp == NULL;
		bool ok = (te - ts == n || (last && t->prefix && te - ts > n)) && same_folded(p + ts, t->text + a, n);
		if (!ok)
			return 0;
		if (last)
			return te;
		a = z + 1;
		if (!next_token(p, len, &i, &ts, &te))
			return 0;
	}
}

/* The first match of term t at or after from: [*ms, *me). */
static bool find_term(const struct txc_term *t, const char *text, size_t len, size_t from, size_t *ms, size_t *me)
{
	const unsigned char *p = (const unsigned char *)text;
	if (t->text_kind) {
		for (size_t i = from; i + t->len <= len; i++) {
			if (fold(p[i]) == fold((unsigned char)t->text[0]) && same_folded(p + i, t->text, t->len)) {
				*ms = i;
				*me = i + t->len;
				return true;
			}
		}
		return false;
	}
	size_t i = from, ts, te;
	unsigned char c0 = fold((unsigned char)t->text[0]);
	while (next_token(p, len, &i, &ts, &te)) {
		if (fold(p[ts]) != c0)
			continue;
		size_t end = words_at(t, p, len, i, ts, te);
		if (end) {
			*ms = ts;
			*me = end;
			return true;
		}
	}
	return false;
}

bool txc_query_term_in(const struct txc_query *q, size_t i, const char *text, size_t len)
{
	size_t ms, me;
	return text != NULL && find_term(&q->v[i], text, len, 0, &ms, &me);
}

bool txc_query_match(const struct txc_query *q, const struct txc_str *cols, size_t n)
{
	for (size_t i = 0; i < q->n; i++) {
		bool found = false;
		for (size_t c = 0; c < n && !found; c++)
			found = txc_query_term_in(q, i, cols[c].ptr, cols[c].len);
		if (found == q->v[i].negated)
			return false;
	}
	return true;
}

bool txc_query_is_message_role(struct txc_str role)
{
	return role.ptr != NULL &&
	       (txc_str_eq(role, "user") || txc_str_eq(role, "assistant") || txc_str_eq(role, "tool"));
}

/* ---- snippets ---- */

static size_t back_to_char(const char *text, size_t i)
{
	while (i > 0 && ((unsigned char)text[i] & 0xC0) == 0x80)
		i--;
	return i;
}

static void add_mark(struct txc_snippet *s, size_t a, size_t z)
{
	if (z > s->end)
		z = s->end; /* still past a: a match starts before the window's end */
	if (s->n == TXC_SNIP_MARKS)
		return;
	size_t k = s->n;
	while (k > 0 && s->mark[k - 1][0] > a) /* kept in order */
		k--;
	if ((k > 0 && s->mark[k - 1][1] > a) || (k < s->n && s->mark[k][0] < z))
		return; /* overlaps one already marked */
	memmove(&s->mark[k + 1], &s->mark[k], (s->n - k) * sizeof(s->mark[0]));
	s->mark[k][0] = a;
	s->mark[k][1] = z;
	s->n++;
}

void txc_query_snippet(const struct txc_query *q, const char *text, size_t len, size_t width, struct txc_snippet *out)
{
	memset(out, 0, sizeof(*out));
	size_t first = len, ms, me;
	for (size_t i = 0; i < q->n; i++)
		if (!q->v[i].negated && find_term(&q->v[i], text, len, 0, &ms, &me) && ms < first)
			first = ms;
	if (first == len)
		first = 0;
	size_t start = first > width / 4 ? back_to_char(text, first - width / 4) : 0;
	size_t end = len - start > width ? back_to_char(text, start + width) : len;
	if (end <= first && first < len) /* a very long match: show its start */
		end = len - first > width ? back_to_char(text, first + width) : len;
	out->start = start;
	out->end = end;
	out->cut_left = start > 0;
	out->cut_right = end < len;
	for (size_t i = 0; i < q->n; i++) {
		if (q->v[i].negated)
			continue;
		/*
		 * From the text's start: a window may begin inside a token.  No
		 * match starts before the window (it starts at or before the
		 * first), and none is empty.
		 */
		for (size_t from = 0; from < end && find_term(&q->v[i], text, len, from, &ms, &me) && ms < end;
		     from = me)
			add_mark(out, ms, me);
	}
}
