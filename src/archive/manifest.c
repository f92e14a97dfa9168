/*
 * manifest.c - DIR/manifest.jsonl: one line per file txc wrote (its session, bytes, SHA-256 and
 * what shaped it), read at the start of a run, appended to as files land (the journal: a run
 * that is stopped leaves every file it wrote recorded) and rewritten whole at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive_int.h"
#include "txc/json.h"
#include "txc/strmap.h"

bool manifest_slow;

static struct txc_str entry_key(const struct entry *e, bool by_session)
{
	if (by_session)
		return (struct txc_str){e->session, e->session ? e->session_len : 0};
	return (struct txc_str){e->path, e->path_len};
}

/* The indices a key has had beyond its first (strmap's num holds the first + 1). */
struct more {
	size_t n, cap;
	size_t v[];
};

void eindex_put(struct eindex *x, const struct manifest *m, size_t i, bool by_session)
{
	struct txc_str k = entry_key(&m->v[i], by_session);
	if (k.ptr == NULL)
		return; /* (the key is the entry's, in the manifest's arena: it outlives the map) */
	struct txc_strmap_entry *e = txc_strmap_put(&x->map, k.ptr, k.len, NULL);
	struct more *mo = e->ptr;
	if (e->num == 0 || e->num == i + 1 || (mo != NULL && mo->v[mo->n - 1] == i)) {
		e->num = e->num ? e->num : i + 1;
		return;
	}
	if (mo == NULL || mo->n == mo->cap) {
		size_t cap = mo ? 2 * mo->cap : 2;
		mo = txc_xrealloc(mo, sizeof(*mo) + cap * sizeof(mo->v[0]));
		mo->n = e->ptr ? mo->n : 0;
		mo->cap = cap;
		e->ptr = mo;
	}
	mo->v[mo->n++] = i;
}

/* the indices of the entries whose key (path or session) is key/len now, ascending; *n */
size_t *eindex_get(const struct eindex *x, const struct manifest *m, const char *key, size_t len, bool by_session,
		   size_t *n)
{
	const struct txc_strmap_entry *e = txc_strmap_get(&x->map, key, len);
	const struct more *mo = e ? e->ptr : NULL;
	size_t *v = NULL, total = e ? 1 + (mo ? mo->n : 0) : 0;
	*n = 0;
	for (size_t c = 0; c < total; c++) {
		size_t at = 0, i = c == 0 ? e->num - 1 : mo->v[c - 1];
		struct txc_str k = entry_key(&m->v[i], by_session); /* (an entry re-recorded since has another) */
		if (k.ptr == NULL || k.len != len || memcmp(k.ptr, key, len) != 0)
			continue;
		while (at < *n && v[at] < i)
			at++;
		if (at < *n && v[at] == i)
			continue;
		v = txc_xrealloc(v, (*n + 1) * sizeof(*v));
		memmove(v + at + 1, v + at, (*n - at) * sizeof(*v));
		v[at] = i;
		(*n)++;
	}
	return v;
}

/* The first entry (lowest index) for path that was not dropped: no list built (it is looked up
 * for every session of every run) */
struct entry *manifest_find(struct manifest *m, const char *path)
{
	size_t len = strlen(path), best = SIZE_MAX;
	const struct txc_strmap_entry *e = txc_strmap_get(&m->by_path.map, path, len);
	const struct more *mo = e ? e->ptr : NULL;
	for (size_t c = 0, total = e ? 1 + (mo ? mo->n : 0) : 0; c < total; c++) {
		size_t i = c == 0 ? e->num - 1 : mo->v[c - 1];
		const struct entry *en = &m->v[i];
		if (i < best && !en->dropped && en->path_len == len && memcmp(en->path, path, len) == 0)
			best = i;
	}
	return best == SIZE_MAX ? NULL : &m->v[best];
}

/* a copy of n bytes of p in the manifest's arena, NUL-terminated; NULL for NULL */
char *mstr(struct manifest *m, const char *p, size_t n)
{
	if (p == NULL)
		return NULL;
	if (m->strs == NULL)
		m->strs = txc_arena_new(0);
	return (char *)txc_arena_str(m->strs, p, n).ptr;
}

char *mstr_c(struct manifest *m, const char *p)
{
	return p ? mstr(m, p, strlen(p)) : NULL;
}

void entry_clear(struct entry *e)
{
	e->exported_at = e->source_fp = e->render = e->fstat = NULL;
	e->base[0] = e->links[0] = '\0';
	e->bytes = 0;
	for (size_t i = 0; i < e->n_assets; i++)
		free(e->assets[i].path);
	free(e->assets);
	e->line = e->session = e->profile = e->format = NULL;
	e->session_len = 0;
	e->assets = NULL;
	e->n_assets = 0;
}

struct entry *manifest_put(struct manifest *m, const char *path)
{
	struct entry *e = manifest_find(m, path);
	if (e != NULL)
		return e;
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->v = txc_xrealloc(m->v, m->cap * sizeof(*m->v));
	}
	e = &m->v[m->n++];
	memset(e, 0, sizeof(*e));
	e->path_len = strlen(path);
	e->path = mstr(m, path, e->path_len);
	eindex_put(&m->by_path, m, m->n - 1, false);
	return e;
}

/* Whether sha is 64 lower-case hex digits, as txc writes them */
static bool sha_hex(const char *sha)
{
	size_t n = strspn(sha, "0123456789abcdef");
	return n == 64 && sha[n] == '\0';
}

/* The entry of a line txc wrote (len bytes, no newline), from its fields (mfields). */
void manifest_fill(struct manifest *m, const char *line, size_t len, const struct mfields *f)
{
	struct entry *e = manifest_put(m, f->path);
	entry_clear(e);
	e->line = mstr(m, line, len);
	memcpy(e->sha, f->sha, 65);
	if (f->session != NULL) {
		e->session = f->owned ? (char *)f->session : mstr(m, f->session, f->session_len);
		e->session_len = f->session_len;
	}
	eindex_put(&m->by_session, m, (size_t)(e - m->v), true);
	char **const to[] = {&e->profile, &e->format, &e->exported_at, &e->source_fp, &e->render, &e->fstat};
	const char *const v[] = {f->profile, f->format, f->exported_at, f->source_fp, f->render, f->fstat};
	for (size_t i = 0; i < 6; i++)
		*to[i] = f->owned ? (char *)v[i] : mstr_c(m, v[i]);
	e->bytes = (size_t)f->bytes;
	if (f->base != NULL && f->links != NULL && sha_hex(f->base) && strlen(f->links) == 32 &&
	    strspn(f->links, "0123456789abcdef") == 32) {
		memcpy(e->base, f->base, 65);
		memcpy(e->links, f->links, 33);
	}
	for (size_t i = 0; i < f->n_assets; i++) {
		const char *ap = f->assets[2 * i], *ah = f->assets[2 * i + 1];
		if (strlen(ah) != 64)
			continue;
		e->assets = txc_xrealloc(e->assets, (e->n_assets + 1) * sizeof(*e->assets));
		e->assets[e->n_assets].path = txc_xstrdup(ap);
		memcpy(e->assets[e->n_assets++].sha, ah, 65);
	}
}

/* One line of the manifest (len bytes, no newline) through the JSON parser, its tree in the arena a:
 * false when it is not an entry txc writes (an object with a path, a format, bytes and a sha256) */
static bool manifest_line(struct manifest *m, struct txc_arena *a, const char *line, size_t len)
{
	const struct txc_json *o, *as;
	struct mfields f = {0};
	if (len == 0 || txc_json_parse(a, line, len, &o) != 0 || o->kind != TXC_JSON_OBJECT ||
	    (f.path = txc_json_cstr(txc_json_get(o, "path"))) == NULL ||
	    (f.sha = txc_json_cstr(txc_json_get(o, "sha256"))) == NULL || !sha_hex(f.sha) ||
	    (f.format = txc_json_cstr(txc_json_get(o, "format"))) == NULL ||
	    !txc_json_is_int(txc_json_get(o, "bytes"), &f.bytes) || f.bytes < 0)
		return false;
	const struct txc_json *sid = txc_json_get(o, "session_id");
	if (sid != NULL && sid->kind == TXC_JSON_STRING) {
		f.session = sid->s.ptr;
		f.session_len = sid->s.len;
	}
	f.profile = txc_json_cstr(txc_json_get(o, "profile"));
	f.exported_at = txc_json_cstr(txc_json_get(o, "exported_at"));
	f.source_fp = txc_json_cstr(txc_json_get(o, "source_fingerprint"));
	f.render = txc_json_cstr(txc_json_get(o, "render_key"));
	f.fstat = txc_json_cstr(txc_json_get(o, "file_stat"));
	f.base = txc_json_cstr(txc_json_get(o, "page_sha256"));
	f.links = txc_json_cstr(txc_json_get(o, "links"));
	as = txc_json_get(o, "assets");
	size_t n = as != NULL && as->kind == TXC_JSON_ARRAY ? as->n : 0;
	const char **ap = txc_arena_array(a, n ? 2 * n : 1, sizeof(*ap));
	for (size_t i = 0; i < n; i++) {
		const char *p = txc_json_cstr(txc_json_get(as->items[i], "path"));
		const char *h = txc_json_cstr(txc_json_get(as->items[i], "sha256"));
		if (p != NULL && h != NULL) {
			ap[2 * f.n_assets] = p;
			ap[2 * f.n_assets++ + 1] = h;
		}
	}
	f.assets = ap;
	manifest_fill(m, line, len, &f);
	return true;
}

/* A last line without its newline, begun as txc begins its entries: a journal write cut short
 * (a full disk, a file size limit) by a run that was stopped (stopped: DIR still has its mark) */
static bool cut_short(const char *line, size_t len, const char *end, bool stopped)
{
	static const char *const starts[] = {"{\"session_id\":", "{\"path\":"};
	if (!stopped || line + len != end || line[len - 1] == '\n')
		return false;
	for (size_t i = 0; i < 2; i++)
		if (len >= strlen(starts[i]) && memcmp(line, starts[i], strlen(starts[i])) == 0)
			return true;
	return false;
}

/* A file's bytes and a NUL after them, read in as few calls as its size allows (stdio read a
 * manifest 4 KiB at a time: 200 system calls a re-run); NULL when it cannot be read. */
char *file_bytes(const char *file, size_t *len, struct stat *sb)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = fstat(fd, sb) == 0 && sb->st_size > 0 ? (size_t)sb->st_size + 1 : 4096, n = 0;
	char *p = txc_xmalloc(cap);
	for (;;) {
		if (n + 1 == cap)
			p = txc_xrealloc(p, cap *= 2);
		ssize_t k = read(fd, p + n, cap - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			close(fd);
			if (k < 0) {
				free(p);
				return NULL;
			}
			p[n] = '\0';
			*len = n;
			return p;
		}
		n += (size_t)k;
	}
}

/*
 * A later line for the same path wins: the lines a run appends as it goes override older ones.
 * Returns 0, or the number of the first line that is not txc's (the file is someone else's,
 * or was changed by someone: not to be replaced; SIZE_MAX when it cannot be read); stopped:
 * a run was stopped (its last line may be cut short).
 */
size_t manifest_read(struct manifest *m, const char *file, bool stopped)
{
	size_t size, lineno = 0, foreign = 0;
	struct stat sb;
	char *bytes = file_bytes(file, &size, &m->read_st);
	if (bytes == NULL) {
		int err = errno;
		bool there = stat(file, &sb) == 0; /* (a dangling link is no manifest: replaced by one) */
		errno = err;
		return there ? SIZE_MAX : 0;
	}
	for (const char *line = bytes, *end = bytes + size; line < end && !foreign;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t len = nl ? (size_t)(nl - line) + 1 : (size_t)(end - line);
		lineno++;
		size_t n = len; /* (without its newline) */
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		/* a line's tree, gone with it: the same 64 KiB each time, not 1 MiB of new pages */
		struct txc_arena *a = NULL;
		if (!manifest_slow && n > 0 && mline_fast(m, line, n))
			;
		else if (manifest_line(m, a = txc_arena_new(0), line, n))
			;
		else if (cut_short(line, len, end, stopped))
			m->journal = -1; /* (appended to, its next line would run into this one) */
		else
			foreign = lineno;
		txc_arena_free(a);
		line += len;
	}
	m->bytes = bytes; /* (the end of the run compares what it would write with them) */
	m->size = size;
	m->whole = m->n == lineno;
	for (size_t i = 1; i < m->n && m->whole; i++)
		m->whole = strcmp(m->v[i - 1].path, m->v[i].path) < 0;
	return foreign;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

static void eindex_free(struct eindex *x)
{
	struct txc_strmap_entry *e;
	for (size_t at = 0; (e = txc_strmap_next(&x->map, &at)) != NULL;)
		free(e->ptr);
	txc_strmap_free(&x->map);
}

/* Whether file holds exactly these bytes (a re-run that changed nothing leaves the manifest alone). */
static bool same_bytes(const char *file, const char *p, size_t len)
{
	size_t n;
	struct stat sb;
	char *now = file_bytes(file, &n, &sb);
	bool same = now != NULL && n == len && memcmp(now, p, len) == 0;
	free(now);
	return same;
}

/* Whether file still lies as the run read it (the same inode, size and times): with the same
 * lines (lines_as_read) it is left alone without being read again (a tenth of a re-run) */
static bool as_read(const struct manifest *m, const char *file)
{
	struct stat sb;
	const struct stat *r = &m->read_st;
	return stat(file, &sb) == 0 && sb.st_dev == r->st_dev && sb.st_ino == r->st_ino && sb.st_size == r->st_size &&
	       sb.st_mtim.tv_sec == r->st_mtim.tv_sec && sb.st_mtim.tv_nsec == r->st_mtim.tv_nsec &&
	       sb.st_ctim.tv_sec == r->st_ctim.tv_sec && sb.st_ctim.tv_nsec == r->st_ctim.tv_nsec;
}

/* Whether the lines to write are the bytes the run read, line by line (no copy of them all made
 * to find out: an unchanged re-run's manifest is 400 KB to 1 MB) */
static bool lines_as_read(const struct manifest *m)
{
	size_t at = 0;
	for (size_t i = 0; i < m->n && m->bytes != NULL; i++) {
		if (m->v[i].dropped)
			continue;
		size_t len = strlen(m->v[i].line);
		if (len + 1 > m->size - at || memcmp(m->bytes + at, m->v[i].line, len) != 0 ||
		    m->bytes[at + len] != '\n')
			return false;
		at += len + 1;
	}
	return m->bytes != NULL && at == m->size;
}

int manifest_write(struct arun *r, const char *file, struct txc_diag *d)
{
	struct manifest *m = &r->m;
	bool sorted = true; /* (as read, when the run added no path: nothing moves, a tenth of a re-run) */
	for (size_t i = 1; i < m->n && sorted; i++)
		sorted = cmp_entry(&m->v[i - 1], &m->v[i]) <= 0;
	if (!sorted) {
		qsort(m->v, m->n, sizeof(*m->v), cmp_entry);
		eindex_free(&m->by_path); /* the indices moved: rebuilt */
		eindex_free(&m->by_session);
		for (size_t i = 0; i < m->n; i++) {
			eindex_put(&m->by_path, m, i, false);
			eindex_put(&m->by_session, m, i, true);
		}
	}
	if (lines_as_read(m) && as_read(m, file))
		return 0;
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 0; i < m->n; i++) {
		if (m->v[i].dropped)
			continue;
		txc_buf_addstr(&b, m->v[i].line); /* not addf: vsnprintf was a tenth of a re-run */
		txc_buf_addch(&b, '\n');
	}
	bool same = same_bytes(file, b.buf, b.len);
	if (!same) /* a run that rendered nothing made no mark: its temporary file would stay unseen */
		mark_running(r);
	test_kill(r, "manifest");
	int rc = same ? 0 : r->ops->io.write_file(file, b.buf, b.len, true, d);
	txc_buf_release(&b);
	return rc;
}

/* The journal: manifest.jsonl itself, appended to as files are written, so that a run that is
 * stopped half-way leaves every file it wrote recorded (the end of the run rewrites it whole). */
static void manifest_journal_open(struct manifest *m)
{
	m->journal = m->file ? open(m->file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666) : -1;
	struct stat sb;
	if (m->journal >= 0 && (fstat(m->journal, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_nlink != 1)) {
		close(m->journal); /* not a plain file of ours: only the final rewrite */
		m->journal = -1;
	}
}

void manifest_journal_add(struct manifest *m, const char *line)
{
	if (m->journal == -2)
		manifest_journal_open(m);
	if (m->journal < 0)
		return;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addf(&b, "%s\n", line);
	if (write(m->journal, b.buf, b.len) != (ssize_t)b.len) { /* the final rewrite still records it */
		close(m->journal);
		m->journal = -1;
	}
	txc_buf_release(&b);
}

void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		entry_clear(&m->v[i]);
	free(m->v);
	txc_arena_free(m->strs);
	free(m->bytes);
	eindex_free(&m->by_path);
	eindex_free(&m->by_session);
	if (m->journal >= 0)
		close(m->journal);
}

bool opt_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

bool file_sha(const char *path, char out[65])
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	struct txc_sha256 c;
	txc_sha256_init(&c);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		txc_sha256_update(&c, buf, n);
	bool ok = !ferror(f);
	fclose(f);
	unsigned char h[32];
	txc_sha256_final(&c, h);
	txc_hex(out, h, 32);
	return ok;
}

void free_assets(struct asset_rec *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}
