# SPDX-License-Identifier: GPL-3.0-or-later
"""The waits of the web page (issue 52): a long run's question where the
player looks, honest estimates of a run's time, a cancel that is no error,
the focus on the result, and an about page without a missing icon. Each
case takes the shared Browser and Site of tests/web/test_web.py and its
check(); WEB_TESTS=waits runs only these (WEB_TESTS=methods: the method
field's cases alone)."""

import csv
import io
import json
import subprocess
import time

from browser import axe_violations, scaled

# A threat map with the angle drawn per trial: a drawn layout in every
# trial, long at the default trials (the map of test_players.test_long_run).
LONG_MAP = "#cmd=map&experiment.ruleset=t9a&angle=uniform(-30,30)"

# The cases of the estimate: links of 5-40 s on a quiet machine, each a
# kind of whole-run model: a drawn layout at the default trials, the same
# with the "fewer trials" the question suggests, a precision (the rounds it
# needs), rqmc (trials rounded up to a power of two), plain mc.
SMALL_MAP = LONG_MAP + "&x=-4..4:1&y=0..4:1"
ESTIMATES = [
    ("a drawn-layout map", SMALL_MAP),
    ("the same with trials 10000", SMALL_MAP + "&experiment.trials=10000"),
    ("a precision", "#cmd=run&experiment.ruleset=t9a&angle=uniform(-30,30)&distance=6..12"
     "&experiment.method=mc&experiment.precision=0.001"),
    ("rqmc", "#cmd=run&experiment.ruleset=t9a&angle=uniform(-30,30)&distance=6..9"
     "&experiment.method=rqmc&experiment.trials=3000000"),
    ("mc", "#cmd=run&experiment.ruleset=t9a&angle=uniform(-30,30)&distance=6..9"
     "&experiment.method=mc&experiment.trials=2000000"),
]

INSIDE = ("(() => { const r = document.getElementById('long-run').getBoundingClientRect();"
          " const a = document.activeElement;"
          " return [r.top, r.bottom, r.left, r.right, innerWidth, innerHeight,"
          " document.getElementById('long-run').contains(a), a ? a.id : '',"
          " !document.getElementById('long-run-top').hidden]; })()")


def test_question(Browser, site, check):
    """After Run on the long drawn-layout map, at either width, the
    question is inside the viewport and holds the focus."""
    for w, h in ((1280, 900), (360, 800)):
        b = Browser(w, h)
        try:
            # A link opened, then Run pressed on its form.
            b.open(site.url + LONG_MAP)
            state = b.wait(("asked", "done", "error"), timeout=60)
            top, bottom, left, right, vw, vh, focused, which, shown = b.eval(INSIDE)
            check("the long run's question of a link opened at %dx%d: in view, focused" % (w, h),
                  state == "asked" and top >= 0 and bottom <= vh and left >= 0 and right <= vw
                  and focused and shown, "state %s, box %s..%s, focus %s (%s)"
                  % (state, top, bottom, focused, which))
            b.eval("document.body.dataset.state = 'x'; document.getElementById('go').click()")
            state = b.wait(("asked", "done", "error"), timeout=60)
            top, bottom, left, right, vw, vh, focused, which, shown = b.eval(INSIDE)
            text = b.eval("document.getElementById('long-run').textContent")
            check("the long run's question at %dx%d: in the viewport, with the focus" % (w, h),
                  state == "asked" and top >= 0 and bottom <= vh and left >= 0 and right <= vw
                  and focused and shown and "about" in text,
                  "state %s, box %s..%s x %s..%s in %sx%s, focus %s (%s), top %s: %r"
                  % (state, top, bottom, left, right, vw, vh, focused, which, shown, text))
        finally:
            b.close()


def projected_and_actual(b, site, link):
    """The page's estimate of the whole run once it has one, and the run's
    wall time (from the start of the run that finished)."""
    b.open(site.url + link)
    start = time.time()
    estimate = None
    end = time.time() + 120
    while time.time() < end:
        state, proj = b.eval("[document.body.dataset.state,"
                             " document.getElementById('progress').dataset.projected]")
        if state == "asked":
            estimate = None
            b.eval("delete document.getElementById('progress').dataset.projected;"
                   " document.getElementById('long-go').click()")
            start = time.time()
            continue
        if estimate is None and proj:
            estimate = float(proj)
        if state in ("done", "error"):
            return estimate, time.time() - start, state
        time.sleep(0.05)
    return estimate, None, "timeout"


def test_estimates(b, site, check):
    """The estimate after the pilot is within 2x of the run's time."""
    for name, link in ESTIMATES:
        estimate, actual, state = projected_and_actual(b, site, link)
        ok = state == "done" and estimate and actual and 0.5 <= estimate / actual <= 2.0
        print("  %s: estimate %s s, actual %.1f s" % (name, estimate, actual or 0))
        check("the estimate of %s is within 2x of its time" % name, ok,
              "%s: estimate %s s, actual %s s" % (state, estimate, actual))


def test_suggestion(b, site, check):
    """The question with a precision set does not suggest setting one; it
    suggests a wider one with its time. Without, it names the fewer trials
    with their time."""
    b.open(site.url + LONG_MAP + "&experiment.precision=0.0005&experiment.method=mc")
    state = b.wait(("asked", "done", "error"), timeout=60)
    text = b.eval("document.getElementById('long-run').textContent")
    b.open(site.url + LONG_MAP)
    state2 = b.wait(("asked", "done", "error"), timeout=60)
    text2 = b.eval("document.getElementById('long-run').textContent")
    check("with a precision set, the question suggests a wider one, timed, not setting one",
          state == "asked" and "e.g. 0.01" not in text and "experiment.precision 0.001: about"
          in text, "%s %r" % (state, text))
    check("without, it names fewer trials with their time",
          state2 == "asked" and "experiment.trials 10000: about" in text2, "%s %r" % (state2, text2))


def test_cancel(b, site, check):
    """A cancel the player chose is a plain status, not the error's."""
    b.open(site.url + LONG_MAP)
    b.wait(("asked",), timeout=60)
    b.eval("document.getElementById('long-go').click()")
    b.wait(("busy",), timeout=30)
    time.sleep(0.5)
    b.eval("document.getElementById('cancel').click()")
    state = b.wait(("cancelled", "error", "done"), timeout=30)
    shown = b.eval("[document.getElementById('error').hidden,"
                   " document.getElementById('progress-text').textContent,"
                   " getComputedStyle(document.getElementById('progress-text')).color,"
                   " getComputedStyle(document.getElementById('error')).color,"
                   " document.getElementById('progress-text').closest('[role=alert]') === null]")
    check("a cancel is said as a status, not styled as an error",
          state == "cancelled" and shown[0] and "Cancelled" in shown[1] and shown[2] != shown[3]
          and shown[4], "%s %r" % (state, shown))


def test_focus(b, site, check):
    """After a run, the focus is on the result's heading, in view."""
    b.open(site.url + "#cmd=run&experiment.ruleset=generic&preset=tow&move=5&distance=4..14")
    state = b.wait()
    got = b.eval("(() => { const a = document.activeElement; const r = a.getBoundingClientRect();"
                 " return [a.id, a.textContent, r.top >= -1 && r.bottom <= innerHeight, r.top, r.bottom, scrollY]; })()")
    check("after a run the focus is on the result's heading, in view",
          state == "done" and got[0] == "result-heading" and "run" in got[1] and got[2],
          "%s %r" % (state, got))


def test_about(b, site, check):
    """about.html asks for nothing that is not there (no /favicon.ico)."""
    b.call("Network.enable")
    b.call("Page.navigate", url=site.url.split("#")[0].rstrip("/") + "/about.html")
    failed = []
    end = time.time() + 5
    b.ws.settimeout(0.5)
    try:
        while time.time() < end:
            try:
                msg = json.loads(b.ws.recv())
            except Exception:
                continue
            if msg.get("method") == "Network.responseReceived":
                r = msg["params"]["response"]
                if r["status"] >= 400:
                    failed.append((r["url"], r["status"]))
    finally:
        b.ws.settimeout(120)
        b.call("Network.disable")
    check("about.html loads with no failed request", not failed, "%r" % failed)


def test_presets(b, site, check):
    """Every game of the Run tab, chosen and run with what the page then
    shows, gives a curve: at least 5 distances, chances neither all 0 nor
    all 1."""
    b.open(site.url + "#cmd=run")
    games = b.eval("[...document.getElementById('game').options].map(o => [o.value, o.text])")
    for value, title in games:
        b.open(site.url + "#cmd=run")
        b.eval("(() => { const s = document.getElementById('game'); s.value = %s;"
               " s.dispatchEvent(new Event('change')); })()" % json.dumps(value))
        b.eval("document.body.dataset.state = 'x'; document.getElementById('go').click()")
        state = b.wait()
        rows = b.table() or []
        chances = []
        if rows and "p_success" in rows[0]:
            i = rows[0].index("p_success")
            chances = [float(r[i]) for r in rows[1:] if r[i] != ""]
        check("the first Run of %s shows a curve" % title,
              state == "done" and len(chances) >= 5 and any(0 < c for c in chances) and
              any(c < 1 for c in chances) and not all(c == chances[0] for c in chances),
              "%s, %d rows: %r" % (state, len(rows), chances))


def test_methods(b, site, check):
    """Where the method is chosen, the page says what the core says: exact
    is available for a fixed layout, and rqmc's rounding of the trials."""
    b.open(site.url + "#cmd=run&experiment.ruleset=t9a&distance=6..8&experiment.method=rqmc"
           "&experiment.trials=10000")
    state = b.wait()
    said = b.eval("(document.getElementById('method-facts') || {}).textContent || ''")
    check("a fixed layout run with rqmc: exact is available, and the trials rounded",
          state == "done" and "exact is available" in said and
          "rqmc rounds 10000 trials up to 16384" in said, "%s %r" % (state, said))
    b.open(site.url + "#cmd=run&experiment.ruleset=t9a&distance=6..8")
    state = b.wait()
    said = b.eval("(document.getElementById('method-facts') || {}).textContent || ''")
    check("an exact run says nothing more of its method", state == "done" and said == "",
          "%s %r" % (state, said))


def cli_trials(bin_path, *args):
    """The trials the command line's run takes for args (its table's first
    column, first row)."""
    out = subprocess.run([bin_path, "run", "-", "--threads", "1"] + list(args), check=True,
                         capture_output=True, text=True, timeout=scaled(120)).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    return int(rows[0]["trials"])


def test_facts_before_a_run(b, site, check, bin_path):
    """Before a run, as the player edits the form (issue 52): the method
    field says what the core's check (cs_web_check) says of the settings,
    and nothing runs."""
    rounded = cli_trials(bin_path, "--set", "experiment.ruleset=t9a", "--set", "distance=8",
                         "--method", "rqmc", "--trials", "10000")
    b.open(site.url + "#cmd=run")
    b.wait(("idle",))
    # The t9a game, then its fields emptied but the distance: a fixed layout.
    b.eval("(() => { const s = document.getElementById('game');"
           " s.value = [...s.options].find(o => o.value.startsWith('t9a|')).value;"
           " s.dispatchEvent(new Event('change', {bubbles: true})); })()")
    b.wait(("idle",))

    def fill(values):
        b.eval("(() => { const v = %s; for (const i of document.querySelectorAll("
               "'#form input[data-key]')) { const k = i.dataset.key;"
               " if (k in v) i.value = v[k]; else if (v['*'] === '') i.value = '';"
               " i.dispatchEvent(new Event('input', {bubbles: true})); } })()" % json.dumps(values))

    def said(want, timeout=10.0):
        end = time.time() + timeout
        text = ""
        while time.time() < end:
            time.sleep(0.2)
            text = b.eval("(document.getElementById('method-facts') || {}).textContent || ''")
            if want(text):
                break
        return text, b.eval("document.body.dataset.state")

    fill({"*": "", "distance": "8", "experiment.method": "rqmc", "experiment.trials": "10000"})
    text, state = said(lambda t: "rqmc rounds" in t)
    check("before a run: rqmc's trials rounded, said by the method field",
          "rqmc rounds 10000 trials up to %d" % rounded in text and state == "idle",
          "%s %r" % (state, text))
    fill({"experiment.method": "mc", "experiment.trials": ""})
    text, state = said(lambda t: "exact is available" in t and "rqmc" not in t)
    check("before a run: a fixed layout with mc, exact is available",
          "exact is available" in text and "rqmc" not in text and state == "idle",
          "%s %r" % (state, text))
    # A drawn layout with rqmc: the rounding said (the check answered), not exact.
    fill({"angle": "uniform(-30,30)", "experiment.method": "rqmc", "experiment.trials": "10000"})
    text, state = said(lambda t: "rqmc rounds" in t and "exact is available" not in t)
    check("before a run: a drawn layout, exact is not said",
          "rqmc rounds" in text and "exact is available" not in text and state == "idle",
          "%s %r" % (state, text))


def test_axe(b, site, check, axe_path):
    """axe-core on the new states: the question shown, a cancel said, and
    the method's facts by its field, at either width."""
    with open(axe_path, encoding="utf-8") as f:
        axe = f.read()
    for w in (1280, 360):
        b.call("Emulation.setDeviceMetricsOverride", width=w, height=800, deviceScaleFactor=1,
               mobile=False)
        b.open(site.url + LONG_MAP)
        asked = b.wait(("asked", "done", "error"), timeout=60)
        found = axe_violations(b, axe)
        check("accessibility of the long run's question at %d px (axe-core)" % w,
              asked == "asked" and found == [], "%s %s" % (asked, json.dumps(found)))
        b.open(site.url + "#cmd=run&experiment.ruleset=t9a&distance=6..8"
               "&experiment.method=rqmc&experiment.trials=10000")
        b.wait()
        found = axe_violations(b, axe)
        check("accessibility of the method's facts at %d px (axe-core)" % w, found == [],
              json.dumps(found))
    b.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1,
           mobile=False)
