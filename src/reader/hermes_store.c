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
	const char *rowid;     /* the name that reaches the sessions table's rowid, or NULL (WITHOUT ROWID) */
	bool wal_blocked;      /* a WAL store whose -shm cannot be made: read a snapshot */
	char *snapshot_dir;    /* private copy of the database and its WAL, removed on close */
	char *note;            /* said once by the CLI */
	sqlite3 *db;
	char *path;
	struct columns sess, msg;
	bool has_messages, has_prompts;
	sqlite3_stmt *q_session[2][2]; /* [bulk][by rowid] */
	sqlite3_stmt *q_messages, *q_messages_compacted;
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
	if (rc == SQLITE_READONLY_ROLLBACK) {
		/* a hot -journal: a writer stopped mid-transaction; rolling it back needs write access */
		txc_diag_set(d, TXC_E_FAIL, "'%s' has an unfinished write ('%s-journal'): Hermes is mid-write or was "
					    "interrupted, and a read-only reader cannot recover it; let Hermes open the "
					    "store once (or finish), then retry", s->path, s->path);
		return TXC_E_FAIL;
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

/*
 * A session is loaded by its rowid when the table has one: ids of any type,
 * NULL and repeated ids then still name exactly one row.
 */
static void find_rowid(struct txc_store *s)
{
	static const char *const names[] = {"rowid", "_rowid_", "oid"};
	s->rowid = NULL;
	for (size_t i = 0; i < 3 && s->rowid == NULL; i++) {
		char sql[64];
		sqlite3_stmt *st;
		if (has_col(&s->sess, names[i]))
			continue;
		snprintf(sql, sizeof(sql), "SELECT %s FROM sessions LIMIT 0", names[i]);
		if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK)
			s->rowid = names[i];
		sqlite3_finalize(st);
	}
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
	find_rowid(s);
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
	for (int i = 0; i < 4; i++)
		sqlite3_finalize(s->q_session[i / 2][i % 2]);
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

static int session_stmt(struct txc_store *s, bool bulk, bool by_rowid, sqlite3_stmt **out, struct txc_diag *d)
{
	sqlite3_stmt **slot = &s->q_session[bulk][by_rowid];
	if (*slot == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_addstr(&b, "SELECT s.*, ");
		resolved_prompt(s, &b);
		if (bulk) {
			txc_buf_addstr(&b, ", ");
			last_active_expr(s, &b);
		}
		if (by_rowid)
			txc_buf_addf(&b, " FROM sessions s WHERE s.%s = ?1", s->rowid);
		else
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

/* ---- session identity (model.h: struct txc_sid) ---- */

/* The identity of the session whose id is v, at place pos of its source (in arena a). */
static struct txc_sid make_sid(struct txc_arena *a, const struct txc_json *v, bool placed, int64_t pos)
{
	struct txc_sid id = {.placed = placed, .pos = pos};
	txc_model_id(a, v, &id.kind, &id.text);
	if (id.kind == TXC_ID_NONE) {
		struct txc_buf b = TXC_BUF_INIT;
		if (placed)
			txc_buf_addf(&b, "no-id~%lld", (long long)pos);
		else
			txc_buf_addstr(&b, "no-id");
		id.text = txc_arena_str(a, b.buf, b.len);
		txc_buf_release(&b);
	}
	return id;
}

static int cmp_bytes(struct txc_str a, struct txc_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
	return c ? c : (a.len > b.len) - (a.len < b.len);
}

static const struct txc_sid *repeat_sids; /* qsort has no context */

static int cmp_repeat(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct txc_sid *x = &repeat_sids[a], *y = &repeat_sids[b];
	int c = cmp_bytes(x->text, y->text);
	if (c)
		return c;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return (a > b) - (a < b);
}

/*
 * Identity texts name sessions on the command line, so they must differ
 * whatever the ids' types: of the sessions sharing one (a repeated id, or
 * 1 and "1"), the first in the source keeps it and the later ones become
 * "ID~2", "ID~3", ... (kind TXC_ID_DUP).
 */
static void number_repeats(struct txc_arena *a, struct txc_sid *v, size_t n)
{
	size_t *ix = txc_xmalloc((n ? n : 1) * sizeof(*ix));
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	repeat_sids = v;
	qsort(ix, n, sizeof(*ix), cmp_repeat);
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 1, run = 0; i < n; i++) {
		const struct txc_sid *first = &v[ix[i - run - 1]];
		run = cmp_bytes(first->text, v[ix[i]].text) == 0 ? run + 1 : 0;
		if (run == 0)
			continue;
		struct txc_sid *q = &v[ix[i]];
		txc_buf_reset(&b);
		txc_buf_add(&b, q->text.ptr, q->text.len);
		txc_buf_addf(&b, "~%zu", run + 1);
		q->text = txc_arena_str(a, b.buf, b.len);
		q->kind = TXC_ID_DUP;
	}
	txc_buf_release(&b);
	free(ix);
}

/* ", <rowid>, <archived>" after a SELECT list over sessions s: a row's place and whether it is archived */
static void identity_cols(struct txc_store *s, struct txc_buf *b)
{
	if (s->rowid != NULL)
		txc_buf_addf(b, ", s.%s", s->rowid);
	else
		txc_buf_addstr(b, ", NULL");
	txc_buf_addstr(b, has_col(&s->sess, "archived") ? ", COALESCE(s.archived = 1, 0)" : ", 0");
}

/* the identity of a row whose id is v and whose identity_cols() start at column i */
static struct txc_sid row_sid(struct txc_arena *a, sqlite3_stmt *st, const struct txc_json *v, int i)
{
	return make_sid(a, v, sqlite3_column_type(st, i) == SQLITE_INTEGER, sqlite3_column_int64(st, i));
}

/* ---- naming a session: exact id, else a unique prefix ---- */

struct prefix_match {
	const char *arg;
	size_t alen, matches, hlen;
	struct txc_sid found; /* text malloc'd */
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

static void match_keep(struct prefix_match *m, const struct txc_sid *id)
{
	free((char *)m->found.text.ptr);
	m->found = *id;
	m->found.text.ptr = txc_xstrndup(id->text.ptr, id->text.len);
}

/* false once an exact match ends the search */
static bool match_offer(struct prefix_match *m, const struct txc_sid *id)
{
	const char *v = id->text.ptr;
	size_t vlen = id->text.len;
	if (v == NULL || vlen < m->alen || memcmp(v, m->arg, m->alen) != 0)
		return true;
	if (vlen == m->alen) { /* exact match wins over any prefix */
		match_keep(m, id);
		m->matches = 1;
		return false;
	}
	if (m->matches++ == 0)
		match_keep(m, id);
	if (m->matches <= 10 && m->hlen + vlen + 4 < sizeof(m->d->hint))
		m->hlen += (size_t)snprintf(m->d->hint + m->hlen, sizeof(m->d->hint) - m->hlen, "  %.*s\n", (int)vlen, v);
	return true;
}

static int match_end(struct prefix_match *m, const char *where, struct txc_sid *id)
{
	struct txc_diag *d = m->d;
	if (m->matches == 0) {
		d->hint[0] = '\0';
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in '%s' (see 'txc list')", m->arg, where);
		return TXC_E_NOTFOUND;
	}
	if (m->matches > 1) {
		free((char *)m->found.text.ptr);
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

void txc_sid_release(struct txc_sid *id)
{
	free((char *)id->text.ptr);
	id->text = TXC_STR_NULL;
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

static double src_num(const struct txc_json *row, const char *key)
{
	const struct txc_json *v = txc_json_get(row, key);
	if (v != NULL && v->kind == TXC_JSON_REAL)
		return v->d;
	if (v != NULL && v->kind == TXC_JSON_INT)
		return strtod(v->s.ptr, NULL);
	return -1e300;
}

/* qsort has no context: the listing being sorted */
static struct {
	const struct txc_json *all;
	const struct txc_sid *sids;
	int key; /* 0 started_at, 1 last_active */
} src_sort;

static int src_cmp(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct txc_json *a = src_sort.all->items[ia], *b = src_sort.all->items[ib];
	if (src_sort.key) {
		double x = src_num(a, "last_active"), y = src_num(b, "last_active");
		if (x != y)
			return x > y ? -1 : 1;
	}
	double x = src_num(a, "started_at"), y = src_num(b, "started_at");
	if (x != y)
		return x > y ? -1 : 1;
	int c = -cmp_bytes(src_sort.sids[ia].text, src_sort.sids[ib].text);
	return c ? c : (ia > ib) - (ia < ib);
}

static bool src_archived(const struct txc_json *row)
{
	const struct txc_json *v = txc_json_get(row, "archived");
	return v != NULL && txc_json_truthy(v);
}

/* Every session of the source in its own order, with its identity (in arena a). */
static int src_all(struct txc_store *s, struct txc_arena *a, const struct txc_json **all, const struct txc_sid **sids,
		   struct txc_diag *d)
{
	int rc = s->src.sessions(s->src.impl, a, all, d);
	if (rc)
		return rc;
	size_t n = (*all)->n;
	struct txc_sid *v = txc_arena_array(a, n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = make_sid(a, txc_json_get((*all)->items[i], "id"), true, (int64_t)i + 1); /* 1: the first */
	number_repeats(a, v, n);
	*sids = v;
	return TXC_OK;
}

/* The places of the sessions wanted (archived ones or not), sorted by key; in arena a. */
static int src_sorted(struct txc_store *s, int key, bool archived, struct txc_arena *a, const struct txc_json **all,
		      const struct txc_sid **sids, size_t **order, size_t *n, struct txc_diag *d)
{
	int rc = src_all(s, a, all, sids, d);
	if (rc)
		return rc;
	size_t *v = txc_arena_array(a, (*all)->n ? (*all)->n : 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < (*all)->n; i++)
		if (archived || !src_archived((*all)->items[i]))
			v[(*n)++] = i;
	src_sort.all = *all, src_sort.sids = *sids, src_sort.key = key;
	qsort(v, *n, sizeof(*v), src_cmp);
	*order = v;
	return TXC_OK;
}

static int src_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_json **out,
			const struct txc_sid **sids_out, struct txc_diag *d)
{
	const struct txc_json *all;
	const struct txc_sid *sids;
	size_t *order, n;
	int rc = src_sorted(s, 0, flags & TXC_LIST_ARCHIVED, a, &all, &sids, &order, &n, d);
	if (rc)
		return rc;
	struct txc_json *v = txc_json_array(a, n);
	struct txc_sid *w = txc_arena_array(a, n ? n : 1, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		txc_json_push(v, all->items[order[i]]);
		w[i] = sids[order[i]];
	}
	*out = v;
	*sids_out = w;
	return TXC_OK;
}

static struct txc_sid sid_dup(const struct txc_sid *id)
{
	struct txc_sid c = *id;
	c.text.ptr = txc_xstrndup(id->text.ptr, id->text.len);
	return c;
}

static int src_export_order(struct txc_store *s, struct txc_sid **ids, size_t *n, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *all;
	const struct txc_sid *sids;
	size_t *order;
	int rc = src_sorted(s, 1, true, a, &all, &sids, &order, n, d);
	if (rc == TXC_OK) {
		*ids = txc_xmalloc((*n ? *n : 1) * sizeof(**ids));
		for (size_t i = 0; i < *n; i++)
			(*ids)[i] = sid_dup(&sids[order[i]]);
	}
	txc_arena_free(a);
	return rc;
}

static int src_resolve(struct txc_store *s, const char *arg, struct txc_sid *id, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *all;
	const struct txc_sid *sids;
	size_t *order, n;
	int rc = src_sorted(s, 0, true, a, &all, &sids, &order, &n, d);
	if (rc) {
		txc_arena_free(a);
		return rc;
	}
	struct prefix_match m;
	match_begin(&m, arg, d);
	for (size_t i = 0; i < n; i++)
		if (!match_offer(&m, &sids[order[i]]))
			break;
	txc_arena_free(a);
	return match_end(&m, s->path, id);
}

/* Where the session id names sits in the source's list: its place, or found by identity text. */
static int src_place(struct txc_store *s, const struct txc_sid *id, size_t *index, struct txc_diag *d)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *all;
	const struct txc_sid *sids;
	int rc = src_all(s, a, &all, &sids, d);
	if (rc == TXC_OK) {
		rc = TXC_E_NOTFOUND;
		for (size_t i = 0; i < all->n && rc != TXC_OK; i++)
			if (id->placed ? (int64_t)i + 1 == id->pos : cmp_bytes(sids[i].text, id->text) == 0)
				*index = i, rc = TXC_OK;
		if (rc != TXC_OK)
			txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s'", (int)id->text.len, id->text.ptr,
				     s->path);
	}
	txc_arena_free(a);
	return rc;
}

void txc_source_split(struct txc_transcript *t, const struct txc_json *obj)
{
	struct txc_hermes_native *nv = txc_hermes_native(t);
	struct txc_json *sess = txc_json_object(t->arena, obj->n);
	nv->rows = NULL;
	for (size_t i = 0; i < obj->n; i++) {
		if (txc_str_eq(obj->keys[i], "messages") && obj->items[i]->kind == TXC_JSON_ARRAY)
			nv->rows = obj->items[i];
		else if (txc_str_eq(obj->keys[i], "last_active"))
			nv->last_active = obj->items[i];
		else
			txc_json_put(sess, obj->keys[i], obj->items[i]);
	}
	if (nv->rows == NULL)
		nv->rows = txc_json_array(t->arena, 0);
	nv->session = sess;
}

/* a dashboard's export has no last_active; its session list does */
static void src_fill_last_active(struct txc_store *s, size_t index, struct txc_transcript *t)
{
	const struct txc_json *all;
	struct txc_diag d = {0};
	struct txc_hermes_native *nv = txc_hermes_native(t);
	if (nv->last_active != NULL || s->src.sessions(s->src.impl, t->arena, &all, &d) != TXC_OK || index >= all->n)
		return;
	nv->last_active = txc_json_get(all->items[index], "last_active");
}

/* The transcript is named by the identity it was loaded by, not by its raw id. */
static void name_transcript(struct txc_transcript *t, const struct txc_sid *id)
{
	t->meta.id_kind = id->kind;
	t->meta.id = txc_arena_str(t->arena, id->text.ptr ? id->text.ptr : "", id->text.len);
}

static int src_read(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		    struct txc_diag *d)
{
	size_t index;
	int rc = src_place(s, id, &index, d);
	if (rc == TXC_OK)
		rc = s->src.load(s->src.impl, index, t, d);
	if (rc == TXC_OK && (flags & TXC_LOAD_LAST_ACTIVE))
		src_fill_last_active(s, index, t);
	if (rc == TXC_OK && !(flags & TXC_LOAD_LAST_ACTIVE))
		txc_hermes_native(t)->last_active = NULL;
	return rc;
}

static int src_load(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		    struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	int rc = src_read(s, id, flags, t, d);
	if (rc) {
		txc_transcript_free(t);
		return rc;
	}
	txc_model_from_hermes(t);
	name_transcript(t, id);
	*out = t;
	return TXC_OK;
}

static int src_stream(struct txc_store *s, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
		      struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	int rc = src_read(s, id, flags, t, d);
	if (rc == TXC_OK) {
		const struct txc_json *rows = t->native->rows;
		name_transcript(t, id);
		t->native->rows = txc_json_array(t->arena, 0);
		rc = sink->head(sink->ctx, t);
		for (size_t i = 0; rc == TXC_OK && i < rows->n; i++)
			rc = sink->row(sink->ctx, rows->items[i]);
	}
	txc_transcript_free(t);
	return rc;
}

/* ---- queries ---- */

int txc_store_export_order(struct txc_store *s, struct txc_sid **ids, size_t *n, struct txc_diag *d)
{
	if (s->src.impl != NULL)
		return src_export_order(s, ids, n, d);
	struct txc_buf b = TXC_BUF_INIT;
	sqlite3_stmt *st;
	txc_buf_addstr(&b, "SELECT s.id");
	identity_cols(s, &b);
	txc_buf_addstr(&b, ", ");
	last_active_expr(s, &b);
	txc_buf_addstr(&b, " AS last_active FROM sessions s ORDER BY last_active DESC, ");
	col_or_null(&b, &s->sess, "s", "started_at");
	txc_buf_addstr(&b, " DESC, s.id DESC");
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "list the sessions of");
	size_t cap = 64, count = 0;
	struct txc_sid *v = txc_xmalloc(cap * sizeof(*v));
	struct txc_arena *a = txc_arena_new(0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == cap)
			v = txc_xrealloc(v, (cap *= 2) * sizeof(*v));
		v[count++] = row_sid(a, st, column_value(a, st, 0), 1);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		number_repeats(a, v, count);
		for (size_t i = 0; i < count; i++)
			v[i] = sid_dup(&v[i]);
	}
	txc_arena_free(a);
	if (rc != SQLITE_DONE) {
		free(v);
		return db_error(s, rc, d, "list the sessions of");
	}
	*ids = v;
	*n = count;
	return TXC_OK;
}

void txc_store_free_ids(struct txc_sid *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		txc_sid_release(&ids[i]);
	free(ids);
}

int txc_store_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_json **out,
		       const struct txc_sid **sids, struct txc_diag *d)
{
	if (s->src.impl != NULL)
		return src_sessions(s, flags, a, out, sids, d);
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
	identity_cols(s, &b); /* not part of the row; every session is read so that repeats are numbered alike */
	txc_buf_addstr(&b, " FROM sessions s");
	txc_buf_addstr(&b, has_col(&s->sess, "started_at") ? " ORDER BY started_at DESC, id DESC" : " ORDER BY id DESC");
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "list the sessions of");
	size_t cap = 64, n = 0;
	const struct txc_json **rows = txc_xmalloc(cap * sizeof(*rows));
	struct txc_sid *ids = txc_xmalloc(cap * sizeof(*ids));
	bool *archived = txc_xmalloc(cap * sizeof(*archived));
	int ncols = sqlite3_column_count(st) - 2;
	struct txc_str *keys = column_keys(a, st, ncols);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap *= 2;
			rows = txc_xrealloc(rows, cap * sizeof(*rows));
			ids = txc_xrealloc(ids, cap * sizeof(*ids));
			archived = txc_xrealloc(archived, cap * sizeof(*archived));
		}
		rows[n] = row_object(a, st, ncols, keys, false);
		ids[n] = row_sid(a, st, txc_json_get(rows[n], "id"), ncols);
		archived[n] = sqlite3_column_int(st, ncols + 1) != 0;
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(rows);
		free(ids);
		free(archived);
		return db_error(s, rc, d, "list the sessions of");
	}
	number_repeats(a, ids, n);
	struct txc_json *arr = txc_json_array(a, n);
	struct txc_sid *w = txc_arena_array(a, n ? n : 1, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		if (archived[i] && !(flags & TXC_LIST_ARCHIVED))
			continue;
		w[arr->n] = ids[i];
		txc_json_push(arr, rows[i]);
	}
	free(rows);
	free(ids);
	free(archived);
	*out = arr;
	*sids = w;
	return TXC_OK;
}

int txc_store_resolve(struct txc_store *s, const char *arg, struct txc_sid *id, struct txc_diag *d)
{
	if (s->src.impl != NULL)
		return src_resolve(s, arg, id, d);
	sqlite3_stmt *st;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "SELECT s.id");
	identity_cols(s, &b);
	txc_buf_addstr(&b, " FROM sessions s");
	if (has_col(&s->sess, "started_at"))
		txc_buf_addstr(&b, " ORDER BY s.started_at DESC");
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return db_error(s, rc, d, "look up a session in");
	struct txc_arena *a = txc_arena_new(0);
	size_t cap = 64, n = 0;
	struct txc_sid *v = txc_xmalloc(cap * sizeof(*v));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap)
			v = txc_xrealloc(v, (cap *= 2) * sizeof(*v));
		v[n++] = row_sid(a, st, column_value(a, st, 0), 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		txc_arena_free(a);
		return db_error(s, rc, d, "look up a session in");
	}
	number_repeats(a, v, n);
	struct prefix_match m;
	match_begin(&m, arg, d);
	for (size_t i = 0; i < n && match_offer(&m, &v[i]); i++)
		;
	free(v);
	txc_arena_free(a);
	return match_end(&m, s->path, id);
}

/* An id not placed by a listing (a WITHOUT ROWID table): bound as the type it was. */
static void bind_id(sqlite3_stmt *st, const struct txc_sid *id)
{
	char *text = txc_xstrndup(id->text.ptr, id->text.len);
	if (id->kind == TXC_ID_INT)
		sqlite3_bind_int64(st, 1, strtoll(text, NULL, 10));
	else if (id->kind == TXC_ID_REAL)
		sqlite3_bind_double(st, 1, strtod(text, NULL));
	else
		sqlite3_bind_text(st, 1, id->text.ptr, (int)id->text.len, SQLITE_TRANSIENT);
	free(text);
}

/* With a sink, rows go to it one at a time (built in a scratch arena) instead of into t->rows. */
static int load_once(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		     const struct txc_row_sink *sink, struct txc_diag *d, int *sqlrc)
{
	struct txc_arena *a = t->arena;
	sqlite3_stmt *st;
	bool bulk = flags & TXC_LOAD_LAST_ACTIVE, by_rowid = id->placed && s->rowid != NULL;
	int rc = session_stmt(s, bulk, by_rowid, &st, d);
	if (rc)
		return rc;
	if (by_rowid)
		sqlite3_bind_int64(st, 1, id->pos);
	else
		bind_id(st, id);
	*sqlrc = sqlite3_step(st);
	if (*sqlrc != SQLITE_ROW) {
		sqlite3_reset(st);
		if (*sqlrc == SQLITE_DONE) {
			txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s' (see 'txc list hermes')",
				     (int)id->text.len, id->text.ptr, s->path);
			return TXC_E_NOTFOUND;
		}
		return db_error(s, *sqlrc, d, "read a session from");
	}
	/* its messages are the rows whose session_id is this row's id, whatever its type */
	int id_col = 0;
	while ((size_t)id_col < s->sess.n && strcmp(s->sess.name[id_col], "id") != 0)
		id_col++;
	sqlite3_value *idv = sqlite3_value_dup(sqlite3_column_value(st, id_col));
	int ncols = (int)s->sess.n;
	struct txc_json *sess = (struct txc_json *)row_object(a, st, ncols, column_keys(a, st, ncols), false);
	const struct txc_json *prompt = column_value(a, st, ncols);
	for (size_t i = 0; i < sess->n; i++)
		if (txc_str_eq(sess->keys[i], "system_prompt"))
			sess->items[i] = prompt;
	struct txc_hermes_native *nv = txc_hermes_native(t);
	if (bulk)
		nv->last_active = column_value(a, st, ncols + 1);
	sqlite3_reset(st);
	nv->session = sess;

	struct txc_json *rows = txc_json_array(a, 0);
	nv->rows = rows;
	t->meta.id_kind = id->kind; /* for a sink's head; the model sets it again from the sid */
	t->meta.id = txc_arena_str(a, id->text.ptr ? id->text.ptr : "", id->text.len);
	if (sink != NULL && (rc = sink->head(sink->ctx, t)) != TXC_OK) {
		sqlite3_value_free(idv);
		return rc;
	}
	if (!s->has_messages || !has_col(&s->msg, "session_id")) {
		sqlite3_value_free(idv);
		return TXC_OK;
	}
	rc = messages_stmt(s, flags & TXC_LOAD_COMPACTED, &st, d);
	if (rc) {
		sqlite3_value_free(idv);
		return rc;
	}
	sqlite3_bind_value(st, 1, idv);
	sqlite3_value_free(idv);
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
static int read_session(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
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

int txc_store_load(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
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
			name_transcript(t, id);
			*out = t;
			return TXC_OK;
		}
		txc_transcript_free(t);
		if (!is_ioerr(sqlrc) || attempt == 3)
			return rc;
		sleep_ms(50);
	}
}

int txc_store_stream(struct txc_store *s, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
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
