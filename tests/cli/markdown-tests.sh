#!/bin/sh
# Markdown output: safe in any CommonMark/GFM renderer (checked with cmark-gfm when installed),
# still Markdown for readers; unknown start; linear in unanswered calls; stdout write errors.
# usage: markdown-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" h.db "$src/fixtures/markdown-hostile.sql" || exit 1

"$txc" convert hostile-md --to markdown --db h.db > h.md 2> err.txt && ok || bad "convert: $(cat err.txt)"
[ "$(grep -c '^## ' h.md)" -ge 20 ] && ok || bad "the corpus did not convert: $(head -c 300 h.md)"

# ---- rendered by a real CommonMark/GFM implementation ----
render_checks() { # mode omitted: the HTML of h.md in h.$mode.html; omitted: raw HTML blocks dropped
	mode=$1 html=h.$1.html omitted=$2
	# only the tags Markdown itself makes (and txc's own <details>): nothing from the transcript
	tags=$(grep -oE '<[A-Za-z][A-Za-z0-9-]*' "$html" | tr -d '<' | sort -u |
		grep -vxE 'a|blockquote|code|del|details|em|h[1-6]|hr|li|ol|p|pre|strong|summary|table|tbody|td|th|thead|tr|ul|br')
	[ -z "$tags" ] && ok || bad "$mode: raw tags from the transcript: $(echo $tags)"
	grep -v '^<!-- raw HTML omitted -->$' "$html" | grep -qE '<[!?]' &&
		bad "$mode: raw comment/declaration/instruction: $(grep -E '<[!?]' "$html" | head -3)" || ok
	# a safe renderer drops raw HTML: only txc's own <details> lines may be dropped
	[ "$(grep -c '^<!-- raw HTML omitted -->$' "$html")" = "$omitted" ] && ok || bad "$mode: raw HTML omitted where txc wrote none"
	grep -qiE '<[a-z][^>]* on[a-z]+=' "$html" && bad "$mode: an event handler attribute" || ok
	links=$(grep -oiE '(href|src)="[^"]*"' "$html" | grep -viE '="(https?://|mailto:|ftp://|/|#|[a-z0-9._~-]+(/|"))')
	[ -z "$links" ] && ok || bad "$mode: a link with a scheme: $links"
	# the structure did not flip: txc's headings are headings, text after code blocks is text
	want=$(grep -cE '^## (User|Assistant|Tool result) · ' h.md)
	got=$(grep -cE '^<h2>(User|Assistant|Tool result) · ' "$html")
	[ "$got" = "$want" ] && ok || bad "$mode: $got of $want message headings render as headings"
	for n in $(seq 1 23) 25 26 27 TOOL; do
		grep -q "^<p>AFTER-$n</p>\$" "$html" && ok || bad "$mode: the text after shape $n is not a paragraph"
	done
	# readers still get Markdown: lists, tables, emphasis, code with its '<' as typed
	for want in '<code>Vec&lt;u8&gt;</code>' '<strong>bold</strong>' '<li>nested</li>' '<th>col</th>' \
		'<code class="language-rust">fn f() -&gt; Vec&lt;u8&gt;' '<pre><code>if (a &lt; b &amp;&amp; c &gt; d) { return &quot;&lt;tag&gt;&quot;; }' \
		'<del>old</del>' 'href="https://example.com/a_(b)"' '<a href="https://example.com">good</a>' '<a href="docs/x.md" title="title">rel</a>' '<h1>Title</h1>' '<code class="language-bash">npm i &lt;pkg&gt;'; do
		grep -qF "$want" "$html" && ok || bad "$mode: ordinary Markdown lost: $want"
	done
}
if command -v cmark-gfm > /dev/null 2>&1; then
	cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tagfilter h.md > h.unsafe.html && ok || bad "cmark-gfm --unsafe"
	render_checks unsafe 0
	cmark-gfm -e table -e autolink -e strikethrough -e tagfilter h.md > h.safe.html && ok || bad "cmark-gfm"
	render_checks safe "$(grep -cE '^</?details>' h.md)"
else
	skip "rendering checks" "cmark-gfm is not installed"
fi
# without a renderer: no '<' leaves the code the writer opened, in the text of shape 8 (HTML blocks)
grep -q '^&lt;script>$' h.md && grep -q '^&lt;!-- c ' h.md && ok || bad "HTML blocks not escaped"

# ---- an unknown start is not 1970 ----
"$txc" convert nostart --to markdown --db h.db > n.md 2> err.txt && ok || bad "nostart: $(cat err.txt)"
grep -q '^started: null$' n.md && ok || bad "unknown start in front matter: $(grep started n.md)"
grep -q '1970' n.md && bad "unknown start shown as 1970" || ok
grep -q '^\*1 messages · 0 tool calls · cli · m\*$' n.md && ok || bad "header of an unknown start: $(sed -n '/^\*1 messages/p' n.md)"

# ---- calls without results: linear.  80,000 calls and 80,000 results for other ids took
# 5 s at 30,000 when each call scanned the rest of the session; now 0.2 s.  The timeout is
# generous (sanitizers, a busy machine); the real figures are in the commit and report.
awk -v n=80000 'BEGIN {
	print "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL);"
	print "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_calls TEXT, tool_call_id TEXT, timestamp REAL NOT NULL);"
	print "INSERT INTO sessions VALUES (\"calls\", \"cli\", 1700000000.0);"
	print "BEGIN;"
	for (i = 1; i <= n; i++)
		printf "INSERT INTO messages VALUES (%d, \"calls\", \"assistant\", NULL, %c[{\"id\": \"c%d\", \"type\": \"function\", \"function\": {\"name\": \"terminal\", \"arguments\": \"{}\"}}]%c, NULL, %d.0);\n", i, 39, i, 39, 1700000000 + i
	for (i = 1; i <= n; i++)
		printf "INSERT INTO messages VALUES (%d, \"calls\", \"tool\", \"orphan\", NULL, \"c%dx\", %d.0);\n", n + i, i, 1700100000 + i
	printf "INSERT INTO messages VALUES (%d, \"calls\", \"tool\", \"late\", NULL, \"c1\", 1700999999.0);\n", 2 * n + 1
	print "COMMIT;"
}' > calls.sql
"$mkdb" calls.db calls.sql || exit 1
timeout 20 "$txc" convert calls --to markdown --db calls.db > calls.md 2> err.txt && ok || bad "80,000 unanswered calls: not done in 20 s ($(cat err.txt))"
[ "$(grep -c '^\*No result was recorded for this call\.\*$' calls.md)" = 79999 ] && ok || bad "unanswered calls: $(grep -c 'No result' calls.md), want 79999"
[ "$(grep -c '^orphan$' calls.md)" = 80000 ] && ok || bad "results without a call: $(grep -c '^orphan$' calls.md), want 80000"
grep -q '^late$' calls.md && ok || bad "the one late result is not beside its call"

# ---- an autolink <https://...> links to exactly its URL (its '>' is no part of the link) ----
cat > al.sql << 'EOF'
CREATE TABLE sessions (id TEXT, source TEXT, model TEXT, started_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('al', 'cli', 'm', 1767225600);
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('al', 'assistant',
  'See <https://example.com/a?b=1>, (<https://example.com/p>) and <http://x.org/y>.' || char(10) || '- <https://example.com/li>' || char(10) || char(10) || 'a > b', 1767225600);
EOF
"$mkdb" al.db al.sql || exit 1
"$txc" convert al --to markdown --db al.db > al.md 2> err.txt && ok || bad "autolinks: $(cat err.txt)"
if command -v cmark-gfm > /dev/null 2>&1; then
	cmark-gfm -e autolink al.md > al.html
	got=$(grep -oE 'href="[^"]*"' al.html | tr '\n' ' ')
	[ "$got" = 'href="https://example.com/a?b=1" href="https://example.com/p" href="http://x.org/y" href="https://example.com/li" ' ] &&
		ok "autolinks link to exactly their URL" || bad "autolinks: $got"
	grep -q '<p>a &gt; b</p>' al.html && ok || bad "a '>' in prose: $(grep 'a .* b' al.html)"
else
	skip "autolinks rendered" "cmark-gfm is not installed"
fi
grep -q '^a > b$' al.md && ok || bad "a '>' in prose is no longer '>': $(grep 'a .* b' al.md)"

# ---- a write error on stdout: one line, the real reason ----
if [ -w /dev/full ]; then
	for cmd in "convert calls --to markdown" "convert calls --to claude" "convert calls --to hermes" "export --json" "list --json"; do
		# shellcheck disable=SC2086
		"$txc" $cmd --db calls.db > /dev/full 2> err.txt; rc=$?
		[ "$rc" = 1 ] && ok || bad "$cmd > /dev/full: exit $rc, want 1"
		[ "$(cat err.txt)" = "txc: error: cannot write to stdout: No space left on device" ] && ok ||
			bad "$cmd > /dev/full: $(cat err.txt)"
	done
else
	echo "markdown-tests: SKIPPED the write-error checks: no /dev/full"
fi

# ---- front matter read as Markdown (a renderer without front-matter support makes it a setext
# heading): link syntax in the id, title, cwd or model is no link ----
cat > fm.sql << 'EOF'
CREATE TABLE sessions (id TEXT, source TEXT, model TEXT, started_at REAL, title TEXT, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('[i](javascript:alert(1))', 'cli', '![m](javascript:alert(2))', 1767225600,
  '[t](javascript:alert(3))', '[c]: javascript:alert(4)');
INSERT INTO messages (session_id, role, content, timestamp) VALUES ('[i](javascript:alert(1))', 'user', '[c] and [x][c]', 1767225600);
EOF
"$mkdb" fm.db fm.sql || exit 1
"$txc" convert '[i](javascript:alert(1))' --to markdown --db fm.db > fm.md 2> err.txt && ok || bad "front matter: $(cat err.txt)"
grep -q '^title: "\\u005bt\\u005d(javascript:alert(3))"$' fm.md && ok || bad "front matter title: $(grep '^title' fm.md)"
if command -v cmark-gfm > /dev/null 2>&1; then
	cmark-gfm --unsafe -e table -e autolink fm.md > fm.html
	grep -qiE '(href|src)="javascript' fm.html && bad "front matter: a live link: $(grep -oiE '(href|src)="javascript[^"]*"' fm.html)" || ok
fi
if python3 -c 'import yaml' 2> /dev/null; then
	python3 -c 'import sys, yaml; d = yaml.safe_load(open("fm.md").read().split("---\n")[1]); sys.exit(d["title"] != "[t](javascript:alert(3))" or d["id"] != "[i](javascript:alert(1))")' &&
		ok || bad "front matter is not the values in YAML"
fi

summary markdown
[ "$fails" = 0 ]
