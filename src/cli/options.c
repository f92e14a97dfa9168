/*
 * options.c - the one option table behind parsing, --help and the shell
 * completions, so the three can never disagree.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	O_DB = 1000, O_HOME, O_PROFILE, O_ALL_PROFILES, O_JSON, O_ARCHIVED, O_SINCE, O_UNTIL, O_SOURCE, O_MODEL,
	O_CWD, O_TITLE, O_LIMIT, O_ORDER, O_UTC, O_TO, O_OUT, O_FORCE, O_INSTALL, O_REASONING, O_DETAIL, O_MAXLINES,
	O_IMAGES, O_COMPACTED, O_DRY_RUN, O_PROGRESS, O_CHECK, O_COLOR, O_VERSION, O_INPUT, O_SKIP_BAD, O_REMOTE,
	O_TOKEN, O_TIMEOUT, O_AS_NEW,
};

#define ALL (CMD_LIST | CMD_CONVERT | CMD_EXPORT | CMD_ARTIFACTS)
#define SEL (CMD_LIST | CMD_EXPORT)

/* values: completion words; "@file" / "@dir" complete paths; "@session" nothing special */
static const struct cli_opt opts[] = {
	{"db", 0, O_DB, "PATH", "@file", ALL, "read this state.db (never written)"},
	{"home", 0, O_HOME, "DIR", "@dir", ALL, "Hermes home (default $HERMES_HOME, else ~/.hermes)"},
	{"profile", 0, O_PROFILE, "NAME", NULL, ALL, "the store of profile NAME (<home>/profiles/NAME)"},
	{"all-profiles", 0, O_ALL_PROFILES, NULL, NULL, ALL, "the root store and every profiles/*/state.db"},
	{"input", 0, O_INPUT, "FILE", "@file", ALL, "read a Hermes export file (JSONL or one JSON session; - for stdin)"},
	{"skip-bad", 0, O_SKIP_BAD, NULL, NULL, ALL, "with --input: skip malformed lines (each is reported)"},
	{"remote", 0, O_REMOTE, "URL", NULL, ALL, "read a running Hermes dashboard (http://127.0.0.1:9119)"},
	{"token", 0, O_TOKEN, "TOKEN", NULL, ALL,
	 "dashboard session token (default $HERMES_DASHBOARD_SESSION_TOKEN, else read from the dashboard page)"},
	{"timeout", 0, O_TIMEOUT, "SECONDS", NULL, ALL, "with --remote: give up on a request after SECONDS (default 300)"},
	{"since", 0, O_SINCE, "WHEN", "today yesterday 1h 1d 1w", SEL, "sessions started at or after WHEN"},
	{"until", 0, O_UNTIL, "WHEN", "today yesterday", SEL, "sessions started before WHEN (a date: through that day)"},
	{"source", 0, O_SOURCE, "NAME", "cli telegram discord slack whatsapp signal api_server cron", SEL,
	 "only sessions from this source"},
	{"model", 0, O_MODEL, "TEXT", NULL, SEL, "only models whose name contains TEXT (any case)"},
	{"cwd", 0, O_CWD, "PATH", "@dir", SEL, "only sessions whose working directory is PATH (relative: to here) or below it"},
	{"title", 0, O_TITLE, "TEXT", NULL, SEL, "only titles containing TEXT (any case)"},
	{"limit", 0, O_LIMIT, "N", NULL, SEL, "at most N sessions"},
	{"archived", 0, O_ARCHIVED, NULL, NULL, CMD_LIST, "include archived sessions (export always does)"},
	{"order", 0, O_ORDER, "KEY", "started recent", SEL, "started (start time) or recent (last activity)"},
	{"json", 0, O_JSON, NULL, NULL, CMD_LIST | CMD_EXPORT | CMD_ARTIFACTS, "JSON output"},
	{"to", 0, O_TO, "FORMAT", "claude hermes markdown", CMD_CONVERT | CMD_EXPORT, "output format"},
	{"output", 'o', 'o', "FILE", "@file", CMD_CONVERT, "write FILE atomically instead of stdout (- is stdout)"},
	{"out", 0, O_OUT, "DIR", "@dir", CMD_EXPORT, "write one file per session in DIR, with manifest.jsonl"},
	{"force", 0, O_FORCE, NULL, NULL, CMD_CONVERT | CMD_EXPORT, "overwrite existing files (never a store or file txc reads, never a session continued in Claude Code)"},
	{"dry-run", 0, O_DRY_RUN, NULL, NULL, CMD_EXPORT, "list what would be written; write nothing"},
	{"progress", 0, O_PROGRESS, NULL, NULL, CMD_EXPORT, "progress and summary on stderr even when not a terminal"},
	{"install", 0, O_INSTALL, NULL, NULL, CMD_CONVERT | CMD_EXPORT,
	 "claude: install under $CLAUDE_CONFIG_DIR/projects for `claude --resume` (never over a session continued "
	 "there)"},
	{"as-new", 0, O_AS_NEW, NULL, NULL, CMD_CONVERT | CMD_EXPORT,
	 "with --install: install as a separate Claude Code session (same id every run), leaving the installed one"},
	{"reasoning", 0, O_REASONING, "MODE", "keep text drop", CMD_CONVERT | CMD_EXPORT,
	 "claude: keep (thinking blocks, default), text, or drop"},
	{"detail", 0, O_DETAIL, "LEVEL", "full normal brief prompts", CMD_CONVERT | CMD_EXPORT,
	 "markdown: full, normal (default), brief, or prompts"},
	{"max-output-lines", 0, O_MAXLINES, "N", NULL, CMD_CONVERT | CMD_EXPORT,
	 "markdown: cut tool output at N lines in normal detail (default 40)"},
	{"images", 0, O_IMAGES, "MODE", "inline files omit", CMD_CONVERT | CMD_EXPORT,
	 "markdown: inline (data: URIs; default on stdout), files (FILE.assets/; default with a file), omit"},
	{"include-compacted", 0, O_COMPACTED, NULL, NULL, CMD_CONVERT | CMD_EXPORT,
	 "markdown: also show history Hermes archived during compaction"},
	{"utc", 0, O_UTC, NULL, NULL, ALL, "times in UTC (default: local time)"},
	{"check", 0, O_CHECK, NULL, NULL, CMD_ARTIFACTS, "say whether each local path (relative: to the session's cwd) exists now (never reads it)"},
	{"color", 0, O_COLOR, "WHEN", "auto always never", ALL, "colour: auto (terminals only; NO_COLOR respected), always, never"},
	{"help", 'h', 'h', NULL, NULL, ALL, "show this help"},
	{"version", 0, O_VERSION, NULL, NULL, ALL, "print the version"},
};
#define N_OPTS (sizeof(opts) / sizeof(opts[0]))

static const struct cli_cmd_info cmds[] = {
	{CMD_LIST, "list", "[hermes] [options]", "list sessions, newest first",
	 "List sessions: id, start time, source, model, messages, title.  A missing\n"
	 "store is not an error: nothing is listed and stderr says where txc looked.\n"},
	{CMD_CONVERT, "convert", "SESSION --to FORMAT [options]", "convert one session (claude, hermes, markdown)",
	 "Convert one session.  SESSION is an exact id or a unique prefix.\n"},
	{CMD_EXPORT, "export", "--json | --to FORMAT --out DIR [options]", "export sessions (JSONL, or files)",
	 "--json prints the selected sessions as JSONL, each line identical to what Hermes\n"
	 "v0.20.0's `hermes sessions export -` prints (newest activity first).\n"
	 "--to FORMAT --out DIR writes one file per session, named <id>-<slug>.<ext>, and\n"
	 "DIR/manifest.jsonl; a second run rewrites only the sessions that changed.\n"},
	{CMD_ARTIFACTS, "artifacts", "SESSION [--json] [--check]", "files a session produced or referred to",
	 "List the files, images and links a session produced or referred to, found in its\n"
	 "assistant and tool messages (MEDIA: tags, screenshot paths, Markdown images and\n"
	 "links, tool-result keys such as saved_to).  Paths are shown, never opened.\n"},
};

const struct cli_cmd_info *cli_commands(size_t *n)
{
	*n = sizeof(cmds) / sizeof(cmds[0]);
	return cmds;
}

const struct cli_cmd_info *cli_command(unsigned cmd)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (cmds[i].cmd == cmd)
			return &cmds[i];
	return NULL;
}

void cli_help(unsigned cmd, FILE *f)
{
	const struct cli_cmd_info *c = cli_command(cmd);
	fprintf(f, "usage: txc %s %s\n\n%s\n", c->name, c->usage, c->about);
	if (cmd & (CMD_CONVERT | CMD_EXPORT)) {
		size_t n;
		const struct txc_writer_ops *const *all = txc_writer_all(&n);
		fputs("formats:\n", f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "  %-22s %s\n", all[i]->name, all[i]->summary);
		fputc('\n', f);
	}
	fputs("options:\n", f);
	for (size_t i = 0; i < N_OPTS; i++) {
		if (!(opts[i].cmds & cmd))
			continue;
		char left[64];
		if (opts[i].short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", opts[i].short_name, opts[i].name,
				 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		else
			snprintf(left, sizeof(left), "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
				 opts[i].arg ? opts[i].arg : "");
		if (strlen(left) > 22)
			fprintf(f, "  %s\n  %-22s ", left, "");
		else
			fprintf(f, "  %-22s ", left);
		/* the text wrapped at word boundaries to 80 columns */
		const char *h = opts[i].help;
		while (strlen(h) > 55) {
			int cut = 55;
			while (cut > 0 && h[cut] != ' ')
				cut--;
			if (cut == 0)
				break;
			fprintf(f, "%.*s\n  %-22s ", cut, h, "");
			h += cut + 1;
		}
		fprintf(f, "%s\n", h);
	}
	fputs("\nexit status: 0 success, 1 failure, 2 usage error, 3 not found, 4 refused.\n", f);
}

static int choice(unsigned cmd, const char *opt, const char *v, const char *const *names, int n, int *out)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return 0;
		}
	char list[128] = "";
	for (int i = 0; i < n; i++) {
		strcat(list, i == 0 ? "" : i == n - 1 ? " or " : ", ");
		strcat(list, names[i]);
	}
	return cli_usage(cmd, "--%s takes %s, not '%s'", opt, list, v);
}

static int number(unsigned cmd, const char *opt, const char *v, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < 1)
		return cli_usage(cmd, "--%s takes a positive number, not '%s'", opt, v);
	*out = n;
	return 0;
}

static int apply(unsigned cmd, int id, const char *v, struct cli_args *a)
{
	static const char *const reasoning[] = {"keep", "text", "drop"};
	static const char *const detail[] = {"normal", "full", "brief", "prompts"};
	static const char *const images[] = {"inline", "files", "omit"};
	static const char *const order[] = {"started", "recent"};
	static const char *const color[] = {"auto", "always", "never"};
	int k, rc = 0;
	switch (id) {
	case O_DB: a->store.db = v; break;
	case O_HOME: a->store.home = v; break;
	case O_PROFILE: a->store.profile = v; break;
	case O_ALL_PROFILES: a->all_profiles = true; break;
	case O_INPUT: a->store.input = v; break;
	case O_SKIP_BAD: a->store.skip_bad = true; break;
	case O_REMOTE: a->store.remote = v; break;
	case O_TOKEN:
		/* keep a copy and wipe the argument, so that the token is not in the process title */
		{
			static char copy[4096];
			snprintf(copy, sizeof(copy), "%s", v);
			a->store.token = copy;
			memset((char *)v, 'x', strlen(v));
		}
		break;
	case O_TIMEOUT: rc = number(cmd, "timeout", v, &a->store.timeout); break;
	case O_JSON: a->json = true; break;
	case O_ARCHIVED: a->sel.archived = true; break;
	case O_SINCE: a->sel.since_arg = v; break;
	case O_UNTIL: a->sel.until_arg = v; break;
	case O_SOURCE: a->sel.source = v; break;
	case O_MODEL: a->sel.model = v; break;
	case O_CWD: a->sel.cwd = v; break;
	case O_TITLE: a->sel.title = v; break;
	case O_LIMIT: rc = number(cmd, "limit", v, &a->sel.limit); break;
	case O_ORDER:
		if ((rc = choice(cmd, "order", v, order, 2, &k)) == 0)
			a->sel.order = k, a->sel.order_set = true;
		break;
	case O_UTC: a->w.utc = a->sel.utc = true; break;
	case O_TO: a->to = v; break;
	case 'o': a->output = v; break;
	case O_OUT: a->out_dir = v; break;
	case O_FORCE: a->force = true; break;
	case O_INSTALL: a->install = true; break;
	case O_AS_NEW: a->as_new = true; break;
	case O_DRY_RUN: a->dry_run = true; break;
	case O_PROGRESS: a->progress = true; break;
	case O_CHECK: a->check = true; break;
	case O_REASONING:
		if ((rc = choice(cmd, "reasoning", v, reasoning, 3, &k)) == 0)
			a->w.reasoning = (enum txc_reasoning)k;
		break;
	case O_DETAIL:
		if ((rc = choice(cmd, "detail", v, detail, 4, &k)) == 0)
			a->w.detail = (enum txc_detail)k;
		break;
	case O_MAXLINES: rc = number(cmd, "max-output-lines", v, &a->w.max_output_lines); break;
	case O_IMAGES:
		if ((rc = choice(cmd, "images", v, images, 3, &k)) == 0)
			a->w.images = k == 0 ? TXC_IMAGES_INLINE : k == 1 ? TXC_IMAGES_FILES : TXC_IMAGES_OMIT;
		break;
	case O_COMPACTED: a->w.include_compacted = true; break;
	case O_COLOR:
		if ((rc = choice(cmd, "color", v, color, 3, &k)) == 0)
			cli_color_set(k);
		break;
	case 'h': a->help = true; break;
	case O_VERSION: printf("txc %s\n", TXC_VERSION); return -1;
	}
	return rc;
}

int cli_parse(unsigned cmd, int argc, char **argv, struct cli_args *a)
{
	struct option lo[N_OPTS + 1];
	char shorts[16] = "";
	memset(a, 0, sizeof(*a));
	a->w.max_output_lines = 40;
	for (size_t i = 0; i < N_OPTS; i++) {
		lo[i] = (struct option){opts[i].name, opts[i].arg ? required_argument : no_argument, NULL, opts[i].id};
		if (opts[i].short_name) {
			size_t l = strlen(shorts);
			shorts[l] = (char)opts[i].short_name;
			shorts[l + 1] = opts[i].arg ? ':' : '\0';
			shorts[l + 2] = '\0';
		}
	}
	memset(&lo[N_OPTS], 0, sizeof(lo[N_OPTS]));
	char spec[20] = ":";
	strcat(spec, shorts);
	opterr = 0;
	optind = 1;
	int c, idx;
	while ((c = getopt_long(argc, argv, spec, lo, &idx)) != -1) {
		if (c == ':')
			return cli_usage(cmd, "option '%s' needs a value", argv[optind - 1]);
		if (c == '?')
			return cli_usage(cmd, "unknown option '%s'", argv[optind - 1]);
		const struct cli_opt *o = NULL;
		for (size_t i = 0; i < N_OPTS; i++)
			if (opts[i].id == c)
				o = &opts[i];
		if (!(o->cmds & cmd))
			return cli_usage(cmd, "--%s does not apply to 'txc %s'", o->name, cli_command(cmd)->name);
		int rc = apply(cmd, c, optarg, a);
		if (rc)
			return rc;
	}
	a->pos = argv + optind;
	a->n_pos = argc - optind;
	return 0;
}

int cli_begin(unsigned cmd, int argc, char **argv, struct cli_args *a)
{
	int rc = cli_parse(cmd, argc, argv, a);
	if (rc == 0 && a->help) {
		cli_help(cmd, stdout);
		return -1;
	}
	if (rc == 0 && a->as_new && !a->install)
		return cli_usage(cmd, "--as-new works with --install only");
	return rc;
}

/* ---- shell completions, from the same table ---- */

static void words_for(unsigned cmd, struct txc_buf *b)
{
	for (size_t i = 0; i < N_OPTS; i++)
		if (opts[i].cmds & cmd)
			txc_buf_addf(b, "%s--%s", b->len ? " " : "", opts[i].name);
}

static void bash(FILE *f)
{
	size_t nc;
	const struct cli_cmd_info *cs = cli_commands(&nc);
	fputs("# bash completion for txc (generated by `txc completions bash`)\n"
	      "_txc() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W 'list convert export artifacts completions --help --version' -- \"$cur\"))\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase $prev in\n",
	      f);
	for (size_t i = 0; i < N_OPTS; i++) {
		if (!opts[i].arg)
			continue;
		const char *v = opts[i].values;
		if (v == NULL || strcmp(v, "@file") == 0)
			fprintf(f, "\t--%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", opts[i].name);
		else if (strcmp(v, "@dir") == 0)
			fprintf(f, "\t--%s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", opts[i].name);
		else
			fprintf(f, "\t--%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", opts[i].name, v);
	}
	fputs("\t-o) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n\tesac\n\tcase $cmd in\n", f);
	for (size_t i = 0; i < nc; i++) {
		struct txc_buf w = TXC_BUF_INIT;
		words_for(cs[i].cmd, &w);
		fprintf(f, "\t%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")) ;;\n", cs[i].name, w.buf);
		txc_buf_release(&w);
	}
	fputs("\tcompletions) COMPREPLY=($(compgen -W 'bash zsh fish' -- \"$cur\")) ;;\n\tesac\n}\n"
	      "complete -F _txc txc\n",
	      f);
}

static void zsh(FILE *f)
{
	size_t nc;
	const struct cli_cmd_info *cs = cli_commands(&nc);
	fputs("#compdef txc\n# zsh completion for txc (generated by `txc completions zsh`)\n_txc() {\n"
	      "\tlocal -a commands\n\tcommands=(\n",
	      f);
	for (size_t i = 0; i < nc; i++)
		fprintf(f, "\t\t'%s:%s'\n", cs[i].name, cs[i].summary);
	fputs("\t\t'completions:print a shell completion script'\n\t)\n"
	      "\tif (( CURRENT == 2 )); then\n\t\t_describe command commands\n\t\treturn\n\tfi\n"
	      "\tcase $words[2] in\n",
	      f);
	for (size_t i = 0; i < nc; i++) {
		fprintf(f, "\t%s)\n\t\t_arguments -s", cs[i].name);
		for (size_t k = 0; k < N_OPTS; k++) {
			const struct cli_opt *o = &opts[k];
			if (!(o->cmds & cs[i].cmd))
				continue;
			/* help texts are ours: no quote or bracket to escape, but be safe */
			struct txc_buf h = TXC_BUF_INIT;
			for (const char *p = o->help; *p; p++)
				if (*p != '\'' && *p != '[' && *p != ']' && *p != ':')
					txc_buf_addch(&h, *p);
			if (!o->arg)
				fprintf(f, " \\\n\t\t\t'--%s[%s]'", o->name, h.buf);
			else if (o->values == NULL || strcmp(o->values, "@file") == 0)
				fprintf(f, " \\\n\t\t\t'--%s=[%s]:%s:_files'", o->name, h.buf, o->arg);
			else if (strcmp(o->values, "@dir") == 0)
				fprintf(f, " \\\n\t\t\t'--%s=[%s]:%s:_files -/'", o->name, h.buf, o->arg);
			else
				fprintf(f, " \\\n\t\t\t'--%s=[%s]:%s:(%s)'", o->name, h.buf, o->arg, o->values);
			txc_buf_release(&h);
		}
		fputs(" \\\n\t\t\t'*:session: '\n\t\t;;\n", f);
	}
	fputs("\tcompletions) _values shell bash zsh fish ;;\n\tesac\n}\n_txc \"$@\"\n", f);
}

static void fish(FILE *f)
{
	size_t nc;
	const struct cli_cmd_info *cs = cli_commands(&nc);
	fputs("# fish completion for txc (generated by `txc completions fish`)\ncomplete -c txc -f\n", f);
	for (size_t i = 0; i < nc; i++)
		fprintf(f, "complete -c txc -n __fish_use_subcommand -a %s -d '%s'\n", cs[i].name, cs[i].summary);
	fputs("complete -c txc -n __fish_use_subcommand -a completions -d 'print a shell completion script'\n", f);
	for (size_t k = 0; k < N_OPTS; k++) {
		const struct cli_opt *o = &opts[k];
		struct txc_buf cond = TXC_BUF_INIT;
		for (size_t i = 0; i < nc; i++)
			if (o->cmds & cs[i].cmd)
				txc_buf_addf(&cond, "%s%s", cond.len ? " " : "", cs[i].name);
		fprintf(f, "complete -c txc -n '__fish_seen_subcommand_from %s' -l %s", cond.buf, o->name);
		if (o->short_name)
			fprintf(f, " -s %c", o->short_name);
		if (o->arg) {
			if (o->values == NULL || strcmp(o->values, "@file") == 0)
				fputs(" -r -F", f);
			else if (strcmp(o->values, "@dir") == 0)
				fputs(" -r -a '(__fish_complete_directories)'", f);
			else
				fprintf(f, " -x -a '%s'", o->values);
		}
		struct txc_buf h = TXC_BUF_INIT;
		for (const char *p = o->help; *p; p++)
			if (*p != '\'')
				txc_buf_addch(&h, *p);
		fprintf(f, " -d '%s'\n", h.buf);
		txc_buf_release(&h);
		txc_buf_release(&cond);
	}
	fputs("complete -c txc -n '__fish_seen_subcommand_from completions' -x -a 'bash zsh fish'\n", f);
}

int cli_completions(const char *shell)
{
	if (shell != NULL && strcmp(shell, "bash") == 0)
		bash(stdout);
	else if (shell != NULL && strcmp(shell, "zsh") == 0)
		zsh(stdout);
	else if (shell != NULL && strcmp(shell, "fish") == 0)
		fish(stdout);
	else
		return cli_usage(0, "txc completions takes bash, zsh or fish");
	return 0;
}
