/*
 * redact.c - secrets in transcript text replaced by "[REDACTED:<kind> …<hint>]"
 * (redact.h).  Pure: text in, text out; the CLI decides when.
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
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "txc/model_hermes.h"
#include "txc/redact.h"

/* ---- kinds ---- */

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
static const char *const kind_names[] = {
	[K_ANTHROPIC] = "anthropic-key",
	[K_OPENAI] = "openai-key",
	[K_OPENROUTER] = "openrouter-key",
	[K_API_KEY] = "api-key",
	[K_GITHUB] = "github-token",
	[K_GITLAB] = "gitlab-token",
	[K_SLACK] = "slack-token",
	[K_SLACK_HOOK] = "slack-webhook",
	[K_GOOGLE_KEY] = "google-api-key",
	[K_GOOGLE_SECRET] = "google-oauth-secret",
	[K_GOOGLE_ACCESS] = "google-access-token",
	[K_GOOGLE_REFRESH] = "google-refresh-token",
	[K_AWS_ID] = "aws-access-key-id",
	[K_AWS_SECRET] = "aws-secret-key",
	[K_AWS_SESSION] = "aws-session-token",
	[K_STRIPE] = "stripe-key",
	[K_STRIPE_HOOK] = "stripe-webhook-secret",
	[K_TWILIO] = "twilio-key",
	[K_MAILGUN] = "mailgun-key",
	[K_SENDGRID] = "sendgrid-key",
	[K_SHOPIFY] = "shopify-token",
	[K_VAULT] = "vault-token",
	[K_LINEAR] = "linear-key",
	[K_ATLASSIAN] = "atlassian-token",
	[K_DISCORD] = "discord-token",
	[K_DISCORD_HOOK] = "discord-webhook",
	[K_TELEGRAM] = "telegram-bot-token",
	[K_HUGGINGFACE] = "huggingface-token",
	[K_REPLICATE] = "replicate-token",
	[K_NPM] = "npm-token",
	[K_PYPI] = "pypi-token",
	[K_DIGITALOCEAN] = "digitalocean-token",
	[K_PERPLEXITY] = "perplexity-key",
	[K_FIRECRAWL] = "firecrawl-key",
	[K_BROWSERBASE] = "browserbase-key",
	[K_TAVILY] = "tavily-key",
	[K_GROQ] = "groq-key",
	[K_MATRIX] = "matrix-token",
	[K_XAI] = "xai-key",
	[K_NOTION] = "notion-token",
	[K_DOCKER] = "docker-token",
	[K_FERNET] = "fernet-token",
	[K_AZURE_KEY] = "azure-account-key",
	[K_AZURE_SAS] = "azure-sas",
	[K_URL_PASSWORD] = "url-password",
	[K_URL_TOKEN] = "url-token",
	[K_QUERY_TOKEN] = "query-token",
	[K_COOKIE] = "cookie",
	[K_BEARER] = "bearer-token",
	[K_BASIC] = "basic-auth",
	[K_AUTHORIZATION] = "authorization",
	[K_JWT] = "jwt",
	[K_PRIVATE_KEY] = "private-key",
	[K_PGP_KEY] = "pgp-private-key",
	[K_PASSWORD] = "password",
	[K_CLIENT_SECRET] = "client-secret",
	[K_SECRET] = "secret",
	[K_SECRET_KEY] = "secret-key",
	[K_CREDENTIAL] = "credential",
	[K_TOKEN] = "token",
	[K_AUTH] = "auth",
	[K_SESSION] = "session",
	[K_PHONE] = "phone",
};

struct txc_redactor {
	bool scan_only; /* txc_redact_str, _json, _transcript change nothing */
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
};
static unsigned short cls[256];
static bool cls_ready;

static void cls_init(void)
{
	for (int c = 'A'; c <= 'Z'; c++)
		cls[c] = C_UP;
	for (int c = 'a'; c <= 'z'; c++)
		cls[c] = C_LO;
	for (int c = '0'; c <= '9'; c++)
		cls[c] = C_DIG;
	cls['='] = C_EQ;
	cls['_'] = C_US, cls['-'] = C_DASH, cls['+'] = cls['/'] = C_B64, cls['.'] = C_DOT;
	cls[' '] = cls['\t'] = cls['\n'] = cls['\r'] = cls['\f'] = cls['\v'] = C_SPACE;
	for (const char *t = "{}[],:-+.eEtruefalsnNIiy \t\n\r0123456789"; *t; t++)
		cls[(unsigned char)*t] |= C_JSON;
	for (const char *t = "=:?&-+"; *t; t++)
		cls[(unsigned char)*t] |= C_TRIG;
	for (const char *t = "pstkcajbPSTKCAJB"; *t; t++)
		cls[(unsigned char)*t] |= C_STEM;
	cls_ready = true;
}

#define ALNUM (C_UP | C_LO | C_DIG)
#define WORD  (ALNUM | C_US | C_DASH)

static bool is(unsigned char c, unsigned mask)
{
	return (cls[c] & mask) != 0;
}

static unsigned char lower(unsigned char c)
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
static bool starts_ci(const unsigned char *p, size_t len, const char *lit)
{
	size_t i = 0;
	for (; lit[i] != '\0'; i++)
		if (i >= len || lower(p[i]) != (unsigned char)lit[i])
			return false;
	return true;
}

static bool eq_ci(const unsigned char *p, size_t len, const char *lit)
{
	for (size_t i = 0; i < len; i++)
		if (lit[i] == '\0' || lower(p[i]) != (unsigned char)lit[i])
			return false;
	return lit[len] == '\0';
}

/* how many bytes from p on are in mask */
static size_t run(const unsigned char *p, size_t len, unsigned mask)
{
	size_t n = 0;
	while (n < len && (cls[p[n]] & mask))
		n++;
	return n;
}

/* a letter and a digit among p: random tokens have both, words and names rarely */
static bool mixed(const unsigned char *p, size_t n)
{
	unsigned seen = 0;
	for (size_t i = 0; i < n; i++)
		seen |= cls[p[i]];
	return (seen & C_DIG) && (seen & (C_UP | C_LO));
}

/* upper, lower and digit: for prefixes short enough to begin ordinary identifiers */
static bool mixed3(const unsigned char *p, size_t n)
{
	unsigned seen = 0;
	for (size_t i = 0; i < n; i++)
		seen |= cls[p[i]];
	return (seen & C_DIG) && (seen & C_UP) && (seen & C_LO);
}

/* ---- the scan state and the marker ---- */

struct scan {
	struct txc_redactor *r;
	const unsigned char *p;
	size_t len;
	size_t copied; /* p[0, copied) is in out */
	struct txc_buf *out;
	size_t found;
};

static void count(struct txc_redactor *r, enum kind k)
{
	if (r->count[k]++ == 0)
		r->order[r->n_order++] = (unsigned char)k;
	r->total++;
}

/* "[REDACTED:<kind> …<first 4 hex digits of SHA-256(secret)>]" */
static void marker(struct txc_buf *out, enum kind k, const void *secret, size_t n)
{
	unsigned char h[32];
	char hex[65];
	txc_sha256(secret, n, h);
	txc_hex(hex, h, 2);
	txc_buf_addstr(out, "[REDACTED:");
	txc_buf_addstr(out, kind_names[k]);
	txc_buf_addstr(out, " \xE2\x80\xA6"); /* U+2026 */
	txc_buf_add(out, hex, 4);
	txc_buf_addch(out, ']');
}

/* replace p[a, b) (a >= s->copied) with its marker; returns b */
static size_t put(struct scan *s, size_t a, size_t b, enum kind k)
{
	txc_buf_add(s->out, s->p + s->copied, a - s->copied);
	marker(s->out, k, s->p + a, b - a);
	s->copied = b;
	s->found++;
	count(s->r, k);
	return b;
}

/* "[REDACTED:<kind> …hhhh]" at i: txc's own marker, never a secret; its end, else 0 */
static size_t own_marker(const unsigned char *p, size_t i, size_t len)
{
	if (!starts(p + i, len - i, "[REDACTED:"))
		return 0;
	size_t k = i + 10;
	k += run(p + k, len - k, C_LO | C_DASH);
	if (k == i + 10 || !starts(p + k, len - k, " \xE2\x80\xA6") || len - k < 9)
		return 0;
	k += 4;
	for (size_t j = 0; j < 4; j++)
		if (!is(p[k + j], C_DIG) && !(p[k + j] >= 'a' && p[k + j] <= 'f'))
			return 0;
	return p[k + 4] == ']' ? k + 5 : 0;
}

/* ---- token shapes by prefix ---- */

enum body { B_WORDEQ, B_ALNUM, B_WORD, B_ALNUM_US, B_ALNUM_DASH, B_HEX, B_UPNUM, B_DOTWORD, B_B64, B_URLB64, B_PATH };
static const unsigned body_mask[] = {
	[B_WORDEQ] = WORD | C_EQ,
	[B_ALNUM] = ALNUM,
	[B_WORD] = WORD,
	[B_ALNUM_US] = ALNUM | C_US,
	[B_ALNUM_DASH] = ALNUM | C_DASH,
	[B_HEX] = C_DIG | C_LO | C_UP, /* checked for hex below */
	[B_UPNUM] = C_UP | C_DIG,
	[B_DOTWORD] = WORD | C_DOT,
	[B_B64] = ALNUM | C_B64,
	[B_URLB64] = WORD,
	[B_PATH] = WORD | C_B64,
};

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

/* longer prefixes first where one begins another */
static const struct prefix_rule rules[] = {
	{"sk-ant-", K_ANTHROPIC, B_WORD, F_MIX, 20, 0},
	{"sk-or-", K_OPENROUTER, B_WORD, F_MIX, 20, 0},
	{"sk-proj-", K_OPENAI, B_WORD, F_MIX, 20, 0},
	{"sk-svcacct-", K_OPENAI, B_WORD, F_MIX, 20, 0},
	{"sk-admin-", K_OPENAI, B_WORD, F_MIX, 20, 0},
	{"sk-", K_OPENAI, B_ALNUM, F_MIX3, 20, 0},
	{"sk_live_", K_STRIPE, B_ALNUM, F_MIX, 10, 0},
	{"sk_test_", K_STRIPE, B_ALNUM, F_MIX, 10, 0},
	{"sk_", K_API_KEY, B_ALNUM, F_MIX3, 20, 0},
	{"rk_live_", K_STRIPE, B_ALNUM, F_MIX, 10, 0},
	{"rk_test_", K_STRIPE, B_ALNUM, F_MIX, 10, 0},
	{"pk_live_", K_STRIPE, B_ALNUM, F_MIX, 10, 0},
	{"pk_test_", K_STRIPE, B_ALNUM, F_MIX, 10, 0},
	{"whsec_", K_STRIPE_HOOK, B_ALNUM, F_MIX, 20, 0},
	{"ghp_", K_GITHUB, B_ALNUM_US, F_MIX, 20, 0},
	{"gho_", K_GITHUB, B_ALNUM_US, F_MIX, 20, 0},
	{"ghu_", K_GITHUB, B_ALNUM_US, F_MIX, 20, 0},
	{"ghs_", K_GITHUB, B_ALNUM_US, F_MIX, 20, 0},
	{"ghr_", K_GITHUB, B_ALNUM_US, F_MIX, 20, 0},
	{"github_pat_", K_GITHUB, B_ALNUM_US, F_MIX, 20, 0},
	{"glpat-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"gloas-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"gldt-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glrtr-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glrt-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glcbt-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glptt-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glft-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glimt-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glagent-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glsoat-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glffct-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"glwt-", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"GR1348941", K_GITLAB, B_WORD, F_MIX, 20, 0},
	{"xoxb-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxa-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxp-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxr-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxs-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxc-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxe-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxe.xoxp-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xoxo-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"xapp-", K_SLACK, B_ALNUM_DASH, F_MIX, 10, 0},
	{"https://hooks.slack.com/services/", K_SLACK_HOOK, B_PATH, F_KEEP, 20, 0},
	{"https://hooks.slack.com/workflows/", K_SLACK_HOOK, B_PATH, F_KEEP, 20, 0},
	{"https://discord.com/api/webhooks/", K_DISCORD_HOOK, B_PATH, F_KEEP, 30, 0},
	{"https://discordapp.com/api/webhooks/", K_DISCORD_HOOK, B_PATH, F_KEEP, 30, 0},
	{"https://canary.discord.com/api/webhooks/", K_DISCORD_HOOK, B_PATH, F_KEEP, 30, 0},
	{"AIza", K_GOOGLE_KEY, B_WORD, F_B64, 30, 0},
	{"GOCSPX-", K_GOOGLE_SECRET, B_WORD, 0, 20, 0},
	{"ya29.", K_GOOGLE_ACCESS, B_DOTWORD, 0, 20, 0},
	{"1//0", K_GOOGLE_REFRESH, B_WORD, F_MIX | F_B64, 30, 0},
	{"AKIA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"ASIA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"ABIA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"ACCA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"AGPA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"AIDA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"AIPA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"ANPA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"ANVA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"AROA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"APKA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"ASCA", K_AWS_ID, B_UPNUM, F_B64, 16, 16},
	{"IQoJb3JpZ2luX2Vj", K_AWS_SESSION, B_B64, F_B64 | F_PAD, 100, 0},
	{"FwoGZXIvYXdz", K_AWS_SESSION, B_B64, F_B64 | F_PAD, 100, 0},
	{"SK", K_TWILIO, B_HEX, F_B64 | F_LHEX, 32, 32},
	{"key-", K_MAILGUN, B_ALNUM, F_MIX, 32, 32},
	{"SG.", K_SENDGRID, B_DOTWORD, 0, 40, 0},
	{"shpat_", K_SHOPIFY, B_HEX, 0, 32, 32},
	{"shpca_", K_SHOPIFY, B_HEX, 0, 32, 32},
	{"shppa_", K_SHOPIFY, B_HEX, 0, 32, 32},
	{"shpss_", K_SHOPIFY, B_HEX, 0, 32, 32},
	{"hvs.", K_VAULT, B_WORD, 0, 24, 0},
	{"hvb.", K_VAULT, B_WORD, 0, 24, 0},
	{"hvr.", K_VAULT, B_WORD, 0, 24, 0},
	{"lin_api_", K_LINEAR, B_ALNUM, 0, 32, 0},
	{"lin_oauth_", K_LINEAR, B_ALNUM, 0, 32, 0},
	{"ATATT", K_ATLASSIAN, B_WORDEQ, F_B64, 50, 0},
	{"ATCTT", K_ATLASSIAN, B_WORDEQ, F_B64, 50, 0},
	{"hf_", K_HUGGINGFACE, B_ALNUM, 0, 30, 0},
	{"r8_", K_REPLICATE, B_ALNUM, 0, 30, 0},
	{"npm_", K_NPM, B_ALNUM, 0, 30, 0},
	{"pypi-", K_PYPI, B_WORD, 0, 50, 0},
	{"dop_v1_", K_DIGITALOCEAN, B_HEX, 0, 40, 0},
	{"doo_v1_", K_DIGITALOCEAN, B_HEX, 0, 40, 0},
	{"dor_v1_", K_DIGITALOCEAN, B_HEX, 0, 40, 0},
	{"pplx-", K_PERPLEXITY, B_ALNUM, F_MIX, 20, 0},
	{"fal_", K_API_KEY, B_WORD, F_MIX, 20, 0},
	{"fc-", K_FIRECRAWL, B_ALNUM, F_MIX, 20, 0},
	{"bb_live_", K_BROWSERBASE, B_WORD, F_MIX, 20, 0},
	{"am_", K_API_KEY, B_ALNUM, F_MIX3, 20, 0},
	{"tvly-", K_TAVILY, B_WORD, F_MIX, 20, 0},
	{"exa_", K_API_KEY, B_WORD, F_MIX, 20, 0},
	{"gsk_", K_GROQ, B_ALNUM, 0, 30, 0},
	{"syt_", K_MATRIX, B_ALNUM_US, F_MIX, 20, 0},
	{"retaindb_", K_API_KEY, B_WORD, F_MIX, 20, 0},
	{"hsk-", K_API_KEY, B_WORD, F_MIX, 20, 0},
	{"mem0_", K_API_KEY, B_WORD, F_MIX, 20, 0},
	{"brv_", K_API_KEY, B_WORD, F_MIX, 20, 0},
	{"xai-", K_XAI, B_WORD, F_MIX, 30, 0},
	{"ntn_", K_NOTION, B_ALNUM, F_MIX, 30, 0},
	{"fw_", K_API_KEY, B_WORD, F_MIX, 30, 0},
	{"fw-", K_API_KEY, B_WORD, F_MIX, 30, 0},
	{"fpk_", K_API_KEY, B_WORD, F_MIX, 30, 0},
	{"dckr_pat_", K_DOCKER, B_WORD, F_MIX, 20, 0},
	{"gAAAAA", K_FERNET, B_URLB64, F_B64 | F_PAD, 60, 0},
};
#define N_RULES (sizeof(rules) / sizeof(rules[0]))

/* rules by first byte: first[c] .. first[c + 1] in by_first */
static unsigned short first[257];
static unsigned char by_first[N_RULES];
static unsigned char plen[N_RULES];
static unsigned char second[256][32];    /* second[c]: bitmap of the bytes that follow c in a prefix */
static bool word_trigger[256];           /* a word starting with this byte may be a secret shape */
static unsigned char word_pair[256][32]; /* ... and with these two bytes */

static void rules_init(void)
{
	size_t n = 0;
	for (size_t i = 0; i < N_RULES; i++)
		plen[i] = (unsigned char)strlen(rules[i].pfx);
	for (int c = 0; c < 256; c++) {
		first[c] = (unsigned short)n;
		for (size_t i = 0; i < N_RULES; i++)
			if ((unsigned char)rules[i].pfx[0] == c)
				by_first[n++] = (unsigned char)i;
	}
	first[256] = (unsigned short)n;
	for (size_t i = 0; i < N_RULES; i++) {
		unsigned char c0 = (unsigned char)rules[i].pfx[0], c1 = (unsigned char)rules[i].pfx[1];
		second[c0][c1 >> 3] |= (unsigned char)(1u << (c1 & 7));
		word_trigger[c0] = true;
	}
	for (const char *t = "ebMNOBd0123456789"; *t; t++)
		word_trigger[(unsigned char)*t] = true;
	/* the pairs that can start the shapes without a prefix: eyJ, bot / bearer, data:, digits, Discord */
	static const char *const pairs[] = {"ey", "bo", "be", "bE", "Be", "BE", "da", "pa", NULL};
	for (int i = 0; pairs[i]; i++)
		word_pair[(unsigned char)pairs[i][0]][(unsigned char)pairs[i][1] >> 3] |=
			(unsigned char)(1u << ((unsigned char)pairs[i][1] & 7));
	for (int c = 0; c < 256; c++)
		for (int d = 0; d < 256; d++) {
			bool on = (is((unsigned char)c, C_DIG) && is((unsigned char)d, C_DIG)) ||
				  ((c == 'M' || c == 'N' || c == 'O') && is((unsigned char)d, WORD)) ||
				  (second[c][d >> 3] & (1u << (d & 7)));
			if (on)
				word_pair[c][d >> 3] |= (unsigned char)(1u << (d & 7));
		}
}

/*
 * The quick no at a word start.  Most words that pass the pair test above begin no shape (retry,
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
	unsigned short first, n; /* its quicks: quicks[first, first + n) */
	unsigned char flags;     /* Q_DIGITS, Q_DOT */
};
static struct quick quicks[N_RULES + 8];
static size_t n_quicks;
static struct slot slots[255];
static size_t n_slots;
static unsigned char pair_slot[256][256]; /* 1 + the slot of a word starting with these two bytes; 0: none */

/* the quick for lit's first 8 bytes; fold: its letters in any case */
static struct quick quick_of(const char *lit, bool fold)
{
	struct quick q = {0, 0, 0};
	for (unsigned k = 0; k < 8 && lit[k] != '\0'; k++) {
		unsigned char c = (unsigned char)lit[k];
		q.v |= (uint64_t)c << (8 * k);
		q.m |= (uint64_t)0xff << (8 * k);
		if (fold && c >= 'a' && c <= 'z')
			q.o |= (uint64_t)0x20 << (8 * k);
	}
	return q;
}

/* the slot of the pair c d: its conditions, shared with an earlier pair that has the same */
static unsigned char slot_for(unsigned char c, unsigned char d)
{
	struct quick q[N_RULES + 4];
	size_t n = 0;
	unsigned char flags = 0;
	for (unsigned k = first[c]; k < first[c + 1]; k++) /* the rules whose prefix starts with c */
		if ((unsigned char)rules[by_first[k]].pfx[1] == d)
			q[n++] = quick_of(rules[by_first[k]].pfx, false);
	if (c == 'e' && d == 'y')
		q[n++] = quick_of("eyJ", false);
	if (c == 'b' && d == 'o')
		q[n++] = quick_of("bot", false);
	if (lower(c) == 'b' && lower(d) == 'e')
		q[n++] = quick_of("bearer ", true);
	if (c == 'd' && d == 'a')
		q[n++] = quick_of("data:", false);
	if (c == 'p' && d == 'a')
		q[n++] = quick_of("password", false);
	if (is(c, C_DIG) && is(d, C_DIG))
		flags |= Q_DIGITS;
	if ((c == 'M' || c == 'N' || c == 'O') && is(d, WORD))
		flags |= Q_DOT;
	for (size_t k = 0; k < n_slots; k++)
		if (slots[k].n == n && slots[k].flags == flags &&
		    (n == 0 || memcmp(&quicks[slots[k].first], q, n * sizeof(q[0])) == 0))
			return (unsigned char)(k + 1);
	if (n_slots == sizeof(slots) / sizeof(slots[0]) || n_quicks + n > sizeof(quicks) / sizeof(quicks[0]))
		abort(); /* the tables above outgrew these: a programming error, seen by every test */
	slots[n_slots] = (struct slot){(unsigned short)n_quicks, (unsigned short)n, flags};
	memcpy(&quicks[n_quicks], q, n * sizeof(q[0]));
	n_quicks += n;
	return (unsigned char)++n_slots;
}

static void slots_init(void)
{
	for (int c = 0; c < 256; c++)
		for (int d = 0; word_trigger[c] && d < 256; d++)
			if (word_pair[c][d >> 3] & (1u << (d & 7)))
				pair_slot[c][d] = slot_for((unsigned char)c, (unsigned char)d);
}

static bool body_ok(const struct prefix_rule *rl, const unsigned char *b, size_t n)
{
	if (n < rl->min || (rl->max && n > rl->max))
		return false;
	if (rl->body == B_HEX) /* F_LHEX is a B_HEX rule's flag */
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (rl->flags & F_LHEX) ? b[i] : lower(b[i]);
			if (!is(c, C_DIG) && !(c >= 'a' && c <= 'f'))
				return false;
		}
	if ((rl->flags & F_MIX) && !mixed(b, n))
		return false;
	return !(rl->flags & F_MIX3) || mixed3(b, n);
}

/* a prefix token at i (a word start): its end, or 0 */
static size_t try_prefix(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i;
	if (left < 2 || !(second[p[0]][p[1] >> 3] & (1u << (p[1] & 7))))
		return 0;
	for (unsigned k = first[*p]; k < first[*p + 1]; k++) {
		const struct prefix_rule *rl = &rules[by_first[k]];
		size_t pl = plen[by_first[k]];
		if (left < pl || p[1] != (unsigned char)rl->pfx[1] || memcmp(p, rl->pfx, pl) != 0)
			continue;
		if ((rl->flags & F_B64) && i > 0 && is(s->p[i - 1], C_B64))
			continue;
		size_t n = run(p + pl, left - pl, body_mask[rl->body]);
		if (!body_ok(rl, p + pl, n))
			continue;
		size_t end = i + pl + n;
		if (rl->flags & F_PAD)
			while (end < s->len && s->p[end] == '=')
				end++;
		return put(s, (rl->flags & F_KEEP) ? i + pl : i, end, (enum kind)rl->kind);
	}
	return 0;
}

/* ---- shapes without a fixed prefix ---- */

/* header.payload[.signature], base64url, the header "eyJ" ({") */
static size_t try_jwt(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i;
	if (!starts(p, left, "eyJ") || (i > 0 && (is(s->p[i - 1], C_B64 | C_DOT))))
		return 0;
	size_t a = run(p, left, WORD);
	if (a < 13 || a >= left || p[a] != '.')
		return 0;
	size_t b = run(p + a + 1, left - a - 1, WORD);
	if (b < 4)
		return 0;
	size_t end = a + 1 + b;
	if (end < left && p[end] == '.')
		end += 1 + run(p + end + 1, left - end - 1, WORD);
	return put(s, i, i + end, K_JWT);
}

/* [bot]<8-10 digits>:<30+ of [A-Za-z0-9_-]> */
static size_t try_telegram(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i, o = starts(p, left, "bot") ? 3 : 0;
	size_t d = run(p + o, left - o, C_DIG);
	if (d < 8 || d > 10 || o + d >= left || p[o + d] != ':')
		return 0;
	size_t t = run(p + o + d + 1, left - o - d - 1, WORD);
	if (t < 30 || t > 60 || !mixed(p + o + d + 1, t))
		return 0;
	return put(s, i, i + o + d + 1 + t, K_TELEGRAM);
}

/* [MNO]<23-27>.<6-7>.<27-40>, base64url: a Discord bot token */
static size_t try_discord(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i;
	size_t a = run(p, left, WORD);
	if (a < 24 || a > 28 || a >= left || p[a] != '.')
		return 0;
	size_t b = run(p + a + 1, left - a - 1, WORD);
	if (b < 6 || b > 7 || a + 1 + b >= left || p[a + 1 + b] != '.')
		return 0;
	size_t c = run(p + a + b + 2, left - a - b - 2, WORD);
	if (c < 27 || c > 40 || !mixed(p, a))
		return 0;
	return put(s, i, i + a + b + 2 + c, K_DISCORD);
}

/* "Bearer <token>" anywhere: a token of 16+ characters with a letter and a digit */
static size_t try_bearer(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i;
	if (!starts_ci(p, left, "bearer ")) /* at_word calls it at a 'B' or 'b' */
		return 0;
	size_t n = run(p + 7, left - 7, WORD | C_DOT | C_B64);
	while (7 + n < left && p[7 + n] == '=')
		n++;
	if (n < 16 || !mixed(p + 7, n))
		return 0;
	return put(s, i + 7, i + 7 + n, K_BEARER);
}

/* data:<type>;base64,<run>: an inline file, never a secret; its end */
static size_t skip_data_url(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i;
	if (!starts(p, left, "data:"))
		return 0;
	size_t k = 5;
	while (k < left && k < 128 && p[k] != ',' && !is(p[k], C_SPACE) && p[k] != '"')
		k++;
	if (k >= left || p[k] != ',' || k < 12 || memcmp(p + k - 7, ";base64", 7) != 0)
		return 0;
	k++;
	k += run(p + k, left - k, ALNUM | C_B64);
	while (k < left && p[k] == '=')
		k++;
	return i + k;
}

/* the end of the line that starts at j (at '\n', "\\n" or "\\r" as JSON text writes them, or the end) */
static size_t pem_line_end(const unsigned char *p, size_t j, size_t len)
{
	while (j < len && p[j] != '\n' && p[j] != '\r' &&
	       !(p[j] == '\\' && j + 1 < len && (p[j + 1] == 'n' || p[j + 1] == 'r')))
		j++;
	return j;
}

/* a line of a PEM body: base64 or the like (no blank in it), or a header such as "Proc-Type: 4,ENCRYPTED" */
static bool pem_body_line(const unsigned char *p, size_t a, size_t b)
{
	size_t h = a + run(p + a, b - a, C_UP | C_LO | C_DASH);
	if (h > a && h + 1 < b && p[h] == ':' && p[h + 1] == ' ')
		return true;
	for (size_t k = a; k < b; k++)
		if (p[k] == ' ' || p[k] == '\t')
			return false;
	return true;
}

/* the END line at j: its end (the dashes may be missing) */
static size_t pem_end_line(const unsigned char *p, size_t j, size_t len)
{
	j += 9;
	while (j < len && (is(p[j], C_UP | C_DIG) || p[j] == ' '))
		j++;
	return starts(p + j, len - j, "-----") ? j + 5 : j;
}

/*
 * -----BEGIN ... PRIVATE KEY[ BLOCK]----- to its END line.  Unterminated (head -3 id_rsa), the
 * block ends with its body: at the first line that is not base64 or a header (prose after it
 * stays), a quote, or the end.  A key holds no quote: the block never runs over one.
 */
static size_t try_pem(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	size_t len = s->len;
	if (!starts(p + i, len - i, "-----BEGIN "))
		return 0;
	size_t k = i + 11;
	while (k < len && k - i < 80 && (is(p[k], C_UP | C_DIG) || p[k] == ' '))
		k++;
	if (!starts(p + k, len - k, "-----"))
		return 0;
	struct txc_str label = {(const char *)p + i + 11, k - i - 11};
	bool pgp = label.len >= 17 && memcmp(label.ptr + label.len - 17, "PRIVATE KEY BLOCK", 17) == 0;
	if (!pgp && !(label.len >= 11 && memcmp(label.ptr + label.len - 11, "PRIVATE KEY", 11) == 0))
		return 0;
	size_t end = k + 5, j = end; /* end: past the last line of the key seen so far */
	while (j < len) {
		size_t a = j, b = pem_line_end(p, a, len);
		for (size_t q = a; q < b; q++)
			if (p[q] == '"' || p[q] == '\'' || p[q] == '<' || p[q] == '`') /* a quote closes it */
				return put(s, i, q > a ? q : end, pgp ? K_PGP_KEY : K_PRIVATE_KEY);
		if (starts(p + a, len - a, "-----END "))
			return put(s, i, pem_end_line(p, a, len), pgp ? K_PGP_KEY : K_PRIVATE_KEY);
		if (a > end && !pem_body_line(p, a, b))
			break; /* prose: the body ended with the line before */
		if (b > a)
			end = b;
		j = b < len && p[b] == '\\' ? b + 2 : b + 1;
	}
	return put(s, i, end, pgp ? K_PGP_KEY : K_PRIVATE_KEY);
}

/* +<8-15 digits>, E.164, not inside a version or a number */
static size_t try_phone(struct scan *s, size_t i)
{
	if (i > 0 && !(is(s->p[i - 1], C_SPACE) || strchr("(\"':,=>", s->p[i - 1])))
		return 0;
	const unsigned char *p = s->p + i + 1;
	size_t left = s->len - i - 1;
	size_t d = run(p, left, C_DIG);
	if (d < 8 || d > 15 || p[0] == '0' || (d < left && (is(p[d], ALNUM | C_US | C_DASH | C_B64))))
		return 0;
	if (d + 1 < left && p[d] == '.' && is(p[d + 1], C_DIG))
		return 0; /* a decimal number, not the end of a sentence */
	return put(s, i, i + 1 + d, K_PHONE);
}

/* ---- keys that name secrets ---- */

enum strength { S_NONE, S_WEAK, S_STRONG };

struct keyinfo {
	enum strength st;
	enum kind kind;
	bool header; /* an HTTP header name that may stand anywhere */
};

static bool seg_is(const char *seg, const char *w)
{
	return strcmp(seg, w) == 0;
}

static bool seg_any(const char *seg, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(seg, *list) == 0)
			return true;
	return false;
}

/* last words that make a key about a secret, not the secret itself (TOKEN_COUNT, secret_name) */
static const char *const meta_words[] = {
	"id",      "ids",      "name",     "names",    "path",     "file",     "filename", "dir",     "url",
	"uri",     "endpoint", "type",     "kind",     "length",   "len",      "size",     "count",   "min",
	"max",     "limit",    "hash",     "hint",     "prompt",   "label",    "field",    "header",  "prefix",
	"suffix",  "format",   "version",  "env",      "var",      "ttl",      "expiry",   "expires", "expiration",
	"timeout", "enabled",  "disabled", "required", "mode",     "policy",   "regex",    "pattern", "provider",
	"source",  "location", "budget",   "usage",    "index",    "reset",    "rotation", "manager", "store",
	"storage", "helper",   "command",  "cmd",      "arn",      "schema",   "strength", "length",  "at",
	"created", "updated",  "used",     "valid",    "validity", "lifetime", "scope",    "scopes",  "host",
	"port",    "user",     "username", "login",    "email",    "policy",   NULL,
};
static const char *const key_quals[] = {
	"api",   "private", "access",  "secret",  "account",      "signing",  "encryption", "master", "client",
	"app",   "shared",  "service", "license", "webhook",      "deploy",   "bot",        "auth",   "x",
	"admin", "root",    "ssh",     "sas",     "subscription", "consumer", "hmac",       NULL,
};

/*
 * split a key into lower-case words at _ - . space / and camelCase; returns how many.  The
 * last 8 are kept: the last words decide (MY_APP_PROD_EU_WEST_1_DB_MAIN_PASSWORD).
 */
static int split_key(const unsigned char *k, size_t n, char seg[8][24])
{
	int ns = 0;
	size_t w = 0;
	for (size_t i = 0; i <= n; i++) {
		unsigned char c = i < n ? k[i] : '_';
		bool sep = c == '_' || c == '-' || c == '.' || c == ' ' || c == '/';
		bool camel = i > 0 && i < n && is(c, C_UP) && is(k[i - 1], C_LO | C_DIG);
		if ((sep || camel) && w > 0) {
			seg[ns++][w < 24 ? w : 23] = '\0';
			w = 0;
		}
		if (sep)
			continue;
		if (w == 0 && ns == 8) { /* a ninth word: the first goes */
			memmove(seg[0], seg[1], 7 * sizeof(seg[0]));
			ns = 7;
		}
		if (w < 23)
			seg[ns][w] = (char)lower(c);
		w++;
	}
	return ns;
}

static bool has_seg(char seg[8][24], int ns, const char *w)
{
	for (int i = 0; i < ns; i++)
		if (seg_is(seg[i], w))
			return true;
	return false;
}

/* a quick no: the key holds none of the words classify_key looks for (most keys of a row) */
static bool has_stem(const unsigned char *k, size_t n)
{
	static const char *const stems[] = {"pass",   "pwd", "secret", "token",   "key", "cred",      "auth",
					    "cookie", "jwt", "bearer", "session", "sid", "signature", NULL};
	for (size_t i = 0; i < n; i++) {
		if (!is(k[i], C_STEM))
			continue;
		unsigned char c = lower(k[i]);
		for (int j = 0; stems[j]; j++)
			if (stems[j][0] == (char)c && starts_ci(k + i, n - i, stems[j]))
				return true;
	}
	return false;
}

static bool ends_with(const char *w, size_t wn, const char *tail)
{
	size_t tn = strlen(tail);
	return wn > tn && memcmp(w + wn - tn, tail, tn) == 0;
}

/* no lower-case letter: an environment name (BASIC_AUTH), where a last word auth holds a credential */
static bool upper_key(const unsigned char *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is(k[i], C_LO))
			return false;
	return true;
}

/*
 * One word that glues the secret word to another (PGPASSWORD, DBPASS, ACCESSTOKEN, MYAPIKEY,
 * JWTSECRET): environment names are often written so.  The secret word must end the word, so
 * TOKENIZER and PASSTHROUGH are not keys of secrets, nor are the words that end in "pass" without
 * one (BYPASS, COMPASS, a second pass); last_auth: the key's last word is auth (BASIC_AUTH).
 */
static struct keyinfo compound(const char *w, bool last_auth)
{
	static const char *const not_pass[] = {
		"by",     "com", "sur", "tres",  "over",   "under", "high", "low",      "band", "multi",
		"single", "one", "two", "first", "second", "final", "n",    "num",      "max",  "min",
		"sub",    "all", "im",  "en",    "mis",    "bi",    "hall", "boarding", NULL};
	size_t n = strlen(w);
	struct keyinfo none = {S_NONE, K_SECRET, false};
	if (n > 23) /* split_key cut it: not a whole word */
		return none;
	if (ends_with(w, n, "password") || ends_with(w, n, "passwd") || ends_with(w, n, "passphrase"))
		return (struct keyinfo){S_STRONG, K_PASSWORD, false};
	if (ends_with(w, n, "pass")) {
		char head[24];
		memcpy(head, w, n - 4);
		head[n - 4] = '\0';
		return seg_any(head, not_pass) ? none : (struct keyinfo){S_STRONG, K_PASSWORD, false};
	}
	if (ends_with(w, n, "secret"))
		return (struct keyinfo){S_STRONG, w[0] == 'c' ? K_CLIENT_SECRET : K_SECRET, false};
	if (ends_with(w, n, "apikey"))
		return (struct keyinfo){S_STRONG, K_API_KEY, false};
	if (ends_with(w, n, "token"))
		return (struct keyinfo){S_WEAK, K_TOKEN, false};
	if (last_auth && seg_is(w, "auth"))
		return (struct keyinfo){S_WEAK, K_AUTH, false};
	return none;
}

static struct keyinfo classify_key(const unsigned char *k, size_t n)
{
	struct keyinfo ki = {S_NONE, K_SECRET, false};
	while (n > 0 && (*k == '-' || *k == '$' || *k == '@')) /* --password, $TOKEN, @secret */
		k++, n--;
	if (n == 0 || n > 96 || !has_stem(k, n))
		return ki;
	static const char *const headers[] = {"authorization",
					      "proxy-authorization",
					      "cookie",
					      "set-cookie",
					      "x-api-key",
					      "x-goog-api-key",
					      "api-key",
					      "x-api-token",
					      "x-auth-token",
					      "x-access-token",
					      "private-token",
					      "x-vault-token",
					      NULL};
	for (int h = 0; headers[h]; h++)
		if (eq_ci(k, n, headers[h]))
			ki.header = true;
	char seg[8][24];
	int ns = split_key(k, n, seg);
	if (seg_any(seg[ns - 1], meta_words)) /* has_stem saw a letter: one word at least */
		return ki;
	if (ns >= 2 && seg_any(seg[ns - 1], (const char *const[]){"value", "base", "string", "str", NULL}) &&
	    seg_any(seg[ns - 2], meta_words))
		return ki;
	bool aws = has_seg(seg, ns, "aws");
	/* the secret word is the key's last word, or the one before a last word such as value */
	static const char *const tails[] = {"value",  "base", "string", "str",   "data", "b64",
					    "base64", "hex",  "raw",    "plain", "text", NULL};
	int lo = ns >= 2 && seg_any(seg[ns - 1], tails) ? ns - 2 : ns - 1;
	for (int i = ns - 1; i >= lo; i--) {
		const char *w = seg[i];
		bool qual_key = seg_is(w, "key") && i > 0 && seg_any(seg[i - 1], key_quals);
		struct keyinfo glued = compound(w, i == ns - 1 && ns > 1 && upper_key(k, n));
		if (glued.st != S_NONE) {
			glued.header = ki.header;
			return glued;
		}
		if (seg_is(w, "password") || seg_is(w, "passwd") || seg_is(w, "passphrase") ||
		    (ns > 1 && (seg_is(w, "pass") || seg_is(w, "pwd"))))
			return (struct keyinfo){S_STRONG, K_PASSWORD, ki.header};
		if (seg_is(w, "secret") || seg_is(w, "secrets") || seg_is(w, "clientsecret")) {
			enum kind kd = aws                                                      ? K_AWS_SECRET
				       : (i > 0 && seg_is(seg[i - 1], "client")) || w[0] == 'c' ? K_CLIENT_SECRET
												: K_SECRET;
			return (struct keyinfo){S_STRONG, kd, ki.header};
		}
		if (qual_key || seg_is(w, "apikey") || seg_is(w, "privatekey") || seg_is(w, "accesskey") ||
		    seg_is(w, "secretkey") || seg_is(w, "accountkey")) {
			const char *q = qual_key ? seg[i - 1] : w;
			enum kind kd = aws && (seg_is(q, "secret") || has_seg(seg, ns, "secret"))  ? K_AWS_SECRET
				       : seg_is(q, "api") || seg_is(q, "apikey") || seg_is(q, "x") ? K_API_KEY
				       : seg_is(q, "private") || seg_is(q, "privatekey")           ? K_PRIVATE_KEY
				       : seg_is(q, "account") || seg_is(q, "accountkey") || seg_is(q, "shared") ||
						       (seg_is(q, "access") && i > 1 && seg_is(seg[i - 2], "shared"))
					       ? K_AZURE_KEY
					       : K_SECRET_KEY;
			/* an access key id names, a secret access key is */
			if (aws && !has_seg(seg, ns, "secret") && seg_is(q, "access"))
				return ki;
			return (struct keyinfo){S_STRONG, kd, ki.header};
		}
		if (seg_is(w, "credential") || seg_is(w, "credentials") || seg_is(w, "creds"))
			return (struct keyinfo){S_STRONG, K_CREDENTIAL, ki.header};
		if (seg_is(w, "signature") && i > 0 && seg_is(seg[i - 1], "access")) /* SharedAccessSignature */
			return (struct keyinfo){S_STRONG, K_AZURE_SAS, ki.header};
		if (seg_is(w, "token"))
			return (struct keyinfo){S_WEAK, aws && has_seg(seg, ns, "session") ? K_AWS_SESSION : K_TOKEN,
						ki.header};
		if (seg_is(w, "authorization"))
			return (struct keyinfo){S_WEAK, K_AUTHORIZATION, ki.header};
		if (seg_is(w, "cookie"))
			return (struct keyinfo){S_WEAK, K_COOKIE, ki.header};
		if (seg_is(w, "jwt"))
			return (struct keyinfo){S_WEAK, K_JWT, ki.header};
		if (seg_is(w, "bearer"))
			return (struct keyinfo){S_WEAK, K_BEARER, ki.header};
		if (seg_is(w, "auth") && ns == 1)
			return (struct keyinfo){S_WEAK, K_AUTH, ki.header};
		if ((seg_is(w, "session") || seg_is(w, "sid") || seg_is(w, "sessionid")) && ns == 1)
			return (struct keyinfo){S_WEAK, K_SESSION, ki.header};
	}
	return ki;
}

/* keys whose values are opaque provider data that must survive byte for byte */
static bool keep_key(struct txc_str key)
{
#define KEEP(w)                  \
	{                        \
		w, sizeof(w) - 1 \
	}
	static const struct {
		const char *w;
		size_t n;
	} keep[] = {KEEP("signature"),
		    KEEP("thoughtSignature"),
		    KEEP("thought_signature"),
		    KEEP("encrypted_content"),
		    KEEP("encrypted"),
		    KEEP("redacted_thinking"),
		    KEEP("data")};
#undef KEEP
	if (key.len < 4 || key.len > 17)
		return false;
	/* memcmp, not strncmp: a key may hold a NUL ("encrypted\u0000x"), where strncmp stops and
	 * keep[i][key.len] would be read past its end */
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (key.len == keep[i].n && memcmp(key.ptr, keep[i].w, key.len) == 0)
			return true;
	return false;
}

/*
 * classify_key through the redactor's cache: the keys of a store's rows are few and come back on
 * every row (session_id, token_count), and classify_key reads a key word by word.  A key is
 * looked up by its bytes, so the answer is classify_key's own.
 */
enum { KCACHE = 64, KCACHE_LEN = 31 };
struct kcache {
	unsigned char len; /* 0: empty */
	char key[KCACHE_LEN];
	struct keyinfo ki;
};

static struct keyinfo classify_key_cached(struct txc_redactor *r, struct txc_str key)
{
	const unsigned char *k = (const unsigned char *)key.ptr;
	size_t n = key.len;
	if (n == 0 || n > KCACHE_LEN)
		return classify_key(k, n);
	struct kcache *e = &r->kcache[(n * 31 + k[0] * 7 + k[n / 2] * 3 + k[n - 1]) % KCACHE];
	if (e->len != n || memcmp(e->key, k, n) != 0) {
		e->ki = classify_key(k, n);
		e->len = (unsigned char)n;
		memcpy(e->key, k, n);
	}
	return e->ki;
}

/* ---- values ---- */

/* a value that is a reference, a placeholder, a type or a mask, not a secret */
static bool placeholder(const unsigned char *v, size_t n, const unsigned char *key, size_t kn)
{
	static const char *const refs[] = {"$",           "{",       "%",        "{{",        "<",
					   "[redacted",   "***",     "\xc2\xab", "os.getenv", "os.environ",
					   "process.env", "env.",    "env[",     "getenv",    "secrets.",
					   "vars.",       "self.",   "this.",    "config.",   "settings.",
					   "options.",    "\\u00ab", "${",       "none",      NULL};
	static const char *const words[] = {
		"true",     "false",    "null",   "nil",     "undefined", "yes",     "no",        "on",       "off",
		"required", "optional", "str",    "string",  "int",       "integer", "bool",      "boolean",  "number",
		"float",    "any",      "object", "dict",    "list",      "bytes",   "secretstr", "redacted", "hidden",
		"masked",   "empty",    "unset",  "omitted", "n/a",       "none",    NULL};
	if (n == 0)
		return true;
	for (int i = 0; refs[i]; i++)
		if (starts_ci(v, n, refs[i]))
			return true;
	for (int i = 0; words[i]; i++)
		if (eq_ci(v, n, words[i]))
			return true;
	size_t masks = 0;
	for (size_t i = 0; i < n; i++)
		masks += v[i] == '*' || v[i] == 'x' || v[i] == 'X' || v[i] == '.' || v[i] == '-' || v[i] == '_';
	if (masks == n)
		return true;
	/* a dotted identifier without digits is code (settings.api_key), as is the key's own name */
	bool ident = is(v[0], C_UP | C_LO | C_US), dot = false, digit = false;
	for (size_t i = 0; i < n && ident; i++) {
		dot |= v[i] == '.';
		digit |= is(v[i], C_DIG);
		ident = is(v[i], ALNUM | C_US | C_DOT);
	}
	if (ident && dot && !digit)
		return true;
	for (size_t i = kn; i > 0; i--)
		if (!is(key[i - 1], ALNUM)) { /* its last word: self.password = password */
			key += i, kn -= i;
			break;
		}
	if (n != kn)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(v[i]) != lower(key[i]))
			return false;
	return true;
}

/* strong keys: any real value; weak ones (token, auth): 8+ characters, not a plain lower-case word */
static bool plausible(const unsigned char *v, size_t n, enum strength st, const unsigned char *key, size_t kn)
{
	if (placeholder(v, n, key, kn)) /* st: a key's, never S_NONE here */
		return false;
	if (st == S_STRONG)
		return true;
	if (n < 8)
		return false;
	bool digits = true;
	for (size_t i = 0; i < n; i++)
		digits &= is(v[i], C_DIG);
	if (digits)
		return n >= 16;
	for (size_t i = 0; i < n; i++)
		if (!is(v[i], C_LO))
			return true;
	return false;
}

/* ---- key = value, key: value ---- */

struct kv {
	size_t ks, ke;   /* the key */
	bool quoted;     /* "key": or 'key': */
	bool escaped;    /* \"key\": JSON text inside a string */
	bool line_start; /* only blanks (and a list dash) before it on its line */
	bool spaced;     /* blanks around the separator */
};

/* the key before the separator at i; false when there is none */
static bool key_before(const struct scan *s, size_t i, struct kv *kv)
{
	const unsigned char *p = s->p;
	size_t j = i;
	memset(kv, 0, sizeof(*kv));
	while (j > 0 && i - j < 4 && (p[j - 1] == ' ' || p[j - 1] == '\t'))
		j--, kv->spaced = true;
	unsigned char q = 0;
	if (j > 0 && (p[j - 1] == '"' || p[j - 1] == '\'')) {
		q = p[--j];
		if (q == '"' && j > 0 && p[j - 1] == '\\') /* \"key\": JSON text inside a string */
			j--, kv->escaped = true;
	}
	size_t ke = j;
	while (j > 0 && ke - j < 96 && (is(p[j - 1], WORD | C_DOT) || p[j - 1] == '$' || p[j - 1] == '@'))
		j--;
	if (j == ke || (j > 0 && is(p[j - 1], WORD | C_DOT)))
		return false;
	kv->ks = j;
	kv->ke = ke;
	if (q) {
		if (j == 0 || p[j - 1] != q)
			return false;
		kv->quoted = true;
		j--;
		if (j > 0 && p[j - 1] == '\\') /* \"key\": JSON text inside a string */
			j--;
	}
	size_t b = j;
	while (b > 0 && (p[b - 1] == ' ' || p[b - 1] == '\t'))
		b--;
	if (b > 0 && p[b - 1] == '-' && (b == 1 || p[b - 2] == ' ' || p[b - 2] == '\t' || p[b - 2] == '\n')) {
		b--; /* a YAML list item */
		while (b > 0 && (p[b - 1] == ' ' || p[b - 1] == '\t'))
			b--;
	}
	kv->line_start = b == 0 || p[b - 1] == '\n' || p[b - 1] == '\r';
	return true;
}

/* the value after the separator ending at j: [*vs, *ve); false when there is none */
static bool value_after(const struct scan *s, size_t j, bool *quoted, size_t *vs, size_t *ve)
{
	const unsigned char *p = s->p;
	size_t len = s->len, k = j;
	while (k < len && k - j < 4 && (p[k] == ' ' || p[k] == '\t'))
		k++;
	if (k >= len)
		return false;
	*quoted = false;
	if (p[k] == '\\' && k + 1 < len && p[k + 1] == '"') { /* \"value\" inside JSON text */
		/*
		 * Read as the string that holds it reads it: \\ is one backslash, \" one quote.  A bare
		 * quote may close that string ("{\"token\": \"" + token + "\"}" and '{\"token\": \"' +
		 * token + '\"}' are code, not values), and an escaped quote inside the value (\\\")
		 * leaves its end not ours to guess, as below.
		 */
		bool esc = false; /* the JSON text's last character was an escaping backslash */
		for (size_t e = k + 2; e + 1 < len && p[e] != '"' && p[e] != '\'' && p[e] != '\n'; e++) {
			if (p[e] != '\\') {
				esc = false;
				continue;
			}
			if (p[++e] == '"' && esc)
				return false;
			if (p[e] == '"') {
				*quoted = true, *vs = k + 2, *ve = e - 1;
				return true;
			}
			esc = p[e] == '\\' && !esc;
		}
		return false;
	}
	if (p[k] == '"' || p[k] == '\'' || p[k] == '`') {
		unsigned char q = p[k];
		size_t e = k + 1;
		while (e < len && p[e] != q && p[e] != '\n') {
			if (p[e] == '\\' && q == '"') {
				if (e + 1 < len && p[e + 1] == '"')
					return false; /* an escaped quote: the value's end is not ours to guess */
				e++;
			}
			e++;
		}
		if (e >= len || p[e] != q)
			return false;
		*quoted = true, *vs = k + 1, *ve = e;
		return true;
	}
	size_t e = k;
	while (e < len && !is(p[e], C_SPACE) && !strchr("\"'`,;)]}<>&\\|([", p[e]))
		e++;
	if (e < len && (p[e] == '(' || p[e] == '['))
		return false; /* a call or an index: code */
	*vs = k, *ve = e;
	return e > k;
}

/* only blanks (or a # comment) from i to the end of the line */
static bool rest_of_line_blank(const struct scan *s, size_t i)
{
	while (i < s->len && (s->p[i] == ' ' || s->p[i] == '\t' || s->p[i] == '\r'))
		i++;
	return i >= s->len || s->p[i] == '\n' || s->p[i] == '#';
}

/* Authorization: [scheme] credential */
static size_t auth_value(struct scan *s, size_t vs, size_t ve)
{
	const unsigned char *p = s->p;
	size_t k = vs;
	enum kind kd = K_AUTHORIZATION;
	size_t w = run(p + k, ve - k, ALNUM | C_DASH);
	if (w > 0 && k + w < s->len && p[k + w] == ' ') {
		kd = eq_ci(p + k, w, "bearer") ? K_BEARER : eq_ci(p + k, w, "basic") ? K_BASIC : K_AUTHORIZATION;
		k += w + 1;
		ve = k;
		while (ve < s->len && !is(p[ve], C_SPACE) && !strchr("\"'`,;<>\\", p[ve]))
			ve++;
	}
	if (ve <= k || placeholder(p + k, ve - k, (const unsigned char *)"", 0))
		return 0;
	return put(s, k, ve, kd);
}

/* Cookie: a=1; b=2 (every value) / Set-Cookie: a=1; Path=/ (the first) */
static size_t cookie_value(struct scan *s, size_t vs, bool set)
{
	const unsigned char *p = s->p;
	size_t k = vs, end = 0;
	while (k < s->len) {
		size_t n = run(p + k, s->len - k, WORD | C_DOT);
		if (n == 0 || k + n >= s->len || p[k + n] != '=')
			break;
		size_t a = k + n + 1, b = own_marker(p, a, s->len); /* redacted already: kept */
		if (b == 0)
			for (b = a; b < s->len && p[b] != ';' && !is(p[b], C_SPACE) && !strchr("\"'`<>\\,", p[b]);)
				b++;
		if (b > a && p[a] != '[')
			end = put(s, a, b, K_COOKIE);
		if (set || b >= s->len || p[b] != ';')
			break;
		k = b + 1;
		while (k < s->len && p[k] == ' ')
			k++;
	}
	return end;
}

static size_t at_word(struct scan *s, size_t i);

/* at '=' or ':' (i): a secret value after a key that names one; the value's end, or 0 */
static size_t try_kv(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	unsigned char c = p[i];
	size_t j = i + 1;
	if (c == '=' && ((j < s->len && (p[j] == '=' || p[j] == '~')) || (i > 0 && strchr("!<>=+-*/%&|^~", p[i - 1]))))
		return 0; /* a comparison or an operator */
	if (c == ':' && j < s->len && p[j] == '=')
		j++; /* := */
	else if (c == ':' && j < s->len && p[j] == ':')
		return 0;
	struct kv kv;
	if (!key_before(s, i, &kv))
		return 0;
	struct keyinfo ki = classify_key(p + kv.ks, kv.ke - kv.ks);
	if (ki.st == S_NONE)
		return 0;
	if (c == ':' && !(kv.quoted || kv.line_start || ki.header))
		return 0; /* "the password: ..." in prose */
	if (ki.header && c == ':') {
		if (eq_ci(p + kv.ks, kv.ke - kv.ks, "cookie") || eq_ci(p + kv.ks, kv.ke - kv.ks, "set-cookie")) {
			size_t k = j;
			while (k < s->len && p[k] == ' ')
				k++;
			return cookie_value(s, k, p[kv.ks] == 's' || p[kv.ks] == 'S');
		}
		if (ki.kind == K_AUTHORIZATION) {
			size_t k = j;
			while (k < s->len && p[k] == ' ')
				k++;
			size_t e = k;
			while (e < s->len && !is(p[e], C_SPACE) && !strchr("\"'`,;<>\\", p[e]))
				e++;
			return auth_value(s, k, e);
		}
	}
	bool quoted;
	size_t vs, ve;
	if (!value_after(s, j, &quoted, &vs, &ve))
		return 0;
	if (kv.escaped && quoted && !(vs >= 2 && p[vs - 2] == '\\'))
		return 0; /* "{\"password\": " + pw + "}": a bare quote after \"key\": ends the string, code */
	if (!quoted && c == '=' && kv.spaced && !mixed(p + vs, ve - vs))
		return 0; /* password = pw: an assignment in code */
	if (ki.kind == K_AUTHORIZATION && !quoted)
		return auth_value(s, vs, ve);
	if (c == ':' && !quoted && !ki.header && !rest_of_line_blank(s, ve))
		return 0; /* "- secret-delta: I found it": a list of prose, not a YAML secret */
	if (!plausible(p + vs, ve - vs, ki.st, p + kv.ks, kv.ke - kv.ks))
		return 0;
	size_t f = s->found, e = at_word(s, vs); /* a known shape keeps its own kind */
	if (s->found > f)
		return e;
	return put(s, vs, ve, ki.kind);
}

/* scheme://user:password@host: the password (or a lone token as the user) */
static size_t try_url(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	if (i + 3 >= s->len || p[i + 1] != '/' || p[i + 2] != '/' || i == 0 || !is(p[i - 1], ALNUM))
		return 0;
	size_t a = i + 3, e = a, at = 0, colon = 0;
	while (e < s->len && !strchr("/?#\"'`<>\\ \t\r\n()[]{}", p[e])) {
		if (p[e] == '@')
			at = e;
		e++;
	}
	if (at == 0)
		return 0;
	for (size_t k = a; k < at; k++)
		if (p[k] == ':') {
			colon = k;
			break;
		}
	if (colon) {
		if (colon + 1 == at || placeholder(p + colon + 1, at - colon - 1, (const unsigned char *)"password", 8))
			return 0;
		return put(s, colon + 1, at, K_URL_PASSWORD);
	}
	if (at - a < 16 || !mixed(p + a, at - a))
		return 0;
	return put(s, a, at, K_URL_TOKEN);
}

/* ?key=value / &key=value: a credential in a query string or a form body */
static size_t try_query(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	size_t k = i + 1;
	size_t n = run(p + k, s->len - k, WORD | C_DOT);
	if (n == 0 || k + n >= s->len || p[k + n] != '=')
		return 0;
	static const char *const extra[] = {
		"code", "sig",     "signature",    "key", "x-amz-signature", "x-amz-security-token", "x-amz-credential",
		"sid",  "session", "access_token", NULL};
	struct keyinfo ki = classify_key(p + k, n);
	bool ext = false;
	for (int e = 0; extra[e]; e++)
		ext |= eq_ci(p + k, n, extra[e]);
	if (ki.st == S_NONE && !ext)
		return 0;
	size_t vs = k + n + 1, ve = vs;
	while (ve < s->len && !is(p[ve], C_SPACE) && !strchr("&#\"'`<>\\)", p[ve]))
		ve++;
	if (ext && ki.st == S_NONE && (ve - vs < 8 || !mixed(p + vs, ve - vs)))
		return 0;
	if (ki.st != S_NONE && !plausible(p + vs, ve - vs, ki.st, p + k, n))
		return 0;
	return put(s, vs, ve, K_QUERY_TOKEN);
}

/* ---- passwords as command arguments ---- */

static bool line_sep(unsigned char c)
{
	return c == '\n' || c == '\r';
}

/* the word w (letters, digits, - _ .) stands before i on i's line, as a whole word */
static bool word_on_line(const struct scan *s, size_t i, const char *w)
{
	size_t n = strlen(w), from = i > 512 ? i - 512 : 0;
	for (size_t j = i; j > from && !line_sep(s->p[j - 1]); j--) {
		size_t a = j - 1;
		if (a + n > i || s->p[a] != (unsigned char)w[0] || memcmp(s->p + a, w, n) != 0)
			continue;
		bool left = a == 0 || !is(s->p[a - 1], WORD | C_DOT), right = a + n < s->len && !is(s->p[a + n], WORD);
		if (left && right)
			return true;
	}
	return false;
}

/* a value after a flag: [*vs, *ve), unquoted or quoted; not a further flag */
static bool flag_value(const struct scan *s, size_t j, size_t *vs, size_t *ve)
{
	bool quoted;
	if (j >= s->len || !(s->p[j] == ' ' || s->p[j] == '\t') || !value_after(s, j, &quoted, vs, ve))
		return false;
	return quoted || s->p[*vs] != '-';
}

/* the value, unless a placeholder; a known shape keeps its own kind */
static size_t put_value(struct scan *s, size_t vs, size_t ve, enum kind k)
{
	if (placeholder(s->p + vs, ve - vs, (const unsigned char *)"password", 8))
		return 0;
	size_t f = s->found, e = at_word(s, vs);
	return s->found > f ? e : put(s, vs, ve, k);
}

/* curl -u user:password: the password */
static size_t user_colon(struct scan *s, size_t vs, size_t ve)
{
	const unsigned char *c = memchr(s->p + vs, ':', ve - vs);
	if (c == NULL || (size_t)(c - s->p) + 1 >= ve || c == s->p + vs)
		return 0;
	return put_value(s, (size_t)(c - s->p) + 1, ve, K_PASSWORD);
}

/*
 * -p at i is an option of sshpass or of a registry login, not of a command they run (sshpass -p
 * PW ssh -p 2222 host): only options, and a value after -u, stand between it and that word.
 */
static bool own_option(const struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	size_t j = i, words = 0;
	while (j > 0 && !line_sep(p[j - 1]) && words < 8) {
		while (j > 0 && (p[j - 1] == ' ' || p[j - 1] == '\t'))
			j--;
		size_t e = j;
		while (j > 0 && !is(p[j - 1], C_SPACE))
			j--;
		struct txc_str w = {(const char *)p + j, e - j};
		if ((w.len == 7 && memcmp(w.ptr, "sshpass", 7) == 0) || (w.len == 5 && memcmp(w.ptr, "login", 5) == 0))
			return true;
		bool after_u = j >= 4 && p[j - 1] == ' ' && p[j - 2] == 'u' && p[j - 3] == '-';
		if (w.len == 0 || (w.ptr[0] != '-' && !after_u))
			return false;
		words++;
	}
	return false;
}

/*
 * The short flags that take a password, by the command on the line: mysql -pPW (glued: -p alone
 * asks for it), sshpass -p PW, docker login -p PW, redis-cli -a PW, ldapsearch -w PW, curl -u U:PW.
 */
static size_t short_flag(struct scan *s, size_t i)
{
	static const struct {
		const char *cmd, *also;
		unsigned char flag;
		bool glued;
	} t[] = {{"mysql", NULL, 'p', true},      {"mysqldump", NULL, 'p', true},   {"mysqladmin", NULL, 'p', true},
		 {"mariadb", NULL, 'p', true},    {"sshpass", NULL, 'p', false},    {"login", "docker", 'p', false},
		 {"login", "podman", 'p', false}, {"login", "nerdctl", 'p', false}, {"login", "helm", 'p', false},
		 {"redis-cli", NULL, 'a', false}, {"ldapsearch", NULL, 'w', false}, {"ldapmodify", NULL, 'w', false},
		 {"ldapadd", NULL, 'w', false},   {"ldapdelete", NULL, 'w', false}, {"curl", NULL, 'u', false}};
	const unsigned char *p = s->p;
	unsigned char f = p[i + 1];
	bool glued = i + 2 < s->len && !is(p[i + 2], C_SPACE) && !strchr("\"'`", p[i + 2]);
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		if (t[k].flag != f || t[k].glued != glued || !word_on_line(s, i, t[k].cmd) ||
		    (t[k].also != NULL && !word_on_line(s, i, t[k].also)) || (f == 'p' && !glued && !own_option(s, i)))
			continue;
		size_t vs = i + 2, ve;
		if (glued) {
			ve = vs;
			while (ve < s->len && !is(p[ve], C_SPACE) && !strchr("\"'`;|&<>)", p[ve]))
				ve++;
		} else if (!flag_value(s, i + 2, &vs, &ve)) {
			return 0;
		}
		return f == 'u' ? user_colon(s, vs, ve) : put_value(s, vs, ve, K_PASSWORD);
	}
	return 0;
}

/* --password PW, --token TOK (--password=PW is try_kv's): a flag that names a secret, then its value */
static size_t try_flag(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	if (i > 0 && !is(p[i - 1], C_SPACE) && !strchr("\"'`(", p[i - 1]))
		return 0;
	size_t k = i + 2, n, vs, ve;
	if (k >= s->len || !is(p[i + 1], C_LO | C_UP | C_DASH))
		return 0;
	if ((starts(p + i, s->len - i, "-passin ") || starts(p + i, s->len - i, "-passout ")) &&
	    flag_value(s, i + 7 + (p[i + 5] == 'o'), &vs, &ve) && starts(p + vs, ve - vs, "pass:") && ve > vs + 5)
		return put_value(s, vs + 5, ve, K_PASSWORD); /* openssl -passin pass:PW */
	if (p[i + 1] != '-')
		return short_flag(s, i); /* -p... */
	n = run(p + k, s->len - k, WORD);
	if (n == 0 || !flag_value(s, k + n, &vs, &ve))
		return 0;
	if (eq_ci(p + k, n, "user") && word_on_line(s, i, "curl"))
		return user_colon(s, vs, ve);
	struct keyinfo ki = classify_key(p + k, n);
	if (ki.st == S_NONE || !plausible(p + vs, ve - vs, ki.st, p + k, n))
		return 0;
	bool word = true; /* "the --password option": a plain word is prose, not a password */
	for (size_t j = vs; j < ve; j++)
		word &= is(p[j], C_LO);
	return word ? 0 : put_value(s, vs, ve, ki.kind);
}

/* .netrc: machine HOST login USER password PW (the line names a machine, or a login precedes) */
static size_t try_netrc(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	size_t vs, ve;
	if (!starts(p + i, s->len - i, "password") || !flag_value(s, i + 8, &vs, &ve))
		return 0;
	if (!word_on_line(s, i, "machine") && !word_on_line(s, i, "default") && !word_on_line(s, i, "login"))
		return 0;
	return put_value(s, vs, ve, K_PASSWORD);
}

/* ---- the pass ---- */

/* at a word start: a token shape, or a long base64 run to step over; the next position, or 0 */
static size_t at_word(struct scan *s, size_t i)
{
	unsigned char c = s->p[i];
	size_t e;
	if (first[c] != first[c + 1] && (e = try_prefix(s, i)) != 0)
		return e;
	if (c == 'e' && (e = try_jwt(s, i)) != 0)
		return e;
	if ((c == 'b' || is(c, C_DIG)) && (e = try_telegram(s, i)) != 0)
		return e;
	if ((c == 'M' || c == 'N' || c == 'O') && (e = try_discord(s, i)) != 0)
		return e;
	if ((c == 'B' || c == 'b') && (e = try_bearer(s, i)) != 0)
		return e;
	if (c == 'd' && (e = skip_data_url(s, i)) != 0)
		return e;
	if (c == 'p' && (e = try_netrc(s, i)) != 0)
		return e;
	/* inside base64 (images) a word starts after '+' or '/', which every shape base64 can hold refuses */
	return 0;
}

static void init_tables(void)
{
	if (!cls_ready) {
		cls_init();
		rules_init();
		slots_init();
	}
}

#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

/* p[0, 8) as a little-endian number: byte k in bits 8k .. 8k + 7 */
static uint64_t load8(const unsigned char *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* the index of the lowest bit set in m (m != 0) */
static unsigned first_bit(uint64_t m)
{
#if defined(__GNUC__)
	return (unsigned)__builtin_ctzll(m);
#else
	unsigned k = 0;
	for (; !(m & 1); m >>= 1)
		k++;
	return k;
#endif
}

/* can a shape of this slot start at p (8 bytes or more left)?  false: surely not */
static bool slot_may(const struct slot *sl, const unsigned char *p, size_t left)
{
	uint64_t x = load8(p);
	for (const struct quick *q = quicks + sl->first, *e = q + sl->n; q < e; q++)
		if (((x | q->o) & q->m) == q->v)
			return true;
	/* 8 digits: no byte below '0', above '9' or with the high bit (skip_lower8's test) */
	if ((sl->flags & Q_DIGITS) && !(((x - ONES * '0') | (x + ONES * (127 - '9')) | x) & HIGH))
		return true;
	if (sl->flags & Q_DOT)
		for (size_t k = 24; k <= 28 && k < left; k++)
			if (p[k] == '.')
				return true;
	return false;
}

/* at a word start i whose two bytes have slot k (1 + its index): the end of a shape found there, or 0 */
static size_t shape_at(struct scan *s, size_t i, unsigned k)
{
	size_t left = s->len - i;
	if (left >= 8 && !slot_may(&slots[k - 1], s->p + i, left))
		return 0;
	return at_word(s, i);
}

/* at a word start i: the end of a shape found there, or 0 */
static size_t word_start(struct scan *s, size_t i)
{
	unsigned k = i + 1 < s->len ? pair_slot[s->p[i]][s->p[i + 1]] : 0;
	return k != 0 ? shape_at(s, i, k) : 0;
}

/* from i, past whole groups of 8 lower-case ASCII letters (the bulk of prose and code) */
static size_t skip_lower8(const unsigned char *p, size_t i, size_t len)
{
	while (i + 8 <= len) {
		uint64_t x;
		memcpy(&x, p + i, 8);
		/* a byte below 'a', or above 'z' (also any byte with the high bit) */
		if (((x - ONES * 'a') | (x + ONES * (127 - 'z')) | x) & HIGH)
			break;
		i += 8;
	}
	return i;
}

/* bytes where no rule starts and after which a word may start: controls, blanks, !"#$%, non-ASCII */
static bool quiet(unsigned char c)
{
	return c < '&' || c >= 0x80;
}

/*
 * A block of prose read at once: for each of its bytes, whether it is an ASCII letter and
 * whether it is quiet, as masks of STRIDE bits a byte (the last of them set), byte 0 lowest.
 */
#if defined(__SSE2__)
enum { BLOCK = 16, STRIDE = 1 };
typedef unsigned mask;
#define ALL_BITS 0xffffu
static mask block_masks(const unsigned char *p, mask *quiet)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* signed compares: x < '&' also holds for the bytes from 0x80; (x | 0x20) - 'a' + 0x80 is
	 * below 0x80 + 26 (as a signed byte) for a letter alone */
	__m128i z = _mm_add_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8((char)(0x80 - 'a')));
	*quiet = (mask)_mm_movemask_epi8(_mm_cmplt_epi8(x, _mm_set1_epi8('&')));
	return (mask)_mm_movemask_epi8(_mm_cmplt_epi8(z, _mm_set1_epi8((char)(0x80 + 26))));
}
#else
enum { BLOCK = 8, STRIDE = 8 };
typedef uint64_t mask;
#define ALL_BITS HIGH
static mask block_masks(const unsigned char *p, mask *quiet)
{
	/* 7 bits a byte, so that no carry crosses a byte; y | 0x20 folds the case */
	uint64_t x = load8(p), y = x & ~HIGH, z = y | ONES * 0x20;
	*quiet = (~(y + ONES * (0x80 - '&')) | x) & HIGH;
	return (z + ONES * (0x80 - 'a')) & ~(z + ONES * (0x80 - 'z' - 1)) & ~x & HIGH;
}
#endif
#define BYTE_BIT ((mask)1 << (STRIDE - 1)) /* byte 0's bit */

/*
 * From i, a block at a time while the bytes are letters and quiet bytes, the bulk of prose: in
 * them only a word start (a letter after a quiet byte) may begin a shape.  Returns where it stops:
 * at the first byte of another kind, past a shape found, or near the end.
 */
static size_t prose(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	mask before = i == 0 || !is(p[i - 1], WORD) ? BYTE_BIT : 0; /* a word may start at i */
	for (; i + BLOCK < s->len; i += BLOCK) {                    /* so a word start has a byte after it */
		mask quiet, alpha = block_masks(p + i, &quiet);
		mask rest = ~(alpha | quiet) & ALL_BITS;
		mask starts = alpha & (quiet << STRIDE | before);
		if (rest)
			starts &= (rest & (~rest + 1)) - 1; /* only before the first other byte */
		for (; starts; starts &= starts - 1) {
			size_t j = i + first_bit(starts) / STRIDE, e;
			unsigned k = pair_slot[p[j]][p[j + 1]];
			if (k != 0 && (e = shape_at(s, j, k)) > j)
				return e;
		}
		if (rest)
			return i + first_bit(rest) / STRIDE;
		before = quiet >> (STRIDE * (BLOCK - 1));
	}
	return i;
}

/*
 * At i, just after ESC '[': a word that starts where the escape ends (\e[32mghp_...: a terminal
 * colours a token so, and the Markdown and terminal writers drop the escape, leaving the bare
 * token).  The end of a shape found there, else 0.
 */
static size_t after_csi(struct scan *s, size_t i)
{
	size_t k = i;
	while (k < s->len && k - i < 16 && (is(s->p[k], C_DIG) || s->p[k] == ';'))
		k++;
	if (k + 1 >= s->len || s->p[k] < '@' || s->p[k] > '~')
		return 0;
	size_t e = word_start(s, k + 1);
	return e > k + 1 ? e : 0;
}

/*
 * text redacted into out: how many secrets; out is written only when there is one.  Every rule
 * starts at a word start or at one of = : ? & - +, so the bytes where none can start are passed
 * over: a run of letters and digits at once, and prose a block at a time (prose() is tried after
 * a quiet byte; after short tries, only further and further on, so that code and punctuation do
 * not pay for tries that fail).
 */
static size_t scan_text(struct txc_redactor *r, const char *text, size_t len, struct txc_buf *out)
{
	struct scan s = {r, (const unsigned char *)text, len, 0, out, 0};
	const unsigned char *p = s.p;
	size_t i = 0, again = 0, wait = 0; /* prose() is tried after a quiet byte from again on */
	while (i < len) {
		unsigned char c = p[i];
		size_t e = 0;
		if (is(c, ALNUM)) {
			if ((i == 0 || !is(p[i - 1], WORD)) && (e = word_start(&s, i)) > i) {
				i = e;
				continue;
			}
			if (i >= 2 && p[i - 1] == '[' && p[i - 2] == 0x1b && (e = after_csi(&s, i)) > i) {
				i = e;
				continue;
			}
			/* no shape starts inside a run of letters and digits: step over it */
			i = skip_lower8(p, i + 1, len);
			while (i < len && is(p[i], ALNUM))
				i++;
			continue;
		} else if (!is(c, C_TRIG)) {
			if (c == '[' && (e = own_marker(p, i, len)) != 0) {
				i = e;
				continue;
			}
			if (++i >= again && quiet(c)) {
				size_t from = i;
				i = prose(&s, i);
				/* hardly any prose here: the next try later, and later again after each short one */
				wait = i - from >= BLOCK ? 0 : wait == 0 ? 2 * BLOCK : wait < 1024 ? 2 * wait : wait;
				again = i + wait;
			}
			continue;
		} else if (c == '=' || c == ':')
			e = c == ':' && (e = try_url(&s, i)) != 0 ? e : try_kv(&s, i);
		else if (c == '?' || c == '&')
			e = try_query(&s, i);
		else if (c == '-' && (i == 0 || p[i - 1] != '-'))
			e = (e = try_pem(&s, i)) != 0 ? e : try_flag(&s, i);
		else if (c == '+')
			e = try_phone(&s, i);
		i = e > i ? e : i + 1;
	}
	if (s.found)
		txc_buf_add(out, p + s.copied, len - s.copied);
	return s.found;
}

size_t txc_redact_text(struct txc_redactor *r, const char *text, size_t len, struct txc_buf *out)
{
	init_tables();
	size_t n = scan_text(r, text, len, out);
	if (n == 0)
		txc_buf_add(out, text, len);
	return n;
}

/* ---- JSON text and JSON trees ---- */

static size_t redact_value(struct txc_redactor *r, struct txc_str key, const char *p, size_t len, struct txc_buf *out);

enum { KEY_MIN = 9 }; /* the shortest token shape: a phone number, + and 8 digits */

static bool hex4(const unsigned char *p, uint32_t *out)
{
	uint32_t v = 0;
	for (int k = 0; k < 4; k++) {
		unsigned char c = lower(p[k]);
		if (!is(c, C_DIG) && !(c >= 'a' && c <= 'f'))
			return false;
		v = v << 4 | (uint32_t)(is(c, C_DIG) ? c - '0' : c - 'a' + 10);
	}
	*out = v;
	return true;
}

/*
 * a JSON string literal's bytes p[0, n) (between the quotes) decoded into out; false if malformed.
 * Decoding never lengthens (an escape of 2 bytes gives 1, of 6 at most 3), so out is grown once
 * and written through an index.
 */
static bool decode_literal(const unsigned char *p, size_t n, struct txc_buf *out)
{
	static const char unescape[256] = {['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b',
					   ['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t'};
	txc_buf_grow(out, n);
	size_t w = out->len;
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *bs = memchr(p + i, '\\', n - i);
		size_t run = bs != NULL ? (size_t)(bs - p) - i : n - i; /* plain bytes: copied as one run */
		memcpy(out->buf + w, p + i, run);
		w += run;
		if ((i += run) >= n)
			break;
		i++; /* < n: literal_end ended the literal at an unescaped quote, so no lone '\\' ends it */
		if (unescape[p[i]] != '\0') {
			out->buf[w++] = unescape[p[i]];
			continue;
		}
		uint32_t cp, lo;
		if (p[i] != 'u' || i + 4 >= n || !hex4(p + i + 1, &cp)) {
			ok = false;
			break;
		}
		i += 4;
		if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 < n && p[i + 1] == '\\' && p[i + 2] == 'u' &&
		    hex4(p + i + 3, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			i += 6;
		}
		if (cp >= 0xD800 && cp <= 0xDFFF)
			cp = 0xFFFD;
		out->len = w;
		txc_utf8_put(out, cp);
		w = out->len;
	}
	out->len = w;
	out->buf[w] = '\0';
	return ok;
}

/*
 * p is a JSON object or array text: redact the strings inside it, each with the key it
 * belongs to, and re-encode only those that changed; every other byte stays.  -1 when p
 * is not JSON after all (out is left as it was), else how many secrets were found.
 */
/* the closing quote of a string literal that opens before from (len when there is none) */
static size_t literal_end(const unsigned char *p, size_t from, size_t len)
{
	for (size_t j = from; j < len;) {
		const unsigned char *q = memchr(p + j, '"', len - j);
		if (q == NULL)
			return len;
		size_t k = (size_t)(q - p), bs = 0;
		while (k - bs > from && p[k - bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0)
			return k;
		j = k + 1;
	}
	return len;
}

static long redact_json_text(struct txc_redactor *r, const unsigned char *p, size_t len, struct txc_buf *out)
{
	size_t mark = out->len, copied = 0, found = 0;
	struct txc_redactor counted = *r; /* not JSON after all: the text scan counts again */
	struct txc_buf key = TXC_BUF_INIT, dec = TXC_BUF_INIT, red = TXC_BUF_INIT;
	bool have_key = false;
	long rc = 0;
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		if (c != '"') {
			if (!is(c, C_JSON)) {
				rc = -1;
				break;
			}
			if (c == ',' || c == '{' || c == '[')
				have_key = false;
			i++;
			continue;
		}
		size_t j = literal_end(p, i + 1, len);
		bool esc = memchr(p + i + 1, '\\', j < len ? j - i - 1 : len - i - 1) != NULL;
		if (j >= len) {
			rc = -1;
			break;
		}
		size_t k = j + 1;
		while (k < len && is(p[k], C_SPACE))
			k++;
		bool is_key = k < len && p[k] == ':';
		struct txc_str lit = {(const char *)p + i + 1, j - i - 1};
		if (esc) {
			txc_buf_reset(&dec);
			if (!decode_literal(p + i + 1, j - i - 1, &dec)) {
				rc = -1;
				break;
			}
			lit = (struct txc_str){dec.buf, dec.len};
		}
		if (is_key) {
			txc_buf_reset(&key);
			txc_buf_add(&key, lit.ptr, lit.len);
			have_key = true;
			txc_buf_reset(&red);
			size_t n = lit.len >= KEY_MIN ? scan_text(r, lit.ptr, lit.len, &red) : 0;
			if (n) { /* a token as a key: the key is shown like any string */
				txc_buf_add(out, p + copied, i - copied);
				txc_json_emit_str(out, red.buf, red.len);
				copied = j + 1;
				found += n;
			}
		} else {
			txc_buf_reset(&red);
			struct txc_str kk = have_key ? (struct txc_str){key.buf, key.len} : TXC_STR_NULL;
			size_t n = redact_value(r, kk, lit.ptr, lit.len, &red);
			if (n) {
				txc_buf_add(out, p + copied, i - copied);
				txc_json_emit_str(out, red.buf, red.len);
				copied = j + 1;
				found += n;
			}
			have_key = false;
		}
		i = j + 1;
	}
	if (rc == 0 && found) {
		txc_buf_add(out, p + copied, len - copied);
		rc = (long)found;
	} else {
		txc_buf_truncate(out, mark);
		*r = counted;
	}
	txc_buf_release(&key);
	txc_buf_release(&dec);
	txc_buf_release(&red);
	return rc;
}

/* a JSON object or array text? (its first byte after blanks) */
static bool json_like(const char *p, size_t len)
{
	size_t i = 0;
	while (i < len && is((unsigned char)p[i], C_SPACE))
		i++;
	return i < len && (p[i] == '{' || p[i] == '[');
}

/* text, or a JSON text inside a string, redacted into out (written only when there is a secret) */
static size_t redact_any(struct txc_redactor *r, const char *p, size_t len, struct txc_buf *out)
{
	if (json_like(p, len)) {
		long n = redact_json_text(r, (const unsigned char *)p, len, out);
		if (n >= 0)
			return (size_t)n;
	}
	return scan_text(r, p, len, out);
}

/* a string under key: kept (signatures), wholly replaced (a secret key's value), or scanned */
static size_t redact_value(struct txc_redactor *r, struct txc_str key, const char *p, size_t len, struct txc_buf *out)
{
	if (key.ptr != NULL && keep_key(key))
		return 0;
	if (key.ptr != NULL && !json_like(p, len)) {
		struct keyinfo ki = classify_key_cached(r, key);
		const unsigned char *v = (const unsigned char *)p;
		if (ki.st != S_NONE && len <= 16384 &&
		    plausible(v, len, ki.st, (const unsigned char *)key.ptr, key.len)) {
			size_t n = scan_text(r, p, len, out); /* a known shape inside keeps its own kind */
			if (n)
				return n;
			marker(out, ki.kind, p, len);
			count(r, ki.kind);
			return 1;
		}
	}
	return redact_any(r, p, len, out);
}

struct txc_redactor *txc_redactor_new(bool scan_only)
{
	struct txc_redactor *r = txc_xcalloc(1, sizeof(*r));
	r->scan_only = scan_only;
	r->kcache = txc_xcalloc(KCACHE, sizeof(*r->kcache));
	init_tables();
	return r;
}

void txc_redactor_free(struct txc_redactor *r)
{
	if (r == NULL)
		return;
	free(r->kcache);
	free(r);
}

/* s under key, as a new string in a when it changed */
static struct txc_str redact_str_key(struct txc_redactor *r, struct txc_arena *a, struct txc_str key, struct txc_str s)
{
	if (s.len == 0)
		return s;
	struct txc_buf out = TXC_BUF_INIT;
	size_t n = redact_value(r, key, s.ptr, s.len, &out);
	struct txc_str res = s;
	if (n && !r->scan_only)
		res = txc_arena_str(a, out.buf, out.len);
	txc_buf_release(&out);
	return res;
}

struct txc_str txc_redact_str(struct txc_redactor *r, struct txc_arena *a, struct txc_str s)
{
	return redact_str_key(r, a, TXC_STR_NULL, s);
}

/*
 * An object key with a token in it ({"ghp_...": "ci bot"}): a key is a string a reader shows like
 * any other.  Keys shorter than every token shape are not read (most keys of a row).
 */
static struct txc_str redact_key(struct txc_redactor *r, struct txc_arena *a, struct txc_str k)
{
	if (k.len < KEY_MIN || run((const unsigned char *)k.ptr, k.len, C_LO | C_US) == k.len)
		return k; /* session_id, tool_call_id: every shape has a capital, a digit or a sign */
	struct txc_buf out = TXC_BUF_INIT;
	size_t n = scan_text(r, k.ptr, k.len, &out);
	struct txc_str res = k;
	if (n && !r->scan_only)
		res = txc_arena_str(a, out.buf, out.len);
	txc_buf_release(&out);
	return res;
}

static const struct txc_json *redact_json_key(struct txc_redactor *r, struct txc_arena *a, struct txc_str key,
					      const struct txc_json *v)
{
	if (v == NULL)
		return v;
	if (v->kind == TXC_JSON_STRING) {
		struct txc_str s = redact_str_key(r, a, key, v->s);
		if (s.ptr == v->s.ptr)
			return v;
		return txc_json_string(a, s.ptr, s.len);
	}
	if (v->kind != TXC_JSON_ARRAY && v->kind != TXC_JSON_OBJECT)
		return v;
	struct txc_json *copy = NULL;
	bool obj = v->kind == TXC_JSON_OBJECT;
	for (size_t i = 0; i < v->n; i++) {
		struct txc_str k = obj ? v->keys[i] : key;
		const struct txc_json *item = redact_json_key(r, a, k, v->items[i]);
		struct txc_str nk = obj ? redact_key(r, a, k) : k; /* the value is judged by the key as it was */
		if (item == v->items[i] && nk.ptr == k.ptr)        /* scan_only: always, nothing is replaced */
			continue;
		if (copy == NULL) { /* copy on the first change: same order, same kind */
			copy = txc_json_new(a, v->kind);
			*copy = *v;
			copy->items = txc_arena_array(a, v->n, sizeof(*copy->items)); /* n > i */
			memcpy(copy->items, v->items, v->n * sizeof(*copy->items));
			if (obj) {
				copy->keys = txc_arena_array(a, v->n, sizeof(*copy->keys));
				memcpy(copy->keys, v->keys, v->n * sizeof(*copy->keys));
			}
		}
		copy->items[i] = item;
		if (obj)
			copy->keys[i] = nk;
	}
	return copy != NULL ? copy : v;
}

const struct txc_json *txc_redact_json(struct txc_redactor *r, struct txc_arena *a, const struct txc_json *v)
{
	return redact_json_key(r, a, TXC_STR_NULL, v);
}

static void redact_block(struct txc_redactor *r, struct txc_arena *a, struct txc_block *b)
{
	switch (b->kind) {
	case TXC_BLOCK_TEXT:
	case TXC_BLOCK_THINKING: b->text = txc_redact_str(r, a, b->text); break; /* signature, encrypted: kept */
	case TXC_BLOCK_TOOL_USE: b->input = txc_redact_json(r, a, b->input); break;
	case TXC_BLOCK_TOOL_RESULT:
		b->output = txc_redact_json(r, a, b->output);
		b->output_text = txc_redact_str(r, a, b->output_text);
		break;
	case TXC_BLOCK_IMAGE: break;
	}
}

void txc_redact_transcript(struct txc_redactor *r, struct txc_transcript *t)
{
	struct txc_arena *a = t->arena;
	struct txc_meta *m = &t->meta;
	struct txc_str *meta[] = {&m->title, &m->cwd, &m->git_branch, &m->model, &m->source, &m->end_reason};
	for (size_t i = 0; i < sizeof(meta) / sizeof(meta[0]); i++)
		*meta[i] = txc_redact_str(r, a, *meta[i]);
	for (size_t i = 0; i < t->n_messages; i++) {
		struct txc_message *msg = &t->messages[i];
		msg->stop_other = txc_redact_str(r, a, msg->stop_other);
		for (size_t j = 0; j < msg->n_blocks; j++)
			redact_block(r, a, &msg->blocks[j]);
	}
	if (t->native != NULL)
		txc_redact_native(r, a, t->native, t->native);
}

void txc_redact_native(struct txc_redactor *r, struct txc_arena *a, struct txc_hermes_native *dst,
		       const struct txc_hermes_native *src)
{
	struct txc_hermes_native n = *src;
	n.session = txc_redact_json(r, a, src->session);
	n.rows = txc_redact_json(r, a, src->rows);
	*dst = n;
}

size_t txc_redact_count(const struct txc_redactor *r)
{
	return r->total;
}

void txc_redact_kinds(const struct txc_redactor *r, struct txc_buf *out)
{
	for (size_t i = 0; i < r->n_order; i++) {
		if (i)
			txc_buf_add(out, ", ", 2);
		txc_buf_addstr(out, kind_names[r->order[i]]);
	}
}

const char *const *txc_redact_kind_names(size_t *n)
{
	*n = N_KINDS;
	return kind_names;
}
