/*
 * diag.h - error codes and the one-line message a failing call leaves behind.
 *
 * Library layers return 0 or a negative txc_err and fill a txc_diag; only the
 * CLI prints it (as "txc: error: <msg>") and turns the code into an exit status.
 */
#ifndef TXC_DIAG_H
#define TXC_DIAG_H

#include <stddef.h>

enum txc_err {
	TXC_OK = 0,
	TXC_E_FAIL = -1,     /* exit 1: I/O, database, output */
	TXC_E_USAGE = -2,    /* exit 2 */
	TXC_E_NOTFOUND = -3, /* exit 3: no such store or session */
	TXC_E_REFUSED = -4,  /* exit 4: a write into Hermes's store */
	TXC_E_BUSY = -5,     /* exit 1: locked by another process */
	TXC_E_AMBIGUOUS = -6 /* exit 2: a prefix names several sessions */
};

struct txc_diag {
	int code;
	char msg[1024];
	char hint[1024]; /* optional extra lines (candidates of an ambiguous prefix) */
};

void txc_diag_set(struct txc_diag *d, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int txc_diag_exit_code(int code);
/* Cut s to at most len bytes at a UTF-8 character boundary (s[len] is readable); the new length. */
size_t txc_diag_cut(char *s, size_t len);

#endif
