/* sha1.c - FIPS 180-4 SHA-1, for name-based (version 5) UUIDs only (txc_uuid5): no secret rests on it. */
#include <stdbool.h>
#include <string.h>

#include "txc/util.h"

static uint32_t rol32(uint32_t x, int k)
{
	return (x << k) | (x >> (32 - k));
}

static void block(uint32_t h[5], const unsigned char *p)
{
	uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
		       p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (int i = 0; i < 80; i++) {
		uint32_t f, k;
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5A827999u;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ED9EBA1u;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8F1BBCDCu;
		} else {
			f = b ^ c ^ d;
			k = 0xCA62C1D6u;
		}
		uint32_t t = rol32(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol32(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

/*
 * The same block with the x86 SHA extensions when the CPU has them (txc_sha_ni()): every Claude
 * record's uuid is two blocks, and the portable block was a tenth of a conversion to Claude.
 * Twenty steps of four rounds (sha1rnds4, its function by step / 5); the next step's E by
 * sha1nexte; the schedule four words at a time by sha1msg1, an xor and sha1msg2.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("sha,sse4.1,ssse3"))) static __m128i rounds4(__m128i abcd, __m128i e, int step)
{
	switch (step / 5) { /* (the function is an immediate) */
	case 0: return _mm_sha1rnds4_epu32(abcd, e, 0);
	case 1: return _mm_sha1rnds4_epu32(abcd, e, 1);
	case 2: return _mm_sha1rnds4_epu32(abcd, e, 2);
	default: return _mm_sha1rnds4_epu32(abcd, e, 3);
	}
}

__attribute__((target("sha,sse4.1,ssse3"))) static void block_ni(uint32_t h[5], const unsigned char *p)
{
	const __m128i swap = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL); /* W0 in the top lane */
	__m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)h), 0x1B);
	__m128i e_in = _mm_set_epi32((int)h[4], 0, 0, 0), abcd_in = abcd, msg[4], e, prev = abcd;
	for (int g = 0; g < 20; g++) {
		if (g < 4)
			msg[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * g)), swap);
		e = g == 0 ? _mm_add_epi32(e_in, msg[0]) : _mm_sha1nexte_epu32(prev, msg[g % 4]);
		prev = abcd;
		abcd = rounds4(abcd, e, g);
		/* the words of step g + 1, g + 2 and g + 3 taken a stage further with step g's */
		if (g >= 3 && g <= 18)
			msg[(g + 1) % 4] = _mm_sha1msg2_epu32(msg[(g + 1) % 4], msg[g % 4]);
		if (g >= 2 && g <= 17)
			msg[(g + 2) % 4] = _mm_xor_si128(msg[(g + 2) % 4], msg[g % 4]);
		if (g >= 1 && g <= 16)
			msg[(g + 3) % 4] = _mm_sha1msg1_epu32(msg[(g + 3) % 4], msg[g % 4]);
	}
	__m128i e_out = _mm_sha1nexte_epu32(prev, e_in);
	_mm_storeu_si128((__m128i *)(void *)h, _mm_shuffle_epi32(_mm_add_epi32(abcd, abcd_in), 0x1B));
	h[4] = (uint32_t)_mm_extract_epi32(e_out, 3);
}
#endif

static void block_any(uint32_t h[5], const unsigned char *p)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (txc_sha_ni()) {
		block_ni(h, p);
		return;
	}
#endif
	block(h, p);
}

void txc_sha1_pair(const void *a, size_t na, const void *b, size_t nb, unsigned char out[20])
{
	uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
	unsigned char blk[64];
	uint64_t bits = ((uint64_t)na + nb) * 8;
	size_t n = 0;
	const unsigned char *part[2] = {a, b};
	size_t len[2] = {na, nb};
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < len[k];) {
			size_t take = len[k] - i < 64 - n ? len[k] - i : 64 - n;
			memcpy(blk + n, part[k] + i, take);
			n += take;
			i += take;
			if (n == 64) {
				block_any(h, blk);
				n = 0;
			}
		}
	blk[n++] = 0x80;
	if (n > 56) {
		memset(blk + n, 0, 64 - n);
		block_any(h, blk);
		n = 0;
	}
	memset(blk + n, 0, 56 - n);
	for (int k = 0; k < 8; k++)
		blk[56 + k] = (unsigned char)(bits >> (56 - 8 * k));
	block_any(h, blk);
	for (int k = 0; k < 20; k++)
		out[k] = (unsigned char)(h[k / 4] >> (24 - 8 * (k % 4)));
}

/* ---- UUIDv5 (RFC 9562): SHA-1 of the namespace and the name (txc_sha1_pair).  Every Claude record
 * has one: libuuid's (a byte at a time, its namespace parsed with strtoul) was a tenth of a
 * conversion to Claude. ---- */

static int hex_digit(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : 0;
}

void txc_uuid5(char out[37], const char *ns_text, const char *name, size_t len)
{
	static const char hx[] = "0123456789abcdef";
	unsigned char ns[16], u[16];
	for (size_t i = 0, k = 0; k < 16 && ns_text[i]; i++) /* a constant of txc's: well formed */
		if (ns_text[i] != '-') {
			ns[k++] = (unsigned char)(hex_digit(ns_text[i]) << 4 | hex_digit(ns_text[i + 1]));
			i++;
		}
	unsigned char d[20];
	txc_sha1_pair(ns, 16, name, len, d);
	memcpy(u, d, 16);
	u[6] = (unsigned char)((u[6] & 0x0F) | 0x50); /* version 5 */
	u[8] = (unsigned char)((u[8] & 0x3F) | 0x80); /* the RFC's variant */
	char *o = out;
	for (int k = 0; k < 16; k++) {
		if (k == 4 || k == 6 || k == 8 || k == 10)
			*o++ = '-';
		*o++ = hx[u[k] >> 4];
		*o++ = hx[u[k] & 15];
	}
	*o = '\0';
}
