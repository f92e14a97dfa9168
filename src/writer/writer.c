/* writer.c - the writer registry and buffered output. */
#include <errno.h>
#include <string.h>

#include "txc/writer.h"

/* Every writer, in --help order: adding one is one word here (and its file in CMakeLists.txt). */
#define TXC_WRITERS(X) X(claude) X(codex) X(hermes) X(markdown) X(html) X(terminal)

#define TXC_WRITER_DECL(n) extern const struct txc_writer_ops txc_writer_##n;
#define TXC_WRITER_REF(n)  &txc_writer_##n,
TXC_WRITERS(TXC_WRITER_DECL)
static const struct txc_writer_ops *const all[] = {TXC_WRITERS(TXC_WRITER_REF)};

const struct txc_writer_ops *txc_writer_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

const struct txc_writer_ops *const *txc_writer_all(size_t *n)
{
	*n = sizeof(all) / sizeof(all[0]);
	return all;
}

static int file_sink(void *ctx, const char *p, size_t n)
{
	FILE *f = ctx;
	if (fwrite(p, 1, n, f) != n)
		return -1;
	return 0;
}

void txc_out_init_file(struct txc_out *o, FILE *f)
{
	txc_buf_init(&o->buf);
	o->sink = file_sink;
	o->ctx = f;
	o->err = 0;
}

void txc_out_init_buf(struct txc_out *o)
{
	txc_buf_init(&o->buf);
	o->sink = NULL;
	o->ctx = NULL;
	o->err = 0;
}

int txc_out_flush(struct txc_out *o)
{
	if (o->sink == NULL || o->buf.len == 0)
		return o->err ? -1 : 0;
	if (o->err == 0 && o->sink(o->ctx, o->buf.buf, o->buf.len) != 0)
		o->err = errno ? errno : EIO;
	txc_buf_reset(&o->buf);
	return o->err ? -1 : 0;
}

void txc_out_maybe_flush(struct txc_out *o)
{
	if (o->sink != NULL && o->buf.len >= 256 * 1024)
		txc_out_flush(o);
}

void txc_out_release(struct txc_out *o)
{
	txc_buf_release(&o->buf);
}
