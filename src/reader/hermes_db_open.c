/*
 * hermes_db_open.c - open Hermes Agent's state.db without ever changing it.
 *
 * Read-only rules (docs/ARCHITECTURE.md): file: URI with mode=ro and
 * SQLITE_OPEN_READONLY, never immutable=1, busy timeout 5 s, a probe query
 * right after open, SQLITE_IOERR retried three times 50 ms apart; a WAL
 * store that cannot be opened read-only is read from a private snapshot.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hermes_db.h"

static const char busy_msg[] = "the Hermes store '%s' is busy (locked by another process); retry in a moment";

bool txc_hermes_db_has_col(const struct columns *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return true;
	return false;
}

int txc_hermes_db_error(struct hermes_db *s, int rc, struct txc_diag *d, const char *what)
{
	int prim = rc & 0xff;
	if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED) {
		txc_diag_set(d, TXC_E_BUSY, busy_msg, s->path);
		return TXC_E_BUSY;
	}
	if (rc == SQLITE_READONLY_ROLLBACK) {
		/* a hot -journal: a writer stopped mid-transaction; rolling it back needs write access */
		txc_diag_set(d, TXC_E_FAIL,
			     "'%s' has an unfinished write ('%s-journal'): Hermes is mid-write or was "
			     "interrupted, and a read-only reader cannot recover it; let Hermes open the "
			     "store once (or finish), then retry",
			     s->path, s->path);
		return TXC_E_FAIL;
	}
	txc_diag_set(d, TXC_E_FAIL, "cannot %s '%s': %s", what, s->path,
		     s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
	return TXC_E_FAIL;
}

bool txc_hermes_db_is_ioerr(int rc)
{
	return (rc & 0xff) == SQLITE_IOERR;
}

static int read_columns(struct hermes_db *s, const char *table, struct columns *c, bool *exists)
{
	char sql[128];
	sqlite3_stmt *st;
	snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", table);
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (c->n == c->cap)
			c->name = txc_xrealloc(c->name, (c->cap = c->cap ? c->cap * 2 : 32) * sizeof(*c->name));
		const unsigned char *name = sqlite3_column_text(st, 1);
		c->name[c->n++] = txc_xstrdup(name ? (const char *)name : "");
		if (sqlite3_column_int(st, 5) > 0) /* its place in the primary key */
			c->pk_is_id = c->n_pk++ == 0 && sqlite3_stricmp(c->name[c->n - 1], "id") == 0;
	}
	sqlite3_finalize(st);
	*exists = c->n > 0;
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int table_exists(struct hermes_db *s, const char *name, bool *out)
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
	txc_buf_addstr(b, "file:");
	txc_buf_add_pct(b, path, "/-._~");
	txc_buf_addstr(b, "?mode=ro");
}

/*
 * A session is loaded by its rowid when the table has one: ids of any type,
 * NULL and repeated ids then still name exactly one row.
 */
static void find_rowid(struct hermes_db *s)
{
	static const char *const names[] = {"rowid", "_rowid_", "oid"};
	s->rowid = NULL;
	/* a view's rowid is NULL in every row: it names no row (fingerprints matched by it went all to one) */
	sqlite3_stmt *v;
	bool view =
		sqlite3_prepare_v2(
			s->db, "SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'sessions' COLLATE NOCASE",
			-1, &v, NULL) == SQLITE_OK &&
		sqlite3_step(v) == SQLITE_ROW;
	sqlite3_finalize(v);
	for (size_t i = 0; i < 3 && s->rowid == NULL && !view; i++) {
		char sql[64];
		sqlite3_stmt *st;
		bool taken = false; /* (a column ROWID or Oid takes the name too: SQLite's names know no case) */
		for (size_t k = 0; k < s->sess.n && !taken; k++)
			taken = sqlite3_stricmp(s->sess.name[k], names[i]) == 0;
		if (taken)
			continue;
		snprintf(sql, sizeof(sql), "SELECT %s FROM sessions LIMIT 0", names[i]);
		if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK)
			s->rowid = names[i];
		sqlite3_finalize(st);
	}
}

static int probe(struct hermes_db *s, struct txc_diag *d)
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
		if (!txc_hermes_db_is_ioerr(rc))
			break;
		txc_sleep_ms(50);
	}
	if ((rc & 0xff) == SQLITE_NOTADB) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is not a SQLite database (corrupt or not a Hermes store)", s->path);
		return TXC_E_FAIL;
	}
	/* a WAL store whose -shm cannot be made (a read-only folder): SQLITE_CANTOPEN, or with no -wal
	 * either, SQLITE_READONLY_CANTINIT / _CANTLOCK / _DIRECTORY; a hot -journal is another case */
	bool wal_shm = (rc & 0xff) == SQLITE_CANTOPEN || rc == SQLITE_READONLY_CANTINIT ||
		       rc == SQLITE_READONLY_CANTLOCK || rc == SQLITE_READONLY_DIRECTORY;
	if (wal_shm && s->db != NULL) {
		s->wal_blocked = true;
		txc_diag_set(d, TXC_E_FAIL,
			     "cannot open '%s' read-only: %s (a WAL store in a read-only folder needs its -shm file; "
			     "copy the store with its -wal file to a writable folder)",
			     s->path, sqlite3_errmsg(s->db));
		return TXC_E_FAIL;
	}
	if (rc != SQLITE_OK)
		return txc_hermes_db_error(s, rc, d, "read");
	if (!sessions) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is not a Hermes store: it has no sessions table", s->path);
		return TXC_E_FAIL;
	}
	if (!txc_hermes_db_has_col(&s->sess, "id")) {
		txc_diag_set(d, TXC_E_FAIL, "'%s' is not a Hermes store: its sessions table has no id column", s->path);
		return TXC_E_FAIL;
	}
	find_rowid(s);
	return TXC_OK;
}

/* Opens the connection (given by open_db) and probes it; owns s either way. */
static int store_finish(struct hermes_db **out, struct hermes_db *s, int rc, struct txc_diag *d)
{
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(s->db, 5000);
		rc = probe(s, d);
	} else {
		rc = txc_hermes_db_error(s, rc, d, "open");
	}
	if (rc != TXC_OK) {
		txc_hermes_db_close(s);
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

static const char *const snapshot_names[] = {"state.db", "state.db-wal", "state.db-shm"};

static void remove_snapshot(const char *dir, int guard)
{
	char p[4200];
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, snapshot_names[i]);
		unlink(p);
	}
	rmdir(dir);
	txc_tmp_unguard(guard);
}

/* Ctrl-C, a kill or `| head` while the copy is made or read: removed too (a store of gigabytes) */
static int guard_snapshot(const char *dir)
{
	char p[3][4200];
	for (size_t i = 0; i < 3; i++)
		snprintf(p[i], sizeof(p[i]), "%s/%s", dir, snapshot_names[i]);
	const char *const paths[] = {p[0], p[1], p[2], dir, NULL};
	return txc_tmp_guard(paths);
}

/*
 * A WAL store in a folder txc cannot write, without its -shm file: SQLite
 * cannot open it read-only.  No process can be writing it then (a writer
 * would have made the -shm), so a private copy of the database and its WAL
 * is the same snapshot; it is read instead, never with immutable=1.
 */
static int db_open(struct hermes_db **out, const char *path, struct txc_diag *d);

static int open_snapshot(struct hermes_db **out, const char *path, struct txc_diag *d)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], db[4200], wal[4200], src_wal[4200];
	snprintf(dir, sizeof(dir), "%s/txc-snapshot-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	snprintf(src_wal, sizeof(src_wal), "%s-wal", path);
	if (mkdtemp(dir) == NULL) {
		txc_diag_set(d, TXC_E_FAIL,
			     "'%s' is a WAL store in a read-only folder without its -shm file, and no "
			     "snapshot copy could be made: %s",
			     path, strerror(errno));
		return TXC_E_FAIL;
	}
	int guard = guard_snapshot(dir);
	snprintf(db, sizeof(db), "%s/state.db", dir);
	snprintf(wal, sizeof(wal), "%s/state.db-wal", dir);
	if (!copy_file(path, db) || (access(src_wal, F_OK) == 0 && !copy_file(src_wal, wal))) {
		txc_diag_set(d, TXC_E_FAIL,
			     "'%s' is a WAL store in a read-only folder without its -shm file, and "
			     "copying it to '%s' failed: %s",
			     path, dir, strerror(errno));
		remove_snapshot(dir, guard);
		return TXC_E_FAIL;
	}
	int rc = db_open(out, db, d);
	if (rc) {
		remove_snapshot(dir, guard);
		return rc;
	}
	struct hermes_db *s = *out;
	free(s->path);
	s->path = txc_xstrdup(path);
	s->snapshot_dir = txc_xstrdup(dir);
	s->snapshot_guard = guard;
	struct txc_buf n = TXC_BUF_INIT;
	txc_buf_addf(&n,
		     "'%s' is a WAL store in a read-only folder without its -shm file; reading a private "
		     "snapshot copy of it and its WAL",
		     path);
	s->note = txc_buf_detach(&n, NULL);
	return TXC_OK;
}

const char *txc_hermes_db_note(void *impl)
{
	const struct hermes_db *s = impl;
	return s->note;
}

/* Open path read-only (or, below, an in-memory image) and probe it: a connection owned by *out. */
static int db_open(struct hermes_db **out, const char *path, struct txc_diag *d)
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
	struct hermes_db *s = txc_xcalloc(1, sizeof(*s));
	char *abs = realpath(path, NULL);
	s->path = txc_xstrdup(path);
	struct txc_buf uri = TXC_BUF_INIT;
	uri_escape(&uri, abs ? abs : path);
	free(abs);
	int rc = sqlite3_open_v2(uri.buf, &s->db,
				 SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX,
				 NULL);
	txc_buf_release(&uri);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(s->db, 5000);
		rc = probe(s, d);
		if (rc != TXC_OK && s->wal_blocked) {
			txc_hermes_db_close(s);
			return open_snapshot(out, path, d);
		}
		if (rc != TXC_OK) {
			txc_hermes_db_close(s);
			return rc;
		}
		/* 512 KiB of pages, not SQLite's 2 MiB: txc reads each page about once (a listing, a
		 * session's rows in order), so a bigger cache only costs the memory it touches (a
		 * re-run of a bulk export: 390 fewer page faults; nothing slower).  After the probe:
		 * the schema is read, so this waits for no lock. */
		sqlite3_exec(s->db, "PRAGMA cache_size = -512", NULL, NULL, NULL);
		*out = s;
		return TXC_OK;
	}
	return store_finish(out, s, rc, d);
}

static int db_open_image(struct hermes_db **out, const void *image, size_t len, const char *name, struct txc_diag *d)
{
	*out = NULL;
	struct hermes_db *s = txc_xcalloc(1, sizeof(*s));
	s->path = txc_xstrdup(name);
	int rc = sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_EXRESCODE, NULL);
	if (rc == SQLITE_OK) {
		unsigned char *copy = sqlite3_malloc64(len ? len : 1);
		if (copy == NULL)          /* LCOV_EXCL_BR_LINE: out of memory */
			rc = SQLITE_NOMEM; /* LCOV_EXCL_LINE */
		else if (len)
			memcpy(copy, image, len);
		if (copy != NULL)
			rc = sqlite3_deserialize(s->db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
						 SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
	}
	return store_finish(out, s, rc, d);
}

/*
 * Whether each session's identity is its id as stored, whatever the rest of the table holds: a
 * rowid table whose primary key is id alone (a text key of a rowid table: a unique index keeps
 * the ids distinct, under any collation at least as strict as bytes; an INTEGER one is the rowid,
 * and not text), none NULL or empty, and all text (the least and the greatest are: SQLite orders
 * numbers before text and blobs after).  Four seeks of that index, not a read of the table: then
 * no "ID~2" and no "no-id~N" can be, and one session's row names it as a listing would.
 */
bool txc_hermes_db_ids_plain(void *impl)
{
	struct hermes_db *s = impl;
	static const char sql[] =
		"SELECT typeof((SELECT min(id) FROM sessions)) = 'text' AND typeof((SELECT max(id) FROM sessions)) = "
		"'text' AND NOT EXISTS (SELECT 1 FROM sessions WHERE id IS NULL) AND NOT EXISTS (SELECT 1 FROM "
		"sessions WHERE id = '')";
	sqlite3_stmt *st;
	if (s->rowid == NULL || s->sess.n_pk != 1 || !s->sess.pk_is_id ||
	    sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	bool plain = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
	return plain;
}

void txc_hermes_db_close(void *impl)
{
	struct hermes_db *s = impl;
	if (s == NULL)
		return;
	for (int i = 0; i < 4; i++)
		sqlite3_finalize(s->q_session[i / 2][i % 2]);
	sqlite3_finalize(s->q_messages);
	sqlite3_finalize(s->q_messages_compacted);
	sqlite3_finalize(s->q_after[0]);
	sqlite3_finalize(s->q_after[1]);
	sqlite3_finalize(s->q_numbered);
	sqlite3_finalize(s->q_one);
	sqlite3_close(s->db);
	for (size_t i = 0; i < s->sess.n; i++)
		free(s->sess.name[i]);
	for (size_t i = 0; i < s->msg.n; i++)
		free(s->msg.name[i]);
	free(s->sess.name);
	free(s->msg.name);
	if (s->snapshot_dir != NULL)
		remove_snapshot(s->snapshot_dir, s->snapshot_guard);
	free(s->snapshot_dir);
	free(s->note);
	free(s->path);
	free(s);
}

/* ---- the public openers: a store over this backend ---- */

int txc_store_open(struct txc_store **out, const char *path, struct txc_diag *d)
{
	struct hermes_db *s;
	*out = NULL;
	int rc = db_open(&s, path, d);
	if (rc == TXC_OK)
		*out = txc_store_new(&txc_hermes_db_ops, s, s->path);
	return rc;
}

int txc_store_open_image(struct txc_store **out, const void *image, size_t len, const char *name, struct txc_diag *d)
{
	struct hermes_db *s;
	*out = NULL;
	int rc = db_open_image(&s, image, len, name, d);
	if (rc == TXC_OK)
		*out = txc_store_new(&txc_hermes_db_ops, s, s->path);
	return rc;
}
