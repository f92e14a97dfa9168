/*
 * hermes_locate.c - where Hermes keeps its sessions: <home>/state.db, the home being --home,
 * $HERMES_HOME or ~/.hermes, and a profile's <home>/profiles/NAME/state.db ("default" is the
 * root's).  Every home the run may know of is Hermes's own data, guarded whatever the run reads:
 * its state.db and sessions/ folder, and those of each profile folder (valid name or not).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hermes_locate.h"

bool txc_hermes_profile_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		return false;
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **txc_hermes_profiles(const char *home, size_t *n)
{
	struct txc_buf dir = TXC_BUF_INIT;
	txc_buf_addf(&dir, "%s/profiles", home);
	DIR *d = opendir(dir.buf);
	char **names = NULL;
	struct dirent *e;
	*n = 0;
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (!txc_hermes_profile_ok(e->d_name))
			continue; /* ".", "..", ".deleted", anything Hermes would not name */
		names = txc_xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = txc_xstrdup(e->d_name);
	}
	if (d != NULL)
		closedir(d);
	if (*n > 1) /* qsort(NULL, 0, ...) is undefined */
		qsort(names, *n, sizeof(*names), cmp_str);
	txc_buf_release(&dir);
	return names;
}

/* The home's root, else a profile's, state.db the options name */
static char *hermes_locate(const struct txc_locate *o, struct txc_diag *d)
{
	struct txc_buf b = TXC_BUF_INIT;
	if (o->db != NULL) {
		if (o->profile != NULL) {
			txc_diag_set(d, TXC_E_USAGE,
				     "--db and --profile cannot be combined (a profile is a folder of a Hermes home)");
			return NULL;
		}
		return txc_xstrdup(o->db);
	}
	const char *home = o->home;
	if (home == NULL) {
		const char *env = getenv("HERMES_HOME");
		if (env != NULL && env[0] != '\0') {
			home = env;
		} else {
			const char *h = getenv("HOME");
			if (h == NULL || h[0] == '\0') {
				txc_diag_set(d, TXC_E_USAGE,
					     "cannot find the Hermes home: HOME is not set; use --home or --db");
				return NULL;
			}
			txc_buf_addf(&b, "%s/.hermes", h);
		}
	}
	if (home != NULL)
		txc_buf_addstr(&b, home);
	if (o->profile != NULL) {
		if (!txc_hermes_profile_ok(o->profile)) {
			txc_buf_release(&b);
			txc_diag_set(d, TXC_E_USAGE, "invalid profile name (want [a-z0-9][a-z0-9_-]{0,63})");
			return NULL;
		}
		if (strcmp(o->profile, "default") != 0)
			txc_buf_addf(&b, "/profiles/%s", o->profile);
	}
	txc_buf_addstr(&b, "/state.db");
	return txc_buf_detach(&b, NULL);
}

static void hermes_guard(const char *path, const struct txc_guard_sink *g)
{
	g->add(g->ctx, path, TXC_GUARD_STORE);
}

/* A home seen before under another name is not walked again. */
struct home_id {
	dev_t dev;
	ino_t ino;
};

static void guard_home(const char *home, struct home_id *seen, size_t *n_seen, const struct txc_guard_sink *g)
{
	struct stat sb;
	if (stat(home, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return; /* nothing there to protect */
	for (size_t i = 0; i < *n_seen; i++)
		if (seen[i].dev == sb.st_dev && seen[i].ino == sb.st_ino)
			return;
	seen[(*n_seen)++] = (struct home_id){sb.st_dev, sb.st_ino};
	struct txc_buf p = TXC_BUF_INIT;
	txc_buf_addf(&p, "%s/state.db", home);
	g->add(g->ctx, p.buf, TXC_GUARD_OWN);
	txc_buf_reset(&p);
	txc_buf_addf(&p, "%s/sessions", home);
	g->add(g->ctx, p.buf, TXC_GUARD_OWN_FOLDER);
	txc_buf_reset(&p);
	txc_buf_addf(&p, "%s/profiles", home);
	DIR *dir = opendir(p.buf);
	struct dirent *e;
	while (dir != NULL && (e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		txc_buf_reset(&p);
		txc_buf_addf(&p, "%s/profiles/%s/state.db", home, e->d_name);
		g->add(g->ctx, p.buf, TXC_GUARD_OWN);
		txc_buf_truncate(&p, p.len - strlen("state.db"));
		txc_buf_addstr(&p, "sessions");
		g->add(g->ctx, p.buf, TXC_GUARD_OWN_FOLDER);
	}
	if (dir != NULL)
		closedir(dir);
	txc_buf_release(&p);
}

/* whether path's last name is name (path is not empty) */
static bool last_is(const char *path, size_t len, const char *name)
{
	size_t n = strlen(name);
	return len >= n && memcmp(path + len - n, name, n) == 0 && (len == n || path[len - n - 1] == '/');
}

/* The home of a --db .../state.db or .../profiles/NAME/state.db */
static void guard_db_home(const char *db, struct home_id *seen, size_t *n, const struct txc_guard_sink *g)
{
	size_t len = db ? strlen(db) : 0;
	if (db == NULL || !last_is(db, len, "state.db"))
		return;
	char *dir = txc_xstrndup(db, len - strlen("state.db"));
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dir[--dl] = '\0';
	guard_home(dl ? dir : ".", seen, n, g);
	size_t pl = dl; /* .../profiles/NAME: the home is two folders up */
	while (pl > 0 && dir[pl - 1] != '/')
		pl--;
	while (pl > 1 && dir[pl - 1] == '/')
		pl--;
	if (pl > 0 && last_is(dir, pl, "profiles")) {
		dir[pl - strlen("profiles")] = '\0';
		guard_home(dir[0] ? dir : ".", seen, n, g);
	}
	free(dir);
}

/* Every Hermes home the run may know of: --home, $HERMES_HOME, ~/.hermes, and the home of a --db. */
static void hermes_protect(const struct txc_locate *l, const struct txc_guard_sink *g)
{
	struct home_id seen[5]; /* (at most five homes) */
	size_t n = 0;
	const char *env = getenv("HERMES_HOME"), *home = getenv("HOME");
	if (l->home != NULL)
		guard_home(l->home, seen, &n, g);
	if (env != NULL && env[0] != '\0')
		guard_home(env, seen, &n, g);
	if (home != NULL && home[0] != '\0') {
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/.hermes", home);
		guard_home(p.buf, seen, &n, g);
		txc_buf_release(&p);
	}
	guard_db_home(l->db, seen, &n, g);
}

const struct txc_harness txc_harness_hermes = {
	.name = "hermes",
	.label = "Hermes",
	.summary = "(default)",
	.env = "HERMES_HOME",
	.where = "$HERMES_HOME/state.db",
	.missing = "Hermes store",
	.hint = "set HERMES_HOME, or use --home or --db",
	.opts = TXC_LOC_WHERE | TXC_LOC_SKIP_BAD | TXC_LOC_TOKEN | TXC_LOC_TIMEOUT | TXC_LOC_LEGACY |
		TXC_LOC_ALL_SOURCES,
	.locate = hermes_locate,
	.guard = hermes_guard,
	.protect = hermes_protect,
	.open = txc_store_open,
	.check = txc_hermes_check,
	.sources = txc_hermes_sources,
	.n_sources = sizeof(txc_hermes_sources) / sizeof(txc_hermes_sources[0]),
	.folder = &txc_hermes_legacy_folder,
	.profiles = txc_hermes_profile_stores,
	.profile_names = txc_hermes_profile_names,
};
