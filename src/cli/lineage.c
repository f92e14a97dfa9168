/*
 * lineage.c - the CLI's side of whole conversations: the warnings of a chain
 * that the pipeline (src/convert/convert.c) joined for --lineage, the files
 * the Claude Code subagents of --children go to, and the links `list --tree`
 * and `list --json` show.  The store gives the links (txc_store_links), the
 * model computes (lineage.h); this file only words, orders and writes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "txc/lineage.h"

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
void cli_chain_note(void *ctx, const struct txc_chain_note *n)
{
	(void)ctx;
	if (n->missing)
		cli_warn("the parent session %.*s of %.*s is not in the store: the chain starts at %.*s",
			 (int)n->parent.len, n->parent.ptr, (int)n->first.len, n->first.ptr, (int)n->first.len,
			 n->first.ptr);
	if (n->cycle)
		cli_warn(
			"the compression chain of %.*s loops (its parent links form a cycle): it is cut to start at %.*s",
			(int)n->asked.len, n->asked.ptr, (int)n->first.len, n->first.ptr);
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

struct subagent_dir {
	const char *dir;
	bool force;
};

static int write_subagent(void *ctx, const char *agent, const char *p, size_t n, struct txc_diag *d)
{
	const struct subagent_dir *sd = ctx;
	struct txc_buf path = TXC_BUF_INIT;
	txc_buf_addf(&path, "%s/agent-%s.jsonl", sd->dir, agent);
	/* the same bytes again: nothing to do; other bytes are replaced only with --force */
	size_t len = 0;
	char *old = read_all(path.buf, &len);
	bool same = old != NULL && len == n && memcmp(old, p, len) == 0;
	enum txc_err rc = same ? TXC_OK : cli_write_file(path.buf, p, n, sd->force, d);
	free(old);
	txc_buf_release(&path);
	return rc;
}

enum txc_err cli_write_subagents(const struct cli_args *a, const struct txc_transcript *t,
				 const struct txc_write_opts *w, const char *base, const char *session,
				 struct txc_diag *d)
{
	if (!txc_convert_has_subagents(t)) /* (called with --children only) */
		return TXC_OK;
	struct txc_buf dir = TXC_BUF_INIT;
	txc_buf_addf(&dir, "%s/subagents", base);
	struct subagent_dir sd = {dir.buf, a->force};
	enum txc_err rc = cli_mkdirs(dir.buf, d);
	if (rc == TXC_OK)
		rc = txc_convert_subagents(t, w, session, write_subagent, &sd, d);
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

/* ---- export --lineage / --children: one file per conversation ---- */

struct fold {
	struct cli_links *lx;
	size_t **sel; /* per store: link index -> selection index, or (size_t)-1 */
	struct cli_session *v;
	bool lineage;
	unsigned char *state; /* per selected session: 0 unknown, 1 visiting, 2 kept, 3 held */
};

/* the selected session whose file holds link k of store s as a segment: its chain's tip when
 * that is selected (--lineage), else k itself; (size_t)-1 when none */
static size_t file_of(const struct fold *f, size_t s, size_t k)
{
	const struct cli_links *x = &f->lx[s];
	if (f->lineage) {
		struct txc_chain c;
		txc_lineage_chain(x->l, k, &c);
		size_t tip = f->sel[s][c.v[c.n - 1]];
		free(c.v);
		if (tip != (size_t)-1)
			return tip;
	}
	return f->sel[s][k];
}

/* the selected session whose file adopts selected session i (--children: it holds i's parent), or (size_t)-1 */
static size_t holder_of(const struct fold *f, size_t i, bool children)
{
	size_t s = f->v[i].store;
	const struct cli_links *x = &f->lx[s];
	size_t k = txc_lineage_find(x->l, f->v[i].id.text);
	if (k == (size_t)-1)
		return (size_t)-1;
	size_t h = file_of(f, s, k);
	if (h != i)
		return h; /* a segment of another file (--lineage) */
	const struct txc_link *l = &x->v[k];
	size_t p = children && l->delegate && l->parent.ptr != NULL ? txc_lineage_find(x->l, l->parent) : (size_t)-1;
	return p == (size_t)-1 ? (size_t)-1 : file_of(f, s, p);
}

/* kept: no kept file holds it (a child of a child is not adopted by the grandparent: its own file) */
static bool fold_kept(struct fold *f, size_t i, bool children)
{
	if (f->state[i] >= 2 || f->state[i] == 1) /* (visiting: parents that loop: kept) */
		return f->state[i] != 3;
	f->state[i] = 1;
	size_t h = holder_of(f, i, children);
	bool kept = h == (size_t)-1 || h == i || !fold_kept(f, h, children);
	f->state[i] = kept ? 2 : 3;
	return kept;
}

/* the chain's warnings, said here once per file (export's workers have no stderr of their own) */
static void fold_note(const struct fold *f, size_t i)
{
	const struct cli_links *x = &f->lx[f->v[i].store];
	size_t k = txc_lineage_find(x->l, f->v[i].id.text);
	if (!f->lineage || k == (size_t)-1)
		return;
	struct txc_chain c;
	txc_lineage_chain(x->l, k, &c);
	const struct txc_link *first = &x->v[c.v[0]];
	struct txc_chain_note note = {x->v[k].id, first->id, first->parent, c.missing, c.cycle};
	cli_chain_note(NULL, &note);
	free(c.v);
}

/* a kept file's fingerprint covers every session its conversation holds: their links' times */
static void fold_fingerprint(struct fold *f, size_t i, struct txc_arena *ar, bool children)
{
	const struct cli_links *x = &f->lx[f->v[i].store];
	size_t k = txc_lineage_find(x->l, f->v[i].id.text);
	if (k == (size_t)-1 || f->v[i].info->fingerprint.len == 0)
		return;
	struct txc_chain c = {NULL, 1, false, false};
	if (f->lineage)
		txc_lineage_chain(x->l, k, &c);
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_add(&b, f->v[i].info->fingerprint.ptr, f->v[i].info->fingerprint.len);
	for (size_t m = 0; m < c.n; m++) {
		size_t seg = c.v ? c.v[m] : k, *kids = NULL;
		size_t n = children ? txc_lineage_children(x->l, seg, &kids) : 0;
		for (size_t j = 0; j <= n; j++) {
			const struct txc_link *l = &x->v[j < n ? kids[j] : seg];
			txc_buf_addf(&b, "\n%zu:", l->id.len);
			txc_buf_add(&b, l->id.ptr, l->id.len);
			txc_buf_addf(&b, " %.17g %.17g", l->ended, l->last_active);
		}
		free(kids);
	}
	free(c.v);
	unsigned char h[32];
	char hex[65];
	txc_sha256(b.buf, b.len, h);
	txc_hex(hex, h, 16);
	txc_buf_release(&b);
	struct txc_session_info *info = txc_arena_dup(ar, f->v[i].info, sizeof(*info));
	info->fingerprint = txc_arena_str(ar, hex, 32);
	f->v[i].info = info;
}

enum txc_err cli_lineage_fold(const struct cli_args *a, struct cli_stores *st, struct cli_session *v, size_t *n,
			      struct txc_arena *ar, struct txc_diag *d)
{
	if (!a->lineage && !a->children)
		return TXC_OK;
	struct fold f = {txc_xcalloc(st->n + 1, sizeof(struct cli_links)), NULL, v, a->lineage, NULL};
	enum txc_err rc = TXC_OK;
	for (size_t s = 0; s < st->n && rc == TXC_OK; s++)
		rc = cli_links_open(st->v[s].s, &f.lx[s], d);
	if (rc == TXC_OK) {
		f.sel = selection_of(f.lx, st->n, v, *n);
		f.state = txc_xcalloc(*n + 1, 1);
		size_t m = 0;
		for (size_t i = 0; i < *n; i++)
			fold_kept(&f, i, a->children);
		for (size_t i = 0; i < *n; i++) /* (in place: every holder known first) */
			if (f.state[i] == 2) {
				fold_note(&f, i);
				fold_fingerprint(&f, i, ar, a->children);
				v[m++] = v[i];
			}
		*n = m;
		for (size_t s = 0; s < st->n; s++)
			free(f.sel[s]);
		free(f.sel);
		free(f.state);
	}
	for (size_t s = 0; s < st->n; s++)
		cli_links_close(&f.lx[s]);
	free(f.lx);
	return rc;
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
