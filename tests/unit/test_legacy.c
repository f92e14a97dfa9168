/*
 * test_legacy.c - Hermes's legacy session files (src/reader/hermes_legacy.c):
 * which file names are sessions and which ids are accepted, and the backend
 * alone over a temporary folder (snapshot, gateway transcript, both, a
 * request dump, a symbolic link, a bad line, a corrupt snapshot).
 */
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
	static const char *const good[] = {"20250301_101500_aaaa11", "a", "0", "abc-DEF.1:2", "x_y.z", "A.b"};
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_backend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
