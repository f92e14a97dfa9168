/*
 * follow.c - --follow: print a session, then each new message as Hermes
 * commits it, until the session ends, it is deleted, its store goes away, or
 * SIGINT/SIGTERM.
 *
 * Gentle on a live store: each poll is one short read transaction
 * (txc_store_load_after: the session row and the rows after the last id
 * seen), over when it returns, so Hermes's WAL checkpoints are never held up
 * between polls; nothing but the new rows is read or kept, so memory stays
 * flat for hours.  A poll that fails (the store locked, being replaced) is
 * retried on the next tick with the store opened afresh.
 *
 * With --lineage, a session that ends in a compression is followed into its
 * continuation (Hermes's tip rule, txc_lineage_chain): one line says so, the rows
 * are read from the child's first, and its part begins as --lineage begins a
 * segment.  Hermes creates the child just after ending the parent; until it
 * appears (or the parent is opened again) the parent is polled on, for at most
 * WAIT_CHILD seconds.
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
#include "txc/lineage.h"

enum { WAIT_CHILD = 60 }; /* seconds to wait for a compressed session's continuation to appear */

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
	/* --lineage: the session followed now, by name (NULL: the one asked for), its place in the
	 * chain, the hand-off the next part begins with, and since when a continuation is awaited */
	char *current;
	struct txc_segment seg[2]; /* the session handed off from, the one handed to: strings in seg_arena */
	struct txc_arena *seg_arena;
	size_t segment;
	struct txc_buf followed; /* the names followed so far, each NUL-ended: a chain that loops ends */
	bool handed_off;
	double waiting_since;      /* monotonic seconds; 0: not waiting */
	struct txc_buf end_reason; /* the session's end_reason when it ended (said by the terminal view) */
};

static void follow_close(struct follow *f)
{
	if (f->open)
		cli_stores_close(&f->st);
	f->open = false;
	txc_sid_release(&f->id);
}

/* (asked only while the store is open) */
static const char *store_path(const struct follow *f)
{
	return f->st.v[f->which].path;
}

static enum txc_err follow_open(struct follow *f, struct txc_diag *d)
{
	enum txc_err rc = cli_stores_open(f->a, &f->st, d);
	f->open = true; /* closed by follow_close even when opening failed: it may have opened some */
	if (rc != TXC_OK)
		return rc;
	rc = cli_resolve(&f->st, f->current ? f->current : f->a->pos[0], &f->which, &f->id, d);
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

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The link of the session that continues id (its next in the chain Hermes resumes), or NULL;
 * *loops: none will, the chain's parent links form a cycle (cut before it comes back) */
static const struct txc_link *continuation(const struct cli_links *x, struct txc_str id, bool *loops)
{
	size_t k = txc_lineage_find(x->l, id);
	if (k == (size_t)-1)
		return NULL;
	struct txc_chain c;
	txc_lineage_chain(x->l, k, &c);
	const struct txc_link *next = NULL;
	for (size_t i = 0; i + 1 < c.n && next == NULL; i++)
		if (c.v[i] == k)
			next = &x->v[c.v[i + 1]];
	*loops = next == NULL && c.cycle;
	free(c.v);
	return next;
}

/* whether the session named id was followed already (a loop of parent links) */
static bool followed_before(const struct follow *f, struct txc_str id)
{
	for (size_t at = 0; at < f->followed.len; at += strlen(f->followed.buf + at) + 1)
		if (strlen(f->followed.buf + at) == id.len && memcmp(f->followed.buf + at, id.ptr, id.len) == 0)
			return true;
	return false;
}

/* Follow the child from here: the rows from its first, the hand-off its first part begins with. */
static void hand_off(struct follow *f, const struct txc_transcript *t, const struct txc_link *next)
{
	struct txc_arena *ar = txc_arena_new(0);
	struct txc_segment *from = &f->seg[0], *to = &f->seg[1];
	*from = (struct txc_segment){.id = txc_arena_str(ar, t->meta.id.ptr, t->meta.id.len),
				     .end_reason = txc_arena_str(ar, t->meta.end_reason.ptr, t->meta.end_reason.len),
				     .started = t->meta.started_at,
				     .ended = t->meta.ended_at,
				     .has_ended = t->meta.has_ended};
	*to = (struct txc_segment){.id = txc_arena_str(ar, next->id.ptr, next->id.len), .started = next->started};
	txc_arena_free(f->seg_arena);
	f->seg_arena = ar;
	free(f->current);
	f->current = txc_xmalloc(next->id.len + 1);
	memcpy(f->current, next->id.ptr, next->id.len);
	f->current[next->id.len] = '\0';
	txc_buf_add(&f->followed, t->meta.id.ptr, t->meta.id.len);
	txc_buf_addch(&f->followed, '\0');
	txc_sid_release(&f->id);
	f->id = next->sid;
	f->id.text = (struct txc_str){txc_xstrdup(f->current), next->id.len}; /* f->id owns its text */
	f->after = 0;
	f->segment++;
	f->handed_off = true;
	f->waiting_since = 0;
	cli_note("following the continuation %s (the session was compressed)", f->current);
}

/*
 * Where following goes when the session ends.  A session Hermes ended in a compression
 * continues in a child session: with --lineage, following goes on there (true).  The
 * child may not be there yet: the parent is polled on (true) until it is, or WAIT_CHILD
 * seconds have passed.  Otherwise following ends with the session.
 */
static bool follow_next(struct follow *f, const struct txc_transcript *t)
{
	struct txc_str why = t->meta.end_reason;
	if (!f->a->lineage || why.ptr == NULL || why.len != 11 || memcmp(why.ptr, "compression", 11) != 0)
		return false;
	struct cli_links x;
	struct txc_diag d = {0};
	const struct txc_link *next = NULL;
	bool loops = false;
	if (cli_links_open(f->st.v[f->which].s, &x, &d) == TXC_OK)
		next = continuation(&x, t->meta.id, &loops);
	bool same = next != NULL && next->id.len == t->meta.id.len &&
		    memcmp(next->id.ptr, t->meta.id.ptr, next->id.len) == 0;
	if (loops || (next != NULL && (same || followed_before(f, next->id)))) {
		cli_warn("the compression chain of %.*s loops (its parent links form a cycle); stopped following",
			 (int)t->meta.id.len, t->meta.id.ptr);
		cli_links_close(&x);
		return false;
	}
	if (next != NULL)
		hand_off(f, t, next);
	cli_links_close(&x);
	if (next != NULL)
		return true;
	if (f->waiting_since == 0)
		f->waiting_since = mono();
	if (mono() - f->waiting_since < WAIT_CHILD)
		return true;
	cli_warn("the session %.*s was compressed, but no continuation appeared in %d s; stopped following",
		 (int)t->meta.id.len, t->meta.id.ptr, WAIT_CHILD);
	return false;
}

/* One poll: read what is new, write what is ready; *ended when the session is over. */
static enum txc_err poll_once(struct follow *f, struct txc_out *out, bool first, bool *ended, struct txc_diag *d)
{
	struct txc_transcript *t = NULL;
	int64_t last = f->after;
	struct txc_convert_req req = {.id = &f->id, .load_flags = f->flags, .redact = f->a->redact, .after = f->after};
	req.last = &last; /* the rows after the last read; --redact: every part, as convert does the whole */
	enum txc_err rc = txc_assemble(f->st.v[f->which].s, &req, &t, d);
	if (rc != TXC_OK)
		return rc;
	*ended = t->meta.has_ended;
	if (!*ended)
		f->waiting_since = 0;                           /* opened again: no longer waiting for a continuation */
	bool rows = (f->ops->caps & TXC_WCAP_NATIVE_ROWS) != 0; /* a row format: every row as it comes */
	size_t n = rows ? t->n_messages : ready(t, *ended), all = t->n_messages;
	/* a hand-off begins the next part with a message (a row format: at once, with the child's session line) */
	bool fresh = f->handed_off && (rows || n > 0);
	if (first || fresh || (rows ? last > f->after : n > 0)) {
		struct txc_write_part *part = f->a->w.part;
		part->begins = fresh ? &f->seg[1] : NULL;
		part->segment = f->segment;
		if (fresh && rows)
			part->continued = false; /* hermes: the child's session line, then its rows */
		t->n_messages = n;
		rc = f->ops->write(out, t, &f->a->w, d);
		t->n_messages = all;
		part->continued = true;
		part->begins = NULL;
		f->handed_off = false;
	}
	if (rows || n == all)
		f->after = last;
	else if (n > 0)
		f->after = t->messages[n - 1].row_id;
	if (*ended) {
		txc_buf_reset(&f->end_reason);
		cli_safe_text(&f->end_reason, t->meta.end_reason.ptr ? t->meta.end_reason.ptr : "",
			      t->meta.end_reason.len, true);
	}
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

/* the terminal view says why it stopped ("— session ended (user_exit) —"); a file format's output stays
 * the file it is */
static void say_ended(struct follow *f, struct txc_out *out)
{
	if (strcmp(f->ops->name, "terminal") != 0)
		return;
	if (f->end_reason.len > 60) /* a reason, not a text; cut between characters */
		for (f->end_reason.len = 60; ((unsigned char)f->end_reason.buf[f->end_reason.len] & 0xC0) == 0x80;)
			f->end_reason.len--;
	if (f->end_reason.len)
		txc_buf_addf(&out->buf, "— session ended (%.*s) —\n", (int)f->end_reason.len, f->end_reason.buf);
	else
		txc_buf_addstr(&out->buf, "— session ended —\n");
	if (txc_out_flush(out) == 0)
		fflush(stdout);
}

static enum txc_err follow_loop(struct follow *f, struct txc_out *out, struct txc_diag *d)
{
	char *path = txc_xstrdup(store_path(f) ? store_path(f) : "");
	bool ended = false, first = true;
	enum txc_err rc = TXC_OK;
	while (!stop_requested) {
		struct txc_diag pd = {0};
		enum txc_err prc = f->open ? TXC_OK : follow_open(f, &pd);
		bool polled = prc == TXC_OK; /* the store opened and the session named in it: f->id is set */
		if (polled)
			prc = poll_once(f, out, first, &ended, first ? d : &pd);
		if (prc == TXC_OK) {
			f->failures = 0;
		} else if (first || out->err != 0) { /* the session cannot be shown, or stdout is gone */
			rc = prc;
			if (!first)
				*d = pd;
			break;
		} else if (polled && prc == TXC_E_NOTFOUND) {
			/* The store was read and has no row for the session: deleted, it will not come back.
			 * (A store that cannot be read, or one put in its place without the session, is a
			 * failing poll: retried, as the session may come back with the store.) */
			txc_diag_set(d, TXC_E_NOTFOUND,
				     "the session '%.*s' is no longer in '%s' (deleted); stopped following",
				     (int)f->id.text.len, f->id.text.ptr, path);
			rc = TXC_E_NOTFOUND;
			break;
		} else {
			poll_failed(f, &pd);
		}
		first = false;
		if (ended) {
			say_ended(f, out);
			break;
		}
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

/* --lineage: the Claude session every part writes is the chain's, keyed on its root as convert --lineage keys it */
static void chain_session(const struct follow *f, struct txc_write_part *part)
{
	struct cli_links x;
	struct txc_diag d = {0};
	size_t k =
		cli_links_open(f->st.v[f->which].s, &x, &d) == TXC_OK ? txc_lineage_find(x.l, f->id.text) : (size_t)-1;
	if (k != (size_t)-1) {
		struct txc_chain c;
		txc_lineage_chain(x.l, k, &c);
		const struct txc_link *root = &x.v[c.v[0]]; /* a chain has k at least */
		struct txc_transcript first = {0}, whole = {0};
		first.meta.id_kind = root->sid.kind;
		first.meta.id = root->id;
		struct txc_segment tip = {.id = f->id.text, .t = &first};
		whole.meta.id = f->id.text;
		whole.segments = &tip;
		whole.n_segments = 1;
		txc_install_session(f->ops, &whole, f->a->w.scope,
				    part->session); /* Claude Code's: the writer reads it */
		free(c.v);
	}
	cli_links_close(&x);
}

enum txc_err cli_follow(struct cli_args *a, const struct txc_writer_ops *ops, struct txc_diag *d)
{
	struct follow f = {.a = a,
			   .ops = ops,
			   .flags = cli_load_flags(a, ops),
			   .followed = TXC_BUF_INIT,
			   .end_reason = TXC_BUF_INIT};
	struct txc_write_part part = {0};
	enum txc_err rc = follow_open(&f, d);
	if (rc != TXC_OK) {
		follow_close(&f);
		return rc;
	}
	cli_write_opts_finish(a, false);
	cli_terminal_opts(&a->w, true);
	a->w.scope = cli_profile_scope(f.profile);
	a->w.part = &part;
	if (a->lineage)
		chain_session(&f, &part);
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
	free(f.current);
	txc_buf_release(&f.followed);
	txc_buf_release(&f.end_reason);
	txc_arena_free(f.seg_arena);
	return rc;
}
