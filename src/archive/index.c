/*
 * index.c - the index page of a writer that has one (DIR/index.html through the writer's
 * .index op): every page of its format the manifest lists, this run's and earlier ones'.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive_int.h"
#include "txc/json.h"

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

/* The pages of this format the manifest lists (this run's and earlier ones'), as entries in a, in
 * the index's order (the caller frees the array; paths are the entries'). */
struct txc_index_entry *index_pages(const struct arun *r, struct txc_arena *a, size_t *n)
{
	return index_pages_but(r, a, NULL, 0, n);
}

/* index_pages() without the entries marked in but (by manifest entry), with room for more more */
struct txc_index_entry *index_pages_but(const struct arun *r, struct txc_arena *a, const bool *but, size_t more,
					size_t *n)
{
	struct txc_index_entry *v = txc_xcalloc(r->m.n + more + 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < r->m.n; i++) {
		const struct entry *e = &r->m.v[i];
		const struct txc_json *o;
		if ((but != NULL && but[i]) || e->dropped || e->line == NULL ||
		    !opt_eq(e->format, r->o->writer->name) || txc_json_parse(a, e->line, strlen(e->line), &o) != 0)
			continue;
		struct txc_index_entry *p = &v[(*n)++];
		p->path = txc_str_c(e->path);
		p->id = jstr(o, "session_id");
		p->title = jstr(o, "title");
		p->preview = jstr(o, "preview");
		p->source = jstr(o, "source");
		p->model = jstr(o, "model");
		p->started = jstr(o, "started");
		const struct txc_json *c = txc_json_get(o, "cost_usd"), *m = txc_json_get(o, "messages");
		if (c != NULL && (c->kind == TXC_JSON_INT || c->kind == TXC_JSON_REAL))
			p->cost = c->s;
		if (m != NULL)
			txc_json_is_int(m, &p->messages);
	}
	index_sort(v, *n);
	return v;
}

void index_sort(struct txc_index_entry *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_page);
}

/* DIR/index.html rewritten from the manifest, as any file of ours: replaced only when it is as
 * txc wrote it (or --force), and recorded so that the next run knows it. */
int write_index(struct arun *r, const struct txc_index_entry *v, size_t n, struct txc_diag *d)
{
	struct txc_buf page = TXC_BUF_INIT, path = TXC_BUF_INIT;
	r->o->writer->index(&page, v, n);
	unsigned char h[32];
	char sha[65], now[65];
	txc_sha256(page.buf, page.len, h);
	txc_hex(sha, h, 32);
	txc_buf_addf(&path, "%s/%s", r->o->dir, index_rel);
	const struct entry *old = manifest_find(&r->m, index_rel);
	struct stat sb;
	int rc = 0;
	bool exists = lstat(path.buf, &sb) == 0, have = exists && S_ISREG(sb.st_mode) && file_sha(path.buf, now);
	if (old != NULL && old->session != NULL) {
		txc_diag_set(d, TXC_E_FAIL, "no '%s' written: a session's file has that name", path.buf);
		rc = TXC_E_FAIL;
	} else if (have && strcmp(now, sha) == 0) {
		/* unchanged */
	} else if (exists && !r->o->force && !(have && old != NULL && strcmp(old->sha, now) == 0)) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' exists and is not as txc wrote it; pass --force to overwrite it",
			     path.buf);
		rc = TXC_E_FAIL;
	} else {
		mark_running(r); /* (a run that rendered nothing made no mark yet) */
		rc = r->ops->io.write_file(path.buf, page.buf, page.len, exists, d);
	}
	if (rc == 0) {
		struct entry *e = manifest_put(&r->m, index_rel);
		struct txc_buf line = TXC_BUF_INIT;
		txc_buf_addf(&line, "{\"path\":\"%s\",\"format\":\"index\",\"bytes\":%zu,\"sha256\":\"%s\"}", index_rel,
			     page.len, sha);
		entry_clear(e);
		e->line = mstr(&r->m, line.buf, line.len);
		txc_buf_release(&line);
		e->format = mstr_c(&r->m, "index");
		memcpy(e->sha, sha, 65);
	}
	txc_buf_release(&page);
	txc_buf_release(&path);
	return rc;
}
