/* json.c - Python-compatible JSON parser and emitter on arena trees. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/json.h"
#include "txc/strmap.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const struct txc_json txc_json_null_value = {.kind = TXC_JSON_NULL};

struct parser {
	struct txc_arena *a;
	const unsigned char *p, *end;
	int depth;
	struct txc_buf tmp;
};

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static bool lit(struct parser *ps, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n) != 0)
		return false;
	ps->p += n;
	return true;
}

static int hex4(const unsigned char *p, uint32_t *out)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* The first i' >= i in p[0..len) that is not plain ASCII -- a quote, a backslash, a control or a
 * high byte (see txc_json_emit_str) -- or len: 16 bytes a step with SSE2, 8 without.  Both ways
 * of a JSON string pass over its plain bytes here (tool results are text with an escaped newline
 * every line: a word-at-a-time scan was most of parsing them and of writing Claude records). */
static size_t plain_end(const unsigned char *p, size_t i, size_t len)
{
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
	for (; i + 16 <= len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		/* signed: below 0x20 is a control byte or one of 0x80..0xFF */
		__m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
					    _mm_cmplt_epi8(x, space));
		unsigned m = (unsigned)_mm_movemask_epi8(stop);
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	for (; i + 8 <= len; i += 8) {
		uint64_t x;
		memcpy(&x, p + i, 8);
		uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
		if (((x - ones * 0x20) | (q - ones) | (bs - ones) | x) & high)
			break; /* (a borrow may mark a later byte too: the bytes are looked at one by one) */
	}
	while (i < len && p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' && p[i] != '\\')
		i++;
	return i;
}

static void skip_plain(struct parser *ps)
{
	ps->p += plain_end(ps->p, 0, (size_t)(ps->end - ps->p));
}

/* \uXXXX (ps->p after the u), with its low surrogate if one follows; a lone surrogate is U+FFFD */
static int parse_u_escape(struct parser *ps, struct txc_buf *b)
{
	uint32_t cp, lo;
	if (ps->end - ps->p < 4 || hex4(ps->p, &cp))
		return -1;
	ps->p += 4;
	bool high = cp >= 0xD800 && cp <= 0xDBFF;
	if (high && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u' && hex4(ps->p + 2, &lo) == 0 &&
	    lo >= 0xDC00 && lo <= 0xDFFF) {
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
		ps->p += 6;
	} else if (cp >= 0xD800 && cp <= 0xDFFF) {
		cp = 0xFFFD; /* lone surrogate: Python would crash on output */
	}
	txc_utf8_put(b, cp);
	return 0;
}

/* One escape (ps->p at the backslash) appended to b. */
static int parse_escape(struct parser *ps, struct txc_buf *b)
{
	/* what each escape letter means; 0: not an escape (a table: strchr was a call per escape) */
	static const char meant[256] = {['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b',
					['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t'};
	if (ps->end - ps->p < 2)
		return -1;
	unsigned e = ps->p[1];
	ps->p += 2;
	if (e == 'u')
		return parse_u_escape(ps, b);
	if (meant[e] == 0)
		return -1;
	txc_buf_addch(b, meant[e]);
	return 0;
}

/* Invalid UTF-8 at ps->p: U+FFFD for the lead byte and its continuation bytes, as Python's replace. */
static void replace_invalid(struct parser *ps, struct txc_buf *b)
{
	txc_buf_add(b, "\xEF\xBF\xBD", 3);
	ps->p++;
	while (ps->p < ps->end && (*ps->p & 0xC0) == 0x80)
		ps->p++;
}

static int parse_string(struct parser *ps, struct txc_str *out)
{
	struct txc_buf *b = &ps->tmp;
	txc_buf_reset(b);
	ps->p++;                          /* opening quote */
	const unsigned char *run = ps->p; /* bytes taken as they are since the last escape */
	for (;;) {
		skip_plain(ps);
		if (ps->p >= ps->end)
			return -1;
		unsigned c = *ps->p;
		if (c == '"') {
			if (b->len == 0) {
				*out = txc_arena_str(ps->a, run, (size_t)(ps->p - run));
			} else {
				txc_buf_add(b, run, (size_t)(ps->p - run));
				*out = txc_arena_str(ps->a, b->buf, b->len);
			}
			ps->p++;
			return 0;
		}
		if (c < 0x20)
			return -1;
		uint32_t cp;
		if (c == '\\') {
			if (b->len == 0) /* room for the rest of the text at once: not a doubling series per string */
				txc_buf_grow(b, (size_t)(ps->end - run));
			txc_buf_add(b, run, (size_t)(ps->p - run));
			if (parse_escape(ps, b) != 0)
				return -1;
			run = ps->p;
		} else if (c < 0x80) {
			ps->p++;
		} else {
			size_t n = txc_utf8_seq(ps->p, (size_t)(ps->end - ps->p), &cp);
			if (n) {
				ps->p += n;
				continue;
			}
			txc_buf_add(b, run, (size_t)(ps->p - run));
			replace_invalid(ps, b);
			run = ps->p;
		}
	}
}

static int parse_number(struct parser *ps, struct txc_json *v)
{
	const unsigned char *s = ps->p, *p = ps->p;
	bool is_real = false;
	if (p < ps->end && *p == '-')
		p++;
	if (p >= ps->end)
		return -1;
	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		while (p < ps->end && *p >= '0' && *p <= '9')
			p++;
	} else {
		return -1;
	}
	if (p + 1 < ps->end && *p == '.' && p[1] >= '0' && p[1] <= '9') {
		is_real = true;
		p++;
		while (p < ps->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < ps->end && (*p == 'e' || *p == 'E')) {
		const unsigned char *q = p + 1;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q < ps->end && *q >= '0' && *q <= '9') {
			is_real = true;
			p = q;
			while (p < ps->end && *p >= '0' && *p <= '9')
				p++;
		}
	}
	size_t len = (size_t)(p - s);
	ps->p = p;
	if (is_real) {
		v->kind = TXC_JSON_REAL;
		v->s = txc_arena_str(ps->a, s, len);
		v->d = strtod(v->s.ptr, NULL);
	} else {
		v->kind = TXC_JSON_INT;
		if (len == 2 && s[0] == '-' && s[1] == '0')
			v->s = txc_arena_str(ps->a, "0", 1);
		else
			v->s = txc_arena_str(ps->a, s, len);
	}
	return 0;
}

static int parse_value(struct parser *ps, const struct txc_json **out);

/* growable item list used while parsing one container: the first ITEMS_INLINE on the stack (most
 * containers are small: a malloc and free each was a tenth of parsing a manifest line) */
#define ITEMS_INLINE 16
struct items {
	const struct txc_json **v;
	struct txc_str *k;
	size_t n, cap;
	const struct txc_json *v0[ITEMS_INLINE];
	struct txc_str k0[ITEMS_INLINE];
};

static void items_push(struct items *it, struct txc_str key, const struct txc_json *v, bool keyed)
{
	if (it->cap == 0) {
		it->v = it->v0;
		it->k = it->k0;
		it->cap = ITEMS_INLINE;
	} else if (it->n == it->cap) {
		bool inline_now = it->v == it->v0;
		it->cap *= 2;
		it->v = inline_now ? memcpy(txc_xmalloc(it->cap * sizeof(*it->v)), it->v0, sizeof(it->v0))
				   : txc_xrealloc(it->v, it->cap * sizeof(*it->v));
		if (keyed)
			it->k = inline_now ? memcpy(txc_xmalloc(it->cap * sizeof(*it->k)), it->k0, sizeof(it->k0))
					   : txc_xrealloc(it->k, it->cap * sizeof(*it->k));
	}
	it->v[it->n] = v;
	if (keyed)
		it->k[it->n] = key;
	it->n++;
}

static void finish(struct parser *ps, struct txc_json *v, struct items *it, bool keyed)
{
	v->n = it->n;
	v->items = txc_arena_array(ps->a, it->n ? it->n : 1, sizeof(*v->items));
	if (it->n)
		memcpy(v->items, it->v, it->n * sizeof(*v->items));
	if (keyed) {
		v->keys = txc_arena_array(ps->a, it->n ? it->n : 1, sizeof(*v->keys));
		if (it->n)
			memcpy(v->keys, it->k, it->n * sizeof(*v->keys));
	}
	if (it->v != it->v0)
		free(it->v);
	if (keyed && it->k != it->k0)
		free(it->k);
}

/*
 * Where key k already is among the object's items, or -1 when it is new (it then takes position
 * it->n).  Small objects are scanned; from 16 keys on, an index of positions is built once and
 * kept up to date here, so a large object costs one hash per key.
 */
static long find_key(const struct items *it, struct txc_strmap *idx, struct txc_str k)
{
	if (it->n < 16) {
		for (size_t i = 0; i < it->n; i++)
			if (it->k[i].len == k.len && memcmp(it->k[i].ptr, k.ptr, k.len) == 0)
				return (long)i;
		return -1;
	}
	if (idx->n == 0) /* keys are distinct: each put adds */
		for (size_t i = 0; i < it->n; i++)
			txc_strmap_put(idx, it->k[i].ptr, it->k[i].len, NULL)->num = i;
	bool added;
	struct txc_strmap_entry *e = txc_strmap_put(idx, k.ptr, k.len, &added);
	if (!added)
		return (long)e->num;
	e->num = it->n;
	return -1;
}

static int parse_object(struct parser *ps, struct txc_json *v)
{
	struct items it;
	it.v = NULL; /* (the inline arrays need no zeroing) */
	it.k = NULL;
	it.n = it.cap = 0;
	struct txc_strmap idx = TXC_STRMAP_INIT; /* key -> position, for large objects */
	int rc = -1;
	v->kind = TXC_JSON_OBJECT;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		finish(ps, v, &it, true);
		return 0;
	}
	for (;;) {
		struct txc_str key;
		const struct txc_json *val;
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"' || parse_string(ps, &key))
			goto out;
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':')
			goto out;
		ps->p++;
		skip_ws(ps);
		if (parse_value(ps, &val))
			goto out;
		long at = find_key(&it, &idx, key);
		if (at >= 0)
			it.v[at] = val;
		else
			items_push(&it, key, val, true);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			rc = 0;
			break;
		}
		goto out;
	}
out:
	txc_strmap_free(&idx);
	finish(ps, v, &it, true);
	return rc;
}

static int parse_array(struct parser *ps, struct txc_json *v)
{
	struct items it;
	it.v = NULL; /* (the inline arrays need no zeroing) */
	it.k = NULL;
	it.n = it.cap = 0;
	int rc = -1;
	v->kind = TXC_JSON_ARRAY;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		finish(ps, v, &it, false);
		return 0;
	}
	for (;;) {
		const struct txc_json *val;
		skip_ws(ps);
		if (parse_value(ps, &val))
			break;
		items_push(&it, TXC_STR_NULL, val, false);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			rc = 0;
		}
		break;
	}
	finish(ps, v, &it, false);
	return rc;
}

static const struct txc_json json_false = {.kind = TXC_JSON_FALSE};
static const struct txc_json json_true = {.kind = TXC_JSON_TRUE};

static int parse_value(struct parser *ps, const struct txc_json **out)
{
	if (ps->p >= ps->end)
		return -1;
	unsigned c = *ps->p;
	if (c == 'n' && lit(ps, "null")) {
		*out = &txc_json_null_value;
		return 0;
	}
	if (c == 't' && lit(ps, "true")) {
		*out = &json_true;
		return 0;
	}
	if (c == 'f' && lit(ps, "false")) {
		*out = &json_false;
		return 0;
	}
	struct txc_json *v = txc_arena_alloc(ps->a, sizeof(*v));
	*out = v;
	if (c == 'N' && lit(ps, "NaN")) {
		v->kind = TXC_JSON_REAL;
		v->d = NAN;
		return 0;
	}
	if (c == 'I' && lit(ps, "Infinity")) {
		v->kind = TXC_JSON_REAL;
		v->d = INFINITY;
		return 0;
	}
	if (c == '-' && lit(ps, "-Infinity")) {
		v->kind = TXC_JSON_REAL;
		v->d = -INFINITY;
		return 0;
	}
	if (c == '"') {
		v->kind = TXC_JSON_STRING;
		return parse_string(ps, &v->s);
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return parse_number(ps, v);
	if (c != '{' && c != '[')
		return -1;
	if (++ps->depth > TXC_JSON_MAX_DEPTH)
		return -1;
	int rc = c == '{' ? parse_object(ps, v) : parse_array(ps, v);
	ps->depth--;
	return rc;
}

int txc_json_parse(struct txc_arena *a, const char *p, size_t len, const struct txc_json **out)
{
	struct parser ps = {a, (const unsigned char *)p, (const unsigned char *)p + len, 0, TXC_BUF_INIT};
	skip_ws(&ps);
	int rc = parse_value(&ps, out);
	if (rc == 0) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			rc = -1;
	}
	txc_buf_release(&ps.tmp);
	return rc;
}

const struct txc_json *txc_json_get(const struct txc_json *o, const char *key)
{
	if (o == NULL || o->kind != TXC_JSON_OBJECT)
		return NULL;
	size_t n = strlen(key);
	for (size_t i = 0; i < o->n; i++)
		if (o->keys[i].len == n && memcmp(o->keys[i].ptr, key, n) == 0)
			return o->items[i];
	return NULL;
}

const char *txc_json_cstr(const struct txc_json *v)
{
	return v != NULL && v->kind == TXC_JSON_STRING ? v->s.ptr : NULL;
}

bool txc_json_is_int(const struct txc_json *v, int64_t *out)
{
	if (v == NULL || v->kind != TXC_JSON_INT || v->s.len > 19)
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(v->s.ptr, &end, 10);
	if (*end != '\0' || errno == ERANGE) /* past int64: not clamped to its limit */
		return false;
	if (out != NULL)
		*out = x;
	return true;
}

bool txc_json_truthy(const struct txc_json *v)
{
	if (v == NULL)
		return false;
	switch (v->kind) {
	case TXC_JSON_NULL:
	case TXC_JSON_FALSE: return false;
	case TXC_JSON_TRUE: return true;
	case TXC_JSON_INT: return !(v->s.len == 1 && v->s.ptr[0] == '0');
	case TXC_JSON_REAL: return v->d != 0;
	case TXC_JSON_STRING:
	case TXC_JSON_BLOB: return v->s.len > 0;
	case TXC_JSON_ARRAY:
	case TXC_JSON_OBJECT: return v->n > 0;
	}
	return false;
}

/* An integer of at most 15 digits (and a sign) is exact as a double: the value strtod() gives, without its cost. */
static bool int_digits(struct txc_str s, double *out)
{
	size_t i = s.len > 0 && s.ptr[0] == '-';
	if (s.len == i || s.len - i > 15)
		return false;
	int64_t x = 0;
	for (size_t k = i; k < s.len; k++) {
		if (s.ptr[k] < '0' || s.ptr[k] > '9')
			return false;
		x = x * 10 + (s.ptr[k] - '0');
	}
	*out = i ? -(double)x : (double)x;
	return true;
}

bool txc_json_number(const struct txc_json *v, double *out)
{
	if (v != NULL && v->kind == TXC_JSON_REAL) {
		*out = v->d;
		return true;
	}
	if (v != NULL && v->kind == TXC_JSON_INT) {
		*out = int_digits(v->s, out) ? *out : strtod(v->s.ptr, NULL);
		return true;
	}
	return false;
}

struct txc_json *txc_json_new(struct txc_arena *a, enum txc_json_kind kind)
{
	struct txc_json *v = txc_arena_alloc(a, sizeof(*v));
	v->kind = kind;
	return v;
}

struct txc_json *txc_json_string(struct txc_arena *a, const char *p, size_t len)
{
	struct txc_json *v = txc_json_new(a, TXC_JSON_STRING);
	v->s = txc_arena_str(a, p, len);
	return v;
}

struct txc_json *txc_json_int(struct txc_arena *a, int64_t x)
{
	char t[24], *p = t + sizeof(t);
	uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (x < 0)
		*--p = '-';
	struct txc_json *v = txc_json_new(a, TXC_JSON_INT);
	v->s = txc_arena_str(a, p, (size_t)(t + sizeof(t) - p));
	return v;
}

struct txc_json *txc_json_real(struct txc_arena *a, double d)
{
	struct txc_json *v = txc_json_new(a, TXC_JSON_REAL);
	v->d = d;
	return v;
}

struct txc_json *txc_json_object(struct txc_arena *a, size_t cap)
{
	struct txc_json *v = txc_json_new(a, TXC_JSON_OBJECT);
	v->items = txc_arena_array(a, cap ? cap : 1, sizeof(*v->items));
	v->keys = txc_arena_array(a, cap ? cap : 1, sizeof(*v->keys));
	return v;
}

struct txc_json *txc_json_array(struct txc_arena *a, size_t cap)
{
	struct txc_json *v = txc_json_new(a, TXC_JSON_ARRAY);
	v->items = txc_arena_array(a, cap ? cap : 1, sizeof(*v->items));
	return v;
}

void txc_json_put(struct txc_json *o, struct txc_str key, const struct txc_json *v)
{
	o->keys[o->n] = key;
	o->items[o->n++] = v;
}

const struct txc_json *txc_json_copy(struct txc_arena *a, const struct txc_json *v)
{
	if (v == &txc_json_null_value)
		return v;
	struct txc_json *c = txc_json_new(a, v->kind);
	c->d = v->d;
	c->n = v->n;
	if (v->s.ptr != NULL)
		c->s = txc_arena_str(a, v->s.ptr, v->s.len);
	if (v->kind == TXC_JSON_ARRAY || v->kind == TXC_JSON_OBJECT) {
		const struct txc_json **items = txc_arena_array(a, v->n ? v->n : 1, sizeof(*items));
		for (size_t i = 0; i < v->n; i++)
			items[i] = txc_json_copy(a, v->items[i]);
		c->items = items;
		if (v->kind == TXC_JSON_OBJECT) {
			c->keys = txc_arena_array(a, v->n ? v->n : 1, sizeof(*c->keys));
			for (size_t i = 0; i < v->n; i++)
				c->keys[i] = txc_arena_str(a, v->keys[i].ptr, v->keys[i].len);
		}
	}
	return c;
}

void txc_json_push(struct txc_json *arr, const struct txc_json *v)
{
	arr->items[arr->n++] = v;
}

/* ---- emitter ---- */

void txc_json_emit_str(struct txc_buf *b, const char *s, size_t len)
{
	static const char hx[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	txc_buf_grow(b, len + 2);
	txc_buf_addch(b, '"');
	size_t run = 0, i = 0;
	while (i < len) {
		i = plain_end(p, i, len);
		if (i >= len)
			break;
		unsigned c = p[i];
		if (c >= 0x80) {
			uint32_t cp;
			size_t n = txc_utf8_seq(p + i, len - i, &cp);
			if (n) {
				i += n;
				continue;
			}
			txc_buf_add(b, s + run, i - run);
			txc_buf_add(b, "\xEF\xBF\xBD", 3);
			i++;
			while (i < len && (p[i] & 0xC0) == 0x80)
				i++;
			run = i;
			continue;
		}
		txc_buf_add(b, s + run, i - run);
		char e[7] = {'\\', 0};
		switch (c) {
		case '"': txc_buf_add(b, "\\\"", 2); break;
		case '\\': txc_buf_add(b, "\\\\", 2); break;
		case '\b': txc_buf_add(b, "\\b", 2); break;
		case '\f': txc_buf_add(b, "\\f", 2); break;
		case '\n': txc_buf_add(b, "\\n", 2); break;
		case '\r': txc_buf_add(b, "\\r", 2); break;
		case '\t': txc_buf_add(b, "\\t", 2); break;
		default: e[1] = 'u', e[2] = '0', e[3] = '0', e[4] = hx[c >> 4], e[5] = hx[c & 15]; txc_buf_add(b, e, 6);
		}
		i++;
		run = i;
	}
	txc_buf_add(b, s + run, len - run);
	txc_buf_addch(b, '"');
}

void txc_json_emit_real(struct txc_buf *b, double d)
{
	char t[40];
	if (isnan(d)) {
		txc_buf_add(b, "null", 4); /* NaN is not JSON; SQLite cannot store it either */
		return;
	}
	if (isinf(d)) {
		/* valid JSON that Python and JavaScript read back as +-inf */
		txc_buf_addstr(b, d > 0 ? "1e999" : "-1e999");
		return;
	}
	txc_buf_add(b, t, txc_double_repr(t, d));
}

static void newline(struct txc_buf *b, int level)
{
	txc_buf_addch(b, '\n');
	for (int i = 0; i < level; i++)
		txc_buf_add(b, "  ", 2);
}

static int cmp_keys(const void *x, const void *y, void *ctx)
{
	const struct txc_json *o = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	struct txc_str a = o->keys[i], c = o->keys[j];
	size_t n = a.len < c.len ? a.len : c.len;
	int r = memcmp(a.ptr, c.ptr, n);
	if (r)
		return r;
	return a.len < c.len ? -1 : a.len > c.len;
}

/* qsort_r is a GNU extension; a small insertion/merge sort keeps this portable */
static void sort_idx(size_t *idx, size_t n, const struct txc_json *o)
{
	if (n < 2)
		return;
	size_t *tmp = txc_xmalloc(n * sizeof(*tmp));
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = cmp_keys(&idx[j], &idx[i], (void *)o) < 0 ? idx[j++] : idx[i++];
			while (i < mid)
				tmp[k++] = idx[i++];
			while (j < hi)
				tmp[k++] = idx[j++];
		}
		memcpy(idx, tmp, n * sizeof(*idx));
	}
	free(tmp);
}

static void emit(struct txc_buf *b, const struct txc_json *v, unsigned fl, int level);

/* the separators of a flag set: between items, between a key and its value */
static const char *item_sep(unsigned fl)
{
	if (fl & TXC_JSON_INDENT)
		return ",";
	return (fl & TXC_JSON_PY) ? ", " : ",";
}

static const char *key_sep(unsigned fl)
{
	return (fl & (TXC_JSON_PY | TXC_JSON_INDENT)) ? ": " : ":";
}

static void emit_blob(struct txc_buf *b, const struct txc_json *v, unsigned fl)
{
	char *hex = txc_xmalloc(v->s.len * 2 + 1);
	txc_hex(hex, (const unsigned char *)v->s.ptr, v->s.len);
	txc_buf_addstr(b, "{\"$blob_hex\"");
	txc_buf_addstr(b, key_sep(fl));
	txc_json_emit_str(b, hex, v->s.len * 2);
	txc_buf_addch(b, '}');
	free(hex);
}

/* an array or object: items (with their keys) between open and close, one a line when indenting */
static void emit_container(struct txc_buf *b, const struct txc_json *v, unsigned fl, int level)
{
	bool obj = v->kind == TXC_JSON_OBJECT, ind = fl & TXC_JSON_INDENT;
	if (v->n == 0) {
		txc_buf_add(b, obj ? "{}" : "[]", 2);
		return;
	}
	size_t *idx = NULL;
	if (obj && (fl & TXC_JSON_SORTED)) {
		idx = txc_xmalloc(v->n * sizeof(*idx));
		for (size_t i = 0; i < v->n; i++)
			idx[i] = i;
		sort_idx(idx, v->n, v);
	}
	txc_buf_addch(b, obj ? '{' : '[');
	for (size_t k = 0; k < v->n; k++) {
		size_t i = idx ? idx[k] : k;
		if (k)
			txc_buf_addstr(b, item_sep(fl));
		if (ind)
			newline(b, level + 1);
		if (obj) {
			txc_json_emit_str(b, v->keys[i].ptr, v->keys[i].len);
			txc_buf_addstr(b, key_sep(fl));
		}
		emit(b, v->items[i], fl, level + 1);
	}
	free(idx);
	if (ind)
		newline(b, level);
	txc_buf_addch(b, obj ? '}' : ']');
}

static void emit(struct txc_buf *b, const struct txc_json *v, unsigned fl, int level)
{
	switch (v->kind) {
	case TXC_JSON_NULL: txc_buf_add(b, "null", 4); return;
	case TXC_JSON_FALSE: txc_buf_add(b, "false", 5); return;
	case TXC_JSON_TRUE: txc_buf_add(b, "true", 4); return;
	case TXC_JSON_INT: txc_buf_add(b, v->s.ptr, v->s.len); return;
	case TXC_JSON_REAL:
		/* outside Python mode a parsed number keeps its exact text */
		if (!(fl & TXC_JSON_PY) && v->s.ptr != NULL && isfinite(v->d))
			txc_buf_add(b, v->s.ptr, v->s.len);
		else
			txc_json_emit_real(b, v->d);
		return;
	case TXC_JSON_STRING: txc_json_emit_str(b, v->s.ptr, v->s.len); return;
	case TXC_JSON_BLOB: emit_blob(b, v, fl); return;
	case TXC_JSON_ARRAY:
	case TXC_JSON_OBJECT: emit_container(b, v, fl, level); return;
	}
}

void txc_json_emit(struct txc_buf *b, const struct txc_json *v, unsigned flags)
{
	emit(b, v, flags, 0);
}
