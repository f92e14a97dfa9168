/*
 * main.c - txc's command line: dispatch.
 *
 * Only this layer prints diagnostics ("txc: error: ...") and exits.
 * Exit status: 0 success, 1 failure, 2 usage, 3 not found, 4 refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

static void main_commands(FILE *f, const struct cli_cmd_info *const *cs, size_t n)
{
	struct txc_buf refused = TXC_BUF_INIT;
	const char *why = NULL;
	fputs("commands:\n", f);
	for (size_t i = 0; i < n; i++) {
		if (cs[i]->flags & CLI_CMD_REFUSED) {
			txc_buf_addf(&refused, "%s%s", refused.len ? ", " : "", cs[i]->name);
			if (why == NULL)
				why = cs[i]->summary;
		} else if (cs[i]->opts == NULL && cs[i]->usage != NULL && !(cs[i]->flags & CLI_CMD_HIDDEN)) {
			char left[64];
			snprintf(left, sizeof(left), "%s %s", cs[i]->name, cs[i]->usage);
			fprintf(f, "  %-22s %s\n", left, cs[i]->summary);
		} else if (!(cs[i]->flags & CLI_CMD_HIDDEN)) {
			fprintf(f, "  %-22s %s\n", cs[i]->name, cs[i]->summary);
		}
	}
	if (refused.len)
		fprintf(f, "  %-22s %s\n", refused.buf, why);
	txc_buf_release(&refused);
}

/* The store options, and the commands that take them. */
static void main_store_options(FILE *f, const struct cli_cmd_info *const *cs, size_t n)
{
	size_t n_opts;
	const struct cli_opt *const *o = cli_options(&n_opts);
	struct txc_buf who = TXC_BUF_INIT;
	for (size_t i = 0; i < n; i++)
		if (cli_cmd_takes(cs[i], &cli_opt_db)) /* a command that reads a store takes them all */
			txc_buf_addf(&who, "%s%s", who.len ? ", " : "", cs[i]->name);
	fprintf(f, "\nstore options (%s):\n", who.buf);
	for (size_t i = 0; i < n_opts; i++)
		if (o[i]->group & CLI_OPT_STORE)
			cli_opt_describe(f, o[i]);
	fputc('\n', f);
	for (size_t i = 0; i < n_opts; i++)
		if (o[i]->group & CLI_OPT_MAIN)
			cli_opt_describe(f, o[i]);
	txc_buf_release(&who);
}

/* txc --help: the command table and the option table, without the hidden rows. */
static void main_help(FILE *f)
{
	size_t n;
	const struct cli_cmd_info *const *cs = cli_commands(&n);
	fputs("usage: txc <command> [options]\n"
	      "\n"
	      "Convert Hermes Agent sessions (state.db, read-only) to other formats.\n"
	      "\n",
	      f);
	main_commands(f, cs, n);
	main_store_options(f, cs, n);
	fputs("\n"
	      "'txc COMMAND --help' shows the options of COMMAND.\n"
	      "exit status: 0 success, 1 failure, 2 usage error, 3 not found, 4 refused.\n"
	      "See txc(1) for the full manual.\n",
	      f);
}

/* "; did you mean 'list'?" for a mistyped command (the commands offered), or "" */
static const char *command_note(char out[CLI_NOTE_MAX], const char *word)
{
	size_t n, k = 0;
	const struct cli_cmd_info *const *cs = cli_commands(&n);
	const char *names[32];
	for (size_t i = 0; i < n && k < 32; i++)
		if (!(cs[i]->flags & (CLI_CMD_HIDDEN | CLI_CMD_REFUSED)))
			names[k++] = cs[i]->name;
	return cli_suggest_note(out, word, names, k);
}

/* txc help [COMMAND]: COMMAND's help as 'txc COMMAND --help' prints it (the commands without options: the main help) */
int cmd_help(int argc, char **argv)
{
	if (argc > 2)
		return cli_usage(NULL, "'txc help' takes one command at most");
	const struct cli_cmd_info *c = argc == 2 ? cli_command_named(argv[1]) : NULL;
	char note[CLI_NOTE_MAX];
	if (argc == 2 && c == NULL)
		return cli_usage(NULL, "unknown command '%s'%s", argv[1], command_note(note, argv[1]));
	if (c != NULL && c->opts != NULL)
		cli_help(c, stdout);
	else
		main_help(stdout);
	return 0;
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("txc %s\n", TXC_VERSION);
	return 0;
}

int cmd_refused(int argc, char **argv)
{
	(void)argc;
	cli_error(
		"'%s' is refused: Hermes has no import API and state.db is its private schema, so txc never writes to "
		"it; use 'txc export' or 'txc convert' to copy sessions out",
		argv[0]);
	return 4;
}

int main(int argc, char **argv)
{
	cli_diag_init();
	if (argc < 2) {
		main_help(stderr);
		return 2;
	}
	const struct cli_cmd_info *c = cli_command_named(argv[1]);
	if (c == NULL && argv[1][0] == '-')
		for (int i = 2; i < argc; i++)
			if (cli_command_named(argv[i]) !=
			    NULL) /* 'txc --db X list': say the order, not "unknown command" */
				return cli_usage(NULL, "options go after the command: 'txc %s %s ...'", argv[i],
						 argv[1]);
	char note[CLI_NOTE_MAX];
	if (c == NULL)
		return cli_usage(NULL, "unknown command '%s'%s", argv[1], command_note(note, argv[1]));
	return cli_finish_stdout(c->run(argc - 1, argv + 1));
}
