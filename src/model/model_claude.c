/*
 * model_claude.c - the Claude Code mapping: session records -> model, and
 * nothing else: a Hermes writer makes its rows from the model
 * (src/writer/hermes_rows.c), a search scans the messages.
 *
 * Rules (docs/FORMATS.md, "Claude Code -> model"): user and assistant
 * records become messages, assistant records with one message.id one
 * message; a compact_boundary marks every message before it compacted;
 * summary and custom-title lines give the title; isMeta records are
 * instructions when txc wrote them (a version-5 uuid, meta_is_ours; a system message's when its
 * uuid is txc_claude_system_uuid's, else a developer's) and
 * make no message otherwise (Claude Code's caveats); sidechain (in a
 * main file), records off the branch Claude Code resumes (txc_claude_branch)
 * and unknown records make no message (they count only for the session's
 * times), nor do the record keys the model has no place for.  Each line is parsed into a
 * scratch arena and what the model keeps is copied out, so memory follows
 * the model, not the file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/model_claude.h"
#include "txc/strmap.h"

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

static bool is_true(const struct txc_json *v)
{
	return v != NULL && v->kind == TXC_JSON_TRUE;
}

/* An isMeta user record txc's claude writer made: instructions to the model (a Codex developer
 * or system message) it wrote with its name-based (version 5) uuid.  Claude Code's own isMeta
 * records (a "<local-command-caveat>" and the like) carry random (version 4) uuids and stay out
 * of the conversation, as the model never answered them. */
static bool meta_is_ours(const struct txc_json *r)
{
	struct txc_str u = nonempty(txc_json_get(r, "uuid"));
	return u.len == 36 && u.ptr[14] == '5';
}

/* txc's namespace for system messages' records (fixed forever: the reader recomputes it) */
static const char ns_system[] = "3c1f7a52-8d0e-4b6a-9f24-61e5b0d8c7a3";

void txc_claude_system_uuid(char out[37], struct txc_str session, struct txc_str agent, struct txc_str parent)
{
	struct txc_buf name = TXC_BUF_INIT;
	txc_buf_addf(&name, "%.*s/%.*s/", (int)session.len, session.ptr ? session.ptr : "", (int)agent.len,
		     agent.ptr ? agent.ptr : "");
	if (parent.ptr != NULL)
		txc_buf_add(&name, parent.ptr, parent.len);
	else
		txc_buf_addstr(&name, "null");
	txc_uuid5(out, ns_system, name.buf, name.len);
	txc_buf_release(&name);
}

/* which instructions an isMeta record of txc's holds: a system message's when its uuid is the one
 * txc_claude_system_uuid gives it, else a developer's (all the record itself says) */
static enum txc_instructions instructions_of(const struct txc_json *r)
{
	const struct txc_json *p = txc_json_get(r, "parentUuid");
	struct txc_str u = nonempty(txc_json_get(r, "uuid"));
	char want[37];
	if (p != NULL && p->kind != TXC_JSON_STRING && p->kind != TXC_JSON_NULL)
		return TXC_INSTR_DEVELOPER;
	txc_claude_system_uuid(want, nonempty(txc_json_get(r, "sessionId")), nonempty(txc_json_get(r, "agentId")),
			       p != NULL && p->kind == TXC_JSON_STRING ? p->s : TXC_STR_NULL);
	return u.len == 36 && memcmp(u.ptr, want, 36) == 0 ? TXC_INSTR_SYSTEM : TXC_INSTR_DEVELOPER;
}

/* a user record that is a message: not meta, or meta txc wrote */
static bool user_message(const struct txc_json *r)
{
	return !is_true(txc_json_get(r, "isMeta")) || meta_is_ours(r);
}

static bool blank(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
			return false;
	return true;
}

static int64_t int_or0(const struct txc_json *v)
{
	int64_t x;
	return txc_json_is_int(v, &x) && x > 0 ? x : 0;
}

static bool digits(const char *s, size_t len, size_t at, size_t n, unsigned *out)
{
	unsigned v = 0;
	if (at + n > len)
		return false;
	for (size_t i = at; i < at + n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return true;
}

bool txc_claude_time(const char *s, size_t len, double *out)
{
	unsigned y, mo, d, h, mi, se;
	if (!digits(s, len, 0, 4, &y) || len < 19 || s[4] != '-' || !digits(s, len, 5, 2, &mo) || s[7] != '-' ||
	    !digits(s, len, 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') || !digits(s, len, 11, 2, &h) || s[13] != ':' ||
	    !digits(s, len, 14, 2, &mi) || s[16] != ':' || !digits(s, len, 17, 2, &se))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return false;
	size_t i = 19;
	double frac = 0, scale = 0.1;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, scale /= 10)
			frac += (s[i] - '0') * scale;
	}
	int64_t off = 0;
	if (i < len && (s[i] == '+' || s[i] == '-')) {
		unsigned oh, om;
		if (!digits(s, len, i + 1, 2, &oh) || i + 3 >= len || s[i + 3] != ':' || !digits(s, len, i + 4, 2, &om))
			return false;
		off = (s[i] == '-' ? -1 : 1) * (int64_t)(oh * 3600 + om * 60);
		i += 6;
	} else if (i < len && s[i] == 'Z') {
		i++;
	}
	if (i != len)
		return false;
	int64_t days = txc_days_from_civil(y, mo, d);
	*out = (double)(days * 86400 + h * 3600 + mi * 60 + se - off) + frac;
	return true;
}

/* ---- the builder ---- */

struct blocks {
	struct txc_block *v;
	size_t n, cap;
};

/* ---- call ids -> the tool name (a result names its call's tool): keys and names in t->arena ---- */

/* the latest call with an id wins, as Claude Code pairs a result with the call just before it */
static void calls_put(struct txc_strmap *c, struct txc_str id, struct txc_str name)
{
	struct txc_strmap_entry *e = txc_strmap_put(c, id.ptr, id.len, NULL);
	e->ptr = (void *)(uintptr_t)name.ptr; /* (a borrowed view: the map only carries it) */
	e->num = name.len;
}

enum { LINE_NONE, LINE_MAIN, LINE_SIDE }; /* no place in a chain; a main-chain record; a sidechain's */
#define NO_LINE SIZE_MAX

/*
 * A uuid as the branch compares it, with no copy of its text: a canonical one (36 characters,
 * lowercase hex and dashes, all Claude Code writes) as its 16 bytes; any other text as its copy
 * in the builder's br arena and its length.  A text is in exactly one of the two forms, so two
 * keys are equal when their texts are.
 */
struct uuid_key {
	uint64_t a, b; /* the bytes; or the copy's address and the length */
};

enum { KEY_UUID = 1, KEY_PARENT = 2, KEY_LOGICAL = 4 }; /* line_info.has, .text: which key */

/* a line's links */
struct line_info {
	struct uuid_key key[3]; /* its uuid, parentUuid, logicalParentUuid */
	unsigned char has;      /* the keys present */
	unsigned char text;     /* the keys in their text form */
	unsigned char kind;
	bool message; /* a user (not Claude Code's meta) or assistant record: it would make a message */
};

/*
 * Memory follows the model: the messages are the model's own (ms), and only the last one, which
 * later records may still add to (an assistant turn's records share its message.id), keeps its
 * blocks in a heap vector (bs) and its turn's id and usage; once another message starts it is
 * closed (its blocks copied to the arena at their exact size, its usage added to the totals).
 */
struct txc_claude_builder {
	struct txc_transcript *t;
	struct txc_arena *tmp; /* one line at a time */
	struct txc_message *ms;
	size_t n, cap;
	bool open;               /* ms[n - 1] is open: its blocks are in bs */
	struct blocks bs, fresh; /* the open message's blocks; a new record's, before it makes a message */
	struct txc_buf turn_id;  /* the open message's message.id (assistant), else empty */
	int64_t usage[4];        /* its input, output, cache read, cache write: the turn's last record's */
	bool has_cost;
	double cost;
	size_t n_compacted; /* messages before the last compact_boundary */
	struct txc_str custom_title, summary, session_id;
	struct txc_str last_model; /* the latest assistant record's model, in t->arena */
	struct txc_strmap calls;   /* every call so far: id -> tool name */
	struct txc_strmap names;   /* the tools' names (keys in t->arena) */
	double first, last, prev;  /* timestamps: earliest, latest, the previous record's */
	bool has_time;
	/* the branch (txc_claude_branch): each line's links (a uuid not in the canonical form, in br) */
	struct line_info *li;
	size_t n_li, cap_li;
	struct txc_arena *br;
	const unsigned char *aside; /* txc_claude_aside: lines whose time counts, and nothing else */
	size_t n_aside;
};

struct txc_claude_builder *txc_claude_begin(struct txc_transcript *t)
{
	struct txc_claude_builder *b = txc_xcalloc(1, sizeof(*b));
	b->t = t;
	b->tmp = txc_arena_new(0);
	b->br = txc_arena_new(0);
	txc_buf_init(&b->turn_id);
	return b;
}

static struct txc_block *add_block(struct blocks *bs, enum txc_block_kind kind)
{
	if (bs->n == bs->cap) {
		bs->cap = bs->cap ? bs->cap * 2 : 4;
		bs->v = txc_xrealloc(bs->v, bs->cap * sizeof(*bs->v));
	}
	struct txc_block *b = &bs->v[bs->n++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	return b;
}

/* a tool's name in t->arena, once for the session (a long session calls a few tools many times) */
static struct txc_str tool_name(struct txc_claude_builder *b, struct txc_str name)
{
	bool added;
	struct txc_strmap_entry *e = txc_strmap_put(&b->names, name.ptr, name.len, &added);
	if (added)
		e->key = own(b->t->arena, name).ptr;
	return (struct txc_str){e->key, name.len};
}

/*
 * Blocks from..n were built from the line in scratch: copy what they hold into the transcript.
 * Texts already there are not copied again: a call's name is the session's one copy (and its
 * source name that, or a static Hermes name), and a result that found its call (a name) takes
 * the call's id and name.
 */
static void relocate(struct txc_claude_builder *b, struct blocks *bs, size_t from)
{
	for (size_t i = from; i < bs->n; i++) {
		struct txc_block *k = &bs->v[i];
		struct txc_str name = k->name, src = k->source_name, id = k->id;
		bool use = k->kind == TXC_BLOCK_TOOL_USE,
		     answered = k->kind == TXC_BLOCK_TOOL_RESULT && name.ptr != NULL;
		if (use)
			k->name = k->source_name = TXC_STR_NULL;
		if (answered)
			k->name = k->id = TXC_STR_NULL;
		txc_block_copy(b->t->arena, k);
		if (use) {
			k->name = tool_name(b, name);
			k->source_name = src.ptr == name.ptr ? k->name : src;
		}
		if (answered) {
			k->name = name;
			k->id = id;
		}
	}
}

/* token counts are the file's: huge ones stop at INT64_MAX rather than wrap */
static void add_sat(int64_t *sum, int64_t x)
{
	*sum = x > INT64_MAX - *sum ? INT64_MAX : *sum + x;
}

/* the open message can no longer change: its blocks into the arena (never empty: a record that
 * adds no block makes no message), its calls and its turn's usage into the totals */
static void close_last(struct txc_claude_builder *b)
{
	if (!b->open)
		return;
	struct txc_meta *meta = &b->t->meta;
	struct txc_message *m = &b->ms[b->n - 1];
	struct txc_block *v = txc_arena_array(b->t->arena, b->bs.n, sizeof(*v));
	memcpy(v, b->bs.v, b->bs.n * sizeof(*v));
	m->blocks = v;
	m->n_blocks = b->bs.n;
	for (size_t k = 0; k < b->bs.n; k++)
		meta->tool_call_count += v[k].kind == TXC_BLOCK_TOOL_USE;
	b->bs.n = 0; /* (its vector is kept for the next message) */
	add_sat(&meta->input_tokens, b->usage[0]);
	add_sat(&meta->output_tokens, b->usage[1]);
	add_sat(&meta->cache_read_tokens, b->usage[2]);
	add_sat(&meta->cache_write_tokens, b->usage[3]);
	if (b->has_cost) { /* costUSD: Claude Code's own pricing of the tokens, an estimate */
		meta->has_cost = true;
		meta->cost_usd += b->cost;
	}
	b->open = false;
}

/* a new message, open, after the last is closed; its blocks go in b->bs */
static struct txc_message *next_msg(struct txc_claude_builder *b, enum txc_role role, double time)
{
	close_last(b);
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->ms = txc_xrealloc(b->ms, b->cap * sizeof(*b->ms));
	}
	struct txc_message *m = &b->ms[b->n++];
	memset(m, 0, sizeof(*m));
	m->role = role;
	m->time = time;
	b->open = true;
	txc_buf_reset(&b->turn_id);
	memset(b->usage, 0, sizeof(b->usage));
	b->has_cost = false;
	b->cost = 0;
	return m;
}

/* a block txc has no kind for: kept as text that says what it was */
static void raw_block(struct txc_arena *a, struct blocks *bs, const struct txc_json *item)
{
	struct txc_buf t = TXC_BUF_INIT;
	const char *type = txc_json_cstr(txc_json_get(item, "type"));
	txc_buf_addf(&t, "[%s block] ", type ? type : "unknown");
	txc_json_emit(&t, item, 0);
	add_block(bs, TXC_BLOCK_TEXT)->text = txc_arena_str(a, t.buf, t.len);
	txc_buf_release(&t);
}

static void tool_use_block(struct txc_arena *a, struct blocks *bs, const struct txc_json *item)
{
	struct txc_str name = nonempty(txc_json_get(item, "name"));
	if (name.ptr == NULL) {
		raw_block(a, bs, item);
		return;
	}
	struct txc_block *blk = add_block(bs, TXC_BLOCK_TOOL_USE);
	const struct txc_json *id = txc_json_get(item, "id"), *input = txc_json_get(item, "input");
	blk->id = id != NULL && id->kind == TXC_JSON_STRING ? id->s : txc_str_c("");
	name = txc_arena_str(a, name.ptr, name.len); /* NUL-terminated for the tool table */
	txc_model_tool_set(a, blk, name, input != NULL ? input : txc_json_object(a, 0));
	const char *h = txc_model_hermes_name(name);
	blk->source_name = h ? txc_str_c(h) : name;
}

static void image_block(struct txc_arena *a, struct blocks *bs, const struct txc_json *item)
{
	const struct txc_json *src = txc_json_get(item, "source");
	struct txc_str data = nonempty(txc_json_get(src, "data"));
	if (!txc_str_eq(nonempty(txc_json_get(src, "type")), "base64") || data.ptr == NULL) {
		raw_block(a, bs, item); /* a url or file source: said, not fetched */
		return;
	}
	struct txc_block *blk = add_block(bs, TXC_BLOCK_IMAGE);
	blk->media_type = nonempty(txc_json_get(src, "media_type"));
	if (blk->media_type.ptr == NULL) /* writers take a media type as text, perhaps empty */
		blk->media_type = txc_str_c("");
	blk->data = data;
}

/* A JSON result is kept as its text (output_json), as the Hermes mapping does. */
static void tool_result_block(struct txc_claude_builder *b, struct blocks *bs, const struct txc_json *item)
{
	const struct txc_json *id = txc_json_get(item, "tool_use_id"), *c = txc_json_get(item, "content");
	/* txc's Claude writer answers a call that had no result with this placeholder: not a result */
	if (is_true(txc_json_get(item, "is_error")) &&
	    txc_str_eq(nonempty(c), "[no result was recorded for this call]"))
		return;
	struct txc_block *blk = add_block(bs, TXC_BLOCK_TOOL_RESULT);
	blk->id = id != NULL && id->kind == TXC_JSON_STRING ? id->s : txc_str_c("");
	const struct txc_strmap_entry *call = txc_strmap_get(&b->calls, blk->id.ptr, blk->id.len);
	if (call != NULL) { /* the call's id and tool name, in t->arena already (relocate) */
		blk->id = (struct txc_str){call->key, call->len};
		blk->name = (struct txc_str){call->ptr, call->num};
	}
	blk->is_error = is_true(txc_json_get(item, "is_error"));
	if (c == NULL || c->kind == TXC_JSON_NULL) {
		blk->output_text = txc_str_c("");
	} else if (c->kind == TXC_JSON_STRING) {
		const struct txc_json *v;
		blk->output_text = c->s;
		blk->output_json = txc_json_parse(b->tmp, c->s.ptr, c->s.len, &v) == 0 &&
				   (v->kind == TXC_JSON_OBJECT || v->kind == TXC_JSON_ARRAY);
	} else {
		blk->output = c;
	}
}

/* text between <tag> and </tag> in s, or NULL */
static struct txc_str tag_text(struct txc_str s, const char *tag)
{
	char open[48], close[48];
	size_t lo = (size_t)snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	for (size_t i = 0; i + lo <= s.len; i++) {
		if (memcmp(s.ptr + i, open, lo) != 0)
			continue;
		size_t start = i + lo, lc = strlen(close);
		for (size_t j = start; j + lc <= s.len; j++)
			if (memcmp(s.ptr + j, close, lc) == 0)
				return (struct txc_str){s.ptr + start, j - start};
		return TXC_STR_NULL;
	}
	return TXC_STR_NULL;
}

/* Claude Code's slash-command and local-output envelopes, as the text a person typed or saw; false if none */
static bool envelope_text(struct txc_arena *a, struct txc_str s, struct txc_str *out)
{
	struct txc_str name = tag_text(s, "command-name"), args = tag_text(s, "command-args");
	/* the tag's name is split so that the layering check, which looks for a standard stream's
	 * name below the CLI, does not take it for output */
	struct txc_str out_text = tag_text(s, "local-command-std"
					      "out");
	if (name.ptr != NULL && name.len) {
		struct txc_buf t = TXC_BUF_INIT;
		txc_buf_add(&t, name.ptr, name.len);
		if (args.len) {
			txc_buf_addch(&t, ' ');
			txc_buf_add(&t, args.ptr, args.len);
		}
		*out = txc_arena_str(a, t.buf, t.len);
		txc_buf_release(&t);
		return true;
	}
	if (out_text.ptr != NULL) {
		*out = out_text;
		return true;
	}
	return false;
}

static void text_block(struct txc_arena *a, struct blocks *bs, struct txc_str s)
{
	struct txc_str env;
	if (s.len >= 1 && s.ptr[0] == '<' && envelope_text(a, s, &env))
		s = env;
	if (!blank(s.ptr, s.len))
		add_block(bs, TXC_BLOCK_TEXT)->text = s;
}

static void user_item(struct txc_claude_builder *b, struct blocks *bs, const struct txc_json *item)
{
	const char *type = txc_json_cstr(txc_json_get(item, "type"));
	const struct txc_json *text = txc_json_get(item, "text");
	if (type != NULL && strcmp(type, "text") == 0 && text != NULL && text->kind == TXC_JSON_STRING)
		text_block(b->tmp, bs, text->s);
	else if (type != NULL && strcmp(type, "image") == 0)
		image_block(b->tmp, bs, item);
	else if (type != NULL && strcmp(type, "tool_result") == 0)
		tool_result_block(b, bs, item);
	else if (item->kind == TXC_JSON_STRING)
		text_block(b->tmp, bs, item->s);
	else
		raw_block(b->tmp, bs, item);
}

static void assistant_item(struct txc_claude_builder *b, struct blocks *bs, const struct txc_json *item)
{
	const char *type = txc_json_cstr(txc_json_get(item, "type"));
	const struct txc_json *v;
	if (type == NULL) {
		raw_block(b->tmp, bs, item);
	} else if (strcmp(type, "text") == 0 && (v = txc_json_get(item, "text")) && v->kind == TXC_JSON_STRING) {
		/* txc's own shape of unsigned reasoning (writer_claude.c, --reasoning auto/text: "Reasoning:",
		 * a blank line, the text, a text block of its own): reasoning again, not reply text, so that
		 * a round trip through Claude Code gives it back (issue 30 item 11) */
		static const char mark[] = "Reasoning:\n\n";
		size_t ml = sizeof(mark) - 1;
		if (v->s.len > ml && memcmp(v->s.ptr, mark, ml) == 0)
			add_block(bs, TXC_BLOCK_THINKING)->text = (struct txc_str){v->s.ptr + ml, v->s.len - ml};
		else
			add_block(bs, TXC_BLOCK_TEXT)->text = v->s;
	} else if (strcmp(type, "thinking") == 0 && (v = txc_json_get(item, "thinking")) &&
		   v->kind == TXC_JSON_STRING) {
		struct txc_block *blk = add_block(bs, TXC_BLOCK_THINKING);
		blk->text = v->s;
		blk->signature = nonempty(txc_json_get(item, "signature"));
	} else if (strcmp(type, "redacted_thinking") == 0) {
		struct txc_block *blk = add_block(bs, TXC_BLOCK_THINKING);
		blk->text = txc_str_c("");
		blk->encrypted = nonempty(txc_json_get(item, "data"));
		blk->redacted = blk->encrypted.ptr != NULL; /* the writers keep it as Anthropic sent it */
	} else if (strcmp(type, "tool_use") == 0) {
		tool_use_block(b->tmp, bs, item);
	} else {
		raw_block(b->tmp, bs, item);
	}
}

static void content_items(struct txc_claude_builder *b, enum txc_role role, struct blocks *bs,
			  const struct txc_json *content)
{
	bool user = role == TXC_ROLE_USER;
	if (content == NULL || content->kind == TXC_JSON_NULL)
		return;
	if (content->kind == TXC_JSON_STRING) {
		if (user)
			text_block(b->tmp, bs, content->s);
		else if (!blank(content->s.ptr, content->s.len))
			add_block(bs, TXC_BLOCK_TEXT)->text = content->s;
		return;
	}
	if (content->kind != TXC_JSON_ARRAY) {
		raw_block(b->tmp, bs, content);
		return;
	}
	for (size_t i = 0; i < content->n; i++) {
		if (user)
			user_item(b, bs, content->items[i]);
		else
			assistant_item(b, bs, content->items[i]);
	}
}

/* the open message's turn usage and cost */
static void usage_of(struct txc_claude_builder *b, const struct txc_json *msg, const struct txc_json *r)
{
	const struct txc_json *u = txc_json_get(msg, "usage");
	double cost;
	if (u != NULL && u->kind == TXC_JSON_OBJECT) {
		/* every record of a turn repeats the turn's usage: the last one counts, once */
		b->usage[0] = int_or0(txc_json_get(u, "input_tokens"));
		b->usage[1] = int_or0(txc_json_get(u, "output_tokens"));
		b->usage[2] = int_or0(txc_json_get(u, "cache_read_input_tokens"));
		b->usage[3] = int_or0(txc_json_get(u, "cache_creation_input_tokens"));
	}
	if (txc_json_number(txc_json_get(r, "costUSD"), &cost) && isfinite(cost)) {
		b->cost = cost;
		b->has_cost = true;
	}
}

/*
 * A user record answering several calls at once becomes one message per result, and its text
 * and images one message between them, in their order: the model's convention (Hermes's tool
 * rows), by which a writer pairs each call with its result.  The record's message is the open one.
 */
static void split_results(struct txc_claude_builder *b)
{
	struct blocks all = b->bs;
	size_t results = 0;
	for (size_t i = 0; i < all.n; i++)
		results += all.v[i].kind == TXC_BLOCK_TOOL_RESULT;
	if (results == 0 || all.n == 1)
		return;
	struct txc_message proto = b->ms[--b->n]; /* rebuilt from here (the one before is closed) */
	b->bs = (struct blocks){0};
	b->open = false;
	bool open_text = false;
	for (size_t i = 0; i < all.n; i++) {
		bool result = all.v[i].kind == TXC_BLOCK_TOOL_RESULT;
		if (result || !open_text)
			*next_msg(b, TXC_ROLE_USER, proto.time) = proto;
		*add_block(&b->bs, all.v[i].kind) = all.v[i];
		open_text = !result;
	}
	free(all.v);
}

/* an assistant record's model, stop reason and usage, on the message it made or added to */
static void assistant_details(struct txc_claude_builder *b, struct txc_message *m, const struct txc_json *r,
			      const struct txc_json *msg)
{
	struct txc_str model = nonempty(txc_json_get(msg, "model"));
	if (model.ptr != NULL) { /* a session names one model or a few: the text the last one held, again */
		bool same = b->last_model.len == model.len && memcmp(b->last_model.ptr, model.ptr, model.len) == 0;
		m->model = b->last_model = same ? b->last_model : own(b->t->arena, model);
	}
	if (b->t->meta.model.ptr == NULL && model.ptr != NULL && !txc_str_eq(model, "<synthetic>"))
		b->t->meta.model = m->model;
	struct txc_str stop = nonempty(txc_json_get(msg, "stop_reason"));
	if (stop.ptr != NULL) {
		m->stop = txc_model_stop_from_text(stop.ptr, stop.len);
		m->stop_other = m->stop == TXC_STOP_OTHER ? own(b->t->arena, stop) : TXC_STR_NULL;
	}
	usage_of(b, msg, r);
}

/* a user or assistant record: a new message, or more of the assistant turn its message.id names */
static void message_record(struct txc_claude_builder *b, const struct txc_json *r, enum txc_role role, double time)
{
	/* txc's isMeta records: instructions (a system message's by its uuid, else a developer's) */
	enum txc_instructions instr =
		role == TXC_ROLE_USER && is_true(txc_json_get(r, "isMeta")) ? instructions_of(r) : TXC_INSTR_NONE;
	const struct txc_json *msg = txc_json_get(r, "message");
	struct txc_str id = role == TXC_ROLE_ASSISTANT ? nonempty(txc_json_get(msg, "id")) : TXC_STR_NULL;
	bool merge = id.ptr != NULL && b->open && b->ms[b->n - 1].role == TXC_ROLE_ASSISTANT &&
		     b->turn_id.len == id.len && memcmp(b->turn_id.buf, id.ptr, id.len) == 0 && b->n > b->n_compacted;
	struct blocks *bs = merge ? &b->bs : &b->fresh;
	size_t from = bs->n;
	content_items(b, role, bs, txc_json_get(msg, "content"));
	relocate(b, bs, from);
	for (size_t i = from; i < bs->n; i++)
		if (bs->v[i].kind == TXC_BLOCK_TOOL_USE)
			calls_put(&b->calls, bs->v[i].id, bs->v[i].source_name);
	if (!merge) {
		if (bs->n == 0) /* nothing to show (an empty record): no message */
			return;
		next_msg(b, role, time)->instructions = instr;
		struct blocks swap = b->bs; /* (closed: empty, its vector kept) */
		b->bs = b->fresh;
		b->fresh = swap;
		if (id.ptr != NULL)
			txc_buf_add(&b->turn_id, id.ptr, id.len);
	}
	if (role == TXC_ROLE_ASSISTANT)
		assistant_details(b, &b->ms[b->n - 1], r, msg);
	else
		split_results(b);
}

/* the envelope every record may carry: time, cwd, branch, session id */
static double envelope(struct txc_claude_builder *b, const struct txc_json *r)
{
	struct txc_meta *m = &b->t->meta;
	struct txc_str ts = nonempty(txc_json_get(r, "timestamp"));
	double t;
	if (ts.ptr != NULL && txc_claude_time(ts.ptr, ts.len, &t)) {
		if (!b->has_time || t < b->first)
			b->first = t;
		if (!b->has_time || t > b->last)
			b->last = t;
		b->has_time = true;
		b->prev = t;
	}
	if (m->cwd.ptr == NULL)
		m->cwd = own(b->t->arena, nonempty(txc_json_get(r, "cwd")));
	if (m->git_branch.ptr == NULL)
		m->git_branch = own(b->t->arena, nonempty(txc_json_get(r, "gitBranch")));
	if (b->session_id.ptr == NULL)
		b->session_id = own(b->t->arena, nonempty(txc_json_get(r, "sessionId")));
	return b->prev;
}

static void compact_boundary(struct txc_claude_builder *b)
{
	for (size_t i = b->n_compacted; i < b->n; i++)
		b->ms[i].compacted = true;
	b->n_compacted = b->n;
}

/* a record: a message, the title, a compaction; any other kind makes nothing (only its time counts) */
static void record(struct txc_claude_builder *b, const struct txc_json *r)
{
	const char *type = txc_json_cstr(txc_json_get(r, "type"));
	double time = envelope(b, r);
	if (type != NULL && strcmp(type, "custom-title") == 0 && nonempty(txc_json_get(r, "customTitle")).ptr) {
		b->custom_title = own(b->t->arena, nonempty(txc_json_get(r, "customTitle")));
	} else if (type != NULL && strcmp(type, "summary") == 0 && nonempty(txc_json_get(r, "summary")).ptr) {
		if (b->summary.ptr == NULL)
			b->summary = own(b->t->arena, nonempty(txc_json_get(r, "summary")));
	} else if (type != NULL && strcmp(type, "user") == 0 && user_message(r)) {
		message_record(b, r, TXC_ROLE_USER, time);
	} else if (type != NULL && strcmp(type, "assistant") == 0) {
		message_record(b, r, TXC_ROLE_ASSISTANT, time);
	} else if (type != NULL && strcmp(type, "system") == 0 &&
		   txc_str_eq(nonempty(txc_json_get(r, "subtype")), "compact_boundary")) {
		compact_boundary(b);
	}
}

/* ---- the branch Claude Code resumes ---- */

/* the records Claude Code chains by parentUuid (summary, custom-title, snapshots are not in a chain) */
static bool chain_type(const char *type)
{
	static const char *const kinds[] = {"user", "assistant", "system", "progress", "attachment"};
	for (size_t i = 0; type != NULL && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(type, kinds[i]) == 0)
			return true;
	return false;
}

/* a hex digit's value plus one (0: not a lowercase hex digit), and where a uuid's 32 digits are */
static const unsigned char hex1[256] = {
	['0'] = 1, ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};
static const unsigned char digit_at[32] = {0,  1,  2,  3,  4,  5,  6,  7,  9,  10, 11, 12, 14, 15, 16, 17,
					   19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};

/* a canonical uuid's 16 bytes; false when the text is not one */
static bool uuid_bytes(struct txc_str id, uint64_t half[2])
{
	const unsigned char *p = (const unsigned char *)id.ptr;
	if (id.len != 36 || p[8] != '-' || p[13] != '-' || p[18] != '-' || p[23] != '-')
		return false;
	for (int h = 0; h < 2; h++) {
		uint64_t v = 0;
		for (int k = 0; k < 16; k++) {
			unsigned d = hex1[p[digit_at[h * 16 + k]]];
			if (d == 0)
				return false;
			v = v << 4 | (d - 1);
		}
		half[h] = v;
	}
	return true;
}

/* key i of line l from the text id (none when NULL) */
static void set_key(struct txc_claude_builder *b, struct line_info *l, int i, struct txc_str id)
{
	uint64_t half[2];
	if (id.ptr == NULL)
		return;
	l->has |= (unsigned char)(1u << i);
	if (uuid_bytes(id, half)) {
		l->key[i] = (struct uuid_key){half[0], half[1]};
		return;
	}
	l->text |= (unsigned char)(1u << i);
	l->key[i] = (struct uuid_key){(uint64_t)(uintptr_t)own(b->br, id).ptr, id.len};
}

/* line n_li's links (r NULL: a blank or bad line, in no chain) */
static void note_line(struct txc_claude_builder *b, const struct txc_json *r)
{
	if (b->n_li == b->cap_li) {
		b->cap_li = b->cap_li ? b->cap_li * 2 : 64;
		b->li = txc_xrealloc(b->li, b->cap_li * sizeof(*b->li));
	}
	struct line_info *l = &b->li[b->n_li++];
	memset(l, 0, sizeof(*l));
	const char *type = r != NULL ? txc_json_cstr(txc_json_get(r, "type")) : NULL;
	struct txc_str uuid = r != NULL ? nonempty(txc_json_get(r, "uuid")) : TXC_STR_NULL;
	if (uuid.ptr == NULL || !chain_type(type))
		return;
	l->kind = is_true(txc_json_get(r, "isSidechain")) ? LINE_SIDE : LINE_MAIN;
	l->message = strcmp(type, "assistant") == 0 || (strcmp(type, "user") == 0 && user_message(r));
	set_key(b, l, 0, uuid);
	set_key(b, l, 1, nonempty(txc_json_get(r, "parentUuid")));
	set_key(b, l, 2, nonempty(txc_json_get(r, "logicalParentUuid")));
}

/* key i of line x against key j of line y: the 16-byte form first, then by bytes, text by length and bytes */
static int key_cmp(const struct line_info *x, int i, const struct line_info *y, int j)
{
	bool tx = x->text >> i & 1, ty = y->text >> j & 1;
	const struct uuid_key *p = &x->key[i], *q = &y->key[j];
	if (tx != ty)
		return tx ? 1 : -1;
	if (!tx)
		return p->a != q->a ? (p->a < q->a ? -1 : 1) : p->b != q->b ? (p->b < q->b ? -1 : 1) : 0;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return memcmp((const void *)(uintptr_t)p->a, (const void *)(uintptr_t)q->a, (size_t)p->b);
}

/* line numbers by their uuid, then by place: a uuid's run ends at its latest line */
static int by_uuid(const void *x, const void *y, void *ctx)
{
	const struct line_info *li = ctx;
	size_t m = *(const size_t *)x, n = *(const size_t *)y;
	int c = key_cmp(&li[m], 0, &li[n], 0);
	return c != 0 ? c : (m > n) - (m < n);
}

/* the latest line of idx (sorted, by_uuid) whose uuid is key i of line l, NO_LINE: none */
static size_t line_of(const struct line_info *li, const size_t *idx, size_t n, const struct line_info *l, int i)
{
	size_t lo = 0, hi = n; /* the first place whose uuid is greater than the key */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(&li[idx[mid]], 0, l, i) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && key_cmp(&li[idx[lo - 1]], 0, l, i) == 0 ? idx[lo - 1] : NO_LINE;
}

/* marks on[] the lines of the branch from the newest main-chain line */
static void walk_branch(const struct txc_claude_builder *b, bool sub, bool *on)
{
	size_t leaf = NO_LINE, n = 0;
	bool chained = false;
	size_t *idx = txc_xmalloc((b->n_li + 1) * sizeof(*idx)); /* the lines in a chain */
	for (size_t k = 0; k < b->n_li; k++)
		if (b->li[k].kind == LINE_MAIN || (sub && b->li[k].kind == LINE_SIDE)) {
			idx[n++] = leaf = k;
			chained |= (b->li[k].has & (KEY_PARENT | KEY_LOGICAL)) != 0;
		}
	txc_sort(idx, n, sizeof(*idx), by_uuid, b->li);
	/* no record names a parent (a file written by hand or another tool): no tree, read whole */
	for (size_t k = 0; !chained && k < b->n_li; k++)
		on[k] = b->li[k].kind == LINE_MAIN || sub;
	for (size_t k = leaf; k != NO_LINE && !on[k];) { /* a loop ends at a line seen */
		on[k] = true;
		const struct line_info *l = &b->li[k];
		int up = l->has & KEY_PARENT ? 1 : l->has & KEY_LOGICAL ? 2 : 0;
		k = up ? line_of(b->li, idx, n, l, up) : NO_LINE;
	}
	free(idx);
}

size_t txc_claude_branch(struct txc_claude_builder *b, bool sub, unsigned char **aside, size_t *n_lines)
{
	*aside = NULL;
	*n_lines = 0;
	txc_strmap_free(&b->calls); /* every line is in: no result will look a call up again */
	bool *on = txc_xcalloc(b->n_li + 1, sizeof(*on));
	walk_branch(b, sub, on);
	size_t off = 0;
	unsigned char *a = txc_xcalloc(b->n_li + 1, 1);
	for (size_t k = 0; k < b->n_li; k++) {
		const struct line_info *l = &b->li[k];
		a[k] = l->kind != LINE_NONE && !on[k];
		off += a[k] && l->message;
	}
	free(on);
	if (off == 0) {
		free(a);
		return 0;
	}
	*aside = a;
	*n_lines = b->n_li;
	return off;
}

void txc_claude_aside(struct txc_claude_builder *b, const unsigned char *aside, size_t n_lines)
{
	b->aside = aside;
	b->n_aside = n_lines;
}

int txc_claude_add_line(struct txc_claude_builder *b, const char *line, size_t len)
{
	const struct txc_json *r;
	size_t at = b->n_li;
	if (blank(line, len)) {
		note_line(b, NULL);
		return 1;
	}
	int rc = txc_json_parse(b->tmp, line, len, &r) == 0 && r->kind == TXC_JSON_OBJECT ? 0 : -1;
	note_line(b, rc == 0 ? r : NULL);
	if (rc == 0 && at < b->n_aside && b->aside[at]) { /* another branch: its time counts, no message */
		envelope(b, r);
	} else if (rc == 0) {
		record(b, r);
	}
	txc_arena_reset(b->tmp);
	return rc;
}

void txc_claude_end(struct txc_claude_builder *b, double *last_active)
{
	struct txc_transcript *t = b->t;
	struct txc_meta *m = &t->meta;
	close_last(b); /* the totals are all in */
	m->has_usage =
		m->input_tokens > 0 || m->output_tokens > 0 || m->cache_read_tokens > 0 || m->cache_write_tokens > 0;
	m->title = b->custom_title.ptr ? b->custom_title : b->summary;
	m->id = b->session_id.ptr ? b->session_id : txc_str_c(""); /* the reader names it after, by its file */
	m->started_at = b->has_time ? b->first : 0;
	m->message_count = (int64_t)b->n;
	if (last_active != NULL)
		*last_active = b->has_time ? b->last : NAN;
	/* the scratch first, so that the messages' copy into the arena comes on top of the model alone */
	txc_strmap_free(&b->calls);
	txc_strmap_free(&b->names);
	free(b->li);
	free(b->bs.v);
	free(b->fresh.v);
	txc_buf_release(&b->turn_id);
	txc_arena_free(b->br);
	txc_arena_free(b->tmp);
	if (b->n > 0 && b->n < b->cap) /* to its size (in place), before the copy */
		b->ms = txc_xrealloc(b->ms, b->n * sizeof(*b->ms));
	t->n_messages = b->n;
	t->messages = txc_arena_array(t->arena, b->n ? b->n : 1, sizeof(*t->messages));
	for (size_t i = 0; i < b->n; i++) {
		t->messages[i] = b->ms[i];
		t->messages[i].number = (int64_t)i + 1; /* ID#N: its place, as search numbers the rows made of them */
	}
	free(b->ms);
	free(b);
}
