/* cli.h - private to src/cli: options, store location, safe file output. */
#ifndef TXC_CLI_H
#define TXC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "txc/diag.h"
#include "txc/reader.h"
#include "txc/util.h"
#include "txc/writer.h"

#include "commands.h"

#define TXC_VERSION "0.2.0"

/* ---- commands and options (options.c) ---- */

/* flags of a command */
enum {
	CLI_CMD_STORE = 1,   /* takes the store options (--db, --home, ...) */
	CLI_CMD_HIDDEN = 2,  /* not listed or completed: help, version (txc --help, txc --version) */
	CLI_CMD_REFUSED = 4, /* named only to be refused: listed in txc --help, not completed */
};

/* One row of the command table: main() runs what it names. */
struct cli_cmd_info {
	unsigned cmd; /* its CMD_* bit in the option masks; 0: it takes no options */
	const char *name, *usage, *summary, *about;
	int (*run)(int argc, char **argv);
	unsigned flags;     /* CLI_CMD_* */
	const char *values; /* completion words of its argument (completions: the shells), or NULL */
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
	const char *token;  /* --token (copied; the argument is wiped) */
	long timeout;
};

struct cli_args {
	struct cli_store_opts store;
	bool all_profiles, json, force, install, as_new, help, version, dry_run, progress, check;
	const char *to, *output, *out_dir;
	struct cli_select sel;
	struct txc_write_opts w;
	char cwd_now[4096]; /* w.cwd points here (cli_write_opts_finish) */
	char **pos;
	int n_pos;
};

const struct cli_opt *cli_options(size_t *n);
const struct cli_cmd_info *cli_commands(size_t *n);
const struct cli_cmd_info *cli_command(unsigned cmd);
/* The command argv[1] names ("--help", "-h" and "--version" name help and version), or NULL. */
const struct cli_cmd_info *cli_command_named(const char *arg);
/* Whether option o applies to command c (its bit, or a store option of a command that reads a store). */
bool cli_opt_applies(const struct cli_opt *o, const struct cli_cmd_info *c);
/* The option's left column in help: "-o, --output FILE". */
void cli_opt_help(FILE *f, const struct cli_opt *o);
/* TXC_OK, or TXC_E_USAGE after saying why; --version stops it (a->version). */
enum txc_err cli_parse(unsigned cmd, int argc, char **argv, struct cli_args *a);
void cli_help(unsigned cmd, FILE *f);
/* cli_parse, then --version and --help handled: true, go on; false, stop with exit *status. */
bool cli_begin(unsigned cmd, int argc, char **argv, struct cli_args *a, int *status);
/*
 * The write options as every writer gets them, for convert and export alike: --images
 * by where the output goes (files beside a FILE, inline on stdout), and the current
 * directory as the cwd of a session that has none.
 */
void cli_write_opts_finish(struct cli_args *a, bool to_file);

/*
 * Install a converted session for `claude --resume` (install.c); unless quiet, prints what
 * happened and the resume command.  *res says what happened; TXC_OK (also for a session
 * without messages when quiet: a warning) or an error with d set.
 */
enum { CLI_INST_NEW, CLI_INST_UPDATED, CLI_INST_SAME, CLI_INST_EMPTY, CLI_INST_REFUSED, CLI_INST_FAILED };
enum txc_err cli_install_claude(const struct cli_args *a, const struct txc_transcript *t, struct txc_write_opts *w,
				bool quiet, int *res, struct txc_diag *d);

/* ---- diagnostics and colour (diag.c) ---- */

void cli_diag_init(void); /* before the first message: is stderr a terminal */
/* "txc: error: ..." and "txc: warning: ..." on stderr, escaped on a terminal. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* d as an error: its message, the advice its code calls for (which flag), its candidates. */
void cli_report(const struct txc_diag *d);
/* For cmd_* only: cli_report, then the exit status of d->code. */
int cli_fail(const struct txc_diag *d);
/* The library's warnings (txc_diag.warn), worded. */
void cli_warning(void *ctx, enum txc_warn w, const char *where, size_t n);
/* For cmd_* only: a usage error naming the command's --help; returns exit status 2. */
int cli_usage(unsigned cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_color_set(int when); /* 0 auto, 1 always, 2 never */
bool cli_color_stdout(void);
/* An SGR colour around text when colour is on for stdout ("1" bold, "33" yellow, ...). */
void cli_paint(struct txc_buf *b, const char *sgr, const char *text, size_t len);

/* ---- the stores a command reads (locate.c) ---- */

struct cli_store_ref {
	char *profile; /* "default" for the root store, NULL with --db */
	char *path;
	struct txc_store *s;
};
struct cli_stores {
	struct cli_store_ref *v;
	size_t n;
};
/* One store (--db, --home/--profile), or every profile with --all-profiles. */
enum txc_err cli_stores_open(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d);
void cli_stores_close(struct cli_stores *st);

/* The path of state.db the options name (malloc'd), or NULL with d set. */
char *cli_store_path(const struct cli_store_opts *o, struct txc_diag *d);
bool cli_profile_name_ok(const char *name);

/* ---- the sessions a command names (select.c) ---- */

struct cli_session {
	const struct txc_json *row; /* every session column, then last_active */
	size_t store;               /* index in cli_stores */
	struct txc_str id, title;
	double started, last_active;
	size_t rank;   /* internal: position in Hermes's export order */
	double key[2]; /* internal: the sort keys, largest first (NaN last) */
};
/* Parse WHEN (see --help); until: a bare date means the end of that day. */
int cli_parse_when(const char *s, bool utc, bool until, double now, double *out);
/* The selected sessions, filtered and ordered, at most --limit (*n_more: how many more matched). */
enum txc_err cli_select_sessions(const struct cli_args *a, unsigned cmd, struct cli_stores *st, struct txc_arena *ar,
				 struct cli_session **out, size_t *n, size_t *n_more, struct txc_diag *d);
/* Open the sources, find SESSION (a->pos[0]) and load it; the sources are closed again. */
enum txc_err cli_load_session(const struct cli_args *a, unsigned flags, struct txc_transcript **t, struct txc_diag *d);
/* SESSION as an exact id or unique prefix across the open stores. */
enum txc_err cli_resolve(struct cli_stores *st, const char *arg, size_t *store, char **id, struct txc_diag *d);

/* ---- files txc writes (files.c) ---- */

/*
 * Write len bytes to path atomically: a temporary file in the same folder,
 * then rename (with force) or link (without: an existing file is refused).
 */
enum txc_err cli_write_file(const char *path, const char *p, size_t len, bool force, struct txc_diag *d);

/* The same in steps, for output written as it is made: write to w->f, then commit or abort. */
struct cli_atomic {
	FILE *f;
	char *tmp, *path;
	bool force;
};
enum txc_err cli_atomic_open(struct cli_atomic *w, const char *path, bool force, struct txc_diag *d);
enum txc_err cli_atomic_commit(struct cli_atomic *w, struct txc_diag *d);
void cli_atomic_abort(struct cli_atomic *w);
/* Create dir and its parents (never one that takes a source's name). */
enum txc_err cli_mkdirs(const char *dir, struct txc_diag *d);

/*
 * The files txc reads (a store, with its -wal, -shm and -journal, or an --input
 * file) are never written, replaced or removed through any name: every output
 * path is checked by device+inode and by resolved name.  cli_guard_check
 * returns TXC_E_REFUSED with d set when writing target would touch a source.
 */
void cli_guard_source(const char *path, bool store);
enum txc_err cli_guard_check(const char *target, struct txc_diag *d);

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
enum txc_err cli_assets_write(const struct cli_assets *as, bool force, struct txc_diag *d);
void cli_assets_release(struct cli_assets *as);

/* Quote untrusted text for a terminal: control characters and escapes shown as \xHH. */
void cli_safe_text(struct txc_buf *b, const char *p, size_t len, bool one_line);

#endif
