/* diag.c - recording an error, or passing on a warning, for the CLI to word. */
#include <stdarg.h>
#include <stdio.h>

#include "txc/diag.h"

size_t txc_diag_cut(char *s, size_t len)
{
	size_t end = len;
	/* back over continuation bytes to the lead byte; drop it unless its sequence is whole */
	size_t i = len;
	while (i > 0 && len - i < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80)
		i--;
	if (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0xC0) {
		unsigned char lead = (unsigned char)s[i - 1];
		size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
		if (len - (i - 1) < need)
			end = i - 1;
	}
	s[end] = '\0';
	return end;
}

void txc_diag_set(struct txc_diag *d, enum txc_err code, const char *fmt, ...)
{
	if (d == NULL)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(d->msg)) /* cut: never in the middle of a character */
		txc_diag_cut(d->msg, sizeof(d->msg) - 1);
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
