/*
 * hermes_json.c - Hermes export files as a store: JSONL as written by
 * `hermes sessions export` or `txc export --json` (one session per line,
 * messages nested), or one pretty-printed session object.
 *
 * The file is read line by line: an index pass keeps each session's columns
 * and the line's offset; a session is parsed again, alone, when it is
 * loaded.  Standard input is copied to an unlinked temporary file first so
 * that it can be read the same way.  Also here: the incremental export
 * parser the dashboard reader uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source.h"

struct entry {
	const struct txc_json *session; /* columns + last_active, no messages */
	long offset;
	size_t len;
};

struct json_file {
	FILE *f;
	char *name;
	struct txc_arena *a; /* the index */
	struct entry *v;
	size_t n;
	bool whole; /* one pretty object: the file is the session */
};

static const struct txc_json *without_messages(struct txc_arena *a, const struct txc_json *o)
{
	struct txc_json *s = txc_json_object(a, o->n);
	for (size_t i = 0; i < o->n; i++)
		if (!txc_str_eq(o->keys[i], "messages"))
			txc_json_put(s, txc_arena_str(a, o->keys[i].ptr, o->keys[i].len), o->items[i]);
	return s;
}

static int add_entry(struct json_file *jf, const struct txc_json *o, long offset, size_t len)
{
	jf->v = txc_xrealloc(jf->v, (jf->n + 1) * sizeof(*jf->v));
	struct txc_arena *scratch = txc_arena_new(0);
	jf->v[jf->n].session = txc_json_copy(jf->a, without_messages(scratch, o)); /* out of scratch */
	txc_arena_free(scratch);
	jf->v[jf->n].offset = offset;
	jf->v[jf->n].len = len;
	jf->n++;
	return 0;
}

static bool is_session(const struct txc_json *o)
{
	const struct txc_json *id = txc_json_get(o, "id");
	return o->kind == TXC_JSON_OBJECT && id != NULL && (id->kind == TXC_JSON_STRING || id->kind == TXC_JSON_INT);
}

static void jf_close(void *impl)
{
	struct json_file *jf = impl;
	if (jf->f != NULL)
		fclose(jf->f);
	txc_arena_free(jf->a);
	free(jf->v);
	free(jf->name);
	free(jf);
}

static int jf_sessions(void *impl, struct txc_arena *a, const struct txc_json **out, struct txc_diag *d)
{
	(void)d;
	struct json_file *jf = impl;
	struct txc_json *arr = txc_json_array(a, jf->n);
	for (size_t i = 0; i < jf->n; i++)
		txc_json_push(arr, jf->v[i].session);
	*out = arr;
	return TXC_OK;
}

static int jf_load(void *impl, const char *id, struct txc_transcript *t, struct txc_diag *d)
{
	struct json_file *jf = impl;
	for (size_t i = 0; i < jf->n; i++) {
		const struct txc_json *iv = txc_json_get(jf->v[i].session, "id");
		if (iv->s.len != strlen(id) || memcmp(iv->s.ptr, id, iv->s.len) != 0)
			continue;
		char *buf = txc_xmalloc(jf->v[i].len + 1);
		const struct txc_json *o;
		if (fseek(jf->f, jf->v[i].offset, SEEK_SET) != 0 || fread(buf, 1, jf->v[i].len, jf->f) != jf->v[i].len) {
			free(buf);
			txc_diag_set(d, TXC_E_FAIL, "cannot read '%s' again: %s", jf->name, strerror(errno));
			return TXC_E_FAIL;
		}
		int rc = txc_json_parse(t->arena, buf, jf->v[i].len, &o);
		free(buf);
		if (rc != 0) {
			txc_diag_set(d, TXC_E_FAIL, "'%s' changed while txc read it", jf->name);
			return TXC_E_FAIL;
		}
		txc_source_split(t, o);
		return TXC_OK;
	}
	txc_diag_set(d, TXC_E_NOTFOUND, "no session '%s' in '%s'", id, jf->name);
	return TXC_E_NOTFOUND;
}

/* stdin cannot seek: keep a private copy, unlinked at once so it never outlives txc */
static FILE *spool_stdin(struct txc_diag *d)
{
	const char *dir = getenv("TMPDIR");
	struct txc_buf path = TXC_BUF_INIT;
	txc_buf_addf(&path, "%s/txc-input-XXXXXX", dir && dir[0] ? dir : "/tmp");
	int fd = mkstemp(path.buf);
	if (fd < 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot keep standard input in a temporary file: %s", strerror(errno));
		txc_buf_release(&path);
		return NULL;
	}
	unlink(path.buf);
	txc_buf_release(&path);
	FILE *f = fdopen(fd, "w+b");
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		if (fwrite(chunk, 1, n, f) != n) {
			txc_diag_set(d, TXC_E_FAIL, "cannot keep standard input in a temporary file: %s", strerror(errno));
			fclose(f);
			return NULL;
		}
	rewind(f);
	return f;
}

static int index_file(struct json_file *jf, bool skip_bad, struct txc_diag *d)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0, bad = 0;
	ssize_t len;
	long offset = 0;
	struct txc_arena *scratch = txc_arena_new(0);
	int rc = TXC_OK;
	while ((len = getline(&line, &cap, jf->f)) > 0) {
		lineno++;
		long here = offset;
		offset += len;
		size_t n = (size_t)len;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		size_t lead = 0;
		while (lead < n && (line[lead] == ' ' || line[lead] == '\t'))
			lead++;
		if (lead == n)
			continue;
		const struct txc_json *o;
		if (txc_json_parse(scratch, line, n, &o) == 0 && is_session(o)) {
			add_entry(jf, o, here, n);
		} else if (lineno == 1 && line[lead] == '{') {
			/* not a line of JSONL: maybe one pretty-printed session */
			rc = TXC_E_USAGE; /* the caller tries the whole file */
			break;
		} else if (skip_bad) {
			bad++;
		} else {
			txc_diag_set(d, TXC_E_BAD_LINE, "%s:%zu: not a Hermes session (invalid JSON or no id)", jf->name,
				     lineno);
			rc = TXC_E_BAD_LINE;
			break;
		}
		txc_arena_reset(scratch);
	}
	free(line);
	txc_arena_free(scratch);
	if (rc == TXC_OK && bad)
		txc_diag_warn(d, TXC_W_SKIPPED_LINES, jf->name, bad);
	return rc;
}

static int index_whole(struct json_file *jf, struct txc_diag *d)
{
	struct txc_buf all = TXC_BUF_INIT;
	char chunk[65536];
	size_t n;
	rewind(jf->f);
	while ((n = fread(chunk, 1, sizeof(chunk), jf->f)) > 0)
		txc_buf_add(&all, chunk, n);
	struct txc_arena *scratch = txc_arena_new(0);
	const struct txc_json *o;
	int rc = TXC_OK;
	if (txc_json_parse(scratch, all.buf, all.len, &o) == 0 && is_session(o)) {
		add_entry(jf, o, 0, all.len);
		jf->whole = true;
	} else {
		txc_diag_set(d, TXC_E_FAIL, "%s: not a Hermes session export (JSONL, or one JSON session object)", jf->name);
		rc = TXC_E_FAIL;
	}
	txc_arena_free(scratch);
	txc_buf_release(&all);
	return rc;
}

int txc_store_open_file(struct txc_store **out, const char *path, bool skip_bad, struct txc_diag *d)
{
	*out = NULL;
	struct json_file *jf = txc_xcalloc(1, sizeof(*jf));
	jf->name = txc_xstrdup(strcmp(path, "-") == 0 ? "standard input" : path);
	jf->a = txc_arena_new(0);
	jf->f = strcmp(path, "-") == 0 ? spool_stdin(d) : fopen(path, "rb");
	if (jf->f == NULL) {
		if (strcmp(path, "-") != 0)
			txc_diag_set(d, errno == ENOENT ? TXC_E_NOTFOUND : TXC_E_FAIL, "cannot open '%s': %s", path,
				     strerror(errno));
		jf_close(jf);
		return d->code;
	}
	int rc = index_file(jf, skip_bad, d);
	if (rc == TXC_E_USAGE) {
		jf->n = 0;
		rc = index_whole(jf, d);
	}
	if (rc) {
		jf_close(jf);
		return rc;
	}
	struct txc_source src = {jf, jf_close, jf_sessions, jf_load};
	return txc_store_from_source(out, jf->name, &src);
}

/* ---- the incremental export parser ---- */

struct txc_export_parser {
	struct txc_transcript *t;
	struct txc_buf head; /* the object without its messages' contents */
	struct txc_buf item; /* the message being read */
	struct txc_buf key;  /* the last string at depth 1 */
	struct txc_json *rows;
	size_t cap;
	int depth;
	bool in_str, esc, in_messages, key_done, bad;
	int item_depth; /* >0 while inside a message */
};

struct txc_export_parser *txc_export_parser_new(struct txc_transcript *t)
{
	struct txc_export_parser *p = txc_xcalloc(1, sizeof(*p));
	p->t = t;
	txc_buf_init(&p->head);
	txc_buf_init(&p->item);
	txc_buf_init(&p->key);
	p->rows = txc_json_array(t->arena, 0);
	return p;
}

static int push_row(struct txc_export_parser *p)
{
	const struct txc_json *v;
	if (txc_json_parse(p->t->arena, p->item.buf, p->item.len, &v) != 0)
		return -1;
	if (p->rows->n == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 64;
		const struct txc_json **items = txc_arena_array(p->t->arena, ncap, sizeof(*items));
		if (p->rows->n)
			memcpy(items, p->rows->items, p->rows->n * sizeof(*items));
		p->rows->items = items;
		p->cap = ncap;
	}
	p->rows->items[p->rows->n++] = v;
	txc_buf_reset(&p->item);
	return 0;
}

/* inside a string: follow escapes and the closing quote; true when c belonged to the string */
static bool string_step(struct txc_export_parser *p, char c)
{
	if (!p->in_str)
		return false;
	if (p->esc)
		p->esc = false;
	else if (c == '\\')
		p->esc = true;
	else if (c == '"')
		p->in_str = false;
	return true;
}

int txc_export_parser_feed(struct txc_export_parser *p, const char *data, size_t len)
{
	for (size_t i = 0; i < len && !p->bad; i++) {
		char c = data[i];
		if (p->in_messages && (p->item_depth > 0 || c == '{' || c == '[')) {
			/* inside the messages array: collect one element at a time */
			if (p->item_depth > 0 || (c == '{' || c == '['))
				txc_buf_addch(&p->item, c);
			if (string_step(p, c))
				continue;
			if (c == '"')
				p->in_str = true;
			else if (c == '{' || c == '[')
				p->item_depth++;
			else if ((c == '}' || c == ']') && --p->item_depth == 0 && push_row(p) != 0)
				p->bad = true;
			continue;
		}
		if (p->in_messages) {
			if (c == ']') { /* the end of the messages */
				p->in_messages = false;
				p->depth--;
				txc_buf_addstr(&p->head, "[]");
			} else if (!(c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
				p->bad = true; /* a scalar message */
			}
			continue;
		}
		txc_buf_addch(&p->head, c);
		bool was_escaped = p->esc;
		if (string_step(p, c)) {
			if (p->in_str && p->depth == 1 && p->key.len < 64 && (was_escaped || c != '\\'))
				txc_buf_addch(&p->key, c);
			continue;
		}
		if (c == '"') {
			p->in_str = true;
			if (p->depth == 1)
				txc_buf_reset(&p->key);
		} else if (c == '{' || c == '[') {
			if (c == '[' && p->depth == 1 && p->key_done && strcmp(p->key.buf, "messages") == 0) {
				p->head.len--; /* the '[' is written back as "[]" when the array ends */
				p->in_messages = true;
			}
			p->depth++;
		} else if (c == '}' || c == ']') {
			p->depth--;
		}
		if (p->depth == 1 && c == ':')
			p->key_done = true;
		else if (p->depth == 1 && c == ',')
			p->key_done = false;
	}
	return p->bad ? -1 : 0;
}

int txc_export_parser_finish(struct txc_export_parser *p)
{
	const struct txc_json *o;
	if (p->bad || p->in_messages || p->depth != 0 || txc_json_parse(p->t->arena, p->head.buf, p->head.len, &o) != 0 ||
	    o->kind != TXC_JSON_OBJECT)
		return -1;
	txc_source_split(p->t, o);
	p->t->rows = p->rows;
	return 0;
}

void txc_export_parser_free(struct txc_export_parser *p)
{
	if (p == NULL)
		return;
	txc_buf_release(&p->head);
	txc_buf_release(&p->item);
	txc_buf_release(&p->key);
	free(p);
}
