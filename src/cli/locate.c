/*
 * locate.c - where the stores are: state.db of a Hermes home or profile
 * ($HERMES_HOME, ~/.hermes, profiles/NAME), every profile, an --input file
 * or a --remote dashboard, opened read-only.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "txc/http.h"

bool cli_profile_name_ok(const char *s)
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

char *cli_store_path(const struct cli_store_opts *o, struct txc_diag *d)
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
		if (!cli_profile_name_ok(o->profile)) {
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* profiles/<name>/state.db for every valid profile name, sorted (quiet: profiles/default unsaid) */
static void add_profiles(struct cli_stores *st, const char *root, bool quiet)
{
	struct txc_buf dir = TXC_BUF_INIT;
	txc_buf_addf(&dir, "%s/profiles", root);
	DIR *d = opendir(dir.buf);
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (!cli_profile_name_ok(e->d_name))
			continue; /* ".", "..", ".deleted", anything Hermes would not name */
		names = txc_xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = txc_xstrdup(e->d_name);
	}
	if (d != NULL)
		closedir(d);
	if (n > 1) /* qsort(NULL, 0, ...) is undefined */
		qsort(names, n, sizeof(*names), cmp_str);
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
static enum txc_err add_all_profiles(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	if (a->store.profile != NULL) { /* --db was refused before: one source */
		txc_diag_set(d, TXC_E_USAGE, "--all-profiles cannot be combined with --db or --profile");
		return TXC_E_USAGE;
	}
	char *path = cli_store_path(&a->store, d);
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
static enum txc_err open_stores(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	size_t i = 0;
	while (i < out->n) {
		if (!out->v[i].legacy)
			cli_guard_source(out->v[i].path, true); /* never an output, whatever the flags */
		if (cli_guard_stdout(d) != 0)
			return TXC_E_REFUSED;
		enum txc_err rc =
			out->v[i].legacy ? open_legacy(out, i, d) : txc_store_open(&out->v[i].s, out->v[i].path, d);
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

static bool is_claude(const struct cli_args *a)
{
	return a->store.from != NULL && strcmp(a->store.from, "claude") == 0;
}

enum txc_err cli_source_word(const struct cli_cmd_info *c, struct cli_args *a)
{
	static const char *const words[] = {"hermes", "claude"};
	const char *from = NULL;
	for (int i = 0; i < 2 && a->n_pos > 0; i++) {
		size_t n = strlen(words[i]);
		if ((c->flags & CLI_CMD_HARNESS_WORD) && strcmp(a->pos[0], words[i]) == 0) {
			from = words[i];
			a->pos++, a->n_pos--;
			break;
		} else if ((c->flags & CLI_CMD_SESSION_ARG) && strncmp(a->pos[0], words[i], n) == 0 &&
			   a->pos[0][n] == ':') {
			from = words[i];
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

/* every *.jsonl of a folder, as a source no output may replace; sub: also <stem>/subagents/ */
static void guard_jsonl(const char *dir, bool sub)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.' || n <= 6 || strcmp(e->d_name + n - 6, ".jsonl") != 0)
			continue;
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", dir, e->d_name);
		cli_guard_source(p.buf, false);
		if (sub) {
			txc_buf_truncate(&p, p.len - 6);
			txc_buf_addstr(&p, "/subagents");
			guard_jsonl(p.buf, false);
		}
		txc_buf_release(&p);
	}
	if (d != NULL)
		closedir(d);
}

/* the session files under projects/ (what the reader walks) */
static void guard_claude(const char *projects)
{
	DIR *d = opendir(projects);
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", projects, e->d_name);
		guard_jsonl(p.buf, true);
		txc_buf_release(&p);
	}
	if (d != NULL)
		closedir(d);
}

/* Claude Code's projects folder: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects */
static enum txc_err open_claude(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	const struct cli_store_opts *o = &a->store;
	if (o->db || o->home || o->profile || o->input || o->remote || a->all_profiles) {
		txc_diag_set(d, TXC_E_USAGE,
			     "--from claude reads $CLAUDE_CONFIG_DIR/projects; --db, --home, --profile, "
			     "--all-profiles, --input and --remote are Hermes's");
		return TXC_E_USAGE;
	}
	struct txc_buf p = TXC_BUF_INIT;
	const char *env = getenv("CLAUDE_CONFIG_DIR"), *home = getenv("HOME");
	if (env != NULL && env[0] != '\0') {
		txc_buf_addf(&p, "%s/projects", env);
	} else if (home != NULL && home[0] != '\0') {
		txc_buf_addf(&p, "%s/.claude/projects", home);
	} else {
		txc_diag_set(d, TXC_E_USAGE,
			     "cannot find Claude Code's folder: neither CLAUDE_CONFIG_DIR nor HOME is set");
		return TXC_E_USAGE;
	}
	add_store(out, NULL, txc_buf_detach(&p, NULL));
	guard_claude(out->v[0].path);     /* Claude Code's files are sources: never an output */
	cli_guard_folder(out->v[0].path); /* nor a new file in it: it would be read as a session */
	if (cli_guard_stdout(d) != 0)
		return TXC_E_REFUSED;
	d->warn = cli_warning; /* malformed lines, an unfinished last line */
	return txc_store_open_claude(&out->v[0].s, out->v[0].path, d);
}

/* Hermes's data in a home: the state.db and sessions/ folder of the root and of every profile
 * folder (valid name or not), never an output, whatever this run reads (a profile, an --input
 * file, Claude Code's folder).  A home seen before under another name is not walked again. */
struct home_id {
	dev_t dev;
	ino_t ino;
};

static void guard_home(const char *home, struct home_id *seen, size_t *n_seen)
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
	cli_guard_hermes(p.buf, false);
	txc_buf_reset(&p);
	txc_buf_addf(&p, "%s/sessions", home);
	cli_guard_hermes(p.buf, true);
	txc_buf_reset(&p);
	txc_buf_addf(&p, "%s/profiles", home);
	DIR *dir = opendir(p.buf);
	struct dirent *e;
	while (dir != NULL && (e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		txc_buf_reset(&p);
		txc_buf_addf(&p, "%s/profiles/%s/state.db", home, e->d_name);
		cli_guard_hermes(p.buf, false);
		txc_buf_truncate(&p, p.len - strlen("state.db"));
		txc_buf_addstr(&p, "sessions");
		cli_guard_hermes(p.buf, true);
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

/* Every Hermes home the run may know of: --home, $HERMES_HOME, ~/.hermes, and the home of a
 * --db .../state.db or .../profiles/NAME/state.db. */
static void guard_homes(const struct cli_args *a)
{
	struct home_id seen[5]; /* (at most five homes) */
	size_t n = 0;
	const char *env = getenv("HERMES_HOME"), *home = getenv("HOME");
	if (a->store.home != NULL)
		guard_home(a->store.home, seen, &n);
	if (env != NULL && env[0] != '\0')
		guard_home(env, seen, &n);
	if (home != NULL && home[0] != '\0') {
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/.hermes", home);
		guard_home(p.buf, seen, &n);
		txc_buf_release(&p);
	}
	const char *db = a->store.db;
	size_t len = db ? strlen(db) : 0;
	if (db == NULL || !last_is(db, len, "state.db"))
		return;
	char *dir = txc_xstrndup(db, len - strlen("state.db"));
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dir[--dl] = '\0';
	guard_home(dl ? dir : ".", seen, &n);
	size_t pl = dl; /* .../profiles/NAME: the home is two folders up */
	while (pl > 0 && dir[pl - 1] != '/')
		pl--;
	while (pl > 1 && dir[pl - 1] == '/')
		pl--;
	if (pl > 0 && last_is(dir, pl, "profiles")) {
		dir[pl - strlen("profiles")] = '\0';
		guard_home(dir[0] ? dir : ".", seen, &n);
	}
	free(dir);
}

enum txc_err cli_stores_open(const struct cli_args *a, struct cli_stores *out, struct txc_diag *d)
{
	memset(out, 0, sizeof(*out));
	guard_homes(a);
	if (is_claude(a))
		return open_claude(a, out, d);
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
		enum txc_err rc = add_all_profiles(a, out, d);
		if (rc != TXC_OK)
			return rc;
	} else {
		char *path = cli_store_path(&a->store, d);
		if (path == NULL)
			return d->code;
		const char *profile = a->store.profile != NULL ? a->store.profile : "default";
		add_store(out, a->store.db != NULL ? NULL : profile, path);
		out->root_unnamed = a->store.db == NULL && a->store.profile == NULL && !a->store.legacy;
	}
	if (a->store.legacy || a->store.all_sources)
		add_legacy(a, out);
	return open_stores(a, out, d);
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
	if (is_claude(a)) {
		cli_warn("no Claude Code sessions at '%s' (set CLAUDE_CONFIG_DIR)", st->v[0].path);
		return true;
	}
	if (st->v[0].legacy)
		cli_warn("no legacy sessions folder at '%s' (set HERMES_HOME, or use --home)", st->v[0].path);
	else
		cli_warn("no Hermes store at '%s' (set HERMES_HOME, or use --home or --db)", st->v[0].path);
	return true;
}
