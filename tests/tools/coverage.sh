#!/bin/sh
# coverage.sh - build txc with gcov instrumentation, run the suite (memcheck excluded: valgrind
# adds nothing to coverage), and report line and branch coverage of src/ with gcovr.
# usage: coverage.sh SOURCE_DIR BUILD_DIR [MIN_LINES MIN_BRANCHES]
# COVERAGE_BUILD_TYPE=Sanitize: the instrumented build is also the ASan+UBSan one (still -O0); its
# branch figure then counts the sanitizers' checks, so CI does not use it for the gate.
# Exits non-zero when a test fails or when coverage is below the minimums given.
set -eu
src=$(cd "$1" && pwd) build=$2 min_lines=${3:-0} min_branches=${4:-0}
command -v gcovr > /dev/null || { echo "coverage: gcovr is not installed (apt-get install gcovr)"; exit 1; }
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE="${COVERAGE_BUILD_TYPE:-Debug}" -DTXC_COVERAGE=ON -DTXC_WERROR=ON > /dev/null
cmake --build "$build" -j2 > /dev/null
find "$build" -name '*.gcda' -delete
# The live test runs txc as another user (a read-only WAL folder): with counter files it can
# write (umask 0 while they are created, the tests set their own umask where it matters), the
# code that case runs is counted instead of lost to "profiling: cannot open".
(umask 0 && cd "$build" && ctest -LE memcheck -E bench --output-on-failure)
# Unreachable branches (compiler-made) are not counted; LCOV_EXCL lines mark out-of-memory paths.
gcovr -r "$src" --filter "$src/src/" --exclude-unreachable-branches --exclude-throw-branches \
	--print-summary --fail-under-line "$min_lines" --fail-under-branch "$min_branches" \
	-o "$build/coverage.txt" "$build"
echo "coverage: per-file report in $build/coverage.txt"
