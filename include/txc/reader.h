/*
 * reader.h - Hermes's state.db, opened strictly read-only.
 *
 * The only module that talks to SQLite.  A store is opened with a file: URI,
 * mode=ro and SQLITE_OPEN_READONLY, never created, never migrated; columns are
 * discovered at run time so that old schemas work.  Each session is read in
 * one read transaction so that its row and its messages agree.
 *
 * Ownership: a store owns its connection until txc_store_close().  Loaded
 * transcripts belong to the caller (txc_transcript_free()).
 */
#ifndef TXC_READER_H
#define TXC_READER_H

#include <stddef.h>

#include "txc/diag.h"
#include "txc/model.h"

struct txc_store;

int txc_store_open(struct txc_store **out, const char *path, struct txc_diag *d);
/* A database image held in memory (a copy is taken); name is used in messages. */
int txc_store_open_image(struct txc_store **out, const void *image, size_t len, const char *name,
			 struct txc_diag *d);
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
int txc_store_open_remote(struct txc_store **out, const char *url, const struct txc_remote_opts *o,
			  struct txc_diag *d);
void txc_store_close(struct txc_store *s);
/* Something the user should be told about how the store is read (a snapshot copy), or NULL. */
const char *txc_store_note(const struct txc_store *s);
const char *txc_store_path(const struct txc_store *s);

enum txc_load_flags {
	TXC_LOAD_LAST_ACTIVE = 1 << 0, /* add the bulk export's last_active */
	TXC_LOAD_COMPACTED = 1 << 1,   /* also rows archived by compaction */
	TXC_LOAD_MODEL_ONLY = 1 << 2,  /* messages only: t->rows stays empty, each row is dropped once
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

/* Session rows (every column in table order; with TXC_LIST_LAST_ACTIVE then last_active as in
 * the bulk export) as an array in arena a, newest first. */
/* TXC_LIST_BRIEF: only id, source, model, started_at, message_count, cwd, title, archived
 * (NULL where a column is missing) */
enum txc_list_flags { TXC_LIST_ARCHIVED = 1 << 0, TXC_LIST_LAST_ACTIVE = 1 << 1, TXC_LIST_BRIEF = 1 << 2 };
/* sids[i] names out->items[i] (both in arena a). */
int txc_store_sessions(struct txc_store *s, unsigned flags, struct txc_arena *a, const struct txc_json **out,
		       const struct txc_sid **sids, struct txc_diag *d);

/* Exact identity text, else a unique prefix (txc_sid_release() it).  Ambiguity lists candidates in d->hint. */
int txc_store_resolve(struct txc_store *s, const char *arg, struct txc_sid *id, struct txc_diag *d);

/* t->meta.id and id_kind are the sid's. */
int txc_store_load(struct txc_store *s, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d);

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

#endif
