/*
 * lineage.c - compression chains, delegate children and list trees from the
 * links a reader gives (lineage.h), and a chain joined into one transcript.
 * The rules and where Hermes's own walks disagree: docs/FORMATS.md, Lineage.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "txc/lineage.h"

struct txc_lineage {
	const struct txc_link *v;
	size_t n;
	size_t *by_id;     /* indexes sorted by id */
	size_t *by_parent; /* indexes of sessions with a parent, sorted by parent, then started */
	size_t n_by_parent;
	/* the seen-set of a walk: mark[k] == *gen when k was seen (pointers: walks take a const index);
	 * 64 bits: a new walk's generation never wraps round to old marks */
	uint64_t *mark, *gen;
};

static int str_cmp(struct txc_str a, struct txc_str b)
{
	size_t m = a.len < b.len ? a.len : b.len;
	int c = m ? memcmp(a.ptr, b.ptr, m) : 0;
	return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* link indexes by id; ctx: the links */
static int cmp_id(const void *x, const void *y, void *ctx)
{
	const struct txc_link *v = ctx;
	return str_cmp(v[*(const size_t *)x].id, v[*(const size_t *)y].id);
}

/* NAN sorts first */
static int cmp_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(b) - isnan(a);
	return (a > b) - (a < b);
}

static int cmp_parent(const void *x, const void *y, void *ctx)
{
	const struct txc_link *v = ctx;
	const struct txc_link *a = &v[*(const size_t *)x], *b = &v[*(const size_t *)y];
	int c = str_cmp(a->parent, b->parent);
	if (c == 0)
		c = cmp_num(a->started, b->started);
	return c ? c : str_cmp(a->id, b->id);
}

struct txc_lineage *txc_lineage_new(const struct txc_link *v, size_t n)
{
	struct txc_lineage *l = txc_xcalloc(1, sizeof(*l));
	l->v = v;
	l->n = n;
	l->by_id = txc_xmalloc((n + 1) * sizeof(size_t));
	l->by_parent = txc_xmalloc((n + 1) * sizeof(size_t));
	l->mark = txc_xcalloc(n + 1, sizeof(uint64_t));
	l->gen = txc_xcalloc(1, sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		l->by_id[i] = i;
		if (v[i].parent.ptr != NULL)
			l->by_parent[l->n_by_parent++] = i;
	}
	txc_sort(l->by_id, n, sizeof(size_t), cmp_id, (void *)(uintptr_t)v); /* (read only) */
	txc_sort(l->by_parent, l->n_by_parent, sizeof(size_t), cmp_parent, (void *)(uintptr_t)v);
	return l;
}

void txc_lineage_free(struct txc_lineage *l)
{
	if (l == NULL)
		return;
	free(l->by_id);
	free(l->by_parent);
	free(l->mark);
	free(l->gen);
	free(l);
}

size_t txc_lineage_find(const struct txc_lineage *l, struct txc_str id)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = str_cmp(l->v[l->by_id[mid]].id, id);
		if (c == 0)
			return l->by_id[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)-1;
}

/* the children of session k: by_parent[*first .. *first + count) */
static size_t children_of(const struct txc_lineage *l, size_t k, size_t *first)
{
	struct txc_str id = l->v[k].id;
	size_t lo = 0, hi = l->n_by_parent;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (str_cmp(l->v[l->by_parent[mid]].parent, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < l->n_by_parent && str_cmp(l->v[l->by_parent[end]].parent, id) == 0)
		end++;
	*first = lo;
	return end - lo;
}

static bool compressed(const struct txc_link *s)
{
	return txc_str_eq(s->end_reason, "compression");
}

/* a continuation: not a branch, a delegate or a tool child */
static bool continuation(const struct txc_link *s)
{
	return !s->branch && !s->delegate && !s->tool;
}

/* Hermes's preference: compressed again, then still open, then any; then newest activity, start, id */
static int rank(const struct txc_link *s)
{
	return compressed(s) ? 0 : isnan(s->ended) ? 1 : 2;
}

static double activity(const struct txc_link *s)
{
	return isnan(s->last_active) ? s->started : s->last_active;
}

static bool better(const struct txc_link *a, const struct txc_link *b)
{
	if (rank(a) != rank(b))
		return rank(a) < rank(b);
	int c = cmp_num(activity(a), activity(b));
	if (c == 0)
		c = cmp_num(a->started, b->started);
	if (c == 0)
		c = str_cmp(a->id, b->id);
	return c > 0;
}

/* a new seen-set */
static void seen_clear(const struct txc_lineage *l)
{
	++*l->gen;
}

/* true if k was seen already; marks it seen */
static bool seen_add(const struct txc_lineage *l, size_t k)
{
	if (l->mark[k] == *l->gen)
		return true;
	l->mark[k] = *l->gen;
	return false;
}

/* the continuation Hermes resumes after session k, or (size_t)-1 */
static size_t next_of(const struct txc_lineage *l, size_t k)
{
	if (!compressed(&l->v[k]))
		return (size_t)-1;
	size_t first, n = children_of(l, k, &first), best = (size_t)-1;
	for (size_t i = first; i < first + n; i++) {
		size_t c = l->by_parent[i];
		if (continuation(&l->v[c]) && (best == (size_t)-1 || better(&l->v[c], &l->v[best])))
			best = c;
	}
	return best;
}

void txc_lineage_chain(const struct txc_lineage *l, size_t k, struct txc_chain *c)
{
	memset(c, 0, sizeof(*c));
	seen_clear(l);
	seen_add(l, k);
	size_t cap = 16;
	size_t *up = txc_xmalloc(cap * sizeof(size_t)), n_up = 0;
	up[n_up++] = k;
	/* up: through compression edges only, as long as the parent is there and not seen */
	for (size_t cur = k; continuation(&l->v[cur]) && l->v[cur].parent.ptr != NULL;) {
		size_t p = txc_lineage_find(l, l->v[cur].parent);
		if (p == (size_t)-1) {
			c->missing = true;
			break;
		}
		if (!compressed(&l->v[p]))
			break;
		if (seen_add(l, p)) {
			c->cycle = true;
			break;
		}
		if (n_up == cap)
			up = txc_xrealloc(up, (cap *= 2) * sizeof(size_t));
		up[n_up++] = cur = p;
	}
	/* root first, then down from k by the resume rule */
	size_t cap_v = n_up + 16;
	c->v = txc_xmalloc(cap_v * sizeof(size_t));
	for (size_t i = 0; i < n_up; i++)
		c->v[c->n++] = up[n_up - 1 - i];
	free(up);
	/* to the end, not Hermes's 100 steps: every member of a long chain gives the same chain; the
	 * seen-set ends it after at most every session */
	for (size_t cur = k;;) {
		size_t nx = next_of(l, cur);
		if (nx == (size_t)-1 || seen_add(l, nx))
			break;
		if (c->n == cap_v)
			c->v = txc_xrealloc(c->v, (cap_v *= 2) * sizeof(size_t));
		c->v[c->n++] = cur = nx;
	}
}

size_t txc_lineage_children(const struct txc_lineage *l, size_t k, size_t **out)
{
	size_t first, n = children_of(l, k, &first), m = 0;
	*out = txc_xmalloc((n + 1) * sizeof(size_t));
	for (size_t i = first; i < first + n; i++) /* (a session its own parent is not its own child) */
		if (l->v[l->by_parent[i]].delegate && l->by_parent[i] != k)
			(*out)[m++] = l->by_parent[i];
	return m;
}

/* ---- every session at once (list): memoised walks, the slow path only where parents loop ---- */

#define UNKNOWN ((size_t)-2)

/* the compression parent k continues, or (size_t)-1 */
static size_t up_of(const struct txc_lineage *l, size_t k)
{
	if (!continuation(&l->v[k]) || l->v[k].parent.ptr == NULL)
		return (size_t)-1;
	size_t p = txc_lineage_find(l, l->v[k].parent);
	return p != (size_t)-1 && compressed(&l->v[p]) ? p : (size_t)-1;
}

/* end[k]: where a walk by step from k ends, memoised; slow[k]: the walk met a loop (end unknown) */
static void walk_ends(const struct txc_lineage *l, size_t (*step)(const struct txc_lineage *, size_t), size_t *end,
		      bool *slow)
{
	size_t *path = txc_xmalloc((l->n + 1) * sizeof(size_t));
	for (size_t i = 0; i < l->n; i++)
		end[i] = UNKNOWN;
	for (size_t k = 0; k < l->n; k++) {
		if (end[k] != UNKNOWN || slow[k])
			continue;
		size_t n = 0, e = UNKNOWN, cur = k;
		bool loop = false;
		seen_clear(l);
		seen_add(l, k);
		path[n++] = k;
		for (;;) {
			size_t nx = step(l, cur);
			if (nx == (size_t)-1) {
				e = cur;
				break;
			}
			if (slow[nx] || seen_add(l, nx)) {
				loop = true;
				break;
			}
			if (end[nx] != UNKNOWN) {
				e = end[nx];
				break;
			}
			path[n++] = cur = nx;
		}
		for (size_t i = 0; i < n; i++) {
			slow[path[i]] = loop;
			end[path[i]] = loop ? UNKNOWN : e;
		}
	}
	free(path);
}

void txc_lineage_ends(const struct txc_lineage *l, size_t *root, size_t *tip)
{
	bool *slow = txc_xcalloc(l->n + 1, sizeof(bool));
	walk_ends(l, up_of, root, slow);
	walk_ends(l, next_of, tip, slow);
	for (size_t k = 0; k < l->n; k++) {
		if (!slow[k])
			continue;
		struct txc_chain c; /* a loop: the walk itself says where the chain starts and ends */
		txc_lineage_chain(l, k, &c);
		root[k] = c.v[0];
		tip[k] = c.v[c.n - 1];
		free(c.v);
	}
	free(slow);
}

/* where k is drawn when its compression parents loop (only such a chain has a root that continues
 * another, or k as its own root: a parent of itself): under the smallest id of the members up to k
 * in its chain (the cycle), or a root when that is k */
static size_t loop_root(const struct txc_lineage *l, size_t k)
{
	struct txc_chain c;
	txc_lineage_chain(l, k, &c);
	size_t root = c.v[0];
	for (size_t i = 0; c.v[i] != k; i++) /* k is in its own chain */
		if (str_cmp(l->v[c.v[i]].id, l->v[root].id) < 0)
			root = c.v[i];
	if (str_cmp(l->v[k].id, l->v[root].id) < 0)
		root = k;
	free(c.v);
	return root != k ? root : (size_t)-1;
}

void txc_lineage_tree(const struct txc_lineage *l, size_t *parent)
{
	size_t *root = txc_xmalloc((l->n + 1) * sizeof(size_t)), *tip = txc_xmalloc((l->n + 1) * sizeof(size_t));
	txc_lineage_ends(l, root, tip);
	for (size_t k = 0; k < l->n; k++) {
		if (up_of(l, k) == (size_t)-1) /* no compression parent: under its parent of any kind */
			parent[k] = l->v[k].parent.ptr ? txc_lineage_find(l, l->v[k].parent) : (size_t)-1;
		else if (root[k] != k && up_of(l, root[k]) == (size_t)-1)
			parent[k] = root[k]; /* a chain: under its root */
		else
			parent[k] = loop_root(l, k); /* a chain whose parents loop */
	}
	/* the members of a loop of parents (through any links) are roots */
	unsigned char *state = txc_xcalloc(l->n + 1, 1); /* 0 new, 1 on the current path, 2 done */
	for (size_t k = 0; k < l->n; k++) {
		size_t cur = k;
		while (cur != (size_t)-1 && state[cur] == 0) {
			state[cur] = 1;
			cur = parent[cur];
		}
		/* back on this path: a loop from cur, each member's parent the next (never none) */
		if (cur != (size_t)-1 && state[cur] == 1)
			for (size_t x = cur, nx; state[x] == 1; x = nx) {
				nx = parent[x];
				parent[x] = (size_t)-1;
				state[x] = 2;
			}
		for (cur = k; cur != (size_t)-1 && state[cur] == 1; cur = parent[cur])
			state[cur] = 2;
	}
	free(state);
	free(root);
	free(tip);
}

/* ---- one transcript from several ---- */

static void add_part(struct txc_transcript *t, struct txc_transcript *part)
{
	t->parts = txc_xrealloc(t->parts, (t->n_parts + 1) * sizeof(*t->parts));
	t->parts[t->n_parts++] = part;
}

static void sum_meta(struct txc_meta *m, const struct txc_meta *s)
{
	m->has_usage |= s->has_usage;
	m->input_tokens += s->input_tokens;
	m->output_tokens += s->output_tokens;
	m->cache_read_tokens += s->cache_read_tokens;
	m->cache_write_tokens += s->cache_write_tokens;
	m->reasoning_tokens += s->reasoning_tokens;
	m->message_count += s->message_count;
	if (s->has_cost) {
		m->cost_is_actual = m->has_cost ? m->cost_is_actual && s->cost_is_actual : s->cost_is_actual;
		m->cost_usd += s->cost_usd;
		m->has_cost = true;
	}
}

struct txc_transcript *txc_transcript_join(struct txc_transcript **parts, size_t n)
{
	struct txc_transcript *t = txc_transcript_new();
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += parts[i]->n_messages;
	t->messages = txc_arena_array(t->arena, total + 1, sizeof(*t->messages));
	t->segments = txc_arena_array(t->arena, n, sizeof(*t->segments));
	t->meta = parts[n - 1]->meta;                   /* the tip's, as Hermes's logical export takes it, but ... */
	t->meta.started_at = parts[0]->meta.started_at; /* ... the conversation started with its root */
	struct txc_meta sum = {0};
	for (size_t i = 0; i < n; i++) {
		const struct txc_transcript *p = parts[i];
		struct txc_segment *s = &t->segments[t->n_segments++];
		*s = (struct txc_segment){p->meta.id,       p->meta.title,     p->meta.end_reason, p->meta.started_at,
					  p->meta.ended_at, p->meta.has_ended, t->n_messages,      p};
		if (p->n_messages > 0) /* (an empty part's messages may be NULL) */
			memcpy(t->messages + t->n_messages, p->messages, p->n_messages * sizeof(*p->messages));
		t->n_messages += p->n_messages;
		sum_meta(&sum, &p->meta);
		add_part(t, parts[i]);
	}
	t->meta.has_usage = sum.has_usage;
	t->meta.input_tokens = sum.input_tokens;
	t->meta.output_tokens = sum.output_tokens;
	t->meta.cache_read_tokens = sum.cache_read_tokens;
	t->meta.cache_write_tokens = sum.cache_write_tokens;
	t->meta.reasoning_tokens = sum.reasoning_tokens;
	t->meta.message_count = sum.message_count;
	t->meta.has_cost = sum.has_cost;
	t->meta.cost_usd = sum.cost_usd;
	t->meta.cost_is_actual = sum.cost_is_actual;
	t->native = parts[n - 1]->native;
	return t;
}

static bool mentions(const struct txc_block *r, struct txc_str id)
{
	struct txc_str s = r->output_text;
	if (id.len == 0 || s.len < id.len)
		return false;
	for (size_t i = 0; i + id.len <= s.len; i++)
		if (memcmp(s.ptr + i, id.ptr, id.len) == 0)
			return true;
	return false;
}

/* the result of the call at (mi, bi), or NULL */
static const struct txc_block *result_of(const struct txc_transcript *t, size_t mi, const struct txc_block *call)
{
	for (size_t i = mi + 1; i < t->n_messages; i++)
		for (size_t j = 0; j < t->messages[i].n_blocks; j++) {
			const struct txc_block *b = &t->messages[i].blocks[j];
			if (b->kind == TXC_BLOCK_TOOL_RESULT && b->id.len == call->id.len &&
			    (b->id.len == 0 || memcmp(b->id.ptr, call->id.ptr, b->id.len) == 0))
				return b;
		}
	return NULL;
}

/* Hermes's delegate_task; Codex's spawn_agent (its result {"agent_id": <the child thread's id>}) */
static bool delegate_call(const struct txc_block *b)
{
	return b->kind == TXC_BLOCK_TOOL_USE &&
	       (txc_str_eq(b->source_name, "delegate_task") || txc_str_eq(b->name, "delegate_task") ||
		txc_str_eq(b->source_name, "spawn_agent"));
}

void txc_transcript_adopt(struct txc_transcript *t, struct txc_transcript *child, struct txc_str id,
			  struct txc_str title, double started)
{
	size_t at_m = t->n_messages, at_b = 0;
	bool named = false;
	for (size_t i = 0; i < t->n_messages && !named; i++)
		for (size_t j = 0; j < t->messages[i].n_blocks && !named; j++) {
			const struct txc_block *b = &t->messages[i].blocks[j];
			if (!delegate_call(b))
				continue;
			const struct txc_block *r = result_of(t, i, b);
			if (r != NULL && mentions(r, id))
				named = true;
			if (named || isnan(started) || t->messages[i].time <= started)
				at_m = i, at_b = j;
		}
	struct txc_child *v = txc_arena_array(t->arena, t->n_children + 1, sizeof(*v));
	if (t->n_children)
		memcpy(v, t->children, t->n_children * sizeof(*v));
	t->children = v;
	struct txc_child *c = &t->children[t->n_children++];
	*c = (struct txc_child){txc_arena_str(t->arena, id.ptr, id.len),
				title.ptr ? txc_arena_str(t->arena, title.ptr, title.len) : TXC_STR_NULL, at_m, at_b,
				child};
	if (child != NULL)
		add_part(t, child);
}
