/* http.c - GET over libcurl (see http.h). */
#include <curl/curl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "txc/http.h"

struct call {
	const struct txc_http_req *req;
	size_t got;
	long status;
	bool delivered, too_big, stopped;
};

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
	struct call *c = ctx;
	size_t len = size * n;
	/* the status line comes first: only a 2xx body is handed on (the caller judges others) */
	if (c->status < 200 || c->status >= 300)
		return len;
	c->got += len;
	if (c->got > c->req->max_bytes) {
		c->too_big = true;
		return 0;
	}
	c->delivered = true;
	if (c->req->on_data(c->req->ctx, p, len) != 0) {
		c->stopped = true;
		return 0;
	}
	return len;
}

static size_t on_header(char *p, size_t size, size_t n, void *ctx)
{
	struct call *c = ctx;
	size_t len = size * n;
	long code;
	if (len > 9 && memcmp(p, "HTTP/", 5) == 0 && sscanf(p, "HTTP/%*s %ld", &code) == 1)
		c->status = code;
	return len;
}

static void pause_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* the URL without user info or query, for messages */
static void safe_url(char *out, size_t cap, const char *url)
{
	const char *q = strpbrk(url, "?#");
	size_t n = q ? (size_t)(q - url) : strlen(url);
	const char *at = memchr(url, '@', n), *scheme = strstr(url, "://");
	if (at != NULL && scheme != NULL && scheme < at)
		snprintf(out, cap, "%.*s%.*s", (int)(scheme + 3 - url), url, (int)(url + n - at - 1), at + 1);
	else
		snprintf(out, cap, "%.*s", (int)n, url);
}

int txc_http_get(const struct txc_http_req *req, long *status, struct txc_diag *d)
{
	static bool inited;
	if (!inited) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		inited = true;
	}
	char shown[512];
	safe_url(shown, sizeof(shown), req->url);
	CURL *h = curl_easy_init();
	if (h == NULL) {
		txc_diag_set(d, TXC_E_FAIL, "cannot start an HTTP client");
		return TXC_E_FAIL;
	}
	struct curl_slist *hdrs = NULL;
	if (req->header != NULL)
		hdrs = curl_slist_append(hdrs, req->header);
	hdrs = curl_slist_append(hdrs, "Accept: application/json");
	char errbuf[CURL_ERROR_SIZE];
	int rc = TXC_E_FAIL;
	for (int attempt = 0; attempt < 4; attempt++) {
		struct call c = {.req = req};
		errbuf[0] = '\0';
		curl_easy_reset(h);
		curl_easy_setopt(h, CURLOPT_URL, req->url);
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
		curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
		curl_easy_setopt(h, CURLOPT_WRITEDATA, &c);
		curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
		curl_easy_setopt(h, CURLOPT_HEADERDATA, &c);
		curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
		curl_easy_setopt(h, CURLOPT_TIMEOUT, req->timeout);
		curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
		curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
		curl_easy_setopt(h, CURLOPT_USERAGENT, "txc");
		curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
		CURLcode cc = curl_easy_perform(h);
		long code = 0;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
		bool retry = !c.delivered && attempt < 3 &&
			     ((cc == CURLE_OK && code >= 500) || cc == CURLE_COULDNT_CONNECT || cc == CURLE_RECV_ERROR ||
			      cc == CURLE_SEND_ERROR || cc == CURLE_GOT_NOTHING);
		if (retry) {
			pause_ms(200L << attempt); /* 200, 400, 800 ms */
			continue;
		}
		if (cc == CURLE_OK) {
			*status = code;
			rc = TXC_OK;
		} else if (c.stopped) {
			*status = code;
			rc = TXC_E_FAIL; /* the consumer set d */
		} else if (c.too_big) {
			txc_diag_set(d, TXC_E_FAIL, "the answer from %s is larger than %zu bytes; giving up", shown,
				     req->max_bytes);
		} else if (cc == CURLE_OPERATION_TIMEDOUT) {
			txc_diag_set(d, TXC_E_FAIL, "%s did not answer within %ld s (raise --timeout)", shown, req->timeout);
		} else if (cc == CURLE_COULDNT_CONNECT) {
			txc_diag_set(d, TXC_E_FAIL, "cannot connect to the Hermes dashboard at %s: %s (is `hermes dashboard` running?)",
				     shown, errbuf[0] ? errbuf : curl_easy_strerror(cc));
		} else if (cc == CURLE_PARTIAL_FILE || cc == CURLE_RECV_ERROR || cc == CURLE_GOT_NOTHING) {
			txc_diag_set(d, TXC_E_FAIL, "the connection to %s was cut after %zu bytes; retry", shown, c.got);
		} else {
			txc_diag_set(d, TXC_E_FAIL, "cannot read %s: %s", shown, errbuf[0] ? errbuf : curl_easy_strerror(cc));
		}
		break;
	}
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(h);
	return rc;
}
