/*
 * render.h - private to src/writer: what the document writers (Markdown now;
 * HTML and the terminal view next) share.
 *
 *  - render.c walks a transcript turn by turn: it pairs each tool call with its
 *    result, applies --detail, --include-compacted and the prompts filter,
 *    counts, and calls one handler per block kind (struct txc_render_ops);
 *  - render.c also reads what a one-line view of a tool call names (path, line
 *    range, command, edit +/- counts) and what a result shows (its text, exit
 *    code, lines, the cut), so no writer parses tool input itself;
 *  - text.c holds the text helpers: cleaning, fences, code spans, inline
 *    escaping, percent-encoding; md_text.c the Markdown-kept-inert prose.
 *
 * Ownership: everything is borrowed from the transcript for the call; buffers
 * passed in are the caller's, appended to.
 */
#ifndef TXC_RENDER_H
#define TXC_RENDER_H

#include "txc/writer.h"

/* ---- the turn walker (render.c) ---- */

/* "Developer instructions" or "System instructions": the heading of a TXC_RENDER_INSTRUCTIONS message */
const char *txc_render_instructions_name(const struct txc_message *m);

/* what a message is shown as */
enum txc_render_who {
	TXC_RENDER_USER,        /* a user turn */
	TXC_RENDER_TOOL_RESULT, /* a user message holding only a tool result no call claimed */
	TXC_RENDER_ASSISTANT,
	TXC_RENDER_INSTRUCTIONS, /* a user-role message of developer/system instructions (not the user's) */
};

struct txc_render_counts {
	size_t messages;   /* shown or not, but not compacted away */
	size_t tool_calls; /* every tool call of the session */
};

/* one tool call as the walker hands it over: the call, its result and its fields */
struct txc_render_call {
	const struct txc_block *call;
	const struct txc_block *result; /* its result; NULL when none was recorded or --detail brief */
	bool show_result;               /* false with --detail brief: the call alone */
	int64_t result_number;          /* the result's message number (ID#N), 0 if none */
};

/*
 * The handlers a writer gives the walker; any may be NULL.  A message's blocks
 * arrive between message_start and message_end, in order; a result the walker
 * paired with a call arrives with that call and never again.
 */
struct txc_render_ops {
	void (*doc_start)(void *ctx, const struct txc_render_counts *n);
	void (*doc_end)(void *ctx);
	void (*message_start)(void *ctx, const struct txc_message *m, enum txc_render_who who);
	void (*message_end)(void *ctx, const struct txc_message *m);
	void (*text)(void *ctx, const struct txc_block *b);
	void (*thinking)(void *ctx, const struct txc_block *b); /* not with --detail brief, never empty */
	void (*replayed)(void *ctx, const struct txc_block *b); /* a TEXT block marked replayed; not with brief */
	void (*image)(void *ctx, const struct txc_block *b);
	void (*tool)(void *ctx, const struct txc_render_call *c);
	/* a result no call before it claimed; in_user: alone in a user message */
	void (*orphan_result)(void *ctx, const struct txc_block *r, bool in_user);
	/* a compression chain of two or more sessions (--lineage): before each segment's first message */
	void (*segment)(void *ctx, const struct txc_segment *s, size_t index, size_t n);
	/* a delegate child (t->children): after the tool call that started it, else after the last message */
	void (*child)(void *ctx, const struct txc_child *c);
};

/* Walk t with the options in o, flushing out after each message. */
void txc_render_walk(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
		     const struct txc_render_ops *ops, void *ctx);
/* Walk a child's transcript inside its parent's document: ops without doc_start, doc_end, segment
 * and child (its turns only; a child's own children are named by its calls, not shown). */
void txc_render_walk_child(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
			   const struct txc_render_ops *ops, void *ctx);

/* ---- what a tool call names (render.c) ---- */

enum txc_render_lines { TXC_LINES_NONE, TXC_LINES_RANGE, TXC_LINES_FROM };

struct txc_tool_fields {
	struct txc_str file_path;          /* input.file_path (Read, Write, Edit, MultiEdit, ...) */
	struct txc_str path;               /* what the call works on: file_path, else a patch's path */
	struct txc_str command;            /* Bash */
	struct txc_str description;        /* Bash */
	struct txc_str workdir;            /* Bash */
	const struct txc_json *timeout_ms; /* Bash, an integer, or NULL */
	bool background;                   /* Bash: run_in_background given */
	bool replace_all;                  /* Edit: replace_all given */
	struct txc_str content;            /* Write */
	struct txc_str patch;              /* a "patch" call's patch text, else null */
	enum txc_render_lines lines;       /* Read: lines line_from..line_to, or from line_from */
	int64_t line_from, line_to;
	size_t added, removed; /* Edit, MultiEdit: the + and - lines of txc_render_edit_diff */
};

void txc_render_tool_fields(const struct txc_block *call, struct txc_tool_fields *f);
/* Edit / MultiEdit as diff text: "-old" then "+new" lines, "@@" between edits */
void txc_render_edit_diff(struct txc_buf *out, const struct txc_block *call);
/* a code block's language for a file name by its extension ("" if none known) */
const char *txc_render_lang_of(const char *path);
/* a string member of o, or a null str */
struct txc_str txc_render_jstr(const struct txc_json *o, const char *key);

/* ---- what a result shows (render.c) ---- */

struct txc_render_result {
	struct txc_buf body;      /* cleaned text, no trailing newline; cut to max_output_lines */
	const char *lang;         /* "text", "json" or "diff" (a patch's result) */
	const char *status;       /* "ok", "error" or "denied" */
	struct txc_str exit_code; /* an integer exit code's digits, or null */
	size_t lines;             /* lines before any cut */
	size_t cut;               /* lines cut (--detail normal, --max-output-lines) */
	bool truncated;           /* the tool itself sent only part: a read of file_lines lines */
	size_t file_lines;
	char exit_digits[21]; /* exit_code's bytes live here */
};
void txc_render_result_init(struct txc_render_result *r, const struct txc_block *res, const struct txc_write_opts *o);
void txc_render_result_release(struct txc_render_result *r);

/* ---- images (render.c) ---- */

/* a media type and data fit to go into a data: URI (an image type, strict base64) */
enum txc_image_check {
	TXC_IMAGE_OK,         /* an image/... type and well-formed base64: fit for a data: URI or a file */
	TXC_IMAGE_BAD_TYPE,   /* not an image media type (or one with odd characters) */
	TXC_IMAGE_SCRIPTABLE, /* SVG: it can carry script, so it is never shown or saved as an image */
	TXC_IMAGE_BAD_DATA,   /* not base64 */
};
enum txc_image_check txc_render_image_check(const struct txc_block *img);
/* the file name extension for a checked media type: image/png -> png, image/jpeg -> jpg */
void txc_render_image_ext(char out[16], struct txc_str media);

/* ---- text helpers (text.c) ---- */

/* valid UTF-8, no ANSI escapes or other controls but \n and \t, LF line ends */
void txc_text_clean(struct txc_buf *out, const char *p, size_t len);
size_t txc_text_count_lines(const char *p, size_t len);
/* percent-encode all but unreserved characters and '/', so no character ends a link */
void txc_text_percent_encode(struct txc_buf *out, struct txc_str p);

/* a fenced code block, its fence longer than any backtick run in p */
void txc_md_fence(struct txc_buf *b, const char *lang, const char *p, size_t len);
/* an inline code span for a short untrusted value, on one line */
void txc_md_code_span(struct txc_buf *b, const char *p, size_t len);
/* plain inline text (titles, names): HTML and Markdown specials escaped, one line */
void txc_md_inline(struct txc_buf *b, const char *p, size_t len);
/* a model's Markdown, kept but made inert (md_text.c; the rules are there) */
void txc_md_text(struct txc_buf *b, const char *p, size_t len);
/* a message's Markdown as safe HTML (html_md.c, cmark-gfm; the rules are there); p cleaned text */
void txc_html_markdown(struct txc_buf *b, const char *p, size_t len);
/* HTML escaping (html_esc.c): entities for & < > " ', bidi controls made visible, C1 controls
 * and BOMs as U+FFFD; _clean takes text already through txc_text_clean, the others any bytes;
 * _attr keeps an attribute value on one line (the quotes are the caller's) */
void txc_html_esc_clean(struct txc_buf *b, const char *p, size_t len);
void txc_html_esc(struct txc_buf *b, const char *p, size_t len);
void txc_html_esc_str(struct txc_buf *b, struct txc_str s);
void txc_html_esc_attr(struct txc_buf *b, struct txc_str s);

#endif
