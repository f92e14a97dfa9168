/*
 * hermes_sources.c - what Hermes's harness reads besides its store (harness.h): an export file
 * (--input), a dashboard (--remote), a home's legacy sessions/ folder (--legacy, --all-sources)
 * and the stores of a home's profiles (--all-profiles), and which of its location options go
 * together.  The CLI asks the registry for these; it names none of them.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hermes_locate.h"
#include "txc/http.h"

/* One source at a time: a store (--db, --home/--profile, every profile), a file or a dashboard. */
static const char *hermes_conflict(const struct txc_locate *l)
{
	int sources = (l->db != NULL) + (l->input != NULL) + (l->remote != NULL);
	if (sources > 1 || (sources && l->all_profiles) || ((l->input || l->db) && l->home))
		return "give one source: --db, --home/--profile, --all-profiles, --input or --remote";
	/* an option of another source would be silently ignored: refused, like a writer's (exit 2) */
	if (l->skip_bad && l->input == NULL)
		return "--skip-bad works with --input only";
	if (l->token != NULL && l->remote == NULL)
		return "--token works with --remote only";
	if (l->timeout && l->remote == NULL)
		return "--timeout works with --remote only";
	if ((l->legacy || l->all_sources) && sources)
		return "--legacy and --all-sources read the sessions/ folder of a Hermes home: not with --db, --input "
		       "or --remote";
	if (l->input != NULL && l->profile != NULL)
		return "--profile does not apply to --input";
	if (l->all_profiles && l->profile != NULL) /* --db was refused above: one source */
		return "--all-profiles cannot be combined with --db or --profile";
	return NULL;
}

int txc_hermes_check(const struct txc_locate *l, struct txc_diag *d)
{
	const char *why = hermes_conflict(l);
	if (why == NULL)
		return TXC_OK;
	txc_diag_set(d, TXC_E_USAGE, "%s", why);
	return TXC_E_USAGE;
}

/* --input FILE|-: an export file (a source: never an output) */
static char *input_name(const struct txc_locate *l)
{
	return txc_xstrdup(l->input);
}

static void input_guard(const struct txc_locate *l, const struct txc_guard_sink *g)
{
	g->add(g->ctx, l->input, TXC_GUARD_SOURCE);
}

static int input_open(struct txc_store **out, const struct txc_locate *l, struct txc_diag *d)
{
	return txc_store_open_file(out, l->input, l->skip_bad, d); /* lines skipped with --skip-bad: d->warn */
}

/* --remote URL: a dashboard; the token from --token, the environment, or its page */
static char *remote_name(const struct txc_locate *l)
{
	return txc_http_url_shown(l->remote); /* no credentials */
}

/* d->msg as "FLAG: d->msg", cut to fit */
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

static int remote_open(struct txc_store **out, const struct txc_locate *l, struct txc_diag *d)
{
	const char *token = l->token;
	const char *env = getenv("HERMES_DASHBOARD_SESSION_TOKEN");
	if (token == NULL && env != NULL && env[0] != '\0')
		token = env;
	struct txc_remote_opts ro = {token, l->profile, l->timeout ? l->timeout : 300};
	int rc = txc_store_open_remote(out, l->remote, &ro, d);
	if (rc == TXC_E_USAGE)
		flag_says(d, "--remote"); /* the reader says what is wrong with the URL; we say where it came from */
	return rc;
}

const struct txc_harness_source txc_hermes_sources[2] = {
	{TXC_LOC_INPUT, false, input_name, input_guard, input_open},
	{TXC_LOC_REMOTE, true, remote_name, NULL, remote_open},
};

/* A store's home's legacy sessions/ folder: <home>/state.db becomes <home>/sessions. */
static char *legacy_path(const char *store_path)
{
	size_t len = strlen(store_path), home = len >= 8 ? len - 8 : 0; /* "state.db" */
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_add(&b, store_path, home);
	txc_buf_addstr(&b, "sessions");
	return txc_buf_detach(&b, NULL);
}

/* A legacy folder; every session file in it is a source (never an output). */
static int legacy_open(struct txc_store **out, const char *path, const struct txc_guard_sink *g, struct txc_diag *d)
{
	g->add(g->ctx, path, TXC_GUARD_FOLDER);
	int rc = txc_store_open_legacy(out, path, d); /* skipped files, bad lines, unreadable files: d->warn */
	const char *name;
	for (size_t k = 0; rc == TXC_OK && (name = txc_store_file(*out, k)) != NULL; k++) {
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", path, name);
		g->add(g->ctx, p.buf, TXC_GUARD_SOURCE);
		txc_buf_release(&p);
	}
	return rc;
}

const struct txc_harness_folder txc_hermes_legacy_folder = {legacy_path, legacy_open};

/* profiles/<name>/state.db for every valid profile name that is a file, sorted */
struct txc_profile_store *txc_hermes_profile_stores(const char *root_path, char **home_out, size_t *n_out)
{
	size_t len = strlen(root_path), n;
	*n_out = 0;
	*home_out = NULL;
	if (len < 9 || strcmp(root_path + len - 9, "/state.db") != 0)
		return NULL;
	char *home = txc_xstrndup(root_path, len - 9);
	char **names = txc_hermes_profiles(home, &n);
	struct txc_profile_store *v = NULL;
	for (size_t i = 0; i < n; i++) {
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/profiles/%s/state.db", home, names[i]);
		struct stat sb;
		/* "default" is the root's name: this store would share its label, folder and --profile */
		bool shadowed = strcmp(names[i], "default") == 0 && stat(p.buf, &sb) == 0;
		if (shadowed || (stat(p.buf, &sb) == 0 && S_ISREG(sb.st_mode))) {
			v = txc_xrealloc(v, (*n_out + 1) * sizeof(*v));
			v[(*n_out)++] = (struct txc_profile_store){names[i], txc_buf_detach(&p, NULL), shadowed};
		} else {
			txc_buf_release(&p);
			free(names[i]);
		}
	}
	free(names);
	*home_out = home;
	return v;
}

/* "default", then every profile folder's name but "default" (the root's), sorted */
char **txc_hermes_profile_names(const char *root_path, size_t *n_out)
{
	size_t len = strlen(root_path), n;
	char *home = txc_xstrndup(root_path, len >= 9 ? len - 9 : 0); /* "/state.db" */
	char **names = txc_hermes_profiles(home, &n), **v = txc_xmalloc((n + 1) * sizeof(*v));
	size_t k = 0;
	v[k++] = txc_xstrdup("default");
	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i], "default") != 0)
			v[k++] = names[i];
		else
			free(names[i]);
	}
	free(names);
	free(home);
	*n_out = k;
	return v;
}
