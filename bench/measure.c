/*
 * measure.c - run a command several times; print the median wall time and the
 * median peak RSS (getrusage of the child, KiB).  Output goes to /dev/null so
 * only the command's own work is measured.
 *
 * usage: txc-measure RUNS COMMAND [ARG...]   ->   "<median seconds> <median KiB>"
 *        txc-measure --cpu RUNS COMMAND...  ->   "<median seconds> <median KiB> <median CPU seconds>"
 * (CPU: user + system time of the command and every process it waited for, a -j export's workers)
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int cpu = argc > 1 && strcmp(argv[1], "--cpu") == 0;
	argv += cpu;
	argc -= cpu;
	if (argc < 3) {
		fprintf(stderr, "usage: txc-measure [--cpu] RUNS COMMAND [ARG...]\n");
		return 2;
	}
	int runs = atoi(argv[1]);
	if (runs < 1 || runs > 1000)
		runs = 1;
	double *secs = calloc((size_t)runs, sizeof(double)), *rss = calloc((size_t)runs, sizeof(double));
	double *cpus = calloc((size_t)runs, sizeof(double));
	for (int i = 0; i < runs; i++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid_t pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);
			dup2(fd, STDOUT_FILENO);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		int status;
		struct rusage ru;
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
			perror("txc-measure");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "txc-measure: '%s' failed (status %d)\n", argv[2], status);
			return 1;
		}
		secs[i] = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		rss[i] = (double)ru.ru_maxrss;
		cpus[i] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			  (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	}
	qsort(secs, (size_t)runs, sizeof(double), cmp_double);
	qsort(rss, (size_t)runs, sizeof(double), cmp_double);
	qsort(cpus, (size_t)runs, sizeof(double), cmp_double);
	double ms = runs % 2 ? secs[runs / 2] : (secs[runs / 2 - 1] + secs[runs / 2]) / 2;
	double mr = runs % 2 ? rss[runs / 2] : (rss[runs / 2 - 1] + rss[runs / 2]) / 2;
	double mc = runs % 2 ? cpus[runs / 2] : (cpus[runs / 2 - 1] + cpus[runs / 2]) / 2;
	if (cpu)
		printf("%.4f %.0f %.4f\n", ms, mr, mc);
	else
		printf("%.4f %.0f\n", ms, mr);
	free(cpus);
	free(secs);
	free(rss);
	return 0;
}
