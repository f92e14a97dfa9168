/* time.c - times as txc writes them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "txc/util.h"

bool txc_time_iso_ms(char out[64], double secs)
{
	if (!isfinite(secs) || secs < -62135596800.0 || secs >= 253402300800.0) {
		strcpy(out, "1970-01-01T00:00:00.000Z");
		return false;
	}
	double whole = floor(secs);
	int ms = (int)floor((secs - whole) * 1000.0); /* cut, not rounded */
	if (ms > 999)
		ms = 999;
	time_t tt = (time_t)whole;
	struct tm tm;
	gmtime_r(&tt, &tm);
	/* "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" by hand (every Claude record has one; the year is 1..9999) */
	const int v[7] = {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms};
	static const char width[7] = {4, 2, 2, 2, 2, 2, 3}, after[7] = {'-', '-', 'T', ':', ':', '.', 'Z'};
	char *o = out;
	for (int i = 0; i < 7; i++) {
		for (int k = width[i] - 1, x = v[i]; k >= 0; k--, x /= 10)
			o[k] = (char)('0' + x % 10);
		o += width[i];
		*o++ = after[i];
	}
	*o = '\0';
	return true;
}

/* n (0-99) as two digits */
static char *put2(char *p, int n)
{
	p[0] = (char)('0' + n / 10);
	p[1] = (char)('0' + n % 10);
	return p + 2;
}

/*
 * strftime() for list's conversions, %Y %m %d %H %M %S and literal text, when
 * the year has four digits: the same bytes without strftime's locale work (two
 * thirds of `list`'s formatting).  0 for anything else (%z, a year before 1000):
 * strftime() then decides.
 */
static size_t format_plain(char *out, size_t cap, const char *fmt, const struct tm *tm)
{
	char buf[128], *p = buf;
	long year = (long)tm->tm_year + 1900;
	for (const char *f = fmt; *f != '\0'; f++) {
		if (p > buf + sizeof(buf) - 8)
			return 0;
		if (*f != '%') {
			*p++ = *f;
			continue;
		}
		switch (*++f) {
		case 'Y':
			if (year < 1000 || year > 9999)
				return 0;
			p = put2(put2(p, (int)(year / 100)), (int)(year % 100));
			break;
		case 'm': p = put2(p, tm->tm_mon + 1); break;
		case 'd': p = put2(p, tm->tm_mday); break;
		case 'H': p = put2(p, tm->tm_hour); break;
		case 'M': p = put2(p, tm->tm_min); break;
		case 'S': p = put2(p, tm->tm_sec); break; /* 0-60 */
		default: return 0;
		}
	}
	size_t n = (size_t)(p - buf);
	if (n + 1 > cap)
		return 0;
	memcpy(out, buf, n);
	out[n] = '\0';
	return n;
}

bool txc_time_format(char *out, size_t cap, double secs, bool utc, const char *fmt)
{
	/* beyond ±2.5e11 s (about year 9900) a struct tm year may not hold it */
	if (!isfinite(secs) || fabs(secs) > 2.5e11)
		return false;
	time_t tt = (time_t)floor(secs);
	struct tm tm;
	if (utc)
		gmtime_r(&tt, &tm);
	else
		localtime_r(&tt, &tm);
	if (format_plain(out, cap, fmt, &tm) > 0)
		return true;
		/* fmt is checked where txc_time_format is called (its format attribute, util.h) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	size_t n = strftime(out, cap, fmt, &tm);
#pragma GCC diagnostic pop
	return n > 0;
}

/* Howard Hinnant's days_from_civil: the proleptic Gregorian calendar, any year */
int64_t txc_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	const int64_t era = (y >= 0 ? y : y - 399) / 400;
	const unsigned yoe = (unsigned)(y - era * 400);
	const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}
