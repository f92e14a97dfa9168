/*
 * hermes_db.h - private to src/reader: Hermes's state.db as a backend
 * (source.h).  hermes_db_open.c opens and probes it (URI, probe, retry,
 * snapshot copy); hermes_db_read.c reads it (SQL from the discovered
 * columns, rows, listings, loads, streams) and defines txc_hermes_db_ops;
 * hermes_db_value.c makes SQLite values into nodes.
 */
#ifndef TXC_READER_HERMES_DB_H
#define TXC_READER_HERMES_DB_H

#include <sqlite3.h>

#include "hermes_source.h"
#include "txc/json.h"

/* The SQLite backend's ops (hermes_db_read.c), for hermes_db_open.c's opener alone. */
extern const struct txc_source_ops txc_hermes_db_ops;

struct columns { /* every column of a table, however many (SQLite allows 32767) */
	char **name;
	size_t n, cap;
	size_t n_pk;   /* columns of its primary key */
	bool pk_is_id; /* its primary key is one column named id */
};

struct hermes_db {
	const char *rowid;  /* the name that reaches the sessions table's rowid, or NULL (WITHOUT ROWID) */
	bool wal_blocked;   /* a WAL store whose -shm cannot be made: read a snapshot */
	char *snapshot_dir; /* private copy of the database and its WAL, removed on close */
	int snapshot_guard; /* its txc_tmp_guard slot: a signal removes it too */
	char *note;         /* said once by the CLI */
	sqlite3 *db;
	char *path;
	struct columns sess, msg;
	bool has_messages, has_prompts;
	int newer;                     /* columns a Hermes newer than v0.20.0 adds: 0 not looked yet, 1 none, 2 some */
	sqlite3_stmt *q_session[2][2]; /* [bulk][by rowid] */
	sqlite3_stmt *q_messages, *q_messages_compacted;
	sqlite3_stmt *q_after[2], *q_numbered; /* --follow: rows after an id [compacted]; the numbered rows up to one */
	sqlite3_stmt *q_one;                   /* one session's listing row by rowid (ops->session), for q_one_flags */
	unsigned q_one_flags;
};

void txc_hermes_db_close(void *impl);
/* ops->ids_plain (hermes_db_open.c): every id a distinct non-empty text, by a unique index on it */
bool txc_hermes_db_ids_plain(void *impl);
const char *txc_hermes_db_note(void *impl);

bool txc_hermes_db_has_col(const struct columns *c, const char *name);
/* d set from a SQLite result code: busy, a hot journal, or "cannot <what> '<path>': ..." */
int txc_hermes_db_error(struct hermes_db *s, int rc, struct txc_diag *d, const char *what);
bool txc_hermes_db_is_ioerr(int rc);
/* A content value as Hermes decodes it: "\0json:" + JSON parsed (into a), anything else as it is. */

/* hermes_db_fp.c: what tells a re-run that a session changed.  _fingerprint_cols appends its
 * first and last message rows and `s.*` to a listing's SELECT; _star_cols counts `s.*`;
 * _fingerprint hashes a row's columns from `from` on (32 hex digits, in a); _fill_fingerprints
 * reads them apart in rowid order for the n sessions of rowid[] (ascending) into v[].fingerprint */
void txc_hermes_db_fingerprint_cols(struct hermes_db *s, struct txc_buf *b);
int txc_hermes_db_star_cols(struct hermes_db *s);
struct txc_str txc_hermes_db_fingerprint(struct txc_arena *a, sqlite3_stmt *st, int from);
int txc_hermes_db_fill_fingerprints(struct hermes_db *s, struct txc_arena *a, struct txc_session_info *v,
				    const int64_t *rowid, size_t n);
const struct txc_json *txc_hermes_db_decode_content(struct txc_arena *a, const struct txc_json *v);
/* hermes_db_value.c: column i of the current row as a node in a (NULL, 0 and 1 shared, static);
 * _in: in *node instead (its bytes in a, or prev's when the same: prev then holds them; prev may be
 * NULL), for a value read and dropped; _keys: the column names
 * (once a statement, shared by its rows); _row: the row as an object of them (message: content,
 * tool_calls and display_metadata decoded as Hermes does) */
const struct txc_json *txc_hermes_db_value(struct txc_arena *a, sqlite3_stmt *st, int i);
const struct txc_json *txc_hermes_db_value_in(struct txc_arena *a, sqlite3_stmt *st, int i, struct txc_json *node,
					      struct txc_str *prev);
struct txc_str *txc_hermes_db_keys(struct txc_arena *a, sqlite3_stmt *st, int ncols);
const struct txc_json *txc_hermes_db_row(struct txc_arena *a, sqlite3_stmt *st, int ncols, struct txc_str *keys,
					 bool message);

/* txc_source_ops.search (hermes_db_search.c): messages_fts read-only, else a scan. */
int txc_hermes_db_search(void *impl, const struct txc_query *q, const struct txc_search_opts *o,
			 const struct txc_hit_sink *sink, struct txc_search_info *info, struct txc_diag *d);

/* The live tip of a session's compression chain (hermes_db_tip.c), of the last TIP_CACHE asked; NULL: none. */
enum { TIP_CACHE = 16 };
struct txc_hermes_db_tips {
	char *from[TIP_CACHE], *tip[TIP_CACHE]; /* tip NULL: none */
	size_t next;
	sqlite3_stmt *st;
};
const char *txc_hermes_db_tip_of(struct hermes_db *s, struct txc_hermes_db_tips *c, const char *id);
void txc_hermes_db_tip_free(struct txc_hermes_db_tips *c);

/*
 * txc's own index of the rows messages_fts does not hold as txc reads them (hermes_db_index.c),
 * in the user's cache folder.  stamp: what the index must have been made from to be used (the
 * store's files and headers, schema, last id, messages_fts's structure, cond: the rows it holds).
 * attach: ATTACH it read-only as txc_index when its stamp is that one (false: none, scan).
 * build: write a new one from the rows sql gives (column 0 their id; text gives the four texts a row is
 * matched on, as the search's row check reads them), renamed into place; false: none made.
 */
void txc_hermes_db_index_stamp(struct hermes_db *s, const char *cond, struct txc_buf *b);
bool txc_hermes_db_index_attach(struct hermes_db *s, const char *stamp);
void txc_hermes_db_index_detach(struct hermes_db *s);
typedef void txc_hermes_db_index_text(struct txc_arena *a, sqlite3_stmt *st, struct txc_str cols[4]);
bool txc_hermes_db_index_build(struct hermes_db *s, const char *sql, const char *stamp, txc_hermes_db_index_text *text);

#endif
