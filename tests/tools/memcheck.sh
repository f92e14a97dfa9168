#!/bin/sh
# Run a CLI test script with every txc invocation under valgrind memcheck; pass
# only if the script passes and valgrind saw 0 errors and 0 leaked blocks.
# usage: memcheck.sh TXC SCRIPT MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 script=$2; shift 2
logs=$4.valgrind
rm -rf "$logs" && mkdir -p "$logs" || exit 1
wrapper=$logs/txc
cat > "$wrapper" <<W
#!/bin/sh
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
echo "memcheck: $runs txc runs under valgrind, $errors error or leak reports"
[ "$rc" = 0 ] && [ "$errors" = 0 ] && [ "$runs" -gt 0 ]
