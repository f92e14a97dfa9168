#!/bin/sh
# `--to codex` (issue 29, output half): rollouts that Codex CLI 0.171.0 resumes.  The structural
# checks (tests/tools/codex-rollout-check.py: session_meta first with a UUID id, every output bound
# to an earlier unique call_id, images as data URLs, valid JSON a line, usage that does not make
# Codex compact) run everywhere; with CODEX_CHECK=/path/to/codex-check.sh each file is also resumed
# by the real Codex offline (../shared/tools/codex-check).
# usage: codex-out-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
command -v python3 > /dev/null || { echo "codex-out-tests: python3 is required"; exit 1; }
rollout_ok() { python3 "$src/tools/codex-rollout-check.py" "$@"; }
real_check() { # name file: the real Codex, when CODEX_CHECK names codex-check.sh
	[ -n "${CODEX_CHECK:-}" ] || return 0
	# a session without messages has nothing to resume (codex-check says so; --install refuses it)
	grep -q '"type":"response_item"' "$2" || return 0
	CHECK_QUIET=1 "$CODEX_CHECK" "$2" > check.txt 2>&1 && ok "codex-check: $1" || bad "codex-check: $1: $(head -3 check.txt)"
}
"$mkdb" t.db "$src/fixtures/claude-trust.sql" || exit 1
"$mkdb" f.db "$src/fixtures/features.sql" || exit 1
"$mkdb" l.db "$src/fixtures/lineage.sql" || exit 1

# --- every session of the fixtures: the invariants, and the same bytes on a second run ---
for db in t f; do
	for id in $("$txc" list --db $db.db --json 2> /dev/null | python3 -c 'import json,sys; [print(s["id"]) for s in json.load(sys.stdin) if s["id"].isidentifier()]'); do
		"$txc" convert "$id" --to codex --db $db.db > "$db-$id.jsonl" 2> err.txt || { bad "$db $id: $(cat err.txt)"; continue; }
		"$txc" convert "$id" --to codex --db $db.db > again.jsonl 2> /dev/null
		json_ok "$db-$id.jsonl" > /dev/null && rollout_ok "$db-$id.jsonl" > py.txt && ok "$db $id: a rollout Codex resumes" ||
			bad "$db $id: $(head -3 py.txt)"
		cmp -s "$db-$id.jsonl" again.jsonl && ok "$db $id: the same bytes twice" || bad "$db $id: bytes differ between runs"
		real_check "$db $id" "$db-$id.jsonl"
	done
done
[ -s t-kimi.jsonl ] && [ -s f-tools.jsonl ] && ok "the fixtures' sessions were listed" || bad "no kimi/tools session converted"

# --- the id: a UUID derived from the session, distinct for another session and for a range ---
"$txc" convert kimi#1-4 --to codex --db t.db > range.jsonl 2> err.txt && rollout_ok range.jsonl > py.txt &&
	ok "a range: a rollout" || bad "range: $(cat err.txt py.txt | head -3)"
real_check "range kimi#1-4" range.jsonl
python3 - t-kimi.jsonl t-long.jsonl range.jsonl > py.txt 2>&1 <<'PY' && ok "ids: one per session and range" || bad "ids: $(cat py.txt)"
import json, sys
ids = [json.loads(open(f).readline())["payload"]["id"] for f in sys.argv[1:]]
assert len(set(ids)) == 3, ids
assert ids[0] == "8c042766-8d84-5194-83d8-67c10f922962", ids[0]  # stable across versions: changing it orphans installs
PY

# --- reused provider tool ids: each result bound to its own call, in the order of the calls ---
python3 - t-kimi.jsonl > py.txt 2>&1 <<'PY' && ok "kimi: reused ids renamed, results bound in order" || bad "kimi: $(cat py.txt)"
import json, sys
items = [json.loads(l)["payload"] for l in open(sys.argv[1])]
path = {i["call_id"]: json.loads(i["arguments"])["file_path"] for i in items if i.get("type") == "function_call"}
outs = [(i["call_id"], i["output"]) for i in items if i.get("type") == "function_call_output"]
assert len(path) == 6 and len(outs) == 6, (path, outs)
for cid, out in outs:
    assert path[cid] == "/" + out[-1].lower(), (cid, out, path[cid])
PY

# --- images: whole ones as data URLs of what the bytes are, cut ones as a note (Codex would put
#     its own placeholder in place of an image it cannot decode) ---
png=iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==
mkdir -p cc/projects/-tmp
s=7a1e0c55-0000-4000-8000-00000000000a
cat > cc/projects/-tmp/$s.jsonl <<JSONL
{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"$s","type":"user","timestamp":"2026-03-01T10:00:00.000Z","uuid":"11111111-0000-4000-8000-000000000001","message":{"role":"user","content":[{"type":"text","text":"Look at this and at red.png."},{"type":"image","source":{"type":"base64","media_type":"image/bmp","data":"$png"}}]}}
{"parentUuid":"11111111-0000-4000-8000-000000000001","isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"$s","type":"assistant","timestamp":"2026-03-01T10:00:01.000Z","uuid":"11111111-0000-4000-8000-000000000002","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/tmp/red.png"}}],"stop_reason":"tool_use"}}
{"parentUuid":"11111111-0000-4000-8000-000000000002","isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"$s","type":"user","timestamp":"2026-03-01T10:00:02.000Z","uuid":"11111111-0000-4000-8000-000000000003","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"$png"}}]}]}}
{"parentUuid":"11111111-0000-4000-8000-000000000003","isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"$s","type":"assistant","timestamp":"2026-03-01T10:00:03.000Z","uuid":"11111111-0000-4000-8000-000000000004","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Both are red squares."}],"stop_reason":"end_turn"}}
JSONL
CLAUDE_CONFIG_DIR=$work/cc "$txc" convert claude:$s --to codex > img.jsonl 2> err.txt && rollout_ok img.jsonl > py.txt &&
	ok "claude image session: a rollout" || bad "claude image session: $(cat err.txt py.txt | head -3)"
python3 - img.jsonl > py.txt 2>&1 <<'PY' && ok "images: data URLs by their bytes; a Read of an image is view_image" || bad "images: $(cat py.txt)"
import json, sys
items = [json.loads(l)["payload"] for l in open(sys.argv[1])]
user = [p for i in items if i.get("type") == "message" and i["role"] == "user" for p in i["content"]]
assert [p["type"] for p in user] == ["input_text", "input_image"], user
assert user[1]["image_url"].startswith("data:image/png;base64,iVBOR"), user[1]  # labelled bmp, png bytes
call = [i for i in items if i.get("type") == "function_call"][0]
assert call["name"] == "view_image" and json.loads(call["arguments"]) == {"path": "/tmp/red.png"}, call
out = [i for i in items if i.get("type") == "function_call_output"][0]
assert out["output"][0]["type"] == "input_image", out
PY
real_check "claude image session" img.jsonl
[ "$(grep -o 'bytes of base64 not carried over' t-imgcase.jsonl | wc -l)" = 3 ] && ! grep -q input_image t-imgcase.jsonl &&
	ok "cut images: a note each" || bad "cut images: not three notes"

# --- tools: Codex's own where the call means the same, else a function call with its arguments ---
python3 - f-tools.jsonl > py.txt 2>&1 <<'PY' && ok "tools: apply_patch for a new file and a V4A patch, others as calls" || bad "tools: $(cat py.txt)"
import json, sys
items = [json.loads(l)["payload"] for l in open(sys.argv[1])]
calls = {i["call_id"]: i for i in items if i.get("type") in ("function_call", "custom_tool_call")}
w = [c for c in calls.values() if c["type"] == "custom_tool_call"]
assert [c["name"] for c in w] == ["apply_patch", "apply_patch"], w
assert w[0]["input"] == "*** Begin Patch\n*** Add File: /repo/b.py\n+print(1)\n+```\n*** End Patch\n", w[0]["input"]
assert w[1]["input"].startswith("*** Begin Patch\n*** Update File: a.c"), w[1]
outs = [i for i in items if i.get("type") == "custom_tool_call_output"]
assert len(outs) == 2, outs
edit = calls["e1"]  # replace_all: no apply_patch says that
assert edit["name"] == "Edit" and json.loads(edit["arguments"])["replace_all"] is True, edit
assert calls["x1"]["arguments"] == '"not json"', calls["x1"]
PY

# --- usage: the session's totals, and a last request of 0 tokens: with the totals there (1.5 M)
#     Codex compacts before the first request (measured) ---
python3 - t-long.jsonl > py.txt 2>&1 <<'PY' && ok "usage: totals kept, no compaction claimed" || bad "usage: $(cat py.txt)"
import json, sys
tc = [json.loads(l)["payload"] for l in open(sys.argv[1]) if '"token_count"' in l]
assert len(tc) == 1, tc
info = tc[0]["info"]
assert info["total_token_usage"]["total_tokens"] == 1500030, info
assert info["last_token_usage"]["total_tokens"] == 0, info
PY

# --- --lineage: one rollout, each continuation behind Codex's compacted record ---
expect_rc 0 "lineage" "$txc" convert two_b --lineage --to codex --db l.db
mv out.txt lineage.jsonl
rollout_ok lineage.jsonl > py.txt && [ "$(grep -c '"type":"compacted"' lineage.jsonl)" = 1 ] &&
	ok "lineage: one compacted record" || bad "lineage: $(head -3 py.txt)"
real_check "lineage two_b" lineage.jsonl
expect_rc 0 "lineage five" "$txc" convert five_5 --lineage --to codex --db l.db
mv out.txt five.jsonl
rollout_ok five.jsonl > py.txt && [ "$(grep -c '"type":"compacted"' five.jsonl)" = 4 ] &&
	ok "lineage five: four compacted records" || bad "lineage five: $(head -3 py.txt; grep -c compacted five.jsonl)"
real_check "lineage five_5" five.jsonl

# --- a Claude Code session as the source ---
CLAUDE_CONFIG_DIR=$src/fixtures/claude-config "$txc" convert claude:5f3c2a10-0000-4000-8000-000000000001 --to codex \
	--include-compacted > claude.jsonl 2> err.txt && rollout_ok claude.jsonl > py.txt && grep -q '"name":"Bash","arguments":"{\\"command\\":\\"make test\\",\\"timeout_ms\\":120000' claude.jsonl &&
	[ "$(grep -c '"type":"compacted"' claude.jsonl)" = 1 ] &&
	ok "claude:ID --include-compacted: a rollout, its compaction a compacted record, a Bash call with a timeout kept as it is (exec_command has none)" || bad "claude:ID: $(cat err.txt py.txt | head -3)"
real_check "claude:ID" claude.jsonl

# --- --install: where Codex looks, the resume command; never over a rollout Codex continued ---
home=$work/codex-home
rollout=$home/sessions/2026/01/02/rollout-2026-01-02T03-04-05-8c042766-8d84-5194-83d8-67c10f922962.jsonl
CODEX_HOME=$home expect_rc 0 "install" "$txc" convert kimi --to codex --install --db t.db
[ -f "$rollout" ] && cmp -s "$rollout" t-kimi.jsonl && grep -q "^resume with: cd '/tmp' && codex resume 8c042766-8d84-5194-83d8-67c10f922962$" out.txt &&
	ok "install: the rollout under sessions/YYYY/MM/DD, the resume command" || bad "install: $(cat out.txt err.txt)"
CODEX_HOME=$home expect_rc 0 "install again" "$txc" convert kimi --to codex --install --db t.db
grep -q '^unchanged ' out.txt && ok "install again: unchanged" || bad "install again: $(cat out.txt)"
# what Codex appends when it resumes (its lines carry an ordinal; a turn starts with task_started)
printf '%s\n' '{"timestamp":"2026-12-02T03:18:39.903Z","ordinal":17,"type":"event_msg","payload":{"type":"task_started","turn_id":"t"}}' \
	'{"timestamp":"2026-12-02T03:18:39.956Z","ordinal":18,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"more"}]}}' >> "$rollout"
cp "$rollout" continued.jsonl
CODEX_HOME=$home expect_rc 0 "install over a continued rollout, nothing new" "$txc" convert kimi --to codex --install --db t.db
grep -q '(continued in Codex; nothing new to add)' out.txt && ok "continued, nothing new: said" || bad "continued: $(cat out.txt)"
sed -i '3s/Read three files\./Read three files!/' "$rollout" && cp "$rollout" continued.jsonl
CODEX_HOME=$home expect_rc 4 "install over a continued rollout that differs" "$txc" convert kimi --to codex --install --force --db t.db
grep -q 'was continued in Codex; txc never replaces it' err.txt && cmp -s "$rollout" continued.jsonl &&
	ok "continued rollout: refused, even with --force, untouched" || bad "continued: $(cat err.txt)"
CODEX_HOME=$home expect_rc 0 "install --as-new" "$txc" convert kimi --to codex --install --as-new --db t.db
[ "$(find "$home/sessions" -name 'rollout-*.jsonl' | wc -l)" = 2 ] && cmp -s "$rollout" continued.jsonl &&
	ok "--as-new: a second rollout beside it" || bad "--as-new: $(find "$home" -type f)"
mkdir -p "$home/sessions/2026/01/04"
echo '{"not":"txc"}' > "$home/sessions/2026/01/04/rollout-2026-01-04T04-13-20-711e4e5a-3e35-584b-b18e-2251a8e4225d.jsonl"
CODEX_HOME=$home expect_rc 1 "install over a file txc did not write" "$txc" convert long --to codex --install --db t.db
grep -q 'is not a session txc installed; pass --force' err.txt && ok "stranger: refused without --force" || bad "stranger: $(cat err.txt)"
CODEX_HOME=$home expect_rc 4 "-o into Codex's sessions" "$txc" convert kimi --to codex -o "$rollout" --force --db t.db
cmp -s "$rollout" continued.jsonl && ok "-o: the continued rollout untouched" || bad "-o replaced the rollout"
# bulk: every session installed, each where Codex looks
CODEX_HOME=$work/bulk-home expect_rc 0 "export --install" "$txc" export --to codex --install --db t.db
[ "$(find "$work/bulk-home/sessions" -name 'rollout-*.jsonl' | wc -l)" = 7 ] &&
	rollout_ok $(find "$work/bulk-home/sessions" -name 'rollout-*.jsonl') > py.txt && ok "export --install: 7 rollouts" ||
	bad "export --install: $(find "$work/bulk-home" -type f | wc -l) files; $(head -3 py.txt)"

# --- --children: each subagent a rollout of its own beside its parent, linked by session_meta.source ---
expect_rc 2 "codex --children on stdout" "$txc" convert dp --db l.db --to codex --children
one_line_err "codex --children on stdout"
kids=$work/kids-home
CODEX_HOME=$kids expect_rc 0 "install --children" "$txc" convert dp --db l.db --to codex --children --install
parent=$(find "$kids/sessions" -name 'rollout-*.jsonl' | xargs grep -l '"source":"cli"')
child=$(find "$kids/sessions" -name 'rollout-*.jsonl' | xargs grep -l '"thread_spawn"')
python3 - "$parent" "$child" > py.txt 2>&1 <<'PY' && ok "install --children: the child's rollout beside the parent's, linked to it" || bad "install --children: $(cat py.txt out.txt err.txt | head -5)"
import json, os, sys
p, c = (json.loads(open(f).readline())["payload"] for f in sys.argv[1:])
assert os.path.dirname(sys.argv[1]) == os.path.dirname(sys.argv[2]), sys.argv
assert c["source"] == {"subagent": {"thread_spawn": {"parent_thread_id": p["id"], "depth": 1}}}, c["source"]
assert c["id"] != p["id"] and sys.argv[2].endswith(c["id"] + ".jsonl") and c["cwd"] == p["cwd"], c
texts = [json.dumps(json.loads(l)) for l in open(sys.argv[2])]
assert any("Reading x.c." in t for t in texts), "the child's own turns"
PY
grep -q ' (subagent)$' out.txt && [ "$(wc -l < out.txt)" = 3 ] && ok "install --children: the child said" || bad "install --children: $(cat out.txt)"
rollout_ok "$parent" "$child" > py.txt && ok "install --children: both rollouts pass the check" || bad "children: $(head -3 py.txt)"
real_check "dp --children (parent)" "$parent"
real_check "dp --children (subagent)" "$child"
cp "$child" kid.jsonl
CODEX_HOME=$kids expect_rc 0 "install --children again" "$txc" convert dp --db l.db --to codex --children --install
[ "$(grep -c '^unchanged ' out.txt)" = 2 ] && cmp -s "$child" kid.jsonl && ok "install --children again: both unchanged" || bad "again: $(cat out.txt)"
# a subagent Codex continued is never replaced
printf '%s\n' '{"timestamp":"2026-12-02T03:18:39.903Z","ordinal":9,"type":"event_msg","payload":{"type":"task_started","turn_id":"t"}}' >> "$child"
sed -i '3s/"type":"response_item"/"type":"response_item" /' "$child" && cp "$child" kid.jsonl
CODEX_HOME=$kids expect_rc 4 "install --children over a continued subagent" "$txc" convert dp --db l.db --to codex --children --install --force
cmp -s "$child" kid.jsonl && grep -q 'was continued in Codex' err.txt && ok "continued subagent: refused, untouched" || bad "continued subagent: $(cat err.txt)"
CODEX_HOME=$kids expect_rc 0 "install --children --as-new" "$txc" convert dp --db l.db --to codex --children --install --as-new
python3 - $(find "$kids/sessions" -name 'rollout-*.jsonl') > py.txt 2>&1 <<'PY' && ok "--as-new --children: a new parent and a new child linked to it" || bad "--as-new: $(cat py.txt)"
import json, sys
metas = [json.loads(open(f).readline())["payload"] for f in sys.argv[1:]]
ids = {m["id"] for m in metas}
links = [m["source"]["subagent"]["thread_spawn"]["parent_thread_id"] for m in metas if isinstance(m["source"], dict)]
assert len(metas) == 4 and len(ids) == 4 and len(set(links)) == 2 and all(l in ids for l in links), metas
PY
# -o FILE: the children beside FILE, named as Codex names them
mkdir -p o && expect_rc 0 "-o --children" "$txc" convert dp --db l.db --to codex --children -o o/dp.jsonl
[ "$(ls o | wc -l)" = 2 ] && ls o | grep -q '^rollout-2026-01-09T23-06-43-.*\.jsonl$' && grep -q thread_spawn o/rollout-*.jsonl &&
	ok "-o --children: the subagent's rollout beside the file" || bad "-o --children: $(ls o)"
# bulk: the lineage store's two delegates are children of their parents, not sessions of their own
CODEX_HOME=$work/bulk-kids expect_rc 0 "export --install --children" "$txc" export --to codex --install --children --db l.db
[ "$(grep -rl '"thread_spawn"' "$work/bulk-kids/sessions" | wc -l)" = 2 ] &&
	rollout_ok $(find "$work/bulk-kids/sessions" -name 'rollout-*.jsonl') > py.txt && ok "export --install --children: 2 subagent rollouts" ||
	bad "export --children: $(find "$work/bulk-kids" -type f | wc -l) files; $(head -3 py.txt)"
expect_rc 2 "export --out --children --to codex" "$txc" export --to codex --children --out bulk-o --db l.db

# --- the structural check itself catches what Codex refuses ---
sed '1s/"id":"[^"]*"/"id":"not-a-uuid"/' t-kimi.jsonl > broken.jsonl
! rollout_ok broken.jsonl > /dev/null && ok "check: a non-UUID id fails" || bad "check: passed a non-UUID id"
grep -v '"call_id":"dup","output"' t-kimi.jsonl > broken.jsonl
! rollout_ok broken.jsonl > /dev/null && ok "check: an unanswered call fails" || bad "check: passed an unanswered call"

summary codex-out-tests
[ "$fails" = 0 ]
