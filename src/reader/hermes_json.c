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
#include <sys/stat.h>
#include <unistd.h>

#include "hermes_source.h"

static const struct txc_source_ops file_ops; /* (after jf_list: its functions come first) */

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
	long start; /* 3 after a UTF-8 byte order mark, which is skipped */
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
	return o->kind == TXC_JSON_OBJECT && id != NULL; /* an id of any type: store.c names it */
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

/* the line read again holds the session indexed there: same id, same JSON text */
static bool same_id(const struct txc_json *indexed, const struct txc_json *o)
{
	const struct txc_json *a = txc_json_get(indexed, "id");
	const struct txc_json *b = o->kind == TXC_JSON_OBJECT ? txc_json_get(o, "id") : NULL;
	return a != NULL && b != NULL && a->kind == b->kind && a->s.len == b->s.len &&
	       (a->s.len == 0 || memcmp(a->s.ptr, b->s.ptr, a->s.len) == 0);
}

static int jf_load(void *impl, size_t i, struct txc_transcript *t, struct txc_diag *d)
{
	struct json_file *jf = impl;
	if (i < jf->n) {
		char *buf = txc_xmalloc(jf->v[i].len + 1);
		const struct txc_json *o;
		if (fseek(jf->f, jf->v[i].offset, SEEK_SET) != 0 ||
		    fread(buf, 1, jf->v[i].len, jf->f) != jf->v[i].len) {
			free(buf);
			txc_diag_set(d, TXC_E_FAIL, "cannot read '%s' again: %s", jf->name, strerror(errno));
			return TXC_E_FAIL;
		}
		int rc = txc_json_parse(t->arena, buf, jf->v[i].len, &o);
		free(buf);
		if (rc != 0 || !same_id(jf->v[i].session, o)) { /* another session at that place: not used */
			txc_diag_set(d, TXC_E_FAIL, "'%s' changed while txc read it", jf->name);
			return TXC_E_FAIL;
		}
		txc_source_split(t, o);
		return TXC_OK;
	}
	txc_diag_set(d, TXC_E_NOTFOUND, "no session #%zu in '%s'", i + 1, jf->name);
	return TXC_E_NOTFOUND;
}

/* stdin or a pipe cannot seek: keep a private copy, unlinked at once so it never outlives txc */
static FILE *spool(FILE *in, struct txc_diag *d)
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
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		if (fwrite(chunk, 1, n, f) != n) {
			txc_diag_set(d, TXC_E_FAIL, "cannot keep standard input in a temporary file: %s",
				     strerror(errno));
			fclose(f);
			return NULL;
		}
	if (ferror(in)) { /* a directory or a device that fails: not an empty export */
		txc_diag_set(d, TXC_E_FAIL, "cannot read standard input: %s", strerror(errno));
		fclose(f);
		return NULL;
	}
	rewind(f);
	return f;
}

/* a leading UTF-8 byte order mark (some Windows editors write one) is not part of the JSON */
static void skip_bom(struct json_file *jf)
{
	unsigned char b[3];
	jf->start = fread(b, 1, 3, jf->f) == 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	fseek(jf->f, jf->start, SEEK_SET);
}

/*
 * lines_only: line 1 is a line like any other.  Otherwise a first line that
 * is not a session but starts with '{' returns TXC_E_USAGE: the file may be
 * one pretty-printed session, which the caller tries next.
 */
static int index_file(struct json_file *jf, bool skip_bad, bool lines_only, struct txc_diag *d)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0, bad = 0;
	ssize_t len;
	long offset = jf->start;
	fseek(jf->f, jf->start, SEEK_SET);
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
		} else if (lineno == 1 && line[lead] == '{' && !lines_only) {
			/* not a line of JSONL: maybe one pretty-printed session */
			rc = TXC_E_USAGE; /* the caller tries the whole file */
			break;
		} else if (skip_bad) {
			bad++;
		} else {
			txc_diag_set(d, TXC_E_BAD_LINE, "%s:%zu: not a Hermes session (invalid JSON or no id)",
				     jf->name, lineno);
			rc = TXC_E_BAD_LINE;
			break;
		}
		txc_arena_reset(scratch);
	}
	if (rc == TXC_OK && ferror(jf->f)) {
		txc_diag_set(d, TXC_E_FAIL, "cannot read '%s': %s", jf->name, strerror(errno));
		rc = TXC_E_FAIL;
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
	fseek(jf->f, jf->start, SEEK_SET);
	while ((n = fread(chunk, 1, sizeof(chunk), jf->f)) > 0)
		txc_buf_add(&all, chunk, n);
	struct txc_arena *scratch = txc_arena_new(0);
	const struct txc_json *o;
	int rc = TXC_OK;
	if (txc_json_parse(scratch, all.buf, all.len, &o) == 0 && is_session(o)) {
		add_entry(jf, o, jf->start, all.len);
		jf->whole = true;
	} else {
		/* a bad line like any other (line 1): its number, and the CLI's --skip-bad advice */
		txc_diag_set(
			d, TXC_E_BAD_LINE,
			"%s: not a Hermes session export (JSONL, or one JSON session object): line 1 is not a session",
			jf->name);
		rc = TXC_E_BAD_LINE;
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
	jf->f = strcmp(path, "-") == 0 ? spool(stdin, d) : fopen(path, "rb");
	if (jf->f == NULL) {
		if (strcmp(path, "-") != 0)
			txc_diag_set(d, errno == ENOENT ? TXC_E_NOTFOUND : TXC_E_FAIL, "cannot open '%s': %s", path,
				     strerror(errno));
		jf_close(jf);
		return d->code;
	}
	struct stat st = {0};
	st.st_mode = S_IFREG;
	if (fstat(fileno(jf->f), &st) == 0 && S_ISDIR(st.st_mode)) {
		txc_diag_set(d, TXC_E_USAGE,
			     "'%s' is a directory; --input takes an export file (JSONL or one JSON session) or -",
			     path);
		jf_close(jf);
		return TXC_E_USAGE;
	}
	if (!S_ISREG(st.st_mode) && strcmp(path, "-") != 0) { /* a pipe (<(…), /dev/stdin): read it once */
		FILE *copy = spool(jf->f, d);
		fclose(jf->f);
		jf->f = copy;
		if (copy == NULL) {
			jf_close(jf);
			return d->code;
		}
	}
	d->hint[0] = '\0';
	skip_bom(jf);
	int rc = index_file(jf, skip_bad, false, d);
	if (rc == TXC_E_USAGE) {
		jf->n = 0;
		rc = index_whole(jf, d);
		if (rc != TXC_OK && skip_bad) { /* not one session either: line 1 is just a bad line */
			d->code = TXC_OK;
			d->msg[0] = '\0';
			rc = index_file(jf, skip_bad, true, d);
		}
	}
	if (rc) {
		jf_close(jf);
		return rc;
	}
	*out = txc_store_new(&file_ops, jf, jf->name);
	return TXC_OK;
}

static int jf_list(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
		   struct txc_diag *d)
{
	const struct txc_json *all;
	int rc = jf_sessions(impl, a, &all, d);
	return rc ? rc : txc_source_infos(a, all, out, n);
}

static const struct txc_source_ops file_ops = {
	.name = "hermes-file",
	.caps = TXC_SRC_NATIVE_ROWS,
	.close = jf_close,
	.sessions = jf_list,
	.load_at = jf_load,
	.build = txc_hermes_build,
	.placed = txc_hermes_placed,
	.replay = txc_hermes_replay,
	.link = txc_source_link,
	.scan = txc_hermes_scan,
};

/* ---- the incremental export parser ---- */

/*
 * It reads the same JSON as txc_json_parse, only without holding the
 * messages: the top-level object is copied into `head` with every
 * "messages" array written as "[]", and each element of such an array is
 * parsed on its own as soon as it is complete.  Keys are compared after
 * decoding (an escaped "messag\u0065s" is "messages"), and when "messages"
 * appears twice the last one wins, as in Python's json (and txc_json_parse).
 * The separators inside a streamed array are checked here; everything else
 * is checked when the head is parsed, so a document is accepted exactly
 * when txc_json_parse accepts it (tests/fuzz/fuzz_diff.c holds it to that).
 */
enum want { W_FIRST, W_ITEM, W_SEP }; /* after '[', after ',', after an element */

struct txc_export_parser {
	struct txc_transcript *t;
	struct txc_buf head;          /* the object without its messages' contents */
	struct txc_buf item;          /* the element being read */
	struct txc_buf key;           /* the raw text of the last string at depth 1 */
	const struct txc_json **rows; /* heap while they come, then one arena copy */
	size_t n_rows, cap;
	int depth;
	bool in_str, esc, key_done, key_long, bad;
	bool in_messages, scalar; /* scalar: reading an element that is not an object or array */
	enum want want;
	int item_depth; /* >0 while inside an element that is an object or array */
};

struct txc_export_parser *txc_export_parser_new(struct txc_transcript *t)
{
	struct txc_export_parser *p = txc_xcalloc(1, sizeof(*p));
	p->t = t;
	txc_buf_init(&p->head);
	txc_buf_init(&p->item);
	txc_buf_init(&p->key);
	return p;
}

static int push_row(struct txc_export_parser *p)
{
	const struct txc_json *v;
	int rc = txc_json_parse(p->t->arena, p->item.buf, p->item.len, &v);
	txc_buf_reset(&p->item);
	p->scalar = false;
	p->want = W_SEP;
	if (rc != 0)
		return -1;
	if (p->n_rows == p->cap)
		p->rows = txc_xrealloc(p->rows, (p->cap = p->cap ? p->cap * 2 : 64) * sizeof(*p->rows));
	p->rows[p->n_rows++] = v;
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

static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* the last key at depth 1, decoded, is "messages" */
static bool key_is_messages(struct txc_export_parser *p)
{
	if (p->key_long)
		return false;
	if (memchr(p->key.buf, '\\', p->key.len) == NULL)
		return p->key.len == 8 && memcmp(p->key.buf, "messages", 8) == 0;
	struct txc_buf lit = TXC_BUF_INIT;
	txc_buf_addch(&lit, '"');
	txc_buf_add(&lit, p->key.buf, p->key.len);
	txc_buf_addch(&lit, '"');
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *v;
	bool yes = txc_json_parse(a, lit.buf, lit.len, &v) == 0 && txc_str_eq(v->s, "messages");
	txc_arena_free(a);
	txc_buf_release(&lit);
	return yes;
}

/* one byte inside a streamed "messages" array; -1 on bad JSON */
static int messages_step(struct txc_export_parser *p, char c)
{
	if (p->item_depth > 0) { /* inside an object or array element */
		txc_buf_addch(&p->item, c);
		if (string_step(p, c))
			return 0;
		if (c == '"')
			p->in_str = true;
		else if ((c == '{' || c == '[') && p->depth + ++p->item_depth > TXC_JSON_MAX_DEPTH)
			return -1; /* as deep as txc_json_parse refuses the whole document */
		else if ((c == '}' || c == ']') && --p->item_depth == 0)
			return push_row(p);
		return 0;
	}
	if (p->scalar) { /* a number, literal or string element */
		if (p->in_str) {
			txc_buf_addch(&p->item, c);
			string_step(p, c);
			return p->in_str ? 0 : push_row(p);
		}
		if (!is_space(c) && c != ',' && c != ']') {
			txc_buf_addch(&p->item, c);
			return 0;
		}
		if (push_row(p) != 0)
			return -1;
	}
	if (is_space(c))
		return 0;
	if (c == ',') {
		if (p->want != W_SEP)
			return -1;
		p->want = W_ITEM;
		return 0;
	}
	if (c == ']') { /* the end of the array */
		if (p->want == W_ITEM)
			return -1;
		p->in_messages = false;
		p->depth--;
		txc_buf_addstr(&p->head, "[]");
		return 0;
	}
	if (p->want == W_SEP)
		return -1;
	txc_buf_addch(&p->item, c);
	if (c == '{' || c == '[')
		p->item_depth = 1;
	else
		p->scalar = true;
	p->in_str = c == '"';
	return 0;
}

/* one byte of the object around the messages */
static void head_step(struct txc_export_parser *p, char c)
{
	txc_buf_addch(&p->head, c);
	if (string_step(p, c)) {
		if (p->in_str && p->depth == 1) { /* the raw key text, escapes kept */
			if (p->key.len < 256)
				txc_buf_addch(&p->key, c);
			else
				p->key_long = true;
		}
		return;
	}
	if (c == '"') {
		p->in_str = true;
		if (p->depth == 1) {
			txc_buf_reset(&p->key);
			p->key_long = false;
		}
	} else if (c == '{' || c == '[') {
		if (c == '[' && p->depth == 1 && p->key_done && key_is_messages(p)) {
			p->head.len--; /* the '[' is written back as "[]" when the array ends */
			p->in_messages = true;
			p->want = W_FIRST;
			p->n_rows = 0; /* a later "messages" replaces an earlier one */
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

int txc_export_parser_feed(struct txc_export_parser *p, const char *data, size_t len)
{
	for (size_t i = 0; i < len && !p->bad; i++) {
		if (p->in_messages) {
			if (messages_step(p, data[i]) != 0)
				p->bad = true;
		} else {
			head_step(p, data[i]);
		}
	}
	return p->bad ? -1 : 0;
}

int txc_export_parser_finish(struct txc_export_parser *p)
{
	const struct txc_json *o;
	if (p->bad || p->in_messages || p->depth != 0 ||
	    txc_json_parse(p->t->arena, p->head.buf, p->head.len, &o) != 0 || o->kind != TXC_JSON_OBJECT)
		return -1;
	txc_source_split(p->t, o);
	const struct txc_json *m = txc_json_get(o, "messages"); /* the last one: the parser keeps one key */
	if (m != NULL && m->kind == TXC_JSON_ARRAY) {
		struct txc_json *rows = txc_json_array(p->t->arena, p->n_rows);
		for (size_t i = 0; i < p->n_rows; i++)
			txc_json_push(rows, p->rows[i]);
		txc_hermes_native(p->t)->rows = rows;
	}
	return 0;
}

void txc_export_parser_free(struct txc_export_parser *p)
{
	if (p == NULL)
		return;
	txc_buf_release(&p->head);
	txc_buf_release(&p->item);
	txc_buf_release(&p->key);
	free(p->rows);
	free(p);
}
