/*
 * hermes_source.h - private to Hermes's backends in src/reader (SQLite store, export file,
 * dashboard, legacy folder): Hermes's session rows and export objects as the façade's
 * listings, links and loads need them, and the ops every Hermes backend shares (the model
 * from its rows, the replay of loaded rows as a stream, the scan of a session's rows).
 * The façade (store.c) never includes this header; it reaches these through the ops.
 *
 * Ownership: as source.h; what is built lives in the arena passed or in t->arena.
 */
#ifndef TXC_READER_HERMES_SOURCE_H
#define TXC_READER_HERMES_SOURCE_H

#include "source.h"
#include "txc/model_hermes.h"

/* The summary fields of a Hermes session row (all but sid; native = row). */
void txc_source_info(const struct txc_json *row, struct txc_session_info *info);
/* The same from the fields' values, each as a row would hold it (NULL: absent); native is kept as is. */
struct txc_source_fields {
	const struct txc_json *title, *cwd, *source, *model, *n_messages, *started, *last_active, *archived;
};
void txc_source_info_of(const struct txc_source_fields *f, const struct txc_json *native,
			struct txc_session_info *info);
/* The links (lineage.h) of a Hermes session row: parent, end reason, model_config markers; id and sid are the caller's.
 */
struct txc_link;
void txc_source_link(struct txc_arena *a, const struct txc_json *row, struct txc_link *l);
/* Summaries of Hermes session objects, each placed at its index + 1 (for sources that load by place). */
int txc_source_infos(struct txc_arena *a, const struct txc_json *rows, struct txc_session_info **out, size_t *n);

/* Whether a row is of tool name: its tool_name, or a call to it in its tool_calls (JSON text). */
bool txc_source_uses_tool(struct txc_arena *a, struct txc_str tool_name, struct txc_str calls, const char *name);

/* Split an export object into t->native: "messages" becomes rows, "last_active" last_active. */
void txc_source_split(struct txc_transcript *t, const struct txc_json *obj);

/*
 * Incremental reader of one export object as it arrives: the messages are
 * parsed one by one into t->native->rows, so a large session is never held twice.
 */
struct txc_export_parser;
struct txc_export_parser *txc_export_parser_new(struct txc_transcript *t);
int txc_export_parser_feed(struct txc_export_parser *p, const char *data, size_t len); /* 0, -1 on bad JSON */
int txc_export_parser_finish(struct txc_export_parser *p);                             /* 0, -1 if incomplete */
void txc_export_parser_free(struct txc_export_parser *p);

/* The ops every Hermes backend shares (hermes_session.c, hermes_scan.c): */
/* build: t->native's rows as the model */
void txc_hermes_build(struct txc_transcript *t);
/* placed: a dashboard's export has no last_active, its list does; without TXC_LOAD_LAST_ACTIVE none */
void txc_hermes_placed(struct txc_transcript *t, const struct txc_session_info *info, unsigned flags);
/* replay: t->native's rows, after the head (which sees the transcript without them) */
int txc_hermes_replay(struct txc_transcript *t, const struct txc_row_sink *sink);
/* scan: a session's rows, streamed, matched as the index would (search.h) */
int txc_hermes_scan(struct txc_store *s, const struct txc_session_info *session, const struct txc_query *q,
		    const struct txc_search_opts *o, const struct txc_hit_sink *sink, bool *stopped,
		    struct txc_diag *d);

#endif
