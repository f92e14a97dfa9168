/* alloc.c - allocation that never returns NULL, and byte buffers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

char txc_buf_empty[1];

/* Out-of-memory paths cannot be reached by a test: excluded from coverage (tests/tools/coverage.sh). */
static void oom(size_t n) /* LCOV_EXCL_START */
{
	fprintf(stderr, "txc: fatal: out of memory (allocating %zu bytes)\n", n);
	abort();
} /* LCOV_EXCL_STOP */

void *txc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL)  /* LCOV_EXCL_BR_LINE */
		oom(n); /* LCOV_EXCL_LINE */
	return p;
}

void *txc_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p == NULL)         /* LCOV_EXCL_BR_LINE */
		oom(n * size); /* LCOV_EXCL_LINE */
	return p;
}

void *txc_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (q == NULL)  /* LCOV_EXCL_BR_LINE */
		oom(n); /* LCOV_EXCL_LINE */
	return q;
}

char *txc_xstrndup(const char *s, size_t n)
{
	char *p = txc_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *txc_xstrdup(const char *s)
{
	return txc_xstrndup(s, strlen(s));
}

bool txc_str_eq(struct txc_str a, const char *lit)
{
	size_t n = strlen(lit);
	return a.ptr != NULL && a.len == n && memcmp(a.ptr, lit, n) == 0;
}

void txc_buf_init(struct txc_buf *b)
{
	b->buf = txc_buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void txc_buf_release(struct txc_buf *b)
{
	if (b->alloc)
		free(b->buf);
	txc_buf_init(b);
}

void txc_buf_grow(struct txc_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need < b->len)     /* LCOV_EXCL_BR_LINE: size overflow */
		oom(SIZE_MAX); /* LCOV_EXCL_LINE */
	if (need <= b->alloc)
		return;
	size_t n = b->alloc ? b->alloc : 64;
	while (n < need)
		n = n * 2 < n ? need : n * 2;
	if (b->alloc == 0) {
		b->buf = txc_xmalloc(n);
		b->buf[0] = '\0';
	} else {
		b->buf = txc_xrealloc(b->buf, n);
	}
	b->alloc = n;
}

void txc_buf_add_slow(struct txc_buf *b, const void *p, size_t len)
{
	if (len == 0)
		return;
	txc_buf_grow(b, len);
	memcpy(b->buf + b->len, p, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void txc_buf_addstr(struct txc_buf *b, const char *s)
{
	txc_buf_add(b, s, strlen(s));
}

void txc_buf_add_pct_n(struct txc_buf *b, const char *s, size_t len, const char *keep)
{
	static const char hx[] = "0123456789ABCDEF";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (plain || (c != '\0' && strchr(keep, c) != NULL)) { /* strchr finds the terminator too */
			txc_buf_addch(b, (char)c);
		} else {
			txc_buf_addch(b, '%');
			txc_buf_addch(b, hx[c >> 4]);
			txc_buf_addch(b, hx[c & 15]);
		}
	}
}

void txc_buf_add_pct(struct txc_buf *b, const char *s, const char *keep)
{
	txc_buf_add_pct_n(b, s, strlen(s), keep);
}

void txc_buf_addf(struct txc_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room = b->alloc > b->len ? b->alloc - b->len : 0; /* 0: buf may be the shared "" */
	va_start(ap, fmt);
	int n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n <= 0 || (size_t)n < room) { /* done in one pass when it fits (it was always two) */
		if (room)
			b->buf[b->len += n > 0 ? (size_t)n : 0] = '\0';
		return;
	}
	txc_buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void txc_buf_reset(struct txc_buf *b)
{
	txc_buf_truncate(b, 0);
}

void txc_buf_truncate(struct txc_buf *b, size_t len)
{
	if (len > b->len)
		return;
	b->len = len;
	if (b->alloc)
		b->buf[len] = '\0';
}

char *txc_buf_detach(struct txc_buf *b, size_t *len)
{
	char *r = b->alloc ? b->buf : txc_xstrndup("", 0);
	if (len != NULL)
		*len = b->len;
	txc_buf_init(b);
	return r;
}
