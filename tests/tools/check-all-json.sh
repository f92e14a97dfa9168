#!/bin/sh
# Every JSON and JSONL file the other tests produced must be strict UTF-8 JSON.  One jsoncheck
# process for all of them (it names each bad file and line): a process per file cost 148 s
# under ASan for a few thousand files (issue 27, CI time).
# usage: check-all-json.sh JSONCHECK TESTS_BINARY_DIR
jsoncheck=$1 dir=$2
# skipped, as inputs the tests made to be read, not txc's output: a foreign file the bulk test
# must not overwrite, the malformed inputs of the --skip-bad tests (bad.jsonl and the one named
# with an escape), an export file with CRLF and blank lines, Codex's rollouts as read (hostile
# ones too)
files() {
	find "$dir"/work-* \( -name '*.json' -o -name '*.jsonl' \) ! -path '*work-memcheck*' \
		! -path '*/work-select/cl/tools-*.jsonl' ! -path '*/work-remote/bad*.jsonl' \
		! -path '*/work-edges/crlf.jsonl' ! -path '*/work-codex-source/home/*' \
		! -path '*/work-codex-source/odd/*' -print0
}
n=$(files | tr -dc '\0' | wc -c)
if files | xargs -0 -r "$jsoncheck"; then rc=0; else rc=1; fi
echo "json: $n files checked, $([ $rc = 0 ] && echo 'none invalid' || echo 'some invalid (named above)')"
[ $rc = 0 ] && [ "$n" -gt 20 ]
