/*
 * pool.c - fork()ed workers for a list of jobs (pool.h).  Each message goes up its worker's pipe
 * as 8 bytes of length (native order: the same machine) and the bytes; the parent reads the
 * workers' pipes in the order of the items, asking the shared slots which worker took each.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

#include "pool.h"

/* Shared by the workers and the parent (an anonymous shared mapping, zeroed when made). */
struct txc_pool_shared {
	atomic_size_t claimed; /* items[0 .. claimed) are taken */
	atomic_uint owner[];   /* items[j]'s worker + 1; 0 while no worker took it */
};

static bool write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* A worker ends with _exit; in a coverage build it first writes its gcov counters, which only
 * a normal exit would, so that its code is counted. */
static _Noreturn void worker_exit(void)
{
#ifdef TXC_COVERAGE
	extern void __gcov_dump(void);
	__gcov_dump();
#endif
	_exit(0);
}

/* The k-th worker: the next item no worker took, until none is left; never returns. */
static _Noreturn void worker(const struct txc_pool *pl, size_t k, int fd, const struct txc_pool_ops *ops, void *ctx)
{
	if (ops->init != NULL)
		ops->init(ctx);
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t j; (j = atomic_fetch_add(&pl->sh->claimed, 1)) < pl->n_items;) {
		atomic_store(&pl->sh->owner[j], (unsigned)k + 1);
		txc_buf_reset(&b);
		uint64_t len = 0;
		txc_buf_add(&b, (const char *)&len, sizeof(len));
		ops->job(ctx, pl->items[j], &b);
		len = b.len - sizeof(len);
		memcpy(b.buf, &len, sizeof(len));
		if (!write_all(fd, b.buf, b.len))
			break; /* the parent is gone */
	}
	txc_buf_release(&b);
	if (ops->fini != NULL)
		ops->fini(ctx);
	worker_exit();
}

/* In a new worker: only its own pipe, nothing to the terminal, gone with its parent. */
static void worker_setup(const struct txc_pool *pl, size_t k, int keep_fd)
{
	if (keep_fd >= 0)
		close(keep_fd); /* (e.g. a lock that is the parent's: it ends with it) */
	for (size_t j = 0; j < k; j++)
		fclose(pl->in[j]);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC); /* the parent says it all, once */
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed parent leaves no worker working */
	if (getppid() == 1)
		worker_exit();
#endif
}

/* Worker k started, its pipe in pl->in[k]: false when it could not be. */
static bool start_one(struct txc_pool *pl, size_t k, const struct txc_pool_ops *ops, void *ctx, int keep_fd)
{
	int fds[2];
	if (pipe(fds) != 0) {
		pl->pid[k] = -1;
		return false;
	}
#if defined(__linux__) && !defined(F_SETPIPE_SZ)
#define F_SETPIPE_SZ 1031 /* Linux's; <fcntl.h> names it only with _GNU_SOURCE */
#endif
#ifdef F_SETPIPE_SZ
	/* room for a few hundred items' messages: a worker that is ahead goes on while the parent
	 * waits for a long job of another (the system may allow less: then less) */
	fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
#endif
	pl->pid[k] = fork();
	if (pl->pid[k] == 0) {
		close(fds[0]);
		worker_setup(pl, k, keep_fd);
		worker(pl, k, fds[1], ops, ctx);
	}
	close(fds[1]);
	if (pl->pid[k] < 0) {
		close(fds[0]);
		return false;
	}
	pl->in[k] = fdopen(fds[0], "rb");
	return pl->in[k] != NULL;
}

void txc_pool_start(struct txc_pool *pl, size_t workers, const size_t *items, size_t n, const struct txc_pool_ops *ops,
		    void *ctx, int keep_fd)
{
	memset(pl, 0, sizeof(*pl));
	if (workers < 2 || n < 2)
		return;
	size_t want = workers < n ? workers : n;
	pl->sh_size = sizeof(*pl->sh) + n * sizeof(pl->sh->owner[0]);
	pl->sh = mmap(NULL, pl->sh_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pl->sh == MAP_FAILED) {
		pl->sh = NULL;
		return; /* all is done by the caller */
	}
	pl->items = txc_xmalloc(n * sizeof(*pl->items));
	memcpy(pl->items, items, n * sizeof(*items));
	pl->n_items = n;
	pl->pid = txc_xcalloc(want, sizeof(*pl->pid));
	pl->in = txc_xcalloc(want, sizeof(*pl->in));
	pl->n = want;
	fflush(NULL); /* nothing buffered is written twice */
	bool all = true;
	for (size_t k = 0; k < want && all; k++)
		all = start_one(pl, k, ops, ctx, keep_fd);
	if (all)
		return;
	for (size_t j = 0; j < want; j++) /* not all started: none is used, all is done by the caller */
		if (pl->pid[j] > 0)
			kill(pl->pid[j], SIGKILL);
	txc_pool_stop(pl);
	pl->killed = true;
}

/* Which worker took items[j]: waited for while every worker is busy with an earlier one; pl->n
 * when none did and none is left to (every worker ended). */
static size_t pool_owner(struct txc_pool *pl, size_t j)
{
	for (;;) {
		unsigned w = atomic_load(&pl->sh->owner[j]);
		if (w > 0)
			return w - 1;
		bool alive = false;
		for (size_t k = 0; k < pl->n && !alive; k++)
			alive = pl->pid[k] > 0 && waitpid(pl->pid[k], NULL, WNOHANG) == 0;
		if (!alive && atomic_load(&pl->sh->owner[j]) == 0)
			return pl->n;
		struct timespec nap = {0, 200 * 1000}; /* a job takes longer */
		nanosleep(&nap, NULL);
	}
}

bool txc_pool_next(struct txc_pool *pl, struct txc_buf *msg)
{
	txc_buf_reset(msg);
	if (pl->next >= pl->n_items)
		return false;
	size_t w = pool_owner(pl, pl->next++);
	FILE *f = w < pl->n ? pl->in[w] : NULL;
	uint64_t len;
	if (f == NULL || fread(&len, sizeof(len), 1, f) != 1 || len > ((uint64_t)1 << 40))
		return false;
	txc_buf_grow(msg, (size_t)len);
	if (len && fread(msg->buf, 1, (size_t)len, f) != len)
		return false;
	msg->len = (size_t)len;
	msg->buf[msg->len] = '\0';
	return true;
}

void txc_pool_stop(struct txc_pool *pl)
{
	for (size_t k = 0; k < pl->n; k++) {
		if (pl->in[k] != NULL)
			fclose(pl->in[k]); /* a worker still writing gets EPIPE and ends */
		if (pl->pid[k] > 0)
			while (waitpid(pl->pid[k], NULL, 0) < 0 && errno == EINTR)
				;
	}
	free(pl->pid);
	free(pl->in);
	free(pl->items);
	if (pl->sh != NULL)
		munmap(pl->sh, pl->sh_size);
	memset(pl, 0, sizeof(*pl));
}
