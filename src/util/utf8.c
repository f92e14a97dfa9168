/* utf8.c - strict UTF-8 decoding and U+FFFD repair. */
#include <string.h>

#include "txc/util.h"

/* past the ASCII bytes at p[i..len), eight at a time: most transcript text is ASCII, and a
 * byte-by-byte scan of it was a tenth of a bulk export's instructions */
static size_t skip_ascii(const unsigned char *p, size_t i, size_t len)
{
	for (uint64_t w; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		if (w & 0x8080808080808080u)
			break;
	}
	while (i < len && p[i] < 0x80)
		i++;
	return i;
}

size_t txc_utf8_seq(const unsigned char *p, size_t len, uint32_t *cp)
{
	if (len == 0)
		return 0;
	unsigned c = p[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t n;
	uint32_t v, min;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2, v = c & 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3, v = c & 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return n;
}

bool txc_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while ((i = skip_ascii(p, i, len)) < len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(p + i, len - i, &cp);
		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

void txc_utf8_put(struct txc_buf *b, uint32_t cp)
{
	char t[4];
	size_t n;
	if (cp < 0x80) {
		t[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		t[0] = (char)(0xC0 | (cp >> 6));
		t[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		t[0] = (char)(0xE0 | (cp >> 12));
		t[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		t[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		t[0] = (char)(0xF0 | (cp >> 18));
		t[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		t[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		t[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	txc_buf_add(b, t, n);
}

void txc_utf8_repair(struct txc_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	while ((i = skip_ascii(p, i, len)) < len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(p + i, len - i, &cp);
		if (n) {
			i += n;
			continue;
		}
		txc_buf_add(b, s + run, i - run);
		txc_buf_add(b, "\xEF\xBF\xBD", 3);
		/* skip the maximal invalid prefix (WHATWG-style): at least one byte */
		i++;
		while (i < len && (p[i] & 0xC0) == 0x80)
			i++;
		run = i;
	}
	txc_buf_add(b, s + run, len - run);
}
