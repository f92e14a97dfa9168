#!/bin/sh
# --redact and the likely-secrets warning.  Property over every fixture and golden store: the
# --redact output of each format (convert, export --json, export --to FORMAT --out) is valid in
# its format, the same files with the same exit status as without --redact, and shows none of
# the secrets planted in fixtures/secrets.sql; look-alikes, images and encrypted reasoning stay.
# usage: redact-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" s.db "$src/fixtures/secrets.sql" || exit 1

# the secrets of fixtures/secrets.sql (in two pieces, as there, so that no scanner flags them)
printf '%s\n' \
	'sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJ''k6lMn9oPq2rSt5uVw8xYz1aBc4dEf7gHi0jKl3mNo6pQr9sTuVw-AAAAAA' \
	'sk-proj-Xy7aBc3dEf9gHi2jK''l5mNo8pQr1sTu4vWx6yZa0bCd' \
	'ghp_aB3dE6gH9jK2mN5p''Q8sT1vW4yZ7bC0eF3hJ6' \
	'glpat-Zx8Yw7V''u6Ts5Rq4Po3Nm' \
	'xoxb-1234567890-12345678901''23-AbCdEfGhIjKlMnOpQrStUvWx' \
	'xoxc-9876543210-987654321''0987-QwErTyUiOpAsDfGhJkLz' \
	'T024BE7LD/B024BE7LH/Ab''3dE6gH9jK2mN5pQ8sT1vW4' \
	'AIzaSyA1b2C3d4E5f6G''7h8I9j0K1l2M3n4O5p6Q' \
	'GOCSPX-Ab3dE6gH9j''K2mN5pQ8sT1vW4yZ7b' \
	'ya29.a0AfB_byC3dE6gH9jK2m''N5pQ8sT1vW4yZ7bC0eF3hJ6kL9' \
	'AKIAIOSFOD''NN7EXAMPLE' \
	'ASIAY34FZK''BOKMUTVV7A' \
	'wJalrXUtnFEMI/K7MDEN''G/bPxRfiCYEXAMPLEKEY' \
	'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD6m3kC9x7Qx5hQZZZZZZZZZZZZZZZZZZZZ''abcd0123456789ABCDEFGHIJ+/abcdEFGH1234567890abcdefghijklmnopqrstuvwxyz0123456789ABCDEF==' \
	'sk_live_51H8aBcDeFgHiJkL''mNoPqRsTuVwXyZ0123456789' \
	'pk_live_51H8aBcDeFgHiJkL''mNoPqRsTuVwXyZ9876543210' \
	'whsec_aB3dE6gH9jK2m''N5pQ8sT1vW4yZ7bC0eF' \
	'SK0123456789abcde''f0123456789abcdef' \
	'key-3ax6xnjp29jd6f''ds4gc373sgvjxteol0' \
	'shpat_0123456789abc''def0123456789abcdef' \
	'hvs.CAESIJlU9xY3kL2mN5pQ8''sT1vW4yZ7bC0eF3hJ6kL9mN2pQ' \
	'lin_api_Ab3dE6gH9jK2mN5p''Q8sT1vW4yZ7bC0eF3hJ6kL9m' \
	'ATATT3xFfGF0Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9mN2p''Q5sT8vW1yZ4bC7eF0hJ3kL6mN9pQ2sT5vW8yZ1bC4eF7hJ0=AB12CD34' \
	'MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl.Ab''CdEfGhIjKlMnOpQrStUvWxYz0123456789ab' \
	'1098765432109876543/AbCdEfGhIjKlMn''OpQrStUvWxYz0123456789-_abcdefghij' \
	'123456789:AAHdqTcvCH1v''GWJxfSeofSAs0K5PALDsaw' \
	'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6''IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==' \
	's3cr3tP''4ssW0rd' \
	'Zx9Yw8Vu7Ts6''Rq5Po4Nm3Lk2' \
	'a3f8b2c9d4e5f6a7''b8c9d0e1f2a3b4c5' \
	'cS3cr3t-Valu''e_Only-Here42' \
	'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC''BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj' \
	'lQOYBF0abcdEFGH1234''ijklMNOP5678qrstUVWX' \
	'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ikpv''aG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c' \
	'b3ArErT0kEn9a''BcDeFgHiJkLmN' \
	'hunter''2-Sup3r' \
	'Qm9pZ3VzS2V5V''mFsdWUxMjM0NTY' \
	'Pa55w''0rd!x' \
	'hf_AbCdEfGhIjKlMnOp''QrStUvWxYz0123456789' \
	'npm_AbCdEfGhIjKlMnOp''QrStUvWxYz0123456789' \
	'+14155''552671' \
	'SyStEmPr0mp''tK3yValue99' > planted.txt
# what must stay: a git SHA, a UUID, a lockfile hash, an identifier, the image, encrypted reasoning
printf '%s\n' da39a3ee5e6b4b0d3255bfef95601890afd80709 123e4567-e89b-12d3-a456-426614174000 \
	'sha512-pKvURIxJVi2CgRXROh/M6pJ/UrTVRZKX+LQ+QtqJI4vBNibkPcs43bCCSIkn7JBPtCBXRDmD6IWFF51QVRr+Yg==' \
	sk_live_mode_enabled_flag > stays.txt
[ "$(wc -l < planted.txt)" -ge 40 ] && ok "the planted list" || bad "the planted list is short"

leaks() { # file...: the planted secrets found in them (none: empty); Markdown's \_ escapes undone first
	sed 's/\\\([][_*`#<>|~!-]\)/\1/g' "$@" | grep -ohF -f planted.txt | sort -u | head -5
}
utf8_ok() { for f; do iconv -f UTF-8 -t UTF-8 "$f" > /dev/null 2>&1 || return 1; done; }
valid() { # format file...
	fmt=$1; shift
	case $fmt in
	markdown) utf8_ok "$@" ;;
	*) "$jsoncheck" "$@" > /dev/null ;;
	esac
}

# ---- the secrets store, one session, every format ----
for fmt in claude hermes markdown; do
	expect_rc 0 "convert --to $fmt --redact" "$txc" convert sec1 --to "$fmt" --redact --db s.db
	cp out.txt "sec1.$fmt"
	valid "$fmt" "sec1.$fmt" && ok || bad "$fmt: not valid output"
	l=$(leaks "sec1.$fmt")
	[ -z "$l" ] && ok || bad "$fmt: planted secrets shown: $l"
	[ "$(grep -o 'REDACTED:[a-z0-9-]* …[0-9a-f]\{4\}\]' "sec1.$fmt" | sort -u | wc -l)" -ge 30 ] && ok ||
		bad "$fmt: too few markers"
	[ ! -s err.txt ] && ok || bad "$fmt: stderr with --redact: $(cat err.txt)"
	for s in $(cat stays.txt); do grep -qF -- "$s" "sec1.$fmt" && ok || bad "$fmt: look-alike $s was changed"; done
	"$txc" convert sec1 --to "$fmt" --db s.db > "plain.$fmt" 2> /dev/null
	[ -n "$(leaks "plain.$fmt")" ] && ok || bad "$fmt: the fixture plants nothing this format shows"
done
# the title and the system prompt (Hermes's own export shows both), reasoning, tool arguments
for want in '"title": "Deploy with [REDACTED:github-token' '"system_prompt": "You are helpful. OPENAI_API_KEY=[REDACTED:' \
	'"reasoning": "The token [REDACTED:slack-token' 'export GITHUB_TOKEN=[REDACTED:github-token'; do
	grep -qF "$want" sec1.hermes && ok || bad "hermes: not redacted: $want"
done
# the image and the encrypted reasoning are byte for byte as without --redact
img=$(grep -o 'data:image/png;base64,[A-Za-z0-9+/=]*' plain.hermes)
[ ${#img} -gt 500 ] && grep -qF "$img" sec1.hermes && ok || bad "the base64 image changed"
enc=$(grep -o 'encrypted_content\\": \\"gAAAA[A-Za-z0-9_=-]*' plain.hermes)
[ -n "$enc" ] && grep -qF "$enc" sec1.hermes && ok || bad "the encrypted reasoning changed"
# the same secret gets the same marker in every format
m=$(grep -o 'GITHUB_TOKEN=\[REDACTED:github-token …[0-9a-f]*\]' sec1.hermes | head -1)
[ -n "$m" ] && grep -qF "$m" sec1.claude && grep -qF "$m" sec1.markdown && ok || bad "one secret, different markers: $m"
# the same lines as without --redact, in the same order (only strings changed)
[ "$(wc -l < sec1.claude)" = "$(wc -l < plain.claude)" ] && ok || bad "claude: line count changed"

# ---- export: --json (streamed, also through a selection) and --out, and --install ----
expect_rc 0 "export --json --redact" "$txc" export --json --redact --db s.db
valid hermes out.txt && [ -z "$(leaks out.txt)" ] && ok || bad "export --json --redact: $(leaks out.txt)"
expect_rc 0 "export --json --redact --title" "$txc" export --json --redact --title deploy --db s.db
valid hermes out.txt && [ -z "$(leaks out.txt)" ] && grep -q REDACTED out.txt && ok || bad "export --json --title --redact"
expect_rc 0 "convert --to hermes --redact -o" "$txc" convert sec1 --to hermes --redact -o h.jsonl --db s.db
[ -z "$(leaks h.jsonl)" ] && cmp -s h.jsonl sec1.hermes && ok || bad "convert -o differs from stdout"
mkdir -p cc
expect_rc 0 "convert --install --redact" env CLAUDE_CONFIG_DIR="$work/cc" "$txc" convert sec1 --to claude --install --redact --db s.db
inst=$(find cc -name '*.jsonl' | head -1)
[ -n "$inst" ] && [ -z "$(leaks "$inst")" ] && grep -q REDACTED "$inst" && ok || bad "the installed session shows secrets"
expect_rc 0 "export --install --redact" env CLAUDE_CONFIG_DIR="$work/cc2" "$txc" export --to claude --install --redact --db s.db
[ -z "$(leaks $(find cc2 -name '*.jsonl'))" ] && ok || bad "export --install shows secrets"
expect_rc 2 "list --redact" "$txc" list --redact --db s.db

# ---- the warning: one line, markdown (TXC_WCAP_SHARED) to a file or a pipe, without --redact ----
expect_rc 0 "markdown -o without --redact" "$txc" convert sec1 --to markdown -o w.md --db s.db
[ "$(wc -l < err.txt)" = 1 ] && grep -qE '^txc: warning: the output shows [0-9]+ likely secrets \(.*github-token.*\); --redact' err.txt &&
	ok || bad "no single warning line: $(cat err.txt)"
[ -n "$(leaks w.md)" ] && ok || bad "without --redact the output changed"
expect_rc 0 "markdown to a pipe" "$txc" convert sec1 --to markdown --db s.db
grep -q 'likely secrets' err.txt && ok || bad "no warning for a pipe"
# on a terminal the person sees the output: no warning (script(1) gives txc a terminal)
if command -v script > /dev/null; then
	script -qc "'$txc' convert sec1 --to markdown --db s.db" /dev/null > tty.txt 2>&1
	grep -q 'Deploy with' tty.txt && ! grep -q 'likely secret' tty.txt && ok "no warning on a terminal" ||
		bad "a terminal: $(grep 'likely' tty.txt | head -c 200)"
else
	skip "no warning on a terminal" "script(1) is not installed"
fi
expect_rc 0 "markdown, a clean session" "$txc" convert sec2 --to markdown --db s.db
[ ! -s err.txt ] && ok || bad "a warning without secrets: $(cat err.txt)"
expect_rc 0 "claude without --redact" "$txc" convert sec1 --to claude --db s.db
[ ! -s err.txt ] && ok || bad "a warning for a format not for sharing: $(cat err.txt)"
expect_rc 0 "export --to markdown --out" "$txc" export --to markdown --out md --db s.db
[ "$(grep -c 'likely secret' err.txt)" = 1 ] && ok || bad "export: not one warning line: $(cat err.txt)"
expect_rc 0 "export --to markdown --out --redact" "$txc" export --to markdown --out md2 --redact --db s.db
! grep -q 'likely secret' err.txt && [ -z "$(leaks md2/*)" ] && ok || bad "export --redact: $(cat err.txt)"
# a file name is made from the title: with --redact, from the redacted title
ls md2 | grep -q '^sec1-deploy-with-redacted-github-token-[0-9a-f]\{4\}-and-' && ! ls md2 | grep -qi ghp && ok ||
	bad "the file name shows the title's secret: $(ls md2)"

# ---- property: every fixture and golden store, every format ----
for sql in "$src"/fixtures/*.sql "$src"/golden/*/state.sql; do
	name=$(basename "$(dirname "$sql")")-$(basename "$sql" .sql)
	"$mkdb" "p-$name.db" "$sql" > /dev/null 2>&1 || { bad "$name: cannot build the store"; continue; }
	"$txc" export --json --db "p-$name.db" > "p-$name.plain.json" 2> /dev/null
	r1=$?
	"$txc" export --json --redact --db "p-$name.db" > "p-$name.json" 2> /dev/null
	r2=$?
	[ "$r1" = "$r2" ] && { [ "$r1" != 0 ] || valid hermes "p-$name.json"; } && [ -z "$(leaks "p-$name.json")" ] &&
		[ "$(wc -l < "p-$name.json")" = "$(wc -l < "p-$name.plain.json")" ] &&
		ok "$name: export --json --redact" || bad "$name: export --json --redact (exit $r1/$r2)"
	for fmt in claude hermes markdown; do
		"$txc" export --to "$fmt" --out "p-$name-$fmt-plain" --db "p-$name.db" > /dev/null 2>&1
		r1=$?
		"$txc" export --to "$fmt" --out "p-$name-$fmt" --redact --db "p-$name.db" > /dev/null 2>&1
		r2=$?
		files=$(cd "p-$name-$fmt" 2> /dev/null && find . -type f ! -name manifest.jsonl | sort)
		plain=$(cd "p-$name-$fmt-plain" 2> /dev/null && find . -type f ! -name manifest.jsonl | sort)
		docs=$(find "p-$name-$fmt" -type f ! -name manifest.jsonl ! -path '*/assets/*' -name "*.$([ $fmt = markdown ] && echo md || echo jsonl)")
		# the same files, but for names made from a title that held a secret
		if [ "$r1" = "$r2" ] && [ "$(echo "$files" | wc -l)" = "$(echo "$plain" | wc -l)" ] &&
			{ [ "$files" = "$plain" ] || [ "$name" = fixtures-secrets ]; } && { [ -z "$docs" ] || valid "$fmt" $docs; } &&
			{ [ -z "$docs" ] || [ -z "$(leaks $docs)" ]; }; then
			ok "$name: export --to $fmt --redact"
		else
			bad "$name: export --to $fmt --redact (exit $r1/$r2, leaks: $([ -n "$docs" ] && leaks $docs))"
		fi
	done
done
# no false positive in the stores that plant none: the real goldens keep all but their 3 planted keys
n=$(grep -o 'REDACTED:[a-z0-9-]*' p-current-schema-state.json | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
[ "$n" = "REDACTED:anthropic-key:1 REDACTED:github-token:1 REDACTED:openai-key:1 " ] && ok || bad "current-schema markers: $n"
for name in fixtures-features fixtures-markdown-hostile fixtures-hostile-rows fixtures-claude-trust fixtures-ids \
	hermes-written-state; do
	[ -f "p-$name.json" ] || continue
	cmp -s "p-$name.json" "p-$name.plain.json" && ok "$name: no false positive" || bad "$name: --redact changed a store without secrets: $(grep -o '.\{60\}REDACTED[^]]*]' "p-$name.json" | head -3)"
done

# every path that loads a session: html, the terminal, --lineage (its parts and children), --follow, view
for args in "--to html" "--to terminal" "--to markdown --lineage" "--to claude --lineage" "--to hermes --lineage" \
	"--to markdown --follow --interval 0.1" "--to hermes --follow --interval 0.1"; do
	timeout 3 "$txc" convert sec1 $args --redact --db s.db > o.txt 2> err.txt
	r=$? # sec1 has not ended: following stops at the timeout (124)
	{ [ $r = 0 ] || { [ $r = 124 ] && [ "${args#*--follow}" != "$args" ]; }; } && [ -z "$(leaks o.txt)" ] && grep -q REDACTED o.txt && ok || bad "convert $args --redact: exit $r, leaks: $(leaks o.txt)"
done
"$txc" view sec1 --redact --db s.db > o.txt 2> err.txt && [ -z "$(leaks o.txt)" ] && grep -q REDACTED o.txt && ok || bad "view --redact: $(leaks o.txt)"
"$txc" convert sec1 --to html --db s.db > o.html 2> err.txt
grep -q 'likely secret' err.txt && ok || bad "html in a pipe without --redact: no warning ($(cat err.txt))"

# export with workers (-j 2): the warning counts what the workers saw; --redact over a plain export
# renders again (the render key holds --redact) and leaves no file with a secret
rm -rf j2
"$txc" export --to markdown --out j2 -j 2 --db s.db > /dev/null 2> err.txt
grep -q 'likely secret' err.txt && ok || bad "export -j 2 without --redact: no warning ($(cat err.txt))"
"$txc" export --to markdown --out j2 -j 2 --redact --db s.db > /dev/null 2> err.txt
[ -z "$(leaks j2/*.md)" ] && ! grep -q 'likely secret' err.txt && ok || bad "export -j 2 --redact over a plain export: $(leaks j2/*.md) $(cat err.txt)"

# a delegate child's title (the parent's "Subagent session" line, the --children summary) is redacted too
cat > kid.sql << 'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,
  started_at REAL NOT NULL, ended_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
  tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('dad', 'cli', 'm', NULL, 1767600000.0, NULL, 'Dad');
INSERT INTO sessions VALUES ('kid', 'subagent', 'm', 'dad', 1767600002.0, 1767600003.0, 'Kid ghp_aB3dE6gH9jK2mN5p' || 'Q8sT1vW4yZ7bC0eF3hJ6');
INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
 ('dad', 'user', 'go', NULL, NULL, NULL, 1767600001.0),
 ('dad', 'assistant', 'ok', NULL, '[{"id": "d1", "type": "function", "function": {"name": "delegate_task", "arguments": "{}"}}]', NULL, 1767600001.5),
 ('dad', 'tool', '{"results": [{"session_id": "kid"}]}', 'd1', NULL, 'delegate_task', 1767600004.0),
 ('kid', 'user', 'kid work', NULL, NULL, NULL, 1767600002.5);
SQL
"$mkdb" kid.db kid.sql > /dev/null || bad "kid.db: cannot build the store"
for args in "--to markdown --lineage" "--to markdown --children"; do
	"$txc" convert dad $args --redact --db kid.db > o.txt 2> err.txt
	r=$?
	[ $r = 0 ] && grep -q 'Kid.*REDACTED' o.txt && [ -z "$(leaks o.txt)" ] && ok ||
		bad "convert dad $args --redact: the child's title: exit $r, leaks: $(leaks o.txt)"
done

# the warning's count and kinds: one secret is "1 likely secret"; with workers (-j 2) each session's
# kinds are joined, each kind once, in the order of the sessions (newest first: f3's, then f2's new one)
cat > few.sql << 'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,
  started_at REAL NOT NULL, ended_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
  tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('f1', 'cli', 'm', NULL, 1767600000.0, 1767600001.0, 'One');
INSERT INTO sessions VALUES ('f2', 'cli', 'm', NULL, 1767600010.0, 1767600011.0, 'Two');
INSERT INTO sessions VALUES ('f3', 'cli', 'm', NULL, 1767600020.0, 1767600021.0, 'Three');
INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
 ('f1', 'user', 'use ghp_aB3dE6gH9jK2mN5p' || 'Q8sT1vW4yZ7bC0eF3hJ6', NULL, NULL, NULL, 1767600000.5),
 ('f2', 'user', 'use ghp_aB3dE6gH9jK2mN5p' || 'Q8sT1vW4yZ7bC0eF3hJ7 and sk-proj-Xy7aBc3dEf9gHi2jK' || 'l5mNo8pQr1sTu4vWx6yZa0bCd', NULL, NULL, NULL, 1767600010.5),
 ('f3', 'user', 'use sk-proj-Xy7aBc3dEf9gHi2jK' || 'l5mNo8pQr1sTu4vWx6yZa0bCe', NULL, NULL, NULL, 1767600020.5);
SQL
"$mkdb" few.db few.sql > /dev/null || bad "few.db: cannot build the store"
expect_rc 0 "markdown -o, one secret" "$txc" convert f1 --to markdown -o f1.md --db few.db
[ "$(cat err.txt)" = "txc: warning: the output shows 1 likely secret (github-token); --redact replaces them with markers" ] &&
	grep -qF 'ghp_aB3dE6gH9jK2mN5p''Q8sT1vW4yZ7bC0eF3hJ6' f1.md && ok || bad "one secret: $(cat err.txt)"
rm -rf jf
expect_rc 0 "export -j 2, three sessions" "$txc" export --to markdown --out jf -j 2 --db few.db
w=$(grep 'likely secret' err.txt)
[ "$w" = "txc: warning: the output shows 4 likely secrets (openai-key, github-token); --redact replaces them with markers" ] &&
	[ "$(grep -c 'likely secret' err.txt)" = 1 ] && [ "$(grep -l 'ghp_\|sk-proj-' jf/*.md | wc -l)" = 3 ] && ok ||
	bad "export -j 2: the warning: $(cat err.txt)"

# search and artifacts take --redact like every other command: snippets, titles, values (issue 27)
for q in key token More; do
	for fmt in "" --json; do
		expect_rc 0 "search $q $fmt --redact" "$txc" search "$q" $fmt --limit 50 --redact --db s.db
		[ -s out.txt ] && [ -z "$(leaks out.txt)" ] && grep -q 'REDACTED' out.txt && ok ||
			bad "search $q $fmt --redact shows: $(leaks out.txt)"
	done
done
"$txc" search key --limit 50 --db s.db > o.txt 2> /dev/null
[ -n "$(leaks o.txt)" ] && ok "search without --redact shows the secrets" || bad "search without --redact: no secret shown"
for fmt in "" --json; do
	expect_rc 0 "artifacts $fmt --redact" "$txc" artifacts sec1 $fmt --redact --db s.db
	[ -s out.txt ] && [ -z "$(leaks out.txt)" ] && grep -q 'REDACTED' out.txt && ok ||
		bad "artifacts $fmt --redact shows: $(leaks out.txt)"
	"$txc" artifacts sec1 $fmt --db s.db > o.txt 2> /dev/null
	[ -n "$(leaks o.txt)" ] && ok "artifacts $fmt without --redact shows the secrets" || bad "artifacts $fmt: no secret shown"
done

summary redact
