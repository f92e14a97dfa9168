/*
 * sort.c - txc_sort: a stable merge sort whose comparison takes a context pointer, so no
 * caller keeps its sort key in a global (qsort has no context; qsort_r is not portable).
 *
 * It is the plain top-down merge glibc's qsort runs (the left half is the n/2 first elements,
 * a tie takes the left one): the comparisons come in the same order, so even a comparison that
 * is not a strict order (NaN times in lineage trees) gives the order qsort gave before.
 */
#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

struct sorter {
	char *tmp; /* scratch for the left half of a merge */
	size_t size;
	txc_sort_cmp *cmp;
	void *ctx;
};

/* merge the sorted halves [p, p+na) and [p+na, p+n): the left half is copied out first */
static void merge(const struct sorter *s, char *p, size_t na, size_t n)
{
	size_t sz = s->size;
	char *b = p + na * sz, *end = p + n * sz;
	memcpy(s->tmp, p, na * sz);
	char *a = s->tmp, *a_end = s->tmp + na * sz, *out = p;
	while (a < a_end && b < end) {
		if (s->cmp(a, b, s->ctx) <= 0) { /* ties keep the left (earlier) element first */
			memcpy(out, a, sz);
			a += sz;
		} else {
			memcpy(out, b, sz);
			b += sz;
		}
		out += sz;
	}
	memcpy(out, a, (size_t)(a_end - a)); /* what is left of b is already in place */
}

static void sort_range(const struct sorter *s, char *p, size_t n)
{
	if (n < 2)
		return;
	size_t na = n / 2;
	sort_range(s, p, na);
	sort_range(s, p + na * s->size, n - na);
	merge(s, p, na, n);
}

void txc_sort(void *base, size_t n, size_t size, txc_sort_cmp *cmp, void *ctx)
{
	if (n < 2 || size == 0)
		return;
	struct sorter s = {txc_xmalloc(n / 2 * size), size, cmp, ctx};
	sort_range(&s, base, n);
	free(s.tmp);
}
