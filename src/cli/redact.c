/*
 * redact.c - --redact and the likely-secrets warning, wired to the model
 * (the scanner is src/model/redact.c): a loaded transcript is redacted in
 * place; a streamed one through a row sink that redacts the native session
 * row and each row before the writer sees them.  Every writer, present or
 * future, therefore shows only the markers.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "txc/model_hermes.h"
#include "txc/redact.h"

void cli_redact_transcript(const struct cli_args *a, struct txc_transcript *t)
{
	if (!a->redact || t == NULL)
		return;
	struct txc_redactor *r = txc_redactor_new(false);
	txc_redact_transcript(r, t);
	txc_redactor_free(r);
}

static int redact_head(void *ctx, const struct txc_transcript *t)
{
	struct cli_redact_sink *rs = ctx;
	struct txc_transcript copy = *t;
	struct txc_hermes_native native = {0};
	if (t->native != NULL) {
		txc_arena_reset(rs->scratch);
		txc_redact_native(rs->r, rs->scratch, &native, t->native);
		copy.native = &native;
	}
	copy.meta.title = txc_redact_str(rs->r, rs->scratch, t->meta.title);
	return rs->inner.head(rs->inner.ctx, &copy);
}

static int redact_row(void *ctx, const struct txc_json *row)
{
	struct cli_redact_sink *rs = ctx;
	txc_arena_reset(rs->scratch);
	return rs->inner.row(rs->inner.ctx, txc_redact_json(rs->r, rs->scratch, row));
}

const struct txc_row_sink *cli_redact_sink(struct cli_redact_sink *rs, const struct cli_args *a,
					   const struct txc_row_sink *inner)
{
	memset(rs, 0, sizeof(*rs));
	rs->inner = *inner;
	if (!a->redact)
		return inner;
	rs->r = txc_redactor_new(false);
	rs->scratch = txc_arena_new(0);
	rs->sink = (struct txc_row_sink){redact_head, redact_row, rs};
	return &rs->sink;
}

void cli_redact_sink_release(struct cli_redact_sink *rs)
{
	txc_redactor_free(rs->r);
	if (rs->scratch != NULL)
		txc_arena_free(rs->scratch);
	memset(rs, 0, sizeof(*rs));
}

void cli_secrets_note(struct cli_secrets *sc, const struct cli_args *a, const struct txc_writer_ops *ops,
		      struct txc_transcript *t, bool to_file)
{
	if (a->redact || t == NULL || !(ops->caps & TXC_WCAP_SHARED) || (!to_file && isatty(STDOUT_FILENO)))
		return;
	if (sc->scan == NULL)
		sc->scan = txc_redactor_new(true);
	txc_redact_transcript(sc->scan, t); /* scan-only: counts, changes nothing */
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
