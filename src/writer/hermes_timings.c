/*
 * hermes_timings.c - the "timings" block of Hermes 0.21's export
 * (hermes_state_portability.py _build_export_timings), gathered row by row so
 * that a streamed session is never held whole: per row only its timestamp,
 * role, tool_calls and id are looked at.  Python's rules are followed where
 * they decide a byte: float(), round() (half to even) and int() of a double,
 * datetime.isoformat().  Where Hermes raises (a NaN or infinite timestamp, an
 * ISO time outside the years 1 to 9999) txc writes what docs/FORMATS.md says.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/writer_hermes.h"

/* ---- Python's number rules ---- */

/* days since 1970-01-01 -> proleptic Gregorian date (H. Hinnant's civil_from_days) */
static void civil(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

bool txc_py_iso_utc(double ts, char out[40])
{
	if (!isfinite(ts))
		return false;
	/* CPython's _PyTime_DoubleToDenominator with _PyTime_ROUND_HALF_EVEN (rint: half to even) */
	double ip, us = modf(ts, &ip) * 1e6;
	us = rint(us);
	if (us >= 1e6) {
		us -= 1e6;
		ip += 1.0;
	} else if (us < 0) {
		us += 1e6;
		ip -= 1.0;
	}
	/* 0001-01-01T00:00:00 .. 9999-12-31T23:59:59: datetime's range (else ValueError/OverflowError) */
	if (!(ip >= -62135596800.0 && ip <= 253402300799.0))
		return false;
	int64_t secs = (int64_t)ip, days = secs / 86400, rem = secs % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	int64_t y;
	int m, d;
	civil(days, &y, &m, &d);
	int n = snprintf(out, 40, "%04d-%02d-%02dT%02d:%02d:%02d", (int)y, m, d, (int)(rem / 3600),
			 (int)(rem / 60 % 60), (int)(rem % 60));
	if (us != 0)
		n += snprintf(out + n, (size_t)(40 - n), ".%06d", (int)us);
	snprintf(out + n, (size_t)(40 - n), "+00:00");
	return true;
}

/* max(0, int(round(x))) as a double holding that integer; false where round() raises */
static bool py_ms(double x, double *r)
{
	if (!isfinite(x))
		return false;
	double v = rint(x); /* round half to even, as Python's round() of a float */
	*r = v > 0 ? v : 0; /* max(0, ...): also makes -0.0 a plain 0 */
	return true;
}

static void add_int(struct txc_buf *b, double v)
{
	if (v < 9.2e18)
		txc_buf_addf(b, "%lld", (long long)v);
	else
		txc_buf_addf(b, "%.0f", v); /* int() of a huge double is exact: so is glibc's %.0f */
}

bool txc_py_round_ms(struct txc_buf *b, double x)
{
	double v;
	if (!py_ms(x, &v))
		return false;
	add_int(b, v);
	return true;
}

/* float(str): optional blanks, sign, digits with single underscores between them, '.', exponent;
 * or inf / infinity / nan in any case */
static bool py_float_text(const char *p, size_t n, double *out)
{
	while (n && strchr(" \t\n\v\f\r", p[0]) != NULL)
		p++, n--;
	while (n && strchr(" \t\n\v\f\r", p[n - 1]) != NULL)
		n--;
	if (n == 0 || n > 400)
		return false;
	char t[401];
	size_t k = 0;
	bool digit = false;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		bool is_digit = c >= '0' && c <= '9';
		if (c == '_') { /* only between two digits */
			if (!(i > 0 && p[i - 1] >= '0' && p[i - 1] <= '9' && i + 1 < n && p[i + 1] >= '0' &&
			      p[i + 1] <= '9'))
				return false;
			continue;
		}
		if (!is_digit && strchr("+-.eEinfatyINFATY", c) == NULL)
			return false; /* no hex, no "nan(...)": strtod takes them, float() does not */
		digit |= is_digit;
		t[k++] = c;
	}
	t[k] = '\0';
	char *end;
	double v = strtod(t, &end);
	if (*end != '\0' || end == t)
		return false;
	if (!digit && isfinite(v))
		return false;
	*out = v;
	return true;
}

bool txc_py_float(const struct txc_json *v, double *out)
{
	if (v == NULL)
		return false;
	switch (v->kind) {
	case TXC_JSON_TRUE:
	case TXC_JSON_FALSE: *out = v->kind == TXC_JSON_TRUE; return true;
	case TXC_JSON_INT: return py_float_text(v->s.ptr, v->s.len, out);
	case TXC_JSON_REAL: *out = v->d; return true;
	case TXC_JSON_STRING:
	case TXC_JSON_BLOB: return py_float_text(v->s.ptr, v->s.len, out);
	default: return false;
	}
}

/* ---- the accumulator ---- */

/* str(role or "unknown") */
static void role_text(struct txc_buf *b, const struct txc_json *role)
{
	char t[40];
	if (!txc_json_truthy(role))
		txc_buf_addstr(b, "unknown");
	else if (role->kind == TXC_JSON_STRING || role->kind == TXC_JSON_INT)
		txc_buf_add(b, role->s.ptr, role->s.len);
	else if (role->kind == TXC_JSON_TRUE)
		txc_buf_addstr(b, "True");
	else if (role->kind == TXC_JSON_REAL && isfinite(role->d))
		txc_buf_add(b, t, txc_double_repr(t, role->d));
	else if (role->kind == TXC_JSON_REAL)
		txc_buf_addstr(b, isnan(role->d) ? "nan" : role->d > 0 ? "inf" : "-inf");
	else /* a list, an object, bytes: their JSON text (docs/FORMATS.md) */
		txc_json_emit(b, role, TXC_JSON_PY);
}

static void count_role(struct txc_hermes_timings *tm, const struct txc_json *role)
{
	size_t off = tm->role_names.len;
	role_text(&tm->role_names, role);
	size_t len = tm->role_names.len - off;
	for (size_t i = 0; i < tm->n_roles; i++)
		if (tm->roles[i].len == len &&
		    memcmp(tm->role_names.buf + tm->roles[i].off, tm->role_names.buf + off, len) == 0) {
			tm->roles[i].count++;
			txc_buf_truncate(&tm->role_names, off);
			return;
		}
	if (tm->n_roles == tm->cap_roles) {
		tm->cap_roles = tm->cap_roles ? 2 * tm->cap_roles : 8;
		tm->roles = txc_xrealloc(tm->roles, tm->cap_roles * sizeof(*tm->roles));
	}
	tm->roles[tm->n_roles++] = (struct txc_role_count){off, len, 1};
}

static void raw(struct txc_buf *b, const struct txc_json *v)
{
	if (v == NULL)
		txc_buf_add(b, "null", 4);
	else
		txc_json_emit(b, v, TXC_JSON_PY);
}

static void interval(struct txc_hermes_timings *tm, const struct txc_json *id, const struct txc_json *role, double ts)
{
	struct txc_buf *b = &tm->intervals;
	if (b->len)
		txc_buf_add(b, ", ", 2);
	txc_buf_addstr(b, "{\"from_message_id\": ");
	txc_buf_add(b, tm->prev_id.buf, tm->prev_id.len);
	txc_buf_addstr(b, ", \"to_message_id\": ");
	raw(b, id);
	txc_buf_addstr(b, ", \"from_role\": ");
	txc_buf_add(b, tm->prev_role.buf, tm->prev_role.len);
	txc_buf_addstr(b, ", \"to_role\": ");
	raw(b, role);
	txc_buf_addstr(b, ", \"gap_ms\": ");
	double gap;
	if (py_ms((ts - tm->prev) * 1000, &gap)) {
		add_int(b, gap);
		if (!tm->has_largest || gap > tm->largest)
			tm->largest = gap;
		tm->has_largest = true;
	} else { /* only a gap past 1.8e305 ms overflows (Hermes raises): null, and not the largest */
		txc_buf_add(b, "null", 4);
	}
	txc_buf_addch(b, '}');
}

void txc_hermes_timings_add(struct txc_hermes_timings *tm, const struct txc_json *row)
{
	const struct txc_json *role = NULL, *id = NULL, *calls = NULL, *stamp = NULL;
	for (size_t i = 0; i < row->n; i++) { /* one pass over the keys, not four lookups: this runs per row */
		struct txc_str k = row->keys[i];
		if (k.len == 2 && memcmp(k.ptr, "id", 2) == 0)
			id = row->items[i];
		else if (k.len == 4 && memcmp(k.ptr, "role", 4) == 0)
			role = row->items[i];
		else if (k.len == 9 && memcmp(k.ptr, "timestamp", 9) == 0)
			stamp = row->items[i];
		else if (k.len == 10 && memcmp(k.ptr, "tool_calls", 10) == 0)
			calls = row->items[i];
	}
	tm->messages++;
	count_role(tm, role);
	if (calls != NULL && calls->kind == TXC_JSON_ARRAY)
		tm->tool_calls += (double)calls->n;
	else if (txc_json_truthy(calls))
		tm->tool_calls += 1;
	double ts;
	/* a NaN or infinite timestamp counts as missing (Hermes 0.21 raises on it) */
	if (!txc_py_float(stamp, &ts) || !isfinite(ts))
		return;
	if (tm->stamped++ == 0)
		tm->first = ts;
	else
		interval(tm, id, role, ts);
	tm->prev = ts;
	txc_buf_reset(&tm->prev_id);
	raw(&tm->prev_id, id);
	txc_buf_reset(&tm->prev_role);
	raw(&tm->prev_role, role);
}

static void iso_or_null(struct txc_buf *b, double ts)
{
	char t[40];
	if (txc_py_iso_utc(ts, t)) {
		txc_buf_addch(b, '"');
		txc_buf_addstr(b, t);
		txc_buf_addch(b, '"');
	} else { /* outside datetime's years (Hermes raises): null */
		txc_buf_add(b, "null", 4);
	}
}

static void emit_roles(struct txc_buf *b, const struct txc_hermes_timings *tm, size_t *tools)
{
	txc_buf_addstr(b, ", \"role_counts\": {");
	*tools = 0;
	for (size_t i = 0; i < tm->n_roles; i++) {
		const char *name = tm->role_names.buf + tm->roles[i].off;
		if (i)
			txc_buf_add(b, ", ", 2);
		txc_json_emit_str(b, name, tm->roles[i].len);
		txc_buf_addf(b, ": %zu", tm->roles[i].count);
		if (tm->roles[i].len == 4 && memcmp(name, "tool", 4) == 0)
			*tools = tm->roles[i].count;
	}
	txc_buf_addch(b, '}');
}

void txc_hermes_timings_emit(struct txc_buf *b, const struct txc_hermes_timings *tm)
{
	bool any = tm->stamped > 0;
	txc_buf_addstr(b, "\"timings\": {\"source\": \"message_timestamps\", \"available\": ");
	txc_buf_addstr(b, any ? "true" : "false");
	txc_buf_addstr(b, ", \"complete\": false, \"unavailable_reason\": ");
	txc_buf_addstr(b, any ? "null" : "\"no_timestamped_messages\"");
	txc_buf_addf(b, ", \"message_timestamps\": {\"available\": %zu, \"missing\": %zu}", tm->stamped,
		     tm->messages - tm->stamped);
	txc_buf_addstr(b, ", \"first_message_at\": ");
	if (any)
		iso_or_null(b, tm->first);
	else
		txc_buf_add(b, "null", 4);
	txc_buf_addstr(b, ", \"last_message_at\": ");
	if (any)
		iso_or_null(b, tm->prev);
	else
		txc_buf_add(b, "null", 4);
	txc_buf_addstr(b, ", \"wall_clock_ms\": ");
	if (!any || !txc_py_round_ms(b, (tm->prev - tm->first) * 1000))
		txc_buf_add(b, "null", 4);
	txc_buf_addstr(b, ", \"largest_gap_ms\": ");
	if (tm->has_largest)
		add_int(b, tm->largest);
	else
		txc_buf_add(b, "null", 4);
	size_t tools;
	emit_roles(b, tm, &tools);
	txc_buf_addf(b, ", \"tool_result_count\": %zu, \"tool_calls_emitted\": ", tools);
	add_int(b, tm->tool_calls);
	txc_buf_addstr(b, ", \"intervals\": [");
	txc_buf_add(b, tm->intervals.buf, tm->intervals.len);
	txc_buf_addstr(b, "]}");
}

struct txc_hermes_timings *txc_hermes_timings_new(void)
{
	struct txc_hermes_timings *tm = txc_xcalloc(1, sizeof(*tm));
	txc_buf_init(&tm->prev_id);
	txc_buf_init(&tm->prev_role);
	txc_buf_init(&tm->intervals);
	txc_buf_init(&tm->role_names);
	return tm;
}

void txc_hermes_timings_free(struct txc_hermes_timings *tm)
{
	if (tm == NULL)
		return;
	txc_buf_release(&tm->prev_id);
	txc_buf_release(&tm->prev_role);
	txc_buf_release(&tm->intervals);
	txc_buf_release(&tm->role_names);
	free(tm->roles);
	free(tm);
}
