/*
 * options.h - private to src/cli: the option catalogue and the command rows (options.c).
 *
 * options.c owns every option's row (its name, help, completion words, and where its value
 * goes: a setter and a field of struct cli_args), in the order help and the completions list
 * them.  A command owns which options it takes: its row (struct cli_cmd_info, in its cmd_*.c)
 * points at a NULL-ended list of option rows, written with the shared groups below and its own
 * options.  Nothing maps an option to the commands that take it; help, the completions and the
 * "does not apply" refusal read the command's list.
 */
#ifndef TXC_CLI_OPTIONS_H
#define TXC_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "txc/diag.h"

struct cli_args;
struct cli_opt;

/* Store option o's value v (NULL for a flag) in a; TXC_OK, or TXC_E_USAGE said for command cmd. */
typedef enum txc_err (*cli_opt_set)(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a);

/* where an option is listed in txc --help */
enum {
	CLI_OPT_STORE = 1, /* a store option (--db, --home, ...): its own section */
	CLI_OPT_MAIN = 2,  /* an option of txc itself too (txc --help, txc --version) */
};

struct cli_opt {
	const char *name;
	int short_name;
	const char *arg;    /* metavariable, NULL for a flag */
	const char *values; /* completion words, "@file", "@dir", "@format" (the writers' names), "@profile",
			       "@source" (the store's: txc __complete), or NULL */
	const char *help;
	cli_opt_set set;
	size_t off;                 /* its field in struct cli_args, for the setters that take one */
	const char *const *choices; /* the words a choice takes, NULL-ended (the field gets the index) */
	unsigned wopt;              /* the write option (enum txc_write_opt) it sets: a writer may refuse it */
	unsigned group;             /* CLI_OPT_* */
};

/* every option row, in the order of help and the completions */
extern const struct cli_opt cli_opt_db, cli_opt_home, cli_opt_profile, cli_opt_all_profiles, cli_opt_input,
	cli_opt_skip_bad, cli_opt_remote, cli_opt_token, cli_opt_timeout, cli_opt_since, cli_opt_until, cli_opt_source,
	cli_opt_model, cli_opt_cwd, cli_opt_title, cli_opt_limit, cli_opt_archived, cli_opt_order, cli_opt_json,
	cli_opt_sessions, cli_opt_role, cli_opt_tool, cli_opt_sort, cli_opt_include_inactive, cli_opt_verbose,
	cli_opt_to, cli_opt_output, cli_opt_out, cli_opt_force, cli_opt_dry_run, cli_opt_progress, cli_opt_install,
	cli_opt_as_new, cli_opt_reasoning, cli_opt_detail, cli_opt_max_output_lines, cli_opt_images,
	cli_opt_include_compacted, cli_opt_hermes_format, cli_opt_utc, cli_opt_check, cli_opt_color, cli_opt_width,
	cli_opt_follow, cli_opt_interval, cli_opt_no_pager, cli_opt_help, cli_opt_version, cli_opt_legacy,
	cli_opt_all_sources, cli_opt_lineage, cli_opt_children, cli_opt_tree, cli_opt_redact, cli_opt_from,
	cli_opt_jobs;

/* The shared groups, for a command's option list (the order in a list does not matter). */
#define CLI_STORE_OPTIONS                                                                                       \
	&cli_opt_db, &cli_opt_home, &cli_opt_profile, &cli_opt_all_profiles, &cli_opt_input, &cli_opt_skip_bad, \
		&cli_opt_remote, &cli_opt_token, &cli_opt_timeout, &cli_opt_legacy, &cli_opt_all_sources,       \
		&cli_opt_from
/* which sessions: list's filters, which export, search and view take too */
#define CLI_FILTER_OPTIONS \
	&cli_opt_since, &cli_opt_until, &cli_opt_source, &cli_opt_model, &cli_opt_cwd, &cli_opt_title, &cli_opt_limit
/* "@harness" in a usage or a list of words: the harness registry's names, SEP between them (in
 * TMP, or TEXT itself when it has none); an option's help, --from's made from the registry. */
const char *cli_with_harnesses(const char *text, const char *sep, struct txc_buf *tmp);
const char *cli_opt_help_text(const struct cli_opt *o, struct txc_buf *tmp);

/* every command that takes options takes these */
#define CLI_COMMON_OPTIONS &cli_opt_utc, &cli_opt_color, &cli_opt_help, &cli_opt_version
/* how a transcript is rendered (convert, export, view) */
#define CLI_RENDER_OPTIONS &cli_opt_detail, &cli_opt_max_output_lines, &cli_opt_include_compacted, &cli_opt_width
/* writing a format (convert, export) */
#define CLI_WRITE_OPTIONS                                                                                    \
	&cli_opt_to, &cli_opt_force, &cli_opt_install, &cli_opt_as_new, &cli_opt_reasoning, &cli_opt_images, \
		&cli_opt_hermes_format, CLI_RENDER_OPTIONS
#define CLI_FOLLOW_OPTIONS &cli_opt_follow, &cli_opt_interval

/* flags of a command */
enum {
	CLI_CMD_HIDDEN = 1,       /* not listed or completed: help, version (txc --help, txc --version) */
	CLI_CMD_REFUSED = 2,      /* named only to be refused: listed in txc --help, not completed */
	CLI_CMD_HARNESS_WORD = 4, /* its first word may name a harness (list claude) */
	CLI_CMD_SESSION_ARG = 8,  /* its SESSION may name a harness (claude:ID) */
	CLI_CMD_EXPORTS = 16,     /* selects as Hermes exports: archived sessions too, in its order */
};

/* One command: main() runs what it names. */
struct cli_cmd_info {
	const char *name, *usage, *summary, *about;
	int (*run)(int argc, char **argv);
	const struct cli_opt *const *opts; /* the options it takes, NULL-ended; NULL: it reads its own argv */
	unsigned flags;                    /* CLI_CMD_* */
	const char *values;                /* completion words of its argument (completions: the shells), or NULL */
	unsigned wopt_own;    /* write options it reads itself: a writer that does not never refuses them */
	const char *examples; /* what its --help ends with: 3 to 5 lines "  txc ...  # what it does" */
};

/* The command table (options.c: one line a command), in txc --help order. */
const struct cli_cmd_info *const *cli_commands(size_t *n);
/* The command argv[1] names ("--help", "-h" and "--version" name help and version), or NULL. */
const struct cli_cmd_info *cli_command_named(const char *arg);
/* every option row, in help order */
const struct cli_opt *const *cli_options(size_t *n);
/* Whether command c takes option o (o is in its list). */
bool cli_cmd_takes(const struct cli_cmd_info *c, const struct cli_opt *o);
/* The option that sets write option wopt (one bit), or NULL. */
const struct cli_opt *cli_option_of_wopt(unsigned wopt);
/* The option's left column in help: "-o, --output FILE". */
void cli_opt_describe(FILE *f, const struct cli_opt *o);
/* TXC_OK, or TXC_E_USAGE after saying why; --version stops it (a->version). */
enum txc_err cli_parse(const struct cli_cmd_info *c, int argc, char **argv, struct cli_args *a);
void cli_help(const struct cli_cmd_info *c, FILE *f);
/* cli_parse, then --version and --help handled: true, go on; false, stop with exit *status. */
bool cli_begin(const struct cli_cmd_info *c, int argc, char **argv, struct cli_args *a, int *status);

/* "did you mean" (suggest.c): the word of cands nearest word (edit distance, or one it abbreviates:
 * "md" for markdown), or NULL when none is near; the note "; did you mean 'X'?" (or "") in out. */
enum { CLI_NOTE_MAX = 96 };
const char *cli_suggest(const char *word, const char *const *cands, size_t n);
const char *cli_suggest_note(char out[CLI_NOTE_MAX], const char *word, const char *const *cands, size_t n);

#endif
