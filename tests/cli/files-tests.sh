#!/bin/sh
# Files txc writes: never its own sources, re-installs that keep Claude Code's continuation,
# bulk re-runs that do not go stale, the umask, -o -, HOME="" and empty sessions; (issue 18) the
# manifest, lock, index page, dry runs, --install over every kind of file, write errors, -j workers.
# usage: files-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
umask 022
sum() { sha256sum "$1" | cut -d' ' -f1; }

# ---- 1. the store, its -wal/-shm/-journal and an --input file are never written ----
mkdir -p st && "$mkdb" st/state.db "$src/fixtures/features.sql" || exit 1
before=$(sum st/state.db)
ln -s state.db st/link.db; ln st/state.db st/hard.db; mkdir -p st/sub
# every spelling of the store, with and without --force: refused with exit 4, no --force hint
for target in st/state.db st/link.db st/hard.db st/sub/../state.db "$work/st/./state.db" st/state.db-wal st/state.db-shm st/state.db-journal; do
	for f in "" --force; do
		expect_rc 4 "-o $target $f" "$txc" convert tools --to hermes --db st/state.db -o "$target" $f
		grep -q '^txc: error: refusing to write' err.txt && ok || bad "-o $target $f: $(cat err.txt)"
		grep -q -- '--force' err.txt && bad "-o $target $f suggests --force" || ok
		[ "$(wc -l < err.txt)" = 1 ] && ok || bad "-o $target $f: not one line"
	done
done
[ "$(sum st/state.db)" = "$before" ] && ok || bad "the store changed"
[ -L st/link.db ] && [ ! -e st/state.db-wal ] && [ ! -e st/state.db-shm ] && ok || bad "a store name was created or replaced"
# the store read through the symlink: its real name is protected too
expect_rc 4 "-o store via --db link" "$txc" convert tools --to hermes --db st/link.db -o st/state.db --force
# an existing -wal (a live store) is protected by inode as well
cp st/state.db wal.db && printf 'x' > wal.db-wal && ln -s wal.db-wal wal-link
expect_rc 4 "-o existing -wal via symlink" "$txc" convert tools --to hermes --db wal.db -o wal-link --force
[ "$(cat wal.db-wal)" = x ] && ok || bad "the -wal was replaced"
# --input: the file read is not the file written
"$txc" export --json --db st/state.db > in.jsonl; insum=$(sum in.jsonl)
expect_rc 4 "-o the --input file" "$txc" convert tools --to hermes --input in.jsonl -o ./in.jsonl --force
[ "$(sum in.jsonl)" = "$insum" ] && ok || bad "the --input file changed"
# --out DIR: the store's folder, with a store whose name is the manifest's or a session file's
mkdir -p out1 && cp st/state.db out1/manifest.jsonl && msum=$(sum out1/manifest.jsonl)
expect_rc 4 "--out over a store named manifest.jsonl" "$txc" export --to hermes --out out1 --db out1/manifest.jsonl --force
[ "$(sum out1/manifest.jsonl)" = "$msum" ] && ok || bad "the store named manifest.jsonl changed"
mkdir -p out2 && cp st/state.db out2/empty.md && esum=$(sum out2/empty.md)
expect_rc 4 "--out over a store named like a session file" "$txc" export --to markdown --out out2 --db out2/empty.md --force
[ "$(sum out2/empty.md)" = "$esum" ] && ok || bad "the store named empty.md changed"
grep -q "refusing to write '.*empty.md'" err.txt && ok || bad "refusal does not name the file: $(cat err.txt)"
[ -s out2/tools-tools-quoted-and-a-second-line-b-bold-b.md ] && ok || bad "other sessions were not exported"
# --out DIR whose folder would take the name of the store's -wal
expect_rc 4 "--out DIR named like the -wal" "$txc" export --to markdown --out st/state.db-wal --db st/state.db
[ ! -e st/state.db-wal ] && ok || bad "a folder named like the -wal was created"
# ... spelled with a trailing slash (its last name is then empty): a -journal folder stops Hermes writing
for out in st/state.db-journal/ st/state.db-wal// "$work/st/state.db-shm/"; do
	expect_rc 4 "--out $out" "$txc" export --to markdown --out "$out" --db st/state.db
	[ ! -e st/state.db-journal ] && [ ! -e st/state.db-wal ] && [ ! -e st/state.db-shm ] && ok || bad "--out $out: a folder named like a source was created"
done
# --install under a config dir holding the store as the installed file's name
uuid=$("$txc" convert tools --to claude --db st/state.db | sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' | head -1)
folder=-repo; [ -d /repo ] || folder=$(printf '%s' "$work" | sed 's/[^A-Za-z0-9]/-/g') # else installed for the cwd
mkdir -p "cc/projects/$folder" && cp st/state.db "cc/projects/$folder/$uuid.jsonl"; isum=$(sum "cc/projects/$folder/$uuid.jsonl")
CLAUDE_CONFIG_DIR="$work/cc" expect_rc 4 "--install over the store" "$txc" convert tools --to claude --install --force --db "cc/projects/$folder/$uuid.jsonl"
[ "$(sum "cc/projects/$folder/$uuid.jsonl")" = "$isum" ] && ok || bad "install replaced the store"
[ "$(sum st/state.db)" = "$before" ] && ok || bad "the store changed at the end"
rm -rf out1 cc # stores named *.jsonl: not for the suite's JSON check

# ---- 3. re-install: identical is unchanged, Claude Code's continuation is never replaced ----
export CLAUDE_CONFIG_DIR="$work/claude"
mkdir -p repo
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, cwd TEXT, title TEXT);
INSERT INTO sessions VALUES('s1', 'cli', 1.0, '$work/repo', 'first'), ('e0', 'cli', 2.0, '$work/repo', 'empty');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 's1', 'user', 'hi', 1.5), (2, 's1', 'assistant', 'hello', 1.6);" > inst.sql
"$mkdb" inst.db inst.sql || exit 1
expect_rc 0 "install" "$txc" convert s1 --to claude --install --db inst.db
inst=$(sed -n 's/^installed //p' out.txt); [ -s "$inst" ] && ok || bad "install path: $(cat out.txt)"
expect_rc 0 "identical re-install" "$txc" convert s1 --to claude --install --db inst.db
grep -q '^unchanged ' out.txt && grep -q 'claude --resume' out.txt && ok || bad "re-install not unchanged: $(cat out.txt)"
# the session grew in Hermes; the installed file is txc's own older output: rewritten
printf "INSERT INTO messages VALUES(3, 's1', 'user', 'more from hermes', 1.7);\n" > grow.sql; "$mkdb" inst.db grow.sql
expect_rc 0 "re-install after the session grew" "$txc" convert s1 --to claude --install --db inst.db
grep -q '^updated ' out.txt && grep -q 'more from hermes' "$inst" && ok || bad "grown session not updated: $(cat out.txt)"
# Claude Code continues the session: it appends records with its own (random, v4) uuids
sid=$(basename "$inst" .jsonl)
printf '{"parentUuid":null,"type":"user","sessionId":"%s","uuid":"1b4e28ba-2fa1-41d2-883f-0016d3cca427","message":{"role":"user","content":"continued in claude"}}\n' "$sid" >> "$inst"
csum=$(sum "$inst")
expect_rc 0 "re-install of a continued session, nothing new" "$txc" convert s1 --to claude --install --db inst.db
grep -q 'continued in Claude Code' out.txt && ok || bad "continued+unchanged message: $(cat out.txt)"
printf "INSERT INTO messages VALUES(4, 's1', 'assistant', 'even more', 1.8);\n" > grow2.sql; "$mkdb" inst.db grow2.sql
for f in "" --force; do
	expect_rc 4 "re-install of a continued session $f" "$txc" convert s1 --to claude --install --db inst.db $f
	[ "$(sum "$inst")" = "$csum" ] && ok || bad "continued file replaced ($f)"
	grep -q 'continued in Claude Code' err.txt && grep -q -- '--as-new' err.txt && ok || bad "refusal message ($f): $(cat err.txt)"
done
expect_rc 0 "--as-new" "$txc" convert s1 --to claude --install --as-new --db inst.db
new=$(sed -n 's/^installed //p' out.txt); [ -s "$new" ] && [ "$new" != "$inst" ] && grep -q 'even more' "$new" && ok || bad "--as-new: $(cat out.txt)"
nsid=$(basename "$new" .jsonl); grep -q "claude --resume $nsid" out.txt && ok || bad "--as-new resume command"
grep -q "\"sessionId\":\"$nsid\"" "$new" && ok || bad "--as-new records name the new session"
expect_rc 0 "--as-new again" "$txc" convert s1 --to claude --install --as-new --db inst.db
grep -q "^unchanged $new" out.txt && ok || bad "--as-new is not idempotent: $(cat out.txt)"
[ "$(sum "$inst")" = "$csum" ] && ok || bad "--as-new touched the continued file"
expect_rc 2 "--as-new needs --install" "$txc" convert s1 --to claude --as-new --db inst.db
# a stranger's file at that name: refused without --force (exit 1), replaced with it
echo stranger > "$inst"
expect_rc 1 "foreign file" "$txc" convert s1 --to claude --install --db inst.db; grep -q -- '--force' err.txt && ok || bad "foreign refusal"
[ "$(cat "$inst")" = stranger ] && ok || bad "foreign file replaced without --force"
expect_rc 0 "foreign file --force" "$txc" convert s1 --to claude --install --force --db inst.db
# the recurring job of the README: exit 0 when nothing changed, also after a continuation
expect_rc 0 "bulk install" "$txc" export --to claude --install --db inst.db
expect_rc 0 "bulk install again" "$txc" export --to claude --install --db inst.db
printf '{"type":"user","sessionId":"%s","uuid":"2b4e28ba-2fa1-41d2-883f-0016d3cca427","message":{"role":"user","content":"x"}}\n' "$sid" >> "$inst"
expect_rc 0 "bulk install after a continuation, nothing new" "$txc" export --to claude --install --db inst.db --progress
grep -q '0 new, 0 updated, 1 unchanged' err.txt && ok || bad "bulk summary: $(tail -1 err.txt)"
printf "INSERT INTO messages VALUES(5, 's1', 'user', 'newer still', 1.9);\n" > grow3.sql; "$mkdb" inst.db grow3.sql; csum=$(sum "$inst")
expect_rc 4 "bulk install of a continued session with news" "$txc" export --to claude --install --db inst.db
[ "$(sum "$inst")" = "$csum" ] && grep -q 'continued in Claude Code' err.txt && ok || bad "bulk install replaced a continued file: $(cat err.txt)"

# ---- 15. HOME="" and empty sessions ----
unset CLAUDE_CONFIG_DIR
had_root_claude=$([ -e /.claude ] && echo yes || echo no)
HOME="" expect_rc 2 'HOME=""' "$txc" convert s1 --to claude --install --db inst.db
grep -q 'HOME is not set' err.txt && ok || bad "HOME= message: $(cat err.txt)"
if [ $had_root_claude = no ] && [ -e /.claude ]; then bad "installed under /.claude"; rm -rf /.claude; else ok; fi
(unset HOME; "$txc" convert s1 --to claude --install --db inst.db > out.txt 2> err.txt; echo $? > rc.txt)
[ "$(cat rc.txt)" = 2 ] && grep -q 'HOME is not set' err.txt && ok || bad "HOME unset: exit $(cat rc.txt): $(cat err.txt)"
[ ! -e .claude ] && ok || bad "installed under ./.claude"
export CLAUDE_CONFIG_DIR="$work/claude"
expect_rc 1 "empty session install" "$txc" convert e0 --to claude --install --db inst.db
grep -q 'no messages' err.txt && ok || bad "empty session message: $(cat err.txt)"
[ "$(find "$CLAUDE_CONFIG_DIR" -name '*.jsonl' -size 0 | wc -l)" = 0 ] && ok || bad "0-byte file installed"
expect_rc 0 "bulk install with an empty session" "$txc" export --to claude --install --title empty --db inst.db
grep -q "warning: session 'e0' has no messages" err.txt && ok || bad "bulk empty warning: $(cat err.txt)"

# ---- 13. -o - is standard output ----
expect_rc 0 "-o -" "$txc" convert s1 --to hermes --db inst.db -o -
[ ! -e ./- ] && grep -q '"id": "s1"' out.txt && ok || bad "-o - made a file or printed nothing"

# ---- 10. the umask ----
(umask 077 && "$txc" convert s1 --to markdown --db inst.db -o u77.md && "$mkdb" u77.db "$src/fixtures/features.sql" && "$txc" export --to markdown --out u77 --db u77.db)
[ "$(stat -c %a u77.md)" = 600 ] && ok || bad "umask 077: -o made $(stat -c %a u77.md)"
[ "$(stat -c %a u77/manifest.jsonl)" = 600 ] && [ "$(stat -c %a u77/tools-tools-quoted-and-a-second-line-b-bold-b.md)" = 600 ] && ok || bad "umask 077: bulk files"
[ "$(stat -c %a u77/img-unicode-title.md.assets/image-1.png)" = 600 ] && ok || bad "umask 077: asset $(stat -c %a u77/img-*.assets/image-1.png)"
(umask 077 && CLAUDE_CONFIG_DIR="$work/c77" "$txc" convert s1 --to claude --install --db inst.db > /dev/null)
[ "$(stat -c %a "$work"/c77/projects/*/*.jsonl)" = 600 ] && ok || bad "umask 077: installed file"
(umask 002 && "$txc" convert s1 --to markdown --db inst.db -o u02.md)
[ "$(stat -c %a u02.md)" = 664 ] && ok || bad "umask 002: $(stat -c %a u02.md)"

# ---- 6. bulk re-runs: renamed sessions, deleted assets, stopped runs ----
"$mkdb" b.db "$src/fixtures/features.sql" || exit 1
expect_rc 0 "bulk" "$txc" export --to markdown --out b --db b.db
old=b/tools-tools-quoted-and-a-second-line-b-bold-b.md
[ -s "$old" ] && ok || bad "bulk did not write $old"
grep -q '"path":"img-unicode-title.md",.*"assets":\[{"path":"img-unicode-title.md.assets/image-1.png","sha256":"[0-9a-f]\{64\}"}\]' b/manifest.jsonl && ok || bad "assets not in the manifest: $(grep img b/manifest.jsonl)"
a=$(sed -n 's/.*"assets":\[{"path":"\([^"]*\)","sha256":"\([0-9a-f]*\)".*/\1 \2/p' b/manifest.jsonl); set -- ${a:-none none}
[ "$(sum "b/$1")" = "$2" ] && ok || bad "asset sha256 in the manifest"
# a renamed session: the old file (unchanged since) goes, one manifest entry stays
printf "UPDATE sessions SET title = 'Renamed' WHERE id = 'tools';\n" > ren.sql; "$mkdb" b.db ren.sql
expect_rc 0 "bulk after a rename" "$txc" export --to markdown --out b --db b.db
[ ! -e "$old" ] && [ -s b/tools-renamed.md ] && ok || bad "renamed: old file kept or new missing: $(ls b)"
[ "$(grep -c '"session_id":"tools"' b/manifest.jsonl)" = 1 ] && ok || bad "renamed: manifest entries $(grep -c '"session_id":"tools"' b/manifest.jsonl)"
# renamed again, but the file was edited since txc wrote it: kept, a warning
echo "my notes" >> b/tools-renamed.md
printf "UPDATE sessions SET title = 'Renamed twice' WHERE id = 'tools';\n" > ren2.sql; "$mkdb" b.db ren2.sql
expect_rc 0 "bulk after a rename of an edited file" "$txc" export --to markdown --out b --db b.db
grep -q 'my notes' b/tools-renamed.md && grep -q "kept '.*tools-renamed.md'" err.txt && ok || bad "edited old file removed or no warning: $(cat err.txt)"
[ "$(grep -c '"session_id":"tools"' b/manifest.jsonl)" = 1 ] && ok || bad "rename of edited: manifest entries"
# a deleted asset is restored, a changed one refused
rm b/img-unicode-title.md.assets/image-1.png
expect_rc 0 "bulk restores a deleted asset" "$txc" export --to markdown --out b --db b.db --progress
[ "$(sum b/img-unicode-title.md.assets/image-1.png)" = "$2" ] && ok || bad "asset not restored"
grep -q '0 new, 1 updated' err.txt && ok || bad "restore summary: $(tail -1 err.txt)"
printf 'mine' > b/img-unicode-title.md.assets/image-1.png
expect_rc 1 "bulk refuses a changed asset" "$txc" export --to markdown --out b --db b.db
[ "$(cat b/img-unicode-title.md.assets/image-1.png)" = mine ] && ok || bad "changed asset replaced"
expect_rc 0 "bulk --force replaces a changed asset" "$txc" export --to markdown --out b --db b.db --force
[ "$(sum b/img-unicode-title.md.assets/image-1.png)" = "$2" ] && ok || bad "--force did not restore the asset"
# a stopped run: temporary files left and no manifest; the next run finishes the job
expect_rc 0 "bulk (fresh)" "$txc" export --to markdown --out s --db b.db
rm s/manifest.jsonl; : > s/.txc-tmp-AbC123; mkdir -p s/img-unicode-title.md.assets; : > s/img-unicode-title.md.assets/.txc-tmp-x1y2z3
expect_rc 0 "bulk after a stopped run" "$txc" export --to markdown --out s --db b.db
[ ! -e s/.txc-tmp-AbC123 ] && [ ! -e s/img-unicode-title.md.assets/.txc-tmp-x1y2z3 ] && ok || bad "temporary files left: $(ls -a s)"
[ "$(wc -l < s/manifest.jsonl)" = "$(ls s/*.md | wc -l)" ] && ok || bad "manifest not rebuilt"
# a run killed half-way (SIGXFSZ while writing the last, big session): the files it wrote are in
# the manifest already, so after the sessions change the next run updates them instead of refusing
"$mkdb" k.db "$src/fixtures/features.sql" || exit 1
i=0; while [ $i -lt 5 ]; do printf "INSERT INTO sessions VALUES ('k%d', 'cli', NULL, 1767600000.0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, 'many %d', 0);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('k%d', 'user', 'hello', 1767600001.0);\n" $i $i $i; i=$((i + 1)); done > many.sql
printf "INSERT INTO sessions VALUES ('big', 'cli', NULL, 1.0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, 'big', 0);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('big', 'user', printf('%%.30000c', 'x'), 2.0);\n" >> many.sql
"$mkdb" k.db many.sql
rc=$( (ulimit -f 8 && exec "$txc" export --to markdown -j 1 --out k --db k.db) > /dev/null 2>&1; echo $?) 2> /dev/null
[ $rc -gt 128 ] && [ -e k/k0-many-0.md ] && [ ! -e k/big-big.md ] && ok || bad "the run was not stopped half-way (exit $rc)"
ls -a k | grep -q '^\.txc-tmp-' && ok || bad "the stopped run left no temporary file (the test needs one)"
grep -q '"path":"k0-many-0.md"' k/manifest.jsonl && ok || bad "the stopped run's files are not in the manifest"
# (a new message in each, as Hermes adds them: a message row edited in place is not seen, see below)
printf "UPDATE messages SET content = 'changed' WHERE session_id LIKE 'k%%';
INSERT INTO messages (session_id, role, content, timestamp) SELECT id, 'assistant', 'more', 1767600002.0 FROM sessions WHERE id LIKE 'k%%';\n" > chg.sql; "$mkdb" k.db chg.sql
expect_rc 0 "bulk after a stopped run and a change" "$txc" export --to markdown --out k --db k.db --progress
grep -q ': 1 new, 5 updated, ' err.txt && ok || bad "after the stopped run: $(tail -1 err.txt)"
[ "$(ls -a k | grep -c '^\.txc-tmp')" = 0 ] && ok || bad "stopped run: temp files left"
[ "$(wc -l < k/manifest.jsonl)" = "$(ls k/*.md | wc -l)" ] && ok || bad "stopped run: manifest lines"
json_ok b/manifest.jsonl && json_ok s/manifest.jsonl && json_ok k/manifest.jsonl && ok || bad "manifests are not JSON"
# hostile manifest: a path outside DIR is never removed
printf "UPDATE sessions SET title = 'Third' WHERE id = 'tools';\n" > ren3.sql; "$mkdb" b.db ren3.sql
cp b.db victim.db; vsum=$(sum victim.db)
sed -i "s|\"path\":\"tools-renamed-twice.md\",\(.*\)\"sha256\":\"[0-9a-f]*\"|\"path\":\"../victim.db\",\1\"sha256\":\"$vsum\"|" b/manifest.jsonl
expect_rc 0 "bulk with a hostile manifest path" "$txc" export --to markdown --out b --db b.db
[ -e victim.db ] && ok || bad "a manifest path outside DIR was removed"


# ---- 1. standard input redirected from a file, standard output opened on the store ----
"$txc" export --json --db st/state.db > in2.jsonl; insum=$(sum in2.jsonl)
"$txc" convert tools --to hermes --input - -o in2.jsonl --force < in2.jsonl > out.txt 2> err.txt; rc=$?
[ $rc = 4 ] && [ "$(sum in2.jsonl)" = "$insum" ] && ok || bad "--input - < FILE, -o FILE --force: exit $rc, $(cat err.txt)"
"$txc" convert tools --to hermes --input - < in2.jsonl 2> err.txt | grep -q '"id": "tools"' && ok || bad "--input - < FILE: $(cat err.txt)"
cp st/state.db app.db; asum=$(sum app.db)
"$txc" convert tools --to hermes --db app.db >> app.db 2> err.txt; rc=$?
[ $rc = 4 ] && [ "$(sum app.db)" = "$asum" ] && grep -q 'refusing to write to standard output' err.txt && ok || bad "convert >> the store: exit $rc, $(cat err.txt)"
"$txc" list --db app.db 1<> app.db 2> err.txt; rc=$?
[ $rc = 4 ] && [ "$(sum app.db)" = "$asum" ] && ok || bad "list 1<> the store: exit $rc, $(cat err.txt)"
# standard error appended to the store: nothing can be said there, nothing is written to it
"$txc" list --db app.db 2>> app.db > /dev/null; rc=$?
[ $rc = 4 ] && [ "$(sum app.db)" = "$asum" ] && ok || bad "list 2>> the store: exit $rc, the store changed or kept"
"$txc" convert no-such-session --to claude --db app.db 2>> app.db > /dev/null; rc=$?
[ $rc = 4 ] && [ "$(sum app.db)" = "$asum" ] && ok || bad "convert 2>> the store (an error to say): exit $rc"

# ---- an existing FIFO (or device) is never replaced by a regular file, not even with --force ----
mkfifo fifo
"$txc" convert tools --to hermes --db st/state.db -o fifo --force > out.txt 2> err.txt; rc=$?
[ $rc = 1 ] && [ -p fifo ] && grep -q "'fifo' is not a regular file" err.txt && ok || bad "-o FIFO --force: exit $rc, $(cat err.txt)"
grep -q -- '--force' err.txt && bad "-o FIFO suggests --force" || ok

# ---- 10. a file the user made private stays private when txc rewrites it ----
"$txc" convert s1 --to markdown --db inst.db -o priv.md && chmod 600 priv.md
"$txc" convert s1 --to hermes --db inst.db -o priv.md --force
[ "$(stat -c %a priv.md)" = 600 ] && ok || bad "-o --force widened a 0600 file to $(stat -c %a priv.md)"
"$mkdb" p.db "$src/fixtures/features.sql" && "$txc" export --to markdown --out p --db p.db && chmod 600 p/chat-*.md
printf "UPDATE messages SET content = 'changed' WHERE session_id = 'chat';\n" > pchg.sql; "$mkdb" p.db pchg.sql
expect_rc 0 "bulk update of a private file" "$txc" export --to markdown --out p --db p.db --progress
grep -q ' 1 updated' err.txt && [ "$(stat -c %a p/chat-*.md)" = 600 ] && ok || bad "bulk update made $(stat -c %a p/chat-*.md): $(tail -1 err.txt)"

# ---- 3. a rename in Claude Code (its custom-title or summary line after txc's) is a continuation ----
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, cwd TEXT, title TEXT);
INSERT INTO sessions VALUES('r1', 'cli', 1.0, '$work/repo', 'named'), ('r2', 'cli', 1.0, '$work/repo', NULL);
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 'r1', 'user', 'hi', 1.5), (2, 'r1', 'assistant', 'hello', 1.6),
 (3, 'r2', 'user', 'hi', 1.5), (4, 'r2', 'assistant', 'hello', 1.6);" > rn.sql
"$mkdb" rn.db rn.sql || exit 1
expect_rc 0 "install r1" "$txc" convert r1 --to claude --install --db rn.db
rf1=$(sed -n 's/^installed //p' out.txt)
printf '{"type":"custom-title","customTitle":"my name","sessionId":"%s"}\n' "$(basename "$rf1" .jsonl)" >> "$rf1"
expect_rc 0 "install r2" "$txc" convert r2 --to claude --install --db rn.db
rf2=$(sed -n 's/^installed //p' out.txt)
printf '{"type":"summary","summary":"my summary","leafUuid":"1b4e28ba-2fa1-41d2-883f-0016d3cca427"}\n' >> "$rf2"
rs1=$(sum "$rf1") rs2=$(sum "$rf2")
printf "INSERT INTO messages VALUES(5, 'r1', 'user', 'more', 1.7), (6, 'r2', 'user', 'more', 1.7);\n" > rn2.sql; "$mkdb" rn.db rn2.sql
expect_rc 4 "re-install after a rename in Claude Code" "$txc" convert r1 --to claude --install --db rn.db
[ "$(sum "$rf1")" = "$rs1" ] && ok || bad "a custom-title line Claude Code added was overwritten"
expect_rc 4 "re-install after a summary from Claude Code" "$txc" convert r2 --to claude --install --db rn.db
[ "$(sum "$rf2")" = "$rs2" ] && ok || bad "a summary line Claude Code added was overwritten"

# ---- 6. hostile manifest (txc's lines, one crafted): a path through a symbolic link inside DIR is never removed ----
"$mkdb" sl.db "$src/fixtures/features.sql" && mkdir -p victimhome && cp sl.db victimhome/state.db
"$txc" export --to markdown --out sl --db sl.db && ln -s ../victimhome sl/evil
printf '{"session_id":"tools","path":"evil/state.db","format":"markdown","bytes":1,"sha256":"%s"}\n' "$(sum victimhome/state.db)" >> sl/manifest.jsonl
expect_rc 0 "bulk with a manifest path through a symlink" "$txc" export --to markdown --out sl --db sl.db
[ -e victimhome/state.db ] && ok || bad "a manifest path through a symlink in DIR removed a file outside DIR"
grep -q evil sl/manifest.jsonl && bad "the symlinked entry stayed in the manifest" || ok

# ---- 16. a write error on standard output: one line that says why, also mid-stream ----
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT);
INSERT INTO sessions VALUES('b', 'cli', 1.0, 'big');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 'b', 'user', replace(printf('%%.60000c', 'x'), 'x', char(1)), 1.5);" > fz.sql
"$mkdb" fz.db fz.sql || exit 1
for cmd in "convert b --to hermes" "convert b --to claude" "export --json"; do
	(trap '' XFSZ; ulimit -f 100 && exec "$txc" $cmd --db fz.db > fz.out 2> err.txt); rc=$?
	[ $rc = 1 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q '^txc: error: cannot write to stdout: File too large$' err.txt && ok ||
		bad "$cmd to a full stdout: exit $rc, $(cat err.txt)"
done
if [ -w /dev/full ]; then
	"$txc" export --json --db fz.db > /dev/full 2> err.txt; rc=$?
	[ $rc = 1 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q 'cannot write to stdout: No space left' err.txt && ok || bad "export --json > /dev/full: exit $rc, $(cat err.txt)"
else
	echo "files-tests: SKIPPED export --json > /dev/full (no /dev/full)"
fi

# ---- 3. Claude Code appends while txc re-installs: its line is never lost ----
# strace holds txc in its fsync (after its checks) while the line is appended; race_wait waits
# for txc's temporary file in $1 to hold all $2 bytes, then 1 s for the checks (valgrind is slow)
race_wait() {
	n=0
	while [ $n -lt 150 ]; do
		for t in "$1"/.txc-tmp-*; do
			[ -f "$t" ] && [ "$(wc -c < "$t")" = "$2" ] && { sleep 1; return 0; }
		done
		sleep 0.1; n=$((n + 1))
	done
	return 1
}
delay="-e trace=fsync -e inject=fsync:delay_exit=6000000"
if command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	export CLAUDE_CONFIG_DIR="$work/crace"
	"$mkdb" race.db rn.sql || exit 1
	expect_rc 0 "install r1 (race)" "$txc" convert r1 --to claude --install --db race.db
	rcf=$(sed -n 's/^installed //p' out.txt)
	printf "INSERT INTO messages VALUES(5, 'r1', 'user', 'more', 1.7);\n" > race2.sql; "$mkdb" race.db race2.sql
	CLAUDE_CONFIG_DIR="$work/crace2" "$txc" convert r1 --to claude --install --db race.db > /dev/null 2>&1
	want=$(cat "$work"/crace2/projects/*/*.jsonl | wc -c)
	strace -f -o /dev/null $delay "$txc" convert r1 --to claude --install --db race.db > out.txt 2> err.txt &
	race_wait "$(dirname "$rcf")" "$want" || bad "race: txc's temporary file never appeared"
	printf '{"type":"user","sessionId":"x","uuid":"3b4e28ba-2fa1-41d2-883f-0016d3cca427","message":"APPENDED"}\n' >> "$rcf"
	wait $!; rc=$?
	grep -q APPENDED "$rcf" && ok || bad "a line Claude Code appended during the re-install was lost (exit $rc: $(cat out.txt err.txt))"
	[ $rc = 1 ] && grep -q 'changed while txc was writing it' err.txt && ok || bad "race: exit $rc, $(cat err.txt)"
	# the same for a bulk update: an edit made while txc writes the new version is kept
	"$txc" export --to markdown --out race --db race.db --title named > /dev/null 2>&1
	printf "INSERT INTO messages VALUES(6, 'r1', 'assistant', 'newer', 1.8);\n" > race3.sql; "$mkdb" race.db race3.sql
	"$txc" export --to markdown --out race2 --db race.db --title named > /dev/null 2>&1; want=$(wc -c < race2/r1-named.md)
	strace -f -o /dev/null $delay "$txc" export --to markdown --out race --db race.db --title named > out.txt 2> err.txt &
	race_wait race "$want" || bad "bulk race: txc's temporary file never appeared"
	echo "my edit" >> race/r1-named.md
	wait $!; rc=$?
	grep -q 'my edit' race/r1-named.md && ok || bad "an edit made during the bulk update was lost (exit $rc: $(cat err.txt))"
	[ $rc = 1 ] && grep -q 'changed while txc was writing it' err.txt && ok || bad "bulk race: exit $rc, $(cat err.txt)"
	export CLAUDE_CONFIG_DIR="$work/claude"
else
	skip "re-install and bulk update races" "strace cannot trace here"
fi

# ---- re-runs decided from the source (issue 16): a fingerprint of each session's rows ----
"$mkdb" fp.db "$src/fixtures/features.sql" || exit 1
expect_rc 0 "fingerprint: first run" "$txc" export --to markdown --out fp --db fp.db --progress
nfp=$(ls fp/*.md | wc -l); cp fp/manifest.jsonl fp.first
grep -q '"source_fingerprint":"[0-9a-f]\{32\}","render_key":"[0-9a-f]\{32\}","file_stat":"[0-9a-f]\{32\}"' fp/manifest.jsonl && ok || bad "no fingerprints in the manifest"
expect_rc 0 "fingerprint: unchanged re-run" "$txc" export --to markdown --out fp --db fp.db --progress
grep -q ": 0 new, 0 updated, $nfp unchanged ($nfp not re-rendered)" err.txt && ok || bad "unchanged re-run rendered: $(tail -1 err.txt)"
cmp -s fp/manifest.jsonl fp.first && ok || bad "unchanged re-run changed the manifest"
ls -li --time-style=full-iso fp/manifest.jsonl > fp.stat1
expect_rc 0 "fingerprint: unchanged again" "$txc" export --to markdown --out fp --db fp.db
ls -li --time-style=full-iso fp/manifest.jsonl | cmp -s - fp.stat1 && ok "an unchanged re-run leaves the manifest's file alone" || bad "the manifest was rewritten: $(cat fp.stat1)"
# nothing to render and no mark: not a folder is listed for leftovers (a look for the mark is enough)
if command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	strace -f -o fp.trace -e trace=getdents64,openat "$txc" export --to markdown --out fp --db fp.db 2> /dev/null
	! grep -q 'getdents64' fp.trace && ok "unchanged re-run: no folder listed" || bad "an unchanged re-run listed folders: $(grep -c getdents64 fp.trace)"
	: > fp/.txc-running && : > fp/.txc-tmp-Left01
	expect_rc 0 "fingerprint: a marked DIR" "$txc" export --to markdown --out fp --db fp.db
	[ ! -e fp/.txc-tmp-Left01 ] && [ ! -e fp/.txc-running ] && ok "a marked DIR is swept, the mark gone" || bad "marked DIR: $(ls -a fp | grep txc-)"
else
	skip "unchanged re-run lists no folder" "strace cannot trace here"
fi
one=$(sed -n 's/.*"session_id":"\([^"]*\)".*"messages":\([1-9][0-9]*\).*/\1/p' fp/manifest.jsonl | head -1)
printf "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('%s', 'user', 'one more', 1767700000.0);\n" "$one" > fp1.sql; "$mkdb" fp.db fp1.sql
expect_rc 0 "fingerprint: one session changed" "$txc" export --to markdown --out fp --db fp.db --progress
grep -q ": 0 new, 1 updated, $((nfp - 1)) unchanged ($((nfp - 1)) not re-rendered)" err.txt && ok || bad "one change: $(tail -1 err.txt)"
grep -q 'one more' fp/$one-*.md && ok || bad "the changed session's file was not updated"
# a session row change that leaves the bytes alone: rendered once, the entry and exported_at stay
grep "\"session_id\":\"$one\"" fp/manifest.jsonl | sed 's/.*"exported_at":"\([^"]*\)".*/\1/' > at.before
printf "UPDATE sessions SET tool_call_count = tool_call_count + 1 WHERE id = '%s';\n" "$one" > fp2.sql; "$mkdb" fp.db fp2.sql
expect_rc 0 "fingerprint: a row change, same bytes" "$txc" export --to markdown --out fp --db fp.db --progress
grep -q ": 0 new, 0 updated, $nfp unchanged ($((nfp - 1)) not re-rendered)" err.txt && ok || bad "row change: $(tail -1 err.txt)"
[ "$(grep "\"session_id\":\"$one\"" fp/manifest.jsonl | sed 's/.*"exported_at":"\([^"]*\)".*/\1/')" = "$(cat at.before)" ] && ok || bad "exported_at changed with the same bytes"
expect_rc 0 "fingerprint: then nothing to do" "$txc" export --to markdown --out fp --db fp.db --progress
grep -q "($nfp not re-rendered)" err.txt && ok || bad "fingerprint not brought up to date: $(tail -1 err.txt)"
# the file someone changed or removed since is handled as ever, fingerprint or not
f1=$(ls fp/$one-*.md); printf 'my note\n' >> "$f1"
expect_rc 1 "fingerprint: a changed file is refused" "$txc" export --to markdown --out fp --db fp.db
grep -q 'my note' "$f1" && grep -q 'not as txc wrote it' err.txt && ok || bad "changed file: $(cat err.txt)"
# an edit in place that keeps the size, its mtime put back (touch -r): its ctime tells, it is read and refused
f2=$(ls fp/*.md | grep -v "/$one-" | head -1); cp -p "$f2" f2.keep
printf 'X' | dd of="$f2" bs=1 seek=0 conv=notrunc 2> /dev/null && touch -r f2.keep "$f2"
expect_rc 1 "fingerprint: a same-size edit, mtime put back, is refused" "$txc" export --to markdown --out fp --db fp.db
head -c 1 "$f2" | grep -q X && grep -q 'not as txc wrote it' err.txt && ok || bad "same-size edit: $(cat err.txt)"
cp f2.keep "$f2"
rm "$f1"
expect_rc 0 "fingerprint: a removed file is restored" "$txc" export --to markdown --out fp --db fp.db --progress
[ -e "$f1" ] && grep -q ': 1 new, 0 updated' err.txt && ok || bad "removed file: $(tail -1 err.txt)"
a1=$(ls fp/*.assets/* 2> /dev/null | head -1)
if [ -n "$a1" ]; then rm "$a1"
expect_rc 0 "fingerprint: a removed image is restored" "$txc" export --to markdown --out fp --db fp.db
[ -e "$a1" ] && ok || bad "removed image not restored"; fi
# the fingerprints of a rowid table are read apart from the listing and matched by rowid; a WITHOUT
# ROWID table's with it: repeated and NULL ids, sessions added and removed, each tells its own change
for wr in "" " WITHOUT ROWID"; do
	pk=$([ -n "$wr" ] && echo "PRIMARY KEY")
	printf '%s\n' "CREATE TABLE sessions (id $pk, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT)$wr;" \
		"CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);" > fpr.sql
	if [ -n "$wr" ]; then printf '%s\n' "INSERT INTO sessions VALUES ('a', 'cli', 3, 'A'), ('b', 'cli', 2, 'B'), (7, 'cli', 1, 'C');"
	else printf '%s\n' "INSERT INTO sessions VALUES ('a', 'cli', 3, 'A'), ('a', 'cli', 2, 'A2'), (NULL, 'cli', 1, 'N'), ('b', 'cli', 2, 'B');"; fi >> fpr.sql
	printf '%s\n' "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('a', 'user', 'one a', 1), ('b', 'user', 'one b', 2), (7, 'user', 'one c', 3);" >> fpr.sql
	rm -rf fpr fpr.db; "$mkdb" fpr.db fpr.sql || exit 1
	n=$(sqlite3 fpr.db "SELECT count(*) FROM sessions")
	expect_rc 0 "fingerprint$wr: first run" "$txc" export --to markdown --out fpr --db fpr.db --progress
	expect_rc 0 "fingerprint$wr: unchanged" "$txc" export --to markdown --out fpr --db fpr.db --progress
	grep -q ": 0 new, 0 updated, $n unchanged ($n not re-rendered)" err.txt && ok || bad "$wr unchanged re-run: $(tail -1 err.txt)"
	sqlite3 fpr.db "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('b', 'user', 'two b', 4)"
	expect_rc 0 "fingerprint$wr: b changed" "$txc" export --to markdown --out fpr --db fpr.db --progress
	grep -q ": 0 new, 1 updated, $((n - 1)) unchanged ($((n - 1)) not re-rendered)" err.txt && grep -q 'two b' fpr/b-*.md && ok || bad "$wr one change: $(tail -1 err.txt)"
	sqlite3 fpr.db "UPDATE sessions SET title = 'B2' WHERE id = 'b'; INSERT INTO sessions VALUES ('d', 'cli', 0, 'D')"
	expect_rc 0 "fingerprint$wr: b renamed, d added" "$txc" export --to markdown --out fpr --db fpr.db --progress
	grep -q ": 2 new, 0 updated, $((n - 1)) unchanged ($((n - 1)) not re-rendered)" err.txt && ok || bad "$wr rename and add: $(tail -1 err.txt)"
done
# one new message in session $3 of the store NAME.sql holds: of its N ($4) sessions, that one is
# rendered again and the others are not; its file ($5, a glob in NAME/) shows the message
fp_one_change() { # name label id n file
	rm -rf "$1" "$1.db"; "$mkdb" "$1.db" "$1.sql" || exit 1
	expect_rc 0 "fingerprint, $2: first run" "$txc" export --to markdown --out "$1" --db "$1.db"
	expect_rc 0 "fingerprint, $2: unchanged" "$txc" export --to markdown --out "$1" --db "$1.db" --progress
	grep -q ": 0 new, 0 updated, $4 unchanged ($4 not re-rendered)" err.txt && ok || bad "$2, unchanged: $(tail -1 err.txt)"
	sqlite3 "$1.db" "INSERT INTO messages (session_id, role, content, timestamp) VALUES ($3, 'user', 'one more here', 4)"
	expect_rc 0 "fingerprint, $2: $3 changed" "$txc" export --to markdown --out "$1" --db "$1.db" --progress
	grep -q ": 0 new, 1 updated, $(($4 - 1)) unchanged ($(($4 - 1)) not re-rendered)" err.txt &&
		grep -q 'one more here' "$1"/$5 && ok || bad "$2, $3 changed: $(tail -1 err.txt)"
}
# a column named ROWID (SQLite's names know no case): not the row's place, a change still seen
printf '%s\n' "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, ROWID TEXT);" \
	"CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);" \
	"INSERT INTO sessions VALUES ('a', 'cli', 3, 'x'), ('b', 'cli', 2, 'x');" \
	"INSERT INTO messages (session_id, role, content, timestamp) VALUES ('a', 'user', 'one a', 1), ('b', 'user', 'one b', 2);" > fpc.sql
fp_one_change fpc "ROWID column" "'b'" 2 'b.md'
# columns whose names need quoting (a quote, a space, a keyword) and of every type: each one is in
# the fingerprint (hashed inside the statement by name), which is the value txc wrote before it did
printf '%s\n' "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, \"we\"\"ird\" TEXT, \"a b\" INTEGER, \"select\" REAL, blobby BLOB);" \
	"CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);" \
	"INSERT INTO sessions VALUES ('a', 'cli', 3, 'x', 1, 1.5, x'00ff'), ('b', 'cli', 2, NULL, -7, NULL, NULL);" \
	"INSERT INTO messages (session_id, role, content, timestamp) VALUES ('a', 'user', 'one a', 1), ('b', 'user', 'one b', 2);" > fpq.sql
rm -rf fpq fpq.db; "$mkdb" fpq.db fpq.sql || exit 1
expect_rc 0 "fingerprint, quoted columns: first run" "$txc" export --to markdown --out fpq --db fpq.db
grep -q '"session_id":"a".*"source_fingerprint":"30497b7b6904871d13584004f6b1d9f4"' fpq/manifest.jsonl &&
	grep -q '"session_id":"b".*"source_fingerprint":"82dca75d554687dd5c9f3499199db69c"' fpq/manifest.jsonl &&
	ok || bad "fingerprints are not the ones txc wrote before: $(grep -o '"source_fingerprint":"[^"]*"' fpq/manifest.jsonl)"
for col in '"we""ird"' '"a b"' '"select"' 'blobby'; do
	sqlite3 fpq.db "UPDATE sessions SET $col = 9 WHERE id = 'b'"
	expect_rc 0 "fingerprint, quoted columns: $col changed" "$txc" export --to markdown --out fpq --db fpq.db --progress
	grep -q ": 0 new, 0 updated, 2 unchanged (1 not re-rendered)" err.txt && ok || bad "$col changed: $(tail -1 err.txt)"
done
# an id of no declared type holding an integer, messages.session_id TEXT: the message rows the render reads
# (the id bound as a value) are those the fingerprint counts, so a new message is seen
printf '%s\n' "CREATE TABLE sessions (id, source TEXT NOT NULL, started_at REAL NOT NULL);" \
	"CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);" \
	"INSERT INTO sessions VALUES (7, 'cli', 3), ('b', 'cli', 2);" \
	"INSERT INTO messages (session_id, role, content, timestamp) VALUES (7, 'user', 'one 7', 1), ('b', 'user', 'one b', 2);" > fpt.sql
fp_one_change fpt "untyped integer id" 7 2 '7*.md'
# sessions a view (its rowids all NULL): each session keeps its own fingerprint, a change is seen
printf '%s\n' "CREATE TABLE s0 (id TEXT, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT);" "CREATE VIEW sessions AS SELECT * FROM s0;" \
	"CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);" \
	"INSERT INTO s0 VALUES ('a', 'cli', 3, 'A'), ('b', 'cli', 2, 'B'), ('c', 'cli', 1, 'C');" \
	"INSERT INTO messages (session_id, role, content, timestamp) VALUES ('a', 'user', 'one a', 1), ('b', 'user', 'one b', 2);" > fpv.sql
fp_one_change fpv "sessions a view" "'b'" 3 'b-*.md'
# other options render again; --force renders all (a message edited in place is not in the fingerprint)
expect_rc 0 "fingerprint: other options" "$txc" export --to markdown --detail full --out fp --db fp.db --progress
! grep -q 'not re-rendered' err.txt && ok || bad "--detail full was not rendered: $(tail -1 err.txt)"
expect_rc 0 "fingerprint: back" "$txc" export --to markdown --out fp --db fp.db
printf "UPDATE messages SET content = 'edited in place' WHERE session_id = '%s' AND content = 'one more';\n" "$one" > fp3.sql; "$mkdb" fp.db fp3.sql
expect_rc 0 "fingerprint: an in-place edit is not seen" "$txc" export --to markdown --out fp --db fp.db --progress
grep -q "($nfp not re-rendered)" err.txt && ok || bad "in-place edit: $(tail -1 err.txt)"
expect_rc 0 "fingerprint: --force renders all" "$txc" export --to markdown --out fp --db fp.db --force --progress
grep -q ': 0 new, 1 updated' err.txt && ! grep -q 'not re-rendered' err.txt && grep -q 'edited in place' fp/$one-*.md && ok || bad "--force: $(tail -1 err.txt)"

# ---- kill -9 at several points of a bulk run: the next run completes it, renders only what is left ----
for point in tmp:1 file:2 journal:3 tmp:4 manifest:1; do
	rm -rf kk; d=kk
	rc=$(TXC_TEST_KILL_AT=$point "$txc" export --to markdown --out $d --db fp.db > /dev/null 2>&1; echo $?)
	[ "$rc" = 137 ] && ok "killed at $point" || bad "not killed at $point (exit $rc)"
	case $point in tmp:*) ls -a $d | grep -q '^\.txc-tmp-' && ok || bad "$point: no temporary file left (the test needs one)" ;; esac
	[ -f $d/.txc-running ] && ok "killed at $point: DIR marked as being written" || bad "killed at $point: DIR not marked"
	done_n=$(grep -c '"source_fingerprint"' $d/manifest.jsonl 2> /dev/null || echo 0)
	expect_rc 0 "after kill at $point" "$txc" export --to markdown --out $d --db fp.db --progress
	grep -q "($done_n not re-rendered)" err.txt || [ "$done_n" = 0 ] && ! grep -q 'refused' err.txt && ok || bad "after kill at $point ($done_n recorded): $(tail -1 err.txt)"
	[ "$(find $d -name '.txc-tmp-*' -o -name .txc-running | wc -l)" = 0 ] && ok || bad "after kill at $point: temporary files or the mark left"
	[ "$(wc -l < $d/manifest.jsonl)" = "$nfp" ] && json_ok $d/manifest.jsonl && ok || bad "after kill at $point: manifest"
	for f in fp/*.md; do cmp -s "$f" "$d/${f#fp/}" || bad "after kill at $point: ${f#fp/} differs"; done
	expect_rc 0 "after kill at $point, again" "$txc" export --to markdown --out $d --db fp.db --progress
	grep -q ": 0 new, 0 updated, $nfp unchanged ($nfp not re-rendered)" err.txt && ok || bad "after kill at $point, again: $(tail -1 err.txt)"
done

# a run of a txc that made no mark, stopped after it recorded a file: its manifest holds the
# journal's extra line (not as a run ends it), which is enough to sweep the image folders too
rm -rf up; "$txc" export --to markdown --out up --db fp.db > /dev/null 2>&1
head -n 1 up/manifest.jsonl >> up/manifest.jsonl && : > up/img-unicode-title.md.assets/.txc-tmp-OldRun
expect_rc 0 "after a stopped run of a txc without the mark" "$txc" export --to markdown --out up --db fp.db
[ ! -e up/img-unicode-title.md.assets/.txc-tmp-OldRun ] && [ ! -e up/.txc-running ] &&
	[ "$(wc -l < up/manifest.jsonl)" = "$nfp" ] && ok "its leftover in an image folder removed, the manifest whole" || bad "old run's leftover: $(find up -name '.txc-*') $(wc -l < up/manifest.jsonl)"

# a re-run that renders nothing but rewrites the manifest (hand-edited: CRLF) or the index page
# (removed), killed at its rename: the next run removes the temporary file it left
if command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	for edit in crlf index; do
		rm -rf kr; "$txc" export --to html --out kr --db fp.db > /dev/null 2>&1
		case $edit in crlf) sed -i 's/$/\r/' kr/manifest.jsonl ;; index) rm kr/index.html ;; esac
		env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o /dev/null -e trace=rename,link -e inject=rename,link:signal=SIGKILL "$txc" export --to html --out kr --db fp.db > /dev/null 2>&1
		ls -a kr | grep -q '^\.txc-tmp-' && ok || bad "killed at the rename ($edit): no temporary file left (the test needs one)"
		expect_rc 0 "after a kill at the rename of a run that rendered nothing ($edit)" "$txc" export --to html --out kr --db fp.db
		[ "$(find kr -name '.txc-tmp-*' -o -name .txc-running | wc -l)" = 0 ] && ok || bad "$edit: left $(ls -a kr | grep txc-)"
	done
else
	skip "a kill at the rename of a run that rendered nothing" "strace cannot trace here"
fi

# ---- -j N: the same files, manifest and progress whatever N (workers render, one process decides) ----
for fmt in markdown claude html; do
	for j in 1 3; do
		rm -rf j$j jx; expect_rc 0 "-j $j ($fmt)" "$txc" export --to $fmt --out jx -j $j --db fp.db --progress
		mv jx j$j; sed 's/([0-9.]*\/s)//; s/([0-9.]* s)$//' err.txt > prog$j.txt
		sed 's/"exported_at":"[^"]*"//; s/"file_stat":"[^"]*"//' j$j/manifest.jsonl > man$j.txt
	done
	diff -r -x manifest.jsonl j1 j3 > /dev/null && ok || bad "-j 3 wrote other files than -j 1 ($fmt)"
	cmp -s man1.txt man3.txt && ok || bad "-j 3 wrote another manifest ($fmt)"
	cmp -s prog1.txt prog3.txt && ok || bad "-j 3 said other things ($fmt): $(diff prog1.txt prog3.txt)"
	[ "$(find j1 j3 -name '.txc-tmp-*' -o -name .txc-running | wc -l)" = 0 ] && ok || bad "-j 3 left temporary files or the mark ($fmt)"
done
# a file someone changed is refused the same way with workers
printf 'mine\n' >> "j3/$(cd j3 && ls *.html | grep -v index | head -1)"
expect_rc 1 "-j 3 refuses a changed file" "$txc" export --to html --out j3 -j 3 --db fp.db
grep -q 'not as txc wrote it' err.txt && [ "$(find j3 -name '.txc-tmp-*' | wc -l)" = 0 ] && ok || bad "-j 3 refusal: $(cat err.txt)"
expect_rc 2 "-j 0 is a usage error" "$txc" export --to markdown --out j0 -j 0 --db fp.db

# a worker killed half-way (SIGXFSZ on the big session): that session fails, said; the others land
rm -rf kw; rc=$( (ulimit -f 8 && exec "$txc" export --to markdown -j 2 --out kw --db k.db) > /dev/null 2> kw.err; echo $?) 2> /dev/null
# (a coverage build's parent writes its .gcda files at exit, past the 8 KiB limit: SIGXFSZ, 153)
cov=0 && grep -q __gcov_ "$txc" 2> /dev/null && cov=1
{ [ "$rc" = 1 ] || { [ $cov = 1 ] && [ "$rc" = 153 ]; }; } && grep -q 'worker process stopped' kw.err && [ -e kw/k0-many-0.md ] && [ ! -e kw/big-big.md ] && ok || bad "a killed worker: exit $rc, $(cat kw.err)"
[ "$(find kw -name '.txc-tmp-*' -o -name .txc-running | wc -l)" = 0 ] && ok "a killed worker: its temporary file and the mark removed by the run" || bad "a killed worker: left $(find kw -name '.txc-*')"
expect_rc 0 "after a killed worker" "$txc" export --to markdown -j 2 --out kw --db k.db --progress
grep -q ': 1 new, 0 updated, 9 unchanged (9 not re-rendered)' err.txt && [ "$(find kw -name '.txc-tmp-*' -o -name .txc-running | wc -l)" = 0 ] && ok || bad "after a killed worker: $(tail -1 err.txt)"
# the same with the big session first in the order: its worker dies at once, and the sessions
# after it are taken by the worker that is left (none was tied to the dead one: every one lands)
i=0; while [ $i -lt 8 ]; do printf "INSERT INTO sessions VALUES ('w%d', 'cli', NULL, 1767600000.0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, 'small %d', 0);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('w%d', 'user', 'hello', 1767600001.0);\n" $i $i $i; i=$((i + 1)); done > kf.sql
printf "INSERT INTO sessions VALUES ('big', 'cli', NULL, 1767700000.0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, 'big', 0);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('big', 'user', printf('%%.30000c', 'x'), 1767700001.0);\n" >> kf.sql
"$mkdb" kf.db "$src/fixtures/features.sql" && "$mkdb" kf.db kf.sql || exit 1
first=$("$txc" export --to markdown --out kf0 --db kf.db --dry-run 2> /dev/null | head -n 1)
[ "$first" = "new    kf0/big-big.md" ] && ok "the big session is the first to render" || bad "the test needs big first, not: $first"
# (16 KiB: the manifest of 12 sessions is more than 8; the big session's file is 30)
rm -rf kf; rc=$( (ulimit -f 16 && exec "$txc" export --to markdown -j 2 --out kf --db kf.db) > /dev/null 2> kf.err; echo $?) 2> /dev/null
{ [ "$rc" = 1 ] || { [ $cov = 1 ] && [ "$rc" = 153 ]; }; } && [ "$(grep -c 'worker process stopped' kf.err)" = 1 ] && [ ! -e kf/big-big.md ] &&
	[ "$(ls kf/w*.md | wc -l)" = 8 ] && ok "a worker dead at the first session: only that one fails" || bad "a worker dead at the first session: exit $rc, $(ls kf | tr '\n' ' ') $(cat kf.err)"

# the manifest's SHA-256 is every file's, with the CPU's SHA instructions and without them
for e in TXC_SHA=cpu TXC_NO_SHA_NI=1; do
	rm -rf sh; env $e "$txc" export --to markdown --out sh --db fp.db 2> /dev/null
	n=0; while read -r p h; do [ "$(sum "sh/$p")" = "$h" ] || bad "$e: sha256 of $p"; n=$((n + 1)); done <<EOF2
$(sed 's/.*"path":"\([^"]*\)".*"sha256":"\([0-9a-f]*\)".*/\1 \2/' sh/manifest.jsonl)
EOF2
	[ $n -ge 4 ] && ok "sha256 ($e)" || bad "sha256 ($e): $n files"
done

# --all-profiles with a broken profile: said once, whatever N (workers open the stores again, silently)
mkdir -p hp/.hermes/profiles/work hp/.hermes/profiles/bad && cp fp.db hp/.hermes/state.db && cp fp.db hp/.hermes/profiles/work/state.db
printf 'not a database' > hp/.hermes/profiles/bad/state.db
for j in 1 3; do
	rm -rf jp; "$txc" export --to markdown --out jp --all-profiles --home hp/.hermes -j $j --progress > /dev/null 2> err.txt
	sed 's/([0-9.]*\/s)//; s/([0-9.]* s)$//' err.txt > pp$j.txt
done
[ "$(grep -c 'left out' pp1.txt)" = 1 ] && cmp -s pp1.txt pp3.txt && ok || bad "--all-profiles -j 3 said other things: $(diff pp1.txt pp3.txt)"

# ---- export --json: sessions without an id are exported as they are ("id": null), said once ----
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT);
INSERT INTO sessions VALUES(NULL, 'cli', 1.0, 'no id'), ('ok', 'cli', 2.0, 'fine');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 'ok', 'user', 'hi', 2.5);" > noid.sql
"$mkdb" noid.db noid.sql || exit 1
expect_rc 0 "--json with a NULL id" "$txc" export --json --db noid.db
grep -q '^txc: warning: 1 session has no id (NULL or empty)$' err.txt && ok || bad "one no-id warning: $(cat err.txt)"
[ "$(wc -l < out.txt)" = 2 ] && grep -q '"id": null' out.txt && grep -q '"id": "ok"' out.txt && ok || bad "no-id export: $(head -c 300 out.txt)"
printf "INSERT INTO sessions VALUES('', 'cli', 3.0, 'empty id');\n" > noid2.sql; "$mkdb" noid.db noid2.sql
expect_rc 0 "--json with a NULL and an empty id" "$txc" export --json --db noid.db
grep -q '^txc: warning: 2 sessions have no id (NULL or empty)$' err.txt && [ "$(wc -l < out.txt)" = 3 ] && ok || bad "two no-id warning: $(cat err.txt)"

# ---- export --out: a manifest with a line that is not txc's is someone's file (issue 27) ----
expect_rc 0 "bulk for a broken manifest" "$txc" export --to markdown --out mb --db fp.db
nfp=$(ls mb/*.md | wc -l); cp mb/manifest.jsonl mb.good; f1=$(ls mb/chat-*.md | head -1)
z=$(printf '%064d' 0)
# one line that is not an entry txc writes (first, in the middle or last), or a file that is not JSON at all
i=0
for bad_line in '' 'not json' '{"path":"a.md"}' '{"path":"b.md","sha256":"abc"}' "{\"sha256\":\"$z\"}" '[1,2]' \
	"{\"path\":\"c.md\",\"format\":\"markdown\",\"sha256\":\"$z\"}" "{\"path\":\"c.md\",\"format\":\"markdown\",\"bytes\":1,\"sha256\":\"$(echo $z | tr 0 A)\"}" \
	"{\"path\":\"c.md\",\"format\":\"markdown\",\"bytes\":-1,\"sha256\":\"$z\"}" '{"name":"my notes","path":"notes.txt"}' '"a string"'; do
	i=$((i + 1))
	case $((i % 3)) in
	0) { printf '%s\n' "$bad_line"; cat mb.good; } > mb/manifest.jsonl; at=1 ;;
	1) { head -1 mb.good; printf '%s\n' "$bad_line"; tail -n +2 mb.good; } > mb/manifest.jsonl; at=2 ;;
	2) { cat mb.good; printf '%s\n' "$bad_line"; } > mb/manifest.jsonl; at=$((nfp + 1)) ;;
	esac
	cp mb/manifest.jsonl mb.bad; rm "$f1"
	expect_rc 1 "a manifest with a foreign line ($i: '$bad_line')" "$txc" export --to markdown --out mb --db fp.db
	[ "$(cat err.txt)" = "txc: error: 'mb/manifest.jsonl' is not txc's manifest (line $at is not an entry txc writes); pass --force to overwrite it" ] &&
		cmp -s mb/manifest.jsonl mb.bad && [ ! -e "$f1" ] && ok || bad "foreign manifest line $i: $(cat err.txt)"
	cp mb.good mb/manifest.jsonl; "$txc" export --to markdown --out mb --db fp.db 2> /dev/null
done
for kind in text binary; do
	if [ $kind = text ]; then printf 'my shopping list\nmilk\n' > mb/manifest.jsonl; else printf '\211PNG\r\n\032\n\000\000\377' > mb/manifest.jsonl; fi
	cp mb/manifest.jsonl mb.bad; rm "$f1"
	for dry in "" --dry-run; do
		expect_rc 1 "a $kind manifest $dry" "$txc" export --to markdown --out mb --db fp.db $dry
		grep -q "^txc: error: 'mb/manifest.jsonl' is not txc's manifest (line 1 is not an entry txc writes); pass --force to overwrite it$" err.txt &&
			[ "$(wc -l < err.txt)" = 1 ] && cmp -s mb/manifest.jsonl mb.bad && [ ! -e "$f1" ] && ok || bad "$kind manifest $dry: $(cat err.txt)"
	done
done
# with --force it is replaced, and none of its lines is used: a crafted entry does not remove a file
printf 'mine\n' > mb/mine.md
{ cat mb.good; printf '{"session_id":"tools","path":"mine.md","format":"markdown","bytes":5,"sha256":"%s"}\nnot json\n' "$(sum mb/mine.md)"; } > mb/manifest.jsonl
expect_rc 0 "a foreign manifest, --force" "$txc" export --to markdown --out mb --db fp.db --force
grep -q "^txc: warning: 'mb/manifest.jsonl' is not txc's manifest (line $((nfp + 2))); it will be replaced (--force)$" err.txt && ok || bad "foreign --force: $(cat err.txt)"
[ "$(cat mb/mine.md)" = mine ] && [ -e "$f1" ] && [ "$(wc -l < mb/manifest.jsonl)" = "$nfp" ] && json_ok mb/manifest.jsonl && ok || bad "foreign --force: $(cat mb/manifest.jsonl)"
# a last line cut short (a journal write stopped by a full disk) is a stopped run's: DIR has the mark
{ cat mb.good; printf '{"session_id":"tools","pa'; } > mb/manifest.jsonl; cp mb/manifest.jsonl mb.bad
expect_rc 1 "a cut-short last line, no run marked" "$txc" export --to markdown --out mb --db fp.db
cmp -s mb/manifest.jsonl mb.bad && grep -q "line $((nfp + 1)) is not an entry" err.txt && ok || bad "cut-short line without the mark: $(cat err.txt)"
: > mb/.txc-running
expect_rc 0 "a cut-short last line of a stopped run" "$txc" export --to markdown --out mb --db fp.db
[ "$(wc -l < mb/manifest.jsonl)" = "$nfp" ] && json_ok mb/manifest.jsonl && [ ! -e mb/.txc-running ] && ok || bad "cut-short line of a stopped run: $(cat err.txt)"
# an SQLite database (not the store read) named manifest.jsonl: never replaced, also with --force (exit 4)
cp fp.db mb/manifest.jsonl
for f in "" --force; do
	expect_rc 4 "an SQLite database as the manifest $f" "$txc" export --to markdown --out mb --db b.db $f
	[ "$(cat err.txt)" = "txc: error: refusing to write 'mb/manifest.jsonl': it is an SQLite database" ] && cmp -s mb/manifest.jsonl fp.db && ok || bad "SQLite manifest $f: $(cat err.txt)"
done
cp mb.good mb/manifest.jsonl
# an entry whose image list is broken: read without the broken items; a changed image is refused as ever
a=$(grep -o '"path":"img[^"]*assets/[^"]*"' mb/manifest.jsonl | head -1 | sed 's/"path":"\(.*\)"/\1/')
sed -i 's/"assets":\[{"path":"\([^"]*\)","sha256":"\([0-9a-f]*\)"}\]/"assets":[{"path":"\1","sha256":"x"},{"sha256":"\2"},7]/' mb/manifest.jsonl
printf 'changed' > "mb/$a"
expect_rc 1 "an image not in the manifest's assets" "$txc" export --to markdown --out mb --db fp.db
[ "$(cat "mb/$a")" = changed ] && grep -q "'mb/$a' exists and is not as txc wrote it" err.txt && ok || bad "image with broken assets entry: $(cat err.txt)"

# ---- (issue 27) a session whose file name would be txc's own: another name, the same on every run ----
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT);
INSERT INTO sessions VALUES('manifest', 'cli', 1.0, NULL), ('index', 'cli', 2.0, ''), ('other', 'cli', 3.0, 'other');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 'manifest', 'user', 'hi', 1.5), (2, 'index', 'user', 'hi', 2.5), (3, 'other', 'user', 'hi', 3.5);" > own.sql
"$mkdb" own.db own.sql || exit 1
for to in claude html hermes; do
	rm -rf own-$to
	for run in 1 2; do
		expect_rc 0 "sessions named manifest and index, --to $to, run $run" "$txc" export --to $to --out own-$to --db own.db --progress
		ls own-$to | grep -v -e '^manifest.jsonl$' -e '^index.html$' > own-$to.names.$run
		if [ $to = html ]; then want="index_[0-9a-f]\{8\}\.html manifest.html"; else want="manifest_[0-9a-f]\{8\}\.jsonl index.jsonl"; fi
		set -- $want
		grep -q "^$1\$" own-$to.names.$run && grep -q "^$2\$" own-$to.names.$run && [ "$(wc -l < own-$to.names.$run)" = 3 ] &&
			[ "$(wc -l < own-$to/manifest.jsonl)" = $((3 + $([ $to = html ] && echo 1 || echo 0))) ] && json_ok own-$to/manifest.jsonl &&
			! grep -q '"path":"manifest.jsonl"' own-$to/manifest.jsonl && ok || bad "own names --to $to run $run: $(ls own-$to; cat err.txt)"
	done
	cmp -s own-$to.names.1 own-$to.names.2 && grep -q ': 0 new, 0 updated, 3 unchanged' err.txt && ok "own names --to $to: stable across runs" || bad "own names --to $to: $(tail -1 err.txt)"
done
[ -s own-html/index.html ] && grep -q 'index_' own-html/index.html && ok "the index page is the index, linking the session" || bad "index page: $(head -c 200 own-html/index.html)"

# ---- the manifest as a hard link or symbolic link: no journal through it; the final rewrite replaces the name ----
rm -rf mh && expect_rc 0 "bulk for a linked manifest" "$txc" export --to markdown --out mh --db fp.db
ln mh/manifest.jsonl mh.hard; hsum=$(sum mh.hard)
f1=$(ls mh/chat-*.md); rm "$f1"
expect_rc 0 "bulk with a hard-linked manifest" "$txc" export --to markdown --out mh --db fp.db --progress
[ -e "$f1" ] && grep -q ': 1 new, 0 updated' err.txt && ok || bad "hard-linked manifest run: $(tail -1 err.txt)"
[ "$(sum mh.hard)" = "$hsum" ] && [ "$(stat -c %h mh/manifest.jsonl)" = 1 ] && ok || bad "the other name of the manifest was written"
grep -q "\"path\":\"${f1#mh/}\"" mh/manifest.jsonl && json_ok mh/manifest.jsonl && ok || bad "hard-linked manifest: not rewritten"
cp mh/manifest.jsonl mh.target && rm mh/manifest.jsonl && ln -s ../mh.target mh/manifest.jsonl; tsum=$(sum mh.target)
rm "$f1"
expect_rc 0 "bulk with a symlinked manifest" "$txc" export --to markdown --out mh --db fp.db
[ "$(sum mh.target)" = "$tsum" ] && [ -f mh/manifest.jsonl ] && [ ! -L mh/manifest.jsonl ] && [ -e "$f1" ] && ok || bad "symlinked manifest: the target was written or the link kept"

# ---- one run at a time per DIR: a second is refused while the first holds DIR's lock ----
rm -rf ml && expect_rc 0 "bulk for the lock" "$txc" export --to markdown --out ml --db fp.db
cp ml/manifest.jsonl ml.before; f1=$(ls ml/chat-*.md); rm "$f1"
expect_rc 1 "a second run while DIR is locked" flock ml "$txc" export --to markdown --out ml --db fp.db
grep -q "^txc: error: another txc is exporting to 'ml'; try again when it is done$" err.txt && ok || bad "lock: $(cat err.txt)"
[ ! -e "$f1" ] && cmp -s ml/manifest.jsonl ml.before && ok || bad "the locked-out run wrote"
expect_rc 0 "--dry-run needs no lock" flock ml "$txc" export --to markdown --out ml --db fp.db --dry-run
grep -q "^new    ml/${f1#ml/}$" out.txt && [ ! -e "$f1" ] && ok || bad "dry run under a lock: $(cat out.txt)"

# ---- the index page: a session's file of that name, an index someone edited ----
rm -rf mi && expect_rc 0 "html bulk" "$txc" export --to html --out mi --db fp.db
isum=$(sum mi/index.html); printf '<!-- mine -->' >> mi/index.html; msum=$(sum mi/index.html)
f1=$(ls mi/chat-*.html); rm "$f1"
expect_rc 1 "an edited index page" "$txc" export --to html --out mi --db fp.db
[ "$(sum mi/index.html)" = "$msum" ] && grep -q "^txc: warning: 'mi/index.html' exists and is not as txc wrote it; pass --force" err.txt && ok || bad "edited index: $(cat err.txt)"
grep -q 'the index page was not written (see above)' err.txt && [ -e "$f1" ] && ok || bad "edited index: the sessions were not written or not said: $(cat err.txt)"
expect_rc 0 "an edited index page, --force" "$txc" export --to html --out mi --db fp.db --force
[ "$(sum mi/index.html)" = "$isum" ] && ok || bad "--force did not rewrite the index page"
rm mi/index.html
expect_rc 0 "a removed index page" "$txc" export --to html --out mi --db fp.db
[ "$(sum mi/index.html)" = "$isum" ] && ok || bad "a removed index page was not written again"
sed -i 's/"path":"index.html",/"session_id":"x","path":"index.html",/' mi/manifest.jsonl; rm mi/index.html
expect_rc 1 "a session's file named index.html" "$txc" export --to html --out mi --db fp.db
grep -q "no 'mi/index.html' written: a session's file has that name" err.txt && [ ! -e mi/index.html ] && ok || bad "index named by a session: $(cat err.txt)"

# ---- --install: what a file at the session's name holds decides: txc's, continued, or someone else's ----
mkdir -p repo
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, cwd TEXT, title TEXT);
INSERT INTO sessions VALUES('t1', 'cli', 1.0, '$work/repo', 'titled');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 't1', 'user', 'hi', 1.5), (2, 't1', 'assistant', 'hello', 1.6);" > ti.sql
"$mkdb" ti.db ti.sql || exit 1
export CLAUDE_CONFIG_DIR="$work/ccls"
expect_rc 0 "install a titled session" "$txc" convert t1 --to claude --install --db ti.db
tf=$(sed -n 's/^installed //p' out.txt); cp "$tf" t.orig
[ "$(tail -2 t.orig | grep -c '"type":"summary"\|"type":"custom-title"')" = 2 ] && ok || bad "the installed file does not end with its summary and title"
printf "INSERT INTO messages VALUES(3, 't1', 'user', 'news', 1.7);\n" > tgrow.sql; "$mkdb" ti.db tgrow.sql
head -1 t.orig > t.l1
# continued: txc's lines, then something txc did not write (a cut line, a non-object, another session's title)
{ head -3 t.orig; } > v.cut-after-summary
{ cat t.orig; printf '{"type":"user","sessionId":"x"'; } > v.cut-line
{ cat t.orig; printf '[1]\n'; } > v.array
{ head -3 t.orig; sed -n 3p t.orig; } > v.two-summaries
{ cat t.orig; printf '{"type":"custom-title","customTitle":"n","sessionId":"other"}\n'; } > v.other-title
for v in cut-after-summary cut-line array two-summaries other-title; do
	cp "v.$v" "$tf"
	expect_rc 4 "install over a continued file ($v)" "$txc" convert t1 --to claude --install --db ti.db
	cmp -s "$tf" "v.$v" && grep -q 'was continued in Claude Code' err.txt && ok || bad "$v: replaced or not said: $(cat err.txt)"
done
# someone else's: not a txc record from its first line on
sed 's/"sessionId":"[^"]*"/"sessionId":"other"/' t.l1 > v.other-session
sed 's/\("uuid":"[0-9a-f]\{8\}-[0-9a-f]\{4\}-\)5/\14/' t.l1 > v.random-uuid
sed 's/\("uuid":"[0-9a-f-]*\)"/\1a"/' t.l1 > v.long-uuid
sed 's/"type":"user",//' t.l1 > v.no-type
sed 's/"type":"user"/"type":"system"/' t.l1 > v.system
sed 's/"uuid":"[^"]*",//' t.l1 > v.no-uuid
tail -1 t.orig > v.title-first
printf 'plain text\n' > v.text
for v in other-session random-uuid long-uuid no-type system no-uuid title-first text; do
	cmp -s "v.$v" t.l1 && { bad "$v: the variant is the same line"; continue; }
	cp "v.$v" "$tf"
	expect_rc 1 "install over someone else's file ($v)" "$txc" convert t1 --to claude --install --db ti.db
	cmp -s "$tf" "v.$v" && grep -q "exists and is not a session txc installed; pass --force" err.txt && ok || bad "$v: $(cat err.txt)"
done
# a dangling symbolic link at that name is not txc's either; --force replaces the link, not its target
rm "$tf" && ln -s "$work/nowhere" "$tf"
expect_rc 1 "install over a dangling link" "$txc" convert t1 --to claude --install --db ti.db
[ -L "$tf" ] && grep -q 'not a session txc installed' err.txt && ok || bad "dangling link: $(cat err.txt)"
expect_rc 0 "install over a dangling link, --force" "$txc" convert t1 --to claude --install --db ti.db --force
[ ! -L "$tf" ] && [ ! -e nowhere ] && grep -q news "$tf" && grep -q "^updated $tf" out.txt && ok || bad "--force over a dangling link: $(cat out.txt err.txt)"
# an empty file (nothing anyone could resume) is txc's to fill
: > "$tf"
expect_rc 0 "install over an empty file" "$txc" convert t1 --to claude --install --db ti.db
grep -q "^updated $tf" out.txt && grep -q news "$tf" && ok || bad "empty file: $(cat out.txt err.txt)"
# the working directory is gone: installed for / (getcwd fails), said
printf "UPDATE sessions SET cwd = NULL;\n" > tnocwd.sql; cp ti.db tg.db; "$mkdb" tg.db tnocwd.sql
mkdir gone && (cd gone && rmdir ../gone && CLAUDE_CONFIG_DIR="$work/ccgone" "$txc" convert t1 --to claude --install --db "$work/tg.db" > "$work/out.txt" 2> "$work/err.txt"; echo $? > "$work/rc.txt")
[ "$(cat rc.txt)" = 0 ] && grep -q 'no recorded working directory; installing for /$' err.txt && [ -s "$(sed -n 's/^installed //p' out.txt)" ] &&
	grep -q "^installed $work/ccgone/projects/-/" out.txt && ok "install from a removed directory: for /" || bad "install from a removed directory: $(cat rc.txt) $(cat out.txt err.txt)"
# a recorded directory that is not here, very long: said, cut at 200 bytes, installed for the current one
long=/$(printf '%0300d' 0)
printf "UPDATE sessions SET cwd = '%s';\n" "$long" > tlong.sql; cp ti.db tl.db; "$mkdb" tl.db tlong.sql
CLAUDE_CONFIG_DIR="$work/cclong" expect_rc 0 "install with a long missing directory" "$txc" convert t1 --to claude --install --db tl.db
grep -q "^txc: warning: the session's directory '$(printf '%.200s' "$long")' does not exist here; installing for $work$" err.txt && ok || bad "long cwd warning: $(cat err.txt)"

export CLAUDE_CONFIG_DIR="$work/claude"

# pipes, processes and writes fail in txc itself, not in a wrapper around it (memcheck's valgrind has its own)
native=0 && [ "$(head -c 4 "$txc" | tail -c 3)" = ELF ] && native=1
# (LeakSanitizer cannot run under strace: a sanitizer build's leak check is off there)
nolsan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
inj() { # SYSCALL:error=E|signal=S WHEN cmd...: the system call fails (only the WHEN-th time, if given)
	ij_e=$1 ij_w=$2; shift 2
	env "$nolsan" strace -f -o /dev/null -e trace="${ij_e%%:*}" -e inject="$ij_e${ij_w:+:when=$ij_w}" "$@"
}
# ---- write errors the kernel reports at the end: said, nothing written, no temporary file left ----
if command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	"$txc" convert t1 --to hermes --db ti.db -o ij.json && isum=$(sum ij.json)
	expect_rc 1 "rename fails" inj rename:error=EXDEV "" "$txc" convert t1 --to markdown --db ti.db -o ij.json --force
	grep -q "^txc: error: cannot write 'ij.json': Invalid cross-device link (nothing was written)$" err.txt && [ "$(sum ij.json)" = "$isum" ] && ok || bad "rename fails: $(cat err.txt)"
	expect_rc 1 "fsync fails" inj fsync:error=EIO "" "$txc" convert t1 --to markdown --db ti.db -o ij.json --force
	grep -q "cannot write 'ij.json': Input/output error (nothing was written)" err.txt && [ "$(sum ij.json)" = "$isum" ] && ok || bad "fsync fails: $(cat err.txt)"
	expect_rc 1 "link fails" inj link:error=ENOSPC "" "$txc" convert t1 --to markdown --db ti.db -o ij.md
	grep -q "cannot write 'ij.md': No space left on device (nothing was written)" err.txt && [ ! -e ij.md ] && ok || bad "link fails: $(cat err.txt)"
	expect_rc 1 "the name appears meanwhile" inj link:error=EEXIST "" "$txc" convert t1 --to markdown --db ti.db -o ij.md
	grep -q "^txc: error: 'ij.md' already exists; pass --force to overwrite it$" err.txt && [ ! -e ij.md ] && ok || bad "link EEXIST: $(cat err.txt)"
	[ "$(ls -a | grep -c '^\.txc-tmp-')" = 0 ] && ok "no temporary file left by failed writes" || bad "failed writes left temporary files: $(ls -a | grep txc-tmp)"
	# a file system without fsync (EINVAL) or read-only for it (EROFS): written
	for e in EINVAL EROFS; do
		expect_rc 0 "fsync $e" inj fsync:error=$e "" "$txc" convert t1 --to markdown --db ti.db -o ij-$e.md
		grep -q news ij-$e.md && ok || bad "fsync $e: not written"
	done
	# a bulk run: the file whose rename fails is said and not recorded; the next run finishes it
	rm -rf bi && "$txc" export --to markdown --out bi --db fp.db && cp bi/manifest.jsonl bi.man
	printf "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('chat', 'user', 'later', 1767700000.0), ('tools', 'user', 'later', 1767700000.0);\n" > bi.sql
	cp fp.db bi.db && "$mkdb" bi.db bi.sql
	expect_rc 1 "bulk: one rename fails" inj rename:error=EIO 1 "$txc" export --to markdown --out bi --db bi.db --progress
	grep -q "cannot write 'bi/chat-.*md': Input/output error (nothing was written)" err.txt && grep -q ': 0 new, 1 updated, .*some refused or failed' err.txt && ok || bad "bulk rename: $(cat err.txt)"
	! grep -q later bi/chat-*.md && grep -q later bi/tools-*.md && ok || bad "bulk rename: which files were written"
	grep -q "$(grep '"session_id":"chat"' bi.man | sed 's/.*"sha256":"\([0-9a-f]*\)".*/\1/')" bi/manifest.jsonl && ok || bad "the failed file's entry changed"
	expect_rc 0 "bulk after a failed rename" "$txc" export --to markdown --out bi --db bi.db --progress
	grep -q ': 0 new, 1 updated' err.txt && grep -q later bi/chat-*.md && ok || bad "after a failed rename: $(tail -1 err.txt)"
	# the manifest's own rewrite fails: said, the run fails; the journal kept what was written
	printf "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('chat', 'user', 'even later', 1767700001.0);\n" > bi2.sql; "$mkdb" bi.db bi2.sql
	expect_rc 1 "bulk: the manifest cannot be written" inj rename:error=ENOSPC 2 "$txc" export --to markdown --out bi --db bi.db
	grep -q "cannot write 'bi/manifest.jsonl': No space left on device" err.txt && grep -q 'even later' bi/chat-*.md && ok || bad "manifest write: $(cat err.txt)"
	expect_rc 0 "bulk after the manifest failed" "$txc" export --to markdown --out bi --db bi.db --progress
	grep -q ': 0 new, 0 updated, ' err.txt && json_ok bi/manifest.jsonl && ok || bad "after the manifest failed: $(tail -1 err.txt)"
else
	skip "write errors" "strace cannot trace here"
fi

# ---- -j N when workers cannot start or die: the same files, or each session said and none half-written ----
if [ $native = 1 ] && command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	rm -rf jr && "$txc" export --to markdown --out jr -j 1 --db fp.db 2> /dev/null
	for e in pipe2:error=EMFILE clone:error=EAGAIN; do
		rm -rf jx; expect_rc 0 "-j 3 without workers ($e)" inj $e "" "$txc" export --to markdown --out jx -j 3 --db fp.db
		diff -r -x manifest.jsonl jr jx > /dev/null && [ "$(wc -l < jx/manifest.jsonl)" = "$(wc -l < jr/manifest.jsonl)" ] && ok || bad "-j 3 without workers ($e): other files"
	done
	rm -rf jx; expect_rc 1 "-j 2, the workers die" inj dup2:signal=SIGKILL "" "$txc" export --to markdown --out jx -j 2 --db fp.db
	[ "$(grep -c 'a worker process stopped; the session was not exported' err.txt)" = "$nfp" ] && grep -q ": 0 new, 0 updated, 0 unchanged, some refused or failed" err.txt && ok || bad "dead workers: $(cat err.txt)"
	[ "$(ls jx | wc -l)" = 0 ] && [ "$(find jx -name '.txc-tmp-*' | wc -l)" = 0 ] && ok || bad "dead workers: files left: $(ls -a jx)"
	# (with workers, one syncfs makes a window of their files durable; when it fails, each file's own fsync
	# says which could not be written)
	rm -rf jx; expect_rc 1 "-j 2, every fsync fails" inj fsync,syncfs:error=EIO "" "$txc" export --to markdown --out jx -j 2 --db fp.db
	[ "$(grep -c "cannot write 'jx/.*': Input/output error" err.txt)" = "$nfp" ] && ok || bad "-j 2 fsync: $(cat err.txt)"
	[ "$(find jx -type f | wc -l)" = 0 ] && ok || bad "-j 2 fsync: files left: $(find jx -type f)"
	expect_rc 0 "-j 2 after the failures" "$txc" export --to markdown --out jx -j 2 --db fp.db
	diff -r -x manifest.jsonl jr jx > /dev/null && ok || bad "-j 2 after the failures: other files"
	# a first export with workers: no fsync per document or image (one syncfs per window of sessions,
	# their images written ahead, before any of them is renamed into place)
	rm -rf jy; strace -f -o jy.trace -e trace=fsync,syncfs "$txc" export --to markdown --out jy -j 2 --db fp.db 2> /dev/null
	n_img=$(find jy -path '*.assets/*' -type f | wc -l) n_doc=$(find jy -maxdepth 1 -name '*.md' | wc -l)
	n_fsync=$(grep -c '^[0-9]* *fsync(' jy.trace) n_syncfs=$(grep -c 'syncfs(' jy.trace)
	! grep -q "syncfs.*= -1" jy.trace || n_syncfs=0
	[ "$n_doc" -gt 2 ] && [ "$n_syncfs" -ge 1 ] && [ "$n_img" -ge 1 ] && [ "$n_fsync" = 0 ] && ok "-j 2: one syncfs for $n_doc documents and $n_img images" ||
		bad "-j 2: $n_fsync fsync and $n_syncfs syncfs calls for $n_doc documents and $n_img images"
	diff -r -x manifest.jsonl jr jy > /dev/null && ok || bad "-j 2 with a syncfs: other files"
	# an image written ahead whose document is then refused (someone else's file by that name): removed
	rm -rf jz && mkdir jz && echo mine > jz/img-unicode-title.md
	expect_rc 1 "-j 2, a document refused after its image was written ahead" "$txc" export --to markdown --out jz -j 2 --db fp.db
	[ "$(cat jz/img-unicode-title.md)" = mine ] && [ ! -e jz/img-unicode-title.md.assets ] &&
		[ "$(find jz -name '.txc-*' | wc -l)" = 0 ] && ok || bad "-j 2, refused with an image ahead: $(find jz)"
else
	skip "-j N without workers" "strace cannot trace here, or txc runs in a wrapper"
fi

# ---- --out and --install at once: the installed copy continued in Claude Code is refused, the file written ----
export CLAUDE_CONFIG_DIR="$work/ccboth"
rm -rf ob && expect_rc 0 "--out and --install" "$txc" export --to claude --out ob --install --db ti.db
tf=$(ls "$CLAUDE_CONFIG_DIR"/projects/*/*.jsonl) && cmp -s "$tf" ob/t1-titled.jsonl && ok || bad "--out and --install: not the same file"
printf '{"type":"user","sessionId":"x","uuid":"4b4e28ba-2fa1-41d2-883f-0016d3cca427","message":{"role":"user","content":"in claude"}}\n' >> "$tf"
printf "INSERT INTO messages VALUES(4, 't1', 'assistant', 'newer', 1.8);\n" > tgrow2.sql; cp ti.db tb.db; "$mkdb" tb.db tgrow2.sql
expect_rc 4 "--out and --install, continued with news" "$txc" export --to claude --out ob --install --db tb.db
grep -q 'in claude' "$tf" && grep -q newer ob/t1-titled.jsonl && grep -q 'was continued in Claude Code' err.txt && ok || bad "--out and --install, continued: $(cat err.txt)"
expect_rc 0 "--install --dry-run" "$txc" export --to claude --install --dry-run --db tb.db
[ "$(cat out.txt)" = "install t1" ] && ! grep -q newer "$tf" && ok || bad "--install --dry-run: $(cat out.txt)"
printf "INSERT INTO messages VALUES(5, 't1', 'user', 'newest', 1.9);\n" > tgrow3.sql; "$mkdb" tb.db tgrow3.sql
expect_rc 0 "--out and --install --dry-run" "$txc" export --to claude --out ob --install --dry-run --db tb.db
[ "$(cat out.txt)" = 'update ob/t1-titled.jsonl' ] && ! grep -q newest "$tf" ob/t1-titled.jsonl && ok || bad "--out --install --dry-run: $(cat out.txt)"
echo stranger > "$tf"
expect_rc 1 "--out and --install over someone else's file" "$txc" export --to claude --out ob --install --db tb.db
[ "$(cat "$tf")" = stranger ] && grep -q 'not a session txc installed; pass --force' err.txt && ok || bad "--out --install, stranger: $(cat err.txt)"
rm -rf "$CLAUDE_CONFIG_DIR" # a stranger's *.jsonl: not for the suite's JSON check
export CLAUDE_CONFIG_DIR="$work/claude"

# ---- sessions without an id as files: a name each, their entries, unchanged on a re-run ----
rm -rf on && expect_rc 0 "files for sessions without an id" "$txc" export --to markdown --out on --db noid.db
[ "$(ls on/*.md | wc -l)" = 3 ] && [ "$(wc -l < on/manifest.jsonl)" = 3 ] && grep -q '"session_id":"no-id~[0-9]","id_kind":"none","path":"no-id_[0-9]_[0-9a-f]\{8\}-empty-id.md"' on/manifest.jsonl && ok || bad "no-id files: $(ls on) $(cat on/manifest.jsonl)"
expect_rc 0 "files for sessions without an id, again" "$txc" export --to markdown --out on --db noid.db --progress
grep -q ': 0 new, 0 updated, 3 unchanged' err.txt && ok || bad "no-id re-run: $(tail -1 err.txt)"

# ---- --dry-run says what a run would do, and does nothing ----
rm -rf od && "$txc" export --to markdown --out od --db fp.db && cp -r od od.before
f1=$(ls od/chat-*.md); printf 'mine\n' >> "$f1"
cp fp.db dr.db; printf "UPDATE sessions SET title = 'Other name' WHERE id = 'tools';
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('img', 'user', 'more', 1767700000.0);\n" > dr.sql; "$mkdb" dr.db dr.sql
expect_rc 1 "--dry-run" "$txc" export --to markdown --out od --db dr.db --dry-run
grep -q "^txc: would export $nfp sessions to od: 1 new, 1 updated, 1 unchanged (1 not re-rendered), some refused" err.txt && ok || bad "--dry-run summary: $(cat err.txt)"
grep -q "^refuse $f1$" out.txt && grep -q '^new    od/tools-other-name.md$' out.txt && grep -q '^remove od/tools-tools-quoted' out.txt &&
	grep -q '^update od/img-' out.txt && grep -q '^same   od/empty.md$' out.txt && ok || bad "--dry-run lines: $(cat out.txt)"
grep -q 'mine' "$f1" && sed -i '$d' "$f1" && diff -r od od.before > /dev/null && ok || bad "--dry-run wrote"
# a store in DIR under a session's name: refused, said, in a dry run too
cp fp.db od/empty.md
expect_rc 4 "--dry-run over the store" "$txc" export --to markdown --out od --db od/empty.md --dry-run
grep -q '^refuse empty.md$' out.txt && cmp -s od/empty.md fp.db && ok || bad "--dry-run over the store: $(cat out.txt err.txt)"
# ... and a store with the name of a temporary file is not taken for a stopped run's leftover
mv od/empty.md od/.txc-tmp-St0rE1 && mkfifo od/.txc-tmp-F1f0x2
expect_rc 0 "a store named like a temporary file" "$txc" export --to markdown --out od --db od/.txc-tmp-St0rE1
cmp -s od/.txc-tmp-St0rE1 fp.db && [ -p od/.txc-tmp-F1f0x2 ] && ok || bad "a store or a FIFO named like a temporary file was removed"
rm -f od/.txc-tmp-St0rE1 od/.txc-tmp-F1f0x2
# ... nor one named like the mark of a running export (found: a stopped run; never removed), nor a
# file of the user's of that name (txc's mark is empty)
cp fp.db od/.txc-running
expect_rc 0 "a store named like the mark" "$txc" export --to markdown --out od --db od/.txc-running
cmp -s od/.txc-running fp.db && ok || bad "a store named like the mark was removed"
printf 'my notes\n' > od/.txc-running && rm od/empty.md
expect_rc 0 "a file of the user's named like the mark" "$txc" export --to markdown --out od --db fp.db
[ "$(cat od/.txc-running)" = 'my notes' ] && [ -s od/empty.md ] && ok || bad "a file of the user's named like the mark was removed"
rm -f od/.txc-running

# ---- no session selected: DIR made, nothing written, said ----
rm -rf o0 && expect_rc 0 "no session selected" "$txc" export --to markdown --out o0 --title no-such-title --db fp.db --progress
[ -d o0 ] && [ "$(ls -A o0)" = "" ] && grep -q '^txc: exported 0 sessions to o0: 0 new, 0 updated, 0 unchanged' err.txt && ok || bad "no session: $(cat err.txt) $(ls -A o0)"

# ---- two formats in one DIR: each its own files, renames and index ----
rm -rf o2 && "$txc" export --to markdown --out o2 --db fp.db && "$txc" export --to html --out o2 --db fp.db
expect_rc 0 "html after a rename, markdown in the same DIR" "$txc" export --to html --out o2 --db dr.db
[ -e o2/tools-tools-quoted-and-a-second-line-b-bold-b.md ] && [ ! -e o2/tools-tools-quoted-and-a-second-line-b-bold-b.html ] && [ -e o2/tools-other-name.html ] && ok || bad "two formats: $(ls o2)"
! grep -q '\.md"' o2/index.html && grep -q 'tools-other-name.html' o2/index.html && ok || bad "the index lists other formats' files"
# an index.html txc did not write: kept, the run fails; a folder of that name too
rm -rf o3 && mkdir o3 && echo '<p>mine</p>' > o3/index.html
expect_rc 1 "an index.html of the user's" "$txc" export --to html --out o3 --db fp.db
[ "$(cat o3/index.html)" = '<p>mine</p>' ] && grep -q "'o3/index.html' exists and is not as txc wrote it" err.txt && ok || bad "user's index.html: $(cat err.txt)"
rm o3/index.html && mkdir o3/index.html
expect_rc 1 "a folder named index.html" "$txc" export --to html --out o3 --db fp.db --force
[ -d o3/index.html ] && grep -q "'o3/index.html' is not a regular file" err.txt && ok || bad "index.html folder: $(cat err.txt)"

# ---- a manifest entry that lost a fingerprint: that session rendered again, the others not ----
sed -i '/"session_id":"chat"/s/"render_key":"[0-9a-f]*",//' od/manifest.jsonl
expect_rc 0 "an entry without its render key" "$txc" export --to markdown --out od --db fp.db --progress
grep -q ": 0 new, 0 updated, $nfp unchanged ($((nfp - 1)) not re-rendered)" err.txt && grep -q '"session_id":"chat".*"render_key"' od/manifest.jsonl && ok || bad "render key lost: $(tail -1 err.txt)"
# an entry whose image list is wrong: --force renders, finds the same bytes, and puts the list right
sed -i '/"session_id":"img"/s/,"assets":\[[^]]*\]//' od/manifest.jsonl
expect_rc 0 "an entry without its images, --force" "$txc" export --to markdown --out od --db fp.db --force --progress
grep -q '"session_id":"img".*"assets":\[{"path":"img-unicode-title.md.assets/image-1.png","sha256":"[0-9a-f]\{64\}"}\]' od/manifest.jsonl && grep -q ": 0 new, 0 updated, $nfp unchanged" err.txt && ok || bad "images list: $(tail -1 err.txt)"

json_ok od/manifest.jsonl && ok || bad "the image list put right: the manifest is not JSON"
sed -i '/"session_id":"img"/s/\("assets":\[{"path":"[^"]*","sha256":"\)[0-9a-f]*/\1'"$(printf '%064d' 0)"'/' od/manifest.jsonl
expect_rc 0 "an entry with a wrong image hash, --force" "$txc" export --to markdown --out od --db fp.db --force
grep -q "\"sha256\":\"$(printf '%064d' 0)\"" od/manifest.jsonl && bad "the wrong image hash stayed" || ok

# ---- write errors of --install and -o as the data is flushed: said, nothing installed or written ----
if [ $native = 1 ] && command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	expect_rc 1 "-o: the write fails" inj write:error=ENOSPC 1 "$txc" convert t1 --to markdown --db ti.db -o wf.md
	grep -q "^txc: error: cannot write 'wf.md': No space left on device (nothing was written)$" err.txt && [ ! -e wf.md ] && ok || bad "-o write: $(cat err.txt)"
	export CLAUDE_CONFIG_DIR="$work/ccwf"
	expect_rc 1 "--install: the write fails" inj write:error=ENOSPC 1 "$txc" convert t1 --to claude --install --db ti.db
	grep -q "^txc: error: cannot write '$work/ccwf/projects/.*\.jsonl': No space left on device$" err.txt && [ "$(find ccwf -type f | wc -l)" = 0 ] && ok || bad "--install write: $(cat err.txt) $(find ccwf -type f)"
	export CLAUDE_CONFIG_DIR="$work/claude"
	[ "$(ls -a | grep -c '^\.txc-tmp-')" = 0 ] && ok || bad "a failed write left a temporary file"
else
	skip "write errors while flushing" "strace cannot trace here, or txc runs in a wrapper"
fi

# ---- a DIR txc cannot open (another user's): said, nothing written ----
if [ "$(id -u)" = 0 ] && [ $native = 1 ] && command -v setpriv > /dev/null; then
	nd=$(mktemp -d /tmp/txc-files-XXXXXX) && chmod 755 "$nd" && cp fp.db "$nd/fp.db" && chmod 644 "$nd/fp.db" && mkdir "$nd/out" && chmod 333 "$nd/out"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$txc" export --to markdown --out "$nd/out" --db "$nd/fp.db" > out.txt 2> err.txt; rc=$?
	grep -v '^profiling:.*gcda' err.txt > err2.txt; mv err2.txt err.txt # a coverage build's counters
	[ $rc = 1 ] && grep -q "^txc: error: cannot open '$nd/out': Permission denied$" err.txt && [ "$(ls -A "$nd/out")" = "" ] && ok "a DIR that cannot be opened" || bad "a DIR that cannot be opened: exit $rc, $(cat err.txt)"
	# --dry-run over a DIR its user can search but not list: what is up to date is still known unchanged
	mkdir "$nd/rd" && chown 65534:65534 "$nd/rd" && setpriv --reuid=65534 --regid=65534 --clear-groups "$txc" export --to markdown --out "$nd/rd" --db "$nd/fp.db" 2> /dev/null && chmod 311 "$nd/rd"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$txc" export --to markdown --out "$nd/rd" --db "$nd/fp.db" --dry-run --progress > out.txt 2> err.txt; rc=$?
	[ $rc = 0 ] && [ "$(grep -c '^same ' out.txt)" = "$nfp" ] && grep -q ": 0 new, 0 updated, $nfp unchanged ($nfp not re-rendered)" err.txt && ok "--dry-run over a DIR that cannot be listed" || bad "--dry-run over a DIR that cannot be listed: exit $rc, $(tail -1 err.txt)"
	rm -rf "$nd"
else
	skip "a DIR that cannot be opened" "not root, no setpriv, or txc runs in a wrapper (its log is root's)"
fi

# ---- convert -o with images: the same image is left alone, another one is refused ----
expect_rc 0 "convert with an image" "$txc" convert img --to markdown --db fp.db -o im.md
isum=$(sum im.md.assets/image-1.png); touch -d @1 im.md.assets/image-1.png; rm im.md
expect_rc 0 "convert again, the image there" "$txc" convert img --to markdown --db fp.db -o im.md
[ -s im.md ] && [ "$(stat -c %Y im.md.assets/image-1.png)" = 1 ] && ok || bad "the same image was rewritten"
for how in longer shorter; do
	rm im.md; cp im.md.assets/image-1.png im.keep
	if [ $how = longer ]; then printf 'x' >> im.md.assets/image-1.png; else truncate -s -1 im.md.assets/image-1.png; fi
	csum=$(sum im.md.assets/image-1.png)
	expect_rc 1 "convert over a $how image" "$txc" convert img --to markdown --db fp.db -o im.md
	[ "$(sum im.md.assets/image-1.png)" = "$csum" ] && grep -q "'im.md.assets/image-1.png' already exists; pass --force" err.txt && ok || bad "$how image: $(cat err.txt)"
	mv im.keep im.md.assets/image-1.png; "$txc" convert img --to markdown --db fp.db -o im.md
done
[ "$(sum im.md.assets/image-1.png)" = "$isum" ] && ok || bad "the image was not restored"

# ---- a renamed session's old name now holds the store being read: kept, only the entry goes ----
rm -rf os && "$txc" export --to markdown --out os --db fp.db && cp fp.db os/kept.db && ksum=$(sum os/kept.db)
printf '{"session_id":"tools","path":"kept.db","format":"markdown","bytes":1,"sha256":"%s"}\n' "$ksum" >> os/manifest.jsonl
expect_rc 0 "an old name that is the store" "$txc" export --to markdown --out os --db os/kept.db
[ "$(sum os/kept.db)" = "$ksum" ] && ! grep -q '"path":"kept.db"' os/manifest.jsonl && ok || bad "the store at an old name was removed or kept in the manifest"
# a dangling symbolic link as the manifest: replaced by the manifest, its target not made
rm os/manifest.jsonl && ln -s "$work/no-manifest" os/manifest.jsonl
expect_rc 0 "a dangling manifest link" "$txc" export --to markdown --out os --db fp.db
[ -f os/manifest.jsonl ] && [ ! -L os/manifest.jsonl ] && [ ! -e no-manifest ] && [ "$(wc -l < os/manifest.jsonl)" = "$nfp" ] && ok || bad "dangling manifest link"

# ---- on a terminal: the progress bar ends its line before a session's warning ----
if command -v script > /dev/null && script -qec true /dev/null > /dev/null 2>&1; then
	rm -rf tt && "$txc" export --to markdown --out tt --db fp.db && printf 'mine\n' >> tt/chat-日本語-quotes-cafe.md
	NO_COLOR=1 script -qec "'$txc' export --to markdown --out tt --db fp.db" /dev/null > tty.txt 2>&1; rc=$?
	tr -d '\r' < tty.txt > tty2.txt
	[ $rc = 1 ] && grep -q "^\[#*  *\] 1/$nfp sessions  " tty2.txt && grep -q "^txc: warning: 'tt/chat-日本語-quotes-cafe.md' exists and is not as txc wrote it" tty2.txt &&
		grep -q "\] $nfp/$nfp sessions  [0-9.]*/s$" tty2.txt && ok "the progress bar on a terminal" || bad "progress bar: exit $rc, $(cat -A tty.txt | head -5)"
	# a transcript's tab reaches the terminal as a tab; its escape sequence does not
	printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT);
INSERT INTO sessions VALUES('tab', 'cli', 1.0, 'tab');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 'tab', 'user', 'a' || char(9) || 'b' || char(27) || '[31mred', 1.5);" > tab.sql
	"$mkdb" tab.db tab.sql || exit 1
	NO_COLOR=1 script -qec "'$txc' convert tab --to markdown --db tab.db" /dev/null > tty.txt 2>&1
	grep -q "a$(printf '\t')b.*red" tty.txt && ! grep -q "$(printf '\033')" tty.txt && ok "a tab on a terminal" || bad "a tab on a terminal: $(cat -A tty.txt | grep red)"
else
	skip "the progress bar on a terminal" "no script(1)"
fi

# ---- the index page: newest first, the same start by file name, sessions without a start last ----
printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT);
INSERT INTO sessions VALUES('b', 'cli', 1767600000.0, 'same start'), ('a', 'cli', 1767600000.0, 'same start'),
 ('z', 'cli', 0, 'no start'), ('n', 'cli', 1767700000.0, 'newest');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 'a', 'user', 'x', 1.5), (2, 'b', 'user', 'x', 1.5), (3, 'z', 'user', 'x', 1.5), (4, 'n', 'user', 'x', 1.5);" > ord.sql
"$mkdb" ord.db ord.sql || exit 1
rm -rf oi && expect_rc 0 "html index order" "$txc" export --to html --out oi --db ord.db
[ "$(grep -o 'href="./[a-z]-[a-z-]*\.html"' oi/index.html | tr '\n' ' ')" = 'href="./n-newest.html" href="./a-same-start.html" href="./b-same-start.html" href="./z-no-start.html" ' ] && ok || bad "index order: $(grep -o 'href="[^"]*"' oi/index.html | tr '\n' ' ')"
! grep -q '"session_id":"z".*"started"' oi/manifest.jsonl && grep -q '"session_id":"n".*"started":"2026-01-06' oi/manifest.jsonl && ok || bad "index facts: a start of 0 recorded, or none"

# ---- a DIR, a profile's folder or a big file the system refuses: said; the rest is written ----
if command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	rm -rf ol && mkdir ol
	expect_rc 1 "DIR cannot be opened" env "$nolsan" strace -f -o /dev/null -P ol -e trace=openat -e inject=openat:error=EACCES "$txc" export --to markdown --out ol --db fp.db
	grep -q "^txc: error: cannot open 'ol': Permission denied$" err.txt && [ "$(ls -A ol)" = "" ] && ok || bad "DIR cannot be opened: $(cat err.txt)"
	rm -rf jq; expect_rc 1 "a profile's folder cannot be made" env "$nolsan" strace -f -o /dev/null -P jq/work -e trace=mkdir -e inject=mkdir:error=ENOSPC "$txc" export --to markdown --out jq --all-profiles --home hp/.hermes
	[ "$(grep -c "^txc: error: cannot create folder 'jq/work': No space left on device$" err.txt)" = "$nfp" ] && [ ! -e jq/work ] && [ "$(ls jq/default/*.md | wc -l)" = "$nfp" ] && ok || bad "profile folder: $(cat err.txt)"
	[ "$(wc -l < jq/manifest.jsonl)" = "$nfp" ] && ! grep -q '"path":"work/' jq/manifest.jsonl && ok || bad "profile folder: the manifest lists what was not written"
else
	skip "a DIR or folder the system refuses" "strace cannot trace here"
fi
if [ $native = 1 ] && command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	printf "CREATE TABLE sessions(id TEXT, source TEXT, started_at REAL, title TEXT);
INSERT INTO sessions VALUES('big', 'cli', 1.0, 'big');
CREATE TABLE messages(id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO messages VALUES(1, 'big', 'user', printf('%%.30000c', 'x'), 1.5);" > bigw.sql
	"$mkdb" bigw.db bigw.sql || exit 1
	rm -rf wb; expect_rc 1 "bulk: a big file's write fails" inj write:error=ENOSPC 1 "$txc" export --to markdown --out wb --db bigw.db
	grep -q "^txc: error: cannot write 'wb/big-big.md': No space left on device$" err.txt && [ "$(ls -A wb)" = "" ] && ok || bad "big write: $(cat err.txt) $(ls -A wb)"
else
	skip "a big file's write fails" "strace cannot trace here, or txc runs in a wrapper"
fi

# ---- an image folder the system refuses: that session fails (its document not written), the rest lands;
#      one that cannot be listed keeps a stopped run's leftover until a run can ----
if command -v strace > /dev/null && strace -f -o /dev/null -e trace=none true 2> /dev/null; then
	rm -rf kb; expect_rc 1 "an image folder cannot be made" env "$nolsan" strace -f -o /dev/null -P kb/img-unicode-title.md.assets -e trace=mkdir -e inject=mkdir:error=ENOSPC "$txc" export --to markdown --out kb --db fp.db
	grep -q "^txc: error: cannot create folder 'kb/img-unicode-title.md.assets': No space left on device$" err.txt && [ ! -e kb/img-unicode-title.md ] && [ "$(ls kb/*.md | wc -l)" = $((nfp - 1)) ] && ok || bad "image folder: $(cat err.txt) $(ls kb)"
	! grep -q '"session_id":"img"' kb/manifest.jsonl && ok || bad "image folder: the failed session is in the manifest"
	expect_rc 0 "then it can" "$txc" export --to markdown --out kb --db fp.db
	# (what a run stopped by kill -9 leaves: a temporary file, and DIR marked as being written)
	[ -s kb/img-unicode-title.md.assets/image-1.png ] && : > kb/img-unicode-title.md.assets/.txc-tmp-AbCdEf && : > kb/.txc-running && ok || bad "image folder: not written after"
	expect_rc 0 "an image folder that cannot be listed" env "$nolsan" strace -f -o /dev/null -P kb/img-unicode-title.md.assets -e trace=openat -e inject=openat:error=EACCES "$txc" export --to markdown --out kb --db fp.db
	[ -e kb/img-unicode-title.md.assets/.txc-tmp-AbCdEf ] && ok || bad "a folder that cannot be listed: its leftover went"
	[ -e kb/.txc-running ] && ok || bad "a folder that could not be listed: DIR no longer marked, its leftover would stay"
	expect_rc 0 "an image folder listed again" "$txc" export --to markdown --out kb --db fp.db
	[ ! -e kb/img-unicode-title.md.assets/.txc-tmp-AbCdEf ] && [ ! -e kb/.txc-running ] && ok || bad "the leftover or the mark stayed: $(ls -a kb | grep txc-)"
	# an unchanged re-run lists DIR, not each image folder (nothing says a run was stopped)
	strace -f -o st.txt -e trace=openat,open "$txc" export --to markdown --out kb --db fp.db 2> /dev/null
	! grep -q '\.assets' st.txt && grep -q 'O_DIRECTORY' st.txt && ok "an unchanged re-run opens no image folder" || bad "an unchanged re-run opened: $(grep -c '\.assets' st.txt) image folders"
else
	skip "an image folder the system refuses" "strace cannot trace here"
fi

# ---- the test hook TXC_TEST_KILL_AT stops a run only at the point and count it names ----
for k in bogus file:99 filex:1 fil:1 tmp:0; do
	rm -rf kh; expect_rc 0 "TXC_TEST_KILL_AT=$k" env TXC_TEST_KILL_AT=$k "$txc" export --to markdown --out kh --db fp.db
	[ "$(wc -l < kh/manifest.jsonl)" = "$nfp" ] && ok || bad "TXC_TEST_KILL_AT=$k: the run was cut short"
done

summary files
[ "$fails" = 0 ]
