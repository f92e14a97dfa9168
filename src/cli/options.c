/*
 * options.c - the option catalogue behind parsing, --help and the shell completions, so the
 * three can never disagree; the command table.  Each option row says where its value goes (a
 * setter, a field); each command's row (its cmd_*.c) says which options it takes.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "txc/harness.h"

/* ---- the setters: where an option's value goes ---- */

#define FIELD(a, o, type) ((type *)(void *)((char *)(a) + (o)->off))

static enum txc_err set_flag(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	(void)cmd, (void)v;
	*FIELD(a, o, bool) = true;
	return TXC_OK;
}

static enum txc_err set_text(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	(void)cmd;
	*FIELD(a, o, const char *) = v;
	return TXC_OK;
}

/* a positive number */
static enum txc_err set_count(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < 1) {
		cli_usage(cmd, "--%s takes a positive number, not '%s'", o->name, v);
		return TXC_E_USAGE;
	}
	*FIELD(a, o, long) = n;
	return TXC_OK;
}

/* a positive number of seconds, at most a day (0.05 is fine) */
static enum txc_err set_seconds(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || *end || end == v || !(x >= 0.01 && x <= 86400)) {
		cli_usage(cmd, "--%s takes a number of seconds from 0.01 to 86400, not '%s'", o->name, v);
		return TXC_E_USAGE;
	}
	*FIELD(a, o, double) = x;
	return TXC_OK;
}

/* the index of v in o->choices, or -1 after saying which words it takes */
static int choice(const struct cli_opt *o, const char *cmd, const char *v)
{
	int n = 0;
	while (o->choices[n] != NULL)
		n++;
	for (int i = 0; i < n; i++)
		if (strcmp(v, o->choices[i]) == 0)
			return i;
	char list[128] = "";
	for (int i = 0; i < n; i++) {
		if (i == n - 1)
			strcat(list, " or ");
		else if (i > 0)
			strcat(list, ", ");
		strcat(list, o->choices[i]);
	}
	char note[CLI_NOTE_MAX];
	cli_usage(cmd, "--%s takes %s, not '%s'%s", o->name, list, v, cli_suggest_note(note, v, o->choices, (size_t)n));
	return -1;
}

/* one of o->choices: its index in an int (or an enum whose values are the indexes) */
static enum txc_err set_choice(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	int k = choice(o, cmd, v);
	if (k < 0)
		return TXC_E_USAGE;
	*FIELD(a, o, int) = k;
	return TXC_OK;
}

/* one of o->choices: the word itself (the choices outlive the arguments) */
static enum txc_err set_word(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	int k = choice(o, cmd, v);
	if (k < 0)
		return TXC_E_USAGE;
	*FIELD(a, o, const char *) = o->choices[k];
	return TXC_OK;
}

/* the enums set_choice fills are ints, their values the choices' indexes */
_Static_assert(sizeof(enum txc_reasoning) == sizeof(int) && sizeof(enum txc_detail) == sizeof(int) &&
		       sizeof(enum txc_hermes_format) == sizeof(int) && TXC_DETAIL_PROMPTS == 3 && TXC_HFMT_021 == 2 &&
		       TXC_REASONING_DROP == 3,
	       "set_choice writes an int index");

/* --token's value, whatever its length; it lives as long as the process (argv's copy is wiped) */
static char *token_copy;

static enum txc_err set_token(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	(void)o, (void)cmd;
	/* keep a copy and wipe the argument, so that the token is not in the process title */
	free(token_copy);
	token_copy = txc_xstrdup(v);
	a->store.token = token_copy;
	memset((char *)v, 'x', strlen(v));
	return TXC_OK;
}

static enum txc_err set_order(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	int k = choice(o, cmd, v);
	if (k < 0)
		return TXC_E_USAGE;
	a->sel.order = k;
	a->sel.order_set = true;
	return TXC_OK;
}

static enum txc_err set_images(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	static const enum txc_images images_v[] = {TXC_IMAGES_INLINE, TXC_IMAGES_FILES, TXC_IMAGES_OMIT};
	int k = choice(o, cmd, v);
	if (k < 0)
		return TXC_E_USAGE;
	a->w.images = images_v[k];
	return TXC_OK;
}

static enum txc_err set_color(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	(void)a;
	int k = choice(o, cmd, v);
	if (k < 0)
		return TXC_E_USAGE;
	cli_color_set(k);
	return TXC_OK;
}

/* --utc: the times written, and the ones --since and --until read */
static enum txc_err set_utc(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	(void)o, (void)cmd, (void)v;
	a->w.utc = a->sel.utc = true;
	return TXC_OK;
}

/* --children: loaded (the CLI) and written (the writer) */
static enum txc_err set_children(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	(void)o, (void)cmd, (void)v;
	a->children = a->w.children = true;
	return TXC_OK;
}

/* ---- the catalogue ---- */

#define AT(field)  .off = offsetof(struct cli_args, field)
#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/*
 * values: completion words; "@file" / "@dir" complete paths; "@format" the writers' names;
 * "@profile" / "@source" the store's profiles and sources (txc __complete, cmd_complete.c).
 * .wopt: the write option it sets, refused when the writer does not read it (formats.c).
 */
/* one row an option, laid out as a table */
/* clang-format off */
const struct cli_opt cli_opt_db = {"db", 0, "PATH", "@file", "read this state.db (never written)", set_text,
				   AT(store.db), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_home = {"home", 0, "DIR", "@dir", "Hermes home (default $HERMES_HOME, else ~/.hermes)",
				     set_text, AT(store.home), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_profile = {"profile", 0, "NAME", "@profile", "the store of profile NAME (<home>/profiles/NAME)",
					set_text, AT(store.profile), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_all_profiles = {"all-profiles", 0, NULL, NULL,
					     "the root store and every profiles/*/state.db", set_flag, AT(all_profiles),
					     .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_input = {"input", 0, "FILE", "@file",
				      "read a Hermes export file (JSONL or one JSON session; - for stdin)", set_text,
				      AT(store.input), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_skip_bad = {"skip-bad", 0, NULL, NULL,
					 "with --input: skip malformed lines (each is reported)", set_flag,
					 AT(store.skip_bad), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_remote = {"remote", 0, "URL", NULL,
				       "read a running Hermes dashboard (http://127.0.0.1:9119)", set_text,
				       AT(store.remote), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_token = {
	"token", 0, "TOKEN", NULL,
	"dashboard session token (default $HERMES_DASHBOARD_SESSION_TOKEN, else read from the dashboard page)",
	set_token, .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_timeout = {"timeout", 0, "SECONDS", NULL,
					"with --remote: give up on a request after SECONDS (default 300)", set_count,
					AT(store.timeout), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_since = {"since", 0, "WHEN", "today yesterday 1h 1d 1w",
				      "sessions started at or after WHEN", set_text, AT(sel.since_arg)};
const struct cli_opt cli_opt_until = {"until", 0, "WHEN", "today yesterday",
				      "sessions started before WHEN (a date: through that day)", set_text,
				      AT(sel.until_arg)};
const struct cli_opt cli_opt_source = {"source", 0, "NAME", "@source",
				       "only sessions from this source", set_text, AT(sel.source)};
const struct cli_opt cli_opt_model = {"model", 0, "TEXT", NULL, "only models whose name contains TEXT (any case)",
				      set_text, AT(sel.model)};
const struct cli_opt cli_opt_cwd = {"cwd", 0, "PATH", "@dir",
				    "only sessions whose working directory is PATH (relative: to here) or below it",
				    set_text, AT(sel.cwd)};
const struct cli_opt cli_opt_title = {"title", 0, "TEXT", NULL, "only titles containing TEXT (any case)", set_text,
				      AT(sel.title)};
const struct cli_opt cli_opt_limit = {"limit", 'n', "N", NULL, "at most N sessions (search: N hits, default 20)",
				      set_count, AT(sel.limit)};
const struct cli_opt cli_opt_archived = {"archived", 0, NULL, NULL, "include archived sessions (export always does)",
					 set_flag, AT(sel.archived)};
const struct cli_opt cli_opt_order = {"order", 0, "KEY", "started recent",
				      "started (start time) or recent (last activity)", set_order,
				      .choices = WORDS("started", "recent")};
const struct cli_opt cli_opt_json = {"json", 0, NULL, NULL, "JSON output", set_flag, AT(json)};
const struct cli_opt cli_opt_sessions = {"sessions", 0, NULL, NULL,
					 "search: print only the ids of matching sessions, one a line", set_flag,
					 AT(search.sessions)};
const struct cli_opt cli_opt_role = {"role", 0, "ROLE", "user assistant tool",
				     "search: only messages of ROLE (user, assistant, tool)", set_word, AT(search.role),
				     .choices = WORDS("user", "assistant", "tool")};
const struct cli_opt cli_opt_tool = {"tool", 0, "NAME", NULL, "search: only calls to the tool NAME and its results",
				     set_text, AT(search.tool)};
const struct cli_opt cli_opt_sort = {"sort", 0, "KEY", "rank newest oldest",
				     "search: rank (best first, default), newest or oldest", set_choice, AT(search.sort),
				     .choices = WORDS("rank", "newest", "oldest")};
const struct cli_opt cli_opt_include_inactive = {"include-inactive", 0, NULL, NULL,
						 "search: also messages rewound away (hidden by default)", set_flag,
						 AT(search.include_inactive)};
const struct cli_opt cli_opt_verbose = {
	"verbose", 0, NULL, NULL,
	"search: say on stderr which index answered and whether the answer is complete; list: which legacy "
	"sessions the store has too",
	set_flag, AT(search.verbose)};
const struct cli_opt cli_opt_to = {"to", 0, "FORMAT", "@format", "output format", set_text, AT(to)};
const struct cli_opt cli_opt_output = {"output", 'o', "FILE", "@file",
				       "write FILE atomically instead of stdout (- is stdout)", set_text, AT(output)};
const struct cli_opt cli_opt_out = {"out", 0, "DIR", "@dir", "write one file per session in DIR, with manifest.jsonl",
				    set_text, AT(out_dir)};
const struct cli_opt cli_opt_force = {
	"force", 0, NULL, NULL,
	"overwrite existing files (never a store or file txc reads, never a session continued in Claude Code or "
	"Codex); "
	"export --out: render every session again",
	set_flag, AT(force)};
const struct cli_opt cli_opt_dry_run = {"dry-run", 0, NULL, NULL, "list what would be written; write nothing",
					set_flag, AT(dry_run)};
const struct cli_opt cli_opt_progress = {"progress", 0, NULL, NULL,
					 "progress and summary on stderr even when not a terminal", set_flag,
					 AT(progress)};
const struct cli_opt cli_opt_install = {
	"install", 0, NULL, NULL,
	"claude: install under $CLAUDE_CONFIG_DIR/projects for `claude --resume`; codex: under $CODEX_HOME/sessions "
	"for `codex resume` (never over a session continued there)",
	set_flag, AT(install)};
const struct cli_opt cli_opt_as_new = {
	"as-new", 0, NULL, NULL,
	"with --install: install as a separate Claude Code or Codex session (same id every run), leaving the installed "
	"one",
	set_flag, AT(as_new)};
const struct cli_opt cli_opt_reasoning = {
	"reasoning", 0, "MODE", "auto keep text drop",
	"claude: auto (default: Anthropic-signed reasoning as thinking blocks, the rest as text, so that a resumed "
	"session's first request is accepted), keep (all as thinking blocks; the API refuses unsigned ones and Claude "
	"Code retries without them), text, or drop (a turn that was only reasoning is then left out); codex: auto or "
	"keep (OpenAI's encrypted reasoning as reasoning items, other reasoning as agent_reasoning events the model is "
	"not sent), text, or drop",
	set_choice, AT(w.reasoning), WORDS("auto", "keep", "text", "drop"), TXC_WOPT_REASONING};
const struct cli_opt cli_opt_detail = {"detail", 0, "LEVEL", "full normal brief prompts",
				       "markdown, html, terminal: full, normal (default), brief, or prompts", set_choice,
				       AT(w.detail), WORDS("normal", "full", "brief", "prompts"), TXC_WOPT_DETAIL};
const struct cli_opt cli_opt_max_output_lines = {
	"max-output-lines", 0, "N", NULL,
	"markdown, html, terminal: cut tool output at N lines in normal detail (default 40)", set_count,
	AT(w.max_output_lines), .wopt = TXC_WOPT_MAX_LINES};
const struct cli_opt cli_opt_images = {
	"images", 0, "MODE", "inline files omit",
	"markdown, html: inline (data: URIs; default on stdout, html's always), files (FILE.assets/; markdown's "
	"default with a file), omit",
	set_images, .choices = WORDS("inline", "files", "omit"), .wopt = TXC_WOPT_IMAGES};
const struct cli_opt cli_opt_include_compacted = {
	"include-compacted", 0, NULL, NULL,
	"markdown, html, terminal: also show history Hermes archived during compaction; claude: write it before a "
	"compact_boundary",
	set_flag, AT(w.include_compacted), .wopt = TXC_WOPT_COMPACTED};
const struct cli_opt cli_opt_hermes_format = {
	"hermes-format", 0, "VERSION", "auto 0.20 0.21",
	"hermes, --json: the export of Hermes 0.20 (v0.20.0's, byte for byte) or 0.21 (its timings block, no display "
	"columns); auto (default): 0.21 for a store whose columns a newer Hermes added, or an export file with "
	"timings, else 0.20",
	set_choice, AT(w.hermes_format), WORDS("auto", "0.20", "0.21"), TXC_WOPT_HERMES_FORMAT};
const struct cli_opt cli_opt_utc = {"utc", 0, NULL, NULL, "times in UTC (default: local time)", set_utc,
				    .wopt = TXC_WOPT_UTC};
const struct cli_opt cli_opt_check = {
	"check", 0, NULL, NULL,
	"say whether each local path (relative: to the session's cwd) exists now (never reads it)", set_flag,
	AT(check)};
const struct cli_opt cli_opt_color = {"color", 0, "WHEN", "auto always never",
				      "colour: auto (terminals only; NO_COLOR respected), always, never", set_color,
				      .choices = WORDS("auto", "always", "never")};
const struct cli_opt cli_opt_width = {
	"width", 0, "N", NULL, "terminal: wrap at N columns (default: the terminal's width, else 80; 20 to 1000)",
	set_count, AT(w.width), .wopt = TXC_WOPT_WIDTH};
const struct cli_opt cli_opt_follow = {
	"follow", 'f', NULL, NULL,
	"print the session, then each new message as Hermes writes it, until it ends or Ctrl-C", set_flag,
	AT(follow)};
const struct cli_opt cli_opt_interval = {"interval", 0, "SECONDS", NULL,
					 "with --follow: look for new messages every SECONDS (default 1)", set_seconds,
					 AT(interval)};
const struct cli_opt cli_opt_no_pager = {"no-pager", 0, NULL, NULL,
					 "never page (default: page when taller than the terminal)", set_flag,
					 AT(no_pager)};
const struct cli_opt cli_opt_help = {"help", 'h', NULL, NULL, "show this help", set_flag, AT(help),
				     .group = CLI_OPT_MAIN};
const struct cli_opt cli_opt_version = {"version", 0, NULL, NULL, "print the version", set_flag, AT(version),
					.group = CLI_OPT_MAIN};
const struct cli_opt cli_opt_legacy = {
	"legacy", 0, NULL, NULL,
	"read Hermes's legacy session files (<home>/sessions/: session_ID.json, ID.jsonl) instead of state.db",
	set_flag, AT(store.legacy), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_all_sources = {
	"all-sources", 0, NULL, NULL,
	"read state.db and the legacy session files; the store's copy of a session in both is used", set_flag,
	AT(store.all_sources), .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_lineage = {
	"lineage", 0, NULL, NULL,
	"the whole compression chain SESSION belongs to, root to the tip Hermes resumes, as one conversation; "
	"with --follow, a session that ends in a compression is followed into its continuation",
	set_flag, AT(lineage)};
const struct cli_opt cli_opt_children = {
	"children", 0, NULL, NULL,
	"include delegate child sessions (subagents): markdown and html folded under the call, terminal indented "
	"under it, claude and codex as subagent files (with -o or --install)",
	set_children, .wopt = TXC_WOPT_CHILDREN};
const struct cli_opt cli_opt_tree = {"tree", 0, NULL, NULL,
				     "compression chains, branches and children indented under their root", set_flag,
				     AT(tree)};
const struct cli_opt cli_opt_redact = {
	"redact", 0, NULL, NULL,
	"replace secrets (API keys, tokens, passwords, private keys, ...) with [REDACTED:<kind> …<hash>] in every "
	"format, and in search's snippets and titles and artifacts' values",
	set_flag, AT(redact)};
/* --from: a word of the harness registry (the same refusal as a choice's) */
static enum txc_err set_harness(const struct cli_opt *o, const char *cmd, const char *v, struct cli_args *a)
{
	size_t n;
	const struct txc_harness *const *hs = txc_harness_all(&n);
	const char *words[17]; /* (a handful of harnesses) */
	size_t k = 0;
	for (; k < n && k < 16; k++)
		words[k] = hs[k]->name;
	words[k] = NULL;
	struct cli_opt named = *o;
	named.choices = words;
	int i = choice(&named, cmd, v);
	if (i < 0)
		return TXC_E_USAGE;
	*FIELD(a, o, const char *) = hs[i]->name;
	return TXC_OK;
}
/* its words and help come from the registry ("@harness") */
const struct cli_opt cli_opt_from = {"from",      0, "HARNESS", "@harness", "@harness", set_harness, AT(store.from),
				     .group = CLI_OPT_STORE};
const struct cli_opt cli_opt_jobs = {
	"jobs", 'j', "N", NULL,
	"export --out: render N sessions at once (default: the number of CPUs); the same files whatever N", set_count,
	AT(jobs)};
/* clang-format on */

/* the order of help and the completions */
static const struct cli_opt *const opts[] = {
	&cli_opt_db,
	&cli_opt_home,
	&cli_opt_profile,
	&cli_opt_all_profiles,
	&cli_opt_input,
	&cli_opt_skip_bad,
	&cli_opt_remote,
	&cli_opt_token,
	&cli_opt_timeout,
	&cli_opt_since,
	&cli_opt_until,
	&cli_opt_source,
	&cli_opt_model,
	&cli_opt_cwd,
	&cli_opt_title,
	&cli_opt_limit,
	&cli_opt_archived,
	&cli_opt_order,
	&cli_opt_json,
	&cli_opt_sessions,
	&cli_opt_role,
	&cli_opt_tool,
	&cli_opt_sort,
	&cli_opt_include_inactive,
	&cli_opt_verbose,
	&cli_opt_to,
	&cli_opt_output,
	&cli_opt_out,
	&cli_opt_force,
	&cli_opt_dry_run,
	&cli_opt_progress,
	&cli_opt_install,
	&cli_opt_as_new,
	&cli_opt_reasoning,
	&cli_opt_detail,
	&cli_opt_max_output_lines,
	&cli_opt_images,
	&cli_opt_include_compacted,
	&cli_opt_hermes_format,
	&cli_opt_utc,
	&cli_opt_check,
	&cli_opt_color,
	&cli_opt_width,
	&cli_opt_follow,
	&cli_opt_interval,
	&cli_opt_no_pager,
	&cli_opt_help,
	&cli_opt_version,
	&cli_opt_legacy,
	&cli_opt_all_sources,
	&cli_opt_lineage,
	&cli_opt_children,
	&cli_opt_tree,
	&cli_opt_redact,
	&cli_opt_from,
	&cli_opt_jobs,
};
#define N_OPTS (sizeof(opts) / sizeof(opts[0]))

const struct cli_opt *const *cli_options(size_t *n)
{
	*n = N_OPTS;
	return opts;
}

const struct cli_opt *cli_option_of_wopt(unsigned wopt)
{
	for (size_t i = 0; i < N_OPTS; i++)
		if (opts[i]->wopt == wopt)
			return opts[i];
	return NULL;
}

/* ---- the commands ---- */

static const struct cli_cmd_info completions = {
	"completions", "SHELL",         "print a bash, zsh or fish completion script",
	NULL,          cmd_completions, .values = "bash zsh fish"};
static const struct cli_cmd_info save = {"save", NULL,        "refused: Hermes's store is private and read-only to txc",
					 NULL,   cmd_refused, .flags = CLI_CMD_REFUSED};
static const struct cli_cmd_info delete = {"delete", NULL, NULL, NULL, cmd_refused, .flags = CLI_CMD_REFUSED};
static const struct cli_cmd_info import = {"import", NULL, NULL, NULL, cmd_refused, .flags = CLI_CMD_REFUSED};
static const struct cli_cmd_info help = {"help", NULL, NULL, NULL, cmd_help, .flags = CLI_CMD_HIDDEN};
static const struct cli_cmd_info version = {"version", NULL, NULL, NULL, cmd_version, .flags = CLI_CMD_HIDDEN};

/*
 * The command table: main() runs the row argv[1] names; txc --help and the completions list
 * the rows that are not hidden.  A new command is a cmd_X.c defining its row cmd_X, its
 * declaration in commands.h and one line here.
 */
static const struct cli_cmd_info *const cmds[] = {
	&cmd_list, &cmd_convert, &cmd_export, &cmd_artifacts, &cmd_search, &cmd_view,     &completions,
	&save,     &delete,      &import,     &help,          &version,    &cmd_complete,
};
#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))

const struct cli_cmd_info *const *cli_commands(size_t *n)
{
	*n = N_CMDS;
	return cmds;
}

/* "--help" or "-h" of an option of txc itself: the command of that name */
static const char *main_option(const char *arg)
{
	for (size_t i = 0; i < N_OPTS; i++) {
		if (!(opts[i]->group & CLI_OPT_MAIN))
			continue;
		if (strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, opts[i]->name) == 0)
			return opts[i]->name;
		if (opts[i]->short_name && arg[0] == '-' && arg[1] == opts[i]->short_name && arg[2] == '\0')
			return opts[i]->name;
	}
	return arg;
}

const struct cli_cmd_info *cli_command_named(const char *arg)
{
	const char *name = main_option(arg);
	for (size_t i = 0; i < N_CMDS; i++)
		if (strcmp(cmds[i]->name, name) == 0)
			return cmds[i];
	return NULL;
}

bool cli_cmd_takes(const struct cli_cmd_info *c, const struct cli_opt *o)
{
	for (size_t i = 0; c->opts != NULL && c->opts[i] != NULL; i++)
		if (c->opts[i] == o)
			return true;
	return false;
}

void cli_opt_describe(FILE *f, const struct cli_opt *o)
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
	struct txc_buf tmp = TXC_BUF_INIT;
	const char *h = cli_opt_help_text(o, &tmp);
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
	txc_buf_release(&tmp);
}

/* "@harness" in a text: the registry's words, sep between them (the rest as it is) */
const char *cli_with_harnesses(const char *text, const char *sep, struct txc_buf *tmp)
{
	const char *at = text != NULL ? strstr(text, "@harness") : NULL;
	if (at == NULL)
		return text;
	txc_buf_reset(tmp);
	txc_buf_add(tmp, text, (size_t)(at - text));
	cli_harness_words(tmp, sep);
	txc_buf_addstr(tmp, at + strlen("@harness"));
	return tmp->buf;
}

const char *cli_opt_help_text(const struct cli_opt *o, struct txc_buf *tmp)
{
	if (strcmp(o->help, "@harness") != 0)
		return o->help;
	txc_buf_reset(tmp);
	cli_harness_help(tmp);
	return tmp->buf;
}

void cli_help(const struct cli_cmd_info *c, FILE *f)
{
	struct txc_buf u = TXC_BUF_INIT;
	fprintf(f, "usage: txc %s %s\n\n%s\n", c->name, cli_with_harnesses(c->usage, " | ", &u), c->about);
	txc_buf_release(&u);
	if (cli_cmd_takes(c, &cli_opt_to)) { /* a command that writes a format lists them */
		size_t n;
		const struct txc_writer_ops *const *all = txc_writer_all(&n);
		fputs("formats:\n", f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "  %-22s %s\n", all[i]->name, all[i]->summary);
		fputc('\n', f);
	}
	fputs("options:\n", f);
	for (size_t i = 0; i < N_OPTS; i++)
		if (cli_cmd_takes(c, opts[i]))
			cli_opt_describe(f, opts[i]);
	fputs("\nexit status: 0 success, 1 failure, 2 usage error, 3 not found, 4 refused.\n", f);
	if (c->examples != NULL)
		fprintf(f, "\nexamples:\n%s", c->examples);
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

/* getopt's view of every option (one a command does not take is refused by name, not as unknown):
 * a long option returns 1000 + its index in opts, a short one its letter */
static void getopt_tables(struct option *lo, char *spec)
{
	strcpy(spec, ":");
	for (size_t i = 0; i < N_OPTS; i++) {
		lo[i] = (struct option){opts[i]->name, opts[i]->arg ? required_argument : no_argument, NULL,
					opts[i]->short_name ? opts[i]->short_name : 1000 + (int)i};
		if (opts[i]->short_name) {
			size_t l = strlen(spec);
			spec[l] = (char)opts[i]->short_name;
			spec[l + 1] = opts[i]->arg ? ':' : '\0';
			spec[l + 2] = '\0';
		}
	}
	memset(&lo[N_OPTS], 0, sizeof(lo[N_OPTS]));
}

static const struct cli_opt *option_of(int c)
{
	if (c >= 1000 && (size_t)(c - 1000) < N_OPTS)
		return opts[c - 1000];
	for (size_t i = 0; i < N_OPTS; i++)
		if (opts[i]->short_name == c)
			return opts[i];
	return NULL;
}

/* "; did you mean '--since'?" for a mistyped long option (the command's own options), or "" */
static const char *option_note(char out[CLI_NOTE_MAX], const struct cli_cmd_info *cmd, const char *arg)
{
	out[0] = '\0';
	if (strncmp(arg, "--", 2) != 0 || cmd->opts == NULL)
		return out;
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	const char *names[N_OPTS];
	size_t k = 0;
	for (; cmd->opts[k] != NULL && k < N_OPTS; k++)
		names[k] = cmd->opts[k]->name;
	const char *s = cli_suggest(word, names, k);
	if (s != NULL)
		snprintf(out, CLI_NOTE_MAX, "; did you mean '--%s'?", s);
	return out;
}

enum txc_err cli_parse(const struct cli_cmd_info *cmd, int argc, char **argv, struct cli_args *a)
{
	struct option lo[N_OPTS + 1];
	char spec[2 + 3 * 16]; /* ":", then a letter and its colon for each short option */
	memset(a, 0, sizeof(*a));
	a->w.max_output_lines = 40;
	a->interval = 1.0;
	getopt_tables(lo, spec);
	opterr = 0;
	optind = 1;
	int c, idx;
	while (!a->version && (c = getopt_long(argc, argv, spec, lo, &idx)) != -1) { /* --version ends it */
		if (c == ':') {
			cli_usage(cmd->name, "option '%s' needs a value", argv[optind - 1]);
			return TXC_E_USAGE;
		}
		if (c == '?') {
			char note[CLI_NOTE_MAX];
			const char *bad = refused_arg(argc, argv, optopt);
			cli_usage(cmd->name, "unknown option '%s'%s", bad, option_note(note, cmd, bad));
			return TXC_E_USAGE;
		}
		const struct cli_opt *o = option_of(c);
		if (!cli_cmd_takes(cmd, o)) {
			cli_usage(cmd->name, "--%s does not apply to 'txc %s'", o->name, cmd->name);
			return TXC_E_USAGE;
		}
		a->wgiven |= o->wopt;
		enum txc_err rc = o->set(o, cmd->name, optarg, a);
		if (rc != TXC_OK)
			return rc;
	}
	a->pos = argv + optind;
	a->n_pos = argc - optind;
	return cli_source_word(cmd, a);
}

bool cli_begin(const struct cli_cmd_info *cmd, int argc, char **argv, struct cli_args *a, int *status)
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
		*status = cli_usage(cmd->name, "--as-new works with --install only");
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
