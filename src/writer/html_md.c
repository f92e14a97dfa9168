/*
 * html_md.c - a message's Markdown as HTML for the HTML writer, through cmark-gfm (the GFM
 * renderer GitHub maintains and Debian ships as libcmark-gfm; its extensions give tables,
 * strikethrough and autolinks).  cmark-gfm rather than md4c: its tree can be edited before it is
 * rendered, which is where the safety rules below are kept, and it is the renderer the Markdown
 * writer's output is already tested with.
 *
 * The parsed tree is made safe before rendering, and the rendering is cmark's safe mode on top:
 *  - raw HTML (inline or a block) becomes text: an inline tag is shown as typed, a block as a
 *    code block, so nothing a message holds is ever markup;
 *  - a link keeps its target only for http:, https:, mailto: or a #fragment; any other target
 *    (javascript:, data:, file:, a relative path that would open a file beside the page) is
 *    unlinked: its text stays, followed by the target as text;
 *  - an image is never loaded: it becomes a link to its source under the same rule, labelled
 *    "image: ALT";
 *  - titles of links are dropped (an attribute nobody sees, and a place for bidi tricks).
 * The output then has bidi controls shown as marks and C1 controls as U+FFFD, as all the page's
 * text.  The page's CSP and script are unchanged: this adds no style attribute and no script.
 * Owns nothing past a call: the tree is freed before it returns.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "render.h"

static pthread_once_t registered = PTHREAD_ONCE_INIT;

/* (cmark's extension registry is process-wide; filled once) */
static void register_extensions(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

/* whether a link's target may stay a link: a safe scheme, or a place in this page */
static bool safe_target(const char *u)
{
	static const char *const ok[] = {"http://", "https://", "mailto:"};
	if (u == NULL || u[0] == '\0')
		return false;
	if (u[0] == '#')
		return true;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strncasecmp(u, ok[i], strlen(ok[i])) == 0)
			return true;
	return false;
}

static cmark_node *text_node(const char *s)
{
	cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
	cmark_node_set_literal(t, s);
	return t;
}

/* node replaced by repl (node freed) */
static void replace(cmark_node *node, cmark_node *repl)
{
	cmark_node_insert_before(node, repl);
	cmark_node_unlink(node);
	cmark_node_free(node);
}

/* raw HTML as what it is: text (an inline tag) or a code block (an HTML block) */
static void html_to_text(cmark_node *node, bool block)
{
	const char *lit = cmark_node_get_literal(node);
	cmark_node *t = cmark_node_new(block ? CMARK_NODE_CODE_BLOCK : CMARK_NODE_TEXT);
	cmark_node_set_literal(t, lit ? lit : "");
	replace(node, t);
}

/* an image: a link to its source labelled "image: ALT" (then checked as every link) */
static cmark_node *image_to_link(cmark_node *img)
{
	cmark_node *link = cmark_node_new(CMARK_NODE_LINK);
	const char *u = cmark_node_get_url(img);
	cmark_node_set_url(link, u ? u : "");
	cmark_node_append_child(link, text_node("image: "));
	for (cmark_node *c = cmark_node_first_child(img); c != NULL; c = cmark_node_first_child(img)) {
		cmark_node_unlink(c);
		cmark_node_append_child(link, c);
	}
	replace(img, link);
	return link;
}

/* a link with an unsafe target: its text, then " (TARGET)" as text */
static void unlink_link(cmark_node *link)
{
	const char *u = cmark_node_get_url(link);
	for (cmark_node *c = cmark_node_first_child(link); c != NULL; c = cmark_node_first_child(link)) {
		cmark_node_unlink(c);
		cmark_node_insert_before(link, c);
	}
	if (u != NULL && u[0] != '\0') {
		struct txc_buf t = TXC_BUF_INIT;
		txc_buf_addf(&t, " (%s)", u);
		cmark_node_insert_before(link, text_node(t.buf));
		txc_buf_release(&t);
	}
	cmark_node_unlink(link);
	cmark_node_free(link);
}

/* the nodes to change, gathered first: the iterator must not see a tree edited under it */
static cmark_node **risky_nodes(cmark_node *doc, size_t *n)
{
	cmark_node **v = NULL;
	size_t cap = 0;
	*n = 0;
	cmark_iter *it = cmark_iter_new(doc);
	for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
		cmark_node *node = cmark_iter_get_node(it);
		cmark_node_type ty = cmark_node_get_type(node);
		if (ev != CMARK_EVENT_ENTER || (ty != CMARK_NODE_HTML_INLINE && ty != CMARK_NODE_HTML_BLOCK &&
						ty != CMARK_NODE_LINK && ty != CMARK_NODE_IMAGE))
			continue;
		if (*n == cap)
			v = txc_xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
		v[(*n)++] = node;
	}
	cmark_iter_free(it);
	return v;
}

static void make_safe(cmark_node *doc)
{
	size_t n;
	cmark_node **v = risky_nodes(doc, &n);
	for (size_t i = 0; i < n; i++) {
		cmark_node *node = v[i];
		cmark_node_type ty = cmark_node_get_type(node);
		if (ty == CMARK_NODE_HTML_INLINE || ty == CMARK_NODE_HTML_BLOCK) {
			html_to_text(node, ty == CMARK_NODE_HTML_BLOCK);
			continue;
		}
		if (ty == CMARK_NODE_IMAGE)
			node = image_to_link(node); /* then checked as every link */
		cmark_node_set_title(node, "");
		if (!safe_target(cmark_node_get_url(node)))
			unlink_link(node);
	}
	free(v);
}

static bool bidi_control(uint32_t cp)
{
	return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* cmark's HTML with bidi controls as visible marks, C1 controls and BOMs as U+FFFD and ' as &#39;
 * (the rest of the page's rules: cmark escaped & < > " already, and its own markup quotes with ",
 * so every ' is the transcript's and none can end an attribute anywhere) */
static void add_marked(struct txc_buf *b, const char *p, size_t len)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t run = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = s[i] < 0x80 ? 1 : txc_utf8_seq(s + i, len - i, &cp);
		bool bidi = n > 1 && bidi_control(cp),
		     bad = n == 0 || (n > 1 && ((cp >= 0x80 && cp <= 0x9F) || cp == 0xFEFF)), quote = s[i] == '\'';
		if (!bidi && !bad && !quote) {
			i += n;
			continue;
		}
		txc_buf_add(b, p + run, i - run);
		if (quote)
			txc_buf_addstr(b, "&#39;");
		else if (bidi)
			txc_buf_addf(b, "<span class=\"bidi\">[U+%04X]</span>", (unsigned)cp);
		else
			txc_buf_addstr(b, "\xEF\xBF\xBD");
		i += n ? n : 1;
		run = i;
	}
	txc_buf_add(b, p + run, len - run);
}

void txc_html_markdown(struct txc_buf *b, const char *p, size_t len)
{
	static const char *const exts[] = {"table", "strikethrough", "autolink"};
	pthread_once(&registered, register_extensions);
	/* hard breaks: a chat's line breaks are the writer's, as on GitHub's comments */
	const int opts = CMARK_OPT_HARDBREAKS;
	cmark_parser *ps = cmark_parser_new(opts);
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		cmark_syntax_extension *e = cmark_find_syntax_extension(exts[i]);
		if (e != NULL)
			cmark_parser_attach_syntax_extension(ps, e);
	}
	cmark_parser_feed(ps, p, len);
	cmark_node *doc = cmark_parser_finish(ps);
	make_safe(doc);
	char *html = cmark_render_html(doc, opts, cmark_parser_get_syntax_extensions(ps));
	add_marked(b, html, strlen(html));
	free(html);
	cmark_node_free(doc);
	cmark_parser_free(ps);
}
