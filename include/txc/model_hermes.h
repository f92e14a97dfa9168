/*
 * model_hermes.h - Hermes's rows -> the model (model_hermes.c).
 *
 * The Hermes readers (SQLite store, export file, dashboard) hand the session
 * row and the message rows, in the shape of Hermes's own export, to these
 * functions; other harnesses have mappings of their own beside it.
 *
 * Ownership: as model.h; everything built lives in t->arena.
 */
#ifndef TXC_MODEL_HERMES_H
#define TXC_MODEL_HERMES_H

#include "txc/model.h"

/* Hermes's own data for one session, as Hermes's exporter sees it (t->native). */
struct txc_hermes_native {
	const struct txc_json *session;     /* object: session columns in table order */
	const struct txc_json *rows;        /* array of message row objects, by id */
	const struct txc_json *last_active; /* bulk export's derived key, or NULL */
	/* the same as Hermes 0.21 computes it (only timestamps inside its window count), when the
	 * reader computed it (has_last_active_021; the value may be null) */
	const struct txc_json *last_active_021;
	bool has_last_active_021;
	bool newer;           /* the source shows a Hermes newer than v0.20.0 wrote it (--hermes-format auto) */
	size_t n_active_rows; /* active message rows the source had */
	size_t n_numbered;    /* rows numbered so far (txc_message.number): a reader that reads
				 only later rows sets it to the count before them */
};

/* t->native, attached (empty, in t->arena) on first use. */
struct txc_hermes_native *txc_hermes_native(struct txc_transcript *t);

/* Hermes's "active" flag of a message row: absent, or the number 1. */
bool txc_hermes_row_active(const struct txc_json *row);
/* Whether a row has a message number (search.h, "Message numbers"): role user, assistant or
 * tool, and active or compacted (compacted = 1).  The one rule search and the model count by. */
bool txc_hermes_row_numbered(const struct txc_json *row);
/* Hermes's "archived" column of a session: true, or a number other than 0. */
bool txc_hermes_archived(const struct txc_json *v);

/*
 * Where a row's text is (docs/FORMATS.md, "Replies outside content").  The reply of a user or
 * assistant row is the first of these that is not blank: content, api_content, and (assistant)
 * the output_text parts of codex_message_items; api_content that differs from the content shown
 * is kept as replayed.  Other roles: content alone.
 */
struct txc_hermes_reply {
	const struct txc_json *content; /* the reply is content (a string or decoded JSON), or NULL */
	struct txc_str text;            /* else the reply's text (api_content, or the items' text), or null */
	struct txc_str replayed;        /* api_content where it differs from the content shown, or null */
};
/* What is built (the items' text) lives in a. */
void txc_hermes_reply_of(struct txc_arena *a, const struct txc_json *row, struct txc_hermes_reply *out);
/* The output_text (and refusal) parts of a codex_message_items value (its JSON text, or a tree), or null. */
struct txc_str txc_hermes_items_text(struct txc_arena *a, const struct txc_json *items);
/* Content as the text a search matches: a string itself; a list its parts as the model shows
 * them (text parts' text, other parts as compact JSON, images left out), one a line; other JSON
 * compact.  Null for none. */
struct txc_str txc_hermes_content_text(struct txc_arena *a, const struct txc_json *content);
/* The text search matches in a row: out[0] its reply (as txc_hermes_content_text), out[1] replayed. */
void txc_hermes_search_text(struct txc_arena *a, const struct txc_json *row, struct txc_str out[2]);

/* Build meta and messages from t->native's session and rows (Hermes export shape). */
void txc_model_from_hermes(struct txc_transcript *t);

/*
 * The same, one row at a time, for readers that do not keep the rows: begin
 * after t->native->session is set; each row may live in a scratch arena (row_arena,
 * reset by the caller afterwards), in which case what the model keeps is
 * copied into t->arena; end sets t->messages.
 */
struct txc_model_builder;
struct txc_model_builder *txc_model_begin(struct txc_transcript *t);
void txc_model_add_row(struct txc_model_builder *b, const struct txc_json *row, struct txc_arena *row_arena);
void txc_model_end(struct txc_model_builder *b);

#endif
