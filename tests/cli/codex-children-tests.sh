#!/bin/sh
# Codex subagents read back as children (issue 29): a rollout whose session_meta.source is
# {"subagent":{"thread_spawn":{"parent_thread_id":P,"depth":N}}} (Codex 0.171.0's spawned thread,
# as txc writes one) is listed with source "subagent" and its parent (`list --json`), nested by
# `list --tree`, and folded into its parent by `convert --children` for every writer.  Two homes:
# the lineage fixture's delegating session written by `convert --to codex --children --install`,
# and a hand-made parent, child and grandchild spawned by Codex's own spawn_agent tool.
# CODEX_CHECK=codex-check.sh / CLAUDE_CHECK=claude-check.sh also resume what the conversions write.
# usage: codex-children-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
command -v python3 > /dev/null || { echo "codex-children-tests: python3 is required"; exit 1; }
export TZ=UTC
unset HERMES_HOME CLAUDE_CONFIG_DIR
rollout_ok() { python3 "$src/tools/codex-rollout-check.py" "$@"; }
real_codex() { # name file
	[ -n "${CODEX_CHECK:-}" ] || return 0
	CHECK_QUIET=1 "$CODEX_CHECK" "$2" > check.txt 2>&1 && ok "codex-check: $1: $(grep -o 'PASS.*' check.txt | head -1)" ||
		bad "codex-check: $1: $(head -3 check.txt)"
}
real_claude() { # name file
	[ -n "${CLAUDE_CHECK:-}" ] || return 0
	"$CLAUDE_CHECK" "$2" > cc.txt 2>&1 && ok "claude-check: $1: $(grep -o 'PASS.*' cc.txt | head -1)" ||
		bad "claude-check: $1: $(tail -3 cc.txt)"
}
"$mkdb" l.db "$src/fixtures/lineage.sql" || exit 1

# --- a pair txc wrote: the lineage fixture's dp and its delegate dp_kid ---
CODEX_HOME=$work/txc-home expect_rc 0 "install dp --children" "$txc" convert dp --db l.db --to codex --children --install
CODEX_HOME=$work/txc-home
export CODEX_HOME
P=$(sed -n 's/^installed .*-\([0-9a-f-]\{36\}\)\.jsonl$/\1/p' out.txt)
K=$(sed -n 's/^installed .*-\([0-9a-f-]\{36\}\)\.jsonl (subagent)$/\1/p' out.txt)
[ -n "$P" ] && [ -n "$K" ] && ok "the parent and its subagent installed" || bad "install: $(cat out.txt)"
expect_rc 0 "list codex" "$txc" list codex
grep -q "^$K .* subagent " out.txt && grep -q "^$P .* codex-cli " out.txt && ok "the spawned thread's source: subagent" ||
	bad "list: $(cat out.txt)"
expect_rc 0 "list codex --tree" "$txc" list codex --tree
[ "$(sed -n 2p out.txt | cut -c1-36)" = "$P" ] && sed -n 3p out.txt | grep -q "^└ $K " && ok "--tree: the subagent under its parent" ||
	bad "--tree: $(cat out.txt)"
expect_rc 0 "list codex --json" "$txc" list codex --json
python3 - "$P" "$K" out.txt > py.txt 2>&1 <<'PY' && ok "--json: the subagent's parent_session_id" || bad "--json: $(cat py.txt)"
import json, sys
p, k, f = sys.argv[1:]
rows = {r["id"]: r for r in json.load(open(f))}
assert rows[k]["parent_session_id"] == p and rows[k]["source"] == "subagent", rows[k]
assert rows[p]["parent_session_id"] is None and rows[p]["source"] == "codex-cli", rows[p]
PY
expect_rc 0 "--source subagent" "$txc" list codex --source subagent
[ "$(grep -c . out.txt)" = 2 ] && grep -q "^$K " out.txt && ok || bad "--source subagent: $(cat out.txt)"
expect_rc 0 "markdown --children" "$txc" convert "codex:$P" --children --to markdown --utc
grep -q "Subagent session $K" out.txt && grep -q '^Reading x.c.$' out.txt && ok "markdown: the subagent folded into its parent" ||
	bad "markdown --children: $(grep -n 'Subagent' out.txt)"
expect_rc 0 "markdown, no --children" "$txc" convert "codex:$P" --to markdown --utc
! grep -q '^Reading x.c.$' out.txt && ok "without --children: the parent alone" || bad "no --children: the child's turns shown"
expect_rc 0 "export --children: one file per conversation" "$txc" export --from codex --to markdown --children --out x
[ "$(ls x/*.md | wc -l)" = 1 ] && grep -q '^Reading x.c.$' x/*.md && ok || bad "export --children: $(ls x)"

# --- a pair Codex made: spawn_agent, its {"agent_id"} result, a child that spawns a grandchild ---
A=0c0d0e0f-0000-4000-8000-00000000a001 B=0c0d0e0f-0000-4000-8000-00000000b002 C=0c0d0e0f-0000-4000-8000-00000000c003
CODEX_HOME=$work/codex-home
d=$CODEX_HOME/sessions/2026/06/01
mkdir -p "$d"
meta() { # id time source
	printf '{"timestamp":"2026-06-01T10:%s.000Z","type":"session_meta","payload":{"id":"%s","timestamp":"2026-06-01T10:%s.000Z","cwd":"/repo/spawn","originator":"codex_cli_rs","cli_version":"0.171.0","source":%s,"model_provider":"openai"}}\n' "$2" "$1" "$2" "$3"
}
item() { # time payload
	printf '{"timestamp":"2026-06-01T10:%s.000Z","type":"response_item","payload":%s}\n' "$1" "$2"
}
msg() { # time role text
	item "$1" "{\"type\":\"message\",\"role\":\"$2\",\"content\":[{\"type\":\"$([ "$2" = assistant ] && echo output_text || echo input_text)\",\"text\":\"$3\"}]}"
}
spawn() { # time call_id child message
	item "$1" "{\"type\":\"function_call\",\"name\":\"spawn_agent\",\"arguments\":\"{\\\"message\\\":\\\"$4\\\"}\",\"call_id\":\"$2\"}"
	item "$1" "{\"type\":\"function_call_output\",\"call_id\":\"$2\",\"output\":\"{\\\"agent_id\\\":\\\"$3\\\"}\"}"
}
{
	meta $A 00:00 '"cli"'
	msg 00:01 user "Split the audit in two."
	spawn 00:02 call_s1 $B "Audit the parser."
	msg 00:30 assistant "The parser audit is back: all clear."
} > "$d/rollout-2026-06-01T10-00-00-$A.jsonl"
{
	meta $B 00:03 "{\"subagent\":{\"thread_spawn\":{\"parent_thread_id\":\"$A\",\"depth\":1,\"agent_nickname\":\"Ada\",\"agent_role\":\"explorer\"}}}"
	msg 00:03 system "Explore only: change nothing."
	msg 00:03 user "Audit the parser."
	spawn 00:04 call_s2 $C "Check the lexer."
	msg 00:20 assistant "Parser audited: no findings."
} > "$d/rollout-2026-06-01T10-00-03-$B.jsonl"
{
	meta $C 00:05 "{\"subagent\":{\"thread_spawn\":{\"parent_thread_id\":\"$B\",\"depth\":2}}}"
	msg 00:05 user "Check the lexer."
	msg 00:06 assistant "Lexer checked: fine."
} > "$d/rollout-2026-06-01T10-00-05-$C.jsonl"
export CODEX_HOME
expect_rc 0 "list codex --tree (Codex's own)" "$txc" list codex --tree
sed -n 2p out.txt | grep -q "^$A " && sed -n 3p out.txt | grep -q "^└ $B .* subagent " &&
	sed -n 4p out.txt | grep -q "^  └ $C .* subagent " && ok "--tree: child under parent, grandchild under child" ||
	bad "--tree: $(cat out.txt)"
expect_rc 0 "list codex --json (Codex's own)" "$txc" list codex --json
python3 - "$A" "$B" "$C" out.txt > py.txt 2>&1 <<'PY' && ok "--json: each thread's parent" || bad "--json: $(cat py.txt)"
import json, sys
a, b, c, f = sys.argv[1:]
rows = {r["id"]: r for r in json.load(open(f))}
assert [rows[x]["parent_session_id"] for x in (a, b, c)] == [None, a, b], rows
assert [rows[x]["source"] for x in (a, b, c)] == ["codex-cli", "subagent", "subagent"], rows
PY
expect_rc 0 "markdown --children (Codex's own)" "$txc" convert "codex:$A" --children --to markdown --utc
python3 - out.txt "$B" > py.txt 2>&1 <<'PY' && ok "markdown: the child at its spawn_agent call, before the parent's answer" || bad "markdown: $(cat py.txt)"
import sys
t = open(sys.argv[1]).read()
at = t.index("Subagent session " + sys.argv[2])
assert t.index("spawn\\_agent") < at < t.index("The parser audit is back"), "misplaced"
assert "Parser audited: no findings." in t[at:]
PY
expect_rc 0 "html --children" "$txc" convert "codex:$A" --children --to html
grep -q 'Parser audited: no findings.' out.txt && ok "html: the child's turns" || bad "html --children"
! grep -q 'Lexer checked: fine.' out.txt && ok "a child's child is not folded into the grandparent (one level, as for Hermes)" ||
	bad "the grandchild folded into A"
expect_rc 0 "convert the child: its own child" "$txc" convert "codex:$B" --children --to markdown --utc
grep -q 'Lexer checked: fine.' out.txt && ok || bad "child --children: $(grep -n Subagent out.txt)"
expect_rc 0 "export --children (Codex's own)" "$txc" export --from codex --to markdown --children --out y
[ "$(ls y/*.md | wc -l)" = 2 ] && grep -l 'Parser audited' y/*.md | xargs grep -q 'Split the audit' &&
	grep -l 'Lexer checked' y/*.md | xargs grep -vq 'Parser audited' && ok "export: A with B, C a file of its own" ||
	bad "export --children: $(ls y)"
mkdir -p cc
expect_rc 0 "claude --children -o" "$txc" convert "codex:$A" --children --to claude -o cc/a.jsonl
sub=$(ls cc/a/subagents/agent-a*.jsonl 2> /dev/null)
[ "$(echo "$sub" | wc -w)" = 1 ] && grep -q 'Parser audited: no findings.' "$sub" && ok "claude: the child a subagent file" ||
	bad "claude --children: $(find cc)"
real_claude "codex parent -> claude" cc/a.jsonl
# the subagent's system message through Claude Code: its record's uuid (with its agentId) says system
mkdir -p ci && CLAUDE_CONFIG_DIR=$work/ci expect_rc 0 "claude --children --install" "$txc" convert "codex:$A" --children --to claude --install
agent=$(find ci/projects -name 'agent-a*.jsonl' -exec basename {} .jsonl \;)
CLAUDE_CONFIG_DIR=$work/ci expect_rc 0 "the subagent read back" "$txc" convert "claude:$agent" --to markdown
grep -q '^## #1 · System instructions · ' out.txt && grep -q '^Explore only: change nothing.$' out.txt &&
	ok "a subagent's system message comes back as system" || bad "subagent system: $(grep -n '^## #' out.txt)"
mkdir -p out/sessions
expect_rc 0 "codex --children -o" "$txc" convert "codex:$A" --children --to codex -o out/sessions/a.jsonl
python3 - out/sessions > py.txt 2>&1 <<'PY' && ok "codex: the child's rollout, linked to its new parent" || bad "codex --children: $(cat py.txt)"
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + "/*.jsonl"))
metas = {}
for f in files:
    m = json.loads(open(f).readline())["payload"]
    metas[m["id"]] = (m["source"], "".join(open(f)))
assert len(metas) == 2, files
root = [i for i, (s, _) in metas.items() if s == "cli"]
assert len(root) == 1
kid = [i for i, (s, _) in metas.items() if s != "cli" and s["subagent"]["thread_spawn"]["parent_thread_id"] == root[0]]
assert len(kid) == 1 and "Parser audited" in metas[kid[0]][1] and "spawn_agent" in metas[root[0]][1]
assert metas[kid[0]][0]["subagent"]["thread_spawn"]["depth"] == 1
PY
rollout_ok out/sessions/*.jsonl > py.txt && ok "codex --children: every rollout passes the check" || bad "rollouts: $(head -3 py.txt)"
for f in out/sessions/*.jsonl; do real_codex "codex -> codex --children: ${f##*/}" "$f"; done

summary codex-children-tests
