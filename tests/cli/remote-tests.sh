#!/bin/sh
# Other sources: a Hermes dashboard over HTTP (a local stand-in server) and export files
# (--input).  Whatever the source, the output for a session is the same bytes.
# usage: remote-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1
"$mkdb" demo.db "$src/../demo/hermes.sql" || exit 1
"$txc" export --json --db feat.db > feat.jsonl && "$txc" export --json --db demo.db > demo.jsonl || exit 1
# the reference bytes from the store: under tools/memcheck.sh, the plain txc ($TXC_REAL; the store
# reader is memchecked by the scripts that test it), so valgrind runs on what this script tests
ref=${TXC_REAL:-$txc}
ids() { "$txc" list --archived --json --db "$1" | sed -n 's/^[[,]*{"id":"\([^"]*\)".*/\1/p'; }
[ "$(wc -l < feat.jsonl)" -ge 4 ] && [ "$(wc -l < demo.jsonl)" -ge 3 ] || { echo "remote-tests: the reference exports are empty"; exit 1; }
# a.out is what the store gives for $id --to $to: the session itself (empty only for no messages), not an error
expected() {
	case $1 in
	hermes) grep -q "^{\"id\": \"$id\"" a.out ;;
	claude) if [ -s a.out ]; then grep -q '^{"parentUuid"' a.out; else [ "$id" = empty ]; fi ;;
	markdown) head -n 2 a.out | tr '\n' ' ' | grep -q "^--- id: \"$id\"" ;;
	esac
}

# --input: the export read back converts to the same bytes as the store, every format
for db in feat demo; do
	for id in $(ids $db.db); do
		for to in claude markdown hermes; do
			"$ref" convert "$id" --to $to --db $db.db > a.out 2>&1
			"$txc" convert "$id" --to $to --input $db.jsonl > b.out 2>&1
			cmp -s a.out b.out && expected $to && ok "--input $db $id --to $to" || bad "--input $db $id --to $to differs"
		done
	done
	"$txc" export --json --input $db.jsonl | cmp -s - $db.jsonl && ok || bad "--input $db export differs"
	cat $db.jsonl | "$txc" export --json --input - | cmp -s - $db.jsonl && ok || bad "--input - (stdin) $db"
done
"$txc" list --input demo.jsonl --archived > a.out; "$txc" list --db demo.db --archived > b.out
cmp -s a.out b.out && head -n 1 a.out | grep -q '^ID ' && [ "$(wc -l < a.out)" = "$(($(wc -l < demo.jsonl) + 1))" ] && ok "list --input" || bad "list --input differs"
"$txc" artifacts 20260914 --input demo.jsonl --json > a.out; "$txc" artifacts 20260914 --db demo.db --json > b.out
cmp -s a.out b.out && grep -q '"value":' a.out && ok "artifacts --input" || bad "artifacts --input differs"
# one pretty JSON session object
python3 -c "import json,sys; print(json.dumps(json.loads(open('demo.jsonl').readline()), indent=2, ensure_ascii=False))" > one.json
id1=$(head -n 1 demo.jsonl | sed -n 's/^{"id": "\([^"]*\)".*/\1/p')
expect_rc 0 "pretty object" "$txc" convert "$id1" --to claude --input one.json
"$txc" convert "$id1" --to claude --db demo.db | cmp -s - out.txt && grep -q '^{"parentUuid"' out.txt && ok "pretty object" || bad "pretty object converts differently"
# a malformed line: reported with its line number, skipped only with --skip-bad
{ head -n 1 demo.jsonl; echo '{"id": "broken", "messages": ['; tail -n +2 demo.jsonl; } > bad.jsonl
expect_rc 1 "malformed line" "$txc" list --input bad.jsonl; grep -q 'bad.jsonl:2: ' err.txt && grep -q -- '--skip-bad' err.txt && ok || bad "line number: $(cat err.txt)"
expect_rc 0 "skip-bad" "$txc" list --input bad.jsonl --skip-bad --archived; grep -q 'skipped 1 malformed line' err.txt && ok || bad "skip reported"
[ "$(grep -c '^[0-9a-f]' out.txt)" = 3 ] && ok || bad "skip-bad lost good sessions"
# the reader reports the skipped lines as a fact; the CLI words the warning, escaped on a terminal
grep -q '^txc: warning: skipped 1 malformed line of bad.jsonl$' err.txt && ok || bad "skip warning: $(cat err.txt)"
if command -v script > /dev/null; then
	esc=$(printf '\033')
	cp bad.jsonl "bad${esc}[31m.jsonl"
	script -q -c "$txc list --input 'bad${esc}[31m.jsonl' --skip-bad --color never" /dev/null > tty.txt 2>&1
	grep -q "${esc}\[31m" tty.txt && bad "a file name's escape reached the terminal in a warning" || ok
	grep -q 'skipped 1 malformed line of bad\\x1b\[31m.jsonl' tty.txt && ok || bad "escaped warning: $(cat tty.txt)"
fi
expect_rc 3 "missing input" "$txc" list --input nope.jsonl
expect_rc 2 "two sources" "$txc" list --input demo.jsonl --db demo.db

# --remote: a stand-in dashboard on 127.0.0.1 (random port)
cat feat.jsonl demo.jsonl > both.jsonl
start() { # args... -> $port, $server
	python3 "$src/tools/dashboard.py" --data both.jsonl "$@" > port.txt 2> server.err &
	server=$!
	i=0; while [ ! -s port.txt ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done # up to 30 s on a loaded machine
	port=$(head -n 1 port.txt); url=http://127.0.0.1:$port
}
stop() { kill $server 2> /dev/null; wait $server 2> /dev/null; : > port.txt; }
start --token s3cret --page-size 2
export HERMES_DASHBOARD_SESSION_TOKEN=s3cret
expect_rc 0 "remote list (paged by 2)" "$txc" list --remote "$url" --archived --json; json_ok out.txt && ok || bad "remote list json"
[ "$(grep -c '"id"' out.txt)" = "$(cat both.jsonl | wc -l)" ] && ok || bad "paging lost sessions: $(grep -c '"id"' out.txt)"
for db in feat demo; do
	for id in $(ids $db.db); do
		for to in claude markdown hermes; do
			"$ref" convert "$id" --to $to --db $db.db > a.out 2>&1
			"$txc" convert "$id" --to $to --remote "$url" > b.out 2>&1
			cmp -s a.out b.out && expected $to && ok "--remote $id --to $to" || bad "--remote $id --to $to differs: $(head -c 200 b.out)"
		done
	done
done
"$txc" export --json --remote "$url" --title "Fix the retry" > b.out; "$txc" export --json --db demo.db --title "Fix the retry" > a.out
cmp -s a.out b.out && [ -s a.out ] && ok || bad "remote export --json differs"
expect_rc 3 "remote unknown session" "$txc" convert nosuch --to claude --remote "$url"
unset HERMES_DASHBOARD_SESSION_TOKEN
expect_rc 0 "token from the page" "$txc" list --remote "$url"
head -n 1 out.txt | grep -q '^ID ' && grep -q '^7f3e' out.txt && ok "token from the page: the list" || bad "token from the page: $(cat out.txt)"
expect_rc 0 "an empty HERMES_DASHBOARD_SESSION_TOKEN is no token" env HERMES_DASHBOARD_SESSION_TOKEN= "$txc" list --remote "$url"
grep -q '^7f3e' out.txt && ok "empty token variable: the token from the page" || bad "empty token variable: $(cat err.txt)"
expect_rc 1 "wrong token" "$txc" list --remote "$url" --token wrong-and-secret
grep -q 'refused the session token' err.txt && ok || bad "wrong token message: $(cat err.txt)"
grep -q '(HTTP 401); pass --token or set HERMES_DASHBOARD_SESSION_TOKEN$' err.txt && ok || bad "the CLI's advice for a token: $(cat err.txt)"
grep -q 'wrong-and-secret' err.txt out.txt && bad "the token appears in the output" || ok
"$txc" list --remote "$url" --token s3cret --archived > /dev/null 2> err.txt; grep -q 's3cret' err.txt && bad "token in stderr" || ok
stop
# a token of any length is kept whole (it was cut at 4,095 bytes)
long=$(head -c 5000 /dev/zero | tr '\0' k)
start --token "$long"
expect_rc 0 "a 5,000-byte --token" "$txc" list --remote "$url" --token "$long"
stop

start --token t --fail-first 2
expect_rc 0 "500 then success" "$txc" convert 7f3e --to hermes --remote "$url" --token t
grep -q '^{"id": "7f3e' out.txt && ok "500 then success: the session" || bad "500 then success: $(head -c 200 out.txt)"
stop
cut_id=$(ids demo.db | head -n 1)
start --token t --cut "$cut_id"
expect_rc 1 "connection cut mid-stream" "$txc" convert "$cut_id" --to claude --remote "$url" --token t
grep -q -i 'cut\|ended early' err.txt && [ ! -s out.txt ] && ok || bad "cut stream: $(cat err.txt)"
stop
start --token t0p-secret-value --slow 3
expect_rc 1 "slow server" "$txc" convert 7f3e --to claude --remote "$url" --token t0p-secret-value --timeout 1
grep -q 'did not answer within 1 s' err.txt && ok || bad "timeout message: $(cat err.txt)"
grep -q 'within 1 s (raise --timeout)$' err.txt && ok || bad "the CLI's advice for a timeout: $(cat err.txt)"
# the token is not in the process title while txc waits
"$txc" convert 7f3e --to claude --remote "$url" --token t0p-secret-value --timeout 5 > slow.out 2>&1 &
client=$!
sleep 1
if [ "$(head -c 2 "$txc")" = "#!" ]; then
	: # txc runs under a wrapper (valgrind): the title is the wrapper's, not txc's
elif [ -r /proc/$client/cmdline ]; then
	tr '\0' ' ' < /proc/$client/cmdline | grep -q 't0p-secret-value' && bad "the token is in the process title" || ok
else
	bad "the client ended before its process title could be read"
fi
wait $client && grep -q '^{"parentUuid"' slow.out && ok "slow but in time" || bad "slow but in time: failed: $(head -c 200 slow.out)"
stop
expect_rc 1 "refused connection" "$txc" list --remote "http://127.0.0.1:$port" --token t
grep -q 'cannot connect' err.txt && ok || bad "refused message: $(cat err.txt)"
expect_rc 2 "not a URL" "$txc" list --remote "ftp://x"


# --input: a leading UTF-8 byte order mark is skipped; a broken first line is a line like any other
printf '\357\273\277' | cat - demo.jsonl > bom.jsonl
expect_rc 0 "BOM" "$txc" export --json --input bom.jsonl; cmp -s out.txt demo.jsonl && ok || bad "BOM: $(head -c 200 err.txt)"
printf '\357\273\277' | cat - one.json > bom.json
expect_rc 0 "BOM, one object" "$txc" convert "$id1" --to claude --input bom.json
"$txc" convert "$id1" --to claude --db demo.db | cmp -s - out.txt && ok || bad "BOM, one object converts differently"
{ echo '{"id": "broken", "messages": ['; cat demo.jsonl; } > badfirst.in
expect_rc 1 "broken first line" "$txc" list --input badfirst.in
expect_rc 0 "skip-bad, broken first line" "$txc" list --input badfirst.in --skip-bad --archived
grep -q 'skipped 1 malformed line' err.txt && [ "$(grep -c '^[0-9a-f]' out.txt)" = 3 ] && ok || bad "first line skipped: $(cat err.txt)"
cat bom.jsonl | "$txc" export --json --input /dev/stdin > b.out 2> err.txt; cmp -s b.out demo.jsonl && ok || bad "a pipe as --input: $(cat err.txt)"
mkdir -p adir
expect_rc 2 "a directory as --input" "$txc" list --input adir; one_line_err "directory"
grep -q "'adir' is a directory" err.txt && [ "$(wc -l < err.txt)" = 1 ] && ok || bad "directory message: $(cat err.txt)"

# the same export bytes read by --input and by --remote (the streaming parser) give the same session:
# a duplicated "messages" key (the last wins, as in Python) and an escaped key
m() { printf '{"id":%s,"session_id":"%s","role":"user","content":"%s","timestamp":1750000001.5}' "$1" "$2" "$3"; }
{
	printf '{"id": "dup", "source": "cli", "started_at": 1750000000.0, "title": "dup", "messages": [%s], "x": [], "messages": [%s, %s]}\n' \
		"$(m 1 dup 'first array')" "$(m 2 dup 'second array')" "$(m 3 dup 'second array, 2')"
	printf '{"id": "esc", "source": "cli", "started_at": 1750000000.0, "title": "esc", "messag\\u0065s": [%s]}\n' "$(m 4 esc 'escaped key')"
	printf '{"id": "nul", "source": "cli", "started_at": 1750000000.0, "messages": [%s], "last_active": 1750000009.0, "messages": null}\n' "$(m 5 nul 'replaced by null')"
} > raw.jsonl
start --token t --raw --data raw.jsonl
for id in dup esc nul; do
	for to in claude markdown hermes; do
		"$txc" convert $id --to $to --input raw.jsonl > a.out 2>&1
		"$txc" convert $id --to $to --remote "$url" --token t > b.out 2>&1
		cmp -s a.out b.out && { [ $to = claude ] || [ -s a.out ]; } && ok || bad "raw bytes, $id --to $to: --input and --remote differ: $(head -c 300 b.out)"
	done
done
"$txc" convert dup --to hermes --remote "$url" --token t > b.out 2>&1
grep -q 'second array, 2' b.out && ! grep -q 'first array' b.out && ok || bad "duplicate messages: not the last"
"$txc" convert esc --to hermes --remote "$url" --token t > b.out 2>&1; grep -q 'escaped key' b.out && ok || bad "escaped key dropped"
"$txc" convert nul --to hermes --remote "$url" --token t > b.out 2>&1
[ "$(grep -o '"messages"' b.out | wc -l)" = 1 ] && grep -q '"messages": \[\]' b.out && ok || bad "messages null: $(cat b.out)"
stop

# credentials in the URL are never printed; a query or fragment is refused (usage, exit 2)
start --token s3cret
expect_rc 2 "query in --remote" "$txc" list --remote "http://u:pw-SECRET1@127.0.0.1:$port/?token=q-SECRET2" --token s3cret
grep -q SECRET err.txt out.txt && bad "credentials printed: $(cat err.txt)" || ok
grep -q "(http://127.0.0.1:$port/)" err.txt && ok || bad "query message: $(cat err.txt)"
expect_rc 2 "fragment in --remote" "$txc" list --remote "http://127.0.0.1:$port/#f-SECRET3" --token s3cret
grep -q SECRET err.txt out.txt && bad "fragment printed: $(cat err.txt)" || ok
expect_rc 0 "user info in --remote" "$txc" list --remote "http://u:pw-SECRET1@127.0.0.1:$port/" --token s3cret --archived
[ "$(grep -c '^[0-9a-f]' out.txt)" -ge 3 ] && ok || bad "user info: no sessions: $(cat err.txt)"
expect_rc 1 "wrong token, user info" "$txc" list --remote "http://u:pw-SECRET1@127.0.0.1:$port" --token wrong
grep -q SECRET err.txt && bad "user info printed: $(cat err.txt)" || ok
grep -q "at http://127.0.0.1:$port " err.txt && ok || bad "wrong token message: $(cat err.txt)"
expect_rc 3 "unknown session, user info" "$txc" convert nosuch --to claude --remote "http://u:pw-SECRET1@127.0.0.1:$port" --token s3cret
grep -q SECRET err.txt && bad "user info printed: $(cat err.txt)" || ok
grep -q "127.0.0.1:$port" err.txt && ok || bad "not found message: $(cat err.txt)"
stop
expect_rc 1 "refused connection, user info" "$txc" list --remote "http://u:pw-SECRET1@127.0.0.1:$port/p@th" --token t
grep -q SECRET err.txt && bad "user info printed: $(cat err.txt)" || ok
grep -q "at http://127.0.0.1:$port/p@th" err.txt && ok || bad "refused message: $(cat err.txt)"

# a misbehaving dashboard: odd session ids, an export of another session, paging that never ends
start --token t --odd-ids
expect_rc 0 "odd ids" "$txc" list --remote "$url" --token t --archived --json
grep -q 'whose id cannot be asked for' err.txt && ok || bad "odd ids: no warning: $(cat err.txt)"
cp out.txt list.txt
grep -q -e '"id":"\."' -e '"id":"\.\."' list.txt && bad "'.' or '..' listed" || ok
for id in 'a/b' 'q?x' 'h#y' 'p%z' 'sp ace'; do
	grep -q "\"id\":\"$id\"" list.txt && ok || bad "odd id $id not listed"
	expect_rc 0 "odd id $id" "$txc" convert "$id" --to hermes --remote "$url" --token t
	grep -q "\"title\": \"odd $id\"" out.txt && ok || bad "odd id $id: another session: $(head -c 200 out.txt)"
done
expect_rc 3 "id '..'" "$txc" convert .. --to hermes --remote "$url" --token t
grep -q -e '/api/export' -e '/\.\./' -e '/\./' server.err && bad "'.' or '..' was asked for" || ok
stop
start --token t --wrong-export
expect_rc 1 "an export of another session" "$txc" convert "$id1" --to claude --remote "$url" --token t
grep -q 'another session' err.txt && [ ! -s out.txt ] && ok || bad "wrong export: $(cat err.txt)"
stop
start --token t --stuck --page-size 2
expect_rc 0 "a list that ignores offset" timeout 60 "$txc" list --remote "$url" --token t --archived
grep -q 'stopped paging after 4 sessions' err.txt && [ "$(grep -c '^[0-9a-f]' out.txt)" = 2 ] && ok || bad "stuck: $(cat err.txt)"
[ "$(grep -c 'GET /api/sessions?' server.err)" = 2 ] && ok || bad "stuck: $(grep -c 'GET /api/sessions?' server.err) pages"
stop
start --token t --growing --page-size 2
expect_rc 0 "a total that stays ahead" timeout 60 "$txc" list --remote "$url" --token t --archived
grep -q 'kept counting more sessions' err.txt && ok || bad "growing: $(cat err.txt)"
[ "$(grep -c 'GET /api/sessions?' server.err)" = 24 ] && ok || bad "growing: $(grep -c 'GET /api/sessions?' server.err) pages"
stop

# --remote: what a dashboard can get wrong, profiles, odd ids, the size cap
start --token t --bad-list
expect_rc 1 "session list not JSON" "$txc" list --remote "$url/" --token t
grep -q 'session list that is not the expected JSON' err.txt && [ ! -s out.txt ] && ok "list not JSON: said" || bad "list not JSON: $(cat err.txt)"
stop
start --token t --huge
expect_rc 1 "list over the size cap" "$txc" list --remote "$url" --token t
grep -q 'is larger than 67108864 bytes' err.txt && ok "size cap: said" || bad "size cap: $(cat err.txt)"
stop
start --token t --export-status 403
expect_rc 1 "export refused" "$txc" convert 7f3e --to claude --remote "$url" --token t
grep -q 'refused the session token (HTTP 403)' err.txt && [ ! -s out.txt ] && ok "export 403: said" || bad "export 403: $(cat err.txt)"
stop
start --token t --export-status 404
expect_rc 3 "export not found" "$txc" convert 7f3e --to claude --remote "$url" --token t
grep -q "no session '7f3e9a21'" err.txt && ok "export 404: said" || bad "export 404: $(cat err.txt)"
stop
start --token t --export-status 418
expect_rc 1 "export odd status" "$txc" convert 7f3e --to claude --remote "$url" --token t
grep -q 'answered HTTP 418' err.txt && ok "export 418: said" || bad "export 418: $(cat err.txt)"
stop
start --token t --bad-export 7f3e9a21
expect_rc 1 "export not JSON" "$txc" convert 7f3e --to claude --remote "$url" --token t
grep -q -e "invalid JSON for session '7f3e9a21'" -e "export of session '7f3e9a21' .* is not JSON" err.txt && [ ! -s out.txt ] && ok "export not JSON: said, nothing out" || bad "export not JSON: $(cat err.txt)"
stop
start --token t --profile work
expect_rc 0 "other profile: empty list" "$txc" list --remote "$url" --token t --json
[ "$(cat out.txt)" = "[]" ] && ok "the default profile of a dashboard serving work: no sessions" || bad "profile filter: $(head -c 200 out.txt)"
expect_rc 0 "--profile on --remote" "$txc" convert 7f3e --to hermes --remote "$url" --token t --profile work
grep -q '^{"id": "7f3e9a21"' out.txt && ok "--profile reaches the dashboard" || bad "--profile: $(head -c 200 out.txt)"
stop
start --token sq-token --page-quote "'"
expect_rc 0 "token in single quotes on the page" "$txc" list --remote "$url"
grep -q '^7f3e' out.txt && ok "single-quoted page token used" || bad "single-quoted token: $(cat err.txt)"
stop
start --token tok --page-quote none
expect_rc 1 "unquoted page token ignored" "$txc" list --remote "$url"
grep -q 'refused the session token (HTTP 401)' err.txt && ok "unquoted page token: not taken" || bad "unquoted token: $(cat err.txt)"
stop
start --token t
expect_rc 0 "trailing slashes on the URL" "$txc" list --remote "$url///" --token t --json
grep -q '"id":"7f3e9a21"' out.txt && ok "trailing slashes: the same dashboard" || bad "trailing slashes: $(cat err.txt)"
expect_rc 1 "https to a plain HTTP server" "$txc" list --remote "https://127.0.0.1:$port" --token t
one_line_err "https to plain HTTP"
stop
start --token t --hangup 2
expect_rc 0 "two dropped connections, then an answer" "$txc" list --remote "$url" --token t
grep -q '^7f3e' out.txt && ok "dropped connections: retried" || bad "hangup 2: $(cat err.txt)"
stop
start --token t --hangup 9
expect_rc 1 "every connection dropped" "$txc" list --remote "$url" --token t
grep -q 'was cut after 0 bytes; retry' err.txt && [ ! -s out.txt ] && ok "dropped connections: said after the retries" || bad "hangup 9: $(cat err.txt)"
stop
for c in "404:3:the session list: not found on the dashboard at " "500:1:the session list: the dashboard at " \
	"403:1:refused the session token (HTTP 403)"; do
	code=${c%%:*} rest=${c#*:}; want_rc=${rest%%:*} msg=${rest#*:}
	start --token t --list-status $code
	expect_rc $want_rc "session list answers $code" "$txc" list --remote "$url" --token t
	grep -qF "$msg" err.txt && grep -q "$code" err.txt && [ ! -s out.txt ] && ok "session list $code: said" || bad "session list $code: $(cat err.txt)"
	stop
done
start --token t --short-export 7f3e9a21
expect_rc 1 "an export that ends early" "$txc" convert 7f3e --to claude --remote "$url" --token t
grep -q "the export of session '7f3e9a21' from .* ended early or is not JSON; retry" err.txt && [ ! -s out.txt ] && ok "short export: said, nothing out" || bad "short export: $(cat err.txt)"
stop
start --token t --no-page
expect_rc 1 "no page to take the token from" "$txc" list --remote "$url"
grep -q 'refused the session token (HTTP 401)' err.txt && ok "no page: the API says no token" || bad "no page: $(cat err.txt)"
stop
# ids a URL must carry: an integer, characters that mean something in a URL; no id at all
printf '%s\n' '{"id": 42, "source": "cli", "started_at": 1.0, "messages": [{"role": "user", "content": "int id", "timestamp": 2.0}]}' \
	'{"id": "", "source": "cli", "started_at": 3.0, "messages": []}' \
	'{"id": "a/b?c#d%e f", "source": "cli", "started_at": 5.0, "messages": [{"role": "user", "content": "odd", "timestamp": 6.0}]}' > odd.jsonl
python3 "$src/tools/dashboard.py" --data odd.jsonl --token t > port.txt 2> server.err &
server=$!
i=0; while [ ! -s port.txt ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
url=http://127.0.0.1:$(head -n 1 port.txt)
expect_rc 0 "odd ids listed" "$txc" list --remote "$url" --token t
grep -q '^a/b?c#d%e f ' out.txt && grep -q '^42 ' out.txt && grep -q '^no-id~' out.txt && ok "odd ids: all listed" || bad "odd ids: $(cat out.txt)"
expect_rc 0 "integer id" "$txc" convert 42 --to markdown --remote "$url" --token t
grep -q 'int id' out.txt && ok "integer id: its session" || bad "integer id: $(head -c 200 out.txt)"
expect_rc 0 "id with / ? # % and a space" "$txc" convert 'a/b?c#d%e f' --to hermes --remote "$url" --token t
grep -q '^{"id": "a/b?c#d%e f", .*"odd"' out.txt && ok "URL characters in an id: escaped on the way" || bad "odd id: $(head -c 200 out.txt)"
expect_rc 1 "an empty id cannot be fetched" "$txc" export --to hermes --out oddout --remote "$url" --token t
grep -q 'id that cannot be put in a URL' err.txt && [ -s oddout/42_2a1dc252.jsonl ] && ok "empty id: said, the others exported" ||
	bad "empty id: $(cat err.txt; ls oddout)"
stop

# a dashboard whose list has no "total" (older ones): paging goes on to an empty page
start --token t --page-size 2
"$txc" list --remote "$url" --token t --archived > all.txt 2> err.txt
stop
start --token t --no-total --page-size 2
expect_rc 0 "a list without total" "$txc" list --remote "$url" --token t --archived
[ "$(grep -c '^[0-9a-f]' out.txt)" -ge 3 ] && cmp -s out.txt all.txt && ok "no total: every page read" ||
	bad "no total: $(grep -c '^[0-9a-f]' out.txt) sessions listed, want $(grep -c '^[0-9a-f]' all.txt)"
stop

# credentials in a --remote that is refused before any request are never printed (the whole argument was echoed)
for u in 'ftp://u:PASSW@127.0.0.1/?token=SECRETQ' 'HTTP://u:PASSW@127.0.0.1:1/' 'u:PASSW@127.0.0.1:1' 'http://u:PASSW@127.0.0.1:1/?token=SECRETQ#F'; do
	expect_rc 2 "refused --remote $u" "$txc" list --remote "$u"
	one_line_err "refused --remote"
	grep -q 'PASSW\|SECRETQ' err.txt && bad "a refused --remote printed its credentials: $(cat err.txt)" || ok "refused --remote: no credentials"
	grep -q -- '--remote: --remote' err.txt && bad "the flag named twice: $(cat err.txt)" || ok
done

# --input: a file rewritten in place while txc reads it never gives one session's content under another's id
# (3,000 sessions, 300 under valgrind, which reads them as slowly as the plain txc reads 3,000:
# as many rewrites happen while it reads)
nchg=3000 && [ -n "${TXC_MEMCHECK:-}" ] && nchg=300
python3 -c "
for i in range($nchg): print('{\"id\": \"s%04d\", \"source\": \"cli\", \"started_at\": %d, \"messages\": [{\"role\": \"user\", \"content\": \"body of s%04d\", \"timestamp\": %d}]}' % (i, 1000 + i, i, 1000 + i))" > chgA.jsonl
sed '1!G;h;$!d' chgA.jsonl > chgB.jsonl; cp chgA.jsonl chg.jsonl
(while :; do dd if=chgB.jsonl of=chg.jsonl conv=notrunc status=none; dd if=chgA.jsonl of=chg.jsonl conv=notrunc status=none; done) &
writer=$!
rm -rf chgout; "$txc" export --to hermes --out chgout --input chg.jsonl > /dev/null 2> err.txt
kill $writer; wait $writer 2> /dev/null
wrong=0; for f in chgout/s*.jsonl; do [ -e "$f" ] || continue; grep -q "\"id\": \"$(basename "$f" | cut -c1-5)\"" "$f" || wrong=$((wrong + 1)); done
[ "$wrong" = 0 ] && ok "a file changed while read: no session under another's id" || bad "a file changed while read: $wrong files hold another session"
rm -rf chgout chgA.jsonl chgB.jsonl chg.jsonl

# an option of another source is refused, not silently ignored
expect_rc 2 "--skip-bad without --input" "$txc" list --db demo.db --skip-bad
grep -q -- '--skip-bad works with --input only' err.txt && ok || bad "--skip-bad without --input: $(cat err.txt)"
expect_rc 2 "--token without --remote" "$txc" list --input demo.jsonl --token t
grep -q -- '--token works with --remote only' err.txt && ok || bad "--token without --remote: $(cat err.txt)"
expect_rc 2 "--timeout without --remote" "$txc" convert x --to hermes --db demo.db --timeout 5
grep -q -- '--timeout works with --remote only' err.txt && ok || bad "--timeout without --remote: $(cat err.txt)"

# a broken first line is named like any other bad line, with the way past it (the man page says so)
{ echo '{broken'; cat demo.jsonl; } > badfirst.txt
expect_rc 1 "a broken first line" "$txc" list --input badfirst.txt
one_line_err "a broken first line"
grep -q 'line 1 is not a session; fix it or pass --skip-bad' err.txt && ok || bad "broken first line: $(cat err.txt)"
expect_rc 0 "a broken first line, --skip-bad" "$txc" list --input badfirst.txt --skip-bad --json --archived
[ "$(grep -c '"id"' out.txt)" = "$(wc -l < demo.jsonl)" ] && grep -q 'skipped 1 malformed line' err.txt && ok || bad "--skip-bad line 1: $(cat err.txt)"

# an error quoting a name with a line break is still one line on a pipe (a log reads it as two messages)
expect_rc 3 "a file name with a line break" "$txc" list --input "$(printf 'no\nsuch\rfile')"
[ "$(wc -l < err.txt)" = 1 ] && grep -q "cannot open 'no\\\\nsuch\\\\rfile'" err.txt && ok || bad "line break in a message: $(cat -A err.txt)"

# a session token with a line break would add request headers of its own: refused, never sent
start --token t
expect_rc 2 "a token with CR LF" env "HERMES_DASHBOARD_SESSION_TOKEN=$(printf 't\r\nX-Evil: 1')" "$txc" list --remote "$url"
grep -q 'session token given holds control characters' err.txt && ok || bad "token with CR LF: $(cat err.txt)"
stop

# an option before the command: the message says where it goes
expect_rc 2 "an option before the command" "$txc" --input demo.jsonl list
grep -q "options go after the command: 'txc list --input ...'" err.txt && ok || bad "option before the command: $(cat err.txt)"

# a redirect is not followed (the token would go wherever it points): said with its status
start --token t --list-status 302
expect_rc 1 "session list redirected" "$txc" list --remote "$url" --token t
[ "$(cat err.txt)" = "txc: error: the session list: the dashboard at $url answered HTTP 302" ] && [ ! -s out.txt ] &&
	[ "$(grep -c 'GET /api/sessions?' server.err)" = 1 ] && ok "302: said, not followed" || bad "302: $(cat err.txt)"
stop
start --token t --export-status 301
expect_rc 1 "export redirected" "$txc" convert 7f3e --to hermes --remote "$url" --token t
[ "$(cat err.txt)" = "txc: error: a session export: the dashboard at $url answered HTTP 301" ] && [ ! -s out.txt ] &&
	ok "301: said, not followed" || bad "301: $(cat err.txt)"
stop

# --input that cannot be read or kept: one line each, nothing written, the input unchanged
expect_rc 1 "--input under a file" "$txc" list --input /etc/passwd/x
[ "$(cat err.txt)" = "txc: error: cannot open '/etc/passwd/x': Not a directory" ] && [ ! -s out.txt ] && ok || bad "$(cat err.txt)"
# (valgrind keeps its own files in $TMPDIR: under memcheck's wrapper these two cannot run)
if [ "$(head -c 4 "$txc" | tail -c 3)" = ELF ]; then
	expect_rc 1 "--input - without a temporary folder" env TMPDIR=/nonexistent "$txc" list --input - < demo.jsonl
	[ "$(cat err.txt)" = "txc: error: cannot keep standard input in a temporary file: No such file or directory" ] && [ ! -s out.txt ] &&
		ok || bad "$(cat err.txt)"
	cat demo.jsonl | TMPDIR=/nonexistent "$txc" list --input /dev/stdin > out.txt 2> err.txt
	[ "$(cat err.txt)" = "txc: error: cannot keep standard input in a temporary file: No such file or directory" ] && [ ! -s out.txt ] &&
		ok "a pipe as --input without a temporary folder: said" || bad "pipe, no TMPDIR: $(cat err.txt)"
else
	skip "--input - without a temporary folder" "valgrind needs \$TMPDIR"
	skip "a pipe as --input without a temporary folder" "valgrind needs \$TMPDIR"
fi
expect_rc 1 "--input - from a directory" "$txc" list --input - < adir
[ "$(cat err.txt)" = "txc: error: cannot read standard input: Is a directory" ] && ok || bad "$(cat err.txt)"
cp demo.jsonl same.jsonl
"$txc" export --json --input same.jsonl >> same.jsonl 2> err.txt
[ $? = 4 ] && [ "$(cat err.txt)" = "txc: error: refusing to write to standard output: it is 'same.jsonl', which txc is reading" ] &&
	cmp -s same.jsonl demo.jsonl && ok "stdout appending to the --input file: refused (exit 4), the file unchanged" ||
	bad "stdout to the input: $(cat err.txt)"
# a --remote whose message is longer than a diagnostic: cut, still one line, still naming the flag
long_path=$(head -c 3000 /dev/zero | tr '\0' a)
expect_rc 2 "a 3,000-byte --remote with a query" "$txc" list --remote "http://127.0.0.1:1/$long_path?q=1"
[ "$(wc -l < err.txt)" = 1 ] && grep -q "^txc: error: --remote: the dashboard's address takes no '?' or '#' (http://127.0.0.1:1/aaaa" err.txt &&
	[ "$(wc -c < err.txt)" -le 1040 ] && ok "long --remote: one line, cut" || bad "long --remote: $(head -c 200 err.txt)"

summary remote
[ "$fails" = 0 ]
