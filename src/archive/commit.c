/*
 * commit.c - what a run does to DIR: a rendered file decided on (new, unchanged, ours to
 * update, or someone else's: refused) and renamed into place with its images, the files of a
 * session's old name removed if still as txc wrote them, one run at a time (DIR's lock), and
 * a mark while it runs so that the next run finds and removes what a stopped one left.
 */
#define _DEFAULT_SOURCE /* d_type: clean_temps() need not lstat every file */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive_int.h"

/* ---- a test's kill -9 (TXC_TEST_KILL_AT=POINT:N, tests/cli/files-tests.sh, tests/README) ---- */

/* The N-th time the run reaches POINT (tmp: a file rendered into its temporary name; file: renamed
 * into place, not yet in the manifest; journal: recorded; manifest: before the final rewrite), it
 * is killed as kill -9 would: the test proves the next run completes whatever was cut short. */
void test_kill(struct arun *r, const char *point)
{
	if (r->kill_left == -1) {
		const char *e = getenv("TXC_TEST_KILL_AT"), *colon = e ? strchr(e, ':') : NULL;
		r->kill_at = colon ? e : "";
		r->kill_left = colon ? strtol(colon + 1, NULL, 10) : 0;
	}
	size_t n = strlen(point);
	if (r->kill_left > 0 && strncmp(r->kill_at, point, n) == 0 && r->kill_at[n] == ':' && --r->kill_left == 0)
		raise(SIGKILL);
}

/* A warning through the caller's hook (it words it). */
void warn_at(const struct arun *r, enum txc_warn w, const char *where, size_t n)
{
	struct txc_diag d = {.warn = r->o->warn, .warn_ctx = r->o->warn_ctx};
	txc_diag_warn(&d, w, where, n);
}

/* A manifest path txc may act on: relative, without "..". */
static bool safe_rel(const char *rel)
{
	if (rel[0] == '\0' || rel[0] == '/')
		return false;
	for (const char *p = rel; p != NULL; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == '\0'))
			return false;
	}
	return true;
}

/* Whether the folder of DIR/rel is DIR or under it: a manifest path through a symbolic link
 * (DIR/link/state.db, link -> ~/.hermes) leads elsewhere. */
static bool under_dir(const char *dir, const char *full)
{
	char *parent = txc_xstrndup(full, (size_t)(strrchr(full, '/') - full));
	char *rd = realpath(dir, NULL), *rp = realpath(parent, NULL);
	size_t n = rd ? strlen(rd) : 0;
	bool ok = rd != NULL && rp != NULL && strncmp(rp, rd, n) == 0 &&
		  (rp[n] == '\0' || rp[n] == '/' || (n == 1 && rd[0] == '/'));
	free(parent);
	free(rd);
	free(rp);
	return ok;
}

/* Remove DIR/rel if it is still exactly what txc wrote (sha); anything else is left alone. */
static void remove_ours(const struct arun *r, const char *rel, const char *sha)
{
	struct txc_buf full = TXC_BUF_INIT;
	txc_buf_addf(&full, "%s/%s", r->o->dir, rel);
	struct stat sb;
	struct txc_diag d = {0};
	if (!safe_rel(rel) || !under_dir(r->o->dir, full.buf) || lstat(full.buf, &sb) != 0) {
		/* gone already, or not a path of ours: only the entry goes */
	} else if (!S_ISREG(sb.st_mode) || !nav_ours(rel, full.buf, sha)) {
		warn_at(r, TXC_W_KEPT_CHANGED, full.buf, 0);
	} else if (r->o->dry_run) {
		r->ops->dry_line(r->ctx, "remove", full.buf);
	} else if (r->ops->io.guard(full.buf, &d) == 0) {
		unlink(full.buf);
	}
	txc_buf_release(&full);
}

/* A session written under a new name (its title changed): the files of its old name go. */
void drop_stale(struct arun *r, const char *rel, struct txc_str id, const char *profile)
{
	size_t n, *cand = eindex_get(&r->m.by_session, &r->m, id.ptr ? id.ptr : "", id.len, true, &n);
	for (size_t c = 0; c < n; c++) {
		struct entry *e = &r->m.v[cand[c]];
		if (e->dropped || e->session == NULL || strcmp(e->path, rel) == 0 || e->session_len != id.len ||
		    memcmp(e->session, id.ptr, id.len) != 0 || !opt_eq(e->profile, profile) ||
		    !opt_eq(e->format, r->o->writer->name))
			continue;
		remove_ours(r, e->path, e->sha);
		for (size_t k = 0; k < e->n_assets; k++)
			remove_ours(r, e->assets[k].path, e->assets[k].sha);
		if (!r->o->dry_run && safe_rel(e->path)) {
			struct txc_buf dir = TXC_BUF_INIT;
			txc_buf_addf(&dir, "%s/%s.assets", r->o->dir, e->path);
			rmdir(dir.buf); /* only when empty */
			txc_buf_release(&dir);
		}
		e->dropped = true;
	}
	free(cand);
}

/*
 * The images of a document: a missing one is (re)written, one with other bytes is replaced
 * only when it is as txc wrote it (its manifest hash) or with --force.  Returns TXC_ARCHIVE_SAME (done),
 * TXC_ARCHIVE_REFUSED or TXC_ARCHIVE_FAILED; *out the list for the manifest, *wrote whether a file was written.
 */
static enum txc_archive_outcome sync_assets(const struct arun *r, const struct entry *old, struct assets *as,
					    const char *rel, struct asset_rec **out, size_t *n_out, bool *wrote,
					    struct txc_diag *d)
{
	struct asset_rec *v = txc_xcalloc(as->n ? as->n : 1, sizeof(*v));
	bool *need = txc_xcalloc(as->n ? as->n : 1, sizeof(*need));
	struct txc_buf full = TXC_BUF_INIT;
	enum txc_archive_outcome oc = TXC_ARCHIVE_SAME;
	for (size_t i = 0; i < as->n; i++) {
		unsigned char h[32];
		char now[65];
		struct txc_buf rb = TXC_BUF_INIT;
		txc_buf_addf(&rb, "%s.assets/%s", rel, as->items[i].name);
		v[i].path = txc_buf_detach(&rb, NULL);
		char writes[65]; /* the sha of its bytes; the manifest's is a later page's as rendered */
		txc_sha256(as->items[i].bytes, as->items[i].len, h);
		txc_hex(writes, h, 32);
		memcpy(v[i].sha, as->items[i].base[0] ? as->items[i].base : writes, 65);
		txc_buf_reset(&full);
		txc_buf_addf(&full, "%s/%s", r->o->dir, v[i].path);
		struct stat sb;
		if (lstat(full.buf, &sb) != 0) {
			need[i] = true; /* new, or deleted since: restored */
			continue;
		}
		bool have = S_ISREG(sb.st_mode) && file_sha(full.buf, now);
		/* a later page of a long session: as rendered, its links (nav.c) apart */
		char body[65];
		bool part = have && r->o->writer->nav != NULL && nav_is_part(v[i].path) && nav_body_sha(full.buf, body);
		if (have && strcmp(now, writes) == 0)
			continue;
		bool ours = false;
		for (size_t k = 0; have && old != NULL && k < old->n_assets; k++)
			ours |= strcmp(old->assets[k].path, v[i].path) == 0 &&
				(strcmp(old->assets[k].sha, now) == 0 ||
				 (part && strcmp(old->assets[k].sha, body) == 0));
		if (!ours && !r->o->force && oc == TXC_ARCHIVE_SAME) {
			txc_diag_set(d, TXC_E_FAIL,
				     "'%s' exists and is not as txc wrote it; pass --force to overwrite it", full.buf);
			oc = TXC_ARCHIVE_REFUSED;
		}
		need[i] = true;
	}
	if (oc == TXC_ARCHIVE_SAME && as->n > 0 && !r->o->dry_run && r->ops->io.assets_dir_check(as->dir, d) != 0)
		oc = TXC_ARCHIVE_REFUSED; /* (an image folder that is a link: never written through) */
	for (size_t i = 0; i < as->n && oc == TXC_ARCHIVE_SAME && !r->o->dry_run; i++) {
		if (!need[i])
			continue;
		txc_buf_reset(&full);
		txc_buf_addf(&full, "%s/%s", r->o->dir, v[i].path);
		*strrchr(full.buf, '/') = '\0';
		int rc = r->ops->io.mkdirs(full.buf, d);
		full.buf[strlen(full.buf)] = '/';
		struct txc_archive_tmp *t = &as->items[i].tmp;
		if (rc == 0 && t->f != NULL && t->synced && strcmp(t->path, full.buf) == 0) {
			t->force = true; /* as write_file's */
			rc = r->ops->io.tmp_commit(t, d);
		} else if (rc == 0) {
			rc = r->ops->io.write_file(full.buf, as->items[i].bytes, as->items[i].len, true, d);
		}
		if (rc != 0)
			oc = rc == TXC_E_REFUSED ? TXC_ARCHIVE_REFUSED : TXC_ARCHIVE_FAILED;
		*wrote = true;
	}
	txc_buf_release(&full);
	free(need);
	*out = v;
	*n_out = as->n;
	if (oc != TXC_ARCHIVE_SAME) {
		free_assets(v, as->n);
		*out = NULL;
		*n_out = 0;
	}
	return oc;
}

/* -j N: a new session's images that are not on disk yet, written ahead into temporary files beside
 * their places (DIR/rel.assets/) so that the window's one syncfs makes them durable too (sync.c);
 * sync_assets() renames them into place if it still writes them, else they are removed.  Anything
 * out of the ordinary (a folder that is a link, a file there already, an error) is left to it. */
void assets_ahead(const struct arun *r, const char *rel, struct assets *as)
{
	struct txc_buf full = TXC_BUF_INIT;
	struct txc_diag d = {0};
	struct stat sb;
	if (r->o->dry_run || as->n == 0 || r->ops->io.assets_dir_check(as->dir, &d) != 0 ||
	    r->ops->io.mkdirs(as->dir, &d) != 0)
		return;
	for (size_t i = 0; i < as->n; i++) {
		txc_buf_reset(&full);
		txc_buf_addf(&full, "%s/%s.assets/%s", r->o->dir, rel, as->items[i].name);
		struct txc_archive_tmp *t = &as->items[i].tmp;
		if (lstat(full.buf, &sb) == 0 || errno != ENOENT || r->ops->io.tmp_open(t, full.buf, &d) != 0)
			continue;
		if ((as->items[i].len && fwrite(as->items[i].bytes, 1, as->items[i].len, t->f) != as->items[i].len) ||
		    fflush(t->f) != 0)
			r->ops->io.tmp_abort(t); /* (written again by sync_assets, which says what failed) */
	}
	txc_buf_release(&full);
}

/* The session now has other images: the ones it no longer links go, if still as txc wrote them. */
static void drop_old_assets(const struct arun *r, const struct entry *old, const char *rel, const struct asset_rec *v,
			    size_t n)
{
	size_t gone = 0;
	for (size_t k = 0; old != NULL && k < old->n_assets; k++) {
		bool kept = false;
		for (size_t i = 0; i < n && !kept; i++)
			kept = strcmp(old->assets[k].path, v[i].path) == 0;
		if (!kept) {
			remove_ours(r, old->assets[k].path, old->assets[k].sha);
			gone++;
		}
	}
	if (gone && n == 0) {
		struct txc_buf dir = TXC_BUF_INIT;
		txc_buf_addf(&dir, "%s/%s.assets", r->o->dir, rel);
		rmdir(dir.buf); /* only when empty */
		txc_buf_release(&dir);
	}
}

/* The SHA-256 of DIR/rel (at path) as it is now: a file that lies as txc left it (its file_stat, as
 * up_to_date() takes it) holds the bytes its entry e says, not read and hashed again (a session's
 * update read its old file whole); false when it cannot be read. */
static bool old_sha(const struct arun *r, const struct entry *e, const char *rel, const char *path, char out[65])
{
	char st[33];
	if (e != NULL && e->fstat != NULL && file_stat_sig(r, rel, e->assets, e->n_assets, st) &&
	    strcmp(st, e->fstat) == 0) {
		memcpy(out, e->sha, 65);
		return true;
	}
	return file_sha(path, out);
}

/* Decide on a rendered file: the same bytes as on disk (unchanged), none (new), ours as we left
 * it (updated) or someone else's (refused); then its images, the rename and the manifest line. */
enum txc_archive_outcome finish_one(struct arun *r, const struct txc_archive_item *it, const char *rel,
				    struct rendered *rd, struct txc_diag *d)
{
	enum txc_archive_outcome oc;
	char old[65], body[65];
	struct stat sb;
	const struct entry *e = manifest_find(&r->m, rel), *nav = NULL;
	struct entry keep;       /* (a copy: record() rewrites the entry it came from) */
	struct entry mine = {0}; /* the links it was written with (nav_predict) */
	if (rd->links[0]) {
		memcpy(mine.base, rd->base, sizeof(mine.base));
		memcpy(mine.links, rd->links, sizeof(mine.links));
		memcpy(mine.sha, rd->sha, sizeof(mine.sha));
		mine.bytes = rd->bytes;
		nav = &mine;
	}
	if (lstat(rd->path.buf, &sb) != 0) {
		oc = TXC_ARCHIVE_NEW;
	} else {
		bool have_old = old_sha(r, e, rel, rd->path.buf, old);
		if (have_old && strcmp(old, rd->sha) == 0)
			oc = TXC_ARCHIVE_SAME;
		else if (have_old && e != NULL && e->base[0] && strcmp(old, e->sha) == 0 &&
			 strcmp(e->base, rd->base) == 0)
			oc = TXC_ARCHIVE_SAME, keep = *e,
			nav = &keep; /* as rendered but for the links nav.c filled in: they stay */
		else if (r->o->force || (e != NULL && have_old && strcmp(old, e->sha) == 0))
			oc = TXC_ARCHIVE_UPDATED; /* ours, as we left it: the session changed */
		else if (have_old && r->o->writer->nav != NULL && nav_body_sha(rd->path.buf, body) &&
			 strcmp(body, rd->base) == 0)
			oc = TXC_ARCHIVE_UPDATED; /* this very page with other links: a run stopped after it
						     filled them, before it recorded them */
		else {
			txc_diag_set(d, TXC_E_FAIL,
				     "'%s' exists and is not as txc wrote it; pass --force to overwrite it",
				     rd->path.buf);
			oc = TXC_ARCHIVE_REFUSED;
		}
	}
	if (r->o->dry_run) {
		static const char *const verb[] = {"new", "update", "same", "refuse"};
		r->ops->dry_line(r->ctx, verb[oc], rd->path.buf);
		if (oc != TXC_ARCHIVE_REFUSED)
			record(r, rel, it, &rd->facts, nav ? nav->sha : rd->sha, nav ? nav->bytes : rd->bytes, NULL, 0,
			       nav);
		return oc;
	}
	if (oc == TXC_ARCHIVE_REFUSED)
		return oc;
	struct asset_rec *av = NULL;
	size_t an = 0;
	bool wrote = false;
	enum txc_archive_outcome ao =
		sync_assets(r, e, &rd->assets, rel, &av, &an, &wrote, d); /* first: the document links to them */
	if (ao != TXC_ARCHIVE_SAME)
		return ao;
	if (oc != TXC_ARCHIVE_SAME) {
		test_kill(r, "tmp");
		rd->tmp.force =
			oc != TXC_ARCHIVE_NEW; /* a new file is linked: one that appeared meanwhile is not replaced */
		if (oc == TXC_ARCHIVE_UPDATED)
			rd->tmp.unchanged = &sb; /* nor one edited since it was hashed */
		if (r->ops->io.tmp_commit(&rd->tmp, d) != 0) {
			free_assets(av, an);
			return d->code == TXC_E_REFUSED ? TXC_ARCHIVE_REFUSED : TXC_ARCHIVE_FAILED;
		}
		test_kill(r, "file");
	} else if (wrote) {
		oc = TXC_ARCHIVE_UPDATED; /* the document was there; images were restored */
	}
	drop_old_assets(r, e, rel, av, an);
	if (nav != NULL)
		record(r, rel, it, &rd->facts, nav->sha, nav->bytes, av, an, nav);
	else
		record(r, rel, it, &rd->facts, rd->sha, rd->bytes, av, an, NULL);
	return oc;
}

/* What a run that writes files puts in DIR before its first temporary file and removes when it
 * ends: found there, a run was stopped, and its leftovers may lie in any folder of DIR. */

/* Temporary files a stopped run left: ".txc-tmp-" and mkstemp's 6 characters, a name only txc
 * makes, in DIR, and with depth 2 its profile folders and asset folders (the caller holds DIR's
 * lock).  False when a folder could not be listed. */
static bool clean_temps(const struct arun *r, const char *dir, int depth)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	bool all = dp != NULL;
	while (dp != NULL && (de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		bool tmp_name = strncmp(de->d_name, ".txc-tmp-", 9) == 0 && strlen(de->d_name) == 15;
#ifdef DT_DIR
		/* no lstat for each of our files (nor folders, at depth 0): a re-run's cost is its system calls */
		if (!tmp_name && (de->d_type != DT_DIR || depth == 0) && de->d_type != DT_UNKNOWN)
			continue;
#endif
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", dir, de->d_name);
		struct stat sb;
		struct txc_diag d = {0};
		if (lstat(p.buf, &sb) != 0)
			;
		else if (S_ISDIR(sb.st_mode) && depth > 0)
			all &= clean_temps(r, p.buf, depth - 1);
		else if (S_ISREG(sb.st_mode) && tmp_name && r->ops->io.guard(p.buf, &d) == 0)
			unlink(p.buf);
		txc_buf_release(&p);
	}
	if (dp != NULL)
		closedir(dp);
	return all;
}

/* One run at a time writes DIR: a lock on the folder itself (released when txc exits). */
static int lock_dir(const char *dir, struct txc_diag *d)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		txc_diag_set(d, TXC_E_FAIL, "another txc is exporting to '%s'; try again when it is done", dir);
		close(fd);
		return -1;
	}
	return fd;
}

/* after session done of total (1 <= done <= total) */
/* The manifest read; one with a line that is not txc's is someone's file: refused like any
 * other (nothing written), or with --force not used at all (no entry it holds decides what txc
 * replaces or removes, nothing is appended to it) and replaced at the end. */
static int foreign_manifest(struct arun *r, const char *file, struct txc_diag *d)
{
	size_t line = manifest_read(&r->m, file, r->running);
	if (line == 0)
		return 0;
	if (line == SIZE_MAX) {
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s': %s", file, strerror(errno));
		return d->code;
	}
	if (!r->o->force) {
		txc_diag_set(d, TXC_E_FAIL,
			     "'%s' is not txc's manifest (line %zu is not an entry txc writes); pass --force to "
			     "overwrite it",
			     file, line);
		return d->code;
	}
	warn_at(r, TXC_W_MANIFEST_REPLACED, file, line);
	const char *f = r->m.file;
	manifest_free(&r->m);
	r->m = (struct manifest){.file = f, .journal = -1};
	return 0;
}

/* DIR made, its lock taken, leftovers of a stopped run removed, the manifest read. */
int open_dir(struct arun *r, char **manifest, struct txc_diag *d)
{
	const struct txc_archive_opts *a = r->o;
	struct txc_buf mp = TXC_BUF_INIT;
	txc_buf_addf(&mp, "%s/manifest.jsonl", r->o->dir);
	*manifest = txc_buf_detach(&mp, NULL);
	if (!a->dry_run && r->ops->io.mkdirs(r->o->dir, d) != 0)
		return d->code;
	if (r->ops->io.guard(*manifest, d) != 0)
		return d->code;
	if (!a->dry_run) {
		if ((r->dir_fd = lock_dir(r->o->dir, d)) < 0)
			return d->code;
		struct stat sb; /* (a look, not a listing of DIR's 1,300 names: a twentieth of a re-run) */
		r->running = fstatat(r->dir_fd, RUNNING_NAME, &sb, AT_SYMLINK_NOFOLLOW) == 0;
		r->m.file = *manifest;
	} else {
		r->dir_fd = open(r->o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* -1: files looked at by path */
	}
	if (foreign_manifest(r, *manifest, d) != 0)
		return d->code;
	/* a stopped run's leftovers, in DIR and its profile and image folders: DIR marked (a run makes
	 * the mark before its first temporary file); no manifest: a first run (an empty DIR) or one
	 * whose manifest was removed, with no other way to tell; a manifest not as a run ends it: a
	 * run stopped after it recorded a file (txc before the mark made none) */
	r->swept = true;
	if (!a->dry_run && (r->running || r->m.n == 0 || !r->m.whole))
		r->swept = clean_temps(r, r->o->dir, 2);
	return 0;
}

/* DIR marked (RUNNING_NAME) before this run writes its first temporary file: a kill -9 from here
 * on is found by the next run.  Not synced: a kill leaves the page cache, and a crash at worst
 * leaves a leftover. */
void mark_running(struct arun *r)
{
	if (r->running || r->o->dry_run || r->dir_fd < 0)
		return;
	struct txc_buf p = TXC_BUF_INIT;
	struct txc_diag d = {0};
	txc_buf_addf(&p, "%s/%s", r->o->dir, RUNNING_NAME);
	int fd = r->ops->io.guard(p.buf, &d) != 0
			 ? -1
			 : openat(r->dir_fd, RUNNING_NAME, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd >= 0)
		close(fd);
	txc_buf_release(&p);
	/* (not made, in a DIR txc cannot write: its files and manifest fail the same way; a kill of
	 * this run then leaves its leftovers in subfolders until a run finds a manifest not whole) */
	r->running = true;
}

/* The run is over (its workers gone, the lock still held): after a failure (a worker that died
 * leaves its temporary file) or a sweep that could not list a folder, DIR is swept now; the mark
 * goes once nothing can be left. */
void unmark_running(struct arun *r)
{
	struct stat sb;
	if (!r->running)
		return;
	if (r->res->count[TXC_ARCHIVE_FAILED] > 0 || !r->swept)
		r->swept = clean_temps(r, r->o->dir, 2);
	/* the mark txc makes is empty; a file with bytes, or a store read under that name, is not ours */
	struct txc_buf p = TXC_BUF_INIT;
	struct txc_diag d = {0};
	txc_buf_addf(&p, "%s/%s", r->o->dir, RUNNING_NAME);
	if (r->swept && fstatat(r->dir_fd, RUNNING_NAME, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_size == 0 && r->ops->io.guard(p.buf, &d) == 0)
		unlinkat(r->dir_fd, RUNNING_NAME, 0);
	txc_buf_release(&p);
}

/* " (K not re-rendered)" after the unchanged count: how many were known from their source alone */
