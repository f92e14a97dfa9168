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

/* a-z, ' ', '\n' (and '\\' when bs): the bytes a plain text is made of */
static bool plain_byte(unsigned char c, bool bs)
{
	return (c >= 'a' && c <= 'z') || c == ' ' || c == '\n' || (bs && c == '\\');
}

/* p[0, n) scalar: plain bytes, and no "sw" from p[0] on (p[n] is not read) */
static bool plain_tail(const unsigned char *p, size_t n, bool bs)
{
	for (size_t i = 0; i < n; i++)
		if (!plain_byte(p[i], bs) || (p[i] == 's' && i + 1 < n && p[i + 1] == 'w'))
			return false;
	return true;
}

#if defined(__SSE2__)
/* 16 bytes at p: the mask of bytes that are plain and do not begin "sw" (p[16] is read) */
static unsigned block16(const unsigned char *p, __m128i bk)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i y = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
	/* (x - 'a') + 0x80 is below 0x80 + 26 as a signed byte for a-z alone */
	__m128i ok =
		_mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - 'a'))), _mm_set1_epi8((char)(0x80 + 26)));
	ok = _mm_or_si128(ok,
			  _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))));
	ok = _mm_or_si128(ok, _mm_cmpeq_epi8(x, bk));
	__m128i sw = _mm_and_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('s')), _mm_cmpeq_epi8(y, _mm_set1_epi8('w')));
	return (unsigned)_mm_movemask_epi8(_mm_andnot_si128(sw, ok));
}
#endif

#if TXC_RD_AVX2
/* the 32-byte form of block16, 64 bytes a step: how many bytes from 0 passed (a multiple of 64) */
__attribute__((target("avx2"))) static size_t plain_avx2(const unsigned char *p, size_t n, bool bs)
{
	const __m256i lo = _mm256_set1_epi8((char)(0x80 - 'a')), top = _mm256_set1_epi8((char)(0x80 + 26));
	const __m256i sp = _mm256_set1_epi8(' '), nl = _mm256_set1_epi8('\n'), bk = _mm256_set1_epi8(bs ? '\\' : ' ');
	const __m256i s = _mm256_set1_epi8('s'), w = _mm256_set1_epi8('w');
	size_t i = 0;
	for (; i + 65 <= n; i += 64) { /* p[i + 64] is read for the "sw" across the step's end */
		__m256i all = _mm256_set1_epi8(-1);
		for (int k = 0; k < 64; k += 32) {
			__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + k));
			__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + k + 1));
			__m256i ok = _mm256_cmpgt_epi8(top, _mm256_add_epi8(x, lo));
			ok = _mm256_or_si256(ok, _mm256_or_si256(_mm256_cmpeq_epi8(x, sp), _mm256_cmpeq_epi8(x, nl)));
			ok = _mm256_or_si256(ok, _mm256_cmpeq_epi8(x, bk));
			__m256i sw = _mm256_and_si256(_mm256_cmpeq_epi8(x, s), _mm256_cmpeq_epi8(y, w));
			all = _mm256_and_si256(all, _mm256_andnot_si256(sw, ok));
		}
		if ((unsigned)_mm256_movemask_epi8(all) != 0xffffffffu)
			return i;
	}
	return i;
}
#endif

/* p[0, n): plain bytes alone (and '\\' when bs), and no "sw" */
static bool plain_bytes(const unsigned char *p, size_t n, bool bs)
{
	size_t i = 0;
#if TXC_RD_AVX2
	static int avx2 = -1; /* a benign race: every thread computes the same */
	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	if (avx2 && n >= 65) {
		i = plain_avx2(p, n, bs);
		if (i + 65 <= n)
			return false;
	}
#endif
#if defined(__SSE2__)
	__m128i bk = _mm_set1_epi8(bs ? '\\' : ' ');
	for (; i + 17 <= n; i += 16)
		if (block16(p + i, bk) != 0xffffu)
			return false;
#endif
	return plain_tail(p + i, n - i, bs);
}

bool txc_rd_plain_text(const unsigned char *p, size_t n)
{
	return plain_bytes(p, n, false);
}

bool txc_rd_plain_literal(const unsigned char *p, size_t n)
{
	if (!plain_bytes(p, n, true))
		return false;
	/* escapes read left to right: each backslash must begin "\n" */
	for (const unsigned char *b = memchr(p, '\\', n), *e = p + n; b != NULL; b = memchr(b, '\\', (size_t)(e - b)))
		if (++b == e || *b++ != 'n')
			return false;
	return true;
}
