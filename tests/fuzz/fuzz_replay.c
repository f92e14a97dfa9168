/*
 * fuzz_replay.c - run a fuzz target over its corpus without libFuzzer, so that
 * ctest replays every saved input (crashers included) under the normal compiler.
 * Arguments are files or directories of files.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad += run_file(argv[i]);
			files++;
			continue;
		}
		DIR *dir = opendir(argv[i]);
		struct dirent *e;
		while (dir && (e = readdir(dir)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			bad += run_file(path);
			files++;
		}
		if (dir)
			closedir(dir);
	}
	printf("replayed %d inputs\n", files);
	return bad || files == 0 ? 1 : 0;
}
