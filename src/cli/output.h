/*
 * output.h - private to src/cli: standard output as a txc_out, the terminal writer's
 * options, the pager (output.c).  output.c owns the tty sink's state between writes
 * (struct cli_tty, which the caller keeps on its stack); the commands and follow.c call it,
 * and it calls no command.
 */
#ifndef TXC_CLI_OUTPUT_H
#define TXC_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "txc/util.h"
#include "txc/writer.h"

/* stdout as a txc_out; on a terminal every byte goes through cli_safe_text (pipes stay exact).
 * cli_out_finish flushes it (and what a cut UTF-8 sequence held back): 0 or -1 (out->err). */
struct cli_tty {
	char carry[4];
	size_t n_carry;
};
void cli_out_stdout(struct txc_out *out, struct cli_tty *tty);
int cli_out_finish(struct txc_out *out);
/* The write options that depend on where the output goes: --width and colour for a terminal writer. */
void cli_terminal_opts(struct txc_write_opts *w, bool to_stdout);
/* Through the pager when stdout is a terminal and p is taller than it; 0, or -1 (errno). */
int cli_page(const char *p, size_t len);

#endif
