/*
 * lineage.c - the CLI's side of whole conversations: `convert --lineage`
 * (a compression chain loaded and joined), `--children` (delegate children
 * loaded and placed), their Claude Code subagent files, and the links
 * `list --tree` and `list --json` show.  The store gives the links
 * (txc_store_links), the model computes (lineage.h); this file only loads,
 * warns and writes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "txc/lineage.h"
#include "txc/redact.h"
#include "txc/writer_claude.h"

enum txc_err cli_links_open(struct txc_store *s, struct cli_links *x, struct txc_diag *d)
{
	memset(x, 0, sizeof(*x));
	x->arena = txc_arena_new(0);
	enum txc_err rc = txc_store_links(s, x->arena, &x->v, &x->n, d);
	if (rc == TXC_OK)
		x->l = txc_lineage_new(x->v, x->n);
	return rc;
}

void cli_links_close(struct cli_links *x)
{
	free(x->root);
	free(x->tip);
	free(x->tree);
	txc_lineage_free(x->l);
	txc_arena_free(x->arena);
	memset(x, 0, sizeof(*x));
}

/* one line for each thing a person should know about the chain */
static void chain_warnings(const struct cli_links *x, size_t k, const struct txc_chain *c)
{
	const struct txc_link *first = &x->v[c->v[0]], *asked = &x->v[k];
	if (c->missing)
		cli_warn("the parent session %.*s of %.*s is not in the store: the chain starts at %.*s",
			 (int)first->parent.len, first->parent.ptr, (int)first->id.len, first->id.ptr,
			 (int)first->id.len, first->id.ptr);
	if (c->cycle)
		cli_warn(
			"the compression chain of %.*s loops (its parent links form a cycle): it is cut to start at %.*s",
			(int)asked->id.len, asked->id.ptr, (int)first->id.len, first->id.ptr);
}

static enum txc_err load_chain(const struct cli_args *a, struct txc_store *s, const struct cli_links *x, size_t k,
			       unsigned flags, struct txc_transcript **out, struct txc_diag *d)
{
	struct txc_chain c;
	txc_lineage_chain(x->l, k, &c);
	chain_warnings(x, k, &c);
	struct txc_transcript **parts = txc_xcalloc(c.n, sizeof(*parts));
	enum txc_err rc = TXC_OK;
	for (size_t i = 0; i < c.n && rc == TXC_OK; i++)
		if ((rc = txc_store_load(s, &x->v[c.v[i]].sid, flags, &parts[i], d)) == TXC_OK)
			cli_redact_transcript(a, parts[i]); /* each part, as its own rows are written too */
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

/* the child's title as the parent shows it: with --redact, redacted like every other text (in t->arena) */
static struct txc_str child_title(const struct cli_args *a, struct txc_transcript *t, struct txc_str title)
{
	if (!a->redact || title.ptr == NULL)
		return title;
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_str s = txc_redact_str(r, t->arena, title);
	txc_redactor_free(r);
	return s;
}

/* the delegate children of every segment (or of the one session), placed in t; loaded with --children */
static enum txc_err adopt_children(const struct cli_args *a, struct txc_store *s, const struct cli_links *x,
				   struct txc_transcript *t, unsigned flags, struct txc_diag *d)
{
	size_t n_seg = t->n_segments ? t->n_segments : 1;
	enum txc_err rc = TXC_OK;
	for (size_t g = 0; g < n_seg && rc == TXC_OK; g++) {
		struct txc_str id = t->n_segments ? t->segments[g].id : t->meta.id;
		size_t k = txc_lineage_find(x->l, id), *kids = NULL;
		size_t n = k == (size_t)-1 ? 0 : txc_lineage_children(x->l, k, &kids);
		for (size_t i = 0; i < n && rc == TXC_OK; i++) {
			const struct txc_link *c = &x->v[kids[i]];
			struct txc_transcript *ct = NULL;
			if (a->children)
				if ((rc = txc_store_load(s, &c->sid, flags, &ct, d)) == TXC_OK)
					cli_redact_transcript(a, ct);
			if (rc == TXC_OK)
				txc_transcript_adopt(t, ct, c->id, child_title(a, t, c->title), c->started);
		}
		free(kids);
	}
	return rc;
}

enum txc_err cli_load_lineage(const struct cli_args *a, unsigned flags, struct txc_transcript **t, char **profile,
			      struct txc_diag *d)
{
	struct cli_stores st;
	struct txc_sid id = {0};
	size_t which = 0;
	struct cli_links x = {0};
	*t = NULL;
	enum txc_err rc = cli_stores_open(a, &st, d);
	if (rc == TXC_OK)
		rc = cli_resolve(&st, a->pos[0], &which, &id, d);
	if (rc == TXC_OK)
		rc = cli_links_open(st.v[which].s, &x, d);
	size_t k = rc == TXC_OK ? txc_lineage_find(x.l, id.text) : (size_t)-1;
	if (rc == TXC_OK && k == (size_t)-1) { /* the listing and the resolver disagree: a store that changed */
		txc_diag_set(d, TXC_E_NOTFOUND, "session '%s' is no longer in the store", a->pos[0]);
		rc = TXC_E_NOTFOUND;
	}
	if (rc == TXC_OK && a->lineage)
		rc = load_chain(a, st.v[which].s, &x, k, flags, t, d);
	else if (rc == TXC_OK && (rc = txc_store_load(st.v[which].s, &id, flags, t, d)) == TXC_OK)
		cli_redact_transcript(a, *t);
	if (rc == TXC_OK)
		rc = adopt_children(a, st.v[which].s, &x, *t, flags, d);
	if (rc == TXC_OK && profile != NULL)
		*profile = st.v[which].profile != NULL ? txc_xstrdup(st.v[which].profile) : NULL;
	if (rc != TXC_OK) {
		txc_transcript_free(*t);
		*t = NULL;
	}
	cli_links_close(&x);
	cli_stores_close(&st);
	txc_sid_release(&id);
	return rc;
}

/* a whole small file, or NULL (missing, unreadable) */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	struct txc_buf b = TXC_BUF_INIT;
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		txc_buf_add(&b, chunk, n);
	bool bad = ferror(f) != 0;
	fclose(f);
	if (bad) {
		txc_buf_release(&b);
		return NULL;
	}
	return txc_buf_detach(&b, len); /* an empty file: an empty string of its own (b.buf is txc_buf_empty) */
}

/* ---- Claude Code subagent transcripts: <base>/subagents/agent-<agentId>.jsonl ---- */

static enum txc_err write_subagent(const struct cli_args *a, const struct txc_transcript *parent,
				   const struct txc_child *c, const struct txc_write_opts *w, const char *session,
				   const char *dir, struct txc_diag *d)
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
	enum txc_err rc = txc_writer_claude.write(&out, &child, &sw, d);
	struct txc_buf path = TXC_BUF_INIT;
	txc_buf_addf(&path, "%s/agent-%s.jsonl", dir, agent);
	/* the same bytes again: nothing to do; other bytes are replaced only with --force */
	size_t len = 0;
	char *old = rc == TXC_OK ? read_all(path.buf, &len) : NULL;
	bool same = old != NULL && len == out.buf.len && memcmp(old, out.buf.buf, len) == 0;
	if (rc == TXC_OK && !same)
		rc = cli_write_file(path.buf, out.buf.buf, out.buf.len, a->force, d);
	free(old);
	txc_buf_release(&path);
	txc_out_release(&out);
	return rc;
}

enum txc_err cli_write_subagents(const struct cli_args *a, const struct txc_transcript *t,
				 const struct txc_write_opts *w, const char *base, const char *session,
				 struct txc_diag *d)
{
	bool any = false;
	for (size_t i = 0; i < t->n_children; i++)
		any |= t->children[i].t != NULL;
	if (!any) /* (called with --children only) */
		return TXC_OK;
	struct txc_buf dir = TXC_BUF_INIT;
	txc_buf_addf(&dir, "%s/subagents", base);
	enum txc_err rc = cli_mkdirs(dir.buf, d);
	for (size_t i = 0; i < t->n_children && rc == TXC_OK; i++)
		if (t->children[i].t != NULL)
			rc = write_subagent(a, t, &t->children[i], w, session, dir.buf, d);
	txc_buf_release(&dir);
	return rc;
}

/* ---- list --json and list --tree ---- */

static void json_id(struct txc_buf *b, const struct txc_link *l)
{
	txc_json_emit_str(b, l->id.ptr ? l->id.ptr : "", l->id.len);
}

/* (list opens every store's links before it prints: x->l is there) */
void cli_lineage_json(struct txc_buf *b, struct cli_links *x, const struct txc_json *row, struct txc_str id)
{
	size_t k = txc_lineage_find(x->l, id);
	if (txc_json_get(row, "parent_session_id") == NULL) /* an old schema: no such column */
		txc_buf_addstr(b, ",\"parent_session_id\":null");
	if (k == (size_t)-1) {
		txc_buf_addstr(b, ",\"lineage_root\":null,\"lineage_tip\":null");
		return;
	}
	if (x->root == NULL) { /* every session's at once: members of a chain share their walks */
		x->root = txc_xmalloc((x->n + 1) * sizeof(size_t));
		x->tip = txc_xmalloc((x->n + 1) * sizeof(size_t));
		txc_lineage_ends(x->l, x->root, x->tip);
	}
	txc_buf_addstr(b, ",\"lineage_root\":");
	json_id(b, &x->v[x->root[k]]);
	txc_buf_addstr(b, ",\"lineage_tip\":");
	json_id(b, &x->v[x->tip[k]]);
}

struct tree_node {
	size_t parent; /* index in the selection, or (size_t)-1 */
	double started;
	bool seen;
};

struct tree {
	struct tree_node *nd;
	size_t *kids, *first; /* the children of i: kids[first[i] .. first[i + 1]) */
	size_t *order, *depths, k;
};

/* node indexes by parent, then oldest first; ctx: the nodes */
static int cmp_kid(const void *x, const void *y, void *ctx)
{
	const struct tree_node *nd = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct tree_node *a = &nd[i], *b = &nd[j];
	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	if (a->started != b->started && !isnan(a->started) && !isnan(b->started))
		return a->started < b->started ? -1 : 1;
	return (i > j) - (i < j);
}

/* depth-first, children oldest first; a tree deeper than 32 goes on as new roots (bounded stack) */
static void tree_visit(struct tree *t, size_t at, size_t depth)
{
	t->nd[at].seen = true;
	t->order[t->k] = at;
	t->depths[t->k++] = depth;
	for (size_t i = t->first[at]; depth < 32 && i < t->first[at + 1]; i++)
		if (!t->nd[t->kids[i]].seen)
			tree_visit(t, t->kids[i], depth + 1);
}

/* the selection index of each store's sessions (by link index), (size_t)-1 for those not selected */
static size_t **selection_of(const struct cli_links *lx, size_t n_stores, const struct cli_session *v, size_t n)
{
	size_t **sel = txc_xcalloc(n_stores + 1, sizeof(*sel));
	for (size_t s = 0; s < n_stores; s++) {
		sel[s] = txc_xmalloc((lx[s].n + 1) * sizeof(size_t));
		for (size_t k = 0; k < lx[s].n; k++)
			sel[s][k] = (size_t)-1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = txc_lineage_find(lx[v[i].store].l, v[i].id.text);
		if (k != (size_t)-1) /* (not when the session was removed between the listing and the links) */
			sel[v[i].store][k] = i;
	}
	return sel;
}

static void tree_build(struct tree *t, struct cli_links *lx, size_t n_stores, const struct cli_session *v, size_t n)
{
	for (size_t s = 0; s < n_stores; s++) { /* (list opens every store's links first) */
		lx[s].tree = txc_xmalloc((lx[s].n + 1) * sizeof(size_t));
		txc_lineage_tree(lx[s].l, lx[s].tree);
	}
	size_t **sel = selection_of(lx, n_stores, v, n);
	t->nd = txc_xcalloc(n + 1, sizeof(*t->nd));
	for (size_t i = 0; i < n; i++) {
		const struct cli_links *x = &lx[v[i].store];
		size_t k = txc_lineage_find(x->l, v[i].id.text);
		size_t p = k == (size_t)-1 ? (size_t)-1 : x->tree[k];
		t->nd[i].parent = p == (size_t)-1 ? (size_t)-1 : sel[v[i].store][p];
		t->nd[i].started = v[i].info->started;
	}
	for (size_t s = 0; s < n_stores; s++)
		free(sel[s]);
	free(sel);
	t->kids = txc_xmalloc((n + 1) * sizeof(size_t));
	t->first = txc_xcalloc(n + 2, sizeof(size_t));
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (t->nd[i].parent != (size_t)-1)
			t->kids[m++] = i;
	txc_sort(t->kids, m, sizeof(size_t), cmp_kid, t->nd);
	for (size_t i = 0; i < m; i++)
		t->first[t->nd[t->kids[i]].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		t->first[i + 1] += t->first[i];
	t->order = txc_xmalloc((n + 1) * sizeof(size_t));
	t->depths = txc_xmalloc((n + 1) * sizeof(size_t));
}

void cli_tree_order(struct cli_links *lx, size_t n_stores, struct cli_session *v, size_t n, struct txc_arena *ar)
{
	struct tree t = {0};
	tree_build(&t, lx, n_stores, v, n);
	for (size_t i = 0; i < n; i++) /* roots keep the listing's order */
		if (t.nd[i].parent == (size_t)-1)
			tree_visit(&t, i, 0);
	for (size_t i = 0; i < n; i++) /* below the depth bound */
		if (!t.nd[i].seen)
			tree_visit(&t, i, 0);
	struct cli_session *c = txc_xmalloc((n + 1) * sizeof(*c));
	for (size_t i = 0; i < t.k; i++) {
		c[i] = v[t.order[i]];
		if (t.depths[i] == 0)
			continue;
		struct txc_buf b = TXC_BUF_INIT;
		for (size_t d = 1; d < t.depths[i]; d++)
			txc_buf_addstr(&b, "  ");
		txc_buf_addstr(&b, "\xE2\x94\x94 "); /* "└ " */
		txc_buf_add(&b, c[i].id.text.ptr, c[i].id.text.len);
		c[i].id.text = txc_arena_str(ar, b.buf, b.len);
		txc_buf_release(&b);
	}
	memcpy(v, c, t.k * sizeof(*c));
	free(c);
	free(t.order);
	free(t.depths);
	free(t.kids);
	free(t.first);
	free(t.nd);
}
