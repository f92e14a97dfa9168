/* jsoncheck.c - every line of each file must be strict JSON in valid UTF-8 (cJSON as an independent parser). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txc/util.h"

int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (f == NULL) {
			perror(argv[i]);
			return 2;
		}
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		long no = 0;
		while ((n = getline(&line, &cap, f)) > 0) {
			no++;
			if (!txc_utf8_valid(line, (size_t)n) || memchr(line, '\0', (size_t)n) != NULL) {
				fprintf(stderr, "%s:%ld: not UTF-8\n", argv[i], no);
				bad = 1;
				continue;
			}
			cJSON *v = cJSON_ParseWithLength(line, (size_t)n);
			if (v == NULL) {
				fprintf(stderr, "%s:%ld: not JSON\n", argv[i], no);
				bad = 1;
			}
			cJSON_Delete(v);
		}
		free(line);
		fclose(f);
	}
	return bad;
}
