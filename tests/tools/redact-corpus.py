#!/usr/bin/env python3
"""The redaction corpus (tests/redact-corpus/, tests/cli/redact-corpus-tests.sh).

    redact-corpus.py sql CORPUS                  the corpus as a store's SQL (one message a case)
    redact-corpus.py sql-texts JSONL             an export's messages as a store again (writes JSONL.corpus)
    redact-corpus.py texts JSONL                 the messages' contents of an export, one JSON string a line
    redact-corpus.py compare CORPUS ORACLE TXC   checks txc's --redact against Hermes's (see check())

ORACLE is Hermes v0.20.0's `jsonl-all --redact` of that store (tests/redact-corpus/oracle.jsonl,
committed: see make-oracle.sh), TXC txc's `export --json --redact` of it.
"""
import difflib
import json
import sys


def unescape(text):
    out, i = [], 0
    text = text.replace("~~", "")
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in "ne\\t":
            out.append({"n": "\n", "e": "\x1b", "t": "\t", "\\": "\\"}[text[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def cases(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            kind, text = line.rstrip("\n").split("\t", 1)
            text = unescape(text)
            out.append((kind, text))
    return out


def sql(path):
    print("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,"
          " started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, message_count INTEGER DEFAULT 0,"
          " title TEXT, archived INTEGER NOT NULL DEFAULT 0);")
    print("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,"
          " content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,"
          " finish_reason TEXT, active INTEGER NOT NULL DEFAULT 1);")
    print("BEGIN;")
    print("INSERT INTO sessions (id, source, started_at) VALUES ('corpus', 'cli', 1767500000.0);")
    for i, (_, text) in enumerate(cases(path)):
        lit = "'" + text.replace("'", "''") + "'"
        lit = lit.replace("\n", "' || char(10) || '").replace("\x1b", "' || char(27) || '")
        print("INSERT INTO messages (id, session_id, role, content, timestamp) VALUES (%d, 'corpus', 'user', %s, %.1f);" % (i + 1, lit, 1767500001.0 + i))
    print("COMMIT;")


def texts(path):
    """the messages' contents of an export (JSONL, a session a line), or a texts file (a JSON string a line)"""
    with open(path, encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            if isinstance(v, str):
                yield v
                continue
            for m in v["messages"]:
                yield m["content"]


def sql_texts(path):
    """an export's (or a texts file's) messages as a store again, for a second pass"""
    with open(path + ".corpus", "w", encoding="utf-8") as f:
        for t in texts(path):
            f.write("S\t" + t.replace("\\", "\\\\").replace("\n", "\\n").replace("\x1b", "\\e") + "\n")
    sql(path + ".corpus")


def removed(orig, red):
    """the spans of orig that red lost or changed: (start, end)"""
    sm = difflib.SequenceMatcher(None, orig, red, autojunk=False)
    return [(a0, a1) for op, a0, a1, _, _ in sm.get_opcodes() if op in ("replace", "delete") and a1 > a0]


def survives(orig, span, out):
    """does txc's output still show the bytes Hermes removed at span, with what stood around them?"""
    a, b = span
    chunk = orig[a:b]
    if len(chunk.strip()) == 0:
        return False  # Hermes dropped blanks around '=' (DB_PASSWORD = x): not a secret
    left, right = orig[max(0, a - 10):a], orig[b:b + 10]
    if len(chunk) >= 8 and chunk in out:
        return True
    return (left + chunk) in out or (chunk + right) in out


def check(corpus, oracle, txc):
    cs, ors, ts = cases(corpus), list(texts(oracle)), list(texts(txc))
    assert len(cs) == len(ors) == len(ts), (len(cs), len(ors), len(ts))
    fails = 0
    n_s = n_n = n_hermes = n_spans = n_txc_more = 0
    for i, ((kind, text), o, t) in enumerate(zip(cs, ors, ts)):
        where = "case %d (%s)" % (i + 1, json.dumps(text)[:70])
        if kind == "N":
            n_n += 1
            if t != text:
                print("changed, not a secret: %s -> %s" % (where, json.dumps(t)[:120]))
                fails += 1
            continue
        n_s += 1
        spans = removed(text, o)
        n_hermes += 1 if spans else 0
        n_spans += len(spans)
        if t == text:
            print("not redacted: %s" % where)
            fails += 1
            continue
        if not spans:
            n_txc_more += 1
        for sp in spans:
            if survives(text, sp, t):
                print("kept what Hermes removed: %s: %s in %s" % (where, json.dumps(text[sp[0]:sp[1]]), json.dumps(t)[:160]))
                fails += 1
    print("%d secret cases (Hermes redacted %d of them, %d spans; txc all %d, %d that Hermes kept), "
          "%d non-secret cases unchanged: %d failures" % (n_s, n_hermes, n_spans, n_s - 0, n_txc_more, n_n, fails))
    return fails


def main():
    if sys.argv[1] == "sql":
        sql(sys.argv[2])
    elif sys.argv[1] == "sql-texts":
        sql_texts(sys.argv[2])
    elif sys.argv[1] == "texts":
        for t in texts(sys.argv[2]):
            print(json.dumps(t, ensure_ascii=False))
    else:
        sys.exit(1 if check(sys.argv[2], sys.argv[3], sys.argv[4]) else 0)


main()
