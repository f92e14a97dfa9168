/* hermes_locate.h - private to src/reader: the parts of Hermes's registry entry (hermes_locate.c) that
 * hermes_sources.c holds: its other sources, its legacy folder, its profiles, its option rules. */
#ifndef TXC_READER_HERMES_LOCATE_H
#define TXC_READER_HERMES_LOCATE_H

#include "txc/harness.h"

extern const struct txc_harness_source txc_hermes_sources[2]; /* --input, --remote */
extern const struct txc_harness_folder txc_hermes_legacy_folder;
int txc_hermes_check(const struct txc_locate *l, struct txc_diag *d);
struct txc_profile_store *txc_hermes_profile_stores(const char *root_path, char **home, size_t *n);
char **txc_hermes_profile_names(const char *root_path, size_t *n);
/* A profile's name is [a-z0-9][a-z0-9_-]{0,63}; the names under <home>/profiles that are one, sorted
 * (*n of them, each malloc'd, the array too). */
bool txc_hermes_profile_ok(const char *name);
char **txc_hermes_profiles(const char *home, size_t *n);

#endif
