#!/usr/bin/env python3
"""Writes corpus.txt beside it: secrets of every kind in many contexts, and text that is not one.

One case a line: KIND<TAB>text, KIND S (holds a secret) or N (none: --redact leaves it as it is).
In text, \\n is a newline, \\e an ESC and \\t a TAB; "~~" splits each fake secret in two so that no
secret scanner flags this repository (tests/cli/redact-corpus-tests.sh removes it).  Every secret is
fake.  Run it again after editing the lists, then tests/redact-corpus/make-oracle.sh.
"""
import os

TOKENS = [  # (name, fake token)
    ("ghp", "ghp_aB3dE6gH9jK2~~mN5pQ8sT1vW4yZ7bC0eF3hJ6"),
    ("gho", "gho_Zq7Wx3Rt9Yu1~~Io5Pa8Sd2Fg6Hj4Kl0MnBvC"),
    ("github_pat", "github_pat_11ABCDEFG0~~aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9mN2pQ5sT8vW1yZ4bC7eF0hJ3kL6mN9p"),
    ("sk-ant", "sk-ant-api03-Ab3dEf6hIj9kLm2n~~Op5qRs8tUv1wXy4zAb7cDe0fGh3iJk6lMn9oPq2rSt5uVw8xYz1aBc4dEf7gHi0jKl3mNo6pQr9sTuVw-AAAAAA"),
    ("sk-proj", "sk-proj-Xy7aBc3dEf9gHi~~2jKl5mNo8pQr1sTu4vWx6yZa0bCd"),
    ("sk-plain", "sk-Tz8Qw2Er5Ty7Ui9Op~~1As3Df5Gh7Jk9Lz2Xc4Vb6Nm8"),
    ("sk-or", "sk-or-v1-0a1b2c3d4e5f6a7b~~8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c"),
    ("akia", "AKIAZ7QW3~~ER5TY8UI2OP"),
    ("xoxb", "xoxb-1234567890-1234567~~890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    ("xoxp", "xoxp-2345678901-2345678~~901234-BcDeFgHiJkLmNoPqRsTuVwXy"),
    ("aiza", "AIzaSyA1b2C3d4E5f6G~~7h8I9j0K1l2M3n4O5p6Q"),
    ("glpat", "glpat-Zx8Yw7Vu6Ts5~~Rq4Po3Nm"),
    ("hf", "hf_AbCdEfGhIjKlMnOp~~QrStUvWxYz0123456789"),
    ("npm", "npm_AbCdEfGhIjKlMnOp~~QrStUvWxYz0123456789"),
    ("gsk", "gsk_Q1w2E3r4T5y6U7i8~~O9p0A1s2D3f4G5h6J7k8L9z0X1c2V3b4"),
    ("tvly", "tvly-dev-Ab3dE6gH9jK2~~mN5pQ8sT1vW4yZ7"),
    ("xai", "xai-Ab3dE6gH9jK2mN5pQ8~~sT1vW4yZ7bC0eF3hJ6kL9mN2pQ5sT8vW1yZ4bC7eF0hJ3"),
    ("sg", "SG.aB3dE6gH9jK2mN5p~~Q8sT1v.W4yZ7bC0eF3hJ6kL9mN2pQ5sT8vW1yZ4bC7eF0hJ3kL6"),
    ("r8", "r8_Ab3dE6gH9jK2mN5pQ8~~sT1vW4yZ7bC0eF3hJ6"),
    ("dop", "dop_v1_0a1b2c3d4e5f6a7b8c9d~~0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d"),
    ("sk_live", "sk_live_51H8aBcDeFgHiJkL~~mNoPqRsTuVwXyZ0123456789"),
    ("rk_live", "rk_live_51H8aBcDeFgHiJkL~~mNoPqRsTuVwXyZ9876543210"),
    ("pplx", "pplx-Ab3dE6gH9jK2mN5p~~Q8sT1vW4yZ7bC0eF3hJ6kL9mN2p"),
    ("jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ikpv~~aG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    ("telegram", "bot7123456789:AAHdqTcvCH1vGWJxf~~SeofSAs0K5PALDsaw"),
    ("fernet", "gAAAAABnQ1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6~~U7i8O9p0Q1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6U7i8O9p0Q1w2E3r4T5y6U7i8O9p0=="),
    ("ntn", "ntn_Ab3dE6gH9jK2mN5pQ8sT1vW4~~yZ7bC0eF3hJ6kL9mN2"),
    # bodies without a digit and at Hermes's shortest: random keys are like that now and then
    ("sk_live-letters", "sk_live_AbCdEfGhIjKl~~MnOpQrStUvWx"),
    ("sk_test-letters", "sk_test_QwErTyUiOpAs~~DfGhJkLzXcVb"),
    ("ghp-letters", "ghp_AbCdEfGhIjKlMnOp~~QrStUvWxYzAbCdEfGhIj"),
    ("ghp-short", "ghp_aB3dE6~~gH9jK2"),
]

# contexts a token may stand in ({} is the token)
CONTEXTS = [
    "{}",
    "my key is {} ok",
    "use `{}` here",
    "token: '{}'",
    "\"{}\"",
    "(see {})",
    "the key {}.",
    "{\"value\": \"{}\", \"n\": 1}",
    "curl https://api.example.com/v1 -d key={} -s",
    "\\e[32m{}\\e[0m",
    "{\"{}\": \"ci bot\"}",
    "line one\\n{}\\nline three",
    "export SOMETHING={}",
    "- {}",
]

PASSWORDS = ["hunter2", "Tr0ub4dor&3", "c0rrectH0rse", "p@ss-W0rd_2024", "s3cr3t!", "x9Kq2ZmP7vLw"]

ENV = [  # assignments: names that hold secrets
    "PGPASSWORD={p}", "MYSQLPASSWORD={p}", "MYSQL_PWD={p}", "DBPASS={p}", "SSHPASS={p}", "ACCESSTOKEN={p}",
    "DB_PASSWORD={p}", "DATABASE_PASSWORD = {p}", "REDIS_PASSWD={p}", "APP_SECRET={p}", "JWTSECRET={p}",
    "GITHUB_TOKEN={p}", "GH_TOKEN={p}", "OPENAI_API_KEY={p}", "MYAPIKEY={p}", "STRIPEAPIKEY={p}",
    "AWS_SECRET_ACCESS_KEY={p}", "SECRETKEY={p}", "ADMINPASSWORD={p}", "ROOTPASS={p}", "SMTPPASS={p}",
    "DOCKERHUBTOKEN={p}", "NPMTOKEN={p}", "AUTHTOKEN={p}", "OAUTHTOKEN={p}", "SLACKTOKEN={p}",
    "export PGPASSWORD={p}", "export SSHPASS='{p}'", "env DBPASS=\"{p}\" ./run", "PGPASSWORD={p} psql -h db",
    "CLIENTSECRET={p}", "MAILPASSWORD={p}", "KEYSTOREPASS={p}", "ACCESS_TOKEN={p}", "REFRESHTOKEN={p}",
    "API_TOKEN={p}", "SERVICE_CREDENTIAL={p}", "BASIC_AUTH={p}", "PASSWORD={p}", "SECRET={p}",
]

ARGS = [  # passwords as arguments
    "mysql -u root -p{p} mydb", "mysql --password={p} -u root", "mysql --password {p} -u root",
    "psql --password={p}", "sshpass -p {p} ssh user@host", "sshpass -p '{p}' scp a b:",
    "docker login -u me -p {p} registry.example.com", "docker login --password {p}",
    "curl -u admin:{p} https://api.example.com", "curl --user admin:{p} https://x.example.com",
    "mysqldump -uroot -p{p} db > db.sql", "redis-cli -a {p} ping", "openssl pkcs12 -passin pass:{p} -in a.p12",
"ldapsearch -w {p} -D cn=admin", "git clone https://user:{p}@github.com/o/r.git",
    "mongo --password {p} admin", "wget --password={p} https://h.example.com/f", "I set password={p} in the config",
    "mysqladmin -uroot -p{p} status", "mariadb -p{p} -e 'select 1'", "podman login -p {p} quay.io",
    "openssl rsa -passout pass:{p} -in k.pem", "ldapmodify -x -w '{p}' -f a.ldif", "--api-key {p}", "--token {p} --verbose",
    "--client-secret={p}",
]

HEADERS = [  # header forms
    "curl -H \"X-API-Key: {t}\" https://api.example.com", "curl -H 'x-api-key: {t}' https://a.example.com",
    "curl -H \"Authorization: Bearer {t}\" https://api.example.com", "curl -H 'Authorization: token {t}'",
    "curl -H \"X-Auth-Token: {t}\" https://a.example.com", "curl -H \"X-Access-Token: {t}\" -X GET u",
    "curl -H \"Cookie: session={t}; theme=dark\" https://a.example.com", "Authorization: Basic {t}",
    "Proxy-Authorization: Bearer {t}", "x-goog-api-key: {t}", "api-key: {t}", "X-Api-Token: {t}",
    "Set-Cookie: sid={t}; Path=/; HttpOnly", "curl -H \"PRIVATE-TOKEN: {t}\" https://gitlab.example.com",
    "headers = {{\"X-API-Key\": \"{t}\"}}", "requests.get(u, headers={{'Authorization': 'Bearer {t}'}})",
    "-H \"X-Vault-Token: {t}\"", "fetch(u, {{headers: {{\"x-api-key\": \"{t}\"}}}})",
]
HEADER_TOKENS = ["Zx9Yw8Vu7Ts6~~Rq5Po4Nm3Lk2", "a3f8b2c9d4e5f6a7~~b8c9d0e1f2a3b4c5", "QWxhZGRpbjpvcGVu~~IHNlc2FtZQ=="]

OTHER = [  # other shapes Hermes catches
    "machine api.example.com login bob password {p}", "machine h login u password {p}\\nmachine g login v password {p}",
    "default login anonymous password {p}", "password={p}", "export password={p}", "spring.datasource.password={p}",
    "db.password={p}", "password: {p}", "  api_key: {p}", "secret: {p}", "token: {p}",
    "{{\"password\": \"{p}\"}}", "{{\"api_key\": \"{p}\"}}", "{{\"token\":\"{p}\"}}", "{{\"secret\": \"{p}\"}}",
    "{{\"access_token\": \"{p}\", \"expires_in\": 3600}}", "{{\"refresh_token\": \"{p}\"}}",
    "{{\"apiKey\": \"{p}\"}}", "{{\"bearer\": \"{p}\"}}", "postgres://app:{p}@db.example.com:5432/app",
    "mysql://root:{p}@127.0.0.1/db", "redis://default:{p}@cache:6379", "mongodb+srv://u:{p}@cluster0.example.net/x",
    "amqp://guest:{p}@mq:5672/", "client_secret={p}&grant_type=client_credentials", "password={p}&user=bob",
]

PEM = [
    "-----BEGIN RSA PRIVATE KEY-----\\nMIIEpAIBAAKCAQEA0Z3~~VS5JJcds3xfn/ygWyF8PbnGy\\nq1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8\\n-----END RSA PRIVATE KEY-----",
    "key:\\n-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAA~~BG5vbmUAAAAEbm9uZQAAAAAAAAABAAAA\\n-----END OPENSSH PRIVATE KEY-----\\ndone",
    "-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIIrYSSNQFaA2~~Hwf1duRSxKtLYX5CB04fSeQ6tF1aY\\n-----END EC PRIVATE KEY----- and more",
    "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0B~~AQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\\n-----END PRIVATE KEY-----",
]

NONE = [  # not secrets: --redact must leave every one as it is
    "PASSTHROUGH=1", "BYPASS=true", "BYPASS_CACHE=1", "TOKENIZER=gpt2", "TOKENIZERS_PARALLELISM=false",
    "PASSWORD_MIN_LENGTH=12", "TOKEN_COUNT=5", "SECRET_NAME=prod-db", "PASSWORD_FILE=/run/secrets/db",
    "COMPASS=north", "PASSES=3", "BYPASS=", "SKIP_AUTH=false", "USE_TOKEN=true", "TOKEN_LIMIT=4096",
    "the password is stored in the vault", "use the --password option to give it", "--token TOKEN", "--password <pw>", "Enter password:",
    "--password-file /etc/pw", "--password-stdin", "mysql -p mydb", "mysql -u root -p", "docker login -u me --password-stdin",
    "sshpass -f ~/.pw ssh host", "curl -u admin https://api.example.com", "curl -H \"Content-Type: application/json\" u",
    "curl -H \"Accept: */*\" https://example.com", "Authorization: required", "X-API-Key: <your key>",
    "X-API-Key: $API_KEY", "Authorization: Bearer $TOKEN", "API_KEY=os.getenv('API_KEY')", "TOKEN=${TOKEN}",
    "password: \"{{ vault_password }}\"", "{\"password\": \"\"}", "{\"token\": null}", "{\"type\": \"password\", \"name\": \"pw\"}",
    "git commit -m 'fix tokenizer'", "def get_token(self):", "token = get_token()", "password = input()",
    "if (passwd == NULL) return -1;", "the author wrote a secretary's tokenizer", "sha256 da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "uuid 123e4567-e89b-12d3-a456-426614174000", "commit 5f2c1a9e8b7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b",
    "sha512-pKvURIxJVi2CgRXROh/M6pJ/UrTVRZKX+LQ+QtqJI4vBNibkPcs43bCCSIkn7JBPtCBXRDmD6IWFF51QVRr+Yg==",
    "sk_live_mode_enabled_flag", "ghp_", "use the sk- prefix", "AKIA is the prefix of an AWS key id",
    "https://example.com/path?page=2&sort=asc", "https://user@example.com/repo.git", "ssh git@github.com",
    "machine example.com login bob", "see https://docs.example.com/auth#tokens", "\\e[32mOK\\e[0m all green",
    "\\e[1;31merror:\\e[0m file not found", "{\"name\": \"ci bot\", \"id\": 42}", "{\"ci bot\": \"name\"}",
    "password_reset_url = '/reset'", "max_tokens: 4096", "num_tokens: 12", "tokens: 1500",
    "The meeting is at 10:30 with the team", "x = a ? b : c", "a := b + c", "version 1.2.3-beta+build.5",
    "--token-file ./tok", "echo $PGPASSWORD", "unset PGPASSWORD", "PGPASSWORD is read by psql",
    "-p 8080:80", "ssh -p 2222 host", "docker run -p 5432:5432 postgres", "nc -l -p 9000", "mkdir -p /tmp/x",
    "cp -p a b", "grep -p pattern", "python -m pytest -p no:cacheprovider", "git log -p", "ps -p 1234",
    "sshpass -V", "docker login registry.example.com", "curl -u : --negotiate https://x.example.com",
    "headers: {\"Content-Length\": \"42\"}", "Cookie: (none)", "cookie policy: strict",
    "The token bucket algorithm refills 10 tokens per second", "Use a strong passphrase.",
    "PASSWORD_HASHERS = ['argon2']", "AUTH_USER_MODEL = 'users.User'", "TOKEN_TYPE=bearer",
    "DB_PASSWORD=", "SECRET=", "GITHUB_TOKEN=$(gh auth token)", "OPENAI_API_KEY=\"$OPENAI_API_KEY\"",
    "a b c d e f g", "lorem ipsum dolor sit amet, consectetur adipiscing elit",
    "for (int i = 0; i < n; i++) sum += a[i];", "{\"a\": [1, 2, 3], \"b\": {\"c\": true}}",
    "[REDACTED:github-token \u2026a1b2]", "prefix [REDACTED:password \u2026ffff] suffix",
    "mysql -h db -P 3306 -u app", "pg_dump -U postgres -W db", "redis-cli -h cache -p 6379",
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    lines = []
    for _, tok in TOKENS:
        for ctx in CONTEXTS:
            lines.append(("S", ctx.replace("{}", tok)))
    for i, e in enumerate(ENV):
        lines.append(("S", e.format(p=PASSWORDS[i % len(PASSWORDS)] + "Q" + str(i))))
    for i, a in enumerate(ARGS):
        lines.append(("S", a.format(p=PASSWORDS[i % len(PASSWORDS)].replace("&", "") + "Z" + str(i))))
    for i, h in enumerate(HEADERS):
        lines.append(("S", h.format(t=HEADER_TOKENS[i % len(HEADER_TOKENS)])))
    for i, o in enumerate(OTHER):
        lines.append(("S", o.format(p=PASSWORDS[i % len(PASSWORDS)].replace("&", "") + "W" + str(i))))
    for pem in PEM:
        lines.append(("S", pem))
    for n in NONE:
        lines.append(("N", n))
    with open(os.path.join(here, "corpus.txt"), "w", encoding="utf-8") as f:
        for kind, text in lines:
            f.write(kind + "\t" + text + "\n")


main()
