#!/bin/sh
# Codex CLI as a source (issue 29): `list codex`, `codex:ID`, `--from codex` over
# tests/fixtures/codex-home (a real session recorded with Codex CLI 0.171.0 by codex-check's
# make-session.sh, its base instructions trimmed; a hand-made rollout of every record kind; a
# hostile one; an archived one): listing and filters, ids and prefixes, every writer, search,
# view, ranges, --redact, artifacts, the guard over Codex's folders and the warnings.
# CLAUDE_CHECK=PATH (claude-check.sh) also resumes the Claude conversions in real Claude Code.
# usage: codex-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 jsoncheck=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
export TZ=UTC
unset HERMES_HOME CLAUDE_CONFIG_DIR
CODEX_HOME=$src/fixtures/codex-home
export CODEX_HOME
A=7d3a0c5e-0000-4000-8000-0000000000a1 B=b2e4f6a8-0000-4000-8000-0000000000b2
C=c3d5e7f9-0000-4000-8000-0000000000c3 R=01a234cd-6a60-7183-af75-8de5ddcc842e

# --- listing ---
expect_rc 0 "list codex" "$txc" list codex
[ "$(grep -c . out.txt)" = 4 ] && grep -q "$A.*Parser drops the last token" out.txt &&
	grep -q "$R.*What is in this folder? Use a shell command." out.txt && ! grep -q "$C" out.txt && ok ||
	bad "list: $(cat out.txt)"
grep -q "$A.*gpt-5.4" out.txt && ok "the model is the last turn_context's" || bad "list model: $(cat out.txt)"
grep -q 'hostile: \\x1b\[31mred' out.txt && ! grep -q "$(printf '\033')" out.txt && ok "a title's escapes never raw" ||
	bad "list: raw escapes"
for w in "skipped 2 malformed lines" "is unfinished (Codex still writing?)" "has no session_meta record" \
	"1 tool output of .* answers no earlier call"; do
	[ "$(grep -c "$w" err.txt)" = 1 ] && ok "hostile rollout warned once: $w" || bad "warning '$w': $(cat err.txt)"
done
expect_rc 0 "list --from codex is list codex" "$txc" list --from codex
grep -q "$A" out.txt && ok || bad "--from codex: $(cat out.txt)"
expect_rc 0 "list codex --archived" "$txc" list codex --archived
grep -q "$C.*An archived question" out.txt && ok || bad "--archived: $(cat out.txt)"
expect_rc 0 "list codex --json" "$txc" list codex --json
json_ok out.txt && ok || bad "list --json: not strict JSON"
grep -q "\"id\":\"$A\".*\"git_branch\":\"fix/parser\".*\"path\":\"$CODEX_HOME/sessions/2026/05/01/rollout-" out.txt &&
	ok || bad "list --json row: $(grep "$A" out.txt)"
expect_rc 0 "--title" "$txc" list codex --title parser
[ "$(grep -c . out.txt)" = 2 ] && grep -q "$A" out.txt && ok || bad "--title: $(cat out.txt)"
expect_rc 0 "--cwd from session_meta" "$txc" list codex --cwd /repo/widget
[ "$(grep -c . out.txt)" = 2 ] && grep -q "$A" out.txt && ok || bad "--cwd: $(cat out.txt)"
expect_rc 0 "--since" "$txc" list codex --since 2026-12-01
[ "$(grep -c . out.txt)" = 2 ] && grep -q "$R" out.txt && ok || bad "--since: $(cat out.txt)"
expect_rc 0 "no Codex folder: said, nothing listed" env CODEX_HOME="$work/none" "$txc" list codex
grep -q "warning: no Codex sessions at '$work/none' (set CODEX_HOME)" err.txt && [ ! -s out.txt ] && ok ||
	bad "no Codex folder: $(cat err.txt)"

# --- one session: ids, every record kind ---
expect_rc 0 "convert codex:FULL-UUID" "$txc" convert "codex:$A" --to markdown --detail full --utc --include-compacted
cp out.txt a.md
expect_rc 0 "convert codex:PREFIX" "$txc" convert codex:7d3 --to markdown --detail full --utc --include-compacted
cmp -s out.txt a.md && ok || bad "codex:7d3 differs from codex:$A"
expect_rc 0 "--from codex PREFIX" "$txc" convert 7d3 --from codex --to markdown --detail full --utc --include-compacted
cmp -s out.txt a.md && ok || bad "--from codex 7d3 differs"
for want in 'git_branch: "fix/parser"' 'cache_read: 5000' 'cache_write: 300' 'reasoning: 160' \
	'**Looking at the loop**' '**Bash** in `/repo/widget`' 'grep -n "for (" src/parse.c' \
	'**Bash** (timeout 60000 ms)' '1 test failed: last_token' '#7 · error' 'exec\_command' '"yield_time_ms": 1000' \
	'apply\_patch' '*** Begin Patch' '**web\_search**' 'off by one loop bound C' 'view\_image' \
	'"media_type": "image/png"' '![image 1](data:image/png;base64,' '*archived by compaction*' \
	'summary>The user asked why the parser dropped' '#22 · error' 'shall I create one?' '&lt;permissions instructions>'; do
	grep -qF -- "$want" a.md && ok "a.md keeps: $want" || bad "a.md lost: $want"
done
expect_rc 0 "markdown without compacted history" "$txc" convert codex:7d3 --to markdown --utc
! grep -q 'Looking at the loop' out.txt && grep -q 'Add a test for it' out.txt && ok || bad "compacted history shown"
expect_rc 0 "convert the real session" "$txc" convert "codex:$R" --to markdown --detail full --utc
for want in 'echo hello-from-tool && ls' 'hello-from-tool' 'I should look at the files first.' 'It is a blue square.' \
	'"path": "/tmp/codexcheck/' 'data:image/png;base64,'; do
	grep -qF -- "$want" out.txt && ok "real session keeps: $want" || bad "real session lost: $want"
done
expect_rc 0 "convert the hostile rollout" "$txc" convert "codex:$B" --to markdown --utc
grep -q 'still here' out.txt && grep -q 'an output whose call is not in the file' out.txt &&
	grep -q 'ghost_snapshot' out.txt && ok || bad "hostile: $(cat out.txt)"
expect_rc 3 "an unknown codex id" "$txc" convert codex:ffff --to markdown
one_line_err "unknown codex id"

# --- every writer ---
expect_rc 0 "--to hermes" "$txc" convert codex:7d3 --to hermes
json_ok out.txt && grep -q '"source": "codex-cli"' out.txt && grep -q '"tool_name": "terminal"' out.txt && ok ||
	bad "hermes: $(head -c 300 out.txt)"
expect_rc 0 "--to claude" "$txc" convert codex:7d3 --to claude -o a-claude.jsonl --include-compacted
json_ok a-claude.jsonl && grep -q '"name":"Bash","input":{"command":"ls tests"}' a-claude.jsonl &&
	grep -q '"name":"apply_patch"' a-claude.jsonl && grep -q '"text":"Reasoning:' a-claude.jsonl && ok || # unsigned: text (--reasoning auto)
	bad "claude: $(head -c 400 a-claude.jsonl)"
expect_rc 0 "real session --to claude" "$txc" convert "codex:$R" --to claude -o r-claude.jsonl
json_ok r-claude.jsonl && grep -q '"name":"Bash","input":{"command":"echo hello-from-tool && ls"}' r-claude.jsonl && ok ||
	bad "real claude: $(head -c 300 r-claude.jsonl)"
expect_rc 0 "--to html" "$txc" convert codex:7d3 --to html
grep -q 'Parser drops the last token' out.txt && ok || bad "html: no title"
expect_rc 0 "export --from codex --to markdown" "$txc" export --from codex --to markdown --out md
[ "$(find md -name '*.md' | wc -l)" -ge 3 ] && ok || bad "export: $(find md)"
expect_rc 0 "export --from codex --json" "$txc" export --from codex --json
json_ok out.txt && ok || bad "export --json: not JSON"

# --- Codex's developer messages are instructions to the model, not the user's words: every writer
#     says so (Codex keeps the role, Claude Code an isMeta record, Hermes a system row, documents a
#     heading of their own); the title and `--detail prompts` skip them ---
expect_rc 0 "developer --to codex" "$txc" convert codex:7d3 --to codex --include-compacted
grep -q '"role":"developer","content":\[{"type":"input_text","text":"<permissions instructions>read-only' out.txt &&
	! grep -q '"role":"user","content":\[{"type":"input_text","text":"<permissions instructions>' out.txt &&
	ok || bad "developer --to codex: $(grep -m1 'permissions' out.txt)"
grep -q '"isMeta":true,"message":{"role":"user","content":\[{"type":"text","text":"<permissions instructions>read-only' \
	a-claude.jsonl && [ "$(grep -c '"isMeta":true' a-claude.jsonl)" = 1 ] && ok "developer --to claude: isMeta" ||
	bad "developer --to claude: $(grep -m1 'permissions' a-claude.jsonl | head -c 300)"
# Codex -> Claude Code -> txc: txc's own isMeta records (version-5 uuids) come back as instructions;
# Claude Code's (a caveat with a random uuid, appended as Claude Code would) stay out as before
mkdir -p cc && expect_rc 0 "developer: install for Claude Code" env CLAUDE_CONFIG_DIR="$work/cc" "$txc" convert codex:7d3 \
	--to claude --install --include-compacted
cf=$(find cc/projects -name '*.jsonl') && cid=$(basename "$cf" .jsonl)
last=$(grep -o '"uuid":"[^"]*"' "$cf" | tail -n 1 | cut -d'"' -f4)
printf '{"parentUuid":"%s","isSidechain":false,"userType":"external","cwd":"/repo/widget","sessionId":"%s","version":"2.1.332","type":"user","uuid":"4b9d2c1e-8f3a-4c5d-9e6f-7a8b9c0d1e2f","timestamp":"2026-05-01T10:01:00.000Z","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat: local commands below</local-command-caveat>"}}\n' \
	"$last" "$cid" >> "$cf"
json_ok "$cf" && ok "the caveat appended is a record" || bad "appended caveat: $(tail -n 1 "$cf" | head -c 200)"
expect_rc 0 "developer read back --to codex" env CLAUDE_CONFIG_DIR="$work/cc" "$txc" convert "claude:$cid" --to codex \
	--include-compacted
grep -q '"role":"developer","content":\[{"type":"input_text","text":"<permissions instructions>read-only' out.txt &&
	! grep -q '"role":"user","content":\[{"type":"input_text","text":"<permissions instructions>' out.txt &&
	! grep -q 'local-command-caveat' out.txt && ok || bad "read back --to codex: $(grep -m1 'permissions' out.txt | head -c 300)"
expect_rc 0 "developer read back --to markdown" env CLAUDE_CONFIG_DIR="$work/cc" "$txc" convert "claude:$cid" \
	--to markdown --include-compacted
grep -q '^## #1 · Developer instructions · ' out.txt && grep -q 'read-only' out.txt && ! grep -q 'local-command-caveat' out.txt &&
	[ "$(grep -c 'Developer instructions' out.txt)" = 1 ] && ok || bad "read back --to markdown: $(grep -n '^## #[12] ' out.txt)"
expect_rc 0 "Claude Code's own caveat stays out" env CLAUDE_CONFIG_DIR="$src/fixtures/claude-config" "$txc" convert claude:5f3 \
	--to markdown --include-compacted
! grep -q 'local-command-caveat\|Developer instructions' out.txt && ok || bad "caveat: $(grep -n 'caveat' out.txt)"
expect_rc 0 "developer --to hermes" "$txc" convert "codex:$R" --to hermes
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["messages"]
dev = [r for r in rows if "<skills_instructions>" in str(r.get("content"))]
assert [r["role"] for r in dev] == ["system"], dev
' out.txt > py.txt 2>&1 && ok "developer --to hermes: a system row" || bad "developer --to hermes: $(tail -2 py.txt)"
grep -q '^## #1 · Developer instructions · ' a.md && ! grep -q '^## #1 · User' a.md && ok "markdown: Developer instructions" ||
	bad "markdown developer heading: $(grep -n '^## #1' a.md)"
expect_rc 0 "developer --to terminal" "$txc" convert codex:7d3 --to terminal --include-compacted --color never
grep -q '^#1 Developer instructions' out.txt && ok || bad "terminal developer heading: $(grep -m2 '^#[12] ' out.txt)"
expect_rc 0 "developer --to html" "$txc" convert codex:7d3 --to html --include-compacted
grep -q 'class="msg instructions compacted" id="m1" data-role="instructions"' out.txt &&
	grep -q '#1</a> · Developer instructions' out.txt && ok || bad "html developer: $(grep -o '<section [^>]* id="m1"[^>]*>' out.txt)"
expect_rc 0 "--detail prompts leaves instructions out" "$txc" convert "codex:$R" --to markdown --detail prompts
! grep -q 'Developer instructions\|skills_instructions' out.txt && grep -q 'Now look at the blue image' out.txt && ok ||
	bad "prompts: $(grep -n '^## ' out.txt)"
# system and developer through Claude Code: both are isMeta records; a system message's uuid is the
# one txc_claude_system_uuid recomputes from the record (sessionId, agentId, parentUuid), so the
# reader tells them apart again; a developer's keeps the uuid every record has
sd=$work/sd/sessions/2026/05/03 && mkdir -p "$sd"
S=5d0e0f00-0000-4000-8000-0000000000d5
{
	printf '{"timestamp":"2026-05-03T10:00:00.000Z","type":"session_meta","payload":{"id":"%s","timestamp":"2026-05-03T10:00:00.000Z","cwd":"/repo/roles","originator":"codex_cli_rs","cli_version":"0.171.0","source":"cli","model_provider":"openai"}}\n' "$S"
	for r in system:"You are terse." developer:"<permissions instructions>workspace-write" user:"Say hi." assistant:"Hi."; do
		t=input_text && [ "${r%%:*}" = assistant ] && t=output_text
		printf '{"timestamp":"2026-05-03T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"%s","content":[{"type":"%s","text":"%s"}]}}\n' "${r%%:*}" "$t" "${r#*:}"
	done
} > "$sd/rollout-2026-05-03T10-00-00-$S.jsonl"
mkdir -p cs && expect_rc 0 "system and developer: install for Claude Code" env CODEX_HOME="$work/sd" CLAUDE_CONFIG_DIR="$work/cs" \
	"$txc" convert "codex:$S" --to claude --install
sf=$(find cs/projects -name '*.jsonl') && sid=$(basename "$sf" .jsonl)
[ "$(grep -c '"isMeta":true' "$sf")" = 2 ] && ok "system and developer: two isMeta records" || bad "isMeta: $(grep -c isMeta "$sf")"
roles() { # FILE WANT: the rollout's messages as role:text, one a line, are WANT
	python3 -c '
import json, sys
items = [json.loads(l)["payload"] for l in open(sys.argv[1])]
print("\n".join("%s:%s" % (p["role"], p["content"][0]["text"]) for p in items if p.get("type") == "message"))
' "$1" > roles.txt && [ "$(cat roles.txt)" = "$2" ]
}
# Codex 0.171.0 sends no system message of a rollout it resumes (codex-check: "not sent: system
# text"), so --to codex writes a system message as a developer's
want_roles='developer:You are terse.
developer:<permissions instructions>workspace-write
user:Say hi.
assistant:Hi.'
expect_rc 0 "system --to codex" env CODEX_HOME="$work/sd" "$txc" convert "codex:$S" --to codex
roles out.txt "$want_roles" && ok "system --to codex: a developer message (Codex sends those)" || bad "roles: $(cat roles.txt)"
expect_rc 0 "system and developer read back --to codex" env CLAUDE_CONFIG_DIR="$work/cs" "$txc" convert "claude:$sid" --to codex
roles out.txt "$want_roles" && ok "Codex -> Claude Code -> Codex: both instructions, in order" || bad "roles: $(cat roles.txt)"
expect_rc 0 "system and developer read back --to markdown" env CLAUDE_CONFIG_DIR="$work/cs" "$txc" convert "claude:$sid" --to markdown
grep -q '^## #1 · System instructions · ' out.txt && grep -q '^## #2 · Developer instructions · ' out.txt &&
	ok "Codex -> Claude Code -> txc: system stays system, developer developer" ||
	bad "read back headings: $(grep -n '^## #' out.txt)"
# a record whose uuid is not the one recomputed (another session's copy, a hand edit) is a developer's
sed 's/"sessionId":"[^"]*"/"sessionId":"00000000-0000-4000-8000-000000000000"/' "$sf" > "cs/moved.jsonl"
mkdir -p cs2/projects/-repo-roles && mv cs/moved.jsonl "cs2/projects/-repo-roles/$sid.jsonl"
expect_rc 0 "a copied record" env CLAUDE_CONFIG_DIR="$work/cs2" "$txc" convert "claude:$sid" --to markdown
[ "$(grep -c '^## #[12] · Developer instructions' out.txt)" = 2 ] && ok "not txc's system uuid: read as a developer's" ||
	bad "copied: $(grep -n '^## #' out.txt)"
if [ -n "${CLAUDE_CHECK:-}" ]; then
	for f in a-claude.jsonl r-claude.jsonl "$sf"; do
		"$CLAUDE_CHECK" "$f" > cc.txt 2>&1 && ok "claude-check $f: $(grep PASS cc.txt)" || bad "claude-check $f: $(tail -5 cc.txt)"
	done
fi

# --- search, view, ranges, redact, artifacts ---
expect_rc 0 "search --from codex" "$txc" search --from codex 'last token'
grep -q "$A" out.txt && ok || bad "search: $(cat out.txt)"
expect_rc 0 "search --from codex in a tool output" "$txc" search --from codex hello-from-tool
grep -q "$R" out.txt && ok || bad "search output: $(cat out.txt)"
expect_rc 0 "search --from codex, no hit" "$txc" search --from codex zzyzzx
! grep -q "$A\|$R" out.txt && ok || bad "search: a hit for nothing: $(cat out.txt)"
expect_rc 0 "view codex:ID" "$txc" view codex:7d3
grep -q 'shall I create one' out.txt && ok || bad "view: $(head -5 out.txt)"
expect_rc 0 "a range codex:ID#20-23" "$txc" convert 'codex:7d3#20-23' --to markdown --utc
grep -q 'Add a test for it' out.txt && ! grep -q 'Why does the parser' out.txt && ok || bad "range: $(cat out.txt)"
mkdir -p sec/sessions/2026/06/01
tok='ghp_aB3dE6gH9jK2mN5p''Q8sT1vW4yZ7bC0eF3hJ6'
{
	printf '{"timestamp":"2026-06-01T08:00:00.000Z","type":"session_meta","payload":{"id":"d4000000-0000-4000-8000-0000000000d4","timestamp":"2026-06-01T08:00:00.000Z","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0"}}\n'
	printf '{"timestamp":"2026-06-01T08:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"my token is %s"}]}}\n' "$tok"
	printf '{"timestamp":"2026-06-01T08:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"echo %s\\"}","call_id":"c1"}}\n' "$tok"
	printf '{"timestamp":"2026-06-01T08:00:03.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"%s"}}\n' "$tok"
} > sec/sessions/2026/06/01/rollout-2026-06-01T08-00-00-d4000000-0000-4000-8000-0000000000d4.jsonl
for fmt in markdown claude hermes; do
	expect_rc 0 "--redact --to $fmt" env CODEX_HOME="$work/sec" "$txc" convert codex:d4 --to "$fmt" --redact
	! grep -q "$tok" out.txt && grep -q 'my token is' out.txt && ok || bad "redact $fmt: $(grep -c "$tok" out.txt) left"
done
expect_rc 0 "artifacts codex:ID" "$txc" artifacts codex:7d3 --json
json_ok out.txt && ok || bad "artifacts: $(cat out.txt)"

# --- the less common shapes: quoted argv, refusal, an image by URL, a string content, {content, success} ---
mkdir -p odd/sessions
{
	printf '{"timestamp":"2026-06-02T08:00:00.000Z","type":"session_meta","payload":{"id":"e5000000-0000-4000-8000-0000000000e5","timestamp":"2026-06-02T08:00:00.000Z","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0"}}\n'
	printf '\357\273\277\n'
	printf '{"timestamp":"2026-06-02T08:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":"plain string content"}}\n'
	printf '{"timestamp":"2026-06-02T08:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_image","image_url":"https://example.com/a.png"}]}}\n'
	printf '{"timestamp":"2026-06-02T08:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"I will not do that."}]}}\n'
	printf '{"timestamp":"2026-06-02T08:00:03.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\\"command\\":[\\"grep\\",\\"-n\\",\\"it'"'"'s here\\",\\"a b.txt\\"]}","call_id":"c1"}}\n'
	printf '{"timestamp":"2026-06-02T08:00:04.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":{"content":"denied by policy","success":false}}}\n'
	printf '{"timestamp":"2026-06-02T08:00:05.000Z","type":"response_item","payload":{"type":"function_call","name":"mcp__docs__search","arguments":{"q":"x"},"call_id":"c2"}}\n'
	printf '{"timestamp":"2026-06-02T08:00:06.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"part one"},{"type":"input_file","file_id":"f1"}]}}\n'
	printf '{"timestamp":"2026-06-02T08:00:07.000Z","type":"event_msg","payload":{"type":"user_message","message":"the typed prompt"}}\n'
	printf '{"timestamp":"2026-06-02T08:00:08.000Z","type":"compacted","payload":{"message":"summary without history"}}\n'
} > odd/sessions/rollout-2026-06-02T08-00-00-e5000000-0000-4000-8000-0000000000e5.jsonl
expect_rc 0 "odd shapes: list" env CODEX_HOME="$work/odd" "$txc" list codex
grep -q 'the typed prompt' out.txt && ok "title from the user_message event" || bad "odd title: $(cat out.txt)"
expect_rc 0 "odd shapes: markdown" env CODEX_HOME="$work/odd" "$txc" convert codex:e5 --to markdown --utc --detail full \
	--include-compacted
for want in 'plain string content' '[input_image] {"type":"input_image","image_url":"https://example.com/a.png"}' \
	'I will not do that.' "grep -n 'it'\\''s here' 'a b.txt'" 'denied by policy' 'mcp\_\_docs\_\_search' 'part one' \
	'input_file' 'summary without history'; do
	grep -qF -- "$want" out.txt && ok "odd shapes keep: $want" || bad "odd shapes lost: $want"
done
grep -q '#[0-9]* · error' out.txt && ok "success false is an error" || bad "success false: not an error"

# a title made of the first prompt is its first line, at most 100 characters (hostile pass: a
# pasted 20 MB prompt was the title `list` printed whole and every writer repeated)
mkdir -p long/sessions
long=$(printf '%0150d' 0 | tr 0 x)
printf '{"timestamp":"2026-06-03T08:00:00.000Z","type":"session_meta","payload":{"id":"e6000000-0000-4000-8000-0000000000e6","timestamp":"2026-06-03T08:00:00.000Z","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0"}}\n{"timestamp":"2026-06-03T08:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"\\n  first line  \\nsecond line"}]}}\n{"timestamp":"2026-06-03T08:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}\n' \
	> long/sessions/rollout-2026-06-03T08-00-00-e6000000-0000-4000-8000-0000000000e6.jsonl
printf '{"timestamp":"2026-06-03T09:00:00.000Z","type":"session_meta","payload":{"id":"e7000000-0000-4000-8000-0000000000e7","timestamp":"2026-06-03T09:00:00.000Z","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0"}}\n{"timestamp":"2026-06-03T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"\303\251%s"}}\n' \
	"$long" > long/sessions/rollout-2026-06-03T09-00-00-e7000000-0000-4000-8000-0000000000e7.jsonl
expect_rc 0 "long prompts: list --json" env CODEX_HOME="$work/long" "$txc" list codex --json
grep -q '"title":"first line","cwd"' out.txt && ok "a prompt's first line is the title" ||
	bad "multi-line prompt title: $(cat out.txt)"
grep -q "\"title\":\"$(printf '\303\251')$(printf '%099d' 0 | tr 0 x)$(printf '\342\200\246')\"" out.txt &&
	ok "a long prompt's title: 100 characters and an ellipsis" || bad "long prompt title: $(cut -c1-400 out.txt)"
expect_rc 0 "long prompts: the prompt itself is whole" env CODEX_HOME="$work/long" "$txc" convert codex:e6 --to markdown
grep -q '^second line' out.txt && ok || bad "prompt cut: $(cat out.txt)"

# reasoning said twice (an agent_reasoning event, then the item holding it) is found in linear time:
# a naive search took 48 s over 3 MB of it (hostile pass); 60 s is a hang, not a speed target
mkdir -p slow/sessions
a=$(head -c 1500000 /dev/zero | tr '\0' a)
{
	printf '{"timestamp":"2026-06-04T08:00:00.000Z","type":"session_meta","payload":{"id":"e8000000-0000-4000-8000-0000000000e8","timestamp":"2026-06-04T08:00:00.000Z","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0"}}\n'
	printf '{"timestamp":"2026-06-04T08:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}\n'
	printf '{"timestamp":"2026-06-04T08:00:02.000Z","type":"event_msg","payload":{"type":"agent_reasoning","text":"%sb"}}\n' "$a"
	printf '{"timestamp":"2026-06-04T08:00:03.000Z","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"%s%s"}]}}\n' "$a" "$a"
} > slow/sessions/rollout-2026-06-04T08-00-00-e8000000-0000-4000-8000-0000000000e8.jsonl
a=
expect_rc 0 "reasoning twice, 4.5 MB: list in time" timeout 60 env CODEX_HOME="$work/slow" "$txc" list codex
grep -q 'e8000000.* go$' out.txt && ok || bad "slow rollout: $(cut -c1-200 out.txt)"
# ...and thousands of events before the item holding them all (each search read the whole item)
awk 'BEGIN {
	pad = sprintf("%300s", ""); gsub(/ /, "a", pad)
	printf "{\"timestamp\":\"2026-06-04T09:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"e9000000-0000-4000-8000-0000000000e9\",\"timestamp\":\"2026-06-04T09:00:00.000Z\",\"cwd\":\"/w\",\"originator\":\"codex_exec\",\"cli_version\":\"0.171.0\"}}\n"
	printf "{\"timestamp\":\"2026-06-04T09:00:01.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"many\"}]}}\n"
	for (i = 0; i < 30000; i++)
		printf "{\"timestamp\":\"2026-06-04T09:00:02.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_reasoning\",\"text\":\"%06d%s\"}}\n", i, pad
	printf "{\"timestamp\":\"2026-06-04T09:00:03.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\",\"summary\":["
	for (i = 0; i < 30000; i++)
		printf "%s{\"type\":\"summary_text\",\"text\":\"%06d%s\"}", (i ? "," : ""), i, pad
	printf "]}}\n"
}' > slow/sessions/rollout-2026-06-04T09-00-00-e9000000-0000-4000-8000-0000000000e9.jsonl
expect_rc 0 "30000 reasoning events, then their item: in time" timeout 60 env CODEX_HOME="$work/slow" "$txc" convert codex:e9 --to markdown
grep -q 'many' out.txt && ok || bad "many events: $(head -c 300 out.txt)"

# --- Codex's own files are never an output ---
cp -R "$src/fixtures/codex-home" home && chmod -R u+w home
f=home/sessions/2026/05/01/rollout-2026-05-01T10-00-00-$A.jsonl
cp "$f" before.jsonl
expect_rc 4 "-o onto a rollout it reads" env CODEX_HOME="$work/home" "$txc" convert codex:7d3 --to claude -o "$f" --force
cmp -s "$f" before.jsonl && ok "the rollout is untouched" || bad "the rollout was replaced"
expect_rc 4 "-o onto a rollout, whatever the run reads" env CODEX_HOME="$work/home" "$txc" convert codex:7d3 \
	--from codex --to markdown -o "$work/home/archived_sessions/rollout-2026-04-20T09-00-00-$C.jsonl" --force
expect_rc 4 "a new file in a sessions folder" env CODEX_HOME="$work/home" "$txc" convert codex:7d3 --to claude \
	-o home/sessions/2026/05/01/rollout-new.jsonl
[ ! -e home/sessions/2026/05/01/rollout-new.jsonl ] && ok || bad "a file was made in Codex's sessions folder"
expect_rc 4 "a Claude run never replaces a Codex rollout" env CODEX_HOME="$work/home" \
	CLAUDE_CONFIG_DIR="$src/fixtures/claude-config" "$txc" convert claude:5f3 --to markdown -o "$f" --force
cmp -s "$f" before.jsonl && ok || bad "the rollout was replaced"

summary codex-tests
