/*
 * http.h - the one HTTP client (libcurl), for reading a Hermes dashboard.
 *
 * GET only.  TLS is verified (libcurl's default, never turned off); connect
 * and total timeouts; a size cap; connection errors and 5xx answers are
 * retried with backoff while no body byte has been handed on.  The body
 * streams to on_data as it arrives.  Header values (the token) never appear
 * in diagnostics.
 */
#ifndef TXC_HTTP_H
#define TXC_HTTP_H

#include <stddef.h>

#include "txc/diag.h"

struct txc_http_req {
	const char *url;
	const char *header;                                 /* one extra "Name: value" header, or NULL */
	long timeout;                                       /* total seconds */
	size_t max_bytes;                                   /* body cap */
	int (*on_data)(void *ctx, const char *p, size_t n); /* 0, or -1 to stop */
	void *ctx;
};

/* 0 with *status (any HTTP status: the caller judges it), or TXC_E_FAIL with d set. */
int txc_http_get(const struct txc_http_req *req, long *status, struct txc_diag *d);

/* scheme://host:port/path of url, without user info, query or fragment (malloc'd): what messages may show */
char *txc_http_url_shown(const char *url);

#endif
