/* test_manifest.c - src/archive's manifest reader: the lines its own scanner takes (mline.c) give
 * the entries the JSON parser gives, and every other line (escapes, whitespace, a key twice, a
 * value of another kind, broken JSON) is decided by the parser as before: each case is read both
 * ways and the entries, the line that makes the manifest foreign and the sort flag compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "archive_int.h"

#define SHA  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define H32  "00112233445566778899aabbccddeeff"
#define FPS  ",\"source_fingerprint\":\"" H32 "\",\"render_key\":\"" H32 "\",\"file_stat\":\"" H32 "\""
#define HEAD "{\"session_id\":\"s1\",\"path\":\"s1-a.md\",\"format\":\"markdown\",\"messages\":3,\"bytes\":120,"

/* lines txc writes: the scanner takes each of them */
static const char *const plain_lines[] = {
	HEAD "\"sha256\":\"" SHA "\",\"exported_at\":\"2026-12-02T17:32:07.478Z\"" FPS "}",
	HEAD "\"sha256\":\"" SHA "\",\"exported_at\":\"x\"" FPS ",\"assets\":[{\"path\":\"s1-a.md.assets/image-1.png\","
	     "\"sha256\":\"" SHA "\"},{\"path\":\"s1-a.md.assets/p2.html\",\"sha256\":\"" SHA "\"}]}",
	"{\"session_id\":\"7\",\"id_kind\":\"integer\",\"profile\":\"work\",\"path\":\"work/7-t.html\",\"format\":\"html\","
	"\"messages\":0,\"bytes\":0,\"sha256\":\"" SHA
	"\",\"exported_at\":\"x\",\"title\":\"A title\",\"source\":\"cli\","
	"\"model\":\"m\",\"started\":\"2026-01-01T00:00:00.000Z\",\"cost_usd\":0.0125,\"page_sha256\":\"" SHA
	"\",\"links\":\"" H32 "\"}",
	HEAD "\"sha256\":\"" SHA "\",\"assets\":[]}",
	HEAD "\"sha256\":\"" SHA "\",\"assets\":[{\"path\":\"a\",\"sha256\":\"short\"}]}",
	HEAD "\"sha256\":\"" SHA "\",\"page_sha256\":\"" SHA "\",\"links\":\"short\"}",
	"{\"path\":\"p.md\",\"format\":\"markdown\",\"bytes\":5,\"sha256\":\"" SHA
	"\",\"cost_usd\":-1.5e-3,\"preview\":\"hi\"}",
};

/* lines the scanner leaves to the parser (some of them txc's, some foreign) */
static const char *const other_lines[] = {
	HEAD "\"sha256\":\"" SHA "\",\"title\":\"caf\\u00e9 \\\"quoted\\\"\"}", /* escapes */
	HEAD "\"sha256\":\"" SHA "\",\"title\":\"caf\xc3\xa9\"}",               /* UTF-8 */
	HEAD "\"sha256\":\"" SHA "\",\"title\":\"bad \xff byte\"}",             /* invalid UTF-8 */
	"{\"session_id\":\"a\\u0000b\",\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\"}",
	HEAD "\"sha256\": \"" SHA "\"}",                      /* a space */
	" " HEAD "\"sha256\":\"" SHA "\"}",                   /* before it */
	HEAD "\"sha256\":\"" SHA "\",\"path\":\"other.md\"}", /* a key twice: the last wins */
	HEAD "\"sha256\":\"" SHA "\",\"bytes\":7}",           /* bytes twice */
	HEAD "\"sha256\":\"" SHA "\",\"assets\":[{\"path\":\"a\",\"path\":\"b\",\"sha256\":\"" SHA "\"}]}",
	HEAD "\"sha256\":\"" SHA "\",\"assets\":[{\"path\":\"a\"},{},{\"path\":1,\"sha256\":\"" SHA "\"}]}",
	HEAD "\"sha256\":\"" SHA "\",\"assets\":\"none\"}",
	HEAD "\"sha256\":\"" SHA "\",\"profile\":null}",
	HEAD "\"sha256\":\"" SHA "\",\"extra\":{\"a\":[1,2,true]}}",
	"{\"session_id\":12,\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1.5,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":-1,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":-0,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1e3,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":01,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1.,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":\"1\",\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1234567890123456789,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":12345678901234567890,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\",\"cost_usd\":1e}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"0123456789ABCDEF0123456789abcdef0123456789abcdef"
	"0123456789abcdef\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "0\"}",
	"{\"path\":\"n.md\",\"bytes\":1,\"sha256\":\"" SHA "\"}", /* no format */
	"{\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\"}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\"}x",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\",}",
	"{\"path\":\"n.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\"",
	"[1,2]",
	"{}",
	"",
	"{\"path\":\"tab\there.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"" SHA "\"}",
};

static char *write_manifest(const char *const *lines, size_t n, const char *eol)
{
	char *name = strdup("/tmp/test_manifest.XXXXXX");
	int fd = mkstemp(name);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", lines[i], eol);
	fclose(f);
	return name;
}

static void same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_true(a == b);
	else
		assert_string_equal(a, b);
}

static void same_entry(const struct entry *a, const struct entry *b)
{
	assert_int_equal(a->path_len, b->path_len);
	assert_memory_equal(a->path, b->path, a->path_len);
	same_str(a->line, b->line);
	assert_int_equal(a->session_len, b->session_len);
	assert_true((a->session == NULL) == (b->session == NULL));
	if (a->session != NULL)
		assert_memory_equal(a->session, b->session, a->session_len);
	same_str(a->profile, b->profile);
	same_str(a->format, b->format);
	same_str(a->exported_at, b->exported_at);
	same_str(a->source_fp, b->source_fp);
	same_str(a->render, b->render);
	same_str(a->fstat, b->fstat);
	assert_string_equal(a->sha, b->sha);
	assert_string_equal(a->base, b->base);
	assert_string_equal(a->links, b->links);
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->n_assets, b->n_assets);
	for (size_t i = 0; i < a->n_assets; i++) {
		assert_string_equal(a->assets[i].path, b->assets[i].path);
		assert_string_equal(a->assets[i].sha, b->assets[i].sha);
	}
}

/* lines read with the scanner and with the parser alone: the same answer */
static void both_ways(const char *const *lines, size_t n, const char *eol, bool stopped)
{
	char *file = write_manifest(lines, n, eol);
	struct manifest fast = {.journal = -2}, slow = {.journal = -2};
	manifest_slow = false;
	size_t rf = manifest_read(&fast, file, stopped);
	manifest_slow = true;
	size_t rs = manifest_read(&slow, file, stopped);
	manifest_slow = false;
	assert_int_equal(rf, rs);
	assert_int_equal(fast.n, slow.n);
	assert_int_equal(fast.whole, slow.whole);
	assert_int_equal(fast.journal, slow.journal);
	for (size_t i = 0; i < fast.n; i++)
		same_entry(&fast.v[i], &slow.v[i]);
	for (size_t i = 0; i < fast.n; i++) /* (the indices too) */
		assert_ptr_equal(manifest_find(&fast, fast.v[i].path), &fast.v[i]);
	manifest_free(&fast);
	manifest_free(&slow);
	unlink(file);
	free(file);
}

static void test_plain_lines_taken(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(plain_lines) / sizeof(plain_lines[0]); i++) {
		struct manifest m = {.journal = -2};
		assert_true(mline_fast(&m, plain_lines[i], strlen(plain_lines[i])));
		assert_int_equal(m.n, 1);
		manifest_free(&m);
	}
	struct manifest m = {.journal = -2};
	assert_true(mline_fast(&m, plain_lines[1], strlen(plain_lines[1])));
	assert_int_equal(m.v[0].n_assets, 2);
	assert_string_equal(m.v[0].assets[1].path, "s1-a.md.assets/p2.html");
	assert_string_equal(m.v[0].fstat, H32);
	assert_int_equal(m.v[0].bytes, 120);
	manifest_free(&m);
}

static void test_others_left_to_the_parser(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(other_lines) / sizeof(other_lines[0]); i++) {
		struct manifest m = {.journal = -2};
		assert_false(mline_fast(&m, other_lines[i], strlen(other_lines[i])));
		assert_int_equal(m.n, 0);
		manifest_free(&m);
	}
}

static void test_same_entries(void **state)
{
	(void)state;
	size_t np = sizeof(plain_lines) / sizeof(plain_lines[0]), no = sizeof(other_lines) / sizeof(other_lines[0]);
	both_ways(plain_lines, np, "\n", false);
	both_ways(plain_lines, np, "\r\n", false);
	for (size_t i = 0; i < no; i++) {
		const char *two[] = {plain_lines[0], other_lines[i]};
		both_ways(two, 2, "\n", false);
		both_ways(two, 2, "", true); /* the last line without its newline, in a stopped run's DIR */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_lines_taken),
		cmocka_unit_test(test_others_left_to_the_parser),
		cmocka_unit_test(test_same_entries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
