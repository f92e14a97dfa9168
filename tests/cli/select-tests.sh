#!/bin/sh
# Selection, profiles, prefixes, bulk export with its manifest, artifacts, colour, completions.
# usage: select-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
ids() { grep -v 'more not shown' out.txt | sed -n 's/^\([A-Za-z0-9_.-]*\) .*/\1/p' | grep -v '^ID$' | tr '\n' ' '; }
has() { case " $(ids) " in *" $1 "*) ok ;; *) bad "$2: $1 missing from: $(ids)" ;; esac; }
hasnt() { case " $(ids) " in *" $1 "*) bad "$2: $1 listed" ;; *) ok ;; esac; }

now=$(date +%s)
# sessions at exact instants (UTC): 2026-09-13T23:59:59Z, 2026-09-14T00:00:00Z, 2026-09-14T23:59:59Z,
# 2026-09-15T00:00:00Z, 2026-09-13T16:00:00Z; one an hour ago and one now
cat > sel.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL,
  message_count INTEGER DEFAULT 0, cwd TEXT, title TEXT, archived INTEGER NOT NULL DEFAULT 0, last_activity_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, active INTEGER NOT NULL DEFAULT 1);
INSERT INTO sessions VALUES ('s_before', 'cli', 'anthropic/claude-sonnet-4.5', 1789343999, 1, '/repo', 'Before midnight', 0, NULL);
INSERT INTO sessions VALUES ('s_midnight', 'telegram', 'gpt-5.1', 1789344000, 1, '/repo/sub', 'At midnight', 0, 1789500000);
INSERT INTO sessions VALUES ('s_late', 'cli', 'GPT-5.1-mini', 1789430399, 1, '/repository', 'Late NIGHT work', 0, NULL);
INSERT INTO sessions VALUES ('s_next', 'discord', 'deepseek-r1', 1789430400, 1, NULL, NULL, 0, NULL);
INSERT INTO sessions VALUES ('s_tokyo', 'cli', 'qwen', 1789315200, 1, '/home/u', 'Tokyo morning', 0, NULL);
INSERT INTO sessions VALUES ('s_hour', 'cli', 'qwen', $((now - 3600)), 1, '/', 'An hour ago', 0, NULL);
INSERT INTO sessions VALUES ('s_now', 'cli', 'qwen', $now, 1, '/', 'Right now', 0, NULL);
INSERT INTO sessions VALUES ('s_arch', 'cli', 'qwen', 1789344100, 1, '/', 'Archived one', 1, NULL);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s_midnight', 'user', 'hello', 1789344001);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s_before', 'user', 'hi', 1789344000);
SQL
"$mkdb" sel.db sel.sql || exit 1
L() { TZ=UTC "$txc" list --db sel.db "$@"; }

# --since / --until with dates, boundaries, --utc and a local time zone
expect_rc 0 "since date" L --since 2026-09-14 --utc; has s_midnight "since date"; hasnt s_before "since boundary"
expect_rc 0 "until date" L --until 2026-09-14 --utc; has s_late "until is through the day"; hasnt s_next "until boundary"
has s_before "until includes earlier"
expect_rc 0 "since local" env TZ=Asia/Tokyo "$txc" list --db sel.db --since 2026-09-14; has s_before "Tokyo day starts 15:00Z"
has s_tokyo "Tokyo 16:00Z is 01:00 local"
expect_rc 0 "since utc" env TZ=Asia/Tokyo "$txc" list --db sel.db --since 2026-09-14 --utc; hasnt s_tokyo "--utc ignores TZ"
expect_rc 0 "date-time Z" L --since 2026-09-14T00:00:00Z --until 2026-09-14T00:00:01Z; has s_midnight "Z window"; hasnt s_before "Z window"
expect_rc 0 "offset" L --since 2026-09-14T02:00+02:00 --until 2026-09-14T02:00:01+02:00; has s_midnight "+02:00 window"
expect_rc 0 "relative 2h" L --since 2h; has s_hour "2h"; has s_now "2h now"; hasnt s_midnight "2h old"
expect_rc 0 "relative 30m" L --since 30m; hasnt s_hour "30m"; has s_now "30m now"
expect_rc 0 "1w" L --since 1w; has s_hour "1w"
expect_rc 0 "today" L --since today; has s_now "today"; hasnt s_midnight "today"
expect_rc 0 "until yesterday" L --until yesterday; hasnt s_now "until yesterday"
expect_rc 2 "bad when" L --since 2026-13-01
expect_rc 2 "bad span" L --since 5y

# other filters, limit, order, archived
expect_rc 0 "source" L --source telegram; [ "$(ids)" = "s_midnight " ] && ok || bad "source: $(ids)"
expect_rc 0 "model icase" L --model gpt-5.1; has s_midnight model; has s_late "model any case"; hasnt s_before model
expect_rc 0 "cwd prefix" L --cwd /repo; has s_before cwd; has s_midnight "cwd below"; hasnt s_late "cwd /repository"
expect_rc 0 "cwd slash" L --cwd /repo/; has s_midnight "cwd trailing slash"
expect_rc 0 "title" L --title "late NIGHT"; [ "$(ids)" = "s_late " ] && ok || bad "title: $(ids)"
expect_rc 0 "limit" L --limit 2; [ "$(ids | wc -w)" = 2 ] && ok || bad "limit rows"
grep -q '^5 more not shown' out.txt && ok || bad "limit footer: $(tail -1 out.txt)"
expect_rc 0 "limit json" L --limit 2 --json; json_ok out.txt && ok || bad "limit json invalid"
grep -q 'more not shown' out.txt && bad "footer in --json" || ok
[ "$(grep -c '"id"' out.txt)" = 2 ] && ok || bad "json limit count"
expect_rc 0 "archived hidden" L; hasnt s_arch "archived hidden by default"
expect_rc 0 "archived" L --archived; has s_arch "--archived"
expect_rc 0 "order started" L --limit 1; [ "$(ids)" = "s_now " ] && ok || bad "order started: $(ids)"
expect_rc 0 "order recent" L --order recent --since 2026-09-13 --until 2026-09-15 --utc --limit 1
[ "$(ids)" = "s_midnight " ] && ok || bad "order recent: $(ids)"
expect_rc 2 "bad order" L --order newest
expect_rc 2 "convert option on list" L --to claude
expect_rc 0 "export filters" "$txc" export --json --db sel.db --source telegram; [ "$(wc -l < out.txt)" = 1 ] && ok || bad "export --source"
grep -q '"id": "s_midnight"' out.txt && ok || bad "export filtered session"

# prefixes and profiles
mkdir -p home/profiles/work home/profiles/.deleted home/profiles/Bad
cp sel.db home/state.db
"$mkdb" home/profiles/work/state.db "$src/fixtures/minimal.sql" || exit 1
cp sel.db home/profiles/.deleted/state.db
expect_rc 0 "prefix" "$txc" convert s_mid --to hermes --db sel.db; grep -q '"id": "s_midnight"' out.txt && ok || bad "prefix resolution"
expect_rc 2 "ambiguous prefix" "$txc" convert s_ --to hermes --db sel.db; grep -q 's_midnight' err.txt && ok || bad "candidates listed"
expect_rc 3 "no such session" "$txc" convert zzz --to hermes --db sel.db
expect_rc 0 "all-profiles" "$txc" list --home home --all-profiles
head -1 out.txt | grep -q '^PROFILE' && ok || bad "PROFILE column"
grep -q '^work ' out.txt && ok || bad "work profile listed"
grep -q '^default ' out.txt && ok || bad "default profile listed"
grep -q 'deleted\|^Bad' out.txt && bad "tombstoned or invalid profile listed" || ok
expect_rc 0 "all-profiles json" "$txc" list --home home --all-profiles --json; json_ok out.txt && ok || bad "json"
grep -q '"profile":"work"' out.txt && ok || bad "json profile key"
m1=$("$txc" list --json --db home/profiles/work/state.db | sed -n 's/^[[,]*{"id":"\([^"]*\)".*/\1/p' | head -1)
expect_rc 0 "resolve across profiles" "$txc" convert "$m1" --to hermes --home home --all-profiles
cp home/state.db home/profiles/work/state.db
expect_rc 2 "same id in two profiles" "$txc" convert s_now --to hermes --home home --all-profiles
grep -q 'profile work' err.txt && grep -q 'profile default' err.txt && ok || bad "ambiguity names profiles"
expect_rc 0 "--profile disambiguates" "$txc" convert s_now --to hermes --home home --profile work
expect_rc 2 "all-profiles with --db" "$txc" list --db sel.db --all-profiles

# bulk export: names, manifest, incremental re-run, refusal, --force, --dry-run
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1
expect_rc 0 "dry run" "$txc" export --to markdown --out dry --db feat.db --dry-run
[ ! -e dry ] && ok || bad "--dry-run wrote something"
grep -q '^new ' out.txt && ok || bad "--dry-run lists new files"
expect_rc 0 "bulk" "$txc" export --to markdown --out md --db feat.db --progress
n_files=$(ls md/*.md | wc -l); n_lines=$(wc -l < md/manifest.jsonl)
[ "$n_files" = "$n_lines" ] && [ "$n_files" -ge 3 ] && ok || bad "manifest lines $n_lines vs files $n_files"
json_ok md/manifest.jsonl && ok || bad "manifest is not JSON"
grep -q 'exported .* sessions to md: [0-9]* new, 0 updated, 0 unchanged' err.txt && ok || bad "summary: $(tail -1 err.txt)"
f=$(sed -n 's/.*"path":"\([^"]*\)".*"sha256":"\([0-9a-f]*\)".*/\1 \2/p' md/manifest.jsonl | head -1)
set -- $f
[ "$(sha256sum "md/$1" | cut -d' ' -f1)" = "$2" ] && ok || bad "manifest sha256 does not match $1"
grep -q '"session_id":"tools","path":"tools-tools-quoted-and-a-second-line-b-bold-b.md","format":"markdown","messages":[0-9]*,"bytes":[0-9]*,"sha256"' md/manifest.jsonl && ok || bad "manifest fields / slug: $(head -c 300 md/manifest.jsonl)"
[ -s md/img-*.md.assets/image-1.png ] && ok || bad "bulk markdown images not written beside"
cp md/manifest.jsonl manifest.first
sleep 0.01
expect_rc 0 "bulk again" "$txc" export --to markdown --out md --db feat.db --progress
cmp -s md/manifest.jsonl manifest.first && ok || bad "an unchanged run rewrote the manifest's entries"
grep -q ': 0 new, 0 updated, [0-9]* unchanged' err.txt && ok || bad "second run: $(tail -1 err.txt)"
cp feat.db feat2.db
sqlite3 feat2.db "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('tools', 'user', 'one more', 1767329999)" 2> /dev/null ||
	printf "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('tools', 'user', 'one more', 1767329999);\n" > more.sql
[ -f more.sql ] && "$mkdb" feat2.db more.sql
expect_rc 0 "bulk after change" "$txc" export --to markdown --out md --db feat2.db --progress
grep -q ': 0 new, 1 updated, ' err.txt && ok || bad "changed session not updated: $(tail -1 err.txt)"
grep -q 'one more' md/tools-*.md && ok || bad "updated file lacks the new message"
echo "my notes" >> md/empty.md
expect_rc 1 "edited file refused" "$txc" export --to markdown --out md --db feat2.db
grep -q 'my notes' md/empty.md && ok || bad "edited file overwritten"
grep -q 'pass --force' err.txt && ok || bad "refusal says --force"
expect_rc 0 "--force" "$txc" export --to markdown --out md --db feat2.db --force
grep -q 'my notes' md/empty.md && bad "--force did not overwrite" || ok
echo "stranger" > cl-existing.txt; mkdir -p cl; cp cl-existing.txt cl/tools-tools-quoted-and-a-second-line-b-bold-b.jsonl
expect_rc 1 "foreign file refused" "$txc" export --to claude --out cl --db feat.db
[ "$(cat cl/tools-tools-quoted-and-a-second-line-b-bold-b.jsonl)" = stranger ] && ok || bad "foreign file replaced"
# the refusal of one file does not stop the others: every other session is written, strict JSON, in the manifest
for s in chat-日本語-quotes-cafe img-unicode-title; do [ -s cl/$s.jsonl ] && "$jsoncheck" cl/$s.jsonl && grep -q "\"path\":\"$s.jsonl\"" cl/manifest.jsonl &&
	ok "claude bulk wrote $s" || bad "claude bulk file $s missing, not JSON or not in the manifest"; done
grep -q 'tools-tools' cl/manifest.jsonl && bad "the refused file is in the manifest" || ok "the refused file is not in the manifest"
export CLAUDE_CONFIG_DIR="$work/claude"
expect_rc 0 "bulk install" "$txc" export --to claude --install --db feat.db
[ "$(ls "$CLAUDE_CONFIG_DIR"/projects/*/*.jsonl | wc -l)" -ge 3 ] && ok || bad "bulk install count"
expect_rc 2 "install needs claude" "$txc" export --to markdown --install --db feat.db
expect_rc 2 "json and out" "$txc" export --json --to markdown --out x --db feat.db
expect_rc 2 "to without out" "$txc" export --to markdown --db feat.db
# hostile ids cannot leave DIR
"$mkdb" hostile.db "$src/fixtures/minimal.sql" || exit 1
printf "INSERT INTO sessions (id, source, started_at) VALUES ('../../escape', 'cli', 1);\nINSERT INTO sessions (id, source, started_at) VALUES ('/abs/x', 'cli', 2);\n" > h.sql
"$mkdb" hostile.db h.sql 2> /dev/null
expect_rc 0 "hostile ids" "$txc" export --to hermes --out hx --db hostile.db
[ ! -e escape.jsonl ] && [ ! -e ../escape.jsonl ] && [ -z "$(find hx -mindepth 2)" ] && [ "$(find hx -type f | wc -l)" = 5 ] &&
	[ -z "$(find "$work" -newer hostile.db -name '*escape*' ! -path "$work/hx/*")" ] && ok "hostile ids stay in DIR" || bad "a hostile id escaped: $(find hx)"
ls hx | grep -q '^_\._\.\._escape_' && ok || bad "hostile id not made safe: $(ls hx)"

# artifacts: every rule, --check with a symlink and a missing file
mkdir -p art && : > art/real.png && ln -s "$work/art/real.png" art/link.png
cat > art.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('art', 'cli', 1, '$work/art');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('art', 'user', 'ignore /user/said.png', 2);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('art', 'assistant',
 'Done: MEDIA:"/out/quoted file.mp3" and MEDIA: /out/bare.wav. ![plot](/tmp/plot.png) [report](./report.pdf) [site](about.html)
See https://example.com/page?q=1) and $work/art/link.png and ./notes.txt, also C:\\work\\a.docx or /etc/passwd.
Not a dump: /home/u/.hermes/sessions/request_dump_x_1.json', 3);
INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES
 ('art', 'tool', '{"saved_to": "/out/saved.csv", "files_created": ["a/b.txt", "c.json"], "path": "/weak/ignored.png"}', 'c1', 'terminal', 4),
 ('art', 'tool', '{"path": "/gen/image.png", "note": "MEDIA:/gen/tagged.png"}', 'c2', 'image_generate', 5),
 ('art', 'tool', 'Took it.
Screenshot path: $work/art/missing.png', 'c3', 'browser_vision', 6),
 ('art', 'tool', '<untrusted_tool_result source="web">
wrapped

{"output_path": "/wrapped/out.zip"}', 'c4', 'web_extract', 7),
 ('art', 'tool', 'MEDIA:/not/a/producer.png', 'c5', 'terminal', 8),
 ('art', 'tool', '{"_multimodal": true, "content": [], "meta": {"screenshot_path": "/mm/shot.webp"}}', 'c6', 'browser_snapshot', 9);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('art', 'assistant', 'On the share: \\\\server\\docs\\plan.pdf ok', 10);
SQL
"$mkdb" art.db art.sql || exit 1
expect_rc 0 "artifacts" "$txc" artifacts art --db art.db --json
json_ok out.txt && ok || bad "artifacts json"
for v in '/out/quoted file.mp3' /out/bare.wav /tmp/plot.png ./report.pdf 'https://example.com/page?q=1' \
	"$work/art/link.png" ./notes.txt 'C:\\\\work\\\\a.docx' /out/saved.csv a/b.txt c.json /gen/image.png /gen/tagged.png \
	"$work/art/missing.png" /wrapped/out.zip /mm/shot.webp '\\\\\\\\server\\\\docs\\\\plan.pdf'; do
	grep -q "\"value\":\"$v\"" out.txt && ok || bad "artifact $v missing"
done
for v in /user/said.png about.html /etc/passwd request_dump /weak/ignored.png /not/a/producer.png; do
	grep -q "$v" out.txt && bad "artifact $v should not be listed" || ok
done
grep -q '"value":"/tmp/plot.png","message":2,"row_id":2,"role":"assistant","tool":null,"rule":"markdown-image"' out.txt && ok || bad "artifact fields"
grep -q '"kind":"link","value":"https' out.txt && grep -q '"kind":"image","value":"/tmp/plot.png"' out.txt &&
	grep -q '"kind":"file","value":"/out/saved.csv"' out.txt && ok || bad "artifact kinds"
expect_rc 0 "artifacts --check" "$txc" artifacts art --db art.db --json --check
grep -q "\"value\":\"$work/art/link.png\",.*\"exists\":true,\"path\":\"$work/art/real.png\",\"type\":\"file\",\"size\":0" out.txt && ok || bad "--check resolves the symlink"
grep -q "\"value\":\"$work/art/missing.png\",.*\"exists\":false" out.txt && ok || bad "--check missing file"
grep -q '"value":"https://example.com/page?q=1",.*"exists":null' out.txt && ok || bad "--check leaves URLs alone"
# the message number from 1, as search and ID#N count (a blank row keeps its number), in JSON and table alike
cat > artn.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, model TEXT, started_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('artn', 'cli', 'm', 1);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('artn', 'user', 'draw', 1), ('artn', 'assistant', '', 2),
 ('artn', 'assistant', 'Saved MEDIA:/out/zebra.png for you', 3);
SQL
"$mkdb" artn.db artn.sql || exit 1
"$txc" search zebra --db artn.db > s.txt 2>&1; "$txc" artifacts artn --db artn.db --json > a.json 2>&1; "$txc" artifacts artn --db artn.db --color never > a.txt 2>&1
grep -q 'artn#3' s.txt && grep -q '"value":"/out/zebra.png","message":3,' a.json && grep -q '^image #3 .*/out/zebra.png$' a.txt &&
	ok "artifacts number messages as search does" || bad "artifacts numbers: $(cat s.txt a.json a.txt)"
expect_rc 0 "artifacts table" "$txc" artifacts art --db art.db --check --color never
grep -q 'missing' out.txt && grep -q 'ok (file, 0 bytes)' out.txt && ok || bad "table --check"

# colour
expect_rc 0 "color always" L --color always; grep -q "$(printf '\033')\[" out.txt && ok || bad "--color always has no SGR"
expect_rc 0 "color auto pipe" L; grep -q "$(printf '\033')" out.txt && bad "colour on a pipe" || ok
expect_rc 0 "color never" L --color never; grep -q "$(printf '\033')" out.txt && bad "--color never coloured" || ok
expect_rc 0 "NO_COLOR" env NO_COLOR=1 TZ=UTC "$txc" list --db sel.db; grep -q "$(printf '\033')" out.txt && bad "NO_COLOR" || ok
expect_rc 2 "bad color" L --color sometimes
if command -v script > /dev/null; then
	NO_COLOR=1 script -q -c "TZ=UTC $txc list --db sel.db" /dev/null > tty.txt 2>&1
	grep -q "$(printf '\033')\[" tty.txt && bad "NO_COLOR on a terminal" || ok
	env -u NO_COLOR TERM=xterm script -q -c "TZ=UTC $txc list --db sel.db" /dev/null > tty.txt 2>&1
	grep -q "$(printf '\033')\[" tty.txt && ok || bad "no colour on a terminal"
else
	skip "colour on a terminal" "no script(1)"
fi

# completions load in bash and offer the table's options
"$txc" completions bash > txc.bash
bash -c ". ./txc.bash && complete -p txc" > out.txt 2>&1 && grep -q '_txc' out.txt && ok || bad "bash completion does not load: $(cat out.txt)"
r=$(bash -c '. ./txc.bash; COMP_WORDS=(txc export --dr); COMP_CWORD=2; _txc; echo "${COMPREPLY[*]}"')
[ "$r" = "--dry-run" ] && ok || bad "bash completes --dr to '$r'"
r=$(bash -c '. ./txc.bash; COMP_WORDS=(txc convert x --detail ""); COMP_CWORD=4; _txc; echo "${COMPREPLY[*]}"')
[ "$r" = "full normal brief prompts" ] && ok || bad "bash completes --detail values: '$r'"
r=$(bash -c '. ./txc.bash; COMP_WORDS=(txc ""); COMP_CWORD=1; _txc; echo "${COMPREPLY[*]}"')
[ "$r" = "list convert export artifacts search view completions --help --version" ] && ok || bad "bash completes the command to '$r'"
r=$(bash -c '. ./txc.bash; COMP_WORDS=(txc completions ""); COMP_CWORD=2; _txc; echo "${COMPREPLY[*]}"')
[ "$r" = "bash zsh fish" ] && ok || bad "bash completes the shell to '$r'"
for sh in zsh fish; do "$txc" completions $sh > c.$sh && grep -q -- 'dry-run' c.$sh && ok || bad "$sh completion"; done
grep -q "'completions:print a bash, zsh or fish completion script'" c.zsh && ok || bad "zsh command words are not the table's"
grep -q "__fish_use_subcommand -a completions -d 'print a bash, zsh or fish completion script'" c.fish && ok || bad "fish command words are not the table's"
grep -q "seen_subcommand_from list convert export artifacts search view' -l remote" c.fish && ok || bad "fish: --remote is not a store option of every command"
if command -v zsh > /dev/null; then zsh -n c.zsh && ok "zsh completion syntax" || bad "zsh syntax"; else skip "zsh completion syntax" "zsh is not installed"; fi
expect_rc 2 "completions bad shell" "$txc" completions tcsh

summary select
[ "$fails" = 0 ]
