/*
 * render.c - the turn walker the document writers share, and what a tool call
 * and a tool result show, read once here so every writer shows the same.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render.h"

/* ---- pairing calls with results ---- */

/*
 * Results by call id, so that finding a call's result is not a scan of the rest of
 * the session (30,000 unanswered calls made that quadratic).  Entries are sorted by
 * (id, message index); each id group keeps a cursor that only moves forward, since
 * calls are met in message order and a result once used or passed stays so.
 */
struct result_ix {
	struct result_ent {
		struct txc_str id;
		size_t mi;
	} * e;
	size_t *cursor; /* per entry; meaningful at a group's first entry */
	size_t n;
};

static int ent_cmp_id(struct txc_str a, struct txc_str b)
{
	int c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
	if (c != 0)
		return c;
	return (a.len > b.len) - (a.len < b.len);
}

static int ent_cmp(const void *x, const void *y)
{
	const struct result_ent *a = x, *b = y;
	int c = ent_cmp_id(a->id, b->id);
	if (c != 0)
		return c;
	return (a->mi > b->mi) - (a->mi < b->mi);
}

/* a user message holding only a tool result: what a call's result looks like */
static bool only_result(const struct txc_message *m)
{
	return m->role == TXC_ROLE_USER && m->n_blocks == 1 && m->blocks[0].kind == TXC_BLOCK_TOOL_RESULT;
}

static void result_ix_build(struct result_ix *ix, const struct txc_transcript *t)
{
	ix->e = txc_xcalloc(t->n_messages + 1, sizeof(*ix->e));
	ix->cursor = txc_xcalloc(t->n_messages + 1, sizeof(*ix->cursor));
	ix->n = 0;
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		if (!only_result(m) || m->blocks[0].id.len == 0)
			continue;
		ix->e[ix->n++] = (struct result_ent){m->blocks[0].id, i};
	}
	qsort(ix->e, ix->n, sizeof(*ix->e), ent_cmp);
	for (size_t i = 0; i < ix->n; i++)
		ix->cursor[i] = i;
}

static void result_ix_free(struct result_ix *ix)
{
	free(ix->e);
	free(ix->cursor);
}

/* the index of the first entry whose id is >= id */
static size_t ix_lower_bound(const struct result_ix *ix, struct txc_str id)
{
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ent_cmp_id(ix->e[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the message index of the first unused result for id at index >= from; false if none */
static bool find_result(struct result_ix *ix, size_t from, struct txc_str id, const bool *used, size_t *mi_out)
{
	if (id.len == 0)
		return false;
	size_t lo = ix_lower_bound(ix, id);
	if (lo == ix->n || ent_cmp_id(ix->e[lo].id, id) != 0)
		return false;
	size_t k = ix->cursor[lo];
	while (k < ix->n && ent_cmp_id(ix->e[k].id, id) == 0 && (ix->e[k].mi < from || used[ix->e[k].mi]))
		k++;
	ix->cursor[lo] = k;
	if (k == ix->n || ent_cmp_id(ix->e[k].id, id) != 0)
		return false;
	*mi_out = ix->e[k].mi;
	return true;
}

/* ---- the walk ---- */

struct walk {
	const struct txc_transcript *t;
	const struct txc_write_opts *o;
	const struct txc_render_ops *ops;
	void *ctx;
	struct result_ix ix;
	bool *used;       /* messages already shown as a call's result */
	bool *child_done; /* t->children already shown */
};

/* the children placed at the call at block bi of message mi (never with --detail prompts, which shows
 * no calls; children after the last message come after the walk) */
static void walk_children(struct walk *w, size_t mi, size_t bi)
{
	for (size_t k = 0; k < w->t->n_children; k++) {
		const struct txc_child *c = &w->t->children[k];
		if (w->child_done[k] || c->message != mi || c->block != bi)
			continue;
		w->child_done[k] = true;
		if (w->ops->child)
			w->ops->child(w->ctx, c);
	}
}

static void walk_call(struct walk *w, size_t mi, const struct txc_block *blk)
{
	size_t ri;
	struct txc_render_call c = {.call = blk, .show_result = w->o->detail != TXC_DETAIL_BRIEF};
	if (find_result(&w->ix, mi + 1, blk->id, w->used, &ri)) {
		w->used[ri] = true;
		if (c.show_result) {
			c.result = &w->t->messages[ri].blocks[0];
			c.result_number = w->t->messages[ri].number;
		}
	}
	if (w->ops->tool)
		w->ops->tool(w->ctx, &c);
	if (w->t->n_children)
		walk_children(w, mi, (size_t)(blk - w->t->messages[mi].blocks));
}

/* where "<think>" opens reasoning in answer text at or after from: at the text's start or a line's
 * (after blanks), so that prose naming the tag ("the `<think>` tag") stays prose; len if none */
static size_t think_open(const char *p, size_t len, size_t from)
{
	for (size_t i = from; i + 7 <= len; i++) {
		if (memcmp(p + i, "<think>", 7) != 0)
			continue;
		size_t k = i;
		while (k > 0 && (p[k - 1] == ' ' || p[k - 1] == '\t'))
			k--;
		if (k == 0 || p[k - 1] == '\n')
			return i;
	}
	return len;
}

/* where "</think>" starts in p[from..len), len if nowhere */
static size_t think_close(const char *p, size_t len, size_t from)
{
	for (size_t i = from; i + 8 <= len; i++)
		if (p[i] == '<' && memcmp(p + i, "</think>", 8) == 0)
			return i;
	return len;
}

/* p[from..to) without the blank lines and spaces around it */
static struct txc_str trimmed(const char *p, size_t from, size_t to)
{
	while (from < to && (p[from] == '\n' || p[from] == ' ' || p[from] == '\t' || p[from] == '\r'))
		from++;
	while (to > from && (p[to - 1] == '\n' || p[to - 1] == ' ' || p[to - 1] == '\t' || p[to - 1] == '\r'))
		to--;
	return (struct txc_str){p + from, to - from};
}

/* Answer text of a model that inlines its reasoning (<think>…</think>, an unclosed one to the end):
 * the reasoning goes to the thinking handler, folded as reasoning blocks are (not with --detail brief),
 * the rest to the text handler; text without the tag is one call, as it was. */
static void walk_text(struct walk *w, const struct txc_block *blk, bool user)
{
	const struct txc_render_ops *ops = w->ops;
	const char *p = blk->text.ptr;
	size_t len = blk->text.len, at = user || p == NULL ? len : think_open(p, len, 0);
	if (at == len) {
		ops->text(w->ctx, blk);
		return;
	}
	for (size_t i = 0; i < len;) {
		struct txc_block part = *blk;
		part.text = trimmed(p, i, at);
		if (part.text.len)
			ops->text(w->ctx, &part);
		if (at == len)
			break;
		size_t close = think_close(p, len, at + 7);
		part.kind = TXC_BLOCK_THINKING;
		part.text = trimmed(p, at + 7, close);
		if (part.text.len && ops->thinking && w->o->detail != TXC_DETAIL_BRIEF)
			ops->thinking(w->ctx, &part);
		i = close < len ? close + 8 : len;
		at = think_open(p, len, i);
	}
}

static void walk_block(struct walk *w, size_t mi, const struct txc_block *blk, bool user)
{
	const struct txc_render_ops *ops = w->ops;
	switch (blk->kind) {
	case TXC_BLOCK_TEXT:
		if (blk->replayed) {
			if (ops->replayed && w->o->detail != TXC_DETAIL_BRIEF)
				ops->replayed(w->ctx, blk);
		} else if (ops->text) {
			walk_text(w, blk, user);
		}
		break;
	case TXC_BLOCK_IMAGE:
		if (ops->image)
			ops->image(w->ctx, blk);
		break;
	case TXC_BLOCK_TOOL_RESULT:
		if (ops->orphan_result)
			ops->orphan_result(w->ctx, blk, user);
		break;
	case TXC_BLOCK_THINKING:
		if (!user && ops->thinking && w->o->detail != TXC_DETAIL_BRIEF && blk->text.len != 0)
			ops->thinking(w->ctx, blk);
		break;
	case TXC_BLOCK_TOOL_USE:
		if (!user)
			walk_call(w, mi, blk);
		break;
	}
}

const char *txc_render_instructions_name(const struct txc_message *m)
{
	return m->instructions == TXC_INSTR_SYSTEM ? "System instructions" : "Developer instructions";
}

/* how message mi is shown; false: not at all */
static bool shown_as(const struct walk *w, size_t mi, enum txc_render_who *who)
{
	const struct txc_message *m = &w->t->messages[mi];
	if ((m->compacted && !w->o->include_compacted) || w->used[mi])
		return false;
	if (m->role != TXC_ROLE_USER)
		*who = TXC_RENDER_ASSISTANT;
	else if (only_result(m))
		*who = TXC_RENDER_TOOL_RESULT;
	else if (m->instructions)
		*who = TXC_RENDER_INSTRUCTIONS;
	else
		*who = TXC_RENDER_USER;
	/* prompts: what people typed, no answers, no tools */
	return w->o->detail != TXC_DETAIL_PROMPTS || *who == TXC_RENDER_USER;
}

static void walk_message(struct walk *w, size_t mi)
{
	const struct txc_message *m = &w->t->messages[mi];
	enum txc_render_who who;
	if (!shown_as(w, mi, &who))
		return;
	if (w->ops->message_start)
		w->ops->message_start(w->ctx, m, who);
	for (size_t j = 0; j < m->n_blocks; j++)
		walk_block(w, mi, &m->blocks[j], who != TXC_RENDER_ASSISTANT);
	if (w->ops->message_end)
		w->ops->message_end(w->ctx, m);
}

void txc_render_walk(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
		     const struct txc_render_ops *ops, void *ctx)
{
	struct walk w = {.t = t, .o = o, .ops = ops, .ctx = ctx};
	struct txc_render_counts n = {.tool_calls = txc_model_count_tool_uses(t)};
	for (size_t i = 0; i < t->n_messages; i++)
		n.messages += !t->messages[i].compacted || o->include_compacted;
	w.used = txc_xcalloc(t->n_messages + 1, 1);
	w.child_done = txc_xcalloc(t->n_children + 1, 1);
	result_ix_build(&w.ix, t);
	bool continued = o->part != NULL && o->part->continued; /* --follow: a later part has no head or tail */
	if (ops->doc_start && !continued)
		ops->doc_start(ctx, &n);
	/* --follow --lineage, followed into a continuation: its heading, "of" the sessions so far */
	if (continued && o->part->begins != NULL && ops->segment)
		ops->segment(ctx, o->part->begins, o->part->segment, o->part->segment + 1);
	size_t seg = 0;
	for (size_t i = 0; i < t->n_messages; i++) {
		for (; t->n_segments > 1 && seg < t->n_segments && t->segments[seg].first <= i; seg++)
			if (ops->segment)
				ops->segment(ctx, &t->segments[seg], seg, t->n_segments);
		walk_message(&w, i);
		txc_out_maybe_flush(out);
	}
	for (; t->n_segments > 1 && seg < t->n_segments; seg++) /* segments without messages */
		if (ops->segment)
			ops->segment(ctx, &t->segments[seg], seg, t->n_segments);
	/* children after the last message, and those whose call was not shown: never dropped */
	for (size_t k = 0; k < t->n_children; k++)
		if (!w.child_done[k] && ops->child && o->detail != TXC_DETAIL_PROMPTS)
			ops->child(ctx, &t->children[k]);
	/* --follow: every part, the first too, keeps its blank line before the next part's heading */
	if (ops->doc_end && o->part == NULL)
		ops->doc_end(ctx);
	free(w.used);
	free(w.child_done);
	result_ix_free(&w.ix);
}

void txc_render_walk_child(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
			   const struct txc_render_ops *ops, void *ctx)
{
	struct txc_render_ops turns = *ops;
	turns.doc_start = NULL;
	turns.doc_end = NULL;
	turns.segment = NULL;
	turns.child = NULL;
	txc_render_walk(out, t, o, &turns, ctx);
}

/* ---- tool calls ---- */

struct txc_str txc_render_jstr(const struct txc_json *o, const char *key)
{
	const struct txc_json *v = txc_json_get(o, key);
	return v && v->kind == TXC_JSON_STRING ? v->s : TXC_STR_NULL;
}

static void diff_lines(struct txc_buf *t, char sign, struct txc_str s)
{
	if (s.ptr == NULL)
		return;
	const char *p = s.ptr, *end = s.ptr + s.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		txc_buf_addch(t, sign);
		txc_buf_add(t, p, (size_t)(le - p));
		txc_buf_addch(t, '\n');
		p = nl ? nl + 1 : end;
	}
}

void txc_render_edit_diff(struct txc_buf *out, const struct txc_block *call)
{
	const struct txc_json *in = call->input;
	if (call->tool == TXC_TOOL_EDIT) {
		diff_lines(out, '-', txc_render_jstr(in, "old_string"));
		diff_lines(out, '+', txc_render_jstr(in, "new_string"));
		return;
	}
	const struct txc_json *edits = txc_json_get(in, "edits");
	for (size_t i = 0; edits && i < edits->n; i++) {
		if (i)
			txc_buf_addstr(out, "@@\n");
		diff_lines(out, '-', txc_render_jstr(edits->items[i], "old_string"));
		diff_lines(out, '+', txc_render_jstr(edits->items[i], "new_string"));
	}
}

/* the + and - lines of an edit's diff */
static void count_diff(struct txc_tool_fields *f, const struct txc_block *call)
{
	struct txc_buf d = TXC_BUF_INIT;
	txc_render_edit_diff(&d, call);
	for (size_t i = 0; i < d.len; i++) {
		bool line_start = i == 0 || d.buf[i - 1] == '\n';
		f->added += line_start && d.buf[i] == '+';
		f->removed += line_start && d.buf[i] == '-';
	}
	txc_buf_release(&d);
}

/* Read: offset (1 if absent) and limit, as "lines a–b" or "from line a" */
static void read_lines(struct txc_tool_fields *f, const struct txc_json *in)
{
	const struct txc_json *off = txc_json_get(in, "offset"), *lim = txc_json_get(in, "limit");
	int64_t o = 1, l = 0;
	if (off)
		txc_json_is_int(off, &o);
	f->line_from = o;
	if (lim && txc_json_is_int(lim, &l)) {
		f->lines = TXC_LINES_RANGE;
		f->line_to = (int64_t)((uint64_t)o + (uint64_t)l - 1); /* wraps, never overflows */
	} else if (off) {
		f->lines = TXC_LINES_FROM;
	}
}

void txc_render_tool_fields(const struct txc_block *call, struct txc_tool_fields *f)
{
	const struct txc_json *in = call->input;
	memset(f, 0, sizeof(*f));
	f->file_path = txc_render_jstr(in, "file_path");
	f->path = f->file_path;
	f->command = txc_render_jstr(in, "command");
	f->description = txc_render_jstr(in, "description");
	f->workdir = txc_render_jstr(in, "workdir");
	f->content = txc_render_jstr(in, "content");
	const struct txc_json *to = txc_json_get(in, "timeout_ms");
	f->timeout_ms = to != NULL && to->kind == TXC_JSON_INT ? to : NULL;
	f->background = txc_json_get(in, "run_in_background") != NULL;
	f->replace_all = txc_json_get(in, "replace_all") != NULL;
	if (txc_str_eq(call->name, "patch"))
		f->patch = txc_render_jstr(in, "patch");
	if (f->patch.ptr != NULL && f->path.ptr == NULL)
		f->path = txc_render_jstr(in, "path");
	if (call->tool == TXC_TOOL_READ)
		read_lines(f, in);
	if (call->tool == TXC_TOOL_EDIT || call->tool == TXC_TOOL_MULTIEDIT)
		count_diff(f, call);
}

const char *txc_render_lang_of(const char *path)
{
	static const char *const map[][2] = {
		{".c", "c"},       {".h", "c"},      {".py", "python"}, {".js", "javascript"}, {".ts", "typescript"},
		{".rs", "rust"},   {".go", "go"},    {".sh", "bash"},   {".json", "json"},     {".md", "markdown"},
		{".yaml", "yaml"}, {".yml", "yaml"}, {".toml", "toml"}, {".html", "html"},     {".css", "css"},
		{".sql", "sql"},   {".rb", "ruby"},  {".java", "java"}, {".cpp", "cpp"},       {".tsx", "tsx"},
		{".jsx", "jsx"},   {".txt", "text"}, {".xml", "xml"},   {".diff", "diff"},     {".patch", "diff"},
	};
	if (path == NULL)
		return "";
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	if (dot == NULL || (slash && dot < slash))
		return "";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(dot, map[i][0]) == 0)
			return map[i][1];
	return "";
}

/* ---- tool results ---- */

/* Hermes's shapes that are text with a few facts: read_file cut short ({content, total_lines,
 * truncated: true, ...}: its numbered lines, and how long the file is) and a patch's unified diff
 * ({success, diff, files_modified, ...}: the diff); false for anything else */
static bool result_shaped(struct txc_render_result *r, const struct txc_json *out)
{
	struct txc_str text = txc_render_jstr(out, "content"), diff = txc_render_jstr(out, "diff");
	const struct txc_json *total = txc_json_get(out, "total_lines"), *cut = txc_json_get(out, "truncated");
	int64_t n;
	if (text.ptr != NULL && total != NULL && txc_json_is_int(total, &n) && n >= 0 && cut != NULL &&
	    cut->kind == TXC_JSON_TRUE) {
		txc_text_clean(&r->body, text.ptr, text.len);
		r->file_lines = (size_t)n;
		r->truncated = true;
		return true;
	}
	if (text.ptr == NULL && txc_render_jstr(out, "output").ptr == NULL && diff.len > 0) {
		txc_text_clean(&r->body, diff.ptr, diff.len);
		r->lang = "diff";
		return true;
	}
	return false;
}

/* a structured output {output|content, error, exit_code}: its text; else indented JSON */
static void result_json(struct txc_render_result *r, const struct txc_json *out)
{
	if (result_shaped(r, out))
		return;
	struct txc_str text = txc_render_jstr(out, "output");
	const struct txc_json *exit_code = txc_json_get(out, "exit_code");
	if (exit_code != NULL && exit_code->kind == TXC_JSON_INT)
		r->exit_code = exit_code->s;
	if (text.ptr == NULL)
		text = txc_render_jstr(out, "content");
	struct txc_str err = txc_render_jstr(out, "error");
	if (text.ptr != NULL && out->kind == TXC_JSON_OBJECT && out->n <= 4) {
		txc_text_clean(&r->body, text.ptr, text.len);
		if (err.ptr && err.len) {
			if (r->body.len)
				txc_buf_addch(&r->body, '\n');
			txc_text_clean(&r->body, err.ptr, err.len);
		}
		return;
	}
	struct txc_buf t = TXC_BUF_INIT;
	txc_json_emit(&t, out, TXC_JSON_INDENT);
	txc_text_clean(&r->body, t.buf, t.len);
	txc_buf_release(&t);
	r->lang = "json";
}

/* --detail normal: keep max_output_lines lines, count the rest */
static void result_cut(struct txc_render_result *r, const struct txc_write_opts *o)
{
	if (o->detail != TXC_DETAIL_NORMAL || o->max_output_lines <= 0 || r->lines <= (size_t)o->max_output_lines)
		return;
	size_t keep = 0, n = 0;
	while (keep < r->body.len && n < (size_t)o->max_output_lines) {
		if (r->body.buf[keep] == '\n')
			n++;
		keep++;
	}
	r->cut = r->lines - (size_t)o->max_output_lines;
	r->body.len = keep ? keep - 1 : 0;
}

void txc_render_result_init(struct txc_render_result *r, const struct txc_block *res, const struct txc_write_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->lang = "text";
	r->status = "ok";
	if (res->is_error)
		r->status = "error";
	if (res->denied)
		r->status = "denied";
	struct txc_arena *scratch = txc_arena_new(0);
	const struct txc_json *out = txc_block_output(res, scratch);
	if (out == NULL)
		txc_text_clean(&r->body, res->output_text.ptr, res->output_text.len);
	else
		result_json(r, out);
	while (r->body.len && r->body.buf[r->body.len - 1] == '\n')
		r->body.len--;
	r->lines = txc_text_count_lines(r->body.buf, r->body.len);
	result_cut(r, o);
	if (r->exit_code.len > 20)
		r->exit_code.len = 20;
	/* exit_code points into the output tree: keep its digits past the arena */
	if (r->exit_code.ptr != NULL) {
		memcpy(r->exit_digits, r->exit_code.ptr, r->exit_code.len);
		r->exit_code.ptr = r->exit_digits;
	}
	txc_arena_free(scratch);
}

void txc_render_result_release(struct txc_render_result *r)
{
	txc_buf_release(&r->body);
}

/* ---- images ---- */

static bool media_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '+' ||
	       c == '-' || c == '.';
}

static bool base64_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
	       c == '=';
}

enum txc_image_check txc_render_image_check(const struct txc_block *img)
{
	struct txc_str mt = img->media_type;
	if (mt.len >= 64 || mt.len < 6 || strncasecmp(mt.ptr, "image/", 6) != 0)
		return TXC_IMAGE_BAD_TYPE;
	for (size_t i = 0; i < mt.len; i++)
		if (!media_char(mt.ptr[i]))
			return TXC_IMAGE_BAD_TYPE;
	if (mt.len >= 9 && strncasecmp(mt.ptr + 6, "svg", 3) == 0)
		return TXC_IMAGE_SCRIPTABLE; /* an SVG opened on its own runs its scripts */
	for (size_t i = 0; i < img->data.len; i++)
		if (!base64_char(img->data.ptr[i]))
			return TXC_IMAGE_BAD_DATA;
	return TXC_IMAGE_OK;
}

void txc_render_image_ext(char out[16], struct txc_str media)
{
	/* the subtype, lower-cased (clients also write image/PNG); jpeg as jpg */
	size_t i = 6, n = 0;
	while (i < media.len && n < 15) {
		char c = media.ptr[i++];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c < 'a' || c > 'z')
			break;
		out[n++] = c;
	}
	out[n] = '\0';
	if (n == 0)
		strcpy(out, "img");
	else if (strcmp(out, "jpeg") == 0)
		strcpy(out, "jpg");
}
