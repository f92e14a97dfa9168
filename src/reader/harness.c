/* harness.c - the harness registry: the one list of the harnesses txc reads (harness.h). */
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
