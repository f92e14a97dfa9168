/*
 * json.h - a JSON value tree that keeps what Python's json module keeps.
 *
 * Parsing follows json.loads: NaN/Infinity literals, duplicate keys resolved
 * "last value at the first key's position", integers kept as their exact
 * digits, doubles correctly rounded.  Where Python would crash (lone
 * surrogates, nesting past TXC_JSON_MAX_DEPTH) txc degrades instead: a lone
 * surrogate becomes U+FFFD, too-deep input is a parse error.
 *
 * Ownership: every node and string lives in the arena passed to the parser
 * or builder; nothing is freed on its own.
 */
#ifndef TXC_JSON_H
#define TXC_JSON_H

#include "txc/util.h"

#define TXC_JSON_MAX_DEPTH 1000

enum txc_json_kind {
	TXC_JSON_NULL,
	TXC_JSON_FALSE,
	TXC_JSON_TRUE,
	TXC_JSON_INT,  /* s = exact decimal digits */
	TXC_JSON_REAL, /* d = value; s = source lexeme or {NULL,0} */
	TXC_JSON_STRING,
	TXC_JSON_ARRAY, /* s: unused, except the reader's mark on an undecodable tool_calls (model.c) */
	TXC_JSON_OBJECT,
	TXC_JSON_BLOB, /* s = raw bytes (SQLite BLOB); emitted as {"$blob_hex": "..."} */
};

struct txc_json {
	enum txc_json_kind kind;
	size_t n;                      /* items in an array or object */
	struct txc_str s;              /* string bytes, integer digits, real lexeme, blob */
	double d;                      /* REAL */
	const struct txc_json **items; /* array items / object values */
	struct txc_str *keys;          /* object keys, parallel to items */
};

extern const struct txc_json txc_json_null_value;

/* Parse exactly one document (JSON whitespace around it allowed). 0 or -1. */
int txc_json_parse(struct txc_arena *a, const char *p, size_t len, const struct txc_json **out);

const struct txc_json *txc_json_get(const struct txc_json *obj, const char *key);
const char *txc_json_cstr(const struct txc_json *v); /* string value or NULL */
bool txc_json_is_int(const struct txc_json *v, int64_t *out);
bool txc_json_truthy(const struct txc_json *v); /* Python truthiness */
/* An INT (by its digits) or REAL as a double: false for anything else (v may be NULL). */
bool txc_json_number(const struct txc_json *v, double *out);

struct txc_json *txc_json_new(struct txc_arena *a, enum txc_json_kind kind);
struct txc_json *txc_json_string(struct txc_arena *a, const char *p, size_t len);
struct txc_json *txc_json_int(struct txc_arena *a, int64_t v);
struct txc_json *txc_json_real(struct txc_arena *a, double d);
struct txc_json *txc_json_object(struct txc_arena *a, size_t cap);
struct txc_json *txc_json_array(struct txc_arena *a, size_t cap);
/* A deep copy of v into arena a. */
const struct txc_json *txc_json_copy(struct txc_arena *a, const struct txc_json *v);
/* Append to an object/array built with capacity cap (no growth). */
void txc_json_put(struct txc_json *obj, struct txc_str key, const struct txc_json *v);
void txc_json_push(struct txc_json *arr, const struct txc_json *v);

enum txc_json_flags {
	TXC_JSON_PY = 1 << 0,     /* Python json.dumps separators ", " ": " and float repr */
	TXC_JSON_INDENT = 1 << 1, /* indent=2 */
	TXC_JSON_SORTED = 1 << 2, /* sort object keys bytewise */
};
void txc_json_emit(struct txc_buf *b, const struct txc_json *v, unsigned flags);
/* A JSON string literal of p (invalid UTF-8 becomes U+FFFD). */
void txc_json_emit_str(struct txc_buf *b, const char *p, size_t len);
void txc_json_emit_real(struct txc_buf *b, double d);

#endif
