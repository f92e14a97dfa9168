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
		rc = cli_select_sessions(a, CMD_VIEW, &st, ar, &v, &n, &more, &d);
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

int cmd_view(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(CMD_VIEW, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos > 1)
		return cli_usage(CMD_VIEW, "give at most one SESSION");
	const struct txc_writer_ops *ops = terminal_writer();
	if ((rc = cli_check_writer(CMD_VIEW, &a, ops)) != 0)
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
	rc = cli_convert_run(CMD_VIEW, &a, ops);
	free(id);
	return rc;
}
