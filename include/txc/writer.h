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

/* --reasoning for the Claude writer.  AUTO (the default) keeps what Anthropic signed as thinking
 * and writes other reasoning as text: the API refuses an unsigned thinking block (400
 * thinking.signature), so KEEP costs a resumed session a rejected first request. */
enum txc_reasoning { TXC_REASONING_AUTO, TXC_REASONING_KEEP, TXC_REASONING_TEXT, TXC_REASONING_DROP };
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

/*
 * --follow writes a session in parts as it grows: the first part as usual, then
 * each later part holds only the new messages.  What a writer carries from one
 * part to the next lives here (the caller keeps it; writers update it).
 */
struct txc_write_part {
	bool continued; /* a later part: no document head or tail; hermes: one line per new row */
	size_t records; /* claude: records written so far (the record uuids go on from there) */
	char prev[37];  /* claude: the last record's uuid, the next one's parentUuid ("" if none) */
	/* claude: the session uuid every part writes (set by the first part when ""), and the
	 * conversation since the last boundary, for the next one's preTokens */
	char session[37];
	int64_t seg_bytes;
	/* --follow --lineage: this part begins the continuation *begins (begins[-1]: the session it
	 * continues), segment `segment` of the chain (from 0): markdown and terminal head it as
	 * --lineage heads a segment; NULL for a part that goes on in the same session */
	const struct txc_segment *begins;
	size_t segment;
};

/* --hermes-format: which Hermes's export to write (auto: the one the source shows; docs/FORMATS.md) */
enum txc_hermes_format { TXC_HFMT_AUTO, TXC_HFMT_020, TXC_HFMT_021 };

struct txc_write_opts {
	bool bulk;                            /* hermes: the bulk export line (adds last_active) */
	enum txc_hermes_format hermes_format; /* hermes */
	enum txc_reasoning reasoning;         /* claude */
	struct txc_str cwd;                   /* claude: cwd to record when the session has none */
	struct txc_str scope;                 /* claude: the store's profile, mixed into the session uuid so that one
						 id in two profiles is two sessions; empty for the root store */
	enum txc_detail detail;               /* markdown */
	long max_output_lines;                /* markdown, normal detail */
	bool include_compacted;               /* markdown */
	bool utc;                             /* markdown headings in UTC rather than local time */
	enum txc_images images;               /* markdown */
	const struct txc_asset_sink *assets;  /* markdown, images == FILES */
	bool color;                           /* terminal: SGR colours (the CLI decides: --color, NO_COLOR) */
	long width;                           /* terminal: columns to wrap to (0: 80) */
	struct txc_write_part *part;          /* --follow: this is one part of a growing session, or NULL */
	bool children;                        /* markdown: delegate children as nested transcripts, not a link line */
	struct txc_str sidechain_session;     /* claude: write a subagent transcript of this session uuid ... */
	struct txc_str agent_id;              /* claude: ... as this agent (txc_claude_agent_id) */
	struct txc_str codex_parent;          /* codex: write a subagent rollout spawned by this thread uuid ... */
	int codex_depth;                      /* codex: ... this many spawns below the root thread (1: a child) */
	struct txc_str codex_uuid;            /* codex: the rollout's thread uuid, or empty: the session's own */
	bool nav;                             /* html in an archive (export --out): the page carries the slots
						 TXC_NAV_OPEN..TXC_NAV_CLOSE the archive fills with its links */
};

/* Where an archive page's links go (html: at the top and the bottom of the page, empty as the
 * writer leaves them).  Transcript text never holds "<!--": it is escaped, so the first and the
 * last slot are the writer's. */
#define TXC_NAV_OPEN  "<!--txc-nav-->"
#define TXC_NAV_CLOSE "<!--/txc-nav-->"

/*
 * What a writer can do, beyond write(); the CLI decides by these, never by name.
 */
enum txc_writer_cap {
	TXC_WCAP_NATIVE_ROWS = 1u << 0, /* writes the source's own rows: load them (hermes) */
	TXC_WCAP_STREAM = 1u << 1,      /* can write a session row by row (hermes; writer_hermes.h) */
	TXC_WCAP_ASSETS = 1u << 2,      /* can put images in files beside its output (--images files) */
	TXC_WCAP_INSTALL = 1u << 3,     /* can be installed for its program (--install; writer_claude.h) */
	TXC_WCAP_TERMINAL = 1u << 4,    /* made for a terminal: escapes every control and bidi character of the
					   transcript itself and adds colour only when asked, so its bytes go to a
					   terminal as they are; shows message numbers (load compacted rows) */
	TXC_WCAP_ONE_FILE = 1u << 5,    /* one self-contained file: images inline unless --images files */
	TXC_WCAP_SHARED = 1u << 6,      /* a document people read and share: without --redact, output that
					   shows likely secrets gets one warning */
};

/* The write options a writer reads (its .opts): the CLI refuses the others. */
enum txc_write_opt {
	TXC_WOPT_REASONING = 1u << 0,
	TXC_WOPT_DETAIL = 1u << 1,
	TXC_WOPT_MAX_LINES = 1u << 2,
	TXC_WOPT_COMPACTED = 1u << 3,
	TXC_WOPT_UTC = 1u << 4,
	TXC_WOPT_IMAGES = 1u << 5,
	TXC_WOPT_CWD = 1u << 6,
	TXC_WOPT_WIDTH = 1u << 7,
	TXC_WOPT_CHILDREN = 1u << 8,      /* --children */
	TXC_WOPT_HERMES_FORMAT = 1u << 9, /* --hermes-format */
};

/*
 * Writers with TXC_WCAP_STREAM write a session row by row as the reader streams
 * it (txc_store_stream): head, each native row, tail; the same bytes as write.
 * What a session's stream carries from row to row lives in a txc_stream_state the
 * caller zeroes before head and hands to release() when done (after tail, or when
 * the stream stopped early); nothing else is kept.  Borrowed arguments only.
 */
struct txc_hermes_timings; /* writer_hermes.h */
struct txc_stream_state {
	size_t n_written;                   /* rows written so far */
	bool v021;                          /* hermes: writing Hermes 0.21's export (head decides) */
	struct txc_hermes_timings *timings; /* hermes 0.21: what "timings" needs, gathered row by row */
};
struct txc_writer_stream {
	void (*head)(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
		     struct txc_stream_state *st);
	void (*row)(struct txc_out *out, const struct txc_json *row, struct txc_stream_state *st);
	void (*tail)(struct txc_out *out, struct txc_stream_state *st);
	void (*release)(struct txc_stream_state *st);
};

/* One page of a browsable archive (a writer's .index): what export's manifest recorded of it. */
struct txc_index_entry {
	struct txc_str path;                     /* relative to the archive's folder, as written */
	struct txc_str id, title, source, model; /* null when unknown */
	struct txc_str preview;                  /* an untitled session's first user text, cut; or null */
	struct txc_str started;                  /* ISO 8601 UTC text, or null */
	struct txc_str cost;                     /* the cost in USD as a JSON number's text, or null */
	int64_t messages;
};

struct txc_writer_ops {
	const char *name;    /* --to value */
	const char *summary; /* one line for --help */
	const char *ext;     /* file extension for bulk export */
	unsigned caps;       /* enum txc_writer_cap bits */
	unsigned opts;       /* enum txc_write_opt bits: the options it reads */
	int (*write)(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
		     struct txc_diag *d);
	const struct txc_writer_stream *stream; /* TXC_WCAP_STREAM only */
	/* export --out DIR: the folder's index page of the n pages in v (sorted as given), or NULL */
	void (*index)(struct txc_buf *out, const struct txc_index_entry *v, size_t n);
	/* export --out DIR: the links of a page's nav slots (what goes between TXC_NAV_OPEN and
	 * TXC_NAV_CLOSE): to the index and to the pages before and after it in the index's order (NULL
	 * at either end); up is "" or "../" for each folder the page lies below DIR.  NULL: none. */
	void (*nav)(struct txc_buf *out, const char *up, const struct txc_index_entry *prev,
		    const struct txc_index_entry *next);
};

/* The registry (writer.c): every writer, in --help order. */
const struct txc_writer_ops *txc_writer_lookup(const char *name);
const struct txc_writer_ops *const *txc_writer_all(size_t *n);

#endif
