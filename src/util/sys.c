/* sys.c - small wrappers over the system that several layers need. */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "txc/util.h"

void txc_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* ---- files a signal must not leave (txc_tmp_guard) ---- */

enum { GUARD_SLOTS = 4, GUARD_PATHS = 4, GUARD_LEN = 4200 };
static char guard_path[GUARD_SLOTS][GUARD_PATHS][GUARD_LEN];
static volatile sig_atomic_t guard_used[GUARD_SLOTS];
static const int guard_signal[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

/* async-signal-safe: unlink and rmdir only, then the signal's own end (its exit status) */
static void guard_on_signal(int sig)
{
	for (int i = 0; i < GUARD_SLOTS; i++)
		for (int k = 0; guard_used[i] && k < GUARD_PATHS && guard_path[i][k][0]; k++)
			if (unlink(guard_path[i][k]) != 0)
				rmdir(guard_path[i][k]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_install(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	for (size_t i = 0; i < sizeof(guard_signal) / sizeof(guard_signal[0]); i++) {
		struct sigaction old, on = {.sa_handler = guard_on_signal};
		sigemptyset(&on.sa_mask);
		on.sa_flags = SA_RESTART;
		/* an ignored signal (nohup) or one a caller handles stays as it is */
		if (sigaction(guard_signal[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(guard_signal[i], &on, NULL);
	}
}

int txc_tmp_guard(const char *const *paths)
{
	size_t n = 0;
	while (paths[n] != NULL)
		if (n == GUARD_PATHS || strlen(paths[n++]) >= GUARD_LEN)
			return -1;
	for (int i = 0; i < GUARD_SLOTS; i++) {
		if (guard_used[i])
			continue;
		for (size_t k = 0; k < GUARD_PATHS; k++)
			guard_path[i][k][0] = '\0';
		for (size_t k = 0; k < n; k++)
			memcpy(guard_path[i][k], paths[k], strlen(paths[k]) + 1);
		guard_install();
		guard_used[i] = 1; /* (last: a signal meanwhile sees a whole slot or none) */
		return i;
	}
	return -1;
}

void txc_tmp_unguard(int slot)
{
	if (slot >= 0 && slot < GUARD_SLOTS)
		guard_used[slot] = 0;
}
