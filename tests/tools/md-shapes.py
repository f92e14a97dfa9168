#!/usr/bin/env python3
"""md-shapes.py - SQL for a store whose session "md" holds the shapes of message text the
Markdown writer must keep apart: fences inside text, lists and quotes around them, links with
titles, escapes, tables, terminal escapes, indented and unclosed code; and tool calls of each
typed kind with their results.  Each shape is followed by a line AFTER-n that must render as
a paragraph.  usage: md-shapes.py > md.sql"""
import json
def q(s): return "'" + s.replace("'", "''") + "'"
ESC = "\x1b"
text = "\n".join([
 "Intro with `` a ` b `` and ` lead` and `trail `.",
 "",
 "```python",
 "print('<b>hi</b>')",
 "```",
 "AFTER-1",
 "",
 "~~~",
 "```",
 "inner <i>",
 "~~~",
 "AFTER-2",
 "",
 "1. step one",
 "   ```sh",
 "rm -rf <x>",
 "   ```",
 "",
 "AFTER-3",
 "",
 "> ```",
 "> <script>alert(1)</script>",
 "> ```",
 "",
 "AFTER-4",
 "",
 "-\tlist item",
 "\t```",
 "\tcode <u>",
 "\t```",
 "",
 "AFTER-5",
 "",
 "  > > nested <q>",
 ">    > deep",
 "",
 "AFTER-6",
 "",
 "Links: [a](http://x.example/a \"t\") [b](<dest with space> 'title') [c](y.md (paren title)) [d](z\\(1\\).md)",
 "[e](" + "(" * 40 + "x" + ")" * 40 + ") [f](g.md \"multi",
 "line title\") [h](i.md \"broken",
 "",
 "title\")",
 "",
 "AFTER-7",
 "",
 "Escapes: \\<b> and \\` and a \\| in | cells |",
 "",
 "| col | b |",
 "|-----|---|",
 "| a \\| b | <td> |",
 "",
 "AFTER-8",
 "",
 "Terminal: " + ESC + "]8;;http://x" + "\x07" + "link" + ESC + "]8;;" + ESC + "\\",
 "",
 "AFTER-9",
 "",
 "        indented <code> four",
 "",
 "AFTER-10",
 "",
 "```",
 "never closed <b>",
 "",
 "End " + ESC + "]0;an OSC never ended",
])
calls = [
 {"id": "c1", "type": "function", "function": {"name": "terminal", "arguments": json.dumps({"command": "ls <x>", "description": "list *files*", "background": True, "workdir": "/w d", "timeout": 5})}},
 {"id": "c2", "type": "function", "function": {"name": "read_file", "arguments": json.dumps({"path": "/a/b.py", "offset": 5})}},
 {"id": "c3", "type": "function", "function": {"name": "MultiEdit", "arguments": json.dumps({"file_path": "/a/c.c", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c\nd", "new_string": "e", "replace_all": True}]})}},
 {"id": "c4", "type": "function", "function": {"name": "patch", "arguments": json.dumps({"mode": "replace", "path": "/a/d.txt", "old_string": "x", "new_string": "y", "replace_all": True})}},
 {"id": "c5", "type": "function", "function": {"name": "patch", "arguments": json.dumps({"path": "/a/e.txt", "patch": "--- a\n+++ b\n@@\n-x\n+y"})}},
 {"id": "c6", "type": "function", "function": {"name": "noargs", "arguments": "{}"}},
 {"id": "c7", "type": "function", "function": {"name": "read_file", "arguments": json.dumps({"path": "/a/f.py", "offset": 3, "limit": 4})}},
]
results = [
 ("c1", "terminal", json.dumps({"output": "line1\nline2", "exit_code": 2, "error": "boom <e>"})),
 ("c2", "read_file", "\n".join("L%d" % i for i in range(60))),
 ("c3", "MultiEdit", json.dumps({"success": True})),
 ("c4", "patch", "ok"),
 ("c5", "patch", "ok"),
 ("c6", "noargs", ""),
 ("c7", "read_file", "x"),
]
print("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT, model TEXT);")
print("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);")
print("INSERT INTO sessions VALUES ('md', 'cli', 1789344000.0, %s, 'm');" % q("Shapes `of` *text*\nsecond line"))
print("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('md', 'user', %s, 1789344001.0);" % q("Show me <b>"))
print("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('md', 'assistant', %s, 1789344002.0);" % q(text))
print("INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('md', 'assistant', 'Calling.', %s, 1789344003.0);" % q(json.dumps(calls)))
for i, (cid, name, out) in enumerate(results):
    print("INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('md', 'tool', %s, %s, %s, %f);" % (q(out), q(cid), q(name), 1789344004.0 + i))
print("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('md', 'assistant', 'AFTER-TOOLS', 1789344020.0);")

# session md2: images of every kind, odd characters in titles and paths, odd numbers, reused call ids
png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
def img(media, data):
    return {"type": "image_url", "image_url": {"url": "data:%s;base64,%s" % (media, data)}}
user = [{"type": "text", "text": "pictures"}, img("image/jpeg", png), img("image/svg+xml", png), img("image/png", "not*base64"),
        img("image/X-Y", png), img("image/", png)]
calls2 = [
 {"id": "dup", "type": "function", "function": {"name": "read_file", "arguments": json.dumps({"path": "/a/tab\there\nnl.txt"})}},
 {"id": "dup", "type": "function", "function": {"name": "write_file", "arguments": json.dumps({"path": "/a/dir.d/Makefile", "content": "all:\n"})}},
 {"id": "c9", "type": "function", "function": {"name": "terminal", "arguments": json.dumps({"command": "true"})}},
]
print("INSERT INTO sessions VALUES ('md2', 'cli', 1e300, %s, NULL);" % q("T\u0085i\u2028t\ufeffl\x7fe <&> \u200f"))
# a list content is stored as the text "\0json:" + JSON (hermes-store.md)
print("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('md2', 'user', CAST(X'006a736f6e3a' AS TEXT) || %s, 1.0);"
      % q(json.dumps(user)))
print("INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('md2', 'assistant', '', %s, 2.0);" % q(json.dumps(calls2)))
print("INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('md2', 'tool', 'first dup', 'dup', 'read_file', 3.0);")
print("INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('md2', 'tool', 'second dup', 'dup', 'write_file', 4.0);")
print("INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('md2', 'tool', %s, 'c9', 'terminal', 5.0);" % q(json.dumps({"output": "", "exit_code": 123456789012345678901234567890})))

# session md3: more block and inline shapes, each followed by AFTER-n (checked after rendering)
shapes = [
 "+ plus item <b>\n* star item\n10) paren item\n1234567890. not a list\n1.no space\n-",
 ">   > three spaces <q>\n>    > four spaces <q>",
 "```c++ extra <info>\ncode\n```",
 "```a`b not a fence <x>",
 "| a | b |\n|:--|--:|\n| \\| c | d <e> |",
 "[x](<>) [y](a\\)b) [z](a b) [w](\n dest) [v](dest 'unterminated) [u](((ok)))",
 "[long](" + "d" * 3000 + ")",
 "see http://example.com/a:b//c and <http://example.com> and mailto:x@y",
 "`` ` `` and ```never closed and ``two",
 "\tindented with a tab <t>",
 "-     code in a list item <l>",
 "chars: & > \x7f \u0085 \ufeff \u2028 \u2029 end",
 "[ref]: http://example.com 'title'\n[ref]",
 "<div>html block</div>\n<!-- comment -->",
 "***\n---\n___",
 "Setext\n===",
 "a\\\nhard break and trailing spaces  \nnext",
]
text3 = "\n\n".join("%s\n\nAFTER-%d" % (sh, i + 1) for i, sh in enumerate(shapes))
print("INSERT INTO sessions VALUES ('md3', 'cli', 1789344000.0, 'shapes three', NULL);")
print("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('md3', 'assistant', %s, 1789344001.0);" % q(text3))

# session md4: code spans that need padding, Read ranges, results with only an error, more image types
calls4 = [
 {"id": "d1", "type": "function", "function": {"name": "read_file", "arguments": json.dumps({"path": "`tick`", "limit": 5})}},
 {"id": "d2", "type": "function", "function": {"name": "read_file", "arguments": json.dumps({"path": " lead"})}},
 {"id": "d3", "type": "function", "function": {"name": "terminal", "arguments": json.dumps({"command": "false"})}},
]
user4 = [img("image/webp", png), img("image/x-icon", png), img("image/" + "a" * 70, png)]
print("INSERT INTO sessions VALUES ('md4', 'cli', 1789344000.0, NULL, NULL);")
print("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('md4', 'user', CAST(X'006a736f6e3a' AS TEXT) || %s, 1.0);"
      % q(json.dumps(user4)))
print("INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('md4', 'assistant', '', %s, 2.0);" % q(json.dumps(calls4)))
print("INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('md4', 'tool', 'one\ntwo\nthree\nfour\nfive', 'd1', 'read_file', 3.0);")
print("INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('md4', 'tool', 'x', 'd2', 'read_file', 4.0);")
print("INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES ('md4', 'tool', %s, 'd3', 'terminal', 5.0);"
      % q(json.dumps({"output": "", "error": "only an error"})))

# session md5: the corners of list, quote, fence, table and link syntax
shapes5 = [
 "-\tfoo <a>\n\t\t\tdeep tab code <b>",
 " > one space\n  >two spaces\n   > three <q>",
 "```   python\nx = '<p>'\n```",
 "```c@x\ny <z>\n```",
 "|-x-|\n|---|\n| a |",
 "[ctl](a\x01b) [esc](a\\)b) [text\\]more](x.md) [a[b](y.md) [tail]",
 "www.example.com/a<b> and https://x.example/p?q=<r> and ftp://f.example/",
 "`a`` b ``` c ```` d",
 "| t | u |\n| --- | --- |\n| `code|pipe` | \\| |",
 "a line with trailing backslash \\",
 "[link](dest \"title with \\\" quote\") and [l2](dest 'it''s')",
 "    indented\n\tand tabbed <c>",
]
text5 = "\n\n".join("%s\n\nAFTER-%d" % (sh, i + 1) for i, sh in enumerate(shapes5))
print("INSERT INTO sessions VALUES ('md5', 'cli', 1789344000.0, 'shapes five', NULL);")
print("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('md5', 'assistant', %s, 1789344001.0);" % q(text5 + "\n\nno newline at the end"))
