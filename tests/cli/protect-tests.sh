#!/bin/sh
# (issue 27) Hermes's data is never an output, whatever the run reads and however the path is
# spelled: every state.db (-wal, -shm, -journal) of the home and of its profiles, everything
# under sessions/, any SQLite database; an image folder that is a symbolic link is not written
# through; export --out DIR into Hermes's home by links.
# usage: protect-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
umask 022

# The default home (~/.hermes of a HOME of the test's own), with a profile, a WAL and legacy files
export HOME="$work/me"
unset HERMES_HOME CLAUDE_CONFIG_DIR
H=$HOME/.hermes
mkdir -p "$H/profiles/work" "$H/profiles/.old" "$H/sessions" || exit 1
"$mkdb" "$H/state.db" "$src/fixtures/features.sql" && "$mkdb" "$H/profiles/work/state.db" "$src/fixtures/features.sql" || exit 1
"$mkdb" "$H/profiles/.old/state.db" "$src/fixtures/features.sql" || exit 1
# a -wal as SQLite begins one (its magic number): WAL-only sessions would be lost with it
printf '\067\177\006\202\000\055\342\030wal frames' > "$H/state.db-wal"
printf '{"role": "user", "content": "legacy transcript"}\n' > "$H/sessions/20250301_101500_aaaa11.jsonl"
"$txc" export --json --db "$H/state.db" > in.jsonl || exit 1
cp "$H/state.db" other.db # an SQLite database nobody reads in this run
# a Claude Code session to read (--from claude)
export CLAUDE_CONFIG_DIR="$work/cc"
"$txc" convert tools --to claude --install --db other.db > out.txt || exit 1
uuid=$(sed -n 's/^installed .*\/\([^/]*\)\.jsonl$/\1/p' out.txt)
[ -n "$uuid" ] || exit 1
snap() { find "$H" "$work/other.db" | sort | while read -r f; do
	if [ -f "$f" ]; then echo "$f $(stat -c %i "$f") $(sha256sum < "$f")"; else echo "$f $(stat -c %F "$f")"; fi
done; }
snap > "$work/home.before"

refused() { # desc target: the last command was refused with exit 4, one line that names the target, no --force hint
	# (both stores hold the fixture's sessions: the bot-copy warning of the root store's copy is not the refusal)
	grep -v "^txc: warning: session .* is in profile .*'s store too" err.txt > err1.txt; mv err1.txt err.txt
	[ "$rc" = 4 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q "^txc: error: refusing to write" err.txt &&
		! grep -q -- '--force' err.txt && ok "$1: refused in one line" || bad "$1: exit $rc: $(cat err.txt)"
}
unchanged() { # desc
	snap > "$work/home.after"
	cmp -s "$work/home.before" "$work/home.after" && ok "$1: Hermes's home unchanged" || { bad "$1: the home changed: $(diff "$work/home.before" "$work/home.after" | head -5)"; snap > "$work/home.before"; }
}
envs= # NAME=VALUE ... for the next try
try() { # desc txc-args...: run, expect exit 4 with and without --force, the home unchanged
	d=$1; shift
	for fl in "" --force; do
		env $envs "$txc" "$@" $fl > out.txt 2> err.txt; rc=$?
		refused "$d $fl"
	done
	envs=
	unchanged "$d"
}
try_bulk() { # desc file txc-args...: a bulk run that refuses file (exit 4, said), with and without --force
	d=$1 file=$2; shift 2
	for fl in "" --force; do
		"$txc" "$@" $fl > out.txt 2> err.txt; rc=$?
		[ $rc = 4 ] && grep -q "^txc: error: refusing to write '$file': " err.txt && ok "$d $fl: refused" || bad "$d $fl: exit $rc: $(cat err.txt)"
	done
	unchanged "$d"
}

# ---- 1. the root store, its -wal/-shm/-journal, another profile's store: not read by this run ----
ln -s .hermes/state.db "$HOME/link.db"; ln "$H/state.db" "$HOME/hard.db"; ln -s .hermes "$HOME/hlink"
mkdir -p "$HOME/sub"
cd "$HOME" || exit 1
for read in "--home .hermes --profile work" "--input $work/in.jsonl" "--profile work" "--db $H/profiles/work/state.db" "--from claude"; do
	conv=tools; [ "$read" = "--from claude" ] && conv=$uuid
	for target in .hermes/state.db "$H/state.db" link.db hard.db sub/../.hermes/state.db ./.hermes/./state.db \
		hlink/state.db .hermes//state.db .hermes/profiles/../state.db .hermes/state.db-wal hlink/state.db-wal \
		.hermes/state.db-shm .hermes/state.db-journal .hermes/state.db-journal/ "$H/state.db-shm//" \
		.hermes/profiles/.old/state.db .hermes/profiles/.old/state.db-wal; do
		try "$read -o $target" convert $conv --to hermes $read -o "$target"
	done
done
# the profile's own store and the root's, while the root is read
try "--home -o the profile's store" convert tools --to hermes --home .hermes -o .hermes/profiles/work/state.db
try "-o the profile's -wal" convert tools --to hermes --input "$work/in.jsonl" -o .hermes/profiles/work/state.db-wal
# HERMES_HOME names the home (HOME elsewhere), and --db of a profile's store names its home
envs="HOME=/nonexistent HERMES_HOME=$H"; try "HERMES_HOME: -o its store" convert tools --to hermes --input "$work/in.jsonl" -o "$H/state.db"
envs=HOME=/nonexistent; try "--db of a profile: -o the root store" convert tools --to hermes --db "$H/profiles/work/state.db" -o "$H/state.db"
envs=HOME=/nonexistent; try "--db of the root: -o a profile's store" convert tools --to hermes --db "$H/state.db" -o "$H/profiles/work/state.db-journal"
# through /proc/self/fd: the home's folder or the store open on a descriptor txc inherits
if [ -d /proc/self/fd ]; then
	exec 7< "$H" 8< "$H/state.db"
	try "-o /proc/self/fd/7/state.db" convert tools --to hermes --input "$work/in.jsonl" -o /proc/self/fd/7/state.db
	try "-o /proc/self/fd/7/state.db-shm" convert tools --to hermes --input "$work/in.jsonl" -o /proc/self/fd/7/state.db-shm
	try "-o /proc/self/fd/8" convert tools --to hermes --input "$work/in.jsonl" -o /proc/self/fd/8
	try "-o /proc/self/fd/7/sessions/new.jsonl" convert tools --to hermes --input "$work/in.jsonl" -o /proc/self/fd/7/sessions/new.jsonl
	exec 7<&- 8<&-
else
	skip "-o /proc/self/fd/N" "no /proc"
fi
# a bind mount of the home: another name, the same folder (device and inode)
if unshare -m true 2> /dev/null; then
	mkdir -p "$work/bind"
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && for f in "" --force; do "$@" $f; echo "rc=$?"; done' sh "$H" "$work/bind" \
		"$txc" convert tools --to hermes --input "$work/in.jsonl" -o "$work/bind/state.db-shm" > out.txt 2> err.txt
	[ "$(grep -c '^rc=4$' out.txt)" = 2 ] && [ "$(grep -c "^txc: error: refusing to write '$work/bind/state.db-shm'" err.txt)" = 2 ] && ok "a bind mount of the home: -o its store's -shm refused" || bad "bind mount: $(cat out.txt err.txt)"
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && "$@"; echo "rc=$?"' sh "$H/sessions" "$work/bind" \
		"$txc" export --to markdown --input "$work/in.jsonl" --out "$work/bind/x" > out.txt 2> err.txt
	grep -q '^rc=4$' out.txt && grep -q "refusing to write '$work/bind/x.*': it is in Hermes's '.*sessions'" err.txt && ok "a bind mount of sessions/: --out under it refused" || bad "bind mount of sessions: $(cat out.txt err.txt)"
	unchanged "bind mounts"
else
	skip "a bind mount of the home" "unshare -m is not allowed here"
fi

# ---- 2. everything under sessions/, without --legacy ----
ln -s .hermes/sessions "$HOME/slink"
for target in .hermes/sessions/20250301_101500_aaaa11.jsonl slink/20250301_101500_aaaa11.jsonl .hermes/sessions/new.jsonl \
	.hermes/sessions/sub/x.md ./.hermes/profiles/../sessions/n.md "$H/sessions/../sessions/m.md" .hermes/sessions .hermes/profiles/work/sessions/x.md; do
	try "-o $target" convert tools --to hermes --home .hermes -o "$target"
done
for out in .hermes/sessions slink .hermes/sessions/sub "$H/sessions/" .hermes/profiles/work/sessions; do
	try "export --out $out" export --to markdown --input "$work/in.jsonl" --out "$out"
done
[ ! -e .hermes/sessions/sub ] && [ ! -e .hermes/profiles/work/sessions ] && ok "no folder made under or as sessions/" || bad "a folder was made: $(ls -a .hermes/sessions .hermes/profiles/work)"
# standard output opened on Hermes's files by the shell (>>)
for target in .hermes/state.db .hermes/sessions/20250301_101500_aaaa11.jsonl .hermes/profiles/work/state.db "$work/other.db"; do
	"$txc" convert tools --to hermes --input "$work/in.jsonl" >> "$target" 2> err.txt; rc=$?
	[ $rc = 4 ] && grep -q '^txc: error: refusing to write to standard output: ' err.txt && [ "$(wc -l < err.txt)" = 1 ] && ok ">> $target refused" || bad ">> $target: exit $rc: $(cat err.txt)"
done
unchanged ">> Hermes's files"

# ---- 3. any SQLite database, its -wal, -shm and -journal, wherever it is ----
cd "$work" || exit 1
ln -s other.db olink.db; ln other.db ohard.db
printf '\067\177\006\203\000\055\342\030' > lone.db-wal; printf '\331\325\005\371\040\241\143\327' > lone.db-journal
for target in other.db olink.db ohard.db ./other.db "$work/other.db" other.db-wal other.db-shm other.db-journal lone.db-wal lone.db-journal; do
	try "-o $target (an SQLite file)" convert tools --to hermes --input in.jsonl -o "$target"
done
"$txc" convert tools --to hermes --input in.jsonl -o other.db --force 2> err.txt
[ "$(cat err.txt)" = "txc: error: refusing to write 'other.db': it is an SQLite database" ] && ok "the refusal says why" || bad "SQLite refusal: $(cat err.txt)"
"$txc" convert tools --to hermes --input in.jsonl -o other.db-shm --force 2> err.txt
[ "$(cat err.txt)" = "txc: error: refusing to write 'other.db-shm': it is the shm of the SQLite database 'other.db'" ] && ok "the refusal of a -shm says why" || bad "-shm refusal: $(cat err.txt)"
[ "$(cat lone.db-journal | od -An -tx1 | tr -d ' \n')" = d9d505f920a163d7 ] && [ ! -e other.db-wal ] && ok "the SQLite files are untouched" || bad "an SQLite file changed"
# ... and over one in a bulk export's folder (a session's file name, by a hard or symbolic link)
"$txc" export --to markdown --input in.jsonl --out bo > /dev/null 2>&1 || bad "bulk export"
f=$(ls bo/tools-*.md); rm "$f" && ln "$H/state.db" "$f"
try_bulk "export --out: a session's file hard-linked to the store" "$f" export --to markdown --input in.jsonl --out bo
rm "$f" && ln -s "$H/profiles/work/state.db" "$f"
try_bulk "export --out: a session's file linked to a profile's store" "$f" export --to markdown --input in.jsonl --out bo
rm "$f"; ln -s "$H" bh; ln -s "$H/sessions" bs
try "export --out a link to sessions/" export --to markdown --input in.jsonl --out bs
try "export --out a folder of a link to sessions/" export --to markdown --input in.jsonl --out bs/new
# a DIR linked to the home: its files are not Hermes's, but a profile folder named sessions is
"$txc" export --to markdown --input in.jsonl --out bh/exports > /dev/null 2>&1 && [ -s bh/exports/manifest.jsonl ] && ok "an export into the home, not into its data: written" || bad "export into the home"
rm -rf "$H/exports"; snap > "$work/home.before"

# ---- 4. an image folder that is a symbolic link: never written through ----
mkdir -p elsewhere && ln -s elsewhere chat.md.assets && ln -s "$H/sessions" hs.md.assets
for f in "" --force; do
	expect_rc 4 "-o chat.md with chat.md.assets a link $f" "$txc" convert img --to markdown --images files --input in.jsonl -o chat.md $f
	[ "$(cat err.txt)" = "txc: error: refusing to write images into 'chat.md.assets': it is a symbolic link" ] && [ ! -e chat.md ] &&
		[ -z "$(ls -A elsewhere)" ] && ok || bad "assets link $f: $(cat err.txt; ls elsewhere)"
	expect_rc 4 "-o hs.md with its image folder a link to sessions/ $f" "$txc" convert img --to markdown --images files --input in.jsonl -o hs.md $f
done
unchanged "image folders that are links"
"$txc" export --to markdown --images files --input in.jsonl --out ba > /dev/null 2>&1 && a=$(ls -d ba/*.assets) && [ -n "$a" ] || bad "bulk with images"
rm -rf "$a" && ln -s ../elsewhere "$a" && rm "${a%.assets}"
for f in "" --force; do
	expect_rc 4 "export --out: an image folder that is a link $f" "$txc" export --to markdown --images files --input in.jsonl --out ba $f
	grep -q "^txc: error: refusing to write images into '$a': it is a symbolic link$" err.txt && [ -z "$(ls -A elsewhere)" ] && [ -L "$a" ] && ok || bad "bulk assets link $f: $(cat err.txt)"
done

# ---- 4b. Claude Code's sessions while a Hermes store is read: -o never replaces one, --force or not,
# by any name (the hostile pass of 2026-12-02 replaced one with exit 0); --install still writes there ----
cs=$(find "$work/cc/projects" -name "$uuid.jsonl") && [ -f "$cs" ] || exit 1
csum=$(sha256sum < "$cs")
ln -s "$(dirname "$cs")" cclink
for t in "$cs" "cclink/$uuid.jsonl"; do
	for f in "" --force; do
		expect_rc 4 "-o over a Claude Code session ($t), reading a Hermes store $f" "$txc" convert tools --to claude --db other.db -o "$t" $f
		refused "Claude session $t $f"
		[ "$(sha256sum < "$cs")" = "$csum" ] && ok "the Claude session unchanged" || bad "the Claude session was replaced"
	done
done
expect_rc 0 "--install over its own earlier install" "$txc" convert tools --to claude --install --db other.db
grep -q "^unchanged .*$uuid.jsonl$" out.txt && ok || bad "--install again: $(cat out.txt err.txt)"
rm -f cclink

# ---- 5. what is not Hermes's data is written as ever: the home's folder itself, a sibling ----
cd "$HOME" || exit 1
expect_rc 0 "-o a file beside the home's store" "$txc" convert tools --to markdown --input "$work/in.jsonl" -o .hermes/notes.md
expect_rc 0 "-o a file named like a store elsewhere" "$txc" convert tools --to hermes --input "$work/in.jsonl" -o sub/state.db
expect_rc 0 "-o a store's name, --force over a text file" "$txc" convert tools --to hermes --input "$work/in.jsonl" -o sub/state.db --force
rm -f .hermes/notes.md
unchanged "the end"

summary protect
