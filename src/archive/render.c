/*
 * render.c - one session rendered into a temporary file beside its place in DIR while it is
 * hashed (the caller's render callback writes it; the file is opened at its first byte, so a
 * session that cannot be loaded makes no folder and no file), and the bytes a -j worker sends
 * the parent about it (the parent decides on it and records it, in session order).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive_int.h"

/* ---- a session's images, held until its document is decided on ---- */

static void assets_put(void *ctx, const char *name, const char *bytes, size_t n)
{
	struct assets *as = ctx;
	as->items = txc_xrealloc(as->items, (as->n + 1) * sizeof(*as->items));
	memset(&as->items[as->n], 0, sizeof(as->items[as->n]));
	as->items[as->n].name = txc_xstrdup(name);
	as->items[as->n].bytes = txc_xmalloc(n ? n : 1);
	if (n)
		memcpy(as->items[as->n].bytes, bytes, n);
	as->items[as->n].len = n;
	as->items[as->n].base[0] = '\0';
	as->n++;
}

/* output.assets, linked from the document by its last part */
void assets_init(struct assets *as, const char *output)
{
	memset(as, 0, sizeof(*as));
	as->dir = txc_xmalloc(strlen(output) + sizeof(".assets"));
	strcpy(as->dir, output);
	strcat(as->dir, ".assets");
	const char *base = strrchr(as->dir, '/');
	as->sink.put = assets_put;
	as->sink.ctx = as;
	as->sink.assets_link = txc_str_c(base ? base + 1 : as->dir);
}

void assets_release(const struct arun *r, struct assets *as)
{
	bool unused = false;
	for (size_t i = 0; i < as->n; i++) {
		if (as->items[i].tmp.f != NULL || as->items[i].tmp.tmp != NULL) {
			r->ops->io.tmp_abort(&as->items[i].tmp); /* written ahead, not used */
			unused = true;
		}
		free(as->items[i].name);
		free(as->items[i].bytes);
	}
	free(as->items);
	if (unused)
		rmdir(as->dir); /* the folder made for them, when nothing else is in it */
	free(as->dir);
}

/* ---- the rendering ---- */

struct hashing_file {
	const struct arun *r;
	struct rendered *rd;
	const char *rel;
	struct txc_sha256 sha, base; /* of the file's bytes; of the bytes as rendered (slots empty) */
	size_t bytes;
	const char *nav;         /* what goes in the slots as they are written (NULL: they stay empty) */
	size_t nav_len, matched; /* and how much of an empty slot the last bytes were */
	bool filled;
	struct txc_buf wb; /* emit()'s bytes not yet written: a page goes out in 64 KiB writes, not in 4 KiB ones */
	bool opened;
	int open_rc; /* the temporary file could not be made: open_d says why */
	struct txc_diag open_d;
};

/* The session's folder and its temporary file (a dry run: whether it may be written) */
static int open_tmp(struct hashing_file *h)
{
	const struct arun *r = h->r;
	struct rendered *rd = h->rd;
	h->opened = true;
	char *slash = strrchr(rd->path.buf, '/');
	*slash = '\0';
	int rc = r->o->dry_run ? 0 : r->ops->io.mkdirs(rd->path.buf, &h->open_d);
	*slash = '/';
	if (rc != 0)
		return h->open_rc = rc;
	rc = r->o->dry_run ? r->ops->io.guard(rd->path.buf, &h->open_d)
			   : r->ops->io.tmp_open(&rd->tmp, rd->path.buf, &h->open_d);
	if (rc != 0 && r->o->dry_run)
		r->ops->dry_line(r->ctx, "refuse", h->rel);
	return h->open_rc = rc;
}

static int emit_flush(struct hashing_file *h)
{
	size_t n = h->wb.len;
	h->wb.len = 0;
	return h->rd->tmp.f != NULL && n > 0 && fwrite(h->wb.buf, 1, n, h->rd->tmp.f) != n ? -1 : 0;
}

static int emit(struct hashing_file *h, const char *p, size_t n)
{
	txc_sha256_update(&h->sha, p, n);
	h->bytes += n;
	if (h->rd->tmp.f == NULL)
		return 0;
	txc_buf_add(&h->wb, p, n);
	return h->wb.len >= (1u << 16) ? emit_flush(h) : 0;
}

static const char slot[] = TXC_NAV_OPEN TXC_NAV_CLOSE; /* an empty slot, as the writer renders it */
#define SLOT_LEN (sizeof(slot) - 1)

/* KMP's table for slot: fail[k] is the longest proper prefix of slot[0..k] that is its suffix */
static void slot_fail(size_t fail[SLOT_LEN])
{
	fail[0] = 0;
	for (size_t k = 1, m = 0; k < SLOT_LEN; k++) {
		while (m > 0 && slot[k] != slot[m])
			m = fail[m - 1];
		m += slot[k] == slot[m];
		fail[k] = m;
	}
}

/* p with each empty slot filled with h->nav as it goes to the file (a slot may span two calls: its
 * first h->matched bytes are held back): the page is written once, with its links (nav_predict) */
static int fill_slots(struct hashing_file *h, const char *p, size_t n)
{
	static size_t fail[SLOT_LEN];
	if (fail[SLOT_LEN - 1] == 0)
		slot_fail(fail);
	for (size_t i = 0; i < n; i++) {
		if (h->matched == 0) { /* (most bytes: up to the next '<' at once) */
			const char *lt = memchr(p + i, '<', n - i);
			size_t j = lt ? (size_t)(lt - p) : n;
			if (emit(h, p + i, j - i) != 0)
				return -1;
			if ((i = j) == n)
				break;
		}
		size_t m = h->matched;
		while (m > 0 && p[i] != slot[m])
			m = fail[m - 1];
		m += p[i] == slot[m];
		/* the held bytes and this one, but for the last m (a slot's start still): no slot */
		size_t out = h->matched + 1 - m;
		if (emit(h, slot, out < h->matched ? out : h->matched) != 0 ||
		    (out > h->matched && emit(h, p + i, 1) != 0))
			return -1;
		h->matched = m;
		if (m == SLOT_LEN) {
			h->matched = 0;
			h->filled = true;
			if (emit(h, TXC_NAV_OPEN, strlen(TXC_NAV_OPEN)) != 0 || emit(h, h->nav, h->nav_len) != 0 ||
			    emit(h, TXC_NAV_CLOSE, strlen(TXC_NAV_CLOSE)) != 0)
				return -1;
		}
	}
	return 0;
}

static int hashing_sink(void *ctx, const char *p, size_t n)
{
	struct hashing_file *h = ctx;
	if (!h->opened)
		open_tmp(h);
	if (h->open_rc != 0) {
		errno = EACCES; /* (the caller reports open_d, not this) */
		return -1;
	}
	if (h->nav == NULL) /* the bytes go out as rendered: base is sha (one hash, a tenth of a first run) */
		return emit(h, p, n);
	txc_sha256_update(&h->base, p, n);
	return fill_slots(h, p, n);
}

struct job_priv {
	struct facts *facts;
	const struct txc_writer_ops *w;
	struct txc_str preview; /* the listing's */
};

void txc_archive_job_done(struct txc_archive_job *job, const struct txc_transcript *t)
{
	struct job_priv *p = job->facts;
	facts_free(p->facts);
	facts_of(p->facts, p->w, t, p->preview);
}

static enum txc_archive_outcome failed(int code)
{
	return code == TXC_E_REFUSED ? TXC_ARCHIVE_REFUSED : TXC_ARCHIVE_FAILED;
}

/* Item i rendered into a temporary file beside DIR/rel while hashing it: NEW when done (rd
 * filled; the caller releases it), else FAILED or REFUSED with d set and *rrc the render
 * callback's code (0 when it was not the one that failed). */
enum txc_archive_outcome render_one(const struct arun *r, size_t i, const char *rel, struct rendered *rd, int *rrc,
				    struct txc_diag *d)
{
	memset(rd, 0, sizeof(*rd));
	*rrc = 0;
	txc_buf_addf(&rd->path, "%s/%s", r->o->dir, rel);
	assets_init(&rd->assets, rd->path.buf);
	struct hashing_file hf = {.r = r, .rd = rd, .rel = rel, .nav = r->plan[i].nav, .nav_len = r->plan[i].nav_len};
	txc_sha256_init(&hf.sha);
	txc_sha256_init(&hf.base);
	struct txc_out out;
	txc_buf_init(&out.buf);
	out.sink = hashing_sink;
	out.ctx = &hf;
	out.err = 0;
	struct job_priv priv = {&rd->facts, r->o->writer, r->items[i].preview};
	struct txc_archive_job job = {i, &out, &rd->assets.sink, TXC_BUF_INIT, &priv};
	int rc = r->ops->render(r->ctx, &job, d);
	/* the end of a page: held bytes that were no slot, and the last bytes not written yet */
	if (rc == 0 && txc_out_flush(&out) == 0 && (emit(&hf, slot, hf.matched) != 0 || emit_flush(&hf) != 0))
		out.err = errno ? errno : EIO;
	txc_buf_release(&hf.wb);
	if (rc == 0 && (out.err != 0 || txc_out_flush(&out) != 0) && hf.open_rc == 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", rd->path.buf, strerror(out.err));
		rc = TXC_E_FAIL;
	} else if (rc == 0 && !hf.opened) {
		open_tmp(&hf); /* an empty file */
	}
	txc_out_release(&out);
	rd->note = job.note;
	if (hf.open_rc != 0) { /* what the writer said of it is not the reason */
		*d = hf.open_d;
		return failed(d->code);
	}
	if (rc != 0) {
		*rrc = rc;
		return TXC_ARCHIVE_FAILED;
	}
	unsigned char h[32];
	txc_sha256_final(&hf.sha, h);
	txc_hex(rd->sha, h, 32);
	if (hf.nav != NULL) {
		txc_sha256_final(&hf.base, h);
		txc_hex(rd->base, h, 32);
	} else {
		memcpy(rd->base, rd->sha, sizeof(rd->base));
	}
	if (hf.filled) /* (else rd->links stays "": the page's slots are empty, as rendered) */
		memcpy(rd->links, r->plan[i].links, sizeof(rd->links));
	rd->bytes = hf.bytes;
	if (rd->facts.page == NULL) { /* (a render callback that did not say) */
		rd->facts.id = txc_xstrdup("");
		rd->facts.page = txc_xstrdup("");
	}
	return TXC_ARCHIVE_NEW;
}

void rendered_release(const struct arun *r, struct rendered *rd)
{
	if (rd->tmp.f != NULL || rd->tmp.tmp != NULL)
		r->ops->io.tmp_abort(&rd->tmp);
	assets_release(r, &rd->assets);
	txc_buf_release(&rd->path);
	txc_buf_release(&rd->note);
	facts_free(&rd->facts);
}

/* ---- a worker's message about one session ---- */

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

/* One session rendered by a worker: its temporary file flushed and closed (it stays), the rest sent.
 * Not synced here: the parent makes a window of sessions durable with one syncfs before it renames
 * any of them into place (sync.c); an fsync per file was a third of a first export's CPU. */
void send_rendered(struct txc_buf *b, int rrc, enum txc_archive_outcome oc, const struct txc_diag *d,
		   struct rendered *rd)
{
	put_u64(b, (uint64_t)(int64_t)rrc);
	put_u64(b, oc);
	put_u64(b, (uint64_t)(int64_t)d->code);
	put_bytes(b, d->msg, strlen(d->msg));
	if (oc != TXC_ARCHIVE_NEW)
		return;
	bool ok = fflush(rd->tmp.f) == 0 && !ferror(rd->tmp.f);
	ok &= fclose(rd->tmp.f) == 0;
	rd->tmp.f = NULL;
	put_u64(b, ok);
	put_bytes(b, rd->tmp.tmp, strlen(rd->tmp.tmp));
	put_bytes(b, rd->sha, 64);
	put_bytes(b, rd->base, 64);
	put_bytes(b, rd->links, strlen(rd->links));
	put_u64(b, rd->bytes);
	put_bytes(b, rd->facts.id, rd->facts.id_len);
	put_u64(b, rd->facts.messages);
	put_u64(b, (uint64_t)rd->facts.kind);
	put_bytes(b, rd->facts.page, strlen(rd->facts.page));
	put_u64(b, rd->assets.n);
	for (size_t i = 0; i < rd->assets.n; i++) {
		put_bytes(b, rd->assets.items[i].name, strlen(rd->assets.items[i].name));
		put_bytes(b, rd->assets.items[i].bytes, rd->assets.items[i].len);
	}
	put_bytes(b, rd->note.buf, rd->note.len);
	free(rd->tmp.tmp); /* the parent renames it, or removes it */
	free(rd->tmp.path);
	rd->tmp.tmp = rd->tmp.path = NULL;
}

struct wire {
	const char *p;
	size_t left;
	bool ok; /* every field so far was there */
};

static uint64_t get_u64(struct wire *w)
{
	uint64_t x = 0;
	if (w->ok && w->left >= sizeof(x)) {
		memcpy(&x, w->p, sizeof(x));
		w->p += sizeof(x);
		w->left -= sizeof(x);
	} else {
		w->ok = false;
	}
	return x;
}

/* n bytes and a NUL, malloc'd; NULL (and !w->ok) when the message ends first */
static char *get_bytes(struct wire *w, size_t *n)
{
	uint64_t len = get_u64(w);
	if (!w->ok || len > w->left) {
		w->ok = false;
		return NULL;
	}
	char *p = txc_xmalloc((size_t)len + 1);
	memcpy(p, w->p, (size_t)len);
	p[len] = '\0';
	w->p += len;
	w->left -= (size_t)len;
	*n = (size_t)len;
	return p;
}

/* The facts, images and note of a NEW message, into rd */
static void receive_body(struct wire *w, struct rendered *rd, uint64_t *ok)
{
	size_t len;
	*ok = get_u64(w);
	rd->tmp.tmp = get_bytes(w, &len);
	char *sha = get_bytes(w, &len);
	if (sha != NULL && len == 64)
		memcpy(rd->sha, sha, 65);
	w->ok &= sha != NULL && len == 64;
	free(sha);
	char *base = get_bytes(w, &len);
	if (base != NULL && len == 64)
		memcpy(rd->base, base, 65);
	w->ok &= base != NULL && len == 64;
	free(base);
	char *links = get_bytes(w, &len);
	if (links != NULL && len < sizeof(rd->links))
		memcpy(rd->links, links, len + 1);
	w->ok &= links != NULL && len < sizeof(rd->links);
	free(links);
	rd->bytes = (size_t)get_u64(w);
	rd->facts.id = get_bytes(w, &rd->facts.id_len);
	rd->facts.messages = (size_t)get_u64(w);
	rd->facts.kind = (int)get_u64(w);
	rd->facts.page = get_bytes(w, &len);
	uint64_t n_assets = get_u64(w);
	for (uint64_t i = 0; w->ok && i < n_assets; i++) {
		size_t bn = 0;
		char *name = get_bytes(w, &len), *data = get_bytes(w, &bn);
		if (w->ok)
			rd->assets.sink.put(rd->assets.sink.ctx, name, data, bn);
		free(name);
		free(data);
	}
	char *note = get_bytes(w, &len);
	if (note != NULL)
		txc_buf_add(&rd->note, note, len);
	free(note);
}

/* A worker's message (got: it came) as render_one() would have left rd (rd->path set by the
 * caller, rd->assets initialised); *rrc the render callback's code. */
enum txc_archive_outcome receive_rendered(const char *msg, size_t len, bool got, struct rendered *rd, int *rrc,
					  struct txc_diag *d)
{
	struct wire w = {msg, len, got};
	uint64_t rrc64 = get_u64(&w), oc64 = get_u64(&w), code = get_u64(&w);
	size_t n;
	char *text = get_bytes(&w, &n);
	if (!w.ok) {
		free(text);
		txc_diag_set(d, TXC_E_FAIL, "a worker process stopped; the session was not exported");
		return TXC_ARCHIVE_FAILED;
	}
	*rrc = (int)(int64_t)rrc64;
	if (text[0])
		txc_diag_set(d, (int)(int64_t)code, "%s", text);
	free(text);
	if (oc64 != TXC_ARCHIVE_NEW)
		return oc64 == TXC_ARCHIVE_REFUSED ? TXC_ARCHIVE_REFUSED : TXC_ARCHIVE_FAILED;
	uint64_t ok = 0;
	receive_body(&w, rd, &ok);
	if (w.ok && ok)
		rd->tmp.f = fopen(rd->tmp.tmp, "ab"); /* the commit renames it */
	rd->tmp.synced = false;                       /* until the window's syncfs (sync.c); else the commit's fsync */
	if (rd->tmp.f == NULL) {
		int err = errno;
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", rd->path.buf,
			     !w.ok ? "a worker process stopped" : strerror(ok ? err : EIO));
		return TXC_ARCHIVE_FAILED; /* rendered_release() removes the temporary file */
	}
	rd->tmp.path = txc_xstrdup(rd->path.buf);
	return TXC_ARCHIVE_NEW;
}
