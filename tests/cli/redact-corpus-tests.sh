#!/bin/sh
# --redact against Hermes v0.20.0's own --redact on the corpus of tests/redact-corpus/ (secrets of
# every kind in many contexts, and text that is none): nothing Hermes removed survives txc's
# --redact, every non-secret case is left byte for byte, and a second pass changes nothing (a
# redacted store read again: the same text, and no warning about txc's own markers).
# oracle.txt is the oracle's output, committed (tests/redact-corpus/make-oracle.sh writes it).
# usage: redact-corpus-tests.sh TXC MKDB TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
tool="$src/tools/redact-corpus.py" corpus="$src/redact-corpus/corpus.txt"

python3 "$tool" sql "$corpus" > c.sql && "$mkdb" c.db c.sql && ok "the corpus store" || bad "the corpus store"
n=$(wc -l < "$corpus")
[ "$n" -ge 500 ] && [ "$(wc -l < "$src/redact-corpus/oracle.txt")" = "$n" ] && ok "$n cases, one oracle line each" ||
	bad "the corpus has $n cases, the oracle $(wc -l < "$src/redact-corpus/oracle.txt") lines"

expect_rc 0 "export --json --redact" "$txc" export --json --redact --db c.db
cp out.txt r.jsonl
python3 "$tool" compare "$corpus" "$src/redact-corpus/oracle.txt" r.jsonl > cmp.txt && ok "nothing Hermes removes is kept" ||
	bad "against the oracle: $(grep -v '^[0-9]* secret cases' cmp.txt | head -5)"
echo "# $(tail -1 cmp.txt)"

expect_rc 0 "export --json, no --redact" "$txc" export --json --db c.db
python3 "$tool" texts out.txt > plain.txt && python3 "$tool" texts r.jsonl > red.txt
[ "$(wc -l < plain.txt)" = "$n" ] && ! cmp -s plain.txt red.txt && ok "the plain export has every case" || bad "the plain export"
expect_rc 0 "convert --to markdown, no --redact" "$txc" convert corpus --to markdown --db c.db
grep -q 'likely secret' err.txt && ok "a shared document warns" || bad "no warning about the corpus's secrets"

# a second pass: R(R(x)) == R(x), and a redacted store read as it is warns of nothing
python3 "$tool" sql-texts r.jsonl > r.sql && "$mkdb" r.db r.sql && ok "the redacted store" || bad "the redacted store"
expect_rc 0 "export --json --redact of the redacted store" "$txc" export --json --redact --db r.db
python3 "$tool" texts out.txt > red2.txt
cmp -s red.txt red2.txt && ok "a second --redact changes nothing" ||
	bad "a second --redact changed: $(diff red.txt red2.txt | head -6)"
expect_rc 0 "convert --to markdown of the redacted store" "$txc" convert corpus --to markdown --db r.db
grep -q 'likely secret' err.txt && bad "txc's own markers are taken for secrets: $(cat err.txt)" || ok "no warning about markers"
summary redact-corpus
