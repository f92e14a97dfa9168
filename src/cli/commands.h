/* commands.h - one function per command, each in its own file under src/cli. */
#ifndef TXC_CLI_COMMANDS_H
#define TXC_CLI_COMMANDS_H

int cmd_list(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_artifacts(int argc, char **argv);

#endif
