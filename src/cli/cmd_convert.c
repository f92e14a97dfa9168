/* cmd_convert.c - `txc convert`: one session to one format, stdout or a file, or installed for Claude Code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "txc/range.h"
#include "txc/writer_claude.h"

/*
 * stdout on a terminal: transcript text must not drive it, so control
 * characters and escape sequences are shown escaped.  A UTF-8 sequence cut
 * by a flush boundary waits for its next bytes.
 */
static int tty_write(void *ctx, const char *p, size_t n)
{
	struct cli_tty *t = ctx;
	struct txc_buf in = TXC_BUF_INIT, out = TXC_BUF_INIT;
	txc_buf_add(&in, t->carry, t->n_carry);
	txc_buf_add(&in, p, n);
	size_t keep = 0; /* an unfinished sequence at the end */
	for (size_t k = 1; k <= 3 && k <= in.len; k++) {
		unsigned char c = (unsigned char)in.buf[in.len - k];
		if ((c & 0xC0) == 0x80)
			continue;
		size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
		if (need > k)
			keep = k;
		break;
	}
	if (n == 0)
		keep = 0; /* the final flush: nothing more will come */
	cli_safe_text(&out, in.buf, in.len - keep, false);
	memcpy(t->carry, in.buf + in.len - keep, keep);
	t->n_carry = keep;
	int rc = fwrite(out.buf, 1, out.len, stdout) == out.len ? 0 : -1;
	txc_buf_release(&in);
	txc_buf_release(&out);
	return rc;
}

void cli_out_stdout(struct txc_out *out, struct cli_tty *tty)
{
	memset(tty, 0, sizeof(*tty));
	txc_out_init_file(out, stdout);
	if (isatty(STDOUT_FILENO))
		out->sink = tty_write, out->ctx = tty;
}

int cli_out_finish(struct txc_out *out)
{
	int rc = txc_out_flush(out);
	if (rc == 0 && out->sink == tty_write && tty_write(out->ctx, "", 0) != 0) {
		out->err = errno ? errno : EIO; /* the carried bytes, if any, shown escaped */
		rc = -1;
	}
	return rc;
}

/* The usage checks: one SESSION, a known --to, options that writer takes; 0 or the exit status. */
static int convert_args(struct cli_args *a, const struct txc_writer_ops **ops)
{
	if (a->n_pos != 1)
		return cli_usage(CMD_CONVERT, a->n_pos ? "give exactly one SESSION" : "missing SESSION");
	if (a->to == NULL) {
		struct txc_buf l = TXC_BUF_INIT;
		cli_format_list(&l, 0);
		int rc = cli_usage(CMD_CONVERT, "missing --to FORMAT (%s)", l.buf);
		txc_buf_release(&l);
		return rc;
	}
	int rc = cli_writer_for(CMD_CONVERT, a->to, ops);
	if (rc != 0)
		return rc;
	if (a->output != NULL && strcmp(a->output, "-") == 0)
		a->output = NULL; /* -o - is standard output */
	rc = cli_check_writer(CMD_CONVERT, a, *ops);
	if (rc != 0)
		return rc;
	if (a->install && a->output)
		return cli_usage(CMD_CONVERT, "--install and -o cannot be combined");
	if (a->follow && (a->install || a->output))
		return cli_usage(CMD_CONVERT, "--follow writes to standard output: not with %s",
				 a->install ? "--install" : "-o");
	/* a page is whole: messages appended after its </html> are outside the document */
	if (a->follow && ((*ops)->caps & TXC_WCAP_ONE_FILE))
		return cli_usage(CMD_CONVERT, "--follow does not apply to --to %s (a page is written whole)",
				 (*ops)->name);
	/* Claude Code keeps a subagent's transcript in a file of its own, beside the session's */
	if (a->children && ((*ops)->caps & TXC_WCAP_INSTALL) && !a->install && a->output == NULL)
		return cli_usage(CMD_CONVERT,
				 "--children with --to %s needs -o FILE or --install (subagents are files "
				 "of their own)",
				 (*ops)->name);
	return 0;
}

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
	cli_terminal_opts(a, file.f == NULL);
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
		rc = subagents_beside(a, src->job.t, d);
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

void cli_terminal_opts(struct cli_args *a, bool to_stdout)
{
	bool tty = to_stdout && isatty(STDOUT_FILENO);
	a->w.color = to_stdout ? cli_color_stdout() : cli_color_always();
	if (a->w.width > 0)
		return;
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		a->w.width = ws.ws_col;
	else if (tty && cols != NULL && atol(cols) > 0) /* COLUMNS only describes a terminal */
		a->w.width = atol(cols);
	else
		a->w.width = 80;
}

int cli_convert_run(unsigned cmd, struct cli_args *a, const struct txc_writer_ops *ops)
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
		err = cli_install_claude(a, src.job.t, &a->w, false, &res, &d);
	} else if (err == TXC_OK) {
		err = convert_write(a, ops, &src, &d);
	}
	convert_close(&src);
	free(id_copy);
	return err != TXC_OK ? cli_fail(&d) : 0;
}

int cmd_convert(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(CMD_CONVERT, argc, argv, &a, &rc))
		return rc;
	const struct txc_writer_ops *ops = NULL;
	rc = convert_args(&a, &ops);
	if (rc != 0)
		return rc;
	return cli_convert_run(CMD_CONVERT, &a, ops);
}
