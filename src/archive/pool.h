/*
 * pool.h - private to src/archive (and its unit test): a pool of fork()ed worker processes that
 * run job(i) for a list of items and send each item's bytes back, read by the parent in the
 * order of the list.  It knows nothing of what the jobs do: export renders with it.
 *
 * Ownership: the pool owns its processes, pipes and shared slots until txc_pool_stop(); the
 * message buffer is the caller's.  A worker takes the next item no worker took when it is free
 * (one long job does not hold up a fixed share behind it).  A worker that dies loses the item it
 * was on (txc_pool_next says so) and nothing else: the items after it go to the workers left.
 * Workers write nothing to standard output or error (the parent says it all, once), end with
 * their parent (Linux), and end with _exit (the parent's stdio and atexit work is not theirs).
 */
#ifndef TXC_ARCHIVE_POOL_H
#define TXC_ARCHIVE_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "txc/util.h"

struct txc_pool_ops {
	void (*init)(void *ctx);                                  /* in each worker, first */
	void (*job)(void *ctx, size_t item, struct txc_buf *msg); /* in a worker: item's bytes into msg */
	void (*fini)(void *ctx);                                  /* in each worker, last */
};

struct txc_pool_shared;

struct txc_pool {
	size_t n; /* workers; 0: the caller does all the jobs itself */
	pid_t *pid;
	FILE **in;     /* what each sends, in the order of the items it took */
	size_t *items; /* the items, in order */
	size_t n_items, next;
	struct txc_pool_shared *sh;
	size_t sh_size;
	bool killed; /* workers were started and killed (not all could be): they may have left files */
};

/* Up to `workers` processes for the n items (none when workers < 2 or n < 2, or when not all
 * could be started: then pl->n is 0 and pl->killed says whether some were).  keep_fd: a
 * descriptor the workers close at once (-1: none). */
void txc_pool_start(struct txc_pool *pl, size_t workers, const size_t *items, size_t n, const struct txc_pool_ops *ops,
		    void *ctx, int keep_fd);
/* The next item's bytes, in the order given, into msg: false when its worker stopped first. */
bool txc_pool_next(struct txc_pool *pl, struct txc_buf *msg);
/* Wait for every worker to end; pl is then empty. */
void txc_pool_stop(struct txc_pool *pl);

#endif
