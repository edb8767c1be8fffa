# SPDX-License-Identifier: GPL-3.0-or-later
"""make test-web's Units tab cases (issue 44), run by tests/web/test_web.py:
the page's units table against `bin/chargesim units` run from the
repository's root, cell for cell (the CSV parsed as CSV: names hold commas):
  - one shipped army per game, opened by its link;
  - a dropped roster without New Recruit's group attributes, its army
    never loaded: its catalogue fetched among the shipped ones (issue 50);
  - a dropped catalogue set (an army, the catalogues it links, its game
    system) and a dropped units CSV, set on the file input over the DevTools
    protocol (DOM.setFileInputFiles);
  - a malformed catalogue: the command line's message in #error, and the
    page works on;
  - an army whose every unit is left out: the command line's refusal in
    #error, its notes and count line beside it;
  - a unit whose name is markup: shown as text, no element made;
  - a units link opened twice: the same table;
  - a header's click sorts the rows by its column (a reach column high to
    low first, issue 52); the reach chart is drawn;
  - the About / Licences page names each library linked, with the Debian
    source version web/SOURCES.txt records."""

import csv
import io
import json
import os
import re
import subprocess
import shutil
import tempfile
import time
import urllib.parse
from browser import scaled  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ARMIES = [
    # (link source, repository path, distances)
    ("tow/Bretonnians", "data/tow/Bretonnians.cat", "6..14"),
    ("bsdata-t9a-2nd/2nd-empireOfSonnstahl", "data/bsdata-t9a-2nd/2nd-empireOfSonnstahl.cat",
     "4..12"),
    ("bsdata-asoiaf/House_Stark", "data/bsdata-asoiaf/House_Stark.cat", "2..10"),
]


class Units:
    def __init__(self, b, site, binary, webdir, check):
        self.b, self.site, self.bin, self.webdir, self.check = b, site, binary, webdir, check

    def cli(self, args, cwd=ROOT, env=None):
        p = subprocess.run([self.bin, "units"] + args, capture_output=True, text=True,
                           timeout=scaled(600), cwd=cwd,
                           env=dict(os.environ, **env) if env else None)
        return p.stdout, p.stderr, p.returncode

    def link(self, source, distance):
        return self.site.url + "#cmd=units&source=%s&distance=%s" % (
            urllib.parse.quote(source, safe="/"), urllib.parse.quote(distance))

    def state(self):
        return self.b.eval("document.body.dataset.state")

    def error(self):
        return self.b.eval("document.getElementById('error').textContent")

    def same(self, name, out, rc, err, state):
        if rc != 0:
            return self.check(name, False, "the command line failed: " + err)
        if state != "done":
            return self.check(name, False, "state %s: %s" % (state, self.error()))
        page = self.b.table()
        want = list(csv.reader(io.StringIO(out)))
        diff = None
        if page != want:
            diff = "rows: page %d, CLI %d" % (len(page or []), len(want))
            for r, (x, y) in enumerate(zip(page or [], want)):
                if x != y:
                    diff = "row %d: page %r, CLI %r" % (r, x, y)
                    break
        self.check(name, diff is None and len(want) > 1, diff or "an empty table")

    def shipped(self):
        for source, path, distance in ARMIES:
            self.b.open(self.link(source, distance))
            state = self.b.wait()
            out, err, rc = self.cli([path, "--distance", distance])
            self.same("units: %s %s equals chargesim units" % (source, distance), out, rc, err,
                      state)
            shown = self.b.eval("document.getElementById('command').textContent")
            self.check("units: %s shows its command line" % source,
                       shown == "chargesim units %s --distance %s" % (path, distance)
                       or ("'" in shown and path in shown), shown)

    def drop(self, paths):
        """Sets paths on the Units tab's file input, as a drop does, and
        waits for the table the page makes of them."""
        self.b.eval("document.body.dataset.state = 'dropping'")
        obj = self.b.call("Runtime.evaluate",
                          expression="document.getElementById('units-files')")["result"]
        self.b.call("DOM.setFileInputFiles", files=[os.path.abspath(p) for p in paths],
                    objectId=obj["objectId"])
        return self.b.wait()

    def pick(self, name):
        """Runs the dropped files with source name."""
        self.b.eval("document.body.dataset.state = 'picking'")
        self.b.eval("(() => { const s = document.getElementById('units-source'); s.value = %s;"
                    " document.getElementById('units-run-dropped').click(); })()"
                    % json.dumps(name))
        return self.b.wait()

    def dropped(self):
        self.b.open(self.site.url + "#cmd=units")
        self.b.wait(("idle",))
        with open(os.path.join(self.webdir, "data", "index.json")) as f:
            index = json.load(f)
        game = [g for g in index["games"] if g["folder"] == "bsdata-asoiaf"][0]
        army = [a for a in game["armies"] if a["key"] == "House_Lannister"][0]
        self.drop([os.path.join(ROOT, p) for p in army["files"]])
        state = self.pick(os.path.basename(army["files"][0]))
        out, err, rc = self.cli([army["files"][0]])
        self.same("units: a dropped catalogue set equals chargesim units", out, rc, err, state)
        nolink = self.b.eval("location.hash")
        self.check("units: a dropped file's table has no link, and the page says so",
                   nolink == "#cmd=units" and "no link" in self.b.eval(
                       "document.getElementById('units-extra').textContent"), nolink)
        path = os.path.join(ROOT, "tests/data/units/units.csv")
        state = self.drop([path])
        out, err, rc = self.cli(["units.csv"], cwd=os.path.dirname(path))
        self.same("units: a dropped units CSV equals chargesim units", out, rc, err, state)

    def roster(self):
        """Issue 46: a dropped list (each of our Old World list's three
        forms, and a real Age of Sigmar export with its test mapping absent:
        the game-system refusal) gives the command line's table."""
        for form in ("ros", "rosz", "json"):
            path = os.path.join(ROOT, "tests/data/rosters/own/tow-bretonnia." + form)
            self.b.open(self.site.url + "#cmd=units")
            self.b.wait(("idle",))
            with tempfile.TemporaryDirectory() as tmp:
                shutil.copy(path, tmp)
                state = self.drop([path])
                out, err, rc = self.cli([os.path.basename(path)], cwd=tmp)
            self.same("units: a dropped roster (.%s) equals chargesim units" % form, out, rc, err,
                      state)

    def roster_catalogue(self):
        """Issue 50: our Bretonnian list as BattleScribe writes it, without
        New Recruit's group attributes, dropped alone in a fresh page that
        never loaded the Bretonnians: the page fetches the catalogue it
        ships under the roster's catalogueId and gives the table the command
        line gives with the shipped data/ (CS_DATA): the Duke on his Royal
        Pegasus, flying, with no note of a missing catalogue."""
        with open(os.path.join(ROOT, "tests/data/rosters/own/tow-bretonnia.ros")) as f:
            text = re.sub(r' group="[^"]*"', "", f.read())
        self.b.open(self.site.url + "#cmd=units")
        self.b.wait(("idle",))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "list.ros")
            with open(path, "w") as f:
                f.write(text)
            state = self.drop([path])
            out, err, rc = self.cli(["list.ros"], cwd=tmp,
                                    env={"CS_DATA": os.path.join(ROOT, "data")})
        name = "units: a dropped roster without group attributes finds its catalogue among " \
               "the shipped ones and equals chargesim units"
        self.same(name, out, rc, err, state)
        notes = self.b.eval("[...document.querySelectorAll('#units-notes li')]"
                            ".map(li => li.textContent)") or []
        table = self.b.table() or [["name"]]
        names = [r[table[0].index("name")] for r in table[1:]] if "name" in table[0] else []
        self.check("units: that roster's Duke flies on his Royal Pegasus, no catalogue missing",
                   " group=" not in text and "Duke (on Royal Pegasus, flying)" in names
                   and not any("no catalogue found" in n for n in notes),
                   "names %r, notes %r" % (names, notes))

    def malformed(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "Broken.cat")
            with open(bad, "w") as f:
                f.write('<?xml version="1.0"?>\n<catalogue id="x" name="Broken" '
                        'gameSystemId="y">\n  <selectionEntries>\n    <oops>\n')
            self.b.open(self.site.url + "#cmd=units")
            self.b.wait(("idle",))
            state = self.drop([bad])
            _, err, rc = self.cli(["Broken.cat"], cwd=tmp)
        shown = self.error()
        last = err.strip().split("\n")[-1] if err.strip() else ""
        self.b.open(self.link(*ARMIES[0][::2]))
        after = self.b.wait()
        self.check("units: a malformed catalogue gives the command line's message, "
                   "and the page works on",
                   state == "error" and rc == 2 and shown == last and after == "done",
                   "state %s, page %r, CLI %r (%d), then %s" % (state, shown, last, rc, after))

    def empty(self):
        """An army whose every unit the mapping leaves out: the command
        line's refusal, after its notes."""
        source = "bsdata-t9a-2nd/2nd-kingdomOfEquitaine"
        self.b.open(self.link(source, "4..12"))
        state = self.b.wait()
        _, err, rc = self.cli(["data/%s.cat" % source, "--distance", "4..12"])
        lines = err.strip().split("\n")
        notes = self.b.eval("[...document.querySelectorAll('#units-notes li')]"
                            ".map(li => li.textContent)")
        summary = self.b.eval("document.querySelector('#units-notes summary').textContent")
        self.check("units: every unit left out: the command line's refusal and its notes",
                   state == "error" and rc == 2 and self.error() == lines[-1]
                   and notes == lines[:-2] and summary == lines[-2],
                   "state %s, page %r, CLI %r, %d notes (CLI %d)"
                   % (state, self.error(), lines[-1], len(notes or []), len(lines) - 2))

    def markup(self):
        name = '<img src=x onerror="window.pwned=1"><b id=bold>x</b>'
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "markup.csv")
            with open(path, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["name", "ruleset", "points", "base", "move"])
                w.writerow([name, "generic", "100", "20x20", "4"])
            self.b.open(self.site.url + "#cmd=units")
            self.b.wait(("idle",))
            state = self.drop([path])
            out, err, rc = self.cli(["markup.csv"], cwd=tmp)
        cells = self.b.eval("[...document.querySelectorAll('#results td')].map(c => c.textContent)")
        safe = self.b.eval("!document.querySelector('#results img, #units-extra img') && "
                           "!document.getElementById('bold') && window.pwned === undefined")
        self.same("units: a markup unit name equals chargesim units", out, rc, err, state)
        self.check("units: a markup unit name shows as text, no element made",
                   safe and name in (cells or []), "safe %s, cells %r" % (safe, cells))

    def twice(self):
        url = self.link("tow/Bretonnians", "8..12")
        self.b.open(url)
        self.b.wait()
        first = self.b.table()
        self.b.open(url)
        self.b.wait()
        second = self.b.table()
        self.check("units: a units link opened twice gives the same table",
                   first == second and first is not None and len(first) > 1,
                   "%s then %s rows" % (len(first or []), len(second or [])))


    def sorting(self):
        self.b.open(self.link("tow/Bretonnians", "6..14"))
        state = self.b.wait()
        before = self.b.table()
        col = before[0].index("reach_75")
        button = "document.querySelectorAll('#results thead th')[%d].querySelector('button')" % col
        self.b.eval(button + ".click()")
        up = [r[col] for r in self.b.table()[1:]]
        # Again from the keyboard: the header's button focused, Enter pressed.
        self.b.eval(button + ".focus()")
        for kind in ("keyDown", "keyUp"):
            self.b.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter",
                        windowsVirtualKeyCode=13, text="\r" if kind == "keyDown" else "")
        down = [r[col] for r in self.b.table()[1:]]
        sort = self.b.eval("document.querySelectorAll('#results thead th')[%d]"
                           ".getAttribute('aria-sort')" % col)
        nums = sorted(float(r[col]) for r in before[1:] if r[col] != "")
        chart = self.b.eval("(() => { const c = document.getElementById('units-chart');"
                            " return c ? c.height : 0; })()")
        # A reach column's first click sorts from high to low (issue 52).
        self.check("units: a reach header's click sorts its column high to low, Enter on it "
                   "the other way (aria-sort says which); a chart of reach_75",
                   state == "done" and sort == "ascending" and [float(x) for x in up if x != ""] == nums[::-1]
                   and [float(x) for x in down if x != ""] == nums
                   and sorted(map(tuple, self.b.table()[1:])) == sorted(map(tuple, before[1:]))
                   and chart > 0, "state %s, up %r, down %r, %s, chart %r" % (state, up, down, sort, chart))


    def licences(self):
        self.b.open(self.site.url + "#cmd=units")
        href = self.b.eval("document.getElementById('about').getAttribute('href')")
        self.b.call("Page.navigate", url=self.site.url + href)
        with open(os.path.join(self.webdir, "SOURCES.txt")) as f:
            want = [l.split()[:2] for l in f if l.strip() and not l.startswith("#")]
        shown = []
        for _ in range(100):
            try:
                shown = self.b.eval("[...document.querySelectorAll('[data-package]')]"
                                    ".map(c => c.textContent)") or []
            except RuntimeError:
                shown = []
            if any(" " in x for x in shown):
                break
            time.sleep(0.05)
        linked = [w for w in want if w[0] in ("libxml2", "libcsv", "libinih", "gsl")]
        self.check("the page's About / Licences names each linked library with its Debian "
                   "source version",
                   len(linked) == 4 and all(any(x.startswith("%s %s" % (n, v)) for x in shown)
                                            for n, v in linked), repr(shown))


def run(b, site, binary, webdir, check):
    u = Units(b, site, binary, webdir, check)
    for case in (u.shipped, u.dropped, u.roster, u.roster_catalogue, u.malformed, u.empty, u.markup, u.twice, u.sorting, u.licences):
        try:
            case()
        except Exception as e:  # a case that could not run is a failure
            check("units: " + case.__name__, False, "%s: %s" % (type(e).__name__, e))
