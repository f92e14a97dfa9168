#!/bin/sh
# Writes oracle.txt beside it: Hermes v0.20.0's own `--redact` of corpus.txt (one JSON string a
# case), from the oracle in the steering repo's shared/tools (not part of txc: run by hand after
# editing gen-corpus.py; tests/cli/redact-corpus-tests.sh compares txc's --redact against it).
# usage: make-oracle.sh TXC_MKDB [HERMES_EXPORT_PY]
set -eu
mkdb=$1 oracle=${2:-/work/shared/tools/hermes-oracle/hermes_export.py}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen-corpus.py"
python3 "$here/../tools/redact-corpus.py" sql "$here/corpus.txt" > "$tmp/c.sql"
"$mkdb" "$tmp/c.db" "$tmp/c.sql"
python3 "$oracle" "$tmp/c.db" jsonl-all --redact > "$tmp/o.jsonl" 2> /dev/null
python3 "$here/../tools/redact-corpus.py" texts "$tmp/o.jsonl" > "$here/oracle.txt"
