/*
 * hermes_session.c - Hermes's session objects, as all three Hermes backends
 * (SQLite store, export file, dashboard) see them: a session row's summary
 * (struct txc_session_info) and an export object split into t->native, and the
 * ops they share: the model built from the rows, a load's rows replayed as a stream.
 */
#include <math.h>

#include "hermes_source.h"
#include "txc/lineage.h"

/* a text value */
static struct txc_str text_of(const struct txc_json *v)
{
	return v != NULL && v->kind == TXC_JSON_STRING ? v->s : TXC_STR_NULL;
}

/* a text value, or an integer's digits (what a listing shows) */
static struct txc_str shown_of(const struct txc_json *v)
{
	return v != NULL && (v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_INT) ? v->s : TXC_STR_NULL;
}

static double time_of(const struct txc_json *v)
{
	double x;
	return txc_json_number(v, &x) ? x : NAN;
}

void txc_source_info_of(const struct txc_source_fields *f, const struct txc_json *native, struct txc_session_info *info)
{
	info->title = text_of(f->title);
	info->cwd = text_of(f->cwd);
	info->source = shown_of(f->source);
	info->model = shown_of(f->model);
	info->n_messages = shown_of(f->n_messages);
	info->started = time_of(f->started);
	info->last_active = time_of(f->last_active);
	info->archived = txc_hermes_archived(f->archived);
	info->native = native;
	info->fingerprint = TXC_STR_NULL; /* a backend that can tell sets it after */
	info->preview = TXC_STR_NULL;     /* likewise */
}

void txc_source_info(const struct txc_json *row, struct txc_session_info *info)
{
	const struct txc_source_fields f = {
		.title = txc_json_get(row, "title"),
		.cwd = txc_json_get(row, "cwd"),
		.source = txc_json_get(row, "source"),
		.model = txc_json_get(row, "model"),
		.n_messages = txc_json_get(row, "message_count"),
		.started = txc_json_get(row, "started_at"),
		.last_active = txc_json_get(row, "last_active"),
		.archived = txc_json_get(row, "archived"),
	};
	txc_source_info_of(&f, row, info);
}

/* a model_config marker that is set: present and not null (the column holds JSON text, an export may hold an object) */
static bool marker(struct txc_arena *a, const struct txc_json *cfg, const char *key)
{
	if (cfg != NULL && cfg->kind == TXC_JSON_STRING && txc_json_parse(a, cfg->s.ptr, cfg->s.len, &cfg) != 0)
		return false;
	const struct txc_json *v = cfg != NULL && cfg->kind == TXC_JSON_OBJECT ? txc_json_get(cfg, key) : NULL;
	return v != NULL && v->kind != TXC_JSON_NULL;
}

void txc_source_link(struct txc_arena *a, const struct txc_json *row, struct txc_link *l)
{
	const struct txc_json *cfg = txc_json_get(row, "model_config");
	struct txc_str source = text_of(txc_json_get(row, "source"));
	l->parent = shown_of(txc_json_get(row, "parent_session_id"));
	if (l->parent.len == 0)
		l->parent = TXC_STR_NULL; /* "" names no session */
	l->end_reason = text_of(txc_json_get(row, "end_reason"));
	l->title = text_of(txc_json_get(row, "title"));
	l->started = time_of(txc_json_get(row, "started_at"));
	l->ended = time_of(txc_json_get(row, "ended_at"));
	l->last_active = time_of(txc_json_get(row, "last_activity_at"));
	l->branch = marker(a, cfg, "_branched_from");
	l->delegate = marker(a, cfg, "_delegate_from") || txc_str_eq(source, "subagent");
	l->tool = txc_str_eq(source, "tool");
}

int txc_source_infos(struct txc_arena *a, const struct txc_json *rows, struct txc_session_info **out, size_t *n)
{
	struct txc_session_info *v = txc_arena_array(a, rows->n ? rows->n : 1, sizeof(*v));
	for (size_t i = 0; i < rows->n; i++) {
		txc_source_info(rows->items[i], &v[i]);
		v[i].sid =
			txc_source_sid(a, txc_json_get(rows->items[i], "id"), true, (int64_t)i + 1); /* 1: the first */
	}
	*out = v;
	*n = rows->n;
	return TXC_OK;
}

void txc_source_split(struct txc_transcript *t, const struct txc_json *obj)
{
	struct txc_hermes_native *nv = txc_hermes_native(t);
	struct txc_json *sess = txc_json_object(t->arena, obj->n);
	nv->rows = NULL;
	/* "timings" after the messages: Hermes 0.21 wrote it (--hermes-format auto), and its keys derived
	 * from the columns are not columns; a writer makes them again */
	nv->newer = txc_json_get(obj, "timings") != NULL;
	for (size_t i = 0; i < obj->n; i++) {
		struct txc_str k = obj->keys[i];
		if (txc_str_eq(k, "messages")) /* not a column, whatever it holds */
			nv->rows = obj->items[i]->kind == TXC_JSON_ARRAY ? obj->items[i] : NULL;
		else if (txc_str_eq(k, "last_active"))
			nv->last_active = obj->items[i];
		else if (!(nv->newer && (txc_str_eq(k, "timings") || txc_str_eq(k, "_reset_from") ||
					 txc_str_eq(k, "_branched_from"))))
			txc_json_put(sess, k, obj->items[i]);
	}
	if (nv->rows == NULL)
		nv->rows = txc_json_array(t->arena, 0);
	nv->session = sess;
}

void txc_hermes_build(struct txc_transcript *t)
{
	if (t->native != NULL)
		txc_model_from_hermes(t);
}

void txc_hermes_placed(struct txc_transcript *t, const struct txc_session_info *info, unsigned flags)
{
	struct txc_hermes_native *nv = txc_hermes_native(t);
	if (!(flags & TXC_LOAD_LAST_ACTIVE))
		nv->last_active = NULL;
	else if (nv->last_active == NULL && txc_json_get(info->native, "last_active") != NULL)
		nv->last_active = txc_json_copy(t->arena, txc_json_get(info->native, "last_active"));
}

int txc_hermes_replay(struct txc_transcript *t, const struct txc_row_sink *sink)
{
	struct txc_hermes_native *nv = txc_hermes_native(t);
	const struct txc_json *rows = nv->rows;
	nv->rows = txc_json_array(t->arena, 0); /* the head sees the session without its rows */
	int rc = sink->head(sink->ctx, t);
	for (size_t i = 0; rc == TXC_OK && rows != NULL && i < rows->n; i++)
		rc = sink->row(sink->ctx, rows->items[i]);
	return rc;
}
