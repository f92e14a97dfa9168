/*
 * strmap.h - a map from byte strings to a pointer or a number: linear probing.
 *
 * Ownership: a map owns only its slot array, which txc_strmap_free() releases.  Keys are
 * borrowed: the map keeps the pointer the caller passed, so the bytes must outlive the map
 * (or the entry), unless the caller replaces e->key with an equal copy it owns (an arena
 * string) right after txc_strmap_put().  Keys are ptr+len, not NUL-terminated; they may be
 * empty and may contain NUL bytes.  There is no removal: every user adds and looks up.
 *
 * Entry pointers stay valid only until the next txc_strmap_put() (which may grow the table).
 * Iteration (txc_strmap_next) visits the entries in slot order, which depends on the hash:
 * nothing that reaches output may depend on it.
 */
#ifndef TXC_STRMAP_H
#define TXC_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct txc_strmap_entry {
	const char *key; /* NULL: an empty slot (an empty key points at "") */
	size_t len;
	uint64_t hash; /* txc_strmap_hash(key, len): growth and probing compare it first */
	void *ptr;     /* the value: the caller's, zero when put() adds the entry */
	size_t num;
};

struct txc_strmap {
	struct txc_strmap_entry *v; /* cap slots, NULL before the first put */
	size_t cap, n;              /* cap is 0 or a power of two; at most half the slots are used */
};

#define TXC_STRMAP_INIT    \
	{                  \
		NULL, 0, 0 \
	}

/* A 64-bit hash of the bytes, eight at a time (the same bytes, the same hash, in every run). */
uint64_t txc_strmap_hash(const void *key, size_t len);

/* The entry with this key, or NULL. */
struct txc_strmap_entry *txc_strmap_get(const struct txc_strmap *m, const void *key, size_t len);

/*
 * The entry with this key, added (ptr NULL, num 0) when there was none; *added (may be NULL)
 * says which.  Never NULL: out of memory aborts.
 */
struct txc_strmap_entry *txc_strmap_put(struct txc_strmap *m, const void *key, size_t len, bool *added);

/*
 * The text in t made a key m does not have yet: t itself, else t with "_2", "_3", ... added (the
 * first free; the entry of the text as given remembers where to start next time, so repeats stay
 * linear).  It is put, its bytes copied into arena (the entry's key), and that copy returned; t
 * holds it too.  For the ids a writer mints, which must differ (tool call ids).
 */
struct txc_arena;
struct txc_buf;
const char *txc_strmap_unique(struct txc_strmap *m, struct txc_buf *t, struct txc_arena *arena);

/* Room for n keys in all, so that putting them grows the table at most once (here). */
void txc_strmap_reserve(struct txc_strmap *m, size_t n);

/* Iteration: start with *at = 0; each call returns the next entry or NULL at the end. */
struct txc_strmap_entry *txc_strmap_next(const struct txc_strmap *m, size_t *at);

/* Release the slots; the map is then empty and reusable. */
void txc_strmap_free(struct txc_strmap *m);

#endif
