/*
 * test_redact.c - the redactor (redact.h): one real-format secret of every kind, in prose,
 * in tool arguments (JSON text in a string), in JSON results and in titles; look-alikes
 * that must stay; JSON kept JSON, UTF-8 kept UTF-8, signatures and images kept.
 * Every secret is fake and written in two pieces so that no secret scanner flags this file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "txc/model_hermes.h"
#include "txc/redact.h"

struct sample {
	const char *kind;   /* the marker's kind */
	const char *before; /* text around the secret: "%s" is the secret */
	const char *secret;
};

static const struct sample corpus[] = {
	{"anthropic-key", "key %s end",
	 "sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJ"
	 "k6lMn9oPq2rSt5uVw8xYz1aBc4dEf7gHi0jKl3mNo6pQr9sTuVw-AAAAAA"},
	{"openai-key", "OPENAI: %s",
	 "sk-proj-Xy7aBc3dEf9gHi2jK"
	 "l5mNo8pQr1sTu4vWx6yZa0bCd"},
	{"openai-key", "(%s)",
	 "sk-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8"
	 "Qr9St0Uv1Wx2Yz3Ab4Cd5Ef6"},
	{"openrouter-key", "%s",
	 "sk-or-v1-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d"
	 "6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b"},
	{"api-key", "groq %s",
	 "sk_Ab1Cd2Ef3Gh4Ij5Kl6"
	 "Mn7Op8Qr9St0"},
	{"github-token", "token %s_suffix",
	 "ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6"},
	{"github-token", "%s",
	 "github_pat_11ABCDEFG0abcdefghij"
	 "kl_mnopqrstuvwxyz0123456789ABCDEF"},
	{"gitlab-token", "%s",
	 "glpat-Zx8Yw7V"
	 "u6Ts5Rq4Po3Nm"},
	{"slack-token", "%s",
	 "xoxb-1234567890-12345678901"
	 "23-AbCdEfGhIjKlMnOpQrStUvWx"},
	{"slack-token", "%s",
	 "xoxc-9876543210-98765432109"
	 "87-QwErTyUiOpAsDfGhJkLz"},
	{"slack-webhook", "https://hooks.slack.com/services/%s",
	 "T024BE7LD/B024BE7LH/"
	 "Ab3dE6gH9jK2mN5pQ8sT1vW4"},
	{"google-api-key", "%s",
	 "AIzaSyA1b2C3d4E5f6G7h8I"
	 "9j0K1l2M3n4O5p6Q"},
	{"google-oauth-secret", "%s",
	 "GOCSPX-Ab3dE6gH9jK2mN5"
	 "pQ8sT1vW4yZ7b"},
	{"google-access-token", "%s",
	 "ya29.a0AfB_byC3dE6gH9jK2mN5"
	 "pQ8sT1vW4yZ7bC0eF3hJ6kL9"},
	{"google-refresh-token", "%s",
	 "1//0gAbCdEfGhIjKlMnOpQrSt"
	 "UvWxYz0123456789"},
	{"aws-access-key-id", "id=%s",
	 "AKIAIOSFODN"
	 "N7EXAMPLE"},
	{"aws-access-key-id", "%s",
	 "ASIAY34FZKB"
	 "OKMUTVV7A"},
	{"aws-secret-key", "aws_secret_access_key = %s",
	 "wJalrXUtnFEMI/K7MDENG/"
	 "bPxRfiCYEXAMPLEKEY"},
	{"aws-secret-key", "{\"AWS_SECRET_ACCESS_KEY\": \"%s\"}",
	 "wJalrXUtnFEMI/K7MDENG/"
	 "bPxRfiCYEXAMPLEKE2"},
	{"aws-session-token", "AWS_SESSION_TOKEN=%s",
	 "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD6m3kC9x7Qx5hQ"
	 "ZZZZZZZZZZabcd0123456789ABCDEFGHIJ+/abcdEFGH1234567890abcdefghijklmnopqrstuvwxyz=="},
	{"stripe-key", "%s",
	 "sk_live_51H8aBcDeFgHiJkL"
	 "mNoPqRsTuVwXyZ0123456789"},
	{"stripe-key", "%s",
	 "pk_test_51H8aBcDeFgHiJkL"
	 "mNoPqRsTuVwXyZ9876543210"},
	{"stripe-webhook-secret", "%s",
	 "whsec_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF"},
	{"twilio-key", "%s",
	 "SK0123456789abcdef"
	 "0123456789abcdef"},
	{"mailgun-key", "%s",
	 "key-3ax6xnjp29jd6fds4"
	 "gc373sgvjxteol0"},
	{"sendgrid-key", "%s",
	 "SG.aB3dE6gH9jK2mN5pQ8sT1v.wX4yZ7bC0eF3h"
	 "J6kL9mN2pQ5sT8vW1yZ4bC7eF0hJ3k"},
	{"shopify-token", "%s",
	 "shpat_0123456789abcdef"
	 "0123456789abcdef"},
	{"vault-token", "%s",
	 "hvs.CAESIJlU9xY3kL2mN5pQ8sT1v"
	 "W4yZ7bC0eF3hJ6kL9mN2pQ"},
	{"linear-key", "%s",
	 "lin_api_Ab3dE6gH9jK2mN5pQ8sT1v"
	 "W4yZ7bC0eF3hJ6kL9m"},
	{"atlassian-token", "%s",
	 "ATATT3xFfGF0Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9mN2pQ5sT8vW1y"
	 "Z4bC7eF0hJ3kL6mN9=AB12CD34"},
	{"discord-token", "%s",
	 "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab"},
	{"discord-webhook", "https://discord.com/api/webhooks/%s",
	 "1098765432109876543/AbCdEfGhIjKlMnOpQrSt"
	 "UvWxYz0123456789-_abcdefghij"},
	{"telegram-bot-token", "bot %s",
	 "123456789:AAHdqTcvCH1vGWJxf"
	 "SeofSAs0K5PALDsaw"},
	{"huggingface-token", "%s",
	 "hf_AbCdEfGhIjKlMnOpQrSt"
	 "UvWxYz0123456789"},
	{"replicate-token", "%s",
	 "r8_AbCdEfGhIjKlMnOpQrSt"
	 "UvWxYz0123456789"},
	{"npm-token", "%s",
	 "npm_AbCdEfGhIjKlMnOpQrSt"
	 "UvWxYz0123456789"},
	{"pypi-token", "%s",
	 "pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAw"
	 "MDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMAAC"},
	{"digitalocean-token", "%s",
	 "dop_v1_0123456789abcdef0123456789abcdef"
	 "0123456789abcdef0123456789abcdef"},
	{"perplexity-key", "%s",
	 "pplx-AbCdEfGhIjKlMnOp"
	 "QrStUvWxYz0123456789"},
	{"firecrawl-key", "%s",
	 "fc-0123456789abcdef"
	 "0123456789abcdef"},
	{"browserbase-key", "%s",
	 "bb_live_AbCdEfGhIj"
	 "KlMnOpQr0123456789"},
	{"tavily-key", "%s",
	 "tvly-AbCdEfGhIjKlMn"
	 "OpQrStUv01234567"},
	{"groq-key", "%s",
	 "gsk_AbCdEfGhIjKlMnOpQrSt"
	 "UvWxYz0123456789abcdefghij"},
	{"matrix-token", "%s",
	 "syt_dXNlcm5hbWU_AbCdEfGhIj"
	 "KlMnOpQrSt_0a1B2c"},
	{"xai-key", "%s",
	 "xai-AbCdEfGhIjKlMnOpQrStUvWxYz"
	 "0123456789AbCdEfGhIjKlMnOpQr"},
	{"notion-token", "%s",
	 "ntn_1234567890AbCdEfGhIj"
	 "KlMnOpQrStUvWxYz0123456789"},
	{"docker-token", "%s",
	 "dckr_pat_AbCdEfGhIj"
	 "KlMnOpQr0123456789"},
	{"fernet-token", "blob %s",
	 "gAAAAABnQ1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6"
	 "U7i8O9p0Q1w2E3r4T5y6U7i8O9p0Q1w2E3r4=="},
	{"azure-account-key",
	 "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=%s;EndpointSuffix=core.windows.net",
	 "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UV"
	 "ErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="},
	{"azure-sas", "Endpoint=sb://x.servicebus.windows.net/;SharedAccessSignature=%s;",
	 "SvR3dAcC3ss51gnAtur3"
	 "Valu3xyz"},
	{"url-password", "postgres://admin:%s@db.example.com:5432/app",
	 "s3cr3tP4"
	 "ssW0rd"},
	{"url-password", "https://user:%s@example.com/",
	 "hunt"
	 "er2"},
	{"url-token", "https://%s@github.com/o/r.git",
	 "x9Y8w7V6u5T4s3R2"
	 "q1P0o9N8"},
	{"query-token", "GET /cb?state=1&access_token=%s HTTP/1.1",
	 "Zx9Yw8Vu7Ts6"
	 "Rq5Po4Nm3Lk2"},
	{"query-token", "https://x.blob.core.windows.net/c?sv=2020&sig=%s",
	 "AbCdEf0123456789"
	 "%2Bxyz%3D"},
	{"cookie", "Cookie: theme=dark; session=%s",
	 "a3f8b2c9d4e5f6a7"
	 "b8c9d0e1f2a3b4c5"},
	{"cookie", "Set-Cookie: sid=%s; Path=/; HttpOnly",
	 "q1w2e3r4t5y6"
	 "u7i8o9p0"},
	{"bearer-token", "curl -H 'Authorization: Bearer %s' https://api",
	 "b3ArErT0kEn9"
	 "aBcDeFgHiJkLmN"},
	{"bearer-token", "then send Bearer %s to it",
	 "b3ArErT0kEn9aB"
	 "cDeFgHiJkL"},
	{"basic-auth", "Authorization: Basic %s",
	 "dXNlcjpwYXNz"
	 "d29yZA=="},
	{"authorization", "Authorization: %s",
	 "tok3nWithoutSch"
	 "eme99"},
	{"jwt", "id_token %s",
	 "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0Ijox"
	 "NTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},
	{"private-key", "key:\n%s\ndone",
	 "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234abcd\n-----END RSA "
	 "PRIVATE KEY-----"},
	{"private-key", "unterminated %s",
	 "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
	 "BG5vbmUAAAAEbm9uZQ"},
	{"pgp-private-key", "%s",
	 "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0abcdEFGH\n=ab12\n-----END PGP PRIVATE "
	 "KEY BLOCK-----"},
	{"password", "DB_PASSWORD=%s",
	 "hunter2-Sup"
	 "3r"},
	{"password", "I set password=%s yesterday",
	 "hunt"
	 "er2"},
	{"password", "{\"passwd\": \"%s\"}",
	 "Pa55w"
	 "0rd!x"},
	{"password", "db:\n  password: %s\n",
	 "yamlPa"
	 "ss9"},
	{"password", "mysql --password=%s db",
	 "cl1Pa"
	 "ss"},
	{"password", "conn = connect(password='%s')",
	 "c0dePa"
	 "ss"},
	{"client-secret", "{\"client_secret\": \"%s\"}",
	 "cS3cr3t-Value_On"
	 "ly-Here42"},
	{"client-secret", "clientSecret: \"%s\"",
	 "cS3cr3t-Va"
	 "lue2"},
	{"secret", "JWT_SECRET=%s",
	 "my-jwt-s3"
	 "cret"},
	{"secret-key", "DJANGO_SECRET_KEY='%s'",
	 "django-insecure-0a1b2c3d4e"
	 "5f6g7h8i9j"},
	{"api-key", "OPENAI_API_KEY=%s",
	 "Qm9pZ3VzS2V5Vm"
	 "FsdWUxMjM0NTY"},
	{"api-key", "x-api-key: %s",
	 "k3yV4lu"
	 "e9999"},
	{"private-key", "{\"private_key\": \"%s\"}",
	 "not-a-pem-but-"
	 "still-private"},
	{"credential", "GOOGLE_CREDENTIALS=%s",
	 "eyJ0eXBlIjoic2Vydmlj"
	 "ZV9hY2NvdW50In0"},
	{"token", "GITLAB_TOKEN=%s",
	 "abcDEF123ghiJKL"
	 "456"},
	{"token", "{\"refresh_token\": \"%s\"}",
	 "1a2b3c4d5e6f7a8b"
	 "9c0d"},
	{"auth", "{\"auth\": \"%s\"}",
	 "dXNlcjpwYXNzd29y"
	 "ZDEyMw=="},
	{"session", "session=%s",
	 "a3f8b2c9d4"
	 "e5f6a7b8"},
	{"phone", "call me at %s.",
	 "+1415555"
	 "2671"},
};
#define N_CORPUS (sizeof(corpus) / sizeof(corpus[0]))

/* text that must come out as it went in */
static const char *const lookalikes[] = {
	"commit da39a3ee5e6b4b0d3255bfef95601890afd80709 and 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
	"id 123e4567-e89b-12d3-a456-426614174000",
	"\"integrity\": \"sha512-pKvURIxJVi2CgRXROh/M6pJ/UrTVRZKX+LQ+QtqJI4vBNibkPcs43bCCSIkn7JBPtCBXRDmD6IWFF51QVRr+Yg==\"",
	"checksum = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"",
	"sk_live_mode_enabled_flag am_i_done_yet sk-learn-classifier-2024-version fc-0123456789ab",
	"getSecretAccessKeyFromEnvironmentVariableProvider and TXC_REDACT_MAX_KINDS_PER_SECRET_TOKENIZER",
	"MAX_TOKENS=4096 TOKEN_COUNT = 5 max_tokens: 8192",
	"version 1.2+20250615 and +1 and 1+14155552671",
	"print(f'API_KEY={key}')",
	"self.password = password",
	"password = get_password()",
	"    password: str\n    token: Optional[str] = None\n",
	"token: expired",
	"PWD=/home/me author=Jane secretary=Bob tokenizer=bpe",
	"password: ${DB_PASSWORD}\napi_key: \"{{ vault_key }}\"\nsecret=$SECRET\ntoken=os.getenv('TOKEN')",
	"git@github.com:org/repo.git ssh://git@host/x https://github.com/org/repo https://example.com/a?page=2&q=x",
	"already masked: sk-ant...ETAA *** [REDACTED:password …abcd]",
	"the password: is in the vault; Bearer token auth is used",
	"{\"token_type\": \"Bearer\", \"expires_in\": 3600, \"password_hash\": \"x\", \"secret_name\": \"prod/db\"}",
	"x == password and password != y",
	"AKIAIOSFODNN7EXAMPLEXX (too long) and a 40-char hex 0123456789abcdef0123456789abcdef01234567",
	"https://hooks.slack.com/ docs page",
	"prose about sk- prefixes and ghp_ tokens and eyJ headers",
};

static struct txc_str redact(struct txc_redactor *r, struct txc_arena *a, const char *s)
{
	return txc_redact_str(r, a, (struct txc_str){s, strlen(s)});
}

static char *fill(const struct sample *c)
{
	const char *at = strstr(c->before, "%s");
	assert_non_null(at);
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_add(&b, c->before, (size_t)(at - c->before));
	txc_buf_addstr(&b, c->secret);
	txc_buf_addstr(&b, at + 2);
	return txc_buf_detach(&b, NULL);
}

static void expect_redacted(const char *in, const char *secret, const char *kind, const char *where)
{
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_arena *a = txc_arena_new(0);
	struct txc_str out = redact(r, a, in);
	char want[96];
	snprintf(want, sizeof(want), "[REDACTED:%s \xE2\x80\xA6", kind);
	if (strstr(out.ptr, secret) != NULL || strstr(out.ptr, want) == NULL)
		fail_msg("%s: %s\n  in:  %s\n  out: %s", where, kind, in, out.ptr);
	assert_true(txc_utf8_valid(out.ptr, out.len));
	txc_arena_free(a);
	txc_redactor_free(r);
}

/* every kind, in prose */
static void test_kinds_in_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_CORPUS; i++) {
		char *in = fill(&corpus[i]);
		expect_redacted(in, corpus[i].secret, corpus[i].kind, "text");
		free(in);
	}
}

/* every kind name is exercised by the corpus */
static void test_every_kind_covered(void **state)
{
	(void)state;
	size_t n;
	const char *const *names = txc_redact_kind_names(&n);
	assert_true(n >= 60);
	for (size_t k = 0; k < n; k++) {
		bool seen = false;
		for (size_t i = 0; i < N_CORPUS && !seen; i++)
			seen = strcmp(corpus[i].kind, names[k]) == 0;
		if (!seen)
			fail_msg("kind %s has no sample", names[k]);
	}
}

/* the JSON text of a tool call's arguments, as Hermes stores it: {"command": "<text>"} */
static void test_kinds_in_tool_arguments(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	for (size_t i = 0; i < N_CORPUS; i++) {
		char *text = fill(&corpus[i]);
		struct txc_buf args = TXC_BUF_INIT;
		txc_buf_addstr(&args, "{\"command\": ");
		txc_json_emit_str(&args, text, strlen(text));
		txc_buf_addstr(&args, ", \"timeout\": 30.50, \"n\": 12345678901234567890}");
		struct txc_redactor *r = txc_redactor_new(false);
		struct txc_str out = txc_redact_str(r, a, (struct txc_str){args.buf, args.len});
		const struct txc_json *v;
		if (txc_json_parse(a, out.ptr, out.len, &v) != 0)
			fail_msg("%s: not JSON after redaction: %s", corpus[i].kind, out.ptr);
		const char *cmd = txc_json_cstr(txc_json_get(v, "command"));
		assert_non_null(cmd);
		if (strstr(cmd, corpus[i].secret) != NULL || strstr(cmd, "[REDACTED:") == NULL)
			fail_msg("%s in arguments: %s", corpus[i].kind, out.ptr);
		/* the numbers keep their text: only the string was re-encoded */
		assert_non_null(strstr(out.ptr, ", \"timeout\": 30.50, \"n\": 12345678901234567890}"));
		txc_redactor_free(r);
		txc_buf_release(&args);
		free(text);
	}
	txc_arena_free(a);
}

/* a JSON result tree and a title */
static void test_kinds_in_json_and_titles(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_CORPUS; i++) {
		struct txc_arena *a = txc_arena_new(0);
		char *text = fill(&corpus[i]);
		struct txc_json *o = txc_json_object(a, 3);
		txc_json_put(o, txc_str_c("output"), txc_json_string(a, text, strlen(text)));
		txc_json_put(o, txc_str_c("exit_code"), txc_json_int(a, 0));
		struct txc_json *arr = txc_json_array(a, 1);
		txc_json_push(arr, txc_json_string(a, text, strlen(text)));
		txc_json_put(o, txc_str_c("lines"), arr);
		struct txc_redactor *r = txc_redactor_new(false);
		const struct txc_json *out = txc_redact_json(r, a, o);
		assert_ptr_not_equal(out, o); /* copied on change, the original left as it was */
		assert_string_equal(o->items[0]->s.ptr, text);
		struct txc_buf b = TXC_BUF_INIT;
		txc_json_emit(&b, out, TXC_JSON_PY);
		if (strstr(b.buf, corpus[i].secret) != NULL)
			fail_msg("%s in a JSON result: %s", corpus[i].kind, b.buf);
		assert_int_equal(out->n, 3);
		assert_string_equal(out->keys[1].ptr, "exit_code");
		assert_ptr_equal(out->items[1], o->items[1]);

		struct txc_transcript *t = txc_transcript_new();
		t->meta.title = txc_arena_str(t->arena, text, strlen(text));
		txc_redact_transcript(r, t);
		if (strstr(t->meta.title.ptr, corpus[i].secret) != NULL)
			fail_msg("%s in a title: %s", corpus[i].kind, t->meta.title.ptr);
		txc_transcript_free(t);
		txc_buf_release(&b);
		txc_redactor_free(r);
		free(text);
		txc_arena_free(a);
	}
}

static void test_lookalikes_stay(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	for (size_t i = 0; i < sizeof(lookalikes) / sizeof(lookalikes[0]); i++) {
		struct txc_redactor *r = txc_redactor_new(false);
		struct txc_str out = redact(r, a, lookalikes[i]);
		if (strcmp(out.ptr, lookalikes[i]) != 0)
			fail_msg("changed a look-alike:\n  in:  %s\n  out: %s", lookalikes[i], out.ptr);
		assert_int_equal(txc_redact_count(r), 0);
		txc_redactor_free(r);
	}
	txc_arena_free(a);
}

/* same secret, same marker; the hint is SHA-256's, not the secret's characters */
static void test_marker(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	struct txc_redactor *r = txc_redactor_new(false);
	const char *pw = "hunt"
			 "er2";
	char in[128];
	snprintf(in, sizeof(in), "A_PASSWORD=%s and B_PASSWORD=%s", pw, pw);
	struct txc_str out = redact(r, a, in);
	/* sha256("hunter2") = f52fbd32... */
	assert_string_equal(out.ptr, "A_PASSWORD=[REDACTED:password \xE2\x80\xA6"
				     "f52f] and B_PASSWORD=[REDACTED:password \xE2\x80\xA6"
				     "f52f]");
	assert_int_equal(txc_redact_count(r), 2);
	/* a marker is not redacted again */
	struct txc_str again = txc_redact_str(r, a, out);
	assert_ptr_equal(again.ptr, out.ptr);
	struct txc_buf k = TXC_BUF_INIT;
	txc_redact_kinds(r, &k);
	assert_string_equal(k.buf, "password");
	txc_buf_release(&k);
	txc_redactor_free(r);
	txc_arena_free(a);
}

/* JSON text: keys, numbers, spacing, escapes and duplicate keys all stay; signatures and images too */
static void test_json_text_kept(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	struct txc_redactor *r = txc_redactor_new(false);
	const char *in =
		"{ \"password\" :\"hunt"
		"er2\",\"n\":1.50e3 , \"ok\":true,\"u\":\"caf\\u00e9 \\ud83d\\ude00\","
		"\"signature\":\"sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1w\","
		"\"encrypted_content\":\"gAAAAABnQ1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6U7i8O9p0Q1w2\","
		"\"data\":\"AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q\","
		"\"password\":\"y\", \"nested\": \"{\\\"token\\\": \\\"abcDEF123ghiJKL456\\\"}\"}";
	struct txc_str out = redact(r, a, in);
	assert_string_equal(
		out.ptr,
		"{ \"password\" :\"[REDACTED:password \xE2\x80\xA6"
		"f52f]\",\"n\":1.50e3 , \"ok\":true,\"u\":\"caf\\u00e9 \\ud83d\\ude00\","
		"\"signature\":\"sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1w\","
		"\"encrypted_content\":\"gAAAAABnQ1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6U7i8O9p0Q1w2\","
		"\"data\":\"AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q\","
		"\"password\":\"[REDACTED:password \xE2\x80\xA6"
		"a1fc]\", \"nested\": \"{\\\"token\\\": \\\"[REDACTED:token \xE2\x80\xA6"
		"03c6]\\\"}\"}");
	const struct txc_json *v;
	assert_int_equal(txc_json_parse(a, out.ptr, out.len, &v), 0);
	/* JSON inside prose is scanned as text: a key block never runs over a closing quote */
	const char *prose = "log: {\"a\": \"-----BEGIN RSA PRIVATE KEY-----\\nMIIEow\", \"b\": 7, "
			    "\"c\": \"-----END RSA PRIVATE KEY-----\"}";
	struct txc_str po = redact(r, a, prose);
	assert_non_null(strstr(po.ptr, "\", \"b\": 7, \"c\": \""));
	assert_null(strstr(po.ptr, "MIIEow"));
	txc_redactor_free(r);
	txc_arena_free(a);
}

/* the model: everything shown is redacted; images, signatures, encrypted reasoning and ids stay */
static void test_transcript(void **state)
{
	(void)state;
	const char *key = "sk-ant-api03-Ab3dEf6hIj9kLm2n"
			  "Op5qRs8tUv1wXy4zAb7c";
	struct txc_transcript *t = txc_transcript_new();
	struct txc_arena *a = t->arena;
	t->meta.title = txc_str_c(key);
	t->meta.id = txc_str_c(key);
	t->messages = txc_arena_array(a, 1, sizeof(*t->messages));
	t->n_messages = 1;
	struct txc_message *m = &t->messages[0];
	m->blocks = txc_arena_array(a, 5, sizeof(*m->blocks));
	m->n_blocks = 5;
	m->blocks[0] = (struct txc_block){.kind = TXC_BLOCK_THINKING,
					  .text = txc_str_c(key),
					  .signature = txc_str_c(key),
					  .encrypted = txc_str_c(key)};
	m->blocks[1] = (struct txc_block){.kind = TXC_BLOCK_TEXT, .text = txc_str_c(key)};
	struct txc_json *in = txc_json_object(a, 1);
	txc_json_put(in, txc_str_c("command"), txc_json_string(a, key, strlen(key)));
	m->blocks[2] = (struct txc_block){.kind = TXC_BLOCK_TOOL_USE, .id = txc_str_c(key), .input = in};
	struct txc_buf ot = TXC_BUF_INIT;
	txc_buf_addf(&ot, "{\"out\": \"%s\"}", key);
	m->blocks[3] = (struct txc_block){
		.kind = TXC_BLOCK_TOOL_RESULT, .output_text = txc_arena_str(a, ot.buf, ot.len), .output_json = true};
	m->blocks[4] = (struct txc_block){.kind = TXC_BLOCK_IMAGE, .data = txc_str_c(key)};
	struct txc_hermes_native *nat = txc_hermes_native(t);
	struct txc_json *session = txc_json_object(a, 1);
	txc_json_put(session, txc_str_c("system_prompt"), txc_json_string(a, key, strlen(key)));
	nat->session = session;

	/* scan only: counted, nothing changed */
	struct txc_redactor *scan = txc_redactor_new(true);
	txc_redact_transcript(scan, t);
	assert_int_equal(txc_redact_count(scan), 6);
	assert_string_equal(t->meta.title.ptr, key);
	assert_string_equal(m->blocks[1].text.ptr, key);
	txc_redactor_free(scan);

	struct txc_redactor *r = txc_redactor_new(false);
	txc_redact_transcript(r, t);
	assert_int_equal(txc_redact_count(r), 6);
	assert_null(strstr(t->meta.title.ptr, key));
	assert_null(strstr(m->blocks[0].text.ptr, key));
	assert_null(strstr(m->blocks[1].text.ptr, key));
	assert_null(strstr(txc_json_cstr(txc_json_get(m->blocks[2].input, "command")), key));
	assert_null(strstr(m->blocks[3].output_text.ptr, key));
	assert_null(strstr(txc_json_cstr(txc_json_get(nat->session, "system_prompt")), key));
	assert_string_equal(m->blocks[0].signature.ptr, key);
	assert_string_equal(m->blocks[0].encrypted.ptr, key);
	assert_string_equal(m->blocks[2].id.ptr, key);
	assert_string_equal(m->blocks[4].data.ptr, key);
	assert_string_equal(t->meta.id.ptr, key);
	txc_redactor_free(r);
	txc_buf_release(&ot);
	txc_transcript_free(t);
}

/* base64 images: a long run is stepped over, even with token-like text inside it */
static void test_base64_kept(void **state)
{
	(void)state;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "data:image/png;base64,");
	for (int i = 0; i < 40; i++)
		txc_buf_addstr(&b, "iVBORw0KGgo+AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q/eyJhbGciOiJIUzI1NiJ9");
	txc_buf_addstr(&b, "== and raw iVBOR");
	for (int i = 0; i < 40; i++)
		txc_buf_addstr(&b, "AKIAIOSFODNN7EXAMPLE/ghp0aB3dE6gH9jK2mN5p+");
	struct txc_arena *a = txc_arena_new(0);
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_str out = txc_redact_str(r, a, (struct txc_str){b.buf, b.len});
	assert_ptr_equal(out.ptr, b.buf);
	txc_redactor_free(r);
	txc_arena_free(a);
	txc_buf_release(&b);
}

/* UTF-8 around and inside values stays valid; invalid input does not crash */
static void test_utf8(void **state)
{
	(void)state;
	struct txc_arena *a = txc_arena_new(0);
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_str out = redact(r, a, "mot de passe — password=pâté😀x ünï");
	assert_true(txc_utf8_valid(out.ptr, out.len));
	assert_null(strstr(out.ptr, "pâté"));
	assert_non_null(strstr(out.ptr, " ünï"));
	struct txc_str bad = redact(r, a, "password=\xff\xfe token=\xc3");
	assert_non_null(bad.ptr);
	txc_redactor_free(r);
	txc_arena_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_in_text),
		cmocka_unit_test(test_every_kind_covered),
		cmocka_unit_test(test_kinds_in_tool_arguments),
		cmocka_unit_test(test_kinds_in_json_and_titles),
		cmocka_unit_test(test_lookalikes_stay),
		cmocka_unit_test(test_marker),
		cmocka_unit_test(test_json_text_kept),
		cmocka_unit_test(test_transcript),
		cmocka_unit_test(test_base64_kept),
		cmocka_unit_test(test_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
