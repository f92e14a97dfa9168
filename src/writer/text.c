/*
 * text.c - text helpers the document writers share: cleaning untrusted text
 * (UTF-8, ANSI, controls), counting, percent-encoding, and the Markdown
 * fences, code spans and inline escaping that Markdown-producing writers use.
 */
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "render.h"

static size_t txc_text_longest_run(const char *p, size_t len, char ch)
{
	size_t best = 0;
	for (const char *q = p, *end = p + len; (q = memchr(q, ch, (size_t)(end - q))) != NULL;) {
		const char *r = q; /* memchr to each run: a per-byte scan was most of txc_md_fence() */
		while (q < end && *q == ch)
			q++;
		if ((size_t)(q - r) > best)
			best = (size_t)(q - r);
	}
	return best;
}

/* past an escape sequence whose ESC is at i - 1: CSI, OSC, or a two-byte ESC x */
static size_t skip_escape(const char *p, size_t len, size_t i)
{
	/* only ASCII belongs to a sequence: a UTF-8 byte ends it unconsumed */
	if (i < len && p[i] == '[') {
		i++;
		while (i < len && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] <= 0x3F)
			i++;
		if (i < len && (unsigned char)p[i] >= 0x40 && (unsigned char)p[i] <= 0x7E)
			i++;
	} else if (i < len && p[i] == ']') {
		size_t j = i + 1;
		while (j < len && p[j] != 0x07 && !(p[j] == 0x1B && j + 1 < len && p[j + 1] == '\\'))
			j++;
		if (j < len) /* past the BEL, or past ESC and backslash */
			return j + (p[j] == 0x1B ? 2 : 1);
		return i + 1; /* never ended: not a sequence; only ESC ] goes, the text after it stays */
	} else if (i < len && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] <= 0x7E) {
		i++;
	}
	return i;
}

/* a byte strip_ansi() acts on: C0 controls but \n and \t (ESC and \r among them), and DEL */
static bool control(unsigned char c)
{
	return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F;
}

/* 0x80 in each byte of x that is zero, nothing elsewhere (exact: no carry crosses a byte) */
static uint64_t zero_bytes(uint64_t x)
{
	const uint64_t low7 = 0x7F7F7F7F7F7F7F7Fu;
	return ~(((x & low7) + low7) | x | low7);
}

/* past the bytes at p[i..len) strip_ansi() keeps as they are, eight at a time where none of them
 * is a control (a per-byte copy was most of a bulk export's text cleaning) */
static size_t skip_plain(const char *p, size_t i, size_t len)
{
#if defined(__SSE2__)
	/* sixteen at a time: unsigned below 0x20 (the sign bit flipped, a signed compare) but \n and
	 * \t, or DEL; the first one exact */
	const __m128i flip = _mm_set1_epi8((char)0x80), lim = _mm_set1_epi8((char)(0x20 ^ 0x80));
	const __m128i nl = _mm_set1_epi8('\n'), tab = _mm_set1_epi8('\t'), del = _mm_set1_epi8(0x7F);
	for (; i + 16 <= len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i low = _mm_cmplt_epi8(_mm_xor_si128(x, flip), lim);
		__m128i keep = _mm_or_si128(_mm_cmpeq_epi8(x, nl), _mm_cmpeq_epi8(x, tab));
		unsigned m =
			(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(keep, low), _mm_cmpeq_epi8(x, del)));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	const uint64_t ones = 0x0101010101010101u, low7 = 0x7F * ones;
	for (uint64_t w; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		uint64_t below = ~(((w & low7) + 0x60 * ones) | w | low7); /* the bytes below 0x20 */
		if ((below & ~zero_bytes(w ^ ('\n' * ones)) & ~zero_bytes(w ^ ('\t' * ones))) | zero_bytes(w ^ low7))
			break; /* a control among these 8: found below, within them */
	}
	while (i < len && !control((unsigned char)p[i]))
		i++;
	return i;
}

/* strip ANSI escape sequences (CSI, OSC, two-byte ESC x) and stray C0 controls but \n \t */
static void strip_ansi(struct txc_buf *out, const char *p, size_t len)
{
	size_t i = 0, run = 0;
	while ((i = skip_plain(p, i, len)) < len) {
		txc_buf_add(out, p + run, i - run); /* the plain bytes before this one, at once */
		unsigned char c = (unsigned char)p[i];
		if (c == 0x1B) {
			i = skip_escape(p, len, i + 1);
		} else if (c == '\r' && i + 1 < len && p[i + 1] == '\n') {
			i++;
		} else {
			txc_buf_addstr(out, c == '\r' ? "\n" : "\xEF\xBF\xBD");
			i++;
		}
		run = i;
	}
	txc_buf_add(out, p + run, len - run);
}

/* valid UTF-8, no ANSI, LF line ends */
void txc_text_clean(struct txc_buf *out, const char *p, size_t len)
{
	txc_buf_grow(out, len);       /* (what is kept is at most the input: one allocation, not a doubling series) */
	if (txc_utf8_valid(p, len)) { /* the usual case: no repaired copy */
		strip_ansi(out, p, len);
		return;
	}
	struct txc_buf t = TXC_BUF_INIT;
	txc_utf8_repair(&t, p, len);
	strip_ansi(out, t.buf, t.len);
	txc_buf_release(&t);
}

size_t txc_text_count_lines(const char *p, size_t len)
{
	if (len == 0)
		return 0;
	size_t n = 1;
	for (const char *q = p, *end = p + len - 1; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
		n++; /* memchr: a per-byte count was 3% of a Markdown export */
	return n;
}

void txc_md_fence(struct txc_buf *b, const char *lang, const char *p, size_t len)
{
	size_t n = txc_text_longest_run(p, len, '`') + 1;
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
void txc_md_code_span(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_text_clean(&t, p, len);
	for (size_t i = 0; i < t.len; i++)
		if (t.buf[i] == '\n' || t.buf[i] == '\t')
			t.buf[i] = ' ';
	size_t n = txc_text_longest_run(t.buf, t.len, '`') + 1;
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
void txc_md_inline(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_text_clean(&t, p, len);
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
			txc_buf_addf(b, "\\%c", c);
		else
			txc_buf_addch(b, c);
	}
	txc_buf_release(&t);
}

/* Percent-encode a relative link so that no character can end the link early. */
void txc_text_percent_encode(struct txc_buf *b, struct txc_str p)
{
	txc_buf_add_pct_n(b, p.ptr, p.len, "/-._~");
}
