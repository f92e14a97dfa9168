/*
 * options.c - the one option table behind parsing, --help and the shell
 * completions, so the three can never disagree.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum {
	O_DB = 1000,
	O_HOME,
	O_PROFILE,
	O_ALL_PROFILES,
	O_JSON,
	O_ARCHIVED,
	O_SINCE,
	O_UNTIL,
	O_SOURCE,
	O_MODEL,
	O_CWD,
	O_TITLE,
	O_LIMIT,
	O_ORDER,
	O_UTC,
	O_TO,
	O_OUT,
	O_FORCE,
	O_INSTALL,
	O_REASONING,
	O_DETAIL,
	O_MAXLINES,
	O_IMAGES,
	O_COMPACTED,
	O_DRY_RUN,
	O_PROGRESS,
	O_CHECK,
	O_COLOR,
	O_VERSION,
	O_INPUT,
	O_SKIP_BAD,
	O_REMOTE,
	O_TOKEN,
	O_TIMEOUT,
	O_AS_NEW,
	O_SESSIONS,
	O_ROLE,
	O_TOOL,
	O_SORT,
	O_INACTIVE,
	O_VERBOSE,
	O_LEGACY,
	O_ALL_SOURCES,
	O_WIDTH,
	O_FOLLOW,
	O_INTERVAL,
	O_NO_PAGER,
	O_LINEAGE,
	O_CHILDREN,
	O_TREE,
	O_REDACT,
	O_FROM,
	O_HERMES_FORMAT,
};

#define ALL     CMD_ANY
#define STORE   CMD_STORE
#define SEL     (CMD_LIST | CMD_EXPORT)
#define FILTERS (SEL | CMD_SEARCH | CMD_VIEW) /* the filters of list, which search and view take too */

/*
 * values: completion words; "@file" / "@dir" complete paths; "@format" the writers' names;
 * "@session" nothing special.
 * Which options are write options, refused when the writer does not read them: formats.c.
 */
static const struct cli_opt opts[] = {
	{"db", 0, O_DB, "PATH", "@file", STORE, "read this state.db (never written)"},
	{"home", 0, O_HOME, "DIR", "@dir", STORE, "Hermes home (default $HERMES_HOME, else ~/.hermes)"},
	{"profile", 0, O_PROFILE, "NAME", NULL, STORE, "the store of profile NAME (<home>/profiles/NAME)"},
	{"all-profiles", 0, O_ALL_PROFILES, NULL, NULL, STORE, "the root store and every profiles/*/state.db"},
	{"input", 0, O_INPUT, "FILE", "@file", STORE,
	 "read a Hermes export file (JSONL or one JSON session; - for stdin)"},
	{"skip-bad", 0, O_SKIP_BAD, NULL, NULL, STORE, "with --input: skip malformed lines (each is reported)"},
	{"remote", 0, O_REMOTE, "URL", NULL, STORE, "read a running Hermes dashboard (http://127.0.0.1:9119)"},
	{"token", 0, O_TOKEN, "TOKEN", NULL, STORE,
	 "dashboard session token (default $HERMES_DASHBOARD_SESSION_TOKEN, else read from the dashboard page)"},
	{"timeout", 0, O_TIMEOUT, "SECONDS", NULL, STORE,
	 "with --remote: give up on a request after SECONDS (default 300)"},
	{"since", 0, O_SINCE, "WHEN", "today yesterday 1h 1d 1w", FILTERS, "sessions started at or after WHEN"},
	{"until", 0, O_UNTIL, "WHEN", "today yesterday", FILTERS,
	 "sessions started before WHEN (a date: through that day)"},
	{"source", 0, O_SOURCE, "NAME", "cli telegram discord slack whatsapp signal api_server cron", FILTERS,
	 "only sessions from this source"},
	{"model", 0, O_MODEL, "TEXT", NULL, FILTERS, "only models whose name contains TEXT (any case)"},
	{"cwd", 0, O_CWD, "PATH", "@dir", FILTERS,
	 "only sessions whose working directory is PATH (relative: to here) or below it"},
	{"title", 0, O_TITLE, "TEXT", NULL, FILTERS, "only titles containing TEXT (any case)"},
	{"limit", 0, O_LIMIT, "N", NULL, FILTERS, "at most N sessions (search: N hits, default 20)"},
	{"archived", 0, O_ARCHIVED, NULL, NULL, CMD_LIST | CMD_SEARCH,
	 "include archived sessions (export always does)"},
	{"order", 0, O_ORDER, "KEY", "started recent", SEL, "started (start time) or recent (last activity)"},
	{"json", 0, O_JSON, NULL, NULL, CMD_LIST | CMD_EXPORT | CMD_ARTIFACTS | CMD_SEARCH, "JSON output"},
	{"sessions", 0, O_SESSIONS, NULL, NULL, CMD_SEARCH,
	 "search: print only the ids of matching sessions, one a line"},
	{"role", 0, O_ROLE, "ROLE", "user assistant tool", CMD_SEARCH,
	 "search: only messages of ROLE (user, assistant, tool)"},
	{"tool", 0, O_TOOL, "NAME", NULL, CMD_SEARCH, "search: only calls to the tool NAME and its results"},
	{"sort", 0, O_SORT, "KEY", "rank newest oldest", CMD_SEARCH,
	 "search: rank (best first, default), newest or oldest"},
	{"include-inactive", 0, O_INACTIVE, NULL, NULL, CMD_SEARCH,
	 "search: also messages rewound away (hidden by default)"},
	{"verbose", 0, O_VERBOSE, NULL, NULL, CMD_SEARCH | CMD_LIST,
	 "search: say on stderr which index answered and whether the answer is complete; list: which legacy "
	 "sessions the store has too"},
	{"to", 0, O_TO, "FORMAT", "@format", CMD_CONVERT | CMD_EXPORT, "output format"},
	{"output", 'o', 'o', "FILE", "@file", CMD_CONVERT, "write FILE atomically instead of stdout (- is stdout)"},
	{"out", 0, O_OUT, "DIR", "@dir", CMD_EXPORT, "write one file per session in DIR, with manifest.jsonl"},
	{"force", 0, O_FORCE, NULL, NULL, CMD_CONVERT | CMD_EXPORT,
	 "overwrite existing files (never a store or file txc reads, never a session continued in Claude Code); "
	 "export --out: render every session again"},
	{"dry-run", 0, O_DRY_RUN, NULL, NULL, CMD_EXPORT, "list what would be written; write nothing"},
	{"progress", 0, O_PROGRESS, NULL, NULL, CMD_EXPORT, "progress and summary on stderr even when not a terminal"},
	{"install", 0, O_INSTALL, NULL, NULL, CMD_CONVERT | CMD_EXPORT,
	 "claude: install under $CLAUDE_CONFIG_DIR/projects for `claude --resume` (never over a session continued "
	 "there)"},
	{"as-new", 0, O_AS_NEW, NULL, NULL, CMD_CONVERT | CMD_EXPORT,
	 "with --install: install as a separate Claude Code session (same id every run), leaving the installed one"},
	{"reasoning", 0, O_REASONING, "MODE", "keep text drop", CMD_CONVERT | CMD_EXPORT,
	 "claude: keep (thinking blocks, default; Anthropic-signed ones with their signature), text, or drop (a turn "
	 "that was only reasoning is then left out)"},
	{"detail", 0, O_DETAIL, "LEVEL", "full normal brief prompts", CMD_CONVERT | CMD_EXPORT | CMD_VIEW,
	 "markdown, html, terminal: full, normal (default), brief, or prompts"},
	{"max-output-lines", 0, O_MAXLINES, "N", NULL, CMD_CONVERT | CMD_EXPORT | CMD_VIEW,
	 "markdown, html, terminal: cut tool output at N lines in normal detail (default 40)"},
	{"images", 0, O_IMAGES, "MODE", "inline files omit", CMD_CONVERT | CMD_EXPORT,
	 "markdown, html: inline (data: URIs; default on stdout, html's always), files (FILE.assets/; markdown's "
	 "default with a file), omit"},
	{"include-compacted", 0, O_COMPACTED, NULL, NULL, CMD_CONVERT | CMD_EXPORT | CMD_VIEW,
	 "markdown, html, terminal: also show history Hermes archived during compaction; claude: write it before a "
	 "compact_boundary"},
	{"hermes-format", 0, O_HERMES_FORMAT, "VERSION", "auto 0.20 0.21", CMD_CONVERT | CMD_EXPORT,
	 "hermes, --json: the export of Hermes 0.20 (v0.20.0's, byte for byte) or 0.21 (its timings block, no display "
	 "columns); auto (default): 0.21 for a store whose columns a newer Hermes added, or an export file with "
	 "timings, else 0.20"},
	{"utc", 0, O_UTC, NULL, NULL, ALL, "times in UTC (default: local time)"},
	{"check", 0, O_CHECK, NULL, NULL, CMD_ARTIFACTS,
	 "say whether each local path (relative: to the session's cwd) exists now (never reads it)"},
	{"color", 0, O_COLOR, "WHEN", "auto always never", ALL,
	 "colour: auto (terminals only; NO_COLOR respected), always, never"},
	{"width", 0, O_WIDTH, "N", NULL, CMD_CONVERT | CMD_EXPORT | CMD_VIEW,
	 "terminal: wrap at N columns (default: the terminal's width, else 80; 20 to 1000)"},
	{"follow", 'f', 'f', NULL, NULL, CMD_CONVERT | CMD_VIEW,
	 "print the session, then each new message as Hermes writes it, until it ends or Ctrl-C"},
	{"interval", 0, O_INTERVAL, "SECONDS", NULL, CMD_CONVERT | CMD_VIEW,
	 "with --follow: look for new messages every SECONDS (default 1)"},
	{"no-pager", 0, O_NO_PAGER, NULL, NULL, CMD_VIEW, "never page (default: page when taller than the terminal)"},
	{"help", 'h', 'h', NULL, NULL, ALL | CMD_MAIN, "show this help"},
	{"version", 0, O_VERSION, NULL, NULL, ALL | CMD_MAIN, "print the version"},
	{"legacy", 0, O_LEGACY, NULL, NULL, STORE,
	 "read Hermes's legacy session files (<home>/sessions/: session_ID.json, ID.jsonl) instead of state.db"},
	{"all-sources", 0, O_ALL_SOURCES, NULL, NULL, STORE,
	 "read state.db and the legacy session files; the store's copy of a session in both is used"},
	{"lineage", 0, O_LINEAGE, NULL, NULL, CMD_CONVERT | CMD_VIEW | CMD_EXPORT,
	 "the whole compression chain SESSION belongs to, root to the tip Hermes resumes, as one conversation; "
	 "with --follow, a session that ends in a compression is followed into its continuation"},
	{"children", 0, O_CHILDREN, NULL, NULL, CMD_CONVERT | CMD_VIEW | CMD_EXPORT,
	 "include delegate child sessions (subagents): markdown and html folded under the call, terminal indented "
	 "under it, claude as subagent files (with -o or --install)"},
	{"tree", 0, O_TREE, NULL, NULL, CMD_LIST,
	 "compression chains, branches and children indented under their root"},
	{"redact", 0, O_REDACT, NULL, NULL, CMD_CONVERT | CMD_EXPORT | CMD_VIEW | CMD_SEARCH | CMD_ARTIFACTS,
	 "replace secrets (API keys, tokens, passwords, private keys, ...) with [REDACTED:<kind> …<hash>] in every "
	 "format, and in search's snippets and titles and artifacts' values"},
	{"from", 0, O_FROM, "HARNESS", "hermes claude", STORE,
	 "read sessions of HARNESS: hermes (default) or claude ($CLAUDE_CONFIG_DIR/projects, else "
	 "~/.claude/projects; also `list claude`, SESSION as claude:ID)"},
	{"jobs", 'j', 'j', "N", NULL, CMD_EXPORT,
	 "export --out: render N sessions at once (default: the number of CPUs); the same files whatever N"},
};
#define N_OPTS (sizeof(opts) / sizeof(opts[0]))

const struct cli_opt *cli_options(size_t *n)
{
	*n = N_OPTS;
	return opts;
}

/*
 * The command table: main() runs the row argv[1] names; txc --help and the
 * completions list the rows that are not hidden.  A new command is a
 * cmd_X.c, its bit and prototype in commands.h, one row here and the
 * masks of its options above.
 */
static const struct cli_cmd_info cmds[] = {
	{CMD_LIST, "list", "[hermes | claude] [options]", "list sessions, newest first",
	 "List sessions: id, start time, source, model, messages, title.  A missing\n"
	 "store is not an error: nothing is listed and stderr says where txc looked.\n",
	 cmd_list, CLI_CMD_STORE, "hermes claude"},
	{CMD_CONVERT, "convert", "SESSION --to FORMAT [options]", "convert one session to another format",
	 "Convert one session.  SESSION is an exact id or a unique prefix; claude:ID names\n"
	 "a Claude Code session ($CLAUDE_CONFIG_DIR/projects, as --from claude).\n"
	 "SESSION#RANGE converts only some of its messages, numbered as `txc search` (ID#N)\n"
	 "and the Markdown headings (#N) number them: ID#12-40, ID#5- (to the end), ID#-20\n"
	 "(the last 20), ID#7 (one).  A range is widened, with a warning, so that no tool\n"
	 "call is parted from its results; a bad or empty range is a usage error (exit 2).\n",
	 cmd_convert, CLI_CMD_STORE, NULL},
	{CMD_EXPORT, "export", "--json | --to FORMAT --out DIR [options]", "export sessions (JSONL, or files)",
	 "--json prints the selected sessions as JSONL, each line identical to what Hermes\n"
	 "v0.20.0's `hermes sessions export -` prints (newest activity first), or Hermes\n"
	 "0.21's (--hermes-format); streamed, whatever a session's size.\n"
	 "--to FORMAT --out DIR writes one file per session, named <id>-<slug>.<ext>, and\n"
	 "DIR/manifest.jsonl; a second run rewrites only the sessions that changed.\n",
	 cmd_export, CLI_CMD_STORE, NULL},
	{CMD_ARTIFACTS, "artifacts", "SESSION [--json] [--check] [--redact]", "files a session produced or referred to",
	 "List the files, images and links a session produced or referred to, found in its\n"
	 "assistant and tool messages (MEDIA: tags, screenshot paths, Markdown images and\n"
	 "links, tool-result keys such as saved_to).  Paths are shown, never opened.\n",
	 cmd_artifacts, CLI_CMD_STORE, NULL},
	{CMD_SEARCH, "search", "QUERY [options]", "find messages by their words (the store's own full-text index)",
	 "Find the messages that contain every word of QUERY, in the selected sessions.\n"
	 "QUERY: words (all must match; case and punctuation do not matter, so chat-send\n"
	 "finds \"chat send\"), \"exact phrases\", -word or -\"phrase\" to exclude, word* for a\n"
	 "prefix.  Nothing else is syntax: AND, OR, NOT, col:term, C++ are words and\n"
	 "punctuation.  Words of CJK or emoji match as substrings.  Hermes's full-text\n"
	 "index answers when the store has a usable one (its trigram index when no word is\n"
	 "plain ASCII and every word has 3+ characters), else the rows are scanned (same\n"
	 "hits, slower); --verbose says which.  A message is matched on what txc shows of it: a\n"
	 "reply Hermes stored outside content (api_content, codex_message_items), which its\n"
	 "index does not hold, is scanned on top.  Each hit is ID#N: message N of session ID, counting\n"
	 "its user, assistant and tool messages (compacted ones too) in order; messages\n"
	 "rewound away (--include-inactive) have no number.  The Markdown headings show the\n"
	 "same #N, and `txc convert 'ID#N-M'` converts just those messages.\n",
	 cmd_search, CLI_CMD_STORE, NULL},
	{CMD_VIEW, "view", "[SESSION] [options]", "read a session in the terminal (paged; --follow for a live one)",
	 "Show a session for reading in a terminal: headings with message numbers (ID#N, as\n"
	 "txc search numbers them) and times, text wrapped to the terminal's width, each tool\n"
	 "call on one line with its result under it.  Without SESSION: the most recently\n"
	 "active session of those the filters select.  Paged ($TXC_PAGER, else $PAGER, else\n"
	 "less -FRX) when standard output is a terminal and the session is taller than it;\n"
	 "never in a pipe, where the text is plain.  --follow keeps printing each new message\n"
	 "until the session ends (never paged).\n",
	 cmd_view, CLI_CMD_STORE, NULL},
	{0, "completions", "SHELL", "print a bash, zsh or fish completion script", NULL, cmd_completions, 0,
	 "bash zsh fish"},
	{0, "save", NULL, "refused: Hermes's store is private and read-only to txc", NULL, cmd_refused, CLI_CMD_REFUSED,
	 NULL},
	{0, "delete", NULL, NULL, NULL, cmd_refused, CLI_CMD_REFUSED, NULL},
	{0, "import", NULL, NULL, NULL, cmd_refused, CLI_CMD_REFUSED, NULL},
	{0, "help", NULL, NULL, NULL, cmd_help, CLI_CMD_HIDDEN, NULL},
	{0, "version", NULL, NULL, NULL, cmd_version, CLI_CMD_HIDDEN, NULL},
};
#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))

const struct cli_cmd_info *cli_commands(size_t *n)
{
	*n = N_CMDS;
	return cmds;
}

const struct cli_cmd_info *cli_command(unsigned cmd)
{
	for (size_t i = 0; cmd != 0 && i < N_CMDS; i++)
		if (cmds[i].cmd == cmd)
			return &cmds[i];
	return NULL;
}

/* "--help" or "-h" of an option of txc itself: the command of that name */
static const char *main_option(const char *arg)
{
	for (size_t i = 0; i < N_OPTS; i++) {
		if (!(opts[i].cmds & CMD_MAIN))
			continue;
		if (strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, opts[i].name) == 0)
			return opts[i].name;
		if (opts[i].short_name && arg[0] == '-' && arg[1] == opts[i].short_name && arg[2] == '\0')
			return opts[i].name;
	}
	return arg;
}

const struct cli_cmd_info *cli_command_named(const char *arg)
{
	const char *name = main_option(arg);
	for (size_t i = 0; i < N_CMDS; i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

bool cli_opt_applies(const struct cli_opt *o, const struct cli_cmd_info *c)
{
	if (o->cmds & c->cmd)
		return true;
	return (o->cmds & CMD_STORE) && (c->flags & CLI_CMD_STORE);
}

void cli_opt_help(FILE *f, const struct cli_opt *o)
{
	char left[64];
	const char *sp = o->arg ? " " : "", *arg = o->arg ? o->arg : "";
	if (o->short_name)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->name, sp, arg);
	else
		snprintf(left, sizeof(left), "--%s%s%s", o->name, sp, arg);
	if (strlen(left) > 22)
		fprintf(f, "  %s\n  %-22s ", left, "");
	else
		fprintf(f, "  %-22s ", left);
	/* the text wrapped at word boundaries to 80 columns */
	const char *h = o->help;
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
	for (size_t i = 0; i < N_OPTS; i++)
		if (cli_opt_applies(&opts[i], c))
			cli_opt_help(f, &opts[i]);
	fputs("\nexit status: 0 success, 1 failure, 2 usage error, 3 not found, 4 refused.\n", f);
}

static enum txc_err choice(unsigned cmd, const char *opt, const char *v, const char *const *names, int n, int *out)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return TXC_OK;
		}
	char list[128] = "";
	for (int i = 0; i < n; i++) {
		if (i == n - 1)
			strcat(list, " or ");
		else if (i > 0)
			strcat(list, ", ");
		strcat(list, names[i]);
	}
	cli_usage(cmd, "--%s takes %s, not '%s'", opt, list, v);
	return TXC_E_USAGE;
}

static enum txc_err number(unsigned cmd, const char *opt, const char *v, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < 1) {
		cli_usage(cmd, "--%s takes a positive number, not '%s'", opt, v);
		return TXC_E_USAGE;
	}
	*out = n;
	return TXC_OK;
}

/* a positive number of seconds, at most a day (0.05 is fine) */
static enum txc_err seconds(unsigned cmd, const char *opt, const char *v, double *out)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || *end || end == v || !(x >= 0.01 && x <= 86400)) {
		cli_usage(cmd, "--%s takes a number of seconds from 0.01 to 86400, not '%s'", opt, v);
		return TXC_E_USAGE;
	}
	*out = x;
	return TXC_OK;
}

/* --token's value, whatever its length; it lives as long as the process (argv's copy is wiped) */
static char *token_copy;

static enum txc_err apply(unsigned cmd, int id, const char *v, struct cli_args *a)
{
	static const char *const reasoning[] = {"keep", "text", "drop"};
	static const char *const detail[] = {"normal", "full", "brief", "prompts"};
	static const char *const images[] = {"inline", "files", "omit"};
	static const enum txc_images images_v[] = {TXC_IMAGES_INLINE, TXC_IMAGES_FILES, TXC_IMAGES_OMIT};
	static const char *const order[] = {"started", "recent"};
	static const char *const color[] = {"auto", "always", "never"};
	static const char *const roles[] = {"user", "assistant", "tool"};
	static const char *const sorts[] = {"rank", "newest", "oldest"};
	static const char *const harnesses[] = {"hermes", "claude"};
	static const char *const hermes_formats[] = {"auto", "0.20", "0.21"};
	int k;
	enum txc_err rc = TXC_OK;
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
		free(token_copy);
		token_copy = txc_xstrdup(v);
		a->store.token = token_copy;
		memset((char *)v, 'x', strlen(v));
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
		rc = choice(cmd, "order", v, order, 2, &k);
		if (rc == TXC_OK) {
			a->sel.order = k;
			a->sel.order_set = true;
		}
		break;
	case O_UTC: a->w.utc = a->sel.utc = true; break;
	case O_TO: a->to = v; break;
	case 'o': a->output = v; break;
	case 'j': rc = number(cmd, "jobs", v, &a->jobs); break;
	case O_OUT: a->out_dir = v; break;
	case O_FORCE: a->force = true; break;
	case O_INSTALL: a->install = true; break;
	case O_REDACT: a->redact = true; break;
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
			a->w.images = images_v[k];
		break;
	case O_COMPACTED: a->w.include_compacted = true; break;
	case O_HERMES_FORMAT:
		if ((rc = choice(cmd, "hermes-format", v, hermes_formats, 3, &k)) == 0)
			a->w.hermes_format = (enum txc_hermes_format)k;
		break;
	case O_SESSIONS: a->search.sessions = true; break;
	case O_ROLE:
		if ((rc = choice(cmd, "role", v, roles, 3, &k)) == 0)
			a->search.role = v;
		break;
	case O_TOOL: a->search.tool = v; break;
	case O_SORT:
		if ((rc = choice(cmd, "sort", v, sorts, 3, &k)) == 0)
			a->search.sort = k;
		break;
	case O_INACTIVE: a->search.include_inactive = true; break;
	case O_VERBOSE: a->search.verbose = true; break;
	case O_LEGACY: a->store.legacy = true; break;
	case O_ALL_SOURCES: a->store.all_sources = true; break;
	case O_LINEAGE: a->lineage = true; break;
	case O_CHILDREN: a->children = a->w.children = true; break;
	case O_TREE: a->tree = true; break;
	case O_FROM:
		if ((rc = choice(cmd, "from", v, harnesses, 2, &k)) == 0)
			a->store.from = harnesses[k];
		break;
	case O_COLOR:
		if ((rc = choice(cmd, "color", v, color, 3, &k)) == 0)
			cli_color_set(k);
		break;
	case O_WIDTH: rc = number(cmd, "width", v, &a->w.width); break;
	case 'f': a->follow = true; break;
	case O_INTERVAL: rc = seconds(cmd, "interval", v, &a->interval); break;
	case O_NO_PAGER: a->no_pager = true; break;
	case 'h': a->help = true; break;
	case O_VERSION: a->version = true; break;
	}
	return rc;
}

/*
 * The argument getopt refused.  A long option is the one just read; a short one (opt, the
 * letter) may be in a cluster still being read ("-zz": optind has not moved past it yet).
 */
static const char *refused_arg(int argc, char **argv, int opt)
{
	const char *cur = optind < argc ? argv[optind] : NULL;
	if (opt != 0 && cur != NULL && cur[0] == '-' && cur[1] != '-' && strchr(cur + 1, opt) != NULL)
		return cur;
	return argv[optind - 1];
}

enum txc_err cli_parse(unsigned cmd, int argc, char **argv, struct cli_args *a)
{
	struct option lo[N_OPTS + 1];
	char shorts[16] = "";
	memset(a, 0, sizeof(*a));
	a->w.max_output_lines = 40;
	a->interval = 1.0;
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
	while (!a->version && (c = getopt_long(argc, argv, spec, lo, &idx)) != -1) { /* --version ends it */
		if (c == ':') {
			cli_usage(cmd, "option '%s' needs a value", argv[optind - 1]);
			return TXC_E_USAGE;
		}
		if (c == '?') {
			cli_usage(cmd, "unknown option '%s'", refused_arg(argc, argv, optopt));
			return TXC_E_USAGE;
		}
		const struct cli_opt *o = NULL;
		for (size_t i = 0; i < N_OPTS; i++)
			if (opts[i].id == c)
				o = &opts[i];
		if (!cli_opt_applies(o, cli_command(cmd))) {
			cli_usage(cmd, "--%s does not apply to 'txc %s'", o->name, cli_command(cmd)->name);
			return TXC_E_USAGE;
		}
		a->wgiven |= cli_write_option(o->name);
		enum txc_err rc = apply(cmd, c, optarg, a);
		if (rc != TXC_OK)
			return rc;
	}
	a->pos = argv + optind;
	a->n_pos = argc - optind;
	return cli_source_word(cmd, a);
}

bool cli_begin(unsigned cmd, int argc, char **argv, struct cli_args *a, int *status)
{
	*status = 0;
	if (cli_parse(cmd, argc, argv, a) != TXC_OK) {
		*status = txc_diag_exit_code(TXC_E_USAGE);
		return false;
	}
	if (a->version) {
		printf("txc %s\n", TXC_VERSION);
		return false;
	}
	if (a->help) {
		cli_help(cmd, stdout);
		return false;
	}
	if (a->as_new && !a->install) {
		*status = cli_usage(cmd, "--as-new works with --install only");
		return false;
	}
	return true;
}

void cli_write_opts_finish(struct cli_args *a, bool to_file)
{
	if (a->w.images == TXC_IMAGES_AUTO)
		a->w.images = to_file ? TXC_IMAGES_FILES : TXC_IMAGES_INLINE;
	if (getcwd(a->cwd_now, sizeof(a->cwd_now)) != NULL)
		a->w.cwd = txc_str_c(a->cwd_now); /* recorded when the session has no cwd of its own */
}

/* ---- shell completions, from the same tables ---- */

/* A command that is offered: neither hidden nor refused. */
static bool offered(const struct cli_cmd_info *c)
{
	return !(c->flags & (CLI_CMD_HIDDEN | CLI_CMD_REFUSED));
}

/* The words after "txc": the offered commands, then the options of txc itself. */
static void first_words(struct txc_buf *b)
{
	for (size_t i = 0; i < N_CMDS; i++)
		if (offered(&cmds[i]))
			txc_buf_addf(b, "%s%s", b->len ? " " : "", cmds[i].name);
	for (size_t i = 0; i < N_OPTS; i++)
		if (opts[i].cmds & CMD_MAIN)
			txc_buf_addf(b, "%s--%s", b->len ? " " : "", opts[i].name);
}

/* an option's completion words: its own, or the registry's format names for "@format" */
static const char *words_of(const struct cli_opt *o, struct txc_buf *tmp)
{
	if (o->values == NULL || strcmp(o->values, "@format") != 0)
		return o->values;
	txc_buf_reset(tmp);
	cli_format_words(tmp);
	return tmp->buf;
}

static void words_for(const struct cli_cmd_info *c, struct txc_buf *b)
{
	for (size_t i = 0; i < N_OPTS; i++)
		if (cli_opt_applies(&opts[i], c))
			txc_buf_addf(b, "%s--%s", b->len ? " " : "", opts[i].name);
}

static void bash_prev(FILE *f)
{
	struct txc_buf tmp = TXC_BUF_INIT;
	for (size_t i = 0; i < N_OPTS; i++) {
		if (!opts[i].arg)
			continue;
		const char *v = opts[i].values;
		if (v == NULL || strcmp(v, "@file") == 0)
			fprintf(f, "\t--%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", opts[i].name);
		else if (strcmp(v, "@dir") == 0)
			fprintf(f, "\t--%s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", opts[i].name);
		else
			fprintf(f, "\t--%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", opts[i].name,
				words_of(&opts[i], &tmp));
	}
	txc_buf_release(&tmp);
}

static void bash(FILE *f)
{
	struct txc_buf w = TXC_BUF_INIT;
	first_words(&w);
	fprintf(f,
		"# bash completion for txc (generated by `txc completions bash`)\n"
		"_txc() {\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}\n"
		"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		"\t\tCOMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n"
		"\t\treturn\n"
		"\tfi\n"
		"\tcase $prev in\n",
		w.buf);
	bash_prev(f);
	fputs("\t-o) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n\tesac\n\tcase $cmd in\n", f);
	for (size_t i = 0; i < N_CMDS; i++) {
		if (!offered(&cmds[i]))
			continue;
		txc_buf_reset(&w);
		if (cmds[i].cmd != 0)
			words_for(&cmds[i], &w);
		else if (cmds[i].values != NULL)
			txc_buf_addstr(&w, cmds[i].values);
		else
			continue;
		fprintf(f, "\t%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")) ;;\n", cmds[i].name, w.buf);
	}
	fputs("\tesac\n}\ncomplete -F _txc txc\n", f);
	txc_buf_release(&w);
}

/* help texts are ours: no quote or bracket to escape, but be safe */
static void zsh_text(struct txc_buf *b, const char *p)
{
	for (; *p; p++)
		if (*p != '\'' && *p != '[' && *p != ']' && *p != ':')
			txc_buf_addch(b, *p);
}

static void zsh_option(FILE *f, const struct cli_opt *o)
{
	struct txc_buf h = TXC_BUF_INIT, w = TXC_BUF_INIT;
	zsh_text(&h, o->help);
	if (!o->arg)
		fprintf(f, " \\\n\t\t\t'--%s[%s]'", o->name, h.buf);
	else if (o->values == NULL || strcmp(o->values, "@file") == 0)
		fprintf(f, " \\\n\t\t\t'--%s=[%s]:%s:_files'", o->name, h.buf, o->arg);
	else if (strcmp(o->values, "@dir") == 0)
		fprintf(f, " \\\n\t\t\t'--%s=[%s]:%s:_files -/'", o->name, h.buf, o->arg);
	else
		fprintf(f, " \\\n\t\t\t'--%s=[%s]:%s:(%s)'", o->name, h.buf, o->arg, words_of(o, &w));
	txc_buf_release(&h);
	txc_buf_release(&w);
}

static void zsh(FILE *f)
{
	fputs("#compdef txc\n# zsh completion for txc (generated by `txc completions zsh`)\n_txc() {\n"
	      "\tlocal -a commands\n\tcommands=(\n",
	      f);
	for (size_t i = 0; i < N_CMDS; i++) {
		if (!offered(&cmds[i]))
			continue;
		struct txc_buf h = TXC_BUF_INIT;
		zsh_text(&h, cmds[i].summary);
		fprintf(f, "\t\t'%s:%s'\n", cmds[i].name, h.buf);
		txc_buf_release(&h);
	}
	fputs("\t)\n\tif (( CURRENT == 2 )); then\n\t\t_describe command commands\n\t\treturn\n\tfi\n"
	      "\tcase $words[2] in\n",
	      f);
	for (size_t i = 0; i < N_CMDS; i++) {
		if (!offered(&cmds[i]))
			continue;
		if (cmds[i].cmd == 0) {
			if (cmds[i].values != NULL)
				fprintf(f, "\t%s) _values %s %s ;;\n", cmds[i].name, cmds[i].usage, cmds[i].values);
			continue;
		}
		fprintf(f, "\t%s)\n\t\t_arguments -s", cmds[i].name);
		for (size_t k = 0; k < N_OPTS; k++)
			if (cli_opt_applies(&opts[k], &cmds[i]))
				zsh_option(f, &opts[k]);
		fputs(" \\\n\t\t\t'*:session: '\n\t\t;;\n", f);
	}
	fputs("\tesac\n}\n_txc \"$@\"\n", f);
}

/* fish's -d text: single quotes dropped */
static void fish_text(FILE *f, const char *p)
{
	fputs(" -d '", f);
	for (; *p; p++)
		if (*p != '\'')
			fputc(*p, f);
	fputs("'\n", f);
}

static void fish_option(FILE *f, const struct cli_opt *o)
{
	struct txc_buf cond = TXC_BUF_INIT;
	for (size_t i = 0; i < N_CMDS; i++)
		if (offered(&cmds[i]) && cli_opt_applies(o, &cmds[i]))
			txc_buf_addf(&cond, "%s%s", cond.len ? " " : "", cmds[i].name);
	fprintf(f, "complete -c txc -n '__fish_seen_subcommand_from %s' -l %s", cond.buf, o->name);
	if (o->short_name)
		fprintf(f, " -s %c", o->short_name);
	if (o->arg && (o->values == NULL || strcmp(o->values, "@file") == 0))
		fputs(" -r -F", f);
	else if (o->arg && strcmp(o->values, "@dir") == 0)
		fputs(" -r -a '(__fish_complete_directories)'", f);
	else if (o->arg)
		fprintf(f, " -x -a '%s'", words_of(o, &cond));
	fish_text(f, o->help);
	txc_buf_release(&cond);
}

static void fish(FILE *f)
{
	fputs("# fish completion for txc (generated by `txc completions fish`)\ncomplete -c txc -f\n", f);
	for (size_t i = 0; i < N_CMDS; i++) {
		if (!offered(&cmds[i]))
			continue;
		fprintf(f, "complete -c txc -n __fish_use_subcommand -a %s", cmds[i].name);
		fish_text(f, cmds[i].summary);
	}
	for (size_t k = 0; k < N_OPTS; k++)
		fish_option(f, &opts[k]);
	for (size_t i = 0; i < N_CMDS; i++)
		if (offered(&cmds[i]) && cmds[i].values != NULL)
			fprintf(f, "complete -c txc -n '__fish_seen_subcommand_from %s' -x -a '%s'\n", cmds[i].name,
				cmds[i].values);
}

int cmd_completions(int argc, char **argv)
{
	const char *shell = argc > 1 ? argv[1] : NULL;
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
