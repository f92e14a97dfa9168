/*
 * source.h - private to src/reader: stores that are not a SQLite file.
 *
 * A JSON source (an export file, a running dashboard) provides session
 * objects and, per session, the export object (session columns, perhaps
 * last_active, and "messages"); hermes_store.c builds everything else
 * (prefixes, order, transcripts, streams) on top, so every command works on
 * every source the same way.
 */
#ifndef TXC_READER_SOURCE_H
#define TXC_READER_SOURCE_H

#include "txc/model_hermes.h"
#include "txc/reader.h"

struct txc_source {
	void *impl;
	void (*close)(void *impl);
	/* every session object (columns, last_active when known), any order; in arena a */
	int (*sessions)(void *impl, struct txc_arena *a, const struct txc_json **out, struct txc_diag *d);
	/* the session at index in what sessions() gives (t->session without messages, t->rows,
	 * t->last_active); 0 or TXC_E_*.  By place, not id: ids may be of any type, NULL or repeated. */
	int (*load)(void *impl, size_t index, struct txc_transcript *t, struct txc_diag *d);
};

int txc_store_from_source(struct txc_store **out, const char *name, const struct txc_source *src);

/* Split an export object into t: "messages" becomes t->rows, "last_active" t->last_active. */
void txc_source_split(struct txc_transcript *t, const struct txc_json *obj);

/*
 * Incremental reader of one export object as it arrives: the messages are
 * parsed one by one into t->rows, so a large session is never held twice.
 */
struct txc_export_parser;
struct txc_export_parser *txc_export_parser_new(struct txc_transcript *t);
int txc_export_parser_feed(struct txc_export_parser *p, const char *data, size_t len); /* 0, -1 on bad JSON */
int txc_export_parser_finish(struct txc_export_parser *p);                           /* 0, -1 if incomplete */
void txc_export_parser_free(struct txc_export_parser *p);

#endif
