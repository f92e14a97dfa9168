/*
 * reader.h - sources of sessions, opened strictly read-only.
 *
 * A store is a façade (store.c) over one backend (src/reader/source.h): the
 * Hermes SQLite store (hermes_db_open.c, hermes_db_read.c), a Hermes export
 * file (hermes_json.c) or a running Hermes dashboard (hermes_remote.c).  The
 * façade names sessions (exact id, else a unique prefix), orders them and
 * builds transcripts; a backend lists, loads and perhaps streams.
 *
 * The SQLite backend is the only module that talks to SQLite: a file: URI,
 * mode=ro and SQLITE_OPEN_READONLY, never created, never migrated; columns
 * are discovered at run time so that old schemas work; each session is read
 * in one read transaction so that its row and its messages agree.
 *
 * Ownership: a store owns its backend until txc_store_close().  Loaded
 * transcripts belong to the caller (txc_transcript_free()); listings live in
 * the arena the caller passes.
 */
#ifndef TXC_READER_H
#define TXC_READER_H

#include <stddef.h>

#include "txc/diag.h"
#include "txc/model.h"

struct txc_store;

int txc_store_open(struct txc_store **out, const char *path, struct txc_diag *d);
/* A database image held in memory (a copy is taken); name is used in messages. */
int txc_store_open_image(struct txc_store **out, const void *image, size_t len, const char *name, struct txc_diag *d);
/*
 * A Hermes export file as a store (JSONL from `hermes sessions export` or
 * `txc export --json`, or one JSON session object); "-" is standard input.
 * A malformed line is an error naming the line, or skipped with skip_bad
 * (then d->hint holds a warning line for the caller to print).
 */
int txc_store_open_file(struct txc_store **out, const char *path, bool skip_bad, struct txc_diag *d);
/* A running Hermes dashboard (hermes_remote.c); token NULL: the one its page embeds. */
struct txc_remote_opts {
	const char *token;
	const char *profile;
	long timeout; /* seconds per request */
};
int txc_store_open_remote(struct txc_store **out, const char *url, const struct txc_remote_opts *o, struct txc_diag *d);
/*
 * The legacy session files of a Hermes home: the flat folder dir
 * ($HERMES_HOME/sessions), read-only (hermes_legacy.c).  Files that cannot
 * be read and names left out are reported through d->warn.
 */
int txc_store_open_legacy(struct txc_store **out, const char *dir, struct txc_diag *d);
/*
 * What a legacy folder's file name is: a snapshot session_<id>.json, a
 * gateway transcript <id>.jsonl, or nothing txc opens (request_dump_* files,
 * sessions.json, any other name).  The id is name[*id_off, +*id_len).
 */
enum txc_legacy_kind { TXC_LEGACY_NONE, TXC_LEGACY_SNAPSHOT, TXC_LEGACY_TRANSCRIPT };
enum txc_legacy_kind txc_legacy_name(const char *name, size_t *id_off, size_t *id_len);
/* A legacy session id: [A-Za-z0-9][A-Za-z0-9_.:-]*, at most TXC_LEGACY_ID_MAX bytes, no "..", no "request_dump". */
#define TXC_LEGACY_ID_MAX 200
bool txc_legacy_id_ok(const char *id, size_t len);
/* The i-th file a store reads inside its path (legacy folders), or NULL past the last. */
const char *txc_store_file(const struct txc_store *s, size_t i);
/* Claude Code's sessions, and any other harness's: txc_store_open_kind (harness.h). */
void txc_store_close(struct txc_store *s);
/* What the store's backend can do (enum txc_source_caps) and its name ("hermes-sqlite", ...). */
enum txc_source_caps {
	TXC_SRC_EXPORT_ORDER = 1 << 0, /* gives Hermes's bulk-export order itself (else the façade sorts) */
	TXC_SRC_STREAM = 1 << 1,       /* streams a session's rows without holding them */
	TXC_SRC_FTS = 1 << 2,          /* its store may hold a full-text index (messages_fts) for search */
	TXC_SRC_NATIVE_ROWS = 1 << 3,  /* loaded transcripts carry Hermes's rows (t->native) */
	TXC_SRC_ORDERED = 1 << 4,      /* lists sessions newest first itself (else the façade sorts) */
	TXC_SRC_BY_ID = 1 << 5,        /* loads a session by its id alone, not only by its place in a listing */
};
unsigned txc_store_caps(const struct txc_store *s);
const char *txc_store_kind(const struct txc_store *s);
/* Something the user should be told about how the store is read (a snapshot copy), or NULL. */
const char *txc_store_note(const struct txc_store *s);
const char *txc_store_path(const struct txc_store *s);

enum txc_load_flags {
	TXC_LOAD_LAST_ACTIVE = 1 << 0, /* add the bulk export's last_active */
	TXC_LOAD_COMPACTED = 1 << 1,   /* also rows archived by compaction */
	TXC_LOAD_MODEL_ONLY = 1 << 2,  /* messages only: t->native has no rows, each row is dropped once
					  read (for writers that never look at rows: a session is held once) */
};

/*
 * Sessions are named by a struct txc_sid (model.h): ids of any type, NULL and
 * repeated ids included, each session exactly once.
 */
/* Every session in Hermes's bulk-export order (last_active DESC, started_at DESC, id DESC); texts malloc'd. */
int txc_store_export_order(struct txc_store *s, struct txc_sid **ids, size_t *n, struct txc_diag *d);
void txc_store_free_ids(struct txc_sid *ids, size_t n);
void txc_sid_release(struct txc_sid *id); /* frees the text of one from resolve or export order */

/*
 * One session as a listing gives it.  Text fields point into the listing's
 * arena; ptr is NULL when the source has no such value.
 */
struct txc_session_info {
	struct txc_sid sid;           /* names it in its store */
	struct txc_str title, cwd;    /* text values only */
	struct txc_str source, model; /* text, or an integer's digits */
	struct txc_str n_messages;    /* the message count as the source wrote it (digits) */
	double started, last_active;  /* seconds; NAN when unknown (last_active: TXC_LIST_LAST_ACTIVE) */
	struct txc_str preview;       /* TXC_LIST_PREVIEW, a session without a title: the head of its first
					  user text as Hermes shapes it (60 characters, then "..."; line
					  breaks as spaces); NULL when there is none or the source cannot tell */
	bool archived;
	const struct txc_json *native; /* the source's own session row (Hermes: the columns in table
					  order, then last_active), for `list --json`; every Hermes
					  backend sets it, a backend without rows must give an object
					  (TXC_LIST_BRIEF: it may be NULL) */
	struct txc_str fingerprint;    /* TXC_LIST_FINGERPRINT: 32 hex digits that change when the session's
					  rows do (its whole session row, its message count and largest
					  message rowid); empty when the backend cannot tell */
};

/*
 * The sessions, newest first (started, then id descending), archived ones
 * only with TXC_LIST_ARCHIVED; *out is an array of *n in arena a.
 * TXC_LIST_LAST_ACTIVE adds last activity (it costs a look at each session's
 * messages); TXC_LIST_BRIEF lets a backend read only what the fields need
 * (native then holds only those columns, or is NULL).
 */
enum txc_list_flags {
	TXC_LIST_ARCHIVED = 1 << 0,
	TXC_LIST_LAST_ACTIVE = 1 << 1,
	TXC_LIST_BRIEF = 1 << 2,
	TXC_LIST_FINGERPRINT = 1 << 3,  /* fill fingerprint (read from the index, not the messages) */
	TXC_LIST_CWD = 1 << 4,          /* with TXC_LIST_BRIEF: cwd too (a brief listing may leave it out) */
	TXC_LIST_ROW_ACTIVITY = 1 << 7, /* with TXC_LIST_LAST_ACTIVE: from the session row alone (Hermes:
					   its heartbeat last_activity_at, which may lag the newest message by
					   a minute, else ended_at): for people, no look at the messages */
	TXC_LIST_PREVIEW = 1 << 6,      /* fill preview (a look at an untitled session's first user row) */
	TXC_LIST_NAMES = 1 << 5,        /* with TXC_LIST_BRIEF: only sid, title, source and start are needed
					   (a completion); the order is the same, made by a sort, not the
					   store's index (a seek a session) */
};
int txc_store_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_session_info **out,
		       size_t *n, struct txc_diag *d);

/*
 * Whether a session can be named without a listing: the backend proves (a cheap look, not a read
 * of every session) that each session's identity is its id as stored, so that no "ID~2" or
 * "no-id~N" is made, and it reads one session's summary alone (txc_store_session).
 */
bool txc_store_names_plain(struct txc_store *s);
/* The session a search's hit names (txc_hit.sid, placed), as txc_store_sessions with flags would
 * summarise it, archived or not (in arena a); TXC_E_NOTFOUND.  Only when txc_store_names_plain. */
int txc_store_session(struct txc_store *s, const struct txc_sid *sid, unsigned flags, struct txc_arena *a,
		      const struct txc_session_info **out, struct txc_diag *d);

/*
 * Every session's links (lineage.h: parent, end reason, branch/delegate/tool
 * markers, times), archived ones too, as an array of *n in arena a; read from
 * the session rows only, never from messages.
 */
struct txc_link;
int txc_store_links(struct txc_store *s, struct txc_arena *a, struct txc_link **out, size_t *n, struct txc_diag *d);

/* Exact identity text, else a unique prefix (txc_sid_release() it).  Ambiguity lists candidates in d->hint. */
int txc_store_resolve(struct txc_store *s, const char *arg, struct txc_sid *id, struct txc_diag *d);

/* t->meta.id and id_kind are the sid's. */
int txc_store_load(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d);

/* Whether the source keeps Hermes rows to stream (txc_store_stream); without them the Hermes writer makes
 * them from the model (load it, then write) */
bool txc_store_has_rows(const struct txc_store *s);

/*
 * Stream one session without holding it: head() sees the transcript with its
 * session row (and last_active) but no rows or messages, then row() gets each
 * message row in order.  Both borrow what they are given for the call only;
 * a non-zero return stops the stream and is returned.
 */
struct txc_row_sink {
	int (*head)(void *ctx, const struct txc_transcript *t);
	int (*row)(void *ctx, const struct txc_json *row);
	void *ctx;
};
int txc_store_stream(struct txc_store *s, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
		     struct txc_diag *d);
/*
 * --follow: the session with only its message rows whose id is above after (0: all),
 * read in one short read transaction that is over when this returns (so a writer's
 * checkpoint is never held up between calls); *last gets the highest row id read
 * (after when none).  Message numbers (txc_message.number) count the rows before too.
 * TXC_E_USAGE for a store that cannot be followed (a file, a dashboard).
 */
int txc_store_load_after(struct txc_store *s, const struct txc_sid *id, int64_t after, unsigned flags,
			 struct txc_transcript **out, int64_t *last, struct txc_diag *d);

/* ---- search (txc search): the full-text index a store keeps, else a scan ---- */

struct txc_query; /* search.h */
enum txc_search_sort { TXC_SORT_RANK, TXC_SORT_NEWEST, TXC_SORT_OLDEST };
struct txc_search_opts {
	const char *role; /* only rows of this role, or NULL */
	const char *tool; /* only rows whose tool_name is this, or NULL */
	enum txc_search_sort sort;
	bool include_inactive; /* also rows rewound away (never compacted ones: those are always searched) */
	const char *text;      /* the query as typed, for sources that search themselves (a dashboard) */
};
/* One matching row.  Everything borrowed for the call only. */
struct txc_hit {
	const struct txc_session_info *session; /* the selected session it is in (façade) */
	struct txc_sid sid;                     /* the backend's name of that session */
	bool has_row_id;
	int64_t row_id;
	size_t number; /* its message number in the session (search.h), 0 when it has none (rewound) or unknown */
	struct txc_str role, tool_name;   /* ptr NULL when absent */
	const struct txc_json *timestamp; /* as stored (a number), or NULL */
	struct txc_str cols[4];           /* the searched text: the reply (content's text, or where else it is:
					     txc_hermes_search_text), tool_name, tool_calls, a replayed api_content */
	bool has_rank, active, compacted;
	double rank;        /* FTS5 bm25: lower is better */
	struct txc_str tip; /* the session ended in a compression: the live tip of its chain (Hermes's resume rule) */
};
/* hit() returns 0 to go on, anything else stops the search and is returned (1: enough). */
struct txc_hit_sink {
	int (*hit)(void *ctx, const struct txc_hit *h);
	void *ctx;
};
/* How the answer was found: the index used (or "scan"), whether it is complete, and why. */
struct txc_search_info {
	char index[64];
	bool complete;
	char how[320];
};
/*
 * The rows of the sessions sel[0..n) that match q, in the order o asks (rank: the index's
 * ranking, or newest first where there is none), to sink.  Never changes the store.
 */
int txc_store_search(struct txc_store *s, const struct txc_query *q, const struct txc_search_opts *o,
		     const struct txc_session_info *const *sel, size_t n, const struct txc_hit_sink *sink,
		     struct txc_search_info *info, struct txc_diag *d);
/*
 * The same, the selection made as the hits come: choose() gets the sid a hit names and returns its
 * selected session (kept by the caller until the search is over), or NULL to pass the hit over.
 * Only for a store whose backend searches itself with txc_store_names_plain (else TXC_E_USAGE).
 */
struct txc_chooser {
	const struct txc_session_info *(*choose)(void *ctx, const struct txc_sid *sid);
	void *ctx;
};
int txc_store_search_chosen(struct txc_store *s, const struct txc_query *q, const struct txc_search_opts *o,
			    const struct txc_chooser *ch, const struct txc_hit_sink *sink, struct txc_search_info *info,
			    struct txc_diag *d);

#endif
