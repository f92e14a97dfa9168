/* kinds.c - what a secret was: the marker's words, the marker, the redactor and its counts */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

const char *const txc_rd_kind_names[N_KINDS] = {
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

/* ---- the marker ---- */

void txc_rd_count(struct txc_redactor *r, enum kind k)
{
	if (r->count[k]++ == 0)
		r->order[r->n_order++] = (unsigned char)k;
	r->total++;
}

/* "[REDACTED:<kind> …<first 4 hex digits of SHA-256(secret)>]" */
void txc_rd_marker(struct txc_buf *out, enum kind k, const void *secret, size_t n)
{
	unsigned char h[32];
	char hex[65];
	txc_sha256(secret, n, h);
	txc_hex(hex, h, 2);
	txc_buf_addstr(out, "[REDACTED:");
	txc_buf_addstr(out, txc_rd_kind_names[k]);
	txc_buf_addstr(out, " \xE2\x80\xA6"); /* U+2026 */
	txc_buf_add(out, hex, 4);
	txc_buf_addch(out, ']');
}

/* replace p[a, b) (a >= s->copied) with its marker; returns b */
size_t txc_rd_put(struct scan *s, size_t a, size_t b, enum kind k)
{
	txc_buf_add(s->out, s->p + s->copied, a - s->copied);
	txc_rd_marker(s->out, k, s->p + a, b - a);
	s->copied = b;
	s->found++;
	txc_rd_count(s->r, k);
	return b;
}

/* "[REDACTED:<kind> …hhhh]" at i: txc's own marker, never a secret; its end, else 0 */
size_t txc_rd_own_marker(const unsigned char *p, size_t i, size_t len)
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

struct txc_redactor *txc_redactor_new(bool scan_only)
{
	struct txc_redactor *r = txc_xcalloc(1, sizeof(*r));
	r->scan_only = scan_only;
	r->kcache = txc_xcalloc(KCACHE, sizeof(*r->kcache));
	txc_rd_init();
	return r;
}

void txc_redactor_set_prefilter(struct txc_redactor *r, bool on)
{
	r->no_prefilter = !on;
}

void txc_redactor_free(struct txc_redactor *r)
{
	if (r == NULL)
		return;
	free(r->kcache);
	free(r);
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
		txc_buf_addstr(out, txc_rd_kind_names[r->order[i]]);
	}
}

const char *const *txc_redact_kind_names(size_t *n)
{
	*n = N_KINDS;
	return txc_rd_kind_names;
}
