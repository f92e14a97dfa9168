/*
 * nav.c - the links of an archive's pages: each page's nav slots (TXC_NAV_OPEN..TXC_NAV_CLOSE,
 * empty as the writer renders them) filled with links to the index and to the pages before and
 * after it in the index's order.  A page's bytes as rendered still depend on its session alone
 * (its manifest line keeps their SHA-256 as page_sha256, so a re-render finds it unchanged); the
 * links are filled in after the run, only into the pages whose links changed (the manifest keeps
 * a hash of each page's links), and only into a file that is still as txc wrote it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive_int.h"

static const char *find(const char *p, size_t len, const char *s, size_t n)
{
	for (const char *q = len >= n ? memchr(p, s[0], len - n + 1) : NULL; q != NULL;
	     q = memchr(q + 1, s[0], (size_t)(p + len - n - q))) {
		if (memcmp(q, s, n) == 0)
			return q;
		if (q == p + len - n)
			break;
	}
	return NULL;
}

/* The two slots of a page of len bytes: [*o1, *c1) and [*o2, *c2) their contents (the same when
 * the page has one); false when it has none. */
static bool find_slots(const char *p, size_t len, size_t *o1, size_t *c1, size_t *o2, size_t *c2)
{
	static const char open[] = TXC_NAV_OPEN, close[] = TXC_NAV_CLOSE;
	const size_t on = sizeof(open) - 1, cn = sizeof(close) - 1;
	const char *a = find(p, len, open, on);
	if (a == NULL)
		return false;
	const char *b = find(a + on, len - (size_t)(a + on - p), close, cn);
	if (b == NULL)
		return false;
	*o1 = (size_t)(a - p) + on;
	*c1 = (size_t)(b - p);
	*o2 = *o1, *c2 = *c1;
	/* the last slot, from the end: the page's last bytes are the writer's own */
	for (size_t i = len >= cn ? len - cn : 0; i > *c1 + cn; i--) {
		if (memcmp(p + i, close, cn) != 0)
			continue;
		for (size_t k = i; k >= on && k - on >= *c1 + cn; k--)
			if (memcmp(p + k - on, open, on) == 0) {
				*o2 = k, *c2 = i;
				return true;
			}
		return true;
	}
	return true;
}

/* the SHA-256 of p with its slots emptied, as the writer rendered it */
static void body_sha(const char *p, size_t len, size_t o1, size_t c1, size_t o2, size_t c2, char out[65])
{
	struct txc_sha256 s;
	unsigned char h[32];
	txc_sha256_init(&s);
	txc_sha256_update(&s, p, o1);
	if (o2 != o1) {
		txc_sha256_update(&s, p + c1, o2 - c1);
	}
	txc_sha256_update(&s, p + c2, len - c2);
	txc_sha256_final(&s, h);
	txc_hex(out, h, 32);
}

/* The SHA-256 of the page at path as it was rendered (its slots emptied); false: none */
bool nav_body_sha(const char *path, char out[65])
{
	size_t len, o1, c1, o2, c2;
	struct stat sb;
	char *p = file_bytes(path, &len, &sb);
	bool ok = p != NULL && find_slots(p, len, &o1, &c1, &o2, &c2);
	if (ok)
		body_sha(p, len, o1, c1, o2, c2, out);
	free(p);
	return ok;
}

/* A later page of a long session (DIR/x.html.assets/p2.html...): the manifest records its bytes
 * as rendered (slots empty), so that filling its slots changes no line. */
bool nav_is_part(const char *rel)
{
	size_t n = strlen(rel);
	const char *s = strrchr(rel, '/');
	return n > 5 && strcmp(rel + n - 5, ".html") == 0 && s != NULL && s - rel >= 7 &&
	       memcmp(s - 7, ".assets", 7) == 0 && s[1] == 'p';
}

/* DIR/rel (at full) is as txc wrote it: its bytes' SHA-256 is sha, or, for a later page, its
 * bytes with the slots emptied */
bool nav_ours(const char *rel, const char *full, const char *sha)
{
	char now[65];
	if (file_sha(full, now) && strcmp(now, sha) == 0)
		return true;
	return nav_is_part(rel) && nav_body_sha(full, now) && strcmp(now, sha) == 0;
}

/* "../" for each folder of rel */
static void up_of(struct txc_buf *b, const char *rel)
{
	txc_buf_addstr(b, "");
	for (const char *s = strchr(rel, '/'); s != NULL; s = strchr(s + 1, '/'))
		txc_buf_addstr(b, "../");
}

/* Replace the n hex digits after the first `key` in line (a field txc wrote: a key's quote is
 * never inside a JSON string, where it would be escaped) */
static void put_hex(char *line, const char *key, const char *hex, size_t n)
{
	char *at = strstr(line, key);
	if (at != NULL && strlen(at + strlen(key)) >= n)
		memcpy(at + strlen(key), hex, n);
}

/* The entry's line after its file was given other bytes: its size, hashes, how it lies on disk
 * and its links (the last fields, added when it had none) */
static char *relined(struct arun *r, const struct entry *e, const char *fst)
{
	struct txc_buf b = TXC_BUF_INIT;
	const char *line = e->line, *at = strstr(line, ",\"bytes\":");
	const char *tail = strstr(line, NAV_FIELDS);
	size_t keep = tail ? (size_t)(tail - line) : strlen(line) - 1; /* (without its '}') */
	if (at == NULL || (size_t)(at - line) > keep)
		return NULL;
	at += strlen(",\"bytes\":");
	txc_buf_add(&b, line, (size_t)(at - line));
	txc_buf_addf(&b, "%zu", e->bytes);
	at += strspn(at, "0123456789");
	txc_buf_add(&b, at, keep - (size_t)(at - line));
	txc_buf_addf(&b, NAV_FIELDS "%s\",\"links\":\"%s\"}", e->base, e->links);
	put_hex(b.buf, ",\"sha256\":\"", e->sha, 64);
	if (fst[0])
		put_hex(b.buf, ",\"file_stat\":\"", fst, 32);
	char *s = mstr(&r->m, b.buf, b.len);
	txc_buf_release(&b);
	return s;
}

/* p (len bytes, slots at o1..c1, o2..c2) with nav in its slots, into page */
static void filled(struct txc_buf *page, const char *p, size_t len, const size_t s[4], const char *nav, size_t nav_len)
{
	txc_buf_add(page, p, s[0]);
	txc_buf_add(page, nav, nav_len);
	if (s[2] != s[0]) {
		txc_buf_add(page, p + s[1], s[2] - s[1]);
		txc_buf_add(page, nav, nav_len);
	}
	txc_buf_add(page, p + s[3], len - s[3]);
}

/* A session's later pages (its .assets/pN.html) as rendered, their slots filled with nav before
 * they are written (nav_predict); each one's SHA-256 as rendered kept as its base. */
void nav_fill_parts(struct assets *as, const char *nav, size_t nav_len)
{
	for (size_t i = 0; nav != NULL && i < as->n; i++) {
		size_t s[4], n = strlen(as->items[i].name);
		const char *p = as->items[i].bytes;
		if (as->items[i].name[0] != 'p' || n < 5 || strcmp(as->items[i].name + n - 5, ".html") != 0 ||
		    !find_slots(p, as->items[i].len, &s[0], &s[1], &s[2], &s[3]))
			continue;
		unsigned char h[32];
		txc_sha256(p, as->items[i].len, h);
		txc_hex(as->items[i].base, h, 32);
		struct txc_buf page = TXC_BUF_INIT;
		page.buf = txc_xmalloc(as->items[i].len + 2 * nav_len + 1); /* (exactly: 25 pages of 1 MiB each) */
		page.alloc = as->items[i].len + 2 * nav_len + 1;
		page.buf[0] = '\0';
		filled(&page, p, as->items[i].len, s, nav, nav_len);
		free(as->items[i].bytes);
		as->items[i].bytes = txc_buf_detach(&page, &as->items[i].len);
	}
}

/* A later page of e's session (its asset k) with the links of page 1, as seen from its folder:
 * written only when it is as txc rendered it and its links are other ones.  False: not written
 * (someone changed it, or it could not be). */
static bool relink_part(struct arun *r, const struct asset_rec *a, const struct txc_index_entry *prev,
			const struct txc_index_entry *next)
{
	struct txc_buf full = TXC_BUF_INIT, page = TXC_BUF_INIT, up = TXC_BUF_INIT, nav = TXC_BUF_INIT;
	txc_buf_addf(&full, "%s/%s", r->o->dir, a->path);
	up_of(&up, a->path);
	r->o->writer->nav(&nav, up.buf, prev, next);
	size_t len, s[4];
	struct stat sb;
	char body[65];
	struct txc_diag d = {0};
	bool ok = false;
	char *p = file_bytes(full.buf, &len, &sb);
	if (p == NULL || !S_ISREG(sb.st_mode) || !find_slots(p, len, &s[0], &s[1], &s[2], &s[3]))
		goto out; /* gone (the next run restores it), or not a page with slots */
	body_sha(p, len, s[0], s[1], s[2], s[3], body);
	if (strcmp(body, a->sha) != 0) {
		warn_at(r, TXC_W_KEPT_CHANGED, full.buf, 0);
		goto out;
	}
	filled(&page, p, len, s, nav.buf, nav.len);
	ok = page.len == len && memcmp(page.buf, p, len) == 0; /* its links already */
	if (!ok) {
		mark_running(r);
		ok = r->ops->io.write_file(full.buf, page.buf, page.len, true, &d) == 0;
		if (!ok)
			warn_at(r, TXC_W_KEPT_CHANGED, full.buf, 0);
	}
out:
	free(p);
	txc_buf_release(&full);
	txc_buf_release(&page);
	txc_buf_release(&up);
	txc_buf_release(&nav);
	return ok;
}

/* One page's slots filled with nav (links: its hash), if it is as txc wrote it. */
static void relink(struct arun *r, struct entry *e, const char *nav, size_t nav_len, const char *links)
{
	struct txc_buf full = TXC_BUF_INIT, page = TXC_BUF_INIT;
	txc_buf_addf(&full, "%s/%s", r->o->dir, e->path);
	if (r->o->dry_run) { /* what it would do, said and counted (a page this run renders: written
				with its links, not relinked) */
		if (e->links[0] != '\0') {
			r->res->relinked++;
			r->ops->dry_line(r->ctx, "relink", full.buf);
		}
		txc_buf_release(&full);
		return;
	}
	size_t len, o1, c1, o2, c2;
	struct stat sb;
	char now[65], body[65], fst[33] = "";
	char *p = file_bytes(full.buf, &len, &sb);
	struct txc_diag d = {0};
	unsigned char h[32];
	if (p == NULL || !S_ISREG(sb.st_mode) || !find_slots(p, len, &o1, &c1, &o2, &c2))
		goto out; /* gone (the next run restores it), or not a page with slots */
	txc_sha256(p, len, h);
	txc_hex(now, h, 32);
	body_sha(p, len, o1, c1, o2, c2, body);
	/* ours: as recorded, or as rendered with other links (a run stopped before it recorded them) */
	if (strcmp(now, e->sha) != 0 && strcmp(body, e->base[0] ? e->base : e->sha) != 0) {
		warn_at(r, TXC_W_KEPT_CHANGED, full.buf, 0);
		goto out;
	}
	const size_t s[4] = {o1, c1, o2, c2};
	filled(&page, p, len, s, nav, nav_len);
	mark_running(r);
	if (r->ops->io.write_file(full.buf, page.buf, page.len, true, &d) != 0) {
		warn_at(r, TXC_W_KEPT_CHANGED, full.buf, 0);
		goto out;
	}
	test_kill(r, "relink");
	r->res->relinked += e->links[0] != '\0'; /* (a page rendered in this run had none yet) */
	txc_sha256(page.buf, page.len, h);
	txc_hex(e->sha, h, 32);
	e->bytes = page.len;
	memcpy(e->base, body, 65);
	memcpy(e->links, links, 33);
	if (e->fstat == NULL || !file_stat_sig(r, e->path, e->assets, e->n_assets, fst))
		fst[0] = '\0';
	char *line = relined(r, e, fst);
	if (line != NULL) {
		e->line = line;
		if (fst[0])
			e->fstat = mstr_c(&r->m, fst);
		manifest_journal_add(&r->m, e->line);
	}
out:
	free(p);
	txc_buf_release(&full);
	txc_buf_release(&page);
}

/* Every page of the index (v, n in its order) carries the links it should: the ones whose links
 * changed (a neighbour added, removed, moved or retitled; or rendered in this run) are filled in. */
void nav_links(struct arun *r, const struct txc_index_entry *v, size_t n)
{
	struct txc_buf up = TXC_BUF_INIT, nav = TXC_BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		struct entry *e = manifest_find(&r->m, v[i].path.ptr);
		if (e == NULL || e->session == NULL)
			continue;
		txc_buf_reset(&up);
		txc_buf_reset(&nav);
		up_of(&up, e->path);
		r->o->writer->nav(&nav, up.buf, i > 0 ? &v[i - 1] : NULL, i + 1 < n ? &v[i + 1] : NULL);
		unsigned char h[32];
		char links[65];
		txc_sha256(nav.buf, nav.len, h);
		txc_hex(links, h, 16);
		if (e->base[0] && strcmp(e->links, links) == 0)
			continue; /* its links are these already: not even read */
		/* its later pages first: page 1's line records that all of them carry these links */
		for (size_t k = 0; k < e->n_assets && !r->o->dry_run; k++)
			if (nav_is_part(e->assets[k].path))
				relink_part(r, &e->assets[k], i > 0 ? &v[i - 1] : NULL, i + 1 < n ? &v[i + 1] : NULL);
		relink(r, e, nav.buf, nav.len, links);
	}
	txc_buf_release(&up);
	txc_buf_release(&nav);
}

/* The rendered items' entries as the listing predicts them, in the index's order with the
 * manifest's others (the ones a rendered session replaces or renames left out): v, *n in a. */
static struct txc_index_entry *predicted(struct arun *r, size_t n, struct txc_arena *a, struct txc_strmap *mine,
					 size_t *nv)
{
	bool *but = txc_xcalloc(r->m.n + 1, sizeof(*but));
	size_t more = 0;
	for (size_t i = 0; i < n; i++) {
		const struct txc_archive_item *it = &r->items[i];
		if (r->plan[i].skip)
			continue;
		size_t k, *c = eindex_get(&r->m.by_session, &r->m, it->id.text.ptr ? it->id.text.ptr : "",
					  it->id.text.len, true, &k);
		for (size_t j = 0; j < k; j++) {
			const struct entry *e = &r->m.v[c[j]];
			but[c[j]] |= opt_eq(e->profile, it->profile) && opt_eq(e->format, r->o->writer->name);
		}
		free(c);
		const struct entry *at = manifest_find(&r->m, r->plan[i].rel.buf);
		if (at != NULL)
			but[at - r->m.v] = true;
		more++;
	}
	struct txc_index_entry *v = index_pages_but(r, a, but, more, nv);
	free(but);
	for (size_t i = 0; i < n; i++) {
		const struct txc_archive_item *it = &r->items[i];
		if (r->plan[i].skip)
			continue;
		struct txc_index_entry *p = &v[(*nv)++];
		p->path = txc_str_c(r->plan[i].rel.buf);
		p->id = it->id.text;
		p->title = it->title;
		p->preview = it->title.ptr == NULL ? it->preview : TXC_STR_NULL;
		char iso[64];
		if (it->started == it->started && it->started != 0 && txc_time_iso_ms(iso, it->started))
			p->started = txc_arena_str(a, iso, strlen(iso));
		txc_strmap_put(mine, p->path.ptr, p->path.len, NULL)->num = i + 1;
	}
	index_sort(v, *nv);
	return v;
}

/* Before rendering: the links each page to render is written with, from what the listing says of
 * the sessions (nav_links() relinks the few whose rendered facts tell otherwise). */
void nav_predict(struct arun *r, size_t n)
{
	struct txc_arena *a = txc_arena_new(0);
	struct txc_strmap mine = TXC_STRMAP_INIT;
	size_t nv;
	struct txc_index_entry *v = predicted(r, n, a, &mine, &nv);
	struct txc_buf up = TXC_BUF_INIT, nav = TXC_BUF_INIT;
	for (size_t k = 0; k < nv; k++) {
		const struct txc_strmap_entry *me = txc_strmap_get(&mine, v[k].path.ptr, v[k].path.len);
		if (me == NULL || me->num == 0)
			continue;
		struct plan *p = &r->plan[me->num - 1];
		const struct txc_index_entry *prev = k > 0 ? &v[k - 1] : NULL, *next = k + 1 < nv ? &v[k + 1] : NULL;
		txc_buf_reset(&up);
		up_of(&up, p->rel.buf);
		txc_buf_reset(&nav);
		r->o->writer->nav(&nav, up.buf, prev, next);
		unsigned char h[32];
		txc_sha256(nav.buf, nav.len, h);
		txc_hex(p->links, h, 16);
		p->nav = txc_buf_detach(&nav, &p->nav_len);
		txc_buf_addstr(&up, "../"); /* (DIR/x.html.assets/p2.html) */
		r->o->writer->nav(&nav, up.buf, prev, next);
		p->nav_part = txc_buf_detach(&nav, &p->nav_part_len);
	}
	txc_buf_release(&up);
	txc_buf_release(&nav);
	txc_strmap_free(&mine);
	free(v);
	txc_arena_free(a);
}
