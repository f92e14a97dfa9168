#!/bin/sh
# txc view: the terminal writer through the CLI, the pager (a pty from script(1)), hostile
# text escaped, and --follow against a live WAL writer (order, latency, checkpoint, memory).
# usage: view-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR GENSTORE LIVEWRITER SCHEMA
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5 gen=$6 live=$7 schema=$8
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" f.db "$src/fixtures/features.sql" || exit 1
esc=$(printf '\033')
unset TXC_PAGER PAGER NO_COLOR

# 1. in a pipe: plain text, no pager, 80 columns whatever COLUMNS says; view = convert --to terminal
printf '#!/bin/sh\ncat > "%s/paged.txt"\n' "$work" > pager.sh && chmod +x pager.sh
expect_rc 0 "view in a pipe" env TXC_PAGER="$work/pager.sh" COLUMNS=50 "$txc" view tools --db f.db --utc
[ ! -e paged.txt ] && ok || bad "a pager ran in a pipe"
grep -q "$esc" out.txt && bad "escapes in a pipe" || ok
[ "$(sed -n 4p out.txt)" = "$(sed -n 4p "$src/golden/features/tools.w80.term.txt")" ] && ok "80 columns in a pipe (COLUMNS ignored)" || bad "heading width: $(sed -n 4p out.txt)"
"$txc" convert tools --to terminal --db f.db --utc > conv.txt && cmp -s out.txt conv.txt && ok "view = convert --to terminal" || bad "view differs from convert --to terminal"
expect_rc 0 "view --width 40" "$txc" view tools --db f.db --utc --width 40
cmp -s out.txt "$src/golden/features/tools.w40.term.txt" && ok || bad "view --width 40 differs from its golden"
# no line wider than 40 columns (a terminal would wrap it; the orphan result's "from NAME" was 47)
python3 -c '
import sys, unicodedata
w = lambda l: sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in l)
bad = [l for l in open(sys.argv[1], encoding="utf-8").read().split("\n") if w(l) > 40]
print("\n".join("# %d: %s" % (w(l), l) for l in bad)); sys.exit(1 if bad else 0)' out.txt && ok "view --width 40: every line fits" || bad "view --width 40: lines wider than 40"
expect_rc 0 "view --color always in a pipe" "$txc" view tools --db f.db --utc --color always --width 80
cmp -s out.txt "$src/golden/features/tools.w80.color.term.txt" && ok || bad "--color always differs from its golden"
NO_COLOR=1 "$txc" view tools --db f.db > nc.txt && ! grep -q "$esc" nc.txt && ok "NO_COLOR: no escapes" || bad "NO_COLOR"
expect_rc 2 "view two sessions" "$txc" view tools chat --db f.db
one_line_err "view two sessions"
# a huge --width is capped (1000 columns): it drew each heading's rule that long (99999999999: a hang)
timeout 20 "$txc" view tools --db f.db --utc --width 1000000 > wide.txt 2> err.txt
r=$?
[ $r = 0 ] && [ "$(LC_ALL=C awk 'length($0) > 3100' wide.txt | wc -l)" = 0 ] && grep -q '^#1' wide.txt && ok "--width 1000000 capped" ||
	bad "--width 1000000: exit $r, $(wc -c < wide.txt) bytes"
expect_rc 2 "--width on markdown" "$txc" convert tools --to markdown --width 40 --db f.db
expect_rc 2 "--follow with --to html (a page is whole)" timeout 5 "$txc" convert tools --to html -f --db f.db
one_line_err "--follow with --to html"
expect_rc 2 "--follow with -o" "$txc" convert tools --to markdown -f -o x.md --db f.db
expect_rc 2 "--interval 0" "$txc" view tools --interval 0 --db f.db
expect_rc 2 "--no-pager on convert" "$txc" convert tools --to terminal --no-pager --db f.db

expect_rc 1 "view > /dev/full" sh -c '"$0" view tools --db f.db > /dev/full' "$txc"
[ "$(cat err.txt)" = "txc: error: cannot write to stdout: No space left on device" ] && ok || bad "view > /dev/full: $(cat err.txt)"

# 2. no SESSION: the most recently active of the filters
expect_rc 0 "view, no id" "$txc" view --db f.db --utc
head -n 2 out.txt | grep -q '^empty' && ok "the most recent session" || bad "view with no id: $(head -n 2 out.txt)"
expect_rc 0 "view --source telegram" "$txc" view --db f.db --source telegram --utc
sed -n 2p out.txt | grep -q '· telegram.*· ' && ok || bad "--source not applied: $(sed -n 2p out.txt)"
expect_rc 3 "view --source none" "$txc" view --db f.db --source nothing-here
one_line_err "no session matches"
expect_rc 3 "view, no id, no store" "$txc" view --db none.db
[ "$(cat err.txt)" = "txc: error: no Hermes store at 'none.db'" ] && [ ! -s out.txt ] && ok || bad "view no store: $(cat err.txt)"

# 3. the pager, on a pty (script -qc), the way git pages
if command -v script > /dev/null 2>&1; then
	pty() { # rows command: run command on a pty of rows x 80
		script -qec "stty rows $1 cols 80; $2" /dev/null > pty.txt 2>&1 < /dev/null
	}
	rm -f paged.txt
	pty 10 "TXC_PAGER='$work/pager.sh' '$txc' view tools --db f.db --utc"
	[ -s paged.txt ] && grep -q '● Bash' paged.txt && ok "taller than the terminal: paged" || bad "no pager on a terminal: $(head -c 300 pty.txt)"
	grep -q "$esc\[1;34m#2 Assistant" paged.txt && ok "colour to the pager on a terminal" || bad "no colour through the pager"
	rm -f paged.txt
	pty 10 "TXC_PAGER='$work/pager.sh' '$txc' view tools --db f.db --no-pager"
	[ ! -e paged.txt ] && grep -q '● Bash' pty.txt && ok "--no-pager prints" || bad "--no-pager paged"
	pty 60 "TXC_PAGER='$work/pager.sh' '$txc' view empty --db f.db"
	[ ! -e paged.txt ] && grep -q 'no messages' pty.txt && ok "shorter than the terminal: not paged" || bad "a short session was paged"
	pty 10 "PAGER='$work/pager.sh' '$txc' view tools --db f.db"
	[ -s paged.txt ] && ok "PAGER when TXC_PAGER is unset" || bad "PAGER not used"
	rm -f paged.txt
	pty 10 "TXC_PAGER=cat PAGER='$work/pager.sh' '$txc' view tools --db f.db"
	[ ! -e paged.txt ] && grep -q '● Bash' pty.txt && ok "TXC_PAGER=cat: no pager, PAGER not asked" || bad "TXC_PAGER=cat"
	pty 10 "NO_COLOR=1 TXC_PAGER='$work/pager.sh' '$txc' view tools --db f.db"
	grep -q "$esc" paged.txt && bad "NO_COLOR: escapes to the pager" || ok "NO_COLOR through the pager"
	rm -f paged.txt
	pty 10 "TXC_PAGER=/nonexistent/pager '$txc' view tools --db f.db"
	grep -q "cannot run the pager" pty.txt && grep -q '● Bash' pty.txt && ok "a pager that cannot run: said, printed" || bad "missing pager: $(head -c 300 pty.txt)"
	pty 10 "'$txc' view tools --db f.db -f --interval 0.1 & sleep 1; kill -INT \$!; wait \$!; echo rc=\$?"
	grep -q 'rc=0' pty.txt && grep -q '● Bash' pty.txt && ok "--follow on a terminal: not paged, Ctrl-C exits 0" || bad "follow + SIGINT: $(tail -c 300 pty.txt)"
	# neither TXC_PAGER nor PAGER: less -FRX, with LESS=FRX unless LESS is set (a less of our own on PATH)
	mkdir -p bin && printf '#!/bin/sh\nprintf "%%s|%%s\\n" "$*" "${LESS-unset}" > "%s/less.args"\ncat > "%s/paged.txt"\n' "$work" "$work" > bin/less && chmod +x bin/less
	rm -f paged.txt
	pty 10 "env -u LESS PATH='$work/bin':\"\$PATH\" '$txc' view tools --db f.db"
	[ "$(cat less.args 2> /dev/null)" = "-FRX|FRX" ] && grep -q '● Bash' paged.txt && ok "no pager set: less -FRX, LESS=FRX" || bad "default pager: $(cat less.args; head -c 300 pty.txt)"
	pty 10 "LESS=i PATH='$work/bin':\"\$PATH\" '$txc' view tools --db f.db"
	[ "$(cat less.args 2> /dev/null)" = "-FRX|i" ] && ok "LESS set: kept" || bad "LESS set: $(cat less.args)"
	rm -f paged.txt
	pty 10 "TXC_PAGER='  $work/pager.sh' '$txc' view tools --db f.db"
	[ -s paged.txt ] && ok "TXC_PAGER with leading spaces: the pager" || bad "TXC_PAGER with spaces: $(head -c 300 pty.txt)"
	rm -f paged.txt
	pty 10 "TXC_PAGER= PAGER='$work/pager.sh' '$txc' view tools --db f.db"
	[ ! -e paged.txt ] && grep -q '● Bash' pty.txt && ok "TXC_PAGER empty: no pager, PAGER not asked" || bad "TXC_PAGER empty"
	pty 10 "TXC_PAGER=true '$txc' view tools --db f.db; echo rc=\$?"
	grep -q 'rc=0' pty.txt && ! grep -q '● Bash\|cannot run' pty.txt && ok "a pager that quits at once: exit 0, nothing more" || bad "TXC_PAGER=true: $(head -c 300 pty.txt)"
	pty 10 "TXC_PAGER='kill -TERM \$\$' '$txc' view tools --db f.db; echo rc=\$?"
	grep -q 'rc=0' pty.txt && ! grep -q '● Bash\|cannot run' pty.txt && ok "a pager killed by a signal: exit 0, nothing more" || bad "pager killed: $(head -c 300 pty.txt)"
	pty 0 "TXC_PAGER='$work/pager.sh' '$txc' view tools --db f.db"
	[ ! -e paged.txt ] && grep -q '● Bash' pty.txt && ok "a terminal of unknown height: not paged" || bad "0 rows: paged"
else
	skip "pager" "no script(1)"
fi

# 4. hostile text: every control and bidi character escaped, only txc's own colours remain
cat > hostile.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, title TEXT, ended_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
  tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('evil' || char(27) || ']0;pwned' || char(7), 'cli' || char(27) || '[2J', 'm' || char(8238), 1767323045.0, 'T' || char(27) || '[31m' || char(8238) || 'x' || char(155) || 'y', NULL);
INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES
 ('evil' || char(27) || ']0;pwned' || char(7), 'user', 'clear' || char(27) || '[2J' || char(27) || '[H bidi ' || char(8238) || 'txt.exe' || char(8236) || ' iso ' || char(8294) || ' bell' || char(7) || ' cr' || char(13) || 'over lrm' || char(8206) || ' nel' || char(133) || ' ls' || char(8232) || 'end', NULL, 1767323046.0),
 ('evil' || char(27) || ']0;pwned' || char(7), 'assistant', 'ok', '[{"id":"c1","type":"function","function":{"name":"terminal","arguments":"{\"command\":\"echo \\u001b]0;t\\u0007 \\u202e x\"}"}}]', 1767323047.0);
INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES
 ('evil' || char(27) || ']0;pwned' || char(7), 'tool', '{"output": "out' || char(27) || '[31mred ' || char(8238) || 'rev", "exit_code": 0}', 'c1', 'terminal', 1767323048.0);
SQL
"$mkdb" h.db hostile.sql || exit 1
for c in never always; do
	"$txc" view evil --db h.db --color $c --detail full > h.$c.txt 2> err.txt && ok "hostile: view --color $c" || bad "hostile view: $(cat err.txt)"
	sed "s/$esc\[[0-9;]*m//g" h.$c.txt > h.$c.bare
	grep -q "$esc" h.$c.bare && bad "hostile --color $c: a raw ESC" || ok
	LC_ALL=C grep -q "$(printf '\342\200\256\|\342\200\254\|\342\201\246\|\342\200\216\|\302\205\|\342\200\250\|\007\|\010\|\015')" h.$c.bare && bad "hostile --color $c: a raw bidi/control" || ok
	grep -q 'clear\\x1b\[2J\\x1b\[H bidi \\u202etxt.exe\\u202c iso \\u2066 bell\\x07 cr\\x0dover' h.$c.bare &&
		grep -q '^evil\\x1b\]0;pwned\\x07.*· cli\\x1b\[2J.*· m\\u202e' h.$c.bare && ok "hostile: shown escaped, nothing dropped" || bad "hostile: not shown escaped: $(head -c 400 h.$c.bare)"
done

# 5. --follow against a live writer: every message once, in order, within two polls
"$gen" live.db "$schema" 0 > /dev/null || exit 1
"$live" session live.db || exit 1
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done; }
("$txc" view live-follow --db live.db -f --interval 0.5 --utc 2> view.err | stamp > view.stamped) &
vpid=$!
("$txc" convert live-follow --to claude --db live.db -f --interval 0.5 2> claude.err > claude.jsonl) &
cpid=$!
("$txc" convert live-follow --to hermes --hermes-format 0.20 --db live.db -f --interval 0.5 2> hermes.err > hermes.jsonl) &
hpid=$!
sleep 1
"$live" follow live.db 24 150 > sent.txt 2> writer.err; wrc=$?
i=0; while { kill -0 $vpid || kill -0 $cpid || kill -0 $hpid; } 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ $i -lt 100 ] && ok "--follow ends when the session ends" || bad "--follow still running after the session ended"
[ $wrc = 0 ] && grep -q '^checkpoint ok$' sent.txt && ok "the writer's TRUNCATE checkpoint succeeded while txc followed" || bad "writer: $(tail -n 2 sent.txt; cat writer.err)"
grep -q '^appended 24 messages, 0 errors' sent.txt && ok "the writer never failed or waited ($(tail -n 1 sent.txt))" || bad "writer: $(tail -n 1 sent.txt)"
seen=$(grep -o 'live [a-z]* [0-9]*$' view.stamped | awk '{print $3}' | tr '\n' ' ')
want=$(seq 0 23 | tr '\n' ' ')
[ "$seen" = "$want" ] && ok "view -f: every message once, in order" || bad "view -f messages: $seen"
# each part of the follow starts after a blank line, as in the whole document (the first part ended without it)
awk '/^[0-9.]+ #[0-9]+ / && prev !~ /^[0-9.]+ $/ { n++ } { prev = $0 } END { exit n != 0 }' view.stamped &&
	ok "view -f: a blank line before every heading" || bad "view -f: a heading glued to the message before it"
grep -q '^[0-9.]* #24 Assistant' view.stamped && ok "view -f: message numbers go on" || bad "view -f numbering"
# a reply that calls a tool is complete with its result (the next message): timed from that
awk 'NR == FNR { if ($1 == "sent") t[$2] = $3; next }
     /live (message|reply|result) [0-9]+$/ { n = $NF; d = $1 - t[n % 4 == 1 ? n + 1 : n]; if (d > max) max = d }
     END { printf "# latest arrival %.3f s after its commit (interval 0.5 s)\n", max; exit !(max <= 1.0) }' sent.txt view.stamped &&
	ok "view -f: each message within two poll intervals" || bad "view -f: a message came late"
grep -q 'no result recorded\|without a matching call' view.stamped && bad "view -f: a call shown apart from its result" || ok "view -f: each call with its result"
awk '/● Bash \$ echo [0-9]+$/ { want = "│ live result " ($NF + 1); n++; next } want != "" { if (index($0, want) == 0) bad++; want = "" }
     END { exit !(n == 6 && bad == 0) }' view.stamped && ok "view -f: a call waits for its result (6 turns)" || bad "view -f: calls and results apart"
"$txc" convert live-follow --to claude --db live.db > claude.full.jsonl
full=$(($(wc -l < claude.full.jsonl) - 2)) # less the closing summary and title records
[ "$(wc -l < claude.jsonl)" = "$full" ] && json_ok claude.jsonl && ok "convert --to claude -f: $full complete JSON lines" || bad "claude -f: $(wc -l < claude.jsonl) lines, want $full; $(cat claude.err)"
head -n "$full" claude.full.jsonl | cmp -s - claude.jsonl && ok "claude -f: the records a later convert writes, chained alike" || bad "claude -f differs from convert"
[ "$(wc -l < hermes.jsonl)" = 25 ] && json_ok hermes.jsonl && head -n 1 hermes.jsonl | grep -q '"messages": \[\]}$' && ok "hermes -f: the session line, then a line per row" || bad "hermes -f: $(wc -l < hermes.jsonl) lines"

# 5b. a store replaced while followed is opened again (same rows, new inode); a store removed ends it
for x in A B C; do "$gen" $x.db "$schema" 0 > /dev/null && "$live" session $x.db || exit 1; done
"$txc" view live-follow --db A.db -f --interval 0.2 > repl.txt 2> repl.err &
rpid=$!
sleep 0.6
# (its -wal and -shm go first: removed after the move, they could be the ones a follower that had
# just opened the new file maps, and a connection whose -shm is deleted under it sees a mix of
# old and new pages: the session ended, no messages; it failed so under load, 2026-12-02)
rm -f A.db-wal A.db-shm && mv B.db A.db
sleep 0.6
"$live" follow A.db 4 0 > /dev/null 2>&1
i=0; while kill -0 $rpid 2> /dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
kill $rpid 2> /dev/null; wait $rpid; rc=$?
[ $rc = 0 ] && [ "$(grep -o 'live [a-z]* [0-9]*$' repl.txt | awk '{print $3}' | tr '\n' ' ')" = "0 1 2 3 " ] &&
	ok "a replaced store: opened again, followed to the end" || bad "replaced store: exit $rc, $(cat repl.err; tail -n 5 repl.txt)"
"$txc" view live-follow --db C.db -f --interval 0.2 > gone.txt 2> gone.err &
gpid=$!
sleep 0.6
rm -f C.db C.db-wal C.db-shm
i=0; while kill -0 $gpid 2> /dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
kill $gpid 2> /dev/null; wait $gpid; rc=$?
[ $rc = 0 ] && grep -q "warning: the store '.*C.db' is gone; stopped following" gone.err && ok "a removed store: said, exit 0" || bad "removed store: exit $rc, $(cat gone.err)"

# 5c. --lineage: a compression hand-off while followed.  The writer ends live-follow with
# end_reason 'compression' after 8 messages, creates its continuation live-follow-2 1.5 s later
# (following waits for it), appends 8 more there, then ends it.
"$gen" ho.db "$schema" 0 > /dev/null && "$live" session ho.db || exit 1
note="txc: following the continuation live-follow-2 (the session was compressed)"
"$txc" view live-follow --db ho.db -f --lineage --interval 0.3 --utc > ho.view.txt 2> ho.view.err &
p1=$!
"$txc" convert live-follow --to markdown --db ho.db -f --lineage --interval 0.3 --utc > ho.md 2> ho.md.err &
p2=$!
"$txc" convert live-follow --to claude --db ho.db -f --lineage --interval 0.3 > ho.jsonl 2> ho.claude.err &
p3=$!
"$txc" convert live-follow --to hermes --db ho.db -f --lineage --interval 0.3 > ho.hermes.jsonl 2> ho.hermes.err &
p4=$!
"$txc" view live-follow --db ho.db -f --interval 0.3 --utc > ho.plain.txt 2> ho.plain.err &
p5=$!
sleep 0.6
"$live" handoff ho.db 8 60 1500 > ho.sent.txt 2> ho.writer.err || bad "handoff writer: $(cat ho.sent.txt ho.writer.err)"
for p in $p1 $p2 $p3 $p4 $p5; do
	i=0; while kill -0 $p 2> /dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
	kill $p 2> /dev/null; wait $p; eval "rc$p=\$?"
done
want=$(seq 0 15 | tr '\n' ' ')
for f in ho.view.txt ho.md; do
	seen=$(grep -o 'live [a-z]* [0-9]*$' $f | awk '{print $3}' | tr '\n' ' ')
	[ "$seen" = "$want" ] && ok "-f --lineage ($f): both sessions' messages once, in order" || bad "-f --lineage $f: $seen"
done
for p in $p1 $p2 $p3 $p4; do eval "r=\$rc$p"; [ "$r" = 0 ] || bad "-f --lineage: exit $r"; done
for e in ho.view.err ho.md.err ho.claude.err ho.hermes.err; do
	[ "$(cat $e)" = "$note" ] && ok "$e: the hand-off said in one line" || bad "$e: $(cat $e)"
done
# the body as view/convert --lineage writes it afterwards, from the first message to the end
"$txc" view live-follow --db ho.db --lineage --utc > ho.view.whole && grep -q '^══ Segment 1 of 2.*live-follow.*started' ho.view.whole &&
	ok "view --lineage (not followed): the chain, headed by segment" || bad "view --lineage: $(head -n 8 ho.view.whole)"
# (the view's closing "— session ended (reason) —" is no part of the document)
body() { sed -n '/^\(#1 User\|### \)/,$p' "$1" | sed '/^— session ended/d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
[ "$(body ho.view.txt)" = "$(body ho.view.whole)" ] && grep -A1 '^══ Segment 2 of 2.*live-follow-2' ho.view.txt | grep -q 'after compression at ' &&
	ok "view -f --lineage: from the first message, what view --lineage writes" || bad "view -f --lineage body: $(body ho.view.txt | head -n 8)"
"$txc" convert live-follow --to markdown --db ho.db --lineage --utc > ho.md.whole
[ "$(body ho.md)" = "$(body ho.md.whole)" ] && grep -q '^## Segment 2 of 2 · `live-follow-2` · after compression at ' ho.md &&
	ok "convert -f --lineage --to markdown: from the first message, what convert --lineage writes" || bad "markdown -f --lineage body: $(body ho.md | head -n 8)"
n=$(grep -o 'live [a-z]* [0-9]*' ho.jsonl | sort -u | wc -l)
json_ok ho.jsonl && [ "$n" = 16 ] && ok "claude -f --lineage: JSON lines, every message of both sessions" || bad "claude -f --lineage: $n messages"
"$txc" convert live-follow --to claude --db ho.db --lineage > ho.whole.jsonl
full=$(($(wc -l < ho.whole.jsonl) - 2)) # less the closing summary and title records
[ "$(wc -l < ho.jsonl)" = "$full" ] && head -n "$full" ho.whole.jsonl | cmp -s - ho.jsonl && grep -q '"subtype":"compact_boundary"' ho.jsonl &&
	ok "claude -f --lineage: the records convert --lineage writes (one session, the compact_boundary and summary at the hand-off)" ||
	bad "claude -f --lineage differs from convert --lineage ($(wc -l < ho.jsonl) lines, want $full)"
[ "$(grep -c '"id": "live-follow-2"' ho.hermes.jsonl)" = 1 ] && [ "$(grep -c 'live [a-z]* [0-9]*' ho.hermes.jsonl)" -ge 2 ] &&
	ok "hermes -f --lineage: the continuation's session line, then its rows" || bad "hermes -f --lineage: $(cut -c1-120 ho.hermes.jsonl)"
# without --lineage: following stops where the compressed session ends
seen=$(grep -o 'live [a-z]* [0-9]*$' ho.plain.txt | awk '{print $3}' | tr '\n' ' ')
eval "r=\$rc$p5"
[ "$seen" = "$(seq 0 7 | tr '\n' ' ')" ] && [ "$r" = 0 ] && [ ! -s ho.plain.err ] &&
	ok "-f without --lineage: stops at the compressed session's end" || bad "-f without --lineage: exit $r, $seen, $(cat ho.plain.err)"

# 5d. --lineage on a chain that compressed before following began: each hand-off in turn (the
# first part a whole document: its last blank line kept for what follows); a loop of parents ends it
"$mkdb" lin.db "$src/fixtures/lineage.sql" || exit 1
"$txc" view two_a --db lin.db -f --lineage --interval 0.1 --utc > two.txt 2> two.err &
tp=$!
i=0; while ! grep -q 'in b' two.txt 2> /dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3; kill $tp; wait $tp; rc=$?
"$txc" view two_a --db lin.db --lineage --utc > two.whole
[ $rc = 0 ] && [ "$(cat two.err)" = "txc: following the continuation two_b (the session was compressed)" ] &&
	[ "$(body two.txt)" = "$(body two.whole)" ] && ok "-f --lineage on an ended chain: into the continuation, as view --lineage" ||
	bad "-f --lineage two_a: exit $rc, $(cat two.err), $(body two.txt | diff - two.whole | head -n 6)"
expect_rc 0 "-f --lineage on a loop of parents ends" timeout 20 "$txc" view cyc_a --db lin.db -f --lineage --interval 0.1
[ "$(cat err.txt)" = "txc: warning: the compression chain of cyc_a loops (its parent links form a cycle); stopped following" ] &&
	grep -q 'in a' out.txt && ok || bad "loop: $(cat err.txt)"

# 5e. --follow and a session that is over or cannot be shown: at once, as without --follow
# (the terminal's last blank line kept, as in 5d); --lineage goes on only after a compression
cp lin.db fo.db
sqlite3 fo.db "INSERT INTO sessions (id, source, model, started_at, ended_at, end_reason, title) VALUES ('quit', 'cli', 'm', 1768200000, 1768200009, NULL, 'Quit');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('quit', 'user', 'bye', 1768200001);" || exit 1
for s in dp_kid five_3_br quit; do # ended: agent_close (11 bytes, as 'compression'), cli_close, none
	expect_rc 0 "-f --lineage on $s (ended, not compressed)" timeout 20 "$txc" view $s --db fo.db -f --lineage --utc
	"$txc" view $s --db fo.db --utc > whole.txt && echo >> whole.txt
	tail -n 1 out.txt | grep -q '^— session ended\( (.*)\)\{0,1\} —$' && ok "-f --lineage $s: ends saying why" || bad "-f --lineage $s: $(tail -n 1 out.txt)"
	sed -i '/^— session ended/d' out.txt
	cmp -s out.txt whole.txt && [ ! -s err.txt ] && ok "-f --lineage $s: the session, then the end" || bad "-f --lineage $s: $(cat err.txt; diff out.txt whole.txt | head -5)"
done
expect_rc 0 "convert -f --lineage on dp_kid" timeout 20 "$txc" convert dp_kid --to markdown --db fo.db -f --lineage --utc
{ "$txc" convert dp_kid --to markdown --db fo.db --utc && echo; } | cmp -s - out.txt && ok || bad "convert -f dp_kid differs from convert"
expect_rc 3 "-f: no such session" timeout 20 "$txc" view nosuch --db fo.db -f
[ "$(cat err.txt)" = "txc: error: no session 'nosuch' in 'fo.db' (see 'txc list')" ] && [ ! -s out.txt ] && ok || bad "-f nosuch: $(cat err.txt)"
expect_rc 3 "-f: no such store" timeout 20 "$txc" view solo --db none.db -f
[ "$(cat err.txt)" = "txc: error: no Hermes store at 'none.db'" ] && [ ! -s out.txt ] && ok || bad "-f no store: $(cat err.txt)"
for c in "view dp_kid" "convert dp_kid --to markdown" "convert dp_kid --to hermes"; do
	# shellcheck disable=SC2086 # words by design
	timeout 20 "$txc" $c --db fo.db -f > /dev/full 2> err.txt
	r=$?
	[ $r = 1 ] && [ "$(cat err.txt)" = "txc: error: cannot write to stdout: No space left on device" ] && ok "$c -f > /dev/full: exit 1, said once" ||
		bad "$c -f > /dev/full: exit $r, $(cat err.txt)"
done
# a profile's scope: the Claude records a later convert in that profile writes
mkdir -p home/profiles/work && cp fo.db home/profiles/work/state.db && cp fo.db home/state.db
expect_rc 0 "-f --profile work" timeout 20 "$txc" convert dp_kid --to claude --home "$work/home" --profile work -f
mv out.txt prof.f.jsonl
"$txc" convert dp_kid --to claude --home "$work/home" --profile work > prof.jsonl
"$txc" convert dp_kid --to claude --home "$work/home" > def.jsonl
n=$(wc -l < prof.f.jsonl)
[ "$n" -gt 2 ] && head -n "$n" prof.jsonl | cmp -s - prof.f.jsonl && ! head -n "$n" def.jsonl | cmp -s - prof.f.jsonl &&
	ok "-f --profile: the profile's session records" || bad "-f --profile: $(head -c 200 prof.f.jsonl)"

# 5f. polls that fail (the store replaced by one without the session) are retried, said once after
# ten; the store back, with the session ended, following goes on from where it was and ends
wait_for() { # file pattern: until the file has a line matching, at most 15 s
	i=0; while ! grep -q "$2" "$1" 2> /dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q "$2" "$1" 2> /dev/null
}
cp lin.db pf.db && cp lin.db keep.db && cp lin.db gone.db
sqlite3 pf.db "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('solo', 'user', 'still there?', 1767600003)" || exit 1
cp pf.db keep.db
sqlite3 gone.db "DELETE FROM sessions WHERE id = 'solo'" || exit 1
"$txc" view solo --db pf.db -f --interval 0.1 --utc > pf.txt 2> pf.err &
pfp=$!
wait_for pf.txt 'still there?' && ok "-f: the open session shown" || bad "-f solo: $(cat pf.err)"
mv gone.db pf.db
warn="txc: warning: cannot read the session for 10 polls (no session 'solo' in 'pf.db' (see 'txc list')); still trying"
wait_for pf.err 'still trying' && [ "$(cat pf.err)" = "$warn" ] && ok "-f: failing polls said once" || bad "-f failing polls: $(cat pf.err)"
sqlite3 keep.db "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('solo', 'assistant', 'yes, back', 1767600004);
UPDATE sessions SET ended_at = 1767600005, end_reason = 'user_exit' WHERE id = 'solo'" || exit 1
mv keep.db pf.db
i=0; while kill -0 $pfp 2> /dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
kill $pfp 2> /dev/null; wait $pfp; rc=$?
"$txc" view solo --db pf.db --utc > pf.whole
[ $rc = 0 ] && [ "$(cat pf.err)" = "$warn" ] && [ "$(body pf.txt)" = "$(body pf.whole)" ] && [ "$(grep -c 'yes, back' pf.txt)" = 1 ] &&
	ok "-f: the store back, followed on to the end, each message once" || bad "-f after failures: exit $rc, $(cat pf.err; body pf.txt | diff - pf.whole | head -n 6)"

# 5g. --lineage: parent links rewritten while followed so that the continuation is a session
# followed before (two_a, now two_b's child): a loop, said, following ends
cp lin.db lp.db
"$txc" view two_a --db lp.db -f --lineage --interval 0.1 --utc > lp.txt 2> lp.err &
lpp=$!
wait_for lp.err 'following the continuation two_b' && wait_for lp.txt 'There are 2 files' && ok "-f --lineage: handed off to two_b" || bad "-f --lineage two_a: $(cat lp.err)"
cp lp.db lp2.db # (a new store in its place: opened again by the name followed now, two_b)
sqlite3 lp2.db "BEGIN; UPDATE sessions SET parent_session_id = NULL WHERE id = 'two_b'; UPDATE sessions SET parent_session_id = 'two_b' WHERE id = 'two_a';
UPDATE sessions SET ended_at = 1767601200, end_reason = 'compression' WHERE id = 'two_b'; COMMIT" || exit 1
mv lp2.db lp.db
i=0; while kill -0 $lpp 2> /dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
kill $lpp 2> /dev/null; wait $lpp; rc=$?
[ $rc = 0 ] && [ "$(cat lp.err)" = "txc: following the continuation two_b (the session was compressed)
txc: warning: the compression chain of two_b loops (its parent links form a cycle); stopped following" ] &&
	[ "$(grep -c 'There are 2 files' lp.txt)" = 1 ] && ok "-f --lineage: back to a session followed before: a loop, stopped" || bad "-f --lineage loop: exit $rc, $(cat lp.err)"

# 5h. --lineage: a continuation without messages yet; its part (and segment line) begins with its first
cp lin.db ch.db
sqlite3 ch.db "INSERT INTO sessions (id, source, model, started_at, ended_at, end_reason, title) VALUES ('cp', 'cli', 'm', 1768300000, 1768300010, 'compression', 'C');
INSERT INTO sessions (id, source, model, parent_session_id, started_at, title) VALUES ('cc', 'cli', 'm', 'cp', 1768300011, 'C');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('cp', 'user', 'before', 1768300001)" || exit 1
"$txc" view cp --db ch.db -f --lineage --interval 0.1 --utc > ch.txt 2> ch.err &
chp=$!
wait_for ch.err 'following the continuation cc' && ok "-f --lineage: handed off to an empty continuation" || bad "-f --lineage cp: $(cat ch.err)"
sleep 0.3 # (a few polls of the empty continuation)
grep -q 'Segment 2' ch.txt && bad "-f --lineage: a segment line before any message" || ok "-f --lineage: no segment line while the continuation is empty"
# (ch.db keeps a rollback journal: while a poll reads, a writer waits; the shell's default is not to)
sqlite3 -cmd '.timeout 20000' ch.db "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('cc', 'user', 'after', 1768300012);
UPDATE sessions SET ended_at = 1768300013, end_reason = 'user_exit' WHERE id = 'cc'" || exit 1
i=0; while kill -0 $chp 2> /dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
kill $chp 2> /dev/null; wait $chp; rc=$?
"$txc" view cp --db ch.db --lineage --utc > ch.whole
[ $rc = 0 ] && [ "$(body ch.txt)" = "$(body ch.whole)" ] && [ "$(grep -c '^══ Segment 2 of 2' ch.txt)" = 1 ] &&
	ok "-f --lineage: the continuation's part begins with its first message, as view --lineage" || bad "-f --lineage cc: exit $rc, $(body ch.txt | diff - ch.whole | head -n 6)"

# 6. memory stays flat while 10,000 messages arrive
"$gen" mem.db "$schema" 0 > /dev/null || exit 1
"$live" session mem.db || exit 1
# (under ASan, freed memory waits in a quarantine of 256 MB unless told not to)
ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0" "$txc" convert live-follow --to markdown --db mem.db -f --interval 0.05 > mem.md 2> mem.err &
mpid=$!
sleep 0.5
rss0=$(awk '/^VmRSS/ {print $2}' /proc/$mpid/status 2> /dev/null || echo 0)
("$live" follow mem.db 10000 0 > memw.txt 2>&1; echo done > memw.done) &
max=0
while [ ! -e memw.done ]; do
	r=$(awk '/^VmRSS/ {print $2}' /proc/$mpid/status 2> /dev/null || echo 0)
	[ "${r:-0}" -gt "$max" ] && max=$r
	sleep 0.2
done
wait $mpid
n=$(grep -c '^live \(message\|reply\|result\) [0-9]*$' mem.md)
echo "# memory: VmRSS $rss0 kB after the first poll, at most $max kB over 10,000 appended messages ($(tail -n 1 memw.txt))"
[ "$n" = 10000 ] && ok "10,000 followed messages written" || bad "followed $n of 10000 messages: $(cat mem.err)"
limit=4096 # kB; ASan's allocator and shadow add their own (LeakSanitizer checks for leaks there)
ASAN_OPTIONS=help=1 "$txc" --version 2>&1 | grep -q quarantine_size_mb && limit=16384
[ "$rss0" -gt 0 ] && [ $((max - rss0)) -lt $limit ] && ok "memory flat (+$((max - rss0)) kB, under $limit)" || bad "memory grew from $rss0 to $max kB"
summary view
[ "$fails" = 0 ]
