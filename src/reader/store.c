/*
 * store.c - what every store shares: session identity, naming a session by
 * a prefix, and stores that are JSON sources (source.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hermes_db.h"

/* ---- session identity (model.h: struct txc_sid) ---- */

/* The identity of the session whose id is v, at place pos of its source (in arena a). */
struct txc_sid make_sid(struct txc_arena *a, const struct txc_json *v, bool placed, int64_t pos)
{
	struct txc_sid id = {.placed = placed, .pos = pos};
	txc_model_id(a, v, &id.kind, &id.text);
	if (id.kind == TXC_ID_NONE) {
		struct txc_buf b = TXC_BUF_INIT;
		if (placed)
			txc_buf_addf(&b, "no-id~%lld", (long long)pos);
		else
			txc_buf_addstr(&b, "no-id");
		id.text = txc_arena_str(a, b.buf, b.len);
		txc_buf_release(&b);
	}
	return id;
}

static int cmp_bytes(struct txc_str a, struct txc_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
	return c ? c : (a.len > b.len) - (a.len < b.len);
}

static const struct txc_sid *repeat_sids; /* qsort has no context */

static int cmp_repeat(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct txc_sid *x = &repeat_sids[a], *y = &repeat_sids[b];
	int c = cmp_bytes(x->text, y->text);
	if (c)
		return c;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return (a > b) - (a < b);
}

/*
 * Identity texts name sessions on the command line, so they must differ
 * whatever the ids' types: of the sessions sharing one (a repeated id, or
 * 1 and "1"), the first in the source keeps it and the later ones become
 * "ID~2", "ID~3", ... (kind TXC_ID_DUP).
 */
void number_repeats(struct txc_arena *a, struct txc_sid *v, size_t n)
{
	size_t *ix = txc_xmalloc((n ? n : 1) * sizeof(*ix));
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	repeat_sids = v;
	qsort(ix, n, sizeof(*ix), cmp_repeat);
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 1, run = 0; i < n; i++) {
		const struct txc_sid *first = &v[ix[i - run - 1]];
		run = cmp_bytes(first->text, v[ix[i]].text) == 0 ? run + 1 : 0;
		if (run == 0)
			continue;
		struct txc_sid *q = &v[ix[i]];
		txc_buf_reset(&b);
		txc_buf_add(&b, q->text.ptr, q->text.len);
		txc_buf_addf(&b, "~%zu", run + 1);
		q->text = txc_arena_str(a, b.buf, b.len);
		q->kind = TXC_ID_DUP;
	}
	txc_buf_release(&b);
	free(ix);
}

/* ", <rowid>, <archived>" after a SELECT list over sessions s: a row's place and whether it is archived */
/* ---- naming a session: exact id, else a unique prefix ---- */

void match_begin(struct prefix_match *m, const char *arg, struct txc_diag *d)
{
	memset(m, 0, sizeof(*m));
	m->arg = arg;
	m->alen = strlen(arg);
	m->d = d;
	d->hint[0] = '\0';
}

static void match_keep(struct prefix_match *m, const struct txc_sid *id)
{
	free((char *)m->found.text.ptr);
	m->found = *id;
	m->found.text.ptr = txc_xstrndup(id->text.ptr, id->text.len);
}

/* false once an exact match ends the search */
bool match_offer(struct prefix_match *m, const struct txc_sid *id)
{
	const char *v = id->text.ptr;
	size_t vlen = id->text.len;
	if (v == NULL || vlen < m->alen || memcmp(v, m->arg, m->alen) != 0)
		return true;
	if (vlen == m->alen) { /* exact match wins over any prefix */
		match_keep(m, id);
		m->matches = 1;
		return false;
	}
	if (m->matches++ == 0)
		match_keep(m, id);
	if (m->matches <= 10 && m->hlen + vlen + 4 < sizeof(m->d->hint))
		m->hlen += (size_t)snprintf(m->d->hint + m->hlen, sizeof(m->d->hint) - m->hlen, "  %.*s\n", (int)vlen, v);
	return true;
}

int match_end(struct prefix_match *m, const char *where, struct txc_sid *id)
{
	struct txc_diag *d = m->d;
	if (m->matches == 0) {
		d->hint[0] = '\0';
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in '%s' (see 'txc list')", m->arg, where);
		return TXC_E_NOTFOUND;
	}
	if (m->matches > 1) {
		free((char *)m->found.text.ptr);
		if (m->matches > 10)
			snprintf(d->hint + m->hlen, sizeof(d->hint) - m->hlen, "  ...and %zu more\n", m->matches - 10);
		txc_diag_set(d, TXC_E_AMBIGUOUS, "'%s' is the prefix of %zu sessions; add characters:", m->arg,
			     m->matches);
		return TXC_E_AMBIGUOUS;
	}
	d->hint[0] = '\0';
	*id = m->found;
	return TXC_OK;
}

void txc_sid_release(struct txc_sid *id)
{
	free((char *)id->text.ptr);
	id->text = TXC_STR_NULL;
}

/* ---- stores that are JSON sources (source.h) ---- */

int txc_store_from_source(struct txc_store **out, const char *name, const struct txc_source *src)
{
	struct txc_store *s = txc_xcalloc(1, sizeof(*s));
	s->src = *src;
	s->path = txc_xstrdup(name);
	*out = s;
	return TXC_OK;
}

static double src_num(const struct txc_json *row, const char *key)
{
	const struct txc_json *v = txc_json_get(row, key);
	if (v != NULL && v->kind == TXC_JSON_REAL)
		return v->d;
	if (v != NULL && v->kind == TXC_JSON_INT)
		return strtod(v->s.ptr, NULL);
	return -1e300;
}

/* qsort has no context: the listing being sorted */
static struct {
	const struct txc_json *all;
	const struct txc_sid *sids;
	int key; /* 0 started_at, 1 last_active */
} src_sort;

static int src_cmp(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct txc_json *a = src_sort.all->items[ia], *b = src_sort.all->items[ib];
	if (src_sort.key) {
		double x = src_num(a, "last_active"), y = src_num(b, "last_active");
		if (x != y)
			return x > y ? -1 : 1;
	}
	double x = src_num(a, "started_at"), y = src_num(b, "started_at");
	if (x != y)
		return x > y ? -1 : 1;
	int c = -cmp_bytes(src_sort.sids[ia].text, src_sort.sids[ib].text);
	return c ? c : (ia > ib) - (ia < ib);
}

static bool src_archived(const struct txc_json *row)
{
	const struct txc_json *v = txc_json_get(row, "archived");
	return v != NULL && txc_json_truthy(v);
}

/* Every session of the source in its own order, with its identity (in arena a). */
static int src_all(struct txc_store *s, struct txc_arena *a, const struct txc_json **all, const struct txc_sid **sids,
		   struct txc_diag *d)
{
	int rc = s->src.sessions(s->src.impl, a, all, d);
	if (rc)
		return rc;
	size_t n = (*all)->n;
	struct txc_sid *v = txc_arena_array(a, n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = make_sid(a, txc_json_get((*all)->items[i], "id"), true, (int64_t)i + 1); /* 1: the first */
	number_repeats(a, v, n);
	*sids = v;
	return TXC_OK;
}

/* The places of the sessions wanted (archived ones or not), sorted by key; in arena a. */
static int src_sorted(struct txc_store *s, int key, bool archived, struct txc_arena *a, const struct txc_json **all,
		      const struct txc_sid **sids, size_t **order, size_t *n, struct txc_diag *d)
{
	int rc = src_all(s, a, all, sids, d);
	if (rc)
		return rc;
	size_t *v = txc_arena_array(a, (*all)->n ? (*all)->n : 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < (*all)->n; i++)
		if (archived || !src_archived((*all)->items[i]))
			v[(*n)++] = i;
	src_sort.all = *all, src_sort.sids = *sids, src_sort.key = key;
	qsort(v, *n, sizeof(*v), src_cmp);
	*order = v;
	return TXC_OK;
}

int src_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_json **out,
			const struct txc_sid **sids_out, struct txc_diag *d)
{
	const struct txc_json *all;
	const struct txc_sid *sids;
	size_t *order, n;
	int rc = src_sorted(s, 0, flags & TXC_LIST_ARCHIVED, a, &all, &sids, &order, &n, d);
	if (rc)
		return rc;
	struct txc_json *v = txc_json_array(a, n);
	struct txc_sid *w = txc_arena_array(a, n ? n : 1, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		txc_json_push(v, all->items[order[i]]);
		w[i] = sids[order[i]];
	}
	*out = v;
	*sids_out = w;
	return TXC_OK;
}

struct txc_sid sid_dup(const struct txc_sid *id)
{
	struct txc_sid c = *id;
	c.text.ptr = txc_xstrndup(id->text.ptr, id->text.len);
	return c;
}

int src_export_order(struct txc_store *s, struct txc_sid **ids, size_t *n, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *all;
	const struct txc_sid *sids;
	size_t *order;
	int rc = src_sorted(s, 1, true, a, &all, &sids, &order, n, d);
	if (rc == TXC_OK) {
		*ids = txc_xmalloc((*n ? *n : 1) * sizeof(**ids));
		for (size_t i = 0; i < *n; i++)
			(*ids)[i] = sid_dup(&sids[order[i]]);
	}
	txc_arena_free(a);
	return rc;
}

int src_resolve(struct txc_store *s, const char *arg, struct txc_sid *id, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *all;
	const struct txc_sid *sids;
	size_t *order, n;
	int rc = src_sorted(s, 0, true, a, &all, &sids, &order, &n, d);
	if (rc) {
		txc_arena_free(a);
		return rc;
	}
	struct prefix_match m;
	match_begin(&m, arg, d);
	for (size_t i = 0; i < n; i++)
		if (!match_offer(&m, &sids[order[i]]))
			break;
	txc_arena_free(a);
	return match_end(&m, s->path, id);
}

/* Where the session id names sits in the source's list: its place, or found by identity text. */
static int src_place(struct txc_store *s, const struct txc_sid *id, size_t *index, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *all;
	const struct txc_sid *sids;
	int rc = src_all(s, a, &all, &sids, d);
	if (rc == TXC_OK) {
		rc = TXC_E_NOTFOUND;
		for (size_t i = 0; i < all->n && rc != TXC_OK; i++)
			if (id->placed ? (int64_t)i + 1 == id->pos : cmp_bytes(sids[i].text, id->text) == 0)
				*index = i, rc = TXC_OK;
		if (rc != TXC_OK)
			txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s'", (int)id->text.len, id->text.ptr,
				     s->path);
	}
	txc_arena_free(a);
	return rc;
}

void txc_source_split(struct txc_transcript *t, const struct txc_json *obj)
{
	struct txc_hermes_native *nv = txc_hermes_native(t);
	struct txc_json *sess = txc_json_object(t->arena, obj->n);
	nv->rows = NULL;
	for (size_t i = 0; i < obj->n; i++) {
		if (txc_str_eq(obj->keys[i], "messages") && obj->items[i]->kind == TXC_JSON_ARRAY)
			nv->rows = obj->items[i];
		else if (txc_str_eq(obj->keys[i], "last_active"))
			nv->last_active = obj->items[i];
		else
			txc_json_put(sess, obj->keys[i], obj->items[i]);
	}
	if (nv->rows == NULL)
		nv->rows = txc_json_array(t->arena, 0);
	nv->session = sess;
}

/* a dashboard's export has no last_active; its session list does */
static void src_fill_last_active(struct txc_store *s, size_t index, struct txc_transcript *t)
{
	const struct txc_json *all;
	struct txc_diag d = {0};
	struct txc_hermes_native *nv = txc_hermes_native(t);
	if (nv->last_active != NULL || s->src.sessions(s->src.impl, t->arena, &all, &d) != TXC_OK || index >= all->n)
		return;
	nv->last_active = txc_json_get(all->items[index], "last_active");
}

/* The transcript is named by the identity it was loaded by, not by its raw id. */
void name_transcript(struct txc_transcript *t, const struct txc_sid *id)
{
	t->meta.id_kind = id->kind;
	t->meta.id = txc_arena_str(t->arena, id->text.ptr ? id->text.ptr : "", id->text.len);
}

static int src_read(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		    struct txc_diag *d)
{
	size_t index;
	int rc = src_place(s, id, &index, d);
	if (rc == TXC_OK)
		rc = s->src.load(s->src.impl, index, t, d);
	if (rc == TXC_OK && (flags & TXC_LOAD_LAST_ACTIVE))
		src_fill_last_active(s, index, t);
	if (rc == TXC_OK && !(flags & TXC_LOAD_LAST_ACTIVE))
		txc_hermes_native(t)->last_active = NULL;
	return rc;
}

int src_load(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		    struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	int rc = src_read(s, id, flags, t, d);
	if (rc) {
		txc_transcript_free(t);
		return rc;
	}
	txc_model_from_hermes(t);
	name_transcript(t, id);
	*out = t;
	return TXC_OK;
}

int src_stream(struct txc_store *s, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
		      struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	int rc = src_read(s, id, flags, t, d);
	if (rc == TXC_OK) {
		const struct txc_json *rows = t->native->rows;
		name_transcript(t, id);
		t->native->rows = txc_json_array(t->arena, 0);
		rc = sink->head(sink->ctx, t);
		for (size_t i = 0; rc == TXC_OK && i < rows->n; i++)
			rc = sink->row(sink->ctx, rows->items[i]);
	}
	txc_transcript_free(t);
	return rc;
}

