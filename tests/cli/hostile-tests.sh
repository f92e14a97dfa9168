#!/bin/sh
# Hostile rows: every command on every session of tests/fixtures/hostile-rows.sql ends
# normally, every JSON output is strict UTF-8 JSON, and nothing is silently dropped.
# usage: hostile-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" h.db "$src/fixtures/hostile-rows.sql" || exit 1
sum=$(cksum < h.db)

"$txc" export --json --db h.db > all.jsonl 2> err.txt && ok || bad "export: $(cat err.txt)"
json_ok all.jsonl && ok || bad "export is not strict JSON"
[ "$(wc -l < all.jsonl)" = 7 ] && ok || bad "export lines: $(wc -l < all.jsonl), want 7 (NULL and BLOB ids too)"
grep -q '^{"id": null, ' all.jsonl && grep -q '^{"id": {"\$blob_hex": "00ff"}, ' all.jsonl && ok || bad "NULL/BLOB ids not exported as they are"
grep -q 'warning: 1 session has no id' err.txt && ok || bad "a session without an id not warned about"
"$txc" list --archived --json --db h.db > list.json 2> err.txt && json_ok list.json && ok || bad "list --json"
"$txc" list --db h.db > list.txt 2> err.txt && head -n 1 list.txt | grep -q '^ID ' && grep -q '^values ' list.txt && grep -q '^calls ' list.txt && ok "list: the table" || bad "list: $(cat err.txt)"
grep -q "$(printf '\033')" list.txt && bad "raw escape in the list" || ok

for id in values huge calls deep; do
	for to in claude hermes; do
		"$txc" convert $id --to $to --db h.db > $id.$to.jsonl 2> err.txt && ok || bad "$id --to $to: $(cat err.txt)"
		json_ok $id.$to.jsonl && ok || bad "$id --to $to is not strict JSON"
	done
	"$txc" convert $id --to markdown --db h.db > $id.md 2> err.txt && grep -q "^id: \"$id\"\$" $id.md && ok "$id --to markdown" || bad "$id --to markdown: $(cat err.txt)"
	"$txc" artifacts $id --json --db h.db > $id.art.json 2> err.txt && json_ok $id.art.json && ok || bad "$id artifacts"
done
# the odd-id session by prefix; the NUL/control id can be named
"$txc" convert 'x/../' --to claude --db h.db > odd.jsonl 2> err.txt && json_ok odd.jsonl && ok || bad "odd id: $(cat err.txt)"
grep -q 'json:{not json' odd.jsonl && ok || bad "invalid sentinel JSON dropped instead of kept as text"
grep -q 'tool calls stored as text that is not JSON' values.claude.jsonl && grep -q 'tool calls stored as text' values.md &&
	ok || bad "undecodable tool_calls dropped"
grep -q '"tool_calls": \[\], "tool_name"' values.hermes.jsonl && ok || bad "Hermes export of undecodable tool_calls is not []"

# nothing silently dropped
[ "$(grep -o '"type":"tool_use"' calls.claude.jsonl | wc -l)" = 100000 ] && ok || bad "100,000 calls: $(grep -o '"type":"tool_use"' calls.claude.jsonl | wc -l)"
[ "$(grep -c '"is_error":true' calls.claude.jsonl)" -ge 1 ] && ok || bad "unanswered calls not marked"
[ "$(wc -c < huge.md)" -gt 67108864 ] && ok || bad "64 MB content cut in Markdown: $(wc -c < huge.md)"
[ "$(wc -c < huge.claude.jsonl)" -gt 67108864 ] && ok || bad "64 MB content cut in Claude JSONL"
grep -q '123456789012345678901234567890' values.claude.jsonl && ok || bad "big integer lost its digits"
grep -q '"f":1.0' values.claude.jsonl && ok || bad "1.0 lost its text"
tid=$(sed -n 's/.*"type":"tool_use","id":"\([^"]*\)".*/\1/p' values.claude.jsonl | head -n 1)
echo "$tid" | grep -q '^[A-Za-z0-9_-]*passwd[A-Za-z0-9_-]*$' && grep -q "\"tool_use_id\":\"$tid\"" values.claude.jsonl &&
	ok || bad "odd tool id not mapped consistently: '$tid'"
[ "$(cksum < h.db)" = "$sum" ] && ok || bad "the store changed"

# ---- artifacts stay linear: 400,000 "[a](" (each '[' scanned the rest: 9 s at 50,000), 200,000 "!["
# and 200,000 distinct paths (each compared with every earlier one); now well under a second
awk 'BEGIN {
	print "CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL, cwd TEXT);"
	print "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);"
	print "INSERT INTO sessions VALUES (\"big\", \"cli\", 1767225600, \"/tmp\");"
	printf "INSERT INTO messages (session_id, role, content, timestamp) VALUES (\"big\", \"assistant\", \""
	for (i = 0; i < 400000; i++) printf "[a]("
	printf "\", 1), (\"big\", \"assistant\", \""
	for (i = 0; i < 200000; i++) printf "!["
	printf "\", 2), (\"big\", \"assistant\", \""
	for (i = 0; i < 200000; i++) printf "/tmp/f%d.png ", i
	print "\", 3);"
}' > big.sql
"$mkdb" big.db big.sql || exit 1
timeout 20 "$txc" artifacts big --db big.db > art.txt 2> err.txt && ok || bad "artifacts of a big session: not done in 20 s ($(cat err.txt))"
[ "$(grep -c '/tmp/f[0-9]*\.png' art.txt)" = 200000 ] && ok || bad "artifacts: $(grep -c png art.txt) of 200000 paths"

# ---- a big manifest is read and used in linear time: 150,000 entries of other sessions (each
# line looked its path up among all before it: over 100 s at 200,000); now about a second
rm -rf bigman && mkdir bigman
awk 'BEGIN { for (i = 0; i < 150000; i++) printf "{\"session_id\":\"o%d\",\"path\":\"o%d.md\",\"format\":\"markdown\",\"messages\":1,\"bytes\":1,\"sha256\":\"%064d\",\"exported_at\":\"2026-01-01T00:00:00Z\"}\n", i, i, 0 }' > bigman/manifest.jsonl
timeout 20 "$txc" export --to markdown --out bigman --db big.db > out.txt 2> err.txt && ok || bad "a 150,000-entry manifest: not done in 20 s ($(cat err.txt))"
[ "$(wc -l < bigman/manifest.jsonl)" = 150001 ] && grep -q '"path":"big.md"' bigman/manifest.jsonl && ok || bad "big manifest: $(wc -l < bigman/manifest.jsonl) entries, want 150001"

summary hostile
[ "$fails" = 0 ]
