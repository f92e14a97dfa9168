/*
 * install.c - a converted session where `claude --resume` finds it
 * ($CLAUDE_CONFIG_DIR/projects/<folder>/<uuid>.jsonl) or where `codex resume`
 * does ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl), never over
 * what the program added to it.
 *
 * Claude Code appends to the file it resumes.  txc's records carry name-based
 * (version 5) uuids and Claude Code's random (version 4) ones, so a file that
 * starts with txc's records and has others after them was continued there and
 * belongs to Claude Code: it is never replaced, not even with --force.
 * --as-new installs a separate copy under a uuid derived from the id and a
 * counter (the first free or identical one), so re-running it is idempotent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "txc/convert.h"
#include "txc/harness.h"
#include "txc/install.h"
#include "txc/writer_claude.h"
#include "txc/writer_codex.h"

enum kind { K_OURS, K_CONTINUED, K_FOREIGN };

struct target;
/* One install: what it writes through and what it found. */
struct inst {
	const struct target *tg;
	const struct txc_install_req *req;
	const struct txc_install_ops *io;
	enum txc_install_res *res;
	bool again;     /* --as-new found this name taken: try the next */
	bool continued; /* continued there with nothing new from the source */
};

/* The program a writer's output is installed for: what install_at writes with and says. */
struct target {
	const struct txc_writer_ops *ops;
	enum kind (*classify)(const char *path, const char *uuid);
	/* where t goes (its folder made) and under which uuid */
	enum txc_err (*place)(const struct txc_install_ops *io, const struct txc_transcript *t, struct txc_str scope,
			      struct txc_buf *dir, struct txc_buf *path, char uuid[37], struct txc_diag *d);
	const char *program; /* in messages: "Claude Code", "Codex" */
	const char *resume;  /* the command that resumes a session: "claude --resume", "codex resume" */
	/* --children: t's subagents beside the session installed in dir under uuid */
	enum txc_err (*children)(struct inst *x, const struct txc_transcript *t, const struct txc_write_opts *w,
				 const char *dir, const char *uuid, struct txc_diag *d);
	void (*uuid)(const struct txc_transcript *t, struct txc_str scope, char out[37]); /* the session's */
};

enum line { L_OTHER, L_RECORD, L_SUMMARY, L_TITLE };

/* One line as txc's claude writer makes it for session uuid: a user/assistant record with a
 * version-5 uuid, or the closing summary / custom-title lines. */
static enum line txc_line(const char *line, size_t len, const char *uuid)
{
	if (len == 0 || line[len - 1] != '\n')
		return L_OTHER; /* txc ends every line; a cut line was appended by someone else */
	struct txc_arena *ar = txc_arena_new(0);
	const struct txc_json *o;
	enum line k = L_OTHER;
	if (txc_json_parse(ar, line, len - 1, &o) == 0 && o->kind == TXC_JSON_OBJECT) {
		const char *type = txc_json_cstr(txc_json_get(o, "type"));
		const char *sid = txc_json_cstr(txc_json_get(o, "sessionId"));
		const char *u = txc_json_cstr(txc_json_get(o, "uuid"));
		if (type != NULL && strcmp(type, "summary") == 0)
			k = L_SUMMARY;
		else if (type != NULL && sid != NULL && strcmp(sid, uuid) == 0 && strcmp(type, "custom-title") == 0)
			k = L_TITLE;
		else if (type != NULL && sid != NULL && strcmp(sid, uuid) == 0 &&
			 (strcmp(type, "user") == 0 || strcmp(type, "assistant") == 0) && u != NULL &&
			 strlen(u) == 36 && u[14] == '5')
			k = L_RECORD;
	}
	txc_arena_free(ar);
	return k;
}

/*
 * txc's own (only txc's lines, in txc's order: records, then at most one summary and one
 * custom-title, the last lines), continued (txc's lines, then others) or foreign.  Claude Code
 * writes summary and custom-title lines too (a /rename): after txc's closing pair they are
 * Claude Code's.
 */
static enum kind classify(const char *path, const char *uuid)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return K_FOREIGN;
	char *line = NULL;
	size_t cap = 0, n_ours = 0;
	ssize_t len;
	enum kind k = K_OURS;
	enum line last = L_RECORD;
	while ((len = getline(&line, &cap, f)) > 0) {
		enum line l = txc_line(line, (size_t)len, uuid);
		if ((l == L_RECORD && last == L_RECORD) || (l == L_SUMMARY && last == L_RECORD) ||
		    (l == L_TITLE && last == L_SUMMARY)) {
			n_ours++;
			last = l;
			continue;
		}
		k = n_ours ? K_CONTINUED : K_FOREIGN;
		break;
	}
	if (k == K_OURS && last == L_SUMMARY)
		k = K_CONTINUED; /* txc writes the pair: a file cut after the summary is not as txc left it */
	if (ferror(f))
		k = K_FOREIGN;
	free(line);
	fclose(f);
	return k;
}

/*
 * A line of a rollout as txc's codex writer makes it for session uuid (first: its session_meta).
 * Codex appends records txc never writes: every line it writes has an "ordinal", and a resumed
 * turn starts with event_msg task_started, so txc's own file is txc's lines alone.
 */
static bool codex_txc_line(const char *line, size_t len, const char *uuid, bool first)
{
	if (len == 0 || line[len - 1] != '\n')
		return false;
	struct txc_arena *ar = txc_arena_new(0);
	const struct txc_json *o;
	bool ours = false;
	if (txc_json_parse(ar, line, len - 1, &o) == 0 && o->kind == TXC_JSON_OBJECT && o->n == 3 &&
	    txc_json_get(o, "ordinal") == NULL) {
		const char *type = txc_json_cstr(txc_json_get(o, "type"));
		const struct txc_json *p = txc_json_get(o, "payload");
		const char *sub = p != NULL ? txc_json_cstr(txc_json_get(p, "type")) : NULL;
		const char *id = p != NULL ? txc_json_cstr(txc_json_get(p, "id")) : NULL;
		const char *by = p != NULL ? txc_json_cstr(txc_json_get(p, "originator")) : NULL;
		if (type == NULL)
			ours = false;
		else if (first)
			ours = strcmp(type, "session_meta") == 0 && id != NULL && strcmp(id, uuid) == 0 && by != NULL &&
			       strcmp(by, "txc") == 0;
		else
			ours = strcmp(type, "turn_context") == 0 || strcmp(type, "response_item") == 0 ||
			       strcmp(type, "compacted") == 0 ||
			       (strcmp(type, "event_msg") == 0 && sub != NULL &&
				(strcmp(sub, "token_count") == 0 || strcmp(sub, "agent_reasoning") == 0));
	}
	txc_arena_free(ar);
	return ours;
}

/* txc's own rollout (txc's lines only), continued (txc's session_meta, then records of Codex's) or foreign */
static enum kind codex_classify(const char *path, const char *uuid)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return K_FOREIGN;
	char *line = NULL;
	size_t cap = 0, n = 0;
	ssize_t len;
	enum kind k = K_OURS;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (!codex_txc_line(line, (size_t)len, uuid, n == 0)) {
			k = n ? K_CONTINUED : K_FOREIGN;
			break;
		}
		n++;
	}
	if (ferror(f) || n == 0)
		k = K_FOREIGN;
	free(line);
	fclose(f);
	return k;
}

/* 0: the same bytes; 1: a's bytes are a proper prefix of b's; 2: different (or unreadable) */
static int compare_files(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int r = 2;
	if (fa != NULL && fb != NULL) {
		char x[65536], y[65536];
		for (;;) {
			size_t na = fread(x, 1, sizeof(x), fa);
			size_t nb = fread(y, 1, na ? na : 1, fb);
			if (na == 0) {
				if (ferror(fa) || ferror(fb))
					r = 2;
				else
					r = nb == 0 ? 0 : 1; /* b has more: a is a proper prefix */
				break;
			}
			if (nb != na || memcmp(x, y, na) != 0)
				break;
		}
	}
	if (fa != NULL)
		fclose(fa);
	if (fb != NULL)
		fclose(fb);
	return r;
}

static enum txc_err config_dir(struct txc_buf *b, struct txc_diag *d)
{
	const char *cfg = getenv("CLAUDE_CONFIG_DIR");
	const char *home = getenv("HOME");
	if (cfg != NULL && cfg[0] != '\0') {
		txc_buf_addstr(b, cfg);
	} else if (home != NULL && home[0] != '\0') {
		txc_buf_addf(b, "%s/.claude", home);
	} else {
		txc_diag_set(d, TXC_E_USAGE,
			     "cannot find Claude Code's folder: HOME is not set; set HOME or CLAUDE_CONFIG_DIR");
		return TXC_E_USAGE;
	}
	return TXC_OK;
}

static bool has_messages(const struct txc_transcript *t)
{
	for (size_t i = 0; i < t->n_messages; i++)
		if (!t->messages[i].compacted)
			return true;
	return false;
}

/* t written by the target's writer into f (flushed) */
static enum txc_err write_tmp(const struct target *tg, struct txc_install_file *f, const struct txc_transcript *t,
			      const struct txc_write_opts *w, const char *path, struct txc_diag *d);

/*
 * Write t to path (or find it there already); *x->res what happened (TXC_INST_EMPTY: the
 * conversion came out empty), x->again: --as-new found this name taken, try the next.
 */
static enum txc_err install_at(struct inst *x, const struct txc_transcript *t, const struct txc_write_opts *w,
			       const char *path, const char *uuid, struct txc_diag *d)
{
	const struct txc_install_ops *io = x->io;
	struct txc_install_file f;
	enum txc_err rc = io->open(io->ctx, &f, path, d); /* the checks below decide what may be replaced */
	if (rc)
		return rc;
	rc = write_tmp(x->tg, &f, t, w, path, d);
	if (rc == 0 && ftell(f.f) == 0) {
		io->abort(io->ctx, &f); /* nothing the program could resume */
		*x->res = TXC_INST_EMPTY;
		return TXC_OK;
	}
	struct stat before;
	if (rc == 0 && lstat(path, &before) != 0) {
		f.force = false; /* linked: a file that appeared meanwhile is not replaced */
		*x->res = TXC_INST_NEW;
		return io->commit(io->ctx, &f, d);
	}
	int cmp = rc == 0 ? compare_files(f.tmp, path) : 2;
	enum kind k = rc == 0 && cmp == 2 ? x->tg->classify(path, uuid) : K_OURS;
	if (rc != 0) {
		/* the write failed: d says why */
	} else if (cmp == 0 || (cmp == 1 && !x->req->as_new)) {
		*x->res = TXC_INST_SAME; /* identical, or continued there with nothing new from the source */
		x->continued = cmp == 1;
	} else if (x->req->as_new) {
		x->again = true; /* --as-new never replaces anything */
	} else if (k == K_CONTINUED) {
		txc_diag_set(d, TXC_E_REFUSED,
			     "'%s' was continued in %s; txc never replaces it (not even with --force): "
			     "add --as-new to install this session again as a separate %s session",
			     path, x->tg->program, x->tg->program);
		rc = TXC_E_REFUSED;
	} else if (k == K_FOREIGN && !x->req->force) {
		txc_diag_set(d, TXC_E_FAIL,
			     "'%s' exists and is not a session txc installed; pass --force to overwrite it", path);
		rc = TXC_E_FAIL;
	} else {
		*x->res = TXC_INST_UPDATED; /* txc's own older output (or --force over a stranger) */
		f.unchanged = &before;      /* checked again just before the rename, after the fsync */
		return io->commit(io->ctx, &f, d);
	}
	io->abort(io->ctx, &f);
	return rc;
}

/* The folder the program looks in for cwd: the session's, else this process's (said). */
static struct txc_str install_cwd(const struct txc_install_ops *io, const struct txc_transcript *t, char *cwd_now,
				  size_t cap)
{
	if (getcwd(cwd_now, cap) == NULL)
		strcpy(cwd_now, "/");
	struct txc_str cwd = t->meta.cwd;
	struct stat st;
	bool usable = cwd.ptr != NULL && cwd.ptr[0] == '/' && strlen(cwd.ptr) == cwd.len && stat(cwd.ptr, &st) == 0 &&
		      S_ISDIR(st.st_mode);
	if (usable)
		return cwd;
	if (io->moved != NULL)
		io->moved(io->ctx, cwd, cwd_now);
	return txc_str_c(cwd_now);
}

/* $CLAUDE_CONFIG_DIR/projects/<folder of cwd>, made; the file <uuid>.jsonl in it */
static enum txc_err claude_place(const struct txc_install_ops *io, const struct txc_transcript *t, struct txc_str scope,
				 struct txc_buf *dir, struct txc_buf *path, char uuid[37], struct txc_diag *d)
{
	txc_buf_reset(dir);
	enum txc_err rc = config_dir(dir, d);
	if (rc != TXC_OK)
		return rc;
	txc_buf_addstr(dir, "/projects/");
	/* the folder name has only [A-Za-z0-9-] and the file name is a UUID: nothing can escape */
	txc_claude_project_folder(dir, t->meta.cwd.ptr, t->meta.cwd.len);
	txc_claude_session_uuid(t, scope, uuid);
	txc_buf_reset(path);
	txc_buf_addf(path, "%s/%s.jsonl", dir->buf, uuid);
	return io->mkdirs(io->ctx, dir->buf, d);
}

/* $CODEX_HOME/sessions/YYYY/MM/DD (the session's start, UTC), made; rollout-<time>-<uuid>.jsonl in it */
static enum txc_err codex_place(const struct txc_install_ops *io, const struct txc_transcript *t, struct txc_str scope,
				struct txc_buf *dir, struct txc_buf *path, char uuid[37], struct txc_diag *d)
{
	char *sessions = txc_codex_sessions_dir(d);
	if (sessions == NULL)
		return d->code;
	txc_codex_session_uuid(t, scope, uuid);
	txc_buf_reset(path);
	txc_buf_addf(path, "%s/", sessions);
	free(sessions);
	txc_codex_rollout_name(path, t, uuid); /* digits, '-', 'T' and the UUID: nothing can escape */
	txc_buf_reset(dir);
	txc_buf_add(dir, path->buf, (size_t)(strrchr(path->buf, '/') - path->buf));
	return io->mkdirs(io->ctx, dir->buf, d);
}

/* <project>/<uuid>/subagents/agent-<id>.jsonl, written by the caller */
static enum txc_err claude_children(struct inst *x, const struct txc_transcript *t, const struct txc_write_opts *w,
				    const char *dir, const char *uuid, struct txc_diag *d)
{
	(void)w;
	struct txc_buf base = TXC_BUF_INIT;
	txc_buf_addf(&base, "%s/%s", dir, uuid);
	enum txc_err rc = x->io->subagents(x->io->ctx, t, base.buf, uuid, d);
	txc_buf_release(&base);
	return rc;
}

/* Codex's spawned threads: where they go (their parent's folder) and how the parent was installed. */
struct codex_kids {
	struct inst *x;
	const char *dir;
};

/* one spawned thread: a rollout of its own in its parent's folder, installed as the parent is */
static int codex_child(void *ctx, const struct txc_transcript *child, const struct txc_write_opts *cw,
		       const char uuid[37], struct txc_diag *d)
{
	const struct codex_kids *k = ctx;
	struct txc_buf name = TXC_BUF_INIT, path = TXC_BUF_INIT;
	txc_codex_rollout_name(&name, child, uuid); /* YYYY/MM/DD/rollout-...: only its last part */
	txc_buf_addf(&path, "%s/%s", k->dir, strrchr(name.buf, '/') + 1);
	struct txc_install_req one = *k->x->req;
	one.as_new = false; /* the parent's uuid (as new or not) names the child already */
	enum txc_install_res res = TXC_INST_FAILED;
	struct inst cx = {k->x->tg, &one, k->x->io, &res, false, false};
	enum txc_err rc = install_at(&cx, child, cw, path.buf, uuid, d);
	if (rc == TXC_OK && res != TXC_INST_EMPTY && cx.io->done != NULL)
		cx.io->done(cx.io->ctx, &(struct txc_install_done){res, path.buf, uuid, cx.continued, child->meta.cwd,
								   cx.tg->program, cx.tg->resume, true});
	txc_buf_release(&name);
	txc_buf_release(&path);
	return rc;
}

/* sessions/YYYY/MM/DD/rollout-<time>-<child uuid>.jsonl beside the parent's, linked to it */
static enum txc_err codex_children(struct inst *x, const struct txc_transcript *t, const struct txc_write_opts *w,
				   const char *dir, const char *uuid, struct txc_diag *d)
{
	struct codex_kids k = {x, dir};
	return (enum txc_err)txc_convert_codex_subagents(t, w, uuid, codex_child, &k, d);
}

static const struct target targets[] = {
	{&txc_writer_claude, classify, claude_place, "Claude Code", "claude --resume", claude_children,
	 txc_claude_session_uuid},
	{&txc_writer_codex, codex_classify, codex_place, "Codex", "codex resume", codex_children,
	 txc_codex_session_uuid},
};

static enum txc_err write_tmp(const struct target *tg, struct txc_install_file *f, const struct txc_transcript *t,
			      const struct txc_write_opts *w, const char *path, struct txc_diag *d)
{
	struct txc_out out;
	txc_out_init_file(&out, f->f);
	enum txc_err rc = tg->ops->write(&out, t, w, d);
	if (rc == 0 && txc_out_flush(&out) != 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", path, strerror(out.err));
		rc = TXC_E_FAIL;
	}
	txc_out_release(&out);
	if (rc == 0 && fflush(f->f) != 0) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write '%s': %s", path, strerror(errno));
		rc = TXC_E_FAIL;
	}
	return rc;
}

/* The first free (or identical) name: the session's own, or with --as-new a separate one (its id in id). */
static enum txc_err install_named(struct inst *x, const struct txc_transcript *t, struct txc_transcript *copy,
				  const struct txc_write_opts *w, struct txc_buf *id, struct txc_buf *dir,
				  struct txc_buf *path, char uuid[37], struct txc_diag *d)
{
	enum txc_err rc = TXC_OK;
	x->again = true;
	for (unsigned n = x->req->as_new ? 2 : 1; x->again && rc == TXC_OK && n < 1000; n++) {
		if (n > 1) { /* --as-new: a separate session, the same every time */
			txc_buf_reset(id);
			txc_buf_add(id, t->meta.id.ptr ? t->meta.id.ptr : "", t->meta.id.len);
			txc_buf_addf(id, "#as-new-%u", n);
			copy->meta.id = (struct txc_str){id->buf, id->len};
		}
		x->again = false;
		rc = x->tg->place(x->io, copy, w->scope, dir, path, uuid, d);
		if (rc == TXC_OK)
			rc = install_at(x, copy, w, path->buf, uuid, d);
	}
	if (x->again && rc == TXC_OK) {
		txc_diag_set(d, TXC_E_FAIL, "no free session name for --as-new in '%s'", dir->buf);
		rc = TXC_E_FAIL;
	}
	return rc;
}

/* The install target of writer ops, or NULL */
static const struct target *target_of(const struct txc_writer_ops *ops)
{
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (targets[i].ops == ops)
			return &targets[i];
	return NULL;
}

bool txc_install_session(const struct txc_writer_ops *ops, const struct txc_transcript *t, struct txc_str scope,
			 char uuid[37])
{
	const struct target *tg = target_of(ops);
	if (tg == NULL)
		return false;
	tg->uuid(t, scope, uuid);
	return true;
}

/*
 * Claude Code's subagents in DIR/NAME/subagents/ (FILE DIR/NAME.jsonl, else FILE.d/), as Claude Code keeps
 * them; Codex's rollouts in FILE's folder, named as Codex names them (rollout-<time>-<uuid>.jsonl).
 */
int txc_install_beside(const struct txc_writer_ops *ops, const struct txc_transcript *t, const struct txc_write_opts *w,
		       const char *file, const struct txc_install_req *req, const struct txc_install_ops *io,
		       struct txc_diag *d)
{
	const struct target *tg = target_of(ops);
	if (tg == NULL)
		return TXC_OK;
	char uuid[37];
	tg->uuid(t, w->scope, uuid);
	size_t len = strlen(file);
	const char *slash = strrchr(file, '/');
	struct txc_buf base = TXC_BUF_INIT;
	enum txc_install_res res = TXC_INST_NEW;
	struct inst x = {tg, req, io, &res, false, false};
	enum txc_err rc;
	if (tg->children == codex_children) {
		if (slash == NULL)
			txc_buf_addstr(&base, ".");
		else
			txc_buf_add(&base, file, slash == file ? 1 : (size_t)(slash - file));
		rc = codex_children(&x, t, w, base.buf, uuid, d);
	} else {
		if (len > 6 && strcmp(file + len - 6, ".jsonl") == 0)
			txc_buf_add(&base, file, len - 6);
		else
			txc_buf_addf(&base, "%s.d", file);
		rc = io->subagents(io->ctx, t, base.buf, uuid, d);
	}
	txc_buf_release(&base);
	return rc;
}

const char *txc_install_program(const struct txc_writer_ops *ops)
{
	const struct target *tg = target_of(ops);
	return tg != NULL ? tg->program : NULL;
}

int txc_install(const struct txc_writer_ops *ops, const struct txc_transcript *t, const struct txc_write_opts *w,
		const struct txc_install_req *req, const struct txc_install_ops *io, enum txc_install_res *res,
		struct txc_diag *d)
{
	const struct target *tg = target_of(ops);
	*res = TXC_INST_FAILED;
	if (tg == NULL) { /* the CLI refused it already: TXC_WCAP_INSTALL names these */
		txc_diag_set(d, TXC_E_USAGE, "--install does not apply to --to %s", ops->name);
		return TXC_E_USAGE;
	}
	if (!has_messages(t)) { /* a 0-byte file would be listed by the program and could not be resumed */
		*res = TXC_INST_EMPTY;
		return TXC_OK;
	}
	char cwd_now[4096];
	/* the recorded cwd must match the folder: write the one we install for */
	struct txc_transcript copy = *t;
	copy.meta.cwd = install_cwd(io, t, cwd_now, sizeof(cwd_now));
	struct txc_buf dir = TXC_BUF_INIT, path = TXC_BUF_INIT, id = TXC_BUF_INIT;
	char uuid[37];
	struct inst x = {tg, req, io, res, false, false};
	enum txc_err rc = install_named(&x, t, &copy, w, &id, &dir, &path, uuid, d);
	if (rc != TXC_OK)
		*res = rc == TXC_E_REFUSED ? TXC_INST_REFUSED : TXC_INST_FAILED;
	else if (*res != TXC_INST_EMPTY && io->done != NULL)
		io->done(io->ctx, &(struct txc_install_done){*res, path.buf, uuid, x.continued, copy.meta.cwd,
							     tg->program, tg->resume, false});
	if (rc == TXC_OK && *res != TXC_INST_EMPTY && req->children) /* (the copy's id: --as-new's) */
		rc = tg->children(&x, &copy, w, dir.buf, uuid, d);
	txc_buf_release(&id);
	txc_buf_release(&path);
	txc_buf_release(&dir);
	return rc;
}
