/*
 * hermes_db_fp.c - the fingerprints that tell a re-run which sessions of Hermes's state.db changed
 * (bulk export, TXC_LIST_FINGERPRINT); split from hermes_db_read.c, whose listing calls them.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hermes_db.h"

/*
 * What tells that a session's rows changed, two seeks in the index on messages(session_id, id):
 * its first and last message rows (added, pruned, compaction's new rows); then its whole session
 * row (message_count, ended_at, title, tokens, rewind_count, ...), all hashed by txc_hermes_db_fingerprint().
 * A count(*) would read every index entry: 7x the cost of `list`.
 */
/* ", first, last": the session's first and last message ids, as SQL (", NULL, NULL": no messages) */
static void msg_cols(struct hermes_db *s, struct txc_buf *b)
{
	if (s->has_messages && txc_hermes_db_has_col(&s->msg, "session_id")) {
		const char *id = txc_hermes_db_has_col(&s->msg, "id") ? "m.\"id\"" : "m.rowid";
		/* +s.id: the id compared without its column's affinity, as the render's bound id is (an
		 * integer in a column of no type would not equal messages' TEXT session_id: a change unseen) */
		txc_buf_addf(b,
			     ", (SELECT min(%s) FROM messages m WHERE m.session_id = +s.id), (SELECT max(%s) FROM "
			     "messages m WHERE m.session_id = +s.id)",
			     id, id);
	} else {
		txc_buf_addstr(b, ", NULL, NULL");
	}
}

void txc_hermes_db_fingerprint_cols(struct hermes_db *s, struct txc_buf *b)
{
	msg_cols(s, b);
	txc_buf_addstr(b, ", s.*");
}

/* The fingerprints apart, in rowid order: sorting the listing with every session's whole row in
 * it (sixty columns) was a sixth of a re-run's instructions; a table read in rowid order is not
 * sorted.  Column 0 is the rowid. */
static void fingerprint_sql(struct hermes_db *s, struct txc_buf *b)
{
	txc_buf_addf(b, "SELECT s.%s", s->rowid);
	txc_hermes_db_fingerprint_cols(s, b);
	txc_buf_addf(b, " FROM sessions s ORDER BY s.%s", s->rowid);
}

/* The number of columns of `s.*`, as SQLite counts them (the table may have more than we name). */
int txc_hermes_db_star_cols(struct hermes_db *s)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT * FROM sessions LIMIT 0", -1, &st, NULL) != SQLITE_OK)
		return 0;
	int n = sqlite3_column_count(st);
	sqlite3_finalize(st);
	return n;
}

/* Two 64-bit lanes over 8 bytes at a time: a change detector (not a defence against someone
 * crafting rows), far cheaper than SHA-256, which was a third of a re-run's instructions. */
struct fp_hash {
	uint64_t a, b;
};

static void fp_mix(struct fp_hash *h, uint64_t w)
{
	h->a = (h->a ^ w) * 0x9E3779B97F4A7C15u;
	h->a ^= h->a >> 29;
	h->b = (h->b + w) * 0xC2B2AE3D27D4EB4Fu;
	h->b ^= h->b >> 31;
}

static void fp_bytes(struct fp_hash *h, const unsigned char *p, size_t n)
{
	uint64_t w;
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		fp_mix(h, w);
	}
	w = 0;
	memcpy(&w, p, n);
	fp_mix(h, w ^ ((uint64_t)n << 56));
}

/* One value: its type, and its bits (a number) or its length and bytes */
static void fp_value(struct fp_hash *h, sqlite3_value *v)
{
	int type = sqlite3_value_type(v);
	if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) { /* their bits: no text conversion */
		uint64_t w;
		if (type == SQLITE_INTEGER) {
			w = (uint64_t)sqlite3_value_int64(v);
		} else {
			double x = sqlite3_value_double(v);
			memcpy(&w, &x, sizeof(w));
		}
		fp_mix(h, (uint64_t)type << 32);
		fp_mix(h, w);
		return;
	}
	if (type == SQLITE_NULL) { /* (as an empty value: the same hash as before this shortcut) */
		fp_mix(h, (uint64_t)type << 32);
		return;
	}
	const unsigned char *p = sqlite3_value_blob(v);
	int len = sqlite3_value_bytes(v);
	fp_mix(h, (uint64_t)type << 32 | (uint32_t)len);
	if (p != NULL && len > 0)
		fp_bytes(h, p, (size_t)len);
}

#define FP_INIT                                          \
	{                                                \
		0x243F6A8885A308D3u, 0x13198A2E03707344u \
	}

static void fp_be(const struct fp_hash *h, unsigned char be[16])
{
	for (int k = 0; k < 8; k++) {
		be[k] = (unsigned char)(h->a >> (56 - 8 * k));
		be[8 + k] = (unsigned char)(h->b >> (56 - 8 * k));
	}
}

/* 16 bytes as 32 hex digits in a ("%016llx%016llx" without snprintf: once per session of every re-run) */
static struct txc_str fp_hex(struct txc_arena *a, const unsigned char be[16])
{
	char *hex = txc_arena_alloc(a, 33);
	txc_hex(hex, be, 16);
	return (struct txc_str){hex, 32};
}

/* 32 hex digits over the columns from `from` on: each one's type, length and bytes. */
struct txc_str txc_hermes_db_fingerprint(struct txc_arena *a, sqlite3_stmt *st, int from)
{
	struct fp_hash h = FP_INIT;
	for (int i = from, to = sqlite3_column_count(st); i < to; i++)
		fp_value(&h, sqlite3_column_value(st, i)); /* (one call into the statement, not three) */
	unsigned char be[16];
	fp_be(&h, be);
	return fp_hex(a, be);
}

/* txc_fp(v...): txc_hermes_db_fingerprint() of its arguments, in the statement (16 bytes): no result
 * row of sixty columns read back one sqlite3_column_value() at a time (store-1's fingerprints:
 * 21.4 M -> 20.0 M instructions) */
static void fp_func(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	struct fp_hash h = FP_INIT;
	for (int i = 0; i < argc; i++)
		fp_value(&h, argv[i]);
	unsigned char be[16];
	fp_be(&h, be);
	sqlite3_result_blob(c, be, 16, SQLITE_TRANSIENT);
}

/* SELECT rowid, txc_fp(first, last, s."c1", ...): the columns of s.* by name, in its order; false
 * (the statement of fingerprint_sql() instead) when txc_fp cannot be made or takes fewer arguments */
static bool fingerprint_fn_sql(struct hermes_db *s, struct txc_buf *b)
{
	sqlite3_stmt *st;
#ifdef SQLITE_DIRECTONLY
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY; /* (never from the store's schema) */
#else
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
#endif
	if (sqlite3_create_function_v2(s->db, "txc_fp", -1, flags, NULL, fp_func, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "SELECT * FROM sessions LIMIT 0", -1, &st, NULL) != SQLITE_OK)
		return false;
	int n = sqlite3_column_count(st);
	bool ok = n > 0 && n + 2 <= sqlite3_limit(s->db, SQLITE_LIMIT_FUNCTION_ARG, -1);
	struct txc_buf cols = TXC_BUF_INIT;
	msg_cols(s, &cols);
	txc_buf_addf(b, "SELECT s.%s, txc_fp(%s", s->rowid, cols.buf + 2); /* (its ", " dropped) */
	txc_buf_release(&cols);
	for (int i = 0; i < n && ok; i++) {
		const char *name = sqlite3_column_name(st, i);
		ok = name != NULL;
		txc_buf_addstr(b, ", s.\"");
		for (const char *p = name; ok && *p; p++) {
			if (*p == '"') /* a quote in a name doubled */
				txc_buf_addch(b, '"');
			txc_buf_addch(b, *p);
		}
		txc_buf_addch(b, '"');
	}
	sqlite3_finalize(st);
	txc_buf_addf(b, ") FROM sessions s ORDER BY s.%s", s->rowid);
	return ok;
}

struct fp_row {
	int64_t rowid;
	struct txc_str fp;
};

/* v[i].fingerprint for the n sessions whose rowids are rowid[i] (fingerprint_sql()); a session
 * not found (added between the two reads) has none, and is rendered */
int txc_hermes_db_fill_fingerprints(struct hermes_db *s, struct txc_arena *a, struct txc_session_info *v,
				    const int64_t *rowid, size_t n)
{
	struct txc_buf b = TXC_BUF_INIT;
	sqlite3_stmt *st = NULL;
	bool fn = fingerprint_fn_sql(s, &b);
	int rc = fn ? sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL) : SQLITE_ERROR;
	if (rc != SQLITE_OK) { /* the columns apart, hashed here */
		fn = false;
		txc_buf_reset(&b);
		fingerprint_sql(s, &b);
		rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	}
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return rc;
	size_t cap = n ? n : 1, count = 0;
	struct fp_row *f = txc_xmalloc(cap * sizeof(*f));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == cap)
			f = txc_xrealloc(f, (cap *= 2) * sizeof(*f));
		f[count].rowid = sqlite3_column_int64(st, 0);
		if (!fn)
			f[count++].fp = txc_hermes_db_fingerprint(a, st, 1);
		else if (sqlite3_column_bytes(st, 1) == 16)
			f[count++].fp = fp_hex(a, sqlite3_column_blob(st, 1));
		else
			f[count++].fp = (struct txc_str){NULL, 0}; /* (none: rendered) */
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < n && rc == SQLITE_DONE; i++) { /* rowids ascend: a binary search */
		size_t lo = 0, hi = count;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (f[mid].rowid < rowid[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < count && f[lo].rowid == rowid[i])
			v[i].fingerprint = f[lo].fp;
	}
	free(f);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
