/*
 * diag.c - the CLI's diagnostics and colour: every "txc: error: ..." and
 * "txc: warning: ..." line goes through here, escaped for a terminal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static bool stderr_tty;
static int color_when; /* 0 auto, 1 always, 2 never */

void cli_diag_init(void)
{
	stderr_tty = isatty(STDERR_FILENO);
}

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
