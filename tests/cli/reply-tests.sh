#!/bin/sh
# Replies stored outside `content` (issue 26 §1) reach every output and command: Markdown, HTML,
# the terminal view and --follow, Claude Code JSONL, search (each index layout and a scan, equal),
# artifacts, ranges, --lineage, an export file read back, the Claude round trip; and search through
# Hermes's index finds what a scan of the same rows finds, "\0json:" rows included (issue 27 item 9).
# Fixture: tests/fixtures/reply.sql.
# usage: reply-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
command -v python3 > /dev/null || { echo "reply-tests: python3 is required"; exit 1; }
export TZ=UTC
unset HERMES_HOME
"$mkdb" r.db "$src/fixtures/reply.sql" || exit 1

# section N of a Markdown file: from its "## #N ·" heading to the next one
section() { # file n
	awk -v n="$2" '/^## #[0-9]+ · / { s = $0; sub(/^## #/, "", s); sub(/ .*/, "", s); on = (s == n) } on' "$1"
}
has() { # desc file word...: every word is in the file
	d=$1 f=$2; shift 2
	for w; do grep -qF -- "$w" "$f" || { bad "$d: '$w' missing"; return; }; done
	ok "$d"
}
lacks() { # desc file word...: no word is in the file
	d=$1 f=$2; shift 2
	for w; do ! grep -qF -- "$w" "$f" || { bad "$d: '$w' there"; return; }; done
	ok "$d"
}

# ---- Markdown: each reply in its turn's section, the counts right ----
expect_rc 0 "markdown api01" "$txc" convert api01 --db r.db --to markdown --utc
cp out.txt api01.md
grep -qx '\*8 messages · 0 tool calls · cli · claude-sonnet-4-5 · started 2026-08-29 10:40:00 UTC\*' api01.md &&
	grep -qx 'messages: 8' api01.md && ok "api01: 8 messages counted" || bad "api01 counts: $(grep -n messages api01.md)"
section api01.md 2 > s.txt
has "api01#2: reasoning and the reply from api_content (content '')" s.txt 'Six sevens make forty-two.' 'It is FORTYTWO, the APIREPLY.'
[ "$(grep -c SAMEWORD api01.md)" = 1 ] && ok "identical content and api_content: once" || bad "SAMEWORD $(grep -c SAMEWORD api01.md) times"
section api01.md 6 > s.txt
has "api01#6: content shown, the differing api_content folded beside it" s.txt 'Shown to you: SHOWNWORD.' \
	'<details><summary>Replayed to the provider as (api_content)</summary>' 'Sent to the provider: REPLAYEDWORD.'
section api01.md 8 > s.txt
grep -q '^## #8 · Assistant' s.txt && has "api01#8: a reasoning-only row stays a reasoning turn" s.txt 'Just pondering ONLYREASON.' ||
	bad "api01#8: no reasoning turn: $(cat s.txt)"
expect_rc 0 "markdown rsp01" "$txc" convert rsp01 --db r.db --to markdown --utc
cp out.txt rsp01.md
grep -q '^\*6 messages · 1 tool calls' rsp01.md && grep -qx 'messages: 6' rsp01.md && ok "rsp01: 6 messages counted" ||
	bad "rsp01 counts: $(grep -n messages rsp01.md)"
section rsp01.md 2 > s.txt
has "rsp01#2: the Responses text before its tool call" s.txt 'Looking BETWEENCALLS first.' '**Bash**'
[ "$(grep -n 'BETWEENCALLS\|^\*\*Bash' s.txt | cut -d: -f2 | cut -c1-7 | tr '\n' ' ')" = "Looking **Bash* " ] && ok "rsp01#2: text, then the call" ||
	bad "rsp01#2 order: $(cat s.txt)"
section rsp01.md 4 > s.txt
has "rsp01#4: output_text parts joined, items in order" s.txt 'There are two files: AFTERCALLS a.txt and b.txt café.' 'Second item SECONDITEM.'
[ "$(grep -n 'AFTERCALLS\|SECONDITEM' s.txt | cut -d: -f1 | tr '\n' ' ')" = "$(grep -n AFTERCALLS s.txt | cut -d: -f1) $(grep -n SECONDITEM s.txt | cut -d: -f1) " ] &&
	[ "$(grep -n AFTERCALLS s.txt | cut -d: -f1)" -lt "$(grep -n SECONDITEM s.txt | cut -d: -f1)" ] && ok "rsp01#4: items in order" || bad "rsp01#4 order"
section rsp01.md 6 > s.txt
has "rsp01#6: a refusal part shown as one" s.txt '[refusal] I will not delete REFUSEDWORD files.'
# brief leaves the replayed copy out, full keeps it
expect_rc 0 "markdown brief" "$txc" convert api01 --db r.db --to markdown --detail brief
lacks "--detail brief: no replayed copy" out.txt REPLAYEDWORD
has "--detail brief: the replies" out.txt APIREPLY SHOWNWORD

# ---- HTML ----
expect_rc 0 "html api01" "$txc" convert api01 --db r.db --to html
has "html api01: replies, the replayed copy marked" out.txt 'It is FORTYTWO, the APIREPLY.' SAMEWORD \
	'<details class="replayed"><summary>Replayed to the provider as (api_content)</summary>' REPLAYEDWORD
expect_rc 0 "html rsp01" "$txc" convert rsp01 --db r.db --to html
has "html rsp01: Responses replies" out.txt BETWEENCALLS AFTERCALLS SECONDITEM '[refusal] I will not delete REFUSEDWORD'

# ---- the terminal view, and --follow ----
expect_rc 0 "view rsp01" "$txc" view rsp01 --db r.db --utc --color never
has "view rsp01: Responses replies" out.txt BETWEENCALLS AFTERCALLS SECONDITEM '[refusal] I will not delete REFUSEDWORD'
expect_rc 0 "view api01" "$txc" view api01 --db r.db --utc --color never
has "view api01: replies; the replayed copy named in one line" out.txt APIREPLY SAMEWORD SHOWNWORD \
	'▸ replayed to the provider as other text (1 line; --detail full shows it)'
lacks "view api01: the replayed copy folded" out.txt REPLAYEDWORD
expect_rc 0 "view api01 full" "$txc" view api01 --db r.db --utc --color never --detail full
has "view --detail full: the replayed copy" out.txt '▾ replayed to the provider as (api_content)' REPLAYEDWORD
expect_rc 0 "view -f on an ended session" timeout 20 "$txc" view rsp01 --db r.db -f --interval 0.2 --utc --color never
has "view -f: Responses replies" out.txt BETWEENCALLS AFTERCALLS '[refusal] I will not delete REFUSEDWORD'
# rows written while followed: read by the follow's own query (rows after the last id)
cp r.db live.db
python3 - live.db <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = 'rsp01'")
db.commit()
PY
"$txc" view rsp01 --db live.db -f --interval 0.2 --utc --color never > follow.txt 2> follow.err &
fpid=$!
sleep 1
python3 - live.db <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT INTO messages (session_id, role, content, timestamp, api_content, display_identity) VALUES ('rsp01', 'user', '', 1788001007, 'LIVEUSER asks again', X'01')")
db.execute("INSERT INTO messages (session_id, role, content, timestamp, finish_reason, codex_message_items, display_identity) VALUES ('rsp01', 'assistant', '', 1788001008, 'stop', '[{\"type\": \"message\", \"content\": [{\"type\": \"output_text\", \"text\": \"LIVEREPLY from the items\"}]}]', X'02')")
db.commit()
time.sleep(1)
db.execute("UPDATE sessions SET ended_at = 1788001100, end_reason = 'user_exit' WHERE id = 'rsp01'")
db.commit()
PY
i=0
while kill -0 "$fpid" 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill "$fpid" 2> /dev/null
has "--follow: rows written later, replies outside content" follow.txt AFTERCALLS 'LIVEUSER asks again' 'LIVEREPLY from the items'
expect_rc 0 "convert -f --to markdown" timeout 20 "$txc" convert rsp01 --db live.db --to markdown -f --interval 0.2
has "convert -f --to markdown: every reply" out.txt BETWEENCALLS AFTERCALLS LIVEUSER LIVEREPLY

# ---- Claude Code: the reply is the assistant record's text ----
# --reasoning keep: these check where the replies go; the default writes the unsigned reasoning as a
# text block of its own, which the round trip below would read back as part of the reply
expect_rc 0 "claude api01" "$txc" convert api01 --db r.db --to claude -o api01.jsonl --reasoning keep
expect_rc 0 "claude rsp01" "$txc" convert rsp01 --db r.db --to claude -o rsp01.jsonl --reasoning keep
json_ok api01.jsonl rsp01.jsonl > /dev/null && ok "claude: strict JSON" || bad "claude: not strict JSON"
cat > texts.py <<'PY'
import json, sys
# the text blocks of each assistant record, one line each: "N: text | text"
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    if r.get("type") != "assistant":
        continue
    n += 1
    t = [c["text"] for c in r["message"]["content"] if c.get("type") == "text"]
    u = [c["name"] for c in r["message"]["content"] if c.get("type") == "tool_use"]
    print("%d: %s%s" % (n, " | ".join(t), " [%s]" % ",".join(u) if u else ""))
PY
python3 texts.py api01.jsonl > api01.texts
python3 texts.py rsp01.jsonl > rsp01.texts
grep -qx '1: It is FORTYTWO, the APIREPLY. MEDIA:/work/api/answer.png' api01.texts &&
	grep -qx '2: Same words here: SAMEWORD.' api01.texts && grep -qx '3: Shown to you: SHOWNWORD.' api01.texts &&
	grep -q '^4: $' api01.texts && ok "claude api01: each reply once, the shown text (not the replayed copy)" ||
	bad "claude api01: $(cat api01.texts)"
lacks "claude: the replayed copy is not sent" api01.jsonl REPLAYEDWORD
grep -q 'ONLYREASON' api01.jsonl && ok "claude: the reasoning-only turn kept" || bad "claude: reasoning-only turn lost"
[ "$(cat rsp01.texts)" = "1: Looking BETWEENCALLS first. [Bash]
2: There are two files: AFTERCALLS a.txt and b.txt café. MEDIA:/work/rsp/listing.txt

Second item SECONDITEM.
3: [refusal] I will not delete REFUSEDWORD files." ] && ok "claude rsp01: text before the call, after it, the refusal" ||
	bad "claude rsp01: $(cat rsp01.texts)"

# ---- ranges ----
expect_rc 0 "range rsp01#4" "$txc" convert 'rsp01#4' --db r.db --to markdown --utc
has "rsp01#4 alone: its reply" out.txt '## #4 · Assistant' AFTERCALLS SECONDITEM
expect_rc 0 "range api01#2 claude" "$txc" convert 'api01#2' --db r.db --to claude
has "api01#2 alone, to claude: its reply" out.txt APIREPLY
expect_rc 0 "range rsp01#6- html" "$txc" convert 'rsp01#6-' --db r.db --to html
has "rsp01#6- to html: the refusal" out.txt REFUSEDWORD

# ---- --lineage: the continuation's reply in api_content ----
expect_rc 0 "lineage markdown" "$txc" convert lin01 --lineage --db r.db --to markdown --utc
has "--lineage: the continuation's reply" out.txt '## Segment 2 of 2' 'The chain goes on: LINEAGEWORD.' 'First segment answer.'
grep -qx 'messages: 4' out.txt && ok "--lineage: 4 messages" || bad "--lineage count: $(grep messages: out.txt)"
expect_rc 0 "lineage claude" "$txc" convert lin02 --lineage --db r.db --to claude
has "--lineage to claude: the reply" out.txt LINEAGEWORD

# ---- artifacts: MEDIA: tags in replies outside content ----
expect_rc 0 "artifacts api01" "$txc" artifacts api01 --db r.db --json
has "artifacts: a tag in api_content" out.txt '"value":"/work/api/answer.png"'
expect_rc 0 "artifacts rsp01" "$txc" artifacts rsp01 --db r.db --json
has "artifacts: a tag in codex_message_items" out.txt '"value":"/work/rsp/listing.txt"'

# ---- Hermes export: raw columns, unchanged; read back, the same replies ----
expect_rc 0 "export --json" "$txc" export --json --db r.db
cp out.txt all.jsonl
python3 - all.jsonl <<'PY' && ok "export --json: the columns as stored (content '', api_content, codex_message_items raw)" || bad "export --json: columns changed"
import json, sys
rows = {m["id"]: m for s in map(json.loads, open(sys.argv[1], encoding="utf-8")) for m in s["messages"]}
assert rows[2]["content"] == "" and rows[2]["api_content"].startswith("It is FORTYTWO"), rows[2]
assert rows[12]["content"] is None and json.loads(rows[12]["codex_message_items"])[1]["content"][0]["text"] == "Second item SECONDITEM."
assert rows[6]["content"] == "Shown to you: SHOWNWORD." and rows[6]["api_content"] == "Sent to the provider: REPLAYEDWORD."
PY
for id in api01 rsp01; do
	expect_rc 0 "export file $id markdown" "$txc" convert $id --input all.jsonl --to markdown --utc
	cmp -s out.txt $id.md && ok "export file $id: the Markdown of the store" || bad "export file $id: $(diff $id.md out.txt | head -5)"
done
expect_rc 0 "export file claude" "$txc" convert rsp01 --input all.jsonl --to claude -o rsp01.file.jsonl
python3 texts.py rsp01.file.jsonl > rsp01.file.texts
cmp -s rsp01.texts rsp01.file.texts && ok "export file: the same Claude replies" || bad "export file claude: $(cat rsp01.file.texts)"

# ---- the Claude round trip: Hermes -> Claude Code -> Hermes keeps the reply, now in content ----
mkdir -p cc
CLAUDE_CONFIG_DIR=$PWD/cc "$txc" convert rsp01 --db r.db --to claude --install --reasoning keep > /dev/null 2> err.txt &&
	CLAUDE_CONFIG_DIR=$PWD/cc "$txc" convert api01 --db r.db --to claude --install --reasoning keep > /dev/null 2>> err.txt &&
	ok "claude --install" || bad "install: $(cat err.txt)"
uuid_rsp=$(head -n 1 rsp01.jsonl | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["sessionId"])')
uuid_api=$(head -n 1 api01.jsonl | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["sessionId"])')
expect_rc 0 "claude -> hermes (rsp01)" env CLAUDE_CONFIG_DIR="$PWD/cc" "$txc" convert "claude:$uuid_rsp" --to hermes
has "round trip rsp01: the replies in content" out.txt '"content": "Looking BETWEENCALLS first."' \
	'"content": "[refusal] I will not delete REFUSEDWORD files."' 'Second item SECONDITEM.'
expect_rc 0 "claude -> hermes (api01)" env CLAUDE_CONFIG_DIR="$PWD/cc" "$txc" convert "claude:$uuid_api" --to hermes
has "round trip api01: the reply in content" out.txt '"content": "It is FORTYTWO, the APIREPLY. MEDIA:/work/api/answer.png"'
cp out.txt back.json
expect_rc 0 "hermes -> markdown again" "$txc" convert "$uuid_api" --input back.json --to markdown
has "round trip api01: read back as Hermes" out.txt APIREPLY SAMEWORD SHOWNWORD

# ---- search: every layout of Hermes's index finds what a scan of the same rows finds ----
ext="CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id);
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');"
view3="CREATE VIEW messages_fts_src AS SELECT id, CASE WHEN role = 'tool' THEN substr(COALESCE(content, ''), 1, 8192) ELSE content END AS content, tool_name, tool_calls FROM messages;
CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages_fts_src', content_rowid='id');
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');"
legacy="CREATE VIRTUAL TABLE messages_fts USING fts5(content);
INSERT INTO messages_fts(rowid, content) SELECT id, COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages;"
tri="$ext
CREATE VIEW messages_fts_trigram_src AS SELECT id, role, content, tool_name, tool_calls FROM messages WHERE role <> 'tool';
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, tool_calls, content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram');
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild');"
# a rebuild in progress over the Responses rows: the window and the rows outside content overlap
window="$ext
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) SELECT 'delete', id, content, tool_name, tool_calls FROM messages WHERE id > 9 AND id <= 12;
INSERT INTO state_meta VALUES ('fts_rebuild_high_water', '12'), ('fts_rebuild_progress', '9');"
for l in ext view3 legacy tri window; do
	eval "extra=\$$l"
	{ cat "$src/fixtures/reply.sql"; printf '%s\n' "$extra"; } > $l.sql && "$mkdb" $l.db $l.sql || bad "mkdb $l"
done
rows() { python3 -c 'import json,sys; print(" ".join(sorted("%s:%s" % (h["session_id"], h["row_id"]) for h in json.load(sys.stdin))))' < out.txt; }
# query | the rows that hold it, as the Markdown shows them
cat > cases.txt <<'EOF'
APIREPLY|api01:2
SAMEWORD|api01:4
SHOWNWORD|api01:6
REPLAYEDWORD|api01:6
BETWEENCALLS|rsp01:10
AFTERCALLS|rsp01:12
SECONDITEM|rsp01:12
"two files"|rsp01:12
REFUSEDWORD|rsp01:14
refusal|rsp01:14
LINEAGEWORD|lin02:22
NEWLINEWORD|mm01:17
MULTIWORD|mm01:17
café|mm01:17 rsp01:12
Screenshot page|mm01:17
image_url|
u00e9|
EOF
for l in input none ext view3 legacy tri window; do
	fails0=$fails
	while IFS='|' read -r q truth; do
		if [ $l = input ]; then
			"$txc" search --input all.jsonl --json --limit 1000 -- $q > out.txt 2> err.txt
		elif [ $l = none ]; then
			"$txc" search --db r.db --json --limit 1000 -- $q > out.txt 2> err.txt
		else
			"$txc" search --db $l.db --json --limit 1000 -- $q > out.txt 2> err.txt
		fi
		got=$(rows)
		[ "$got" = "$truth" ] || bad "search $l: '$q' found '$got', want '$truth'"
	done < cases.txt
	[ "$fails" = "$fails0" ] && ok "search $l: $(wc -l < cases.txt) queries, the rows a scan finds"
done
# --sort rank goes through the index's ranking first: the rows outside it still come
expect_rc 0 "search --sort rank" "$txc" search --db ext.db --json --sort rank --limit 1000 café
[ "$(rows)" = "mm01:17 rsp01:12" ] && ok "--sort rank: index and scanned rows" || bad "--sort rank: $(rows)"
expect_rc 0 "search --role user" "$txc" search --db ext.db --json --role user --limit 1000 LIVEUSER
[ "$(rows)" = "" ] && ok || bad "role user: $(rows)"
expect_rc 0 "search live (rows after the index)" "$txc" search --db live.db --json --limit 1000 LIVEUSER LIVEREPLY
[ "$(rows)" = "" ] && ok "all words must be in one row" || bad "live: $(rows)"
expect_rc 0 "search live items" "$txc" search --db live.db --json LIVEREPLY
[ "$(rows)" = "rsp01:24" ] && ok "a reply in codex_message_items written later" || bad "live items: $(rows)"
# --verbose says what it scanned on top of the index
expect_rc 0 "verbose ext" "$txc" search --db ext.db --verbose APIREPLY
grep -q 'messages_fts (external content), complete: MATCH "APIREPLY"; rows whose text is not as the index holds it ("\\0json:" content; replies in api_content, codex_message_items): scanned; 1 hit' err.txt &&
	ok || bad "verbose ext: $(cat err.txt)"
expect_rc 0 "verbose trigram" "$txc" search --db tri.db --verbose 'café'
grep -q 'messages_fts_trigram (external content), complete: .*; replies in api_content, codex_message_items): scanned; 2 hits' err.txt &&
	ok || bad "verbose trigram: $(cat err.txt)"
# a v0.20.0 store has neither column: nothing to say of them, and its search works as before
python3 - r.db old.db <<'PY'
import sqlite3, sys
src = sqlite3.connect(sys.argv[1]); dst = sqlite3.connect(sys.argv[2])
dst.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, billing_provider TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, message_count INTEGER, tool_call_count INTEGER, input_tokens INTEGER, output_tokens INTEGER, cwd TEXT, title TEXT, archived INTEGER)")
dst.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL, finish_reason TEXT, reasoning TEXT, reasoning_content TEXT, active INTEGER DEFAULT 1, compacted INTEGER DEFAULT 0)")
dst.executemany("INSERT INTO sessions VALUES (%s)" % ",".join("?" * 15), src.execute("SELECT * FROM sessions"))
dst.executemany("INSERT INTO messages VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", src.execute("SELECT id, session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, finish_reason, reasoning, reasoning_content, active, compacted FROM messages"))
dst.execute("CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id)")
dst.execute("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")
dst.commit()
PY
expect_rc 0 "verbose v0.20.0 shape" "$txc" search --db old.db --verbose SHOWNWORD
grep -q 'complete: MATCH "SHOWNWORD"; rows whose text is not as the index holds it ("\\0json:" content): scanned; 1 hit' err.txt &&
	ok || bad "verbose old: $(cat err.txt)"
expect_rc 0 "old store markdown" "$txc" convert api01 --db old.db --to markdown --utc
has "a store without the columns: as before" out.txt 'Shown to you: SHOWNWORD.' 'Just pondering ONLYREASON.'
lacks "a store without the columns: no reply to find" out.txt APIREPLY REPLAYEDWORD

summary reply-tests
