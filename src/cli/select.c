/*
 * select.c - which stores a command reads (one, or every profile) and which
 * of their sessions it means: filters, order, limit, id prefixes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <stdio.h>

#include "cli.h"
#include "txc/http.h"

/* ---- stores ---- */

/* ---- time ---- */

/* y-m-d h:m:s as local time (or UTC) -> seconds */
static double civil_to_secs(int y, int mo, int d, int h, int mi, double s, bool utc)
{
	if (utc)
		return (double)(txc_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60) + s;
	struct tm tm = {0};
	tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = d;
	tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = 0, tm.tm_isdst = -1;
	return (double)mktime(&tm) + s;
}

static void today(double now, bool utc, int *y, int *mo, int *d)
{
	time_t t = (time_t)floor(now);
	struct tm tm;
	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	*y = tm.tm_year + 1900, *mo = tm.tm_mon + 1, *d = tm.tm_mday;
}

int cli_parse_when(const char *s, bool utc, bool until, double now, double *out)
{
	int y, mo, d, h = 0, mi = 0, n = 0;
	double sec = 0;
	char unit;
	if (strcmp(s, "today") == 0 || strcmp(s, "yesterday") == 0) {
		today(now, utc, &y, &mo, &d);
		int back = s[0] == 'y';
		/* a calendar day, so that DST changes do not shift it */
		*out = civil_to_secs(y, mo, d - back + (until ? 1 : 0), 0, 0, 0, utc);
		return 0;
	}
	if (sscanf(s, "%d%c%n", &n, &unit, &h) == 2 && s[h] == '\0' && n >= 0 && strchr("smhdw", unit)) {
		static const double mult[] = {1, 60, 3600, 86400, 604800};
		*out = now - n * mult[strchr("smhdw", unit) - "smhdw"];
		return 0;
	}
	h = 0;
	int len = 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &len) != 3 || len != 10 || mo < 1 || mo > 12 || d < 1 || d > 31)
		return -1;
	const char *p = s + 10;
	bool date_only = *p == '\0';
	if (*p == 'T' || *p == ' ') {
		int l2 = 0;
		if (sscanf(p + 1, "%2d:%2d%n", &h, &mi, &l2) != 2 || l2 != 5 || h > 23 || mi > 59)
			return -1;
		p += 1 + l2;
		if (*p == ':') {
			char *end;
			sec = strtod(p + 1, &end);
			if (end == p + 1 || sec < 0 || sec >= 61)
				return -1;
			p = end;
		}
	}
	bool zone_utc = utc;
	double offset = 0;
	if (*p == 'Z' && p[1] == '\0') {
		zone_utc = true;
	} else if (*p == '+' || *p == '-') { /* not date_only: *p is not '\0' */
		int oh, om, l3 = 0;
		if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &l3) != 2 || p[1 + l3] != '\0')
			return -1;
		zone_utc = true;
		offset = (*p == '+' ? 1 : -1) * (oh * 3600 + om * 60);
	} else if (*p != '\0') {
		return -1;
	}
	*out = civil_to_secs(y, mo, d + (date_only && until ? 1 : 0), h, mi, sec, zone_utc) - offset;
	return 0;
}

/* ---- selection ---- */

static bool contains_icase(struct txc_str hay, const char *needle)
{
	size_t n = strlen(needle);
	if (n == 0)
		return true;
	for (size_t i = 0; hay.ptr != NULL && i + n <= hay.len; i++) {
		size_t k = 0;
		while (k < n && tolower((unsigned char)hay.ptr[i + k]) == tolower((unsigned char)needle[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}

/* PATH or below it: "/repo" matches "/repo" and "/repo/x", not "/repository" */
static bool under(struct txc_str cwd, const char *prefix)
{
	size_t n = strlen(prefix);
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (cwd.ptr == NULL || cwd.len < n || memcmp(cwd.ptr, prefix, n) != 0)
		return false;
	return cwd.len == n || cwd.ptr[n] == '/' || (n == 1 && prefix[0] == '/');
}

/*
 * --cwd as an absolute path: relative to the current directory, "." and ".."
 * and repeated slashes folded, like realpath but without requiring that the
 * folder exists here (the session may come from another machine) and
 * without following symbolic links.  malloc'd.
 */
static char *absolute_cwd(const char *arg)
{
	struct txc_buf in = TXC_BUF_INIT, out = TXC_BUF_INIT;
	if (arg[0] != '/') {
		char *here = getcwd(NULL, 0);
		txc_buf_addstr(&in, here ? here : "/");
		txc_buf_addch(&in, '/');
		free(here);
	}
	txc_buf_addstr(&in, arg);
	for (const char *p = in.buf; *p;) {
		while (*p == '/')
			p++;
		const char *e = p;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			size_t keep = out.len;
			while (keep > 0 && out.buf[keep - 1] != '/')
				keep--;
			txc_buf_truncate(&out, keep > 0 ? keep - 1 : 0); /* and the slash before it */
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			txc_buf_addch(&out, '/');
			txc_buf_add(&out, p, n);
		}
		p = e;
	}
	if (out.len == 0)
		txc_buf_addch(&out, '/');
	txc_buf_release(&in);
	return txc_buf_detach(&out, NULL);
}

struct filter {
	bool has_since, has_until;
	double since, until;
};

static bool keep(const struct cli_select *sel, const struct filter *f, const struct cli_session *cs)
{
	const struct txc_session_info *in = cs->info;
	if (f->has_since && !(in->started >= f->since))
		return false;
	if (f->has_until && !(in->started < f->until))
		return false;
	if (sel->source != NULL) {
		struct txc_str s = in->source;
		if (s.ptr == NULL || strlen(sel->source) != s.len || memcmp(s.ptr, sel->source, s.len) != 0)
			return false;
	}
	if (sel->model != NULL && !contains_icase(in->model, sel->model))
		return false;
	if (sel->cwd != NULL && !under(in->cwd, sel->cwd))
		return false;
	if (sel->title != NULL && !contains_icase(in->title, sel->title))
		return false;
	return true;
}

static int cmp_text(struct txc_str a, struct txc_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
	return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int cmp_str_id(const void *a, const void *b)
{
	const struct cli_session *x = a, *y = b;
	if (x->id.kind != y->id.kind)
		return x->id.kind < y->id.kind ? -1 : 1;
	return cmp_text(x->id.text, y->id.text);
}

/* rank = position in the store's export order, by binary search over ids */
static int export_rank(struct txc_store *s, struct cli_session *v, size_t n, struct txc_diag *d)
{
	struct txc_sid *ids;
	size_t n_ids;
	int rc = txc_store_export_order(s, &ids, &n_ids, d);
	if (rc)
		return rc;
	qsort(v, n, sizeof(*v), cmp_str_id);
	for (size_t i = 0; i < n; i++)
		v[i].rank = SIZE_MAX;
	for (size_t r = 0; r < n_ids; r++) {
		struct cli_session key = {.id = ids[r]};
		struct cli_session *hit = bsearch(&key, v, n, sizeof(*v), cmp_str_id);
		if (hit != NULL)
			hit->rank = r;
	}
	txc_store_free_ids(ids, n_ids);
	return TXC_OK;
}

enum order { BY_STARTED, BY_LAST_ACTIVE, BY_RANK };

/* The keys cmp_session orders by, largest first: what --order names, then the start time. */
static void set_keys(struct cli_session *v, size_t n, enum order by)
{
	for (size_t i = 0; i < n; i++) {
		v[i].key[1] = NAN;
		if (by == BY_RANK) {
			v[i].key[0] = -(double)v[i].rank; /* Hermes's own order: rank 0 first */
		} else if (by == BY_LAST_ACTIVE) {
			v[i].key[0] = v[i].info->last_active;
			v[i].key[1] = v[i].info->started;
		} else {
			v[i].key[0] = v[i].info->started;
		}
	}
}

static int cmp_session(const void *pa, const void *pb)
{
	const struct cli_session *a = pa, *b = pb;
	double x = a->key[0], y = b->key[0];
	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (x != y && !isnan(x))
		return x > y ? -1 : 1;
	if (a->key[1] != b->key[1] && !isnan(a->key[1]) && !isnan(b->key[1]))
		return a->key[1] > b->key[1] ? -1 : 1;
	int c = cmp_text(b->id.text, a->id.text); /* id DESC, like Hermes */
	if (c != 0)
		return c;
	return a->store < b->store ? -1 : a->store > b->store;
}

/* whether v is in cmp_session's order (then qsort would leave it as it is) */
static bool sorted(const struct cli_session *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (cmp_session(&v[i - 1], &v[i]) > 0)
			return false;
	return true;
}

static int select_in(const struct cli_args *a, const struct cli_cmd_info *c, const struct cli_select *sel,
		     struct cli_stores *st, struct txc_arena *ar, struct cli_session **out, size_t *n, size_t *n_more,
		     struct txc_diag *d);

/* ---- --all-sources: the store's copy of a session wins over a legacy file's ---- */

struct listed {
	const struct txc_session_info *v;
	size_t n;
	struct txc_str *ids; /* its ids sorted, made when a legacy folder is checked against it */
};

static int cmp_ids(const void *a, const void *b)
{
	return cmp_text(*(const struct txc_str *)a, *(const struct txc_str *)b);
}

enum { SHADOW_SAID = 20 }; /* --verbose: at most this many lines, then a count */

struct shadow {
	bool verbose;
	size_t n;
};

static void say_shadowed_more(size_t n)
{
	fprintf(stderr, "txc: list: and %zu more legacy session%s the store has too\n", n, n == 1 ? "" : "s");
}

/* Whether the twin store has a session of this id; --verbose says so, one line each. */
static bool shadowed(struct shadow *sh, const struct cli_stores *st, size_t i, struct listed *twin, struct txc_str id)
{
	if (twin->ids == NULL) {
		twin->ids = txc_xmalloc((twin->n ? twin->n : 1) * sizeof(*twin->ids));
		for (size_t k = 0; k < twin->n; k++)
			twin->ids[k] = twin->v[k].sid.text;
		qsort(twin->ids, twin->n, sizeof(*twin->ids), cmp_ids);
	}
	if (twin->n == 0 || bsearch(&id, twin->ids, twin->n, sizeof(*twin->ids), cmp_ids) == NULL)
		return false;
	if (sh->verbose && sh->n < SHADOW_SAID) {
		struct txc_buf b = TXC_BUF_INIT, line = TXC_BUF_INIT;
		txc_buf_addf(&b, "session %.*s is in '%s' and in the legacy files of '%s'; the store's is used",
			     (int)id.len, id.ptr, st->v[st->v[i].twin].path, st->v[i].path);
		cli_safe_text(&line, b.buf, b.len, true);
		fprintf(stderr, "txc: list: %s\n", line.buf);
		txc_buf_release(&b);
		txc_buf_release(&line);
	}
	sh->n++;
	return true;
}

enum txc_err cli_select_sessions(const struct cli_args *a, const struct cli_cmd_info *c, struct cli_stores *st,
				 struct txc_arena *ar, struct cli_session **out, size_t *n, size_t *n_more,
				 struct txc_diag *d)
{
	struct cli_select sel_abs = a->sel;
	const struct cli_select *sel = &sel_abs;
	char *cwd_abs = a->sel.cwd != NULL ? absolute_cwd(a->sel.cwd) : NULL;
	sel_abs.cwd = cwd_abs;
	int rc = select_in(a, c, sel, st, ar, out, n, n_more, d);
	free(cwd_abs);
	return rc;
}

/* --since and --until, parsed into f; TXC_E_USAGE with d set for a bad one */
static int when_filter(const struct cli_select *sel, struct filter *f, struct txc_diag *d)
{
	static const char *const takes = "takes a date (2026-09-14), a date-time (2026-09-14T10:15), "
					 "a span (30m, 5h, 2d, 1w), today or yesterday, not";
	double now = (double)time(NULL);
	if (sel->since_arg != NULL) {
		if (cli_parse_when(sel->since_arg, sel->utc, false, now, &f->since) != 0) {
			txc_diag_set(d, TXC_E_USAGE, "--since %s '%s'", takes, sel->since_arg);
			return TXC_E_USAGE;
		}
		f->has_since = true;
	}
	if (sel->until_arg != NULL) {
		if (cli_parse_when(sel->until_arg, sel->utc, true, now, &f->until) != 0) {
			txc_diag_set(d, TXC_E_USAGE, "--until %s '%s'", takes, sel->until_arg);
			return TXC_E_USAGE;
		}
		f->has_until = true;
	}
	return TXC_OK;
}

/* the sessions selected so far, and what was said of them */
struct picked {
	struct cli_session *v;
	size_t n, cap, no_id, dup_id;
};

/* The listing flags this command's selection needs. */
static unsigned list_flags(const struct cli_args *a, const struct cli_cmd_info *c, const struct cli_select *sel,
			   const struct cli_stores *st)
{
	bool exports = (c->flags & CLI_CMD_EXPORTS) != 0;
	bool archived = sel->archived || exports; /* Hermes exports archived sessions too */
	/* last activity costs a look at each session's messages: only when it is shown or ordered by */
	bool want_last =
		(a->json || exports || (sel->order_set && sel->order == 1)) && !cli_select_order_later(a, c, st);
	/* --all-sources: a store's archived session still shadows a legacy copy */
	unsigned flags = (archived || a->store.all_sources ? TXC_LIST_ARCHIVED : 0) |
			 (want_last ? TXC_LIST_LAST_ACTIVE : 0) | (a->json ? 0 : TXC_LIST_BRIEF) |
			 (sel->cwd != NULL ? TXC_LIST_CWD : 0) |
			 (exports && a->out_dir != NULL ? TXC_LIST_FINGERPRINT : 0) |
			 (want_last ? sel->list_more & ~(unsigned)TXC_LIST_ROW_ACTIVITY : sel->list_more); /* (an order
			 by last activity takes Hermes's own) */
	return flags;
}

/* What store i lists, with the flags this command's selection needs. */
static int list_store(const struct cli_args *a, const struct cli_cmd_info *c, const struct cli_select *sel,
		      struct cli_stores *st, size_t i, struct txc_arena *ar, struct listed *got, struct txc_diag *d)
{
	const struct txc_session_info *infos;
	size_t n_infos;
	int rc = txc_store_sessions(st->v[i].s, list_flags(a, c, sel, st), ar, &infos, &n_infos, d);
	if (rc == 0)
		got[i] = (struct listed){infos, n_infos, NULL};
	return rc;
}

/* Store i's sessions that the filters keep, appended to p. */
static void pick_store(const struct cli_select *sel, bool archived, const struct filter *f, const struct cli_stores *st,
		       size_t i, struct listed *got, struct shadow *sh, struct picked *p)
{
	if (p->cap - p->n < got[i].n) /* room for them all at once: no array grown by doubling */
		p->v = txc_xrealloc(p->v, (p->cap = p->n + got[i].n) * sizeof(*p->v));
	for (size_t k = 0; k < got[i].n; k++) {
		const struct txc_session_info *info = &got[i].v[k];
		struct cli_session cs = {.info = info, .store = i, .id = info->sid};
		if (!archived && info->archived)
			continue;
		if (st->v[i].twin != SIZE_MAX && shadowed(sh, st, i, &got[st->v[i].twin], cs.id.text))
			continue;
		p->no_id += cs.id.kind == TXC_ID_NONE;
		p->dup_id += cs.id.kind == TXC_ID_DUP;
		if (!keep(sel, f, &cs))
			continue;
		p->v[p->n++] = cs;
	}
}

/* The picked sessions in the order asked (list: newest start first; export: Hermes's order, last
 * activity, unless --order says), cut at --limit. */
static int order_and_cut(const struct cli_args *a, const struct cli_cmd_info *c, const struct cli_select *sel,
			 struct cli_stores *st, struct picked *p, size_t *n_more, struct txc_diag *d)
{
	enum order by = BY_STARTED;
	bool exports = (c->flags & CLI_CMD_EXPORTS) != 0;
	if ((sel->order_set ? sel->order == 1 : exports) && !cli_select_order_later(a, c, st))
		by = BY_LAST_ACTIVE;
	if (by == BY_LAST_ACTIVE && st->n == 1 && p->n > 1) {
		int rc = export_rank(st->v[0].s, p->v, p->n, d); /* exactly Hermes's ORDER BY */
		if (rc)
			return rc;
		by = BY_RANK;
	}
	set_keys(p->v, p->n, by);
	/* a store gives them newest first: most listings by start are in order already (by start the
	 * order is total, so a sorted array is what qsort would make of it) */
	if (by != BY_STARTED || !sorted(p->v, p->n))
		qsort(p->v, p->n, sizeof(*p->v), cmp_session);
	*n_more = 0;
	if (sel->limit > 0 && p->n > (size_t)sel->limit) {
		*n_more = p->n - (size_t)sel->limit;
		p->n = (size_t)sel->limit;
	}
	return TXC_OK;
}

static int select_in(const struct cli_args *a, const struct cli_cmd_info *c, const struct cli_select *sel,
		     struct cli_stores *st, struct txc_arena *ar, struct cli_session **out, size_t *n, size_t *n_more,
		     struct txc_diag *d)
{
	struct filter f = {0};
	int rc = when_filter(sel, &f, d);
	if (rc != TXC_OK)
		return rc;
	struct picked p = {txc_xmalloc(64 * sizeof(*p.v)), 0, 64, 0, 0};
	struct listed *got = txc_xcalloc(st->n ? st->n : 1, sizeof(*got));
	struct shadow sh = {.verbose = a->search.verbose};
	bool archived = sel->archived || (c->flags & CLI_CMD_EXPORTS);
	for (size_t i = 0; i < st->n && rc == 0; i++)
		if (!st->v[i].deferred && (rc = list_store(a, c, sel, st, i, ar, got, d)) == 0)
			pick_store(sel, archived, &f, st, i, got, &sh, &p);
	for (size_t i = 0; i < st->n; i++)
		free(got[i].ids);
	free(got);
	if (rc != 0) {
		free(p.v);
		return rc;
	}
	if (sh.n > SHADOW_SAID)
		say_shadowed_more(sh.n - SHADOW_SAID);
	if (p.no_id)
		cli_warn("%zu session%s no id (NULL or empty); each is named by its place: no-id~N", p.no_id,
			 p.no_id == 1 ? " has" : "s have");
	if (p.dup_id)
		cli_warn("%zu session%s an id an earlier session has; each is named ID~2, ID~3, ...", p.dup_id,
			 p.dup_id == 1 ? " repeats" : "s repeat");
	if ((rc = order_and_cut(a, c, sel, st, &p, n_more, d)) != 0) {
		free(p.v);
		return rc;
	}
	*out = p.v;
	*n = p.n;
	return TXC_OK;
}

/* ---- a search's sessions named as its hits come (cli.h: cli_pick) ---- */

bool cli_select_deferrable(const struct cli_stores *st, size_t i)
{
	for (size_t k = 0; k < st->n; k++)
		if (st->v[k].twin == i) /* a legacy folder's sessions are checked against its whole listing */
			return false;
	return st->v[i].twin == SIZE_MAX && txc_store_names_plain(st->v[i].s);
}

struct cli_pick {
	const struct cli_args *a;
	const struct cli_cmd_info *c;
	struct cli_stores *st;
	struct cli_select sel; /* --cwd made absolute */
	char *cwd_abs;
	struct filter f;
	bool archived;
	int rc; /* the first failure to read a session's row */
	struct txc_diag d;
};

struct cli_pick *cli_pick_new(const struct cli_args *a, const struct cli_cmd_info *c, struct cli_stores *st)
{
	struct cli_pick *p = txc_xcalloc(1, sizeof(*p));
	p->a = a, p->c = c, p->st = st, p->sel = a->sel;
	p->cwd_abs = a->sel.cwd != NULL ? absolute_cwd(a->sel.cwd) : NULL;
	p->sel.cwd = p->cwd_abs;
	p->archived = p->sel.archived || (c->flags & CLI_CMD_EXPORTS);
	p->rc = when_filter(&p->sel, &p->f, &p->d);
	return p;
}

bool cli_pick_one(struct cli_pick *p, size_t store, const struct txc_sid *sid, struct txc_arena *ar,
		  struct cli_session *out)
{
	const struct txc_session_info *info;
	if (p->rc != TXC_OK)
		return false;
	struct txc_diag d = {0};
	int rc = txc_store_session(p->st->v[store].s, sid, list_flags(p->a, p->c, &p->sel, p->st), ar, &info, &d);
	if (rc != TXC_OK) {
		if (rc != TXC_E_NOTFOUND)
			p->rc = rc, p->d = d;
		return false;
	}
	*out = (struct cli_session){.info = info, .store = store, .id = info->sid};
	return (p->archived || !info->archived) && keep(&p->sel, &p->f, out);
}

int cli_pick_free(struct cli_pick *p, struct txc_diag *d)
{
	int rc = p->rc;
	if (rc != TXC_OK)
		*d = p->d;
	free(p->cwd_abs);
	free(p);
	return rc;
}

bool cli_select_order_later(const struct cli_args *a, const struct cli_cmd_info *c, const struct cli_stores *st)
{
	return (c->flags & CLI_CMD_EXPORTS) && a->out_dir != NULL && !a->json && st->n == 1 && a->sel.limit <= 0 &&
	       !a->sel.order_set;
}

enum txc_err cli_select_export_order(struct cli_stores *st, const struct cli_session *v, size_t n, size_t *perm,
				     struct txc_diag *d)
{
	struct cli_session *w = txc_xmalloc((n ? n : 1) * sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		w[i] = v[i];
		w[i].at = i;
	}
	int rc = n > 1 ? export_rank(st->v[0].s, w, n, d) : TXC_OK;
	if (rc == TXC_OK && n > 1) {
		set_keys(w, n, BY_RANK);
		qsort(w, n, sizeof(*w), cmp_session);
	}
	for (size_t k = 0; k < n && rc == TXC_OK; k++)
		perm[k] = w[k].at;
	free(w);
	return rc;
}

/* a store's candidate lines ("  ID\n"...) into hint, each with its profile, whole lines only */
static void add_hint_lines(char *hint, size_t size, const char *lines, const char *profile)
{
	const char *prof = profile ? profile : "-";
	for (const char *p = lines, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		size_t hl = strlen(hint);
		if (hl + (size_t)(nl - p) + strlen(prof) + 16 >= size)
			return;
		snprintf(hint + hl, size - hl, "%.*s (profile %s)\n", (int)(nl - p), p, prof);
	}
}

/*
 * An exact id anywhere wins over prefixes everywhere; then a unique prefix.
 * Two exact ids (or two prefixes) in different profiles need --profile.
 */
/* What every store said of one SESSION argument: exact and prefix matches, and ambiguity. */
struct matches {
	size_t found[2]; /* [0] prefix matches, [1] exact */
	size_t at[2];
	struct txc_sid got[2]; /* the first of each */
	char hint[2][sizeof(((struct txc_diag *)0)->hint)];
	struct txc_diag ambiguous; /* the first store where a prefix named several */
};

static void note_ambiguous(struct matches *m, const struct cli_stores *st, size_t i, const struct txc_diag *d1)
{
	add_hint_lines(m->hint[0], sizeof(m->hint[0]), d1->hint, st->v[i].profile);
	if (m->ambiguous.code != TXC_OK)
		return;
	m->ambiguous = *d1;
	size_t ml = strlen(m->ambiguous.msg);
	if (st->n > 1)
		snprintf(m->ambiguous.msg + ml, sizeof(m->ambiguous.msg) - ml, " (profile %s)", st->v[i].profile);
}

static void note_match(struct matches *m, const struct cli_stores *st, size_t i, const char *arg, struct txc_sid got)
{
	int k = got.text.len == strlen(arg) && memcmp(got.text.ptr, arg, got.text.len) == 0;
	size_t hl = strlen(m->hint[k]);
	const char *prof = st->v[i].profile ? st->v[i].profile : "-";
	if (hl + got.text.len + strlen(prof) + 16 < sizeof(m->hint[k])) /* whole lines only */
		snprintf(m->hint[k] + hl, sizeof(m->hint[k]) - hl, "  %.*s (profile %s)\n", (int)got.text.len,
			 got.text.ptr, prof);
	if (m->found[k]++ == 0) {
		m->at[k] = i;
		m->got[k] = got;
	} else {
		txc_sid_release(&got);
	}
}

/* No single answer: not found, ambiguous in one store, or found in several profiles. */
static enum txc_err no_single(struct matches *m, const struct cli_stores *st, const char *arg, int k,
			      struct txc_diag *d)
{
	if (m->found[k] == 0 && m->ambiguous.code != TXC_OK) {
		*d = m->ambiguous;
		return TXC_E_AMBIGUOUS;
	}
	if (m->found[k] == 0 && st->n == 1) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in '%s' (see 'txc list')", arg, st->v[0].path);
		return TXC_E_NOTFOUND;
	}
	if (m->found[k] == 0) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in any profile (see 'txc list --all-profiles')", arg);
		return TXC_E_NOTFOUND;
	}
	txc_diag_set(d, TXC_E_AMBIGUOUS, "'%s' names sessions in %zu profiles; add --profile NAME:", arg,
		     m->found[k] + (k == 0 && m->ambiguous.code != TXC_OK));
	memcpy(d->hint, m->hint[k], sizeof(d->hint));
	return TXC_E_AMBIGUOUS;
}

/* A legacy session (--all-sources) whose id its home's state.db has too. */
static bool legacy_shadowed(struct cli_stores *st, size_t i, struct txc_sid got)
{
	if (st->v[i].twin == SIZE_MAX)
		return false;
	char *text = txc_xstrndup(got.text.ptr, got.text.len);
	struct txc_sid in_store = {0};
	struct txc_diag d1 = {0};
	bool same = strlen(text) == got.text.len &&
		    txc_store_resolve(st->v[st->v[i].twin].s, text, &in_store, &d1) == TXC_OK &&
		    cmp_text(in_store.text, got.text) == 0;
	txc_sid_release(&in_store);
	free(text);
	return same;
}

/*
 * The root store was read because no store was named: a profile's store with the same session
 * (Hermes copies a bot's sessions into its profile and archives the root's copy) is said, so
 * that the copy read is not mistaken for the one Hermes continues.
 */
static void say_other_copy(const struct cli_stores *st, const struct txc_sid *id)
{
	if (!st->root_unnamed || st->n != 1 || id->kind != TXC_ID_TEXT)
		return;
	char *profile = cli_profile_having(st, id->text);
	if (profile == NULL)
		return;
	struct txc_buf shown = TXC_BUF_INIT;
	cli_safe_text(&shown, id->text.ptr, id->text.len, true);
	cli_warn("session %s is in profile %s's store too (Hermes copies a bot's sessions into its profile); "
		 "this is the root store's copy: --profile %s reads the other",
		 shown.buf, profile, profile);
	txc_buf_release(&shown);
	free(profile);
}

enum txc_err cli_resolve(struct cli_stores *st, const char *arg, size_t *store, struct txc_sid *id, struct txc_diag *d)
{
	struct matches m;
	memset(&m, 0, sizeof(m));
	for (size_t i = 0; i < st->n; i++) {
		struct txc_sid got = {0};
		struct txc_diag d1 = {0};
		enum txc_err rc = txc_store_resolve(st->v[i].s, arg, &got, &d1);
		if (rc == TXC_E_AMBIGUOUS) {
			note_ambiguous(&m, st, i, &d1);
		} else if (rc == TXC_OK && legacy_shadowed(st, i, got)) {
			txc_sid_release(&got); /* the store's copy of it is the session */
		} else if (rc == TXC_OK) {
			note_match(&m, st, i, arg, got);
		} else if (rc != TXC_E_NOTFOUND) {
			*d = d1;
			txc_sid_release(&m.got[0]);
			txc_sid_release(&m.got[1]);
			return rc;
		}
	}
	int k = m.found[1] ? 1 : 0;
	if (m.found[k] == 1 && (k == 1 || m.ambiguous.code == TXC_OK)) {
		*store = m.at[k];
		*id = m.got[k];
		txc_sid_release(&m.got[!k]);
		say_other_copy(st, id);
		return TXC_OK;
	}
	txc_sid_release(&m.got[0]);
	txc_sid_release(&m.got[1]);
	return no_single(&m, st, arg, k, d);
}

struct txc_str cli_profile_scope(const char *profile)
{
	if (profile == NULL || strcmp(profile, "default") == 0)
		return (struct txc_str){0};
	return txc_str_c(profile);
}

void cli_convert_req(const struct cli_args *a, unsigned flags, const struct txc_sid *id, struct txc_convert_req *req)
{
	memset(req, 0, sizeof(*req));
	req->id = id;
	req->asked = a->n_pos > 0 ? a->pos[0] : NULL;
	req->load_flags = flags;
	req->lineage = a->lineage;
	req->children = a->children;
	req->redact = a->redact;
	req->on_chain = cli_chain_note;
}

enum txc_err cli_load_session(const struct cli_args *a, unsigned flags, struct txc_transcript **t, char **profile,
			      struct txc_diag *d)
{
	struct cli_stores st;
	struct txc_sid id = {0};
	size_t which = 0;
	*t = NULL;
	int rc = cli_stores_open(a, &st, d);
	if (rc == 0)
		rc = cli_resolve(&st, a->pos[0], &which, &id, d);
	struct txc_convert_req req;
	cli_convert_req(a, flags, &id, &req);
	if (rc == 0)
		rc = txc_assemble(st.v[which].s, &req, t, d);
	if (rc == 0 && profile != NULL)
		*profile = st.v[which].profile != NULL ? txc_xstrdup(st.v[which].profile) : NULL;
	cli_stores_close(&st);
	txc_sid_release(&id);
	return rc;
}
