/*
 * fuzz_remote.c - libFuzzer target: a dashboard (`--remote`) whose answers
 * are the input -> session list (paged) -> every session -> every writer.
 *
 * The HTTP layer is replaced: txc_http_get() below answers each request with
 * the next record of the input.  Records are cut at 0xFF bytes; a record
 * that starts with '!' and three digits has that HTTP status (200 otherwise).
 * Byte 0 is not part of a record: bit 7 gives a token (else the token is
 * scraped from the first answer, the dashboard's page), bit 6 a profile, and
 * the rest sets the chunk sizes the body is handed on in (1 byte to 1 MiB).
 * Every URL asked for is checked: a session id is one percent-encoded path
 * segment, never "." or "..".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "txc/http.h"
#include "txc/reader.h"

#define BASE "http://fuzz.invalid:9119"

static struct {
	const uint8_t *p, *end;
	unsigned seed;
	size_t k;
} in;

static void bad_url(const char *url)
{
	fprintf(stderr, "fuzz: a request for '%s'\n", url);
	abort();
}

/* /api/sessions?… or /api/sessions/<one encoded segment>/export[?profile=…] */
static void check_url(const char *url)
{
	if (strncmp(url, BASE "/", strlen(BASE "/")) != 0)
		bad_url(url);
	const char *path = url + strlen(BASE);
	if (strcmp(path, "/") == 0 || strncmp(path, "/api/sessions?", 14) == 0)
		return;
	if (strncmp(path, "/api/sessions/", 14) != 0)
		bad_url(url);
	const char *seg = path + 14, *end = strstr(seg, "/export");
	if (end == NULL || (end[7] != '\0' && end[7] != '?') || end == seg)
		bad_url(url);
	if ((end - seg == 1 && seg[0] == '.') || (end - seg == 2 && seg[0] == '.' && seg[1] == '.'))
		bad_url(url);
	for (const char *c = seg; c < end; c++)
		if (!(strchr("-._~%", *c) || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z')))
			bad_url(url);
}

int txc_http_get(const struct txc_http_req *req, long *status, struct txc_diag *d)
{
	check_url(req->url);
	if (in.p > in.end) {
		txc_diag_set(d, TXC_E_FAIL, "cannot connect (the fuzz input ended)");
		return TXC_E_FAIL;
	}
	const uint8_t *sep = memchr(in.p, 0xff, (size_t)(in.end - in.p));
	const uint8_t *r = in.p, *stop = sep ? sep : in.end;
	in.p = stop + 1;
	*status = 200;
	if (stop - r >= 4 && r[0] == '!' && r[1] >= '0' && r[1] <= '9' && r[2] >= '0' && r[2] <= '9' && r[3] >= '0' &&
	    r[3] <= '9') {
		*status = (r[1] - '0') * 100 + (r[2] - '0') * 10 + (r[3] - '0');
		r += 4;
	}
	if (*status < 200 || *status >= 300)
		return TXC_OK;
	if ((size_t)(stop - r) > req->max_bytes) {
		txc_diag_set(d, TXC_E_FAIL, "the answer is too large");
		return TXC_E_FAIL;
	}
	size_t limit = (size_t)1 << (in.seed % 21);
	while (r < stop) {
		size_t n = 1 + (((++in.k) * 2654435761u * (in.seed | 1)) >> 7) % limit;
		if (n > (size_t)(stop - r))
			n = (size_t)(stop - r);
		if (req->on_data(req->ctx, (const char *)r, n) != 0)
			return TXC_E_FAIL;
		r += n;
	}
	return TXC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	in.seed = data[0];
	in.p = data + 1;
	in.end = data + size;
	in.k = 0;
	struct txc_remote_opts o = {in.seed & 0x80 ? "fuzz-token" : NULL, in.seed & 0x40 ? "p/ ?#%" : NULL, 5};
	struct txc_store *s;
	struct txc_diag d = {0};
	if (txc_store_open_remote(&s, BASE, &o, &d) != 0)
		return 0;
	fuzz_check_store(s);
	txc_store_close(s);
	return 0;
}
