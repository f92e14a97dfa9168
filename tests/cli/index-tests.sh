#!/bin/sh
# txc's own search index (src/reader/hermes_db_index.c, in $XDG_CACHE_HOME/txc): on generated
# stores with Hermes's indexes (v0.20.0's external content, and the view that cuts tool rows at
# 8,192 characters), rows longer than that and rows behind "\0json:", every query gives the same
# output with the index as without it (a cache folder txc must refuse: a symlink), made fresh, used
# warm, and after the store changes (rows appended, edited, deleted, a session deleted, the store
# replaced by another file); a planted or broken index file changes nothing; the store is never
# written and nothing lands in Hermes's home.
# usage: index-tests.sh TXC GENSTORE SCHEMA WORK_DIR
set -u
txc=$1 gen=$2 schema=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || { skip "index tests" "no sqlite3 shell"; summary cli.index; exit 0; }

# the v0.20.0 layout (messages_fts reads messages) and the v3 one (messages_fts_src cuts tool rows)
fts_v20="CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages', content_rowid='id');
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls) VALUES (new.id, new.content, new.tool_name, new.tool_calls); END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) VALUES ('delete', old.id, old.content, old.tool_name, old.tool_calls); END;"
cut="CASE WHEN role = 'tool' THEN substr(COALESCE(content, ''), 1, 8192) ELSE content END"
fts_v3="CREATE VIEW messages_fts_src AS SELECT id, $cut AS content, tool_name, tool_calls FROM messages;
CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages_fts_src', content_rowid='id');
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls) VALUES (new.id, CASE WHEN new.role = 'tool' THEN substr(COALESCE(new.content, ''), 1, 8192) ELSE new.content END, new.tool_name, new.tool_calls); END;"
filler=$(python3 -c 'print("filler words " * 800)')
extra="INSERT INTO messages (session_id, role, content, tool_name, timestamp) VALUES
  ((SELECT id FROM sessions ORDER BY id LIMIT 1), 'tool', '$filler zebraquux end', 'terminal', 1789000001),
  ((SELECT id FROM sessions ORDER BY id LIMIT 1), 'user', char(0) || 'json:[{\"type\": \"text\", \"text\": \"jsonrareword and zebraquux\"}]', NULL, 1789000002),
  ((SELECT id FROM sessions ORDER BY id DESC LIMIT 1), 'tool', '$filler longtail' || char(10) || 'zebraquux again', 'read_file', 1789000003);"
"$gen" gen.db "$schema" 0 > /dev/null 2>&1 && rm -f gen.db-wal gen.db-shm || { bad "txc-genstore made no store"; summary cli.index; exit 1; }

mkdir -p refused-real refused home && ln -s ../refused-real refused/txc # a cache folder that is a symlink: refused
export HERMES_HOME="$work/home"
queries="zebraquux|jsonrareword|longtail|retry loop|\"filler words\" zebraquux|zebra*|the|what is this|-filler jsonrareword"
# every query with the cache at $1, into the file $2: by every order, two limits, a role and
# inactive sessions on a store as made ($opts full); after a change only the options whose
# hits the change can move (the default, every hit, inactive sessions), since the orders and
# the role filter run over the same hits (half the runs: CI time, issue 27)
opts=full
run_all() {
	cache=$1 out=$2
	if [ "$opts" = full ]; then
		set -- "" "--sort newest" "--sort oldest" "--limit 100000" "--role tool" "--include-inactive"
	else
		set -- "" "--limit 100000" "--include-inactive"
	fi
	: > "$out"
	printf '%s\n' "$queries" | tr '|' '\n' | while IFS= read -r q; do
		for opt in "$@"; do
			# shellcheck disable=SC2086
			XDG_CACHE_HOME=$cache "$txc" search --db store.db --json $opt -- $q >> "$out" 2>&1
			echo "rc=$? [$opt $q]" >> "$out"
		done
	done
}
same() { # name: the store now gives the same hits with the index (fresh, then warm) as without it
	run_all "$work/refused" without.txt
	[ -z "$(ls refused-real)" ] || bad "$1: wrote into a refused (symlinked) cache folder"
	run_all "$work/cache" fresh.txt
	run_all "$work/cache" warm.txt
	if [ "$(grep -c '"session_id"\|"id"' without.txt)" -lt 5 ]; then
		bad "$1: the queries found too little to compare ($(wc -l < without.txt) lines)"
	elif cmp -s without.txt fresh.txt && cmp -s without.txt warm.txt; then
		ok "$1: same output with txc's index as without it"
	else
		bad "$1: output differs with txc's index"
		diff without.txt fresh.txt | head -5
		diff without.txt warm.txt | head -5
	fi
}

for layout in v20 v3; do
	rm -rf cache store.db*
	cp gen.db store.db
	eval "fts=\$fts_$layout"
	sqlite3 store.db "$fts INSERT INTO messages_fts(messages_fts) VALUES ('rebuild'); $extra" > /dev/null || bad "$layout: store"
	sqlite3 store.db "PRAGMA journal_mode=WAL" > /dev/null
	opts=full
	same "$layout: generated store"
	opts=changes
	if ls cache/txc/search-*.db > /dev/null 2>&1; then ok "$layout: the index is in the cache folder"; else bad "$layout: no index in \$XDG_CACHE_HOME/txc"; fi
	[ -z "$(ls home)" ] && ok "$layout: nothing in Hermes's home" || bad "$layout: wrote into HERMES_HOME"
	sqlite3 store.db "INSERT INTO messages (session_id, role, content, tool_name, timestamp)
		SELECT session_id, 'tool', '$filler appendedword', 'terminal', 1789000009 FROM messages LIMIT 1" > /dev/null
	same "$layout: a long row appended"
	sqlite3 store.db "UPDATE messages SET content = char(0) || 'json:[{\"type\": \"text\", \"text\": \"editedword zebraquux\"}]'
		WHERE id = (SELECT min(id) FROM messages WHERE role = 'user')" > /dev/null
	queries="$queries|editedword|appendedword"
	same "$layout: a row edited into NUL json: (no trigger tells Hermes's index)"
	sqlite3 store.db "UPDATE messages SET content = 'plain now' WHERE content LIKE '%jsonrareword%'" > /dev/null
	same "$layout: a NUL json: row edited to plain text"
	sqlite3 store.db "DELETE FROM messages WHERE content LIKE '%longtail%'" > /dev/null
	same "$layout: a long row deleted"
	sqlite3 store.db "DELETE FROM messages WHERE session_id = (SELECT session_id FROM messages WHERE content LIKE '%appendedword%');
		DELETE FROM sessions WHERE id NOT IN (SELECT session_id FROM messages)" > /dev/null
	same "$layout: a session deleted"
	cp store.db other.db && sqlite3 other.db "PRAGMA journal_mode=DELETE; UPDATE messages SET content = content || ' swappedword' WHERE length(content) > 8192" > /dev/null
	sum=$(cat store.db | cksum)
	mv other.db store.db && rm -f store.db-wal store.db-shm
	queries="$queries|swappedword"
	same "$layout: the store replaced by another file"
	[ "$(cat store.db | cksum)" = "$sum" ] && bad "$layout: the test did not replace the store" || true
	queries="zebraquux|jsonrareword|longtail|retry loop|\"filler words\" zebraquux|zebra*|the|what is this|-filler jsonrareword"
done

# hostile caches: a file that is not a database, one with a matching name but no words, a folder of another mode
for f in cache/txc/search-*.db; do
	printf 'not a database' > "$f"
done
same "a broken index file is replaced"
for f in cache/txc/search-*.db; do
	sqlite3 "$f" "DELETE FROM meta" > /dev/null 2>&1
done
same "an index without its stamp is rebuilt"
chmod 0777 cache/txc
run_all "$work/cache" open.txt
before=$(ls -l cache/txc | cksum)
sqlite3 store.db "INSERT INTO messages (session_id, role, content, timestamp) SELECT session_id, 'user', char(0) || 'json:\"openword\"', 1789000010 FROM messages LIMIT 1" > /dev/null
run_all "$work/cache" open.txt
run_all "$work/refused" without.txt
cmp -s open.txt without.txt && ok "a cache folder others may write: same hits" || bad "a cache folder others may write: hits differ"
[ "$(ls -l cache/txc | cksum)" = "$before" ] && ok "a cache folder others may write: not used or written" || bad "wrote into a world-writable cache folder"
summary cli.index
