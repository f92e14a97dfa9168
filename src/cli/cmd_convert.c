/* cmd_convert.c - `txc convert`: one session to one format, stdout or a file, or installed for Claude Code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

/*
 * stdout on a terminal: transcript text must not drive it, so control
 * characters and escape sequences are shown escaped.  A UTF-8 sequence cut
 * by a flush boundary waits for its next bytes.
 */
struct tty_sink {
	char carry[4];
	size_t n_carry;
};

static int tty_write(void *ctx, const char *p, size_t n)
{
	struct tty_sink *t = ctx;
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

int cmd_convert(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(CMD_CONVERT, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos != 1)
		return cli_usage(CMD_CONVERT, a.n_pos ? "give exactly one SESSION" : "missing SESSION");
	if (a.to == NULL)
		return cli_usage(CMD_CONVERT, "missing --to FORMAT (claude, hermes or markdown)");
	const struct txc_writer_ops *ops = txc_writer_lookup(a.to);
	if (ops == NULL)
		return cli_usage(CMD_CONVERT, "unknown format '%s' (claude, hermes or markdown)", a.to);
	if (a.install && ops != &txc_writer_claude)
		return cli_usage(CMD_CONVERT, "--install works with --to claude only");
	if (a.output != NULL && strcmp(a.output, "-") == 0)
		a.output = NULL; /* -o - is standard output */
	if (a.install && a.output)
		return cli_usage(CMD_CONVERT, "--install and -o cannot be combined");
	if (a.w.images == TXC_IMAGES_FILES && (a.output == NULL || ops != &txc_writer_markdown))
		return cli_usage(CMD_CONVERT, "--images files needs --to markdown and -o FILE");

	struct txc_diag d = {0};
	struct txc_transcript *t = NULL;
	unsigned flags = (a.w.include_compacted ? TXC_LOAD_COMPACTED : 0) |
			 (ops != &txc_writer_hermes ? TXC_LOAD_MODEL_ONLY : 0);
	rc = cli_load_session(&a, flags, &t, &d);
	if (rc)
		return cli_fail(&d);
	if (a.install) {
		int res;
		rc = cli_install_claude(&a, t, &a.w, false, &res, &d);
		txc_transcript_free(t);
		return rc ? cli_fail(&d) : 0;
	}
	cli_write_opts_finish(&a, a.output != NULL);
	struct cli_assets assets;
	cli_assets_init(&assets, a.output ? a.output : "-");
	a.w.assets = &assets.sink;
	/* output streams to stdout or to a temporary file renamed into place at the end */
	struct cli_atomic file = {0};
	if (a.output != NULL)
		rc = cli_atomic_open(&file, a.output, a.force, &d);
	struct txc_out out;
	struct tty_sink tty = {0};
	txc_out_init_file(&out, file.f ? file.f : stdout);
	if (file.f == NULL && isatty(STDOUT_FILENO)) {
		out.sink = tty_write;
		out.ctx = &tty;
	}
	if (rc == 0)
		rc = ops->write(&out, t, &a.w, &d);
	if (out.sink == tty_write && rc == 0 && txc_out_flush(&out) == 0)
		tty_write(&tty, "", 0); /* the carried bytes, if any, shown escaped */
	txc_transcript_free(t);
	if (rc == 0 && txc_out_flush(&out) != 0) {
		txc_diag_set(&d, TXC_E_FAIL, "cannot write to %s: %s", a.output ? a.output : "stdout", strerror(out.err));
		rc = TXC_E_FAIL;
	}
	if (rc == 0 && a.output != NULL)
		rc = cli_assets_write(&assets, a.force, &d); /* images first: the document links to them */
	if (file.f != NULL) {
		if (rc == 0)
			rc = cli_atomic_commit(&file, &d);
		else
			cli_atomic_abort(&file);
	}
	cli_assets_release(&assets);
	txc_out_release(&out);
	return rc ? cli_fail(&d) : 0;
}

