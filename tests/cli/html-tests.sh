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

# ---- export --out: each page links the index and its neighbours in the index's order (src/archive/nav.c) ----
cp feat.db nav.db
expect_rc 0 "export nav" "$txc" export --db nav.db --to html --out site-n
nav_ok() { # every page and its later pages (DIR/x.html.assets/pN.html): two nav slots, the index link,
	# prev/next the rows above and below it, each relative to the page's folder (one python)
	python3 - "${1:-site-n}" << 'EOF'
import glob, os, re, sys, urllib.parse
d = sys.argv[1]
rows = re.findall(r'^<tr><td[^>]*><a[^>]* href="\./([^"]*)"', open(os.path.join(d, "index.html"), encoding="utf-8").read(), re.M)
bad = 0
def check(rel, i):
    global bad
    page = open(os.path.join(d, rel), encoding="utf-8").read()
    up = "../" * rel.count("/")
    navs = re.findall(r'<!--txc-nav-->(.*?)<!--/txc-nav-->', page)
    want_p = up + rows[i - 1] if i > 0 else None
    want_n = up + rows[i + 1] if i + 1 < len(rows) else None
    got = navs[0] if navs else ""
    p = re.search(r'rel="prev" href="([^"]*)"', got)
    n = re.search(r'rel="next" href="([^"]*)"', got)
    if (len(navs) != 2 or navs[0] != navs[1] or '<a rel="index" href="%sindex.html">All sessions</a>' % up not in got
            or (p.group(1) if p else None) != want_p or (n.group(1) if n else None) != want_n):
        print("# %s: %r (want prev %s, next %s)" % (rel, navs, want_p, want_n))
        bad += 1
for i, href in enumerate(rows):
    rel = urllib.parse.unquote(href)
    check(rel, i)
    for part in sorted(glob.glob(os.path.join(glob.escape(os.path.join(d, rel)) + ".assets", "p*.html"))):
        check(os.path.relpath(part, d), i)
sys.exit(1 if bad or not rows else 0)
EOF
}
nav_ok && ok "nav: every page links the index and its neighbours" || bad "nav: links"
# a first run writes each page once, with its links (predicted from the listing): nothing is
# relinked, so a run that would be killed at its first relink ends
rc=$(TXC_TEST_KILL_AT=relink:1 "$txc" export --db nav.db --to html --out site-w --progress 2> err.txt > /dev/null; echo $?)
[ "$rc" = 0 ] && ok "nav: a first run relinks no page" || bad "nav: a first run relinked (rc $rc)"
grep -q 'relinked' err.txt && bad "nav: a first run says relinked: $(tail -n 1 err.txt)" || ok "nav: a first run says no relink"
nav_ok site-w && ok "nav: the first run's pages carry their links" || bad "nav: first run links"
grep -q '"page_sha256":"[0-9a-f]\{64\}","links":"[0-9a-f]\{32\}"}$' site-n/manifest.jsonl && ok "nav: the manifest records each page's links" || bad "nav: manifest"
# the page's links change nothing else: its bytes with the slots emptied are convert's (its CSP
# names the script that forwards #mN to a later page too)
# and its one style rule more, for the bar: style-src names that sheet's hash)
sed -e 's/<!--txc-nav-->.*<!--\/txc-nav-->/<!--txc-nav--><!--\/txc-nav-->/' -e "/Content-Security-Policy/s/\\(script-src '[^']*'\\) '[^']*'/\\1/" \
	-e "s/style-src '[^']*'/style-src X/" -e '/^nav\.pager{overflow-wrap:anywhere}$/d' site-n/empty.html | grep -v '^<!--txc-nav--><!--/txc-nav-->$' > empty.stripped
"$txc" convert empty --db nav.db --to html 2> /dev/null | sed "s/style-src '[^']*'/style-src X/" > empty.conv
cmp -s empty.stripped empty.conv && ok "nav: a page is convert's but for its nav slots" || bad "nav: the page differs from convert's: $(diff empty.conv empty.stripped | head -5)"
# a page's inode, its time to the nanosecond and its bytes' sum: a page rewritten within the same
# second can get the freed inode back, which whole seconds alone did not tell (ASan's timing)
files() { for f in site-n/*.html; do [ "$f" = site-n/index.html ] || echo "$(stat -c '%i-%.9Y' "$f")-$(cksum < "$f" | tr ' ' -) $f"; done; } # (the index: its own checks)
files > st.0
expect_rc 0 "nav: re-run" "$txc" export --db nav.db --to html --out site-n --progress
files | cmp -s - st.0 && ok "nav: a re-run rewrites nothing" || bad "nav: re-run rewrote $(files | diff st.0 - | grep '^>')"
# --force renders every page again: the same bytes but for the links, so none is rewritten
expect_rc 0 "nav: --force" "$txc" export --db nav.db --to html --out site-n --force --progress
grep -q ': 0 new, 0 updated, 4 unchanged' err.txt && ok "nav: --force finds every page unchanged" || bad "nav: --force: $(tail -n 1 err.txt)"
files | cmp -s - st.0 && ok "nav: --force rewrites nothing" || bad "nav: --force rewrote $(files | diff st.0 - | grep '^>')"
changed() { files | diff st.0 - | sed -n 's/^> [^ ]* site-n\///p' | sort | tr '\n' ' '; }
# one session's messages change: its page alone (its neighbours' links are the same)
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)", ("img", "user", "NAV-MORE", 1767400009.0)); c.commit()' nav.db
expect_rc 0 "nav: one session changed" "$txc" export --db nav.db --to html --out site-n --progress
[ "$(changed)" = "img-unicode-title.html " ] && ok "nav: only the changed page rewritten" || bad "nav: rewritten: $(changed)"
grep -q ': 0 new, 1 updated, 3 unchanged (3 not re-rendered) (' err.txt && ok "nav: says 1 updated, nothing relinked" || bad "nav: $(tail -n 1 err.txt)"
nav_ok && ok "nav: links right after the update" || bad "nav: links after the update"
# one session retitled: its page (a new name), and the two whose links name it
files > st.0
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = ? WHERE id = ?", ("NAV retitled", "img")); c.commit()' nav.db
expect_rc 0 "nav: one session retitled" "$txc" export --db nav.db --to html --out site-n --progress
[ "$(changed)" = "chat-日本語-quotes-cafe.html empty.html img-nav-retitled.html " ] && ok "nav: the retitled page and its neighbours rewritten" || bad "nav: rewritten: $(changed)"
[ ! -e site-n/img-unicode-title.html ] && ok "nav: the old name removed" || bad "nav: the old name kept"
grep -q ', 2 relinked (' err.txt && ok "nav: says 2 relinked" || bad "nav: $(tail -n 1 err.txt)"
nav_ok && ok "nav: links right after the retitle" || bad "nav: links after the retitle"
# a session added at the top of the index: its page and the one that was first
files > st.0
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO sessions (id, source, title, started_at) VALUES (?, ?, ?, ?)", ("newest", "cli", "NAV newest", 1767600000.0)); c.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)", ("newest", "user", "hi", 1767600001.0)); c.commit()' nav.db
expect_rc 0 "nav: one session added" "$txc" export --db nav.db --to html --out site-n --progress
[ "$(changed)" = "empty.html newest-nav-newest.html " ] && ok "nav: the new page and its neighbour written" || bad "nav: rewritten: $(changed)"
nav_ok && ok "nav: links right after the addition" || bad "nav: links after the addition"
# a neighbour someone edited keeps its edit (and its old links): said, never overwritten
echo '<!-- mine -->' >> site-n/empty.html
cp site-n/empty.html empty.mine
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = ? WHERE id = ?", ("NAV newest 2", "newest")); c.commit()' nav.db
"$txc" export --db nav.db --to html --out site-n > /dev/null 2> err.txt
cmp -s site-n/empty.html empty.mine && ok "nav: an edited page is not relinked" || bad "nav: an edited page was rewritten"
grep -qF "site-n/empty.html" err.txt && ok "nav: the kept page said" || bad "nav: not said: $(cat err.txt)"
# a run killed after it filled a page's links, before it recorded them: the next run completes it
rm -rf site-k && "$txc" export --db feat.db --to html --out site-k > /dev/null 2>&1
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = ? WHERE id = ?", ("NAV killed", "img")); c.commit()' nav.db
cp nav.db kill.db
rc=$(TXC_TEST_KILL_AT=relink:1 "$txc" export --db kill.db --to html --out site-k > /dev/null 2>&1; echo $?)
[ "$rc" = 137 ] && ok "nav: killed while relinking" || bad "nav: kill rc $rc"
expect_rc 0 "nav: the run after the kill" "$txc" export --db kill.db --to html --out site-k
grep -q 'not as txc wrote it\|kept' err.txt && bad "nav: after a kill: $(cat err.txt)" || ok "nav: nothing refused after the kill"
n_ok=0; for f in site-k/*.html; do [ "$f" = site-k/index.html ] || [ "$(grep -c '<!--txc-nav--><nav' "$f")" = 2 ] && n_ok=$((n_ok + 1)); done
[ "$n_ok" = "$(ls site-k/*.html | wc -l)" ] && ok "nav: every page linked after the kill" || bad "nav: pages without links after the kill"

# ---- a long session in an archive: pages of at most 1,000 messages, page 1 its file, the others in its folder ----
cp feat.db long.db
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("INSERT INTO sessions (id, source, title, started_at) VALUES (?, ?, ?, ?)", ("long", "cli", "Long one", 1767600000.0))
c.executemany("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
    [("long", "user" if i % 2 == 0 else "assistant", "LONG-%d <img src=x onerror=document.documentElement.dataset.pwned=%d>" % (i + 1, i + 1), 1767600000.0 + i) for i in range(2500)])
c.commit()' long.db
expect_rc 0 "export long" "$txc" export --db long.db --to html --out site-l
L=site-l/long-long-one.html
[ -f $L.assets/p2.html ] && [ -f $L.assets/p3.html ] && [ ! -e $L.assets/p4.html ] && ok "long: 3 pages (page 1 and 2 in its folder)" || bad "long: pages: $(ls $L.assets 2> /dev/null)"
[ "$(grep -c '^<section class="msg' $L)" = 1000 ] && [ "$(grep -c '^<section class="msg' $L.assets/p2.html)" = 1000 ] &&
	[ "$(grep -c '^<section class="msg' $L.assets/p3.html)" = 500 ] && ok "long: 1000, 1000 and 500 messages" || bad "long: messages per page"
grep -q 'id="m1000"' $L && grep -q 'id="m1001"' $L.assets/p2.html && grep -q 'id="m2500"' $L.assets/p3.html && ok "long: each message on its page" || bad "long: ids"
grep -qF '<nav class="summary" id="txc-pages" aria-label="Pages">Page 1 of 3: <strong>#m1–#m1000</strong> · <a href="long-long-one.html.assets/p2.html" data-first="m1001" data-last="m2000">#m1001–#m2000</a> · <a href="long-long-one.html.assets/p3.html" data-first="m2001" data-last="m2500">#m2001–#m2500</a></nav>' $L &&
	ok "long: page 1's table of pages" || bad "long: page 1's table: $(grep -o '<nav class="summary" id="txc-pages".*' $L)"
grep -qF '<a href="../long-long-one.html" data-first="m1" data-last="m1000">#m1–#m1000</a> · <strong>#m1001–#m2000</strong> · <a href="p3.html"' $L.assets/p2.html &&
	grep -qF '<a rel="start" href="../long-long-one.html">Long one</a>' $L.assets/p2.html && ok "long: page 2 links page 1 and 3" || bad "long: page 2's links"
grep -q '"path":"long-long-one.html.assets/p2.html","sha256":"[0-9a-f]*"},{"path":"long-long-one.html.assets/p3.html"' site-l/manifest.jsonl && ok "long: the pages in the manifest" || bad "long: manifest"
for f in $L $L.assets/p2.html; do # one policy names both scripts, each by its hash
	[ "$(grep -o '<script>' $f | wc -l)" = 2 ] && grep -q "script-src 'sha256-[A-Za-z0-9+/=]*' 'sha256-[A-Za-z0-9+/=]*'; img-src data:;" $f && ok "long: $f: 2 scripts, both by hash" || bad "long: $f: scripts/CSP"
done
grep -q 'onerror=document' $L.assets/p3.html && ! grep -q '<img src=x' $L.assets/p3.html && ok "long: transcript text escaped on later pages" || bad "long: escaping on page 3"
# the later pages link the index and the neighbouring sessions too, as page 1 does
nav_ok site-l && ok "long: every page of it links the index and its neighbours" || bad "long: later pages' links"
grep -qF '<!--txc-nav--><nav class="summary pager" aria-label="Sessions"><a rel="index" href="../index.html">All sessions</a> · <a rel="next" href="../empty.html">empty →</a></nav><!--/txc-nav-->' $L.assets/p3.html &&
	ok "long: page 3 links ../index.html and the next session" || bad "long: page 3: $(grep -o '<!--txc-nav-->.*' $L.assets/p3.html | head -1)"
long_files() { for f in $L $L.assets/*; do echo "$(stat -c '%i-%.9Y' "$f")-$(cksum < "$f" | tr ' ' -) $f"; done; }
long_files > long.0
expect_rc 0 "long: re-run" "$txc" export --db long.db --to html --out site-l
long_files | cmp -s - long.0 && ok "long: a re-run rewrites no page" || bad "long: a re-run rewrote pages"
expect_rc 0 "long: --force" "$txc" export --db long.db --to html --out site-l --force
long_files | cmp -s - long.0 && ok "long: --force rewrites no page (its links kept)" || bad "long: --force rewrote $(long_files | diff long.0 - | grep '^>')"
# a neighbour retitled: a dry run first (says what it would relink, writes nothing), then the run
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = ? WHERE id = ?", ("NAV next one", "empty")); c.commit()' long.db
"$txc" export --db long.db --to html --out site-l --dry-run --progress > dry.txt 2> err.txt
grep -qx "relink $L" dry.txt && ok "long: --dry-run says the page it would relink" || bad "long: dry run: $(cat dry.txt)"
grep -q ', 2 relinked (' err.txt && grep -q '^txc: would export' err.txt && ok "long: --dry-run counts relinks" || bad "long: dry run summary: $(tail -n 1 err.txt)"
long_files | cmp -s - long.0 && ok "long: --dry-run writes nothing" || bad "long: --dry-run wrote"
expect_rc 0 "long: neighbour retitled" "$txc" export --db long.db --to html --out site-l --progress
grep -q ', 2 relinked (' err.txt && ok "long: relinked, it and the other neighbour" || bad "long: $(tail -n 1 err.txt)"
nav_ok site-l && grep -qF 'href="../empty-nav-next-one.html">NAV next one →</a>' $L.assets/p2.html && ok "long: later pages relinked to the new name" || bad "long: later pages after the retitle"
[ "$(long_files | diff long.0 - | grep -c '^>')" = 3 ] && ok "long: its three pages relinked" || bad "long: rewritten: $(long_files | diff long.0 - | grep '^>')"
long_files > long.0
expect_rc 0 "long: --force after the relink" "$txc" export --db long.db --to html --out site-l --force
long_files | cmp -s - long.0 && ok "long: relinked pages found unchanged by --force" || bad "long: --force after the relink rewrote $(long_files | diff long.0 - | grep '^>')"
# a later page someone edited is kept, said, and not relinked
echo '<!-- mine -->' >> $L.assets/p2.html
cp $L.assets/p2.html p2.mine
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = ? WHERE id = ?", ("NAV next two", "empty")); c.commit()' long.db
"$txc" export --db long.db --to html --out site-l > /dev/null 2> err.txt
cmp -s $L.assets/p2.html p2.mine && grep -qF "$L.assets/p2.html" err.txt && ok "long: an edited later page kept and said" || bad "long: edited p2: $(cat err.txt)"
rm $L.assets/p2.html # (restored by the next run)
# the long session retitled: its later pages under the old name go with it
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE sessions SET title = ? WHERE id = ?", ("Long two", "long")); c.commit()' long.db
"$txc" export --db long.db --to html --out site-l > /dev/null 2> err.txt
[ ! -e $L.assets/p3.html ] && [ -f site-l/long-long-two.html.assets/p3.html ] && ok "long: retitled: the old later pages removed" || bad "long: retitled: $(ls site-l/*.assets 2>&1 | head)"
nav_ok site-l && ok "long: links right after its retitle" || bad "long: links after its retitle"
# --all-profiles: pages in profile folders link ../index.html and their neighbours across folders
mkdir -p home-n/profiles/work && cp long.db home-n/state.db && cp feat.db home-n/profiles/work/state.db
expect_rc 0 "nav: --all-profiles" "$txc" export --home home-n --all-profiles --to html --out site-p
nav_ok site-p && ok "nav: profile folders' pages link the index and their neighbours" || bad "nav: --all-profiles links"
rm -rf site-p && rc=$(TXC_TEST_KILL_AT=relink:1 "$txc" export --home home-n --all-profiles --to html --out site-p -j 2 2> /dev/null > /dev/null; echo $?)
[ "$rc" = 0 ] && nav_ok site-p && ok "nav: -j 2, profiles and a long session: each page written once, with its links" || bad "nav: -j 2 first run (rc $rc)"
grep -qF '<a rel="index" href="../../index.html">All sessions</a>' site-p/default/long-long-two.html.assets/p2.html && ok "nav: a later page in a profile folder links ../../index.html" || bad "nav: profile later page"
# convert -o FILE: one page, whatever its length (documented)
"$txc" convert long --db long.db --to html -o long1.html 2> /dev/null
[ "$(grep -c '^<section class="msg' long1.html)" = 2500 ] && ! grep -q 'txc-pages\|txc-nav' long1.html && ok "long: convert writes one page" || bad "long: convert paged"

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
# --redact: a key in an untitled session's first message is not in its preview (the listing's)
cp untitled.db untitled-k.db
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO sessions (id, source, started_at) VALUES (?, ?, ?)", ("keyed", "cli", 1767700000.0)); c.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)", ("keyed", "user", "use ghp_aB3dE6gH9jK2mN5p" "Q8sT1vW4yZ7bC0eF3hJ6 now", 1767700001.0)); c.commit()' untitled-k.db
expect_rc 0 "export untitled --redact" "$txc" export --db untitled-k.db --to html --out site-uk --redact
grep -rq 'Q8sT1vW4yZ7bC0eF3hJ6' site-uk && bad "untitled --redact: the key is in $(grep -rl 'Q8sT1vW4yZ7bC0eF3hJ6' site-uk)" || ok "untitled --redact: no key in the index, pages or manifest"
grep -qF '<a class="pv" href="./keyed.html">use [REDACTED' site-uk/index.html && ok "untitled --redact: its preview redacted" || bad "untitled --redact: $(grep -o 'keyed.html">[^<]*' site-uk/index.html)"
summary html
[ "$fails" = 0 ]
