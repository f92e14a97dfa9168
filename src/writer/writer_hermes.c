/*
 * writer_hermes.c - Hermes's own export line, byte for byte.
 *
 * What `hermes sessions export -` (v0.20.0) prints: the session columns in
 * table order (system_prompt resolved), last_active in the bulk form, then
 * "messages" with every active row; Python json.dumps(ensure_ascii=False)
 * formatting.  See docs/FORMATS.md for the two places txc does not crash
 * where Hermes does (invalid UTF-8, BLOBs).  --hermes-format 0.21: what Hermes
 * 0.21 prints instead (hermes-current.md 3.1-3.3): rows without the display
 * columns, _reset_from/_branched_from, and "timings" last (hermes_timings.c).
 */
#include <string.h>

#include "hermes_rows.h"
#include "txc/model_hermes.h"
#include "txc/writer_hermes.h"

static void key(struct txc_buf *b, const char *k, size_t len, bool first)
{
	if (!first)
		txc_buf_add(b, ", ", 2);
	txc_json_emit_str(b, k, len);
	txc_buf_add(b, ": ", 2);
}

/* --hermes-format: 0.21 when asked, or (auto) when the reader saw a Hermes newer than v0.20.0 */
static bool is_021(const struct txc_transcript *t, const struct txc_write_opts *opt)
{
	return opt->hermes_format == TXC_HFMT_021 || (opt->hermes_format == TXC_HFMT_AUTO && t->native->newer);
}

static bool contains(struct txc_str s, const char *needle)
{
	size_t n = strlen(needle);
	for (const char *p = s.ptr, *end = s.ptr + s.len; (size_t)(end - p) >= n; p++) {
		p = memchr(p, needle[0], (size_t)(end - p) - n + 1);
		if (p == NULL)
			return false;
		if (memcmp(p, needle, n) == 0)
			return true;
	}
	return false;
}

/* 0.21's get_session: model_config's _reset_from and _branched_from (when there, not null) after the columns */
static void lineage_keys(struct txc_buf *b, const struct txc_json *s, bool first)
{
	static const char *const names[] = {"_reset_from", "_branched_from"};
	const struct txc_json *cfg = txc_json_get(s, "model_config"), *o;
	if (cfg == NULL || cfg->kind != TXC_JSON_STRING ||
	    (!contains(cfg->s, "_reset_from") && !contains(cfg->s, "_branched_from")))
		return; /* the common case costs no parse */
	struct txc_arena *a = txc_arena_new(4096);
	if (txc_json_parse(a, cfg->s.ptr, cfg->s.len, &o) == 0 && o->kind == TXC_JSON_OBJECT)
		for (size_t i = 0; i < 2; i++) {
			const struct txc_json *v = txc_json_get(o, names[i]);
			if (v != NULL && v->kind != TXC_JSON_NULL) {
				key(b, names[i], strlen(names[i]), first);
				txc_json_emit(b, v, TXC_JSON_PY);
				first = false;
			}
		}
	txc_arena_free(a);
}

/* the session columns, last_active (bulk), 0.21's derived keys, then "messages": [ */
static void session_head(struct txc_buf *b, const struct txc_transcript *t, const struct txc_write_opts *opt, bool v021,
			 const struct txc_json *message_count)
{
	const struct txc_hermes_native *nv = t->native;
	const struct txc_json *s = nv->session;
	const struct txc_json *last_active = v021 && nv->has_last_active_021 ? nv->last_active_021 : nv->last_active;
	txc_buf_addch(b, '{');
	for (size_t i = 0; i < s->n; i++) {
		key(b, s->keys[i].ptr, s->keys[i].len, i == 0);
		bool count = message_count != NULL && txc_str_eq(s->keys[i], "message_count");
		txc_json_emit(b, count ? message_count : s->items[i], TXC_JSON_PY);
	}
	size_t before = b->len;
	if (opt->bulk && last_active != NULL) {
		key(b, "last_active", 11, s->n == 0);
		txc_json_emit(b, last_active, TXC_JSON_PY);
	}
	if (v021)
		lineage_keys(b, s, s->n == 0 && b->len == before);
	key(b, "messages", 8, s->n == 0 && b->len == before);
	txc_buf_addch(b, '[');
}

/* Message columns of the newest schema read (hermes-current.md 2.1, 46d7718a): 0.21 keeps a BLOB in these
 * (and so cannot print it: txc prints {"$blob_hex": ...}) and drops one in any other column. */
static bool known_message_col(struct txc_str k)
{
	static const char *const cols[] = {"id",
					   "session_id",
					   "role",
					   "content",
					   "tool_call_id",
					   "tool_calls",
					   "tool_name",
					   "effect_disposition",
					   "timestamp",
					   "token_count",
					   "finish_reason",
					   "reasoning",
					   "reasoning_content",
					   "reasoning_details",
					   "codex_reasoning_items",
					   "codex_message_items",
					   "platform_message_id",
					   "observed",
					   "active",
					   "compacted",
					   "api_content",
					   "display_kind",
					   "display_metadata",
					   "message_uid",
					   "absorbed_message_uids",
					   "tool_call_uids",
					   "tool_call_uid"};
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (txc_str_eq(k, cols[i]))
			return true;
	return false;
}

/* 0.21's _row_to_message_dict: no display_identity / display_order, _compressed_summary only when set (true,
 * last), a BLOB of an unknown column dropped; the rest in column order */
static void emit_row_021(struct txc_buf *b, const struct txc_json *row)
{
	bool summary = false, first = true;
	txc_buf_addch(b, '{');
	for (size_t i = 0; i < row->n; i++) {
		struct txc_str k = row->keys[i];
		/* by length first: this runs for every key of every row */
		if ((k.len == 16 && memcmp(k.ptr, "display_identity", 16) == 0) ||
		    (k.len == 13 && memcmp(k.ptr, "display_order", 13) == 0))
			continue;
		if (k.len == 19 && memcmp(k.ptr, "_compressed_summary", 19) == 0) {
			summary = txc_json_truthy(row->items[i]);
			continue;
		}
		if (row->items[i]->kind == TXC_JSON_BLOB && !known_message_col(k))
			continue;
		key(b, k.ptr, k.len, first);
		txc_json_emit(b, row->items[i], TXC_JSON_PY);
		first = false;
	}
	if (summary)
		key(b, "_compressed_summary", 19, first), txc_buf_addstr(b, "true");
	txc_buf_addch(b, '}');
}

static void emit_row(struct txc_buf *b, const struct txc_json *row, bool v021)
{
	if (v021)
		emit_row_021(b, row);
	else
		txc_json_emit(b, row, TXC_JSON_PY);
}

static void hermes_head(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
			struct txc_stream_state *st)
{
	st->v021 = is_021(t, opt);
	if (st->v021 && st->timings == NULL)
		st->timings = txc_hermes_timings_new();
	session_head(&out->buf, t, opt, st->v021, NULL);
}

static void hermes_row(struct txc_out *out, const struct txc_json *row, struct txc_stream_state *st)
{
	if (!txc_hermes_row_active(row))
		return;
	if (st->n_written++)
		txc_buf_add(&out->buf, ", ", 2);
	if (st->timings != NULL)
		txc_hermes_timings_add(st->timings, row);
	emit_row(&out->buf, row, st->v021);
	txc_out_maybe_flush(out);
}

/* "]", then (0.21) the timings, "}" */
static void hermes_end(struct txc_buf *b, const struct txc_stream_state *st)
{
	txc_buf_addch(b, ']');
	if (st->v021) {
		txc_buf_add(b, ", ", 2);
		txc_hermes_timings_emit(b, st->timings);
	}
	txc_buf_addch(b, '}');
}

static void hermes_tail(struct txc_out *out, struct txc_stream_state *st)
{
	hermes_end(&out->buf, st);
	txc_buf_addch(&out->buf, '\n');
}

static void hermes_release(struct txc_stream_state *st)
{
	txc_hermes_timings_free(st->timings);
	st->timings = NULL;
}

/* one session's rows from memory, as the stream writes them */
static void write_rows(struct txc_out *out, const struct txc_json *rows, struct txc_stream_state *st)
{
	for (size_t i = 0; rows != NULL && i < rows->n; i++)
		hermes_row(out, rows->items[i], st);
}

/* ---- --lineage: Hermes's logical-lineage export (export_session_lineage) ---- */

static size_t active_rows(const struct txc_json *rows)
{
	size_t n = 0;
	for (size_t i = 0; rows != NULL && i < rows->n; i++)
		n += txc_hermes_row_active(rows->items[i]);
	return n;
}

/* the tip's session with message_count the total, every segment's messages (0.21: then the last segment's
 * timings, as Hermes copies that segment's object), then "segments" (each as its single export) and
 * "lineage_session_ids", in Hermes's key order */
static void write_lineage(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt)
{
	struct txc_buf *b = &out->buf;
	size_t total = 0;
	for (size_t k = 0; k < t->n_segments; k++)
		total += active_rows(t->segments[k].t->native->rows);
	char digits[24];
	struct txc_json count = {.kind = TXC_JSON_INT,
				 .s = {digits, (size_t)snprintf(digits, sizeof(digits), "%zu", total)}};
	struct txc_write_opts single = {.hermes_format = is_021(t, opt) ? TXC_HFMT_021 : TXC_HFMT_020};
	struct txc_stream_state all = {.v021 = single.hermes_format == TXC_HFMT_021};
	session_head(b, t, &single, all.v021, &count);
	for (size_t k = 0; k < t->n_segments; k++) {
		if (all.v021 && k + 1 == t->n_segments) /* timings of the last segment only */
			all.timings = txc_hermes_timings_new();
		write_rows(out, t->segments[k].t->native->rows, &all);
	}
	hermes_end(b, &all);
	hermes_release(&all);
	b->len--; /* reopen the object */
	txc_buf_addstr(b, ", \"segments\": [");
	for (size_t k = 0; k < t->n_segments; k++) {
		const struct txc_transcript *seg = t->segments[k].t;
		struct txc_stream_state st = {0};
		if (k)
			txc_buf_add(b, ", ", 2);
		hermes_head(out, seg, &single, &st);
		write_rows(out, seg->native->rows, &st);
		hermes_end(b, &st);
		hermes_release(&st);
	}
	txc_buf_addstr(b, "], \"lineage_session_ids\": [");
	for (size_t k = 0; k < t->n_segments; k++) {
		const struct txc_json *id = txc_json_get(t->segments[k].t->native->session, "id");
		if (k)
			txc_buf_add(b, ", ", 2);
		if (id != NULL)
			txc_json_emit(b, id, TXC_JSON_PY);
		else
			txc_buf_addstr(b, "null");
	}
	txc_buf_add(b, "]}\n", 3);
}

/* A shallow copy of t whose rows (and its chain's) are made from the model where the harness has none. */
static const struct txc_transcript *with_rows(struct txc_arena *a, const struct txc_transcript *t)
{
	struct txc_transcript *made = txc_arena_alloc(a, sizeof(*made));
	*made = *t;
	if (t->native == NULL)
		made->native = txc_hermes_rows_of(a, t);
	if (t->n_segments > 0) {
		struct txc_segment *segs = txc_arena_array(a, t->n_segments, sizeof(*segs));
		memcpy(segs, t->segments, t->n_segments * sizeof(*segs));
		for (size_t k = 0; k < t->n_segments; k++)
			if (segs[k].t->native == NULL)
				segs[k].t = with_rows(a, segs[k].t);
		made->segments = segs;
	}
	return made;
}

static bool rowless(const struct txc_transcript *t)
{
	bool none = t->native == NULL;
	for (size_t k = 0; k < t->n_segments; k++)
		none = none || t->segments[k].t->native == NULL;
	return none;
}

struct made_ctx {
	struct txc_out *out;
	struct txc_stream_state *st;
};

static int made_row(void *ctx, const struct txc_json *row)
{
	struct made_ctx *x = ctx;
	hermes_row(x->out, row, x->st);
	return 0;
}

/* One session without rows of its own: its session row, then its rows made from the model a
 * message at a time and written as they come (a big session's rows are never all held). */
static void write_made(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt)
{
	struct txc_arena *a = txc_arena_new(4096), *scratch = txc_arena_new(16384);
	struct txc_transcript head = *t;
	head.native = txc_hermes_rows_head(a, t);
	struct txc_stream_state st = {0};
	struct made_ctx x = {out, &st};
	hermes_head(out, &head, opt, &st);
	txc_hermes_rows_each(scratch, t, made_row, &x);
	hermes_tail(out, &st);
	hermes_release(&st);
	txc_arena_free(scratch);
	txc_arena_free(a);
}

static int write_hermes(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
			struct txc_diag *d)
{
	if (t->native == NULL && t->n_segments == 0 && !(opt->part != NULL && opt->part->continued)) {
		write_made(out, t, opt);
		return TXC_OK;
	}
	if (rowless(t)) {
		/* a harness without rows of its own (Claude Code): its rows made from the model (hermes_rows.c) */
		struct txc_arena *a = txc_arena_new(16384);
		int rc = write_hermes(out, with_rows(a, t), opt, d);
		txc_arena_free(a);
		return rc;
	}
	if (t->native == NULL || t->native->session == NULL) {
		/* rows without their session row: nothing to head the export with */
		txc_diag_set(d, TXC_E_USAGE, "the hermes format needs a session read from Hermes (its own rows)");
		return TXC_E_USAGE;
	}
	for (size_t k = 0; k < t->n_segments; k++)
		if (t->segments[k].t->native == NULL || t->segments[k].t->native->session == NULL) {
			txc_diag_set(d, TXC_E_USAGE,
				     "the hermes format needs every session of the chain read from Hermes");
			return TXC_E_USAGE;
		}
	if (t->n_segments > 0) {
		write_lineage(out, t, opt);
		return TXC_OK;
	}
	const struct txc_json *rows = t->native->rows;
	if (opt->part != NULL && opt->part->continued) {
		/* --follow: after the session's line, each new row is a line of its own, as Hermes writes a row */
		for (size_t i = 0; rows != NULL && i < rows->n; i++)
			if (txc_hermes_row_active(rows->items[i])) {
				emit_row(&out->buf, rows->items[i], is_021(t, opt));
				txc_buf_addch(&out->buf, '\n');
			}
		return TXC_OK;
	}
	struct txc_stream_state st = {0};
	hermes_head(out, t, opt, &st);
	write_rows(out, rows, &st);
	hermes_tail(out, &st);
	hermes_release(&st);
	return TXC_OK;
}

static const struct txc_writer_stream hermes_stream = {
	.head = hermes_head,
	.row = hermes_row,
	.tail = hermes_tail,
	.release = hermes_release,
};

const struct txc_writer_ops txc_writer_hermes = {
	.stream = &hermes_stream,
	.name = "hermes",
	.summary = "Hermes export JSONL, byte-identical to `hermes sessions export`",
	.ext = "jsonl",
	.caps = TXC_WCAP_NATIVE_ROWS | TXC_WCAP_STREAM,
	.opts = TXC_WOPT_HERMES_FORMAT,
	.write = write_hermes,
};
