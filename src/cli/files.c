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

/* ---- the sources txc reads: never written, whatever the flags ---- */

struct guard_src {
	char *path;   /* as given */
	char *name;   /* realpath of its folder + its base name: the name a new file would take */
	char *real;   /* realpath of the file itself, or NULL */
	bool store;   /* a SQLite store: its -wal, -shm and -journal are sources too */
	bool fd_only; /* standard input redirected from a file: known by device+inode only */
	bool folder;  /* a folder txc reads by name (legacy sessions/): no new file may appear in it */
	dev_t dev;
	ino_t ino;
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

void cli_guard_source(const char *path, bool store)
{
	struct stat sb;
	bool in = path != NULL && strcmp(path, "-") == 0;
	if (path == NULL || (in && (fstat(STDIN_FILENO, &sb) != 0 || !S_ISREG(sb.st_mode))))
		return; /* stdin from a pipe or a terminal: nothing a file could replace */
	guard_v = txc_xrealloc(guard_v, (guard_n + 1) * sizeof(*guard_v));
	struct guard_src *g = &guard_v[guard_n++];
	memset(g, 0, sizeof(*g));
	g->path = txc_xstrdup(in ? "standard input" : path);
	g->name = in ? NULL : resolve_name(path);
	g->real = in ? NULL : realpath(path, NULL);
	g->store = store;
	g->fd_only = in;
	g->dev = in ? sb.st_dev : 0;
	g->ino = in ? sb.st_ino : 0;
}

/* A folder read by name: a file created in it would be read as a session (an export's
 * <id>.jsonl becomes a legacy transcript of that id), so nothing may be written under it. */
void cli_guard_folder(const char *dir)
{
	cli_guard_source(dir, false);
	if (guard_n > 0 && !guard_v[guard_n - 1].fd_only)
		guard_v[guard_n - 1].folder = true;
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

/* Whether a file (tst, NULL if absent) or the name a new file would take (name) is a source;
 * src is set to the source's name; *in is set when name is inside a source folder. */
static bool is_source(const struct stat *tst, const char *name, struct txc_buf *src, bool *in)
{
	struct stat sst;
	*in = false;
	for (size_t i = 0; i < guard_n; i++) {
		const struct guard_src *g = &guard_v[i];
		if (g->folder && name != NULL && (under(name, g->name) || under(name, g->real))) {
			txc_buf_reset(src);
			txc_buf_addstr(src, g->path);
			*in = true;
			return true;
		}
		for (size_t k = 0; k < (g->store ? 4u : 1u); k++) {
			txc_buf_reset(src);
			txc_buf_addf(src, "%s%s", g->path, store_suffix[k]);
			if (g->fd_only) {
				if (tst != NULL && tst->st_dev == g->dev && tst->st_ino == g->ino)
					return true;
				continue;
			}
			/* the same file under another name (symlink, hardlink, ..), or the name a -wal would take */
			if ((tst != NULL && stat(src->buf, &sst) == 0 && sst.st_dev == tst->st_dev &&
			     sst.st_ino == tst->st_ino) ||
			    (name != NULL && g->name != NULL && same_name(name, g->name, store_suffix[k])) ||
			    (name != NULL && g->real != NULL && same_name(name, g->real, store_suffix[k])))
				return true;
		}
	}
	return false;
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
 * path, twice for every file a bulk export writes, and its name is rarely a source's. */
static bool name_may_be_source(const char *target)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return true; /* (resolved whole) */
	for (size_t i = 0; i < guard_n; i++) {
		const struct guard_src *g = &guard_v[i];
		if (g->folder)
			return true;
		for (size_t k = 0; k < (g->store ? 4u : 1u) && !g->fd_only; k++)
			if (base_is(base, g->name, store_suffix[k]) || base_is(base, g->real, store_suffix[k]))
				return true;
	}
	return false;
}

enum txc_err cli_guard_check(const char *target, struct txc_diag *d)
{
	struct stat tst;
	bool exists = stat(target, &tst) == 0;
	char *name = guard_n && name_may_be_source(target) ? resolve_name(target) : NULL;
	struct txc_buf src = TXC_BUF_INIT;
	bool in;
	bool hit = is_source(exists ? &tst : NULL, name, &src, &in);
	free(name);
	if (hit)
		txc_diag_set(d, TXC_E_REFUSED, "refusing to write '%s': it is %s'%s', which txc is reading", target,
			     in ? "in " : "", src.buf);
	txc_buf_release(&src);
	return hit ? TXC_E_REFUSED : TXC_OK;
}

enum txc_err cli_guard_stdout(struct txc_diag *d)
{
	struct stat st;
	struct txc_buf src = TXC_BUF_INIT;
	bool in;
	if (fstat(STDERR_FILENO, &st) == 0 && S_ISREG(st.st_mode) && is_source(&st, NULL, &src, &in)) {
		/* `2>> state.db`: no message can be given there; stop writing to it at all */
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(null, STDERR_FILENO) < 0)
			close(STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
		txc_buf_release(&src);
		txc_diag_set(d, TXC_E_REFUSED, "refusing to write to standard error: it is a file txc is reading");
		return TXC_E_REFUSED;
	}
	bool hit = fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) && is_source(&st, NULL, &src, &in);
	if (hit) /* `>> state.db`: the shell opened it, txc would write it */
		txc_diag_set(d, TXC_E_REFUSED, "refusing to write to standard output: it is '%s', which txc is reading",
			     src.buf);
	txc_buf_release(&src);
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

enum txc_err cli_assets_write(const struct cli_assets *as, bool force, struct txc_diag *d)
{
	if (as->n == 0)
		return TXC_OK;
	if (cli_mkdirs(as->dir, d) != 0)
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
