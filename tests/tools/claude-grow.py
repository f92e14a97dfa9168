#!/usr/bin/env python3
# claude-grow.py IN OUT COPIES: a long Claude Code session for cli.claude-memory: the session IN,
# COPIES times one after the other, each copy with uuids of its own, one parentUuid chain
import re, sys, hashlib
src, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src, encoding="utf-8").read().splitlines()
sid = re.search(r'"sessionId":"([0-9a-f-]{36})"', lines[0]).group(1)
U = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')
def fresh(u, j):
    if u == sid or j == 0:
        return u
    h = hashlib.sha1(("%s/%d" % (u, j)).encode()).hexdigest()
    return "%s-%s-4%s-8%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:32])
last = None
with open(out, "w", encoding="utf-8") as f:
    for j in range(copies):
        for i, line in enumerate(lines):
            line = U.sub(lambda m: fresh(m.group(0), j), line)
            if i == 0 and last is not None:
                line = line.replace('"parentUuid":null', '"parentUuid":"%s"' % last, 1)
            f.write(line + "\n")
            m = re.search(r'"uuid":"([0-9a-f-]{36})"', line)
            if m and '"type":"user"' in line or m and '"type":"assistant"' in line:
                last = m.group(1)
