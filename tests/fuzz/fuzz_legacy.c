/*
 * fuzz_legacy.c - libFuzzer target: a legacy sessions folder (hermes_legacy.c)
 * -> listing -> every session -> every writer.
 *
 * The input is the folder: files separated by the byte 0x00, each "NAME\nBYTES"
 * (a NAME that is not one file name, "." or "..", is dropped).  Every name
 * is written into a fresh temporary folder, so any name the fuzzer invents
 * (session_X.json, X.jsonl, sessions.json, request_dump_*) is tried; then
 * a file named request_dump_canary.jsonl holding a valid message is added,
 * and the canary must never reach any session's rows (unless the input holds it).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "txc/model_hermes.h"
#include "txc/reader.h"

static const char canary[] = "CANARY-request-dump-7c1e";

static void write_file(const char *dir, const char *name, size_t nlen, const uint8_t *p, size_t len)
{
	if (nlen == 0 || nlen > 200 || memchr(name, '/', nlen) != NULL || memchr(name, '\0', nlen) != NULL ||
	    (nlen == 1 && name[0] == '.') || (nlen == 2 && name[0] == '.' && name[1] == '.'))
		return;
	char path[512];
	snprintf(path, sizeof(path), "%s/%.*s", dir, (int)nlen, name);
	FILE *f = fopen(path, "wb");
	if (f == NULL)
		return;
	fwrite(p, 1, len, f);
	fclose(f);
}

static void clear(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

/* No row of any session holds the canary: the request dump was never read. */
static void check_canary(struct txc_store *s)
{
	struct txc_arena *a = txc_arena_new(0);
	const struct txc_session_info *v;
	size_t n;
	struct txc_diag d = {0};
	if (txc_store_sessions(s, TXC_LIST_ARCHIVED, a, &v, &n, &d) == 0) {
		for (size_t i = 0; i < n; i++) {
			struct txc_transcript *t;
			if (txc_store_load(s, &v[i].sid, 0, &t, &d) != 0)
				continue;
			struct txc_buf b = TXC_BUF_INIT;
			txc_json_emit(&b, t->native->rows, 0);
			txc_json_emit(&b, t->native->session, 0);
			if (b.len > 0 && memmem(b.buf, b.len, canary, sizeof(canary) - 1) != NULL)
				abort();
			txc_buf_release(&b);
			txc_transcript_free(t);
		}
	}
	txc_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/tmp/txc-fuzz-legacy-XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	for (size_t i = 0; i < size;) {
		const uint8_t *end = memchr(data + i, 0, size - i);
		size_t len = end ? (size_t)(end - (data + i)) : size - i;
		const uint8_t *nl = memchr(data + i, '\n', len);
		if (nl != NULL)
			write_file(dir, (const char *)data + i, (size_t)(nl - (data + i)), nl + 1,
				   len - (size_t)(nl - (data + i)) - 1);
		i += len + 1;
	}
	char dump[128];
	int k = snprintf(dump, sizeof(dump), "{\"role\": \"user\", \"content\": \"%s\"}\n", canary);
	write_file(dir, "request_dump_canary.jsonl", 25, (const uint8_t *)dump, (size_t)k);
	write_file(dir, "session_request_dump_canary.json", 32, (const uint8_t *)dump, (size_t)k);
	struct txc_store *s;
	struct txc_diag d = {0};
	if (txc_store_open_legacy(&s, dir, &d) == 0) {
		fuzz_check_store(s);
		if (memmem(data, size, canary, sizeof(canary) - 1) == NULL) /* else the input may hold it itself */
			check_canary(s);
		txc_store_close(s);
	}
	clear(dir);
	return 0;
}
