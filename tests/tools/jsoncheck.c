/*
 * jsoncheck.c - each file must be valid UTF-8 and strict JSON (cJSON as an
 * independent parser): either one document (a pretty array, say) or JSONL,
 * every line a document.  Also rejects NaN/Infinity, which cJSON accepts.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

static bool strict(const char *p, size_t n)
{
	/* cJSON reads "nan"/"inf" through strtod: refuse those letters outside strings */
	bool in_str = false;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == 'N' || c == 'I' || c == 'n' || c == 'i') {
			if (!(c == 'n' && i + 4 <= n && memcmp(p + i, "null", 4) == 0))
				return false;
			i += 3;
		}
	}
	/* one document and nothing after it but white space: cJSON_ParseWithLength stops at the
	 * end of the first value, so a JSONL file whose first line parsed passed whole */
	const char *end = NULL;
	cJSON *v = cJSON_ParseWithLengthOpts(p, n, &end, false);
	bool ok = v != NULL;
	cJSON_Delete(v);
	if (ok && end != NULL)
		for (; end < p + n; end++)
			if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')
				return false;
	return ok;
}

static int check_file(const char *name)
{
	FILE *f = fopen(name, "rb");
	if (f == NULL) {
		perror(name);
		return 2;
	}
	struct txc_buf all = TXC_BUF_INIT;
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		txc_buf_add(&all, chunk, got);
	fclose(f);
	int bad = 0;
	if (!txc_utf8_valid(all.buf, all.len) || memchr(all.buf, '\0', all.len) != NULL) {
		fprintf(stderr, "%s: not UTF-8 (or has NUL bytes)\n", name);
		bad = 1;
	} else if (all.len == 0 || !strict(all.buf, all.len)) {
		long no = 0;
		const char *p = all.buf, *end = all.buf + all.len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *le = nl ? nl : end;
			no++;
			if (!strict(p, (size_t)(le - p))) {
				fprintf(stderr, "%s:%ld: not JSON\n", name, no);
				bad = 1;
			}
			p = nl ? nl + 1 : end;
		}
	}
	txc_buf_release(&all);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 1; i < argc; i++)
		bad |= check_file(argv[i]);
	return bad;
}
