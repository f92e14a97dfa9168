/*
 * cmd_view.c - `txc view [SESSION]`: a session through the terminal writer,
 * paged the way git pages, on the convert path (so what convert learns, such
 * as ranges and lineage, view has too).
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

/* ---- the pager ---- */

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

/* ---- the command ---- */

/* the first writer made for a terminal (the registry says which; view names none) */
static const struct txc_writer_ops *terminal_writer(void)
{
	size_t n;
	const struct txc_writer_ops *const *all = txc_writer_all(&n);
	for (size_t i = 0; i < n; i++)
		if (all[i]->caps & TXC_WCAP_TERMINAL)
			return all[i];
	return NULL;
}

/* No SESSION: the most recently active one the filters select, as an exact id (*keep owns it). */
static int most_recent(struct cli_args *a, char **keep)
{
	struct txc_diag d = {0};
	struct cli_stores st;
	struct txc_arena *ar = txc_arena_new(0);
	struct cli_session *v = NULL;
	size_t n = 0, more = 0;
	a->sel.order = 1; /* recent: last activity, so a session being written comes first (view takes no --order) */
	a->sel.order_set = true;
	enum txc_err rc = cli_stores_open(a, &st, &d);
	if (rc == TXC_OK)
		rc = cli_select_sessions(a, CMD_VIEW, &st, ar, &v, &n, &more, &d);
	if (rc == TXC_OK && n == 0) {
		txc_diag_set(&d, TXC_E_NOTFOUND, "no session matches");
		rc = TXC_E_NOTFOUND;
	}
	if (rc == TXC_OK)
		*keep = txc_xstrndup(v[0].id.text.ptr ? v[0].id.text.ptr : "", v[0].id.text.len);
	free(v);
	cli_stores_close(&st);
	txc_arena_free(ar);
	return rc == TXC_OK ? 0 : cli_fail(&d);
}

int cmd_view(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(CMD_VIEW, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos > 1)
		return cli_usage(CMD_VIEW, "give at most one SESSION");
	const struct txc_writer_ops *ops = terminal_writer();
	if ((rc = cli_check_writer(CMD_VIEW, &a, ops)) != 0)
		return rc;
	char *id = NULL, *pos[1];
	if (a.n_pos == 0) {
		if ((rc = most_recent(&a, &id)) != 0)
			return rc;
		pos[0] = id;
		a.pos = pos;
		a.n_pos = 1;
	}
	a.pager = !a.no_pager && !a.follow;
	rc = cli_convert_run(CMD_VIEW, &a, ops);
	free(id);
	return rc;
}
