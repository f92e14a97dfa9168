/*
 * writer_claude.h - the Claude writer, and (claude_ids.c) what --install
 * (TXC_WCAP_INSTALL) needs from the format: where Claude Code keeps a session
 * and under which id.  Borrowed arguments only; out is the caller's.
 */
#ifndef TXC_WRITER_CLAUDE_H
#define TXC_WRITER_CLAUDE_H

#include "txc/writer.h"

extern const struct txc_writer_ops txc_writer_claude;

/* the session's Claude Code id: a UUIDv5 of its id (and scope, when not empty; and its range, when
 * a range), the same every run */
void txc_claude_session_uuid(const struct txc_transcript *t, struct txc_str scope, char out[37]);
/* a name-based (SHA-1, v5) UUID of name in the namespace ns_text, lower-case */
void txc_claude_uuid5(char out[37], const char *ns_text, const char *name, size_t len);
/* the agent id of a subagent transcript for a child session: "a" and 16 hex digits, the same every run */
void txc_claude_agent_id(struct txc_str child_id, char out[18]);
/* the folder under projects/ that Claude Code uses for cwd */
void txc_claude_project_folder(struct txc_buf *out, const char *cwd, size_t len);

#endif
