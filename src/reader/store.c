/*
 * store.c - the store façade over one backend (source.h): session identity
 * and repeated ids, listing order, naming a session by a prefix, finding a
 * session's place, and a scan of the model for a search the backend does
 * not answer itself.
 *
 * Backends only list and load; everything every source must do alike is
 * here, once, so that every command works on every source the same way.
 * No harness's rows are read here: Hermes's replay and row scan are its
 * backends' ops (hermes_source.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "txc/lineage.h"
#include "txc/search.h"
#include "txc/strmap.h"

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

/* Whether two of the n sids (stride bytes apart) share a text: a hash set (util's), not a sort. */
static bool any_repeat(const struct txc_sid *first, size_t n, size_t stride)
{
	struct txc_strmap set = TXC_STRMAP_INIT;
	bool added = true;
	txc_strmap_reserve(&set, n);
	for (size_t i = 0; i < n && added; i++) {
		const struct txc_sid *sid = (const struct txc_sid *)((const char *)first + i * stride);
		txc_strmap_put(&set, sid->text.ptr, sid->text.len, &added);
	}
	txc_strmap_free(&set);
	return !added;
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
	/* (a backend's proof, after the read, spares the hash set of every id: 1.3 MiB on 14,000) */
	if (rc == TXC_OK && !(*n > 64 && s->ops->ids_plain != NULL && s->ops->ids_plain(s->impl)))
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
	/* TXC_LIST_NAMES: a backend may leave the order to this sort (reader.h) */
	if (rc == TXC_OK && (!(s->ops->caps & TXC_SRC_ORDERED) || (flags & TXC_LIST_NAMES)))
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

bool txc_store_names_plain(struct txc_store *s)
{
	return s->ops->search != NULL && s->ops->session != NULL && s->ops->ids_plain != NULL &&
	       s->ops->ids_plain(s->impl);
}

int txc_store_session(struct txc_store *s, const struct txc_sid *sid, unsigned flags, struct txc_arena *a,
		      const struct txc_session_info **out, struct txc_diag *d)
{
	struct txc_session_info *info = txc_arena_array(a, 1, sizeof(*info));
	int rc = s->ops->session != NULL ? s->ops->session(s->impl, sid, flags, a, info, d) : TXC_E_USAGE;
	if (rc == TXC_E_USAGE && s->ops->session == NULL)
		txc_diag_set(d, TXC_E_USAGE, "'%s' names no session without a listing", s->name);
	*out = rc == TXC_OK ? info : NULL;
	return rc;
}

/* A session's links from its summary alone: no parent, no end; a "subagent" source is a delegate. */
static void link_of(const struct txc_session_info *info, struct txc_link *l)
{
	memset(l, 0, sizeof(*l));
	l->title = info->title;
	l->started = info->started;
	l->ended = l->last_active = NAN;
	l->delegate = txc_str_eq(info->source, "subagent");
	l->tool = txc_str_eq(info->source, "tool");
}

int txc_store_links(struct txc_store *s, struct txc_arena *a, struct txc_link **out, size_t *n, struct txc_diag *d)
{
	struct txc_session_info *v;
	int rc = all_sessions(s, TXC_LIST_ARCHIVED, a, &v, n, d);
	if (rc)
		return rc;
	struct txc_link *l = txc_arena_array(a, *n ? *n : 1, sizeof(*l));
	for (size_t i = 0; i < *n; i++) {
		if (s->ops->link != NULL)
			s->ops->link(a, v[i].native, &l[i]);
		else
			link_of(&v[i], &l[i]);
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

/* A backend that loads by place: the session at its place, and what its listing adds (ops->placed). */
static int load_placed(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		       struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *info;
	size_t index;
	int rc = place_of(s, id, a, &info, &index, d);
	if (rc == TXC_OK)
		rc = s->ops->load_at(s->impl, index, t, d);
	if (rc == TXC_OK && s->ops->placed != NULL)
		s->ops->placed(t, info, flags);
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
	if (t->messages == NULL && s->ops->build != NULL) /* not built while reading */
		s->ops->build(t);
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
	if (t->messages == NULL && s->ops->build != NULL) /* not built while reading */
		s->ops->build(t);
	name_transcript(t, id);
	*out = t;
	return TXC_OK;
}

bool txc_store_has_rows(const struct txc_store *s)
{
	return (s->ops->caps & TXC_SRC_STREAM) || s->ops->replay != NULL;
}

int txc_store_stream(struct txc_store *s, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
		     struct txc_diag *d)
{
	if (s->ops->caps & TXC_SRC_STREAM)
		return s->ops->stream(s->impl, id, flags, sink, d);
	if (s->ops->replay == NULL) {
		txc_diag_set(d, TXC_E_USAGE, "'%s' has no rows to stream: load its model for the hermes writer",
			     s->name);
		return TXC_E_USAGE;
	}
	struct txc_transcript *t;
	int rc = load_native(s, id, flags & ~(unsigned)TXC_LOAD_MODEL_ONLY, &t, d);
	if (rc)
		return rc;
	name_transcript(t, id);
	rc = s->ops->replay(t, sink);
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

/* indexes into the selection (ctx), by their sessions' ids */
static int cmp_chosen(const void *pa, const void *pb, void *ctx)
{
	const size_t *a = pa, *b = pb;
	const struct txc_session_info *const *sel = ctx;
	return cmp_sid(&sel[*a]->sid, &sel[*b]->sid);
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
	const struct txc_chooser *ch; /* or this names the selected sessions */
	const struct txc_hit_sink *sink;
	/* the scan: */
	const struct txc_query *q;
	const struct txc_search_opts *o;
	bool stopped; /* the sink had enough (its limit): no error */
	struct txc_arena *scratch;
	struct txc_buf text[4];
};

/* A backend's hit: kept when its session is selected. */
static int chosen_hit(void *ctx, const struct txc_hit *h)
{
	struct search_ctx *x = ctx;
	struct txc_hit k = *h;
	k.session = x->ch != NULL ? x->ch->choose(x->ch->ctx, &h->sid) : chosen_find(x->c, &h->sid);
	if (k.session == NULL)
		return 0;
	return x->sink->hit(x->sink->ctx, &k);
}

/* The text of a message's blocks of one kind into b, one a line; TOOL_USE: inputs as compact JSON. */
static struct txc_str blocks_text(const struct txc_message *m, enum txc_block_kind kind, bool replayed,
				  struct txc_buf *b)
{
	txc_buf_reset(b);
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *k = &m->blocks[i];
		if (k->kind != kind || (kind == TXC_BLOCK_TEXT && k->replayed != replayed))
			continue;
		if (b->len)
			txc_buf_addch(b, '\n');
		if (kind == TXC_BLOCK_TOOL_USE && k->input != NULL)
			txc_json_emit(b, k->input, 0);
		else if (kind == TXC_BLOCK_TOOL_RESULT && k->output != NULL)
			txc_json_emit(b, k->output, 0);
		else
			txc_buf_add(b, kind == TXC_BLOCK_TOOL_RESULT ? k->output_text.ptr : k->text.ptr,
				    kind == TXC_BLOCK_TOOL_RESULT ? k->output_text.len : k->text.len);
	}
	return b->len ? (struct txc_str){b->buf, b->len} : TXC_STR_NULL;
}

/*
 * Whether a call or result is of the tool a person typed: the model's name (Claude Code's
 * convention: Read), the name its source wrote, or the Hermes name of either (read_file), so
 * that --tool takes both conventions over any harness, as the row scan took Hermes's.
 */
static bool tool_is(const struct txc_block *k, const char *tool)
{
	const char *h = txc_model_hermes_name(k->name), *typed = txc_model_hermes_name(txc_str_c(tool));
	return txc_str_eq(k->name, tool) || (k->source_name.ptr != NULL && txc_str_eq(k->source_name, tool)) ||
	       (h != NULL && strcmp(h, tool) == 0) || (typed != NULL && txc_str_eq(k->name, typed));
}

/* The first tool a message calls or answers (tool: only that one), or null. */
static struct txc_str tool_of(const struct txc_message *m, const char *tool)
{
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *k = &m->blocks[i];
		if ((k->kind == TXC_BLOCK_TOOL_USE || k->kind == TXC_BLOCK_TOOL_RESULT) && k->name.ptr != NULL &&
		    (tool == NULL || tool_is(k, tool)))
			return k->name;
	}
	return TXC_STR_NULL;
}

/*
 * One message of the model as a search sees it: its text and tool results (cols[0]), the tools
 * it calls or answers (cols[1]), their inputs (cols[2]) and its replayed text (cols[3]).  A user
 * message that only answers calls has the role "tool", as Hermes's rows would.
 */
static int model_match(struct search_ctx *x, const struct txc_session_info *session, const struct txc_message *m)
{
	/* a compacted message is out of the context, as Hermes marks its rows (active 0, compacted 1) */
	struct txc_hit h = {
		.session = session, .sid = session->sid, .active = !m->compacted, .compacted = m->compacted};
	struct txc_str text = blocks_text(m, TXC_BLOCK_TEXT, false, &x->text[0]);
	const char *role = m->role == TXC_ROLE_ASSISTANT              ? "assistant"
			   : text.ptr == NULL && tool_of(m, NULL).ptr ? "tool"
								      : "user";
	if (x->o->role && strcmp(role, x->o->role) != 0)
		return 0;
	if (x->o->tool && tool_of(m, x->o->tool).ptr == NULL)
		return 0;
	struct txc_str results = blocks_text(m, TXC_BLOCK_TOOL_RESULT, false, &x->text[1]);
	if (results.ptr != NULL) { /* the text, then the results */
		if (x->text[0].len)
			txc_buf_addch(&x->text[0], '\n');
		txc_buf_add(&x->text[0], results.ptr, results.len);
		text = (struct txc_str){x->text[0].buf, x->text[0].len};
	}
	h.cols[0] = text;
	h.cols[1] = tool_of(m, x->o->tool);
	h.cols[2] = blocks_text(m, TXC_BLOCK_TOOL_USE, false, &x->text[2]);
	h.cols[3] = blocks_text(m, TXC_BLOCK_TEXT, true, &x->text[3]);
	if (!txc_query_match(x->q, h.cols, 4))
		return 0;
	h.has_row_id = m->row_id != 0;
	h.row_id = m->row_id;
	h.number = m->number > 0 ? (size_t)m->number : 0;
	h.role = txc_str_c(role);
	h.tool_name = h.cols[1];
	txc_arena_reset(x->scratch);
	h.timestamp = txc_json_real(x->scratch, m->time);
	int rc = x->sink->hit(x->sink->ctx, &h);
	x->stopped = rc != 0;
	return rc;
}

/* A session without rows of its source: its model, message by message. */
static int model_scan(struct txc_store *s, struct search_ctx *x, const struct txc_session_info *session,
		      struct txc_diag *d)
{
	struct txc_transcript *t;
	int rc = txc_store_load(s, &session->sid, TXC_LOAD_COMPACTED | TXC_LOAD_MODEL_ONLY, &t, d);
	if (rc)
		return rc;
	for (size_t i = 0; rc == TXC_OK && i < t->n_messages; i++)
		rc = model_match(x, session, &t->messages[i]);
	txc_transcript_free(t);
	return rc;
}

/* No index: every selected session read one at a time (sessions in listing order), by its rows
 * where the backend scans them (ops->scan), else by its model. */
static int scan_sessions(struct txc_store *s, struct search_ctx *x, const struct txc_session_info *const *sel, size_t n,
			 struct txc_search_info *info, struct txc_diag *d)
{
	snprintf(info->index, sizeof(info->index), "scan");
	snprintf(info->how, sizeof(info->how), "%s has no full-text index: every selected session's %s were read",
		 s->ops->name, s->ops->scan != NULL ? "rows" : "messages");
	info->complete = true;
	int rc = TXC_OK;
	for (size_t i = 0; i < n && rc == TXC_OK; i++)
		rc = s->ops->scan != NULL ? s->ops->scan(s, sel[i], x->q, x->o, x->sink, &x->stopped, d)
					  : model_scan(s, x, sel[i], d);
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
	txc_sort(c.order, n, sizeof(size_t), cmp_chosen, (void *)sel);
	struct search_ctx x = {.c = &c,
			       .sink = sink,
			       .q = q,
			       .o = o,
			       .text = {TXC_BUF_INIT, TXC_BUF_INIT, TXC_BUF_INIT, TXC_BUF_INIT},
			       .scratch = txc_arena_new(0)};
	int rc;
	if (s->ops->search != NULL) {
		struct txc_hit_sink mine = {chosen_hit, &x};
		rc = s->ops->search(s->impl, q, o, &mine, info, d);
	} else {
		rc = scan_sessions(s, &x, sel, n, info, d);
	}
	for (int i = 0; i < 4; i++)
		txc_buf_release(&x.text[i]);
	txc_arena_free(x.scratch);
	free(c.order);
	return rc;
}

int txc_store_search_chosen(struct txc_store *s, const struct txc_query *q, const struct txc_search_opts *o,
			    const struct txc_chooser *ch, const struct txc_hit_sink *sink, struct txc_search_info *info,
			    struct txc_diag *d)
{
	memset(info, 0, sizeof(*info));
	if (s->ops->search == NULL) { /* a scan goes session by session: it needs them listed */
		txc_diag_set(d, TXC_E_USAGE, "'%s' cannot be searched without a listing", s->name);
		return TXC_E_USAGE;
	}
	struct search_ctx x = {.ch = ch, .sink = sink, .q = q, .o = o};
	struct txc_hit_sink mine = {chosen_hit, &x};
	return s->ops->search(s->impl, q, o, &mine, info, d);
}
