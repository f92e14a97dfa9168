/*
 * cmd_export.c - `txc export`: the selected sessions as Hermes JSONL on stdout
 * (streamed row by row), or one file per session in a folder with a manifest,
 * rewriting only what changed, or installed for Claude Code.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

/* ---- --json: stream each session, hold no session whole ---- */

struct json_stream {
	struct txc_out *out;
	const struct txc_write_opts *w;
	size_t n_rows;
};

static int json_head(void *ctx, const struct txc_transcript *t)
{
	struct json_stream *js = ctx;
	txc_hermes_head(js->out, t, js->w);
	return 0;
}

static int json_row(void *ctx, const struct txc_json *row)
{
	struct json_stream *js = ctx;
	txc_hermes_row(js->out, row, &js->n_rows);
	return js->out->err ? TXC_E_FAIL : 0;
}

static int export_json(struct cli_stores *st, const struct cli_session *v, size_t n, struct txc_diag *d)
{
	struct txc_out out;
	txc_out_init_file(&out, stdout);
	struct txc_write_opts w = {.bulk = true};
	struct json_stream js = {&out, &w, 0};
	struct txc_row_sink sink = {json_head, json_row, &js};
	int rc = 0;
	char id[4096];
	for (size_t i = 0; i < n && rc == 0; i++) {
		js.n_rows = 0;
		snprintf(id, sizeof(id), "%.*s", (int)v[i].id.len, v[i].id.ptr);
		rc = txc_store_stream(st->v[v[i].store].s, id, TXC_LOAD_LAST_ACTIVE, &sink, d);
		if (rc == TXC_E_NOTFOUND) /* deleted while we ran: the snapshot moved on */
			rc = 0;
		else if (rc == 0) {
			txc_hermes_tail(&out);
			txc_out_maybe_flush(&out);
		}
	}
	/* a write error stops the stream (the row sink fails without a message): say so */
	if (txc_out_flush(&out) != 0 && (rc == 0 || d->msg[0] == '\0')) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write to stdout: %s", strerror(out.err));
		rc = TXC_E_FAIL;
	}
	txc_out_release(&out);
	return rc;
}

/* Every session in Hermes's order, holding only their ids. */
static int export_all_json(struct txc_store *s, struct txc_diag *d)
{
	char **ids;
	size_t n;
	int rc = txc_store_export_order(s, &ids, &n, d);
	if (rc)
		return rc;
	if (txc_store_skipped_ids(s))
		cli_say("warning: ", "skipped %zu sessions whose id is not text (NULL or binary); they cannot be read by id",
			txc_store_skipped_ids(s));
	struct cli_stores one = {&(struct cli_store_ref){.s = s}, 1};
	struct cli_session *v = txc_xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i].id = txc_str_c(ids[i]);
	rc = export_json(&one, v, n, d);
	free(v);
	txc_store_free_ids(ids, n);
	return rc;
}

/* ---- file names ---- */

/* <id>-<slug>.<ext>: ids keep [A-Za-z0-9._-] (others become '_', plus a hash so two ids
 * cannot meet), the slug is the title in lower-case ASCII words, at most 48 bytes. */
static void file_name(struct txc_buf *b, struct txc_str id, struct txc_str title, const char *ext)
{
	bool changed = id.len == 0;
	for (size_t i = 0; i < id.len && i < 96; i++) {
		char c = id.ptr[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			  c == '_' || (c == '.' && i > 0); /* no hidden files */
		txc_buf_addch(b, ok ? c : '_');
		changed |= !ok;
	}
	if (changed || id.len > 96) {
		unsigned char h[32];
		char hex[65];
		txc_sha256(id.ptr, id.len, h);
		txc_hex(hex, h, 4);
		txc_buf_addf(b, "_%s", hex);
	}
	size_t mark = b->len;
	bool dash = true;
	for (size_t i = 0; i < title.len && b->len - mark < 48; i++) {
		char c = title.ptr[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash)
				txc_buf_addch(b, '-');
			txc_buf_addch(b, c);
			dash = false;
		} else {
			dash = true;
		}
	}
	txc_buf_addf(b, ".%s", ext);
}

/* ---- the manifest ---- */

struct entry {
	char *path, *line; /* path relative to DIR; the manifest line without its newline */
	char sha[65];
	bool touched;
};

struct manifest {
	struct entry *v;
	size_t n;
};

static struct entry *manifest_find(struct manifest *m, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->v[i].path, path) == 0)
			return &m->v[i];
	return NULL;
}

static struct entry *manifest_put(struct manifest *m, const char *path)
{
	struct entry *e = manifest_find(m, path);
	if (e != NULL)
		return e;
	m->v = txc_xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
	e = &m->v[m->n++];
	memset(e, 0, sizeof(*e));
	e->path = txc_xstrdup(path);
	return e;
}

static void manifest_read(struct manifest *m, const char *file)
{
	FILE *f = fopen(file, "rb");
	if (f == NULL)
		return;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	size_t lineno = 0;
	struct txc_arena *a = txc_arena_new(0);
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		const struct txc_json *o;
		const char *path, *sha;
		if (len == 0)
			continue;
		if (txc_json_parse(a, line, (size_t)len, &o) != 0 || (path = txc_json_cstr(txc_json_get(o, "path"))) == NULL ||
		    (sha = txc_json_cstr(txc_json_get(o, "sha256"))) == NULL || strlen(sha) != 64) {
			cli_say("warning: ", "%s:%zu: not a manifest entry; it will be dropped", file, lineno);
			continue;
		}
		struct entry *e = manifest_put(m, path);
		free(e->line);
		e->line = txc_xstrdup(line);
		memcpy(e->sha, sha, 65);
	}
	free(line);
	fclose(f);
	txc_arena_free(a);
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

static int manifest_write(struct manifest *m, const char *file, struct txc_diag *d)
{
	qsort(m->v, m->n, sizeof(*m->v), cmp_entry);
	struct txc_buf b = TXC_BUF_INIT;
	for (size_t i = 0; i < m->n; i++)
		txc_buf_addf(&b, "%s\n", m->v[i].line);
	int rc = cli_write_file(file, b.buf, b.len, true, d);
	txc_buf_release(&b);
	return rc;
}

static void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].path);
		free(m->v[i].line);
	}
	free(m->v);
}

/* ---- one file per session ---- */

struct hashing_file {
	FILE *f; /* NULL in a dry run: hash only */
	struct txc_sha256 sha;
	size_t bytes;
};

static int hashing_sink(void *ctx, const char *p, size_t n)
{
	struct hashing_file *h = ctx;
	txc_sha256_update(&h->sha, p, n);
	h->bytes += n;
	if (h->f != NULL && fwrite(p, 1, n, h->f) != n)
		return -1;
	return 0;
}

static bool file_sha(const char *path, char out[65])
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	struct txc_sha256 c;
	txc_sha256_init(&c);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		txc_sha256_update(&c, buf, n);
	bool ok = !ferror(f);
	fclose(f);
	unsigned char h[32];
	txc_sha256_final(&c, h);
	txc_hex(out, h, 32);
	return ok;
}

enum outcome { NEW, UPDATED, SAME, REFUSED, FAILED, N_OUTCOMES };

struct bulk {
	const struct cli_args *a;
	const struct txc_writer_ops *ops;
	struct manifest m;
	char stamp[64];
	size_t count[N_OUTCOMES];
};

static void record(struct bulk *bk, const char *rel, const struct cli_store_ref *ref, const struct txc_transcript *t,
		   const char *sha, size_t bytes)
{
	struct entry *e = manifest_put(&bk->m, rel);
	if (e->line != NULL && strcmp(e->sha, sha) == 0) {
		e->touched = true; /* unchanged: the entry, and its exported_at, stay */
		return;
	}
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_addstr(&b, "{\"session_id\":");
	txc_json_emit_str(&b, t->meta.id.ptr, t->meta.id.len);
	if (ref->profile != NULL) {
		txc_buf_addstr(&b, ",\"profile\":");
		txc_json_emit_str(&b, ref->profile, strlen(ref->profile));
	}
	txc_buf_addstr(&b, ",\"path\":");
	txc_json_emit_str(&b, rel, strlen(rel));
	txc_buf_addf(&b, ",\"format\":\"%s\",\"messages\":%zu,\"bytes\":%zu,\"sha256\":\"%s\",\"exported_at\":\"%s\"}",
		     bk->ops->name, t->n_active_rows, bytes, sha, bk->stamp);
	free(e->line);
	e->line = txc_buf_detach(&b, NULL);
	memcpy(e->sha, sha, 65);
	e->touched = true;
}

static enum outcome write_one(struct bulk *bk, const struct cli_store_ref *ref, const struct txc_transcript *t,
			      const char *rel, struct txc_diag *d)
{
	const struct cli_args *a = bk->a;
	struct txc_buf path = TXC_BUF_INIT;
	txc_buf_addf(&path, "%s/%s", a->out_dir, rel);
	char *slash = strrchr(path.buf, '/');
	*slash = '\0';
	if (!a->dry_run && cli_mkdirs(path.buf, d) != 0) {
		txc_buf_release(&path);
		return FAILED;
	}
	*slash = '/';
	struct txc_write_opts w = a->w;
	struct cli_assets assets;
	cli_assets_init(&assets, path.buf);
	w.assets = &assets.sink;
	if (w.images == TXC_IMAGES_AUTO)
		w.images = TXC_IMAGES_FILES;
	struct hashing_file hf = {0};
	txc_sha256_init(&hf.sha);
	struct cli_atomic tmp = {0};
	enum outcome oc = FAILED;
	if (!a->dry_run && cli_atomic_open(&tmp, path.buf, true, d) != 0)
		goto done;
	hf.f = tmp.f;
	struct txc_out out;
	txc_buf_init(&out.buf);
	out.sink = hashing_sink, out.ctx = &hf, out.err = 0;
	int rc = bk->ops->write(&out, t, &w, d);
	if (rc == 0 && txc_out_flush(&out) != 0)
		rc = TXC_E_FAIL, txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", path.buf, strerror(out.err));
	txc_out_release(&out);
	if (rc != 0)
		goto done;
	unsigned char h[32];
	char sha[65], old[65];
	txc_sha256_final(&hf.sha, h);
	txc_hex(sha, h, 32);
	struct stat sb;
	struct entry *e = manifest_find(&bk->m, rel);
	if (lstat(path.buf, &sb) != 0) {
		oc = NEW;
	} else {
		bool have_old = file_sha(path.buf, old);
		if (have_old && strcmp(old, sha) == 0)
			oc = SAME;
		else if (a->force || (e != NULL && have_old && strcmp(old, e->sha) == 0))
			oc = UPDATED; /* ours, as we left it: the session changed */
		else {
			txc_diag_set(d, TXC_E_FAIL, "'%s' exists and is not as txc wrote it; pass --force to overwrite it",
				     path.buf);
			oc = REFUSED;
		}
	}
	if (a->dry_run) {
		static const char *const verb[] = {"new", "update", "same", "refuse"};
		struct txc_buf line = TXC_BUF_INIT;
		cli_safe_text(&line, path.buf, path.len, true);
		printf("%-6s %s\n", verb[oc], line.buf);
		txc_buf_release(&line);
		if (oc != REFUSED)
			record(bk, rel, ref, t, sha, hf.bytes);
		goto done;
	}
	if (oc == SAME || oc == REFUSED) {
		cli_atomic_abort(&tmp);
		if (oc == SAME)
			record(bk, rel, ref, t, sha, hf.bytes);
		goto done;
	}
	tmp.force = oc != NEW; /* a new file is linked: one that appeared meanwhile is not replaced */
	if (cli_assets_write(&assets, true, d) != 0 || cli_atomic_commit(&tmp, d) != 0) {
		oc = FAILED;
		goto done;
	}
	record(bk, rel, ref, t, sha, hf.bytes);
done:
	if (tmp.f != NULL)
		cli_atomic_abort(&tmp);
	cli_assets_release(&assets);
	txc_buf_release(&path);
	return oc;
}

static void progress(size_t done, size_t total, double t0, bool tty)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double el = (double)ts.tv_sec + ts.tv_nsec / 1e9 - t0;
	double rate = el > 0 ? done / el : 0;
	if (tty) {
		int width = 30, fill = total ? (int)(width * done / total) : width;
		fprintf(stderr, "\r[%.*s%*s] %zu/%zu sessions  %.1f/s", fill, "##############################", width - fill,
			"", done, total, rate);
		if (done == total)
			fputc('\n', stderr);
	} else if (total && (done == total || done * 10 / total != (done - 1) * 10 / total)) {
		fprintf(stderr, "txc: %zu/%zu sessions (%.1f/s)\n", done, total, rate);
	}
	fflush(stderr);
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int export_files(const struct cli_args *a, struct cli_stores *st, const struct cli_session *v, size_t n,
			struct txc_diag *d)
{
	struct bulk bk = {.a = a, .ops = txc_writer_lookup(a->to)};
	char *manifest = NULL;
	if (a->out_dir != NULL) {
		if (!a->dry_run && cli_mkdirs(a->out_dir, d) != 0)
			return d->code;
		struct txc_buf mp = TXC_BUF_INIT;
		txc_buf_addf(&mp, "%s/manifest.jsonl", a->out_dir);
		manifest = txc_buf_detach(&mp, NULL);
		manifest_read(&bk.m, manifest);
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	txc_time_iso_ms(bk.stamp, (double)now.tv_sec + now.tv_nsec / 1e9);
	bool tty = isatty(STDERR_FILENO), show = tty || a->progress;
	double t0 = mono_now();
	int rc = 0;
	char id[4096];
	for (size_t i = 0; i < n; i++) {
		const struct cli_store_ref *ref = &st->v[v[i].store];
		struct txc_transcript *t;
		struct txc_diag d1 = {0};
		snprintf(id, sizeof(id), "%.*s", (int)v[i].id.len, v[i].id.ptr);
		unsigned lf = (a->w.include_compacted ? TXC_LOAD_COMPACTED : 0) |
			      (bk.ops != &txc_writer_hermes ? TXC_LOAD_MODEL_ONLY : 0);
		int lr = txc_store_load(ref->s, id, lf, &t, &d1);
		if (lr == TXC_E_NOTFOUND)
			continue; /* deleted while we ran */
		enum outcome oc;
		if (lr != 0) {
			oc = FAILED;
		} else if (a->install && a->out_dir == NULL) {
			struct txc_write_opts w = a->w;
			oc = a->dry_run ? NEW : cli_install_claude(a, t, &w, true) == 0 ? NEW : FAILED;
			if (a->dry_run)
				printf("install %s\n", id);
			txc_transcript_free(t);
		} else {
			struct txc_buf rel = TXC_BUF_INIT;
			if (st->n > 1 || (ref->profile != NULL && strcmp(ref->profile, "default") != 0))
				txc_buf_addf(&rel, "%s/", ref->profile);
			file_name(&rel, v[i].id, v[i].title, bk.ops->ext);
			oc = write_one(&bk, ref, t, rel.buf, &d1);
			if (oc != FAILED && oc != REFUSED && a->install && !a->dry_run) {
				struct txc_write_opts w = a->w;
				if (cli_install_claude(a, t, &w, true) != 0)
					oc = FAILED;
			}
			txc_buf_release(&rel);
			txc_transcript_free(t);
		}
		bk.count[oc]++;
		if (oc == FAILED || oc == REFUSED) {
			if (show && tty)
				fputc('\n', stderr);
			if (d1.msg[0])
				cli_say(oc == REFUSED ? "warning: " : "error: ", "%s", d1.msg);
			rc = TXC_E_FAIL;
		}
		if (show)
			progress(i + 1, n, t0, tty);
	}
	if (manifest != NULL && !a->dry_run && (bk.count[NEW] + bk.count[UPDATED] + bk.count[SAME] > 0 || bk.m.n > 0)) {
		struct txc_diag d2 = {0};
		if (manifest_write(&bk.m, manifest, &d2) != 0) {
			cli_say("error: ", "%s", d2.msg);
			rc = TXC_E_FAIL;
		}
	}
	if (show || bk.count[REFUSED] || bk.count[FAILED])
		fprintf(stderr, "txc: %s %zu sessions%s%s: %zu new, %zu updated, %zu unchanged%s (%.2f s)\n",
			a->dry_run ? "would export" : "exported", n, a->out_dir ? " to " : "", a->out_dir ? a->out_dir : "",
			bk.count[NEW], bk.count[UPDATED], bk.count[SAME],
			bk.count[REFUSED] || bk.count[FAILED] ? ", some refused or failed (see above)" : "",
			mono_now() - t0);
	free(manifest);
	manifest_free(&bk.m);
	if (rc)
		txc_diag_set(d, TXC_E_FAIL, "some sessions were not exported (see above)");
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct cli_args a;
	int rc = cli_begin(CMD_EXPORT, argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.n_pos)
		return cli_usage(CMD_EXPORT, "unexpected argument '%s' (export selects with --since, --title, ...)",
				 a.pos[0]);
	if (a.json && (a.to || a.out_dir || a.install))
		return cli_usage(CMD_EXPORT, "--json prints to stdout; it does not combine with --to, --out or --install");
	if (!a.json && a.to == NULL)
		return cli_usage(CMD_EXPORT, "missing --json or --to FORMAT --out DIR");
	if (a.to != NULL && txc_writer_lookup(a.to) == NULL)
		return cli_usage(CMD_EXPORT, "unknown format '%s' (claude, hermes or markdown)", a.to);
	if (a.install && strcmp(a.to, "claude") != 0)
		return cli_usage(CMD_EXPORT, "--install works with --to claude only");
	if (a.to != NULL && a.out_dir == NULL && !a.install)
		return cli_usage(CMD_EXPORT, "missing --out DIR (or --install with --to claude)");
	if (a.json && (a.dry_run || a.force))
		return cli_usage(CMD_EXPORT, "--dry-run and --force apply to --out DIR");

	struct txc_diag d = {0};
	struct cli_stores st;
	rc = cli_stores_open(&a, &st, &d);
	if (rc) {
		cli_stores_close(&st);
		return cli_fail(&d);
	}
	struct txc_arena *arena = txc_arena_new(0);
	struct cli_session *v = NULL;
	size_t n = 0, more = 0;
	const struct cli_select *sel = &a.sel;
	bool everything = !(sel->since_arg || sel->until_arg || sel->source || sel->model || sel->cwd || sel->title ||
			    sel->limit || sel->order_set);
	if (a.json && everything && st.n == 1)
		rc = export_all_json(st.v[0].s, &d); /* the common case, in memory flat whatever the store's size */
	else if ((rc = cli_select_sessions(&a, CMD_EXPORT, &st, arena, &v, &n, &more, &d)) == 0)
		rc = a.json ? export_json(&st, v, n, &d) : export_files(&a, &st, v, n, &d);
	free(v);
	txc_arena_free(arena);
	cli_stores_close(&st);
	return rc ? cli_fail(&d) : 0;
}
