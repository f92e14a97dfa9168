/* walk.c - the rollout files under a Codex folder (codex.h): a bounded, sorted walk that follows no link. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codex.h"
#include "txc/util.h"

enum { MAX_DEPTH = 8 };

struct walk {
	struct txc_codex_file *v;
	size_t n;
	bool archived;
	void (*dir_cb)(void *ctx, const char *dir);
	void *ctx;
};

static bool is_rollout(const char *name)
{
	size_t n = strlen(name);
	return n > 14 && strncmp(name, "rollout-", 8) == 0 && strcmp(name + n - 6, ".jsonl") == 0;
}

static void walk_dir(struct walk *w, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (d == NULL)
		return;
	if (w->dir_cb != NULL)
		w->dir_cb(w->ctx, dir);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		struct txc_buf p = TXC_BUF_INIT;
		struct stat sb;
		txc_buf_addf(&p, "%s/%s", dir, e->d_name);
		if (lstat(p.buf, &sb) != 0) {
			txc_buf_release(&p);
			continue;
		}
		if (S_ISDIR(sb.st_mode) && depth < MAX_DEPTH) {
			walk_dir(w, p.buf, depth + 1);
		} else if (S_ISREG(sb.st_mode) && is_rollout(e->d_name)) {
			w->v = txc_xrealloc(w->v, (w->n + 1) * sizeof(*w->v));
			w->v[w->n++] = (struct txc_codex_file){txc_buf_detach(&p, NULL), w->archived};
			continue;
		}
		txc_buf_release(&p);
	}
	closedir(d);
}

static int cmp_path(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct txc_codex_file *)a)->path, ((const struct txc_codex_file *)b)->path);
}

struct txc_codex_file *txc_codex_files(const char *dir, bool archived, size_t *n,
				       void (*dir_cb)(void *ctx, const char *dir), void *ctx)
{
	struct walk w = {NULL, 0, archived, dir_cb, ctx};
	walk_dir(&w, dir, 0);
	if (w.n > 1)
		txc_sort(w.v, w.n, sizeof(*w.v), cmp_path, NULL);
	*n = w.n;
	return w.v;
}

void txc_codex_files_free(struct txc_codex_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}
