/*
 * artifacts.c - artifact derivation, after Hermes's desktop app
 * (artifact-utils.ts, parts.ts, media.ts; see the store reference, section 9).
 * Only assistant text and tool results are scanned.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "txc/artifacts.h"
#include "txc/strmap.h"

static const char *const image_ext[] = {"png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "tiff", NULL};
static const char *const file_ext[] = {
	"pdf", "txt",     "json", "md",   "csv", "tsv",  "zip",  "tar",  "gz",  "tgz",  "bz2",  "xz",  "7z",
	"rar", "avi",     "flac", "m4a",  "mkv", "mp3",  "ogg",  "opus", "wav", "webm", "mp4",  "mov", "3gp",
	"m2a", "docx",    "doc",  "odt",  "rtf", "epub", "xlsx", "xls",  "ods", "xml",  "yaml", "yml", "kmz",
	"kml", "geojson", "gpx",  "pptx", "ppt", "odp",  "key",  "apk",  "ipa", "html", "htm",  NULL};

static const char *const strong_keys[] = {"artifact_file",   "artifact_image",
					  "artifact_path",   "artifact_url",
					  "files_created",   "file_created",
					  "files_modified",  "files_written",
					  "generated_file",  "generated_image",
					  "generated_path",  "generated_url",
					  "media_tag",       "output_file",
					  "output_path",     "output_url",
					  "result_file",     "result_path",
					  "result_url",      "saved_to",
					  "screenshot_path", NULL};
static const char *const weak_keys[] = {
	"artifact",   "artifacts", "attachment", "attachments", "download",   "downloads", "audio", "audio_file",
	"audio_path", "audio_url", "image",      "image_file",  "image_path", "image_url", "video", "video_file",
	"video_path", "video_url", "file_path",  "local_path",  "media",      "path",      NULL};

static bool in_list(const char *const *list, const char *s, size_t len)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == len && strncasecmp(list[i], s, len) == 0)
			return true;
	return false;
}

static bool starts(const char *v, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && strncasecmp(v, prefix, n) == 0;
}

/* the extension of the last path segment (before any ?query or #fragment) */
static struct txc_str extension(const char *v, size_t len)
{
	size_t end = len;
	for (size_t i = 0; i < len; i++)
		if (v[i] == '?' || v[i] == '#') {
			end = i;
			break;
		}
	for (size_t i = end; i > 0; i--) {
		if (v[i - 1] == '/' || v[i - 1] == '\\')
			break;
		if (v[i - 1] == '.')
			return (struct txc_str){v + i, end - i};
	}
	return TXC_STR_NULL;
}

static bool is_url(const char *v, size_t len)
{
	return starts(v, len, "http://") || starts(v, len, "https://");
}

static bool path_like(const char *v, size_t len)
{
	return starts(v, len, "file:") || starts(v, len, "/") || starts(v, len, "~/") || starts(v, len, "./") ||
	       starts(v, len, "../") || starts(v, len, "\\\\") ||
	       (len >= 3 && isalpha((unsigned char)v[0]) && v[1] == ':' && (v[2] == '\\' || v[2] == '/'));
}

static bool txc_artifact_looks_like(const char *v, size_t len)
{
	if (is_url(v, len) || starts(v, len, "data:image"))
		return true;
	if (!path_like(v, len))
		return false;
	struct txc_str e = extension(v, len);
	return e.len && (in_list(image_ext, e.ptr, e.len) || in_list(file_ext, e.ptr, e.len));
}

static bool txc_artifact_is_producer(const char *tool, size_t len)
{
	static const char *const verbs[] = {"create", "creation", "download", "export", "generate", "generation",
					    "render", "save",     "speech",   "tts",    "write",    NULL};
	if (starts(tool, len, "bfl_flux3_"))
		return true;
	size_t s = 0;
	for (size_t i = 0; i <= len; i++)
		if (i == len || tool[i] == '_') {
			if (in_list(verbs, tool + s, i - s))
				return true;
			s = i + 1;
		}
	return false;
}

const char *txc_artifact_kind_name(enum txc_artifact_kind k)
{
	return k == TXC_ARTIFACT_IMAGE ? "image" : k == TXC_ARTIFACT_LINK ? "link" : "file";
}

/* ---- collecting ---- */

struct found {
	struct txc_arena *a;
	struct txc_artifact *v;
	size_t n, cap;
	size_t message;
	struct txc_str tool;
	struct txc_strmap seen; /* the values listed so far, keyed by their copies in a (each is kept once) */
};

static bool is_request_dump(const char *v, size_t len)
{
	size_t b = len;
	while (b > 0 && v[b - 1] != '/' && v[b - 1] != '\\')
		b--;
	return starts(v + b, len - b, "request_dump_") && len - b >= 5 && strncasecmp(v + len - 5, ".json", 5) == 0;
}

static void add(struct found *f, const char *v, size_t len, const char *rule)
{
	while (len && isspace((unsigned char)*v)) {
		v++;
		len--;
	}
	while (len && (isspace((unsigned char)v[len - 1]) || strchr("),.;", v[len - 1]) != NULL))
		len--;
	if (len == 0 || is_request_dump(v, len)) /* any length: a long data:image or URL is listed whole */
		return;
	bool added;
	struct txc_strmap_entry *seen = txc_strmap_put(&f->seen, v, len, &added);
	if (!added)
		return; /* one entry per value, at its first mention */
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct txc_artifact *nv = txc_arena_array(f->a, cap, sizeof(*nv));
		if (f->n)
			memcpy(nv, f->v, f->n * sizeof(*nv));
		f->v = nv;
		f->cap = cap;
	}
	struct txc_artifact *x = &f->v[f->n++];
	x->value = txc_arena_str(f->a, v, len);
	seen->key = x->value.ptr; /* the same bytes, kept as long as the list (v may be a scratch copy) */
	struct txc_str e = extension(v, len);
	if (starts(v, len, "data:image") || (e.len && in_list(image_ext, e.ptr, e.len)))
		x->kind = TXC_ARTIFACT_IMAGE;
	else if (is_url(v, len))
		x->kind = TXC_ARTIFACT_LINK;
	else
		x->kind = TXC_ARTIFACT_FILE;
	x->message = f->message;
	x->tool = f->tool;
	x->rule = rule;
}

/* MEDIA: tags (media.ts): a quoted value, else a bare token */
static void media_tags(struct found *f, const char *s, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++) {
		if (memcmp(s + i, "MEDIA:", 6) != 0)
			continue;
		size_t p = i + 6;
		while (p < len && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (p >= len)
			break;
		size_t start = p, end;
		char q = s[p];
		if (q == '`' || q == '"' || q == '\'') {
			start = ++p;
			while (p < len && s[p] != q && s[p] != '\n')
				p++;
			end = p;
		} else {
			while (p < len && !isspace((unsigned char)s[p]))
				p++;
			end = p;
			while (end > start && strchr(".,;:!?'\"`", s[end - 1]) != NULL)
				end--;
		}
		/* the value must contain a separator or a dot followed by a non-dot */
		bool ok = false;
		for (size_t k = start; k < end && !ok; k++)
			ok = s[k] == '/' || s[k] == '\\' || (s[k] == '.' && k + 1 < end && s[k + 1] != '.');
		if (ok)
			add(f, s + start, end - start, "media-tag");
		i = p;
	}
}

static bool path_start_ok(const char *s, size_t i)
{
	return i == 0 || isspace((unsigned char)s[i - 1]) || strchr("(\"'`", s[i - 1]) != NULL;
}

static size_t token_end(const char *s, size_t len, size_t p, const char *stops)
{
	while (p < len && !isspace((unsigned char)s[p]) && strchr(stops, s[p]) == NULL)
		p++;
	return p;
}

static void assistant_text(struct found *f, const char *s, size_t len)
{
	media_tags(f, s, len);
	/* where the last scans for ']' and ')' stopped: a scan that starts before that stop ends
	 * there too, so "[[[[..." or "[a](" repeated is read once, not once per bracket */
	size_t close_end = 0, target_end = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '[' || (c == '!' && i + 1 < len && s[i + 1] == '[')) {
			/* ![alt](target) and [text](target) */
			bool img = c == '!';
			size_t p = i + (img ? 2 : 1);
			if (p < close_end)
				p = close_end;
			while (p < len && s[p] != ']' && s[p] != '\n')
				p++;
			close_end = p;
			if (p + 1 < len && s[p] == ']' && s[p + 1] == '(') {
				size_t t0 = p + 2, t1 = t0 < target_end ? target_end : t0;
				while (t1 < len && s[t1] != ')' && !isspace((unsigned char)s[t1]))
					t1++;
				target_end = t1;
				if (t1 < len && s[t1] == ')' && t1 > t0) {
					if (img)
						add(f, s + t0, t1 - t0, "markdown-image");
					else if (!(i > 0 && s[i - 1] == '!') &&
						 txc_artifact_looks_like(s + t0, t1 - t0))
						add(f, s + t0, t1 - t0, "markdown-link");
					i = t1;
					continue;
				}
			}
			continue;
		}
		if ((c == 'h' || c == 'H') &&
		    (starts(s + i, len - i, "http://") || starts(s + i, len - i, "https://")) &&
		    (i == 0 || !isalnum((unsigned char)s[i - 1]))) {
			size_t e = token_end(s, len, i, "<>\"')");
			add(f, s + i, e - i, "url");
			i = e;
			continue;
		}
		if (path_start_ok(s, i) && path_like(s + i, len - i) && !starts(s + i, len - i, "file:")) {
			size_t e = token_end(s, len, i, "\"'`<>()");
			size_t n = e - i;
			while (n && strchr(",.;:!?", s[i + n - 1]) != NULL)
				n--;
			if (txc_artifact_looks_like(s + i, n))
				add(f, s + i, n, "path");
			i = e;
		}
	}
}

static void walk(struct found *f, const struct txc_json *v, bool strong, bool weak, bool producer, int depth)
{
	if (v == NULL || depth > 64)
		return;
	if (v->kind == TXC_JSON_STRING) {
		if (strong || (weak && (path_like(v->s.ptr, v->s.len) || is_url(v->s.ptr, v->s.len))))
			add(f, v->s.ptr, v->s.len, "result-key");
		return;
	}
	if (v->kind == TXC_JSON_ARRAY) {
		for (size_t i = 0; i < v->n; i++)
			walk(f, v->items[i], strong, weak, producer, depth + 1);
		return;
	}
	if (v->kind != TXC_JSON_OBJECT)
		return;
	for (size_t i = 0; i < v->n; i++) {
		struct txc_str k = v->keys[i];
		bool s = strong || in_list(strong_keys, k.ptr, k.len);
		bool w = weak || (producer && (in_list(weak_keys, k.ptr, k.len) || starts(k.ptr, k.len, "media")));
		walk(f, v->items[i], s, w, producer, depth + 1);
	}
}

static void tool_result(struct found *f, struct txc_arena *a, const struct txc_block *b)
{
	bool producer = b->name.ptr && txc_artifact_is_producer(b->name.ptr, b->name.len);
	const struct txc_json *out = txc_block_output(b, a); /* a: the caller's arena, kept */
	struct txc_str text = b->output_json ? TXC_STR_NULL : b->output_text;
	if (out == NULL && text.len && starts(text.ptr, text.len, "<untrusted_tool_result")) {
		/* the wrapper line(s), a blank line, then the payload */
		const char *blank = NULL;
		for (size_t i = 0; i + 1 < text.len; i++)
			if (text.ptr[i] == '\n' && text.ptr[i + 1] == '\n') {
				blank = text.ptr + i + 2;
				break;
			}
		const struct txc_json *parsed;
		if (blank && txc_json_parse(a, blank, (size_t)(text.ptr + text.len - blank), &parsed) == 0)
			out = parsed;
	}
	if (out != NULL) {
		const struct txc_json *meta = txc_json_get(out, "meta");
		if (txc_json_get(out, "_multimodal") != NULL && meta != NULL)
			walk(f, meta, false, false, producer, 0);
		walk(f, out, false, false, producer, 0);
	}
	if (text.len && producer)
		media_tags(f, text.ptr, text.len);
	if (text.len && b->name.ptr && txc_str_eq(b->name, "browser_vision")) {
		const char *p = text.ptr, *end = text.ptr + text.len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *le = nl ? nl : end;
			if (starts(p, (size_t)(le - p), "Screenshot path:"))
				add(f, p + 16, (size_t)(le - p - 16), "screenshot");
			p = nl ? nl + 1 : end;
		}
	}
	/* a JSON result's strings may carry MEDIA: tags of a producer too */
	if (out != NULL && producer && out->kind == TXC_JSON_OBJECT)
		for (size_t i = 0; i < out->n; i++)
			if (out->items[i]->kind == TXC_JSON_STRING)
				media_tags(f, out->items[i]->s.ptr, out->items[i]->s.len);
}

size_t txc_artifacts_find(const struct txc_transcript *t, struct txc_arena *a, struct txc_artifact **out)
{
	struct found f = {.a = a};
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		f.message = i;
		for (size_t j = 0; j < m->n_blocks; j++) {
			const struct txc_block *b = &m->blocks[j];
			f.tool = TXC_STR_NULL;
			if (m->role == TXC_ROLE_ASSISTANT && b->kind == TXC_BLOCK_TEXT) {
				assistant_text(&f, b->text.ptr, b->text.len);
			} else if (b->kind == TXC_BLOCK_TOOL_RESULT) {
				f.tool = b->name;
				tool_result(&f, a, b);
			}
		}
	}
	txc_strmap_free(&f.seen);
	*out = f.v;
	return f.n;
}
