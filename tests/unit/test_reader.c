/*
 * test_reader.c - each reader backend behind the store façade: the SQLite
 * store (an image built here, txc_store_open_image), the export file (a
 * temporary file); listing order, repeated ids, archived sessions, exact /
 * prefix / ambiguous names, export order, loads, streams, capabilities.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "txc/lineage.h"
#include "txc/model_hermes.h"
#include "txc/reader.h"
#include "txc/search.h"
#include "txc/writer_hermes.h"

#include "../../src/reader/hermes_source.h" /* the reader-private streaming export parser */

/* sessions: a repeated id, an integer id, an archived one; started_at decides the order */
static const char schema[] =
	"CREATE TABLE sessions (id, source TEXT, model TEXT, started_at REAL, message_count INTEGER, cwd TEXT,"
	" title TEXT, archived);"
	"CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT, content TEXT, timestamp REAL,"
	" active INTEGER DEFAULT 1);"
	"INSERT INTO sessions VALUES ('abc1', 'cli', 'm1', 300, 2, '/repo', 'First', 0);"
	"INSERT INTO sessions VALUES ('abc2', 'tui', 'm2', 200, 1, '/repo/x', 'Second', 0);"
	"INSERT INTO sessions VALUES ('xyz', 'cli', 'm1', 100, 0, NULL, 'Archived', 1);"
	"INSERT INTO sessions VALUES (7, 'cli', 'm3', 150, 0, NULL, 'Integer id', NULL);"
	"INSERT INTO sessions VALUES ('abc1', 'cli', 'm1', 50, 0, NULL, 'Repeat', 0);"
	"INSERT INTO messages (session_id, role, content, timestamp) VALUES ('abc1', 'user', 'hi', 301);"
	"INSERT INTO messages (session_id, role, content, timestamp) VALUES ('abc1', 'assistant', 'hello', 302);"
	"INSERT INTO messages (session_id, role, content, timestamp) VALUES ('abc2', 'user', 'late', 900);"
	"INSERT INTO messages (session_id, role, content, timestamp, active) VALUES ('abc2', 'user', 'old', 201, 0);";

static struct txc_store *open_db(const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_int64 len = 0;
	unsigned char *img = sqlite3_serialize(db, "main", &len, 0);
	sqlite3_close(db);
	assert_non_null(img);
	struct txc_store *s;
	struct txc_diag d = {0};
	assert_int_equal(txc_store_open_image(&s, img, (size_t)len, "test.db", &d), TXC_OK);
	sqlite3_free(img);
	return s;
}

/* the same sessions as an export file (no started_at order, last_active given) */
static const char jsonl[] =
	"{\"id\": \"abc2\", \"source\": \"tui\", \"started_at\": 200, \"message_count\": 1, \"title\": \"Second\", "
	"\"archived\": 0, \"last_active\": 900, \"messages\": [{\"role\": \"user\", \"content\": \"late\"}]}\n"
	"{\"id\": \"abc1\", \"source\": \"cli\", \"started_at\": 300, \"message_count\": 2, \"title\": \"First\", "
	"\"archived\": 0, \"last_active\": 302, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, "
	"{\"role\": \"assistant\", \"content\": \"hello\"}]}\n"
	"{\"id\": \"xyz\", \"source\": \"cli\", \"started_at\": 100, \"title\": \"Archived\", \"archived\": true, "
	"\"messages\": []}\n"
	"{\"id\": 7, \"source\": \"cli\", \"started_at\": 150, \"title\": \"Integer id\", \"messages\": []}\n"
	"{\"id\": \"abc1\", \"source\": \"cli\", \"started_at\": 50, \"title\": \"Repeat\", \"messages\": []}\n";

static char tmp_path[64];

static struct txc_store *open_file(const char *text)
{
	strcpy(tmp_path, "/tmp/txc-test-reader-XXXXXX");
	int fd = mkstemp(tmp_path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct txc_store *s;
	struct txc_diag d = {0};
	assert_int_equal(txc_store_open_file(&s, tmp_path, false, &d), TXC_OK);
	return s;
}

static void close_file(struct txc_store *s)
{
	txc_store_close(s);
	unlink(tmp_path);
}

static bool str_is(struct txc_str s, const char *want)
{
	return s.ptr != NULL && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

/* listing order: newest start first, whatever order the source has; repeats numbered; archived hidden */
static void check_listing(struct txc_store *s)
{
	static const char *const want[] = {"abc1", "abc2", "7", "abc1~2"};
	struct txc_arena *a = txc_arena_new(0);
	struct txc_diag d = {0};
	const struct txc_session_info *v;
	size_t n;
	assert_int_equal(txc_store_sessions(s, TXC_LIST_BRIEF, a, &v, &n, &d), TXC_OK);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		assert_true(str_is(v[i].sid.text, want[i]));
	assert_int_equal(v[2].sid.kind, TXC_ID_INT);
	assert_int_equal(v[3].sid.kind, TXC_ID_DUP);
	assert_true(str_is(v[0].title, "First"));
	assert_true(str_is(v[1].source, "tui"));
	assert_true(str_is(v[0].n_messages, "2"));
	assert_true(v[1].started == 200);
	assert_false(v[0].archived);
	assert_int_equal(txc_store_sessions(s, TXC_LIST_ARCHIVED, a, &v, &n, &d), TXC_OK);
	assert_int_equal(n, 5);
	assert_non_null(v[0].native);              /* a full listing has the rows (a brief one may not: issue 16) */
	assert_true(str_is(v[3].sid.text, "xyz")); /* in its place by start */
	assert_true(v[3].archived);
	txc_arena_free(a);
}

static void expect_resolve(struct txc_store *s, const char *arg, int rc, const char *want)
{
	struct txc_sid id = {0};
	struct txc_diag d = {0};
	assert_int_equal(txc_store_resolve(s, arg, &id, &d), rc);
	if (rc == TXC_OK) {
		assert_true(str_is(id.text, want));
		txc_sid_release(&id);
	} else {
		assert_int_equal(d.code, rc);
		if (want != NULL)
			assert_string_equal(d.hint, want);
	}
}

/* an exact id wins over the prefixes it is part of; a prefix must be unique; candidates in listing order */
static void check_resolve(struct txc_store *s)
{
	expect_resolve(s, "abc1", TXC_OK, "abc1");
	expect_resolve(s, "abc1~", TXC_OK, "abc1~2");
	expect_resolve(s, "xy", TXC_OK, "xyz"); /* archived sessions can be named */
	expect_resolve(s, "7", TXC_OK, "7");
	expect_resolve(s, "ab", TXC_E_AMBIGUOUS, "  abc1\n  abc2\n  abc1~2\n");
	expect_resolve(s, "nope", TXC_E_NOTFOUND, NULL);
}

/* Hermes's bulk-export order: last activity first */
static void check_export_order(struct txc_store *s)
{
	struct txc_sid *ids;
	size_t n;
	struct txc_diag d = {0};
	assert_int_equal(txc_store_export_order(s, &ids, &n, &d), TXC_OK);
	assert_int_equal(n, 5);
	assert_true(str_is(ids[0].text, "abc2")); /* last active at 900 */
	assert_true(str_is(ids[1].text, "abc1"));
	txc_store_free_ids(ids, n);
}

struct counter {
	size_t heads, rows;
	bool had_session;
};

static int count_head(void *ctx, const struct txc_transcript *t)
{
	struct counter *c = ctx;
	c->heads++;
	c->had_session = t->native != NULL && t->native->session != NULL && str_is(t->meta.id, "abc1");
	return 0;
}

static int count_row(void *ctx, const struct txc_json *row)
{
	(void)row;
	((struct counter *)ctx)->rows++;
	return 0;
}

/* a load names the transcript by its sid and carries Hermes's rows; a stream hands them on one by one */
static void check_load(struct txc_store *s)
{
	struct txc_sid id = {0};
	struct txc_diag d = {0};
	struct txc_transcript *t;
	assert_int_equal(txc_store_resolve(s, "abc1", &id, &d), TXC_OK);
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_OK);
	assert_true(str_is(t->meta.id, "abc1"));
	assert_true(str_is(t->meta.title, "First"));
	assert_int_equal(t->n_messages, 2);
	assert_non_null(t->native);
	assert_int_equal(t->native->rows->n, 2);
	assert_null(t->native->last_active); /* only with TXC_LOAD_LAST_ACTIVE */
	txc_transcript_free(t);
	assert_int_equal(txc_store_load(s, &id, TXC_LOAD_LAST_ACTIVE, &t, &d), TXC_OK);
	assert_non_null(t->native->last_active);
	txc_transcript_free(t);
	struct counter c = {0};
	struct txc_row_sink sink = {count_head, count_row, &c};
	assert_int_equal(txc_store_stream(s, &id, 0, &sink, &d), TXC_OK);
	assert_int_equal(c.heads, 1);
	assert_true(c.had_session);
	assert_int_equal(c.rows, 2);
	txc_sid_release(&id);
}

static void test_sqlite_backend(void **state)
{
	(void)state;
	struct txc_store *s = open_db(schema);
	check_listing(s);
	check_resolve(s);
	check_export_order(s);
	check_load(s);
	txc_store_close(s);
}

static void test_file_backend(void **state)
{
	(void)state;
	struct txc_store *s = open_file(jsonl);
	check_listing(s);
	check_resolve(s);
	check_export_order(s);
	check_load(s);
	close_file(s);
}

/* what each backend says it can do: the façade sorts and replays for the file */
static void test_capabilities(void **state)
{
	(void)state;
	struct txc_store *db = open_db(schema), *f = open_file(jsonl);
	unsigned want = TXC_SRC_EXPORT_ORDER | TXC_SRC_STREAM | TXC_SRC_FTS | TXC_SRC_NATIVE_ROWS | TXC_SRC_ORDERED |
			TXC_SRC_BY_ID;
	assert_int_equal(txc_store_caps(db), want);
	assert_int_equal(txc_store_caps(f), TXC_SRC_NATIVE_ROWS);
	assert_string_equal(txc_store_kind(db), "hermes-sqlite");
	assert_string_equal(txc_store_kind(f), "hermes-file");
	assert_string_equal(txc_store_path(db), "test.db");
	txc_store_close(db);
	close_file(f);
}

/* one definition of "archived" for every backend: true, or a number other than 0 */
static void test_archived(void **state)
{
	(void)state;
	static const char *const values[] = {"1", "1.0", "2", "0", "NULL", "'yes'"};
	static const char *const json_values[] = {"1", "1.0", "2", "0", "null", "\"yes\""};
	static const bool want[] = {true, true, true, false, false, false};
	struct txc_buf sql = TXC_BUF_INIT, js = TXC_BUF_INIT;
	txc_buf_addstr(&sql, "CREATE TABLE sessions (id TEXT, started_at REAL, archived);");
	for (size_t i = 0; i < 6; i++) {
		txc_buf_addf(&sql, "INSERT INTO sessions VALUES ('s%zu', %zu, %s);", i, 10 - i, values[i]);
		txc_buf_addf(&js, "{\"id\": \"s%zu\", \"started_at\": %zu, \"archived\": %s}\n", i, 10 - i,
			     json_values[i]);
	}
	struct txc_store *st[2] = {open_db(sql.buf), open_file(js.buf)};
	for (int k = 0; k < 2; k++) {
		struct txc_arena *a = txc_arena_new(0);
		struct txc_diag d = {0};
		const struct txc_session_info *v;
		size_t n;
		assert_int_equal(txc_store_sessions(st[k], TXC_LIST_ARCHIVED, a, &v, &n, &d), TXC_OK);
		assert_int_equal(n, 6);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(v[i].archived, want[i]);
		txc_arena_free(a);
	}
	txc_store_close(st[0]);
	close_file(st[1]);
	txc_buf_release(&sql);
	txc_buf_release(&js);
}

/* the streaming reader of one export object (a dashboard's answer), fed whole or byte by byte */
static int stream_export(const char *doc, size_t chunk, size_t *rows)
{
	struct txc_transcript *t = txc_transcript_new();
	struct txc_export_parser *p = txc_export_parser_new(t);
	size_t len = strlen(doc);
	int rc = 0;
	for (size_t i = 0; i < len && rc == 0; i += chunk)
		rc = txc_export_parser_feed(p, doc + i, len - i < chunk ? len - i : chunk);
	if (rc == 0)
		rc = txc_export_parser_finish(p);
	*rows = rc == 0 ? txc_hermes_native(t)->rows->n : 0;
	txc_export_parser_free(p);
	txc_transcript_free(t);
	return rc;
}

static void test_export_stream(void **state)
{
	(void)state;
	static const struct {
		const char *doc;
		int rc;
		size_t rows;
	} cases[] = {
		{"{\"id\": \"s\", \"title\": \"a\\\"b\\\\\", \"messages\": [{\"role\": \"user\", \"content\": \"x]}\\\"{\"},\n"
		 "\t[\"an array\"], {\"n\": {\"deep\": [1, {\"e\": \"]\"}]}}\r\n], \"after\": {\"messages\": [1]}}",
		 0, 3},
		{"{\"meta\": {\"messages\": [{\"x\": 1}]}, \"id\": \"s\", \"messages\": []}", 0, 0},
		{"{\"messages\": \"text\", \"x\": [{\"a\": 1}]}", 0, 0},
		{"{\"mess\\u0061ges\": [{\"a\": 1}], \"id\": \"s\"}", 0, 1}, /* keys compare decoded: "messages" */
		{"{\"a_key_longer_than_sixty_four_characters_is_kept_short_in_the_parser_xx\": 1, \"messages\": [{}]}",
		 0, 1},
		{"{\"id\": \"s\", \"messages\": [1]}", 0, 1}, /* a scalar message: JSON, kept as the file reader does */
		{"{\"id\": \"s\", \"messages\": [{\"a\": }]}", -1, 0}, /* a message that is not JSON */
		{"{\"id\": \"s\", \"messages\": [{\"a\": 1}", -1, 0},  /* cut in the messages */
		{"{\"id\": \"s\", \"messages\": [], \"x\": ", -1, 0},  /* cut after them */
		{"[{\"id\": \"s\"}]", -1, 0},                          /* not an object */
		{"{\"id\": \"s\"} trailing", -1, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t chunk = 1; chunk <= 4096; chunk *= 4096) {
			size_t rows = 99;
			assert_int_equal(stream_export(cases[i].doc, chunk, &rows), cases[i].rc);
			assert_int_equal(rows, cases[i].rows);
		}
	}
}

/* an export file rewritten after it was indexed: the session at that place is not used (nothing of another) */
static void rewrite(const char *text)
{
	FILE *f = fopen(tmp_path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_file_changed(void **state)
{
	(void)state;
	/* the second line is abc1's; each rewrite keeps every byte's place */
	static const struct {
		const char *from, *to, *why;
	} cases[] = {
		{"{\"id\": \"abc1\", \"source\"", "[\"id\", \"abc1\", \"source\"", "changed while txc read it"},
		{"{\"id\": \"abc1\", \"source\"", "{\"ix\": \"abc1\", \"source\"", "changed while txc read it"},
		{"{\"id\": \"abc1\", \"source\"", "{\"id\": 12345,  \"source\"", "changed while txc read it"},
		{"{\"id\": \"abc1\", \"source\"", "{\"id\": \"abc\",  \"source\"", "changed while txc read it"},
		{"{\"id\": \"abc1\", \"source\"", "{\"id\": \"abd1\", \"source\"", "changed while txc read it"},
		{"{\"id\": \"abc1\", \"source\"", "{\"id\": \"abc1\", \"source\"", NULL}, /* unchanged: read */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct txc_store *s = open_file(jsonl);
		struct txc_sid id = {0};
		struct txc_diag d = {0};
		struct txc_transcript *t = NULL;
		assert_int_equal(txc_store_resolve(s, "abc1", &id, &d), TXC_OK);
		const char *at = strstr(jsonl, "{\"id\": \"abc1\"");
		assert_int_equal(strlen(cases[i].from), strlen(cases[i].to));
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_add(&b, jsonl, (size_t)(at - jsonl));
		txc_buf_addstr(&b, cases[i].to);
		txc_buf_addstr(&b, at + strlen(cases[i].from));
		rewrite(b.buf);
		txc_buf_release(&b);
		int rc = txc_store_load(s, &id, 0, &t, &d);
		if (cases[i].why == NULL) {
			assert_int_equal(rc, TXC_OK);
			assert_true(str_is(t->meta.title, "First"));
			txc_transcript_free(t);
		} else {
			assert_int_equal(rc, TXC_E_FAIL);
			assert_non_null(strstr(d.msg, cases[i].why));
			assert_null(t);
		}
		txc_sid_release(&id);
		close_file(s);
	}
	/* cut short: the line cannot be read again */
	struct txc_store *s = open_file(jsonl);
	struct txc_sid id = {0};
	struct txc_diag d = {0};
	struct txc_transcript *t = NULL;
	assert_int_equal(txc_store_resolve(s, "abc1", &id, &d), TXC_OK);
	rewrite("{}\n");
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_E_FAIL);
	assert_non_null(strstr(d.msg, "' again: "));
	txc_sid_release(&id);
	close_file(s);
}

/* ids a store does not have, and what a backend cannot do, are said (not found, usage) */
static void test_not_there(void **state)
{
	(void)state;
	struct txc_store *db = open_db(schema), *f = open_file(jsonl);
	struct txc_diag d = {0};
	struct txc_transcript *t = NULL;
	int64_t last = 0;
	struct txc_sid far = {.kind = TXC_ID_TEXT, .text = {"abc1", 4}, .placed = true, .pos = 99};
	struct txc_sid nope = {.kind = TXC_ID_TEXT, .text = {"nope", 4}};
	assert_int_equal(txc_store_load(f, &far, 0, &t, &d), TXC_E_NOTFOUND);
	assert_int_equal(txc_store_load(f, &nope, 0, &t, &d), TXC_E_NOTFOUND);
	assert_non_null(strstr(d.msg, "no session 'nope' in '/tmp/txc-test-reader-"));
	struct counter c = {0};
	struct txc_row_sink sink = {count_head, count_row, &c};
	assert_int_equal(txc_store_stream(f, &nope, 0, &sink, &d), TXC_E_NOTFOUND);
	assert_int_equal(c.heads + c.rows, 0);
	assert_int_equal(txc_store_load_after(f, &nope, 0, 0, &t, &last, &d), TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "cannot follow '/tmp/txc-test-reader-"));
	assert_non_null(strstr(d.msg, "only a Hermes store (state.db) can be followed"));
	assert_int_equal(txc_store_load_after(db, &nope, 0, 0, &t, &last, &d), TXC_E_NOTFOUND);
	assert_null(t);
	assert_null(txc_store_file(db, 0)); /* a SQLite store names no files of its own */
	txc_store_close(db);
	close_file(f);
	/* an image that is empty, or not a database */
	struct txc_store *s = NULL;
	assert_int_equal(txc_store_open_image(&s, "", 0, "empty.db", &d), TXC_E_FAIL);
	assert_string_equal(d.msg, "'empty.db' is not a Hermes store: it has no sessions table");
	static const char junk[] = "this is not a database, it is text of more than a page? no, but it is not SQLite";
	assert_int_equal(txc_store_open_image(&s, junk, sizeof(junk), "junk.db", &d), TXC_E_FAIL);
	assert_null(s);
	assert_string_equal(d.msg, "'junk.db' is not a SQLite database (corrupt or not a Hermes store)");
}

/* a store whose messages lack a table or a column (id not its first column): listed and read; following it is
 * refused, said */
static void test_missing_columns(void **state)
{
	(void)state;
	static const struct {
		const char *messages; /* the messages table, or "" */
		size_t rows;
	} cases[] = {
		{"", 0},
		{"CREATE TABLE messages (id INTEGER PRIMARY KEY, role TEXT, content TEXT);"
		 "INSERT INTO messages (role, content) VALUES ('user', 'whose?');",
		 0},
		{"CREATE TABLE messages (session_id, role TEXT, content TEXT);"
		 "INSERT INTO messages VALUES ('s1', 'user', 'no id');",
		 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct txc_buf sql = TXC_BUF_INIT;
		txc_buf_addstr(&sql, "CREATE TABLE sessions (title TEXT, id TEXT, started_at REAL);"
				     "INSERT INTO sessions VALUES ('One', 's1', 1);");
		txc_buf_addstr(&sql, cases[i].messages);
		struct txc_store *s = open_db(sql.buf);
		txc_buf_release(&sql);
		struct txc_arena *a = txc_arena_new(0);
		struct txc_diag d = {0};
		const struct txc_session_info *v;
		size_t n;
		assert_int_equal(txc_store_sessions(s, TXC_LIST_FINGERPRINT | TXC_LIST_LAST_ACTIVE, a, &v, &n, &d),
				 TXC_OK);
		assert_int_equal(n, 1);
		assert_true(str_is(v[0].title, "One"));
		assert_int_equal(v[0].fingerprint.len, 32);
		struct txc_sid id = {0};
		struct txc_transcript *t = NULL;
		assert_int_equal(txc_store_resolve(s, "s1", &id, &d), TXC_OK);
		assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_OK);
		assert_int_equal(t->native->rows->n, cases[i].rows);
		txc_transcript_free(t);
		t = NULL;
		int64_t last = 0;
		assert_int_equal(txc_store_load_after(s, &id, 0, 0, &t, &last, &d), TXC_E_USAGE);
		assert_string_equal(d.msg, "cannot follow 'test.db': its messages have no id column");
		assert_null(t);
		txc_sid_release(&id);
		txc_arena_free(a);
		txc_store_close(s);
	}
}

static int refuse_head(void *ctx, const struct txc_transcript *t)
{
	(void)t;
	((struct counter *)ctx)->heads++;
	return TXC_E_REFUSED;
}

/* a sink that refuses the head gets no row; a session named by its place alone; a table without rowid */
static void test_stream_edges(void **state)
{
	(void)state;
	struct txc_store *s = open_db(schema);
	struct txc_diag d = {0};
	struct txc_sid id = {0};
	assert_int_equal(txc_store_resolve(s, "abc1", &id, &d), TXC_OK);
	struct counter c = {0};
	struct txc_row_sink refuse = {refuse_head, count_row, &c};
	assert_int_equal(txc_store_stream(s, &id, 0, &refuse, &d), TXC_E_REFUSED);
	assert_int_equal(c.heads, 1);
	assert_int_equal(c.rows, 0);
	struct txc_row_sink sink = {count_head, count_row, &c};
	c = (struct counter){0};
	assert_int_equal(txc_store_stream(s, &id, TXC_LOAD_MODEL_ONLY, &sink, &d), TXC_OK); /* a sink gets rows */
	assert_int_equal(c.rows, 2);
	txc_sid_release(&id);
	/* by place, without its text: the transcript is named "" and is the first row's */
	struct txc_sid placed = {.kind = TXC_ID_TEXT, .text = {NULL, 0}, .placed = true, .pos = 1};
	struct txc_transcript *t = NULL;
	assert_int_equal(txc_store_load(s, &placed, 0, &t, &d), TXC_OK);
	assert_true(str_is(t->meta.title, "First"));
	assert_int_equal(t->meta.id.len, 0);
	txc_transcript_free(t);
	txc_store_close(s);

	/* WITHOUT ROWID: sessions are found by their id, even when the sid has a place */
	s = open_db("CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL, title TEXT, cwd TEXT) WITHOUT ROWID;"
		    "INSERT INTO sessions VALUES ('w1', 1, 'No rowid', '');"
		    "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT, content TEXT);"
		    "INSERT INTO messages (session_id, role, content) VALUES ('w1', 'user', 'hi');");
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	assert_int_equal(txc_store_sessions(s, TXC_LIST_FINGERPRINT, a, &v, &n, &d), TXC_OK);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].fingerprint.len, 32);
	assert_int_equal(txc_store_resolve(s, "w1", &id, &d), TXC_OK);
	id.placed = true, id.pos = 1;
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_OK);
	assert_true(str_is(t->meta.title, "No rowid"));
	assert_int_equal(t->n_messages, 1);
	txc_transcript_free(t);
	txc_sid_release(&id);
	txc_arena_free(a);
	txc_store_close(s);
}

/* export order of a file whose sessions tie on every time: by id, then by place; repeats numbered */
static void test_export_ties(void **state)
{
	(void)state;
	struct txc_store *s = open_file("{\"id\": \"d\", \"started_at\": 1}\n{\"id\": \"x\", \"started_at\": 1}\n"
					"{\"id\": \"d\", \"started_at\": 1}\n{\"id\": \"\", \"started_at\": 1}\n");
	struct txc_sid *ids;
	size_t n;
	struct txc_diag d = {0};
	assert_int_equal(txc_store_export_order(s, &ids, &n, &d), TXC_OK);
	assert_int_equal(n, 4);
	assert_true(str_is(ids[0].text, "x")); /* id DESC, as shown: an empty id is "no-id~PLACE" */
	assert_true(str_is(ids[1].text, "no-id~4"));
	assert_true((str_is(ids[2].text, "d~2") && str_is(ids[3].text, "d")) ||
		    (str_is(ids[2].text, "d") && str_is(ids[3].text, "d~2")));
	assert_true(ids[2].placed && ids[3].placed && ids[2].pos + ids[3].pos == 4); /* places 1 and 3 */
	txc_store_free_ids(ids, n);
	close_file(s);
}

/* ---- a harness without rows (what a new reader is): the façade searches its model ---- */

static int bare_sessions(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
			 struct txc_diag *d)
{
	(void)impl, (void)flags, (void)d;
	struct txc_session_info *v = txc_arena_array(a, 1, sizeof(*v));
	memset(v, 0, sizeof(*v));
	v[0].sid = txc_source_sid(a, txc_json_string(a, "s1", 2), true, 1);
	v[0].title = txc_str_c("a title");
	v[0].source = txc_str_c("subagent");
	v[0].started = 5;
	v[0].last_active = 0.0 / 0.0;
	v[0].native = txc_json_object(a, 0);
	*out = v;
	*n = 1;
	return TXC_OK;
}

static struct txc_message bare_msg(struct txc_transcript *t, enum txc_role role, int64_t number, size_t n_blocks)
{
	struct txc_message m = {.role = role, .number = number, .time = 100.0 + (double)number, .n_blocks = n_blocks};
	m.blocks = txc_arena_array(t->arena, n_blocks, sizeof(*m.blocks));
	memset(m.blocks, 0, n_blocks * sizeof(*m.blocks));
	return m;
}

static int bare_load(void *impl, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		     struct txc_diag *d)
{
	(void)impl, (void)id, (void)flags, (void)d;
	struct txc_transcript *t = txc_transcript_new();
	struct txc_arena *a = t->arena;
	t->messages = txc_arena_array(a, 3, sizeof(*t->messages));
	t->n_messages = 3;
	t->messages[0] = bare_msg(t, TXC_ROLE_USER, 1, 1);
	t->messages[0].blocks[0] = (struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c("hello world")};
	t->messages[1] = bare_msg(t, TXC_ROLE_ASSISTANT, 2, 3);
	t->messages[1].blocks[0] = (struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c("alpha")};
	t->messages[1].blocks[1] =
		(struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c("omega"), .replayed = true};
	struct txc_json *in = txc_json_object(a, 1);
	txc_json_put(in, txc_str_c("file_path"), txc_json_string(a, "notes.txt", 9));
	t->messages[1].blocks[2] = (struct txc_block){
		.kind = TXC_BLOCK_TOOL_USE, .id = txc_str_c("c1"), .name = txc_str_c("Read"), .input = in};
	t->messages[2] = bare_msg(t, TXC_ROLE_USER, 3, 1);
	t->messages[2].compacted = true;
	t->messages[2].blocks[0] = (struct txc_block){.kind = TXC_BLOCK_TOOL_RESULT,
						      .id = txc_str_c("c1"),
						      .name = txc_str_c("Read"),
						      .output_text = txc_str_c("beta")};
	*out = t;
	return TXC_OK;
}

static void bare_close(void *impl)
{
	(void)impl;
}

static const struct txc_source_ops bare_ops = {
	.name = "bare", .caps = TXC_SRC_BY_ID, .close = bare_close, .sessions = bare_sessions, .load = bare_load};

struct got_hits {
	char text[512];
};

static int keep_hit(void *ctx, const struct txc_hit *h)
{
	struct got_hits *g = ctx;
	size_t n = strlen(g->text);
	double ts = 0;
	txc_json_number(h->timestamp, &ts);
	snprintf(g->text + n, sizeof(g->text) - n, "#%zu %.*s %.*s %s%g;", h->number, (int)h->role.len, h->role.ptr,
		 (int)h->tool_name.len, h->tool_name.ptr ? h->tool_name.ptr : "", h->compacted ? "c " : "", ts);
	return 0;
}

static const char *bare_search(struct txc_store *s, const char *query, const char *role, const char *tool,
			       struct got_hits *g)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	struct txc_diag d = {0};
	assert_int_equal(txc_store_sessions(s, 0, a, &v, &n, &d), TXC_OK);
	struct txc_query q = {0};
	assert_int_equal(txc_query_parse(query, strlen(query), &q, &d), TXC_OK);
	struct txc_search_opts o = {.role = role, .tool = tool};
	struct txc_hit_sink sink = {keep_hit, g};
	struct txc_search_info info;
	const struct txc_session_info *sel[1] = {&v[0]};
	g->text[0] = '\0';
	assert_int_equal(txc_store_search(s, &q, &o, sel, 1, &sink, &info, &d), TXC_OK);
	assert_string_equal(info.index, "scan");
	assert_non_null(strstr(info.how, "bare has no full-text index: every selected session's messages were read"));
	txc_query_free(&q);
	txc_arena_free(a);
	return g->text;
}

static int no_head(void *ctx, const struct txc_transcript *t)
{
	(void)ctx, (void)t;
	return 0;
}

static void test_model_scan(void **state)
{
	(void)state;
	struct txc_store *s = txc_store_new(&bare_ops, NULL, "bare-place");
	struct got_hits g;
	assert_string_equal(bare_search(s, "hello", NULL, NULL, &g), "#1 user  101;");
	assert_string_equal(bare_search(s, "alpha", "assistant", "Read", &g), "#2 assistant Read 102;");
	assert_string_equal(bare_search(s, "omega", NULL, NULL, &g), "#2 assistant Read 102;"); /* replayed text */
	assert_string_equal(bare_search(s, "notes", NULL, NULL, &g), "#2 assistant Read 102;"); /* a tool's input */
	assert_string_equal(bare_search(s, "beta", NULL, NULL, &g), "#3 tool Read c 103;");     /* a tool's output */
	assert_string_equal(bare_search(s, "beta", "user", NULL, &g), "");
	assert_string_equal(bare_search(s, "hello", NULL, "Read", &g), "");
	/* no rows to stream: the Hermes writer makes them from the model */
	struct txc_diag d = {0};
	struct txc_sid id = {.kind = TXC_ID_TEXT, .text = txc_str_c("s1"), .placed = true, .pos = 1};
	struct txc_row_sink rs = {no_head, NULL, NULL};
	assert_int_equal(txc_store_stream(s, &id, 0, &rs, &d), TXC_E_USAGE);
	assert_non_null(strstr(d.msg, "'bare-place' has no rows to stream"));
	/* links from the summary alone */
	struct txc_arena *a = txc_arena_new(0);
	struct txc_link *l;
	size_t n;
	assert_int_equal(txc_store_links(s, a, &l, &n, &d), TXC_OK);
	assert_int_equal(n, 1);
	assert_true(txc_str_eq(l[0].title, "a title"));
	assert_null(l[0].parent.ptr);
	assert_true(l[0].delegate);
	assert_false(l[0].tool);
	assert_true(l[0].started == 5);
	assert_true(l[0].ended != l[0].ended); /* NAN: still open */
	txc_arena_free(a);
	txc_store_close(s);
}

/* A harness without rows: the Hermes writer makes the session row and the rows from the model */
static void test_rows_from_model(void **state)
{
	(void)state;
	struct txc_store *s = txc_store_new(&bare_ops, NULL, "bare-place");
	struct txc_diag d = {0};
	struct txc_sid id = {.kind = TXC_ID_TEXT, .text = txc_str_c("s1"), .placed = true, .pos = 1};
	assert_false(txc_store_has_rows(s));
	struct txc_transcript *t;
	assert_int_equal(txc_store_load(s, &id, 0, &t, &d), TXC_OK);
	t->meta.source = txc_str_c("bare");
	t->meta.title = txc_str_c("a title");
	t->messages[1].stop = TXC_STOP_TOOL_USE;
	struct txc_out out;
	txc_out_init_buf(&out);
	struct txc_write_opts w = {.bulk = true};
	assert_int_equal(txc_writer_hermes.write(&out, t, &w, &d), TXC_OK);
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_json *o;
	assert_int_equal(txc_json_parse(a, out.buf.buf, out.buf.len - 1, &o), 0); /* valid JSON, one line */
	assert_int_equal(out.buf.buf[out.buf.len - 1], '\n');
	assert_true(txc_str_eq(txc_json_get(o, "id")->s, "s1"));
	assert_true(txc_str_eq(txc_json_get(o, "source")->s, "bare"));
	assert_true(txc_str_eq(txc_json_get(o, "title")->s, "a title"));
	const struct txc_json *m = txc_json_get(o, "messages");
	assert_int_equal(m->n, 2); /* the compacted tool result is not active: not exported, as Hermes does */
	assert_true(txc_str_eq(txc_json_get(m->items[0], "role")->s, "user"));
	assert_true(txc_str_eq(txc_json_get(m->items[0], "content")->s, "hello world"));
	const struct txc_json *as = m->items[1], *calls = txc_json_get(as, "tool_calls");
	assert_true(txc_str_eq(txc_json_get(as, "role")->s, "assistant"));
	assert_true(txc_str_eq(txc_json_get(as, "finish_reason")->s, "tool_calls"));
	assert_int_equal(calls->kind, TXC_JSON_ARRAY);
	assert_int_equal(calls->n, 1);
	const struct txc_json *fn = txc_json_get(calls->items[0], "function");
	assert_true(txc_str_eq(txc_json_get(calls->items[0], "id")->s, "c1"));
	assert_true(txc_str_eq(txc_json_get(fn, "name")->s, "read_file")); /* Hermes's name for Read */
	/* and Hermes's keys: the model holds Claude's (model_hermes.c renamed path), a Hermes row has path */
	assert_true(txc_str_eq(txc_json_get(fn, "arguments")->s, "{\"path\": \"notes.txt\"}"));
	/* the tool result as a role "tool" row, paired by tool_call_id */
	t->messages[2].compacted = false;
	out.buf.len = 0;
	assert_int_equal(txc_writer_hermes.write(&out, t, &w, &d), TXC_OK);
	assert_int_equal(txc_json_parse(a, out.buf.buf, out.buf.len - 1, &o), 0);
	m = txc_json_get(o, "messages");
	assert_int_equal(m->n, 3);
	assert_true(txc_str_eq(txc_json_get(m->items[2], "role")->s, "tool"));
	assert_true(txc_str_eq(txc_json_get(m->items[2], "tool_call_id")->s, "c1"));
	assert_true(txc_str_eq(txc_json_get(m->items[2], "tool_name")->s, "read_file"));
	assert_true(txc_str_eq(txc_json_get(m->items[2], "content")->s, "beta"));
	assert_int_equal(txc_json_get(o, "message_count")->kind, TXC_JSON_INT);
	assert_true(txc_str_eq(txc_json_get(o, "message_count")->s, "3"));
	txc_arena_free(a);
	txc_out_release(&out);
	txc_transcript_free(t);
	txc_store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sqlite_backend), cmocka_unit_test(test_file_backend),
		cmocka_unit_test(test_capabilities),   cmocka_unit_test(test_archived),
		cmocka_unit_test(test_export_stream),  cmocka_unit_test(test_file_changed),
		cmocka_unit_test(test_not_there),      cmocka_unit_test(test_missing_columns),
		cmocka_unit_test(test_stream_edges),   cmocka_unit_test(test_export_ties),
		cmocka_unit_test(test_model_scan),     cmocka_unit_test(test_rows_from_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
