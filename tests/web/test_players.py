# SPDX-License-Identifier: GPL-3.0-or-later
"""The web page as players use it (issue 45): the cases of make test-web
that look at the page rather than at its numbers. Each takes the shared
Browser and Site of tests/web/test_web.py and its check()."""

import functools
import http.server
import json
import os
import threading
import time
import types

import browser
from browser import axe_violations

WIDE, PHONE = 1280, 360

# One link per tab, each with a result on screen.
TAB_LINKS = {
    "run": "#cmd=run&experiment.ruleset=generic&preset=tow&move=4..6&swiftstride=true"
           "&distance=4..18",
    "map": "#cmd=map&experiment.ruleset=t9a&x=-6..6:1&y=0..12:1",
    "compare": "#cmd=compare&experiment.ruleset=t9a&distance=6..10&b.charge_speed=9",
    "dice": "#cmd=dice&expr=2d6&trials=2000&seed=3",
    "units": "#cmd=units&source=tow/Bretonnians&distance=6..14",
}

# Every visible text input and select, by its name and width.
NARROW_INPUTS = ("[...document.querySelectorAll('input[type=text], select')]"
                 ".filter(i => i.offsetParent !== null)"
                 ".map(i => [i.name || i.id, i.getBoundingClientRect().width])"
                 ".filter(([, w]) => w < 120)")


def width(b, w):
    b.call("Emulation.setDeviceMetricsOverride", width=w, height=900, deviceScaleFactor=1,
           mobile=False)


def test_widths(b, site, check):
    for w in (PHONE, WIDE):
        width(b, w)
        for tab, link in TAB_LINKS.items():
            b.open(site.url + link)
            state = b.wait()
            fits = b.eval("[document.documentElement.scrollWidth, innerWidth]")
            narrow = b.eval(NARROW_INPUTS)
            check("%d px, %s tab: no sideways scrolling, every input at least 120 px" % (w, tab),
                  state == "done" and fits[0] <= fits[1] and not narrow,
                  "state %s, scrollWidth %d > innerWidth %d, narrow %r" % (
                      state, fits[0], fits[1], narrow))
    width(b, WIDE)


def test_file(b, webdir, check):
    url = "file://" + os.path.abspath(os.path.join(webdir, "index.html"))
    b.call("Page.navigate", url="about:blank")
    b.call("Page.navigate", url=url)
    state = b.wait(("file", "idle", "error"), timeout=30)
    shown = b.eval("(() => { const m = document.getElementById('file-message');"
                   " return m.hidden ? '' : m.textContent; })()")
    check("opened as a file: the page says how to serve the folder",
          state == "file" and "http.server" in shown, "state %s, %r" % (state, shown))


def test_compare_unit(b, site, check):
    b.open(site.url + TAB_LINKS["compare"])
    b.wait()
    note = b.eval("document.getElementById('note').textContent")
    axis = b.eval("document.getElementById('chart').getAttribute('aria-label')")
    delta = b.table()[1][3]
    check("compare: the note, the table and the chart in one unit (a proportion)",
          "as a proportion" in note and "proportion" in axis and abs(float(delta)) <= 1,
          "note %r, chart %r, delta %r" % (note, axis, delta))


def legend(b):
    return b.eval("[...document.querySelectorAll('#chart-legend li')]"
                  ".map(l => [l.textContent, l.dataset.colour, l.dataset.dash])")


def test_series(b, site, check):
    for tab in ("run", "compare", "dice"):
        b.open(site.url + TAB_LINKS[tab])
        b.wait()
        items = legend(b)
        styles = [(c, d) for _, c, d in items]
        check("%s chart: no two series with the same colour and dash" % tab,
              items and len(set(styles)) == len(styles), repr(items))
    # Dice: sampled bars carry their intervals, exact ones none.
    bars = {}
    for name, link in (("sampled", TAB_LINKS["dice"]), ("exact", "#cmd=dice&expr=2d6")):
        b.open(site.url + link)
        b.wait()
        bars[name] = b.eval("[document.getElementById('chart').dataset.errorBars,"
                            " document.querySelectorAll('#results tbody tr').length]")
    check("dice: each sampled bar has its error bar, an exact one none",
          bars["sampled"][0] == str(bars["sampled"][1]) and bars["sampled"][1] == 11 and
          bars["exact"][0] == "0", repr(bars))
    # One point: p_success beside the shares, the shares not stacked onto it.
    b.open(site.url + "#cmd=run&experiment.ruleset=t9a&distance=8")
    b.wait()
    items = legend(b)
    labels = [t.strip() for t, _, _ in items]
    check("one point: p_success as a bar beside each outcome's share",
          labels and labels[0].startswith("p_success") and
          all("(share)" in t for t in labels[1:]) and len(labels) == 6, repr(labels))
    # x axis and grouping the player picks.
    b.open(site.url + TAB_LINKS["run"])
    b.wait()
    b.eval("(() => { const s = document.getElementById('chart-x'); s.value = 'move';"
           " s.dispatchEvent(new Event('change')); })()")
    items = legend(b)
    check("the player picks the x axis: curves grouped by the other key",
          any("distance=" in t for t, _, _ in items), repr(items[:3]))


def test_outcomes(b, site, check, cli):
    b.open(site.url + "#cmd=run&experiment.ruleset=t9a&distance=11..12")
    b.wait()
    shown = b.eval("document.getElementById('outcome-help').textContent")
    tip = b.eval("[...document.querySelectorAll('#results th')]"
                 ".find(t => t.dataset.column === 'p_illegal').title")
    rules, _, _ = cli(["rules", "t9a"])
    listed = rules.split("\noutcomes (")[1].split("\nSuccess:")[0]
    line = [l for l in listed.split("\n") if l.startswith("  illegal ")][0].split(None, 1)[1]
    check("outcomes explained beside the table, as chargesim rules prints them",
          line in shown and line in tip, "page %r, tooltip %r, CLI %r" % (shown, tip, line))


def test_games(b, site, check):
    b.open(site.url + "#cmd=run")
    games = b.eval("[...document.querySelectorAll('#game option')].map(o => o.textContent)")
    picked = b.eval("document.getElementById('game').selectedOptions[0].textContent")
    b.eval("(() => { const s = document.getElementById('game');"
           " s.value = [...s.options].find(o => o.textContent.includes('The Old World')).value;"
           " s.dispatchEvent(new Event('change')); })()")
    after = b.eval("[location.hash, document.querySelector('input[data-key=preset]').value]")
    dice = b.eval("!!document.querySelector('.hint button')")
    want = ["The Old World", "Warhammer 40,000", "Age of Sigmar", "8th edition", "The Ninth Age"]
    check("games by their names, and choosing one sets its preset and the link",
          all(any(w in g for g in games) for w in want) and "generic" in picked and
          after[1] == "tow" and "preset=tow" in after[0] and dice, "%r %r %r" % (games, picked, after))


def test_tabs(b, site, check):
    run_link = site.url + TAB_LINKS["run"]
    b.open(run_link)
    b.wait()
    first = b.table()
    b.eval("document.getElementById('tab-dice').click()")
    b.eval("document.querySelector('input[data-key=expr]').value = '3d6'")
    b.eval("document.body.dataset.state = 'x'; document.getElementById('go').click()")
    b.wait()
    dice = b.table()
    dice_hash = b.eval("location.hash")
    b.eval("document.getElementById('tab-run').click()")
    back = [b.table(), b.eval("location.hash"), b.eval("document.querySelector("
                                                      "'input[data-key=distance]').value")]
    b.eval("document.getElementById('tab-dice').click()")
    again = [b.table(), b.eval("location.hash")]
    check("tabs keep their inputs and results, and the link describes the tab on screen",
          first and back[0] == first and back[1] == TAB_LINKS["run"] and back[2] == "4..18" and
          again[0] == dice and again[1] == dice_hash and "expr=3d6" in dice_hash,
          "run %s -> %s, %r; dice %r -> %r" % (len(first or []), len(back[0] or []), back[1:],
                                                 dice_hash, again[1]))
    b.open(site.url + TAB_LINKS["map"])
    b.wait()
    b.eval("(() => { const s = document.getElementById('game');"
           " s.value = [...s.options].find(o => o.value.startsWith('asoiaf')).value;"
           " s.dispatchEvent(new Event('change')); })()")
    left = b.eval("[document.getElementById('output').hidden, location.hash]")
    check("another game leaves no old result above its form",
          left[0] and left[1] == "#cmd=map&experiment.ruleset=asoiaf", repr(left))
    # The keyboard: arrows move along the tabs.
    b.eval("document.getElementById('tab-map').focus()")
    b.call("Input.dispatchKeyEvent", type="keyDown", key="ArrowRight", code="ArrowRight",
           windowsVirtualKeyCode=39)
    on = b.eval("[document.activeElement.id, document.getElementById('tab-compare')"
                ".getAttribute('aria-selected')]")
    check("the tabs work from the keyboard", on == ["tab-compare", "true"], repr(on))


def test_map_form(b, site, check):
    b.open(site.url + "#cmd=map&experiment.ruleset=t9a")
    shown = b.eval("[...document.querySelectorAll('input[data-key]')].map(i => i.dataset.key)")
    b.open(site.url + "#cmd=run&experiment.ruleset=t9a")
    run = b.eval("[...document.querySelectorAll('input[data-key]')].map(i => i.dataset.key)")
    check("the map's form offers no field the map sets (distance, offset)",
          "distance" not in shown and "offset" not in shown and "x" in shown and
          "distance" in run and "offset" in run, repr(shown))


def test_long_run(b, site, check):
    """A run projected past 30 s is stopped after its first half-second and
    the player asked, before the long wait: the projected time, what is
    quicker, no result; 'Run it anyway' then runs it, with the share done
    and the time left."""
    b.open(site.url + "#cmd=map&experiment.ruleset=t9a&angle=uniform(-30,30)")
    state = b.wait(("asked", "done", "error"), timeout=60)
    asked = b.eval("[document.getElementById('long-run').hidden,"
                   " document.getElementById('long-run').textContent,"
                   " document.getElementById('output').hidden,"
                   " !!document.getElementById('long-go')]")
    b.eval("document.getElementById('long-go').click()")
    b.wait(("busy",), timeout=30)
    end = time.time() + 40
    status = ""
    while time.time() < end and "left" not in status:
        status = b.eval("document.getElementById('progress-text').textContent")
        time.sleep(0.2)
    again = b.eval("document.body.dataset.state")
    b.eval("document.getElementById('cancel').click()")
    b.wait(("cancelled", "done", "error"))
    warning = asked[1]
    check("a long map: stopped to ask before the long wait, with the time it would take and "
          "what is quicker; run anyway, the share done and the time left",
          state == "asked" and not asked[0] and asked[2] and asked[3] and
          "would take about" in warning and "experiment.trials" in warning and
          "experiment.precision" in warning and again == "busy" and "% done" in status and
          "left" in status, "state %s, %r, then %s, status %r" % (state, asked, again, status))


def test_messages(b, site, check, cli):
    b.open(site.url + "#cmd=run&distance=9")
    state = b.wait()
    shown = b.eval("[document.getElementById('game').value, location.hash,"
                   " document.getElementById('error').textContent]")
    check("a link with no ruleset runs the one the form shows, and says so in the link",
          state == "done" and shown[0].startswith("generic") and
          "experiment.ruleset=generic" in shown[1], "%s %r" % (state, shown))
    b.open(site.url + "#cmd=dice&trials=100")
    state = b.wait()
    marked = b.eval("document.querySelector('input[data-key=expr]').classList.contains('invalid')")
    check("dice: an empty expression marks its field", state == "error" and marked,
          "%s %s" % (state, marked))
    b.open(site.url + "#cmd=run")
    methods = b.eval("[...document.querySelectorAll('#choices-experiment\\\\.method option')]"
                     ".map(o => o.value)")
    # What the command line accepts, from its own refusal of a method it
    # does not know ("expected auto, mc, ... or rqmc").
    _, err, _ = cli(["run", "-", "--set", "experiment.ruleset=generic", "--set",
                     "experiment.method=bogus"])
    said = err.split("expected ", 1)[-1].strip().replace(" or ", ", ")
    accepted = [w.strip() for w in said.split(",") if w.strip()]
    check("the method field offers exactly what the engine accepts, the command line's",
          methods == accepted, "%r against %r" % (methods, accepted))


CSP_WATCH = ("window.__csp = []; document.addEventListener('securitypolicyviolation',"
             " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def test_csp(b, site, check):
    watch = b.call("Page.addScriptToEvaluateOnNewDocument", source=CSP_WATCH)["identifier"]
    try:
        b.open(site.url + TAB_LINKS["run"])
        state = b.wait()
        policy = b.eval("document.querySelector('meta[http-equiv=Content-Security-Policy]')"
                        ".content")
        seen = b.eval("window.__csp")
        # The policy holds: an inline script (as a missed escaping would make) does not run.
        b.eval("(() => { const s = document.createElement('script');"
               " s.textContent = 'window.ran = 1'; document.body.append(s); })()")
        time.sleep(0.2)
        blocked = b.eval("[window.ran === undefined, window.__csp.length]")
    finally:
        b.call("Page.removeScriptToEvaluateOnNewDocument", identifier=watch)
    check("Content-Security-Policy: present, the page runs under it with no violation",
          state == "done" and "script-src 'self' 'wasm-unsafe-eval'" in policy and seen == [] and
          blocked[0] and blocked[1] == 1, "state %s, policy %r, violations %r, inline %r" % (
              state, policy, seen, blocked))


def test_axe(b, site, check, axe_path):
    if not os.path.exists(axe_path):
        return check("accessibility (axe-core)", False, axe_path + " missing: make deps-web")
    with open(axe_path, encoding="utf-8") as f:
        axe = f.read()
    for w in (WIDE, PHONE):
        width(b, w)
        for tab, link in TAB_LINKS.items():
            b.open(site.url + link)
            b.wait()
            found = axe_violations(b, axe)
            check("accessibility, %s tab at %d px: no serious or critical violation (axe-core)"
                  % (tab, w), found == [], json.dumps(found))
    width(b, WIDE)


def test_offline(browser_class, site, check):
    """A fresh browser: one visit, then the network off over the DevTools
    protocol, and a reload still computes a table."""
    b = browser_class()
    try:
        link = site.url + "#cmd=run&experiment.ruleset=t9a&distance=3..12"
        b.open(link)
        first = b.wait()
        ready = b.eval("navigator.serviceWorker.ready.then(() => new Promise(r => {"
                       " const t = () => navigator.serviceWorker.controller ? r(true) :"
                       " setTimeout(t, 50); t(); }))")
        rows = b.table()
        b.call("Network.enable")
        b.call("Network.emulateNetworkConditions", offline=True, latency=0,
               downloadThroughput=-1, uploadThroughput=-1)
        b.call("Page.reload", ignoreCache=False)
        again = b.wait(("done", "error"), timeout=60)
        offline_rows = b.table()
        reachable = b.eval("fetch('index.html?probe=' + Date.now(), {cache: 'no-store'})"
                           ".then(() => 'cache', () => 'refused')")
        check("offline: after one visit, with the network off, a reload computes the table",
              first == "done" and ready and again == "done" and offline_rows == rows,
              "first %s, worker %s, offline %s, rows %d vs %d, probe %s" % (
                  first, ready, again, len(rows or []), len(offline_rows or []), reachable))
        manifest = b.eval("fetch(document.querySelector('link[rel=manifest]').href)"
                          ".then(r => r.json()).then(m => [m.name, m.start_url, m.display])")
        check("a web manifest lets a phone install the page",
              manifest and manifest[2] == "standalone", repr(manifest))
    finally:
        b.close()


class _Switch(browser._Quiet):
    """web/ served, or, while `down` is set, every connection closed unanswered
    (a fetch fails as with no signal: DevTools' offline mode does not reach
    the page's worker, which fetches the catalogues)."""
    down = False

    def handle_one_request(self):
        if _Switch.down:
            self.raw_requestline = self.rfile.readline(65537)
            self.close_connection = True
            return
        super().handle_one_request()


def test_offline_armies(browser_class, _site, check, webdir):
    """Issue 52: offline, an army never opened says it was not saved for
    offline use and offers to save every army (its size the index's); once
    saved (online), offline again any army's table is made."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Switch, directory=webdir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = types.SimpleNamespace(url="http://127.0.0.1:%d/" % server.server_address[1])
    b = browser_class()
    off = dict(latency=0, downloadThroughput=-1, uploadThroughput=-1)
    try:
        b.open(site.url + "#cmd=units")
        b.wait(("idle",))
        b.eval("navigator.serviceWorker.ready.then(() => new Promise(r => {"
               " const t = () => navigator.serviceWorker.controller ? r(true) :"
               " setTimeout(t, 50); t(); }))")
        b.call("Page.reload", ignoreCache=False)  # the units index, through the worker
        b.wait(("idle",))
        b.call("Network.enable")
        b.call("Network.emulateNetworkConditions", offline=True, **off)
        _Switch.down = True
        b.eval("document.body.dataset.state = 'going'")
        b.eval("location.hash = '#cmd=units&source=tow/Bretonnians&distance=6..14'")
        state = b.wait(("done", "error"), timeout=60)
        notice = b.eval("document.getElementById('units-notice')?.textContent ?? ''")
        button = b.eval("document.getElementById('units-save-all')?.textContent ?? ''")
        command = b.eval("!!document.querySelector('p.command').offsetParent")
        with open(os.path.join(webdir, "data", "index.json")) as f:
            index = json.load(f)
        files = set(index["mappings"])
        for g in index["games"]:
            for a in g["armies"]:
                files.update(a["files"])
        size = "(%.1f MB)" % (sum(index["bytes"][p] for p in files) / 1e6)
        check("offline: an army never opened says it was not saved for offline use, offers to "
              "save every army (%s), and shows no command line" % size,
              state == "error" and "not saved for offline use" in notice and size in button
              and "Failed to fetch" not in notice and not command,
              "%s; %s; %s; command %s" % (state, notice, button, command))
        b.call("Network.emulateNetworkConditions", offline=False, **off)
        _Switch.down = False
        b.eval("document.getElementById('units-save-all').click()")
        saved = ""
        for _ in range(600):
            saved = b.eval("document.getElementById('units-save-status')?.textContent ?? ''")
            if "Saved" in saved or "Not saved" in saved:
                break
            time.sleep(0.1)
        b.call("Network.emulateNetworkConditions", offline=True, **off)
        _Switch.down = True
        results = []
        for source in ("bsdata-asoiaf/House_Stark", "tow/Bretonnians"):
            b.eval("document.body.dataset.state = 'going'")
            b.eval("location.hash = '#cmd=units&source=%s'" % source)
            results.append(b.wait(("done", "error"), timeout=120))
        check("offline: after saving every army, any army's table is made with no connection",
              "Saved" in saved and results == ["done", "done"], "%s; %s" % (saved, results))
    finally:
        _Switch.down = False
        b.close()
        server.shutdown()
        server.server_close()
