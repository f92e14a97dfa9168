#!/bin/sh
# Golden tests: Hermes's own export output for real stores (byte for byte), and
# txc's Claude and Markdown output for the edge-case fixture.
# usage: run-golden.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR   (UPDATE=1 rewrites the features goldens)
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
fails=0 passes=0
check() { # name expected actual
	if cmp -s "$2" "$3"; then passes=$((passes + 1)); else echo "FAIL: $1"; diff -u "$2" "$3" | head -60; fails=$((fails + 1)); fi
}
for c in current-schema upgraded-schema hermes-written; do
	db=$work/$c.db
	# v0.20.0's export of each (its oracle's output): the two stores with columns of a newer Hermes
	# ask for it, the one v0.20.0 wrote gets it by --hermes-format auto
	fmt="--hermes-format 0.20"
	[ "$c" = hermes-written ] && fmt=
	"$mkdb" "$db" "$src/golden/$c/state.sql" || exit 1
	# shellcheck disable=SC2086 # fmt is words by design
	"$txc" export --json --db "$db" $fmt > "$work/$c.export.jsonl" || { echo "FAIL: export $c exited $?"; fails=$((fails + 1)); }
	check "$c export-all" "$src/golden/$c/export-all.jsonl" "$work/$c.export.jsonl"
	for f in "$src"/golden/$c/session.*.jsonl; do
		id=$(basename "$f" .jsonl); id=${id#session.}
		# shellcheck disable=SC2086
		"$txc" convert "$id" --to hermes --db "$db" $fmt > "$work/$c.$id.jsonl"
		check "$c session $id" "$f" "$work/$c.$id.jsonl"
	done
	"$jsoncheck" "$work"/$c.*.jsonl || { echo "FAIL: invalid JSON in $c"; fails=$((fails + 1)); }
done
db=$work/features.db
"$mkdb" "$db" "$src/fixtures/features.sql" || exit 1
cd / # sessions without a cwd record the current directory: keep it fixed
render() { # file session args...
	f=$1 s=$2; shift 2
	"$txc" convert "$s" --db "$db" "$@" > "$work/$f" || { echo "FAIL: $s $* exited $?"; fails=$((fails + 1)); }
	if [ "${UPDATE:-0}" = 1 ]; then cp "$work/$f" "$src/golden/features/$f"; fi
	check "features $f ($s $*)" "$src/golden/features/$f" "$work/$f"
}
n_cases=0
while read -r f s args; do
	case $f in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2086 # ARGS are words by design
	render "$f" "$s" $args
	n_cases=$((n_cases + 1))
done < "$src/golden/features/CASES"
[ "$n_cases" -ge 19 ] || { echo "FAIL: only $n_cases golden cases read from CASES"; fails=$((fails + 1)); }
# --images files: the document links FILE.assets/image-N.ext, which holds the decoded bytes
"$txc" convert img --db "$db" --to markdown --utc -o "$work/img.files.md" || { echo "FAIL: img -o exited $?"; fails=$((fails + 1)); }
if [ "${UPDATE:-0}" = 1 ]; then cp "$work/img.files.md" "$src/golden/features/img.files.md"; fi
check "features img.files.md" "$src/golden/features/img.files.md" "$work/img.files.md"
sed -n 's|.*](data:image/png;base64,\([^)]*\)).*|\1|p' "$work/img.md" | head -n 1 | base64 -d > "$work/image-1.expected"
check "img asset bytes" "$work/image-1.expected" "$work/img.files.md.assets/image-1.png"
"$jsoncheck" "$work"/*.claude.jsonl "$work"/*.hermes.jsonl || { echo "FAIL: invalid JSON"; fails=$((fails + 1)); }
# determinism: a second run gives the same bytes
"$txc" convert tools --db "$db" --to claude > "$work/again.jsonl"
check "claude determinism" "$work/tools.claude.jsonl" "$work/again.jsonl"
# signed reasoning (tests/fixtures/reasoning.sql): golden/reasoning/CASES, the same format
rdb=$work/reasoning.db
"$mkdb" "$rdb" "$src/fixtures/reasoning.sql" || exit 1
while read -r f s args; do
	case $f in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2086 # ARGS are words by design
	"$txc" convert "$s" --db "$rdb" $args > "$work/$f" || { echo "FAIL: reasoning $s $args exited $?"; fails=$((fails + 1)); }
	if [ "${UPDATE:-0}" = 1 ]; then cp "$work/$f" "$src/golden/reasoning/$f"; fi
	check "reasoning $f ($s $args)" "$src/golden/reasoning/$f" "$work/$f"
done < "$src/golden/reasoning/CASES"
# Markdown through a real CommonMark/GFM renderer: nothing from the transcript survives as HTML
if command -v cmark-gfm > /dev/null; then
	for f in "$work"/*.md; do
		cmark-gfm --unsafe -e table "$f" > "$f.html"
		if grep -q -i -E '<script|<think|<b>bold' "$f.html"; then echo "FAIL: raw HTML in $f"; fails=$((fails + 1)); else passes=$((passes + 1)); fi
		o=$(grep -c '<details>' "$f.html"); c=$(grep -c '</details>' "$f.html")
		if [ "$o" = "$c" ]; then passes=$((passes + 1)); else echo "FAIL: unbalanced details in $f"; fails=$((fails + 1)); fi
	done
	for name in Read Write Bash Edit patch search_files MultiEdit read_file; do
		if grep -q "<strong>$name</strong>" "$work/tools.md.html"; then
			passes=$((passes + 1)); else echo "FAIL: tool $name missing from rendered Markdown"; fails=$((fails + 1)); fi
	done
	for text in "Run everything" "CRLF text" "Done." "orphan output" "Parallel calls"; do
		if grep -q "$text" "$work/tools.md.html"; then passes=$((passes + 1)); else echo "FAIL: '$text' missing"; fails=$((fails + 1)); fi
	done
else
	echo "FAIL: cmark-gfm is not installed (apt-get install cmark-gfm)"; fails=$((fails + 1))
fi
echo "golden: $passes passed, $fails failed"
[ "$fails" = 0 ]
