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
 *
 * All of it is one question, the first bad position of a text (plain_span): a byte not plain, an
 * "s" followed by "w", (in a literal) a backslash not followed by "n".  json.c asks it of a
 * literal's bytes and everything after them, so the same pass finds the closing quote (the first
 * bad byte, when the literal is plain).  tests/unit/test_redact_prefilter.c runs every corpus case
 * and many mutated ones with the prefilter on and off and asserts the same finds.
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

/* is p[i] (of p[0, n)) bad: not plain, the "s" of "sw", or (bs) a backslash not followed by "n" */
static bool bad_at(const unsigned char *p, size_t i, size_t n, bool bs)
{
	unsigned char c = p[i];
	if (!plain_byte(c, bs))
		return true;
	if (c == 's')
		return i + 1 < n && p[i + 1] == 'w';
	return c == '\\' && (i + 1 == n || p[i + 1] != 'n');
}

/* p[0, n) one byte at a time: the first bad position, n when none */
static size_t span_tail(const unsigned char *p, size_t n, bool bs)
{
	for (size_t i = 0; i < n; i++)
		if (bad_at(p, i, n, bs))
			return i;
	return n;
}

/*
 * The vector forms: x the bytes at some i, y those at i + 1; a step covers the bytes of x and the
 * pairs that start in x.  The last step is laid over the end (the bytes at n - W, the pairs from
 * n - W - 1 on, W the width), so no byte past p[n - 1] is read; the steps before it found nothing
 * in the part they share.  A backslash at n - 1 has no pair there: it is looked at alone.
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
INLINE size_t span_sse2(const unsigned char *p, size_t n, bool bs)
{
	for (size_t i = 0; i + 17 <= n; i += 16) {
		__m128i x = at16(p + i);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(odd16(x, bs), pairs16(x, at16(p + i + 1), bs)));
		if (m)
			return i + txc_rd_low_bit(m);
	}
	__m128i last = at16(p + n - 16);
	uint64_t m = (uint64_t)(unsigned)_mm_movemask_epi8(odd16(last, bs)) << 1 |
		     (unsigned)_mm_movemask_epi8(pairs16(at16(p + n - 17), last, bs));
	if (m) /* bit k: the byte at n - 17 + k */
		return n - 17 + txc_rd_low_bit(m);
	return bs && p[n - 1] == '\\' ? n - 1 : n;
}
#endif

#ifdef TXC_RD_AVX2
#define AVX2 __attribute__((target("avx2")))
/*
 * The bytes of x not plain, by a table of each nibble: hi[h] is the one bit of h's class
 * (0, 2, 5, 6, 7 or any other), lo[l] the classes in which l makes no plain byte; a byte is bad
 * where lo & hi is not 0.  A byte from 0x80 has a class of its own (h 8 to f), none plain.
 */
enum { NB_0 = 1, NB_2 = 2, NB_5 = 4, NB_6 = 8, NB_7 = 16, NB_X = 32 };
#define NB_HI NB_0, NB_X, NB_2, NB_X, NB_X, NB_5, NB_6, NB_7, NB_X, NB_X, NB_X, NB_X, NB_X, NB_X, NB_X, NB_X
/* '\n' is 0x0a, ' ' 0x20, '\\' 0x5c, a-o 0x61-0x6f, p-z 0x70-0x7a */
#define NB_LO(bs5)                                                                                                     \
	NB_X | NB_0 | NB_5 | NB_6, NB_X | NB_0 | NB_2 | NB_5, NB_X | NB_0 | NB_2 | NB_5, NB_X | NB_0 | NB_2 | NB_5,    \
		NB_X | NB_0 | NB_2 | NB_5, NB_X | NB_0 | NB_2 | NB_5, NB_X | NB_0 | NB_2 | NB_5,                       \
		NB_X | NB_0 | NB_2 | NB_5, NB_X | NB_0 | NB_2 | NB_5, NB_X | NB_0 | NB_2 | NB_5, NB_X | NB_2 | NB_5,   \
		NB_X | NB_0 | NB_2 | NB_5 | NB_7, NB_X | NB_0 | NB_2 | (bs5) | NB_7, NB_X | NB_0 | NB_2 | NB_5 | NB_7, \
		NB_X | NB_0 | NB_2 | NB_5 | NB_7, NB_X | NB_0 | NB_2 | NB_5 | NB_7
static const unsigned char nb_hi[32] = {NB_HI, NB_HI};
static const unsigned char nb_lo_text[32] = {NB_LO(NB_5), NB_LO(NB_5)};
static const unsigned char nb_lo_lit[32] = {NB_LO(0), NB_LO(0)};

AVX2 INLINE __m256i at32(const unsigned char *p)
{
	return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* the constants as memory, each one load (set1 costs a call three instructions to build) */
#define EACH(c)                  \
	{                        \
		[0 ... 31] = (c) \
	}
static const unsigned char v_nib[32] = EACH(0x0f), v_s[32] = EACH('s'), v_w[32] = EACH('w'), v_n[32] = EACH('n'),
			   v_bs[32] = EACH('\\');

/* the bytes of x not plain (not 0 there) */
AVX2 INLINE __m256i odd32(__m256i x, bool bs)
{
	__m256i nib = at32(v_nib);
	__m256i lo = _mm256_shuffle_epi8(at32(bs ? nb_lo_lit : nb_lo_text), _mm256_and_si256(x, nib));
	__m256i hi = _mm256_shuffle_epi8(at32(nb_hi), _mm256_and_si256(_mm256_srli_epi16(x, 4), nib));
	return _mm256_and_si256(lo, hi);
}

/* the bad pairs that start in x */
AVX2 INLINE __m256i pairs32(__m256i x, __m256i y, bool bs)
{
	__m256i bad = _mm256_and_si256(_mm256_cmpeq_epi8(x, at32(v_s)), _mm256_cmpeq_epi8(y, at32(v_w)));
	if (bs)
		bad = _mm256_or_si256(
			bad, _mm256_andnot_si256(_mm256_cmpeq_epi8(y, at32(v_n)), _mm256_cmpeq_epi8(x, at32(v_bs))));
	return bad;
}

/* the bytes at p, and the pairs that start there, that are bad (not 0 there) */
AVX2 INLINE __m256i bad32(const unsigned char *p, bool bs)
{
	__m256i x = at32(p);
	return _mm256_or_si256(odd32(x, bs), pairs32(x, at32(p + 1), bs));
}

/* bit k set: byte k of v is not 0 */
AVX2 INLINE uint64_t set32(__m256i v)
{
	return ~(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())) & 0xffffffffu;
}

/* the first bad position of a and b, the 64 bytes from i (one of them has one) */
AVX2 INLINE size_t first64(size_t i, __m256i a, __m256i b)
{
	return i + txc_rd_low_bit(set32(a) | set32(b) << 32);
}

/*
 * n >= 33: a first step of 32 alone (a key, or a text with a capital near its start, is decided
 * there), then four at once while they fit, one test for them all
 */
AVX2 INLINE size_t span_avx2(const unsigned char *p, size_t n, bool bs)
{
	__m256i first = bad32(p, bs);
	if (!_mm256_testz_si256(first, first))
		return txc_rd_low_bit(set32(first));
	size_t i = 32;
	for (; n - i >= 129; i += 128) {
		__m256i a = bad32(p + i, bs), b = bad32(p + i + 32, bs);
		__m256i c = bad32(p + i + 64, bs), d = bad32(p + i + 96, bs);
		__m256i all = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
		if (!_mm256_testz_si256(all, all)) {
			__m256i ab = _mm256_or_si256(a, b);
			return _mm256_testz_si256(ab, ab) ? first64(i + 64, c, d) : first64(i, a, b);
		}
	}
	for (; n - i >= 33; i += 32) {
		__m256i a = bad32(p + i, bs);
		if (!_mm256_testz_si256(a, a))
			return i + txc_rd_low_bit(set32(a));
	}
	__m256i last = at32(p + n - 32);
	uint64_t m = set32(odd32(last, bs)) << 1 | set32(pairs32(at32(p + n - 33), last, bs));
	if (m) /* bit k: the byte at n - 33 + k */
		return n - 33 + txc_rd_low_bit(m);
	return bs && p[n - 1] == '\\' ? n - 1 : n;
}
AVX2 static size_t span_avx2_text(const unsigned char *p, size_t n)
{
	return span_avx2(p, n, false);
}
AVX2 static size_t span_avx2_literal(const unsigned char *p, size_t n)
{
	return span_avx2(p, n, true);
}
#endif

/* p[0, n): the first bad position (n when none) */
INLINE size_t plain_span(const unsigned char *p, size_t n, bool bs)
{
#ifdef TXC_RD_AVX2
	static int avx2 = -1; /* a benign race: every thread finds the same */
	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	if (avx2 && n >= 33)
		return bs ? span_avx2_literal(p, n) : span_avx2_text(p, n);
#endif
#if defined(__SSE2__)
	if (n >= 17)
		return span_sse2(p, n, bs);
#endif
	return span_tail(p, n, bs);
}

bool txc_rd_plain_text(const unsigned char *p, size_t n)
{
	return plain_span(p, n, false) == n;
}

bool txc_rd_plain_literal(const unsigned char *p, size_t n)
{
	return plain_span(p, n, true) == n;
}

size_t txc_rd_plain_literal_end(const unsigned char *p, size_t n)
{
	size_t k = plain_span(p, n, true);
	return k < n && p[k] == '"' ? k : n;
}
