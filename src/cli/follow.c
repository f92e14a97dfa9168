/*
 * follow.c - --follow: print a session, then each new message as Hermes
 * commits it, until the session ends, its store goes away, or SIGINT/SIGTERM.
 *
 * Gentle on a live store: each poll is one short read transaction
 * (txc_store_load_after: the session row and the rows after the last id
 * seen), over when it returns, so Hermes's WAL checkpoints are never held up
 * between polls; nothing but the new rows is read or kept, so memory stays
 * flat for hours.  A poll that fails (the store locked, being replaced) is
 * retried on the next tick with the store opened afresh.
 *
 * A turn is written whole: an assistant message whose tool calls have not all
 * been answered yet waits (it is read again next time) so that each call is
 * shown with its result, and JSONL records stay in a valid order.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct follow {
	struct cli_args *a;
	const struct txc_writer_ops *ops;
	struct cli_stores st;
	bool open;
	size_t which;
	struct txc_sid id;
	char *profile;
	dev_t dev; /* the store file when opened: a new inode is a replaced store */
	ino_t ino;
	int64_t after; /* the rows up to this id are written */
	unsigned flags;
	size_t failures; /* polls in a row that could not read */
};

static void follow_close(struct follow *f)
{
	if (f->open)
		cli_stores_close(&f->st);
	f->open = false;
	txc_sid_release(&f->id);
}

static const char *store_path(const struct follow *f)
{
	return f->open ? f->st.v[f->which].path : NULL;
}

static enum txc_err follow_open(struct follow *f, struct txc_diag *d)
{
	enum txc_err rc = cli_stores_open(f->a, &f->st, d);
	if (rc != TXC_OK)
		return rc;
	f->open = true;
	rc = cli_resolve(&f->st, f->a->pos[0], &f->which, &f->id, d);
	if (rc != TXC_OK)
		return rc;
	struct stat sb;
	const char *path = store_path(f);
	if (path != NULL && stat(path, &sb) == 0) {
		f->dev = sb.st_dev;
		f->ino = sb.st_ino;
	}
	if (f->profile == NULL && f->st.v[f->which].profile != NULL)
		f->profile = txc_xstrdup(f->st.v[f->which].profile);
	return TXC_OK;
}

/* the number of tool calls in a message */
static size_t calls_in(const struct txc_message *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n_blocks; i++)
		n += m->blocks[i].kind == TXC_BLOCK_TOOL_USE;
	return n;
}

static bool only_result(const struct txc_message *m)
{
	return m->role == TXC_ROLE_USER && m->n_blocks == 1 && m->blocks[0].kind == TXC_BLOCK_TOOL_RESULT;
}

/* How many of t's messages can be written now: all but an unanswered last turn (see above). */
static size_t ready(const struct txc_transcript *t, bool ended)
{
	if (ended)
		return t->n_messages;
	size_t k = t->n_messages;
	while (k > 0 && only_result(&t->messages[k - 1]))
		k--;
	if (k == 0 || t->messages[k - 1].role != TXC_ROLE_ASSISTANT)
		return t->n_messages;
	size_t calls = calls_in(&t->messages[k - 1]), results = t->n_messages - k;
	return results < calls ? k - 1 : t->n_messages;
}

/*
 * Where following goes when the session ends.  A session Hermes ended in a compression
 * continues in a child session; following into it is --lineage's (which walks that chain),
 * and this is the one place that would switch f->id to the child and say so in one line.
 * Without it, following ends with the session.
 */
static bool follow_next(struct follow *f, const struct txc_transcript *t)
{
	(void)f;
	(void)t;
	return false;
}

/* One poll: read what is new, write what is ready; *ended when the session is over. */
static enum txc_err poll_once(struct follow *f, struct txc_out *out, bool first, bool *ended, struct txc_diag *d)
{
	struct txc_transcript *t = NULL;
	int64_t last = f->after;
	enum txc_err rc = txc_store_load_after(f->st.v[f->which].s, &f->id, f->after, f->flags, &t, &last, d);
	if (rc != TXC_OK)
		return rc;
	cli_redact_transcript(f->a, t); /* --redact: every part, as convert does the whole */
	*ended = t->meta.has_ended;
	bool rows = (f->ops->caps & TXC_WCAP_NATIVE_ROWS) != 0; /* a row format: every row as it comes */
	size_t n = rows ? t->n_messages : ready(t, *ended), all = t->n_messages;
	if (first || (rows ? last > f->after : n > 0)) {
		t->n_messages = n;
		rc = f->ops->write(out, t, &f->a->w, d);
		t->n_messages = all;
		f->a->w.part->continued = true;
	}
	if (rows || n == all)
		f->after = last;
	else if (n > 0)
		f->after = t->messages[n - 1].row_id;
	if (*ended && follow_next(f, t))
		*ended = false;
	txc_transcript_free(t);
	if (rc == TXC_OK && (txc_out_flush(out) != 0 || fflush(stdout) != 0)) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write to stdout: %s", strerror(out->err ? out->err : errno));
		rc = TXC_E_FAIL;
	}
	return rc;
}

/* Sleep for the interval, waking early for a signal. */
static void nap(double secs)
{
	struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
	while (!stop_requested && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* the store file now: gone (false), or replaced (*replaced) since it was opened */
static bool store_there(const struct follow *f, const char *path, bool *replaced)
{
	struct stat sb;
	*replaced = false;
	if (path == NULL)
		return true;
	if (stat(path, &sb) != 0)
		return errno != ENOENT;
	*replaced = sb.st_dev != f->dev || sb.st_ino != f->ino;
	return true;
}

/* A failed poll after the first: retried with the store opened again; said once if it goes on. */
static void poll_failed(struct follow *f, const struct txc_diag *d)
{
	follow_close(f);
	if (++f->failures == 10)
		cli_warn("cannot read the session for %zu polls (%s); still trying", f->failures, d->msg);
}

static enum txc_err follow_loop(struct follow *f, struct txc_out *out, struct txc_diag *d)
{
	char *path = txc_xstrdup(store_path(f) ? store_path(f) : "");
	bool ended = false, first = true;
	enum txc_err rc = TXC_OK;
	while (!stop_requested) {
		struct txc_diag pd = {0};
		enum txc_err prc = f->open ? TXC_OK : follow_open(f, &pd);
		if (prc == TXC_OK)
			prc = poll_once(f, out, first, &ended, first ? d : &pd);
		if (prc == TXC_OK) {
			f->failures = 0;
		} else if (first || out->err != 0) { /* the session cannot be shown, or stdout is gone */
			rc = prc;
			if (!first)
				*d = pd;
			break;
		} else {
			poll_failed(f, &pd);
		}
		first = false;
		if (ended)
			break;
		nap(f->a->interval);
		bool replaced = false;
		if (path[0] && !store_there(f, path, &replaced)) {
			cli_warn("the store '%s' is gone; stopped following", path);
			break;
		}
		if (replaced)
			follow_close(f); /* opened again, by name, on the next poll */
	}
	free(path);
	return rc;
}

enum txc_err cli_follow(struct cli_args *a, const struct txc_writer_ops *ops, struct txc_diag *d)
{
	struct follow f = {.a = a, .ops = ops, .flags = cli_load_flags(a, ops)};
	struct txc_write_part part = {0};
	enum txc_err rc = follow_open(&f, d);
	if (rc != TXC_OK) {
		follow_close(&f);
		return rc;
	}
	cli_write_opts_finish(a, false);
	cli_terminal_opts(a, true);
	a->w.scope = cli_profile_scope(f.profile);
	a->w.part = &part;
	struct txc_out out;
	struct cli_tty tty;
	if (ops->caps & TXC_WCAP_TERMINAL)
		txc_out_init_file(&out, stdout);
	else
		cli_out_stdout(&out, &tty);
	struct sigaction on = {.sa_handler = on_stop}, old_int, old_term; /* no SA_RESTART: a nap ends */
	sigemptyset(&on.sa_mask);
	sigaction(SIGINT, &on, &old_int);
	sigaction(SIGTERM, &on, &old_term);
	rc = follow_loop(&f, &out, d);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (cli_out_finish(&out) != 0 && rc == TXC_OK) {
		txc_diag_set(d, TXC_E_FAIL, "cannot write to stdout: %s", strerror(out.err));
		rc = TXC_E_FAIL;
	}
	txc_out_release(&out);
	follow_close(&f);
	free(f.profile);
	return rc;
}
