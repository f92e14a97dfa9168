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
 * the backend that opens a location.  A harness with more than one kind of
 * source lists them too (Hermes, in hermes_sources.c: the export file and
 * the dashboard an option selects, the legacy folder beside each store, a
 * home's profiles, and which of its options go together), so the CLI walks
 * what the registry gives and names no harness.  The registry knows paths;
 * the CLI words most of what it says to the user (a harness's check words
 * the conflicts between its own options).
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

/*
 * The store options; a harness lists those it takes (the CLI refuses the rest by name, so that
 * none is silently ignored).  The first six name a location (TXC_LOC_WHERE); the others say how
 * one is read.
 */
enum txc_locate_opt {
	TXC_LOC_DB = 1 << 0,           /* --db FILE */
	TXC_LOC_HOME = 1 << 1,         /* --home DIR */
	TXC_LOC_PROFILE = 1 << 2,      /* --profile NAME */
	TXC_LOC_ALL_PROFILES = 1 << 3, /* --all-profiles */
	TXC_LOC_INPUT = 1 << 4,        /* --input FILE */
	TXC_LOC_REMOTE = 1 << 5,       /* --remote URL */
	TXC_LOC_SKIP_BAD = 1 << 6,     /* --skip-bad */
	TXC_LOC_TOKEN = 1 << 7,        /* --token TOKEN */
	TXC_LOC_TIMEOUT = 1 << 8,      /* --timeout SECONDS */
	TXC_LOC_LEGACY = 1 << 9,       /* --legacy */
	TXC_LOC_ALL_SOURCES = 1 << 10, /* --all-sources */
};
#define TXC_LOC_WHERE \
	(TXC_LOC_DB | TXC_LOC_HOME | TXC_LOC_PROFILE | TXC_LOC_ALL_PROFILES | TXC_LOC_INPUT | TXC_LOC_REMOTE)

/* What the command line says about the location (NULL, 0, false: not given). */
struct txc_locate {
	const char *db, *home, *profile;
	const char *input;  /* --input FILE|- (an export file) */
	const char *remote; /* --remote URL (a dashboard), with --token and --timeout */
	const char *token;
	long timeout;
	bool skip_bad;     /* --skip-bad (--input) */
	bool all_profiles; /* --all-profiles */
	bool legacy;       /* --legacy: the harness's folder (struct txc_harness_folder) instead of its store */
	bool all_sources;  /* --all-sources: the store, then its folder */
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

/*
 * A source a harness reads instead of its store when one location option names it (Hermes:
 * --input's export file, --remote's dashboard).  The harness's check refused the options that
 * do not go with it.
 */
struct txc_harness_source {
	unsigned opt;  /* the enum txc_locate_opt bit that selects it */
	bool profiled; /* its store is labelled with --profile (a dashboard's profile), else with none */
	/* How messages name it (malloc'd): the file, the URL without its credentials. */
	char *(*name)(const struct txc_locate *l);
	/* Optional: the files it reads, never an output (the CLI then checks standard output too). */
	void (*guard)(const struct txc_locate *l, const struct txc_guard_sink *g);
	int (*open)(struct txc_store **out, const struct txc_locate *l, struct txc_diag *d);
};

/*
 * A folder beside each store the harness reads (Hermes: a home's legacy sessions/ folder), read
 * instead of the store (--legacy) or after it (--all-sources).
 */
struct txc_harness_folder {
	/* The folder of the store at store_path (malloc'd). */
	char *(*path)(const char *store_path);
	/* The folder as a store; the folder and each file it reads go to g (never an output). */
	int (*open)(struct txc_store **out, const char *path, const struct txc_guard_sink *g, struct txc_diag *d);
};

/* A profile's store (txc_harness.profiles). */
struct txc_profile_store {
	char *name, *path;
	bool shadowed; /* a profile folder named as the root's store is ("default"): to be left out */
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
	/* Optional: whether the location options go together (TXC_E_USAGE with d set if not). */
	int (*check)(const struct txc_locate *l, struct txc_diag *d);
	/* The sources an option selects instead of the store (n_sources of them). */
	const struct txc_harness_source *sources;
	size_t n_sources;
	/* Optional (--legacy, --all-sources): the folder beside each store. */
	const struct txc_harness_folder *folder;
	/*
	 * Optional (--all-profiles, and a session looked for in other profiles): the stores of the
	 * profiles beside the root store at root_path, existing regular files only, sorted by name
	 * (*n of them; names, paths and the array malloc'd); *home (malloc'd, may be NULL): the
	 * folder they were looked for in, as messages name it.  NULL with *n 0 if there are none.
	 */
	struct txc_profile_store *(*profiles)(const char *root_path, char **home, size_t *n);
	/*
	 * Optional (--profile's completions): the names --profile takes beside the root store at
	 * root_path, "default" (the root) first, then every profile folder's, sorted, a store in it
	 * or not (*n of them, each malloc'd, the array too).
	 */
	char **(*profile_names)(const char *root_path, size_t *n);
};

/* Every harness, the default (what runs without --from read) first. */
const struct txc_harness *const *txc_harness_all(size_t *n);
/* The harness of that word, or NULL. */
const struct txc_harness *txc_harness_find(const char *name);
/* The store of a harness at path (its opener): TXC_E_USAGE for a harness txc does not know. */
int txc_store_open_kind(struct txc_store **out, const char *harness, const char *path, struct txc_diag *d);
/* The store options l gives (enum txc_locate_opt bits). */
unsigned txc_locate_given(const struct txc_locate *l);
/* The source of h that the options select (an --input, a --remote), or NULL: its store. */
const struct txc_harness_source *txc_harness_source_of(const struct txc_harness *h, const struct txc_locate *l);
/* Free what txc_harness.profiles gave. */
void txc_profile_stores_free(struct txc_profile_store *v, size_t n);

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
