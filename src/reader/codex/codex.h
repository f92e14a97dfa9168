/*
 * codex.h - private to src/reader/codex: Codex CLI's rollout files.
 *
 * Codex CLI keeps each session as one JSONL "rollout" file,
 * $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl, and moves
 * archived ones to $CODEX_HOME/archived_sessions/.  locate.c finds the home
 * and guards those files, walk.c lists them, store.c is the store over them
 * (listing, loading) and model.c maps one file's records into the model.
 * The reader builds the model only: Codex has no Hermes-shaped rows, so the
 * pipeline makes those from the model when a writer needs them
 * (src/writer/hermes_rows.c) and search scans the model.
 *
 * Ownership: walk results are malloc'd for the caller (txc_codex_files_free);
 * the builder's transcript owns everything it keeps (t->arena).
 */
#ifndef TXC_READER_CODEX_H
#define TXC_READER_CODEX_H

#include <stdbool.h>
#include <stddef.h>

#include "txc/diag.h"
#include "txc/model.h"
#include "txc/reader.h"

/* The folders under $CODEX_HOME that hold rollouts, in listing order. */
#define TXC_CODEX_LIVE     "sessions"
#define TXC_CODEX_ARCHIVED "archived_sessions"

/* One rollout file found by the walk. */
struct txc_codex_file {
	char *path;    /* the file */
	bool archived; /* under archived_sessions/ */
};

/*
 * Every rollout-*.jsonl under dir, its folders to a depth of 8, sorted by path; regular files
 * only, symbolic links and dot-names never followed.  dir_cb (optional) sees each folder walked.
 */
struct txc_codex_file *txc_codex_files(const char *dir, bool archived, size_t *n,
				       void (*dir_cb)(void *ctx, const char *dir), void *ctx);
void txc_codex_files_free(struct txc_codex_file *v, size_t n);

/* The store over a Codex home (store.c; opened through the registry, locate.c). */
int txc_codex_store_open(struct txc_store **out, const char *home, struct txc_diag *d);

/* ---- model.c: one rollout's records into a transcript ---- */

struct txc_codex_builder;

/* What a read found wrong with a file (said once each by the store). */
struct txc_codex_faults {
	size_t bad;     /* lines that are not JSON objects */
	bool cut;       /* the last line unfinished */
	bool no_meta;   /* no session_meta record */
	size_t unbound; /* outputs without an earlier call of their call_id (kept as results) */
};

/*
 * A spawned thread's parent: session_meta's source.subagent.thread_spawn.parent_thread_id
 * (Codex 0.171.0's link from a subagent to the thread that spawned it); ptr NULL when none.
 * In payload's arena.
 */
struct txc_str txc_codex_parent(const struct txc_json *payload);

struct txc_codex_builder *txc_codex_begin(struct txc_transcript *t);
/* One line (without its newline): 0; 1 blank; -1 not a JSON object. */
int txc_codex_add_line(struct txc_codex_builder *b, const char *line, size_t len);
/* Sets t->messages and meta, frees the builder; last_active: the latest timestamp (NAN: none). */
void txc_codex_end(struct txc_codex_builder *b, double *last_active, struct txc_codex_faults *f);

#endif
