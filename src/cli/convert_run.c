/*
 * convert_run.c - the convert path that `txc convert` and `txc view` share: SESSION (with a
 * #range), loaded or streamed, written to stdout, -o FILE or the pager, installed for Claude
 * Code, or followed.  The commands check their arguments and call cli_convert_run; it calls
 * no command.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "txc/model_hermes.h"
#include "txc/range.h"
#include "txc/writer_claude.h"

/* ---- a writer that streams (TXC_WCAP_STREAM: hermes): row by row, never the whole session ---- */

struct row_stream {
	const struct txc_writer_stream *ops;
	struct txc_out *out;
	const struct txc_write_opts *w;
	struct txc_stream_state st;
	int64_t first, last; /* a range: the message numbers to write (0, 0: every row) */
	int64_t numbered;    /* rows with a number so far */
};

/* In the range: a numbered row by its number, any other row when it sits between first and last. */
static bool stream_keeps(struct row_stream *hs, const struct txc_json *row)
{
	if (hs->first == 0)
		return true;
	bool numbered = txc_hermes_row_numbered(row);
	hs->numbered += numbered;
	return hs->numbered >= hs->first && (numbered ? hs->numbered <= hs->last : hs->numbered < hs->last);
}

static int stream_head(void *ctx, const struct txc_transcript *t)
{
	struct row_stream *hs = ctx;
	hs->ops->head(hs->out, t, hs->w, &hs->st);
	return 0;
}

static int stream_row(void *ctx, const struct txc_json *row)
{
	struct row_stream *hs = ctx;
	if (!stream_keeps(hs, row))
		return 0;
	hs->ops->row(hs->out, row, &hs->st);
	return hs->out->err ? TXC_E_FAIL : 0;
}

/* a write error stops the stream with out->err set and d left for the caller to fill */
static int stream_rows(const struct cli_args *a, const struct txc_writer_ops *ops, struct txc_store *s,
		       const struct txc_sid *id, unsigned flags, struct txc_out *out, const struct txc_write_opts *w,
		       const struct txc_slice_info *range, struct txc_diag *d)
{
	struct row_stream hs = {ops->stream, out, w, {0}, range->first, range->last, 0};
	if (range->first != 0)
		flags |= TXC_LOAD_COMPACTED; /* numbers count compacted rows: see them all */
	struct txc_row_sink sink = {stream_head, stream_row, &hs};
	struct cli_redact_sink rs;
	int rc = txc_store_stream(s, id, flags, cli_redact_sink(&rs, a, &sink), d);
	cli_redact_sink_release(&rs);
	if (rc == 0)
		ops->stream->tail(out, &hs.st);
	ops->stream->release(&hs.st);
	return rc;
}

/* The session to convert: loaded as a model, or (a streaming writer) its store left open to stream it. */
struct convert_src {
	bool stream;
	struct cli_stores st; /* stream: open */
	struct txc_sid id;    /* stream: the session in st.v[which] */
	size_t which;
	struct txc_transcript *t; /* else: the model */
	char *profile;            /* its store's profile (scopes the Claude session id) */
	bool ranged;              /* SESSION#RANGE: */
	struct txc_range range;
	struct txc_slice_info slice; /* what the range kept (stream: first, last filter the rows) */
};

/* A range: the messages it keeps, said in one line when they are not the ones asked for. */
static enum txc_err convert_slice(const struct cli_args *a, struct txc_transcript *t, struct convert_src *src,
				  struct txc_diag *d)
{
	enum txc_err rc = txc_model_slice(t, &src->range, &src->slice, d);
	const struct txc_slice_info *in = &src->slice;
	if (rc == TXC_OK && in->n_live == 0 && !a->w.include_compacted) {
		char w[64];
		txc_range_words(w, in->first, in->last);
		txc_diag_set(d, TXC_E_USAGE,
			     "%s: history archived by compaction, which only --to markdown "
			     "--include-compacted shows",
			     w);
		return TXC_E_USAGE;
	}
	if (rc != TXC_OK || !(in->widened || in->cut))
		return rc;
	char end[48] = "";
	if (in->cut)
		snprintf(end, sizeof(end), " the session ends at message %lld", (long long)in->n_numbers);
	cli_warn("range %lld-%lld taken as messages %lld-%lld:%s%s%s", (long long)in->asked_first,
		 (long long)in->asked_last, (long long)in->first, (long long)in->last, end,
		 in->cut && in->widened ? ";" : "",
		 in->widened ? " widened so that no tool call is parted from its result" : "");
	return rc;
}

/* a streaming writer, a whole session: the store left open, or (a harness without rows) false and nothing open */
static enum txc_err open_stream(struct cli_args *a, struct convert_src *src, struct txc_diag *d)
{
	enum txc_err rc = cli_stores_open(a, &src->st, d);
	if (rc == TXC_OK)
		rc = cli_resolve(&src->st, a->pos[0], &src->which, &src->id, d);
	if (rc == TXC_OK && !txc_store_has_rows(src->st.v[src->which].s)) {
		/* no rows to stream: the writer makes them from the model (hermes_rows.c) */
		cli_stores_close(&src->st);
		txc_sid_release(&src->id);
		src->stream = false;
	}
	return rc;
}

static enum txc_err convert_open(struct cli_args *a, const struct txc_writer_ops *ops, struct convert_src *src,
				 struct txc_diag *d)
{
	/* Hermes's format is its rows as they are: streamed, so memory stays flat (a chain is joined first) */
	bool whole = a->lineage || a->children;
	src->stream = (ops->caps & TXC_WCAP_STREAM) != 0 && !whole;
	if (src->stream) {
		enum txc_err rc = open_stream(a, src, d);
		if (rc != TXC_OK)
			return rc;
	}
	if (!src->stream) {
		enum txc_err rc = whole ? cli_load_lineage(a, cli_load_flags(a, ops), &src->t, &src->profile, d)
					: cli_load_session(a, cli_load_flags(a, ops), &src->t, &src->profile, d);
		a->w.scope = cli_profile_scope(src->profile); /* src->profile outlives every use of a->w */
		if (rc == TXC_OK && src->ranged)
			rc = convert_slice(a, src->t, src, d);
		return rc;
	}
	if (src->ranged) {
		/* a streamed range: the model (then dropped) says which messages, widened, the rows are */
		struct txc_transcript *t = NULL;
		enum txc_err rc = cli_load_session(a, TXC_LOAD_MODEL_ONLY | TXC_LOAD_COMPACTED, &t, NULL, d);
		if (rc == TXC_OK)
			rc = convert_slice(a, t, src, d);
		txc_transcript_free(t);
		return rc;
	}
	return TXC_OK;
}

/* Idempotent: convert_write closes early, cli_convert_run at the end whatever happened. */
static void convert_close(struct convert_src *src)
{
	if (src->stream)
		cli_stores_close(&src->st);
	src->stream = false;
	txc_sid_release(&src->id);
	txc_transcript_free(src->t);
	src->t = NULL;
	free(src->profile);
	src->profile = NULL;
}

/* -o DIR/NAME.jsonl --children: the subagents in DIR/NAME/subagents/, as Claude Code keeps them */
static enum txc_err subagents_beside(const struct cli_args *a, const struct txc_transcript *t, struct txc_diag *d)
{
	char uuid[37];
	txc_claude_session_uuid(t, a->w.scope, uuid);
	struct txc_buf base = TXC_BUF_INIT;
	txc_buf_addstr(&base, a->output);
	if (base.len > 6 && strcmp(base.buf + base.len - 6, ".jsonl") == 0)
		txc_buf_truncate(&base, base.len - 6);
	else
		txc_buf_addstr(&base, ".d");
	enum txc_err rc = cli_write_subagents(a, t, &a->w, base.buf, uuid, d);
	txc_buf_release(&base);
	return rc;
}

/* The output: to stdout or to a temporary file renamed into place at the end, images first. */
static enum txc_err convert_write(struct cli_args *a, const struct txc_writer_ops *ops, struct convert_src *src,
				  struct txc_diag *d)
{
	cli_write_opts_finish(a, a->output != NULL && !(ops->caps & TXC_WCAP_ONE_FILE));
	struct cli_assets assets;
	cli_assets_init(&assets, a->output ? a->output : "-");
	a->w.assets = &assets.sink;
	struct cli_atomic file = {0};
	enum txc_err rc = TXC_OK;
	if (a->output != NULL)
		rc = cli_atomic_open(&file, a->output, a->force, d);
	struct txc_out out;
	struct cli_tty tty;
	bool page = a->pager && file.f == NULL && isatty(STDOUT_FILENO);
	cli_terminal_opts(&a->w, file.f == NULL);
	if (file.f != NULL)
		txc_out_init_file(&out, file.f);
	else if (page)
		txc_out_init_buf(&out); /* the pager is chosen by the output's height */
	else if (ops->caps & TXC_WCAP_TERMINAL)
		txc_out_init_file(&out, stdout); /* it escapes the transcript itself; its colours go as they are */
	else
		cli_out_stdout(&out, &tty);
	if (rc == TXC_OK && src->stream)
		rc = stream_rows(a, ops, src->st.v[src->which].s, &src->id, cli_load_flags(a, ops), &out, &a->w,
				 &src->slice, d);
	else if (rc == TXC_OK)
		rc = ops->write(&out, src->t, &a->w, d);
	if (rc == TXC_OK && a->output != NULL && a->children && (ops->caps & TXC_WCAP_INSTALL))
		rc = subagents_beside(a, src->t, d);
	struct cli_secrets secrets = {0};
	if (rc == TXC_OK && !src->stream)
		cli_secrets_note(&secrets, a, ops, src->t, a->output != NULL);
	convert_close(src); /* the store is done with before the file lands */
	if (rc == TXC_OK && page && cli_page(out.buf.buf, out.buf.len) != 0)
		out.err = errno ? errno : EIO;
	if ((rc == TXC_OK && cli_out_finish(&out) != 0) || (rc != TXC_OK && out.err && d->msg[0] == '\0')) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write to %s: %s", a->output ? a->output : "stdout",
			     strerror(out.err));
		rc = TXC_E_FAIL;
	}
	if (rc == TXC_OK && a->output != NULL)
		rc = cli_assets_write(&assets, a->force, d); /* images first: the document links to them */
	if (file.f != NULL && rc == TXC_OK)
		rc = cli_atomic_commit(&file, d);
	else if (file.f != NULL)
		cli_atomic_abort(&file);
	cli_assets_release(&assets);
	txc_out_release(&out);
	if (rc == TXC_OK)
		cli_secrets_warn(&secrets);
	else
		cli_secrets_release(&secrets);
	return rc;
}

/*
 * SESSION#RANGE: the text after the last '#' is a range (range.h).  An id that itself holds a
 * '#' not followed by a range is still found: when the range does not parse, the whole
 * argument is the session, and the range's error is the one reported if no session has it.
 */
static void convert_range_arg(struct cli_args *a, struct convert_src *src, char **id_copy, struct txc_diag *bad)
{
	const char *arg = a->pos[0], *hash = strrchr(arg, '#');
	if (hash == NULL)
		return;
	if (txc_range_parse(hash + 1, strlen(hash + 1), &src->range, bad) != TXC_OK)
		return;
	bad->code = TXC_OK;
	*id_copy = txc_xstrdup(arg);
	(*id_copy)[hash - arg] = '\0';
	a->pos[0] = *id_copy;
	src->ranged = true;
}

int cli_convert_run(const char *cmd, struct cli_args *a, const struct txc_writer_ops *ops)
{
	struct txc_diag d = {0}, bad_range = {0};
	struct convert_src src;
	char *id_copy = NULL;
	memset(&src, 0, sizeof(src));
	if (a->n_pos > 0)
		convert_range_arg(a, &src, &id_copy, &bad_range);
	if (a->follow) {
		enum txc_err err = TXC_E_USAGE;
		if (src.ranged) /* following adds the messages that come: a range has none to add */
			txc_diag_set(&d, TXC_E_USAGE, "--follow shows the whole session; drop the #range");
		else
			err = cli_follow(a, ops, &d);
		free(id_copy);
		return err != TXC_OK ? cli_fail(&d) : 0;
	}
	if (src.ranged && (a->lineage || a->children)) { /* ID#N numbers one session's messages, not a chain's */
		free(id_copy);
		return cli_usage(cmd, "a #range names messages of one session: not with %s",
				 a->lineage ? "--lineage" : "--children");
	}
	enum txc_err err = convert_open(a, ops, &src, &d);
	if (err == TXC_E_NOTFOUND && bad_range.code != TXC_OK)
		d = bad_range; /* no session of that name either: the range was meant */
	if (err == TXC_OK && a->install) {
		int res;
		err = cli_install_claude(a, src.t, &a->w, false, &res, &d);
	} else if (err == TXC_OK) {
		err = convert_write(a, ops, &src, &d);
	}
	convert_close(&src);
	free(id_copy);
	return err != TXC_OK ? cli_fail(&d) : 0;
}
