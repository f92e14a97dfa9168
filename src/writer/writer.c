/* writer.c - the writer registry and buffered output. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "txc/writer.h"

static const struct txc_writer_ops *const all[] = {
	&txc_writer_claude,
	&txc_writer_hermes,
	&txc_writer_markdown,
};

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

bool txc_time_iso_ms(char out[64], double secs)
{
	if (!isfinite(secs) || secs < -62135596800.0 || secs >= 253402300800.0) {
		strcpy(out, "1970-01-01T00:00:00.000Z");
		return false;
	}
	double whole = floor(secs);
	int ms = (int)floor((secs - whole) * 1000.0); /* cut, not rounded */
	if (ms > 999)
		ms = 999;
	time_t tt = (time_t)whole;
	struct tm tm;
	gmtime_r(&tt, &tm);
	snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
	return true;
}
