/* cli.h - private to src/cli: options, store location, safe file output. */
#ifndef TXC_CLI_H
#define TXC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "txc/diag.h"
#include "txc/util.h"
#include "txc/writer.h"

#define TXC_VERSION "0.1.0"

struct cli_store_opts {
	const char *db;
	const char *home;
	const char *profile;
};

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
};
int cli_atomic_open(struct cli_atomic *w, const char *path, bool force, struct txc_diag *d);
int cli_atomic_commit(struct cli_atomic *w, struct txc_diag *d);
void cli_atomic_abort(struct cli_atomic *w);
int cli_mkdirs(const char *dir, struct txc_diag *d);

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
