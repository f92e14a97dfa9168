#!/usr/bin/env python3
"""mkseeds.py - seed inputs for fuzz_json, fuzz_remote and fuzz_diff (see README.md).

Real Hermes exports (tests/golden/*/), plus generated ones that grow every
array past its first allocation: a session of 70+ rows, a list of 70+
sessions (over two dashboard pages).  Usage: mkseeds.py OUTDIR (makes
OUTDIR/json, OUTDIR/remote, OUTDIR/diff).
"""
import glob
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
for d in ("json", "remote", "diff"):
    os.makedirs(os.path.join(out, d), exist_ok=True)


def put(kind, name, data):
    with open(os.path.join(out, kind, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def line(o):
    return json.dumps(o, ensure_ascii=False)


real = []
for p in sorted(glob.glob(os.path.join(here, "..", "golden", "*", "*.jsonl"))):
    if "/features/" in p:
        continue
    for l in open(p, encoding="utf-8"):
        o = json.loads(l)
        if isinstance(o, dict) and "messages" in o and o["id"] not in [r["id"] for r in real]:
            real.append(o)
real.sort(key=lambda o: len(line(o)))
small = real[:5] + [next(o for o in real if len(o["messages"]) >= 2)]


def row(i, sid):
    role = ["user", "assistant", "tool"][i % 3]
    r = {"id": i + 1, "session_id": sid, "role": role, "content": "m%d" % i, "timestamp": 1750000000.5 + i}
    if role == "assistant":
        r["tool_calls"] = [{"id": "c%d" % i, "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    if role == "tool":
        r["tool_call_id"] = "c%d" % (i - 1)
    return r


def session(sid, n, **extra):
    s = {"id": sid, "source": "cli", "model": "m", "started_at": 1750000000.25, "title": "t " + sid}
    s.update(extra)
    s["messages"] = [row(i, sid) for i in range(n)]
    return s


long_s = session("long", 70)
many = [session("s%03d" % i, 1) for i in range(70)]

# fuzz_json: export files
for i, o in enumerate(small):
    put("json", "real-%d" % i, line(o) + "\n")
put("json", "real-all", "".join(line(o) + "\n" for o in small))
put("json", "rows-70", line(long_s) + "\n")
put("json", "sessions-70", "".join(line(o) + "\n" for o in many))
put("json", "pretty", json.dumps(session("pretty", 3), indent=2) + "\n")
put("json", "bom-bad-first", b"\xef\xbb\xbf" + b"{broken\n" + (line(session("x", 2)) + "\n").encode())

# fuzz_diff: one export object
for i, o in enumerate(small[:3]):
    put("diff", "real-%d" % i, line(o) + "\n")
put("diff", "rows-70", json.dumps(long_s, indent=1))
put("diff", "dup-messages", '{"id":"d","messages":[{"a":1}],"x":[1],"messages":[{"b":2},3,"s",null]}')
put("diff", "escaped-key", '{"id":"e","messag\\u0065s":[{"a":"]"}],"last_active":1.5}')
put("diff", "messages-null-last", '{"id":"n","messages":[{"a":1}],"messages":null}')

# fuzz_remote: byte 0, then answers cut at 0xFF
FF = b"\xff"


def num(o, k):
    v = o.get(k)
    return float(v) if isinstance(v, (int, float)) else -1e300


def exports(sessions, n=8):
    """the answers fuzz_check_store asks for: the first n sessions in export order
    (last_active, started_at, id: newest first), each loaded four times"""
    order = sorted(sessions, key=lambda o: (num(o, "last_active"), num(o, "started_at"), str(o["id"]).encode()),
                   reverse=True)
    return [line({k: v for k, v in o.items() if k != "last_active"}) for o in order[:n] for _ in range(4)]


def remote(seed, answers):
    return bytes([seed]) + FF.join(a if isinstance(a, bytes) else a.encode() for a in answers)


page = '<script>window.__HERMES_SESSION_TOKEN__ = "tok";</script>'
heads = [{k: v for k, v in o.items() if k != "messages"} for o in small[:3]]
put("remote", "real", remote(3, [page, json.dumps({"sessions": heads, "total": 3})] + exports(small[:3])))
put("remote", "rows-70", remote(0x80 | 7, [json.dumps({"sessions": [{"id": "long"}], "total": 1})] + exports([long_s])))
lst = [{k: v for k, v in o.items() if k != "messages"} for o in many]
put("remote", "sessions-70", remote(0xC0 | 12, [json.dumps({"sessions": lst[:40], "total": 70}),
                                                json.dumps({"sessions": lst[40:], "total": 70})] +
                                    exports(many)))
put("remote", "errors", remote(0x80 | 1, ["!401", json.dumps({"sessions": [{"id": "."}, {"id": "a"}], "total": 2}),
                                          "!404", "!500"]))
odd = [{"id": i, "started_at": 1.0} for i in (".", "..", "a/b", "q?x#%", 7)]
put("remote", "odd", remote(0x80 | 2, [json.dumps({"sessions": odd, "total": 9}), json.dumps({"sessions": odd, "total": 9}),
                                       "!404", "!500", line(session("other", 1)), line(session("q?x#%", 1))]))
put("remote", "growing", remote(0x80 | 20, [json.dumps({"sessions": [{"id": "g%d" % i}], "total": i + 5}) for i in range(20)]))
