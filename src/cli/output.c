/*
 * output.c - where a command's text goes: standard output as a txc_out (on a terminal every
 * byte escaped, so transcript text cannot drive it), the terminal writer's width and colour,
 * and the pager.  Below every cmd_*.c: the commands and follow.c share it and call nothing
 * of each other.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/*
 * stdout on a terminal: transcript text must not drive it, so control
 * characters and escape sequences are shown escaped.  A UTF-8 sequence cut
 * by a flush boundary waits for its next bytes.
 */
static int tty_write(void *ctx, const char *p, size_t n)
{
	struct cli_tty *t = ctx;
	struct txc_buf in = TXC_BUF_INIT, out = TXC_BUF_INIT;
	txc_buf_add(&in, t->carry, t->n_carry);
	txc_buf_add(&in, p, n);
	size_t keep = 0; /* an unfinished sequence at the end */
	for (size_t k = 1; k <= 3 && k <= in.len; k++) {
		unsigned char c = (unsigned char)in.buf[in.len - k];
		if ((c & 0xC0) == 0x80)
			continue;
		size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
		if (need > k)
			keep = k;
		break;
	}
	if (n == 0)
		keep = 0; /* the final flush: nothing more will come */
	cli_safe_text(&out, in.buf, in.len - keep, false);
	memcpy(t->carry, in.buf + in.len - keep, keep);
	t->n_carry = keep;
	int rc = fwrite(out.buf, 1, out.len, stdout) == out.len ? 0 : -1;
	txc_buf_release(&in);
	txc_buf_release(&out);
	return rc;
}

void cli_out_stdout(struct txc_out *out, struct cli_tty *tty)
{
	memset(tty, 0, sizeof(*tty));
	txc_out_init_file(out, stdout);
	if (isatty(STDOUT_FILENO))
		out->sink = tty_write, out->ctx = tty;
}

int cli_out_finish(struct txc_out *out)
{
	int rc = txc_out_flush(out);
	if (rc == 0 && out->sink == tty_write && tty_write(out->ctx, "", 0) != 0) {
		out->err = errno ? errno : EIO; /* the carried bytes, if any, shown escaped */
		rc = -1;
	}
	return rc;
}

void cli_terminal_opts(struct txc_write_opts *w, bool to_stdout)
{
	bool tty = to_stdout && isatty(STDOUT_FILENO);
	w->color = to_stdout ? cli_color_stdout() : cli_color_always();
	if (w->width > 0)
		return;
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		w->width = ws.ws_col;
	else if (tty && cols != NULL && atol(cols) > 0) /* COLUMNS only describes a terminal */
		w->width = atol(cols);
	else
		w->width = 80;
}

/* ---- the pager (view) ---- */

/* $TXC_PAGER, else $PAGER, else less -FRX; NULL when that says not to page ("" or cat) */
static const char *pager_command(void)
{
	const char *p = getenv("TXC_PAGER");
	if (p == NULL)
		p = getenv("PAGER");
	if (p == NULL)
		p = "less -FRX";
	while (*p == ' ')
		p++;
	return *p == '\0' || strcmp(p, "cat") == 0 ? NULL : p;
}

static size_t lines_of(const char *p, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += p[i] == '\n';
	return n;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The pager's exit: 0, or -1 when it could not be started (127: sh found no such command). */
static int run_pager(const char *cmd, const char *p, size_t len)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (getenv("LESS") == NULL)
			setenv("LESS", "FRX", 1); /* as git does: a pager named less without options behaves too */
#ifdef TXC_COVERAGE
		extern void __gcov_dump(void);
		__gcov_dump(); /* a coverage build: the child's counters, which exec would drop */
#endif
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	/* the user quitting the pager early is not an error; Ctrl-C is the pager's */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_pipe, old_int;
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigaction(SIGINT, &ign, &old_int);
	write_all(fds[1], p, len);
	close(fds[1]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGINT, &old_int, NULL);
	return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -1 : 0;
}

int cli_page(const char *p, size_t len)
{
	struct winsize ws;
	const char *cmd = pager_command();
	bool taller = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && lines_of(p, len) >= ws.ws_row;
	if (cmd != NULL && taller && isatty(STDOUT_FILENO)) {
		if (run_pager(cmd, p, len) == 0)
			return 0;
		cli_warn("cannot run the pager '%s'; printing instead", cmd);
	}
	return len == 0 || fwrite(p, 1, len, stdout) == len ? 0 : -1;
}
