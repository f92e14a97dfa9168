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

# --- Claude Code -> Codex -> Claude Code: the fixtures' sessions with an image, signed and redacted
#     thinking, a compaction, a slash command, parallel and repeated tool calls ---
mkdir -p cx cc
for s in 5f3c2a10-0000-4000-8000-000000000001 c7e0b3a4-0000-4000-8000-000000000003; do
	expect_rc 0 "claude $s: as txc reads it" env CLAUDE_CONFIG_DIR="$fix/claude-config" "$txc" convert "claude:$s" \
		--to claude --include-compacted -o "was-$s.jsonl"
	expect_rc 0 "claude $s --to codex --install" env CLAUDE_CONFIG_DIR="$fix/claude-config" CODEX_HOME="$work/cx" \
		"$txc" convert "claude:$s" --to codex --install --include-compacted
	x=$(sed -n 's/^resume with: .* codex resume //p' out.txt)
	expect_rc 0 "codex $x --to claude --install" env CODEX_HOME="$work/cx" CLAUDE_CONFIG_DIR="$work/cc" "$txc" \
		convert "codex:$x" --to claude --install --include-compacted
	now=$(sed -n 's/^installed //p' out.txt)
	python3 "$src/cli/roundtrip-claude.py" "was-$s.jsonl" "$now" > cmp.txt 2>&1 && ok "claude $s survives: $(tail -1 cmp.txt)" ||
		bad "claude $s round trip: $(head -c 1500 cmp.txt)"
done

summary roundtrip-tests
