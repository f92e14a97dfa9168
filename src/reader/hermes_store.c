/*
 * hermes_store.c - read Hermes Agent's state.db without ever changing it.
 *
 * Read-only rules (docs/ARCHITECTURE.md): file: URI with mode=ro and
 * SQLITE_OPEN_READONLY, never immutable=1, busy timeout 5 s, a probe query
 * right after open, SQLITE_IOERR retried three times 50 ms apart, one read
 * transaction per session.  Column lists come from PRAGMA table_info, so a
 * missing column is simply absent; session ids are always bound, never
 * interpolated into SQL.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "source.h"
#include "txc/json.h"
#include "txc/reader.h"

enum { MAX_COLS = 256 };

struct columns {
	char *name[MAX_COLS];
	size_t n;
};

struct txc_store {
	struct txc_source src; /* src.impl != NULL: not SQLite (source.h); db is NULL */
	size_t no_text_id;     /* sessions the last export order skipped */
	bool wal_blocked;      /* a WAL store whose -shm cannot be made: read a snapshot */
	char *snapshot_dir;    /* private copy of the database and its WAL, removed on close */
	char *note;            /* said once by the CLI */
	sqlite3 *db;
	char *path;
	struct columns sess, msg;
	bool has_messages, has_prompts;
	sqlite3_stmt *q_session, *q_session_bulk, *q_messages, *q_messages_compacted;
};

static const char busy_msg[] = "the Hermes store '%s' is busy (locked by another process); retry in a moment";

static bool has_col(const struct columns *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return true;
	return false;
}

static int db_error(struct txc_store *s, int rc, struct txc_diag *d, const char *what)
{
	int prim = rc & 0xff;
	if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED) {
		txc_diag_set(d, TXC_E_BUSY, busy_msg, s->path);
		return TXC_E_BUSY;
	}
	txc_diag_set(d, TXC_E_FAIL, "cannot %s '%s': %s", what, s->path,
		     s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
	return TXC_E_FAIL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static bool is_ioerr(int rc)
{
	return (rc & 0xff) == SQLITE_IOERR;
}

static int read_columns(struct txc_store *s, const char *table, struct columns *c, bool *exists)
{
	char sql[128];
	sqlite3_stmt *st;
	snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", table);
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (c->n == MAX_COLS)
			continue;
		const unsigned char *name = sqlite3_column_text(st, 1);
		c->name[c->n++] = txc_xstrdup(name ? (const char *)name : "");
	}
	sqlite3_finalize(st);
	*exists = c->n > 0;
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int table_exists(struct txc_store *s, const char *name, bool *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void uri_escape(struct txc_buf *b, const char *path)
{
	static const char hx[] = "0123456789ABCDEF";
	txc_buf_addstr(b, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p) != NULL) {
			txc_buf_addch(b, *p);
		} else {
			txc_buf_addch(b, '%');
			txc_buf_addch(b, hx[*p >> 4]);
			txc_buf_addch(b, hx[*p & 15]);
		}
	}
	txc_buf_addstr(b, "?mode=ro");
}

static int probe(struct txc_store *s, struct txc_diag *d)
{
	int rc = SQLITE_OK;
	bool sessions = false;
	for (int attempt = 0; attempt < 4; attempt++) {
		for (size_t i = 0; i < s->sess.n; i++)
			free(s->sess.name[i]);
		for (size_t i = 0; i < s->msg.n; i++)
			free(s->msg.name[i]);
		s->sess.n = s->msg.n = 0;
		rc = sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			rc = read_columns(s, "sessions", &s->sess, &sessions);
		if (rc == SQLITE_OK)
			rc = read_columns(s, "messages", &s->msg, &s->has_messages);
		if (rc == SQLITE_OK)
			rc = table_exists(s, "system_prompts", &s->has_prompts);
		if (!is_ioerr(rc))
			break;
		sleep_ms(50);
	}
	if ((rc & 0xff) == SQLITE_NOTADB) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is not a SQLite database (corrupt or not a Hermes store)", s->path);
		return TXC_E_FAIL;
	}
	if ((rc & 0xff) == SQLITE_CANTOPEN && s->db != NULL) {
		s->wal_blocked = true;
		txc_diag_set(d, TXC_E_FAIL,
			     "cannot open '%s' read-only: %s (a WAL store in a read-only folder needs its -shm file; "
			     "copy the store with its -wal file to a writable folder)",
			     s->path, sqlite3_errmsg(s->db));
		return TXC_E_FAIL;
	}
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "read");
	if (!sessions) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is not a Hermes store: it has no sessions table", s->path);
		return TXC_E_FAIL;
	}
	if (!has_col(&s->sess, "id")) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is not a Hermes store: its sessions table has no id column", s->path);
		return TXC_E_FAIL;
	}
	return TXC_OK;
}

/* Opens the connection (given by open_db) and probes it; owns s either way. */
static int store_finish(struct txc_store **out, struct txc_store *s, int rc, struct txc_diag *d)
{
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(s->db, 5000);
		rc = probe(s, d);
	} else {
		rc = db_error(s, rc, d, "open");
	}
	if (rc != TXC_OK) {
		txc_store_close(s);
		return rc;
	}
	*out = s;
	return TXC_OK;
}

static bool copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	bool ok = in != NULL && out != NULL;
	char buf[65536];
	size_t n;
	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	ok = ok && !ferror(in);
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = false;
	return ok;
}

static void remove_snapshot(const char *dir)
{
	static const char *const names[] = {"state.db", "state.db-wal", "state.db-shm"};
	char p[4200];
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

/*
 * A WAL store in a folder txc cannot write, without its -shm file: SQLite
 * cannot open it read-only.  No process can be writing it then (a writer
 * would have made the -shm), so a private copy of the database and its WAL
 * is the same snapshot; it is read instead, never with immutable=1.
 */
static int open_snapshot(struct txc_store **out, const char *path, struct txc_diag *d)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], db[4200], wal[4200], src_wal[4200];
	snprintf(dir, sizeof(dir), "%s/txc-snapshot-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	snprintf(src_wal, sizeof(src_wal), "%s-wal", path);
	if (mkdtemp(dir) == NULL) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is a WAL store in a read-only folder without its -shm file, and no "
					    "snapshot copy could be made: %s", path, strerror(errno));
		return TXC_E_FAIL;
	}
	snprintf(db, sizeof(db), "%s/state.db", dir);
	snprintf(wal, sizeof(wal), "%s/state.db-wal", dir);
	if (!copy_file(path, db) || (access(src_wal, F_OK) == 0 && !copy_file(src_wal, wal))) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is a WAL store in a read-only folder without its -shm file, and "
					    "copying it to '%s' failed: %s", path, dir, strerror(errno));
		remove_snapshot(dir);
		return TXC_E_FAIL;
	}
	int rc = txc_store_open(out, db, d);
	if (rc) {
		remove_snapshot(dir);
		return rc;
	}
	struct txc_store *s = *out;
	free(s->path);
	s->path = txc_xstrdup(path);
	s->snapshot_dir = txc_xstrdup(dir);
	struct txc_buf n = TXC_BUF_INIT;
	txc_buf_addf(&n, "'%s' is a WAL store in a read-only folder without its -shm file; reading a private "
			 "snapshot copy of it and its WAL",
		     path);
	s->note = txc_buf_detach(&n, NULL);
	return TXC_OK;
}

const char *txc_store_note(const struct txc_store *s)
{
	return s->note;
}

int txc_store_open(struct txc_store **out, const char *path, struct txc_diag *d)
{
	struct stat st;
	*out = NULL;
	if (stat(path, &st) != 0) {
		if (errno == ENOENT)
			txc_diag_set(d, TXC_E_NOTFOUND, "no Hermes store at '%s'", path);
		else
			txc_diag_set(d, TXC_E_FAIL, "cannot open '%s': %s", path, strerror(errno));
		return d->code;
	}
	if (!S_ISREG(st.st_mode)) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is not a regular file; give the path of state.db", path);
		return TXC_E_FAIL;
	}
	struct txc_store *s = txc_xcalloc(1, sizeof(*s));
	char *abs = realpath(path, NULL);
	s->path = txc_xstrdup(path);
	struct txc_buf uri = TXC_BUF_INIT;
	uri_escape(&uri, abs ? abs : path);
	free(abs);
	int rc = sqlite3_open_v2(uri.buf, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX, NULL);
	txc_buf_release(&uri);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(s->db, 5000);
		rc = probe(s, d);
		if (rc != TXC_OK && s->wal_blocked) {
			txc_store_close(s);
			return open_snapshot(out, path, d);
		}
		if (rc != TXC_OK) {
			txc_store_close(s);
			return rc;
		}
		*out = s;
		return TXC_OK;
	}
	return store_finish(out, s, rc, d);
}

int txc_store_open_image(struct txc_store **out, const void *image, size_t len, const char *name,
			 struct txc_diag *d)
{
	*out = NULL;
	struct txc_store *s = txc_xcalloc(1, sizeof(*s));
	s->path = txc_xstrdup(name);
	int rc = sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_EXRESCODE, NULL);
	if (rc == SQLITE_OK) {
		unsigned char *copy = sqlite3_malloc64(len ? len : 1);
		if (copy == NULL)
			rc = SQLITE_NOMEM;
		else if (len)
			memcpy(copy, image, len);
		if (copy != NULL)
			rc = sqlite3_deserialize(s->db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
						 SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
	}
	return store_finish(out, s, rc, d);
}

void txc_store_close(struct txc_store *s)
{
	if (s == NULL)
		return;
	if (s->src.impl != NULL)
		s->src.close(s->src.impl);
	sqlite3_finalize(s->q_session);
	sqlite3_finalize(s->q_session_bulk);
	sqlite3_finalize(s->q_messages);
	sqlite3_finalize(s->q_messages_compacted);
	sqlite3_close(s->db);
	for (size_t i = 0; i < s->sess.n; i++)
		free(s->sess.name[i]);
	for (size_t i = 0; i < s->msg.n; i++)
		free(s->msg.name[i]);
	if (s->snapshot_dir != NULL)
		remove_snapshot(s->snapshot_dir);
	free(s->snapshot_dir);
	free(s->note);
	free(s->path);
	free(s);
}

const char *txc_store_path(const struct txc_store *s)
{
	return s->path;
}

/* ---- SQL text ---- */

static void col_or_null(struct txc_buf *b, const struct columns *c, const char *alias, const char *name)
{
	if (has_col(c, name))
		txc_buf_addf(b, "%s.\"%s\"", alias, name);
	else
		txc_buf_addstr(b, "NULL");
}

/* COALESCE(sp.prompt, s.system_prompt): the prompt dedupe table wins */
static void resolved_prompt(struct txc_store *s, struct txc_buf *b)
{
	if (s->has_prompts && has_col(&s->sess, "system_prompt_hash")) {
		txc_buf_addstr(b, "COALESCE((SELECT sp.prompt FROM system_prompts sp WHERE sp.hash = s.system_prompt_hash), ");
		col_or_null(b, &s->sess, "s", "system_prompt");
		txc_buf_addch(b, ')');
	} else {
		col_or_null(b, &s->sess, "s", "system_prompt");
	}
}

static void last_active_expr(struct txc_store *s, struct txc_buf *b)
{
	txc_buf_addstr(b, "COALESCE((SELECT MAX(v) FROM (SELECT ");
	col_or_null(b, &s->sess, "s", "last_activity_at");
	txc_buf_addstr(b, " AS v UNION ALL SELECT ");
	if (s->has_messages && has_col(&s->msg, "timestamp") && has_col(&s->msg, "session_id"))
		txc_buf_addstr(b, "(SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = s.id)");
	else
		txc_buf_addstr(b, "NULL");
	txc_buf_addstr(b, ")), ");
	col_or_null(b, &s->sess, "s", "started_at");
	txc_buf_addch(b, ')');
}

static int prepare(struct txc_store *s, const char *sql, sqlite3_stmt **st, struct txc_diag *d)
{
	int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "query");
	return TXC_OK;
}

static int session_stmt(struct txc_store *s, bool bulk, sqlite3_stmt **out, struct txc_diag *d)
{
	sqlite3_stmt **slot = bulk ? &s->q_session_bulk : &s->q_session;
	if (*slot == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_addstr(&b, "SELECT s.*, ");
		resolved_prompt(s, &b);
		if (bulk) {
			txc_buf_addstr(&b, ", ");
			last_active_expr(s, &b);
		}
		txc_buf_addstr(&b, " FROM sessions s WHERE s.id = ?1");
		int rc = prepare(s, b.buf, slot, d);
		txc_buf_release(&b);
		if (rc)
			return rc;
	}
	*out = *slot;
	return TXC_OK;
}

static int messages_stmt(struct txc_store *s, bool compacted, sqlite3_stmt **out, struct txc_diag *d)
{
	sqlite3_stmt **slot = compacted ? &s->q_messages_compacted : &s->q_messages;
	if (*slot == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_addstr(&b, "SELECT * FROM messages WHERE session_id = ?1");
		if (has_col(&s->msg, "active")) {
			if (compacted && has_col(&s->msg, "compacted"))
				txc_buf_addstr(&b, " AND (active = 1 OR compacted = 1)");
			else
				txc_buf_addstr(&b, " AND active = 1");
		}
		txc_buf_addstr(&b, has_col(&s->msg, "id") ? " ORDER BY id" : " ORDER BY rowid");
		int rc = prepare(s, b.buf, slot, d);
		txc_buf_release(&b);
		if (rc)
			return rc;
	}
	*out = *slot;
	return TXC_OK;
}

/* ---- values ---- */

static const struct txc_json int_zero = {.kind = TXC_JSON_INT, .s = {"0", 1}};
static const struct txc_json int_one = {.kind = TXC_JSON_INT, .s = {"1", 1}};

/* Most columns of a row are NULL, 0 or 1: those share static nodes. */
static const struct txc_json *column_value(struct txc_arena *a, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER: {
		sqlite3_int64 x = sqlite3_column_int64(st, i);
		if (x == 0 || x == 1)
			return x ? &int_one : &int_zero;
		return txc_json_int(a, x);
	}
	case SQLITE_FLOAT: return txc_json_real(a, sqlite3_column_double(st, i));
	case SQLITE_TEXT: {
		const void *p = sqlite3_column_text(st, i);
		return txc_json_string(a, p, (size_t)sqlite3_column_bytes(st, i));
	}
	case SQLITE_BLOB: {
		const void *p = sqlite3_column_blob(st, i);
		struct txc_json *v = txc_json_new(a, TXC_JSON_BLOB);
		v->s = txc_arena_str(a, p, (size_t)sqlite3_column_bytes(st, i));
		return v;
	}
	default: return &txc_json_null_value;
	}
}

/* Column names as object keys, made once per statement and shared by its rows. */
static struct txc_str *column_keys(struct txc_arena *a, sqlite3_stmt *st, int ncols)
{
	struct txc_str *keys = txc_arena_array(a, (size_t)(ncols ? ncols : 1), sizeof(*keys));
	for (int i = 0; i < ncols; i++) {
		const char *name = sqlite3_column_name(st, i);
		keys[i] = txc_arena_str(a, name, strlen(name));
	}
	return keys;
}

/* content: "\0json:" + JSON is decoded; a parse failure keeps the text as is */
static const struct txc_json *decode_content(struct txc_arena *a, const struct txc_json *v)
{
	const struct txc_json *out;
	if (v->kind == TXC_JSON_STRING && v->s.len >= 6 && memcmp(v->s.ptr, "\0json:", 6) == 0 &&
	    txc_json_parse(a, v->s.ptr + 6, v->s.len - 6, &out) == 0)
		return out;
	return v;
}

static const struct txc_json *decode_tool_calls(struct txc_arena *a, const struct txc_json *v)
{
	const struct txc_json *out;
	if (!txc_json_truthy(v))
		return v;
	if ((v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_BLOB) && txc_json_parse(a, v->s.ptr, v->s.len, &out) == 0)
		return out;
	/* Hermes reads a value that is not JSON as []; the empty array keeps the text in s
	 * (never emitted) so that the model can still show it */
	struct txc_json *empty = txc_json_array(a, 0);
	if (v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_BLOB)
		empty->s = v->s;
	return empty;
}

static const struct txc_json *decode_metadata(struct txc_arena *a, const struct txc_json *v)
{
	const struct txc_json *out;
	if (v->kind != TXC_JSON_STRING || txc_json_parse(a, v->s.ptr, v->s.len, &out) != 0)
		return &txc_json_null_value;
	if (out->kind == TXC_JSON_STRING && txc_json_parse(a, out->s.ptr, out->s.len, &out) != 0)
		return &txc_json_null_value;
	return out->kind == TXC_JSON_OBJECT ? out : &txc_json_null_value;
}

/* keys: from column_keys(), shared (row objects are never modified in place) */
static const struct txc_json *row_object(struct txc_arena *a, sqlite3_stmt *st, int ncols, struct txc_str *keys,
					 bool message)
{
	struct txc_json *o = txc_json_new(a, TXC_JSON_OBJECT);
	const struct txc_json **items = txc_arena_array(a, (size_t)(ncols ? ncols : 1), sizeof(*items));
	for (int i = 0; i < ncols; i++) {
		const struct txc_json *v = column_value(a, st, i);
		if (message && v->kind != TXC_JSON_NULL) {
			const struct txc_str k = keys[i];
			if (txc_str_eq(k, "content"))
				v = decode_content(a, v);
			else if (txc_str_eq(k, "tool_calls"))
				v = decode_tool_calls(a, v);
			else if (txc_str_eq(k, "display_metadata"))
				v = decode_metadata(a, v);
		}
		items[i] = v;
	}
	o->items = items;
	o->keys = keys;
	o->n = (size_t)ncols;
	return o;
}

/* ---- naming a session: exact id, else a unique prefix ---- */

struct prefix_match {
	const char *arg;
	size_t alen, matches, hlen;
	char *found;
	struct txc_diag *d;
};

static void match_begin(struct prefix_match *m, const char *arg, struct txc_diag *d)
{
	memset(m, 0, sizeof(*m));
	m->arg = arg;
	m->alen = strlen(arg);
	m->d = d;
	d->hint[0] = '\0';
}

/* false once an exact match ends the search */
static bool match_offer(struct prefix_match *m, const char *v, size_t vlen)
{
	if (v == NULL || vlen < m->alen || memcmp(v, m->arg, m->alen) != 0)
		return true;
	if (vlen == m->alen) { /* exact match wins over any prefix */
		free(m->found);
		m->found = txc_xstrndup(v, vlen);
		m->matches = 1;
		return false;
	}
	if (m->matches++ == 0)
		m->found = txc_xstrndup(v, vlen);
	if (m->matches <= 10 && m->hlen + vlen + 4 < sizeof(m->d->hint))
		m->hlen += (size_t)snprintf(m->d->hint + m->hlen, sizeof(m->d->hint) - m->hlen, "  %.*s\n", (int)vlen, v);
	return true;
}

static int match_end(struct prefix_match *m, const char *where, char **id)
{
	struct txc_diag *d = m->d;
	if (m->matches == 0) {
		d->hint[0] = '\0';
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in '%s'", m->arg, where);
		return TXC_E_NOTFOUND;
	}
	if (m->matches > 1) {
		free(m->found);
		if (m->matches > 10)
			snprintf(d->hint + m->hlen, sizeof(d->hint) - m->hlen, "  ...and %zu more\n", m->matches - 10);
		txc_diag_set(d, TXC_E_AMBIGUOUS, "'%s' is the prefix of %zu sessions; add characters:", m->arg,
			     m->matches);
		return TXC_E_AMBIGUOUS;
	}
	d->hint[0] = '\0';
	*id = m->found;
	return TXC_OK;
}

/* ---- stores that are JSON sources (source.h) ---- */

int txc_store_from_source(struct txc_store **out, const char *name, const struct txc_source *src)
{
	struct txc_store *s = txc_xcalloc(1, sizeof(*s));
	s->src = *src;
	s->path = txc_xstrdup(name);
	*out = s;
	return TXC_OK;
}

static const struct txc_json *src_id(const struct txc_json *row)
{
	const struct txc_json *v = txc_json_get(row, "id");
	return v != NULL && (v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_INT) ? v : NULL;
}

static double src_num(const struct txc_json *row, const char *key)
{
	const struct txc_json *v = txc_json_get(row, key);
	if (v != NULL && v->kind == TXC_JSON_REAL)
		return v->d;
	if (v != NULL && v->kind == TXC_JSON_INT)
		return strtod(v->s.ptr, NULL);
	return -1e300;
}

static int cmp_bytes(struct txc_str a, struct txc_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = memcmp(a.ptr, b.ptr, n);
	return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int src_sort_key; /* 0 started_at, 1 last_active */

static int src_cmp(const void *pa, const void *pb)
{
	const struct txc_json *a = *(const struct txc_json *const *)pa, *b = *(const struct txc_json *const *)pb;
	if (src_sort_key) {
		double x = src_num(a, "last_active"), y = src_num(b, "last_active");
		if (x != y)
			return x > y ? -1 : 1;
	}
	double x = src_num(a, "started_at"), y = src_num(b, "started_at");
	if (x != y)
		return x > y ? -1 : 1;
	const struct txc_json *ia = src_id(a), *ib = src_id(b);
	if (ia == NULL || ib == NULL)
		return (ia == NULL) - (ib == NULL);
	return -cmp_bytes(ia->s, ib->s);
}

static bool src_archived(const struct txc_json *row)
{
	const struct txc_json *v = txc_json_get(row, "archived");
	return v != NULL && txc_json_truthy(v);
}

static int src_sorted(struct txc_store *s, int key, bool archived, struct txc_arena *a, struct txc_json **out,
		      struct txc_diag *d)
{
	const struct txc_json *all;
	int rc = s->src.sessions(s->src.impl, a, &all, d);
	if (rc)
		return rc;
	struct txc_json *v = txc_json_array(a, all->n);
	for (size_t i = 0; i < all->n; i++)
		if (archived || !src_archived(all->items[i]))
			txc_json_push(v, all->items[i]);
	src_sort_key = key;
	qsort(v->items, v->n, sizeof(*v->items), src_cmp);
	*out = v;
	return TXC_OK;
}

static int src_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_json **out,
			struct txc_diag *d)
{
	struct txc_json *v;
	int rc = src_sorted(s, 0, flags & TXC_LIST_ARCHIVED, a, &v, d);
	*out = v;
	return rc;
}

static int src_export_order(struct txc_store *s, char ***ids, size_t *n, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	struct txc_json *v;
	int rc = src_sorted(s, 1, true, a, &v, d);
	if (rc == TXC_OK) {
		*ids = txc_xmalloc((v->n ? v->n : 1) * sizeof(**ids));
		*n = 0;
		for (size_t i = 0; i < v->n; i++) {
			const struct txc_json *id = src_id(v->items[i]);
			if (id != NULL)
				(*ids)[(*n)++] = txc_xstrndup(id->s.ptr, id->s.len);
		}
	}
	txc_arena_free(a);
	return rc;
}

static int src_resolve(struct txc_store *s, const char *arg, char **id, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	struct txc_json *v;
	int rc = src_sorted(s, 0, true, a, &v, d);
	if (rc) {
		txc_arena_free(a);
		return rc;
	}
	struct prefix_match m;
	match_begin(&m, arg, d);
	for (size_t i = 0; i < v->n; i++) {
		const struct txc_json *iv = src_id(v->items[i]);
		if (iv != NULL && !match_offer(&m, iv->s.ptr, iv->s.len))
			break;
	}
	txc_arena_free(a);
	return match_end(&m, s->path, id);
}

void txc_source_split(struct txc_transcript *t, const struct txc_json *obj)
{
	struct txc_json *sess = txc_json_object(t->arena, obj->n);
	t->rows = NULL;
	for (size_t i = 0; i < obj->n; i++) {
		if (txc_str_eq(obj->keys[i], "messages") && obj->items[i]->kind == TXC_JSON_ARRAY)
			t->rows = obj->items[i];
		else if (txc_str_eq(obj->keys[i], "last_active"))
			t->last_active = obj->items[i];
		else
			txc_json_put(sess, obj->keys[i], obj->items[i]);
	}
	if (t->rows == NULL)
		t->rows = txc_json_array(t->arena, 0);
	t->session = sess;
}

/* a dashboard's export has no last_active; its session list does */
static void src_fill_last_active(struct txc_store *s, const char *id, struct txc_transcript *t)
{
	const struct txc_json *all;
	struct txc_diag d = {0};
	if (t->last_active != NULL || s->src.sessions(s->src.impl, t->arena, &all, &d) != TXC_OK)
		return;
	for (size_t i = 0; i < all->n; i++) {
		const struct txc_json *iv = src_id(all->items[i]);
		if (iv != NULL && iv->s.len == strlen(id) && memcmp(iv->s.ptr, id, iv->s.len) == 0) {
			t->last_active = txc_json_get(all->items[i], "last_active");
			return;
		}
	}
}

static int src_load(struct txc_store *s, const char *id, unsigned flags, struct txc_transcript **out,
		    struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	int rc = s->src.load(s->src.impl, id, t, d);
	if (rc == TXC_OK && (flags & TXC_LOAD_LAST_ACTIVE))
		src_fill_last_active(s, id, t);
	if (rc) {
		txc_transcript_free(t);
		return rc;
	}
	if (!(flags & TXC_LOAD_LAST_ACTIVE))
		t->last_active = NULL;
	txc_model_from_hermes(t);
	*out = t;
	return TXC_OK;
}

static int src_stream(struct txc_store *s, const char *id, unsigned flags, const struct txc_row_sink *sink,
		      struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	int rc = s->src.load(s->src.impl, id, t, d);
	if (rc == TXC_OK && (flags & TXC_LOAD_LAST_ACTIVE))
		src_fill_last_active(s, id, t);
	if (rc == TXC_OK) {
		const struct txc_json *rows = t->rows;
		if (!(flags & TXC_LOAD_LAST_ACTIVE))
			t->last_active = NULL;
		t->rows = txc_json_array(t->arena, 0);
		rc = sink->head(sink->ctx, t);
		for (size_t i = 0; rc == TXC_OK && i < rows->n; i++)
			rc = sink->row(sink->ctx, rows->items[i]);
	}
	txc_transcript_free(t);
	return rc;
}

/* ---- queries ---- */

size_t txc_store_skipped_ids(const struct txc_store *s)
{
	return s->no_text_id;
}

int txc_store_export_order(struct txc_store *s, char ***ids, size_t *n, struct txc_diag *d)
{
	s->no_text_id = 0;
	if (s->src.impl != NULL)
		return src_export_order(s, ids, n, d);
	struct txc_buf b = TXC_BUF_INIT;
	sqlite3_stmt *st;
	txc_buf_addstr(&b, "SELECT s.id, ");
	last_active_expr(s, &b);
	txc_buf_addstr(&b, " AS last_active FROM sessions s ORDER BY last_active DESC, ");
	col_or_null(&b, &s->sess, "s", "started_at");
	txc_buf_addstr(&b, " DESC, s.id DESC");
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "list the sessions of");
	size_t cap = 64, count = 0;
	char **v = txc_xmalloc(cap * sizeof(*v));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int type = sqlite3_column_type(st, 0);
		if (type != SQLITE_TEXT && type != SQLITE_INTEGER) {
			s->no_text_id++; /* NULL or BLOB: cannot be named by id */
			continue;
		}
		if (count == cap)
			v = txc_xrealloc(v, (cap *= 2) * sizeof(*v));
		v[count++] = txc_xstrndup((const char *)sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		txc_store_free_ids(v, count);
		return db_error(s, rc, d, "list the sessions of");
	}
	*ids = v;
	*n = count;
	return TXC_OK;
}

void txc_store_free_ids(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

int txc_store_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_json **out,
		       struct txc_diag *d)
{
	if (s->src.impl != NULL)
		return src_sessions(s, flags, a, out, d);
	struct txc_buf b = TXC_BUF_INIT;
	sqlite3_stmt *st;
	if (flags & TXC_LIST_BRIEF) {
		/* the columns a table and the filters use: a few instead of sixty */
		static const char *const cols[] = {"id", "source", "model", "started_at", "message_count", "cwd",
						   "title", "archived"};
		txc_buf_addstr(&b, "SELECT ");
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
			if (i)
				txc_buf_addstr(&b, ", ");
			col_or_null(&b, &s->sess, "s", cols[i]);
			txc_buf_addf(&b, " AS %s", cols[i]);
		}
	} else {
		txc_buf_addstr(&b, "SELECT s.*");
	}
	if (flags & TXC_LIST_LAST_ACTIVE) {
		txc_buf_addstr(&b, ", ");
		last_active_expr(s, &b);
		txc_buf_addstr(&b, " AS last_active");
	}
	txc_buf_addstr(&b, " FROM sessions s");
	if (!(flags & TXC_LIST_ARCHIVED) && has_col(&s->sess, "archived"))
		txc_buf_addstr(&b, " WHERE NOT (archived = 1)");
	txc_buf_addstr(&b, has_col(&s->sess, "started_at") ? " ORDER BY started_at DESC, id DESC" : " ORDER BY id DESC");
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "list the sessions of");
	size_t cap = 64, n = 0;
	const struct txc_json **rows = txc_xmalloc(cap * sizeof(*rows));
	int ncols = sqlite3_column_count(st);
	struct txc_str *keys = column_keys(a, st, ncols);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap)
			rows = txc_xrealloc(rows, (cap *= 2) * sizeof(*rows));
		rows[n++] = row_object(a, st, ncols, keys, false);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(rows);
		return db_error(s, rc, d, "list the sessions of");
	}
	struct txc_json *arr = txc_json_array(a, n);
	for (size_t i = 0; i < n; i++)
		txc_json_push(arr, rows[i]);
	free(rows);
	*out = arr;
	return TXC_OK;
}

int txc_store_resolve(struct txc_store *s, const char *arg, char **id, struct txc_diag *d)
{
	if (s->src.impl != NULL)
		return src_resolve(s, arg, id, d);
	sqlite3_stmt *st;
	const char *order = has_col(&s->sess, "started_at") ? " ORDER BY started_at DESC" : "";
	char sql[128];
	snprintf(sql, sizeof(sql), "SELECT id FROM sessions%s", order);
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "look up a session in");
	struct prefix_match m;
	match_begin(&m, arg, d);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!match_offer(&m, (const char *)sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0))) {
			rc = SQLITE_DONE;
			break;
		}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(m.found);
		return db_error(s, rc, d, "look up a session in");
	}
	return match_end(&m, s->path, id);
}

/* With a sink, rows go to it one at a time (built in a scratch arena) instead of into t->rows. */
static int load_once(struct txc_store *s, const char *id, unsigned flags, struct txc_transcript *t,
		     const struct txc_row_sink *sink, struct txc_diag *d, int *sqlrc)
{
	struct txc_arena *a = t->arena;
	sqlite3_stmt *st;
	bool bulk = flags & TXC_LOAD_LAST_ACTIVE;
	int rc = session_stmt(s, bulk, &st, d);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	*sqlrc = sqlite3_step(st);
	if (*sqlrc != SQLITE_ROW) {
		sqlite3_reset(st);
		if (*sqlrc == SQLITE_DONE) {
			txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in '%s'", id, s->path);
			return TXC_E_NOTFOUND;
		}
		return db_error(s, *sqlrc, d, "read a session from");
	}
	int ncols = (int)s->sess.n;
	struct txc_json *sess = (struct txc_json *)row_object(a, st, ncols, column_keys(a, st, ncols), false);
	const struct txc_json *prompt = column_value(a, st, ncols);
	for (size_t i = 0; i < sess->n; i++)
		if (txc_str_eq(sess->keys[i], "system_prompt"))
			sess->items[i] = prompt;
	if (bulk)
		t->last_active = column_value(a, st, ncols + 1);
	sqlite3_reset(st);
	t->session = sess;

	struct txc_json *rows = txc_json_array(a, 0);
	t->rows = rows;
	if (sink != NULL && (rc = sink->head(sink->ctx, t)) != TXC_OK)
		return rc;
	if (!s->has_messages || !has_col(&s->msg, "session_id"))
		return TXC_OK;
	rc = messages_stmt(s, flags & TXC_LOAD_COMPACTED, &st, d);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	size_t cap = 0;
	int mcols = sqlite3_column_count(st);
	struct txc_str *keys = column_keys(a, st, mcols);
	bool model_only = (flags & TXC_LOAD_MODEL_ONLY) && sink == NULL;
	struct txc_arena *scratch = sink != NULL || model_only ? txc_arena_new(0) : NULL;
	struct txc_model_builder *mb = model_only ? txc_model_begin(t) : NULL;
	while ((*sqlrc = sqlite3_step(st)) == SQLITE_ROW) {
		if (model_only) {
			txc_model_add_row(mb, row_object(scratch, st, mcols, keys, true), scratch);
			txc_arena_reset(scratch);
			continue;
		}
		if (sink != NULL) {
			rc = sink->row(sink->ctx, row_object(scratch, st, mcols, keys, true));
			txc_arena_reset(scratch);
			if (rc != TXC_OK)
				break;
			continue;
		}
		if (rows->n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			const struct txc_json **items = txc_arena_array(a, ncap, sizeof(*items));
			if (rows->n)
				memcpy(items, rows->items, rows->n * sizeof(*items));
			rows->items = items;
			cap = ncap;
		}
		rows->items[rows->n++] = row_object(a, st, mcols, keys, true);
	}
	sqlite3_reset(st);
	txc_arena_free(scratch);
	if (mb != NULL)
		txc_model_end(mb);
	if (rc != TXC_OK)
		return rc;
	if (*sqlrc != SQLITE_DONE)
		return db_error(s, *sqlrc, d, "read the messages of a session from");
	return TXC_OK;
}

/* One read transaction: the session and its messages come from one snapshot. */
static int read_session(struct txc_store *s, const char *id, unsigned flags, struct txc_transcript *t,
			const struct txc_row_sink *sink, struct txc_diag *d, int *sqlrc)
{
	*sqlrc = SQLITE_OK;
	int rc = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "read");
	rc = load_once(s, id, flags, t, sink, d, sqlrc);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

int txc_store_load(struct txc_store *s, const char *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d)
{
	if (s->src.impl != NULL)
		return src_load(s, id, flags, out, d);
	for (int attempt = 0;; attempt++) {
		struct txc_transcript *t = txc_transcript_new();
		int sqlrc;
		int rc = read_session(s, id, flags, t, NULL, d, &sqlrc);
		if (rc == TXC_OK) {
			if (t->messages == NULL) /* not built while reading */
				txc_model_from_hermes(t);
			*out = t;
			return TXC_OK;
		}
		txc_transcript_free(t);
		if (!is_ioerr(sqlrc) || attempt == 3)
			return rc;
		sleep_ms(50);
	}
}

int txc_store_stream(struct txc_store *s, const char *id, unsigned flags, const struct txc_row_sink *sink,
		     struct txc_diag *d)
{
	if (s->src.impl != NULL)
		return src_stream(s, id, flags, sink, d);
	struct txc_transcript *t = txc_transcript_new();
	int sqlrc;
	/* no retry here: rows already handed on cannot be taken back */
	int rc = read_session(s, id, flags, t, sink, d, &sqlrc);
	txc_transcript_free(t);
	return rc;
}
