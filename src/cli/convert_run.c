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
#include "txc/range.h"

/* The session to convert: its store open, and the pipeline's job (the model, or its rows to stream). */
struct convert_src {
	struct cli_stores st;
	bool open;         /* st, and job while is_job */
	struct txc_sid id; /* the session in st.v[which] */
	size_t which;
	struct txc_convert_req req;
	struct txc_convert job;
	bool is_job;
	bool ranged; /* SESSION#RANGE: */
	struct txc_range range;
	const struct cli_args *a; /* (for on_slice) */
};

/* The pipeline's on_slice: a range that keeps only compacted history is refused unless shown;
 * the messages it keeps said in one line when they are not the ones asked for. */
static int convert_slice(void *ctx, const struct txc_slice_info *in, struct txc_diag *d)
{
	const struct convert_src *src = ctx;
	if (in->n_live == 0 && !src->a->w.include_compacted) {
		char w[64];
		txc_range_words(w, in->first, in->last);
		txc_diag_set(d, TXC_E_USAGE,
			     "%s: history archived by compaction, which only --to markdown "
			     "--include-compacted shows",
			     w);
		return TXC_E_USAGE;
	}
	if (!(in->widened || in->cut))
		return TXC_OK;
	char end[48] = "";
	if (in->cut)
		snprintf(end, sizeof(end), " the session ends at message %lld", (long long)in->n_numbers);
	cli_warn("range %lld-%lld taken as messages %lld-%lld:%s%s%s", (long long)in->asked_first,
		 (long long)in->asked_last, (long long)in->first, (long long)in->last, end,
		 in->cut && in->widened ? ";" : "",
		 in->widened ? " widened so that no tool call is parted from its result" : "");
	return TXC_OK;
}

static enum txc_err convert_open(struct cli_args *a, const struct txc_writer_ops *ops, struct convert_src *src,
				 struct txc_diag *d)
{
	src->a = a;
	enum txc_err rc = cli_stores_open(a, &src->st, d);
	src->open = true; /* (closed whatever happened: a failed open may have opened some) */
	if (rc == TXC_OK)
		rc = cli_resolve(&src->st, a->pos[0], &src->which, &src->id, d);
	if (rc != TXC_OK)
		return rc;
	cli_convert_req(a, cli_load_flags(a, ops), &src->id, &src->req);
	src->req.range = src->ranged ? &src->range : NULL;
	src->req.on_slice = convert_slice;
	src->req.ctx = src;
	/* (the profile outlives every use of a->w: the stores stay open until convert_close) */
	a->w.scope = cli_profile_scope(src->st.v[src->which].profile);
	src->is_job = true;
	return txc_convert_open(&src->job, src->st.v[src->which].s, &src->req, ops, d);
}

/* Idempotent: convert_write closes early, cmd_convert at the end whatever happened. */
static void convert_close(struct convert_src *src)
{
	if (src->is_job)
		txc_convert_close(&src->job);
	src->is_job = false;
	if (src->open)
		cli_stores_close(&src->st);
	src->open = false;
	txc_sid_release(&src->id);
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
	struct cli_secrets secrets = {0};
	src->req.secrets = cli_secrets_scanner(&secrets, a, ops, a->output != NULL);
	if (rc == TXC_OK)
		rc = txc_convert_write(&src->job, &a->w, &out, d);
	if (rc == TXC_OK && a->output != NULL && a->children && (ops->caps & TXC_WCAP_INSTALL))
		rc = cli_children_beside(a, ops, src->job.t, d);
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
		err = cli_install(a, ops, src.job.t, &a->w, false, &res, &d);
	} else if (err == TXC_OK) {
		err = convert_write(a, ops, &src, &d);
	}
	convert_close(&src);
	free(id_copy);
	return err != TXC_OK ? cli_fail(&d) : 0;
}
