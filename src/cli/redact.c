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

void cli_secrets_warn(struct cli_secrets *sc)
{
	if (sc->scan == NULL)
		return;
	size_t n = txc_redact_count(sc->scan);
	if (n > 0) {
		struct txc_buf kinds = TXC_BUF_INIT;
		txc_redact_kinds(sc->scan, &kinds);
		cli_warn("the output shows %zu likely secret%s (%s); --redact replaces them with markers", n,
			 n == 1 ? "" : "s", kinds.buf);
		txc_buf_release(&kinds);
	}
	txc_redactor_free(sc->scan);
	sc->scan = NULL;
}

void cli_secrets_release(struct cli_secrets *sc)
{
	txc_redactor_free(sc->scan);
	sc->scan = NULL;
}
