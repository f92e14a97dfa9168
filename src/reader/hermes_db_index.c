/*
 * hermes_db_index.c - txc's own search index of the rows Hermes's
 * messages_fts does not hold as txc reads them (tool rows past its first
 * 8,192 characters, "\0json:" content, replies in api_content and
 * codex_message_items), kept in the user's cache folder
 * ($XDG_CACHE_HOME/txc, else ~/.cache/txc), never in Hermes's home.
 *
 * The index only narrows, as Hermes's does: every row it offers is read
 * from the store and checked against the query in C, so a stale or planted
 * index can never add a hit.  It could only hide one, so it is used only
 * when its stamp equals the store's now: the store file's and its WAL's
 * identity, size, mtime and headers (every commit changes one of them:
 * the change counter, the WAL's size or salts), the schema cookie, the
 * largest row id, Hermes's index's structure record and the rows' selection;
 * any difference and it is rebuilt from one scan (the scan a search without
 * it makes anyway) into a new file renamed over the old one.  Deleting the
 * folder loses nothing.  The folder must be the user's own, not a symlink,
 * not writable by others; else no index is used or made.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hermes_db.h"

enum { HEAD = 100, WAL_HEAD = 32 };

/* The first n bytes of path (no symlink followed) as hex into b, or "-" when unreadable. */
static void add_head(struct txc_buf *b, const char *path, size_t n)
{
	unsigned char h[HEAD];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : pread(fd, h, n, 0);
	if (fd >= 0)
		close(fd);
	if (got < 0)
		txc_buf_addstr(b, "-");
	for (ssize_t i = 0; i < got; i++)
		txc_buf_addf(b, "%02x", h[i]);
	txc_buf_addch(b, ' ');
}

static void add_stat(struct txc_buf *b, const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		txc_buf_addstr(b, "none ");
		return;
	}
	txc_buf_addf(b, "%llu:%llu:%lld:%lld.%09ld ", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		     (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

/* One value of a query on the store as text into b ("-" when none). */
static void add_sql(struct txc_buf *b, sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		unsigned char h[32];
		txc_sha256(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0), h);
		for (int i = 0; i < 8; i++)
			txc_buf_addf(b, "%02x", h[i]);
	} else {
		txc_buf_addstr(b, "-");
	}
	sqlite3_finalize(st);
	txc_buf_addch(b, ' ');
}

void txc_hermes_db_index_stamp(struct hermes_db *s, const char *cond, struct txc_buf *b)
{
	struct txc_buf wal = TXC_BUF_INIT;
	txc_buf_addf(&wal, "%s-wal", s->path);
	txc_buf_addstr(b, "txc-index 1 ");
	add_stat(b, s->path);
	add_head(b, s->path, HEAD);
	add_stat(b, wal.buf);
	add_head(b, wal.buf, WAL_HEAD);
	txc_buf_release(&wal);
	add_sql(b, s->db, "PRAGMA schema_version");
	add_sql(b, s->db, "SELECT max(id) FROM messages");
	add_sql(b, s->db, "SELECT block FROM messages_fts_data WHERE id = 10"); /* FTS5's structure record */
	txc_buf_addstr(b, cond);
}

/* The cache folder ($XDG_CACHE_HOME/txc, else $HOME/.cache/txc), made 0700 when missing; false: none safe. */
static bool cache_dir(struct txc_buf *dir)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg != NULL && xdg[0] == '/')
		txc_buf_addf(dir, "%s", xdg);
	else if (home != NULL && home[0] == '/')
		txc_buf_addf(dir, "%s/.cache", home);
	else
		return false;
	(void)mkdir(dir->buf, 0700); /* the parent may exist (anyone's): only ours below is checked */
	txc_buf_addstr(dir, "/txc");
	if (mkdir(dir->buf, 0700) != 0 && errno != EEXIST)
		return false;
	struct stat st;
	return lstat(dir->buf, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 0022) == 0;
}

/* The index file of this store: named by the SHA-256 of its path (the stamp holds its identity). */
static bool index_path(struct hermes_db *s, struct txc_buf *out)
{
	if (s->snapshot_dir != NULL || s->path == NULL || !cache_dir(out))
		return false;
	char *full = realpath(s->path, NULL);
	const char *p = full ? full : s->path;
	unsigned char h[32];
	txc_sha256(p, strlen(p), h);
	free(full);
	txc_buf_addstr(out, "/search-");
	for (int i = 0; i < 16; i++)
		txc_buf_addf(out, "%02x", h[i]);
	txc_buf_addstr(out, ".db");
	return true;
}

/* Whether the file at path is a regular file of ours, not a link, not writable by others. */
static bool file_ours(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 0022) == 0;
}

static bool stamp_matches(const char *path, const char *stamp)
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	bool same = false;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'stamp'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT)
		same = strcmp((const char *)sqlite3_column_text(st, 0), stamp) == 0;
	sqlite3_finalize(st);
	sqlite3_close(db);
	return same;
}

bool txc_hermes_db_index_attach(struct hermes_db *s, const char *stamp)
{
	struct txc_buf path = TXC_BUF_INIT, sql = TXC_BUF_INIT;
	bool ok = index_path(s, &path) && file_ours(path.buf) && stamp_matches(path.buf, stamp);
	if (ok) {
		txc_buf_addstr(&sql, "file:");
		txc_buf_add_pct(&sql, path.buf, "/-._~");
		txc_buf_addstr(&sql, "?mode=ro");
		sqlite3_stmt *st;
		ok = sqlite3_prepare_v2(s->db, "ATTACH ?1 AS txc_index", -1, &st, NULL) == SQLITE_OK;
		if (ok) {
			sqlite3_bind_text(st, 1, sql.buf, -1, SQLITE_STATIC);
			ok = sqlite3_step(st) == SQLITE_DONE;
		}
		sqlite3_finalize(st);
		/* the stamp again, through the attached file: the one read above may have been swapped since */
		ok = ok && sqlite3_prepare_v2(s->db, "SELECT value FROM txc_index.meta WHERE key = 'stamp'", -1, &st,
					      NULL) == SQLITE_OK;
		if (ok) {
			ok = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT &&
			     strcmp((const char *)sqlite3_column_text(st, 0), stamp) == 0;
			sqlite3_finalize(st);
		}
		if (!ok)
			txc_hermes_db_index_detach(s);
	}
	txc_buf_release(&path);
	txc_buf_release(&sql);
	return ok;
}

void txc_hermes_db_index_detach(struct hermes_db *s)
{
	sqlite3_exec(s->db, "DETACH txc_index", NULL, NULL, NULL); /* not attached: an error, nothing else */
}

struct txc_hermes_db_index {
	sqlite3 *db;
	sqlite3_stmt *add;
	struct txc_buf path, tmp;
};

static void index_abandon(struct txc_hermes_db_index *x);

static struct txc_hermes_db_index *index_begin(struct hermes_db *s)
{
	struct txc_hermes_db_index *x = txc_xcalloc(1, sizeof(*x));
	if (!index_path(s, &x->path)) {
		txc_buf_release(&x->path);
		free(x);
		return NULL;
	}
	txc_buf_addf(&x->tmp, "%s.%ld.tmp", x->path.buf, (long)getpid());
	unlink(x->tmp.buf); /* a crashed run's (our own name) */
	int rc = sqlite3_open_v2(x->tmp.buf, &x->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW,
				 NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(x->db,
				  "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;"
				  " CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
				  " CREATE VIRTUAL TABLE words USING fts5(c0, c1, c2, c3, content='', columnsize=0);",
				  NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(x->db, "INSERT INTO words (rowid, c0, c1, c2, c3) VALUES (?1, ?2, ?3, ?4, ?5)",
					-1, &x->add, NULL);
	if (rc != SQLITE_OK) {
		index_abandon(x);
		return NULL;
	}
	return x;
}

static bool index_add(struct txc_hermes_db_index *x, sqlite3_int64 id, const struct txc_str cols[4])
{
	sqlite3_bind_int64(x->add, 1, id);
	for (int i = 0; i < 4; i++)
		sqlite3_bind_text(x->add, i + 2, cols[i].ptr ? cols[i].ptr : "", (int)cols[i].len, SQLITE_STATIC);
	int rc = sqlite3_step(x->add);
	sqlite3_reset(x->add);
	return rc == SQLITE_DONE;
}

static void index_abandon(struct txc_hermes_db_index *x)
{
	if (x == NULL)
		return;
	sqlite3_finalize(x->add);
	sqlite3_close(x->db);
	unlink(x->tmp.buf);
	txc_buf_release(&x->tmp);
	txc_buf_release(&x->path);
	free(x);
}

static bool index_commit(struct txc_hermes_db_index *x, const char *stamp)
{
	sqlite3_stmt *st;
	bool ok = sqlite3_prepare_v2(x->db, "INSERT INTO meta VALUES ('stamp', ?1)", -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		sqlite3_bind_text(st, 1, stamp, -1, SQLITE_STATIC);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	ok = ok && sqlite3_exec(x->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_finalize(x->add);
	x->add = NULL;
	ok = sqlite3_close(x->db) == SQLITE_OK && ok;
	x->db = NULL;
	ok = ok && chmod(x->tmp.buf, 0600) == 0;         /* whatever the umask: file_ours() wants it ours alone */
	ok = ok && rename(x->tmp.buf, x->path.buf) == 0; /* atomic: a search reading the old one keeps it */
	if (!ok)
		unlink(x->tmp.buf);
	txc_buf_release(&x->tmp);
	txc_buf_release(&x->path);
	free(x);
	return ok;
}

bool txc_hermes_db_index_build(struct hermes_db *s, const char *sql, const char *stamp, txc_hermes_db_index_text *text)
{
	struct txc_hermes_db_index *x = index_begin(s);
	sqlite3_stmt *st;
	if (x == NULL)
		return false;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		index_abandon(x);
		return false;
	}
	struct txc_arena *a = txc_arena_new(0);
	struct txc_str cols[4];
	int rc;
	bool ok = true;
	while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		txc_arena_reset(a);
		text(a, st, cols);
		ok = sqlite3_column_type(st, 0) == SQLITE_INTEGER && index_add(x, sqlite3_column_int64(st, 0), cols);
	}
	ok = ok && rc == SQLITE_DONE;
	sqlite3_finalize(st);
	txc_arena_free(a);
	if (!ok) {
		index_abandon(x);
		return false;
	}
	return index_commit(x, stamp);
}
