/* diag.c - recording an error for the CLI to print. */
#include <stdarg.h>
#include <stdio.h>

#include "txc/diag.h"

void txc_diag_set(struct txc_diag *d, int code, const char *fmt, ...)
{
	if (d == NULL)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	d->code = code;
}

int txc_diag_exit_code(int code)
{
	switch (code) {
	case TXC_OK: return 0;
	case TXC_E_USAGE:
	case TXC_E_AMBIGUOUS: return 2;
	case TXC_E_NOTFOUND: return 3;
	case TXC_E_REFUSED: return 4;
	default: return 1;
	}
}
