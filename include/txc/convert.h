/*
 * convert.h - one session, assembled and written (src/convert/convert.c): the pipeline
 * every command that converts a session goes through.  Source (a store and a session it
 * names) -> range -> lineage join and children adoption -> redaction -> writer.
 *
 * Ownership: the request, the store, the writer options and the sink are the caller's and
 * only borrowed.  txc_assemble gives a transcript the caller frees (txc_transcript_free).
 * A txc_convert job owns the transcript it assembled until txc_convert_close.  Nothing here
 * prints: what a person should know (a chain that starts early, a range taken otherwise)
 * goes to the request's callbacks, which the caller words; errors fill the txc_diag.
 */
#ifndef TXC_CONVERT_H
#define TXC_CONVERT_H

#include "txc/range.h"
#include "txc/reader.h"
#include "txc/writer.h"

struct txc_redactor;

/* A compression chain that is not the whole story: the caller words it (its strings live as long as the call). */
struct txc_chain_note {
	struct txc_str asked;  /* the session asked for */
	struct txc_str first;  /* the chain's first session */
	struct txc_str parent; /* first's parent (missing) */
	bool missing;          /* first's parent is not in the store: the chain starts at first */
	bool cycle;            /* the parent links loop: the chain is cut to start at first */
};

struct txc_convert_req {
	const struct txc_sid *id;      /* the session, in the store given */
	const char *asked;             /* how the caller named it (messages), or NULL: id's text */
	unsigned load_flags;           /* from the writer's caps (TXC_LOAD_*) */
	bool lineage;                  /* the compression chain joined into one conversation */
	bool children;                 /* delegate children loaded and placed (else only named) */
	const struct txc_range *range; /* one session's messages, or NULL: whole (not with lineage/children) */
	bool redact;                   /* secrets replaced by markers before any writer sees them */
	struct txc_redactor *secrets;  /* scan-only: counts what the written transcript shows, or NULL */
	/* Following (not with lineage, children or a range): only the message rows above after
	 * (txc_store_load_after); *last gets the highest row id read.  NULL: the whole session. */
	int64_t after, *last;
	/* Called when the chain has a missing parent or a cycle, before the parts load (or NULL). */
	void (*on_chain)(void *ctx, const struct txc_chain_note *n);
	/* Called with what the range kept, before anything is written; non-zero (d set) stops (or NULL). */
	int (*on_slice)(void *ctx, const struct txc_slice_info *s, struct txc_diag *d);
	void *ctx;
};

/* The session as one transcript: loaded, cut to the range, chain joined, children placed, redacted. */
int txc_assemble(struct txc_store *s, const struct txc_convert_req *req, struct txc_transcript **t, struct txc_diag *d);

/*
 * A conversion in two steps, so that the caller can open its output only once the session is
 * known to be there: txc_convert_open finds and assembles it (a streaming writer's session,
 * without lineage or children, is only sliced: its rows go to the writer one by one at
 * write), txc_convert_write renders it to out (and counts its secrets with req->secrets),
 * txc_convert_close frees it.  The request and store must outlive the job.
 */
struct txc_convert {
	struct txc_store *s;
	const struct txc_convert_req *req;
	const struct txc_writer_ops *ops;
	struct txc_transcript *t; /* NULL while streaming */
	struct txc_slice_info slice;
	bool stream;
};
int txc_convert_open(struct txc_convert *job, struct txc_store *s, const struct txc_convert_req *req,
		     const struct txc_writer_ops *ops, struct txc_diag *d);
int txc_convert_write(struct txc_convert *job, const struct txc_write_opts *w, struct txc_out *out, struct txc_diag *d);
void txc_convert_close(struct txc_convert *job);
/* open, write, close: the one call. */
int txc_convert(struct txc_store *s, const struct txc_convert_req *req, const struct txc_writer_ops *ops,
		const struct txc_write_opts *w, struct txc_out *out, struct txc_diag *d);

/*
 * A redacting row sink: the session row and each row redacted before inner sees them (for a
 * streaming writer; bulk JSON).  txc_convert_redact_sink gives inner itself when !redact.
 */
struct txc_redact_sink {
	struct txc_row_sink inner, sink;
	struct txc_redactor *r;
	struct txc_arena *scratch;
};
const struct txc_row_sink *txc_convert_redact_sink(struct txc_redact_sink *rs, bool redact,
						   const struct txc_row_sink *inner);
void txc_convert_redact_sink_release(struct txc_redact_sink *rs);

/*
 * Claude Code keeps each subagent's transcript in a file of its own: every loaded child of t
 * rendered with w as a sidechain of session (t's session uuid), handed to emit with its agent
 * id; stops at the first non-zero return.  Returns 0 when t has no loaded child.
 */
int txc_convert_subagents(const struct txc_transcript *t, const struct txc_write_opts *w, const char *session,
			  int (*emit)(void *ctx, const char *agent, const char *p, size_t len, struct txc_diag *d),
			  void *ctx, struct txc_diag *d);
/*
 * Codex keeps a spawned thread in a rollout of its own, linked to its parent by session_meta.source
 * (subagent.thread_spawn.parent_thread_id): every loaded child of t (and theirs, depth first) handed to
 * emit with the options that write it as a subagent of parent (t's thread uuid) and its own uuid
 * (txc_codex_session_uuid, so the same every run); its cwd is its parent's.  Stops at the first
 * non-zero return.  Borrowed: child and cw live only during the call.
 */
typedef int (*txc_convert_codex_emit)(void *ctx, const struct txc_transcript *child, const struct txc_write_opts *cw,
				      const char uuid[37], struct txc_diag *d);
int txc_convert_codex_subagents(const struct txc_transcript *t, const struct txc_write_opts *w, const char *parent,
				txc_convert_codex_emit emit, void *ctx, struct txc_diag *d);
/* true when t has a loaded child (a subagent file to write) */
bool txc_convert_has_subagents(const struct txc_transcript *t);

#endif
