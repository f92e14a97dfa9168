/*
 * html_esc.c - HTML escaping for the HTML writer: everything from a transcript reaches a page
 * through here (entities, C1 controls and BOMs dropped, bidi controls shown). Split from
 * writer_html.c, which calls it; declared in render.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "render.h"

/* ---- escaping: everything from a transcript goes through here ---- */

static bool bidi_control(uint32_t cp)
{
	return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* the entity of an ASCII special, NULL for a byte that stays as it is */
static const char *entity(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

/* 0x80 in each byte of x that is zero, nothing elsewhere (exact: no carry crosses a byte) */
static uint64_t zero_bytes(uint64_t x)
{
	const uint64_t low7 = 0x7F7F7F7F7F7F7F7Fu;
	return ~(((x & low7) + low7) | x | low7);
}

/* past the ASCII bytes at p[i..len) that need no entity, eight at a time */
static size_t skip_plain_html(const char *p, size_t i, size_t len)
{
	const uint64_t ones = 0x0101010101010101u;
	for (uint64_t w; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		if ((w & 0x80 * ones) ||
		    (zero_bytes(w ^ ('&' * ones)) | zero_bytes(w ^ ('<' * ones)) | zero_bytes(w ^ ('>' * ones)) |
		     zero_bytes(w ^ ('"' * ones)) | zero_bytes(w ^ ('\'' * ones))))
			break; /* one of them is among these 8: the caller's loop finds it */
	}
	return i;
}

/* text already cleaned: entities for the five specials, bidi controls made visible, C1 and BOM as
 * U+FFFD; the bytes that stay are copied a run at a time (a call per character was a fifth of an
 * HTML export) */
void txc_html_esc_clean(struct txc_buf *b, const char *p, size_t len)
{
	static const bool special[128] = {['&'] = true, ['<'] = true, ['>'] = true, ['"'] = true, ['\''] = true};
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, run = 0;
	while ((i = skip_plain_html(p, i, len)) < len) {
		if (s[i] < 0x80 && !special[s[i]]) { /* non-ASCII is looked at character by character */
			i++;
			continue;
		}
		const char *ent = entity(s[i]);
		uint32_t cp = 0;
		size_t n = ent ? 1 : txc_utf8_seq(s + i, len - i, &cp);
		if (n != 0 && ent == NULL && !bidi_control(cp) && !((cp >= 0x80 && cp <= 0x9F) || cp == 0xFEFF)) {
			i += n; /* a character that stays: part of the run */
			continue;
		}
		txc_buf_add(b, p + run, i - run);
		if (ent != NULL)
			txc_buf_addstr(b, ent);
		else if (n != 0 && bidi_control(cp))
			txc_buf_addf(b, "<span class=\"bidi\">[U+%04X]</span>", (unsigned)cp);
		else /* C1, BOM; a stray byte cannot happen after cleaning, and is never passed on */
			txc_buf_addstr(b, "\xEF\xBF\xBD");
		i += n ? n : 1;
		run = i;
	}
	txc_buf_add(b, p + run, len - run);
}

/* untrusted text, any bytes: cleaned, then escaped */
void txc_html_esc(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf c = TXC_BUF_INIT;
	txc_text_clean(&c, p, len);
	txc_html_esc_clean(b, c.buf, c.len);
	txc_buf_release(&c);
}

void txc_html_esc_str(struct txc_buf *b, struct txc_str s)
{
	txc_html_esc(b, s.ptr ? s.ptr : "", s.len);
}

/* an attribute value: escaped, on one line (the quotes are the caller's) */
void txc_html_esc_attr(struct txc_buf *b, struct txc_str s)
{
	struct txc_buf c = TXC_BUF_INIT;
	txc_text_clean(&c, s.ptr ? s.ptr : "", s.len);
	for (size_t i = 0; i < c.len; i++)
		if (c.buf[i] == '\n' || c.buf[i] == '\t')
			c.buf[i] = ' ';
	txc_html_esc_clean(b, c.buf, c.len);
	txc_buf_release(&c);
}
