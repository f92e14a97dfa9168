/*
 * cmd_export.c - `txc export`: the selected sessions as Hermes JSONL on stdout
 * (streamed row by row), or one file per session in a folder with a manifest,
 * rewriting only what changed, or installed for Claude Code.
 */
#define _DEFAULT_SOURCE /* d_type: clean_temps() need not lstat every file */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "txc/model_hermes.h"
#include "txc/redact.h"
#include "txc/writer_hermes.h"

/* ---- --json: stream each session, hold no session whole ---- */

struct json_stream {
	struct txc_out *out;
	const struct txc_write_opts *w;
	struct txc_stream_state st;
	const char *profile; /* --all-profiles: "profile" goes before "messages", as list --json has it last */
};

static int json_head(void *ctx, const struct txc_transcript *t)
{
	struct json_stream *js = ctx;
	txc_writer_hermes.stream->head(js->out, t, js->w, &js->st);
	static const char tail[] = "\"messages\": [";
	struct txc_buf *b = &js->out->buf;
	size_t tl = sizeof(tail) - 1;
	if (js->profile != NULL && b->len >= tl && memcmp(b->buf + b->len - tl, tail, tl) == 0) {
		b->len -= tl;
		txc_buf_addstr(b, "\"profile\": ");
		txc_json_emit_str(b, js->profile, strlen(js->profile));
		txc_buf_addstr(b, ", ");
		txc_buf_add(b, tail, tl);
	}
	return 0;
}

static int json_row(void *ctx, const struct txc_json *row)
{
	struct json_stream *js = ctx;
	txc_writer_hermes.stream->row(js->out, row, &js->st);
	return js->out->err ? TXC_E_FAIL : 0;
}

static int export_json(const struct cli_args *a, struct cli_stores *st, const struct cli_session *v, size_t n,
		       bool profiles, struct txc_diag *d)
{
	struct txc_out out;
	struct cli_tty tty;
	cli_out_stdout(&out, &tty); /* on a terminal, through the same filter as all transcript text */
	struct txc_write_opts w = {.bulk = true, .hermes_format = a->w.hermes_format};
	struct json_stream js = {&out, &w, {0}, NULL};
	struct txc_row_sink sink = {json_head, json_row, &js};
	struct txc_redact_sink rs;
	const struct txc_row_sink *use = txc_convert_redact_sink(&rs, a->redact, &sink);
	int rc = 0;
	size_t lost = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		js.st = (struct txc_stream_state){0};
		js.profile = profiles ? st->v[v[i].store].profile : NULL;
		struct txc_diag d1 = {0};
		rc = txc_store_stream(st->v[v[i].store].s, &v[i].id, TXC_LOAD_LAST_ACTIVE, use, &d1);
		if (rc == TXC_E_NOTFOUND) { /* deleted while we ran: said, and the run fails */
			cli_warn("%s; not exported", d1.msg);
			lost++;
			rc = 0;
		} else if (rc != 0) {
			*d = d1;
		} else {
			txc_writer_hermes.stream->tail(&out, &js.st);
			txc_out_maybe_flush(&out);
		}
		txc_writer_hermes.stream->release(&js.st);
	}
	/* a failed write stops the stream with rc set and no message: say it here, with its errno */
	if ((cli_out_finish(&out) != 0 || out.err) && (rc == 0 || d->msg[0] == '\0')) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write to stdout: %s", strerror(out.err));
		rc = TXC_E_FAIL;
	}
	txc_out_release(&out);
	txc_convert_redact_sink_release(&rs);
	if (rc == 0 && lost) {
		txc_diag_set(d, TXC_E_FAIL, "%zu session%s could not be exported (see above)", lost,
			     lost == 1 ? "" : "s");
		rc = TXC_E_FAIL;
	}
	return rc;
}

/* Every session in Hermes's order, holding only their ids. */
static int export_all_json(const struct cli_args *a, struct txc_store *s, struct txc_diag *d)
{
	struct txc_sid *ids;
	size_t n, no_id = 0;
	int rc = txc_store_export_order(s, &ids, &n, d);
	if (rc)
		return rc;
	struct cli_stores one = {.v = &(struct cli_store_ref){.s = s}, .n = 1};
	struct cli_session *v = txc_xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		v[i].id = ids[i];
		no_id += ids[i].kind == TXC_ID_NONE;
	}
	if (no_id) /* exported as they are ("id": null); elsewhere they are named no-id~N */
		cli_warn("%zu session%s no id (NULL or empty)", no_id, no_id == 1 ? " has" : "s have");
	rc = export_json(a, &one, v, n, false, d);
	free(v);
	txc_store_free_ids(ids, n);
	return rc;
}

/* ---- a test's kill -9 (TXC_TEST_KILL_AT=POINT:N, tests/cli/files-tests.sh) ---- */

/* The N-th time the run reaches POINT (tmp: a file rendered into its temporary name; file: renamed
 * into place, not yet in the manifest; journal: recorded; manifest: before the final rewrite), it
 * is killed as kill -9 would: the test proves the next run completes whatever was cut short. */
static void test_kill(const char *point)
{
	static const char *at;
	static long left = -1;
	if (left == -1) {
		const char *e = getenv("TXC_TEST_KILL_AT"), *colon = e ? strchr(e, ':') : NULL;
		at = colon ? e : "";
		left = colon ? strtol(colon + 1, NULL, 10) : 0;
	}
	size_t n = strlen(point);
	if (left > 0 && strncmp(at, point, n) == 0 && at[n] == ':' && --left == 0)
		raise(SIGKILL);
}

/* ---- file names ---- */

/* <id>-<slug>.<ext>: ids keep [A-Za-z0-9._-] (others become '_', plus a hash so two ids
 * cannot meet; an id that is not text always has the hash of its kind and text, so that
 * 1 and "1" differ), the slug is the title in lower-case ASCII words, at most 48 bytes. */
static void name_as(struct txc_buf *b, const struct txc_sid *sid, struct txc_str title, const char *ext, bool hashed)
{
	struct txc_str id = sid->text;
	bool changed = hashed || id.len == 0 || sid->kind != TXC_ID_TEXT;
	for (size_t i = 0; i < id.len && i < 96; i++) {
		char c = id.ptr[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
			  ((c == '.' || c == '-') && i > 0); /* no hidden files, no names read as options */
		txc_buf_addch(b, ok ? c : '_');
		changed |= !ok;
	}
	if (changed || id.len > 96) {
		unsigned char h[32];
		char hex[65];
		struct txc_buf key = TXC_BUF_INIT;
		txc_model_id_key(&key, sid->kind, id);
		txc_sha256(key.buf, key.len, h);
		txc_buf_release(&key);
		txc_hex(hex, h, 4);
		txc_buf_addf(b, "_%s", hex);
	}
	size_t mark = b->len;
	bool dash = true;
	for (size_t i = 0; i < title.len && b->len - mark < 48; i++) {
		char c = title.ptr[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash)
				txc_buf_addch(b, '-');
			txc_buf_addch(b, c);
			dash = false;
		} else {
			dash = true;
		}
	}
	txc_buf_addf(b, ".%s", ext);
}

/* Whether name is one of txc's own in DIR: the manifest, the index page, a temporary file or the
 * run's mark (".txc-"), an image folder (never a session's: name_as() makes neither of the last
 * two, said here so that it never will). */
static bool reserved_name(const char *name, size_t len)
{
	static const char *const own[] = {"manifest.jsonl", "index.html"};
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (len == strlen(own[i]) && memcmp(name, own[i], len) == 0)
			return true;
	return (len >= 5 && memcmp(name, ".txc-", 5) == 0) || (len >= 7 && memcmp(name + len - 7, ".assets", 7) == 0);
}

/* A session's file name; one that would be txc's own file (a session "manifest" as Claude Code
 * JSONL, "index" as HTML) gets the id's hash too: another name, the same on every run. */
static void file_name(struct txc_buf *b, const struct txc_sid *sid, struct txc_str title, const char *ext)
{
	size_t start = b->len;
	name_as(b, sid, title, ext, false);
	if (reserved_name(b->buf + start, b->len - start)) {
		txc_buf_truncate(b, start);
		name_as(b, sid, title, ext, true);
	}
}

/* ---- the manifest ---- */

struct asset_rec {
	char *path; /* relative to DIR */
	char sha[65];
};

/* An entry's strings live in its manifest's arena (freed with it: a re-run read 800 lines into
 * 8 allocations each); its asset list is its own. */
struct entry {
	char *path, *line; /* path relative to DIR; the manifest line without its newline */
	size_t path_len;
	char *session, *profile, *format; /* NULL when absent */
	size_t session_len;               /* an id may hold NUL bytes */
	char sha[65];
	struct asset_rec *assets;
	size_t n_assets;
	char *exported_at;                /* kept while the bytes are */
	char *source_fp, *render, *fstat; /* what shaped the file and how it lay on disk (NULL: unknown) */
	bool touched, dropped;
};

/* Entry indices hashed by path or by session (a bulk run looks both up once per session, so a
 * scan was n^2 over 100,000 sessions): open addressing, 1 + index, 0 empty.  A key may have
 * several slots and a slot may be stale (an entry dropped or re-recorded): lookups check. */
struct eindex {
	size_t *slot;
	size_t cap, used;
};

struct manifest {
	struct entry *v;
	size_t n, cap;
	struct eindex by_path, by_session;
	struct txc_arena *strs; /* the entries' strings */
	char *bytes;            /* the file as read, and how it lay then */
	size_t size;
	struct stat read_st;
	const char *file; /* DIR/manifest.jsonl, NULL in a dry run */
	int journal;      /* file opened for appending; -1 none, -2 not yet */
	bool whole;       /* as read: as a finished run writes it, one line per path, sorted */
};

static size_t key_hash(const char *p, size_t len)
{
	uint64_t h = 1469598103934665603u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211u;
	return (size_t)h;
}

static struct txc_str entry_key(const struct entry *e, bool by_session)
{
	if (by_session)
		return (struct txc_str){e->session, e->session ? e->session_len : 0};
	return (struct txc_str){e->path, e->path_len};
}

static void eindex_put(struct eindex *x, const struct manifest *m, size_t i, bool by_session)
{
	struct txc_str k = entry_key(&m->v[i], by_session);
	if (k.ptr == NULL)
		return;
	if (2 * (x->used + 1) > x->cap) { /* rebuilt from the entries as they are now */
		free(x->slot);
		x->cap = x->cap ? x->cap * 2 : 64;
		while (2 * (m->n + 1) > x->cap)
			x->cap *= 2;
		x->slot = txc_xcalloc(x->cap, sizeof(*x->slot));
		x->used = 0;
		for (size_t j = 0; j < m->n; j++)
			if (j != i)
				eindex_put(x, m, j, by_session);
	}
	size_t h = key_hash(k.ptr, k.len) & (x->cap - 1);
	while (x->slot[h])
		h = (h + 1) & (x->cap - 1);
	x->slot[h] = i + 1;
	x->used++;
}

/* the indices of the entries whose key (path or session) is key/len, ascending; *n */
static size_t *eindex_get(const struct eindex *x, const struct manifest *m, const char *key, size_t len,
			  bool by_session, size_t *n)
{
	size_t *v = NULL;
	*n = 0;
	for (size_t h = x->cap ? key_hash(key, len) & (x->cap - 1) : 0; x->cap && x->slot[h];
	     h = (h + 1) & (x->cap - 1)) {
		struct txc_str k = entry_key(&m->v[x->slot[h] - 1], by_session);
		if (k.ptr == NULL || k.len != len || memcmp(k.ptr, key, len) != 0)
			continue;
		size_t at = 0, i = x->slot[h] - 1;
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

/* The first entry (lowest index) for path that was not dropped: probed in place, no list built
 * (it is looked up for every session of every run) */
static struct entry *manifest_find(struct manifest *m, const char *path)
{
	const struct eindex *x = &m->by_path;
	size_t len = strlen(path), best = SIZE_MAX;
	for (size_t h = x->cap ? key_hash(path, len) & (x->cap - 1) : 0; x->cap && x->slot[h];
	     h = (h + 1) & (x->cap - 1)) {
		size_t i = x->slot[h] - 1;
		const struct entry *e = &m->v[i];
		if (i < best && !e->dropped && e->path_len == len && memcmp(e->path, path, len) == 0)
			best = i;
	}
	return best == SIZE_MAX ? NULL : &m->v[best];
}

/* a copy of n bytes of p in the manifest's arena, NUL-terminated; NULL for NULL */
static char *mstr(struct manifest *m, const char *p, size_t n)
{
	if (p == NULL)
		return NULL;
	if (m->strs == NULL)
		m->strs = txc_arena_new(0);
	return (char *)txc_arena_str(m->strs, p, n).ptr;
}

static char *mstr_c(struct manifest *m, const char *p)
{
	return p ? mstr(m, p, strlen(p)) : NULL;
}

static void entry_clear(struct entry *e)
{
	e->exported_at = e->source_fp = e->render = e->fstat = NULL;
	for (size_t i = 0; i < e->n_assets; i++)
		free(e->assets[i].path);
	free(e->assets);
	e->line = e->session = e->profile = e->format = NULL;
	e->session_len = 0;
	e->assets = NULL;
	e->n_assets = 0;
}

static struct entry *manifest_put(struct manifest *m, const char *path)
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

static char *opt_str(struct manifest *m, const struct txc_json *o, const char *key)
{
	return mstr_c(m, txc_json_cstr(txc_json_get(o, key)));
}

/* Whether sha is 64 lower-case hex digits, as txc writes them */
static bool sha_hex(const char *sha)
{
	size_t n = strspn(sha, "0123456789abcdef");
	return n == 64 && sha[n] == '\0';
}

/* One line of the manifest (len bytes, with its newline), its tree parsed in the arena a: false
 * when it is not an entry txc writes (an object with a path, a format, bytes and a sha256) */
static bool manifest_line(struct manifest *m, struct txc_arena *a, const char *line, size_t len)
{
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	const struct txc_json *o, *as;
	const char *path, *sha;
	int64_t bytes;
	if (len == 0 || txc_json_parse(a, line, len, &o) != 0 || o->kind != TXC_JSON_OBJECT ||
	    (path = txc_json_cstr(txc_json_get(o, "path"))) == NULL ||
	    (sha = txc_json_cstr(txc_json_get(o, "sha256"))) == NULL || !sha_hex(sha) ||
	    txc_json_cstr(txc_json_get(o, "format")) == NULL || !txc_json_is_int(txc_json_get(o, "bytes"), &bytes) ||
	    bytes < 0)
		return false;
	struct entry *e = manifest_put(m, path);
	entry_clear(e);
	e->line = mstr(m, line, len);
	memcpy(e->sha, sha, 65);
	const struct txc_json *sid = txc_json_get(o, "session_id");
	if (sid != NULL && sid->kind == TXC_JSON_STRING) {
		e->session = mstr(m, sid->s.ptr, sid->s.len);
		e->session_len = sid->s.len;
	}
	eindex_put(&m->by_session, m, (size_t)(e - m->v), true);
	e->profile = opt_str(m, o, "profile");
	e->format = opt_str(m, o, "format");
	e->exported_at = opt_str(m, o, "exported_at");
	e->source_fp = opt_str(m, o, "source_fingerprint");
	e->render = opt_str(m, o, "render_key");
	e->fstat = opt_str(m, o, "file_stat");
	as = txc_json_get(o, "assets");
	for (size_t i = 0; as != NULL && as->kind == TXC_JSON_ARRAY && i < as->n; i++) {
		const char *ap = txc_json_cstr(txc_json_get(as->items[i], "path"));
		const char *ah = txc_json_cstr(txc_json_get(as->items[i], "sha256"));
		if (ap == NULL || ah == NULL || strlen(ah) != 64)
			continue;
		e->assets = txc_xrealloc(e->assets, (e->n_assets + 1) * sizeof(*e->assets));
		e->assets[e->n_assets].path = txc_xstrdup(ap);
		memcpy(e->assets[e->n_assets++].sha, ah, 65);
	}
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
static char *file_bytes(const char *file, size_t *len, struct stat *sb)
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
static size_t manifest_read(struct manifest *m, const char *file, bool stopped)
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
		/* a line's tree, gone with it: the same 64 KiB each time, not 1 MiB of new pages */
		struct txc_arena *a = txc_arena_new(0);
		if (manifest_line(m, a, line, len))
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
	free(x->slot);
	*x = (struct eindex){0};
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

struct bulk;
static void mark_running(struct bulk *bk);

static int manifest_write(struct bulk *bk, struct manifest *m, const char *file, struct txc_diag *d)
{
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
		mark_running(bk);
	test_kill("manifest");
	int rc = same ? 0 : cli_write_file(file, b.buf, b.len, true, d);
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

static void manifest_journal_add(struct manifest *m, const char *line)
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

static void manifest_free(struct manifest *m)
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

static bool opt_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* ---- one file per session ---- */

struct hashing_file {
	FILE *f; /* NULL in a dry run: hash only */
	struct txc_sha256 sha;
	size_t bytes;
};

static int hashing_sink(void *ctx, const char *p, size_t n)
{
	struct hashing_file *h = ctx;
	txc_sha256_update(&h->sha, p, n);
	h->bytes += n;
	if (h->f != NULL && fwrite(p, 1, n, h->f) != n)
		return -1;
	return 0;
}

static bool file_sha(const char *path, char out[65])
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

enum outcome { NEW, UPDATED, SAME, REFUSED, FAILED, SKIPPED, N_OUTCOMES };

struct bulk {
	const struct cli_args *a;
	const struct txc_writer_ops *ops;
	struct manifest m;
	char stamp[64];
	size_t count[N_OUTCOMES];
	struct cli_secrets secrets;         /* likely secrets in what was written without --redact */
	size_t skipped;                     /* of count[SAME]: not even rendered (up_to_date) */
	char *tz;                           /* the local time zone's names, for render_key() */
	struct txc_str cur_fp;              /* the session being written: its source fingerprint (may be empty) */
	char cur_render[33];                /* and its render key */
	const struct cli_store_ref *key_of; /* render_key()'s last store, and its key */
	char key[33];
	int dir_fd;   /* DIR, open (its lock): files are looked at relative to it; -1 in a dry run */
	bool running; /* DIR holds running_name: this run marked it, or a stopped one did */
	bool swept;   /* and no leftover of a stopped run can be in it */
};

static void assets_json(struct txc_buf *b, const struct asset_rec *v, size_t n)
{
	if (n == 0)
		return;
	txc_buf_addstr(b, ",\"assets\":[");
	for (size_t i = 0; i < n; i++) {
		txc_buf_addstr(b, i ? ",{\"path\":" : "{\"path\":");
		txc_json_emit_str(b, v[i].path, strlen(v[i].path));
		txc_buf_addf(b, ",\"sha256\":\"%s\"}", v[i].sha);
	}
	txc_buf_addch(b, ']');
}

static bool same_assets(const struct entry *e, const struct asset_rec *v, size_t n)
{
	if (e->n_assets != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(e->assets[i].path, v[i].path) != 0 || strcmp(e->assets[i].sha, v[i].sha) != 0)
			return false;
	return true;
}

static void free_assets(struct asset_rec *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* What a writer's index page shows of a session (the manifest keeps it for the next run's index). */
static void page_facts(struct txc_buf *b, const struct txc_transcript *t)
{
	static const char *const keys[] = {"title", "source", "model"};
	const struct txc_str v[] = {t->meta.title, t->meta.source, t->meta.model};
	for (size_t i = 0; i < 3; i++) {
		if (v[i].ptr == NULL)
			continue;
		txc_buf_addf(b, ",\"%s\":", keys[i]);
		txc_json_emit_str(b, v[i].ptr, v[i].len);
	}
	char iso[64];
	if (t->meta.started_at != 0 && txc_time_iso_ms(iso, t->meta.started_at))
		txc_buf_addf(b, ",\"started\":\"%s\"", iso);
	if (t->meta.has_cost) {
		txc_buf_addstr(b, ",\"cost_usd\":");
		txc_json_emit_real(b, t->meta.cost_usd);
	}
}

/* How a file and its images lie on disk (device, inode, size, mtime, ctime: an edit, a touch, a
 * chmod or a replacement changes it): 32 hex digits, false when one is missing or not a file. */
static bool file_stat_sig(const struct bulk *bk, const char *rel, const struct asset_rec *av, size_t an, char out[33])
{
	uint64_t h[2] = {0x243F6A8885A308D3u, 0x13198A2E03707344u}; /* not SHA-256: 8% of a re-run */
	bool ok = true;
	for (size_t i = 0; i <= an && ok; i++) {
		struct stat sb;
		/* relative to DIR's descriptor: the kernel walks DIR's path once, not once per file (a dry
		 * run's DIR that could not be opened, one its user may search but not list: by its path) */
		const char *r = i ? av[i - 1].path : rel;
		struct txc_buf p = TXC_BUF_INIT;
		if (bk->dir_fd < 0)
			txc_buf_addf(&p, "%s/%s", bk->a->out_dir, r);
		ok = r[0] != '/' && fstatat(bk->dir_fd, p.len ? p.buf : r, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		     S_ISREG(sb.st_mode);
		txc_buf_release(&p);
		int64_t f[7] = {(int64_t)sb.st_dev,         (int64_t)sb.st_ino,          (int64_t)sb.st_size,
				(int64_t)sb.st_mtim.tv_sec, (int64_t)sb.st_mtim.tv_nsec, (int64_t)sb.st_ctim.tv_sec,
				(int64_t)sb.st_ctim.tv_nsec};
		for (size_t k = 0; ok && k < 7; k++) {
			h[0] = (h[0] ^ (uint64_t)f[k]) * 0x9E3779B97F4A7C15u;
			h[0] ^= h[0] >> 29;
			h[1] = (h[1] + (uint64_t)f[k]) * 0xC2B2AE3D27D4EB4Fu;
			h[1] ^= h[1] >> 31;
		}
	}
	unsigned char be[16]; /* "%016llx%016llx" without snprintf (a tenth of its cost; once per session) */
	for (int k = 0; k < 8; k++) {
		be[k] = (unsigned char)(h[0] >> (56 - 8 * k));
		be[8 + k] = (unsigned char)(h[1] >> (56 - 8 * k));
	}
	txc_hex(out, be, 16);
	return ok;
}

/* What shapes a session's file besides its rows: txc's version, the writer, the rows it loads,
 * the write options, the profile's scope and (for local times) the time zone; 32 hex digits. */
static void render_key(struct bulk *bk, const struct cli_store_ref *ref, char out[33])
{
	const struct cli_args *a = bk->a;
	if (bk->key_of == ref && bk->key_of != NULL) { /* the same for every session of a store */
		memcpy(out, bk->key, 33);
		return;
	}
	struct txc_str scope = cli_profile_scope(ref->profile);
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addf(&b, "txc %s\n%s\n%u\n%d %d %ld %d %d %d\n%zu:", TXC_VERSION, bk->ops->name,
		     cli_load_flags(a, bk->ops), (int)a->w.reasoning, (int)a->w.detail, a->w.max_output_lines,
		     (int)a->w.include_compacted, (int)a->w.utc, (int)a->w.images, a->w.cwd.len);
	txc_buf_add(&b, a->w.cwd.ptr ? a->w.cwd.ptr : "", a->w.cwd.len);
	txc_buf_addf(&b, "\n%zu:", scope.len);
	txc_buf_add(&b, scope.ptr ? scope.ptr : "", scope.len);
	txc_buf_addf(&b, "\n%s\n%d", a->w.utc ? "" : bk->tz, (int)a->redact);
	if (bk->ops->opts & TXC_WOPT_HERMES_FORMAT) /* only there: other formats keep their keys */
		txc_buf_addf(&b, "\nhermes-format %d", (int)a->w.hermes_format);
	if (a->lineage || a->children) /* (only then: the keys of files of one session stay as they were) */
		txc_buf_addf(&b, "\nlineage %d children %d", (int)a->lineage, (int)a->children);
	unsigned char h[32];
	txc_sha256(b.buf, b.len, h);
	txc_hex(out, h, 16);
	txc_buf_release(&b);
	bk->key_of = ref;
	memcpy(bk->key, out, 33);
}

/* The local time zone as the C library finds it: $TZ, else what /etc/localtime names. */
static char *local_tz(void)
{
	const char *tz = getenv("TZ");
	char *lt = realpath("/etc/localtime", NULL);
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addf(&b, "%s%s\n%s", tz ? "TZ=" : "", tz ? tz : "", lt ? lt : "");
	free(lt);
	return txc_buf_detach(&b, NULL);
}

/* What the manifest line says of a session besides its file: from its transcript, in the process
 * that rendered it (a -j worker sends it to the one that records). */
struct facts {
	char *id; /* may hold NUL bytes */
	size_t id_len, messages;
	int kind;   /* enum txc_id_kind */
	char *page; /* page_facts(), "" for a writer without an index page */
};

static void facts_of(struct facts *f, const struct bulk *bk, const struct txc_transcript *t)
{
	f->id_len = t->meta.id.len;
	f->id = txc_xmalloc(f->id_len + 1);
	if (f->id_len)
		memcpy(f->id, t->meta.id.ptr, f->id_len);
	f->id[f->id_len] = '\0';
	f->kind = (int)t->meta.id_kind;
	f->messages = t->native ? t->native->n_active_rows : t->n_messages;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "");
	if (bk->ops->index != NULL)
		page_facts(&b, t);
	f->page = txc_buf_detach(&b, NULL);
}

static void facts_free(struct facts *f)
{
	free(f->id);
	free(f->page);
	memset(f, 0, sizeof(*f));
}

/* The manifest line of a file written or found unchanged; takes the asset list. */
static void record(struct bulk *bk, const char *rel, const struct cli_store_ref *ref, const struct facts *t,
		   const char *sha, size_t bytes, struct asset_rec *av, size_t an)
{
	struct entry *e = manifest_put(&bk->m, rel);
	e->touched = true;
	/* the same bytes: the entry and its exported_at stay; its fingerprints are brought up to date */
	bool same = e->line != NULL && strcmp(e->sha, sha) == 0 && same_assets(e, av, an);
	char fst[33] = "";
	if (!bk->a->dry_run && !file_stat_sig(bk, rel, av, an, fst))
		fst[0] = '\0';
	const char *stamp = same && e->exported_at != NULL ? e->exported_at : bk->stamp;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "{\"session_id\":");
	txc_json_emit_str(&b, t->id, t->id_len);
	if (t->kind != TXC_ID_TEXT) /* session_id is the identity text; this says what it stands for */
		txc_buf_addf(&b, ",\"id_kind\":\"%s\"", txc_model_id_kind_name((enum txc_id_kind)t->kind));
	if (ref->profile != NULL) {
		txc_buf_addstr(&b, ",\"profile\":");
		txc_json_emit_str(&b, ref->profile, strlen(ref->profile));
	}
	txc_buf_addstr(&b, ",\"path\":");
	txc_json_emit_str(&b, rel, strlen(rel));
	txc_buf_addf(&b, ",\"format\":\"%s\",\"messages\":%zu,\"bytes\":%zu,\"sha256\":\"%s\",\"exported_at\":\"%s\"",
		     bk->ops->name, t->messages, bytes, sha, stamp);
	if (bk->cur_fp.len && fst[0]) /* hex digits from the reader: nothing to escape */
		txc_buf_addf(&b, ",\"source_fingerprint\":\"%.*s\",\"render_key\":\"%s\",\"file_stat\":\"%s\"",
			     (int)bk->cur_fp.len, bk->cur_fp.ptr, bk->cur_render, fst);
	assets_json(&b, av, an);
	txc_buf_addstr(&b, t->page);
	txc_buf_addch(&b, '}');
	if (same && strcmp(b.buf, e->line) == 0) {
		free_assets(av, an);
		txc_buf_release(&b);
		return;
	}
	struct manifest *m = &bk->m;
	entry_clear(e);
	e->exported_at = mstr_c(m, stamp); /* (the old one stays in the arena: it may be stamp) */
	if (bk->cur_fp.len && fst[0]) {
		e->source_fp = mstr(m, bk->cur_fp.ptr, bk->cur_fp.len);
		e->render = mstr_c(m, bk->cur_render);
		e->fstat = mstr_c(m, fst);
	}
	e->line = mstr(m, b.buf, b.len);
	txc_buf_release(&b);
	e->session = mstr(m, t->id, t->id_len);
	e->session_len = t->id_len;
	eindex_put(&m->by_session, m, (size_t)(e - m->v), true);
	e->profile = mstr_c(m, ref->profile);
	e->format = mstr_c(m, bk->ops->name);
	memcpy(e->sha, sha, 65);
	e->assets = av;
	e->n_assets = an;
	if (!bk->a->dry_run) {
		manifest_journal_add(&bk->m, e->line);
		test_kill("journal");
	}
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
	free(parent), free(rd), free(rp);
	return ok;
}

/* Remove DIR/rel if it is still exactly what txc wrote (sha); anything else is left alone. */
static void remove_ours(const struct bulk *bk, const char *rel, const char *sha)
{
	struct txc_buf full = TXC_BUF_INIT;
	txc_buf_addf(&full, "%s/%s", bk->a->out_dir, rel);
	struct stat sb;
	char now[65];
	struct txc_diag d = {0};
	if (!safe_rel(rel) || !under_dir(bk->a->out_dir, full.buf) || lstat(full.buf, &sb) != 0) {
		/* gone already, or not a path of ours: only the entry goes */
	} else if (!S_ISREG(sb.st_mode) || !file_sha(full.buf, now) || strcmp(now, sha) != 0) {
		cli_warn("kept '%s': it changed since txc wrote it (it is no longer in the manifest)", full.buf);
	} else if (bk->a->dry_run) {
		struct txc_buf line = TXC_BUF_INIT;
		cli_safe_text(&line, full.buf, full.len, true);
		printf("%-6s %s\n", "remove", line.buf);
		txc_buf_release(&line);
	} else if (cli_guard_check(full.buf, &d) == 0) {
		unlink(full.buf);
	}
	txc_buf_release(&full);
}

/* A session written under a new name (its title changed): the files of its old name go. */
static void drop_stale(struct bulk *bk, const char *rel, struct txc_str id, const char *profile)
{
	size_t n, *cand = eindex_get(&bk->m.by_session, &bk->m, id.ptr ? id.ptr : "", id.len, true, &n);
	for (size_t c = 0; c < n; c++) {
		struct entry *e = &bk->m.v[cand[c]];
		if (e->dropped || e->session == NULL || strcmp(e->path, rel) == 0 || e->session_len != id.len ||
		    memcmp(e->session, id.ptr, id.len) != 0 || !opt_eq(e->profile, profile) ||
		    !opt_eq(e->format, bk->ops->name))
			continue;
		remove_ours(bk, e->path, e->sha);
		for (size_t k = 0; k < e->n_assets; k++)
			remove_ours(bk, e->assets[k].path, e->assets[k].sha);
		if (!bk->a->dry_run && safe_rel(e->path)) {
			struct txc_buf dir = TXC_BUF_INIT;
			txc_buf_addf(&dir, "%s/%s.assets", bk->a->out_dir, e->path);
			rmdir(dir.buf); /* only when empty */
			txc_buf_release(&dir);
		}
		e->dropped = true;
	}
	free(cand);
}

/*
 * The images of a document: a missing one is (re)written, one with other bytes is replaced
 * only when it is as txc wrote it (its manifest hash) or with --force.  Returns SAME (done),
 * REFUSED or FAILED; *out the list for the manifest, *wrote whether a file was written.
 */
static enum outcome sync_assets(const struct bulk *bk, const struct entry *old, const struct cli_assets *as,
				const char *rel, struct asset_rec **out, size_t *n_out, bool *wrote, struct txc_diag *d)
{
	struct asset_rec *v = txc_xcalloc(as->n ? as->n : 1, sizeof(*v));
	bool *need = txc_xcalloc(as->n ? as->n : 1, sizeof(*need));
	struct txc_buf full = TXC_BUF_INIT;
	enum outcome oc = SAME;
	for (size_t i = 0; i < as->n; i++) {
		unsigned char h[32];
		char now[65];
		struct txc_buf r = TXC_BUF_INIT;
		txc_buf_addf(&r, "%s.assets/%s", rel, as->items[i].name);
		v[i].path = txc_buf_detach(&r, NULL);
		txc_sha256(as->items[i].bytes, as->items[i].len, h);
		txc_hex(v[i].sha, h, 32);
		txc_buf_reset(&full);
		txc_buf_addf(&full, "%s/%s", bk->a->out_dir, v[i].path);
		struct stat sb;
		if (lstat(full.buf, &sb) != 0) {
			need[i] = true; /* new, or deleted since: restored */
			continue;
		}
		bool have = S_ISREG(sb.st_mode) && file_sha(full.buf, now);
		if (have && strcmp(now, v[i].sha) == 0)
			continue;
		bool ours = false;
		for (size_t k = 0; have && old != NULL && k < old->n_assets; k++)
			ours |= strcmp(old->assets[k].path, v[i].path) == 0 && strcmp(old->assets[k].sha, now) == 0;
		if (!ours && !bk->a->force && oc == SAME) {
			txc_diag_set(d, TXC_E_FAIL,
				     "'%s' exists and is not as txc wrote it; pass --force to overwrite it", full.buf);
			oc = REFUSED;
		}
		need[i] = true;
	}
	if (oc == SAME && as->n > 0 && !bk->a->dry_run && cli_assets_dir_check(as->dir, d) != 0)
		oc = REFUSED; /* (an image folder that is a link: never written through) */
	for (size_t i = 0; i < as->n && oc == SAME && !bk->a->dry_run; i++) {
		if (!need[i])
			continue;
		txc_buf_reset(&full);
		txc_buf_addf(&full, "%s/%s", bk->a->out_dir, v[i].path);
		*strrchr(full.buf, '/') = '\0';
		int rc = cli_mkdirs(full.buf, d);
		full.buf[strlen(full.buf)] = '/';
		if (rc == 0)
			rc = cli_write_file(full.buf, as->items[i].bytes, as->items[i].len, true, d);
		if (rc != 0)
			oc = rc == TXC_E_REFUSED ? REFUSED : FAILED;
		*wrote = true;
	}
	txc_buf_release(&full);
	free(need);
	*out = v;
	*n_out = as->n;
	if (oc != SAME) {
		free_assets(v, as->n);
		*out = NULL;
		*n_out = 0;
	}
	return oc;
}

/* The session now has other images: the ones it no longer links go, if still as txc wrote them. */
static void drop_old_assets(const struct bulk *bk, const struct entry *old, const char *rel, const struct asset_rec *v,
			    size_t n)
{
	size_t gone = 0;
	for (size_t k = 0; old != NULL && k < old->n_assets; k++) {
		bool kept = false;
		for (size_t i = 0; i < n && !kept; i++)
			kept = strcmp(old->assets[k].path, v[i].path) == 0;
		if (!kept) {
			remove_ours(bk, old->assets[k].path, old->assets[k].sha);
			gone++;
		}
	}
	if (gone && n == 0) {
		struct txc_buf dir = TXC_BUF_INIT;
		txc_buf_addf(&dir, "%s/%s.assets", bk->a->out_dir, rel);
		rmdir(dir.buf); /* only when empty */
		txc_buf_release(&dir);
	}
}

/* A session rendered to its temporary file, not yet decided on (by the process that records). */
struct rendered {
	struct txc_buf path;   /* DIR/rel */
	struct cli_atomic tmp; /* tmp.f NULL in a dry run, and while a -j worker's file travels */
	struct cli_assets assets;
	char sha[65];
	size_t bytes;
	struct facts facts;
	size_t secrets;       /* a -j worker's: likely secrets in the session (no --redact) ... */
	struct txc_buf kinds; /* ... and their kinds, for the run's one warning */
};

static void rendered_release(struct rendered *r)
{
	if (r->tmp.f != NULL || r->tmp.tmp != NULL)
		cli_atomic_abort(&r->tmp);
	cli_assets_release(&r->assets);
	txc_buf_release(&r->path);
	txc_buf_release(&r->kinds);
	facts_free(&r->facts);
}

/* Render t into a temporary file beside DIR/rel while hashing it: NEW when done (r filled; the
 * caller releases it), else FAILED or REFUSED with d set. */
static enum outcome render_one(const struct bulk *bk, const struct cli_store_ref *ref, const struct txc_transcript *t,
			       const char *rel, struct rendered *r, struct txc_diag *d)
{
	const struct cli_args *a = bk->a;
	memset(r, 0, sizeof(*r));
	txc_buf_addf(&r->path, "%s/%s", a->out_dir, rel);
	cli_assets_init(&r->assets, r->path.buf);
	char *slash = strrchr(r->path.buf, '/');
	*slash = '\0';
	if (!a->dry_run && cli_mkdirs(r->path.buf, d) != 0)
		return d->code == TXC_E_REFUSED ? REFUSED : FAILED;
	*slash = '/';
	struct txc_write_opts w = a->w;
	w.scope = cli_profile_scope(ref->profile);
	w.assets = &r->assets.sink;
	struct hashing_file hf = {0};
	txc_sha256_init(&hf.sha);
	if (a->dry_run ? cli_guard_check(r->path.buf, d) != 0 : cli_atomic_open(&r->tmp, r->path.buf, true, d) != 0) {
		if (a->dry_run)
			printf("%-6s %s\n", "refuse", rel);
		return d->code == TXC_E_REFUSED ? REFUSED : FAILED;
	}
	hf.f = r->tmp.f;
	struct txc_out out;
	txc_buf_init(&out.buf);
	out.sink = hashing_sink;
	out.ctx = &hf;
	out.err = 0;
	int rc = bk->ops->write(&out, t, &w, d);
	if (rc == 0 && txc_out_flush(&out) != 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", r->path.buf, strerror(out.err));
		rc = TXC_E_FAIL;
	}
	txc_out_release(&out);
	if (rc != 0)
		return FAILED;
	unsigned char h[32];
	txc_sha256_final(&hf.sha, h);
	txc_hex(r->sha, h, 32);
	r->bytes = hf.bytes;
	facts_of(&r->facts, bk, t);
	return NEW;
}

/* Decide on a rendered file: the same bytes as on disk (unchanged), none (new), ours as we left
 * it (updated) or someone else's (refused); then its images, the rename and the manifest line. */
static enum outcome finish_one(struct bulk *bk, const struct cli_store_ref *ref, const char *rel, struct rendered *r,
			       struct txc_diag *d)
{
	const struct cli_args *a = bk->a;
	enum outcome oc;
	char old[65];
	struct stat sb;
	const struct entry *e = manifest_find(&bk->m, rel);
	if (lstat(r->path.buf, &sb) != 0) {
		oc = NEW;
	} else {
		bool have_old = file_sha(r->path.buf, old);
		if (have_old && strcmp(old, r->sha) == 0)
			oc = SAME;
		else if (a->force || (e != NULL && have_old && strcmp(old, e->sha) == 0))
			oc = UPDATED; /* ours, as we left it: the session changed */
		else {
			txc_diag_set(d, TXC_E_FAIL,
				     "'%s' exists and is not as txc wrote it; pass --force to overwrite it",
				     r->path.buf);
			oc = REFUSED;
		}
	}
	if (a->dry_run) {
		static const char *const verb[] = {"new", "update", "same", "refuse"};
		struct txc_buf line = TXC_BUF_INIT;
		cli_safe_text(&line, r->path.buf, r->path.len, true);
		printf("%-6s %s\n", verb[oc], line.buf);
		txc_buf_release(&line);
		if (oc != REFUSED)
			record(bk, rel, ref, &r->facts, r->sha, r->bytes, NULL, 0);
		return oc;
	}
	if (oc == REFUSED)
		return oc;
	struct asset_rec *av = NULL;
	size_t an = 0;
	bool wrote = false;
	enum outcome ao =
		sync_assets(bk, e, &r->assets, rel, &av, &an, &wrote, d); /* first: the document links to them */
	if (ao != SAME)
		return ao;
	if (oc != SAME) {
		test_kill("tmp");
		r->tmp.force = oc != NEW; /* a new file is linked: one that appeared meanwhile is not replaced */
		if (oc == UPDATED)
			r->tmp.unchanged = &sb; /* nor one edited since it was hashed */
		if (cli_atomic_commit(&r->tmp, d) != 0) {
			free_assets(av, an);
			return d->code == TXC_E_REFUSED ? REFUSED : FAILED;
		}
		test_kill("file");
	} else if (wrote) {
		oc = UPDATED; /* the document was there; images were restored */
	}
	drop_old_assets(bk, e, rel, av, an);
	record(bk, rel, ref, &r->facts, r->sha, r->bytes, av, an);
	return oc;
}

static enum outcome write_one(struct bulk *bk, const struct cli_store_ref *ref, const struct txc_transcript *t,
			      const char *rel, struct txc_diag *d)
{
	struct rendered r;
	enum outcome oc = render_one(bk, ref, t, rel, &r, d);
	if (oc == NEW)
		oc = finish_one(bk, ref, rel, &r, d);
	rendered_release(&r);
	return oc;
}

/* What a run that writes files puts in DIR before its first temporary file and removes when it
 * ends: found there, a run was stopped, and its leftovers may lie in any folder of DIR. */
static const char running_name[] = ".txc-running";

/* Temporary files a stopped run left: ".txc-tmp-" and mkstemp's 6 characters, a name only txc
 * makes, in DIR, and with depth 2 its profile folders and asset folders (the caller holds DIR's
 * lock).  False when a folder could not be listed. */
static bool clean_temps(const char *dir, int depth)
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
			all &= clean_temps(p.buf, depth - 1);
		else if (S_ISREG(sb.st_mode) && tmp_name && cli_guard_check(p.buf, &d) == 0)
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
static void progress(size_t done, size_t total, double t0, bool tty)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double el = (double)ts.tv_sec + ts.tv_nsec / 1e9 - t0;
	double rate = el > 0 ? done / el : 0;
	if (tty) {
		int width = 30, fill = (int)(width * done / total);
		fprintf(stderr, "\r[%.*s%*s] %zu/%zu sessions  %.1f/s", fill, "##############################",
			width - fill, "", done, total, rate);
		if (done == total)
			fputc('\n', stderr);
	} else if (done == total || done * 10 / total != (done - 1) * 10 / total) {
		fprintf(stderr, "txc: %zu/%zu sessions (%.1f/s)\n", done, total, rate);
	}
	fflush(stderr);
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static enum outcome install_outcome(int res)
{
	static const enum outcome map[] = {
		[CLI_INST_NEW] = NEW,       [CLI_INST_UPDATED] = UPDATED, [CLI_INST_SAME] = SAME,
		[CLI_INST_EMPTY] = SKIPPED, [CLI_INST_REFUSED] = REFUSED, [CLI_INST_FAILED] = FAILED};
	return map[res];
}

/* The manifest read; one with a line that is not txc's is someone's file: refused like any
 * other (nothing written), or with --force not used at all (no entry it holds decides what txc
 * replaces or removes, nothing is appended to it) and replaced at the end. */
static int foreign_manifest(struct bulk *bk, const char *file, struct txc_diag *d)
{
	size_t line = manifest_read(&bk->m, file, bk->running);
	if (line == 0)
		return 0;
	if (line == SIZE_MAX) {
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s': %s", file, strerror(errno));
		return d->code;
	}
	if (!bk->a->force) {
		txc_diag_set(d, TXC_E_FAIL,
			     "'%s' is not txc's manifest (line %zu is not an entry txc writes); pass --force to "
			     "overwrite it",
			     file, line);
		return d->code;
	}
	cli_warn("'%s' is not txc's manifest (line %zu); it will be replaced (--force)", file, line);
	const char *f = bk->m.file;
	manifest_free(&bk->m);
	bk->m = (struct manifest){.file = f, .journal = -1};
	return 0;
}

/* DIR made, its lock taken, leftovers of a stopped run removed, the manifest read. */
static int open_dir(struct bulk *bk, char **manifest, int *lock, struct txc_diag *d)
{
	const struct cli_args *a = bk->a;
	struct txc_buf mp = TXC_BUF_INIT;
	txc_buf_addf(&mp, "%s/manifest.jsonl", a->out_dir);
	*manifest = txc_buf_detach(&mp, NULL);
	if (!a->dry_run && cli_mkdirs(a->out_dir, d) != 0)
		return d->code;
	if (cli_guard_check(*manifest, d) != 0)
		return d->code;
	if (!a->dry_run) {
		if ((*lock = lock_dir(a->out_dir, d)) < 0)
			return d->code;
		bk->dir_fd = *lock;
		struct stat sb; /* (a look, not a listing of DIR's 1,300 names: a twentieth of a re-run) */
		bk->running = fstatat(bk->dir_fd, running_name, &sb, AT_SYMLINK_NOFOLLOW) == 0;
		bk->m.file = *manifest;
	} else {
		bk->dir_fd = open(a->out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* -1: files looked at by path */
	}
	if (foreign_manifest(bk, *manifest, d) != 0)
		return d->code;
	/* a stopped run's leftovers, in DIR and its profile and image folders: DIR marked (a run makes
	 * the mark before its first temporary file); no manifest: a first run (an empty DIR) or one
	 * whose manifest was removed, with no other way to tell; a manifest not as a run ends it: a
	 * run stopped after it recorded a file (txc before the mark made none) */
	bk->swept = true;
	if (!a->dry_run && (bk->running || bk->m.n == 0 || !bk->m.whole))
		bk->swept = clean_temps(a->out_dir, 2);
	return 0;
}

/* DIR marked (running_name) before this run writes its first temporary file: a kill -9 from here
 * on is found by the next run.  Not synced: a kill leaves the page cache, and a crash at worst
 * leaves a leftover. */
static void mark_running(struct bulk *bk)
{
	if (bk->running || bk->a->dry_run || bk->dir_fd < 0)
		return;
	struct txc_buf p = TXC_BUF_INIT;
	struct txc_diag d = {0};
	txc_buf_addf(&p, "%s/%s", bk->a->out_dir, running_name);
	int fd = cli_guard_check(p.buf, &d) != 0
			 ? -1
			 : openat(bk->dir_fd, running_name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd >= 0)
		close(fd);
	txc_buf_release(&p);
	/* (not made, in a DIR txc cannot write: its files and manifest fail the same way; a kill of
	 * this run then leaves its leftovers in subfolders until a run finds a manifest not whole) */
	bk->running = true;
}

/* The run is over (its workers gone, the lock still held): after a failure (a worker that died
 * leaves its temporary file) or a sweep that could not list a folder, DIR is swept now; the mark
 * goes once nothing can be left. */
static void unmark_running(struct bulk *bk)
{
	struct stat sb;
	if (!bk->running)
		return;
	if (bk->count[FAILED] > 0 || !bk->swept)
		bk->swept = clean_temps(bk->a->out_dir, 2);
	/* the mark txc makes is empty; a file with bytes, or a store read under that name, is not ours */
	struct txc_buf p = TXC_BUF_INIT;
	struct txc_diag d = {0};
	txc_buf_addf(&p, "%s/%s", bk->a->out_dir, running_name);
	if (bk->swept && fstatat(bk->dir_fd, running_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_size == 0 && cli_guard_check(p.buf, &d) == 0)
		unlinkat(bk->dir_fd, running_name, 0);
	txc_buf_release(&p);
}

/* " (K not re-rendered)" after the unchanged count: how many were known from their source alone */
static const char *skipped_note(size_t k)
{
	static char note[64];
	note[0] = '\0';
	if (k)
		snprintf(note, sizeof(note), " (%zu not re-rendered)", k);
	return note;
}

/* ---- the index page of a writer that has one (index.html) ---- */

static const char index_rel[] = "index.html";

static struct txc_str jstr(const struct txc_json *o, const char *key)
{
	const struct txc_json *v = txc_json_get(o, key);
	return v != NULL && v->kind == TXC_JSON_STRING ? v->s : TXC_STR_NULL;
}

static int str_cmp(struct txc_str a, struct txc_str b)
{
	int c = memcmp(a.ptr ? a.ptr : "", b.ptr ? b.ptr : "", a.len < b.len ? a.len : b.len);
	return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* newest first, then by path: the same bytes for the same manifest */
static int cmp_page(const void *x, const void *y)
{
	const struct txc_index_entry *a = x, *b = y;
	int c = str_cmp(b->started, a->started);
	return c ? c : str_cmp(a->path, b->path);
}

/* The pages of this format the manifest lists (this run's and earlier ones'), as entries in a. */
static struct txc_index_entry *index_pages(const struct bulk *bk, struct txc_arena *a, size_t *n)
{
	struct txc_index_entry *v = txc_xcalloc(bk->m.n + 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < bk->m.n; i++) {
		const struct entry *e = &bk->m.v[i];
		const struct txc_json *o;
		if (e->dropped || e->line == NULL || !opt_eq(e->format, bk->ops->name) ||
		    txc_json_parse(a, e->line, strlen(e->line), &o) != 0)
			continue;
		struct txc_index_entry *p = &v[(*n)++];
		p->path = txc_str_c(e->path);
		p->id = jstr(o, "session_id");
		p->title = jstr(o, "title");
		p->source = jstr(o, "source");
		p->model = jstr(o, "model");
		p->started = jstr(o, "started");
		const struct txc_json *c = txc_json_get(o, "cost_usd"), *m = txc_json_get(o, "messages");
		if (c != NULL && (c->kind == TXC_JSON_INT || c->kind == TXC_JSON_REAL))
			p->cost = c->s;
		if (m != NULL)
			txc_json_is_int(m, &p->messages);
	}
	qsort(v, *n, sizeof(*v), cmp_page);
	return v;
}

/* DIR/index.html rewritten from the manifest, as any file of ours: replaced only when it is as
 * txc wrote it (or --force), and recorded so that the next run knows it. */
static int write_index(struct bulk *bk, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	size_t n;
	struct txc_index_entry *v = index_pages(bk, a, &n);
	struct txc_buf page = TXC_BUF_INIT, path = TXC_BUF_INIT;
	bk->ops->index(&page, v, n);
	unsigned char h[32];
	char sha[65], now[65];
	txc_sha256(page.buf, page.len, h);
	txc_hex(sha, h, 32);
	txc_buf_addf(&path, "%s/%s", bk->a->out_dir, index_rel);
	const struct entry *old = manifest_find(&bk->m, index_rel);
	struct stat sb;
	int rc = 0;
	bool exists = lstat(path.buf, &sb) == 0, have = exists && S_ISREG(sb.st_mode) && file_sha(path.buf, now);
	if (old != NULL && old->session != NULL) {
		txc_diag_set(d, TXC_E_FAIL, "no '%s' written: a session's file has that name", path.buf);
		rc = TXC_E_FAIL;
	} else if (have && strcmp(now, sha) == 0) {
		/* unchanged */
	} else if (exists && !bk->a->force && !(have && old != NULL && strcmp(old->sha, now) == 0)) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' exists and is not as txc wrote it; pass --force to overwrite it",
			     path.buf);
		rc = TXC_E_FAIL;
	} else {
		mark_running(bk); /* (a run that rendered nothing made no mark yet) */
		rc = cli_write_file(path.buf, page.buf, page.len, exists, d);
	}
	if (rc == 0) {
		struct entry *e = manifest_put(&bk->m, index_rel);
		struct txc_buf line = TXC_BUF_INIT;
		txc_buf_addf(&line, "{\"path\":\"%s\",\"format\":\"index\",\"bytes\":%zu,\"sha256\":\"%s\"}", index_rel,
			     page.len, sha);
		entry_clear(e);
		e->line = mstr(&bk->m, line.buf, line.len);
		txc_buf_release(&line);
		e->format = mstr_c(&bk->m, "index");
		memcpy(e->sha, sha, 65);
	}
	txc_buf_release(&page);
	txc_buf_release(&path);
	free(v);
	txc_arena_free(a);
	return rc;
}

/* A session whose rows, writer and options are as when txc wrote its file, which lies as txc left
 * it (and its images too): nothing to render, the entry stays.  Anything else is rendered and
 * checked as always (a file someone changed is refused, one removed is restored). */
static bool up_to_date(struct bulk *bk, const struct cli_session *s, const struct cli_store_ref *ref, const char *rel)
{
	struct txc_str fp = s->info->fingerprint, id = s->id.text;
	struct entry *e = manifest_find(&bk->m, rel);
	char now[33];
	if (fp.len == 0 || e == NULL || e->source_fp == NULL || e->render == NULL || e->fstat == NULL ||
	    e->session == NULL || e->session_len != id.len || memcmp(e->session, id.ptr ? id.ptr : "", id.len) != 0 ||
	    !opt_eq(e->profile, ref->profile) || !opt_eq(e->format, bk->ops->name) || strlen(e->source_fp) != fp.len ||
	    memcmp(e->source_fp, fp.ptr, fp.len) != 0 || strcmp(e->render, bk->cur_render) != 0)
		return false;
	if (!file_stat_sig(bk, rel, e->assets, e->n_assets, now) || strcmp(now, e->fstat) != 0)
		return false;
	e->touched = true;
	return true;
}

/* --dry-run's line for a session known unchanged without rendering it */
static void say_same(const struct bulk *bk, const char *rel)
{
	struct txc_buf full = TXC_BUF_INIT, line = TXC_BUF_INIT;
	txc_buf_addf(&full, "%s/%s", bk->a->out_dir, rel);
	cli_safe_text(&line, full.buf, full.len, true);
	printf("%-6s %s\n", "same", line.buf);
	txc_buf_release(&line);
	txc_buf_release(&full);
}

/* ---- -j N: worker processes render, the parent decides and records, in session order ---- */

/* What the run does with each session, decided before any is written (the same whatever N). */
struct plan {
	struct txc_buf rel; /* empty for --install alone */
	char render[33];
	bool skip; /* up_to_date() */
};

/* Shared by the workers and the parent (an anonymous shared mapping): a worker takes the next
 * session to render when it is free (one long session does not hold up a fixed share behind
 * it), and says which it took. */
struct pool_shared {
	atomic_size_t claimed; /* todo[0 .. claimed) are taken */
	atomic_uint owner[];   /* todo[j]'s worker + 1; 0 while no worker took it */
};

struct pool {
	size_t n; /* workers; 0: render here */
	pid_t *pid;
	FILE **in;    /* what each sends, in the order of the sessions it took */
	size_t *todo; /* the sessions to render, in order */
	size_t n_todo, next;
	struct pool_shared *sh;
	size_t sh_size;
	bool killed; /* workers were started and killed (not all could be): they may have left files */
};

static void put_u64(struct txc_buf *b, uint64_t x)
{
	txc_buf_add(b, (const char *)&x, sizeof(x));
}

static void put_bytes(struct txc_buf *b, const char *p, size_t n)
{
	put_u64(b, n);
	if (n)
		txc_buf_add(b, p, n);
}

static bool get_u64(FILE *f, uint64_t *x)
{
	return fread(x, sizeof(*x), 1, f) == 1;
}

/* n bytes and a NUL, malloc'd; NULL at the end of the stream */
static char *get_bytes(FILE *f, size_t *n)
{
	uint64_t len;
	if (!get_u64(f, &len) || len > ((uint64_t)1 << 40))
		return NULL;
	char *p = txc_xmalloc((size_t)len + 1);
	if (len && fread(p, 1, (size_t)len, f) != len) {
		free(p);
		return NULL;
	}
	p[len] = '\0';
	*n = (size_t)len;
	return p;
}

/* One session rendered by a worker: its temporary file synced and closed (it stays), the rest sent. */
static void send_rendered(struct txc_buf *b, int lr, enum outcome oc, const struct txc_diag *d, struct rendered *r)
{
	put_u64(b, (uint64_t)(int64_t)lr);
	put_u64(b, oc);
	put_u64(b, (uint64_t)(int64_t)d->code);
	put_bytes(b, d->msg, strlen(d->msg));
	if (oc != NEW)
		return;
	bool ok = fflush(r->tmp.f) == 0 && fsync(fileno(r->tmp.f)) == 0; /* in parallel: fsync is most of a write */
	fclose(r->tmp.f);
	r->tmp.f = NULL;
	put_u64(b, ok);
	put_bytes(b, r->tmp.tmp, strlen(r->tmp.tmp));
	put_bytes(b, r->sha, 64);
	put_u64(b, r->bytes);
	put_bytes(b, r->facts.id, r->facts.id_len);
	put_u64(b, r->facts.messages);
	put_u64(b, (uint64_t)r->facts.kind);
	put_bytes(b, r->facts.page, strlen(r->facts.page));
	put_u64(b, r->assets.n);
	for (size_t i = 0; i < r->assets.n; i++) {
		put_bytes(b, r->assets.items[i].name, strlen(r->assets.items[i].name));
		put_bytes(b, r->assets.items[i].bytes, r->assets.items[i].len);
	}
	put_u64(b, r->secrets);
	put_bytes(b, r->kinds.buf ? r->kinds.buf : "", r->kinds.len);
	free(r->tmp.tmp); /* the parent renames it, or removes it */
	free(r->tmp.path);
	r->tmp.tmp = r->tmp.path = NULL;
}

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

/* A worker ends with _exit (the parent's stdio and atexit work is not its own); in a coverage
 * build it first writes its gcov counters, which only exit() would, so that its code is counted. */
/* One session as the pipeline assembles it: --lineage, --children and --redact as convert has them. */
static int export_assemble(const struct cli_args *a, struct txc_store *s, const struct txc_sid *id, unsigned lf,
			   struct txc_transcript **t, struct txc_diag *d)
{
	struct txc_convert_req req;
	cli_convert_req(a, lf, id, &req);
	req.asked = NULL;    /* (a->pos are the selection's words, not this session) */
	req.on_chain = NULL; /* said once per file before the run (cli_lineage_fold) */
	return txc_assemble(s, &req, t, d);
}

static _Noreturn void worker_exit(void)
{
#ifdef TXC_COVERAGE
	extern void __gcov_dump(void);
	__gcov_dump();
#endif
	_exit(0);
}

/* A worker (the k-th): its own read-only connections, the next session no worker took, until
 * none is left; never returns. */
static void worker(const struct bulk *bk, const struct cli_session *v, const struct plan *plan, const struct pool *pl,
		   size_t k, int fd, size_t n_stores)
{
	struct cli_stores st;
	struct txc_diag d0 = {0};
	int orc = cli_stores_open(bk->a, &st, &d0);
	if (orc == 0 && st.n != n_stores) {
		txc_diag_set(&d0, TXC_E_FAIL, "the profiles changed while txc ran");
		orc = TXC_E_FAIL;
	}
	unsigned lf = cli_load_flags(bk->a, bk->ops);
	for (size_t j; (j = atomic_fetch_add(&pl->sh->claimed, 1)) < pl->n_todo;) {
		atomic_store(&pl->sh->owner[j], (unsigned)k + 1);
		size_t i = pl->todo[j];
		struct txc_diag d1 = {0};
		struct txc_transcript *t = NULL;
		struct rendered r;
		memset(&r, 0, sizeof(r));
		int lr = orc;
		if (orc)
			d1 = d0;
		else
			lr = export_assemble(bk->a, st.v[v[i].store].s, &v[i].id, lf, &t, &d1);
		enum outcome oc = FAILED;
		if (lr == 0) {
			oc = render_one(bk, &st.v[v[i].store], t, plan[i].rel.buf, &r, &d1);
			if (oc == NEW && !bk->a->dry_run) { /* the parent words one warning for the run */
				struct cli_secrets sc = {0};
				cli_secrets_note(&sc, bk->a, bk->ops, t, true);
				r.secrets = cli_secrets_take(&sc, &r.kinds);
			}
			txc_transcript_free(t);
		}
		struct txc_buf b = TXC_BUF_INIT;
		send_rendered(&b, lr, oc, &d1, &r);
		bool ok = write_all(fd, b.buf, b.len);
		txc_buf_release(&b);
		rendered_release(&r);
		if (!ok)
			break; /* the parent is gone */
	}
	if (orc == 0)
		cli_stores_close(&st);
	worker_exit();
}

/* Which worker took todo[j]: waited for while every worker is busy with an earlier one; pl->n when
 * none did and none is left to (every worker ended). */
static size_t pool_owner(struct pool *pl, size_t j)
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
		struct timespec nap = {0, 200 * 1000}; /* a session's rendering takes longer */
		nanosleep(&nap, NULL);
	}
}

/* The next session's rendering from its worker, as render_one() would have left it (r->path set
 * by the caller, r->assets initialised). */
static enum outcome receive(struct pool *pl, struct rendered *r, int *lr, struct txc_diag *d)
{
	size_t w = pool_owner(pl, pl->next++);
	FILE *f = w < pl->n ? pl->in[w] : NULL;
	uint64_t lr64, oc64, code, ok, bytes, messages, kind, n_assets;
	size_t len;
	char *msg;
	if (f == NULL || !get_u64(f, &lr64) || !get_u64(f, &oc64) || !get_u64(f, &code) ||
	    (msg = get_bytes(f, &len)) == NULL) {
		txc_diag_set(d, TXC_E_FAIL, "a worker process stopped; the session was not exported");
		return FAILED;
	}
	*lr = (int)(int64_t)lr64;
	if (msg[0])
		txc_diag_set(d, (int)(int64_t)code, "%s", msg);
	free(msg);
	if (oc64 != NEW)
		return oc64 == REFUSED ? REFUSED : FAILED;
	char *sha = NULL;
	bool whole = get_u64(f, &ok) && (r->tmp.tmp = get_bytes(f, &len)) != NULL &&
		     (sha = get_bytes(f, &len)) != NULL && len == 64 && get_u64(f, &bytes) &&
		     (r->facts.id = get_bytes(f, &r->facts.id_len)) != NULL && get_u64(f, &messages) &&
		     get_u64(f, &kind) && (r->facts.page = get_bytes(f, &len)) != NULL && get_u64(f, &n_assets);
	if (whole) {
		memcpy(r->sha, sha, 65);
		r->bytes = (size_t)bytes;
		r->facts.messages = (size_t)messages;
		r->facts.kind = (int)kind;
	}
	free(sha);
	for (uint64_t i = 0; whole && i < n_assets; i++) {
		size_t bn = 0;
		char *name = get_bytes(f, &len), *data = name ? get_bytes(f, &bn) : NULL;
		if (data != NULL)
			r->assets.sink.put(r->assets.sink.ctx, name, data, bn);
		whole = data != NULL;
		free(name);
		free(data);
	}
	uint64_t secrets = 0;
	char *kinds = NULL;
	whole = whole && get_u64(f, &secrets) && (kinds = get_bytes(f, &len)) != NULL;
	if (whole) {
		r->secrets = (size_t)secrets;
		txc_buf_add(&r->kinds, kinds, len);
	}
	free(kinds);
	if (whole && ok)
		r->tmp.f = fopen(r->tmp.tmp, "ab"); /* cli_atomic_commit() renames it */
	/* the worker's fsync made its bytes durable: a second one here was a device flush per file,
	 * one after the other in this process that every worker waits on */
	r->tmp.synced = true;
	if (r->tmp.f == NULL) {
		int err = errno;
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", r->path.buf,
			     !whole ? "a worker process stopped" : strerror(ok ? err : EIO));
		return FAILED; /* rendered_release() removes the temporary file */
	}
	r->tmp.path = txc_xstrdup(r->path.buf);
	return NEW;
}

static void pool_stop(struct pool *pl)
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
	free(pl->todo);
	if (pl->sh != NULL)
		munmap(pl->sh, pl->sh_size);
	memset(pl, 0, sizeof(*pl));
}

/* Workers for the sessions to render, when there are several and -j allows more than one. */
static void pool_start(struct pool *pl, const struct bulk *bk, const struct cli_session *v, const struct plan *plan,
		       size_t n, size_t n_stores, int lock)
{
	const struct cli_args *a = bk->a;
	memset(pl, 0, sizeof(*pl));
	long jobs = a->jobs ? a->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	pl->todo = txc_xmalloc((n ? n : 1) * sizeof(*pl->todo));
	for (size_t i = 0; i < n; i++)
		if (!plan[i].skip)
			pl->todo[pl->n_todo++] = i;
	/* one process's work: --dry-run prints, --install and --input/--remote stores are read once */
	if (jobs < 2 || pl->n_todo < 2 || a->dry_run || a->install || a->store.input || a->store.remote)
		return; /* (without --install there is a DIR: cmd_export() asks for one) */
	size_t want = (size_t)jobs < pl->n_todo ? (size_t)jobs : pl->n_todo;
	pl->sh_size = sizeof(*pl->sh) + pl->n_todo * sizeof(pl->sh->owner[0]);
	pl->sh = mmap(NULL, pl->sh_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pl->sh == MAP_FAILED) { /* (zeroed when made: nothing taken) */
		pl->sh = NULL;
		return; /* all is done here */
	}
	pl->pid = txc_xcalloc(want, sizeof(*pl->pid));
	pl->in = txc_xcalloc(want, sizeof(*pl->in));
	pl->n = want;
	fflush(NULL); /* nothing buffered is written twice */
	for (size_t k = 0; k < want; k++) {
		int fds[2];
		if (pipe(fds) != 0) {
			pl->pid[k] = -1;
			break;
		}
#if defined(__linux__) && !defined(F_SETPIPE_SZ)
#define F_SETPIPE_SZ 1031 /* Linux's; <fcntl.h> names it only with _GNU_SOURCE */
#endif
#ifdef F_SETPIPE_SZ
		/* room for a few hundred sessions' facts: a worker that is ahead goes on rendering while
		 * the parent waits for a long session from another (the system may allow less: then less) */
		fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
#endif
		pl->pid[k] = fork();
		if (pl->pid[k] == 0) {
			close(fds[0]);
			if (lock >= 0)
				close(lock); /* DIR's lock is the parent's: it ends with it */
			for (size_t j = 0; j < k; j++)
				fclose(pl->in[j]);
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC); /* the parent says it all, once */
			if (null >= 0) {
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
				close(null);
			}
#ifdef __linux__
			prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed parent leaves no worker writing */
			if (getppid() == 1)
				worker_exit();
#endif
			worker(bk, v, plan, pl, k, fds[1], n_stores);
		}
		close(fds[1]);
		if (pl->pid[k] < 0) {
			close(fds[0]);
			break;
		}
		pl->in[k] = fdopen(fds[0], "rb");
	}
	for (size_t k = 0; k < want; k++)
		if (pl->pid[k] <= 0 || pl->in[k] == NULL) { /* not all started: none is used, all is done here */
			for (size_t j = 0; j < want; j++)
				if (pl->pid[j] > 0)
					kill(pl->pid[j], SIGKILL);
			pool_stop(pl);
			pl->todo = txc_xmalloc(sizeof(*pl->todo));
			pl->killed = true;
			return;
		}
}

/* v and plan put in Hermes's export order, which the listing left for later (select.c): *own
 * holds the reordered sessions. */
static int export_order(struct cli_stores *st, const struct cli_session **v, struct plan *plan, size_t n,
			struct cli_session **own, struct txc_diag *d)
{
	size_t *perm = txc_xmalloc((n ? n : 1) * sizeof(*perm));
	int rc = cli_select_export_order(st, *v, n, perm, d);
	if (rc == 0) {
		struct cli_session *w = txc_xmalloc((n ? n : 1) * sizeof(*w));
		struct plan *p = txc_xmalloc((n ? n : 1) * sizeof(*p));
		for (size_t k = 0; k < n; k++) {
			w[k] = (*v)[perm[k]];
			p[k] = plan[perm[k]];
		}
		memcpy(plan, p, n * sizeof(*p));
		free(p);
		*v = *own = w;
	}
	free(perm);
	return rc;
}

static int export_files(const struct cli_args *a, struct cli_stores *st, const struct cli_session *v, size_t n,
			struct txc_diag *d)
{
	struct bulk bk = {.a = a, .ops = txc_writer_lookup(a->to), .m = {.journal = -2}, .dir_fd = -1};
	char *manifest = NULL;
	int lock = -1;
	if (a->out_dir != NULL && open_dir(&bk, &manifest, &lock, d) != 0) {
		free(manifest);
		manifest_free(&bk.m);
		if (bk.dir_fd >= 0)
			close(bk.dir_fd); /* (the lock, or a dry run's) */
		return d->code;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	txc_time_iso_ms(bk.stamp, (double)now.tv_sec + now.tv_nsec / 1e9);
	bool tty = isatty(STDERR_FILENO), show = tty || a->progress;
	double t0 = mono_now();
	int rc = 0;
	bool hard = false;      /* a refusal of exit status 4: a source, or a session continued in Claude Code */
	bool index_bad = false; /* only the index page failed */
	bk.tz = local_tz();
	bool files = !(a->install && a->out_dir == NULL);
	struct plan *plan = txc_xcalloc(n ? n : 1, sizeof(*plan));
	struct txc_redactor *names = a->redact ? txc_redactor_new(false) : NULL;
	struct txc_arena *names_ar = a->redact ? txc_arena_new(0) : NULL;
	for (size_t i = 0; i < n && files; i++) { /* cheap: names, keys, a stat per file */
		const struct cli_store_ref *ref = &st->v[v[i].store];
		if (a->all_profiles || (ref->profile != NULL && strcmp(ref->profile, "default") != 0))
			txc_buf_addf(&plan[i].rel, "%s/", ref->profile);
		/* --redact: the name from the redacted title (a key in a title is no file name) */
		file_name(&plan[i].rel, &v[i].id,
			  names ? txc_redact_str(names, names_ar, v[i].info->title) : v[i].info->title, bk.ops->ext);
		render_key(&bk, ref, plan[i].render);
		memcpy(bk.cur_render, plan[i].render, sizeof(bk.cur_render));
		/* --install too: Claude Code's copy is checked each time (it may have been continued);
		 * --force renders everything again (a message row edited in place is not in the fingerprint) */
		plan[i].skip = !a->install && !a->force && up_to_date(&bk, &v[i], ref, plan[i].rel.buf);
	}
	txc_redactor_free(names);
	txc_arena_free(names_ar);
	/* The order is seen in what the run says about the sessions it renders (and in every line of
	 * a dry run): with one to render or none, it does not matter, and is not looked up. */
	size_t renders = 0;
	for (size_t i = 0; i < n; i++)
		renders += !plan[i].skip;
	struct cli_session *ordered = NULL;
	if ((renders > 1 || a->dry_run) && cli_select_order_later(a, CMD_EXPORT, st) &&
	    export_order(st, &v, plan, n, &ordered, d) != 0) {
		for (size_t i = 0; i < n; i++)
			txc_buf_release(&plan[i].rel);
		free(plan);
		free(bk.tz);
		free(manifest);
		manifest_free(&bk.m);
		if (bk.dir_fd >= 0)
			close(bk.dir_fd); /* (the lock, or a dry run's) */
		return d->code;
	}
	if (renders > 0 && manifest != NULL)
		mark_running(&bk);
	struct pool pool;
	pool_start(&pool, &bk, v, plan, n, st->n, lock);
	if (pool.killed)
		bk.swept = false; /* (their temporary files are removed at the end) */
	for (size_t i = 0; i < n; i++) {
		const struct cli_store_ref *ref = &st->v[v[i].store];
		struct txc_transcript *t = NULL;
		struct txc_diag d1 = {0};
		unsigned lf = cli_load_flags(a, bk.ops);
		const char *rel = plan[i].rel.buf;
		bk.cur_fp = v[i].info->fingerprint;
		memcpy(bk.cur_render, plan[i].render, sizeof(bk.cur_render));
		bool skip = plan[i].skip, pooled = !skip && pool.n > 0;
		int lr = skip || pooled ? 0 : export_assemble(a, ref->s, &v[i].id, lf, &t, &d1);
		enum outcome oc; /* a session deleted while we ran is said and fails the run, like any other */
		int res = CLI_INST_NEW;
		if (skip) {
			oc = SAME;
			bk.skipped++;
			if (a->dry_run)
				say_same(&bk, rel);
			drop_stale(&bk, rel, v[i].id.text, ref->profile); /* a run stopped before it did */
		} else if (pooled) {
			struct rendered r;
			memset(&r, 0, sizeof(r));
			txc_buf_addf(&r.path, "%s/%s", a->out_dir, rel);
			cli_assets_init(&r.assets, r.path.buf);
			oc = receive(&pool, &r, &lr, &d1);
			if (oc == NEW)
				oc = finish_one(&bk, ref, rel, &r, &d1);
			if (oc != FAILED && oc != REFUSED)
				cli_secrets_add(&bk.secrets, r.secrets, r.kinds.buf);
			rendered_release(&r);
			if (oc != FAILED && oc != REFUSED)
				drop_stale(&bk, rel, v[i].id.text, ref->profile);
		} else if (lr != 0) {
			oc = FAILED;
		} else if (a->install && a->out_dir == NULL) {
			struct txc_write_opts w = a->w;
			w.scope = cli_profile_scope(ref->profile);
			if (a->dry_run) {
				struct txc_buf line = TXC_BUF_INIT; /* the id is the transcript's: never raw */
				cli_safe_text(&line, v[i].id.text.ptr, v[i].id.text.len, true);
				printf("install %s\n", line.buf);
				txc_buf_release(&line);
			} else {
				cli_install_claude(a, t, &w, true, &res, &d1); /* res says it all; d1 why */
			}
			oc = install_outcome(res);
			txc_transcript_free(t);
		} else {
			oc = write_one(&bk, ref, t, rel, &d1);
			if (oc != FAILED && oc != REFUSED && !a->dry_run)
				cli_secrets_note(&bk.secrets, a, bk.ops, t, true);
			if (oc != FAILED && oc != REFUSED)
				drop_stale(&bk, rel, v[i].id.text, ref->profile);
			if (oc != FAILED && oc != REFUSED && a->install && !a->dry_run) {
				struct txc_write_opts w = a->w;
				w.scope = cli_profile_scope(ref->profile);
				cli_install_claude(a, t, &w, true, &res, &d1);
				if (res == CLI_INST_REFUSED || res == CLI_INST_FAILED)
					oc = install_outcome(res);
			}
			txc_transcript_free(t);
		}
		bk.count[oc]++;
		if (oc == FAILED || oc == REFUSED) {
			if (show && tty)
				fputc('\n', stderr);
			if (d1.msg[0] && ((oc == REFUSED && d1.code != TXC_E_REFUSED) || lr == TXC_E_NOTFOUND))
				cli_warn("%s",
					 d1.msg); /* someone else's file (left alone), or a session deleted meanwhile */
			else if (d1.msg[0])
				cli_report(&d1);
			hard |= d1.code == TXC_E_REFUSED || res == CLI_INST_REFUSED;
			rc = TXC_E_FAIL;
		}
		if (show)
			progress(i + 1, n, t0, tty);
	}
	pool_stop(&pool);
	for (size_t i = 0; i < n; i++)
		txc_buf_release(&plan[i].rel);
	free(plan);
	free(ordered);
	if (manifest != NULL && !a->dry_run && bk.ops->index != NULL &&
	    bk.count[NEW] + bk.count[UPDATED] + bk.count[SAME] > 0) {
		struct txc_diag d3 = {0};
		if (write_index(&bk, &d3) != 0) {
			cli_warn("%s", d3.msg); /* as a session's file: said, left alone, the run fails */
			index_bad = rc == 0;
			rc = TXC_E_FAIL;
		}
	}
	if (manifest != NULL && !a->dry_run && (bk.count[NEW] + bk.count[UPDATED] + bk.count[SAME] > 0 || bk.m.n > 0)) {
		struct txc_diag d2 = {0};
		if (manifest_write(&bk, &bk.m, manifest, &d2) != 0) {
			cli_report(&d2);
			rc = TXC_E_FAIL;
			hard |= d2.code == TXC_E_REFUSED;
		}
	}
	unmark_running(&bk);
	if (show || bk.count[REFUSED] || bk.count[FAILED])
		fprintf(stderr, "txc: %s %zu sessions%s%s: %zu new, %zu updated, %zu unchanged%s%s (%.2f s)\n",
			a->dry_run ? "would export" : "exported", n, a->out_dir ? " to " : "",
			a->out_dir ? a->out_dir : "", bk.count[NEW], bk.count[UPDATED], bk.count[SAME],
			skipped_note(bk.skipped),
			bk.count[REFUSED] || bk.count[FAILED] ? ", some refused or failed (see above)" : "",
			mono_now() - t0);
	free(bk.tz);
	free(manifest);
	manifest_free(&bk.m);
	if (lock >= 0)
		close(lock);
	else if (bk.dir_fd >= 0)
		close(bk.dir_fd); /* a dry run's */
	cli_secrets_warn(&bk.secrets);
	if (rc)
		txc_diag_set(d, hard ? TXC_E_REFUSED : TXC_E_FAIL, "%s (see above)",
			     index_bad ? "the index page was not written" : "some sessions were not exported");
	return rc ? d->code : 0;
}

static int missing_out(void)
{
	struct txc_buf l = TXC_BUF_INIT;
	cli_format_list(&l, TXC_WCAP_INSTALL);
	int rc = cli_usage(CMD_EXPORT, "missing --out DIR (or --install with --to %s)", l.buf);
	txc_buf_release(&l);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(CMD_EXPORT, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos)
		return cli_usage(CMD_EXPORT, "unexpected argument '%s' (export selects with --since, --title, ...)",
				 a.pos[0]);
	if (a.json && (a.to || a.out_dir || a.install))
		return cli_usage(CMD_EXPORT,
				 "--json prints to stdout; it does not combine with --to, --out or --install");
	if (!a.json && a.to == NULL)
		return cli_usage(CMD_EXPORT, "missing --json or --to FORMAT --out DIR");
	const struct txc_writer_ops *ops = NULL;
	if (a.to != NULL && (rc = cli_writer_for(CMD_EXPORT, a.to, &ops)) != 0)
		return rc;
	if ((rc = cli_check_writer(CMD_EXPORT, &a, ops)) != 0)
		return rc;
	if (a.to != NULL && a.out_dir == NULL && !a.install)
		return missing_out();
	if (a.json && (a.lineage || a.children)) /* Hermes's export: one line per session, as it has them */
		return cli_usage(CMD_EXPORT, "--json writes each session as Hermes does: not with %s",
				 a.lineage ? "--lineage" : "--children");
	if (a.children && (ops->caps & TXC_WCAP_INSTALL) && a.out_dir != NULL) /* subagent files: not in the manifest */
		return cli_usage(CMD_EXPORT, "--children with --to %s writes subagent files: use --install, not --out",
				 ops->name);
	if (a.json && (a.dry_run || a.force))
		return cli_usage(CMD_EXPORT, "--dry-run and --force apply to --out DIR");

	cli_write_opts_finish(&a, ops == NULL || !(ops->caps & TXC_WCAP_ONE_FILE));
	struct txc_diag d = {0};
	struct cli_stores st;
	rc = cli_stores_open(&a, &st, &d);
	if (rc) {
		cli_stores_close(&st);
		return cli_fail(&d);
	}
	struct txc_arena *arena = txc_arena_new(0);
	struct cli_session *v = NULL;
	size_t n = 0, more = 0;
	const struct cli_select *sel = &a.sel;
	bool everything = !(sel->since_arg || sel->until_arg || sel->source || sel->model || sel->cwd || sel->title ||
			    sel->limit || sel->order_set);
	if (a.json && everything && st.n == 1 && !a.all_profiles)
		rc = export_all_json(&a, st.v[0].s, &d); /* the common case, in memory flat whatever the store's size */
	else if ((rc = cli_select_sessions(&a, CMD_EXPORT, &st, arena, &v, &n, &more, &d)) == 0 &&
		 (rc = cli_lineage_fold(&a, &st, v, &n, arena, &d)) == 0)
		rc = a.json ? export_json(&a, &st, v, n, a.all_profiles, &d) : export_files(&a, &st, v, n, &d);
	free(v);
	txc_arena_free(arena);
	size_t broken = st.n_broken;
	cli_stores_close(&st);
	return rc ? cli_fail(&d) : broken ? 1 : 0;
}
