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
