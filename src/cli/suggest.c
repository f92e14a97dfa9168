/*
 * suggest.c - "did you mean": the known word nearest a mistyped one (a command, an option, a
 * format or another choice), as git suggests a command: by edit distance, a transposition
 * counting one edit ("lsit"), and close enough only for a word of its length (one edit in a
 * short word, two in a longer one, so that "x" suggests nothing); failing that, a word the
 * typed one abbreviates, its letters in order from the same first letter ("md": markdown).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum { MAX_WORD = 64 };

/* optimal string alignment distance (Damerau-Levenshtein without re-edited substrings) */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
	size_t rows[3][MAX_WORD + 1]; /* rows i-2, i-1, i of the table, turned round */
	for (size_t j = 0; j <= m; j++)
		rows[0][j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i + 2) % 3], *prev2 = rows[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = prev[j - 1] + cost;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return n == 0 ? m : rows[n % 3][m];
}

/* word's letters in order in cand, from the same first letter */
static bool abbreviates(const char *word, const char *cand)
{
	if (word[0] == '\0' || word[0] != cand[0])
		return false;
	for (const char *p = word + 1; *p; p++) {
		cand = strchr(cand + 1, *p);
		if (cand == NULL)
			return false;
	}
	return true;
}

const char *cli_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t len = strlen(word), best = (size_t)-1, allowed = len < 5 ? 1 : 2;
	const char *pick = NULL;
	if (len > MAX_WORD)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t m = strlen(cands[i]);
		if (m > MAX_WORD || strcmp(word, cands[i]) == 0)
			continue;
		size_t d = distance(word, len, cands[i], m);
		size_t score = d <= allowed ? d : abbreviates(word, cands[i]) ? MAX_WORD + m : (size_t)-1;
		if (score < best) {
			best = score;
			pick = cands[i];
		}
	}
	return pick;
}

const char *cli_suggest_note(char out[CLI_NOTE_MAX], const char *word, const char *const *cands, size_t n)
{
	const char *s = cli_suggest(word, cands, n);
	out[0] = '\0';
	if (s != NULL)
		snprintf(out, CLI_NOTE_MAX, "; did you mean '%s'?", s);
	return out;
}
