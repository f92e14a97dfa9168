/* strmap.c - the one string-keyed hash table (strmap.h): a word-at-a-time hash, linear probing, doubling. */
#include "txc/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

/* eight bytes a step (keys are ids and names, tens of bytes): a multiply and a shift mix each word */
uint64_t txc_strmap_hash(const void *key, size_t len)
{
	const char *p = key;
	uint64_t h = 0xcbf29ce484222325u ^ len, w;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x9E3779B97F4A7C15u;
		h ^= h >> 29;
	}
	w = 0;
	if (len > i)
		memcpy(&w, p + i, len - i);
	h = (h ^ w) * 0x9E3779B97F4A7C15u;
	return h ^ (h >> 32);
}

/* the slot holding the key, or the empty slot where it would go (cap > 0, never full) */
static struct txc_strmap_entry *probe(const struct txc_strmap *m, const void *key, size_t len, uint64_t h)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)h & mask;
	for (;; i = (i + 1) & mask) {
		struct txc_strmap_entry *e = &m->v[i];
		if (e->key == NULL)
			return e;
		if (e->hash == h && e->len == len && (len == 0 || memcmp(e->key, key, len) == 0))
			return e;
	}
}

struct txc_strmap_entry *txc_strmap_get(const struct txc_strmap *m, const void *key, size_t len)
{
	if (m->n == 0)
		return NULL;
	struct txc_strmap_entry *e = probe(m, key, len, txc_strmap_hash(key, len));
	return e->key != NULL ? e : NULL;
}

static void grow_to(struct txc_strmap *m, size_t cap)
{
	struct txc_strmap big = {NULL, cap, m->n};
	big.v = txc_xcalloc(big.cap, sizeof(*big.v));
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i].key != NULL)
			*probe(&big, m->v[i].key, m->v[i].len, m->v[i].hash) = m->v[i];
	free(m->v);
	*m = big;
}

static void grow(struct txc_strmap *m)
{
	grow_to(m, m->cap ? m->cap * 2 : 64);
}

void txc_strmap_reserve(struct txc_strmap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 64;
	while (cap < 2 * n)
		cap *= 2;
	if (cap > m->cap)
		grow_to(m, cap);
}

struct txc_strmap_entry *txc_strmap_put(struct txc_strmap *m, const void *key, size_t len, bool *added)
{
	if (2 * (m->n + 1) > m->cap)
		grow(m); /* (before the lookup, so the entry returned stays where it is found) */
	uint64_t h = txc_strmap_hash(key, len);
	struct txc_strmap_entry *e = probe(m, key, len, h);
	bool is_new = e->key == NULL;
	if (is_new) {
		/* an empty key still needs a non-NULL pointer: NULL marks a free slot */
		*e = (struct txc_strmap_entry){len ? key : "", len, h, NULL, 0};
		m->n++;
	}
	if (added != NULL)
		*added = is_new;
	return e;
}

struct txc_strmap_entry *txc_strmap_next(const struct txc_strmap *m, size_t *at)
{
	for (; *at < m->cap; (*at)++)
		if (m->v[*at].key != NULL)
			return &m->v[(*at)++];
	return NULL;
}

void txc_strmap_free(struct txc_strmap *m)
{
	free(m->v);
	*m = (struct txc_strmap)TXC_STRMAP_INIT;
}

const char *txc_strmap_unique(struct txc_strmap *m, struct txc_buf *t, struct txc_arena *arena)
{
	size_t base = t->len;
	struct txc_strmap_entry *taken = txc_strmap_get(m, t->buf, t->len);
	if (taken != NULL) {
		/* the k before num were all taken when tried, and taken ids stay taken */
		size_t k = taken->num ? taken->num : 2;
		for (;; k++) {
			txc_buf_truncate(t, base);
			txc_buf_addf(t, "_%zu", k);
			if (txc_strmap_get(m, t->buf, t->len) == NULL)
				break;
		}
		taken->num = k + 1; /* before the put below, which may move the table */
	}
	/* a new key: only texts the map does not have reach here */
	struct txc_strmap_entry *e = txc_strmap_put(m, t->buf, t->len, NULL);
	e->key = txc_arena_str(arena, t->buf, t->len).ptr;
	return e->key;
}
