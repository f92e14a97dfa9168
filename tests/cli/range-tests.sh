#!/bin/sh
# Message numbers and ranges: search's ID#N is the Markdown's #N (with and without an index);
# convert ID#RANGE in every format, widened around tool pairs, edge cases refused; signed
# reasoning carried byte for byte to Claude.
# usage: range-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"

"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1
# the same rows with Hermes's external-content index: numbers come from SQL there, not a scan
{ cat "$src/fixtures/features.sql"
  echo "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id);"
  echo "INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');"; } > featfts.sql
"$mkdb" featfts.db featfts.sql || exit 1

# section N of a Markdown file: from its "## #N ·" heading or "<summary>#N ·" to the next numbered mark
section() { # file n
	awk -v n="$2" '/^## #[0-9]+ · |<summary>#[0-9]+ · / { s = $0; sub(/^(## |<details><summary>)#/, "", s); sub(/ .*/, "", s); on = (s == n) } on' "$1"
}
# every hit of every query: its marked word is in section N of its session's Markdown
for db in feat.db featfts.db; do
	n_hits=0 misses=""
	for q in line ok edited orphan compaction greeting Done bytes_written Bonjour error Thanks run line2 look veut int found; do
		"$txc" search "$q" --db "$db" --limit 1000 2> /dev/null | sed -n 's/^  \([^ ]*\)#\([0-9][0-9]*\)  .*>>>\([^<]*\)<<<.*/\1 \2 \3/p' > hits.txt
		while read -r sid n word; do
			n_hits=$((n_hits + 1))
			[ -f "$sid.$db.md" ] || "$txc" convert "$sid" --db "$db" --to markdown --utc --detail full --include-compacted > "$sid.$db.md"
			section "$sid.$db.md" "$n" | grep -qiF -- "$word" || misses="$misses $sid#$n:$word"
		done < hits.txt
	done
	[ "$n_hits" -ge 15 ] && [ -z "$misses" ] && ok "$db: all $n_hits search hits are in their Markdown section #N" ||
		bad "$db: $n_hits hits; not in section #N:$misses"
done
grep -qx '## #14 · User · 2026-01-02 03:04:00 UTC · \*archived by compaction\*' tools.feat.db.md &&
	grep -qF '<details><summary>#11 · ok · 1 line</summary>' tools.feat.db.md && ok "numbers on headings and on results shown under their call" ||
	bad "numbered headings: $(grep -n '#1[14] ' tools.feat.db.md)"
# r: a compacted row (2) and a blank one (4) in the middle keep their numbers; a rewound one has none
cat > r.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, cwd TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
  tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, finish_reason TEXT,
  active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);
INSERT INTO sessions VALUES ('r1234', 'cli', 'claude-sonnet-4-5', 1767323000, '/tmp', 'Ranges');
INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, finish_reason, active, compacted) VALUES
 ('r1234', 'user', 'start alpha', NULL, NULL, NULL, 1767323001, NULL, 1, 0),
 ('r1234', 'user', 'old compacted words', NULL, NULL, NULL, 1767323002, NULL, 0, 1),
 ('r1234', 'assistant', 'reply beta', NULL, NULL, NULL, 1767323003, 'stop', 1, 0),
 ('r1234', 'user', '   ', NULL, NULL, NULL, 1767323004, NULL, 1, 0),
 ('r1234', 'assistant', 'calling', NULL, '[{"id": "t1", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"ls\"}"}}, {"id": "t2", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"/tmp/x\"}"}}]', NULL, 1767323005, 'tool_calls', 1, 0),
 ('r1234', 'tool', 'result one', 't1', NULL, 'terminal', 1767323006, NULL, 1, 0),
 ('r1234', 'tool', 'result two', 't2', NULL, 'read_file', 1767323007, NULL, 1, 0),
 ('r1234', 'assistant', 'after tools gamma', NULL, NULL, NULL, 1767323008, 'stop', 1, 0),
 ('r1234', 'user', 'question delta', NULL, NULL, NULL, 1767323009, NULL, 1, 0),
 ('r1234', 'assistant', 'rewound away', NULL, NULL, NULL, 1767323010, 'stop', 0, 0),
 ('r1234', 'assistant', 'final epsilon', NULL, NULL, NULL, 1767323011, 'stop', 1, 0);
SQL
"$mkdb" r.db r.sql || exit 1
expect_rc 0 "markdown without compacted rows" "$txc" convert r1234 --db r.db --to markdown --utc
[ "$(grep -o '^## #[0-9]* · [A-Za-z]*' out.txt | tr '\n' ' ')" = "## #1 · User ## #3 · Assistant ## #5 · Assistant ## #8 · Assistant ## #9 · User ## #10 · Assistant " ] &&
	grep -qF '<summary>#7 · ok' out.txt && ok "compacted and blank rows keep their numbers, a rewound one has none" || bad "numbers: $(grep -n '#[0-9]' out.txt)"
expect_rc 0 "search in r" "$txc" search epsilon --db r.db
grep -q '^  r1234#10  assistant' out.txt && ok || bad "search number: $(cat out.txt)"

summary range
[ "$fails" = 0 ]
