/*
 * mkdb.c - build a SQLite database from SQL text (test fixtures, the demo home).
 * --keep-wal: close without the checkpoint SQLite makes on close, so that a WAL
 * store keeps its -wal (with the frames not yet checkpointed) and its -shm, as a
 * store Hermes is using has them.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int keep_wal = argc > 1 && strcmp(argv[1], "--keep-wal") == 0;
	argv += keep_wal, argc -= keep_wal;
	if (argc < 3) {
		fprintf(stderr, "usage: txc-mkdb [--keep-wal] OUT.db FILE.sql...\n");
		return 2;
	}
	sqlite3 *db;
	if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
		fprintf(stderr, "txc-mkdb: cannot create %s: %s\n", argv[1], sqlite3_errmsg(db));
		return 1;
	}
	if (keep_wal)
		sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
	for (int i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (f == NULL) {
			perror(argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		long n = ftell(f);
		fseek(f, 0, SEEK_SET);
		char *sql = malloc((size_t)n + 1);
		if (sql == NULL || fread(sql, 1, (size_t)n, f) != (size_t)n) {
			fprintf(stderr, "txc-mkdb: cannot read %s\n", argv[i]);
			return 1;
		}
		sql[n] = '\0';
		fclose(f);
		char *err = NULL;
		if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
			fprintf(stderr, "txc-mkdb: %s: %s\n", argv[i], err);
			return 1;
		}
		free(sql);
	}
	return sqlite3_close(db) == SQLITE_OK ? 0 : 1;
}
