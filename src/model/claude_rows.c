/*
 * claude_rows.c - a Claude Code session's model back to Hermes-shaped rows (t->native), for
 * the writers and the scanning search that read a source's rows: each message one row (a
 * user's tool results one each), Hermes's tool names and keys again, and what only Claude
 * records (model, usage, cost, signed thinking, keys the model has no place for) under
 * "claude"; a record that made no message becomes a row of role "claude:<type>".
 * The builder (model_claude.c) hands over its messages when it ends (claude_rows.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "claude_rows.h"
#include "txc/model_claude.h"
#include "txc/model_hermes.h"

static struct txc_str nonempty(const struct txc_json *v)
{
	if (v != NULL && v->kind == TXC_JSON_STRING && v->s.len > 0)
		return v->s;
	return TXC_STR_NULL;
}

static struct txc_str compact(struct txc_arena *a, const struct txc_json *v, unsigned flags)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_json_emit(&b, v, flags);
	struct txc_str s = txc_arena_str(a, b.buf, b.len);
	txc_buf_release(&b);
	return s;
}

static const struct txc_json *jstr(struct txc_arena *a, struct txc_str s)
{
	return s.ptr != NULL ? txc_json_string(a, s.ptr, s.len) : &txc_json_null_value;
}

static void put(struct txc_json *o, const char *k, const struct txc_json *v)
{
	txc_json_put(o, txc_str_c(k), v);
}

static struct txc_json *row_new(struct txc_arena *a, int64_t id, struct txc_str sid, const char *role,
				const struct txc_claude_rec *c)
{
	struct txc_json *o = txc_json_object(a, 17);
	put(o, "id", txc_json_int(a, id));
	put(o, "session_id", jstr(a, sid));
	put(o, "role", txc_json_string(a, role, strlen(role)));
	put(o, "content", &txc_json_null_value);
	put(o, "tool_call_id", &txc_json_null_value);
	put(o, "tool_calls", &txc_json_null_value);
	put(o, "tool_name", &txc_json_null_value);
	put(o, "effect_disposition", &txc_json_null_value);
	put(o, "timestamp", txc_json_real(a, c ? c->m->time : 0));
	put(o, "finish_reason", &txc_json_null_value);
	put(o, "reasoning", &txc_json_null_value);
	put(o, "reasoning_content", &txc_json_null_value);
	put(o, "codex_reasoning_items", &txc_json_null_value);
	put(o, "active", txc_json_int(a, c && c->m->compacted ? 0 : 1));
	put(o, "compacted", txc_json_int(a, c && c->m->compacted ? 1 : 0));
	return o;
}

static void set(struct txc_json *o, const char *k, const struct txc_json *v)
{
	for (size_t i = 0; i < o->n; i++)
		if (txc_str_eq(o->keys[i], k))
			o->items[i] = v;
}

/* Claude's input of a call txc renamed, with Hermes's keys again (the reverse of model_hermes.c) */
static const struct txc_json *hermes_input(struct txc_arena *a, const char *hname, const struct txc_json *in)
{
	if (hname == NULL || in->kind != TXC_JSON_OBJECT) /* a call always has an input (tool_use_block) */
		return in;
	bool patch = strcmp(hname, "patch") == 0, term = strcmp(hname, "terminal") == 0;
	struct txc_json *o = txc_json_object(a, in->n + 1);
	if (patch)
		put(o, "mode", txc_json_string(a, "replace", 7));
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

static const struct txc_json *tool_calls(struct txc_arena *a, const struct txc_claude_rec *c, size_t n_calls)
{
	struct txc_json *arr = txc_json_array(a, n_calls);
	for (size_t i = 0; i < c->m->n_blocks; i++) {
		const struct txc_block *b = &c->m->blocks[i];
		if (b->kind != TXC_BLOCK_TOOL_USE)
			continue;
		const char *h = txc_claude_hermes_name(b->name);
		struct txc_json *call = txc_json_object(a, 3), *fn = txc_json_object(a, 2);
		put(call, "id", jstr(a, b->id));
		put(call, "type", txc_json_string(a, "function", 8));
		put(fn, "name", h ? txc_json_string(a, h, strlen(h)) : jstr(a, b->name));
		struct txc_str args = compact(a, hermes_input(a, h, b->input), TXC_JSON_PY);
		put(fn, "arguments", txc_json_string(a, args.ptr, args.len));
		put(call, "function", fn);
		txc_json_push(arr, call);
	}
	return arr;
}

/* text and images as Hermes content: one text as a string, else parts */
static const struct txc_json *content_of(struct txc_arena *a, const struct txc_claude_rec *c)
{
	size_t n = 0, texts = 0;
	const struct txc_block *only = NULL;
	for (size_t i = 0; i < c->m->n_blocks; i++) {
		enum txc_block_kind k = c->m->blocks[i].kind;
		n += k == TXC_BLOCK_TEXT || k == TXC_BLOCK_IMAGE;
		if (k == TXC_BLOCK_TEXT)
			texts++, only = &c->m->blocks[i];
	}
	if (n == 0)
		return &txc_json_null_value;
	if (n == 1 && texts == 1)
		return jstr(a, only->text);
	struct txc_json *parts = txc_json_array(a, n);
	for (size_t i = 0; i < c->m->n_blocks; i++) {
		const struct txc_block *b = &c->m->blocks[i];
		struct txc_json *p = txc_json_object(a, 2);
		if (b->kind == TXC_BLOCK_TEXT) {
			put(p, "type", txc_json_string(a, "text", 4));
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
			put(p, "type", txc_json_string(a, "image_url", 9));
			put(p, "image_url", url);
		} else {
			continue;
		}
		txc_json_push(parts, p);
	}
	return parts;
}

/* what only Claude records: the model, usage, cost, signed or redacted thinking, and c->extra */
static const struct txc_json *claude_side(struct txc_arena *a, const struct txc_claude_rec *c)
{
	size_t extra = c->extra ? c->extra->n : 0, n_think = 0;
	for (size_t i = 0; i < c->m->n_blocks; i++)
		n_think += c->m->blocks[i].kind == TXC_BLOCK_THINKING &&
			   (c->m->blocks[i].signature.len || c->m->blocks[i].encrypted.len);
	struct txc_json *o = txc_json_object(a, 4 + extra);
	if (c->m->model.ptr != NULL)
		put(o, "model", jstr(a, c->m->model));
	if (c->usage_raw != NULL) /* rows are built only with keep_rows, which keeps every usage as written */
		put(o, "usage", c->usage_raw);
	if (c->has_cost)
		put(o, "costUSD", txc_json_real(a, c->cost));
	if (n_think) {
		struct txc_json *arr = txc_json_array(a, n_think);
		for (size_t i = 0; i < c->m->n_blocks; i++) {
			const struct txc_block *b = &c->m->blocks[i];
			if (b->kind != TXC_BLOCK_THINKING || !(b->signature.len || b->encrypted.len))
				continue;
			struct txc_json *t = txc_json_object(a, 2);
			if (b->signature.len)
				put(t, "signature", jstr(a, b->signature));
			if (b->encrypted.len)
				put(t, "data", jstr(a, b->encrypted));
			txc_json_push(arr, t);
		}
		put(o, "thinking", arr);
	}
	for (size_t i = 0; i < extra; i++)
		txc_json_put(o, c->extra->keys[i], c->extra->items[i]);
	return o->n ? o : NULL;
}

static const char *hermes_finish(const struct txc_message *m)
{
	switch (m->stop) {
	case TXC_STOP_END_TURN: return "stop";
	case TXC_STOP_TOOL_USE: return "tool_calls";
	case TXC_STOP_MAX_TOKENS: return "length";
	case TXC_STOP_OTHER: return NULL;
	default: return txc_model_stop_name(m->stop);
	}
}

struct rows {
	const struct txc_json **v;
	size_t n, cap;
};

static struct txc_json *push_row(struct rows *rs, struct txc_json *row)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->v = txc_xrealloc(rs->v, rs->cap * sizeof(*rs->v));
	}
	rs->v[rs->n++] = row;
	return row;
}

static void assistant_row(struct txc_arena *a, struct rows *rs, struct txc_str sid, const struct txc_claude_rec *c)
{
	struct txc_json *row = push_row(rs, row_new(a, (int64_t)rs->n + 1, sid, "assistant", c));
	struct txc_buf think = TXC_BUF_INIT;
	size_t calls = 0;
	for (size_t i = 0; i < c->m->n_blocks; i++) {
		const struct txc_block *b = &c->m->blocks[i];
		calls += b->kind == TXC_BLOCK_TOOL_USE;
		if (b->kind == TXC_BLOCK_THINKING && b->text.len) {
			if (think.len)
				txc_buf_addstr(&think, "\n\n");
			txc_buf_add(&think, b->text.ptr, b->text.len);
		}
	}
	set(row, "content", content_of(a, c));
	if (calls)
		set(row, "tool_calls", tool_calls(a, c, calls));
	if (think.len)
		set(row, "reasoning", txc_json_string(a, think.buf, think.len));
	txc_buf_release(&think);
	const char *fr = hermes_finish(c->m);
	if (fr != NULL)
		set(row, "finish_reason", txc_json_string(a, fr, strlen(fr)));
	else if (c->m->stop == TXC_STOP_OTHER)
		set(row, "finish_reason", jstr(a, c->m->stop_other));
}

static void user_rows(struct txc_arena *a, struct rows *rs, struct txc_str sid, const struct txc_claude_rec *c)
{
	const struct txc_json *content = content_of(a, c);
	if (content->kind != TXC_JSON_NULL)
		set(push_row(rs, row_new(a, (int64_t)rs->n + 1, sid, "user", c)), "content", content);
	for (size_t i = 0; i < c->m->n_blocks; i++) {
		const struct txc_block *b = &c->m->blocks[i];
		if (b->kind != TXC_BLOCK_TOOL_RESULT)
			continue;
		struct txc_json *row = push_row(rs, row_new(a, (int64_t)rs->n + 1, sid, "tool", c));
		set(row, "tool_call_id", jstr(a, b->id));
		set(row, "tool_name", jstr(a, b->name));
		set(row, "content", b->output ? jstr(a, compact(a, b->output, TXC_JSON_PY)) : jstr(a, b->output_text));
	}
}

/* a record that made no message: its type as the role, its JSON as the content */
static void other_row(struct txc_arena *a, struct rows *rs, struct txc_str sid, const struct txc_json *raw)
{
	struct txc_str type = nonempty(txc_json_get(raw, "type"));
	struct txc_buf role = TXC_BUF_INIT;
	txc_buf_addstr(&role, "claude:");
	txc_buf_add(&role, type.ptr ? type.ptr : "unknown", type.ptr ? type.len : 7);
	struct txc_json *row = push_row(rs, row_new(a, (int64_t)rs->n + 1, sid, "", NULL));
	set(row, "role", txc_json_string(a, role.buf, role.len));
	set(row, "content", jstr(a, compact(a, raw, 0)));
	double t;
	struct txc_str ts = nonempty(txc_json_get(raw, "timestamp"));
	if (ts.ptr != NULL && txc_claude_time(ts.ptr, ts.len, &t))
		set(row, "timestamp", txc_json_real(a, t));
	else
		set(row, "timestamp", &txc_json_null_value);
	txc_buf_release(&role);
}

static const struct txc_json *with_side(struct txc_arena *a, const struct txc_json *row, const struct txc_json *side)
{
	struct txc_json *o = txc_json_object(a, row->n + 1);
	for (size_t i = 0; i < row->n; i++)
		txc_json_put(o, row->keys[i], row->items[i]);
	put(o, "claude", side);
	return o;
}

static const struct txc_json *native_rows(struct txc_transcript *t, const struct txc_claude_rec *ms, size_t n,
					  const struct txc_claude_aside *os, size_t n_os)
{
	struct txc_arena *a = t->arena;
	struct rows rs = {0};
	struct txc_str sid = t->meta.id;
	size_t o = 0;
	for (size_t i = 0;; i++) { /* to i == n: the records after the last message */
		for (; o < n_os && os[o].at == i; o++)
			other_row(a, &rs, sid, os[o].raw);
		if (i == n)
			break;
		size_t first = rs.n;
		if (ms[i].m->role == TXC_ROLE_ASSISTANT)
			assistant_row(a, &rs, sid, &ms[i]);
		else
			user_rows(a, &rs, sid, &ms[i]);
		const struct txc_json *side = claude_side(a, &ms[i]);
		if (side != NULL) /* every message made a row: an assistant's, or a user's text or result */
			rs.v[first] = with_side(a, rs.v[first], side);
	}
	struct txc_json *arr = txc_json_array(a, rs.n);
	for (size_t i = 0; i < rs.n; i++)
		txc_json_push(arr, rs.v[i]);
	free(rs.v);
	return arr;
}

static const struct txc_json *native_session(struct txc_transcript *t, size_t n_rows, double last)
{
	struct txc_arena *a = t->arena;
	const struct txc_meta *m = &t->meta;
	struct txc_json *o = txc_json_object(a, 16);
	put(o, "id", jstr(a, m->id));
	put(o, "source", txc_json_string(a, "claude-code", 11));
	put(o, "model", jstr(a, m->model));
	put(o, "started_at", txc_json_real(a, m->started_at));
	put(o, "ended_at", isnan(last) ? &txc_json_null_value : txc_json_real(a, last));
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
	put(o, "archived", txc_json_int(a, 0));
	return o;
}

void txc_claude_rows(struct txc_transcript *t, const struct txc_claude_rec *ms, size_t n,
		     const struct txc_claude_aside *os, size_t n_os, double last)
{
	struct txc_hermes_native *nv = txc_hermes_native(t);
	nv->rows = native_rows(t, ms, n, os, n_os);
	nv->session = native_session(t, nv->rows->n, last);
	for (size_t i = 0; i < nv->rows->n; i++)
		nv->n_active_rows += txc_hermes_row_active(nv->rows->items[i]);
}
