/*
 * number.c - Python's float repr, base 36.
 *
 * repr() prints the shortest digit string that reads back to the same double
 * (David Gay's mode 0).  glibc's printf/strtod are correctly rounded, so for
 * each precision we try the correctly rounded digits and, because the rounding
 * interval of a power of two is lopsided, their neighbours one unit away in
 * the last digit.  At most one of the three can round-trip when the rounded
 * one does not, so no closeness tie-break is needed.  Shorter strings are
 * found by the 15-digit fast path in txc_double_repr.
 *
 * Before both, repr_scaled answers most values exactly in integers (timestamps are most of the
 * doubles a store holds, and printf's multi-precision digits were 19% of `export --json`).
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

/* digits: d[0..n) without the point; exp10: value = 0.d1d2.. * 10^exp10 */
static int parse_e(const char *s, char *digits, int *exp10)
{
	int n = 0;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			digits[n++] = *s;
	digits[n] = '\0';
	*exp10 = atoi(s + 1) + 1;
	return n;
}

static double from_digits(const char *d, int n, int exp10)
{
	char t[64];
	snprintf(t, sizeof(t), "0.%.*se%d", n, d, exp10);
	return strtod(t, NULL);
}

/* add delta (+1/-1) to the digit string; returns new length, adjusts exp */
static int bump(char *d, int n, int *exp10, int delta)
{
	int i = n - 1;
	if (delta > 0) {
		while (i >= 0 && d[i] == '9')
			d[i--] = '0';
		if (i < 0) {
			memmove(d + 1, d, (size_t)n);
			d[0] = '1';
			(*exp10)++;
			d[n] = '\0'; /* keep n digits: the trailing 0 is dropped */
			return n;
		}
		d[i]++;
	} else {
		while (i >= 0 && d[i] == '0')
			d[i--] = '9';
		if (i < 0)
			return -1;
		d[i]--;
		if (d[0] == '0') {
			if (n == 1)
				return -1;
			memmove(d, d + 1, (size_t)n - 1);
			d[n - 1] = '9';
			(*exp10)--;
		}
	}
	return n;
}

static void layout(char *out, int neg, const char *d, int n, int e)
{
	char *o = out;
	while (n > 1 && d[n - 1] == '0')
		n--;
	if (neg)
		*o++ = '-';
	if (e <= -4 || e > 16) {
		*o++ = d[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, d + 1, (size_t)n - 1);
			o += n - 1;
		}
		int x = e - 1;
		o += sprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
	} else if (e <= 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = 0; i < -e; i++)
			*o++ = '0';
		memcpy(o, d, (size_t)n);
		o += n;
	} else {
		for (int i = 0; i < e; i++)
			*o++ = i < n ? d[i] : '0';
		*o++ = '.';
		if (n > e) {
			memcpy(o, d + e, (size_t)(n - e));
			o += n - e;
		} else {
			*o++ = '0';
		}
	}
	*o = '\0';
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* v's decimal digits in t (NUL-terminated); returns how many */
static int digits_of(uint64_t v, char t[24])
{
	char r[24];
	int n = 0;
	do {
		r[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		t[i] = r[n - 1 - i];
	t[n] = '\0';
	return n;
}

/*
 * a = m / 2^k exactly (1e-4 <= a < 2^53, so k >= 1).  For d = 0, 1, ... decimals, x is the integer
 * nearest a * 10^d; it reads back as a when |x/10^d - a| is under half an ulp, that is when
 * |2x*2^k - 2m*10^d| < 10^d (all below 2^125 for d <= 21).  The first d that reads back gives the
 * fewest digits, and x, the nearest, is the one repr picks.  What this cannot decide exactly
 * (a power-of-two mantissa, whose lower neighbour is closer; two nearest that both read back) is
 * left to the caller's path.
 * Returns false then, or when 17 digits were not enough here.
 */
static bool repr_scaled(char *out, int neg, double a)
{
	if (!(a >= 1e-4 && a < 9007199254740992.0))
		return false;
	uint64_t bits;
	memcpy(&bits, &a, sizeof(bits));
	uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
	int k = 1075 - (int)(bits >> 52);
	if (m == UINT64_C(1) << 52 || k < 1 || k > 100)
		return false;
	u128 pow10 = 1, half = (u128)1 << (k - 1), mask = ((u128)1 << k) - 1;
	for (int d = 0; d <= 21; d++, pow10 *= 10) {
		u128 scaled = (u128)m * pow10;
		if ((scaled & mask) == half) { /* halfway between two: each is 2^(k-1) off, 2^k against 10^d */
			if (((u128)1 << k) < pow10)
				return false; /* both read back: which one repr picks is the slow path's to say */
			continue;             /* neither reads back (x.5 at d = 0, say) */
		}
		u128 x = (scaled + half) >> k;
		if (x >= (u128)100000000000000000u)
			return false; /* 18 digits: not the shortest */
		u128 lhs = x << (k + 1), rhs = scaled << 1;
		if ((lhs > rhs ? lhs - rhs : rhs - lhs) < pow10) {
			char t[24];
			int n = digits_of((uint64_t)x, t);
			layout(out, neg, t, n, n - d);
			return true;
		}
	}
	return false;
}
#else
static bool repr_scaled(char *out, int neg, double a)
{
	(void)out, (void)neg, (void)a;
	return false;
}
#endif

size_t txc_double_repr(char out[40], double v)
{
	if (isnan(v))
		return (size_t)sprintf(out, "NaN");
	if (isinf(v))
		return (size_t)sprintf(out, v > 0 ? "Infinity" : "-Infinity");
	if (v == 0)
		return (size_t)sprintf(out, signbit(v) ? "-0.0" : "0.0");
	int neg = v < 0;
	double a = fabs(v);
	char t[64], d[40], c[40];
	int e, n;
	if (repr_scaled(out, neg, a))
		return strlen(out);
	/*
	 * Fast path: 15 significant digits are spaced wider than any double's
	 * rounding interval, so if the correctly rounded 15 digits read back,
	 * they (trailing zeros dropped) are the unique shortest string.
	 */
	int first = 0;
	if (a >= DBL_MIN) { /* not for subnormals: their rounding intervals are wider */
		snprintf(t, sizeof(t), "%.14e", a);
		n = parse_e(t, d, &e);
		if (from_digits(d, n, e) == a) {
			layout(out, neg, d, n, e);
			return strlen(out);
		}
		first = 15;
	}
	for (int p = first; p <= 16; p++) {
		snprintf(t, sizeof(t), "%.*e", p, a);
		n = parse_e(t, d, &e);
		if (from_digits(d, n, e) == a) {
			layout(out, neg, d, n, e);
			return strlen(out);
		}
		for (int delta = -1; delta <= 1; delta += 2) {
			int ce = e;
			memcpy(c, d, (size_t)n + 1);
			int cn = bump(c, n, &ce, delta);
			if (cn > 0 && from_digits(c, cn, ce) == a) {
				layout(out, neg, c, cn, ce);
				return strlen(out);
			}
		}
	}
	snprintf(t, sizeof(t), "%.16e", a);
	n = parse_e(t, d, &e);
	layout(out, neg, d, n, e);
	return strlen(out);
}

size_t txc_base36(char out[16], uint32_t v)
{
	char t[16];
	size_t n = 0;
	do {
		unsigned r = v % 36;
		t[n++] = (char)(r < 10 ? '0' + r : 'a' + r - 10);
		v /= 36;
	} while (v);
	for (size_t i = 0; i < n; i++)
		out[i] = t[n - 1 - i];
	out[n] = '\0';
	return n;
}

void txc_hex(char *out, const unsigned char *p, size_t len)
{
	static const char hx[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = hx[p[i] >> 4];
		out[2 * i + 1] = hx[p[i] & 15];
	}
	out[2 * len] = '\0';
}
