/*
 * hermes_scan.c - a search without an index over Hermes's rows: each selected session's rows
 * streamed and matched on what the model shows of them (txc_hermes_search_text), numbered by
 * the rule the model numbers by (txc_hermes_row_numbered), so that a scan finds what the
 * full-text index would.  Every Hermes backend without its own search scans with this op.
 */
#include <string.h>

#include "hermes_source.h"
#include "txc/search.h"

bool txc_source_uses_tool(struct txc_arena *a, struct txc_str tool_name, struct txc_str calls, const char *name)
{
	if (tool_name.ptr != NULL && txc_str_eq(tool_name, name))
		return true;
	const struct txc_json *v;
	if (calls.ptr == NULL || txc_json_parse(a, calls.ptr, calls.len, &v) != 0 || v->kind != TXC_JSON_ARRAY)
		return false;
	for (size_t i = 0; i < v->n; i++) {
		const char *n = txc_json_cstr(txc_json_get(txc_json_get(v->items[i], "function"), "name"));
		if (n != NULL && strcmp(n, name) == 0)
			return true;
	}
	return false;
}

/* one session's scan */
struct scan_ctx {
	const struct txc_hit_sink *sink;
	const struct txc_query *q;
	const struct txc_search_opts *o;
	const struct txc_session_info *session;
	size_t n_messages; /* of the session, so far: message numbers */
	bool stopped;      /* the sink had enough (its limit): no error */
	struct txc_arena *scratch;
	struct txc_buf text[2];
};

/* A column as text: a string as it is, anything else as compact JSON (into b). */
static struct txc_str col_text(const struct txc_json *v, struct txc_buf *b)
{
	if (v == NULL || v->kind == TXC_JSON_NULL)
		return TXC_STR_NULL;
	if (v->kind == TXC_JSON_STRING)
		return v->s;
	txc_buf_reset(b);
	txc_json_emit(b, v, 0);
	return (struct txc_str){b->buf, b->len};
}

static bool int_is(const struct txc_json *v, int64_t want)
{
	int64_t x;
	return v != NULL && txc_json_is_int(v, &x) && x == want;
}

static int scan_head(void *ctx, const struct txc_transcript *t)
{
	(void)ctx;
	(void)t;
	return 0;
}

static int scan_row(void *ctx, const struct txc_json *row)
{
	struct scan_ctx *x = ctx;
	struct txc_hit h = {.session = x->session, .sid = x->session->sid};
	h.active = txc_hermes_row_active(row);
	h.compacted = int_is(txc_json_get(row, "compacted"), 1);
	const char *role = txc_json_cstr(txc_json_get(row, "role"));
	bool counted = txc_hermes_row_numbered(row); /* the model numbers by the same rule */
	x->n_messages += counted;
	if (!h.active && !h.compacted && !x->o->include_inactive)
		return 0;
	const char *tool = txc_json_cstr(txc_json_get(row, "tool_name"));
	if (x->o->role && (role == NULL || strcmp(role, x->o->role) != 0))
		return 0;
	txc_arena_reset(x->scratch);
	struct txc_str text[2];
	txc_hermes_search_text(x->scratch, row, text); /* what the model shows of the row */
	h.cols[0] = text[0];
	h.cols[1] = tool ? txc_str_c(tool) : TXC_STR_NULL;
	h.cols[2] = col_text(txc_json_get(row, "tool_calls"), &x->text[1]);
	h.cols[3] = text[1];
	if (x->o->tool && !txc_source_uses_tool(x->scratch, h.cols[1], h.cols[2], x->o->tool))
		return 0;
	if (!txc_query_match(x->q, h.cols, 4))
		return 0;
	h.has_row_id = txc_json_is_int(txc_json_get(row, "id"), &h.row_id);
	h.number = counted ? x->n_messages : 0;
	h.role = role ? txc_str_c(role) : TXC_STR_NULL;
	h.tool_name = h.cols[1];
	h.timestamp = txc_json_get(row, "timestamp");
	int rc = x->sink->hit(x->sink->ctx, &h);
	x->stopped = rc != 0;
	return rc;
}

int txc_hermes_scan(struct txc_store *s, const struct txc_session_info *session, const struct txc_query *q,
		    const struct txc_search_opts *o, const struct txc_hit_sink *sink, bool *stopped, struct txc_diag *d)
{
	struct scan_ctx x = {.sink = sink,
			     .q = q,
			     .o = o,
			     .session = session,
			     .scratch = txc_arena_new(0),
			     .text = {TXC_BUF_INIT, TXC_BUF_INIT}};
	struct txc_row_sink rs = {scan_head, scan_row, &x};
	int rc = txc_store_stream(s, &session->sid, TXC_LOAD_COMPACTED, &rs, d);
	*stopped = x.stopped;
	txc_buf_release(&x.text[0]);
	txc_buf_release(&x.text[1]);
	txc_arena_free(x.scratch);
	return rc;
}
