/*
 * hermes_db_value.c - SQLite values as txc's JSON nodes (hermes_db.h): a column's value, a row
 * as an object, the content and tool calls as Hermes decodes them.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#include "hermes_db.h"

static const struct txc_json int_zero = {.kind = TXC_JSON_INT, .s = {"0", 1}};
static const struct txc_json int_one = {.kind = TXC_JSON_INT, .s = {"1", 1}};

/*
 * Most columns of a row are NULL, 0 or 1: those share static nodes.  The value is
 * read through its sqlite3_value: each sqlite3_column_*() call enters the
 * connection again (a third of what a listing's columns cost).  The connection is
 * used by one thread (SQLITE_OPEN_NOMUTEX), as the unprotected value requires.
 */
const struct txc_json *txc_hermes_db_value(struct txc_arena *a, sqlite3_stmt *st, int i)
{
	sqlite3_value *cv = sqlite3_column_value(st, i);
	switch (sqlite3_value_type(cv)) {
	case SQLITE_INTEGER: {
		sqlite3_int64 x = sqlite3_value_int64(cv);
		if (x == 0 || x == 1)
			return x ? &int_one : &int_zero;
		return txc_json_int(a, x);
	}
	case SQLITE_FLOAT: return txc_json_real(a, sqlite3_value_double(cv));
	case SQLITE_TEXT: {
		const void *p = sqlite3_value_text(cv);
		return txc_json_string(a, p, (size_t)sqlite3_value_bytes(cv));
	}
	case SQLITE_BLOB: {
		const void *p = sqlite3_value_blob(cv);
		struct txc_json *v = txc_json_new(a, TXC_JSON_BLOB);
		v->s = txc_arena_str(a, p, (size_t)sqlite3_value_bytes(cv));
		return v;
	}
	default: return &txc_json_null_value;
	}
}

/* bytes in a, or the previous row's copy of them (*prev) when they are the same */
static struct txc_str bytes_in(struct txc_arena *a, const void *p, size_t n, struct txc_str *prev)
{
	if (prev != NULL && prev->ptr != NULL && prev->len == n && (n == 0 || memcmp(prev->ptr, p, n) == 0))
		return *prev;
	struct txc_str s = txc_arena_str(a, p, n);
	if (prev != NULL)
		*prev = s;
	return s;
}

/* Column i's value in *node, not a node of its own (a brief listing keeps no node a value); the
 * shared nodes as txc_hermes_db_value() gives them. */
const struct txc_json *txc_hermes_db_value_in(struct txc_arena *a, sqlite3_stmt *st, int i, struct txc_json *node,
					      struct txc_str *prev)
{
	sqlite3_value *cv = sqlite3_column_value(st, i);
	int type = sqlite3_value_type(cv);
	sqlite3_int64 x = type == SQLITE_INTEGER ? sqlite3_value_int64(cv) : 0;
	if (type == SQLITE_NULL || (type == SQLITE_INTEGER && (x == 0 || x == 1)))
		return txc_hermes_db_value(a, st, i);
	memset(node, 0, sizeof(*node));
	if (type == SQLITE_FLOAT) {
		node->kind = TXC_JSON_REAL;
		node->d = sqlite3_value_double(cv);
	} else if (type == SQLITE_INTEGER) {
		char t[24], *d = t + sizeof(t); /* txc_json_int's digits (snprintf: five times the cost) */
		uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
		do
			*--d = (char)('0' + u % 10);
		while ((u /= 10) != 0);
		if (x < 0)
			*--d = '-';
		node->kind = TXC_JSON_INT;
		node->s = bytes_in(a, d, (size_t)(t + sizeof(t) - d), prev);
	} else {
		const void *p = type == SQLITE_TEXT ? (const void *)sqlite3_value_text(cv) : sqlite3_value_blob(cv);
		node->kind = type == SQLITE_TEXT ? TXC_JSON_STRING : TXC_JSON_BLOB;
		node->s = bytes_in(a, p, (size_t)sqlite3_value_bytes(cv), prev);
	}
	return node;
}

/* Column names as object keys, made once per statement and shared by its rows. */
struct txc_str *txc_hermes_db_keys(struct txc_arena *a, sqlite3_stmt *st, int ncols)
{
	struct txc_str *keys = txc_arena_array(a, (size_t)ncols, sizeof(*keys));
	for (int i = 0; i < ncols; i++) {
		const char *name = sqlite3_column_name(st, i);
		keys[i] = txc_arena_str(a, name, strlen(name));
	}
	return keys;
}

/* content: "\0json:" + JSON is decoded; a parse failure keeps the text as is */
const struct txc_json *txc_hermes_db_decode_content(struct txc_arena *a, const struct txc_json *v)
{
	const struct txc_json *out;
	if (v->kind == TXC_JSON_STRING && v->s.len >= 6 && memcmp(v->s.ptr, "\0json:", 6) == 0 &&
	    txc_json_parse(a, v->s.ptr + 6, v->s.len - 6, &out) == 0)
		return out;
	return v;
}

static const struct txc_json *decode_tool_calls(struct txc_arena *a, const struct txc_json *v)
{
	const struct txc_json *out;
	if (!txc_json_truthy(v))
		return v;
	if ((v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_BLOB) &&
	    txc_json_parse(a, v->s.ptr, v->s.len, &out) == 0)
		return out;
	/* Hermes reads a value that is not JSON as []; the empty array keeps the text in s
	 * (never emitted) so that the model can still show it */
	struct txc_json *empty = txc_json_array(a, 0);
	if (v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_BLOB)
		empty->s = v->s;
	return empty;
}

static const struct txc_json *decode_metadata(struct txc_arena *a, const struct txc_json *v)
{
	const struct txc_json *out;
	if (v->kind != TXC_JSON_STRING || txc_json_parse(a, v->s.ptr, v->s.len, &out) != 0)
		return &txc_json_null_value;
	if (out->kind == TXC_JSON_STRING && txc_json_parse(a, out->s.ptr, out->s.len, &out) != 0)
		return &txc_json_null_value;
	return out->kind == TXC_JSON_OBJECT ? out : &txc_json_null_value;
}

/* keys: from txc_hermes_db_keys(), shared (row objects are never modified in place) */
const struct txc_json *txc_hermes_db_row(struct txc_arena *a, sqlite3_stmt *st, int ncols, struct txc_str *keys,
					 bool message)
{
	struct txc_json *o = txc_json_new(a, TXC_JSON_OBJECT);
	const struct txc_json **items = txc_arena_array(a, (size_t)ncols, sizeof(*items));
	for (int i = 0; i < ncols; i++) {
		const struct txc_json *v = txc_hermes_db_value(a, st, i);
		if (message && v->kind != TXC_JSON_NULL) {
			const struct txc_str k = keys[i];
			if (txc_str_eq(k, "content"))
				v = txc_hermes_db_decode_content(a, v);
			else if (txc_str_eq(k, "tool_calls"))
				v = decode_tool_calls(a, v);
			else if (txc_str_eq(k, "display_metadata"))
				v = decode_metadata(a, v);
		}
		items[i] = v;
	}
	o->items = items;
	o->keys = keys;
	o->n = (size_t)ncols;
	return o;
}
