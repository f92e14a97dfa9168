/*
 * fuzz_query.c - libFuzzer target: any query text -> the search sanitiser
 * (search.h) -> a real FTS5 index (SQLite in memory, unicode61 as Hermes
 * builds messages_fts) and a trigram one (messages_fts_trigram).
 *
 * Properties, each an abort when broken: the FTS5 expression txc makes
 * always parses (no query text can be an FTS5 syntax error or operator);
 * each index (unicode61, and trigram for txc_query_trigram()) finds every row txc_query_match() accepts (the index only
 * narrows, so an index and a scan give the same hits); a snippet's window
 * and marks lie inside the text, on UTF-8 boundaries.  The rows are fixed
 * texts (ASCII, CJK, emoji, diacritics, punctuation, hyphenated words) and
 * the query itself when it is valid UTF-8.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "txc/search.h"

static const char *const rows[] = {
	"Fix the retry loop in chat-send; see snake_case_name and P2.2",
	"週末の予定: 東京で会議 and a meeting",
	"deploy 🎉 party 🚀 rocket done",
	"café Über naïve résumé",
	"C++ templates, col:term and NOT alone \"quoted\" (parens) {braces} ^caret",
	"rm -rf /tmp/build && make test",
	"TODO: fix the flaky test_payload_102",
	"x\xe2\x81\xb0y superscript and \xe2\x85\xa0 roman and \xe2\x91\xa0 circled",
	"e\xcc\x81 decomposed and \xef\xbc\xa1\xef\xbc\xa2 full width",
};
enum { N_ROWS = sizeof(rows) / sizeof(rows[0]) };

static sqlite3 *db;

static void setup(void)
{
	if (db != NULL)
		return;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db, "CREATE VIRTUAL TABLE f USING fts5(content)", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "CREATE VIRTUAL TABLE g USING fts5(content, tokenize='trigram')", NULL, NULL, NULL) !=
		    SQLITE_OK)
		abort();
}

static void fill(const char *table, const char *extra, size_t n)
{
	char sql[64];
	snprintf(sql, sizeof(sql), "DELETE FROM %s", table);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_stmt *st;
	snprintf(sql, sizeof(sql), "INSERT INTO %s(rowid, content) VALUES (?1, ?2)", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		abort();
	for (int i = 0; i <= N_ROWS; i++) {
		if (i == N_ROWS && extra == NULL)
			break;
		sqlite3_bind_int(st, 1, i + 1);
		if (i < N_ROWS)
			sqlite3_bind_text(st, 2, rows[i], -1, SQLITE_STATIC);
		else
			sqlite3_bind_text(st, 2, extra, (int)n, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			abort();
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

static void check_snippet(const struct txc_query *q, const char *t, size_t n)
{
	struct txc_snippet s;
	txc_query_snippet(q, t, n, 40, &s);
	if (s.start > s.end || s.end > n || (s.start < n && (t[s.start] & 0xC0) == 0x80) ||
	    (s.end < n && (t[s.end] & 0xC0) == 0x80))
		abort();
	for (size_t k = 0; k < s.n; k++)
		if (s.mark[k][0] < s.start || s.mark[k][1] > s.end || s.mark[k][0] >= s.mark[k][1] ||
		    (k && s.mark[k][0] < s.mark[k - 1][1]))
			abort();
}

/* The rowids sql (MATCH ?1) gives for expr; an expression txc made that does not parse aborts. */
static void find(const char *sql, const char *expr, bool *found)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		abort();
	sqlite3_bind_text(st, 1, expr, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		found[sqlite3_column_int(st, 0)] = true;
	if (rc != SQLITE_DONE)
		abort();
	sqlite3_finalize(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	const char *text = (const char *)data;
	bool row_ok = txc_utf8_valid(text, size) && memchr(text, 0, size) == NULL;
	fill("f", row_ok ? text : NULL, size);
	fill("g", row_ok ? text : NULL, size);
	struct txc_query q;
	struct txc_diag d = {0};
	if (txc_query_parse(text, size, &q, &d) != TXC_OK)
		return 0;
	char *fts = txc_query_fts(&q), *tri = txc_query_trigram(&q);
	bool found[N_ROWS + 2] = {false}, found_tri[N_ROWS + 2] = {false};
	if (fts != NULL)
		find("SELECT rowid FROM f WHERE f MATCH ?1", fts, found);
	if (tri != NULL)
		find("SELECT rowid FROM g WHERE g MATCH ?1", tri, found_tri);
	for (int i = 0; i <= N_ROWS; i++) {
		if (i == N_ROWS && !row_ok)
			break;
		const char *t = i < N_ROWS ? rows[i] : text;
		size_t n = i < N_ROWS ? strlen(t) : size;
		struct txc_str col = {t, n};
		bool match = txc_query_match(&q, &col, 1);
		if ((fts != NULL && match && !found[i + 1]) || (tri != NULL && match && !found_tri[i + 1]))
			abort(); /* an index missed a row the scan finds */
		check_snippet(&q, t, n);
	}
	free(fts);
	free(tri);
	txc_query_free(&q);
	return 0;
}
