/*
 * writer_codex.c - a Codex CLI rollout (JSONL) that `codex exec resume <id>` continues.
 *
 * What Codex 0.171.0 needs was measured with the real binary (docs/FORMATS.md, "Codex rollout"):
 * session_meta first with a UUID id (anything else is taken as a thread name and a new session
 * starts silently), every function output after a call of the same call_id, call ids unique,
 * images as data URLs of png/jpeg/gif/webp, no reasoning item with an id but no real
 * encrypted content.  Ids are name-based (UUIDv5) so the same session gives the same bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/strmap.h"
#include "txc/writer_claude.h"
#include "txc/writer_codex.h"

#define NO_RESULT "[no result was recorded for this call]"

/* One call written: its id (unique in the file) and whether its output went out. */
struct call {
	const char *id;
	bool custom; /* custom_tool_call (apply_patch): its output is custom_tool_call_output */
	bool answered;
	size_t next; /* 1 + the next call of the same provider id, 0 for none */
};

struct ctx {
	struct txc_out *out;
	const struct txc_transcript *t;
	const struct txc_write_opts *opt;
	struct txc_str cwd;
	struct txc_arena *ids;       /* the written call ids' bytes */
	struct txc_strmap taken;     /* written call id -> (num) next suffix to try */
	struct txc_strmap pending;   /* provider id -> (num) 1 + its first call not yet answered, (ptr) 1 + its last */
	struct call *calls;          /* every call written, in order */
	size_t n_calls, cap_calls;   /* ... */
	size_t open_from;            /* calls before it are answered or closed */
	struct txc_buf parts;        /* the content parts of the message being gathered */
	int role;                    /* its role (enum txc_role), -1 when none */
	enum txc_instructions instr; /* a user-role one: developer or system instructions */
	double time;                 /* its time */
	struct txc_arena *scratch;   /* tool outputs kept as JSON text are parsed here, one at a time */
	/* results without a call wait here until the calls open before them are answered or closed
	 * (text between a call and its output would leave the call unanswered for Claude Code) */
	const struct txc_block **orphans;
	size_t n_orphans, cap_orphans;
	double orphan_time;
	unsigned char *bound; /* a compacted record goes before message i (enum bound) */
	bool *summary;        /* message i is that record's summary */
};

enum bound { BOUND_NONE, BOUND_SEGMENT, BOUND_ARCHIVED };

/* ---- envelopes ---- */

static void begin_line(struct ctx *c, double time, const char *type)
{
	char ts[64];
	txc_time_iso_ms(ts, time > 0 ? time : c->t->meta.started_at);
	txc_buf_addstr(&c->out->buf, "{\"timestamp\":\"");
	txc_buf_addstr(&c->out->buf, ts);
	txc_buf_addstr(&c->out->buf, "\",\"type\":\"");
	txc_buf_addstr(&c->out->buf, type);
	txc_buf_addstr(&c->out->buf, "\",\"payload\":");
}

static void end_line(struct ctx *c)
{
	txc_buf_addstr(&c->out->buf, "}\n");
}

static void session_meta(struct ctx *c, const char *uuid)
{
	struct txc_buf *b = &c->out->buf;
	char ts[64];
	txc_time_iso_ms(ts, c->t->meta.started_at);
	begin_line(c, c->t->meta.started_at, "session_meta");
	txc_buf_addf(b, "{\"id\":\"%s\",\"timestamp\":\"%s\",\"cwd\":", uuid, ts);
	txc_json_emit_str(b, c->cwd.ptr, c->cwd.len);
	/* the provider Codex resumes it with must be the one recorded: txc writes OpenAI's */
	txc_buf_addstr(b, ",\"originator\":\"txc\",\"cli_version\":\"" TXC_CODEX_CLI_VERSION "\",\"source\":");
	if (c->opt->codex_parent.len > 0) { /* a subagent: Codex links it to its parent thread by this */
		txc_buf_addstr(b, "{\"subagent\":{\"thread_spawn\":{\"parent_thread_id\":");
		txc_json_emit_str(b, c->opt->codex_parent.ptr, c->opt->codex_parent.len);
		txc_buf_addf(b, ",\"depth\":%d}}}", c->opt->codex_depth > 0 ? c->opt->codex_depth : 1);
	} else {
		txc_buf_addstr(b, "\"cli\"");
	}
	txc_buf_addstr(b, ",\"model_provider\":\"openai\"");
	if (c->t->meta.git_branch.ptr != NULL) {
		txc_buf_addstr(b, ",\"git\":{\"branch\":");
		txc_json_emit_str(b, c->t->meta.git_branch.ptr, c->t->meta.git_branch.len);
		txc_buf_addch(b, '}');
	}
	txc_buf_addch(b, '}');
	end_line(c);
}

/* the model the session ran on: the last assistant message's, else the session's */
static struct txc_str session_model(const struct txc_transcript *t)
{
	for (size_t i = t->n_messages; i > 0; i--)
		if (t->messages[i - 1].role == TXC_ROLE_ASSISTANT && t->messages[i - 1].model.len > 0)
			return t->messages[i - 1].model;
	return t->meta.model;
}

static void turn_context(struct ctx *c, const char *uuid)
{
	struct txc_str model = session_model(c->t);
	if (model.len == 0)
		return; /* optional: Codex then takes its configured model */
	struct txc_buf *b = &c->out->buf;
	begin_line(c, c->t->meta.started_at, "turn_context");
	txc_buf_addf(b, "{\"turn_id\":\"%s\",\"cwd\":", uuid);
	txc_json_emit_str(b, c->cwd.ptr, c->cwd.len);
	txc_buf_addstr(b, ",\"approval_policy\":\"on-request\",\"sandbox_policy\":{\"type\":\"workspace-write\"},"
			  "\"model\":");
	txc_json_emit_str(b, model.ptr, model.len);
	txc_buf_addstr(b, ",\"summary\":\"auto\"}");
	end_line(c);
}

/* ---- messages: content parts gathered, written as one item when something else comes ---- */

static void flush_message(struct ctx *c)
{
	if (c->role < 0)
		return;
	if (c->parts.len > 0) {
		/* instructions as Codex's developer messages: Codex 0.171.0 leaves a rollout's system
		 * messages out of what it sends the model (measured with codex-check), so a system one
		 * is a developer's here too */
		const char *role = c->role != TXC_ROLE_USER     ? "assistant"
				   : c->instr != TXC_INSTR_NONE ? "developer"
								: "user";
		begin_line(c, c->time, "response_item");
		txc_buf_addf(&c->out->buf, "{\"type\":\"message\",\"role\":\"%s\",\"content\":[", role);
		txc_buf_add(&c->out->buf, c->parts.buf, c->parts.len);
		txc_buf_addstr(&c->out->buf, "]}");
		end_line(c);
	}
	txc_buf_reset(&c->parts);
	c->role = -1;
}

static void add_text_part(struct ctx *c, const char *p, size_t len)
{
	if (c->parts.len > 0)
		txc_buf_addch(&c->parts, ',');
	txc_buf_addstr(&c->parts, c->role == TXC_ROLE_USER ? "{\"type\":\"input_text\",\"text\":"
							   : "{\"type\":\"output_text\",\"text\":");
	txc_json_emit_str(&c->parts, p, len);
	txc_buf_addch(&c->parts, '}');
}

static void begin_message(struct ctx *c, enum txc_role role, enum txc_instructions instr, double time)
{
	if (c->role != (int)role || c->instr != instr)
		flush_message(c);
	c->role = (int)role;
	c->instr = instr;
	c->time = time;
}

/* ---- images: data URLs of what the bytes are (the API takes png, jpeg, gif, webp) ---- */

/* The type of a whole png, jpeg, gif or webp image, or NULL: Codex decodes every image it sends
 * and replaces one it cannot (a cut one too) by a placeholder, so those get txc's own note. */
static const char *sniff_image(const struct txc_buf *bytes)
{
	const unsigned char *p = (const unsigned char *)bytes->buf;
	size_t n = bytes->len;
	if (n >= 45 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0 && memcmp(p + 12, "IHDR", 4) == 0 &&
	    memcmp(p + n - 8, "IEND\xae\x42\x60\x82", 8) == 0)
		return "image/png";
	if (n >= 4 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF && p[n - 2] == 0xFF && p[n - 1] == 0xD9)
		return "image/jpeg";
	if (n >= 14 && (memcmp(p, "GIF87a", 6) == 0 || memcmp(p, "GIF89a", 6) == 0) && p[n - 1] == 0x3B)
		return "image/gif";
	if (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0 &&
	    (size_t)p[4] + ((size_t)p[5] << 8) + ((size_t)p[6] << 16) + ((size_t)p[7] << 24) + 8 == n)
		return "image/webp";
	return NULL;
}

/* An input_image part into b, or (false) the text note of why it cannot be one in note. */
static bool image_part(struct txc_buf *b, struct txc_str media_type, struct txc_str data, struct txc_buf *note)
{
	struct txc_buf bytes = TXC_BUF_INIT;
	const char *why = NULL, *type = NULL;
	if (data.len == 0 || !txc_base64_decode(&bytes, data.ptr, data.len))
		why = "its data is not valid base64";
	else if ((type = sniff_image(&bytes)) == NULL)
		why = "its bytes are not a whole png, jpeg, gif or webp image (the types the API takes)";
	txc_buf_release(&bytes);
	if (why != NULL) {
		txc_buf_addstr(note, "[image: ");
		txc_buf_add(note, media_type.ptr, media_type.len > 60 ? 60 : media_type.len);
		txc_buf_addf(note, "%s, %zu bytes of base64 not carried over: %s]",
			     media_type.len ? "" : "no media type", data.len, why);
		return false;
	}
	/* the type the bytes show: Codex re-encodes an image whose label does not match */
	txc_buf_addf(b, "{\"type\":\"input_image\",\"image_url\":\"data:%s;base64,", type);
	txc_buf_add(b, data.ptr, data.len); /* valid base64: nothing to escape */
	txc_buf_addstr(b, "\"}");
	return true;
}

static void add_image(struct ctx *c, const struct txc_block *blk)
{
	struct txc_buf note = TXC_BUF_INIT;
	if (c->role == TXC_ROLE_USER) {
		struct txc_buf part = TXC_BUF_INIT;
		if (image_part(&part, blk->media_type, blk->data, &note)) {
			if (c->parts.len > 0)
				txc_buf_addch(&c->parts, ',');
			txc_buf_add(&c->parts, part.buf, part.len);
		}
		txc_buf_release(&part);
	} else { /* the API takes images only from the user */
		txc_buf_addf(&note, "[image: %.*s, %zu bytes of base64 not carried over]",
			     (int)(blk->media_type.len > 60 ? 60 : blk->media_type.len),
			     blk->media_type.ptr ? blk->media_type.ptr : "", blk->data.len);
	}
	if (note.len > 0)
		add_text_part(c, note.buf, note.len);
	txc_buf_release(&note);
}

/* ---- call ids: the provider's where it is safe and new, else made so ---- */

static bool id_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Providers reuse ids (Kimi numbers calls per turn): a taken id gets `_2`, `_3`, ...; an id with
 * other bytes gets them replaced and a hash of it appended so that two never meet. */
static const char *unique_call_id(struct ctx *c, struct txc_str id, size_t mi, size_t bi)
{
	struct txc_buf t = TXC_BUF_INIT;
	bool safe = id.len > 0 && id.len <= 64;
	for (size_t i = 0; safe && i < id.len; i++)
		safe = id_byte(id.ptr[i]);
	if (id.len == 0) {
		txc_buf_addf(&t, "call_txc_noid_%zu_%zu", mi, bi);
	} else if (safe) {
		txc_buf_add(&t, id.ptr, id.len);
	} else {
		unsigned char h[32];
		char hex[65];
		for (size_t i = 0; i < id.len && i < 48; i++)
			txc_buf_addch(&t, id_byte(id.ptr[i]) ? id.ptr[i] : '_');
		txc_sha256(id.ptr, id.len, h);
		txc_hex(hex, h, 6);
		txc_buf_addf(&t, "_txc%s", hex);
	}
	const char *key = txc_strmap_unique(&c->taken, &t, c->ids);
	txc_buf_release(&t);
	return key;
}

/* Calls of one provider id are answered in the order they were made: a turn that calls "dup"
 * twice gets its results in that order, as the Claude writer pairs them. */
static void track_call(struct ctx *c, struct txc_str provider_id, const char *id, bool custom)
{
	if (c->n_calls == c->cap_calls) {
		c->cap_calls = c->cap_calls ? c->cap_calls * 2 : 16;
		c->calls = txc_xrealloc(c->calls, c->cap_calls * sizeof(*c->calls));
	}
	size_t k = c->n_calls++;
	c->calls[k] = (struct call){id, custom, false, 0};
	/* the key's bytes live in the model, which outlives the writer */
	struct txc_strmap_entry *e =
		txc_strmap_put(&c->pending, provider_id.ptr ? provider_id.ptr : "", provider_id.len, NULL);
	if (e->num == 0)
		e->num = k + 1;
	else
		c->calls[(size_t)(uintptr_t)e->ptr - 1].next = k + 1;
	e->ptr = (void *)(uintptr_t)(k + 1);
}

static void emit_output_head(struct ctx *c, const struct call *k, double time)
{
	begin_line(c, time, "response_item");
	txc_buf_addstr(&c->out->buf, k->custom ? "{\"type\":\"custom_tool_call_output\",\"call_id\":"
					       : "{\"type\":\"function_call_output\",\"call_id\":");
	txc_json_emit_str(&c->out->buf, k->id, strlen(k->id));
	txc_buf_addstr(&c->out->buf, ",\"output\":");
}

static void emit_orphans(struct ctx *c, double time);

/* Every call gets its output before the conversation goes on: Codex invents "aborted" for one
 * without.  Then the results without a call that waited, as the user's text. */
static void close_open_calls(struct ctx *c, double time)
{
	flush_message(c);
	for (size_t i = c->open_from; i < c->n_calls; i++) {
		if (c->calls[i].answered)
			continue;
		c->calls[i].answered = true;
		emit_output_head(c, &c->calls[i], time);
		txc_buf_addstr(&c->out->buf, "\"" NO_RESULT "\"}");
		end_line(c);
	}
	c->open_from = c->n_calls;
	emit_orphans(c, time);
}

/* ---- tools: Codex's own where the call means the same, else a function call with its arguments ---- */

struct mapped {
	const char *name;    /* NULL: the model's name, made safe */
	struct txc_buf args; /* function_call arguments (JSON text) or custom_tool_call input */
	bool custom;         /* apply_patch */
};

static const struct txc_json *arg(const struct txc_block *blk, const char *key)
{
	return blk->input != NULL ? txc_json_get(blk->input, key) : NULL;
}

static bool only_keys(const struct txc_json *o, const char *const *keys)
{
	for (size_t i = 0; o != NULL && i < o->n; i++) {
		bool known = false;
		for (size_t k = 0; keys[k] && !known; k++)
			known = txc_str_eq(o->keys[i], keys[k]);
		if (!known)
			return false;
	}
	return o != NULL;
}

/* text as apply_patch lines, each prefixed by mark; false when a line could not round-trip (no final newline) */
static void patch_lines(struct txc_buf *b, char mark, struct txc_str s)
{
	size_t i = 0;
	while (i < s.len) {
		const char *nl = memchr(s.ptr + i, '\n', s.len - i);
		size_t end = nl ? (size_t)(nl - s.ptr) : s.len;
		txc_buf_addch(b, mark);
		txc_buf_add(b, s.ptr + i, end - i);
		txc_buf_addch(b, '\n');
		i = end + 1;
	}
}

static bool ends_line(struct txc_str s)
{
	return s.len == 0 || s.ptr[s.len - 1] == '\n';
}

/* an edit of whole lines (old and new end a line): apply_patch's update hunk says the same */
static bool hunk(struct txc_buf *b, const struct txc_json *e)
{
	const struct txc_json *o = txc_json_get(e, "old_string"), *n = txc_json_get(e, "new_string"),
			      *all = txc_json_get(e, "replace_all");
	if (o == NULL || n == NULL || o->kind != TXC_JSON_STRING || n->kind != TXC_JSON_STRING || o->s.len == 0 ||
	    (all != NULL && txc_json_truthy(all)) || !ends_line(o->s) || !ends_line(n->s))
		return false;
	txc_buf_addstr(b, "@@\n");
	patch_lines(b, '-', o->s);
	patch_lines(b, '+', n->s);
	return true;
}

static bool map_patch(const struct txc_block *blk, struct mapped *m)
{
	const struct txc_json *path = arg(blk, "file_path");
	if (path == NULL || path->kind != TXC_JSON_STRING || memchr(path->s.ptr, '\n', path->s.len) != NULL)
		return false;
	struct txc_buf *b = &m->args;
	txc_buf_addstr(b, "*** Begin Patch\n");
	bool ok = true;
	if (blk->tool == TXC_TOOL_WRITE) {
		const struct txc_json *content = arg(blk, "content");
		ok = content != NULL && content->kind == TXC_JSON_STRING && ends_line(content->s);
		txc_buf_addstr(b, "*** Add File: ");
		txc_buf_add(b, path->s.ptr, path->s.len);
		txc_buf_addch(b, '\n');
		if (ok)
			patch_lines(b, '+', content->s);
	} else {
		txc_buf_addstr(b, "*** Update File: ");
		txc_buf_add(b, path->s.ptr, path->s.len);
		txc_buf_addch(b, '\n');
		if (blk->tool == TXC_TOOL_EDIT) {
			ok = hunk(b, blk->input);
		} else {
			const struct txc_json *edits = arg(blk, "edits");
			ok = edits != NULL && edits->kind == TXC_JSON_ARRAY && edits->n > 0;
			for (size_t i = 0; ok && i < edits->n; i++)
				ok = hunk(b, edits->items[i]);
		}
	}
	txc_buf_addstr(b, "*** End Patch\n");
	m->custom = ok;
	m->name = ok ? "apply_patch" : NULL;
	if (!ok)
		txc_buf_reset(b);
	return ok;
}

/* whether the call's result (in the next message) holds an image: a Read of one is a view_image */
static bool result_has_image(const struct txc_transcript *t, size_t mi, struct txc_str id)
{
	for (size_t i = mi + 1; i < t->n_messages && i <= mi + 2; i++)
		for (size_t k = 0; k < t->messages[i].n_blocks; k++) {
			const struct txc_block *r = &t->messages[i].blocks[k];
			if (r->kind == TXC_BLOCK_TOOL_RESULT && r->id.len == id.len &&
			    (id.len == 0 || memcmp(r->id.ptr, id.ptr, id.len) == 0)) {
				const struct txc_json *o = r->output;
				for (size_t j = 0; o != NULL && o->kind == TXC_JSON_ARRAY && j < o->n; j++) {
					const char *type = txc_json_cstr(txc_json_get(o->items[j], "type"));
					if (type != NULL && strcmp(type, "image") == 0)
						return true;
				}
				return false;
			}
		}
	return false;
}

static void map_tool(const struct ctx *c, const struct txc_block *blk, size_t mi, struct mapped *m)
{
	static const char *const bash_keys[] = {"command", "description", "workdir", NULL};
	static const char *const read_keys[] = {"file_path", NULL};
	const struct txc_json *cmd = arg(blk, "command"), *path = arg(blk, "file_path"), *dir = arg(blk, "workdir");
	if (blk->tool == TXC_TOOL_BASH && only_keys(blk->input, bash_keys) && cmd->kind == TXC_JSON_STRING &&
	    (dir == NULL || dir->kind == TXC_JSON_STRING)) {
		m->name = "exec_command"; /* the description is a label for people; Codex's call has none */
		txc_buf_addstr(&m->args, "{\"cmd\":");
		txc_json_emit_str(&m->args, cmd->s.ptr, cmd->s.len);
		if (dir != NULL) {
			txc_buf_addstr(&m->args, ",\"workdir\":");
			txc_json_emit_str(&m->args, dir->s.ptr, dir->s.len);
		}
		txc_buf_addch(&m->args, '}');
		return;
	}
	const struct txc_json *mode = arg(blk, "mode"), *patch = arg(blk, "patch");
	if (txc_str_eq(blk->source_name, "patch") && mode != NULL && txc_str_eq(mode->s, "patch") && patch != NULL &&
	    patch->kind == TXC_JSON_STRING && patch->s.len >= 15 && memcmp(patch->s.ptr, "*** Begin Patch", 15) == 0) {
		m->name = "apply_patch"; /* Hermes's patch tool in patch mode takes apply_patch's own format */
		m->custom = true;
		txc_buf_add(&m->args, patch->s.ptr, patch->s.len);
		return;
	}
	if (blk->tool == TXC_TOOL_READ && only_keys(blk->input, read_keys) && path->kind == TXC_JSON_STRING &&
	    result_has_image(c->t, mi, blk->id)) {
		m->name = "view_image";
		txc_buf_addstr(&m->args, "{\"path\":");
		txc_json_emit_str(&m->args, path->s.ptr, path->s.len);
		txc_buf_addch(&m->args, '}');
		return;
	}
	if ((blk->tool == TXC_TOOL_WRITE || blk->tool == TXC_TOOL_EDIT || blk->tool == TXC_TOOL_MULTIEDIT) &&
	    map_patch(blk, m))
		return;
	if (blk->input != NULL)
		txc_json_emit(&m->args, blk->input, 0);
	else
		txc_buf_addstr(&m->args, "{}");
}

static void emit_call(struct ctx *c, const struct txc_block *blk, size_t mi, size_t bi)
{
	flush_message(c);
	struct mapped m = {.args = TXC_BUF_INIT};
	map_tool(c, blk, mi, &m);
	const char *id = unique_call_id(c, blk->id, mi, bi);
	struct txc_buf *b = &c->out->buf;
	begin_line(c, c->t->messages[mi].time, "response_item");
	txc_buf_addstr(b, m.custom ? "{\"type\":\"custom_tool_call\",\"status\":\"completed\",\"call_id\":"
				   : "{\"type\":\"function_call\",\"call_id\":");
	txc_json_emit_str(b, id, strlen(id));
	txc_buf_addstr(b, ",\"name\":");
	if (m.name != NULL) {
		txc_buf_addf(b, "\"%s\"", m.name);
	} else { /* function names are [a-zA-Z0-9_-]: other bytes become '_' */
		txc_buf_addch(b, '"');
		for (size_t i = 0; i < blk->name.len && i < 128; i++)
			txc_buf_addch(b, id_byte(blk->name.ptr[i]) ? blk->name.ptr[i] : '_');
		if (blk->name.len == 0)
			txc_buf_addstr(b, "unnamed_tool");
		txc_buf_addch(b, '"');
	}
	txc_buf_addstr(b, m.custom ? ",\"input\":" : ",\"arguments\":");
	txc_json_emit_str(b, m.args.buf, m.args.len);
	txc_buf_addch(b, '}');
	end_line(c);
	track_call(c, blk->id, id, m.custom);
	txc_buf_release(&m.args);
}

/* ---- tool results ---- */

/* A list of Claude content blocks with an image among them: input_text / input_image parts. */
static bool output_parts(struct txc_buf *b, const struct txc_json *out)
{
	bool image = false;
	for (size_t i = 0; out != NULL && out->kind == TXC_JSON_ARRAY && i < out->n; i++) {
		const char *type = txc_json_cstr(txc_json_get(out->items[i], "type"));
		image |= type != NULL && strcmp(type, "image") == 0;
	}
	if (!image)
		return false;
	txc_buf_addch(b, '[');
	for (size_t i = 0; i < out->n; i++) {
		const struct txc_json *it = out->items[i], *src = txc_json_get(it, "source");
		const char *type = txc_json_cstr(txc_json_get(it, "type"));
		const struct txc_json *mt = src ? txc_json_get(src, "media_type") : NULL,
				      *data = src ? txc_json_get(src, "data") : NULL;
		struct txc_buf note = TXC_BUF_INIT;
		if (i > 0)
			txc_buf_addch(b, ',');
		if (type != NULL && strcmp(type, "image") == 0 && data != NULL && data->kind == TXC_JSON_STRING &&
		    image_part(b, mt && mt->kind == TXC_JSON_STRING ? mt->s : TXC_STR_NULL, data->s, &note)) {
			txc_buf_release(&note);
			continue;
		}
		const struct txc_json *text = txc_json_get(it, "text");
		if (note.len == 0 && type != NULL && strcmp(type, "text") == 0 && text && text->kind == TXC_JSON_STRING)
			txc_buf_add(&note, text->s.ptr, text->s.len);
		else if (note.len == 0)
			txc_json_emit(&note, it, 0);
		txc_buf_addstr(b, "{\"type\":\"input_text\",\"text\":");
		txc_json_emit_str(b, note.buf, note.len);
		txc_buf_addch(b, '}');
		txc_buf_release(&note);
	}
	txc_buf_addch(b, ']');
	return true;
}

/* The output as the string Codex sends: text as it is, a list of text blocks joined, other JSON as its text. */
static void output_text(struct txc_buf *t, const struct txc_block *blk, const struct txc_json *out)
{
	if (out == NULL) {
		txc_buf_add(t, blk->output_text.ptr, blk->output_text.len);
		return;
	}
	bool texts = out->kind == TXC_JSON_ARRAY && out->n > 0;
	for (size_t i = 0; texts && i < out->n; i++) {
		const char *type = txc_json_cstr(txc_json_get(out->items[i], "type"));
		const struct txc_json *x = txc_json_get(out->items[i], "text");
		texts = type != NULL && strcmp(type, "text") == 0 && x != NULL && x->kind == TXC_JSON_STRING;
	}
	for (size_t i = 0; texts && i < out->n; i++) {
		const struct txc_json *x = txc_json_get(out->items[i], "text");
		if (i > 0)
			txc_buf_addch(t, '\n');
		txc_buf_add(t, x->s.ptr, x->s.len);
	}
	if (!texts)
		txc_json_emit(t, out, 0);
}

/* the first unanswered open call of the result's provider id, or NULL */
static struct call *call_for(struct ctx *c, const struct txc_block *blk)
{
	struct txc_strmap_entry *e = txc_strmap_get(&c->pending, blk->id.ptr ? blk->id.ptr : "", blk->id.len);
	while (e != NULL && e->num != 0) {
		struct call *k = &c->calls[e->num - 1];
		e->num = k->next; /* answered now, or closed before */
		if (!k->answered && (size_t)(k - c->calls) >= c->open_from)
			return k;
	}
	return NULL;
}

static void emit_result(struct ctx *c, const struct txc_block *blk, double time)
{
	struct call *k = call_for(c, blk);
	const struct txc_json *out = txc_block_output(blk, c->scratch);
	struct txc_buf t = TXC_BUF_INIT;
	if (k == NULL) { /* no call to bind it to: said in the user's turn once the open calls are done */
		if (c->n_orphans == c->cap_orphans) {
			c->cap_orphans = c->cap_orphans ? c->cap_orphans * 2 : 4;
			c->orphans = txc_xrealloc(c->orphans, c->cap_orphans * sizeof(*c->orphans));
		}
		if (c->n_orphans == 0)
			c->orphan_time = time;
		c->orphans[c->n_orphans++] = blk;
	} else {
		flush_message(c);
		k->answered = true;
		emit_output_head(c, k, time);
		if (k->custom || !output_parts(&c->out->buf, out)) {
			output_text(&t, blk, out);
			txc_json_emit_str(&c->out->buf, t.buf, t.len);
		}
		txc_buf_addch(&c->out->buf, '}');
		end_line(c);
	}
	txc_buf_release(&t);
	txc_arena_reset(c->scratch);
}

/* the results without a call that waited: Codex would drop them, so they are the user's text */
static void emit_orphans(struct ctx *c, double time)
{
	if (time < c->orphan_time)
		time = c->orphan_time; /* (after the outputs of the calls closed before them) */
	size_t n = c->n_orphans;
	c->n_orphans = 0; /* (begin_message may flush, which calls no close) */
	for (size_t i = 0; i < n; i++) {
		const struct txc_block *blk = c->orphans[i];
		const struct txc_json *out = txc_block_output(blk, c->scratch);
		struct txc_buf t = TXC_BUF_INIT;
		txc_buf_addf(&t, "[tool result%s%.*s%s, id %.*s, without a matching call]\n",
			     blk->name.len ? " from " : "", (int)blk->name.len, blk->name.ptr ? blk->name.ptr : "",
			     blk->is_error ? " (error)" : "", (int)blk->id.len, blk->id.ptr ? blk->id.ptr : "");
		output_text(&t, blk, out);
		begin_message(c, TXC_ROLE_USER, TXC_INSTR_NONE, time);
		add_text_part(c, t.buf, t.len);
		txc_buf_release(&t);
		txc_arena_reset(c->scratch);
	}
	if (n > 0)
		flush_message(c);
}

/* ---- reasoning ---- */

/* OpenAI's own encrypted reasoning (a Codex or OpenAI session): the only kind the API can take back */
static bool openai_reasoning(const struct txc_message *m, const struct txc_block *blk)
{
	struct txc_str model = m->model;
	bool openai = model.len >= 4 && (memcmp(model.ptr, "gpt-", 4) == 0 || memcmp(model.ptr, "o1", 2) == 0 ||
					 memcmp(model.ptr, "o3", 2) == 0 || memcmp(model.ptr, "o4", 2) == 0);
	return openai && blk->encrypted.len > 0 && !blk->redacted && blk->signature.len == 0;
}

/* Another provider's signature and opaque reasoning, in fields of txc's own on the event: Codex
 * 0.171.0 resumes the file with them, keeps them in it and sends them nowhere (codex-check), and
 * txc's reader takes them back (Anthropic's signed and redacted thinking, Claude Code again). */
static void emit_opaque(struct txc_buf *b, const struct txc_block *blk)
{
	if (blk->signature.len > 0) {
		txc_buf_addstr(b, ",\"txc_signature\":");
		txc_json_emit_str(b, blk->signature.ptr, blk->signature.len);
	}
	if (blk->encrypted.len > 0) {
		txc_buf_addstr(b, blk->redacted ? ",\"txc_redacted\":" : ",\"txc_encrypted\":");
		txc_json_emit_str(b, blk->encrypted.ptr, blk->encrypted.len);
	}
}

/*
 * --reasoning keep (the default): reasoning Codex can send back (OpenAI's encrypted content) as a
 * reasoning item; any other as Codex's agent_reasoning event, which the file and its viewers keep
 * but the model is not sent (another provider's reasoning has nothing the API could verify).
 * --reasoning text: as the assistant's text, which the model is sent.  drop: left out.
 */
static void emit_reasoning(struct ctx *c, const struct txc_message *m, const struct txc_block *blk)
{
	struct txc_buf *b = &c->out->buf;
	bool opaque = blk->signature.len > 0 || blk->encrypted.len > 0; /* another provider's to carry */
	if (c->opt->reasoning == TXC_REASONING_DROP || (blk->text.len == 0 && !openai_reasoning(m, blk) && !opaque))
		return;
	if (c->opt->reasoning == TXC_REASONING_TEXT && blk->text.len == 0)
		return; /* (redacted: no text to say) */
	if (c->opt->reasoning == TXC_REASONING_TEXT) {
		struct txc_buf t = TXC_BUF_INIT;
		txc_buf_addstr(&t, "Reasoning:\n\n");
		txc_buf_add(&t, blk->text.ptr, blk->text.len);
		begin_message(c, TXC_ROLE_ASSISTANT, TXC_INSTR_NONE, m->time);
		add_text_part(c, t.buf, t.len);
		txc_buf_release(&t);
		return;
	}
	flush_message(c);
	begin_line(c, m->time, openai_reasoning(m, blk) ? "response_item" : "event_msg");
	if (openai_reasoning(m, blk)) {
		txc_buf_addstr(b, "{\"type\":\"reasoning\",\"summary\":[");
		if (blk->text.len > 0) {
			txc_buf_addstr(b, "{\"type\":\"summary_text\",\"text\":");
			txc_json_emit_str(b, blk->text.ptr, blk->text.len);
			txc_buf_addch(b, '}');
		}
		txc_buf_addstr(b, "],\"encrypted_content\":");
		txc_json_emit_str(b, blk->encrypted.ptr, blk->encrypted.len);
	} else {
		txc_buf_addstr(b, "{\"type\":\"agent_reasoning\",\"text\":");
		txc_json_emit_str(b, blk->text.ptr, blk->text.len);
		emit_opaque(b, blk);
	}
	txc_buf_addch(b, '}');
	end_line(c);
}

/* ---- one message ---- */

static void write_message(struct ctx *c, size_t mi)
{
	const struct txc_message *m = &c->t->messages[mi];
	bool results = false;
	for (size_t i = 0; i < m->n_blocks; i++)
		results |= m->blocks[i].kind == TXC_BLOCK_TOOL_RESULT;
	/* the conversation goes on (as the Claude writer decides): the open calls are done */
	if (m->role == TXC_ROLE_ASSISTANT || !results)
		close_open_calls(c, m->time);
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *blk = &m->blocks[i];
		switch (blk->kind) {
		case TXC_BLOCK_TEXT:
			if (blk->replayed || (blk->text.len == 0))
				break;
			begin_message(c, m->role, m->instructions, m->time);
			add_text_part(c, blk->text.ptr, blk->text.len);
			break;
		case TXC_BLOCK_IMAGE:
			begin_message(c, m->role, m->instructions, m->time);
			add_image(c, blk);
			break;
		case TXC_BLOCK_THINKING: emit_reasoning(c, m, blk); break;
		case TXC_BLOCK_TOOL_USE: emit_call(c, blk, mi, i); break;
		case TXC_BLOCK_TOOL_RESULT: emit_result(c, blk, m->time); break;
		}
	}
	flush_message(c);
}

/* ---- compaction: Codex's compacted record, after which only its replacement history is sent ---- */

#define COMPACTION_MARK "[CONTEXT COMPACTION]"

static bool is_summary(const struct txc_message *m)
{
	if (m->role != TXC_ROLE_USER || m->n_blocks == 0 || m->blocks[0].kind != TXC_BLOCK_TEXT)
		return false;
	struct txc_str x = m->blocks[0].text;
	size_t k = strlen(COMPACTION_MARK);
	return m->compact_summary || (x.len >= k && memcmp(x.ptr, COMPACTION_MARK, k) == 0);
}

/* As the Claude writer's boundaries: before each segment of a chain but the first (--lineage) and,
 * with --include-compacted, before the first live message after archived ones. */
static void plan_boundaries(struct ctx *c, bool *written)
{
	const struct txc_transcript *t = c->t;
	size_t n = t->n_messages;
	c->bound = txc_xcalloc(n + 1, 1);
	c->summary = txc_xcalloc(n + 1, 1);
	for (size_t k = 1; k < t->n_segments; k++)
		if (t->segments[k].first < n)
			c->bound[t->segments[k].first] = BOUND_SEGMENT;
	bool after_archived = false, any = false;
	for (size_t i = 0; i < n; i++) {
		const struct txc_message *m = &t->messages[i];
		written[i] = !m->compacted || c->opt->include_compacted;
		if (!written[i]) {
			if (c->bound[i] && i + 1 < n)
				c->bound[i + 1] = c->bound[i];
			c->bound[i] = BOUND_NONE;
			continue;
		}
		if (!m->compacted && after_archived && !c->bound[i])
			c->bound[i] = BOUND_ARCHIVED;
		after_archived = m->compacted;
		if (c->bound[i] && !any)
			c->bound[i] = BOUND_NONE; /* a boundary before anything is written replaces nothing */
		any = true;
		c->summary[i] = c->bound[i] && is_summary(m);
	}
}

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
	const struct txc_transcript *tr = c->t;
	size_t k = 0;
	while (k + 1 < tr->n_segments && tr->segments[k + 1].first <= i)
		k++;
	if (c->bound[i] == BOUND_SEGMENT && k > 0) {
		const struct txc_segment *prev = &tr->segments[k - 1];
		txc_buf_addf(
			t,
			"[This conversation continues session %.*s, which ended with %.*s; no summary was recorded.]",
			(int)prev->id.len, prev->id.ptr ? prev->id.ptr : "",
			(int)(prev->end_reason.ptr ? prev->end_reason.len : 7),
			prev->end_reason.ptr ? prev->end_reason.ptr : "unknown");
		return;
	}
	txc_buf_addstr(t, "[The messages above were archived by compaction; no summary was recorded.]");
}

static void compacted_record(struct ctx *c, size_t i)
{
	const struct txc_message *m = &c->t->messages[i];
	struct txc_buf *b = &c->out->buf, s = TXC_BUF_INIT;
	close_open_calls(c, m->time); /* the calls before it are replaced with it: none may stay open */
	summary_text(c, i, &s);
	begin_line(c, m->time, "compacted");
	txc_buf_addstr(b, "{\"message\":");
	txc_json_emit_str(b, s.buf, s.len);
	txc_buf_addstr(b, ",\"replacement_history\":[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":"
			  "\"input_text\",\"text\":");
	txc_json_emit_str(b, s.buf, s.len);
	txc_buf_addstr(b, "}]}]}");
	end_line(c);
	txc_buf_release(&s);
}

/* ---- usage ---- */

/* a + b for counts, at least 0 and at most INT64_MAX: a store's counts are whatever it holds */
static int64_t count_add(int64_t a, int64_t b)
{
	a = a < 0 ? 0 : a;
	b = b < 0 ? 0 : b;
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static void usage_fields(struct txc_buf *b, const int64_t v[4])
{
	txc_buf_addf(b,
		     "{\"input_tokens\":%lld,\"cached_input_tokens\":%lld,\"output_tokens\":%lld,"
		     "\"reasoning_output_tokens\":%lld,\"total_tokens\":%lld}",
		     (long long)v[0], (long long)v[1], (long long)v[2], (long long)v[3],
		     (long long)count_add(v[0], v[2]));
}

/*
 * The session's token counts as Codex's token_count event.  Codex takes last_token_usage for the
 * size of the conversation it resumes (and compacts it before the next request when that passes
 * its limit), so only the totals carry the session's counts; the last request's is unknown to the
 * model and left at zero.  Measured: see docs/FORMATS.md, "Codex rollout".
 */
static void token_count(struct ctx *c, double time)
{
	const struct txc_meta *mt = &c->t->meta;
	if (!mt->has_usage)
		return;
	/* OpenAI's input_tokens include the cached ones; Hermes's and Anthropic's do not */
	int64_t total[4] = {count_add(count_add(mt->input_tokens, mt->cache_read_tokens), mt->cache_write_tokens),
			    count_add(mt->cache_read_tokens, 0), count_add(mt->output_tokens, 0),
			    count_add(mt->reasoning_tokens, 0)};
	int64_t zero[4] = {0, 0, 0, 0};
	struct txc_buf *b = &c->out->buf;
	begin_line(c, time, "event_msg");
	txc_buf_addstr(b, "{\"type\":\"token_count\",\"info\":{\"total_token_usage\":");
	usage_fields(b, total);
	txc_buf_addstr(b, ",\"last_token_usage\":");
	usage_fields(b, zero);
	txc_buf_addstr(b, "},\"rate_limits\":null}");
	end_line(c);
}

/* ---- the file ---- */

static int write_codex(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *opt,
		       struct txc_diag *d)
{
	(void)d;
	struct ctx c = {.out = out, .t = t, .opt = opt, .role = -1};
	char uuid[37];
	if (opt->codex_uuid.len == 36) {
		memcpy(uuid, opt->codex_uuid.ptr, 36);
		uuid[36] = '\0';
	} else {
		txc_codex_session_uuid(t, opt->scope, uuid);
	}
	/* Codex needs an absolute cwd: the session's, else the caller's, else "/" */
	c.cwd = t->meta.cwd;
	if (c.cwd.ptr == NULL || c.cwd.len == 0 || c.cwd.ptr[0] != '/')
		c.cwd = opt->cwd.ptr && opt->cwd.len && opt->cwd.ptr[0] == '/' ? opt->cwd : txc_str_c("/");
	c.ids = txc_arena_new(0);
	c.scratch = txc_arena_new(0);
	txc_buf_init(&c.parts);
	bool *written = txc_xcalloc(t->n_messages + 1, 1);
	plan_boundaries(&c, written);
	session_meta(&c, uuid);
	turn_context(&c, uuid);
	double last = t->meta.started_at;
	for (size_t i = 0; i < t->n_messages; i++) {
		if (!written[i])
			continue;
		if (c.bound[i])
			compacted_record(&c, i);
		if (!c.summary[i])
			write_message(&c, i);
		if (t->messages[i].time > 0)
			last = t->messages[i].time;
		txc_out_maybe_flush(out);
	}
	close_open_calls(&c, last); /* a call the session ended in: Codex would invent "aborted" */
	token_count(&c, last);
	free(written);
	free(c.bound);
	free(c.summary);
	free(c.calls);
	free(c.orphans);
	txc_buf_release(&c.parts);
	txc_strmap_free(&c.taken);
	txc_strmap_free(&c.pending);
	txc_arena_free(c.ids);
	txc_arena_free(c.scratch);
	return TXC_OK;
}

const struct txc_writer_ops txc_writer_codex = {
	.name = "codex",
	.summary = "Codex CLI rollout JSONL, ready for `codex exec resume` / `codex resume`",
	.ext = "jsonl",
	.caps = TXC_WCAP_INSTALL,
	.opts = TXC_WOPT_REASONING | TXC_WOPT_CWD | TXC_WOPT_COMPACTED | TXC_WOPT_CHILDREN,
	.write = write_codex,
};
