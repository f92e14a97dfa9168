/*
 * hermes_rows.c - the generic model back to Hermes rows, for a harness without rows of its own:
 * each message one row (a user's tool results one row each, role "tool" with tool_call_id and
 * tool_name), tool calls as Hermes's OpenAI-style tool_calls under Hermes's tool names and
 * argument keys (the model holds Claude Code's: the reverse of model_hermes.c), the thinking as
 * "reasoning", and a session row from the meta.  Only Hermes's columns: what the model has no
 * place for (a harness's own record keys, records that made no message) is not in them, as it
 * would not be in a Hermes session's export.  Claude Code's sessions are written by it too.
 */
#include <stdlib.h>
#include <string.h>

#include "hermes_rows.h"

static void put(struct txc_json *o, const char *k, const struct txc_json *v)
{
	txc_json_put(o, txc_str_c(k), v);
}

static const struct txc_json *jstr(struct txc_arena *a, struct txc_str s)
{
	return s.ptr != NULL ? txc_json_string(a, s.ptr, s.len) : &txc_json_null_value;
}

static const struct txc_json *jlit(struct txc_arena *a, const char *s)
{
	return txc_json_string(a, s, strlen(s));
}

static struct txc_str compact(struct txc_arena *a, const struct txc_json *v)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_json_emit(&b, v, TXC_JSON_PY);
	struct txc_str s = txc_arena_str(a, b.buf, b.len);
	txc_buf_release(&b);
	return s;
}

/* Hermes's message columns, null but for the ones every row has */
static struct txc_json *row_new(struct txc_arena *a, int64_t id, struct txc_str sid, const char *role,
				const struct txc_message *m, const struct txc_json *details)
{
	static const char *const nulls[] = {
		"content",   "tool_call_id",  "tool_calls", "tool_name",         "effect_disposition",
		"timestamp", "finish_reason", "reasoning",  "reasoning_content", "codex_reasoning_items"};
	struct txc_json *o = txc_json_object(a, 16);
	put(o, "id", txc_json_int(a, id));
	put(o, "session_id", jstr(a, sid));
	put(o, "role", jlit(a, role));
	for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++) {
		put(o, nulls[i], &txc_json_null_value);
		if (details != NULL && strcmp(nulls[i], "reasoning_content") == 0)
			put(o, "reasoning_details", details); /* (only where there are some: Hermes's column order) */
	}
	put(o, "active", txc_json_int(a, m->compacted ? 0 : 1));
	put(o, "compacted", txc_json_int(a, m->compacted ? 1 : 0));
	return o;
}

static void set(struct txc_json *o, const char *k, const struct txc_json *v)
{
	for (size_t i = 0; i < o->n; i++)
		if (txc_str_eq(o->keys[i], k))
			o->items[i] = v;
}

/* a call's input under Hermes's keys again where txc renamed them (the reverse of model_hermes.c) */
static const struct txc_json *hermes_input(struct txc_arena *a, const char *hname, const struct txc_json *in)
{
	if (hname == NULL || in->kind != TXC_JSON_OBJECT)
		return in;
	bool patch = strcmp(hname, "patch") == 0, term = strcmp(hname, "terminal") == 0;
	struct txc_json *o = txc_json_object(a, in->n + 1);
	if (patch)
		put(o, "mode", jlit(a, "replace"));
	for (size_t i = 0; i < in->n; i++) {
		struct txc_str k = in->keys[i];
		const struct txc_json *v = in->items[i];
		int64_t ms;
		if (!term && txc_str_eq(k, "file_path"))
			k = txc_str_c("path");
		else if (term && txc_str_eq(k, "run_in_background"))
			k = txc_str_c("background");
		else if (term && txc_str_eq(k, "timeout_ms") && txc_json_is_int(v, &ms) && ms >= 0 && ms % 1000 == 0)
			k = txc_str_c("timeout"), v = txc_json_int(a, ms / 1000);
		txc_json_put(o, k, v);
	}
	return o;
}

/* Codex's apply_patch ({"input": a V4A patch}, the Codex reader's): the patch, else NULL */
static const struct txc_json *v4a_patch(const struct txc_block *b)
{
	const struct txc_json *in = b->input, *p = in ? txc_json_get(in, "input") : NULL;
	if (!txc_str_eq(b->name, "apply_patch") || in->kind != TXC_JSON_OBJECT || in->n != 1 || p == NULL ||
	    p->kind != TXC_JSON_STRING || p->s.len < 15 || memcmp(p->s.ptr, "*** Begin Patch", 15) != 0)
		return NULL;
	return p;
}

static const struct txc_json *tool_calls(struct txc_arena *a, const struct txc_message *m, size_t n_calls)
{
	struct txc_json *arr = txc_json_array(a, n_calls);
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *b = &m->blocks[i];
		if (b->kind != TXC_BLOCK_TOOL_USE)
			continue;
		const char *h = txc_model_hermes_name(b->name);
		struct txc_json *call = txc_json_object(a, 3), *fn = txc_json_object(a, 2);
		const struct txc_json *in = b->input, *patch = v4a_patch(b);
		put(call, "id", jstr(a, b->id));
		put(call, "type", jlit(a, "function"));
		if (patch != NULL) { /* Hermes's patch tool takes apply_patch's own format in patch mode */
			struct txc_json *o = txc_json_object(a, 2);
			put(o, "mode", jlit(a, "patch"));
			put(o, "patch", patch);
			in = o, h = NULL;
		}
		put(fn, "name", h ? jlit(a, h) : patch ? jlit(a, "patch") : jstr(a, b->name));
		struct txc_str args = in ? compact(a, hermes_input(a, h, in)) : txc_str_c("{}");
		put(fn, "arguments", txc_json_string(a, args.ptr, args.len));
		put(call, "function", fn);
		txc_json_push(arr, call);
	}
	return arr;
}

/* the text blocks: one as a string, more as text parts (an image as its data URL part) */
static const struct txc_json *content_of(struct txc_arena *a, const struct txc_message *m)
{
	size_t n = 0;
	const struct txc_block *only = NULL;
	for (size_t i = 0; i < m->n_blocks; i++)
		if (m->blocks[i].kind == TXC_BLOCK_TEXT || m->blocks[i].kind == TXC_BLOCK_IMAGE)
			n++, only = &m->blocks[i];
	if (n == 0)
		return &txc_json_null_value;
	if (n == 1 && only->kind == TXC_BLOCK_TEXT)
		return jstr(a, only->text);
	struct txc_json *parts = txc_json_array(a, n);
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *b = &m->blocks[i];
		struct txc_json *p = txc_json_object(a, 2);
		if (b->kind == TXC_BLOCK_TEXT) {
			put(p, "type", jlit(a, "text"));
			put(p, "text", jstr(a, b->text));
		} else if (b->kind == TXC_BLOCK_IMAGE) {
			struct txc_buf u = TXC_BUF_INIT;
			txc_buf_addstr(&u, "data:");
			txc_buf_add(&u, b->media_type.ptr, b->media_type.len);
			txc_buf_addstr(&u, ";base64,");
			txc_buf_add(&u, b->data.ptr, b->data.len);
			struct txc_json *url = txc_json_object(a, 1);
			put(url, "url", txc_json_string(a, u.buf, u.len));
			txc_buf_release(&u);
			put(p, "type", jlit(a, "image_url"));
			put(p, "image_url", url);
		} else {
			continue;
		}
		txc_json_push(parts, p);
	}
	return parts;
}

static const char *finish_of(const struct txc_message *m)
{
	switch (m->stop) {
	case TXC_STOP_END_TURN: return "stop";
	case TXC_STOP_TOOL_USE: return "tool_calls";
	case TXC_STOP_MAX_TOKENS: return "length";
	case TXC_STOP_OTHER: return NULL;
	default: return txc_model_stop_name(m->stop);
	}
}

/*
 * The thinking as Hermes's reasoning_details (its native Anthropic transport's blocks, a JSON
 * text as Hermes stores it) when some of it is Anthropic's signed or redacted thinking, which
 * the reasoning column cannot hold; NULL otherwise.  model_hermes.c reads it back as signed.
 */
static const struct txc_json *reasoning_details(struct txc_arena *a, const struct txc_message *m)
{
	bool signed_ = false;
	for (size_t i = 0; i < m->n_blocks; i++)
		signed_ |=
			m->blocks[i].kind == TXC_BLOCK_THINKING &&
			(m->blocks[i].signature.len > 0 || (m->blocks[i].redacted && m->blocks[i].encrypted.len > 0));
	if (!signed_)
		return NULL;
	struct txc_json *v = txc_json_array(a, m->n_blocks);
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *b = &m->blocks[i];
		if (b->kind != TXC_BLOCK_THINKING ||
		    (b->redacted ? b->encrypted.len == 0 : b->text.len == 0 && b->signature.len == 0))
			continue;
		struct txc_json *o = txc_json_object(a, 3);
		put(o, "type", jlit(a, b->redacted ? "redacted_thinking" : "thinking"));
		if (b->redacted) {
			put(o, "data", jstr(a, b->encrypted));
		} else {
			put(o, "thinking", jstr(a, b->text));
			if (b->signature.len > 0)
				put(o, "signature", jstr(a, b->signature));
		}
		txc_json_push(v, o);
	}
	struct txc_str s = compact(a, v);
	return txc_json_string(a, s.ptr, s.len);
}

static void assistant_row(struct txc_arena *a, struct txc_json *rows, int64_t *id, struct txc_str sid,
			  const struct txc_message *m)
{
	struct txc_json *row = row_new(a, ++*id, sid, "assistant", m, reasoning_details(a, m));
	struct txc_buf think = TXC_BUF_INIT;
	size_t calls = 0;
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *b = &m->blocks[i];
		calls += b->kind == TXC_BLOCK_TOOL_USE;
		if (b->kind == TXC_BLOCK_THINKING && b->text.len) {
			if (think.len)
				txc_buf_addstr(&think, "\n\n");
			txc_buf_add(&think, b->text.ptr, b->text.len);
		}
	}
	set(row, "content", content_of(a, m));
	set(row, "timestamp", txc_json_real(a, m->time));
	if (calls)
		set(row, "tool_calls", tool_calls(a, m, calls));
	if (think.len)
		set(row, "reasoning", txc_json_string(a, think.buf, think.len));
	txc_buf_release(&think);
	const char *fr = finish_of(m);
	if (fr != NULL)
		set(row, "finish_reason", jlit(a, fr));
	else if (m->stop == TXC_STOP_OTHER)
		set(row, "finish_reason", jstr(a, m->stop_other));
	txc_json_push(rows, row);
}

static void user_rows(struct txc_arena *a, struct txc_json *rows, int64_t *id, struct txc_str sid,
		      const struct txc_message *m)
{
	const struct txc_json *content = content_of(a, m);
	if (content->kind != TXC_JSON_NULL) {
		/* instructions to the model (Codex's developer/system messages) are Hermes's system rows */
		struct txc_json *row = row_new(a, ++*id, sid, m->instructions ? "system" : "user", m, NULL);
		set(row, "content", content);
		set(row, "timestamp", txc_json_real(a, m->time));
		txc_json_push(rows, row);
	}
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *b = &m->blocks[i];
		if (b->kind != TXC_BLOCK_TOOL_RESULT)
			continue;
		struct txc_json *row = row_new(a, ++*id, sid, "tool", m, NULL);
		const char *h = txc_model_hermes_name(b->name);
		set(row, "tool_call_id", jstr(a, b->id));
		set(row, "tool_name", h ? jlit(a, h) : jstr(a, b->name));
		set(row, "content", b->output ? jstr(a, compact(a, b->output)) : jstr(a, b->output_text));
		set(row, "timestamp", txc_json_real(a, m->time));
		txc_json_push(rows, row);
	}
}

static const struct txc_json *session_of(struct txc_arena *a, const struct txc_transcript *t, size_t n_rows)
{
	const struct txc_meta *m = &t->meta;
	struct txc_json *o = txc_json_object(a, 17);
	put(o, "id", jstr(a, m->id));
	put(o, "source", jstr(a, m->source));
	put(o, "model", jstr(a, m->model));
	put(o, "started_at", txc_json_real(a, m->started_at));
	put(o, "ended_at", m->has_ended ? txc_json_real(a, m->ended_at) : &txc_json_null_value);
	put(o, "end_reason", jstr(a, m->end_reason));
	put(o, "message_count", txc_json_int(a, (int64_t)n_rows));
	put(o, "tool_call_count", txc_json_int(a, m->tool_call_count));
	put(o, "input_tokens", txc_json_int(a, m->input_tokens));
	put(o, "output_tokens", txc_json_int(a, m->output_tokens));
	put(o, "cache_read_tokens", txc_json_int(a, m->cache_read_tokens));
	put(o, "cache_write_tokens", txc_json_int(a, m->cache_write_tokens));
	put(o, "cwd", jstr(a, m->cwd));
	put(o, "git_branch", jstr(a, m->git_branch));
	put(o, "estimated_cost_usd", m->has_cost ? txc_json_real(a, m->cost_usd) : &txc_json_null_value);
	put(o, "title", jstr(a, m->title));
	put(o, "archived", txc_json_int(a, m->archived ? 1 : 0));
	return o;
}

/* one message's rows (an assistant's one; a user's text or image one, and one per tool result) */
static void message_rows(struct txc_arena *a, struct txc_json *rows, int64_t *id, const struct txc_transcript *t,
			 const struct txc_message *m)
{
	if (m->role == TXC_ROLE_ASSISTANT)
		assistant_row(a, rows, id, t->meta.id, m);
	else
		user_rows(a, rows, id, t->meta.id, m);
}

/* how many rows message_rows makes of m, without making them */
static size_t n_rows_of(const struct txc_message *m)
{
	if (m->role == TXC_ROLE_ASSISTANT)
		return 1;
	size_t n = 0;
	bool content = false;
	for (size_t i = 0; i < m->n_blocks; i++) {
		n += m->blocks[i].kind == TXC_BLOCK_TOOL_RESULT;
		content = content || m->blocks[i].kind == TXC_BLOCK_TEXT || m->blocks[i].kind == TXC_BLOCK_IMAGE;
	}
	return n + content;
}

struct txc_hermes_native *txc_hermes_rows_head(struct txc_arena *a, const struct txc_transcript *t)
{
	size_t n = 0, active = 0;
	for (size_t i = 0; i < t->n_messages; i++) {
		size_t k = n_rows_of(&t->messages[i]);
		n += k;
		active += t->messages[i].compacted ? 0 : k;
	}
	struct txc_hermes_native *nv = txc_arena_alloc(a, sizeof(*nv));
	memset(nv, 0, sizeof(*nv));
	nv->session = session_of(a, t, n);
	nv->n_active_rows = active;
	/* Hermes's last_active (bulk export): the newest message, else the start */
	double last = t->meta.started_at;
	for (size_t i = 0; i < t->n_messages; i++)
		last = i == 0 || t->messages[i].time > last ? t->messages[i].time : last;
	nv->last_active = txc_json_real(a, last);
	return nv;
}

int txc_hermes_rows_each(struct txc_arena *scratch, const struct txc_transcript *t,
			 int (*fn)(void *ctx, const struct txc_json *row), void *ctx)
{
	int64_t id = 0;
	for (size_t i = 0; i < t->n_messages; i++) {
		struct txc_json *rows = txc_json_array(scratch, 1 + t->messages[i].n_blocks);
		message_rows(scratch, rows, &id, t, &t->messages[i]);
		for (size_t k = 0; k < rows->n; k++) {
			int rc = fn(ctx, rows->items[k]);
			if (rc != 0)
				return rc;
		}
		txc_arena_reset(scratch); /* one message's rows at a time: memory stays flat */
	}
	return 0;
}

struct txc_hermes_native *txc_hermes_rows_of(struct txc_arena *a, const struct txc_transcript *t)
{
	struct txc_hermes_native *nv = txc_hermes_rows_head(a, t);
	size_t n = 0;
	for (size_t i = 0; i < t->n_messages; i++)
		n += n_rows_of(&t->messages[i]);
	struct txc_json *rows = txc_json_array(a, n);
	int64_t id = 0;
	for (size_t i = 0; i < t->n_messages; i++)
		message_rows(a, rows, &id, t, &t->messages[i]);
	nv->rows = rows;
	return nv;
}
