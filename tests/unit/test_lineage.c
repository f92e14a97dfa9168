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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delegate_does_not_hijack), cmocka_unit_test(test_stale_sibling),
		cmocka_unit_test(test_prefers_compressed),       cmocka_unit_test(test_cycle_and_missing),
		cmocka_unit_test(test_long_chain_bounded),       cmocka_unit_test(test_children),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
