#!/usr/bin/env bash
# codex-check-store.sh TXC STORE [WORKDIR]
#
# The real-consumer check of `--to codex` on a whole store (issue 29's "Done when"): exports
# every session of STORE (a Hermes state.db, e.g. one bench/genstore wrote; archived and child
# sessions included, as `export` selects them all) with `TXC export --to codex`, resumes each
# rollout in the real Codex CLI offline (../shared/tools/codex-check/codex-check.sh) and prints
# a summary: "N PASS of M", each FAIL with its first lines, the sum of "file units sent".
# Then two samples of round trips:
#   via Claude Code: Hermes -> --to claude --install -> read back as claude:ID -> --to codex -> codex-check
#   Codex -> Claude Code: an exported rollout installed in a CODEX_HOME -> codex:ID --to claude ->
#     claude-check (../shared/tools/claude-check/claude-check.sh)
# Not part of ctest: a store of ~800 sessions takes 20-60 minutes (2.5-10 s per Codex run).
# The store is opened read-only by txc; nothing is written outside WORKDIR (default
# ${TMPDIR:-/tmp}/codex-check-store). The exit status is 0 when every check passed.
#
# Environment:
#   CODEX_CHECK   codex-check.sh (default ../shared/tools/codex-check/codex-check.sh beside the repo)
#   CLAUDE_CHECK  claude-check.sh (default ../shared/tools/claude-check/claude-check.sh)
#   JOBS          checks run at once (default 2, each under nice)
#   LIMIT         check only the first LIMIT exported sessions (default 0: all)
#   SAMPLE        sessions in each round-trip sample (default 20; 0 skips the round trips)
#   CHECK_TIMEOUT passed on to the checks (default 90 s)
set -u

usage() {
	echo "usage: $0 TXC STORE [WORKDIR]" >&2
	exit 2
}
[ $# -ge 2 ] || usage
TXC=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
STORE=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
W=${3:-${TMPDIR:-/tmp}/codex-check-store}
[ -x "$TXC" ] || { echo "$0: $1 is not an executable" >&2; exit 2; }
[ -f "$STORE" ] || { echo "$0: $2 is not a file" >&2; exit 2; }
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CODEX_CHECK=${CODEX_CHECK:-$REPO/../shared/tools/codex-check/codex-check.sh}
[ -f "$CODEX_CHECK" ] || { echo "$0: no codex-check.sh at $CODEX_CHECK; set CODEX_CHECK" >&2; exit 2; }
CLAUDE_CHECK=${CLAUDE_CHECK:-$REPO/../shared/tools/claude-check/claude-check.sh}
[ -f "$CLAUDE_CHECK" ] || { echo "$0: no claude-check.sh at $CLAUDE_CHECK; set CLAUDE_CHECK" >&2; exit 2; }
JOBS=${JOBS:-2}
LIMIT=${LIMIT:-0}
SAMPLE=${SAMPLE:-20}
# Codex runs from an empty folder of its own: a session's cwd (often /repo) may come and go
# while it runs (claude-check makes a missing cwd for its run and removes it after)
export CHECK_QUIET=1 CHECK_TMP="$W/tmp" TMPDIR="$W/tmp" CHECK_RUN_CWD="$W/run"
mkdir -p "$W/tmp" "$W/run" || exit 2
# the checkers' installed programs stay where install.sh put them; txc's own index goes to WORKDIR
export CODEX_CHECK_HOME="${CODEX_CHECK_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/codex-check}"
export CLAUDE_CHECK_HOME="${CLAUDE_CHECK_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/claude-check}"
export XDG_CACHE_HOME="$W/cache"

# one check: GROUP FILE -> $W/res/GROUP/<name>.txt holding the report (the verdict first);
# group c2c is Claude Code's check, the others Codex's
check_one() { # group file
	local out
	out="$W/res/$1/$(basename "$2" .jsonl).txt"
	if [ "$1" = c2c ]; then
		nice bash "$CLAUDE_CHECK" "$2" >"$out" 2>&1
	else
		nice bash "$CODEX_CHECK" "$2" >"$out" 2>&1
	fi
	echo "rc=$?" >>"$out"
}
export -f check_one
export W CODEX_CHECK CLAUDE_CHECK

# checks the files named on stdin (one per line) of KIND, JOBS at a time
run_checks() { # group
	mkdir -p "$W/res/$1"
	tee "$W/res/$1.list" | xargs -r -d '\n' -P "$JOBS" -I{} bash -c 'check_one "$0" "$1"' "$1" {}
	# a check that the checker itself failed runs once more: no verdict (a port taken, a folder
	# gone), or Claude Code's "Can't access working directory" (claude-check makes a missing cwd
	# such as /repo for its run and removes it after, under another run of the same cwd)
	local f r
	while read -r f; do
		r="$W/res/$1/$(basename "$f" .jsonl).txt"
		if ! head -1 "$r" 2>/dev/null | grep -q '^\(PASS\|FAIL\):' || grep -q "Can't access working directory" "$r"; then
			check_one "$1" "$f"
		fi
	done <"$W/res/$1.list"
}

# prints "n PASS of m, u file units sent" for the reports of GROUP, and each FAIL's first lines
summary() { # group label
	local pass=0 all=0 units=0 rewritten=0 f u
	for f in "$W/res/$1"/*.txt; do
		[ -e "$f" ] || continue
		all=$((all + 1))
		if head -1 "$f" | grep -q '^PASS'; then
			pass=$((pass + 1))
		else
			echo "FAIL [$2] $(basename "$f" .txt):"
			grep -v '^rc=' "$f" | head -6 | sed 's/^/    /'
		fi
		# codex-check's "file units sent: N of M", claude-check's "transcript blocks sent: N of M"
		u=$(sed -n 's/^  \(file units\|transcript blocks\) sent: \([0-9]*\) of.*/\2/p' "$f" | head -1)
		units=$((units + ${u:-0}))
		rewritten=$((rewritten + $(grep -c '^  - rewritten by Codex' "$f")))
	done
	echo "$2: $pass PASS of $all, $units file units sent$([ "$rewritten" -gt 0 ] &&
		echo " ($rewritten item(s) rewritten by Codex, reported, not failing)")"
	[ "$pass" -eq "$all" ]
}

# 1. every session of the store
echo "exporting $STORE --to codex into $W/codex" >&2
rm -rf "$W/codex" "$W/res" "$W/cc" "$W/c2c" "$W/codexhome"
nice "$TXC" export --db "$STORE" --to codex --out "$W/codex" >"$W/export.out" 2>"$W/export.err"
erc=$?
rows=$(sqlite3 -readonly "file:$STORE?immutable=1" 'select count(*) from sessions' 2>/dev/null || echo "?")
files=$(find "$W/codex" -name '*.jsonl' ! -name manifest.jsonl | sort)
nfiles=$(printf '%s\n' "$files" | grep -c . || true)
echo "export: exit $erc, $nfiles rollout(s) for $rows session row(s)$( [ -s "$W/export.err" ] && printf '; stderr: %s' "$(tail -1 "$W/export.err")")"
# a session without a single message has nothing to resume: codex-check says so, and they are
# counted apart, not hidden
empty=0
: >"$W/tocheck"
for f in $files; do
	if grep -q '"type":"response_item"' "$f"; then echo "$f" >>"$W/tocheck"; else empty=$((empty + 1)); fi
done
[ "$LIMIT" -gt 0 ] && { head -n "$LIMIT" "$W/tocheck" >"$W/tocheck.l" && mv "$W/tocheck.l" "$W/tocheck"; }
echo "checking $(wc -l <"$W/tocheck") rollout(s) ($empty without messages left out), $JOBS at a time" >&2
run_checks store <"$W/tocheck"
status=0
summary store "store --to codex" || status=1
[ "$empty" -gt 0 ] && echo "  ($empty exported session(s) hold no message: nothing to resume)"
[ "$erc" -eq 0 ] || status=1

if [ "$SAMPLE" -gt 0 ]; then
	# 2. Hermes -> Claude Code -> Codex, a sample spread over the store
	ids=$(sqlite3 -readonly "file:$STORE?immutable=1" \
		"select id from sessions where id in (select session_id from messages) order by started_at" |
		awk -v n="$SAMPLE" '{a[NR]=$0} END {s=NR/n; if (s<1) s=1; for (i=1; i<=NR && c<n; i+=s) {print a[int(i)]; c++}}')
	: >"$W/tocheck"
	i=0
	for id in $ids; do
		i=$((i + 1))
		cc="$W/cc/$i"
		rm -rf "$cc" && mkdir -p "$cc/cfg"
		CLAUDE_CONFIG_DIR="$cc/cfg" nice "$TXC" convert --db "$STORE" "$id" --to claude --install >"$cc/install.out" 2>&1 ||
			{ echo "FAIL [claude->codex] $id: --to claude --install: $(tail -1 "$cc/install.out")"; status=1; continue; }
		for cid in $(CLAUDE_CONFIG_DIR="$cc/cfg" "$TXC" list claude --json 2>/dev/null | python3 -c \
			'import json,sys; [print(r["id"]) for r in json.load(sys.stdin)]'); do
			CLAUDE_CONFIG_DIR="$cc/cfg" nice "$TXC" convert "claude:$cid" --to codex -o "$cc/via-claude-$i-$cid.jsonl" 2>"$cc/convert.err" ||
				{ echo "FAIL [claude->codex] $id claude:$cid: $(tail -1 "$cc/convert.err")"; status=1; continue; }
			echo "$cc/via-claude-$i-$cid.jsonl" >>"$W/tocheck"
		done
	done
	run_checks via <"$W/tocheck"
	summary via "Hermes -> Claude Code -> Codex (sample)" || status=1

	# 3. Codex -> Claude Code: exported rollouts installed in a CODEX_HOME, read back as codex:ID
	if [ -f "$CLAUDE_CHECK" ]; then
		ch="$W/codexhome"
		rm -rf "$ch" "$W/c2c" && mkdir -p "$ch/sessions/2026/01/01" "$W/c2c"
		awk -v n="$SAMPLE" '{a[NR]=$0} END {s=NR/n; if (s<1) s=1; for (i=1; i<=NR && c<n; i+=s) {print a[int(i)]; c++}}' \
			<<<"$files" | while read -r f; do
			grep -q '"type":"response_item"' "$f" || continue
			uuid=$(head -1 "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["payload"]["id"])')
			cp "$f" "$ch/sessions/2026/01/01/rollout-2026-01-01T00-00-00-$uuid.jsonl"
			CODEX_HOME="$ch" nice "$TXC" convert "codex:$uuid" --to claude -o "$W/c2c/codex2claude-$uuid.jsonl" 2>"$W/c2c/$uuid.err" ||
				echo "FAIL [codex->claude] codex:$uuid: $(tail -1 "$W/c2c/$uuid.err")"
		done
		# one at a time: two claude-checks of one missing cwd remove it under each other
		find "$W/c2c" -name '*.jsonl' | sort | JOBS=1 run_checks c2c
		summary c2c "Codex -> Claude Code (sample, claude-check)" || status=1
	else
		echo "no claude-check.sh: Codex -> Claude Code sample skipped (set CLAUDE_CHECK)"
	fi
fi
exit $status
