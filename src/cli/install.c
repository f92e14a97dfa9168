/*
 * install.c - `--install` as the CLI sees it: the library installs (src/convert/install.c:
 * where Claude Code or Codex resumes a session, never over what it added); this file gives it
 * the output guard's atomic writes and says what happened.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "txc/install.h"

struct install_ctx {
	const struct cli_args *a;
	const struct txc_write_opts *w;
	bool quiet;
};

static int tmp_open(void *ctx, struct txc_install_file *t, const char *path, struct txc_diag *d)
{
	(void)ctx;
	struct cli_atomic f = {0};
	int rc = cli_atomic_open(&f, path, true, d);
	*t = (struct txc_install_file){f.f, f.tmp, f.path, f.force, f.unchanged, f.synced};
	return rc;
}

static int tmp_commit(void *ctx, struct txc_install_file *t, struct txc_diag *d)
{
	(void)ctx;
	struct cli_atomic f = {t->f, t->tmp, t->path, t->force, t->unchanged, t->synced};
	return cli_atomic_commit(&f, d);
}

static void tmp_abort(void *ctx, struct txc_install_file *t)
{
	(void)ctx;
	struct cli_atomic f = {t->f, t->tmp, t->path, t->force, t->unchanged, t->synced};
	cli_atomic_abort(&f);
}

static int mkdirs(void *ctx, const char *dir, struct txc_diag *d)
{
	(void)ctx;
	return cli_mkdirs(dir, d);
}

static void moved(void *ctx, struct txc_str cwd, const char *now)
{
	const struct install_ctx *x = ctx;
	if (x->quiet)
		; /* bulk installs sum this up instead */
	else if (cwd.ptr == NULL)
		cli_warn("the session has no recorded working directory; installing for %s", now);
	else
		cli_warn("the session's directory '%.*s' does not exist here; installing for %s",
			 (int)(cwd.len > 200 ? 200 : cwd.len), cwd.ptr, now);
}

static void done(void *ctx, const struct txc_install_done *r)
{
	static const char *const verb[] = {"installed", "updated", "unchanged"};
	const struct install_ctx *x = ctx;
	if (x->quiet)
		return;
	struct txc_buf msg = TXC_BUF_INIT, safe = TXC_BUF_INIT;
	cli_safe_text(&msg, r->path, strlen(r->path), true);
	if (r->subagent) { /* resumed through its parent */
		printf("%s %s (subagent)\n", verb[r->res], msg.buf);
		txc_buf_release(&msg);
		return;
	}
	printf("%s %s%s%s%s\n", verb[r->res], msg.buf, r->continued ? " (continued in " : "",
	       r->continued ? r->program : "", r->continued ? "; nothing new to add)" : "");
	txc_buf_reset(&msg);
	/* single-quote the directory for the shell */
	txc_buf_addstr(&msg, "cd '");
	for (size_t i = 0; i < r->cwd.len; i++) {
		if (r->cwd.ptr[i] == '\'')
			txc_buf_addstr(&msg, "'\\''");
		else
			txc_buf_addch(&msg, r->cwd.ptr[i]);
	}
	txc_buf_addf(&msg, "' && %s %s", r->resume, r->uuid);
	cli_safe_text(&safe, msg.buf, msg.len, true);
	printf("resume with: %s\n", safe.buf);
	txc_buf_release(&safe);
	txc_buf_release(&msg);
}

static int subagents(void *ctx, const struct txc_transcript *t, const char *base, const char *session,
		     struct txc_diag *d)
{
	const struct install_ctx *x = ctx;
	return cli_write_subagents(x->a, t, x->w, base, session, d);
}

/* A session without messages: convert fails, bulk warns. */
static enum txc_err empty_session(const struct txc_writer_ops *ops, const struct txc_transcript *t, bool quiet,
				  struct txc_diag *d)
{
	struct txc_buf id = TXC_BUF_INIT;
	enum txc_err rc = TXC_OK;
	cli_safe_text(&id, t->meta.id.ptr ? t->meta.id.ptr : "", t->meta.id.len, true);
	if (quiet) {
		cli_warn("session '%s' has no messages; not installed", id.buf);
	} else {
		txc_diag_set(d, TXC_E_FAIL, "session '%s' has no messages: nothing %s could resume; nothing installed",
			     id.buf, txc_install_program(ops));
		rc = TXC_E_FAIL;
	}
	txc_buf_release(&id);
	return rc;
}

/* The program's folder is guarded against every other output (cli_guard_tree): the install's own
 * checks decide what it may replace. */
enum txc_err cli_install(const struct cli_args *a, const struct txc_writer_ops *ops, const struct txc_transcript *t,
			 struct txc_write_opts *w, bool quiet, int *res, struct txc_diag *d)
{
	struct install_ctx x = {a, w, quiet};
	const struct txc_install_ops io = {tmp_open, tmp_commit, tmp_abort, mkdirs, moved, done, subagents, &x};
	const struct txc_install_req req = {.as_new = a->as_new, .force = a->force, .children = a->children};
	enum txc_install_res r;
	cli_guard_tree_open(true);
	enum txc_err rc = txc_install(ops, t, w, &req, &io, &r, d);
	cli_guard_tree_open(false);
	*res = (int)r;
	if (rc == TXC_OK && r == TXC_INST_EMPTY)
		rc = empty_session(ops, t, quiet, d);
	return rc;
}

/* -o FILE --children: the subagents' files beside FILE, as the program keeps them beside a session */
enum txc_err cli_children_beside(const struct cli_args *a, const struct txc_writer_ops *ops,
				 const struct txc_transcript *t, struct txc_diag *d)
{
	struct install_ctx x = {a, &a->w, false};
	const struct txc_install_ops io = {tmp_open, tmp_commit, tmp_abort, mkdirs, moved, done, subagents, &x};
	const struct txc_install_req req = {.as_new = false, .force = a->force, .children = true};
	return txc_install_beside(ops, t, &a->w, a->output, &req, &io, d);
}
