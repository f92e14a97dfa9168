/*
 * claude_rows.h - private to src/model: what the Claude Code builder (model_claude.c) hands
 * claude_rows.c when a session is read with its rows (keep_rows): each message with what only
 * Claude recorded of it, and the records that made no message, by the message they precede.
 *
 * Ownership: everything is borrowed for the call; the rows are built in t->arena.
 */
#ifndef TXC_MODEL_CLAUDE_ROWS_H
#define TXC_MODEL_CLAUDE_ROWS_H

#include "txc/model.h"

struct txc_claude_rec {
	const struct txc_message *m;      /* its message in t->messages */
	const struct txc_json *extra;     /* the record keys the model has no place for, or NULL */
	const struct txc_json *usage_raw; /* message.usage as written, or NULL */
	bool has_cost;
	double cost; /* costUSD */
};
struct txc_claude_aside {
	size_t at; /* messages before it */
	const struct txc_json *raw;
};

/* t->native: the session row (last: its latest timestamp, NAN when none) and the rows */
void txc_claude_rows(struct txc_transcript *t, const struct txc_claude_rec *ms, size_t n,
		     const struct txc_claude_aside *os, size_t n_os, double last);

#endif
