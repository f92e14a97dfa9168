/*
 * hermes_remote.c - a running Hermes dashboard as a store, through its HTTP
 * API: GET /api/sessions (paged) to list, GET /api/sessions/{id}/export
 * (streamed) for a session's rows, ?profile= for a profile.  Authenticated
 * with X-Hermes-Session-Token; without a token given, the one the dashboard
 * embeds in its page is used.  The token is never printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "txc/http.h"

struct remote {
	char *base, *profile, *header;
	long timeout;
	struct txc_arena *a; /* the session list, fetched once */
	const struct txc_json *sessions;
};

static void url_escape(struct txc_buf *b, const char *s)
{
	static const char hx[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~", *p))
			txc_buf_addch(b, (char)*p);
		else
			txc_buf_addf(b, "%%%c%c", hx[*p >> 4], hx[*p & 15]);
	}
}

static int collect(void *ctx, const char *p, size_t n)
{
	txc_buf_add(ctx, p, n);
	return 0;
}

static int status_error(const struct remote *r, long status, const char *what, struct txc_diag *d)
{
	if (status == 401 || status == 403)
		txc_diag_set(d, TXC_E_AUTH, "the dashboard at %s refused the session token (HTTP %ld)", r->base, status);
	else if (status == 404)
		txc_diag_set(d, TXC_E_NOTFOUND, "%s: not found on the dashboard at %s (HTTP 404)", what, r->base);
	else
		txc_diag_set(d, TXC_E_FAIL, "%s: the dashboard at %s answered HTTP %ld", what, r->base, status);
	return d->code;
}

static int get_all(struct remote *r, const char *url, struct txc_buf *body, long *status, struct txc_diag *d)
{
	struct txc_http_req req = {url, r->header, r->timeout, 64u << 20, collect, body};
	return txc_http_get(&req, status, d);
}

static int fetch_sessions(struct remote *r, struct txc_diag *d)
{
	if (r->sessions != NULL)
		return TXC_OK;
	struct txc_json *all = txc_json_array(r->a, 0);
	size_t cap = 0, offset = 0;
	for (int page = 0; page < 100000; page++) {
		struct txc_buf url = TXC_BUF_INIT, body = TXC_BUF_INIT;
		txc_buf_addf(&url, "%s/api/sessions?limit=100&offset=%zu&order=created&archived=include", r->base, offset);
		if (r->profile != NULL) {
			txc_buf_addstr(&url, "&profile=");
			url_escape(&url, r->profile);
		}
		long status = 0;
		int rc = get_all(r, url.buf, &body, &status, d);
		txc_buf_release(&url);
		const struct txc_json *o, *rows;
		if (rc == TXC_OK && status != 200)
			rc = status_error(r, status, "the session list", d);
		if (rc == TXC_OK && (txc_json_parse(r->a, body.buf, body.len, &o) != 0 ||
				     (rows = txc_json_get(o, "sessions")) == NULL || rows->kind != TXC_JSON_ARRAY)) {
			txc_diag_set(d, TXC_E_FAIL, "the dashboard at %s sent a session list that is not the expected JSON",
				     r->base);
			rc = TXC_E_FAIL;
		}
		txc_buf_release(&body);
		if (rc)
			return rc;
		for (size_t i = 0; i < rows->n; i++) {
			if (all->n == cap) {
				size_t ncap = cap ? cap * 2 : 128;
				const struct txc_json **items = txc_arena_array(r->a, ncap, sizeof(*items));
				if (all->n)
					memcpy(items, all->items, all->n * sizeof(*items));
				all->items = items;
				cap = ncap;
			}
			all->items[all->n++] = rows->items[i];
		}
		offset += rows->n;
		int64_t total = 0;
		if (rows->n == 0 || !txc_json_is_int(txc_json_get(o, "total"), &total) || (int64_t)offset >= total)
			break;
	}
	r->sessions = all;
	return TXC_OK;
}

static int rm_sessions(void *impl, struct txc_arena *a, const struct txc_json **out, struct txc_diag *d)
{
	(void)a;
	struct remote *r = impl;
	int rc = fetch_sessions(r, d);
	*out = r->sessions;
	return rc;
}

struct export_ctx {
	struct txc_export_parser *p;
	struct txc_diag *d;
	const char *id;
};

static int feed(void *ctx, const char *p, size_t n)
{
	struct export_ctx *e = ctx;
	if (txc_export_parser_feed(e->p, p, n) == 0)
		return 0;
	txc_diag_set(e->d, TXC_E_FAIL, "the dashboard sent invalid JSON for session '%s'", e->id);
	return -1;
}

static int rm_load(void *impl, const char *id, struct txc_transcript *t, struct txc_diag *d)
{
	struct remote *r = impl;
	struct txc_buf url = TXC_BUF_INIT;
	txc_buf_addf(&url, "%s/api/sessions/", r->base);
	url_escape(&url, id);
	txc_buf_addstr(&url, "/export");
	if (r->profile != NULL) {
		txc_buf_addstr(&url, "?profile=");
		url_escape(&url, r->profile);
	}
	struct export_ctx e = {txc_export_parser_new(t), d, id};
	struct txc_http_req req = {url.buf, r->header, r->timeout, (size_t)8 << 30, feed, &e};
	long status = 0;
	int rc = txc_http_get(&req, &status, d);
	txc_buf_release(&url);
	if (rc == TXC_OK && status == 404) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' on the dashboard at %s", id, r->base);
		rc = TXC_E_NOTFOUND;
	} else if (rc == TXC_OK && status != 200) {
		rc = status_error(r, status, "a session export", d);
	} else if (rc == TXC_OK && txc_export_parser_finish(e.p) != 0) {
		txc_diag_set(d, TXC_E_FAIL, "the export of session '%s' from %s ended early or is not JSON; retry", id,
			     r->base);
		rc = TXC_E_FAIL;
	}
	txc_export_parser_free(e.p);
	return rc;
}

static void rm_close(void *impl)
{
	struct remote *r = impl;
	txc_arena_free(r->a);
	if (r->header != NULL)
		memset(r->header, 0, strlen(r->header)); /* the token */
	free(r->header);
	free(r->base);
	free(r->profile);
	free(r);
}

/* window.__HERMES_SESSION_TOKEN__ = "..." in the dashboard's page */
static char *scrape_token(struct remote *r)
{
	struct txc_buf url = TXC_BUF_INIT, body = TXC_BUF_INIT;
	txc_buf_addf(&url, "%s/", r->base);
	long status = 0;
	struct txc_diag d = {0};
	char *token = NULL;
	if (get_all(r, url.buf, &body, &status, &d) == TXC_OK && status == 200) {
		const char *k = strstr(body.buf, "__HERMES_SESSION_TOKEN__");
		if (k != NULL) {
			k += strlen("__HERMES_SESSION_TOKEN__");
			while (*k == ' ' || *k == '=' || *k == ':')
				k++;
			if (*k == '"' || *k == '\'') {
				const char *end = strchr(k + 1, *k);
				if (end != NULL && end - k - 1 < 1024)
					token = txc_xstrndup(k + 1, (size_t)(end - k - 1));
			}
		}
	}
	txc_buf_release(&url);
	txc_buf_release(&body);
	return token;
}

int txc_store_open_remote(struct txc_store **out, const char *url, const struct txc_remote_opts *o, struct txc_diag *d)
{
	*out = NULL;
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
		txc_diag_set(d, TXC_E_USAGE, "'%s' is not an http:// or https:// URL, such as http://127.0.0.1:9119", url);
		return TXC_E_USAGE;
	}
	struct remote *r = txc_xcalloc(1, sizeof(*r));
	r->base = txc_xstrdup(url);
	size_t n = strlen(r->base);
	while (n > 0 && r->base[n - 1] == '/')
		r->base[--n] = '\0';
	r->profile = o->profile ? txc_xstrdup(o->profile) : NULL;
	r->timeout = o->timeout > 0 ? o->timeout : 300;
	r->a = txc_arena_new(0);
	char *scraped = o->token == NULL ? scrape_token(r) : NULL;
	const char *token = o->token ? o->token : scraped;
	if (token != NULL) {
		struct txc_buf h = TXC_BUF_INIT;
		txc_buf_addf(&h, "X-Hermes-Session-Token: %s", token);
		r->header = txc_buf_detach(&h, NULL);
	}
	free(scraped);
	int rc = fetch_sessions(r, d); /* fails early and clearly: connection, token, shape */
	if (rc) {
		rm_close(r);
		return rc;
	}
	struct txc_source src = {r, rm_close, rm_sessions, rm_load};
	return txc_store_from_source(out, r->base, &src);
}
