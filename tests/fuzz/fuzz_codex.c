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

static void put_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0)
		abort();
}

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

/* the live assistant messages' tool calls, one string (texts may change: an image becomes a note) */
static void shape(const struct txc_transcript *t, struct txc_buf *b)
{
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		if (m->compacted || m->role != TXC_ROLE_ASSISTANT)
			continue;
		for (size_t k = 0; k < m->n_blocks; k++) {
			const struct txc_block *blk = &m->blocks[k];
			if (blk->kind == TXC_BLOCK_TOOL_USE)
				txc_buf_addf(b, "call %.*s\n", (int)blk->name.len, blk->name.ptr);
		}
	}
}

/* what the Claude writer makes of t, read back, has t's shape */
static void round_trip(const struct txc_transcript *t)
{
	size_t n;
	const struct txc_writer_ops *const *ws = txc_writer_all(&n);
	const struct txc_writer_ops *claude = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(ws[i]->name, "claude") == 0)
			claude = ws[i];
	struct txc_out out;
	struct txc_diag d = {0};
	struct txc_write_opts o = {0};
	txc_out_init_buf(&out);
	if (claude == NULL || claude->write(&out, t, &o, &d) != 0)
		abort();
	struct txc_transcript *back = txc_transcript_new();
	struct txc_claude_builder *b = txc_claude_begin(back);
	const char *p = out.buf.buf, *end = out.buf.buf + out.buf.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL || txc_claude_add_line(b, p, (size_t)(nl - p)) < 0)
			abort(); /* txc's own output is whole JSON lines */
		p = nl + 1;
	}
	txc_claude_end(b, NULL);
	struct txc_buf x = TXC_BUF_INIT, y = TXC_BUF_INIT;
	shape(t, &x);
	shape(back, &y);
	if (x.len != y.len || (x.len && memcmp(x.buf, y.buf, x.len) != 0)) {
		fprintf(stderr, "fuzz: the Claude round trip changed the turns:\n%.*s---\n%.*s", (int)x.len,
			x.buf ? x.buf : "", (int)y.len, y.buf ? y.buf : "");
		abort();
	}
	txc_buf_release(&x);
	txc_buf_release(&y);
	txc_transcript_free(back);
	txc_out_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[600];
	setup();
	const uint8_t *cut = memchr(data, 0xff, size);
	size_t live_len = cut ? (size_t)(cut - data) : size;
	snprintf(path, sizeof(path), "%s/" LIVE, root);
	put_file(path, data, live_len);
	snprintf(path, sizeof(path), "%s/" ARCH, root);
	put_file(path, cut ? cut + 1 : data, cut ? size - live_len - 1 : 0);
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
				round_trip(t);
				txc_transcript_free(t);
			}
		}
	txc_arena_free(a);
	txc_store_close(s);
	return 0;
}
