#!/bin/sh
# The layer rule: only the reader talks to SQLite, only the CLI prints diagnostics and exits.
cd "$1" || exit 2
bad=0
for f in $(grep -l 'sqlite3.h' -r src | grep -v '^src/reader/'); do echo "sqlite3.h outside the reader: $f"; bad=1; done
for f in $(grep -l -E '\bexit\(|\bprintf\(|fprintf\(stderr' -r src/util src/model src/reader src/writer | grep -v 'src/util/alloc.c'); do echo "prints or exits outside the CLI: $f"; bad=1; done
for f in $(grep -l 'cJSON' -r src); do echo "cJSON in src (output must keep exact numbers): $f"; bad=1; done
for f in $(grep -l 'reader.h' -r src/writer src/model src/util); do echo "a writer or the model depends on the reader: $f"; bad=1; done
for f in $(grep -l 'sqlite3.h' -r src/reader | grep -v '^src/reader/hermes_db'); do echo "sqlite3.h outside the SQLite backend (hermes_db*): $f"; bad=1; done
for f in $(grep -l 'model_hermes.h' src/model/model.c src/writer/*.c | grep -v 'writer_hermes.c'); do echo "the generic model or a writer other than hermes knows Hermes's rows: $f"; bad=1; done
[ $bad = 0 ] && echo "layering: 1 passed, 0 failed"
exit $bad
