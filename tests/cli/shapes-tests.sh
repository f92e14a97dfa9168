#!/bin/sh
# Issue 26 §3, the stores in the field: every command on a store of every schema shape
# (tests/fixtures/shapes/shapes.sh: v0.20.0's 52/23 to 46d7718a's 62/30, display_identity BLOBs,
# FTS over views, the new tables, WAL with rows in the -wal), the store's files unchanged
# after each command; and a session in two profile stores (a bot's session its profile
# adopted, the root's copy archived 'adopted_by_profile').
# usage: shapes-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR LIVEWRITER [PART...]
# PART: a shape (v020 s55 f31c 0070 46d7 up) or bot; default all (ctest runs one a test)
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5 lw=$6
shift 6
[ $# -gt 0 ] || set -- v020 s55 f31c 0070 46d7 up bot
parts=" $* "
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
fx=$src/fixtures/shapes # row fragments for shapes.sh, apart from the whole fixtures other tests loop over
has() { grep -qF -- "$2" "${3:-out.txt}" && ok "$1" || bad "$1: '$2' not in ${3:-out.txt}: $(head -c 300 "${3:-out.txt}")"; }
hasnt() { grep -qF -- "$2" "${3:-out.txt}" && bad "$1: '$2' in ${3:-out.txt}" || ok "$1"; }
count() { # name want text file: lines holding text
	n=$(grep -cF -- "$3" "${4:-out.txt}")
	[ "$n" = "$2" ] && ok "$1" || bad "$1: $n lines with '$3', want $2"
}
quiet() { [ -s err.txt ] && bad "$1: stderr: $(head -c 300 err.txt)" || ok "$1: nothing on stderr"; }
# the store's files: content and inode of state.db, -wal and -shm
files_id() { (cd "$1" && stat -c '%n %i' state.db* && sha256sum state.db*); }
untouched() { [ "$(files_id "$home")" = "$before" ] && ok "$1: state.db, -wal, -shm unchanged" || bad "$1: the store's files changed"; }
# run a txc command on the shape's store: exit status, stderr quiet, the files unchanged
T() { # want desc args...
	want=$1 d=$2
	shift 2
	expect_rc "$want" "$shape: $d" "$txc" "$@"
	[ "$want" = 0 ] && quiet "$shape: $d"
	untouched "$shape: $d"
}

level_of() { case $1 in v020) echo 0 ;; s55) echo 1 ;; f31c) echo 2 ;; 0070) echo 3 ;; *) echo 4 ;; esac; }
A=20260914_101500_a1b2c3 B=20260914_103000_c0ffee C=20260915_090000_beef01 K=20260915_091500_child1
R=20260916_120000_branch J=20260916_000000_cron01 O=20260910_080000_0ld0ld Y=20260916_150000_toky00
E=20260917_000000_empty0
fixed='Fixed: parse_csv keeps the final row now (the slice is gone). The change is in src/csv.py.'
added='Added tests/test_csv.py with test_empty_input; it passes.'

for shape in v020 s55 f31c 0070 46d7 up; do
	case $parts in *" $shape "*) ;; *) continue ;; esac
	home=$work/$shape level=$(level_of $shape)
	mkdir -p "$home"
	sh "$fx/shapes.sh" $shape > $shape.sql && "$mkdb" --keep-wal "$home/state.db" $shape.sql ||
		{ bad "$shape: the store could not be built" && continue; }
	[ -s "$home/state.db-wal" ] && [ -e "$home/state.db-shm" ] && ok "$shape: a WAL store with its -wal and -shm" ||
		bad "$shape: no -wal/-shm"
	# a running Hermes holds the store open (its -shm mapped): then nothing of it may change
	"$lw" hold "$home/state.db" 600 > hold.txt 2>&1 &
	holder=$!
	i=0
	while ! grep -q held hold.txt && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	before=$(files_id "$home")
	D="--db $home/state.db"

	# ---- list ----
	T 0 "list" list $D --utc
	count "$shape: list: 8 sessions (the archived one left out)" 8 ' 2026-09-1'
	hasnt "$shape: list: no archived session" "$O"
	has "$shape: list: the title" "Fix the CSV parser #2"
	has "$shape: list: a CJK title" "東京の天気"
	T 0 "list --json" list $D --json --archived
	json_ok out.txt && ok "$shape: list --json is JSON" || bad "$shape: list --json invalid"
	has "$shape: list --json: every session" "\"id\":\"$O\""
	[ "$level" -ge 1 ] && has "$shape: list --json: the columns after v0.20.0" '"title_source":"llm"'
	[ "$level" -ge 3 ] && has "$shape: list --json: 00704d08's columns" '"transport_profile":"deepseek"'
	[ "$level" -ge 4 ] && has "$shape: list --json: 46d7718a's auto_archived" '"auto_archived":0'
	T 0 "list --tree" list $D --tree --archived --utc
	has "$shape: --tree: the continuation under its root" "└ $B"
	has "$shape: --tree: the branch under its root" "└ $R"
	has "$shape: --tree: the delegate child under its parent" "└ $K"
	T 0 "list --all-profiles" list --home "$home" --all-profiles --utc
	has "$shape: --all-profiles: the root store is profile default" "default  $A"
	T 0 "list --source" list $D --source telegram
	[ "$(grep -c '^2026' out.txt)" = 1 ] && has "$shape: --source" "$C"
	T 0 "list --model" list $D --model SONNET
	count "$shape: --model" 3 'claude-sonnet-4.5'
	T 0 "list --since" list $D --since 2026-09-16 --utc
	count "$shape: --since" 4 ' 2026-09-1'
	T 0 "list --title --cwd" list $D --title csv --cwd /home/user/proj
	count "$shape: --title --cwd" 3 'Fix the CSV parser'
	T 0 "list --limit --order recent" list $D --limit 2 --order recent
	has "$shape: --limit footer" "6 more not shown"
	has "$shape: --order recent: the newest activity first" "$E"

	# ---- convert, every format ----
	T 0 "convert --to claude" convert $A --to claude $D
	json_ok out.txt && ok "$shape: claude is JSON" || bad "$shape: claude JSONL invalid"
	has "$shape: claude: the reply" "$fixed"
	has "$shape: claude: the tool call" '"name":"Write"'
	has "$shape: claude: the reasoning" 'The user wants the last row kept.'
	T 0 "convert --to hermes" convert $A --to hermes $D
	json_ok out.txt && ok "$shape: hermes is JSON" || bad "$shape: hermes JSONL invalid"
	has "$shape: hermes: the reply" "$fixed"
	has "$shape: hermes: the tool result" 'bytes_written'
	[ "$level" -ge 4 ] && has "$shape: hermes: 46d7718a's message_uid" '"mu-6"'
	T 0 "convert --to markdown" convert $A --to markdown $D --utc
	has "$shape: markdown: the reply" "$fixed"
	has "$shape: markdown: the call" '**Write** `src/csv.py`'
	count "$shape: markdown: content and api_content the same: the reply once" 1 "$fixed"
	T 0 "convert --to html" convert $A --to html $D --utc
	has "$shape: html: the reply" 'parse_csv keeps the final row now'
	T 0 "convert a Responses reply (codex_message_items) to markdown" convert $B --to markdown $D --utc
	count "$shape: markdown: the reply once" 1 "$added"
	T 0 "convert a Responses reply to claude" convert $B --to claude $D
	has "$shape: claude: the Responses reply" "$added"
	T 0 "convert CJK with reasoning to claude" convert $Y --to claude $D
	has "$shape: claude: the CJK reply (in the -wal only)" '東京は晴れです。'
	T 0 "convert the empty session" convert $E --to markdown $D --utc
	T 0 "convert the archived session" convert $O --to hermes $D
	has "$shape: the archived session" 'An archived reply.'
	T 0 "convert --to terminal" convert $C --to terminal $D --utc --width 100
	has "$shape: terminal: the reply" 'Here is the chart'
	hasnt "$shape: terminal: the rewound draft hidden" 'rewound away'
	T 0 "convert --include-compacted" convert $C --to markdown --include-compacted $D --utc
	has "$shape: --include-compacted: the compacted turn" 'Sunny, 21 degrees.'

	# ---- ranges, lineage, children ----
	T 0 "range #2-3" convert "$A#2-3" --to markdown $D --utc
	has "$shape: range: its messages" 'Let me read the file first.'
	hasnt "$shape: range: no later message" "$fixed"
	T 0 "range #-1" convert "$A#-1" --to claude $D
	has "$shape: range #-1: the last message" "$fixed"
	hasnt "$shape: range #-1: nothing before" 'drops the last row'
	T 0 "--lineage" convert $B --lineage --to markdown $D --utc
	has "$shape: --lineage: the root's messages" 'The CSV parser drops the last row'
	has "$shape: --lineage: the tip's" "$added"
	T 0 "--lineage to claude" convert $A --lineage --to claude $D
	has "$shape: --lineage claude: the tip's reply" "$added"
	T 0 "--children" convert $C --children --to markdown $D --utc
	has "$shape: --children: the child's reply" 'Mild, 18 to 22 degrees all week.'

	# ---- view, --follow ----
	T 0 "view" view $C $D --utc --width 100
	has "$shape: view: the reply" 'Here is the chart'
	T 0 "view (the most recently active)" view $D --utc --source cron
	has "$shape: view: the latest session" 'Digest: three new issues'
	T 0 "view --follow an ended session" view $A --follow --interval 0.1 $D --utc
	has "$shape: --follow: printed" 'parse_csv keeps the final row'
	expect_rc 124 "$shape: --follow a live session, stopped after 3 s" timeout 3 "$txc" view $Y --follow --interval 0.1 $D --utc
	has "$shape: --follow live: printed" '東京は晴れです。'
	untouched "$shape: --follow live"

	# ---- search: the index, the trigram, a scan ----
	T 0 "search (messages_fts)" search parse_csv $D --json
	json_ok out.txt && ok "$shape: search --json is JSON" || bad "$shape: search JSON invalid"
	has "$shape: search: a hit" "\"session_id\":\"$A\""
	expect_rc 0 "$shape: search --verbose" "$txc" search parse_csv $D --verbose --utc
	has "$shape: search: the index answered" 'messages_fts (' err.txt
	has "$shape: search: complete" 'complete' err.txt
	has "$shape: search: the hit line" "$A#1"
	untouched "$shape: search --verbose"
	expect_rc 0 "$shape: search trigram" "$txc" search 東京の $D --verbose --utc
	has "$shape: trigram: answered" 'messages_fts_trigram' err.txt
	has "$shape: trigram: the hit" "$Y#1"
	expect_rc 0 "$shape: search trigram, a row its view leaves out (cron)" "$txc" search ダイジェスト $D --verbose
	has "$shape: trigram: the cron row found" "$J#1"
	expect_rc 0 "$shape: search scan" "$txc" search 晴れ $D --verbose --utc
	has "$shape: scan: answered" 'scan, complete' err.txt
	has "$shape: scan: the hit" "$Y#2"
	T 0 "search --sessions --role" search csv --sessions --role assistant $D
	has "$shape: search --sessions" "$A"
	T 0 "search --tool" search csv.py --tool write_file $D --utc
	has "$shape: search --tool" "$A#5"

	# ---- artifacts ----
	T 0 "artifacts" artifacts $C $D --utc
	has "$shape: artifacts: the MEDIA file" '/tmp/chart.png'
	T 0 "artifacts --json --check" artifacts $C --json --check $D
	json_ok out.txt && ok "$shape: artifacts --json is JSON" || bad "$shape: artifacts JSON invalid"
	has "$shape: artifacts --json: the file" '"/tmp/chart.png"'

	# ---- export ----
	T 0 "export --json" export --json $D
	json_ok out.txt && ok "$shape: export --json is JSON" || bad "$shape: export --json invalid"
	[ "$(wc -l < out.txt)" = 9 ] && ok "$shape: export: every session (archived too)" || bad "$shape: export: $(wc -l < out.txt) lines"
	for t in "$fixed" "$added" 'Mild, 18 to 22 degrees all week.' 'An archived reply.' '東京は晴れです。' \
		'Digest: three new issues' 'csv.reader keeps every row' 'Here is the chart'; do
		has "$shape: export: '$t'" "$t"
	done
	# Hermes exports the active rows: 27 less two compacted and one rewound
	[ "$(grep -o '"role": ' out.txt | wc -l)" = 24 ] && ok "$shape: export: every message" ||
		bad "$shape: export: $(grep -o '"role": ' out.txt | wc -l) messages, want 24"
	for fmt in claude hermes markdown html; do
		T 0 "export --to $fmt --out" export --to $fmt --out out-$fmt $D --utc
		[ "$(grep -c '"session_id"' out-$fmt/manifest.jsonl)" = 9 ] && ok "$shape: --out $fmt: 9 sessions in the manifest" ||
			bad "$shape: --out $fmt: manifest $(cat out-$fmt/manifest.jsonl | head -c 300)"
		json_ok out-$fmt/manifest.jsonl && ok "$shape: --out $fmt: manifest JSON" || bad "$shape: manifest invalid"
		grep -rlF "$fixed" out-$fmt > /dev/null && ok "$shape: --out $fmt: the reply written" || bad "$shape: --out $fmt: no reply"
		ls -l --time-style=+%s.%N out-$fmt > ls1.txt
		T 0 "export --to $fmt --out again" export --to $fmt --out out-$fmt $D --utc
		ls -l --time-style=+%s.%N out-$fmt > ls2.txt
		cmp -s ls1.txt ls2.txt && ok "$shape: --out $fmt again: nothing rewritten" || bad "$shape: --out $fmt again: files rewritten"
	done
	T 0 "export --json --all-profiles" export --json --home "$home" --all-profiles
	json_ok out.txt && [ "$(wc -l < out.txt)" = 9 ] && ok "$shape: export --all-profiles" || bad "$shape: export --all-profiles"

	kill "$holder" 2> /dev/null
	wait "$holder" 2> /dev/null
	# no process holds the store: SQLite rebuilds the -shm (its wal-index) on the first open, as any
	# reader of a WAL store does, Hermes included; state.db and the -wal stay as they are
	before=$(files_id "$home")
	expect_rc 0 "$shape: list, no Hermes running" "$txc" list $D
	quiet "$shape: list, no Hermes running"
	[ "$(files_id "$home" | grep -v ' state.db-shm$')" = "$(echo "$before" | grep -v ' state.db-shm$')" ] &&
		ok "$shape: no Hermes running: state.db and -wal unchanged, the -shm the same file" || bad "$shape: the store changed"
done
case $parts in *" bot "*) ;; *) summary shapes && exit ;; esac

# ---- one session in two profile stores: the bot copy ----
# the root store (v0.20.0's shape) has the donor copy, archived; profiles/bot (46d7718a's) the adopted one
H=$work/bothome
mkdir -p "$H/profiles/bot"
sh "$fx/shapes.sh" v020 "$fx/shapes-rows.sql" "$fx/shapes-bot-root.sql" > root.sql && "$mkdb" "$H/state.db" root.sql &&
	sh "$fx/shapes.sh" 46d7 "$fx/shapes-bot-profile.sql" > bot.sql && "$mkdb" "$H/profiles/bot/state.db" bot.sql ||
	bad "the bot home could not be built"
X=20260918_140000_b07c0p
expect_rc 0 "bot copy: list --all-profiles" "$txc" list --home "$H" --all-profiles --utc
has "bot copy: the profile's copy listed" "bot      $X"
hasnt "bot copy: the root's archived copy not listed" "default  $X"
expect_rc 0 "bot copy: list --all-profiles --archived" "$txc" list --home "$H" --all-profiles --archived --utc
has "bot copy: --archived: the profile's copy" "bot      $X"
has "bot copy: --archived: the root's copy" "default  $X"
expect_rc 0 "bot copy: list --all-profiles --json" "$txc" list --home "$H" --all-profiles --archived --json
json_ok out.txt && ok "bot copy: list --json is JSON" || bad "bot copy: list --json invalid"
tr -d '\n' < out.txt | grep -q "\"id\":\"$X\",[^}]*\"end_reason\":\"adopted_by_profile\".*\"profile\":\"default\"" &&
	tr -d '\n' < out.txt | grep -q "\"id\":\"$X\",[^}]*\"profile\":\"bot\"" &&
	ok "bot copy: --json: both copies, each with its profile" || bad "bot copy: --json: $(head -c 400 out.txt)"
expect_rc 0 "bot copy: convert, no --profile: the root store's copy" "$txc" convert $X --to markdown --home "$H"
has "bot copy: the root's copy" 'bot: pong, the adopted reply'
hasnt "bot copy: not the profile's" 'only the profile has'
[ "$(cat err.txt)" = "txc: warning: session $X is in profile bot's store too (Hermes copies a bot's sessions into its \
profile); this is the root store's copy: --profile bot reads the other" ] && ok "bot copy: the other copy said" ||
	bad "bot copy: the other copy not said: $(cat err.txt)"
expect_rc 0 "bot copy: view, no --profile" "$txc" view $X --home "$H" --utc
has "bot copy: view: the other copy said" "is in profile bot's store too" err.txt
expect_rc 0 "bot copy: --follow, no --profile" "$txc" convert $X --to markdown --follow --interval 0.1 --home "$H"
has "bot copy: --follow: the other copy said" "is in profile bot's store too" err.txt
expect_rc 0 "bot copy: convert --profile default" "$txc" convert $X --to markdown --home "$H" --profile default
quiet "bot copy: --profile default (named)"
expect_rc 0 "bot copy: a session in the root store only" "$txc" convert 20260918_150000_root01 --to markdown --home "$H"
quiet "bot copy: the root store only"
expect_rc 0 "bot copy: convert --profile bot: the profile's copy" "$txc" convert $X --to markdown --home "$H" --profile bot
has "bot copy: --profile bot" 'bot: a message only the profile has'
expect_rc 0 "bot copy: view --profile default" "$txc" view $X --home "$H" --profile default --utc
hasnt "bot copy: --profile default: the root's copy" 'only the profile has'
for arg in $X 20260918_14; do
	for cmd in "convert --to markdown" "view" "artifacts"; do
		# shellcheck disable=SC2086 # cmd is words
		expect_rc 2 "bot copy: $cmd '$arg' --all-profiles: ambiguous" "$txc" $cmd "$arg" --home "$H" --all-profiles
		has "bot copy: $cmd '$arg': said" "'$arg' names sessions in 2 profiles; add --profile NAME:" err.txt
		has "bot copy: $cmd '$arg': the root's candidate" "  $X (profile default)" err.txt
		has "bot copy: $cmd '$arg': the profile's candidate" "  $X (profile bot)" err.txt
		[ -s out.txt ] && bad "bot copy: $cmd '$arg': output written" || ok "bot copy: $cmd '$arg': nothing on stdout"
	done
done
expect_rc 2 "bot copy: a prefix of two ids in two profiles" "$txc" convert 20260918_15 --to markdown --home "$H" --all-profiles
has "bot copy: prefix: the root's" "  20260918_150000_root01 (profile default)" err.txt
has "bot copy: prefix: the profile's" "  20260918_150000_bot002 (profile bot)" err.txt
expect_rc 0 "bot copy: a prefix of one id, --all-profiles" "$txc" convert 20260918_150000_b --to markdown --home "$H" --all-profiles
has "bot copy: the one session" 'bot: second reply'
expect_rc 0 "bot copy: search --all-profiles --archived" "$txc" search ping --home "$H" --all-profiles --archived --utc
has "bot copy: search: the root's copy, its profile named" "$X  2026-09-18 14:00  Bot ping  (profile default)"
has "bot copy: search: the profile's copy, its profile named" "$X  2026-09-18 14:00  Bot ping  (profile bot)"
expect_rc 0 "bot copy: search --all-profiles (archived left out)" "$txc" search ping --home "$H" --all-profiles --utc
hasnt "bot copy: search: no archived copy" "(profile default)"
has "bot copy: search: the profile's copy" "(profile bot)"
expect_rc 0 "bot copy: search --all-profiles --json" "$txc" search ping --home "$H" --all-profiles --archived --json
grep -q "\"session_id\":\"$X\".*\"profile\":\"default\"" out.txt && grep -q "\"session_id\":\"$X\".*\"profile\":\"bot\"" out.txt &&
	ok "bot copy: search --json: both, with their profile" || bad "bot copy: search --json: $(cat out.txt)"
expect_rc 0 "bot copy: export --all-profiles --out" "$txc" export --to markdown --out botout --home "$H" --all-profiles
ls botout/default/$X* > /dev/null 2>&1 && ls botout/bot/$X* > /dev/null 2>&1 && ok "bot copy: both copies written, a folder each" ||
	bad "bot copy: export: $(find botout | head -20)"
grep -q "\"session_id\":\"$X\",\"profile\":\"default\"" botout/manifest.jsonl &&
	grep -q "\"session_id\":\"$X\",\"profile\":\"bot\"" botout/manifest.jsonl && ok "bot copy: the manifest names both" ||
	bad "bot copy: manifest: $(cat botout/manifest.jsonl)"
# a profile whose store cannot be read, and a profiles/default (never a profile): passed over, unsaid
mkdir -p "$H/profiles/junk" "$H/profiles/default"
echo junk > "$H/profiles/junk/state.db"
cp "$H/profiles/bot/state.db" "$H/profiles/default/state.db"
expect_rc 0 "bot copy: other profiles unreadable or misnamed" "$txc" convert $X --to markdown --home "$H"
[ "$(grep -c . err.txt)" = 1 ] && has "bot copy: only the bot's copy said" "is in profile bot's store too" err.txt ||
	bad "bot copy: other profiles: $(cat err.txt)"

summary shapes
