/*
 * writer_html.c - one self-contained page people share: the Markdown writer's
 * content decisions (render.c's walk) as HTML that works offline.
 *
 * Safety rules (docs/FORMATS.md, "HTML"): every piece of transcript text is
 * cleaned (txc_text_clean) and escaped (& < > " ' as entities, bidi controls
 * shown as marks), every attribute is double-quoted, and no URL comes from a
 * transcript except a data: URI of an image that txc_render_image_check
 * accepted.  The page's only style and script are the constants below, allowed
 * by their SHA-256 in a Content-Security-Policy that forbids everything else
 * (no network, no other script, style or frame), so the bytes are the same on
 * every run.  The page reads fully with JavaScript off; the script only adds
 * conveniences (expand/collapse all, copy buttons, a filter).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* ---- the page's own style and script: allowed by hash, nothing else is ---- */

#define PAGE_CSS /* (a macro: an archive page adds a rule to the same sheet) */                                           \
	":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--user:#ddf4ff;"             \
	"--asst:#f6f8fa;--res:#fff8c5;--code:#ffffff;--add:#dafbe1;--del:#ffebe9;--link:#0969da;--err:#cf222e}\n"         \
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;"              \
	"--user:#0c2d48;--asst:#151b23;--res:#2d2400;--code:#0d1117;--add:#12361f;--del:#3d1418;--link:#4493f8;"          \
	"--err:#f85149}}\n"                                                                                               \
	"*{box-sizing:border-box}\n"                                                                                      \
	"body{margin:0 auto;max-width:62rem;padding:1rem;background:var(--bg);color:var(--fg);"                           \
	"font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif}\n"                                         \
	"a{color:var(--link)}\n"                                                                                          \
	"h1{font-size:1.5rem;margin:.5rem 0;overflow-wrap:anywhere;unicode-bidi:isolate}\n"                               \
	".summary{color:var(--muted);margin:0 0 .5rem}\n"                                                                 \
	".facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:0 0 1rem}\n"                     \
	".facts dt{font-weight:600;color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere;unicode-bidi:isolate}\n"  \
	".bar{position:sticky;top:0;z-index:1;background:var(--bg);padding:.4rem 0;border-bottom:1px solid var(--line);"  \
	"display:flex;gap:.5rem;flex-wrap:wrap}\n"                                                                        \
	"button,select,input{font:inherit}\n"                                                                             \
	".msg{border:1px solid var(--line);border-radius:6px;margin:1rem 0;padding:.5rem .9rem;background:var(--asst)}\n" \
	".msg.user{background:var(--user)}.msg.tool{background:var(--res)}\n"                                             \
	".msg h2{font-size:.9rem;margin:0 0 .3rem;color:var(--muted);font-weight:600}\n"                                  \
	".msg h2 a{color:inherit;text-decoration:none}\n"                                                                 \
	".text{white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:isolate;margin:.4rem 0}\n"                        \
	".md{white-space:normal}.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}\n"                         \
	".md p,.md ul,.md ol,.md blockquote{margin:.4rem 0}.md blockquote{border-left:3px solid var(--line);"             \
	"padding-left:.6rem;color:var(--muted)}\n"                                                                        \
	".md h1,.md h2,.md h3,.md h4,.md h5,.md h6{font-size:1rem;margin:.6rem 0 .3rem;color:inherit;font-weight:700}\n"  \
	".md table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}\n"                              \
	".md th,.md td{border:1px solid var(--line);padding:.2rem .5rem}\n"                                               \
	"code{background:var(--code);border-radius:3px;padding:0 .2em}pre code{padding:0;background:none}\n"              \
	"pre{background:var(--code);border:1px solid var(--line);border-radius:4px;padding:.5rem;margin:.4rem 0;"         \
	"white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:isolate;"                                               \
	"font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\n"                                           \
	"code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em;overflow-wrap:anywhere;"   \
	"unicode-bidi:isolate}\n"                                                                                         \
	".tool{border-left:3px solid var(--line);padding-left:.6rem;margin:.6rem 0}\n"                                    \
	".call .name{font-weight:700}\n"                                                                                  \
	"details>summary{cursor:pointer;color:var(--muted)}\n"                                                            \
	".status-error>summary,.status-denied>summary{color:var(--err)}\n"                                                \
	".d-add{background:var(--add)}.d-del{background:var(--del)}.d-hunk{color:var(--muted)}\n"                         \
	".note{color:var(--muted);font-style:italic}\n"                                                                   \
	".bidi{color:var(--err);font-size:.8em;font-style:normal}\n"                                                      \
	"img{max-width:100%;height:auto;border:1px solid var(--line)}\n"                                                  \
	".copy{float:right;font-size:.75rem;margin-left:.5rem}\n"                                                         \
	"[hidden]{display:none!important}\n"                                                                              \
	"@media print{:root{--bg:#fff;--fg:#000;--muted:#444;--line:#bbb;--user:#fff;--asst:#fff;--res:#fff;"             \
	"--code:#fff;--add:#e6ffec;--del:#ffebe9;--link:#000}body{max-width:none;padding:0;font-size:11pt}"               \
	".bar,.copy{display:none!important}.msg{break-inside:avoid-page}a{text-decoration:none}}\n"
static const char page_css[] = PAGE_CSS;
static const char archive_css[] = PAGE_CSS "nav.pager{overflow-wrap:anywhere}\n"; /* a title with no space */

/* Conveniences only: the page is whole without them.  No innerHTML, no eval: text goes in as text. */
static const char page_js[] =
	"(function(){'use strict';\n"
	"var d=document;d.documentElement.setAttribute('data-txc','ready');\n"
	"var bar=d.getElementById('bar');if(!bar)return;\n"
	"function mk(tag,text){var e=d.createElement(tag);if(text)e.textContent=text;if(tag==='button')"
	"e.type='button';return e;}\n"
	"function each(sel,f,root){Array.prototype.forEach.call((root||d).querySelectorAll(sel),f);}\n"
	"function all(open){each('details',function(x){x.open=open;});}\n"
	"var ex=mk('button','Expand all'),co=mk('button','Collapse all'),sel=mk('select');\n"
	"ex.addEventListener('click',function(){all(true);});co.addEventListener('click',function(){all(false);});\n"
	"sel.setAttribute('aria-label','Show');\n"
	"function opt(v,t){var o=mk('option',t);o.value=v;sel.appendChild(o);}\n"
	"opt('','All messages');opt('role:user','User');opt('role:assistant','Assistant');opt('role:tool','Tool results');\n"
	"var tools={};each('.tool[data-tool]',function(t){tools[t.getAttribute('data-tool')]=1;});\n"
	"Object.keys(tools).sort().forEach(function(n){opt('tool:'+n,'Tool: '+n);});\n"
	"sel.addEventListener('change',function(){var v=sel.value;each('.msg',function(m){var show=true;\n"
	"if(v.indexOf('role:')===0)show=m.getAttribute('data-role')===v.slice(5);\n"
	"else if(v.indexOf('tool:')===0){show=false;each('.tool',function(t){if(t.getAttribute('data-tool')===v.slice(5))"
	"show=true;},m);}\n"
	"m.hidden=!show;});});\n"
	"bar.appendChild(ex);bar.appendChild(co);bar.appendChild(sel);bar.hidden=false;\n"
	"each('pre',function(p){var b=mk('button','Copy');b.className='copy';b.addEventListener('click',function(){\n"
	"if(navigator.clipboard)navigator.clipboard.writeText(p.textContent).then(function(){b.textContent='Copied';},"
	"function(){b.textContent='Copy failed';});});p.parentNode.insertBefore(b,p);});\n"
	"window.addEventListener('beforeprint',function(){all(true);});\n"
	"})();\n";

/* An archive's long session is split into pages (page 1 its file, the others in its .assets
 * folder): #mN on any of them goes to the page that has message N, by the page table's ranges. */
static const char fwd_js[] =
	"(function(){'use strict';\n"
	"function key(s){var x=/^(?:s(\\d+)-)?m(\\d+)$/.exec(s||'');return x?[+(x[1]||0),+x[2]]:null;}\n"
	"function le(a,b){return a[0]<b[0]||(a[0]===b[0]&&a[1]<=b[1]);}\n"
	"function go(){var h=location.hash.slice(1),k=key(h);if(!k||document.getElementById(h))return;\n"
	"var l=document.querySelectorAll('#txc-pages a[data-first]');for(var i=0;i<l.length;i++){\n"
	"var a=key(l[i].getAttribute('data-first')),b=key(l[i].getAttribute('data-last'));\n"
	"if(a&&b&&le(a,k)&&le(k,b)){location.replace(l[i].getAttribute('href')+'#'+h);return;}}}\n"
	"go();window.addEventListener('hashchange',go);\n"
	"})();\n";

/* a page of an archive's session holds at most this many messages, and starts a new page once
 * it has this many bytes */
#define PAGE_MESSAGES 1000
#define PAGE_BYTES    (1024 * 1024)

/* the index page: sort by a column, filter rows by their text */
static const char index_js[] =
	"(function(){'use strict';\n"
	"var d=document;d.documentElement.setAttribute('data-txc','ready');\n"
	"var t=d.getElementById('sessions'),q=d.getElementById('q');if(!t||!q)return;\n"
	"var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);\n"
	"q.hidden=false;q.addEventListener('input',function(){var w=q.value.toLowerCase();\n"
	"rows.forEach(function(r){r.hidden=w!==''&&r.textContent.toLowerCase().indexOf(w)<0;});});\n"
	"Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){var up=true;th.tabIndex=0;\n"
	"function sort(){var num=th.getAttribute('data-type')==='num';\n"
	"rows.sort(function(a,b){var x=a.cells[i].getAttribute('data-key'),y=b.cells[i].getAttribute('data-key');\n"
	"var c=num?(parseFloat(x)||0)-(parseFloat(y)||0):(x<y?-1:x>y?1:0);return up?c:-c;});\n"
	"rows.forEach(function(r){body.appendChild(r);});\n"
	"Array.prototype.forEach.call(t.tHead.rows[0].cells,function(h){h.removeAttribute('aria-sort');});\n"
	"th.setAttribute('aria-sort',up?'ascending':'descending');up=!up;}\n"
	"th.addEventListener('click',sort);th.addEventListener('keydown',function(e){if(e.key==='Enter')sort();});});\n"
	"})();\n";

static const char index_css[] =
	":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;"
	"--link:#0969da}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;"
	"--head:#151b23;--link:#4493f8}}\n"
	"body{margin:0 auto;max-width:75rem;padding:1rem;background:var(--bg);color:var(--fg);"
	"font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif}\n"
	"a{color:var(--link)}h1{font-size:1.5rem}\n"
	"input{font:inherit;width:100%;max-width:30rem;margin:0 0 .8rem;padding:.3rem}\n"
	"table{border-collapse:collapse;width:100%}\n"
	"th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top;"
	"overflow-wrap:anywhere;word-break:normal;unicode-bidi:isolate}\n"
	"td:first-child{min-width:9rem;max-width:32rem}td.d,td.n{white-space:nowrap}\n"
	".pv{font-style:italic}\n"
	"@media (max-width:48rem){body{padding:.5rem;font-size:14px}.src,.mdl{display:none}th,td{padding:.3rem .25rem}"
	"td:first-child{min-width:7rem}}\n"
	"th{background:var(--head);cursor:pointer;white-space:nowrap}\n"
	"th[aria-sort=ascending]::after{content:\" \\25B2\"}th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	".bidi{color:#cf222e;font-size:.8em}\n"
	"[hidden]{display:none!important}\n"
	"@media print{input{display:none}th{background:none}}\n";

/* 'sha256-…' of the exact bytes between <script> and </script> (or <style>) */
static void csp_hash(struct txc_buf *b, const char *text)
{
	unsigned char h[32];
	txc_sha256(text, strlen(text), h);
	txc_buf_addstr(b, "'sha256-");
	txc_base64_encode(b, h, sizeof(h));
	txc_buf_addch(b, '\'');
}

/* the document's head: charset, the policy, the title (already escaped), the style */
static void page_head(struct txc_buf *b, const char *css, const char *js, const char *js2, bool self_images,
		      const char *title_html)
{
	txc_buf_addstr(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src ");
	csp_hash(b, css);
	txc_buf_addstr(b, "; script-src ");
	csp_hash(b, js);
	if (js2 != NULL) {
		txc_buf_addch(b, ' ');
		csp_hash(b, js2);
	}
	txc_buf_addf(b, "; img-src data:%s; base-uri 'none'; form-action 'none'\">\n", self_images ? " 'self'" : "");
	txc_buf_addstr(b, "<meta name=\"referrer\" content=\"no-referrer\">\n"
			  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			  "<meta name=\"generator\" content=\"txc\">\n<title>");
	txc_buf_addstr(b, title_html);
	txc_buf_addf(b, "</title>\n<style>%s</style>\n</head>\n", css);
}

/* <pre><code>: text as it is; a diff's lines marked by kind */
static void pre(struct txc_buf *b, const char *lang, struct txc_str text)
{
	struct txc_buf c = TXC_BUF_INIT;
	txc_text_clean(&c, text.ptr ? text.ptr : "", text.len);
	while (c.len && c.buf[c.len - 1] == '\n')
		c.len--;
	if (lang[0])
		txc_buf_addf(b, "<pre class=\"lang-%s\"><code>", lang);
	else
		txc_buf_addstr(b, "<pre><code>");
	if (strcmp(lang, "diff") != 0) {
		txc_html_esc_clean(b, c.buf, c.len);
	} else {
		for (size_t i = 0; i < c.len;) {
			const char *nl = memchr(c.buf + i, '\n', c.len - i);
			size_t le = nl ? (size_t)(nl - c.buf) : c.len;
			char k = c.buf[i];
			const char *cls = k == '+' ? "d-add" : k == '-' ? "d-del" : k == '@' ? "d-hunk" : NULL;
			if (cls)
				txc_buf_addf(b, "<span class=\"%s\">", cls);
			txc_html_esc_clean(b, c.buf + i, le - i);
			if (cls)
				txc_buf_addstr(b, "</span>");
			if (le < c.len)
				txc_buf_addch(b, '\n');
			i = le + 1;
		}
	}
	txc_buf_addstr(b, "</code></pre>\n");
	txc_buf_release(&c);
}

/* ---- the handlers' context ---- */

struct page {
	struct txc_out *out;
	struct txc_buf *b;
	const struct txc_transcript *t;
	const struct txc_write_opts *o;
	size_t image_no;
	size_t child_no;    /* children shown with their transcript so far (their ids: "c1-m3") */
	char id_prefix[32]; /* "" for one session, "s2-" in a chain's second, "c1-" in the first child */
	/* an archive's page (o->nav), split into parts: parts[0] is page 1 (out's buffer), the others
	 * are held until the end, when the page table is known */
	bool paged, paged_root; /* paged_root: a child's page too (its images lie with its parent's) */
	struct part {
		struct txc_buf body;
		char first[48], last[48]; /* the ids of its first and last message */
	} * parts;
	size_t n_parts, in_part, part_bytes, msg_start;
	struct txc_buf title; /* escaped */
};

static void fmt_time(char out[48], double secs, bool utc)
{
	if (!txc_time_format(out, 48, secs, utc, utc ? "%Y-%m-%d %H:%M:%S UTC" : "%Y-%m-%d %H:%M:%S %z"))
		strcpy(out, "unknown time");
}

/* ---- the header: the session's facts ---- */

static void fact(struct txc_buf *b, const char *name, struct txc_str v)
{
	if (v.ptr == NULL)
		return;
	txc_buf_addf(b, "<dt>%s</dt><dd>", name);
	txc_html_esc_str(b, v);
	txc_buf_addstr(b, "</dd>\n");
}

static void fact_code(struct txc_buf *b, const char *name, struct txc_str v)
{
	if (v.ptr == NULL)
		return;
	txc_buf_addf(b, "<dt>%s</dt><dd><code>", name);
	txc_html_esc_attr(b, v);
	txc_buf_addstr(b, "</code></dd>\n");
}

static void fact_time(struct txc_buf *b, const char *name, double secs, bool utc)
{
	char when[48];
	fmt_time(when, secs, utc);
	txc_buf_addf(b, "<dt>%s</dt><dd>%s</dd>\n", name, when);
}

/* --lineage: the chain, root first; each a link to its segment's heading when there are headings */
static void fact_lineage(struct txc_buf *b, const struct txc_transcript *t)
{
	bool links = t->n_segments > 1; /* the walk heads segments only in a chain of two or more */
	txc_buf_addstr(b, "<dt>Lineage</dt><dd>");
	for (size_t i = 0; i < t->n_segments; i++) {
		if (i > 0)
			txc_buf_addstr(b, " → ");
		if (links)
			txc_buf_addf(b, "<a href=\"#seg%zu\">", i + 1);
		txc_buf_addstr(b, "<code>");
		txc_html_esc_attr(b, t->segments[i].id);
		txc_buf_addstr(b, "</code>");
		if (links)
			txc_buf_addstr(b, "</a>");
	}
	txc_buf_addstr(b, "</dd>\n");
}

/* 255225000 as "255,225,000": counts people read */
static void add_grouped(struct txc_buf *b, long long v)
{
	char d[24];
	int n = snprintf(d, sizeof(d), "%lld", v < 0 ? -v : v);
	if (v < 0)
		txc_buf_addch(b, '-');
	for (int i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			txc_buf_addch(b, ',');
		txc_buf_addch(b, d[i]);
	}
}

/* money as people read it: "$3.39" (cents, rounded), "<$0.01" for less than a cent; the exact
 * value (exact: its JSON number's text) in a title for whoever wants it */
static void add_money(struct txc_buf *b, double usd, const char *exact, size_t exact_len)
{
	txc_buf_addstr(b, "<span title=\"$");
	txc_buf_add(b, exact, exact_len);
	if (usd > 0 && usd < 0.005)
		txc_buf_addstr(b, "\">&lt;$0.01</span>");
	else
		txc_buf_addf(b, "\">$%.2f</span>", usd);
}

static void facts(struct page *pg, const struct txc_render_counts *n)
{
	const struct txc_meta *me = &pg->t->meta;
	struct txc_buf *b = pg->b;
	txc_buf_addstr(b, "<dl class=\"facts\">\n");
	fact_code(b, "Session", me->id);
	fact(b, "Source", me->source);
	fact(b, "Model", me->model);
	fact_code(b, "Directory", me->cwd);
	fact_code(b, "Branch", me->git_branch);
	if (me->started_at != 0) /* 0: unknown (see the model); no 1970 */
		fact_time(b, "Started", me->started_at, pg->o->utc);
	if (me->has_ended)
		fact_time(b, "Ended", me->ended_at, pg->o->utc);
	txc_buf_addstr(b, "<dt>Messages</dt><dd>");
	add_grouped(b, (long long)n->messages);
	txc_buf_addstr(b, "</dd>\n<dt>Tool calls</dt><dd>");
	add_grouped(b, (long long)n->tool_calls);
	txc_buf_addstr(b, "</dd>\n");
	if (pg->t->n_segments > 0)
		fact_lineage(b, pg->t);
	if (me->has_usage) {
		const int64_t tok[] = {me->input_tokens, me->output_tokens, me->cache_read_tokens,
				       me->cache_write_tokens, me->reasoning_tokens};
		static const char *const what[] = {" in · ", " out · ", " cache read · ", " cache write · ",
						   " reasoning</dd>\n"};
		txc_buf_addstr(b, "<dt>Tokens</dt><dd>");
		for (size_t i = 0; i < 5; i++) {
			add_grouped(b, (long long)tok[i]);
			txc_buf_addstr(b, what[i]);
		}
	}
	if (me->has_cost) {
		struct txc_buf exact = TXC_BUF_INIT;
		txc_json_emit_real(&exact, me->cost_usd);
		txc_buf_addstr(b, "<dt>Cost</dt><dd>");
		add_money(b, me->cost_usd, exact.buf, exact.len);
		txc_buf_addf(b, " (%s)</dd>\n", me->cost_is_actual ? "actual" : "estimated");
		txc_buf_release(&exact);
	}
	txc_buf_addstr(b, "</dl>\n");
}

static void title_of(struct txc_buf *b, const struct txc_meta *me)
{
	if (me->title.ptr)
		txc_html_esc_attr(b, me->title);
	else if (me->id.ptr)
		txc_html_esc_attr(b, me->id);
	else
		txc_buf_addstr(b, "session");
}

static void on_doc_start(void *ctx, const struct txc_render_counts *n)
{
	struct page *pg = ctx;
	const struct txc_meta *me = &pg->t->meta;
	struct txc_buf *b = pg->b, title = TXC_BUF_INIT;
	title_of(&title, me);
	bool self_images = pg->o->images == TXC_IMAGES_FILES && pg->o->assets != NULL;
	page_head(b, pg->o->nav ? archive_css : page_css, page_js, pg->o->nav ? fwd_js : NULL, self_images, title.buf);
	if (pg->paged)
		txc_buf_add(&pg->title, title.buf, title.len);
	txc_buf_addstr(b, "<body>\n<header>\n");
	if (pg->o->nav) /* the archive's links go here (export --out: nav_links) */
		txc_buf_addstr(b, TXC_NAV_OPEN TXC_NAV_CLOSE "\n");
	txc_buf_addf(b, "<h1>%s</h1>\n", title.buf);
	txc_buf_release(&title);
	txc_buf_addstr(b, "<p class=\"summary\">");
	add_grouped(b, (long long)n->messages);
	txc_buf_addstr(b, n->messages == 1 ? " message · " : " messages · ");
	add_grouped(b, (long long)n->tool_calls);
	txc_buf_addstr(b, n->tool_calls == 1 ? " tool call</p>\n" : " tool calls</p>\n");
	facts(pg, n);
	txc_buf_addstr(b, "<nav class=\"bar\" id=\"bar\" hidden></nav>\n</header>\n<main>\n");
	if (pg->t->n_messages == 0)
		txc_buf_addstr(b, "<p class=\"note\">This session has no messages.</p>\n");
}

/* ---- an archive's long session: pages ---- */

/* A new part once the one being written is full (at a message or a segment's heading) */
static void maybe_split(struct page *pg)
{
	if (!pg->paged || pg->in_part == 0 || (pg->in_part < PAGE_MESSAGES && pg->part_bytes < PAGE_BYTES))
		return;
	pg->parts = txc_xrealloc(pg->parts, (pg->n_parts + 1) * sizeof(*pg->parts));
	struct part *np = &pg->parts[pg->n_parts++];
	memset(np, 0, sizeof(*np));
	txc_buf_init(&np->body);
	pg->b = &np->body;
	pg->in_part = pg->part_bytes = 0;
}

/* the name of part k's file, relative to part from's ("x.html", "x.html.assets/p2.html", "p2.html") */
static void part_href(struct txc_buf *b, const struct page *pg, size_t from, size_t k)
{
	struct txc_str link = pg->o->assets->assets_link; /* "x.html.assets" */
	struct txc_str page = {link.ptr, link.len - 7};
	if (k == 0) {
		txc_buf_addstr(b, from ? "../" : "");
		txc_text_percent_encode(b, page);
		return;
	}
	if (from == 0) {
		txc_text_percent_encode(b, link);
		txc_buf_addch(b, '/');
	}
	txc_buf_addf(b, "p%zu.html", k + 1);
}

/* "Pages: 1 · 2 · 3": each part's link with its messages' range (fwd_js reads them) */
static void page_table(struct txc_buf *b, const struct page *pg, size_t cur, const char *id)
{
	txc_buf_addf(b, "<nav class=\"summary\"%s%s%s aria-label=\"Pages\">Page %zu of %zu:", id ? " id=\"" : "",
		     id ? id : "", id ? "\"" : "", cur + 1, pg->n_parts);
	for (size_t k = 0; k < pg->n_parts; k++) {
		const struct part *p = &pg->parts[k];
		txc_buf_addstr(b, k ? " · " : " ");
		if (k == cur) {
			txc_buf_addf(b, "<strong>#%s–#%s</strong>", p->first, p->last);
			continue;
		}
		txc_buf_addstr(b, "<a href=\"");
		part_href(b, pg, cur, k);
		txc_buf_addf(b, "\" data-first=\"%s\" data-last=\"%s\">#%s–#%s</a>", p->first, p->last, p->first,
			     p->last);
	}
	txc_buf_addstr(b, "</nav>\n");
}

/* Part k (k > 0) as a page of its own, to the session's assets */
static void part_page(struct page *pg, size_t k)
{
	struct txc_buf b = TXC_BUF_INIT, name = TXC_BUF_INIT;
	struct txc_buf *title = &pg->title;
	txc_buf_addf(&name, "%s · page %zu of %zu", title->buf ? title->buf : "", k + 1, pg->n_parts);
	page_head(&b, archive_css, page_js, fwd_js, pg->o->images == TXC_IMAGES_FILES, name.buf);
	/* (the archive fills its slots as page 1's: the index and the neighbouring sessions) */
	txc_buf_addstr(&b, "<body>\n<header>\n" TXC_NAV_OPEN TXC_NAV_CLOSE
			   "\n<p class=\"summary\"><a rel=\"start\" href=\"");
	part_href(&b, pg, k, 0);
	txc_buf_addf(&b, "\">%s</a></p>\n<h1>%s</h1>\n", title->buf ? title->buf : "", name.buf);
	page_table(&b, pg, k, "txc-pages");
	txc_buf_addstr(&b, "<nav class=\"bar\" id=\"bar\" hidden></nav>\n</header>\n<main>\n");
	txc_buf_add(&b, pg->parts[k].body.buf ? pg->parts[k].body.buf : "", pg->parts[k].body.len);
	txc_buf_addstr(&b, "</main>\n");
	page_table(&b, pg, k, NULL);
	txc_buf_addf(&b,
		     TXC_NAV_OPEN TXC_NAV_CLOSE
		     "\n<footer class=\"note\">Exported by txc.</footer>\n<script>%s</script>\n"
		     "<script>%s</script>\n</body>\n</html>\n",
		     page_js, fwd_js);
	char file[32];
	snprintf(file, sizeof(file), "p%zu.html", k + 1);
	pg->o->assets->put(pg->o->assets->ctx, file, b.buf, b.len);
	txc_buf_release(&b);
	txc_buf_release(&name);
}

static void on_doc_end(void *ctx)
{
	struct page *pg = ctx;
	bool split = pg->paged && pg->n_parts > 1;
	pg->b = &pg->out->buf; /* page 1's end */
	txc_buf_addstr(pg->b, "</main>\n");
	if (split)
		page_table(pg->b, pg, 0, "txc-pages");
	txc_buf_addf(
		pg->b,
		"%s<footer class=\"note\">Exported by txc.</footer>\n<script>%s</script>\n%s%s%s</body>\n</html>\n",
		pg->o->nav ? TXC_NAV_OPEN TXC_NAV_CLOSE "\n" : "", page_js, split ? "<script>" : "",
		split ? fwd_js : "", split ? "</script>\n" : "");
	for (size_t k = 1; split && k < pg->n_parts; k++)
		part_page(pg, k);
}

/* ---- messages ---- */

static void on_message_start(void *ctx, const struct txc_message *msg, enum txc_render_who who)
{
	static const char *const names[] = {
		[TXC_RENDER_USER] = "User",
		[TXC_RENDER_TOOL_RESULT] = "Tool result",
		[TXC_RENDER_ASSISTANT] = "Assistant",
		[TXC_RENDER_INSTRUCTIONS] = "Instructions",
	};
	static const char *const roles[] = {
		[TXC_RENDER_USER] = "user",
		[TXC_RENDER_TOOL_RESULT] = "tool",
		[TXC_RENDER_ASSISTANT] = "assistant",
		[TXC_RENDER_INSTRUCTIONS] = "instructions",
	};
	struct page *pg = ctx;
	/* the number `txc search` prints as ID#N; a source without one: the place in the session */
	size_t no = msg->number ? (size_t)msg->number : (size_t)(msg - pg->t->messages) + 1;
	char when[48];
	fmt_time(when, msg->time, pg->o->utc);
	if (pg->paged) { /* (a child's messages are its parent message's) */
		maybe_split(pg);
		struct part *p = &pg->parts[pg->n_parts - 1];
		snprintf(p->last, sizeof(p->last), "%sm%zu", pg->id_prefix, no);
		if (pg->in_part++ == 0)
			memcpy(p->first, p->last, sizeof(p->first));
		pg->msg_start = pg->b->len;
	}
	txc_buf_addf(pg->b,
		     "<section class=\"msg %s%s\" id=\"%sm%zu\" data-role=\"%s\">\n"
		     "<h2><a href=\"#%sm%zu\">#%zu</a> · %s · %s%s</h2>\n",
		     roles[who], msg->compacted ? " compacted" : "", pg->id_prefix, no, roles[who], pg->id_prefix, no,
		     no, who == TXC_RENDER_INSTRUCTIONS ? txc_render_instructions_name(msg) : names[who], when,
		     msg->compacted ? " · <em>archived by compaction</em>" : "");
}

static void on_message_end(void *ctx, const struct txc_message *m)
{
	(void)m;
	struct page *pg = ctx;
	txc_buf_addstr(pg->b, "</section>\n");
	if (pg->paged) /* (page 1's buffer may have been flushed meanwhile: then what is left) */
		pg->part_bytes += pg->b->len >= pg->msg_start ? pg->b->len - pg->msg_start : pg->b->len;
}

static void on_text(void *ctx, const struct txc_block *blk)
{
	struct page *pg = ctx;
	txc_buf_addstr(pg->b, "<div class=\"text md\">\n");
	struct txc_buf c = TXC_BUF_INIT;
	txc_text_clean(&c, blk->text.ptr ? blk->text.ptr : "", blk->text.len);
	txc_html_markdown(pg->b, c.buf ? c.buf : "", c.len); /* (rendered Markdown, made safe: html_md.c) */
	txc_buf_release(&c);
	txc_buf_addstr(pg->b, "</div>\n");
}

static void on_thinking(void *ctx, const struct txc_block *blk)
{
	struct page *pg = ctx;
	txc_buf_addstr(pg->b, "<details class=\"thinking\"><summary>Reasoning</summary>\n");
	on_text(ctx, blk);
	txc_buf_addstr(pg->b, "</details>\n");
}

/* Hermes's api_content where it differs from the text shown: what the provider was sent back */
static void on_replayed(void *ctx, const struct txc_block *blk)
{
	struct page *pg = ctx;
	txc_buf_addstr(pg->b,
		       "<details class=\"replayed\"><summary>Replayed to the provider as (api_content)</summary>\n");
	on_text(ctx, blk);
	txc_buf_addstr(pg->b, "</details>\n");
}

/* ---- tool calls ---- */

static void code(struct txc_buf *b, struct txc_str v)
{
	txc_buf_addstr(b, " <code>");
	txc_html_esc_attr(b, v);
	txc_buf_addstr(b, "</code>");
}

static void call_bash(struct txc_buf *b, const struct txc_tool_fields *f)
{
	if (f->description.ptr) {
		txc_buf_addstr(b, " — ");
		txc_html_esc_attr(b, f->description);
	}
	if (f->workdir.ptr) {
		txc_buf_addstr(b, " in");
		code(b, f->workdir);
	}
	if (f->timeout_ms != NULL)
		txc_buf_addf(b, " (timeout %.*s ms)", (int)f->timeout_ms->s.len, f->timeout_ms->s.ptr);
	if (f->background)
		txc_buf_addstr(b, " (background)");
	txc_buf_addstr(b, "</div>\n");
	pre(b, "bash", f->command);
}

static void call_read(struct txc_buf *b, const struct txc_tool_fields *f)
{
	if (f->file_path.ptr)
		code(b, f->file_path);
	if (f->lines == TXC_LINES_RANGE)
		txc_buf_addf(b, " (lines %lld–%lld)", (long long)f->line_from, (long long)f->line_to);
	else if (f->lines == TXC_LINES_FROM)
		txc_buf_addf(b, " (from line %lld)", (long long)f->line_from);
	txc_buf_addstr(b, "</div>\n");
}

static void call_edit(struct txc_buf *b, const struct txc_block *blk, const struct txc_tool_fields *f)
{
	if (f->file_path.ptr)
		code(b, f->file_path);
	txc_buf_addf(b, " <span class=\"note\">+%zu −%zu</span>", f->added, f->removed);
	if (f->replace_all)
		txc_buf_addstr(b, " (all occurrences)");
	txc_buf_addstr(b, "</div>\n");
	struct txc_buf d = TXC_BUF_INIT;
	txc_render_edit_diff(&d, blk);
	pre(b, "diff", (struct txc_str){d.buf ? d.buf : "", d.len});
	txc_buf_release(&d);
}

/* any other tool: a patch as a diff, else its input as JSON */
static void call_other(struct txc_buf *b, const struct txc_block *blk, const struct txc_tool_fields *f)
{
	const struct txc_json *in = blk->input;
	if (f->patch.ptr != NULL) {
		struct txc_str path = txc_render_jstr(in, "path");
		if (path.ptr)
			code(b, path);
		txc_buf_addstr(b, "</div>\n");
		pre(b, "diff", f->patch);
	} else if (in->kind == TXC_JSON_OBJECT && in->n == 0) {
		txc_buf_addstr(b, "</div>\n");
	} else {
		txc_buf_addstr(b, "</div>\n");
		struct txc_buf t = TXC_BUF_INIT;
		txc_json_emit(&t, in, TXC_JSON_INDENT);
		pre(b, "json", (struct txc_str){t.buf ? t.buf : "", t.len});
		txc_buf_release(&t);
	}
}

static void tool_call(struct page *pg, const struct txc_block *blk)
{
	struct txc_buf *b = pg->b;
	struct txc_tool_fields f;
	txc_render_tool_fields(blk, &f);
	txc_buf_addstr(b, "<div class=\"call\"><span class=\"name\">");
	txc_html_esc_attr(b, blk->name);
	txc_buf_addstr(b, "</span>");
	if (pg->o->detail == TXC_DETAIL_BRIEF) {
		struct txc_str key = blk->tool == TXC_TOOL_BASH ? f.command : f.file_path;
		if (key.ptr != NULL)
			code(b, (struct txc_str){key.ptr, key.len > 200 ? 200 : key.len});
		txc_buf_addstr(b, "</div>\n");
		return;
	}
	switch (blk->tool) {
	case TXC_TOOL_BASH: call_bash(b, &f); break;
	case TXC_TOOL_READ: call_read(b, &f); break;
	case TXC_TOOL_WRITE:
		if (f.file_path.ptr)
			code(b, f.file_path);
		txc_buf_addstr(b, "</div>\n");
		pre(b, txc_render_lang_of(f.file_path.ptr), f.content);
		break;
	case TXC_TOOL_EDIT:
	case TXC_TOOL_MULTIEDIT: call_edit(b, blk, &f); break;
	default: call_other(b, blk, &f); break;
	}
}

static void tool_result(struct page *pg, const struct txc_block *blk)
{
	struct txc_buf *b = pg->b;
	struct txc_render_result r;
	txc_render_result_init(&r, blk, pg->o);
	txc_buf_addf(b, "<details class=\"result status-%s\"><summary>%s", r.status, r.status);
	if (r.exit_code.ptr != NULL)
		txc_buf_addf(b, " · exit %.*s", (int)r.exit_code.len, r.exit_code.ptr);
	if (r.truncated) /* the file's length, not what the tool sent of it */
		txc_buf_addf(b, " · %zu line%s, truncated</summary>\n", r.file_lines, r.file_lines == 1 ? "" : "s");
	else
		txc_buf_addf(b, " · %zu line%s</summary>\n", r.lines, r.lines == 1 ? "" : "s");
	if (r.body.len)
		pre(b, strcmp(r.lang, "text") != 0 ? r.lang : "", (struct txc_str){r.body.buf, r.body.len});
	else
		txc_buf_addstr(b, "<p class=\"note\">(no output)</p>\n");
	if (r.cut)
		txc_buf_addf(b, "<p class=\"note\">… %zu more line%s cut (use --detail full to see everything)</p>\n",
			     r.cut, r.cut == 1 ? "" : "s");
	txc_buf_addstr(b, "</details>\n");
	txc_render_result_release(&r);
}

static void on_tool(void *ctx, const struct txc_render_call *c)
{
	struct page *pg = ctx;
	txc_buf_addstr(pg->b, "<div class=\"tool\" data-tool=\"");
	txc_html_esc_attr(pg->b, c->call->name);
	txc_buf_addstr(pg->b, "\">\n");
	tool_call(pg, c->call);
	if (c->show_result) {
		if (c->result != NULL)
			tool_result(pg, c->result);
		else
			txc_buf_addstr(pg->b, "<p class=\"note\">No result was recorded for this call.</p>\n");
	}
	txc_buf_addstr(pg->b, "</div>\n");
}

static void on_orphan_result(void *ctx, const struct txc_block *blk, bool in_user)
{
	struct page *pg = ctx;
	txc_buf_addstr(pg->b, "<div class=\"tool\" data-tool=\"");
	txc_html_esc_attr(pg->b, blk->name);
	txc_buf_addstr(pg->b, "\">\n");
	if (in_user) {
		txc_buf_addstr(pg->b, "<p class=\"note\">Result without a matching call");
		if (blk->name.len) {
			txc_buf_addstr(pg->b, " from <strong>");
			txc_html_esc_attr(pg->b, blk->name);
			txc_buf_addstr(pg->b, "</strong>");
		}
		txc_buf_addstr(pg->b, "</p>\n");
	}
	tool_result(pg, blk);
	txc_buf_addstr(pg->b, "</div>\n");
}

/* ---- images ---- */

static void image_note(struct page *pg, const struct txc_block *blk, const char *why)
{
	txc_buf_addf(pg->b, "<p class=\"note\">[image %zu: ", pg->image_no);
	txc_html_esc_attr(pg->b, blk->media_type);
	txc_buf_addf(pg->b, " omitted%s%s]</p>\n", why ? ": " : "", why ? why : "");
}

static void image_file(struct page *pg, const struct txc_block *blk)
{
	struct txc_buf bytes = TXC_BUF_INIT;
	if (!txc_base64_decode(&bytes, blk->data.ptr, blk->data.len)) {
		txc_buf_addf(pg->b, "<p class=\"note\">[image %zu: not valid base64 image data, omitted]</p>\n",
			     pg->image_no);
		txc_buf_release(&bytes);
		return;
	}
	char ext[16], name[64];
	txc_render_image_ext(ext, blk->media_type);
	snprintf(name, sizeof(name), "image-%zu.%s", pg->image_no, ext);
	pg->o->assets->put(pg->o->assets->ctx, name, bytes.buf, bytes.len);
	/* the folder is the output file's name, percent-encoded: a relative path, never a scheme */
	txc_buf_addf(pg->b, "<figure><img alt=\"image %zu\" src=\"", pg->image_no);
	if (pg->b == &pg->out->buf || !pg->paged_root) { /* (a later page lies in the folder itself) */
		txc_text_percent_encode(pg->b, pg->o->assets->assets_link);
		txc_buf_addch(pg->b, '/');
	}
	txc_buf_addf(pg->b, "%s\"></figure>\n", name);
	txc_buf_release(&bytes);
}

static void on_image(void *ctx, const struct txc_block *blk)
{
	struct page *pg = ctx;
	pg->image_no++;
	if (pg->o->images == TXC_IMAGES_OMIT || pg->o->detail == TXC_DETAIL_BRIEF) {
		image_note(pg, blk, NULL);
		return;
	}
	static const char *const why[] = {[TXC_IMAGE_BAD_TYPE] = "not an image media type",
					  [TXC_IMAGE_SCRIPTABLE] = "SVG can carry script",
					  [TXC_IMAGE_BAD_DATA] = "not valid base64 image data"};
	enum txc_image_check ck = txc_render_image_check(blk);
	if (ck != TXC_IMAGE_OK) {
		image_note(pg, blk, why[ck]);
		return;
	}
	if (pg->o->images == TXC_IMAGES_FILES && pg->o->assets != NULL) {
		image_file(pg, blk);
		return;
	}
	/* checked: an image/ type of [A-Za-z0-9/+.-] and base64 characters only, so nothing ends the attribute */
	txc_buf_addf(pg->b, "<figure><img alt=\"image %zu\" src=\"data:%.*s;base64,%.*s\"></figure>\n", pg->image_no,
		     (int)blk->media_type.len, blk->media_type.ptr, (int)blk->data.len, blk->data.ptr);
}

/* ---- lineage: segments of a chain, delegate children ---- */

/* "Segment 2 of 5 · id · after compression at TIME": what ended the one before, and when */
static void on_segment(void *ctx, const struct txc_segment *s, size_t index, size_t n)
{
	struct page *pg = ctx;
	maybe_split(pg);
	struct txc_buf *b = pg->b;
	char when[48];
	txc_buf_addf(b, "<h2 class=\"segment\" id=\"seg%zu\"><a href=\"#seg%zu\">Segment %zu of %zu</a> · <code>",
		     index + 1, index + 1, index + 1, n);
	txc_html_esc_attr(b, s->id);
	txc_buf_addstr(b, "</code>");
	if (index > 0) {
		const struct txc_segment *prev = s - 1;
		txc_buf_addstr(b, " · after ");
		if (prev->end_reason.ptr)
			txc_html_esc_attr(b, prev->end_reason);
		else
			txc_buf_addstr(b, "an unknown end");
		fmt_time(when, prev->has_ended ? prev->ended : s->started, pg->o->utc);
		txc_buf_addf(b, " at %s", when);
	} else {
		fmt_time(when, s->started, pg->o->utc);
		txc_buf_addf(b, " · started %s", when);
	}
	txc_buf_addstr(b, "</h2>\n");
	/* each session numbers its own messages: "s2-m1", so that ids stay unique in the page */
	snprintf(pg->id_prefix, sizeof(pg->id_prefix), "s%zu-", index + 1);
}

static const struct txc_render_ops html_ops; /* (a child is walked with it: txc_render_walk_child) */

/* "Subagent session <code>id</code>" and its title after sep */
static void child_name(struct txc_buf *b, const struct txc_child *c, const char *sep)
{
	txc_buf_addstr(b, "Subagent session <code>");
	txc_html_esc_attr(b, c->id);
	txc_buf_addstr(b, "</code>");
	if (c->title.ptr) {
		txc_buf_addstr(b, sep);
		txc_html_esc_attr(b, c->title);
	}
}

/* a line naming the child, or (--children) its transcript folded under the call */
static void on_child(void *ctx, const struct txc_child *c)
{
	struct page *pg = ctx;
	struct txc_buf *b = pg->b;
	if (c->t == NULL || !pg->o->children) {
		txc_buf_addstr(b, "<p class=\"note child\">");
		child_name(b, c, " — ");
		txc_buf_addstr(b, "</p>\n");
		return;
	}
	pg->child_no++;
	txc_buf_addstr(b, "<details class=\"child\"><summary>");
	child_name(b, c, " · ");
	txc_buf_addf(b, " · %zu messages</summary>\n", c->t->n_messages);
	struct page sub = {
		.out = pg->out, .b = b, .t = c->t, .o = pg->o, .image_no = pg->image_no, .paged_root = pg->paged_root};
	snprintf(sub.id_prefix, sizeof(sub.id_prefix), "c%zu-", pg->child_no);
	txc_render_walk_child(pg->out, c->t, pg->o, &html_ops, &sub);
	pg->image_no = sub.image_no; /* image files stay numbered through the whole page */
	txc_buf_addstr(b, "</details>\n");
}

static const struct txc_render_ops html_ops = {
	.doc_start = on_doc_start,
	.doc_end = on_doc_end,
	.message_start = on_message_start,
	.message_end = on_message_end,
	.text = on_text,
	.thinking = on_thinking,
	.replayed = on_replayed,
	.image = on_image,
	.tool = on_tool,
	.orphan_result = on_orphan_result,
	.segment = on_segment,
	.child = on_child,
};

static int write_html(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
		      struct txc_diag *d)
{
	(void)d;
	struct page pg = {.out = out, .b = &out->buf, .t = t, .o = o};
	pg.paged = o->nav && o->assets != NULL && o->part == NULL;
	pg.paged_root = pg.paged;
	if (pg.paged) {
		pg.parts = txc_xcalloc(1, sizeof(*pg.parts));
		pg.n_parts = 1;
	}
	txc_render_walk(out, t, o, &html_ops, &pg);
	for (size_t k = 0; k < pg.n_parts; k++)
		txc_buf_release(&pg.parts[k].body);
	free(pg.parts);
	txc_buf_release(&pg.title);
	return TXC_OK;
}

/* ---- the archive's index page ---- */

/* the name a page goes by in the index: its title, an untitled one's first words, its id */
static struct txc_str entry_name(const struct txc_index_entry *e, bool *pv)
{
	*pv = e->title.ptr == NULL && e->preview.ptr != NULL;
	return e->title.ptr ? e->title : *pv ? e->preview : e->id.ptr ? e->id : txc_str_c("session");
}

static void index_cell(struct txc_buf *b, const char *cls, struct txc_str key, struct txc_str shown)
{
	txc_buf_addf(b, "<td%s data-key=\"", cls);
	txc_html_esc_attr(b, key);
	txc_buf_addstr(b, "\">");
	txc_html_esc_attr(b, shown);
	txc_buf_addstr(b, "</td>");
}

static void index_row(struct txc_buf *b, const struct txc_index_entry *e)
{
	/* an untitled session by its first words (in italics: not a title), else its id */
	bool pv;
	struct txc_str title = entry_name(e, &pv);
	txc_buf_addstr(b, "<tr><td data-key=\"");
	txc_html_esc_attr(b, title);
	/* the file name txc chose, percent-encoded: a relative link, never a scheme */
	txc_buf_addf(b, "\"><a%s href=\"./", pv ? " class=\"pv\"" : "");
	txc_text_percent_encode(b, e->path);
	txc_buf_addstr(b, "\">");
	txc_html_esc_attr(b, title);
	txc_buf_addstr(b, "</a></td>");
	struct txc_str date = e->started;
	if (date.ptr && date.len > 10)
		date.len = 10; /* the day; the key keeps the time */
	index_cell(b, " class=\"d\"", e->started, date);
	index_cell(b, " class=\"src\"", e->source, e->source);
	index_cell(b, " class=\"mdl\"", e->model, e->model);
	txc_buf_addf(b, "<td class=\"n\" data-key=\"%lld\">", (long long)e->messages);
	add_grouped(b, (long long)e->messages);
	txc_buf_addstr(b, "</td>");
	if (e->cost.ptr) { /* a JSON number's text (the manifest's): digits, sign, point, exponent */
		char num[64];
		snprintf(num, sizeof(num), "%.*s", (int)(e->cost.len < 63 ? e->cost.len : 63), e->cost.ptr);
		txc_buf_addstr(b, "<td class=\"n\" data-key=\"");
		txc_html_esc_attr(b, e->cost);
		txc_buf_addstr(b, "\">");
		struct txc_buf exact = TXC_BUF_INIT;
		txc_html_esc_attr(&exact, e->cost);
		add_money(b, strtod(num, NULL), exact.buf, exact.len);
		txc_buf_release(&exact);
		txc_buf_addstr(b, "</td>");
	} else {
		txc_buf_addstr(b, "<td class=\"n\" data-key=\"-1\"></td>");
	}
	txc_buf_addstr(b, "</tr>\n");
}

static void write_index(struct txc_buf *b, const struct txc_index_entry *v, size_t n)
{
	page_head(b, index_css, index_js, NULL, false, "Sessions");
	txc_buf_addf(
		b,
		"<body>\n<h1>Sessions</h1>\n<p>%zu session%s exported by txc.</p>\n"
		"<input id=\"q\" type=\"search\" placeholder=\"Filter sessions\" aria-label=\"Filter sessions\" "
		"hidden>\n<table id=\"sessions\">\n<thead><tr><th>Title</th><th>Date</th><th class=\"src\">Source</th>"
		"<th class=\"mdl\">Model</th><th data-type=\"num\">Messages</th><th data-type=\"num\">Cost</th></tr></thead>\n"
		"<tbody>\n",
		n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		index_row(b, &v[i]);
	txc_buf_addf(b, "</tbody>\n</table>\n<script>%s</script>\n</body>\n</html>\n", index_js);
}

/* ---- an archive page's links (the writer's .nav) ---- */

/* at most 60 characters of a name, cut at a character: a link, not a heading */
static void nav_name(struct txc_buf *b, const struct txc_index_entry *e)
{
	bool pv;
	struct txc_str s = entry_name(e, &pv);
	size_t i = 0, chars = 0;
	while (i < s.len && chars < 60) {
		uint32_t cp;
		size_t n = txc_utf8_seq((const unsigned char *)s.ptr + i, s.len - i, &cp);
		i += n ? n : 1;
		chars++;
	}
	txc_html_esc_attr(b, (struct txc_str){s.ptr, i});
	if (i < s.len)
		txc_buf_addstr(b, "…");
}

static void nav_link(struct txc_buf *b, const char *up, const struct txc_index_entry *e, const char *rel,
		     const char *before, const char *after)
{
	txc_buf_addf(b, " · <a rel=\"%s\" href=\"%s", rel, up);
	txc_text_percent_encode(b, e->path);
	txc_buf_addf(b, "\">%s", before);
	nav_name(b, e);
	txc_buf_addf(b, "%s</a>", after);
}

/* "All sessions · ← newer one · older one →": relative links to txc's own files only */
static void write_nav(struct txc_buf *b, const char *up, const struct txc_index_entry *prev,
		      const struct txc_index_entry *next)
{
	txc_buf_addf(b,
		     "<nav class=\"summary pager\" aria-label=\"Sessions\"><a rel=\"index\" href=\"%sindex.html\">"
		     "All sessions</a>",
		     up);
	if (prev != NULL)
		nav_link(b, up, prev, "prev", "← ", "");
	if (next != NULL)
		nav_link(b, up, next, "next", "", " →");
	txc_buf_addstr(b, "</nav>");
}

const struct txc_writer_ops txc_writer_html = {
	.name = "html",
	.summary = "one offline HTML page: the Markdown view, themes, strict CSP (export --out adds index.html)",
	.ext = "html",
	.caps = TXC_WCAP_ASSETS | TXC_WCAP_ONE_FILE | TXC_WCAP_SHARED,
	.opts = TXC_WOPT_DETAIL | TXC_WOPT_MAX_LINES | TXC_WOPT_COMPACTED | TXC_WOPT_UTC | TXC_WOPT_IMAGES |
		TXC_WOPT_CHILDREN,
	.write = write_html,
	.index = write_index,
	.nav = write_nav,
};
