/* sys.c - small wrappers over the system that several layers need. */
#include <time.h>

#include "txc/util.h"

void txc_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}
