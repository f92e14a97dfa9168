#!/bin/sh
# issue 30 item 6: `txc list` on a terminal stands the head of the first user message for a missing
# title (dim), as `hermes sessions list` does, and says when a session was last active where that
# differs from its start (ACTIVE); --json gives "preview" (Hermes's shape: line breaks as spaces,
# trimmed, 60 characters then "...") and "last_active"; a pipe's table is as it was.  A preview is
# hostile text: its escapes are shown as text, a wide glyph is two columns, no row wraps.  A
# terminal is script(1)'s pseudo-terminal, its width set by stty.
# usage: preview-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
export TZ=UTC LC_ALL=C.UTF-8
now=$(date +%s)
cat > p.sql << SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, model TEXT, started_at REAL, message_count INTEGER,
  title TEXT, last_activity_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('s-titled', 'cli', 'gpt-5.1', $now - 3 * 86400, 2, 'A real title', $now - 7200);
INSERT INTO sessions VALUES ('s-untitled', 'telegram', 'gpt-5.1', $now - 600, 2, NULL, NULL);
INSERT INTO sessions VALUES ('s-evil', 'cli', 'gpt-5.1', $now - 300, 1, '', NULL);
INSERT INTO messages VALUES (1, 's-titled', 'user', 'hello', $now - 3 * 86400);
INSERT INTO messages VALUES (2, 's-untitled', 'user', CAST(X'006A736F6E3A5B5D' AS TEXT), $now - 600);
INSERT INTO messages VALUES (3, 's-untitled', 'user', '  Please fix
the retry loop in 日本語のクライアント which keeps timing out after three tries and more', $now - 590);
INSERT INTO messages VALUES (4, 's-evil', 'user', 'x' || char(27) || ']0;pwned' || char(7) || char(27) || '[31mred' || char(13) || 'tail', $now - 300);
SQL
"$mkdb" p.db p.sql || exit 1

expect_rc 0 "list --json" "$txc" list --json --db p.db
grep -q '"id":"s-untitled".*"preview":"Please fix the retry loop in 日本語のクライアント which keeps timing o\.\.\."' out.txt &&
	ok "preview: the first text row (not the image's), trimmed, one line, 60 characters then ..." ||
	bad "preview of s-untitled: $(grep s-untitled out.txt)"
grep -q '"id":"s-evil".*"preview":"x\\u001b\]0;pwned\\u0007\\u001b\[31mred tail"' out.txt &&
	ok "preview: an empty title counts as none; CR a space" || bad "preview of s-evil: $(grep s-evil out.txt)"
grep -q '"id":"s-titled".*"last_active":.*"preview":null' out.txt && ok "a titled session: preview null" ||
	bad "s-titled: $(grep s-titled out.txt)"

expect_rc 0 "list, piped" "$txc" list --db p.db
grep -q 'ACTIVE\|Please\|pwned' out.txt && bad "a pipe's table changed: $(cat out.txt)" ||
	ok "a pipe's table: titles as the store has them, no ACTIVE"

tty_list() { # COLUMNS: txc list in a pseudo-terminal that wide, into tty.txt
	script -qc "stty cols $1 rows 50; '$txc' list --db p.db" /dev/null < /dev/null > tty.txt 2>&1
	# the table without its SGR colours
	sed "s/$(printf '\033')\[[0-9;]*m//g; s/$(printf '\r')\$//" tty.txt > plain.txt
}
if command -v script > /dev/null; then
	for w in 120 80 40; do
		tty_list $w
		grep -q "$(printf '\033')\]" tty.txt && bad "$w columns: a preview's OSC escape reached the terminal" ||
			ok "$w columns: no escape of the preview raw"
		grep -q "$(printf '\007')" tty.txt && bad "$w columns: a BEL reached the terminal" || ok
		wide=$(awk -v w=$w 'length($0) > w' plain.txt) # (wc -L in C.UTF-8 counts a CJK glyph as two)
		[ "$(wc -L < plain.txt)" -le $w ] && ok "$w columns: no row wider (CJK two columns)" ||
			bad "$w columns: a row wraps: $(cat plain.txt) $wide"
	done
	tty_list 120
	grep -q "^s-untitled .*Please fix the retry loop in 日本語" plain.txt && ok "120 columns: the preview for no title" ||
		bad "120: no preview: $(cat plain.txt)"
	grep -q "$(printf '\033')\[2mPlease fix" tty.txt && ok "the preview is dim (not a title)" || bad "preview not dim: $(cat -v tty.txt)"
	grep -q '^ID .*STARTED *ACTIVE' plain.txt && grep -q '^s-titled  *3d ago  *2h ago' plain.txt &&
		ok "ACTIVE: 2h ago beside a start of 3d ago" || bad "no ACTIVE: $(cat plain.txt)"
	grep -q '^s-evil  *5m ago  *cli' plain.txt && ok "ACTIVE blank where it says the start again" ||
		bad "s-evil: $(grep s-evil plain.txt)"
else
	skip "script(1) is missing (util-linux)"
fi
summary preview
