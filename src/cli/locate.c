/*
 * locate.c - the stores a command reads: the harness's default location (the registry,
 * harness.h, knows where each keeps its sessions and which files to guard), or what the
 * location options name (every profile, an --input file, a --remote dashboard, the legacy
 * folders), opened read-only.  No harness is named here: each comes from the registry.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "txc/harness.h"
#include "txc/http.h"

static void add_store(struct cli_stores *st, const char *profile, char *path)
{
	st->v = txc_xrealloc(st->v, (st->n + 1) * sizeof(*st->v));
	st->v[st->n].profile = profile ? txc_xstrdup(profile) : NULL;
	st->v[st->n].path = path;
	st->v[st->n].s = NULL;
	st->v[st->n].legacy = false;
	st->v[st->n].twin = SIZE_MAX;
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
	return (struct txc_locate){a->store.db, a->store.home, a->store.profile};
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

/* profiles/<name>/state.db for every valid profile name, sorted (quiet: profiles/default unsaid) */
static void add_profiles(struct cli_stores *st, const char *root, bool quiet)
{
	struct txc_buf dir = TXC_BUF_INIT;
	txc_buf_addf(&dir, "%s/profiles", root);
	size_t n;
	char **names = txc_hermes_profiles(root, &n);
	for (size_t i = 0; i < n; i++) {
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s/state.db", dir.buf, names[i]);
		struct stat sb;
		if (strcmp(names[i], "default") == 0 && stat(p.buf, &sb) == 0) {
			/* "default" is the root's name: this store would share its label, folder and --profile */
			if (!quiet)
				cli_warn("profile default left out: the root store is profile default, not '%s'",
					 p.buf);
			st->n_broken++;
			txc_buf_release(&p);
		} else if (stat(p.buf, &sb) == 0 && S_ISREG(sb.st_mode))
			add_store(st, names[i], txc_buf_detach(&p, NULL));
		else
			txc_buf_release(&p);
		free(names[i]);
	}
	free(names);
	txc_buf_release(&dir);
}

static void flag_says(struct txc_diag *d, const char *flag)
{
	size_t fl = strlen(flag) + 2, ml = strlen(d->msg);
	if (fl + ml >= sizeof(d->msg))
		ml = sizeof(d->msg) - fl - 1;
	memmove(d->msg + fl, d->msg, ml);
	d->msg[fl + ml] = '\0';
	memcpy(d->msg, flag, fl - 2);
	memcpy(d->msg + fl - 2, ": ", 2);
}

/* --input FILE|-: an export file (a source: never an output) */
static enum txc_err open_input(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	if (a->store.profile != NULL) {
		txc_diag_set(d, TXC_E_USAGE, "--profile does not apply to --input");
		return TXC_E_USAGE;
	}
	add_store(out, NULL, txc_xstrdup(a->store.input));
	cli_guard_source(a->store.input, false);
	if (cli_guard_stdout(d) != 0)
		return TXC_E_REFUSED;
	d->warn = cli_warning; /* lines skipped with --skip-bad */
	return txc_store_open_file(&out->v[0].s, a->store.input, a->store.skip_bad, d);
}

/* --remote URL: a dashboard; the token from --token, the environment, or its page */
static enum txc_err open_remote(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	const char *token = a->store.token;
	const char *env = getenv("HERMES_DASHBOARD_SESSION_TOKEN");
	if (token == NULL && env != NULL && env[0] != '\0')
		token = env;
	struct txc_remote_opts ro = {token, a->store.profile, a->store.timeout ? a->store.timeout : 300};
	add_store(out, a->store.profile, txc_http_url_shown(a->store.remote)); /* no credentials */
	d->warn = cli_warning; /* a dashboard that pages wrong, unusable ids */
	enum txc_err rc = txc_store_open_remote(&out->v[0].s, a->store.remote, &ro, d);
	if (rc == TXC_E_USAGE)
		flag_says(d, "--remote"); /* the reader says what is wrong with the URL; we say where it came from */
	return rc;
}

/* an option of another source would be silently ignored: refused, like a writer's (exit 2) */
static const char *stray_option(const struct cli_args *a)
{
	if (a->store.skip_bad && a->store.input == NULL)
		return "--skip-bad works with --input only";
	if (a->store.token != NULL && a->store.remote == NULL)
		return "--token works with --remote only";
	if (a->store.timeout && a->store.remote == NULL)
		return "--timeout works with --remote only";
	return NULL;
}

/* --all-profiles: the root store, if any, and every profiles/NAME/state.db */
static enum txc_err add_all_profiles(const struct cli_args *a, const struct txc_harness *h, struct cli_stores *out,
				     struct txc_diag *d)
{
	if (a->store.profile != NULL) { /* --db was refused before: one source */
		txc_diag_set(d, TXC_E_USAGE, "--all-profiles cannot be combined with --db or --profile");
		return TXC_E_USAGE;
	}
	struct txc_locate l = locate_of(a);
	char *path = h->locate(&l, d);
	if (path == NULL)
		return d->code;
	char *home = txc_xstrndup(path, strlen(path) - strlen("/state.db"));
	struct stat sb;
	if (stat(path, &sb) == 0)
		add_store(out, "default", path);
	else
		free(path);
	add_profiles(out, home, false);
	enum txc_err rc = TXC_OK;
	if (out->n == 0) {
		txc_diag_set(d, TXC_E_NOTFOUND, "no Hermes store in '%s' or its profiles", home);
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

/* A legacy folder; every session file in it is a source (never an output). */
static enum txc_err open_legacy(struct cli_stores *out, size_t i, struct txc_diag *d)
{
	cli_guard_folder(out->v[i].path);
	d->warn = cli_warning; /* skipped files, bad lines, unreadable files */
	enum txc_err rc = txc_store_open_legacy(&out->v[i].s, out->v[i].path, d);
	const char *name;
	for (size_t k = 0; rc == TXC_OK && (name = txc_store_file(out->v[i].s, k)) != NULL; k++) {
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", out->v[i].path, name);
		cli_guard_source(p.buf, false);
		txc_buf_release(&p);
	}
	return rc;
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

/* --legacy: each home's sessions/ folder instead of its state.db; --all-sources: after it. */
static void add_legacy(const struct cli_args *a, struct cli_stores *out)
{
	struct cli_store_ref *v = txc_xmalloc((out->n * 2 + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < out->n; i++) {
		const char *path = out->v[i].path;
		size_t len = strlen(path), home = len >= 8 ? len - 8 : 0; /* "state.db" */
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_add(&b, path, home);
		txc_buf_addstr(&b, "sessions");
		struct cli_store_ref legacy = out->v[i];
		legacy.path = txc_buf_detach(&b, NULL);
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
		enum txc_err rc = out->v[i].legacy ? open_legacy(out, i, d) : h->open(&out->v[i].s, out->v[i].path, d);
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

/* The location options given that h does not take: a usage error naming the harness that does. */
static enum txc_err foreign_options(const struct cli_args *a, const struct txc_harness *h, struct txc_diag *d)
{
	static const struct {
		unsigned bit;
		const char *name;
	} loc[] = {{TXC_LOC_DB, "--db"},           {TXC_LOC_HOME, "--home"},
		   {TXC_LOC_PROFILE, "--profile"}, {TXC_LOC_ALL_PROFILES, "--all-profiles"},
		   {TXC_LOC_INPUT, "--input"},     {TXC_LOC_REMOTE, "--remote"}};
	const struct cli_store_opts *o = &a->store;
	unsigned given = (o->db ? TXC_LOC_DB : 0) | (o->home ? TXC_LOC_HOME : 0) | (o->profile ? TXC_LOC_PROFILE : 0) |
			 (a->all_profiles ? TXC_LOC_ALL_PROFILES : 0) | (o->input ? TXC_LOC_INPUT : 0) |
			 (o->remote ? TXC_LOC_REMOTE : 0);
	if ((given & ~h->opts) == 0)
		return TXC_OK;
	size_t n;
	const struct txc_harness *owner = txc_harness_all(&n)[0]; /* the default takes them all */
	unsigned theirs = owner->opts & ~h->opts;
	struct txc_buf b = TXC_BUF_INIT;
	size_t k = 0, total = (size_t)__builtin_popcount(theirs);
	for (size_t i = 0; i < sizeof(loc) / sizeof(loc[0]); i++) {
		if (!(theirs & loc[i].bit))
			continue;
		txc_buf_addf(&b, "%s%s", k == 0 ? "" : k + 1 == total ? " and " : ", ", loc[i].name);
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

enum txc_err cli_stores_open(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	memset(out, 0, sizeof(*out));
	size_t n_h;
	const struct txc_harness *const *hs = txc_harness_all(&n_h), *h = run_harness(a);
	struct txc_locate l = locate_of(a);
	for (size_t i = 0; i < n_h; i++) /* every harness's own data, whatever this run reads */
		if (hs[i]->protect != NULL)
			hs[i]->protect(&l, &guard_sink);
	if (foreign_options(a, h, d) != TXC_OK)
		return TXC_E_USAGE;
	if (h->opts == 0)
		return open_located(a, h, out, d);
	int sources = (a->store.db != NULL) + (a->store.input != NULL) + (a->store.remote != NULL);
	if (sources > 1 || (sources && a->all_profiles) || ((a->store.input || a->store.db) && a->store.home)) {
		txc_diag_set(d, TXC_E_USAGE,
			     "give one source: --db, --home/--profile, --all-profiles, --input or --remote");
		return TXC_E_USAGE;
	}
	const char *stray = stray_option(a);
	if (stray != NULL) {
		txc_diag_set(d, TXC_E_USAGE, "%s", stray);
		return TXC_E_USAGE;
	}
	if ((a->store.legacy || a->store.all_sources) && sources) {
		txc_diag_set(
			d, TXC_E_USAGE,
			"--legacy and --all-sources read the sessions/ folder of a Hermes home: not with --db, --input "
			"or --remote");
		return TXC_E_USAGE;
	}
	if (a->store.input != NULL)
		return open_input(a, out, d);
	if (a->store.remote != NULL)
		return open_remote(a, out, d);
	if (a->all_profiles) {
		enum txc_err rc = add_all_profiles(a, h, out, d);
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
	if (a->store.legacy || a->store.all_sources)
		add_legacy(a, out);
	return open_stores(a, h, out, d);
}

char *cli_profile_having(const char *root_path, struct txc_str id)
{
	size_t n = strlen(root_path);
	if (n < 9 || strcmp(root_path + n - 9, "/state.db") != 0 || memchr(id.ptr, '\0', id.len) != NULL)
		return NULL;
	char *home = txc_xstrndup(root_path, n - 9), *text = txc_xstrndup(id.ptr, id.len), *found = NULL;
	struct cli_stores ps = {0};
	add_profiles(&ps, home, true);
	for (size_t i = 0; i < ps.n && found == NULL; i++) {
		struct txc_diag d1 = {0};
		struct txc_sid got = {0};
		if (txc_store_open(&ps.v[i].s, ps.v[i].path, &d1) == TXC_OK &&
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
