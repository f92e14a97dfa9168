#!/bin/sh
# Hermes's legacy session files ($HERMES_HOME/sessions/): list --legacy / --all-sources (the
# store's copy wins; --verbose says so), --json, convert / export / search through the model,
# goldens of every format, and safety: request_dump_* files are never read (a planted secret
# must appear in no output and no stderr of any command), hostile names, symbolic links, corrupt
# and truncated files, ids that try to leave the folder.
# usage: legacy-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR   (UPDATE=1 rewrites the goldens)
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
secret=sk-PLANTED-SECRET-d41d8cd9
golden=$src/golden/legacy
home=$work/home
mkdir -p "$home" all
cp -R "$src/fixtures/legacy/home/sessions" "$home/sessions" || exit 1
"$mkdb" "$home/state.db" "$src/fixtures/legacy/store.sql" || exit 1
# every command's stdout and stderr is kept, to look for the secret at the end
n_run=0
keep() { n_run=$((n_run + 1)); cp out.txt "$work/all/$n_run.out"; cp err.txt "$work/all/$n_run.err"; }
run() { # want desc cmd...
	expect_rc "$@"
	keep
}
has() { grep -q -- "$1" "$2" && ok "$3" || bad "$3 ($(head -c 300 "$2"))"; }
hasnt() { grep -q -- "$1" "$2" && bad "$3 ($(grep -- "$1" "$2" | head -c 300))" || ok "$3"; }

# ---- listing ----
run 0 "list hermes --legacy" "$txc" list hermes --legacy --home "$home"
for id in 20250301_101500_aaaa11 20250302_090000_bbbb22 20250303_120000_cccc33 shared_1; do
	has "^$id " out.txt "list --legacy shows $id"
done
[ "$(wc -l < out.txt)" = 6 ] && ok "list --legacy: a head and 5 sessions" || bad "list --legacy: $(cat out.txt)"
hasnt store_only_1 out.txt "list --legacy: not the store"
hasnt request_dump out.txt "list --legacy: no request dump"
has "Weather in Lisbon" out.txt "list --legacy: the title from sessions.json"
has "skipped 1 malformed line of .*20250303_120000_cccc33.jsonl" err.txt "a truncated last line is a warning"
run 0 "list --all-sources" "$txc" list --all-sources --home "$home"
has "^store_only_1 " out.txt "--all-sources: the store's sessions"
has "^20250302_090000_bbbb22 " out.txt "--all-sources: the legacy sessions"
[ "$(grep -c '^shared_1 ' out.txt)" = 1 ] && ok "--all-sources: a session in both is listed once" || bad "shared_1 twice"
has "Store copy" out.txt "--all-sources: the store's copy wins"
hasnt "shadow\|is in '" err.txt "--all-sources without --verbose: no note"
hasnt "^arch_1 " out.txt "--all-sources: a legacy copy of a session archived in the store stays hidden"
run 0 "list --all-sources --archived" "$txc" list --all-sources --archived --home "$home"
[ "$(grep -c '^arch_1 ' out.txt)" = 1 ] && ok "--archived: arch_1 once" || bad "--archived: $(cat out.txt)"
has "Archived store copy" out.txt "--archived: the store's copy of arch_1"
run 0 "convert arch_1 --all-sources" "$txc" convert arch_1 --all-sources --home "$home" --to markdown
has "ARCHIVED STORE COPY" out.txt "convert --all-sources: the store's archived copy, not the legacy one"
run 0 "convert by a prefix both sources have" "$txc" convert shared --all-sources --home "$home" --to markdown
has "STORE COPY" out.txt "a prefix of an id in both: the store's copy, not ambiguous"
run 0 "list --all-sources --verbose" "$txc" list --all-sources --home "$home" --verbose
has "session shared_1 is in '.*state.db' and in the legacy files of '.*sessions'; the store's is used" err.txt \
	"--verbose: one line per shadowed id"
run 0 "list --all-sources --json" "$txc" list --all-sources --home "$home" --json
json_ok out.txt && ok "list --json: strict JSON" || bad "list --json: invalid JSON"
[ "$(grep -c '"id":"shared_1"' out.txt)" = 1 ] && ok "list --json: shared_1 once" || bad "list --json: shared_1"
has '"id":"shared_1","source":"cli","model":"m-store"' out.txt "list --json: the store's row"
has '"id":"20250301_101500_aaaa11","source":"cli","model":"anthropic/claude-sonnet-4","system_prompt":"You are Hermes, a helpful agent.","started_at":1740824100.123456,"message_count":6' \
	out.txt "list --json: a snapshot as Hermes columns (ISO session_start as seconds)"
run 0 "list --legacy --json" "$txc" list --legacy --home "$home" --json
json_ok out.txt && ok "list --legacy --json: strict JSON" || bad "list --legacy --json: invalid"
has '"id":"shared_1","source":"cli","model":"m-legacy"' out.txt "list --legacy --json: the legacy row of shared_1"
run 0 "list --legacy --since" "$txc" list --legacy --home "$home" --since 2025-03-02 --until 2025-03-02T23:00
has "^20250302_090000_bbbb22 " out.txt "filters work on legacy sessions"
[ "$(wc -l < out.txt)" = 2 ] && ok "--since/--until: one session" || bad "--since: $(cat out.txt)"

# ---- convert: goldens of every format ----
cd / || exit 1 # a session without a cwd records the current directory: keep it fixed
for id in 20250301_101500_aaaa11 20250302_090000_bbbb22 20250303_120000_cccc33; do
	for f in markdown claude hermes; do
		ext=$f.out
		run 0 "convert $id --to $f" "$txc" convert "$id" --legacy --home "$home" --to "$f"
		[ "${UPDATE:-0}" = 1 ] && cp out.txt "$golden/$id.$ext"
		cmp -s out.txt "$golden/$id.$ext" && ok "golden $id.$ext" || bad "golden $id.$ext differs"
	done
done
cd "$work" || exit 1
"$jsoncheck" "$golden"/*.claude.out "$golden"/*.hermes.out && ok "goldens: claude and hermes outputs are strict JSON" ||
	bad "goldens: invalid JSON"
has '"role": "session_meta"' "$golden/20250302_090000_bbbb22.hermes.out" "hermes: the session_meta line is kept as a row"
has '"timestamp": 1740906001.5' "$golden/20250302_090000_bbbb22.hermes.out" "hermes: ISO timestamps as seconds"
has 'Lisbon weather' "$golden/20250302_090000_bbbb22.markdown.out" \
	"a snapshot and a transcript of one id: the transcript's messages (tool calls the snapshot lost)"
run 0 "convert by prefix" "$txc" convert 20250303 --legacy --home "$home" --to markdown
has "Deployed staging" out.txt "a unique prefix names a legacy session"
run 0 "convert shared_1 --all-sources" "$txc" convert shared_1 --all-sources --home "$home" --to markdown
has "STORE COPY" out.txt "convert --all-sources: the store's copy of a session in both"
hasnt "LEGACY COPY" out.txt "convert --all-sources: not the legacy copy"
run 0 "convert shared_1 --legacy" "$txc" convert shared_1 --legacy --home "$home" --to markdown
has "LEGACY COPY" out.txt "convert --legacy: the legacy copy"
run 0 "convert a legacy session with --all-sources" "$txc" convert 20250301_101500_aaaa11 --all-sources --home "$home" --to markdown
has "config.yaml sets port 8080" out.txt "--all-sources reaches legacy sessions"

# ---- export, search ----
run 0 "export --all-sources --out" "$txc" export --all-sources --home "$home" --out ex --to markdown
[ "$(ls ex | grep -c '\.md$')" = 6 ] && ok "export: 6 sessions (shared_1 and arch_1 once)" || bad "export: $(ls ex)"
grep -q "ARCHIVED STORE COPY" ex/arch_1-*.md && ok "export: the store's arch_1" || bad "export: arch_1"
grep -q "STORE COPY" ex/shared_1-*.md && ok "export: the store's shared_1" || bad "export: shared_1"
run 0 "export --legacy --json" "$txc" export --legacy --home "$home" --json
json_ok out.txt && ok "export --json: strict JSON lines" || bad "export --json: invalid"
[ "$(wc -l < out.txt)" = 5 ] && ok "export --json: 5 sessions" || bad "export --json: $(wc -l < out.txt) lines"
run 0 "search --legacy" "$txc" search Lisbon --legacy --home "$home"
has "20250302_090000_bbbb22#1 *user" out.txt "search finds legacy messages (a scan)"
run 0 "search --all-sources" "$txc" search COPY --all-sources --home "$home" --sessions
[ "$(grep -c '^shared_1' out.txt)" = 1 ] && ok "search --all-sources: shared_1 once" || bad "search: $(cat out.txt)"
run 0 "search --all-sources for the legacy copy's words" "$txc" search LEGACY --all-sources --home "$home"
[ -s out.txt ] && bad "search --all-sources searched a shadowed legacy copy" || ok "search --all-sources: not the shadowed copy"
run 0 "completions know the options" "$txc" completions bash
has "--all-sources" out.txt "bash completion: --all-sources"
run 0 "search --legacy: not the store" "$txc" search STORE --legacy --home "$home"
[ -s out.txt ] && bad "search --legacy found store rows" || ok "search --legacy: no store rows"

# ---- request dumps: never read, whatever a person names ----
for arg in request_dump_20250302_090000_bbbb22_1740906007 request_dump_shared_1 request_dump request_ \
	Request_Dump_20250301_101500_aaaa11 request_dump_x session_request_dump_x; do
	run 3 "convert '$arg'" "$txc" convert "$arg" --legacy --home "$home" --to hermes
done
run 0 "search the secret" "$txc" search "$secret" --all-sources --home "$home"
[ -s out.txt ] && bad "search found the secret" || ok "search: no hit in a request dump"
run 0 "search a word of the dump" "$txc" search PLANTED --legacy --home "$home"
[ -s out.txt ] && bad "search found a word of a request dump" || ok "search: no hit on a word of a request dump"

# ---- hostile folder: links, odd names, corrupt files, ids that leave the folder ----
h2=$work/hostile
mkdir -p "$h2/sessions" outside
cp "$home/sessions/"* "$h2/sessions/"
printf '{"session_id":"out1","messages":[{"role":"user","content":"OUTSIDE-%s"}]}' "$secret" > outside/o.json
ln -s "$work/outside/o.json" "$h2/sessions/session_out1.json"
ln -s "$work/outside/o.json" "$h2/sessions/out2.jsonl"
ln -s ../state.db "$h2/sessions/session_db1.json"
mkdir "$h2/sessions/dir1.jsonl" "$h2/sessions/session_1"
mkfifo "$h2/sessions/fifo1.jsonl" 2>/dev/null || true
printf '{"session_id": "broken1", "messages": [{"role": "user"' > "$h2/sessions/session_broken1.json"
printf '\0\0\0garbage' > "$h2/sessions/garbage1.jsonl"
printf '{"role":"user","content":"x"}\n' > "$h2/sessions/..jsonl"
for name in "$(printf 'evil\nname')" "$(printf 'esc\033[31m')" "-rf" ".hidden" "a b" "caf$(printf '\303\251')"; do
	printf '{"role":"user","content":"HOSTILE-NAME"}\n' > "$h2/sessions/$name.jsonl"
done
run 0 "list a hostile folder" "$txc" list --legacy --home "$h2"
hasnt "HOSTILE\|out1\|out2\|db1\|dir1\|fifo1\|evil\|esc\|hidden" out.txt "no link, folder, fifo or odd name is listed"
has "not read: symbolic links are not followed" err.txt "links and non-regular files are said, not read"
has "session_broken1.json' is not a Hermes session snapshot (invalid or truncated JSON); left out" err.txt \
	"a corrupt snapshot: a warning, left out"
has "^garbage1 " out.txt "a transcript with no good line is an empty session"
[ "$(grep -c 'txc: error' err.txt)" = 0 ] && ok "hostile listing: no error" || bad "hostile listing: $(cat err.txt)"
run 1 "convert a corrupt snapshot" "$txc" convert broken1 --legacy --home "$h2" --to markdown
one_line_err "corrupt snapshot"
for arg in out1 out2 db1 dir1 fifo1 ../state ../../etc/passwd "/etc/passwd" "$(printf 'evil\nname')"; do
	label=$(printf '%s' "$arg" | tr '\n' '?') # one TAP line
	run 3 "convert '$label' from a hostile folder" "$txc" convert "$arg" --legacy --home "$h2" --to markdown
done
hasnt "OUTSIDE" all/*.out "nothing outside the folder was read through a link"

# ---- options ----
run 2 "--legacy with --db" "$txc" list --legacy --db "$home/state.db"
one_line_err "--legacy --db"
run 2 "--all-sources with --input" "$txc" list --all-sources --input /dev/null
run 3 "--legacy, no sessions folder" "$txc" list --legacy --home "$work/nowhere"
run 0 "--all-sources, no state.db" "$txc" list --all-sources --home "$h2"
has "^20250302_090000_bbbb22 " out.txt "--all-sources without a store: the legacy files"
run 3 "--all-sources, neither" "$txc" list --all-sources --home "$work/nowhere"
one_line_err "--all-sources, neither"
run 0 "--all-sources, nothing at the default place" env HOME="$work/nowhere" HERMES_HOME= "$txc" list --all-sources
has "no legacy sessions folder at '.*nowhere/.hermes/sessions'" err.txt "nothing at the default place: a warning, exit 0 (as list)"
mkdir -p only-db && cp "$home/state.db" only-db/
run 0 "--all-sources, no sessions folder" "$txc" list --all-sources --home "$work/only-db"
has "^store_only_1 " out.txt "--all-sources without a sessions folder: the store"
run 0 "--help names --legacy" "$txc" list --help
has "--legacy" out.txt "list --help: --legacy"
has "--all-sources" out.txt "list --help: --all-sources"
run 0 "the store is never written" cmp "$home/state.db" "$work/only-db/state.db"

# ---- profiles: each profile's state.db and its own sessions/ folder ----
mkdir -p "$home/profiles/work/sessions"
cp "$work/only-db/state.db" "$home/profiles/work/state.db"
cp "$home/sessions/session_shared_1.json" "$home/profiles/work/sessions/"
printf '{"role": "user", "content": "work profile", "timestamp": "2025-03-12T08:00:00"}\n' > "$home/profiles/work/sessions/prof_1.jsonl"
run 0 "list --all-profiles --all-sources" "$txc" list --all-profiles --all-sources --home "$home" --verbose
has "^work  *prof_1 " out.txt "--all-profiles --all-sources: a profile's legacy files"
[ "$(grep -c ' shared_1 ' out.txt)" = 2 ] && ok "--all-profiles: shared_1 once per profile" || bad "profiles: $(cat out.txt)"
[ "$(grep -c 'session shared_1 is in' err.txt)" = 2 ] && ok "--verbose: said per profile" || bad "profiles: $(cat err.txt)"
run 0 "list --profile work --legacy" "$txc" list --profile work --legacy --home "$home"
has "^prof_1 " out.txt "--profile work --legacy: that profile's folder"
hasnt "20250302_090000_bbbb22" out.txt "--profile work --legacy: not the root's folder"

# ---- many shadowed ids: 20 lines, then a count ----
many=$work/many
mkdir -p "$many/sessions"
sed -n '/^CREATE TABLE/,/;$/p' "$src/fixtures/legacy/store.sql" > many.sql
i=0
while [ $i -lt 23 ]; do
	i=$((i + 1))
	echo "INSERT INTO sessions VALUES ('dup_$i', 'cli', 'm', $((1741000000 + i)), NULL, NULL, NULL, 0, NULL, NULL, 0);" >> many.sql
	printf '{"session_id": "dup_%s", "messages": []}' $i > "$many/sessions/session_dup_$i.json"
done
"$mkdb" "$many/state.db" many.sql || bad "many.sql"
run 0 "23 shadowed ids --verbose" "$txc" list --all-sources --home "$many" --verbose
[ "$(grep -c ' is in ' err.txt)" = 20 ] && ok "--verbose: 20 lines" || bad "--verbose: $(grep -c ' is in ' err.txt) lines"
has "and 3 more legacy sessions the store has too" err.txt "--verbose: then a count"
[ "$(grep -c '^dup_' out.txt)" = 23 ] && ok "23 sessions once each" || bad "many: $(cat out.txt)"

# ---- no output inside the legacy folder: an export's <id>.jsonl would be read as that id's transcript ----
ls "$home/sessions" > legacy-before.txt
ln -s "$home/sessions" sessions-link
run 4 "export --legacy --out the legacy folder" "$txc" export --legacy --home "$home" --to hermes --out "$home/sessions"
has "it is in '.*sessions', which txc is reading" err.txt "export --out the legacy folder: refused, said why"
run 4 "export --legacy --out a link to the legacy folder" "$txc" export --legacy --home "$home" --to markdown --out sessions-link -j 2
run 4 "convert --legacy -o a new <id>.jsonl there" "$txc" convert --legacy 20250301 --home "$home" --to hermes -o "$home/sessions/20250301_101500_aaaa11.jsonl"
run 4 "export --all-sources --out a folder under it" "$txc" export --all-sources --home "$home" --to markdown --out "$home/sessions/sub"
ls "$home/sessions" | cmp -s - legacy-before.txt && ok "the legacy folder gained no file" || bad "the legacy folder changed: $(ls "$home/sessions")"
run 0 "list --legacy after the refused exports" "$txc" list --legacy --home "$home"
has "^20250301_101500_aaaa11 .* 6 *$" out.txt "20250301_101500_aaaa11 keeps its 6 messages"

# ---- where the stores are: --all-profiles, --profile, HOME; a profile folder without a store ----
loc=$work/loc
mkdir -p "$loc/profiles/default" "$loc/profiles/work" "$loc/profiles/Bad"
cp "$work/only-db/state.db" "$loc/state.db"
cp "$work/only-db/state.db" "$loc/profiles/work/state.db"
run 0 "--all-profiles: profiles/default without a state.db" "$txc" list --all-profiles --home "$loc"
[ "$(grep -c '^default ' out.txt)" = 2 ] && [ "$(grep -c '^work ' out.txt)" = 2 ] && [ "$(wc -l < out.txt)" = 5 ] &&
	ok "--all-profiles: the root and work, no empty 'default' or invalid 'Bad'" || bad "--all-profiles: $(cat out.txt)"
[ -s err.txt ] && bad "--all-profiles: $(cat err.txt)" || ok "--all-profiles: a folder without a store is not said"
mkdir -p "$loc/sessions" "$loc/profiles/work/sessions"
printf '{"role": "user", "content": "root legacy"}\n' > "$loc/sessions/rootleg_1.jsonl"
printf '{"role": "user", "content": "work legacy"}\n' > "$loc/profiles/work/sessions/workleg_1.jsonl"
run 0 "--all-profiles --legacy" "$txc" list --all-profiles --legacy --home "$loc"
grep -q '^default  *rootleg_1 ' out.txt && grep -q '^work  *workleg_1 ' out.txt && [ "$(wc -l < out.txt)" = 3 ] && [ ! -s err.txt ] &&
	ok "--all-profiles --legacy: each profile's folder, not its store" || bad "--legacy: $(cat out.txt err.txt)"
rm -r "$loc/sessions" "$loc/profiles/work/sessions"
run 2 "--all-profiles --profile" "$txc" list --all-profiles --profile work --home "$loc"
[ "$(cat err.txt)" = "txc: error: --all-profiles cannot be combined with --db or --profile" ] && ok || bad "$(cat err.txt)"
run 2 "--all-profiles without HOME" env -u HOME HERMES_HOME= "$txc" list --all-profiles
[ "$(cat err.txt)" = "txc: error: cannot find the Hermes home: HOME is not set; use --home or --db" ] && [ ! -s out.txt ] &&
	ok || bad "$(cat err.txt)"
run 0 "--all-profiles from HERMES_HOME" env HOME=/nonexistent HERMES_HOME="$loc" "$txc" list --all-profiles
[ "$(wc -l < out.txt)" = 5 ] && ok "HERMES_HOME names the home" || bad "HERMES_HOME: $(cat out.txt; cat err.txt)"
run 3 "--all-profiles: an id in no profile" "$txc" convert nosuch --all-profiles --home "$loc" --to markdown
[ "$(cat err.txt)" = "txc: error: no session 'nosuch' in any profile (see 'txc list --all-profiles')" ] && ok || bad "$(cat err.txt)"
run 2 "--all-profiles: an id in two profiles" "$txc" convert shared --all-profiles --home "$loc" --to markdown
grep -q "^txc: error: 'shared' names sessions in 2 profiles; add --profile NAME:" err.txt &&
	grep -q '^  shared_1 (profile work)$' err.txt && [ ! -s out.txt ] && ok || bad "$(cat err.txt)"
mkdir -p "$work/junk"
echo "not a database" > "$work/junk/state.db"
cp "$work/junk/state.db" "$work/junk/state.before"
run 1 "--all-profiles: no store can be read" "$txc" list --all-profiles --home "$work/junk"
[ "$(sed -n 1p err.txt)" = "txc: warning: profile default left out: '$work/junk/state.db' is not a SQLite database (corrupt or not a Hermes store)" ] &&
	[ "$(sed -n 2p err.txt)" = "txc: error: no profile's store could be read (see above)" ] && [ ! -s out.txt ] && ok || bad "$(cat err.txt)"
cmp -s "$work/junk/state.db" "$work/junk/state.before" && ok "a store that is not one is not written" || bad "junk store changed"
run 1 "--db: not a database" "$txc" list --db "$work/junk/state.db"
[ "$(cat err.txt)" = "txc: error: '$work/junk/state.db' is not a SQLite database (corrupt or not a Hermes store)" ] && ok || bad "$(cat err.txt)"
run 3 "convert hermesx: a word that only starts like a source" "$txc" convert hermesx --home "$loc" --to markdown
[ "$(cat err.txt)" = "txc: error: no session 'hermesx' in '$loc/state.db' (see 'txc list')" ] && ok || bad "$(cat err.txt)"
run 0 "convert hermes:ID --from hermes" "$txc" convert hermes:shared_1 --from hermes --home "$loc" --to markdown
grep -q '^# Store copy$' out.txt && ok || bad "hermes:ID --from hermes: $(head -c 200 out.txt)"
run 2 "convert claude:ID --from hermes" "$txc" convert claude:x --from hermes --home "$loc" --to markdown
[ "$(cat err.txt)" = "txc: error: --from hermes, but the session is named from claude (see 'txc convert --help')" ] && ok || bad "$(cat err.txt)"
# --cwd: a trailing slash names the same folder; / names every session with a folder
run 0 "--cwd /repo" "$txc" list --home "$loc" --cwd /repo
cp out.txt cwd.txt
[ "$(wc -l < cwd.txt)" = 3 ] && ok "--cwd /repo: both sessions" || bad "--cwd /repo: $(cat cwd.txt)"
run 0 "--cwd /repo/" "$txc" list --home "$loc" --cwd /repo//
cmp -s out.txt cwd.txt && ok "--cwd /repo//: as /repo" || bad "--cwd /repo//: $(cat out.txt)"
run 0 "--cwd /" "$txc" list --home "$loc" --cwd /
cmp -s out.txt cwd.txt && ok "--cwd /: every session with a folder" || bad "--cwd /: $(cat out.txt)"
run 0 "--until today --utc" "$txc" list --home "$loc" --until today --utc
cmp -s out.txt cwd.txt && ok "--until today --utc: both (started in 2025)" || bad "--until today --utc: $(cat out.txt)"
run 0 "--since today --utc" "$txc" list --home "$loc" --since today --utc
[ ! -s out.txt ] && ok "--since today --utc: none" || bad "--since today: $(cat out.txt)"

# a prefix of two sessions in each of two profiles: the first profile's sessions named
run 2 "--all-profiles: a prefix of two sessions per profile" "$txc" convert s --all-profiles --home "$loc" --to markdown
[ "$(sed -n 1p err.txt)" = "txc: error: 's' is the prefix of 2 sessions; add characters: (profile default)" ] &&
	[ "$(wc -l < err.txt)" = 3 ] && [ ! -s out.txt ] && ok || bad "$(cat err.txt)"
# 61 profiles with the id: the count, then as many as a message holds (one line each)
mkdir -p "$work/mp/profiles"
cp "$loc/state.db" "$work/mp/"
for i in $(seq 10 69); do mkdir "$work/mp/profiles/p$i" && cp "$loc/state.db" "$work/mp/profiles/p$i/"; done
run 2 "--all-profiles: an id in 61 profiles" "$txc" convert shared --all-profiles --home "$work/mp" --to markdown
[ "$(sed -n 1p err.txt)" = "txc: error: 'shared' names sessions in 61 profiles; add --profile NAME:" ] &&
	[ "$(grep -c '^  shared_1 (profile p[0-9]*)$' err.txt)" -ge 30 ] && [ "$(wc -c < err.txt)" -le 1100 ] && ok || bad "$(head -c 300 err.txt)"
# --cwd relative to a current folder that was removed: taken from /
mkdir -p "$work/gone"
(cd "$work/gone" && rmdir "$work/gone" && "$txc" list --cwd repo --home "$loc" > "$work/out.txt" 2> "$work/err.txt")
# (a wrapper shell, such as memcheck's, may complain of the folder on stderr: only txc's lines count)
cmp -s out.txt cwd.txt && ! grep -q '^txc:' err.txt && ok "--cwd repo in a removed folder: /repo" ||
	bad "--cwd in a removed folder: $(cat out.txt err.txt)"
run 0 "--source of the same length, another name" "$txc" list --home "$loc" --source clx
[ ! -s out.txt ] && [ ! -s err.txt ] && ok "--source clx: none" || bad "--source clx: $(cat out.txt)"

# ---- 21 shadowed ids: 20 lines, then "1 more" (one, not ones) ----
mkdir -p "$work/many21/sessions"
sed '/dup_2[23]/d' many.sql > many21.sql
for i in $(seq 1 21); do cp "$many/sessions/session_dup_$i.json" "$work/many21/sessions/"; done
"$mkdb" "$work/many21/state.db" many21.sql || bad "many21.sql"
run 0 "21 shadowed ids --verbose" "$txc" list --all-sources --home "$work/many21" --verbose
[ "$(grep -c ' is in ' err.txt)" = 20 ] && [ "$(tail -n 1 err.txt)" = "txc: list: and 1 more legacy session the store has too" ] &&
	ok "--verbose: 20 lines, then '1 more legacy session'" || bad "--verbose: $(tail -n 2 err.txt)"
# a store without sessions shadows none of the legacy files
sed -n '/^CREATE TABLE/,/;$/p' "$src/fixtures/legacy/store.sql" > empty.sql
mkdir -p "$work/emptystore/sessions"
"$mkdb" "$work/emptystore/state.db" empty.sql || bad "empty.sql"
cp "$many/sessions/session_dup_1.json" "$work/emptystore/sessions/"
run 0 "--all-sources: an empty store" "$txc" list --all-sources --home "$work/emptystore" --verbose
grep -q '^dup_1 ' out.txt && [ "$(wc -l < out.txt)" = 2 ] && [ ! -s err.txt ] && ok "an empty store: the legacy session, no note" ||
	bad "empty store: $(cat out.txt err.txt)"

# ---- the secret appears nowhere ----
if grep -rl -- "$secret" all > secret-hits.txt; then bad "the planted secret appeared in: $(cat secret-hits.txt)"
else ok "the planted secret appears in no output and no stderr ($n_run commands)"; fi
if grep -rl -- "$secret" ex "$golden" > secret-hits.txt; then bad "the secret is in a file: $(cat secret-hits.txt)"
else ok "the planted secret is in no written file"; fi
summary legacy
[ "$fails" = 0 ]
