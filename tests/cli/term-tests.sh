#!/bin/sh
# issue 30 items 6 and 7: what a reader sees in a terminal.  `txc list` fits the terminal's width
# (columns cut or left out as `gh` does, never a wrapped row; "3h ago" for a recent start) while
# piped output stays whole; `txc view` shows tool results as text (a patch's diff, a truncated
# read_file's lines and "N lines, truncated"), a Bash call with more arguments as
# "$ cmd  (background)", breaks notes between words, counts in the singular, and --follow says
# why it stopped.  Real terminals: tmux panes of 40, 80 and 120 columns (capture-pane shows a
# wrapped row as two lines).  The same results in Markdown and HTML.
# usage: term-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
export TZ=UTC
now=$(date +%s)
cat > t.sql << SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL,
  message_count INTEGER DEFAULT 0, title TEXT, ended_at REAL, end_reason TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, finish_reason TEXT);
INSERT INTO sessions VALUES ('20260101_090000_aaaaaa', 'telegram', 'anthropic/claude-sonnet-4.5', $now - 3 * 3600 - 60, 6,
  'Tool results: a background server, a patch and a long file read to the end', 1767323052.0, 'user_exit');
INSERT INTO sessions VALUES ('20251231_090000_bbbbbb', 'cli', 'gpt-5', 1767000000.0, 1, 'One message', NULL, NULL);
INSERT INTO sessions VALUES ('20251230_090000_cccccc', 'discord', 'deepseek/deepseek-r1', 1766900000.0, 12,
  'A third session with a title long enough to be cut at any width below a hundred and twenty', NULL, NULL);
INSERT INTO sessions VALUES ('20251229_090000_dddddd', 'cli', 'gpt-5', $now - 300, 0, 'Five minutes', NULL, NULL);
INSERT INTO sessions VALUES ('20251228_090000_eeeeee', 'cli', 'gpt-5', $now - 2 * 86400 - 60, 0, 'Two days', $now - 86400, NULL);
INSERT INTO sessions VALUES ('20251227_090000_ffffff', 'cli', 'gpt-5', $now - 5, 0, 'Just now', NULL, NULL);
INSERT INTO sessions VALUES ('20251226_090000_gggggg', 'cli', 'gpt-5', 1766000000.0, 0, 'Long reason', 1766000100.0,
  'a reason far longer than anyone would read on one line: ééééééééééééééééé' || char(27) || '[31m');
INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, finish_reason) VALUES
 ('20251231_090000_bbbbbb', 'user', 'hello', NULL, NULL, NULL, 1767000001.0, NULL),
 ('20260101_090000_aaaaaa', 'user', 'Start the server, fix x and read the file.', NULL, NULL, NULL, 1767323046.0, NULL),
 ('20260101_090000_aaaaaa', 'assistant', 'On it.', NULL, '[{"id": "t1", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"npm run dev\", \"background\": true, \"notify_on_complete\": true}"}}, {"id": "p1", "type": "function", "function": {"name": "patch", "arguments": "{\"mode\": \"replace\", \"path\": \"/repo/x.c\", \"old_string\": \"int x = 1;\", \"new_string\": \"int x = 2;\"}"}}, {"id": "r1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"/repo/big.c\"}"}}]', NULL, 1767323047.0, 'tool_calls'),
 ('20260101_090000_aaaaaa', 'tool', '{"output": "Background process started\nline 2\nline 3", "session_id": "proc_1a2b", "exit_code": 0, "error": null}', 't1', NULL, 'terminal', 1767323048.0, NULL),
 ('20260101_090000_aaaaaa', 'tool', '{"success": true, "diff": "--- a/repo/x.c\n+++ b/repo/x.c\n@@ -1 +1 @@\n-int x = 1;\n+int x = 2;\n", "files_modified": ["/repo/x.c"]}', 'p1', NULL, 'patch', 1767323049.0, NULL),
 ('20260101_090000_aaaaaa', 'tool', '{"content": "1|int main(void)\n2|{\n3|\treturn 0;", "total_lines": 176, "file_size": 4100, "truncated": true, "hint": "Use offset=4 to continue reading"}', 'r1', NULL, 'read_file', 1767323050.0, NULL),
 ('20260101_090000_aaaaaa', 'assistant', 'Done: the server runs in the background and x is 2.', NULL, NULL, NULL, 1767323051.0, 'stop');
SQL
"$mkdb" t.db t.sql || exit 1
rd=20260101_090000_aaaaaa

# --- piped: whole lines, as before (the full start time, every column, titles uncut) ---
expect_rc 0 "list, piped" "$txc" list --db t.db
[ "$(sed -n 1p out.txt)" = "ID                      STARTED           SOURCE    MODEL                        MSGS  TITLE" ] &&
	grep -q '^20251230_090000_cccccc  2025-12-28 05:33  discord   deepseek/deepseek-r1         12    A third session with a title long enough to be cut at any width below a hundred and twenty$' out.txt &&
	ok "piped list: every column, whole titles, absolute times" || bad "piped list: $(cat out.txt)"
COLUMNS=40 "$txc" list --db t.db > cols.txt 2>&1
cmp -s cols.txt out.txt && ok "piped list: COLUMNS does not cut a pipe" || bad "piped list with COLUMNS=40 differs"

# --- the Markdown and HTML pages show the same results ---
expect_rc 0 "markdown" "$txc" convert $rd --to markdown --db t.db
grep -q '^<details><summary>#[0-9]* · ok · 176 lines, truncated</summary>$' out.txt && grep -q '^1|int main(void)$' out.txt &&
	! grep -q '"total_lines"' out.txt && ok "markdown: a truncated read as its lines, '176 lines, truncated'" ||
	bad "markdown read_file: $(grep -n -A3 'big.c' out.txt | head -12)"
grep -q '^```diff$' out.txt && grep -q '^+int x = 2;$' out.txt && ! grep -q '"diff"' out.txt &&
	ok "markdown: a patch's result as a diff" || bad "markdown diff result"
expect_rc 0 "html" "$txc" convert $rd --to html --db t.db
grep -q '176 lines, truncated</summary>' out.txt && grep -q '^<pre><code>1|int main(void)$' out.txt && ! grep -q 'total_lines' out.txt &&
	ok "html: a truncated read as its lines, '176 lines, truncated'" || bad "html read_file"
grep -q '<span class="d-add">+int x = 2;</span>' out.txt && ok "html: a patch's result as a marked diff" || bad "html diff result"

# --- view, piped at a width: the same as a terminal shows (checked in tmux below) ---
expect_rc 0 "view" "$txc" view $rd --db t.db --width 80
grep -q '^  ● Bash \$ npm run dev  (background)$' out.txt && ok "a Bash call with more arguments: \$ command  (background)" ||
	bad "bash header: $(grep Bash out.txt)"
grep -q '^    │ -int x = 1;$' out.txt && grep -q '^    │ +int x = 2;$' out.txt && ! grep -q '"diff"' out.txt &&
	ok "view: an edit's result as its diff" || bad "view diff: $(cat out.txt)"
grep -q '^    │ 3|      return 0;$' out.txt && grep -q '^    … 176 lines, truncated$' out.txt && ! grep -q 'total_lines' out.txt &&
	ok "view: a truncated read as numbered lines and '176 lines, truncated'" || bad "view read_file: $(cat out.txt)"
expect_rc 0 "view, coloured" "$txc" view $rd --db t.db --width 80 --color always
grep -q "$(printf '\033\[31m-int x = 1;')" out.txt && grep -q "$(printf '\033\[32m+int x = 2;')" out.txt &&
	grep -q "$(printf '\033\[36m@@ -1 +1 @@')" out.txt && ok "view: the diff coloured as git colours it" || bad "diff colours"
expect_rc 0 "view, one message" "$txc" view 20251231_090000_bbbbbb --db t.db --width 80
nb=$(printf '\302\240')
tr '\n' ' ' < out.txt | sed "s/$nb/ /g" | grep -q ' 1 message · 0 tool calls ' && ok "view: '1 message'" || bad "plural: $(sed -n 2p out.txt)"
expect_rc 0 "view at 40, short output" "$txc" view $rd --db t.db --width 40 --max-output-lines 1
awk '{ s = $0; gsub(/[\200-\277]/, "", s); if (length(s) > 40) bad = 1 } END { exit bad }' out.txt &&
	ok "view at 40: no line wider than 40" || bad "view at 40: a line wider than 40"
grep -q '^    … 2 more lines (--max-output-lines$' out.txt && grep -q '^    1; --detail full shows all)$' out.txt &&
	ok "view at 40: a note breaks between words" || bad "note at 40: $(grep -A1 'more line' out.txt)"
expect_rc 0 "follow an ended session" timeout 20 "$txc" view $rd --db t.db -f --interval 0.2 --width 80
[ "$(tail -n 1 out.txt)" = "— session ended (user_exit) —" ] && ok "--follow says why it stopped" || bad "follow end: $(tail -n 2 out.txt)"
expect_rc 0 "follow an ended session without a reason" timeout 20 "$txc" view 20251228_090000_eeeeee --db t.db -f --interval 0.2
[ "$(tail -n 1 out.txt)" = "— session ended —" ] && ok "--follow: ended, no reason given" || bad "follow end: $(tail -n 2 out.txt)"
expect_rc 0 "follow an ended session with a long reason" timeout 20 "$txc" view 20251226_090000_gggggg --db t.db -f --interval 0.2
[ "$(tail -n 1 out.txt)" = "— session ended (a reason far longer than anyone would read on one line: éé) —" ] &&
	ok "--follow: a long reason cut between characters" || bad "follow long reason: $(tail -n 1 out.txt)"
expect_rc 0 "follow, claude" timeout 20 "$txc" convert $rd --to claude --db t.db -f --interval 0.2
! grep -q 'session ended' out.txt && ok "--follow --to claude: the file stays JSONL" || bad "end line in JSONL"

# --- real terminals: tmux panes of 40, 80 and 120 columns ---
if ! command -v tmux > /dev/null 2>&1; then
	skip "tmux captures of list and view" "tmux is not installed (apt-get install tmux)"
	summary term-tests
	exit $?
fi
sock=txc-term-$$
trap 'tmux -L $sock kill-server 2> /dev/null; say_skips' EXIT
tpane() { # name width command...: the command's stdout on the terminal
	name=$1 w=$2; shift 2
	tmux -L $sock new-session -d -s "$name" -x "$w" -y 60 "TZ=UTC $*; sleep 60" || return 1
	i=0
	while [ $i -lt 100 ]; do
		sleep 0.1
		tmux -L $sock capture-pane -p -t "$name" | grep -q . && break
		i=$((i + 1))
	done
	sleep 0.5
	tmux -L $sock capture-pane -p -t "$name" | awk 'NF { n = NR } { l[NR] = $0 } END { for (i = 1; i <= n; i++) print l[i] }' > "$name.txt"
}
for w in 40 80 120; do
	tpane list$w $w "$txc" list --db "$work/t.db"
	rows=$(wc -l < list$w.txt)
	[ "$rows" = 8 ] && ok "list at $w columns: one line a session, never wrapped" || bad "list at $w: $rows lines: $(cat list$w.txt)"
	grep -q '^20251230_090000_cccccc ' list$w.txt && ok "list at $w: the id whole" || bad "list at $w: id cut"
done
head -n 1 list40.txt | grep -q '^ID  *TITLE$' && grep -q '^20251231_090000_bbbbbb  One message$' list40.txt &&
	ok "list at 40: the id and the title" || bad "list at 40: $(cat list40.txt)"
grep -q '^ID  *STARTED  *MODEL  *TITLE$' list80.txt && grep -q '^20260101_090000_aaaaaa  3h ago  *claude-sonnet-4.5  *Tool results' list80.txt &&
	grep -q '…$' list80.txt && ok "list at 80: source and count left out, '3h ago', the model without its vendor, titles cut" ||
	bad "list at 80: $(cat list80.txt)"
grep -q '^ID  *STARTED  *ACTIVE  *SOURCE  *MODEL  *MSGS  *TITLE$' list120.txt &&
	grep -q '^20260101_090000_aaaaaa  3h ago  *telegram  *anthropic/claude-sonnet-4.5  *6  *Tool results: a background ser…$' list120.txt &&
	grep -q '^20251228_090000_eeeeee  2d ago  *1d ago  *cli  ' list120.txt &&
	grep -q '^20251230_090000_cccccc  2025-12-28  ' list120.txt &&
	grep -q '^20251229_090000_dddddd  [5-9]m ago  ' list120.txt && grep -q '^20251228_090000_eeeeee  2d ago  ' list120.txt &&
	grep -q '^20251227_090000_ffffff  \(just now\|[1-9]m ago\)  ' list120.txt &&
	ok "list at 120: every column, 'just now', '5m ago', '2d ago' (ACTIVE '1d ago': it ended a day later), the date for an old session" || bad "list at 120: $(cat list120.txt)"
# a wide glyph is two columns: a CJK title (or source) cut by code points wrapped the row
cat > cjk.sql << 'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('cjk1', '微信微信微信微信微信微信微信微信微信微信', 'm', 1766000000.0,
  '日本語のタイトル日本語のタイトル日本語のタイトル日本語のタイトル日本語のタイトル日本語のタイトル');
INSERT INTO sessions VALUES ('cjk2', 'cli', 'm', 1765000000.0, 'ascii after');
SQL
"$mkdb" cjk.db cjk.sql || exit 1
for w in 40 80 120; do
	tpane cjk$w $w "$txc" list --db "$work/cjk.db"
	[ "$(wc -l < cjk$w.txt)" = 3 ] && grep -q '…$' cjk$w.txt && ok "list at $w: a CJK title cut to the width, not wrapped" ||
		bad "list at $w, CJK: $(cat cjk$w.txt)"
done
for w in 40 80 120; do
	tpane view$w $w "$txc" view $rd --db "$work/t.db" --max-output-lines 1
	"$txc" view $rd --db t.db --max-output-lines 1 --width $w | awk 'NF { n = NR } { l[NR] = $0 } END { for (i = 1; i <= n; i++) print l[i] }' > piped$w.txt
	cmp -s view$w.txt piped$w.txt && ok "view at $w columns: the terminal shows the lines written (none wrapped)" ||
		bad "view at $w: $(diff piped$w.txt view$w.txt | head -10)"
	grep -q '● Bash \$ npm run dev' view$w.txt && grep -q '│ --- a/repo/x.c$' view$w.txt && grep -q '176 lines, truncated$' view$w.txt &&
		ok "view at $w: Bash, the diff, the truncated read" || bad "view at $w: $(cat view$w.txt)"
	tpane follow$w $w "$txc" view $rd --db "$work/t.db" -f --interval 0.2
	grep -q '^— session ended (user_exit) —$' follow$w.txt && ok "view -f at $w: says why it stopped" || bad "follow at $w: $(tail -n 3 follow$w.txt)"
done
grep -q '^    … 2 more lines (--max-output-lines$' view40.txt && ok "view at 40 in tmux: the note broken between words" || bad "view40 note"

summary term-tests
