/*
 * arena.c - bump allocator owning every byte of one transcript.
 *
 * Blocks are chained; a request larger than the block size gets a block of
 * its own so that one 64 MB content value does not waste a second 64 MB.
 * Objects start at max_align_t's alignment; strings (txc_arena_str) are packed.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

struct block {
	struct block *next;
	size_t size, used;
	alignas(max_align_t) unsigned char data[];
};

struct txc_arena {
	struct block *head;
	size_t block_size;
};

struct txc_arena *txc_arena_new(size_t block_size)
{
	struct txc_arena *a = txc_xcalloc(1, sizeof(*a));
	a->block_size = block_size ? block_size : 64 * 1024;
	return a;
}

static struct block *new_block(size_t size)
{
	struct block *b = txc_xmalloc(sizeof(*b) + size);
	b->next = NULL;
	b->size = size;
	b->used = 0;
	return b;
}

/* size bytes at an offset that is a multiple of align (a power of two), not zeroed: for callers
 * that fill them all at once */
static void *bump_at(struct txc_arena *a, size_t size, size_t align)
{
	if (size > SIZE_MAX - align) /* LCOV_EXCL_BR_LINE: size overflow, out of memory */
		abort();             /* LCOV_EXCL_LINE */
	struct block *b = a->head;
	size_t at = b != NULL ? (b->used + align - 1) & ~(align - 1) : 0;
	if (b == NULL || at > b->size || b->size - at < size) {
		if (size > a->block_size / 4) {
			/* big: own block, linked behind the current one */
			struct block *big = new_block(size);
			big->used = size;
			if (b == NULL) {
				a->head = big;
			} else {
				big->next = b->next;
				b->next = big;
			}
			return big->data;
		}
		b = new_block(a->block_size);
		b->next = a->head;
		a->head = b;
		at = 0;
	}
	void *p = b->data + at;
	b->used = at + size;
	return p;
}

/* size bytes for any object, and its padding to the alignment (so that they may be zeroed too) */
static void *bump(struct txc_arena *a, size_t size)
{
	const size_t align = alignof(max_align_t);
	size_t need = (size + align - 1) & ~(align - 1);
	if (need < size) /* LCOV_EXCL_BR_LINE: size overflow, out of memory */
		abort(); /* LCOV_EXCL_LINE */
	return bump_at(a, need, align);
}

void *txc_arena_alloc(struct txc_arena *a, size_t size)
{
	void *p = bump(a, size);
	memset(p, 0, (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1)); /* its padding too */
	return p;
}

void *txc_arena_dup(struct txc_arena *a, const void *p, size_t size)
{
	void *q = bump(a, size);
	if (size)
		memcpy(q, p, size);
	return q;
}

void *txc_arena_array(struct txc_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) /* LCOV_EXCL_BR_LINE: size overflow, out of memory */
		abort();                 /* LCOV_EXCL_LINE */
	return txc_arena_alloc(a, n * size);
}

struct txc_str txc_arena_str(struct txc_arena *a, const void *p, size_t len)
{
	if (len == SIZE_MAX) /* LCOV_EXCL_BR_LINE: size overflow, out of memory */
		abort();     /* LCOV_EXCL_LINE */
	/* text needs no alignment: packed, a long session's many short strings (ids, names, keys)
	 * take their bytes and no padding */
	char *s = bump_at(a, len + 1, 1);
	if (len)
		memcpy(s, p, len);
	s[len] = '\0';
	return (struct txc_str){s, len};
}

void txc_arena_reset(struct txc_arena *a)
{
	struct block *b = a->head, *keep = NULL;
	while (b != NULL) {
		struct block *next = b->next;
		if (keep == NULL && b->size == a->block_size) {
			keep = b;
		} else {
			free(b);
		}
		b = next;
	}
	if (keep != NULL) {
		keep->next = NULL;
		keep->used = 0;
	}
	a->head = keep;
}

void txc_arena_free(struct txc_arena *a)
{
	if (a == NULL)
		return;
	struct block *b = a->head;
	while (b != NULL) {
		struct block *next = b->next;
		free(b);
		b = next;
	}
	free(a);
}
