/*
 * locate.c - the stores a command reads, opened read-only: the harness's location, or what the
 * location options name.  The registry (harness.h) knows where each harness keeps its sessions,
 * which files to guard, which options go together, the sources an option selects instead of the
 * store (Hermes: an --input file, a --remote dashboard), the folder beside each store (the legacy
 * files) and a home's profiles; this file only walks what it gives.  No harness is named here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "txc/harness.h"

static void add_store(struct cli_stores *st, const char *profile, char *path)
{
	st->v = txc_xrealloc(st->v, (st->n + 1) * sizeof(*st->v));
	st->v[st->n].profile = profile ? txc_xstrdup(profile) : NULL;
	st->v[st->n].path = path;
	st->v[st->n].s = NULL;
	st->v[st->n].legacy = false;
	st->v[st->n].twin = SIZE_MAX;
	st->v[st->n].deferred = false;
	st->n++;
}

/* The harness this run reads: --from's (or a command word's), else the registry's default. */
static const struct txc_harness *run_harness(const struct cli_args *a)
{
	size_t n;
	const struct txc_harness *h = txc_harness_find(a->store.from);
	return h != NULL ? h : txc_harness_all(&n)[0];
}

static struct txc_locate locate_of(const struct cli_args *a)
{
	const struct cli_store_opts *o = &a->store;
	return (struct txc_locate){.db = o->db,
				   .home = o->home,
				   .profile = o->profile,
				   .input = o->input,
				   .remote = o->remote,
				   .token = o->token,
				   .timeout = o->timeout,
				   .skip_bad = o->skip_bad,
				   .all_profiles = a->all_profiles,
				   .legacy = o->legacy,
				   .all_sources = o->all_sources};
}

/* The registry's guard kinds into the output guard (files.c). */
static void guard_add(void *ctx, const char *path, enum txc_guard_kind kind)
{
	(void)ctx;
	switch (kind) {
	case TXC_GUARD_SOURCE: cli_guard_source(path, false); break;
	case TXC_GUARD_STORE: cli_guard_source(path, true); break;
	case TXC_GUARD_FOLDER: cli_guard_folder(path); break;
	case TXC_GUARD_OWN: cli_guard_hermes(path, false); break;
	case TXC_GUARD_OWN_FOLDER: cli_guard_hermes(path, true); break;
	case TXC_GUARD_TREE: cli_guard_tree(path); break;
	}
}
static const struct txc_guard_sink guard_sink = {guard_add, NULL};

/* The stores of the profiles beside the root store at root_path, sorted (quiet: a shadowed one unsaid); *home: the
 * folder they were looked for in (malloc'd, may be NULL). */
static void add_profiles(struct cli_stores *st, const struct txc_harness *h, const char *root_path, char **home,
			 bool quiet)
{
	size_t n;
	struct txc_profile_store *v = h->profiles(root_path, home, &n);
	for (size_t i = 0; i < n; i++) {
		if (v[i].shadowed) {
			if (!quiet)
				cli_warn("profile %s left out: the root store is profile %s, not '%s'", v[i].name,
					 v[i].name, v[i].path);
			st->n_broken++;
		} else {
			add_store(st, v[i].name, v[i].path);
			v[i].path = NULL; /* st's now */
		}
	}
	txc_profile_stores_free(v, n);
}

/* --all-profiles: the root store, if any, and every profile's */
static enum txc_err add_all_profiles(const struct txc_locate *l, const struct txc_harness *h, struct cli_stores *out,
				     struct txc_diag *d)
{
	char *path = h->locate(l, d), *home = NULL;
	if (path == NULL)
		return d->code;
	struct stat sb;
	bool root = stat(path, &sb) == 0;
	if (root)
		add_store(out, "default", path);
	add_profiles(out, h, path, &home, false);
	if (!root)
		free(path);
	enum txc_err rc = TXC_OK;
	if (out->n == 0) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no %s in '%s' or its profiles", h->missing, home ? home : path);
		rc = TXC_E_NOTFOUND;
	}
	free(home);
	return rc;
}

/* --all-sources: a store or legacy folder that does not exist is left out, silently. */
static void drop_missing(struct cli_stores *out, size_t i, struct txc_diag *d)
{
	d->msg[0] = '\0';
	d->code = TXC_OK;
	free(out->v[i].profile);
	free(out->v[i].path);
	memmove(&out->v[i], &out->v[i + 1], (out->n - i - 1) * sizeof(*out->v));
	out->n--;
}

/* --all-sources: each legacy folder's twin is the state.db of the same home just before it. */
static void set_twins(struct cli_stores *out)
{
	for (size_t i = 0; i < out->n; i++) {
		out->v[i].twin = SIZE_MAX;
		/* both have a profile name: --legacy and --all-sources refuse --db, the one store without */
		if (out->v[i].legacy && i > 0 && !out->v[i - 1].legacy &&
		    strcmp(out->v[i].profile, out->v[i - 1].profile) == 0)
			out->v[i].twin = i - 1;
	}
}

/* --legacy: the folder beside each store instead of it; --all-sources: after it. */
static void add_legacy(const struct cli_args *a, const struct txc_harness *h, struct cli_stores *out)
{
	struct cli_store_ref *v = txc_xmalloc((out->n * 2 + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < out->n; i++) {
		struct cli_store_ref legacy = out->v[i];
		legacy.path = h->folder->path(out->v[i].path);
		legacy.legacy = true;
		if (a->store.all_sources) {
			v[n++] = out->v[i];
			legacy.profile = txc_xstrdup(out->v[i].profile); /* never NULL: --db is refused here */
		} else {
			free(out->v[i].path);
		}
		v[n++] = legacy;
	}
	free(out->v);
	out->v = v;
	out->n = n;
}

/* Leave out store i, which could not be opened (under --all-profiles), after saying why. */
static void drop_broken(struct cli_stores *out, size_t i, struct txc_diag *d)
{
	cli_warn("profile %s left out: %s", out->v[i].profile, d->msg);
	d->msg[0] = '\0';
	d->code = TXC_OK;
	free(out->v[i].profile);
	free(out->v[i].path);
	memmove(&out->v[i], &out->v[i + 1], (out->n - i - 1) * sizeof(*out->v));
	out->n--;
	out->n_broken++;
}

/* Open the stores listed in out; one broken profile does not hide the others. */
static enum txc_err open_stores(const struct cli_args *a, const struct txc_harness *h, struct cli_stores *out,
				struct txc_diag *d)
{
	size_t i = 0;
	while (i < out->n) {
		if (!out->v[i].legacy)
			h->guard(out->v[i].path, &guard_sink); /* never an output, whatever the flags */
		if (cli_guard_stdout(d) != 0)
			return TXC_E_REFUSED;
		if (out->v[i].legacy)
			d->warn = cli_warning; /* skipped files, bad lines, unreadable files */
		enum txc_err rc = out->v[i].legacy ? h->folder->open(&out->v[i].s, out->v[i].path, &guard_sink, d)
						   : h->open(&out->v[i].s, out->v[i].path, d);
		if (rc == TXC_E_NOTFOUND && a->store.all_sources && out->n > 1) {
			drop_missing(out, i, d); /* the store or the folder: either may be missing, not both */
			continue;
		}
		if (rc != TXC_OK && a->all_profiles) {
			drop_broken(out, i, d); /* said; the run fails at the end */
			continue;
		}
		if (rc != TXC_OK)
			return rc;
		if (txc_store_note(out->v[i].s) != NULL)
			cli_warn("%s", txc_store_note(out->v[i].s));
		i++;
	}
	if (out->n == 0 && out->n_broken) {
		txc_diag_set(d, TXC_E_FAIL, "no profile's store could be read (see above)");
		return TXC_E_FAIL;
	}
	set_twins(out);
	return TXC_OK;
}

enum txc_err cli_source_word(const struct cli_cmd_info *c, struct cli_args *a)
{
	size_t n_h;
	const struct txc_harness *const *hs = txc_harness_all(&n_h);
	const char *from = NULL;
	for (size_t i = 0; i < n_h && a->n_pos > 0; i++) {
		size_t n = strlen(hs[i]->name);
		if ((c->flags & CLI_CMD_HARNESS_WORD) && strcmp(a->pos[0], hs[i]->name) == 0) {
			from = hs[i]->name;
			a->pos++, a->n_pos--;
			break;
		} else if ((c->flags & CLI_CMD_SESSION_ARG) && strncmp(a->pos[0], hs[i]->name, n) == 0 &&
			   a->pos[0][n] == ':') {
			from = hs[i]->name;
			a->pos[0] += n + 1;
			break;
		}
	}
	if (from != NULL && a->store.from != NULL && strcmp(from, a->store.from) != 0) {
		cli_usage(c->name, "--from %s, but the session is named from %s", a->store.from, from);
		return TXC_E_USAGE;
	}
	if (from != NULL)
		a->store.from = from;
	return TXC_OK;
}

void cli_harness_words(struct txc_buf *b, const char *sep)
{
	size_t n;
	const struct txc_harness *const *hs = txc_harness_all(&n);
	for (size_t i = 0; i < n; i++)
		txc_buf_addf(b, "%s%s", i ? sep : "", hs[i]->name);
}

void cli_harness_help(struct txc_buf *b)
{
	size_t n;
	const struct txc_harness *const *hs = txc_harness_all(&n);
	txc_buf_addstr(b, "read sessions of HARNESS: ");
	for (size_t i = 0; i < n; i++)
		txc_buf_addf(b, "%s%s %s", i == 0 ? "" : i + 1 < n ? ", " : " or ", hs[i]->name, hs[i]->summary);
}

/*
 * The store options given that h does not take: a usage error naming the harness that does.  It
 * lists the default harness's options of the same kind as one given (where to read, else how to
 * read), so that none is silently ignored.
 */
static enum txc_err foreign_options(const struct cli_args *a, const struct txc_harness *h, struct txc_diag *d)
{
	static const struct {
		unsigned bit;
		const struct cli_opt *o;
	} loc[] = {{TXC_LOC_DB, &cli_opt_db},
		   {TXC_LOC_HOME, &cli_opt_home},
		   {TXC_LOC_PROFILE, &cli_opt_profile},
		   {TXC_LOC_ALL_PROFILES, &cli_opt_all_profiles},
		   {TXC_LOC_INPUT, &cli_opt_input},
		   {TXC_LOC_REMOTE, &cli_opt_remote},
		   {TXC_LOC_SKIP_BAD, &cli_opt_skip_bad},
		   {TXC_LOC_TOKEN, &cli_opt_token},
		   {TXC_LOC_TIMEOUT, &cli_opt_timeout},
		   {TXC_LOC_LEGACY, &cli_opt_legacy},
		   {TXC_LOC_ALL_SOURCES, &cli_opt_all_sources}};
	struct txc_locate l = locate_of(a);
	unsigned foreign = txc_locate_given(&l) & ~h->opts;
	if (foreign == 0)
		return TXC_OK;
	size_t n;
	const struct txc_harness *owner = txc_harness_all(&n)[0]; /* the default takes them all */
	unsigned kind = (foreign & TXC_LOC_WHERE) ? TXC_LOC_WHERE : ~(unsigned)TXC_LOC_WHERE;
	unsigned theirs = owner->opts & ~h->opts & kind;
	struct txc_buf b = TXC_BUF_INIT;
	size_t k = 0, total = (size_t)__builtin_popcount(theirs);
	for (size_t i = 0; i < sizeof(loc) / sizeof(loc[0]); i++) {
		if (!(theirs & loc[i].bit))
			continue;
		txc_buf_addf(&b, "%s--%s", k == 0 ? "" : k + 1 == total ? " and " : ", ", loc[i].o->name);
		k++;
	}
	txc_diag_set(d, TXC_E_USAGE, "--from %s reads %s; %s are %s's", h->name, h->where, b.buf, owner->label);
	txc_buf_release(&b);
	return TXC_E_USAGE;
}

/* A harness without location options: its one default location, and the files there guarded. */
static enum txc_err open_located(const struct cli_args *a, const struct txc_harness *h, struct cli_stores *out,
				 struct txc_diag *d)
{
	struct txc_locate l = locate_of(a);
	char *path = h->locate(&l, d);
	if (path == NULL)
		return d->code;
	add_store(out, NULL, path);
	h->guard(out->v[0].path, &guard_sink); /* its files are sources: never an output */
	if (cli_guard_stdout(d) != 0)
		return TXC_E_REFUSED;
	d->warn = cli_warning; /* malformed lines, an unfinished last line */
	return h->open(&out->v[0].s, out->v[0].path, d);
}

/* A source an option selects instead of the store (an --input file, a --remote dashboard). */
static enum txc_err open_source(const struct txc_locate *l, const struct txc_harness_source *src,
				struct cli_stores *out, struct txc_diag *d)
{
	add_store(out, src->profiled ? l->profile : NULL, src->name(l));
	if (src->guard != NULL) {
		src->guard(l, &guard_sink); /* the files it reads are sources: never an output */
		if (cli_guard_stdout(d) != 0)
			return TXC_E_REFUSED;
	}
	d->warn = cli_warning; /* lines skipped with --skip-bad; a dashboard that pages wrong, unusable ids */
	return src->open(&out->v[0].s, l, d);
}

enum txc_err cli_stores_open(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	memset(out, 0, sizeof(*out));
	size_t n_h;
	const struct txc_harness *const *hs = txc_harness_all(&n_h), *h = run_harness(a);
	struct txc_locate l = locate_of(a);
	out->h = h;
	for (size_t i = 0; i < n_h; i++) /* every harness's own data, whatever this run reads */
		if (hs[i]->protect != NULL)
			hs[i]->protect(&l, &guard_sink);
	if (foreign_options(a, h, d) != TXC_OK)
		return TXC_E_USAGE;
	if (h->opts == 0)
		return open_located(a, h, out, d);
	if (h->check != NULL && h->check(&l, d) != TXC_OK)
		return TXC_E_USAGE;
	const struct txc_harness_source *src = txc_harness_source_of(h, &l);
	if (src != NULL)
		return open_source(&l, src, out, d);
	if (a->all_profiles) {
		enum txc_err rc = add_all_profiles(&l, h, out, d);
		if (rc != TXC_OK)
			return rc;
	} else {
		char *path = h->locate(&l, d);
		if (path == NULL)
			return d->code;
		const char *profile = a->store.profile != NULL ? a->store.profile : "default";
		add_store(out, a->store.db != NULL ? NULL : profile, path);
		out->root_unnamed = a->store.db == NULL && a->store.profile == NULL && !a->store.legacy;
	}
	if ((a->store.legacy || a->store.all_sources) && h->folder != NULL)
		add_legacy(a, h, out);
	return open_stores(a, h, out, d);
}

char *cli_profile_having(const struct cli_stores *st, struct txc_str id)
{
	if (st->n == 0 || st->h == NULL || st->h->profiles == NULL || memchr(id.ptr, '\0', id.len) != NULL)
		return NULL;
	char *text = txc_xstrndup(id.ptr, id.len), *found = NULL, *home = NULL;
	struct cli_stores ps = {0};
	add_profiles(&ps, st->h, st->v[0].path, &home, true);
	for (size_t i = 0; i < ps.n && found == NULL; i++) {
		struct txc_diag d1 = {0};
		struct txc_sid got = {0};
		if (st->h->open(&ps.v[i].s, ps.v[i].path, &d1) == TXC_OK &&
		    txc_store_resolve(ps.v[i].s, text, &got, &d1) == TXC_OK && got.kind == TXC_ID_TEXT &&
		    got.text.len == id.len && memcmp(got.text.ptr, id.ptr, id.len) == 0)
			found = txc_xstrdup(ps.v[i].profile);
		txc_sid_release(&got);
	}
	cli_stores_close(&ps);
	free(text);
	free(home);
	return found;
}

void cli_stores_close(struct cli_stores *st)
{
	for (size_t i = 0; i < st->n; i++) {
		txc_store_close(st->v[i].s);
		free(st->v[i].profile);
		free(st->v[i].path);
	}
	free(st->v);
	memset(st, 0, sizeof(*st));
}

bool cli_default_store_missing(const struct cli_args *a, const struct cli_stores *st, enum txc_err rc)
{
	bool named = a->store.db || a->store.home || a->store.profile || a->store.input || a->store.remote;
	if (rc != TXC_E_NOTFOUND || a->all_profiles || st->n != 1 || named)
		return false;
	const struct txc_harness *h = run_harness(a);
	if (st->v[0].legacy) /* --legacy: the home's sessions/ folder */
		cli_warn("no legacy sessions folder at '%s' (set %s, or use --home)", st->v[0].path, h->env);
	else
		cli_warn("no %s at '%s' (%s)", h->missing, st->v[0].path, h->hint);
	return true;
}
