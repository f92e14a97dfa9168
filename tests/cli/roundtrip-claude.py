"""Two Claude Code files' conversations compared: texts in order, thinking (or the "Reasoning:"
text an unsigned one becomes), images, tool calls and their results bound by id (ids may be
renamed: calls are numbered in order and results must name the same number).  Claude's
redacted_thinking is allowed to go (Anthropic's encrypted reasoning: nothing any other API or
reader can carry), and an apply_patch of one Edit's hunk may come back as that Edit (the rollout
txc wrote does not say whether Claude or Codex made the patch).  Reasoning texts in a row are one
text (Hermes's reasoning column joins them).  usage: roundtrip-claude.py WAS.jsonl NOW.jsonl"""
import json, sys
def items(path):
    """the conversation of a Claude Code file: (role, kind, payload) in order, tool ids as found"""
    out = []
    for line in open(path):
        try: r = json.loads(line)
        except ValueError: continue
        if r.get("type") not in ("user", "assistant") or r.get("isSidechain"): continue
        if r.get("isMeta") and r.get("uuid", "")[14:15] != "5": continue
        role = r["type"] + ("/meta" if r.get("isMeta") else "")
        c = r["message"]["content"]
        if isinstance(c, str): c = [{"type": "text", "text": c}]
        for b in c:
            t = b.get("type")
            if t == "text": out.append((role, "text", b["text"]))
            elif t == "thinking": out.append((role, "text", "Reasoning:\n\n" + b["thinking"]))
            elif t == "redacted_thinking": continue
            elif t == "image": out.append((role, "image", b["source"].get("media_type"), b["source"].get("data")))
            elif t == "tool_use": out.append((role, "call", b["name"], json.dumps(b["input"], sort_keys=True), b["id"]))
            elif t == "tool_result":
                rc = b.get("content")
                if isinstance(rc, list): rc = "".join(x.get("text", "") for x in rc if x.get("type") == "text")
                out.append((role, "result", rc, b["tool_use_id"]))
            else: out.append((role, t, json.dumps(b, sort_keys=True)))
    return out
def tidy(xs):
    out = []
    for x in xs:
        if out and x[1] == "text" and out[-1][1] == "text" and x[0] == out[-1][0] and \
                x[2].startswith("Reasoning:\n\n") and out[-1][2].startswith("Reasoning:\n\n"):
            out[-1] = x[:2] + (out[-1][2] + "\n\n" + x[2][len("Reasoning:\n\n"):],)
            continue
        out.append(x)
    return out
a, b = tidy(items(sys.argv[1])), tidy(items(sys.argv[2]))
def as_edit(x):
    """an apply_patch call that is one Edit of a file (one hunk of - then + lines) as that Edit"""
    if x[1] != "call" or x[2] != "apply_patch": return x
    lines = json.loads(x[3]).get("input", "").split("\n")
    if len(lines) < 5 or lines[:1] != ["*** Begin Patch"] or not lines[1].startswith("*** Update File: ") \
            or lines[2] != "@@" or lines[-2:] != ["*** End Patch", ""]: return x
    body = lines[3:-2]
    old = [l[1:] for l in body if l.startswith("-")]
    new = [l[1:] for l in body if l.startswith("+")]
    if not old or [l[0] for l in body] != ["-"] * len(old) + ["+"] * len(new): return x
    inp = {"file_path": lines[1][len("*** Update File: "):], "old_string": "".join(l + "\n" for l in old),
           "new_string": "".join(l + "\n" for l in new)}
    return x[:2] + ("Edit", json.dumps(inp, sort_keys=True)) + x[4:]
ids = {}
def norm(x):
    x = as_edit(x)
    if x[1] == "call": ids.setdefault(x[4], len(ids)); return x[:4] + (ids[x[4]],)
    if x[1] == "result": return x[:3] + (ids.get(x[3], "unbound:" + x[3]),)
    return x
A = [norm(x) for x in a]; ids.clear(); B = [norm(x) for x in b]
bad = 0
for i in range(max(len(A), len(B))):
    x = A[i] if i < len(A) else None; y = B[i] if i < len(B) else None
    if x != y:
        bad += 1; print("#%d\n  was %s\n  now %s" % (i, str(x)[:300], str(y)[:300]))
print("%d items, %d differ" % (len(A), bad))
sys.exit(1 if bad else 0)
