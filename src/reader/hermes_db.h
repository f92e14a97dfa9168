/*
 * hermes_db.h - private to src/reader: Hermes's state.db (hermes_db_open.c
 * opens and probes it, hermes_db_read.c reads it) and the store façade
 * (store.c) they share.
 */
#ifndef TXC_READER_HERMES_DB_H
#define TXC_READER_HERMES_DB_H

#include <sqlite3.h>

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


bool has_col(const struct columns *c, const char *name);
int db_error(struct txc_store *s, int rc, struct txc_diag *d, const char *what);
void sleep_ms(long ms);
bool is_ioerr(int rc);

struct txc_sid make_sid(struct txc_arena *a, const struct txc_json *v, bool placed, int64_t pos);
void number_repeats(struct txc_arena *a, struct txc_sid *v, size_t n);
struct txc_sid sid_dup(const struct txc_sid *id);
void name_transcript(struct txc_transcript *t, const struct txc_sid *id);
struct prefix_match {
	const char *arg;
	size_t alen, matches, hlen;
	struct txc_sid found; /* text malloc'd */
	struct txc_diag *d;
};
void match_begin(struct prefix_match *m, const char *arg, struct txc_diag *d);
bool match_offer(struct prefix_match *m, const struct txc_sid *id);
int match_end(struct prefix_match *m, const char *where, struct txc_sid *id);
int src_export_order(struct txc_store *s, struct txc_sid **ids, size_t *n, struct txc_diag *d);
int src_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_json **out,
		 const struct txc_sid **sids_out, struct txc_diag *d);
int src_resolve(struct txc_store *s, const char *arg, struct txc_sid *id, struct txc_diag *d);
int src_load(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
	     struct txc_diag *d);
int src_stream(struct txc_store *s, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
	       struct txc_diag *d);

#endif
