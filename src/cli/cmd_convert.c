/* cmd_convert.c - `txc convert`: one session to one format, stdout or a file, or installed for Claude Code. */
#include <string.h>

#include "cli.h"
#include "commands.h"

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
