/*
 * claude_usage.h - usage attribution for the Claude writer (claude_usage.c), in its own object
 * so that writer_claude.o exports its ops struct alone.
 *
 * Hermes counts tokens per session; Claude Code reads the usage of the last assistant record as
 * the size of the conversation it resumes (and refuses or compacts it when that passes its
 * window), while ccusage sums the usage of every record.  So the totals are spread over the
 * assistant records in proportion to what each request plausibly carried: the conversation up to
 * and including that record (about 4 bytes a token) plus a fixed part the transcript does not hold
 * (system prompt, tool definitions).  Shares are cumulative floors, so per kind they sum to the
 * totals exactly.  No record may claim more than its weight, whichever one a range or a later
 * turn makes the last: totals above all the weights together (a range of a longer session,
 * history Hermes compacted away, a huge system prompt) are scaled down to them, and the rest is
 * not written.  See docs/FORMATS.md, "Usage attribution".
 *
 * Ownership: a usage_split is the caller's (a member of the writer's context); nothing here allocates.
 */
#ifndef TXC_WRITER_CLAUDE_USAGE_H
#define TXC_WRITER_CLAUDE_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "txc/model.h"

struct usage_split {
	int64_t total_weight; /* over every assistant record */
	int64_t done_weight;  /* up to the current one */
	int64_t ctx_bytes;    /* the conversation so far */
	int64_t total[4];     /* input, cache write, cache read, output to spread (at most total_weight together) */
	int64_t given[4];     /* of them attributed so far */
};

/* the bytes of a message as a request carries them (text, tool calls and results, ~images) */
int64_t txc_claude_message_bytes(const struct txc_message *m);
/* the weights of the written messages (written[i]) and the totals to spread; bound[i]: a compact
 * boundary before message i (Claude Code sends only what follows it) */
void txc_claude_usage_plan(struct usage_split *u, const struct txc_transcript *t, const bool *written,
			   const bool *bound);
/* the next assistant record's share of each total (after u->ctx_bytes counts its message) */
void txc_claude_usage_take(struct usage_split *u, int64_t share[4]);

#endif
