#!/bin/sh
# Writers and their options: each writer takes only the options it reads (the registry's .opts)
# and refuses the others with exit 2 and one line, in convert and export alike; format lists,
# --install, --images files and completions come from the registry.
# usage: writers-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1

# the write options, each with a value, and the writers that read them
opt_args() {
	case $1 in
	reasoning) echo "--reasoning text" ;;
	detail) echo "--detail brief" ;;
	max-output-lines) echo "--max-output-lines 3" ;;
	images) echo "--images omit" ;;
	include-compacted) echo "--include-compacted" ;;
	utc) echo "--utc" ;;
	hermes-format) echo "--hermes-format 0.21" ;;
	esac
}
takes() { # writer option: does the writer read it?  (a new writer adds its line here)
	case "$1:$2" in
	claude:reasoning | claude:include-compacted) return 0 ;;
	codex:reasoning | codex:include-compacted) return 0 ;;
	markdown:detail | markdown:max-output-lines | markdown:images | markdown:include-compacted | markdown:utc) return 0 ;;
	html:detail | html:max-output-lines | html:images | html:include-compacted | html:utc) return 0 ;;
	terminal:detail | terminal:max-output-lines | terminal:include-compacted | terminal:utc) return 0 ;;
	hermes:hermes-format) return 0 ;;
	esac
	return 1
}
known() { case $1 in claude | codex | hermes | markdown | html | terminal) return 0 ;; esac; return 1; }
refused() { # desc option writer: exit 2, exactly one line naming the option and the writer
	n=$(wc -l < err.txt)
	[ "$n" = 1 ] && grep -q "^txc: error: --$2 does not apply to --to $3 " err.txt && ok ||
		bad "$1: want one line '--$2 does not apply to --to $3', got: $(cat err.txt)"
}

# the writers as --help lists them, and as error messages list them ("a, b or c")
writers=$("$txc" convert --help | sed -n '/^formats:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ "$(echo $writers | wc -w)" -ge 3 ] && ok || bad "convert --help lists no formats: $writers"
list=$(echo $writers | awk '{ for (i = 1; i <= NF; i++) printf "%s%s", i == 1 ? "" : i == NF ? " or " : ", ", $i }')
for w in $writers; do known $w && ok || bad "writer '$w' unknown to this test: add what it takes to takes()"; done

for w in $writers; do
	for o in reasoning detail max-output-lines images include-compacted utc hermes-format; do
		# shellcheck disable=SC2046
		if takes $w $o; then
			expect_rc 0 "convert --to $w --$o" "$txc" convert tools --db feat.db --to $w $(opt_args $o)
			[ -s out.txt ] && ok || bad "convert --to $w --$o wrote nothing"
		else
			expect_rc 2 "convert --to $w --$o" "$txc" convert tools --db feat.db --to $w $(opt_args $o)
			refused "convert --to $w --$o" $o $w
			[ -s out.txt ] && bad "convert --to $w --$o wrote to stdout" || ok
		fi
		[ $o = utc ] && continue # export: --utc also reads --since/--until, never refused
		if takes $w $o; then
			expect_rc 0 "export --to $w --$o" "$txc" export --db feat.db --to $w --out "x-$w-$o" $(opt_args $o)
		else
			expect_rc 2 "export --to $w --$o" "$txc" export --db feat.db --to $w --out "x-$w-$o" $(opt_args $o)
			refused "export --to $w --$o" $o $w
			[ -e "x-$w-$o" ] && bad "export --to $w --$o made its --out DIR" || ok
		fi
	done
done

# the brief's example, word for word
expect_rc 2 "claude --detail" "$txc" convert tools --db feat.db --to claude --detail brief
grep -q "^txc: error: --detail does not apply to --to claude" err.txt && ok || bad "claude --detail: $(cat err.txt)"
# export --json is Hermes's own format: no write option; --utc still selects
expect_rc 2 "json --detail" "$txc" export --db feat.db --json --detail brief
grep -q "^txc: error: --detail does not apply to --json" err.txt && ok || bad "json --detail: $(cat err.txt)"
expect_rc 0 "json --utc" "$txc" export --db feat.db --json --utc --since 2000-01-01
[ -s out.txt ] && ok || bad "json --utc printed nothing"

# capabilities, named from the registry
expect_rc 2 "install markdown" "$txc" convert tools --db feat.db --to markdown --install
grep -q "^txc: error: --install works with --to claude or codex only" err.txt && ok || bad "install markdown: $(cat err.txt)"
expect_rc 2 "export install hermes" "$txc" export --db feat.db --to hermes --install
grep -q "^txc: error: --install works with --to claude or codex only" err.txt && ok || bad "export install: $(cat err.txt)"
expect_rc 2 "export without --out" "$txc" export --db feat.db --to markdown
grep -q "^txc: error: missing --out DIR (or --install with --to claude or codex)" err.txt && ok || bad "no --out: $(cat err.txt)"
expect_rc 2 "images files stdout" "$txc" convert img --db feat.db --to markdown --images files
grep -q "^txc: error: --images files needs --to markdown or html and -o FILE" err.txt && ok || bad "images files: $(cat err.txt)"
expect_rc 2 "unknown format" "$txc" convert tools --db feat.db --to pdf
grep -q "^txc: error: unknown format 'pdf' ($list)" err.txt && ok || bad "unknown: $(cat err.txt)"
expect_rc 2 "export unknown format" "$txc" export --db feat.db --to pdf --out y
grep -q "^txc: error: unknown format 'pdf' ($list)" err.txt && ok || bad "export unknown: $(cat err.txt)"
expect_rc 2 "missing --to" "$txc" convert tools --db feat.db
grep -q "^txc: error: missing --to FORMAT ($list)" err.txt && ok || bad "no --to: $(cat err.txt)"

# the writers of today are listed; completions offer every writer --help lists
[ "$list" = "claude, codex, hermes, markdown, html or terminal" ] && ok || bad "format list: '$list'"
words=$(echo $writers)
expect_rc 0 "bash completions" "$txc" completions bash
grep -q -- "--to) COMPREPLY=(\$(compgen -W '$words'" out.txt && ok || bad "bash --to words"
expect_rc 0 "zsh completions" "$txc" completions zsh
grep -q -- "--to=\[output format\]:FORMAT:($words)" out.txt && ok || bad "zsh --to words"
expect_rc 0 "fish completions" "$txc" completions fish
grep -q -- "-l to -x -a '$words'" out.txt && ok || bad "fish --to words"

summary writers
[ "$fails" = 0 ]
