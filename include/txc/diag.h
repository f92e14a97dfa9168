/*
 * diag.h - error codes, the one-line message a failing call leaves behind,
 * and the warnings a call reports while it goes on.
 *
 * Library layers return 0 or a negative txc_err and fill a txc_diag with facts
 * (what failed, where); they never name a command-line flag or format "txc:"
 * text.  Only the CLI prints: it words the message as "txc: error: <msg>",
 * adds advice by code (which flag would help), words the warnings, and turns
 * the code into an exit status.  A txc_diag is the caller's; nothing in it is
 * allocated.
 */
#ifndef TXC_DIAG_H
#define TXC_DIAG_H

#include <stddef.h>

enum txc_err {
	TXC_OK = 0,
	TXC_E_FAIL = -1,      /* exit 1: I/O, database, output */
	TXC_E_USAGE = -2,     /* exit 2 */
	TXC_E_NOTFOUND = -3,  /* exit 3: no such store or session */
	TXC_E_REFUSED = -4,   /* exit 4: a write into Hermes's store */
	TXC_E_BUSY = -5,      /* exit 1: locked by another process */
	TXC_E_AMBIGUOUS = -6, /* exit 2: a prefix names several sessions (hint: the candidates) */
	TXC_E_TIMEOUT = -7,   /* exit 1: a server did not answer in the time allowed */
	TXC_E_AUTH = -8,      /* exit 1: a server refused the credentials */
	TXC_E_BAD_LINE = -9   /* exit 1: a line of an export file is not a session */
};

/* What a warning reports; the CLI words it. */
enum txc_warn {
	TXC_W_SKIPPED_LINES,     /* where: the file; n: malformed lines skipped */
	TXC_W_PAGING_STOPPED,    /* where: a dashboard; n: sessions listed when its pages stopped bringing any */
	TXC_W_PAGE_LIMIT,        /* where: a dashboard; n: sessions listed when the page limit was reached */
	TXC_W_ODD_IDS,           /* where: a dashboard; n: sessions whose id cannot be put in a URL (skipped) */
	TXC_W_LEGACY_SKIPPED,    /* where: a legacy folder; n: session files not read (symbolic links, not regular) */
	TXC_W_LEGACY_UNREADABLE, /* where: why a legacy file cannot be read (left out); n: 1 */
	TXC_W_CUT_LINE,          /* where: a Claude Code file whose last line is unfinished (left out) */
	TXC_W_OTHER_BRANCH,  /* where: a Claude Code file; n: message records off the branch it resumes (left out) */
	TXC_W_KEPT_CHANGED,  /* where: a file of an archive that someone changed (kept, though txc would remove it) */
	TXC_W_CODEX_CUT,     /* where: a Codex rollout whose last line is unfinished (left out) */
	TXC_W_CODEX_NO_META, /* where: a Codex rollout without a session_meta record (read as it is) */
	TXC_W_CODEX_UNBOUND, /* where: a Codex rollout; n: tool outputs without an earlier call of their call_id */
	TXC_W_MANIFEST_REPLACED /* where: an archive's manifest; n: its first line not txc's (replaced: --force) */
};

struct txc_diag {
	enum txc_err code;
	char msg[1024];
	char hint[1024]; /* the candidates of an ambiguous prefix, one "  <id>\n" line each */
	/* Called for each warning when set (the CLI prints it); a call goes on either way. */
	void (*warn)(void *ctx, enum txc_warn w, const char *where, size_t n);
	void *warn_ctx;
};

void txc_diag_set(struct txc_diag *d, enum txc_err code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Report a warning through d->warn, if any. */
void txc_diag_warn(const struct txc_diag *d, enum txc_warn w, const char *where, size_t n);
int txc_diag_exit_code(enum txc_err code);
/* Cut s to at most len bytes at a UTF-8 character boundary (s[len] is readable); the new length. */
size_t txc_diag_cut(char *s, size_t len);

#endif
