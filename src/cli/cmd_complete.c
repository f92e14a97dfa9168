/*
 * cmd_complete.c - `txc __complete WHAT WORD [LINE...]`: the words a shell completion offers
 * that only the store knows (the scripts of `txc completions` call it; it is hidden).
 *
 * WHAT is sessions, profiles or sources; WORD the word being completed; LINE the words of the
 * command line, from which only the location options are read (--db, --home, --profile,
 * --from, --legacy, --all-sources, --all-profiles; "--opt VALUE" or "--opt=VALUE"): the rest
 * of the line may be half typed, and is never refused.  A WORD of HARNESS:PREFIX completes
 * that harness's sessions, each printed with its HARNESS: prefix.  Output: one candidate a
 * line, sessions as "ID<TAB>TITLE" (the title made one safe line); nothing, exit 0, when the
 * store cannot be read: a completion never prints an error into the user's line.  It reads
 * only the sessions' names (TXC_LIST_NAMES: id, title, source, start), never messages, newest first
 * (sorted in memory: the store's index walked was a seek a session).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "txc/harness.h"
#include "txc/strmap.h"

/* The location options on the line: only those that say where the sessions are. */
static const struct cli_opt *const located[] = {
	&cli_opt_db,     &cli_opt_home,        &cli_opt_profile,      &cli_opt_from,
	&cli_opt_legacy, &cli_opt_all_sources, &cli_opt_all_profiles,
};
#define N_LOCATED (sizeof(located) / sizeof(located[0]))

/* line[i] (with line[i + 1], its value): set in a when it is a location option; the words it used */
static int take_option(char **line, int n, int i, struct cli_args *a)
{
	const char *w = line[i];
	if (strncmp(w, "--", 2) != 0)
		return 1;
	for (size_t k = 0; k < N_LOCATED; k++) {
		const struct cli_opt *o = located[k];
		size_t len = strlen(o->name);
		if (strncmp(w + 2, o->name, len) != 0 || (w[2 + len] != '\0' && w[2 + len] != '='))
			continue;
		if (o->arg == NULL) {
			*(bool *)(void *)((char *)a + o->off) = true;
			return 1;
		}
		const char *v = w[2 + len] == '=' ? w + 3 + len : i + 1 < n ? line[i + 1] : NULL;
		if (v != NULL && (o != &cli_opt_from || txc_harness_find(v) != NULL))
			*(const char **)(void *)((char *)a + o->off) = v;
		return w[2 + len] == '=' ? 1 : 2;
	}
	return 1;
}

static void read_line(char **line, int n, struct cli_args *a)
{
	for (int i = 0; i < n;)
		i += take_option(line, n, i, a);
}

/* WORD's HARNESS: prefix, if it names one: a->store.from set, *word moved past it; its length */
static size_t harness_prefix(const char **word, struct cli_args *a)
{
	const char *colon = strchr(*word, ':');
	if (colon == NULL)
		return 0;
	size_t n;
	const struct txc_harness *const *hs = txc_harness_all(&n);
	for (size_t i = 0; i < n; i++)
		if (strlen(hs[i]->name) == (size_t)(colon - *word) && strncmp(*word, hs[i]->name, colon - *word) == 0) {
			a->store.from = hs[i]->name;
			*word = colon + 1;
			return strlen(hs[i]->name) + 1;
		}
	return 0;
}

/* a title as one line a shell shows: control characters, tabs and newlines become spaces */
static void put_title(struct txc_buf *out, struct txc_str t)
{
	size_t from = out->len;
	txc_buf_add(out, t.ptr, t.len); /* then the few bytes to replace (a byte at a time was 5%) */
	for (char *p = out->buf + from, *end = out->buf + out->len; p < end; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

/* every open store's brief listing, archived sessions too, through visit */
typedef void (*visit_fn)(void *ctx, const struct txc_session_info *s, bool twice);
static void each_session(struct cli_args *a, visit_fn visit, void *ctx)
{
	struct txc_diag d = {0};
	struct cli_stores st;
	if (cli_stores_open(a, &st, &d) == TXC_OK) {
		struct txc_arena *ar = txc_arena_new(0);
		for (size_t i = 0; i < st.n; i++) {
			const struct txc_session_info *v;
			size_t n;
			if (txc_store_sessions(st.v[i].s, TXC_LIST_ARCHIVED | TXC_LIST_BRIEF | TXC_LIST_NAMES, ar, &v,
					       &n, &d) != TXC_OK)
				continue;
			for (size_t k = 0; k < n; k++) /* twice: a session may be in two stores (--all-sources) */
				visit(ctx, &v[k], st.n > 1);
		}
		txc_arena_free(ar);
	}
	cli_stores_close(&st);
}

struct sessions_ctx {
	struct txc_buf out;
	const char *harness, *word; /* harness: the HARNESS: prefix printed before each id, word its rest */
	size_t harness_len, word_len;
	struct txc_strmap seen; /* a session in two stores (--all-sources) is offered once */
};

static void visit_session(void *ctx, const struct txc_session_info *s, bool twice)
{
	struct sessions_ctx *c = ctx;
	struct txc_str id = s->sid.text;
	bool added = true;
	if (id.len < c->word_len || memcmp(id.ptr, c->word, c->word_len) != 0)
		return;
	if (twice) /* (one store's ids are told apart already: numbered repeats) */
		txc_strmap_put(&c->seen, id.ptr, id.len, &added);
	if (!added)
		return;
	txc_buf_add(&c->out, c->harness, c->harness_len);
	txc_buf_add(&c->out, id.ptr, id.len);
	if (s->title.len > 0) {
		txc_buf_addch(&c->out, '\t');
		put_title(&c->out, s->title);
	}
	txc_buf_addch(&c->out, '\n');
}

static void sessions(struct cli_args *a, const char *word)
{
	struct sessions_ctx c = {.out = TXC_BUF_INIT, .harness = word, .seen = TXC_STRMAP_INIT};
	c.harness_len = harness_prefix(&word, a);
	c.word = word;
	c.word_len = strlen(word);
	each_session(a, visit_session, &c);
	fwrite(c.out.buf, 1, c.out.len, stdout);
	txc_buf_release(&c.out);
	txc_strmap_free(&c.seen);
}

struct sources_ctx {
	struct txc_buf out;
	struct txc_strmap seen;
};

static void visit_source(void *ctx, const struct txc_session_info *s, bool twice)
{
	(void)twice; /* sources repeat within a store too */
	struct sources_ctx *c = ctx;
	bool added;
	if (s->source.len == 0)
		return;
	txc_strmap_put(&c->seen, s->source.ptr, s->source.len, &added);
	if (added) {
		put_title(&c->out, s->source);
		txc_buf_addch(&c->out, '\n');
	}
}

/* the sources the store's sessions name, most recent first */
static void sources(struct cli_args *a)
{
	struct sources_ctx c = {TXC_BUF_INIT, TXC_STRMAP_INIT};
	each_session(a, visit_source, &c);
	fwrite(c.out.buf, 1, c.out.len, stdout);
	txc_buf_release(&c.out);
	txc_strmap_free(&c.seen);
}

/* the profiles of the home the line names, as the line's harness gives them ("default" first) */
static void profiles(const struct cli_args *a)
{
	size_t n;
	const struct txc_harness *h = txc_harness_find(a->store.from);
	if (h == NULL)
		h = txc_harness_all(&n)[0];
	if (h->profile_names == NULL)
		return;
	struct txc_diag d = {0};
	struct txc_locate l = {.home = a->store.home};
	char *path = h->locate(&l, &d);
	if (path == NULL)
		return;
	char **names = h->profile_names(path, &n);
	for (size_t i = 0; i < n; i++) {
		puts(names[i]);
		free(names[i]);
	}
	free(names);
	free(path);
}

static int run(int argc, char **argv)
{
	if (argc < 3)
		return cli_usage("__complete", "takes sessions, profiles or sources, the word, and the line");
	struct cli_args a;
	memset(&a, 0, sizeof(a));
	read_line(argv + 3, argc - 3, &a);
	if (strcmp(argv[1], "sessions") == 0)
		sessions(&a, argv[2]);
	else if (strcmp(argv[1], "sources") == 0)
		sources(&a);
	else if (strcmp(argv[1], "profiles") == 0)
		profiles(&a);
	else
		return cli_usage("__complete", "takes sessions, profiles or sources, not '%s'", argv[1]);
	return 0;
}

const struct cli_cmd_info cmd_complete = {
	.name = "__complete",
	.run = run,
	.flags = CLI_CMD_HIDDEN,
};
