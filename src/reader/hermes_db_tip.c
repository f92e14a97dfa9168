/*
 * hermes_db_tip.c - a compression chain's live tip (reference §2.3) for
 * `txc search` (hermes_db_search.c): the continuation Hermes resumes a hit's
 * session from, the last few asked kept.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "hermes_db.h"

enum { TIP_STEPS = 100 };

/* The continuation Hermes resumes from session ?1, or nothing (not ended by compression, or no such child). */
static void tip_sql(struct hermes_db *s, struct txc_buf *b)
{
	bool mc = txc_hermes_db_has_col(&s->sess, "model_config");
	bool src = txc_hermes_db_has_col(&s->sess, "source");
	txc_buf_addstr(b, "SELECT c.id FROM sessions c JOIN sessions p ON p.id = c.parent_session_id"
			  " WHERE p.id = ?1 AND p.end_reason = 'compression'");
	if (mc)
		txc_buf_addstr(
			b, " AND NOT (json_valid(c.model_config) AND (json_extract(c.model_config, '$._branched_from')"
			   " IS NOT NULL OR json_extract(c.model_config, '$._delegate_from') IS NOT NULL))");
	if (src)
		txc_buf_addstr(b, " AND COALESCE(c.source, '') <> 'tool'");
	txc_buf_addstr(b, " ORDER BY c.end_reason = 'compression' DESC, c.ended_at IS NULL DESC, COALESCE(NULLIF(MAX(");
	txc_buf_addstr(b,
		       txc_hermes_db_has_col(&s->sess, "last_activity_at") ? "COALESCE(c.last_activity_at, 0)" : "0");
	txc_buf_addstr(b, ", COALESCE((SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = c.id), 0)), 0),"
			  " c.started_at) DESC, c.started_at DESC, c.id DESC LIMIT 1");
}

/* Follow continuations from id (TEXT ids only), seen-set and step cap against cycles; malloc'd, or NULL. */
static char *walk_tip(sqlite3_stmt *st, const char *id)
{
	char *seen[TIP_STEPS + 1], *cur = txc_xstrdup(id);
	size_t n = 0;
	seen[n++] = cur;
	while (n <= TIP_STEPS) {
		sqlite3_bind_text(st, 1, cur, -1, SQLITE_STATIC);
		char *next = NULL;
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT)
			next = txc_xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_reset(st);
		bool looped = false;
		for (size_t i = 0; next != NULL && i < n; i++)
			looped |= strcmp(seen[i], next) == 0;
		if (next == NULL || looped) {
			free(next);
			break;
		}
		seen[n++] = cur = next;
	}
	char *tip = n > 1 ? txc_xstrdup(cur) : NULL;
	for (size_t i = 0; i < n; i++)
		free(seen[i]);
	return tip;
}

const char *txc_hermes_db_tip_of(struct hermes_db *s, struct txc_hermes_db_tips *c, const char *id)
{
	for (size_t i = 0; i < TIP_CACHE; i++)
		if (c->from[i] != NULL && strcmp(c->from[i], id) == 0)
			return c->tip[i];
	if (c->st == NULL) {
		struct txc_buf b = TXC_BUF_INIT;
		tip_sql(s, &b);
		if (sqlite3_prepare_v2(s->db, b.buf, -1, &c->st, NULL) != SQLITE_OK)
			c->st = NULL;
		txc_buf_release(&b);
		if (c->st == NULL)
			return NULL;
	}
	size_t k = c->next++ % TIP_CACHE;
	free(c->from[k]);
	free(c->tip[k]);
	c->from[k] = txc_xstrdup(id);
	c->tip[k] = walk_tip(c->st, id);
	return c->tip[k];
}

void txc_hermes_db_tip_free(struct txc_hermes_db_tips *c)
{
	for (size_t i = 0; i < TIP_CACHE; i++) {
		free(c->from[i]);
		free(c->tip[i]);
	}
	sqlite3_finalize(c->st);
}
