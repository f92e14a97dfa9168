/*
 * cmd_search.c - `txc search QUERY`: the messages of the selected sessions
 * that match, as text grouped by session, session ids (--sessions) or a
 * JSON array streamed hit by hit (--json).
 *
 * The store answers (txc_store_search: its full-text index, else a scan);
 * this file selects the sessions as `list` does and prints each hit as
 * ID#N, the message a person can find again (search.h: message numbers).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "txc/redact.h"
#include "txc/search.h"
#include "txc/strmap.h"

enum { SNIPPET_BYTES = 160, DEFAULT_LIMIT = 20 };

/* Text output waits for the end so that each session's hits are shown together. */
struct group {
	size_t sel; /* index in the selection */
	char *tip;  /* its compression chain's live tip, or NULL */
	struct txc_buf lines;
};

struct search_out {
	const struct cli_args *a;
	const struct txc_query *q;
	const char *text; /* the query as typed */
	struct cli_stores *st;
	size_t store; /* the store being searched */
	struct cli_session *sel;
	size_t n_sel, n_listed, cap_sel; /* the first n_listed: cli_select_sessions's; then those picked */
	size_t *by_info;                 /* the listed's indexes sorted by info pointer */
	bool *seen;                      /* per selection index: a hit was shown */
	/* a deferred store's sessions, picked as hits name them: (store, identity text) -> index + 1,
	 * or SIZE_MAX when not selected */
	struct cli_pick *pick;
	struct txc_strmap picked;
	struct txc_arena *arena;
	size_t limit, n_hits, n_sessions;
	bool more;          /* the limit stopped the search */
	struct txc_out out; /* --json */
	struct cli_tty tty;
	struct group *groups; /* text */
	size_t n_groups;
	bool color, tty_out;
	struct txc_redactor *red; /* --redact: snippets and titles shown redacted */
};

/* ---- which selected session a hit is in ---- */

/* selection indexes by their info's address; ctx: the selection */
static int cmp_info(const void *pa, const void *pb, void *ctx)
{
	const struct cli_session *sel = ctx;
	const struct txc_session_info *x = sel[*(const size_t *)pa].info, *y = sel[*(const size_t *)pb].info;
	return (x > y) - (x < y);
}

/* the key of a session of the store being searched in o->picked, in b */
static void pick_key(const struct search_out *o, struct txc_str id, struct txc_buf *b)
{
	txc_buf_add(b, &o->store, sizeof(o->store));
	txc_buf_add(b, id.ptr, id.len);
}

static size_t sel_index(const struct search_out *o, const struct txc_session_info *info)
{
	if (o->st->v[o->store].deferred) {
		struct txc_buf b = TXC_BUF_INIT;
		pick_key(o, info->sid.text, &b);
		const struct txc_strmap_entry *e = txc_strmap_get(&o->picked, b.buf, b.len);
		txc_buf_release(&b);
		return e != NULL && e->num != SIZE_MAX ? e->num - 1 : o->n_sel;
	}
	size_t lo = 0, hi = o->n_listed;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct txc_session_info *m = o->sel[o->by_info[mid]].info;
		if (m == info)
			return o->by_info[mid];
		if (m < info)
			lo = mid + 1;
		else
			hi = mid;
	}
	return o->n_sel;
}

/* txc_chooser: the selected session a deferred store's hit names (cli_pick_one, once a session), or NULL */
static const struct txc_session_info *choose(void *ctx, const struct txc_sid *sid)
{
	struct search_out *o = ctx;
	struct txc_buf b = TXC_BUF_INIT;
	pick_key(o, sid->text, &b);
	bool added;
	struct txc_strmap_entry *e = txc_strmap_put(&o->picked, b.buf, b.len, &added);
	if (added) {
		e->key = txc_arena_str(o->arena, b.buf, b.len).ptr;
		struct cli_session cs;
		e->num = SIZE_MAX;
		if (cli_pick_one(o->pick, o->store, sid, o->arena, &cs)) {
			if (o->n_sel == o->cap_sel) {
				o->cap_sel = o->cap_sel ? 2 * o->cap_sel : 16;
				o->sel = txc_xrealloc(o->sel, o->cap_sel * sizeof(*o->sel));
				o->seen = txc_xrealloc(o->seen, o->cap_sel);
			}
			o->seen[o->n_sel] = false;
			o->sel[o->n_sel++] = cs;
			e->num = o->n_sel;
		}
	}
	txc_buf_release(&b);
	return e->num != SIZE_MAX ? o->sel[e->num - 1].info : NULL;
}

/* ---- snippets ---- */

/* The column whose match is shown: the reply, else a replayed text, else the tool call, else the tool name. */
static struct txc_str shown_text(const struct txc_query *q, const struct txc_hit *h)
{
	static const int order[] = {0, 3, 2, 1};
	for (int k = 0; k < 4; k++) {
		struct txc_str c = h->cols[order[k]];
		for (size_t i = 0; c.ptr != NULL && i < q->n; i++)
			if (!q->v[i].negated && txc_query_term_in(q, i, c.ptr, c.len))
				return c;
	}
	return h->cols[0];
}

/* One line: the window around the match, marks as colour or >>> <<<, every byte safe for a terminal. */
static void snippet(struct txc_buf *b, const struct search_out *o, const struct txc_hit *h, bool color, bool raw)
{
	const struct txc_query *q = o->q;
	struct txc_str t = shown_text(q, h);
	if (t.ptr == NULL)
		return;
	if (t.len >= 6 && memcmp(t.ptr, "\0json:", 6) == 0) { /* Hermes's marker for JSON content */
		t.ptr += 6;
		t.len -= 6;
	}
	struct txc_arena *red = NULL; /* --redact: the whole text first, so no window cuts a secret */
	if (o->red != NULL) {
		red = txc_arena_new(0);
		t = txc_redact_str(o->red, red, t); /* a JSON text (tool calls) inside its strings */
	}
	struct txc_snippet s;
	txc_query_snippet(q, t.ptr, t.len, SNIPPET_BYTES, &s);
	struct txc_buf piece = TXC_BUF_INIT;
	if (s.cut_left)
		txc_buf_addstr(b, "...");
	size_t at = s.start;
	for (size_t k = 0; k <= s.n; k++) {
		size_t z = k < s.n ? s.mark[k][0] : s.end;
		for (int part = 0; part < 2; part++) {
			size_t from = part ? z : at, to = part ? (k < s.n ? s.mark[k][1] : z) : z;
			if (to <= from)
				continue;
			txc_buf_reset(&piece);
			if (raw) /* JSON: the text as it is, line breaks made spaces */
				for (size_t i = from; i < to; i++)
					txc_buf_addch(&piece, t.ptr[i] == '\n' || t.ptr[i] == '\r' || t.ptr[i] == '\t'
								      ? ' '
								      : t.ptr[i]);
			else
				cli_safe_text(&piece, t.ptr + from, to - from, true);
			if (part && color)
				cli_paint(b, "1;31", piece.buf, piece.len);
			else if (part)
				txc_buf_addf(b, ">>>%s<<<", piece.buf);
			else
				txc_buf_add(b, piece.buf, piece.len);
		}
		if (k < s.n)
			at = s.mark[k][1];
	}
	if (s.cut_right)
		txc_buf_addstr(b, "...");
	txc_buf_release(&piece);
	if (red != NULL)
		txc_arena_free(red);
}

/* a session's title as shown: redacted with --redact (into *tmp) */
static struct txc_str shown_title(const struct search_out *o, struct txc_str title, struct txc_buf *tmp)
{
	if (o->red == NULL || title.ptr == NULL)
		return title;
	txc_redact_text(o->red, title.ptr, title.len, tmp);
	return (struct txc_str){tmp->buf != NULL ? tmp->buf : "", tmp->len};
}

static void fmt_when(char out[32], double secs, bool utc)
{
	if (!txc_time_format(out, 32, secs, utc, "%Y-%m-%d %H:%M")) /* list's format and bounds */
		strcpy(out, "-");
}

/* ---- output ---- */

static void json_str_or_null(struct txc_buf *b, struct txc_str s)
{
	if (s.ptr == NULL)
		txc_buf_addstr(b, "null");
	else
		txc_json_emit_str(b, s.ptr, s.len);
}

static void hit_json(struct search_out *o, const struct txc_hit *h, size_t num)
{
	struct txc_buf *b = &o->out.buf;
	const struct txc_session_info *in = h->session;
	txc_buf_addstr(b, o->n_hits ? ",\n" : "\n");
	txc_buf_addstr(b, "{\"session_id\":");
	txc_json_emit_str(b, in->sid.text.ptr, in->sid.text.len);
	if (num)
		txc_buf_addf(b, ",\"message\":%zu", num);
	else
		txc_buf_addstr(b, ",\"message\":null");
	if (h->has_row_id)
		txc_buf_addf(b, ",\"row_id\":%lld", (long long)h->row_id);
	else
		txc_buf_addstr(b, ",\"row_id\":null");
	txc_buf_addstr(b, ",\"role\":");
	json_str_or_null(b, h->role);
	txc_buf_addstr(b, ",\"tool_name\":");
	json_str_or_null(b, h->tool_name);
	txc_buf_addstr(b, ",\"timestamp\":");
	if (h->timestamp != NULL)
		txc_json_emit(b, h->timestamp, 0);
	else
		txc_buf_addstr(b, "null");
	struct txc_buf snip = TXC_BUF_INIT;
	snippet(&snip, o, h, false, true);
	txc_buf_addstr(b, ",\"snippet\":");
	txc_json_emit_str(b, snip.buf, snip.len);
	txc_buf_release(&snip);
	txc_buf_addstr(b, ",\"rank\":");
	if (h->has_rank && isfinite(h->rank))
		txc_json_emit_real(b, h->rank);
	else
		txc_buf_addstr(b, "null");
	txc_buf_addstr(b, ",\"title\":");
	struct txc_buf title = TXC_BUF_INIT;
	json_str_or_null(b, shown_title(o, in->title, &title));
	txc_buf_release(&title);
	txc_buf_addstr(b, ",\"tip\":");
	json_str_or_null(b, h->tip);
	txc_buf_addf(b, ",\"active\":%s,\"compacted\":%s", h->active ? "true" : "false",
		     h->compacted ? "true" : "false");
	if (o->a->all_profiles) {
		const char *p = o->st->v[o->store].profile;
		txc_buf_addstr(b, ",\"profile\":");
		txc_json_emit_str(b, p, strlen(p));
	}
	txc_buf_addch(b, '}');
	txc_out_maybe_flush(&o->out);
}

static struct group *group_of(struct search_out *o, size_t sel)
{
	for (size_t i = 0; i < o->n_groups; i++)
		if (o->groups[i].sel == sel)
			return &o->groups[i];
	o->groups = txc_xrealloc(o->groups, (o->n_groups + 1) * sizeof(*o->groups));
	o->groups[o->n_groups] = (struct group){sel, NULL, TXC_BUF_INIT};
	return &o->groups[o->n_groups++];
}

/* "  ID#N  role  time  snippet" */
static void hit_line(struct search_out *o, const struct txc_hit *h, size_t num, size_t sel)
{
	struct group *g = group_of(o, sel);
	struct txc_buf *b = &g->lines, id = TXC_BUF_INIT;
	if (g->tip == NULL && h->tip.ptr != NULL)
		g->tip = txc_xstrndup(h->tip.ptr, h->tip.len);
	char when[32];
	cli_safe_text(&id, h->session->sid.text.ptr, h->session->sid.text.len, true);
	if (num)
		txc_buf_addf(&id, "#%zu", num);
	else
		txc_buf_addstr(&id, h->active || h->compacted ? "#?" : " (rewound)");
	txc_buf_addstr(b, "  ");
	cli_paint(b, "33", id.buf, id.len);
	txc_buf_release(&id);
	txc_buf_addstr(b, "  ");
	struct txc_buf role = TXC_BUF_INIT;
	cli_safe_text(&role, h->role.ptr ? h->role.ptr : "-", h->role.ptr ? h->role.len : 1, true);
	if (h->tool_name.ptr != NULL && h->tool_name.len) {
		txc_buf_addch(&role, ':');
		cli_safe_text(&role, h->tool_name.ptr, h->tool_name.len, true);
	}
	if (h->compacted && !h->active)
		txc_buf_addstr(&role, " (compacted)");
	txc_buf_add(b, role.buf, role.len);
	txc_buf_release(&role);
	double secs = NAN;
	if (h->timestamp != NULL && !txc_json_number(h->timestamp, &secs))
		secs = NAN;
	fmt_when(when, secs, o->a->sel.utc);
	txc_buf_addf(b, "  %s  ", when);
	snippet(b, o, h, o->color, false);
	txc_buf_addch(b, '\n');
}

static int on_hit(void *ctx, const struct txc_hit *h)
{
	struct search_out *o = ctx;
	size_t sel = sel_index(o, h->session);
	if (sel == o->n_sel)
		return 0;
	if (o->a->search.sessions) {
		if (o->seen[sel])
			return 0;
		if (o->n_sessions == o->limit) {
			o->more = true;
			return 1;
		}
		o->seen[sel] = true;
		o->n_sessions++;
		struct txc_buf b = TXC_BUF_INIT;
		if (o->tty_out) /* a terminal: escaped like all text; a pipe: the id as it is, for xargs */
			cli_safe_text(&b, h->session->sid.text.ptr, h->session->sid.text.len, true);
		else
			txc_buf_add(&b, h->session->sid.text.ptr, h->session->sid.text.len);
		txc_buf_addch(&b, '\n');
		cli_stdout_write(b.buf, b.len);
		txc_buf_release(&b);
		return 0;
	}
	if (o->n_hits == o->limit) {
		o->more = true;
		return 1;
	}
	size_t num = h->number;
	if (o->a->json)
		hit_json(o, h, num);
	else
		hit_line(o, h, num, sel);
	o->n_hits++;
	o->n_sessions += !o->seen[sel];
	o->seen[sel] = true;
	return 0;
}

static void print_groups(struct search_out *o)
{
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 0; i < o->n_groups; i++) {
		const struct cli_session *cs = &o->sel[o->groups[i].sel];
		char when[32];
		struct txc_buf t = TXC_BUF_INIT;
		cli_safe_text(&t, cs->id.text.ptr, cs->id.text.len, true);
		cli_paint(&b, "1;33", t.buf, t.len);
		txc_buf_reset(&t);
		fmt_when(when, cs->info->started, o->a->sel.utc);
		txc_buf_addf(&b, "  %s  ", when);
		if (cs->info->title.ptr) {
			struct txc_buf tb = TXC_BUF_INIT;
			struct txc_str title = shown_title(o, cs->info->title, &tb);
			cli_safe_text(&t, title.ptr, title.len, true);
			txc_buf_release(&tb);
		}
		cli_paint(&b, "1", t.buf, t.len);
		if (o->groups[i].tip != NULL) {
			txc_buf_reset(&t);
			cli_safe_text(&t, o->groups[i].tip, strlen(o->groups[i].tip), true);
			txc_buf_addf(&b, "  (compressed; continued in %s)", t.buf);
			free(o->groups[i].tip);
		}
		/* --all-profiles: the same id can be in two stores (a bot's session its profile adopted) */
		if (o->a->all_profiles && o->st->v[cs->store].profile != NULL)
			txc_buf_addf(&b, "  (profile %s)", o->st->v[cs->store].profile);
		txc_buf_release(&t);
		txc_buf_addch(&b, '\n');
		txc_buf_add(&b, o->groups[i].lines.buf, o->groups[i].lines.len);
		txc_buf_release(&o->groups[i].lines);
	}
	cli_stdout_write(b.buf, b.len);
	txc_buf_release(&b);
	free(o->groups);
}

/* ---- the command ---- */

/* QUERY: the arguments joined by spaces, refused when too long or not UTF-8, then parsed. */
static int query_of(const struct cli_args *a, struct txc_query *q, char **text)
{
	struct txc_buf b = TXC_BUF_INIT;
	for (int i = 0; i < a->n_pos; i++) {
		if (i)
			txc_buf_addch(&b, ' ');
		txc_buf_addstr(&b, a->pos[i]);
	}
	struct txc_diag d = {0};
	int rc = TXC_E_USAGE;
	if (b.len > TXC_QUERY_MAX)
		cli_usage(cmd_search.name, "the query is %zu bytes long; at most %d are searched for", b.len,
			  TXC_QUERY_MAX);
	else if (!txc_utf8_valid(b.buf, b.len))
		cli_usage(cmd_search.name, "the query is not valid UTF-8");
	else if ((rc = txc_query_parse(b.buf, b.len, q, &d)) != TXC_OK)
		cli_usage(cmd_search.name, "%s", d.msg);
	*text = rc == TXC_OK ? txc_xstrdup(b.buf) : NULL;
	txc_buf_release(&b);
	return rc;
}

static void say_how(const struct cli_store_ref *ref, const struct txc_search_info *info, const struct search_out *o)
{
	struct txc_buf b = TXC_BUF_INIT, line = TXC_BUF_INIT;
	txc_buf_addf(&b, "%s: %s, %s: %s; %zu hit%s", ref->path, info->index,
		     info->complete ? "complete" : "INCOMPLETE", info->how, o->n_hits, o->n_hits == 1 ? "" : "s");
	cli_safe_text(&line, b.buf, b.len, true);
	fprintf(stderr, "txc: search: %s\n", line.buf);
	txc_buf_release(&b);
	txc_buf_release(&line);
}

/* Search store i over its selected sessions. */
static int search_store(struct search_out *o, size_t i, struct txc_diag *d)
{
	const struct txc_session_info **infos = txc_xmalloc(o->n_sel * sizeof(*infos));
	size_t n = 0;
	for (size_t k = 0; k < o->n_sel; k++)
		if (o->sel[k].store == i)
			infos[n++] = o->sel[k].info;
	struct txc_search_opts so = {.role = o->a->search.role,
				     .tool = o->a->search.tool,
				     .sort = (enum txc_search_sort)o->a->search.sort,
				     .include_inactive = o->a->search.include_inactive,
				     .text = o->text};
	struct txc_hit_sink sink = {on_hit, o};
	struct txc_search_info info;
	o->store = i;
	struct txc_chooser ch = {choose, o};
	int rc = o->st->v[i].deferred ? txc_store_search_chosen(o->st->v[i].s, o->q, &so, &ch, &sink, &info, d)
				      : txc_store_search(o->st->v[i].s, o->q, &so, infos, n, &sink, &info, d);
	free(infos);
	if (rc == TXC_OK && o->a->search.verbose)
		say_how(&o->st->v[i], &info, o);
	return rc;
}

static int run_search(struct search_out *o, struct txc_diag *d)
{
	o->by_info = txc_xmalloc((o->n_sel ? o->n_sel : 1) * sizeof(size_t));
	o->seen = txc_xcalloc(o->cap_sel ? o->cap_sel : 1, 1);
	for (size_t i = 0; i < o->n_sel; i++)
		o->by_info[i] = i;
	txc_sort(o->by_info, o->n_sel, sizeof(size_t), cmp_info, (void *)(uintptr_t)o->sel); /* (read only) */
	if (o->a->json) {
		cli_out_stdout(&o->out, &o->tty);
		txc_buf_addch(&o->out.buf, '[');
	}
	int rc = TXC_OK;
	for (size_t i = 0; i < o->st->n && rc == TXC_OK && !o->more; i++)
		rc = search_store(o, i, d);
	if (o->a->json) {
		txc_buf_addstr(&o->out.buf, o->n_hits ? "\n]\n" : "]\n");
		if (cli_out_finish(&o->out) != 0)
			cli_stdout_failed(o->out.err);
		txc_out_release(&o->out);
	} else if (!o->a->search.sessions) {
		print_groups(o);
	}
	if (o->more && !o->a->json)
		fprintf(stderr, "txc: search: more %s not shown (raise --limit)\n",
			o->a->search.sessions ? "sessions" : "hits");
	else if (rc == TXC_OK && o->n_hits == 0 && o->n_sessions == 0 && !o->a->json)
		fprintf(stderr, "txc: search: no message matches\n");
	free(o->by_info);
	free(o->seen);
	return rc;
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(&cmd_search, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos == 0)
		return cli_usage(cmd_search.name, "what to search for is missing: txc search QUERY");
	if (a.json && a.search.sessions)
		return cli_usage(cmd_search.name, "--json and --sessions do not go together");
	struct txc_query q;
	char *text;
	if (query_of(&a, &q, &text) != TXC_OK)
		return 2;
	struct txc_diag d = {0};
	struct cli_stores st;
	rc = cli_stores_open(&a, &st, &d);
	if (cli_default_store_missing(&a, &st, rc)) {
		if (a.json)
			fputs("[]\n", stdout);
		cli_stores_close(&st);
		txc_query_free(&q);
		free(text);
		return 0;
	}
	struct txc_arena *arena = txc_arena_new(0);
	struct cli_session *v = NULL;
	size_t n = 0, more = 0;
	struct cli_args sa = a; /* every selected session: --limit counts hits */
	sa.sel.limit = 0;
	sa.json = false;
	for (size_t i = 0; rc == TXC_OK && i < st.n; i++)
		st.v[i].deferred = cli_select_deferrable(&st, i); /* (its hits' sessions alone are read) */
	if (rc == TXC_OK)
		rc = cli_select_sessions(&sa, &cmd_search, &st, arena, &v, &n, &more, &d);
	if (rc == TXC_OK) {
		struct search_out o = {.a = &a, .q = &q, .text = text, .st = &st, .sel = v, .n_sel = n};
		o.n_listed = o.cap_sel = n;
		o.pick = cli_pick_new(&sa, &cmd_search, &st);
		o.arena = arena;
		o.limit = a.sel.limit > 0 ? (size_t)a.sel.limit : DEFAULT_LIMIT;
		o.color = cli_color_stdout();
		o.tty_out = isatty(STDOUT_FILENO);
		o.red = a.redact ? txc_redactor_new(false) : NULL;
		rc = run_search(&o, &d);
		int prc = cli_pick_free(o.pick, rc == TXC_OK ? &d : &(struct txc_diag){0});
		rc = rc == TXC_OK ? prc : rc;
		txc_strmap_free(&o.picked);
		txc_redactor_free(o.red);
		v = o.sel;
	}
	free(v);
	txc_arena_free(arena);
	size_t broken = st.n_broken;
	cli_stores_close(&st);
	txc_query_free(&q);
	free(text);
	return rc ? cli_fail(&d) : broken ? 1 : 0;
}

/* the options `txc search` takes (help lists them in the catalogue's order) */
static const struct cli_opt *const options[] = {
	CLI_STORE_OPTIONS,
	CLI_FILTER_OPTIONS,
	CLI_COMMON_OPTIONS,
	&cli_opt_archived,
	&cli_opt_json,
	&cli_opt_sessions,
	&cli_opt_role,
	&cli_opt_tool,
	&cli_opt_sort,
	&cli_opt_include_inactive,
	&cli_opt_verbose,
	&cli_opt_redact,
	NULL,
};

const struct cli_cmd_info cmd_search = {
	.name = "search",
	.usage = "QUERY [options]",
	.summary = "find messages by their words (the store's own full-text index)",
	.about = "Find the messages that contain every word of QUERY, in the selected sessions.\n"
		 "QUERY: words (all must match; case and punctuation do not matter, so chat-send\n"
		 "finds \"chat send\"), \"exact phrases\", -word or -\"phrase\" to exclude, word* for a\n"
		 "prefix.  Nothing else is syntax: AND, OR, NOT, col:term, C++ are words and\n"
		 "punctuation.  Words of CJK or emoji match as substrings.  Hermes's full-text\n"
		 "index answers when the store has a usable one (its trigram index when no word is\n"
		 "plain ASCII and every word has 3+ characters), else the rows are scanned (same\n"
		 "hits, slower); --verbose says which.  A message is matched on what txc shows of it: a\n"
		 "reply Hermes stored outside content (api_content, codex_message_items), which its\n"
		 "index does not hold, is scanned on top.  Each hit is ID#N: message N of session ID, counting\n"
		 "its user, assistant and tool messages (compacted ones too) in order; messages\n"
		 "rewound away (--include-inactive) have no number.  The Markdown headings show the\n"
		 "same #N, and `txc convert 'ID#N-M'` converts just those messages.\n",
	.examples = "  txc search retry loop --since 1w          # messages with both words\n"
		    "  txc search '\"rm -rf\"' --tool terminal     # a phrase, in terminal calls\n"
		    "  txc search timeout --role assistant -n 5  # five hits at most\n"
		    "  txc search deploy --sessions --json       # the sessions, as JSON\n"
		    "  txc search -- retry -flaky                # without a word (-- before it)\n",
	.run = run,
	.opts = options,
};
