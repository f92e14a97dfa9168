#!/bin/sh
# The HTML pages in a real browser (Debian's headless Chromium), network off: every message and
# tool call is in the rendered DOM, the page's own script ran (allowed by its CSP hash), no
# script from a transcript ran (the hostile corpus sets data-pwned on <html> if one does), no
# console message at all (a CSP violation is one), and no network request was even attempted
# (Chromium's net log).  A control page, the hostile corpus with its escaping undone, must fail
# every one of those checks, so the checks can fail.  The conveniences (expand/collapse all,
# filters, copy buttons, the index's sorting) are used through html-browser-drive.py (the
# DevTools protocol over a pipe).  Screenshots stay in WORK_DIR.
# Skipped, saying why, when no Chromium is installed (.ci/run installs the chromium package; in CI,
# CI=true, the skip fails the test).
# usage: html-browser-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"

browser=
for b in chromium-headless-shell chromium chromium-browser; do
	command -v "$b" > /dev/null && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	skip "real-browser checks" "no Chromium found (apt-get install chromium)"
	summary html-browser # fails in CI (CI=true), where .ci/run installs chromium
	exit
fi
echo "# browser: $("$browser" --version 2> /dev/null | head -n 1)"

# network off: nothing resolves, everything goes to a closed proxy; the net log still shows any attempt
open_page() { # name file: name.dom (the DOM after scripts), name.log (console), name.net (net log)
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
		--disable-background-networking --disable-component-update --disable-sync --disable-default-apps \
		--disable-domain-reliability --disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication \
		--no-pings --host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9 --user-data-dir="$work/profile" \
		--enable-logging=stderr --v=0 --log-net-log="$work/$1.net" --virtual-time-budget=3000 \
		--dump-dom "file://$work/$2" > "$1.dom" 2> "$1.log"
}
screenshot() { # name file [flag]: --force-dark-mode for the dark theme
	timeout 120 "$browser" ${3:-} --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--disable-component-update --host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9 \
		--user-data-dir="$work/profile" --hide-scrollbars --window-size=1000,1300 --virtual-time-budget=3000 \
		--screenshot="$work/$1.png" "file://$work/$2" > /dev/null 2>&1
	[ -s "$1.png" ] && ok "$1: screenshot $work/$1.png" || bad "$1: no screenshot"
}
# the URLs of every request the page made or tried (file: ones are the page itself)
requests() { # name
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = {v: k for k, v in d["constants"]["logEventTypes"].items()}
for e in d.get("events", []):
    u = e.get("params", {}).get("url", "")
    # made by the page: "not an origin" ones are the browser itself (updates, clock)
    if names.get(e["type"]) == "URL_REQUEST_START_JOB" and e["params"].get("initiator") != "not an origin" \
            and not u.startswith(("file:", "data:")):
        print(u)' "$1.net" 2> /dev/null | sort -u
}
# the checks every page gets; want_ok=0 for the control page, which must fail them all
page_checks() { # name want_ok
	n=$1 want=$2
	[ -s "$n.dom" ] || { bad "$n: the browser gave no DOM ($(grep -v 'unexpected operator' "$n.log" | tail -n 2))"; return; }
	html_tag=$(grep -o '<html[^>]*>' "$n.dom" | head -n 1)
	verdict() { # what passed: ok when it passes on a page and fails on the control
		if [ "$2" = "$want" ]; then ok "$n: $1"; else bad "$n: $1 (want $want) $3"; fi
	}
	echo "$html_tag" | grep -q 'data-pwned' && r=0 || r=1
	verdict "no transcript script ran" $r "$html_tag"
	echo "$html_tag" | grep -q 'data-txc="ready"' && r=1 || r=0
	verdict "the page's own script ran under its CSP" $r "$html_tag"
	grep -q 'INFO:CONSOLE' "$n.log" && r=0 || r=1
	[ "$want" = 1 ] && verdict "no console message (no CSP violation, no error)" $r "$(grep -o 'CONSOLE.*' "$n.log" | head -n 2 | cut -c1-200)"
	req=$(requests "$n")
	[ -z "$req" ] && r=1 || r=0
	verdict "no network request attempted" $r "$(echo $req | cut -c1-200)"
}

# ---- the golden pages: every message and tool call in the DOM ----
cp "$src"/golden/features/*.html . || exit 1
for f in *.html; do
	n=${f%.html}
	open_page "$n" "$f"
	page_checks "$n" 1
	# the DOM holds what the file holds: every message section and tool call survived parsing
	want_m=$(grep -c '^<section class="msg' "$f") got_m=$(grep -o '<section class="msg' "$n.dom" | wc -l)
	[ "$want_m" = "$got_m" ] && ok "$n: $got_m messages in the DOM" || bad "$n: $got_m messages in the DOM, want $want_m"
	want_t=$(grep -c '^<div class="tool"' "$f") got_t=$(grep -o '<div class="tool"' "$n.dom" | wc -l)
	[ "$want_t" = "$got_t" ] && ok "$n: $got_t tool calls in the DOM" || bad "$n: $got_t tool calls in the DOM, want $want_t"
	# and as many as the Markdown writer shows (same content decisions), when there is a Markdown golden
	md=$src/golden/features/$n.md
	if [ -f "$md" ]; then
		mdn=$(grep -cE '^## (#[0-9]+ · )?(User|Assistant|Tool result) · ' "$md")
		[ "$mdn" = "$got_m" ] && ok "$n: as many messages as $n.md" || bad "$n: $got_m messages, $n.md has $mdn"
	fi
	grep -q '<nav class="bar" id="bar"><button' "$n.dom" && ok "$n: toolbar made by the script" || bad "$n: no toolbar"
done
# the features the fixture names, by their text in the rendered tools page
for t in Read Write Bash Edit patch search_files MultiEdit read_file "Run everything" "Parallel calls" "orphan output" "CRLF text" "Done."; do
	grep -qF "$t" tools.dom && ok "tools: '$t' rendered" || bad "tools: '$t' missing from the DOM"
done
grep -q 'id="m13"' tools.dom && ok "tools: anchor #m13" || bad "tools: no #m13"
screenshot tools tools.html
screenshot tools-dark tools.html --force-dark-mode
cmp -s tools.png tools-dark.png && bad "tools: no dark theme (prefers-color-scheme)" || ok "tools: a dark theme"

# ---- the hostile corpus, and its control with the escaping undone ----
"$mkdb" h.db "$src/fixtures/html-hostile.sql" || exit 1
"$txc" convert hostile-html --db h.db --to html --utc > hostile.html || bad "hostile: convert failed"
open_page hostile hostile.html
page_checks hostile 1
for m in PAYLOAD-A PAYLOAD-B REASONING RESULT-1 RESULT-2 RESULT-3 IMAGES LAST-MESSAGE; do
	grep -qF "$m" hostile.dom && ok "hostile: $m shown" || bad "hostile: $m missing"
done
grep -q 'onerror=document.documentElement.dataset.pwned=2&gt;' hostile.dom && ok "hostile: payloads are text" || bad "hostile: payload text missing"
screenshot hostile hostile.html
# rendered message Markdown: no payload ran, no image was fetched (page_checks' net log), the
# table, fence and links are in the DOM, and each code block has its copy button
"$txc" convert hostile-md --db h.db --to html --utc > md.html || bad "hostile-md: convert failed"
open_page md md.html
page_checks md 1
for k in '<td>MD-TD</td>' '<code class="language-python">' '<a href="https://example.invalid/a">' 'MD-LINK-JS (javascript:'; do
	grep -qF "$k" md.dom && ok "md: $k in the DOM" || bad "md: $k missing from the DOM"
done
grep -q '<img' md.dom && bad "md: an image element from a message" || ok "md: no image element"
pres=$(grep -o '<pre' md.dom | wc -l) copies=$(grep -o '<button type="button" class="copy">' md.dom | wc -l)
[ "$pres" -ge 2 ] && [ "$pres" = "$copies" ] && ok "md: $copies copy buttons for $pres code blocks" || bad "md: $copies copy buttons, $pres code blocks"
screenshot md md.html
# control: no CSP and the entities undone, as a writer that forgot to escape would write it
sed -e '/Content-Security-Policy/d' -e '/<main>/,/<\/main>/s/&lt;/</g; /<main>/,/<\/main>/s/&gt;/>/g' \
	-e '/<main>/,/<\/main>/s/&quot;/"/g' -e 's/data-txc/data-off/' hostile.html > control.html
open_page control control.html
page_checks control 0
# control: the page as written but its script changed by one byte, so its hash no longer matches
sed 's/data-txc/data-tx0/' hostile.html > tampered.html
open_page tampered tampered.html
grep -q "INFO:CONSOLE.*violates the following Content Security Policy directive 'script-src" tampered.log &&
	ok "tampered: the CSP blocked the changed script, and said so" || bad "tampered: no CSP violation reported"
grep -o '<html[^>]*>' tampered.dom | grep -q 'data-tx0' && bad "tampered: a script outside the CSP ran" || ok

# ---- --images files: the page's own images are allowed ('self'), nothing else is ----
"$mkdb" feat.db "$src/fixtures/features.sql" || exit 1
"$txc" convert img --db feat.db --to html --utc --images files -o files.html || bad "img --images files failed"
open_page files files.html
page_checks files 1
grep -q '<img alt="image 1" src="files.html.assets/image-1.png">' files.dom && ok "files: image linked" || bad "files: no image"

# ---- the archive's index page ----
"$txc" export --db feat.db --to html --out site > /dev/null 2>&1 || bad "export --to html failed"
cp site/index.html index.html
open_page index index.html
page_checks index 1
rows=$(grep -o '<tr><td' index.dom | wc -l)
[ "$rows" = 4 ] && ok "index: 4 sessions in the DOM" || bad "index: $rows rows"
grep -q '<input id="q" type="search"[^>]*>' index.dom && ! grep -q '<input id="q"[^>]* hidden' index.dom &&
	ok "index: filter box shown by the script" || bad "index: filter box hidden"
screenshot index index.html

drive() { # file script [width [dark]]: the script's value as JSON, with the console messages and exceptions
	python3 "$src/cli/html-browser-drive.py" "$browser" "$work/profile-drive" "file://$work/$1" "$2" ${3:-} ${4:-}
}
# ---- an archive's session pages: links to the index and neighbours; a long one in pages, #mN forwarded ----
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("INSERT INTO sessions (id, source, title, started_at) VALUES (?, ?, ?, ?)", ("long", "cli", "Long one", 1767600000.0))
c.executemany("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
    [("long", "user" if i % 2 == 0 else "assistant", "LONG-%d <img src=x onerror=document.documentElement.dataset.pwned=%d>" % (i + 1, i + 1), 1767600000.0 + i) for i in range(2500)])
c.commit()' feat.db
"$txc" export --db feat.db --to html --out site-l > /dev/null 2>&1 || bad "export long failed"
# page 1 with #m2200 lands on page 3 at message 2200, page 2 with #m5 on page 1; no transcript script ran
fwd() { # name url-tail: the DOM after the page's scripts (and any forwarding)
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9 --user-data-dir="$work/profile" \
		--enable-logging=stderr --v=0 --log-net-log="$work/$1.net" --virtual-time-budget=3000 \
		--dump-dom "file://$work/site-l/$2" > "$1.dom" 2> "$1.log"
}
fwd fwd3 'long-long-one.html#m2200'
page_checks fwd3 1
grep -q '<title>Long one · page 3 of 3</title>' fwd3.dom && grep -q 'id="m2200"' fwd3.dom && ok "long: #m2200 on page 1 forwarded to page 3" || bad "long: #m2200: $(grep -o '<title>[^<]*' fwd3.dom)"
fwd fwd1 'long-long-one.html.assets/p2.html#m5'
grep -q '<title>Long one</title>' fwd1.dom && grep -q 'id="m5"' fwd1.dom && ok "long: #m5 on page 2 forwarded to page 1" || bad "long: #m5: $(grep -o '<title>[^<]*' fwd1.dom)"
fwd fwd0 'long-long-one.html#m999'
grep -q '<title>Long one</title>' fwd0.dom && ok "long: #m999 stays on page 1" || bad "long: #m999 left page 1"
# the links of a page: the index and its neighbours resolve to files
out=$(drive site-l/long-long-one.html "(() => Array.from(document.querySelectorAll('nav.pager a')).map(a => a.rel + ':' + a.href.split('/').pop()).join(' '))()")
echo "$out" | grep -q '"result": "index:index.html next:empty.html index:index.html next:empty.html", "console": \[\], "exceptions": \[\]' &&
	ok "long: links to the index and the next session, top and bottom" || bad "long: nav: $out"
# session pages at a phone's, a tablet's and a desktop's width, light and dark: no horizontal
# scrolling, the nav and the page table inside the window; screenshots page-W[-dark].png
cp site-l/tools-tools-quoted-and-a-second-line-b-bold-b.html site-l/tools-page.html
playout="(() => { const W = window.innerWidth, inside = s => Array.from(document.querySelectorAll(s)).every(e => e.getBoundingClientRect().right <= W + 1);
	return [W, document.documentElement.scrollWidth > W ? 'overflow' : 'fits', inside('nav.pager, nav.pager a') ? 'nav-inside' : 'nav-cut',
		inside('#txc-pages, #txc-pages a') ? 'pages-inside' : 'pages-cut'].join(' '); })()"
for w in 390 768 1280; do
	for scheme in light dark; do
		for pgf in tools-page.html long-long-one.html.assets/p2.html; do
			out=$(drive "site-l/$pgf" "$playout" "$w" "$scheme")
			echo "$out" | grep -q "\"result\": \"$w "'fits nav-inside pages-inside", "console": \[\], "exceptions": \[\]' &&
				ok "$pgf at $w px ($scheme): fits, links inside" || bad "$pgf at $w px ($scheme): $out"
		done
	done
	for dark in "" --force-dark-mode; do
		timeout 120 "$browser" $dark --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
			--host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9 --user-data-dir="$work/profile" \
			--hide-scrollbars --window-size=$w,900 --screenshot="$work/page-$w${dark:+-dark}.png" "file://$work/site-l/tools-page.html" > /dev/null 2>&1
	done
done

# ---- the conveniences, used as a person would (clicks and typing over the DevTools pipe) ----
# ---- the index's layout at a phone's, a tablet's and a desktop's width, light and dark: no
# horizontal scrolling, no date on two lines, a title column wide enough for words (never a letter a
# line), the cost column on screen; screenshots index-W[-dark].png to look at ----
layout="(() => { const W = window.innerWidth, one = e => { const r = document.createRange(); r.selectNodeContents(e);
	return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size === 1; };
	const rows = Array.from(document.querySelectorAll('tbody tr'));
	const over = document.documentElement.scrollWidth > W, dates = rows.every(r => one(r.cells[1]));
	const titles = rows.every(r => r.cells[0].getBoundingClientRect().width >= 100);
	const cost = rows.every(r => { const b = r.cells[5].getBoundingClientRect(); return b.width > 0 && b.right <= W; });
	return [W, over ? 'overflow' : 'fits', dates ? 'dates-one-line' : 'date-wraps', titles ? 'titles-wide' : 'titles-narrow',
		cost ? 'cost-visible' : 'cost-cut'].join(' '); })()"
for w in 390 768 1280; do
	for scheme in light dark; do
		out=$(drive index.html "$layout" "$w" "$scheme")
		echo "$out" | grep -q "\"result\": \"$w "'fits dates-one-line titles-wide cost-visible", "console": \[\], "exceptions": \[\]' &&
			ok "index at $w px ($scheme): fits, dates on one line, titles wide, cost visible" || bad "index at $w px ($scheme): $out"
	done
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9 --user-data-dir="$work/profile" \
		--hide-scrollbars --window-size=$w,900 --screenshot="$work/index-$w.png" "file://$work/index.html" > /dev/null 2>&1
	timeout 120 "$browser" --force-dark-mode --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9 --user-data-dir="$work/profile" \
		--hide-scrollbars --window-size=$w,900 --screenshot="$work/index-$w-dark.png" "file://$work/index.html" > /dev/null 2>&1
done
# a source or model with no space in it (the hostile corpus's) wraps: it pushed the messages and
# cost columns off a 1280 px window (overflow-wrap:break-word does not narrow a table's column)
"$txc" export --db feat.db --to html --out site-h > /dev/null 2>&1 && "$txc" export --db h.db --to html --out site-h > /dev/null 2>&1 || bad "export hostile to site-h failed"
for w in 390 768 1280; do
	out=$(drive site-h/index.html "$layout" "$w" light)
	echo "$out" | grep -q "\"result\": \"$w "'fits dates-one-line titles-wide cost-visible", "console": \[\], "exceptions": \[\]' &&
		ok "index with long unbroken values at $w px: fits, cost visible" || bad "index with long unbroken values at $w px: $out"
	# a page whose neighbour's title has no space: its bar of links wraps (it ran off a phone)
	out=$(drive site-h/hostile-md-markdown.html "$playout" "$w" dark)
	echo "$out" | grep -q "\"result\": \"$w "'fits nav-inside pages-inside", "console": \[\], "exceptions": \[\]' &&
		ok "page beside a long unbroken title at $w px: fits, links inside" || bad "page beside a long unbroken title at $w px: $out"
done
# ---- whole conversations: --lineage segments and --children transcripts (tests/golden/lineage) ----
for f in five.children.html dp.children.html cycle.lineage.html; do
	n=lineage-${f%.html}
	cp "$src/golden/lineage/$f" "$n.html" || exit 1
	open_page "$n" "$n.html"
	page_checks "$n" 1
	for k in '<section class="msg' '<h2 class="segment"' '<details class="child"'; do
		want=$(grep -c "^$k" "$n.html") got=$(grep -o "$k" "$n.dom" | wc -l)
		[ "$want" = "$got" ] && ok "$n: $got × $k in the DOM" || bad "$n: $got × $k in the DOM, want $want"
	done
done
out=$(drive lineage-five.children.html "(() => { const q = s => Array.from(document.querySelectorAll(s));
	const ids = q('[id]').map(e => e.id), links = q('a[href^=\"#\"]').map(a => a.getAttribute('href').slice(1));
	document.querySelector('#bar button').click();
	const kid = q('details.child section.msg').filter(m => m.offsetParent !== null).length;
	return [new Set(ids).size === ids.length, links.every(l => document.getElementById(l)), q('dd a[href^=\"#seg\"]').length, kid].join(' '); })()")
echo "$out" | grep -q '"result": "true true 5 2", "console": \[\], "exceptions": \[\]' &&
	ok "lineage: ids unique, every anchor resolves, 5 segment links, the child's 2 turns shown by Expand all" || bad "lineage: $out"

out=$(drive tools.html "(() => { const q = s => Array.from(document.querySelectorAll(s));
	const b = q('#bar button'), sel = q('#bar select')[0], shown = () => q('section.msg').filter(m => !m.hidden).length;
	b[0].click(); const opened = q('details').filter(d => d.open).length;
	b[1].click(); const closed = q('details').filter(d => d.open).length;
	sel.value = 'tool:Bash'; sel.dispatchEvent(new Event('change')); const bash = shown();
	sel.value = 'role:user'; sel.dispatchEvent(new Event('change')); const user = shown();
	sel.value = ''; sel.dispatchEvent(new Event('change'));
	return [q('details').length, opened, closed, bash, user, shown(), q('button.copy').length, q('pre').length].join(' '); })()")
details=$(grep -o '<details' tools.html | wc -l) pres=$(grep -o '<pre' tools.html | wc -l)
want="$details $details 0 1 2 $(grep -c '^<section class="msg' tools.html) $pres $pres"
echo "$out" | grep -q "\"result\": \"$want\", \"console\": \[\], \"exceptions\": \[\]" &&
	ok "tools: expand all, collapse all, filter by tool and role, copy buttons ($want)" ||
	bad "tools: conveniences: $out, want $want"
out=$(drive index.html "(() => { const th = document.querySelectorAll('th'), rows = c => Array.from(document.querySelectorAll('tbody tr')).map(r => r.cells[c].textContent).join(',');
	th[4].click(); const up = rows(4); th[4].click(); const down = rows(4); th[1].click(); const date = rows(1);
	const q = document.getElementById('q'); q.value = 'TELEGRAM'; q.dispatchEvent(new Event('input'));
	return [up, down, date, Array.from(document.querySelectorAll('tbody tr')).filter(r => !r.hidden).length].join(' '); })()")
echo "$out" | grep -q '"result": "0,2,4,13 13,4,2,0 2026-01-02,2026-01-03,2026-01-03,2026-01-04 2", "console": \[\], "exceptions": \[\]' &&
	ok "index: sorts by messages both ways and by date, filters by text" || bad "index: $out"

summary html-browser
[ "$fails" = 0 ]
