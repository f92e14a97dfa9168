/*
 * store.c - Codex CLI's rollouts as a store: every rollout-*.jsonl under
 * $CODEX_HOME/sessions (live) and $CODEX_HOME/archived_sessions (archived,
 * listed with --archived), in path order (the date folders and the start time
 * in the name make it the start order).  A session's id is its session_meta's
 * id (read from the first line when only ids are asked for), else the UUID in
 * the file's name, else the name; a listing reads every file, a load one, line
 * by line into model.c's builder.  Rowless: the model is all a load gives (no
 * t->native), so writers and search work from it.  Nothing is ever written.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../source.h"
#include "codex.h"
#include "txc/lineage.h"

struct cx_store {
	char *home;
	struct txc_codex_file *v;
	size_t n;
	bool walked;
	struct txc_arena *arena;        /* ids and summaries, made once */
	struct txc_str *ids;            /* each file's id text (NULL until walked) */
	struct txc_str *parents;        /* a spawned thread's parent id, else ptr NULL (with ids) */
	struct txc_session_info *infos; /* NULL until a full listing */
};

static void walk(struct cx_store *cs)
{
	static const char *const subs[] = {TXC_CODEX_LIVE, TXC_CODEX_ARCHIVED};
	if (cs->walked)
		return;
	cs->walked = true;
	for (size_t k = 0; k < 2; k++) {
		struct txc_buf p = TXC_BUF_INIT;
		size_t n;
		txc_buf_addf(&p, "%s/%s", cs->home, subs[k]);
		struct txc_codex_file *v = txc_codex_files(p.buf, k == 1, &n, NULL, NULL);
		cs->v = txc_xrealloc(cs->v, (cs->n + n + 1) * sizeof(*cs->v));
		if (n > 0) /* (v is NULL for an empty folder) */
			memcpy(cs->v + cs->n, v, n * sizeof(*v));
		cs->n += n;
		free(v);
		txc_buf_release(&p);
	}
}

static void cx_close(void *impl)
{
	struct cx_store *cs = impl;
	txc_codex_files_free(cs->v, cs->n);
	free(cs->home);
	txc_arena_free(cs->arena);
	free(cs);
}

static bool hexish(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '-' || (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return false;
	return true;
}

/* The id a file's name gives: the UUID at the end of rollout-<time>-<uuid>.jsonl, else the stem. */
static struct txc_str name_id(struct txc_arena *a, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base) - 6; /* .jsonl */
	if (n >= 36 + 8 && hexish(base + n - 36, 36) && base[n - 37] == '-')
		return txc_arena_str(a, base + n - 36, 36);
	return txc_arena_str(a, base, n);
}

/* The id of a file: its first record's session_meta id, else its name's; *parent: the thread that
 * spawned it (session_meta's source), else ptr NULL. */
static struct txc_str file_id(struct txc_arena *a, const char *path, struct txc_str *parent)
{
	FILE *f = fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = f ? getline(&line, &cap, f) : -1;
	struct txc_str id = TXC_STR_NULL;
	*parent = TXC_STR_NULL;
	struct txc_arena *scratch = txc_arena_new(0);
	const struct txc_json *r;
	if (len > 0 && txc_json_parse(scratch, line, (size_t)len, &r) == 0 && r->kind == TXC_JSON_OBJECT &&
	    txc_str_eq(txc_json_get(r, "type") ? txc_json_get(r, "type")->s : TXC_STR_NULL, "session_meta")) {
		const struct txc_json *p = txc_json_get(r, "payload");
		const struct txc_json *v = p && p->kind == TXC_JSON_OBJECT ? txc_json_get(p, "id") : NULL;
		if (v != NULL && v->kind == TXC_JSON_STRING && v->s.len > 0)
			id = txc_arena_str(a, v->s.ptr, v->s.len);
		struct txc_str up = txc_codex_parent(p);
		if (up.ptr != NULL)
			*parent = txc_arena_str(a, up.ptr, up.len);
	}
	txc_arena_free(scratch);
	free(line);
	if (f != NULL)
		fclose(f);
	return id.ptr != NULL ? id : name_id(a, path);
}

static void ids(struct cx_store *cs)
{
	walk(cs);
	if (cs->ids != NULL)
		return;
	cs->ids = txc_arena_array(cs->arena, cs->n ? cs->n : 1, sizeof(*cs->ids));
	cs->parents = txc_arena_array(cs->arena, cs->n ? cs->n : 1, sizeof(*cs->parents));
	for (size_t i = 0; i < cs->n; i++)
		cs->ids[i] = file_id(cs->arena, cs->v[i].path, &cs->parents[i]);
}

/* The file's lines into the builder (a byte-order mark before the first is no part of it). */
static int read_lines(const char *path, struct txc_codex_builder *b, struct txc_codex_faults *f, struct txc_diag *d)
{
	FILE *fp = fopen(path, "rb");
	if (fp == NULL) {
		txc_diag_set(d, errno == ENOENT ? TXC_E_NOTFOUND : TXC_E_FAIL, "cannot open '%s': %s", path,
			     strerror(errno));
		return d->code;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	for (bool first = true; (len = getline(&line, &cap, fp)) > 0; first = false) {
		bool nl = line[len - 1] == '\n';
		size_t bom = first && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		if (txc_codex_add_line(b, line + bom, (size_t)len - nl - bom) < 0) {
			if (nl)
				f->bad++;
			else
				f->cut = true; /* the last line, unfinished */
		}
	}
	bool failed = ferror(fp) != 0;
	free(line);
	fclose(fp);
	if (failed) {
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s'", path);
		return TXC_E_FAIL;
	}
	return TXC_OK;
}

/* One file into a new transcript (*out; NULL on an error), its faults warned once each. */
static int read_file(const char *path, struct txc_transcript **out, double *last, struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	struct txc_codex_builder *b = txc_codex_begin(t);
	struct txc_codex_faults f = {0};
	int rc = read_lines(path, b, &f, d);
	txc_codex_end(b, last, &f);
	*out = NULL;
	if (rc != TXC_OK) {
		txc_transcript_free(t);
		return rc;
	}
	if (f.bad)
		txc_diag_warn(d, TXC_W_SKIPPED_LINES, path, f.bad);
	if (f.cut)
		txc_diag_warn(d, TXC_W_CODEX_CUT, path, 1);
	if (f.no_meta)
		txc_diag_warn(d, TXC_W_CODEX_NO_META, path, 1);
	if (f.unbound)
		txc_diag_warn(d, TXC_W_CODEX_UNBOUND, path, f.unbound);
	*out = t;
	return TXC_OK;
}

static const struct txc_json *jstr(struct txc_arena *a, struct txc_str s)
{
	return s.ptr != NULL ? txc_json_string(a, s.ptr, s.len) : &txc_json_null_value;
}

static const struct txc_json *jnum(struct txc_arena *a, double x)
{
	return isnan(x) ? &txc_json_null_value : txc_json_real(a, x);
}

static struct txc_str keep(struct txc_arena *a, struct txc_str s)
{
	return s.ptr ? txc_arena_str(a, s.ptr, s.len) : TXC_STR_NULL;
}

/* the summary of one file, and its object for `list --json` */
static int summarise(struct cx_store *cs, size_t i, struct txc_arena *a, struct txc_session_info *info,
		     struct txc_diag *d)
{
	const struct txc_codex_file *e = &cs->v[i];
	struct txc_transcript *t;
	double last;
	int rc = read_file(e->path, &t, &last, d);
	if (rc != TXC_OK)
		return rc;
	const struct txc_meta *m = &t->meta;
	struct txc_buf n = TXC_BUF_INIT;
	txc_buf_addf(&n, "%zu", t->n_messages);
	info->title = keep(a, m->title);
	info->cwd = keep(a, m->cwd);
	info->model = keep(a, m->model);
	struct txc_str parent = cs->parents[i];
	info->source = txc_str_c(parent.ptr != NULL ? "subagent" : "codex-cli"); /* a spawned thread: a delegate */
	info->n_messages = txc_arena_str(a, n.buf, n.len);
	info->started = isnan(last) ? NAN : m->started_at;
	info->last_active = last;
	info->archived = e->archived;
	struct txc_json *o = txc_json_object(a, 13);
	txc_json_put(o, txc_str_c("id"), jstr(a, info->sid.text));
	txc_json_put(o, txc_str_c("source"), jstr(a, info->source));
	txc_json_put(o, txc_str_c("parent_session_id"), jstr(a, parent));
	txc_json_put(o, txc_str_c("model"), jstr(a, info->model));
	txc_json_put(o, txc_str_c("title"), jstr(a, info->title));
	txc_json_put(o, txc_str_c("cwd"), jstr(a, info->cwd));
	txc_json_put(o, txc_str_c("git_branch"), jstr(a, m->git_branch));
	txc_json_put(o, txc_str_c("started_at"), jnum(a, info->started));
	txc_json_put(o, txc_str_c("last_active"), jnum(a, last));
	txc_json_put(o, txc_str_c("message_count"), txc_json_int(a, (int64_t)t->n_messages));
	txc_json_put(o, txc_str_c("archived"), e->archived ? txc_json_int(a, 1) : txc_json_int(a, 0));
	txc_json_put(o, txc_str_c("path"), txc_json_string(a, e->path, strlen(e->path)));
	info->native = o;
	txc_buf_release(&n);
	txc_transcript_free(t);
	return TXC_OK;
}

static int cx_sessions(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
		       struct txc_diag *d)
{
	struct cx_store *cs = impl;
	ids(cs);
	bool only_ids = (flags & TXC_LIST_IDS_ONLY) && cs->infos == NULL;
	struct txc_arena *own = only_ids ? a : cs->arena;
	struct txc_session_info *v = cs->infos;
	if (v == NULL) {
		v = txc_arena_array(own, cs->n ? cs->n : 1, sizeof(*v));
		for (size_t i = 0; i < cs->n; i++) {
			struct txc_json *sid = txc_json_string(own, cs->ids[i].ptr, cs->ids[i].len);
			v[i].sid = txc_source_sid(own, sid, true, (int64_t)i + 1);
			v[i].started = v[i].last_active = NAN;
			v[i].archived = cs->v[i].archived;
			v[i].native = txc_json_object(own, 0);
			int rc = only_ids ? TXC_OK : summarise(cs, i, own, &v[i], d);
			if (rc != TXC_OK)
				return rc;
		}
		if (!only_ids)
			cs->infos = v;
	}
	/* the caller's copy (the façade numbers repeated ids in it); texts stay in the store's arena */
	*out = txc_arena_array(a, cs->n ? cs->n : 1, sizeof(*v));
	memcpy(*out, v, cs->n * sizeof(*v));
	*n = cs->n;
	return TXC_OK;
}

static int cx_load(void *impl, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d)
{
	(void)flags; /* the model is all there is */
	struct cx_store *cs = impl;
	ids(cs);
	size_t i = 0;
	if (id->placed && id->pos >= 1 && (uint64_t)id->pos <= cs->n)
		i = (size_t)id->pos - 1;
	else
		while (i < cs->n &&
		       !(cs->ids[i].len == id->text.len && memcmp(cs->ids[i].ptr, id->text.ptr, id->text.len) == 0))
			i++;
	if (i >= cs->n) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s'", (int)id->text.len, id->text.ptr, cs->home);
		return TXC_E_NOTFOUND;
	}
	double last;
	int rc = read_file(cs->v[i].path, out, &last, d);
	if (rc == TXC_OK)
		(*out)->meta.archived = cs->v[i].archived;
	return rc;
}

/* A session's links from its listing's row: a spawned thread is a delegate child of its parent. */
static void cx_link(struct txc_arena *a, const struct txc_json *row, struct txc_link *l)
{
	(void)a; /* the row's texts are kept already */
	const struct txc_json *p = txc_json_get(row, "parent_session_id"), *t = txc_json_get(row, "title");
	memset(l, 0, sizeof(*l));
	l->parent = p != NULL && p->kind == TXC_JSON_STRING ? p->s : TXC_STR_NULL;
	l->title = t != NULL && t->kind == TXC_JSON_STRING ? t->s : TXC_STR_NULL;
	l->ended = NAN; /* a rollout records no end: always open */
	if (!txc_json_number(txc_json_get(row, "started_at"), &l->started))
		l->started = NAN;
	if (!txc_json_number(txc_json_get(row, "last_active"), &l->last_active))
		l->last_active = NAN;
	l->delegate = l->parent.ptr != NULL;
}

static const struct txc_source_ops codex_ops = {
	.name = "codex-cli",
	.caps = TXC_SRC_BY_ID,
	.close = cx_close,
	.sessions = cx_sessions,
	.load = cx_load,
	.link = cx_link,
};

int txc_codex_store_open(struct txc_store **out, const char *home, struct txc_diag *d)
{
	struct stat sb;
	*out = NULL;
	if (stat(home, &sb) != 0) {
		bool missing = errno == ENOENT || errno == ENOTDIR;
		txc_diag_set(d, missing ? TXC_E_NOTFOUND : TXC_E_FAIL, "no Codex folder at '%s'", home);
		return d->code;
	}
	if (!S_ISDIR(sb.st_mode)) {
		txc_diag_set(d, TXC_E_USAGE, "'%s' is not a folder (Codex keeps sessions in $CODEX_HOME/sessions/)",
			     home);
		return TXC_E_USAGE;
	}
	struct cx_store *cs = txc_xcalloc(1, sizeof(*cs));
	cs->home = txc_xstrdup(home);
	cs->arena = txc_arena_new(0);
	*out = txc_store_new(&codex_ops, cs, home);
	return TXC_OK;
}
