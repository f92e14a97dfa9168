#!/bin/sh
# Trust cases of issue 18 for the Claude writer and what reaches a terminal: reused provider
# tool ids, usage spread over the records, image media types the API refuses, escapes on a TTY,
# and `convert --to hermes` streaming a big session in flat memory.
# usage: claude-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
"$mkdb" t.db "$src/fixtures/claude-trust.sql" || exit 1
command -v python3 > /dev/null || { echo "claude-tests: python3 is required"; exit 1; }

# --- reused tool ids (Kimi's functions.read_file:0 every turn, and "dup" twice in one turn) ---
expect_rc 0 "convert kimi" "$txc" convert kimi --to claude --db t.db
mv out.txt kimi.jsonl
json_ok kimi.jsonl && ok || bad "kimi: not strict JSON"
python3 - kimi.jsonl > py.txt 2>&1 <<'PY' && ok || bad "kimi tool ids: $(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
calls, results, prev = {}, [], None
for r in recs:
    c = r.get("message", {}).get("content")
    if not isinstance(c, list):
        continue
    for b in c:
        if b["type"] == "tool_use":
            assert b["id"] not in calls, "tool_use id %s written twice" % b["id"]
            calls[b["id"]] = (b["input"]["file_path"], id(r))
        if b["type"] == "tool_result":
            results.append((b["tool_use_id"], b["content"], prev))
    if r["type"] == "assistant":
        prev = id(r)
assert len(calls) == 6, "calls: %d, want 6" % len(calls)
assert len(results) == 6, "results: %d, want 6" % len(results)
assert len({t for t, _, _ in results}) == 6, "two results answer one call"
for tid, content, rec in results:
    path, call_rec = calls[tid]
    assert call_rec == rec, "result %s is not answering the previous assistant record" % tid
    assert path == "/" + content[-1].lower(), "%s bound to the call for %s" % (content, path)
PY
"$txc" convert kimi --to markdown --db t.db > kimi.md 2> err.txt && ok || bad "kimi markdown: $(cat err.txt)"
[ "$(grep -c '^RESULT-' kimi.md)" = 6 ] && [ "$(grep '^RESULT-' kimi.md | tr -d '\n')" = RESULT-ARESULT-BRESULT-CRESULT-DRESULT-ERESULT-F ] &&
	ok || bad "kimi markdown: results not each once, in order"

# --- usage: the session totals (1.5 M tokens) spread so that no record claims them all ---
"$txc" convert long --to claude --db t.db > long.jsonl 2> err.txt && ok || bad "convert long: $(cat err.txt)"
python3 - long.jsonl > py.txt 2>&1 <<'PY' && ok || bad "long usage: $(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
asst = [r for r in recs if r.get("type") == "assistant"]
us = [r["message"]["usage"] for r in asst]
assert len(us) == 60, "records with usage: %d, want 60" % len(us)
want = {"input_tokens": 100003, "cache_read_input_tokens": 1300007,
        "cache_creation_input_tokens": 49999, "output_tokens": 50021}
for k, v in want.items():
    got = sum(u[k] for u in us)
    assert got == v, "sum of %s: %d, want %d" % (k, got, v)
claims = [sum(u.values()) for u in us]
assert claims[-1] < 100000, "the last record claims %d tokens of context" % claims[-1]
assert max(claims) < 100000, "a record claims %d tokens of context" % max(claims)
assert claims == sorted(claims) or max(claims) - min(claims) < 200, "claims do not grow with the conversation"
costs = [r["costUSD"] for r in asst]
assert costs[-1] == 12.3456789 and sum(costs) == 12.3456789, "costs: %r" % costs[-3:]
PY
# no record claims more context than the file holds up to it (4 bytes a token since the last
# boundary, plus 20,000 for the system prompt and tools Claude Code adds): Claude Code reads the
# last one as the conversation's size and answers "Prompt is too long" past its window.  A range
# makes any record the last; totals above what the records hold are scaled down to it
cat > claims.py <<'PY'
import json, sys
recs, held, worst = [], 0, []
for line in open(sys.argv[1], "rb"):
    r = json.loads(line)
    if r.get("subtype") == "compact_boundary":
        held = 0
    held += len(line)
    u = r.get("message", {}).get("usage") if r.get("type") == "assistant" else None
    if u is not None:
        assert min(u.values()) >= 0, "a negative share: %r" % u
        claim = sum(u.values())
        assert claim <= held // 4 + 20000, "a record claims %d tokens, the file holds %d before it" % (claim, held // 4)
        worst.append(claim)
assert worst, "no record with usage"
want = int(sys.argv[2]) if len(sys.argv) > 2 else None
assert want is None or len(worst) == want, "records with usage: %d, want %d" % (len(worst), want)
print(max(worst))
PY
for r in 'long#120 1' 'long#119-120 2' 'long#100-104 5' 'long#-3 3' 'heavy#8 1'; do
	set -- $r
	"$txc" convert "$1" --to claude --db t.db > r.jsonl 2> err.txt && ok || bad "convert $1: $(cat err.txt)"
	python3 claims.py r.jsonl $2 > py.txt 2>&1 && ok "$1: no record claims more than the file holds" || bad "$1: $(cat py.txt)"
done
for s in long heavy overflow; do
	"$txc" convert $s --to claude --db t.db > $s.jsonl 2> err.txt && ok || bad "convert $s: $(cat err.txt)"
	python3 claims.py $s.jsonl > py.txt 2>&1 && ok "$s: no record claims more than the file holds" || bad "$s: $(cat py.txt)"
done
# totals far above what the live conversation holds (history compacted away in Hermes): each
# record claims its conversation, the kinds keep their proportions, the cost stays whole
python3 - heavy.jsonl > py.txt 2>&1 <<'PY' && ok || bad "heavy usage: $(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
asst = [r for r in recs if r.get("type") == "assistant"]
us = [r["message"]["usage"] for r in asst]
assert len(us) == 3, "records with usage: %d, want 3" % len(us)
last = sum(us[-1].values())
assert 20000 <= last < 21000, "the last record claims %d tokens of context" % last
sums = {k: sum(u[k] for u in us) for k in us[0]}
assert 0.87 < sums["cache_read_input_tokens"] / sum(sums.values()) < 0.89, sums
assert sum(r["costUSD"] for r in asst) == 3.5, [r["costUSD"] for r in asst]
PY
# media types as clients spell them: image blocks under the API's names, not notes
"$txc" convert imgcase --to claude --db t.db > imgcase.jsonl 2> err.txt && ok || bad "convert imgcase: $(cat err.txt)"
python3 - imgcase.jsonl > py.txt 2>&1 <<'PY' && ok || bad "imgcase: $(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
blocks = [b for r in recs if r.get("type") == "user" for b in r["message"]["content"]]
types = [b["source"]["media_type"] for b in blocks if b["type"] == "image"]
assert types == ["image/png", "image/jpeg", "image/gif"], "image blocks: %r, all: %r" % (types, blocks)
PY
# totals whose sum passes 2^63: no negative share, no huge claim (checked above)
# a session without token counts writes no usage at all
"$txc" convert images --to claude --db t.db > images.jsonl 2> err.txt && ok || bad "convert images: $(cat err.txt)"
grep -q '"usage"' images.jsonl && bad "usage written for a session without token counts" || ok

# --- images: only png/jpeg/gif/webp with valid base64 are image blocks; others are text ---
python3 - images.jsonl > py.txt 2>&1 <<'PY' && ok || bad "images: $(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
blocks = [b for r in recs if r.get("type") == "user" for b in r["message"]["content"]]
imgs = [b for b in blocks if b["type"] == "image"]
assert [b["source"]["media_type"] for b in imgs] == ["image/webp"], "image blocks: %r" % imgs
texts = [b["text"] for b in blocks if b["type"] == "text"]
for what in ("image/svg+xml, 8 bytes", "image/png, 14 bytes", "not valid base64", "image/bmp, 4 bytes"):
    assert any(what in t for t in texts), "no note saying %r" % what
PY

# --- a terminal never gets transcript bytes raw; a pipe gets them exactly ---
bidi=$(printf '\342\200\256') csi=$(printf '\302\233')
"$txc" export --json --db t.db > pipe.jsonl 2> err.txt && grep -q "$bidi" pipe.jsonl && grep -q "$csi" pipe.jsonl &&
	ok || bad "export --json to a pipe is not byte-exact"
if command -v script > /dev/null; then
	for cmd in "list --json" "export --json" "export --to claude --install --dry-run" "artifacts esc --json" \
		"convert esc --to hermes"; do
		HOME=$work/home script -q -c "$txc $cmd --db t.db" /dev/null > tty.txt 2>&1
		grep -q '\\u202e' tty.txt && ok || bad "$cmd on a TTY: the bidi override is not shown escaped"
		if grep -q "$bidi" tty.txt || grep -q "$csi" tty.txt; then bad "$cmd on a TTY: raw bidi/C1 bytes"; else ok; fi
	done
else
	skip "TTY checks" "no script(1)"
fi

# --- convert --to hermes streams: a 300,000-row session in flat memory, same bytes as before ---
cat > big.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
  tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, finish_reason TEXT,
  active INTEGER NOT NULL DEFAULT 1);
INSERT INTO sessions VALUES ('huge', 'cli', 'm', 1767500000.0, 'Huge');
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 299999)
INSERT INTO messages (session_id, role, content, timestamp) SELECT 'huge', CASE i % 2 WHEN 0 THEN 'user' ELSE 'assistant' END,
  'message number ' || i || ' with some words in it', 1767500001.0 + i FROM n;
SQL
"$mkdb" big.db big.sql || exit 1
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%M' -o rss.txt "$txc" convert huge --to hermes --db big.db > huge.jsonl 2> err.txt && ok || bad "convert huge: $(cat err.txt)"
	rss=$(tail -n 1 rss.txt)
	[ "$rss" -lt 120000 ] && ok || bad "convert --to hermes of 300,000 rows peaked at $rss KB (it holds the session)"
else
	echo "claude-tests: SKIPPED the memory check (no /usr/bin/time)"
	"$txc" convert huge --to hermes --db big.db > huge.jsonl 2> err.txt && ok || bad "convert huge: $(cat err.txt)"
fi
[ "$(wc -l < huge.jsonl)" = 1 ] && [ "$(grep -o '"role": "' huge.jsonl | wc -l)" = 300000 ] && ok || bad "huge: not 300,000 rows on one line"
json_ok huge.jsonl && ok || bad "huge: not strict JSON"
expect_rc 3 "convert --to hermes of a missing session" "$txc" convert nosuch --to hermes --db big.db
one_line_err "convert --to hermes of a missing session"
[ -s out.txt ] && bad "a missing session printed output" || ok

# --- reused ids and big turns stay linear: 40,000 turns that all call "same" (each id took a
# scan of _2.._k: 17 s at 20,000) and one turn of 150,000 calls answered in reverse order (each
# result scanned the turn's calls: 6 s at 60,000).  Now each takes about a second; the timeout is generous.
awk -v n=40000 -v m=150000 'BEGIN {
	print "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL);"
	print "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_calls TEXT, tool_call_id TEXT, timestamp REAL NOT NULL);"
	print "INSERT INTO sessions VALUES (\"same\", \"cli\", 1700000000.0), (\"wide\", \"cli\", 1700000000.0);"
	print "BEGIN;"
	for (i = 1; i <= n; i++)
		printf "INSERT INTO messages VALUES (%d, \"same\", \"assistant\", NULL, %c[{\"id\": \"same\", \"type\": \"function\", \"function\": {\"name\": \"terminal\", \"arguments\": \"{}\"}}]%c, NULL, %d.0);\n", i, 39, 39, 1700000000 + i
	printf "INSERT INTO messages VALUES (%d, \"wide\", \"assistant\", NULL, %c[", n + 1, 39
	for (i = 1; i <= m; i++)
		printf "%s{\"id\": \"c%d\", \"type\": \"function\", \"function\": {\"name\": \"terminal\", \"arguments\": \"{}\"}}", (i > 1 ? ", " : ""), i
	printf "]%c, NULL, 1700000001.0);\n", 39
	for (i = m; i >= 1; i--)
		printf "INSERT INTO messages VALUES (%d, \"wide\", \"tool\", \"r%d\", NULL, \"c%d\", 1700000002.0);\n", n + 2 + m - i, i, i
	print "COMMIT;"
}' > linear.sql
"$mkdb" linear.db linear.sql || exit 1
timeout 20 "$txc" convert same --to claude --db linear.db > same.jsonl 2> err.txt && ok || bad "40,000 reused ids: not done in 20 s ($(cat err.txt))"
[ "$(grep -c '"id":"same_40000"' same.jsonl)" = 1 ] && [ "$(grep -c '"type":"tool_use"' same.jsonl)" = 40000 ] && ok || bad "reused ids: the last is not same_40000"
timeout 20 "$txc" convert wide --to claude --db linear.db > wide.jsonl 2> err.txt && ok || bad "150,000 calls answered in reverse: not done in 20 s ($(cat err.txt))"
grep -q '"tool_use_id":"c1","content":"r1"' wide.jsonl && [ "$(grep -o '"type":"tool_result"' wide.jsonl | wc -l)" = 150000 ] && ok || bad "wide turn: results not paired"

# --- a result whose id sorts after every call of a full turn (8 calls: the table's first size)
# reads nothing past the turn's calls (seen by ASan and valgrind) and stays an orphan ---
awk 'BEGIN {
	print "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL);"
	print "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_calls TEXT, tool_call_id TEXT, timestamp REAL NOT NULL);"
	print "INSERT INTO sessions VALUES (\"full\", \"cli\", 1700000000.0);"
	printf "INSERT INTO messages VALUES (1, \"full\", \"assistant\", NULL, %c[", 39
	for (i = 1; i <= 8; i++)
		printf "%s{\"id\": \"c%d\", \"type\": \"function\", \"function\": {\"name\": \"terminal\", \"arguments\": \"{}\"}}", (i > 1 ? ", " : ""), i
	printf "]%c, NULL, 1700000001.0);\n", 39
	print "INSERT INTO messages VALUES (2, \"full\", \"tool\", \"late\", NULL, \"zz\", 1700000002.0);"
	print "INSERT INTO messages VALUES (3, \"full\", \"tool\", \"r1\", NULL, \"c1\", 1700000003.0);"
}' > full.sql
"$mkdb" full.db full.sql || exit 1
expect_rc 0 "full turn, orphan after" "$txc" convert full --to claude --db full.db
grep -q 'id zz, without a matching call' out.txt && grep -q '"tool_use_id":"c1","content":"r1"' out.txt && ok || bad "full turn: $(head -c 300 err.txt)"

# --- calls without an id: the result that follows (also without one) is theirs; one never answered is
# closed before the next user turn, so the API sees every tool_use answered (claude-check FAILed both) ---
cat > noid.sql << 'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_calls TEXT, tool_call_id TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('noid', 'cli', 1700000000.0, '/tmp'), ('noans', 'cli', 1700000000.0, '/tmp');
INSERT INTO messages VALUES (1, 'noid', 'user', 'run it', NULL, NULL, 1700000000.5);
INSERT INTO messages VALUES (2, 'noid', 'assistant', NULL, '[{"id": "", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"ls\"}"}}]', NULL, 1700000001.0);
INSERT INTO messages VALUES (3, 'noid', 'tool', 'file.txt', NULL, '', 1700000002.0);
INSERT INTO messages VALUES (4, 'noid', 'assistant', 'done', NULL, NULL, 1700000003.0);
INSERT INTO messages VALUES (5, 'noans', 'user', 'run it', NULL, NULL, 1700000000.5);
INSERT INTO messages VALUES (6, 'noans', 'assistant', NULL, '[{"type": "function", "function": {"name": "terminal", "arguments": "{}"}}]', NULL, 1700000001.0);
INSERT INTO messages VALUES (7, 'noans', 'user', 'never mind', NULL, NULL, 1700000002.0);
SQL
"$mkdb" noid.db noid.sql || exit 1
expect_rc 0 "a call and its result without ids" "$txc" convert noid --to claude --db noid.db
grep -q '"tool_use_id":"toolu_txc_noid_1_0","content":"file.txt"' out.txt && ! grep -q 'without a matching call' out.txt &&
	ok "id-less result paired with its call" || bad "id-less result not paired: $(grep -o '"content":\[{"type":"t[^}]*' out.txt | tail -2)"
expect_rc 0 "an id-less call never answered" "$txc" convert noans --to claude --db noid.db
grep -q '"tool_use_id":"toolu_txc_noid_1_0"' out.txt && ok "id-less call closed for the API" || bad "id-less call left unanswered"
if [ -n "${CLAUDE_CHECK:-}" ]; then "$CLAUDE_CHECK" out.txt > /dev/null 2>&1 && ok "claude-check: id-less call" || bad "claude-check: id-less call"; fi

# --- a turn that is only reasoning, which --reasoning leaves out: not written (no empty text
#     block, which the API refuses and Claude Code drops), the records still one chain, the
#     session's usage still whole ---
cat > rs.sql <<'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL,
  input_tokens INTEGER, output_tokens INTEGER);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
  timestamp REAL NOT NULL, reasoning TEXT, reasoning_details TEXT);
INSERT INTO sessions VALUES ('rs', 'cli', 'claude-sonnet-4', 1700000000.0, 1000, 300);
INSERT INTO messages VALUES (1, 'rs', 'user', 'think first', 1700000001.0, NULL, NULL);
INSERT INTO messages VALUES (2, 'rs', 'assistant', '', 1700000002.0, 'only thinking here', NULL);
INSERT INTO messages VALUES (3, 'rs', 'user', 'and now?', 1700000003.0, NULL, NULL);
INSERT INTO messages VALUES (4, 'rs', 'assistant', '', 1700000004.0, NULL,
  '[{"type": "reasoning.text", "text": "", "signature": "EqQBCkYIBxgCKkD+withheld==", "format": "anthropic-claude-v1", "index": 0}]');
INSERT INTO messages VALUES (5, 'rs', 'user', 'last', 1700000005.0, NULL, NULL);
INSERT INTO messages VALUES (6, 'rs', 'assistant', 'done', 1700000006.0, NULL, NULL);
SQL
"$mkdb" rs.db rs.sql || exit 1
for mode in drop text keep auto default; do
	m="--reasoning $mode"; [ $mode = default ] && m=
	expect_rc 0 "reasoning-only turns, --reasoning $mode" "$txc" convert rs --to claude $m --db rs.db
	mv out.txt rs-$mode.jsonl
	python3 - rs-$mode.jsonl $mode > py.txt 2>&1 <<'PY' && ok "--reasoning $mode: no empty turn, one chain, usage whole" || bad "--reasoning $mode: $(cat py.txt)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
mode = sys.argv[2]
msgs = [r for r in recs if r.get("type") in ("user", "assistant")]
asst = [r for r in msgs if r["type"] == "assistant"]
for r in asst:
    c = r["message"]["content"]
    assert c and all(b.get("type") != "text" or b["text"].strip() for b in c), "empty content: %r" % c
# drop: both reasoning-only turns go; text: the one with text becomes text, the withheld one goes;
# keep: both stay (a thinking block, and the signed one with its signature)
# auto (the default): the signed one stays thinking, the unsigned one is text, so that the API takes
# the first request of a resumed session (it refuses a thinking block without a signature)
want = {"drop": 1, "text": 2, "keep": 3, "auto": 3, "default": 3}[mode]
assert len(asst) == want, "%d assistant records, want %d" % (len(asst), want)
blocks = [b for r in asst for b in r["message"]["content"]]
if mode in ("auto", "default"):
    assert all("signature" in b for b in blocks if b["type"] == "thinking"), "unsigned thinking: %r" % blocks
    assert any(b["type"] == "thinking" and b["signature"] == "EqQBCkYIBxgCKkD+withheld==" for b in blocks), blocks
    assert any(b["type"] == "text" and b["text"] == "Reasoning:\n\nonly thinking here" for b in blocks), blocks
prev = None
for r in msgs:
    assert r["parentUuid"] == prev, "record %s does not follow %s" % (r["uuid"], prev)
    prev = r["uuid"]
u = [r["message"]["usage"] for r in asst]
assert sum(x["input_tokens"] + x.get("cache_read_input_tokens", 0) + x.get("cache_creation_input_tokens", 0) for x in u) == 1000, u
assert sum(x["output_tokens"] for x in u) == 300, u
PY
	if [ -n "${CLAUDE_CHECK:-}" ]; then "$CLAUDE_CHECK" rs-$mode.jsonl > /dev/null 2>&1 && ok "claude-check: --reasoning $mode" || bad "claude-check: --reasoning $mode"; fi
done

summary claude-tests
[ "$fails" = 0 ]
