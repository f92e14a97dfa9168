#!/bin/sh
# The size limits that keep the house readable (issue 28): no function in src/ over 80 lines and
# no .c file over 1,000 lines, not counting its data tables.
# usage: check-size.sh SOURCE_DIR [MAX_FUNCTION MAX_FILE]
# The sources are clang-formatted in the Linux brace style (tests/check-format.sh), so a function
# body is a "{" alone in column 0 up to the next "}" alone in column 0; the function starts at the
# last line before its "{" that begins in column 0 (its name, or the first line of its
# signature).  A table is a top-level initializer: a line in column 0 ending in "= {" up to a
# line in column 0 that starts "}"; its lines are not counted in the file's length.
src=$1 max_fn=${2:-80} max_file=${3:-1000}
# First prove the check can fail: a made-up tree with one function a line too long (SIZE_SELF=1
# is that inner run).
if [ -z "${SIZE_SELF:-}" ]; then
	t=$(mktemp -d) || exit 2
	mkdir -p "$t/src" && {
		printf 'static const int table[] = {\n'
		i=0; while [ $i -lt 40 ]; do printf '\t%d,\n' $i; i=$((i + 1)); done
		printf '};\n\nint f(int a,\n      int b)\n{\n'
		i=0; while [ $i -lt $((max_fn - 4)) ]; do printf '\ta += b;\n'; i=$((i + 1)); done
		printf '\treturn a;\n}\n'
	} > "$t/src/long.c"
	out=$(SIZE_SELF=1 sh "$0" "$t" "$max_fn" 90 2>&1)
	rm -rf "$t"
	case $out in
	*"src/long.c:44 f is $((max_fn + 1)) lines"*"1 over the limits"*) ;;
	*) echo "size: the check missed a function of $((max_fn + 1)) lines or counted a table: $out"; exit 1 ;;
	esac
fi
cd "$src" || exit 2
files=$(find src -name '*.c' | sort)
[ -n "$files" ] || { echo "size: no sources under $src/src"; exit 2; }
# shellcheck disable=SC2086
awk -v max_fn="$max_fn" -v max_file="$max_file" '
function report_file() {
	if (file != "" && FNR_last - table > max_file) {
		printf "size: %s is %d lines (%d without its tables): over %d\n", file, FNR_last, FNR_last - table, max_file
		bad++
	}
}
FNR == 1 { report_file(); file = FILENAME; table = 0; in_table = 0; in_fn = 0; head = 0; files++ }
{ FNR_last = FNR }
in_table { table++; if ($0 ~ /^}/) in_table = 0; next }
!in_fn && /^[^ \t#}\/].*= \{$/ { in_table = 1; table++; next }
!in_fn && /^[^ \t{}#\/]/ { head = FNR; name = $0 }
!in_fn && /^\{$/ { in_fn = 1; start = head ? head : FNR; next }
in_fn && /^\}/ {
	in_fn = 0; fns++
	if (FNR - start + 1 > max_fn) {
		sub(/\(.*/, "", name); n = split(name, w, /[ *]+/)
		printf "size: %s:%d %s is %d lines: over %d\n", FILENAME, start, w[n], FNR - start + 1, max_fn
		bad++
	}
	head = 0
}
END {
	report_file()
	printf "size: %d files, %d functions; %d over the limits (functions %d lines, files %d)\n", files, fns, bad, max_fn, max_file
	exit bad != 0
}' $files
