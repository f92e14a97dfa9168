/*
 * cli.h - private to src/cli: the parsed arguments (options.c), the selection (select.c),
 * the Claude Code install (install.c), the convert path (convert_run.c); it includes the
 * headers of the tables (options.h, commands.h), diag.c, locate.c, files.c and output.c.
 */
#ifndef TXC_CLI_H
#define TXC_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "txc/convert.h"
#include "txc/diag.h"
#include "txc/install.h"
#include "txc/reader.h"
#include "txc/util.h"
#include "txc/writer.h"

#include "commands.h"
#include "diag.h"
#include "files.h"
#include "locate.h"
#include "options.h"
#include "output.h"

#define TXC_VERSION "0.2.0"

/* ---- the parsed arguments (options.c; the tables: options.h) ---- */

/* Which sessions (list, export): filters and order. */
struct cli_select {
	const char *since_arg, *until_arg, *source, *model, *cwd, *title;
	long limit;
	bool archived, utc, order_set;
	int order;          /* 0 started, 1 recent */
	unsigned list_more; /* listing flags the command adds (list: TXC_LIST_PREVIEW, ...) */
};

struct cli_store_opts {
	const char *db;
	const char *home;
	const char *profile;
	const char *input; /* --input FILE|- */
	bool skip_bad;
	const char *remote; /* --remote URL */
	const char *token;  /* --token (copied; the argument is wiped) */
	long timeout;
	bool legacy, all_sources; /* --legacy: <home>/sessions/ only; --all-sources: state.db and it */
	const char
		*from; /* --from, list's word or SESSION's WORD: prefix: a harness registry word (NULL: the default) */
};

/* txc search's own options */
struct cli_search {
	bool sessions, include_inactive, verbose;
	const char *role, *tool;
	int sort; /* enum txc_search_sort */
};

struct cli_args {
	struct cli_store_opts store;
	bool all_profiles, json, force, install, as_new, help, version, dry_run, progress, check;
	bool follow, no_pager, pager; /* --follow, --no-pager; pager: the command pages (view) */
	double interval;              /* --interval, seconds */
	bool redact;                  /* --redact: secrets replaced in the model (redact.c) */
	const char *to, *output, *out_dir;
	struct cli_select sel;
	struct cli_search search;
	struct txc_write_opts w;
	char cwd_now[4096]; /* w.cwd points here (cli_write_opts_finish) */
	unsigned wgiven;    /* the write options given (enum txc_write_opt bits) */
	char **pos;
	int n_pos;
	bool lineage, children, tree; /* convert --lineage, --children; list --tree */
	long jobs;                    /* export --out: -j N; 0 when not given (the number of CPUs) */
};

/*
 * The write options as every writer gets them, for convert and export alike: --images
 * by where the output goes (files beside a FILE, inline on stdout), and the current
 * directory as the cwd of a session that has none.
 */
void cli_write_opts_finish(struct cli_args *a, bool to_file);

/* ---- install for Claude Code (install.c) ---- */

/* ---- the writers, as the registry describes them (formats.c) ---- */

/* "claude, hermes or markdown": the writers with every cap in caps (0: all) */
void cli_format_list(struct txc_buf *b, unsigned caps);
/* the --to completion words, space-separated */
void cli_format_words(struct txc_buf *b);
/* TXC_LOAD_* flags to load a session for this writer */
unsigned cli_load_flags(const struct cli_args *a, const struct txc_writer_ops *ops);
/*
 * After parsing: refuse (exit 2) an option the writer does not take, --install
 * without TXC_WCAP_INSTALL, --images files without TXC_WCAP_ASSETS.  ops NULL:
 * export --json, which takes no write option.  0 when all is well.
 */
int cli_check_writer(const struct cli_cmd_info *c, const struct cli_args *a, const struct txc_writer_ops *ops);
/* the writer for --to (exit 2 with the list of formats when there is none) */
int cli_writer_for(const char *cmd, const char *to, const struct txc_writer_ops **ops);

/*
 * Install a converted session for its program (install.c, over the library's txc_install: ops
 * is claude or codex, the writers with TXC_WCAP_INSTALL), `claude --resume` or `codex resume`;
 * unless quiet, prints what happened and the resume command.  *res (enum txc_install_res) says
 * what happened; TXC_OK (also for a session without messages when quiet: a warning) or an
 * error with d set.
 */
enum txc_err cli_install(const struct cli_args *a, const struct txc_writer_ops *ops, const struct txc_transcript *t,
			 struct txc_write_opts *w, bool quiet, int *res, struct txc_diag *d);
/* -o FILE --children for a writer that installs: the subagents' files beside FILE (install.c) */
enum txc_err cli_children_beside(const struct cli_args *a, const struct txc_writer_ops *ops,
				 const struct txc_transcript *t, struct txc_diag *d);

/* ---- the sessions a command names (select.c) ---- */

struct cli_session {
	const struct txc_session_info *info; /* the store's summary (in the listing's arena) */
	size_t store;                        /* index in cli_stores */
	struct txc_sid id;                   /* names it in its store (kind, identity text, place) */
	size_t rank;                         /* internal: position in Hermes's export order */
	double key[2];                       /* internal: the sort keys, largest first (NaN last) */
	size_t at;                           /* internal: its place in the array the caller gave */
};
/* Parse WHEN (see --help); until: a bare date means the end of that day. */
int cli_parse_when(const char *s, bool utc, bool until, double now, double *out);
/* The selected sessions, filtered and ordered, at most --limit (*n_more: how many more matched). */
enum txc_err cli_select_sessions(const struct cli_args *a, const struct cli_cmd_info *c, struct cli_stores *st,
				 struct txc_arena *ar, struct cli_session **out, size_t *n, size_t *n_more,
				 struct txc_diag *d);
/*
 * search: store i's sessions can be named one at a time as the hits come (cli_pick), instead
 * of listed first: its backend searches itself and proves its ids plain (txc_store_names_plain),
 * and no legacy folder's sessions are checked against it (--all-sources).  Set st->v[i].deferred
 * then, before cli_select_sessions (which leaves it out).
 */
bool cli_select_deferrable(const struct cli_stores *st, size_t i);
/* The selection's filters, for one session at a time; cli_pick_free: the first failure to read a
 * session's row (d set), else TXC_OK.  pick_one: whether the session sid names in store is
 * selected (*out: it, its summary in ar), as cli_select_sessions would have selected it. */
struct cli_pick;
struct cli_pick *cli_pick_new(const struct cli_args *a, const struct cli_cmd_info *c, struct cli_stores *st);
bool cli_pick_one(struct cli_pick *p, size_t store, const struct txc_sid *sid, struct txc_arena *ar,
		  struct cli_session *out);
int cli_pick_free(struct cli_pick *p, struct txc_diag *d);
/* export --out from one store, without --limit or --order: Hermes's export order (a look at each
 * session's messages) is left to cli_select_export_order(), for a run that says something of two
 * sessions or more (it renders them, or it is a dry run); the sessions come newest first, as
 * `list` shows them. */
bool cli_select_order_later(const struct cli_args *a, const struct cli_cmd_info *c, const struct cli_stores *st);
/* The order cli_select_sessions() would have given: perm[k] is the index in v of the k-th. */
enum txc_err cli_select_export_order(struct cli_stores *st, const struct cli_session *v, size_t n, size_t *perm,
				     struct txc_diag *d);
/*
 * The convert path (convert_run.c) that convert and view share: SESSION (a->pos[0]) with the writer ops,
 * to stdout or -o FILE, paged when a->pager, followed with a->follow; the exit status.
 */
int cli_convert_run(const char *cmd, struct cli_args *a, const struct txc_writer_ops *ops);
/*
 * --follow (follow.c): the session, then each new message as it is committed, until the
 * session ends, is deleted (TXC_E_NOTFOUND), its store goes away, or SIGINT/SIGTERM; d set on failure.
 */
enum txc_err cli_follow(struct cli_args *a, const struct txc_writer_ops *ops, struct txc_diag *d);
/* The pipeline's request for SESSION as a asks for it (--lineage, --children, --redact; chain
 * warnings worded by cli_chain_note); range, secrets and the rest left for the command to set. */
void cli_convert_req(const struct cli_args *a, unsigned flags, const struct txc_sid *id, struct txc_convert_req *req);
/* The session a->pos[0] names, assembled (txc_assemble: chain, children, redaction as a asks);
 * *profile (if not NULL) gets its store's profile (malloc'd, or NULL).  The sources are closed again. */
enum txc_err cli_load_session(const struct cli_args *a, unsigned flags, struct txc_transcript **t, char **profile,
			      struct txc_diag *d);
/* What a Claude session uuid is scoped by for a store's profile: empty for the root store. */
struct txc_str cli_profile_scope(const char *profile);
/* SESSION as an exact id or unique prefix across the open stores. */
enum txc_err cli_resolve(struct cli_stores *st, const char *arg, size_t *store, struct txc_sid *id, struct txc_diag *d);

/* ---- whole conversations: chains, children, links (lineage.c) ---- */

struct txc_link;
struct txc_lineage;
/* one store's links and their index */
struct cli_links {
	struct txc_arena *arena;
	struct txc_link *v;
	size_t n;
	struct txc_lineage *l;
	size_t *root, *tip, *tree; /* per link, computed on first use (list) */
};
enum txc_err cli_links_open(struct txc_store *s, struct cli_links *x, struct txc_diag *d);
void cli_links_close(struct cli_links *x);
/* the pipeline's on_chain: one warning line for a chain that is cut or starts early */
void cli_chain_note(void *ctx, const struct txc_chain_note *n);
/* --children with Claude Code output: each loaded child as <base>/subagents/agent-<agentId>.jsonl
 * (session: the parent's session uuid); the same bytes again are left alone */
enum txc_err cli_write_subagents(const struct cli_args *a, const struct txc_transcript *t,
				 const struct txc_write_opts *w, const char *base, const char *session,
				 struct txc_diag *d);
/* export --lineage / --children: the selection cut to one session per file: a chain member whose
 * tip is selected is in the tip's file, a delegate child in its parent's (a child's own children
 * are not adopted by the grandparent: they keep their file); each kept session's fingerprint then
 * covers the sessions its file holds (their end and last activity), so a re-run sees them change */
enum txc_err cli_lineage_fold(const struct cli_args *a, struct cli_stores *st, struct cli_session *v, size_t *n,
			      struct txc_arena *ar, struct txc_diag *d);
/* list --json: ,"parent_session_id" (when the row has none), "lineage_root", "lineage_tip" of session id */
void cli_lineage_json(struct txc_buf *b, struct cli_links *x, const struct txc_json *row, struct txc_str id);
/* list --tree: v reordered, each session after the one it is drawn under, its id indented (in ar);
 * lx: the links of each store of the selection */
void cli_tree_order(struct cli_links *lx, size_t n_stores, struct cli_session *v, size_t n, struct txc_arena *ar);
/* ---- --redact and the likely-secrets warning (redact.c) ---- */

struct txc_redactor;
/* Without --redact, for a writer with TXC_WCAP_SHARED writing a file or a pipe: count t's likely
 * secrets; cli_secrets_warn says so in one line (count and kinds) for everything noted. */
struct cli_secrets {
	struct txc_redactor *scan;
	size_t more;          /* counted elsewhere (export -j workers): cli_secrets_add */
	struct txc_buf kinds; /* and their kinds, "a, b" */
};
void cli_secrets_note(struct cli_secrets *sc, const struct cli_args *a, const struct txc_writer_ops *ops,
		      struct txc_transcript *t, bool to_file);
/* The scan-only redactor a conversion counts with (txc_convert_req.secrets), or NULL when
 * cli_secrets_note would count nothing. */
struct txc_redactor *cli_secrets_scanner(struct cli_secrets *sc, const struct cli_args *a,
					 const struct txc_writer_ops *ops, bool to_file);
void cli_secrets_warn(struct cli_secrets *sc);
/* What sc counted (kinds appended to *kinds as "a, b"), sc released: a worker sends it on. */
size_t cli_secrets_take(struct cli_secrets *sc, struct txc_buf *kinds);
/* n secrets of these kinds ("a, b"), counted by another process, in sc's one warning. */
void cli_secrets_add(struct cli_secrets *sc, size_t n, const char *kinds);
void cli_secrets_release(struct cli_secrets *sc); /* no warning (the write failed) */

#endif
