# SPDX-License-Identifier: GPL-3.0-or-later
"""Headless Chromium over the DevTools protocol, and web/ served on the
loopback, for the web edition's test and benchmark (make test-web, make
bench-web). Debian's python3 with websocket-client (python3-websocket)
and Debian's chromium; nothing else.

Chromium runs as root only with --no-sandbox; it gets a fresh profile, no
network services of its own (background networking, component updates,
sync off) and picks its own debugging port, which it writes to
DevToolsActivePort in the profile."""

import base64
import functools
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request

import websocket



def scaled(seconds):
    """seconds times $CS_TEST_TIME_SCALE (at least 1), as every wait of the
    tests is scaled: a slow or instrumented machine waits longer."""
    try:
        k = float(os.environ.get("CS_TEST_TIME_SCALE", "1"))
    except ValueError:
        k = 1.0
    return seconds * max(k, 1.0)


# axe-core's serious and critical violations on the page, each "id
# (impact): its first three nodes".
AXE_RUN = ("axe.run(document, {resultTypes: ['violations']}).then(r =>"
           " r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')"
           ".map(v => v.id + ' (' + v.impact + '): ' +"
           " v.nodes.slice(0, 3).map(n => n.target.join(' ')).join('; ')))")


def axe_violations(b, axe_source):
    """Loads axe-core (its source text) into the page on screen and runs it:
    the serious and critical violations (AXE_RUN), [] when there are none."""
    b.eval(axe_source + "\n;0")
    return b.eval(AXE_RUN)

class Site:
    """web/ served by a static HTTP server on 127.0.0.1 (a port the system
    picks), in a thread of this process."""

    def __init__(self, root):
        handler = functools.partial(_Quiet, directory=root)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = "http://127.0.0.1:%d/" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    # Module scripts need a JavaScript type, streaming compilation application/wasm.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".wasm": "application/wasm",
                      ".css": "text/css", ".html": "text/html"}

    def log_message(self, *args):
        pass


class Browser:
    """One headless Chromium and one page, driven over CDP."""

    def __init__(self, width=1280, height=900):
        self.profile = tempfile.mkdtemp(prefix="chargesim-chromium-")
        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + self.profile, "--remote-debugging-port=0",
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port = self._port()
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=10) as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=120)
        self.next_id = 0
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  width=width, height=height, deviceScaleFactor=1, mobile=False)

    def _port(self):
        path = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(path):
                with open(path) as f:
                    first = f.readline().strip()
                if first:
                    return int(first)
            if self.proc.poll() is not None:
                raise RuntimeError("chromium exited with status %d" % self.proc.returncode)
            time.sleep(0.1)
        raise RuntimeError("chromium did not open its debugging port in 30 s")

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == ident:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})

    def eval(self, expression):
        """The value of a JavaScript expression (awaited when a promise)."""
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")

    def open(self, url):
        """Loads url afresh (about:blank first, so a fragment-only change
        is a new page load too) and waits for the page's engine."""
        self.call("Page.navigate", url="about:blank")
        self.call("Page.navigate", url=url)
        return self.wait(("idle", "busy", "done", "error"))

    def wait(self, states=("done", "error"), timeout=120.0):
        """Waits until document.body.dataset.state is one of states. A run
        the page stopped to ask about (state 'asked': projected past 30 s on
        a loaded machine) is run anyway unless 'asked' is awaited: the page
        then computes what it would have without the question."""
        timeout = scaled(timeout)
        end = time.time() + timeout
        while time.time() < end:
            try:
                state = self.eval("document.body ? document.body.dataset.state : ''")
            except RuntimeError:
                state = None  # the page is between documents
            if state in states:
                return state
            if state == "asked":
                self.eval("document.getElementById('long-go').click()")
            time.sleep(0.02)
        raise RuntimeError("the page stayed '%s' for %g s" % (state, timeout))

    def table(self):
        """<table id="results"> as rows of the CSV's cells, header row first:
        a numeric cell's data-value (the CSV's text, which the page may show
        rounded), a header cell's data-column (its CSV name, which the page
        shows under the player's label), else its text. Hidden columns too."""
        return self.eval("[...document.querySelectorAll('#results tr')]"
                         ".map(r => [...r.cells].map(c => c.dataset.value ?? c.dataset.column"
                         " ?? c.textContent))")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data["data"]))

    def close(self):
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)
