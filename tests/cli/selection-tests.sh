#!/bin/sh
# Naming stores and sessions: missing stores, broken profiles, exact ids across profiles, --cwd, COLUMNS,
# artifacts --check paths, a hot journal, write errors on stdout, cut messages; session ids of every kind.
# usage: selection-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
export TZ=UTC
unset HERMES_HOME
"$mkdb" f.db "$src/fixtures/features.sql" || exit 1

# ---- a store or profile the user names must exist: exit 3, one line ----
for args in "--db nowhere.db" "--home nowhere" "--home . --profile nosuch"; do
	# shellcheck disable=SC2086
	expect_rc 3 "named store missing ($args)" "$txc" list $args
	[ "$(wc -l < err.txt)" = 1 ] && grep -q '^txc: error: no Hermes store at' err.txt && ok || bad "$args: $(cat err.txt)"
	[ -s out.txt ] && bad "$args: output on stdout" || ok
done
mkdir -p emptyhome
expect_rc 0 "default store missing is quiet" env HOME="$PWD/emptyhome" "$txc" list
grep -q '^txc: warning: no Hermes store' err.txt && ok || bad "default missing: $(cat err.txt)"

# ---- --all-profiles: a broken profile is warned about, the rest listed, exit 1 ----
mkdir -p home/profiles/aaa home/profiles/zzz
cp f.db home/state.db
printf 'not a database, not at all; just text long enough to be a header of sorts...........' > home/profiles/aaa/state.db
"$mkdb" home/profiles/zzz/state.db "$src/fixtures/minimal.sql" || exit 1
expect_rc 1 "broken profile" "$txc" list --home home --all-profiles
grep -q '^txc: warning: profile aaa left out: .*not a SQLite database' err.txt && ok || bad "broken profile warning: $(cat err.txt)"
grep -q '^default ' out.txt && grep -q '^zzz ' out.txt && ok || bad "other profiles listed: $(cat out.txt)"
expect_rc 1 "broken profile json" "$txc" list --home home --all-profiles --json
"$jsoncheck" out.txt && grep -q '"profile":"zzz"' out.txt && ok || bad "broken profile json: $(head -c 300 out.txt)"
expect_rc 1 "broken profile export" "$txc" export --json --home home --all-profiles
[ "$(wc -l < out.txt)" -ge 2 ] && ok || bad "export with a broken profile exported nothing"
rm home/profiles/aaa/state.db

# ---- export --json --all-profiles carries "profile" like list --json ----
expect_rc 0 "export all-profiles" "$txc" export --json --home home --all-profiles
"$jsoncheck" out.txt && ok || bad "export all-profiles json"
n=$(wc -l < out.txt); np=$(grep -c '"profile": "\(default\|zzz\)", "messages": \[' out.txt)
[ "$n" -ge 2 ] && [ "$n" = "$np" ] && ok || bad "export --json --all-profiles: $np of $n lines have profile"
grep -q '"profile": "zzz"' out.txt && ok || bad "zzz profile key"
expect_rc 0 "export one profile" "$txc" export --json --home home
grep -q '"profile"' out.txt && bad "profile key without --all-profiles" || ok

# ---- an exact id anywhere wins over a prefix in another profile ----
cat > ex1.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('abc', 'cli', 1000, 'exact one');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('abc', 'user', 'the exact session', 1001);
SQL
cat > ex2.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('abcdef', 'cli', 2000, 'prefix one');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('abcdef', 'user', 'the longer session', 2001);
SQL
mkdir -p xhome/profiles/p1 xhome/profiles/p2
"$mkdb" xhome/profiles/p1/state.db ex1.sql && "$mkdb" xhome/profiles/p2/state.db ex2.sql || exit 1
expect_rc 0 "exact id wins across profiles" "$txc" convert abc --to hermes --home xhome --all-profiles
grep -q 'the exact session' out.txt && ok || bad "exact id: $(cat err.txt)"
cp xhome/profiles/p2/state.db xhome/state.db
"$mkdb" xhome/profiles/p2/state.db ex1.sql 2>/dev/null; rm -f xhome/profiles/p2/state.db; "$mkdb" xhome/profiles/p2/state.db ex1.sql
expect_rc 2 "exact id in two profiles" "$txc" convert abc --to hermes --home xhome --all-profiles
grep -q 'profile p1' err.txt && grep -q 'profile p2' err.txt && ok || bad "two exact: $(cat err.txt)"

# ---- --cwd . and relative --cwd mean the current directory ----
mkdir -p cwdtest/sub
cat > cwd.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, cwd TEXT, title TEXT);
INSERT INTO sessions VALUES ('here', 'cli', 1000, '$PWD/cwdtest', 'here');
INSERT INTO sessions VALUES ('below', 'cli', 1001, '$PWD/cwdtest/sub/x', 'below');
INSERT INTO sessions VALUES ('elsewhere', 'cli', 1002, '/elsewhere', 'elsewhere');
SQL
"$mkdb" cwd.db cwd.sql || exit 1
(cd cwdtest && "$txc" list --db ../cwd.db --cwd . > ../out.txt 2>../err.txt)
grep -q '^here ' out.txt && grep -q '^below ' out.txt && ! grep -q '^elsewhere' out.txt && ok || bad "--cwd .: $(cat out.txt err.txt)"
(cd cwdtest && "$txc" list --db ../cwd.db --cwd sub/./x/../ > ../out.txt 2>../err.txt)
grep -q '^below ' out.txt && ! grep -q '^here ' out.txt && ok || bad "--cwd relative: $(cat out.txt err.txt)"
(cd cwdtest/sub && "$txc" list --db ../../cwd.db --cwd .. > ../../out.txt 2>../../err.txt)
grep -q '^here ' out.txt && ok || bad "--cwd ..: $(cat out.txt)"

# ---- COLUMNS does not cut piped output ----
expect_rc 0 "COLUMNS piped" env COLUMNS=30 "$txc" list --db f.db
grep -q 'Tools "quoted" and a second line' out.txt && ok || bad "COLUMNS cut a pipe: $(cat out.txt)"
grep -q '…' out.txt && bad "ellipsis in piped output" || ok

# ---- artifacts --check: relative and file: paths are the session's cwd; Windows paths not checkable ----
mkdir -p proj/out txcdir/out
echo data > proj/out/a.txt
echo decoy > txcdir/out/b.txt
cat > art.sql <<SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('art', 'cli', 1000, '$PWD/proj');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('art', 'assistant',
  'Wrote [a](file:out/a.txt) and [b](file:out/b.txt) and ![c](file://$PWD/proj/out/a%2Etxt) and see C:\\Users\\me\\x.txt and \\\\\\\\server\\\\share\\\\y.txt', 1001);
SQL
"$mkdb" art.db art.sql || exit 1
(cd txcdir && "$txc" artifacts art --db ../art.db --check --json > ../out.txt 2> ../err.txt) || bad "artifacts --check failed: $(cat err.txt)"
"$jsoncheck" out.txt && ok || bad "artifacts json"
grep '"value":"file:out/a.txt"' out.txt | grep -q '"exists":true' && ok || bad "file:rel against the session cwd: $(cat out.txt)"
grep '"value":"file:out/b.txt"' out.txt | grep -q '"exists":false' && ok || bad "file:rel resolved against txc's dir: $(grep b.txt out.txt)"
grep 'a%2Etxt' out.txt | grep -q '"exists":true' && ok || bad "file:// with %XX: $(grep 2Etxt out.txt)"
grep 'Users' out.txt | grep -q '"checkable":false' && ok || bad "Windows path: $(grep Users out.txt)"
grep 'server' out.txt | grep -q '"checkable":false' && ok || bad "UNC path: $(grep server out.txt)"
(cd txcdir && "$txc" artifacts art --db ../art.db --check > ../out.txt 2> ../err.txt)
grep 'Users' out.txt | grep -q 'not checkable on this system' && ok || bad "Windows path in the table: $(cat out.txt)"
grep 'Users' out.txt | grep -q 'missing' && bad "Windows path reported missing" || ok

# ---- a hot rollback journal: say what it is, exit 1 ----
if python3 -c 'import sqlite3' 2>/dev/null; then
	python3 - <<'PY'
import sqlite3, os
c = sqlite3.connect('hot.db', isolation_level=None)
c.execute("PRAGMA journal_mode=DELETE")
c.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL)")
c.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL)")
c.execute("INSERT INTO sessions VALUES ('a','cli',1)")
c.execute("PRAGMA cache_size=1")
c.execute("BEGIN")
for i in range(2000):
    c.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('a','user',?,1)", ('x'*500,))
os._exit(0)
PY
	[ -s hot.db-journal ] || bad "no hot journal made"
	sum1=$(cksum < hot.db)
	expect_rc 1 "hot journal" "$txc" list --db hot.db
	grep -q "unfinished write.*hot.db-journal.*Hermes" err.txt && ok || bad "hot journal message: $(cat err.txt)"
	grep -q 'readonly database' err.txt && bad "misleading readonly message" || ok
	[ "$sum1" = "$(cksum < hot.db)" ] && [ -s hot.db-journal ] && ok || bad "hot store or journal changed"
else
	echo "SKIP: hot journal (no python3 sqlite3)"
fi

# ---- write errors on stdout: the real reason, once ----
big_sql() {
	echo "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, title TEXT);"
	echo "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);"
	echo "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)"
	echo "INSERT INTO sessions SELECT 'sess' || i, 'cli', 1000 + i, 'a title long enough to fill a line ' || i FROM n;"
	echo "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)"
	echo "INSERT INTO messages (session_id, role, content, timestamp) SELECT 'sess1', 'user', printf('%.200c', 'x'), 1000 + i FROM n;"
}
big_sql > big.sql && "$mkdb" big.db big.sql || exit 1
if [ -w /dev/full ]; then
	for cmd in "list --db big.db" "list --db big.db --json" "export --json --db big.db" \
		"export --json --db big.db --limit 50" "convert sess1 --db big.db --to claude" \
		"convert sess1 --db big.db --to markdown" "convert sess1 --db big.db --to hermes"; do
		# shellcheck disable=SC2086
		"$txc" $cmd > /dev/full 2> err.txt; rc=$?
		[ "$rc" = 1 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q '^txc: error: cannot write to stdout: No space left on device$' err.txt \
			&& ok || bad "$cmd >/dev/full: exit $rc, $(cat err.txt)"
	done
else
	echo "SKIP: /dev/full not writable"
fi

# ---- messages are cut at a character boundary ----
long=$(awk 'BEGIN { for (i = 0; i < 700; i++) printf "é" }')
expect_rc 3 "long name" "$txc" convert "x$long" --db f.db --to hermes
one_line_err "long name"
LC_ALL=C.UTF-8 iconv -f UTF-8 -t UTF-8 err.txt > /dev/null 2>&1 && ok || bad "message cut inside a character"
expect_rc 3 "long name, odd cut" "$txc" convert "$long" --db f.db --to hermes
LC_ALL=C.UTF-8 iconv -f UTF-8 -t UTF-8 err.txt > /dev/null 2>&1 && ok || bad "message cut inside a character (2)"

echo "selection: $passes passed, $fails failed"
[ "$fails" = 0 ]
