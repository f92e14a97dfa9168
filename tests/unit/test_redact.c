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

/*
 * Each rule's accept and reject edges, byte for byte.  want: the input with each
 * "[[kind|secret]]" written as the marker of secret; NULL: the input comes back
 * unchanged (the same string) and nothing is counted.
 */
struct exact {
	const char *in, *want;
};

static const struct exact exact[] = {
	/* prefix shapes: a body with a letter and a digit (F_MIX), upper, lower and digit (sk-) */
	{"glpat-"
	 "12345678901234567890",
	 NULL},
	{"ghp_"
	 "abcdefghijklmnopqrstuvwxyz",
	 NULL},
	{"sk-"
	 "abcdefghijklmnopqrstuvwx",
	 NULL},
	{"sk-"
	 "abcdefghij0123456789abcd",
	 NULL},
	{"sk-"
	 "ABCDEFGHIJ0123456789ABCD",
	 NULL},
	/* hex bodies: Twilio's is lower-case hex of exactly 32, Shopify's any hex */
	{"SK"
	 "0123456789ABCDEF0123456789ABCDEF",
	 NULL},
	{"SK"
	 "0123456789abcdef0123456789abcdeg",
	 NULL},
	{"SK"
	 "0123456789abcdef0123456789abcdef0",
	 NULL},
	{"shpat_"
	 "0123456789ABCDEF0123456789ABCDEF",
	 "[[shopify-token|shpat_"
	 "0123456789ABCDEF0123456789ABCDEF]]"},
	{"shpat_"
	 "0123456789abcdef0123456789abcdez",
	 NULL},
	{"shpat_"
	 "0123456789abcdef0123456789abcdeZ",
	 NULL},
	/* a one-byte value after a strong key (its shape is looked for, there is none) */
	{"password=s", "password=[[password|s]]"},

	/* JWT: not after '.' or base64; a payload of 4+; two or three parts */
	{"a.eyJhbGciOiJIUzI1NiJ9."
	 "eyJzdWIiOiIxIn0",
	 NULL},
	{"eyJhbGciOiJIUzI1NiJ9.abc", NULL},
	{"id eyJhbGciOiJIUzI1NiJ9."
	 "eyJzdWIiOiIxIn0",
	 "id [[jwt|eyJhbGciOiJIUzI1NiJ9."
	 "eyJzdWIiOiIxIn0]]"},
	{"eyJhbGciOiJIUzI1NiJ9."
	 "eyJzdWIiOiIxIn0 and more",
	 "[[jwt|eyJhbGciOiJIUzI1NiJ9."
	 "eyJzdWIiOiIxIn0]] and more"},

	/* Telegram: 8-10 digits, a mixed secret of 30-60, "bot" kept in the span */
	{"bot123456789:AAHdqTcvCH1v"
	 "GWJxfSeofSAs0K5PALDsaw end",
	 "[[telegram-bot-token|bot123456789:AAHdqTcvCH1v"
	 "GWJxfSeofSAs0K5PALDsaw]] end"},
	{"123456789:AAHdqTcvCH1v"
	 "GWJxfSeofSAs0K5PA",
	 NULL},
	{"123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
	 "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDs",
	 NULL},
	{"123456789:AAHdqTcvCHvGWJxfSeofSAsK"
	 "PALDsawxyz",
	 NULL},
	{"12345678901:AAHdqTcvCH1v"
	 "GWJxfSeofSAs0K5PALDsaw",
	 NULL},

	/* Discord: [MNO]<24-28>.<6-7>.<27-40>, the first part mixed */
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw", NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw GhIjKl", NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0MwAAA.GhIjKl."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
	 NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU.GhIjKl."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
	 NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjK."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
	 NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKlMn."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
	 NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl", NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl x", NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz",
	 NULL},
	{"MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg",
	 NULL},
	{"MABCDEFGHIJKLMNOPQRSTUVWXY.GhIjKl."
	 "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
	 NULL},

	/* a bare Bearer: 16+ with a letter and a digit, its '=' padding included */
	{"Bearer dXNlcjpwYXNzd29y"
	 "ZDEyMzQ1Ng==",
	 "Bearer [[bearer-token|dXNlcjpwYXNzd29y"
	 "ZDEyMzQ1Ng==]]"},
	{"Bearer abcdefghijklmnopqrst", NULL},

	/* data: URLs: a base64 payload is stepped over, any other is text */
	{"data:image/png;base64,AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q",
	 NULL},
	{"data:text/plain;charset=utf-8,AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q",
	 "data:text/plain;charset=utf-8,[[google-api-key|AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q]]"},
	{"data:b,AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q",
	 "data:b,[[google-api-key|AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q]]"},
	{"see \"data:image/png\" or data:", NULL},
	{"see data:image/png base64", NULL},
	{"data:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	 "aaaaaaaaaa;base64,AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q",
	 "data:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	 "aaaaaaaaaa;base64,[[google-api-key|AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q]]"},

	/* PEM: only PRIVATE KEY labels; to the END line, a quote, or the end */
	{"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", NULL},
	{"-----BEGIN PRIVATE KEY", NULL},
	{"-----BEGIN rsa private key-----\nMIIB", NULL},
	{"-----BEGIN X-----\nMIIB", NULL},
	{"-----BEGIN AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA PRIVATE KEY-----",
	 NULL},
	{"k='-----BEGIN PRIVATE KEY-----\nMIIabc' x", "k='[[private-key|-----BEGIN PRIVATE KEY-----\nMIIabc]]' x"},
	{"<pre>-----BEGIN PRIVATE KEY-----\nMIIabc</pre>",
	 "<pre>[[private-key|-----BEGIN PRIVATE KEY-----\nMIIabc]]</pre>"},
	{"`-----BEGIN PRIVATE KEY-----\nMIIabc`", "`[[private-key|-----BEGIN PRIVATE KEY-----\nMIIabc]]`"},
	{"-----BEGIN EC PRIVATE KEY-----\nab-cd\n-----END EC PRIVATE KEY-----\nafter",
	 "[[private-key|-----BEGIN EC PRIVATE KEY-----\nab-cd\n-----END EC PRIVATE KEY-----]]\nafter"},
	{"-----BEGIN PRIVATE KEY-----\nMIIabc\n-----END PRIVATE KEY",
	 "[[private-key|-----BEGIN PRIVATE KEY-----\nMIIabc\n-----END PRIVATE KEY]]"},
	{"-----BEGIN PRIVATE KEY-----\nMIIabc\n-----END PRIVATE KEY\nmore",
	 "[[private-key|-----BEGIN PRIVATE KEY-----\nMIIabc\n-----END PRIVATE KEY]]\nmore"},

	/* phone: + and 8-15 digits, not 0 first, not inside a word or a decimal */
	{"+0123456789", NULL},
	{"+1234567", NULL},
	{"+1234567890123456", NULL},
	{"+14155552671x", NULL},
	{"+14155552671.5", NULL},
	{"tel:+14155552671", "tel:[[phone|+14155552671]]"},
	{"(+14155552671)", "([[phone|+14155552671]])"},
	{"+14155552671 now", "[[phone|+14155552671]] now"},

	/* keys split into words: at _ - . space / and camelCase, of any length */
	{"{\"api key\": \"k3yV4lue9999\"}", "{\"api key\": \"[[api-key|k3yV4lue9999]]\"}"},
	{"{\"db/password\": \"x1\"}", "{\"db/password\": \"[[password|x1]]\"}"},
	{"API__KEY=abc", "API__KEY=[[api-key|abc]]"},
	{"supercalifragilisticexpialidocious_token=abcDEF123ghiJKL456",
	 "supercalifragilisticexpialidocious_token=[[token|abcDEF123ghiJKL456]]"},
	{"$password = 'hunter2'", "$password = '[[password|hunter2]]'"},
	{"@secret: s3cr3tv4lue", "@secret: [[secret|s3cr3tv4lue]]"},
	{"$=abc", NULL},
	{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_"
	 "password=hunter2",
	 NULL},
	{"{\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_"
	 "password\": \"hunter2\"}",
	 NULL},
	/* the word that decides: the last, or the one before value/b64/...; a meta word says "about" */
	{"secret_name_value=abc", NULL},
	{"API_KEY_VALUE=abc", "API_KEY_VALUE=[[api-key|abc]]"},
	{"PASSWORD_B64=abc", "PASSWORD_B64=[[password|abc]]"},
	{"PASSPHRASE=abc", "PASSPHRASE=[[password|abc]]"},
	{"DB_PASS=abc", "DB_PASS=[[password|abc]]"},
	{"MYSQL_PWD=abc", "MYSQL_PWD=[[password|abc]]"},
	{"PASS=abc", NULL},
	{"SECRETS=abc", "SECRETS=[[secret|abc]]"},
	{"clientsecret=abc", "clientsecret=[[client-secret|abc]]"},
	{"{\"apikey\": \"abc\"}", "{\"apikey\": \"[[api-key|abc]]\"}"},
	{"X_KEY=abc", "X_KEY=[[api-key|abc]]"},
	{"privatekey=abc", "privatekey=[[private-key|abc]]"},
	{"accesskey=abc", "accesskey=[[secret-key|abc]]"},
	{"secretkey=abc", "secretkey=[[secret-key|abc]]"},
	{"accountkey=abc", "accountkey=[[azure-account-key|abc]]"},
	{"SHARED_KEY=abc", "SHARED_KEY=[[azure-account-key|abc]]"},
	{"ACCESS_KEY=abc", "ACCESS_KEY=[[secret-key|abc]]"},
	{"MY_ACCESS_KEY=abc", "MY_ACCESS_KEY=[[secret-key|abc]]"},
	{"AWS_API_KEY=abc", "AWS_API_KEY=[[api-key|abc]]"},
	{"MY_CLIENTSECRET=abc", "MY_CLIENTSECRET=[[client-secret|abc]]"},
	{"DB_CREDENTIAL=abc", "DB_CREDENTIAL=[[credential|abc]]"},
	{"Endpoint=sb://x/;SharedAccessKeyName=root;SharedAccessKey=abc1;",
	 "Endpoint=sb://x/;SharedAccessKeyName=root;SharedAccessKey=[[azure-account-key|abc1]];"},
	{"MY_APP_PROD_EU_WEST_1_DB_MAIN_PASSWORD=hunter2",
	 "MY_APP_PROD_EU_WEST_1_DB_MAIN_PASSWORD=[[password|hunter2]]"},
	{"A_B_C_D_E_F_G_H_PASSWORD_HASH=abc", NULL},
	{"AWS_SECRET_KEY=abc", "AWS_SECRET_KEY=[[aws-secret-key|abc]]"},
	{"AWS_SECRET=abc", "AWS_SECRET=[[aws-secret-key|abc]]"},
	{"AWS_ACCESS_KEY=abcdef", NULL},
	{"CREDENTIALS=abc", "CREDENTIALS=[[credential|abc]]"},
	{"DB_CREDS=abc", "DB_CREDS=[[credential|abc]]"},
	{"SIGNATURE=abc123def456", NULL},
	{"REQUEST_SIGNATURE=abc123def456", NULL},
	{"AWS_SECURITY_TOKEN=abcDEF123ghiJKL456", "AWS_SECURITY_TOKEN=[[token|abcDEF123ghiJKL456]]"},
	{"JWT=abcDEF123ghiJKL456", "JWT=[[jwt|abcDEF123ghiJKL456]]"},
	{"BEARER=abcDEF123ghiJKL456", "BEARER=[[bearer-token|abcDEF123ghiJKL456]]"},
	{"BASIC_AUTH=abcDEF123ghiJKL456", "BASIC_AUTH=[[auth|abcDEF123ghiJKL456]]"}, /* Hermes catches it */
	{"SID=abcDEF123ghiJKL456", "SID=[[session|abcDEF123ghiJKL456]]"},
	{"sessionid=abcDEF123ghiJKL456", "sessionid=[[session|abcDEF123ghiJKL456]]"},
	{"USER_SESSION=abcDEF123ghiJKL456", NULL},

	/* kept keys are whole words: "encrypted" is, "sign" is not */
	{"{\"encrypted\": \"AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q\"}",
	 NULL},
	{"{\"sign\": \"AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q\"}",
	 "{\"sign\": \"[[google-api-key|AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q]]\"}"},
	/* a key holding a NUL is no kept key (keep_key read past "encrypted" for it: ASan, fuzz_redact) */
	{"{\"encrypted\\u0000x\": \"AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q\"}",
	 "{\"encrypted\\u0000x\": \"[[google-api-key|AIzaSyA1b2C3d4E5f6G"
	 "7h8I9j0K1l2M3n4O5p6Q]]\"}"},

	/* placeholders: empty, masks, dotted code, the key's own name */
	{"{\"password\": \"\", \"n\": 1}", NULL},
	{"password=xx**xx", NULL},
	{"PASSWORD=XXXX-XXXX", NULL},
	{"password=cfg.db.pass", NULL},
	{"PASSWORD=password", NULL},
	{"password=passw0rd", "password=[[password|passw0rd]]"},
	/* weak keys: digits only from 16, not one lower-case word */
	{"TOKEN=1234567890123456", "TOKEN=[[token|1234567890123456]]"},
	{"TOKEN=123456789012345", NULL},
	{"SESSION=abcdefghijkl", NULL},

	/* the key before the separator: blanks, quotes, a YAML list, the line's start */
	{"password\t= 'x1'", "password\t= '[[password|x1]]'"},
	{"password    = 'x1'", "password    = '[[password|x1]]'"},
	{"PASSWORD=    'x1'", "PASSWORD=    '[[password|x1]]'"},
	{"a-'password': 'x1'", "a-'password': '[[password|x1]]'"},
	{"\":x", NULL},
	{"'password': 'x1'", "'password': '[[password|x1]]'"},
	{"=abc", NULL},
	{"password\": \"x1\"", NULL},
	{"'password\": \"x1\"", NULL},
	{"- password: hunter2x", "- password: [[password|hunter2x]]"},
	{"config:\n- password: hunter2x\n", "config:\n- password: [[password|hunter2x]]\n"},
	{"\t- password: hunter2x", "\t- password: [[password|hunter2x]]"},
	{"x\t-\tpassword: hunter2x", NULL},
	{"a\rpassword: hunter2x", "a\rpassword: [[password|hunter2x]]"},
	{"prose - password: hunter2x", NULL},
	{"password: hunter2x  # prod\n", "password: [[password|hunter2x]]  # prod\n"},
	{"password: hunter2x\t\r\n", "password: [[password|hunter2x]]\t\r\n"},
	{"password: hunter2x and more", NULL},
	{"PASSWORD=", NULL},
	{"PASSWORD=\t\t", NULL},

	/* the value: \"x\" in JSON text held in prose, quotes, escapes */
	{"log {\\\"password\\\": \\\"hunter2\\\"}", "log {\\\"password\\\": \\\"[[password|hunter2]]\\\"}"},
	{"log {\\\"password\\\": \\\"hunter2", NULL},
	{"log {\\\"password\\\": \\\"hun\nter2\\\"}", NULL},
	/* read as the string holding it reads it: a bare quote ends that string (code, not a value),
	 * an escaped quote inside the value is not ours to guess, escaped backslashes are the value's */
	{"s = \"{\\\"token\\\": \\\"\" + token + \"\\\"}\"", NULL},
	{"log(\"\\\"password\\\": \\\"\" + pw + \"\\\"\")", NULL},
	{"x = '{\\\"token\\\": \\\"' + tok + '\\\"}'", NULL},
	{"curl -d '{\\\"password\\\": \\\"'$PW'\\\"}'", NULL},
	{"s = \"{\\\"password\\\": \" + JSON.stringify(pw) + \"}\"", NULL},
	{"s = '{\\\"token\\\":' + tokenValue + '}'", NULL},
	{"{\\\"secret\\\": \\\"abc\\\\\\\"def\\\"}", NULL},
	{"{\\\"password\\\": \\\"a\\\\\\\\\\\"}", "{\\\"password\\\": \\\"[[password|a\\\\\\\\]]\\\"}"},
	{"{\\\"password\\\": \\\"hunter2\\\\nx\\\"}", "{\\\"password\\\": \\\"[[password|hunter2\\\\nx]]\\\"}"},
	{"{\\\"password\\\": \\\"\\\"}", NULL},
	{"password=`hunter2`", "password=`[[password|hunter2]]`"},
	{"password='abc\ndef'", NULL},
	{"password='a\\b1'", "password='[[password|a\\b1]]'"},
	{"password=\"a\\\"b1\"", NULL},
	{"password=\"a\\nb1\"", "password=\"[[password|a\\nb1]]\""},
	{"password=\"abc", NULL},
	{"password=\"a\\", NULL},
	{"password=\\", NULL},
	{"password=\\x1", NULL},
	{"password=~abc", NULL},

	/* Authorization and Cookie headers */
	{"Authorization: Token abc123def456", "Authorization: Token [[authorization|abc123def456]]"},
	{"\"Authorization: Bearer \"", NULL},
	{"authorization=Bearer b3ArErT0kEn9a"
	 "BcDeFgHiJkLmN",
	 "authorization=Bearer [[bearer-token|b3ArErT0kEn9a"
	 "BcDeFgHiJkLmN]]"},
	{"authorization=\"abcDEF123ghiJKL456\"", "authorization=\"[[authorization|abcDEF123ghiJKL456]]\""},
	{"Authorization:abcDEF123ghiJKL456", "Authorization:[[authorization|abcDEF123ghiJKL456]]"},
	{"Cookie:a=1", "Cookie:a=[[cookie|1]]"},
	{"set-cookie: sid=q1w2e3r4; theme=dark", "set-cookie: sid=[[cookie|q1w2e3r4]]; theme=dark"},
	{"Cookie: a=1;", "Cookie: a=[[cookie|1]];"},
	{"Cookie: a=1; ", "Cookie: a=[[cookie|1]]; "},
	{"Cookie: a=; b=2", "Cookie: a=; b=[[cookie|2]]"},
	{"Cookie: =x", NULL},
	{"Cookie: abc", NULL},
	{"Cookie: abc def=1", NULL},
	{"Cookie:", NULL},
	{"Authorization:", NULL},

	/* operators and := */
	{"password+=abc1", NULL},
	{"password<=abc1", NULL},
	{"password := \"hunter2\"", "password := \"[[password|hunter2]]\""},

	/* scheme://user:password@ and scheme://token@ */
	{"://user:pw1@h", NULL},
	{"a ://user:pw1@h", NULL},
	{"https://user:@host", NULL},
	{"https://user:${PASS}@host", NULL},
	{"https://user:password@host", NULL},
	{"https://abcdefghijklmnopqr@github.com", NULL},
	{"redis://:pw1@h", "redis://:[[url-password|pw1]]@h"},

	/* ?key=value */
	{"https://x/?token", NULL},
	{"https://x/?access_token&x=1", NULL},
	{"https://x/?token=", NULL},
	{"https://x/?code=abc", NULL},
	{"https://x/?code=abcdefghij", NULL},
	{"https://x/?code=abc123def456", "https://x/?code=[[query-token|abc123def456]]"},

	/* unterminated: the block ends with its body, the prose after it stays (issue 27) */
	{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234abcd\nq1w2e3r4t5y6u7i8o9p0+/==\nThat is the head of my key, why?",
	 "[[private-key|-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234abcd\nq1w2e3r4t5y6u7i8o9p0+/==]]\nThat is the "
	 "head of my key, why?"},
	{"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,AB12\n\nMIIEow\n\nnext para",
	 "[[private-key|-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,AB12\n\nMIIEow]]\n\nnext "
	 "para"},
	{"-----BEGIN PRIVATE KEY-----\\nMIIabc\\nMIIdef\\nsee above", /* JSON text's \n */
	 "[[private-key|-----BEGIN PRIVATE KEY-----\\nMIIabc\\nMIIdef]]\\nsee above"},
	{"-----BEGIN PRIVATE KEY-----\nthat was all", "[[private-key|-----BEGIN PRIVATE KEY-----]]\nthat was all"},
	{"-----BEGIN PRIVATE KEY-----\r\nMIIabc\r\n\r\nok then",
	 "[[private-key|-----BEGIN PRIVATE KEY-----\r\nMIIabc]]\r\n\r\nok then"},

	/* the secret word glued to another in one name (issue 27), and the words that only end so */
	{"PGPASSWORD=hunter2 psql", "PGPASSWORD=[[password|hunter2]] psql"},
	{"MYSQLPASSWORD=a1 DBPASS=b2 SSHPASS=c3",
	 "MYSQLPASSWORD=[[password|a1]] DBPASS=[[password|b2]] SSHPASS=[[password|c3]]"},
	{"ACCESSTOKEN=abcDEF123ghiJKL456", "ACCESSTOKEN=[[token|abcDEF123ghiJKL456]]"},
	{"MYAPIKEY=abc JWTSECRET=def", "MYAPIKEY=[[api-key|abc]] JWTSECRET=[[secret|def]]"},
	{"PASSTHROUGH=1 BYPASS=1 COMPASS=n TOKENIZER=gpt2 ACCESSTOKEN=short PGPASSWORD=", NULL},
	{"OLDPWD=/home/me PASSWORD_FILE=/run/pw NPASS=3", NULL},

	/* headers inside a command line: the value ends at the quote, not at the end of the line */
	{"curl -H \"X-API-Key: Zx9Yw8Vu7Ts6Rq5Po4Nm\" https://x",
	 "curl -H \"X-API-Key: [[api-key|Zx9Yw8Vu7Ts6Rq5Po4Nm]]\" https://x"},
	{"curl -H 'X-Auth-Token: a3f8b2c9d4e5f6a7b8' u", "curl -H 'X-Auth-Token: [[token|a3f8b2c9d4e5f6a7b8]]' u"},

	/* passwords as arguments */
	{"mysql --password hunter2X -u root", "mysql --password [[password|hunter2X]] -u root"},
	{"--token abcDEF123ghiJKL456 --verbose", "--token [[token|abcDEF123ghiJKL456]] --verbose"},
	{"mysql -u root -phunter2 db", "mysql -u root -p[[password|hunter2]] db"},
	{"mysqldump -uroot -pS3cret db", "mysqldump -uroot -p[[password|S3cret]] db"},
	{"sshpass -p 'pw 1' ssh h", "sshpass -p '[[password|pw 1]]' ssh h"},
	{"docker login -u me -p hunter2 r.example.com", "docker login -u me -p [[password|hunter2]] r.example.com"},
	{"curl -u admin:hunter2 https://x", "curl -u admin:[[password|hunter2]] https://x"},
	{"curl --user admin:hunter2 https://x", "curl --user admin:[[password|hunter2]] https://x"},
	{"redis-cli -a hunter2 ping; ldapsearch -w hunter2 -x",
	 "redis-cli -a [[password|hunter2]] ping; ldapsearch -w [[password|hunter2]] -x"},
	{"openssl rsa -passin pass:hunter2 -in k", "openssl rsa -passin pass:[[password|hunter2]] -in k"},
	{"the --password option, --password <pw>, --password PASSWORD, --password-file f, --password --x", NULL},
	{"mysql -p db; ssh -p 2222 h; docker run -p 80:80 x; curl -u admin https://x; curl -u : u; mkdir -p /a", NULL},
	{"sshpass -f f ssh h -p 22x; sshpass -e ssh -p 2222 h", NULL},
	{"sshpass -v -p pw1 ssh -p 2222 h", "sshpass -v -p [[password|pw1]] ssh -p 2222 h"},

	/* userinfo with several '@': the password runs to the last one; a second pass keeps the marker */
	{"https://u:p@ss@w0rd@host/x", "https://u:[[url-password|p@ss@w0rd]]@host/x"},
	{"https://us@er:pw1@host/x", "https://us@er:[[url-password|pw1]]@host/x"},
	{"postgres://a@b:c@d:pw@db/x", "postgres://a@b:[[url-password|c@d:pw]]@db/x"},

	/* .netrc */
	{"machine h.example.com login bob password hunter2\nmachine g login v password x9",
	 "machine h.example.com login bob password [[password|hunter2]]\nmachine g login v password [[password|x9]]"},
	{"default login anonymous password me@x", "default login anonymous password [[password|me@x]]"},
	{"the password hunter2 is weak; password reset", NULL},

	/* a token right after a colour escape (the terminal and Markdown writers drop the escape) */
	{"\x1b[32mghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6\x1b[0m",
	 "\x1b[32m[[github-token|ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6]]\x1b[0m"},
	{"\x1b[1;31mAKIAZ7QW3ER5TY8UI2OP", "\x1b[1;31m[[aws-access-key-id|AKIAZ7QW3ER5TY8UI2OP]]"},
	{"\x1b[32mOK\x1b[0m \x1b[32m", NULL},

	/* edges: an escape without its final byte, a marker that is not txc's, an empty user */
	{"\x1b[3", NULL},
	{"\x1b[32", NULL},
	{"\x1b[1234567890123456789mAKIAZ7QW3ER5TY8UI2OP", NULL},
	{"[REDACTED:x \xE2\x80\xA6zzzz] [REDACTED:] [REDACTED:a \xE2\x80\xA6"
	 "abcd",
	 NULL},
	{"curl -u :hunter2 u; curl -u a: u", NULL},
	{"openssl rsa -passout pass:hunter2 -in k", "openssl rsa -passout pass:[[password|hunter2]] -in k"},
	{"openssl rsa -passin file:pw.txt", NULL},
	{"-----BEGIN PRIVATE KEY----- MIIabc def\nok then",
	 "[[private-key|-----BEGIN PRIVATE KEY----- MIIabc def]]\nok then"},

	/* a token that is a JSON object key */
	{"{\"ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6\": \"ci bot\"}",
	 "{\"[[github-token|ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6]]\": \"ci bot\"}"},
	{"{\"ci bot\": \"name\", \"session_id\": 1}", NULL},

	/* JSON text that is not JSON after all is scanned as text */
	{"{\"a\": \"x\\u00zz\", \"password\": \"hunter2\"}",
	 "{\"a\": \"x\\u00zz\", \"password\": \"[[password|hunter2]]\"}"},
	{"{\"a\": \"\\x\", \"password\": \"hunter2\"}", "{\"a\": \"\\x\", \"password\": \"[[password|hunter2]]\"}"},
	{"{\"a\": \"\\u00_0\", \"password\": \"hunter2\"}",
	 "{\"a\": \"\\u00_0\", \"password\": \"[[password|hunter2]]\"}"},
	{"{\"password\": \"hunter2\", \"a\": \"\\u12\"}", "{\"password\": \"[[password|hunter2]]\", \"a\": \"\\u12\"}"},
	{"{\"password\": \"hunter2\", \"a\": \"x\\\"", "{\"password\": \"[[password|hunter2]]\", \"a\": \"x\\\""},
	{"{\"password\": \"hunter2\", \"a\": \"x", "{\"password\": \"[[password|hunter2]]\", \"a\": \"x"},
	{"[\"ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6\"",
	 "[\"[[github-token|ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6]]\""},
	/* a changed literal is decoded and re-encoded: a lone surrogate becomes U+FFFD */
	{"[\"\\ud83d x ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6\"]",
	 "[\"\xEF\xBF\xBD x [[github-token|ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6]]\"]"},
	{"[\"\\ud83d\\n\\ud83d\\ue000 ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6\"]",
	 "[\"\xEF\xBF\xBD\\n\xEF\xBF\xBD\xEE\x80\x80 [[github-token|ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6]]\"]"},
	{"[\"\\ud83d\\u0041\\ude00\\ud83d\\ude00 ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6\\ud83d\"]",
	 "[\"\xEF\xBF\xBD"
	 "A\xEF\xBF\xBD\xF0\x9F\x98\x80 [[github-token|ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6]]\xEF\xBF\xBD\"]"},
	{"[\"\\ud83d\\u00zz ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6\"]",
	 "[\"\\ud83d\\u00zz [[github-token|ghp_aB3dE6gH9jK2mN5p"
	 "Q8sT1vW4yZ7bC0eF3hJ6]]\"]"},
};

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

/* t with each "[[kind|secret]]" written as the marker of secret; *n: how many */
static char *expand(const char *t, size_t *n)
{
	struct txc_buf b = TXC_BUF_INIT;
	*n = 0;
	for (const char *m; (m = strstr(t, "[[")) != NULL;) {
		const char *bar = strchr(m, '|'), *end = strstr(m, "]]");
		assert_non_null(bar);
		assert_non_null(end);
		unsigned char h[32];
		char hex[65];
		txc_sha256(bar + 1, (size_t)(end - bar - 1), h);
		txc_hex(hex, h, 2);
		txc_buf_add(&b, t, (size_t)(m - t));
		txc_buf_addstr(&b, "[REDACTED:");
		txc_buf_add(&b, m + 2, (size_t)(bar - m - 2));
		txc_buf_addf(&b, " \xE2\x80\xA6%s]", hex);
		t = end + 2;
		(*n)++;
	}
	txc_buf_addstr(&b, t);
	return txc_buf_detach(&b, NULL);
}

/* R(R(x)) == R(x): a second pass leaves the output as it is and counts nothing (markers are no secrets) */
static bool idempotent(struct txc_str once, size_t i)
{
	struct txc_arena *a = txc_arena_new(0);
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_str twice = txc_redact_str(r, a, once);
	bool ok = twice.ptr == once.ptr && txc_redact_count(r) == 0;
	if (!ok)
		print_error("case %zu: a second pass changed it:\n  once:  %s\n  twice: %s\n", i, once.ptr, twice.ptr);
	txc_redactor_free(r);
	txc_arena_free(a);
	return ok;
}

static void test_exact(void **state)
{
	(void)state;
	int failed = 0;
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++) {
		struct txc_arena *a = txc_arena_new(0);
		struct txc_redactor *r = txc_redactor_new(false);
		const char *in = exact[i].in;
		struct txc_str out = redact(r, a, in);
		size_t n = 0;
		char *want = exact[i].want ? expand(exact[i].want, &n) : NULL;
		bool ok = want ? strcmp(out.ptr, want) == 0 && txc_redact_count(r) == n
			       : out.ptr == in && txc_redact_count(r) == 0;
		if (!ok) {
			print_error("case %zu:\n  in:   %s\n  out:  %s\n  want: %s\n", i, in, out.ptr,
				    want ? want : "(unchanged)");
			failed++;
		}
		failed += !idempotent(out, i);
		free(want);
		txc_redactor_free(r);
		txc_arena_free(a);
	}
	assert_int_equal(failed, 0);
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

/* a token of lower-case letters and '_' alone is an object key like any other: found in a tree's
 * keys as in a JSON text's (a tree's key once passed unread when made of those bytes) */
static void test_lowercase_token_keys(void **state)
{
	(void)state;
	static const char *const toks[] = {"hf_abcdefghijklmnopqrstuvwxyzabcd", "gsk_abcdefghijklmnopqrstuvwxyzabcdef",
					   "npm_abcdefghijklmnopqrstuvwxyzabcdef",
					   "lin_api_abcdefghijklmnopqrstuvwxyzabcdef"};
	for (size_t i = 0; i < sizeof(toks) / sizeof(toks[0]); i++) {
		struct txc_arena *a = txc_arena_new(0);
		struct txc_str tok = txc_str_c(toks[i]);
		struct txc_redactor *r = txc_redactor_new(false);
		struct txc_buf b = TXC_BUF_INIT;
		assert_int_equal(txc_redact_text(r, tok.ptr, tok.len, &b), 1);
		for (int round = 0; round < 2; round++) { /* the second: a warm key cache */
			struct txc_json *o = txc_json_object(a, 1);
			txc_json_put(o, tok, txc_json_string(a, "ci bot", 6));
			const struct txc_json *out = txc_redact_json(r, a, o);
			txc_buf_reset(&b);
			txc_json_emit(&b, out, 0);
			if (strstr(b.buf, tok.ptr) != NULL)
				fail_msg("a token as a tree's key: %s", b.buf);
			txc_buf_reset(&b);
			txc_buf_addf(&b, "{\"%s\": \"ci bot\"}", tok.ptr);
			struct txc_str s = txc_redact_str(r, a, (struct txc_str){b.buf, b.len});
			txc_buf_reset(&b);
			txc_buf_add(&b, s.ptr, s.len);
			if (strstr(b.buf, tok.ptr) != NULL)
				fail_msg("a token as a JSON text's key: %s", b.buf);
		}
		assert_int_equal(txc_redact_count(r), 5);
		txc_buf_release(&b);
		txc_redactor_free(r);
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

/* JSON text with a NUL byte after a backslash is not JSON: it is scanned as text, every byte kept */
static void test_json_nul_escape(void **state)
{
	(void)state;
	static const char in[] = "{\"a\": \"x\\\0\", \"password\": \"hunter2\"}";
	static const char want[] = "{\"a\": \"x\\\0\", \"password\": \"[REDACTED:password \xE2\x80\xA6"
				   "f52f]\"}";
	struct txc_arena *a = txc_arena_new(0);
	struct txc_redactor *r = txc_redactor_new(false);
	struct txc_str out = txc_redact_str(r, a, (struct txc_str){in, sizeof(in) - 1});
	assert_int_equal(out.len, sizeof(want) - 1);
	assert_memory_equal(out.ptr, want, sizeof(want) - 1);
	assert_int_equal(txc_redact_count(r), 1);
	txc_redactor_free(r);
	txc_arena_free(a);
}

/*
 * every sample after 0 to 40 blanks, alone and glued to a letter: the same finds as at the
 * start of the text.  The scan reads prose a block of bytes at a time; no block edge may start
 * or hide a word (a secret glued to a letter at a block's first byte stays as it is).
 */
static void test_block_edges(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_CORPUS; i++) {
		char *x = fill(&corpus[i]);
		for (int glued = 0; glued < 2; glued++) {
			struct txc_buf y = TXC_BUF_INIT, want = TXC_BUF_INIT;
			txc_buf_addstr(&y, glued ? "q" : "");
			txc_buf_addstr(&y, x);
			struct txc_redactor *r = txc_redactor_new(false);
			size_t n = txc_redact_text(r, y.buf, y.len, &want);
			txc_redactor_free(r);
			for (size_t k = 1; k <= 40; k++) {
				struct txc_buf in = TXC_BUF_INIT, out = TXC_BUF_INIT, exp = TXC_BUF_INIT;
				for (size_t b = 0; b < k; b++)
					txc_buf_addch(&in, ' ');
				txc_buf_add(&exp, in.buf, in.len);
				txc_buf_add(&exp, want.buf, want.len);
				txc_buf_add(&in, y.buf, y.len);
				r = txc_redactor_new(false);
				size_t m = txc_redact_text(r, in.buf, in.len, &out);
				txc_redactor_free(r);
				if (m != n || strcmp(out.buf, exp.buf) != 0)
					fail_msg("%s after %zu blanks%s: %zu found, %zu alone\n  out:  %s\n  want: %s",
						 corpus[i].kind, k, glued ? " and a letter" : "", m, n, out.buf,
						 exp.buf);
				txc_buf_release(&in);
				txc_buf_release(&out);
				txc_buf_release(&exp);
			}
			txc_buf_release(&y);
			txc_buf_release(&want);
		}
		free(x);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_in_text),
		cmocka_unit_test(test_every_kind_covered),
		cmocka_unit_test(test_kinds_in_tool_arguments),
		cmocka_unit_test(test_kinds_in_json_and_titles),
		cmocka_unit_test(test_lowercase_token_keys),
		cmocka_unit_test(test_lookalikes_stay),
		cmocka_unit_test(test_marker),
		cmocka_unit_test(test_json_text_kept),
		cmocka_unit_test(test_transcript),
		cmocka_unit_test(test_base64_kept),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_json_nul_escape),
		cmocka_unit_test(test_block_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
