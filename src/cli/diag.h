/* diag.h - private to src/cli: diagnostics and colour (diag.c), the only place that words them. */
#ifndef TXC_CLI_DIAG_H
#define TXC_CLI_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "txc/diag.h"
#include "txc/util.h"

void cli_diag_init(void); /* before the first message: is stderr a terminal */
/* "txc: error: ..." and "txc: warning: ..." on stderr, escaped on a terminal. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "txc: ..." on stderr, escaped alike: news that is neither (--follow --lineage's hand-off) */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* d as an error: its message, the advice its code calls for (which flag), its candidates. */
void cli_report(const struct txc_diag *d);
/* For cmd_* only: cli_report, then the exit status of d->code. */
int cli_fail(const struct txc_diag *d);
/* The library's warnings (txc_diag.warn), worded. */
void cli_warning(void *ctx, enum txc_warn w, const char *where, size_t n);
/* For cmd_* only: a usage error naming the command's --help; returns exit status 2. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fwrite to stdout; on failure the errno is kept for the one error line printed at exit */
int cli_stdout_write(const char *p, size_t len);
/* A write to stdout failed with err (errno): reported once at exit. */
void cli_stdout_failed(int err);
/* At exit: flush stdout and say (once, with the errno of the failed write) if it failed; the exit status. */
int cli_finish_stdout(int rc);
void cli_color_set(int when); /* 0 auto, 1 always, 2 never */
bool cli_color_stdout(void);
bool cli_color_always(void); /* --color always: colour even into a file */
/* An SGR colour around text when colour is on for stdout ("1" bold, "33" yellow, ...). */
void cli_paint(struct txc_buf *b, const char *sgr, const char *text, size_t len);

#endif
