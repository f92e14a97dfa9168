/*
 * writer_hermes.h - the Hermes export line in three steps, for streaming a
 * session row by row (txc_store_stream; writers with TXC_WCAP_STREAM): head,
 * each row (inactive rows are skipped; *n_written starts at 0), tail.  Same
 * bytes as txc_writer_hermes.write.  Borrowed arguments only.
 */
#ifndef TXC_WRITER_HERMES_H
#define TXC_WRITER_HERMES_H

#include "txc/writer.h"

extern const struct txc_writer_ops txc_writer_hermes;

void txc_hermes_head(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt);
void txc_hermes_row(struct txc_out *out, const struct txc_json *row, size_t *n_written);
void txc_hermes_tail(struct txc_out *out);

#endif
