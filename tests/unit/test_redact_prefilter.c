/*
 * test_redact_prefilter.c - the redactor's prefilter (src/redact/prefilter.c) changes no find:
 * every case of tests/redact-corpus/ and many mutations of them (lower-cased, punctuation turned
 * to spaces, bytes replaced, inserted and removed), as text and as JSON text under several keys,
 * give the same output, count and kinds with the prefilter on and off; and with it on, every quick
 * path it opens: json.c's pass over a JSON text that proves it clean (plain literals found by the
 * prefilter's own pass, keys known clean from an earlier scan) and transcript.c's plain strings
 * of a tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "txc/redact.h"

/* the corpus's escapes, as tests/tools/redact-corpus.py reads them: "~~" dropped, \n \e \t \\ */
static size_t unescape(char *s)
{
	size_t w = 0;
	for (size_t i = 0; s[i];) {
		if (s[i] == '~' && s[i + 1] == '~') {
			i += 2;
		} else if (s[i] == '\\' && s[i + 1] && strchr("ne\\t", s[i + 1])) {
			char c = s[i + 1];
			s[w++] = c == 'n' ? '\n' : c == 'e' ? '\x1b' : c == 't' ? '\t' : '\\';
			i += 2;
		} else {
			s[w++] = s[i++];
		}
	}
	s[w] = '\0';
	return w;
}

struct result {
	size_t n;
	struct txc_buf out, kinds;
};

static void run_text(struct result *res, const char *p, size_t len, bool pre)
{
	struct txc_redactor *r = txc_redactor_new(false);
	txc_redactor_set_prefilter(r, pre);
	res->out = (struct txc_buf)TXC_BUF_INIT;
	res->kinds = (struct txc_buf)TXC_BUF_INIT;
	res->n = txc_redact_text(r, p, len, &res->out);
	txc_redact_kinds(r, &res->kinds);
	txc_redactor_free(r);
}

/* {"KEY": "VALUE", "n": 1} as a string of a */
static struct txc_str json_text(struct txc_arena *a, const char *key, size_t klen, const char *v, size_t vlen)
{
	struct txc_buf js = TXC_BUF_INIT;
	txc_buf_addstr(&js, "{");
	txc_json_emit_str(&js, key, klen);
	txc_buf_addstr(&js, ": ");
	txc_json_emit_str(&js, v, vlen);
	txc_buf_addstr(&js, ", \"n\": 1}");
	struct txc_str s = txc_arena_str(a, js.buf, js.len);
	txc_buf_release(&js);
	return s;
}

/* s through txc_redact_str, its output appended to res->out (and a line end) */
static void add_str(struct result *res, struct txc_redactor *r, struct txc_arena *a, struct txc_str s)
{
	struct txc_str o = txc_redact_str(r, a, s);
	txc_buf_add(&res->out, o.ptr, o.len);
	txc_buf_addstr(&res->out, "\n");
}

/*
 * p in JSON, through one redactor (its key cache warm from the first round): as a string of a JSON
 * text under key ({"KEY": "p", "n": 1}, txc_redact_str: json.c's quick pass and the fused end of
 * a plain literal), as the keys of such texts (p itself, its first 31 and last 12 bytes: the
 * clean-key cache), and in a tree ({KEY: p, "list": [p], "p": "v"}, txc_redact_json: the
 * transcript's strings), each twice.
 */
static void run_json(struct result *res, const char *key, const char *p, size_t len, bool pre)
{
	struct txc_redactor *r = txc_redactor_new(false);
	txc_redactor_set_prefilter(r, pre);
	struct txc_arena *a = txc_arena_new(0);
	res->out = (struct txc_buf)TXC_BUF_INIT;
	res->kinds = (struct txc_buf)TXC_BUF_INIT;
	size_t klen = strlen(key), head = len < 31 ? len : 31, tail = len < 12 ? len : 12;
	for (int round = 0; round < 2; round++) {
		add_str(res, r, a, json_text(a, key, klen, p, len));
		add_str(res, r, a, json_text(a, p, len, "value", 5));
		add_str(res, r, a, json_text(a, p, head, "value", 5));
		add_str(res, r, a, json_text(a, p + len - tail, tail, key, klen));
		struct txc_json *list = txc_json_array(a, 1), *obj = txc_json_object(a, 3);
		txc_json_push(list, txc_json_string(a, p, len));
		txc_json_put(obj, (struct txc_str){key, klen}, txc_json_string(a, p, len));
		txc_json_put(obj, (struct txc_str){"list", 4}, list);
		txc_json_put(obj, (struct txc_str){p, len}, txc_json_string(a, "v", 1));
		txc_json_emit(&res->out, txc_redact_json(r, a, obj), 0);
		txc_buf_addstr(&res->out, "\n");
	}
	res->n = txc_redact_count(r);
	txc_redact_kinds(r, &res->kinds);
	txc_arena_free(a);
	txc_redactor_free(r);
}

static void release(struct result *res)
{
	txc_buf_release(&res->out);
	txc_buf_release(&res->kinds);
}

static bool same(const struct result *x, const struct result *y)
{
	return x->n == y->n && x->out.len == y->out.len && memcmp(x->out.buf, y->out.buf, x->out.len) == 0 &&
	       x->kinds.len == y->kinds.len &&
	       (x->kinds.len == 0 || memcmp(x->kinds.buf, y->kinds.buf, x->kinds.len) == 0);
}

static size_t finds; /* how many of the compared inputs hold a secret (the test means something) */

/* one input, as text and as JSON text under four keys: the prefilter changes nothing; false if it did */
static bool compare(const char *p, size_t len)
{
	static const char *const keys[] = {"output", "password", "content", "api_key", "exit_code"};
	bool ok = true;
	struct result on, off;
	run_text(&on, p, len, true);
	run_text(&off, p, len, false);
	if (!same(&on, &off)) {
		print_error("text [%.*s]: %zu finds with the prefilter, %zu without\n", (int)len, p, on.n, off.n);
		ok = false;
	}
	finds += off.n > 0;
	release(&on);
	release(&off);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && ok; k++) {
		run_json(&on, keys[k], p, len, true);
		run_json(&off, keys[k], p, len, false);
		if (!same(&on, &off)) {
			print_error("JSON under %s [%.*s]: %zu finds with the prefilter, %zu without\n", keys[k],
				    (int)len, p, on.n, off.n);
			ok = false;
		}
		release(&on);
		release(&off);
	}
	return ok;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* bytes a mutation puts in: mostly what the prefilter lets through, and the ones it stops at */
static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz    \n\n\\\\ssww_-:=?&+.[\"'0123456789AKMNSZ\t\x1b\xc3\xa9";

/* a mutation of src (len bytes) into dst (room for 2 * len + 16): its length */
static size_t mutate(char *dst, const char *src, size_t len)
{
	size_t w = 0;
	unsigned how = next(6);
	for (size_t i = 0; i < len; i++) {
		char c = src[i];
		if (how == 0 && c >= 'A' && c <= 'Z')
			c = (char)(c + 32); /* lower-cased */
		else if (how == 1 && !(c >= 'a' && c <= 'z'))
			c = next(2) ? ' ' : (char)('a' + next(26)); /* only letters and spaces left */
		else if (how == 2 && !(c >= 'a' && c <= 'z') && c != ' ')
			c = "\n \\s"[next(4)];
		else if (how >= 3 && next(16) == 0)
			c = alphabet[next(sizeof(alphabet) - 1)];
		if (how == 4 && next(24) == 0)
			continue; /* removed */
		dst[w++] = c;
		if (how == 5 && next(24) == 0)
			dst[w++] = alphabet[next(sizeof(alphabet) - 1)]; /* inserted */
	}
	dst[w] = '\0';
	return w;
}

/* random texts of the prefilter's own bytes, with the words .netrc needs thrown in */
static size_t plain_random(char *dst, size_t room)
{
	static const char *const words[] = {"password", "machine", "login", "default", "host", "s",    "w",
					    "sw",       "\\n",     "\n",    " ",       "word", "pass", "x"};
	size_t w = 0, n = 1 + next(40);
	for (size_t k = 0; k < n && w + 16 < room; k++) {
		const char *s = next(3) ? words[next(sizeof(words) / sizeof(words[0]))] : "abcdefgh" + next(8);
		size_t l = strlen(s);
		memcpy(dst + w, s, l);
		w += l;
		if (next(2))
			dst[w++] = ' ';
	}
	dst[w] = '\0';
	return w;
}

static void test_same_finds(void **state)
{
	(void)state;
	FILE *f = fopen(TXC_REDACT_CORPUS, "r");
	assert_non_null(f);
	static char line[8192], buf[2 * sizeof(line) + 16], big[4 * sizeof(buf)];
	size_t cases = 0, inputs = 0;
	int failed = 0;
	while (fgets(line, sizeof(line), f) && failed < 5) {
		line[strcspn(line, "\n")] = '\0';
		char *text = strchr(line, '\t');
		if (text == NULL)
			continue;
		size_t len = unescape(++text);
		cases++;
		failed += !compare(text, len);
		for (int m = 0; m < 40 && failed < 5; m++, inputs++)
			failed += !compare(buf, mutate(buf, text, len));
		/* long: the vector paths of the prefilter, with the case at every offset mod 64 */
		size_t pad = next(64), w = 0;
		for (size_t k = 0; k < pad + 100; k++)
			big[w++] = "prose of lower case words\n"[k % 27];
		memcpy(big + w, text, len);
		w += len;
		for (size_t k = 0; k < 70; k++)
			big[w++] = "and more of it "[k % 15];
		failed += !compare(big, w);
		inputs++;
	}
	fclose(f);
	for (int k = 0; k < 20000 && failed < 5; k++, inputs++)
		failed += !compare(buf, plain_random(buf, sizeof(buf)));
	print_message("%zu corpus cases, %zu more inputs, %zu with a find\n", cases, inputs, finds);
	assert_int_equal(failed, 0);
	assert_true(cases >= 500);
	assert_true(finds > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_finds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
