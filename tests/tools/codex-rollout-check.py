#!/usr/bin/env python3
"""codex-rollout-check.py FILE...: the invariants Codex CLI 0.171.0 needs to resume a rollout
(measured with the real binary, /work/shared/tools/codex-check/README.md), checked without Codex:
valid JSON objects one a line, session_meta first with a UUID id and the required fields, every
function/custom tool output after a call of the same kind and call_id, call ids unique, every call
answered, images as base64 data URLs of png/jpeg/gif/webp, message parts that fit their role,
function arguments a JSON string, reasoning items without an id, and a token_count that does
not make Codex compact the resumed conversation.  Prints one line per problem; exit 1 on any."""
import base64, json, re, sys

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
DATA_URL = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]*={0,2})$")
PARTS = {"user": {"input_text", "input_image"}, "developer": {"input_text", "input_image"},
         "system": {"input_text", "input_image"},  # (the Responses API takes system messages: codex-check README)
         "assistant": {"output_text", "refusal"}}


def image_ok(url):
    m = DATA_URL.match(url)
    if not m:
        return False
    try:
        base64.b64decode(m.group(2), validate=True)
    except ValueError:
        return False
    return True


def check_item(p, where, calls, answered, bad):
    t = p.get("type")
    if t == "message":
        role = p.get("role")
        if role not in PARTS:
            bad("%s: message role %r" % (where, role))
            return
        for part in p.get("content", []):
            if part.get("type") not in PARTS[role]:
                bad("%s: %s part %r" % (where, role, part.get("type")))
            if part.get("type") == "input_image" and not image_ok(part.get("image_url", "")):
                bad("%s: image_url is not a base64 data URL of an accepted type" % where)
    elif t in ("function_call", "custom_tool_call"):
        cid = p.get("call_id")
        if not isinstance(cid, str) or not cid or cid in calls:
            bad("%s: call_id %r missing or not unique" % (where, cid))
        calls[cid] = t
        if t == "function_call":
            if not isinstance(p.get("arguments"), str):
                bad("%s: arguments is not a string" % where)
            else:
                json.loads(p["arguments"])
        elif not isinstance(p.get("input"), str):
            bad("%s: custom_tool_call input is not a string" % where)
    elif t in ("function_call_output", "custom_tool_call_output"):
        cid = p.get("call_id")
        if calls.get(cid) != t[: -len("_output")]:
            bad("%s: %s %r without an earlier call of its kind" % (where, t, cid))
        if cid in answered:
            bad("%s: call %r answered twice" % (where, cid))
        answered.add(cid)
        out = p.get("output")
        if isinstance(out, list):
            for part in out:
                if part.get("type") == "input_image" and not image_ok(part.get("image_url", "")):
                    bad("%s: output image_url is not an accepted data URL" % where)
        elif not isinstance(out, str):
            bad("%s: output is neither text nor a list of parts" % where)
    elif t == "reasoning":
        if "id" in p:
            bad("%s: reasoning item with an id (the API refuses it under store:false)" % where)
        if not p.get("encrypted_content") or not isinstance(p.get("summary"), list):
            bad("%s: reasoning without encrypted_content or a summary list" % where)
    else:
        bad("%s: unknown response_item type %r" % (where, t))


def check(path, bad):
    data = open(path, "rb").read()
    if not data.endswith(b"\n"):
        bad("%s: the last line is not ended" % path)
    calls, answered = {}, set()
    for n, line in enumerate(data.split(b"\n")[:-1], 1):
        where = "%s:%d" % (path, n)
        o = json.loads(line)
        if not isinstance(o, dict) or set(o) != {"timestamp", "type", "payload"}:
            bad("%s: not a {timestamp, type, payload} record" % where)
            continue
        if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", o["timestamp"]):
            bad("%s: timestamp %r" % (where, o["timestamp"]))
        p = o["payload"]
        if (n == 1) != (o["type"] == "session_meta"):
            bad("%s: session_meta must be the first line, and only it" % where)
        if o["type"] == "session_meta":
            for k in ("id", "timestamp", "cwd", "originator", "cli_version"):
                if not isinstance(p.get(k), str):
                    bad("%s: session_meta without %s" % (where, k))
            if not UUID.match(p.get("id", "")):
                bad("%s: session id %r is not a UUID (Codex would start a new session)" % (where, p.get("id")))
            if not p.get("cwd", "").startswith("/"):
                bad("%s: cwd is not absolute" % where)
        elif o["type"] == "response_item":
            check_item(p, where, calls, answered, bad)
        elif o["type"] == "compacted":
            if not isinstance(p.get("message"), str) or not isinstance(p.get("replacement_history"), list):
                bad("%s: compacted without message or replacement_history" % where)
        elif o["type"] == "event_msg" and p.get("type") == "token_count":
            last = (p.get("info") or {}).get("last_token_usage") or {}
            if last.get("total_tokens", 0) > 0:
                bad("%s: last_token_usage claims %d tokens: Codex compacts before resuming" % (where, last["total_tokens"]))
        elif o["type"] not in ("turn_context", "event_msg"):
            bad("%s: record type %r" % (where, o["type"]))
    for cid in calls:
        if cid not in answered:
            bad("%s: call %r never answered (Codex invents \"aborted\")" % (path, cid))


def main():
    problems = []
    for path in sys.argv[1:]:
        try:
            check(path, problems.append)
        except (ValueError, OSError) as e:
            problems.append("%s: %s" % (path, e))
    for p in problems:
        print(p)
    return 1 if problems else 0


sys.exit(main())
