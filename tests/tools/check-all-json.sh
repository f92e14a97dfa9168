#!/bin/sh
# Every JSON and JSONL file the other tests produced must be strict UTF-8 JSON.
# usage: check-all-json.sh JSONCHECK TESTS_BINARY_DIR
jsoncheck=$1 dir=$2
n=0 bad=0
for f in $(find "$dir"/work-* \( -name '*.json' -o -name '*.jsonl' \) ! -path '*work-memcheck*' | sort); do
	case "$f" in
	*/work-select/cl/tools-*.jsonl) continue ;; # a foreign file the bulk test must not overwrite
	*/work-remote/bad.jsonl) continue ;;        # the malformed input of the --skip-bad test
	*/work-codex-source/home/*) continue ;;     # Codex's rollouts as read, hostile ones too (inputs)
	esac
	n=$((n + 1))
	"$jsoncheck" "$f" || { echo "FAIL: $f"; bad=$((bad + 1)); }
done
echo "json: $n files checked, $bad invalid"
[ "$bad" = 0 ] && [ "$n" -gt 20 ]
