/*
 * hermes_rows.h - Hermes rows made from the generic model (hermes_rows.c), for the Hermes
 * writer when a transcript was read from a harness that keeps no rows of its own (t->native
 * NULL).  Ownership: everything built lives in the arena the caller passes (the writer's
 * scratch arena, freed after the write); the model is only read.
 */
#ifndef TXC_WRITER_HERMES_ROWS_H
#define TXC_WRITER_HERMES_ROWS_H

#include "txc/model_hermes.h"

/* The session row and the message rows of t's model, in arena a (Hermes's column order) */
struct txc_hermes_native *txc_hermes_rows_of(struct txc_arena *a, const struct txc_transcript *t);

#endif
