/*
 * hermes_rows.h - Hermes rows made from the generic model (hermes_rows.c), for the Hermes
 * writer when a transcript was read from a harness that keeps no rows of its own (t->native
 * NULL).  Ownership: everything built lives in the arena the caller passes (the writer's
 * scratch arena, freed or reset after the write); the model is only read.
 */
#ifndef TXC_WRITER_HERMES_ROWS_H
#define TXC_WRITER_HERMES_ROWS_H

#include "txc/model_hermes.h"

/* The session row and the message rows of t's model, in arena a (Hermes's column order) */
struct txc_hermes_native *txc_hermes_rows_of(struct txc_arena *a, const struct txc_transcript *t);
/* The session row alone (rows NULL; message_count, n_active_rows and last_active counted), in arena a */
struct txc_hermes_native *txc_hermes_rows_head(struct txc_arena *a, const struct txc_transcript *t);
/* The rows of t's model one message at a time to fn, built in scratch and reset after each message
 * (memory does not grow with the session); fn's non-zero return stops and is returned. */
int txc_hermes_rows_each(struct txc_arena *scratch, const struct txc_transcript *t,
			 int (*fn)(void *ctx, const struct txc_json *row), void *ctx);

#endif
