/*
 * claude_ids.c - the names Claude Code knows a session by: its UUIDv5 session
 * id and the project folder of its cwd.  Shared by the Claude writer and the
 * CLI's --install, so the writer object itself exports only its ops struct.
 */
#include <stdint.h>
#include <string.h>

#include "txc/writer_claude.h"

/* txc's session namespace (fixed forever: changing it changes every output). */
static const char ns_session[] = "5f0c6b3e-27a4-4c8b-9a51-3d6e2f1b7c90";

void txc_claude_uuid5(char out[37], const char *ns_text, const char *name, size_t len)
{
	txc_uuid5(out, ns_text, name, len);
}

void txc_claude_session_uuid(const struct txc_transcript *t, struct txc_str scope, char out[37])
{
	/* keyed on the id's kind too (txc_model_id_key): ids 1 and "1" are two sessions; and on the
	 * profile, when not the root store's: one id in two profiles is two sessions */
	struct txc_buf key = TXC_BUF_INIT;
	if (scope.len > 0) {
		txc_buf_addstr(&key, "profile:");
		txc_buf_add(&key, scope.ptr, scope.len);
		txc_buf_addch(&key, '/');
	}
	if (t->n_segments > 0) {
		/* a whole chain (--lineage) is one Claude session keyed on its root, so the file stays the
		 * same as the chain grows, and never the one its root converts to alone */
		const struct txc_transcript *root = t->segments[0].t;
		struct txc_str tip = t->segments[t->n_segments - 1].id;
		txc_buf_addstr(&key, "lineage:");
		txc_model_id_key(&key, root->meta.id_kind, root->meta.id);
		if (t->meta.id.len != tip.len || (tip.len && memcmp(t->meta.id.ptr, tip.ptr, tip.len) != 0)) {
			txc_buf_addch(&key, '|'); /* renamed by the caller (--as-new): another session */
			txc_buf_add(&key, t->meta.id.ptr, t->meta.id.len);
		}
	} else {
		txc_model_id_key(&key, t->meta.id_kind, t->meta.id);
	}
	/* a range (ID#RANGE) is a conversation of its own: installed beside the whole session, never over it */
	if (t->meta.range_first > 0)
		txc_buf_addf(&key, "#%lld-%lld", (long long)t->meta.range_first, (long long)t->meta.range_last);
	txc_claude_uuid5(out, ns_session, key.buf, key.len);
	txc_buf_release(&key);
}

void txc_claude_project_folder(struct txc_buf *out, const char *cwd, size_t len)
{
	const unsigned char *p = (const unsigned char *)cwd;
	size_t units = 0;
	int32_t h = 0;
	size_t i = 0;
	while (i < len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(p + i, len - i, &cp);
		if (n == 0) {
			cp = 0xFFFD;
			n = 1;
		}
		i += n;
		uint16_t u[2];
		int nu = 1;
		if (cp >= 0x10000) {
			u[0] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
			u[1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
			nu = 2;
		} else {
			u[0] = (uint16_t)cp;
		}
		for (int k = 0; k < nu; k++) {
			h = (int32_t)((uint32_t)h * 31u + u[k]);
			bool alnum = (u[k] >= 'a' && u[k] <= 'z') || (u[k] >= 'A' && u[k] <= 'Z') ||
				     (u[k] >= '0' && u[k] <= '9');
			if (units < 200)
				txc_buf_addch(out, alnum ? (char)u[k] : '-');
			units++;
		}
	}
	if (units > 200) {
		char t[16];
		int64_t a = h < 0 ? -(int64_t)h : h;
		txc_base36(t, (uint32_t)a);
		txc_buf_addch(out, '-');
		txc_buf_addstr(out, t);
	}
}

void txc_claude_agent_id(struct txc_str child_id, char out[18])
{
	/* Claude Code's own agent ids look like this too: "a" + 16 hex digits */
	unsigned char h[32];
	txc_sha256(child_id.ptr ? child_id.ptr : "", child_id.len, h);
	out[0] = 'a';
	txc_hex(out + 1, h, 8);
	out[17] = '\0';
}
