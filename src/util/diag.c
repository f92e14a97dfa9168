/* diag.c - recording an error, or passing on a warning, for the CLI to word. */
#include <stdarg.h>
#include <stdio.h>

#include "txc/diag.h"

void txc_diag_set(struct txc_diag *d, enum txc_err code, const char *fmt, ...)
{
	if (d == NULL)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	d->code = code;
}

void txc_diag_warn(const struct txc_diag *d, enum txc_warn w, const char *where, size_t n)
{
	if (d != NULL && d->warn != NULL)
		d->warn(d->warn_ctx, w, where, n);
}

int txc_diag_exit_code(enum txc_err code)
{
	switch (code) {
	case TXC_OK: return 0;
	case TXC_E_USAGE:
	case TXC_E_AMBIGUOUS: return 2;
	case TXC_E_NOTFOUND: return 3;
	case TXC_E_REFUSED: return 4;
	case TXC_E_FAIL:
	case TXC_E_BUSY:
	case TXC_E_TIMEOUT:
	case TXC_E_AUTH:
	case TXC_E_BAD_LINE: return 1;
	}
	return 1;
}
