/*
 * plan.c - what a run does with each session before any file is written: its file's name, the
 * render key (what shapes the file besides its rows), whether it is up to date (its rows, the
 * key and the file on disk as when txc wrote it: not even rendered), and its manifest line.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive_int.h"
#include "txc/json.h"
#include "txc/model_hermes.h" /* a Hermes session counts its active rows (facts_of) */

/* ---- file names ---- */

/*
 * The letters of Latin-1 and Latin Extended-A (U+00C0..U+017F) as the lower-case ASCII they are
 * spelt with: '1' ae, '2' th, '3' ss, '4' ij, '5' oe; '_' a sign, not a letter (x, /).
 */
static const char latin_base[] = "aaaaaa1ceeeeiiiidnooooo_ouuuuy23aaaaaa1ceeeeiiiidnooooo_ouuuuy2y"
				 "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii44jjkkklllllll"
				 "lllnnnnnnnnnoooooo55rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

/*
 * Whether cp is a letter of a script kept as it is in a name (Greek, Cyrillic, Armenian, Hebrew,
 * Arabic, the Indic scripts, Thai, Hangul, kana, CJK): a fixed table, never the locale's, so that
 * a name is the same on every machine.  Upper-case Greek and Cyrillic come back lower-case.
 */
static uint32_t kept_letter(uint32_t cp)
{
	if ((cp >= 0x391 && cp <= 0x3A9) || (cp >= 0x410 && cp <= 0x42F))
		return cp + 0x20;
	if (cp >= 0x400 && cp <= 0x40F)
		return cp + 0x50;
	static const uint32_t ranges[][2] = {
		{0x3AC, 0x3FF},   {0x430, 0x481},   {0x48A, 0x52F},   {0x531, 0x556},   {0x561, 0x587},
		{0x5D0, 0x5EA},   {0x620, 0x64A},   {0x671, 0x6D3},   {0x904, 0x939},   {0x980, 0xDFF},
		{0xE01, 0xE30},   {0x1100, 0x11FF}, {0x3041, 0x3096}, {0x30A1, 0x30FA}, {0x30FC, 0x30FF},
		{0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3},
	};
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return cp;
	return 0;
}

/*
 * The slug: the title's words, lower-case, joined by '-', at most about 48 bytes.  ASCII letters
 * and digits are kept; Latin letters with marks become their ASCII letters (ünïcode: unicode),
 * and a combining mark is skipped inside its word, so a title in NFD (as macOS spells names)
 * gives the same slug as in NFC; the letters of other scripts are kept as UTF-8.  Everything else
 * separates words.
 */
static void slug_add(struct txc_buf *b, struct txc_str title)
{
	static const char *const pairs[] = {"ae", "th", "ss", "ij", "oe"};
	size_t mark = b->len;
	bool dash = true;
	for (size_t i = 0; i < title.len && b->len - mark < 48;) {
		uint32_t cp = (unsigned char)title.ptr[i];
		size_t n = cp < 0x80 ? 1 : txc_utf8_seq((const unsigned char *)title.ptr + i, title.len - i, &cp);
		i += n ? n : 1;
		if (n == 0 || (cp >= 0x300 && cp <= 0x36F)) {
			dash |= n == 0; /* a mark stays inside its word; a bad byte separates */
			continue;
		}
		char one[2] = {0};
		const char *spell = NULL;
		uint32_t keep = 0;
		if (cp < 0x80 && ((cp | 0x20) - 'a' < 26 || cp - '0' < 10))
			one[0] = (char)(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp), spell = one;
		else if (cp >= 0xC0 && cp <= 0x17F && latin_base[cp - 0xC0] >= 'a')
			one[0] = latin_base[cp - 0xC0], spell = one;
		else if (cp >= 0xC0 && cp <= 0x17F && latin_base[cp - 0xC0] != '_')
			spell = pairs[latin_base[cp - 0xC0] - '1'];
		else
			keep = kept_letter(cp);
		if (spell == NULL && keep == 0) {
			dash = true;
			continue;
		}
		if (dash)
			txc_buf_addch(b, '-');
		dash = false;
		if (spell == one) /* (most letters: not a call per letter) */
			txc_buf_addch(b, one[0]);
		else if (spell != NULL)
			txc_buf_addstr(b, spell);
		else
			txc_utf8_put(b, keep);
	}
}

/* <id>-<slug>.<ext>: ids keep [A-Za-z0-9._-] (others become '_', plus a hash so two ids
 * cannot meet; an id that is not text always has the hash of its kind and text, so that
 * 1 and "1" differ), then the slug of the title (slug_add). */
static void name_as(struct txc_buf *b, const struct txc_sid *sid, struct txc_str title, const char *ext, bool hashed)
{
	struct txc_str id = sid->text;
	bool changed = hashed || id.len == 0 || sid->kind != TXC_ID_TEXT;
	for (size_t i = 0; i < id.len && i < 96; i++) {
		char c = id.ptr[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
			  ((c == '.' || c == '-') && i > 0); /* no hidden files, no names read as options */
		txc_buf_addch(b, ok ? c : '_');
		changed |= !ok;
	}
	if (changed || id.len > 96) {
		unsigned char h[32];
		char hex[65];
		struct txc_buf key = TXC_BUF_INIT;
		txc_model_id_key(&key, sid->kind, id);
		txc_sha256(key.buf, key.len, h);
		txc_buf_release(&key);
		txc_hex(hex, h, 4);
		txc_buf_addf(b, "_%s", hex);
	}
	slug_add(b, title);
	txc_buf_addch(b, '.');
	txc_buf_addstr(b, ext);
}

/* Whether name is one of txc's own in DIR: the manifest, the index page, a temporary file or the
 * run's mark (".txc-"), an image folder (never a session's: name_as() makes neither of the last
 * two, said here so that it never will). */
static bool reserved_name(const char *name, size_t len)
{
	static const char *const own[] = {"manifest.jsonl", "index.html"};
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (len == strlen(own[i]) && memcmp(name, own[i], len) == 0)
			return true;
	return (len >= 5 && memcmp(name, ".txc-", 5) == 0) || (len >= 7 && memcmp(name + len - 7, ".assets", 7) == 0);
}

/* A session's file name; one that would be txc's own file (a session "manifest" as Claude Code
 * JSONL, "index" as HTML) gets the id's hash too: another name, the same on every run. */
void plan_file_name(struct txc_buf *b, const struct txc_sid *sid, struct txc_str title, const char *ext)
{
	size_t start = b->len;
	name_as(b, sid, title, ext, false);
	if (reserved_name(b->buf + start, b->len - start)) {
		txc_buf_truncate(b, start);
		name_as(b, sid, title, ext, true);
	}
}

static void assets_json(struct txc_buf *b, const struct asset_rec *v, size_t n)
{
	if (n == 0)
		return;
	txc_buf_addstr(b, ",\"assets\":[");
	for (size_t i = 0; i < n; i++) {
		txc_buf_addstr(b, i ? ",{\"path\":" : "{\"path\":");
		txc_json_emit_str(b, v[i].path, strlen(v[i].path));
		txc_buf_addf(b, ",\"sha256\":\"%s\"}", v[i].sha);
	}
	txc_buf_addch(b, ']');
}

static bool same_assets(const struct entry *e, const struct asset_rec *v, size_t n)
{
	if (e->n_assets != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(e->assets[i].path, v[i].path) != 0 || strcmp(e->assets[i].sha, v[i].sha) != 0)
			return false;
	return true;
}

/* An untitled session's first user text on one line, at most 60 characters (as `hermes sessions
 * list` previews it): what the index shows in place of a bare id.  Bytes cleaned by the writer. */
static void preview_of(struct txc_buf *b, const struct txc_transcript *t)
{
	for (size_t i = 0; i < t->n_messages; i++) {
		const struct txc_message *m = &t->messages[i];
		for (size_t k = 0; m->role == TXC_ROLE_USER && !m->compacted && k < m->n_blocks; k++) {
			const struct txc_block *blk = &m->blocks[k];
			if (blk->kind != TXC_BLOCK_TEXT || blk->replayed || blk->text.len == 0)
				continue;
			const unsigned char *p = (const unsigned char *)blk->text.ptr;
			size_t chars = 0, j = 0;
			bool space = false;
			for (; j < blk->text.len && chars < 60; chars++) {
				uint32_t cp;
				size_t n = txc_utf8_seq(p + j, blk->text.len - j, &cp);
				if (n == 0)
					n = 1; /* (a stray byte: the writer shows it as U+FFFD) */
				if (p[j] == ' ' || p[j] == '\n' || p[j] == '\t' || p[j] == '\r') {
					space = b->len > 0;
					chars -= 1;
				} else {
					if (space)
						txc_buf_addch(b, ' ');
					space = false;
					txc_buf_add(b, (const char *)p + j, n);
				}
				j += n;
			}
			if (j < blk->text.len)
				txc_buf_addstr(b, "…");
			if (b->len > 0)
				return;
		}
	}
}

/* What a writer's index page shows of a session (the manifest keeps it for the next run's index). */
static void page_facts(struct txc_buf *b, const struct txc_transcript *t, struct txc_str listed)
{
	static const char *const keys[] = {"title", "source", "model"};
	const struct txc_str v[] = {t->meta.title, t->meta.source, t->meta.model};
	for (size_t i = 0; i < 3; i++) {
		if (v[i].ptr == NULL)
			continue;
		txc_buf_addf(b, ",\"%s\":", keys[i]);
		txc_json_emit_str(b, v[i].ptr, v[i].len);
	}
	if (t->meta.title.ptr == NULL) {
		struct txc_buf pv = TXC_BUF_INIT;
		if (listed.ptr != NULL) /* the listing's (the links predicted before rendering name it so) */
			txc_buf_add(&pv, listed.ptr, listed.len);
		else
			preview_of(&pv, t);
		if (pv.len) {
			txc_buf_addstr(b, ",\"preview\":");
			txc_json_emit_str(b, pv.buf, pv.len);
		}
		txc_buf_release(&pv);
	}
	char iso[64];
	if (t->meta.started_at != 0 && txc_time_iso_ms(iso, t->meta.started_at))
		txc_buf_addf(b, ",\"started\":\"%s\"", iso);
	if (t->meta.has_cost) {
		txc_buf_addstr(b, ",\"cost_usd\":");
		txc_json_emit_real(b, t->meta.cost_usd);
	}
}

/* How a file and its images lie on disk (device, inode, size, mtime, ctime: an edit, a touch, a
 * chmod or a replacement changes it): 32 hex digits, false when one is missing or not a file. */
bool file_stat_sig(const struct arun *r, const char *rel, const struct asset_rec *av, size_t an, char out[33])
{
	uint64_t h[2] = {0x243F6A8885A308D3u, 0x13198A2E03707344u}; /* not SHA-256: 8% of a re-run */
	bool ok = true;
	for (size_t i = 0; i <= an && ok; i++) {
		struct stat sb;
		/* relative to DIR's descriptor: the kernel walks DIR's path once, not once per file (a dry
		 * run's DIR that could not be opened, one its user may search but not list: by its path) */
		const char *rp = i ? av[i - 1].path : rel;
		struct txc_buf p = TXC_BUF_INIT;
		if (r->dir_fd < 0)
			txc_buf_addf(&p, "%s/%s", r->o->dir, rp);
		ok = rp[0] != '/' && fstatat(r->dir_fd, p.len ? p.buf : rp, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		     S_ISREG(sb.st_mode);
		txc_buf_release(&p);
		int64_t f[7] = {(int64_t)sb.st_dev,         (int64_t)sb.st_ino,          (int64_t)sb.st_size,
				(int64_t)sb.st_mtim.tv_sec, (int64_t)sb.st_mtim.tv_nsec, (int64_t)sb.st_ctim.tv_sec,
				(int64_t)sb.st_ctim.tv_nsec};
		for (size_t k = 0; ok && k < 7; k++) {
			h[0] = (h[0] ^ (uint64_t)f[k]) * 0x9E3779B97F4A7C15u;
			h[0] ^= h[0] >> 29;
			h[1] = (h[1] + (uint64_t)f[k]) * 0xC2B2AE3D27D4EB4Fu;
			h[1] ^= h[1] >> 31;
		}
	}
	unsigned char be[16]; /* "%016llx%016llx" without snprintf (a tenth of its cost; once per session) */
	for (int k = 0; k < 8; k++) {
		be[k] = (unsigned char)(h[0] >> (56 - 8 * k));
		be[8 + k] = (unsigned char)(h[1] >> (56 - 8 * k));
	}
	txc_hex(out, be, 16);
	return ok;
}

/* What shapes a session's file besides its rows: txc's version, the writer, the rows it loads,
 * the write options, the profile's scope and (for local times) the time zone; 32 hex digits. */
void render_key(struct arun *r, const struct txc_archive_item *it, char out[33])
{
	const struct txc_write_opts *w = r->o->w;
	if (r->key_of == it->group && r->key_of != NULL) { /* the same for every session of a store */
		memcpy(out, r->key, 33);
		return;
	}
	struct txc_str scope = it->scope;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addf(&b, "txc %s\n%s\n%u\n%d %d %ld %d %d %d\n%zu:", r->o->version, r->o->writer->name,
		     r->o->load_flags, (int)w->reasoning, (int)w->detail, w->max_output_lines,
		     (int)w->include_compacted, (int)w->utc, (int)w->images, w->cwd.len);
	txc_buf_add(&b, w->cwd.ptr ? w->cwd.ptr : "", w->cwd.len);
	txc_buf_addf(&b, "\n%zu:", scope.len);
	txc_buf_add(&b, scope.ptr ? scope.ptr : "", scope.len);
	txc_buf_addf(&b, "\n%s\n%d", w->utc ? "" : r->tz, (int)r->o->redact);
	if (r->o->writer->opts & TXC_WOPT_HERMES_FORMAT) /* only there: other formats keep their keys */
		txc_buf_addf(&b, "\nhermes-format %d", (int)w->hermes_format);
	if (r->o->key_extra != NULL)
		txc_buf_addf(&b, "\n%s", r->o->key_extra);
	if (w->nav) /* (only then: other formats keep their keys) */
		txc_buf_addstr(&b, "\nnav 1");
	unsigned char h[32];
	txc_sha256(b.buf, b.len, h);
	txc_hex(out, h, 16);
	txc_buf_release(&b);
	r->key_of = it->group;
	memcpy(r->key, out, 33);
}

/* The local time zone as the C library finds it: $TZ, else what /etc/localtime names. */
char *local_tz(void)
{
	const char *tz = getenv("TZ");
	char *lt = realpath("/etc/localtime", NULL);
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addf(&b, "%s%s\n%s", tz ? "TZ=" : "", tz ? tz : "", lt ? lt : "");
	free(lt);
	return txc_buf_detach(&b, NULL);
}

void facts_of(struct facts *f, const struct txc_writer_ops *w, const struct txc_transcript *t, struct txc_str listed)
{
	f->id_len = t->meta.id.len;
	f->id = txc_xmalloc(f->id_len + 1);
	if (f->id_len)
		memcpy(f->id, t->meta.id.ptr, f->id_len);
	f->id[f->id_len] = '\0';
	f->kind = (int)t->meta.id_kind;
	f->messages = t->native ? t->native->n_active_rows : t->n_messages;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "");
	if (w->index != NULL)
		page_facts(&b, t, listed);
	f->page = txc_buf_detach(&b, NULL);
}

void facts_free(struct facts *f)
{
	free(f->id);
	free(f->page);
	memset(f, 0, sizeof(*f));
}

/* The manifest line of a file written or found unchanged; takes the asset list. */
void record(struct arun *r, const char *rel, const struct txc_archive_item *it, const struct facts *t, const char *sha,
	    size_t bytes, struct asset_rec *av, size_t an, const struct entry *nav)
{
	char base[65] = "", links[33] = ""; /* nav: the entry whose filled slots stay (finish_one) */
	if (nav != NULL) {
		memcpy(base, nav->base, sizeof(base));
		memcpy(links, nav->links, sizeof(links));
	}
	struct entry *e = manifest_put(&r->m, rel);
	e->touched = true;
	/* the same bytes: the entry and its exported_at stay; its fingerprints are brought up to date */
	bool same = e->line != NULL && strcmp(e->sha, sha) == 0 && same_assets(e, av, an);
	char fst[33] = "";
	if (!r->o->dry_run && !file_stat_sig(r, rel, av, an, fst))
		fst[0] = '\0';
	const char *stamp = same && e->exported_at != NULL ? e->exported_at : r->stamp;
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "{\"session_id\":");
	txc_json_emit_str(&b, t->id, t->id_len);
	if (t->kind != TXC_ID_TEXT) /* session_id is the identity text; this says what it stands for */
		txc_buf_addf(&b, ",\"id_kind\":\"%s\"", txc_model_id_kind_name((enum txc_id_kind)t->kind));
	if (it->profile != NULL) {
		txc_buf_addstr(&b, ",\"profile\":");
		txc_json_emit_str(&b, it->profile, strlen(it->profile));
	}
	txc_buf_addstr(&b, ",\"path\":");
	txc_json_emit_str(&b, rel, strlen(rel));
	txc_buf_addf(&b, ",\"format\":\"%s\",\"messages\":%zu,\"bytes\":%zu,\"sha256\":\"%s\",\"exported_at\":\"%s\"",
		     r->o->writer->name, t->messages, bytes, sha, stamp);
	if (r->cur_fp.len && fst[0]) /* hex digits from the reader: nothing to escape */
		txc_buf_addf(&b, ",\"source_fingerprint\":\"%.*s\",\"render_key\":\"%s\",\"file_stat\":\"%s\"",
			     (int)r->cur_fp.len, r->cur_fp.ptr, r->cur_render, fst);
	assets_json(&b, av, an);
	txc_buf_addstr(&b, t->page);
	if (base[0]) /* last: nav.c rewrites them in place */
		txc_buf_addf(&b, NAV_FIELDS "%s\",\"links\":\"%s\"", base, links);
	txc_buf_addch(&b, '}');
	if (same && strcmp(b.buf, e->line) == 0) {
		free_assets(av, an);
		txc_buf_release(&b);
		return;
	}
	struct manifest *m = &r->m;
	entry_clear(e);
	e->exported_at = mstr_c(m, stamp); /* (the old one stays in the arena: it may be stamp) */
	if (r->cur_fp.len && fst[0]) {
		e->source_fp = mstr(m, r->cur_fp.ptr, r->cur_fp.len);
		e->render = mstr_c(m, r->cur_render);
		e->fstat = mstr_c(m, fst);
	}
	e->line = mstr(m, b.buf, b.len);
	txc_buf_release(&b);
	e->session = mstr(m, t->id, t->id_len);
	e->session_len = t->id_len;
	eindex_put(&m->by_session, m, (size_t)(e - m->v), true);
	e->profile = mstr_c(m, it->profile);
	e->format = mstr_c(m, r->o->writer->name);
	memcpy(e->sha, sha, 65);
	e->bytes = bytes;
	memcpy(e->base, base, sizeof(base));
	memcpy(e->links, links, sizeof(links));
	e->assets = av;
	e->n_assets = an;
	if (!r->o->dry_run) {
		manifest_journal_add(&r->m, e->line);
		test_kill(r, "journal");
	}
}

/* A session whose rows, writer and options are as when txc wrote its file, which lies as txc left
 * it (and its images too): nothing to render, the entry stays.  Anything else is rendered and
 * checked as always (a file someone changed is refused, one removed is restored). */
bool up_to_date(struct arun *r, const struct txc_archive_item *it, const char *rel)
{
	struct txc_str fp = it->fingerprint, id = it->id.text;
	struct entry *e = manifest_find(&r->m, rel);
	char now[33];
	if (fp.len == 0 || e == NULL || e->source_fp == NULL || e->render == NULL || e->fstat == NULL ||
	    e->session == NULL || e->session_len != id.len || memcmp(e->session, id.ptr ? id.ptr : "", id.len) != 0 ||
	    !opt_eq(e->profile, it->profile) || !opt_eq(e->format, r->o->writer->name) ||
	    strlen(e->source_fp) != fp.len || memcmp(e->source_fp, fp.ptr, fp.len) != 0 ||
	    strcmp(e->render, r->cur_render) != 0)
		return false;
	if (!file_stat_sig(r, rel, e->assets, e->n_assets, now) || strcmp(now, e->fstat) != 0)
		return false;
	e->touched = true;
	return true;
}
