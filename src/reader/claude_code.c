/*
 * claude_code.c - Claude Code's session files as a store:
 * <projects>/<folder>/<sessionId>.jsonl, and each session's subagents in
 * <projects>/<folder>/<sessionId>/subagents/agent-<id>.jsonl (listed as
 * "agent-<id>", source "subagent", its parent in `list --json`, so that a
 * prefix of the parent's id names the parent alone).
 *
 * Every session is named by its place in the sorted walk (folders, then
 * files, by name), so two projects holding one file name are two sessions
 * (the façade numbers the second "ID~2").  A listing reads every file; a
 * load reads one, line by line, into model_claude.c's builder (twice when the
 * file holds branches Claude Code would not resume, txc_claude_branch).  A line that
 * is not JSON is skipped and counted; a last line cut short (Claude Code
 * still writing) is left out with its own warning.  Nothing is ever written;
 * symbolic links and dot-names are not followed.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source.h"
#include "txc/model_claude.h"

struct cc_entry {
	char *path;   /* the file */
	char *sid;    /* its stem */
	char *parent; /* a subagent's session id, else NULL */
	char *folder; /* the project folder's name */
	bool sub;
};

struct cc_store {
	char *root; /* the projects folder */
	struct cc_entry *v;
	size_t n;
	bool walked;
	struct txc_arena *arena;        /* the summaries, made once (a command may list twice) */
	struct txc_session_info *infos; /* NULL until a full listing */
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names in dir that are what want says (S_IFDIR, S_IFREG) and end in suffix, sorted; links skipped */
static char **names_in(const char *dir, mode_t want, const char *suffix, size_t *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t ls = strlen(suffix);
	struct dirent *e;
	*n = 0;
	while (d != NULL && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len <= ls || strcmp(e->d_name + len - ls, suffix) != 0)
			continue;
		struct txc_buf p = TXC_BUF_INIT;
		struct stat sb;
		txc_buf_addf(&p, "%s/%s", dir, e->d_name);
		bool ok = lstat(p.buf, &sb) == 0 && (sb.st_mode & S_IFMT) == want;
		txc_buf_release(&p);
		if (!ok)
			continue;
		v = txc_xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = txc_xstrdup(e->d_name);
	}
	if (d != NULL)
		closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_name);
	return v;
}

static void add_entry(struct cc_store *cs, char *path, char *sid, const char *folder, const char *parent)
{
	cs->v = txc_xrealloc(cs->v, (cs->n + 1) * sizeof(*cs->v));
	cs->v[cs->n++] =
		(struct cc_entry){path, sid, parent ? txc_xstrdup(parent) : NULL, txc_xstrdup(folder), parent != NULL};
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* <folder>/<stem>/subagents/agent-*.jsonl */
static void walk_subagents(struct cc_store *cs, const char *folder, const char *stem)
{
	struct txc_buf dir = TXC_BUF_INIT;
	size_t n;
	txc_buf_addf(&dir, "%s/%s/%s/subagents", cs->root, folder, stem);
	char **files = names_in(dir.buf, S_IFREG, ".jsonl", &n);
	for (size_t i = 0; i < n; i++) {
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", dir.buf, files[i]);
		add_entry(cs, txc_buf_detach(&p, NULL), txc_xstrndup(files[i], strlen(files[i]) - 6), folder, stem);
	}
	free_names(files, n);
	txc_buf_release(&dir);
}

static void walk(struct cc_store *cs)
{
	size_t nf;
	if (cs->walked)
		return;
	cs->walked = true;
	char **folders = names_in(cs->root, S_IFDIR, "", &nf);
	for (size_t i = 0; i < nf; i++) {
		struct txc_buf dir = TXC_BUF_INIT;
		size_t n;
		txc_buf_addf(&dir, "%s/%s", cs->root, folders[i]);
		char **files = names_in(dir.buf, S_IFREG, ".jsonl", &n);
		for (size_t k = 0; k < n; k++) {
			struct txc_buf p = TXC_BUF_INIT;
			txc_buf_addf(&p, "%s/%s", dir.buf, files[k]);
			char *stem = txc_xstrndup(files[k], strlen(files[k]) - 6);
			add_entry(cs, txc_buf_detach(&p, NULL), stem, folders[i], NULL);
			walk_subagents(cs, folders[i], stem);
		}
		free_names(files, n);
		txc_buf_release(&dir);
	}
	free_names(folders, nf);
}

static void cc_close(void *impl)
{
	struct cc_store *cs = impl;
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->v[i].path);
		free(cs->v[i].sid);
		free(cs->v[i].parent);
		free(cs->v[i].folder);
	}
	free(cs->v);
	free(cs->root);
	txc_arena_free(cs->arena);
	free(cs);
}

/* The project folder's name as a path: Claude Code made it from the cwd, every other byte a '-' (lossy). */
static struct txc_str folder_cwd(struct txc_arena *a, const char *folder)
{
	struct txc_str s = txc_arena_str(a, folder, strlen(folder));
	for (size_t i = 0; i < s.len; i++)
		if (s.ptr[i] == '-')
			((char *)s.ptr)[i] = '/';
	return s;
}

/* The file's lines into the builder: bad lines counted, a cut last line said apart. */
static int read_lines(const struct cc_entry *e, struct txc_claude_builder *b, size_t *bad, bool *cut,
		      struct txc_diag *d)
{
	FILE *f = fopen(e->path, "rb");
	*bad = 0;
	*cut = false;
	if (f == NULL) {
		txc_diag_set(d, errno == ENOENT ? TXC_E_NOTFOUND : TXC_E_FAIL, "cannot open '%s': %s", e->path,
			     strerror(errno));
		return d->code;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	for (bool first = true; (len = getline(&line, &cap, f)) > 0; first = false) {
		bool nl = line[len - 1] == '\n';
		/* a byte-order mark an editor put before the first record is no part of it */
		size_t bom = first && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		if (txc_claude_add_line(b, line + bom, (size_t)len - nl - bom) < 0) {
			if (nl)
				(*bad)++;
			else
				*cut = true; /* the last line, unfinished */
		}
	}
	bool failed = ferror(f) != 0;
	free(line);
	fclose(f);
	if (failed) {
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s'", e->path);
		return TXC_E_FAIL;
	}
	return TXC_OK;
}

/*
 * Read the file into a new transcript, the model only (*out; NULL on an error).  Claude Code
 * resumes one branch of the parentUuid tree: when the file holds others (a turn rewound and
 * edited) or inline sidechain records, it is read again with those records aside (their times
 * count, they make no message); *aside says how many message records that left out.
 */
static int read_file(const struct cc_entry *e, struct txc_transcript **out, double *last, size_t *aside,
		     struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(t);
	size_t bad, n_lines = 0;
	bool cut;
	unsigned char *marks = NULL;
	int rc = read_lines(e, b, &bad, &cut, d);
	*aside = rc == TXC_OK ? txc_claude_branch(b, e->sub, &marks, &n_lines) : 0;
	txc_claude_end(b, last);
	if (*aside > 0) { /* again: the file is read line by line, never held whole */
		txc_transcript_free(t);
		t = txc_transcript_new();
		b = txc_claude_begin(t);
		txc_claude_aside(b, marks, n_lines);
		rc = read_lines(e, b, &bad, &cut, d);
		txc_claude_end(b, last);
	}
	free(marks);
	*out = NULL;
	if (rc != TXC_OK) {
		txc_transcript_free(t);
		return rc;
	}
	if (t->meta.cwd.ptr == NULL && !e->sub)
		t->meta.cwd = folder_cwd(t->arena, e->folder);
	t->meta.source = txc_str_c(e->sub ? "subagent" : "claude-code"); /* as the listing says */
	if (bad)
		txc_diag_warn(d, TXC_W_SKIPPED_LINES, e->path, bad);
	if (cut)
		txc_diag_warn(d, TXC_W_CUT_LINE, e->path, 1);
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

/* the summary of one file, and its row for `list --json` */
static int summarise(struct cc_store *cs, size_t i, struct txc_arena *a, struct txc_session_info *info,
		     struct txc_diag *d)
{
	const struct cc_entry *e = &cs->v[i];
	struct txc_transcript *t;
	double last;
	size_t aside;
	int rc = read_file(e, &t, &last, &aside, d);
	if (rc != TXC_OK)
		return rc;
	const struct txc_meta *m = &t->meta;
	struct txc_buf n = TXC_BUF_INIT;
	txc_buf_addf(&n, "%zu", t->n_messages);
	info->title = m->title.ptr ? txc_arena_str(a, m->title.ptr, m->title.len) : TXC_STR_NULL;
	info->cwd = m->cwd.ptr ? txc_arena_str(a, m->cwd.ptr, m->cwd.len) : TXC_STR_NULL;
	info->model = m->model.ptr ? txc_arena_str(a, m->model.ptr, m->model.len) : TXC_STR_NULL;
	info->source = txc_str_c(e->sub ? "subagent" : "claude-code");
	info->n_messages = txc_arena_str(a, n.buf, n.len);
	info->started = isnan(last) ? NAN : m->started_at;
	info->last_active = last;
	struct txc_json *o = txc_json_object(a, 11);
	txc_json_put(o, txc_str_c("id"), jstr(a, info->sid.text));
	txc_json_put(o, txc_str_c("source"), jstr(a, info->source));
	txc_json_put(o, txc_str_c("model"), jstr(a, info->model));
	txc_json_put(o, txc_str_c("title"), jstr(a, info->title));
	txc_json_put(o, txc_str_c("cwd"), jstr(a, info->cwd));
	txc_json_put(o, txc_str_c("started_at"), jnum(a, info->started));
	txc_json_put(o, txc_str_c("last_active"), jnum(a, last));
	txc_json_put(o, txc_str_c("message_count"), txc_json_int(a, (int64_t)t->n_messages));
	txc_json_put(o, txc_str_c("path"), txc_json_string(a, e->path, strlen(e->path)));
	if (e->parent != NULL)
		txc_json_put(o, txc_str_c("parent"), txc_json_string(a, e->parent, strlen(e->parent)));
	info->native = o;
	txc_buf_release(&n);
	txc_transcript_free(t);
	return TXC_OK;
}

static int cc_sessions(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
		       struct txc_diag *d)
{
	struct cc_store *cs = impl;
	walk(cs);
	bool ids = (flags & TXC_LIST_IDS_ONLY) && cs->infos == NULL;
	struct txc_arena *own = ids ? a : cs->arena;
	struct txc_session_info *v = cs->infos;
	if (v == NULL) {
		v = txc_arena_array(own, cs->n ? cs->n : 1, sizeof(*v));
		for (size_t i = 0; i < cs->n; i++) {
			struct txc_json *sid = txc_json_string(own, cs->v[i].sid, strlen(cs->v[i].sid));
			v[i].sid = txc_source_sid(own, sid, true, (int64_t)i + 1);
			v[i].started = v[i].last_active = NAN;
			v[i].native = txc_json_object(own, 0);
			int rc = ids ? TXC_OK : summarise(cs, i, own, &v[i], d);
			if (rc != TXC_OK)
				return rc;
		}
		if (!ids)
			cs->infos = v;
	}
	/* the caller's copy (the façade numbers repeated ids in it); texts stay in the store's arena */
	*out = txc_arena_array(a, cs->n ? cs->n : 1, sizeof(*v));
	memcpy(*out, v, cs->n * sizeof(*v));
	*n = cs->n;
	return TXC_OK;
}

static int cc_load(void *impl, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d)
{
	struct cc_store *cs = impl;
	walk(cs);
	size_t i = 0;
	if (id->placed && id->pos >= 1 && (uint64_t)id->pos <= cs->n)
		i = (size_t)id->pos - 1;
	else
		while (i < cs->n &&
		       !(strlen(cs->v[i].sid) == id->text.len && memcmp(cs->v[i].sid, id->text.ptr, id->text.len) == 0))
			i++;
	if (i >= cs->n) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s'", (int)id->text.len, id->text.ptr, cs->root);
		return TXC_E_NOTFOUND;
	}
	struct txc_transcript *t;
	double last;
	size_t aside;
	(void)flags; /* the model is all a load gives (no rows: TXC_LOAD_MODEL_ONLY or not) */
	int rc = read_file(&cs->v[i], &t, &last, &aside, d);
	if (rc != TXC_OK)
		return rc;
	if (aside > 0) /* said on a load, not in a listing */
		txc_diag_warn(d, TXC_W_OTHER_BRANCH, cs->v[i].path, aside);
	*out = t;
	return TXC_OK;
}

static const struct txc_source_ops claude_code_ops = {
	.name = "claude-code",
	.caps = TXC_SRC_BY_ID,
	.close = cc_close,
	.sessions = cc_sessions,
	.load = cc_load, /* the model only: Hermes rows are the Hermes writer's, a search scans the model */
};

int txc_claude_store_open(struct txc_store **out, const char *projects, struct txc_diag *d)
{
	struct stat sb;
	*out = NULL;
	if (stat(projects, &sb) != 0) {
		bool missing = errno == ENOENT || errno == ENOTDIR;
		txc_diag_set(d, missing ? TXC_E_NOTFOUND : TXC_E_FAIL, "no Claude Code projects folder at '%s'",
			     projects);
		return d->code;
	}
	if (!S_ISDIR(sb.st_mode)) {
		txc_diag_set(d, TXC_E_USAGE, "'%s' is not a folder (Claude Code keeps sessions in <config>/projects/)",
			     projects);
		return TXC_E_USAGE;
	}
	struct cc_store *cs = txc_xcalloc(1, sizeof(*cs));
	cs->root = txc_xstrdup(projects);
	cs->arena = txc_arena_new(0);
	*out = txc_store_new(&claude_code_ops, cs, projects);
	return TXC_OK;
}
