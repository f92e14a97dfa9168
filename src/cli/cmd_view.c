/*
 * cmd_view.c - `txc view [SESSION]`: a session through the terminal writer,
 * paged the way git pages (output.c), on the convert path (convert_run.c: what
 * convert learns, such as ranges and lineage, view has too).
 */
#include <stdlib.h>

#include "cli.h"

/* the first writer made for a terminal (the registry says which; view names none) */
static const struct txc_writer_ops *terminal_writer(void)
{
	size_t n;
	const struct txc_writer_ops *const *all = txc_writer_all(&n);
	for (size_t i = 0; i < n; i++)
		if (all[i]->caps & TXC_WCAP_TERMINAL)
			return all[i];
	return NULL;
}

/* No SESSION: the most recently active one the filters select, as an exact id (*keep owns it). */
static int most_recent(struct cli_args *a, char **keep)
{
	struct txc_diag d = {0};
	struct cli_stores st;
	struct txc_arena *ar = txc_arena_new(0);
	struct cli_session *v = NULL;
	size_t n = 0, more = 0;
	a->sel.order = 1; /* recent: last activity, so a session being written comes first (view takes no --order) */
	a->sel.order_set = true;
	enum txc_err rc = cli_stores_open(a, &st, &d);
	if (rc == TXC_OK)
		rc = cli_select_sessions(a, &cmd_view, &st, ar, &v, &n, &more, &d);
	if (rc == TXC_OK && n == 0) {
		txc_diag_set(&d, TXC_E_NOTFOUND, "no session matches");
		rc = TXC_E_NOTFOUND;
	}
	if (rc == TXC_OK)
		*keep = txc_xstrndup(v[0].id.text.ptr ? v[0].id.text.ptr : "", v[0].id.text.len);
	free(v);
	cli_stores_close(&st);
	txc_arena_free(ar);
	return rc == TXC_OK ? 0 : cli_fail(&d);
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(&cmd_view, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos > 1)
		return cli_usage(cmd_view.name, "give at most one SESSION");
	const struct txc_writer_ops *ops = terminal_writer();
	if ((rc = cli_check_writer(&cmd_view, &a, ops)) != 0)
		return rc;
	char *id = NULL, *pos[1];
	if (a.n_pos == 0) {
		if ((rc = most_recent(&a, &id)) != 0)
			return rc;
		pos[0] = id;
		a.pos = pos;
		a.n_pos = 1;
	}
	a.pager = !a.no_pager && !a.follow;
	rc = cli_convert_run(cmd_view.name, &a, ops);
	free(id);
	return rc;
}

/* the options `txc view` takes (help lists them in the catalogue's order) */
static const struct cli_opt *const options[] = {
	CLI_STORE_OPTIONS, CLI_FILTER_OPTIONS, CLI_COMMON_OPTIONS, CLI_RENDER_OPTIONS, CLI_FOLLOW_OPTIONS,
	&cli_opt_no_pager, &cli_opt_lineage,   &cli_opt_children,  &cli_opt_redact,    NULL,
};

const struct cli_cmd_info cmd_view = {
	.name = "view",
	.usage = "[SESSION] [options]",
	.summary = "read a session in the terminal (paged; --follow for a live one)",
	.about = "Show a session for reading in a terminal: headings with message numbers (ID#N, as\n"
		 "txc search numbers them) and times, text wrapped to the terminal's width, each tool\n"
		 "call on one line with its result under it.  Without SESSION: the most recently\n"
		 "active session of those the filters select.  Paged ($TXC_PAGER, else $PAGER, else\n"
		 "less -FRX) when standard output is a terminal and the session is taller than it;\n"
		 "never in a pipe, where the text is plain.  --follow keeps printing each new message\n"
		 "until the session ends (never paged).\n",
	.examples = "  txc view                            # the most recently active session\n"
		    "  txc view 20260914 --detail brief    # one session, briefly\n"
		    "  txc view --source telegram -f       # follow the latest Telegram one\n"
		    "  txc view 7f3e --lineage --no-pager  # its whole chain, unpaged\n",
	.run = run,
	.opts = options,
	.flags = CLI_CMD_SESSION_ARG,
};
