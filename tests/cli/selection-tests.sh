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
json_ok out.txt && grep -q '"profile":"zzz"' out.txt && ok || bad "broken profile json: $(head -c 300 out.txt)"
expect_rc 1 "broken profile export" "$txc" export --json --home home --all-profiles
[ "$(wc -l < out.txt)" -ge 2 ] && ok || bad "export with a broken profile exported nothing"
rm home/profiles/aaa/state.db

# ---- export --json --all-profiles carries "profile" like list --json ----
expect_rc 0 "export all-profiles" "$txc" export --json --home home --all-profiles
json_ok out.txt && ok || bad "export all-profiles json"
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

# ---- profiles/default is not the root (profile default): warned about and left out, exit 1 ----
mkdir -p dhome/profiles/default
"$mkdb" dhome/state.db ex1.sql && "$mkdb" dhome/profiles/default/state.db ex2.sql || exit 1
expect_rc 1 "profiles/default" "$txc" list --home dhome --all-profiles
grep -q "^txc: warning: profile default left out: .*dhome/profiles/default/state.db" err.txt && ok || bad "profiles/default: $(cat err.txt)"
[ "$(grep -c '^default ' out.txt)" = 1 ] && grep -q ' exact one$' out.txt && ok || bad "profiles/default listed as the root: $(cat out.txt)"
rm -rf dout
expect_rc 1 "profiles/default export" "$txc" export --to hermes --out dout --home dhome --all-profiles
[ "$(ls dout/default)" = "abc-exact-one.jsonl" ] && ok || bad "profiles/default exported into the root's folder: $(ls dout/default)"

# ---- --all-profiles puts the root's files in DIR/default/ even when it is the only store read ----
mkdir -p bhome/profiles/bad
"$mkdb" bhome/state.db ex1.sql || exit 1
echo 'not a database' > bhome/profiles/bad/state.db
rm -rf bout
expect_rc 1 "all-profiles, one broken" "$txc" export --to hermes --out bout --home bhome --all-profiles
[ -f bout/default/abc-exact-one.jsonl ] && ok || bad "a broken profile moved the root's files: $(find bout -type f)"

# ---- a prefix ambiguous inside one profile and found in another: every candidate is named ----
mkdir -p ahome/profiles/p1
"$mkdb" ahome/profiles/p1/state.db ex2.sql || exit 1
cat ex1.sql > ab.sql && echo "INSERT INTO sessions VALUES ('abx', 'cli', 1500, 'third');" >> ab.sql
rm -f ahome/state.db && "$mkdb" ahome/state.db ab.sql || exit 1
expect_rc 2 "prefix ambiguous in one profile" "$txc" convert ab --to hermes --home ahome --all-profiles
grep -q '^  abc (profile default)$' err.txt && grep -q '^  abx (profile default)$' err.txt && grep -q '^  abcdef (profile p1)$' err.txt &&
	ok || bad "candidates of an ambiguous profile not named: $(cat err.txt)"

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
json_ok out.txt && ok || bad "artifacts json"
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

# ---- session ids of every kind: integer, real, "", NULL, repeated, BLOB, NUL inside, 4100 bytes ----
"$mkdb" ids.db "$src/fixtures/ids.sql" || exit 1
L=$(awk 'BEGIN { for (i = 0; i < 4100; i++) printf "L" }')
expect_rc 0 "ids: list" "$txc" list --db ids.db
for want in '1' '1~2' '2.5' 'no-id~4' 'no-id~5' 'no-id~6' 'dup' 'dup~2' 'nul\\x00x' "x'0102'" 'longLLL'; do
	grep -q "^$want" out.txt && ok || bad "ids: $want not listed: $(cat out.txt)"
done
[ "$(wc -l < out.txt)" = 12 ] && ok || bad "ids: $(wc -l < out.txt) lines listed, want 12"
grep -q 'warning: 3 sessions have no id' err.txt && grep -q 'warning: 2 sessions repeat an id' err.txt && ok || bad "ids: warnings: $(cat err.txt)"
# name -> the words only that session's messages hold
check_ids() { # source args...; every name loads its own session in every format
	for pair in "1|the integer one" "1~2|the text one" "2.5|the real one" "no-id~4|the empty one" \
		"dup|dup" "nul|the NUL one" "$blob|the blob one" "long|the long one"; do
		name=${pair%%|*} words=${pair#*|}
		for fmt in claude markdown hermes; do
			"$txc" convert "$name" --to "$fmt" "$@" > conv.txt 2> err.txt || { bad "ids: convert $name --to $fmt: $(cat err.txt)"; continue; }
			grep -q "said to $words" conv.txt && ok || bad "ids: convert $name --to $fmt: not its messages"
		done
		grep -q '^id: null' conv.txt && bad "ids: $name: Markdown id null" || ok
	done
	"$txc" convert 1 --to claude "$@" > c1.txt 2>/dev/null; "$txc" convert 1~2 --to claude "$@" > c2.txt 2>/dev/null
	u1=$(sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' c1.txt | head -1); u2=$(sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' c2.txt | head -1)
	[ -n "$u1" ] && [ -n "$u2" ] && [ "$u1" != "$u2" ] && ok || bad "ids: ids 1 and \"1\" share the Claude sessionId '$u1'"
	expect_rc 0 "ids: markdown of a null id" "$txc" convert no-id~5 --to markdown "$@"
	grep -q '^id: "no-id~5"' out.txt && ok || bad "ids: a null id has no stand-in in Markdown: $(head -5 out.txt)"
}
blob="x'0102'"
check_ids --db ids.db
# export --json: every session, exactly as stored (issue 18: NUL and 4096-byte ids were skipped silently)
expect_rc 0 "ids: export --json" "$txc" export --json --db ids.db
json_ok out.txt && ok || bad "ids: export --json not strict JSON"
[ "$(wc -l < out.txt)" = 11 ] && ok || bad "ids: export --json wrote $(wc -l < out.txt) of 11 sessions"
grep -q '^{"id": "nul\\u0000x", .*said to the NUL one' out.txt && ok || bad "ids: NUL id not exported"
grep -q "^{\"id\": \"long$L\", .*said to the long one" out.txt && ok || bad "ids: 4100-byte id not exported"
grep -q '^{"id": 1, .*said to the integer one' out.txt && grep -q '^{"id": "1", .*said to the text one' out.txt && ok || bad "ids: 1 and \"1\" not both exported"
[ "$(grep -c '^{"id": null, ' out.txt)" = 2 ] && ok || bad "ids: NULL ids not exported"
expect_rc 0 "ids: export --json selected" "$txc" export --json --db ids.db --since 2026-01-01
[ "$(wc -l < out.txt)" = 11 ] && ok || bad "ids: export --json --since wrote $(wc -l < out.txt) of 11 sessions"
check_bulk() { # label args...: bulk export in every format and --install keep every session apart
	for fmt in claude markdown hermes; do
		rm -rf "bulk-$1-$fmt"
		label=$1; shift
		"$txc" export --to "$fmt" --out "bulk-$label-$fmt" "$@" > out.txt 2> err.txt || bad "ids: bulk $label $fmt: $(cat err.txt)"
		set -- "$label" "$@"
		n=$(find "bulk-$1-$fmt" -type f ! -name manifest.jsonl | wc -l)
		[ "$n" = "$want_n" ] && ok || bad "ids: bulk $1 $fmt: $n files, want $want_n"
		json_ok "bulk-$1-$fmt/manifest.jsonl" && ok || bad "ids: bulk $1 $fmt: manifest not strict JSON"
		m=$(sed -n 's/^{"session_id":\("[^"]*"\).*/\1/p' "bulk-$1-$fmt/manifest.jsonl" | sort -u | wc -l)
		[ "$m" = "$want_n" ] && ok || bad "ids: bulk $1 $fmt: $m distinct session_ids in the manifest, want $want_n"
		grep -q '"session_id":""' "bulk-$1-$fmt/manifest.jsonl" && bad "ids: empty session_id in the manifest" || ok
		grep -q '"session_id":"1","id_kind":"integer"' "bulk-$1-$fmt/manifest.jsonl" && ok || bad "ids: bulk $1 $fmt: integer id kind"
	done
	label=$1; shift
	rm -rf "cc-$label"
	CLAUDE_CONFIG_DIR="$PWD/cc-$label" "$txc" export --to claude --install "$@" > out.txt 2> err.txt || bad "ids: install $label: $(cat err.txt)"
	for words in "the integer one" "the text one" "the real one" "the NUL one" "the long one"; do
		c=$(grep -rl "said to $words" "cc-$label" | wc -l)
		[ "$c" = 1 ] && ok || bad "ids: install $label: '$words' in $c files"
	done
	n=$(find "cc-$label" -name '*.jsonl' | wc -l)
	[ "$n" -ge "$want_inst" ] && ok || bad "ids: install $label: $n sessions installed, want $want_inst"
}
want_n=11 want_inst=9
check_bulk store --db ids.db

# the same ids in an export file (--input)
{
	printf '{"id": 1, "source": "cli", "started_at": 1767225600, "title": "integer one", "messages": [{"role": "user", "content": "said to the integer one", "timestamp": 1767225600}]}\n'
	printf '{"id": "1", "source": "cli", "started_at": 1767225601, "title": "text one", "messages": [{"role": "user", "content": "said to the text one", "timestamp": 1767225601}]}\n'
	printf '{"id": 2.5, "source": "cli", "started_at": 1767225602, "title": "a real id", "messages": [{"role": "user", "content": "said to the real one", "timestamp": 1767225602}]}\n'
	printf '{"id": "", "source": "cli", "started_at": 1767225603, "title": "empty id", "messages": [{"role": "user", "content": "said to the empty one", "timestamp": 1767225603}]}\n'
	printf '{"id": null, "source": "cli", "started_at": 1767225604, "title": "null id a", "messages": [{"role": "user", "content": "said to null a", "timestamp": 1767225604}]}\n'
	printf '{"id": "dup", "source": "cli", "started_at": 1767225606, "title": "dup first", "messages": [{"role": "user", "content": "said to dup first", "timestamp": 1767225606}]}\n'
	printf '{"id": "dup", "source": "cli", "started_at": 1767225607, "title": "dup second", "messages": [{"role": "user", "content": "said to dup second", "timestamp": 1767225607}]}\n'
	printf '{"id": "nul\\u0000x", "source": "cli", "started_at": 1767225608, "title": "a NUL inside", "messages": [{"role": "user", "content": "said to the NUL one", "timestamp": 1767225608}]}\n'
	printf '{"id": "long%s", "source": "cli", "started_at": 1767225609, "title": "a long id", "messages": [{"role": "user", "content": "said to the long one", "timestamp": 1767225609}]}\n' "$L"
	printf '{"id": {"$blob_hex": "0102"}, "source": "cli", "started_at": 1767225610, "title": "an object id", "messages": [{"role": "user", "content": "said to the blob one", "timestamp": 1767225610}]}\n'
} > ids.jsonl
expect_rc 0 "ids: list --input" "$txc" list --input ids.jsonl
for want in '1' '1~2' '2.5' 'no-id~4' 'no-id~5' 'dup' 'dup~2' 'nul\x00x' 'longLLL' '{"$blob_hex":"0102"}'; do
	grep -qF "$want" out.txt && ok || bad "ids --input: $want not listed: $(cat out.txt)"
done
blob='{"$blob_hex":"0102"}'
check_ids --input ids.jsonl
expect_rc 0 "ids: convert dup~2 from a file" "$txc" convert dup~2 --to markdown --input ids.jsonl
grep -q 'said to dup second' out.txt && ! grep -q 'said to dup first' out.txt && ok || bad "ids: dup~2 from a file is not the second session"
expect_rc 0 "ids: export --json --input" "$txc" export --json --input ids.jsonl
[ "$(wc -l < out.txt)" = 10 ] && ok || bad "ids: export --json --input wrote $(wc -l < out.txt) of 10"
want_n=10 want_inst=9
check_bulk file --input ids.jsonl

# the same through a dashboard (--remote): an integer id is read, a NULL one is an error that says why
if python3 -c 'import http.server' 2>/dev/null; then
	{
		printf '{"id": 7, "source": "cli", "started_at": 1767225600, "title": "integer seven", "messages": [{"role": "user", "content": "said to seven", "timestamp": 1767225600}]}\n'
		printf '{"id": null, "source": "cli", "started_at": 1767225601, "title": "null", "messages": []}\n'
	} > remote-ids.jsonl
	python3 "$src/tools/dashboard.py" --data remote-ids.jsonl > port.txt 2> server.err &
	server=$!
	i=0; while [ ! -s port.txt ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	url=http://127.0.0.1:$(head -n 1 port.txt)
	expect_rc 0 "ids: remote list" "$txc" list --remote "$url"
	grep -q '^7 ' out.txt && grep -q '^no-id~2 ' out.txt && ok || bad "ids: remote list: $(cat out.txt)"
	expect_rc 0 "ids: remote integer id" "$txc" convert 7 --to markdown --remote "$url"
	grep -q 'said to seven' out.txt && grep -q '^id: "7"' out.txt && ok || bad "ids: remote integer id: $(head -5 out.txt)"
	expect_rc 1 "ids: remote null id" "$txc" convert no-id~2 --to markdown --remote "$url"
	grep -q "^txc: error: .*cannot be put in a URL" err.txt && ok || bad "ids: remote null id: $(cat err.txt)"
	kill $server 2> /dev/null; wait $server 2> /dev/null
else
	echo "SKIP: remote ids (no python3)"
fi

# ---- one session id in two profiles installs as two Claude sessions, never one file ----
mkdir -p twohome/profiles/w1 twohome/profiles/w2
cat > two.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL, cwd TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('same', 'cli', 1000, '/proj', 'same id');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('same', 'user', 'PROFILE_TEXT', 1001);
SQL
sed 's/PROFILE_TEXT/from w1/' two.sql > two1.sql; sed 's/PROFILE_TEXT/from w2/' two.sql > two2.sql
sed 's/PROFILE_TEXT/from the root/' two.sql > two0.sql
"$mkdb" twohome/profiles/w1/state.db two1.sql && "$mkdb" twohome/profiles/w2/state.db two2.sql &&
	"$mkdb" twohome/state.db two0.sql || exit 1
expect_rc 0 "same id, two profiles: bulk install" env CLAUDE_CONFIG_DIR="$PWD/cc-two" "$txc" export --to claude --install --home twohome --all-profiles
n=$(ls cc-two/projects/*/*.jsonl 2> /dev/null | wc -l)
[ "$n" = 3 ] && ok || bad "same id in three stores: $n installed files, want 3 ($(cat err.txt))"
for w in w1 w2 "the root"; do
	[ "$(grep -l "from $w" cc-two/projects/*/*.jsonl 2> /dev/null | wc -l)" = 1 ] && ok || bad "profile $w's session not installed on its own"
done
# convert names the same Claude session as install does, per profile; the root store's is the id's alone
"$txc" convert same --to claude --home twohome --profile w1 > w1.jsonl 2> err.txt || bad "convert --profile w1: $(cat err.txt)"
sid=$(head -n 1 w1.jsonl | sed -n 's/.*"sessionId":"\([0-9a-f-]*\)".*/\1/p')
[ -n "$sid" ] && grep -q 'from w1' cc-two/projects/*/"$sid.jsonl" && ok || bad "convert --profile w1 names another session: '$sid'"
"$txc" convert same --to claude --db twohome/state.db > root.jsonl 2> err.txt
rsid=$(head -n 1 root.jsonl | sed -n 's/.*"sessionId":"\([0-9a-f-]*\)".*/\1/p')
[ -n "$rsid" ] && [ "$rsid" != "$sid" ] && grep -q 'from the root' cc-two/projects/*/"$rsid.jsonl" && ok ||
	bad "the root store's session: '$rsid' vs '$sid'"

# ---- a repeat's stand-in never takes a name a session has as its id ("dup~2" stored as text) ----
cat > taken.sql << 'EOF'
CREATE TABLE sessions (id, source TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('dup', 'cli', 1767225600, 'dup first'), ('dup', 'cli', 1767225601, 'dup second'),
  ('dup~2', 'cli', 1767225602, 'literal');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('dup', 'user', 'said to dup', 1767225600),
  ('dup~2', 'user', 'said to the literal one', 1767225602);
EOF
"$mkdb" taken.db taken.sql || exit 1
expect_rc 0 "taken: list" "$txc" list --db taken.db
[ "$(awk '{print $1}' out.txt | sort | uniq -d)" = "" ] && ok || bad "taken: two sessions share a name: $(cat out.txt)"
expect_rc 0 "taken: convert dup~2" "$txc" convert dup~2 --to markdown --db taken.db
grep -q 'said to the literal one' out.txt && ok || bad "taken: dup~2 is not the session whose id is dup~2"
rm -rf taken.out
expect_rc 0 "taken: export" "$txc" export --to markdown --out taken.out --db taken.db
[ "$(ls taken.out/*.md | wc -l)" = 3 ] && [ "$(wc -l < taken.out/manifest.jsonl)" = 3 ] && ok || bad "taken: a session left out of the export: $(ls taken.out)"

# ---- no exported file name starts with '-' (read as an option by rm *, cat *, ...) ----
cat > dash.sql << 'EOF'
CREATE TABLE sessions (id TEXT, source TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('-rf', 'cli', 1767225600, 'dash'), ('a-b', 'cli', 1767225601, 'inner');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('-rf', 'user', 'hi', 1767225600), ('a-b', 'user', 'hi', 1767225601);
EOF
"$mkdb" dash.db dash.sql || exit 1
rm -rf dash.out
expect_rc 0 "dash: export" "$txc" export --to markdown --out dash.out --db dash.db
[ -z "$(ls dash.out | grep '^-')" ] && [ "$(ls dash.out | grep -c '^_rf_[0-9a-f]\{8\}-dash\.md$')" = 1 ] && [ -f dash.out/a-b-inner.md ] &&
	ok || bad "dash: file names $(ls dash.out | tr '\n' ' ')"

# ---- a renamed session whose id holds a NUL loses its old file like any other ----
cat > nulren.sql << 'EOF'
CREATE TABLE sessions (id, source TEXT, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('n' || char(0) || 'x', 'cli', 1767225600, 'old title');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('n' || char(0) || 'x', 'user', 'hi', 1767225600);
EOF
"$mkdb" nulren.db nulren.sql || exit 1
rm -rf nulren.out
expect_rc 0 "nul rename: first export" "$txc" export --to markdown --out nulren.out --db nulren.db
sed 's/old title/new title/' nulren.sql > nulren2.sql && rm -f nulren.db && "$mkdb" nulren.db nulren2.sql || exit 1
expect_rc 0 "nul rename: second export" "$txc" export --to markdown --out nulren.out --db nulren.db
[ "$(ls nulren.out | grep -c 'title\.md$')" = 1 ] && ls nulren.out | grep -q 'new-title\.md$' && [ "$(wc -l < nulren.out/manifest.jsonl)" = 1 ] &&
	ok || bad "nul rename: the old file or entry stayed: $(ls nulren.out | tr '\n' ' ')"

summary selection
[ "$fails" = 0 ]
