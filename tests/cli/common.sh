# common.sh - sourced by the CLI test scripts: named checks, counters, and the checks they share.
# Every check prints one TAP line, "ok N - name" or "not ok N - name" (a skipped one
# "ok N - name # skip: why"); `summary NAME` ends a script with "# P passed, F failed, S skipped"
# and the plain "NAME: P passed, F failed" line CI reads.  A check without a name of its own is
# named after the last expect_rc ("DESC, check K").
# A skip is never silent (issue 27): in CI (CI=true) it is a failure, since .ci/run installs what
# every check needs; elsewhere the script ends with a SKIPPED list (on exit, summary or not) and
# the line "txc-test: N checks SKIPPED", which ctest reports as a skipped test (its
# SKIP_REGULAR_EXPRESSION; never printed when a check failed, so a skip cannot hide a failure).
# Under tools/memcheck.sh (TXC_MEMCHECK=1) a skip is only listed: the checks that cannot run in
# valgrind's wrapper run in the plain run of the same script, where CI fails any skip.
# python3 through pyenv's shim runs a bash script before every call (seconds each on a loaded
# machine, and the scripts make hundreds of calls: cli.search took 526 s in CI, issue 27): put the
# interpreter the shim would run first in PATH, for the scripts and every tool they start.
case $(command -v python3 2> /dev/null) in
*/.pyenv/shims/python3)
	if py=$(pyenv which python3 2> /dev/null) && [ -x "$py" ]; then PATH=${py%/*}:$PATH && export PATH; fi ;;
esac
passes=0 fails=0 skips=0 checks=0 last_desc=start after=0 skipped= skips_said=0
check_name() { after=$((after + 1)); echo "$last_desc, check $after"; }
ok() { # [name]
	checks=$((checks + 1)) passes=$((passes + 1))
	if [ $# -gt 0 ]; then echo "ok $checks - $*"; else echo "ok $checks - $(check_name)"; fi
}
bad() { checks=$((checks + 1)) fails=$((fails + 1)); echo "not ok $checks - $*"; }
skip() { # name why: a check that cannot run here says so and is counted (a failure in CI)
	if [ "${CI:-}" = true ] && [ -z "${TXC_MEMCHECK:-}" ]; then
		bad "$1: did not run, and CI (CI=true) must run every check: $2"
		return
	fi
	checks=$((checks + 1)) skips=$((skips + 1)); echo "ok $checks - $1 # skip: $2"
	skipped="$skipped
#   SKIPPED: $1 ($2)"
}
say_skips() { # the loud list, once
	[ "$skips" = 0 ] || [ "$skips_said" = 1 ] && return 0
	skips_said=1
	echo "# ---- $skips checks SKIPPED here (they did not run; CI=true fails them):$skipped"
	[ "$fails" != 0 ] || [ -n "${TXC_MEMCHECK:-}" ] || echo "txc-test: $skips checks SKIPPED"
}
trap say_skips EXIT
summary() { # NAME
	echo "1..$checks"
	echo "# $passes passed, $fails failed, $skips skipped"
	echo "$1: $passes passed, $fails failed"
	say_skips
	[ "$fails" = 0 ] # a script that ends with summary fails when a check did
}
expect_rc() { # want desc cmd...: run cmd (stdout to out.txt, stderr to err.txt), check its exit status
	want=$1 desc=$2; shift 2
	last_desc=$desc after=0
	"$@" > out.txt 2> err.txt; rc=$?
	if [ "$rc" = "$want" ]; then ok "$desc: exit $want"; else bad "$desc: exit $rc, want $want ($(head -c 300 err.txt))"; fi
}
one_line_err() { n=$(wc -l < err.txt); [ "$n" -ge 1 ] && grep -q '^txc: error: ' err.txt && ok "$1: one error line" || bad "$1: no 'txc: error:' line"; }
# strict JSON and not empty: an empty file is valid JSONL, and a check must not pass on no output
json_ok() { for f; do [ -s "$f" ] || { echo "# $f is empty"; return 1; }; done; "$jsoncheck" "$@"; }
