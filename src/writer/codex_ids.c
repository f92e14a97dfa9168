/*
 * codex_ids.c - the names Codex CLI knows a session by: its thread id and its rollout's file
 * name.  Shared by the Codex writer and --install, so the writer object itself exports only its
 * ops struct (tests/check-layering.sh).
 */
#include "txc/writer_claude.h"
#include "txc/writer_codex.h"

/* txc's Codex thread namespace (fixed forever: changing it changes every output) */
static const char ns_thread[] = "3c1b2f60-8d4e-4a77-b0c9-6e2d51f8a4c3";

void txc_codex_session_uuid(const struct txc_transcript *t, struct txc_str scope, char out[37])
{
	char claude[37];
	txc_claude_session_uuid(t, scope, claude);
	txc_claude_uuid5(out, ns_thread, claude, 36);
}

void txc_codex_rollout_name(struct txc_buf *out, const struct txc_transcript *t, const char uuid[37])
{
	char ts[64];
	txc_time_iso_ms(ts, t->meta.started_at); /* YYYY-MM-DDThh:mm:ss.mmmZ */
	txc_buf_addf(out, "%.4s/%.2s/%.2s/rollout-%.10sT%.2s-%.2s-%.2s-%s.jsonl", ts, ts + 5, ts + 8, ts, ts + 11,
		     ts + 14, ts + 17, uuid);
}
