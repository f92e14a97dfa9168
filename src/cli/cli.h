/*
 * cli.h - private to src/cli: the command and option tables and the parsed
 * arguments (options.c), the selection (select.c), the Claude Code install
 * (install.c); it includes the headers of diag.c, locate.c and files.c.
 */
#ifndef TXC_CLI_H
#define TXC_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "txc/diag.h"
#include "txc/reader.h"
#include "txc/util.h"
#include "txc/writer.h"

#include "commands.h"
#include "diag.h"
#include "files.h"
#include "locate.h"

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
	const char *input; /* --input FILE|- */
	bool skip_bad;
	const char *remote; /* --remote URL */
	const char *token;  /* --token (copied; the argument is wiped) */
	long timeout;
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
	const char *to, *output, *out_dir;
	struct cli_select sel;
	struct cli_search search;
	struct txc_write_opts w;
	char cwd_now[4096]; /* w.cwd points here (cli_write_opts_finish) */
	unsigned wgiven;    /* the write options given (enum txc_write_opt bits) */
	char **pos;
	int n_pos;
	long jobs; /* export --out: -j N; 0 when not given (the number of CPUs) */
};

const struct cli_cmd_info *cli_commands(size_t *n);
const struct cli_cmd_info *cli_command(unsigned cmd);
/* The command argv[1] names ("--help", "-h" and "--version" name help and version), or NULL. */
const struct cli_cmd_info *cli_command_named(const char *arg);
/* every option of the table (help and completions read it) */
const struct cli_opt *cli_options(size_t *n);
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

/* ---- install for Claude Code (install.c) ---- */

/* ---- the writers, as the registry describes them (formats.c) ---- */

/* "claude, hermes or markdown": the writers with every cap in caps (0: all) */
void cli_format_list(struct txc_buf *b, unsigned caps);
/* the write option (enum txc_write_opt) that --name sets, or 0 */
unsigned cli_write_option(const char *name);
/* the --to completion words, space-separated */
void cli_format_words(struct txc_buf *b);
/* TXC_LOAD_* flags to load a session for this writer */
unsigned cli_load_flags(const struct cli_args *a, const struct txc_writer_ops *ops);
/*
 * After parsing: refuse (exit 2) an option the writer does not take, --install
 * without TXC_WCAP_INSTALL, --images files without TXC_WCAP_ASSETS.  ops NULL:
 * export --json, which takes no write option.  0 when all is well.
 */
int cli_check_writer(unsigned cmd, const struct cli_args *a, const struct txc_writer_ops *ops);
/* the writer for --to (exit 2 with the list of formats when there is none) */
int cli_writer_for(unsigned cmd, const char *to, const struct txc_writer_ops **ops);

/*
 * Install a converted session for `claude --resume` (install.c); unless quiet, prints what
 * happened and the resume command.  *res says what happened; TXC_OK (also for a session
 * without messages when quiet: a warning) or an error with d set.
 */
enum { CLI_INST_NEW, CLI_INST_UPDATED, CLI_INST_SAME, CLI_INST_EMPTY, CLI_INST_REFUSED, CLI_INST_FAILED };
enum txc_err cli_install_claude(const struct cli_args *a, const struct txc_transcript *t, struct txc_write_opts *w,
				bool quiet, int *res, struct txc_diag *d);

/* ---- the sessions a command names (select.c) ---- */

struct cli_session {
	const struct txc_session_info *info; /* the store's summary (in the listing's arena) */
	size_t store;                        /* index in cli_stores */
	struct txc_sid id;                   /* names it in its store (kind, identity text, place) */
	size_t rank;                         /* internal: position in Hermes's export order */
	double key[2];                       /* internal: the sort keys, largest first (NaN last) */
};
/* Parse WHEN (see --help); until: a bare date means the end of that day. */
int cli_parse_when(const char *s, bool utc, bool until, double now, double *out);
/* The selected sessions, filtered and ordered, at most --limit (*n_more: how many more matched). */
enum txc_err cli_select_sessions(const struct cli_args *a, unsigned cmd, struct cli_stores *st, struct txc_arena *ar,
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
/* The session a->pos[0] names, loaded; *profile (if not NULL) gets its store's profile (malloc'd, or NULL). */
enum txc_err cli_load_session(const struct cli_args *a, unsigned flags, struct txc_transcript **t, char **profile,
			      struct txc_diag *d);
/* What a Claude session uuid is scoped by for a store's profile: empty for the root store. */
struct txc_str cli_profile_scope(const char *profile);
/* SESSION as an exact id or unique prefix across the open stores. */
enum txc_err cli_resolve(struct cli_stores *st, const char *arg, size_t *store, struct txc_sid *id, struct txc_diag *d);

#endif
