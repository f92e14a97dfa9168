/*
 * hermes_db_read.c - read sessions and messages from Hermes's state.db.
 *
 * One read transaction per session.  Column lists come from PRAGMA
 * table_info (hermes_db_open.c), so a missing column is simply absent;
 * session ids are always bound, never interpolated into SQL.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hermes_db.h"

/* ---- SQL text ---- */

static void col_or_null(struct txc_buf *b, const struct columns *c, const char *alias, const char *name)
{
	if (txc_hermes_db_has_col(c, name))
		txc_buf_addf(b, "%s.\"%s\"", alias, name);
	else
		txc_buf_addstr(b, "NULL");
}

/* COALESCE(sp.prompt, s.system_prompt): the prompt dedupe table wins */
static void resolved_prompt(struct hermes_db *s, struct txc_buf *b)
{
	if (s->has_prompts && txc_hermes_db_has_col(&s->sess, "system_prompt_hash")) {
		txc_buf_addstr(
			b, "COALESCE((SELECT sp.prompt FROM system_prompts sp WHERE sp.hash = s.system_prompt_hash), ");
		col_or_null(b, &s->sess, "s", "system_prompt");
		txc_buf_addch(b, ')');
	} else {
		col_or_null(b, &s->sess, "s", "system_prompt");
	}
}

/* The start both last_active forms share: the greatest of last_activity_at and the newest message. */
static void freshest_open(struct hermes_db *s, struct txc_buf *b)
{
	txc_buf_addstr(b, "COALESCE((SELECT MAX(v) FROM (SELECT ");
	col_or_null(b, &s->sess, "s", "last_activity_at");
	txc_buf_addstr(b, " AS v UNION ALL SELECT ");
	if (s->has_messages && txc_hermes_db_has_col(&s->msg, "timestamp") &&
	    txc_hermes_db_has_col(&s->msg, "session_id"))
		txc_buf_addstr(b, "(SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = s.id)");
	else
		txc_buf_addstr(b, "NULL");
}

static void last_active_expr(struct hermes_db *s, struct txc_buf *b)
{
	freshest_open(s, b);
	txc_buf_addstr(b, ")), ");
	col_or_null(b, &s->sess, "s", "started_at");
	txc_buf_addch(b, ')');
}

/*
 * Hermes 0.21's last_active (hermes-current.md 3.1, #91536): the freshest of last_activity_at and the
 * newest message's timestamp, each only inside the window EPOCH_MIN..EPOCH_MAX, else started_at inside
 * it, else NULL.  The window's values were not read upstream: txc takes 1970-01-01 to 2100-01-01 UTC
 * (docs/FORMATS.md).
 */
#define EPOCH_WINDOW " BETWEEN 0 AND 4102444800"
static void last_active_021_expr(struct hermes_db *s, struct txc_buf *b)
{
	freshest_open(s, b);
	txc_buf_addstr(b, ") WHERE v" EPOCH_WINDOW "), CASE WHEN ");
	col_or_null(b, &s->sess, "s", "started_at");
	txc_buf_addstr(b, EPOCH_WINDOW " THEN ");
	col_or_null(b, &s->sess, "s", "started_at");
	txc_buf_addstr(b, " END)");
}

/*
 * An untitled session's preview as Hermes's list_sessions_rich shapes it (hermes_state_common.py:
 * the first user message with content, by timestamp then id; line breaks as spaces, trimmed, 60
 * characters then "..."), of the first 240 characters only (a pasted file is not read whole: its
 * overflow pages stay unread); a row of no text, or of "\0json:" (an image and its text: SQLite's text
 * functions end at its NUL), is passed over: those sort below "\1" byte by byte.  Titled
 * sessions get NULL: only what stands in for a missing title is looked up, one seek a session.
 */
static void preview_expr(struct hermes_db *s, struct txc_buf *b)
{
	static const char *const need[] = {"session_id", "role", "content"};
	bool ok = s->has_messages && txc_hermes_db_has_col(&s->sess, "title");
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		ok = ok && txc_hermes_db_has_col(&s->msg, need[i]);
	if (!ok) {
		txc_buf_addstr(b, "NULL");
		return;
	}
	const char *order = txc_hermes_db_has_col(&s->msg, "timestamp") ? "m.timestamp, m.rowid" : "m.rowid";
	txc_buf_addf(b,
		     "CASE WHEN s.title IS NULL OR s.title = '' THEN (SELECT substr(m.content, 1, 240) FROM messages m "
		     "WHERE m.session_id = s.id AND m.role = 'user' AND m.content > CAST(X'01' AS TEXT) ORDER BY %s "
		     "LIMIT 1) END",
		     order);
}

/* The preview's text shaped as Hermes does, in C (SQL's replace() and trim() were 27,000 instructions a
 * session): CR and LF as spaces, trimmed, 60 code points then "..."; NULL when nothing is left. */
static const struct txc_json *shape_preview(struct txc_arena *a, const struct txc_json *v)
{
	if (v == NULL || v->kind != TXC_JSON_STRING)
		return NULL;
	const char *p = v->s.ptr, *end = p + v->s.len;
	while (p < end && (*p == ' ' || (*p >= '\t' && *p <= '\r'))) /* Python's strip(): whitespace */
		p++;
	while (end > p && (end[-1] == ' ' || (end[-1] >= '\t' && end[-1] <= '\r')))
		end--;
	if (p == end)
		return NULL;
	size_t cut = 0, chars = 0;
	for (; p + cut < end && chars < 60; cut++)
		chars += ((unsigned char)p[cut] & 0xC0) != 0x80;
	while (p + cut < end && ((unsigned char)p[cut] & 0xC0) == 0x80) /* the 60th's continuation bytes */
		cut++;
	bool more = p + cut < end;
	char *out = txc_arena_alloc(a, cut + 4);
	for (size_t i = 0; i < cut; i++)
		out[i] = p[i] == '\n' || p[i] == '\r' ? ' ' : p[i];
	if (more)
		memcpy(out + cut, "...", 3);
	return txc_json_string(a, out, cut + (more ? 3 : 0));
}

/* Whether the store's columns show a Hermes newer than v0.20.0 (hermes-current.md 2.1: the columns it
 * added since, none of which v0.20.0 creates): --hermes-format auto writes 0.21's export then. */
static bool newer_store(struct hermes_db *s)
{
	static const char *const sess[] = {"created_source",
					   "git_metadata_generation",
					   "title_source",
					   "compression_recovery_deadline",
					   "compression_overload_streak",
					   "transport_profile",
					   "hidden",
					   "last_read_at",
					   "tool_names",
					   "auto_archived"};
	static const char *const msg[] = {"_compressed_summary",   "display_identity", "display_order", "message_uid",
					  "absorbed_message_uids", "tool_call_uids",   "tool_call_uid"};
	if (s->newer == 0) {
		s->newer = 1;
		for (size_t i = 0; i < sizeof(sess) / sizeof(sess[0]); i++)
			if (txc_hermes_db_has_col(&s->sess, sess[i]))
				s->newer = 2;
		for (size_t i = 0; i < sizeof(msg) / sizeof(msg[0]); i++)
			if (txc_hermes_db_has_col(&s->msg, msg[i]))
				s->newer = 2;
	}
	return s->newer == 2;
}

static int prepare(struct hermes_db *s, const char *sql, sqlite3_stmt **st, struct txc_diag *d)
{
	int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
	if (rc != SQLITE_OK)
		return txc_hermes_db_error(s, rc, d, "query");
	return TXC_OK;
}

static int session_stmt(struct hermes_db *s, bool bulk, bool by_rowid, sqlite3_stmt **out, struct txc_diag *d)
{
	sqlite3_stmt **slot = &s->q_session[bulk][by_rowid];
	if (*slot == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_addstr(&b, "SELECT s.*, ");
		resolved_prompt(s, &b);
		if (bulk) {
			txc_buf_addstr(&b, ", ");
			last_active_expr(s, &b);
			txc_buf_addstr(&b, ", ");
			last_active_021_expr(s, &b);
		}
		if (by_rowid)
			txc_buf_addf(&b, " FROM sessions s WHERE s.%s = ?1", s->rowid);
		else
			txc_buf_addstr(&b, " FROM sessions s WHERE s.id = ?1");
		int rc = prepare(s, b.buf, slot, d);
		txc_buf_release(&b);
		if (rc)
			return rc;
	}
	*out = *slot;
	return TXC_OK;
}

/* " AND active = 1" (with compacted: or compacted), as the store's columns allow */
static void active_cond(struct hermes_db *s, bool compacted, struct txc_buf *b)
{
	if (txc_hermes_db_has_col(&s->msg, "active")) {
		if (compacted && txc_hermes_db_has_col(&s->msg, "compacted"))
			txc_buf_addstr(b, " AND (active = 1 OR compacted = 1)");
		else
			txc_buf_addstr(b, " AND active = 1");
	}
}

/* after: only the rows whose id is above ?2 (--follow; the store has an id column then) */
static int messages_stmt(struct hermes_db *s, bool compacted, bool after, sqlite3_stmt **out, struct txc_diag *d)
{
	sqlite3_stmt **slot = after ? &s->q_after[compacted] : compacted ? &s->q_messages_compacted : &s->q_messages;
	if (*slot == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_addstr(&b, "SELECT * FROM messages WHERE session_id = ?1");
		active_cond(s, compacted, &b);
		if (after)
			txc_buf_addstr(&b, " AND id > ?2");
		txc_buf_addstr(&b, txc_hermes_db_has_col(&s->msg, "id") ? " ORDER BY id" : " ORDER BY rowid");
		int rc = prepare(s, b.buf, slot, d);
		txc_buf_release(&b);
		if (rc)
			return rc;
	}
	*out = *slot;
	return TXC_OK;
}

/* ", <rowid>, <archived>" after a SELECT list over sessions s: a row's place and its archived value */
static void identity_cols(struct hermes_db *s, struct txc_buf *b, bool archived)
{
	if (s->rowid != NULL)
		txc_buf_addf(b, ", s.%s", s->rowid);
	else
		txc_buf_addstr(b, ", NULL");
	/* (a completion of every session does not read it: the record's 57th column, its header parsed up to it) */
	txc_buf_addstr(b, archived && txc_hermes_db_has_col(&s->sess, "archived") ? ", s.archived" : ", NULL");
}

/* the identity of a row whose id is v and whose identity_cols() start at column i */
static struct txc_sid row_sid(struct txc_arena *a, sqlite3_stmt *st, const struct txc_json *v, int i)
{
	sqlite3_value *pos = sqlite3_column_value(st, i); /* as txc_hermes_db_value() reads */
	return txc_source_sid(a, v, sqlite3_value_type(pos) == SQLITE_INTEGER, sqlite3_value_int64(pos));
}

/* ---- listings ---- */

/* TXC_LIST_BRIEF's columns, in this order (TXC_LIST_IDS_ONLY: the id alone); then last_active if asked */
enum { B_ID, B_SOURCE, B_MODEL, B_STARTED, B_COUNT, B_CWD, B_TITLE, B_N }; /* archived: identity_cols() */
static const char *const brief_cols[B_N] = {"id", "source", "model", "started_at", "message_count", "cwd", "title"};

/* whether a listing's rows are brief_cols (else `s.*`, or the id alone) */
static bool brief_layout(unsigned flags)
{
	return (flags & TXC_LIST_BRIEF) && !(flags & TXC_LIST_IDS_ONLY);
}

/* by_id: the id orders rows of equal started_at in SQL (see db_sessions); one: the row whose rowid is ?1 */
static void sessions_sql(struct hermes_db *s, unsigned flags, bool by_id, bool one, struct txc_buf *b)
{
	if (flags & TXC_LIST_IDS_ONLY) {
		txc_buf_addstr(b, "SELECT s.id AS id");
	} else if (flags & TXC_LIST_BRIEF) {
		/* the columns the summary uses: a few instead of sixty */
		txc_buf_addstr(b, "SELECT ");
		for (int i = 0; i < B_N; i++) {
			if (i)
				txc_buf_addstr(b, ", ");
			if ((i == B_CWD && !(flags & TXC_LIST_CWD)) ||
			    ((flags & TXC_LIST_NAMES) && i != B_ID && i != B_TITLE && i != B_SOURCE && i != B_STARTED))
				txc_buf_addstr(b, "NULL"); /* only a --cwd filter reads it; a completion names */
			else
				col_or_null(b, &s->sess, "s", brief_cols[i]);
			txc_buf_addf(b, " AS %s", brief_cols[i]);
		}
	} else {
		txc_buf_addstr(b, "SELECT s.*");
	}
	if ((flags & TXC_LIST_LAST_ACTIVE) && !(flags & TXC_LIST_IDS_ONLY)) {
		txc_buf_addstr(b, ", ");
		if (flags & TXC_LIST_ROW_ACTIVITY) { /* (the newest message's seek was half of a terminal's list) */
			txc_buf_addstr(b, "COALESCE(");
			col_or_null(b, &s->sess, "s", "last_activity_at");
			txc_buf_addstr(b, ", ");
			col_or_null(b, &s->sess, "s", "ended_at");
			txc_buf_addstr(b, ")");
		} else {
			last_active_expr(s, b);
		}
		txc_buf_addstr(b, " AS last_active");
	}
	if ((flags & TXC_LIST_PREVIEW) && !(flags & TXC_LIST_IDS_ONLY)) {
		txc_buf_addstr(b, ", ");
		preview_expr(s, b);
		txc_buf_addstr(b, " AS preview");
	}
	identity_cols(s, b, !(flags & TXC_LIST_NAMES) || !(flags & TXC_LIST_ARCHIVED)); /* not part of the row */
	bool started = txc_hermes_db_has_col(&s->sess, "started_at");
	if (!brief_layout(flags)) /* the first order key, for may_tie() (a brief row has it: B_STARTED) */
		txc_buf_addstr(b, started ? ", s.\"started_at\"" : ", NULL");
	if ((flags & TXC_LIST_FINGERPRINT) && s->rowid == NULL) /* (else hermes_db_fp.c's own read: unsorted) */
		txc_hermes_db_fingerprint_cols(s, b);
	txc_buf_addstr(b, " FROM sessions s");
	if (one)
		txc_buf_addf(b, " WHERE s.%s = ?1", s->rowid);
	else if (brief_layout(flags) && (flags & TXC_LIST_NAMES))
		; /* the table as it is stored, sorted by the façade: walking the start's index was a seek a
		     row, half of a completion's instructions */
	else if (!started)
		txc_buf_addstr(b, " ORDER BY id DESC");
	else
		txc_buf_addstr(b, by_id ? " ORDER BY started_at DESC, id DESC" : " ORDER BY started_at DESC");
}

/* The previous row's first order key, as far as may_tie() needs it. */
struct order_key {
	int type;
	double d;
	struct txc_buf text; /* TEXT and BLOB bytes */
};

/* t without its trailing spaces (RTRIM) */
static size_t rtrim_len(const unsigned char *t, size_t n)
{
	while (n > 0 && t[n - 1] == ' ')
		n--;
	return n;
}

/* ASCII case folded (NOCASE) */
static bool fold_eq(const unsigned char *x, const unsigned char *y, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char a = x[i], b = y[i];
		if (a != b && !((a | 0x20) == (b | 0x20) && (a | 0x20) >= 'a' && (a | 0x20) <= 'z'))
			return false;
	}
	return true;
}

/*
 * Whether column i of this row may equal the previous row's key to ORDER BY (any of
 * SQLite's collations: BINARY, NOCASE, RTRIM; an integer and a real of one value); k
 * then holds this row's key.  Errs towards yes: a yes only costs a second read.
 */
static bool may_tie(struct order_key *k, sqlite3_stmt *st, int i)
{
	sqlite3_value *v = sqlite3_column_value(st, i); /* as txc_hermes_db_value() reads */
	int type = sqlite3_value_type(v);
	bool tie = false;
	if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
		double d = sqlite3_value_double(v);
		tie = (k->type == SQLITE_INTEGER || k->type == SQLITE_FLOAT) && k->d == d;
		k->d = d;
	} else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
		const unsigned char *p = type == SQLITE_TEXT ? sqlite3_value_text(v) : sqlite3_value_blob(v);
		size_t n = (size_t)sqlite3_value_bytes(v);
		if (type == SQLITE_TEXT) {
			size_t m = rtrim_len(p, n), pm = rtrim_len((const unsigned char *)k->text.buf, k->text.len);
			tie = k->type == SQLITE_TEXT && m == pm && fold_eq(p, (const unsigned char *)k->text.buf, m);
		} else {
			tie = k->type == SQLITE_BLOB && n == k->text.len && (n == 0 || memcmp(p, k->text.buf, n) == 0);
		}
		txc_buf_reset(&k->text);
		if (n)
			txc_buf_add(&k->text, p, n);
	} else {
		tie = k->type == SQLITE_NULL;
	}
	k->type = type;
	return tie;
}

/* A row of `s.*` (then last_active): the summary from its row object, kept as native; its id. */
static const struct txc_json *full_info(struct txc_arena *a, sqlite3_stmt *st, unsigned flags, int ncols,
					struct txc_str *keys, struct txc_session_info *info)
{
	const struct txc_json *row = txc_hermes_db_row(a, st, ncols, keys, false);
	txc_source_info(row, info);
	if (flags & TXC_LIST_PREVIEW) { /* its column, the row's last, shaped in place (our arena's object) */
		struct txc_json *r = (struct txc_json *)row;
		if (r->kind == TXC_JSON_OBJECT && r->n > 0 && txc_str_eq(r->keys[r->n - 1], "preview")) {
			const struct txc_json *pv = shape_preview(a, r->items[r->n - 1]);
			r->items[r->n - 1] = pv != NULL ? pv : &txc_json_null_value;
			if (pv != NULL)
				info->preview = pv->s;
		}
	}
	info->archived = txc_hermes_archived(txc_hermes_db_value(a, st, ncols + 1)); /* the identity column's */
	return txc_json_get(row, "id");
}

/*
 * A row of brief_cols (TXC_LIST_IDS_ONLY: of the id alone): each field read from its
 * place, no row object (native NULL: nothing reads it in a brief listing); its id.
 */
static const struct txc_json *brief_info(struct txc_arena *a, sqlite3_stmt *st, unsigned flags, int ncols,
					 struct txc_session_info *info, struct txc_json *id,
					 struct txc_str prev[B_N + 2])
{
	const struct txc_json *c[B_N + 2] = {NULL};
	struct txc_json nodes[B_N + 2];
	for (int i = 0; i < ncols && i <= B_N + 1; i++) /* (a source, a model: one copy for a run of rows) */
		c[i] = txc_hermes_db_value_in(a, st, i, i == B_ID ? id : &nodes[i], prev != NULL ? &prev[i] : NULL);
	int at = B_N + ((flags & TXC_LIST_LAST_ACTIVE) ? 1 : 0); /* the preview's column */
	const struct txc_source_fields f = {
		.title = c[B_TITLE],
		.cwd = c[B_CWD],
		.source = c[B_SOURCE],
		.model = c[B_MODEL],
		.n_messages = c[B_COUNT],
		.started = c[B_STARTED],
		.last_active = (flags & TXC_LIST_LAST_ACTIVE) ? c[B_N] : NULL,
		.archived = txc_hermes_db_value(a, st, ncols + 1), /* the identity column's */
	};
	txc_source_info_of(&f, NULL, info);
	const struct txc_json *pv = (flags & TXC_LIST_PREVIEW) && at < ncols ? shape_preview(a, c[at]) : NULL;
	if (pv != NULL)
		info->preview = pv->s;
	return c[B_ID];
}

/*
 * One read of the listing.  !by_id: the rows come by started_at alone, what the
 * index idx_sessions_started gives; a second key makes SQLite sort each run of
 * equal starts (half of what `list` costs).  Then *tied says two neighbours may
 * tie, and nothing is kept: the caller reads again with the id as second key.
 */
static int read_listing(struct hermes_db *s, unsigned flags, bool by_id, struct txc_arena *a,
			struct txc_session_info **out, size_t *room, size_t *n, bool *tied, struct txc_diag *d)
{
	struct txc_buf b = TXC_BUF_INIT;
	sqlite3_stmt *st;
	sessions_sql(s, flags, by_id, false, &b);
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return txc_hermes_db_error(s, rc, d, "list the sessions of");
	size_t cap = *room, count = 0;
	struct txc_session_info *v = *out;
	bool fp = flags & TXC_LIST_FINGERPRINT, fp_apart = fp && s->rowid != NULL;
	int64_t *rowid = fp_apart ? txc_xmalloc((cap ? cap : 1) * sizeof(*rowid)) : NULL;
	int hidden = brief_layout(flags) ? 2 : 3; /* identity_cols(), then the order key but in a brief row */
	int ncols = sqlite3_column_count(st) - hidden - (fp && !fp_apart ? 2 + txc_hermes_db_star_cols(s) : 0);
	int key = brief_layout(flags) ? B_STARTED : ncols + 2;
	bool by_place = flags & (TXC_LIST_BRIEF | TXC_LIST_IDS_ONLY);
	struct txc_str *keys = by_place ? NULL : txc_hermes_db_keys(a, st, ncols);
	struct order_key k = {.text = TXC_BUF_INIT};
	struct txc_str prev[B_N + 2] = {{0}};
	*tied = false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!by_id && may_tie(&k, st, key)) {
			*tied = true;
			break;
		}
		if (count == cap) { /* more rows than counted (a writer added some): a bigger array */
			struct txc_session_info *w = txc_arena_array(a, cap * 2, sizeof(*v));
			memcpy(w, v, count * sizeof(*v));
			v = w;
			if (fp_apart)
				rowid = txc_xrealloc(rowid, cap * 2 * sizeof(*rowid));
			cap *= 2;
		}
		const struct txc_json *id;
		struct txc_json id_node;
		if (by_place)
			id = brief_info(a, st, flags, ncols, &v[count], &id_node, prev);
		else
			id = full_info(a, st, flags, ncols, keys, &v[count]);
		v[count].sid = row_sid(a, st, id, ncols);
		if (fp_apart)
			rowid[count] = sqlite3_column_int64(st, ncols);
		else if (fp)
			v[count].fingerprint = txc_hermes_db_fingerprint(a, st, ncols + hidden);
		count++;
	}
	sqlite3_finalize(st);
	txc_buf_release(&k.text);
	if (rc == SQLITE_DONE && fp_apart) {
		rc = txc_hermes_db_fill_fingerprints(s, a, v, rowid, count);
		rc = rc == SQLITE_OK ? SQLITE_DONE : rc;
	}
	free(rowid);
	*out = v, *room = cap; /* (a tie: the next read reuses it) */
	if (rc == SQLITE_DONE)
		*n = count;
	if (*tied)
		return TXC_OK;
	return rc == SQLITE_DONE ? TXC_OK : txc_hermes_db_error(s, rc, d, "list the sessions of");
}

/* Every session, archived ones too, newest first (TXC_SRC_ORDERED). */
static int db_sessions(void *impl, unsigned flags, struct txc_arena *a, struct txc_session_info **out, size_t *n,
		       struct txc_diag *d)
{
	struct hermes_db *s = impl;
	bool tied, by_id = !txc_hermes_db_has_col(&s->sess, "started_at") || /* then the id is the only key */
			   (flags & TXC_LIST_NAMES);                         /* (no order by start to tie) */
	/* the array made once, as long as the table (no copy of a grown one: 184 bytes a session) */
	sqlite3_stmt *st;
	size_t room = 64;
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sessions", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		room = (size_t)sqlite3_column_int64(st, 0) + 1;
	sqlite3_finalize(st);
	*out = txc_arena_array(a, room, sizeof(**out));
	int rc = read_listing(s, flags, by_id, a, out, &room, n, &tied, d);
	if (rc == TXC_OK && tied)
		rc = read_listing(s, flags, true, a, out, &room, n, &tied, d);
	return rc;
}

/*
 * ops->session: the listing row of the session at rowid sid->pos alone (one seek), as a listing
 * with flags would give it (no fingerprint); its statement kept for the next session asked.
 */
static int db_session(void *impl, const struct txc_sid *sid, unsigned flags, struct txc_arena *a,
		      struct txc_session_info *out, struct txc_diag *d)
{
	struct hermes_db *s = impl;
	if (!sid->placed || s->rowid == NULL || (flags & TXC_LIST_FINGERPRINT)) {
		txc_diag_set(d, TXC_E_USAGE, "no session row by place in '%s'", s->path);
		return TXC_E_USAGE;
	}
	if (s->q_one != NULL && s->q_one_flags != flags) {
		sqlite3_finalize(s->q_one);
		s->q_one = NULL;
	}
	if (s->q_one == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		sessions_sql(s, flags, true, true, &b);
		int rc = prepare(s, b.buf, &s->q_one, d);
		txc_buf_release(&b);
		if (rc)
			return rc;
		s->q_one_flags = flags;
	}
	sqlite3_stmt *st = s->q_one;
	sqlite3_bind_int64(st, 1, sid->pos);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int ncols = sqlite3_column_count(st) - (brief_layout(flags) ? 2 : 3);
		struct txc_json id_node;
		const struct txc_json *id =
			(flags & (TXC_LIST_BRIEF | TXC_LIST_IDS_ONLY))
				? brief_info(a, st, flags, ncols, out, &id_node, NULL)
				: full_info(a, st, flags, ncols, txc_hermes_db_keys(a, st, ncols), out);
		out->sid = row_sid(a, st, id, ncols);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		txc_diag_set(d, TXC_E_NOTFOUND, "no session at row %lld of '%s'", (long long)sid->pos, s->path);
	return rc == SQLITE_ROW ? TXC_OK : rc == SQLITE_DONE ? TXC_E_NOTFOUND : txc_hermes_db_error(s, rc, d, "read");
}

/* Hermes's bulk-export order: last_active DESC, started_at DESC, id DESC, in SQL as Hermes has it. */
static int db_export_order(void *impl, struct txc_arena *a, struct txc_sid **ids, size_t *n, struct txc_diag *d)
{
	struct hermes_db *s = impl;
	struct txc_buf b = TXC_BUF_INIT;
	sqlite3_stmt *st;
	txc_buf_addstr(&b, "SELECT s.id");
	identity_cols(s, &b, true);
	txc_buf_addstr(&b, ", ");
	last_active_expr(s, &b);
	txc_buf_addstr(&b, " AS last_active FROM sessions s ORDER BY last_active DESC, ");
	col_or_null(&b, &s->sess, "s", "started_at");
	txc_buf_addstr(&b, " DESC, s.id DESC");
	int rc = sqlite3_prepare_v2(s->db, b.buf, -1, &st, NULL);
	txc_buf_release(&b);
	if (rc != SQLITE_OK)
		return txc_hermes_db_error(s, rc, d, "list the sessions of");
	size_t cap = 64, count = 0;
	struct txc_sid *v = txc_xmalloc(cap * sizeof(*v));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == cap)
			v = txc_xrealloc(v, (cap *= 2) * sizeof(*v));
		v[count++] = row_sid(a, st, txc_hermes_db_value(a, st, 0), 1);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		*ids = txc_arena_array(a, count ? count : 1, sizeof(*v));
		if (count)
			memcpy(*ids, v, count * sizeof(*v));
		*n = count;
	}
	free(v);
	return rc == SQLITE_DONE ? TXC_OK : txc_hermes_db_error(s, rc, d, "list the sessions of");
}

/* ---- one session ---- */

/* An id not placed by a listing (a WITHOUT ROWID table): bound as the type it was. */
static void bind_id(sqlite3_stmt *st, const struct txc_sid *id)
{
	char *text = txc_xstrndup(id->text.ptr, id->text.len);
	if (id->kind == TXC_ID_INT)
		sqlite3_bind_int64(st, 1, strtoll(text, NULL, 10));
	else if (id->kind == TXC_ID_REAL)
		sqlite3_bind_double(st, 1, strtod(text, NULL));
	else
		sqlite3_bind_text(st, 1, id->text.ptr, (int)id->text.len, SQLITE_TRANSIENT);
	free(text);
}

/* The session row (and last_active) into t->native; *idv: its id value, for its messages. */
static int read_head(struct hermes_db *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		     sqlite3_value **idv, struct txc_diag *d, int *sqlrc)
{
	struct txc_arena *a = t->arena;
	sqlite3_stmt *st;
	bool bulk = flags & TXC_LOAD_LAST_ACTIVE, by_rowid = id->placed && s->rowid != NULL;
	int rc = session_stmt(s, bulk, by_rowid, &st, d);
	if (rc)
		return rc;
	if (by_rowid)
		sqlite3_bind_int64(st, 1, id->pos);
	else
		bind_id(st, id);
	*sqlrc = sqlite3_step(st);
	if (*sqlrc != SQLITE_ROW) {
		sqlite3_reset(st);
		if (*sqlrc == SQLITE_DONE) {
			txc_diag_set(d, TXC_E_NOTFOUND, "no session '%.*s' in '%s'", (int)id->text.len, id->text.ptr,
				     s->path);
			return TXC_E_NOTFOUND;
		}
		return txc_hermes_db_error(s, *sqlrc, d, "read a session from");
	}
	/* its messages are the rows whose session_id is this row's id, whatever its type */
	int id_col = 0;
	while ((size_t)id_col < s->sess.n && strcmp(s->sess.name[id_col], "id") != 0)
		id_col++;
	*idv = sqlite3_value_dup(sqlite3_column_value(st, id_col));
	int ncols = (int)s->sess.n;
	struct txc_json *sess =
		(struct txc_json *)txc_hermes_db_row(a, st, ncols, txc_hermes_db_keys(a, st, ncols), false);
	const struct txc_json *prompt = txc_hermes_db_value(a, st, ncols);
	for (size_t i = 0; i < sess->n; i++)
		if (txc_str_eq(sess->keys[i], "system_prompt"))
			sess->items[i] = prompt;
	struct txc_hermes_native *nv = txc_hermes_native(t);
	if (bulk) {
		nv->last_active = txc_hermes_db_value(a, st, ncols + 1);
		nv->last_active_021 = txc_hermes_db_value(a, st, ncols + 2);
		nv->has_last_active_021 = true;
	}
	nv->newer = newer_store(s);
	sqlite3_reset(st);
	nv->session = sess;
	nv->rows = txc_json_array(a, 0);
	return TXC_OK;
}

/* Where the message rows go: a sink, the model builder, or t->native->rows (a heap vector, then one copy). */
struct row_dest {
	const struct txc_row_sink *sink;
	struct txc_model_builder *mb;
	struct txc_arena *scratch; /* sink or builder: each row is built here and dropped */
	const struct txc_json **v;
	size_t n, cap;
};

static int put_row(struct row_dest *r, struct txc_arena *a, sqlite3_stmt *st, int mcols, struct txc_str *keys)
{
	int rc = TXC_OK;
	if (r->mb != NULL) {
		txc_model_add_row(r->mb, txc_hermes_db_row(r->scratch, st, mcols, keys, true), r->scratch);
	} else if (r->sink != NULL) {
		rc = r->sink->row(r->sink->ctx, txc_hermes_db_row(r->scratch, st, mcols, keys, true));
	} else {
		if (r->n == r->cap)
			r->v = txc_xrealloc(r->v, (r->cap = r->cap ? r->cap * 2 : 64) * sizeof(*r->v));
		r->v[r->n++] = txc_hermes_db_row(a, st, mcols, keys, true);
	}
	if (r->scratch != NULL)
		txc_arena_reset(r->scratch);
	return rc;
}

/* --follow: which rows a read starts after (after < 0: all) and the last row id it read */
struct rows_after {
	int64_t after, last;
};

/* the column "id" of a messages statement, or -1 */
static int id_column(sqlite3_stmt *st, int ncols)
{
	for (int i = 0; i < ncols; i++)
		if (strcmp(sqlite3_column_name(st, i), "id") == 0)
			return i;
	return -1;
}

/* The session's message rows (idv: its id value, consumed); ra: only those after an id. */
static int read_rows(struct hermes_db *s, sqlite3_value *idv, unsigned flags, struct txc_transcript *t,
		     const struct txc_row_sink *sink, struct rows_after *ra, struct txc_diag *d, int *sqlrc)
{
	sqlite3_stmt *st;
	int rc = messages_stmt(s, flags & TXC_LOAD_COMPACTED, ra != NULL, &st, d);
	if (rc) {
		sqlite3_value_free(idv);
		return rc;
	}
	sqlite3_bind_value(st, 1, idv);
	sqlite3_value_free(idv);
	int mcols = sqlite3_column_count(st);
	int idc = ra != NULL ? id_column(st, mcols) : -1;
	if (ra != NULL)
		sqlite3_bind_int64(st, 2, ra->after);
	struct txc_str *keys = txc_hermes_db_keys(t->arena, st, mcols);
	bool model_only = (flags & TXC_LOAD_MODEL_ONLY) && sink == NULL;
	struct row_dest r = {.sink = sink};
	r.scratch = sink != NULL || model_only ? txc_arena_new(0) : NULL;
	r.mb = model_only ? txc_model_begin(t) : NULL;
	while (rc == TXC_OK && (*sqlrc = sqlite3_step(st)) == SQLITE_ROW) {
		if (idc >= 0)
			ra->last = sqlite3_column_int64(st, idc);
		rc = put_row(&r, t->arena, st, mcols, keys);
	}
	sqlite3_reset(st);
	txc_arena_free(r.scratch);
	if (r.mb != NULL)
		txc_model_end(r.mb);
	if (r.n) {
		struct txc_json *rows = (struct txc_json *)t->native->rows;
		rows->items = txc_arena_array(t->arena, r.n, sizeof(*r.v));
		memcpy(rows->items, r.v, r.n * sizeof(*r.v));
		rows->n = r.n;
	}
	free(r.v);
	if (rc != TXC_OK)
		return rc;
	if (*sqlrc != SQLITE_DONE)
		return txc_hermes_db_error(s, *sqlrc, d, "read the messages of a session from");
	return TXC_OK;
}

/* With a sink, rows go to it one at a time (built in a scratch arena) instead of into t->native->rows. */
static int load_once(struct hermes_db *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		     const struct txc_row_sink *sink, struct txc_diag *d, int *sqlrc)
{
	sqlite3_value *idv = NULL;
	int rc = read_head(s, id, flags, t, &idv, d, sqlrc);
	if (rc)
		return rc;
	t->meta.id_kind = id->kind; /* for a sink's head; the façade names the transcript again */
	t->meta.id = txc_arena_str(t->arena, id->text.ptr ? id->text.ptr : "", id->text.len);
	if (sink != NULL && (rc = sink->head(sink->ctx, t)) != TXC_OK) {
		sqlite3_value_free(idv);
		return rc;
	}
	if (!s->has_messages || !txc_hermes_db_has_col(&s->msg, "session_id")) {
		sqlite3_value_free(idv);
		return TXC_OK;
	}
	return read_rows(s, idv, flags, t, sink, NULL, d, sqlrc);
}

/* One read transaction: the session and its messages come from one snapshot. */
static int read_session(struct hermes_db *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
			const struct txc_row_sink *sink, struct txc_diag *d, int *sqlrc)
{
	*sqlrc = SQLITE_OK;
	int rc = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return txc_hermes_db_error(s, rc, d, "read");
	rc = load_once(s, id, flags, t, sink, d, sqlrc);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

/* SQLITE_IOERR is retried: nothing was handed on yet. */
static int db_load(void *impl, const struct txc_sid *id, unsigned flags, struct txc_transcript **out,
		   struct txc_diag *d)
{
	struct hermes_db *s = impl;
	for (int attempt = 0;; attempt++) {
		struct txc_transcript *t = txc_transcript_new();
		int sqlrc;
		int rc = read_session(s, id, flags, t, NULL, d, &sqlrc);
		if (rc == TXC_OK) {
			*out = t;
			return TXC_OK;
		}
		txc_transcript_free(t);
		if (!txc_hermes_db_is_ioerr(sqlrc) || attempt == 3)
			return rc;
		txc_sleep_ms(50);
	}
}

static int db_stream(void *impl, const struct txc_sid *id, unsigned flags, const struct txc_row_sink *sink,
		     struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	int sqlrc;
	/* no retry here: rows already handed on cannot be taken back */
	int rc = read_session(impl, id, flags, t, sink, d, &sqlrc);
	txc_transcript_free(t);
	return rc;
}

/* --follow: how many numbered rows (search.h) come before the rows after ra->after */
static int count_numbered(struct hermes_db *s, sqlite3_value *idv, bool compacted, int64_t upto, size_t *n,
			  struct txc_diag *d)
{
	*n = 0;
	if (upto <= 0)
		return TXC_OK;
	if (s->q_numbered == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_addstr(&b, "SELECT count(*) FROM messages WHERE session_id = ?1 AND id <= ?2"
				   " AND role IN ('user', 'assistant', 'tool')");
		active_cond(s, compacted, &b);
		int rc = prepare(s, b.buf, &s->q_numbered, d);
		txc_buf_release(&b);
		if (rc)
			return rc;
	}
	sqlite3_bind_value(s->q_numbered, 1, idv);
	sqlite3_bind_int64(s->q_numbered, 2, upto);
	int rc = sqlite3_step(s->q_numbered);
	if (rc == SQLITE_ROW)
		*n = (size_t)sqlite3_column_int64(s->q_numbered, 0);
	sqlite3_reset(s->q_numbered);
	return rc == SQLITE_ROW ? TXC_OK : txc_hermes_db_error(s, rc, d, "count the messages of a session in");
}

/* The session row and its rows after ra->after, in one short read transaction that ends here. */
static int read_after(struct hermes_db *s, const struct txc_sid *id, unsigned flags, struct txc_transcript *t,
		      struct rows_after *ra, struct txc_diag *d, int *sqlrc)
{
	*sqlrc = SQLITE_OK;
	int rc = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return txc_hermes_db_error(s, rc, d, "read");
	sqlite3_value *idv = NULL;
	rc = read_head(s, id, flags, t, &idv, d, sqlrc);
	if (rc == TXC_OK && (!s->has_messages || !txc_hermes_db_has_col(&s->msg, "session_id") ||
			     !txc_hermes_db_has_col(&s->msg, "id"))) {
		txc_diag_set(d, TXC_E_USAGE, "cannot follow '%s': its messages have no id column", s->path);
		rc = TXC_E_USAGE;
	}
	if (rc == TXC_OK)
		rc = count_numbered(s, idv, flags & TXC_LOAD_COMPACTED, ra->after, &txc_hermes_native(t)->n_numbered,
				    d);
	if (rc == TXC_OK) {
		rc = read_rows(s, idv, flags, t, NULL, ra, d, sqlrc);
		idv = NULL; /* consumed */
	}
	sqlite3_value_free(idv);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

static int db_load_after(void *impl, const struct txc_sid *id, int64_t after, unsigned flags,
			 struct txc_transcript **out, int64_t *last, struct txc_diag *d)
{
	struct txc_transcript *t = txc_transcript_new();
	struct rows_after ra = {after, after};
	int sqlrc;
	int rc = read_after(impl, id, flags, t, &ra, d, &sqlrc);
	if (rc != TXC_OK) {
		txc_transcript_free(t);
		return rc;
	}
	*out = t;
	*last = ra.last;
	return TXC_OK;
}

const struct txc_source_ops txc_hermes_db_ops = {
	.name = "hermes-sqlite",
	.caps = TXC_SRC_EXPORT_ORDER | TXC_SRC_STREAM | TXC_SRC_FTS | TXC_SRC_NATIVE_ROWS | TXC_SRC_ORDERED |
		TXC_SRC_BY_ID,
	.close = txc_hermes_db_close,
	.note = txc_hermes_db_note,
	.sessions = db_sessions,
	.session = db_session,
	.ids_plain = txc_hermes_db_ids_plain,
	.export_order = db_export_order,
	.load = db_load,
	.stream = db_stream,
	.search = txc_hermes_db_search,
	.load_after = db_load_after,
	.build = txc_hermes_build,
	.link = txc_source_link,
};
