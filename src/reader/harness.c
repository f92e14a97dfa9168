/* harness.c - the harness registry: the one list of the harnesses txc reads (harness.h). */
#include <stdlib.h>
#include <string.h>

#include "txc/harness.h"

/* Every harness, the default first: adding one is one word here (and its files in CMakeLists.txt). */
#define TXC_HARNESSES(X) X(hermes) X(claude) X(codex)

#define TXC_HARNESS_DECL(n) extern const struct txc_harness txc_harness_##n;
#define TXC_HARNESS_REF(n)  &txc_harness_##n,
TXC_HARNESSES(TXC_HARNESS_DECL)
static const struct txc_harness *const all[] = {TXC_HARNESSES(TXC_HARNESS_REF)};

const struct txc_harness *const *txc_harness_all(size_t *n)
{
	*n = sizeof(all) / sizeof(all[0]);
	return all;
}

const struct txc_harness *txc_harness_find(const char *name)
{
	for (size_t i = 0; name != NULL && i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

int txc_store_open_kind(struct txc_store **out, const char *harness, const char *path, struct txc_diag *d)
{
	const struct txc_harness *h = txc_harness_find(harness);
	*out = NULL;
	if (h == NULL) {
		txc_diag_set(d, TXC_E_USAGE, "no harness '%s'", harness);
		return TXC_E_USAGE;
	}
	return h->open(out, path, d);
}

unsigned txc_locate_given(const struct txc_locate *l)
{
	return (l->db ? TXC_LOC_DB : 0) | (l->home ? TXC_LOC_HOME : 0) | (l->profile ? TXC_LOC_PROFILE : 0) |
	       (l->all_profiles ? TXC_LOC_ALL_PROFILES : 0) | (l->input ? TXC_LOC_INPUT : 0) |
	       (l->remote ? TXC_LOC_REMOTE : 0) | (l->skip_bad ? TXC_LOC_SKIP_BAD : 0) |
	       (l->token ? TXC_LOC_TOKEN : 0) | (l->timeout ? TXC_LOC_TIMEOUT : 0) | (l->legacy ? TXC_LOC_LEGACY : 0) |
	       (l->all_sources ? TXC_LOC_ALL_SOURCES : 0);
}

const struct txc_harness_source *txc_harness_source_of(const struct txc_harness *h, const struct txc_locate *l)
{
	unsigned given = txc_locate_given(l);
	for (size_t i = 0; i < h->n_sources; i++)
		if (given & h->sources[i].opt)
			return &h->sources[i];
	return NULL;
}

void txc_profile_stores_free(struct txc_profile_store *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].path);
	}
	free(v);
}
