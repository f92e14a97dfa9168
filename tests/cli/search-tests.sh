#!/bin/sh
# txc search: every index layout Hermes stores (legacy inline, external content, the truncating
# view, a rebuild in progress, stale, an FTS table with a tokenizer this SQLite lacks, trigram
# only, none) must give the hits the rows really hold; hostile queries; output forms; the store
# untouched.
# usage: search-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
# txc's own index goes in the work folder, not the user's ~/.cache/txc
export XDG_CACHE_HOME="$work/cache"
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"

long=$(python3 -c 'print("filler " * 1300 + "needleattheend")')
longcjk=$(python3 -c 'print("filler " * 1300 + "東京タワー")')
cat > base.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL,
  ended_at REAL, end_reason TEXT, parent_session_id TEXT, message_count INTEGER DEFAULT 0, cwd TEXT, title TEXT,
  archived INTEGER NOT NULL DEFAULT 0);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
  active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO sessions VALUES ('s_retry', 'cli', 'm', 1789000000, NULL, NULL, NULL, 6, '/repo', 'Retry loop', 0);
INSERT INTO sessions VALUES ('s_cjk', 'telegram', 'm', 1789000100, NULL, NULL, NULL, 3, '/repo', '週末の予定', 0);
INSERT INTO sessions VALUES ('s_tools', 'cli', 'm', 1789000200, NULL, NULL, NULL, 4, '/other', 'Tools', 0);
INSERT INTO sessions VALUES ('s_arch', 'cli', 'm', 1789000300, NULL, NULL, NULL, 1, '/repo', 'Archived', 1);
-- 1..6
INSERT INTO messages VALUES (1, 's_retry', 'user', 'Fix the retry loop in chat-send please', NULL, NULL, NULL, 1789000001, 1, 0);
INSERT INTO messages VALUES (2, 's_retry', 'assistant', 'The RETRY logic: loop until done. See snake_case_name and P2.2', NULL, NULL, NULL, 1789000002, 1, 0);
INSERT INTO messages VALUES (3, 's_retry', 'user', 'rewound secretword retry loop', NULL, NULL, NULL, 1789000003, 0, 0);
INSERT INTO messages VALUES (4, 's_retry', 'user', 'compacted oldword history', NULL, NULL, NULL, 1789000004, 0, 1);
INSERT INTO messages VALUES (5, 's_retry', 'assistant', 'Chat Send works; C++ and col:term are text', NULL, NULL, NULL, 1789000005, 1, 0);
INSERT INTO messages VALUES (6, 's_retry', 'assistant', 'retrying is not retry? loops neither', NULL, NULL, NULL, 1789000006, 1, 0);
-- 7..9
INSERT INTO messages VALUES (7, 's_cjk', 'user', '週末の予定を教えて 東京', NULL, NULL, NULL, 1789000101, 1, 0);
INSERT INTO messages VALUES (8, 's_cjk', 'assistant', 'Party time 🎉 deploy done 🚀', NULL, NULL, NULL, 1789000102, 1, 0);
INSERT INTO messages VALUES (9, 's_cjk', 'assistant', 'café naïve Über', NULL, NULL, NULL, 1789000103, 1, 0);
-- 10..13
INSERT INTO messages VALUES (10, 's_tools', 'assistant', '', NULL, '[{"id":"c1","type":"function","function":{"name":"terminal","arguments":"{\"command\":\"rm -rf /tmp/build\"}"}}]', NULL, 1789000201, 1, 0);
INSERT INTO messages VALUES (11, 's_tools', 'tool', 'removed /tmp/build', 'c1', NULL, 'terminal', 1789000202, 1, 0);
INSERT INTO messages VALUES (12, 's_tools', 'tool', '$long', 'c2', NULL, 'read_file', 1789000203, 1, 0);
INSERT INTO messages VALUES (13, 's_tools', 'user', 'thanks, the retry loop is fine', NULL, NULL, NULL, 1789000204, 1, 0);
-- 14; 15: Hermes's "\0json:" content (LIKE and length() stop at the NUL)
INSERT INTO messages VALUES (14, 's_arch', 'user', 'archived retry loop', NULL, NULL, NULL, 1789000301, 1, 0);
INSERT INTO messages VALUES (15, 's_cjk', 'user', CAST(X'006A736F6E3A5B7B2274797065223A2274657874222C2274657874223A226A736F6E776F7264227D5D' AS TEXT), NULL, NULL, NULL, 1789000104, 1, 0);
-- 16..23: substrings for the trigram index, and rows it never holds (tool rows, a tool call's
-- arguments, a cron session, a delegate's session, a tool row past 8192 characters)
ALTER TABLE sessions ADD COLUMN model_config TEXT;
INSERT INTO sessions (id, source, started_at, title) VALUES ('s_cron', 'cron', 1789000400, 'cron');
INSERT INTO sessions (id, source, started_at, title, model_config) VALUES ('s_dele', 'cli', 1789000500, 'delegate', '{"_delegate_from": "s_cjk"}');
INSERT INTO messages VALUES (16, 's_cjk', 'user', '東京タワーに行きたい TOKYOタワー', NULL, NULL, NULL, 1789000105, 1, 0);
INSERT INTO messages VALUES (17, 's_tools', 'tool', 'ログ: 東京タワー 完了', 'c3', NULL, 'web_search', 1789000205, 1, 0);
INSERT INTO messages VALUES (18, 's_tools', 'assistant', '', NULL, '[{"id":"c3","type":"function","function":{"name":"web_search","arguments":"{\"q\":\"東京タワー\"}"}}]', NULL, 1789000206, 1, 0);
INSERT INTO messages VALUES (19, 's_cron', 'user', '東京タワー を見る', NULL, NULL, NULL, 1789000401, 1, 0);
INSERT INTO messages VALUES (20, 's_dele', 'assistant', 'えっ東京タワーだ', NULL, NULL, NULL, 1789000501, 1, 0);
INSERT INTO messages VALUES (21, 's_cjk', 'user', '東京タワー rewound', NULL, NULL, NULL, 1789000106, 0, 0);
INSERT INTO messages VALUES (22, 's_tools', 'tool', '$longcjk', 'c4', NULL, 'read_file', 1789000207, 1, 0);
INSERT INTO messages VALUES (23, 's_cjk', 'assistant', '東京の天気', NULL, NULL, NULL, 1789000107, 1, 0);
SQL

ext='CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id);
INSERT INTO messages_fts(messages_fts) VALUES ('"'"'rebuild'"'"');'
mk() { # name extra-sql
	cat base.sql > "$1.sql" && printf '%s\n' "$2" >> "$1.sql" && "$mkdb" "$1.db" "$1.sql" || bad "mkdb $1"
}
mk none ''
mk external "$ext
INSERT INTO state_meta VALUES ('fts_storage_version', '1');"
mk legacy "CREATE VIRTUAL TABLE messages_fts USING fts5(content);
INSERT INTO messages_fts(rowid, content) SELECT id, COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages;
INSERT INTO state_meta VALUES ('fts_optimize_available', '1');"
mk view3 "CREATE VIEW messages_fts_src AS SELECT id, CASE WHEN role = 'tool' THEN substr(COALESCE(content, ''), 1, 8192) ELSE content END AS content, tool_name, tool_calls FROM messages;
CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages_fts_src', content_rowid='id');
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
INSERT INTO state_meta VALUES ('fts_storage_version', '3');"
# a rebuild in progress: rows 3..9 (progress 2, high water 9) are not in the index yet
mk rebuild "$ext
INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) SELECT 'delete', id, content, tool_name, tool_calls FROM messages WHERE id > 2 AND id <= 9;
INSERT INTO state_meta VALUES ('fts_rebuild_high_water', '9'), ('fts_rebuild_progress', '2');"
# stale: the index misses rows Hermes knows about
mk stale "$ext
INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) SELECT 'delete', id, content, tool_name, tool_calls FROM messages WHERE id = 1;
INSERT INTO state_meta VALUES ('fts_stale', '1');"
# Hermes's trigram index (messages_fts_trigram) in each layout: legacy inline (every row, tool rows
# cut at 8192 characters as the upgraded store has it), v23 layout 1 (a view without tool rows),
# the later view (no tool_calls column, no cron/subagent/delegate sessions), and a rebuild in progress
legtri="INSERT INTO messages_fts_trigram(rowid, content) SELECT id, COALESCE(CASE WHEN role = 'tool' THEN substr(COALESCE(content, ''), 1, 8192) ELSE content END, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages;"
tri1="CREATE VIEW messages_fts_trigram_src AS SELECT id, role, content, tool_name, tool_calls FROM messages WHERE role <> 'tool';
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, tool_calls, content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram');
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild');"
mk trileg "CREATE VIRTUAL TABLE messages_fts USING fts5(content);
INSERT INTO messages_fts(rowid, content) SELECT id, COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages;
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='trigram');
$legtri"
mk tri1 "$ext
$tri1
INSERT INTO state_meta VALUES ('fts_storage_version', '1');"
mk tri3 "CREATE VIEW messages_fts_src AS SELECT id, CASE WHEN role = 'tool' THEN substr(COALESCE(content, ''), 1, 8192) ELSE content END AS content, tool_name, tool_calls FROM messages;
CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages_fts_src', content_rowid='id');
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
CREATE VIEW messages_fts_trigram_src AS SELECT m.id, m.role, m.content, m.tool_name FROM messages AS m JOIN sessions AS s ON s.id = m.session_id WHERE m.role <> 'tool' AND s.source NOT IN ('cron', 'subagent') AND json_extract(CASE WHEN json_valid(s.model_config) THEN s.model_config ELSE json_object() END, '\$._delegate_from') IS NULL;
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram');
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild');
INSERT INTO state_meta VALUES ('fts_storage_version', '3');"
# rows 16..20 not in either index yet
mk triwin "$ext
$tri1
INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) SELECT 'delete', id, content, tool_name, tool_calls FROM messages WHERE id > 15 AND id <= 20;
INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name, tool_calls) SELECT 'delete', id, content, tool_name, tool_calls FROM messages WHERE id > 15 AND id <= 20 AND role <> 'tool';
INSERT INTO state_meta VALUES ('fts_rebuild_high_water', '20'), ('fts_rebuild_progress', '15');"
# trigram only (messages_fts built with the trigram tokenizer, not Hermes's words)
mk trigram "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id, tokenize='trigram');
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='trigram');
$legtri"
# a tokenizer this SQLite lacks (Hermes's optional cjk_unicode61): any use of the table fails
mk notok "$ext
PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = 'CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id, tokenize=''cjk_unicode61'')' WHERE name = 'messages_fts';
PRAGMA writable_schema = OFF;"
layouts="none external legacy view3 rebuild stale trigram notok trileg tri1 tri3 triwin"
sha256sum *.db > before.sha

S() { "$txc" search "$@"; }
rows() { # the row ids of a --json answer, sorted, space separated
	python3 -c 'import json,sys; print(" ".join(str(r) for r in sorted(h["row_id"] for h in json.load(sys.stdin))))' < out.txt
}
same() { # desc want got
	if [ "$2" = "$3" ]; then ok; else bad "$1: rows '$3', want '$2'"; fi
}
# query | the rows that really hold it (active or compacted, unarchived)
cases='retry loop|1 2 13
chat-send|1 5
snake_case_name|2
P2.2|2
retry*|1 2 6 13
"retry loop"|1 13
retry -loop|6
oldword|4
C++ col:term|5
needleattheend|12
"rm -rf"|10
rm -rf|
terminal|10 11
東京|7 16 17 18 19 20 22 23
予定|7
東京タワー|16 17 18 19 20 22
タワー|16 17 18 19 20 22
tokyoタワー|16
ワーに行|16
東京タワー -完了|16 18 19 20 22
"東京の天気"|23
🎉|8
café|9
jsonword|15
NOT retry|6
"retry loop|1 2 13
retry loop"|1 2 13
AND OR|'
printf '%s\n' "$cases" > cases.txt
for l in $layouts; do
	while IFS='|' read -r q truth; do
		expect_rc 0 "$l: $q" S --db "$l.db" --json --limit 1000 -- $q
		same "$l: $q" "$truth" "$(rows)"
	done < cases.txt
done
# the answer says which index answered and whether it is complete
expect_rc 0 "verbose external" S --db external.db --verbose retry
grep -q 'messages_fts (external content), complete' err.txt && ok || bad "external: $(cat err.txt)"
expect_rc 0 "verbose legacy" S --db legacy.db --verbose retry
grep -q 'messages_fts (legacy inline)' err.txt && ok || bad "legacy: $(cat err.txt)"
expect_rc 0 "verbose rebuild" S --db rebuild.db --verbose retry
grep -q 'rows 3..9 are not indexed yet' err.txt && ok || bad "rebuild window: $(cat err.txt)"
expect_rc 0 "verbose view3" S --db view3.db --verbose needleattheend
grep -q 'indexed only in part' err.txt && ok || bad "view3: $(cat err.txt)"
for l in none stale trigram notok; do
	expect_rc 0 "verbose $l" S --db $l.db --verbose retry
	grep -q ': scan, complete: every row was read' err.txt && ok || bad "$l: $(cat err.txt)"
done
grep -q 'cjk_unicode61\|tokenizer' err.txt && ok || bad "notok names the tokenizer: $(cat err.txt)"
expect_rc 0 "verbose cjk" S --db external.db --verbose 東京
grep -q 'substrings' err.txt && ok || bad "cjk scans: $(cat err.txt)"
# trigram answers CJK words of 3+ characters, with what it cannot hold scanned on top
for l in trileg tri1 tri3 triwin; do
	expect_rc 0 "verbose trigram $l" S --db $l.db --verbose 東京タワー
	grep -q ': messages_fts_trigram (.*), complete: MATCH "東京タワー" (substrings); .*: scanned; 6 hits' err.txt && ok ||
		bad "trigram $l: $(cat err.txt)"
done
grep -q 'rows 16..20 (a rebuild in progress)' err.txt && ok || bad "trigram window: $(cat err.txt)"
expect_rc 0 "verbose trigram short" S --db tri1.db --verbose 東京タワー 東京
grep -q ': scan, complete: .*fewer than 3 characters' err.txt && ok || bad "2-character word scans: $(cat err.txt)"
expect_rc 0 "trigram role tool" S --db tri3.db --json --verbose --role tool 東京タワー
same "trigram role tool" "17 22" "$(rows)"
grep -q ': scan, .*holds no tool rows' err.txt && ok || bad "role tool scans: $(cat err.txt)"
expect_rc 0 "trigram role user" S --db tri3.db --json --role user 東京タワー
same "trigram role user (a cron session's row)" "16 19" "$(rows)"
expect_rc 0 "trigram tool" S --db tri1.db --json --tool web_search 東京タワー
same "trigram --tool (its call and its result)" "17 18" "$(rows)"
# a trigram index txc cannot trust to narrow (its view gone; case-sensitive) is not used
mk trinoview "$ext
$tri1
DROP VIEW messages_fts_trigram_src;"
mk tricase "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='trigram case_sensitive 1');
$legtri"
for l in trinoview tricase; do
	expect_rc 0 "trigram unusable $l" S --db $l.db --json --verbose tokyoタワー
	same "trigram unusable $l" "16" "$(rows)"
	grep -q ': scan, .*messages_fts_trigram' err.txt && ok || bad "$l scans: $(cat err.txt)"
done
expect_rc 0 "trigram not there" S --db view3.db --verbose 東京タワー
grep -q 'no messages_fts_trigram' err.txt && ok || bad "no trigram said: $(cat err.txt)"
# in time order a limit cuts the same hits as a scan (rows it cannot hold are merged in order, not appended)
order() { python3 -c 'import json,sys; print(" ".join(str(h["row_id"]) for h in json.load(sys.stdin)))' < out.txt; }
for sort in newest oldest; do
	expect_rc 0 "scan $sort" S --db none.db --json --sort $sort --limit 3 東京タワー
	scan_order=$(order)
	for l in trileg tri1 tri3 triwin; do
		expect_rc 0 "trigram $l $sort" S --db $l.db --json --sort $sort --limit 3 東京タワー
		same "trigram $l --sort $sort --limit 3" "$scan_order" "$(order)"
	done
done

# filters, roles, tools, visibility
expect_rc 0 "include-inactive" S --db external.db --json --include-inactive secretword
same "include-inactive" "3" "$(rows)"
expect_rc 0 "rewound hidden" S --db external.db --json secretword
same "rewound hidden" "" "$(rows)"; [ "$(cat out.txt)" = "[]" ] && ok || bad "empty json is []: $(cat out.txt)"
expect_rc 0 "archived" S --db external.db --json --archived retry loop
same "archived" "1 2 13 14" "$(rows)"
expect_rc 0 "role" S --db external.db --json --role user retry loop
same "role user" "1 13" "$(rows)"
expect_rc 0 "tool" S --db external.db --json --tool terminal removed
same "tool" "11" "$(rows)"
for l in external none; do # a call to the tool (in tool_calls) and its result (tool_name)
	expect_rc 0 "tool call $l" S --db $l.db --json --tool terminal '"rm -rf"'
	same "tool calls $l" "10" "$(rows)"
	expect_rc 0 "tool both $l" S --db $l.db --json --tool terminal tmp build
	same "tool both $l" "10 11" "$(rows)"
	expect_rc 0 "tool other $l" S --db $l.db --json --tool read_file tmp build
	same "tool other $l" "" "$(rows)"
done
expect_rc 0 "cwd filter" S --db external.db --json --cwd /other retry
same "cwd" "13" "$(rows)"
expect_rc 0 "title filter" S --db none.db --json --title retry retry
same "title" "1 2 6" "$(rows)"
expect_rc 0 "limit" S --db external.db --json --limit 2 retry
[ "$(rows | wc -w)" = 2 ] && ok || bad "limit 2: $(rows)"
expect_rc 0 "sort oldest" S --db external.db --json --sort oldest retry
python3 -c 'import json,sys; t=[h["timestamp"] for h in json.load(sys.stdin)]; sys.exit(t != sorted(t))' < out.txt && ok || bad "oldest order"
expect_rc 0 "sort newest" S --db none.db --json --sort newest retry
python3 -c 'import json,sys; t=[h["timestamp"] for h in json.load(sys.stdin)]; sys.exit(t != sorted(t, reverse=True))' < out.txt && ok || bad "newest order"
"$jsoncheck" out.txt > /dev/null 2>&1 && ok || bad "json valid"

# message numbers are those of the model (convert --include-compacted): row 5 is message 4 (row 3 is rewound)
expect_rc 0 "numbers" S --db external.db --json "C++"
python3 -c 'import json,sys; h=json.load(sys.stdin)[0]; sys.exit(h["message"] != 4 or h["session_id"] != "s_retry")' < out.txt && ok || bad "message number: $(cat out.txt)"
expect_rc 0 "text form" S --db external.db --color never chat-send
grep -q '^s_retry  ' out.txt && ok || bad "session heading: $(cat out.txt)"
grep -q '  s_retry#1  user  .*>>>chat-send<<<' out.txt && ok || bad "hit line: $(cat out.txt)"
grep -q '>>>Chat Send<<<' out.txt && ok || bad "second hit marked: $(cat out.txt)"
expect_rc 0 "sessions" S --db external.db --sessions retry
[ "$(cat out.txt)" = "s_retry
s_tools" ] && ok || bad "--sessions: $(cat out.txt)"
expect_rc 0 "no match" S --db external.db zzznothing
[ -s out.txt ] && bad "no match prints nothing: $(cat out.txt)" || ok
grep -q 'no message matches' err.txt && ok || bad "no match said"

# hostile queries: a clear answer (exit 2, one line), never a crash
expect_rc 2 "punctuation only" S --db external.db '!!! ...'; one_line_err "punctuation only"
expect_rc 2 "only exclusions" S --db external.db -- -retry; one_line_err "only exclusions"
expect_rc 2 "no query" S --db external.db; one_line_err "no query"
expect_rc 2 "invalid utf-8" S --db external.db "$(printf 'retry\377')"; one_line_err "invalid utf-8"
# (a 1 MB argument is refused by the kernel before txc runs; test_model's search tests parse 1 MB)
big=$(python3 -c 'print("a " * 60000)')
expect_rc 2 "120 kB query" S --db external.db "$big"; one_line_err "120 kB query"
grep -q 'at most 4096' err.txt && ok || bad "a long query says the cap"
expect_rc 2 "json and sessions" S --db external.db --json --sessions retry
expect_rc 2 "bad role" S --db external.db --role system retry
for q in 'NOT' 'NEAR(a b)' '"' '^' 'a:b:c' '*' '**retry' 'retry**' '-' '(' ')' '{' 'OR retry' 'x"y"z'; do
	"$txc" search --db external.db --json -- "$q" > out.txt 2> err.txt; rc=$?
	case $rc in 0 | 2) ok ;; *) bad "hostile '$q': exit $rc" ;; esac
	grep -qi 'fts5\|syntax' err.txt && bad "hostile '$q' reached FTS5: $(cat err.txt)" || ok
done
# a terminal gets every byte escaped (no raw escape from a row)
cat > esc.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('e1', 'cli', 1789000000, 'esc' || char(27) || '[31m');
INSERT INTO messages VALUES (1, 'e1', 'user', 'evil ' || char(27) || ']0;pwned' || char(7) || ' word', 1789000001);
INSERT INTO messages VALUES (2, 'e1', 'user', '週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定 word 週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定週末の予定', 1789000002);
SQL
"$mkdb" esc.db esc.sql || bad "mkdb esc"
expect_rc 0 "escapes (pipe: markers)" S --db esc.db word
if command -v script > /dev/null; then
	script -qec "'$txc' search --db esc.db --color always word" /dev/null > tty.txt 2>&1
	grep -q "$(printf '\033')\]0;pwned" tty.txt && bad "raw OSC reached the terminal" || ok
	grep -q '\\x1b\]0;pwned' tty.txt && ok || bad "escaped OSC shown: $(head -c 300 tty.txt)"
fi
python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' < out.txt && ok || bad "snippet cut inside a UTF-8 character"
grep -q '^  e1#2  user  .*\.\.\..*>>>word<<<.*\.\.\.$' out.txt && ok || bad "long snippet cut both sides: $(cat out.txt)"

# a compression chain c1 -> c2 -> c3 (c3 live); a branch and a delegate of c1 are no continuations; a cycle ends
cat > chain.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL,
  end_reason TEXT, parent_session_id TEXT, model_config TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('c1', 'cli', 100, 200, 'compression', NULL, NULL, 'chain');
INSERT INTO sessions VALUES ('b1', 'cli', 150, NULL, NULL, 'c1', '{"_branched_from": "c1"}', 'branch');
INSERT INTO sessions VALUES ('d1', 'subagent', 160, NULL, NULL, 'c1', '{"_delegate_from": "c1"}', 'delegate');
INSERT INTO sessions VALUES ('c2', 'cli', 201, 300, 'compression', 'c1', NULL, 'chain #2');
INSERT INTO sessions VALUES ('c3', 'cli', 301, NULL, NULL, 'c2', NULL, 'chain #3');
INSERT INTO sessions VALUES ('y1', 'cli', 400, 500, 'compression', 'y2', NULL, 'cycle');
INSERT INTO sessions VALUES ('y2', 'cli', 401, 501, 'compression', 'y1', NULL, 'cycle');
INSERT INTO messages VALUES (1, 'c1', 'user', 'lineage word', 101), (2, 'c3', 'user', 'lineage word', 302);
INSERT INTO messages VALUES (3, 'b1', 'user', 'lineage word', 151), (4, 'y1', 'user', 'lineage word', 402);
SQL
"$mkdb" chain.db chain.sql || bad "mkdb chain"
expect_rc 0 "chain tip" S --db chain.db --json lineage
python3 -c '
import json, sys
tips = {h["session_id"]: h["tip"] for h in json.load(sys.stdin)}
sys.exit(tips != {"c1": "c3", "c3": None, "b1": None, "y1": "y2"})' < out.txt && ok || bad "chain tips: $(cat out.txt)"
expect_rc 0 "chain tip text" S --db chain.db --color never lineage
grep -q '^c1 .*(compressed; continued in c3)' out.txt && ok || bad "tip named: $(cat out.txt)"

# --input (export files) are scanned with the same answers
"$txc" export --db external.db --json > export.jsonl 2> /dev/null || bad "export"
expect_rc 0 "input" S --input export.jsonl --json --verbose retry loop
same "input" "1 2 13" "$(rows)"
grep -q ': scan' err.txt && ok || bad "input scans: $(cat err.txt)"
# the hit limit reached in a scan is no error: one notice, no empty "txc: error:" line
expect_rc 0 "input, limit reached" S --input export.jsonl --limit 1 retry loop
[ "$(cat err.txt)" = 'txc: search: more hits not shown (raise --limit)' ] && ok || bad "input limit: $(cat err.txt)"
expect_rc 0 "input --json, limit reached" S --input export.jsonl --limit 1 --json retry loop
[ "$(rows | wc -w)" = 1 ] && [ ! -s err.txt ] && ok || bad "input --json limit: $(rows), $(cat err.txt)"

# --remote: the dashboard's own search (one hit per session, named by id, snippet re-marked by txc)
python3 "$src/tools/dashboard.py" --data export.jsonl > port.txt 2> server.err &
server=$!
i=0; while [ ! -s port.txt ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
url=http://127.0.0.1:$(head -n 1 port.txt)
expect_rc 0 "remote" S --remote "$url" --json --verbose retry loop
python3 -c '
import json, sys
hits = json.load(sys.stdin)
sys.exit(sorted(h["session_id"] for h in hits) != ["s_retry", "s_tools"] or ">>>retry<<<" not in hits[0]["snippet"].lower())' < out.txt && ok || bad "remote hits: $(cat out.txt)"
grep -q 'dashboard, INCOMPLETE' err.txt && ok || bad "remote says incomplete: $(cat err.txt)"
grep -q 'its index holds content alone (a reply stored in api_content or codex_message_items is not found)' err.txt &&
	ok "remote: says what its index cannot find" || bad "remote: replies outside content not said: $(cat err.txt)"
grep -q 'GET /api/sessions/search?limit=100&q=retry%20loop' server.err && ok || bad "remote request: $(cat server.err)"
expect_rc 0 "remote role" S --remote "$url" --json --role assistant retry loop
[ "$(cat out.txt)" = "[]" ] && ok || bad "remote role filter: $(cat out.txt)"
kill $server 2> /dev/null; wait $server 2> /dev/null

# --help, completions
expect_rc 0 "help" "$txc" search --help
grep -q 'exact phrases' out.txt && grep -q -- '--include-inactive' out.txt && ok || bad "help text"
"$txc" completions bash | grep -q 'search' && ok || bad "completion has search"

# ---- more layouts (issue 18): each asserts the rows, the index named, and nothing written ----
: > more.sha
mk() { # name extra-sql; its hash kept for the check that no store changed
	cat base.sql > "$1.sql" && printf '%s\n' "$2" >> "$1.sql" && "$mkdb" "$1.db" "$1.sql" || bad "mkdb $1"
	sha256sum "$1.db" >> more.sha
}
# a plain table named messages_fts (no MATCH, no rank): probed, then scanned, not a failed search
mk plaintab "CREATE TABLE messages_fts (content TEXT);"
# Hermes's index without its own copy of the text (contentless), and unicode61 spelled out
mk contentless "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='');
INSERT INTO messages_fts(rowid, content, tool_name, tool_calls) SELECT id, content, tool_name, tool_calls FROM messages;"
mk unitok "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id, tokenize = \"unicode61\");
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
INSERT INTO state_meta VALUES ('fts_stale', '0');"
mk unidiac "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id, tokenize='unicode61 remove_diacritics 0');
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');"
# a rebuild that has not started (high water, no progress yet): rows 1..9 not indexed
mk hwonly "$ext
INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) SELECT 'delete', id, content, tool_name, tool_calls FROM messages WHERE id <= 9;
INSERT INTO state_meta VALUES ('fts_rebuild_high_water', '9');"
for l in plaintab contentless unitok unidiac hwonly; do
	while IFS='|' read -r q truth; do
		expect_rc 0 "$l: $q" S --db "$l.db" --json --limit 1000 -- $q
		same "$l: $q" "$truth" "$(rows)"
	done < cases.txt
done
expect_rc 0 "verbose plaintab" S --db plaintab.db --verbose retry loop
grep -q ': scan, complete: every row was read: messages_fts cannot be read by this SQLite (no such column: rank); 3 hits' err.txt &&
	ok || bad "plaintab: $(cat err.txt)"
expect_rc 0 "verbose contentless" S --db contentless.db --verbose retry loop
grep -q ': messages_fts (external content), complete: MATCH "retry" AND "loop"; rows whose text is not as the index holds it ("\\0json:" content): scanned; 3 hits' err.txt && ok || bad "contentless: $(cat err.txt)"
expect_rc 0 "verbose unitok" S --db unitok.db --verbose retry loop
grep -q ': messages_fts (external content), complete' err.txt && ok || bad "unicode61 quoted: $(cat err.txt)"
expect_rc 0 "verbose unidiac" S --db unidiac.db --verbose retry loop
grep -q 'scan, .*a tokenizer other than unicode61' err.txt && ok || bad "unicode61 with options: $(cat err.txt)"
expect_rc 0 "verbose hwonly" S --db hwonly.db --verbose retry loop
grep -q 'rows 1..9 are not indexed yet' err.txt && ok || bad "hwonly window: $(cat err.txt)"

# messages_fts_trigram spelled every way FTS5 takes its options, and ones txc must not narrow by
tri() { # name view-sql create-args
	mk "$1" "$2
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5($3);
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild');" 
}
tri trispace "CREATE VIEW messages_fts_trigram_src AS SELECT id, content, content AS raw_content, content AS xcontent, tool_name, tool_calls FROM messages WHERE role <> 'tool';" \
	"content, raw_content, xcontent, tool_name, tool_calls, content = 'messages_fts_trigram_src' , content_rowid = \"id\", tokenize = \"trigram\""
tri tribare "CREATE VIEW messages_fts_trigram_src AS SELECT id, content, tool_name, tool_calls FROM messages WHERE role <> 'tool';" \
	"content, tool_name, tool_calls, content=messages_fts_trigram_src, content_rowid=id,tokenize=trigram"
tri trimsg "" "content, tool_name, tool_calls, content='messages', tokenize='trigram'"
tri trinoname "CREATE VIEW messages_fts_trigram_src AS SELECT id, content FROM messages WHERE role <> 'tool';" \
	"content, content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram'"
mk tristale "$tri1
INSERT INTO state_meta VALUES ('fts_stale', '1');"
mk trifresh "$tri1
INSERT INTO state_meta VALUES ('fts_stale', '0'), ('fts_rebuild_high_water', '20');"
mk trinull "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, tool_calls, content='', tokenize='trigram');
INSERT INTO messages_fts_trigram(rowid, content, tool_name, tool_calls) SELECT id, content, tool_name, tool_calls FROM messages;"
mk tribadname "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, content='Messages2-src', content_rowid='id', tokenize='trigram');"
# FTS5 refuses this CREATE (tabs and line breaks around '='): any use of the table fails
mk tribroken "$tri1
PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = 'CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, tool_calls,
	content	=	''messages_fts_trigram_src'',
 content_rowid =
id , tokenize
=trigram
)' WHERE name = 'messages_fts_trigram';
PRAGMA writable_schema = OFF;"
for l in trispace tribare trimsg trinoname tristale trifresh trinull tribadname tribroken; do
	for q in 東京タワー tokyoタワー "東京タワー -完了" '"東京の天気"'; do
		truth=$(grep "^$q|" cases.txt | cut -d'|' -f2)
		expect_rc 0 "$l: $q" S --db "$l.db" --json --limit 1000 -- $q
		same "$l: $q" "$truth" "$(rows)"
	done
done
for l in trispace:'external content), .*rows its view messages_fts_trigram_src leaves out (tool rows) are' \
	tribare:'external content), .*leaves out (tool rows) are' trimsg:'external content)' \
	trinoname:'leaves out (tool rows, and tool calls) are' tristale:'scan, .*marked its indexes stale' \
	trinull:'scan, .*reads no content table' \
	tribadname:'scan, .*reads no content table' tribroken:'scan, .*messages_fts_trigram cannot be read by this SQLite (parse error'; do
	expect_rc 0 "verbose ${l%%:*}" S --db "${l%%:*}.db" --verbose 東京タワー
	grep -q -- "${l#*:}" err.txt && ok || bad "${l%%:*}: $(cat err.txt)"
done
expect_rc 0 "verbose trifresh" S --db trifresh.db --verbose 東京タワー
grep -q 'messages_fts_trigram (external content), .*rows 1..20 (a rebuild in progress)' err.txt && ok || bad "trifresh: $(cat err.txt)"

# odd columns: untyped and integer session ids, a system row, BLOB content and tool name, timestamps
# of each type and none, NULL active, no compacted or tool_calls column; LIKE's own characters
cat > odd.sql <<'SQL'
CREATE TABLE sessions (id PRIMARY KEY, source TEXT, started_at REAL, ended_at REAL, end_reason TEXT, parent_session_id, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT, content, tool_name, timestamp, active INTEGER);
INSERT INTO sessions VALUES (7, 'cli', 1789000000, NULL, NULL, NULL, 'integer id');
INSERT INTO sessions VALUES ('c1', 'cli', 1789000100, 1789000200, 'compression', NULL, 'text id');
INSERT INTO sessions VALUES (8, 'cli', 1789000300, NULL, NULL, 'c1', 'its continuation, an integer id');
INSERT INTO messages VALUES (1, 7, 'user', 'oddword one', NULL, 1789000001, 1);
INSERT INTO messages VALUES (2, 7, 'system', 'oddword system prompt', NULL, 1789000002.5, 1);
INSERT INTO messages VALUES (3, 7, 'tool', X'6F6464776F726420626C6F62', X'', '2026-01-01', 1);
INSERT INTO messages VALUES (4, 7, 'user', 'oddword no time', NULL, NULL, 1);
INSERT INTO messages VALUES (5, 'c1', 'user', 'oddword chain', NULL, 1789000101, 1);
INSERT INTO messages VALUES (6, 7, 'user', 'oddword rewound', NULL, 1789000006, 0);
INSERT INTO messages VALUES (7, 7, 'user', 'oddword active unknown', NULL, 1789000007, NULL);
INSERT INTO messages VALUES (8, 7, 'tool', 'oddword terminal.log read', 'read_file', 1789000008, 1);
INSERT INTO messages VALUES (9, 7, 'user', '東京_50% done', NULL, 1789000009, 1);
INSERT INTO messages VALUES (10, 7, 'user', '東京x50y done', NULL, 1789000010, 1);
INSERT INTO messages VALUES (11, 7, 'user', '東京\50% done', NULL, 1789000011, 1);
INSERT INTO messages VALUES (12, 7, 'user', '東京%50 done', NULL, 1789000012, 1);
SQL
"$mkdb" odd.db odd.sql || bad "mkdb odd"
sha256sum odd.db >> more.sha
expect_rc 0 "odd json" S --db odd.db --json --include-inactive oddword
python3 - out.txt <<'PY' && ok || bad "odd json: $(cat out.txt)"
import json, sys
got = [(h["session_id"], h["message"], h["row_id"], h["role"], h["tool_name"], h["timestamp"], h["active"], h["tip"])
       for h in json.load(open(sys.argv[1]))]
want = [("7", 2, 3, "tool", "", "2026-01-01", True, None), ("c1", 1, 5, "user", None, 1789000101, True, None),
        ("7", 4, 8, "tool", "read_file", 1789000008, True, None), ("7", None, 7, "user", None, 1789000007, True, None),
        ("7", None, 6, "user", None, 1789000006, False, None), ("7", None, 2, "system", None, 1789000002.5, True, None),
        ("7", 1, 1, "user", None, 1789000001, True, None), ("7", 3, 4, "user", None, None, True, None)]
sys.exit(got != want)
PY
grep -q '"snippet":">>>oddword<<< blob"' out.txt && ok || bad "a BLOB's text is searched and shown: $(cat out.txt)"
expect_rc 0 "odd text" S --db odd.db --color never --include-inactive oddword
cat > want.txt <<'TXT'
7  2026-09-10 00:26  integer id
  7#2  tool  -  >>>oddword<<< blob
  7#4  tool:read_file  2026-09-10 00:26  >>>oddword<<< terminal.log read
  7#?  user  2026-09-10 00:26  >>>oddword<<< active unknown
  7 (rewound)  user  2026-09-10 00:26  >>>oddword<<< rewound
  7#?  system  2026-09-10 00:26  >>>oddword<<< system prompt
  7#1  user  2026-09-10 00:26  >>>oddword<<< one
  7#3  user  -  >>>oddword<<< no time
c1  2026-09-10 00:28  text id
  c1#1  user  2026-09-10 00:28  >>>oddword<<< chain
TXT
cmp -s out.txt want.txt && ok || bad "odd text: $(diff want.txt out.txt)"
expect_rc 0 "odd visible" S --db odd.db --json --sort oldest oddword
same "odd: only active rows without --include-inactive" "1 2 3 4 5 8" "$(rows)"
[ "$(order)" = "4 1 2 8 5 3" ] && ok || bad "oldest first: no time, then numbers, then text (SQLite's order): $(order)"
expect_rc 0 "odd tool" S --db odd.db --json --tool read_file oddword
same "odd --tool (no tool_calls column)" "8" "$(rows)"
expect_rc 0 "odd tool none" S --db odd.db --json --tool terminal oddword
same "odd --tool terminal (a word of the row is not a call)" "" "$(rows)"
expect_rc 0 "like underscore" S --db odd.db --json '東京_50%'
same "東京_50 (LIKE's _ is a character)" "9" "$(rows)"
expect_rc 0 "like backslash" S --db odd.db --json '東京\50'
same "東京\\50 (LIKE's escape is a character)" "11" "$(rows)"
# a call whose arguments name another tool is not a call to it
argcall='[{"id":"c9","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"terminal.log\"}"}}]'
mk argtool "$ext
INSERT INTO messages VALUES (24, 's_tools', 'assistant', '', NULL, '$argcall', NULL, 1789000208, 1, 0);
INSERT INTO messages_fts(rowid, content, tool_name, tool_calls) SELECT id, content, tool_name, tool_calls FROM messages WHERE id = 24;"
for l in argtool; do
	expect_rc 0 "argtool all" S --db $l.db --json terminal
	same "argtool: the word is in three rows" "10 11 24" "$(rows)"
	expect_rc 0 "argtool tool" S --db $l.db --json --tool terminal terminal
	same "argtool --tool terminal" "10 11" "$(rows)"
done

# a compression chain longer than the 100 steps followed (k0 -> ... -> k120): the tip is k100;
# no source or model_config column to filter continuations by
python3 - > longchain.sql <<'PY'
print("CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, parent_session_id TEXT,")
print("  last_activity_at REAL);")
print("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);")
for i in range(121):
    parent = "NULL" if i == 0 else "'k%d'" % (i - 1)
    end = "NULL, NULL" if i == 120 else "%d, 'compression'" % (1000 + 10 * i + 5)
    print("INSERT INTO sessions VALUES ('k%d', %d, %s, %s, %d);" % (i, 1000 + 10 * i, end, parent, 1000 + 10 * i + 5))
print("INSERT INTO messages VALUES (1, 'k0', 'user', 'chainword first', 1001), (2, 'k99', 'user', 'chainword late', 1991);")
print("INSERT INTO messages VALUES (3, 'k0', 'assistant', 'chainword again', 1002);")
PY
"$mkdb" longchain.db longchain.sql || bad "mkdb longchain"
sha256sum longchain.db >> more.sha
expect_rc 0 "long chain" S --db longchain.db --json chainword
python3 -c '
import json, sys
tips = {h["session_id"]: h["tip"] for h in json.load(sys.stdin)}
sys.exit(tips != {"k0": "k100", "k99": "k120"})' < out.txt && ok || bad "long chain tips: $(cat out.txt)"

# 300 sessions with a hit each, and one session of 600 rows: message numbers stay right past the
# 256 sessions whose numbers are kept
python3 - > many.sql <<'PY'
print("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT);")
print("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);")
print("BEGIN;")
for i in range(300):
    print("INSERT INTO sessions VALUES ('m%03d', 'cli', %d, 't');" % (i, 1000 + i))
    print("INSERT INTO messages VALUES (%d, 'm%03d', 'user', 'hello', %d), (%d, 'm%03d', 'assistant', 'manyword %d', %d);"
          % (2 * i + 1, i, 1000 + i, 2 * i + 2, i, i, 1000 + i))
print("INSERT INTO sessions VALUES ('big', 'cli', 5000, 'big');")
for k in range(600):
    print("INSERT INTO messages VALUES (%d, 'big', 'user', '%s', %d);" % (1000 + k, "bigword" if k % 100 == 99 else "filler", 5000 + k))
print("COMMIT;")
PY
"$mkdb" many.db many.sql || bad "mkdb many"
sha256sum many.db >> more.sha
expect_rc 0 "many sessions" S --db many.db --json --limit 1000 --sort oldest manyword
python3 -c '
import json, sys
h = json.load(sys.stdin)
want = [("m%03d" % i, 2, 2 * i + 2) for i in range(300)]
sys.exit([(x["session_id"], x["message"], x["row_id"]) for x in h] != want)' < out.txt && ok || bad "many sessions: $(head -c 300 out.txt)"
expect_rc 0 "big session" S --db many.db --json --sort oldest bigword
[ "$(python3 -c 'import json,sys; print(" ".join(str(h["message"]) for h in json.load(sys.stdin)))' < out.txt)" = "100 200 300 400 500 600" ] &&
	ok || bad "big session numbers: $(head -c 300 out.txt)"
expect_rc 0 "many sessions text" S --db many.db --sessions --limit 3 --sort newest manyword
[ "$(cat out.txt)" = "m299
m298
m297" ] && ok || bad "--sessions --limit 3: $(cat out.txt)"
grep -q 'more sessions not shown' err.txt && ok || bad "more sessions said: $(cat err.txt)"

# --limit stops the index, the rows it lacks are not scanned on top of a full answer
for l in external:newest rebuild:rank rebuild:newest view3:rank tri1:rank triwin:rank; do
	q=retry; case ${l%%:*} in tri*) q=東京タワー ;; esac
	expect_rc 0 "limit 1 $l" S --db "${l%%:*}.db" --json --limit 1 --sort "${l#*:}" "$q"
	[ "$(rows | wc -w)" = 1 ] && ok || bad "$l --limit 1: $(rows)"
	expect_rc 0 "limit 1 text $l" S --db "${l%%:*}.db" --color never --limit 1 --sort "${l#*:}" "$q"
	grep -q 'more hits not shown (raise --limit)' err.txt && ok || bad "$l: more hits said: $(cat err.txt)"
done
expect_rc 0 "newest 1" S --db external.db --json --limit 1 --sort newest retry
same "external --sort newest --limit 1" "13" "$(rows)"
expect_rc 0 "rank 1" S --db rebuild.db --json --limit 2 --sort rank retry loop
same "rebuild --sort rank --limit 2: the index's own hits first" "1 13" "$(rows)"

# a long query: the how line is cut, not overrun
words=$(python3 -c 'print(" ".join("word%03d" % i for i in range(60)))')
cjk=$(python3 -c 'print(" ".join("東京タワー%d" % i for i in range(60)))')
for l in rebuild:"$words" view3:"$words" trileg:"$cjk" triwin:"$cjk"; do
	expect_rc 0 "long how ${l%%:*}" S --db "${l%%:*}.db" --verbose ${l#*:}
	n=$(wc -c < err.txt)
	grep -q ': messages_fts.*, complete: MATCH "' err.txt && [ "$n" -lt 500 ] && [ ! -s out.txt ] && ok || bad "long how ${l%%:*}: $n bytes: $(cat err.txt)"
done

# an index whose pages are damaged: the probe passes, the search fails with one error line
mk damaged "$ext
UPDATE messages_fts_data SET block = X'0102030405060708' WHERE id > 10;"
for sort in rank newest; do
	expect_rc 1 "damaged $sort" S --db damaged.db --sort $sort retry loop
	one_line_err "damaged $sort"
	grep -q "cannot search 'damaged.db': database disk image is malformed" err.txt && ok || bad "damaged said: $(cat err.txt)"
done
# output that cannot be written is a failure
if [ -w /dev/full ]; then
	"$txc" search --db external.db --json retry > /dev/full 2> err.txt; rc=$?
	[ $rc = 1 ] && grep -q '^txc: error: cannot write to stdout' err.txt && ok || bad "/dev/full: exit $rc, $(cat err.txt)"
else
	skip "/dev/full" "no /dev/full here"
fi
# no store at the default place: --json still answers a JSON array
mkdir -p nohome
expect_rc 0 "default store missing" env HOME="$PWD/nohome" HERMES_HOME="$PWD/nohome" "$txc" search --json retry
[ "$(cat out.txt)" = "[]" ] && grep -q "warning: no Hermes store at '$PWD/nohome/state.db'" err.txt && ok || bad "missing store json: $(cat out.txt) $(cat err.txt)"
[ -e nohome/state.db ] && bad "a store was created" || ok

# no message id and sessions WITHOUT ROWID: one pass in time order; no numbers; a NULL role and title;
# a tab and a line break in the JSON snippet become spaces; a trigram index it cannot read by id
cat > noid.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT) WITHOUT ROWID;
CREATE TABLE messages (session_id TEXT, role TEXT, content TEXT, timestamp REAL);
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='trigram');
INSERT INTO sessions VALUES ('n1', 'cli', 1789000000, 'first'), ('n2', 'cli', 1789000100, NULL);
INSERT INTO messages VALUES ('n1', 'user', '東京タワー noidword', 1789000001), ('n1', 'assistant', 'noidword reply', 1789000002);
INSERT INTO messages VALUES ('n2', 'user', '東京タワー again', 1789000101), ('n2', NULL, 'noidword	tab' || char(13) || char(10) || 'line', 1789000102);
INSERT INTO messages_fts_trigram(rowid, content) SELECT rowid, content FROM messages;
SQL
"$mkdb" noid.db noid.sql || bad "mkdb noid"
sha256sum noid.db >> more.sha
expect_rc 0 "noid trigram" S --db noid.db --json --verbose 東京タワー
grep -q ': scan, .*messages has no id or role to read messages_fts_trigram by; 2 hits' err.txt && ok || bad "noid: $(cat err.txt)"
python3 -c '
import json, sys
got = [(h["session_id"], h["message"], h["row_id"], h["title"], h["snippet"]) for h in json.load(sys.stdin)]
sys.exit(got != [("n2", None, None, None, ">>>東京タワー<<< again"), ("n1", None, None, "first", ">>>東京タワー<<< noidword")])' < out.txt &&
	ok || bad "noid hits: $(cat out.txt)"
expect_rc 0 "noid words" S --db noid.db --json --sort oldest noidword
python3 -c '
import json, sys
got = [(h["session_id"], h["role"], h["snippet"]) for h in json.load(sys.stdin)]
sys.exit(got != [("n1", "user", "東京タワー >>>noidword<<<"), ("n1", "assistant", ">>>noidword<<< reply"), ("n2", None, ">>>noidword<<< tab  line")])' < out.txt &&
	ok || bad "noid oldest: $(cat out.txt)"
expect_rc 0 "noid text" S --db noid.db --color never noidword
printf 'n2  2026-09-10 00:28  \n  n2#?  -  2026-09-10 00:28  >>>noidword<<< tab\\x0d line\nn1  2026-09-10 00:26  first\n' > want.txt
head -n 3 out.txt | cmp -s - want.txt && ok || bad "noid text: $(cat out.txt)"
# LIKE's % in a substring word
expect_rc 0 "like percent" S --db odd.db --json '東京%50'
same "東京%50 (LIKE's % is a character)" "12" "$(rows)"

# a damaged trigram index: by rank the failure stops the search before the scan on top
mk tridamaged "$tri1
UPDATE messages_fts_trigram_data SET block = X'0102030405060708' WHERE id > 10;"
for sort in rank newest; do
	expect_rc 1 "tridamaged $sort" S --db tridamaged.db --sort $sort 東京タワー
	one_line_err "tridamaged $sort"
	[ ! -s out.txt ] && ok || bad "tridamaged $sort printed hits: $(cat out.txt)"
done

# every profile's store, each hit naming its profile; a full --limit stops before the next store
mkdir -p home/profiles/p2
cp external.db home/state.db && cp none.db home/profiles/p2/state.db
expect_rc 0 "all profiles" S --home home --all-profiles --json --sort oldest retry loop
python3 -c '
import json, sys
got = [(h["profile"], h["row_id"]) for h in json.load(sys.stdin)]
sys.exit(sorted(got) != [("default", 1), ("default", 2), ("default", 13), ("p2", 1), ("p2", 2), ("p2", 13)])' < out.txt &&
	ok || bad "all profiles: $(cat out.txt)"
expect_rc 0 "all profiles limit" S --home home --all-profiles --json --verbose --limit 2 retry loop
[ "$(rows | wc -w)" = 2 ] && [ "$(grep -c 'txc: search: ' err.txt)" = 1 ] && ok || bad "limit across profiles: $(cat err.txt)"

# text form: a compacted row says so; a session's hits share its heading and tip
expect_rc 0 "compacted text" S --db external.db --color never oldword
[ "$(sed -n 2p out.txt)" = "  s_retry#3  user (compacted)  2026-09-10 00:26  compacted >>>oldword<<< history" ] && ok ||
	bad "compacted text: $(cat out.txt)"
expect_rc 0 "chain text" S --db longchain.db --color never chainword
[ "$(grep -c '^k0 .*(compressed; continued in k100)$' out.txt)" = 1 ] && [ "$(grep -c '^  k0#' out.txt)" = 2 ] && ok ||
	bad "chain text: $(cat out.txt)"
# --sessions on a terminal: ids escaped as all text is
if command -v script > /dev/null; then
	script -qec "'$txc' search --db odd.db --sessions --include-inactive oddword" /dev/null > tty.txt 2>&1
	[ "$(tr -d '\r' < tty.txt)" = "7
c1" ] && ok || bad "--sessions on a tty: $(cat tty.txt)"
fi
# no store: named, exit 3; at the default place, a warning and no output
expect_rc 3 "no such db" S --db nonexist.db retry
one_line_err "no such db"
expect_rc 0 "default store missing, text" env HOME="$PWD/nohome" HERMES_HOME="$PWD/nohome" "$txc" search retry
[ ! -s out.txt ] && grep -q "warning: no Hermes store at '$PWD/nohome/state.db'" err.txt && ok || bad "missing store text: $(cat out.txt) $(cat err.txt)"

# more spellings: unicode61 in single quotes (used); trigram indexes txc must not narrow by: another
# tokenizer, none, a content name too long or a rowid column that is no plain name
mk uniquote "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id, tokenize='unicode61');
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
INSERT INTO state_meta VALUES ('fts_stale', NULL);"
mk triporter "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='porter');
$legtri"
mk trinotok "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content);
$legtri"
mk trilong "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, content='messages_fts_trigram_src_with_a_name_longer_than_sixty_three_chars', content_rowid='id', tokenize='trigram');"
mk tribadid "$tri1
DROP TABLE messages_fts_trigram;
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, content='messages_fts_trigram_src', content_rowid='my id', tokenize='trigram');"
for l in uniquote:'messages_fts (external content), complete: MATCH "retry" AND "loop"; rows whose text is not as the index holds it ("\\0json:" content): scanned; 3 hits' \
	triporter:'scan, .*is not a case-folding trigram index; 6 hits' trinotok:'scan, .*is not a case-folding trigram index; 6 hits' \
	trilong:'scan, .*reads no content table txc can read; 6 hits' tribadid:'scan, .*reads no content table txc can read; 6 hits'; do
	q=東京タワー; [ "${l%%:*}" = uniquote ] && q='retry loop'
	expect_rc 0 "${l%%:*}" S --db "${l%%:*}.db" --json --verbose --limit 100 $q
	grep -q -- "${l#*:}" err.txt && ok || bad "${l%%:*}: $(cat err.txt)"
	same "${l%%:*} rows" "$(grep "^$q|" cases.txt | cut -d'|' -f2)" "$(rows)"
done
# the later view on a store whose messages have no tool_calls or tool_name column, and sessions
# with parent links but no end_reason (no chains to follow)
cat > nocols.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT, parent_session_id TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
CREATE VIEW messages_fts_trigram_src AS SELECT id, content FROM messages WHERE role <> 'tool';
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram');
INSERT INTO sessions VALUES ('p1', 'cli', 1789000000, 'parent', NULL), ('p2', 'cli', 1789000100, 'child', 'p1');
INSERT INTO messages VALUES (1, 'p1', 'user', '東京タワー one', 1789000001), (2, 'p1', 'tool', '東京タワー tool', 1789000002);
INSERT INTO messages VALUES (3, 'p2', 'user', '東京タワー two', 1789000101);
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild');
SQL
"$mkdb" nocols.db nocols.sql || bad "mkdb nocols"
sha256sum nocols.db >> more.sha
expect_rc 0 "nocols" S --db nocols.db --json --verbose --sort oldest 東京タワー
[ "$(order)" = "1 2 3" ] && ok || bad "nocols rows: $(cat out.txt)"
grep -q 'messages_fts_trigram (external content), .*leaves out (tool rows, and tool calls) are not indexed by it: scanned; rows whose text is not as the index holds it ("\\0json:" content): scanned; 3 hits' err.txt &&
	ok || bad "nocols: $(cat err.txt)"
python3 -c 'import json,sys; sys.exit(any(h["tip"] is not None for h in json.load(sys.stdin)))' < out.txt && ok || bad "nocols tips: $(cat out.txt)"

# no messages table, or one without session_id: nothing to find, said so
for l in nomsg nosid; do
	{
		echo "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT);"
		echo "INSERT INTO sessions VALUES ('a', 'cli', 1789000000, 't');"
		[ $l = nosid ] && echo "CREATE TABLE messages (id INTEGER PRIMARY KEY, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES (1, 'user', 'word', 1);"
	} > $l.sql
	"$mkdb" $l.db $l.sql || bad "mkdb $l"
	sha256sum $l.db >> more.sha
	expect_rc 0 "$l" S --db $l.db --json --verbose word
	why="the store has no messages table"
	[ $l = nosid ] && why="the store's messages have no session_id"
	[ "$(cat out.txt)" = "[]" ] && grep -qF ": none, complete: $why; 0 hits" err.txt && ok || bad "$l: $(cat out.txt) $(cat err.txt)"
done

# no ids, so no numbers: a compacted row is "#?" and says (compacted), one also active does not
cat > flags.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (session_id TEXT, role TEXT, content TEXT, timestamp REAL, active INTEGER, compacted INTEGER);
INSERT INTO sessions VALUES ('f1', 'cli', 1789000000, 'flags');
INSERT INTO messages VALUES ('f1', 'user', 'flagword archived', 1789000001, 0, 1), ('f1', 'user', 'flagword both', 1789000002, 1, 1);
SQL
"$mkdb" flags.db flags.sql || bad "mkdb flags"
sha256sum flags.db >> more.sha
expect_rc 0 "flags text" S --db flags.db --color never flagword
printf 'f1  2026-09-10 00:26  flags\n  f1#?  user  2026-09-10 00:26  >>>flagword<<< both\n  f1#?  user (compacted)  2026-09-10 00:26  >>>flagword<<< archived\n' > want.txt
cmp -s out.txt want.txt && ok || bad "flags text: $(cat out.txt)"

# by time with a limit, the index's hits and the "\0json:" rows it cannot hold (here: the word
# behind a JSON escape, scanned on top) are one order: the same hits as a scan of the rows, not
# the index's first (issue 27, item 9)
json_row() { # id time word
	printf "INSERT INTO messages VALUES (%s, 's_retry', 'user', CAST(X'00%s' AS TEXT), NULL, NULL, NULL, %s, 1, 0);\n" \
		"$1" "$(printf 'json:[{"type":"text","text":"%s json"}]' "$3" | od -An -tx1 | tr -d ' \n')" "$2"
}
mixed="INSERT INTO messages VALUES (30, 's_retry', 'user', 'mixword plain one', NULL, NULL, NULL, 1789000010, 1, 0);
$(json_row 31 1789000011 'mix\u0077ord')
INSERT INTO messages VALUES (32, 's_retry', 'user', 'mixword plain two', NULL, NULL, NULL, 1789000012, 1, 0);
$(json_row 33 1789000013 'mix\u0077ord')"
mk mixscan "$mixed"
mk mixfts "$ext
$mixed
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');"
for o in "--sort oldest -n 1" "--sort oldest -n 3" "--sort newest -n 1" "--sort newest -n 3"; do
	# shellcheck disable=SC2086
	XDG_CACHE_HOME=$work/cache S --db mixscan.db --json $o mixword > out.txt 2> err.txt
	want=$(python3 -c 'import json,sys; print(" ".join(str(r["row_id"]) for r in json.load(sys.stdin)))' < out.txt)
	# shellcheck disable=SC2086
	XDG_CACHE_HOME=$work/cache S --db mixfts.db --json $o mixword > out.txt 2> err.txt
	got=$(python3 -c 'import json,sys; print(" ".join(str(r["row_id"]) for r in json.load(sys.stdin)))' < out.txt)
	[ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "index and NUL json: rows, $o: rows '$got', a scan's '$want'"
done

cat more.sha >> before.sha
sha256sum -c --quiet before.sha > sha.txt 2>&1 && ok || bad "a store changed: $(cat sha.txt)"
ls *-wal *-shm *-journal > /dev/null 2>&1 && bad "a -wal, -shm or -journal appeared" || ok
echo "search: $passes passed, $fails failed"
[ "$fails" = 0 ]
