/*
 * writer.h - output formats.  Each writer is one file defining one ops struct;
 * the registry in writer.c lists them.  Writers see only the model and write
 * through a txc_out; they print no diagnostics and never exit.
 *
 * Ownership: the writer borrows the transcript and the options; everything it
 * allocates is freed before it returns.
 */
#ifndef TXC_WRITER_H
#define TXC_WRITER_H

#include <stdio.h>

#include "txc/diag.h"
#include "txc/model.h"

/* Buffered output: writers append to buf and call txc_out_flush() now and then. */
struct txc_out {
	struct txc_buf buf;
	int (*sink)(void *ctx, const char *p, size_t n); /* 0, or -1 with errno set */
	void *ctx;
	int err; /* first errno seen; sticky */
};
void txc_out_init_file(struct txc_out *o, FILE *f);
void txc_out_init_buf(struct txc_out *o); /* keeps everything in o->buf */
void txc_out_maybe_flush(struct txc_out *o);
int txc_out_flush(struct txc_out *o);
void txc_out_release(struct txc_out *o);

enum txc_reasoning { TXC_REASONING_KEEP, TXC_REASONING_TEXT, TXC_REASONING_DROP };
enum txc_detail { TXC_DETAIL_NORMAL, TXC_DETAIL_FULL, TXC_DETAIL_BRIEF, TXC_DETAIL_PROMPTS };
enum txc_images { TXC_IMAGES_AUTO, TXC_IMAGES_INLINE, TXC_IMAGES_FILES, TXC_IMAGES_OMIT };

/*
 * --images files: the Markdown writer hands each decoded image to this sink
 * (name is a plain file name such as "image-1.png"; bytes are borrowed for
 * the call) and links it as <assets_link>/<name>.  The caller stores it.
 */
struct txc_asset_sink {
	void (*put)(void *ctx, const char *name, const char *bytes, size_t n);
	void *ctx;
	struct txc_str assets_link; /* relative folder, as written in links */
};

struct txc_write_opts {
	bool bulk;                   /* hermes: the bulk export line (adds last_active) */
	enum txc_reasoning reasoning;/* claude */
	struct txc_str cwd;          /* claude: cwd to record when the session has none */
	enum txc_detail detail;      /* markdown */
	long max_output_lines;       /* markdown, normal detail */
	bool include_compacted;      /* markdown */
	bool utc;                    /* markdown headings in UTC rather than local time */
	enum txc_images images;      /* markdown */
	const struct txc_asset_sink *assets; /* markdown, images == FILES */
};

struct txc_writer_ops {
	const char *name;    /* --to value */
	const char *summary; /* one line for --help */
	const char *ext;     /* file extension for bulk export */
	int (*write)(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
		     struct txc_diag *d);
};

extern const struct txc_writer_ops txc_writer_hermes, txc_writer_claude, txc_writer_markdown;
const struct txc_writer_ops *txc_writer_lookup(const char *name);
const struct txc_writer_ops *const *txc_writer_all(size_t *n);

/*
 * The Hermes export line in three steps, for streaming a session row by row
 * (txc_store_stream): head, each row (inactive rows are skipped; *n_written
 * starts at 0), tail.  Same bytes as txc_writer_hermes.write; t->native must be set.
 */
void txc_hermes_head(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt);
void txc_hermes_row(struct txc_out *out, const struct txc_json *row, size_t *n_written);
void txc_hermes_tail(struct txc_out *out);

/* Claude Code helpers shared with the CLI's --install. */
void txc_claude_session_uuid(const struct txc_transcript *t, char out[37]);
void txc_claude_project_folder(struct txc_buf *out, const char *cwd, size_t len);

/* ISO-8601 UTC with milliseconds and Z; false when out of range (years 1..9999). */
bool txc_time_iso_ms(char out[64], double secs);

#endif
