/*
 * model_claude.h - Claude Code session records -> the model (model_claude.c).
 *
 * The Claude Code reader (src/reader/claude_code.c) hands each line of a
 * session file (<project>/<sessionId>.jsonl, or a subagent's file) to the
 * builder.  It builds meta and messages directly (assistant records merged
 * by message.id, compaction from compact_boundary), and nothing else: no
 * native rows (t->native stays NULL).  The Hermes writer makes its rows from
 * the model (src/writer/hermes_rows.c) and a search scans the messages, as
 * for any harness without rows of its own.
 *
 * Ownership: as model.h; everything kept lives in t->arena.
 */
#ifndef TXC_MODEL_CLAUDE_H
#define TXC_MODEL_CLAUDE_H

#include "txc/model.h"

struct txc_claude_builder;

struct txc_claude_builder *txc_claude_begin(struct txc_transcript *t);
/* One line of the file (without its newline).  0; 1 for a blank line; -1 when it is not a JSON object. */
int txc_claude_add_line(struct txc_claude_builder *b, const char *line, size_t len);
/*
 * The branch Claude Code resumes: from the newest main-chain record (by file order, not a
 * sidechain, sub: a subagent's own file, whose records all are) up its parentUuid links (a compact_boundary's
 * logicalParentUuid across it), to a record without a parent, a parent not in the file, or a loop.  After every line
 * was added: the number of message records (user, assistant) off that branch or in a sidechain; when it is not 0,
 * *aside (n_lines long, the caller frees it) marks each line to read aside.
 */
size_t txc_claude_branch(struct txc_claude_builder *b, bool sub, unsigned char **aside, size_t *n_lines);
/* Before any line: the lines marked (by their place) count for the session's times, never as messages. */
void txc_claude_aside(struct txc_claude_builder *b, const unsigned char *aside, size_t n_lines);
/* Sets t->messages, frees the builder.  last_active: the latest timestamp. */
void txc_claude_end(struct txc_claude_builder *b, double *last_active);

/*
 * The uuid txc's Claude writer gives the isMeta record of a system message (Codex's `system`
 * role; a `developer` one keeps the record uuid every record gets): a UUIDv5 of the record's
 * sessionId, agentId (empty on the main chain) and parentUuid ("null" for none), so the reader
 * recomputes it from the record alone and reads a match back as system, anything else as developer.
 */
void txc_claude_system_uuid(char out[37], struct txc_str session, struct txc_str agent, struct txc_str parent);

/* An ISO-8601 timestamp ("2026-01-02T03:04:05.678Z", or with +hh:mm) as seconds; false when it is not one. */
bool txc_claude_time(const char *s, size_t len, double *out);

#endif
