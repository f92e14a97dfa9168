/*
 * install.h - a converted session put where its program resumes it (src/convert/install.c):
 * `claude --resume` ($CLAUDE_CONFIG_DIR/projects/<folder>/<uuid>.jsonl) or `codex resume`
 * ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl), never over what the program
 * added to it.  The writers with TXC_WCAP_INSTALL (claude, codex) have a target here.
 *
 * Ownership: the transcript, the write options and the callbacks are the caller's, borrowed for
 * the call.  Nothing here prints or exits: files are written through the caller's callbacks (it
 * keeps the source guard and atomic writes), what a person should know comes back through them
 * (a working directory replaced, what was installed) and errors fill the txc_diag.
 */
#ifndef TXC_INSTALL_H
#define TXC_INSTALL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "txc/writer.h"

/* What an install did. */
enum txc_install_res {
	TXC_INST_NEW,
	TXC_INST_UPDATED,
	TXC_INST_SAME,
	TXC_INST_EMPTY, /* the session has no messages (or wrote nothing): nothing installed */
	TXC_INST_REFUSED,
	TXC_INST_FAILED
};

/* A file being written: a temporary name beside path, renamed into place by commit. */
struct txc_install_file {
	FILE *f;
	char *tmp, *path;
	bool force;                   /* commit replaces path (else: a file that appeared is kept) */
	const struct stat *unchanged; /* if set: replace path only if it is still this file */
	bool synced;
};

/* What was installed (strings borrowed for the callback). */
struct txc_install_done {
	enum txc_install_res res;
	const char *path, *uuid;
	bool continued;      /* the file was continued there, with nothing new from the source */
	struct txc_str cwd;  /* the working directory it was installed for */
	const char *program; /* "Claude Code", "Codex" */
	const char *resume;  /* the command that resumes it: "claude --resume", "codex resume" */
	bool subagent;       /* a subagent's file (Codex's spawned thread), resumed through its parent */
};

struct txc_install_ops {
	/* a temporary file for path (force set), committed or aborted; 0, or an error with d set */
	int (*open)(void *ctx, struct txc_install_file *f, const char *path, struct txc_diag *d);
	int (*commit)(void *ctx, struct txc_install_file *f, struct txc_diag *d);
	void (*abort)(void *ctx, struct txc_install_file *f);
	int (*mkdirs)(void *ctx, const char *dir, struct txc_diag *d); /* dir and its parents */
	/* Optional: the session's working directory (cwd; ptr NULL: none recorded) is not one here:
	 * it is installed for now, this process's, instead. */
	void (*moved)(void *ctx, struct txc_str cwd, const char *now);
	/* Optional: installed (not called for TXC_INST_EMPTY or an error). */
	void (*done)(void *ctx, const struct txc_install_done *r);
	/* With children, Claude Code's: t's subagents beside the session, in base/subagents/ (session: its
	 * uuid).  Codex's spawned threads are installed as sessions are (open ... done). */
	int (*subagents)(void *ctx, const struct txc_transcript *t, const char *base, const char *session,
			 struct txc_diag *d);
	void *ctx;
};

struct txc_install_req {
	bool as_new;   /* a separate session (the same uuid every run), leaving the installed one */
	bool force;    /* over a file that is not a session txc installed (never one continued there) */
	bool children; /* subagent files too (the writers whose program keeps them) */
};

/* The program writer ops installs for, in messages ("Claude Code", "Codex"), or NULL: it has no target. */
const char *txc_install_program(const struct txc_writer_ops *ops);

/* The session uuid writer ops's program knows t by (scope: the store's profile, as
 * txc_write_opts.scope); false: ops has no install target. */
bool txc_install_session(const struct txc_writer_ops *ops, const struct txc_transcript *t, struct txc_str scope,
			 char uuid[37]);

/*
 * -o FILE --children: t's subagents (written by ops with w) beside FILE, as the program keeps them
 * beside an installed session: Claude Code's in FILE less its .jsonl (else FILE.d)/subagents/ through
 * io->subagents; Codex's spawned threads as rollouts of their own in FILE's folder, installed by the
 * rules of txc_install (req->as_new aside), each reported to io->done.  TXC_OK, or an error with d set.
 */
int txc_install_beside(const struct txc_writer_ops *ops, const struct txc_transcript *t, const struct txc_write_opts *w,
		       const char *file, const struct txc_install_req *req, const struct txc_install_ops *io,
		       struct txc_diag *d);

/*
 * Install t written by ops with w: *res says what happened.  TXC_OK (TXC_INST_EMPTY included: the
 * caller words it) or an error with d set (TXC_E_REFUSED: continued in the program, never
 * replaced; TXC_E_USAGE: ops has no target).
 */
int txc_install(const struct txc_writer_ops *ops, const struct txc_transcript *t, const struct txc_write_opts *w,
		const struct txc_install_req *req, const struct txc_install_ops *io, enum txc_install_res *res,
		struct txc_diag *d);

#endif
