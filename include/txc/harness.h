/*
 * harness.h - the harnesses txc reads sessions of, and where each keeps them.
 *
 * The registry (src/reader/harness.c) is the one list of harnesses, as
 * writer.c is the one list of formats: the CLI's --from words, `list WORD`,
 * SESSION's WORD: prefix, help, completions, the store options each takes
 * and the files no output may replace all come from it, never from a name
 * the CLI spells.  Each harness is one locator file beside its readers
 * (hermes_locate.c, claude_locate.c, codex/locate.c) holding one struct txc_harness: where
 * its sessions live by default and which variable moves them, the files it
 * reads (guarded), its own data that no run may write whatever it reads, and
 * the backend that opens a location.  The registry knows paths, not
 * messages: the CLI words what it says to the user.
 *
 * Ownership: the registry and its entries are static; a locator's path is
 * malloc'd for the caller; guard sinks borrow each path for the call only.
 */
#ifndef TXC_HARNESS_H
#define TXC_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "txc/diag.h"
#include "txc/reader.h"

/* The store options that name a location; a harness lists those it takes (the CLI refuses the rest). */
enum txc_locate_opt {
	TXC_LOC_DB = 1 << 0,           /* --db FILE */
	TXC_LOC_HOME = 1 << 1,         /* --home DIR */
	TXC_LOC_PROFILE = 1 << 2,      /* --profile NAME */
	TXC_LOC_ALL_PROFILES = 1 << 3, /* --all-profiles */
	TXC_LOC_INPUT = 1 << 4,        /* --input FILE */
	TXC_LOC_REMOTE = 1 << 5,       /* --remote URL */
};

/* What the command line says about the location (NULL: not given). */
struct txc_locate {
	const char *db, *home, *profile;
};

/* How a path is guarded (the CLI's output guard keeps the list). */
enum txc_guard_kind {
	TXC_GUARD_SOURCE,     /* a file this run reads */
	TXC_GUARD_STORE,      /* a database this run reads (with its -wal, -shm, -journal) */
	TXC_GUARD_FOLDER,     /* a folder whose files are read by name: nothing new may be made in it */
	TXC_GUARD_OWN,        /* the harness's own database, read by this run or not */
	TXC_GUARD_OWN_FOLDER, /* the harness's own folder of session files, read or not */
	TXC_GUARD_TREE,       /* another program's folder of session files: no output replaces a file under it
			       * (--install writes there, through checks of its own) */
};
struct txc_guard_sink {
	void (*add)(void *ctx, const char *path, enum txc_guard_kind kind);
	void *ctx;
};

struct txc_harness {
	const char *name;    /* the word: --from NAME, `list NAME`, NAME:ID */
	const char *label;   /* its name in messages: "Hermes", "Claude Code" */
	const char *summary; /* what --from's help says after the name */
	const char *env;     /* the variable that moves its data: "HERMES_HOME", "CLAUDE_CONFIG_DIR" */
	const char *where;   /* where it reads, as messages put it: "$CLAUDE_CONFIG_DIR/projects" */
	const char *missing; /* what the default location lacks when it is not there: "Hermes store" */
	const char *hint;    /* how to name another: "set CLAUDE_CONFIG_DIR" */
	unsigned opts;       /* enum txc_locate_opt: the location options it takes */
	/* The default location, from the options and the environment (malloc'd); NULL with d set. */
	char *(*locate)(const struct txc_locate *l, struct txc_diag *d);
	/* The files at a location that a run reading it reads: never an output. */
	void (*guard)(const char *path, const struct txc_guard_sink *g);
	/* Optional: the harness's own data, which no run may write whatever it reads. */
	void (*protect)(const struct txc_locate *l, const struct txc_guard_sink *g);
	/* The location as a store. */
	int (*open)(struct txc_store **out, const char *path, struct txc_diag *d);
};

/* Every harness, the default (what runs without --from read) first. */
const struct txc_harness *const *txc_harness_all(size_t *n);
/* The harness of that word, or NULL. */
const struct txc_harness *txc_harness_find(const char *name);
/* The store of a harness at path (its opener): TXC_E_USAGE for a harness txc does not know. */
int txc_store_open_kind(struct txc_store **out, const char *harness, const char *path, struct txc_diag *d);

/*
 * Hermes's homes (hermes_locate.c), for the options only Hermes takes (--profile, --all-profiles,
 * --legacy): a profile's name is [a-z0-9][a-z0-9_-]{0,63}; the names under <home>/profiles that are
 * one, sorted (*n of them, each malloc'd, the array too).
 */
bool txc_hermes_profile_ok(const char *name);
char **txc_hermes_profiles(const char *home, size_t *n);

/*
 * Codex CLI's folders (src/reader/codex/locate.c): its home ($CODEX_HOME, else ~/.codex), the
 * sessions folder it reads rollouts from (<home>/sessions, searched recursively for
 * rollout-*.jsonl) and its archived ones (<home>/archived_sessions); malloc'd, NULL with d set
 * when neither CODEX_HOME nor HOME is set.
 */
char *txc_codex_home(struct txc_diag *d);
char *txc_codex_sessions_dir(struct txc_diag *d);
char *txc_codex_archived_dir(struct txc_diag *d);

#endif
