/*
 * fuzz_rows.c - libFuzzer target: stored values -> reader -> model -> every writer.
 *
 * The input is cut at 0xFF bytes into fields.  Field 0 is the session title,
 * then each message takes seven: role selector (first byte mod 4: user,
 * assistant, tool, system), content (a leading 'J' becomes the "\0json:"
 * sentinel), tool_calls, tool_call_id, tool_name, reasoning,
 * codex_reasoning_items.  Values are bound as TEXT of the exact bytes (NULs
 * and invalid UTF-8 included), as a buggy or hostile Hermes could store them.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "txc/reader.h"

static const char schema[] =
	"CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL,"
	" ended_at REAL, message_count INTEGER, tool_call_count INTEGER, input_tokens INTEGER, output_tokens INTEGER,"
	" cwd TEXT, git_branch TEXT, estimated_cost_usd REAL, title TEXT, archived INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,"
	" content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,"
	" finish_reason TEXT, reasoning TEXT, codex_reasoning_items TEXT, active INTEGER NOT NULL DEFAULT 1,"
	" compacted INTEGER NOT NULL DEFAULT 0);";

struct cursor {
	const uint8_t *p, *end;
};

static bool next_field(struct cursor *c, const uint8_t **f, size_t *n)
{
	if (c->p > c->end)
		return false;
	const uint8_t *sep = memchr(c->p, 0xff, (size_t)(c->end - c->p));
	const uint8_t *stop = sep ? sep : c->end;
	*f = c->p;
	*n = (size_t)(stop - c->p);
	c->p = stop + 1;
	return true;
}

static void bind_field(sqlite3_stmt *st, int i, const uint8_t *f, size_t n)
{
	if (n == 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, (const char *)f, (int)n, SQLITE_TRANSIENT);
}

static void add_messages(sqlite3 *db, struct cursor *c)
{
	static const char *const roles[] = {"user", "assistant", "tool", "system"};
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db,
			   "INSERT INTO messages (session_id, role, content, tool_calls, tool_call_id, tool_name,"
			   " timestamp, reasoning, codex_reasoning_items, compacted, active)"
			   " VALUES ('s', ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
			   -1, &st, NULL);
	const uint8_t *f = NULL;
	size_t n = 0;
	for (int i = 0; i < 64 && next_field(c, &f, &n); i++) {
		sqlite3_bind_text(st, 1, roles[n ? f[0] % 4 : 0], -1, SQLITE_STATIC);
		int compacted = n && (f[0] & 0x10);
		if (!next_field(c, &f, &n))
			n = 0;
		if (n && f[0] == 'J') {
			uint8_t *v = malloc(n + 5);
			memcpy(v, "\0json:", 6);
			memcpy(v + 6, f + 1, n - 1);
			sqlite3_bind_text(st, 2, (const char *)v, (int)(n + 5), free);
		} else {
			bind_field(st, 2, f, n);
		}
		for (int col = 3; col <= 5; col++) {
			if (!next_field(c, &f, &n))
				n = 0;
			bind_field(st, col, f, n);
		}
		sqlite3_bind_double(st, 6, 1767323045.0 + i);
		for (int col = 7; col <= 8; col++) {
			if (!next_field(c, &f, &n))
				n = 0;
			bind_field(st, col, f, n);
		}
		sqlite3_bind_int(st, 9, compacted);
		sqlite3_bind_int(st, 10, !compacted);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sqlite3 *db;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK || sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return 0;
	}
	struct cursor c = {data, data + size};
	const uint8_t *f = NULL;
	size_t n = 0;
	next_field(&c, &f, &n);
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db,
			   "INSERT INTO sessions VALUES ('s', 'cli', 'model-x', 1767323045.0, 1767323999.5, 3, 1,"
			   " 100, 20, '/repo', 'main', 0.01, ?1, 0)",
			   -1, &st, NULL);
	bind_field(st, 1, f, n);
	sqlite3_step(st);
	sqlite3_finalize(st);
	add_messages(db, &c);

	sqlite3_int64 len = 0;
	unsigned char *img = sqlite3_serialize(db, "main", &len, 0);
	sqlite3_close(db);
	if (img == NULL)
		return 0;
	struct txc_store *s;
	struct txc_diag d = {0};
	if (txc_store_open_image(&s, img, (size_t)len, "fuzz.db", &d) == 0) {
		fuzz_check_store(s);
		txc_store_close(s);
	}
	sqlite3_free(img);
	return 0;
}
