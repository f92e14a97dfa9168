/*
 * claude_locate.c - where Claude Code keeps its sessions: $CLAUDE_CONFIG_DIR/projects, else
 * ~/.claude/projects; each <project>/<session>.jsonl and its <session>/subagents/agent-ID.jsonl is a
 * file the reader walks (claude_code.c), so none may ever be an output, nor a new file in it.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "txc/harness.h"

static char *claude_locate(const struct txc_locate *l, struct txc_diag *d)
{
	(void)l; /* --db, --home, --profile are Hermes's: the CLI refused them */
	struct txc_buf p = TXC_BUF_INIT;
	const char *env = getenv("CLAUDE_CONFIG_DIR"), *home = getenv("HOME");
	if (env != NULL && env[0] != '\0') {
		txc_buf_addf(&p, "%s/projects", env);
	} else if (home != NULL && home[0] != '\0') {
		txc_buf_addf(&p, "%s/.claude/projects", home);
	} else {
		txc_diag_set(d, TXC_E_USAGE,
			     "cannot find Claude Code's folder: neither CLAUDE_CONFIG_DIR nor HOME is set");
		return NULL;
	}
	return txc_buf_detach(&p, NULL);
}

/* every *.jsonl of a folder, as a source no output may replace; sub: also <stem>/subagents/ */
static void guard_jsonl(const char *dir, bool sub, const struct txc_guard_sink *g)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.' || n <= 6 || strcmp(e->d_name + n - 6, ".jsonl") != 0)
			continue;
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", dir, e->d_name);
		g->add(g->ctx, p.buf, TXC_GUARD_SOURCE);
		if (sub) {
			txc_buf_truncate(&p, p.len - 6);
			txc_buf_addstr(&p, "/subagents");
			guard_jsonl(p.buf, false, g);
		}
		txc_buf_release(&p);
	}
	if (d != NULL)
		closedir(d);
}

/* the session files under projects/ (what the reader walks), and the folder: a new file in it would be read */
static void claude_guard(const char *projects, const struct txc_guard_sink *g)
{
	DIR *d = opendir(projects);
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		struct txc_buf p = TXC_BUF_INIT;
		txc_buf_addf(&p, "%s/%s", projects, e->d_name);
		guard_jsonl(p.buf, true, g);
		txc_buf_release(&p);
	}
	if (d != NULL)
		closedir(d);
	g->add(g->ctx, projects, TXC_GUARD_FOLDER);
}

/* Claude Code's sessions, whatever this run reads: no output replaces one (--install writes there by its own checks) */
static void claude_protect(const struct txc_locate *l, const struct txc_guard_sink *g)
{
	struct txc_diag d = {0};
	char *projects = claude_locate(l, &d);
	if (projects != NULL)
		g->add(g->ctx, projects, TXC_GUARD_TREE);
	free(projects);
}

const struct txc_harness txc_harness_claude = {
	.name = "claude",
	.label = "Claude Code",
	.summary = "($CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects; also `list claude`, SESSION as claude:ID)",
	.env = "CLAUDE_CONFIG_DIR",
	.where = "$CLAUDE_CONFIG_DIR/projects",
	.missing = "Claude Code sessions",
	.hint = "set CLAUDE_CONFIG_DIR",
	.opts = 0,
	.locate = claude_locate,
	.guard = claude_guard,
	.protect = claude_protect,
	.open = txc_claude_store_open,
};
