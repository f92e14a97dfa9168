/*
 * fuzz_claude.c - libFuzzer target: a Claude Code projects folder -> the
 * Claude Code reader -> model -> every writer (fuzz_check_store), and the
 * round trip: the Claude writer's output of what was read, read again, has
 * the same tool calls, in order, in its live assistant messages.
 *
 * The input is cut at its first 0xFF byte: before it, the session file
 * (projects/-fuzz/<uuid>.jsonl); after it, a subagent file beside it.
 * Arbitrary bytes must never crash, hang or leak.
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

#define SID "5f3c2a10-0000-4000-8000-00000000f022"

static char root[256]; /* a private folder made once per process */

static void setup(void)
{
	char path[512];
	if (root[0])
		return;
	snprintf(root, sizeof(root), "%s/txc-fuzz-claude-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (long)getpid());
	snprintf(path, sizeof(path), "%s/projects/-fuzz/" SID "/subagents", root);
	char mk[600];
	snprintf(mk, sizeof(mk), "mkdir -p '%s'", path);
	if (system(mk) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[600];
	setup();
	const uint8_t *cut = memchr(data, 0xff, size);
	size_t main_len = cut ? (size_t)(cut - data) : size;
	snprintf(path, sizeof(path), "%s/projects/-fuzz/" SID ".jsonl", root);
	fuzz_put_file(path, data, main_len);
	snprintf(path, sizeof(path), "%s/projects/-fuzz/" SID "/subagents/agent-a1.jsonl", root);
	fuzz_put_file(path, cut ? cut + 1 : data, cut ? size - main_len - 1 : 0);
	snprintf(path, sizeof(path), "%s/projects", root);
	struct txc_store *s;
	struct txc_diag d = {0};
	if (txc_store_open_kind(&s, "claude", path, &d) != 0)
		abort();
	fuzz_check_store(s);
	struct txc_transcript *t;
	struct txc_sid id = {.kind = TXC_ID_TEXT, .text = {SID, strlen(SID)}};
	if (txc_store_load(s, &id, TXC_LOAD_MODEL_ONLY, &t, &d) == 0) {
		fuzz_claude_round_trip(t);
		txc_transcript_free(t);
	}
	txc_store_close(s);
	return 0;
}
