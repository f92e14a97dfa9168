/* values.c - the values keys name: plausibility, key = value, URL passwords, queries, cookies, flags */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

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
bool txc_rd_plausible(const unsigned char *v, size_t n, enum strength st, const unsigned char *key, size_t kn)
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
	return txc_rd_put(s, k, ve, kd);
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
		size_t a = k + n + 1, b = txc_rd_own_marker(p, a, s->len); /* redacted already: kept */
		if (b == 0)
			for (b = a; b < s->len && p[b] != ';' && !is(p[b], C_SPACE) && !strchr("\"'`<>\\,", p[b]);)
				b++;
		if (b > a && p[a] != '[')
			end = txc_rd_put(s, a, b, K_COOKIE);
		if (set || b >= s->len || p[b] != ';')
			break;
		k = b + 1;
		while (k < s->len && p[k] == ' ')
			k++;
	}
	return end;
}

size_t txc_rd_at_word(struct scan *s, size_t i);

/* at '=' or ':' (i): a secret value after a key that names one; the value's end, or 0 */
size_t txc_rd_try_kv(struct scan *s, size_t i)
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
	struct keyinfo ki = txc_rd_classify_key(p + kv.ks, kv.ke - kv.ks);
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
	if (!txc_rd_plausible(p + vs, ve - vs, ki.st, p + kv.ks, kv.ke - kv.ks))
		return 0;
	size_t f = s->found, e = txc_rd_at_word(s, vs); /* a known shape keeps its own kind */
	if (s->found > f)
		return e;
	return txc_rd_put(s, vs, ve, ki.kind);
}

/* scheme://user:password@host: the password (or a lone token as the user) */
size_t txc_rd_try_url(struct scan *s, size_t i)
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
		return txc_rd_put(s, colon + 1, at, K_URL_PASSWORD);
	}
	if (at - a < 16 || !mixed(p + a, at - a))
		return 0;
	return txc_rd_put(s, a, at, K_URL_TOKEN);
}

/* ?key=value / &key=value: a credential in a query string or a form body */
size_t txc_rd_try_query(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	size_t k = i + 1;
	size_t n = run(p + k, s->len - k, WORD | C_DOT);
	if (n == 0 || k + n >= s->len || p[k + n] != '=')
		return 0;
	static const char *const extra[] = {
		"code", "sig",     "signature",    "key", "x-amz-signature", "x-amz-security-token", "x-amz-credential",
		"sid",  "session", "access_token", NULL};
	struct keyinfo ki = txc_rd_classify_key(p + k, n);
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
	if (ki.st != S_NONE && !txc_rd_plausible(p + vs, ve - vs, ki.st, p + k, n))
		return 0;
	return txc_rd_put(s, vs, ve, K_QUERY_TOKEN);
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
	size_t f = s->found, e = txc_rd_at_word(s, vs);
	return s->found > f ? e : txc_rd_put(s, vs, ve, k);
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
size_t txc_rd_try_flag(struct scan *s, size_t i)
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
	struct keyinfo ki = txc_rd_classify_key(p + k, n);
	if (ki.st == S_NONE || !txc_rd_plausible(p + vs, ve - vs, ki.st, p + k, n))
		return 0;
	bool word = true; /* "the --password option": a plain word is prose, not a password */
	for (size_t j = vs; j < ve; j++)
		word &= is(p[j], C_LO);
	return word ? 0 : put_value(s, vs, ve, ki.kind);
}

/* .netrc: machine HOST login USER password PW (the line names a machine, or a login precedes) */
size_t txc_rd_try_netrc(struct scan *s, size_t i)
{
	const unsigned char *p = s->p;
	size_t vs, ve;
	if (!starts(p + i, s->len - i, "password") || !flag_value(s, i + 8, &vs, &ve))
		return 0;
	if (!word_on_line(s, i, "machine") && !word_on_line(s, i, "default") && !word_on_line(s, i, "login"))
		return 0;
	return put_value(s, vs, ve, K_PASSWORD);
}
