/* test_pool.c - src/archive's fork() pool on its own: every item's bytes come back in the order of
 * the list whatever worker made them, a worker that dies loses only the item it was on, and the
 * pool falls back to the caller when it has nothing to share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pool.h"

struct ctx {
	int inits;  /* in a worker: init ran (before its jobs) */
	size_t die; /* the item whose job kills its worker (SIZE_MAX: none) */
	bool all_die;
	size_t big; /* the item whose bytes are more than a pipe holds */
};

static void init(void *p)
{
	((struct ctx *)p)->inits++;
}

static void job(void *p, size_t item, struct txc_buf *msg)
{
	struct ctx *c = p;
	if (c->all_die || item == c->die)
		_exit(1);
	txc_buf_addf(msg, "item %zu init %d", item, c->inits);
	for (size_t i = 0; item == c->big && i < (3u << 20); i++)
		txc_buf_addch(msg, (char)('a' + i % 26));
}

static const struct txc_pool_ops ops = {init, job, NULL};

/* the items 0..n-1 in a shuffled order */
static size_t *shuffled(size_t n)
{
	size_t *v = malloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = (i * 7 + 3) % n; /* n not a multiple of 7: a permutation */
	return v;
}

static void test_order(void **state)
{
	(void)state;
	struct ctx c = {0, SIZE_MAX, false, 5};
	size_t n = 40, *items = shuffled(n);
	struct txc_pool pl;
	txc_pool_start(&pl, 3, items, n, &ops, &c, -1);
	assert_int_equal(pl.n, 3);
	struct txc_buf msg = TXC_BUF_INIT;
	for (size_t k = 0; k < n; k++) {
		char want[64];
		snprintf(want, sizeof(want), "item %zu init 1", items[k]);
		assert_true(txc_pool_next(&pl, &msg));
		assert_true(msg.len >= strlen(want) && memcmp(msg.buf, want, strlen(want)) == 0);
		assert_int_equal(msg.len, strlen(want) + (items[k] == c.big ? 3u << 20 : 0));
	}
	assert_false(txc_pool_next(&pl, &msg)); /* past the end */
	assert_int_equal(c.inits, 0);           /* init ran in the workers only */
	txc_pool_stop(&pl);
	assert_int_equal(pl.n, 0);
	txc_buf_release(&msg);
	free(items);
}

static void test_nothing_to_share(void **state)
{
	(void)state;
	struct ctx c = {0, SIZE_MAX, false, SIZE_MAX};
	size_t items[] = {0, 1, 2};
	struct txc_pool pl;
	txc_pool_start(&pl, 1, items, 3, &ops, &c, -1); /* one worker: the caller's work */
	assert_int_equal(pl.n, 0);
	txc_pool_stop(&pl);
	txc_pool_start(&pl, 4, items, 1, &ops, &c, -1); /* one item */
	assert_int_equal(pl.n, 0);
	txc_pool_stop(&pl);
}

static void test_dead_worker(void **state)
{
	(void)state;
	struct ctx c = {0, 2, false, SIZE_MAX};
	size_t items[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	struct txc_pool pl;
	txc_pool_start(&pl, 2, items, 10, &ops, &c, -1);
	struct txc_buf msg = TXC_BUF_INIT;
	for (size_t k = 0; k < 10; k++) {
		bool got = txc_pool_next(&pl, &msg);
		assert_true(got == (k != 2)); /* the others went to the worker that was left */
		if (got) {
			char want[64];
			snprintf(want, sizeof(want), "item %zu init 1", k);
			assert_string_equal(msg.buf, want);
		}
	}
	txc_pool_stop(&pl);
	txc_buf_release(&msg);
}

static void test_all_dead(void **state)
{
	(void)state;
	struct ctx c = {0, SIZE_MAX, true, SIZE_MAX};
	size_t items[] = {0, 1, 2, 3, 4, 5};
	struct txc_pool pl;
	txc_pool_start(&pl, 2, items, 6, &ops, &c, -1);
	struct txc_buf msg = TXC_BUF_INIT;
	for (size_t k = 0; k < 6; k++) /* none hangs: no worker is left to take it */
		assert_false(txc_pool_next(&pl, &msg));
	txc_pool_stop(&pl);
	txc_buf_release(&msg);
}

/* keep_fd is closed in every worker at once: the write end of a pipe, closed here too, reads
 * the end of the file while the workers still run */
static void test_keep_fd_closed(void **state)
{
	(void)state;
	struct ctx c = {0, SIZE_MAX, false, SIZE_MAX};
	size_t items[] = {0, 1, 2, 3};
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct txc_pool pl;
	txc_pool_start(&pl, 2, items, 4, &ops, &c, fds[1]);
	close(fds[1]);
	char ch;
	assert_int_equal(read(fds[0], &ch, 1), 0);
	close(fds[0]);
	struct txc_buf msg = TXC_BUF_INIT;
	for (size_t k = 0; k < 4; k++)
		assert_true(txc_pool_next(&pl, &msg));
	txc_pool_stop(&pl);
	txc_buf_release(&msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),          cmocka_unit_test(test_nothing_to_share),
		cmocka_unit_test(test_dead_worker),    cmocka_unit_test(test_all_dead),
		cmocka_unit_test(test_keep_fd_closed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
