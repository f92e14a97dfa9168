# common.sh - sourced by the CLI test scripts: counters and the checks they share.
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { # want desc cmd...: run cmd (stdout to out.txt, stderr to err.txt), check its exit status
	want=$1 desc=$2; shift 2
	"$@" > out.txt 2> err.txt; rc=$?
	if [ "$rc" = "$want" ]; then ok; else bad "$desc: exit $rc, want $want ($(head -c 300 err.txt))"; fi
}
one_line_err() { n=$(wc -l < err.txt); [ "$n" -ge 1 ] && grep -q '^txc: error: ' err.txt && ok || bad "$1: no 'txc: error:' line"; }
