/*
 * hermes_remote.c - a running Hermes dashboard as a store, through its HTTP
 * API: GET /api/sessions (paged) to list, GET /api/sessions/{id}/export
 * (streamed) for a session's rows, ?profile= for a profile.  Authenticated
 * with X-Hermes-Session-Token; without a token given, the one the dashboard
 * embeds in its page is used.  The token is never printed, nor the URL's
 * user info; a URL with a query or fragment is refused (they could hold
 * credentials and would break the request paths).
 *
 * A dashboard is not trusted to behave: each session id is one
 * percent-encoded path segment and "." or ".." is never asked for; an export
 * must be of the session asked for; paging ends when a page brings nothing
 * new, the offset reaches the total, or after a bounded number of pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "txc/http.h"
#include "txc/search.h"
#include "txc/strmap.h"

/* at most this many list pages (1,000,000 sessions), and twice what the first page's total needs */
#define MAX_PAGES 10000

struct remote {
	char *base, *shown, *profile, *header; /* shown: base without user info, for messages */
	long timeout;
	struct txc_arena *a; /* the session list, fetched once */
	const struct txc_json *sessions;
};

static void url_escape(struct txc_buf *b, const char *s)
{
	txc_buf_add_pct(b, s, "-._~");
}

static int collect(void *ctx, const char *p, size_t n)
{
	txc_buf_add(ctx, p, n);
	return 0;
}

static int status_error(const struct remote *r, long status, const char *what, struct txc_diag *d)
{
	if (status == 401 || status == 403)
		txc_diag_set(d, TXC_E_AUTH, "the dashboard at %s refused the session token (HTTP %ld)", r->shown,
			     status);
	else if (status == 404)
		txc_diag_set(d, TXC_E_NOTFOUND, "%s: not found on the dashboard at %s (HTTP 404)", what, r->shown);
	else
		txc_diag_set(d, TXC_E_FAIL, "%s: the dashboard at %s answered HTTP %ld", what, r->shown, status);
	return d->code;
}

static int get_all(struct remote *r, const char *url, struct txc_buf *body, long *status, struct txc_diag *d)
{
	struct txc_http_req req = {url, r->header, r->timeout, 64u << 20, collect, body};
	return txc_http_get(&req, status, d);
}

/* "." and ".." would be other paths once in a URL; a NUL cannot be passed on */
static bool requestable(const struct txc_json *id)
{
	if (id == NULL || (id->kind != TXC_JSON_STRING && id->kind != TXC_JSON_INT))
		return true; /* not a session id at all: the store skips it */
	return !(txc_str_eq(id->s, ".") || txc_str_eq(id->s, "..") || memchr(id->s.ptr, '\0', id->s.len) != NULL);
}

/* true when s was not in the set of ids seen so far (and is now): repeats across pages are dropped */
static bool id_set_add(struct txc_strmap *set, struct txc_str s)
{
	bool added;
	txc_strmap_put(set, s.ptr, s.len, &added);
	return added;
}

static void push_session(struct txc_json *all, size_t *cap, struct txc_arena *a, const struct txc_json *row)
{
	if (all->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 128;
		const struct txc_json **items = txc_arena_array(a, ncap, sizeof(*items));
		if (all->n)
			memcpy(items, all->items, all->n * sizeof(*items));
		all->items = items;
		*cap = ncap;
	}
	all->items[all->n++] = row;
}

/* keep a page's new sessions; the number of rows not seen before (unrequestable ids are not kept) */
static size_t take_page(struct remote *r, struct txc_json *all, size_t *cap, struct txc_strmap *seen,
			const struct txc_json *rows, size_t *odd)
{
	size_t added = 0;
	for (size_t i = 0; i < rows->n; i++) {
		const struct txc_json *id = txc_json_get(rows->items[i], "id");
		if (!requestable(id)) {
			(*odd)++;
			added++; /* news, if unusable */
			continue;
		}
		bool is_id = id != NULL && (id->kind == TXC_JSON_STRING || id->kind == TXC_JSON_INT);
		if (is_id && !id_set_add(seen, id->s))
			continue;
		push_session(all, cap, r->a, rows->items[i]);
		added++;
	}
	return added;
}

static int fetch_sessions(struct remote *r, struct txc_diag *d)
{
	if (r->sessions != NULL)
		return TXC_OK;
	struct txc_json *all = txc_json_array(r->a, 0);
	struct txc_strmap seen = TXC_STRMAP_INIT; /* ids, in r->a with their rows */
	size_t cap = 0, offset = 0, odd = 0;
	int64_t total = 0;
	bool ended = false;
	int64_t pages = MAX_PAGES;
	for (int64_t page = 0; page < pages && !ended; page++) {
		struct txc_buf url = TXC_BUF_INIT, body = TXC_BUF_INIT;
		txc_buf_addf(&url, "%s/api/sessions?limit=100&offset=%zu&order=created&archived=include", r->base,
			     offset);
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
			txc_diag_set(d, TXC_E_FAIL,
				     "the dashboard at %s sent a session list that is not the expected JSON", r->shown);
			rc = TXC_E_FAIL;
		}
		txc_buf_release(&body);
		if (rc) {
			txc_strmap_free(&seen);
			return rc;
		}
		size_t added = take_page(r, all, &cap, &seen, rows, &odd);
		offset += rows->n;
		total = 0;
		/* without a total (an older or other dashboard), the list ends with an empty page */
		bool counted = txc_json_is_int(txc_json_get(o, "total"), &total) && total >= 0;
		ended = counted ? (uint64_t)offset >= (uint64_t)total : rows->n == 0;
		if (page == 0 && counted && !ended && rows->n > 0 && total / (int64_t)rows->n < MAX_PAGES / 2)
			pages = 2 * (total / (int64_t)rows->n + 1) + 10; /* room for sessions made while listing */
		if (!ended && (rows->n == 0 || added == 0)) { /* the dashboard pages wrong: it would never end */
			txc_diag_warn(d, TXC_W_PAGING_STOPPED, r->shown, offset);
			ended = true;
		}
	}
	if (!ended)
		txc_diag_warn(d, TXC_W_PAGE_LIMIT, r->shown, all->n);
	if (odd)
		txc_diag_warn(d, TXC_W_ODD_IDS, r->shown, odd);
	txc_strmap_free(&seen);
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

static int rm_load_id(struct remote *r, const char *id, struct txc_transcript *t, struct txc_diag *d);

/* the session at index of the list: the dashboard's URL names it by its id as text */
static int rm_load(void *impl, size_t index, struct txc_transcript *t, struct txc_diag *d)
{
	struct remote *r = impl;
	const struct txc_json *v =
		r->sessions != NULL && index < r->sessions->n ? txc_json_get(r->sessions->items[index], "id") : NULL;
	if (v == NULL || (v->kind != TXC_JSON_STRING && v->kind != TXC_JSON_INT) || v->s.len == 0 ||
	    memchr(v->s.ptr, '\0', v->s.len) != NULL) {
		txc_diag_set(d, TXC_E_FAIL,
			     "a session of the dashboard at %s has an id that cannot be put in a URL "
			     "(not a non-empty string or integer)",
			     r->shown);
		return TXC_E_FAIL;
	}
	char *id = txc_xstrndup(v->s.ptr, v->s.len);
	int rc = rm_load_id(r, id, t, d);
	free(id);
	return rc;
}

/* the export is of the session asked for (a dashboard could answer for another) */
static bool is_session_id(struct txc_transcript *t, const char *id)
{
	const struct txc_json *v = txc_json_get(txc_hermes_native(t)->session, "id");
	return v != NULL && (v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_INT) && v->s.len == strlen(id) &&
	       memcmp(v->s.ptr, id, v->s.len) == 0;
}

static int rm_load_id(struct remote *r, const char *id, struct txc_transcript *t, struct txc_diag *d)
{
	if (strcmp(id, ".") == 0 || strcmp(id, "..") == 0) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' can be asked of the dashboard at %s", id, r->shown);
		return TXC_E_NOTFOUND;
	}
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
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' on the dashboard at %s", id, r->shown);
		rc = TXC_E_NOTFOUND;
	} else if (rc == TXC_OK && status != 200) {
		rc = status_error(r, status, "a session export", d);
	} else if (rc == TXC_OK && txc_export_parser_finish(e.p) != 0) {
		txc_diag_set(d, TXC_E_FAIL, "the export of session '%s' from %s ended early or is not JSON; retry", id,
			     r->shown);
		rc = TXC_E_FAIL;
	} else if (rc == TXC_OK && !is_session_id(t, id)) {
		txc_diag_set(d, TXC_E_FAIL, "the dashboard at %s answered with another session than '%s'; not used",
			     r->shown, id);
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
	free(r->shown);
	free(r->profile);
	free(r);
}

/* a token goes into a request header: a control byte (CR, LF) would end it and add others */
static bool token_ok(const char *t)
{
	for (; *t; t++)
		if ((unsigned char)*t < 0x20 || *t == 0x7f)
			return false;
	return true;
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
		/* not echoed: a URL we cannot parse may still hold user:password@ or ?token= */
		txc_diag_set(d, TXC_E_USAGE, "not an http:// or https:// URL, such as http://127.0.0.1:9119");
		return TXC_E_USAGE;
	}
	if (strpbrk(url, "?#") != NULL) {
		char *shown = txc_http_url_shown(url);
		txc_diag_set(d, TXC_E_USAGE,
			     "the dashboard's address takes no '?' or '#' (%s); give the "
			     "token with --token or HERMES_DASHBOARD_SESSION_TOKEN",
			     shown);
		free(shown);
		return TXC_E_USAGE;
	}
	struct remote *r = txc_xcalloc(1, sizeof(*r));
	r->base = txc_xstrdup(url);
	size_t n = strlen(r->base);
	while (n > 0 && r->base[n - 1] == '/')
		r->base[--n] = '\0';
	r->shown = txc_http_url_shown(r->base);
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
	if (token != NULL && !token_ok(token)) {
		txc_diag_set(d, o->token ? TXC_E_USAGE : TXC_E_FAIL,
			     "the session token %s holds control characters; not sent",
			     o->token ? "given" : "in the dashboard's page");
		free(scraped);
		rm_close(r);
		return d->code;
	}
	free(scraped);
	d->hint[0] = '\0';
	int rc = fetch_sessions(r, d); /* fails early and clearly: connection, token, shape */
	if (rc) {
		rm_close(r);
		return rc;
	}
	*out = txc_store_new(&txc_hermes_dashboard_ops, r, r->shown);
	return TXC_OK;
}

static int rm_list(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
		   struct txc_diag *d)
{
	const struct txc_json *all;
	int rc = rm_sessions(impl, a, &all, d);
	return rc ? rc : txc_source_infos(a, all, out, n);
}

/* ---- search: GET /api/sessions/search (reference hermes-lineage-redact-search.md §3.5) ---- */

/* The dashboard's snippet without its >>> <<< marks (txc marks its own matches). */
static struct txc_str unmarked(struct txc_arena *a, struct txc_str s)
{
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 0; i < s.len;) {
		if (s.len - i >= 3 && (memcmp(s.ptr + i, ">>>", 3) == 0 || memcmp(s.ptr + i, "<<<", 3) == 0)) {
			i += 3;
			continue;
		}
		txc_buf_addch(&b, s.ptr[i++]);
	}
	struct txc_str out = txc_arena_str(a, b.buf, b.len);
	txc_buf_release(&b);
	return out;
}

/* One result: a content match (an id match has no role and is not a message); false when filtered out. */
static bool result_hit(struct txc_arena *a, const struct txc_json *res, const struct txc_search_opts *o,
		       struct txc_hit *h)
{
	const char *role = txc_json_cstr(txc_json_get(res, "role"));
	const struct txc_json *sid = txc_json_get(res, "session_id");
	if (role == NULL || sid == NULL || (o->role && strcmp(role, o->role) != 0))
		return false;
	memset(h, 0, sizeof(*h));
	h->sid = txc_source_sid(a, sid, false, 0);
	h->role = txc_str_c(role);
	h->active = true;
	const char *snip = txc_json_cstr(txc_json_get(res, "snippet"));
	if (snip != NULL)
		h->cols[0] = unmarked(a, txc_str_c(snip));
	return true;
}

static int rm_search(void *impl, const struct txc_query *q, const struct txc_search_opts *o,
		     const struct txc_hit_sink *sink, struct txc_search_info *info, struct txc_diag *d)
{
	(void)q;
	struct remote *r = impl;
	snprintf(info->index, sizeof(info->index), "dashboard");
	snprintf(info->how, sizeof(info->how),
		 "the dashboard's own search (GET /api/sessions/search): its matching, "
		 "one hit per conversation, named by its live tip, at most 100; its index holds content "
		 "alone (a reply stored in api_content or codex_message_items is not found)");
	info->complete = false;
	if (o->tool) { /* its results name no tool: every hit would be dropped, "no match" a wrong answer */
		txc_diag_set(d, TXC_E_USAGE,
			     "search: the dashboard's search cannot tell which tool a message used (--tool)");
		return TXC_E_USAGE;
	}
	struct txc_buf url = TXC_BUF_INIT, body = TXC_BUF_INIT;
	txc_buf_addf(&url, "%s/api/sessions/search?limit=100&q=", r->base);
	url_escape(&url, o->text != NULL ? o->text : "");
	if (r->profile != NULL) {
		txc_buf_addstr(&url, "&profile=");
		url_escape(&url, r->profile);
	}
	long status = 0;
	int rc = get_all(r, url.buf, &body, &status, d);
	if (rc == TXC_OK && status != 200)
		rc = status_error(r, status, "search", d);
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *doc = NULL, *results = NULL;
	if (rc == TXC_OK && (txc_json_parse(a, body.buf, body.len, &doc) != 0 ||
			     (results = txc_json_get(doc, "results")) == NULL || results->kind != TXC_JSON_ARRAY)) {
		txc_diag_set(d, TXC_E_FAIL, "search: the dashboard at %s did not answer with {\"results\": [...]}",
			     r->shown);
		rc = TXC_E_FAIL;
	}
	for (size_t i = 0; rc == TXC_OK && i < results->n; i++) {
		struct txc_hit h;
		if (result_hit(a, results->items[i], o, &h))
			rc = sink->hit(sink->ctx, &h);
	}
	txc_arena_free(a);
	txc_buf_release(&url);
	txc_buf_release(&body);
	return rc > 0 ? TXC_OK : rc; /* >0: the sink had enough */
}

const struct txc_source_ops txc_hermes_dashboard_ops = {
	.name = "hermes-dashboard",
	.caps = TXC_SRC_NATIVE_ROWS,
	.close = rm_close,
	.sessions = rm_list,
	.load_at = rm_load,
	.search = rm_search,
};
