#!/usr/bin/env python3
"""Dump a SQLite database to SQL text that rebuilds it exactly (developer tool).

sqlite3's own .dump loses TEXT values that contain NUL bytes and cannot express
invalid UTF-8; this one writes such values as CAST(X'..' AS TEXT), REALs with
repr() (exact round trip) and keeps every table's physical column order.
Virtual (FTS) tables, their shadow tables and triggers are left out: exports
never read them.  Usage: dump-db.py state.db > state.sql
"""
import sqlite3, sys

def lit(v):
    if v is None:
        return "NULL"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v:
            return "NULL"
        if v in (float("inf"), float("-inf")):
            return "9e999" if v > 0 else "-9e999"
        return repr(v)
    if isinstance(v, bytes):
        return "X'%s'" % v.hex()
    raise TypeError(type(v))

def main():
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    db.text_factory = bytes
    out = sys.stdout
    out.write("PRAGMA foreign_keys=OFF;\nBEGIN;\n")
    rows = db.execute("select type, name, sql from sqlite_master where sql is not null order by rowid").fetchall()
    virtual = [n.decode() for t, n, s in rows if t == b"table" and b"VIRTUAL TABLE" in s.upper()]
    def skipped(name):
        return name.startswith("sqlite_") or any(name == v or name.startswith(v + "_") for v in virtual)
    for t, n, s in rows:
        name = n.decode()
        if t != b"table" or skipped(name):
            continue
        out.write(s.decode() + ";\n")
        cols = [r[1].decode() for r in db.execute('pragma table_info("%s")' % name.replace('"', '""'))]
        sel = ", ".join('typeof("%s"), "%s"' % (c, c) for c in cols)
        for row in db.execute('select %s from "%s"' % (sel, name.replace('"', '""'))):
            vals = [value(row[i].decode(), row[i + 1]) for i in range(0, len(row), 2)]
            out.write('INSERT INTO "%s" VALUES(%s);\n' % (name, ",".join(vals)))
    for t, n, s in rows:
        if t == b"index" and not skipped(n.decode()):
            out.write(s.decode() + ";\n")
    out.write("COMMIT;\n")

def value(kind, v):
    if kind == "text":
        try:
            t = v.decode("utf-8")
            if "\0" not in t and "\r" not in t:
                return "'" + t.replace("'", "''") + "'"
        except UnicodeDecodeError:
            pass
        return "CAST(X'%s' AS TEXT)" % v.hex()
    if kind == "blob":
        return "X'%s'" % v.hex()
    return lit(v)

if __name__ == "__main__":
    main()
