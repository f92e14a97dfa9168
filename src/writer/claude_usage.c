/* claude_usage.c - the session's token totals spread over the Claude records (claude_usage.h) */
#include <string.h>

#include "claude_usage.h"

#define USAGE_OVERHEAD 20000
#define IMAGE_BYTES    6400 /* an image counts as about 1,600 tokens */

/* v is never NULL: a call always has an input (emit_tool_use writes it), items are never NULL */
static int64_t json_bytes(const struct txc_json *v)
{
	int64_t n = (int64_t)v->s.len + 2;
	if (v->kind == TXC_JSON_ARRAY || v->kind == TXC_JSON_OBJECT)
		for (size_t i = 0; i < v->n; i++)
			n += json_bytes(v->items[i]) + (v->kind == TXC_JSON_OBJECT ? (int64_t)v->keys[i].len + 3 : 1);
	return n;
}

int64_t txc_claude_message_bytes(const struct txc_message *m)
{
	int64_t n = 0;
	for (size_t i = 0; i < m->n_blocks; i++) {
		const struct txc_block *b = &m->blocks[i];
		switch (b->kind) {
		case TXC_BLOCK_TEXT:
		case TXC_BLOCK_THINKING: n += b->replayed ? 0 : (int64_t)b->text.len; break;
		case TXC_BLOCK_TOOL_USE: n += (int64_t)b->name.len + json_bytes(b->input); break;
		case TXC_BLOCK_TOOL_RESULT: n += b->output ? json_bytes(b->output) : (int64_t)b->output_text.len; break;
		case TXC_BLOCK_IMAGE: n += IMAGE_BYTES; break;
		}
	}
	return n;
}

/* the weight of the next assistant record, after its own message was counted */
static int64_t usage_weight(const struct usage_split *u)
{
	return u->ctx_bytes / 4 + USAGE_OVERHEAD;
}

/* the session's totals (input, cache write, cache read, output); a negative count (a broken store) is none */
static void usage_totals(const struct txc_meta *m, int64_t total[4])
{
	const int64_t v[4] = {m->input_tokens, m->cache_write_tokens, m->cache_read_tokens, m->output_tokens};
	for (int k = 0; k < 4; k++)
		total[k] = v[k] > 0 ? v[k] : 0;
}

void txc_claude_usage_plan(struct usage_split *u, const struct txc_transcript *t, const bool *written,
			   const bool *bound)
{
	double tokens = 0; /* four totals near INT64_MAX would overflow an integer sum */
	memset(u, 0, sizeof(*u));
	for (size_t i = 0; i < t->n_messages; i++) {
		if (!written[i])
			continue;
		if (bound[i]) /* Claude Code sends only what follows a boundary */
			u->ctx_bytes = 0;
		u->ctx_bytes += txc_claude_message_bytes(&t->messages[i]);
		if (t->messages[i].role == TXC_ROLE_ASSISTANT)
			u->total_weight += usage_weight(u);
	}
	u->ctx_bytes = 0;
	usage_totals(&t->meta, u->total);
	for (int k = 0; k < 4; k++)
		tokens += (double)u->total[k];
	/* more tokens than weight: each kind keeps its part of the weight, floored (so the sum stays within it) */
	if (tokens > (double)u->total_weight)
		for (int k = 0; k < 4; k++)
			u->total[k] = (int64_t)((double)u->total[k] / tokens * (double)u->total_weight);
}

/* this record's share of each total: floor(total * done/all) minus what earlier records got */
void txc_claude_usage_take(struct usage_split *u, int64_t share[4])
{
	u->done_weight += usage_weight(u);
	for (int k = 0; k < 4; k++) {
		int64_t upto = u->total[k]; /* <= total_weight: the double below fits an int64 */
		if (u->done_weight < u->total_weight)
			upto = (int64_t)((double)u->total[k] * (double)u->done_weight / (double)u->total_weight);
		if (upto < u->given[k]) /* rounding never goes back */
			upto = u->given[k];
		if (upto > u->total[k])
			upto = u->total[k];
		share[k] = upto - u->given[k];
		u->given[k] = upto;
	}
}
