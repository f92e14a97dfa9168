/* cmd_list.c - `txc list`: the selected sessions as a table or JSON. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

static int term_width(void)
{
	struct winsize ws;
	if (!isatty(STDOUT_FILENO))
		return 0; /* a pipe or a file gets whole lines, whatever COLUMNS says */
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	if (c != NULL && atoi(c) > 20)
		return atoi(c);
	return 0;
}

static void fmt_time(char out[32], double secs, bool utc)
{
	if (!txc_time_format(out, 32, secs, utc, "%Y-%m-%d %H:%M"))
		strcpy(out, "-");
}

/* the code point at s[i]: its length, and its columns in *cols (cli_safe_text made the text valid) */
static size_t char_at(const char *s, size_t len, size_t i, size_t *cols)
{
	uint32_t cp;
	size_t n = txc_utf8_seq((const unsigned char *)s + i, len - i, &cp);
	*cols = n == 0 ? 1 : (size_t)txc_utf8_width(cp);
	return n == 0 ? 1 : n;
}

/* code points: the continuation bytes not counted, eight bytes a step */
static size_t code_points(const char *s, size_t len)
{
	const uint64_t high = 0x8080808080808080u;
	size_t w = len, i = 0;
	for (; i + 8 <= len; i += 8) { /* eight bytes a step: the continuation bytes, 10xxxxxx, are not counted */
		uint64_t x;
		memcpy(&x, s + i, 8);
		uint64_t cont = x & high & ~(x << 1);
		for (; cont != 0; cont &= cont - 1)
			w--;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (i < len && len >= 8) { /* the rest: the last eight bytes, those counted already shifted out */
		uint64_t x;
		memcpy(&x, s + len - 8, 8);
		x = (x & high & ~(x << 1)) >> (8 * (8 - (len - i)));
		for (; x != 0; x &= x - 1)
			w--;
		return w;
	}
#endif
	for (; i < len; i++)
		w -= ((unsigned char)s[i] & 0xC0) == 0x80;
	return w;
}

/* display width: a wide East Asian glyph is two columns (counted as one, a CJK title wrapped the row) */
static size_t text_width(const char *s, size_t len)
{
	size_t w = code_points(s, len), cols;
	if (w == len) /* ASCII */
		return w;
	w = 0;
	for (size_t i = 0; i < len; w += cols)
		i += char_at(s, len, i, &cols);
	return w;
}

/* n spaces: a run at a time, not one call per space */
static void pad(struct txc_buf *out, size_t n)
{
	static const char spaces[] = "                                                                ";
	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		txc_buf_add(out, spaces, k);
		n -= k;
	}
}

/* t: the caller's scratch buffer for a painted cell (one allocation for the table); the others go straight to out */
static void cell(struct txc_buf *out, struct txc_buf *t, const char *s, size_t len, size_t width, bool last,
		 const char *sgr)
{
	struct txc_buf *dst = sgr != NULL ? t : out;
	size_t mark = sgr != NULL ? 0 : out->len;
	if (sgr != NULL)
		txc_buf_reset(t);
	cli_safe_text(dst, s, len, true);
	const char *text = dst->buf + mark;
	size_t tlen = dst->len - mark, w = text_width(text, tlen), shown = tlen;
	bool cut = width && w > width;
	if (cut) {
		size_t i = 0, seen = 0, cols;
		for (size_t n; i < tlen; i += n, seen += cols) { /* room for the ellipsis's column */
			n = char_at(text, tlen, i, &cols);
			if (seen + cols > width - 1)
				break;
		}
		shown = i;
		w = seen + 1;
	}
	if (sgr != NULL)
		cli_paint(out, sgr, t->buf, shown);
	else
		txc_buf_truncate(out, mark + shown);
	if (cut)
		txc_buf_addstr(out, "\xE2\x80\xA6");
	if (!last && w < width + 2)
		pad(out, width + 2 - w);
}

/* a field as shown: "-" when the source has no value */
static struct txc_str shown(struct txc_str s)
{
	return s.ptr != NULL ? s : txc_str_c("-");
}

enum { C_PROFILE, C_ID, C_STARTED, C_ACTIVE, C_SOURCE, C_MODEL, C_MSGS, C_TITLE, N_COLS };

/* on a terminal, when it started as people say it: "3h ago" within the week, the date before (and for a
 * clock that is behind) */
static void fmt_when(char out[32], double secs, bool utc, double now)
{
	double ago = now - secs;
	if (isnan(secs) || !(ago >= 0) || ago >= 7 * 86400.0) {
		if (!txc_time_format(out, 32, secs, utc, "%Y-%m-%d"))
			strcpy(out, "-");
	} else if (ago < 60)
		strcpy(out, "just now");
	else if (ago < 3600)
		snprintf(out, 32, "%dm ago", (int)(ago / 60));
	else if (ago < 86400)
		snprintf(out, 32, "%dh ago", (int)(ago / 3600));
	else
		snprintf(out, 32, "%dd ago", (int)(ago / 86400));
}

/* a table of the sessions: the cells' widths (w, 0 for a column left out; title: 0 for uncut) */
struct table {
	size_t w[N_COLS];
	int first;
	bool utc;
	int cols;   /* the terminal's width; 0: not a terminal, whole lines */
	double now; /* cols > 0: "3h ago" counts from here */
};

/* the title, else (on a terminal, TXC_LIST_PREVIEW) the head of the first user text, shown dim */
static struct txc_str title_of(const struct txc_session_info *in)
{
	return in->title.len > 0 || in->preview.ptr == NULL ? in->title : in->preview;
}

/* On a terminal, when the session was last active, where that says more than its start: "2h ago"
 * beside a start of "3d ago" (the same words as the start: nothing shown) */
static bool active_cell(char out[32], const struct txc_session_info *in, const char *started, const struct table *tb)
{
	if (isnan(in->last_active) || isnan(in->started) || in->last_active <= in->started)
		return false;
	fmt_when(out, in->last_active, tb->utc, tb->now);
	return strcmp(out, started) != 0;
}

static struct txc_str profile_of(const struct cli_stores *st, const struct cli_session *s)
{
	return txc_str_c(st->v[s->store].profile ? st->v[s->store].profile : "-");
}

/* the widest cell of each column but the title (capped), and of the title */
static size_t measure(struct table *tb, const struct cli_stores *st, const struct cli_session *v, size_t n)
{
	static const char *const heads[N_COLS] = {"PROFILE", "ID",    "STARTED", "ACTIVE",
						  "SOURCE",  "MODEL", "MSGS",    "TITLE"};
	static const size_t caps[N_COLS] = {24, 40, 16, 16, 16, 28, 8, 0};
	size_t title = strlen(heads[C_TITLE]);
	char when[32], active[32];
	bool any_active = false;
	for (int k = 0; k < N_COLS; k++)
		tb->w[k] = strlen(heads[k]);
	tb->w[C_STARTED] = 16;
	if (tb->cols > 0)
		tb->w[C_STARTED] = strlen(heads[C_STARTED]);
	for (size_t i = 0; i < n; i++) {
		struct txc_str cells[N_COLS] = {
			[C_PROFILE] = profile_of(st, &v[i]),     [C_ID] = v[i].id.text,
			[C_SOURCE] = shown(v[i].info->source),   [C_MODEL] = shown(v[i].info->model),
			[C_MSGS] = shown(v[i].info->n_messages), [C_TITLE] = title_of(v[i].info),
		};
		if (tb->cols > 0) {
			fmt_when(when, v[i].info->started, tb->utc, tb->now);
			cells[C_STARTED] = txc_str_c(when);
			if (active_cell(active, v[i].info, when, tb)) {
				cells[C_ACTIVE] = txc_str_c(active);
				any_active = true;
			}
		}
		for (int k = 0; k <= C_TITLE; k++) {
			if (cells[k].ptr == NULL || (k == C_STARTED && tb->cols == 0))
				continue;
			size_t cw = text_width(cells[k].ptr, cells[k].len);
			if (k == C_TITLE)
				title = cw > title ? cw : title;
			else if (cw > tb->w[k])
				tb->w[k] = cw > caps[k] ? caps[k] : cw;
		}
	}
	if (!any_active) /* every session last active when it started: the column says nothing */
		tb->w[C_ACTIVE] = 0;
	return title;
}

static size_t used_width(const struct table *tb)
{
	size_t used = 0;
	for (int k = tb->first; k < C_TITLE; k++)
		used += tb->w[k] ? tb->w[k] + 2 : 0;
	return used;
}

/* a terminal's table never wraps: as `gh` does, columns are cut or left out, least needed first, until the
 * title has room (or all but the id are gone; the id is cut last) */
static void fit(struct table *tb, size_t title)
{
	static const struct {
		int col;
		size_t to; /* 0: left out */
	} steps[] = {{C_MODEL, 20}, {C_SOURCE, 0},   {C_MSGS, 0},    {C_ACTIVE, 0},  {C_MODEL, 12},
		     {C_MODEL, 0},  {C_PROFILE, 12}, {C_STARTED, 0}, {C_PROFILE, 0}, {C_ID, 0}};
	size_t cols = (size_t)tb->cols, want = title < 20 ? title : 20;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && used_width(tb) + want > cols; i++) {
		if (steps[i].col == C_ID) { /* nothing left to give: the id is cut, the title left out */
			tb->w[C_ID] = cols > tb->w[C_ID] + 2 ? tb->w[C_ID] : cols > 3 ? cols - 2 : 1;
			break;
		}
		if (tb->w[steps[i].col] > steps[i].to)
			tb->w[steps[i].col] = steps[i].to;
	}
	size_t used = used_width(tb);
	tb->w[C_TITLE] = cols > used ? cols - used : 0;
	if (tb->w[C_TITLE] > title) /* no trailing room to pad */
		tb->w[C_TITLE] = title;
}

static void print_row(struct txc_buf *out, struct txc_buf *t, const struct table *tb,
		      const struct txc_str cells[N_COLS], const char *const sgr[N_COLS])
{
	for (int k = tb->first; k <= C_TITLE; k++) {
		if (k != C_TITLE && tb->w[k] == 0)
			continue;
		if (k == C_TITLE && tb->cols > 0 && tb->w[k] == 0)
			break;
		cell(out, t, cells[k].ptr ? cells[k].ptr : "", cells[k].len, tb->w[k], k == C_TITLE, sgr[k]);
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		out->len--;
	txc_buf_addch(out, '\n');
}

/* a model name too wide for its column loses its vendor first ("anthropic/claude-x" → "claude-x") */
static struct txc_str model_cell(struct txc_str m, size_t w)
{
	size_t at = m.len;
	while (at > 0 && m.ptr[at - 1] != '/')
		at--;
	if (w == 0 || at == 0 || at == m.len || text_width(m.ptr, m.len) <= w)
		return m;
	return (struct txc_str){m.ptr + at, m.len - at};
}

static void print_table(const struct cli_stores *st, const struct cli_session *v, size_t n, bool profiles, bool utc,
			size_t more)
{
	static const char *const bold[N_COLS] = {"1", "1", "1", "1", "1", "1", "1", "1"};
	static const char *const paint[N_COLS] = {[C_PROFILE] = "36", [C_ID] = "33"};
	static const char *const paint_preview[N_COLS] = {[C_PROFILE] = "36", [C_ID] = "33", [C_TITLE] = "2"};
	struct table tb = {
		.first = profiles ? C_PROFILE : C_ID, .utc = utc, .cols = term_width(), .now = (double)time(NULL)};
	size_t title = measure(&tb, st, v, n);
	tb.w[C_TITLE] = 0; /* not a terminal: titles are not cut */
	if (tb.cols > 0)
		fit(&tb, title);
	struct txc_buf out = TXC_BUF_INIT, t = TXC_BUF_INIT;
	const struct txc_str heads[N_COLS] = {txc_str_c("PROFILE"), txc_str_c("ID"),     txc_str_c("STARTED"),
					      txc_str_c("ACTIVE"),  txc_str_c("SOURCE"), txc_str_c("MODEL"),
					      txc_str_c("MSGS"),    txc_str_c("TITLE")};
	if (tb.cols == 0)
		tb.w[C_ACTIVE] = 0; /* a pipe's columns stay as they were */
	print_row(&out, &t, &tb, heads, bold);
	char when[32], active[32];
	for (size_t i = 0; i < n; i++) {
		const struct txc_session_info *in = v[i].info;
		if (tb.cols > 0)
			fmt_when(when, in->started, utc, tb.now);
		else
			fmt_time(when, in->started, utc);
		bool act = tb.w[C_ACTIVE] > 0 && active_cell(active, in, when, &tb);
		const struct txc_str cells[N_COLS] = {
			[C_PROFILE] = profile_of(st, &v[i]), [C_ID] = v[i].id.text,
			[C_STARTED] = txc_str_c(when),       [C_ACTIVE] = act ? txc_str_c(active) : TXC_STR_NULL,
			[C_SOURCE] = shown(in->source),      [C_MODEL] = model_cell(shown(in->model), tb.w[C_MODEL]),
			[C_MSGS] = shown(in->n_messages),    [C_TITLE] = tb.cols > 0 ? title_of(in) : in->title,
		};
		bool dim = tb.cols > 0 && in->title.len == 0 && in->preview.ptr != NULL;
		print_row(&out, &t, &tb, cells, dim ? paint_preview : paint);
		if (out.len >= 64 * 1024) { /* the table in pieces: its memory flat whatever the store's size */
			cli_stdout_write(out.buf, out.len);
			txc_buf_reset(&out);
		}
	}
	if (more)
		txc_buf_addf(&out, "%zu more not shown (raise --limit)\n", more);
	cli_stdout_write(out.buf, out.len);
	txc_buf_release(&out);
	txc_buf_release(&t);
}

static void print_json(const struct cli_stores *st, const struct cli_session *v, size_t n, bool profiles,
		       struct cli_links *lx)
{
	struct txc_out out;
	struct cli_tty tty;
	cli_out_stdout(&out, &tty);   /* on a terminal, through the same filter as all transcript text */
	struct txc_buf *b = &out.buf; /* flushed between rows: never the whole array in memory */
	txc_buf_addch(b, '[');
	for (size_t i = 0; i < n; i++) {
		txc_buf_addstr(b, i ? ",\n" : "\n");
		const struct txc_json *r = v[i].info->native; /* the session row as the source has it */
		/* the row, then its lineage, then "profile" */
		txc_json_emit(b, r, 0);
		b->len--; /* the closing brace */
		size_t mark = b->len;
		cli_lineage_json(b, &lx[v[i].store], r, v[i].id.text);
		if (r->n == 0 && b->len > mark) /* an empty row: no comma before the first key */
			memmove(b->buf + mark, b->buf + mark + 1, b->len - mark - 1), b->len--;
		if (profiles) {
			txc_buf_addstr(b, ",\"profile\":");
			const char *p = st->v[v[i].store].profile;
			txc_json_emit_str(b, p, strlen(p));
		}
		txc_buf_addch(b, '}');
		txc_out_maybe_flush(&out);
	}
	txc_buf_addstr(b, n ? "\n]\n" : "]\n");
	if (cli_out_finish(&out) != 0)
		cli_stdout_failed(out.err);
	txc_out_release(&out);
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(&cmd_list, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos > 0) { /* cli_source_word took a harness's name */
		struct txc_buf w = TXC_BUF_INIT;
		cli_harness_words(&w, ", ");
		rc = cli_usage(cmd_list.name, "unknown source '%s' (txc reads: %s)", a.pos[a.n_pos - 1], w.buf);
		txc_buf_release(&w);
		return rc;
	}
	struct txc_diag d = {0};
	struct cli_stores st;
	rc = cli_stores_open(&a, &st, &d);
	if (cli_default_store_missing(&a, &st, rc)) {
		if (a.json)
			fputs("[]\n", stdout);
		cli_stores_close(&st);
		return 0;
	}
	if (rc) {
		cli_stores_close(&st);
		return cli_fail(&d);
	}
	struct txc_arena *arena = txc_arena_new(0);
	struct cli_session *v = NULL;
	size_t n = 0, more = 0;
	/* a terminal's table stands a preview for a missing title and says when a session was last
	 * active; --json gives both ("preview", "last_active"); a pipe's table is as it was */
	if (a.json)
		a.sel.list_more = TXC_LIST_PREVIEW;
	else if (term_width() > 0)
		a.sel.list_more = TXC_LIST_PREVIEW | TXC_LIST_LAST_ACTIVE | TXC_LIST_ROW_ACTIVITY;
	rc = cli_select_sessions(&a, &cmd_list, &st, arena, &v, &n, &more, &d);
	/* the links of every store: lineage fields (--json), the tree (--tree) */
	struct cli_links *lx = txc_xcalloc(st.n + 1, sizeof(*lx));
	for (size_t i = 0; rc == 0 && (a.json || a.tree) && i < st.n; i++)
		rc = cli_links_open(st.v[i].s, &lx[i], &d);
	if (rc == 0 && a.tree && !a.json)
		cli_tree_order(lx, st.n, v, n, arena);
	if (rc == 0) {
		if (a.json)
			print_json(&st, v, n, a.all_profiles, lx);
		else if (n)
			print_table(&st, v, n, a.all_profiles, a.sel.utc, more);
	}
	for (size_t i = 0; i < st.n; i++)
		cli_links_close(&lx[i]);
	free(lx);
	free(v);
	txc_arena_free(arena);
	size_t broken = st.n_broken;
	cli_stores_close(&st);
	return rc ? cli_fail(&d) : broken ? 1 : 0;
}

/* the options `txc list` takes (help lists them in the catalogue's order) */
static const struct cli_opt *const options[] = {
	CLI_STORE_OPTIONS, CLI_FILTER_OPTIONS, CLI_COMMON_OPTIONS,
	&cli_opt_archived, &cli_opt_order,     &cli_opt_json,
	&cli_opt_verbose,  &cli_opt_tree,      NULL,
};

const struct cli_cmd_info cmd_list = {
	.name = "list",
	.usage = "[@harness] [options]",
	.summary = "list sessions, newest first",
	.about = "List sessions: id, start time, source, model, messages, title.  A missing\n"
		 "store is not an error: nothing is listed and stderr says where txc looked.\n"
		 "On a terminal the table fits its width (columns cut or left out, \"3h ago\"),\n"
		 "an untitled session shows the start of its first message (dim) and ACTIVE\n"
		 "says when a session was last active, where that differs from its start.  A\n"
		 "pipe gets whole lines, titles as the store has them.  --json adds last_active\n"
		 "and, for an untitled session, preview (Hermes's: 60 characters, then ...).\n",
	.examples = "  txc list --since 1w --source telegram      # last week's Telegram sessions\n"
		    "  txc list -n 20 --model sonnet --cwd ~/src  # at most 20, by model and folder\n"
		    "  txc list --all-profiles --archived         # every profile, archived too\n"
		    "  txc list claude --since 1d                 # Claude Code's, of the last day\n"
		    "  txc list --json | jq -r .id                # a JSON object a session\n",
	.run = run,
	.opts = options,
	.flags = CLI_CMD_HARNESS_WORD,
	.values = "@harness",
	.wopt_own = TXC_WOPT_UTC, /* never refused for a writer: --utc reads --since and --until too */
};
