/*
 * writer_claude.h - Claude Code helpers for --install (TXC_WCAP_INSTALL): where
 * Claude Code keeps a session and under which id.  Borrowed arguments only;
 * out is the caller's.
 */
#ifndef TXC_WRITER_CLAUDE_H
#define TXC_WRITER_CLAUDE_H

#include "txc/writer.h"

extern const struct txc_writer_ops txc_writer_claude;

/* the session's Claude Code id: a UUIDv5 of its id, the same every run */
void txc_claude_session_uuid(const struct txc_transcript *t, char out[37]);
/* the folder under projects/ that Claude Code uses for cwd */
void txc_claude_project_folder(struct txc_buf *out, const char *cwd, size_t len);

#endif
