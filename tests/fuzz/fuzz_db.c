/* fuzz_db.c - libFuzzer target: a whole database image -> reader -> every writer. */
#include "fuzz_common.h"
#include "txc/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct txc_store *s;
	struct txc_diag d = {0};
	if (txc_store_open_image(&s, data, size, "fuzz.db", &d) != 0)
		return 0;
	fuzz_check_store(s);
	txc_store_close(s);
	return 0;
}
