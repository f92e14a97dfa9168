#!/bin/sh
# issue 31: memory of a Claude Code file read whole follows the model, not the file plus the
# builder's scratch: a 16 MB session (the quick bench store's 500-message session, 20 copies with
# uuids of their own, by tools/claude-grow.py) next to a 4 MB one (5 copies), converted --to
# hermes and --to markdown; the peak RSS they add per byte the file adds stays under 1.10: 1.32 and
# 1.28 when the builder held every message's turn state and a map and copies of every uuid, 1.02
# and 1.01 now (the model itself: the content, its blocks and tool inputs).
# Memory, not time: one run each, the same input gives the same peak.  Not registered in the
# sanitizer build (tests/CMakeLists.txt): its RSS is its shadow memory's; run there by hand, it skips.
# usage: claude-memory-tests.sh TXC GENSTORE SCHEMA MEASURE TESTS_DIR WORK_DIR
set -u
txc=$1 gen=$2 schema=$3 measure=$4 src=$5 work=$6
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
export TZ=UTC
unset HERMES_HOME
sid=cb15c7ca-7811-57e9-a3a4-246c8a4f96c9
if ldd "$txc" 2> /dev/null | grep -q libasan; then
	skip "claude file memory" "a sanitizer build: its RSS is the shadow memory's"
elif ! command -v python3 > /dev/null; then
	skip "claude file memory" "python3 is required"
else
	"$gen" store.db "$schema" 0 > /dev/null 2>&1 &&
		CLAUDE_CONFIG_DIR=$work/one "$txc" convert big --to claude --install --db store.db > /dev/null 2>&1
	one=$(ls "$work"/one/projects/*/*.jsonl 2> /dev/null | head -1)
	[ -s "$one" ] && ok "the quick store's big session as a Claude file" || bad "no Claude file made"
	for n in 5 20; do
		mkdir -p "cc$n/projects/p"
		python3 "$src/tools/claude-grow.py" "$one" "cc$n/projects/p/$sid.jsonl" $n
	done
	for fmt in hermes markdown; do
		expect_rc 0 "20 copies --to $fmt" env CLAUDE_CONFIG_DIR=$work/cc20 "$txc" convert "claude:$sid" --to $fmt
		grep -q "branch" err.txt && bad "the copies are one chain: $(cat err.txt)" || ok
		small=$(CLAUDE_CONFIG_DIR=$work/cc5 "$measure" 1 "$txc" convert "claude:$sid" --to $fmt | cut -d' ' -f2)
		big=$(CLAUDE_CONFIG_DIR=$work/cc20 "$measure" 1 "$txc" convert "claude:$sid" --to $fmt | cut -d' ' -f2)
		slope=$(awk -v s="$small" -v b="$big" -v fs="$(wc -c < "cc5/projects/p/$sid.jsonl")" \
			-v fb="$(wc -c < "cc20/projects/p/$sid.jsonl")" 'BEGIN { printf "%.3f", (b - s) * 1024 / (fb - fs) }')
		awk -v x="$slope" 'BEGIN { exit !(x <= 1.10) }' && ok "--to $fmt: $slope bytes of peak RSS per byte of file" ||
			bad "--to $fmt: peak RSS grows $slope bytes per byte of the file (> 1.10): $small KiB -> $big KiB"
	done
fi
summary claude-memory
