#!/bin/sh
# Claude Code as a source (issue 17): `list claude`, `convert claude:ID`, `export --from claude`
# over the hand-written projects in tests/fixtures/claude-config (goldens in
# tests/golden/claude-source; UPDATE=1 rewrites them), and the round trip over every fixture
# store: Markdown of S == Markdown of claude-read(claude-write(S)) but for the losses
# docs/FORMATS.md lists (the remaining differences are goldens too: claude-roundtrip/*.diff).
# usage: claude-source-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
command -v python3 > /dev/null || { echo "claude-source-tests: python3 is required"; exit 1; }
gold=$src/golden/claude-source
export TZ=UTC
unset HERMES_HOME
CLAUDE_CONFIG_DIR=$src/fixtures/claude-config
export CLAUDE_CONFIG_DIR
A=5f3c2a10-0000-4000-8000-000000000001 B=9b1d7e42-0000-4000-8000-000000000002
C=c7e0b3a4-0000-4000-8000-000000000003

golden() { # name file: the file equals the golden (paths of the source tree as SRC)
	sed "s|$src|SRC|g" "$2" > "$2.norm"
	if [ "${UPDATE:-}" = 1 ]; then mkdir -p "$gold" && cp "$2.norm" "$gold/$1"; fi
	if cmp -s "$2.norm" "$gold/$1"; then ok "golden $1"; else bad "golden $1 differs: $(diff "$gold/$1" "$2.norm" | head -5)"; fi
}

# --- listing: every session file, subagents as their own sessions, the summary fields ---
expect_rc 0 "list claude" "$txc" list claude
golden list.txt out.txt
grep -q "left out" err.txt && grep -q "skipped 1 malformed" err.txt && ok "list: cut last line and bad line said" ||
	bad "list: warnings missing: $(cat err.txt)"
expect_rc 0 "list claude --json" "$txc" list claude --json
json_ok out.txt && ok || bad "list --json: not strict JSON"
golden list.json out.txt
expect_rc 0 "--from claude is list claude" "$txc" list --from claude
cmp -s out.txt "$gold/list.txt" && ok || bad "list --from claude differs from list claude"
expect_rc 0 "--title from custom-title" "$txc" list claude --title "a.c BUG"
[ "$(grep -c . out.txt)" = 2 ] && grep -q "$A" out.txt && ok || bad "--title: $(cat out.txt)"
expect_rc 0 "--cwd from the records" "$txc" list claude --cwd /repo/demo
[ "$(grep -c . out.txt)" = 3 ] && grep -q agent-a0123456789abcdef out.txt && ok || bad "--cwd: $(cat out.txt)"
expect_rc 0 "--cwd from the folder when no record has one" "$txc" list claude --cwd /tmp/other
grep -q "$B" out.txt && ok || bad "--cwd folder: $(cat out.txt)"
expect_rc 0 "--since" "$txc" list claude --since 2026-02-04 --utc
[ "$(grep -c . out.txt)" = 2 ] && grep -q "$C" out.txt && ok || bad "--since: $(cat out.txt)"

# --- one session: id prefixes, every record kind, the Hermes export object ---
expect_rc 0 "convert claude:PREFIX to markdown" "$txc" convert claude:5f3 --to markdown --detail full --utc
golden a.md out.txt
! grep -q 'The bug is probably an off-by-one' out.txt && ok "compacted history hidden" ||
	bad "compacted thinking shown without --include-compacted"
expect_rc 0 "markdown --include-compacted" "$txc" convert claude:5f3 --to markdown --detail full --utc \
	--include-compacted
golden a-compacted.md out.txt
for want in 'The bug is probably an off-by-one' '/model sonnet' 'Set model to sonnet' 'Read' 'undeclared' \
	'data:image/png;base64,'; do
	grep -qF "$want" out.txt && ok "a.md keeps: $want" || bad "a.md lost: $want"
done
expect_rc 0 "convert claude:ID to hermes" "$txc" convert "claude:$A" --to hermes
json_ok out.txt && ok || bad "hermes: not strict JSON"
golden a.hermes.json out.txt
expect_rc 0 "tools back to Hermes names" "$txc" convert claude:c7e --to hermes
golden c.hermes.json out.txt
python3 - out.txt > py.txt 2>&1 <<'PY' && ok || bad "hermes names: $(cat py.txt)"
import json, sys
o = json.load(open(sys.argv[1]))
calls = {c["function"]["name"]: json.loads(c["function"]["arguments"])
         for m in o["messages"] for c in (m["tool_calls"] or [])}
assert calls["read_file"] == {"path": "/repo/tools/x.py"}, calls
assert calls["write_file"]["path"] == "/repo/tools/y.txt", calls
assert calls["patch"]["mode"] == "replace" and "path" in calls["patch"], calls
assert calls["terminal"] == {"command": "ls -la", "timeout": 30, "background": True}, calls
assert "Grep" in calls, calls
tools = [m["tool_name"] for m in o["messages"] if m["role"] == "tool"]
assert tools == ["read_file", "Grep", "patch", "write_file", "terminal"], tools
assert o["source"] == "claude-code" and o["message_count"] == len(o["messages"]), o["message_count"]
PY
# Hermes's columns only (its writer makes the rows from the model, hermes_rows.c), as Hermes's exporter
# writes a session: no "claude" side object, no rows for records that made no message; a block
# the model has no kind for is still said in the text
expect_rc 0 "Hermes's columns only" "$txc" convert "claude:$A" --to hermes
grep -q 'server_tool_use block' out.txt && ! grep -q '"claude"' out.txt && ! grep -q '"role": "claude:' out.txt &&
	ok || bad "not Hermes's shape: $(head -c 300 out.txt)"
expect_rc 0 "a cut last line is tolerated" "$txc" convert "claude:$B" --to markdown --utc
golden b.md out.txt
grep -q "unfinished" err.txt && ok || bad "no warning for the cut line: $(cat err.txt)"
expect_rc 0 "a subagent" "$txc" convert claude:agent-a01 --to markdown --utc
grep -q 'Found 2 TODOs' out.txt && ok || bad "subagent: $(cat out.txt)"
expect_rc 0 "artifacts claude:ID" "$txc" artifacts claude:c7e --json
json_ok out.txt && ok || bad "artifacts --json: not strict JSON"
expect_rc 0 "--source subagent" "$txc" list claude --source subagent
[ "$(grep -c . out.txt)" = 2 ] && grep -q '^agent-a0123456789abcdef ' out.txt && ok || bad "--source: $(cat out.txt)"
expect_rc 0 "export --from claude --json" "$txc" export --from claude --json
json_ok out.txt && [ "$(wc -l < out.txt)" = 4 ] && ok || bad "export --json: $(wc -l < out.txt) lines"
expect_rc 0 "export --from claude --to markdown --out" "$txc" export --from claude --to markdown --out md
[ "$(grep -c . md/manifest.jsonl)" = 4 ] && ok || bad "export --out: $(ls md)"
expect_rc 0 "search a Claude session" "$txc" search --from claude undeclared
grep -q "$A" out.txt && ok || bad "search: $(cat out.txt)"
# the scan reads the model: a compacted message is said so; --tool takes Claude's names and Hermes's
grep -q "$A#7  tool:terminal (compacted)" out.txt && ok || bad "search compacted: $(cat out.txt)"
for tool in Read read_file; do
	expect_rc 0 "search --tool $tool" "$txc" search --from claude --tool "$tool" x
	grep -q "$C#2  assistant:Read" out.txt && grep -q "$C#3  tool:read_file" out.txt && ok ||
		bad "--tool $tool: $(cat out.txt)"
done
expect_rc 0 "search --tool Bash --json" "$txc" search --from claude --tool Bash --json ls
[ "$(grep -c '"session_id"' out.txt)" = 2 ] && ok || bad "--tool Bash: $(cat out.txt)"
# a record that made no message is no message to find (as in a Hermes session's export)
expect_rc 0 "search: no non-message record" "$txc" search --from claude --json queue-operation
! grep -q '"session_id"' out.txt && ok || bad "queue-operation found: $(cat out.txt)"
expect_rc 0 "--lineage --to hermes" "$txc" convert claude:c7e --lineage --to hermes
grep -q '"lineage_session_ids": \["c7e0b3a4-0000-4000-8000-000000000003"\]' out.txt && ok || bad "lineage: $(head -c 300 out.txt)"

# --- mistakes ---
expect_rc 3 "no such session" "$txc" convert claude:zzz --to markdown
one_line_err "no such session"
expect_rc 2 "claude: with --from hermes" "$txc" convert claude:5f3 --from hermes --to markdown
expect_rc 2 "--from claude with --db" "$txc" list claude --db x.db
one_line_err "--from claude with --db"
expect_rc 2 "an unknown harness" "$txc" list nonesuch
expect_rc 0 "no projects folder: nothing listed" env CLAUDE_CONFIG_DIR="$work/none" "$txc" list claude
[ ! -s out.txt ] && grep -q "no Claude Code sessions" err.txt && ok || bad "missing folder: $(cat err.txt)"

# --- Claude Code's files are sources: never an output, even with --force ---
# (a copy outside the build tree: its broken lines are not output for json.all to check)
cfg=$(mktemp -d "${TMPDIR:-/tmp}/txc-claude-cfg.XXXXXX") || exit 1
cp -R "$src/fixtures/claude-config/projects" "$cfg/"
f=$cfg/projects/-repo-demo/$A.jsonl
cp "$f" before.jsonl
expect_rc 4 "-o a session file" env CLAUDE_CONFIG_DIR="$cfg" "$txc" convert claude:5f3 --to markdown -o "$f" --force
cmp -s "$f" before.jsonl && ok "session file untouched" || bad "the session file was overwritten"
sub=$cfg/projects/-repo-demo/$A/subagents/agent-a0123456789abcdef.jsonl
expect_rc 4 "-o a subagent file" env CLAUDE_CONFIG_DIR="$cfg" "$txc" convert "claude:$B" --to claude -o "$sub" --force
# nor is any new file inside the projects folder being read: it would be read back as a session
expect_rc 4 "--out inside the projects folder" env CLAUDE_CONFIG_DIR="$cfg" "$txc" export --from claude --to claude \
	--out "$cfg/projects/-x"
[ ! -e "$cfg/projects/-x" ] && grep -q "which txc is reading" err.txt && ok || bad "--out into projects: $(cat err.txt)"
expect_rc 4 "-o a new file in a project folder" env CLAUDE_CONFIG_DIR="$cfg" "$txc" convert claude:5f3 --to claude \
	-o "$cfg/projects/-repo-demo/new.jsonl"
[ ! -e "$cfg/projects/-repo-demo/new.jsonl" ] && ok || bad "-o into a project folder wrote a file"
rm -rf "$cfg" before.jsonl

# --- the round trip over every fixture store ---
# The losses every session has (docs/FORMATS.md, "Claude Code round trip") are taken out of both
# sides: the id (a UUID), source, cwd (the install's when none), the start (the first message's),
# the message count (the writer adds records) and the H1 and summary lines that repeat them.
cat > norm.py <<'PY'
import re, sys
out = []
for line in open(sys.argv[1], encoding="utf-8"):
    if re.match(r'^(id|source|cwd|started|messages): ', line) or line.startswith("# ") or \
       re.match(r'^\*\d+ messages · ', line):
        continue
    out.append(line)
sys.stdout.write("".join(out))
PY
cat > pair.py <<'PY'
import json, os, sys, subprocess
a, c, b, out = sys.argv[1:5]
def manifest(d):
    return [json.loads(l) for l in open(os.path.join(d, "manifest.jsonl"), encoding="utf-8")]
md = {e["session_id"]: e["path"] for e in manifest(a)}
back = {e["session_id"]: e["path"] for e in manifest(b)}
with open(out, "w", encoding="utf-8") as f:
    for e in sorted(manifest(c), key=lambda e: e["session_id"]):
        first = open(os.path.join(c, e["path"]), encoding="utf-8").readline()
        if not first:
            f.write("== %s: no messages, not installed (loss)\n" % e["session_id"])
            continue
        uuid = json.loads(first)["sessionId"]
        if uuid not in back:
            f.write("== %s: %s not read back\n" % (e["session_id"], uuid))
            continue
        x = subprocess.run(["python3", "norm.py", os.path.join(a, md[e["session_id"]])], capture_output=True).stdout
        y = subprocess.run(["python3", "norm.py", os.path.join(b, back[uuid])], capture_output=True).stdout
        open("x.md", "wb").write(x)
        open("y.md", "wb").write(y)
        d = subprocess.run(["diff", "-U1", "x.md", "y.md"], capture_output=True).stdout.decode("utf-8", "replace")
        lines = [l[:160] for l in d.splitlines() if not l.startswith(("--- ", "+++ "))]
        more = len(lines) - 60
        d = "".join(l + "\n" for l in lines[:60]) + ("... %d more lines of difference\n" % more if more > 0 else "")
        f.write("== %s%s\n%s" % (e["session_id"], ": same" if not d else "", d))
PY
mkdir -p rt && cd rt || exit 1
for sql in "$src"/fixtures/*.sql; do
	name=$(basename "$sql" .sql)
	rm -rf "$name" && mkdir -p "$name" && cd "$name" || exit 1
	"$mkdb" s.db "$sql" > /dev/null 2>&1 || { bad "round trip $name: mkdb failed"; cd ..; continue; }
	w="--detail full --images inline --utc"
	# shellcheck disable=SC2086
	"$txc" export --db s.db --to markdown $w --out a > /dev/null 2> err.txt &&
		"$txc" export --db s.db --to claude --out c > /dev/null 2>> err.txt &&
		CLAUDE_CONFIG_DIR=$PWD/cc "$txc" export --db s.db --to claude --install > /dev/null 2>> err.txt &&
		CLAUDE_CONFIG_DIR=$PWD/cc "$txc" export --from claude --to markdown $w --out b > /dev/null 2>> err.txt &&
		ok "round trip $name: written and read back" || bad "round trip $name: $(head -3 err.txt)"
	cp ../../norm.py . && python3 ../../pair.py a c b report.txt 2> py.txt || bad "round trip $name: $(cat py.txt)"
	golden "claude-roundtrip-$name.diff" report.txt
	cd .. || exit 1
done
cd .. || exit 1

# --- --to hermes: a turn's usage in the session's token columns (Hermes keeps no usage per message) ---
mkdir -p usage-cfg/projects/-u
cat > usage-cfg/projects/-u/usage.jsonl << 'EOF'
{"type":"user","sessionId":"u","uuid":"u1","parentUuid":null,"timestamp":"2026-02-03T08:00:00Z","message":{"role":"user","content":"hi"}}
{"type":"assistant","sessionId":"u","uuid":"u2","parentUuid":"u1","timestamp":"2026-02-03T08:00:01Z","message":{"id":"m","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"yo"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":1200,"cache_creation":{"ephemeral_5m_input_tokens":1200,"ephemeral_1h_input_tokens":0},"output_tokens":5,"service_tier":"standard","server_tool_use":{"web_search_requests":2}}}}
EOF
expect_rc 0 "usage: convert --to hermes" env CLAUDE_CONFIG_DIR="$work/usage-cfg" "$txc" convert claude:usage --to hermes
grep -qF '"input_tokens": 3, "output_tokens": 5, "cache_read_tokens": 0, "cache_write_tokens": 1200, ' out.txt &&
	! grep -q '"usage": {' out.txt && ok "usage: the session's columns" || bad "usage: $(head -c 400 out.txt)"

# --- Claude -> Claude keeps redacted thinking as Anthropic sent it; a BOM before the first record ---
mkdir -p red-cfg/projects/-r
printf '\357\273\277' > red-cfg/projects/-r/red.jsonl
cat >> red-cfg/projects/-r/red.jsonl << 'EOF'
{"type":"user","sessionId":"r","uuid":"u1","parentUuid":null,"timestamp":"2026-02-03T08:00:00Z","message":{"role":"user","content":"hi"}}
{"type":"assistant","sessionId":"r","uuid":"u2","parentUuid":"u1","timestamp":"2026-02-03T08:00:01Z","message":{"id":"m","role":"assistant","model":"claude-opus-4-5","content":[{"type":"redacted_thinking","data":"EncRypted=="},{"type":"thinking","thinking":"t","signature":"SIG"},{"type":"text","text":"yo"}],"stop_reason":"end_turn"}}
EOF
expect_rc 0 "redacted thinking: convert --to claude" env CLAUDE_CONFIG_DIR="$work/red-cfg" "$txc" convert claude:red --to claude
[ ! -s err.txt ] && ok "a BOM is no malformed line" || bad "BOM: $(cat err.txt)"
[ "$(grep -c . out.txt)" = 2 ] && grep -qF '"content":[{"type":"text","text":"hi"}]' out.txt && ok "the BOM's record kept" ||
	bad "BOM: first record lost: $(head -c 300 out.txt)"
grep -qF '"content":[{"type":"redacted_thinking","data":"EncRypted=="},{"type":"thinking","thinking":"t","signature":"SIG"},{"type":"text","text":"yo"}]' out.txt &&
	ok "redacted thinking kept" || bad "redacted thinking: $(grep -o '"content":\[[^]]*' out.txt | tail -1)"
expect_rc 0 "redacted thinking: --reasoning text" env CLAUDE_CONFIG_DIR="$work/red-cfg" "$txc" convert claude:red --to claude \
	--reasoning text
grep -qF '"content":[{"type":"text","text":"Reasoning:\n\nt"},{"type":"text","text":"yo"}]' out.txt &&
	ok "--reasoning text leaves redacted thinking out" || bad "--reasoning text: $(grep -o '"content":\[[^]]*' out.txt | tail -1)"

# --- txc's own text shape of unsigned reasoning ("Reasoning:", a blank line, the text; --reasoning
# auto) read back as reasoning, so a round trip gives it back (issue 30 item 11); another text stays text ---
mkdir -p rt-cfg/projects/-r
cat > rt-cfg/projects/-r/rt.jsonl << 'EOF'
{"type":"user","sessionId":"rt","uuid":"u1","parentUuid":null,"timestamp":"2026-02-03T08:00:00Z","message":{"role":"user","content":"hi"}}
{"type":"assistant","sessionId":"rt","uuid":"u2","parentUuid":"u1","timestamp":"2026-02-03T08:00:01Z","message":{"id":"m","role":"assistant","model":"gpt-5.1","content":[{"type":"text","text":"Reasoning:\n\nplan it"},{"type":"text","text":"Reasoning: not mine"},{"type":"text","text":"yo"}],"stop_reason":"end_turn"}}
EOF
expect_rc 0 "txc's reasoning text read back" env CLAUDE_CONFIG_DIR="$work/rt-cfg" "$txc" convert claude:rt --to claude --reasoning keep
grep -qF '"content":[{"type":"thinking","thinking":"plan it"},{"type":"text","text":"Reasoning: not mine"},{"type":"text","text":"yo"}]' out.txt &&
	ok "'Reasoning:' and a blank line: reasoning again; another text stays text" ||
	bad "reasoning text: $(grep -o '"content":\[[^]]*' out.txt | tail -1)"
expect_rc 0 "and written back by default" env CLAUDE_CONFIG_DIR="$work/rt-cfg" "$txc" convert claude:rt --to claude
grep -qF '"content":[{"type":"text","text":"Reasoning:\n\nplan it"},{"type":"text","text":"Reasoning: not mine"},{"type":"text","text":"yo"}]' out.txt &&
	ok "--reasoning auto writes it as the same text (a file Claude Code resumed before)" ||
	bad "auto: $(grep -o '"content":\[[^]]*' out.txt | tail -1)"

# where Claude Code's folder is: CLAUDE_CONFIG_DIR, else HOME; Hermes's options refused; its files never an output
for o in "--home h" "--profile p" "--input x.jsonl" "--remote http://127.0.0.1:1" "--all-profiles" "--db x.db"; do
	expect_rc 2 "--from claude $o" "$txc" list --from claude $o
	[ "$(cat err.txt)" = "txc: error: --from claude reads \$CLAUDE_CONFIG_DIR/projects; --db, --home, --profile, --all-profiles, --input and --remote are Hermes's" ] &&
		ok || bad "$(cat err.txt)"
done
# how Hermes's sources are read (--skip-bad, --token, ...): refused too, never silently ignored (item 28.4)
for hw in 'claude $CLAUDE_CONFIG_DIR/projects' 'codex $CODEX_HOME/sessions'; do
	h=${hw%% *} where=${hw#* }
	for o in "--skip-bad" "--token t" "--timeout 5" "--legacy" "--all-sources"; do
		expect_rc 2 "--from $h $o" "$txc" list --from $h $o
		[ "$(cat err.txt)" = "txc: error: --from $h reads $where; --skip-bad, --token, --timeout, --legacy and --all-sources are Hermes's" ] &&
			ok || bad "$(cat err.txt)"
	done
done
expect_rc 2 "claude:ID --skip-bad" "$txc" convert claude:x --to markdown --skip-bad
grep -qF -- "--from claude reads" err.txt && ok || bad "$(cat err.txt)"
expect_rc 2 "--from claude, no CLAUDE_CONFIG_DIR nor HOME" env -u CLAUDE_CONFIG_DIR -u HOME "$txc" list --from claude
[ "$(cat err.txt)" = "txc: error: cannot find Claude Code's folder: neither CLAUDE_CONFIG_DIR nor HOME is set" ] && ok || bad "$(cat err.txt)"
expect_rc 2 "--from claude, CLAUDE_CONFIG_DIR and HOME empty" env CLAUDE_CONFIG_DIR= HOME= "$txc" list --from claude
[ "$(cat err.txt)" = "txc: error: cannot find Claude Code's folder: neither CLAUDE_CONFIG_DIR nor HOME is set" ] && ok || bad "$(cat err.txt)"
mkdir -p cfghome/.claude/projects/-p
printf '{"type":"user","sessionId":"s-home","uuid":"u1","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"from HOME"}}\n' \
	> cfghome/.claude/projects/-p/s-home.jsonl
echo notes > cfghome/.claude/projects/-p/notes.txt7
echo '{}' > cfghome/.claude/projects/-p/x.json
expect_rc 0 "--from claude: HOME/.claude/projects" env CLAUDE_CONFIG_DIR= HOME="$work/cfghome" "$txc" list --from claude
grep -q '^s-home ' out.txt && ok "HOME/.claude/projects: its session" || bad "HOME: $(cat out.txt err.txt)"
cp cfghome/.claude/projects/-p/s-home.jsonl s-home.before
env -u CLAUDE_CONFIG_DIR HOME="$work/cfghome" "$txc" export --from claude --json >> cfghome/.claude/projects/-p/s-home.jsonl 2> err.txt
[ $? = 4 ] && grep -q "^txc: error: refusing to write to standard output: it is '.*s-home.jsonl', which txc is reading$" err.txt &&
	cmp -s s-home.before cfghome/.claude/projects/-p/s-home.jsonl && ok "stdout to a session file: refused, unchanged" ||
	bad "stdout to a Claude session: $(cat err.txt)"

# --- branches: the one Claude Code resumes (parentUuid from the newest main-chain record, across a
#     compact_boundary's logicalParentUuid); a rewound turn and an inline sidechain record stay out ---
br="$work/br/projects/-tmp-br" && mkdir -p "$br"
python3 - "$br" <<'PY'
import json, sys
def r(u, p, typ, text=None, **kw):
    d = {"type": typ, "uuid": u, "parentUuid": p, "sessionId": "b0000000-0000-4000-8000-000000000001", "cwd": "/tmp/br",
         "timestamp": "2026-02-05T09:00:%02d.000Z" % len(recs)}
    if text is not None:
        d["message"] = {"role": typ, "content": text} if typ == "user" else {"id": "m" + u, "role": "assistant", "content": [{"type": "text", "text": text}]}
    d.update(kw)
    recs.append(d)
recs = []
r("u1", None, "user", "FIRST question")
r("a1", "u1", "assistant", "FIRST answer")
r("u2", "a1", "user", "OLD question, rewound")
r("a2", "u2", "assistant", "OLD answer")
r("u2b", "a1", "user", "NEW question")
r("s1", "u2b", "user", "SIDECHAIN prompt", isSidechain=True)
r("a2b", "u2b", "assistant", "NEW answer")
r("cb", None, "system", subtype="compact_boundary", content="Conversation compacted", logicalParentUuid="a2b")
r("cs", "cb", "user", "Summary of the conversation", isCompactSummary=True)
r("u3", "cs", "user", "AFTER compaction")
r("a3", "u3", "assistant", "LAST answer")
r("t1", "a3", "system", subtype="turn_duration")
with open(sys.argv[1] + "/b0000000-0000-4000-8000-000000000001.jsonl", "w") as f:
    f.writelines(json.dumps(x) + "\n" for x in recs)
# a loop (x1 <-> x2) under the newest record, and a parent that is not in the file
recs = []
r("x1", "x2", "user", "LOOP one")
r("x2", "x1", "assistant", "LOOP two")
r("x3", "x2", "user", "LOOP leaf")
with open(sys.argv[1] + "/b0000000-0000-4000-8000-000000000002.jsonl", "w") as f:
    f.writelines(json.dumps(x) + "\n" for x in recs)
recs = []
r("y1", None, "user", "ORPHANED before")
r("y2", "gone", "user", "MISSING parent")
with open(sys.argv[1] + "/b0000000-0000-4000-8000-000000000003.jsonl", "w") as f:
    f.writelines(json.dumps(x) + "\n" for x in recs)
PY
expect_rc 0 "branches: convert" env CLAUDE_CONFIG_DIR="$work/br" "$txc" convert claude:b0000000-0000-4000-8000-000000000001 --to markdown --include-compacted
got=$(grep -oE '(FIRST|OLD|NEW|SIDECHAIN|AFTER|LAST) [a-z]+' out.txt | tr '\n' ' ')
[ "$got" = "FIRST question FIRST answer NEW question NEW answer AFTER compaction LAST answer " ] && ok "branches: the resumed one, in order" || bad "branches: $got"
grep -qx "txc: warning: 3 message records of $br/b0000000-0000-4000-8000-000000000001.jsonl not on the branch Claude Code resumes (a rewound turn, a sidechain); left out" err.txt &&
	ok "branches: what was left out is said" || bad "branches: $(cat err.txt)"
expect_rc 0 "branches: list" env CLAUDE_CONFIG_DIR="$work/br" "$txc" list claude --json
python3 -c 'import json, sys; n = {s["id"]: s["message_count"] for s in json.load(open(sys.argv[1]))}; sys.exit(n["b0000000-0000-4000-8000-000000000001"] != 7)' out.txt &&
	ok "branches: list counts the branch's messages" || bad "branches: list $(cat out.txt | head -c 300)"
expect_rc 0 "branches: a loop" env CLAUDE_CONFIG_DIR="$work/br" timeout 10 "$txc" convert claude:b0000000-0000-4000-8000-000000000002 --to markdown
[ "$(grep -oE 'LOOP [a-z]+' out.txt | tr '\n' ' ')" = "LOOP one LOOP two LOOP leaf " ] && ok "branches: a loop ends" || bad "loop: $(grep LOOP out.txt)"
expect_rc 0 "branches: a missing parent" env CLAUDE_CONFIG_DIR="$work/br" "$txc" convert claude:b0000000-0000-4000-8000-000000000003 --to markdown
! grep -q ORPHANED out.txt && grep -q 'MISSING parent' out.txt && grep -q '1 message record of' err.txt && ok "branches: a missing parent starts the branch" || bad "missing parent: $(cat err.txt)"

summary claude-source
[ "$fails" = 0 ]
