/*
 * locate.c - where Codex CLI keeps its sessions: $CODEX_HOME, else ~/.codex; the rollouts
 * under its sessions/ and archived_sessions/ are files the reader walks (walk.c), so none may
 * ever be an output, nor a new file in their folders.  The writer side finds Codex's folders
 * here too (txc_codex_home, txc_codex_sessions_dir: harness.h).
 */
#include <stdlib.h>
#include <string.h>

#include "codex.h"
#include "txc/harness.h"

char *txc_codex_home(struct txc_diag *d)
{
	struct txc_buf p = TXC_BUF_INIT;
	const char *env = getenv("CODEX_HOME"), *home = getenv("HOME");
	if (env != NULL && env[0] != '\0') {
		txc_buf_addstr(&p, env);
	} else if (home != NULL && home[0] != '\0') {
		txc_buf_addf(&p, "%s/.codex", home);
	} else {
		txc_diag_set(d, TXC_E_USAGE, "cannot find Codex's folder: neither CODEX_HOME nor HOME is set");
		return NULL;
	}
	return txc_buf_detach(&p, NULL);
}

/* $CODEX_HOME/<sub> (malloc'd), NULL with d set */
static char *home_sub(const char *sub, struct txc_diag *d)
{
	char *home = txc_codex_home(d);
	if (home == NULL)
		return NULL;
	struct txc_buf p = TXC_BUF_INIT;
	txc_buf_addf(&p, "%s/%s", home, sub);
	free(home);
	return txc_buf_detach(&p, NULL);
}

char *txc_codex_sessions_dir(struct txc_diag *d)
{
	return home_sub(TXC_CODEX_LIVE, d);
}

char *txc_codex_archived_dir(struct txc_diag *d)
{
	return home_sub(TXC_CODEX_ARCHIVED, d);
}

static char *codex_locate(const struct txc_locate *l, struct txc_diag *d)
{
	(void)l; /* --db, --home, --profile are Hermes's: the CLI refused them */
	return txc_codex_home(d);
}

static void guard_dir(void *ctx, const char *dir)
{
	const struct txc_guard_sink *g = ctx;
	g->add(g->ctx, dir, TXC_GUARD_FOLDER);
}

/* every rollout under sessions/ and archived_sessions/ (what the reader reads), and each folder walked */
static void codex_guard(const char *home, const struct txc_guard_sink *g)
{
	static const char *const subs[] = {TXC_CODEX_LIVE, TXC_CODEX_ARCHIVED};
	for (size_t k = 0; k < 2; k++) {
		struct txc_buf p = TXC_BUF_INIT;
		size_t n;
		txc_buf_addf(&p, "%s/%s", home, subs[k]);
		struct txc_codex_file *v = txc_codex_files(p.buf, k == 1, &n, guard_dir, (void *)g);
		for (size_t i = 0; i < n; i++)
			g->add(g->ctx, v[i].path, TXC_GUARD_SOURCE);
		txc_codex_files_free(v, n);
		txc_buf_release(&p);
	}
}

/* Codex's sessions, whatever this run reads: no output replaces one (--install writes there by its own checks) */
static void codex_protect(const struct txc_locate *l, const struct txc_guard_sink *g)
{
	(void)l;
	struct txc_diag d = {0};
	char *live = txc_codex_sessions_dir(&d), *arch = live ? txc_codex_archived_dir(&d) : NULL;
	if (live != NULL)
		g->add(g->ctx, live, TXC_GUARD_TREE);
	if (arch != NULL)
		g->add(g->ctx, arch, TXC_GUARD_TREE);
	free(live);
	free(arch);
}

const struct txc_harness txc_harness_codex = {
	.name = "codex",
	.label = "Codex CLI",
	.summary =
		"($CODEX_HOME/sessions and archived_sessions, else ~/.codex; also `list codex`, SESSION as codex:ID)",
	.env = "CODEX_HOME",
	.where = "$CODEX_HOME/sessions",
	.missing = "Codex sessions",
	.hint = "set CODEX_HOME",
	.opts = 0,
	.locate = codex_locate,
	.guard = codex_guard,
	.protect = codex_protect,
	.open = txc_codex_store_open,
};
