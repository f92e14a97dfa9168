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
/* Write n bytes of p to path (abort on failure). */
void fuzz_put_file(const char *path, const uint8_t *p, size_t n);
/* What the Claude writer makes of t, read back by the Claude Code reader, has t's tool calls in
 * its live assistant messages, in order (abort otherwise). */
struct txc_transcript;
void fuzz_claude_round_trip(const struct txc_transcript *t);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
