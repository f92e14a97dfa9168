#!/bin/sh
# issue 16: `list` reads the sessions by started_at alone (the order the index gives) and
# reads again with the id as second key when two neighbours' starts may tie.  Where that
# order shows: a WITHOUT ROWID table numbers repeated id texts (5 and '5') in listing
# order, so the one SQL's "id DESC" puts first keeps "5" (the text: text sorts above
# numbers) and the other becomes "5~2"; the index alone gives the integer first.
# usage: list-fast-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
export TZ=UTC
shown() { sed -n '2,$s/^\([^ ]*\) .* \([^ ]*\)$/\1=\2/p' out.txt | tr '\n' ' '; }
listed() { # want desc: id=title of each line, in order
	if [ "$(shown)" = "$1 " ]; then ok "$2: listed as before"; else bad "$2: listed '$(shown)', want '$1 '"; fi
}
store() { # name started_at-declaration rows (id, started_at, title)...
	name=$1 decl=$2; shift 2
	{
		echo "CREATE TABLE sessions (id PRIMARY KEY, source TEXT, model TEXT, started_at $decl,"
		echo "  message_count INTEGER, cwd TEXT, title TEXT, archived INTEGER) WITHOUT ROWID;"
		echo "CREATE INDEX idx_sessions_started ON sessions(started_at DESC);"
		for r; do echo "INSERT INTO sessions (id, started_at, title) VALUES ($r);"; done
	} > "$name.sql"
	"$mkdb" "$name.db" "$name.sql" || bad "$name: store made"
}

store real REAL "5, 100.5, 'int'" "'5', 100.5, 'text'" "'b', 7, 'b'"
expect_rc 0 "equal real starts" "$txc" list --db real.db
listed "5~2=int 5=text b=b" "equal real starts"

# no affinity: an integer and a real of one value tie, and so do texts, blobs, NULLs
store mixed "" "5, 100, 'int'" "'5', 100.0, 'text'" "6, '9', 'i6'" "'6', '9', 't6'" "7, NULL, 'i7'" \
	"'7', NULL, 't7'" "8, x'00', 'i8'" "'8', x'00', 't8'"
expect_rc 0 "integer and real starts of one value" "$txc" list --db mixed.db
listed "5~2=int 5=text 8~2=i8 8=t8 7~2=i7 7=t7 6~2=i6 6=t6" "integer, real, text, blob and NULL starts"

store nocase "TEXT COLLATE NOCASE" "5, 'x', 'int'" "'5', 'X', 'text'"
expect_rc 0 "NOCASE starts" "$txc" list --db nocase.db
listed "5~2=int 5=text" "starts equal to NOCASE"

store rtrim "TEXT COLLATE RTRIM" "5, 'k', 'int'" "'5', 'k ', 'text'"
expect_rc 0 "RTRIM starts" "$txc" list --db rtrim.db
listed "5~2=int 5=text" "starts equal to RTRIM"

# no tie: the first read is kept
store distinct REAL "'a', 3, 'x'" "'b', 1, 'y'" "'c', 2, 'z'"
expect_rc 0 "distinct starts" "$txc" list --db distinct.db
listed "a=x c=z b=y" "distinct starts"

summary list-fast
