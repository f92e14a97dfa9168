/* test_hermes_timings.c - Hermes 0.21's timings: Python's isoformat, round and float rules (values
 * from CPython 3: datetime.fromtimestamp(ts, timezone.utc).isoformat(), max(0, int(round(x))),
 * float(s)), and the accumulator on the reference's test vector. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "txc/json.h"
#include "txc/writer_hermes.h"

static void iso_is(double ts, const char *want)
{
	char out[40];
	if (want == NULL) {
		assert_false(txc_py_iso_utc(ts, out));
		return;
	}
	assert_true(txc_py_iso_utc(ts, out));
	assert_string_equal(out, want);
}

static void test_iso(void **state)
{
	(void)state;
	iso_is(0.0, "1970-01-01T00:00:00+00:00");
	iso_is(1700000000.0, "2023-11-14T22:13:20+00:00");
	iso_is(1700000000.5, "2023-11-14T22:13:20.500000+00:00");
	iso_is(1700000000.9999996, "2023-11-14T22:13:21+00:00"); /* rounds up into the next second */
	iso_is(1700000000.0000005, "2023-11-14T22:13:20+00:00");
	iso_is(5e-7, "1970-01-01T00:00:00+00:00");             /* 0.5 us: half to even, 0 */
	iso_is(1.0000005, "1970-01-01T00:00:01.000001+00:00"); /* not exactly a half */
	iso_is(-1.5, "1969-12-31T23:59:58.500000+00:00");
	iso_is(-4e-7, "1970-01-01T00:00:00+00:00");
	iso_is(1000.0625, "1970-01-01T00:16:40.062500+00:00");
	iso_is(-62135596800.0, "0001-01-01T00:00:00+00:00");
	iso_is(253402300799.0, "9999-12-31T23:59:59+00:00");
	iso_is(-62135596801.0, NULL); /* year 0 */
	iso_is(253402300800.0, NULL); /* year 10000 */
	iso_is(1e20, NULL);
	iso_is(NAN, NULL);
	iso_is(INFINITY, NULL);
	iso_is(-INFINITY, NULL);
}

static void ms_is(double x, const char *want)
{
	struct txc_buf b = TXC_BUF_INIT;
	if (want == NULL) {
		assert_false(txc_py_round_ms(&b, x));
		assert_int_equal(b.len, 0);
	} else {
		assert_true(txc_py_round_ms(&b, x));
		assert_string_equal(b.buf, want);
	}
	txc_buf_release(&b);
}

static void test_round(void **state)
{
	(void)state;
	ms_is(0.5, "0");
	ms_is(1.5, "2");
	ms_is(2.5, "2");
	ms_is(62.5, "62");
	ms_is(187.5, "188");
	ms_is(-0.5, "0");
	ms_is(-1.5, "0");
	ms_is(-0.0, "0");
	ms_is(2.4999999999999996, "2");
	ms_is((1000.0025 - 1000.0) * 1000, "3"); /* 2.5000000000545697: the double decides, not the decimal */
	ms_is((1001.25 - 1000.0) * 1000, "1250");
	ms_is(1e19, "10000000000000000000");
	ms_is(1e300,
	      "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864"
	      "043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368"
	      "953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540"
	      "160");
	ms_is(NAN, NULL);
	ms_is(INFINITY, NULL);
}

static void float_is(const char *text, bool ok, double want)
{
	struct txc_json v = {.kind = TXC_JSON_STRING, .s = {text, strlen(text)}};
	double d = 0;
	assert_int_equal(txc_py_float(&v, &d), ok);
	if (ok && isnan(want))
		assert_true(isnan(d));
	else if (ok)
		assert_true(d == want);
}

static void test_float(void **state)
{
	(void)state;
	float_is("1_000", true, 1000.0);
	float_is(" 12.5\n", true, 12.5);
	float_is("+1.5", true, 1.5);
	float_is(".5", true, 0.5);
	float_is("5.", true, 5.0);
	float_is("1e5", true, 1e5);
	float_is("inf", true, INFINITY);
	float_is("-Infinity", true, -INFINITY);
	float_is("nan", true, NAN);
	float_is("1__0", false, 0);
	float_is("_1", false, 0);
	float_is("1_", false, 0);
	float_is("0x10", false, 0);
	float_is("abc", false, 0);
	float_is("", false, 0);
	float_is("1e", false, 0);
	float_is("e5", false, 0);
	float_is("in f", false, 0);
	float_is("12:00", false, 0);
	double d;
	assert_false(txc_py_float(NULL, &d));
	assert_false(txc_py_float(&txc_json_null_value, &d));
	struct txc_json t = {.kind = TXC_JSON_TRUE}, i = {.kind = TXC_JSON_INT, .s = {"-7", 2}};
	assert_true(txc_py_float(&t, &d) && d == 1.0);
	assert_true(txc_py_float(&i, &d) && d == -7.0);
}

static const struct txc_json *row(struct txc_arena *a, const char *json)
{
	const struct txc_json *v;
	assert_int_equal(txc_json_parse(a, json, strlen(json), &v), 0);
	return v;
}

/* hermes-current.md 3.3: 1000.0, 1001.25, 1003.0, 1003.5 give 3500, 1750 and gaps 1250/1750/500 */
static void test_vector(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(4096);
	struct txc_hermes_timings *tm = txc_hermes_timings_new();
	txc_hermes_timings_add(tm, row(a, "{\"id\": 1, \"role\": \"user\", \"timestamp\": 1000.0}"));
	txc_hermes_timings_add(tm, row(a, "{\"id\": 2, \"role\": \"assistant\", \"timestamp\": 1001.25, "
					  "\"tool_calls\": [{\"id\": \"c\"}]}"));
	txc_hermes_timings_add(tm, row(a, "{\"id\": 3, \"role\": \"tool\", \"timestamp\": 1003.0}"));
	txc_hermes_timings_add(tm,
			       row(a, "{\"id\": 9, \"role\": null, \"timestamp\": NaN, \"tool_calls\": {\"x\": 1}}"));
	txc_hermes_timings_add(tm, row(a, "{\"id\": 4, \"role\": \"assistant\", \"timestamp\": 1003.5}"));
	struct txc_buf b = TXC_BUF_INIT;
	txc_hermes_timings_emit(&b, tm);
	assert_string_equal(
		b.buf,
		"\"timings\": {\"source\": \"message_timestamps\", \"available\": true, \"complete\": false, "
		"\"unavailable_reason\": null, \"message_timestamps\": {\"available\": 4, \"missing\": 1}, "
		"\"first_message_at\": \"1970-01-01T00:16:40+00:00\", \"last_message_at\": "
		"\"1970-01-01T00:16:43.500000+00:00\", \"wall_clock_ms\": 3500, \"largest_gap_ms\": 1750, \"role_counts\": "
		"{\"user\": 1, \"assistant\": 2, \"tool\": 1, \"unknown\": 1}, \"tool_result_count\": 1, "
		"\"tool_calls_emitted\": 2, \"intervals\": [{\"from_message_id\": 1, \"to_message_id\": 2, \"from_role\": "
		"\"user\", \"to_role\": \"assistant\", \"gap_ms\": 1250}, {\"from_message_id\": 2, \"to_message_id\": 3, "
		"\"from_role\": \"assistant\", \"to_role\": \"tool\", \"gap_ms\": 1750}, {\"from_message_id\": 3, "
		"\"to_message_id\": 4, \"from_role\": \"tool\", \"to_role\": \"assistant\", \"gap_ms\": 500}]}");
	txc_buf_release(&b);
	txc_hermes_timings_free(tm);
	txc_hermes_timings_free(NULL);
	txc_arena_free(a);
}

/* a gap too large for a double (Hermes: OverflowError) is null and not the largest; roles by str() */
static void test_overflow_and_roles(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(4096);
	struct txc_hermes_timings *tm = txc_hermes_timings_new();
	txc_hermes_timings_add(tm, row(a, "{\"id\": 1, \"role\": 5, \"timestamp\": -1e306}"));
	txc_hermes_timings_add(tm, row(a, "{\"id\": 2, \"role\": 1.5, \"timestamp\": 1e306}"));
	txc_hermes_timings_add(tm, row(a, "{\"id\": 3, \"role\": true, \"timestamp\": 1e306}"));
	txc_hermes_timings_add(tm, row(a, "{\"id\": 4, \"role\": [\"x\"], \"timestamp\": \"1e306\"}"));
	struct txc_buf b = TXC_BUF_INIT;
	txc_hermes_timings_emit(&b, tm);
	assert_non_null(strstr(b.buf, "\"first_message_at\": null, \"last_message_at\": null, \"wall_clock_ms\": null, "
				      "\"largest_gap_ms\": 0, \"role_counts\": {\"5\": 1, \"1.5\": 1, \"True\": 1, "
				      "\"[\\\"x\\\"]\": 1}"));
	assert_non_null(strstr(b.buf, "\"to_message_id\": 2, \"from_role\": 5, \"to_role\": 1.5, \"gap_ms\": null}"));
	txc_buf_release(&b);
	txc_hermes_timings_free(tm);
	txc_arena_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso),
		cmocka_unit_test(test_round),
		cmocka_unit_test(test_float),
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_overflow_and_roles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
