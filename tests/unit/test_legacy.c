/*
 * test_legacy.c - Hermes's legacy session files (src/reader/hermes_legacy.c):
 * which file names are sessions and which ids are accepted, and the backend
 * alone over a temporary folder (snapshot, gateway transcript, both, a
 * request dump, a symbolic link, a bad line, a corrupt snapshot).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "txc/model_hermes.h"
#include "txc/reader.h"

static void test_ids(void **state)
{
	(void)state;
	static const char *const good[] = {"20250301_101500_aaaa11", "a", "0", "abc-DEF.1:2", "x_y.z", "A.b", "ab."};
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		assert_true(txc_legacy_id_ok(good[i], strlen(good[i])));
	static const char *const refused[] = {
		"",
		".",
		"..",
		"a..b",
		"../x",
		"a/b",
		"a\nb",
		"a\x1b[31m",
		"-rf",
		"_x",
		".hidden",
		"request_dump_1",
		"REQUEST_DUMP_2",
		"xRequest_Dumpy",
		"caf\xc3\xa9",
		"a b",
		"a\\b",
		":x",
		"a\tb",
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
		assert_false(txc_legacy_id_ok(refused[i], strlen(refused[i])));
	assert_false(txc_legacy_id_ok("x\0y", 3)); /* a NUL inside */
	char longest[TXC_LEGACY_ID_MAX + 2];
	memset(longest, 'a', sizeof(longest));
	assert_true(txc_legacy_id_ok(longest, TXC_LEGACY_ID_MAX));
	assert_false(txc_legacy_id_ok(longest, TXC_LEGACY_ID_MAX + 1));
}

static void test_names(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		enum txc_legacy_kind kind;
		const char *id;
	} cases[] = {
		{"session_abc.json", TXC_LEGACY_SNAPSHOT, "abc"},
		{"abc.jsonl", TXC_LEGACY_TRANSCRIPT, "abc"},
		{"session_abc.jsonl", TXC_LEGACY_TRANSCRIPT, "session_abc"},
		{"sessions.json", TXC_LEGACY_NONE, NULL},
		{"session_.json", TXC_LEGACY_NONE, NULL},
		{".jsonl", TXC_LEGACY_NONE, NULL},
		{"..jsonl", TXC_LEGACY_NONE, NULL},
		{"session_..json", TXC_LEGACY_NONE, NULL},
		{"request_dump_abc_1.json", TXC_LEGACY_NONE, NULL},
		{"request_dump_abc.jsonl", TXC_LEGACY_NONE, NULL},
		{"session_request_dump_1.json", TXC_LEGACY_NONE, NULL},
		{"Request_Dump_x.jsonl", TXC_LEGACY_NONE, NULL},
		{"x.REQUEST_DUMP.jsonl", TXC_LEGACY_NONE, NULL},
		{"session_a.json.bak", TXC_LEGACY_NONE, NULL},
		{"x.jsonl.tmp", TXC_LEGACY_NONE, NULL},
		{"evil\nname.jsonl", TXC_LEGACY_NONE, NULL},
		{"-rf.jsonl", TXC_LEGACY_NONE, NULL},
		{"saved", TXC_LEGACY_NONE, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t off = 99, len = 99;
		assert_int_equal(txc_legacy_name(cases[i].name, &off, &len), cases[i].kind);
		if (cases[i].id != NULL) {
			assert_int_equal(len, strlen(cases[i].id));
			assert_memory_equal(cases[i].name + off, cases[i].id, len);
		}
	}
}

/* ---- the backend over a temporary folder ---- */

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static size_t warnings, skipped_lines, skipped_files, unreadable;

static void count_warning(void *ctx, enum txc_warn w, const char *where, size_t n)
{
	(void)ctx;
	(void)where;
	warnings++;
	if (w == TXC_W_SKIPPED_LINES)
		skipped_lines += n;
	else if (w == TXC_W_LEGACY_SKIPPED)
		skipped_files += n;
	else if (w == TXC_W_LEGACY_UNREADABLE)
		unreadable += n;
}

static void make_folder(void)
{
	snprintf(dir, sizeof(dir), "/tmp/txc-legacy-XXXXXX");
	assert_non_null(mkdtemp(dir));
	put("session_snap1.json",
	    "{\"session_id\": \"snap1\", \"model\": \"m1\", \"platform\": \"cli\", \"session_start\": "
	    "\"2025-03-01T10:00:00Z\", \"last_updated\": \"2025-03-01T10:05:00+01:00\", \"message_count\": 2, "
	    "\"base_url\": \"u\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, 7, {\"role\": "
	    "\"assistant\", \"content\": \"hello\"}]}");
	put("gw1.jsonl", "{\"role\": \"session_meta\", \"model\": \"m2\", \"platform\": \"telegram\", \"timestamp\": "
			 "\"2025-03-02T09:00:00Z\"}\n"
			 "{\"role\": \"user\", \"content\": \"q\", \"timestamp\": \"2025-03-02T09:00:01Z\"}\n"
			 "not json\n"
			 "{\"role\": \"assistant\", \"content\": \"a\", \"timestamp\": 1740906003.5}\n"
			 "{\"role\": \"user\", \"content\": \"cut");
	put("session_both1.json", "{\"session_id\": \"both1\", \"model\": \"snapmodel\", \"platform\": \"slack\", "
				  "\"messages\": [{\"role\": \"user\", \"content\": \"snapshot text\"}]}");
	put("both1.jsonl", "{\"role\": \"user\", \"content\": \"transcript text\"}\n"
			   "{\"role\": \"assistant\", \"content\": \"reply\"}\n");
	put("request_dump_snap1_1.json", "{\"session_id\": \"snap1\", \"messages\": [{\"role\": \"user\", "
					 "\"content\": \"SECRET\"}]}");
	put("session_bad1.json", "{\"session_id\": \"bad1\", \"messages\": [");
	put("sessions.json", "{\"k0\": 7, \"k1\": {\"session_id\": 5}, \"k\": {\"session_id\": \"gw1\", "
			     "\"display_name\": \"Gateway chat\"}, \"k2\": {\"session_id\": \"gw1\", \"display_name\": "
			     "\"Later\"}, \"k3\": {\"session_id\": \"a\"}, \"k4\": {\"session_id\": \"z\"}}");
	char link[256];
	snprintf(link, sizeof(link), "%s/link1.jsonl", dir);
	assert_int_equal(symlink("/etc/passwd", link), 0);
}

static void remove_folder(void)
{
	static const char *const names[] = {
		"session_snap1.json",        "gw1.jsonl",         "session_both1.json", "both1.jsonl",
		"request_dump_snap1_1.json", "session_bad1.json", "sessions.json",      "link1.jsonl"};
	char path[256];
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static const struct txc_session_info *find(const struct txc_session_info *v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (txc_str_eq(v[i].sid.text, id))
			return &v[i];
	return NULL;
}

static struct txc_transcript *load(struct txc_store *s, const char *id, unsigned flags)
{
	struct txc_sid sid;
	struct txc_diag d = {0};
	d.warn = count_warning;
	assert_int_equal(txc_store_resolve(s, id, &sid, &d), 0);
	struct txc_transcript *t = NULL;
	int rc = txc_store_load(s, &sid, flags, &t, &d);
	txc_sid_release(&sid);
	return rc == 0 ? t : NULL;
}

static void test_backend(void **state)
{
	(void)state;
	make_folder();
	struct txc_store *s;
	struct txc_diag d = {0};
	d.warn = count_warning;
	assert_int_equal(txc_store_open_legacy(&s, dir, &d), 0);
	assert_int_equal(skipped_files, 1); /* the symbolic link */
	assert_string_equal(txc_store_kind(s), "hermes-legacy");
	for (size_t i = 0; txc_store_file(s, i) != NULL; i++)
		assert_null(strstr(txc_store_file(s, i), "request_dump"));

	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	assert_int_equal(txc_store_sessions(s, TXC_LIST_LAST_ACTIVE, a, &v, &n, &d), 0);
	assert_int_equal(n, 3); /* snap1, gw1, both1; bad1 left out, said once */
	assert_int_equal(unreadable, 1);
	assert_int_equal(skipped_lines, 2); /* "not json" and the cut last line */
	const struct txc_session_info *snap = find(v, n, "snap1"), *gw = find(v, n, "gw1"), *both = find(v, n, "both1");
	assert_non_null(snap);
	assert_non_null(gw);
	assert_non_null(both);
	assert_true(snap->started == 1740823200.0);
	assert_true(snap->last_active == 1740819900.0); /* 10:05+01:00 is 09:05Z */
	assert_true(txc_str_eq(snap->n_messages, "2"));
	assert_true(txc_str_eq(snap->source, "cli"));
	assert_true(gw->started == 1740906000.0);
	assert_true(gw->last_active == 1740906003.5);
	assert_true(txc_str_eq(gw->title, "Gateway chat")); /* the first entry of an id routed twice */
	assert_true(txc_str_eq(gw->model, "m2"));
	assert_true(txc_str_eq(gw->n_messages, "2"));
	assert_true(txc_str_eq(both->model, "snapmodel"));
	assert_null(find(v, n, "link1"));

	/* a listing twice does not say the same thing twice */
	size_t before = warnings;
	assert_int_equal(txc_store_sessions(s, 0, a, &v, &n, &d), 0);
	assert_int_equal(warnings, before);

	struct txc_transcript *t = load(s, "gw1", 0);
	assert_non_null(t);
	assert_int_equal(t->native->rows->n, 3); /* session_meta, user, assistant */
	assert_int_equal(t->n_messages, 2);
	int64_t x;
	assert_true(txc_json_is_int(txc_json_get(t->native->rows->items[1], "id"), &x) && x == 2);
	assert_true(txc_str_eq(t->meta.id, "gw1"));
	txc_transcript_free(t);
	t = load(s, "gw1", TXC_LOAD_MODEL_ONLY);
	assert_non_null(t);
	assert_int_equal(t->n_messages, 2);
	txc_transcript_free(t);

	t = load(s, "both1", 0); /* the transcript's messages, the snapshot's fields */
	assert_non_null(t);
	assert_int_equal(t->n_messages, 2);
	assert_true(txc_str_eq(t->meta.model, "snapmodel"));
	txc_transcript_free(t);

	t = load(s, "snap1", 0); /* a message that is not an object is not a row */
	assert_non_null(t);
	assert_int_equal(t->native->rows->n, 2);
	assert_non_null(txc_json_get(t->native->session, "base_url"));
	txc_transcript_free(t);

	struct txc_sid sid;
	assert_int_equal(txc_store_resolve(s, "request_dump_snap1_1", &sid, &d), TXC_E_NOTFOUND);
	assert_int_equal(txc_store_resolve(s, "bad1", &sid, &d), 0);
	assert_int_equal(txc_store_load(s, &sid, 0, &t, &d), TXC_E_FAIL);
	txc_sid_release(&sid);

	txc_arena_free(a);
	txc_store_close(s);
	remove_folder();

	assert_int_equal(txc_store_open_legacy(&s, "/nonexistent/txc/sessions", &d), TXC_E_NOTFOUND);
}

/* ---- ISO times of a gateway transcript: seconds when they are times, else kept as written ---- */

static const struct {
	const char *json; /* the timestamp as it is in the line */
	double seconds;   /* what the row holds, or NAN: the value as written */
} times[] = {
	{"\"2025-03-02T09:00:01Z\"", 1740906001.0},
	{"\"2025-03-02 09:00:01\"", 1740906001.0}, /* no zone: local time (TZ=UTC here) */
	{"\"2025-03-02T09:00\"", 1740906000.0},
	{"\"2025-03-02T09:00Z\"", 1740906000.0},
	{"\"2025-03-02T09:00:01.25+01:30\"", 1740906001.25 - 5400},
	{"\"2025-03-02T09:00:01-02:00\"", 1740906001.0 + 7200},
	{"\"2025-13-02T09:00:01Z\"", NAN},
	{"\"2025-00-02T09:00:01Z\"", NAN},
	{"\"2025-03-00T09:00:01Z\"", NAN},
	{"\"2025-03-32T09:00:01Z\"", NAN},
	{"\"2025-03-02T24:00:01Z\"", NAN},
	{"\"2025-03-02T09:60:01Z\"", NAN},
	{"\"2025-03-02T09:00:61Z\"", NAN},
	{"\"2025-03-02T09:00:-1Z\"", NAN},
	{"\"2025-03-02T09:00:Z\"", NAN},
	{"\"2025-03-02T09:00:01X\"", NAN},
	{"\"2025-03-02T09:00:01Zx\"", NAN},
	{"\"2025-03-02T09:00:01+0100\"", NAN},
	{"\"2025-03-02T09:00:01+01:00x\"", NAN},
	{"\"2025-03-02\"", NAN},
	{"\"2025-3-2T9:00:01Z\"", NAN},
	{"\"2025-03-02T09:00:01.000000000000000000000000000000000000000000000000Z\"", NAN}, /* over 64 bytes */
	{"\"2025-03-02T09:00\\u0000:01Z\"", NAN},                                           /* a NUL inside */
	{"true", NAN},
	{"1740906000", NAN}, /* a number is seconds already: kept */
	{"{\"t\": 1}", NAN},
};

static void test_times(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/txc-legacy-XXXXXX");
	assert_non_null(mkdtemp(dir));
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "{\"role\": \"session_meta\", \"platform\": \"cli\"}\n\n  \r\n");
	for (size_t i = 0; i < sizeof(times) / sizeof(*times); i++)
		txc_buf_addf(&b, "{\"role\": \"user\", \"content\": \"m%zu\", \"timestamp\": %s}\n", i, times[i].json);
	put("ts1.jsonl", b.buf);
	txc_buf_release(&b);
	struct txc_store *s;
	struct txc_diag d = {0};
	d.warn = count_warning;
	size_t lines_before = skipped_lines;
	assert_int_equal(txc_store_open_legacy(&s, dir, &d), 0);
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	assert_int_equal(txc_store_sessions(s, TXC_LIST_LAST_ACTIVE, a, &v, &n, &d), 0);
	assert_int_equal(n, 1);
	assert_int_equal(skipped_lines, lines_before); /* blank lines are no lines */
	assert_true(v[0].started == 1740906001.0);     /* the meta has no time: the first message's */
	assert_true(v[0].last_active == 1740906000.0); /* the last message with a time: the number */
	struct txc_transcript *t = load(s, "ts1", 0);
	assert_non_null(t);
	assert_int_equal(t->native->rows->n, sizeof(times) / sizeof(*times) + 1);
	for (size_t i = 0; i < sizeof(times) / sizeof(*times); i++) {
		const struct txc_json *ts = txc_json_get(t->native->rows->items[i + 1], "timestamp");
		assert_non_null(ts);
		if (isnan(times[i].seconds)) { /* kept as written */
			assert_int_not_equal(ts->kind, TXC_JSON_REAL);
			continue;
		}
		assert_int_equal(ts->kind, TXC_JSON_REAL);
		if (ts->d != times[i].seconds)
			fail_msg("%s: %.3f, want %.3f", times[i].json, ts->d, times[i].seconds);
	}
	txc_transcript_free(t);
	txc_arena_free(a);
	txc_store_close(s);
	char path[256];
	snprintf(path, sizeof(path), "%s/ts1.jsonl", dir);
	unlink(path);
	rmdir(dir);
}

/* ---- odd shapes: snapshots without messages, ids in a message, an odd routing index ---- */

static void unlink_all(const char *const *names, size_t n)
{
	char path[256];
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
		rmdir(path);
	}
	rmdir(dir);
}

static const char *text_of(const struct txc_json *o, const char *key)
{
	const char *s = txc_json_cstr(txc_json_get(o, key));
	return s != NULL ? s : "(none)";
}

static void test_shapes(void **state)
{
	(void)state;
	static const char *const names[] = {"session_nomsg.json", "session_notarr.json", "session_arr.json",
					    "session_pair.json",  "pair.jsonl",          "own.jsonl",
					    "sessions.json"};
	snprintf(dir, sizeof(dir), "/tmp/txc-legacy-XXXXXX");
	assert_non_null(mkdtemp(dir));
	put("session_nomsg.json", "{\"session_id\": \"nomsg\", \"model\": \"m\", \"id\": \"not-the-id\"}");
	put("session_notarr.json", "{\"session_id\": \"notarr\", \"messages\": {\"role\": \"user\"}, "
				   "\"last_updated\": 1740906000}");
	put("session_arr.json", "[{\"role\": \"user\", \"content\": \"x\"}]");
	put("session_pair.json", "{\"session_id\": \"pair\", \"messages\": [");
	put("pair.jsonl", "{\"role\": \"user\", \"content\": \"kept\"}\n");
	put("own.jsonl", "{\"role\": \"session_meta\", \"timestamp\": \"2025-03-02T09:00:00Z\", \"model\": \"m1\"}\n"
			 "{\"role\": \"session_meta\", \"model\": \"m2\"}\n"
			 "{\"role\": \"user\", \"content\": \"q\", \"id\": \"own-id\", \"session_id\": \"other\"}\n"
			 "[1, 2]\n"
			 "{\"role\": 7}\n");
	put("sessions.json", "{\"k\": {\"session_id\": \"own\", \"display_name\": 42}}");
	struct txc_store *s;
	struct txc_diag d = {0};
	d.warn = count_warning;
	size_t unreadable_before = unreadable, lines_before = skipped_lines;
	assert_int_equal(txc_store_open_legacy(&s, dir, &d), 0);
	assert_int_equal(unreadable, unreadable_before); /* one routing entry is an index */
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	assert_int_equal(txc_store_sessions(s, TXC_LIST_LAST_ACTIVE, a, &v, &n, &d), 0);
	assert_int_equal(n, 3); /* nomsg, notarr, own; arr (not an object) and pair (its snapshot) left out */
	assert_int_equal(unreadable, unreadable_before + 2);
	assert_int_equal(skipped_lines, lines_before + 2); /* [1, 2] and a role that is not text */
	const struct txc_session_info *nomsg = find(v, n, "nomsg"), *notarr = find(v, n, "notarr"),
				      *own = find(v, n, "own");
	assert_non_null(nomsg);
	assert_non_null(notarr);
	assert_non_null(own);
	assert_true(txc_str_eq(nomsg->n_messages, "0"));
	assert_true(isnan(nomsg->started) && isnan(nomsg->last_active));
	assert_true(notarr->last_active == 1740906000.0);
	assert_true(own->started == 1740906000.0); /* the first session_meta's time */
	assert_true(txc_str_eq(own->model, "m1"));
	assert_true(own->title.len == 0); /* a display_name that is not text is no title */

	struct txc_transcript *t = load(s, "own", 0);
	assert_non_null(t);
	assert_int_equal(t->native->rows->n, 3); /* both session_meta lines and the message */
	assert_string_equal(text_of(t->native->rows->items[2], "id"), "own-id");
	assert_string_equal(text_of(t->native->rows->items[2], "session_id"), "other");
	txc_transcript_free(t);
	t = load(s, "notarr", 0);
	assert_non_null(t);
	assert_int_equal(t->native->rows->n, 0);
	txc_transcript_free(t);

	/* a snapshot that cannot be read fails its transcript too: the session is not half read */
	struct txc_sid sid;
	assert_int_equal(txc_store_resolve(s, "pair", &sid, &d), 0);
	assert_int_equal(txc_store_load(s, &sid, 0, &t, &d), TXC_E_FAIL);
	assert_non_null(strstr(d.msg, "session_pair.json' is not a Hermes session snapshot"));
	txc_sid_release(&sid);
	/* ids the folder does not have, or with a NUL inside, are not found */
	struct txc_sid odd = {.kind = TXC_ID_TEXT, .text = {"own\0x", 5}};
	assert_int_equal(txc_store_load(s, &odd, 0, &t, &d), TXC_E_NOTFOUND);
	odd.text = txc_str_c("zzz");
	assert_int_equal(txc_store_load(s, &odd, 0, &t, &d), TXC_E_NOTFOUND);
	assert_non_null(strstr(d.msg, "no session 'zzz' in '/tmp/txc-legacy-"));
	txc_arena_free(a);
	txc_store_close(s);
	unlink_all(names, sizeof(names) / sizeof(*names));
}

/* sessions.json that is no routing index: a warning, no titles; an empty folder lists nothing */
static void test_index(void **state)
{
	(void)state;
	static const char *const bodies[] = {"", "[1, 2]", "{\"k\": ", NULL};
	static const char *const names[] = {"sessions.json", "a1.jsonl"};
	for (size_t i = 0; i < sizeof(bodies) / sizeof(*bodies); i++) {
		snprintf(dir, sizeof(dir), "/tmp/txc-legacy-XXXXXX");
		assert_non_null(mkdtemp(dir));
		if (bodies[i] != NULL) {
			put("sessions.json", bodies[i]);
		} else { /* a folder of that name */
			char path[256];
			snprintf(path, sizeof(path), "%s/sessions.json", dir);
			assert_int_equal(mkdir(path, 0700), 0);
		}
		put("a1.jsonl", "{\"role\": \"user\", \"content\": \"x\"}\n");
		struct txc_store *s;
		struct txc_diag d = {0};
		d.warn = count_warning;
		size_t before = unreadable;
		assert_int_equal(txc_store_open_legacy(&s, dir, &d), 0);
		assert_int_equal(unreadable, before + 1);
		struct txc_arena *a = txc_arena_new(0);
		const struct txc_session_info *v;
		size_t n;
		assert_int_equal(txc_store_sessions(s, 0, a, &v, &n, &d), 0);
		assert_int_equal(n, 1);
		assert_true(v[0].title.len == 0);
		txc_arena_free(a);
		txc_store_close(s);
		unlink_all(names, 2);
	}
	/* an empty folder: no session, nothing found */
	snprintf(dir, sizeof(dir), "/tmp/txc-legacy-XXXXXX");
	assert_non_null(mkdtemp(dir));
	struct txc_store *s;
	struct txc_diag d = {0};
	assert_int_equal(txc_store_open_legacy(&s, dir, &d), 0);
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n = 9;
	assert_int_equal(txc_store_sessions(s, 0, a, &v, &n, &d), 0);
	assert_int_equal(n, 0);
	struct txc_sid odd = {.kind = TXC_ID_TEXT, .text = {"x", 1}};
	struct txc_transcript *t;
	assert_int_equal(txc_store_load(s, &odd, 0, &t, &d), TXC_E_NOTFOUND);
	assert_null(txc_store_file(s, 0));
	txc_arena_free(a);
	txc_store_close(s);
	rmdir(dir);
	/* a file is no folder */
	assert_int_equal(txc_store_open_legacy(&s, "/etc/passwd", &d), TXC_E_FAIL);
	assert_non_null(strstr(d.msg, "cannot read the legacy sessions folder '/etc/passwd': Not a directory"));
}

/* ---- files that change after the folder was read: said, never followed ---- */

static void test_changed(void **state)
{
	(void)state;
	static const char *const names[] = {"gone1.jsonl", "session_gone2.json", "link3.jsonl",
					    "dir4.jsonl",  "session_both5.json", "both5.jsonl",
					    "many6.jsonl", "session_timed7.json"};
	snprintf(dir, sizeof(dir), "/tmp/txc-legacy-XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		put(names[i], "{\"role\": \"user\", \"content\": \"x\"}\n");
	put("session_gone2.json", "{\"session_id\": \"gone2\", \"messages\": []}");
	put("session_both5.json", "{\"session_id\": \"both5\", \"id\": \"not-the-id\", \"title\": \"snapshot title\", "
				  "\"messages\": []}");
	/* a snapshot's messages give the session its times when it has no session_start or last_updated */
	put("session_timed7.json",
	    "{\"session_id\": \"timed7\", \"messages\": [{\"role\": \"session_meta\", "
	    "\"timestamp\": 5}, {\"role\": \"user\", \"timestamp\": \"x\"}, {\"role\": \"user\", "
	    "\"timestamp\": 100.5}, {\"role\": \"assistant\", \"timestamp\": 200}, {\"role\": "
	    "\"user\"}, {\"role\": \"session_meta\", \"timestamp\": 900}]}");
	struct txc_buf b = TXC_BUF_INIT;
	for (int i = 0; i < 70; i++)
		txc_buf_addf(&b, "{\"role\": \"user\", \"content\": \"line %d\"}\n", i);
	put("many6.jsonl", b.buf);
	txc_buf_release(&b);
	struct txc_store *s;
	struct txc_diag d = {0};
	d.warn = count_warning;
	assert_int_equal(txc_store_open_legacy(&s, dir, &d), 0);
	char path[256];
	snprintf(path, sizeof(path), "%s/gone1.jsonl", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/session_gone2.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/link3.jsonl", dir);
	unlink(path);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	snprintf(path, sizeof(path), "%s/dir4.jsonl", dir);
	unlink(path);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/both5.jsonl", dir);
	unlink(path);
	static const struct {
		const char *id, *why;
	} gone[] = {
		{"gone1", "gone1.jsonl': No such file or directory"},
		{"gone2", "session_gone2.json': No such file or directory"},
		{"link3", "link3.jsonl': a symbolic link (not followed)"},
		{"dir4", "dir4.jsonl': not a regular file"},
		{"both5", "both5.jsonl': No such file or directory"}, /* the snapshot was read: the transcript was not
								       */
	};
	struct txc_transcript *t;
	for (size_t i = 0; i < sizeof(gone) / sizeof(*gone); i++) {
		struct txc_sid sid = {.kind = TXC_ID_TEXT, .text = txc_str_c(gone[i].id)};
		assert_int_equal(txc_store_load(s, &sid, 0, &t, &d), TXC_E_FAIL);
		if (strstr(d.msg, gone[i].why) == NULL || strncmp(d.msg, "cannot read '", 13) != 0)
			fail_msg("%s: %s", gone[i].id, d.msg);
	}
	struct txc_sid none = {.kind = TXC_ID_TEXT, .text = {NULL, 0}};
	assert_int_equal(txc_store_load(s, &none, 0, &t, &d), TXC_E_NOTFOUND);
	assert_string_equal(strstr(d.msg, "no session ''"), d.msg);

	t = load(s, "many6", 0); /* more rows than the first allocation */
	assert_non_null(t);
	assert_int_equal(t->native->rows->n, 70);
	assert_string_equal(txc_json_cstr(txc_json_get(t->native->rows->items[69], "content")), "line 69");
	txc_transcript_free(t);

	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n, before = unreadable;
	assert_int_equal(txc_store_sessions(s, TXC_LIST_LAST_ACTIVE, a, &v, &n, &d), 0);
	assert_int_equal(n, 2); /* many6, timed7 */
	assert_int_equal(unreadable, before + 5);
	const struct txc_session_info *timed = find(v, n, "timed7");
	assert_non_null(timed);
	assert_true(timed->started == 100.5 && timed->last_active == 200.0); /* messages, not session_meta */
	assert_true(txc_str_eq(timed->n_messages, "6"));
	txc_arena_free(a);
	txc_store_close(s);
	unlink(path);
	unlink_all(names, sizeof(names) / sizeof(*names));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),     cmocka_unit_test(test_names),  cmocka_unit_test(test_backend),
		cmocka_unit_test(test_times),   cmocka_unit_test(test_shapes), cmocka_unit_test(test_index),
		cmocka_unit_test(test_changed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
