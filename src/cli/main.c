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

static void main_help(FILE *f)
{
	size_t n;
	const struct cli_cmd_info *cs = cli_commands(&n);
	fputs("usage: txc <command> [options]\n"
	      "\n"
	      "Convert Hermes Agent sessions (state.db, read-only) to other formats.\n"
	      "\n"
	      "commands:\n",
	      f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-20s %s\n", cs[i].name, cs[i].summary);
	fputs("  completions SHELL    print a bash, zsh or fish completion script\n"
	      "  save, delete         refused: Hermes's store is private and read-only to txc\n"
	      "\n"
	      "store options (every command):\n"
	      "  --db PATH            read this state.db\n"
	      "  --home DIR           Hermes home (default $HERMES_HOME, else ~/.hermes)\n"
	      "  --profile NAME       the store of profile NAME (<home>/profiles/NAME/state.db)\n"
	      "  --all-profiles       the root store and every profile's store\n"
	      "\n"
	      "  -h, --help           show help (also 'txc COMMAND --help')\n"
	      "  --version            print the version\n"
	      "\n"
	      "exit status: 0 success, 1 failure, 2 usage error, 3 not found, 4 refused.\n"
	      "See txc(1) for the full manual.\n",
	      f);
}

static int cmd_refused(const char *cmd)
{
	cli_say("error: ",
		"'%s' is refused: Hermes has no import API and state.db is its private schema, so txc never writes to "
		"it; use 'txc export' or 'txc convert' to copy sessions out",
		cmd);
	return 4;
}

int main(int argc, char **argv)
{
	cli_diag_init();
	if (argc < 2) {
		main_help(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	int rc;
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		main_help(stdout);
		rc = 0;
	} else if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("txc %s\n", TXC_VERSION);
		rc = 0;
	} else if (strcmp(cmd, "list") == 0) {
		rc = cmd_list(argc - 1, argv + 1);
	} else if (strcmp(cmd, "convert") == 0) {
		rc = cmd_convert(argc - 1, argv + 1);
	} else if (strcmp(cmd, "export") == 0) {
		rc = cmd_export(argc - 1, argv + 1);
	} else if (strcmp(cmd, "artifacts") == 0) {
		rc = cmd_artifacts(argc - 1, argv + 1);
	} else if (strcmp(cmd, "completions") == 0) {
		rc = cli_completions(argc > 2 ? argv[2] : NULL);
	} else if (strcmp(cmd, "save") == 0 || strcmp(cmd, "delete") == 0 || strcmp(cmd, "import") == 0) {
		rc = cmd_refused(cmd);
	} else {
		return cli_usage(0, "unknown command '%s'", cmd);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return rc;
		cli_say("error: ", "cannot write to stdout: %s", strerror(errno));
		return 1;
	}
	return rc;
}
