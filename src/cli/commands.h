/*
 * commands.h - txc's commands.  Each cmd_X.c defines its row, cmd_X (name, usage, help, run
 * function, the options it takes), and exports nothing else; options.c's table lists the rows,
 * one line each, and main() looks names up in it.
 */
#ifndef TXC_CLI_COMMANDS_H
#define TXC_CLI_COMMANDS_H

#include "options.h"

/* A row's run function gets the arguments from the command's name on and returns the exit status. */
extern const struct cli_cmd_info cmd_list, cmd_convert, cmd_export, cmd_artifacts, cmd_search, cmd_view, cmd_complete;
int cmd_completions(int argc, char **argv); /* completions.c */
int cmd_help(int argc, char **argv);        /* main.c */
int cmd_version(int argc, char **argv);     /* main.c */
int cmd_refused(int argc, char **argv);     /* main.c */

#endif
