/*
 * genstore.c - build a realistic Hermes state.db for the benchmarks, offline
 * and deterministically (a fixed PRNG seed: the same scale gives the same
 * bytes of content).
 *
 * usage: txc-genstore OUT.db SCHEMA.sql [SCALE [SESSIONS]]
 *
 * SCALE 1 (default) is about 135 MB: 800 sessions, ~100,000 message rows,
 * one session of 25,000 messages (id "big"), the real mix of rows (tool calls
 * with JSON arguments, JSON tool results of 5-50 KB, "\0json:" multimodal
 * content with a small image, reasoning sidecars, archived sessions), current
 * schema, WAL mode.  SCALE 4 builds four times as many sessions and rows.
 * SCALE 0 is a quick store (20 sessions, the "big" one cut to 500 messages)
 * for `bench/run --quick`.  SESSIONS spreads the same rows over that many
 * sessions (14400 at scale 1: many small sessions, as completion and `list`
 * meet on a long-used store); then every third session has no title (Hermes
 * titles a session only after its first exchange), for the list's previews.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static uint32_t pick(uint32_t n)
{
	return next() % n;
}

static const char *const words[] = {
	"the",      "retry",   "loop",   "widget", "client", "timeout", "cache",  "schema", "index",  "query",
	"function", "returns", "error",  "value",  "test",   "build",   "file",   "line",   "update", "session",
	"database", "parser",  "output", "input",  "thread", "lock",    "memory", "buffer", "stream", "token",
};

/* append roughly n bytes of prose to b */
static size_t prose(char *b, size_t cap, size_t n)
{
	size_t len = 0;
	while (len + 16 < cap && len < n) {
		const char *w = words[pick(sizeof(words) / sizeof(words[0]))];
		size_t wl = strlen(w);
		memcpy(b + len, w, wl);
		len += wl;
		b[len++] = pick(12) == 0 ? '\n' : ' ';
	}
	b[len] = '\0';
	return len;
}

static char big[64 * 1024];
static char tmp[70 * 1024];

static sqlite3_stmt *ins_msg;

static void add_msg(const char *sid, const char *role, const char *content, int content_len, const char *tool_call_id,
		    const char *tool_calls, const char *tool_name, double ts, const char *finish, const char *reasoning,
		    int active, int compacted)
{
	sqlite3_stmt *st = ins_msg;
	sqlite3_bind_text(st, 1, sid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, role, -1, SQLITE_STATIC);
	if (content)
		sqlite3_bind_text(st, 3, content, content_len, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_text(st, 4, tool_call_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, tool_calls, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, tool_name, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 7, ts);
	sqlite3_bind_text(st, 8, finish, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, reasoning, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 10, active);
	sqlite3_bind_int(st, 11, compacted);
	if (sqlite3_step(st) != SQLITE_DONE) {
		fprintf(stderr, "txc-genstore: insert failed\n");
		exit(1);
	}
	sqlite3_reset(st);
}

static const char *const tools[] = {"terminal", "read_file", "write_file", "search_files", "patch", "web_search"};

static void tool_args(char *out, size_t cap, const char *tool, int k)
{
	char text[600];
	prose(text, sizeof(text), 40 + pick(400));
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (strcmp(tool, "terminal") == 0)
		snprintf(out, cap, "{\\\"command\\\": \\\"make test-%d\\\", \\\"timeout\\\": 120}", k);
	else if (strcmp(tool, "read_file") == 0)
		snprintf(out, cap, "{\\\"path\\\": \\\"/repo/src/file%d.c\\\", \\\"offset\\\": %d, \\\"limit\\\": 200}",
			 k, (int)pick(900) + 1);
	else if (strcmp(tool, "write_file") == 0)
		snprintf(out, cap, "{\\\"path\\\": \\\"/repo/src/new%d.py\\\", \\\"content\\\": \\\"%s\\\"}", k, text);
	else if (strcmp(tool, "patch") == 0)
		snprintf(
			out, cap,
			"{\\\"mode\\\": \\\"replace\\\", \\\"path\\\": \\\"/repo/src/file%d.c\\\", \\\"old_string\\\": "
			"\\\"%.*s\\\", \\\"new_string\\\": \\\"%s\\\"}",
			k, 60, text, text);
	else
		snprintf(out, cap, "{\\\"pattern\\\": \\\"%.*s\\\", \\\"path\\\": \\\"/repo\\\"}", 30, text);
}

/* a JSON tool result of about n bytes */
static int tool_result(char *out, size_t cap, size_t n, int fail)
{
	size_t len = prose(big, sizeof(big), n);
	size_t o = (size_t)snprintf(out, cap, "{\"output\": \"");
	for (size_t i = 0; i < len && o + 8 < cap; i++) {
		if (big[i] == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			out[o++] = big[i];
		}
	}
	o += (size_t)snprintf(out + o, cap - o, "\", \"exit_code\": %d, \"error\": null}", fail);
	return (int)o;
}

static const char png[] =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

static int session_msgs(const char *sid, double t0, int n, int *tool_calls)
{
	int i = 0, k = 0;
	double ts = t0;
	char calls[4096], args[1200], reason[700], id[64];
	while (i < n) {
		/* user turn; every 40th carries a small image through the "\0json:" sentinel */
		size_t len = prose(big, 4000, 80 + pick(600));
		ts += 1.0 + pick(30);
		if (pick(40) == 0) {
			int m = snprintf(
				tmp, sizeof(tmp),
				"%cjson:[{\"type\": \"text\", \"text\": \"what is this?\"}, {\"type\": \"image_url\", "
				"\"image_url\": {\"url\": \"data:image/png;base64,%s\"}}]",
				0, png);
			add_msg(sid, "user", tmp, m, NULL, NULL, NULL, ts, NULL, NULL, 1, 0);
		} else {
			add_msg(sid, "user", big, (int)len, NULL, NULL, NULL, ts, NULL, NULL, 1, 0);
		}
		if (++i == n)
			break;
		/* assistant with reasoning and 1-3 tool calls, then the results */
		int ncalls = i + 4 < n ? 1 + (int)pick(3) : 0;
		size_t c = 0;
		calls[c++] = '[';
		for (int j = 0; j < ncalls; j++) {
			const char *tool = tools[pick(sizeof(tools) / sizeof(tools[0]))];
			tool_args(args, sizeof(args), tool, k + j);
			c += (size_t)snprintf(
				calls + c, sizeof(calls) - c,
				"%s{\"id\": \"call_%d\", \"type\": \"function\", \"function\": {\"name\": "
				"\"%s\", \"arguments\": \"%s\"}}",
				j ? ", " : "", k + j, tool, args);
		}
		calls[c++] = ']';
		calls[c] = '\0';
		prose(reason, sizeof(reason), 100 + pick(500));
		len = prose(big, 2000, 50 + pick(300));
		ts += 2.0 + pick(20);
		add_msg(sid, "assistant", big, (int)len, NULL, ncalls ? calls : NULL, NULL, ts,
			ncalls ? "tool_calls" : "stop", reason, 1, 0);
		i++;
		for (int j = 0; j < ncalls && i < n; j++, i++) {
			/* one result in sixty is a large JSON payload of 5-50 KB */
			size_t size = pick(60) == 0 ? 5000 + pick(45000) : 200 + pick(1800);
			int m = tool_result(tmp, sizeof(tmp), size, pick(10) == 0);
			snprintf(id, sizeof(id), "call_%d", k + j);
			ts += 0.5;
			add_msg(sid, "tool", tmp, m, id, NULL, tools[0], ts, NULL, NULL, 1, 0);
		}
		*tool_calls += ncalls;
		k += ncalls;
		if (ncalls && i < n) {
			len = prose(big, 2000, 100 + pick(800));
			ts += 3.0;
			add_msg(sid, "assistant", big, (int)len, NULL, NULL, NULL, ts, "stop", NULL, 1, 0);
			i++;
		}
	}
	return i;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: txc-genstore OUT.db SCHEMA.sql [SCALE [SESSIONS]]\n");
		return 2;
	}
	int scale = argc > 3 ? atoi(argv[3]) : 1;
	int sessions = scale ? 800 * scale : 20;
	int many = argc > 4 ? atoi(argv[4]) : 0; /* SESSIONS: many small sessions, a third untitled */
	if (many > 1)
		sessions = many;
	int rows_total = scale ? 100000 * scale : 2000;
	int big_n = scale ? 25000 : 500;
	remove(argv[1]);
	sqlite3 *db;
	if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
		fprintf(stderr, "txc-genstore: cannot create %s\n", argv[1]);
		return 1;
	}
	FILE *f = fopen(argv[2], "rb");
	if (f == NULL) {
		perror(argv[2]);
		return 1;
	}
	static char schema[64 * 1024];
	schema[fread(schema, 1, sizeof(schema) - 1, f)] = '\0';
	fclose(f);
	if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "txc-genstore: schema: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(
		db,
		"INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp,"
		" finish_reason, reasoning, active, compacted) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
		-1, &ins_msg, NULL);
	sqlite3_stmt *ins_s;
	sqlite3_prepare_v2(db,
			   "INSERT INTO sessions (id, source, model, started_at, ended_at, end_reason, message_count,"
			   " tool_call_count, input_tokens, output_tokens, cache_read_tokens, cwd, git_branch,"
			   " estimated_cost_usd, title, last_activity_at, archived, billing_provider)"
			   " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			   -1, &ins_s, NULL);
	int per = (rows_total - big_n) / (sessions - 1);
	double t0 = 1767323045.0;
	static const char *const sources[] = {"cli", "cli", "cli", "telegram", "discord", "slack"};
	static const char *const models[] = {"anthropic/claude-sonnet-4.5", "gpt-5.1", "deepseek/deepseek-r1"};
	for (int s = 0; s < sessions; s++) {
		char sid[64], title[128];
		if (s == sessions / 2)
			strcpy(sid, "big");
		else
			snprintf(sid, sizeof(sid), "2026%04d_%06d_%06x", s % 1200 + 100, s, (unsigned)pick(0xffffff));
		int n = strcmp(sid, "big") == 0 ? big_n : per / 2 + (int)pick((uint32_t)per + 1);
		int calls = 0;
		double start = t0 + s * 3600.0;
		int written = session_msgs(sid, start, n, &calls);
		snprintf(title, sizeof(title), "Session %d: %s %s", s, words[pick(30)], words[pick(30)]);
		sqlite3_bind_text(ins_s, 1, sid, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins_s, 2, sources[pick(6)], -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_s, 3, models[pick(3)], -1, SQLITE_STATIC);
		sqlite3_bind_double(ins_s, 4, start);
		sqlite3_bind_double(ins_s, 5, start + written * 10.0);
		sqlite3_bind_text(ins_s, 6, "user_exit", -1, SQLITE_STATIC);
		sqlite3_bind_int(ins_s, 7, written);
		sqlite3_bind_int(ins_s, 8, calls);
		sqlite3_bind_int(ins_s, 9, 1000 * written);
		sqlite3_bind_int(ins_s, 10, 150 * written);
		sqlite3_bind_int(ins_s, 11, 800 * written);
		sqlite3_bind_text(ins_s, 12, "/repo", -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_s, 13, "main", -1, SQLITE_STATIC);
		sqlite3_bind_double(ins_s, 14, written * 0.0125);
		if (many > 1 && s % 3 == 2)
			sqlite3_bind_null(ins_s, 15);
		else
			sqlite3_bind_text(ins_s, 15, title, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(ins_s, 16, start + written * 10.0);
		sqlite3_bind_int(ins_s, 17, pick(10) == 0);
		sqlite3_bind_text(ins_s, 18, "openrouter", -1, SQLITE_STATIC);
		if (sqlite3_step(ins_s) != SQLITE_DONE) {
			fprintf(stderr, "txc-genstore: %s\n", sqlite3_errmsg(db));
			return 1;
		}
		sqlite3_reset(ins_s);
	}
	sqlite3_finalize(ins_s);
	sqlite3_finalize(ins_msg);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	/* keep the WAL: a live Hermes store has one */
	return sqlite3_close(db) == SQLITE_OK ? 0 : 1;
}
