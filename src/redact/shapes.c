/* shapes.c - tokens known by their shape: a prefix rule (rules.c), JWT, Telegram, Discord, Bearer, PEM, phone */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

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

/* upper and lower case: a random key without a digit (1 in 70 of 24-letter ones), not a lower-case word */
static bool two_case(const unsigned char *b, size_t n)
{
	unsigned seen = 0;
	for (size_t i = 0; i < n; i++)
		seen |= txc_rd_tab.cls[b[i]];
	return (seen & C_UP) && (seen & C_LO);
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
	if ((rl->flags & F_MIX) && !mixed(b, n) && !two_case(b, n))
		return false;
	return !(rl->flags & F_MIX3) || mixed3(b, n);
}

/* a prefix token at i (a word start): its end, or 0 */
size_t txc_rd_try_prefix(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i;
	if (left < 2 || !(txc_rd_tab.second[p[0]][p[1] >> 3] & (1u << (p[1] & 7))))
		return 0;
	for (unsigned k = txc_rd_tab.first[*p]; k < txc_rd_tab.first[*p + 1]; k++) {
		const struct prefix_rule *rl = &txc_rd_rules[txc_rd_tab.by_first[k]];
		size_t pl = txc_rd_tab.plen[txc_rd_tab.by_first[k]];
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
		return txc_rd_put(s, (rl->flags & F_KEEP) ? i + pl : i, end, (enum kind)rl->kind);
	}
	return 0;
}

/* ---- shapes without a fixed prefix ---- */

/* header.payload[.signature], base64url, the header "eyJ" ({") */
size_t txc_rd_try_jwt(struct scan *s, size_t i)
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
	return txc_rd_put(s, i, i + end, K_JWT);
}

/* [bot]<8-10 digits>:<30+ of [A-Za-z0-9_-]> */
size_t txc_rd_try_telegram(struct scan *s, size_t i)
{
	const unsigned char *p = s->p + i;
	size_t left = s->len - i, o = starts(p, left, "bot") ? 3 : 0;
	size_t d = run(p + o, left - o, C_DIG);
	if (d < 8 || d > 10 || o + d >= left || p[o + d] != ':')
		return 0;
	size_t t = run(p + o + d + 1, left - o - d - 1, WORD);
	if (t < 30 || t > 60 || !mixed(p + o + d + 1, t))
		return 0;
	return txc_rd_put(s, i, i + o + d + 1 + t, K_TELEGRAM);
}

/* [MNO]<23-27>.<6-7>.<27-40>, base64url: a Discord bot token */
size_t txc_rd_try_discord(struct scan *s, size_t i)
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
	return txc_rd_put(s, i, i + a + b + 2 + c, K_DISCORD);
}

/* "Bearer <token>" anywhere: a token of 16+ characters with a letter and a digit */
size_t txc_rd_try_bearer(struct scan *s, size_t i)
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
	return txc_rd_put(s, i + 7, i + 7 + n, K_BEARER);
}

/* data:<type>;base64,<run>: an inline file, never a secret; its end */
size_t txc_rd_skip_data_url(struct scan *s, size_t i)
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
size_t txc_rd_try_pem(struct scan *s, size_t i)
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
				return txc_rd_put(s, i, q > a ? q : end, pgp ? K_PGP_KEY : K_PRIVATE_KEY);
		if (starts(p + a, len - a, "-----END "))
			return txc_rd_put(s, i, pem_end_line(p, a, len), pgp ? K_PGP_KEY : K_PRIVATE_KEY);
		if (a > end && !pem_body_line(p, a, b))
			break; /* prose: the body ended with the line before */
		if (b > a)
			end = b;
		j = b < len && p[b] == '\\' ? b + 2 : b + 1;
	}
	return txc_rd_put(s, i, end, pgp ? K_PGP_KEY : K_PRIVATE_KEY);
}

/* +<8-15 digits>, E.164, not inside a version or a number */
size_t txc_rd_try_phone(struct scan *s, size_t i)
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
	return txc_rd_put(s, i, i + 1 + d, K_PHONE);
}
