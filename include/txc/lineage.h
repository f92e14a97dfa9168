/*
 * lineage.h - how sessions continue one another (lineage.c): compression
 * chains, branches, delegate children, and a chain joined into one
 * conversation.
 *
 * A reader gives each session's links (txc_store_links); these functions
 * only compute, never read a store.  The rules are Hermes v0.20.0's resume
 * rule (get_compression_tip): a continuation is a child of a session that
 * ended with end_reason 'compression' and is not a branch, a delegate or a
 * tool child; among several, one that itself compressed, then an open one,
 * then the newest.  Every walk keeps a seen-set, so a cycle ends it.
 *
 * Ownership: a lineage index borrows the links; chains and child lists are
 * malloc'd (free()).  A joined transcript owns the parts it was made from.
 */
#ifndef TXC_LINEAGE_H
#define TXC_LINEAGE_H

#include "txc/model.h"

/* One session's links, as its store records them. */
struct txc_link {
	struct txc_sid sid;        /* names it in its store */
	struct txc_str id;         /* the session's name (identity text) */
	struct txc_str parent;     /* parent_session_id as text; ptr NULL when none */
	struct txc_str end_reason; /* ptr NULL when none */
	struct txc_str title;
	double started, ended, last_active; /* NAN when unknown; ended NAN: still open */
	bool branch;                        /* model_config._branched_from */
	bool delegate;                      /* model_config._delegate_from, or source 'subagent' */
	bool tool;                          /* source 'tool' */
};

struct txc_lineage;
struct txc_lineage *txc_lineage_new(const struct txc_link *v, size_t n);
void txc_lineage_free(struct txc_lineage *l);
/* the index of the session named id, or (size_t)-1 */
size_t txc_lineage_find(const struct txc_lineage *l, struct txc_str id);

/*
 * The compression chain of session k, root first, to the tip Hermes resumes
 * from k: v[0..n) indexes (malloc'd).  cycle: the walk up met a session twice;
 * missing: the first session's parent_session_id names no session (the chain
 * starts there).
 */
struct txc_chain {
	size_t *v;
	size_t n;
	bool cycle;
	bool missing; /* v[0]'s parent is not in the store */
};
void txc_lineage_chain(const struct txc_lineage *l, size_t k, struct txc_chain *c);

/* The delegate children of session k (their parent is k; not k itself), oldest first: *out malloc'd. */
size_t txc_lineage_children(const struct txc_lineage *l, size_t k, size_t **out);

/*
 * For every session at once (list), in arrays of l's size: root[k] and tip[k],
 * the first and last session of txc_lineage_chain(k), walks shared between
 * the members of a chain.
 */
void txc_lineage_ends(const struct txc_lineage *l, size_t *root, size_t *tip);

/*
 * For `list --tree`: parent[k], the session k is drawn under: its chain's root
 * when it continues a compression (a cycle's root is its smallest id), else
 * its parent of any kind (branch, delegate, reset); (size_t)-1 for a root (no
 * parent, a missing one, or a member of a loop of parents).
 */
void txc_lineage_tree(const struct txc_lineage *l, size_t *parent);

/*
 * One conversation from the chain's transcripts, root first (n >= 1): messages
 * in order, a segment per part, meta of the last (the tip) with token counts and
 * costs summed.  Takes every part (freed with the result, or now if it fails).
 */
struct txc_transcript *txc_transcript_join(struct txc_transcript **parts, size_t n);

/*
 * Place a delegate child in t at the call that started it: a delegate_task call
 * whose result names the child's id, else the last such call before it started,
 * else after the last message.  child (may be NULL: only named) is taken.
 */
void txc_transcript_adopt(struct txc_transcript *t, struct txc_transcript *child, struct txc_str id,
			  struct txc_str title, double started);

#endif
