/*
 * cmd_export.c - `txc export`: the selected sessions as Hermes JSONL on stdout
 * (streamed row by row), or one file per session in a folder with a manifest,
 * rewriting only what changed, or installed for Claude Code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "files.h"
#include "txc/archive.h"
#include "txc/model_hermes.h"
#include "txc/redact.h"
#include "txc/writer_hermes.h"

/* ---- --json: stream each session, hold no session whole ---- */

struct json_stream {
	struct txc_out *out;
	const struct txc_write_opts *w;
	struct txc_stream_state st;
	const char *profile; /* --all-profiles: "profile" goes before "messages", as list --json has it last */
};

static int json_head(void *ctx, const struct txc_transcript *t)
{
	struct json_stream *js = ctx;
	txc_writer_hermes.stream->head(js->out, t, js->w, &js->st);
	static const char tail[] = "\"messages\": [";
	struct txc_buf *b = &js->out->buf;
	size_t tl = sizeof(tail) - 1;
	if (js->profile != NULL && b->len >= tl && memcmp(b->buf + b->len - tl, tail, tl) == 0) {
		b->len -= tl;
		txc_buf_addstr(b, "\"profile\": ");
		txc_json_emit_str(b, js->profile, strlen(js->profile));
		txc_buf_addstr(b, ", ");
		txc_buf_add(b, tail, tl);
	}
	return 0;
}

static int json_row(void *ctx, const struct txc_json *row)
{
	struct json_stream *js = ctx;
	txc_writer_hermes.stream->row(js->out, row, &js->st);
	return js->out->err ? TXC_E_FAIL : 0;
}

/* One session as the pipeline assembles it: --lineage, --children and --redact as convert has them. */
static int export_assemble(const struct cli_args *a, struct txc_store *s, const struct txc_sid *id, unsigned lf,
			   struct txc_transcript **t, struct txc_diag *d)
{
	struct txc_convert_req req;
	cli_convert_req(a, lf, id, &req);
	req.asked = NULL;    /* (a->pos are the selection's words, not this session) */
	req.on_chain = NULL; /* said once per file before the run (cli_lineage_fold) */
	return txc_assemble(s, &req, t, d);
}

/* A harness without rows: its model loaded, redacted, and its rows made by the Hermes writer (hermes_rows.c);
 * the whole line, tail too, is written there */
static int json_from_model(const struct cli_args *a, struct txc_store *s, const struct txc_sid *id, struct txc_out *out,
			   const struct txc_write_opts *w, struct txc_diag *d)
{
	struct txc_transcript *t;
	int rc = export_assemble(a, s, id, TXC_LOAD_LAST_ACTIVE, &t, d);
	if (rc)
		return rc;
	rc = txc_writer_hermes.write(out, t, w, d);
	txc_transcript_free(t);
	return rc;
}

static int export_json(const struct cli_args *a, struct cli_stores *st, const struct cli_session *v, size_t n,
		       bool profiles, struct txc_diag *d)
{
	struct txc_out out;
	struct cli_tty tty;
	cli_out_stdout(&out, &tty); /* on a terminal, through the same filter as all transcript text */
	struct txc_write_opts w = {.bulk = true, .hermes_format = a->w.hermes_format};
	struct json_stream js = {&out, &w, {0}, NULL};
	struct txc_row_sink sink = {json_head, json_row, &js};
	struct txc_redact_sink rs;
	const struct txc_row_sink *use = txc_convert_redact_sink(&rs, a->redact, &sink);
	int rc = 0;
	size_t lost = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		js.st = (struct txc_stream_state){0};
		js.profile = profiles ? st->v[v[i].store].profile : NULL;
		struct txc_diag d1 = {0};
		struct txc_store *s = st->v[v[i].store].s;
		bool rowless = !txc_store_has_rows(s);
		if (rowless)
			rc = json_from_model(a, s, &v[i].id, &out, &w, &d1);
		else
			rc = txc_store_stream(s, &v[i].id, TXC_LOAD_LAST_ACTIVE, use, &d1);
		if (rc == TXC_E_NOTFOUND) { /* deleted while we ran: said, and the run fails */
			cli_warn("%s; not exported", d1.msg);
			lost++;
			rc = 0;
		} else if (rc != 0) {
			*d = d1;
		} else {
			if (!rowless)
				txc_writer_hermes.stream->tail(&out, &js.st);
			txc_out_maybe_flush(&out);
		}
		txc_writer_hermes.stream->release(&js.st);
	}
	/* a failed write stops the stream with rc set and no message: say it here, with its errno */
	if ((cli_out_finish(&out) != 0 || out.err) && (rc == 0 || d->msg[0] == '\0')) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write to stdout: %s", strerror(out.err));
		rc = TXC_E_FAIL;
	}
	txc_out_release(&out);
	txc_convert_redact_sink_release(&rs);
	if (rc == 0 && lost) {
		txc_diag_set(d, TXC_E_FAIL, "%zu session%s could not be exported (see above)", lost,
			     lost == 1 ? "" : "s");
		rc = TXC_E_FAIL;
	}
	return rc;
}

/* Every session in Hermes's order, holding only their ids. */
static int export_all_json(const struct cli_args *a, struct txc_store *s, struct txc_diag *d)
{
	struct txc_sid *ids;
	size_t n, no_id = 0;
	int rc = txc_store_export_order(s, &ids, &n, d);
	if (rc)
		return rc;
	struct cli_stores one = {.v = &(struct cli_store_ref){.s = s}, .n = 1};
	struct cli_session *v = txc_xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		v[i].id = ids[i];
		no_id += ids[i].kind == TXC_ID_NONE;
	}
	if (no_id) /* exported as they are ("id": null); elsewhere they are named no-id~N */
		cli_warn("%zu session%s no id (NULL or empty)", no_id, no_id == 1 ? " has" : "s have");
	rc = export_json(a, &one, v, n, false, d);
	free(v);
	txc_store_free_ids(ids, n);
	return rc;
}

/* ---- --out DIR: the archive (src/archive) keeps the folder; this says what happened ---- */

/* One export run as the CLI sees it: the callbacks' context. */
struct export_run {
	const struct cli_args *a;
	const struct txc_writer_ops *ops;
	struct cli_stores *st; /* the run's stores (a worker's own, in a worker) */
	struct cli_stores own; /* a worker's */
	size_t n_stores;
	const struct cli_session *v;
	size_t n;
	struct txc_transcript *cur; /* the session rendered here, until released */
	int worker_rc;              /* a worker whose stores could not be opened: every session fails so */
	struct txc_diag worker_d;
	bool in_worker;
	struct cli_secrets secrets; /* likely secrets in what was written without --redact */
	int res;                    /* the last install's result */
	bool hard;                  /* a refusal of exit status 4: a source, or a session continued in Claude Code */
	size_t done;
	bool tty, show;
	double t0;
};

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* after session done of total (1 <= done <= total) */
static void progress(size_t done, size_t total, double t0, bool tty)
{
	double el = mono_now() - t0;
	double rate = el > 0 ? done / el : 0;
	if (tty) {
		int width = 30, fill = (int)(width * done / total);
		fprintf(stderr, "\r[%.*s%*s] %zu/%zu sessions  %.1f/s", fill, "##############################",
			width - fill, "", done, total, rate);
		if (done == total)
			fputc('\n', stderr);
	} else if (done == total || done * 10 / total != (done - 1) * 10 / total) {
		fprintf(stderr, "txc: %zu/%zu sessions (%.1f/s)\n", done, total, rate);
	}
	fflush(stderr);
}

/*
 * The one conversion of a session, for the archive's render callback here and in a -j worker:
 * load, redact, write through out (images to assets), and (without --redact) count its likely
 * secrets: a worker's go back to the run in note.  The transcript stays until release.
 */
static int convert_one(struct export_run *x, size_t i, struct txc_out *out, const struct txc_asset_sink *assets,
		       struct txc_buf *note, const struct txc_transcript **done, struct txc_diag *d)
{
	const struct cli_args *a = x->a;
	const struct cli_session *s = &x->v[i];
	const struct cli_store_ref *ref = &x->st->v[s->store];
	int rc = export_assemble(a, ref->s, &s->id, cli_load_flags(a, x->ops), &x->cur, d);
	if (rc != 0)
		return rc;
	struct txc_write_opts w = a->w;
	w.scope = cli_profile_scope(ref->profile);
	w.assets = assets;
	rc = x->ops->write(out, x->cur, &w, d);
	if (rc == 0 && x->in_worker && !a->dry_run) { /* the parent words one warning for the run */
		struct cli_secrets sc = {0};
		struct txc_buf kinds = TXC_BUF_INIT;
		cli_secrets_note(&sc, a, x->ops, x->cur, true);
		size_t k = cli_secrets_take(&sc, &kinds);
		txc_buf_addf(note, "%zu %s", k, kinds.buf);
		txc_buf_release(&kinds);
	}
	*done = x->cur;
	return rc;
}

static int render_cb(void *ctx, struct txc_archive_job *job, struct txc_diag *d)
{
	struct export_run *x = ctx;
	if (x->worker_rc != 0) {
		*d = x->worker_d;
		return x->worker_rc;
	}
	const struct txc_transcript *t = NULL;
	int rc = convert_one(x, job->i, job->out, job->assets, &job->note, &t, d);
	if (rc == 0)
		txc_archive_job_done(job, t);
	return rc;
}

static void install_one(struct export_run *x, size_t i, struct txc_diag *d)
{
	struct txc_write_opts w = x->a->w;
	w.scope = cli_profile_scope(x->st->v[x->v[i].store].profile);
	cli_install(x->a, x->ops, x->cur, &w, true, &x->res, d); /* res says it all; d why */
}

/* The file is in place: its secrets counted for the run's warning, then --install too. */
static int accept_cb(void *ctx, size_t i, const char *note, size_t len, struct txc_diag *d)
{
	struct export_run *x = ctx;
	if (len > 0) { /* a worker's count, "N kinds" */
		char *end;
		size_t k = (size_t)strtoull(note, &end, 10);
		cli_secrets_add(&x->secrets, k, *end ? end + 1 : "");
	} else if (x->cur != NULL && !x->a->dry_run) {
		cli_secrets_note(&x->secrets, x->a, x->ops, x->cur, true);
	}
	if (!x->a->install || x->a->dry_run || x->cur == NULL)
		return 0;
	install_one(x, i, d);
	if (x->res == TXC_INST_REFUSED)
		return TXC_E_REFUSED;
	return x->res == TXC_INST_FAILED ? TXC_E_FAIL : 0;
}

static void release_cb(void *ctx, size_t i)
{
	struct export_run *x = ctx;
	(void)i;
	txc_transcript_free(x->cur);
	x->cur = NULL;
}

/* A session decided on: a failure said (someone else's file is a warning; so is a session deleted
 * meanwhile), then the progress line. */
static void said_cb(void *ctx, size_t i, enum txc_archive_outcome oc, int rc, const struct txc_diag *d)
{
	struct export_run *x = ctx;
	(void)i;
	if (oc == TXC_ARCHIVE_FAILED || oc == TXC_ARCHIVE_REFUSED) {
		if (x->show && x->tty)
			fputc('\n', stderr);
		if (d->msg[0] && ((oc == TXC_ARCHIVE_REFUSED && d->code != TXC_E_REFUSED) || rc == TXC_E_NOTFOUND))
			cli_warn("%s", d->msg);
		else if (d->msg[0])
			cli_report(d);
		x->hard |= d->code == TXC_E_REFUSED || x->res == TXC_INST_REFUSED;
	}
	x->res = TXC_INST_NEW;
	if (x->show)
		progress(++x->done, x->n, x->t0, x->tty);
}

static void dry_line_cb(void *ctx, const char *verb, const char *path)
{
	(void)ctx;
	struct txc_buf line = TXC_BUF_INIT;
	cli_safe_text(&line, path, strlen(path), true);
	printf("%-6s %s\n", verb, line.buf);
	txc_buf_release(&line);
}

/* In Hermes's export order when the listing left it for later (select.c). */
static int order_cb(void *ctx, size_t *perm, struct txc_diag *d)
{
	struct export_run *x = ctx;
	if (!cli_select_order_later(x->a, &cmd_export, x->st))
		return 0;
	return cli_select_export_order(x->st, x->v, x->n, perm, d);
}

/* A worker's own read-only connections (the parent's are not to be shared across fork). */
static void worker_init_cb(void *ctx)
{
	struct export_run *x = ctx;
	x->in_worker = true;
	x->worker_rc = cli_stores_open(x->a, &x->own, &x->worker_d);
	if (x->worker_rc == 0 && x->own.n != x->n_stores) {
		txc_diag_set(&x->worker_d, TXC_E_FAIL, "the profiles changed while txc ran");
		x->worker_rc = TXC_E_FAIL;
	}
	if (x->worker_rc == 0)
		x->st = &x->own;
}

static void worker_fini_cb(void *ctx)
{
	struct export_run *x = ctx;
	if (x->worker_rc == 0)
		cli_stores_close(&x->own);
}

static int tmp_open(struct txc_archive_tmp *t, const char *path, struct txc_diag *d)
{
	struct cli_atomic w = {0};
	int rc = cli_atomic_open(&w, path, true, d);
	*t = (struct txc_archive_tmp){w.f, w.tmp, w.path, w.force, w.unchanged, w.synced};
	return rc;
}

static int tmp_commit(struct txc_archive_tmp *t, struct txc_diag *d)
{
	struct cli_atomic w = {t->f, t->tmp, t->path, t->force, t->unchanged, t->synced};
	int rc = cli_atomic_commit(&w, d);
	*t = (struct txc_archive_tmp){w.f, w.tmp, w.path, w.force, w.unchanged, w.synced};
	return rc;
}

static void tmp_abort(struct txc_archive_tmp *t)
{
	struct cli_atomic w = {t->f, t->tmp, t->path, t->force, t->unchanged, t->synced};
	cli_atomic_abort(&w);
	*t = (struct txc_archive_tmp){w.f, w.tmp, w.path, w.force, w.unchanged, w.synced};
}

static int mkdirs(const char *dir, struct txc_diag *d)
{
	return cli_mkdirs(dir, d);
}

static int guard(const char *path, struct txc_diag *d)
{
	return cli_guard_check(path, d);
}

static int write_file(const char *path, const char *p, size_t n, bool force, struct txc_diag *d)
{
	return cli_write_file(path, p, n, force, d);
}

static int assets_dir_check(const char *dir, struct txc_diag *d)
{
	return cli_assets_dir_check(dir, d);
}

static const struct txc_archive_ops archive_ops = {
	render_cb,      accept_cb,      release_cb,
	said_cb,        dry_line_cb,    order_cb,
	worker_init_cb, worker_fini_cb, {guard, mkdirs, write_file, tmp_open, tmp_commit, tmp_abort, assets_dir_check},
};

/* " (K not re-rendered)" after the unchanged count: how many were known from their source alone */
static void summary(const struct cli_args *a, size_t n, const struct txc_archive_result *res, double t0)
{
	const size_t *c = res->count;
	char note[64] = "";
	if (res->skipped)
		snprintf(note, sizeof(note), " (%zu not re-rendered)", res->skipped);
	char relinked[48] = "";
	if (res->relinked)
		snprintf(relinked, sizeof(relinked), ", %zu relinked", res->relinked);
	bool bad = c[TXC_ARCHIVE_REFUSED] || c[TXC_ARCHIVE_FAILED];
	fprintf(stderr, "txc: %s %zu sessions%s%s: %zu new, %zu updated, %zu unchanged%s%s%s (%.2f s)\n",
		a->dry_run ? "would export" : "exported", n, a->out_dir ? " to " : "", a->out_dir ? a->out_dir : "",
		c[TXC_ARCHIVE_NEW], c[TXC_ARCHIVE_UPDATED], c[TXC_ARCHIVE_SAME], note, relinked,
		bad ? ", some refused or failed (see above)" : "", mono_now() - t0);
}

/* What the archive needs to know of each session (its file name from the redacted title with
 * --redact: a key in a title is no file name). */
static struct txc_archive_item *archive_items(const struct cli_args *a, const struct cli_stores *st,
					      const struct cli_session *v, size_t n, struct txc_arena *ar)
{
	struct txc_archive_item *it = txc_xcalloc(n ? n : 1, sizeof(*it));
	struct txc_redactor *names = a->redact ? txc_redactor_new(false) : NULL;
	for (size_t i = 0; i < n; i++) {
		const struct cli_store_ref *ref = &st->v[v[i].store];
		it[i].id = v[i].id;
		it[i].title = names ? txc_redact_str(names, ar, v[i].info->title) : v[i].info->title;
		it[i].fingerprint = v[i].info->fingerprint;
		it[i].profile = ref->profile;
		it[i].in_folder = a->all_profiles || (ref->profile != NULL && strcmp(ref->profile, "default") != 0);
		it[i].scope = cli_profile_scope(ref->profile);
		it[i].group = ref;
		it[i].started = v[i].info->started;
		struct txc_str pv = v[i].info->title.ptr == NULL ? v[i].info->preview : TXC_STR_NULL;
		it[i].preview = names && pv.ptr ? txc_redact_str(names, ar, pv) : pv; /* (the index shows it) */
	}
	txc_redactor_free(names);
	return it;
}

/* One session installed for Claude Code (--install alone) */
static void install_one_session(struct export_run *x, size_t i, struct txc_archive_result *res)
{
	static const enum txc_archive_outcome map[] = {
		[TXC_INST_NEW] = TXC_ARCHIVE_NEW,         [TXC_INST_UPDATED] = TXC_ARCHIVE_UPDATED,
		[TXC_INST_SAME] = TXC_ARCHIVE_SAME,       [TXC_INST_EMPTY] = TXC_ARCHIVE_SKIPPED,
		[TXC_INST_REFUSED] = TXC_ARCHIVE_REFUSED, [TXC_INST_FAILED] = TXC_ARCHIVE_FAILED};
	const struct cli_session *s = &x->v[i];
	struct txc_diag d = {0};
	int rc = export_assemble(x->a, x->st->v[s->store].s, &s->id, cli_load_flags(x->a, x->ops), &x->cur, &d);
	enum txc_archive_outcome oc = TXC_ARCHIVE_FAILED;
	x->res = TXC_INST_NEW;
	if (rc == 0 && x->a->dry_run) {
		struct txc_buf line = TXC_BUF_INIT; /* the id is the transcript's: never raw */
		cli_safe_text(&line, s->id.text.ptr, s->id.text.len, true);
		printf("install %s\n", line.buf);
		txc_buf_release(&line);
	} else if (rc == 0) {
		install_one(x, i, &d);
	}
	if (rc == 0)
		oc = map[x->res];
	res->count[oc]++;
	res->failed |= oc == TXC_ARCHIVE_FAILED || oc == TXC_ARCHIVE_REFUSED;
	release_cb(x, i);
	said_cb(x, i, oc, rc, &d);
}

/* --install alone: each session installed for Claude Code, no folder, in Hermes's export order
 * when it matters (as the archive asks for it); 0, or an error with d set when it cannot be had. */
static int install_all(struct export_run *x, struct txc_archive_result *res, struct txc_diag *d)
{
	size_t *perm = txc_xmalloc((x->n ? x->n : 1) * sizeof(*perm));
	for (size_t k = 0; k < x->n; k++)
		perm[k] = k;
	if ((x->n > 1 || x->a->dry_run) && order_cb(x, perm, d) != 0) {
		free(perm);
		return d->code;
	}
	for (size_t k = 0; k < x->n; k++)
		install_one_session(x, perm[k], res);
	free(perm);
	return 0;
}

static struct txc_archive_opts archive_opts(const struct cli_args *a, const struct txc_writer_ops *ops)
{
	/* one process's work: --install and --input/--remote stores are read once */
	bool one = a->install || a->store.input || a->store.remote;
	return (struct txc_archive_opts){
		.dir = a->out_dir,
		.writer = ops,
		.force = a->force,
		.dry_run = a->dry_run,
		.rerender = a->install, /* Claude Code's copy is checked each time (it may have been continued) */
		.jobs = one       ? 1
			: a->jobs ? a->jobs
				  : sysconf(_SC_NPROCESSORS_ONLN),
		.version = TXC_VERSION,
		.load_flags = cli_load_flags(a, ops),
		.w = &a->w,
		.redact = a->redact,
		.warn = cli_warning,
		/* (only then: the keys of files of one session stay as they were) */
		.key_extra = !(a->lineage || a->children) ? NULL
			     : !a->children               ? "lineage 1 children 0"
			     : !a->lineage                ? "lineage 0 children 1"
							  : "lineage 1 children 1",
	};
}

static int export_files(const struct cli_args *a, struct cli_stores *st, const struct cli_session *v, size_t n,
			struct txc_diag *d)
{
	struct export_run x = {.a = a,
			       .ops = txc_writer_lookup(a->to),
			       .st = st,
			       .n_stores = st->n,
			       .v = v,
			       .n = n,
			       .res = TXC_INST_NEW};
	x.tty = isatty(STDERR_FILENO);
	x.show = x.tty || a->progress;
	x.t0 = mono_now();
	struct txc_archive_result res = {0};
	if (a->out_dir == NULL) {
		int rc = install_all(&x, &res, d);
		if (rc != 0)
			return rc;
	} else {
		struct txc_arena *ar = txc_arena_new(0);
		struct txc_archive_item *items = archive_items(a, st, v, n, ar);
		struct txc_archive_opts o = archive_opts(a, x.ops);
		int rc = txc_archive_sync(&o, &archive_ops, &x, items, n, &res, d);
		free(items);
		txc_arena_free(ar);
		if (rc != 0)
			return rc;
	}
	if (res.index_d.msg[0])
		cli_warn("%s", res.index_d.msg); /* as a session's file: said, left alone, the run fails */
	if (res.manifest_d.code != 0) {
		cli_report(&res.manifest_d);
		x.hard |= res.manifest_d.code == TXC_E_REFUSED;
	}
	if (x.show || res.count[TXC_ARCHIVE_REFUSED] || res.count[TXC_ARCHIVE_FAILED])
		summary(a, n, &res, x.t0);
	cli_secrets_warn(&x.secrets);
	if (!res.failed)
		return 0;
	txc_diag_set(d, x.hard ? TXC_E_REFUSED : TXC_E_FAIL, "%s (see above)",
		     res.index_bad ? "the index page was not written" : "some sessions were not exported");
	return d->code;
}

static int missing_out(void)
{
	struct txc_buf l = TXC_BUF_INIT;
	cli_format_list(&l, TXC_WCAP_INSTALL);
	int rc = cli_usage(cmd_export.name, "missing --out DIR (or --install with --to %s)", l.buf);
	txc_buf_release(&l);
	return rc;
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(&cmd_export, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos)
		return cli_usage(cmd_export.name,
				 "unexpected argument '%s' (export selects with --since, --title, ...)", a.pos[0]);
	if (a.json && (a.to || a.out_dir || a.install))
		return cli_usage(cmd_export.name,
				 "--json prints to stdout; it does not combine with --to, --out or --install");
	if (!a.json && a.to == NULL)
		return cli_usage(cmd_export.name, "missing --json or --to FORMAT --out DIR");
	const struct txc_writer_ops *ops = NULL;
	if (a.to != NULL && (rc = cli_writer_for(cmd_export.name, a.to, &ops)) != 0)
		return rc;
	if ((rc = cli_check_writer(&cmd_export, &a, ops)) != 0)
		return rc;
	if (a.to != NULL && a.out_dir == NULL && !a.install)
		return missing_out();
	if (a.json && (a.lineage || a.children)) /* Hermes's export: one line per session, as it has them */
		return cli_usage(cmd_export.name, "--json writes each session as Hermes does: not with %s",
				 a.lineage ? "--lineage" : "--children");
	if (a.children && (ops->caps & TXC_WCAP_INSTALL) && a.out_dir != NULL) /* subagent files: not in the manifest */
		return cli_usage(cmd_export.name,
				 "--children with --to %s writes subagent files: use --install, not --out", ops->name);
	if (a.json && (a.dry_run || a.force))
		return cli_usage(cmd_export.name, "--dry-run and --force apply to --out DIR");

	cli_write_opts_finish(&a, ops == NULL || !(ops->caps & TXC_WCAP_ONE_FILE));
	a.w.nav = a.out_dir != NULL && ops != NULL && ops->nav != NULL; /* the archive fills the slots */
	if (a.w.nav) /* what the pages' links and the index name an untitled session by */
		a.sel.list_more |= TXC_LIST_PREVIEW;
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
	if (a.json && everything && st.n == 1 && !a.all_profiles)
		rc = export_all_json(&a, st.v[0].s, &d); /* the common case, in memory flat whatever the store's size */
	else if ((rc = cli_select_sessions(&a, &cmd_export, &st, arena, &v, &n, &more, &d)) == 0 &&
		 (rc = cli_lineage_fold(&a, &st, v, &n, arena, &d)) == 0)
		rc = a.json ? export_json(&a, &st, v, n, a.all_profiles, &d) : export_files(&a, &st, v, n, &d);
	free(v);
	txc_arena_free(arena);
	size_t broken = st.n_broken;
	cli_stores_close(&st);
	return rc ? cli_fail(&d) : broken ? 1 : 0;
}

/* the options `txc export` takes (help lists them in the catalogue's order) */
static const struct cli_opt *const options[] = {
	CLI_STORE_OPTIONS,  CLI_FILTER_OPTIONS,
	CLI_COMMON_OPTIONS, CLI_WRITE_OPTIONS,
	&cli_opt_order,     &cli_opt_json,
	&cli_opt_out,       &cli_opt_dry_run,
	&cli_opt_progress,  &cli_opt_redact,
	&cli_opt_jobs,      &cli_opt_lineage,
	&cli_opt_children,  NULL,
};

const struct cli_cmd_info cmd_export = {
	.name = "export",
	.usage = "--json | --to FORMAT --out DIR [options]",
	.summary = "export sessions (JSONL, or files)",
	.about = "--json prints the selected sessions as JSONL, each line identical to what Hermes\n"
		 "v0.20.0's `hermes sessions export -` prints (newest activity first), or Hermes\n"
		 "0.21's (--hermes-format); streamed, whatever a session's size.\n"
		 "--to FORMAT --out DIR writes one file per session, named <id>-<slug>.<ext>, and\n"
		 "DIR/manifest.jsonl; a second run rewrites only the sessions that changed.\n",
	.examples = "  txc export --json > sessions.jsonl            # as hermes sessions export\n"
		    "  txc export --to markdown --out ~/notes        # a file each; re-run to update\n"
		    "  txc export --to html --out ~/site --since 1w  # pages and an index\n"
		    "  txc export --to claude --install --since 2d   # for claude --resume\n",
	.run = run,
	.opts = options,
	.flags = CLI_CMD_EXPORTS,
	.wopt_own = TXC_WOPT_UTC, /* never refused for a writer: --utc reads --since and --until too */
};
