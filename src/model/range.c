/*
 * range.c - ID#RANGE: the parse (pure text) and the slice of a loaded
 * transcript, widened around tool calls so that every call keeps its result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/range.h"

/* ---- the parse ---- */

/* digits [p, end) as a message number: 1 to 10^15 (beyond any session); false otherwise */
static bool number(const char *p, const char *end, int64_t *out)
{
	int64_t v = 0;
	if (p == end || end - p > 15)
		return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return true;
}

static int refuse(struct txc_diag *d, const char *why)
{
	txc_diag_set(d, TXC_E_USAGE, "bad message range after '#': %s (use N, N-M, N- or -N; messages count from 1)",
		     why);
	return TXC_E_USAGE;
}

int txc_range_parse(const char *s, size_t len, struct txc_range *r, struct txc_diag *d)
{
	memset(r, 0, sizeof(*r));
	if (len == 0)
		return refuse(d, "it is empty");
	const char *end = s + len, *dash = memchr(s, '-', len);
	bool ok, zero;
	if (dash == NULL) { /* N */
		ok = number(s, end, &r->first);
		r->last = r->first;
		zero = r->first == 0;
	} else if (dash == s) { /* -N */
		ok = number(s + 1, end, &r->tail);
		zero = r->tail == 0;
	} else { /* N-M, N- */
		ok = number(s, dash, &r->first) && (dash + 1 == end || number(dash + 1, end, &r->last));
		zero = r->first == 0 || (dash + 1 != end && r->last == 0);
	}
	if (!ok)
		return refuse(d, "not a number or a range of numbers");
	if (zero)
		return refuse(d, "message 0 does not exist");
	if (r->last != 0 && r->last < r->first)
		return refuse(d, "its end comes before its start");
	return TXC_OK;
}

void txc_range_words(char out[64], int64_t first, int64_t last)
{
	if (first == last)
		snprintf(out, 64, "message %lld", (long long)first);
	else
		snprintf(out, 64, "messages %lld-%lld", (long long)first, (long long)last);
}

/* ---- tool pairs ---- */

struct pair_ent {
	struct txc_str id;
	size_t mi;
	bool result;
};

static int id_cmp(struct txc_str a, struct txc_str b)
{
	int c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
	return c != 0 ? c : (a.len > b.len) - (a.len < b.len);
}

static int pair_cmp(const void *x, const void *y)
{
	const struct pair_ent *a = x, *b = y;
	int c = id_cmp(a->id, b->id);
	if (c == 0)
		c = (a->mi > b->mi) - (a->mi < b->mi);
	return c != 0 ? c : (int)a->result - (int)b->result;
}

/*
 * For each message, the earliest message it needs (the calls its results answer) and the
 * latest (the results of its calls): a result answers the nearest call with its id before it.
 */
static void pair_needs(const struct txc_transcript *t, size_t *lo_need, size_t *hi_need)
{
	size_t n = 0, cap = 0;
	struct pair_ent *v = NULL;
	for (size_t i = 0; i < t->n_messages; i++) {
		lo_need[i] = hi_need[i] = i;
		for (size_t j = 0; j < t->messages[i].n_blocks; j++) {
			const struct txc_block *b = &t->messages[i].blocks[j];
			if ((b->kind != TXC_BLOCK_TOOL_USE && b->kind != TXC_BLOCK_TOOL_RESULT) || b->id.len == 0)
				continue;
			if (n == cap)
				v = txc_xrealloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));
			v[n++] = (struct pair_ent){b->id, i, b->kind == TXC_BLOCK_TOOL_RESULT};
		}
	}
	if (n > 0)
		qsort(v, n, sizeof(*v), pair_cmp);
	for (size_t k = 0, call = (size_t)-1; k < n; k++) {
		if (k > 0 && id_cmp(v[k].id, v[k - 1].id) != 0)
			call = (size_t)-1; /* a new id */
		if (!v[k].result) {
			call = v[k].mi;
		} else if (call != (size_t)-1 && call < v[k].mi) {
			if (call < lo_need[v[k].mi])
				lo_need[v[k].mi] = call;
			if (v[k].mi > hi_need[call])
				hi_need[call] = v[k].mi;
		}
	}
	free(v);
}

/* Grow [*lo, *hi] until every call in it has its results and every result its call; true if it grew. */
static bool widen(const struct txc_transcript *t, size_t *lo, size_t *hi)
{
	size_t *lo_need = txc_xcalloc(t->n_messages, sizeof(*lo_need));
	size_t *hi_need = txc_xcalloc(t->n_messages, sizeof(*hi_need));
	pair_needs(t, lo_need, hi_need);
	size_t a = *lo, b = *hi, want_lo = *lo, want_hi = *hi;
	for (size_t k = a; k <= b; k++) {
		want_lo = lo_need[k] < want_lo ? lo_need[k] : want_lo;
		want_hi = hi_need[k] > want_hi ? hi_need[k] : want_hi;
	}
	/* each message is looked at once: only the part just added can need more */
	while (want_lo < a || want_hi > b) {
		size_t na = want_lo, nb = want_hi;
		for (size_t k = na; k < a; k++) {
			want_lo = lo_need[k] < want_lo ? lo_need[k] : want_lo;
			want_hi = hi_need[k] > want_hi ? hi_need[k] : want_hi;
		}
		for (size_t k = b + 1; k <= nb; k++) {
			want_lo = lo_need[k] < want_lo ? lo_need[k] : want_lo;
			want_hi = hi_need[k] > want_hi ? hi_need[k] : want_hi;
		}
		a = na, b = nb;
	}
	free(lo_need);
	free(hi_need);
	bool grew = a != *lo || b != *hi;
	*lo = a, *hi = b;
	return grew;
}

/* ---- the slice ---- */

/* the number of the first (dir 1) or last (dir -1) numbered message of [lo, hi] */
static int64_t number_at(const struct txc_transcript *t, size_t lo, size_t hi, int dir)
{
	for (size_t k = 0; k <= hi - lo; k++) {
		const struct txc_message *m = &t->messages[dir > 0 ? lo + k : hi - k];
		if (m->number > 0)
			return m->number;
	}
	return 0;
}

int txc_model_slice(struct txc_transcript *t, const struct txc_range *r, struct txc_slice_info *info,
		    struct txc_diag *d)
{
	memset(info, 0, sizeof(*info));
	for (size_t i = 0; i < t->n_messages; i++)
		if (t->messages[i].number > info->n_numbers)
			info->n_numbers = t->messages[i].number;
	int64_t max = info->n_numbers;
	if (max == 0) {
		txc_diag_set(d, TXC_E_USAGE, "the session has no messages to take a range of");
		return TXC_E_USAGE;
	}
	info->asked_first = r->tail ? (r->tail >= max ? 1 : max - r->tail + 1) : r->first;
	info->asked_last = r->tail || r->last == 0 ? max : r->last;
	info->cut = info->asked_last > max;
	int64_t last = info->cut ? max : info->asked_last;
	if (info->asked_first > max) {
		txc_diag_set(d, TXC_E_USAGE, "message %lld is past the end: the session has %lld messages",
			     (long long)info->asked_first, (long long)max);
		return TXC_E_USAGE;
	}
	size_t lo = 0, hi = t->n_messages;
	/* (the message numbered max, >= asked_first, stops lo at the latest) */
	while (t->messages[lo].number == 0 || t->messages[lo].number < info->asked_first)
		lo++;
	while (hi > 0 && (t->messages[hi - 1].number == 0 || t->messages[hi - 1].number > last))
		hi--;
	if (hi == 0 || hi - 1 < lo) {
		char w[64];
		txc_range_words(w, info->asked_first, last);
		txc_diag_set(d, TXC_E_USAGE, "%s: nothing to convert (rows without text)", w);
		return TXC_E_USAGE;
	}
	hi--;
	info->widened = widen(t, &lo, &hi);
	/* rows without text inside the asked range stay in it (the Hermes format writes them) */
	info->first = number_at(t, lo, hi, 1);
	info->first = info->first < info->asked_first ? info->first : info->asked_first;
	info->last = number_at(t, lo, hi, -1);
	info->last = info->last > last ? info->last : last;
	t->messages += lo;
	t->n_messages = hi - lo + 1;
	for (size_t i = 0; i < t->n_messages; i++)
		info->n_live += !t->messages[i].compacted;
	t->meta.range_first = info->first;
	t->meta.range_last = info->last;
	return TXC_OK;
}
