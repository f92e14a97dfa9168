/*
 * fuzz_codex.c - libFuzzer target: a Codex CLI home -> the Codex reader
 * (src/reader/codex/) -> model -> every writer (fuzz_check_store), and the
 * Claude round trip: the Claude writer's output of what was read, read again
 * by the Claude Code reader, has the same tool calls, in order, in its live
 * assistant messages.
 *
 * The input is cut at its first 0xFF byte: before it, a live rollout
 * (sessions/2026/05/01/rollout-...-<uuid>.jsonl); after it, an archived one
 * (archived_sessions/).  Arbitrary bytes must never crash, hang or leak.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "txc/harness.h"
#include "txc/model_claude.h"
#include "txc/reader.h"
#include "txc/writer.h"

#define SID  "5f3c2a10-0000-4000-8000-00000000c0de"
#define LIVE "sessions/2026/05/01/rollout-2026-05-01T10-00-00-" SID ".jsonl"
#define ARCH "archived_sessions/rollout-2026-04-01T10-00-00-" SID ".jsonl"

static char root[256]; /* a private folder made once per process */

static void setup(void)
{
	if (root[0])
		return;
	snprintf(root, sizeof(root), "%s/txc-fuzz-codex-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (long)getpid());
	char mk[600];
	snprintf(mk, sizeof(mk), "mkdir -p '%s/sessions/2026/05/01' '%s/archived_sessions'", root, root);
	if (system(mk) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[600];
	setup();
	const uint8_t *cut = memchr(data, 0xff, size);
	size_t live_len = cut ? (size_t)(cut - data) : size;
	snprintf(path, sizeof(path), "%s/" LIVE, root);
	fuzz_put_file(path, data, live_len);
	snprintf(path, sizeof(path), "%s/" ARCH, root);
	fuzz_put_file(path, cut ? cut + 1 : data, cut ? size - live_len - 1 : 0);
	struct txc_store *s;
	struct txc_diag d = {0};
	if (txc_store_open_kind(&s, "codex", root, &d) != 0)
		abort();
	fuzz_check_store(s);
	const struct txc_session_info *v;
	size_t n;
	struct txc_arena *a = txc_arena_new(0);
	if (txc_store_sessions(s, TXC_LIST_ARCHIVED, a, &v, &n, &d) == 0)
		for (size_t i = 0; i < n; i++) {
			struct txc_transcript *t;
			if (txc_store_load(s, &v[i].sid, TXC_LOAD_MODEL_ONLY, &t, &d) == 0) {
				fuzz_claude_round_trip(t);
				txc_transcript_free(t);
			}
		}
	txc_arena_free(a);
	txc_store_close(s);
	return 0;
}
