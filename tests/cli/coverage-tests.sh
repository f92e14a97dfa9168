#!/bin/sh
# Paths the other scripts do not reach (issue 18: every user-reachable path tested), section by
# section: search of an export whose rows are rewound, compacted, role-less or odd (the scan);
# --utc, --sessions paging and on a terminal, the default store missing; a store's own search
# over odd schemas (no rowid, no id, BLOB content) and index layouts at the edges; the
# dashboard's search failing; export --out reruns over a hostile manifest, changed images,
# leftovers of a stopped run; --install over cut, foreign or renamed files, --as-new; tables of
# 300 columns; a read-only WAL store whose snapshot cannot be made; --remote with 300 sessions
# and odd tokens; search --all-profiles.  Checks that need root and setpriv, or script(1), skip.
# usage: coverage-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
umask 022
unset HERMES_HOME HERMES_DASHBOARD_SESSION_TOKEN CLAUDE_CONFIG_DIR
S() { "$txc" search "$@"; }
has() { # desc text file: the file holds the text (a fixed string)
	grep -qF -- "$2" "$3" && ok "$1" || bad "$1: '$2' not in $3: $(head -c 400 "$3")"
}

# ---- search --input: the scan of an export's rows, every kind of row ----
cat > odd.jsonl <<'JSON'
{"id": "j1", "source": "cli", "started_at": 1789000000, "title": "J", "messages": [{"id": 1, "role": "user", "content": "alpha word", "timestamp": 1789000001, "active": 1}, {"id": 2, "role": "user", "content": "alpha rewound", "timestamp": 1789000002, "active": 0}, {"id": 3, "role": "assistant", "content": "alpha compacted", "timestamp": 1789000003, "active": 0, "compacted": 1}, {"id": 4, "content": "alpha norole", "timestamp": "bad"}, {"id": 5, "role": "assistant", "content": [{"type": "text", "text": "alpha structured"}], "tool_calls": [{"function": {"name": "terminal"}}], "timestamp": 1789000005}, {"id": 6, "role": "tool", "tool_name": "terminal", "content": "alpha result", "timestamp": 1789000006}, {"role": "assistant", "content": "alpha noid", "tool_calls": "notjson", "timestamp": 1789000007}, {"id": 8, "role": "assistant", "content": null, "tool_calls": [{"function": {"name": "read_file"}}, {"type": "x"}], "timestamp": 1e14}]}
JSON
expect_rc 0 "scan: rewound hidden" S --input odd.jsonl --color never alpha
has "scan: compacted shown as such" '  j1#2  assistant (compacted)  2026-09-10 00:26  >>>alpha<<< compacted' out.txt
has "scan: no role, no number, no time" '  j1#?  -  -  >>>alpha<<< norole' out.txt
has "scan: a tool result names its tool" '  j1#4  tool:terminal  ' out.txt
# structured content is matched and shown as the text it shows (issue 26: what the model shows of a row)
has "scan: structured content as its text" '  j1#3  assistant  2026-09-10 00:26  >>>alpha<<< structured' out.txt
grep -q rewound out.txt && bad "scan: a rewound row shown without --include-inactive" || ok "scan: rewound row left out"
expect_rc 0 "scan: include-inactive" S --input odd.jsonl --color never --include-inactive alpha
has "scan: rewound row marked" '  j1 (rewound)  user  2026-09-10 00:26  >>>alpha<<< rewound' out.txt
expect_rc 0 "scan: json" S --input odd.jsonl --json --include-inactive alpha
python3 -c '
import json, sys
h = {x["snippet"].split()[1]: x for x in json.load(sys.stdin)}
ok = (h["rewound"]["message"] is None and h["rewound"]["active"] is False and h["compacted"]["compacted"] is True
      and h["norole"]["role"] is None and h["norole"]["timestamp"] == "bad" and h["noid"]["row_id"] is None
      and h["word"]["message"] == 1 and h["noid"]["message"] == 5)
sys.exit(not ok)' < out.txt && ok "scan: json fields of odd rows" || bad "scan json: $(cat out.txt)"
expect_rc 0 "scan: role" S --input odd.jsonl --json --role user --include-inactive alpha
python3 -c 'import json,sys; sys.exit(sorted(h["row_id"] for h in json.load(sys.stdin)) != [1, 2])' < out.txt && ok || bad "scan role: $(cat out.txt)"
expect_rc 0 "scan: tool (a call or a result)" S --input odd.jsonl --json --tool terminal alpha
python3 -c 'import json,sys; sys.exit(sorted(h["row_id"] for h in json.load(sys.stdin)) != [5, 6])' < out.txt && ok || bad "scan tool: $(cat out.txt)"
expect_rc 0 "scan: tool with no match" S --input odd.jsonl --tool read_file alpha
[ ! -s out.txt ] && has "scan: no match said" 'no message matches' err.txt
expect_rc 0 "scan: the tool call shown" S --input odd.jsonl --color never --tool read_file read_file
has "scan: an out-of-range time is '-'" '  j1#6  assistant  -  [{"function":{"name":">>>read_file<<<"}},{"type":"x"}]' out.txt
expect_rc 0 "--utc" env TZ=Asia/Tokyo "$txc" search --input odd.jsonl --color never --utc word
has "--utc: the time in UTC" '  j1#1  user  2026-09-10 00:26  alpha >>>word<<<' out.txt
expect_rc 0 "local time" env TZ=Asia/Tokyo "$txc" search --input odd.jsonl --color never word
has "local time: Tokyo" '  j1#1  user  2026-09-10 09:26  alpha >>>word<<<' out.txt

# ---- search: the default store missing, --sessions paging and on a terminal ----
mkdir -p nohome
expect_rc 0 "no default store, json" env HOME="$work/nohome" "$txc" search --json word
[ "$(cat out.txt)" = "[]" ] && ok "no default store: []" || bad "no default store json: $(cat out.txt)"
cat odd.jsonl > two.jsonl
sed 's/"j1"/"j2"/; s/1789000000/1789000500/' odd.jsonl >> two.jsonl
expect_rc 0 "--sessions --limit 1" S --input two.jsonl --sessions --limit 1 alpha
[ "$(cat out.txt)" = "j2" ] && has "--sessions: more said" 'more sessions not shown (raise --limit)' err.txt || bad "--sessions limit: $(cat out.txt)"
expect_rc 0 "--sessions twice one session" S --input two.jsonl --sessions alpha
[ "$(cat out.txt)" = "j2
j1" ] && ok "--sessions: each session once" || bad "--sessions: $(cat out.txt)"
if command -v script > /dev/null; then
	printf '%s\n' '{"id": "e\u001b[31m", "source": "cli", "started_at": 1, "messages": [{"role": "user", "content": "alpha", "timestamp": 2}]}' > esc.jsonl
	script -qec "'$txc' search --input esc.jsonl --sessions alpha" /dev/null > tty.txt 2>&1
	grep -q "$(printf '\033')\[31m" tty.txt && bad "--sessions on a terminal: raw escape" || has "--sessions on a terminal: escaped" 'e\x1b[31m' tty.txt
	S --input esc.jsonl --sessions alpha > pipe.txt 2> /dev/null
	[ "$(cat pipe.txt)" = "$(printf 'e\033[31m')" ] && ok "--sessions to a pipe: the id as it is" || bad "--sessions pipe: $(od -c pipe.txt | head -3)"
else
	skip "--sessions on a terminal" "no script(1)"
fi

# ---- search of a store: odd schemas (no rowid, no id, ids of other types, no compacted, BLOB content) ----
cat > odd.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL NOT NULL, title TEXT, parent_session_id TEXT, end_reason TEXT) WITHOUT ROWID;
CREATE TABLE messages (id, session_id TEXT NOT NULL, role TEXT NOT NULL, content, tool_name TEXT, timestamp, active INTEGER NOT NULL DEFAULT 1);
INSERT INTO sessions VALUES ('o1', 1789000000, 'odd', NULL, NULL);
INSERT INTO messages VALUES (1, 'o1', 'user', 'rate 100% of a_b in c:\dir', NULL, 1789000001, 1);
INSERT INTO messages VALUES (2, 'o1', 'user', 'rate 100 percent of ab', NULL, '2026-09-10', 1);
INSERT INTO messages VALUES (3, 'o1', 'user', CAST('blob rate 100% here' AS BLOB), NULL, 1789000003, 0);
INSERT INTO messages VALUES ('x4', 'o1', 'tool', 'rate 100% tool', 'terminal', 1789000004, 1);
INSERT INTO messages VALUES (5, 'o1', 'assistant', 'rate 100% last', NULL, NULL, 1);
INSERT INTO messages VALUES (6, 'o1', 'user', CAST('blob alive here' AS BLOB), NULL, 1789000006, 1);
SQL
"$mkdb" odd.db odd.sql || bad "mkdb odd"
srows() { python3 -c 'import json,sys; print(" ".join(str(h["row_id"]) for h in json.load(sys.stdin)))' < out.txt; }
expect_rc 0 "odd store: scan" S --db odd.db --json --verbose 100%
[ "$(srows)" = "2 None 1 5" ] && ok "odd store: every visible row, newest first" || bad "odd store rows: $(srows)"
has "odd store: a text timestamp kept" '"timestamp":"2026-09-10"' out.txt
has "odd store: a row id that is no integer: no number" '"message":null,"row_id":null,"role":"tool","tool_name":"terminal"' out.txt
has "odd store: scan said" 'scan, complete: every row was read' err.txt
expect_rc 0 "odd store: LIKE's own characters" S --db odd.db --json 'a_b' 'c:\dir'
[ "$(srows)" = "1" ] && ok "odd store: _ and \\ are no wildcards" || bad "odd like: $(srows)"
expect_rc 0 "odd store: BLOB content found" S --db odd.db --json alive
[ "$(srows)" = "6" ] && ok "odd store: BLOB content is searched" || bad "odd blob: $(cat out.txt)"
expect_rc 0 "odd store: rewound BLOB" S --db odd.db --json --include-inactive here
[ "$(srows)" = "6 3" ] && ok "odd store: rewound BLOB row with --include-inactive" || bad "odd blob inactive: $(cat out.txt)"
expect_rc 0 "odd store: tool (no tool_calls column)" S --db odd.db --json --tool terminal 100%
[ "$(srows)" = "None" ] && ok || bad "odd tool: $(srows)"
expect_rc 0 "odd store: oldest" S --db odd.db --json --sort oldest 100%
[ "$(srows)" = "5 1 None 2" ] && ok "odd store: oldest first (no time first)" || bad "odd oldest: $(srows)"
cat > noid.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL NOT NULL);
CREATE TABLE messages (session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('n1', 1789000000);
INSERT INTO messages VALUES ('n1', 'user', 'first word', 1789000001), ('n1', 'assistant', 'second word', 1789000002);
SQL
"$mkdb" noid.db noid.sql || bad "mkdb noid"
expect_rc 0 "no id column: one pass" S --db noid.db --color never word
has "no id column: a hit" '  n1#?  assistant  2026-09-10 00:26  second >>>word<<<' out.txt
has "no id column: both" '  n1#?  user  2026-09-10 00:26  first >>>word<<<' out.txt
printf 'CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL NOT NULL);\nINSERT INTO sessions VALUES (%s, 1);\n' "'m1'" > nomsg.sql
"$mkdb" nomsg.db nomsg.sql || bad "mkdb nomsg"
expect_rc 0 "no messages table" S --db nomsg.db --verbose word
has "no messages table: said" 'the store has no messages table' err.txt
has "no messages table: no hit" 'no message matches' err.txt

# ---- search of a store: index layouts at the edges ----
cat > fbase.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL NOT NULL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
  tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('f1', 'cli', 1789000000, 'fts');
INSERT INTO messages VALUES (1, 'f1', 'user', 'deploy the app', NULL, NULL, NULL, 1789000001);
INSERT INTO messages VALUES (2, 'f1', 'assistant', 'deploy done, app live', NULL, NULL, NULL, 1789000002);
INSERT INTO messages VALUES (3, 'f1', 'user', 'deploy again', NULL, NULL, NULL, 1789000003);
SQL
fts() { # name tokenize-clause extra-sql
	{ cat fbase.sql; printf 'CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id%s);\nINSERT INTO messages_fts(messages_fts) VALUES (%s);\n%s\n' \
		"$2" "'rebuild'" "$3"; } > "$1.sql" && "$mkdb" "$1.db" "$1.sql" || bad "mkdb $1"
}
fts nometa '' ''
fts dq ', tokenize="unicode61"' ''
fts opts ", tokenize='unicode61 remove_diacritics 2'" ''
fts fresh '' "CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO state_meta VALUES ('fts_stale', '0'), ('fts_rebuild_progress', NULL);"
fts hwonly '' "CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO state_meta VALUES ('fts_rebuild_high_water', '2');
INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) SELECT 'delete', id, content, tool_name, tool_calls FROM messages WHERE id <= 2;"
fts nomod '' "PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = 'CREATE VIRTUAL TABLE messages_fts USING nosuchmodule(content, tool_name, tool_calls)' WHERE name = 'messages_fts';
PRAGMA writable_schema = OFF;"
for l in nometa dq fresh; do
	expect_rc 0 "index $l" S --db $l.db --json --verbose deploy
	[ "$(srows | wc -w)" = 3 ] && ok "index $l: three hits" || bad "index $l: $(srows)"
	has "index $l: used" 'messages_fts (external content), complete' err.txt
done
expect_rc 0 "index with tokenizer options" S --db opts.db --json --verbose deploy
[ "$(srows | wc -w)" = 3 ] && has "tokenizer options: a scan" 'uses a tokenizer other than unicode61' err.txt || bad "opts: $(srows)"
expect_rc 0 "index a module this SQLite lacks" S --db nomod.db --json --verbose deploy
[ "$(srows | wc -w)" = 3 ] && has "unknown module: a scan" 'messages_fts cannot be read by this SQLite' err.txt || bad "nomod: $(srows)"
expect_rc 0 "rebuild from the start" S --db hwonly.db --json --verbose deploy
[ "$(srows | wc -w)" = 3 ] && has "rebuild window from row 1" 'rows 1..2 are not indexed yet' err.txt || bad "hwonly: $(srows) $(cat err.txt)"
expect_rc 0 "index: newest" S --db nometa.db --json --sort newest deploy
[ "$(srows)" = "3 2 1" ] && ok "index: newest first" || bad "index newest: $(srows)"
expect_rc 0 "scan: oldest" S --db opts.db --json --sort oldest deploy
[ "$(srows)" = "1 2 3" ] && ok "scan: oldest first" || bad "scan oldest: $(srows)"

# ---- search --remote: the dashboard's search failing, odd results, a profile, --tool refused ----
start() { # args... -> $url, $server
	python3 "$src/tools/dashboard.py" --data two.jsonl "$@" > port.txt 2> server.err &
	server=$!
	i=0; while [ ! -s port.txt ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	url=http://127.0.0.1:$(head -n 1 port.txt)
}
stop() { kill $server 2> /dev/null; wait $server 2> /dev/null; : > port.txt; }
start --search-status 404
expect_rc 3 "remote search: 404" S --remote "$url" alpha; one_line_err "remote search 404"
has "remote search 404: said" 'search: not found on the dashboard at' err.txt
stop; start --search-status 500
expect_rc 1 "remote search: 500" S --remote "$url" alpha
has "remote search 500: said" 'answered HTTP 500' err.txt
stop; start --bad-search
expect_rc 1 "remote search: no results array" S --remote "$url" alpha
has "remote search: the shape named" 'did not answer with {"results": [...]}' err.txt
stop; start --search-odd
expect_rc 0 "remote search: odd results" S --remote "$url" --json alpha
python3 -c '
import json, sys
h = json.load(sys.stdin)
sys.exit([(x["session_id"], x["snippet"]) for x in h] != [("j1", ""), ("j1", ">>>alpha<<< word"), ("j2", ">>>alpha<<< word")])' < out.txt \
	&& ok "remote search: results without role or id left out, a null snippet empty" || bad "remote odd: $(cat out.txt)"
expect_rc 0 "remote search: --limit 1" S --remote "$url" --limit 1 --color never alpha
[ "$(grep -c '^  j' out.txt)" = 1 ] && has "remote search: more said" 'more hits not shown' err.txt || bad "remote limit: $(cat out.txt)"
expect_rc 2 "remote search: --tool refused" S --remote "$url" --tool terminal alpha; one_line_err "remote --tool"
has "remote --tool: why" "the dashboard's search cannot tell which tool" err.txt
stop; start --profile work
expect_rc 0 "remote search: --profile" S --remote "$url" --profile work --json alpha
[ "$(srows)" = "None None" ] && has "remote search: the profile asked for" 'q=alpha&profile=work' server.err || bad "remote profile: $(cat out.txt)"
stop

# ---- export --out reruns: a manifest that names paths outside, through links, changed or of others ----
"$mkdb" min.db "$src/fixtures/minimal.sql" || exit 1
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1
expect_rc 0 "bulk" "$txc" export --to markdown --out bo --db min.db
mkdir -p elsewhere bo/sub bo/dir.md; echo outside > outside.md; echo elsewhere > elsewhere/x.md; ln -s ../elsewhere bo/link
echo mine > bo/old.md; echo f > bo/fmt.md; echo p > bo/prof.md
h() { sha256sum "$1" | cut -c1-64; }
z=0000000000000000000000000000000000000000000000000000000000000000
# entries shaped as txc writes them ("bytes" too): a manifest with any other line is someone's, refused (cli.files)
line() { printf '{"session_id":%s,"path":"%s","format":"%s","bytes":1,"sha256":"%s"%s}\n' "$1" "$2" "$3" "$4" "${5-}"; }
{
	line '"m1"' ../outside.md markdown "$(h outside.md)"
	line '"m1"' "$work/outside.md" markdown "$(h outside.md)"
	line '"m1"' sub/../../outside.md markdown "$(h outside.md)"
	line '"m1"' link/x.md markdown "$(h elsewhere/x.md)"
	line '"m1"' old.md markdown $z | sed 's/$/\r/'
	line '"m1"' dir.md markdown $z
	line '"m1"' fmt.md hermes "$(h bo/fmt.md)"
	line '"m1"' prof.md markdown "$(h bo/prof.md)" ',"profile":"work"'
	line 7 seven.md markdown $z
	line '"m1"' gone.md markdown $z ',"assets":[{"path":"a"},{"path":1,"sha256":"'$z'"},"x",{"path":"gone.md.assets/i.png","sha256":"abc"}]'
	line '"m1"' '' markdown $z
} >> bo/manifest.jsonl
for f in outside.md elsewhere/x.md bo/old.md bo/fmt.md bo/prof.md; do h "$f"; done > kept.sha
expect_rc 0 "rerun over a hostile manifest" "$txc" export --to markdown --out bo --db min.db
[ "$(h outside.md; h elsewhere/x.md; h bo/old.md; h bo/fmt.md; h bo/prof.md)" = "$(cat kept.sha)" ] && [ -d bo/dir.md ] &&
	ok "hostile manifest: nothing outside, through a link, changed or of others removed" || bad "hostile manifest: $(find . -name '*.md')"
has "hostile manifest: a changed file kept and said" "kept 'bo/old.md': it changed since txc wrote it" err.txt
has "hostile manifest: a folder kept and said" "kept 'bo/dir.md': it changed since txc wrote it" err.txt
grep -q 'outside\|link/x\|old.md\|dir.md\|gone.md\|"path":""' bo/manifest.jsonl && bad "stale entries of m1 kept: $(cat bo/manifest.jsonl)" ||
	ok "hostile manifest: m1's stale entries dropped"
grep -q '"path":"fmt.md","format":"hermes"' bo/manifest.jsonl && grep -q '"path":"prof.md",.*"profile":"work"' bo/manifest.jsonl &&
	grep -q '"session_id":7,"path":"seven.md"' bo/manifest.jsonl && ok "hostile manifest: other formats, profiles and ids kept" ||
	bad "hostile manifest others: $(cat bo/manifest.jsonl)"
json_ok bo/manifest.jsonl && ok "hostile manifest: the rewrite is JSON" || bad "manifest json"

# ---- export --out: an asset replaced by a folder, its folder a file, then restored; --progress ----
expect_rc 0 "bulk with an asset" "$txc" export --to markdown --out ba --db feat.db
asset=ba/img-unicode-title.md.assets/image-1.png
cp "$asset" asset.orig && rm "$asset" && mkdir "$asset"
expect_rc 1 "an asset that is a folder" "$txc" export --to markdown --out ba --db feat.db
has "asset folder: refused" "'$asset' exists and is not as txc wrote it; pass --force to overwrite it" err.txt
[ -d "$asset" ] && ok "asset folder: left alone" || bad "asset folder removed"
rm -rf ba/img-unicode-title.md.assets && echo x > ba/img-unicode-title.md.assets
expect_rc 1 "the assets folder is a file" "$txc" export --to markdown --out ba --db feat.db
has "assets folder a file: said" "Not a directory" err.txt
[ "$(cat ba/img-unicode-title.md.assets)" = x ] && ok "assets folder a file: kept" || bad "a file replaced"
rm ba/img-unicode-title.md.assets
expect_rc 0 "assets restored" "$txc" export --to markdown --out ba --db feat.db --progress
cmp -s "$asset" asset.orig && has "restored: the document updated" '0 new, 1 updated, 3 unchanged' err.txt || bad "restore: $(cat err.txt)"
has "--progress: counted to the end" '4/4 sessions' err.txt

# ---- --install: what is in the installed file decides (cut, foreign, others' lines); --as-new; odd cwds ----
mkdir -p repo
cat > ct.sql <<SQL
CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL, title TEXT, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('ct', 'cli', 1, 'Titled', '$work/repo'), ('cf', 'cli', 1, NULL, '$work/ct.sql'), ('cr', 'cli', 1, NULL, 'rel/dir');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('ct', 'user', 'hi', 2), ('ct', 'assistant', 'yo', 3), ('cf', 'user', 'hi', 2), ('cr', 'user', 'hi', 2);
SQL
"$mkdb" ct.db ct.sql || exit 1
inst() { env CLAUDE_CONFIG_DIR="$work/ci" "$txc" convert "$@" --to claude --install --db ct.db; }
expect_rc 0 "install: cwd a file" inst cf
has "install: a cwd that is a file said" "the session's directory '$work/ct.sql' does not exist here; installing for $work" err.txt
expect_rc 0 "install: a relative cwd" inst cr
has "install: a relative cwd said" "the session's directory 'rel/dir' does not exist here" err.txt
expect_rc 0 "install" inst ct
f=$(sed -n 's/^installed //p' out.txt); cp "$f" inst.orig
uuid=$(basename "$f" .jsonl)
reinst() { # want desc: install ct over $f as it is now; the file must stay as it was unless want is 0
	cp "$f" inst.now
	expect_rc "$1" "reinstall over $2" inst ct
	if [ "$1" != 0 ]; then cmp -s "$f" inst.now && ok "$2: the file kept" || bad "$2: the file changed"; fi
	cp inst.orig "$f"
}
head -c -1 inst.orig > "$f"; reinst 4 "a cut last line"
has "a cut last line: continued" "was continued in Claude Code; txc never replaces it" err.txt
{ echo '{"type":"summary","summary":"x","leafUuid":"y"}'; cat inst.orig; } > "$f"; reinst 4 "a summary first"
sed 's/"uuid":"\(........-....-\)5/"uuid":"\14/' inst.orig > "$f"; reinst 1 "records not of txc (uuid version)"
has "foreign: said" "exists and is not a session txc installed; pass --force to overwrite it" err.txt
sed "s/\"sessionId\":\"$uuid\"}\$/\"sessionId\":\"other\"}/" inst.orig > "$f"; reinst 4 "another session's title"
echo '[1]' > "$f"; reinst 1 "a JSON line that is no object"
{ cat inst.orig; echo '{"type":"custom-title","customTitle":"Mine","sessionId":"'"$uuid"'"}'; } > "$f"; reinst 0 "a rename in Claude Code after txc's lines"
has "a rename after txc's: unchanged" "unchanged $f" out.txt
expect_rc 0 "--as-new" inst ct --as-new
n2=$(sed -n 's/^installed //p' out.txt)
[ -s "$n2" ] && [ "$n2" != "$f" ] && ok "--as-new: another file" || bad "--as-new: $(cat out.txt)"
expect_rc 0 "--as-new again: the same" inst ct --as-new
has "--as-new again: unchanged" "unchanged $n2" out.txt
echo '{"type":"user","x":1}' >> "$n2"; cp "$n2" n2.before
expect_rc 0 "--as-new over a continued copy" inst ct --as-new
n3=$(sed -n 's/^installed //p' out.txt)
[ -s "$n3" ] && [ "$n3" != "$n2" ] && [ "$n3" != "$f" ] && cmp -s "$n2" n2.before && ok "--as-new: a third file, the continued copy kept" ||
	bad "--as-new third: $(cat out.txt err.txt)"

# ---- a table with more than 256 columns: every column read (the title after them, every extra exported) ----
python3 - > wide.sql <<'PY'
cols = ", ".join("c%d TEXT" % i for i in range(300))
print("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, %s, title TEXT, cwd TEXT);" % cols)
print("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, %s, content TEXT, timestamp REAL);" % cols)
print("INSERT INTO sessions (id, source, started_at, c299, title, cwd) VALUES ('w1', 'cli', 1789000000, 'last extra', 'Wide title', '/w');")
print("INSERT INTO messages (session_id, role, c299, content, timestamp) VALUES ('w1', 'user', 'x', 'wide hello', 1789000001);")
PY
"$mkdb" wide.db wide.sql || bad "mkdb wide"
expect_rc 0 "300 columns: list" "$txc" list --db wide.db
grep -q '^w1  .*  Wide title$' out.txt && ok "300 columns: the title after them" || bad "wide list: $(cat out.txt)"
expect_rc 0 "300 columns: hermes export" "$txc" convert w1 --to hermes --db wide.db
python3 -c '
import json, sys
s = json.load(sys.stdin)
sys.exit(not (s["c299"] == "last extra" and s["title"] == "Wide title" and s["cwd"] == "/w" and s["messages"][0]["c299"] == "x"))' < out.txt &&
	ok "300 columns: every column exported" || bad "wide export: $(head -c 300 out.txt)"

# ---- small corners: completions without a shell, an unknown option of artifacts, --title '', --since --utc ----
expect_rc 2 "completions without a shell" "$txc" completions; one_line_err "completions without a shell"
has "completions: the shells named" 'txc completions takes bash, zsh or fish' err.txt
expect_rc 2 "completions of an unknown shell" "$txc" completions tcsh; one_line_err "completions tcsh"
expect_rc 2 "artifacts: an unknown option" "$txc" artifacts --bogus; one_line_err "artifacts --bogus"
has "artifacts --bogus: named" "unknown option '--bogus' (see 'txc artifacts --help')" err.txt
expect_rc 0 "--title ''" "$txc" list --db min.db --title ''
[ "$(grep -c '^m[12] ' out.txt)" = 2 ] && ok "--title '': every session" || bad "--title '': $(cat out.txt)"
expect_rc 0 "--since a date, local" env TZ=Asia/Tokyo "$txc" list --db min.db --since 2023-11-15
[ "$(grep -c '^m[12]  2023-11-15 07:1' out.txt)" = 2 ] && ok "--since local: the Tokyo day" || bad "--since local: $(cat out.txt)"
expect_rc 0 "--since a date, --utc" env TZ=Asia/Tokyo "$txc" list --db min.db --since 2023-11-15 --utc
grep -q '^m[12] ' out.txt && bad "--since --utc: the UTC day is later: $(cat out.txt)" || ok "--since --utc: the day in UTC"
expect_rc 0 "--until a date, --utc" env TZ=Asia/Tokyo "$txc" list --db min.db --until 2023-11-14 --utc
[ "$(grep -c '^m[12]  2023-11-14 22:1' out.txt)" = 2 ] && ok "--until --utc: through the end of the UTC day" || bad "--until --utc: $(cat out.txt)"

# ---- a WAL store in a read-only folder without its -shm (another user): no snapshot folder, a WAL it cannot read ----
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	ro=$(mktemp -d /tmp/txc-cov-ro-XXXXXX) && chmod 755 "$ro"
	python3 - "$ro/state.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA journal_mode=WAL")
c.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT)")
c.execute("INSERT INTO sessions VALUES ('w1', 'cli', 1789000000, 'only in the wal')")
c.commit()
os._exit(0)  # no checkpoint: the rows stay in the -wal
PY
	rm -f "$ro/state.db-shm"; chmod 644 "$ro"/state.db*; chmod 555 "$ro"
	sum=$(cat "$ro"/state.db "$ro"/state.db-wal | cksum)
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	unpro() { grep -v '^profiling:.*gcda' err.txt > err2.txt; mv err2.txt err.txt; } # a coverage build's counters
	expect_rc 1 "snapshot: TMPDIR missing" env TMPDIR="$work/nonexistent" sh -c 'setpriv --reuid=65534 --regid=65534 --clear-groups "$0" list --db "$1"' "$txc" "$ro/state.db"
	unpro; has "snapshot: no folder for it, said" "no snapshot copy could be made: No such file or directory" err.txt
	expect_rc 0 "snapshot: TMPDIR empty is /tmp" env TMPDIR= sh -c 'setpriv --reuid=65534 --regid=65534 --clear-groups "$0" list --db "$1"' "$txc" "$ro/state.db"
	has "snapshot: rows of the WAL read" 'only in the wal' out.txt
	chmod 600 "$ro/state.db-wal"
	expect_rc 1 "snapshot: a WAL it cannot read" nobody "$txc" list --db "$ro/state.db"
	unpro; has "snapshot: the copy failed, said" "failed: Permission denied" err.txt
	left=$(sed -n "s/.*copying it to '\([^']*\)' failed.*/\1/p" err.txt)
	[ -n "$left" ] && [ ! -e "$left" ] && ok "snapshot: the failed copy removed" || bad "snapshot copy left: '$left'"
	chmod 644 "$ro/state.db-wal"
	[ "$(cat "$ro"/state.db "$ro"/state.db-wal | cksum)" = "$sum" ] && [ ! -e "$ro/state.db-shm" ] && ok "snapshot: the store untouched" || bad "the store changed"
	chmod 755 "$ro"; rm -rf "$ro"
else
	skip "read-only WAL folder" "needs root and setpriv to become another user"
fi

# ---- export --out: a session's images change (the ones it no longer links go), leftovers of a stopped
#      run, a manifest that is a folder ----
png=iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==
gif=R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7
pics() { # url1 url2 -> a session with those two images
	printf '{"id": "pics", "source": "cli", "started_at": 1789000000, "title": "Pics", "messages": [{"role": "user", "content": [{"type": "text", "text": "two"}, {"type": "image_url", "image_url": {"url": "%s"}}, {"type": "image_url", "image_url": {"url": "%s"}}], "timestamp": 1789000001}]}\n' "$1" "$2"
}
pics "data:image/png;base64,$png" "data:image/gif;base64,$gif" > pics1.jsonl
pics "data:image/png;base64,$png" "data:image/png;base64,$png" > pics2.jsonl
printf '{"id": "pics", "source": "cli", "started_at": 1789000000, "title": "Pics", "messages": [{"role": "user", "content": "none now", "timestamp": 1789000001}]}\n' > pics3.jsonl
A=bp/pics-pics.md.assets
expect_rc 0 "two images" "$txc" export --to markdown --out bp --input pics1.jsonl
[ -s $A/image-1.png ] && [ -s $A/image-2.gif ] && grep -q '"assets":\[{"path":"pics-pics.md.assets/image-1.png",.*},{"path":"pics-pics.md.assets/image-2.gif"' bp/manifest.jsonl &&
	ok "two images: both written and recorded" || bad "two images: $(find bp; cat bp/manifest.jsonl)"
expect_rc 0 "the second image changed" "$txc" export --to markdown --out bp --input pics2.jsonl --progress
[ -s $A/image-2.png ] && [ ! -e $A/image-2.gif ] && ! grep -q 'image-2.gif' bp/manifest.jsonl &&
	ok "an image the session no longer links: removed" || bad "old image left: $(find bp | sort | tr '\n' ' ')"
has "the second image changed: one updated" '0 new, 1 updated' err.txt
echo edited >> $A/image-1.png
expect_rc 0 "no images now" "$txc" export --to markdown --out bp --input pics3.jsonl
has "an edited image: kept, said" "kept '$A/image-1.png': it changed since txc wrote it" err.txt
[ -s $A/image-1.png ] && [ ! -e $A/image-2.png ] && ok "no images now: the unchanged image removed, the edited kept" || bad "no images: $(find bp | sort | tr '\n' ' ')"
rm $A/image-1.png
expect_rc 0 "images again" "$txc" export --to markdown --out bp --input pics1.jsonl
expect_rc 0 "no images, all unchanged" "$txc" export --to markdown --out bp --input pics3.jsonl
[ ! -e $A ] && ok "no images: the empty assets folder removed too" || bad "assets folder left: $(find bp | sort | tr '\n' ' ')"
# leftovers of a stopped run (which left DIR marked): ".txc-tmp-" and 6 characters, in DIR and below; nothing else
mkdir -p bp/deep/er/est
: > bp/.txc-running # (the mark txc makes is empty)
for f in bp/.txc-tmp-abcdef bp/deep/.txc-tmp-ghijkl bp/.txc-tmp-short bp/.txc-tmp-abcdefg bp/deep/er/est/.txc-tmp-mnopqr; do echo x > "$f"; done
ln -s ../outside.md bp/.txc-tmp-linkxx
expect_rc 0 "leftovers of a stopped run" "$txc" export --to markdown --out bp --input pics3.jsonl
[ ! -e bp/.txc-tmp-abcdef ] && [ ! -e bp/deep/.txc-tmp-ghijkl ] && [ ! -e bp/.txc-running ] && ok "leftovers: removed in DIR and below, and the mark" || bad "leftovers kept: $(find bp -name '.txc-*')"
[ -e bp/.txc-tmp-short ] && [ -e bp/.txc-tmp-abcdefg ] && [ -L bp/.txc-tmp-linkxx ] && [ -e bp/deep/er/est/.txc-tmp-mnopqr ] &&
	ok "leftovers: other names, links and deeper folders kept" || bad "a file not a leftover removed: $(find bp -name '.txc-tmp*')"
mkdir -p bm/manifest.jsonl
expect_rc 1 "a manifest that is a folder" "$txc" export --to markdown --out bm --db min.db
has "manifest folder: said" "cannot read 'bm/manifest.jsonl'" err.txt
[ -d bm/manifest.jsonl ] && [ ! -e bm/m1.md ] && ok "manifest folder: kept, refused before any session is written" || bad "manifest folder: $(find bm)"

# ---- --remote: 300 sessions (past every first capacity), a URL with trailing slashes, --timeout, tokens ----
python3 -c '
for i in range(300): print("{\"id\": \"r%03d\", \"source\": \"cli\", \"started_at\": %d, \"messages\": [{\"role\": \"user\", \"content\": \"m\", \"timestamp\": %d}]}" % (i, 1000 + i, 1000 + i))' > many.jsonl
python3 "$src/tools/dashboard.py" --data many.jsonl > port.txt 2> server.err &
server=$!; i=0; while [ ! -s port.txt ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done; url=http://127.0.0.1:$(head -n 1 port.txt)
expect_rc 0 "remote: 300 sessions, URL with slashes, --timeout" "$txc" list --remote "$url///" --timeout 5 --json
python3 -c 'import json,sys; v=json.load(sys.stdin); sys.exit(len(v) != 300 or len({s["id"] for s in v}) != 300)' < out.txt &&
	ok "remote: every one of 300 sessions, once" || bad "remote 300: $(grep -c '"id"' out.txt)"
grep -q 'GET //' server.err && bad "remote: a request with a doubled slash" || ok "remote: the URL's trailing slashes dropped"
expect_rc 2 "remote: a --token with a control character" "$txc" list --remote "$url" --token "$(printf 'a\rb')"; one_line_err "remote: control token"
has "remote: the control token not sent" 'the session token given holds control characters; not sent' err.txt
stop
python3 "$src/tools/dashboard.py" --data many.jsonl --token "$(printf '%02000d' 7)" > port.txt 2> server.err &
server=$!; i=0; while [ ! -s port.txt ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done; url=http://127.0.0.1:$(head -n 1 port.txt)
expect_rc 1 "remote: a page token over 1 kB is not used" "$txc" list --remote "$url"
has "remote: refused without it, said" 'refused the session token (HTTP 401); pass --token' err.txt
stop

# ---- search --all-profiles: each hit names its profile; JSON snippets make line breaks and tabs spaces ----
mkdir -p h/profiles/work && cp min.db h/state.db
cat > w.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('w1', 'cli', 1789000000, 'work');
INSERT INTO messages VALUES (1, 'w1', 'user', 'first line' || char(10) || 'hello' || char(9) || 'tabbed' || char(13) || 'end', 1789000001);
SQL
"$mkdb" h/profiles/work/state.db w.sql || bad "mkdb work"
expect_rc 0 "search --all-profiles" S --home h --all-profiles --json hello
python3 -c '
import json, sys
h = {x["session_id"]: x for x in json.load(sys.stdin)}
sys.exit(not (h["m1"]["profile"] == "default" and h["w1"]["profile"] == "work" and h["w1"]["snippet"] == "first line >>>hello<<< tabbed end"))' < out.txt &&
	ok "search --all-profiles: profiles named, the snippet on one line" || bad "all-profiles search: $(cat out.txt)"
expect_rc 0 "search --all-profiles, text" S --home h --all-profiles --color never hello
has "search text: a CR escaped" '  w1#1  user  2026-09-10 00:26  first line >>>hello<<< tabbed\x0dend' out.txt

echo "coverage: $passes passed, $fails failed"
[ "$fails" = 0 ]
