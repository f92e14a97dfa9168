/*
 * fuzz_diff.c - libFuzzer target: the two export parsers must agree.
 *
 * The same bytes go to the file reader's parse (txc_json_parse, then
 * txc_source_split, as hermes_json.c loads a line) and to the incremental
 * parser the dashboard reader streams into (fed in chunks whose sizes, from 1
 * byte to 1 MiB, come from a hash of the input).  Both must accept or both
 * refuse, and accepted, produce the same session, rows and last_active.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "hermes_source.h"
#include "txc/model_hermes.h"

static void emit(struct txc_buf *b, struct txc_transcript *t)
{
	const struct txc_hermes_native *nv = txc_hermes_native(t);
	txc_json_emit(b, nv->session, 0);
	txc_buf_addch(b, '\n');
	txc_json_emit(b, nv->rows, 0);
	txc_buf_addch(b, '\n');
	if (nv->last_active != NULL)
		txc_json_emit(b, nv->last_active, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t seed = 2166136261u; /* FNV-1a: any change to the input changes the chunks */
	for (size_t i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 16777619u;
	struct txc_transcript *a = txc_transcript_new(), *b = txc_transcript_new();
	const struct txc_json *o;
	bool file_ok = txc_json_parse(a->arena, (const char *)data, size, &o) == 0 && o->kind == TXC_JSON_OBJECT;
	if (file_ok)
		txc_source_split(a, o);

	struct txc_export_parser *p = txc_export_parser_new(b);
	size_t limit = (size_t)1 << (seed % 21), k = 0;
	bool stream_ok = true;
	for (size_t at = 0; at < size && stream_ok; k++) {
		size_t n = 1 + (((k + 1) * 2654435761u * (seed | 1)) >> 7) % limit;
		if (n > size - at)
			n = size - at;
		stream_ok = txc_export_parser_feed(p, (const char *)data + at, n) == 0;
		at += n;
	}
	stream_ok = stream_ok && txc_export_parser_finish(p) == 0;
	txc_export_parser_free(p);

	if (file_ok != stream_ok) {
		fprintf(stderr, "fuzz: the file parser %s, the streaming parser %s\n", file_ok ? "accepts" : "refuses",
			stream_ok ? "accepts" : "refuses");
		abort();
	}
	if (file_ok) {
		struct txc_buf x = TXC_BUF_INIT, y = TXC_BUF_INIT;
		emit(&x, a);
		emit(&y, b);
		if (x.len != y.len || memcmp(x.buf, y.buf, x.len) != 0) {
			fprintf(stderr, "fuzz: the parsers differ\nfile:   %s\nstream: %s\n", x.buf, y.buf);
			abort();
		}
		txc_buf_release(&x);
		txc_buf_release(&y);
	}
	txc_transcript_free(a);
	txc_transcript_free(b);
	return 0;
}
