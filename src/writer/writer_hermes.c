/*
 * writer_hermes.c - Hermes's own export line, byte for byte.
 *
 * What `hermes sessions export -` (v0.20.0) prints: the session columns in
 * table order (system_prompt resolved), last_active in the bulk form, then
 * "messages" with every active row; Python json.dumps(ensure_ascii=False)
 * formatting.  See docs/FORMATS.md for the two places txc does not crash
 * where Hermes does (invalid UTF-8, BLOBs).
 */
#include <string.h>

#include "txc/model_hermes.h"
#include "txc/writer_hermes.h"

static void key(struct txc_buf *b, const char *k, size_t len, bool first)
{
	if (!first)
		txc_buf_add(b, ", ", 2);
	txc_json_emit_str(b, k, len);
	txc_buf_add(b, ": ", 2);
}

static void hermes_head(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt)
{
	struct txc_buf *b = &out->buf;
	const struct txc_json *s = t->native->session;
	const struct txc_json *last_active = t->native->last_active;
	txc_buf_addch(b, '{');
	for (size_t i = 0; i < s->n; i++) {
		key(b, s->keys[i].ptr, s->keys[i].len, i == 0);
		txc_json_emit(b, s->items[i], TXC_JSON_PY);
	}
	if (opt->bulk && last_active != NULL) {
		key(b, "last_active", 11, s->n == 0);
		txc_json_emit(b, last_active, TXC_JSON_PY);
	}
	key(b, "messages", 8, s->n == 0 && !(opt->bulk && last_active));
	txc_buf_addch(b, '[');
}

static void hermes_row(struct txc_out *out, const struct txc_json *row, size_t *n_written)
{
	if (!txc_hermes_row_active(row))
		return;
	if ((*n_written)++)
		txc_buf_add(&out->buf, ", ", 2);
	txc_json_emit(&out->buf, row, TXC_JSON_PY);
	txc_out_maybe_flush(out);
}

static void hermes_tail(struct txc_out *out)
{
	txc_buf_add(&out->buf, "]}\n", 3);
}

/* ---- --lineage: Hermes's logical-lineage export (export_session_lineage) ---- */

static size_t active_rows(const struct txc_json *rows)
{
	size_t n = 0;
	for (size_t i = 0; rows != NULL && i < rows->n; i++)
		n += txc_hermes_row_active(rows->items[i]);
	return n;
}

static void segment_rows(struct txc_out *out, const struct txc_transcript *t, size_t *n)
{
	for (size_t k = 0; k < t->n_segments; k++) {
		const struct txc_json *rows = t->segments[k].t->native->rows;
		for (size_t i = 0; rows != NULL && i < rows->n; i++)
			hermes_row(out, rows->items[i], n);
	}
}

/* the tip's session with message_count the total, every segment's messages, then "segments"
 * (each as its single export) and "lineage_session_ids", in Hermes's key order */
static void write_lineage(struct txc_out *out, const struct txc_transcript *t)
{
	struct txc_buf *b = &out->buf;
	const struct txc_json *s = t->native->session;
	size_t total = 0, n = 0;
	for (size_t k = 0; k < t->n_segments; k++)
		total += active_rows(t->segments[k].t->native->rows);
	txc_buf_addch(b, '{');
	for (size_t i = 0; i < s->n; i++) {
		key(b, s->keys[i].ptr, s->keys[i].len, i == 0);
		if (txc_str_eq(s->keys[i], "message_count"))
			txc_buf_addf(b, "%zu", total);
		else
			txc_json_emit(b, s->items[i], TXC_JSON_PY);
	}
	key(b, "messages", 8, s->n == 0);
	txc_buf_addch(b, '[');
	segment_rows(out, t, &n);
	txc_buf_addstr(b, "], \"segments\": [");
	struct txc_write_opts single = {0};
	for (size_t k = 0; k < t->n_segments; k++) {
		const struct txc_transcript *seg = t->segments[k].t;
		const struct txc_json *rows = seg->native->rows;
		size_t m = 0;
		if (k)
			txc_buf_add(b, ", ", 2);
		hermes_head(out, seg, &single);
		for (size_t i = 0; rows != NULL && i < rows->n; i++)
			hermes_row(out, rows->items[i], &m);
		txc_buf_add(b, "]}", 2);
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

static int write_hermes(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
			struct txc_diag *d)
{
	size_t n = 0;
	if (t->native == NULL || t->native->session == NULL) {
		/* Hermes's format is its own rows: a session read from another harness has none */
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
		write_lineage(out, t);
		return TXC_OK;
	}
	const struct txc_json *rows = t->native->rows;
	if (opt->part != NULL && opt->part->continued) {
		/* --follow: after the session's line, each new row is a line of its own, as Hermes writes a row */
		for (size_t i = 0; rows != NULL && i < rows->n; i++)
			if (txc_hermes_row_active(rows->items[i])) {
				txc_json_emit(&out->buf, rows->items[i], TXC_JSON_PY);
				txc_buf_addch(&out->buf, '\n');
			}
		return TXC_OK;
	}
	hermes_head(out, t, opt);
	for (size_t i = 0; rows != NULL && i < rows->n; i++)
		hermes_row(out, rows->items[i], &n);
	hermes_tail(out);
	return TXC_OK;
}

static const struct txc_writer_stream hermes_stream = {
	.head = hermes_head,
	.row = hermes_row,
	.tail = hermes_tail,
};

const struct txc_writer_ops txc_writer_hermes = {
	.stream = &hermes_stream,
	.name = "hermes",
	.summary = "Hermes export JSONL, byte-identical to `hermes sessions export`",
	.ext = "jsonl",
	.caps = TXC_WCAP_NATIVE_ROWS | TXC_WCAP_STREAM,
	.opts = 0,
	.write = write_hermes,
};
