/* test_strmap.c - util/strmap.c (the string-keyed hash map) and util/sort.c (txc_sort). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "txc/strmap.h"
#include "txc/util.h"

static void test_hash(void **state)
{
	(void)state;
	/* the bytes decide, not where they sit: the same key at another alignment hashes the same */
	char buf[64];
	const char *key = "20260914_101500_7f3e9a2b-the-session-id";
	size_t len = strlen(key);
	memcpy(buf + 1, key, len);
	assert_true(txc_strmap_hash(key, len) == txc_strmap_hash(buf + 1, len));
	/* a byte changed anywhere (a word's, the tail's) or a zero byte more: another hash */
	for (size_t i = 0; i < len; i++) {
		memcpy(buf, key, len);
		buf[i] ^= 1;
		assert_true(txc_strmap_hash(buf, len) != txc_strmap_hash(key, len));
	}
	assert_true(txc_strmap_hash("a", 1) != txc_strmap_hash("a\0", 2));
	assert_true(txc_strmap_hash("", 0) != txc_strmap_hash("\0", 1));
	assert_true(txc_strmap_hash("12345678", 8) != txc_strmap_hash("123456780", 9));
}

static const char *unique(struct txc_strmap *m, struct txc_arena *a, const char *text)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_buf_addstr(&t, text);
	const char *k = txc_strmap_unique(m, &t, a);
	assert_string_equal(k, t.buf);
	txc_buf_release(&t);
	return k;
}

static void test_unique(void **state)
{
	(void)state;
	struct txc_strmap m = TXC_STRMAP_INIT;
	struct txc_arena *a = txc_arena_new(0);
	assert_string_equal(unique(&m, a, "call"), "call");
	assert_string_equal(unique(&m, a, "call"), "call_2");
	assert_string_equal(unique(&m, a, "call"), "call_3");
	assert_string_equal(unique(&m, a, "call_2"), "call_2_2"); /* taken by a repeat: made unique too */
	assert_string_equal(unique(&m, a, "call_4"), "call_4");
	assert_string_equal(unique(&m, a, "call"), "call_5"); /* call_4 was taken meanwhile */
	assert_int_equal(m.n, 6);
	assert_non_null(txc_strmap_get(&m, "call_3", 6));
	txc_strmap_free(&m);
	txc_arena_free(a);
}

static void test_reserve(void **state)
{
	(void)state;
	struct txc_strmap m = TXC_STRMAP_INIT;
	txc_strmap_reserve(&m, 1000);
	size_t cap = m.cap;
	assert_true(cap >= 2000);
	char k[16];
	for (int i = 0; i < 1000; i++) {
		int n = snprintf(k, sizeof(k), "k%d", i);
		txc_strmap_put(&m, k, (size_t)n, NULL)->num = (size_t)i;
	}
	assert_int_equal(m.cap, cap); /* no growth while putting them */
	assert_int_equal(m.n, 1000);
	assert_int_equal(txc_strmap_get(&m, "k999", 4)->num, 999);
	txc_strmap_free(&m);
}

static void test_put_get(void **state)
{
	(void)state;
	struct txc_strmap m = TXC_STRMAP_INIT;
	assert_null(txc_strmap_get(&m, "x", 1)); /* an empty map has no slots */
	bool added = false;
	struct txc_strmap_entry *e = txc_strmap_put(&m, "alpha", 5, &added);
	assert_true(added);
	assert_null(e->ptr);
	assert_int_equal(e->num, 0);
	e->num = 7;
	e = txc_strmap_put(&m, "alpha", 5, &added);
	assert_false(added);
	assert_int_equal(e->num, 7);
	assert_int_equal(m.n, 1);
	/* a prefix, a longer key and a key of the same length are other keys */
	assert_null(txc_strmap_get(&m, "alph", 4));
	assert_null(txc_strmap_get(&m, "alphab", 6));
	assert_null(txc_strmap_get(&m, "alphb", 5));
	assert_int_equal(txc_strmap_get(&m, "alpha", 5)->num, 7);
	/* keys are ptr+len: the bytes after len do not count */
	assert_int_equal(txc_strmap_get(&m, "alphabet", 5)->num, 7);
	txc_strmap_put(&m, "beta", 4, NULL)->ptr = &m;
	assert_ptr_equal(txc_strmap_get(&m, "beta", 4)->ptr, &m);
	txc_strmap_free(&m);
	assert_int_equal(m.n, 0);
	assert_null(txc_strmap_get(&m, "alpha", 5));
}

static void test_empty_and_binary_keys(void **state)
{
	(void)state;
	struct txc_strmap m = TXC_STRMAP_INIT;
	bool added;
	struct txc_strmap_entry *e = txc_strmap_put(&m, NULL, 0, &added); /* an empty key from a NULL pointer */
	assert_true(added);
	assert_non_null(e->key);
	e->num = 1;
	assert_int_equal(txc_strmap_get(&m, "", 0)->num, 1);
	txc_strmap_put(&m, "", 0, &added);
	assert_false(added);
	/* NUL bytes are part of the key */
	static const char k1[] = {'a', '\0', 'b'}, k2[] = {'a', '\0', 'c'}, k3[] = {'\0'};
	txc_strmap_put(&m, k1, 3, NULL)->num = 2;
	txc_strmap_put(&m, k2, 3, NULL)->num = 3;
	txc_strmap_put(&m, k3, 1, NULL)->num = 4;
	assert_int_equal(m.n, 4);
	assert_int_equal(txc_strmap_get(&m, k1, 3)->num, 2);
	assert_int_equal(txc_strmap_get(&m, k2, 3)->num, 3);
	assert_int_equal(txc_strmap_get(&m, k3, 1)->num, 4);
	assert_null(txc_strmap_get(&m, "a", 1));
	assert_int_equal(txc_strmap_get(&m, "", 0)->num, 1);
	static const char hi[] = {(char)0xff, (char)0x80};
	txc_strmap_put(&m, hi, 2, NULL)->num = 5;
	assert_int_equal(txc_strmap_get(&m, hi, 2)->num, 5);
	txc_strmap_free(&m);
}

/* keys whose hashes share their low bits probe the same run of slots */
static void test_collisions(void **state)
{
	(void)state;
	struct txc_strmap m = TXC_STRMAP_INIT;
	txc_strmap_put(&m, "seed", 4, NULL); /* 64 slots now */
	char keys[40][16];
	size_t nk = 0;
	uint64_t want = txc_strmap_hash("seed", 4) & 63;
	for (unsigned i = 0; nk < 20 && i < 1000000; i++) {
		int len = snprintf(keys[nk], sizeof(keys[nk]), "k%u", i);
		if ((txc_strmap_hash(keys[nk], (size_t)len) & 63) == want)
			nk++;
	}
	assert_int_equal(nk, 20);
	for (size_t i = 0; i < nk; i++) {
		bool added;
		txc_strmap_put(&m, keys[i], strlen(keys[i]), &added)->num = i + 100;
		assert_true(added);
	}
	assert_int_equal(m.cap, 64); /* 21 entries: no growth, one probe run */
	for (size_t i = 0; i < nk; i++)
		assert_int_equal(txc_strmap_get(&m, keys[i], strlen(keys[i]))->num, i + 100);
	assert_null(txc_strmap_get(&m, "k-none", 6));
	txc_strmap_free(&m);
}

static void test_growth_and_iteration(void **state)
{
	(void)state;
	enum { N = 5000 };
	struct txc_strmap m = TXC_STRMAP_INIT;
	static char keys[N][12];
	for (size_t i = 0; i < N; i++) {
		int len = snprintf(keys[i], sizeof(keys[i]), "%zu", i * 7919);
		bool added;
		txc_strmap_put(&m, keys[i], (size_t)len, &added)->num = i;
		assert_true(added);
		assert_true(2 * m.n <= m.cap);
	}
	assert_int_equal(m.n, N);
	for (size_t i = 0; i < N; i++) {
		struct txc_strmap_entry *e = txc_strmap_get(&m, keys[i], strlen(keys[i]));
		assert_non_null(e);
		assert_int_equal(e->num, i);
		assert_ptr_equal(e->key, keys[i]); /* keys are borrowed, not copied */
	}
	static unsigned char seen[N];
	size_t at = 0, count = 0;
	for (struct txc_strmap_entry *e; (e = txc_strmap_next(&m, &at)) != NULL; count++) {
		assert_false(seen[e->num]);
		seen[e->num] = 1;
	}
	assert_int_equal(count, N);
	txc_strmap_free(&m);
	at = 0;
	assert_null(txc_strmap_next(&m, &at));
}

struct rec {
	int key, seq;
};

static int cmp_rec(const void *a, const void *b, void *ctx)
{
	int *calls = ctx;
	(*calls)++;
	const struct rec *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

/* index sort through a context, as lineage.c and cmd_search.c use it */
static int cmp_by_ctx(const void *a, const void *b, void *ctx)
{
	const int *vals = ctx;
	int x = vals[*(const size_t *)a], y = vals[*(const size_t *)b];
	return (x < y) - (x > y); /* descending */
}

static void test_sort_stable(void **state)
{
	(void)state;
	for (size_t n = 0; n < 300; n = n < 20 ? n + 1 : n * 2 + 3) {
		struct rec *v = txc_xmalloc(n * sizeof(*v) + 1);
		unsigned seed = (unsigned)n * 2654435761u;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			v[i] = (struct rec){(int)((seed >> 16) % 7), (int)i}; /* many ties */
		}
		int calls = 0;
		txc_sort(v, n, sizeof(*v), cmp_rec, &calls);
		for (size_t i = 1; i < n; i++) {
			assert_true(v[i - 1].key <= v[i].key);
			if (v[i - 1].key == v[i].key)
				assert_true(v[i - 1].seq < v[i].seq); /* stable */
		}
		if (n > 1)
			assert_true(calls > 0); /* the context reached the comparison */
		free(v);
	}
	int vals[] = {3, 9, 1, 9, 4};
	size_t idx[] = {0, 1, 2, 3, 4};
	txc_sort(idx, 5, sizeof(size_t), cmp_by_ctx, vals);
	size_t want[] = {1, 3, 4, 0, 2};
	assert_memory_equal(idx, want, sizeof(want));
}

static void test_sort_sorted_and_reversed(void **state)
{
	(void)state;
	enum { N = 1000 };
	struct rec v[N];
	for (size_t i = 0; i < N; i++)
		v[i] = (struct rec){(int)(N - i), (int)i};
	int calls = 0;
	txc_sort(v, N, sizeof(*v), cmp_rec, &calls);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(v[i].key, (int)i + 1);
	txc_sort(v, N, sizeof(*v), cmp_rec, &calls); /* already sorted */
	for (size_t i = 0; i < N; i++)
		assert_int_equal(v[i].key, (int)i + 1);
}

/* glibc's qsort order for a comparison that is not a strict order: the same comparisons, the same result */
static int cmp_odd(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	int x = *(const int *)a, y = *(const int *)b;
	if (x < 0 || y < 0) /* "NaN": equal to everything */
		return 0;
	return (x > y) - (x < y);
}

static void test_sort_partial_order(void **state)
{
	(void)state;
	int v[] = {5, -1, 3, 4, -1, 1, 2, 0, -1};
	txc_sort(v, 9, sizeof(int), cmp_odd, NULL);
	/* what glibc 2.36 qsort gives for these (a plain top-down merge sort, n/2 on the left) */
	int want[] = {3, 4, 5, -1, -1, 0, 1, 2, -1};
	assert_memory_equal(v, want, sizeof(want));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_unique),
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_empty_and_binary_keys),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_growth_and_iteration),
		cmocka_unit_test(test_sort_stable),
		cmocka_unit_test(test_sort_sorted_and_reversed),
		cmocka_unit_test(test_sort_partial_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
