/* json.c - JSON text inside strings: redacted literal by literal, each with its key */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* ---- JSON text and JSON trees ---- */

static bool hex4(const unsigned char *p, uint32_t *out)
{
	uint32_t v = 0;
	for (int k = 0; k < 4; k++) {
		unsigned char c = lower(p[k]);
		if (!is(c, C_DIG) && !(c >= 'a' && c <= 'f'))
			return false;
		v = v << 4 | (uint32_t)(is(c, C_DIG) ? c - '0' : c - 'a' + 10);
	}
	*out = v;
	return true;
}

/*
 * a JSON string literal's bytes p[0, n) (between the quotes) decoded into out; false if malformed.
 * Decoding never lengthens (an escape of 2 bytes gives 1, of 6 at most 3), so out is grown once
 * and written through an index.
 */
static bool decode_literal(const unsigned char *p, size_t n, struct txc_buf *out)
{
	static const char unescape[256] = {['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b',
					   ['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t'};
	txc_buf_grow(out, n);
	size_t w = out->len;
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *bs = memchr(p + i, '\\', n - i);
		size_t run = bs != NULL ? (size_t)(bs - p) - i : n - i; /* plain bytes: copied as one run */
		memcpy(out->buf + w, p + i, run);
		w += run;
		if ((i += run) >= n)
			break;
		i++; /* < n: literal_end ended the literal at an unescaped quote, so no lone '\\' ends it */
		if (unescape[p[i]] != '\0') {
			out->buf[w++] = unescape[p[i]];
			continue;
		}
		uint32_t cp, lo;
		if (p[i] != 'u' || i + 4 >= n || !hex4(p + i + 1, &cp)) {
			ok = false;
			break;
		}
		i += 4;
		if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 < n && p[i + 1] == '\\' && p[i + 2] == 'u' &&
		    hex4(p + i + 3, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			i += 6;
		}
		if (cp >= 0xD800 && cp <= 0xDFFF)
			cp = 0xFFFD;
		out->len = w;
		txc_utf8_put(out, cp);
		w = out->len;
	}
	out->len = w;
	out->buf[w] = '\0';
	return ok;
}

/*
 * p is a JSON object or array text: redact the strings inside it, each with the key it
 * belongs to, and re-encode only those that changed; every other byte stays.  -1 when p
 * is not JSON after all (out is left as it was), else how many secrets were found.
 */
/* the closing quote of a string literal that opens before from (len when there is none) */
static size_t literal_end(const unsigned char *p, size_t from, size_t len)
{
	for (size_t j = from; j < len;) {
		const unsigned char *q = memchr(p + j, '"', len - j);
		if (q == NULL)
			return len;
		size_t k = (size_t)(q - p), bs = 0;
		while (k - bs > from && p[k - bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0)
			return k;
		j = k + 1;
	}
	return len;
}

/*
 * A value literal as written that txc_rd_value would surely find nothing in, undecoded: plain
 * (prefilter.c), under no key or a key that names no secret (a secret key's value is replaced
 * whatever it holds).
 */
static bool plain_value(struct txc_redactor *r, struct txc_str key, struct txc_str lit)
{
	if (r->no_prefilter || !txc_rd_plain_literal((const unsigned char *)lit.ptr, lit.len))
		return false;
	return key.ptr == NULL || txc_rd_harmless_key_cached(r, key);
}

/*
 * The common key, a short word with no escape ("output", "exit_code") and its ':' after it,
 * judged at once: true when it is one and clean (plain, shorter than KEY_MIN or known clean),
 * *key and *end (past its closing quote) set.  false: json_clean reads it the general way.
 */
static bool word_key(struct txc_redactor *r, const unsigned char *p, size_t i, size_t len, struct txc_str *key,
		     size_t *end)
{
	size_t j = i + 1, stop = len - i > KCACHE_LEN + 1 ? i + KCACHE_LEN + 1 : len;
	while (j < stop && is(p[j], WORD))
		j++;
	if (j >= len || p[j] != '"')
		return false;
	size_t k = j + 1;
	while (k < len && is(p[k], C_SPACE))
		k++;
	struct txc_str lit = {(const char *)p + i + 1, j - i - 1};
	if (k >= len || p[k] != ':' ||
	    (lit.len >= KEY_MIN && !txc_rd_clean_key_cached(r, lit) &&
	     !txc_rd_plain_text((const unsigned char *)lit.ptr, lit.len)))
		return false;
	*key = lit, *end = j + 1;
	return true;
}

/*
 * The quick no for a JSON text (the prefilter's: not when it is off): true when
 * redact_json_text would surely find nothing in it and return 0.  It is JSON by that function's
 * own test (the bytes outside the strings C_JSON, every literal closed); every value literal is
 * plain under a key that names no secret (plain_value); every key literal holds no escape and is
 * plain, shorter than KEY_MIN or known clean (txc_rd_clean_key_cached).  A plain literal's closing
 * quote is found by the prefilter's own pass (txc_rd_plain_literal_end).  Anything else: false,
 * and redact_json_text reads the text its own way.
 */
static bool json_clean(struct txc_redactor *r, const unsigned char *p, size_t len)
{
	struct txc_str key = TXC_STR_NULL;
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		if (c != '"') {
			unsigned cl = txc_rd_tab.cls[c];
			if (!(cl & C_JSON))
				return false;
			if (cl & C_OPEN)
				key = TXC_STR_NULL;
			i++;
			continue;
		}
		if (word_key(r, p, i, len, &key, &i))
			continue;
		size_t j = i + 1 + txc_rd_plain_literal_end(p + i + 1, len - i - 1);
		bool plain = j < len;
		if (!plain && (j = literal_end(p, i + 1, len)) >= len)
			return false;
		size_t k = j + 1;
		while (k < len && is(p[k], C_SPACE))
			k++;
		struct txc_str lit = {(const char *)p + i + 1, j - i - 1};
		if (k < len && p[k] == ':') {
			if (memchr(lit.ptr, '\\', lit.len) != NULL ||
			    (!plain && lit.len >= KEY_MIN && !txc_rd_clean_key_cached(r, lit)))
				return false;
			key = lit;
		} else {
			if (!plain || !(key.ptr == NULL || txc_rd_harmless_key_cached(r, key)))
				return false;
			key = TXC_STR_NULL;
		}
		i = j + 1;
	}
	return true;
}

/* an object key of a JSON text, scanned like any string; one found clean is noted for json_clean */
static size_t scan_key(struct txc_redactor *r, struct txc_str k, struct txc_buf *red)
{
	if (k.len < KEY_MIN)
		return 0;
	size_t n = txc_rd_scan(r, k.ptr, k.len, red);
	if (n == 0)
		txc_rd_note_clean_key(r, k);
	return n;
}

static long redact_json_text(struct txc_redactor *r, const unsigned char *p, size_t len, struct txc_buf *out)
{
	size_t mark = out->len, copied = 0, found = 0;
	struct txc_redactor counted = *r; /* not JSON after all: the text scan counts again */
	struct txc_buf key = TXC_BUF_INIT, dec = TXC_BUF_INIT, red = TXC_BUF_INIT;
	bool have_key = false;
	long rc = 0;
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		if (c != '"') {
			if (!is(c, C_JSON)) {
				rc = -1;
				break;
			}
			if (c == ',' || c == '{' || c == '[')
				have_key = false;
			i++;
			continue;
		}
		size_t j = literal_end(p, i + 1, len);
		if (j >= len) {
			rc = -1;
			break;
		}
		size_t k = j + 1;
		while (k < len && is(p[k], C_SPACE))
			k++;
		bool is_key = k < len && p[k] == ':';
		struct txc_str lit = {(const char *)p + i + 1, j - i - 1};
		if (!is_key && plain_value(r, have_key ? (struct txc_str){key.buf, key.len} : TXC_STR_NULL, lit)) {
			have_key = false, i = j + 1; /* txc_rd_value would find nothing */
			continue;
		}
		bool esc = memchr(lit.ptr, '\\', lit.len) != NULL;
		if (esc) {
			txc_buf_reset(&dec);
			if (!decode_literal(p + i + 1, j - i - 1, &dec)) {
				rc = -1;
				break;
			}
			lit = (struct txc_str){dec.buf, dec.len};
		}
		if (is_key) {
			txc_buf_reset(&key);
			txc_buf_add(&key, lit.ptr, lit.len);
			have_key = true;
			txc_buf_reset(&red);
			size_t n = scan_key(r, lit, &red);
			if (n) { /* a token as a key: the key is shown like any string */
				txc_buf_add(out, p + copied, i - copied);
				txc_json_emit_str(out, red.buf, red.len);
				copied = j + 1;
				found += n;
			}
		} else {
			txc_buf_reset(&red);
			struct txc_str kk = have_key ? (struct txc_str){key.buf, key.len} : TXC_STR_NULL;
			size_t n = txc_rd_value(r, kk, lit.ptr, lit.len, &red);
			if (n) {
				txc_buf_add(out, p + copied, i - copied);
				txc_json_emit_str(out, red.buf, red.len);
				copied = j + 1;
				found += n;
			}
			have_key = false;
		}
		i = j + 1;
	}
	if (rc == 0 && found) {
		txc_buf_add(out, p + copied, len - copied);
		rc = (long)found;
	} else {
		txc_buf_truncate(out, mark);
		*r = counted;
	}
	txc_buf_release(&key);
	txc_buf_release(&dec);
	txc_buf_release(&red);
	return rc;
}

/* a JSON object or array text? (its first byte after blanks) */
static bool json_like(const char *p, size_t len)
{
	size_t i = 0;
	while (i < len && is((unsigned char)p[i], C_SPACE))
		i++;
	return i < len && (p[i] == '{' || p[i] == '[');
}

/* text, or a JSON text inside a string, redacted into out (written only when there is a secret) */
static size_t redact_any(struct txc_redactor *r, const char *p, size_t len, struct txc_buf *out)
{
	if (json_like(p, len)) {
		if (!r->no_prefilter && json_clean(r, (const unsigned char *)p, len))
			return 0; /* what redact_json_text would find */
		long n = redact_json_text(r, (const unsigned char *)p, len, out);
		if (n >= 0)
			return (size_t)n;
	}
	return txc_rd_scan(r, p, len, out);
}

/* a string under key: kept (signatures), wholly replaced (a secret key's value), or scanned */
size_t txc_rd_value(struct txc_redactor *r, struct txc_str key, const char *p, size_t len, struct txc_buf *out)
{
	if (key.ptr != NULL && txc_rd_keep_key(key))
		return 0;
	if (key.ptr != NULL && !json_like(p, len)) {
		struct keyinfo ki = txc_rd_classify_key_cached(r, key);
		const unsigned char *v = (const unsigned char *)p;
		if (ki.st != S_NONE && len <= 16384 &&
		    txc_rd_plausible(v, len, ki.st, (const unsigned char *)key.ptr, key.len)) {
			size_t n = txc_rd_scan(r, p, len, out); /* a known shape inside keeps its own kind */
			if (n)
				return n;
			txc_rd_marker(out, ki.kind, p, len);
			txc_rd_count(r, ki.kind);
			return 1;
		}
	}
	return redact_any(r, p, len, out);
}
