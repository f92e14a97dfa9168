/*
 * fuzz_common.h - shared by the libFuzzer targets and their corpus replayer.
 *
 * fuzz_check_store() loads every session of an opened store (with and
 * without compacted history) and runs every writer over it with every
 * option that changes the code path, checking the one property that must
 * always hold: JSON outputs are valid UTF-8 JSON line by line and Markdown
 * is valid UTF-8.  A violation aborts, which the fuzzer reports as a crash.
 */
#ifndef TXC_FUZZ_COMMON_H
#define TXC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

struct txc_store;
void fuzz_check_store(struct txc_store *s);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
