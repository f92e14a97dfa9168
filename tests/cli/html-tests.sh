#!/bin/sh
# HTML output (--to html): nothing from a transcript becomes markup, script, style or a URL; the
# page's one script and style are the ones its CSP names by hash; anchors #mN are search's ID#N;
# the same bytes every run; images inline by default; export --out writes and keeps index.html.
# (tests/cli/html-browser-tests.sh opens the pages in a real browser.)
# usage: html-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" h.db "$src/fixtures/html-hostile.sql" || exit 1
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1

expect_rc 0 "convert hostile" "$txc" convert hostile-html --db h.db --to html --utc
mv out.txt h.html
# ---- everything is there, as text ----
for m in PAYLOAD-A PAYLOAD-B REASONING RESULT-1 RESULT-2 RESULT-3 IMAGES LAST-MESSAGE "\\\\3c script\\\\3e"; do
	grep -q -- "$m" h.html && ok "shows $m" || bad "$m missing"
done
grep -q 'ARCHIVED-1' h.html && bad "a compacted message shown without --include-compacted" || ok
grep -q 'REWOUND-1\|SYSTEM-1' h.html && bad "a rewound or system row shown" || ok
# ---- nothing from the transcript is markup ----
[ "$(grep -o '<script' h.html | wc -l)" = 1 ] && ok "one <script>, txc's" || bad "$(grep -o '<script' h.html | wc -l) <script tags"
[ "$(grep -o '<style' h.html | wc -l)" = 1 ] && ok "one <style>, txc's" || bad "more than one <style"
grep -qiE '<(svg|iframe|img src="?http|a href="?javascript|meta http-equiv="refresh|base|link|textarea)' h.html &&
	bad "a live tag from the transcript: $(grep -oiE '<(svg|iframe|img src="?http|a href="?javascript|meta http-equiv="refresh|base|link|textarea)[^>]*' h.html | head -3)" || ok "no live tag"
# attributes with their quoted values emptied: what is left of every tag is txc's
sed -E 's/="[^"]*"/=""/g' h.html > h.attrs
grep -qiE '<[a-z][^>]* (on[a-z]+|style)=' h.attrs && bad "an event handler or style attribute: $(grep -oiE '<[a-z][^>]* (on[a-z]+|style)=[^>]*' h.attrs | head -3)" || ok "no handler or style attribute"
# the tags are txc's own, and every attribute is quoted
tags=$(grep -oE '<[A-Za-z][A-Za-z0-9-]*' h.html | tr -d '<' | sort -u |
	grep -vxE 'html|head|meta|title|style|body|header|h1|h2|p|dl|dt|dd|code|nav|main|section|a|div|details|summary|pre|span|strong|em|figure|img|footer|script|br')
[ -z "$tags" ] && ok "only txc's tags" || bad "tags: $(echo $tags)"
grep -oE '<[a-z][a-z0-9]* [^>]*>' h.attrs | grep -E ' [a-z-]+=[^"]' && bad "an unquoted attribute" || ok "attributes quoted"
# every URL: our anchors, or a checked data:image of an accepted type
urls=$(grep -oE '(href|src)="[^"]*"' h.html | grep -vE '^href="#m[0-9]+"$|^src="data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+"$')
[ -z "$urls" ] && ok "only #mN links and data:image" || bad "urls: $urls"
grep -q '<span class="bidi">\[U+202E\]</span>' h.html && ok "bidi override shown as a mark" || bad "bidi override raw"
# "\3c script\3e" (a CSS escape) and &lt; in the text stay text: escaped once, not decoded
grep -q '&amp;lt;script&amp;gt;' h.html && ok "entities in text escaped" || bad "entities in text"
# the forged tool name is an attribute value, quotes escaped
grep -q 'data-tool="x&quot; onclick=&quot;' h.html && ok "tool name escaped in its attribute" || bad "tool name attribute"
# ---- the policy: our script and style by their hash, nothing else ----
csp=$(sed -n 's/.*http-equiv="Content-Security-Policy" content="\([^"]*\)".*/\1/p' h.html)
echo "$csp" | grep -q "^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]*'; script-src 'sha256-[A-Za-z0-9+/=]*'; img-src data:; base-uri 'none'; form-action 'none'$" &&
	ok "CSP: default-src 'none', hashes, data: images" || bad "CSP: $csp"
echo "$csp" | grep -qE 'unsafe|nonce|http' && bad "CSP allows too much: $csp" || ok
hash_of() { # tag: the base64 SHA-256 of the bytes between <tag> and </tag>
	awk -v t="$1" 'BEGIN { RS = "\001" } { s = index($0, "<" t ">") + length(t) + 2; e = index($0, "</" t ">"); printf "%s", substr($0, s, e - s) }' h.html |
		openssl dgst -sha256 -binary | base64
}
if command -v openssl > /dev/null; then
	echo "$csp" | grep -qF "script-src 'sha256-$(hash_of script)'" && ok "script hash is the script's" || bad "script hash differs"
	echo "$csp" | grep -qF "style-src 'sha256-$(hash_of style)'" && ok "style hash is the style's" || bad "style hash differs"
else
	skip "CSP hashes" "openssl is not installed"
fi
# ---- anchors: #mN is the number txc search prints (ID#N) ----
for m in PAYLOAD-A PAYLOAD-B IMAGES LAST-MESSAGE; do
	n=$("$txc" search "$m" --db h.db | sed -n 's/^  hostile-html#\([0-9]*\) .*/\1/p' | head -1)
	sec=$(awk -v m="$m" '/^<section /{ id = $0 } index($0, m) { print id; exit }' h.html)
	echo "$sec" | grep -q " id=\"m$n\"" && ok "$m is #m$n" || bad "$m: search says #$n, page: $sec"
done
"$txc" convert hostile-html --db h.db --to html --utc --include-compacted > hc.html
n=$("$txc" search ARCHIVED-1 --db h.db | sed -n 's/^  hostile-html#\([0-9]*\) .*/\1/p')
grep -q "<section class=\"msg user compacted\" id=\"m$n\"" hc.html && ok "compacted message is #m$n" || bad "compacted anchor (search: $n)"
# ---- determinism ----
"$txc" convert hostile-html --db h.db --to html --utc > again.html
cmp -s h.html again.html && ok "same bytes twice" || bad "two runs differ"
# ---- images: inline by default even to a file (one file); --images files beside it ----
expect_rc 0 "img -o" "$txc" convert img --db feat.db --to html -o img.html
grep -q 'src="data:image/png;base64,aGVsbG8="' img.html && ok "inline with -o" || bad "not inline with -o"
[ -e img.html.assets ] && bad "-o made an assets folder" || ok
expect_rc 0 "img --images files" "$txc" convert img --db feat.db --to html --images files -o imgf.html
grep -q 'src="imgf.html.assets/image-1.png"' imgf.html && ok "linked file" || bad "files link: $(grep -o '<img[^>]*>' imgf.html)"
[ "$(cat imgf.html.assets/image-1.png)" = hello ] && ok "image bytes written" || bad "image bytes"
grep -q "img-src data: 'self'" imgf.html && ok "CSP allows the page's own images" || bad "CSP for files"

# ---- export --out: index.html, from the manifest, kept like any file of ours ----
expect_rc 0 "export html" "$txc" export --db feat.db --to html --out site
[ -f site/index.html ] && ok "index.html written" || bad "no index.html"
for f in site/*.html; do
	[ "$f" = site/index.html ] && continue
	u=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "${f#site/}") # href: percent-encoded
	grep -qF "href=\"./$u\"" site/index.html && ok "index links ${f#site/}" || bad "index misses ${f#site/}"
done
[ "$(grep -c '^<tr><td' site/index.html)" = 4 ] && ok "4 rows" || bad "rows: $(grep -c '^<tr><td' site/index.html)"
grep -q '"path":"index.html","format":"index"' site/manifest.jsonl && ok "index in the manifest" || bad "index not recorded"
grep -q '<td class="n" data-key="0.25"><span title="\$0.25">\$0.25</span></td>' site/index.html && ok "cost shown" || bad "cost"
grep -q '<td class="d" data-key="2026-01-02T03:04:05.000Z">2026-01-02</td><td class="src" data-key="cli">cli</td><td class="mdl" data-key="claude-sonnet-4-5">' site/index.html && ok "date, source, model" || bad "facts"
cp site/index.html index.before
expect_rc 0 "export again" "$txc" export --db feat.db --to html --out site
cmp -s site/index.html index.before && ok "unchanged on a re-run" || bad "index changed"
# a later run of one session keeps the others listed (the manifest remembers them)
expect_rc 0 "export one" "$txc" export --db feat.db --to html --out site --title Tools
[ "$(grep -c '^<tr><td' site/index.html)" = 4 ] && ok "still 4 rows" || bad "rows after a partial run: $(grep -c '^<tr><td' site/index.html)"
# someone's edit is never overwritten; --force does
echo "mine" >> site/index.html
expect_rc 1 "edited index" "$txc" export --db feat.db --to html --out site
grep -q "index.html' exists and is not as txc wrote it" err.txt && ok || bad "no refusal: $(cat err.txt)"
grep -q "^txc: error: the index page was not written (see above)" err.txt && ok "says the index failed" || bad "summary: $(cat err.txt)"
tail -n 1 site/index.html | grep -qx mine && ok "edit kept" || bad "edit lost"
expect_rc 0 "edited index --force" "$txc" export --db feat.db --to html --out site --force
cmp -s site/index.html index.before && ok "--force rewrote it" || bad "--force"
# the index is no session: another format's export leaves it alone
expect_rc 0 "markdown export beside" "$txc" export --db feat.db --to markdown --out site
cmp -s site/index.html index.before && ok "markdown run kept index.html" || bad "markdown run touched index.html"
[ "$(grep -c '<tr><td' site/index.html)" = 4 ] && ok || bad "rows"
# the index's own checks: one script, hash-allowed, links only relative
[ "$(grep -o '<script' site/index.html | wc -l)" = 1 ] && ok "index: one script" || bad "index scripts"
grep -oE '(href|src)="[^"]*"' site/index.html | grep -vE '^href="\./[A-Za-z0-9._~/%-]+\.html"$' && bad "index: a link not to a page" || ok "index: links to pages only"

# ---- message Markdown rendered by cmark-gfm, made safe (src/writer/html_md.c) ----
expect_rc 0 "convert hostile-md" "$txc" convert hostile-md --db h.db --to html --utc
mv out.txt md.html
body=$(sed -n '/<main>/,/<\/main>/p' md.html)
for want in '<strong>MD-BOLD</strong>' '<code>MD-CODE</code><br />' '<h2>MD-HEADING</h2>' '<li>MD-ITEM-1</li>' \
	'<del>MD-STRIKE</del>' '<th>MD-TH</th>' '<td>MD-TD</td>' '<pre><code class="language-python">print(&quot;MD-FENCE&quot;)' \
	'<a href="https://example.invalid/a">MD-LINK-HTTPS</a>' '<a href="#m1">MD-LINK-ANCHOR</a>' \
	'<a href="mailto:md@example.invalid">' '<a href="http://www.example.invalid">' \
	'MD-LINK-JS (javascript:' 'MD-LINK-REL (../../etc/passwd)' 'MD-LINK-DATA (data:text/html,&lt;script&gt;' \
	'<a href="http://127.0.0.1:9/md.png">image: MD-IMG-HTTP</a>' 'image: MD-IMG-DATA (data:image/png' \
	'Inline &lt;b&gt;MD-RAW-B&lt;/b&gt; &lt;img src=x onerror=' '&lt;script&gt;document.documentElement.dataset.pwned=23' \
	'<pre><code>&lt;div onclick=&quot;' '&lt;style&gt;body{display:none}' '<span class="bidi">[U+202E]</span>MD-BIDI'; do
	printf '%s' "$body" | grep -qF -- "$want" && ok "markdown: $want" || bad "markdown: missing $want"
done
# the tags of rendered Markdown and nothing else; links only http(s), mailto, #; no image at all
tags=$(printf '%s' "$body" | grep -oE '<[A-Za-z][A-Za-z0-9-]*' | tr -d '<' | sort -u |
	grep -vxE 'main|section|h2|a|div|p|strong|code|br|ul|li|del|table|thead|tbody|tr|th|td|pre|span')
[ -z "$tags" ] && ok "markdown: only rendered Markdown's tags" || bad "markdown: tags: $(echo $tags)"
urls=$(printf '%s' "$body" | grep -oE '(href|src)="[^"]*"' | grep -vE '^href="(#|https?://|mailto:)')
[ -z "$urls" ] && ok "markdown: links only to http(s), mailto and anchors" || bad "markdown: urls: $urls"
printf '%s' "$body" | grep -qE '<img|title="' && bad "markdown: an image or a link title" || ok "markdown: no image, no title"
"$txc" convert hostile-md --db h.db --to html --utc | cmp -s - md.html && ok "markdown: the same bytes again" || bad "markdown: differs between runs"
# an untitled session is listed by its first user text (one line, 60 characters), not its bare id
cp h.db untitled.db
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = NULL"); c.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)", ("hostile-md", "user", "x", 1767400003.0)); c.commit()' untitled.db
expect_rc 0 "export untitled" "$txc" export --db untitled.db --to html --out site-u
grep -qF '<a class="pv" href="./hostile-md.html">Render **MD-BOLD** and `MD-CODE` line two</a>' site-u/index.html &&
	ok "untitled: listed by its first user text" || bad "untitled: $(grep -o '<tr><td[^>]*><a[^>]*>[^<]*' site-u/index.html | head -3)"
grep -qF '"preview":"Render **MD-BOLD** and `MD-CODE` line two"' site-u/manifest.jsonl && ok "untitled: the preview kept in the manifest" || bad "untitled: no preview in the manifest"
summary html
[ "$fails" = 0 ]
