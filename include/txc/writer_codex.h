/*
 * writer_codex.h - the Codex CLI writer (writer_codex.c; the ids in codex_ids.c): a rollout file that
 * `codex exec resume <id>` / `codex resume <id>` continues, and what --install
 * needs from the format: the session's Codex id and the rollout's file name.
 *
 * Ownership: borrowed arguments only; out buffers are the caller's.
 */
#ifndef TXC_WRITER_CODEX_H
#define TXC_WRITER_CODEX_H

#include "txc/writer.h"

extern const struct txc_writer_ops txc_writer_codex;

/* The Codex CLI version whose rollout format the writer follows (session_meta.cli_version). */
#define TXC_CODEX_CLI_VERSION "0.171.0"

/* the session's Codex thread id: a UUIDv5 of what its Claude Code id is derived from (so scope,
 * --lineage chains and ranges give distinct ids as they do for Claude), the same every run */
void txc_codex_session_uuid(const struct txc_transcript *t, struct txc_str scope, char out[37]);
/* "YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl" (UTC, the session's start) under sessions/ */
void txc_codex_rollout_name(struct txc_buf *out, const struct txc_transcript *t, const char uuid[37]);

#endif
