/*
 * redact.c - the likely-secrets warning: which conversions count (not with --redact, a shared
 * format, not a terminal), and its one line for a whole run.  --redact itself is the
 * pipeline's (src/convert/convert.c: each loaded part, and each streamed row, redacted before
 * any writer sees it).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "txc/redact.h"

struct txc_redactor *cli_secrets_scanner(struct cli_secrets *sc, const struct cli_args *a,
					 const struct txc_writer_ops *ops, bool to_file)
{
	if (a->redact || !(ops->caps & TXC_WCAP_SHARED) || (!to_file && isatty(STDOUT_FILENO)))
		return NULL;
	if (sc->scan == NULL)
		sc->scan = txc_redactor_new(true);
	return sc->scan;
}

void cli_secrets_note(struct cli_secrets *sc, const struct cli_args *a, const struct txc_writer_ops *ops,
		      struct txc_transcript *t, bool to_file)
{
	struct txc_redactor *scan = t != NULL ? cli_secrets_scanner(sc, a, ops, to_file) : NULL;
	if (scan != NULL)
		txc_redact_transcript(scan, t); /* scan-only: counts, changes nothing */
}

/* kinds ("a, b") appended to *to, each once */
static void kinds_union(struct txc_buf *to, const char *kinds)
{
	for (const char *p = kinds; p != NULL && *p;) {
		const char *e = strstr(p, ", ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		bool seen = false;
		for (const char *q = to->buf; q != NULL && *q && !seen;) {
			const char *qe = strstr(q, ", ");
			size_t qn = qe ? (size_t)(qe - q) : strlen(q);
			seen = qn == n && memcmp(q, p, n) == 0;
			q = qe ? qe + 2 : NULL;
		}
		if (!seen && n > 0) {
			if (to->len)
				txc_buf_add(to, ", ", 2);
			txc_buf_add(to, p, n);
		}
		p = e ? e + 2 : NULL;
	}
}

size_t cli_secrets_take(struct cli_secrets *sc, struct txc_buf *kinds)
{
	size_t n = sc->scan != NULL ? txc_redact_count(sc->scan) : 0;
	if (n > 0)
		txc_redact_kinds(sc->scan, kinds);
	cli_secrets_release(sc);
	return n;
}

void cli_secrets_add(struct cli_secrets *sc, size_t n, const char *kinds)
{
	if (n == 0)
		return;
	sc->more += n;
	kinds_union(&sc->kinds, kinds);
}

void cli_secrets_warn(struct cli_secrets *sc)
{
	size_t n = sc->more;
	struct txc_buf kinds = TXC_BUF_INIT;
	if (sc->scan != NULL) {
		n += txc_redact_count(sc->scan);
		txc_redact_kinds(sc->scan, &kinds);
	}
	if (sc->kinds.len)
		kinds_union(&kinds, sc->kinds.buf);
	if (n > 0)
		cli_warn("the output shows %zu likely secret%s (%s); --redact replaces them with markers", n,
			 n == 1 ? "" : "s", kinds.buf);
	txc_buf_release(&kinds);
	cli_secrets_release(sc);
}

void cli_secrets_release(struct cli_secrets *sc)
{
	txc_redactor_free(sc->scan);
	sc->scan = NULL;
	sc->more = 0;
	txc_buf_release(&sc->kinds);
}
