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
#include <uuid/uuid.h>

#include "txc/writer.h"

/* txc's namespaces (fixed forever: changing them changes every output). */
static const char ns_session[] = "5f0c6b3e-27a4-4c8b-9a51-3d6e2f1b7c90";
static const char ns_record[] = "9f0d9836-9ee7-4c62-83b4-fb8e01365c9f"; /* txcript's entry namespace */

static void uuid5(char out[37], const char *ns_text, const char *name, size_t len)
{
	uuid_t ns, u;
	uuid_parse(ns_text, ns);
	uuid_generate_sha1(u, ns, name, len);
	uuid_unparse_lower(u, out);
}

void txc_claude_session_uuid(const struct txc_transcript *t, char out[37])
{
	/* keyed on the id's kind too (txc_model_id_key): ids 1 and "1" are two sessions */
	struct txc_buf key = TXC_BUF_INIT;
	txc_model_id_key(&key, t->meta.id_kind, t->meta.id);
	uuid5(out, ns_session, key.buf ? key.buf : "", key.len);
	txc_buf_release(&key);
}

void txc_claude_project_folder(struct txc_buf *out, const char *cwd, size_t len)
{
	const unsigned char *p = (const unsigned char *)cwd;
	size_t units = 0;
	int32_t h = 0;
	size_t i = 0;
	while (i < len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(p + i, len - i, &cp);
		if (n == 0) {
			cp = 0xFFFD;
			n = 1;
		}
		i += n;
		uint16_t u[2];
		int nu = 1;
		if (cp >= 0x10000) {
			u[0] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
			u[1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
			nu = 2;
		} else {
			u[0] = (uint16_t)cp;
		}
		for (int k = 0; k < nu; k++) {
			h = (int32_t)((uint32_t)h * 31u + u[k]);
			bool alnum = (u[k] >= 'a' && u[k] <= 'z') || (u[k] >= 'A' && u[k] <= 'Z') || (u[k] >= '0' && u[k] <= '9');
			if (units < 200)
				txc_buf_addch(out, alnum ? (char)u[k] : '-');
			units++;
		}
	}
	if (units > 200) {
		char t[16];
		int64_t a = h < 0 ? -(int64_t)h : h;
		txc_base36(t, (uint32_t)a);
		txc_buf_addch(out, '-');
		txc_buf_addstr(out, t);
	}
}

/* ---- tool ids ---- */

static bool safe_id(struct txc_str id)
{
	if (id.len == 0)
		return false;
	for (size_t i = 0; i < id.len; i++) {
		char c = id.ptr[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return true;
}

/* ^[a-zA-Z0-9_-]+$ ; unsafe ids get their bad bytes replaced and a hash suffix so two never collide */
static void map_id(struct txc_buf *b, struct txc_str id)
{
	if (safe_id(id)) {
		txc_json_emit_str(b, id.ptr, id.len);
		return;
	}
	struct txc_buf t = TXC_BUF_INIT;
	for (size_t i = 0; i < id.len && i < 64; i++) {
		char c = id.ptr[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
		txc_buf_addch(&t, ok ? c : '_');
	}
	unsigned char h[32];
	char hex[65];
	txc_sha256(id.ptr, id.len, h);
	txc_hex(hex, h, 6);
	txc_buf_addf(&t, "%stxc%s", t.len ? "_" : "", hex);
	txc_json_emit_str(b, t.buf, t.len);
	txc_buf_release(&t);
}

/* ---- records ---- */

struct ctx {
	struct txc_out *out;
	const struct txc_transcript *t;
	const struct txc_write_opts *opt;
	char session[37];
	char prev[37];
	char last_msg_uuid[37]; /* last user/assistant record */
	size_t index;
	struct txc_str cwd;
	/* ids of the calls of the latest assistant record, and whether answered */
	struct txc_str *open_ids;
	bool *answered;
	size_t n_open, cap_open;
	size_t last_assistant; /* index of the message that gets the usage */
	/* results without a call wait here: text may not sit between a call and its results */
	const struct txc_block **orphans;
	double orphan_time;
	size_t n_orphans, cap_orphans;
};

static void begin_record(struct ctx *c, const char *type, double time, char uuid[37])
{
	struct txc_buf *b = &c->out->buf;
	char name[128], ts[64];
	int n = snprintf(name, sizeof(name), "%s:%zu", c->session, c->index++);
	uuid5(uuid, ns_record, name, (size_t)n);
	txc_time_iso_ms(ts, time);
	txc_buf_addstr(b, "{\"parentUuid\":");
	if (c->prev[0])
		txc_buf_addf(b, "\"%s\"", c->prev);
	else
		txc_buf_addstr(b, "null");
	txc_buf_addstr(b, ",\"isSidechain\":false,\"userType\":\"external\",\"cwd\":");
	txc_json_emit_str(b, c->cwd.ptr, c->cwd.len);
	txc_buf_addf(b, ",\"sessionId\":\"%s\"", c->session);
	if (c->t->meta.git_branch.ptr != NULL) {
		txc_buf_addstr(b, ",\"gitBranch\":");
		txc_json_emit_str(b, c->t->meta.git_branch.ptr, c->t->meta.git_branch.len);
	}
	txc_buf_addf(b, ",\"type\":\"%s\",\"timestamp\":\"%s\",\"uuid\":\"%s\"", type, ts, uuid);
	memcpy(c->prev, uuid, 37);
}

static void emit_text(struct txc_buf *b, const char *p, size_t len)
{
	txc_buf_addstr(b, "{\"type\":\"text\",\"text\":");
	txc_json_emit_str(b, p, len);
	txc_buf_addch(b, '}');
}

static const char *const allowed_result_types[] = {"text", "image", "document", "search_result", "browser_state",
						   "tool_reference", NULL};

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

/* tool results kept as JSON text are parsed here, one at a time (write_claude owns it) */
static struct txc_arena *scratch;

static void emit_result_content(struct txc_buf *b, const struct txc_block *blk)
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

static void emit_tool_use(struct txc_buf *b, const struct txc_block *blk, size_t mi, size_t bi)
{
	txc_buf_addstr(b, "{\"type\":\"tool_use\",\"id\":");
	if (blk->id.len == 0)
		txc_buf_addf(b, "\"toolu_txc_noid_%zu_%zu\"", mi, bi);
	else
		map_id(b, blk->id);
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

static bool is_open_call(struct ctx *c, struct txc_str id, size_t *at)
{
	for (size_t i = 0; i < c->n_open; i++)
		if (id.len && c->open_ids[i].len == id.len && memcmp(c->open_ids[i].ptr, id.ptr, id.len) == 0) {
			*at = i;
			return true;
		}
	return false;
}

static void emit_orphan_text(struct txc_buf *b, const struct txc_block *blk)
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
			map_id(b, c->open_ids[i]);
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
			emit_orphan_text(b, c->orphans[i]);
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

static void track_call(struct ctx *c, struct txc_str id)
{
	if (id.len == 0)
		return;
	if (c->n_open == c->cap_open) {
		c->cap_open = c->cap_open ? c->cap_open * 2 : 8;
		c->open_ids = txc_xrealloc(c->open_ids, c->cap_open * sizeof(*c->open_ids));
		c->answered = txc_xrealloc(c->answered, c->cap_open * sizeof(*c->answered));
	}
	c->open_ids[c->n_open] = id;
	c->answered[c->n_open++] = false;
}

static void emit_usage(struct ctx *c)
{
	const struct txc_meta *m = &c->t->meta;
	struct txc_buf *b = &c->out->buf;
	txc_buf_addf(b, ",\"usage\":{\"input_tokens\":%lld,\"cache_creation_input_tokens\":%lld,"
			"\"cache_read_input_tokens\":%lld,\"output_tokens\":%lld}",
		     (long long)m->input_tokens, (long long)m->cache_write_tokens, (long long)m->cache_read_tokens,
		     (long long)m->output_tokens);
}

static void assistant_record(struct ctx *c, const struct txc_message *m, size_t mi)
{
	struct txc_buf *b = &c->out->buf;
	char uuid[37];
	close_open_calls(c, m->time);
	begin_record(c, "assistant", m->time, uuid);
	memcpy(c->last_msg_uuid, uuid, 37);
	char hex[33];
	size_t h = 0;
	for (size_t i = 0; i < 36; i++)
		if (uuid[i] != '-')
			hex[h++] = uuid[i];
	hex[h] = '\0';
	bool usage = mi == c->last_assistant && c->t->meta.has_usage;
	txc_buf_addf(b, ",\"requestId\":\"req_txc%s\",\"message\":{\"id\":\"msg_txc%s\",\"type\":\"message\","
			"\"role\":\"assistant\",\"model\":",
		     hex, hex);
	struct txc_str model = m->model.ptr ? m->model : c->t->meta.model;
	if (model.ptr)
		txc_json_emit_str(b, model.ptr, model.len);
	else
		txc_buf_addstr(b, "\"unknown\"");
	txc_buf_addstr(b, ",\"content\":[");
	bool first = true;
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *blk = &m->blocks[i];
		size_t mark = b->len;
		if (!first)
			txc_buf_addch(b, ',');
		switch (blk->kind) {
		case TXC_BLOCK_TEXT: emit_text(b, blk->text.ptr, blk->text.len); break;
		case TXC_BLOCK_THINKING:
			if (c->opt->reasoning == TXC_REASONING_DROP || blk->text.len == 0) {
				txc_buf_truncate(b, mark);
				continue;
			}
			if (c->opt->reasoning == TXC_REASONING_TEXT) {
				struct txc_buf t = TXC_BUF_INIT;
				txc_buf_addstr(&t, "Reasoning:\n\n");
				txc_buf_add(&t, blk->text.ptr, blk->text.len);
				emit_text(b, t.buf, t.len);
				txc_buf_release(&t);
			} else {
				txc_buf_addstr(b, "{\"type\":\"thinking\",\"thinking\":");
				txc_json_emit_str(b, blk->text.ptr, blk->text.len);
				if (blk->signature.len) {
					txc_buf_addstr(b, ",\"signature\":");
					txc_json_emit_str(b, blk->signature.ptr, blk->signature.len);
				}
				txc_buf_addch(b, '}');
			}
			break;
		case TXC_BLOCK_TOOL_USE:
			emit_tool_use(b, blk, mi, i);
			track_call(c, blk->id);
			break;
		case TXC_BLOCK_IMAGE: {
			/* the API takes images only from the user: keep a note of it */
			char note[160];
			int n = snprintf(note, sizeof(note), "[image: %.*s, %zu bytes of base64 not carried over]",
					 (int)(blk->media_type.len > 60 ? 60 : blk->media_type.len), blk->media_type.ptr,
					 blk->data.len);
			emit_text(b, note, (size_t)n);
			break;
		}
		case TXC_BLOCK_TOOL_RESULT: emit_orphan_text(b, blk); break;
		}
		first = false;
	}
	if (first) /* every block dropped: keep the turn as an empty text */
		emit_text(b, "", 0);
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
		txc_buf_addstr(b, ",\"costUSD\":");
		txc_json_emit_real(b, c->t->meta.cost_usd);
	}
	txc_buf_addstr(b, "}\n");
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
	begin_record(c, "user", m->time, uuid);
	memcpy(c->last_msg_uuid, uuid, 37);
	txc_buf_addstr(b, ",\"message\":{\"role\":\"user\",\"content\":[");
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *blk = &m->blocks[i];
		size_t at;
		if (i)
			txc_buf_addch(b, ',');
		switch (blk->kind) {
		case TXC_BLOCK_TEXT: emit_text(b, blk->text.ptr, blk->text.len); break;
		case TXC_BLOCK_IMAGE:
			txc_buf_addstr(b, "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":");
			txc_json_emit_str(b, blk->media_type.ptr, blk->media_type.len);
			txc_buf_addstr(b, ",\"data\":");
			txc_json_emit_str(b, blk->data.ptr, blk->data.len);
			txc_buf_addstr(b, "}}");
			break;
		case TXC_BLOCK_TOOL_RESULT:
			if (!is_open_call(c, blk->id, &at)) {
				emit_orphan_text(b, blk);
				break;
			}
			c->answered[at] = true;
			txc_buf_addstr(b, "{\"type\":\"tool_result\",\"tool_use_id\":");
			map_id(b, blk->id);
			txc_buf_addstr(b, ",\"content\":");
			emit_result_content(b, blk);
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

static int write_claude(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
			struct txc_diag *d)
{
	(void)d;
	struct ctx c = {.out = out, .t = t, .opt = opt, .last_assistant = (size_t)-1};
	struct txc_buf *b = &out->buf;
	scratch = txc_arena_new(0);
	txc_claude_session_uuid(t, c.session);
	c.cwd = t->meta.cwd.ptr ? t->meta.cwd : opt->cwd.ptr ? opt->cwd : txc_str_c("/");
	for (size_t i = 0; i < t->n_messages; i++)
		if (t->messages[i].role == TXC_ROLE_ASSISTANT && !t->messages[i].compacted)
			c.last_assistant = i;
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		if (m->compacted)
			continue;
		if (m->role == TXC_ROLE_ASSISTANT)
			assistant_record(&c, m, i);
		else
			user_record(&c, m);
		txc_out_maybe_flush(out);
	}
	/* calls in the very last record may stay open (Claude Code marks them interrupted); once a
	 * user record followed them, the missing results are written so the API accepts the turn */
	size_t last = t->n_messages;
	while (last > 0 && t->messages[last - 1].compacted)
		last--;
	if (last > 0 && t->messages[last - 1].role == TXC_ROLE_ASSISTANT)
		c.n_open = 0;
	close_open_calls(&c, t->n_messages ? t->messages[t->n_messages - 1].time : t->meta.started_at);
	if (c.last_msg_uuid[0]) {
		if (t->meta.title.ptr != NULL) {
			txc_buf_addstr(b, "{\"type\":\"summary\",\"summary\":");
			txc_json_emit_str(b, t->meta.title.ptr, t->meta.title.len);
			txc_buf_addf(b, ",\"leafUuid\":\"%s\"}\n", c.last_msg_uuid);
			txc_buf_addstr(b, "{\"type\":\"custom-title\",\"customTitle\":");
			txc_json_emit_str(b, t->meta.title.ptr, t->meta.title.len);
			txc_buf_addf(b, ",\"sessionId\":\"%s\"}\n", c.session);
		}
	}
	free(c.orphans);
	free(c.open_ids);
	free(c.answered);
	txc_arena_free(scratch);
	scratch = NULL;
	return TXC_OK;
}

const struct txc_writer_ops txc_writer_claude = {
	.name = "claude",
	.summary = "Claude Code session JSONL, ready for `claude --resume`",
	.ext = "jsonl",
	.write = write_claude,
};
