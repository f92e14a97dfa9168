/* cmd_convert.c - `txc convert`: one session to one format, stdout or a file, or installed for Claude Code. */
#include <string.h>

#include "cli.h"
#include "commands.h"

/* The usage checks: one SESSION, a known --to, options that writer takes; 0 or the exit status. */
static int convert_args(struct cli_args *a, const struct txc_writer_ops **ops)
{
	if (a->n_pos != 1)
		return cli_usage(cmd_convert.name, a->n_pos ? "give exactly one SESSION" : "missing SESSION");
	if (a->to == NULL) {
		struct txc_buf l = TXC_BUF_INIT;
		cli_format_list(&l, 0);
		int rc = cli_usage(cmd_convert.name, "missing --to FORMAT (%s)", l.buf);
		txc_buf_release(&l);
		return rc;
	}
	int rc = cli_writer_for(cmd_convert.name, a->to, ops);
	if (rc != 0)
		return rc;
	if (a->output != NULL && strcmp(a->output, "-") == 0)
		a->output = NULL; /* -o - is standard output */
	rc = cli_check_writer(&cmd_convert, a, *ops);
	if (rc != 0)
		return rc;
	if (a->install && a->output)
		return cli_usage(cmd_convert.name, "--install and -o cannot be combined");
	if (a->follow && (a->install || a->output))
		return cli_usage(cmd_convert.name, "--follow writes to standard output: not with %s",
				 a->install ? "--install" : "-o");
	/* a page is whole: messages appended after its </html> are outside the document */
	if (a->follow && ((*ops)->caps & TXC_WCAP_ONE_FILE))
		return cli_usage(cmd_convert.name, "--follow does not apply to --to %s (a page is written whole)",
				 (*ops)->name);
	/* Claude Code keeps a subagent's transcript in a file of its own, beside the session's */
	if (a->children && ((*ops)->caps & TXC_WCAP_INSTALL) && !a->install && a->output == NULL)
		return cli_usage(cmd_convert.name,
				 "--children with --to %s needs -o FILE or --install (subagents are files "
				 "of their own)",
				 (*ops)->name);
	return 0;
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(&cmd_convert, argc, argv, &a, &rc))
		return rc;
	const struct txc_writer_ops *ops = NULL;
	rc = convert_args(&a, &ops);
	if (rc != 0)
		return rc;
	return cli_convert_run(cmd_convert.name, &a, ops);
}

/* the options `txc convert` takes (help lists them in the catalogue's order) */
static const struct cli_opt *const options[] = {
	CLI_STORE_OPTIONS, CLI_COMMON_OPTIONS, CLI_WRITE_OPTIONS,
	&cli_opt_output,   CLI_FOLLOW_OPTIONS, &cli_opt_lineage,
	&cli_opt_children, &cli_opt_redact,    NULL,
};

const struct cli_cmd_info cmd_convert = {
	.name = "convert",
	.usage = "SESSION --to FORMAT [options]",
	.summary = "convert one session to another format",
	.about = "Convert one session.  SESSION is an exact id or a unique prefix; claude:ID names\n"
		 "a Claude Code session ($CLAUDE_CONFIG_DIR/projects, as --from claude).\n"
		 "SESSION#RANGE converts only some of its messages, numbered as `txc search` (ID#N)\n"
		 "and the Markdown headings (#N) number them: ID#12-40, ID#5- (to the end), ID#-20\n"
		 "(the last 20), ID#7 (one).  A range is widened, with a warning, so that no tool\n"
		 "call is parted from its results; a bad or empty range is a usage error (exit 2).\n",
	.examples = "  txc convert 20260914 --to markdown -o chat.md    # a readable transcript\n"
		    "  txc convert 7f3e --to claude --install           # then: claude --resume\n"
		    "  txc convert '7f3e#12-40' --to html -o part.html  # messages 12 to 40\n"
		    "  txc convert 7f3e --lineage --to markdown         # the whole chain as one\n"
		    "  txc convert claude:5f3c --to hermes              # a Claude Code session\n",
	.run = run,
	.opts = options,
	.flags = CLI_CMD_SESSION_ARG,
};
