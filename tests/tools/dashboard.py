#!/usr/bin/env python3
"""A stand-in for `hermes dashboard` in the remote tests: the documented routes and
shapes (hermes-store.md section 8), served from a `txc export --json` file.

  GET /                            the page, with window.__HERMES_SESSION_TOKEN__
  GET /api/sessions                {"sessions", "total", "limit", "offset"}, paged
  GET /api/sessions/{id}/export    compact JSON of the session with "messages", chunked
  GET /api/sessions/search?q=&limit=  {"results": [...]}: the first message of each session
                                   holding every word (any case), snippet marked >>>word<<<

Faults on demand: --fail-first N (the first N API requests get 500), --cut ID (the
export of ID stops half-way and the connection is closed), --slow SECONDS (exports
wait that long first), --bad-list (the session list is not JSON), --bad-export ID (the
export of ID is not JSON), --export-status CODE (every export answers CODE), --huge (the
session list is larger than txc's 64 MB cap), --profile NAME (sessions only for
?profile=NAME, an empty list for other profiles), --page-quote Q (the page's token quoted
with Q; "none": not quoted), --hangup N (the first N API requests get no answer: the
connection is closed), --list-status CODE (the session list answers CODE), --no-total (the
list has no "total"), --short-export ID (the export of ID ends early but the answer is
whole), --no-page (the page answers 404), --search-status CODE (the search answers CODE),
--bad-search (the search answers JSON without "results"), --search-odd (the search also answers
results without a role or a session id, and one whose snippet is not a string).  Prints the port it listens on (127.0.0.1, random) first.

Misbehaving on demand: --odd-ids (also lists copies of the first session whose ids are
".", "..", "a/b", "q?x", "h#y", "p%z" and "sp ace"), --wrong-export (every export is of
another session), --stuck (the list ignores offset and counts 1000 more than it has),
--growing (every page is of new sessions and the total stays ahead).  Every API request
is logged to stderr ("GET <path>").  --raw: an export is the data file's line itself,
byte for byte (duplicate keys, escapes and all), as the same bytes --input reads.
"""
import argparse
import json
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument("--data", required=True)
ap.add_argument("--token", default="")
ap.add_argument("--page-size", type=int, default=100)
ap.add_argument("--fail-first", type=int, default=0)
ap.add_argument("--cut", default="")
ap.add_argument("--slow", type=float, default=0)
ap.add_argument("--odd-ids", action="store_true")
ap.add_argument("--wrong-export", action="store_true")
ap.add_argument("--stuck", action="store_true")
ap.add_argument("--growing", action="store_true")
ap.add_argument("--raw", action="store_true")
ap.add_argument("--bad-list", action="store_true")
ap.add_argument("--bad-export", default="")
ap.add_argument("--export-status", type=int, default=0)
ap.add_argument("--huge", action="store_true")
ap.add_argument("--profile", default="")
ap.add_argument("--page-quote", default='"')
ap.add_argument("--hangup", type=int, default=0)
ap.add_argument("--list-status", type=int, default=0)
ap.add_argument("--no-total", action="store_true")
ap.add_argument("--short-export", default="")
ap.add_argument("--no-page", action="store_true")
ap.add_argument("--search-status", type=int, default=0)
ap.add_argument("--bad-search", action="store_true")
ap.add_argument("--search-odd", action="store_true")
args = ap.parse_args()

sessions, lines = [], {}
with open(args.data, encoding="utf-8") as f:
    for line in f:
        if line.strip():
            sessions.append(json.loads(line))
            lines[str(sessions[-1].get("id"))] = line.rstrip("\n").encode("utf-8")
failures = [args.fail_first]
if args.odd_ids:
    for odd in [".", "..", "a/b", "q?x", "h#y", "p%z", "sp ace"]:
        sessions.append(dict(sessions[0], id=odd, title="odd " + odd))
hangups = [args.hangup]


def row(s):
    r = {k: v for k, v in s.items() if k != "messages"}
    r["is_active"] = False
    r["profile"] = "default"
    r["archived"] = bool(r.get("archived"))
    return r


def search(text, limit):
    """Hermes's shape (one result per session, keys in its order); its matching much simplified."""
    words = [w.lower() for w in text.split()]
    results = []
    for s in sessions:
        if not words or s.get("archived"):
            continue
        for m in s.get("messages", []):
            content = m.get("content") if isinstance(m.get("content"), str) else ""
            if all(w in content.lower() for w in words):
                at = content.lower().index(words[0])
                snippet = content[:at] + ">>>" + content[at:at + len(words[0])] + "<<<" + content[at + len(words[0]):]
                results.append({"snippet": snippet, "role": m.get("role"), "source": s.get("source"),
                                "model": s.get("model"), "session_started": s.get("started_at"),
                                "session_id": s.get("id"), "lineage_root": s.get("id"), "id": s.get("id"),
                                "title": s.get("title")})
                break
    return results[:max(1, min(limit, 100))]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, code, body, ctype="application/json"):
        data = body.encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        print("GET " + self.path, file=sys.stderr, flush=True)
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query)
        if url.path == "/" and args.no_page:
            return self.send(404, "not here", "text/html")
        if url.path == "/":
            q = "" if args.page_quote == "none" else args.page_quote
            page = '<html><script>window.__HERMES_SESSION_TOKEN__ = %s%s%s;</script></html>' % (q, args.token, q)
            return self.send(200, page, "text/html")
        if args.token and self.headers.get("X-Hermes-Session-Token") != args.token:
            return self.send(401, '{"detail": "Unauthorized"}')
        if hangups[0] > 0:
            hangups[0] -= 1
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if failures[0] > 0:
            failures[0] -= 1
            return self.send(500, '{"detail": "Internal Server Error"}')
        if args.profile and q.get("profile", [""])[0] != args.profile:
            if url.path == "/api/sessions":
                return self.send(200, '{"sessions": [], "total": 0, "limit": 100, "offset": 0}')
            return self.send(404, '{"detail": "Session not found"}')
        if url.path == "/api/sessions" and args.list_status:
            return self.send(args.list_status, '{"detail": "no"}')
        if url.path == "/api/sessions" and args.bad_list:
            return self.send(200, '{"sessions": ')
        if url.path == "/api/sessions" and args.huge:
            return self.send(200, '{"sessions": [], "pad": "%s"}' % ("x" * (65 << 20)))
        if url.path == "/api/sessions":
            limit = min(int(q.get("limit", ["20"])[0]), 100, args.page_size)
            offset = int(q.get("offset", ["0"])[0])
            rows = [row(s) for s in sessions]
            if q.get("archived", ["exclude"])[0] == "exclude":
                rows = [r for r in rows if not r["archived"]]
            body = {"sessions": rows[offset:offset + limit], "total": len(rows), "limit": limit, "offset": offset}
            if args.stuck:
                body = {"sessions": rows[:limit], "total": len(rows) + 1000, "limit": limit, "offset": offset}
            if args.growing:
                new = [dict(rows[0], id="g%d" % (offset + i)) for i in range(limit)]
                body = {"sessions": new, "total": offset + limit + 10, "limit": limit, "offset": offset}
            if args.no_total:
                del body["total"]
            return self.send(200, json.dumps(body, ensure_ascii=False))
        if url.path == "/api/sessions/search" and args.search_status:
            return self.send(args.search_status, '{"detail": "no"}')
        if url.path == "/api/sessions/search" and args.bad_search:
            return self.send(200, '{"hits": []}')
        if url.path == "/api/sessions/search" and args.search_odd:
            found = search(q.get("q", [""])[0], int(q.get("limit", ["20"])[0]))
            odd = [{"snippet": "no role"}, {"role": "user", "snippet": "no id"}, dict(found[0], snippet=None)] if found else []
            return self.send(200, json.dumps({"results": odd + found}, ensure_ascii=False))
        if url.path == "/api/sessions/search":
            return self.send(200, json.dumps({"results": search(q.get("q", [""])[0], int(q.get("limit", ["20"])[0]))},
                                             ensure_ascii=False))
        parts = url.path.split("/")
        if len(parts) == 5 and parts[1:3] == ["api", "sessions"] and parts[4] == "export":
            sid = urllib.parse.unquote(parts[3])
            match = [s for s in sessions if str(s.get("id")) == sid]
            if not match:
                return self.send(404, '{"detail": "Session not found"}')
            if args.export_status:
                return self.send(args.export_status, '{"detail": "no"}')
            if sid == args.short_export:
                return self.send(200, '{"id": "%s", "messages": [' % sid)
            if sid == args.bad_export:
                return self.send(200, '{"id": "%s", "messages": [}' % sid)
            if args.slow:
                time.sleep(args.slow)
            s = {k: v for k, v in match[0].items() if k != "last_active"}
            if args.wrong_export:
                other = sessions[(sessions.index(match[0]) + 1) % len(sessions)]
                s = {k: v for k, v in other.items() if k != "last_active"}
            data = json.dumps(s, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            if args.raw:
                data = lines[sid]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            end = len(data) // 2 if sid == args.cut else len(data)
            for i in range(0, end, 4096):
                chunk = data[i:min(i + 4096, end)]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            if sid == args.cut:
                self.close_connection = True
                self.connection.shutdown(2)
                return
            self.wfile.write(b"0\r\n\r\n")
            return
        return self.send(404, '{"detail": "Not Found"}')


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
