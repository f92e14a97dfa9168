/*
 * fuzz_redact.c - libFuzzer target: any bytes -> the redactor (redact.h).
 *
 * Properties, each an abort when broken: valid UTF-8 in gives valid UTF-8 out;
 * a JSON text stays JSON with the same structure (kinds, keys, order, numbers
 * by their text; only strings may change), whether it is redacted as a string
 * holding JSON text or as a parsed tree; a value under a key (the input split at
 * its first NUL into key and value) keeps its object JSON; a second pass over the
 * output finds nothing and changes nothing (R(R(x)) == R(x): markers are never secrets).
 *
 * Every 0x01 byte of the input is dropped first, so that the seeds (tests/fuzz/redact/)
 * can hold secrets written in two pieces that no secret scanner flags.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "txc/redact.h"

static bool has_marker(struct txc_str s)
{
	for (size_t i = 0; i + 10 <= s.len; i++)
		if (memcmp(s.ptr + i, "[REDACTED:", 10) == 0)
			return true;
	return false;
}

static void same_shape(const struct txc_json *a, const struct txc_json *b)
{
	if (a->kind != b->kind || a->n != b->n)
		abort();
	switch (a->kind) {
	case TXC_JSON_INT:
	case TXC_JSON_REAL:
		if (a->s.len != b->s.len || (a->s.len && memcmp(a->s.ptr, b->s.ptr, a->s.len) != 0))
			abort();
		break;
	case TXC_JSON_OBJECT:
		for (size_t i = 0; i < a->n; i++) /* a key changes only to show a marker */
			if ((a->keys[i].len != b->keys[i].len ||
			     memcmp(a->keys[i].ptr, b->keys[i].ptr, a->keys[i].len) != 0) &&
			    !has_marker(b->keys[i]))
				abort();
		/* fall through */
	case TXC_JSON_ARRAY:
		for (size_t i = 0; i < a->n; i++)
			same_shape(a->items[i], b->items[i]);
		break;
	default: break;
	}
}

static void check_text(struct txc_arena *a, struct txc_str in)
{
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_buf out = TXC_BUF_INIT;
	txc_redact_text(r, in.ptr, in.len, &out);
	bool utf8 = txc_utf8_valid(in.ptr, in.len);
	if (utf8 && !txc_utf8_valid(out.buf, out.len))
		abort();
	struct txc_str s = txc_redact_str(r, a, in);
	if (utf8 && !txc_utf8_valid(s.ptr, s.len))
		abort();
	/* idempotent: a second pass (a redactor of its own) finds nothing and changes nothing */
	struct txc_redactor *r2 = txc_redactor_new(false);
	struct txc_str again = txc_redact_str(r2, a, s);
	if (again.ptr != s.ptr || txc_redact_count(r2) != 0)
		abort();
	txc_redactor_free(r2);
	const struct txc_json *v, *w;
	if (txc_json_parse(a, in.ptr, in.len, &v) == 0) {
		/* a JSON text in a string: same structure after */
		if (txc_json_parse(a, s.ptr, s.len, &w) != 0)
			abort();
		same_shape(v, w);
		/* a tree: same structure, and its emission parses */
		const struct txc_json *t = txc_redact_json(r, a, v);
		same_shape(v, t);
		struct txc_buf e = TXC_BUF_INIT;
		txc_json_emit(&e, t, TXC_JSON_PY);
		if (txc_json_parse(a, e.buf, e.len, &w) != 0 || !txc_utf8_valid(e.buf, e.len))
			abort();
		txc_buf_release(&e);
	}
	/* a scan changes nothing and counts what a redaction finds */
	struct txc_redactor *scan = txc_redactor_new(true);
	struct txc_str sc = txc_redact_str(scan, a, in);
	if (sc.ptr != in.ptr)
		abort();
	txc_redactor_free(scan);
	txc_buf_release(&out);
	txc_redactor_free(r);
}

/* key NUL value: {key: value} as a tree keeps its one key and stays JSON */
static void check_keyed(struct txc_arena *a, struct txc_str in)
{
	const char *nul = memchr(in.ptr, '\0', in.len);
	if (nul == NULL)
		return;
	struct txc_str key = {in.ptr, (size_t)(nul - in.ptr)}, val = {nul + 1, in.len - key.len - 1};
	struct txc_json *o = txc_json_object(a, 1);
	txc_json_put(o, txc_arena_str(a, key.ptr, key.len), txc_json_string(a, val.ptr, val.len));
	struct txc_redactor *r = txc_redactor_new(false);
	const struct txc_json *t = txc_redact_json(r, a, o);
	if (t->kind != TXC_JSON_OBJECT || t->n != 1 || t->items[0]->kind != TXC_JSON_STRING)
		abort();
	if (txc_utf8_valid(val.ptr, val.len) && !txc_utf8_valid(t->items[0]->s.ptr, t->items[0]->s.len))
		abort();
	txc_redactor_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *p = malloc(size + 1);
	size_t n = 0;
	for (size_t i = 0; i < size; i++)
		if (data[i] != 0x01)
			p[n++] = (char)data[i];
	p[n] = '\0';
	struct txc_arena *a = txc_arena_new(0);
	struct txc_str in = {p, n};
	check_text(a, in);
	check_keyed(a, in);
	txc_arena_free(a);
	free(p);
	return 0;
}
