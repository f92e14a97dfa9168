/* files.c - atomic, non-clobbering file output; the sources txc never writes. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* ---- the sources txc reads, and Hermes's own data: never written, whatever the flags ---- */

struct guard_src {
	char *path;   /* as given */
	char *name;   /* realpath of its folder + its base name: the name a new file would take */
	char *real;   /* realpath of the file itself, or NULL */
	char *base;   /* its last name (no trailing '/'), NULL if it has none */
	bool store;   /* a SQLite store: its -wal, -shm and -journal are sources too */
	bool fd_only; /* standard input redirected from a file: known by device+inode only */
	bool folder;  /* a folder txc reads by name (legacy sessions/): no new file may appear in it */
	bool hermes;  /* Hermes's data, read by this run or not (said so) */
	bool in_dir;  /* pdev/pino: the folder it lies in, whatever name reaches it (a bind mount) */
	bool is_dir;  /* a folder: dev/ino are its own (nothing under it, through any name) */
	dev_t dev, pdev;
	ino_t ino, pino;
};
static struct guard_src *guard_v;
static size_t guard_n;
static const char *const store_suffix[] = {"", "-wal", "-shm", "-journal"};

/* realpath of the folder + the base name, without following the last component; NULL if unknown */
static char *resolve_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return realpath(path, NULL);
	char *dir = slash ? txc_xstrndup(path, (size_t)(slash - path)) : txc_xstrdup(".");
	char *rdir = realpath(dir[0] ? dir : "/", NULL);
	free(dir);
	if (rdir == NULL)
		return NULL;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addf(&b, "%s%s%s", rdir, strcmp(rdir, "/") == 0 ? "" : "/", base);
	free(rdir);
	return txc_buf_detach(&b, NULL);
}

/* The folder path lies in (*dir) and its last name in it (*base), both malloc'd: trailing '/'
 * dropped; a last name "." or ".." is resolved first (false when it cannot be, or for "/"). */
static bool split_path(const char *path, char **dir, char **base)
{
	size_t n = strlen(path), b;
	while (n > 1 && path[n - 1] == '/')
		n--;
	for (b = n; b > 0 && path[b - 1] != '/'; b--)
		;
	size_t bl = n - b;
	if (bl == 0 || (bl == 1 && path[b] == '.') || (bl == 2 && path[b] == '.' && path[b + 1] == '.')) {
		char *real = realpath(path, NULL);
		bool ok = real != NULL && strcmp(real, "/") != 0 && split_path(real, dir, base);
		free(real);
		return ok;
	}
	size_t dl = b;
	while (dl > 1 && path[dl - 1] == '/')
		dl--;
	*dir = b == 0 ? txc_xstrdup(".") : txc_xstrndup(path, dl);
	*base = txc_xstrndup(path + b, bl);
	return true;
}

static struct guard_src *guard_add(const char *path, bool store, bool folder, bool hermes)
{
	for (size_t i = 0; i < guard_n; i++) /* (Hermes's store is often the one read too) */
		if (!guard_v[i].fd_only && guard_v[i].store == store && guard_v[i].folder == folder &&
		    strcmp(guard_v[i].path, path) == 0) {
			guard_v[i].hermes &= hermes; /* "which txc is reading" says more */
			return NULL;
		}
	guard_v = txc_xrealloc(guard_v, (guard_n + 1) * sizeof(*guard_v));
	struct guard_src *g = &guard_v[guard_n++];
	memset(g, 0, sizeof(*g));
	g->path = txc_xstrdup(path);
	g->name = resolve_name(path);
	g->real = realpath(path, NULL);
	g->store = store;
	g->folder = folder;
	g->hermes = hermes;
	char *dir;
	struct stat sb;
	if (split_path(path, &dir, &g->base)) {
		g->in_dir = stat(dir, &sb) == 0;
		g->pdev = sb.st_dev;
		g->pino = sb.st_ino;
		free(dir);
	}
	if (folder && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		g->is_dir = true;
		g->dev = sb.st_dev;
		g->ino = sb.st_ino;
	}
	return g;
}

void cli_guard_source(const char *path, bool store)
{
	struct stat sb;
	bool in = path != NULL && strcmp(path, "-") == 0;
	if (path == NULL || (in && (fstat(STDIN_FILENO, &sb) != 0 || !S_ISREG(sb.st_mode))))
		return; /* stdin from a pipe or a terminal: nothing a file could replace */
	if (!in) {
		guard_add(path, store, false, false);
		return;
	}
	guard_v = txc_xrealloc(guard_v, (guard_n + 1) * sizeof(*guard_v));
	struct guard_src *g = &guard_v[guard_n++];
	memset(g, 0, sizeof(*g));
	g->path = txc_xstrdup("standard input");
	g->fd_only = true;
	g->dev = sb.st_dev;
	g->ino = sb.st_ino;
}

/* A folder read by name: a file created in it would be read as a session (an export's
 * <id>.jsonl becomes a legacy transcript of that id), so nothing may be written under it. */
void cli_guard_folder(const char *dir)
{
	guard_add(dir, false, true, false);
}

void cli_guard_hermes(const char *path, bool folder)
{
	guard_add(path, !folder, folder, true);
}

static char **tree_v; /* realpaths of cli_guard_tree's folders */
static size_t tree_n;
static bool tree_open; /* --install is writing: its own checks decide */

void cli_guard_tree(const char *dir)
{
	char *real = realpath(dir, NULL);
	if (real == NULL)
		return; /* not there: nothing in it to replace */
	tree_v = txc_xrealloc(tree_v, (tree_n + 1) * sizeof(*tree_v));
	tree_v[tree_n++] = real;
}

void cli_guard_tree_open(bool open)
{
	tree_open = open;
}

static bool under(const char *name, const char *dir);

/* An existing file under a guarded tree (by its real folder, whatever name reaches it). */
static bool in_tree(const char *target, const struct stat *tst, struct txc_buf *why)
{
	if (tree_n == 0 || tree_open || tst == NULL || !S_ISREG(tst->st_mode))
		return false;
	char *name = resolve_name(target);
	bool hit = false;
	for (size_t i = 0; name != NULL && i < tree_n && !hit; i++)
		if (under(name, tree_v[i])) {
			txc_buf_reset(why);
			txc_buf_addf(why, "it is another program's session file (under %s); --install writes there",
				     tree_v[i]);
			hit = true;
		}
	free(name);
	return hit;
}

static bool under(const char *name, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;
	return n > 0 && strncmp(name, dir, n) == 0 && (name[n] == '/' || strcmp(dir, "/") == 0);
}

static bool same_name(const char *name, const char *src, const char *suffix)
{
	size_t n = strlen(src);
	return strncmp(name, src, n) == 0 && strcmp(name + n, suffix) == 0;
}

/* why: "it is 'SRC', which txc is reading", "it is in Hermes's 'SRC'", ... */
static void say_why(struct txc_buf *why, const struct guard_src *g, const char *suffix, bool in)
{
	txc_buf_reset(why);
	txc_buf_addf(why, "it is %s%s'%s%s'%s", in ? "in " : "", g->hermes ? "Hermes's " : "", g->path, suffix,
		     g->hermes ? "" : ", which txc is reading");
}

/* Whether a file (tst, NULL if absent) or the name a new file would take (name) is a source;
 * why is set to the reason. */
static bool is_source(const struct stat *tst, const char *name, struct txc_buf *why)
{
	struct stat sst;
	struct txc_buf src = TXC_BUF_INIT;
	bool hit = false;
	for (size_t i = 0; i < guard_n && !hit; i++) {
		const struct guard_src *g = &guard_v[i];
		if (g->folder && name != NULL && (under(name, g->name) || under(name, g->real))) {
			say_why(why, g, "", true);
			hit = true;
		}
		for (size_t k = 0; k < (g->store ? 4u : 1u) && !hit; k++) {
			txc_buf_reset(&src);
			txc_buf_addf(&src, "%s%s", g->path, store_suffix[k]);
			if (g->fd_only) {
				hit = tst != NULL && tst->st_dev == g->dev && tst->st_ino == g->ino;
			} else {
				/* the same file under another name (symlink, hardlink, ..), or the name a -wal would
				 * take */
				hit = (tst != NULL && stat(src.buf, &sst) == 0 && sst.st_dev == tst->st_dev &&
				       sst.st_ino == tst->st_ino) ||
				      (name != NULL && g->name != NULL && same_name(name, g->name, store_suffix[k])) ||
				      (name != NULL && g->real != NULL && same_name(name, g->real, store_suffix[k]));
			}
			if (hit && g->fd_only) {
				txc_buf_reset(why);
				txc_buf_addf(why, "it is '%s', which txc is reading", g->path);
			} else if (hit) {
				say_why(why, g, store_suffix[k], false);
			}
		}
	}
	txc_buf_release(&src);
	return hit;
}

/* A name (base) in the folder pst: a source's, or a -wal's to be, by the folder's device and inode
 * (a bind mount of the store's folder, /proc/self/fd/N/state.db: any spelling of that folder) */
static bool named_in(const struct stat *pst, const char *base, struct txc_buf *why)
{
	for (size_t i = 0; i < guard_n; i++) {
		const struct guard_src *g = &guard_v[i];
		if (!g->in_dir || g->pdev != pst->st_dev || g->pino != pst->st_ino)
			continue;
		size_t n = strlen(g->base);
		for (size_t k = 0; k < (g->store ? 4u : 1u); k++)
			if (strncmp(base, g->base, n) == 0 && strcmp(base + n, store_suffix[k]) == 0) {
				say_why(why, g, store_suffix[k], false);
				return true;
			}
	}
	return false;
}

/* Whether the folder dir (pst) is a guarded folder or lies under one, by device and inode: its
 * parents are dir/.., dir/../.., as the system finds them (through symbolic links, bind mounts).
 * The last answer is kept: a bulk run writes its files in a few folders. */
static bool in_folder(const char *dir, const struct stat *pst, struct txc_buf *why)
{
	static struct {
		dev_t dev;
		ino_t ino;
		size_t n, hit; /* hit: guard index + 1, 0 none */
	} last;
	bool any = false;
	for (size_t i = 0; i < guard_n && !any; i++)
		any = guard_v[i].is_dir;
	if (!any)
		return false;
	if (last.n != guard_n || last.dev != pst->st_dev || last.ino != pst->st_ino) {
		struct txc_buf p = TXC_BUF_INIT;
		struct stat cur = *pst, up;
		size_t hit = 0;
		txc_buf_addstr(&p, dir);
		for (int depth = 0; depth < 4096 && hit == 0; depth++) {
			for (size_t i = 0; i < guard_n && hit == 0; i++)
				if (guard_v[i].is_dir && guard_v[i].dev == cur.st_dev && guard_v[i].ino == cur.st_ino)
					hit = i + 1;
			txc_buf_addstr(&p, "/..");
			if (stat(p.buf, &up) != 0 || (up.st_dev == cur.st_dev && up.st_ino == cur.st_ino))
				break; /* the root */
			cur = up;
		}
		txc_buf_release(&p);
		last.dev = pst->st_dev, last.ino = pst->st_ino, last.n = guard_n, last.hit = hit;
	}
	if (last.hit)
		say_why(why, &guard_v[last.hit - 1], "", true);
	return last.hit != 0;
}

/* What fd's first bytes say it is: an SQLite database, WAL or journal (NULL: none of those). */
static const char *sqlite_kind(int fd)
{
	static const unsigned char db[16] = "SQLite format 3",
				   journal[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
	unsigned char h[16];
	if (pread(fd, h, sizeof(h), 0) < 8)
		return NULL;
	if (memcmp(h, db, sizeof(db)) == 0)
		return "an SQLite database";
	if (h[0] == 0x37 && h[1] == 0x7f && h[2] == 0x06 && (h[3] == 0x82 || h[3] == 0x83))
		return "an SQLite write-ahead log";
	return memcmp(h, journal, sizeof(journal)) == 0 ? "an SQLite rollback journal" : NULL;
}

static bool sqlite_file(const char *path, struct txc_buf *why)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	const char *kind = fd >= 0 ? sqlite_kind(fd) : NULL;
	if (fd >= 0)
		close(fd);
	if (kind != NULL) {
		txc_buf_reset(why);
		txc_buf_addf(why, "it is %s", kind);
	}
	return kind != NULL;
}

/* Whether target lies in a guarded folder or has a guarded name there, by the folder's identity;
 * a folder not made yet is in the nearest one that is (sessions/new/x.md is under sessions/) */
static bool guarded_dir(const char *target, struct txc_buf *why)
{
	char *dir, *base;
	struct stat pst;
	if (!split_path(target, &dir, &base))
		return false;
	bool hit = false;
	if (stat(dir, &pst) == 0) {
		hit = named_in(&pst, base, why) || in_folder(dir, &pst, why);
	} else {
		char *up, *name;
		for (int depth = 0; depth < 64 && errno == ENOENT && split_path(dir, &up, &name); depth++) {
			free(dir);
			dir = up;
			/* (the first folder to be made must not take a guarded name either) */
			bool there = stat(dir, &pst) == 0;
			hit = there && (named_in(&pst, name, why) || in_folder(dir, &pst, why));
			free(name);
			if (there)
				break;
		}
	}
	free(dir);
	free(base);
	return hit;
}

/* whether base is the last component of src followed by suffix */
static bool base_is(const char *base, const char *src, const char *suffix)
{
	const char *slash = src ? strrchr(src, '/') : NULL;
	const char *sb = slash ? slash + 1 : src;
	size_t n = sb ? strlen(sb) : 0;
	return sb != NULL && strncmp(base, sb, n) == 0 && strcmp(base + n, suffix) == 0;
}

/* Whether target's resolved name could be a source's (is_source compares whole resolved names,
 * which end in target's own last component): resolving it takes a readlink per folder of its
 * path, twice for every file a bulk export writes, and its name is rarely a source's.  (What
 * lies under a guarded folder is found by the folder's identity, in_folder.) */
static bool name_may_be_source(const char *target)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return true; /* (resolved whole) */
	for (size_t i = 0; i < guard_n; i++) {
		const struct guard_src *g = &guard_v[i];
		for (size_t k = 0; k < (g->store ? 4u : 1u) && !g->fd_only; k++)
			if (base_is(base, g->name, store_suffix[k]) || base_is(base, g->real, store_suffix[k]))
				return true;
	}
	return false;
}

/* Whether target is named as the -wal, -shm or -journal of an SQLite database beside it. */
static bool sqlite_companion(const char *target, struct txc_buf *why)
{
	size_t n = strlen(target);
	while (n > 1 && target[n - 1] == '/')
		n--;
	for (size_t k = 1; k < 4; k++) {
		size_t sl = strlen(store_suffix[k]);
		if (n <= sl || memcmp(target + n - sl, store_suffix[k], sl) != 0 || target[n - sl - 1] == '/')
			continue;
		char *db = txc_xstrndup(target, n - sl);
		bool hit = sqlite_file(db, why);
		if (hit) {
			txc_buf_reset(why);
			txc_buf_addf(why, "it is the %s of the SQLite database '%s'", store_suffix[k] + 1, db);
		}
		free(db);
		return hit;
	}
	return false;
}

/* Whether writing target would touch a source, Hermes's data or an SQLite file; why says which. */
static bool protected_target(const char *target, struct txc_buf *why)
{
	struct stat tst;
	bool exists = stat(target, &tst) == 0;
	char *name = guard_n && name_may_be_source(target) ? resolve_name(target) : NULL;
	bool hit = is_source(exists ? &tst : NULL, name, why) || guarded_dir(target, why) ||
		   in_tree(target, exists ? &tst : NULL, why) ||
		   (exists && S_ISREG(tst.st_mode) && sqlite_file(target, why)) || sqlite_companion(target, why);
	free(name);
	return hit;
}

enum txc_err cli_guard_check(const char *target, struct txc_diag *d)
{
	struct txc_buf why = TXC_BUF_INIT;
	bool hit = protected_target(target, &why);
	if (hit)
		txc_diag_set(d, TXC_E_REFUSED, "refusing to write '%s': %s", target, why.buf);
	txc_buf_release(&why);
	return hit ? TXC_E_REFUSED : TXC_OK;
}

/* Whether a regular file open on fd (stdout, stderr) is a source, Hermes's data or an SQLite
 * file: by its identity, by the name the system has for it (Linux), by its first bytes. */
static bool protected_fd(int fd, struct txc_buf *why)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	if (is_source(&st, NULL, why))
		return true;
	char self[32], name[PATH_MAX];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(self, name, sizeof(name) - 1);
	if (n > 0 && name[0] == '/') {
		name[n] = '\0';
		if (guarded_dir(name, why))
			return true;
	}
	const char *kind = sqlite_kind(fd); /* (opened for writing only: read through its other name) */
	int rd = kind == NULL ? open(self, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (rd >= 0) {
		kind = sqlite_kind(rd);
		close(rd);
	}
	if (kind != NULL) {
		txc_buf_reset(why);
		txc_buf_addf(why, "it is %s", kind);
	}
	return kind != NULL;
}

enum txc_err cli_guard_stdout(struct txc_diag *d)
{
	struct txc_buf why = TXC_BUF_INIT;
	if (protected_fd(STDERR_FILENO, &why)) {
		/* `2>> state.db`: no message can be given there; stop writing to it at all */
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(null, STDERR_FILENO) < 0)
			close(STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
		txc_buf_release(&why);
		txc_diag_set(d, TXC_E_REFUSED, "refusing to write to standard error: it is a file txc never writes");
		return TXC_E_REFUSED;
	}
	bool hit = protected_fd(STDOUT_FILENO, &why);
	if (hit) /* `>> state.db`: the shell opened it, txc would write it */
		txc_diag_set(d, TXC_E_REFUSED, "refusing to write to standard output: %s", why.buf);
	txc_buf_release(&why);
	return hit ? TXC_E_REFUSED : TXC_OK;
}

/* The mode of a new file: 0666 less the umask, as open(2) would make it (transcripts hold secrets). */
static mode_t file_mode(void)
{
	static mode_t mode = 1; /* not a valid mode of ours: not read yet */
	if (mode == 1) {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	return mode;
}

enum txc_err cli_mkdirs(const char *dir, struct txc_diag *d)
{
	struct stat sb;
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		return TXC_OK; /* (nothing made: one look, not two per component, for each file a bulk run writes) */
	/* most often only the last is missing (an image folder): made at once, not from the root;
	 * not when dir ends in '/', where the guard would see an empty last name, not the folder's */
	size_t len = strlen(dir);
	if (strchr(dir, '/') != NULL && dir[len - 1] != '/') {
		enum txc_err g = cli_guard_check(dir, d); /* a folder must not take the name of a source's -wal */
		if (g != TXC_OK || mkdir(dir, 0777) == 0)
			return g;
	}
	char *p = txc_xstrdup(dir);
	int rc = TXC_OK;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (stat(p, &sb) != 0 && (rc = cli_guard_check(p, d)) != 0)
			break; /* a folder must not take the name of a source's -wal */
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			txc_diag_set(d, TXC_E_FAIL, "cannot create folder '%s': %s", p, strerror(errno));
			rc = TXC_E_FAIL;
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

enum txc_err cli_atomic_open(struct cli_atomic *w, const char *path, bool force, struct txc_diag *d)
{
	struct stat st;
	memset(w, 0, sizeof(*w));
	if (cli_guard_check(path, d) != 0)
		return TXC_E_REFUSED;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* a rename would replace /dev/null itself */
		txc_diag_set(d, TXC_E_FAIL,
			     "'%s' is not a regular file; txc writes only files (-o - is standard output)", path);
		return TXC_E_FAIL;
	}
	if (!force && lstat(path, &st) == 0) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' already exists; pass --force to overwrite it", path);
		return TXC_E_FAIL;
	}
	const char *slash = strrchr(path, '/');
	struct txc_buf tmp = TXC_BUF_INIT;
	if (slash != NULL)
		txc_buf_add(&tmp, path, (size_t)(slash - path + 1));
	txc_buf_addstr(&tmp, ".txc-tmp-XXXXXX");
	int fd = mkstemp(tmp.buf);
	if (fd < 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot create a file next to '%s': %s", path, strerror(errno));
		txc_buf_release(&tmp);
		return TXC_E_FAIL;
	}
	fchmod(fd, file_mode()); /* mkstemp made it 0600 */
	w->f = fdopen(fd, "wb");
	if (w->f == NULL) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(tmp.buf);
		txc_buf_release(&tmp);
		return TXC_E_FAIL;
	}
	w->tmp = txc_buf_detach(&tmp, NULL);
	w->path = txc_xstrdup(path);
	w->force = force;
	return TXC_OK;
}

void cli_atomic_abort(struct cli_atomic *w)
{
	if (w->f != NULL)
		fclose(w->f);
	if (w->tmp != NULL)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	memset(w, 0, sizeof(*w));
}

enum txc_err cli_atomic_commit(struct cli_atomic *w, struct txc_diag *d)
{
	int err = 0;
	bool unlink_tmp = true;
	if (fflush(w->f) != 0 || ferror(w->f))
		err = errno ? errno : EIO;
	if (!err && !w->synced && fsync(fileno(w->f)) != 0 && errno != EINVAL && errno != EROFS)
		err = errno;
	if (fclose(w->f) != 0 && !err)
		err = errno;
	w->f = NULL;
	if (!err && cli_guard_check(w->path, d) != 0) {
		cli_atomic_abort(w); /* a source took that name meanwhile */
		return TXC_E_REFUSED;
	}
	if (!err) {
		struct stat old;
		bool have = lstat(w->path, &old) == 0;
		if (w->force && have && S_ISREG(old.st_mode))
			chmod(w->tmp, old.st_mode & file_mode()); /* a file made private stays private */
		if (w->unchanged != NULL &&
		    (!have || old.st_ino != w->unchanged->st_ino || old.st_size != w->unchanged->st_size ||
		     old.st_mtim.tv_sec != w->unchanged->st_mtim.tv_sec ||
		     old.st_mtim.tv_nsec != w->unchanged->st_mtim.tv_nsec)) {
			/* someone (Claude Code) wrote to it since it was checked: theirs */
			txc_diag_set(d, TXC_E_FAIL, "'%s' changed while txc was writing it; nothing was written",
				     w->path);
			cli_atomic_abort(w);
			return TXC_E_FAIL;
		}
		if (w->force) {
			if (rename(w->tmp, w->path) != 0)
				err = errno;
			else
				unlink_tmp = false; /* renamed: no temporary name left */
		} else if (link(w->tmp, w->path) != 0) {
			err = errno;
		}
	}
	if (err == EEXIST)
		txc_diag_set(d, TXC_E_FAIL, "'%s' already exists; pass --force to overwrite it", w->path);
	else if (err)
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s (nothing was written)", w->path, strerror(err));
	if (!unlink_tmp) {
		free(w->tmp);
		w->tmp = NULL;
	}
	cli_atomic_abort(w); /* removes the temporary name (after link(), or on failure) */
	return err ? TXC_E_FAIL : TXC_OK;
}

enum txc_err cli_write_file(const char *path, const char *p, size_t len, bool force, struct txc_diag *d)
{
	struct cli_atomic w;
	int rc = cli_atomic_open(&w, path, force, d);
	if (rc)
		return rc;
	if (len && fwrite(p, 1, len, w.f) != len) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s (nothing was written)", path, strerror(errno));
		cli_atomic_abort(&w);
		return TXC_E_FAIL;
	}
	return cli_atomic_commit(&w, d);
}

/* where the run of printable ASCII (0x20-0x7E) that starts at i ends: eight bytes a step */
static size_t printable_run(const unsigned char *p, size_t i, size_t len)
{
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	for (; i + 8 <= len; i += 8) {
		uint64_t x;
		memcpy(&x, p + i, 8);
		/* a byte below 0x20, or above 0x7E (0x7F and up: + 1 reaches 0x80, or the top bit is set) */
		if ((((x - ones * 0x20) & ~x) | ((x + ones) | x)) & high)
			break;
	}
	while (i < len && p[i] >= 0x20 && p[i] < 0x7F)
		i++;
	return i;
}

void cli_safe_text(struct txc_buf *b, const char *s, size_t len, bool one_line)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		/* printable ASCII, as it is: a run at once (list's cells were a third of its time) */
		size_t j = printable_run(p, i, len);
		txc_buf_add(b, s + i, j - i);
		if ((i = j) == len)
			break;
		uint32_t cp;
		size_t n = txc_utf8_seq(p + i, len - i, &cp);
		if (n == 0) {
			txc_buf_addf(b, "\\x%02x", p[i]);
			i++;
			continue;
		}
		if (cp == '\n' && one_line)
			txc_buf_addch(b, ' ');
		else if (cp == '\t')
			txc_buf_addch(b, one_line ? ' ' : '\t');
		else if (cp == '\n')
			txc_buf_addch(b, '\n');
		else if (cp < 0x20 || cp == 0x7F)
			txc_buf_addf(b, "\\x%02x", (unsigned)cp);
		else if (cp >= 0x80 && cp < 0xA0)
			txc_buf_addf(b, "\\u%04x", (unsigned)cp);
		else if (cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
			 (cp >= 0x2066 && cp <= 0x2069))
			txc_buf_addf(b, "\\u%04x", (unsigned)cp); /* line breaks and bidi overrides */
		else
			txc_buf_add(b, s + i, n);
		i += n;
	}
}

/* ---- Markdown assets (--images files) ---- */

static void assets_put(void *ctx, const char *name, const char *bytes, size_t n)
{
	struct cli_assets *as = ctx;
	as->items = txc_xrealloc(as->items, (as->n + 1) * sizeof(*as->items));
	as->items[as->n].name = txc_xstrdup(name);
	as->items[as->n].bytes = txc_xmalloc(n);
	memcpy(as->items[as->n].bytes, bytes, n);
	as->items[as->n].len = n;
	as->n++;
}

void cli_assets_init(struct cli_assets *as, const char *output)
{
	memset(as, 0, sizeof(*as));
	as->dir = txc_xmalloc(strlen(output) + sizeof(".assets"));
	strcpy(as->dir, output);
	strcat(as->dir, ".assets");
	const char *base = strrchr(as->dir, '/');
	base = base ? base + 1 : as->dir;
	as->sink.put = assets_put;
	as->sink.ctx = as;
	as->sink.assets_link = txc_str_c(base);
}

static bool same_bytes(const char *path, const char *p, size_t len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	bool same = true;
	char chunk[8192];
	size_t off = 0, n;
	while (same && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		same = off + n <= len && memcmp(chunk, p + off, n) == 0;
		off += n;
	}
	fclose(f);
	return same && off == len;
}

enum txc_err cli_assets_dir_check(const char *dir, struct txc_diag *d)
{
	struct stat sb;
	if (lstat(dir, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		txc_diag_set(d, TXC_E_REFUSED, "refusing to write images into '%s': it is a symbolic link", dir);
		return TXC_E_REFUSED;
	}
	return TXC_OK;
}

enum txc_err cli_assets_write(const struct cli_assets *as, bool force, struct txc_diag *d)
{
	if (as->n == 0)
		return TXC_OK;
	if (cli_assets_dir_check(as->dir, d) != 0 || cli_mkdirs(as->dir, d) != 0)
		return d->code;
	struct txc_buf path = TXC_BUF_INIT;
	int rc = TXC_OK;
	for (size_t i = 0; i < as->n && rc == TXC_OK; i++) {
		txc_buf_reset(&path);
		txc_buf_addf(&path, "%s/%s", as->dir, as->items[i].name);
		if (!force && same_bytes(path.buf, as->items[i].bytes, as->items[i].len))
			continue; /* a re-run writes the same image: nothing to do */
		rc = cli_write_file(path.buf, as->items[i].bytes, as->items[i].len, force, d);
	}
	txc_buf_release(&path);
	return rc;
}

void cli_assets_release(struct cli_assets *as)
{
	for (size_t i = 0; i < as->n; i++) {
		free(as->items[i].name);
		free(as->items[i].bytes);
	}
	free(as->items);
	free(as->dir);
}
