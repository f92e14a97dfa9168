/*
 * mline.c - a manifest line as txc writes it, read without building its JSON tree: a re-run reads
 * one line per file (800 to 14,000), and the general parser was a fifth of its instructions.
 * Only the plainest lines are taken here: no whitespace, no escape and no byte outside printable
 * ASCII in a string, no key of an entry twice, each value of the kind txc writes there.  Any
 * other line is left to the JSON parser (manifest.c), which decides as ever: a line this file
 * takes is valid JSON and gives the entry the parser's tree would give.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archive_int.h"

enum {
	K_SESSION,
	K_PROFILE,
	K_PATH,
	K_FORMAT,
	K_BYTES,
	K_SHA,
	K_EXPORTED,
	K_FP,
	K_RENDER,
	K_FSTAT,
	K_BASE,
	K_LINKS,
	K_ASSETS,
	NKEYS
};

static const char *const key_name[NKEYS] = {
	"session_id",         "profile",    "path",      "format",      "bytes", "sha256", "exported_at",
	"source_fingerprint", "render_key", "file_stat", "page_sha256", "links", "assets",
};

struct span {
	char *p;
	size_t n;
};

struct scan {
	char *p, *end;
};

/* The bytes a plain string holds as they are: printable ASCII but '"' and '\\'. */
static bool plain[256];

static void plain_init(void)
{
	for (int c = 0x20; c < 0x7F; c++)
		plain[c] = c != '"' && c != '\\';
}

static bool str(struct scan *s, struct span *out)
{
	if (s->p >= s->end || *s->p != '"')
		return false;
	char *q = ++s->p;
	while (q < s->end && plain[(unsigned char)*q])
		q++;
	if (q >= s->end || *q != '"')
		return false;
	out->p = s->p;
	out->n = (size_t)(q - s->p);
	s->p = q + 1;
	return true;
}

static bool digits(struct scan *s)
{
	const char *from = s->p;
	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	return s->p > from;
}

/* A JSON number, whole (none the parser would stop inside, before a '.' or an 'e') */
static bool num(struct scan *s, struct span *out)
{
	out->p = s->p;
	if (s->p < s->end && *s->p == '-')
		s->p++;
	if (s->p < s->end && *s->p == '0')
		s->p++;
	else if (!digits(s))
		return false;
	if (s->p < s->end && *s->p == '.' && (++s->p, !digits(s)))
		return false;
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!digits(s))
			return false;
	}
	out->n = (size_t)(s->p - out->p);
	return true;
}

static const unsigned char key_len[NKEYS] = {10, 7, 4, 6, 5, 6, 11, 18, 10, 9, 11, 5, 6};

static int key_of(struct span k)
{
	for (int i = 0; i < NKEYS; i++)
		if (key_len[i] == k.n && memcmp(key_name[i], k.p, k.n) == 0)
			return i;
	return -1;
}

struct fasset {
	struct span path, sha;
	bool has_path, has_sha;
};

struct fline {
	struct span v[NKEYS];
	bool seen[NKEYS];
	struct fasset *assets;
	size_t n_assets, cap;
};

/* {"k":"v",...}: an image's record, string values only; path and sha256 at most once */
static bool asset_obj(struct scan *s, struct fasset *a)
{
	memset(a, 0, sizeof(*a));
	if (s->p >= s->end || *s->p++ != '{')
		return false;
	for (;;) {
		struct span k, v;
		if (!str(s, &k) || s->p >= s->end || *s->p++ != ':' || !str(s, &v))
			return false;
		bool is_path = k.n == 4 && memcmp(k.p, "path", 4) == 0,
		     is_sha = k.n == 6 && memcmp(k.p, "sha256", 6) == 0;
		if ((is_path && a->has_path) || (is_sha && a->has_sha))
			return false;
		if (is_path)
			a->path = v, a->has_path = true;
		if (is_sha)
			a->sha = v, a->has_sha = true;
		if (s->p < s->end && *s->p == ',') {
			s->p++;
			continue;
		}
		return s->p < s->end && *s->p++ == '}';
	}
}

static bool assets(struct scan *s, struct fline *f)
{
	s->p++; /* '[' */
	if (s->p < s->end && *s->p == ']')
		return s->p++, true;
	for (;;) {
		if (f->n_assets == f->cap)
			f->assets = txc_xrealloc(f->assets, (f->cap = f->cap ? 2 * f->cap : 4) * sizeof(*f->assets));
		if (!asset_obj(s, &f->assets[f->n_assets++]))
			return false;
		if (s->p < s->end && *s->p == ',') {
			s->p++;
			continue;
		}
		return s->p < s->end && *s->p++ == ']';
	}
}

/* One member's value: a string, a number, or (for "assets") the list of images; k its key's index */
static bool value(struct scan *s, int k, struct span *v, struct fline *f)
{
	if (s->p >= s->end)
		return false;
	char c = *s->p;
	if (c == '"')
		return k != K_BYTES && k != K_ASSETS && str(s, v);
	if (c == '-' || (c >= '0' && c <= '9'))
		return (k < 0 || k == K_BYTES) && num(s, v);
	return c == '[' && k == K_ASSETS && assets(s, f);
}

/* The line's members into f; false: not a line this file takes */
static bool scan_line(struct fline *f, char *line, size_t len)
{
	struct scan s = {line + 1, line + len};
	if (len < 2 || line[0] != '{')
		return false;
	for (;;) {
		struct span k, v = {NULL, 0};
		if (!str(&s, &k) || s.p >= s.end || *s.p++ != ':')
			return false;
		int ki = key_of(k);
		if ((ki >= 0 && f->seen[ki]) || !value(&s, ki, &v, f))
			return false;
		if (ki >= 0) {
			f->seen[ki] = true;
			f->v[ki] = v;
		}
		if (s.p < s.end && *s.p == ',') {
			s.p++;
			continue;
		}
		return s.p + 1 == s.end && *s.p == '}';
	}
}

/* "bytes" as the parser's integer check takes it: digits, at most 18 (no sign, no leading zero) */
static bool fast_bytes(struct span v, int64_t *out)
{
	if (v.n == 0 || v.n > 18 || v.p[0] == '-' || (v.p[0] == '0' && v.n > 1))
		return false;
	int64_t x = 0;
	for (size_t i = 0; i < v.n; i++) {
		if (v.p[i] < '0' || v.p[i] > '9')
			return false;
		x = x * 10 + (v.p[i] - '0');
	}
	*out = x;
	return true;
}

/* s, NUL-terminated in place (its closing quote), or NULL when the line has no such member */
static const char *cs(const struct fline *f, int k)
{
	if (!f->seen[k])
		return NULL;
	f->v[k].p[f->v[k].n] = '\0';
	return f->v[k].p;
}

/* The entry of line (len bytes, no newline) recorded as manifest_line() would record it: true; false:
 * a line for the JSON parser (nothing recorded).  The fields are cut out of one copy of the line in
 * the manifest's arena (NULs over their closing quotes), not copied one by one. */
bool mline_fast(struct manifest *m, const char *line, size_t len)
{
	if (!plain['a'])
		plain_init();
	char *c = mstr(m, line, len);
	struct fline f = {0};
	int64_t bytes = 0;
	bool ok = scan_line(&f, c, len) && f.seen[K_PATH] && f.seen[K_FORMAT] && f.seen[K_SHA] && f.v[K_SHA].n == 64 &&
		  strspn(f.v[K_SHA].p, "0123456789abcdef") >= 64 && f.seen[K_BYTES] && fast_bytes(f.v[K_BYTES], &bytes);
	if (ok) {
		struct mfields mf = {.path = cs(&f, K_PATH),
				     .sha = cs(&f, K_SHA),
				     .format = cs(&f, K_FORMAT),
				     .session = cs(&f, K_SESSION),
				     .profile = cs(&f, K_PROFILE),
				     .exported_at = cs(&f, K_EXPORTED),
				     .source_fp = cs(&f, K_FP),
				     .render = cs(&f, K_RENDER),
				     .fstat = cs(&f, K_FSTAT),
				     .base = cs(&f, K_BASE),
				     .links = cs(&f, K_LINKS),
				     .bytes = bytes,
				     .owned = true};
		mf.session_len = f.seen[K_SESSION] ? f.v[K_SESSION].n : 0;
		const char **ap = txc_xmalloc((f.n_assets ? f.n_assets : 1) * 2 * sizeof(*ap));
		for (size_t i = 0; i < f.n_assets; i++) {
			struct fasset *a = &f.assets[i];
			if (a->has_path && a->has_sha) {
				a->path.p[a->path.n] = a->sha.p[a->sha.n] = '\0';
				ap[2 * mf.n_assets] = a->path.p;
				ap[2 * mf.n_assets++ + 1] = a->sha.p;
			}
		}
		mf.assets = ap;
		manifest_fill(m, line, len, &mf);
		free(ap);
	}
	free(f.assets);
	return ok;
}
