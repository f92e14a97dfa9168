#!/bin/sh
# --help and usage errors (issue 30 item 9): each command's help lists only its own options and
# ends with 3-5 examples; a mistyped command, option or format word gets "did you mean" (one line
# on stderr, exit 2); -n is --limit wherever --limit is.
# usage: help-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" m.db "$src/fixtures/minimal.sql" || exit 1

# ---- each command's help: its options only, then its examples ----
for c in list convert export artifacts search view; do
	expect_rc 0 "$c --help" "$txc" $c --help
	n=$(sed -n '/^examples:$/,$p' out.txt | grep -c '^  txc ')
	[ "$n" -ge 3 ] && [ "$n" -le 5 ] && ok "$c --help: $n examples" || bad "$c --help: $n examples"
	[ "$(sed -n '/^examples:$/,$p' out.txt | grep -vc '^  txc \|^examples:$')" = 0 ] && ok "$c --help ends with its examples" ||
		bad "$c --help: lines after the examples"
	sed -n '/^examples:$/,$p' out.txt | grep -v "^  txc $c \|^  txc $c\$\|^examples:" | grep -q . && bad "$c: an example of another command" || ok
	sed -n '/^examples:$/,$p' out.txt | awk 'length > 80' | grep -q . && bad "$c --help: an example over 80 columns" || ok
	# every option listed is one the command takes: none of them is refused as not applying
	for o in $(sed -n 's/^  \(-., \)\{0,1\}--\([a-z-]*\).*/\2/p' out.txt); do
		"$txc" $c --$o --help > /dev/null 2> err.txt
		grep -q 'does not apply' err.txt && bad "$c --help lists --$o, which it refuses"
	done
	ok "$c --help lists only options it takes"
done
"$txc" list --help > l.txt; "$txc" convert --help > c.txt
grep -q -- '--to FORMAT' l.txt && bad "list --help lists --to" || ok "list --help has no --to"
grep -q -- '--since' c.txt && bad "convert --help lists --since" || ok "convert --help has no --since"
# the examples run: each list example's options parse (on a real store)
expect_rc 0 "an example: list -n 20 --model" "$txc" list -n 20 --model sonnet --db m.db

# ---- did you mean ----
dym() { # want-exit desc expected-line cmd...
	want=$1 desc=$2 line=$3; shift 3
	expect_rc "$want" "$desc" "$@"
	[ "$(cat err.txt)" = "$line" ] && ok "$desc: one line" || bad "$desc: $(cat err.txt)"
}
dym 2 "txc lst" "txc: error: unknown command 'lst'; did you mean 'list'? (see 'txc --help')" "$txc" lst
dym 2 "txc lsit (a transposition)" "txc: error: unknown command 'lsit'; did you mean 'list'? (see 'txc --help')" "$txc" lsit
dym 2 "txc help vew" "txc: error: unknown command 'vew'; did you mean 'view'? (see 'txc --help')" "$txc" help vew
dym 2 "txc x: nothing near" "txc: error: unknown command 'x' (see 'txc --help')" "$txc" x
dym 2 "txc '': nothing near" "txc: error: unknown command '' (see 'txc --help')" "$txc" ''
dym 2 "txc frobnicate: nothing near" "txc: error: unknown command 'frobnicate' (see 'txc --help')" "$txc" frobnicate
dym 2 "--sinse" "txc: error: unknown option '--sinse'; did you mean '--since'? (see 'txc list --help')" "$txc" list --sinse 1d
dym 2 "--sinse=1d" "txc: error: unknown option '--sinse=1d'; did you mean '--since'? (see 'txc list --help')" "$txc" list --sinse=1d
dym 2 "--bogus: nothing near" "txc: error: unknown option '--bogus' (see 'txc list --help')" "$txc" list --bogus
dym 2 "--to md" "txc: error: unknown format 'md' (claude, codex, hermes, markdown, html or terminal); did you mean 'markdown'? (see 'txc convert --help')" \
	"$txc" convert m1 --db m.db --to md
dym 2 "--to htm" "txc: error: unknown format 'htm' (claude, codex, hermes, markdown, html or terminal); did you mean 'html'? (see 'txc export --help')" \
	"$txc" export --db m.db --to htm --out x
dym 2 "--to pdf: nothing near" "txc: error: unknown format 'pdf' (claude, codex, hermes, markdown, html or terminal) (see 'txc convert --help')" \
	"$txc" convert m1 --db m.db --to pdf
dym 2 "--detail ful" "txc: error: --detail takes normal, full, brief or prompts, not 'ful'; did you mean 'full'? (see 'txc view --help')" \
	"$txc" view m1 --db m.db --detail ful
dym 2 "--from claud" "txc: error: --from takes hermes, claude or codex, not 'claud'; did you mean 'claude'? (see 'txc list --help')" \
	"$txc" list --from claud

# ---- -n is --limit ----
expect_rc 0 "list -n 1" "$txc" list -n 1 --db m.db
[ "$(grep -c '^m[12] ' out.txt)" = 1 ] && ok "-n 1: one session" || bad "-n 1: $(cat out.txt)"
expect_rc 0 "list -n1" "$txc" list -n1 --db m.db
[ "$(grep -c '^m[12] ' out.txt)" = 1 ] && ok "-n1: one session" || bad "-n1: $(cat out.txt)"
dym 2 "-n 0" "txc: error: --limit takes a positive number, not '0' (see 'txc list --help')" "$txc" list -n 0 --db m.db
for c in list export search view; do
	"$txc" $c --help | grep -q -- '^  -n, --limit N' && ok "$c --help: -n, --limit" || bad "$c --help lacks -n"
done
dym 2 "-n where --limit is not" "txc: error: --limit does not apply to 'txc convert' (see 'txc convert --help')" \
	"$txc" convert m1 --db m.db --to markdown -n 2

# --force never replaces a session continued in either program, and its help says both (hostile pass)
"$txc" convert --help | tr -s ' \n' ' ' | grep -q 'never a session continued in Claude Code or Codex' &&
	ok "--force help names Codex too" || bad "--force help: $("$txc" convert --help | grep -A1 -- --force)"

summary help-tests
