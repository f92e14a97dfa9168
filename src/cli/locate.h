/* locate.h - private to src/cli: the stores a command reads (locate.c). */
#ifndef TXC_CLI_LOCATE_H
#define TXC_CLI_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

#include "txc/diag.h"
#include "txc/reader.h"

struct cli_args;
struct cli_store_opts;
struct cli_cmd_info;
struct txc_harness;

struct cli_store_ref {
	char *profile; /* "default" for the root store, NULL with --db */
	char *path;
	struct txc_store *s;
	bool legacy;   /* a legacy sessions folder (--legacy, --all-sources) */
	size_t twin;   /* legacy with --all-sources: index of the same home's state.db (SIZE_MAX: none) */
	bool deferred; /* search: its sessions are named as hits come (cli_pick), not listed by cli_select_sessions */
};
struct cli_stores {
	struct cli_store_ref *v;
	size_t n;
	size_t n_broken;             /* --all-profiles: profiles that could not be opened (warned about, left out) */
	bool root_unnamed;           /* one store: the home's root store, no --profile or --db named it */
	const struct txc_harness *h; /* the harness they are of (the registry's) */
};
/* One store (--db, --home/--profile), or every profile with --all-profiles. */
enum txc_err cli_stores_open(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d);
void cli_stores_close(struct cli_stores *st);
/* rc from cli_stores_open is "not found" for the default location only (no store was named):
 * said as a warning, and true: listing commands then show nothing and exit 0.  A store or
 * profile the user named must exist. */
bool cli_default_store_missing(const struct cli_args *a, const struct cli_stores *st, enum txc_err rc);

/* The harness a command's words name (a registry word): list's WORD, SESSION's WORD: prefix
 * (taken off); against --from, a usage error (said). */
enum txc_err cli_source_word(const struct cli_cmd_info *c, struct cli_args *a);

/* The first profile beside st's first store (its harness's profiles) with a session of exactly
 * this id (malloc'd), or NULL; stores that cannot be read are passed over, silently. */
char *cli_profile_having(const struct cli_stores *st, struct txc_str id);

/* The registry's harness words, sep between them ("hermes claude"); --from's help text. */
void cli_harness_words(struct txc_buf *b, const char *sep);
void cli_harness_help(struct txc_buf *b);

#endif
