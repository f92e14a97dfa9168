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
 * Backends: Hermes's (hermes_source.h: SQLite store, export file,
 * dashboard, legacy folder) and Claude Code's (claude_code.c).  A new
 * harness adds its reader with one static ops struct and an opener that
 * calls txc_store_new(), and a locator with its registry entry
 * (harness.h).  The façade knows no harness's rows: what is Hermes's
 * (rows, their replay and scan, the model built from them) is an op.
 */
#ifndef TXC_READER_SOURCE_H
#define TXC_READER_SOURCE_H

#include "txc/reader.h"

/* A listing flag beside enum txc_list_flags: only sid and archived are needed (to name a session). */
enum { TXC_LIST_IDS_ONLY = 1 << 8 };

struct txc_link;
struct txc_query;

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
	/*
	 * Optional, with ids_plain: the session a listing placed (sid->placed) as that listing with
	 * flags would summarise it, from its row alone, into *out (in arena a); TXC_E_NOTFOUND.
	 */
	int (*session)(void *impl, const struct txc_sid *sid, unsigned flags, struct txc_arena *a,
		       struct txc_session_info *out, struct txc_diag *d);
	/* Optional: whether every session's id is a distinct, non-empty text (then no sid is numbered
	 * and session() names a session as sessions() would), proven by a cheap look; false: unknown */
	bool (*ids_plain)(void *impl);
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
	/* Optional: the model of a transcript loaded without messages (Hermes: from t->native's rows) */
	void (*build)(struct txc_transcript *t);
	/* Optional, after load_at: what the listing knows of the session and its load did not bring */
	void (*placed)(struct txc_transcript *t, const struct txc_session_info *info, unsigned flags);
	/* Optional, without TXC_SRC_STREAM: a loaded transcript's rows replayed as the stream (else
	 * txc_store_stream refuses: rows are a Hermes writer's to make from the model) */
	int (*replay)(struct txc_transcript *t, const struct txc_row_sink *sink);
	/* Optional: a session's links from its listing's native row (else from its summary alone) */
	void (*link)(struct txc_arena *a, const struct txc_json *native, struct txc_link *l);
	/*
	 * Optional, without search: one selected session scanned by its source's own rows (hit()
	 * non-zero stops; *stopped says so); without it the façade scans the session's model.
	 */
	int (*scan)(struct txc_store *s, const struct txc_session_info *session, const struct txc_query *q,
		    const struct txc_search_opts *o, const struct txc_hit_sink *sink, bool *stopped,
		    struct txc_diag *d);
};

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

#endif
