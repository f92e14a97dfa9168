/*
 * writer_hermes.h - Hermes's own export line (`hermes sessions export`), byte for
 * byte.  It streams (TXC_WCAP_STREAM: txc_writer_hermes.stream, inactive rows
 * skipped) for export --json and convert --to hermes.  Two versions of it
 * (--hermes-format): v0.20.0's, and 0.21's, whose session objects end with
 * "timings" (hermes_timings.c; docs/FORMATS.md).
 */
#ifndef TXC_WRITER_HERMES_H
#define TXC_WRITER_HERMES_H

#include "txc/writer.h"

extern const struct txc_writer_ops txc_writer_hermes;

/* ---- Hermes 0.21's "timings" (_build_export_timings), built row by row (hermes_timings.c) ---- */

/* Python's datetime.fromtimestamp(ts, timezone.utc).isoformat() into out ("2023-11-14T22:13:20+00:00",
 * ".ffffff" when the microseconds, rounded half-even, are not 0); false where Python raises (NaN,
 * infinite, outside the years 1 to 9999), out untouched. */
bool txc_py_iso_utc(double ts, char out[40]);
/* Python's max(0, int(round(x))) (round half to even) as decimal digits into b; false, nothing
 * written, where Python raises (x NaN or infinite). */
bool txc_py_round_ms(struct txc_buf *b, double x);
/* Python's float(v) of a JSON value; false where it raises (None, text that is not a number, ...). */
bool txc_py_float(const struct txc_json *v, double *out);

struct txc_role_count {
	size_t off, len; /* the role's text in role_names */
	size_t count;
};
struct txc_hermes_timings {
	size_t messages, stamped; /* rows seen; rows with a usable timestamp */
	double first, prev;       /* the first and the latest usable timestamp, in id order */
	struct txc_buf prev_id;   /* JSON text of the latest timestamped row's "id" and "role" */
	struct txc_buf prev_role;
	bool has_largest;
	double largest;            /* the largest gap_ms so far (an integer value) */
	double tool_calls;         /* tool_calls_emitted (a double: never overflows) */
	struct txc_buf intervals;  /* the interval objects so far, ", "-joined */
	struct txc_buf role_names; /* role_counts, in first-seen order */
	struct txc_role_count *roles;
	size_t n_roles, cap_roles;
};
/* An empty one (malloc'd; txc_hermes_timings_free). */
struct txc_hermes_timings *txc_hermes_timings_new(void);
/* One exported row, in id order. */
void txc_hermes_timings_add(struct txc_hermes_timings *tm, const struct txc_json *row);
/* `"timings": {...}` (the key too) of the rows added. */
void txc_hermes_timings_emit(struct txc_buf *b, const struct txc_hermes_timings *tm);
/* Frees tm and what it holds (NULL: nothing). */
void txc_hermes_timings_free(struct txc_hermes_timings *tm);

#endif
