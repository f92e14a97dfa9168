/*
 * prefilter.c - the quick no before the pass: a text of lower-case words, spaces and line ends
 * holds no secret, so it is not scanned (most of a transcript's prose and tool output).
 *
 * Why none is there: every rule needs a byte such a text lacks.
 *   - Each prefix of rules.c has a byte outside a-z (- _ . / : a capital or a digit).
 *   - JWT begins "eyJ", Discord with a capital, Telegram with digits; a bare Bearer's token
 *     needs a digit (mixed()).
 *   - key = value, URLs, queries, cookies, PEM blocks, flags and phones start at = : ? & - +,
 *     txc's own markers at '['.
 *   - .netrc (machine HOST login USER password PW) is words alone: a text with "sw" in it (as
 *     in "password") is scanned.
 * A JSON string literal as written (json.c) may also hold the escape \n, which decodes to a
 * line end; any other escape, and a lone backslash, sends it to the pass.
 * tests/unit/test_redact.c runs every corpus case and many mutated ones with the prefilter on
 * and off and asserts the same finds.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TXC_RD_AVX2 1
#endif

#include "engine.h"

#define INLINE static inline __attribute__((always_inline))

/* a-z, ' ', '\n' (and '\\' when bs): the bytes a plain text is made of */
static bool plain_byte(unsigned char c, bool bs)
{
	return (c >= 'a' && c <= 'z') || c == ' ' || c == '\n' || (bs && c == '\\');
}

/* p[0, n) one byte at a time: what plain_bytes says */
static bool plain_tail(const unsigned char *p, size_t n, bool bs)
{
	for (size_t i = 0; i < n; i++) {
		if (!plain_byte(p[i], bs) || (p[i] == 's' && i + 1 < n && p[i + 1] == 'w'))
			return false;
		if (p[i] == '\\' && (i + 1 == n || p[++i] != 'n'))
			return false; /* when bs: each backslash begins "\n" (so no two are side by side) */
	}
	return true;
}

/*
 * The vector form: x the bytes at some i, y those at i + 1.  Bad: a byte of x not plain, an "s"
 * followed by "w", (when bs) a backslash not followed by "n".  A step covers the bytes of x and
 * the pairs that start in x; the last step is laid over the end (x at n - W - 1, y at n - W), so
 * no byte past p[n - 1] is read.
 */
#if defined(__SSE2__)
/* the bytes of x not plain */
INLINE __m128i odd16(__m128i x, bool bs)
{
	/* (x - 'a') + 0x80 is below 0x80 + 26 as a signed byte for a-z alone */
	__m128i ok =
		_mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - 'a'))), _mm_set1_epi8((char)(0x80 + 26)));
	ok = _mm_or_si128(ok,
			  _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))));
	if (bs)
		ok = _mm_or_si128(ok, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	return _mm_andnot_si128(ok, _mm_set1_epi8(-1));
}

/* the bad pairs that start in x */
INLINE __m128i pairs16(__m128i x, __m128i y, bool bs)
{
	__m128i bad = _mm_and_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('s')), _mm_cmpeq_epi8(y, _mm_set1_epi8('w')));
	if (bs)
		bad = _mm_or_si128(bad, _mm_andnot_si128(_mm_cmpeq_epi8(y, _mm_set1_epi8('n')),
							 _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
	return bad;
}

INLINE __m128i at16(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* n >= 17 */
INLINE bool plain_sse2(const unsigned char *p, size_t n, bool bs)
{
	for (size_t i = 0; i + 17 <= n; i += 16) {
		__m128i x = at16(p + i);
		if (_mm_movemask_epi8(_mm_or_si128(odd16(x, bs), pairs16(x, at16(p + i + 1), bs))))
			return false;
	}
	__m128i last = at16(p + n - 16); /* bytes n - 16 .. n - 1, pairs from n - 17 on */
	return !_mm_movemask_epi8(_mm_or_si128(odd16(last, bs), pairs16(at16(p + n - 17), last, bs)));
}
#endif

#ifdef TXC_RD_AVX2
#define AVX2 __attribute__((target("avx2")))
AVX2 INLINE __m256i odd32(__m256i x, bool bs)
{
	__m256i ok = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 26)),
				       _mm256_add_epi8(x, _mm256_set1_epi8((char)(0x80 - 'a'))));
	ok = _mm256_or_si256(ok, _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(' ')),
						 _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n'))));
	if (bs)
		ok = _mm256_or_si256(ok, _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\\')));
	return _mm256_andnot_si256(ok, _mm256_set1_epi8(-1));
}

AVX2 INLINE __m256i pairs32(__m256i x, __m256i y, bool bs)
{
	__m256i bad = _mm256_and_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('s')),
				       _mm256_cmpeq_epi8(y, _mm256_set1_epi8('w')));
	if (bs)
		bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_cmpeq_epi8(y, _mm256_set1_epi8('n')),
							       _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\\'))));
	return bad;
}

AVX2 INLINE __m256i at32(const unsigned char *p)
{
	return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* n >= 33; two steps of 32 at once while they fit */
AVX2 INLINE bool plain_avx2(const unsigned char *p, size_t n, bool bs)
{
	size_t i = 0;
	for (; i + 65 <= n; i += 64) {
		__m256i x = at32(p + i), x2 = at32(p + i + 32);
		__m256i bad = _mm256_or_si256(odd32(x, bs), pairs32(x, at32(p + i + 1), bs));
		bad = _mm256_or_si256(bad, _mm256_or_si256(odd32(x2, bs), pairs32(x2, at32(p + i + 33), bs)));
		if (!_mm256_testz_si256(bad, bad))
			return false;
	}
	for (; i + 33 <= n; i += 32) {
		__m256i x = at32(p + i), bad = _mm256_or_si256(odd32(x, bs), pairs32(x, at32(p + i + 1), bs));
		if (!_mm256_testz_si256(bad, bad))
			return false;
	}
	__m256i last = at32(p + n - 32), bad = _mm256_or_si256(odd32(last, bs), pairs32(at32(p + n - 33), last, bs));
	return _mm256_testz_si256(bad, bad);
}
AVX2 static bool plain_avx2_text(const unsigned char *p, size_t n)
{
	return plain_avx2(p, n, false);
}
AVX2 static bool plain_avx2_literal(const unsigned char *p, size_t n)
{
	return plain_avx2(p, n, true);
}
#endif

/* p[0, n): plain bytes alone (and when bs, backslashes each beginning "\n"), and no "sw" */
INLINE bool plain_bytes(const unsigned char *p, size_t n, bool bs)
{
	if (n > 0 && bs && p[n - 1] == '\\')
		return false; /* a backslash at the end begins nothing (the vector steps see no pair there) */
#ifdef TXC_RD_AVX2
	static int avx2 = -1; /* a benign race: every thread finds the same */
	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	if (avx2 && n >= 33)
		return bs ? plain_avx2_literal(p, n) : plain_avx2_text(p, n);
#endif
#if defined(__SSE2__)
	if (n >= 17)
		return plain_sse2(p, n, bs);
#endif
	return plain_tail(p, n, bs);
}

bool txc_rd_plain_text(const unsigned char *p, size_t n)
{
	return plain_bytes(p, n, false);
}

bool txc_rd_plain_literal(const unsigned char *p, size_t n)
{
	return plain_bytes(p, n, true);
}
