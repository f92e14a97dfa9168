/* scan.c - the pass over a text: word starts tried against the shapes, = : ? & - + against keys and values */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine.h"

/* ---- the pass ---- */

size_t txc_rd_at_word(struct scan *s, size_t i)
{
	unsigned char c = s->p[i];
	size_t e;
	if (txc_rd_tab.first[c] != txc_rd_tab.first[c + 1] && (e = txc_rd_try_prefix(s, i)) != 0)
		return e;
	if (c == 'e' && (e = txc_rd_try_jwt(s, i)) != 0)
		return e;
	if ((c == 'b' || is(c, C_DIG)) && (e = txc_rd_try_telegram(s, i)) != 0)
		return e;
	if ((c == 'M' || c == 'N' || c == 'O') && (e = txc_rd_try_discord(s, i)) != 0)
		return e;
	if ((c == 'B' || c == 'b') && (e = txc_rd_try_bearer(s, i)) != 0)
		return e;
	if (c == 'd' && (e = txc_rd_skip_data_url(s, i)) != 0)
		return e;
	if (c == 'p' && (e = txc_rd_try_netrc(s, i)) != 0)
		return e;
	/* inside base64 (images) a word starts after '+' or '/', which every shape base64 can hold refuses */
	return 0;
}

#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

/* p[0, 8) as a little-endian number: byte k in bits 8k .. 8k + 7 */
static uint64_t load8(const unsigned char *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* can a shape of this slot start at p (8 bytes or more left)?  false: surely not */
static bool slot_may(const struct slot *sl, const unsigned char *p, size_t left)
{
	uint64_t x = load8(p);
	for (const struct quick *q = txc_rd_tab.quicks + sl->first, *e = q + sl->n; q < e; q++)
		if (((x | q->o) & q->m) == q->v)
			return true;
	/* 8 digits: no byte below '0', above '9' or with the high bit (skip_lower8's test) */
	if ((sl->flags & Q_DIGITS) && !(((x - ONES * '0') | (x + ONES * (127 - '9')) | x) & HIGH))
		return true;
	if (sl->flags & Q_DOT)
		for (size_t k = 24; k <= 28 && k < left; k++)
			if (p[k] == '.')
				return true;
	return false;
}

/* at a word start i whose two bytes have slot k (1 + its index): the end of a shape found there, or 0 */
static size_t shape_at(struct scan *s, size_t i, unsigned k)
{
	size_t left = s->len - i;
	if (left >= 8 && !slot_may(&txc_rd_tab.slots[k - 1], s->p + i, left))
		return 0;
	return txc_rd_at_word(s, i);
}

/* at a word start i: the end of a shape found there, or 0 */
static size_t word_start(struct scan *s, size_t i)
{
	unsigned k = i + 1 < s->len ? txc_rd_tab.pair_slot[s->p[i]][s->p[i + 1]] : 0;
	return k != 0 ? shape_at(s, i, k) : 0;
}

/* from i, past whole groups of 8 lower-case ASCII letters (the bulk of prose and code) */
static size_t skip_lower8(const unsigned char *p, size_t i, size_t len)
{
	while (i + 8 <= len) {
		uint64_t x;
		memcpy(&x, p + i, 8);
		/* a byte below 'a', or above 'z' (also any byte with the high bit) */
		if (((x - ONES * 'a') | (x + ONES * (127 - 'z')) | x) & HIGH)
			break;
		i += 8;
	}
	return i;
}

/* bytes where no rule starts and after which a word may start: controls, blanks, !"#$%, non-ASCII */
static bool quiet(unsigned char c)
{
	return c < '&' || c >= 0x80;
}

/*
 * A block of prose read at once: for each of its bytes, whether it is an ASCII letter and
 * whether it is quiet, as masks of STRIDE bits a byte (the last of them set), byte 0 lowest.
 */
#if defined(__SSE2__)
enum { BLOCK = 16, STRIDE = 1 };
typedef unsigned mask;
#define ALL_BITS 0xffffu
static mask block_masks(const unsigned char *p, mask *quiet)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* signed compares: x < '&' also holds for the bytes from 0x80; (x | 0x20) - 'a' + 0x80 is
	 * below 0x80 + 26 (as a signed byte) for a letter alone */
	__m128i z = _mm_add_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8((char)(0x80 - 'a')));
	*quiet = (mask)_mm_movemask_epi8(_mm_cmplt_epi8(x, _mm_set1_epi8('&')));
	return (mask)_mm_movemask_epi8(_mm_cmplt_epi8(z, _mm_set1_epi8((char)(0x80 + 26))));
}
#else
enum { BLOCK = 8, STRIDE = 8 };
typedef uint64_t mask;
#define ALL_BITS HIGH
static mask block_masks(const unsigned char *p, mask *quiet)
{
	/* 7 bits a byte, so that no carry crosses a byte; y | 0x20 folds the case */
	uint64_t x = load8(p), y = x & ~HIGH, z = y | ONES * 0x20;
	*quiet = (~(y + ONES * (0x80 - '&')) | x) & HIGH;
	return (z + ONES * (0x80 - 'a')) & ~(z + ONES * (0x80 - 'z' - 1)) & ~x & HIGH;
}
#endif
#define BYTE_BIT ((mask)1 << (STRIDE - 1)) /* byte 0's bit */

/*
 * From i, a block at a time while the bytes are letters and quiet bytes, the bulk of prose: in
 * them only a word start (a letter after a quiet byte) may begin a shape.  Returns where it stops:
 * at the first byte of another kind, past a shape found, or near the end.
 */
static size_t prose(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	mask before = i == 0 || !is(p[i - 1], WORD) ? BYTE_BIT : 0; /* a word may start at i */
	for (; i + BLOCK < s->len; i += BLOCK) {                    /* so a word start has a byte after it */
		mask quiet, alpha = block_masks(p + i, &quiet);
		mask rest = ~(alpha | quiet) & ALL_BITS;
		mask starts = alpha & (quiet << STRIDE | before);
		if (rest)
			starts &= (rest & (~rest + 1)) - 1; /* only before the first other byte */
		for (; starts; starts &= starts - 1) {
			size_t j = i + txc_rd_low_bit(starts) / STRIDE, e;
			unsigned k = txc_rd_tab.pair_slot[p[j]][p[j + 1]];
			if (k != 0 && (e = shape_at(s, j, k)) > j)
				return e;
		}
		if (rest)
			return i + txc_rd_low_bit(rest) / STRIDE;
		before = quiet >> (STRIDE * (BLOCK - 1));
	}
	return i;
}

/*
 * At i, just after ESC '[': a word that starts where the escape ends (\e[32mghp_...: a terminal
 * colours a token so, and the Markdown and terminal writers drop the escape, leaving the bare
 * token).  The end of a shape found there, else 0.
 */
static size_t after_csi(struct scan *s, size_t i)
{
	size_t k = i;
	while (k < s->len && k - i < 16 && (is(s->p[k], C_DIG) || s->p[k] == ';'))
		k++;
	if (k + 1 >= s->len || s->p[k] < '@' || s->p[k] > '~')
		return 0;
	size_t e = word_start(s, k + 1);
	return e > k + 1 ? e : 0;
}

/*
 * text redacted into out: how many secrets; out is written only when there is one.  Every rule
 * starts at a word start or at one of = : ? & - +, so the bytes where none can start are passed
 * over: a run of letters and digits at once, and prose a block at a time (prose() is tried after
 * a quiet byte; after short tries, only further and further on, so that code and punctuation do
 * not pay for tries that fail).
 */
size_t txc_rd_scan(struct txc_redactor *r, const char *text, size_t len, struct txc_buf *out)
{
	struct scan s = {r, (const unsigned char *)text, len, 0, out, 0};
	const unsigned char *p = s.p;
	if (!r->no_prefilter && txc_rd_plain_text(p, len))
		return 0;
	size_t i = 0, again = 0, wait = 0; /* prose() is tried after a quiet byte from again on */
	while (i < len) {
		unsigned char c = p[i];
		size_t e = 0;
		if (is(c, ALNUM)) {
			if ((i == 0 || !is(p[i - 1], WORD)) && (e = word_start(&s, i)) > i) {
				i = e;
				continue;
			}
			if (i >= 2 && p[i - 1] == '[' && p[i - 2] == 0x1b && (e = after_csi(&s, i)) > i) {
				i = e;
				continue;
			}
			/* no shape starts inside a run of letters and digits: step over it */
			i = skip_lower8(p, i + 1, len);
			while (i < len && is(p[i], ALNUM))
				i++;
			continue;
		} else if (!is(c, C_TRIG)) {
			if (c == '[' && (e = txc_rd_own_marker(p, i, len)) != 0) {
				i = e;
				continue;
			}
			if (++i >= again && quiet(c)) {
				size_t from = i;
				i = prose(&s, i);
				/* hardly any prose here: the next try later, and later again after each short one */
				wait = i - from >= BLOCK ? 0 : wait == 0 ? 2 * BLOCK : wait < 1024 ? 2 * wait : wait;
				again = i + wait;
			}
			continue;
		} else if (c == '=' || c == ':')
			e = c == ':' && (e = txc_rd_try_url(&s, i)) != 0 ? e : txc_rd_try_kv(&s, i);
		else if (c == '?' || c == '&')
			e = txc_rd_try_query(&s, i);
		else if (c == '-' && (i == 0 || p[i - 1] != '-'))
			e = (e = txc_rd_try_pem(&s, i)) != 0 ? e : txc_rd_try_flag(&s, i);
		else if (c == '+')
			e = txc_rd_try_phone(&s, i);
		i = e > i ? e : i + 1;
	}
	if (s.found)
		txc_buf_add(out, p + s.copied, len - s.copied);
	return s.found;
}

size_t txc_redact_text(struct txc_redactor *r, const char *text, size_t len, struct txc_buf *out)
{
	txc_rd_init();
	size_t n = txc_rd_scan(r, text, len, out);
	if (n == 0)
		txc_buf_add(out, text, len);
	return n;
}
