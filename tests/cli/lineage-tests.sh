#!/bin/sh
# Whole conversations (issue 13, Lineage and Delegated work): `convert --lineage` over compression
# chains (1, 2 and 5 segments, a branch, a stale sibling, a cycle, a missing parent), delegate
# children (`--children`: nested Markdown, Claude Code subagent files), in-place compaction as
# Claude Code compact_boundary records, `list --tree` and the lineage fields of `list --json`.
# Goldens: tests/golden/lineage/CASES (UPDATE=1 rewrites them).  Hermes's own logical-lineage
# export of the current-schema chain is compared byte for byte, its Markdown by content.
# usage: lineage-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
command -v python3 > /dev/null || { echo "lineage-tests: python3 is required"; exit 1; }
"$mkdb" lineage.db "$src/fixtures/lineage.sql" || exit 1
db=$work/lineage.db gold=$src/golden/lineage

# --- goldens, every format (from /, as run-golden.sh does) ---
n_cases=0
while read -r f s args; do
	case $f in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2086 # ARGS are words by design
	(cd / && "$txc" convert "$s" --db "$db" $args > "$work/$f" 2> "$work/$f.err") ||
		bad "golden $f: $s $args exited $?"
	[ "${UPDATE:-0}" = 1 ] && cp "$work/$f" "$gold/$f"
	cmp -s "$gold/$f" "$work/$f" && ok "golden $f ($s $args)" || { bad "golden $f ($s $args)"; diff -u "$gold/$f" "$work/$f" | head -30; }
	n_cases=$((n_cases + 1))
done < "$gold/CASES"
[ "$n_cases" -ge 24 ] && ok "$n_cases golden cases" || bad "only $n_cases golden cases read"
json_ok "$work"/*.claude.jsonl "$work"/*.hermes.jsonl && ok "golden JSON strict" || bad "golden JSON not strict"

# --- the chain a person expects: every member of five gives the same conversation ---
for s in five_1 five_2 five_4 five_5; do
	expect_rc 0 "five from $s" "$txc" convert "$s" --db "$db" --to markdown --utc --lineage
	cmp -s out.txt "$work/five.lineage.md" && ok || bad "five from $s differs from five from five_3"
done
# a prefix names the chain too
expect_rc 0 "prefix orphan_n" "$txc" convert orphan_n --db "$db" --to markdown --utc --lineage
cmp -s out.txt "$work/orphan.lineage.md" && ok || bad "prefix orphan_n: not the orphan chain"
# the delegate child started before five_3 does not hijack the chain (Hermes's lineage walk would)
grep -q '^  - "five_2_sub"' "$work/five.lineage.md" && bad "five: the delegate child is in the chain" || ok "five: delegate not in chain"
grep -q '^  - "five_3_br"\|^  - "five_4_stale"' "$work/five.lineage.md" && bad "five: branch or stale sibling in chain" || ok "five: no branch, no stale sibling"
# the stale sibling asked for by name: its own history, the chain up to it
[ "$(sed -n '/^lineage:/,/^tokens:/p' "$work/stale.lineage.md" | grep -c '^  - ')" = 5 ] && grep -q '^  - "five_4_stale"' "$work/stale.lineage.md" &&
	ok "stale sibling: root to it" || bad "stale sibling chain: $(grep '^  - ' "$work/stale.lineage.md" | tr '\n' ' ')"
# a branch is a chain of its own
[ "$(grep -c '^  - ' "$work/branch.lineage.md")" = 1 ] && ok "branch: its own" || bad "branch joined a chain"

# --- warnings: one line each, exit 0; none for a sound chain ---
for f in five.lineage.md two.lineage.md solo.lineage.md dp.children.md; do
	[ -s "$work/$f.err" ] && bad "$f: unexpected stderr: $(cat "$work/$f.err")" || ok "$f: no warning"
done
for f in cycle.lineage.md cycle.lineage.claude.jsonl cycle.lineage.hermes.jsonl; do
	[ "$(wc -l < "$work/$f.err")" = 1 ] && grep -q '^txc: warning: the compression chain of cyc_a loops (its parent links form a cycle): it is cut to start at cyc_b$' "$work/$f.err" &&
		ok "$f: cycle warned once" || bad "$f: cycle warning: $(cat "$work/$f.err")"
done
[ "$(grep -c '^  - ' "$work/cycle.lineage.md")" = 3 ] && ok "cycle: each member once" || bad "cycle: members $(grep -c '^  - ' "$work/cycle.lineage.md")"
for f in orphan.lineage.md orphan.lineage.claude.jsonl orphan.lineage.hermes.jsonl; do
	[ "$(wc -l < "$work/$f.err")" = 1 ] && grep -q '^txc: warning: the parent session gone_session of orphan is not in the store: the chain starts at orphan$' "$work/$f.err" &&
		ok "$f: missing parent warned once" || bad "$f: missing-parent warning: $(cat "$work/$f.err")"
done
# a cycle of three, asked from each member: it ends (a timeout would fail the test)
for s in cyc_a cyc_b cyc_c; do
	expect_rc 0 "cycle from $s" timeout 10 "$txc" convert "$s" --db "$db" --to claude --lineage
	[ "$(grep -c compact_boundary out.txt)" = 2 ] && ok || bad "cycle from $s: $(grep -c compact_boundary out.txt) boundaries"
done

# an export file gives the same chains as the store
"$txc" export --json --db "$db" --hermes-format 0.20 > lineage.jsonl
for c in "five_3 five.lineage.md --to markdown --utc" "cyc_a cycle.lineage.hermes.jsonl --to hermes --hermes-format 0.20" "orphan orphan.lineage.claude.jsonl --to claude"; do
	# shellcheck disable=SC2086 # words by design
	set -- $c
	s=$1 f=$2; shift 2
	(cd / && "$txc" convert "$s" --input "$work/lineage.jsonl" "$@" --lineage > "$work/in.out" 2> /dev/null)
	cmp -s in.out "$work/$f" && ok "--input: $f" || bad "--input: $f differs"
done

# --- without --lineage nothing changes: the one session, no segments ---
expect_rc 0 "two_b alone" "$txc" convert two_b --db "$db" --to markdown --utc
grep -q '^## Segment\|^lineage:' out.txt && bad "two_b alone has segments" || ok
expect_rc 0 "two_a alone claude" "$txc" convert two_a --db "$db" --to claude
grep -q compact_boundary out.txt && bad "two_a alone has a boundary" || ok
expect_rc 0 "two_a alone hermes" "$txc" convert two_a --db "$db" --to hermes
grep -q '"segments"' out.txt && bad "two_a alone has segments" || ok

# --- Claude Code records: boundaries where the chain continues, the chain restarting there ---
python3 - "$work/five.lineage.claude.jsonl" "$work/inplace.compacted.claude.jsonl" > py.txt 2>&1 <<'PY' && ok "claude boundaries" || bad "claude boundaries: $(cat py.txt)"
import json, sys
for path, want in zip(sys.argv[1:], (4, 1)):
    recs = [json.loads(l) for l in open(path)]
    prev, seen = None, 0
    for i, r in enumerate(recs):
        if r.get("type") not in ("user", "assistant", "system"):
            continue
        if r.get("subtype") == "compact_boundary":
            seen += 1
            assert r["parentUuid"] is None and r["logicalParentUuid"] == prev, (path, i)
            assert r["compactMetadata"]["trigger"] == "auto" and r["compactMetadata"]["preTokens"] > 0
            nxt = recs[i + 1]
            assert nxt["isCompactSummary"] is True and nxt["parentUuid"] == r["uuid"], (path, i)
            assert "[CONTEXT COMPACTION]" in nxt["message"]["content"]
        elif prev is not None:
            assert r["parentUuid"] == prev, (path, i)
        prev = r["uuid"]
    assert seen == want, (path, seen)
PY
# in-place compaction without --include-compacted: as before, archived rows not written
grep -q 'First question' "$work/inplace.claude.jsonl" && bad "inplace: archived rows written" || ok "inplace: archived rows left out"
grep -q 'First question' "$work/inplace.compacted.claude.jsonl" && ok "inplace --include-compacted: archived rows kept" || bad "inplace --include-compacted: archived rows missing"
# a chain is one Claude session keyed on its root: the same from every member, not the root's own id
s1=$(sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' "$work/five.lineage.claude.jsonl" | sort -u)
"$txc" convert five_5 --db "$db" --to claude --lineage | sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' | sort -u > sid5.txt
"$txc" convert five_1 --db "$db" --to claude | sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' | sort -u > sid1.txt
[ "$(echo "$s1" | wc -l)" = 1 ] && [ "$s1" = "$(cat sid5.txt)" ] && [ "$s1" != "$(cat sid1.txt)" ] &&
	ok "claude: one session id for the chain" || bad "claude session ids: $s1 / $(cat sid5.txt) / $(cat sid1.txt)"

# --- Hermes's logical-lineage shape: checked against Hermes's own export_session_lineage ---
"$mkdb" cs.db "$src/golden/current-schema/state.sql" || exit 1
expect_rc 0 "current-schema chain hermes" "$txc" convert 20250615_145221_ef000b --db cs.db --to hermes --lineage --hermes-format 0.20
cmp -s out.txt "$gold/current-schema-chain.hermes.jsonl" && ok "hermes --lineage = Hermes's export_session_lineage, byte for byte" ||
	bad "hermes --lineage differs from Hermes's export_session_lineage"
for s in 20250615_142820_79be38 20250615_150700_db2471 20250615_1507; do
	expect_rc 0 "chain from $s" "$txc" convert "$s" --db cs.db --to hermes --lineage --hermes-format 0.20
	cmp -s out.txt "$gold/current-schema-chain.hermes.jsonl" && ok || bad "chain from $s differs"
done
# Markdown: the same segments and texts as Hermes's md-export --lineage logical
expect_rc 0 "current-schema chain markdown" "$txc" convert 20250615_145221_ef000b --db cs.db --to markdown --utc --lineage --detail full
mv out.txt cs.md
python3 "$src/tools/md-lineage-compare.py" "$gold/current-schema-chain.oracle.md" cs.md > py.txt 2>&1 && ok "markdown content = Hermes's md-export --lineage logical ($(tail -1 py.txt))" ||
	bad "markdown content: $(cat py.txt)"
# the comparison can fail: a text dropped from txc's output is found
awk '!/Summarise what changed between v43.6/' cs.md > cs-cut.md
python3 "$src/tools/md-lineage-compare.py" "$gold/current-schema-chain.oracle.md" cs-cut.md > py.txt 2>&1 && bad "the comparison missed a dropped text" || ok "the comparison sees a dropped text"

# --- delegate children ---
grep -q '^\*Subagent session\* `dp_kid` — Find the bug$' "$work/dp.lineage.md" && ok "dp: link line by default" || bad "dp: no link line"
grep -q 'off by one at line 3$' "$work/dp.lineage.md" && bad "dp: child's transcript without --children" || ok
awk '/^\*\*delegate\\_task\*\*/ { c = NR } /^<details><summary>Subagent session dp\\_kid · Find the bug · 4 messages<\/summary>$/ { if (c) ok = 1 } END { exit !ok }' "$work/dp.children.md" &&
	ok "dp --children: nested under the call" || bad "dp --children: not nested under the delegate call"
grep -q '^Reading x.c.$' "$work/dp.children.md" && ok "dp --children: the child's turns" || bad "dp --children: child turns missing"
grep -q 'Subagent session\* `five_2_sub`\|Subagent session five\\_2\\_sub' "$work/five.children.md" && ok "five: child of a segment placed" || bad "five: child of five_2 missing"
# Claude Code: a subagent file beside the session, isSidechain records; stdout cannot hold it
expect_rc 2 "claude --children on stdout" "$txc" convert dp --db "$db" --to claude --children
one_line_err "claude --children on stdout"
expect_rc 0 "claude --children -o" "$txc" convert dp --db "$db" --to claude --children -o "$work/dp.jsonl"
sub=$(ls "$work"/dp/subagents/agent-a*.jsonl 2> /dev/null)
[ "$(echo "$sub" | wc -w)" = 1 ] && ok "one subagent file" || bad "subagent files: $sub"
python3 - "$work/dp.jsonl" "$sub" > py.txt 2>&1 <<'PY' && ok "subagent records" || bad "subagent records: $(cat py.txt)"
import json, os, re, sys
main = [json.loads(l) for l in open(sys.argv[1])]
sub = [json.loads(l) for l in open(sys.argv[2])]
agent = re.match(r"agent-(a[0-9a-f]{16})\.jsonl$", os.path.basename(sys.argv[2])).group(1)
sid = main[0]["sessionId"]
assert os.path.basename(os.path.dirname(os.path.dirname(sys.argv[2]))) == "dp"
assert all(r["isSidechain"] is True and r["agentId"] == agent and r["sessionId"] == sid for r in sub)
assert not any(r.get("isSidechain") for r in main if "isSidechain" in r)
assert sub[0]["parentUuid"] is None and all(sub[i]["parentUuid"] == sub[i - 1]["uuid"] for i in range(1, len(sub)))
uu = {r["uuid"] for r in main if "uuid" in r}
assert not uu & {r["uuid"] for r in sub}, "record uuids shared with the parent"
assert any(b.get("type") == "tool_use" and b["name"] == "delegate_task" for r in main for b in (r.get("message") or {}).get("content", []) if isinstance(b, dict))
PY
json_ok "$work/dp.jsonl" "$sub" && ok || bad "subagent JSON"
cp "$sub" sub.before
expect_rc 0 "claude --children -o again" "$txc" convert dp --db "$db" --to claude --children -o "$work/dp.jsonl" --force
cmp -s sub.before "$sub" && ok "subagent file: same bytes again" || bad "subagent file changed"
# --install: <project>/<sessionId>/subagents/agent-<id>.jsonl under $CLAUDE_CONFIG_DIR
mkdir -p cfg
expect_rc 0 "install --children" env CLAUDE_CONFIG_DIR="$work/cfg" "$txc" convert dp --db "$db" --to claude --children --install
uuid=$(sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' "$work/dp.jsonl" | head -1)
proj=$(ls cfg/projects)
# (the session's cwd /d does not exist here: installed for the current directory)
[ -s "cfg/projects/$proj/$uuid.jsonl" ] && ls "cfg/projects/$proj/$uuid/subagents/"agent-a*.jsonl > /dev/null 2>&1 &&
	ok "install --children: session and subagent file" || bad "install --children: $(find cfg -type f)"
# a chain installed --as-new is another session, and again the same one
expect_rc 0 "install --lineage" env CLAUDE_CONFIG_DIR="$work/cfg" "$txc" convert five_2 --db "$db" --to claude --lineage --install
expect_rc 0 "install --lineage --as-new" env CLAUDE_CONFIG_DIR="$work/cfg" "$txc" convert five_2 --db "$db" --to claude --lineage --install --as-new
grep -q '^installed ' out.txt && ok || bad "--as-new: $(cat out.txt)"
expect_rc 0 "install --lineage --as-new again" env CLAUDE_CONFIG_DIR="$work/cfg" "$txc" convert five_4 --db "$db" --to claude --lineage --install --as-new
grep -q '^unchanged ' out.txt && ok || bad "--as-new again: $(cat out.txt)"
[ "$(ls cfg/projects/*/ | grep -c '\.jsonl$')" = 3 ] && ok "three sessions installed" || bad "installed: $(ls cfg/projects/*/)"
# --children is refused where it means nothing
expect_rc 2 "hermes --children" "$txc" convert dp --db "$db" --to hermes --children
grep -q '^txc: error: --children does not apply to --to hermes' err.txt && ok || bad "hermes --children: $(cat err.txt)"

# --- list --tree and list --json ---
expect_rc 0 "list --tree" "$txc" list --db "$db" --tree --utc
[ "${UPDATE:-0}" = 1 ] && cp out.txt "$gold/list.tree.txt"
cmp -s out.txt "$gold/list.tree.txt" && ok "list --tree golden" || { bad "list --tree golden"; diff -u "$gold/list.tree.txt" out.txt | head -30; }
expect_rc 0 "list --json" "$txc" list --db "$db" --json
json_ok out.txt && ok || bad "list --json not strict JSON"
python3 - out.txt > py.txt 2>&1 <<'PY' && ok "list --json lineage fields" || bad "list --json: $(cat py.txt)"
import json, sys
rows = {r["id"]: r for r in json.load(open(sys.argv[1]))}
want = {"five_3": ("five_2", "five_1", "five_5"), "five_1": (None, "five_1", "five_5"), "two_a": (None, "two_a", "two_b"),
        "five_3_br": ("five_3", "five_3_br", "five_3_br"), "dp_kid": ("dp", "dp_kid", "dp_kid"),
        "orphan_next": ("orphan", "orphan", "orphan_next"), "cyc_a": ("cyc_c", "cyc_b", "cyc_a"), "solo": (None, "solo", "solo"),
        "five_4_stale": ("five_4", "five_1", "five_4_stale")}
for k, (p, r, t) in want.items():
    got = (rows[k]["parent_session_id"], rows[k]["lineage_root"], rows[k]["lineage_tip"])
    assert got == (p, r, t), (k, got)
assert all(set(("parent_session_id", "lineage_root", "lineage_tip")) <= set(r) for r in rows.values())
PY
# an old schema without parent_session_id: the fields are there all the same
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1
expect_rc 0 "list --json old schema" "$txc" list --db feat.db --json
python3 -c 'import json,sys; rows=json.load(open(sys.argv[1])); assert rows and all(r["parent_session_id"] is None and r["lineage_root"] == r["id"] == r["lineage_tip"] for r in rows)' out.txt &&
	ok "old schema: parent null, root and tip itself" || bad "old schema lineage fields"

# --- html and terminal: the same segments and children as markdown (render.h segment / child) ---
h=$work/five.children.html
[ "$(grep -c '^<h2 class="segment" id="seg[1-5]"><a href="#seg[1-5]">Segment [1-5] of 5</a> · <code>five_[1-5]</code> · ' "$h")" = 5 ] &&
	grep -q '^<h2 class="segment" id="seg2"><a href="#seg2">Segment 2 of 5</a> · <code>five_2</code> · after compression at 2026-01-06 11:48:20 UTC</h2>$' "$h" &&
	ok "html: five segment headings, reason and time" || bad "html: segment headings: $(grep -c 'class="segment"' "$h")"
grep -q '^<dt>Lineage</dt><dd><a href="#seg1"><code>five_1</code></a> → .*<a href="#seg5"><code>five_5</code></a></dd>$' "$h" &&
	ok "html: the chain in the page header" || bad "html: no Lineage fact"
for f in five.children.html two.lineage.html dp.children.html cycle.lineage.html; do
	d=$(grep -o ' id="[^"]*"' "$work/$f" | sort | uniq -d)
	[ -z "$d" ] && ok "html $f: ids unique" || bad "html $f: duplicate ids: $d"
done
awk '/<div class="tool" data-tool="delegate_task">/ { c = 1 } /^<details class="child"><summary>Subagent session <code>dp_kid<\/code> · Find the bug · 4 messages<\/summary>$/ { if (c) k = 1 }
	k && /<section class="msg assistant" id="c1-m2"/ { s = 1 } s && /^<\/details>$/ { e = 1 } END { exit !e }' "$work/dp.children.html" &&
	ok "html --children: the child's turns in <details> under the call" || bad "html --children: not nested under the call"
grep -q '^<p class="note child">Subagent session <code>dp_kid</code> — Find the bug</p>$' "$work/dp.lineage.html" &&
	! grep -q 'id="c1-m' "$work/dp.lineage.html" && ok "html: a link line without --children" || bad "html: no link line for dp_kid"
nb=$(printf '\302\240') # the terminal writer's separator is a no-break space and a dot
[ "$(grep -c "^══ Segment [1-5] of 5$nb· five_[1-5] ═*\$\\|^══ Segment 1 of 5$nb· five_1$nb· started" "$work/five.children.txt")" = 5 ] &&
	grep -q '^   after compression at 2026-01-06 11:48:20 UTC$' "$work/five.children.txt" &&
	ok "terminal: five ruled segment lines, reason and time" || bad "terminal: segment lines"
grep -q "^══ Segment 2 of 2$nb· two_b$nb· after compression at 2026-01-05 08:18:20 UTC ═*\$" "$work/two.lineage.txt" &&
	ok "terminal: one segment line at 80 columns" || bad "terminal: two segment line"
grep -q '^  ↳ subagent session dp_kid — Find the bug$' "$work/dp.lineage.txt" && ! grep -q 'Reading x.c' "$work/dp.lineage.txt" &&
	ok "terminal: a link line without --children" || bad "terminal: no link line"
grep -q '^  ┃   Reading x.c.$' "$work/dp.children.txt" && grep -q "^  ↳ subagent session dp_kid$nb· Find the bug$nb· 4 messages\$" "$work/dp.children.txt" &&
	ok "terminal --children: the child indented under the call" || bad "terminal --children: child block missing"
expect_rc 0 "view --children" env TXC_PAGER=cat "$txc" view dp --db "$db" --children --utc
cmp -s out.txt "$work/dp.children.txt" && ok "view --children = convert --to terminal --children" || bad "view --children differs"
# everything from the store escaped: a hostile segment id and child title
cp "$db" hostile.db
python3 - hostile.db <<'PY' || bad "hostile db"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
bad = "two_a\x1b[2J<b>x</b>\u202e"
c.execute("UPDATE sessions SET id=? WHERE id='two_a'", (bad,))
c.execute("UPDATE sessions SET parent_session_id=? WHERE id='two_b'", (bad,))
c.execute("UPDATE messages SET session_id=? WHERE session_id='two_a'", (bad,))
c.execute("UPDATE sessions SET title=? WHERE id='dp_kid'", ("Find <script>alert(1)</script>\x1b[31m\u202e",))
c.commit()
PY
for s in two_b dp; do
	"$txc" convert $s --db hostile.db --to html --lineage --children > h.html 2> /dev/null
	"$txc" convert $s --db hostile.db --to terminal --lineage > h.txt 2> /dev/null
	"$txc" convert $s --db hostile.db --to terminal --lineage --children >> h.txt 2> /dev/null
	grep -q "<b>\\|<script>alert\\|$(printf '\033')\\|‮" h.html && bad "html $s: store text raw" || ok "html $s: store text escaped"
	grep -q '&lt;b&gt;x\|&lt;script&gt;' h.html && ok || bad "html $s: the hostile text is missing"
	grep -q "$(printf '\033')\|‮" h.txt && bad "terminal $s: a control raw" || ok "terminal $s: controls escaped"
	grep -q 'two_a\\x1b\[2J<b>x</b>\\u202e\|Find <script>alert(1)</script>\\x1b\[31m\\u202e' h.txt && ok || bad "terminal $s: the hostile text is missing"
done

# --- failures and odd stores (issue 18): each said in one line, nothing written ---
expect_rc 3 "--lineage: no such session" "$txc" convert nosuch --db "$db" --to markdown --lineage
[ "$(cat err.txt)" = "txc: error: no session 'nosuch' in '$db' (see 'txc list')" ] && [ ! -s out.txt ] && ok || bad "nosuch --lineage: $(cat err.txt)"
# a part of the chain or a child that cannot be read (a row SQLite fails on): exit 1, no partial output
cp "$db" unreadable.db
python3 - unreadable.db <<'PY' || bad "unreadable db"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""ALTER TABLE messages RENAME TO m0;
CREATE VIEW messages AS SELECT id, session_id, role,
  CASE WHEN session_id IN ('two_b', 'dp_kid', 'five_2_sub', 'orphan') THEN json('{bad') ELSE content END AS content,
  tool_call_id, tool_calls, tool_name, timestamp, finish_reason, active, compacted, _compressed_summary FROM m0;""")
PY
unread="txc: error: cannot read the messages of a session from 'unreadable.db': malformed JSON"
for c in "two_a --lineage" "orphan_next --lineage" "two_b --children" "dp --children" "five_1 --lineage --children"; do
	# shellcheck disable=SC2086 # words by design
	expect_rc 1 "unreadable: $c" "$txc" convert $c --db unreadable.db --to markdown
	want=$unread
	case $c in orphan*) want="txc: warning: the parent session gone_session of orphan is not in the store: the chain starts at orphan
$unread" ;; esac
	[ "$(cat err.txt)" = "$want" ] && [ ! -s out.txt ] && ok || bad "unreadable $c: $(cat err.txt)"
done
expect_rc 1 "unreadable: two_a --lineage -o" "$txc" convert two_a --db unreadable.db --to claude --lineage -o "$work/unread.jsonl"
[ ! -e unread.jsonl ] && ok "unreadable: no file written" || bad "unreadable: a file was written"
# the parts that can be read are as before: only the unreadable one fails
expect_rc 0 "unreadable: five_1 --lineage" "$txc" convert five_1 --db unreadable.db --to markdown --utc --lineage
cmp -s out.txt "$work/five.lineage.md" && ok || bad "five_1 --lineage from unreadable.db differs"
# --redact: the child's title in its link line too
cp "$db" secret.db
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = ? WHERE id = ?", ("Key sk-proj-Xy7aBc3dEf9gHi2jK" "l5mNo8pQr1sTu4vWx6yZa0bCd here", "dp_kid")); c.commit()' secret.db
expect_rc 0 "--redact --lineage: a child's title" "$txc" convert dp --db secret.db --to markdown --lineage --redact
[ "$(grep '^\*Subagent session\*' out.txt)" = '*Subagent session* `dp_kid` — Key \[REDACTED:openai-key …4214\] here' ] && ! grep -q 'sk-proj' out.txt &&
	ok "--redact: the child's title redacted" || bad "--redact child title: $(grep Subagent out.txt)"
# a child without a title: its link line has none, redacted or not
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = NULL WHERE id = ?", ("five_2_sub",)); c.commit()' secret.db
expect_rc 0 "--redact --lineage: a child without a title" "$txc" convert five_2 --db secret.db --to markdown --lineage --redact
[ "$(grep '^\*Subagent session\*' out.txt)" = '*Subagent session* `five_2_sub`' ] && ok || bad "untitled child: $(grep Subagent out.txt)"
expect_rc 3 "--lineage: no such store" "$txc" convert two_a --db "$work/none.db" --to markdown --lineage
[ "$(cat err.txt)" = "txc: error: no Hermes store at '$work/none.db'" ] && [ ! -s out.txt ] && ok || bad "no store: $(cat err.txt)"
# --children where there are none: no subagents folder
expect_rc 0 "claude --children, no children" "$txc" convert solo --db "$db" --to claude --children -o "$work/solo.jsonl"
[ -s solo.jsonl ] && [ ! -e solo ] && ok "no children: no subagents folder" || bad "no children: $(ls -d solo* 2> /dev/null)"
# a subagent file someone changed is not overwritten without --force; with it, written again
echo changed > "$sub"
rm -f dp.jsonl
expect_rc 1 "changed subagent file" "$txc" convert dp --db "$db" --to claude --children -o "$work/dp.jsonl"
[ "$(cat "$sub")" = changed ] && ok "a changed subagent file is kept" || bad "the changed subagent file was overwritten"
[ "$(cat err.txt)" = "txc: error: '$sub' already exists; pass --force to overwrite it" ] && ok || bad "changed subagent file: $(cat err.txt)"
expect_rc 0 "changed subagent file --force" "$txc" convert dp --db "$db" --to claude --children -o "$work/dp.jsonl" --force
cmp -s sub.before "$sub" && ok "--force: the subagent file written again" || bad "--force: subagent file $(head -c 100 "$sub")"
: > "$sub" # an empty file is other bytes too (it was freed as if allocated: an abort)
expect_rc 0 "emptied subagent file --force" "$txc" convert dp --db "$db" --to claude --children -o "$work/dp.jsonl" --force
cmp -s sub.before "$sub" && ok "--force: an emptied subagent file written again" || bad "--force: emptied subagent file $(head -c 100 "$sub")"
# a profile's chain is keyed in that profile's scope: one session id from each member, not the default profile's
mkdir -p home/profiles/work && cp "$db" home/state.db && cp "$db" home/profiles/work/state.db
sid() { sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' out.txt | sort -u; }
expect_rc 0 "--profile work --lineage" "$txc" convert two_a --home "$work/home" --profile work --to claude --lineage
wa=$(sid)
expect_rc 0 "--profile work --lineage, the tip" "$txc" convert two_b --home "$work/home" --profile work --to claude --lineage
wb=$(sid)
expect_rc 0 "default profile --lineage" "$txc" convert two_a --home "$work/home" --to claude --lineage
da=$(sid)
[ "$(echo "$wa" | wc -w)" = 1 ] && [ "$wa" = "$wb" ] && [ "$wa" != "$da" ] && ok "--lineage in a profile: the profile's session id" || bad "profile session ids: $wa / $wb / $da"
# list --tree: a line of 36 resets (each the child of the last) drawn 32 deep, the rest as roots;
# two children started at once keep the listing's order
python3 - > deep.sql <<'PY'
print("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT, started_at REAL NOT NULL, title TEXT);")
for i in range(36):
    print("INSERT INTO sessions VALUES ('d%02d', 'cli', 'm', %s, %d, 't');" % (i, "NULL" if i == 0 else "'d%02d'" % (i - 1), 1767600000 + 60 * i))
print("INSERT INTO sessions VALUES ('tie_b', 'cli', 'm', 'd00', 1767600030, 't'), ('tie_a', 'cli', 'm', 'd00', 1767600030, 't');")
PY
"$mkdb" deep.db deep.sql || exit 1
expect_rc 0 "list --tree, 36 deep" "$txc" list --db deep.db --tree --utc --limit 100
[ "${UPDATE:-0}" = 1 ] && cp out.txt "$gold/list.deep-tree.txt"
cmp -s out.txt "$gold/list.deep-tree.txt" && ok "list --tree deep golden" || { bad "list --tree deep golden"; diff -u "$gold/list.deep-tree.txt" out.txt | head -30; }

# children without a start (NULL started_at) come after those with one, in the listing's order
cat > nostart.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('p', 'cli', 'm', NULL, 1767600000, 't'), ('k1', 'cli', 'm', 'p', NULL, 't1'),
  ('k2', 'cli', 'm', 'p', 1767600060, 't2'), ('k3', 'cli', 'm', 'p', NULL, 't3'), ('k4', 'cli', 'm', 'p', 1767600030, 't4');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('k4', 'user', 'late', 1767600090);
SQL
"$mkdb" nostart.db nostart.sql || exit 1
expect_rc 0 "list --tree, children without a start" "$txc" list --db nostart.db --tree --utc
cat > want.txt <<'TXT'
ID    STARTED           SOURCE  MODEL  MSGS  TITLE
p     2026-01-05 08:00  cli     m      -     t
└ k4  2026-01-05 08:00  cli     m      -     t4
└ k2  2026-01-05 08:01  cli     m      -     t2
└ k3  -                 cli     m      -     t3
└ k1  -                 cli     m      -     t1
TXT
cmp -s want.txt out.txt && ok || { bad "list --tree without starts"; diff want.txt out.txt; }
expect_rc 0 "list --tree --order recent" "$txc" list --db nostart.db --tree --utc --order recent # k4 listed first: its message
cmp -s want.txt out.txt && ok "children by start whatever the listing's order" || { bad "list --tree --order recent"; diff want.txt out.txt; }

# -o NAME not ending in .jsonl: the subagents in NAME.d/subagents/; a #range or --follow with what they cannot do
rm -rf dp.claude dp.claude.d
expect_rc 0 "claude --children -o NAME" "$txc" convert dp --db "$db" --to claude --children -o dp.claude
[ -s dp.claude ] && [ "$(ls dp.claude.d/subagents/agent-a*.jsonl | wc -l)" = 1 ] && [ ! -s out.txt ] &&
	ok "-o NAME: subagents in NAME.d/subagents" || bad "-o NAME: $(find dp.claude*)"
for c in "--lineage" "--children"; do
	expect_rc 2 "dp#1 $c" "$txc" convert 'dp#1' --db "$db" --to markdown $c
	[ "$(cat err.txt)" = "txc: error: a #range names messages of one session: not with $c (see 'txc convert --help')" ] && ok || bad "$(cat err.txt)"
done
expect_rc 2 "dp#1 --follow" "$txc" convert 'dp#1' --db "$db" --to markdown --follow
[ "$(cat err.txt)" = "txc: error: --follow shows the whole session; drop the #range" ] && ok || bad "$(cat err.txt)"
expect_rc 2 "--follow -o" "$txc" convert dp --db "$db" --to markdown --follow -o follow.md
[ "$(cat err.txt)" = "txc: error: --follow writes to standard output: not with -o (see 'txc convert --help')" ] && [ ! -e follow.md ] &&
	ok || bad "$(cat err.txt)"
expect_rc 2 "--follow --install" env CLAUDE_CONFIG_DIR="$work/cfg-follow" "$txc" convert dp --db "$db" --to claude --follow --install
[ "$(cat err.txt)" = "txc: error: --follow writes to standard output: not with --install (see 'txc convert --help')" ] &&
	[ ! -e cfg-follow ] && ok || bad "$(cat err.txt)"

# --- export --lineage / --children: one file per conversation, as convert gives it ---
rm -rf exl exc cfg-exc
expect_rc 0 "export --lineage --children" "$txc" export --db "$db" --to markdown --utc --out exl --lineage --children
# a chain is one file named after its tip, a delegate child is in its parent's file; a branch and a
# stale sibling are tips of their own chains; the three of a cycle each tip their own walk
(cd exl && ls *.md) > got.txt
cat > want.txt <<'TXT'
cyc_a-cycle.md
cyc_b-cycle.md
cyc_c-cycle.md
dp-delegating.md
five_3_br-five-parts-branch.md
five_4_stale-five-parts.md
five_5-five-parts.md
inplace-in-place.md
orphan_next-orphan.md
solo-solo.md
two_b-two-parts.md
TXT
cmp -s want.txt got.txt && ok "export --lineage --children: the tips and the top sessions" || { bad "export --lineage --children files"; diff want.txt got.txt; }
cmp -s exl/five_5-five-parts.md "$work/five.children.md" && ok "export: five's file = convert five_3 --lineage --children" ||
	bad "export: five's file differs from convert --lineage --children"
"$txc" convert dp --db "$db" --to markdown --utc --lineage --children > dp.both.md 2> /dev/null
cmp -s exl/dp-delegating.md dp.both.md && ok "export: dp's file = convert dp --lineage --children" ||
	bad "export: dp's file differs from convert --lineage --children"
grep -c '^txc: warning: ' err.txt | grep -qx 4 && grep -q '^txc: warning: the parent session gone_session of orphan is not in the store: the chain starts at orphan$' err.txt &&
	ok "export --lineage: each chain's warning once" || bad "export --lineage warnings: $(cat err.txt)"
# an unchanged store: a re-run writes nothing; a child that grew rewrites its parent's file only
expect_rc 0 "export --lineage --children again" "$txc" export --db "$db" --to markdown --utc --out exl --lineage --children --dry-run
[ "$(grep -vc '^same ' out.txt)" = 0 ] && ok "export --lineage --children: a re-run writes nothing" || bad "re-run: $(grep -v '^same ' out.txt)"
cp "$db" grown.db
python3 - grown.db <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('dp_kid', 'assistant', 'one more', 1768000007.5)")
c.execute("UPDATE sessions SET message_count = 5, last_activity_at = 1768000007.5 WHERE id = 'dp_kid'")
c.commit()
PY
expect_rc 0 "export --children, a child grown" "$txc" export --db grown.db --to markdown --utc --out exl --lineage --children --dry-run
[ "$(grep -v '^same ' out.txt)" = "update exl/dp-delegating.md" ] && ok "export --children: the grown child's parent is rewritten" ||
	bad "grown child: $(grep -v '^same ' out.txt)"
# without --children a child keeps its own file, and its parent names it (as convert --lineage does)
expect_rc 0 "export --lineage" "$txc" export --db "$db" --to markdown --utc --out exc --lineage
[ -s exc/dp_kid-find-the-bug.md ] && [ -s exc/five_2_sub-subtask-check-tests.md ] && [ ! -e exc/five_2-five-parts.md ] &&
	cmp -s exc/dp-delegating.md "$work/dp.lineage.md" && ok "export --lineage: children keep their files" || bad "export --lineage: $(ls exc)"
# Claude Code's subagent files are not in an export folder's manifest: --install writes them
expect_rc 2 "export --children --to claude --out" "$txc" export --db "$db" --to claude --out exc2 --children
one_line_err "export --children --to claude --out"
[ ! -e exc2 ] && ok || bad "exc2 written"
expect_rc 0 "export --children --install" env CLAUDE_CONFIG_DIR="$work/cfg-exc" "$txc" export --db "$db" --to claude --install --children --title Delegating
[ "$(find cfg-exc -path '*/subagents/agent-a*.jsonl' | wc -l)" = 1 ] && ok "export --children --install: the subagent file" ||
	bad "export --install --children: $(find cfg-exc -type f)"
expect_rc 2 "export --json --lineage" "$txc" export --db "$db" --json --lineage
one_line_err "export --json --lineage"

summary lineage
[ "$fails" = 0 ]
