/*
 * source.h - private to src/reader: the backends behind a store.
 *
 * A store (store.c) is a façade over one backend: a const struct
 * txc_source_ops and the backend's own state (impl).  The façade numbers
 * repeated ids, filters archived sessions, orders listings (unless the
 * backend says TXC_SRC_ORDERED), matches prefixes, finds a session's place
 * for backends that load by place, builds the model from t->native when the
 * backend did not, and replays a loaded session as a stream for backends
 * without TXC_SRC_STREAM.  A backend lists its sessions and loads one.
 *
 * Backends: txc_hermes_db_ops (hermes_db_open.c, hermes_db_read.c),
 * txc_hermes_file_ops (hermes_json.c), txc_hermes_dashboard_ops
 * (hermes_remote.c).  A new reader adds one file with one ops struct and
 * one txc_store_open_* function that calls txc_store_new().
 */
#ifndef TXC_READER_SOURCE_H
#define TXC_READER_SOURCE_H

#include "txc/model_hermes.h"
#include "txc/reader.h"

/* A listing flag beside enum txc_list_flags: only sid and archived are needed (to name a session). */
enum { TXC_LIST_IDS_ONLY = 1 << 8 };

struct txc_source_ops {
	const char *name; /* "hermes-sqlite", ... (txc_store_kind) */
	unsigned caps;    /* enum txc_source_caps */
	void (*close)(void *impl);
	const char *(*note)(void *impl); /* optional: txc_store_note */
	/*
	 * Every session, archived ones too (so that repeated ids are numbered
	 * alike), as an array of *n in arena a; in listing order with
	 * TXC_SRC_ORDERED.  Each sid is the backend's (txc_source_sid()); the
	 * façade numbers repeats.  flags: enum txc_list_flags (a hint: a backend
	 * may give more than asked).
	 */
	int (*sessions)(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
			struct txc_diag *d);
	/* TXC_SRC_EXPORT_ORDER: every session in Hermes's bulk-export order, sids in arena a (repeats not numbered) */
	int (*export_order)(void *impl, struct txc_arena *a, struct txc_sid **out, size_t *n, struct txc_diag *d);
	/*
	 * One of two loads.  load: the session id names (TXC_SRC_BY_ID: any sid;
	 * else one placed by sessions()) as a new transcript with t->native, and
	 * messages too with TXC_LOAD_MODEL_ONLY if it likes.  load_at: the
	 * session at index in what sessions() gives, into t (t->native: session
	 * without messages, rows, perhaps last_active).  0 or TXC_E_*.
	 */
	int (*load)(void *impl, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		    struct txc_diag *d);
	int (*load_at)(void *impl, size_t index, struct txc_transcript *t, struct txc_diag *d);
	/* TXC_SRC_STREAM: as txc_store_stream */
	int (*stream)(void *impl, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
		      struct txc_diag *d);
	/*
	 * Optional: the matching rows of every session (hits name sessions by
	 * the backend's sid; the façade keeps those selected), info filled.
	 * Without it the façade scans each selected session's rows.
	 */
	int (*search)(void *impl, const struct txc_query *q, const struct txc_search_opts *o,
		      const struct txc_hit_sink *sink, struct txc_search_info *info, struct txc_diag *d);
	/* Optional: the i-th file the backend reads beside its path (a name in it), NULL past the last */
	const char *(*file)(void *impl, size_t i);
	/*
	 * Optional (--follow): as load by id, but only the message rows whose id is above
	 * after, read in one short read transaction that is over when it returns; *last: the
	 * highest row id read (after if none); t->native->n_numbered counts the rows before.
	 */
	int (*load_after)(void *impl, const struct txc_sid *id, int64_t after, unsigned flags,
			  struct txc_transcript **out, int64_t *last, struct txc_diag *d);
};

extern const struct txc_source_ops txc_hermes_db_ops, txc_hermes_file_ops, txc_hermes_dashboard_ops;
extern const struct txc_source_ops txc_hermes_legacy_ops; /* hermes_legacy.c */

/* Claude Code's sessions under a projects folder ($CLAUDE_CONFIG_DIR/projects): claude_code.c,
 * opened through the registry (claude_locate.c, txc_store_open_kind). */
int txc_claude_store_open(struct txc_store **out, const char *projects, struct txc_diag *d);

/*
 * A store over a backend.  It takes impl: ops->close(impl) runs when the
 * store is closed.  name is copied (the path or URL used in messages).
 */
struct txc_store *txc_store_new(const struct txc_source_ops *ops, void *impl, const char *name);

/* The identity of a session whose id is v, at place pos of its source (placed: pos is known); in arena a. */
struct txc_sid txc_source_sid(struct txc_arena *a, const struct txc_json *v, bool placed, int64_t pos);

/* The summary fields of a Hermes session row (all but sid; native = row). */
void txc_source_info(const struct txc_json *row, struct txc_session_info *info);
/* The same from the fields' values, each as a row would hold it (NULL: absent); native is kept as is. */
struct txc_source_fields {
	const struct txc_json *title, *cwd, *source, *model, *n_messages, *started, *last_active, *archived;
};
void txc_source_info_of(const struct txc_source_fields *f, const struct txc_json *native,
			struct txc_session_info *info);
/* The links (lineage.h) of a Hermes session row: parent, end reason, model_config markers; id and sid are the caller's.
 */
struct txc_link;
void txc_source_link(struct txc_arena *a, const struct txc_json *row, struct txc_link *l);
/* Summaries of Hermes session objects, each placed at its index + 1 (for sources that load by place). */
int txc_source_infos(struct txc_arena *a, const struct txc_json *rows, struct txc_session_info **out, size_t *n);

/* Whether a row is of tool name: its tool_name, or a call to it in its tool_calls (JSON text). */
bool txc_source_uses_tool(struct txc_arena *a, struct txc_str tool_name, struct txc_str calls, const char *name);

/* Split an export object into t->native: "messages" becomes rows, "last_active" last_active. */
void txc_source_split(struct txc_transcript *t, const struct txc_json *obj);

/*
 * Incremental reader of one export object as it arrives: the messages are
 * parsed one by one into t->native->rows, so a large session is never held twice.
 */
struct txc_export_parser;
struct txc_export_parser *txc_export_parser_new(struct txc_transcript *t);
int txc_export_parser_feed(struct txc_export_parser *p, const char *data, size_t len); /* 0, -1 on bad JSON */
int txc_export_parser_finish(struct txc_export_parser *p);                             /* 0, -1 if incomplete */
void txc_export_parser_free(struct txc_export_parser *p);

#endif
