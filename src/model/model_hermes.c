/*
 * model_hermes.c - the Hermes mapping: session row and message rows -> model.
 *
 * The rules are txcript's (docs/FORMATS.md, "Hermes -> model"): roles user,
 * assistant and tool become turns, anything else stays in the native rows;
 * tool names are normalised to Claude's; tool results carry is_error.  The
 * generic model (transcript, tool kinds, stop names, ids) is model.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "txc/model_hermes.h"
#include "txc/search.h"

/* Python/Rust Unicode whitespace: is the text empty once trimmed? */
static bool is_blank(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(p + i, len - i, &cp);
		if (n == 0)
			return false;
		bool ws = (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
			  (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
			  cp == 0x205F || cp == 0x3000;
		if (!ws)
			return false;
		i += n;
	}
	return true;
}

static struct txc_str nonempty(const struct txc_json *v)
{
	if (v != NULL && v->kind == TXC_JSON_STRING && v->s.len > 0)
		return v->s;
	return TXC_STR_NULL;
}

/* a finite number: what a time, a cost or a flag can be */
static bool number_of(const struct txc_json *v, double *out)
{
	return txc_json_number(v, out) && isfinite(*out);
}

static int64_t int_of(const struct txc_json *v)
{
	int64_t x = 0;
	double d;
	if (txc_json_is_int(v, &x))
		return x;
	if (v != NULL && v->kind == TXC_JSON_REAL && number_of(v, &d) && fabs(d) < 9e18)
		return (int64_t)d;
	return 0;
}

static struct txc_str compact(struct txc_arena *a, const struct txc_json *v)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_json_emit(&b, v, 0);
	struct txc_str s = txc_arena_str(a, b.buf, b.len);
	txc_buf_release(&b);
	return s;
}

static bool is_uint(const struct txc_json *v)
{
	return v != NULL && v->kind == TXC_JSON_INT && v->s.ptr[0] != '-' && v->s.len <= 20;
}

static bool is_str(const struct txc_json *v)
{
	return v != NULL && v->kind == TXC_JSON_STRING;
}

/* ---- tools ---- */

static struct txc_json *copy_object(struct txc_arena *a, const struct txc_json *in, size_t extra)
{
	struct txc_json *o = txc_json_object(a, in->n + extra);
	for (size_t i = 0; i < in->n; i++)
		txc_json_put(o, in->keys[i], in->items[i]);
	return o;
}

static void rename_key(struct txc_json *o, const char *from, const char *to)
{
	for (size_t i = 0; i < o->n; i++)
		if (txc_str_eq(o->keys[i], from)) {
			o->keys[i] = txc_str_c(to);
			return;
		}
}

static void remove_key(struct txc_json *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (txc_str_eq(o->keys[i], key)) {
			memmove(&o->keys[i], &o->keys[i + 1], (o->n - i - 1) * sizeof(*o->keys));
			memmove(&o->items[i], &o->items[i + 1], (o->n - i - 1) * sizeof(*o->items));
			o->n--;
			return;
		}
}

static void txc_model_tool_from_hermes(struct txc_arena *a, struct txc_block *b, const char *name, size_t len,
				       const struct txc_json *input)
{
	struct txc_str src = txc_arena_str(a, name, len);
	const char *canon = src.ptr;
	b->kind = TXC_BLOCK_TOOL_USE;
	b->source_name = src;
	if (input->kind == TXC_JSON_OBJECT) {
		struct txc_json *o = NULL;
		if (strcmp(src.ptr, "read_file") == 0 || strcmp(src.ptr, "write_file") == 0) {
			o = copy_object(a, input, 0);
			rename_key(o, "path", "file_path");
			canon = src.ptr[0] == 'r' ? "Read" : "Write";
		} else if (strcmp(src.ptr, "patch") == 0 &&
			   txc_str_eq(nonempty(txc_json_get(input, "mode")), "replace")) {
			o = copy_object(a, input, 0);
			remove_key(o, "mode");
			rename_key(o, "path", "file_path");
			canon = "Edit";
		} else if (strcmp(src.ptr, "terminal") == 0) {
			o = copy_object(a, input, 0);
			rename_key(o, "background", "run_in_background");
			const struct txc_json *t = txc_json_get(o, "timeout");
			int64_t secs;
			if (is_uint(t) && txc_json_is_int(t, &secs) && secs <= INT64_MAX / 1000) {
				for (size_t i = 0; i < o->n; i++)
					if (txc_str_eq(o->keys[i], "timeout")) {
						o->keys[i] = txc_str_c("timeout_ms");
						o->items[i] = txc_json_int(a, secs * 1000);
					}
			}
			canon = "Bash";
		}
		if (o != NULL)
			input = o;
	}
	txc_model_tool_set(a, b, canon == src.ptr ? src : txc_str_c(canon), input);
}

/* ---- errors ---- */

static bool txc_model_result_is_error(const struct txc_json *out, bool denied)
{
	if (denied)
		return true;
	if (out == NULL || out->kind != TXC_JSON_OBJECT)
		return false;
	const struct txc_json *v = txc_json_get(out, "success");
	if (v != NULL && v->kind == TXC_JSON_FALSE)
		return true;
	v = txc_json_get(out, "exit_code");
	if (v != NULL && v->kind == TXC_JSON_INT && !(v->s.len == 1 && v->s.ptr[0] == '0'))
		return true;
	v = txc_json_get(out, "error");
	return v != NULL && v->kind != TXC_JSON_NULL;
}

/* ---- rows -> messages ---- */

struct blocks {
	struct txc_block *v;
	size_t n, cap;
};

/* Blocks collect in a reused heap vector; the message gets an exact-size arena copy. */
static struct txc_block *add_block(struct txc_arena *a, struct blocks *bs, enum txc_block_kind kind)
{
	(void)a;
	if (bs->n == bs->cap) {
		bs->cap = bs->cap ? bs->cap * 2 : 8;
		bs->v = txc_xrealloc(bs->v, bs->cap * sizeof(*bs->v));
	}
	struct txc_block *b = &bs->v[bs->n++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	return b;
}

static bool data_url(const char *url, struct txc_str *media, struct txc_str *data)
{
	if (strncmp(url, "data:", 5) != 0)
		return false;
	const char *m = strstr(url + 5, ";base64,");
	if (m == NULL)
		return false;
	media->ptr = url + 5;
	media->len = (size_t)(m - url - 5);
	data->ptr = m + 8;
	data->len = strlen(m + 8);
	return true;
}

static void add_part(struct txc_arena *a, struct blocks *bs, const struct txc_json *part)
{
	const char *type = txc_json_cstr(txc_json_get(part, "type"));
	const struct txc_json *t = txc_json_get(part, "text");
	if (type != NULL && strcmp(type, "text") == 0 && is_str(t)) {
		add_block(a, bs, TXC_BLOCK_TEXT)->text = t->s;
		return;
	} /* a text part whose text is no string: kept below, as its JSON */
	if (type != NULL && strcmp(type, "image_url") == 0) {
		const char *url = txc_json_cstr(txc_json_get(txc_json_get(part, "image_url"), "url"));
		struct txc_str media, data;
		if (url != NULL && data_url(url, &media, &data)) {
			struct txc_block *b = add_block(a, bs, TXC_BLOCK_IMAGE);
			b->media_type = txc_arena_str(a, media.ptr, media.len);
			b->data = data;
			return;
		}
	}
	struct txc_block *b = add_block(a, bs, TXC_BLOCK_TEXT);
	b->text = is_str(part) ? part->s : compact(a, part);
}

static void add_content(struct txc_arena *a, struct blocks *bs, const struct txc_json *c)
{
	if (c == NULL || c->kind == TXC_JSON_NULL)
		return;
	if (c->kind == TXC_JSON_STRING) {
		if (!is_blank(c->s.ptr, c->s.len))
			add_block(a, bs, TXC_BLOCK_TEXT)->text = c->s;
		return;
	}
	if (c->kind == TXC_JSON_ARRAY) {
		for (size_t i = 0; i < c->n; i++)
			add_part(a, bs, c->items[i]);
		return;
	}
	add_part(a, bs, c);
}

/* ---- where the reply is (docs/FORMATS.md, "Replies outside content") ---- */

/* a reply's content: a string that is not blank, a list with parts, any other value */
static bool filled(const struct txc_json *v)
{
	if (v == NULL || v->kind == TXC_JSON_NULL)
		return false;
	if (v->kind == TXC_JSON_STRING)
		return !is_blank(v->s.ptr, v->s.len);
	return v->kind != TXC_JSON_ARRAY || v->n > 0;
}

/* The text without the ASCII white space around it. */
static struct txc_str trimmed(struct txc_str s)
{
	while (s.len && (s.ptr[0] == ' ' || s.ptr[0] == '\t' || s.ptr[0] == '\n' || s.ptr[0] == '\r')) {
		s.ptr++;
		s.len--;
	}
	while (s.len && (s.ptr[s.len - 1] == ' ' || s.ptr[s.len - 1] == '\t' || s.ptr[s.len - 1] == '\n' ||
			 s.ptr[s.len - 1] == '\r'))
		s.len--;
	return s;
}

static bool same_text(struct txc_str a, struct txc_str b)
{
	a = trimmed(a);
	b = trimmed(b);
	return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* One Responses output item's content parts into b, a paragraph after what b holds: output_text
 * parts run on (as the Responses API's output_text joins them), a refusal is a paragraph. */
static void item_parts(struct txc_buf *b, const struct txc_json *item)
{
	const struct txc_json *parts = txc_json_get(item, "content");
	bool glue = false; /* the next output_text continues the one before it */
	for (size_t i = 0; parts != NULL && parts->kind == TXC_JSON_ARRAY && i < parts->n; i++) {
		const char *type = txc_json_cstr(txc_json_get(parts->items[i], "type"));
		const struct txc_json *t = txc_json_get(parts->items[i], "text");
		const struct txc_json *r = txc_json_get(parts->items[i], "refusal");
		if (type != NULL && strcmp(type, "output_text") == 0 && is_str(t)) {
			if (b->len && !glue)
				txc_buf_addstr(b, "\n\n");
			txc_buf_add(b, t->s.ptr, t->s.len);
			glue = true;
		} else if (type != NULL && strcmp(type, "refusal") == 0 && is_str(r)) {
			if (b->len)
				txc_buf_addstr(b, "\n\n");
			txc_buf_addstr(b, "[refusal] ");
			txc_buf_add(b, r->s.ptr, r->s.len);
			glue = false;
		}
	}
}

struct txc_str txc_hermes_items_text(struct txc_arena *a, const struct txc_json *v)
{
	/* a JSON text (Hermes stores the list as one), at most once more if that held a string */
	for (int k = 0; k < 2 && v != NULL && v->kind == TXC_JSON_STRING; k++)
		if (txc_json_parse(a, v->s.ptr, v->s.len, &v) != 0)
			return TXC_STR_NULL;
	if (v == NULL || (v->kind != TXC_JSON_ARRAY && v->kind != TXC_JSON_OBJECT))
		return TXC_STR_NULL;
	struct txc_buf b = TXC_BUF_INIT;
	if (v->kind == TXC_JSON_OBJECT) /* one item alone */
		item_parts(&b, v);
	for (size_t i = 0; v->kind == TXC_JSON_ARRAY && i < v->n; i++) /* items apart: each starts a paragraph */
		item_parts(&b, v->items[i]);
	struct txc_str out = is_blank(b.buf, b.len) ? TXC_STR_NULL : txc_arena_str(a, b.buf, b.len);
	txc_buf_release(&b);
	return out;
}

/* one list part as add_part shows it (images: nothing) */
static void part_text(struct txc_buf *b, const struct txc_json *part)
{
	const char *type = txc_json_cstr(txc_json_get(part, "type"));
	const struct txc_json *t = txc_json_get(part, "text");
	if (is_str(part))
		txc_buf_add(b, part->s.ptr, part->s.len);
	else if (type != NULL && strcmp(type, "text") == 0 && is_str(t))
		txc_buf_add(b, t->s.ptr, t->s.len);
	else if (type == NULL || strcmp(type, "image_url") != 0)
		txc_json_emit(b, part, 0);
}

struct txc_str txc_hermes_content_text(struct txc_arena *a, const struct txc_json *v)
{
	if (v == NULL || v->kind == TXC_JSON_NULL)
		return TXC_STR_NULL;
	if (v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_BLOB)
		return v->s;
	struct txc_buf b = TXC_BUF_INIT;
	if (v->kind == TXC_JSON_ARRAY) {
		for (size_t i = 0; i < v->n; i++) {
			size_t mark = b.len;
			if (b.len)
				txc_buf_addch(&b, '\n');
			size_t at = b.len;
			part_text(&b, v->items[i]);
			if (b.len == at)
				txc_buf_truncate(&b, mark);
		}
	} else {
		txc_json_emit(&b, v, 0);
	}
	struct txc_str out = txc_arena_str(a, b.buf ? b.buf : "", b.len);
	txc_buf_release(&b);
	return out;
}

void txc_hermes_reply_of(struct txc_arena *a, const struct txc_json *row, struct txc_hermes_reply *out)
{
	memset(out, 0, sizeof(*out));
	const struct txc_json *c = txc_json_get(row, "content"), *api = txc_json_get(row, "api_content");
	const char *role = txc_json_cstr(txc_json_get(row, "role"));
	bool user = role != NULL && strcmp(role, "user") == 0,
	     assistant = role != NULL && strcmp(role, "assistant") == 0;
	bool has_api = (user || assistant) && is_str(api) && !is_blank(api->s.ptr, api->s.len);
	if (filled(c) || !(user || assistant)) {
		out->content = c;
		if (has_api && !same_text(txc_hermes_content_text(a, c), api->s))
			out->replayed = api->s;
	} else if (has_api) {
		out->text = api->s;
	} else if (assistant) {
		out->text = txc_hermes_items_text(a, txc_json_get(row, "codex_message_items"));
	}
}

void txc_hermes_search_text(struct txc_arena *a, const struct txc_json *row, struct txc_str out[2])
{
	struct txc_hermes_reply r;
	txc_hermes_reply_of(a, row, &r);
	out[0] = r.content != NULL ? txc_hermes_content_text(a, r.content) : r.text;
	out[1] = r.replayed;
}

/* The row's reply as blocks: content as it is, else the text found elsewhere; then what was replayed. */
static void add_reply(struct txc_arena *a, struct blocks *bs, const struct txc_json *row)
{
	struct txc_hermes_reply r;
	txc_hermes_reply_of(a, row, &r);
	if (r.content != NULL)
		add_content(a, bs, r.content);
	else if (r.text.ptr != NULL)
		add_block(a, bs, TXC_BLOCK_TEXT)->text = r.text;
	if (r.replayed.ptr != NULL) {
		struct txc_block *b = add_block(a, bs, TXC_BLOCK_TEXT);
		b->text = r.replayed;
		b->replayed = true;
	}
}

static const struct txc_json *arguments_of(struct txc_arena *a, const struct txc_json *fn)
{
	const struct txc_json *args = txc_json_get(fn, "arguments");
	if (args == NULL)
		return txc_json_object(a, 0);
	if (args->kind == TXC_JSON_STRING) {
		const struct txc_json *v;
		if (txc_json_parse(a, args->s.ptr, args->s.len, &v) == 0)
			return v;
		return args; /* not JSON: keep the string itself, losslessly */
	}
	return args;
}

static void add_tool_calls(struct txc_arena *a, struct blocks *bs, const struct txc_json *tc)
{
	if (tc != NULL && tc->kind == TXC_JSON_STRING) {
		const struct txc_json *v;
		tc = txc_json_parse(a, tc->s.ptr, tc->s.len, &v) == 0 ? v : NULL;
	}
	if (tc == NULL || tc->kind != TXC_JSON_ARRAY)
		return;
	if (tc->n == 0 && tc->s.len > 0) {
		/* the reader's mark for a value that is not JSON (Hermes reads it as []): keep the text */
		struct txc_buf t = TXC_BUF_INIT;
		txc_buf_addstr(&t, "[tool calls stored as text that is not JSON]\n");
		txc_utf8_repair(&t, tc->s.ptr, tc->s.len);
		add_block(a, bs, TXC_BLOCK_TEXT)->text = txc_arena_str(a, t.buf, t.len);
		txc_buf_release(&t);
		return;
	}
	for (size_t i = 0; i < tc->n; i++) {
		const struct txc_json *call = tc->items[i];
		const struct txc_json *fn = txc_json_get(call, "function");
		const struct txc_json *name = txc_json_get(fn, "name");
		if (!is_str(name)) {
			/* a call without a name cannot be a tool_use: keep it as text */
			struct txc_buf t = TXC_BUF_INIT;
			txc_buf_addstr(&t, "[tool call without a name] ");
			txc_json_emit(&t, call, 0);
			add_block(a, bs, TXC_BLOCK_TEXT)->text = txc_arena_str(a, t.buf, t.len);
			txc_buf_release(&t);
			continue;
		}
		struct txc_block *b = add_block(a, bs, TXC_BLOCK_TOOL_USE);
		const struct txc_json *id = txc_json_get(call, "id");
		if (!is_str(id))
			id = txc_json_get(call, "call_id");
		b->id = is_str(id) ? id->s : txc_str_c("");
		txc_model_tool_from_hermes(a, b, name->s.ptr, name->s.len, arguments_of(a, fn));
	}
}

static struct txc_str reasoning_text(struct txc_arena *a, const struct txc_json *row, bool *found)
{
	static const char *keys[] = {"reasoning_content", "reasoning"};
	for (int i = 0; i < 2; i++) {
		const struct txc_json *v = txc_json_get(row, keys[i]);
		if (v == NULL || v->kind == TXC_JSON_NULL || (v->kind == TXC_JSON_STRING && v->s.len == 0))
			continue;
		struct txc_str s = is_str(v) ? v->s : compact(a, v);
		*found = !is_blank(s.ptr, s.len);
		return s;
	}
	*found = false;
	return TXC_STR_NULL;
}

static struct txc_str encrypted_of(struct txc_arena *a, const struct txc_json *row, bool *found)
{
	static const char *keys[] = {"codex_reasoning_items", "reasoning_details"};
	for (int i = 0; i < 2; i++) {
		const struct txc_json *v = txc_json_get(row, keys[i]);
		if (v == NULL || v->kind == TXC_JSON_NULL)
			continue;
		*found = true;
		return is_str(v) ? v->s : compact(a, v);
	}
	*found = false;
	return TXC_STR_NULL;
}

struct messages {
	struct txc_message *v;
	size_t n, cap;
};

/* A JSON result is kept as its text (output_json): a tree is made only when a writer asks. */
static void tool_row(struct txc_arena *a, struct txc_arena *tmp, struct blocks *bs, const struct txc_json *row)
{
	struct txc_block *b = add_block(a, bs, TXC_BLOCK_TOOL_RESULT);
	const struct txc_json *id = txc_json_get(row, "tool_call_id");
	b->id = is_str(id) ? id->s : txc_str_c("");
	b->name = nonempty(txc_json_get(row, "tool_name"));
	b->denied = txc_str_eq(nonempty(txc_json_get(row, "effect_disposition")), "denied");
	const struct txc_json *c = txc_json_get(row, "content"), *parsed = NULL;
	if (c == NULL) {
		b->output_text = txc_str_c("");
	} else if (c->kind == TXC_JSON_STRING) {
		const struct txc_json *v;
		b->output_text = c->s;
		if (txc_json_parse(tmp, c->s.ptr, c->s.len, &v) == 0 &&
		    (v->kind == TXC_JSON_OBJECT || v->kind == TXC_JSON_ARRAY)) {
			b->output_json = true;
			parsed = v;
		}
	} else {
		b->output = parsed = c;
	}
	b->is_error = txc_model_result_is_error(parsed, b->denied);
}

bool txc_hermes_row_active(const struct txc_json *row)
{
	const struct txc_json *v = txc_json_get(row, "active");
	double d;
	if (v == NULL)
		return true;
	return number_of(v, &d) && d == 1;
}

bool txc_hermes_row_numbered(const struct txc_json *row)
{
	const struct txc_json *role = txc_json_get(row, "role"), *c = txc_json_get(row, "compacted");
	int64_t x;
	bool compacted = c != NULL && txc_json_is_int(c, &x) && x == 1;
	return is_str(role) && txc_query_is_message_role(role->s) && (txc_hermes_row_active(row) || compacted);
}

bool txc_hermes_archived(const struct txc_json *v)
{
	double d;
	if (v != NULL && v->kind == TXC_JSON_TRUE)
		return true;
	return txc_json_number(v, &d) && d != 0;
}

struct txc_hermes_native *txc_hermes_native(struct txc_transcript *t)
{
	if (t->native == NULL)
		t->native = txc_arena_alloc(t->arena, sizeof(*t->native));
	return t->native;
}

static void meta_from_session(struct txc_transcript *t)
{
	const struct txc_json *s = txc_hermes_native(t)->session;
	struct txc_meta *m = &t->meta;
	txc_model_id(t->arena, txc_json_get(s, "id"), &m->id_kind, &m->id);
	if (m->id_kind == TXC_ID_NONE) /* the reader names it by its place in the source */
		m->id = txc_arena_str(t->arena, "no-id", 5);
	m->cwd = nonempty(txc_json_get(s, "cwd"));
	m->git_branch = nonempty(txc_json_get(s, "git_branch"));
	m->title = nonempty(txc_json_get(s, "title"));
	m->model = nonempty(txc_json_get(s, "model"));
	m->source = nonempty(txc_json_get(s, "source"));
	m->end_reason = nonempty(txc_json_get(s, "end_reason"));
	m->billing_provider = nonempty(txc_json_get(s, "billing_provider"));
	if (!number_of(txc_json_get(s, "started_at"), &m->started_at))
		m->started_at = 0;
	m->has_ended = number_of(txc_json_get(s, "ended_at"), &m->ended_at);
	m->archived = txc_hermes_archived(txc_json_get(s, "archived"));
	m->message_count = int_of(txc_json_get(s, "message_count"));
	m->tool_call_count = int_of(txc_json_get(s, "tool_call_count"));
	m->input_tokens = int_of(txc_json_get(s, "input_tokens"));
	m->output_tokens = int_of(txc_json_get(s, "output_tokens"));
	m->cache_read_tokens = int_of(txc_json_get(s, "cache_read_tokens"));
	m->cache_write_tokens = int_of(txc_json_get(s, "cache_write_tokens"));
	m->reasoning_tokens = int_of(txc_json_get(s, "reasoning_tokens"));
	m->has_usage =
		m->input_tokens > 0 || m->output_tokens > 0 || m->cache_read_tokens > 0 || m->cache_write_tokens > 0;
	double c;
	if (number_of(txc_json_get(s, "actual_cost_usd"), &c) && c > 0) {
		m->has_cost = m->cost_is_actual = true;
		m->cost_usd = c;
	} else if (number_of(txc_json_get(s, "estimated_cost_usd"), &c)) {
		m->has_cost = true;
		m->cost_usd = c;
	}
}

struct txc_model_builder {
	struct txc_transcript *t;
	struct messages ms; /* heap vector, copied into the arena at the end */
	struct blocks bs;
	double last_time;
	struct txc_arena *tmp; /* throw-away parses (a tool result, to judge is_error) */
};

struct txc_model_builder *txc_model_begin(struct txc_transcript *t)
{
	struct txc_model_builder *b = txc_xcalloc(1, sizeof(*b));
	b->t = t;
	b->tmp = txc_arena_new(0);
	meta_from_session(t);
	b->last_time = t->meta.started_at;
	return b;
}

static struct txc_str own(struct txc_arena *a, struct txc_str s)
{
	return s.ptr != NULL ? txc_arena_str(a, s.ptr, s.len) : s;
}

/* a row built in a scratch arena: copy what the blocks kept into the transcript's arena */
static void relocate(struct txc_arena *a, struct txc_block *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		txc_block_copy(a, &v[i]);
}

/*
 * Signed reasoning (docs/FORMATS.md, "Signed reasoning"): reasoning_details items as Anthropic
 * signed them, kept byte for byte.  Native Anthropic rows hold {"type":"thinking","thinking",
 * "signature"} and {"type":"redacted_thinking","data"}; OpenRouter rows hold
 * {"type":"reasoning.text","text","signature","format":"anthropic-..."} and reasoning.encrypted
 * with an Anthropic format for a redacted block.
 */
static bool anthropic_format(const struct txc_json *item)
{
	const struct txc_json *f = txc_json_get(item, "format");
	return is_str(f) && f->s.len >= 9 && memcmp(f->s.ptr, "anthropic", 9) == 0;
}

/* the item as a thinking block (*signed_ if Anthropic signed or redacted it); false: not reasoning text */
static bool detail_block(const struct txc_json *item, struct txc_block *b, bool *signed_)
{
	const char *type = txc_json_cstr(txc_json_get(item, "type"));
	struct txc_str sig = nonempty(txc_json_get(item, "signature"));
	struct txc_str data = nonempty(txc_json_get(item, "data"));
	bool native = type != NULL && strcmp(type, "thinking") == 0;
	bool router = type != NULL && strcmp(type, "reasoning.text") == 0;
	const struct txc_json *text = txc_json_get(item, native ? "thinking" : "text");
	memset(b, 0, sizeof(*b));
	b->kind = TXC_BLOCK_THINKING;
	if ((native || router) && is_str(text)) {
		b->text = text->s;
		*signed_ = sig.ptr != NULL && (native || anthropic_format(item));
		b->signature = *signed_ ? sig : TXC_STR_NULL;
		return true;
	}
	bool redacted = type != NULL && (strcmp(type, "redacted_thinking") == 0 ||
					 (strcmp(type, "reasoning.encrypted") == 0 && anthropic_format(item)));
	if (redacted && data.ptr != NULL) {
		b->redacted = *signed_ = true;
		b->encrypted = data;
		return true;
	}
	return false;
}

/* The row's signed reasoning as thinking blocks, in the order stored; false (nothing added) when none is signed. */
static bool signed_blocks(struct txc_arena *a, struct blocks *bs, const struct txc_json *row)
{
	const struct txc_json *v = txc_json_get(row, "reasoning_details");
	if (is_str(v) && txc_json_parse(a, v->s.ptr, v->s.len, &v) != 0)
		return false;
	if (v == NULL || v->kind != TXC_JSON_ARRAY)
		return false;
	bool any = false;
	struct txc_block b;
	for (size_t i = 0; i < v->n; i++) {
		bool sig = false;
		any |= detail_block(v->items[i], &b, &sig) && sig;
	}
	for (size_t i = 0; any && i < v->n; i++) {
		bool sig = false;
		if (detail_block(v->items[i], &b, &sig) && (sig || b.text.len > 0))
			*add_block(a, bs, TXC_BLOCK_THINKING) = b;
	}
	return any;
}

/*
 * An assistant row's blocks: its reasoning first (signed blocks when Anthropic signed it, else
 * its text and/or encrypted), then its reply (content, or where else it is), then calls.
 */
static void assistant_blocks(struct txc_arena *a, struct blocks *bs, const struct txc_json *row)
{
	if (signed_blocks(a, bs, row)) {
		add_reply(a, bs, row);
		add_tool_calls(a, bs, txc_json_get(row, "tool_calls"));
		return;
	}
	bool has_text, has_enc;
	struct txc_str text = reasoning_text(a, row, &has_text);
	struct txc_str enc = encrypted_of(a, row, &has_enc);
	if (has_text || has_enc) {
		struct txc_block *b = add_block(a, bs, TXC_BLOCK_THINKING);
		b->text = has_text ? text : txc_str_c("");
		b->encrypted = enc;
	}
	add_reply(a, bs, row);
	add_tool_calls(a, bs, txc_json_get(row, "tool_calls"));
}

/* The row's blocks into mb->bs and its role; false for rows that make no turn. */
static bool row_blocks(struct txc_model_builder *mb, struct txc_arena *a, const struct txc_json *row, enum txc_role *r)
{
	const char *role = txc_json_cstr(txc_json_get(row, "role"));
	if (role == NULL)
		return false;
	if (strcmp(role, "user") == 0) {
		*r = TXC_ROLE_USER;
		add_reply(a, &mb->bs, row);
	} else if (strcmp(role, "assistant") == 0) {
		*r = TXC_ROLE_ASSISTANT;
		assistant_blocks(a, &mb->bs, row);
	} else if (strcmp(role, "tool") == 0) {
		*r = TXC_ROLE_USER;
		tool_row(a, mb->tmp, &mb->bs, row);
		txc_arena_reset(mb->tmp);
	} else {
		return false; /* session_meta, system, unknown: kept in the native rows only */
	}
	return mb->bs.n > 0;
}

/* A new message at the end of the builder's list, zeroed. */
static struct txc_message *next_message(struct txc_model_builder *mb)
{
	if (mb->ms.n == mb->ms.cap) {
		mb->ms.cap = mb->ms.cap ? mb->ms.cap * 2 : 64;
		mb->ms.v = txc_xrealloc(mb->ms.v, mb->ms.cap * sizeof(*mb->ms.v));
	}
	struct txc_message *m = &mb->ms.v[mb->ms.n++];
	memset(m, 0, sizeof(*m));
	return m;
}

/* An assistant message's model and stop reason. */
static void assistant_meta(struct txc_transcript *t, struct txc_message *m, const struct txc_json *row, bool copy)
{
	m->model = t->meta.model;
	struct txc_str fr = nonempty(txc_json_get(row, "finish_reason"));
	if (fr.ptr == NULL)
		return;
	m->stop = txc_model_stop_from_text(fr.ptr, fr.len);
	if (m->stop == TXC_STOP_OTHER)
		m->stop_other = copy ? own(t->arena, fr) : fr;
}

void txc_model_add_row(struct txc_model_builder *mb, const struct txc_json *row, struct txc_arena *row_arena)
{
	struct txc_transcript *t = mb->t;
	/* per-row work happens in the row's own arena when it has one; what is kept is copied */
	struct txc_arena *a = row_arena != NULL ? row_arena : t->arena;
	enum txc_role r;
	mb->bs.n = 0;
	if (txc_hermes_row_active(row))
		t->native->n_active_rows++;
	/* counted before a row is judged empty: a blank row keeps its number, so later ones agree with search;
	 * the count lives in t->native so that a reader that reads only later rows (--follow) can start it */
	int64_t number = txc_hermes_row_numbered(row) ? (int64_t)++t->native->n_numbered : 0;
	if (!row_blocks(mb, a, row, &r))
		return;
	struct txc_message *m = next_message(mb);
	m->role = r;
	m->blocks = txc_arena_array(t->arena, mb->bs.n, sizeof(*mb->bs.v));
	memcpy(m->blocks, mb->bs.v, mb->bs.n * sizeof(*mb->bs.v));
	m->n_blocks = mb->bs.n;
	if (row_arena != NULL)
		relocate(t->arena, m->blocks, m->n_blocks);
	if (!number_of(txc_json_get(row, "timestamp"), &m->time))
		m->time = mb->last_time;
	mb->last_time = m->time;
	m->row_id = int_of(txc_json_get(row, "id"));
	m->compacted = !txc_hermes_row_active(row);
	m->number = number;
	const struct txc_json *cs = txc_json_get(row, "_compressed_summary"); /* true, as Hermes exports it */
	m->compact_summary = cs != NULL && (cs->kind == TXC_JSON_TRUE || (cs->kind == TXC_JSON_INT && int_of(cs) != 0));
	if (r == TXC_ROLE_ASSISTANT)
		assistant_meta(t, m, row, row_arena != NULL);
}

void txc_model_end(struct txc_model_builder *mb)
{
	struct txc_transcript *t = mb->t;
	t->n_messages = mb->ms.n;
	t->messages = txc_arena_array(t->arena, mb->ms.n ? mb->ms.n : 1, sizeof(*t->messages));
	if (mb->ms.n)
		memcpy(t->messages, mb->ms.v, mb->ms.n * sizeof(*t->messages));
	free(mb->ms.v);
	free(mb->bs.v);
	txc_arena_free(mb->tmp);
	free(mb);
}

void txc_model_from_hermes(struct txc_transcript *t)
{
	struct txc_model_builder *mb = txc_model_begin(t);
	const struct txc_json *rows = t->native->rows;
	for (size_t i = 0; rows != NULL && i < rows->n; i++)
		txc_model_add_row(mb, rows->items[i], NULL);
	txc_model_end(mb);
}
