/*
 * store.c - the store façade over one backend (source.h): session identity
 * and repeated ids, listing order, naming a session by a prefix, finding a
 * session's place, the model from t->native, streams replayed from a load.
 *
 * Backends only list and load; everything every source must do alike is
 * here, once, so that every command works on every source the same way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "txc/lineage.h"
#include "txc/search.h"

struct txc_store {
	const struct txc_source_ops *ops;
	void *impl; /* owned: ops->close(impl) on txc_store_close() */
	char *name; /* path or URL, for messages */
};

struct txc_store *txc_store_new(const struct txc_source_ops *ops, void *impl, const char *name)
{
	struct txc_store *s = txc_xcalloc(1, sizeof(*s));
	s->ops = ops;
	s->impl = impl;
	s->name = txc_xstrdup(name);
	return s;
}

void txc_store_close(struct txc_store *s)
{
	if (s == NULL)
		return;
	s->ops->close(s->impl);
	free(s->name);
	free(s);
}

const char *txc_store_note(const struct txc_store *s)
{
	return s->ops->note != NULL ? s->ops->note(s->impl) : NULL;
}

const char *txc_store_path(const struct txc_store *s)
{
	return s->name;
}

const char *txc_store_file(const struct txc_store *s, size_t i)
{
	return s->ops->file != NULL ? s->ops->file(s->impl, i) : NULL;
}

unsigned txc_store_caps(const struct txc_store *s)
{
	return s->ops->caps;
}

const char *txc_store_kind(const struct txc_store *s)
{
	return s->ops->name;
}

/* ---- session identity (model.h: struct txc_sid) ---- */

struct txc_sid txc_source_sid(struct txc_arena *a, const struct txc_json *v, bool placed, int64_t pos)
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

/* a sid to number, with its sort key copied in (qsort has no context) */
struct repeat {
	struct txc_str text;
	int64_t pos;
	size_t i;
	struct txc_sid *sid;
};

static int cmp_repeat(const void *pa, const void *pb)
{
	const struct repeat *x = pa, *y = pb;
	int c = cmp_bytes(x->text, y->text);
	if (c)
		return c;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* whether one of the n original texts (sorted) is t */
static bool name_taken(const struct repeat *r, size_t n, struct txc_str t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_bytes(r[mid].text, t);
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* eight bytes a step: ids are tens of bytes */
static uint64_t text_hash(struct txc_str t)
{
	uint64_t h = 0xcbf29ce484222325u ^ t.len, w;
	size_t i = 0;
	for (; i + 8 <= t.len; i += 8) {
		memcpy(&w, t.ptr + i, 8);
		h = (h ^ w) * 0x9E3779B97F4A7C15u;
		h ^= h >> 29;
	}
	w = 0;
	if (t.len > i)
		memcpy(&w, t.ptr + i, t.len - i);
	h = (h ^ w) * 0x9E3779B97F4A7C15u;
	return h ^ (h >> 32);
}

/* Whether two of the n sids (stride bytes apart) share a text: a hash set, not a sort. */
static bool any_repeat(const struct txc_sid *first, size_t n, size_t stride)
{
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	const struct txc_sid **set = txc_xcalloc(cap, sizeof(*set));
	bool found = false;
	for (size_t i = 0; i < n && !found; i++) {
		const struct txc_sid *sid = (const struct txc_sid *)((const char *)first + i * stride);
		size_t k = (size_t)text_hash(sid->text) & (cap - 1);
		for (; set[k] != NULL && !found; k = (k + 1) & (cap - 1))
			found = cmp_bytes(set[k]->text, sid->text) == 0;
		set[k] = sid;
	}
	free(set);
	return found;
}

/*
 * Identity texts name sessions on the command line, so they must differ
 * whatever the ids' types: of the sessions sharing one (a repeated id, or
 * 1 and "1"), the first in the source keeps it and the later ones become
 * "ID~2", "ID~3", ... (kind TXC_ID_DUP).  The sids sit stride bytes apart.
 */
static void number_repeats(struct txc_arena *a, struct txc_sid *first, size_t n, size_t stride)
{
	if (!any_repeat(first, n, stride))
		return; /* the common case: nothing to number, no sort */
	struct repeat *r = txc_xmalloc(n * sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		struct txc_sid *sid = (struct txc_sid *)((char *)first + i * stride);
		r[i] = (struct repeat){sid->text, sid->pos, i, sid};
	}
	qsort(r, n, sizeof(*r), cmp_repeat);
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 1, run = 0, k = 1; i < n; i++) {
		run = cmp_bytes(r[i - run - 1].text, r[i].text) == 0 ? run + 1 : 0;
		if (run == 0) {
			k = 1;
			continue;
		}
		/* the next "ID~k" no session has as its own id ("dup~2" may be one) */
		struct txc_sid *q = r[i].sid;
		do {
			txc_buf_reset(&b);
			txc_buf_add(&b, r[i].text.ptr, r[i].text.len);
			txc_buf_addf(&b, "~%zu", ++k);
		} while (name_taken(r, n, (struct txc_str){b.buf, b.len}));
		q->text = txc_arena_str(a, b.buf, b.len);
		q->kind = TXC_ID_DUP;
	}
	txc_buf_release(&b);
	free(r);
}

static struct txc_sid sid_dup(const struct txc_sid *id)
{
	struct txc_sid c = *id;
	c.text.ptr = txc_xstrndup(id->text.ptr, id->text.len);
	return c;
}

void txc_sid_release(struct txc_sid *id)
{
	free((char *)id->text.ptr);
	id->text = TXC_STR_NULL;
}

void txc_store_free_ids(struct txc_sid *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		txc_sid_release(&ids[i]);
	free(ids);
}

/* ---- listings ---- */

/* Every session of the source, repeats numbered (in arena a). */
static int all_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, struct txc_session_info **v,
			size_t *n, struct txc_diag *d)
{
	int rc = s->ops->sessions(s->impl, flags, a, v, n, d);
	if (rc == TXC_OK)
		number_repeats(a, &(*v)[0].sid, *n, sizeof(**v));
	return rc;
}

/* a listing's element with its sort keys computed once (qsort has no context) */
struct ranked {
	double k[2]; /* descending; -1e300 when unknown */
	struct txc_str text;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	for (int j = 0; j < 2; j++)
		if (a->k[j] != b->k[j])
			return a->k[j] > b->k[j] ? -1 : 1;
	int c = -cmp_bytes(a->text, b->text);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

static double key_of(double x)
{
	return isnan(x) ? -1e300 : x;
}

/* Newest first: by start (by_last: by last activity, then start), then id descending; in place. */
static void sort_sessions(struct txc_session_info *v, size_t n, bool by_last)
{
	struct ranked *r = txc_xmalloc(n * sizeof(*r));
	struct txc_session_info *c = txc_xmalloc(n * sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		double started = key_of(v[i].started);
		r[i] = (struct ranked){
			{by_last ? key_of(v[i].last_active) : started, by_last ? started : 0}, v[i].sid.text, i};
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < n; i++)
		c[i] = v[r[i].i];
	if (n)
		memcpy(v, c, n * sizeof(*v));
	free(c);
	free(r);
}

/* Every session in listing order (newest first), repeats numbered. */
static int listing(struct txc_store *s, unsigned flags, struct txc_arena *a, struct txc_session_info **v, size_t *n,
		   struct txc_diag *d)
{
	int rc = all_sessions(s, flags, a, v, n, d);
	if (rc == TXC_OK && !(s->ops->caps & TXC_SRC_ORDERED))
		sort_sessions(*v, *n, false);
	return rc;
}

int txc_store_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_session_info **out,
		       size_t *n, struct txc_diag *d)
{
	struct txc_session_info *v;
	size_t count, kept = 0;
	int rc = listing(s, flags, a, &v, &count, d);
	if (rc)
		return rc;
	for (size_t i = 0; i < count; i++)
		if ((flags & TXC_LIST_ARCHIVED) || !v[i].archived)
			v[kept++] = v[i];
	*out = v;
	*n = kept;
	return TXC_OK;
}

int txc_store_links(struct txc_store *s, struct txc_arena *a, struct txc_link **out, size_t *n, struct txc_diag *d)
{
	struct txc_session_info *v;
	int rc = all_sessions(s, TXC_LIST_ARCHIVED, a, &v, n, d);
	if (rc)
		return rc;
	struct txc_link *l = txc_arena_array(a, *n ? *n : 1, sizeof(*l));
	for (size_t i = 0; i < *n; i++) {
		txc_source_link(a, v[i].native, &l[i]);
		l[i].sid = v[i].sid;
		l[i].id = v[i].sid.text;
	}
	*out = l;
	return TXC_OK;
}

int txc_store_export_order(struct txc_store *s, struct txc_sid **ids, size_t *n, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	struct txc_session_info *v = NULL;
	struct txc_sid *sids = NULL;
	int rc;
	if (s->ops->caps & TXC_SRC_EXPORT_ORDER) {
		rc = s->ops->export_order(s->impl, a, &sids, n, d);
		if (rc == TXC_OK)
			number_repeats(a, sids, *n, sizeof(*sids));
	} else {
		rc = all_sessions(s, TXC_LIST_ARCHIVED | TXC_LIST_LAST_ACTIVE, a, &v, n, d);
		if (rc == TXC_OK)
			sort_sessions(v, *n, true);
	}
	if (rc == TXC_OK) {
		*ids = txc_xmalloc((*n ? *n : 1) * sizeof(**ids));
		for (size_t i = 0; i < *n; i++)
			(*ids)[i] = sid_dup(v != NULL ? &v[i].sid : &sids[i]);
	}
	txc_arena_free(a);
	return rc;
}

/* ---- naming a session: exact id, else a unique prefix ---- */

struct prefix_match {
	const char *arg;
	size_t alen, matches, hlen;
	struct txc_sid found; /* text malloc'd */
	struct txc_diag *d;
};

static void match_begin(struct prefix_match *m, const char *arg, struct txc_diag *d)
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
static bool match_offer(struct prefix_match *m, const struct txc_sid *id)
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
		m->hlen +=
			(size_t)snprintf(m->d->hint + m->hlen, sizeof(m->d->hint) - m->hlen, "  %.*s\n", (int)vlen, v);
	return true;
}

static int match_end(struct prefix_match *m, const char *where, struct txc_sid *id)
{
	struct txc_diag *d = m->d;
	if (m->matches == 0) {
		d->hint[0] = '\0';
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in '%s'", m->arg, where);
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

int txc_store_resolve(struct txc_store *s, const char *arg, struct txc_sid *id, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	struct txc_session_info *v;
	size_t n;
	int rc = listing(s, TXC_LIST_ARCHIVED | TXC_LIST_IDS_ONLY, a, &v, &n, d);
	if (rc) {
		txc_arena_free(a);
		return rc;
	}
	struct prefix_match m;
	match_begin(&m, arg, d);
	for (size_t i = 0; i < n && match_offer(&m, &v[i].sid); i++)
		;
	txc_arena_free(a);
	return match_end(&m, s->name, id);
}

/* ---- loading ---- */

/* Where the session id names sits in the backend's list: its place, or found by identity text. */
static int place_of(struct txc_store *s, const struct txc_sid *id, struct txc_arena *a,
		    const struct txc_session_info **info, size_t *index, struct txc_diag *d)
{
	struct txc_session_info *v;
	size_t n;
	int rc = all_sessions(s, TXC_LIST_ARCHIVED, a, &v, &n, d);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (id->placed ? (int64_t)i + 1 == id->pos : cmp_bytes(v[i].sid.text, id->text) == 0) {
			*index = i;
			*info = &v[i];
			return TXC_OK;
		}
	}
	txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s'", (int)id->text.len, id->text.ptr, s->name);
	return TXC_E_NOTFOUND;
}

/* A backend that loads by place: the session at its place; a dashboard's export has no last_active, its list does. */
static int load_placed(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		       struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *info;
	size_t index;
	int rc = place_of(s, id, a, &info, &index, d);
	if (rc == TXC_OK)
		rc = s->ops->load_at(s->impl, index, t, d);
	if (rc == TXC_OK) {
		struct txc_hermes_native *nv = txc_hermes_native(t);
		if (!(flags & TXC_LOAD_LAST_ACTIVE))
			nv->last_active = NULL;
		else if (nv->last_active == NULL && txc_json_get(info->native, "last_active") != NULL)
			nv->last_active = txc_json_copy(t->arena, txc_json_get(info->native, "last_active"));
	}
	txc_arena_free(a);
	return rc;
}

/* The session as its backend gives it: t->native, perhaps messages. */
static int load_native(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		       struct txc_diag *d)
{
	if (s->ops->load != NULL)
		return s->ops->load(s->impl, id, flags, out, d);
	struct txc_transcript *t = txc_transcript_new();
	int rc = load_placed(s, id, flags, t, d);
	if (rc) {
		txc_transcript_free(t);
		return rc;
	}
	*out = t;
	return TXC_OK;
}

/* The transcript is named by the identity it was loaded by, not by its raw id. */
static void name_transcript(struct txc_transcript *t, const struct txc_sid *id)
{
	t->meta.id_kind = id->kind;
	t->meta.id = txc_arena_str(t->arena, id->text.ptr ? id->text.ptr : "", id->text.len);
}

int txc_store_load(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d)
{
	struct txc_transcript *t;
	int rc = load_native(s, id, flags, &t, d);
	if (rc)
		return rc;
	if (t->messages == NULL && t->native != NULL) /* not built while reading */
		txc_model_from_hermes(t);
	name_transcript(t, id);
	*out = t;
	return TXC_OK;
}

int txc_store_load_after(struct txc_store *s, const struct txc_sid *id, int64_t after, unsigned flags,
			 struct txc_transcript **out, int64_t *last, struct txc_diag *d)
{
	if (s->ops->load_after == NULL) {
		txc_diag_set(d, TXC_E_USAGE, "cannot follow '%s': only a Hermes store (state.db) can be followed",
			     s->name);
		return TXC_E_USAGE;
	}
	struct txc_transcript *t;
	int rc = s->ops->load_after(s->impl, id, after, flags, &t, last, d);
	if (rc)
		return rc;
	if (t->messages == NULL && t->native != NULL) /* not built while reading */
		txc_model_from_hermes(t);
	name_transcript(t, id);
	*out = t;
	return TXC_OK;
}

int txc_store_stream(struct txc_store *s, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
		     struct txc_diag *d)
{
	if (s->ops->caps & TXC_SRC_STREAM)
		return s->ops->stream(s->impl, id, flags, sink, d);
	struct txc_transcript *t;
	int rc = load_native(s, id, flags & ~(unsigned)TXC_LOAD_MODEL_ONLY, &t, d);
	if (rc)
		return rc;
	struct txc_hermes_native *nv = txc_hermes_native(t);
	const struct txc_json *rows = nv->rows;
	name_transcript(t, id);
	nv->rows = txc_json_array(t->arena, 0);
	rc = sink->head(sink->ctx, t);
	for (size_t i = 0; rc == TXC_OK && rows != NULL && i < rows->n; i++)
		rc = sink->row(sink->ctx, rows->items[i]);
	txc_transcript_free(t);
	return rc;
}

/* ---- search ---- */

/* The selected sessions, sorted by how a backend names them (place, else identity text). */
struct chosen {
	const struct txc_session_info *const *v;
	size_t *order, n;
};

static int cmp_sid(const struct txc_sid *a, const struct txc_sid *b)
{
	if (a->placed != b->placed)
		return a->placed ? -1 : 1;
	if (a->placed)
		return (a->pos > b->pos) - (a->pos < b->pos);
	return cmp_bytes(a->text, b->text);
}

/* qsort has no context: the array being sorted (one search at a time) */
static const struct txc_session_info *const *sort_ctx;

static int cmp_chosen(const void *pa, const void *pb)
{
	const size_t *a = pa, *b = pb;
	return cmp_sid(&sort_ctx[*a]->sid, &sort_ctx[*b]->sid);
}

/* A session named by its place, or (a backend that names hits by id alone) by identity text. */
static const struct txc_session_info *chosen_find(const struct chosen *c, const struct txc_sid *id)
{
	if (!id->placed) {
		for (size_t i = 0; i < c->n; i++)
			if (cmp_bytes(c->v[i]->sid.text, id->text) == 0)
				return c->v[i];
		return NULL;
	}
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int k = cmp_sid(&c->v[c->order[mid]]->sid, id);
		if (k == 0)
			return c->v[c->order[mid]];
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct search_ctx {
	const struct chosen *c;
	const struct txc_hit_sink *sink;
	/* the scan: */
	const struct txc_query *q;
	const struct txc_search_opts *o;
	const struct txc_session_info *session;
	size_t n_messages; /* of the session being scanned, so far: message numbers */
	bool stopped;      /* the sink had enough (its limit): no error */
	struct txc_arena *scratch;
	struct txc_buf text[2];
};

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

/* A backend's hit: kept when its session is selected. */
static int chosen_hit(void *ctx, const struct txc_hit *h)
{
	struct search_ctx *x = ctx;
	struct txc_hit k = *h;
	k.session = chosen_find(x->c, &h->sid);
	if (k.session == NULL)
		return 0;
	return x->sink->hit(x->sink->ctx, &k);
}

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
	struct search_ctx *x = ctx;
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

/* No index: every selected session's rows, read one at a time (sessions in listing order, rows in order). */
static int scan_sessions(struct txc_store *s, struct search_ctx *x, const struct txc_session_info *const *sel, size_t n,
			 struct txc_search_info *info, struct txc_diag *d)
{
	snprintf(info->index, sizeof(info->index), "scan");
	snprintf(info->how, sizeof(info->how), "%s has no full-text index: every selected session's rows were read",
		 s->ops->name);
	info->complete = true;
	struct txc_row_sink rs = {scan_head, scan_row, x};
	unsigned flags = TXC_LOAD_COMPACTED;
	int rc = TXC_OK;
	for (size_t i = 0; i < n && rc == TXC_OK; i++) {
		x->session = sel[i];
		x->n_messages = 0;
		rc = txc_store_stream(s, &sel[i]->sid, flags, &rs, d);
	}
	return x->stopped ? TXC_OK : rc;
}

int txc_store_search(struct txc_store *s, const struct txc_query *q, const struct txc_search_opts *o,
		     const struct txc_session_info *const *sel, size_t n, const struct txc_hit_sink *sink,
		     struct txc_search_info *info, struct txc_diag *d)
{
	memset(info, 0, sizeof(*info));
	struct chosen c = {sel, txc_xmalloc(n * sizeof(size_t)), n};
	for (size_t i = 0; i < n; i++)
		c.order[i] = i;
	sort_ctx = sel;
	qsort(c.order, n, sizeof(size_t), cmp_chosen);
	struct search_ctx x = {.c = &c,
			       .sink = sink,
			       .q = q,
			       .o = o,
			       .text = {TXC_BUF_INIT, TXC_BUF_INIT},
			       .scratch = txc_arena_new(0)};
	int rc;
	if (s->ops->search != NULL) {
		struct txc_hit_sink mine = {chosen_hit, &x};
		rc = s->ops->search(s->impl, q, o, &mine, info, d);
	} else {
		rc = scan_sessions(s, &x, sel, n, info, d);
	}
	txc_buf_release(&x.text[0]);
	txc_buf_release(&x.text[1]);
	txc_arena_free(x.scratch);
	free(c.order);
	return rc;
}
