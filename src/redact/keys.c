/* keys.c - keys that name secrets: split into words, classified by the word families below */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* ---- keys that name secrets ---- */

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

/* a key split into its words, and what the whole key says */
struct words {
	char seg[8][24];
	int ns;
	bool aws;    /* aws is one of the words */
	bool header; /* the key is an HTTP header name that may stand anywhere */
};

static bool has_word(const struct words *kw, const char *w)
{
	for (int i = 0; i < kw->ns; i++)
		if (seg_is(kw->seg[i], w))
			return true;
	return false;
}

/* the password family: password, passwd, passphrase; pass and pwd after another word */
static bool password_word(const struct words *kw, const char *w, struct keyinfo *out)
{
	if (!(seg_is(w, "password") || seg_is(w, "passwd") || seg_is(w, "passphrase") ||
	      (kw->ns > 1 && (seg_is(w, "pass") || seg_is(w, "pwd")))))
		return false;
	*out = (struct keyinfo){S_STRONG, K_PASSWORD, kw->header};
	return true;
}

/* the secret family: secret, secrets, clientsecret (client_secret, an AWS secret) */
static bool secret_word(const struct words *kw, int i, struct keyinfo *out)
{
	const char *w = kw->seg[i];
	if (!(seg_is(w, "secret") || seg_is(w, "secrets") || seg_is(w, "clientsecret")))
		return false;
	enum kind kd = kw->aws                                                      ? K_AWS_SECRET
		       : (i > 0 && seg_is(kw->seg[i - 1], "client")) || w[0] == 'c' ? K_CLIENT_SECRET
										    : K_SECRET;
	*out = (struct keyinfo){S_STRONG, kd, kw->header};
	return true;
}

/* the key family: a qualified key (api_key, private_key, x-key) or one glued word (apikey) */
static bool key_word(const struct words *kw, int i, struct keyinfo *out)
{
	const char *w = kw->seg[i];
	const char(*seg)[24] = kw->seg;
	bool qual_key = seg_is(w, "key") && i > 0 && seg_any(seg[i - 1], key_quals);
	if (!(qual_key || seg_is(w, "apikey") || seg_is(w, "privatekey") || seg_is(w, "accesskey") ||
	      seg_is(w, "secretkey") || seg_is(w, "accountkey")))
		return false;
	bool secret = has_word(kw, "secret");
	const char *q = qual_key ? seg[i - 1] : w;
	enum kind kd = kw->aws && (seg_is(q, "secret") || secret)                  ? K_AWS_SECRET
		       : seg_is(q, "api") || seg_is(q, "apikey") || seg_is(q, "x") ? K_API_KEY
		       : seg_is(q, "private") || seg_is(q, "privatekey")           ? K_PRIVATE_KEY
		       : seg_is(q, "account") || seg_is(q, "accountkey") || seg_is(q, "shared") ||
				       (seg_is(q, "access") && i > 1 && seg_is(seg[i - 2], "shared"))
			       ? K_AZURE_KEY
			       : K_SECRET_KEY;
	/* an access key id names, a secret access key is */
	if (kw->aws && !secret && seg_is(q, "access"))
		*out = (struct keyinfo){S_NONE, K_SECRET, kw->header};
	else
		*out = (struct keyinfo){S_STRONG, kd, kw->header};
	return true;
}

/* credentials, and the words that name a token or a session: weak keys but for credentials */
static bool other_word(const struct words *kw, int i, struct keyinfo *out)
{
	const char *w = kw->seg[i];
	int ns = kw->ns;
	struct keyinfo ki = {S_WEAK, K_TOKEN, kw->header};
	if (seg_is(w, "credential") || seg_is(w, "credentials") || seg_is(w, "creds"))
		ki.st = S_STRONG, ki.kind = K_CREDENTIAL;
	else if (seg_is(w, "signature") && i > 0 && seg_is(kw->seg[i - 1], "access")) /* SharedAccessSignature */
		ki.st = S_STRONG, ki.kind = K_AZURE_SAS;
	else if (seg_is(w, "token"))
		ki.kind = kw->aws && has_word(kw, "session") ? K_AWS_SESSION : K_TOKEN;
	else if (seg_is(w, "authorization"))
		ki.kind = K_AUTHORIZATION;
	else if (seg_is(w, "cookie"))
		ki.kind = K_COOKIE;
	else if (seg_is(w, "jwt"))
		ki.kind = K_JWT;
	else if (seg_is(w, "bearer"))
		ki.kind = K_BEARER;
	else if (seg_is(w, "auth") && ns == 1)
		ki.kind = K_AUTH;
	else if ((seg_is(w, "session") || seg_is(w, "sid") || seg_is(w, "sessionid")) && ns == 1)
		ki.kind = K_SESSION;
	else
		return false;
	*out = ki;
	return true;
}

static bool header_name(const unsigned char *k, size_t n)
{
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
	bool is_header = false;
	for (int h = 0; headers[h]; h++)
		if (eq_ci(k, n, headers[h]))
			is_header = true;
	return is_header;
}

/* the last word (or the two last) name the secret's attributes, not the secret (TOKEN_COUNT) */
static bool meta_key(const struct words *kw)
{
	const char(*seg)[24] = kw->seg;
	int ns = kw->ns;
	if (seg_any(seg[ns - 1], meta_words)) /* has_stem saw a letter: one word at least */
		return true;
	return ns >= 2 && seg_any(seg[ns - 1], (const char *const[]){"value", "base", "string", "str", NULL}) &&
	       seg_any(seg[ns - 2], meta_words);
}

struct keyinfo txc_rd_classify_key(const unsigned char *k, size_t n)
{
	struct keyinfo ki = {S_NONE, K_SECRET, false};
	while (n > 0 && (*k == '-' || *k == '$' || *k == '@')) /* --password, $TOKEN, @secret */
		k++, n--;
	if (n == 0 || n > 96 || !has_stem(k, n))
		return ki;
	struct words kw;
	ki.header = kw.header = header_name(k, n);
	kw.ns = split_key(k, n, kw.seg);
	if (meta_key(&kw))
		return ki;
	kw.aws = has_word(&kw, "aws");
	int ns = kw.ns;
	/* the secret word is the key's last word, or the one before a last word such as value */
	static const char *const tails[] = {"value",  "base", "string", "str",   "data", "b64",
					    "base64", "hex",  "raw",    "plain", "text", NULL};
	int lo = ns >= 2 && seg_any(kw.seg[ns - 1], tails) ? ns - 2 : ns - 1;
	for (int i = ns - 1; i >= lo; i--) {
		const char *w = kw.seg[i];
		struct keyinfo glued = compound(w, i == ns - 1 && ns > 1 && upper_key(k, n)), found;
		if (glued.st != S_NONE) {
			glued.header = ki.header;
			return glued;
		}
		if (password_word(&kw, w, &found) || secret_word(&kw, i, &found) || key_word(&kw, i, &found) ||
		    other_word(&kw, i, &found))
			return found;
	}
	return ki;
}

/* keys whose values are opaque provider data that must survive byte for byte */
bool txc_rd_keep_key(struct txc_str key)
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
/* key's slot in the cache, filled for it (NULL: too long or empty to be cached) */
static struct kcache *kslot(struct txc_redactor *r, struct txc_str key)
{
	const unsigned char *k = (const unsigned char *)key.ptr;
	size_t n = key.len;
	if (n == 0 || n > KCACHE_LEN)
		return NULL;
	struct kcache *e = &r->kcache[(n * 31 + k[0] * 7 + k[n / 2] * 3 + k[n - 1]) % KCACHE];
	if (e->len != n || memcmp(e->key, k, n) != 0) {
		e->ki = txc_rd_classify_key(k, n);
		e->clean = false;
		e->harmless = e->ki.st == S_NONE || txc_rd_keep_key(key);
		e->len = (unsigned char)n;
		memcpy(e->key, k, n);
	}
	return e;
}

struct keyinfo txc_rd_classify_key_cached(struct txc_redactor *r, struct txc_str key)
{
	struct kcache *e = kslot(r, key);
	return e != NULL ? e->ki : txc_rd_classify_key((const unsigned char *)key.ptr, key.len);
}

bool txc_rd_harmless_key_cached(struct txc_redactor *r, struct txc_str key)
{
	struct kcache *e = kslot(r, key);
	return e != NULL ? e->harmless
			 : txc_rd_keep_key(key) ||
				   txc_rd_classify_key((const unsigned char *)key.ptr, key.len).st == S_NONE;
}

/*
 * The same keys come back on every row ("exit_code"), and one too long for the shortcut of
 * json.c's keys is scanned each time; a scan that found nothing is noted here, by the key's
 * bytes, so the quick pass over a JSON text (json.c) can take the key as clean.
 */
bool txc_rd_clean_key_cached(struct txc_redactor *r, struct txc_str key)
{
	const unsigned char *k = (const unsigned char *)key.ptr;
	size_t n = key.len;
	if (n == 0 || n > KCACHE_LEN)
		return false;
	const struct kcache *e = &r->kcache[(n * 31 + k[0] * 7 + k[n / 2] * 3 + k[n - 1]) % KCACHE];
	return e->clean && e->len == n && memcmp(e->key, k, n) == 0;
}

void txc_rd_note_clean_key(struct txc_redactor *r, struct txc_str key)
{
	struct kcache *e = kslot(r, key);
	if (e != NULL)
		e->clean = true;
}
