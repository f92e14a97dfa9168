/* test_util.c - JSON parse/emit, Python float repr, UTF-8, hashes. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "txc/diag.h"

#include "txc/json.h"
#include "txc/writer.h"

static void repr_is(double v, const char *want)
{
	char out[40];
	txc_double_repr(out, v);
	assert_string_equal(out, want);
}

/*
 * 3,480 doubles with what Python 3.11's repr() printed for them (tests/unit/repr-corpus.txt):
 * timestamps, rounded timestamps, random bit patterns, k/10^d, +-2^e: the integer path and the
 * printf path must both agree with Python on every one.
 */
static void test_repr_corpus(void **state)
{
	(void)state;
	FILE *f = fopen(TXC_REPR_CORPUS, "r");
	assert_non_null(f);
	char line[128], out[40], want[64];
	size_t n = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long bits;
		if (line[0] == '#' || sscanf(line, "%llx %63s", &bits, want) != 2)
			continue;
		double v;
		memcpy(&v, &bits, sizeof(v));
		txc_double_repr(out, v);
		if (strcmp(out, want) != 0)
			fail_msg("repr of %016llx: %s, Python: %s", bits, out, want);
		n++;
	}
	fclose(f);
	assert_true(n > 3000);
}

static void test_repr(void **state)
{
	(void)state;
	repr_is(1785663100.5, "1785663100.5");
	repr_is(0.0, "0.0");
	repr_is(-0.0, "-0.0");
	repr_is(1e-05, "1e-05");
	repr_is(-1e-07, "-1e-07");
	repr_is(1e16, "1e+16");
	repr_is(1e15, "1000000000000000.0");
	repr_is(100000.0, "100000.0");
	repr_is(0.0001, "0.0001");
	repr_is(1.2345678901234568e+17, "1.2345678901234568e+17");
	repr_is(5e-324, "5e-324");
	repr_is(1e100, "1e+100");
	repr_is(7e-05, "7e-05");
	repr_is(1750194203.115832, "1750194203.115832");
	repr_is(0.1, "0.1");
	repr_is(2.0 / 3.0, "0.6666666666666666");
	/* a power of two where the naive shortest-printf loop is wrong */
	repr_is(ldexp(1.0, -1017), "7.120236347223045e-307");
	repr_is(1.7976931348623157e308, "1.7976931348623157e+308");
	repr_is(INFINITY, "Infinity");
}

static const char *roundtrip(struct txc_arena *a, const char *in, unsigned flags)
{
	static struct txc_buf b = TXC_BUF_INIT;
	const struct txc_json *v;
	txc_buf_reset(&b);
	if (txc_json_parse(a, in, strlen(in), &v) != 0)
		return "ERROR";
	txc_json_emit(&b, v, flags);
	return b.buf;
}

static void test_json_python_rules(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	assert_string_equal(roundtrip(a, "{\"b\":1,\"a\":2,\"b\":3}", TXC_JSON_PY), "{\"b\": 3, \"a\": 2}");
	assert_string_equal(roundtrip(a, "[2.50, 1E5, -0, 1e400, 123456789012345678901234567890]", TXC_JSON_PY),
			    "[2.5, 100000.0, 0, 1e999, 123456789012345678901234567890]");
	assert_string_equal(roundtrip(a, "[1.0, 1e2]", 0), "[1.0,1e2]"); /* exact text kept outside Python mode */
	assert_string_equal(roundtrip(a, "\"\\ud83d\\ude00 \\u00e9\\/\"", TXC_JSON_PY), "\"😀 é/\"");
	assert_string_equal(roundtrip(a, "\"\\ud800x\"", 0), "\"\xEF\xBF\xBDx\"");
	assert_string_equal(roundtrip(a, "\"\\u0007\\u001f\\n\"", 0), "\"\\u0007\\u001f\\n\"");
	assert_string_equal(roundtrip(a, " [NaN, Infinity, -Infinity] ", 0), "[null,1e999,-1e999]");
	assert_string_equal(roundtrip(a, "{\"a\":[1,{\"b\":null}],\"c\":{}}", TXC_JSON_INDENT),
			    "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {}\n}");
	assert_string_equal(roundtrip(a, "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", TXC_JSON_SORTED),
			    "{\"a\":{\"c\":2,\"d\":1},\"b\":1}");
	/* Python rejects these */
	const char *bad[] = {
		"01",   "1.", ".5",  "+1",   "[1,]",  "{\"a\":1,}", "\"a\tb\"", "\"\\x\"", "\xEF\xBB\xBF[]",
		"[] x", "",   "nan", "-NaN", "{1:2}", "\"abc"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_string_equal(roundtrip(a, bad[i], 0), "ERROR");
	txc_arena_free(a);
}

/* the sorted emitter: keys in order, reversed and mixed, a prefix before its longer key, odd counts */
static void test_json_sorted_orders(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	assert_string_equal(roundtrip(a, "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5}", TXC_JSON_SORTED),
			    "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5}");
	assert_string_equal(roundtrip(a, "{\"e\":5,\"d\":4,\"c\":3,\"b\":2,\"a\":1}", TXC_JSON_SORTED),
			    "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5}");
	assert_string_equal(roundtrip(a, "{\"ab\":1,\"c\":2,\"a\":3,\"b\":[{\"y\":0,\"x\":1}]}", TXC_JSON_SORTED),
			    "{\"a\":3,\"ab\":1,\"b\":[{\"x\":1,\"y\":0}],\"c\":2}");
	assert_string_equal(roundtrip(a, "{\"only\":{}}", TXC_JSON_SORTED), "{\"only\":{}}");
	txc_arena_free(a);
}

static void test_json_depth_and_size(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	size_t n = 100000;
	char *deep = txc_xmalloc(2 * n + 1);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = '\0';
	assert_string_equal(roundtrip(a, deep, 0), "ERROR"); /* too deep: an error, never a crash */
	free(deep);
	/* many duplicate-free keys go through the hash index */
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addch(&b, '{');
	for (int i = 0; i < 5000; i++)
		txc_buf_addf(&b, "%s\"k%d\":%d", i ? "," : "", i % 4000, i);
	txc_buf_addch(&b, '}');
	const struct txc_json *v;
	assert_int_equal(txc_json_parse(a, b.buf, b.len, &v), 0);
	assert_int_equal(v->n, 4000);
	int64_t x;
	assert_true(txc_json_is_int(txc_json_get(v, "k1"), &x));
	assert_int_equal(x, 4001);
	txc_buf_release(&b);
	txc_arena_free(a);
}

static void test_utf8(void **state)
{
	(void)state;
	assert_true(txc_utf8_valid("h\xC3\xA9", 3));
	assert_false(txc_utf8_valid("\xC0\xAF", 2));         /* overlong */
	assert_false(txc_utf8_valid("\xED\xA0\x80", 3));     /* surrogate */
	assert_false(txc_utf8_valid("\xF4\x90\x80\x80", 4)); /* > U+10FFFF */
	struct txc_buf b = TXC_BUF_INIT;
	txc_utf8_repair(&b,
			"a\xFF\xFE"
			"b",
			4);
	assert_string_equal(b.buf, "a\xEF\xBF\xBD\xEF\xBF\xBD"
				   "b");
	txc_buf_reset(&b);
	txc_json_emit_str(&b, "x\0y\xC3", 4);
	assert_string_equal(b.buf, "\"x\\u0000y\xEF\xBF\xBD\"");
	txc_buf_release(&b);
}

static void test_sha256_base36(void **state)
{
	(void)state;
	unsigned char h[32];
	char hex[65], t[16];
	txc_sha256("abc", 3, h);
	txc_hex(hex, h, 32);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	txc_sha256("", 0, h);
	txc_hex(hex, h, 32);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	txc_base36(t, 0);
	assert_string_equal(t, "0");
	txc_base36(t, 2147483648u);
	assert_string_equal(t, "zik0zk");
}

static void b64_is(const char *in, const char *want, size_t want_len)
{
	struct txc_buf b = TXC_BUF_INIT;
	assert_true(txc_base64_decode(&b, in, strlen(in)));
	assert_int_equal(b.len, want_len);
	assert_memory_equal(b.buf, want, want_len);
	txc_buf_release(&b);
}

static void test_base64(void **state)
{
	(void)state;
	b64_is("", "", 0);
	b64_is("aGVsbG8=", "hello", 5);
	b64_is("aGVsbA==", "hell", 4);
	b64_is("AP8A", "\0\xff\0", 3);
	const char *bad[] = {"a", "aGVsbG8", "aGV=bG8=", "a===", "aGVs bG8=", "aGVsbG8=aGVs", "aGVsbG-_", "aG=A"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct txc_buf b = TXC_BUF_INIT;
		assert_false(txc_base64_decode(&b, bad[i], strlen(bad[i])));
		txc_buf_release(&b);
	}
}

static void test_time_iso(void **state)
{
	(void)state;
	char out[64];
	assert_true(txc_time_iso_ms(out, 1767323045.9999));
	assert_string_equal(out, "2026-01-02T03:04:05.999Z"); /* cut, not rounded */
	assert_true(txc_time_iso_ms(out, -1.5));
	assert_string_equal(out, "1969-12-31T23:59:58.500Z");
	assert_false(txc_time_iso_ms(out, 1e300));
	assert_string_equal(out, "1970-01-01T00:00:00.000Z");
	assert_false(txc_time_iso_ms(out, -62135596801.0)); /* before year 1 */
	assert_string_equal(out, "1970-01-01T00:00:00.000Z");
	assert_true(txc_time_iso_ms(out, -62135596800.0));
	assert_string_equal(out, "0001-01-01T00:00:00.000Z");
	assert_false(txc_time_iso_ms(out, 253402300800.0)); /* year 10000 */
	assert_false(txc_time_iso_ms(out, NAN));
	/* digits written by hand: as printf writes them, across the years it takes */
	for (double x = -62135596800.0; x < 253402300800.0; x += 7777777.123) {
		char want[64];
		time_t tt = (time_t)floor(x);
		struct tm tm;
		gmtime_r(&tt, &tm);
		snprintf(want, sizeof(want), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
			 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)floor((x - floor(x)) * 1000.0));
		assert_true(txc_time_iso_ms(out, x));
		assert_string_equal(out, want);
	}
}

/* the same text as strftime() over localtime_r/gmtime_r: its own formatting of list's
 * conversions (issue 16) must not differ, in any zone, across DST, in any year */
static void time_format_is_strftime(double t, bool utc, const char *fmt)
{
	char got[64], want[64];
	bool ok = fabs(t) <= 2.5e11;
	want[0] = '\0';
	if (ok) {
		time_t tt = (time_t)floor(t);
		struct tm tm;
		if (utc)
			gmtime_r(&tt, &tm);
		else
			localtime_r(&tt, &tm);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		ok = strftime(want, sizeof(want), fmt, &tm) > 0;
	}
	bool got_ok = txc_time_format(got, sizeof(got), t, utc, fmt);
#pragma GCC diagnostic pop
	if (got_ok != ok || (ok && strcmp(got, want) != 0))
		fail_msg("%.3f (%s, %s): '%s', strftime '%s'", t, utc ? "utc" : getenv("TZ"), fmt, got_ok ? got : "-",
			 ok ? want : "-");
}

static void test_time_format(void **state)
{
	(void)state;
	static const char *const zones[] = {
		"UTC",          "America/New_York", "Europe/London",   "Australia/Lord_Howe",
		"Asia/Kolkata", "America/St_Johns", "Africa/Monrovia", "Pacific/Chatham"};
	static const char *const fmts[] = {"%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S UTC", "%Y-%m-%d %H:%M:%S %z"};
	char *tz = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
	for (size_t z = 0; z < sizeof(zones) / sizeof(zones[0]); z++) {
		setenv("TZ", zones[z], 1);
		tzset();
		uint64_t r = 88172645463325252u;
		for (int i = 0; i < 30000; i++) {
			double t;
			if (i < 12000) { /* 2026 every 43 min 7 s: each DST change, both ways */
				t = 1767225600.0 + i * 2587.25;
			} else if (i < 12200) { /* the edges of four-digit years and of the range */
				static const double edge[] = {-30610224000.0,
							      -30610224001.0,
							      253402300799.0,
							      253402300800.0,
							      2.5e11,
							      -2.5e11,
							      0,
							      -0.5};
				t = edge[(i - 12000) % 8] + (i - 12000) / 8 * 0.25 - 3;
			} else { /* anywhere in range, fractions too */
				r ^= r << 13, r ^= r >> 7, r ^= r << 17;
				t = ((double)(r >> 11) / 9007199254740992.0 * 2 - 1) * 2.6e11;
			}
			for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
				time_format_is_strftime(t, false, fmts[f]);
				time_format_is_strftime(t, true, fmts[f]);
			}
		}
	}
	if (tz != NULL)
		setenv("TZ", tz, 1);
	else
		unsetenv("TZ");
	tzset();
	free(tz);
}

/* an integer's text as a double: what strtod() gives, its own digit reading included (issue 16) */
static void test_json_number_int(void **state)
{
	(void)state;
	static const char *const texts[] = {"0",
					    "-0",
					    "1",
					    "-1",
					    "42",
					    "007",
					    "999999999999999",
					    "-999999999999999",
					    "9007199254740993",
					    "12345678901234567890",
					    "-9223372036854775808",
					    "+5",
					    "1e3",
					    ""};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct txc_json v = {.kind = TXC_JSON_INT, .s = {texts[i], strlen(texts[i])}};
		double got, want = strtod(texts[i], NULL);
		assert_true(txc_json_number(&v, &got));
		if (memcmp(&got, &want, sizeof(got)) != 0) /* -0 too */
			fail_msg("'%s': %.17g, strtod %.17g", texts[i], got, want);
	}
}

/* a message cut to fit its buffer ends at a character boundary */
static void test_diag_cut(void **state)
{
	(void)state;
	char s[16];
	strcpy(s, "ab\xC3\xA9");                 /* ab + e-acute */
	assert_int_equal(txc_diag_cut(s, 3), 2); /* inside the 2-byte sequence: dropped */
	assert_string_equal(s, "ab");
	strcpy(s, "a\xE2\x80\xA6z");
	assert_int_equal(txc_diag_cut(s, 3), 1);
	strcpy(s, "a\xE2\x80\xA6z");
	assert_int_equal(txc_diag_cut(s, 4), 4); /* whole */
	strcpy(s, "\xF0\x9F\x9A\x80!");
	assert_int_equal(txc_diag_cut(s, 2), 0);
	struct txc_diag d = {0};
	char big[1100];
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	for (size_t i = 1000; i < 1030; i += 2)
		big[i] = '\xC3', big[i + 1] = '\xA9';
	for (int shift = 0; shift < 2; shift++) {
		txc_diag_set(&d, TXC_E_FAIL, "%s%s", shift ? "y" : "", big);
		assert_true(txc_utf8_valid(d.msg, strlen(d.msg)));
	}
}

/* lookups, truthiness and the sorted emitter on every kind */
static void test_json_values(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *v;
	const char *all = "[null, false, true, 0, 7, 0.0, 2.5, \"\", \"x\", [], [1], {}, {\"k\": 1}, "
			  "-12, 9223372036854775807, 99999999999999999999]";
	assert_int_equal(txc_json_parse(a, all, strlen(all), &v), 0);
	const bool truthy[] = {false, false, true,  false, true,  false, true,
			       false, true,  false, true,  false, true,  true};
	for (size_t i = 0; i < sizeof(truthy) / sizeof(truthy[0]); i++)
		assert_int_equal(txc_json_truthy(v->items[i]), truthy[i]);
	assert_false(txc_json_truthy(NULL));
	struct txc_json *blob = txc_json_new(a, TXC_JSON_BLOB);
	assert_false(txc_json_truthy(blob));
	blob->s = txc_arena_str(a, "\x00\xff", 2);
	assert_true(txc_json_truthy(blob));
	int64_t x = 0;
	assert_true(txc_json_is_int(v->items[13], &x));
	assert_int_equal(x, -12);
	assert_true(txc_json_is_int(v->items[14], NULL));
	assert_false(txc_json_is_int(v->items[15], &x)); /* 20 digits: not an int64 */
	assert_false(txc_json_is_int(v->items[6], &x));  /* a real */
	assert_false(txc_json_is_int(NULL, &x));
	const struct txc_json *big, *max;
	assert_int_equal(txc_json_parse(a, "9999999999999999999", 19, &big), 0); /* 19 digits past INT64_MAX */
	assert_false(txc_json_is_int(big, &x));
	assert_int_equal(txc_json_parse(a, "9223372036854775807", 19, &max), 0);
	assert_true(txc_json_is_int(max, &x));
	assert_true(x == INT64_MAX);
	double d;
	assert_true(txc_json_number(v->items[6], &d));
	assert_true(d == 2.5);
	assert_true(txc_json_number(v->items[4], &d));
	assert_true(d == 7);
	assert_false(txc_json_number(v->items[8], &d));
	assert_false(txc_json_number(NULL, &d));
	assert_null(txc_json_cstr(v->items[4]));
	assert_string_equal(txc_json_cstr(v->items[8]), "x");
	assert_null(txc_json_get(v, "k")); /* not an object */
	assert_null(txc_json_get(NULL, "k"));
	/* every kind through the sorted, indented and Python emitters; a blob as hex */
	struct txc_json *o = txc_json_object(a, 6);
	txc_json_put(o, txc_str_c("zz"), blob);
	txc_json_put(o, txc_str_c("b"), v->items[2]);
	txc_json_put(o, txc_str_c("ab"), txc_json_real(a, 0.5));
	txc_json_put(o, txc_str_c("a"), txc_json_int(a, -3));
	txc_json_put(o, txc_str_c("abc"), txc_json_string(a, "s", 1));
	txc_json_put(o, txc_str_c("aa"), &txc_json_null_value);
	struct txc_buf b = TXC_BUF_INIT;
	txc_json_emit(&b, o, TXC_JSON_SORTED);
	assert_string_equal(
		b.buf, "{\"a\":-3,\"aa\":null,\"ab\":0.5,\"abc\":\"s\",\"b\":true,\"zz\":{\"$blob_hex\":\"00ff\"}}");
	txc_buf_reset(&b);
	txc_json_emit(&b, txc_json_copy(a, o), TXC_JSON_PY);
	assert_string_equal(
		b.buf,
		"{\"zz\": {\"$blob_hex\": \"00ff\"}, \"b\": true, \"ab\": 0.5, \"a\": -3, \"abc\": \"s\", \"aa\": null}");
	txc_buf_reset(&b);
	struct txc_json *arr = txc_json_array(a, 2);
	txc_json_push(arr, txc_json_array(a, 0));
	txc_json_push(arr, v->items[1]);
	txc_json_emit(&b, arr, TXC_JSON_INDENT | TXC_JSON_PY);
	assert_string_equal(b.buf, "[\n  [],\n  false\n]");
	txc_buf_reset(&b);
	txc_json_emit_real(&b, -INFINITY);
	assert_string_equal(b.buf, "-1e999");
	txc_buf_release(&b);
	txc_arena_free(a);
}

/* escapes and surrogates the parser meets in real transcripts */
static void test_json_strings(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	assert_string_equal(roundtrip(a, "\"\\ud83d\\u0041\"", 0), "\"\xEF\xBF\xBD"
								   "A\"");             /* high + not a low */
	assert_string_equal(roundtrip(a, "\"\\ud83d\\n\"", 0), "\"\xEF\xBF\xBD\\n\""); /* high + other escape */
	assert_string_equal(roundtrip(a, "\"\\ude00\"", 0), "\"\xEF\xBF\xBD\"");       /* lone low */
	assert_string_equal(roundtrip(a, "\"\\b\\f\\r\\t\\\\\\\"\"", 0), "\"\\b\\f\\r\\t\\\\\\\"\"");
	assert_string_equal(roundtrip(a, "[-0.5e-3, -1E+2, 0e0]", 0), "[-0.5e-3,-1E+2,0e0]");
	const char *bad[] = {"\"\\u12\"", "\"\\u12g4\"", "-",        "-a",       "1e",      "1e+",
			     "[1 2]",     "{\"a\" 1}",   "{\"a\":}", "tru",      "nul",     "fals",
			     "[",         "{",           "\"\\",     "\"\x01\"", "Infinit", "-Inf"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_string_equal(roundtrip(a, bad[i], 0), "ERROR");
	txc_arena_free(a);
}

/* the plain-text scan (16 bytes at a time) stops at the first byte that is not plain, wherever it lies */
static void test_json_string_offsets(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	static const struct {
		const char *in, *out; /* a byte sequence, and what it decodes to (NULL: the text is refused) */
	} mid[] = {{"\\n", "\n"},  {"\xC3\xA9", "\xC3\xA9"}, {"\xFF", "\xEF\xBF\xBD"},
		   {"\x01", NULL}, {"\\u0041", "A"},         {"\\\"", "\""}};
	for (size_t k = 0; k < sizeof(mid) / sizeof(mid[0]); k++)
		for (size_t i = 0; i < 40; i++)
			for (size_t j = 0; j < 20; j += 3) {
				char in[128], want[128];
				int n = snprintf(in, sizeof(in), "\"%.*s%s%.*s\"", (int)i,
						 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", mid[k].in, (int)j,
						 "bbbbbbbbbbbbbbbbbbbbbbbbb");
				snprintf(want, sizeof(want), "%.*s%s%.*s", (int)i,
					 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", mid[k].out ? mid[k].out : "",
					 (int)j, "bbbbbbbbbbbbbbbbbbbbbbbbb");
				const struct txc_json *v;
				int rc = txc_json_parse(a, in, (size_t)n, &v);
				if (mid[k].out == NULL) {
					assert_int_equal(rc, -1);
					continue;
				}
				assert_int_equal(rc, 0);
				assert_int_equal(v->kind, TXC_JSON_STRING);
				assert_int_equal(v->s.len, strlen(want));
				assert_memory_equal(v->s.ptr, want, v->s.len);
			}
	/* and written back: each byte that needs it escaped (or replaced) wherever it lies */
	static const struct {
		const char *in, *out;
	} esc[] = {{"\n", "\\n"},       {"\"", "\\\""},           {"\\", "\\\\"},
		   {"\x01", "\\u0001"}, {"\xC3\xA9", "\xC3\xA9"}, {"\xFF", "\xEF\xBF\xBD"}};
	for (size_t k = 0; k < sizeof(esc) / sizeof(esc[0]); k++)
		for (size_t i = 0; i < 40; i++)
			for (size_t j = 0; j < 20; j += 3) {
				char in[128], want[128];
				int n = snprintf(in, sizeof(in), "%.*s%s%.*s", (int)i,
						 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", esc[k].in, (int)j,
						 "bbbbbbbbbbbbbbbbbbbbbbbbb");
				snprintf(want, sizeof(want), "\"%.*s%s%.*s\"", (int)i,
					 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", esc[k].out, (int)j,
					 "bbbbbbbbbbbbbbbbbbbbbbbbb");
				struct txc_buf b = TXC_BUF_INIT;
				txc_json_emit_str(&b, in, (size_t)n);
				assert_string_equal(b.buf, want);
				txc_buf_release(&b);
			}
	/* a string cut short anywhere is refused */
	for (size_t i = 1; i < 40; i++)
		assert_int_equal(txc_json_parse(a, "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"", i,
						&(const struct txc_json *){NULL}),
				 -1);
	txc_arena_free(a);
}

/* buffers and arenas grow, cut and hand over their bytes */
static void test_buf_arena(void **state)
{
	(void)state;
	struct txc_buf b = TXC_BUF_INIT;
	size_t n = 99;
	char *r = txc_buf_detach(&b, &n); /* never allocated: an empty string */
	assert_string_equal(r, "");
	assert_int_equal(n, 0);
	free(r);
	txc_buf_add_pct(&b, "a b/é%~", "/~");
	assert_string_equal(b.buf, "a%20b/%C3%A9%25~");
	struct txc_buf z = TXC_BUF_INIT; /* a NUL byte is encoded, never kept (strchr finds the terminator) */
	txc_buf_add_pct_n(&z, "x\0/y", 4, "/");
	assert_string_equal(z.buf, "x%00/y");
	txc_buf_release(&z);
	txc_buf_addf(&b, "%s", ""); /* nothing to add */
	txc_buf_truncate(&b, 1000); /* past the end: unchanged */
	assert_int_equal(b.len, 16);
	txc_buf_truncate(&b, 1);
	assert_string_equal(b.buf, "a");
	for (int i = 0; i < 10000; i++)
		txc_buf_addch(&b, 'x');
	assert_int_equal(b.len, 10001);
	r = txc_buf_detach(&b, NULL);
	assert_int_equal(strlen(r), 10001);
	free(r);
	assert_int_equal(b.len, 0);

	struct txc_arena *a = txc_arena_new(256);
	char *big = txc_arena_alloc(a, 1000); /* bigger than a quarter block, first: its own block */
	memset(big, 1, 1000);
	char *small = txc_arena_alloc(a, 8);
	char *big2 = txc_arena_alloc(a, 200); /* behind the current block */
	assert_true(small != NULL && big2 != NULL);
	for (int i = 0; i < 50; i++)
		assert_non_null(txc_arena_array(a, 3, 16));
	assert_int_equal(txc_arena_str(a, "", 0).len, 0);
	txc_arena_reset(a);
	assert_non_null(txc_arena_alloc(a, 16));
	txc_arena_free(a);
	txc_arena_free(NULL);
}

/* a hash fed in pieces equals the hash of the whole */
static void test_sha256_pieces(void **state)
{
	(void)state;
	unsigned char whole[200], h1[32], h2[32];
	for (size_t i = 0; i < sizeof(whole); i++)
		whole[i] = (unsigned char)(i * 7);
	txc_sha256(whole, sizeof(whole), h1);
	const size_t cuts[] = {1, 62, 3, 64, 70};
	struct txc_sha256 c;
	txc_sha256_init(&c);
	size_t at = 0;
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		txc_sha256_update(&c, whole + at, cuts[i]);
		at += cuts[i];
	}
	txc_sha256_update(&c, whole + at, sizeof(whole) - at);
	txc_sha256_final(&c, h2);
	assert_memory_equal(h1, h2, 32);
}

/* 0 bytes: a real allocation all the same (callers allocate n items without a special case) */
static void test_alloc_zero(void **state)
{
	(void)state;
	void *a = txc_xmalloc(0), *b = txc_xcalloc(0, 8), *c = txc_xcalloc(4, 0);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	a = txc_xrealloc(a, 0);
	assert_non_null(a);
	free(a);
	free(b);
	free(c);
}

static void test_diag_codes(void **state)
{
	(void)state;
	txc_diag_set(NULL, TXC_E_FAIL, "nowhere %d", 1); /* no diag: nothing recorded, no crash */
	assert_int_equal(txc_diag_exit_code(TXC_OK), 0);
	assert_int_equal(txc_diag_exit_code(TXC_E_FAIL), 1);
	assert_int_equal(txc_diag_exit_code(TXC_E_USAGE), 2);
	assert_int_equal(txc_diag_exit_code(TXC_E_AMBIGUOUS), 2);
	assert_int_equal(txc_diag_exit_code(TXC_E_NOTFOUND), 3);
	assert_int_equal(txc_diag_exit_code(TXC_E_REFUSED), 4);
	char s[8];
	strcpy(s, "\x80\x80\x80\x80\x80"); /* continuation bytes only: cut where asked */
	assert_int_equal(txc_diag_cut(s, 5), 5);
	strcpy(s, "ab");
	assert_int_equal(txc_diag_cut(s, 0), 0);
	assert_int_equal(txc_utf8_seq((const unsigned char *)"", 0, NULL), 0);
	repr_is(NAN, "NaN");
	repr_is(-INFINITY, "-Infinity");
	repr_is(-2.5e-320, "-2.5e-320");
	repr_is(9007199254740993.0, "9007199254740992.0");
}

/* terminal columns without a locale: ASCII 1, CJK and emoji 2, combining and zero-width 0 */
static void test_utf8_width(void **state)
{
	(void)state;
	assert_int_equal(txc_utf8_width('a'), 1);
	assert_int_equal(txc_utf8_width(0xE9), 1);    /* é precomposed */
	assert_int_equal(txc_utf8_width(0x0301), 0);  /* combining acute */
	assert_int_equal(txc_utf8_width(0x0332), 0);  /* combining low line */
	assert_int_equal(txc_utf8_width(0x200D), 0);  /* zero-width joiner */
	assert_int_equal(txc_utf8_width(0xFE0F), 0);  /* variation selector 16 */
	assert_int_equal(txc_utf8_width(0x1F3FD), 2); /* skin tone: 2, as tmux draws it (a row never wraps) */
	assert_int_equal(txc_utf8_width(0x4F60), 2);  /* 你 */
	assert_int_equal(txc_utf8_width(0xAC00), 2);  /* 가 */
	assert_int_equal(txc_utf8_width(0xFF21), 2);  /* fullwidth A */
	assert_int_equal(txc_utf8_width(0x1F680), 2); /* rocket */
	assert_int_equal(txc_utf8_width(0x1F44B), 2); /* waving hand */
	assert_int_equal(txc_utf8_width(0x20000), 2); /* CJK extension B */
	assert_int_equal(txc_utf8_width(0x0627), 1);  /* Arabic alef */
	assert_int_equal(txc_utf8_width(0x2014), 1);  /* em dash */
	assert_int_equal(txc_utf8_width(0x10FFFF), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag_cut),
		cmocka_unit_test(test_repr),
		cmocka_unit_test(test_repr_corpus),
		cmocka_unit_test(test_json_python_rules),
		cmocka_unit_test(test_json_sorted_orders),
		cmocka_unit_test(test_json_depth_and_size),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_sha256_base36),
		cmocka_unit_test(test_time_iso),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_json_string_offsets),
		cmocka_unit_test(test_buf_arena),
		cmocka_unit_test(test_sha256_pieces),
		cmocka_unit_test(test_diag_codes),
		cmocka_unit_test(test_utf8_width),
		cmocka_unit_test(test_alloc_zero),
		cmocka_unit_test(test_time_format),
		cmocka_unit_test(test_json_number_int),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
