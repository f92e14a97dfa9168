/*
 * writer_claude.c - Claude Code session JSONL that `claude --resume` accepts.
 *
 * One record per model message, chained by parentUuid; ids are name-based
 * UUIDs (v5) so the same session always gives the same bytes.  The format
 * choices (namespaces, tool-id mapping, orphan results, usage attribution)
 * are documented in docs/FORMATS.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claude_usage.h"
#include "txc/model_claude.h"
#include "txc/strmap.h"
#include "txc/writer_claude.h"

/* txc's record namespace (fixed forever: changing it changes every output) */
static const char ns_record[] = "9f0d9836-9ee7-4c62-83b4-fb8e01365c9f"; /* txcript's entry namespace */

/* ---- tool ids ---- */

/* id is never empty: unique_call_id names an id-less call itself */
static bool safe_id(struct txc_str id)
{
	for (size_t i = 0; i < id.len; i++) {
		char c = id.ptr[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '-'))
			return false;
	}
	return true;
}

/* ^[a-zA-Z0-9_-]+$ ; unsafe ids get their bad bytes replaced and a hash suffix so two never collide */
static void map_id(struct txc_buf *t, struct txc_str id)
{
	if (safe_id(id)) {
		txc_buf_add(t, id.ptr, id.len);
		return;
	}
	for (size_t i = 0; i < id.len && i < 64; i++) {
		char c = id.ptr[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
			  c == '-';
		txc_buf_addch(t, ok ? c : '_');
	}
	unsigned char h[32];
	char hex[65];
	txc_sha256(id.ptr, id.len, h);
	txc_hex(hex, h, 6);
	txc_buf_addf(t, "_txc%s", hex); /* after at least one byte of the id */
}

/*
 * Every tool_use id written in a session, so none is written twice: providers that number
 * their calls per turn (Kimi's `functions.read_file:0`) reuse ids, and Claude Code keeps one
 * call per id while the API refuses duplicates.  Keys are arena copies.
 */
struct idset {
	struct txc_strmap map;   /* id -> (num) the k to try first for "ID_k" (0: 2), so repeats stay linear */
	struct txc_arena *arena; /* the ids' bytes */
};

/* The id a call is written with: the mapped provider id, with `_2`, `_3`, ... when already taken. */
static const char *unique_call_id(struct idset *s, struct txc_str id, size_t mi, size_t bi)
{
	struct txc_buf t = TXC_BUF_INIT;
	if (id.len == 0)
		txc_buf_addf(&t, "toolu_txc_noid_%zu_%zu", mi, bi);
	else
		map_id(&t, id);
	const char *key = txc_strmap_unique(&s->map, &t, s->arena);
	txc_buf_release(&t);
	return key;
}

/* ---- records ---- */

struct open_ent {
	struct txc_str id;
	size_t i; /* in open_ids */
};

struct ctx {
	struct txc_out *out;
	const struct txc_transcript *t;
	const struct txc_write_opts *opt;
	char session[37];
	char prev[37];
	char last_msg_uuid[37]; /* last user/assistant record */
	size_t index;
	bool system_next; /* the next record is a system message's: its uuid says so (txc_claude_system_uuid) */
	struct txc_str cwd;
	/* ids of the calls of the latest assistant record, and whether answered */
	struct txc_str *open_ids;
	const char **open_out; /* the id each was written with (unique in the session) */
	bool *answered;
	size_t n_open, cap_open;
	/* the open calls sorted by provider id, then place (built on the first result after they open):
	 * a result finds its call by binary search, so a turn of n calls and n results is not n^2 */
	struct open_ent *oe;
	size_t *oe_skip; /* per group start: how many of its calls are known answered */
	size_t cap_oe;
	bool oe_built;
	struct idset ids;
	struct usage_split usage;
	size_t last_assistant; /* index of the last assistant message: it carries the cost */
	/* results without a call wait here: text may not sit between a call and its results */
	const struct txc_block **orphans;
	double orphan_time;
	size_t n_orphans, cap_orphans;
	struct txc_arena *scratch; /* tool results kept as JSON text are parsed here, one at a time */
	/* compaction: bound[i], a compact_boundary goes before message i; summary[i], message i is the
	 * summary that follows it (written as the isCompactSummary record) */
	bool *bound, *summary;
	int64_t seg_bytes; /* the conversation since the last boundary, for preTokens */
};

/* "<session>:<index>" in name (room for 128), as snprintf would; its length */
static int session_index_name(char *name, const char *session, size_t index)
{
	char digits[24];
	int nd = 0, n = (int)strlen(session);
	memcpy(name, session, (size_t)n);
	name[n++] = ':';
	do
		digits[nd++] = (char)('0' + index % 10);
	while ((index /= 10) != 0);
	while (nd > 0)
		name[n++] = digits[--nd];
	name[n] = '\0';
	return n;
}

static void begin_record(struct ctx *c, const char *type, double time, char uuid[37])
{
	struct txc_buf *b = &c->out->buf;
	char name[128], ts[64];
	/* a subagent's records share its parent's session: its agent id keeps their uuids apart */
	int n = c->opt->agent_id.len ? snprintf(name, sizeof(name), "%s/%.*s:%zu", c->session,
						(int)c->opt->agent_id.len, c->opt->agent_id.ptr, c->index++)
				     : session_index_name(name, c->session, c->index++);
	txc_claude_uuid5(uuid, ns_record, name, (size_t)n);
	if (c->system_next) /* (the index still moves on: every other record keeps its uuid) */
		txc_claude_system_uuid(uuid, (struct txc_str){c->session, 36}, c->opt->agent_id,
				       c->prev[0] ? (struct txc_str){c->prev, 36} : TXC_STR_NULL);
	c->system_next = false;
	txc_time_iso_ms(ts, time);
	txc_buf_addstr(b, "{\"parentUuid\":"); /* (pieces, not printf: once a record) */
	if (c->prev[0]) {
		txc_buf_addch(b, '"');
		txc_buf_addstr(b, c->prev);
		txc_buf_addch(b, '"');
	} else {
		txc_buf_addstr(b, "null");
	}
	txc_buf_addstr(b, c->opt->agent_id.len ? ",\"isSidechain\":true" : ",\"isSidechain\":false");
	if (c->opt->agent_id.len) {
		txc_buf_addstr(b, ",\"agentId\":");
		txc_json_emit_str(b, c->opt->agent_id.ptr, c->opt->agent_id.len);
	}
	txc_buf_addstr(b, ",\"userType\":\"external\",\"cwd\":");
	txc_json_emit_str(b, c->cwd.ptr, c->cwd.len);
	txc_buf_addstr(b, ",\"sessionId\":\"");
	txc_buf_addstr(b, c->session);
	txc_buf_addch(b, '"');
	if (c->t->meta.git_branch.ptr != NULL) {
		txc_buf_addstr(b, ",\"gitBranch\":");
		txc_json_emit_str(b, c->t->meta.git_branch.ptr, c->t->meta.git_branch.len);
	}
	txc_buf_addstr(b, ",\"type\":\"");
	txc_buf_addstr(b, type);
	txc_buf_addstr(b, "\",\"timestamp\":\"");
	txc_buf_addstr(b, ts);
	txc_buf_addstr(b, "\",\"uuid\":\"");
	txc_buf_addstr(b, uuid);
	txc_buf_addch(b, '"');
	memcpy(c->prev, uuid, 37);
}

static void emit_text(struct txc_buf *b, const char *p, size_t len)
{
	txc_buf_addstr(b, "{\"type\":\"text\",\"text\":");
	txc_json_emit_str(b, p, len);
	txc_buf_addch(b, '}');
}

static const char *const allowed_result_types[] = {"text",          "image",          "document", "search_result",
						   "browser_state", "tool_reference", NULL};

static bool allowed_block_list(const struct txc_json *v)
{
	if (v->kind != TXC_JSON_ARRAY || v->n == 0)
		return false;
	for (size_t i = 0; i < v->n; i++) {
		const char *type = txc_json_cstr(txc_json_get(v->items[i], "type"));
		bool ok = false;
		for (size_t k = 0; type && allowed_result_types[k]; k++)
			ok |= strcmp(type, allowed_result_types[k]) == 0;
		if (!ok)
			return false;
	}
	return true;
}

static void emit_result_content(struct txc_buf *b, const struct txc_block *blk, struct txc_arena *scratch)
{
	const struct txc_json *out = txc_block_output(blk, scratch);
	if (out == NULL) {
		txc_json_emit_str(b, blk->output_text.ptr, blk->output_text.len);
	} else if (allowed_block_list(out)) {
		txc_json_emit(b, out, 0);
	} else {
		struct txc_buf t = TXC_BUF_INIT;
		txc_json_emit(&t, out, 0);
		txc_json_emit_str(b, t.buf, t.len);
		txc_buf_release(&t);
	}
	txc_arena_reset(scratch);
}

static void emit_tool_use(struct txc_buf *b, const struct txc_block *blk, const char *id)
{
	txc_buf_addstr(b, "{\"type\":\"tool_use\",\"id\":");
	txc_json_emit_str(b, id, strlen(id));
	txc_buf_addstr(b, ",\"name\":");
	txc_json_emit_str(b, blk->name.ptr, blk->name.len);
	txc_buf_addstr(b, ",\"input\":");
	if (blk->input->kind == TXC_JSON_OBJECT) {
		txc_json_emit(b, blk->input, 0);
	} else {
		/* the API takes only objects: wrap arguments that were not a JSON object */
		txc_buf_addstr(b, "{\"arguments\":");
		txc_json_emit(b, blk->input, 0);
		txc_buf_addch(b, '}');
	}
	txc_buf_addch(b, '}');
}

static int cmp_open(const void *x, const void *y)
{
	const struct open_ent *a = x, *b = y;
	size_t n = a->id.len < b->id.len ? a->id.len : b->id.len;
	int r = n ? memcmp(a->id.ptr, b->id.ptr, n) : 0;
	if (r == 0)
		r = (a->id.len > b->id.len) - (a->id.len < b->id.len);
	return r ? r : (a->i > b->i) - (a->i < b->i);
}

static bool same_id(struct txc_str a, struct txc_str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static void build_open_index(struct ctx *c)
{
	if (c->n_open > c->cap_oe) {
		c->cap_oe = c->cap_open;
		c->oe = txc_xrealloc(c->oe, c->cap_oe * sizeof(*c->oe));
		c->oe_skip = txc_xrealloc(c->oe_skip, c->cap_oe * sizeof(*c->oe_skip));
	}
	for (size_t i = 0; i < c->n_open; i++) {
		c->oe[i] = (struct open_ent){c->open_ids[i], i};
		c->oe_skip[i] = 0;
	}
	qsort(c->oe, c->n_open, sizeof(*c->oe), cmp_open);
	c->oe_built = true;
}

/* a result answers the first call of the pending turn with its provider id that has no result yet
 * (an empty id too: a provider that sends none pairs its calls and results in order, as Markdown does) */
static bool is_open_call(struct ctx *c, struct txc_str id, size_t *at)
{
	if (c->n_open == 0)
		return false;
	if (!c->oe_built)
		build_open_index(c);
	struct open_ent key = {id, 0};
	size_t lo = 0, hi = c->n_open;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_open(&c->oe[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == c->n_open || !same_id(c->oe[lo].id, id))
		return false;
	/* answered calls stay answered: each is skipped once */
	size_t *skip = &c->oe_skip[lo];
	while (lo + *skip < c->n_open && same_id(c->oe[lo + *skip].id, id) && c->answered[c->oe[lo + *skip].i])
		(*skip)++;
	if (lo + *skip >= c->n_open || !same_id(c->oe[lo + *skip].id, id))
		return false;
	*at = c->oe[lo + *skip].i;
	return true;
}

static void emit_orphan_text(struct txc_buf *b, const struct txc_block *blk, struct txc_arena *scratch)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_buf_addf(&t, "[tool result%s%.*s%s, id %.*s, without a matching call]\n", blk->name.len ? " from " : "",
		     (int)blk->name.len, blk->name.ptr ? blk->name.ptr : "", blk->is_error ? " (error)" : "",
		     (int)blk->id.len, blk->id.ptr ? blk->id.ptr : "");
	const struct txc_json *out = txc_block_output(blk, scratch);
	if (out == NULL)
		txc_buf_add(&t, blk->output_text.ptr, blk->output_text.len);
	else
		txc_json_emit(&t, out, 0);
	txc_arena_reset(scratch);
	emit_text(b, t.buf, t.len);
	txc_buf_release(&t);
}

/* calls of the previous assistant record that never got a result: answer them so the API accepts the turn */
static void close_open_calls(struct ctx *c, double time)
{
	bool any = false;
	for (size_t i = 0; i < c->n_open; i++)
		any |= !c->answered[i];
	if (any) {
		struct txc_buf *b = &c->out->buf;
		char uuid[37];
		begin_record(c, "user", time, uuid);
		memcpy(c->last_msg_uuid, uuid, 37);
		txc_buf_addstr(b, ",\"message\":{\"role\":\"user\",\"content\":[");
		bool first = true;
		for (size_t i = 0; i < c->n_open; i++) {
			if (c->answered[i])
				continue;
			if (!first)
				txc_buf_addch(b, ',');
			first = false;
			txc_buf_addstr(b, "{\"type\":\"tool_result\",\"tool_use_id\":");
			txc_json_emit_str(b, c->open_out[i], strlen(c->open_out[i]));
			txc_buf_addstr(b, ",\"content\":\"[no result was recorded for this call]\",\"is_error\":true}");
		}
		txc_buf_addstr(b, "]},\"toolUseResult\":\"[no result was recorded for this call]\"}\n");
	}
	c->n_open = 0;
	if (c->n_orphans) {
		struct txc_buf *b = &c->out->buf;
		char uuid[37];
		begin_record(c, "user", c->orphan_time, uuid);
		memcpy(c->last_msg_uuid, uuid, 37);
		txc_buf_addstr(b, ",\"message\":{\"role\":\"user\",\"content\":[");
		for (size_t i = 0; i < c->n_orphans; i++) {
			if (i)
				txc_buf_addch(b, ',');
			emit_orphan_text(b, c->orphans[i], c->scratch);
		}
		txc_buf_addstr(b, "]}}\n");
		c->n_orphans = 0;
	}
}

static bool defer_orphan(struct ctx *c, const struct txc_message *m)
{
	size_t at;
	if (m->n_blocks != 1 || m->blocks[0].kind != TXC_BLOCK_TOOL_RESULT || is_open_call(c, m->blocks[0].id, &at))
		return false;
	if (c->n_orphans == c->cap_orphans) {
		c->cap_orphans = c->cap_orphans ? c->cap_orphans * 2 : 4;
		c->orphans = txc_xrealloc(c->orphans, c->cap_orphans * sizeof(*c->orphans));
	}
	if (c->n_orphans == 0)
		c->orphan_time = m->time;
	c->orphans[c->n_orphans++] = &m->blocks[0];
	return true;
}

/* every call is tracked, an id-less one too: its result pairs with it, or it is closed for the API */
static void track_call(struct ctx *c, struct txc_str id, const char *out_id)
{
	if (c->n_open == c->cap_open) {
		c->cap_open = c->cap_open ? c->cap_open * 2 : 8;
		c->open_ids = txc_xrealloc(c->open_ids, c->cap_open * sizeof(*c->open_ids));
		c->open_out = txc_xrealloc(c->open_out, c->cap_open * sizeof(*c->open_out));
		c->answered = txc_xrealloc(c->answered, c->cap_open * sizeof(*c->answered));
	}
	c->oe_built = false;
	c->open_ids[c->n_open] = id;
	c->open_out[c->n_open] = out_id;
	c->answered[c->n_open++] = false;
}

static void emit_usage(struct ctx *c)
{
	int64_t s[4];
	txc_claude_usage_take(&c->usage, s);
	txc_buf_addf(&c->out->buf,
		     ",\"usage\":{\"input_tokens\":%lld,\"cache_creation_input_tokens\":%lld,"
		     "\"cache_read_input_tokens\":%lld,\"output_tokens\":%lld}",
		     (long long)s[0], (long long)s[1], (long long)s[2], (long long)s[3]);
}

/* the record's head up to the opening of "content": ids derived from its uuid, the model */
static void assistant_head(struct ctx *c, const struct txc_message *m)
{
	struct txc_buf *b = &c->out->buf;
	char uuid[37], hex[33];
	close_open_calls(c, m->time);
	begin_record(c, "assistant", m->time, uuid);
	memcpy(c->last_msg_uuid, uuid, 37);
	size_t h = 0;
	for (size_t i = 0; i < 36; i++)
		if (uuid[i] != '-')
			hex[h++] = uuid[i];
	hex[h] = '\0';
	txc_buf_addf(b,
		     ",\"requestId\":\"req_txc%s\",\"message\":{\"id\":\"msg_txc%s\",\"type\":\"message\","
		     "\"role\":\"assistant\",\"model\":",
		     hex, hex);
	struct txc_str model = m->model.ptr ? m->model : c->t->meta.model;
	if (model.ptr)
		txc_json_emit_str(b, model.ptr, model.len);
	else
		txc_buf_addstr(b, "\"unknown\"");
	txc_buf_addstr(b, ",\"content\":[");
}

/* whether reasoning is written as --reasoning says (a redacted block only as it is; a signed
 * block with no text, thinking the API withheld, still carries its signature) */
static bool thinking_shown(const struct ctx *c, const struct txc_block *blk)
{
	if (blk->redacted) /* Anthropic's, byte for byte; no text to show otherwise */
		return c->opt->reasoning == TXC_REASONING_KEEP || c->opt->reasoning == TXC_REASONING_AUTO;
	if (c->opt->reasoning == TXC_REASONING_DROP || (blk->text.len == 0 && blk->signature.len == 0))
		return false;
	return c->opt->reasoning != TXC_REASONING_TEXT || blk->text.len > 0;
}

/* reasoning as --reasoning says: a thinking block (signed if it was), a text, or nothing (false) */
static bool emit_thinking(struct ctx *c, const struct txc_block *blk)
{
	struct txc_buf *b = &c->out->buf;
	if (!thinking_shown(c, blk))
		return false;
	if (blk->redacted) {
		txc_buf_addstr(b, "{\"type\":\"redacted_thinking\",\"data\":");
		txc_json_emit_str(b, blk->encrypted.ptr, blk->encrypted.len);
		txc_buf_addch(b, '}');
		return true;
	}
	/* auto: only what Anthropic signed can go back to the API as thinking; the rest is text, which
	 * a resumed model reads and the first request is not refused for */
	if (c->opt->reasoning == TXC_REASONING_TEXT ||
	    (c->opt->reasoning == TXC_REASONING_AUTO && !blk->signature.len)) {
		struct txc_buf t = TXC_BUF_INIT;
		txc_buf_addstr(&t, "Reasoning:\n\n");
		txc_buf_add(&t, blk->text.ptr, blk->text.len);
		emit_text(b, t.buf, t.len);
		txc_buf_release(&t);
		return true;
	}
	txc_buf_addstr(b, "{\"type\":\"thinking\",\"thinking\":");
	txc_json_emit_str(b, blk->text.ptr, blk->text.len);
	if (blk->signature.len) {
		txc_buf_addstr(b, ",\"signature\":");
		txc_json_emit_str(b, blk->signature.ptr, blk->signature.len);
	}
	txc_buf_addch(b, '}');
	return true;
}

/* the API takes images only from the user: keep a note of it */
static void emit_assistant_image(struct txc_buf *b, const struct txc_block *blk)
{
	char note[160];
	int n = snprintf(note, sizeof(note), "[image: %.*s, %zu bytes of base64 not carried over]",
			 (int)(blk->media_type.len > 60 ? 60 : blk->media_type.len), blk->media_type.ptr,
			 blk->data.len);
	emit_text(b, note, (size_t)n);
}

/* block i of assistant message mi as a content item; false when it writes none */
static bool assistant_block(struct ctx *c, const struct txc_block *blk, size_t mi, size_t i)
{
	struct txc_buf *b = &c->out->buf;
	switch (blk->kind) {
	case TXC_BLOCK_TEXT:
		if (blk->replayed) /* the text shown is the reply; what Hermes replayed is for documents */
			return false;
		emit_text(b, blk->text.ptr, blk->text.len);
		break;
	case TXC_BLOCK_THINKING: return emit_thinking(c, blk);
	case TXC_BLOCK_TOOL_USE: {
		const char *id = unique_call_id(&c->ids, blk->id, mi, i);
		emit_tool_use(b, blk, id);
		track_call(c, blk->id, id);
		break;
	}
	case TXC_BLOCK_IMAGE: emit_assistant_image(b, blk); break;
	case TXC_BLOCK_TOOL_RESULT: emit_orphan_text(b, blk, c->scratch); break;
	}
	return true;
}

/* after "content": the stop reason, usage, and the cost on the record that carries it */
static void assistant_tail(struct ctx *c, const struct txc_message *m, size_t mi)
{
	struct txc_buf *b = &c->out->buf;
	bool usage = c->t->meta.has_usage;
	txc_buf_addstr(b, "],\"stop_reason\":");
	const char *stop = txc_model_stop_name(m->stop);
	if (stop != NULL)
		txc_buf_addf(b, "\"%s\"", stop);
	else if (m->stop == TXC_STOP_OTHER)
		txc_json_emit_str(b, m->stop_other.ptr, m->stop_other.len);
	else
		txc_buf_addstr(b, "null");
	txc_buf_addstr(b, ",\"stop_sequence\":null");
	if (usage)
		emit_usage(c);
	txc_buf_addch(b, '}');
	if (usage && c->t->meta.has_cost) {
		/* the whole cost on one record keeps its exact text; the others say 0 so that ccusage
		 * does not price their tokens again */
		txc_buf_addstr(b, ",\"costUSD\":");
		if (mi == c->last_assistant)
			txc_json_emit_real(b, c->t->meta.cost_usd);
		else
			txc_buf_addch(b, '0');
	}
	txc_buf_addstr(b, "}\n");
}

static void assistant_record(struct ctx *c, const struct txc_message *m, size_t mi)
{
	struct txc_buf *b = &c->out->buf;
	assistant_head(c, m);
	bool first = true;
	for (size_t i = 0; i < m->n_blocks; i++) {
		size_t mark = b->len;
		if (!first)
			txc_buf_addch(b, ',');
		if (assistant_block(c, &m->blocks[i], mi, i))
			first = false;
		else
			txc_buf_truncate(b, mark);
	}
	assistant_tail(c, m, mi); /* (never empty: see shown()) */
}

/* The media types the API takes, and the spellings clients also record (image/PNG, image/jpg). */
static const char *const api_image_types[][2] = {{"image/png", "image/png"},
						 {"image/jpeg", "image/jpeg"},
						 {"image/jpg", "image/jpeg"},
						 {"image/gif", "image/gif"},
						 {"image/webp", "image/webp"}};

static const char *api_media_type(struct txc_str mt)
{
	for (size_t k = 0; k < sizeof(api_image_types) / sizeof(api_image_types[0]); k++) {
		const char *a = api_image_types[k][0];
		bool same = mt.len == strlen(a);
		for (size_t i = 0; same && i < mt.len; i++)
			same = (mt.ptr[i] >= 'A' && mt.ptr[i] <= 'Z' ? mt.ptr[i] - 'A' + 'a' : mt.ptr[i]) == a[i];
		if (same)
			return api_image_types[k][1];
	}
	return NULL;
}

/* The API answers 400 to any other media type or to bad base64, and the image is lost with the
 * turn: those are kept as a text note saying what was there. */
static void emit_user_image(struct txc_buf *b, const struct txc_block *blk)
{
	const char *type = api_media_type(blk->media_type);
	const char *why = type ? NULL : "its media type is not one the API accepts (png, jpeg, gif, webp)";
	if (why == NULL) {
		struct txc_buf bytes = TXC_BUF_INIT;
		if (blk->data.len == 0 || !txc_base64_decode(&bytes, blk->data.ptr, blk->data.len))
			why = "its data is not valid base64";
		txc_buf_release(&bytes);
	}
	if (why != NULL) {
		struct txc_buf t = TXC_BUF_INIT;
		txc_buf_addstr(&t, "[image: ");
		txc_buf_add(&t, blk->media_type.ptr, blk->media_type.len > 60 ? 60 : blk->media_type.len);
		txc_buf_addf(&t, "%s, %zu bytes of base64 not carried over: %s]",
			     blk->media_type.len ? "" : "no media type", blk->data.len, why);
		emit_text(b, t.buf, t.len);
		txc_buf_release(&t);
		return;
	}
	txc_buf_addf(b, "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"%s\"", type);
	txc_buf_addstr(b, ",\"data\":");
	txc_json_emit_str(b, blk->data.ptr, blk->data.len);
	txc_buf_addstr(b, "}}");
}

static void user_record(struct ctx *c, const struct txc_message *m)
{
	struct txc_buf *b = &c->out->buf;
	char uuid[37];
	bool results = false;
	if (defer_orphan(c, m))
		return;
	for (size_t i = 0; i < m->n_blocks; i++)
		results |= m->blocks[i].kind == TXC_BLOCK_TOOL_RESULT;
	if (!results)
		close_open_calls(c, m->time);
	c->system_next = m->instructions == TXC_INSTR_SYSTEM;
	begin_record(c, "user", m->time, uuid);
	memcpy(c->last_msg_uuid, uuid, 37);
	/* instructions (Codex's developer/system messages): Claude Code's own kind of record for what
	 * the model is told but the user did not say (sent, not shown as the user's); a system one's
	 * uuid tells it from a developer's */
	if (m->instructions)
		txc_buf_addstr(b, ",\"isMeta\":true");
	txc_buf_addstr(b, ",\"message\":{\"role\":\"user\",\"content\":[");
	bool first = true;
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *blk = &m->blocks[i];
		size_t at;
		if (blk->kind == TXC_BLOCK_TEXT && blk->replayed) /* as assistant_block() */
			continue;
		if (!first)
			txc_buf_addch(b, ',');
		first = false;
		switch (blk->kind) {
		case TXC_BLOCK_TEXT: emit_text(b, blk->text.ptr, blk->text.len); break;
		case TXC_BLOCK_IMAGE: emit_user_image(b, blk); break;
		case TXC_BLOCK_TOOL_RESULT:
			if (!is_open_call(c, blk->id, &at)) {
				emit_orphan_text(b, blk, c->scratch);
				break;
			}
			c->answered[at] = true;
			txc_buf_addstr(b, "{\"type\":\"tool_result\",\"tool_use_id\":");
			txc_json_emit_str(b, c->open_out[at], strlen(c->open_out[at]));
			txc_buf_addstr(b, ",\"content\":");
			emit_result_content(b, blk, c->scratch);
			if (blk->is_error)
				txc_buf_addstr(b, ",\"is_error\":true");
			txc_buf_addch(b, '}');
			break;
		case TXC_BLOCK_THINKING: emit_text(b, blk->text.ptr, blk->text.len); break;
		case TXC_BLOCK_TOOL_USE: {
			struct txc_buf t = TXC_BUF_INIT;
			txc_buf_addf(&t, "[tool call %.*s] ", (int)blk->name.len, blk->name.ptr);
			txc_json_emit(&t, blk->input, 0);
			emit_text(b, t.buf, t.len);
			txc_buf_release(&t);
			break;
		}
		}
	}
	txc_buf_addstr(b, "]}}\n");
}

/* ---- compaction: where Claude Code's compact_boundary records go ---- */

#define COMPACTION_MARK "[CONTEXT COMPACTION]"

/* a user message that holds Hermes's summary of what came before (its first text says so) */
static bool is_summary(const struct txc_message *m)
{
	if (m->role != TXC_ROLE_USER || m->n_blocks == 0 || m->blocks[0].kind != TXC_BLOCK_TEXT)
		return false;
	struct txc_str x = m->blocks[0].text;
	size_t k = strlen(COMPACTION_MARK);
	return m->compact_summary || (x.len >= k && memcmp(x.ptr, COMPACTION_MARK, k) == 0);
}

/*
 * A boundary goes before the first message of every segment of a chain but the first
 * (--lineage), and, with --include-compacted, before the first live message after
 * archived ones (in-place compaction).  Its summary is that message when it is one.
 */
/* An assistant turn with something to write: one whose every block is reasoning --reasoning
 * leaves out is not written at all (an empty text block is one the API refuses, and Claude Code
 * drops it), as an assistant row with no content is not. */
static bool shown(const struct ctx *c, const struct txc_message *m)
{
	if (m->role != TXC_ROLE_ASSISTANT)
		return true;
	for (size_t i = 0; i < m->n_blocks; i++)
		if (m->blocks[i].kind == TXC_BLOCK_THINKING ? thinking_shown(c, &m->blocks[i]) : !m->blocks[i].replayed)
			return true;
	return false;
}

static void plan_boundaries(struct ctx *c, bool *written)
{
	const struct txc_transcript *t = c->t;
	size_t n = t->n_messages;
	c->bound = txc_xcalloc(n + 1, 1);
	c->summary = txc_xcalloc(n + 1, 1);
	for (size_t k = 1; k < t->n_segments; k++)
		if (t->segments[k].first < n)
			c->bound[t->segments[k].first] = true;
	const struct txc_write_part *part = c->opt->part;
	bool handed = part != NULL && part->continued && part->begins != NULL && part->records > 0;
	bool after_archived = false, any = handed; /* --follow --lineage: a continuation after records */
	for (size_t i = 0; i < n; i++) {
		const struct txc_message *m = &t->messages[i];
		written[i] = (!m->compacted || c->opt->include_compacted) && shown(c, m);
		if (!written[i]) {
			if (c->bound[i] && i + 1 < n) /* a segment's boundary goes before what is written of it */
				c->bound[i + 1] = true;
			c->bound[i] = false;
			continue;
		}
		if (!m->compacted && after_archived)
			c->bound[i] = true;
		if (handed) /* its first message written restarts the chain, as --lineage's segment does */
			c->bound[i] = true;
		handed = false;
		after_archived = m->compacted;
	}
	for (size_t i = 0; i < n; i++) {
		/* a boundary before anything is written restarts nothing */
		if (c->bound[i] && !any)
			c->bound[i] = false;
		any |= written[i];
		c->summary[i] = c->bound[i] && is_summary(&t->messages[i]);
	}
}

/* the session the one beginning at message i continues (a segment's, or --follow's hand-off), or NULL */
static const struct txc_segment *continues(const struct ctx *c, size_t i)
{
	const struct txc_transcript *t = c->t;
	for (size_t k = 1; k < t->n_segments; k++)
		if (t->segments[k].first == i)
			return &t->segments[k - 1];
	const struct txc_write_part *part = c->opt->part;
	if (part != NULL && part->begins != NULL && t->n_segments == 0)
		return part->begins - 1;
	return NULL;
}

/* the summary's text: the message's text blocks, else a note of what happened */
static void summary_text(struct ctx *c, size_t i, struct txc_buf *t)
{
	const struct txc_message *m = &c->t->messages[i];
	if (c->summary[i]) {
		for (size_t j = 0; j < m->n_blocks; j++)
			if (m->blocks[j].kind == TXC_BLOCK_TEXT && !m->blocks[j].replayed) {
				if (t->len)
					txc_buf_addstr(t, "\n\n");
				txc_buf_add(t, m->blocks[j].text.ptr, m->blocks[j].text.len);
			}
		return;
	}
	const struct txc_segment *prev = continues(c, i);
	if (prev != NULL) {
		txc_buf_addf(t,
			     "[This conversation continues Hermes session %.*s, which ended with %.*s; "
			     "no summary was recorded.]",
			     (int)prev->id.len, prev->id.ptr ? prev->id.ptr : "",
			     (int)(prev->end_reason.ptr ? prev->end_reason.len : 7),
			     prev->end_reason.ptr ? prev->end_reason.ptr : "unknown");
	} else {
		txc_buf_addstr(t, "[The messages above were archived by compaction; no summary was recorded.]");
	}
}

/* Claude Code's compaction: a system compact_boundary record that restarts the chain, then the summary */
static void boundary_records(struct ctx *c, size_t i)
{
	const struct txc_message *m = &c->t->messages[i];
	struct txc_buf *b = &c->out->buf;
	char uuid[37], logical[37];
	close_open_calls(c, m->time);
	memcpy(logical, c->prev, 37);
	c->prev[0] = '\0'; /* parentUuid null: the chain restarts here */
	begin_record(c, "system", m->time, uuid);
	txc_buf_addstr(b, ",\"subtype\":\"compact_boundary\",\"content\":\"Conversation compacted\",\"level\":\"info\","
			  "\"isMeta\":false,\"logicalParentUuid\":");
	if (logical[0])
		txc_buf_addf(b, "\"%s\"", logical);
	else
		txc_buf_addstr(b, "null");
	txc_buf_addf(b, ",\"compactMetadata\":{\"trigger\":\"auto\",\"preTokens\":%lld}}\n",
		     (long long)(c->seg_bytes / 4));
	c->seg_bytes = 0;
	struct txc_buf t = TXC_BUF_INIT;
	summary_text(c, i, &t);
	begin_record(c, "user", m->time, uuid);
	memcpy(c->last_msg_uuid, uuid, 37);
	txc_buf_addstr(b, ",\"isCompactSummary\":true,\"message\":{\"role\":\"user\",\"content\":");
	txc_json_emit_str(b, t.buf, t.len);
	txc_buf_addstr(b, "}}\n");
	txc_buf_release(&t);
}

static void write_messages(struct ctx *c, const bool *written)
{
	const struct txc_transcript *t = c->t;
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		if (!written[i])
			continue;
		if (c->bound[i]) {
			boundary_records(c, i);
			c->usage.ctx_bytes = 0;
		}
		c->usage.ctx_bytes += txc_claude_message_bytes(m);
		c->seg_bytes += txc_claude_message_bytes(m);
		if (c->summary[i])
			; /* written as the boundary's summary */
		else if (m->role == TXC_ROLE_ASSISTANT)
			assistant_record(c, m, i);
		else
			user_record(c, m);
		txc_out_maybe_flush(c->out);
	}
}

static int write_claude(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
			struct txc_diag *d)
{
	(void)d;
	struct ctx c = {.out = out, .t = t, .opt = opt, .last_assistant = (size_t)-1};
	struct txc_buf *b = &out->buf;
	c.scratch = txc_arena_new(0);
	if (opt->sidechain_session.len == 36) /* a subagent's records carry its parent's session */
		memcpy(c.session, opt->sidechain_session.ptr, 36), c.session[36] = '\0';
	else if (opt->part != NULL && opt->part->session[0]) /* --follow: one session, whichever part */
		memcpy(c.session, opt->part->session, sizeof(c.session));
	else
		txc_claude_session_uuid(t, opt->scope, c.session);
	if (opt->part != NULL && opt->part->continued) { /* --follow: the records go on where the last part stopped */
		c.index = opt->part->records;
		memcpy(c.prev, opt->part->prev, sizeof(c.prev));
		c.seg_bytes = opt->part->seg_bytes;
	}
	/* the session's cwd, else the one the caller gives, else "/" */
	c.cwd = t->meta.cwd;
	if (c.cwd.ptr == NULL)
		c.cwd = opt->cwd.ptr ? opt->cwd : txc_str_c("/");
	bool *written = txc_xcalloc(t->n_messages + 1, 1);
	plan_boundaries(&c, written);
	for (size_t i = 0; i < t->n_messages; i++)
		if (t->messages[i].role == TXC_ROLE_ASSISTANT && written[i]) /* a summary is a user message */
			c.last_assistant = i;
	txc_claude_usage_plan(&c.usage, t, written, c.bound);
	c.ids.arena = txc_arena_new(0);
	write_messages(&c, written);
	/* calls in the very last record may stay open (Claude Code marks them interrupted); once a
	 * user record followed them, the missing results are written so the API accepts the turn */
	size_t last = t->n_messages;
	while (last > 0 && !written[last - 1])
		last--;
	if (last > 0 && t->messages[last - 1].role == TXC_ROLE_ASSISTANT)
		c.n_open = 0;
	/* at the time of the last message written (compacted history is loaded too, never written) */
	close_open_calls(&c, last > 0 ? t->messages[last - 1].time : t->meta.started_at);
	if (opt->part != NULL) { /* --follow: the next part chains on; no closing records while it grows */
		opt->part->records = c.index;
		memcpy(opt->part->prev, c.prev, sizeof(c.prev));
		memcpy(opt->part->session, c.session, sizeof(c.session));
		opt->part->seg_bytes = c.seg_bytes;
	} else if (c.last_msg_uuid[0] && opt->agent_id.len == 0) {
		if (t->meta.title.ptr != NULL) {
			txc_buf_addstr(b, "{\"type\":\"summary\",\"summary\":");
			txc_json_emit_str(b, t->meta.title.ptr, t->meta.title.len);
			txc_buf_addf(b, ",\"leafUuid\":\"%s\"}\n", c.last_msg_uuid);
			txc_buf_addstr(b, "{\"type\":\"custom-title\",\"customTitle\":");
			txc_json_emit_str(b, t->meta.title.ptr, t->meta.title.len);
			txc_buf_addf(b, ",\"sessionId\":\"%s\"}\n", c.session);
		}
	}
	free(written);
	free(c.bound);
	free(c.summary);
	free(c.orphans);
	free(c.open_ids);
	free(c.open_out);
	free(c.answered);
	free(c.oe);
	free(c.oe_skip);
	txc_strmap_free(&c.ids.map);
	txc_arena_free(c.ids.arena);
	txc_arena_free(c.scratch);
	return TXC_OK;
}

const struct txc_writer_ops txc_writer_claude = {
	.name = "claude",
	.summary = "Claude Code session JSONL, ready for `claude --resume`",
	.ext = "jsonl",
	.caps = TXC_WCAP_INSTALL,
	.opts = TXC_WOPT_REASONING | TXC_WOPT_CWD | TXC_WOPT_COMPACTED | TXC_WOPT_CHILDREN,
	.write = write_claude,
};
