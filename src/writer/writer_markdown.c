/*
 * writer_markdown.c - a transcript people read: front matter, turns, tool calls
 * with their results beside them, reasoning folded away.
 *
 * Safety rules (docs/FORMATS.md): the writer decides every code block itself and
 * writes it as a top-level fence longer than any backtick run it holds; outside
 * code no '<', stray backtick or script link survives (see md_text.c); YAML
 * values are JSON-quoted.  Output ends with exactly one newline.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render.h"

/* the handlers' context */
struct md {
	struct txc_out *out;
	struct txc_buf *b;
	const struct txc_transcript *t;
	const struct txc_write_opts *o;
	size_t image_no;
};

/* ---- front matter ---- */

/* YAML double-quoted scalar: JSON string syntax, plus escapes for what YAML won't take raw */
static void yaml_str(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf j = TXC_BUF_INIT;
	txc_json_emit_str(&j, p, len);
	const unsigned char *s = (const unsigned char *)j.buf;
	size_t i = 0;
	while (i < j.len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(s + i, j.len - i, &cp);
		if (n == 0) {
			n = 1;
			cp = s[i];
		}
		/* '<' '>' '&' '[' ']' escaped too: a renderer without front-matter support shows this as
		 * text (a setext heading), where "[x](javascript:...)" would be a link */
		if (cp == '<' || cp == '>' || cp == '&' || cp == '[' || cp == ']' || cp == 0x7F ||
		    (cp >= 0x80 && cp <= 0x9F) || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF || cp == 0x2028 ||
		    cp == 0x2029)
			txc_buf_addf(b, "\\u%04x", (unsigned)cp);
		else
			txc_buf_add(b, j.buf + i, n);
		i += n;
	}
	txc_buf_release(&j);
}

static void fmt_time(char out[48], double secs, bool utc)
{
	if (!txc_time_format(out, 48, secs, utc, utc ? "%Y-%m-%d %H:%M:%S UTC" : "%Y-%m-%d %H:%M:%S %z"))
		strcpy(out, "unknown time");
}

static void yaml_kv_str(struct txc_buf *b, const char *k, struct txc_str v)
{
	txc_buf_addf(b, "%s: ", k);
	if (v.ptr == NULL)
		txc_buf_addstr(b, "null");
	else
		yaml_str(b, v.ptr, v.len);
	txc_buf_addch(b, '\n');
}

static void front_matter(struct md *m, size_t n_msgs, size_t n_tools)
{
	const struct txc_meta *me = &m->t->meta;
	struct txc_buf *b = m->b;
	char iso[64];
	txc_buf_addstr(b, "---\n");
	yaml_kv_str(b, "id", me->id);
	yaml_kv_str(b, "title", me->title);
	yaml_kv_str(b, "source", me->source);
	yaml_kv_str(b, "model", me->model);
	yaml_kv_str(b, "cwd", me->cwd);
	yaml_kv_str(b, "git_branch", me->git_branch);
	/* the model keeps 0 for an unknown start: say null, not 1970 */
	if (me->started_at != 0 && txc_time_iso_ms(iso, me->started_at))
		txc_buf_addf(b, "started: \"%s\"\n", iso);
	else
		txc_buf_addstr(b, "started: null\n");
	if (me->has_ended && txc_time_iso_ms(iso, me->ended_at))
		txc_buf_addf(b, "ended: \"%s\"\n", iso);
	else
		txc_buf_addstr(b, "ended: null\n");
	txc_buf_addf(b, "messages: %zu\ntool_calls: %zu\n", n_msgs, n_tools);
	if (m->t->meta.range_first > 0) /* ID#RANGE: which messages of the session these are */
		txc_buf_addf(b, "range: \"%lld-%lld\"\n", (long long)m->t->meta.range_first,
			     (long long)m->t->meta.range_last);
	if (m->t->n_segments > 0) { /* --lineage: the chain, root first */
		txc_buf_addstr(b, "lineage:\n");
		for (size_t i = 0; i < m->t->n_segments; i++) {
			txc_buf_addstr(b, "  - ");
			yaml_str(b, m->t->segments[i].id.ptr ? m->t->segments[i].id.ptr : "", m->t->segments[i].id.len);
			txc_buf_addch(b, '\n');
		}
	}
	if (me->has_usage)
		txc_buf_addf(
			b,
			"tokens:\n  input: %lld\n  output: %lld\n  cache_read: %lld\n  cache_write: %lld\n  reasoning: %lld\n",
			(long long)me->input_tokens, (long long)me->output_tokens, (long long)me->cache_read_tokens,
			(long long)me->cache_write_tokens, (long long)me->reasoning_tokens);
	if (me->has_cost) {
		txc_buf_addstr(b, "cost_usd: ");
		txc_json_emit_real(b, me->cost_usd);
		txc_buf_addf(b, "\ncost_kind: %s\n", me->cost_is_actual ? "actual" : "estimated");
	}
	txc_buf_addstr(b, "---\n\n");
}

/* ---- tool calls ---- */

static void code_of(struct txc_buf *b, const char *lang, struct txc_str text)
{
	struct txc_buf c = TXC_BUF_INIT;
	txc_text_clean(&c, text.ptr, text.len);
	txc_md_fence(b, lang, c.buf, c.len);
	txc_buf_release(&c);
}

static void json_fence(struct txc_buf *b, const struct txc_json *v)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_json_emit(&t, v, TXC_JSON_INDENT);
	code_of(b, "json", (struct txc_str){t.buf, t.len});
	txc_buf_release(&t);
}

/* " `path`" when there is one */
static void path_span(struct txc_buf *b, struct txc_str path)
{
	txc_buf_addch(b, ' ');
	txc_md_code_span(b, path.ptr, path.len);
}

static void call_bash(struct txc_buf *b, const struct txc_tool_fields *f)
{
	if (f->description.ptr) {
		txc_buf_addstr(b, " — ");
		txc_md_inline(b, f->description.ptr, f->description.len);
	}
	if (f->workdir.ptr) {
		txc_buf_addstr(b, " in ");
		txc_md_code_span(b, f->workdir.ptr, f->workdir.len);
	}
	if (f->timeout_ms != NULL)
		txc_buf_addf(b, " (timeout %.*s ms)", (int)f->timeout_ms->s.len, f->timeout_ms->s.ptr);
	if (f->background)
		txc_buf_addstr(b, " (background)");
	txc_buf_addstr(b, "\n\n");
	code_of(b, "bash", f->command);
}

static void call_read(struct txc_buf *b, const struct txc_tool_fields *f)
{
	path_span(b, f->file_path);
	if (f->lines == TXC_LINES_RANGE)
		txc_buf_addf(b, " (lines %lld–%lld)", (long long)f->line_from, (long long)f->line_to);
	else if (f->lines == TXC_LINES_FROM)
		txc_buf_addf(b, " (from line %lld)", (long long)f->line_from);
	txc_buf_addch(b, '\n');
}

static void call_edit(struct txc_buf *b, const struct txc_block *blk, const struct txc_tool_fields *f)
{
	path_span(b, f->file_path);
	if (f->replace_all)
		txc_buf_addstr(b, " (all occurrences)");
	txc_buf_addstr(b, "\n\n");
	struct txc_buf d = TXC_BUF_INIT;
	txc_render_edit_diff(&d, blk);
	code_of(b, "diff", (struct txc_str){d.buf, d.len});
	txc_buf_release(&d);
}

/* any other tool: a patch as a diff, else its input as JSON */
static void call_other(struct txc_buf *b, const struct txc_block *blk, const struct txc_tool_fields *f)
{
	const struct txc_json *in = blk->input;
	if (f->patch.ptr != NULL) {
		struct txc_str path = txc_render_jstr(in, "path");
		if (path.ptr)
			path_span(b, path);
		txc_buf_addstr(b, "\n\n");
		code_of(b, "diff", f->patch);
	} else if (in->kind == TXC_JSON_OBJECT && in->n == 0) {
		txc_buf_addch(b, '\n');
	} else {
		txc_buf_addstr(b, "\n\n");
		json_fence(b, in);
	}
}

/* --detail brief: the name and what it works on, one line */
static void call_brief(struct txc_buf *b, const struct txc_block *blk, const struct txc_tool_fields *f)
{
	struct txc_str key = blk->tool == TXC_TOOL_BASH ? f->command : f->file_path;
	if (key.ptr != NULL) {
		txc_buf_addch(b, ' ');
		txc_md_code_span(b, key.ptr, key.len > 200 ? 200 : key.len);
	}
	txc_buf_addch(b, '\n');
}

static void tool_call(struct md *m, const struct txc_block *blk)
{
	struct txc_buf *b = m->b;
	struct txc_tool_fields f;
	txc_render_tool_fields(blk, &f);
	txc_buf_addstr(b, "**");
	txc_md_inline(b, blk->name.ptr, blk->name.len);
	txc_buf_addstr(b, "**");
	if (m->o->detail == TXC_DETAIL_BRIEF) {
		call_brief(b, blk, &f);
		return;
	}
	switch (blk->tool) {
	case TXC_TOOL_BASH: call_bash(b, &f); break;
	case TXC_TOOL_READ: call_read(b, &f); break;
	case TXC_TOOL_WRITE:
		path_span(b, f.file_path);
		txc_buf_addstr(b, "\n\n");
		code_of(b, txc_render_lang_of(f.file_path.ptr), f.content);
		break;
	case TXC_TOOL_EDIT:
	case TXC_TOOL_MULTIEDIT: call_edit(b, blk, &f); break;
	default: call_other(b, blk, &f); break;
	}
}

/* number: the result's message number, shown as #N so that a search hit ID#N is found here */
static void tool_result(struct md *m, const struct txc_block *blk, int64_t number)
{
	struct txc_buf *b = m->b;
	struct txc_render_result r;
	txc_render_result_init(&r, blk, m->o);
	txc_buf_addstr(b, "<details><summary>");
	if (number > 0)
		txc_buf_addf(b, "#%lld · ", (long long)number);
	txc_buf_addstr(b, r.status);
	if (r.exit_code.ptr != NULL)
		txc_buf_addf(b, " · exit %.*s", (int)r.exit_code.len, r.exit_code.ptr);
	if (r.truncated) /* the file's length, not what the tool sent of it */
		txc_buf_addf(b, " · %zu line%s, truncated</summary>\n\n", r.file_lines, r.file_lines == 1 ? "" : "s");
	else
		txc_buf_addf(b, " · %zu line%s</summary>\n\n", r.lines, r.lines == 1 ? "" : "s");
	if (r.body.len)
		txc_md_fence(b, r.lang, r.body.buf, r.body.len);
	else
		txc_buf_addstr(b, "*(no output)*\n");
	if (r.cut)
		txc_buf_addf(b, "\n*… %zu more line%s cut (use --detail full to see everything)*\n", r.cut,
			     r.cut == 1 ? "" : "s");
	txc_buf_addstr(b, "\n</details>\n\n");
	txc_render_result_release(&r);
}

/* ---- images ---- */

static void image_file(struct md *m, const struct txc_block *blk)
{
	struct txc_buf bytes = TXC_BUF_INIT;
	if (!txc_base64_decode(&bytes, blk->data.ptr, blk->data.len)) {
		txc_buf_addf(m->b, "*[image %zu: not valid base64 image data, omitted]*\n\n", m->image_no);
		txc_buf_release(&bytes);
		return;
	}
	char ext[16], name[64];
	txc_render_image_ext(ext, blk->media_type);
	snprintf(name, sizeof(name), "image-%zu.%s", m->image_no, ext);
	m->o->assets->put(m->o->assets->ctx, name, bytes.buf, bytes.len);
	txc_buf_addf(m->b, "![image %zu](", m->image_no);
	txc_text_percent_encode(m->b, m->o->assets->assets_link);
	txc_buf_addf(m->b, "/%s)\n\n", name);
	txc_buf_release(&bytes);
}

static void on_image(void *ctx, const struct txc_block *blk)
{
	struct md *m = ctx;
	struct txc_buf *b = m->b;
	m->image_no++;
	if (m->o->images == TXC_IMAGES_OMIT || m->o->detail == TXC_DETAIL_BRIEF) {
		txc_buf_addf(b, "*[image %zu: ", m->image_no);
		txc_md_inline(b, blk->media_type.ptr, blk->media_type.len);
		txc_buf_addstr(b, " omitted]*\n\n");
		return;
	}
	/* only well-formed base64 of an image type may go into a data: URI */
	static const char *const why[] = {[TXC_IMAGE_BAD_TYPE] = "not an image media type",
					  [TXC_IMAGE_SCRIPTABLE] = "SVG can carry script",
					  [TXC_IMAGE_BAD_DATA] = "not valid base64 image data"};
	enum txc_image_check ck = txc_render_image_check(blk);
	if (ck != TXC_IMAGE_OK) {
		txc_buf_addf(b, "*[image %zu: ", m->image_no);
		txc_md_inline(b, blk->media_type.ptr, blk->media_type.len);
		txc_buf_addf(b, " omitted: %s]*\n\n", why[ck]);
		return;
	}
	if (m->o->images == TXC_IMAGES_FILES && m->o->assets != NULL) {
		image_file(m, blk);
		return;
	}
	txc_buf_addf(b, "![image %zu](data:%.*s;base64,%.*s)\n\n", m->image_no, (int)blk->media_type.len,
		     blk->media_type.ptr, (int)blk->data.len, blk->data.ptr);
}

/* ---- the document: the walker's handlers ---- */

/* the line under the title: counts, source, model, start */
static void summary_line(struct md *m, const struct txc_render_counts *n)
{
	const struct txc_meta *me = &m->t->meta;
	struct txc_buf *b = m->b;
	txc_buf_addf(b, "\n\n*%zu messages · %zu tool calls", n->messages, n->tool_calls);
	if (me->source.ptr) {
		txc_buf_addstr(b, " · ");
		txc_md_inline(b, me->source.ptr, me->source.len);
	}
	if (me->model.ptr) {
		txc_buf_addstr(b, " · ");
		txc_md_inline(b, me->model.ptr, me->model.len);
	}
	if (me->started_at != 0) { /* 0: unknown (see the model); no 1970 */
		char when[48];
		fmt_time(when, me->started_at, m->o->utc);
		txc_buf_addf(b, " · started %s", when);
	}
	txc_buf_addstr(b, "*\n\n");
}

static void on_doc_start(void *ctx, const struct txc_render_counts *n)
{
	struct md *m = ctx;
	const struct txc_meta *me = &m->t->meta;
	front_matter(m, n->messages, n->tool_calls);
	txc_buf_addstr(m->b, "# ");
	if (me->title.ptr)
		txc_md_inline(m->b, me->title.ptr, me->title.len);
	else if (me->id.ptr)
		txc_md_inline(m->b, me->id.ptr, me->id.len);
	else
		txc_md_inline(m->b, "session", 7);
	summary_line(m, n);
	if (m->t->n_messages == 0)
		txc_buf_addstr(m->b, "*This session has no messages.*\n\n");
}

/* exactly one trailing newline (the walk calls no doc_end for --follow's parts: more may come after
 * their blank line) */
static void on_doc_end(void *ctx)
{
	struct txc_buf *b = ((struct md *)ctx)->b;
	while (b->len > 1 && b->buf[b->len - 1] == '\n' && b->buf[b->len - 2] == '\n')
		b->len--;
	b->buf[b->len] = '\0';
}

static void on_message_start(void *ctx, const struct txc_message *msg, enum txc_render_who who)
{
	static const char *const names[] = {
		[TXC_RENDER_USER] = "User",
		[TXC_RENDER_TOOL_RESULT] = "Tool result",
		[TXC_RENDER_ASSISTANT] = "Assistant",
		[TXC_RENDER_INSTRUCTIONS] = "Instructions",
	};
	struct md *m = ctx;
	char when[48];
	fmt_time(when, msg->time, m->o->utc);
	/* "## #12 · User · …": the number ID#12 names (search.h); "#12" is heading text, not a closing sequence */
	txc_buf_addstr(m->b, "## ");
	if (msg->number > 0)
		txc_buf_addf(m->b, "#%lld · ", (long long)msg->number);
	txc_buf_addf(m->b, "%s · %s%s\n\n",
		     who == TXC_RENDER_INSTRUCTIONS ? txc_render_instructions_name(msg) : names[who], when,
		     msg->compacted ? " · *archived by compaction*" : "");
}

static void on_text(void *ctx, const struct txc_block *blk)
{
	struct md *m = ctx;
	txc_md_text(m->b, blk->text.ptr, blk->text.len);
	txc_buf_addch(m->b, '\n');
}

static void on_thinking(void *ctx, const struct txc_block *blk)
{
	struct md *m = ctx;
	txc_buf_addstr(m->b, "<details><summary>Reasoning</summary>\n\n");
	txc_md_text(m->b, blk->text.ptr, blk->text.len);
	txc_buf_addstr(m->b, "\n</details>\n\n");
}

/* Hermes's api_content where it differs from the text shown: what the provider was sent back */
static void on_replayed(void *ctx, const struct txc_block *blk)
{
	struct md *m = ctx;
	txc_buf_addstr(m->b, "<details><summary>Replayed to the provider as (api_content)</summary>\n\n");
	txc_md_text(m->b, blk->text.ptr, blk->text.len);
	txc_buf_addstr(m->b, "\n</details>\n\n");
}

static void on_tool(void *ctx, const struct txc_render_call *c)
{
	struct md *m = ctx;
	tool_call(m, c->call);
	if (!c->show_result)
		return;
	txc_buf_addch(m->b, '\n');
	if (c->result != NULL)
		tool_result(m, c->result, c->result_number);
	else
		txc_buf_addstr(m->b, "*No result was recorded for this call.*\n\n");
}

static void on_orphan_result(void *ctx, const struct txc_block *blk, bool in_user)
{
	struct md *m = ctx;
	if (in_user) {
		txc_buf_addstr(m->b, "*Result without a matching call*");
		if (blk->name.len) {
			txc_buf_addstr(m->b, " from **");
			txc_md_inline(m->b, blk->name.ptr, blk->name.len);
			txc_buf_addstr(m->b, "**");
		}
		txc_buf_addstr(m->b, "\n\n");
	}
	tool_result(m, blk, 0); /* alone in a user message: the heading has its number */
}

/* ---- lineage: segments of a chain, delegate children ---- */

/* "## Segment 2 of 5 · `id` · after compression at TIME": what ended the one before, and when */
static void on_segment(void *ctx, const struct txc_segment *s, size_t index, size_t n)
{
	struct md *m = ctx;
	struct txc_buf *b = m->b;
	char when[48];
	txc_buf_addf(b, "## Segment %zu of %zu · ", index + 1, n);
	txc_md_code_span(b, s->id.ptr ? s->id.ptr : "", s->id.len);
	if (index > 0) {
		const struct txc_segment *prev = s - 1;
		txc_buf_addstr(b, " · after ");
		if (prev->end_reason.ptr)
			txc_md_inline(b, prev->end_reason.ptr, prev->end_reason.len);
		else
			txc_buf_addstr(b, "an unknown end");
		fmt_time(when, prev->has_ended ? prev->ended : s->started, m->o->utc);
		txc_buf_addf(b, " at %s", when);
	} else {
		fmt_time(when, s->started, m->o->utc);
		txc_buf_addf(b, " · started %s", when);
	}
	txc_buf_addstr(b, "\n\n");
}

static const struct txc_render_ops md_ops; /* (a child is walked with it: txc_render_walk_child) */

/* a link line naming the child, or (--children) its transcript folded under the call */
static void on_child(void *ctx, const struct txc_child *c)
{
	struct md *m = ctx;
	struct txc_buf *b = m->b;
	if (c->t == NULL || !m->o->children) {
		txc_buf_addstr(b, "*Subagent session* ");
		txc_md_code_span(b, c->id.ptr ? c->id.ptr : "", c->id.len);
		if (c->title.ptr) {
			txc_buf_addstr(b, " — ");
			txc_md_inline(b, c->title.ptr, c->title.len);
		}
		txc_buf_addstr(b, "\n\n");
		return;
	}
	txc_buf_addstr(b, "<details><summary>Subagent session ");
	txc_md_inline(b, c->id.ptr ? c->id.ptr : "", c->id.len);
	if (c->title.ptr) {
		txc_buf_addstr(b, " · ");
		txc_md_inline(b, c->title.ptr, c->title.len);
	}
	txc_buf_addf(b, " · %zu messages</summary>\n\n", c->t->n_messages);
	struct md sub = {.out = m->out, .b = b, .t = c->t, .o = m->o, .image_no = m->image_no};
	txc_render_walk_child(m->out, c->t, m->o, &md_ops, &sub);
	m->image_no = sub.image_no; /* image files stay numbered through the whole document */
	txc_buf_addstr(b, "</details>\n\n");
}

static const struct txc_render_ops md_ops = {
	.doc_start = on_doc_start,
	.doc_end = on_doc_end,
	.message_start = on_message_start,
	.text = on_text,
	.thinking = on_thinking,
	.replayed = on_replayed,
	.image = on_image,
	.tool = on_tool,
	.orphan_result = on_orphan_result,
	.segment = on_segment,
	.child = on_child,
};

static int write_markdown(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
			  struct txc_diag *d)
{
	(void)d;
	struct md m = {.out = out, .b = &out->buf, .t = t, .o = o};
	txc_render_walk(out, t, o, &md_ops, &m);
	return TXC_OK;
}

const struct txc_writer_ops txc_writer_markdown = {
	.name = "markdown",
	.summary = "Markdown for people: tool calls with their results, reasoning folded",
	.ext = "md",
	.caps = TXC_WCAP_ASSETS | TXC_WCAP_SHARED,
	.opts = TXC_WOPT_DETAIL | TXC_WOPT_MAX_LINES | TXC_WOPT_COMPACTED | TXC_WOPT_UTC | TXC_WOPT_IMAGES |
		TXC_WOPT_CHILDREN,
	.write = write_markdown,
};
