/*
 * archive_int.h - private to src/archive: the run's state, shared by its parts.
 *
 * Ownership: a run (struct arun) owns its manifest (entries, their strings in the manifest's
 * arena, their asset lists), the plan and its rendered files until they are committed or
 * removed; everything it borrows comes from txc_archive_sync's caller.
 *   manifest.c  reads, indexes, journals and writes DIR/manifest.jsonl
 *   mline.c     a manifest line as txc writes it, read without the JSON parser
 *   plan.c      file names, render keys, fingerprints: what a run does with each session
 *   commit.c    the decision on a rendered file, its images, stale files, DIR's lock and mark
 *   index.c     the writer's index page
 *   nav.c       the links of each page to the index and its neighbours, filled into its slots
 *   render.c    one session rendered into its temporary file; the worker wire format
 *   sync.c      txc_archive_sync: the run, serial or over the worker pool (pool.c)
 */
#ifndef TXC_ARCHIVE_INT_H
#define TXC_ARCHIVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "txc/archive.h"
#include "txc/strmap.h"

struct asset_rec {
	char *path; /* relative to DIR */
	char sha[65];
};

/* An entry's strings live in its manifest's arena (freed with it: a re-run read 800 lines into
 * 8 allocations each); its asset list is its own. */
struct entry {
	char *path, *line; /* path relative to DIR; the manifest line without its newline */
	size_t path_len;
	char *session, *profile, *format; /* NULL when absent */
	size_t session_len;               /* an id may hold NUL bytes */
	char sha[65];
	struct asset_rec *assets;
	size_t n_assets;
	char *exported_at;                /* kept while the bytes are */
	char *source_fp, *render, *fstat; /* what shaped the file and how it lay on disk (NULL: unknown) */
	size_t bytes;
	/* a page whose nav slots the archive filled (nav.c): the SHA-256 of its bytes as rendered (the
	 * slots empty) and the hash of the links it carries; "" when its slots are as rendered */
	char base[65], links[33];
	bool touched, dropped;
};

/* Entry indices by path or by session (a bulk run looks both up once per session, so a scan was
 * n^2 over 100,000 sessions).  A key may name several entries and an entry listed under a key may
 * have another key now (dropped, or re-recorded): lookups check. */
struct eindex {
	struct txc_strmap map; /* key -> num: its first entry + 1; ptr: the others (manifest.c) */
};

struct manifest {
	struct entry *v;
	size_t n, cap;
	struct eindex by_path, by_session;
	struct txc_arena *strs; /* the entries' strings */
	char *bytes;            /* the file as read, and how it lay then */
	size_t size;
	struct stat read_st;
	const char *file; /* DIR/manifest.jsonl, NULL in a dry run */
	int journal;      /* file opened for appending; -1 none, -2 not yet */
	bool whole;       /* as read: as a finished run writes it, one line per path, sorted */
};

/* What the manifest line says of a session besides its file: from its transcript, in the process
 * that rendered it (a -j worker sends it to the one that records). */
struct facts {
	char *id; /* may hold NUL bytes */
	size_t id_len, messages;
	int kind;   /* enum txc_id_kind */
	char *page; /* page_facts(), "" for a writer without an index page */
};

/* What the run does with each session, decided before any is written (the same whatever -j). */
struct plan {
	struct txc_buf rel; /* DIR/rel */
	char render[33];
	bool skip; /* up_to_date() */
	/* a writer with .nav: the links its pages are written with (nav_predict), page 1's and its
	 * later pages' (one folder further down), and the hash of page 1's; NULL: none predicted */
	char *nav, *nav_part;
	size_t nav_len, nav_part_len;
	char links[33];
};

/* A session's images as its writer hands them over (kept until the document is decided on). */
struct assets {
	struct txc_asset_sink sink;
	char *dir; /* DIR/rel.assets */
	struct {
		char *name, *bytes;
		size_t len;
		struct txc_archive_tmp tmp; /* written ahead into a temporary file (assets_ahead), or empty */
		char base[65];              /* a later page's bytes as rendered, before its links were filled in; "" */
	} * items;
	size_t n;
};

/* A session rendered to its temporary file, not yet decided on (by the process that records). */
struct rendered {
	struct txc_buf path;        /* DIR/rel */
	struct txc_archive_tmp tmp; /* tmp.f NULL in a dry run, and while a -j worker's file travels */
	struct assets assets;
	char sha[65];   /* of its bytes as written */
	char base[65];  /* of its bytes as rendered (its slots empty): sha but for the links filled in */
	char links[33]; /* the hash of those links (plan.links), "" when its slots are empty */
	size_t bytes;
	struct facts facts;
	struct txc_buf note; /* the caller's, for accept() */
};

struct arun {
	const struct txc_archive_opts *o;
	const struct txc_archive_ops *ops;
	void *ctx;
	const struct txc_archive_item *items;
	struct txc_archive_result *res;
	struct plan *plan; /* per item */
	struct manifest m;
	char stamp[64];
	char *tz;              /* the local time zone's names, for render_key() */
	struct txc_str cur_fp; /* the session being written: its source fingerprint (may be empty) */
	char cur_render[33];   /* and its render key */
	const void *key_of;    /* render_key()'s last group, and its key */
	char key[33];
	int dir_fd;          /* DIR, open (its lock): files are looked at relative to it; -1 in a dry run */
	bool running;        /* DIR holds RUNNING_NAME: this run marked it, or a stopped one did */
	bool swept;          /* and no leftover of a stopped run can be in it */
	const char *kill_at; /* TXC_TEST_KILL_AT (test_kill) */
	long kill_left;
};

/* The mark a writing run leaves in DIR while it runs. */
#define RUNNING_NAME ".txc-running"

/* A manifest line's fields, NUL-terminated (session_len: its id may hold NUL bytes); NULL when
 * absent; owned: in the manifest's arena already (else copied there).  assets: n_assets pairs of
 * path and sha256. */
struct mfields {
	const char *path, *sha, *format, *session, *profile, *exported_at, *source_fp, *render, *fstat, *base, *links;
	size_t session_len, n_assets;
	int64_t bytes;
	const char **assets;
	bool owned;
};

/* manifest.c */
extern bool manifest_slow; /* tests: every line through the JSON parser (mline.c's answers compared) */
void manifest_fill(struct manifest *m, const char *line, size_t len, const struct mfields *f);
struct entry *manifest_find(struct manifest *m, const char *path);
struct entry *manifest_put(struct manifest *m, const char *path);
size_t *eindex_get(const struct eindex *x, const struct manifest *m, const char *key, size_t len, bool by_session,
		   size_t *n);
void eindex_put(struct eindex *x, const struct manifest *m, size_t i, bool by_session);
char *mstr(struct manifest *m, const char *p, size_t n);
char *mstr_c(struct manifest *m, const char *p);
void entry_clear(struct entry *e);
size_t manifest_read(struct manifest *m, const char *file, bool stopped);
int manifest_write(struct arun *r, const char *file, struct txc_diag *d);
void manifest_journal_add(struct manifest *m, const char *line);
void manifest_free(struct manifest *m);
bool opt_eq(const char *a, const char *b);
char *file_bytes(const char *file, size_t *len, struct stat *sb);
bool file_sha(const char *path, char out[65]);
void free_assets(struct asset_rec *v, size_t n);

/* mline.c */
bool mline_fast(struct manifest *m, const char *line, size_t len);

/* plan.c */
void plan_file_name(struct txc_buf *b, const struct txc_sid *sid, struct txc_str title, const char *ext);
void render_key(struct arun *r, const struct txc_archive_item *it, char out[33]);
char *local_tz(void);
bool file_stat_sig(const struct arun *r, const char *rel, const struct asset_rec *av, size_t an, char out[33]);
bool up_to_date(struct arun *r, const struct txc_archive_item *it, const char *rel);
void facts_of(struct facts *f, const struct txc_writer_ops *w, const struct txc_transcript *t, struct txc_str listed);
void facts_free(struct facts *f);
void record(struct arun *r, const char *rel, const struct txc_archive_item *it, const struct facts *t, const char *sha,
	    size_t bytes, struct asset_rec *av, size_t an, const struct entry *nav);

/* commit.c */
void test_kill(struct arun *r, const char *point);
void warn_at(const struct arun *r, enum txc_warn w, const char *where, size_t n);
enum txc_archive_outcome finish_one(struct arun *r, const struct txc_archive_item *it, const char *rel,
				    struct rendered *rd, struct txc_diag *d);
void drop_stale(struct arun *r, const char *rel, struct txc_str id, const char *profile);
void assets_ahead(const struct arun *r, const char *rel, struct assets *as);
int open_dir(struct arun *r, char **manifest, struct txc_diag *d);
void mark_running(struct arun *r);
void unmark_running(struct arun *r);

/* render.c */
void assets_init(struct assets *as, const char *output);
void assets_release(const struct arun *r, struct assets *as);
enum txc_archive_outcome render_one(const struct arun *r, size_t i, const char *rel, struct rendered *rd, int *rrc,
				    struct txc_diag *d);
void rendered_release(const struct arun *r, struct rendered *rd);
void send_rendered(struct txc_buf *b, int rrc, enum txc_archive_outcome oc, const struct txc_diag *d,
		   struct rendered *rd);
enum txc_archive_outcome receive_rendered(const char *msg, size_t len, bool got, struct rendered *rd, int *rrc,
					  struct txc_diag *d);

/* index.c */
struct txc_index_entry;
struct txc_index_entry *index_pages(const struct arun *r, struct txc_arena *a, size_t *n);
struct txc_index_entry *index_pages_but(const struct arun *r, struct txc_arena *a, const bool *but, size_t more,
					size_t *n);
void index_sort(struct txc_index_entry *v, size_t n);
int write_index(struct arun *r, const struct txc_index_entry *v, size_t n, struct txc_diag *d);

/* nav.c */
void nav_links(struct arun *r, const struct txc_index_entry *v, size_t n);
void nav_predict(struct arun *r, size_t n);
bool nav_body_sha(const char *path, char out[65]);
bool nav_is_part(const char *rel);
void nav_fill_parts(struct assets *as, const char *nav, size_t nav_len);
bool nav_ours(const char *rel, const char *full, const char *sha);
#define NAV_FIELDS ",\"page_sha256\":\"" /* the last fields of a page's line whose slots are filled */

#endif
