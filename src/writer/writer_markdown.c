/*
 * writer_markdown.c - a transcript people read: front matter, turns, tool calls
 * with their results beside them, reasoning folded away.
 *
 * Safety rules (docs/FORMATS.md): transcript HTML is escaped outside code, every
 * fence is longer than any backtick run it holds, fences a message leaves open
 * are closed, YAML values are JSON-quoted.  Output ends with exactly one newline.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "txc/writer.h"

struct md {
	struct txc_buf *b;
	const struct txc_transcript *t;
	const struct txc_write_opts *o;
	size_t image_no;
};

/* ---- small text helpers ---- */

static size_t longest_run(const char *p, size_t len, char ch)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < len; i++) {
		run = p[i] == ch ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/* strip ANSI escape sequences (CSI, OSC, two-byte ESC x) and stray C0 controls but \n \t */
static void strip_ansi(struct txc_buf *out, const char *p, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned char c = (unsigned char)p[i];
		if (c == 0x1B) {
			i++;
			/* only ASCII belongs to a sequence: a UTF-8 byte ends it unconsumed */
			if (i < len && p[i] == '[') {
				i++;
				while (i < len && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] <= 0x3F)
					i++;
				if (i < len && (unsigned char)p[i] >= 0x40 && (unsigned char)p[i] <= 0x7E)
					i++;
			} else if (i < len && p[i] == ']') {
				while (i < len && p[i] != 0x07 && !(p[i] == 0x1B && i + 1 < len && p[i + 1] == '\\'))
					i++;
				i += i < len && p[i] == 0x1B ? 2 : i < len ? 1 : 0;
			} else if (i < len && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] <= 0x7E) {
				i++;
			}
			continue;
		}
		if (c == '\r' && i + 1 < len && p[i + 1] == '\n') {
			i++;
			continue;
		}
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
			txc_buf_addstr(out, c == '\r' ? "\n" : "\xEF\xBF\xBD");
			i++;
			continue;
		}
		txc_buf_addch(out, (char)c);
		i++;
	}
}

/* clean: valid UTF-8, no ANSI, LF line ends */
static void clean(struct txc_buf *out, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	txc_utf8_repair(&t, p, len);
	strip_ansi(out, t.buf, t.len);
	txc_buf_release(&t);
}

static size_t count_lines(const char *p, size_t len)
{
	if (len == 0)
		return 0;
	size_t n = 1;
	for (size_t i = 0; i + 1 < len; i++)
		n += p[i] == '\n';
	return n;
}

static void fence(struct txc_buf *b, const char *lang, const char *p, size_t len)
{
	size_t n = longest_run(p, len, '`') + 1;
	if (n < 3)
		n = 3;
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	txc_buf_addstr(b, lang);
	txc_buf_addch(b, '\n');
	txc_buf_add(b, p, len);
	if (len && p[len - 1] != '\n')
		txc_buf_addch(b, '\n');
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	txc_buf_addch(b, '\n');
}

/* inline code for short untrusted values: one line, delimiter longer than any run inside */
static void code_span(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	clean(&t, p, len);
	for (size_t i = 0; i < t.len; i++)
		if (t.buf[i] == '\n' || t.buf[i] == '\t')
			t.buf[i] = ' ';
	size_t n = longest_run(t.buf, t.len, '`') + 1;
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	bool pad = t.len && (t.buf[0] == '`' || t.buf[t.len - 1] == '`' || t.buf[0] == ' ');
	if (pad)
		txc_buf_addch(b, ' ');
	txc_buf_add(b, t.buf, t.len);
	if (pad)
		txc_buf_addch(b, ' ');
	for (size_t i = 0; i < n; i++)
		txc_buf_addch(b, '`');
	txc_buf_release(&t);
}

/* plain inline text (titles, summaries): HTML and Markdown specials escaped, one line */
static void inline_text(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	clean(&t, p, len);
	for (size_t i = 0; i < t.len; i++) {
		char c = t.buf[i];
		if (c == '<')
			txc_buf_addstr(b, "&lt;");
		else if (c == '>')
			txc_buf_addstr(b, "&gt;");
		else if (c == '&')
			txc_buf_addstr(b, "&amp;");
		else if (c == '\n' || c == '\t')
			txc_buf_addch(b, ' ');
		else if (strchr("\\`*_[]#|~", c) != NULL)
			txc_buf_addch(b, '\\'), txc_buf_addch(b, c);
		else
			txc_buf_addch(b, c);
	}
	txc_buf_release(&t);
}

/*
 * Message text is Markdown already; keep it, but escape '<' outside code so no
 * transcript HTML reaches a renderer, and close a fence the text leaves open.
 */
static void markdown_text(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf t = TXC_BUF_INIT;
	clean(&t, p, len);
	const char *s = t.buf, *end = t.buf + t.len;
	char fch = 0;
	size_t flen = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;
		const char *q = s;
		size_t indent = 0;
		while (q < le && *q == ' ' && indent < 4)
			q++, indent++;
		size_t run = 0;
		if (indent < 4 && q < le && (*q == '`' || *q == '~'))
			while (q + run < le && q[run] == *q)
				run++;
		if (fch) {
			/* inside a fence: copy; a run of the same char at least as long closes it */
			txc_buf_add(b, s, (size_t)(le - s));
			if (run >= flen && q[0] == fch) {
				const char *r = q + run;
				while (r < le && (*r == ' ' || *r == '\t'))
					r++;
				if (r == le)
					fch = 0;
			}
		} else if (run >= 3 && !(q[0] == '`' && memchr(q + run, '`', (size_t)(le - q - run)))) {
			fch = q[0];
			flen = run;
			txc_buf_add(b, s, (size_t)(le - s));
		} else {
			/* outside code: escape '<' except inside `code spans` on this line */
			const char *c = s;
			while (c < le) {
				if (*c == '`') {
					size_t n = 0;
					while (c + n < le && c[n] == '`')
						n++;
					/* find a closing run of exactly n backticks */
					const char *k = c + n, *close = NULL;
					while (k < le) {
						if (*k == '`') {
							size_t m = 0;
							while (k + m < le && k[m] == '`')
								m++;
							if (m == n) {
								close = k;
								break;
							}
							k += m;
						} else {
							k++;
						}
					}
					if (close != NULL) {
						txc_buf_add(b, c, (size_t)(close + n - c));
						c = close + n;
						continue;
					}
					txc_buf_add(b, c, n);
					c += n;
					continue;
				}
				if (*c == '<')
					txc_buf_addstr(b, "&lt;");
				else
					txc_buf_addch(b, *c);
				c++;
			}
		}
		txc_buf_addch(b, '\n');
		s = nl ? nl + 1 : end;
	}
	if (fch) {
		for (size_t i = 0; i < flen; i++)
			txc_buf_addch(b, fch);
		txc_buf_addch(b, '\n');
	}
	txc_buf_release(&t);
}

/* YAML double-quoted scalar: JSON string syntax, plus escapes for what YAML won't take raw */
static void yaml_str(struct txc_buf *b, const char *p, size_t len)
{
	struct txc_buf j = TXC_BUF_INIT;
	txc_json_emit_str(&j, p, len);
	const unsigned char *s = (const unsigned char *)j.buf;
	size_t i = 0;
	while (i < j.len) {
		uint32_t cp;
		size_t n = txc_utf8_seq(s + i, j.len - i, &cp);
		if (n == 0)
			n = 1, cp = s[i];
		/* '<' '>' '&' escaped too: a renderer without front-matter support shows this as text */
		if (cp == '<' || cp == '>' || cp == '&' || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF ||
		    cp == 0x2028 || cp == 0x2029)
			txc_buf_addf(b, "\\u%04x", (unsigned)cp);
		else
			txc_buf_add(b, j.buf + i, n);
		i += n;
	}
	txc_buf_release(&j);
}

static void fmt_time(char out[48], double secs, bool utc)
{
	if (!isfinite(secs) || fabs(secs) > 2.5e11) {
		strcpy(out, "unknown time");
		return;
	}
	time_t tt = (time_t)floor(secs);
	struct tm tm;
	if (utc) {
		gmtime_r(&tt, &tm);
		strftime(out, 48, "%Y-%m-%d %H:%M:%S UTC", &tm);
	} else {
		localtime_r(&tt, &tm);
		strftime(out, 48, "%Y-%m-%d %H:%M:%S %z", &tm);
	}
}

/* ---- front matter and header ---- */

static void yaml_kv_str(struct txc_buf *b, const char *k, struct txc_str v)
{
	txc_buf_addf(b, "%s: ", k);
	if (v.ptr == NULL)
		txc_buf_addstr(b, "null");
	else
		yaml_str(b, v.ptr, v.len);
	txc_buf_addch(b, '\n');
}

static void front_matter(struct md *m, size_t n_msgs, size_t n_tools)
{
	const struct txc_meta *me = &m->t->meta;
	struct txc_buf *b = m->b;
	char iso[64];
	txc_buf_addstr(b, "---\n");
	yaml_kv_str(b, "id", me->id);
	yaml_kv_str(b, "title", me->title);
	yaml_kv_str(b, "source", me->source);
	yaml_kv_str(b, "model", me->model);
	yaml_kv_str(b, "cwd", me->cwd);
	yaml_kv_str(b, "git_branch", me->git_branch);
	txc_time_iso_ms(iso, me->started_at);
	txc_buf_addf(b, "started: \"%s\"\n", iso);
	if (me->has_ended && txc_time_iso_ms(iso, me->ended_at))
		txc_buf_addf(b, "ended: \"%s\"\n", iso);
	else
		txc_buf_addstr(b, "ended: null\n");
	txc_buf_addf(b, "messages: %zu\ntool_calls: %zu\n", n_msgs, n_tools);
	if (me->has_usage)
		txc_buf_addf(b, "tokens:\n  input: %lld\n  output: %lld\n  cache_read: %lld\n  cache_write: %lld\n  reasoning: %lld\n",
			     (long long)me->input_tokens, (long long)me->output_tokens, (long long)me->cache_read_tokens,
			     (long long)me->cache_write_tokens, (long long)me->reasoning_tokens);
	if (me->has_cost) {
		txc_buf_addstr(b, "cost_usd: ");
		txc_json_emit_real(b, me->cost_usd);
		txc_buf_addf(b, "\ncost_kind: %s\n", me->cost_is_actual ? "actual" : "estimated");
	}
	txc_buf_addstr(b, "---\n\n");
}

/* ---- tool calls ---- */

static const char *lang_of(const char *path)
{
	static const char *map[][2] = {
		{".c", "c"},	     {".h", "c"},	    {".py", "python"},	 {".js", "javascript"}, {".ts", "typescript"},
		{".rs", "rust"},     {".go", "go"},	    {".sh", "bash"},	 {".json", "json"},	{".md", "markdown"},
		{".yaml", "yaml"},   {".yml", "yaml"},	    {".toml", "toml"},	 {".html", "html"},	{".css", "css"},
		{".sql", "sql"},     {".rb", "ruby"},	    {".java", "java"},	 {".cpp", "cpp"},	{".tsx", "tsx"},
		{".jsx", "jsx"},     {".txt", "text"},	    {".xml", "xml"},	 {".diff", "diff"},	{".patch", "diff"},
	};
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	if (dot == NULL || (slash && dot < slash))
		return "";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(dot, map[i][0]) == 0)
			return map[i][1];
	return "";
}

static struct txc_str jstr(const struct txc_json *o, const char *k)
{
	const struct txc_json *v = txc_json_get(o, k);
	return v && v->kind == TXC_JSON_STRING ? v->s : TXC_STR_NULL;
}

static void diff_lines(struct txc_buf *t, char sign, struct txc_str s)
{
	const char *p = s.ptr, *end = s.ptr + s.len;
	if (s.ptr == NULL)
		return;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		txc_buf_addch(t, sign);
		txc_buf_add(t, p, (size_t)(le - p));
		txc_buf_addch(t, '\n');
		p = nl ? nl + 1 : end;
	}
}

static void json_fence(struct txc_buf *b, const struct txc_json *v)
{
	struct txc_buf t = TXC_BUF_INIT, c = TXC_BUF_INIT;
	txc_json_emit(&t, v, TXC_JSON_INDENT);
	clean(&c, t.buf, t.len);
	fence(b, "json", c.buf, c.len);
	txc_buf_release(&t);
	txc_buf_release(&c);
}

static void tool_call(struct md *m, const struct txc_block *blk)
{
	struct txc_buf *b = m->b;
	const struct txc_json *in = blk->input;
	struct txc_buf t = TXC_BUF_INIT, c = TXC_BUF_INIT;
	txc_buf_addstr(b, "**");
	inline_text(b, blk->name.ptr, blk->name.len);
	txc_buf_addstr(b, "**");
	if (m->o->detail == TXC_DETAIL_BRIEF) {
		struct txc_str key = blk->tool == TXC_TOOL_BASH ? jstr(in, "command") : jstr(in, "file_path");
		if (key.ptr != NULL) {
			txc_buf_addch(b, ' ');
			code_span(b, key.ptr, key.len > 200 ? 200 : key.len);
		}
		txc_buf_addch(b, '\n');
		return;
	}
	switch (blk->tool) {
	case TXC_TOOL_BASH: {
		struct txc_str desc = jstr(in, "description"), wd = jstr(in, "workdir");
		if (desc.ptr) {
			txc_buf_addstr(b, " — ");
			inline_text(b, desc.ptr, desc.len);
		}
		if (wd.ptr) {
			txc_buf_addstr(b, " in ");
			code_span(b, wd.ptr, wd.len);
		}
		const struct txc_json *to = txc_json_get(in, "timeout_ms");
		if (to != NULL && to->kind == TXC_JSON_INT)
			txc_buf_addf(b, " (timeout %.*s ms)", (int)to->s.len, to->s.ptr);
		if (txc_json_get(in, "run_in_background"))
			txc_buf_addstr(b, " (background)");
		txc_buf_addstr(b, "\n\n");
		struct txc_str cmd = jstr(in, "command");
		clean(&c, cmd.ptr, cmd.len);
		fence(b, "bash", c.buf, c.len);
		break;
	}
	case TXC_TOOL_READ: {
		struct txc_str path = jstr(in, "file_path");
		txc_buf_addch(b, ' ');
		code_span(b, path.ptr, path.len);
		const struct txc_json *off = txc_json_get(in, "offset"), *lim = txc_json_get(in, "limit");
		int64_t o = 1, l = 0;
		if (off)
			txc_json_is_int(off, &o);
		if (lim && txc_json_is_int(lim, &l))
			txc_buf_addf(b, " (lines %lld–%lld)", (long long)o, (long long)(o + l - 1));
		else if (off)
			txc_buf_addf(b, " (from line %lld)", (long long)o);
		txc_buf_addch(b, '\n');
		break;
	}
	case TXC_TOOL_WRITE: {
		struct txc_str path = jstr(in, "file_path"), content = jstr(in, "content");
		txc_buf_addch(b, ' ');
		code_span(b, path.ptr, path.len);
		txc_buf_addstr(b, "\n\n");
		clean(&c, content.ptr, content.len);
		fence(b, lang_of(path.ptr), c.buf, c.len);
		break;
	}
	case TXC_TOOL_EDIT:
	case TXC_TOOL_MULTIEDIT: {
		struct txc_str path = jstr(in, "file_path");
		txc_buf_addch(b, ' ');
		code_span(b, path.ptr, path.len);
		if (txc_json_get(in, "replace_all"))
			txc_buf_addstr(b, " (all occurrences)");
		txc_buf_addstr(b, "\n\n");
		const struct txc_json *edits = txc_json_get(in, "edits");
		if (blk->tool == TXC_TOOL_EDIT) {
			diff_lines(&t, '-', jstr(in, "old_string"));
			diff_lines(&t, '+', jstr(in, "new_string"));
		} else {
			for (size_t i = 0; edits && i < edits->n; i++) {
				if (i)
					txc_buf_addstr(&t, "@@\n");
				diff_lines(&t, '-', jstr(edits->items[i], "old_string"));
				diff_lines(&t, '+', jstr(edits->items[i], "new_string"));
			}
		}
		clean(&c, t.buf, t.len);
		fence(b, "diff", c.buf, c.len);
		break;
	}
	default: {
		struct txc_str patch = jstr(in, "patch");
		if (txc_str_eq(blk->name, "patch") && patch.ptr != NULL) {
			struct txc_str path = jstr(in, "path");
			if (path.ptr) {
				txc_buf_addch(b, ' ');
				code_span(b, path.ptr, path.len);
			}
			txc_buf_addstr(b, "\n\n");
			clean(&c, patch.ptr, patch.len);
			fence(b, "diff", c.buf, c.len);
		} else if (in->kind == TXC_JSON_OBJECT && in->n == 0) {
			txc_buf_addch(b, '\n');
		} else {
			txc_buf_addstr(b, "\n\n");
			json_fence(b, in);
		}
	}
	}
	txc_buf_release(&t);
	txc_buf_release(&c);
}

static void tool_result(struct md *m, const struct txc_block *blk)
{
	struct txc_buf *b = m->b;
	struct txc_buf body = TXC_BUF_INIT;
	const char *lang = "text";
	struct txc_arena *scratch = txc_arena_new(0);
	const struct txc_json *out = txc_block_output(blk, scratch);
	const struct txc_json *exit_code = NULL;
	if (out == NULL) {
		clean(&body, blk->output_text.ptr, blk->output_text.len);
	} else {
		struct txc_str text = jstr(out, "output");
		exit_code = txc_json_get(out, "exit_code");
		if (text.ptr == NULL)
			text = jstr(out, "content");
		struct txc_str err = jstr(out, "error");
		if (text.ptr != NULL && out->kind == TXC_JSON_OBJECT && out->n <= 4) {
			clean(&body, text.ptr, text.len);
			if (err.ptr && err.len) {
				txc_buf_addstr(&body, body.len ? "\n" : "");
				clean(&body, err.ptr, err.len);
			}
		} else {
			struct txc_buf t = TXC_BUF_INIT;
			txc_json_emit(&t, out, TXC_JSON_INDENT);
			clean(&body, t.buf, t.len);
			txc_buf_release(&t);
			lang = "json";
		}
	}
	while (body.len && body.buf[body.len - 1] == '\n')
		body.len--;
	size_t lines = count_lines(body.buf, body.len);
	txc_buf_addstr(b, "<details><summary>");
	txc_buf_addstr(b, blk->denied ? "denied" : blk->is_error ? "error" : "ok");
	if (exit_code != NULL && exit_code->kind == TXC_JSON_INT)
		txc_buf_addf(b, " · exit %.*s", (int)(exit_code->s.len > 20 ? 20 : exit_code->s.len), exit_code->s.ptr);
	txc_buf_addf(b, " · %zu line%s</summary>\n\n", lines, lines == 1 ? "" : "s");
	size_t cut = 0;
	if (m->o->detail == TXC_DETAIL_NORMAL && m->o->max_output_lines > 0 && lines > (size_t)m->o->max_output_lines) {
		size_t keep = 0, n = 0;
		while (keep < body.len && n < (size_t)m->o->max_output_lines) {
			if (body.buf[keep] == '\n')
				n++;
			keep++;
		}
		cut = lines - (size_t)m->o->max_output_lines;
		body.len = keep ? keep - 1 : 0;
	}
	if (body.len)
		fence(b, lang, body.buf, body.len);
	else
		txc_buf_addstr(b, "*(no output)*\n");
	if (cut)
		txc_buf_addf(b, "\n*… %zu more line%s cut (use --detail full to see everything)*\n", cut, cut == 1 ? "" : "s");
	txc_buf_addstr(b, "\n</details>\n\n");
	txc_buf_release(&body);
	txc_arena_free(scratch);
}

/* ---- images ---- */

/* File extension from a checked media type: image/png -> png, image/svg+xml -> svg. */
static void image_ext(char out[16], struct txc_str media)
{
	size_t i = 6, n = 0;
	if (media.len == 10 && memcmp(media.ptr, "image/jpeg", 10) == 0) {
		strcpy(out, "jpg");
		return;
	}
	while (i < media.len && n < 15 && media.ptr[i] >= 'a' && media.ptr[i] <= 'z')
		out[n++] = media.ptr[i++];
	out[n] = '\0';
	if (n == 0)
		strcpy(out, "img");
}

/* Percent-encode a relative link so that no character can end the link early. */
static void link_path(struct txc_buf *b, struct txc_str p)
{
	static const char hx[] = "0123456789ABCDEF";
	for (size_t i = 0; i < p.len; i++) {
		unsigned char c = (unsigned char)p.ptr[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("/-._~", c)) {
			txc_buf_addch(b, (char)c);
		} else {
			txc_buf_addch(b, '%');
			txc_buf_addch(b, hx[c >> 4]);
			txc_buf_addch(b, hx[c & 15]);
		}
	}
}

static void image_file(struct md *m, const struct txc_block *blk)
{
	struct txc_buf bytes = TXC_BUF_INIT;
	if (!txc_base64_decode(&bytes, blk->data.ptr, blk->data.len)) {
		txc_buf_addf(m->b, "*[image %zu: not valid base64 image data, omitted]*\n\n", m->image_no);
		txc_buf_release(&bytes);
		return;
	}
	char ext[16], name[64];
	image_ext(ext, blk->media_type);
	snprintf(name, sizeof(name), "image-%zu.%s", m->image_no, ext);
	m->o->assets->put(m->o->assets->ctx, name, bytes.buf, bytes.len);
	txc_buf_addf(m->b, "![image %zu](", m->image_no);
	link_path(m->b, m->o->assets->assets_link);
	txc_buf_addf(m->b, "/%s)\n\n", name);
	txc_buf_release(&bytes);
}

static void image(struct md *m, const struct txc_block *blk)
{
	struct txc_buf *b = m->b;
	m->image_no++;
	if (m->o->images == TXC_IMAGES_OMIT || m->o->detail == TXC_DETAIL_BRIEF) {
		txc_buf_addf(b, "*[image %zu: ", m->image_no);
		inline_text(b, blk->media_type.ptr, blk->media_type.len);
		txc_buf_addstr(b, " omitted]*\n\n");
		return;
	}
	/* only well-formed base64 of an image type may go into a data: URI */
	bool ok = blk->media_type.len < 64 && strncmp(blk->media_type.ptr, "image/", 6) == 0;
	for (size_t i = 0; ok && i < blk->media_type.len; i++) {
		char c = blk->media_type.ptr[i];
		ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '+' || c == '-' || c == '.';
	}
	for (size_t i = 0; ok && i < blk->data.len; i++) {
		char c = blk->data.ptr[i];
		ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
	}
	if (!ok) {
		txc_buf_addf(b, "*[image %zu: not valid base64 image data, omitted]*\n\n", m->image_no);
		return;
	}
	if (m->o->images == TXC_IMAGES_FILES && m->o->assets != NULL) {
		image_file(m, blk);
		return;
	}
	txc_buf_addf(b, "![image %zu](data:%.*s;base64,%.*s)\n\n", m->image_no, (int)blk->media_type.len,
		     blk->media_type.ptr, (int)blk->data.len, blk->data.ptr);
}

/* ---- the document ---- */

static const struct txc_block *find_result(const struct txc_transcript *t, size_t from, struct txc_str id, bool *used,
					   size_t *mi_out)
{
	if (id.len == 0)
		return NULL;
	for (size_t i = from; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		if (m->role != TXC_ROLE_USER || m->n_blocks != 1 || m->blocks[0].kind != TXC_BLOCK_TOOL_RESULT)
			continue;
		if (used[i])
			continue;
		const struct txc_block *r = &m->blocks[0];
		if (r->id.len == id.len && memcmp(r->id.ptr, id.ptr, id.len) == 0) {
			*mi_out = i;
			return r;
		}
	}
	return NULL;
}

static void heading(struct md *m, const struct txc_message *msg, const char *who)
{
	char when[48];
	fmt_time(when, msg->time, m->o->utc);
	txc_buf_addf(m->b, "## %s · %s%s\n\n", who, when, msg->compacted ? " · *archived by compaction*" : "");
}

static int write_markdown(struct txc_out *out, const struct txc_transcript *t, const struct txc_write_opts *o,
			  struct txc_diag *d)
{
	(void)d;
	struct md m = {.b = &out->buf, .t = t, .o = o};
	struct txc_buf *b = m.b;
	bool *used = txc_xcalloc(t->n_messages + 1, 1);
	size_t n_tools = txc_model_count_tool_uses(t), n_msgs = 0;
	for (size_t i = 0; i < t->n_messages; i++)
		n_msgs += !t->messages[i].compacted || o->include_compacted;
	front_matter(&m, n_msgs, n_tools);
	txc_buf_addstr(b, "# ");
	if (t->meta.title.ptr)
		inline_text(b, t->meta.title.ptr, t->meta.title.len);
	else
		inline_text(b, t->meta.id.ptr ? t->meta.id.ptr : "session", t->meta.id.ptr ? t->meta.id.len : 7);
	char when[48];
	fmt_time(when, t->meta.started_at, o->utc);
	txc_buf_addf(b, "\n\n*%zu messages · %zu tool calls · ", n_msgs, n_tools);
	if (t->meta.source.ptr) {
		inline_text(b, t->meta.source.ptr, t->meta.source.len);
		txc_buf_addstr(b, " · ");
	}
	if (t->meta.model.ptr) {
		inline_text(b, t->meta.model.ptr, t->meta.model.len);
		txc_buf_addstr(b, " · ");
	}
	txc_buf_addf(b, "started %s*\n\n", when);
	if (t->n_messages == 0)
		txc_buf_addstr(b, "*This session has no messages.*\n\n");
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *msg = &t->messages[i];
		if ((msg->compacted && !o->include_compacted) || used[i])
			continue;
		if (msg->role == TXC_ROLE_USER) {
			bool only_result = msg->n_blocks == 1 && msg->blocks[0].kind == TXC_BLOCK_TOOL_RESULT;
			if (o->detail == TXC_DETAIL_PROMPTS && only_result)
				continue;
			heading(&m, msg, only_result ? "Tool result" : "User");
			for (size_t j = 0; j < msg->n_blocks; j++) {
				const struct txc_block *blk = &msg->blocks[j];
				if (blk->kind == TXC_BLOCK_TEXT) {
					markdown_text(b, blk->text.ptr, blk->text.len);
					txc_buf_addch(b, '\n');
				} else if (blk->kind == TXC_BLOCK_IMAGE) {
					image(&m, blk);
				} else if (blk->kind == TXC_BLOCK_TOOL_RESULT) {
					txc_buf_addstr(b, "*Result without a matching call*");
					if (blk->name.len) {
						txc_buf_addstr(b, " from **");
						inline_text(b, blk->name.ptr, blk->name.len);
						txc_buf_addstr(b, "**");
					}
					txc_buf_addstr(b, "\n\n");
					tool_result(&m, blk);
				}
			}
		} else {
			if (o->detail == TXC_DETAIL_PROMPTS)
				continue;
			heading(&m, msg, "Assistant");
			for (size_t j = 0; j < msg->n_blocks; j++) {
				const struct txc_block *blk = &msg->blocks[j];
				size_t ri;
				switch (blk->kind) {
				case TXC_BLOCK_TEXT:
					markdown_text(b, blk->text.ptr, blk->text.len);
					txc_buf_addch(b, '\n');
					break;
				case TXC_BLOCK_THINKING:
					if (o->detail == TXC_DETAIL_BRIEF || blk->text.len == 0)
						break;
					txc_buf_addstr(b, "<details><summary>Reasoning</summary>\n\n");
					markdown_text(b, blk->text.ptr, blk->text.len);
					txc_buf_addstr(b, "\n</details>\n\n");
					break;
				case TXC_BLOCK_IMAGE: image(&m, blk); break;
				case TXC_BLOCK_TOOL_RESULT: tool_result(&m, blk); break;
				case TXC_BLOCK_TOOL_USE: {
					tool_call(&m, blk);
					const struct txc_block *r = find_result(t, i + 1, blk->id, used, &ri);
					if (o->detail == TXC_DETAIL_BRIEF) {
						if (r)
							used[ri] = true;
						break;
					}
					txc_buf_addch(b, '\n');
					if (r != NULL) {
						used[ri] = true;
						tool_result(&m, r);
					} else {
						txc_buf_addstr(b, "*No result was recorded for this call.*\n\n");
					}
					break;
				}
				}
			}
		}
		txc_out_maybe_flush(out);
	}
	free(used);
	/* exactly one trailing newline */
	while (b->len > 1 && b->buf[b->len - 1] == '\n' && b->buf[b->len - 2] == '\n')
		b->len--;
	b->buf[b->len] = '\0';
	return TXC_OK;
}

const struct txc_writer_ops txc_writer_markdown = {
	.name = "markdown",
	.summary = "Markdown for people: tool calls with their results, reasoning folded",
	.ext = "md",
	.write = write_markdown,
};
