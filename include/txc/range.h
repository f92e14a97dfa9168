/*
 * range.h - message ranges, `txc convert ID#RANGE` (model layer, pure: no I/O).
 *
 * A range names messages by their numbers (model.h: txc_message.number, the
 * ID#N of `txc search` and of the Markdown headings): N (one message), N-M,
 * N- (from N to the end), -N (the last N).  txc_model_slice() keeps those
 * messages of a loaded transcript, widened so that no tool call is parted
 * from its result(s), and every writer then writes only them.
 */
#ifndef TXC_RANGE_H
#define TXC_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "txc/diag.h"
#include "txc/model.h"

struct txc_range {
	int64_t first; /* from 1; 0 with tail */
	int64_t last;  /* 0: to the end */
	int64_t tail;  /* -N: the last N messages, else 0 */
};

/* The text after '#' (len bytes, NUL allowed): TXC_E_USAGE with d set unless it is one of the four forms. */
int txc_range_parse(const char *s, size_t len, struct txc_range *r, struct txc_diag *d);

/* "message 7" or "messages 7-9", for a message */
void txc_range_words(char out[64], int64_t first, int64_t last);

/* What txc_model_slice() did. */
struct txc_slice_info {
	int64_t asked_first, asked_last; /* the range as asked, against the session's numbers (-N made N-M) */
	int64_t first, last;             /* the numbers of the first and last message kept */
	int64_t n_numbers;               /* the session's highest message number */
	size_t n_live;                   /* messages kept that are not history archived by compaction */
	bool cut;                        /* an end past the last message was cut to it */
	bool widened;                    /* widened so that no tool call is parted from its result */
};

/*
 * Keep only t's messages in r: t->messages then points at the first kept one
 * (same arena), t->meta.range_first/last say which.  TXC_E_USAGE with d set
 * when r starts past the last message or holds nothing to show (the session
 * has no messages, or only rows without text are in it).
 */
int txc_model_slice(struct txc_transcript *t, const struct txc_range *r, struct txc_slice_info *info,
		    struct txc_diag *d);

#endif
