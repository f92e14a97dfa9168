#!/bin/sh
# Run a CLI test script with txc under valgrind memcheck; pass only if the script passes and
# valgrind saw 0 errors and 0 leaked blocks.
# usage: memcheck.sh TXC SCRIPT MKDB JSONCHECK TESTS_DIR WORK_DIR
# TXC_MEMCHECK_EVERY=K (default 3): the 1st, (K+1)th, (2K+1)th... txc run of the script goes
# under valgrind, the others run plain (ASan+UBSan runs every one of them in CI).  Valgrind costs
# about a second a run and the scripts make well over a thousand: all of them under valgrind were
# some 36 CPU-minutes of a 58-minute CI run on 2 cores (issue 27).  TXC_MEMCHECK_EVERY=1: every run.
set -u
txc=$1 script=$2; shift 2
logs=$4.valgrind
rm -rf "$logs" && mkdir -p "$logs" || exit 1
wrapper=$logs/txc
every=${TXC_MEMCHECK_EVERY:-3}
case $every in '' | *[!0-9]* | 0) echo "memcheck: TXC_MEMCHECK_EVERY must be a positive number" >&2; exit 2 ;; esac
: > "$logs/count"
# the run's number under a lock (scripts run txc in the background too)
cat > "$wrapper" <<W
#!/bin/sh
n=\$(flock "$logs/count" sh -c 'n=\$(wc -l < "$logs/count"); echo >> "$logs/count"; echo \$n')
[ \$((n % $every)) = 0 ] || exec "$txc" "\$@"
exec valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \\
	--errors-for-leak-kinds=definite,indirect --track-fds=no --log-file="$logs/vg.%p.log" "$txc" "\$@"
W
chmod +x "$wrapper"
# TXC_MEMCHECK: a check the wrapper cannot run is listed, not failed (tests/cli/common.sh)
# TXC_REAL: the plain txc, for a script's reference outputs that are not what it tests (remote-tests.sh)
TXC_MEMCHECK=1 TXC_REAL=$txc sh "$script" "$wrapper" "$@"; rc=$?
runs=$(ls "$logs"/vg.*.log 2> /dev/null | wc -l)
errors=$(cat "$logs"/vg.*.log 2> /dev/null | grep -c '^==[0-9]*== [A-Z]')
cat "$logs"/vg.*.log 2> /dev/null | grep -A8 '^==[0-9]*== [A-Z]' | head -40
echo "memcheck: $runs of $(wc -l < "$logs/count") txc runs under valgrind, $errors error or leak reports"
[ "$rc" = 0 ] && [ "$errors" = 0 ] && [ "$runs" -gt 0 ]
