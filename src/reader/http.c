/*
 * http.c - GET over libcurl (see http.h).
 *
 * libcurl is loaded on first use (dlopen): it brings some thirty shared
 * libraries, whose loading would otherwise cost every txc run, remote or not,
 * about 4 ms and 4 MiB.
 */
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/http.h"
#include "txc/util.h"

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

static struct {
	CURLcode (*global_init)(long);
	CURL *(*easy_init)(void);
	void (*easy_reset)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} cu;

static bool load_curl(struct txc_diag *d)
{
	static int state; /* 0 not tried, 1 loaded, -1 failed */
	if (state == 0) {
		void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
		if (h == NULL)
			h = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
		state = -1;
		if (h != NULL) {
			*(void **)&cu.global_init = dlsym(h, "curl_global_init");
			*(void **)&cu.easy_init = dlsym(h, "curl_easy_init");
			*(void **)&cu.easy_reset = dlsym(h, "curl_easy_reset");
			*(void **)&cu.easy_setopt = dlsym(h, "curl_easy_setopt");
			*(void **)&cu.easy_perform = dlsym(h, "curl_easy_perform");
			*(void **)&cu.easy_getinfo = dlsym(h, "curl_easy_getinfo");
			*(void **)&cu.easy_cleanup = dlsym(h, "curl_easy_cleanup");
			*(void **)&cu.easy_strerror = dlsym(h, "curl_easy_strerror");
			*(void **)&cu.slist_append = dlsym(h, "curl_slist_append");
			*(void **)&cu.slist_free_all = dlsym(h, "curl_slist_free_all");
			if (cu.global_init && cu.easy_init && cu.easy_reset && cu.easy_setopt && cu.easy_perform &&
			    cu.easy_getinfo && cu.easy_cleanup && cu.easy_strerror && cu.slist_append &&
			    cu.slist_free_all && cu.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK)
				state = 1;
		}
	}
	if (state < 0)
		txc_diag_set(d, TXC_E_FAIL,
			     "cannot load libcurl, which reading a Hermes dashboard needs (apt-get install libcurl4)");
	return state > 0;
}

static void set_options(CURL *h, const struct txc_http_req *req, struct curl_slist *hdrs, struct call *c,
			char errbuf[CURL_ERROR_SIZE])
{
	cu.easy_reset(h);
	cu.easy_setopt(h, CURLOPT_URL, req->url);
	cu.easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	cu.easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	cu.easy_setopt(h, CURLOPT_WRITEDATA, c);
	cu.easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	cu.easy_setopt(h, CURLOPT_HEADERDATA, c);
	cu.easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
	cu.easy_setopt(h, CURLOPT_TIMEOUT, req->timeout);
	cu.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	cu.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	cu.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	cu.easy_setopt(h, CURLOPT_USERAGENT, "txc");
	cu.easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
}

/* Worth another try: nothing was handed to the consumer yet, and the failure may pass. */
static bool transient(const struct call *c, CURLcode cc, long code)
{
	if (c->delivered)
		return false;
	return (cc == CURLE_OK && code >= 500) || cc == CURLE_COULDNT_CONNECT || cc == CURLE_RECV_ERROR ||
	       cc == CURLE_SEND_ERROR || cc == CURLE_GOT_NOTHING;
}

/* d for a transfer that failed (cc is not CURLE_OK and the consumer did not stop it). */
static enum txc_err failure(const struct txc_http_req *req, const struct call *c, CURLcode cc, const char *errbuf,
			    const char *shown, struct txc_diag *d)
{
	const char *why = errbuf[0] ? errbuf : cu.easy_strerror(cc);
	if (c->too_big) {
		txc_diag_set(d, TXC_E_FAIL, "the answer from %s is larger than %zu bytes; giving up", shown,
			     req->max_bytes);
	} else if (cc == CURLE_OPERATION_TIMEDOUT) {
		txc_diag_set(d, TXC_E_TIMEOUT, "%s did not answer within %ld s", shown, req->timeout);
		return TXC_E_TIMEOUT;
	} else if (cc == CURLE_COULDNT_CONNECT) {
		txc_diag_set(d, TXC_E_FAIL,
			     "cannot connect to the Hermes dashboard at %s: %s (is `hermes dashboard` running?)", shown,
			     why);
	} else if (cc == CURLE_PARTIAL_FILE || cc == CURLE_RECV_ERROR || cc == CURLE_GOT_NOTHING) {
		txc_diag_set(d, TXC_E_FAIL, "the connection to %s was cut after %zu bytes; retry", shown, c->got);
	} else {
		txc_diag_set(d, TXC_E_FAIL, "cannot read %s: %s", shown, why);
	}
	return TXC_E_FAIL;
}

int txc_http_get(const struct txc_http_req *req, long *status, struct txc_diag *d)
{
	if (!load_curl(d))
		return TXC_E_FAIL;
	CURL *h = cu.easy_init();
	if (h == NULL) {
		txc_diag_set(d, TXC_E_FAIL, "cannot start an HTTP client");
		return TXC_E_FAIL;
	}
	char *shown = txc_http_url_shown(req->url);
	struct curl_slist *hdrs = NULL;
	if (req->header != NULL)
		hdrs = cu.slist_append(hdrs, req->header);
	hdrs = cu.slist_append(hdrs, "Accept: application/json");
	char errbuf[CURL_ERROR_SIZE];
	enum txc_err rc = TXC_E_FAIL;
	for (int attempt = 0; attempt < 4; attempt++) {
		struct call c = {.req = req};
		errbuf[0] = '\0';
		set_options(h, req, hdrs, &c, errbuf);
		CURLcode cc = cu.easy_perform(h);
		long code = 0;
		cu.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
		if (attempt < 3 && transient(&c, cc, code)) {
			txc_sleep_ms(200L << attempt); /* 200, 400, 800 ms */
			continue;
		}
		*status = code;
		if (cc == CURLE_OK)
			rc = TXC_OK;
		else if (!c.stopped) /* else the consumer stopped it and set d */
			rc = failure(req, &c, cc, errbuf, shown, d);
		break;
	}
	cu.slist_free_all(hdrs);
	cu.easy_cleanup(h);
	free(shown);
	return rc;
}
