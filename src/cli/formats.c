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

int cli_writer_for(unsigned cmd, const char *to, const struct txc_writer_ops **ops)
{
	*ops = txc_writer_lookup(to);
	if (*ops != NULL)
		return 0;
	struct txc_buf l = TXC_BUF_INIT;
	cli_format_list(&l, 0);
	int rc = cli_usage(cmd, "unknown format '%s' (%s)", to, l.buf);
	txc_buf_release(&l);
	return rc;
}

/*
 * The options that set a write option.  A writer that does not read one refuses
 * it, except in the commands of .other, where the option means more (--utc also
 * reads --since and --until).
 */
static const struct write_option {
	const char *name;
	unsigned wopt, other;
} wopts[] = {
	{"reasoning", TXC_WOPT_REASONING, 0},
	{"detail", TXC_WOPT_DETAIL, 0},
	{"max-output-lines", TXC_WOPT_MAX_LINES, 0},
	{"images", TXC_WOPT_IMAGES, 0},
	{"include-compacted", TXC_WOPT_COMPACTED, 0},
	{"utc", TXC_WOPT_UTC, CMD_LIST | CMD_EXPORT},
	{"width", TXC_WOPT_WIDTH, 0},
	{"children", TXC_WOPT_CHILDREN, 0},
	{"hermes-format", TXC_WOPT_HERMES_FORMAT, 0},
};

unsigned cli_write_option(const char *name)
{
	for (size_t i = 0; i < sizeof(wopts) / sizeof(wopts[0]); i++)
		if (strcmp(wopts[i].name, name) == 0)
			return wopts[i].wopt;
	return 0;
}

/* the first option given that the writer does not read; NULL if none */
static const struct write_option *foreign_option(unsigned cmd, const struct cli_args *a, unsigned takes)
{
	for (size_t i = 0; i < sizeof(wopts) / sizeof(wopts[0]); i++)
		if ((wopts[i].wopt & a->wgiven & ~takes) && !(wopts[i].other & cmd))
			return &wopts[i];
	return NULL;
}

/* "--install works with --to claude only": the writers with cap, named */
static int needs_cap(unsigned cmd, const char *what, unsigned cap, const char *more)
{
	struct txc_buf l = TXC_BUF_INIT;
	cli_format_list(&l, cap);
	int rc = cli_usage(cmd, "%s %s --to %s%s", what, more[0] ? "needs" : "works with", l.buf,
			   more[0] ? more : " only");
	txc_buf_release(&l);
	return rc;
}

int cli_check_writer(unsigned cmd, const struct cli_args *a, const struct txc_writer_ops *ops)
{
	/* --json writes Hermes's export: it takes what the hermes writer takes */
	const struct write_option *o = foreign_option(cmd, a, ops ? ops->opts : TXC_WOPT_HERMES_FORMAT);
	if (o != NULL && ops == NULL)
		return cli_usage(cmd, "--%s does not apply to --json", o->name);
	if (o != NULL)
		return cli_usage(cmd, "--%s does not apply to --to %s", o->name, ops->name);
	if (ops != NULL && a->install && !(ops->caps & TXC_WCAP_INSTALL))
		return needs_cap(cmd, "--install", TXC_WCAP_INSTALL, "");
	/* convert writes assets beside its -o FILE; export beside each file in --out DIR */
	bool no_file = cmd == CMD_CONVERT && a->output == NULL;
	if (ops != NULL && a->w.images == TXC_IMAGES_FILES && (!(ops->caps & TXC_WCAP_ASSETS) || no_file))
		return needs_cap(cmd, "--images files", TXC_WCAP_ASSETS, cmd == CMD_CONVERT ? " and -o FILE" : "");
	return 0;
}
