#!/usr/bin/env python3
"""Drive headless Chromium over the DevTools protocol (--remote-debugging-pipe: no socket, no
network) to use a page's conveniences as a person would: click, type, read the DOM back.

usage: html-browser-drive.py BROWSER PROFILE_DIR URL SCRIPT
SCRIPT is JavaScript evaluated in the page once it has loaded; it returns a JSON-able value
(an await-able expression is fine).  Prints {"result": ..., "console": [...], "exceptions": [...]}
as one JSON line; exit 2 when the browser cannot be driven.
"""
import json
import os
import subprocess
import sys
import time


class Pipe:
    def __init__(self, browser, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def fds():  # the browser reads commands on fd 3 and writes replies on fd 4 (by way of
            os.dup2(to_browser_r, 100)  # 100 and 101: either end may itself be 3 or 4)
            os.dup2(from_browser_w, 101)
            os.dup2(100, 3)
            os.dup2(101, 4)

        self.proc = subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
             "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        return self.wait(self.next_id)

    def wait(self, want, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                msg = json.loads(raw)
                if msg.get("id") == want:
                    if "error" in msg:
                        raise RuntimeError(msg["error"])
                    return msg.get("result", {})
                if "method" in msg:
                    self.events.append(msg)
            chunk = os.read(self.from_browser, 65536)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self.buf += chunk
        raise RuntimeError("no reply in time")

    def close(self):
        self.proc.kill()
        self.proc.wait()


def main():
    browser, profile, url, script = sys.argv[1:5]
    width = int(sys.argv[5]) if len(sys.argv) > 5 else 0  # a viewport this wide (a phone: 390)
    scheme = sys.argv[6] if len(sys.argv) > 6 else ""  # "dark": prefers-color-scheme: dark
    try:
        p = Pipe(browser, profile)
        target = p.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = p.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        p.send("Runtime.enable", session=s)
        p.send("Log.enable", session=s)
        p.send("Page.enable", session=s)
        if width:
            p.send("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=s)
        if scheme:
            p.send("Emulation.setEmulatedMedia",
                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session=s)
        p.send("Page.navigate", {"url": url}, session=s)
        for _ in range(100):
            r = p.send("Runtime.evaluate", {"expression": "document.readyState", "returnByValue": True}, session=s)
            if r["result"].get("value") == "complete":
                break
            time.sleep(0.05)
        r = p.send("Runtime.evaluate", {"expression": script, "returnByValue": True, "awaitPromise": True},
                   session=s)
    except (OSError, RuntimeError, KeyError, ValueError) as e:
        print(json.dumps({"error": str(e)}))
        sys.exit(2)
    console = [str(e["params"].get("entry", e["params"]).get("text", e["params"].get("args")))
               for e in p.events if e["method"] in ("Log.entryAdded", "Runtime.consoleAPICalled")]
    exceptions = [e["params"]["exceptionDetails"].get("text") for e in p.events
                  if e["method"] == "Runtime.exceptionThrown"]
    if "exceptionDetails" in r:
        exceptions.append(r["exceptionDetails"].get("text"))
    p.close()
    print(json.dumps({"result": r["result"].get("value"), "console": console, "exceptions": exceptions}))


main()
