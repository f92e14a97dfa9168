/*
 * hermes_legacy.c - Hermes's legacy session files as a store: the flat
 * folder $HERMES_HOME/sessions/ older Hermes versions wrote
 * (docs/FORMATS.md, "Hermes legacy session files").
 *
 *   session_<id>.json   a snapshot: session_id, model, platform, session_start,
 *                       last_updated, system_prompt, tools, message_count, messages
 *   <id>.jsonl          a gateway transcript: a session_meta line, then one
 *                       message per line
 *   sessions.json       the gateway's routing index (titles: display_name)
 *
 * Nothing else in the folder is ever opened.  Names are judged before any
 * open or stat: request_dump_* files (whole API requests with system
 * prompts and credentials) and any name whose id is not in the accepted
 * charset are never touched; symbolic links are not followed (O_NOFOLLOW,
 * and a listing skips them); only regular files are read.  Messages are
 * Hermes message dicts, so they become Hermes rows (id, session_id, the
 * dict's keys, ISO timestamps as epoch seconds) and model_hermes.c builds
 * the model from them.  A gateway transcript is read line by line (a bad
 * or truncated line is skipped and counted); a snapshot through the
 * incremental export parser, so that its text is never held beside its rows.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hermes_source.h"

static const struct txc_source_ops legacy_ops; /* (at the end: its functions come first) */

struct legacy_entry {
	char *id;
	char *snapshot;   /* "session_<id>.json", or NULL */
	char *transcript; /* "<id>.jsonl", or NULL */
	bool warned;      /* its bad lines were reported (once per run, however often it is read) */
};

struct routed {
	const char *sid;
	const struct txc_json *entry;
	size_t place;
};

struct legacy_dir {
	int dirfd;
	char *path;
	struct legacy_entry *v; /* sorted by id */
	size_t n;
	struct txc_arena *a;  /* the routing index */
	struct routed *index; /* sessions.json's entries with a text session_id, by it, then by place */
	size_t n_index;
	char **files; /* every file name read, for txc_store_file (NULL-terminated) */
};

/* ---- names ---- */

static bool id_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
	       c == '.' || c == ':';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* needle (lower case) in s[0, len), ASCII letters in any case */
static bool has_icase(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++) {
		size_t k = 0;
		while (k < n && lower(s[i + k]) == needle[k])
			k++;
		if (k == n)
			return true;
	}
	return false;
}

bool txc_legacy_id_ok(const char *id, size_t len)
{
	if (len == 0 || len > TXC_LEGACY_ID_MAX || !id_char(id[0]) || id[0] == '.' || id[0] == '_' || id[0] == '-' ||
	    id[0] == ':')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!id_char(id[i]) || (id[i] == '.' && i + 1 < len && id[i + 1] == '.'))
			return false;
	return !has_icase(id, len, "request_dump");
}

enum txc_legacy_kind txc_legacy_name(const char *name, size_t *id_off, size_t *id_len)
{
	size_t n = strlen(name);
	*id_off = *id_len = 0;
	if (has_icase(name, n, "request_dump")) /* a request payload: never a session, whatever else it is */
		return TXC_LEGACY_NONE;
	if (n > 13 && memcmp(name, "session_", 8) == 0 && memcmp(name + n - 5, ".json", 5) == 0 &&
	    txc_legacy_id_ok(name + 8, n - 13)) {
		*id_off = 8;
		*id_len = n - 13;
		return TXC_LEGACY_SNAPSHOT;
	}
	if (n > 6 && memcmp(name + n - 6, ".jsonl", 6) == 0 && txc_legacy_id_ok(name, n - 6)) {
		*id_len = n - 6;
		return TXC_LEGACY_TRANSCRIPT;
	}
	return TXC_LEGACY_NONE;
}

/* ---- times ---- */

/*
 * Python's datetime.isoformat(): YYYY-MM-DD[T ]HH:MM[:SS[.ffffff]][Z|+HH:MM].
 * Without a zone it is the local time of the machine Hermes ran on, which
 * txc takes to be this one (TZ).  Numbers are seconds already.
 */
static bool seconds_of(const struct txc_json *v, double *out)
{
	if (txc_json_number(v, out))
		return isfinite(*out);
	const char *s = txc_json_cstr(v);
	int y, mo, d, h, mi, len = 0;
	if (s == NULL || v->s.len > 64 || strlen(s) != v->s.len ||
	    sscanf(s, "%4d-%2d-%2d%*[T ]%2d:%2d%n", &y, &mo, &d, &h, &mi, &len) != 5 || len != 16 || mo < 1 ||
	    mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59)
		return false;
	const char *p = s + 16;
	double sec = 0;
	if (*p == ':') {
		char *end;
		sec = strtod(p + 1, &end);
		if (end == p + 1 || !(sec >= 0 && sec < 61))
			return false;
		p = end;
	}
	int oh = 0, om = 0, l2 = 0;
	if (*p == '\0') {
		struct tm tm = {.tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h, .tm_min = mi};
		tm.tm_isdst = -1;
		time_t t = mktime(&tm);
		*out = (double)t + sec;
		return t != (time_t)-1;
	}
	if (!(p[0] == 'Z' && p[1] == '\0') &&
	    !((p[0] == '+' || p[0] == '-') && sscanf(p + 1, "%2d:%2d%n", &oh, &om, &l2) == 2 && p[1 + l2] == '\0'))
		return false;
	double off = (p[0] == '-' ? -1 : 1) * (oh * 3600.0 + om * 60.0);
	*out = (double)(txc_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60) + sec - off;
	return true;
}

static const struct txc_json *seconds_json(struct txc_arena *a, const struct txc_json *v)
{
	double x;
	if (v == NULL || v->kind == TXC_JSON_INT || v->kind == TXC_JSON_REAL || !seconds_of(v, &x))
		return v;
	return txc_json_real(a, x);
}

/* ---- rows ---- */

/* A message dict as a Hermes row: id (its place), session_id, its own keys, timestamp as seconds. */
static const struct txc_json *legacy_row(struct txc_arena *a, const struct txc_json *m, int64_t place, const char *id)
{
	bool own_id = txc_json_get(m, "id") != NULL, own_sid = txc_json_get(m, "session_id") != NULL;
	struct txc_json *row = txc_json_object(a, m->n + 2);
	if (!own_id)
		txc_json_put(row, txc_str_c("id"), txc_json_int(a, place));
	if (!own_sid)
		txc_json_put(row, txc_str_c("session_id"), txc_json_string(a, id, strlen(id)));
	for (size_t i = 0; i < m->n; i++) {
		const struct txc_json *v = m->items[i];
		if (txc_str_eq(m->keys[i], "timestamp"))
			v = seconds_json(a, v);
		txc_json_put(row, m->keys[i], v);
	}
	return row;
}

static bool is_message(const struct txc_json *m)
{
	return m->kind == TXC_JSON_OBJECT && txc_json_cstr(txc_json_get(m, "role")) != NULL;
}

static bool is_meta(const struct txc_json *m)
{
	const char *r = txc_json_cstr(txc_json_get(m, "role"));
	return r != NULL && strcmp(r, "session_meta") == 0;
}

/* ---- files ---- */

/* Open name in the folder: a regular file, never through a symbolic link. */
static FILE *open_in(struct legacy_dir *ld, const char *name, struct txc_diag *d)
{
	int fd = openat(ld->dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		errno = EINVAL;
	}
	if (fd < 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s/%s': %s", ld->path, name,
			     errno == ELOOP    ? "a symbolic link (not followed)"
			     : errno == EINVAL ? "not a regular file"
					       : strerror(errno));
		return NULL;
	}
	return fdopen(fd, "rb");
}

/* What a gateway transcript's first pass finds: its session_meta line, message count, first and last times. */
struct transcript_head {
	const struct txc_json *meta; /* in the caller's arena */
	size_t n_messages, n_bad;
	double first, last; /* NAN when no message has a time */
};

/* One line at a time; each message to row() (in scratch, reset after) when row is set. */
static int read_transcript(struct legacy_dir *ld, struct legacy_entry *e, struct txc_arena *a,
			   struct transcript_head *h, void (*row)(void *, const struct txc_json *, struct txc_arena *),
			   void *ctx, struct txc_diag *d)
{
	*h = (struct transcript_head){.first = NAN, .last = NAN};
	FILE *f = open_in(ld, e->transcript, d);
	if (f == NULL)
		return TXC_E_FAIL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int64_t place = 0;
	struct txc_arena *scratch = txc_arena_new(0);
	while ((len = getline(&line, &cap, f)) > 0) {
		const struct txc_json *m;
		size_t n = (size_t)len;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
			n--;
		if (n == 0)
			continue;
		if (txc_json_parse(scratch, line, n, &m) != 0 || !is_message(m)) {
			h->n_bad++; /* a bad line, or the last one cut short while Hermes wrote it */
			txc_arena_reset(scratch);
			continue;
		}
		place++;
		double x;
		if (is_meta(m) && h->meta == NULL && a != NULL)
			h->meta = txc_json_copy(a, m);
		else if (!is_meta(m))
			h->n_messages++;
		if (!is_meta(m) && seconds_of(txc_json_get(m, "timestamp"), &x)) {
			if (isnan(h->first))
				h->first = x;
			h->last = x;
		}
		if (row != NULL)
			row(ctx, legacy_row(scratch, m, place, e->id), scratch);
		txc_arena_reset(scratch);
	}
	int rc = ferror(f) ? TXC_E_FAIL : TXC_OK;
	if (rc)
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s/%s': %s", ld->path, e->transcript, strerror(errno));
	free(line);
	txc_arena_free(scratch);
	fclose(f);
	if (rc == TXC_OK && h->n_bad && !e->warned) {
		e->warned = true;
		struct txc_buf where = TXC_BUF_INIT;
		txc_buf_addf(&where, "%s/%s", ld->path, e->transcript);
		txc_diag_warn(d, TXC_W_SKIPPED_LINES, where.buf, h->n_bad);
		txc_buf_release(&where);
	}
	return rc;
}

/* A snapshot through the export parser: t->native->session is its object without messages, rows its messages. */
static int read_snapshot(struct legacy_dir *ld, const struct legacy_entry *e, struct txc_transcript *t,
			 struct txc_diag *d)
{
	FILE *f = open_in(ld, e->snapshot, d);
	if (f == NULL)
		return TXC_E_FAIL;
	struct txc_export_parser *p = txc_export_parser_new(t);
	char chunk[65536];
	size_t n;
	int bad = 0;
	while (!bad && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		bad = txc_export_parser_feed(p, chunk, n);
	int rc = ferror(f) ? TXC_E_FAIL : TXC_OK;
	if (rc)
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s/%s': %s", ld->path, e->snapshot, strerror(errno));
	else if (bad || txc_export_parser_finish(p) != 0) {
		txc_diag_set(d, TXC_E_FAIL, "'%s/%s' is not a Hermes session snapshot (invalid or truncated JSON)",
			     ld->path, e->snapshot);
		rc = TXC_E_FAIL;
	}
	txc_export_parser_free(p);
	fclose(f);
	return rc;
}

/* ---- the session row ---- */

static int cmp_routed(const void *x, const void *y)
{
	const struct routed *a = x, *b = y;
	int c = strcmp(a->sid, b->sid);
	return c ? c : (a->place > b->place) - (a->place < b->place);
}

/* The routing index's first entry for a session id, or NULL. */
static const struct txc_json *index_entry(const struct legacy_dir *ld, const char *id)
{
	size_t lo = 0, hi = ld->n_index;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ld->index[mid].sid, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ld->n_index && strcmp(ld->index[lo].sid, id) == 0 ? ld->index[lo].entry : NULL;
}

static bool mapped_key(struct txc_str k)
{
	static const char *const keys[] = {"session_id",    "platform",      "model",
					   "system_prompt", "session_start", "message_count"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (txc_str_eq(k, keys[i]))
			return true;
	return false;
}

static void put_if(struct txc_json *o, const char *k, const struct txc_json *v)
{
	if (v != NULL)
		txc_json_put(o, txc_str_c(k), v);
}

/* the first of two values that is there */
static const struct txc_json *either(const struct txc_json *a, const struct txc_json *b)
{
	return a != NULL ? a : b;
}

static bool has_key(const struct txc_json *o, struct txc_str k)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->keys[i].len == k.len && memcmp(o->keys[i].ptr, k.ptr, k.len) == 0)
			return true;
	return false;
}

/*
 * Hermes's columns first (id, source, model, system_prompt, started_at,
 * message_count, title), then the snapshot's other keys as they are.
 * snap: the snapshot without messages (or NULL); h: the transcript's first
 * pass (or NULL); n_rows: the messages the session gives; first: the time
 * of the first (NAN).
 */
static const struct txc_json *session_row(struct txc_arena *a, const struct legacy_dir *ld,
					  const struct legacy_entry *e, const struct txc_json *snap,
					  const struct transcript_head *h, size_t n_rows, double first)
{
	const struct txc_json *meta = h != NULL ? h->meta : NULL;
	const struct txc_json *ie = index_entry(ld, e->id);
	struct txc_json *row = txc_json_object(a, 8 + (snap ? snap->n : 0));
	txc_json_put(row, txc_str_c("id"), txc_json_string(a, e->id, strlen(e->id)));
	put_if(row, "source", either(txc_json_get(snap, "platform"), txc_json_get(meta, "platform")));
	put_if(row, "model", either(txc_json_get(snap, "model"), txc_json_get(meta, "model")));
	put_if(row, "system_prompt", txc_json_get(snap, "system_prompt"));
	const struct txc_json *start = either(txc_json_get(snap, "session_start"), txc_json_get(meta, "timestamp"));
	if (start != NULL)
		txc_json_put(row, txc_str_c("started_at"), seconds_json(a, start));
	else if (!isnan(first))
		txc_json_put(row, txc_str_c("started_at"), txc_json_real(a, first));
	const struct txc_json *count = h == NULL ? txc_json_get(snap, "message_count") : NULL;
	txc_json_put(row, txc_str_c("message_count"), count != NULL ? count : txc_json_int(a, (int64_t)n_rows));
	const struct txc_json *title = txc_json_get(ie, "display_name");
	if (title != NULL && title->kind == TXC_JSON_STRING)
		txc_json_put(row, txc_str_c("title"), txc_json_copy(a, title)); /* the index outlives no session */
	for (size_t i = 0; snap != NULL && i < snap->n; i++)
		if (!mapped_key(snap->keys[i]) && !has_key(row, snap->keys[i]))
			txc_json_put(row, snap->keys[i], snap->items[i]);
	return row;
}

/* ---- the backend ---- */

static void ld_close(void *impl)
{
	struct legacy_dir *ld = impl;
	for (size_t i = 0; i < ld->n; i++) {
		free(ld->v[i].id);
		free(ld->v[i].snapshot);
		free(ld->v[i].transcript);
	}
	for (size_t i = 0; ld->files != NULL && ld->files[i] != NULL; i++)
		free(ld->files[i]);
	free(ld->files);
	free(ld->index);
	free(ld->v);
	free(ld->path);
	txc_arena_free(ld->a);
	if (ld->dirfd >= 0)
		close(ld->dirfd);
	free(ld);
}

struct loaded {
	struct txc_transcript *t;
	struct txc_model_builder *mb; /* model only: rows are not kept */
	struct txc_json **rows;       /* else: heap while they come */
	size_t n, cap;
};

static void keep_row(void *ctx, const struct txc_json *row, struct txc_arena *scratch)
{
	struct loaded *l = ctx;
	if (l->mb != NULL) {
		txc_model_add_row(l->mb, row, scratch);
		return;
	}
	if (l->n == l->cap)
		l->rows = txc_xrealloc(l->rows, (l->cap = l->cap ? l->cap * 2 : 64) * sizeof(*l->rows));
	l->rows[l->n++] = (struct txc_json *)txc_json_copy(l->t->arena, row);
}

/* The snapshot's last_updated, else the last message's time. */
static void set_last_active(struct txc_transcript *t, const struct txc_json *snap, double last)
{
	const struct txc_json *v = txc_json_get(snap, "last_updated");
	struct txc_hermes_native *nv = txc_hermes_native(t);
	nv->last_active = v != NULL ? seconds_json(t->arena, v) : isnan(last) ? NULL : txc_json_real(t->arena, last);
}

/* The snapshot's messages as rows (in arena a, sharing their values). */
static const struct txc_json *snapshot_rows(struct txc_arena *a, const struct txc_json *msgs, const char *id)
{
	struct txc_json *rows = txc_json_array(a, msgs ? msgs->n : 0);
	int64_t place = 0;
	for (size_t i = 0; msgs != NULL && i < msgs->n; i++)
		if (is_message(msgs->items[i]))
			txc_json_push(rows, legacy_row(a, msgs->items[i], ++place, id));
	return rows;
}

static double first_time(const struct txc_json *rows)
{
	double x;
	for (size_t i = 0; i < rows->n; i++)
		if (!is_meta(rows->items[i]) && seconds_of(txc_json_get(rows->items[i], "timestamp"), &x))
			return x;
	return NAN;
}

static double last_time(const struct txc_json *rows)
{
	double x;
	for (size_t i = rows->n; i-- > 0;)
		if (!is_meta(rows->items[i]) && seconds_of(txc_json_get(rows->items[i], "timestamp"), &x))
			return x;
	return NAN;
}

/* A session with a snapshot only: its messages are the rows (kept when keep_rows). */
static int load_snapshot(struct legacy_dir *ld, const struct legacy_entry *e, bool keep_rows, struct txc_transcript *t,
			 struct txc_diag *d)
{
	struct txc_transcript *st = keep_rows ? t : txc_transcript_new(); /* a listing drops the messages */
	int rc = read_snapshot(ld, e, st, d);
	if (rc == TXC_OK) {
		struct txc_hermes_native *sn = txc_hermes_native(st);
		const struct txc_json *snap = txc_json_copy(t->arena, sn->session);
		const struct txc_json *rows = snapshot_rows(st->arena, sn->rows, e->id);
		txc_hermes_native(t)->session = session_row(t->arena, ld, e, snap, NULL, rows->n, first_time(rows));
		set_last_active(t, snap, last_time(rows));
		txc_hermes_native(t)->rows = keep_rows ? rows : txc_json_array(t->arena, 0);
	}
	if (st != t)
		txc_transcript_free(st);
	return rc;
}

/*
 * The session of entry e into t: session row, last_active, rows (or, with
 * model_only, the messages only; neither when !keep_rows, for a listing).
 * A gateway transcript is the session's messages; a snapshot beside it
 * gives the session's fields.
 */
static int load_entry(struct legacy_dir *ld, struct legacy_entry *e, bool model_only, bool keep_rows,
		      struct txc_transcript *t, struct txc_diag *d)
{
	if (e->transcript == NULL)
		return load_snapshot(ld, e, keep_rows, t, d);
	struct txc_hermes_native *nv = txc_hermes_native(t);
	const struct txc_json *snap = NULL;
	if (e->snapshot != NULL) {
		struct txc_transcript *st = txc_transcript_new();
		int rc = read_snapshot(ld, e, st, d);
		if (rc == TXC_OK)
			snap = txc_json_copy(t->arena, txc_hermes_native(st)->session);
		txc_transcript_free(st);
		if (rc)
			return rc;
	}
	/* a first pass for the session row, a second for the rows */
	struct transcript_head h, h2;
	int rc = read_transcript(ld, e, t->arena, &h, NULL, NULL, d);
	if (rc)
		return rc;
	nv->session = session_row(t->arena, ld, e, snap, &h, h.n_messages, h.first);
	set_last_active(t, snap, h.last);
	nv->rows = txc_json_array(t->arena, 0);
	if (!keep_rows)
		return TXC_OK;
	struct loaded l = {.t = t, .mb = model_only ? txc_model_begin(t) : NULL};
	rc = read_transcript(ld, e, NULL, &h2, keep_row, &l, d); /* bad lines were said in the first pass */
	if (l.mb != NULL)
		txc_model_end(l.mb);
	struct txc_json *rows = txc_json_array(t->arena, l.n);
	for (size_t i = 0; i < l.n; i++)
		txc_json_push(rows, l.rows[i]);
	nv->rows = rows;
	free(l.rows);
	return rc;
}

static int cmp_entry_id(const void *k, const void *e)
{
	return strcmp(k, ((const struct legacy_entry *)e)->id);
}

static int ld_load(void *impl, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d)
{
	struct legacy_dir *ld = impl;
	char *key = txc_xstrndup(id->text.ptr ? id->text.ptr : "", id->text.len);
	struct legacy_entry *e = NULL;
	if (strlen(key) == id->text.len && ld->n > 0)
		e = bsearch(key, ld->v, ld->n, sizeof(*ld->v), cmp_entry_id);
	free(key);
	if (e == NULL) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s'", (int)id->text.len,
			     id->text.ptr ? id->text.ptr : "", ld->path);
		return TXC_E_NOTFOUND;
	}
	struct txc_transcript *t = txc_transcript_new();
	int rc = load_entry(ld, e, (flags & TXC_LOAD_MODEL_ONLY) != 0, true, t, d);
	if (rc == TXC_OK && !(flags & TXC_LOAD_LAST_ACTIVE))
		txc_hermes_native(t)->last_active = NULL;
	if (rc) {
		txc_transcript_free(t);
		return rc;
	}
	*out = t;
	return TXC_OK;
}

/* A session that cannot be read is left out of a listing, and said (one warning per file). */
static int ld_sessions(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
		       struct txc_diag *d)
{
	struct legacy_dir *ld = impl;
	struct txc_session_info *v = txc_arena_array(a, ld->n ? ld->n : 1, sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < ld->n; i++) {
		struct legacy_entry *e = &ld->v[i];
		const struct txc_json *id = txc_json_string(a, e->id, strlen(e->id));
		if (flags & TXC_LIST_IDS_ONLY) {
			struct txc_json *row = txc_json_object(a, 1);
			txc_json_put(row, txc_str_c("id"), id);
			v[k] = (struct txc_session_info){.native = row, .started = NAN, .last_active = NAN};
			v[k++].sid = txc_source_sid(a, id, false, 0);
			continue;
		}
		struct txc_transcript *t = txc_transcript_new();
		struct txc_diag d1 = *d;
		if (load_entry(ld, e, false, false, t, &d1) != TXC_OK) {
			if (!e->warned)
				txc_diag_warn(d, TXC_W_LEGACY_UNREADABLE, d1.msg, 1);
			e->warned = true;
			txc_transcript_free(t);
			continue;
		}
		struct txc_hermes_native *nv = txc_hermes_native(t);
		const struct txc_json *s = nv->session;
		struct txc_json *row = txc_json_object(a, s->n + 1);
		for (size_t j = 0; j < s->n; j++)
			txc_json_put(row, txc_arena_str(a, s->keys[j].ptr, s->keys[j].len),
				     txc_json_copy(a, s->items[j]));
		if ((flags & TXC_LIST_LAST_ACTIVE) && nv->last_active != NULL)
			txc_json_put(row, txc_str_c("last_active"), txc_json_copy(a, nv->last_active));
		txc_transcript_free(t);
		txc_source_info(row, &v[k]);
		v[k++].sid = txc_source_sid(a, id, false, 0);
	}
	*out = v;
	*n = k;
	return TXC_OK;
}

/* ---- opening ---- */

static int cmp_entry(const void *x, const void *y)
{
	return strcmp(((const struct legacy_entry *)x)->id, ((const struct legacy_entry *)y)->id);
}

static void add_name(struct legacy_dir *ld, size_t *n_files, const char *name)
{
	ld->files = txc_xrealloc(ld->files, (*n_files + 2) * sizeof(*ld->files));
	ld->files[(*n_files)++] = txc_xstrdup(name);
	ld->files[*n_files] = NULL;
}

/* sessions.json: its entries (values of an object), for titles; anything else is ignored with a warning */
static void read_index(struct legacy_dir *ld, size_t *n_files, struct txc_diag *d)
{
	struct stat st;
	if (fstatat(ld->dirfd, "sessions.json", &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	add_name(ld, n_files, "sessions.json");
	struct txc_diag d1 = *d;
	FILE *f = S_ISREG(st.st_mode) ? open_in(ld, "sessions.json", &d1) : NULL;
	struct txc_buf all = TXC_BUF_INIT;
	char chunk[65536];
	size_t n;
	while (f != NULL && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		txc_buf_add(&all, chunk, n);
	const struct txc_json *o = NULL;
	if (f == NULL || ferror(f) || txc_json_parse(ld->a, all.buf ? all.buf : "", all.len, &o) != 0 ||
	    o->kind != TXC_JSON_OBJECT) {
		struct txc_buf w = TXC_BUF_INIT;
		txc_buf_addf(&w, "'%s/sessions.json' is not a routing index (no titles from it)", ld->path);
		txc_diag_warn(d, TXC_W_LEGACY_UNREADABLE, w.buf, 1);
		txc_buf_release(&w);
		o = NULL;
	}
	for (size_t i = 0; o != NULL && i < o->n; i++) { /* entries without a text id name no session */
		const char *sid = txc_json_cstr(txc_json_get(o->items[i], "session_id"));
		if (sid == NULL)
			continue;
		ld->index = txc_xrealloc(ld->index, (ld->n_index + 1) * sizeof(*ld->index));
		ld->index[ld->n_index++] = (struct routed){sid, o->items[i], i};
	}
	if (ld->n_index > 1)
		qsort(ld->index, ld->n_index, sizeof(*ld->index), cmp_routed);
	if (f != NULL)
		fclose(f);
	txc_buf_release(&all);
}

/* Every name of the folder that is a session file (request dumps and odd names never are), by id. */
static size_t scan_folder(struct legacy_dir *ld, DIR *dir, size_t *n_files)
{
	size_t skipped = 0;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		size_t off, len;
		enum txc_legacy_kind k = txc_legacy_name(de->d_name, &off, &len);
		if (k == TXC_LEGACY_NONE)
			continue; /* judged by its name alone: never stat'ed, opened or listed */
		struct stat st;
		if (fstatat(ld->dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
			skipped++; /* a symbolic link (not followed), a folder, a device */
			continue;
		}
		ld->v = txc_xrealloc(ld->v, (ld->n + 1) * sizeof(*ld->v));
		struct legacy_entry *e = &ld->v[ld->n++];
		memset(e, 0, sizeof(*e));
		e->id = txc_xstrndup(de->d_name + off, len);
		*(k == TXC_LEGACY_SNAPSHOT ? &e->snapshot : &e->transcript) = txc_xstrdup(de->d_name);
		add_name(ld, n_files, de->d_name);
	}
	return skipped;
}

/* One entry per id: a snapshot and a transcript of the same id are one session. */
static void merge_entries(struct legacy_dir *ld)
{
	if (ld->n > 1)
		qsort(ld->v, ld->n, sizeof(*ld->v), cmp_entry);
	size_t k = 0;
	for (size_t i = 0; i < ld->n; i++) {
		if (k > 0 && strcmp(ld->v[k - 1].id, ld->v[i].id) == 0) {
			struct legacy_entry *p = &ld->v[k - 1];
			if (p->snapshot == NULL)
				p->snapshot = ld->v[i].snapshot, ld->v[i].snapshot = NULL;
			if (p->transcript == NULL)
				p->transcript = ld->v[i].transcript, ld->v[i].transcript = NULL;
			free(ld->v[i].id);
			free(ld->v[i].snapshot);
			free(ld->v[i].transcript);
			continue;
		}
		ld->v[k++] = ld->v[i];
	}
	ld->n = k;
}

int txc_store_open_legacy(struct txc_store **out, const char *dir, struct txc_diag *d)
{
	*out = NULL;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = fd >= 0 ? fdopendir(dup(fd)) : NULL;
	if (dh == NULL) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		txc_diag_set(d, err == ENOENT ? TXC_E_NOTFOUND : TXC_E_FAIL,
			     "cannot read the legacy sessions folder '%s': %s", dir, strerror(err));
		return d->code;
	}
	struct legacy_dir *ld = txc_xcalloc(1, sizeof(*ld));
	ld->dirfd = fd;
	ld->path = txc_xstrdup(dir);
	ld->a = txc_arena_new(0);
	size_t n_files = 0;
	size_t skipped = scan_folder(ld, dh, &n_files);
	closedir(dh);
	merge_entries(ld);
	read_index(ld, &n_files, d);
	if (skipped)
		txc_diag_warn(d, TXC_W_LEGACY_SKIPPED, ld->path, skipped);
	*out = txc_store_new(&legacy_ops, ld, dir);
	return TXC_OK;
}

static const char *ld_file(void *impl, size_t i)
{
	struct legacy_dir *ld = impl;
	size_t n = 0;
	while (ld->files != NULL && ld->files[n] != NULL)
		n++;
	return i < n ? ld->files[i] : NULL;
}

static const struct txc_source_ops legacy_ops = {
	.name = "hermes-legacy",
	.caps = TXC_SRC_NATIVE_ROWS | TXC_SRC_BY_ID,
	.close = ld_close,
	.sessions = ld_sessions,
	.load = ld_load,
	.file = ld_file,
	.build = txc_hermes_build,
	.replay = txc_hermes_replay,
	.link = txc_source_link,
	.scan = txc_hermes_scan,
};
