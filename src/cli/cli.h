/* cli.h - private to src/cli: options, store location, safe file output. */
#ifndef TXC_CLI_H
#define TXC_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "txc/diag.h"
#include "txc/reader.h"
#include "txc/util.h"
#include "txc/writer.h"

#define TXC_VERSION "0.2.0"

/* ---- commands and options (options.c) ---- */

enum { CMD_LIST = 1, CMD_CONVERT = 2, CMD_EXPORT = 4, CMD_ARTIFACTS = 8 };

struct cli_cmd_info {
	unsigned cmd;
	const char *name, *usage, *summary, *about;
};

struct cli_opt {
	const char *name;
	int short_name;
	int id;
	const char *arg;    /* metavariable, NULL for a flag */
	const char *values; /* completion words, "@file", "@dir" or NULL */
	unsigned cmds;      /* the commands it applies to */
	const char *help;
};

/* Which sessions (list, export): filters and order. */
struct cli_select {
	const char *since_arg, *until_arg, *source, *model, *cwd, *title;
	long limit;
	bool archived, utc, order_set;
	int order; /* 0 started, 1 recent */
};

struct cli_store_opts {
	const char *db;
	const char *home;
	const char *profile;
	const char *input;  /* --input FILE|- */
	bool skip_bad;
	const char *remote; /* --remote URL */
	char *token;        /* --token (copied; the argument is wiped) */
	long timeout;
};

struct cli_args {
	struct cli_store_opts store;
	bool all_profiles, json, force, install, as_new, help, dry_run, progress, check;
	const char *to, *output, *out_dir;
	struct cli_select sel;
	struct txc_write_opts w;
	char **pos;
	int n_pos;
};

const struct cli_cmd_info *cli_commands(size_t *n);
const struct cli_cmd_info *cli_command(unsigned cmd);
/* 0 parsed; -1 done (--version printed); else an exit code after a usage error */
int cli_parse(unsigned cmd, int argc, char **argv, struct cli_args *a);
void cli_help(unsigned cmd, FILE *f);
/* cli_parse, then --help handled: 0 go on; -1 done (exit 0); else the exit code */
int cli_begin(unsigned cmd, int argc, char **argv, struct cli_args *a);
int cli_completions(const char *shell);

/*
 * Install a converted session for `claude --resume` (install.c); unless quiet, prints what
 * happened and the resume command.  Returns an exit status; *res says what happened.
 */
enum { CLI_INST_NEW, CLI_INST_UPDATED, CLI_INST_SAME, CLI_INST_EMPTY, CLI_INST_REFUSED, CLI_INST_FAILED };
int cli_install_claude(const struct cli_args *a, const struct txc_transcript *t, struct txc_write_opts *w, bool quiet,
		       int *res);

/* ---- diagnostics and colour (main.c) ---- */

void cli_say(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_fail(const struct txc_diag *d);
/* fwrite to stdout; on failure the errno is kept for the one error line main() prints */
int cli_stdout_write(const char *p, size_t len);
/* A write to stdout failed with err (errno): reported once at exit. */
void cli_stdout_failed(int err);
int cli_usage(unsigned cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_color_set(int when); /* 0 auto, 1 always, 2 never */
bool cli_color_stdout(void);
/* An SGR colour around text when colour is on for stdout ("1" bold, "33" yellow, ...). */
void cli_paint(struct txc_buf *b, const char *sgr, const char *text, size_t len);

/* ---- the stores and the sessions a command names (select.c) ---- */

struct cli_store_ref {
	char *profile; /* "default" for the root store, NULL with --db */
	char *path;
	struct txc_store *s;
};
struct cli_stores {
	struct cli_store_ref *v;
	size_t n;
	size_t n_broken; /* --all-profiles: profiles that could not be opened (warned about, left out) */
};
/* One store (--db, --home/--profile), or every profile with --all-profiles. */
int cli_stores_open(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d);
void cli_stores_close(struct cli_stores *st);

struct cli_session {
	const struct txc_session_info *info; /* the store's summary (in the listing's arena) */
	size_t store;                        /* index in cli_stores */
	struct txc_sid id;                   /* names it in its store (kind, identity text, place) */
	size_t rank; /* internal: position in Hermes's export order */
};
/* Parse WHEN (see --help); until: a bare date means the end of that day. */
int cli_parse_when(const char *s, bool utc, bool until, double now, double *out);
/* The selected sessions, filtered and ordered, at most --limit (*n_more: how many more matched). */
int cli_select_sessions(const struct cli_args *a, unsigned cmd, struct cli_stores *st, struct txc_arena *ar,
			struct cli_session **out, size_t *n, size_t *n_more, struct txc_diag *d);
/* stdout as a txc_out; on a terminal every byte goes through cli_safe_text (pipes stay exact).
 * cli_out_finish flushes it (and what a cut UTF-8 sequence held back): 0 or -1 (out->err). */
struct cli_tty {
	char carry[4];
	size_t n_carry;
};
void cli_out_stdout(struct txc_out *out, struct cli_tty *tty);
int cli_out_finish(struct txc_out *out);
/* Open the sources, find SESSION (a->pos[0]) and load it; the sources are closed again. */
int cli_load_session(const struct cli_args *a, unsigned flags, struct txc_transcript **t, struct txc_diag *d);
/* SESSION as an exact id or unique prefix across the open stores. */
int cli_resolve(struct cli_stores *st, const char *arg, size_t *store, struct txc_sid *id, struct txc_diag *d);

/* The path of state.db the options name (malloc'd), or NULL with d set. */
char *cli_store_path(const struct cli_store_opts *o, struct txc_diag *d);
bool cli_profile_name_ok(const char *name);

/*
 * Write len bytes to path atomically: a temporary file in the same folder,
 * then rename (with force) or link (without: an existing file is refused).
 */
int cli_write_file(const char *path, const char *p, size_t len, bool force, struct txc_diag *d);

/* The same in steps, for output written as it is made: write to w->f, then commit or abort. */
struct cli_atomic {
	FILE *f;
	char *tmp, *path;
	bool force;
	const struct stat *unchanged; /* if set: replace path only if it is still this file, unchanged */
};
int cli_atomic_open(struct cli_atomic *w, const char *path, bool force, struct txc_diag *d);
int cli_atomic_commit(struct cli_atomic *w, struct txc_diag *d);
void cli_atomic_abort(struct cli_atomic *w);
/* Create dir and its parents (never one that takes a source's name). */
int cli_mkdirs(const char *dir, struct txc_diag *d);

/*
 * The files txc reads (a store, with its -wal, -shm and -journal, or an --input
 * file) are never written, replaced or removed through any name: every output
 * path is checked by device+inode and by resolved name.  cli_guard_check
 * returns TXC_E_REFUSED with d set when writing target would touch a source.
 */
void cli_guard_source(const char *path, bool store);
int cli_guard_check(const char *target, struct txc_diag *d);
/* The same for standard output (a shell's `>> state.db`); `--input -` from a file is a source too. */
int cli_guard_stdout(struct txc_diag *d);

/*
 * Images of a Markdown file written beside it (--images files): the writer's
 * sink collects them; cli_assets_write() stores them in FILE.assets/ after
 * the document is known to be complete.  Names come from the writer
 * ("image-N.ext"), never from transcript data.
 */
struct cli_assets {
	struct txc_asset_sink sink;
	char *dir;
	struct {
		char *name, *bytes;
		size_t len;
	} *items;
	size_t n;
};
void cli_assets_init(struct cli_assets *as, const char *output);
int cli_assets_write(const struct cli_assets *as, bool force, struct txc_diag *d);
void cli_assets_release(struct cli_assets *as);

/* Quote untrusted text for a terminal: control characters and escapes shown as \xHH. */
void cli_safe_text(struct txc_buf *b, const char *p, size_t len, bool one_line);

#endif
