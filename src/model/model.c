/*
 * model.c - the transcript model every harness maps into: tool kinds and
 * their fields, stop reasons, session ids, counts.  Each source's mapping
 * into it lives beside it (model_hermes.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "txc/model.h"

struct txc_transcript *txc_transcript_new(void)
{
	struct txc_arena *a = txc_arena_new(256 * 1024);
	struct txc_transcript *t = txc_arena_alloc(a, sizeof(*t));
	t->arena = a;
	return t;
}

static struct txc_str own(struct txc_arena *a, struct txc_str s)
{
	return s.ptr != NULL ? txc_arena_str(a, s.ptr, s.len) : s;
}

void txc_block_copy(struct txc_arena *a, struct txc_block *b)
{
	b->text = own(a, b->text);
	b->signature = own(a, b->signature);
	b->encrypted = own(a, b->encrypted);
	b->id = own(a, b->id);
	b->name = own(a, b->name);
	b->source_name = own(a, b->source_name);
	b->output_text = own(a, b->output_text);
	b->media_type = own(a, b->media_type);
	b->data = own(a, b->data);
	if (b->input != NULL)
		b->input = txc_json_copy(a, b->input);
	if (b->output != NULL)
		b->output = txc_json_copy(a, b->output);
}

void txc_transcript_free(struct txc_transcript *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n_parts; i++)
		txc_transcript_free(t->parts[i]);
	free(t->parts);
	txc_arena_free(t->arena);
}

/* ---- tools ---- */

static bool is_uint(const struct txc_json *v)
{
	return v != NULL && v->kind == TXC_JSON_INT && v->s.ptr[0] != '-' && v->s.len <= 20;
}

static bool is_bool(const struct txc_json *v)
{
	return v != NULL && (v->kind == TXC_JSON_TRUE || v->kind == TXC_JSON_FALSE);
}

static bool is_str(const struct txc_json *v)
{
	return v != NULL && v->kind == TXC_JSON_STRING;
}

struct field {
	const char *key;
	char type; /* s string, u uint, b bool, e edits */
	bool required;
};

static const struct field f_read[] = {{"file_path", 's', 1}, {"offset", 'u', 0}, {"limit", 'u', 0}, {0}};
static const struct field f_write[] = {{"file_path", 's', 1}, {"content", 's', 1}, {0}};
static const struct field f_edit[] = {
	{"file_path", 's', 1}, {"old_string", 's', 1}, {"new_string", 's', 1}, {"replace_all", 'b', 0}, {0}};
static const struct field f_edit1[] = {{"old_string", 's', 1}, {"new_string", 's', 1}, {"replace_all", 'b', 0}, {0}};
static const struct field f_multi[] = {{"file_path", 's', 1}, {"edits", 'e', 1}, {0}};
static const struct field f_bash[] = {{"command", 's', 1},     {"workdir", 's', 0},           {"timeout_ms", 'u', 0},
				      {"description", 's', 0}, {"run_in_background", 'b', 0}, {0}};
static const struct field f_command[] = {{"args", 's', 0}, {0}};

static bool fits(const struct txc_json *in, const struct field *fs);

static bool fits_value(const struct txc_json *v, char type)
{
	switch (type) {
	case 's': return is_str(v);
	case 'u': return is_uint(v);
	case 'b': return is_bool(v);
	case 'e':
		if (v->kind != TXC_JSON_ARRAY)
			return false;
		for (size_t i = 0; i < v->n; i++)
			if (!fits(v->items[i], f_edit1))
				return false;
		return true;
	}
	return false;
}

/* serde's deny_unknown_fields: every key known, required present, types right */
static bool fits(const struct txc_json *in, const struct field *fs)
{
	if (in == NULL || in->kind != TXC_JSON_OBJECT)
		return false;
	for (size_t i = 0; i < in->n; i++) {
		const struct field *f;
		for (f = fs; f->key; f++)
			if (txc_str_eq(in->keys[i], f->key))
				break;
		if (f->key == NULL)
			return false;
		const struct txc_json *v = in->items[i];
		if (v->kind == TXC_JSON_NULL && !f->required)
			continue;
		if (!fits_value(v, f->type))
			return false;
	}
	for (const struct field *f = fs; f->key; f++) {
		if (!f->required)
			continue;
		const struct txc_json *v = txc_json_get(in, f->key);
		if (v == NULL || v->kind == TXC_JSON_NULL)
			return false;
	}
	return true;
}

static const struct field *fields_of(enum txc_tool k)
{
	switch (k) {
	case TXC_TOOL_READ: return f_read;
	case TXC_TOOL_WRITE: return f_write;
	case TXC_TOOL_EDIT: return f_edit;
	case TXC_TOOL_MULTIEDIT: return f_multi;
	case TXC_TOOL_BASH: return f_bash;
	case TXC_TOOL_COMMAND: return f_command;
	case TXC_TOOL_RAW: break;
	}
	return NULL;
}

static enum txc_tool txc_model_tool_kind(const char *name, const struct txc_json *input)
{
	static const struct {
		const char *name;
		enum txc_tool kind;
	} named[] = {{"Read", TXC_TOOL_READ},
		     {"Write", TXC_TOOL_WRITE},
		     {"Edit", TXC_TOOL_EDIT},
		     {"MultiEdit", TXC_TOOL_MULTIEDIT},
		     {"Bash", TXC_TOOL_BASH}};
	enum txc_tool k = TXC_TOOL_RAW;
	if (name[0] == '/') {
		k = TXC_TOOL_COMMAND;
	} else {
		for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (strcmp(name, named[i].name) == 0)
				k = named[i].kind;
	}
	if (k == TXC_TOOL_RAW)
		return k;
	return fits(input, fields_of(k)) ? k : TXC_TOOL_RAW;
}

/* canonical input of a typed tool: present fields only, false bools and nulls dropped */
static const struct txc_json *canonical(struct txc_arena *a, const struct txc_json *in, enum txc_tool k)
{
	struct txc_json *o = txc_json_object(a, in->n);
	for (size_t i = 0; i < in->n; i++) {
		const struct txc_json *v = in->items[i];
		if (v->kind == TXC_JSON_NULL || v->kind == TXC_JSON_FALSE)
			continue;
		if (k == TXC_TOOL_MULTIEDIT && txc_str_eq(in->keys[i], "edits")) {
			struct txc_json *arr = txc_json_array(a, v->n);
			for (size_t j = 0; j < v->n; j++)
				txc_json_push(arr, canonical(a, v->items[j], TXC_TOOL_RAW));
			v = arr;
		}
		txc_json_put(o, in->keys[i], v);
	}
	return o;
}

void txc_model_tool_set(struct txc_arena *a, struct txc_block *b, struct txc_str name, const struct txc_json *input)
{
	b->name = name;
	b->tool = txc_model_tool_kind(name.ptr, input);
	b->input = b->tool == TXC_TOOL_RAW ? input : canonical(a, input, b->tool);
}

/* ---- stop reasons ---- */

enum txc_stop txc_model_stop_from_text(const char *s, size_t len)
{
	static const struct {
		const char *text;
		enum txc_stop stop;
	} map[] = {{"stop", TXC_STOP_END_TURN},
		   {"end_turn", TXC_STOP_END_TURN},
		   {"tool_calls", TXC_STOP_TOOL_USE},
		   {"tool_use", TXC_STOP_TOOL_USE},
		   {"length", TXC_STOP_MAX_TOKENS},
		   {"max_tokens", TXC_STOP_MAX_TOKENS},
		   {"stop_sequence", TXC_STOP_STOP_SEQUENCE},
		   {"aborted", TXC_STOP_ABORTED},
		   {"cancelled", TXC_STOP_ABORTED},
		   {"error", TXC_STOP_ERROR}};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].text) == len && memcmp(map[i].text, s, len) == 0)
			return map[i].stop;
	return TXC_STOP_OTHER;
}

const char *txc_model_stop_name(enum txc_stop s)
{
	switch (s) {
	case TXC_STOP_END_TURN: return "end_turn";
	case TXC_STOP_TOOL_USE: return "tool_use";
	case TXC_STOP_MAX_TOKENS: return "max_tokens";
	case TXC_STOP_STOP_SEQUENCE: return "stop_sequence";
	case TXC_STOP_ABORTED: return "aborted";
	case TXC_STOP_ERROR: return "error";
	case TXC_STOP_NONE:
	case TXC_STOP_OTHER: break;
	}
	return NULL;
}

void txc_model_id(struct txc_arena *a, const struct txc_json *v, enum txc_id_kind *kind, struct txc_str *text)
{
	struct txc_buf b = TXC_BUF_INIT;
	if (v == NULL || v->kind == TXC_JSON_NULL || (v->kind == TXC_JSON_STRING && v->s.len == 0)) {
		*kind = TXC_ID_NONE;
		*text = txc_arena_str(a, "", 0);
		return;
	}
	switch (v->kind) {
	case TXC_JSON_STRING: *kind = TXC_ID_TEXT, *text = v->s; return;
	case TXC_JSON_INT: *kind = TXC_ID_INT, *text = v->s; return;
	case TXC_JSON_BLOB: {
		static const char hx[] = "0123456789abcdef";
		*kind = TXC_ID_BLOB;
		txc_buf_addstr(&b, "x'");
		for (size_t i = 0; i < v->s.len; i++) {
			txc_buf_addch(&b, hx[(unsigned char)v->s.ptr[i] >> 4]);
			txc_buf_addch(&b, hx[(unsigned char)v->s.ptr[i] & 15]);
		}
		txc_buf_addch(&b, '\'');
		break;
	}
	default:
		*kind = v->kind == TXC_JSON_REAL ? TXC_ID_REAL : TXC_ID_JSON;
		txc_json_emit(&b, v, 0);
		break;
	}
	*text = txc_arena_str(a, b.buf, b.len);
	txc_buf_release(&b);
}

const char *txc_model_id_kind_name(enum txc_id_kind k)
{
	static const char *const names[] = {"text", "integer", "real", "blob", "json", "none", "duplicate"};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "none";
}

void txc_model_id_key(struct txc_buf *out, enum txc_id_kind kind, struct txc_str text)
{
	if (kind != TXC_ID_TEXT) {
		txc_buf_addstr(out, txc_model_id_kind_name(kind));
		txc_buf_addch(out, ':');
	}
	txc_buf_add(out, text.ptr ? text.ptr : "", text.len);
}

const struct txc_json *txc_block_output(const struct txc_block *b, struct txc_arena *scratch)
{
	const struct txc_json *v;
	if (b->output != NULL)
		return b->output;
	if (b->output_json && txc_json_parse(scratch, b->output_text.ptr, b->output_text.len, &v) == 0)
		return v;
	return NULL;
}

size_t txc_model_count_tool_uses(const struct txc_transcript *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n_messages; i++)
		for (size_t j = 0; j < t->messages[i].n_blocks; j++)
			n += t->messages[i].blocks[j].kind == TXC_BLOCK_TOOL_USE;
	return n;
}

/* The model's (Claude's) tool names Hermes names otherwise: the inverse of what model_hermes.c normalises */
const char *txc_model_hermes_name(struct txc_str name)
{
	static const char *const map[][2] = {
		{"Read", "read_file"}, {"Write", "write_file"}, {"Edit", "patch"}, {"Bash", "terminal"}};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (txc_str_eq(name, map[i][0]))
			return map[i][1];
	return NULL;
}
