/*
 * main.c - txc's command line: dispatch, diagnostics, colour.
 *
 * Only this layer prints diagnostics ("txc: error: ...") and exits.
 * Exit status: 0 success, 1 failure, 2 usage, 3 not found, 4 refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

static bool stderr_tty;
static int color_when; /* 0 auto, 1 always, 2 never */

void cli_color_set(int when)
{
	color_when = when;
}

static bool color_for(int fd)
{
	if (color_when == 1)
		return true;
	if (color_when == 2)
		return false;
	const char *nc = getenv("NO_COLOR");
	if (nc != NULL && nc[0] != '\0')
		return false;
	const char *term = getenv("TERM");
	return isatty(fd) && !(term != NULL && strcmp(term, "dumb") == 0);
}

bool cli_color_stdout(void)
{
	return color_for(STDOUT_FILENO);
}

void cli_paint(struct txc_buf *b, const char *sgr, const char *text, size_t len)
{
	bool on = cli_color_stdout();
	if (on)
		txc_buf_addf(b, "\x1b[%sm", sgr);
	txc_buf_add(b, text, len);
	if (on)
		txc_buf_addstr(b, "\x1b[m");
}

void cli_say(const char *level, const char *fmt, ...)
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
	bool paint = level[0] && color_for(STDERR_FILENO);
	const char *sgr = strncmp(level, "error", 5) == 0 ? "1;31" : "1;33";
	if (paint)
		fprintf(stderr, "txc: \x1b[%sm%s\x1b[m%s\n", sgr, level, b.buf);
	else
		fprintf(stderr, "txc: %s%s\n", level, b.buf);
	txc_buf_release(&b);
}

int cli_fail(const struct txc_diag *d)
{
	cli_say("error: ", "%s", d->msg);
	if (d->hint[0]) {
		struct txc_buf b = TXC_BUF_INIT;
		if (stderr_tty)
			cli_safe_text(&b, d->hint, strlen(d->hint), false);
		else
			txc_buf_addstr(&b, d->hint);
		fputs(b.buf, stderr);
		txc_buf_release(&b);
	}
	return txc_diag_exit_code(d->code);
}

int cli_usage(unsigned cmd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	const struct cli_cmd_info *c = cli_command(cmd);
	if (c != NULL)
		cli_say("error: ", "%s (see 'txc %s --help')", msg, c->name);
	else
		cli_say("error: ", "%s (see 'txc --help')", msg);
	return 2;
}

static void main_help(FILE *f)
{
	size_t n;
	const struct cli_cmd_info *cs = cli_commands(&n);
	fputs("usage: txc <command> [options]\n"
	      "\n"
	      "Convert Hermes Agent sessions (state.db, read-only) to other formats.\n"
	      "\n"
	      "commands:\n",
	      f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-20s %s\n", cs[i].name, cs[i].summary);
	fputs("  completions SHELL    print a bash, zsh or fish completion script\n"
	      "  save, delete         refused: Hermes's store is private and read-only to txc\n"
	      "\n"
	      "store options (every command):\n"
	      "  --db PATH            read this state.db\n"
	      "  --home DIR           Hermes home (default $HERMES_HOME, else ~/.hermes)\n"
	      "  --profile NAME       the store of profile NAME (<home>/profiles/NAME/state.db)\n"
	      "  --all-profiles       the root store and every profile's store\n"
	      "\n"
	      "  -h, --help           show help (also 'txc COMMAND --help')\n"
	      "  --version            print the version\n"
	      "\n"
	      "exit status: 0 success, 1 failure, 2 usage error, 3 not found, 4 refused.\n"
	      "See txc(1) for the full manual.\n",
	      f);
}

static int cmd_refused(const char *cmd)
{
	cli_say("error: ",
		"'%s' is refused: Hermes has no import API and state.db is its private schema, so txc never writes to "
		"it; use 'txc export' or 'txc convert' to copy sessions out",
		cmd);
	return 4;
}

int main(int argc, char **argv)
{
	stderr_tty = isatty(STDERR_FILENO);
	if (argc < 2) {
		main_help(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	int rc;
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		main_help(stdout);
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
	} else if (strcmp(cmd, "artifacts") == 0) {
		rc = cmd_artifacts(argc - 1, argv + 1);
	} else if (strcmp(cmd, "completions") == 0) {
		rc = cli_completions(argc > 2 ? argv[2] : NULL);
	} else if (strcmp(cmd, "save") == 0 || strcmp(cmd, "delete") == 0 || strcmp(cmd, "import") == 0) {
		rc = cmd_refused(cmd);
	} else {
		return cli_usage(0, "unknown command '%s'", cmd);
	}
	int flushed = fflush(stdout), err = errno;
	if (flushed != 0 || ferror(stdout)) {
		if (err == EPIPE || (flushed == 0 && rc != 0))
			return rc; /* a closed pipe, or a write error the command reported already */
		cli_say("error: ", "cannot write to stdout: %s", strerror(flushed != 0 ? err : EIO));
		return rc ? rc : 1;
	}
	return rc;
}
