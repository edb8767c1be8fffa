#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The result's export (issue 52, web/js/export.js) in headless Chromium
against bin/chargesim, run by tests/web/test_web.py (WEB_TESTS=export runs
these alone). For a run (exact, sampled, and a pivot), a map, a
comparison, dice and a units table, each opened from its link:
  - Download CSV, a real download (Browser.setDownloadBehavior into a
    temporary folder), equals the file `chargesim CMD ... -o FILE.csv`
    writes for the command line the page shows (#command), byte for byte;
  - Copy Markdown (the clipboard, read back with the permission granted)
    equals what `chargesim CMD ... --format md` prints; a map, whose
    command has no --format, offers none;
  - Copy table gives tab-separated text whose cells are the CSV's;
  - the chart's SVG holds its title and its source line ("chargesim
    VERSION · method M", "· seed S" where sampled) as text; the PNG is
    1600 x 1000, carries both in iTXt chunks, and is not blank where the
    title and the source line are drawn (its pixels decoded here, with
    zlib: a picture whose text never reached the pixels fails);
  - a refused clipboard leaves the text selected in a box instead;
  - axe-core still finds no serious violation (test_players.test_axe)."""

import csv
import io
import os
import shlex
import shutil
import struct
import subprocess
import tempfile
import time
import zlib

from browser import scaled

LINKS = [
    # (name, link, sampled seed or None)
    ("run, exact", "#cmd=run&experiment.ruleset=t9a&distance=3..8", None),
    ("run, sampled (mc)", "#cmd=run&experiment.ruleset=asoiaf&distance=4..6"
     "&experiment.method=mc&experiment.trials=4000&experiment.seed=5", "5"),
    ("run, a pivot", "#cmd=run&experiment.ruleset=generic&preset=whfb8&move=4,5"
     "&distance=6..8&pivot=move:distance", None),
    ("map", "#cmd=map&experiment.ruleset=t9a&x=-3..3:1&y=1..6:1", None),
    ("compare", "#cmd=compare&experiment.ruleset=generic&preset=tow&move=4&distance=6..10"
     "&b.move=5", None),
    ("dice, sampled", "#cmd=dice&expr=2d6&trials=3000&seed=3", "3"),
    ("units", "#cmd=units&source=tow/Bretonnians&distance=6..10", None),
]

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def png_rows(data):
    """A PNG's size, its iTXt texts and its pixel rows (8-bit RGB or RGBA,
    unfiltered: PNG specification, 9)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, texts, w, h, bpp = 8, b"", {}, 0, 0, 4
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "depth %d colour %d" % (depth, colour)
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        elif kind == b"iTXt":
            key, rest = body.split(b"\0", 1)
            texts[key.decode()] = rest[2:].split(b"\0", 2)[2].decode("utf-8")
        at += 12 + n
    raw, rows, prev, stride = zlib.decompress(idat), [], bytearray(w * bpp), w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, texts, rows, bpp


def inked(rows, bpp, y0, y1):
    """Pixels in rows y0..y1 that are not white: text was drawn there."""
    return sum(1 for r in rows[y0:y1] for i in range(0, len(r), bpp) if r[i:i + 3] != b"\xff\xff\xff")


class Export:
    def __init__(self, b, site, binary, check, players):
        self.b, self.site, self.bin, self.check, self.players = b, site, binary, check, players
        self.dir = tempfile.mkdtemp(prefix="chargesim-export-")
        self.tmp = tempfile.mkdtemp(prefix="chargesim-export-cli-")
        b.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=self.dir)
        origin = site.url.split("#")[0].rstrip("/")
        origin = "/".join(origin.split("/")[:3])
        b.call("Browser.grantPermissions", origin=origin,
               permissions=["clipboardReadWrite", "clipboardSanitizedWrite"])
        b.call("Emulation.setFocusEmulationEnabled", enabled=True)
        self.version = subprocess.run([binary, "--version"], capture_output=True, text=True,
                                      timeout=60).stdout.split()[-1]

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def cli(self, words, extra):
        """bin/chargesim with the page's command line (its first word is
        chargesim) and extra words: stdout, stderr, exit status."""
        p = subprocess.run([self.bin] + words[1:] + extra, capture_output=True, timeout=scaled(600),
                           stdin=subprocess.DEVNULL, cwd=ROOT)
        return p.stdout, p.stderr.decode(errors="replace"), p.returncode

    def download(self, button, name):
        """Clicks button and returns the bytes of the file the browser saved."""
        path = os.path.join(self.dir, name)
        if os.path.exists(path):
            os.remove(path)
        self.b.eval("document.getElementById(%r).click()" % button)
        end = time.time() + scaled(30)
        while time.time() < end:
            if os.path.exists(path) and not os.path.exists(path + ".crdownload"):
                with open(path, "rb") as f:
                    data = f.read()
                if data:
                    return data
            time.sleep(0.05)
        raise RuntimeError("no download %s in %s: %r" % (name, self.dir, os.listdir(self.dir)))

    def clipboard(self, button):
        self.b.eval("navigator.clipboard.writeText('')")
        self.b.eval("document.getElementById('export-status').textContent = ''")
        self.b.eval("document.getElementById(%r).click()" % button)
        self.b.eval("new Promise(r => { const t = () => document.getElementById('export-status')"
                    ".textContent ? r() : setTimeout(t, 20); t(); })")
        status = self.b.eval("document.getElementById('export-status').textContent")
        return self.b.eval("navigator.clipboard.readText()"), status

    def one(self, name, link, seed):
        b, check = self.b, self.check
        b.open(self.site.url + link)
        state = b.wait()
        if state != "done":
            return check("export, %s: the page ran" % name, False, "state " + state)
        command = b.eval("document.getElementById('command').textContent")
        words = shlex.split(command)
        cmd = words[1]
        csv_path = os.path.join(self.tmp, "cli.csv")
        out, err, rc = self.cli(words, ["-o", csv_path])
        with open(csv_path, "rb") as f:
            want = f.read()
        got = self.download("export-csv", "chargesim-%s.csv" % cmd)
        check("export, %s: Download CSV equals `%s -o FILE.csv`" % (name, command),
              rc == 0 and got == want, "rc %d %s; page %r, CLI %r" % (rc, err, got[:300], want[:300]))
        has_md = b.eval("!!document.getElementById('export-md')")
        if cmd == "map":
            check("export, %s: no Copy Markdown (map has no --format)" % name, not has_md)
        else:
            md, status = self.clipboard("export-md")
            out, err, rc = self.cli(words, ["--format", "md"])
            check("export, %s: Copy Markdown equals `%s --format md`, and says Copied" % (name, command),
                  rc == 0 and md == out.decode() and status.startswith("Copied"),
                  "rc %d %s; status %r; page %r, CLI %r" % (rc, err, status, md[:300], out[:300]))
        tsv, status = self.clipboard("export-tsv")
        cells = [line.split("\t") for line in tsv.rstrip("\n").split("\n")]
        csv_cells = list(csv.reader(io.StringIO(want.decode())))
        # The units table sorts by a clicked header: compared as sets of rows.
        same = (cells[0] == csv_cells[0] and sorted(cells[1:]) == sorted(csv_cells[1:])
                if cmd == "units" else cells == csv_cells)
        check("export, %s: Copy table's cells are the CSV's" % name, same,
              "%r vs %r" % (cells[:2], csv_cells[:2]))
        self.pictures(name, cmd, seed)

    def pictures(self, name, cmd, seed):
        b, check = self.b, self.check
        has_svg = b.eval("!!document.getElementById('export-svg')")
        has_png = b.eval("!!document.getElementById('export-png')")
        if cmd == "units":
            return
        if b.eval("document.getElementById('chart-view').hidden") and cmd != "map":
            # A pivot is a table of one column's values: no chart to draw.
            return check("export, %s: no chart, so no chart to download" % name,
                         not has_svg and not has_png)
        source = "chargesim %s · method " % self.version
        if has_svg:
            svg = self.download("export-svg", "chargesim-%s.svg" % cmd).decode()
            ok = ("<svg" in svg and "chargesim %s: " % cmd in svg and source in svg and
                  (seed is None or ("· seed %s" % seed) in svg) and "<text" in svg)
            check("export, %s: the chart's SVG holds its title and source line" % name, ok,
                  svg[:400])
        elif cmd != "map":
            check("export, %s: a chart to download" % name, False, "no SVG button")
        if not has_png:
            return check("export, %s: a PNG to download" % name, False, "no PNG button")
        png = self.download("export-png", "chargesim-%s.png" % cmd)
        w, h, texts, rows, bpp = png_rows(png)
        title_ink = inked(rows, bpp, 24, 70)
        source_ink = inked(rows, bpp, h - 80, h - 10)
        body_ink = inked(rows, bpp, 100, h - 120)
        check("export, %s: the PNG is 1600 x 1000, carries title and source, and is drawn" % name,
              (w, h) == (1600, 1000) and texts.get("Title", "").startswith("chargesim %s" % cmd) and
              texts.get("Source", "").startswith(source) and
              (seed is None or texts["Source"].endswith("seed %s" % seed)) and
              title_ink > 200 and source_ink > 200 and body_ink > 2000,
              "%dx%d, texts %r, ink: title %d, source %d, body %d" % (
                  w, h, texts, title_ink, source_ink, body_ink))

    def refused(self):
        """A clipboard the browser refuses: the text selected in a box."""
        self.b.open(self.site.url + LINKS[0][1])
        self.b.wait()
        self.b.eval("navigator.clipboard.writeText = () => Promise.reject(new Error('refused'))")
        self.b.eval("document.getElementById('export-md').click()")
        self.b.eval("new Promise(r => { const t = () => document.getElementById('export-text')"
                    " ? r() : setTimeout(t, 20); t(); })")
        box = self.b.eval("(() => { const t = document.getElementById('export-text');"
                          " return [t.value, t.selectionStart, t.selectionEnd,"
                          " document.activeElement === t]; })()")
        status = self.b.eval("document.getElementById('export-status').textContent")
        md = self.b.eval("document.getElementById('export-text').value")
        self.check("export: a refused clipboard leaves the Markdown selected in a box",
                   md and box[1] == 0 and box[2] == len(md) and box[3] and "refused" in status,
                   "box %r, status %r" % (box[1:], status))


def run(b, site, binary, check, players, axe):
    e = Export(b, site, binary, check, players)
    try:
        for name, link, seed in LINKS:
            try:
                e.one(name, link, seed)
            except Exception as ex:  # a case that could not run is a failure
                check("export, " + name, False, "%s: %s" % (type(ex).__name__, ex))
        e.refused()
        players.test_axe(b, site, check, axe)
    finally:
        e.close()
