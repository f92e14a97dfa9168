/*
 * engine.h - the redactor's engine, shared by the files of src/redact/ alone (the API is
 * include/txc/redact.h).  One rule family a file:
 *   kinds.c   what a secret was (the marker's first word), the marker, the redactor's counts
 *   rules.c   the prefix rules, as data          tables.c  what the pass looks up, built from them
 *   shapes.c  tokens known by their shape        keys.c    keys that name secrets
 *   values.c  key = value, URLs, queries, cookies, command-line passwords
 *   scan.c    the pass over a text               json.c    JSON text inside strings
 *   prefilter.c  the quick no before the pass: texts that surely hold no secret
 *   transcript.c  the model adapter: strings, JSON trees, transcripts, Hermes rows
 *
 * Ownership: nothing here owns memory but the redactor (its counts and key cache, kinds.c);
 * redacted text goes to the caller's buffer.  The lookup tables (txc_rd_tab) are built once,
 * behind a once-guard, by txc_rd_init() and only read after: txc_redactor_new() and
 * txc_redact_text() call it, so every entry point into the engine has them built.
 *
 * One left-to-right pass over the bytes.  At the start of a word (the byte
 * before is not a letter, digit, '_' or '-') the word is tried against the
 * known token shapes (prefix table, JWT, Telegram, Discord, bare Bearer);
 * at '=' and ':' the word before is read as a key (env, flag, INI, YAML,
 * quoted JSON/Python key, HTTP header) and, when it names a secret, the
 * value after it is replaced; at "://" the password of user:pass@; at '?'
 * and '&' a credential query parameter; "-----BEGIN" a private key block.
 * The bytes where no rule can start are passed over cheaply (prose a block of
 * 16 or 8 bytes at a time, a word start handed to the rules only when its
 * first 8 bytes can begin one of their shapes): the finds are those of a
 * byte-by-byte pass, only fewer places are tried.
 * A replaced span always starts and ends at an ASCII byte (a delimiter or
 * the text's ends), so valid UTF-8 stays valid, and a value never runs over
 * a quote or bracket, so JSON text stays JSON even when it is redacted as
 * text.  A string that is a JSON object or array is redacted inside its
 * decoded string literals and those literals alone are re-encoded.
 *
 * Kept on purpose: base64 runs (images: inside them a word starts after '+'
 * or '/', and every shape base64 could hold refuses that), data: URLs, the values of
 * signature and encrypted-reasoning keys, object keys, numbers, hex digests
 * and UUIDs (no rule matches them).
 */
#ifndef TXC_REDACT_ENGINE_H
#define TXC_REDACT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "txc/redact.h"
#include "txc/util.h"

/* what a secret was: the first word of its marker */
enum kind {
	K_ANTHROPIC,
	K_OPENAI,
	K_OPENROUTER,
	K_API_KEY,
	K_GITHUB,
	K_GITLAB,
	K_SLACK,
	K_SLACK_HOOK,
	K_GOOGLE_KEY,
	K_GOOGLE_SECRET,
	K_GOOGLE_ACCESS,
	K_GOOGLE_REFRESH,
	K_AWS_ID,
	K_AWS_SECRET,
	K_AWS_SESSION,
	K_STRIPE,
	K_STRIPE_HOOK,
	K_TWILIO,
	K_MAILGUN,
	K_SENDGRID,
	K_SHOPIFY,
	K_VAULT,
	K_LINEAR,
	K_ATLASSIAN,
	K_DISCORD,
	K_DISCORD_HOOK,
	K_TELEGRAM,
	K_HUGGINGFACE,
	K_REPLICATE,
	K_NPM,
	K_PYPI,
	K_DIGITALOCEAN,
	K_PERPLEXITY,
	K_FIRECRAWL,
	K_BROWSERBASE,
	K_TAVILY,
	K_GROQ,
	K_MATRIX,
	K_XAI,
	K_NOTION,
	K_DOCKER,
	K_FERNET,
	K_AZURE_KEY,
	K_AZURE_SAS,
	K_URL_PASSWORD,
	K_URL_TOKEN,
	K_QUERY_TOKEN,
	K_COOKIE,
	K_BEARER,
	K_BASIC,
	K_AUTHORIZATION,
	K_JWT,
	K_PRIVATE_KEY,
	K_PGP_KEY,
	K_PASSWORD,
	K_CLIENT_SECRET,
	K_SECRET,
	K_SECRET_KEY,
	K_CREDENTIAL,
	K_TOKEN,
	K_AUTH,
	K_SESSION,
	K_PHONE,
	N_KINDS
};

/* the marker's first word for each kind (kinds.c) */
extern const char *const txc_rd_kind_names[N_KINDS];

/* the redactor: what it found so far (kinds.c makes and frees it) */
struct txc_redactor {
	bool scan_only;    /* txc_redact_str, _json, _transcript change nothing */
	bool no_prefilter; /* every text through the whole pass (tests: txc_redactor_set_prefilter) */
	size_t total;
	size_t count[N_KINDS];
	unsigned char order[N_KINDS]; /* kinds in the order first seen */
	size_t n_order;
	struct kcache *kcache; /* classify_key_cached's (a pointer: a copy of the counts copies no cache) */
};

/* ---- characters ---- */

enum {
	C_UP = 1,
	C_LO = 2,
	C_DIG = 4,
	C_US = 8,
	C_DASH = 16,
	C_B64 = 32 /* + / */,
	C_DOT = 64,
	C_SPACE = 128,
	C_EQ = 256,
	C_JSON = 512,  /* may stand outside the strings of a JSON text */
	C_TRIG = 1024, /* = : ? & - + : a rule may start here */
	C_STEM = 2048, /* the first letter of a word classify_key looks for */
	C_OPEN = 4096, /* , { [ : what follows in a JSON text is under no key */
};
/* ---- the prefix rules (rules.c) ---- */

enum body { B_WORDEQ, B_ALNUM, B_WORD, B_ALNUM_US, B_ALNUM_DASH, B_HEX, B_UPNUM, B_DOTWORD, B_B64, B_URLB64, B_PATH };
enum {
	F_MIX = 1,   /* the body has a letter and a digit */
	F_MIX3 = 2,  /* upper, lower and digit */
	F_B64 = 4,   /* could sit inside base64: the byte before must not be '+' or '/' either */
	F_KEEP = 8,  /* the prefix stays (a URL): only the body is replaced */
	F_PAD = 16,  /* '=' padding may follow the body */
	F_LHEX = 32, /* the body is lower-case hex */
};

struct prefix_rule {
	const char *pfx;
	unsigned char kind, body, flags;
	unsigned short min, max; /* body length; max 0: any */
};

extern const struct prefix_rule txc_rd_rules[];
extern const size_t txc_rd_n_rules;
enum { TXC_RD_RULES_MAX = 192 }; /* room in the tables for this many rules (rules.c checks) */

/* ---- the lookup tables (tables.c) ---- */

/*
 * The quick no at a word start.  Most words that pass the pair test (word_pair) begin no shape (retry,
 * limit, data without a colon), and at_word would try every rule of their first byte.  So each
 * passing pair has a slot of necessary conditions, checked on the word's first 8 bytes at once:
 * the first 8 bytes of a rule's prefix, "eyJ", "bot", "bearer " in any case, "data:"; 8 digits (a
 * Telegram token); a dot 24 to 28 bytes on (Discord).  None holds: at_word would find nothing.
 */
struct quick {
	uint64_t v, m, o; /* holds when ((x | o) & m) == v, x the 8 bytes as a little-endian number */
};
enum { Q_DIGITS = 1, Q_DOT = 2 };
struct slot {
	unsigned short first, n; /* its quicks: txc_rd_tab.quicks[first, first + n) */
	unsigned char flags;     /* Q_DIGITS, Q_DOT */
};
struct txc_rd_tables {
	unsigned short cls[256]; /* the C_ classes of each byte */
	/* rules by first byte: first[c] .. first[c + 1] in by_first; plen: each rule's prefix length */
	unsigned short first[257];
	unsigned char by_first[TXC_RD_RULES_MAX];
	unsigned char plen[TXC_RD_RULES_MAX];
	unsigned char second[256][32];    /* second[c]: bitmap of the bytes that follow c in a prefix */
	bool word_trigger[256];           /* a word starting with this byte may be a secret shape */
	unsigned char word_pair[256][32]; /* ... and with these two bytes */
	struct quick quicks[TXC_RD_RULES_MAX + 8];
	size_t n_quicks;
	struct slot slots[255];
	size_t n_slots;
	unsigned char pair_slot[256][256]; /* 1 + the slot of a word starting with these two bytes; 0: none */
};
/* written by txc_rd_init() alone, once; read-only after (every reader calls txc_rd_init first) */
extern struct txc_rd_tables txc_rd_tab;
void txc_rd_init(void);

#define ALNUM (C_UP | C_LO | C_DIG)
#define WORD  (ALNUM | C_US | C_DASH)

/* the index of the lowest bit set in m (m != 0): the scanners' and the prefilter's masks */
static inline size_t txc_rd_low_bit(uint64_t m)
{
#if defined(__GNUC__)
	return (size_t)__builtin_ctzll(m);
#else
	size_t k = 0;
	for (; !(m & 1); m >>= 1)
		k++;
	return k;
#endif
}

static inline bool is(unsigned char c, unsigned mask)
{
	return (txc_rd_tab.cls[c] & mask) != 0;
}

static inline unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static inline bool starts_n(const unsigned char *p, size_t len, const char *lit, size_t n)
{
	return len >= n && memcmp(p, lit, n) == 0;
}
/* lit is a string literal: its length is known when compiling */
#define starts(p, len, lit) starts_n((p), (len), (lit), sizeof(lit) - 1)

/* lit in lower case: no strlen, it stops at lit's NUL */
static inline bool starts_ci(const unsigned char *p, size_t len, const char *lit)
{
	size_t i = 0;
	for (; lit[i] != '\0'; i++)
		if (i >= len || lower(p[i]) != (unsigned char)lit[i])
			return false;
	return true;
}

static inline bool eq_ci(const unsigned char *p, size_t len, const char *lit)
{
	for (size_t i = 0; i < len; i++)
		if (lit[i] == '\0' || lower(p[i]) != (unsigned char)lit[i])
			return false;
	return lit[len] == '\0';
}

/* how many bytes from p on are in mask */
static inline size_t run(const unsigned char *p, size_t len, unsigned mask)
{
	size_t n = 0;
	while (n < len && (txc_rd_tab.cls[p[n]] & mask))
		n++;
	return n;
}

/* a letter and a digit among p: random tokens have both, words and names rarely */
static inline bool mixed(const unsigned char *p, size_t n)
{
	unsigned seen = 0;
	for (size_t i = 0; i < n; i++)
		seen |= txc_rd_tab.cls[p[i]];
	return (seen & C_DIG) && (seen & (C_UP | C_LO));
}

/* upper, lower and digit: for prefixes short enough to begin ordinary identifiers */
static inline bool mixed3(const unsigned char *p, size_t n)
{
	unsigned seen = 0;
	for (size_t i = 0; i < n; i++)
		seen |= txc_rd_tab.cls[p[i]];
	return (seen & C_DIG) && (seen & C_UP) && (seen & C_LO);
}

/* ---- the scan state and the marker (kinds.c) ---- */

struct scan {
	struct txc_redactor *r;
	const unsigned char *p;
	size_t len;
	size_t copied; /* p[0, copied) is in out */
	struct txc_buf *out;
	size_t found;
};

void txc_rd_count(struct txc_redactor *r, enum kind k);
void txc_rd_marker(struct txc_buf *out, enum kind k, const void *secret, size_t n);
size_t txc_rd_put(struct scan *s, size_t a, size_t b, enum kind k);
size_t txc_rd_own_marker(const unsigned char *p, size_t i, size_t len);

/* ---- token shapes (shapes.c): each at a word start i, the end of what it replaced, or 0 ---- */

size_t txc_rd_try_prefix(struct scan *s, size_t i);
size_t txc_rd_try_jwt(struct scan *s, size_t i);
size_t txc_rd_try_telegram(struct scan *s, size_t i);
size_t txc_rd_try_discord(struct scan *s, size_t i);
size_t txc_rd_try_bearer(struct scan *s, size_t i);
size_t txc_rd_skip_data_url(struct scan *s, size_t i); /* past a data: URL, kept */
size_t txc_rd_try_pem(struct scan *s, size_t i);
size_t txc_rd_try_phone(struct scan *s, size_t i);

/* ---- keys (keys.c) ---- */

enum strength { S_NONE, S_WEAK, S_STRONG };

struct keyinfo {
	enum strength st;
	enum kind kind;
	bool header; /* an HTTP header name that may stand anywhere */
};

struct keyinfo txc_rd_classify_key(const unsigned char *k, size_t n);
bool txc_rd_keep_key(struct txc_str key);
enum { KCACHE = 64, KCACHE_LEN = 31 };
struct kcache {
	unsigned char len; /* 0: empty */
	bool clean;        /* txc_rd_scan found nothing in the key itself (json.c: an object key) */
	bool harmless;     /* its values are kept or judged as any text (txc_rd_harmless_key_cached) */
	char key[KCACHE_LEN];
	struct keyinfo ki;
};

struct keyinfo txc_rd_classify_key_cached(struct txc_redactor *r, struct txc_str key);
/* txc_rd_keep_key(key) or key names no secret (classify_key's S_NONE): a value under it that
 * is plain holds nothing txc_rd_value finds */
bool txc_rd_harmless_key_cached(struct txc_redactor *r, struct txc_str key);
/* key's bytes are known to hold nothing txc_rd_scan finds (noted by txc_rd_note_clean_key) */
bool txc_rd_clean_key_cached(struct txc_redactor *r, struct txc_str key);
void txc_rd_note_clean_key(struct txc_redactor *r, struct txc_str key);

/* ---- values after keys, URLs, queries, flags (values.c): at i, the end of what was replaced, or 0 ---- */

bool txc_rd_plausible(const unsigned char *v, size_t n, enum strength st, const unsigned char *key, size_t kn);
size_t txc_rd_try_kv(struct scan *s, size_t i);
size_t txc_rd_try_url(struct scan *s, size_t i);
size_t txc_rd_try_query(struct scan *s, size_t i);
size_t txc_rd_try_flag(struct scan *s, size_t i);
size_t txc_rd_try_netrc(struct scan *s, size_t i);

/* ---- the pass (scan.c) and JSON text (json.c) ---- */

/* at a word start: a token shape, or a long base64 run to step over; the next position, or 0 */
size_t txc_rd_at_word(struct scan *s, size_t i);
/* text redacted into out: how many secrets; out is written only when there is one */
size_t txc_rd_scan(struct txc_redactor *r, const char *text, size_t len, struct txc_buf *out);
/* the prefilter (prefilter.c): true when the text surely holds no secret (lower-case words, spaces,
 * line ends, no "sw"); _literal: a JSON string literal as written, whose one escape may be \n */
bool txc_rd_plain_text(const unsigned char *p, size_t n);
bool txc_rd_plain_literal(const unsigned char *p, size_t n);
/* p[0, n) from just after a literal's opening quote: the index of its closing quote when the
 * literal is plain (txc_rd_plain_literal of the bytes before it), else n */
size_t txc_rd_plain_literal_end(const unsigned char *p, size_t n);
enum { KEY_MIN = 9 }; /* the shortest token shape: a phone number, + and 8 digits */
/* a string under key (key.ptr NULL: none): kept, wholly replaced, or scanned; out written only on a find */
size_t txc_rd_value(struct txc_redactor *r, struct txc_str key, const char *p, size_t len, struct txc_buf *out);

#endif
