/*
 * claude_ids.c - the names Claude Code knows a session by: its UUIDv5 session
 * id and the project folder of its cwd.  Shared by the Claude writer and the
 * CLI's --install, so the writer object itself exports only its ops struct.
 */
#include <stdint.h>
#include <string.h>
#include <uuid/uuid.h>

#include "txc/writer_claude.h"

/* txc's session namespace (fixed forever: changing it changes every output). */
static const char ns_session[] = "5f0c6b3e-27a4-4c8b-9a51-3d6e2f1b7c90";

void txc_claude_uuid5(char out[37], const char *ns_text, const char *name, size_t len)
{
	uuid_t ns, u;
	uuid_parse(ns_text, ns);
	uuid_generate_sha1(u, ns, name, len);
	uuid_unparse_lower(u, out);
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
	txc_model_id_key(&key, t->meta.id_kind, t->meta.id);
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
