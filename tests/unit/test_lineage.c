/* test_lineage.c - the chain, child and tree rules of src/model/lineage.c, on links alone. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "txc/lineage.h"

/* a link: id, parent (or NULL), end reason (or NULL), start, end (NAN: open), kind 'b'ranch 'd'elegate 't'ool */
static struct txc_link L(const char *id, const char *parent, const char *end, double started, double ended, char kind) {
	struct txc_link l = {.id = txc_str_c(id),
			     .parent = parent ? txc_str_c(parent) : TXC_STR_NULL,
			     .end_reason = end ? txc_str_c(end) : TXC_STR_NULL,
			     .started = started,
			     .ended = ended,
			     .last_active = NAN,
			     .branch = kind == 'b',
			     .delegate = kind == 'd',
			     .tool = kind == 't'};
	return l;
}

/* the chain of id as "a b c", and its flags */
static void
chain_of(const struct txc_link *v, size_t n, const char *id, char *out, bool *cycle, bool *missing)
{
	struct txc_lineage *l = txc_lineage_new(v, n);
	struct txc_chain c;
	txc_lineage_chain(l, txc_lineage_find(l, txc_str_c(id)), &c);
	out[0] = '\0';
	for (size_t i = 0; i < c.n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, v[c.v[i]].id.ptr);
	}
	*cycle = c.cycle;
	*missing = c.missing;
	free(c.v);
	txc_lineage_free(l);
}

static void chain_is(const struct txc_link *v, size_t n, const char *id, const char *want, bool cycle, bool missing)
{
	char got[512];
	bool cy, mi;
	chain_of(v, n, id, got, &cy, &mi);
	assert_string_equal(got, want);
	assert_int_equal(cy, cycle);
	assert_int_equal(mi, missing);
}

/* Hermes's "delegate hijack": P ran delegate D, then compressed into C, D started before C */
static void test_delegate_does_not_hijack(void **state)
{
	(void)state;
	const struct txc_link v[] = {L("P", NULL, "compression", 1, 10, 0), L("D", "P", "agent_close", 2, 3, 'd'),
				     L("C", "P", NULL, 11, NAN, 0)};
	chain_is(v, 3, "P", "P C", false, false);
	chain_is(v, 3, "C", "P C", false, false);
	chain_is(v, 3, "D", "D", false, false); /* a delegate is its own conversation */
}

/* a stale sibling started first, the live one resumes; asked by name, the stale one is its own end */
static void test_stale_sibling(void **state)
{
	(void)state;
	const struct txc_link v[] = {L("P", NULL, "compression", 1, 10, 0), L("S1", "P", "ws_orphan_reap", 11, 12, 0),
				     L("S2", "P", NULL, 13, NAN, 0), L("B", "P", NULL, 14, NAN, 'b'),
				     L("T", "P", NULL, 15, NAN, 't')};
	chain_is(v, 5, "P", "P S2", false, false);
	chain_is(v, 5, "S1", "P S1", false, false);
	chain_is(v, 5, "B", "B", false, false);
}

/* a continuation that compressed again is preferred over an open one */
static void test_prefers_compressed(void **state)
{
	(void)state;
	const struct txc_link v[] = {L("A", NULL, "compression", 1, 2, 0), L("open", "A", NULL, 5, NAN, 0),
				     L("B", "A", "compression", 3, 4, 0), L("C", "B", NULL, 4.5, NAN, 0)};
	chain_is(v, 4, "A", "A B C", false, false);
}

static void test_cycle_and_missing(void **state)
{
	(void)state;
	const struct txc_link v[] = {L("A", "C", "compression", 1, 2, 0), L("B", "A", "compression", 3, 4, 0),
				     L("C", "B", "compression", 5, 6, 0), L("O", "gone", "compression", 7, 8, 0),
				     L("O2", "O", NULL, 9, NAN, 0)};
	chain_is(v, 5, "A", "B C A", true, false);
	chain_is(v, 5, "C", "A B C", true, false);
	chain_is(v, 5, "O2", "O O2", false, true);
	struct txc_lineage *l = txc_lineage_new(v, 5);
	/* the tree: a cycle hangs under its smallest id, which is a root */
	size_t parent[5], root[5], tip[5];
	txc_lineage_tree(l, parent);
	assert_int_equal(parent[0], (size_t)-1);
	assert_int_equal(parent[1], 0);
	assert_int_equal(parent[2], 0);
	assert_int_equal(parent[3], (size_t)-1);
	assert_int_equal(parent[4], 3);
	/* all at once: the same ends as each chain */
	txc_lineage_ends(l, root, tip);
	assert_int_equal(root[0], 1); /* B C A */
	assert_int_equal(tip[0], 0);
	assert_int_equal(root[2], 0); /* A B C */
	assert_int_equal(tip[2], 2);
	assert_int_equal(root[4], 3);
	assert_int_equal(tip[3], 4);
	txc_lineage_free(l);
}

/* a chain longer than Hermes's 100-step tip walk: whole from every member */
static void test_long_chain_bounded(void **state)
{
	(void)state;
	enum { N = 150 };
	static struct txc_link v[N];
	static char names[N][16];
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "s%03d", i);
		v[i] = L(names[i], i ? names[i - 1] : NULL, i < N - 1 ? "compression" : NULL, i, i + 0.5, 0);
	}
	struct txc_lineage *l = txc_lineage_new(v, N);
	struct txc_chain c;
	txc_lineage_chain(l, 0, &c);
	assert_int_equal(c.n, N);
	free(c.v);
	txc_lineage_chain(l, N - 1, &c);
	assert_int_equal(c.n, N);
	free(c.v);
	static size_t root[N], tip[N], parent[N];
	txc_lineage_ends(l, root, tip);
	txc_lineage_tree(l, parent);
	for (int i = 0; i < N; i++) {
		assert_int_equal(root[i], 0);
		assert_int_equal(tip[i], N - 1);
		assert_int_equal(parent[i], i ? 0 : (size_t)-1);
	}
	txc_lineage_free(l);
}

static void test_children(void **state)
{
	(void)state;
	const struct txc_link v[] = {L("P", NULL, NULL, 1, NAN, 0), L("d2", "P", NULL, 5, 6, 'd'),
				     L("d1", "P", NULL, 3, 4, 'd'), L("br", "P", NULL, 2, NAN, 'b')};
	struct txc_lineage *l = txc_lineage_new(v, 4);
	size_t *kids;
	size_t n = txc_lineage_children(l, 0, &kids);
	assert_int_equal(n, 2);
	assert_int_equal(kids[0], 2); /* oldest first */
	assert_int_equal(kids[1], 1);
	free(kids);
	size_t parent[4];
	txc_lineage_tree(l, parent);
	assert_int_equal(parent[3], 0);
	assert_int_equal(parent[1], 0);
	assert_int_equal(txc_lineage_find(l, txc_str_c("nope")), (size_t)-1);
	txc_lineage_free(l);
	/* a delegate its own parent (a hostile store or rollout) is not its own child: --children
	 * would fold the session into itself, every message twice */
	const struct txc_link w[] = {L("S", "S", NULL, 1, 2, 'd'), L("k", "S", NULL, 3, 4, 'd')};
	l = txc_lineage_new(w, 2);
	assert_int_equal(txc_lineage_children(l, 0, &kids), 1);
	assert_int_equal(kids[0], 1);
	free(kids);
	txc_lineage_free(l);
}

/* ends, tree and chain agree: root[k] and tip[k] are the first and last of chain(k) */
static void ends_are_chains(const struct txc_link *v, size_t n)
{
	struct txc_lineage *l = txc_lineage_new(v, n);
	size_t root[16], tip[16];
	assert_true(n <= 16);
	txc_lineage_ends(l, root, tip);
	for (size_t k = 0; k < n; k++) {
		struct txc_chain c;
		txc_lineage_chain(l, k, &c);
		assert_int_equal(root[k], c.v[0]);
		assert_int_equal(tip[k], c.v[c.n - 1]);
		free(c.v);
	}
	txc_lineage_free(l);
}

/* Hermes's tie-breaks among continuations of the same rank: newest activity, then start, then id */
static void test_ties(void **state)
{
	(void)state;
	struct txc_link a[] = {L("P", NULL, "compression", 1, 2, 0), L("X", "P", NULL, 5, NAN, 0),
			       L("Y", "P", NULL, 6, NAN, 0)};
	a[1].last_active = 20; /* X started first but was active last */
	a[2].last_active = 10;
	chain_is(a, 3, "P", "P X", false, false);
	a[1].last_active = NAN; /* X's activity is its start, 5: Y's 5 too, Y started later */
	a[2].last_active = 5;
	chain_is(a, 3, "P", "P Y", false, false);
	const struct txc_link b[] = {L("P", NULL, "compression", 1, 2, 0), L("X", "P", NULL, 5, NAN, 0),
				     L("Y", "P", NULL, 5, NAN, 0)}; /* the same in all but id: the larger id */
	chain_is(b, 3, "P", "P Y", false, false);
	chain_is(b, 3, "X", "P X", false, false);
	/* an unknown start sorts first and loses to any known one */
	const struct txc_link c[] = {L("P", NULL, "compression", 1, 2, 0), L("N1", "P", NULL, NAN, NAN, 0),
				     L("K", "P", NULL, 3, NAN, 0), L("N2", "P", NULL, NAN, NAN, 0)};
	chain_is(c, 4, "P", "P K", false, false);
	ends_are_chains(c, 4);
	/* rank: one that compressed again, then an open one, then one that ended otherwise */
	const struct txc_link d[] = {L("P", NULL, "compression", 1, 2, 0), L("E", "P", "cli_close", 9, 10, 0),
				     L("O", "P", NULL, 3, NAN, 0)};
	chain_is(d, 3, "P", "P O", false, false);
	const struct txc_link e[] = {L("P", NULL, "compression", 1, 2, 0), L("E", "P", "cli_close", 9, 10, 0),
				     L("F", "P", "user_exit", 3, 4, 0)};
	chain_is(e, 3, "P", "P E", false, false);
	/* children's order with unknown starts: by id among them, then the known */
	size_t *kids;
	const struct txc_link f[] = {L("P", NULL, NULL, 1, NAN, 0), L("db", "P", NULL, NAN, 1, 'd'),
				     L("dc", "P", NULL, 2, 3, 'd'), L("da", "P", NULL, NAN, 1, 'd')};
	struct txc_lineage *l = txc_lineage_new(f, 4);
	assert_int_equal(txc_lineage_children(l, 0, &kids), 3);
	assert_int_equal(kids[0], 3);
	assert_int_equal(kids[1], 1);
	assert_int_equal(kids[2], 2);
	free(kids);
	txc_lineage_free(l);
}

/* a reset (a child of a session that did not compress) starts its own chain; an empty id is a name */
static void test_reset_and_empty_id(void **state)
{
	(void)state;
	const struct txc_link v[] = {L("R", NULL, "cli_close", 1, 2, 0), L("K", "R", "compression", 3, 4, 0),
				     L("", "K", NULL, 5, NAN, 0), L("Z", "", NULL, 6, NAN, 'd')};
	chain_is(v, 4, "K", "K ", false, false);
	chain_is(v, 4, "", "K ", false, false);
	chain_is(v, 4, "R", "R", false, false);
	struct txc_lineage *l = txc_lineage_new(v, 4);
	assert_int_equal(txc_lineage_find(l, txc_str_c("")), 2);
	size_t *kids, parent[4];
	assert_int_equal(txc_lineage_children(l, 2, &kids), 1);
	assert_int_equal(kids[0], 3);
	free(kids);
	txc_lineage_tree(l, parent);
	assert_int_equal(parent[0], (size_t)-1);
	assert_int_equal(parent[1], 0); /* under its parent of any kind */
	assert_int_equal(parent[2], 1); /* under its chain's root */
	assert_int_equal(parent[3], 2);
	txc_lineage_free(l);
	ends_are_chains(v, 4);
	txc_lineage_free(NULL);
}

/* a session its own parent; a chain leading into a cycle; a loop of parents that are not compressions */
static void test_loops(void **state)
{
	(void)state;
	const struct txc_link v[] = {L("self", "self", "compression", 1, 2, 0),
				     L("A", "C", "compression", 3, 4, 0),
				     L("B", "A", "compression", 5, 6, 0),
				     L("C", "B", "compression", 7, 8, 0),
				     L("X", "A", "compression", 4.5, 4.6, 0),
				     L("Y", "X", NULL, 9, NAN, 0),
				     L("p", "q", NULL, 10, NAN, 'b'),
				     L("q", "p", NULL, 11, NAN, 'b'),
				     L("r", "q", NULL, 12, NAN, 'b')};
	chain_is(v, 9, "self", "self", true, false);
	chain_is(v, 9, "Y", "B C A X Y", true, false);
	chain_is(v, 9, "X", "B C A X Y", true, false);
	chain_is(v, 9, "A", "B C A", true, false); /* B, active after X, is A's tip: seen, so the chain ends */
	chain_is(v, 9, "p", "p", false, false);
	ends_are_chains(v, 9);
	struct txc_lineage *l = txc_lineage_new(v, 9);
	size_t parent[9];
	txc_lineage_tree(l, parent);
	assert_int_equal(parent[0], (size_t)-1); /* its own parent: a root */
	assert_int_equal(parent[1], (size_t)-1); /* A: the cycle's smallest id */
	assert_int_equal(parent[2], 1);
	assert_int_equal(parent[3], 1);
	assert_int_equal(parent[4], 1);
	assert_int_equal(parent[5], 1);
	assert_int_equal(parent[6], (size_t)-1); /* p and q: a loop of branches, both roots */
	assert_int_equal(parent[7], (size_t)-1);
	assert_int_equal(parent[8], 7); /* r hangs under q all the same */
	txc_lineage_free(l);
}

/* a transcript of the given messages: each "u" user text, "c<id>" a delegate_task call, "r<id>:<text>" its result */
static struct txc_transcript *script(const char *const *spec, size_t n)
{
	struct txc_transcript *t = txc_transcript_new();
	t->messages = txc_arena_array(t->arena, n + 1, sizeof(*t->messages));
	for (size_t i = 0; i < n; i++) {
		struct txc_message *m = &t->messages[t->n_messages++];
		struct txc_block *b = txc_arena_array(t->arena, 2, sizeof(*b));
		const char *s = spec[i], *colon = strchr(s, ':');
		m->time = (double)i;
		m->blocks = b;
		m->n_blocks = 1;
		if (s[0] == 'c' || s[0] == 'n') { /* n: a call Hermes named by source only */
			m->role = TXC_ROLE_ASSISTANT;
			struct txc_block call = {.kind = TXC_BLOCK_TOOL_USE, .id = txc_str_c(s + 1)};
			struct txc_block text = {.kind = TXC_BLOCK_TEXT, .text = txc_str_c("calling")};
			if (s[0] == 'c') /* the call, then a text */
				call.name = txc_str_c("delegate_task"), b[0] = call, b[1] = text;
			else /* a text, then the call */
				call.source_name = txc_str_c("delegate_task"), call.name = txc_str_c("Task"),
				b[0] = text, b[1] = call;
			m->n_blocks = 2;
		} else if (s[0] == 'o') { /* another tool */
			m->role = TXC_ROLE_ASSISTANT;
			b[0] = (struct txc_block){
				.kind = TXC_BLOCK_TOOL_USE, .id = txc_str_c(s + 1), .name = txc_str_c("Read")};
		} else if (s[0] == 'r') {
			m->role = TXC_ROLE_USER;
			b[0] = (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT,
						  .id = txc_arena_str(t->arena, s + 1, (size_t)(colon - s - 1)),
						  .output_text = txc_str_c(colon + 1)};
		} else {
			m->role = TXC_ROLE_USER;
			b[0] = (struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c(s)};
		}
	}
	return t;
}

static void placed_at(const struct txc_transcript *t, size_t i, const char *id, size_t message, size_t block)
{
	assert_true(i < t->n_children);
	assert_string_equal(t->children[i].id.ptr, id);
	assert_int_equal(t->children[i].message, message);
	assert_int_equal(t->children[i].block, block);
}

static void test_adopt(void **state)
{
	(void)state;
	/* 0 text, 1 call d1, 2 another tool, 3 a result of the same length as d1's, 4 d1's result naming
	 * kid_a, 5 a call by source name n2, 6 its result (too short to name anyone), 7 a call with no id,
	 * 8 its result, 9 a call never answered, 10 a result of another length */
	static const char *const spec[] = {"go",        "cd1",   "oz1", "rz1:kid_a",       "rd1:ok, session kid_a done",
					   "nn2",       "rn2:k", "c",   "r:no name given", "cd9",
					   "rd99:kid_b"};
	struct txc_transcript *t = script(spec, 11);
	struct txc_transcript *kid = txc_transcript_new();
	txc_transcript_adopt(t, kid, txc_str_c("kid_a"), txc_str_c("Find it"), 100); /* named: the first call */
	txc_transcript_adopt(t, NULL, txc_str_c("kid_b"), TXC_STR_NULL, 6.5);        /* the last call before 6.5 */
	txc_transcript_adopt(t, NULL, txc_str_c("kid_c"), TXC_STR_NULL, NAN);        /* no start: the last call */
	txc_transcript_adopt(t, NULL, txc_str_c("kid_d"), txc_str_c(""), 0.5);       /* before every call: after all */
	txc_transcript_adopt(t, NULL, txc_str_c(""), TXC_STR_NULL, 5);               /* an empty id names nothing */
	assert_int_equal(t->n_children, 5);
	placed_at(t, 0, "kid_a", 1, 0);
	placed_at(t, 1, "kid_b", 5, 1);
	placed_at(t, 2, "kid_c", 9, 0);
	placed_at(t, 3, "kid_d", 11, 0);
	placed_at(t, 4, "", 5, 1);
	assert_string_equal(t->children[0].title.ptr, "Find it");
	assert_ptr_equal(t->children[0].t, kid);
	assert_null(t->children[1].title.ptr);
	assert_non_null(t->children[3].title.ptr);
	assert_int_equal(t->children[3].title.len, 0);
	assert_null(t->children[1].t);
	assert_int_equal(t->n_parts, 1); /* the child is freed with t */
	txc_transcript_free(t);
}

/* costs: summed, actual only when every costed part's is */
static void test_join_costs(void **state)
{
	(void)state;
	struct txc_transcript *p[3];
	for (int i = 0; i < 3; i++) {
		p[i] = txc_transcript_new();
		p[i]->meta.started_at = 10 * (i + 1);
		p[i]->meta.input_tokens = i + 1;
	}
	p[1]->meta.has_cost = true, p[1]->meta.cost_usd = 1.5, p[1]->meta.cost_is_actual = true;
	p[2]->meta.has_cost = true, p[2]->meta.cost_usd = 2, p[2]->meta.cost_is_actual = false;
	struct txc_transcript *t = txc_transcript_join(p, 3);
	assert_true(t->meta.has_cost);
	assert_true(t->meta.cost_usd == 3.5);
	assert_false(t->meta.cost_is_actual);
	assert_int_equal(t->meta.input_tokens, 6);
	assert_true(t->meta.started_at == 10);
	assert_int_equal(t->n_segments, 3);
	txc_transcript_free(t);
	for (int i = 0; i < 2; i++) {
		p[i] = txc_transcript_new();
		p[i]->meta.has_cost = true, p[i]->meta.cost_usd = 1, p[i]->meta.cost_is_actual = true;
	}
	t = txc_transcript_join(p, 2);
	assert_true(t->meta.has_cost && t->meta.cost_is_actual && t->meta.cost_usd == 2);
	txc_transcript_free(t);
	for (int i = 0; i < 2; i++) { /* the first estimated, the second actual: estimated */
		p[i] = txc_transcript_new();
		p[i]->meta.has_cost = true, p[i]->meta.cost_usd = 1, p[i]->meta.cost_is_actual = i == 1;
	}
	t = txc_transcript_join(p, 2);
	assert_true(t->meta.has_cost && !t->meta.cost_is_actual && t->meta.cost_usd == 2);
	txc_transcript_free(t);
	p[0] = txc_transcript_new();
	t = txc_transcript_join(p, 1);
	assert_false(t->meta.has_cost);
	assert_false(t->meta.cost_is_actual);
	txc_transcript_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delegate_does_not_hijack),
		cmocka_unit_test(test_stale_sibling),
		cmocka_unit_test(test_prefers_compressed),
		cmocka_unit_test(test_cycle_and_missing),
		cmocka_unit_test(test_long_chain_bounded),
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_reset_and_empty_id),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_adopt),
		cmocka_unit_test(test_join_costs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
