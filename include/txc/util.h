/*
 * util.h - allocation, growable byte buffers, arenas, UTF-8 and number text.
 *
 * Ownership: a txc_buf owns its bytes until txc_buf_release(); an arena owns
 * every allocation made from it until txc_arena_free().  Out of memory is not
 * recoverable: the x* allocators print one line and abort().
 */
#ifndef TXC_UTIL_H
#define TXC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A byte string with its length; SQLite TEXT may contain NUL bytes. */
struct txc_str {
	const char *ptr; /* NUL-terminated for convenience; len is the truth */
	size_t len;
};
#define TXC_STR_NULL ((struct txc_str){NULL, 0})
static inline struct txc_str txc_str_c(const char *s);
bool txc_str_eq(struct txc_str a, const char *lit);

/* Never NULL (out of memory aborts), for 0 bytes too: callers need no "n ? n : 1". */
void *txc_xmalloc(size_t n);
void *txc_xcalloc(size_t n, size_t size);
void *txc_xrealloc(void *p, size_t n);
char *txc_xstrdup(const char *s);
char *txc_xstrndup(const char *s, size_t n);

/* Growable buffer: buf is never NULL and always NUL-terminated. */
struct txc_buf {
	char *buf;
	size_t len;
	size_t alloc;
};
extern char txc_buf_empty[];
/* buf is never NULL: empty buffers point at txc_buf_empty (""). */
#define TXC_BUF_INIT                \
	{                           \
		txc_buf_empty, 0, 0 \
	}
void txc_buf_init(struct txc_buf *b);
void txc_buf_release(struct txc_buf *b);
void txc_buf_grow(struct txc_buf *b, size_t extra);
void txc_buf_add_slow(struct txc_buf *b, const void *p, size_t len);
void txc_buf_addstr(struct txc_buf *b, const char *s);
/* the common case (room left) inline: these run once per output byte run */
static inline void txc_buf_add(struct txc_buf *b, const void *p, size_t len)
{
	if (len != 0 && b->len + len < b->alloc) {
		memcpy(b->buf + b->len, p, len);
		b->len += len;
		b->buf[b->len] = '\0';
	} else {
		txc_buf_add_slow(b, p, len);
	}
}
static inline void txc_buf_addch(struct txc_buf *b, int c)
{
	if (b->len + 1 < b->alloc) {
		b->buf[b->len++] = (char)c;
		b->buf[b->len] = '\0';
	} else {
		char ch = (char)c;
		txc_buf_add_slow(b, &ch, 1);
	}
}
void txc_buf_addf(struct txc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void txc_buf_reset(struct txc_buf *b);
void txc_buf_truncate(struct txc_buf *b, size_t len);
char *txc_buf_detach(struct txc_buf *b, size_t *len);
/* Percent-encode s: ASCII letters, digits and the bytes in keep stay, every other byte is %XX. */
void txc_buf_add_pct(struct txc_buf *b, const char *s, const char *keep);
/* The same for len bytes (a NUL among them is %00). */
void txc_buf_add_pct_n(struct txc_buf *b, const char *s, size_t len, const char *keep);

/* Bump allocator: zeroed, max_align_t-aligned memory freed all at once. */
struct txc_arena;
struct txc_arena *txc_arena_new(size_t block_size);
void *txc_arena_alloc(struct txc_arena *a, size_t size);
void *txc_arena_array(struct txc_arena *a, size_t n, size_t size);
struct txc_str txc_arena_str(struct txc_arena *a, const void *p, size_t len);
void *txc_arena_dup(struct txc_arena *a, const void *p, size_t size); /* a copy of size bytes at p */
void txc_arena_reset(struct txc_arena *a);                            /* keep the first block, drop the rest */
void txc_arena_free(struct txc_arena *a);

/* UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
bool txc_utf8_valid(const char *p, size_t len);

/* Strict standard base64 (padding required); appends the bytes, false on bad input. */
bool txc_base64_decode(struct txc_buf *out, const char *p, size_t len);
/* appends the padded base64 of p[0..n) to b */
void txc_base64_encode(struct txc_buf *b, const unsigned char *p, size_t n);
/* Length of the valid sequence at p (1-4), or 0 when p starts an invalid one. */
size_t txc_utf8_seq(const unsigned char *p, size_t len, uint32_t *cp);
/* Append p to b, replacing each invalid byte sequence with U+FFFD. */
void txc_utf8_repair(struct txc_buf *b, const char *p, size_t len);
void txc_utf8_put(struct txc_buf *b, uint32_t cp);
/* Terminal columns of a printable code point: 0 (combining, zero-width), 1, or 2 (wide); no locale (wcwidth.c). */
int txc_utf8_width(uint32_t cp);

/*
 * Python's repr() of a double: the shortest digits that read back to the same
 * value, in Python's layout (1e-05, 100000.0, 1.5e+17).  Non-finite values give
 * "NaN", "Infinity", "-Infinity" (json.dumps spelling).  Returns the length.
 */
size_t txc_double_repr(char out[40], double v);

/* Base-36 text of an unsigned 32-bit value (Claude Code folder hashes). */
size_t txc_base36(char out[16], uint32_t v);

/* Constant-cost SHA-256 (for manifests and tests). */
void txc_sha256(const void *p, size_t len, unsigned char out[32]);
struct txc_sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
};
void txc_sha256_init(struct txc_sha256 *c);
void txc_sha256_update(struct txc_sha256 *c, const void *p, size_t len);
void txc_sha256_final(struct txc_sha256 *c, unsigned char out[32]);
void txc_hex(char *out, const unsigned char *p, size_t len); /* lowercase, NUL-terminated */
/* Whether the x86 SHA extensions are used (the CPU has them and TXC_NO_SHA_NI is not set). */
bool txc_sha_ni(void);
/* SHA-1 of the bytes of a and then of b (name-based UUIDs: txc_claude_uuid5). */
void txc_sha1_pair(const void *a, size_t na, const void *b, size_t nb, unsigned char out[20]);
/* A name-based (SHA-1, version 5) UUID of name in the namespace ns_text (a UUID's text), lower-case. */
void txc_uuid5(char out[37], const char *ns_text, const char *name, size_t len);

static inline struct txc_str txc_str_c(const char *s)
{
	struct txc_str r = {s, 0};
	if (s != NULL)
		while (s[r.len] != '\0')
			r.len++;
	return r;
}

/*
 * Sort n elements of size bytes at base, stably (equal elements keep their order), by
 * cmp(a, b, ctx) < 0, == 0, > 0 as qsort's; ctx is passed through, so a caller needs no
 * global sort key (sort.c: a merge sort with one scratch array of n/2 elements).
 */
typedef int txc_sort_cmp(const void *a, const void *b, void *ctx);
void txc_sort(void *base, size_t n, size_t size, txc_sort_cmp *cmp, void *ctx);

/* Sleep ms milliseconds (a signal may cut it short). */
void txc_sleep_ms(long ms);

/*
 * Files a signal must not leave behind (a private snapshot copy of a store, its folder last):
 * until txc_tmp_unguard(slot), SIGINT, SIGTERM, SIGHUP and SIGPIPE (those not ignored or caught)
 * remove them before they end txc as they would have.  paths: NULL-terminated, at most 4, each
 * shorter than 4200 bytes, copied.  The slot, or -1 (all taken or too long: not guarded).
 */
int txc_tmp_guard(const char *const *paths);
void txc_tmp_unguard(int slot);
/* ISO-8601 UTC with milliseconds and Z (time.c); false when out of range (years 1..9999). */
bool txc_time_iso_ms(char out[64], double secs);
/* secs as strftime(fmt) in UTC or local time (time.c); false when out of range or too long. */
bool txc_time_format(char *out, size_t cap, double secs, bool utc, const char *fmt)
	__attribute__((format(strftime, 5, 0)));
/* Days since 1970-01-01 of the proleptic Gregorian date y-m-d (m 1-12, d 1-31). */
int64_t txc_days_from_civil(int64_t y, unsigned m, unsigned d);

#endif
