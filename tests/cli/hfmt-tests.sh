#!/bin/sh
# --hermes-format: v0.20.0's export (byte for byte, its oracle's output) and Hermes 0.21's
# (hermes-current.md 3.1-3.3), chosen by auto from the source.  Goldens in golden/hermes-0.21/;
# every 0.21 one is also checked against tests/tools/hermes021.py, the reference's algorithm in
# Python itself (float(), round(), datetime.isoformat()), run on v0.20.0's export of the same store.
# usage: hfmt-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR   (UPDATE=1 rewrites the 0.21 goldens)
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
gold=$src/golden/hermes-0.21 ref=$src/tools/hermes021.py
"$mkdb" t.db "$src/fixtures/timings.sql" || exit 1
"$mkdb" x.db "$src/fixtures/timings.sql" "$gold/extra.sql" || exit 1
"$mkdb" cs.db "$src/golden/current-schema/state.sql" || exit 1
"$mkdb" us.db "$src/golden/upgraded-schema/state.sql" || exit 1
"$mkdb" hw.db "$src/golden/hermes-written/state.sql" || exit 1

golden() { # file: the output in out.txt is golden/hermes-0.21/file
	[ "${UPDATE:-0}" = 1 ] && cp out.txt "$gold/$1"
	cmp -s out.txt "$gold/$1" && ok "golden $1" || { bad "golden $1"; diff -u "$gold/$1" out.txt | cut -c1-300 | head -20; }
}
by_ref() { # db v020.jsonl file: hermes021.py makes the golden from v0.20.0's export
	python3 "$ref" "$1" "$2" > ref.txt 2> ref.err && cmp -s ref.txt "$gold/$3" && ok "$3 = the reference's algorithm" ||
		{ bad "$3 differs from hermes021.py: $(head -c 300 ref.err)"; diff ref.txt "$gold/$3" | cut -c1-300 | head -10; }
}

# --- 0.20: v0.20.0's oracle output of the timings fixture, byte for byte (auto is 0.21 here) ---
expect_rc 0 "timings 0.20" "$txc" export --json --db t.db --hermes-format 0.20
cmp -s out.txt "$gold/timings.v020.oracle.jsonl" && ok "0.20 = v0.20.0's oracle" || bad "0.20 differs from the oracle"
grep -q '"timings"' out.txt && bad "0.20 has timings" || ok "0.20 has no timings"

# --- 0.21: auto on stores whose columns a newer Hermes added, the same as asked ---
for c in t:timings x:extra cs:current-schema us:upgraded-schema; do
	db=${c%%:*}.db name=${c#*:}
	expect_rc 0 "$name auto" "$txc" export --json --db "$db"
	golden "$name.export-all.jsonl"
	cp out.txt auto.txt
	expect_rc 0 "$name 0.21" "$txc" export --json --db "$db" --hermes-format 0.21
	cmp -s out.txt auto.txt && ok "$name: auto is 0.21" || bad "$name: auto is not 0.21"
	"$txc" export --json --db "$db" --hermes-format 0.20 > "$name.v020.jsonl"
	by_ref "$db" "$name.v020.jsonl" "$name.export-all.jsonl"
done
json_ok "$gold"/*.jsonl && ok "goldens are strict JSON" || bad "goldens are not strict JSON"
# a store v0.20.0 wrote: auto is 0.20 (its golden is the oracle's); 0.21 when asked
expect_rc 0 "v0.20.0 store auto" "$txc" export --json --db hw.db
cmp -s out.txt "$src/golden/hermes-written/export-all.jsonl" && ok "v0.20.0 store: auto is 0.20" || bad "v0.20.0 store: auto is not 0.20"
expect_rc 0 "v0.20.0 store 0.21" "$txc" export --json --db hw.db --hermes-format 0.21
golden hermes-written.export-all.jsonl
by_ref hw.db "$src/golden/hermes-written/export-all.jsonl" hermes-written.export-all.jsonl

# --- the reference's test vector, and each edge, in the one-session export ---
expect_rc 0 "vec" "$txc" convert vec --db t.db --to hermes
golden timings.vec.jsonl
grep -q '"messages": \[.*\], "timings": {"source": "message_timestamps", .*"intervals": \[.*\]}}$' out.txt && ok "timings last, after messages" || bad "timings not last"
grep -q '"wall_clock_ms": 3500, "largest_gap_ms": 1750,' out.txt && ok "test vector: 3500 and 1750" || bad "test vector wall/largest"
[ "$(grep -o '"gap_ms": [0-9]*' out.txt | tr '\n' ' ')" = '"gap_ms": 1250 "gap_ms": 1750 "gap_ms": 500 ' ] && ok "test vector: gaps 1250/1750/500" || bad "test vector gaps: $(grep -o '"gap_ms": [0-9]*' out.txt)"
grep -q '"first_message_at": "1970-01-01T00:16:40+00:00", "last_message_at": "1970-01-01T00:16:43.500000+00:00"' out.txt && ok "ISO times" || bad "ISO times"
grep -q '"role_counts": {"user": 1, "assistant": 2, "tool": 1}, "tool_result_count": 1, "tool_calls_emitted": 2,' out.txt && ok "roles and calls" || bad "roles and calls"
grep -q 'display_identity\|display_order\|_compressed_summary' out.txt && bad "0.21 rows have display keys" || ok "0.21 rows: no display keys"
# x.5 ms gaps round half to even: 62.5 -> 62, 187.5 -> 188
expect_rc 0 "half" "$txc" convert half --db t.db --to hermes
grep -q '"wall_clock_ms": 250, "largest_gap_ms": 188,' out.txt && grep -q '"gap_ms": 62}' out.txt && ok "x.5 ms: half to even" || bad "x.5 ms rounding"
expect_rc 0 "notime" "$txc" convert notime --db t.db --to hermes
grep -q '"available": false, "complete": false, "unavailable_reason": "no_timestamped_messages", "message_timestamps": {"available": 0, "missing": 3}, "first_message_at": null, "last_message_at": null, "wall_clock_ms": null, "largest_gap_ms": null, "role_counts": {"unknown": 2, "user": 1}' out.txt &&
	ok "no timestamps" || bad "no timestamps"
# tool_calls: an object counts 1, [] and "" and null and text not JSON ([]) 0; '1_000' is float()'s 1000.0;
# a step back is gap 0; a time past year 9999 has no ISO (0.21 raises there)
expect_rc 0 "odd" "$txc" convert odd --db t.db --to hermes
grep -q '"tool_calls_emitted": 1,' out.txt && ok "tool_calls shapes" || bad "tool_calls shapes"
grep -q '"message_timestamps": {"available": 8, "missing": 0}, "first_message_at": "1970-01-01T00:16:40+00:00", "last_message_at": null, "wall_clock_ms": 999999999000000,' out.txt &&
	ok "text timestamp, far future" || bad "text timestamp, far future"
grep -q '"from_message_id": 12, "to_message_id": 13, "from_role": "assistant", "to_role": "assistant", "gap_ms": 0}' out.txt && ok "a step back: 0" || bad "a step back"
# bulk last_active: 0.21 takes only times inside its window (not the 1e12 row, not the text '1_000'),
# v0.20.0 SQLite's MAX (in which text sorts above every number)
grep '"id": "odd"' "$gold/timings.export-all.jsonl" | grep -q '"archived": 0, "last_active": 2001.0, "messages"' && ok "0.21 last_active: windowed" || bad "0.21 last_active"
grep '"id": "odd"' "$gold/timings.v020.oracle.jsonl" | grep -q '"last_active": "1_000", "messages"' && ok "0.20 last_active: SQLite's MAX" || bad "0.20 last_active"
expect_rc 0 "summary" "$txc" convert summary --db t.db --to hermes
grep -q '"archived": 0, "_reset_from": "vec", "_branched_from": "half", "messages": \[' out.txt && ok "_reset_from, _branched_from after the columns" || bad "_reset_from/_branched_from"
grep -q '"content": "\[summary\] earlier turns", [^{}]*"compacted": 0, "_compressed_summary": true}' out.txt && ok "_compressed_summary true, last" || bad "_compressed_summary"
[ "$(grep -o '_compressed_summary' out.txt | wc -l)" = 1 ] && ok "_compressed_summary absent when 0" || bad "_compressed_summary when 0"
grep -q 'rewound away' out.txt && bad "an inactive row exported" || ok "inactive rows left out (timings too)"
expect_rc 0 "branch" "$txc" convert branch --db t.db --to hermes
grep -q '"archived": 0, "_branched_from": "vec", "messages"' out.txt && ok "_reset_from null: absent" || bad "branch keys"
expect_rc 0 "empty" "$txc" convert empty --db t.db --to hermes
grep -q '"messages": \[\], "timings": {.*"missing": 0}.*"role_counts": {}, "tool_result_count": 0, "tool_calls_emitted": 0, "intervals": \[\]}}$' out.txt && ok "no messages" || bad "no messages"
# BLOBs on every row (display_identity) and in an unknown column: dropped; text there kept
expect_rc 0 "blobs" "$txc" convert vec --db x.db --to hermes
grep -q 'blob_hex\|display_identity' out.txt && bad "a BLOB printed" || ok "BLOBs dropped"
grep -q '"extra": "text stays"' out.txt && ok "unknown text column kept" || bad "unknown text column"
# infinite timestamps count as missing (0.21 crashes)
expect_rc 0 "inf" "$txc" convert inf --db x.db --to hermes
grep -q '"message_timestamps": {"available": 2, "missing": 2}, "first_message_at": "1970-01-01T01:40:10+00:00", "last_message_at": "1970-01-01T01:40:11.500000+00:00", "wall_clock_ms": 1500,' out.txt &&
	ok "inf: missing" || bad "inf timestamps"

# --- export files: auto is 0.21 when the file has timings; NaN counts as missing ---
"$txc" export --json --db t.db --hermes-format 0.21 > f021.jsonl
"$txc" export --json --db t.db --hermes-format 0.20 > f020.jsonl
expect_rc 0 "file 0.21 auto" "$txc" export --json --input f021.jsonl
sort out.txt > a.txt && sort f021.jsonl > b.txt # a file's sessions come in its own order
cmp -s a.txt b.txt && ok "0.21 file: auto is 0.21, the same bytes" || bad "0.21 file round trip"
expect_rc 0 "file 0.21 as 0.20" "$txc" convert summary --input f021.jsonl --to hermes --hermes-format 0.20
grep -q '"timings"\|"_reset_from": "vec", "_branched_from"' out.txt && bad "0.20 of a 0.21 file keeps 0.21's keys" || ok "0.20 of a 0.21 file: derived keys gone"
expect_rc 0 "file 0.20 auto" "$txc" export --json --input f020.jsonl
sort out.txt > a.txt && sort f020.jsonl > b.txt
cmp -s a.txt b.txt && ok "0.20 file: auto is 0.20" || bad "0.20 file round trip"
sed 's/"timestamp": 1001.25/"timestamp": NaN/' f020.jsonl > nan.jsonl.in # (not .jsonl: NaN is no JSON, and json.all checks every .jsonl)
expect_rc 0 "NaN" "$txc" convert vec --input nan.jsonl.in --to hermes --hermes-format 0.21
grep -q '"message_timestamps": {"available": 3, "missing": 1}, .*"wall_clock_ms": 3500, "largest_gap_ms": 3000,' out.txt && ok "NaN: missing" || bad "NaN timestamp"

# --lineage: each segment its own timings, the whole the last segment's (0.21 copies that segment)
python3 - "$src/tools" "$src/golden/lineage/two.lineage.021.hermes.jsonl" > py.txt 2>&1 <<'PY' && ok "lineage 0.21 timings = the reference's" || bad "lineage 0.21: $(cat py.txt)"
import json, sys
sys.path.insert(0, sys.argv[1])
import hermes021
d = json.loads(open(sys.argv[2], encoding="utf-8").read())
assert list(d)[-4:] == ["messages", "timings", "segments", "lineage_session_ids"], list(d)[-4:]
assert d["timings"] == d["segments"][-1]["timings"]
for s in d["segments"]:
    assert list(s)[-2:] == ["messages", "timings"] and s["timings"] == hermes021.timings(s["messages"]), s["id"]
PY

# a Claude Code session: auto is 0.20 (its golden), 0.21 adds timings of the rows txc makes of it
CLAUDE_CONFIG_DIR=$src/fixtures/claude-config
export CLAUDE_CONFIG_DIR
expect_rc 0 "claude auto" "$txc" convert claude:c7e --to hermes
cmp -s out.txt "$src/golden/claude-source/c.hermes.json" && ok "claude: auto is 0.20" || bad "claude: auto is not 0.20"
expect_rc 0 "claude 0.21" "$txc" convert claude:c7e --to hermes --hermes-format 0.21
grep -q '"messages": \[.*\], "timings": {"source": "message_timestamps", "available": true,' out.txt && ok "claude 0.21: timings" || bad "claude 0.21"

# --- bulk --out and --follow write the format too; a bad value is a usage error ---
expect_rc 0 "bulk 0.21" "$txc" export --db t.db --to hermes --out bulk
grep -q '"wall_clock_ms": 3500' bulk/vec*.jsonl && ok "bulk: 0.21" || bad "bulk not 0.21"
expect_rc 0 "bulk 0.20" "$txc" export --db t.db --to hermes --out bulk20 --hermes-format 0.20
grep -q '"timings"' bulk20/vec*.jsonl && bad "bulk 0.20 has timings" || ok "bulk: 0.20"
# another --hermes-format is another render: a second run rewrites the files, a third is up to date
expect_rc 0 "bulk 0.20 then 0.21" "$txc" export --db t.db --to hermes --out bulk20 --hermes-format 0.21
grep -q '"timings"' bulk20/vec*.jsonl && ok "bulk: rewritten as 0.21" || bad "bulk: still 0.20 after --hermes-format 0.21"
expect_rc 0 "bulk 0.21 again" "$txc" export --db t.db --to hermes --out bulk20 --hermes-format 0.21 --progress
grep -q ' 0 new, 0 updated, 7 unchanged' err.txt && ok "bulk: the same format is up to date" || bad "bulk again: $(tail -2 err.txt)"
expect_rc 2 "bad value" "$txc" export --json --db t.db --hermes-format 0.3
grep -q "^txc: error: --hermes-format takes auto, 0.20 or 0.21, not '0.3'" err.txt && ok || bad "bad value: $(cat err.txt)"
expect_rc 2 "markdown" "$txc" convert vec --db t.db --to markdown --hermes-format 0.21
grep -q "^txc: error: --hermes-format does not apply to --to markdown" err.txt && ok || bad "markdown: $(cat err.txt)"
# --follow: the session's line with its timings (the session has ended: the command returns)
expect_rc 0 "follow 0.21" "$txc" convert vec --db t.db --to hermes --follow
grep -q '"wall_clock_ms": 3500' out.txt && ok "follow: 0.21" || bad "follow not 0.21"
summary hfmt
