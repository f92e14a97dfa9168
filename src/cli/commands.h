/*
 * commands.h - txc's commands: each has its bit (which options apply to it,
 * in options.c's opts[]), its run function in its own file under src/cli, and
 * one row in options.c's cmds[], which main() looks names up in.
 */
#ifndef TXC_CLI_COMMANDS_H
#define TXC_CLI_COMMANDS_H

/* Option masks: a command's bit; CMD_STORE for the store options (every command with
 * CLI_CMD_STORE takes them); CMD_MAIN for the options of txc itself (txc --help). */
enum {
	CMD_LIST = 1u << 0,
	CMD_CONVERT = 1u << 1,
	CMD_EXPORT = 1u << 2,
	CMD_ARTIFACTS = 1u << 3,
	CMD_SEARCH = 1u << 4,
	CMD_VIEW = 1u << 5,
	CMD_ANY = 0xffffu, /* every command that takes options */
	CMD_STORE = 1u << 16,
	CMD_MAIN = 1u << 17,
};

/* A run function gets the arguments from the command's name on and returns the exit status. */
int cmd_list(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_artifacts(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_completions(int argc, char **argv); /* options.c */
int cmd_help(int argc, char **argv);        /* main.c */
int cmd_version(int argc, char **argv);     /* main.c */
int cmd_refused(int argc, char **argv);     /* main.c */

#endif
