#!/bin/sh
# txc search names the sessions of its hits one at a time, without listing the store first, when
# the store proves its ids plain (a text primary key id, none NULL, empty or of another type):
# every output must be the one a listing gives.  A store the proof refuses (repeated ids, NULL or
# empty ids, ids of two types that read alike, a composite key) is listed as before, its sessions
# named ID~2 and no-id~N; filters, --archived, --limit, --all-profiles give what a listing gives.
# usage: search-pick-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
export XDG_CACHE_HOME="$work/cache"
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"

# rows: the same sessions and messages in every store; only the sessions table's key differs
rows() { # id-expression...: one session per id, each with two messages holding "needle"
	n=0
	for id; do
		n=$((n + 1))
		src_=cli && [ $((n % 3)) = 0 ] && src_=telegram
		cwd=/repo && [ $((n % 2)) = 0 ] && cwd=/other
		echo "INSERT INTO sessions (id, source, model, started_at, message_count, cwd, title, archived) VALUES
  ($id, '$src_', 'model-$((n % 2))', $((1789000000 + n * 86400)), 2, '$cwd', 'Title $n', $((n == 4)));"
		echo "INSERT INTO messages (session_id, role, content, timestamp) VALUES
  ($id, 'user', 'a needle for session $n', $((1789000000 + n * 86400 + 1))),
  ($id, 'assistant', 'needle answered in $n', $((1789000000 + n * 86400 + 2)));"
	done
}
store() { # name key-declaration ids...
	name=$1 key=$2 && shift 2
	{
		echo "CREATE TABLE sessions ($key, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL,
  message_count INTEGER DEFAULT 0, cwd TEXT, title TEXT, archived INTEGER NOT NULL DEFAULT 0${tail:-});"
		echo "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
  active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);"
		rows "$@"
	} > "$name.sql" && "$mkdb" "$name.db" "$name.sql" || bad "mkdb $name"
}
store pk "id TEXT PRIMARY KEY" "'s_one'" "'s_two'" "'s_three'" "'s_four'" "'s_five'" "'s_six'" # proven plain
store nopk "id TEXT" "'s_one'" "'s_two'" "'s_three'" "'s_four'" "'s_five'" "'s_six'" # no key: listed
for db in pk nopk; do
	sqlite3 "$db.db" "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content=messages,
	  content_rowid=id); INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');" 2> /dev/null || true
done

# the same output from both, for each selection (stderr too, the store's path made one)
same() { # desc args...
	desc=$1 && shift
	"$txc" search "$@" --db pk.db > pk.out 2> pk.err; rc1=$?
	"$txc" search "$@" --db nopk.db > nopk.out 2> nopk.err; rc2=$?
	sed -i 's/nopk\.db/STORE/g' nopk.err && sed -i 's/pk\.db/STORE/g' pk.err
	if [ "$rc1" = "$rc2" ] && cmp -s pk.out nopk.out && cmp -s pk.err nopk.err; then
		ok "$desc: as a listing gives"
	else
		bad "$desc: named as hits came ($rc1) $(head -c 300 pk.out) $(head -c 200 pk.err) vs listed ($rc2) $(head -c 300 nopk.out) $(head -c 200 nopk.err)"
	fi
}
same "text" needle
same "--json" needle --json
same "--sessions" needle --sessions
same "--limit 3" needle -n 3
same "--limit 3 --sessions" needle -n 3 --sessions
same "--archived" needle --archived --json
same "--since" needle --since 2026-09-13 --json
same "--until" needle --until 2026-09-13 --json
same "--source" needle --source telegram --json
same "--cwd" needle --cwd /repo --json
same "--model" needle --model model-1 --json
same "--title" needle --title 'title 5' --json
same "--role and --sort oldest" needle --role assistant --sort oldest
same "--verbose" needle --verbose
same "a bad --since" needle --since someday
grep -q '"session_id":"s_four"' pk.out && bad "the archived s_four without --archived" || ok "no archived session without --archived"
"$txc" search needle --archived --json --db pk.db | grep -q '"session_id":"s_four"' &&
	ok "--archived: s_four" || bad "--archived: no s_four"
"$txc" search needle --json --since 2026-09-13 --db pk.db > out.txt && json_ok out.txt &&
	! grep -q '"session_id":"s_one"' out.txt && grep -q '"session_id":"s_six"' out.txt &&
	ok "--since keeps the later sessions only" || bad "--since: $(head -c 300 out.txt)"

# what the proof refuses: each store holds what a plain naming would get wrong
names() { # desc db want...: the sessions search names in db, each wanted name among them
	desc=$1 db=$2 && shift 2
	"$txc" search needle --sessions -n 100 --db "$db.db" > out.txt 2> err.txt
	for w; do
		grep -qxF -- "$w" out.txt || { bad "$desc: no '$w' ($(tr '\n' ' ' < out.txt))"; return; }
	done
	ok "$desc: $*"
}
store dup "id TEXT" "'dup'" "'dup'" "'other'"
names "repeated ids (no key)" dup dup dup~2 other
grep -q "an id an earlier session has" err.txt && ok "repeated ids: said" || bad "repeated ids: not said ($(cat err.txt))"
tail=", k INTEGER, PRIMARY KEY (id, k)" store composite "id TEXT" "'dup'" "'dup'" "'other'"
names "repeated ids (a composite key)" composite dup dup~2 other
store nullid "id TEXT PRIMARY KEY" "NULL" "'s_a'" "NULL"
names "NULL ids in a text key (their rows join no session)" nullid s_a
grep -q "no id (NULL or empty)" err.txt && ok "NULL ids: said" || bad "NULL ids: not said ($(cat err.txt))"
store emptyid "id TEXT PRIMARY KEY" "'s_a'" "''"
names "an empty id in a text key" emptyid s_a no-id~2
grep -q "1 session has no id (NULL or empty)" err.txt && ok "an empty id: said" || bad "an empty id: not said ($(cat err.txt))"
store blobid "id TEXT PRIMARY KEY" "'s_a'" "X'41'" "'x''41'''"
names "a BLOB id and a text id that read alike" blobid s_a "x'41'" "x'41'~2"
store untyped "id PRIMARY KEY" "1" "'1'" "'s_a'"
names "an integer id and a text id that read alike" untyped 1~2 s_a

# a listing of more than 64 sessions skips the numbering's hash set only on the proof: 70 sessions
# with one id repeated (no key) are still named ID~2; a keyed one lists all 70 as they are
set --
for i in $(seq 1 69); do set -- "$@" "'s_$i'"; done
store many "id TEXT" "$@" "'s_7'"
"$txc" list --db many.db > out.txt 2> err.txt
grep -q '^s_7~2 ' out.txt && grep -q '^s_7 ' out.txt && ok "70 sessions, one id twice: s_7 and s_7~2" ||
	bad "70 sessions, one id twice: $(grep s_7 out.txt)"
store manypk "id TEXT PRIMARY KEY" "$@"
"$txc" list --db manypk.db > out.txt 2> err.txt
[ "$(grep -c "^s_" out.txt)" = 68 ] && [ ! -s err.txt ] && ok "69 keyed sessions listed (s_4 archived)" || bad "69 keyed: $(head -c 300 err.txt)"

# --all-profiles: one id in two profiles' stores, both shown, each with its profile
for h in hpk hnopk; do
	key="id TEXT PRIMARY KEY" && [ "$h" = hnopk ] && key="id TEXT"
	mkdir -p "$h/profiles/work"
	store "$h/state" "$key" "'s_root'" "'shared'"
	store "$h/profiles/work/state" "$key" "'shared'" "'s_work'"
	"$txc" search needle --all-profiles --home "$h" > "$h.out" 2> "$h.err"
	"$txc" search needle --all-profiles --json --home "$h" >> "$h.out" 2>> "$h.err"
done
cmp -s hpk.out hnopk.out && cmp -s hpk.err hnopk.err && ok "--all-profiles: as a listing gives" ||
	bad "--all-profiles: $(head -c 400 hpk.out) vs $(head -c 400 hnopk.out)"
[ "$(grep -c '^shared  .*(profile work)' hpk.out)" = 1 ] && [ "$(grep -c '^shared  .*(profile default)' hpk.out)" = 1 ] &&
	ok "--all-profiles: the shared id in both profiles" || bad "--all-profiles: $(cat hpk.out)"

summary search-pick
