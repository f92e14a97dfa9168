/*
 * formats.c - what the CLI knows about output formats, all of it read from the
 * writer registry (txc_writer_all): the --to words and lists, load flags, and
 * which options and capabilities a writer has.  No writer is named here.
 */
#include <string.h>

#include "cli.h"

void cli_format_list(struct txc_buf *b, unsigned caps)
{
	size_t n, k = 0, m = 0;
	const struct txc_writer_ops *const *all = txc_writer_all(&n);
	for (size_t i = 0; i < n; i++)
		m += (all[i]->caps & caps) == caps;
	for (size_t i = 0; i < n; i++) {
		if ((all[i]->caps & caps) != caps)
			continue;
		if (k > 0)
			txc_buf_addstr(b, k + 1 == m ? " or " : ", ");
		txc_buf_addstr(b, all[i]->name);
		k++;
	}
}

void cli_format_words(struct txc_buf *b)
{
	size_t n;
	const struct txc_writer_ops *const *all = txc_writer_all(&n);
	for (size_t i = 0; i < n; i++)
		txc_buf_addf(b, "%s%s", i ? " " : "", all[i]->name);
}

unsigned cli_load_flags(const struct cli_args *a, const struct txc_writer_ops *ops)
{
	unsigned flags = a->w.include_compacted ? TXC_LOAD_COMPACTED : 0;
	/* the model always holds the compacted rows (writers skip them unless asked): message numbers
	 * count them (search.h), so the Markdown's numbers and a range's are the ones search prints */
	if (!(ops->caps & TXC_WCAP_NATIVE_ROWS))
		flags |= TXC_LOAD_MODEL_ONLY | TXC_LOAD_COMPACTED;
	return flags;
}

int cli_writer_for(const char *cmd, const char *to, const struct txc_writer_ops **ops)
{
	*ops = txc_writer_lookup(to);
	if (*ops != NULL)
		return 0;
	struct txc_buf l = TXC_BUF_INIT;
	cli_format_list(&l, 0);
	size_t n, k = 0;
	const struct txc_writer_ops *const *all = txc_writer_all(&n);
	const char *names[32];
	for (; k < n && k < 32; k++)
		names[k] = all[k]->name;
	char note[CLI_NOTE_MAX];
	int rc = cli_usage(cmd, "unknown format '%s' (%s)%s", to, l.buf, cli_suggest_note(note, to, names, k));
	txc_buf_release(&l);
	return rc;
}

/*
 * The write options (an option row's .wopt says which it sets), in the order a refusal looks
 * for them.  A writer that does not read one refuses it, except in a command that reads it
 * itself (.wopt_own: --utc also reads --since and --until).
 */
static const unsigned wopt_order[] = {
	TXC_WOPT_REASONING, TXC_WOPT_DETAIL, TXC_WOPT_MAX_LINES, TXC_WOPT_IMAGES,        TXC_WOPT_COMPACTED,
	TXC_WOPT_UTC,       TXC_WOPT_WIDTH,  TXC_WOPT_CHILDREN,  TXC_WOPT_HERMES_FORMAT,
};

/* the first option given that the writer does not read; NULL if none */
static const struct cli_opt *foreign_option(const struct cli_cmd_info *c, const struct cli_args *a, unsigned takes)
{
	for (size_t i = 0; i < sizeof(wopt_order) / sizeof(wopt_order[0]); i++)
		if ((wopt_order[i] & a->wgiven & ~takes & ~c->wopt_own) != 0)
			return cli_option_of_wopt(wopt_order[i]);
	return NULL;
}

/* "--install works with --to claude only": the writers with cap, named */
static int needs_cap(const char *cmd, const char *what, unsigned cap, const char *more)
{
	struct txc_buf l = TXC_BUF_INIT;
	cli_format_list(&l, cap);
	int rc = cli_usage(cmd, "%s %s --to %s%s", what, more[0] ? "needs" : "works with", l.buf,
			   more[0] ? more : " only");
	txc_buf_release(&l);
	return rc;
}

int cli_check_writer(const struct cli_cmd_info *c, const struct cli_args *a, const struct txc_writer_ops *ops)
{
	const char *cmd = c->name;
	/* --json writes Hermes's export: it takes what the hermes writer takes */
	const struct cli_opt *o = foreign_option(c, a, ops ? ops->opts : TXC_WOPT_HERMES_FORMAT);
	if (o != NULL && ops == NULL)
		return cli_usage(cmd, "--%s does not apply to --json", o->name);
	if (o != NULL)
		return cli_usage(cmd, "--%s does not apply to --to %s", o->name, ops->name);
	if (ops != NULL && a->install && !(ops->caps & TXC_WCAP_INSTALL))
		return needs_cap(cmd, "--install", TXC_WCAP_INSTALL, "");
	/* a command with -o (convert) writes assets beside its FILE; export beside each file in --out DIR */
	bool takes_o = cli_cmd_takes(c, &cli_opt_output), no_file = takes_o && a->output == NULL;
	if (ops != NULL && a->w.images == TXC_IMAGES_FILES && (!(ops->caps & TXC_WCAP_ASSETS) || no_file))
		return needs_cap(cmd, "--images files", TXC_WCAP_ASSETS, takes_o ? " and -o FILE" : "");
	return 0;
}
