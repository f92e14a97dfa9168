#!/bin/sh
# The guarantees where users meet them (issue 27, item 13):
# 1. the store is only read: every reading command (list, convert to every format, search through
#    the index and by a scan, view, artifacts, export --json, bulk export --out, --follow) leaves
#    state.db, its -wal and its -shm as they were, on a WAL store a writer holds open, on one whose
#    writer was killed (its -wal and -shm left behind: a read-write open would checkpoint the WAL
#    into state.db and delete both), on a WAL store closed cleanly (no -wal, no -shm: none
#    appears) and on a rollback-journal store (no -journal appears).  state.db and -wal: the same
#    bytes (sha256), inode, size and mtime.  -shm: the same inode and size, and the same bytes but
#    for its read marks (WalCkptInfo, bytes 96-135), which every SQLite reader writes, read-only
#    or not; the first reader after a crash rebuilds its index, so the crashed store is read once
#    (tools/livewriter.c read) before it is fingerprinted.  A read-write open changes nothing that
#    can be seen while a writer holds the store, in a clean WAL store or a rollback journal (it
#    only reads); on the killed writer's store each command would fail (checked: issue 27).
# 2. HTML escapes ' (a title and a message with one): &#39;, never raw, not in attributes either.
# 3. list shows a TAB in a title as a space: never raw on a terminal or a pipe.
# usage: guard-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR GENSTORE LIVEWRITER SCHEMA
set -u
txc=$1 mkdb=$2 work=$5 gen=$6 live=$7 schema=$8
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"

# ---- 1. the store is only read ----
fingerprint() { # DB [db-only]: one line per file of the store (or "absent")
	[ $# = 2 ] && { echo "$1 $(sha256sum < "$1" | cut -c1-64) $(stat -c '%i %s %Y' "$1")"; return; }
	for f in "$1" "$1-wal" "$1-journal"; do
		if [ -e "$f" ]; then echo "$f $(sha256sum < "$f" | cut -c1-64) $(stat -c '%i %s %Y' "$f")"; else echo "$f absent"; fi
	done
	if [ -e "$1-shm" ]; then # all but the read marks (96-135), and no mtime: a reader writes those
		echo "$1-shm $({ head -c 96 "$1-shm"; tail -c +137 "$1-shm"; } | sha256sum | cut -c1-64) $(stat -c '%i %s' "$1-shm")"
	else
		echo "$1-shm absent"
	fi
}
# every command a user reads a store with; $1 the store, $2 a session of it, $3 a tag for outputs
reads() {
	db=$1 id=$2 o=out-$3
	rm -rf "$o" && mkdir "$o"
	echo "list|$txc list --db $db"
	echo "list --json|$txc list --db $db --json"
	for f in claude hermes markdown html terminal; do echo "convert --to $f|$txc convert $id --db $db --to $f"; done
	echo "search (index)|$txc search --db $db --verbose query"
	echo "search (scan)|$txc search --db $db --verbose 東京"
	echo "view|$txc view $id --db $db"
	echo "artifacts|$txc artifacts $id --db $db"
	echo "export --json|$txc export --json --db $db"
		for f in markdown html claude; do echo "export --to $f --out|$txc export --to $f --out $o/$f --db $db"; done
	echo "convert --follow|timeout 2 $txc convert live-follow --db $db --to hermes --follow --interval 0.1"
}
untouched() { # DB ID TAG WHAT [db-only]: each reading command leaves the store as it was
	# a copy of the store to put back after a command that changed it: each check on its own
	rm -rf "keep-$3" && mkdir "keep-$3" && cp -p "$1"* "keep-$3/"
	reads "$1" "$2" "$3" > cmds.txt
	while IFS='|' read -r name cmd; do
		fp_before=$(fingerprint "$1" ${5:-})
		$cmd > out.txt 2> err.txt < /dev/null
		rc=$?
		# --follow runs until stopped (timeout: 124, having polled the store ~20 times); the rest exits 0
		# (bulk export --out writes to its folder, nothing to stdout)
		{ [ $rc = 0 ] || { [ $rc = 124 ] && [ "$name" = "convert --follow" ]; }; } && { [ -s out.txt ] || [ -s "$o/$(echo "$name" | cut -d" " -f3)/manifest.jsonl" ]; } ||
			bad "$4: $name: exit $rc, $(wc -c < out.txt) bytes ($(head -c 200 err.txt))"
		fp_after=$(fingerprint "$1" ${5:-})
		[ "$fp_after" = "$fp_before" ] && ok "$4: $name leaves the store as it was" ||
			{ bad "$4: $name changed the store: $(echo "$fp_before" | tr '\n' ';') -> $(echo "$fp_after" | tr '\n' ';')"; rm -f "$1"*; cp -p "keep-$3"/* .; }
	done < cmds.txt
}
"$gen" st.db "$schema" 0 > /dev/null || exit 1
# a CJK row for the scan, an image and a file for artifacts, in every session; then Hermes's index
printf '%s\n' "INSERT INTO messages (session_id, role, content, timestamp) SELECT id, 'user', '東京タワー', started_at + 1 FROM sessions;" \
	"INSERT INTO messages (session_id, role, content, timestamp) SELECT id, 'assistant', 'wrote ![chart](/tmp/guard/chart.png) and /tmp/guard/report.pdf', started_at + 2 FROM sessions;" \
	"CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages, content_rowid=id);" \
	"INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');" > fts.sql
"$mkdb" st.db fts.sql || exit 1
"$live" session st.db || exit 1 # live-follow: a session not ended, followed (polled) until timeout stops it
id=$("$txc" list --db st.db --json | sed -n 's/^{"id":"\([^"]*\)".*$/\1/p' | head -n 1)
[ -n "$id" ] && ok "a session to read: $id" || bad "no session in the generated store"
# the index answers the first search, the scan the second (a CJK word of 2 characters)
"$txc" search --db st.db --verbose query > /dev/null 2> err.txt
grep -q 'messages_fts' err.txt && ok "search goes through the index" || bad "no index search: $(cat err.txt)"
"$txc" search --db st.db --verbose 東京 > out.txt 2> err.txt
grep -q 'st.db: scan, complete' err.txt && [ -s out.txt ] && ok "a 2-character word scans" || bad "no scan: $(cat err.txt)"
cp st.db rb.db && cp st.db clean.db

# a WAL store a writer holds open (-wal with frames, -shm in use)
"$live" hold st.db > held.txt 2>&1 &
writer=$!
i=0; while [ "$(cat held.txt)" != held ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
[ -s st.db-wal ] && [ -e st.db-shm ] && ok "the writer holds a WAL with frames" || bad "no -wal or -shm: $(cat held.txt)"
untouched st.db "$id" held "a writer holds the store"
# the writer killed: its -wal and -shm stay; the first reader rebuilds the index in -shm
kill -9 $writer; wait $writer 2> /dev/null
[ -s st.db-wal ] && [ -e st.db-shm ] && ok "a killed writer's -wal and -shm" || bad "the kill left no -wal or -shm"
# (read first by another read-only reader, not txc: a txc that opened it read-write would
# checkpoint the WAL into state.db and delete it right there, and the checks below would not see it)
"$live" read st.db || bad "a read-only reader cannot read the killed writer's store"
untouched st.db "$id" crashed "a killed writer's WAL store"
# the same store closed cleanly (no -wal, no -shm): state.db as it was.  Not checked: SQLite's
# read-only open of such a store makes an empty -wal and a -shm, and leaves them (known, reported)
[ ! -e clean.db-wal ] && [ ! -e clean.db-shm ] && ok || bad "clean.db has a -wal or -shm"
untouched clean.db "$id" clean "a WAL store closed cleanly" db-only
# a rollback-journal store: no -journal appears
echo 'PRAGMA journal_mode=DELETE;' > rb.sql && "$mkdb" rb.db rb.sql > /dev/null || exit 1
[ "$(od -An -tu1 -j18 -N2 rb.db | tr -d ' ')" = 11 ] && ok "rb.db is in rollback-journal mode" || bad "rb.db is not (header bytes 18-19)"
untouched rb.db "$id" rb "a rollback-journal store"

# ---- 2. HTML escapes ' in a title and a message ----
cat > q.sql << 'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('q1', 'cli', 1700000000.0, 'it''s Bob''s title'' onmouseover=''x');
INSERT INTO sessions VALUES ('t1', 'cli', 1700000200.0, 'tab	here	twice');
INSERT INTO messages VALUES (1, 'q1', 'user', 'don''t <b>''quote''</b> me', 1700000001.0);
INSERT INTO messages VALUES (2, 'q1', 'assistant', 'a ''single'' quote: [x](http://e.com/''onclick=''a)', 1700000002.0);
INSERT INTO messages VALUES (3, 't1', 'user', 'hello', 1700000201.0);
SQL
"$mkdb" q.db q.sql || exit 1
expect_rc 0 "html: quotes" "$txc" convert q1 --db q.db --to html --utc
mv out.txt q.html
for s in "it&#39;s Bob&#39;s title&#39; onmouseover=&#39;x" "don&#39;t &lt;b&gt;&#39;quote&#39;&lt;/b&gt; me" "a &#39;single&#39; quote"; do
	grep -qF "$s" q.html && ok "html: ' escaped in: $s" || bad "html: not escaped as &#39;: $s"
done
grep -qE "it's|Bob's|don't|'single'|'quote'|onmouseover='" q.html && bad "html: a raw ' from the transcript: $(grep -oE ".{0,20}(it's|Bob's|don't|'single'|'quote').{0,20}" q.html | head -3)" || ok "html: no raw ' from the transcript"
# inside attributes too (the <title>, a link's href if one is made): none ends early
grep -oE '="[^"]*"' q.html | grep -F "'" | grep -v "^=\"default-src 'none'; " && bad "html: a raw ' inside an attribute" || ok "html: no raw ' in an attribute"
expect_rc 0 "export --to html: quotes in the index" "$txc" export --to html --out qh --db q.db
grep -qF "it&#39;s Bob&#39;s title&#39; onmouseover=&#39;x" qh/index.html && ! grep -qF "it's Bob" qh/index.html && ok || bad "index page: the title's ' not escaped"

# ---- 3. a TAB in a title: list shows a space, never the TAB ----
tab=$(printf '\t')
expect_rc 0 "list: a TAB in a title" "$txc" list --db q.db
grep -q "tab here twice$" out.txt && ok "list: the title's TABs shown as spaces" || bad "list: $(grep 'tab' out.txt | od -c | head -3)"
grep -q "$tab" out.txt && bad "list: a raw TAB reached the output" || ok
if command -v script > /dev/null; then
	script -q -c "$txc list --db q.db --color never" /dev/null > tty.txt 2>&1
	grep -q "tab here twice" tty.txt && ! grep -q "$tab" tty.txt && ok "list on a terminal: no raw TAB" || bad "list on a terminal: $(grep 'tab' tty.txt | od -c | head -3)"
else
	skip "list on a terminal" "no script(1)"
fi
expect_rc 0 "list --json: a TAB in a title" "$txc" list --db q.db --json
grep -qF '"tab\there\ttwice"' out.txt && ok "list --json: the TAB is \\t" || bad "list --json: $(grep tab out.txt)"

summary guard
