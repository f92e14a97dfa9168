#!/bin/sh
# CLI behaviour: exit codes, refusals, read-only guarantees, safe output, schema shapes.
# usage: cli-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"

"$mkdb" cur.db "$src/golden/hermes-written/state.sql" || exit 1
"$mkdb" old.db "$src/fixtures/old.sql" || exit 1
"$mkdb" min.db "$src/fixtures/minimal.sql" || exit 1
"$mkdb" upg.db "$src/golden/upgraded-schema/state.sql" || exit 1
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1

# help, version, usage
expect_rc 0 "--help" "$txc" --help; grep -q 'exit status' out.txt && ok || bad "--help lacks exit codes"
expect_rc 0 "--version" "$txc" --version; grep -q '^txc ' out.txt && ok || bad "--version"
for c in list convert export; do expect_rc 0 "$c --help" "$txc" $c --help; grep -q "^usage: txc $c " out.txt && ok "$c --help: its usage" || bad "$c --help: no usage line"; done
# txc --help comes from the command and option tables: every store option, every command
expect_rc 0 "--help" "$txc" --help
for o in db home profile all-profiles input skip-bad remote token timeout; do
	grep -q -- "^  --$o\b" out.txt && ok || bad "txc --help does not list --$o"
done
for c in list convert export artifacts completions 'save, delete, import'; do grep -q "^  $c " out.txt && ok || bad "txc --help lacks $c"; done
cp out.txt main-help.txt
for h in help -h; do expect_rc 0 "txc $h" "$txc" $h; cmp -s out.txt main-help.txt && ok || bad "txc $h is not txc --help"; done
# txc help COMMAND is that command's --help; an unknown one is a usage error
for c in list convert export artifacts search view; do
	"$txc" $c --help > want-help.txt
	expect_rc 0 "txc help $c" "$txc" help $c; cmp -s out.txt want-help.txt && ok "txc help $c is txc $c --help" || bad "txc help $c: $(head -1 out.txt)"
done
expect_rc 2 "txc help nosuch" "$txc" help nosuch; grep -qx "txc: error: unknown command 'nosuch' (see 'txc --help')" err.txt && [ ! -s out.txt ] && ok || bad "help nosuch: $(cat err.txt)"
expect_rc 2 "txc help with two words" "$txc" help list convert; one_line_err "help with two words"
# an unknown short option is named as given, not as the argument before it
for arg in -zz -z -qz; do
	expect_rc 2 "list $arg" "$txc" list $arg; grep -qx "txc: error: unknown option '$arg' (see 'txc list --help')" err.txt && ok || bad "list $arg: $(cat err.txt)"
done
expect_rc 2 "list hermes -zz" "$txc" list hermes -zz; grep -q "unknown option '-zz'" err.txt && ok || bad "list hermes -zz: $(cat err.txt)"
expect_rc 0 "txc version" "$txc" version; grep -q '^txc ' out.txt && ok || bad "txc version"
expect_rc 2 "no command" "$txc"
expect_rc 2 "unknown command" "$txc" frobnicate; one_line_err "unknown command"
expect_rc 2 "unknown option" "$txc" list --bogus; grep -q "unknown option .--bogus" err.txt && ok "unknown option named" || bad "unknown option not named: $(cat err.txt)"
expect_rc 2 "convert without --to" "$txc" convert x --db cur.db; grep -q "missing --to" err.txt && ok "missing --to said" || bad "missing --to: $(cat err.txt)"
expect_rc 2 "unknown format" "$txc" convert x --to pdf --db cur.db; grep -q "unknown format .pdf" err.txt && ok "unknown format named" || bad "unknown format: $(cat err.txt)"
expect_rc 2 "bad profile name" "$txc" list --home . --profile '../evil'; one_line_err "bad profile name"
expect_rc 2 "export without --json" "$txc" export --db cur.db; grep -q "missing --json" err.txt && ok "export: missing --json said" || bad "export without --json: $(cat err.txt)"

# refusals
for c in save delete import; do expect_rc 4 "$c refused" "$txc" $c x; grep -q 'no import API' err.txt && ok || bad "$c reason"; done

# every command on every schema shape
for db in cur.db old.db min.db upg.db feat.db; do
	expect_rc 0 "list $db" "$txc" list hermes --db $db; head -n 1 out.txt | grep -q '^ID  *STARTED' && [ "$(wc -l < out.txt)" -ge 2 ] && ok "list $db: a table" || bad "list $db: no table"
	expect_rc 0 "list --json $db" "$txc" list --json --db $db; json_ok out.txt && ok || bad "list --json $db is not strict JSON"
	expect_rc 0 "export $db" "$txc" export --json --db $db; cp out.txt export-$db.jsonl
	json_ok export-$db.jsonl && ok || bad "export of $db is not strict JSON"
	id=$("$txc" list --json --archived --db $db | sed -n 's/^[[,]*{"id":"\([^"]*\)".*/\1/p' | head -1)
	for to in hermes claude markdown; do
		expect_rc 0 "convert $id --to $to on $db" "$txc" convert "$id" --to $to --db $db
		case $to in # the session's own output, not just an exit status
		hermes) json_ok out.txt && grep -q "^{\"id\": \"$id\"" out.txt ;;
		claude) if [ -s out.txt ]; then json_ok out.txt && grep -q '"sessionId":"[0-9a-f-]*"' out.txt; # empty only for no messages
			else grep -q "^{\"id\": \"$id\", .*\"messages\": \[\]}\$" export-$db.jsonl; fi ;;
		markdown) head -n 2 out.txt | tr '\n' ' ' | grep -q "^--- id: \"$id\"" ;;
		esac && ok "convert $id --to $to on $db: its output" || bad "convert $id --to $to on $db: wrong output: $(head -c 200 out.txt)"
	done
done
grep -q '"active"' export-old.db.jsonl && bad "old store grew an active column" || ok
[ "$(wc -l < export-min.db.jsonl)" = 2 ] && ok || bad "minimal export lines"

# list: archived filter, empty store json, missing store
n1=$("$txc" list --db feat.db | wc -l); [ "$n1" = 5 ] && ok || bad "list table rows ($n1)"
expect_rc 0 "missing store" env HERMES_HOME="$work/nohome" "$txc" list; [ ! -s out.txt ] && grep -q 'nohome' err.txt && ok || bad "missing store message"
[ ! -e "$work/nohome" ] && ok || bad "a missing store's folder was created"
expect_rc 0 "missing store json" env HERMES_HOME="$work/nohome" "$txc" list --json; [ "$(cat out.txt)" = "[]" ] && ok || bad "missing store json"
expect_rc 3 "missing named store" "$txc" list --json --db "$work/nohome/state.db"; [ ! -s out.txt ] && ok || bad "missing named store: output"
[ ! -e "$work/nohome/state.db" ] && ok || bad "a missing state.db was created"
expect_rc 3 "convert on a missing store" "$txc" convert x --to hermes --db "$work/nohome/state.db"

# HERMES_HOME and profiles
mkdir -p home/profiles/work && cp cur.db home/state.db && cp min.db home/profiles/work/state.db
HERMES_HOME="$work/home" "$txc" list > out.txt 2>&1 && grep -q deadbeef out.txt && ok || bad "HERMES_HOME"
"$txc" list --home "$work/home" --profile work > out.txt 2>&1 && grep -q '^m1' out.txt && ok || bad "--profile"

# ids: exact, prefix, ambiguous, unknown
expect_rc 0 "prefix" "$txc" convert dead --to hermes --db cur.db; grep -q '^{"id": "deadbeef' out.txt && ok "prefix: the session" || bad "prefix: $(head -c 100 out.txt)"
expect_rc 3 "unknown id" "$txc" convert nope --to hermes --db cur.db; one_line_err "unknown id"
expect_rc 2 "ambiguous prefix" "$txc" convert m --to hermes --db min.db; grep -q '  m1' err.txt && grep -q '  m2' err.txt && ok || bad "ambiguous lists candidates"

# the source is never touched: bytes of the db (and WAL) are the same after every command
cp "$src/../demo/hermes.sql" demo.sql
"$mkdb" wal.db demo.sql || exit 1
# the demo store's counts are what Hermes would have kept (one per message appended): `list` and the
# transcript say the same number (the demo once said 9 for 10 messages)
"$txc" list --json --archived --db wal.db > demo-list.json 2> /dev/null
for id in 20260914_101502_a1b2c3 7f3e9a21 20260801_083000_c0ffee; do
	"$txc" convert $id --to markdown --db wal.db > demo.md 2> /dev/null
	n=$(python3 -c 'import json, sys; print([s["message_count"] for s in json.load(open(sys.argv[1])) if s["id"] == sys.argv[2]][0])' demo-list.json $id)
	grep -q "^\*$n messages · " demo.md && ok "demo $id: list and transcript say $n messages" || bad "demo $id: list says $n, the transcript $(grep -o '^\*[0-9]* messages' demo.md)"
done
sum_before=$(cat wal.db wal.db-wal 2>/dev/null | cksum)
ls wal.db* > files_before.txt
for args in "list --db wal.db" "list --json --archived --db wal.db" "export --json --db wal.db" \
	"convert 7f3 --to claude --db wal.db" "convert 20260914 --to markdown --db wal.db" "convert 7f3e9a21 --to hermes --db wal.db" \
	"artifacts 20260914 --check --db wal.db" "export --to markdown --out bulk-wal --db wal.db" "list --since 1w --order recent --db wal.db"; do
	$txc $args > /dev/null 2>&1 || bad "$args failed"
done
[ "$(cat wal.db wal.db-wal 2>/dev/null | cksum)" = "$sum_before" ] && ok || bad "the store's bytes changed"
cur_sum=$(cksum < cur.db); "$txc" export --json --db cur.db > /dev/null; [ "$(cksum < cur.db)" = "$cur_sum" ] && ok || bad "DELETE-mode store changed"
[ ! -e cur.db-journal ] && [ ! -e cur.db-wal ] && ok || bad "a journal was created next to a DELETE-mode store"

# broken stores: clear one-line errors, never a crash
: > empty.db; expect_rc 1 "zero-length store" "$txc" export --json --db empty.db; one_line_err "zero-length"
echo "hello" > text.db; expect_rc 1 "text file" "$txc" list --db text.db; one_line_err "text file"
head -c 4096 upg.db > trunc.db; "$txc" export --json --db trunc.db > /dev/null 2> err.txt; rc=$?; [ $rc = 1 ] && ok || bad "truncated store exit $rc"
mkdir dir.db; expect_rc 1 "directory" "$txc" list --db dir.db; one_line_err "directory"
awk 'BEGIN { srand(7); for (i = 0; i < 8192; i++) printf "%c", int(rand() * 256) }' > random.db
expect_rc 1 "random bytes" "$txc" export --json --db random.db; one_line_err "random bytes"
ln -s loop1 loop2; ln -s loop2 loop1; expect_rc 1 "symlink loop" "$txc" list --db loop1; one_line_err "symlink loop"
printf 'CREATE TABLE t(x);' > nosess.sql; "$mkdb" nosess.db nosess.sql; expect_rc 1 "no sessions table" "$txc" list --db nosess.db; grep -q 'no sessions table' err.txt && ok || bad "no sessions table message"
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL); INSERT INTO sessions VALUES('s', 'cli', 1.0);" > nomsg.sql
"$mkdb" nomsg.db nomsg.sql; expect_rc 0 "no messages table" "$txc" export --json --db nomsg.db; grep -q '"messages": \[\]' out.txt && ok || bad "no messages table export"

# -o: atomic, no overwrite without --force, full disk fails cleanly
expect_rc 0 "-o" "$txc" convert dead --to claude --db cur.db -o o.out; [ -s o.out ] && ok || bad "-o wrote nothing"
expect_rc 1 "-o refuses overwrite" "$txc" convert dead --to claude --db cur.db -o o.out; grep -q -- '--force' err.txt && ok || bad "overwrite message"
expect_rc 0 "--force" "$txc" convert dead --to markdown --db cur.db -o o.out --force; head -1 o.out | grep -q '^---$' && ok || bad "--force did not replace"
ls -a | grep -q '.txc-tmp' && bad "temp file left behind" || ok
if [ -w /dev/full ]; then
	"$txc" export --json --db cur.db > /dev/full 2> err.txt; rc=$?; [ $rc = 1 ] && one_line_err "/dev/full" || bad "/dev/full exit $rc"
fi
"$txc" export --json --db upg.db 2> err.txt | head -1 > /dev/null; [ ! -s err.txt ] && ok || bad "export | head -1 printed: $(cat err.txt)"

# --images: files beside -o FILE (the default there), refused without -o, never over existing files
expect_rc 0 "images files" "$txc" convert img --to markdown --db feat.db -o "a b.md"
[ -s "a b.md.assets/image-1.png" ] && ok || bad "no asset written"
grep -q '](a%20b.md.assets/image-1.png)' "a b.md" && ok || bad "asset link not relative and escaped"
expect_rc 2 "images files needs -o" "$txc" convert img --to markdown --db feat.db --images files
expect_rc 1 "images files no overwrite" "$txc" convert img --to markdown --db feat.db -o "a b.md"
mkdir -p c.md.assets; printf 'different' > c.md.assets/image-1.png
expect_rc 1 "asset not overwritten" "$txc" convert img --to markdown --db feat.db -o c.md
[ "$(cat c.md.assets/image-1.png)" = different ] && [ ! -e c.md ] && ok || bad "existing asset replaced or document written"
expect_rc 0 "asset --force" "$txc" convert img --to markdown --db feat.db -o c.md --force
cmp -s c.md.assets/image-1.png "a b.md.assets/image-1.png" && ok || bad "--force did not replace the asset"
expect_rc 0 "images inline with -o" "$txc" convert img --to markdown --db feat.db -o d.md --images inline
grep -q '](data:image/png;base64,' d.md && [ ! -e d.md.assets ] && ok || bad "inline with -o"

# --install: exact folder, atomic, no overwrite, hostile cwd cannot escape
export CLAUDE_CONFIG_DIR="$work/claude"
mkdir -p srv/app
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, cwd TEXT, title TEXT);
INSERT INTO sessions VALUES('../../evil', 'cli', 1.0, '$work/srv/app', 'ok'), ('s2', 'cli', 2.0, '/../../../../tmp/x/../../etc', NULL), ('s3', 'cli', 3.0, NULL, NULL);
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, '../../evil', 'user', 'hi', 1.5), (2, 's2', 'user', 'yo', 2.5), (3, 's3', 'user', 'x', 3.5);" > hostile.sql
"$mkdb" hostile.db hostile.sql
expect_rc 0 "install" "$txc" convert ../../evil --to claude --install --db hostile.db
folder=$(echo "$work/srv/app" | sed 's/[^A-Za-z0-9]/-/g')
ls "$CLAUDE_CONFIG_DIR/projects/$folder/"*.jsonl > /dev/null 2>&1 && ok || bad "installed file not in $folder"
grep -q "claude --resume" out.txt && ok || bad "install prints the resume command"
expect_rc 0 "identical re-install" "$txc" convert ../../evil --to claude --install --db hostile.db; grep -q '^unchanged ' out.txt && ok || bad "identical re-install is not unchanged"
expect_rc 0 "install --force" "$txc" convert ../../evil --to claude --install --force --db hostile.db; grep -q "^\(installed\|unchanged\) $CLAUDE_CONFIG_DIR/projects/$folder/" out.txt && ok "install --force: where" || bad "install --force: $(cat out.txt)"
expect_rc 0 "install hostile cwd" "$txc" convert s2 --to claude --install --db hostile.db; grep -q 'does not exist' err.txt && ok || bad "dead cwd warning"
expect_rc 0 "install no cwd" "$txc" convert s3 --to claude --install --db hostile.db; grep -q 'no recorded working directory' err.txt && ok || bad "no cwd warning"
find "$work" -name '*.jsonl' -newer hostile.db | while read -r f; do case "$f" in "$CLAUDE_CONFIG_DIR"/projects/*/*.jsonl|"$work"/out.jsonl) ;; *) echo "ESCAPED: $f";; esac; done > escaped.txt
[ ! -s escaped.txt ] && ok || bad "install wrote outside projects/: $(cat escaped.txt)"
[ "$(find "$CLAUDE_CONFIG_DIR/projects" -mindepth 2 -type d | wc -l)" = 0 ] && ok || bad "nested folders under projects/"
json_ok "$CLAUDE_CONFIG_DIR"/projects/*/*.jsonl && ok || bad "installed files are not JSON"

# terminal safety: titles with escapes are shown escaped in the table
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT); INSERT INTO sessions VALUES('e1', 'cli', 1.0, 'evil' || char(27) || '[31mred');" > esc.sql
"$mkdb" esc.db esc.sql; "$txc" list --db esc.db > out.txt; grep -q "$(printf '\033')" out.txt && bad "raw escape in list" || ok

# Markdown to a terminal: what the writer keeps (bidi overrides, raw bytes) is shown escaped there only
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT); INSERT INTO sessions VALUES('e2', 'cli', 1.0, 't');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES (1, 'e2', 'user', 'left ' || char(8238) || 'thgir', 2);" > bidi.sql
"$mkdb" bidi.db bidi.sql
"$txc" convert e2 --to markdown --db bidi.db > out.txt; grep -q "$(printf '\342\200\256')" out.txt && ok || bad "pipe output altered"
if command -v script > /dev/null; then
	script -q -c "$txc convert e2 --to markdown --db bidi.db" /dev/null > tty.txt 2>&1
	grep -q 'left \\u202ethgir' tty.txt && ok || bad "bidi override raw on a terminal: $(grep left tty.txt)"
else
	skip "Markdown on a terminal" "no script(1)"
fi

# on a terminal: an id quoted in an error is shown escaped; bulk export draws a progress bar
if command -v script > /dev/null; then
	script -q -c "$txc convert 'x$(printf '\033')[31m' --to claude --db cur.db" /dev/null > tty.txt 2>&1
	grep -q "$(printf '\033')\[31m" tty.txt && bad "raw escape in an error on a terminal" || ok
	grep -q 'x\\x1b\[31m' tty.txt && ok || bad "escaped id missing: $(cat tty.txt)"
	script -q -c "$txc export --to markdown --out tty-bulk --db feat.db" /dev/null > tty.txt 2>&1
	grep -q '\[##*\] [0-9]*/[0-9]* sessions' tty.txt && grep -q 'exported [0-9]* sessions to tty-bulk' tty.txt &&
		ok || bad "no progress bar on a terminal: $(cat tty.txt)"
	"$txc" export --to markdown --out pipe-bulk --db feat.db > out.txt 2> err.txt
	[ ! -s err.txt ] && [ ! -s out.txt ] && [ -s pipe-bulk/manifest.jsonl ] && ok || bad "bulk export talks on a pipe without --progress (or wrote nothing)"
else
	skip "errors and progress on a terminal" "no script(1)"
fi

# convert and export resolve the write options alike: a session without a cwd records the current
# directory in both (docs/FORMATS.md), and export writes the bytes convert writes
mkdir -p here && (cd here && "$txc" convert img --to claude --db ../feat.db -o ../img-conv.jsonl &&
	"$txc" export --to claude --out ../img-exp --title 'Ünïcode' --db ../feat.db) && ok || bad "convert/export img from here/"
grep -q "\"cwd\":\"$work/here\"" img-conv.jsonl && ok || bad "convert does not record the current directory"
cmp -s img-conv.jsonl img-exp/img-*.jsonl && ok || bad "export --to claude differs from convert: $(grep -o '"cwd":"[^"]*"' img-exp/img-*.jsonl | head -1)"

summary cli
[ "$fails" = 0 ]
