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

# compacted rows are loaded for the numbers but never written: a call left open at the end is
# closed at the time of the last message written, not at an archived row's
cat > open.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_call_id TEXT,
  tool_calls TEXT, timestamp REAL NOT NULL, active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);
INSERT INTO sessions VALUES ('open', 'cli', 1767323000, '/tmp');
INSERT INTO messages VALUES (1, 'open', 'user', 'go', NULL, NULL, 1767323001, 1, 0),
 (2, 'open', 'assistant', '', NULL, '[{"id": "a", "type": "function", "function": {"name": "x", "arguments": "{}"}}, {"id": "b", "type": "function", "function": {"name": "x", "arguments": "{}"}}]', 1767323002, 1, 0),
 (3, 'open', 'tool', 'ra', 'a', NULL, 1767323003, 1, 0),
 (4, 'open', 'user', 'archived', NULL, NULL, 1767322000, 0, 1);
SQL
"$mkdb" open.db open.sql || exit 1
expect_rc 0 "claude: an open call, compacted history last" "$txc" convert open --db open.db --to claude
grep '"tool_use_id":"b"' out.txt | grep -q '"timestamp":"2026-01-02T03:03:23.000Z"' && ! grep -q archived out.txt && ok ||
	bad "open call closed at: $(grep -o '"timestamp":"[^"]*"' out.txt | tr '\n' ' ')"

# ---- ranges: the four forms, every writer ----
heads() { grep -o '^## #[0-9]*' out.txt | tr -d '# ' | tr '\n' ' '; }
expect_rc 0 "markdown #8-10" "$txc" convert 'r1234#8-10' --db r.db --to markdown --utc
[ "$(heads)" = "8 9 10 " ] && grep -qx 'range: "8-10"' out.txt && [ ! -s err.txt ] && ok || bad "8-10: $(heads) $(cat err.txt)"
expect_rc 0 "markdown #-2 (the last two)" "$txc" convert 'r1234#-2' --db r.db --to markdown --utc
[ "$(heads)" = "9 10 " ] && ok || bad "-2: $(heads)"
expect_rc 0 "markdown #8- (to the end), by an id prefix" "$txc" convert 'r12#8-' --db r.db --to markdown --utc
[ "$(heads)" = "8 9 10 " ] && ok || bad "8-: $(heads)"
expect_rc 0 "markdown #1 (one message)" "$txc" convert 'r1234#1' --db r.db --to markdown --utc
[ "$(heads)" = "1 " ] && grep -qx 'messages: 1' out.txt && ok || bad "#1: $(heads)"
expect_rc 0 "hermes #8-9" "$txc" convert 'r1234#8-9' --db r.db --to hermes
json_ok out.txt && [ "$(grep -o '"id": [0-9]*, "session_id"' out.txt | sed 's/[^0-9]//g' | tr '\n' ' ')" = "8 9 " ] &&
	"$txc" convert r1234 --db r.db --to hermes | sed 's/, "messages": \[.*//' > whole-head.txt && sed 's/, "messages": \[.*//' out.txt | cmp -s - whole-head.txt &&
	ok "hermes range: the export's session columns, only rows 8 and 9" || bad "hermes 8-9: $(cat out.txt)"
expect_rc 0 "claude #8-10" "$txc" convert 'r1234#8-10' --db r.db --to claude
json_ok out.txt && grep -q '"text":"after tools gamma"' out.txt && grep -q '"text":"final epsilon"' out.txt &&
	! grep -q 'reply beta\|start alpha' out.txt && ok "claude range: only those messages" || bad "claude 8-10: $(cut -c1-200 out.txt)"
sid_whole=$("$txc" convert r1234 --db r.db --to claude | grep -o '"sessionId":"[^"]*"' | head -n 1)
grep -qF "$sid_whole" out.txt && bad "a range has the whole session's Claude id" || ok "a range is a Claude session of its own (its own uuid)"
expect_rc 0 "install the whole session" env CLAUDE_CONFIG_DIR="$work/cc" "$txc" convert r1234 --db r.db --to claude --install
expect_rc 0 "install a range beside it" env CLAUDE_CONFIG_DIR="$work/cc" "$txc" convert 'r1234#8-' --db r.db --to claude --install
[ "$(ls cc/projects/-tmp/*.jsonl | wc -l)" = 2 ] && ok "a range installs as its own session, the whole one untouched" || bad "install: $(ls -R cc)"

# ---- a range never parts a tool call from its results ----
expect_rc 0 "mid tool pair, markdown" "$txc" convert 'r1234#6' --db r.db --to markdown --utc
[ "$(heads)" = "5 " ] && grep -qF '<summary>#6 · ok' out.txt && grep -qF '<summary>#7 · ok' out.txt && ok || bad "#6: $(heads)"
[ "$(wc -l < err.txt)" = 1 ] && grep -qx 'txc: warning: range 6-6 taken as messages 5-7: widened so that no tool call is parted from its result' err.txt &&
	ok "widening said in one warning line" || bad "widening: $(cat err.txt)"
expect_rc 0 "mid tool pair, hermes (streamed)" "$txc" convert 'r1234#4-6' --db r.db --to hermes
[ "$(grep -o '"id": [0-9]*, "session_id"' out.txt | sed 's/[^0-9]//g' | tr '\n' ' ')" = "4 5 6 7 " ] && grep -q 'widened' err.txt && ok || bad "hermes 4-6: $(cat out.txt err.txt)"
expect_rc 0 "mid tool pair, claude" "$txc" convert 'r1234#5' --db r.db --to claude
[ "$(grep -c '"type":"tool_result"' out.txt)" = 2 ] && ! grep -q 'interrupted\|No result' out.txt && ok "claude: both results kept" || bad "claude #5: $(cat out.txt)"
if [ -n "${CLAUDE_CHECK:-}" ]; then "$CLAUDE_CHECK" out.txt > cc.txt 2>&1 && ok "claude-check: a range" || bad "claude-check: $(head -n 3 cc.txt)"; fi
expect_rc 0 "tools fixture #4-9: calls before and results after" "$txc" convert 'tools#4-9' --db feat.db --to markdown --utc
[ "$(heads)" = "2 6 9 " ] && ok || bad "tools 4-9: $(heads)"
expect_rc 0 "end past the last message" "$txc" convert 'r1234#9-99' --db r.db --to markdown --utc
[ "$(heads)" = "9 10 " ] && grep -qx 'txc: warning: range 9-99 taken as messages 9-10: the session ends at message 10' err.txt && ok || bad "9-99: $(heads) $(cat err.txt)"
expect_rc 0 "-N beyond the session: all of it" "$txc" convert 'r1234#-500' --db r.db --to markdown --utc
[ "$(heads)" = "1 3 5 8 9 10 " ] && [ ! -s err.txt ] && ok || bad "-500: $(heads)"
expect_rc 0 "-o with a range" "$txc" convert 'r1234#9' --db r.db --to markdown -o 'part#9.md'
grep -q '^## #9 · User' 'part#9.md' && ok || bad "-o part: $(ls)"

# ---- edge cases: one clear line, exit 2 ----
for c in 'r1234#:empty' 'r1234#0:message 0 does not exist' 'r1234#40-12:its end comes before its start' \
	'r1234#0-3:message 0 does not exist' 'r1234#-0:message 0 does not exist' 'r1234#x:not a number' 'r1234#5x:not a number' \
	'r1234#1-2-3:not a number' 'r1234#11:message 11 is past the end: the session has 10 messages' \
	'r1234#11-:message 11 is past the end' 'r1234#4:message 4: nothing to convert' \
	'r1234#2:history archived by compaction' 'nosuch#x:not a number'; do
	arg=${c%%:*} msg=${c#*:}
	for to in markdown hermes claude; do
		expect_rc 2 "convert '$arg' --to $to" "$txc" convert "$arg" --db r.db --to "$to"
		grep -qF -- "$msg" err.txt && [ "$(wc -l < err.txt)" = 1 ] && [ ! -s out.txt ] && ok || bad "$arg: $(cat err.txt)"
	done
done
expect_rc 0 "a compacted message with --include-compacted" "$txc" convert 'r1234#2' --db r.db --to markdown --include-compacted --utc
[ "$(heads)" = "2 " ] && ok || bad "#2 compacted: $(heads)"
expect_rc 3 "an unknown session with a good range" "$txc" convert 'nosuch#3' --db r.db --to markdown
# an id holding '#' is still found whole when what follows is not a range
printf "INSERT INTO sessions VALUES ('odd#id', 'cli', 'm', 1767323000, '/tmp', 'Odd');\nINSERT INTO messages (session_id, role, content, timestamp) VALUES ('odd#id', 'user', 'hi odd', 1767323001);\n" > odd.sql
cat r.sql odd.sql > r2.sql && "$mkdb" r2.db r2.sql || exit 1
expect_rc 0 "an id with # in it" "$txc" convert 'odd#id' --db r2.db --to markdown --utc
grep -q 'hi odd' out.txt && ok || bad "odd#id: $(cat err.txt)"
expect_rc 0 "an id with # in it, and a range" "$txc" convert 'odd#id#1' --db r2.db --to markdown --utc
[ "$(heads)" = "1 " ] && ok || bad "odd#id#1: $(cat err.txt)"

# ---- signed reasoning: every Anthropic-signed block's text and signature byte for byte, in order ----
"$mkdb" rs.db "$src/fixtures/reasoning.sql" || exit 1
cat > signed.py <<'PY'
import json, sqlite3, sys
anth = lambda it: str(it.get("format", "")).startswith("anthropic")
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
want, got = [], []
for (d,) in db.execute("SELECT reasoning_details FROM messages WHERE reasoning_details IS NOT NULL AND id BETWEEN ? AND ? ORDER BY id", (int(sys.argv[3]), int(sys.argv[4]))):
    for it in json.loads(d):
        t = it.get("type")
        if t == "thinking" and it.get("signature") or t == "reasoning.text" and it.get("signature") and anth(it):
            want.append(("thinking", it.get("thinking", it.get("text")), it["signature"]))
        elif t == "redacted_thinking" or t == "reasoning.encrypted" and anth(it):
            want.append(("redacted_thinking", it["data"], None))
for line in open(sys.argv[2], encoding="utf-8"):
    for b in (json.loads(line).get("message") or {}).get("content") or []:
        if isinstance(b, dict) and b.get("type") == "thinking" and "signature" in b:
            got.append(("thinking", b["thinking"], b["signature"]))
        elif isinstance(b, dict) and b.get("type") == "redacted_thinking":
            got.append(("redacted_thinking", b["data"], None))
print(len(want), len(got))
sys.exit(0 if got == want and want else 1)
PY
expect_rc 0 "signed reasoning to claude" "$txc" convert signed --db rs.db --to claude
python3 signed.py rs.db out.txt 1 99 > py.txt && grep -qx '5 5' py.txt && ok "claude: 5 signed/redacted blocks, text and signature as stored" || bad "signed: $(cat py.txt)"
grep -q '"text":"Reasoning:\\n\\nOther provider text."}' out.txt && ! grep -q '"thinking":"Other provider text."' out.txt &&
	ok "unsigned reasoning: text by default (--reasoning auto)" || bad "unsigned auto: $(grep -o '"text":"Reasoning[^"]*"' out.txt)"
expect_rc 0 "signed reasoning to claude, --reasoning keep" "$txc" convert signed --db rs.db --to claude --reasoning keep
python3 signed.py rs.db out.txt 1 99 > py.txt && grep -qx '5 5' py.txt && ok "keep: 5 signed/redacted blocks, text and signature as stored" || bad "signed keep: $(cat py.txt)"
grep -q '"thinking":"Other provider text."}' out.txt && grep -q '"thinking":"Streamed reasoning, no details."}' out.txt &&
	ok "keep: unsigned reasoning stays unsigned thinking" || bad "unsigned: $(grep -o '"thinking":"[^"]*"[^}]*}' out.txt)"
if [ -n "${CLAUDE_CHECK:-}" ]; then "$CLAUDE_CHECK" out.txt > cc.txt 2>&1 && ok "claude-check: signed and unsigned reasoning" || bad "claude-check: $(head -n 3 cc.txt)"; fi
expect_rc 0 "signed reasoning, a range" "$txc" convert 'signed#3-4' --db rs.db --to claude
python3 signed.py rs.db out.txt 2 4 > py.txt && grep -qx '5 5' py.txt && [ "$(grep -c '"type":"assistant"' out.txt)" = 2 ] && ok "a range keeps the signed blocks of its (widened) turns" || bad "signed range: $(cat py.txt err.txt)"
if [ -n "${CLAUDE_CHECK:-}" ]; then "$CLAUDE_CHECK" out.txt > cc.txt 2>&1 && ! grep -q 'rejected a request' cc.txt && ok "claude-check: only signed thinking, first request accepted" || bad "claude-check: $(head -n 3 cc.txt)"; fi

summary range
[ "$fails" = 0 ]
