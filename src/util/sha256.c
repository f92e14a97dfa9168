/* sha256.c - FIPS 180-4 SHA-256 (manifest digests). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
		       p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

/*
 * The same block with the x86 SHA extensions (SHA-NI), when the CPU has them: the manifest's
 * digest of every byte written was a third of a first bulk export's instructions.  Four rounds
 * per step: the message schedule by sha256msg1/msg2, two rounds per sha256rnds2.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("sha,sse4.1,ssse3"))) static void block_ni(uint32_t h[8], const unsigned char *p)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL); /* big-endian words */
	__m128i tmp = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i s1 = _mm_loadu_si128((const __m128i *)&h[4]);
	tmp = _mm_shuffle_epi32(tmp, 0xB1);       /* CDAB */
	s1 = _mm_shuffle_epi32(s1, 0x1B);         /* EFGH */
	__m128i s0 = _mm_alignr_epi8(tmp, s1, 8); /* ABEF */
	s1 = _mm_blend_epi16(s1, tmp, 0xF0);      /* CDGH */
	__m128i abef = s0, cdgh = s1, w[4];
	for (int i = 0; i < 16; i++) {
		if (i < 4) {
			w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), swap);
		} else { /* W[t..t+3] from W[t-16..t-1]: w[i % 4] holds W[t-16..t-13] */
			__m128i x = _mm_sha256msg1_epu32(w[i % 4], w[(i + 1) % 4]);
			x = _mm_add_epi32(x, _mm_alignr_epi8(w[(i + 3) % 4], w[(i + 2) % 4], 4));
			w[i % 4] = _mm_sha256msg2_epu32(x, w[(i + 3) % 4]);
		}
		__m128i m = _mm_add_epi32(w[i % 4], _mm_loadu_si128((const __m128i *)&K[4 * i]));
		s1 = _mm_sha256rnds2_epu32(s1, s0, m);
		s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
	}
	s0 = _mm_add_epi32(s0, abef);
	s1 = _mm_add_epi32(s1, cdgh);
	tmp = _mm_shuffle_epi32(s0, 0x1B);   /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xB1);    /* DCHG */
	s0 = _mm_blend_epi16(tmp, s1, 0xF0); /* DCBA */
	s1 = _mm_alignr_epi8(s1, tmp, 8);    /* HGFE */
	_mm_storeu_si128((__m128i *)&h[0], s0);
	_mm_storeu_si128((__m128i *)&h[4], s1);
}

static bool have_sha_ni(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 9))) /* SSE4.1, SSSE3 */
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29)); /* SHA */
}
#endif

bool txc_sha_ni(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	static int ni = -1; /* decided once; the same answer in every thread */
	if (ni < 0)
		ni = have_sha_ni() && getenv("TXC_NO_SHA_NI") == NULL;
	return ni;
#else
	return false;
#endif
}

static void block_any(uint32_t h[8], const unsigned char *p)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (txc_sha_ni()) {
		block_ni(h, p);
		return;
	}
#endif
	block(h, p);
}

void txc_sha256_init(struct txc_sha256 *c)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->n = 0;
}

void txc_sha256_update(struct txc_sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	c->len += len;
	if (c->n) {
		size_t take = 64 - c->n < len ? 64 - c->n : len;
		memcpy(c->buf + c->n, p, take);
		c->n += take, p += take, len -= take;
		if (c->n < 64)
			return;
		block_any(c->h, c->buf);
		c->n = 0;
	}
	while (len >= 64) {
		block_any(c->h, p);
		p += 64, len -= 64;
	}
	memcpy(c->buf, p, len);
	c->n = len;
}

void txc_sha256_final(struct txc_sha256 *c, unsigned char out[32])
{
	unsigned char t[128] = {0};
	size_t n = c->n;
	memcpy(t, c->buf, n);
	t[n] = 0x80;
	size_t tl = n < 56 ? 64 : 128;
	uint64_t bits = c->len * 8;
	for (int i = 0; i < 8; i++)
		t[tl - 1 - i] = (unsigned char)(bits >> (8 * i));
	block_any(c->h, t);
	if (tl == 128)
		block_any(c->h, t + 64);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
}

void txc_sha256(const void *data, size_t len, unsigned char out[32])
{
	struct txc_sha256 c;
	txc_sha256_init(&c);
	txc_sha256_update(&c, data, len);
	txc_sha256_final(&c, out);
}
