/*
 * model.c - the Codex CLI mapping: one rollout's records -> the model (codex.h).
 *
 * Rules (docs/FORMATS.md, "Codex CLI -> model"): session_meta gives the id,
 * start, cwd, git branch and model provider; turn_context the model of the
 * turns after it; response_item messages become messages (developer and system
 * ones user messages marked as instructions: the model has two roles), reasoning, calls of any
 * kind and assistant text join the assistant message they follow, and each
 * output is a user message of one tool result, as the model pairs them (an
 * agent_reasoning event is reasoning unless a reasoning item holds it); a
 * compacted record marks everything before it compacted and its
 * replacement_history (and summary) starts the live conversation again;
 * event_msg token_count gives the usage, thread names and the first typed
 * prompt the title.  Tools are given Claude's names where their arguments map
 * without loss (exec_command / shell / local_shell -> Bash; in a rollout txc
 * wrote, an apply_patch that is one Write, Edit or MultiEdit -> that); the rest keep
 * Codex's name and arguments.  Each line is parsed into a scratch arena and
 * what the model keeps is copied out.
 */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codex.h"
#include "txc/model_claude.h"
#include "txc/strmap.h"

struct blocks {
	struct txc_block *v;
	size_t n, cap;
};

struct xmsg {
	struct txc_message m;
	struct blocks bs;
};

struct txc_codex_builder {
	struct txc_transcript *t;
	struct txc_arena *tmp; /* one line at a time */
	struct xmsg *ms;
	size_t n, cap;
	size_t n_compacted;      /* messages before the last compacted record */
	struct txc_strmap calls; /* call_id -> canonical tool name (keys and names in t->arena) */
	struct txc_str model;    /* the last turn_context's */
	struct txc_str thread_name, prompt;
	bool meta, lines;       /* a session_meta seen; any record seen */
	bool by_txc;            /* session_meta's originator is "txc": its patches may be Claude's edits */
	bool spawned;           /* session_meta's source is a spawned thread's (a subagent) */
	double first, last, at; /* timestamps: earliest, latest, this record's */
	bool has_time;
	int64_t usage[5]; /* input (not cached), output, cache read, reasoning, cache write */
	bool has_usage;
	size_t unbound;
};

/* ---- small helpers ---- */

static struct txc_str nonempty(const struct txc_json *v)
{
	if (v != NULL && v->kind == TXC_JSON_STRING && v->s.len > 0)
		return v->s;
	return TXC_STR_NULL;
}

static struct txc_str own(struct txc_arena *a, struct txc_str s)
{
	return s.ptr != NULL ? txc_arena_str(a, s.ptr, s.len) : s;
}

static bool is(const struct txc_json *v, const char *lit)
{
	return v != NULL && v->kind == TXC_JSON_STRING && txc_str_eq(v->s, lit);
}

static int64_t int_or0(const struct txc_json *v)
{
	int64_t x;
	return txc_json_is_int(v, &x) && x > 0 ? x : 0;
}

struct txc_codex_builder *txc_codex_begin(struct txc_transcript *t)
{
	struct txc_codex_builder *b = txc_xcalloc(1, sizeof(*b));
	b->t = t;
	b->tmp = txc_arena_new(0);
	b->at = NAN;
	return b;
}

static struct txc_block *add_block(struct blocks *bs, enum txc_block_kind kind)
{
	if (bs->n == bs->cap) {
		bs->cap = bs->cap ? bs->cap * 2 : 4;
		bs->v = txc_xrealloc(bs->v, bs->cap * sizeof(*bs->v));
	}
	struct txc_block *blk = &bs->v[bs->n++];
	memset(blk, 0, sizeof(*blk));
	blk->kind = kind;
	return blk;
}

static struct xmsg *next_msg(struct txc_codex_builder *b, enum txc_role role)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 32;
		b->ms = txc_xrealloc(b->ms, b->cap * sizeof(*b->ms));
	}
	struct xmsg *x = &b->ms[b->n++];
	memset(x, 0, sizeof(*x));
	x->m.role = role;
	x->m.time = isnan(b->at) ? 0 : b->at;
	if (role == TXC_ROLE_ASSISTANT)
		x->m.model = b->model;
	return x;
}

/* The assistant message this item joins: the last one if nothing came after it, else a new one. */
static struct xmsg *assistant(struct txc_codex_builder *b)
{
	if (b->n > b->n_compacted && b->ms[b->n - 1].m.role == TXC_ROLE_ASSISTANT)
		return &b->ms[b->n - 1];
	return next_msg(b, TXC_ROLE_ASSISTANT);
}

/* a message that got no block (an empty item) is no message */
static void drop_empty(struct txc_codex_builder *b)
{
	if (b->n > b->n_compacted && b->ms[b->n - 1].bs.n == 0) {
		free(b->ms[b->n - 1].bs.v);
		b->n--;
	}
}

/* blocks from..n were built from the line in scratch: copy what they hold into the transcript */
static void relocate(struct txc_codex_builder *b, struct xmsg *x, size_t from)
{
	for (size_t i = from; i < x->bs.n; i++)
		txc_block_copy(b->t->arena, &x->bs.v[i]);
}

/* ---- content ---- */

/* "data:<type>;base64,<data>" as an image's media type and data; false for anything else */
static bool data_url(struct txc_str url, struct txc_str *media, struct txc_str *data)
{
	if (url.len < 5 || memcmp(url.ptr, "data:", 5) != 0)
		return false;
	for (size_t i = 5; i + 8 <= url.len; i++)
		if (memcmp(url.ptr + i, ";base64,", 8) == 0) {
			*media = (struct txc_str){url.ptr + 5, i - 5};
			*data = (struct txc_str){url.ptr + i + 8, url.len - i - 8};
			return true;
		}
	return false;
}

/* a part txc has no kind for (or an image by URL): kept as text that says what it was */
static void raw_part(struct txc_arena *a, struct blocks *bs, const struct txc_json *part)
{
	struct txc_buf t = TXC_BUF_INIT;
	const char *type = txc_json_cstr(txc_json_get(part, "type"));
	txc_buf_addf(&t, "[%s] ", type ? type : "unknown part");
	txc_json_emit(&t, part, 0);
	add_block(bs, TXC_BLOCK_TEXT)->text = txc_arena_str(a, t.buf, t.len);
	txc_buf_release(&t);
}

/* a message's content parts: text (input_text, output_text, refusal) and data-URL images */
static void parts(struct txc_arena *a, struct blocks *bs, const struct txc_json *content)
{
	if (content != NULL && content->kind == TXC_JSON_STRING) {
		if (content->s.len > 0)
			add_block(bs, TXC_BLOCK_TEXT)->text = content->s;
		return;
	}
	for (size_t i = 0; content != NULL && content->kind == TXC_JSON_ARRAY && i < content->n; i++) {
		const struct txc_json *p = content->items[i], *text = txc_json_get(p, "text");
		struct txc_str media, data;
		if ((is(txc_json_get(p, "type"), "input_text") || is(txc_json_get(p, "type"), "output_text")) &&
		    text != NULL && text->kind == TXC_JSON_STRING) {
			add_block(bs, TXC_BLOCK_TEXT)->text = text->s;
		} else if (is(txc_json_get(p, "type"), "refusal") && nonempty(txc_json_get(p, "refusal")).ptr) {
			add_block(bs, TXC_BLOCK_TEXT)->text = nonempty(txc_json_get(p, "refusal"));
		} else if (is(txc_json_get(p, "type"), "input_image") &&
			   data_url(nonempty(txc_json_get(p, "image_url")), &media, &data)) {
			struct txc_block *blk = add_block(bs, TXC_BLOCK_IMAGE);
			blk->media_type = media;
			blk->data = data;
		} else if (p != NULL && p->kind != TXC_JSON_NULL) {
			raw_part(a, bs, p);
		}
	}
}

static void message_item(struct txc_codex_builder *b, const struct txc_json *it)
{
	const struct txc_json *role = txc_json_get(it, "role");
	bool mine = is(role, "assistant");
	struct xmsg *x = mine ? assistant(b) : next_msg(b, TXC_ROLE_USER);
	/* developer and system messages are instructions to the model, not the user's words */
	x->m.instructions = is(role, "developer") ? TXC_INSTR_DEVELOPER
			    : is(role, "system")  ? TXC_INSTR_SYSTEM
						  : TXC_INSTR_NONE;
	size_t from = x->bs.n;
	parts(b->tmp, &x->bs, txc_json_get(it, "content"));
	relocate(b, x, from);
	drop_empty(b);
}

/* reasoning: its summaries (and any plain reasoning text) as one thinking block, encrypted content kept */
/* part is in s: memmem's linear search (a naive one took 48 s over one 3 MB hostile rollout) */
static bool holds(struct txc_str s, struct txc_str part)
{
	if (part.len == 0)
		return true;
	return s.len >= part.len && memmem(s.ptr, s.len, part.ptr, part.len) != NULL;
}

static void reasoning_item(struct txc_codex_builder *b, const struct txc_json *it)
{
	struct txc_buf t = TXC_BUF_INIT;
	static const char *const lists[] = {"summary", "content"};
	for (size_t k = 0; k < 2; k++) {
		const struct txc_json *l = txc_json_get(it, lists[k]);
		for (size_t i = 0; l != NULL && l->kind == TXC_JSON_ARRAY && i < l->n; i++) {
			struct txc_str s = nonempty(txc_json_get(l->items[i], "text"));
			if (s.ptr == NULL)
				continue;
			if (t.len > 0)
				txc_buf_addstr(&t, "\n\n");
			txc_buf_add(&t, s.ptr, s.len);
		}
	}
	struct txc_str enc = nonempty(txc_json_get(it, "encrypted_content"));
	if (t.len == 0 && enc.ptr == NULL) {
		txc_buf_release(&t);
		return; /* nothing said, nothing to carry */
	}
	struct xmsg *x = assistant(b);
	struct txc_str said = {t.buf, t.len};
	/* the agent_reasoning events Codex recorded before the item it summarises (one a part): the item
	 * holds them; at most 64 (each search reads the item: thousands made a hostile file quadratic) */
	for (int k = 0; k < 64 && t.len > 0 && x->bs.n > 0 && x->bs.v[x->bs.n - 1].kind == TXC_BLOCK_THINKING &&
			x->bs.v[x->bs.n - 1].encrypted.len == 0 && holds(said, x->bs.v[x->bs.n - 1].text);
	     k++)
		x->bs.n--;
	struct txc_block *blk = add_block(&x->bs, TXC_BLOCK_THINKING);
	blk->text = txc_arena_str(b->t->arena, t.len ? t.buf : "", t.len);
	blk->encrypted = own(b->t->arena, enc);
	txc_buf_release(&t);
}

/*
 * event_msg agent_reasoning: the reasoning Codex shows.  Beside the reasoning item it summarises
 * (in either order) it says nothing more; alone it is reasoning no API could be sent back (txc's
 * writer carries another provider's reasoning so, --reasoning keep): a thinking block, once.
 */
static void agent_reasoning(struct txc_codex_builder *b, const struct txc_json *p)
{
	struct txc_str s = nonempty(txc_json_get(p, "text")), sig = TXC_STR_NULL, enc = TXC_STR_NULL;
	bool redacted = false;
	if (b->by_txc) { /* the signature and opaque reasoning txc's writer carries beside the text */
		sig = nonempty(txc_json_get(p, "txc_signature"));
		enc = nonempty(txc_json_get(p, "txc_encrypted"));
		if (enc.ptr == NULL && (enc = nonempty(txc_json_get(p, "txc_redacted"))).ptr != NULL)
			redacted = true;
	}
	if (s.ptr == NULL && enc.ptr == NULL && sig.ptr == NULL)
		return;
	struct xmsg *x = assistant(b);
	/* the item is among the last few thinking blocks (Codex writes its events beside it): looking
	 * further back made thousands of events in a row quadratic */
	for (size_t i = x->bs.n, k = 0; s.ptr != NULL && sig.ptr == NULL && enc.ptr == NULL && i-- > 0 && k < 8 &&
					x->bs.v[i].kind == TXC_BLOCK_THINKING;
	     k++)
		if (holds(x->bs.v[i].text, s))
			return; /* the item came first */
	struct txc_block *blk = add_block(&x->bs, TXC_BLOCK_THINKING);
	blk->text = s.ptr != NULL ? own(b->t->arena, s) : txc_str_c("");
	blk->signature = own(b->t->arena, sig);
	blk->encrypted = own(b->t->arena, enc);
	blk->redacted = redacted;
}

/* ---- calls ---- */

/* argv as one shell command line: words that need it in single quotes */
static bool argv_line(struct txc_buf *out, const struct txc_json *argv)
{
	if (argv == NULL || argv->kind != TXC_JSON_ARRAY || argv->n == 0)
		return false;
	for (size_t i = 0; i < argv->n; i++)
		if (argv->items[i]->kind != TXC_JSON_STRING)
			return false;
	/* ["bash", "-lc", SCRIPT]: the script is the command */
	if (argv->n == 3 &&
	    (txc_str_eq(argv->items[0]->s, "bash") || txc_str_eq(argv->items[0]->s, "sh") ||
	     txc_str_eq(argv->items[0]->s, "zsh")) &&
	    (txc_str_eq(argv->items[1]->s, "-lc") || txc_str_eq(argv->items[1]->s, "-c"))) {
		txc_buf_add(out, argv->items[2]->s.ptr, argv->items[2]->s.len);
		return true;
	}
	for (size_t i = 0; i < argv->n; i++) {
		struct txc_str w = argv->items[i]->s;
		bool plain = w.len > 0 && strspn(w.ptr, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
							"-_./=:,+@%") == w.len;
		txc_buf_addstr(out, i ? " " : "");
		if (plain) {
			txc_buf_add(out, w.ptr, w.len);
			continue;
		}
		txc_buf_addstr(out, "'");
		for (size_t k = 0; k < w.len; k++)
			txc_buf_addstr(out, w.ptr[k] == '\'' ? "'\\''" : (char[]){w.ptr[k], 0});
		txc_buf_addstr(out, "'");
	}
	return true;
}

/* the input of Claude's Bash from a shell call's, when every field maps; NULL when one does not */
static const struct txc_json *bash_input(struct txc_arena *a, const struct txc_json *in, const char *cmd_key)
{
	struct txc_json *o = txc_json_object(a, in->n);
	for (size_t i = 0; i < in->n; i++) {
		struct txc_str k = in->keys[i];
		const struct txc_json *v = in->items[i];
		struct txc_buf line = TXC_BUF_INIT;
		if (txc_str_eq(k, cmd_key) && v->kind == TXC_JSON_STRING) {
			txc_json_put(o, txc_str_c("command"), v);
		} else if (txc_str_eq(k, cmd_key) && argv_line(&line, v)) {
			txc_json_put(o, txc_str_c("command"), txc_json_string(a, line.buf, line.len));
		} else if ((txc_str_eq(k, "workdir") || txc_str_eq(k, "working_directory")) &&
			   v->kind == TXC_JSON_STRING) {
			txc_json_put(o, txc_str_c("workdir"), v);
		} else if (txc_str_eq(k, "timeout_ms") && v->kind == TXC_JSON_INT) {
			txc_json_put(o, txc_str_c("timeout_ms"), v);
		} else if (!(txc_str_eq(k, "type") && is(v, "exec"))) {
			txc_buf_release(&line);
			return NULL; /* a field Bash has no place for: the call keeps Codex's name */
		}
		txc_buf_release(&line);
	}
	return txc_json_get(o, "command") != NULL ? o : NULL;
}

/* the line at *i of s (without its '\n'); false at the end or for a last line without one, but
 * "*** End Patch" may end the text */
static bool patch_line(struct txc_str s, size_t *i, struct txc_str *line)
{
	if (*i >= s.len)
		return false;
	const char *nl = memchr(s.ptr + *i, '\n', s.len - *i);
	size_t end = nl ? (size_t)(nl - s.ptr) : s.len;
	*line = (struct txc_str){s.ptr + *i, end - *i};
	*i = nl ? end + 1 : end;
	return nl != NULL || txc_str_eq(*line, "*** End Patch");
}

/* a patch's run of lines marked mark, unmarked, each ending a line, into out */
static void patch_run(struct txc_str s, size_t *i, char mark, struct txc_buf *out)
{
	struct txc_str l;
	size_t at = *i;
	while (patch_line(s, &at, &l) && l.len > 0 && l.ptr[0] == mark) {
		txc_buf_add(out, l.ptr + 1, l.len - 1);
		txc_buf_addch(out, '\n');
		*i = at;
	}
}

static struct txc_json *json_buf(struct txc_arena *a, const struct txc_buf *b)
{
	return txc_json_string(a, b->len ? b->buf : "", b->len);
}

/*
 * Claude's Write, Edit or MultiEdit input of an apply_patch that says just what one of them says
 * (one file: an Add File of + lines, or an Update File of hunks each of - lines then + lines, no
 * context), as txc's writer makes them of Claude's; NULL for any other patch (it keeps its name).
 */
static const struct txc_json *patch_input(struct txc_arena *a, struct txc_str s, struct txc_str *name)
{
	static const char add[] = "*** Add File: ", upd[] = "*** Update File: ";
	struct txc_str l, path;
	size_t i = 0;
	if (s.len == 0 || s.ptr[s.len - 1] != '\n') /* txc's writer ends "*** End Patch" too: another is Codex's */
		return NULL;
	if (!patch_line(s, &i, &l) || !txc_str_eq(l, "*** Begin Patch") || !patch_line(s, &i, &l))
		return NULL;
	bool adding = l.len > sizeof(add) - 1 && memcmp(l.ptr, add, sizeof(add) - 1) == 0;
	size_t skip = adding ? sizeof(add) - 1 : sizeof(upd) - 1;
	if (!adding && !(l.len > skip && memcmp(l.ptr, upd, skip) == 0))
		return NULL;
	path = (struct txc_str){l.ptr + skip, l.len - skip};
	struct txc_json *o = txc_json_object(a, 3), *edits = txc_json_array(a, 1);
	txc_json_put(o, txc_str_c("file_path"), txc_json_string(a, path.ptr, path.len));
	struct txc_buf old = TXC_BUF_INIT, new = TXC_BUF_INIT;
	if (adding) {
		patch_run(s, &i, '+', &new);
		txc_json_put(o, txc_str_c("content"), json_buf(a, &new));
	}
	while (!adding && patch_line(s, &i, &l) && txc_str_eq(l, "@@")) {
		txc_buf_reset(&old);
		txc_buf_reset(&new);
		patch_run(s, &i, '-', &old);
		patch_run(s, &i, '+', &new);
		if (old.len == 0)
			break;
		struct txc_json *e = txc_json_object(a, 2);
		txc_json_put(e, txc_str_c("old_string"), json_buf(a, &old));
		txc_json_put(e, txc_str_c("new_string"), json_buf(a, &new));
		txc_json_push(edits, e);
		l = TXC_STR_NULL;
	}
	txc_buf_release(&old);
	txc_buf_release(&new);
	if ((adding && !patch_line(s, &i, &l)) || !txc_str_eq(l, "*** End Patch") || i != s.len ||
	    (!adding && edits->n == 0))
		return NULL;
	*name = txc_str_c(adding ? "Write" : edits->n == 1 ? "Edit" : "MultiEdit");
	if (!adding && edits->n == 1) {
		txc_json_put(o, txc_str_c("old_string"), txc_json_get(edits->items[0], "old_string"));
		txc_json_put(o, txc_str_c("new_string"), txc_json_get(edits->items[0], "new_string"));
	} else if (!adding) {
		txc_json_put(o, txc_str_c("edits"), edits);
	}
	return o;
}

/* Claude's name and input for a Codex tool where they map without loss (else name stays, input kept) */
static void tool_set(struct txc_codex_builder *b, struct txc_block *blk, struct txc_str name,
		     const struct txc_json *input)
{
	struct txc_arena *a = b->tmp;
	const struct txc_json *bash = NULL;
	if (input->kind == TXC_JSON_OBJECT && txc_str_eq(name, "exec_command"))
		bash = bash_input(a, input, "cmd");
	else if (input->kind == TXC_JSON_OBJECT &&
		 (txc_str_eq(name, "shell") || txc_str_eq(name, "local_shell") || txc_str_eq(name, "container.exec")))
		bash = bash_input(a, input, "command");
	blk->source_name = txc_arena_str(a, name.ptr, name.len);
	const struct txc_json *text = txc_json_get(input, "input");
	struct txc_str claude = TXC_STR_NULL;
	/* in a rollout txc wrote, an apply_patch that says what a Claude edit said was one (Codex's own
	 * sessions keep their patches as Codex made them) */
	const struct txc_json *edit =
		b->by_txc && txc_str_eq(name, "apply_patch") && text != NULL && text->kind == TXC_JSON_STRING
			? patch_input(a, text->s, &claude)
			: NULL;
	if (edit != NULL) { /* (its fields are the tool's: it is read as that tool) */
		txc_model_tool_set(a, blk, claude, edit);
		return;
	}
	txc_model_tool_set(a, blk, bash ? txc_str_c("Bash") : blk->source_name, bash ? bash : input);
	if (bash != NULL && blk->tool != TXC_TOOL_BASH) /* (fits Bash's fields: never otherwise) */
		txc_model_tool_set(a, blk, blk->source_name, input);
}

/* a call of any kind: a tool use on the assistant message it follows, its call id remembered */
static void call_item(struct txc_codex_builder *b, const struct txc_json *it, struct txc_str name,
		      const struct txc_json *input)
{
	struct txc_str id = nonempty(txc_json_get(it, "call_id"));
	if (id.ptr == NULL)
		id = nonempty(txc_json_get(it, "id"));
	struct xmsg *x = assistant(b);
	size_t from = x->bs.n;
	struct txc_block *blk = add_block(&x->bs, TXC_BLOCK_TOOL_USE);
	blk->id = id.ptr ? id : txc_str_c("");
	tool_set(b, blk, name, input ? input : txc_json_object(b->tmp, 0));
	relocate(b, x, from);
	blk = &x->bs.v[from];
	struct txc_strmap_entry *e = txc_strmap_put(&b->calls, blk->id.ptr, blk->id.len, NULL);
	e->ptr = (void *)(uintptr_t)blk->name.ptr; /* a view into t->arena */
	e->num = blk->name.len;
}

/* function_call: arguments are a JSON text, kept as the value it says (an object, or a string such as
 * the text txc's writer carries for arguments that were never JSON, as the Hermes reader keeps
 * them); one that does not parse is kept as {"arguments": text} */
static void function_call(struct txc_codex_builder *b, const struct txc_json *it)
{
	const struct txc_json *args = txc_json_get(it, "arguments"), *in = NULL;
	if (args != NULL && args->kind == TXC_JSON_STRING &&
	    txc_json_parse(b->tmp, args->s.ptr, args->s.len, &in) != 0) {
		struct txc_json *o = txc_json_object(b->tmp, 1);
		txc_json_put(o, txc_str_c("arguments"), args);
		in = o;
	} else if (args != NULL && args->kind == TXC_JSON_OBJECT) {
		in = args;
	}
	struct txc_str name = nonempty(txc_json_get(it, "name"));
	call_item(b, it, name.ptr ? name : txc_str_c("function"), in);
}

/* custom_tool_call (apply_patch, ...): its free-form input as {"input": text} */
static void custom_call(struct txc_codex_builder *b, const struct txc_json *it)
{
	const struct txc_json *text = txc_json_get(it, "input");
	struct txc_json *o = txc_json_object(b->tmp, 1);
	txc_json_put(o, txc_str_c("input"), text ? text : txc_json_string(b->tmp, "", 0));
	struct txc_str name = nonempty(txc_json_get(it, "name"));
	call_item(b, it, name.ptr ? name : txc_str_c("custom_tool"), o);
}

/* local_shell_call: its action is the input; web_search_call: its action, and its status as the result */
static void builtin_call(struct txc_codex_builder *b, const struct txc_json *it, const char *name, bool result)
{
	const struct txc_json *action = txc_json_get(it, "action");
	call_item(b, it, txc_str_c(name), action && action->kind == TXC_JSON_OBJECT ? action : NULL);
	if (!result)
		return;
	const struct txc_block *use = &b->ms[b->n - 1].bs.v[b->ms[b->n - 1].bs.n - 1];
	struct txc_str id = use->id, name_ = use->name; /* (next_msg may move the messages) */
	struct xmsg *x = next_msg(b, TXC_ROLE_USER);
	struct txc_block *blk = add_block(&x->bs, TXC_BLOCK_TOOL_RESULT);
	blk->id = id;
	blk->name = name_;
	struct txc_str status = nonempty(txc_json_get(it, "status"));
	blk->output_text = own(b->t->arena, status.ptr ? status : txc_str_c(""));
}

/* an output's parts (text and images) as a Claude-style content array */
static const struct txc_json *output_parts(struct txc_arena *a, const struct txc_json *l)
{
	struct txc_json *arr = txc_json_array(a, l->n);
	for (size_t i = 0; i < l->n; i++) {
		const struct txc_json *p = l->items[i];
		struct txc_str media, data, text = nonempty(txc_json_get(p, "text"));
		struct txc_json *o = txc_json_object(a, 2);
		if (data_url(nonempty(txc_json_get(p, "image_url")), &media, &data)) {
			struct txc_json *src = txc_json_object(a, 3);
			txc_json_put(src, txc_str_c("type"), txc_json_string(a, "base64", 6));
			txc_json_put(src, txc_str_c("media_type"), txc_json_string(a, media.ptr, media.len));
			txc_json_put(src, txc_str_c("data"), txc_json_string(a, data.ptr, data.len));
			txc_json_put(o, txc_str_c("type"), txc_json_string(a, "image", 5));
			txc_json_put(o, txc_str_c("source"), src);
		} else if (text.ptr != NULL) {
			txc_json_put(o, txc_str_c("type"), txc_json_string(a, "text", 4));
			txc_json_put(o, txc_str_c("text"), txc_json_string(a, text.ptr, text.len));
		} else {
			struct txc_buf t = TXC_BUF_INIT;
			txc_json_emit(&t, p, 0);
			txc_json_put(o, txc_str_c("type"), txc_json_string(a, "text", 4));
			txc_json_put(o, txc_str_c("text"), txc_json_string(a, t.buf, t.len));
			txc_buf_release(&t);
		}
		txc_json_push(arr, o);
	}
	return arr;
}

/* "Process exited with code N" (exec_command's report) or metadata.exit_code (shell's) other than 0 */
static bool failed(struct txc_arena *a, struct txc_str out)
{
	static const char mark[] = "Process exited with code ";
	const struct txc_json *v, *code;
	for (size_t i = 0; i + sizeof(mark) - 1 < out.len && i < 4096; i++)
		if (memcmp(out.ptr + i, mark, sizeof(mark) - 1) == 0)
			return out.ptr[i + sizeof(mark) - 1] != '0';
	if (out.len == 0 || out.ptr[0] != '{' || txc_json_parse(a, out.ptr, out.len, &v) != 0)
		return false;
	code = txc_json_get(txc_json_get(v, "metadata"), "exit_code");
	return code != NULL && code->kind == TXC_JSON_INT && !txc_str_eq(code->s, "0");
}

/* function_call_output, custom_tool_call_output: one user message of one result */
static void output_item(struct txc_codex_builder *b, const struct txc_json *it)
{
	struct txc_str id = nonempty(txc_json_get(it, "call_id"));
	const struct txc_json *out = txc_json_get(it, "output");
	const struct txc_strmap_entry *e = id.ptr ? txc_strmap_get(&b->calls, id.ptr, id.len) : NULL;
	if (e == NULL)
		b->unbound++;
	struct xmsg *x = next_msg(b, TXC_ROLE_USER);
	struct txc_block *blk = add_block(&x->bs, TXC_BLOCK_TOOL_RESULT);
	blk->id = id.ptr ? id : txc_str_c("");
	if (out != NULL && out->kind == TXC_JSON_OBJECT) { /* {"content": ..., "success": bool} */
		blk->is_error = txc_json_get(out, "success") && txc_json_get(out, "success")->kind == TXC_JSON_FALSE;
		out = txc_json_get(out, "content") ? txc_json_get(out, "content") : out;
	}
	if (out != NULL && out->kind == TXC_JSON_STRING) {
		const struct txc_json *v;
		blk->output_text = out->s;
		blk->output_json = txc_json_parse(b->tmp, out->s.ptr, out->s.len, &v) == 0 &&
				   (v->kind == TXC_JSON_OBJECT || v->kind == TXC_JSON_ARRAY);
		blk->is_error |= failed(b->tmp, out->s);
	} else if (out != NULL && out->kind == TXC_JSON_ARRAY) {
		blk->output = output_parts(b->tmp, out);
	} else if (out != NULL && out->kind != TXC_JSON_NULL) {
		blk->output = out;
	} else {
		blk->output_text = txc_str_c("");
	}
	relocate(b, x, 0);
	blk->name = e ? (struct txc_str){e->ptr, e->num} : TXC_STR_NULL; /* (in t->arena already) */
}

/* ---- records ---- */

static void response_item(struct txc_codex_builder *b, const struct txc_json *it)
{
	const char *type = txc_json_cstr(txc_json_get(it, "type"));
	if (type == NULL || it->kind != TXC_JSON_OBJECT)
		return;
	if (strcmp(type, "message") == 0)
		message_item(b, it);
	else if (strcmp(type, "reasoning") == 0)
		reasoning_item(b, it);
	else if (strcmp(type, "function_call") == 0)
		function_call(b, it);
	else if (strcmp(type, "custom_tool_call") == 0)
		custom_call(b, it);
	else if (strcmp(type, "local_shell_call") == 0)
		builtin_call(b, it, "local_shell", false);
	else if (strcmp(type, "web_search_call") == 0)
		builtin_call(b, it, "web_search", true);
	else if (strcmp(type, "function_call_output") == 0 || strcmp(type, "custom_tool_call_output") == 0 ||
		 strcmp(type, "local_shell_call_output") == 0)
		output_item(b, it);
	else /* an item txc has no kind for (a newer Codex's): said as text, never dropped */
		raw_part(b->t->arena, &assistant(b)->bs, it);
}

struct txc_str txc_codex_parent(const struct txc_json *payload)
{
	const struct txc_json *src = txc_json_get(payload, "source");
	const struct txc_json *spawn = txc_json_get(txc_json_get(src, "subagent"), "thread_spawn");
	return nonempty(txc_json_get(spawn, "parent_thread_id"));
}

/* the header: id, start, cwd, git branch, provider; the first wins (a forked file repeats its parent's) */
static void session_meta(struct txc_codex_builder *b, const struct txc_json *p)
{
	struct txc_meta *m = &b->t->meta;
	struct txc_arena *a = b->t->arena;
	double t;
	if (b->meta)
		return;
	b->meta = true;
	b->by_txc = is(txc_json_get(p, "originator"), "txc");
	b->spawned = txc_codex_parent(p).ptr != NULL;
	m->id = own(a, nonempty(txc_json_get(p, "id")));
	struct txc_str ts = nonempty(txc_json_get(p, "timestamp"));
	if (ts.ptr != NULL && txc_claude_time(ts.ptr, ts.len, &t)) {
		b->first = b->has_time && b->first < t ? b->first : t;
		b->last = b->has_time && b->last > t ? b->last : t;
		b->has_time = true;
	}
	m->cwd = own(a, nonempty(txc_json_get(p, "cwd")));
	m->git_branch = own(a, nonempty(txc_json_get(txc_json_get(p, "git"), "branch")));
	m->billing_provider = own(a, nonempty(txc_json_get(p, "model_provider")));
}

/* the token counts: the last token_count's running totals (OpenAI counts cached input inside input) */
static void token_count(struct txc_codex_builder *b, const struct txc_json *p)
{
	const struct txc_json *u = txc_json_get(txc_json_get(p, "info"), "total_token_usage");
	if (u == NULL || u->kind != TXC_JSON_OBJECT)
		return;
	int64_t in = int_or0(txc_json_get(u, "input_tokens")), cached = int_or0(txc_json_get(u, "cached_input_tokens"));
	b->usage[0] = in > cached ? in - cached : 0;
	b->usage[1] = int_or0(txc_json_get(u, "output_tokens"));
	b->usage[2] = cached;
	b->usage[3] = int_or0(txc_json_get(u, "reasoning_output_tokens"));
	b->usage[4] = int_or0(txc_json_get(u, "cache_write_input_tokens"));
	b->has_usage = true;
}

static void event_msg(struct txc_codex_builder *b, const struct txc_json *p)
{
	const struct txc_json *type = txc_json_get(p, "type");
	if (is(type, "token_count")) {
		token_count(b, p);
	} else if (is(type, "agent_reasoning")) {
		agent_reasoning(b, p);
	} else if (is(type, "user_message") && b->prompt.ptr == NULL) {
		b->prompt = own(b->t->arena, nonempty(txc_json_get(p, "message")));
	} else if (is(type, "thread_name_updated") || is(type, "thread_renamed")) {
		struct txc_str name = nonempty(txc_json_get(p, "thread_name"));
		if (name.ptr == NULL)
			name = nonempty(txc_json_get(p, "name"));
		if (name.ptr != NULL)
			b->thread_name = own(b->t->arena, name);
	}
}

/*
 * compacted: what came before is history Codex replaced; the replacement (the user turns it
 * kept and the summary) is the live conversation from here.  The summary is the replacement's
 * last user message when that holds it, else a message of its own.
 */
static void compacted(struct txc_codex_builder *b, const struct txc_json *p)
{
	for (size_t i = b->n_compacted; i < b->n; i++)
		b->ms[i].m.compacted = true;
	b->n_compacted = b->n;
	const struct txc_json *rh = txc_json_get(p, "replacement_history");
	struct txc_str summary = nonempty(txc_json_get(p, "message"));
	for (size_t i = 0; rh != NULL && rh->kind == TXC_JSON_ARRAY && i < rh->n; i++)
		response_item(b, rh->items[i]);
	struct xmsg *x = b->n > b->n_compacted ? &b->ms[b->n - 1] : NULL;
	if (x != NULL && x->m.role == TXC_ROLE_USER && x->bs.n > 0 && x->bs.v[0].kind == TXC_BLOCK_TEXT &&
	    (summary.ptr == NULL || holds(x->bs.v[0].text, summary))) {
		x->m.compact_summary = true;
	} else if (summary.ptr != NULL) {
		x = next_msg(b, TXC_ROLE_USER);
		add_block(&x->bs, TXC_BLOCK_TEXT)->text = own(b->t->arena, summary);
		x->m.compact_summary = true;
	}
}

static void record(struct txc_codex_builder *b, const struct txc_json *r)
{
	const struct txc_json *type = txc_json_get(r, "type"), *p = txc_json_get(r, "payload");
	struct txc_str ts = nonempty(txc_json_get(r, "timestamp"));
	double t;
	if (ts.ptr != NULL && txc_claude_time(ts.ptr, ts.len, &t)) {
		b->first = b->has_time && b->first < t ? b->first : t;
		b->last = b->has_time && b->last > t ? b->last : t;
		b->has_time = true;
		b->at = t;
	}
	b->lines = true;
	if (p == NULL || p->kind != TXC_JSON_OBJECT)
		return;
	if (is(type, "session_meta")) {
		session_meta(b, p);
	} else if (is(type, "turn_context")) {
		struct txc_str model = nonempty(txc_json_get(p, "model"));
		if (model.ptr != NULL)
			b->model = own(b->t->arena, model);
		if (b->t->meta.cwd.ptr == NULL)
			b->t->meta.cwd = own(b->t->arena, nonempty(txc_json_get(p, "cwd")));
	} else if (is(type, "response_item")) {
		response_item(b, p);
	} else if (is(type, "event_msg")) {
		event_msg(b, p);
	} else if (is(type, "compacted")) {
		compacted(b, p);
	}
}

static bool blank(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}

int txc_codex_add_line(struct txc_codex_builder *b, const char *line, size_t len)
{
	const struct txc_json *r;
	int rc = 1;
	if (!blank(line, len)) {
		rc = txc_json_parse(b->tmp, line, len, &r) == 0 && r->kind == TXC_JSON_OBJECT ? 0 : -1;
		if (rc == 0)
			record(b, r);
	}
	txc_arena_reset(b->tmp);
	return rc;
}

/* ---- the end ---- */

enum { PROMPT_TITLE_MAX = 100 }; /* characters of a prompt that make a title */

/* a title made of a prompt: its first line with text, trimmed, cut at PROMPT_TITLE_MAX characters
 * (an ellipsis then): a pasted 20 MB prompt is no title for `list` and every writer to repeat */
static struct txc_str prompt_title(struct txc_arena *a, struct txc_str s)
{
	size_t i = 0, end, n = 0;
	while (i < s.len && (s.ptr[i] == ' ' || s.ptr[i] == '\t' || s.ptr[i] == '\r' || s.ptr[i] == '\n'))
		i++;
	for (end = i; end < s.len && s.ptr[end] != '\n' && s.ptr[end] != '\r'; end++)
		if (((unsigned char)s.ptr[end] & 0xC0) != 0x80 && n++ == PROMPT_TITLE_MAX)
			break;
	bool cut = end < s.len && s.ptr[end] != '\n' && s.ptr[end] != '\r';
	while (end > i && (s.ptr[end - 1] == ' ' || s.ptr[end - 1] == '\t'))
		end--;
	if (!cut)
		return txc_arena_str(a, s.ptr + i, end - i);
	struct txc_buf t = TXC_BUF_INIT;
	txc_buf_add(&t, s.ptr + i, end - i);
	txc_buf_addstr(&t, "\xe2\x80\xa6"); /* … */
	struct txc_str r = txc_arena_str(a, t.buf, t.len);
	txc_buf_release(&t);
	return r;
}

/* the title: the thread's name, else the first prompt the user typed (Codex's own event), else the first
 * user text that is not context Codex added (<environment_context>, <user_instructions>, ...) */
static struct txc_str title(const struct txc_codex_builder *b)
{
	if (b->thread_name.ptr != NULL)
		return b->thread_name;
	if (b->prompt.ptr != NULL)
		return prompt_title(b->t->arena, b->prompt);
	for (size_t i = 0; i < b->n; i++) {
		const struct xmsg *x = &b->ms[i];
		for (size_t k = 0; x->m.role == TXC_ROLE_USER && !x->m.instructions && k < x->bs.n; k++)
			if (x->bs.v[k].kind == TXC_BLOCK_TEXT && x->bs.v[k].text.len > 0 &&
			    x->bs.v[k].text.ptr[0] != '<')
				return prompt_title(b->t->arena, x->bs.v[k].text);
	}
	return TXC_STR_NULL;
}

static void meta_totals(struct txc_codex_builder *b)
{
	struct txc_meta *m = &b->t->meta;
	m->title = title(b);
	if (m->id.ptr == NULL)
		m->id = txc_str_c("");                                /* the reader names it after, by its file */
	m->source = txc_str_c(b->spawned ? "subagent" : "codex-cli"); /* as the listing says */
	m->model = b->model;
	m->started_at = b->has_time ? b->first : 0;
	m->message_count = (int64_t)b->n;
	m->input_tokens = b->usage[0];
	m->output_tokens = b->usage[1];
	m->cache_read_tokens = b->usage[2];
	m->reasoning_tokens = b->usage[3];
	m->cache_write_tokens = b->usage[4];
	m->has_usage = b->has_usage && (b->usage[0] || b->usage[1] || b->usage[2] || b->usage[4]);
	for (size_t i = 0; i < b->n; i++)
		for (size_t k = 0; k < b->ms[i].bs.n; k++)
			m->tool_call_count += b->ms[i].bs.v[k].kind == TXC_BLOCK_TOOL_USE;
}

void txc_codex_end(struct txc_codex_builder *b, double *last_active, struct txc_codex_faults *f)
{
	struct txc_transcript *t = b->t;
	meta_totals(b);
	t->n_messages = b->n;
	t->messages = txc_arena_array(t->arena, b->n ? b->n : 1, sizeof(*t->messages));
	for (size_t i = 0; i < b->n; i++) {
		struct xmsg *x = &b->ms[i];
		x->m.blocks = txc_arena_array(t->arena, x->bs.n ? x->bs.n : 1, sizeof(*x->m.blocks));
		if (x->bs.n > 0)
			memcpy(x->m.blocks, x->bs.v, x->bs.n * sizeof(*x->bs.v));
		x->m.n_blocks = x->bs.n;
		x->m.number = (int64_t)i + 1; /* ID#N: its place */
		if (x->m.role == TXC_ROLE_ASSISTANT && x->bs.n > 0)
			x->m.stop =
				x->bs.v[x->bs.n - 1].kind == TXC_BLOCK_TOOL_USE ? TXC_STOP_TOOL_USE : TXC_STOP_END_TURN;
		free(x->bs.v);
		t->messages[i] = x->m;
	}
	if (last_active != NULL)
		*last_active = b->has_time ? b->last : NAN;
	if (f != NULL) {
		f->no_meta = !b->meta && b->lines;
		f->unbound = b->unbound;
	}
	free(b->ms);
	txc_strmap_free(&b->calls);
	txc_arena_free(b->tmp);
	free(b);
}
