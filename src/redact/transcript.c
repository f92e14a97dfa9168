/* transcript.c - the redactor over the model: strings, JSON trees, transcripts and Hermes rows */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "txc/model_hermes.h"

/* s (not empty) under key through txc_rd_value, as a new string in a when it changed (kept out of
 * line: the quick path of redact_str_key, taken by most strings, pays for none of its frame) */
__attribute__((noinline)) static struct txc_str redact_value(struct txc_redactor *r, struct txc_arena *a,
							     struct txc_str key, struct txc_str s)
{
	struct txc_buf out = TXC_BUF_INIT;
	size_t n = txc_rd_value(r, key, s.ptr, s.len, &out);
	struct txc_str res = s;
	if (n && !r->scan_only)
		res = txc_arena_str(a, out.buf, out.len);
	txc_buf_release(&out);
	return res;
}

/* s under key, as a new string in a when it changed */
static struct txc_str redact_str_key(struct txc_redactor *r, struct txc_arena *a, struct txc_str key, struct txc_str s)
{
	if (s.len == 0)
		return s;
	if (!r->no_prefilter && s.ptr[0] != '{' && s.ptr[0] != '[' && /* JSON text: not plain, json.c's */
	    txc_rd_plain_text((const unsigned char *)s.ptr, s.len) &&
	    (key.ptr == NULL || txc_rd_harmless_key_cached(r, key)))
		return s; /* what txc_rd_value would do, sooner: a plain text under a key naming no secret */
	return redact_value(r, a, key, s);
}

struct txc_str txc_redact_str(struct txc_redactor *r, struct txc_arena *a, struct txc_str s)
{
	return redact_str_key(r, a, TXC_STR_NULL, s);
}

/*
 * An object key with a token in it ({"ghp_...": "ci bot"}): a key is a string a reader shows like
 * any other.  Keys shorter than every token shape are not read (most keys of a row), nor (with the
 * prefilter) one found clean before: session_id, tool_call_id are scanned once a redactor.  Not
 * a key of lower-case letters and '_' as such: hf_, gsk_, npm_ and lin_api_ tokens are made of them.
 */
static struct txc_str redact_key(struct txc_redactor *r, struct txc_arena *a, struct txc_str k)
{
	if (k.len < KEY_MIN || (!r->no_prefilter && txc_rd_clean_key_cached(r, k)))
		return k;
	struct txc_buf out = TXC_BUF_INIT;
	size_t n = txc_rd_scan(r, k.ptr, k.len, &out);
	if (n == 0)
		txc_rd_note_clean_key(r, k);
	struct txc_str res = k;
	if (n && !r->scan_only)
		res = txc_arena_str(a, out.buf, out.len);
	txc_buf_release(&out);
	return res;
}

static const struct txc_json *redact_json_key(struct txc_redactor *r, struct txc_arena *a, struct txc_str key,
					      const struct txc_json *v)
{
	if (v == NULL)
		return v;
	if (v->kind == TXC_JSON_STRING) {
		struct txc_str s = redact_str_key(r, a, key, v->s);
		if (s.ptr == v->s.ptr)
			return v;
		return txc_json_string(a, s.ptr, s.len);
	}
	if (v->kind != TXC_JSON_ARRAY && v->kind != TXC_JSON_OBJECT)
		return v;
	struct txc_json *copy = NULL;
	bool obj = v->kind == TXC_JSON_OBJECT;
	for (size_t i = 0; i < v->n; i++) {
		struct txc_str k = obj ? v->keys[i] : key;
		const struct txc_json *item = redact_json_key(r, a, k, v->items[i]);
		struct txc_str nk = obj ? redact_key(r, a, k) : k; /* the value is judged by the key as it was */
		if (item == v->items[i] && nk.ptr == k.ptr)        /* scan_only: always, nothing is replaced */
			continue;
		if (copy == NULL) { /* copy on the first change: same order, same kind */
			copy = txc_json_new(a, v->kind);
			*copy = *v;
			copy->items = txc_arena_array(a, v->n, sizeof(*copy->items)); /* n > i */
			memcpy(copy->items, v->items, v->n * sizeof(*copy->items));
			if (obj) {
				copy->keys = txc_arena_array(a, v->n, sizeof(*copy->keys));
				memcpy(copy->keys, v->keys, v->n * sizeof(*copy->keys));
			}
		}
		copy->items[i] = item;
		if (obj)
			copy->keys[i] = nk;
	}
	return copy != NULL ? copy : v;
}

const struct txc_json *txc_redact_json(struct txc_redactor *r, struct txc_arena *a, const struct txc_json *v)
{
	return redact_json_key(r, a, TXC_STR_NULL, v);
}

static void redact_block(struct txc_redactor *r, struct txc_arena *a, struct txc_block *b)
{
	switch (b->kind) {
	case TXC_BLOCK_TEXT:
	case TXC_BLOCK_THINKING: b->text = txc_redact_str(r, a, b->text); break; /* signature, encrypted: kept */
	case TXC_BLOCK_TOOL_USE: b->input = txc_redact_json(r, a, b->input); break;
	case TXC_BLOCK_TOOL_RESULT:
		b->output = txc_redact_json(r, a, b->output);
		b->output_text = txc_redact_str(r, a, b->output_text);
		break;
	case TXC_BLOCK_IMAGE: break;
	}
}

void txc_redact_transcript(struct txc_redactor *r, struct txc_transcript *t)
{
	struct txc_arena *a = t->arena;
	struct txc_meta *m = &t->meta;
	struct txc_str *meta[] = {&m->title, &m->cwd, &m->git_branch, &m->model, &m->source, &m->end_reason};
	for (size_t i = 0; i < sizeof(meta) / sizeof(meta[0]); i++)
		*meta[i] = txc_redact_str(r, a, *meta[i]);
	for (size_t i = 0; i < t->n_messages; i++) {
		struct txc_message *msg = &t->messages[i];
		msg->stop_other = txc_redact_str(r, a, msg->stop_other);
		for (size_t j = 0; j < msg->n_blocks; j++)
			redact_block(r, a, &msg->blocks[j]);
	}
	if (t->native != NULL)
		txc_redact_native(r, a, t->native, t->native);
}

void txc_redact_native(struct txc_redactor *r, struct txc_arena *a, struct txc_hermes_native *dst,
		       const struct txc_hermes_native *src)
{
	struct txc_hermes_native n = *src;
	n.session = txc_redact_json(r, a, src->session);
	n.rows = txc_redact_json(r, a, src->rows);
	*dst = n;
}
