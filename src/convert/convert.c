/*
 * convert.c - one session through the pipeline (convert.h): load, cut, join, adopt, redact,
 * write.  The commands used to put these steps together by hand, each its own subset; here
 * they are in one order for all.  Redaction happens to each part as it is loaded (a chain's
 * parts, a child), before the join, because a part's own rows are what a streaming writer
 * would show and each must show markers only.
 */
#include <stdlib.h>
#include <string.h>

#include "txc/convert.h"
#include "txc/lineage.h"
#include "txc/model_hermes.h"
#include "txc/redact.h"
#include "txc/writer_claude.h"
#include "txc/writer_codex.h"

static void redact_in_place(bool redact, struct txc_transcript *t)
{
	if (!redact || t == NULL)
		return;
	struct txc_redactor *r = txc_redactor_new(false);
	txc_redact_transcript(r, t);
	txc_redactor_free(r);
}

static int load_one(struct txc_store *s, const struct txc_convert_req *req, const struct txc_sid *id,
		    struct txc_transcript **t, struct txc_diag *d)
{
	int rc = req->last != NULL ? txc_store_load_after(s, id, req->after, req->load_flags, t, req->last, d)
				   : txc_store_load(s, id, req->load_flags, t, d);
	if (rc == TXC_OK)
		redact_in_place(req->redact, *t);
	return rc;
}

/* the store's links and their index, for the walks */
struct links {
	struct txc_arena *arena;
	struct txc_link *v;
	size_t n;
	struct txc_lineage *l;
};

static void links_close(struct links *x)
{
	txc_lineage_free(x->l);
	txc_arena_free(x->arena);
}

static void note_chain(const struct txc_convert_req *req, const struct links *x, size_t k, const struct txc_chain *c)
{
	if (req->on_chain == NULL || !(c->missing || c->cycle))
		return;
	const struct txc_link *first = &x->v[c->v[0]];
	struct txc_chain_note n = {x->v[k].id, first->id, first->parent, c->missing, c->cycle};
	req->on_chain(req->ctx, &n);
}

static int load_chain(struct txc_store *s, const struct txc_convert_req *req, const struct links *x, size_t k,
		      struct txc_transcript **out, struct txc_diag *d)
{
	struct txc_chain c;
	txc_lineage_chain(x->l, k, &c);
	note_chain(req, x, k, &c);
	struct txc_transcript **parts = txc_xcalloc(c.n, sizeof(*parts));
	int rc = TXC_OK;
	for (size_t i = 0; i < c.n && rc == TXC_OK; i++)
		rc = load_one(s, req, &x->v[c.v[i]].sid, &parts[i], d);
	if (rc == TXC_OK) {
		*out = txc_transcript_join(parts, c.n);
	} else {
		for (size_t i = 0; i < c.n; i++)
			txc_transcript_free(parts[i]);
	}
	free(parts);
	free(c.v);
	return rc;
}

/* the child's title as the parent shows it: redacted like every other text (in t->arena) */
static struct txc_str child_title(bool redact, struct txc_transcript *t, struct txc_str title)
{
	if (!redact || title.ptr == NULL)
		return title;
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_str s = txc_redact_str(r, t->arena, title);
	txc_redactor_free(r);
	return s;
}

/* the delegate children of every segment (or of the one session), placed in t; loaded with children */
static int adopt_children(struct txc_store *s, const struct txc_convert_req *req, const struct links *x,
			  struct txc_transcript *t, struct txc_diag *d)
{
	size_t n_seg = t->n_segments ? t->n_segments : 1;
	int rc = TXC_OK;
	for (size_t g = 0; g < n_seg && rc == TXC_OK; g++) {
		struct txc_str id = t->n_segments ? t->segments[g].id : t->meta.id;
		size_t k = txc_lineage_find(x->l, id), *kids = NULL;
		size_t n = k == (size_t)-1 ? 0 : txc_lineage_children(x->l, k, &kids);
		for (size_t i = 0; i < n && rc == TXC_OK; i++) {
			const struct txc_link *c = &x->v[kids[i]];
			struct txc_transcript *ct = NULL;
			if (req->children)
				rc = load_one(s, req, &c->sid, &ct, d);
			if (rc == TXC_OK)
				txc_transcript_adopt(t, ct, c->id, child_title(req->redact, t, c->title), c->started);
		}
		free(kids);
	}
	return rc;
}

/* --lineage / --children: the chain (or the one session) with its delegate children */
static int assemble_whole(struct txc_store *s, const struct txc_convert_req *req, struct txc_transcript **t,
			  struct txc_diag *d)
{
	struct links x = {txc_arena_new(0), NULL, 0, NULL};
	int rc = txc_store_links(s, x.arena, &x.v, &x.n, d);
	if (rc == TXC_OK)
		x.l = txc_lineage_new(x.v, x.n);
	size_t k = rc == TXC_OK ? txc_lineage_find(x.l, req->id->text) : (size_t)-1;
	if (rc == TXC_OK && k == (size_t)-1) { /* the listing and the resolver disagree: a store that changed */
		if (req->asked != NULL)
			txc_diag_set(d, TXC_E_NOTFOUND, "session '%s' is no longer in the store", req->asked);
		else
			txc_diag_set(d, TXC_E_NOTFOUND, "session '%.*s' is no longer in the store",
				     (int)req->id->text.len, req->id->text.ptr);
		rc = TXC_E_NOTFOUND;
	}
	if (rc == TXC_OK && req->lineage)
		rc = load_chain(s, req, &x, k, t, d);
	else if (rc == TXC_OK)
		rc = load_one(s, req, req->id, t, d);
	if (rc == TXC_OK)
		rc = adopt_children(s, req, &x, *t, d);
	if (rc != TXC_OK) {
		txc_transcript_free(*t);
		*t = NULL;
	}
	links_close(&x);
	return rc;
}

/* the range applied to t; the caller hears what it kept (and may refuse it) */
static int slice(const struct txc_convert_req *req, struct txc_transcript *t, struct txc_slice_info *info,
		 struct txc_diag *d)
{
	int rc = txc_model_slice(t, req->range, info, d);
	if (rc == TXC_OK && req->on_slice != NULL)
		rc = req->on_slice(req->ctx, info, d);
	return rc;
}

static int assemble(struct txc_store *s, const struct txc_convert_req *req, struct txc_transcript **t,
		    struct txc_slice_info *info, struct txc_diag *d)
{
	*t = NULL;
	int rc = req->lineage || req->children ? assemble_whole(s, req, t, d) : load_one(s, req, req->id, t, d);
	if (rc == TXC_OK && req->range != NULL)
		rc = slice(req, *t, info, d);
	if (rc != TXC_OK) {
		txc_transcript_free(*t);
		*t = NULL;
	}
	return rc;
}

int txc_assemble(struct txc_store *s, const struct txc_convert_req *req, struct txc_transcript **t, struct txc_diag *d)
{
	struct txc_slice_info info;
	return assemble(s, req, t, &info, d);
}

/* ---- a writer that streams (TXC_WCAP_STREAM: hermes): row by row, never the whole session ---- */

struct row_stream {
	const struct txc_writer_stream *ops;
	struct txc_out *out;
	const struct txc_write_opts *w;
	struct txc_stream_state st;
	int64_t first, last; /* a range: the message numbers to write (0, 0: every row) */
	int64_t numbered;    /* rows with a number so far */
};

/* In the range: a numbered row by its number, any other row when it sits between first and last. */
static bool stream_keeps(struct row_stream *hs, const struct txc_json *row)
{
	if (hs->first == 0)
		return true;
	bool numbered = txc_hermes_row_numbered(row);
	hs->numbered += numbered;
	return hs->numbered >= hs->first && (numbered ? hs->numbered <= hs->last : hs->numbered < hs->last);
}

static int stream_head(void *ctx, const struct txc_transcript *t)
{
	struct row_stream *hs = ctx;
	hs->ops->head(hs->out, t, hs->w, &hs->st);
	return 0;
}

static int stream_row(void *ctx, const struct txc_json *row)
{
	struct row_stream *hs = ctx;
	if (!stream_keeps(hs, row))
		return 0;
	hs->ops->row(hs->out, row, &hs->st);
	return hs->out->err ? TXC_E_FAIL : 0;
}

/* a write error stops the stream with out->err set and d left for the caller to fill */
static int stream_rows(struct txc_convert *job, const struct txc_write_opts *w, struct txc_out *out, struct txc_diag *d)
{
	const struct txc_convert_req *req = job->req;
	struct row_stream hs = {job->ops->stream, out, w, {0}, job->slice.first, job->slice.last, 0};
	unsigned flags = req->load_flags;
	if (hs.first != 0)
		flags |= TXC_LOAD_COMPACTED; /* numbers count compacted rows: see them all */
	struct txc_row_sink sink = {stream_head, stream_row, &hs};
	struct txc_redact_sink rs;
	int rc = txc_store_stream(job->s, req->id, flags, txc_convert_redact_sink(&rs, req->redact, &sink), d);
	txc_convert_redact_sink_release(&rs);
	if (rc == 0)
		job->ops->stream->tail(out, &hs.st);
	job->ops->stream->release(&hs.st);
	return rc;
}

int txc_convert_open(struct txc_convert *job, struct txc_store *s, const struct txc_convert_req *req,
		     const struct txc_writer_ops *ops, struct txc_diag *d)
{
	memset(job, 0, sizeof(*job));
	job->s = s, job->req = req, job->ops = ops;
	/* Hermes's format is its rows as they are: streamed, so memory stays flat (a chain is joined first) */
	job->stream = (ops->caps & TXC_WCAP_STREAM) != 0 && !req->lineage && !req->children;
	if (job->stream && !txc_store_has_rows(s))
		job->stream = false; /* no rows to stream: the writer makes them from the model (hermes_rows.c) */
	if (!job->stream)
		return assemble(s, req, &job->t, &job->slice, d);
	if (req->range == NULL)
		return TXC_OK;
	/* a streamed range: the model (then dropped) says which messages, widened, the rows are */
	struct txc_convert_req model = *req;
	model.load_flags = TXC_LOAD_MODEL_ONLY | TXC_LOAD_COMPACTED;
	model.redact = false; /* (only its numbers are used) */
	struct txc_transcript *t = NULL;
	int rc = assemble(s, &model, &t, &job->slice, d);
	txc_transcript_free(t);
	return rc;
}

int txc_convert_write(struct txc_convert *job, const struct txc_write_opts *w, struct txc_out *out, struct txc_diag *d)
{
	if (job->stream)
		return stream_rows(job, w, out, d);
	int rc = job->ops->write(out, job->t, w, d);
	if (rc == TXC_OK && job->req->secrets != NULL)
		txc_redact_transcript(job->req->secrets, job->t); /* scan-only: counts, changes nothing */
	return rc;
}

void txc_convert_close(struct txc_convert *job)
{
	txc_transcript_free(job->t);
	job->t = NULL;
}

int txc_convert(struct txc_store *s, const struct txc_convert_req *req, const struct txc_writer_ops *ops,
		const struct txc_write_opts *w, struct txc_out *out, struct txc_diag *d)
{
	struct txc_convert job;
	int rc = txc_convert_open(&job, s, req, ops, d);
	if (rc == TXC_OK)
		rc = txc_convert_write(&job, w, out, d);
	txc_convert_close(&job);
	return rc;
}

/* ---- redacting row sink ---- */

static int redact_head(void *ctx, const struct txc_transcript *t)
{
	struct txc_redact_sink *rs = ctx;
	struct txc_transcript copy = *t;
	struct txc_hermes_native native = {0};
	if (t->native != NULL) {
		txc_arena_reset(rs->scratch);
		txc_redact_native(rs->r, rs->scratch, &native, t->native);
		copy.native = &native;
	}
	copy.meta.title = txc_redact_str(rs->r, rs->scratch, t->meta.title);
	return rs->inner.head(rs->inner.ctx, &copy);
}

static int redact_row(void *ctx, const struct txc_json *row)
{
	struct txc_redact_sink *rs = ctx;
	txc_arena_reset(rs->scratch);
	return rs->inner.row(rs->inner.ctx, txc_redact_json(rs->r, rs->scratch, row));
}

const struct txc_row_sink *txc_convert_redact_sink(struct txc_redact_sink *rs, bool redact,
						   const struct txc_row_sink *inner)
{
	memset(rs, 0, sizeof(*rs));
	rs->inner = *inner;
	if (!redact)
		return inner;
	rs->r = txc_redactor_new(false);
	rs->scratch = txc_arena_new(0);
	rs->sink = (struct txc_row_sink){redact_head, redact_row, rs};
	return &rs->sink;
}

void txc_convert_redact_sink_release(struct txc_redact_sink *rs)
{
	txc_redactor_free(rs->r);
	if (rs->scratch != NULL)
		txc_arena_free(rs->scratch);
	memset(rs, 0, sizeof(*rs));
}

/* ---- Claude Code subagent transcripts ---- */

bool txc_convert_has_subagents(const struct txc_transcript *t)
{
	for (size_t i = 0; i < t->n_children; i++)
		if (t->children[i].t != NULL)
			return true;
	return false;
}

static int subagent(const struct txc_transcript *parent, const struct txc_child *c, const struct txc_write_opts *w,
		    const char *session,
		    int (*emit)(void *ctx, const char *agent, const char *p, size_t len, struct txc_diag *d), void *ctx,
		    struct txc_diag *d)
{
	struct txc_transcript child = *c->t;
	child.meta.cwd = parent->meta.cwd; /* the folder the session is kept for: its subagent's too */
	char agent[18];
	txc_claude_agent_id(c->id, agent);
	struct txc_write_opts sw = *w;
	sw.sidechain_session = (struct txc_str){session, 36};
	sw.agent_id = (struct txc_str){agent, 17};
	struct txc_out out;
	txc_out_init_buf(&out);
	int rc = txc_writer_claude.write(&out, &child, &sw, d);
	if (rc == TXC_OK)
		rc = emit(ctx, agent, out.buf.buf, out.buf.len, d);
	txc_out_release(&out);
	return rc;
}

int txc_convert_subagents(const struct txc_transcript *t, const struct txc_write_opts *w, const char *session,
			  int (*emit)(void *ctx, const char *agent, const char *p, size_t len, struct txc_diag *d),
			  void *ctx, struct txc_diag *d)
{
	int rc = TXC_OK;
	for (size_t i = 0; i < t->n_children && rc == TXC_OK; i++)
		if (t->children[i].t != NULL)
			rc = subagent(t, &t->children[i], w, session, emit, ctx, d);
	return rc;
}

/* ---- Codex subagent rollouts ---- */

static int codex_children(const struct txc_transcript *t, const struct txc_write_opts *w, const char *parent, int depth,
			  txc_convert_codex_emit emit, void *ctx, struct txc_diag *d)
{
	int rc = TXC_OK;
	for (size_t i = 0; i < t->n_children && rc == TXC_OK; i++) {
		if (t->children[i].t == NULL)
			continue;
		struct txc_transcript child = *t->children[i].t;
		child.meta.cwd = t->meta.cwd; /* a spawned thread works where its parent does */
		/* its uuid names the parent too: one child under two parents (--as-new) is two threads */
		struct txc_buf key = TXC_BUF_INIT;
		txc_buf_addf(&key, "%s/", parent);
		txc_buf_add(&key, child.meta.id.ptr ? child.meta.id.ptr : "", child.meta.id.len);
		struct txc_transcript named = child;
		named.meta.id = (struct txc_str){key.buf, key.len};
		char uuid[37];
		txc_codex_session_uuid(&named, w->scope, uuid);
		txc_buf_release(&key);
		struct txc_write_opts cw = *w;
		cw.codex_parent = (struct txc_str){parent, 36};
		cw.codex_depth = depth;
		cw.codex_uuid = (struct txc_str){uuid, 36};
		rc = emit(ctx, &child, &cw, uuid, d);
		if (rc == TXC_OK && depth < 32) /* its own children, spawned by it (bounded: a hostile chain) */
			rc = codex_children(&child, w, uuid, depth + 1, emit, ctx, d);
	}
	return rc;
}

int txc_convert_codex_subagents(const struct txc_transcript *t, const struct txc_write_opts *w, const char *parent,
				txc_convert_codex_emit emit, void *ctx, struct txc_diag *d)
{
	return codex_children(t, w, parent, 1, emit, ctx, d);
}
