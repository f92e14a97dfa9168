/*
 * sync.c - txc_archive_sync: DIR opened (made, locked, a stopped run's leftovers swept, the
 * manifest read), every session planned, the ones to render rendered (here, or by -j workers
 * while this process decides on each and records it, in session order), then the index page,
 * the manifest and the mark.
 */
#define _GNU_SOURCE /* syncfs */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "archive_int.h"
#include "pool.h"

static enum txc_archive_outcome failed(int code)
{
	return code == TXC_E_REFUSED ? TXC_ARCHIVE_REFUSED : TXC_ARCHIVE_FAILED;
}

/* ---- -j N: the pool's jobs, in a worker process ---- */

static void worker_init(void *ctx)
{
	struct arun *r = ctx;
	if (r->ops->worker_init != NULL)
		r->ops->worker_init(r->ctx);
}

static void worker_fini(void *ctx)
{
	struct arun *r = ctx;
	if (r->ops->worker_fini != NULL)
		r->ops->worker_fini(r->ctx);
}

static void worker_job(void *ctx, size_t i, struct txc_buf *msg)
{
	struct arun *r = ctx;
	struct rendered rd;
	struct txc_diag d = {0};
	int rrc;
	enum txc_archive_outcome oc = render_one(r, i, r->plan[i].rel.buf, &rd, &rrc, &d);
	send_rendered(msg, rrc, oc, &d, &rd);
	rendered_release(r, &rd);
	r->ops->release(r->ctx, i);
}

static const struct txc_pool_ops pool_ops = {worker_init, worker_job, worker_fini};

/* ---- the plan ---- */

/* Names, keys and a stat per file (cheap): what each session needs; the number to render. */
static size_t plan_all(struct arun *r, size_t n)
{
	size_t renders = 0;
	for (size_t i = 0; i < n; i++) {
		const struct txc_archive_item *it = &r->items[i];
		struct plan *p = &r->plan[i];
		if (it->in_folder)
			txc_buf_addf(&p->rel, "%s/", it->profile);
		plan_file_name(&p->rel, &it->id, it->title, r->o->writer->ext);
		render_key(r, it, p->render);
		memcpy(r->cur_render, p->render, sizeof(r->cur_render));
		/* --force renders everything again (a message row edited in place is not in the fingerprint) */
		p->skip = !r->o->rerender && !r->o->force && up_to_date(r, it, p->rel.buf);
		renders += !p->skip;
	}
	return renders;
}

/* The order to go through the items: the caller's when it matters (it is seen in what the run
 * says about the sessions it renders, and in every line of a dry run), else as given. */
static int plan_order(struct arun *r, size_t n, size_t renders, size_t **ord, struct txc_diag *d)
{
	*ord = txc_xmalloc((n ? n : 1) * sizeof(**ord));
	for (size_t k = 0; k < n; k++)
		(*ord)[k] = k;
	if ((renders > 1 || r->o->dry_run) && r->ops->order != NULL)
		return r->ops->order(r->ctx, *ord, d);
	return 0;
}

/* ---- one session ---- */

/* Known unchanged without rendering it */
static enum txc_archive_outcome skipped(struct arun *r, const struct txc_archive_item *it, const char *rel)
{
	r->res->skipped++;
	if (r->o->dry_run) {
		struct txc_buf full = TXC_BUF_INIT;
		txc_buf_addf(&full, "%s/%s", r->o->dir, rel);
		r->ops->dry_line(r->ctx, "same", full.buf);
		txc_buf_release(&full);
	}
	drop_stale(r, rel, it->id.text, it->profile); /* a run stopped before it did */
	return TXC_ARCHIVE_SAME;
}

/* -j N: the workers' messages for the next sessions, read ahead of their commits (a window) so that
 * one syncfs makes all their files durable before any is renamed into place: an fsync per file
 * (1,300 in a first export of 800 sessions) was a third of the run's CPU and most of its wall
 * time.  A worker's message comes as soon as it is done (a worker that dies loses only its
 * session); a window holds at most WINDOW sessions and their images. */
#define WINDOW 64

struct ahead {
	struct rendered rd;
	enum txc_archive_outcome oc;
	int rrc;
	struct txc_diag d;
};

static void receive_one(struct arun *r, struct txc_pool *pool, struct txc_buf *msg, size_t i, struct ahead *a)
{
	memset(a, 0, sizeof(*a));
	txc_buf_addf(&a->rd.path, "%s/%s", r->o->dir, r->plan[i].rel.buf);
	assets_init(&a->rd.assets, a->rd.path.buf);
	bool got = txc_pool_next(pool, msg);
	a->oc = receive_rendered(msg->buf, msg->len, got, &a->rd, &a->rrc, &a->d);
}

/* The window from ord[k]: its sessions' messages into win[0 ..), synced; the end of the window. */
static size_t read_ahead(struct arun *r, struct txc_pool *pool, struct txc_buf *msg, const size_t *ord, size_t k,
			 size_t n, struct ahead *win)
{
	size_t end = k, fresh = 0;
	for (; end < n && end - k < WINDOW; end++)
		if (!r->plan[ord[end]].skip) {
			struct ahead *a = &win[end - k];
			receive_one(r, pool, msg, ord[end], a);
			fresh += a->oc == TXC_ARCHIVE_NEW;
			if (a->oc == TXC_ARCHIVE_NEW) { /* later pages get their links before they are written ahead */
				nav_fill_parts(&a->rd.assets, r->plan[ord[end]].nav_part,
					       r->plan[ord[end]].nav_part_len);
				assets_ahead(r, r->plan[ord[end]].rel.buf, &a->rd.assets);
			}
		}
#ifdef __linux__
	/* the workers closed these files before they said so: their bytes are in the page cache of
	 * DIR's file system (a failure leaves each file to its commit's own fsync, which reports it) */
	if (fresh > 0 && r->dir_fd >= 0 && syncfs(r->dir_fd) == 0)
		for (size_t j = k; j < end; j++) {
			struct ahead *a = &win[j - k];
			bool fresh_j = !r->plan[ord[j]].skip && a->oc == TXC_ARCHIVE_NEW;
			a->rd.tmp.synced = fresh_j;
			for (size_t i = 0; fresh_j && i < a->rd.assets.n; i++)
				a->rd.assets.items[i].tmp.synced = a->rd.assets.items[i].tmp.f != NULL;
		}
#endif
	return end;
}

/* Item i: skipped, or rendered here (a == NULL) or by a worker (a: its message, read ahead). */
static enum txc_archive_outcome one_session(struct arun *r, struct ahead *a, size_t i, int *rrc, struct txc_diag *d)
{
	const struct txc_archive_item *it = &r->items[i];
	const char *rel = r->plan[i].rel.buf;
	r->cur_fp = it->fingerprint;
	memcpy(r->cur_render, r->plan[i].render, sizeof(r->cur_render));
	*rrc = 0;
	if (r->plan[i].skip)
		return skipped(r, it, rel);
	struct rendered rd;
	enum txc_archive_outcome oc;
	if (a != NULL) {
		rd = a->rd;
		oc = a->oc;
		*rrc = a->rrc;
		*d = a->d;
	} else {
		oc = render_one(r, i, rel, &rd, rrc, d);
	}
	if (oc == TXC_ARCHIVE_NEW) {
		if (a == NULL) /* (read_ahead filled a worker's) */
			nav_fill_parts(&rd.assets, r->plan[i].nav_part, r->plan[i].nav_part_len);
		oc = finish_one(r, it, rel, &rd, d);
	}
	if (oc != TXC_ARCHIVE_FAILED && oc != TXC_ARCHIVE_REFUSED) {
		drop_stale(r, rel, it->id.text, it->profile);
		if (r->ops->accept(r->ctx, i, rd.note.buf, rd.note.len, d) != 0)
			oc = failed(d->code);
	}
	rendered_release(r, &rd);
	r->ops->release(r->ctx, i);
	return oc;
}

/* Every session, in order: rendered here or by the workers, decided on and recorded here. */
static void run_all(struct arun *r, const size_t *ord, size_t n, size_t renders)
{
	if (renders > 0)
		mark_running(r);
	size_t *todo = txc_xmalloc((n ? n : 1) * sizeof(*todo)), n_todo = 0;
	for (size_t k = 0; k < n; k++)
		if (!r->plan[ord[k]].skip)
			todo[n_todo++] = ord[k];
	struct txc_pool pool;
	long jobs = r->o->dry_run ? 1 : r->o->jobs; /* --dry-run prints: one process's work */
	txc_pool_start(&pool, jobs > 0 ? (size_t)jobs : 1, todo, n_todo, &pool_ops, r, r->dir_fd);
	free(todo);
	if (pool.killed)
		r->swept = false; /* (their temporary files are removed at the end) */
	struct txc_buf msg = TXC_BUF_INIT;
	struct ahead *win = pool.n > 0 ? txc_xcalloc(WINDOW, sizeof(*win)) : NULL;
	for (size_t k = 0, from = 0, to = 0; k < n; k++) {
		if (win != NULL && k == to)
			to = read_ahead(r, &pool, &msg, ord, from = k, n, win);
		struct txc_diag d1 = {0};
		int rrc;
		struct ahead *a = win != NULL && !r->plan[ord[k]].skip ? &win[k - from] : NULL;
		enum txc_archive_outcome oc = one_session(r, a, ord[k], &rrc, &d1);
		r->res->count[oc]++;
		r->res->failed |= oc == TXC_ARCHIVE_FAILED || oc == TXC_ARCHIVE_REFUSED;
		r->ops->said(r->ctx, ord[k], oc, rrc, &d1);
	}
	free(win);
	txc_buf_release(&msg);
	txc_pool_stop(&pool);
}

/* ---- the end of a run ---- */

/* The index page, the manifest, the mark; DIR closed (its lock released). */
static void finish_run(struct arun *r, const char *manifest)
{
	struct txc_archive_result *res = r->res;
	size_t kept = res->count[TXC_ARCHIVE_NEW] + res->count[TXC_ARCHIVE_UPDATED] + res->count[TXC_ARCHIVE_SAME];
	if (r->o->writer->index != NULL && kept > 0) {
		struct txc_arena *a = txc_arena_new(0);
		size_t n;
		struct txc_index_entry *v = index_pages(r, a, &n);
		if (r->o->writer->nav != NULL)
			nav_links(r, v, n); /* (before the index: its entries' paths are the manifest's) */
		if (!r->o->dry_run && write_index(r, v, n, &res->index_d) != 0) {
			res->index_bad = !res->failed; /* as a session's file: said, left alone, the run fails */
			res->failed = true;
		}
		free(v);
		txc_arena_free(a);
	}
	if (!r->o->dry_run && (kept > 0 || r->m.n > 0) && manifest_write(r, manifest, &res->manifest_d) != 0)
		res->failed = true;
	unmark_running(r);
}

static void free_run(struct arun *r, char *manifest, size_t n, size_t *ord)
{
	for (size_t i = 0; i < n; i++) {
		txc_buf_release(&r->plan[i].rel);
		free(r->plan[i].nav);
		free(r->plan[i].nav_part);
	}
	free(r->plan);
	free(ord);
	free(r->tz);
	free(manifest);
	manifest_free(&r->m);
	if (r->dir_fd >= 0)
		close(r->dir_fd); /* (the lock, or a dry run's) */
}

int txc_archive_sync(const struct txc_archive_opts *o, const struct txc_archive_ops *ops, void *ctx,
		     const struct txc_archive_item *items, size_t n, struct txc_archive_result *res, struct txc_diag *d)
{
	struct arun r = {.o = o, .ops = ops, .ctx = ctx, .items = items, .res = res, .dir_fd = -1, .kill_left = -1};
	r.m.journal = -2;
	memset(res, 0, sizeof(*res));
	char *manifest = NULL;
	size_t *ord = NULL;
	if (open_dir(&r, &manifest, d) != 0) {
		free_run(&r, manifest, 0, ord);
		return d->code;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	txc_time_iso_ms(r.stamp, (double)now.tv_sec + now.tv_nsec / 1e9);
	r.tz = local_tz();
	r.plan = txc_xcalloc(n ? n : 1, sizeof(*r.plan));
	size_t renders = plan_all(&r, n);
	if (renders > 0 && o->writer->nav != NULL && o->writer->index != NULL)
		nav_predict(&r, n); /* (before the workers start: they write the pages) */
	if (plan_order(&r, n, renders, &ord, d) != 0) {
		free_run(&r, manifest, n, ord);
		return d->code;
	}
	run_all(&r, ord, n, renders);
	finish_run(&r, manifest);
	free_run(&r, manifest, n, ord);
	return 0;
}
