/*
 * search.h - what a person types to `txc search`, made safe (model layer,
 * pure: no I/O).
 *
 * The query language is small on purpose: words (every one must match),
 * "exact phrases", -word or -"phrase" to exclude, word* for a prefix.
 * Nothing else has a meaning: FTS5 syntax a person did not mean (col:term,
 * C++, NEAR(...), ^, unbalanced quotes, a lone NOT) is punctuation, and
 * AND, OR and NOT are plain words.
 *
 * A word is matched as FTS5's default tokenizer (unicode61) would: the text
 * is split into tokens (letters and digits; every ASCII character that is
 * not one is a separator) and the word's tokens must follow each other in
 * that order, ASCII case folded, so `chat-send` finds "chat send" and
 * "Chat_Send".  A word holding CJK or symbols (emoji) is matched as a
 * substring instead, since unicode61 keeps a run of CJK as one token.
 *
 * txc_query_fts() gives an FTS5 expression that finds a superset of the
 * rows txc_query_match() accepts (the index only narrows; every hit is
 * checked in C), so an index and a scan give the same hits.
 */
#ifndef TXC_SEARCH_H
#define TXC_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "txc/diag.h"
#include "txc/util.h"

enum { TXC_QUERY_MAX = 4096 }; /* bytes: longer queries are refused, not cut */

struct txc_term {
	char *text; /* WORDS: the tokens joined by one space; TEXT: the text itself */
	size_t len;
	bool text_kind; /* a substring (CJK, symbols), not tokens */
	bool prefix;    /* word*: the last token is a prefix */
	bool negated;   /* -word: the row must not hold it */
};

struct txc_query {
	struct txc_term *v;
	size_t n, cap, n_positive, n_words; /* n_words: positive terms of tokens */
};

/* Parse the user's text (len bytes, NUL allowed); TXC_E_USAGE with d set when nothing is left to find. */
int txc_query_parse(const char *s, size_t len, struct txc_query *q, struct txc_diag *d);
void txc_query_free(struct txc_query *q);

/* An FTS5 MATCH expression for the positive word terms (malloc'd), or NULL when there are none. */
char *txc_query_fts(const struct txc_query *q);
/*
 * An FTS5 MATCH expression for a trigram index (tokenize='trigram': every
 * 3-character run, case folded), malloc'd: each positive term as quoted
 * substrings every match of it contains (a substring term whole, each token
 * of 3+ characters of a word term), `"` doubled; or NULL when some positive
 * term has no piece of 3+ characters (or holds a NUL), which trigram cannot
 * narrow by.  Again a superset: the rows are checked in C.
 */
char *txc_query_trigram(const struct txc_query *q);
/* The longest piece of term i every match of it contains, for a LIKE prefilter (points into the term). */
struct txc_str txc_query_needle(const struct txc_query *q, size_t i);

/* Whether term i occurs in text. */
bool txc_query_term_in(const struct txc_query *q, size_t i, const char *text, size_t len);
/*
 * Whether a row whose searchable columns are cols[0..n) matches: every
 * positive term in some column, no negated term in any.
 */
bool txc_query_match(const struct txc_query *q, const struct txc_str *cols, size_t n);

/*
 * Message numbers (ID#N): a hit's N is its row's place among the session's
 * rows of role user, assistant or tool that are active or compacted, in id
 * order, counting from 1; what `convert --include-compacted` shows, in that
 * order.  Rows rewound away have none.
 */
bool txc_query_is_message_role(struct txc_str role);

/* A one-line window of text around the first match, and the matches inside it. */
enum { TXC_SNIP_MARKS = 16 };
struct txc_snippet {
	size_t start, end; /* the window: byte offsets at UTF-8 boundaries */
	bool cut_left, cut_right;
	size_t n; /* marks */
	size_t mark[TXC_SNIP_MARKS][2];
};
/* width: about how many bytes of text to show. */
void txc_query_snippet(const struct txc_query *q, const char *text, size_t len, size_t width, struct txc_snippet *out);

#endif
