/*
 * measure.c - run a command several times; print the median wall time and the
 * median peak RSS (getrusage of the child, KiB).  Output goes to /dev/null so
 * only the command's own work is measured.
 *
 * usage: txc-measure RUNS COMMAND [ARG...]   ->   "<median seconds> <median KiB>"
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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
	if (argc < 3) {
		fprintf(stderr, "usage: txc-measure RUNS COMMAND [ARG...]\n");
		return 2;
	}
	int runs = atoi(argv[1]);
	if (runs < 1 || runs > 1000)
		runs = 1;
	double *secs = calloc((size_t)runs, sizeof(double)), *rss = calloc((size_t)runs, sizeof(double));
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
	}
	qsort(secs, (size_t)runs, sizeof(double), cmp_double);
	qsort(rss, (size_t)runs, sizeof(double), cmp_double);
	double ms = runs % 2 ? secs[runs / 2] : (secs[runs / 2 - 1] + secs[runs / 2]) / 2;
	double mr = runs % 2 ? rss[runs / 2] : (rss[runs / 2 - 1] + rss[runs / 2]) / 2;
	printf("%.4f %.0f\n", ms, mr);
	free(secs);
	free(rss);
	return 0;
}
