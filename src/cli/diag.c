/*
 * diag.c - the CLI's diagnostics and colour: every "txc: error: ..." and
 * "txc: warning: ..." line goes through here, escaped for a terminal.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static bool stderr_tty;
static int color_when;   /* 0 auto, 1 always, 2 never */
static int stdout_errno; /* why a write to stdout failed, taken when it failed (errno moves on) */

int cli_stdout_write(const char *p, size_t len)
{
	if (len == 0 || fwrite(p, 1, len, stdout) == len)
		return 0;
	cli_stdout_failed(errno);
	return -1;
}

void cli_stdout_failed(int err)
{
	if (stdout_errno == 0)
		stdout_errno = err ? err : EIO;
}

int cli_finish_stdout(int rc)
{
	errno = 0;
	int err = fflush(stdout) != 0 ? (errno ? errno : EIO) : 0;
	if (err == 0 && !ferror(stdout))
		return rc;
	if (stdout_errno != 0)
		err = stdout_errno;
	if (err == EPIPE || rc != 0)
		return rc; /* a closed pipe, or a write error the command reported already */
	cli_error("cannot write to stdout: %s", err ? strerror(err) : "write error");
	return 1;
}

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

bool cli_color_always(void)
{
	return color_when == 1;
}

bool cli_color_stdout(void)
{
	static int known = -1, when = -1; /* asked once per cell of a table: getenv and isatty each time */
	if (known < 0 || when != color_when) {
		known = color_for(STDOUT_FILENO);
		when = color_when;
	}
	return known;
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

enum level { L_ERROR, L_WARNING, L_NOTE };

/* a pipe or log gets the bytes as they are, but a message stays one line: a line break in an id or path is \n */
static void add_one_line(struct txc_buf *b, const char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			txc_buf_addstr(b, *s == '\n' ? "\\n" : "\\r");
		else
			txc_buf_add(b, s, 1);
}

static void say(enum level lv, const char *fmt, va_list ap)
{
	static const char *const word[] = {[L_ERROR] = "error: ", [L_WARNING] = "warning: ", [L_NOTE] = ""};
	static const char *const sgr[] = {[L_ERROR] = "1;31", [L_WARNING] = "1;33", [L_NOTE] = "0"};
	char raw[2048];
	if (vsnprintf(raw, sizeof(raw), fmt, ap) >= (int)sizeof(raw))
		txc_diag_cut(raw, sizeof(raw) - 1); /* never half a character */
	struct txc_buf b = TXC_BUF_INIT;
	/* messages quote ids and paths from the store: never send raw escapes to a terminal */
	if (stderr_tty)
		cli_safe_text(&b, raw, strlen(raw), true);
	else
		add_one_line(&b, raw);
	if (color_for(STDERR_FILENO) && lv != L_NOTE)
		fprintf(stderr, "txc: \x1b[%sm%s\x1b[m%s\n", sgr[lv], word[lv], b.buf);
	else
		fprintf(stderr, "txc: %s%s\n", word[lv], b.buf);
	txc_buf_release(&b);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(L_ERROR, fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(L_WARNING, fmt, ap);
	va_end(ap);
}

void cli_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(L_NOTE, fmt, ap);
	va_end(ap);
}

/* The flag or step that would help, by code: the library reports facts, the CLI advises. */
static const char *advice(enum txc_err code)
{
	switch (code) {
	case TXC_E_TIMEOUT: return " (raise --timeout)";
	case TXC_E_AUTH: return "; pass --token or set HERMES_DASHBOARD_SESSION_TOKEN";
	case TXC_E_BAD_LINE: return "; fix it or pass --skip-bad to skip such lines";
	default: return "";
	}
}

void cli_report(const struct txc_diag *d)
{
	cli_error("%s%s", d->msg, advice(d->code));
	if (d->hint[0]) {
		struct txc_buf b = TXC_BUF_INIT;
		if (stderr_tty)
			cli_safe_text(&b, d->hint, strlen(d->hint), false);
		else
			txc_buf_addstr(&b, d->hint);
		fputs(b.buf, stderr);
		txc_buf_release(&b);
	}
}

int cli_fail(const struct txc_diag *d)
{
	cli_report(d);
	return txc_diag_exit_code(d->code);
}

void cli_warning(void *ctx, enum txc_warn w, const char *where, size_t n)
{
	switch (w) {
	case TXC_W_SKIPPED_LINES: cli_warn("skipped %zu malformed lines of %s", n, where); break;
	case TXC_W_PAGING_STOPPED:
		cli_warn("the dashboard at %s stopped paging after %zu sessions although it counts more; listing those",
			 where, n);
		break;
	case TXC_W_PAGE_LIMIT:
		cli_warn("the dashboard at %s kept counting more sessions; listing the first %zu", where, n);
		break;
	case TXC_W_ODD_IDS:
		cli_warn("the dashboard at %s lists %zu sessions whose id cannot be asked for (\".\", \"..\" or a NUL "
			 "byte); skipped",
			 where, n);
		break;
	case TXC_W_LEGACY_SKIPPED:
		cli_warn(
			"%zu session file%s in %s not read: symbolic links are not followed, only regular files are read",
			n, n == 1 ? "" : "s", where);
		break;
	case TXC_W_LEGACY_UNREADABLE: cli_warn("%s; left out", where); break;
	case TXC_W_CUT_LINE:
		cli_warn("the last line of %s is unfinished (Claude Code still writing?); left out", where);
		break;
	case TXC_W_OTHER_BRANCH:
		cli_warn(
			"%zu message record%s of %s not on the branch Claude Code resumes (a rewound turn, a sidechain); "
			"left out",
			n, n == 1 ? "" : "s", where);
		break;
	case TXC_W_CODEX_CUT:
		cli_warn("the last line of %s is unfinished (Codex still writing?); left out", where);
		break;
	case TXC_W_CODEX_NO_META:
		cli_warn("%s has no session_meta record (not a whole Codex rollout?); read as it is", where);
		break;
	case TXC_W_CODEX_UNBOUND:
		cli_warn("%zu tool output%s of %s answer%s no earlier call; kept as results of unknown calls", n,
			 n == 1 ? "" : "s", where, n == 1 ? "s" : "");
		break;
	case TXC_W_KEPT_CHANGED:
		cli_warn("kept '%s': it changed since txc wrote it (it is no longer in the manifest)", where);
		break;
	case TXC_W_MANIFEST_REPLACED:
		cli_warn("'%s' is not txc's manifest (line %zu); it will be replaced (--force)", where, n);
		break;
	}
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(msg))
		txc_diag_cut(msg, sizeof(msg) - 1);
	if (cmd != NULL)
		cli_error("%s (see 'txc %s --help')", msg, cmd);
	else
		cli_error("%s (see 'txc --help')", msg);
	return 2;
}
