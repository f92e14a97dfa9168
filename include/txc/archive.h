/*
 * archive.h - an output folder txc keeps (export --to FORMAT --out DIR): one file per session,
 * a manifest (DIR/manifest.jsonl) that says what txc wrote, and a writer's index page.  A run
 * renders only what changed, never replaces or removes a file txc did not write or that someone
 * changed since, and a run that is stopped (even by kill -9) is completed by the next.
 *
 * Ownership: the archive owns the manifest, its index, the plan and the run's temporary files;
 * the caller owns the items, the writer, the write options and everything its callbacks hold.
 * The archive never prints, exits or reads argv: what a command says comes back through the
 * callbacks (per session, --dry-run lines), the warning hook and txc_archive_result.  The
 * conversion of one session (load, range, redaction, writer) is the caller's render callback:
 * the archive knows files, not sources.  Files are written through the caller's io callbacks,
 * which own the source guard (no output ever replaces a file txc reads) and atomic writes.
 */
#ifndef TXC_ARCHIVE_H
#define TXC_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "txc/diag.h"
#include "txc/model.h"
#include "txc/util.h"
#include "txc/writer.h"

/* What happened to a session's file (counted in txc_archive_result.count). */
enum txc_archive_outcome {
	TXC_ARCHIVE_NEW,
	TXC_ARCHIVE_UPDATED,
	TXC_ARCHIVE_SAME,
	TXC_ARCHIVE_REFUSED,
	TXC_ARCHIVE_FAILED,
	TXC_ARCHIVE_SKIPPED,
	TXC_ARCHIVE_N
};

/* One session to keep in the folder, as the caller selected it (all borrowed for the run). */
struct txc_archive_item {
	struct txc_sid id;
	struct txc_str title;       /* for the file name (the caller redacts it with --redact) */
	struct txc_str fingerprint; /* the source's fingerprint of its rows; empty: always rendered */
	const char *profile;        /* recorded in the manifest; NULL for none */
	bool in_folder;             /* its file goes in DIR/<profile>/ */
	struct txc_str scope;       /* the profile's scope, part of the render key */
	const void *group;          /* items of one group share a render key (their store) */
	/* what the listing says the index will show of it (a writer with .nav: its page is written
	 * with the links these predict, and relinked only when the rendered facts differ) */
	double started;         /* seconds; NAN or 0: unknown */
	struct txc_str preview; /* an untitled session's first user text as the listing shapes it, or null:
				   the index's and the manifest's preview when given */
};

/* A file being written: a temporary name beside path, renamed into place by commit. */
struct txc_archive_tmp {
	FILE *f;
	char *tmp, *path;
	bool force;                   /* commit replaces path (else: a file that appeared is kept) */
	const struct stat *unchanged; /* if set: replace path only if it is still this file */
	bool synced;                  /* its bytes were synced already (by a worker) */
};

/* How files are written: the caller's (it keeps the source guard); each returns 0 or an error, d set. */
struct txc_archive_io {
	int (*guard)(const char *path, struct txc_diag *d); /* may path be written? */
	int (*mkdirs)(const char *dir, struct txc_diag *d);
	int (*write_file)(const char *path, const char *p, size_t n, bool force, struct txc_diag *d);
	int (*tmp_open)(struct txc_archive_tmp *t, const char *path, struct txc_diag *d);
	int (*tmp_commit)(struct txc_archive_tmp *t, struct txc_diag *d);
	void (*tmp_abort)(struct txc_archive_tmp *t);
	int (*assets_dir_check)(const char *dir, struct txc_diag *d); /* an image folder may be written into */
};

/* One session to render, as the archive hands it to the render callback. */
struct txc_archive_job {
	size_t i;                            /* the item */
	struct txc_out *out;                 /* its file's bytes (hashed, then committed) */
	const struct txc_asset_sink *assets; /* its images (for txc_write_opts.assets) */
	struct txc_buf note;                 /* the caller's bytes, given back to accept() (a worker's travel) */
	void *facts;                         /* the archive's (txc_archive_job_done) */
};

struct txc_archive_ops {
	/* Render item job->i through job->out (load, redact, write), then txc_archive_job_done():
	 * 0, or an error with d set (TXC_E_NOTFOUND: the session is gone).  In a worker process
	 * (-j) it runs there, after worker_init. */
	int (*render)(void *ctx, struct txc_archive_job *job, struct txc_diag *d);
	/* Item i's file is in place (or was already): note is render's job->note; 0, or an error
	 * with d set that fails the session (TXC_E_REFUSED: refused). */
	int (*accept)(void *ctx, size_t i, const char *note, size_t len, struct txc_diag *d);
	void (*release)(void *ctx, size_t i); /* item i is done with (after render, accept) */
	/* Item i is decided: outcome, render's rc (0 when it rendered) and why it failed. */
	void (*said)(void *ctx, size_t i, enum txc_archive_outcome oc, int rc, const struct txc_diag *d);
	/* --dry-run: what would happen to a file ("new", "update", "same", "refuse", "remove"). */
	void (*dry_line)(void *ctx, const char *verb, const char *path);
	/* The items in the order to render them when it matters (perm[k] is the k-th); NULL: as given. */
	int (*order)(void *ctx, size_t *perm, struct txc_diag *d);
	void (*worker_init)(void *ctx); /* a worker process begins (its own connections) */
	void (*worker_fini)(void *ctx);
	struct txc_archive_io io;
};

struct txc_archive_opts {
	const char *dir;                     /* DIR */
	const struct txc_writer_ops *writer; /* the format (its .index makes DIR/index.html) */
	bool force, dry_run;
	bool rerender; /* render every session (--install: Claude Code's copy is checked each time) */
	long jobs;     /* worker processes that render (< 2: this one) */
	/* what shapes a file besides its rows, for the render key: */
	const char *version; /* txc's */
	unsigned load_flags;
	const struct txc_write_opts *w;
	bool redact;
	const char *key_extra; /* a line more (e.g. the pipeline's options), NULL for none: old keys stay */
	/* warnings (TXC_W_KEPT_CHANGED, TXC_W_MANIFEST_REPLACED) go to this hook, as txc_diag's */
	void (*warn)(void *ctx, enum txc_warn w, const char *where, size_t n);
	void *warn_ctx;
};

struct txc_archive_result {
	size_t count[TXC_ARCHIVE_N];
	size_t skipped;             /* of count[SAME]: known unchanged without rendering */
	size_t relinked;            /* pages rewritten for their links alone (a neighbour changed) */
	bool failed;                /* a session, the index page or the manifest failed */
	bool index_bad;             /* the index page alone (index_d says why) */
	struct txc_diag index_d;    /* the index page was not written (a warning) */
	struct txc_diag manifest_d; /* the manifest was not written (an error) */
};

/*
 * Bring DIR up to date with the n items: 0 with *res filled (failures counted there, each
 * said through ops->said as it happens), or an error with d set when nothing was done (DIR
 * cannot be made or locked, its manifest is someone else's, the order cannot be had).
 */
int txc_archive_sync(const struct txc_archive_opts *o, const struct txc_archive_ops *ops, void *ctx,
		     const struct txc_archive_item *items, size_t n, struct txc_archive_result *res,
		     struct txc_diag *d);

/* The render callback's last step: what the manifest (and the index page) say of the session. */
void txc_archive_job_done(struct txc_archive_job *job, const struct txc_transcript *t);

#endif
