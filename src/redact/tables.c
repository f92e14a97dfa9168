/*
 * tables.c - what the pass looks up, built from the rules (rules.c) once, by txc_rd_init():
 * the byte classes, the rules by first byte, the two-byte pairs a shape can start with and the
 * 8-byte quick tests of each pair.  About 75 KiB, derived from the rule table so that a rule
 * added there needs nothing here; pthread_once guards the build, and nothing writes them after.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

struct txc_rd_tables txc_rd_tab;

static void cls_init(void)
{
	for (int c = 'A'; c <= 'Z'; c++)
		txc_rd_tab.cls[c] = C_UP;
	for (int c = 'a'; c <= 'z'; c++)
		txc_rd_tab.cls[c] = C_LO;
	for (int c = '0'; c <= '9'; c++)
		txc_rd_tab.cls[c] = C_DIG;
	txc_rd_tab.cls['='] = C_EQ;
	txc_rd_tab.cls['_'] = C_US, txc_rd_tab.cls['-'] = C_DASH, txc_rd_tab.cls['+'] = txc_rd_tab.cls['/'] = C_B64,
	txc_rd_tab.cls['.'] = C_DOT;
	txc_rd_tab.cls[' '] = txc_rd_tab.cls['\t'] = txc_rd_tab.cls['\n'] = txc_rd_tab.cls['\r'] =
		txc_rd_tab.cls['\f'] = txc_rd_tab.cls['\v'] = C_SPACE;
	for (const char *t = "{}[],:-+.eEtruefalsnNIiy \t\n\r0123456789"; *t; t++)
		txc_rd_tab.cls[(unsigned char)*t] |= C_JSON;
	txc_rd_tab.cls[','] |= C_OPEN, txc_rd_tab.cls['{'] |= C_OPEN, txc_rd_tab.cls['['] |= C_OPEN;
	for (const char *t = "=:?&-+"; *t; t++)
		txc_rd_tab.cls[(unsigned char)*t] |= C_TRIG;
	for (const char *t = "pstkcajbPSTKCAJB"; *t; t++)
		txc_rd_tab.cls[(unsigned char)*t] |= C_STEM;
}

static void rules_init(void)
{
	size_t n = 0;
	for (size_t i = 0; i < txc_rd_n_rules; i++)
		txc_rd_tab.plen[i] = (unsigned char)strlen(txc_rd_rules[i].pfx);
	for (int c = 0; c < 256; c++) {
		txc_rd_tab.first[c] = (unsigned short)n;
		for (size_t i = 0; i < txc_rd_n_rules; i++)
			if ((unsigned char)txc_rd_rules[i].pfx[0] == c)
				txc_rd_tab.by_first[n++] = (unsigned char)i;
	}
	txc_rd_tab.first[256] = (unsigned short)n;
	for (size_t i = 0; i < txc_rd_n_rules; i++) {
		unsigned char c0 = (unsigned char)txc_rd_rules[i].pfx[0], c1 = (unsigned char)txc_rd_rules[i].pfx[1];
		txc_rd_tab.second[c0][c1 >> 3] |= (unsigned char)(1u << (c1 & 7));
		txc_rd_tab.word_trigger[c0] = true;
	}
	for (const char *t = "ebMNOBd0123456789"; *t; t++)
		txc_rd_tab.word_trigger[(unsigned char)*t] = true;
	/* the pairs that can start the shapes without a prefix: eyJ, bot / bearer, data:, digits, Discord */
	static const char *const pairs[] = {"ey", "bo", "be", "bE", "Be", "BE", "da", "pa", NULL};
	for (int i = 0; pairs[i]; i++)
		txc_rd_tab.word_pair[(unsigned char)pairs[i][0]][(unsigned char)pairs[i][1] >> 3] |=
			(unsigned char)(1u << ((unsigned char)pairs[i][1] & 7));
	for (int c = 0; c < 256; c++)
		for (int d = 0; d < 256; d++) {
			bool on = (is((unsigned char)c, C_DIG) && is((unsigned char)d, C_DIG)) ||
				  ((c == 'M' || c == 'N' || c == 'O') && is((unsigned char)d, WORD)) ||
				  (txc_rd_tab.second[c][d >> 3] & (1u << (d & 7)));
			if (on)
				txc_rd_tab.word_pair[c][d >> 3] |= (unsigned char)(1u << (d & 7));
		}
}

/* the quick for lit's first 8 bytes; fold: its letters in any case */
static struct quick quick_of(const char *lit, bool fold)
{
	struct quick q = {0, 0, 0};
	for (unsigned k = 0; k < 8 && lit[k] != '\0'; k++) {
		unsigned char c = (unsigned char)lit[k];
		q.v |= (uint64_t)c << (8 * k);
		q.m |= (uint64_t)0xff << (8 * k);
		if (fold && c >= 'a' && c <= 'z')
			q.o |= (uint64_t)0x20 << (8 * k);
	}
	return q;
}

/* the slot of the pair c d: its conditions, shared with an earlier pair that has the same */
static unsigned char slot_for(unsigned char c, unsigned char d)
{
	struct quick q[TXC_RD_RULES_MAX + 4];
	size_t n = 0;
	unsigned char flags = 0;
	for (unsigned k = txc_rd_tab.first[c]; k < txc_rd_tab.first[c + 1];
	     k++) /* the rules whose prefix starts with c */
		if ((unsigned char)txc_rd_rules[txc_rd_tab.by_first[k]].pfx[1] == d)
			q[n++] = quick_of(txc_rd_rules[txc_rd_tab.by_first[k]].pfx, false);
	if (c == 'e' && d == 'y')
		q[n++] = quick_of("eyJ", false);
	if (c == 'b' && d == 'o')
		q[n++] = quick_of("bot", false);
	if (lower(c) == 'b' && lower(d) == 'e')
		q[n++] = quick_of("bearer ", true);
	if (c == 'd' && d == 'a')
		q[n++] = quick_of("data:", false);
	if (c == 'p' && d == 'a')
		q[n++] = quick_of("password", false);
	if (is(c, C_DIG) && is(d, C_DIG))
		flags |= Q_DIGITS;
	if ((c == 'M' || c == 'N' || c == 'O') && is(d, WORD))
		flags |= Q_DOT;
	for (size_t k = 0; k < txc_rd_tab.n_slots; k++)
		if (txc_rd_tab.slots[k].n == n && txc_rd_tab.slots[k].flags == flags &&
		    (n == 0 || memcmp(&txc_rd_tab.quicks[txc_rd_tab.slots[k].first], q, n * sizeof(q[0])) == 0))
			return (unsigned char)(k + 1);
	if (txc_rd_tab.n_slots == sizeof(txc_rd_tab.slots) / sizeof(txc_rd_tab.slots[0]) ||
	    txc_rd_tab.n_quicks + n > sizeof(txc_rd_tab.quicks) / sizeof(txc_rd_tab.quicks[0]))
		abort(); /* the tables above outgrew these: a programming error, seen by every test */
	txc_rd_tab.slots[txc_rd_tab.n_slots] =
		(struct slot){(unsigned short)txc_rd_tab.n_quicks, (unsigned short)n, flags};
	memcpy(&txc_rd_tab.quicks[txc_rd_tab.n_quicks], q, n * sizeof(q[0]));
	txc_rd_tab.n_quicks += n;
	return (unsigned char)++txc_rd_tab.n_slots;
}

static void slots_init(void)
{
	for (int c = 0; c < 256; c++)
		for (int d = 0; txc_rd_tab.word_trigger[c] && d < 256; d++)
			if (txc_rd_tab.word_pair[c][d >> 3] & (1u << (d & 7)))
				txc_rd_tab.pair_slot[c][d] = slot_for((unsigned char)c, (unsigned char)d);
}

static void build(void)
{
	cls_init();
	rules_init();
	slots_init();
}

void txc_rd_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT; /* built once, whoever calls first (threads too) */
	pthread_once(&once, build);
}
