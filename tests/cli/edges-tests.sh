#!/bin/sh
# Edge cases the other scripts do not reach, section by section: the default ~/.hermes and an
# unset HOME; profile names and source conflicts; store paths with a space, '#', '?' and '%';
# every spelling of --since/--until and --cwd; equal timestamps; --all-profiles bulk export,
# manifests, renames, assets, a busy or full output folder; --input oddities; usage errors;
# artifacts --check of every kind of path; --install into ~/.claude and over files Claude Code
# continued; odd schemas (WITHOUT ROWID, columns named rowid, id not first); Markdown of message
# text shapes (tests/tools/md-shapes.py) rendered with cmark-gfm; the list and messages on a
# terminal.  Checks that need script(1), cmark-gfm, flock or a tmpfs mount say when they skip.
# usage: edges-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
umask 022
unset HERMES_HOME HERMES_DASHBOARD_SESSION_TOKEN CLAUDE_CONFIG_DIR
"$mkdb" min.db "$src/fixtures/minimal.sql" || exit 1
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1

# ---- the Hermes home: ~/.hermes by default, HOME unset or empty is a clear usage error ----
mkdir -p u/.hermes && cp min.db u/.hermes/state.db
expect_rc 0 "default ~/.hermes" env HOME="$work/u" "$txc" list
grep -q '^m1 ' out.txt && grep -q '^m2 ' out.txt && ok "~/.hermes/state.db listed" || bad "default home: $(cat out.txt err.txt)"
expect_rc 0 "HERMES_HOME wins over HOME" env HOME="$work/u" HERMES_HOME="$work/nowhere" "$txc" list --json
[ "$(cat out.txt)" = "[]" ] && grep -q 'nowhere' err.txt && ok "HERMES_HOME used" || bad "HERMES_HOME: $(cat out.txt err.txt)"
expect_rc 2 "HOME unset" env -u HOME "$txc" list
grep -q 'HOME is not set; use --home or --db' err.txt && ok "HOME unset: said" || bad "HOME unset: $(cat err.txt)"
expect_rc 2 "HOME empty" env HOME= "$txc" convert m1 --to hermes
grep -q 'HOME is not set' err.txt && [ ! -s out.txt ] && ok "HOME empty: said" || bad "HOME empty: $(cat err.txt)"
expect_rc 0 "HOME unset, --db given" env -u HOME "$txc" convert m1 --to hermes --db min.db
grep -q '^{"id": "m1"' out.txt && ok "HOME unset does not matter with --db" || bad "HOME unset --db: $(cat err.txt)"

# ---- profile names and conflicts ----
for p in _x -x Work "a b" "$(printf '%065d' 0)" ""; do
	expect_rc 2 "profile name '$p'" "$txc" list --home u/.hermes --profile "$p"
done
expect_rc 2 "--db with --profile" "$txc" list --db min.db --profile work
grep -q -- '--db and --profile cannot be combined' err.txt && ok "--db --profile: said" || bad "--db --profile: $(cat err.txt)"
expect_rc 2 "--all-profiles with --profile" "$txc" list --home u/.hermes --all-profiles --profile work
grep -q -- '--all-profiles cannot be combined' err.txt && ok "--all-profiles --profile: said" || bad "--all-profiles --profile: $(cat err.txt)"
expect_rc 2 "--profile with --input" "$txc" list --input x.jsonl --profile work
grep -q -- '--profile does not apply to --input' err.txt && ok "--input --profile: said" || bad "--input --profile: $(cat err.txt)"
expect_rc 0 "--profile default" "$txc" list --home u/.hermes --profile default
grep -q '^m1 ' out.txt && ok "--profile default is the home's own store" || bad "--profile default: $(cat out.txt err.txt)"
expect_rc 3 "--profile that does not exist" "$txc" list --home u/.hermes --profile nosuch
grep -q 'nosuch' err.txt && ok "missing profile named" || bad "missing profile: $(cat err.txt)"
mkdir -p bare
expect_rc 3 "--all-profiles on a home with no store" "$txc" list --home bare --all-profiles
grep -q "no Hermes store in '.*bare' or its profiles" err.txt && ok "empty home: said" || bad "empty home: $(cat err.txt)"
mkdir -p broken/profiles/a broken/profiles/b
echo junk > broken/state.db; echo junk > broken/profiles/a/state.db; echo junk > broken/profiles/b/state.db
expect_rc 1 "--all-profiles, every store broken" "$txc" list --home broken --all-profiles
grep -q "no profile's store could be read" err.txt && [ "$(grep -c 'warning' err.txt)" -ge 3 ] && ok "all broken: each said, then the failure" || bad "all broken: $(cat err.txt)"
expect_rc 2 "list of an unknown source" "$txc" list nonesuch --db min.db
grep -q "unknown source 'nonesuch'" err.txt && ok "unknown source named" || bad "unknown source: $(cat err.txt)"

# ---- store paths with a space, '#', '?' and '%' (SQLite URIs give them meaning) ----
odd="$work/st dir#1?x=%41"
mkdir -p "$odd/profiles/p 1" "$odd/profiles/p1"
cp feat.db "$odd/st ?#%.db"
expect_rc 0 "odd store path" "$txc" export --json --db "$odd/st ?#%.db"
[ "$(wc -l < out.txt)" -ge 4 ] && grep -q '^{"id": "tools"' out.txt && ok "odd path: every session read" || bad "odd path: $(cat err.txt)"
cp min.db "$odd/state.db"; cp feat.db "$odd/profiles/p1/state.db"
expect_rc 0 "odd HERMES_HOME" env HERMES_HOME="$odd" "$txc" list --all-profiles
grep -q '^default  *m1 ' out.txt && grep -q '^p1  *tools ' out.txt && ok "odd home: both profiles" || bad "odd home: $(cat out.txt err.txt)"
expect_rc 0 "odd home, one profile" "$txc" convert tools --to markdown --home "$odd" --profile p1
grep -q '^id: "tools"$' out.txt && ok "odd home --profile: the session" || bad "odd home --profile: $(cat err.txt)"

# ---- --since/--until spellings ----
cat > eq.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('eq_b', 'cli', 1789344000.0, 'B', '/repo/sub'), ('eq_a', 'cli', 1789344000.0, 'A', '/repo'),
  ('eq_c', 'cli', 1789344000.0, 'C', '/other');
INSERT INTO messages VALUES (1, 'eq_a', 'user', 'first', 1789344001.0), (2, 'eq_a', 'assistant', 'second', 1789344001.0),
  (3, 'eq_a', 'user', 'third', 1789344001.0);
SQL
"$mkdb" eq.db eq.sql || exit 1
n_listed() { grep -c '^eq_' out.txt; }
for w in "2026-09-14 00:00" "2026-09-14T00:00:00Z" "2026-09-13T19:00-05:00" "2026-09-14T00:00:00.000" "2026-09-14+00:00"; do
	expect_rc 0 "--since '$w'" env TZ=UTC "$txc" list --db eq.db --since "$w"
	[ "$(n_listed)" = 3 ] && ok "--since '$w': the instant itself is in" || bad "--since '$w': $(cat out.txt)"
done
for w in "2026-09-14T00:00:00.5Z" "2026-09-14T02:00+01:59"; do
	expect_rc 0 "--since '$w'" env TZ=UTC "$txc" list --db eq.db --since "$w"
	[ "$(n_listed)" = 0 ] && ok "--since '$w': after the instant" || bad "--since '$w': $(cat out.txt)"
done
expect_rc 0 "--until a date-time" env TZ=UTC "$txc" list --db eq.db --until "2026-09-13T23:59:59Z"
[ "$(n_listed)" = 0 ] && ok "--until before the instant" || bad "--until: $(cat out.txt)"
for w in "2026-09-14T25:00" "2026-09-14T00:60" "2026-09-14T10:15:61" "2026-09-14T10:15:" "2026-09-14X" "-1d" "2026-9-14" \
	"2026-09-14T00:00+0200" "2026-09-14T00:00+02:00x" "2026-00-10" "2026-09-32" "5y" ""; do
	expect_rc 2 "bad --since '$w'" env TZ=UTC "$txc" list --db eq.db --since "$w"
	grep -q -- "--since takes a date" err.txt && ok "bad --since '$w': said" || bad "bad --since '$w': $(cat err.txt)"
done
expect_rc 2 "bad --until" "$txc" list --db eq.db --until bogus
grep -q -- "--until takes a date.*not 'bogus'" err.txt && ok "bad --until: said" || bad "bad --until: $(cat err.txt)"

# ---- --cwd spelled with . and .. ----
expect_rc 0 "--cwd with .." "$txc" list --db eq.db --cwd /repo/sub/..
[ "$(grep -c '^eq_[ab] ' out.txt)" = 2 ] && ! grep -q '^eq_c' out.txt && ok "--cwd /repo/sub/.. is /repo" || bad "--cwd ..: $(cat out.txt)"
expect_rc 0 "--cwd with ./ and a trailing slash" "$txc" list --db eq.db --cwd /repo/./sub//
[ "$(grep -c '^eq_' out.txt)" = 1 ] && grep -q '^eq_b ' out.txt && ok "--cwd /repo/./sub// is /repo/sub" || bad "--cwd ./: $(cat out.txt)"
expect_rc 0 "--cwd /.." "$txc" list --db eq.db --cwd /..
[ "$(n_listed)" = 3 ] && ok "--cwd /.. is /" || bad "--cwd /..: $(cat out.txt)"

# ---- equal timestamps: a stable order, messages in their stored order ----
expect_rc 0 "equal starts" "$txc" list --db eq.db
order1=$(grep '^eq_' out.txt | cut -d' ' -f1 | tr '\n' ' ')
"$txc" list --db eq.db --json > j.txt
order2=$(sed -n 's/^[[,]*{"id":"\([^"]*\)".*/\1/p' j.txt | tr '\n' ' ')
[ "$order1" = "eq_c eq_b eq_a " ] && [ "$order2" = "$order1" ] && ok "equal starts: the same order in the table and JSON" || bad "equal starts: '$order1' vs '$order2'"
expect_rc 0 "equal message times" "$txc" convert eq_a --to markdown --db eq.db
[ "$(grep -x 'first\|second\|third' out.txt | tr '\n' ' ')" = "first second third " ] && ok "equal message times: stored order kept" || bad "message order: $(cat out.txt)"
expect_rc 0 "equal message times, claude" "$txc" convert eq_a --to claude --db eq.db
[ "$(grep -o '"text":"[a-z]*"' out.txt | tr '\n' ' ')" = '"text":"first" "text":"second" "text":"third" ' ] && ok "claude: stored order kept" || bad "claude order: $(cat out.txt)"

# ---- --all-profiles bulk export: a folder per profile, the profile in the manifest ----
mkdir -p home/profiles/work
cp eq.db home/state.db; cp min.db home/profiles/work/state.db
expect_rc 0 "bulk --all-profiles" "$txc" export --to markdown --out allp --home home --all-profiles
[ -s allp/default/eq_a-a.md ] && [ -s allp/work/m1.md ] && ok "bulk --all-profiles: a folder per profile" || bad "bulk --all-profiles: $(find allp)"
grep -q '^{"session_id":"eq_a","profile":"default","path":"default/eq_a-a.md",' allp/manifest.jsonl &&
	grep -q '^{"session_id":"m1","profile":"work","path":"work/m1.md",' allp/manifest.jsonl && [ "$(wc -l < allp/manifest.jsonl)" = 5 ] &&
	ok "bulk --all-profiles: profiles in the manifest" || bad "bulk manifest: $(cat allp/manifest.jsonl)"
json_ok allp/manifest.jsonl && ok "bulk --all-profiles manifest is JSON" || bad "bulk manifest not JSON"
cp -r allp allp2
expect_rc 0 "the default profile alone into an --all-profiles folder" "$txc" export --to markdown --out allp2 --home home
[ -s allp2/eq_a-a.md ] && [ ! -e allp2/default/eq_a-a.md ] && [ -s allp2/work/m1.md ] &&
	grep -q '^{"session_id":"eq_a","profile":"default","path":"eq_a-a.md",' allp2/manifest.jsonl &&
	grep -q '^{"session_id":"m1","profile":"work","path":"work/m1.md",' allp2/manifest.jsonl &&
	ok "default alone: its files moved up, the other profile's kept" || bad "default alone: $(find allp2; cat allp2/manifest.jsonl)"
expect_rc 0 "bulk of one named profile" "$txc" export --to markdown --out pw --home home --profile work
[ -s pw/work/m1.md ] && grep -q '^{"session_id":"m1","profile":"work","path":"work/m1.md",' pw/manifest.jsonl && ok "one named profile: its folder and name" || bad "bulk --profile: $(find pw)"
printf 'not json\n{"path": "x"}\n\n' >> allp/manifest.jsonl; cp allp/manifest.jsonl allp.broken
# (issue 27) lines that are not txc's: someone's file, refused like any other (nothing written)
expect_rc 1 "manifest with broken lines" "$txc" export --to markdown --out allp --home home --all-profiles --progress
[ "$(cat err.txt)" = "txc: error: 'allp/manifest.jsonl' is not txc's manifest (line 6 is not an entry txc writes); pass --force to overwrite it" ] &&
	cmp -s allp/manifest.jsonl allp.broken && ok "broken manifest lines: refused, one line, kept" || bad "broken manifest: $(cat err.txt)"
expect_rc 0 "manifest with broken lines, --force" "$txc" export --to markdown --out allp --home home --all-profiles --progress --force
grep -q "^txc: warning: 'allp/manifest.jsonl' is not txc's manifest (line 6); it will be replaced (--force)$" err.txt &&
	grep -q ': 0 new, 0 updated, 5 unchanged' err.txt && ok "broken manifest lines, --force: said, replaced" || bad "broken manifest --force: $(cat err.txt)"
[ "$(wc -l < allp/manifest.jsonl)" = 5 ] && json_ok allp/manifest.jsonl && ok "broken manifest lines gone" || bad "manifest after: $(cat allp/manifest.jsonl)"
# a second txc on the same folder waits for nobody: it says so
if command -v flock > /dev/null; then
	flock allp sleep 3 &
	locker=$!
	sleep 0.5
	expect_rc 1 "a busy output folder" "$txc" export --to markdown --out allp --home home --all-profiles
	grep -q "another txc is exporting to 'allp'" err.txt && ok "busy folder: said" || bad "busy folder: $(cat err.txt)"
	wait $locker
else
	skip "a busy output folder" "no flock(1)"
fi
# a renamed session: --dry-run says what would go, the run does it
printf "UPDATE sessions SET title='Renamed' WHERE id='eq_b';\n" > ren.sql; "$mkdb" home/state.db ren.sql
expect_rc 0 "dry run of a rename" "$txc" export --to markdown --out allp --home home --all-profiles --dry-run
grep -q '^new    allp/default/eq_b-renamed.md$' out.txt && grep -q '^remove allp/default/eq_b-b.md$' out.txt && [ -e allp/default/eq_b-b.md ] &&
	ok "dry run: new and remove listed, nothing done" || bad "dry run rename: $(cat out.txt)"
expect_rc 0 "run of a rename" "$txc" export --to markdown --out allp --home home --all-profiles
[ ! -e allp/default/eq_b-b.md ] && [ -s allp/default/eq_b-renamed.md ] && ok "rename: old file gone, new written" || bad "rename: $(ls allp/default)"

# ---- Markdown of message text: fences inside text, lists, quotes, links, escapes; typed tools ----
python3 "$src/tools/md-shapes.py" > md.sql && "$mkdb" md.db md.sql || exit 1
expect_rc 0 "markdown shapes" "$txc" convert md --to markdown --db md.db -o md.md
for want in 'Show me &lt;b>' '**Bash** — list \*files\* in `/w d` (timeout 5000 ms) (background)' '**Read** `/a/b.py` (from line 5)' \
	'**Read** `/a/f.py` (lines 3–6)' '**Edit** `/a/d.txt` (all occurrences)' '**MultiEdit** `/a/c.c`' '**patch** `/a/e.txt`' '**noargs**' \
	'*… 20 more lines cut (use --detail full to see everything)*' '# Shapes \`of\` \*text\* second line' 'Escapes: &lt;b> and \` and a \| in | cells |'; do
	grep -qF -- "$want" md.md && ok "markdown shapes: $want" || bad "markdown shapes: missing $want"
done
grep -q '^End 0;an OSC never ended$' md.md && grep -q '^    indented <code> four$' md.md && grep -q '^never closed <b>$' md.md && ok "markdown shapes: code kept as typed" || bad "markdown shapes: code lost"
if command -v cmark-gfm > /dev/null 2>&1; then
	cmark-gfm -e table -e autolink -e strikethrough -e tagfilter md.md > md.html
	tags=$(grep -oE '<[A-Za-z][A-Za-z0-9-]*' md.html | tr -d '<' | sort -u |
		grep -vxE 'a|blockquote|code|em|h[1-6]|hr|li|ol|p|pre|strong|table|tbody|td|th|thead|tr|ul')
	[ -z "$tags" ] && ok "markdown shapes: no raw tags rendered" || bad "markdown shapes: raw tags: $(echo $tags)"
	for n in 1 2 3 4 5 6 7 8 9 10 TOOLS; do
		grep -q "^<p>AFTER-$n</p>\$" md.html && ok "markdown shapes: text after shape $n is text" || bad "markdown shapes: after shape $n"
	done
else
	skip "markdown shapes rendered" "cmark-gfm is not installed"
fi
expect_rc 0 "markdown shapes three" "$txc" convert md3 --to markdown --db md.db -o md3.md
grep -q '^chars: & > .* end$' md3.md && grep -q '^AFTER-17$' md3.md && ok "md3: converted to the end" || bad "md3: $(head -c 300 md3.md)"
if command -v cmark-gfm > /dev/null 2>&1; then
	cmark-gfm -e table -e autolink -e strikethrough -e tagfilter md3.md > md3.html
	tags=$(grep -oE '<[A-Za-z][A-Za-z0-9-]*' md3.html | tr -d '<' | sort -u |
		grep -vxE 'a|blockquote|br|code|em|h[1-6]|hr|li|ol|p|pre|strong|table|tbody|td|th|thead|tr|ul')
	[ -z "$tags" ] && ok "md3: no raw tags rendered" || bad "md3: raw tags: $(echo $tags)"
	for n in $(seq 1 17); do
		grep -q "^<p>AFTER-$n</p>\$" md3.html && ok "md3: text after shape $n is text" || bad "md3: after shape $n"
	done
else
	skip "md3 rendered" "cmark-gfm is not installed"
fi
expect_rc 0 "markdown shapes five" "$txc" convert md5 --to markdown --db md.db -o md5.md
grep -q '^no newline at the end$' md5.md && grep -q '^AFTER-12$' md5.md && ok "md5: converted to the end" || bad "md5: $(tail -3 md5.md)"
if command -v cmark-gfm > /dev/null 2>&1; then
	cmark-gfm -e table -e autolink -e strikethrough -e tagfilter md5.md > md5.html
	tags=$(grep -oE '<[A-Za-z][A-Za-z0-9-]*' md5.html | tr -d '<' | sort -u |
		grep -vxE 'a|blockquote|br|code|em|h[1-6]|hr|li|ol|p|pre|strong|table|tbody|td|th|thead|tr|ul')
	[ -z "$tags" ] && ok "md5: no raw tags rendered" || bad "md5: raw tags: $(echo $tags)"
	for n in $(seq 1 12); do
		grep -q "^<p>AFTER-$n</p>\$" md5.html && ok "md5: text after shape $n is text" || bad "md5: after shape $n"
	done
else
	skip "md5 rendered" "cmark-gfm is not installed"
fi
expect_rc 0 "markdown shapes, brief" "$txc" convert md --to markdown --db md.db --detail brief
grep -qxF '**Bash** `ls <x>`' out.txt && grep -qxF '**patch**' out.txt && ! grep -q '^```diff' out.txt && ok "brief: one line a call" || bad "brief: $(grep -n '^\*\*' out.txt)"
expect_rc 0 "markdown shapes, full" "$txc" convert md --to markdown --db md.db --detail full
grep -q '^L59$' out.txt && ! grep -q 'more lines cut' out.txt && ok "full: nothing cut" || bad "full: output cut"
# session md2: images of every media type, odd characters, an unknown start, reused call ids
expect_rc 0 "markdown images to files" "$txc" convert md2 --to markdown --db md.db -o md2.md
for want in '![image 1](md2.md.assets/image-1.jpg)' '*[image 2: image/svg+xml omitted: SVG can carry script]*' '*[image 3: image/png omitted: not valid base64 image data]*' \
	'![image 5](md2.md.assets/image-5.img)' '**Read** `/a/tab here nl.txt`' '*5 messages · 3 tool calls · cli · started unknown time*' \
	'title: "T\u0085i\u2028t\ufeffl\u007fe \u003c\u0026\u003e' '<summary>#5 · error · exit 12345678901234567890 · 0 lines</summary>'; do
	grep -qF -- "$want" md2.md && ok "md2: $want" || bad "md2: missing $want"
done
[ -s md2.md.assets/image-1.jpg ] && [ ! -e md2.md.assets/image-2.svg ] && [ ! -e md2.md.assets/image-3.png ] && ok "md2: assets written, the SVG and the invalid one not" || bad "md2 assets: $(ls md2.md.assets)"
sed -n '/^\*\*Read\*\*/,/^\*\*Write\*\*/p' md2.md | grep -q '^first dup$' && sed -n '/^\*\*Write\*\*/,/^\*\*Bash\*\*/p' md2.md | grep -q '^second dup$' &&
	ok "md2: a reused call id pairs each result with its own call" || bad "md2: results paired wrongly"
sed -n '/^\*\*Write\*\*/,/^<details>/p' md2.md | grep -qx '```' && ok "md2: a file without an extension has no fence language" || bad "md2: Makefile fence"
expect_rc 0 "claude images of every media type" "$txc" convert md2 --to claude --db md.db
grep -q '"type":"image","source":{"type":"base64","media_type":"image/jpeg"' out.txt &&
	grep -qF '[image: image/svg+xml, 96 bytes of base64 not carried over: its media type is not one the API accepts' out.txt &&
	grep -qF '[image: image/png, 10 bytes of base64 not carried over: its data is not valid base64]' out.txt &&
	grep -qF '[image: image/, 96 bytes of base64 not carried over' out.txt && ok "claude: images the API takes sent, the others said" || bad "claude images: $(grep -o '\[image:[^]]*\]' out.txt)"
# tool ids Claude Code does not take: their bytes replaced, a hash keeps two apart, each result bound to its call
long=$(printf 'x.%.0s' $(seq 1 40))
cat > tid.sql <<SQL
CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('tid', 'cli', 1);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('tid', 'user', 'go', 1);
INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('tid', 'assistant', '',
  '[{"id":"functions.read:0","type":"function","function":{"name":"b","arguments":"{}"}},{"id":"$long","type":"function","function":{"name":"c","arguments":"{}"}}]', 2);
INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('tid', 'tool', 'rb', 'functions.read:0', 'b', 4), ('tid', 'tool', 'rc', '$long', 'c', 5);
SQL
"$mkdb" tid.db tid.sql || exit 1
expect_rc 0 "unsafe tool ids" "$txc" convert tid --to claude --db tid.db
x64=$(printf 'x_%.0s' $(seq 1 32))
grep -q '"tool_use","id":"functions_read_0_txc[0-9a-f]\{12\}"' out.txt && grep -q "\"tool_use\",\"id\":\"${x64}_txc[0-9a-f]\{12\}\"" out.txt &&
	[ "$(grep -o '"tool_use_id":"functions_read_0_txc[0-9a-f]*","content":"rb"' out.txt | wc -l)" = 1 ] &&
	[ "$(grep -o "\"tool_use_id\":\"${x64}_txc[0-9a-f]*\",\"content\":\"rc\"" out.txt | wc -l)" = 1 ] &&
	ok "unsafe ids: mapped, cut at 64, results bound" || bad "unsafe ids: $(grep -o '"tool_use[^,]*,"[a-z]*":"[^"]*"' out.txt)"
expect_rc 0 "markdown: an odd -o name, a short output limit" "$txc" convert md4 --to markdown --db md.db --max-output-lines 3 -o "a b#(1)%.md"
for want in '![image 1](a%20b%23%281%29%25.md.assets/image-1.webp)' '![image 2](a%20b%23%281%29%25.md.assets/image-2.x)' \
	'**Read** `` `tick` `` (lines 1–5)' '*… 2 more lines cut (use --detail full to see everything)*' '**Read** `  lead `' \
	'<summary>#5 · error · 1 line</summary>'; do
	grep -qF -- "$want" "a b#(1)%.md" && ok "md4: $want" || bad "md4: missing $want"
done
grep -qx 'only an error' "a b#(1)%.md" && [ -s "a b#(1)%.md.assets/image-1.webp" ] && ok "md4: the error text and the assets" || bad "md4: $(ls)"
expect_rc 0 "markdown: an -o name of kept and escaped characters" "$txc" convert md4 --to markdown --db md.db -o "Ab_~9+=.md"
grep -qF '![image 1](Ab_~9%2B%3D.md.assets/image-1.webp)' "Ab_~9+=.md" && ok "link: unreserved kept, + and = escaped" || bad "link escaping: $(grep -m1 'image 1' "Ab_~9+=.md")"
expect_rc 0 "markdown brief: images omitted" "$txc" convert md2 --to markdown --db md.db --detail brief
grep -qF '*[image 1: image/jpeg omitted]*' out.txt && ! grep -q 'base64' out.txt && ok "brief: images omitted" || bad "brief images: $(grep image out.txt)"
expect_rc 0 "markdown images omitted" "$txc" convert md2 --to markdown --db md.db --images omit
grep -qF '*[image 2: image/svg+xml omitted]*' out.txt && ! grep -q 'base64' out.txt && ok "--images omit: said per image" || bad "--images omit: $(grep image out.txt)"

# ---- --input files: CRLF and blank lines, stdin from a pipe or a file, JSON that is no session ----
"$txc" export --json --db feat.db > feat.jsonl || exit 1
{ echo; sed 's/$/\r/' feat.jsonl | sed '1s/^/  /'; printf '\n  \n'; } > crlf.jsonl
expect_rc 0 "--input with CRLF, blank lines, leading blanks" "$txc" export --json --input crlf.jsonl
cmp -s out.txt feat.jsonl && [ -s out.txt ] && ok "CRLF input reads as the export" || bad "CRLF input: $(head -c 200 err.txt)"
expect_rc 0 "--input - from a pipe" sh -c "cat feat.jsonl | '$txc' export --json --input -"
cmp -s out.txt feat.jsonl && [ -s out.txt ] && ok "stdin pipe reads as the export" || bad "stdin pipe: $(head -c 200 err.txt)"
expect_rc 0 "--input - from a file" sh -c "'$txc' convert tools --to hermes --input - < feat.jsonl"
grep -q '^{"id": "tools"' out.txt && ok "stdin file: the session" || bad "stdin file: $(head -c 200 err.txt)"
echo '{"x": 1}' > notsess.json; printf '{\n  "x": 1\n}\n' > notsess2.json
for f in notsess.json notsess2.json; do
	expect_rc 1 "--input $f" "$txc" list --input $f
	grep -q "$f: not a Hermes session export" err.txt && ok "$f: said" || bad "$f: $(cat err.txt)"
done
: > empty.jsonl
expect_rc 0 "--input of an empty file" "$txc" list --input empty.jsonl --json
[ "$(cat out.txt)" = "[]" ] && ok "empty input: no sessions" || bad "empty input: $(cat out.txt)"

# ---- usage errors of convert and artifacts; help and version spelled as commands ----
for args in "convert --to hermes" "convert a b --to hermes" "convert tools --to markdown --install" "convert tools --to claude --install -o x" \
	"convert tools --to claude --images files -o x" "artifacts" "artifacts a b" "completions"; do
	expect_rc 2 "usage: $args" "$txc" $args --db feat.db
	one_line_err "usage: $args"
done
for args in help -h; do expect_rc 0 "$args" "$txc" $args; grep -q '^usage: txc <command>' out.txt && ok "$args: the usage" || bad "$args: $(head -2 out.txt)"; done
expect_rc 0 "version as a command" "$txc" version; grep -q '^txc [0-9]' out.txt && ok "version: printed" || bad "version: $(cat out.txt)"
expect_rc 3 "artifacts of an unknown session" "$txc" artifacts nosuch --db feat.db
expect_rc 0 "artifacts of a session without any" "$txc" artifacts empty --db feat.db
[ ! -s out.txt ] && grep -q 'no artifacts found in this session' err.txt && ok "no artifacts: said" || bad "no artifacts: $(cat err.txt)"

# ---- artifacts --check: file: URLs, ~ and relative paths, directories, other file types, foreign paths ----
mkdir -p art/dir.pdf hh && : > "art/with space.txt" && : > art/rel.txt && : > hh/home.csv
mkfifo art/pipe.png 2> /dev/null || : > art/pipe.png
cat > art.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('chk', 'cli', 1, '$work/art'), ('nocwd', 'cli', 2, NULL);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('chk', 'assistant',
 '[a](file://localhost$work/art/rel.txt) [b](file://elsewhere/x.pdf) [w](C:/win/p.pdf) [c](file://$work/art/with%20space.txt) [d](file://$work/art/bad%zz.txt) ~/home.csv ./rel.txt $work/art/dir.pdf $work/art/pipe.png C:\\x\\y.docx //host/share/q.pdf', 2);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('nocwd', 'assistant', 'see ./rel.txt and ~/home.csv', 3);
SQL
"$mkdb" art.db art.sql || exit 1
expect_rc 0 "artifacts --check, every kind of path" env HOME="$work/hh" "$txc" artifacts chk --db art.db --check --color never
for want in "file://localhost$work/art/rel.txt  ok (file, 0 bytes)" "file://elsewhere/x.pdf  not checkable on this system" \
	"file://$work/art/with%20space.txt  ok (file, 0 bytes)" "file://$work/art/bad%zz.txt  missing" "~/home.csv  ok (file, 0 bytes)" \
	"./rel.txt  ok (file, 0 bytes)" "$work/art/dir.pdf  ok (directory" 'C:\x\y.docx  not checkable on this system' \
	"//host/share/q.pdf  not checkable on this system" "C:/win/p.pdf  not checkable on this system"; do
	grep -qF -- "$want" out.txt && ok "--check: $want" || bad "--check: missing '$want' in $(cat out.txt)"
done
[ -p art/pipe.png ] && { grep -qF "$work/art/pipe.png  ok (other, " out.txt && ok "--check: a FIFO is 'other'" || bad "--check FIFO: $(cat out.txt)"; }
cat > art2.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('chk2', 'cli', 1, '$work/art');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('chk2', 'assistant',
 '[e](file://$work/art/%72el.txt) [f](file://$work/art/%52%65l.txt) [k](file://$work/art/%72%45%4C.txt) [m](file://$work/art/%G1.txt) [g](file://$work/art/x%00y.txt) ![d](data:image/png;base64,AA) ///tmp/nothing-here.png', 2);
SQL
"$mkdb" art2.db art2.sql || exit 1
expect_rc 0 "artifacts --check: percent escapes, data: URLs, three slashes" "$txc" artifacts chk2 --db art2.db --check --color never
for want in "file://$work/art/%72el.txt  ok (file, 0 bytes)" "file://$work/art/%52%65l.txt  missing" "file://$work/art/%72%45%4C.txt  missing" "file://$work/art/%G1.txt  missing" "file://$work/art/x%00y.txt  missing" \
	"///tmp/nothing-here.png  missing"; do
	grep -qF -- "$want" out.txt && ok "--check: $want" || bad "--check: missing '$want' in $(cat out.txt)"
done
grep -q 'data:image/png;base64,AA$' out.txt && ok "--check: a data: URL is not looked up" || bad "--check data: $(cat out.txt)"
expect_rc 0 "artifacts --check without a cwd" env HOME="$work/hh" "$txc" artifacts nocwd --db art.db --check --json
grep -q '"value":"./rel.txt",.*"exists":null' out.txt && grep -q "\"value\":\"~/home.csv\",.*\"exists\":true,\"path\":\"$work/hh/home.csv\"" out.txt &&
	ok "--check: relative without a cwd is unknown, ~ is HOME" || bad "--check nocwd: $(cat out.txt)"
expect_rc 0 "artifacts --check, HOME not absolute" env HOME=relative "$txc" artifacts nocwd --db art.db --check --json
grep -q '"value":"~/home.csv",.*"exists":null' out.txt && ok "--check: ~ with a relative HOME is unknown" || bad "--check relative HOME: $(cat out.txt)"

# ---- --install: ~/.claude by default, a quote in the cwd, --as-new, nothing to resume, a relative cwd ----
mkdir -p "q'dir" hc
cat > inst.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('q1', 'cli', 1, '$work/q''dir'), ('e1', 'cli', 2, '$work'), ('rel', 'cli', 3, 'relative/dir');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('q1', 'user', 'hi', 2), ('e1', 'system', 'only a system prompt', 3),
  ('rel', 'user', 'x', 4);
SQL
"$mkdb" inst.db inst.sql || exit 1
qfolder=$(echo "$work/q'dir" | sed 's/[^A-Za-z0-9]/-/g')
expect_rc 0 "install under ~/.claude" env HOME="$work/hc" "$txc" convert q1 --to claude --install --db inst.db
first=$(sed -n 's/^installed //p' out.txt)
case "$first" in "$work/hc/.claude/projects/$qfolder/"*.jsonl) [ -s "$first" ] && ok "installed under HOME/.claude" ;; *) false ;; esac || bad "install under HOME: $(cat out.txt err.txt)"
grep -qF "resume with: cd '$work/q'\\''dir' && claude --resume " out.txt && ok "resume command quotes the quote" || bad "resume quoting: $(cat out.txt)"
expect_rc 0 "install --as-new" env HOME="$work/hc" "$txc" convert q1 --to claude --install --as-new --db inst.db
second=$(sed -n 's/^installed //p' out.txt)
[ -n "$second" ] && [ "$second" != "$first" ] && [ -s "$second" ] && [ -s "$first" ] && ok "--as-new: a second session, the first kept" || bad "--as-new: $(cat out.txt err.txt)"
expect_rc 0 "install --as-new again" env HOME="$work/hc" "$txc" convert q1 --to claude --install --as-new --db inst.db
grep -q "^unchanged $second\$" out.txt && [ "$(ls "$work/hc/.claude/projects/$qfolder" | wc -l)" = 2 ] && ok "--as-new again: unchanged, no third copy" || bad "--as-new again: $(cat out.txt)"
expect_rc 0 "install with CLAUDE_CONFIG_DIR empty" env CLAUDE_CONFIG_DIR= HOME="$work/hc2" "$txc" convert q1 --to claude --install --db inst.db
grep -q "^installed $work/hc2/.claude/projects/$qfolder/" out.txt && ok "CLAUDE_CONFIG_DIR empty is unset" || bad "CLAUDE_CONFIG_DIR empty: $(cat out.txt err.txt)"
expect_rc 2 "install with HOME and CLAUDE_CONFIG_DIR empty" env CLAUDE_CONFIG_DIR= HOME= "$txc" convert q1 --to claude --install --db inst.db
grep -q "cannot find Claude Code's folder: HOME is not set; set HOME or CLAUDE_CONFIG_DIR" err.txt && [ ! -e /.claude ] && ok "no HOME: said, nothing under /" || bad "no HOME install: $(cat err.txt)"
expect_rc 1 "install of a session Claude Code cannot resume" env HOME="$work/hc" "$txc" convert e1 --to claude --install --db inst.db
grep -q "session 'e1' has no messages: nothing Claude Code could resume; nothing installed" err.txt && ok "nothing to resume: said" || bad "empty install: $(cat err.txt)"
expect_rc 0 "install with a relative cwd" env HOME="$work/hc" "$txc" convert rel --to claude --install --db inst.db
grep -q "the session's directory 'relative/dir' does not exist here; installing for " err.txt && ok "relative cwd: said" || bad "relative cwd: $(cat err.txt)"

# ---- export: usage errors, --out with --install, --json with filters ----
for args in "x --json" "--to pdf --out o" "--json --dry-run" "--json --force" "--json --install"; do
	expect_rc 2 "export usage: $args" "$txc" export $args --db feat.db
	one_line_err "export usage: $args"
done
expect_rc 0 "export --out and --install" env CLAUDE_CONFIG_DIR="$work/cc" "$txc" export --to claude --out oo --install --db feat.db
[ -s oo/tools-tools-quoted-and-a-second-line-b-bold-b.jsonl ] && [ "$(find cc/projects -name '*.jsonl' | wc -l)" = 3 ] &&
	grep -q "session 'empty' has no messages; not installed" err.txt && ok "--out and --install: both, the empty session said" || bad "--out --install: $(cat err.txt; find cc oo)"
expect_rc 0 "export --json with filters" "$txc" export --json --db feat.db --source cli --limit 1
[ "$(wc -l < out.txt)" = 1 ] && json_ok out.txt && ok "export --json --limit 1: one session" || bad "export --json filters: $(wc -l < out.txt)"
expect_rc 0 "export --json, nothing matches" "$txc" export --json --db feat.db --model no-such-model
[ ! -s out.txt ] && ok "export --json of no session: nothing" || bad "export --json no match: $(head -c 100 out.txt)"

# ---- where txc cannot write: a missing folder, a file in the way, a folder named as the output ----
: > afile
for o in nodir/x.jsonl afile/x; do
	expect_rc 1 "-o $o" "$txc" convert tools --to hermes --db feat.db -o $o
	grep -qF "cannot create a file next to '$o'" err.txt && [ ! -s out.txt ] && ok "-o $o: said" || bad "-o $o: $(cat err.txt)"
done
for o in . .. /; do
	expect_rc 1 "-o $o" "$txc" convert tools --to hermes --db feat.db -o $o
	grep -qF "'$o' is not a regular file" err.txt && ok "-o $o: refused" || bad "-o $o: $(cat err.txt)"
done
expect_rc 1 "--out under a file" "$txc" export --to hermes --out afile/sub --db feat.db
grep -qF "cannot create folder 'afile/sub': Not a directory" err.txt && [ ! -s afile ] && ok "--out under a file: said" || bad "--out under a file: $(cat err.txt)"

# ---- a WITHOUT ROWID store: ids of every type looked up by value; results that are content blocks ----
cat > wr.sql <<'SQL'
CREATE TABLE sessions (id PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT,
  tool_name TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('txt', 'cli', 1), (42, 'cli', 2), (1.5, 'cli', 3);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('txt', 'user', 'hello text', 1), (42, 'user', 'hello int', 2),
  (1.5, 'user', 'hello real', 3);
INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('txt', 'assistant', '',
  '[{"id":"c1","type":"function","function":{"name":"web","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"web","arguments":"{}"}}]', 4);
INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES
  ('txt', 'tool', '[{"type":"text","text":"block text"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]', 'c1', 'web', 5),
  ('txt', 'tool', '[{"type":"weird"}]', 'c2', 'web', 6);
SQL
"$mkdb" wr.db wr.sql || exit 1
for id in txt:text 42:int 1.5:real; do
	expect_rc 0 "WITHOUT ROWID: session ${id%%:*}" "$txc" convert "${id%%:*}" --to markdown --db wr.db
	grep -q "^hello ${id#*:}\$" out.txt && ok "WITHOUT ROWID: ${id%%:*} is its own session" || bad "WITHOUT ROWID ${id%%:*}: $(cat out.txt err.txt)"
done
expect_rc 0 "WITHOUT ROWID export" "$txc" export --json --db wr.db
grep -q '^{"id": 42, ' out.txt && grep -q '^{"id": 1.5, ' out.txt && grep -q '^{"id": "txt", ' out.txt && ok "WITHOUT ROWID: ids keep their types" || bad "WITHOUT ROWID export: $(cut -c1-60 out.txt)"
expect_rc 0 "content-block results" "$txc" convert txt --to claude --db wr.db
grep -q '"tool_use_id":"c1","content":\[{"type":"text","text":"block text"},{"type":"image",' out.txt &&
	grep -q '"tool_use_id":"c2","content":"\[{\\"type\\":\\"weird\\"}\]"' out.txt && ok "content blocks kept, unknown block types as text" || bad "content blocks: $(grep -o '"tool_result".\{0,120\}' out.txt)"

# ---- a sessions table with columns named rowid and _rowid_: txc finds the row by oid ----
cat > cols.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, rowid TEXT, _rowid_ TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('r1', 'cli', 1, 'not-a-rowid', 'no'), ('r2', 'cli', 2, 'x', 'y');
INSERT INTO messages VALUES (1, 'r1', 'user', 'found by oid', 2);
SQL
"$mkdb" cols.db cols.sql || exit 1
expect_rc 0 "columns named rowid" "$txc" convert r1 --to markdown --db cols.db
grep -q '^found by oid$' out.txt && ok "columns named rowid: the session" || bad "rowid columns: $(cat err.txt)"
expect_rc 0 "columns named rowid, export" "$txc" export --json --db cols.db
grep -q '^{"id": "r1", "source": "cli", "started_at": 1.0, "rowid": "not-a-rowid", "_rowid_": "no", ' out.txt && ok "columns named rowid: exported as columns" || bad "rowid export: $(cut -c1-120 out.txt)"

# ---- option values ----
for args in "list --limit 0" "list --limit abc" "convert x --to claude --reasoning maybe" "convert x --to markdown --detail huge" \
	"convert x --to markdown --images maybe" "convert x --to markdown --timeout -1"; do
	expect_rc 2 "option value: $args" "$txc" $args --db feat.db
	grep -q "takes .*, not '" err.txt && one_line_err "option value: $args" || bad "option value $args: $(cat err.txt)"
done
expect_rc 2 "an option without its value" "$txc" list --db
grep -q "option '--db' needs a value" err.txt && ok "missing value: said" || bad "missing value: $(cat err.txt)"
expect_rc 0 "--version after a command" "$txc" list --version
grep -q '^txc [0-9]' out.txt && ok "list --version: the version" || bad "list --version: $(cat out.txt)"

# ---- bulk export with assets: an edited asset is refused, --force replaces it, a rename removes the old assets;
#      a manifest hard-linked elsewhere is never written through ----
cp feat.db fa.db
expect_rc 0 "bulk with assets" "$txc" export --to markdown --out ba --db fa.db
asset=ba/img-unicode-title.md.assets/image-1.png
[ -s "$asset" ] && grep -q '"assets":\[{"path":"img-unicode-title.md.assets/image-1.png","sha256":"[0-9a-f]\{64\}"}\]' ba/manifest.jsonl &&
	ok "bulk: the asset and its manifest entry" || bad "bulk assets: $(cat ba/manifest.jsonl)"
echo edited >> "$asset"; cp "$asset" asset.edited
expect_rc 1 "an edited asset" "$txc" export --to markdown --out ba --db fa.db
grep -qF "'$asset' exists and is not as txc wrote it; pass --force to overwrite it" err.txt && cmp -s "$asset" asset.edited &&
	ok "edited asset: refused, kept" || bad "edited asset: $(cat err.txt)"
expect_rc 0 "an edited asset, --force" "$txc" export --to markdown --out ba --db fa.db --force
! cmp -s "$asset" asset.edited && [ -s "$asset" ] && ok "--force: the asset written again" || bad "--force asset: $(cat err.txt)"
ln ba/manifest.jsonl manifest.link; cp ba/manifest.jsonl manifest.before
printf "UPDATE sessions SET title='Pictures' WHERE id='img';\n" > ren2.sql; "$mkdb" fa.db ren2.sql
expect_rc 0 "dry run of a rename with assets" "$txc" export --to markdown --out ba --db fa.db --dry-run
grep -q '^remove ba/img-unicode-title.md$' out.txt && grep -q "^remove $asset\$" out.txt && grep -q '^new    ba/img-pictures.md$' out.txt &&
	ok "dry run: the old document and its asset would go" || bad "dry run assets: $(cat out.txt)"
expect_rc 0 "rename with assets" "$txc" export --to markdown --out ba --db fa.db
[ ! -e ba/img-unicode-title.md ] && [ ! -e "$asset" ] && [ -s ba/img-pictures.md.assets/image-1.png ] && ok "rename: old document and asset removed, new written" ||
	bad "rename assets: $(find ba)"
cmp -s manifest.link manifest.before && grep -q '"path":"img-pictures.md"' ba/manifest.jsonl && ok "a hard-linked manifest: the other name untouched" ||
	bad "manifest link written through"

# ---- file names keep the title's letters (issue 30 item 5): Latin marks spelt in ASCII, NFC and
#      NFD alike (ü, u + U+0308: one name), other scripts kept, signs and bad bytes separate ----
cp feat.db fn.db
printf "UPDATE sessions SET title='Ünïcode Straße Æsir' WHERE id='img';\n" > fn.sql
printf "UPDATE sessions SET title='nai\314\210ve cafe\314\201 ÷ x/y' WHERE id='tools';\n" >> fn.sql
printf "UPDATE sessions SET title='東京タワー trip — Привет МИР' WHERE id='chat';\n" >> fn.sql
printf "UPDATE sessions SET title=CAST(X'6f6bff6f6b' AS TEXT) WHERE id='empty';\n" >> fn.sql
"$mkdb" fn.db fn.sql
expect_rc 0 "bulk: names of non-ASCII titles" "$txc" export --to markdown --out fnames --db fn.db
[ -s fnames/img-unicode-strasse-aesir.md ] && [ -s fnames/tools-naive-cafe-x-y.md ] &&
	[ -s "fnames/chat-東京タワー-trip-привет-мир.md" ] && [ -s fnames/empty-ok-ok.md ] &&
	ok "names: transliterated, NFD as NFC, scripts kept, a bad byte separates" || bad "names: $(ls fnames)"

# ---- the list on a terminal: cut to its width (or COLUMNS) at a character boundary; an absurd start is '-' ----
printf "CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL, title TEXT);
INSERT INTO sessions VALUES ('w1', 'cli', 1, 'Ünïcödé títlé thät is löng énough tö bé cut ät thé wïdth öf thé términäl'), ('w2', 'cli', 1e14, 'far future');" > wide.sql
"$mkdb" wide.db wide.sql || exit 1
expect_rc 0 "list of a long title on a pipe" env COLUMNS=60 "$txc" list --db wide.db
grep -q 'términäl$' out.txt && grep -q '^w2  -  ' out.txt && ok "pipe: never cut, COLUMNS ignored; absurd start shown as -" || bad "wide pipe: $(cat out.txt)"
if command -v script > /dev/null; then
	COLUMNS=60 script -q -c "$txc list --db wide.db --color never" /dev/null > tty.txt 2>&1
	grep -q 'Ünïcödé títlé thät is …' tty.txt && ! grep -q 'términäl' tty.txt && ok "terminal: COLUMNS=60 cuts the title" || bad "COLUMNS tty: $(cat tty.txt)"
	script -q -c "stty cols 50; $txc list --db wide.db --color never" /dev/null > tty.txt 2>&1
	grep -q 'Ünïcödé títlé thät i…' tty.txt && ! grep -q SOURCE tty.txt && ok "terminal: its width cuts the title" || bad "stty tty: $(cat tty.txt)"
else
	skip "list on a terminal" "no script(1)"
fi

# ---- a re-install looks at what is in the installed file: txc's lines, then Claude Code's, or a stranger's ----
cat > ct.sql <<SQL
CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL, title TEXT, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('ct', 'cli', 1, 'Titled', '$work');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('ct', 'user', 'hi', 2), ('ct', 'assistant', 'yo', 3);
SQL
"$mkdb" ct.db ct.sql || exit 1
expect_rc 0 "install a titled session" env CLAUDE_CONFIG_DIR="$work/ci" "$txc" convert ct --to claude --install --db ct.db
inst=$(sed -n 's/^installed //p' out.txt); cp "$inst" inst.orig; u=$(basename "$inst" .jsonl)
tail -n 1 inst.orig | grep -q '"type":"custom-title"' && ok "titled install ends with its custom-title line" || bad "titled install: $(tail -n 2 inst.orig)"
for v in title array partial cut foreign; do
	cp inst.orig "$inst"
	case $v in
	title) echo "{\"type\":\"custom-title\",\"sessionId\":\"$u\",\"customTitle\":\"renamed in Claude Code\"}" >> "$inst" ;;
	array) echo '[1]' >> "$inst" ;;
	partial) printf 'a line cut short' >> "$inst" ;;
	cut) head -n -1 inst.orig > "$inst" ;;
	foreign) echo '{"type":"user"}' > "$inst" ;;
	esac
	cp "$inst" inst.before
	env CLAUDE_CONFIG_DIR="$work/ci" "$txc" convert ct --to claude --install --db ct.db > out.txt 2> err.txt; rc=$?
	case $v in
	title|array|partial) [ $rc = 0 ] && grep -q '(continued in Claude Code; nothing new to add)' out.txt ;;
	cut) [ $rc = 4 ] && grep -q 'was continued in Claude Code; txc never replaces it' err.txt ;;
	foreign) [ $rc = 1 ] && grep -q 'exists and is not a session txc installed; pass --force' err.txt ;;
	esac && cmp -s "$inst" inst.before && ok "re-install over $v: said, the file kept" || bad "re-install over $v: exit $rc, $(cat out.txt err.txt)"
done

# ---- many matches, no ids and repeated ids: named by their place, each reachable ----
{ echo "CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL);"
  for i in $(seq 10 22); do echo "INSERT INTO sessions VALUES ('p$i', 'cli', $i);"; done
  echo "INSERT INTO sessions VALUES (NULL, 'cli', 50), ('', 'cli', 51), ('p10', 'cli', 52);"; } > many.sql
"$mkdb" many.db many.sql || exit 1
expect_rc 2 "a prefix of 14 sessions" "$txc" convert p --to hermes --db many.db
grep -q "'p' is the prefix of 14 sessions" err.txt && grep -q '^  \.\.\.and 4 more$' err.txt && [ "$(grep -c '^  p' err.txt)" = 10 ] &&
	ok "many matches: ten shown, the rest counted" || bad "many matches: $(cat err.txt)"
expect_rc 0 "list of ids missing and repeated" "$txc" list --db many.db
grep -q '^p10~2 ' out.txt && grep -q '^no-id~14 ' out.txt && grep -q '^no-id~15 ' out.txt &&
	grep -q 'warning: 2 sessions have no id (NULL or empty); each is named by its place: no-id~N' err.txt &&
	grep -q 'warning: 1 session repeats an id an earlier session has; each is named ID~2, ID~3, ...' err.txt && ok "odd ids: named and said" || bad "odd ids: $(cat out.txt err.txt)"
for n in "no-id~14:null" "no-id~15:\"\"" "p10~2:\"p10\""; do
	expect_rc 0 "by its place: ${n%%:*}" "$txc" convert "${n%%:*}" --to hermes --db many.db
	grep -q "^{\"id\": ${n#*:}, \"source\": \"cli\"" out.txt && ok "${n%%:*}: that session" || bad "${n%%:*}: $(cat out.txt err.txt)"
done
for n in no-id~9 p10~3; do
	expect_rc 3 "no such place: $n" "$txc" convert $n --to hermes --db many.db
	grep -q "no session '$n'" err.txt && ok "$n: not found, said" || bad "$n: $(cat err.txt)"
done

# ---- display_metadata as Hermes decodes it (an object, once or twice encoded; else null); id not the first column ----
cat > dm.sql <<'SQL'
CREATE TABLE sessions (source TEXT, started_at REAL, id TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, display_metadata TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('cli', 1, 'dm');
INSERT INTO messages (session_id, role, content, display_metadata, timestamp) VALUES ('dm', 'user', 'a', '{"k": 1}', 1),
  ('dm', 'user', 'b', '"{\"k\": 2}"', 2), ('dm', 'user', 'c', 'not json', 3), ('dm', 'user', 'd', 5, 4), ('dm', 'user', 'e', '"plain"', 5),
  ('dm', 'user', 'f', '[1]', 6);
SQL
"$mkdb" dm.db dm.sql || exit 1
expect_rc 0 "display_metadata" "$txc" export --json --db dm.db
[ "$(grep -o '"display_metadata": [^,]*' out.txt | tr '\n' ' ')" = '"display_metadata": {"k": 1} "display_metadata": {"k": 2} "display_metadata": null "display_metadata": null "display_metadata": null "display_metadata": null ' ] &&
	grep -q '^{"source": "cli", "started_at": 1.0, "id": "dm", ' out.txt && ok "display_metadata decoded; columns in their order" || bad "display_metadata: $(cut -c1-200 out.txt)"

# ---- messages: cut at the line limit; on a terminal coloured unless TERM=dumb, with NO_COLOR empty meaning unset ----
long=$(printf 'z%.0s' $(seq 1 3000))
expect_rc 3 "an id longer than a message" "$txc" convert "$long" --to hermes --db many.db
[ "$(wc -l < err.txt)" = 1 ] && [ "$(wc -c < err.txt)" -lt 1100 ] && grep -q "^txc: error: no session 'zzzz" err.txt && ok "long message: one cut line" || bad "long message: $(wc -c < err.txt) bytes"
if command -v script > /dev/null; then
	esc=$(printf '\033')
	TERM=dumb script -q -c "$txc list --db many.db" /dev/null > tty.txt 2>&1
	grep -q '^txc: warning: ' tty.txt && ! grep -q "$esc" tty.txt && ok "TERM=dumb: no colour" || bad "TERM=dumb: $(od -c tty.txt | head -3)"
	NO_COLOR= TERM=xterm script -q -c "$txc list --db many.db" /dev/null > tty.txt 2>&1
	grep -q "^txc: $esc\[1;33mwarning:" tty.txt && ok "NO_COLOR empty: coloured" || bad "NO_COLOR empty: $(od -c tty.txt | head -3)"
	TERM=xterm script -q -c "$txc convert p --to hermes --db many.db" /dev/null > tty.txt 2>&1
	grep -q "^txc: $esc\[1;31merror: $esc\[m'p' is the prefix of 14 sessions" tty.txt && grep -q '^  p10~2' tty.txt && ok "terminal: the error and its candidates" || bad "tty hint: $(cat tty.txt)"
else
	skip "messages on a terminal" "no script(1)"
fi

# ---- export: --json with each filter selects what list selects; bulk with --images inline/omit and --include-compacted ----
for f in "--since 2020-01-01" "--until 2030-01-01" "--model gpt" "--cwd /" "--title a" "--order recent"; do
	expect_rc 0 "export --json $f" "$txc" export --json $f --db feat.db
	n=$("$txc" list --json $f --db feat.db | grep -c '"id"')
	[ "$(wc -l < out.txt)" = "$n" ] && [ "$n" -ge 1 ] && ok "export --json $f: the $n sessions list selects" || bad "export --json $f: $(wc -l < out.txt) vs $n"
done
for args in "--json --to markdown" "--json --out d"; do expect_rc 2 "export usage: $args" "$txc" export $args --db feat.db; one_line_err "export usage: $args"; done
expect_rc 0 "bulk --images inline" "$txc" export --to markdown --out bi --images inline --db feat.db
grep -q '](data:image/png;base64,' bi/img-unicode-title.md && [ ! -e bi/img-unicode-title.md.assets ] && ok "bulk --images inline: no assets" || bad "bulk inline: $(ls bi)"
expect_rc 0 "bulk --images omit --include-compacted" "$txc" export --to markdown --out bo --images omit --include-compacted --db feat.db
grep -qF '*[image 1: image/png omitted]*' bo/img-unicode-title.md && [ ! -e bo/img-unicode-title.md.assets ] && ok "bulk --images omit" || bad "bulk omit: $(ls bo)"
if command -v script > /dev/null; then
	script -q -c "$txc export --to hermes --out many-out --db many.db" /dev/null > tty.txt 2>&1
	grep -q '\[##############################\] 16/16 sessions' tty.txt && grep -q 'exported 16 sessions to many-out: 16 new' tty.txt &&
		ok "progress bar to the end on a terminal" || bad "progress: $(tr '\r' '\n' < tty.txt | tail -3)"
else
	skip "progress bar on a terminal" "no script(1)"
fi

# ---- more source rules: one source only; a profile whose state.db is a folder is skipped; HERMES_HOME empty is unset ----
mkdir -p h3/profiles/dirdb/state.db h3/profiles/ok && cp min.db h3/profiles/ok/state.db
expect_rc 0 "--all-profiles skips a state.db folder" "$txc" list --home h3 --all-profiles
grep -q '^ok  *m1 ' out.txt && ! grep -q dirdb out.txt && ok "state.db folder: not a profile" || bad "state.db folder: $(cat out.txt err.txt)"
for args in "--input x.jsonl --remote http://127.0.0.1:1" "--db min.db --home h3" "--input x.jsonl --all-profiles"; do
	expect_rc 2 "two sources: $args" "$txc" list $args
	grep -q 'give one source' err.txt && ok "two sources: $args: said" || bad "two sources $args: $(cat err.txt)"
done
for p in a.b aB; do expect_rc 2 "profile name '$p'" "$txc" list --home h3 --profile "$p"; done
for p in a_b-c z9; do
	expect_rc 3 "valid profile name '$p'" "$txc" list --home h3 --profile $p
	grep -q "no Hermes store at 'h3/profiles/$p/state.db'" err.txt && ok "'$p' is a valid name" || bad "$p: $(cat err.txt)"
done
expect_rc 3 "profile name starting with a digit" "$txc" list --home h3 --profile 0ok
grep -q "no Hermes store at 'h3/profiles/0ok/state.db'" err.txt && ok "a digit first is a valid name" || bad "0ok: $(cat err.txt)"
expect_rc 0 "HERMES_HOME empty" env HERMES_HOME= HOME="$work/u" "$txc" list
grep -q '^m1 ' out.txt && ok "HERMES_HOME empty: ~/.hermes" || bad "HERMES_HOME empty: $(cat out.txt err.txt)"

# ---- a large Markdown document to a terminal: characters split across writes arrive whole ----
python3 -c "
print(\"CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL); INSERT INTO sessions VALUES ('big', 'cli', 1);\")
print(\"CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);\")
print(\"INSERT INTO messages (session_id, role, content, timestamp) VALUES ('big', 'user', '%s', 2);\" % ('é€😀' * 30000))" > bigu.sql
"$mkdb" bigu.db bigu.sql || exit 1
if command -v script > /dev/null; then
	script -q -c "$txc convert big --to markdown --db bigu.db" /dev/null > tty.txt 2>&1
	[ "$(grep -o 'é€😀' tty.txt | wc -l)" = 30000 ] && ! grep -q '\\x\|\\u' tty.txt && ok "terminal: 90,000 multibyte characters whole" || bad "terminal split characters"
else
	skip "a large document to a terminal" "no script(1)"
fi

# ---- a full disk (a 64 KiB tmpfs, when this user may mount one): one clear error, nothing half-written left ----
full=$(mktemp -d /tmp/txc-full-XXXXXX)
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$full" 2> /dev/null; then
	expect_rc 1 "-o on a full disk" "$txc" convert big --to markdown --db bigu.db -o "$full/x.md"
	grep -qF "cannot write to $full/x.md: No space left on device" err.txt && [ -z "$(ls -A "$full")" ] && ok "-o full disk: said, nothing left" || bad "-o full: $(cat err.txt; ls -A "$full")"
	expect_rc 1 "bulk on a full disk" "$txc" export --to markdown --out "$full/bulk" --db bigu.db
	grep -qF "cannot write '$full/bulk/big.md': No space left on device" err.txt && [ -z "$(ls -A "$full/bulk")" ] && ok "bulk full disk: said, nothing left" || bad "bulk full: $(cat err.txt; ls -A "$full/bulk")"
	expect_rc 1 "install on a full disk" env CLAUDE_CONFIG_DIR="$full/claude" "$txc" convert big --to claude --install --db bigu.db
	grep -q "No space left on device" err.txt && [ -z "$(find "$full/claude" -type f)" ] && ok "install full disk: said, nothing left" || bad "install full: $(cat err.txt)"
	umount "$full"
else
	skip "a full disk" "cannot mount a tmpfs here"
fi
rmdir "$full"

# ---- sessions without a source or a start: listed last, never matched by --source, ordered by recency too ----
printf "CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL, last_activity_at REAL);
INSERT INTO sessions VALUES ('n1', NULL, NULL, NULL), ('n2', 'cli', 5, NULL), ('n3', 'cl', 6, 7), ('n4', 'cli', NULL, 8);" > ns.sql
"$mkdb" ns.db ns.sql || exit 1
order() { sed -n 's/^\(n[0-9]\) .*/\1/p' out.txt | tr '\n' ' '; }
expect_rc 0 "no source, no start" "$txc" list --db ns.db
[ "$(order)" = "n3 n2 n4 n1 " ] && grep -q '^n1  -  *-  ' out.txt && ok "unknown starts last, shown as -" || bad "no start: $(cat out.txt)"
expect_rc 0 "--source is exact" "$txc" list --db ns.db --source cli
[ "$(order)" = "n2 n4 " ] && ok "--source cli: not cl, not NULL" || bad "--source: $(cat out.txt)"
expect_rc 0 "--order recent with unknowns" "$txc" list --db ns.db --order recent
[ "$(order)" = "n4 n3 n2 n1 " ] && ok "--order recent: by last activity, unknown last" || bad "--order recent: $(cat out.txt)"

# ---- a title with line separators, bidi embeddings and isolates, DEL and C1 on a terminal: shown escaped ----
python3 -c "
t = 'a\u2028b\u2029c\u202ad\u2066e\u2069f\x7fg\u0085h'
print(\"CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL, title TEXT); INSERT INTO sessions VALUES ('bd', 'cli', 1, '%s');\" % t)" > bd.sql
"$mkdb" bd.db bd.sql || exit 1
if command -v script > /dev/null; then
	script -q -c "$txc list --db bd.db --color never" /dev/null > tty.txt 2>&1
	grep -qF 'a\u2028b\u2029c\u202ad\u2066e\u2069f\x7fg\u0085h' tty.txt && ok "terminal: separators, bidi and controls escaped" || bad "terminal escapes: $(cat -v tty.txt)"
else
	skip "escapes on a terminal" "no script(1)"
fi


# ---- more --since spellings that are not dates, profile names by character, more artifact paths ----
for w in "2026-09-00" "2026-09-14Tab:00" "2026-09-14T1:000" "2026-09-14T10:15:-1" "2026-09-14T00:00Zx"; do
	expect_rc 2 "bad --since '$w'" env TZ=UTC "$txc" list --db eq.db --since "$w"
	grep -q -- "--since takes a date.*not '$w'" err.txt && ok "bad --since '$w': said" || bad "bad --since '$w': $(cat err.txt)"
done
expect_rc 0 "--since with a space and seconds" env TZ=UTC "$txc" list --db eq.db --since "2026-09-13 23:59:59"
[ "$(n_listed)" = 3 ] && ok "--since 'date time:ss': before the instant" || bad "--since space: $(cat out.txt)"
for p in "{x" "a{" "aB" "a.b" "a/b" "a:" "@a"; do
	expect_rc 2 "profile name '$p'" "$txc" list --home u/.hermes --profile "$p"
	grep -q "profile" err.txt && ok "profile name '$p': said" || bad "profile '$p': $(cat err.txt)"
done
expect_rc 3 "profile name of digits, _ and -" "$txc" list --home u/.hermes --profile "9_-z"
grep -q "9_-z" err.txt && ok "profile '9_-z' is a valid name, looked for" || bad "profile 9_-z: $(cat err.txt)"
cat > art3.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('chk3', 'cli', 1, '$work/art');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('chk3', 'assistant',
 '[h](file://$work/art/re%6c.txt) [i](file://$work/art/r%.el.txt) [l](c:/low/p.pdf) [n](\\\\srv\\s\\q.pdf)', 2);
SQL
"$mkdb" art3.db art3.sql || exit 1
expect_rc 0 "artifacts --check: lowercase escapes, a bare %, other systems' paths" "$txc" artifacts chk3 --db art3.db --check --color never
for want in "file://$work/art/re%6c.txt  ok (file, 0 bytes)" "file://$work/art/r%.el.txt  missing" "c:/low/p.pdf  not checkable on this system" \
	'\\srv\s\q.pdf  not checkable on this system'; do
	grep -qF -- "$want" out.txt && ok "--check: $want" || bad "--check: missing '$want' in $(cat out.txt)"
done

# ---- export file names: the title slug stops at 48 bytes; braces and tildes separate words, Ü is u ----
cat > slug.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('t1', 'cli', 1, 'Fix {the} ~parser~ in Über-module, then write the release notes for version 2 and more'),
 ('t2', 'cli', 2, '~~~');
INSERT INTO messages VALUES (1, 't1', 'user', 'hi', 1), (2, 't2', 'user', 'hi', 2);
SQL
"$mkdb" slug.db slug.sql || exit 1
expect_rc 0 "export of long and symbol-only titles" "$txc" export --to markdown --out slug --db slug.db
[ -f slug/t1-fix-the-parser-in-uber-module-then-write-the-re.md ] && [ -f slug/t2.md ] && [ "$(ls slug | wc -l)" = 3 ] &&
	ok "slugs: 48 bytes at most, symbols dropped" || bad "slugs: $(ls slug)"

# ---- usage: a short option with more after it, a --limit past int64, a --limit above the count, two sources ----
expect_rc 2 "a short option with letters after it" "$txc" list -hx
grep -q "unknown option '-hx'" err.txt && ok "-hx: unknown option said" || bad "-hx: $(cat err.txt)"
expect_rc 2 "--limit out of range" "$txc" list --db eq.db --limit 99999999999999999999
grep -q -- "--limit takes a positive number, not '99999999999999999999'" err.txt && ok "--limit overflow: said" || bad "--limit overflow: $(cat err.txt)"
expect_rc 0 "--limit above the number of sessions" "$txc" list --db eq.db --limit 10
[ "$(n_listed)" = 3 ] && ! grep -q 'more' err.txt && ok "--limit 10 of 3: all three, nothing more said" || bad "--limit 10: $(cat out.txt err.txt)"
expect_rc 2 "list with two sources named" "$txc" list hermes extra --db eq.db
grep -q "unknown source 'extra'" err.txt && ok "two sources: the unknown one named" || bad "two sources: $(cat err.txt)"

expect_rc 0 "--cwd with dot-names" "$txc" list --db eq.db --cwd /repo/.x/../sub/.y/..
[ "$(grep -c '^eq_' out.txt)" = 1 ] && grep -q '^eq_b ' out.txt && ok "--cwd /repo/.x/../sub/.y/.. is /repo/sub" || bad "--cwd dot-names: $(cat out.txt)"

# ---- --input - is kept in a temporary file: TMPDIR missing is one error line, TMPDIR empty means /tmp ----
expect_rc 1 "--input - with TMPDIR missing" sh -c "TMPDIR='$work/no-such-tmp' '$txc' export --json --input - < feat.jsonl"
[ ! -s out.txt ] && grep -q '^txc: error: cannot keep standard input in a temporary file: No such file' err.txt &&
	ok "TMPDIR missing: said, nothing written" || bad "TMPDIR missing: $(cat err.txt)"
mkdir -p tmpd
for t in "" "$work/tmpd"; do
	expect_rc 0 "--input - with TMPDIR='$t'" sh -c "TMPDIR='$t' '$txc' export --json --input - < feat.jsonl"
	cmp -s out.txt feat.jsonl && [ -z "$(ls tmpd)" ] && ok "TMPDIR='$t': the export, no file left" || bad "TMPDIR='$t': $(cat err.txt)"
done
# standard input that cannot be read (a directory) is an error, not an empty export
expect_rc 1 "--input - from a directory" sh -c "'$txc' list --input - < ."
[ ! -s out.txt ] && grep -q '^txc: error: cannot read standard input' err.txt && [ "$(wc -l < err.txt)" = 1 ] &&
	ok "stdin a directory: one error line" || bad "stdin a directory: $(cat out.txt err.txt)"

# ---- --follow of a session deleted from its store: one error line naming it, exit 3 (it polled forever) ----
# (a poll that fails, or a store put in place without the session, keeps polling: view-tests 5f)
if command -v sqlite3 > /dev/null 2>&1; then
	cat > fdel.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, model TEXT, started_at REAL, ended_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('gone', 'cli', 'm', 1767225600, NULL);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('gone', 'user', 'hello', 1767225600);
SQL
	"$mkdb" fdel.db fdel.sql || exit 1
	timeout 20 "$txc" convert gone --to markdown --follow --interval 0.1 --db fdel.db > fdel.out 2> fdel.err &
	pid=$!
	i=0; while ! grep -q hello fdel.out && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	sqlite3 fdel.db "DELETE FROM messages; DELETE FROM sessions;"
	wait $pid; r=$?
	[ $r = 3 ] && [ "$(cat fdel.err)" = "txc: error: the session 'gone' is no longer in 'fdel.db' (deleted); stopped following" ] &&
		ok "--follow of a deleted session stops, exit 3" || bad "--follow of a deleted session: exit $r, $(cat fdel.err)"
else
	skip "--follow of a deleted session" "sqlite3 is not installed"
fi

summary edges
[ "$fails" = 0 ]
