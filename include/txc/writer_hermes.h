/*
 * writer_hermes.h - Hermes's own export line (`hermes sessions export`), byte for
 * byte.  It streams (TXC_WCAP_STREAM: txc_writer_hermes.stream, inactive rows
 * skipped) for export --json and convert --to hermes.
 */
#ifndef TXC_WRITER_HERMES_H
#define TXC_WRITER_HERMES_H

#include "txc/writer.h"

extern const struct txc_writer_ops txc_writer_hermes;

#endif
