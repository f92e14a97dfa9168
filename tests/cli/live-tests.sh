#!/bin/sh
# A store another process is using: live appends in WAL mode, an exclusive lock.
# usage: live-tests.sh TXC GENSTORE LIVEWRITER SCHEMA WORK_DIR
set -u
txc=$1 gen=$2 live=$3 schema=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"

# 1. a writer appends to a WAL store while txc exports and converts
"$gen" live.db "$schema" 0 || exit 1
[ "$(od -An -tu1 -j18 -N2 live.db | tr -d ' ')" = 22 ] && ok || bad "store not in WAL mode (header bytes 18-19)"
"$live" append live.db 4 > writer.txt 2>&1 &
writer=$!
sleep 0.3
runs=0
while kill -0 $writer 2> /dev/null; do
	"$txc" export --json --db live.db > export.jsonl 2> err.txt || bad "export failed while writing: $(cat err.txt)"
	"$live" check export.jsonl > check.txt 2>&1 && grep -q '^[1-9][0-9]* sessions checked, 0 inconsistent$' check.txt && grep -q '^{"id": "big"' export.jsonl &&
		ok "export during writes: one snapshot per session" || bad "export mixed snapshots or lost sessions: $(cat check.txt)"
	"$txc" convert big --to claude --db live.db > big.jsonl 2> err.txt || bad "convert failed while writing: $(cat err.txt)"
	"$txc" convert big --to markdown --db live.db > big.md 2> err.txt || bad "markdown failed while writing"
	grep -q '^{"parentUuid"' big.jsonl && grep -q '^id: "big"$' big.md && ok "convert during writes: the session" || bad "convert during writes: no session"
	runs=$((runs + 1))
done
wait $writer && grep -q '^appended [1-9][0-9]* messages, 0 errors' writer.txt && ok "the writer was never blocked" || bad "the writer saw an error or a stall: $(cat writer.txt)"
echo "# live: $runs rounds of export+convert during: $(cat writer.txt)"
[ "$runs" -ge 2 ] && ok || bad "only $runs rounds ran"

# 2. an exclusive lock (rollback journal): wait the busy timeout, then one clear line, exit 1, no output
"$gen" locked.db "$schema" 0 || exit 1
"$live" lock locked.db 9 > lock.txt 2>&1 &
locker=$!
i=0; while [ "$(cat lock.txt)" != locked ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
start=$(date +%s)
"$txc" export --json --db locked.db > out.txt 2> err.txt; rc=$?
took=$(( $(date +%s) - start ))
[ $rc = 1 ] && ok || bad "locked store: exit $rc"
grep -q 'busy.*retry' err.txt && [ "$(wc -l < err.txt)" = 1 ] && ok || bad "locked store message: $(cat err.txt)"
[ ! -s out.txt ] && ok || bad "partial output from a locked store"
[ $took -ge 4 ] && [ $took -le 8 ] && ok || bad "waited $took s, want the 5 s busy timeout"
kill $locker 2> /dev/null; wait $locker 2> /dev/null

# 3. a WAL store in a folder txc cannot write, without its -shm file (as an unprivileged user):
#    read through a private snapshot copy, said on stderr, the store's bytes untouched
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	ro=$(mktemp -d /tmp/txc-ro-XXXXXX) && chmod 755 "$ro"
	"$gen" "$ro/state.db" "$schema" 0 || exit 1
	"$live" append "$ro/state.db" 5 > /dev/null 2>&1 &
	w=$!; sleep 1; kill -9 $w 2> /dev/null; wait $w 2> /dev/null
	rm -f "$ro/state.db-shm"
	[ -s "$ro/state.db-wal" ] && ok || bad "no WAL left to read"
	chmod 644 "$ro"/state.db*; chmod 555 "$ro"
	mkdir -p "$ro.tmp" && chmod 1777 "$ro.tmp"
	sum=$(cat "$ro"/state.db "$ro"/state.db-wal | cksum)
	TMPDIR="$ro.tmp" setpriv --reuid=65534 --regid=65534 --clear-groups "$txc" export --json --db "$ro/state.db" > ro.jsonl 2> err.txt
	rc=$?
	# a coverage build's counters cannot be written by that user: gcov says so; not txc's output
	grep -v '^profiling:.*gcda' err.txt > err2.txt; mv err2.txt err.txt
	[ $rc = 0 ] && ok || bad "read-only WAL store: exit $rc ($(cat err.txt))"
	grep -q 'snapshot copy' err.txt && [ "$(wc -l < err.txt)" = 1 ] && ok || bad "snapshot not said in one line: $(cat err.txt)"
	"$live" check ro.jsonl > check.txt && grep -q '^[1-9][0-9]* sessions checked, 0 inconsistent$' check.txt && ok "snapshot export consistent" || bad "snapshot export inconsistent"
	grep -q 'live message' ro.jsonl && ok || bad "rows that were only in the WAL are missing"
	[ "$(cat "$ro"/state.db "$ro"/state.db-wal | cksum)" = "$sum" ] && [ ! -e "$ro/state.db-shm" ] && ok || bad "the store changed"
	[ -z "$(ls "$ro.tmp")" ] && ok || bad "snapshot copy left behind: $(ls "$ro.tmp")"
	# the same folder with no -wal either (a WAL store Hermes closed cleanly): SQLite's
	# READONLY_CANTINIT, not CANTOPEN; read through the snapshot too, not refused
	chmod 755 "$ro"; rm -rf "$ro"/state.db*; "$gen" "$ro/state.db" "$schema" 0 || exit 1
	rm -f "$ro/state.db-wal" "$ro/state.db-shm"; chmod 644 "$ro/state.db"; chmod 555 "$ro"
	sum=$(cksum < "$ro/state.db")
	TMPDIR="$ro.tmp" setpriv --reuid=65534 --regid=65534 --clear-groups "$txc" list --db "$ro/state.db" > ro.txt 2> err.txt
	rc=$?
	grep -v '^profiling:.*gcda' err.txt > err2.txt; mv err2.txt err.txt
	[ $rc = 0 ] && [ -s ro.txt ] && ok || bad "read-only WAL store without -wal: exit $rc ($(cat err.txt))"
	grep -q 'snapshot copy' err.txt && ok || bad "no-WAL snapshot not said: $(cat err.txt)"
	[ "$(cksum < "$ro/state.db")" = "$sum" ] && [ ! -e "$ro/state.db-shm" ] && [ ! -e "$ro/state.db-wal" ] && ok || bad "the no-WAL store changed"
	# ended by a signal while it reads (a kill, a hangup, `| head`): the snapshot removed all the same
	for sig in TERM HUP; do
		rm -f "$ro.fifo" && mkfifo "$ro.fifo" && chmod 666 "$ro.fifo"
		sleep 20 < "$ro.fifo" &
		r=$!
		TMPDIR="$ro.tmp" setpriv --reuid=65534 --regid=65534 --clear-groups "$txc" export --json --db "$ro/state.db" \
			> "$ro.fifo" 2> /dev/null &
		p=$!
		n=0
		while [ -z "$(ls "$ro.tmp")" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
		made=$(ls "$ro.tmp")
		kill -$sig $p; wait $p; rc=$?
		kill $r 2> /dev/null; wait $r 2> /dev/null
		[ -n "$made" ] && [ -z "$(ls "$ro.tmp")" ] && ok "SIG$sig: snapshot removed (exit $rc)" ||
			bad "SIG$sig: snapshot ${made:-never made}, left: $(ls "$ro.tmp")"
	done
	rm -f "$ro.fifo"
	TMPDIR="$ro.tmp" setpriv --reuid=65534 --regid=65534 --clear-groups "$txc" export --json --db "$ro/state.db" 2> /dev/null |
		head -c 1 > /dev/null
	[ -z "$(ls "$ro.tmp")" ] && ok "| head: snapshot removed" || bad "| head: snapshot left: $(ls "$ro.tmp")"
	chmod 755 "$ro"; rm -rf "$ro" "$ro.tmp"
else
	skip "read-only WAL folder" "needs root and setpriv to become another user"
fi

summary live
[ "$fails" = 0 ]
