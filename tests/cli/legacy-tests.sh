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
has "skipped 1 malformed lines of .*20250303_120000_cccc33.jsonl" err.txt "a truncated last line is a warning"
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

# ---- the secret appears nowhere ----
if grep -rl -- "$secret" all > secret-hits.txt; then bad "the planted secret appeared in: $(cat secret-hits.txt)"
else ok "the planted secret appears in no output and no stderr ($n_run commands)"; fi
if grep -rl -- "$secret" ex "$golden" > secret-hits.txt; then bad "the secret is in a file: $(cat secret-hits.txt)"
else ok "the planted secret is in no written file"; fi
summary legacy
[ "$fails" = 0 ]
