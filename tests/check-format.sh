#!/bin/sh
# check-format.sh - the C sources follow .clang-format (clang-format --dry-run --Werror).
# usage: check-format.sh SOURCE_DIR
cd "$1" || exit 2
if ! command -v clang-format > /dev/null; then
	# in CI (CI=true) a check that cannot run fails (.ci/run installs clang-format); elsewhere
	# ctest shows the test as skipped (the "txc-test: ... SKIPPED" line, tests/CMakeLists.txt)
	if [ "${CI:-}" = true ]; then
		echo "format: FAILED, clang-format is not installed and CI must run every check (apt-get install clang-format)"
		exit 1
	fi
	echo "format: SKIPPED, clang-format is not installed (apt-get install clang-format)"
	echo "txc-test: 1 checks SKIPPED"
	exit 0
fi
files=$(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'tests/*.c' 'tests/*.h' 'bench/*.c' 2> /dev/null || find src include tests bench -name '*.[ch]')
# one clang-format for all the files (a process per file was most of this test's time: 111
# files, 12 s of CPU on a busy machine); its messages name each file that differs
n=$(echo "$files" | wc -w) err=$(mktemp) || exit 1
clang-format --dry-run --Werror $files > /dev/null 2> "$err"; rc=$?
bad=$(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*-Wclang-format-violations.*$/\1/p' "$err" | sort -u)
if [ $rc != 0 ] && [ -z "$bad" ]; then # not a difference: clang-format itself failed
	echo "format: clang-format failed: $(head -n 3 "$err")"
	rm -f "$err"
	exit 1
fi
rm -f "$err"
for f in $bad; do
	echo "format: $f differs from .clang-format (run: clang-format -i $f)"
done
nbad=$(echo "$bad" | grep -c .)
echo "format: $((n - nbad)) passed, $nbad failed"
[ "$nbad" = 0 ]
