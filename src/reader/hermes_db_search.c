/*
 * hermes_db_search.c - `txc search` on Hermes's state.db: the full-text
 * index Hermes keeps (messages_fts), read-only, else a scan that gives the
 * same hits.
 *
 * Rules (shared/reference hermes-lineage-redact-search.md §3): only MATCH,
 * rank and rowid are used, so every layout works (legacy inline, external
 * content, the later views); a table is probed before use and an error
 * means "use a scan"; messages_fts_cjk is never touched; nothing is ever
 * written (no 'rebuild', no repair).  The index only narrows: every row it
 * offers is checked against the query in C (search.h), the check a scan
 * makes, so the two agree.  Rows the index does not hold (a rebuild's
 * window, tool rows a view cut) are scanned on top.
 */
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strncasecmp */

#include "hermes_db.h"
#include "txc/search.h"

enum { TOOL_CUT = 8192 }; /* layout 3 indexes tool rows through their first 8192 characters */
/* The tool rows such an index holds only in part: longer than that (bytes: at least as many as
 * characters), or with a NUL in them, where the view's substr() stops ("\0json:" content: nothing held). */
#define TOOL_UNHELD \
	"(m.role = 'tool' AND (length(CAST(m.content AS BLOB)) > 8192 OR instr(CAST(m.content AS BLOB), X'00') > 0))"

/* What the index can answer, and what must be scanned on top of it. */
struct plan {
	bool fts, legacy;
	bool window; /* rows lo < id <= hi are not indexed yet (a rebuild in progress) */
	sqlite3_int64 lo, hi;
	bool tools_cut; /* layout 3 */
	char why[288];  /* why a scan, when !fts */
	/* trigram (messages_fts_trigram) answers instead of messages_fts: a query with no plain ASCII word */
	bool trigram;
	char src[64], src_id[64]; /* its content view and rowid column ("": it stores its own text, legacy) */
	bool no_calls, no_name;   /* columns the view leaves out (later layouts drop tool_calls) */
	bool replies;             /* the store has api_content or codex_message_items (elsewhere_cond) */
};

static bool meta_value(struct hermes_db *s, const char *key, char *out, size_t size)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM state_meta WHERE key = ?1", -1, &st, NULL) != SQLITE_OK)
		return false; /* no state_meta: an older store */
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	bool found = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	if (found)
		snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return found;
}

/* The stored CREATE of table (malloc'd), or NULL. */
static char *fts_sql(struct hermes_db *s, const char *table)
{
	sqlite3_stmt *st;
	char *sql = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		sql = txc_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return sql;
}

/*
 * Whether the table answers what the search asks of it (MATCH, rowid,
 * rank): a missing tokenizer or module, or a plain table of that name, fails
 * now, not mid-search.
 */
static bool fts_readable(struct hermes_db *s, const char *table, char *err, size_t size)
{
	sqlite3_stmt *st;
	char sql[128];
	snprintf(sql, sizeof(sql), "SELECT rowid, rank FROM %s WHERE %s MATCH 'txc' LIMIT 0", table,
		 table); /* a fixed name of ours */
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		snprintf(err, size, "%s", sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE;
}

/* A tokenizer other than the default unicode61 (porter, trigram, options, an extension): its tokens are not ours. */
static const char *find_nocase(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (; *s; s++)
		if (strncasecmp(s, word, n) == 0)
			return s;
	return NULL;
}

static bool odd_tokenizer(const char *sql)
{
	const char *t = find_nocase(sql, "tokenize");
	if (t == NULL)
		return false;
	t += 8;
	while (*t == ' ' || *t == '=' || *t == '\'' || *t == '"')
		t++;
	if (strncasecmp(t, "unicode61", 9) != 0)
		return true;
	t += 9;
	return *t != '\'' && *t != '"';
}

static void plan_window(struct hermes_db *s, struct plan *p)
{
	char v[64], hw[64];
	if (meta_value(s, "fts_rebuild_high_water", hw, sizeof(hw))) {
		p->window = true;
		p->hi = strtoll(hw, NULL, 10);
		p->lo = meta_value(s, "fts_rebuild_progress", v, sizeof(v)) ? strtoll(v, NULL, 10) : 0;
	}
}

/* The value of fts5 option name in a stored CREATE (content='x', content_rowid=id; maybe ""), or false. */
static bool fts_option(const char *sql, const char *name, char *out, size_t size)
{
	size_t n = strlen(name);
	for (const char *t = find_nocase(sql, name); t != NULL; t = find_nocase(t + 1, name)) {
		const char *v = t + n;
		bool word_start = t == sql || !(t[-1] == '_' || ((t[-1] | 32) >= 'a' && (t[-1] | 32) <= 'z'));
		while (*v == ' ' || *v == '\t' || *v == '\n')
			v++;
		if (!word_start || *v != '=')
			continue;
		for (v++; *v == ' ' || *v == '\t' || *v == '\n'; v++)
			;
		char q = *v == '\'' || *v == '"' ? *v++ : 0;
		size_t k = 0;
		while (*v && k + 1 < size && (q ? *v != q : *v != ',' && *v != ')' && *v != ' ' && *v != '\n'))
			out[k++] = *v++;
		out[k] = '\0';
		return true;
	}
	return false;
}

/* A plain identifier (letters, digits, _), safe to put in SQL between double quotes. */
static bool plain_name(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= '0' && *s <= '9') || ((*s | 32) >= 'a' && (*s | 32) <= 'z')))
			return false;
	return true;
}

/* Whether the trigram's content table (its view) is there: the rows it cannot hold are found through it. */
static bool view_readable(struct hermes_db *s, const struct plan *p)
{
	char sql[192];
	sqlite3_stmt *st;
	snprintf(sql, sizeof(sql), "SELECT \"%s\" FROM \"%s\" LIMIT 0", p->src_id, p->src);
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE;
}

/* A query with no plain ASCII word: messages_fts_trigram, where Hermes would use it (reference §3.3 4b). */
static void plan_trigram(struct hermes_db *s, const struct txc_query *q, const struct txc_search_opts *o,
			 struct plan *p)
{
	char err[120], v[64];
	char *expr = txc_query_trigram(q);
	free(expr);
	const char *no_words = "no word is plain ASCII letters and digits (CJK and symbols match as substrings, "
			       "other letters exactly), which messages_fts cannot narrow by";
	if (expr == NULL) {
		snprintf(p->why, sizeof(p->why), "%s, and some word has fewer than 3 characters, too short for trigram",
			 no_words);
		return;
	}
	if (o->role && strcmp(o->role, "tool") == 0) {
		snprintf(p->why, sizeof(p->why), "%s, and messages_fts_trigram holds no tool rows", no_words);
		return;
	}
	if (!txc_hermes_db_has_col(&s->msg, "id") || !txc_hermes_db_has_col(&s->msg, "role")) {
		snprintf(p->why, sizeof(p->why), "%s, and messages has no id or role to read messages_fts_trigram by",
			 no_words);
		return;
	}
	char *sql = fts_sql(s, "messages_fts_trigram");
	if (sql == NULL) {
		snprintf(p->why, sizeof(p->why), "%s, and the store has no messages_fts_trigram", no_words);
		return;
	}
	bool content = fts_option(sql, "content", p->src, sizeof(p->src));
	if (!content)
		p->src[0] = '\0';
	if (content && !fts_option(sql, "content_rowid", p->src_id, sizeof(p->src_id)))
		snprintf(p->src_id, sizeof(p->src_id), "rowid");
	if (!fts_option(sql, "tokenize", v, sizeof(v)) || strncasecmp(v, "trigram", 7) != 0 ||
	    find_nocase(sql, "case_sensitive 1") != NULL) {
		snprintf(p->why, sizeof(p->why), "%s, and messages_fts_trigram is not a case-folding trigram index",
			 no_words);
	} else if (content && (!plain_name(p->src) || !plain_name(p->src_id) || !view_readable(s, p))) {
		snprintf(p->why, sizeof(p->why), "%s, and messages_fts_trigram reads no content table txc can read",
			 no_words);
	} else if (!fts_readable(s, "messages_fts_trigram", err, sizeof(err))) {
		snprintf(p->why, sizeof(p->why), "%s, and messages_fts_trigram cannot be read by this SQLite (%.80s)",
			 no_words, err);
	} else if (meta_value(s, "fts_stale", v, sizeof(v)) && strcmp(v, "0") != 0) {
		snprintf(p->why, sizeof(p->why), "%s, and Hermes marked its indexes stale (state_meta fts_stale)",
			 no_words);
	} else {
		p->trigram = true;
		p->legacy = !content;
		p->no_calls = content && strstr(sql, "tool_calls") == NULL;
		p->no_name = content && strstr(sql, "tool_name") == NULL;
		plan_window(s, p);
	}
	free(sql);
}

static void plan_index(struct hermes_db *s, const struct txc_query *q, const struct txc_search_opts *o, struct plan *p)
{
	char err[120], v[64];
	char *expr = txc_query_fts(q);
	free(expr);
	if (expr == NULL) {
		plan_trigram(s, q, o, p);
		return;
	}
	char *sql = fts_sql(s, "messages_fts");
	if (sql == NULL) {
		snprintf(p->why, sizeof(p->why), "the store has no full-text index (messages_fts)");
		return;
	}
	if (odd_tokenizer(sql)) {
		snprintf(p->why, sizeof(p->why), "messages_fts uses a tokenizer other than unicode61");
	} else if (!fts_readable(s, "messages_fts", err, sizeof(err))) {
		snprintf(p->why, sizeof(p->why), "messages_fts cannot be read by this SQLite (%s)", err);
	} else if (meta_value(s, "fts_stale", v, sizeof(v)) && strcmp(v, "0") != 0) {
		snprintf(p->why, sizeof(p->why), "Hermes marked messages_fts stale (state_meta fts_stale)");
	} else {
		p->fts = true;
		p->legacy = strstr(sql, "tool_name") == NULL;
		p->tools_cut = strstr(sql, "messages_fts_src") != NULL;
		plan_window(s, p);
	}
	free(sql);
}

/* ---- SQL ---- */

static void msg_col(struct hermes_db *s, struct txc_buf *b, const char *name)
{
	if (txc_hermes_db_has_col(&s->msg, name))
		txc_buf_addf(b, "m.\"%s\"", name);
	else
		txc_buf_addstr(b, "NULL");
}

enum {
	C_ID,
	C_ROLE,
	C_CONTENT,
	C_TOOL,
	C_CALLS,
	C_TIME,
	C_ACTIVE,
	C_COMPACTED,
	C_API,
	C_ITEMS,
	C_SROWID,
	C_SID,
	C_RANK
};

static void select_cols(struct hermes_db *s, struct txc_buf *b, const char *rank)
{
	static const char *const cols[] = {"id",        "role",   "content",   "tool_name",   "tool_calls",
					   "timestamp", "active", "compacted", "api_content", "codex_message_items"};
	txc_buf_addstr(b, "SELECT ");
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		msg_col(s, b, cols[i]);
		txc_buf_addstr(b, ", ");
	}
	txc_buf_addf(b, "%s%s, s.id", s->rowid ? "s." : "", s->rowid ? s->rowid : "NULL");
	txc_buf_addf(b, ", %s", rank);
}

/* ?2 role, ?3 tool name; the visibility rule Hermes's search has */
static void filters(struct hermes_db *s, struct txc_buf *b, const struct txc_search_opts *o)
{
	txc_buf_addstr(b, " WHERE 1");
	if (!o->include_inactive && txc_hermes_db_has_col(&s->msg, "active"))
		txc_buf_addstr(b, txc_hermes_db_has_col(&s->msg, "compacted") ? " AND (m.active = 1 OR m.compacted = 1)"
									      : " AND m.active = 1");
	if (o->role)
		txc_buf_addstr(b, " AND m.role = ?2");
	if (o->tool &&
	    txc_hermes_db_has_col(&s->msg, "tool_calls")) /* a result of it, or a call to it (checked in row_hit) */
		txc_buf_addstr(b, " AND (m.tool_name = ?3 OR instr(m.tool_calls, ?3) > 0)");
	else if (o->tool)
		txc_buf_addstr(b, " AND m.tool_name = ?3");
}

/*
 * By time, ties in row order (f.k: the index's rank; a table without id:
 * rowid, as the reader does).  --sort rank never comes here: by_ids asks the
 * index itself for its order.
 */
static void order_by(struct hermes_db *s, struct txc_buf *b, const struct txc_search_opts *o, bool ranked)
{
	const char *dir = o->sort == TXC_SORT_OLDEST ? "ASC" : "DESC";
	txc_buf_addstr(b, " ORDER BY ");
	msg_col(s, b, "timestamp");
	if (ranked)
		txc_buf_addf(b, " %s, f.k", dir);
	else
		txc_buf_addf(b, " %s, %s %s", dir, txc_hermes_db_has_col(&s->msg, "id") ? "m.id" : "m.rowid", dir);
}

static void like_terms(struct hermes_db *s, struct txc_buf *b, const struct txc_query *q);

/*
 * By time, the ids (and ranks) of the index's rows and of the rows extra adds (scan_query's),
 * merged in one order, ties in row order as a scan's: a limit cuts the hits a scan would cut
 * (the index's rows first, then the others, cut the wrong ones with --sort and -n).
 */
static void fts_by_time(struct hermes_db *s, struct txc_buf *b, const struct txc_query *q,
			const struct txc_search_opts *o, const char *extra)
{
	const char *dir = o->sort == TXC_SORT_OLDEST ? "ASC" : "DESC";
	txc_buf_addstr(b, "SELECT i, k FROM (SELECT m.id AS i, ");
	msg_col(s, b, "timestamp");
	txc_buf_addstr(b, " AS t, f.k AS k FROM (SELECT rowid AS r, rank AS k FROM messages_fts WHERE messages_fts "
			  "MATCH ?1) f JOIN messages m ON m.id = f.r");
	filters(s, b, o);
	txc_buf_addstr(b, " UNION ALL SELECT m.id, ");
	msg_col(s, b, "timestamp");
	txc_buf_addstr(b, ", NULL FROM messages m");
	filters(s, b, o);
	txc_buf_addstr(b, extra);
	like_terms(s, b, q);
	txc_buf_addf(b, ") ORDER BY t %s, i %s", dir, dir);
}

/*
 * The rows whose text is not what the index holds (docs/FORMATS.md, "Replies outside content"):
 * content behind "\0json:" (the index has its JSON; txc reads the decoded text, as a scan of the
 * rows does), a reply or a replayed text in api_content, a reply in codex_message_items (whose
 * content has no letter or digit: a superset of blank).  Hermes indexes content alone.
 */
static void elsewhere_cond(struct hermes_db *s, struct txc_buf *b)
{
	bool role = txc_hermes_db_has_col(&s->msg, "role");
	txc_buf_addstr(b, "(substr(CAST(m.content AS BLOB), 1, 1) = X'00'");
	if (role && txc_hermes_db_has_col(&s->msg, "api_content"))
		txc_buf_addstr(
			b, " OR (m.role IN ('user', 'assistant') AND m.api_content IS NOT NULL AND m.api_content <> "
			   "COALESCE(m.content, ''))");
	if (role && txc_hermes_db_has_col(&s->msg, "codex_message_items"))
		txc_buf_addstr(b, " OR (m.role = 'assistant' AND COALESCE(m.codex_message_items, '') <> '' AND "
				  "COALESCE(m.content, '') NOT GLOB '*[0-9A-Za-z]*')");
	txc_buf_addch(b, ')');
}

/* Whether the store has a column a reply can be in besides content. */
static bool has_elsewhere(struct hermes_db *s)
{
	return txc_hermes_db_has_col(&s->msg, "api_content") || txc_hermes_db_has_col(&s->msg, "codex_message_items");
}

/*
 * A scan: every visible row (extra: more conditions), narrowed by LIKE on
 * the longest piece of each term (?4, ?5, ...; LIKE folds ASCII as the match
 * does).  Content that starts with NUL ("\0json:") is past LIKE, and so is a BLOB (SQLite's LIKE
 * never matches one): always checked; so is a reply in codex_message_items (JSON that may escape
 * what the needle holds).  api_content is plain text: LIKE narrows it.
 */
static void scan_query(struct hermes_db *s, struct txc_buf *b, const struct txc_query *q,
		       const struct txc_search_opts *o, const char *extra, bool ids_only)
{
	if (ids_only) { /* (id, no rank) for by_ids: the sort holds two small values a row */
		txc_buf_addstr(b, "SELECT m.id, NULL FROM messages m");
	} else {
		select_cols(s, b, "NULL");
		txc_buf_addstr(b, " FROM messages m JOIN sessions s ON s.id = m.session_id");
	}
	filters(s, b, o);
	if (extra)
		txc_buf_addstr(b, extra);
	like_terms(s, b, q);
	order_by(s, b, o, false);
}

/* The LIKE narrowing of scan_query: one condition per term that is not negated (?4, ?5, ...). */
static void like_terms(struct hermes_db *s, struct txc_buf *b, const struct txc_query *q)
{
	for (size_t i = 0, k = 4; i < q->n; i++) {
		if (q->v[i].negated)
			continue;
		txc_buf_addf(
			b,
			" AND (m.content LIKE ?%zu ESCAPE '\\' OR CAST(m.content AS BLOB) < X'01' OR typeof(m.content) = 'blob'",
			k);
		if (txc_hermes_db_has_col(&s->msg, "tool_name"))
			txc_buf_addf(b, " OR m.tool_name LIKE ?%zu ESCAPE '\\'", k);
		if (txc_hermes_db_has_col(&s->msg, "tool_calls"))
			txc_buf_addf(b, " OR m.tool_calls LIKE ?%zu ESCAPE '\\'", k);
		if (txc_hermes_db_has_col(&s->msg, "api_content"))
			txc_buf_addf(
				b,
				" OR m.api_content LIKE ?%zu ESCAPE '\\' OR substr(CAST(m.api_content AS BLOB), 1, 1) = X'00'",
				k);
		if (txc_hermes_db_has_col(&s->msg, "codex_message_items") && txc_hermes_db_has_col(&s->msg, "role"))
			txc_buf_addstr(b, " OR (m.role = 'assistant' AND COALESCE(m.codex_message_items, '') <> '' AND "
					  "COALESCE(m.content, '') NOT GLOB '*[0-9A-Za-z]*')");
		txc_buf_addch(b, ')');
		k++;
	}
}

static void bind_like(sqlite3_stmt *st, int k, struct txc_str needle)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addch(&b, '%');
	for (size_t i = 0; i < needle.len; i++) {
		char c = needle.ptr[i];
		if (c == '%' || c == '_' || c == '\\')
			txc_buf_addch(&b, '\\');
		txc_buf_addch(&b, c);
	}
	txc_buf_addch(&b, '%');
	sqlite3_bind_text(st, k, b.buf, (int)b.len, SQLITE_TRANSIENT);
	txc_buf_release(&b);
}

/* ---- running one query ---- */

static struct txc_str col_str(sqlite3_stmt *st, int i)
{
	int t = sqlite3_column_type(st, i);
	if (t == SQLITE_NULL)
		return TXC_STR_NULL;
	const void *p = t == SQLITE_BLOB ? sqlite3_column_blob(st, i) : (const void *)sqlite3_column_text(st, i);
	return (struct txc_str){p ? p : "", (size_t)sqlite3_column_bytes(st, i)};
}

static const struct txc_json *col_json(struct txc_arena *a, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER: return txc_json_int(a, sqlite3_column_int64(st, i));
	case SQLITE_FLOAT: return txc_json_real(a, sqlite3_column_double(st, i));
	case SQLITE_TEXT:
	case SQLITE_BLOB: return txc_json_string(a, col_str(st, i).ptr, col_str(st, i).len);
	default: return &txc_json_null_value;
	}
}

struct run {
	struct hermes_db *s;
	const struct txc_query *q;
	const struct txc_search_opts *o;
	const struct txc_hit_sink *sink;
	struct txc_arena *a;
	size_t offered, kept;            /* rows the SQL gave, rows that matched */
	int stop;                        /* what the sink said when it stopped the search */
	struct txc_hermes_db_tips *tips; /* NULL: the store has no compression links */
	struct numbers *numbers;         /* message numbers (number_of) */
	char err[256];                   /* a failure's message, kept before DETACH clears it */
};

/*
 * A row's message number (search.h, txc_query_is_message_role): its place
 * among the session's rows of those roles that are active or compacted, by
 * id.  The ids of a session are read once (one indexed pass, 8 bytes a
 * row) and kept, least recently used dropped first beyond 256 sessions or
 * 512k ids (4 MiB); a number is a binary search.  The first FEW numbers
 * are counted instead (the rows up to it, no more): a top 20 in a long
 * session reads the rows before each hit, not the whole session.
 */
enum { NUMBERED = 256, NUMBERED_IDS = 512 * 1024, FEW = 32 };

struct numbered {
	int type;  /* the session id's SQLite type; 0: empty slot */
	char *key; /* its bytes (text, or the integer's digits) */
	size_t key_len;
	sqlite3_int64 *ids;
	size_t n, used; /* used: when last asked for */
};

struct numbers {
	struct numbered v[NUMBERED];
	size_t clock, n_ids, asked;
	sqlite3_stmt *st, *count;
};

/* The session's numbered ids in order, or (count) how many are <= ?2 and whether ?2 is one. */
static int number_sql(struct hermes_db *s, sqlite3_stmt **st, bool count)
{
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, count ? "SELECT count(*), max(id = ?2) FROM messages" : "SELECT id FROM messages");
	txc_buf_addstr(&b, " WHERE session_id = ?1 AND role IN ('user', 'assistant', 'tool')");
	if (txc_hermes_db_has_col(&s->msg, "active"))
		txc_buf_addstr(&b, txc_hermes_db_has_col(&s->msg, "compacted") ? " AND (active = 1 OR compacted = 1)"
									       : " AND active = 1");
	txc_buf_addstr(&b, count ? " AND id <= ?2" : " ORDER BY id");
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, st, NULL);
	txc_buf_release(&b);
	return rc;
}

static bool same_session(const struct numbered *e, sqlite3_value *sid)
{
	return e->type == sqlite3_value_type(sid) && e->key_len == (size_t)sqlite3_value_bytes(sid) &&
	       memcmp(e->key, sqlite3_value_text(sid), e->key_len) == 0;
}

static void drop_numbered(struct numbers *c, struct numbered *e)
{
	c->n_ids -= e->n;
	free(e->key);
	free(e->ids);
	memset(e, 0, sizeof(*e));
}

/* An empty slot, after dropping the least recently used entries while over the budget. */
static struct numbered *free_slot(struct numbers *c)
{
	for (;;) {
		struct numbered *lru = NULL, *empty = NULL;
		for (size_t i = 0; i < NUMBERED; i++) {
			if (c->v[i].type == 0)
				empty = empty ? empty : &c->v[i];
			else if (lru == NULL || c->v[i].used < lru->used)
				lru = &c->v[i];
		}
		if (empty != NULL && (c->n_ids <= NUMBERED_IDS || lru == NULL))
			return empty;
		drop_numbered(c, lru);
	}
}

static struct numbered *session_ids(struct numbers *c, sqlite3_value *sid)
{
	c->clock++;
	for (size_t i = 0; i < NUMBERED; i++)
		if (c->v[i].type != 0 && same_session(&c->v[i], sid)) {
			c->v[i].used = c->clock;
			return &c->v[i];
		}
	struct numbered *e = free_slot(c);
	e->type = sqlite3_value_type(sid);
	e->key_len = (size_t)sqlite3_value_bytes(sid);
	e->key = txc_xstrndup((const char *)sqlite3_value_text(sid), e->key_len);
	e->used = c->clock;
	size_t cap = 0;
	sqlite3_bind_value(c->st, 1, sid);
	while (sqlite3_step(c->st) == SQLITE_ROW) {
		if (e->n == cap)
			e->ids = txc_xrealloc(e->ids, (cap = cap ? cap * 2 : 256) * sizeof(*e->ids));
		e->ids[e->n++] = sqlite3_column_int64(c->st, 0);
	}
	sqlite3_reset(c->st);
	c->n_ids += e->n;
	return e;
}

static size_t number_of(struct run *r, sqlite3_stmt *row, const struct txc_hit *h)
{
	if (!h->has_row_id || (!h->active && !h->compacted) || !txc_hermes_db_has_col(&r->s->msg, "id") ||
	    !txc_query_is_message_role(h->role))
		return 0;
	struct numbers *c = r->numbers;
	if (++c->asked <= FEW) {
		if (c->count == NULL && number_sql(r->s, &c->count, true) != SQLITE_OK)
			return 0;
		sqlite3_bind_value(c->count, 1, sqlite3_column_value(row, C_SID));
		sqlite3_bind_int64(c->count, 2, h->row_id);
		size_t n = sqlite3_step(c->count) == SQLITE_ROW && sqlite3_column_int(c->count, 1) == 1
				   ? (size_t)sqlite3_column_int64(c->count, 0)
				   : 0;
		sqlite3_reset(c->count);
		return n;
	}
	if (r->numbers->st == NULL && number_sql(r->s, &r->numbers->st, false) != SQLITE_OK)
		return 0;
	const struct numbered *e = session_ids(r->numbers, sqlite3_column_value(row, C_SID));
	size_t lo = 0, hi = e->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (e->ids[mid] < h->row_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->n && e->ids[lo] == h->row_id ? lo + 1 : 0;
}

static void numbers_free(struct numbers *c)
{
	for (size_t i = 0; i < NUMBERED; i++)
		drop_numbered(c, &c->v[i]);
	sqlite3_finalize(c->st);
	sqlite3_finalize(c->count);
}

/* A column as a JSON string over SQLite's bytes (valid until the next step), or null. */
static const struct txc_json *col_view(struct txc_arena *a, sqlite3_stmt *st, int i)
{
	struct txc_str v = col_str(st, i);
	if (v.ptr == NULL)
		return &txc_json_null_value;
	struct txc_json *j = txc_json_new(a, TXC_JSON_STRING);
	j->s = v;
	return j;
}

/* The row's text as the model shows it (txc_hermes_search_text): what a scan of its rows matches. */
static void row_text(struct txc_arena *a, sqlite3_stmt *st, struct txc_str out[2])
{
	struct txc_json *o = txc_json_object(a, 4);
	txc_json_put(o, txc_str_c("role"), col_view(a, st, C_ROLE));
	txc_json_put(o, txc_str_c("content"), txc_hermes_db_decode_content(a, col_view(a, st, C_CONTENT)));
	txc_json_put(o, txc_str_c("api_content"), col_view(a, st, C_API));
	txc_json_put(o, txc_str_c("codex_message_items"), col_view(a, st, C_ITEMS));
	txc_hermes_search_text(a, o, out);
}

/* The four texts a row is matched on (row_hit's, and what txc's own index holds of a row). */
static void match_text(struct txc_arena *a, sqlite3_stmt *st, struct txc_str cols[4])
{
	struct txc_str text[2];
	row_text(a, st, text);
	cols[0] = text[0];
	cols[1] = col_str(st, C_TOOL);
	cols[2] = col_str(st, C_CALLS);
	cols[3] = text[1];
}

/* One row of a query: checked against the query, then handed on. */
static int row_hit(struct run *r, sqlite3_stmt *st)
{
	struct txc_hit h = {0};
	r->offered++;
	txc_arena_reset(r->a);
	match_text(r->a, st, h.cols);
	if (!txc_query_match(r->q, h.cols, 4) ||
	    (r->o->tool && !txc_source_uses_tool(r->a, h.cols[1], h.cols[2], r->o->tool)))
		return 0;
	r->kept++;
	h.sid = txc_source_sid(r->a, col_json(r->a, st, C_SID), sqlite3_column_type(st, C_SROWID) == SQLITE_INTEGER,
			       sqlite3_column_int64(st, C_SROWID));
	h.has_row_id = sqlite3_column_type(st, C_ID) == SQLITE_INTEGER;
	h.row_id = sqlite3_column_int64(st, C_ID);
	h.role = col_str(st, C_ROLE);
	h.tool_name = h.cols[1];
	h.timestamp = sqlite3_column_type(st, C_TIME) == SQLITE_NULL ? NULL : col_json(r->a, st, C_TIME);
	h.active = sqlite3_column_type(st, C_ACTIVE) == SQLITE_NULL || sqlite3_column_int64(st, C_ACTIVE) == 1;
	h.compacted = sqlite3_column_int64(st, C_COMPACTED) == 1;
	h.has_rank = sqlite3_column_type(st, C_RANK) != SQLITE_NULL;
	h.rank = sqlite3_column_double(st, C_RANK);
	h.number = number_of(r, st, &h);
	if (r->tips != NULL && sqlite3_column_type(st, C_SID) == SQLITE_TEXT) {
		const char *tip = txc_hermes_db_tip_of(r->s, r->tips, (const char *)sqlite3_column_text(st, C_SID));
		h.tip = tip ? txc_str_c(tip) : TXC_STR_NULL;
	}
	return r->sink->hit(r->sink->ctx, &h);
}

static void bind_filters(struct run *r, sqlite3_stmt *st, const char *match, bool likes);

static int run_sql(struct run *r, const char *sql, const char *match)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(r->s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	bind_filters(r, st, match, true);
	if (r->stop)
		rc = SQLITE_DONE;
	else
		while ((rc = sqlite3_step(st)) == SQLITE_ROW && (r->stop = row_hit(r, st)) == 0)
			;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || r->stop ? SQLITE_OK : rc;
}

/* ---- the op ---- */

/* Append to info->how at *n, cut at its size as snprintf cuts (past the end: nothing). */
static void how_add(struct txc_search_info *info, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void how_add(struct txc_search_info *info, size_t *n, const char *fmt, ...)
{
	if (*n >= sizeof(info->how))
		return;
	va_list ap;
	va_start(ap, fmt);
	*n += (size_t)vsnprintf(info->how + *n, sizeof(info->how) - *n, fmt, ap); /* %s %d %lld: never negative */
	va_end(ap);
}

/* what elsewhere_cond() adds to the rows the index gives */
static void describe_elsewhere(const struct plan *p, struct txc_search_info *info, size_t *n)
{
	how_add(info, n, "; rows whose text is not as the index holds it (\"\\0json:\" content%s): scanned",
		p->replies ? "; replies in api_content, codex_message_items" : "");
}

static void describe_trigram(const struct plan *p, const char *expr, struct txc_search_info *info)
{
	snprintf(info->index, sizeof(info->index), "%s",
		 p->legacy ? "messages_fts_trigram (legacy inline)" : "messages_fts_trigram (external content)");
	size_t n = 0;
	how_add(info, &n, "MATCH %s (substrings); ", expr);
	if (p->legacy)
		how_add(info, &n, "tool rows longer than %d characters", TOOL_CUT);
	else
		how_add(info, &n, "rows its view %.64s leaves out (tool rows%s)", p->src,
			p->no_calls ? ", and tool calls" : "");
	if (p->window)
		how_add(info, &n, ", rows %lld..%lld (a rebuild in progress)", (long long)p->lo + 1, (long long)p->hi);
	how_add(info, &n, " are not indexed by it: scanned");
	describe_elsewhere(p, info, &n);
}

static void describe(const struct plan *p, const char *fts, struct txc_search_info *info)
{
	info->complete = true;
	if (p->trigram) {
		describe_trigram(p, fts, info);
		return;
	}
	if (!p->fts) {
		snprintf(info->index, sizeof(info->index), "scan");
		snprintf(info->how, sizeof(info->how), "every row was read: %s", p->why);
		return;
	}
	snprintf(info->index, sizeof(info->index), "%s",
		 p->legacy ? "messages_fts (legacy inline)" : "messages_fts (external content)");
	size_t n = 0;
	how_add(info, &n, "MATCH %s", fts);
	if (p->window)
		how_add(info, &n, "; rows %lld..%lld are not indexed yet (a rebuild in progress): scanned",
			(long long)p->lo + 1, (long long)p->hi);
	if (p->tools_cut)
		how_add(info, &n, "; tool rows longer than %d characters are indexed only in part: scanned", TOOL_CUT);
	describe_elsewhere(p, info, &n);
}

static void bind_filters(struct run *r, sqlite3_stmt *st, const char *match, bool likes)
{
	if (match)
		sqlite3_bind_text(st, 1, match, -1, SQLITE_STATIC);
	if (r->o->role)
		sqlite3_bind_text(st, 2, r->o->role, -1, SQLITE_STATIC);
	if (r->o->tool)
		sqlite3_bind_text(st, 3, r->o->tool, -1, SQLITE_STATIC);
	for (size_t i = 0, k = 4; likes && i < r->q->n; i++)
		if (!r->q->v[i].negated)
			bind_like(st, (int)k++, txc_query_needle(r->q, i));
}

/*
 * Rows in the order ids_sql gives their ids (id, rank), each then looked up
 * by id (?5, its rank bound as ?6) until the sink has enough: the order is
 * made from ids alone (FTS5's own ORDER BY rank; a sort of ids and times),
 * and a top 20 reads about 20 whole rows, not every match.
 */
static int by_ids(struct run *r, const char *ids_sql, const char *match, bool likes)
{
	sqlite3_stmt *ids = NULL, *one = NULL;
	struct txc_buf b = TXC_BUF_INIT;
	select_cols(r->s, &b, "?6");
	txc_buf_addstr(&b, " FROM messages m JOIN sessions s ON s.id = m.session_id");
	filters(r->s, &b, r->o);
	txc_buf_addstr(&b, " AND m.id = ?5");
	int rc = sqlite3_prepare_v2(r->s->db, ids_sql, -1, &ids, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(r->s->db, b.buf, -1, &one, NULL);
	txc_buf_release(&b);
	if (rc == SQLITE_OK) {
		bind_filters(r, ids, match, likes);
		bind_filters(r, one, NULL, false);
	}
	while (rc == SQLITE_OK && r->stop == 0 && (rc = sqlite3_step(ids)) == SQLITE_ROW) {
		sqlite3_bind_value(one, 5, sqlite3_column_value(ids, 0));
		sqlite3_bind_value(one, 6, sqlite3_column_value(ids, 1));
		while (r->stop == 0 && (rc = sqlite3_step(one)) == SQLITE_ROW) /* repeated session ids: more than one */
			r->stop = row_hit(r, one);
		sqlite3_reset(one);
		rc = rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
	}
	sqlite3_finalize(one); /* first: finalizing it would clear the error ids's step left */
	sqlite3_finalize(ids);
	return rc == SQLITE_DONE || r->stop ? SQLITE_OK : rc;
}

/* Best first: the index's ranking. */
static int fts_ranked(struct run *r, const char *fts)
{
	return by_ids(r, "SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ?1 ORDER BY rank", fts, false);
}

/* No index: the ids of the rows LIKE lets through, newest (or oldest) first, then each row. */
static int scan_all(struct run *r)
{
	struct txc_buf b = TXC_BUF_INIT;
	scan_query(r->s, &b, r->q, r->o, NULL, true);
	int rc = by_ids(r, b.buf, NULL, true);
	txc_buf_release(&b);
	return rc;
}

/* txc's own index (hermes_db_index.c) of the rows cond selects, attached, made first if missing or stale. */
static bool use_index(struct run *r, const char *cond)
{
	struct txc_buf stamp = TXC_BUF_INIT, sql = TXC_BUF_INIT;
	txc_hermes_db_index_stamp(r->s, cond, &stamp);
	bool ok = txc_hermes_db_index_attach(r->s, stamp.buf);
	if (!ok) {
		select_cols(r->s, &sql, "NULL");
		txc_buf_addf(&sql, " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE %s", cond);
		ok = txc_hermes_db_index_build(r->s, sql.buf, stamp.buf, match_text) &&
		     txc_hermes_db_index_attach(r->s, stamp.buf);
	}
	txc_buf_release(&stamp);
	txc_buf_release(&sql);
	return ok;
}

/*
 * The index, then in one scan what it lacks (the rows it found excluded): the rebuild's window,
 * cut tool rows, and the rows whose text is not what it holds (elsewhere_cond); without a
 * window, those rows are narrowed by txc's own index of them (use_index) instead of read.
 */
static int search_fts(struct run *r, const struct plan *p, const char *fts)
{
	struct txc_buf b = TXC_BUF_INIT, extra = TXC_BUF_INIT;
	int rc = SQLITE_OK;
	if (r->o->sort == TXC_SORT_RANK)
		rc = fts_ranked(r, fts);
	txc_buf_addstr(&extra, " AND (");
	elsewhere_cond(r->s, &extra);
	if (p->tools_cut)
		txc_buf_addstr(&extra, " OR " TOOL_UNHELD);
	bool indexed = !p->window && rc == SQLITE_OK && use_index(r, extra.buf + 6);
	if (p->window)
		txc_buf_addf(&extra, " OR (m.id > %lld AND m.id <= %lld)", (long long)p->lo, (long long)p->hi);
	txc_buf_addstr(&extra, ") AND m.id NOT IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1)");
	if (indexed)
		txc_buf_addstr(&extra, " AND m.id IN (SELECT rowid FROM txc_index.words WHERE words MATCH ?1)");
	if (rc == SQLITE_OK && r->o->sort == TXC_SORT_RANK) {
		scan_query(r->s, &b, r->q, r->o, extra.buf, false);
		rc = run_sql(r, b.buf, fts);
	} else if (rc == SQLITE_OK) {
		fts_by_time(r->s, &b, r->q, r->o, extra.buf);
		rc = by_ids(r, b.buf, fts, true);
	}
	if (indexed && rc != SQLITE_OK)
		snprintf(r->err, sizeof(r->err), "%s", sqlite3_errmsg(r->s->db));
	if (indexed)
		txc_hermes_db_index_detach(r->s);
	txc_buf_release(&extra);
	txc_buf_release(&b);
	return rc;
}

/* The rows messages_fts_trigram does not hold (or holds only in part), as an SQL condition on m. */
static void trigram_unheld(struct hermes_db *s, const struct plan *p, struct txc_buf *b)
{
	txc_buf_addstr(b, "(");
	elsewhere_cond(s, b);
	txc_buf_addstr(b, " OR ");
	if (p->legacy) {
		txc_buf_addstr(b, TOOL_UNHELD);
	} else {
		/* correlated: SQLite tests it after the LIKE terms, so only on rows LIKE let through */
		txc_buf_addf(b, "NOT EXISTS (SELECT 1 FROM \"%s\" v WHERE v.\"%s\" = m.id)", p->src, p->src_id);
		if (p->no_calls && txc_hermes_db_has_col(&s->msg, "tool_calls"))
			txc_buf_addstr(b, " OR COALESCE(m.tool_calls, '') <> ''");
		if (p->no_name && txc_hermes_db_has_col(&s->msg, "tool_name"))
			txc_buf_addstr(b, " OR COALESCE(m.tool_name, '') <> ''");
	}
	if (p->window)
		txc_buf_addf(b, " OR (m.id > %lld AND m.id <= %lld)", (long long)p->lo, (long long)p->hi);
	txc_buf_addstr(b, ")");
}

#define TRIGRAM_IDS "SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH ?1"

/*
 * messages_fts_trigram, and what it does not hold scanned on top.  By rank:
 * its ranking, then the rows scanned.  By time: one pass that takes the rows
 * it found and the rows it cannot hold, in order, so a limit cuts the same
 * hits a scan would.
 */
static int search_trigram(struct run *r, const struct plan *p, const char *expr)
{
	struct txc_buf b = TXC_BUF_INIT, extra = TXC_BUF_INIT;
	int rc;
	if (r->o->sort == TXC_SORT_RANK) {
		rc = by_ids(r, TRIGRAM_IDS " ORDER BY rank", expr, false);
		txc_buf_addstr(&extra, " AND ");
		trigram_unheld(r->s, p, &extra);
		txc_buf_addstr(&extra, " AND m.id NOT IN (" TRIGRAM_IDS ")");
		scan_query(r->s, &b, r->q, r->o, extra.buf, false);
		if (rc == SQLITE_OK)
			rc = run_sql(r, b.buf, expr);
	} else {
		txc_buf_addstr(&extra, " AND (m.id IN (" TRIGRAM_IDS ") OR ");
		trigram_unheld(r->s, p, &extra);
		txc_buf_addstr(&extra, ")");
		scan_query(r->s, &b, r->q, r->o, extra.buf, true);
		rc = by_ids(r, b.buf, expr, true);
	}
	txc_buf_release(&extra);
	txc_buf_release(&b);
	return rc;
}

int txc_hermes_db_search(void *impl, const struct txc_query *q, const struct txc_search_opts *o,
			 const struct txc_hit_sink *sink, struct txc_search_info *info, struct txc_diag *d)
{
	struct hermes_db *s = impl;
	if (!s->has_messages || !txc_hermes_db_has_col(&s->msg, "session_id")) {
		snprintf(info->index, sizeof(info->index), "none");
		snprintf(info->how, sizeof(info->how), "%s",
			 s->has_messages ? "the store's messages have no session_id"
					 : "the store has no messages table");
		info->complete = true;
		return TXC_OK;
	}
	struct plan p = {0};
	plan_index(s, q, o, &p);
	p.replies = has_elsewhere(s);
	char *fts = p.trigram ? txc_query_trigram(q) : txc_query_fts(q);
	describe(&p, fts ? fts : "", info);
	struct txc_hermes_db_tips tips = {0};
	bool linked =
		txc_hermes_db_has_col(&s->sess, "parent_session_id") && txc_hermes_db_has_col(&s->sess, "end_reason");
	struct numbers numbers = {0};
	struct run r = {s, q, o, sink, txc_arena_new(0), 0, 0, 0, linked ? &tips : NULL, &numbers, {0}};
	int rc;
	if (p.trigram) {
		rc = search_trigram(&r, &p, fts);
	} else if (p.fts) {
		rc = search_fts(&r, &p, fts);
	} else if (txc_hermes_db_has_col(&s->msg, "id")) {
		rc = scan_all(&r);
	} else { /* no id to look rows up by: one pass */
		struct txc_buf b = TXC_BUF_INIT;
		scan_query(s, &b, q, o, NULL, false);
		rc = run_sql(&r, b.buf, NULL);
		txc_buf_release(&b);
	}
	txc_arena_free(r.a);
	txc_hermes_db_tip_free(&tips);
	numbers_free(&numbers);
	free(fts);
	if (rc != SQLITE_OK) {
		int e = txc_hermes_db_error(s, rc, d, "search");
		if (r.err[0] && e == TXC_E_FAIL && rc != SQLITE_READONLY_ROLLBACK)
			txc_diag_set(d, TXC_E_FAIL, "cannot search '%s': %s", s->path, r.err);
		return e;
	}
	return r.stop > 0 ? TXC_OK : r.stop; /* 1: the sink had enough */
}
