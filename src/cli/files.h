/* files.h - private to src/cli: files txc writes, atomically, never over a source (files.c). */
#ifndef TXC_CLI_FILES_H
#define TXC_CLI_FILES_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "txc/diag.h"
#include "txc/util.h"
#include "txc/writer.h"

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
	const struct stat *unchanged; /* if set: replace path only if it is still this file, unchanged */
	bool synced; /* its bytes were synced to disk already (by a -j worker): commit does not fsync again */
};
enum txc_err cli_atomic_open(struct cli_atomic *w, const char *path, bool force, struct txc_diag *d);
enum txc_err cli_atomic_commit(struct cli_atomic *w, struct txc_diag *d);
void cli_atomic_abort(struct cli_atomic *w);
/* Create dir and its parents (never one that takes a source's name). */
enum txc_err cli_mkdirs(const char *dir, struct txc_diag *d);

/*
 * The files txc reads (a store, with its -wal, -shm and -journal, or an --input
 * file), Hermes's own data whether this run reads it or not, and any SQLite
 * database, WAL or journal (by its first bytes) are never written, replaced or
 * removed through any name: every output path is checked by device+inode (of
 * the file, and of the folder a new name would be made in), by resolved name
 * and by content.  cli_guard_check returns TXC_E_REFUSED with d set when
 * writing target would touch one of them.
 */
void cli_guard_source(const char *path, bool store);
/* A folder whose files txc reads by name: no output may be written anywhere under it. */
void cli_guard_folder(const char *dir);
/* Hermes's data (a state.db with its -wal, -shm, -journal; a sessions/ folder), read or not. */
void cli_guard_hermes(const char *path, bool folder);
/* A folder of another program's session files (Claude Code's projects/): an existing file under it
 * is never replaced, whatever the flags, except by --install (cli_guard_tree_open(true) around
 * its own checked write). */
void cli_guard_tree(const char *dir);
void cli_guard_tree_open(bool open);
enum txc_err cli_guard_check(const char *target, struct txc_diag *d);
/* The same for standard output and error (a shell's `>> state.db`); `--input -` from a file is a source too. */
enum txc_err cli_guard_stdout(struct txc_diag *d);

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
	} * items;
	size_t n;
};
void cli_assets_init(struct cli_assets *as, const char *output);
enum txc_err cli_assets_write(const struct cli_assets *as, bool force, struct txc_diag *d);
/* An image folder that is a symbolic link would lead the images elsewhere: refused (exit 4). */
enum txc_err cli_assets_dir_check(const char *dir, struct txc_diag *d);
void cli_assets_release(struct cli_assets *as);

/* Quote untrusted text for a terminal: control characters and escapes shown as \xHH. */
void cli_safe_text(struct txc_buf *b, const char *p, size_t len, bool one_line);

#endif
