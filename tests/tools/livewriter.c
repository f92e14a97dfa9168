/*
 * livewriter.c - the other process in the live-store tests.
 *
 *   txc-livewriter append DB SECONDS   append messages as live Hermes does (one
 *                                      transaction per message, which also bumps
 *                                      sessions.message_count); prints counts and
 *                                      the slowest commit; exit 1 on any error
 *   txc-livewriter lock DB SECONDS     hold an exclusive lock; prints "locked"
 *   txc-livewriter hold DB             commit one change to a WAL store (no checkpoint), print
 *                                      "held" and keep the store open until killed: a -wal with
 *                                      frames and a -shm in use (a kill -9 leaves both behind)
 *   txc-livewriter read DB             read it through a read-only connection (after a kill -9
 *                                      of "hold", this first reader rebuilds the -shm index)
 *   txc-livewriter check FILE.jsonl    every exported session is one snapshot:
 *                                      message_count equals its number of messages
 *   txc-livewriter session DB          add the session "live-follow" (not ended)
 *   txc-livewriter follow DB N GAP_MS  append N messages to it in turns of four (user,
 *                                      assistant with a tool call, its result 5 gaps
 *                                      later, assistant), GAP_MS apart, each in its own
 *                                      transaction (prints "sent I SECONDS" with the
 *                                      wall-clock time of each commit), then checkpoint
 *                                      the WAL (TRUNCATE) and end the session (ended_at)
 *   txc-livewriter handoff DB N GAP_MS WAIT_MS
 *                                      as follow, but "live-follow" ends in a compression
 *                                      (end_reason 'compression'); WAIT_MS later its
 *                                      continuation "live-follow-2" (parent_session_id) is
 *                                      created and gets messages N..2N-1, then ends
 *   txc-livewriter hold DB SECONDS     keep DB open as a running Hermes does (its -shm
 *                                      mapped, a read made); prints "held"; closes after
 *                                      SECONDS without a checkpoint (the -wal stays)
 */
#define _DEFAULT_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "txc/json.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int append(const char *path, double secs)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return 1;
	sqlite3_busy_timeout(db, 2000);
	long ids = 0, n = 0, errors = 0;
	char **sid = NULL;
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "SELECT id FROM sessions", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		sid = realloc(sid, (size_t)(ids + 1) * sizeof(*sid));
		sid[ids++] = strdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	sqlite3_stmt *ins, *upd;
	sqlite3_prepare_v2(db,
			   "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?1, 'user', ?2, ?3)",
			   -1, &ins, NULL);
	sqlite3_prepare_v2(db, "UPDATE sessions SET message_count = message_count + 1 WHERE id = ?1", -1, &upd, NULL);
	double end = now() + secs, worst = 0;
	char text[256];
	while (now() < end && ids > 0) {
		double t0 = now();
		const char *s = sid[n % ids];
		snprintf(text, sizeof(text), "live message %ld", n);
		int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
		if (rc == SQLITE_OK) {
			sqlite3_bind_text(ins, 1, s, -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 2, text, -1, SQLITE_STATIC);
			sqlite3_bind_double(ins, 3, 1767323045.0 + n);
			rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
			sqlite3_reset(ins);
			sqlite3_bind_text(upd, 1, s, -1, SQLITE_STATIC);
			if (rc == SQLITE_OK)
				rc = sqlite3_step(upd) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
			sqlite3_reset(upd);
			rc = rc == SQLITE_OK ? sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) : rc;
			if (rc != SQLITE_OK)
				sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		}
		if (rc != SQLITE_OK) {
			fprintf(stderr, "livewriter: %s\n", sqlite3_errmsg(db));
			errors++;
		}
		double dt = now() - t0;
		worst = dt > worst ? dt : worst;
		n++;
		usleep(1000);
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(upd);
	sqlite3_close(db);
	for (long i = 0; i < ids; i++)
		free(sid[i]);
	free(sid);
	printf("appended %ld messages, %ld errors, slowest commit %.1f ms\n", n - errors, errors, worst * 1000);
	fflush(stdout);
	return errors || worst > 1.0 ? 1 : 0;
}

static int lock(const char *path, double secs)
{
	sqlite3 *db;
	/* a rollback journal: there, an exclusive lock keeps readers out */
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "UPDATE sessions SET title = title", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "livewriter: cannot lock %s\n", path);
		return 1;
	}
	printf("locked\n");
	fflush(stdout);
	usleep((useconds_t)(secs * 1e6));
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
	return 0;
}

static int hold_writing(const char *path)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "UPDATE sessions SET title = title || ''", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "livewriter: cannot hold %s\n", path);
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	for (;;)
		pause(); /* until killed: the connection is never closed, so nothing checkpoints the WAL */
}

static int read_only(const char *path)
{
	sqlite3 *db;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "SELECT count(*) FROM messages", NULL, NULL, NULL);
	sqlite3_close(db);
	return rc != SQLITE_OK;
}

static int check(const char *file)
{
	FILE *f = fopen(file, "rb");
	if (f == NULL)
		return 1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long lines = 0, bad = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		struct txc_arena *a = txc_arena_new(0);
		const struct txc_json *o;
		int64_t count = -1;
		lines++;
		if (txc_json_parse(a, line, (size_t)n, &o) != 0 ||
		    !txc_json_is_int(txc_json_get(o, "message_count"), &count) || txc_json_get(o, "messages") == NULL ||
		    (int64_t)txc_json_get(o, "messages")->n != count) {
			fprintf(stderr, "livewriter: line %ld is not one snapshot (message_count %lld)\n", lines,
				(long long)count);
			bad++;
		}
		txc_arena_free(a);
	}
	free(line);
	fclose(f);
	printf("%ld sessions checked, %ld inconsistent\n", lines, bad);
	return bad || lines == 0;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int new_session(const char *path)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return 1;
	sqlite3_busy_timeout(db, 2000);
	int rc = sqlite3_exec(db,
			      "INSERT INTO sessions (id, source, model, title, started_at, message_count) "
			      "VALUES ('live-follow', 'cli', 'test-model', 'Live follow', 1767323000.0, 0)",
			      NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		fprintf(stderr, "livewriter: %s\n", sqlite3_errmsg(db));
	sqlite3_close(db);
	return rc != SQLITE_OK;
}

/* message i of a turn of four: user, assistant with a tool call, its result, assistant */
static int commit_one(sqlite3 *db, sqlite3_stmt *ins, sqlite3_stmt *upd, long i)
{
	static const char *const role[] = {"user", "assistant", "tool", "assistant"};
	char text[128], calls[256], call_id[32];
	if (i % 4 == 2)
		snprintf(text, sizeof(text), "{\"output\": \"live result %ld\", \"exit_code\": 0}", i);
	else
		snprintf(text, sizeof(text), "%s %ld", i % 4 == 0 ? "live message" : "live reply", i);
	snprintf(calls, sizeof(calls),
		 "[{\"id\": \"call-%ld\", \"type\": \"function\", \"function\": {\"name\": \"terminal\", "
		 "\"arguments\": \"{\\\"command\\\": \\\"echo %ld\\\"}\"}}]",
		 i, i);
	snprintf(call_id, sizeof(call_id), "call-%ld", i - 1);
	int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(ins, 1, role[i % 4], -1, SQLITE_STATIC);
	sqlite3_bind_text(ins, 2, text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(ins, 3, 1767323045.0 + (double)i);
	if (i % 4 == 1)
		sqlite3_bind_text(ins, 4, calls, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(ins, 4);
	if (i % 4 == 2) {
		sqlite3_bind_text(ins, 5, call_id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 6, "terminal", -1, SQLITE_STATIC);
	} else {
		sqlite3_bind_null(ins, 5);
		sqlite3_bind_null(ins, 6);
	}
	rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	sqlite3_reset(ins);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(upd) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	sqlite3_reset(upd);
	if (rc == SQLITE_OK)
		return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* messages from..from+n-1 into session sid, each in its own transaction; *worst: the slowest commit */
static long feed(sqlite3 *db, const char *sid, long from, long n, long gap_ms, double *worst)
{
	sqlite3_stmt *ins, *upd;
	sqlite3_prepare_v2(
		db,
		"INSERT INTO messages (session_id, role, content, timestamp, tool_calls, tool_call_id, tool_name) "
		"VALUES (?7, ?1, ?2, ?3, ?4, ?5, ?6)",
		-1, &ins, NULL);
	sqlite3_prepare_v2(db, "UPDATE sessions SET message_count = message_count + 1 WHERE id = ?1", -1, &upd, NULL);
	sqlite3_bind_text(ins, 7, sid, -1, SQLITE_STATIC);
	sqlite3_bind_text(upd, 1, sid, -1, SQLITE_STATIC);
	long errors = 0;
	for (long i = from; i < from + n; i++) {
		double t0 = now();
		if (commit_one(db, ins, upd, i) != SQLITE_OK) {
			fprintf(stderr, "livewriter: %s\n", sqlite3_errmsg(db));
			errors++;
		}
		double dt = now() - t0;
		*worst = dt > *worst ? dt : *worst;
		if (gap_ms > 0) {
			printf("sent %ld %.3f\n", i, wall());
			fflush(stdout);
			/* a call waits longer for its result: a poll sees it unanswered */
			usleep((useconds_t)gap_ms * (i % 4 == 1 ? 5000 : 1000));
		}
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(upd);
	return errors;
}

static int follow(const char *path, long n, long gap_ms)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return 1;
	sqlite3_busy_timeout(db, 2000);
	double worst = 0;
	long errors = feed(db, "live-follow", 0, n, gap_ms, &worst);
	int busy = -1, logged = -1, done = -1;
	sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, &logged, &done);
	sqlite3_stmt *ck;
	if (sqlite3_prepare_v2(db, "PRAGMA wal_checkpoint(TRUNCATE)", -1, &ck, NULL) == SQLITE_OK &&
	    sqlite3_step(ck) == SQLITE_ROW)
		busy = sqlite3_column_int(ck, 0);
	sqlite3_finalize(ck);
	printf("checkpoint %s\n", busy == 0 ? "ok" : "busy");
	if (sqlite3_exec(db, "UPDATE sessions SET ended_at = 1767400000.0 WHERE id = 'live-follow'", NULL, NULL,
			 NULL) != SQLITE_OK)
		errors++;
	sqlite3_close(db);
	printf("appended %ld messages, %ld errors, slowest commit %.1f ms\n", n - errors, errors, worst * 1000);
	fflush(stdout);
	return errors || worst > 1.0 || busy != 0 ? 1 : 0;
}

/* as Hermes compresses: the session ends with end_reason 'compression', then its continuation begins */
static int handoff(const char *path, long n, long gap_ms, long wait_ms)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return 1;
	sqlite3_busy_timeout(db, 2000);
	double worst = 0;
	long errors = feed(db, "live-follow", 0, n, gap_ms, &worst);
	if (sqlite3_exec(db,
			 "UPDATE sessions SET ended_at = 1767323500.0, end_reason = 'compression' "
			 "WHERE id = 'live-follow'",
			 NULL, NULL, NULL) != SQLITE_OK)
		errors++;
	printf("ended %.3f\n", wall());
	fflush(stdout);
	usleep((useconds_t)wait_ms * 1000);
	if (sqlite3_exec(
		    db,
		    "INSERT INTO sessions (id, source, model, title, started_at, message_count, parent_session_id) "
		    "VALUES ('live-follow-2', 'cli', 'test-model', 'Live follow (continued)', 1767323501.0, 0, 'live-follow')",
		    NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "livewriter: %s\n", sqlite3_errmsg(db));
		errors++;
	}
	errors += feed(db, "live-follow-2", n, n, gap_ms, &worst);
	if (sqlite3_exec(db, "UPDATE sessions SET ended_at = 1767400000.0 WHERE id = 'live-follow-2'", NULL, NULL,
			 NULL) != SQLITE_OK)
		errors++;
	sqlite3_close(db);
	printf("appended %ld messages, %ld errors, slowest commit %.1f ms\n", 2 * n - errors, errors, worst * 1000);
	fflush(stdout);
	return errors || worst > 1.0 ? 1 : 0;
}

static int hold(const char *path, double secs)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "SELECT count(*) FROM sessions", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "livewriter: cannot hold %s\n", path);
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	usleep((useconds_t)(secs * 1e6));
	sqlite3_close(db);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "append") == 0)
		return append(argv[2], atof(argv[3]));
	if (argc == 4 && strcmp(argv[1], "lock") == 0)
		return lock(argv[2], atof(argv[3]));
	if (argc == 4 && strcmp(argv[1], "hold") == 0)
		return hold(argv[2], atof(argv[3]));
	if (argc == 3 && strcmp(argv[1], "read") == 0)
		return read_only(argv[2]);
	if (argc == 3 && strcmp(argv[1], "hold") == 0)
		return hold_writing(argv[2]); /* a writer that never checkpoints */
	if (argc == 3 && strcmp(argv[1], "check") == 0)
		return check(argv[2]);
	if (argc == 3 && strcmp(argv[1], "session") == 0)
		return new_session(argv[2]);
	if (argc == 5 && strcmp(argv[1], "follow") == 0)
		return follow(argv[2], atol(argv[3]), atol(argv[4]));
	if (argc == 6 && strcmp(argv[1], "handoff") == 0)
		return handoff(argv[2], atol(argv[3]), atol(argv[4]), atol(argv[5]));
	fprintf(stderr, "usage: txc-livewriter append|lock DB SECONDS | check FILE.jsonl\n");
	return 2;
}
