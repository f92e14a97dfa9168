/*
 * fuzz_json.c - libFuzzer target: an export file (`--input`) -> index ->
 * every session -> every writer.  The input is the file's bytes; it is read
 * once as it is and once with --skip-bad.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "txc/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-export", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (int skip_bad = 0; skip_bad < 2; skip_bad++) {
		struct txc_store *s;
		struct txc_diag d = {0};
		if (txc_store_open_file(&s, path, skip_bad, &d) != 0)
			continue;
		fuzz_check_store(s);
		txc_store_close(s);
	}
	close(fd);
	return 0;
}
