/*
 * main.c - txc's command line: list, convert, export; save/delete refused.
 *
 * Only this layer prints diagnostics ("txc: error: ...") and exits.
 * Exit status: 0 success, 1 failure, 2 usage, 3 not found, 4 refused.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "txc/reader.h"
#include "txc/writer.h"

static bool stderr_tty;

static void say(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const char *level, const char *fmt, ...)
{
	char raw[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	struct txc_buf b = TXC_BUF_INIT;
	/* messages quote ids and paths from the store: never send raw escapes to a terminal */
	if (stderr_tty)
		cli_safe_text(&b, raw, strlen(raw), true);
	else
		txc_buf_addstr(&b, raw);
	fprintf(stderr, "txc: %s%s\n", level, b.buf);
	txc_buf_release(&b);
}

static int fail(const struct txc_diag *d)
{
	say("error: ", "%s", d->msg);
	if (d->hint[0])
		fputs(d->hint, stderr);
	return txc_diag_exit_code(d->code);
}

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("error: ", "%s (see 'txc %s --help')", msg, cmd);
	return 2;
}

/* ---- help ---- */

static const char main_help[] =
	"usage: txc <command> [options]\n"
	"\n"
	"Convert Hermes Agent sessions (state.db, read-only) to other formats.\n"
	"\n"
	"commands:\n"
	"  list [hermes]        list sessions, newest first\n"
	"  convert SESSION      convert one session (--to claude|hermes|markdown)\n"
	"  export --json        every session as Hermes export JSONL on stdout\n"
	"  save, delete         refused: Hermes's store is private and read-only to txc\n"
	"\n"
	"store options (every command):\n"
	"  --db PATH            read this state.db\n"
	"  --home DIR           Hermes home (default $HERMES_HOME, else ~/.hermes)\n"
	"  --profile NAME       the store of profile NAME (<home>/profiles/NAME/state.db)\n"
	"\n"
	"  -h, --help           show help (also 'txc COMMAND --help')\n"
	"  --version            print the version\n"
	"\n"
	"exit status: 0 success, 1 failure, 2 usage error, 3 not found, 4 refused.\n"
	"See txc(1) for the full manual.\n";

static const char list_help[] =
	"usage: txc list [hermes] [--json] [--archived] [store options]\n"
	"\n"
	"List sessions, newest first: id, start time, source, model, messages, title.\n"
	"\n"
	"  --json               a JSON array of session rows with every column\n"
	"  --archived           include archived sessions\n"
	"  --db PATH | --home DIR | --profile NAME\n"
	"\n"
	"A missing store is not an error: nothing is listed and stderr says where txc looked.\n";

static const char convert_help[] =
	"usage: txc convert SESSION --to FORMAT [options] [store options]\n"
	"\n"
	"Convert one session.  SESSION is an exact id or a unique prefix.\n"
	"\n"
	"formats:\n"
	"%s"
	"\n"
	"  -o, --output FILE    write FILE atomically instead of stdout\n"
	"  --force              overwrite an existing FILE (or installed session)\n"
	"claude:\n"
	"  --reasoning MODE     keep (thinking blocks, default), text, or drop\n"
	"  --install            install for `claude --resume` under $CLAUDE_CONFIG_DIR/projects\n"
	"markdown:\n"
	"  --detail LEVEL       full, normal (default), brief, or prompts\n"
	"  --max-output-lines N cut long tool output at N lines in normal detail (default 40)\n"
	"  --images MODE        inline (data: URIs; default on stdout), files (FILE.assets/,\n"
	"                       default with -o FILE), or omit\n"
	"  --include-compacted  also show history Hermes archived during compaction\n"
	"  --utc                times in UTC (default: local time)\n"
	"\n"
	"exit status: 0 success, 1 failure, 2 usage error, 3 session not found.\n";

static const char export_help[] =
	"usage: txc export --json [store options]\n"
	"\n"
	"Print every session as JSONL, each line identical to what Hermes v0.20.0's\n"
	"`hermes sessions export -` prints for the same database (newest activity first).\n";

/* ---- options ---- */

enum {
	OPT_DB = 1000,
	OPT_HOME,
	OPT_PROFILE,
	OPT_JSON,
	OPT_ARCHIVED,
	OPT_TO,
	OPT_FORCE,
	OPT_REASONING,
	OPT_INSTALL,
	OPT_DETAIL,
	OPT_MAXLINES,
	OPT_IMAGES,
	OPT_COMPACTED,
	OPT_UTC,
	OPT_VERSION,
};

static const struct option long_opts[] = {
	{"db", required_argument, NULL, OPT_DB},
	{"home", required_argument, NULL, OPT_HOME},
	{"profile", required_argument, NULL, OPT_PROFILE},
	{"json", no_argument, NULL, OPT_JSON},
	{"archived", no_argument, NULL, OPT_ARCHIVED},
	{"to", required_argument, NULL, OPT_TO},
	{"output", required_argument, NULL, 'o'},
	{"force", no_argument, NULL, OPT_FORCE},
	{"reasoning", required_argument, NULL, OPT_REASONING},
	{"install", no_argument, NULL, OPT_INSTALL},
	{"detail", required_argument, NULL, OPT_DETAIL},
	{"max-output-lines", required_argument, NULL, OPT_MAXLINES},
	{"images", required_argument, NULL, OPT_IMAGES},
	{"include-compacted", no_argument, NULL, OPT_COMPACTED},
	{"utc", no_argument, NULL, OPT_UTC},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};

struct args {
	struct cli_store_opts store;
	bool json, archived, force, install, help;
	const char *to, *output;
	struct txc_write_opts w;
	char **pos;
	int n_pos;
	unsigned seen; /* bit per option class, for "not valid here" checks */
};

enum { SEEN_LIST = 1, SEEN_CONVERT = 2, SEEN_JSON = 4 };

static int parse_args(const char *cmd, int argc, char **argv, struct args *a)
{
	memset(a, 0, sizeof(*a));
	a->w.max_output_lines = 40;
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "ho:", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_DB: a->store.db = optarg; break;
		case OPT_HOME: a->store.home = optarg; break;
		case OPT_PROFILE: a->store.profile = optarg; break;
		case OPT_JSON: a->json = true, a->seen |= SEEN_JSON; break;
		case OPT_ARCHIVED: a->archived = true, a->seen |= SEEN_LIST; break;
		case OPT_TO: a->to = optarg, a->seen |= SEEN_CONVERT; break;
		case 'o': a->output = optarg, a->seen |= SEEN_CONVERT; break;
		case OPT_FORCE: a->force = true, a->seen |= SEEN_CONVERT; break;
		case OPT_INSTALL: a->install = true, a->seen |= SEEN_CONVERT; break;
		case OPT_REASONING:
			a->seen |= SEEN_CONVERT;
			if (strcmp(optarg, "keep") == 0)
				a->w.reasoning = TXC_REASONING_KEEP;
			else if (strcmp(optarg, "text") == 0)
				a->w.reasoning = TXC_REASONING_TEXT;
			else if (strcmp(optarg, "drop") == 0)
				a->w.reasoning = TXC_REASONING_DROP;
			else
				return usage_error(cmd, "--reasoning takes keep, text or drop, not '%s'", optarg);
			break;
		case OPT_DETAIL:
			a->seen |= SEEN_CONVERT;
			if (strcmp(optarg, "full") == 0)
				a->w.detail = TXC_DETAIL_FULL;
			else if (strcmp(optarg, "normal") == 0)
				a->w.detail = TXC_DETAIL_NORMAL;
			else if (strcmp(optarg, "brief") == 0)
				a->w.detail = TXC_DETAIL_BRIEF;
			else if (strcmp(optarg, "prompts") == 0)
				a->w.detail = TXC_DETAIL_PROMPTS;
			else
				return usage_error(cmd, "--detail takes full, normal, brief or prompts, not '%s'", optarg);
			break;
		case OPT_MAXLINES: {
			char *end;
			errno = 0;
			long n = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || n < 1)
				return usage_error(cmd, "--max-output-lines takes a positive number, not '%s'", optarg);
			a->w.max_output_lines = n;
			a->seen |= SEEN_CONVERT;
			break;
		}
		case OPT_IMAGES:
			a->seen |= SEEN_CONVERT;
			if (strcmp(optarg, "inline") == 0)
				a->w.images = TXC_IMAGES_INLINE;
			else if (strcmp(optarg, "files") == 0)
				a->w.images = TXC_IMAGES_FILES;
			else if (strcmp(optarg, "omit") == 0)
				a->w.images = TXC_IMAGES_OMIT;
			else
				return usage_error(cmd, "--images takes inline, files or omit, not '%s'", optarg);
			break;
		case OPT_COMPACTED: a->w.include_compacted = true, a->seen |= SEEN_CONVERT; break;
		case OPT_UTC: a->w.utc = true, a->seen |= SEEN_CONVERT; break;
		case 'h': a->help = true; break;
		case OPT_VERSION: printf("txc %s\n", TXC_VERSION); return -1;
		case ':': return usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
		default: return usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		}
	}
	a->pos = argv + optind;
	a->n_pos = argc - optind;
	return 0;
}

static int open_store(const struct args *a, struct txc_store **s, char **path, struct txc_diag *d)
{
	*path = cli_store_path(&a->store, d);
	if (*path == NULL)
		return d->code;
	return txc_store_open(s, *path, d);
}

/* ---- list ---- */

static int term_width(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	if (c != NULL && atoi(c) > 20)
		return atoi(c);
	return 0; /* not a terminal: no truncation */
}

static void fmt_local_time(char out[32], const struct txc_json *v)
{
	double secs = 0;
	if (v == NULL || (v->kind != TXC_JSON_REAL && v->kind != TXC_JSON_INT)) {
		strcpy(out, "-");
		return;
	}
	secs = v->kind == TXC_JSON_REAL ? v->d : strtod(v->s.ptr, NULL);
	if (!isfinite(secs) || fabs(secs) > 1e13) {
		strcpy(out, "-");
		return;
	}
	time_t tt = (time_t)floor(secs);
	struct tm tm;
	localtime_r(&tt, &tm);
	strftime(out, 32, "%Y-%m-%d %H:%M", &tm);
}

/* display width: code points (wide East Asian glyphs are counted as one; good enough for a table) */
static size_t text_width(const char *s, size_t len)
{
	size_t w = 0;
	for (size_t i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

static void cell(struct txc_buf *out, const char *s, size_t len, size_t width, bool last)
{
	struct txc_buf t = TXC_BUF_INIT;
	cli_safe_text(&t, s, len, true);
	size_t w = text_width(t.buf, t.len);
	if (width && w > width) {
		size_t i = 0, seen = 0;
		while (i < t.len && seen < width - 1) {
			i++;
			while (i < t.len && ((unsigned char)t.buf[i] & 0xC0) == 0x80)
				i++;
			seen++;
		}
		txc_buf_add(out, t.buf, i);
		txc_buf_addstr(out, "\xE2\x80\xA6");
		w = width;
	} else {
		txc_buf_add(out, t.buf, t.len);
	}
	if (!last)
		for (size_t k = w; k < width + 2; k++)
			txc_buf_addch(out, ' ');
	txc_buf_release(&t);
}

static struct txc_str str_of(const struct txc_json *v)
{
	if (v != NULL && (v->kind == TXC_JSON_STRING || v->kind == TXC_JSON_INT))
		return v->s;
	return txc_str_c("-");
}

static void print_table(const struct txc_json *rows)
{
	const char *heads[] = {"ID", "STARTED", "SOURCE", "MODEL", "MSGS", "TITLE"};
	size_t w[6] = {2, 16, 6, 5, 4, 5};
	char when[32];
	for (size_t i = 0; i < rows->n; i++) {
		const struct txc_json *r = rows->items[i];
		const char *keys[] = {"id", NULL, "source", "model", "message_count"};
		for (int k = 0; k < 5; k++) {
			if (keys[k] == NULL)
				continue;
			struct txc_str s = str_of(txc_json_get(r, keys[k]));
			size_t tw = text_width(s.ptr, s.len);
			size_t cap = k == 3 ? 28 : k == 0 ? 40 : 16;
			if (tw > w[k])
				w[k] = tw > cap ? cap : tw;
		}
	}
	int tw = term_width();
	size_t used = 0;
	for (int k = 0; k < 5; k++)
		used += w[k] + 2;
	size_t title_w = tw > 0 && (size_t)tw > used + 10 ? (size_t)tw - used : tw > 0 ? 10 : 0;
	struct txc_buf out = TXC_BUF_INIT;
	for (int k = 0; k < 6; k++)
		cell(&out, heads[k], strlen(heads[k]), k == 5 ? title_w : w[k], k == 5);
	txc_buf_addch(&out, '\n');
	for (size_t i = 0; i < rows->n; i++) {
		const struct txc_json *r = rows->items[i];
		fmt_local_time(when, txc_json_get(r, "started_at"));
		struct txc_str id = str_of(txc_json_get(r, "id"));
		struct txc_str src = str_of(txc_json_get(r, "source"));
		struct txc_str model = str_of(txc_json_get(r, "model"));
		struct txc_str count = str_of(txc_json_get(r, "message_count"));
		const struct txc_json *tv = txc_json_get(r, "title");
		struct txc_str title = tv && tv->kind == TXC_JSON_STRING ? tv->s : txc_str_c("");
		cell(&out, id.ptr, id.len, w[0], false);
		cell(&out, when, strlen(when), w[1], false);
		cell(&out, src.ptr, src.len, w[2], false);
		cell(&out, model.ptr, model.len, w[3], false);
		cell(&out, count.ptr, count.len, w[4], false);
		cell(&out, title.ptr, title.len, title_w, true);
		while (out.len && out.buf[out.len - 1] == ' ')
			out.len--;
		txc_buf_addch(&out, '\n');
	}
	fwrite(out.buf, 1, out.len, stdout);
	txc_buf_release(&out);
}

static int cmd_list(int argc, char **argv)
{
	struct args a;
	int rc = parse_args("list", argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.help) {
		fputs(list_help, stdout);
		return 0;
	}
	if (a.seen & SEEN_CONVERT)
		return usage_error("list", "that option belongs to 'txc convert'");
	if (a.n_pos > 1 || (a.n_pos == 1 && strcmp(a.pos[0], "hermes") != 0))
		return usage_error("list", "unknown source '%s' (txc reads: hermes)", a.pos[a.n_pos - 1]);
	struct txc_diag d = {0};
	struct txc_store *s;
	char *path;
	rc = open_store(&a, &s, &path, &d);
	if (rc == TXC_E_NOTFOUND && path != NULL) {
		say("", "no Hermes store at '%s' (set HERMES_HOME, or use --home or --db)", path);
		if (a.json)
			fputs("[]\n", stdout);
		free(path);
		return 0;
	}
	if (rc) {
		free(path);
		return fail(&d);
	}
	struct txc_arena *arena = txc_arena_new(0);
	const struct txc_json *rows;
	rc = txc_store_sessions(s, a.archived ? TXC_LIST_ARCHIVED : 0, arena, &rows, &d);
	txc_store_close(s);
	free(path);
	if (rc) {
		txc_arena_free(arena);
		return fail(&d);
	}
	if (a.json) {
		struct txc_buf b = TXC_BUF_INIT;
		txc_buf_addch(&b, '[');
		for (size_t i = 0; i < rows->n; i++) {
			txc_buf_addstr(&b, i ? ",\n" : "\n");
			txc_json_emit(&b, rows->items[i], 0);
		}
		txc_buf_addstr(&b, rows->n ? "\n]\n" : "]\n");
		fwrite(b.buf, 1, b.len, stdout);
		txc_buf_release(&b);
	} else if (rows->n) {
		print_table(rows);
	}
	txc_arena_free(arena);
	return 0;
}

/* ---- convert ---- */

static int install_claude(const struct args *a, const struct txc_transcript *t, struct txc_write_opts *w)
{
	struct txc_diag d = {0};
	char cwd_now[4096];
	if (getcwd(cwd_now, sizeof(cwd_now)) == NULL)
		strcpy(cwd_now, "/");
	struct txc_str cwd = t->meta.cwd;
	struct stat st;
	bool usable = cwd.ptr != NULL && cwd.ptr[0] == '/' && strlen(cwd.ptr) == cwd.len && stat(cwd.ptr, &st) == 0 &&
		      S_ISDIR(st.st_mode);
	if (!usable) {
		if (cwd.ptr == NULL)
			say("warning: ", "the session has no recorded working directory; installing for %s", cwd_now);
		else
			say("warning: ", "the session's directory '%.*s' does not exist here; installing for %s",
			    (int)(cwd.len > 200 ? 200 : cwd.len), cwd.ptr, cwd_now);
		cwd = txc_str_c(cwd_now);
	}
	/* the recorded cwd must match the folder: write the one we install for */
	struct txc_transcript copy = *t;
	copy.meta.cwd = cwd;
	const char *cfg = getenv("CLAUDE_CONFIG_DIR");
	struct txc_buf path = TXC_BUF_INIT;
	if (cfg != NULL && cfg[0])
		txc_buf_addstr(&path, cfg);
	else
		txc_buf_addf(&path, "%s/.claude", getenv("HOME") ? getenv("HOME") : ".");
	txc_buf_addstr(&path, "/projects/");
	/* the folder name has only [A-Za-z0-9-] and the file name is a UUID: nothing can escape */
	txc_claude_project_folder(&path, cwd.ptr, cwd.len);
	int rc = cli_mkdirs(path.buf, &d);
	char uuid[37];
	txc_claude_session_uuid(t, uuid);
	txc_buf_addf(&path, "/%s.jsonl", uuid);
	struct cli_atomic file;
	if (rc == 0)
		rc = cli_atomic_open(&file, path.buf, a->force, &d);
	if (rc == 0) {
		struct txc_out out;
		txc_out_init_file(&out, file.f);
		rc = txc_writer_claude.write(&out, &copy, w, &d);
		if (rc == 0 && txc_out_flush(&out) != 0)
			rc = TXC_E_FAIL, txc_diag_set(&d, TXC_E_FAIL, "cannot write '%s': %s", path.buf, strerror(out.err));
		txc_out_release(&out);
		if (rc == 0)
			rc = cli_atomic_commit(&file, &d);
		else
			cli_atomic_abort(&file);
	}
	if (rc) {
		txc_buf_release(&path);
		return fail(&d);
	}
	struct txc_buf msg = TXC_BUF_INIT;
	cli_safe_text(&msg, path.buf, path.len, true);
	printf("installed %s\n", msg.buf);
	txc_buf_reset(&msg);
	/* single-quote the directory for the shell */
	txc_buf_addstr(&msg, "cd '");
	for (size_t i = 0; i < cwd.len; i++) {
		if (cwd.ptr[i] == '\'')
			txc_buf_addstr(&msg, "'\\''");
		else
			txc_buf_addch(&msg, cwd.ptr[i]);
	}
	txc_buf_addf(&msg, "' && claude --resume %s", uuid);
	struct txc_buf safe = TXC_BUF_INIT;
	cli_safe_text(&safe, msg.buf, msg.len, true);
	printf("resume with: %s\n", safe.buf);
	txc_buf_release(&safe);
	txc_buf_release(&msg);
	txc_buf_release(&path);
	return 0;
}

static int cmd_convert(int argc, char **argv)
{
	struct args a;
	int rc = parse_args("convert", argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.help) {
		struct txc_buf f = TXC_BUF_INIT;
		size_t n;
		const struct txc_writer_ops *const *all = txc_writer_all(&n);
		for (size_t i = 0; i < n; i++)
			txc_buf_addf(&f, "  %-19s  %s\n", all[i]->name, all[i]->summary);
		printf(convert_help, f.buf);
		txc_buf_release(&f);
		return 0;
	}
	if (a.n_pos != 1)
		return usage_error("convert", a.n_pos ? "give exactly one SESSION" : "missing SESSION");
	if (a.to == NULL)
		return usage_error("convert", "missing --to FORMAT (claude, hermes or markdown)");
	const struct txc_writer_ops *ops = txc_writer_lookup(a.to);
	if (ops == NULL)
		return usage_error("convert", "unknown format '%s' (claude, hermes or markdown)", a.to);
	if (a.install && ops != &txc_writer_claude)
		return usage_error("convert", "--install works with --to claude only");
	if (a.install && a.output)
		return usage_error("convert", "--install and -o cannot be combined");
	if (a.json || a.archived)
		return usage_error("convert", "--json and --archived belong to 'txc list'");
	if (a.w.images == TXC_IMAGES_FILES && (a.output == NULL || ops != &txc_writer_markdown))
		return usage_error("convert", "--images files needs --to markdown and -o FILE");

	struct txc_diag d = {0};
	struct txc_store *s;
	char *path, *id = NULL;
	rc = open_store(&a, &s, &path, &d);
	free(path);
	if (rc)
		return fail(&d);
	struct txc_transcript *t = NULL;
	rc = txc_store_resolve(s, a.pos[0], &id, &d);
	if (rc == 0)
		rc = txc_store_load(s, id, a.w.include_compacted ? TXC_LOAD_COMPACTED : 0, &t, &d);
	txc_store_close(s);
	free(id);
	if (rc)
		return fail(&d);
	if (a.install) {
		rc = install_claude(&a, t, &a.w);
		txc_transcript_free(t);
		return rc;
	}
	if (a.w.images == TXC_IMAGES_AUTO)
		a.w.images = a.output != NULL ? TXC_IMAGES_FILES : TXC_IMAGES_INLINE;
	struct cli_assets assets;
	cli_assets_init(&assets, a.output ? a.output : "-");
	a.w.assets = &assets.sink;
	char cwd_now[4096];
	if (getcwd(cwd_now, sizeof(cwd_now)) != NULL)
		a.w.cwd = txc_str_c(cwd_now); /* recorded when the session has no cwd of its own */
	/* output streams to stdout or to a temporary file renamed into place at the end */
	struct cli_atomic file = {0};
	if (a.output != NULL)
		rc = cli_atomic_open(&file, a.output, a.force, &d);
	struct txc_out out;
	txc_out_init_file(&out, file.f ? file.f : stdout);
	if (rc == 0)
		rc = ops->write(&out, t, &a.w, &d);
	txc_transcript_free(t);
	if (rc == 0 && txc_out_flush(&out) != 0) {
		txc_diag_set(&d, TXC_E_FAIL, "cannot write to %s: %s", a.output ? a.output : "stdout", strerror(out.err));
		rc = TXC_E_FAIL;
	}
	if (rc == 0 && a.output != NULL)
		rc = cli_assets_write(&assets, a.force, &d); /* images first: the document links to them */
	if (file.f != NULL) {
		if (rc == 0)
			rc = cli_atomic_commit(&file, &d);
		else
			cli_atomic_abort(&file);
	}
	cli_assets_release(&assets);
	txc_out_release(&out);
	return rc ? fail(&d) : 0;
}

/* ---- export ---- */

/* export --json streams each session: no session is ever held whole */
struct export_stream {
	struct txc_out *out;
	const struct txc_write_opts *w;
	size_t n_rows;
};

static int export_head(void *ctx, const struct txc_transcript *t)
{
	struct export_stream *es = ctx;
	txc_hermes_head(es->out, t, es->w);
	return 0;
}

static int export_row(void *ctx, const struct txc_json *row)
{
	struct export_stream *es = ctx;
	txc_hermes_row(es->out, row, &es->n_rows);
	return es->out->err ? TXC_E_FAIL : 0;
}

static int cmd_export(int argc, char **argv)
{
	struct args a;
	int rc = parse_args("export", argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.help) {
		fputs(export_help, stdout);
		return 0;
	}
	if (!a.json)
		return usage_error("export", "missing --json (txc export --json > sessions.jsonl)");
	if (a.n_pos)
		return usage_error("export", "unexpected argument '%s'", a.pos[0]);
	if (a.seen & (SEEN_CONVERT | SEEN_LIST))
		return usage_error("export", "that option belongs to 'txc convert' or 'txc list'");
	struct txc_diag d = {0};
	struct txc_store *s;
	char *path;
	rc = open_store(&a, &s, &path, &d);
	free(path);
	if (rc)
		return fail(&d);
	char **ids;
	size_t n;
	rc = txc_store_export_order(s, &ids, &n, &d);
	if (rc) {
		txc_store_close(s);
		return fail(&d);
	}
	struct txc_out out;
	txc_out_init_file(&out, stdout);
	struct txc_write_opts w = {.bulk = true};
	struct export_stream es = {&out, &w, 0};
	struct txc_row_sink sink = {export_head, export_row, &es};
	for (size_t i = 0; i < n && rc == 0; i++) {
		es.n_rows = 0;
		rc = txc_store_stream(s, ids[i], TXC_LOAD_LAST_ACTIVE, &sink, &d);
		if (rc == TXC_E_NOTFOUND) /* deleted while we ran: the snapshot moved on */
			rc = 0;
		else if (rc == 0) {
			txc_hermes_tail(&out);
			txc_out_maybe_flush(&out);
		}
	}
	txc_store_free_ids(ids, n);
	txc_store_close(s);
	if (txc_out_flush(&out) != 0 && rc == 0) {
		txc_diag_set(&d, TXC_E_FAIL, "cannot write to stdout: %s", strerror(out.err));
		rc = TXC_E_FAIL;
	}
	txc_out_release(&out);
	return rc ? fail(&d) : 0;
}

static int cmd_refused(const char *cmd)
{
	say("error: ",
	    "'%s' is refused: Hermes has no import API and state.db is its private schema, so txc never writes to it; "
	    "use 'txc export' or 'txc convert' to copy sessions out",
	    cmd);
	return 4;
}

int main(int argc, char **argv)
{
	stderr_tty = isatty(STDERR_FILENO);
	if (argc < 2) {
		fputs(main_help, stderr);
		return 2;
	}
	const char *cmd = argv[1];
	int rc;
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		fputs(main_help, stdout);
		rc = 0;
	} else if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("txc %s\n", TXC_VERSION);
		rc = 0;
	} else if (strcmp(cmd, "list") == 0) {
		rc = cmd_list(argc - 1, argv + 1);
	} else if (strcmp(cmd, "convert") == 0) {
		rc = cmd_convert(argc - 1, argv + 1);
	} else if (strcmp(cmd, "export") == 0) {
		rc = cmd_export(argc - 1, argv + 1);
	} else if (strcmp(cmd, "save") == 0 || strcmp(cmd, "delete") == 0 || strcmp(cmd, "import") == 0) {
		rc = cmd_refused(cmd);
	} else {
		return usage_error("help", "unknown command '%s'", cmd);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return rc;
		say("error: ", "cannot write to stdout: %s", strerror(errno));
		return 1;
	}
	return rc;
}
