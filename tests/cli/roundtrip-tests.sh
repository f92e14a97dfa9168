#!/bin/sh
# Round trips through Codex (issue 29): Claude Code -> Codex -> Claude Code and Hermes -> Codex ->
# Hermes keep the conversation: message texts in order, tool calls with their outputs bound by
# id, images, reasoning text, developer/system messages (roundtrip-claude.py says what is compared).
# usage: roundtrip-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
export TZ=UTC
unset HERMES_HOME CLAUDE_CONFIG_DIR CODEX_HOME
fix=$src/fixtures

# claude_trip CONFIG SESSION: the session as txc reads it, then --to codex --install, then that
# rollout --to claude --install; the two Claude files compared ($now: the one that came back)
claude_trip() {
	cfg=$1 s=$2
	expect_rc 0 "claude $s: as txc reads it" env CLAUDE_CONFIG_DIR="$cfg" "$txc" convert "claude:$s" \
		--to claude --include-compacted -o "was-$s.jsonl"
	expect_rc 0 "claude $s --to codex --install" env CLAUDE_CONFIG_DIR="$cfg" CODEX_HOME="$work/cx" \
		"$txc" convert "claude:$s" --to codex --install --include-compacted
	x=$(sed -n 's/^resume with: .* codex resume //p' out.txt)
	[ "$s" = signed ] && signed_x=$x
	expect_rc 0 "codex $x --to claude --install" env CODEX_HOME="$work/cx" CLAUDE_CONFIG_DIR="$work/cc" "$txc" \
		convert "codex:$x" --to claude --install --include-compacted
	now=$(sed -n 's/^installed //p' out.txt)
	python3 "$src/cli/roundtrip-claude.py" "was-$s.jsonl" "$now" > cmp.txt 2>&1 && ok "claude $s survives: $(tail -1 cmp.txt)" ||
		bad "claude $s round trip: $(head -c 1500 cmp.txt)"
}

# --- Claude Code -> Codex -> Claude Code: the fixtures' sessions with an image, signed and redacted
#     thinking, a compaction, a slash command, parallel and repeated tool calls ---
mkdir -p cx cc
for s in 5f3c2a10-0000-4000-8000-000000000001 c7e0b3a4-0000-4000-8000-000000000003; do
	claude_trip "$fix/claude-config" "$s"
done

# a session of Claude's edits (Edit, MultiEdit, a Write without a final newline, which no patch
# says) in a project of its own; and Codex's fixture with a developer message, made a Claude file
mkdir -p "ed/projects/-repo-ed" && python3 - "ed/projects/-repo-ed/e0000000-0000-4000-8000-0000000000e1.jsonl" <<'PY'
import json, sys
recs, prev = [], None
def rec(kind, content, **extra):
    global prev
    u = "e0000000-0000-4000-8000-%012d" % (len(recs) + 1)
    msg = {"role": kind, "content": content}
    if kind == "assistant":
        msg.update({"id": "m%d" % len(recs), "type": "message", "model": "claude-opus-4-5", "stop_reason": "tool_use"})
    recs.append(dict({"parentUuid": prev, "isSidechain": False, "userType": "external", "cwd": "/repo/ed",
                      "sessionId": "e0000000-0000-4000-8000-0000000000e1", "version": "2.1.332", "type": kind,
                      "uuid": u, "timestamp": "2026-03-01T10:00:%02d.000Z" % len(recs), "message": msg}, **extra))
    prev = u
def call(i, name, inp):
    rec("assistant", [{"type": "tool_use", "id": "e%d" % i, "name": name, "input": inp}])
    rec("user", [{"type": "tool_result", "tool_use_id": "e%d" % i, "content": "done %d" % i}])
rec("user", "Rename x to y")
call(1, "Edit", {"file_path": "/repo/ed/a.c", "old_string": "int x;\n", "new_string": "int y;\n"})
call(2, "MultiEdit", {"file_path": "/repo/ed/b.c", "edits": [{"old_string": "x = 1;\n", "new_string": "y = 1;\n"},
                                                             {"old_string": "f(x);\ng(x);\n", "new_string": "f(y);\n"}]})
call(3, "Write", {"file_path": "/repo/ed/c.txt", "content": "no final newline"})
call(4, "Edit", {"file_path": "/repo/ed/d.c", "old_string": "x", "new_string": "y"})
rec("assistant", [{"type": "text", "text": "Renamed."}])
open(sys.argv[1], "w").write("".join(json.dumps(r) + "\n" for r in recs))
PY
expect_rc 0 "codex fixture --to claude --install" env CODEX_HOME="$fix/codex-home" CLAUDE_CONFIG_DIR="$work/ed" "$txc" \
	convert codex:7d3 --to claude --install --include-compacted
for s in e0000000-0000-4000-8000-0000000000e1 $(sed -n 's/^resume with: .* claude --resume //p' out.txt); do
	claude_trip "$work/ed" "$s"
done
grep -q '"isMeta":true,"message":{"role":"user","content":\[{"type":"text","text":"<permissions instructions>' "$now" &&
	ok "the developer message is still instructions" || bad "developer message: $(grep -c isMeta "$now")"
grep -q '"name":"Edit","input":{"file_path":"/repo/ed/a.c"' cc/projects/*/*.jsonl &&
	grep -q '"name":"MultiEdit","input":{"file_path":"/repo/ed/b.c"' cc/projects/*/*.jsonl && ok "Edit and MultiEdit come back" ||
	bad "edits: $(grep -o '"name":"[A-Za-z_]*"' cc/projects/*/*.jsonl | sort | uniq -c)"

# --- Hermes -> Codex -> Hermes: the export of the rollout, read back (--input), holds what the
#     store's session held (signed and unsigned reasoning, inline reasoning, a compression's live
#     rows, unicode); compared as the Claude files txc makes of both ---
"$mkdb" f.db "$fix/features.sql" && "$mkdb" r.db "$fix/reasoning.sql" && "$mkdb" c.db "$fix/claude-trust.sql" || exit 1
mkdir -p hx
# (f:tools: parallel and reused calls, a patch in patch mode, arguments that are not JSON, a result
#  without a call before a call without one, and a call left without a result before the user's text;
#  one difference stays inherent: a patch-mode patch that ends in a newline and says one Edit comes
#  back as that Edit, since the rollout's apply_patch does not say which tool made it)
for p in f:chat f:tools r:inline r:signed c:heavy; do
	db=${p%%:*}.db s=${p#*:}
	expect_rc 0 "hermes $s --to codex --install" env CODEX_HOME="$work/hx" "$txc" convert "$s" --db "$db" --to codex --install
	x=$(sed -n 's/^resume with: .* codex resume //p' out.txt)
	[ "$s" = signed ] && signed_x=$x
	expect_rc 0 "codex $x --to hermes" env CODEX_HOME="$work/hx" "$txc" convert "codex:$x" --to hermes -o "h-$s.json"
	expect_rc 0 "hermes $s as txc reads it" "$txc" convert "$s" --db "$db" --to claude -o "hw-$s.jsonl"
	expect_rc 0 "the export read back" "$txc" convert --input "h-$s.json" "$x" --to claude -o "hn-$s.jsonl"
	python3 "$src/cli/roundtrip-claude.py" "hw-$s.jsonl" "hn-$s.jsonl" > cmp.txt 2>&1 && ok "hermes $s survives: $(tail -1 cmp.txt)" ||
		bad "hermes $s round trip: $(head -c 1500 cmp.txt)"
done
grep -q '"reasoning": "Other provider text."' h-signed.json && ok "unsigned reasoning is Hermes's reasoning again" ||
	bad "signed: $(grep -o '"reasoning": "[^"]*"' h-signed.json)"
# Anthropic's signed and redacted thinking through Codex: the rollout carries the signatures and
# redacted data in txc's own fields on the agent_reasoning events (Codex 0.171.0 keeps them in the
# file and sends them nowhere), so Hermes -> Codex -> Claude Code and Hermes -> Codex -> Hermes
# (reasoning_details again) give Claude Code the blocks Anthropic signed, byte for byte
thinking() { # FILE: the Claude file's thinking and redacted_thinking blocks, one a line
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    for b in (r.get("message") or {}).get("content") or [] if r.get("type") == "assistant" else []:
        if isinstance(b, dict) and b.get("type") in ("thinking", "redacted_thinking"):
            print(json.dumps([b["type"], b.get("thinking"), b.get("signature"), b.get("data")]))
' "$1"
}
expect_rc 0 "signed: codex --to claude" env CODEX_HOME="$work/hx" "$txc" convert "codex:$signed_x" --to claude -o hc-signed.jsonl
thinking hw-signed.jsonl > t-was.txt && [ "$(grep -c '"thinking", ".*", "[^"]*=="' t-was.txt)" = 3 ] &&
	[ "$(grep -c redacted_thinking t-was.txt)" = 2 ] && ok "signed: 3 signed and 2 redacted blocks to keep" || bad "signed: $(cat t-was.txt)"
thinking hc-signed.jsonl > t-now.txt && cmp -s t-was.txt t-now.txt && ok "Hermes -> Codex -> Claude Code: the signed thinking kept" ||
	bad "signed via codex: $(diff t-was.txt t-now.txt | head -5)"
thinking hn-signed.jsonl > t-now.txt && cmp -s t-was.txt t-now.txt && ok "Hermes -> Codex -> Hermes: reasoning_details kept" ||
	bad "signed via codex and hermes: $(diff t-was.txt t-now.txt | head -5)"

summary roundtrip-tests
