# SPDX-License-Identifier: GPL-3.0-or-later
"""The Units tab for list-builders (issue 52), run by tests/web/test_web.py
(WEB_TESTS=units runs these alone):
  - at 360 px the table shows the name, type, M, points, reach and one
    chance column the player picks, with no sideways scrolling; the table
    still holds the CSV cell for cell (hidden cells are kept);
  - columns every row shares are said once, in the heading;
  - a chance or reach column's first tap sorts high to low, and the link
    keeps the sort;
  - a dropped roster stays the source when Run is pressed;
  - a 40k list: a notice in a player's words (no mapping, option or id),
    no command line;
  - the chart's names stay distinct, flying rows have a legend;
  - axe-core: no serious violation on the Units tab at either width."""

import csv
import io
import json
import os
import subprocess

from browser import axe_violations, scaled  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = "#cmd=units&source=tow/Bretonnians&distance=6..14"


def width(b, w):
    b.call("Emulation.setDeviceMetricsOverride", width=w, height=900, deviceScaleFactor=1,
           mobile=False)


def cli_rows(binary, args, cwd=ROOT):
    p = subprocess.run([binary, "units"] + args, capture_output=True, text=True,
                       timeout=scaled(600), cwd=cwd)
    return list(csv.reader(io.StringIO(p.stdout))), p.returncode


def drop(b, paths):
    b.eval("document.body.dataset.state = 'dropping'")
    obj = b.call("Runtime.evaluate", expression="document.getElementById('units-files')")["result"]
    b.call("DOM.setFileInputFiles", files=[os.path.abspath(p) for p in paths],
           objectId=obj["objectId"])
    return b.wait()


SHOWN = ("[...document.querySelectorAll('#results thead th')]"
         ".filter(th => getComputedStyle(th).display !== 'none').map(th => th.dataset.column ?? th.textContent)")


def phone(b, site, binary, check):
    width(b, 360)
    b.open(site.url + LINK)
    state = b.wait()
    shown = b.eval(SHOWN)
    page = b.eval("[document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                  " document.querySelector('.table-wrap').scrollWidth,"
                  " document.querySelector('.table-wrap').clientWidth]")
    check("units, 360 px: name, type, M, points, reach and the middle distance's chance shown",
          state == "done" and sorted(shown) == sorted(["name", "type", "move", "points", "reach_50",
                                                       "reach_75", "reach_90", "p_10"]),
          "%s %s" % (state, shown))
    check("units, 360 px: no sideways scrolling (page and table)",
          page[0] <= page[1] and page[2] <= page[3], json.dumps(page))
    b.eval("(() => { const s = document.getElementById('units-chance'); s.value = 'p_13';"
           " s.dispatchEvent(new Event('change')); })()")
    shown = b.eval(SHOWN)
    page = b.eval("[document.querySelector('.table-wrap').scrollWidth,"
                  " document.querySelector('.table-wrap').clientWidth]")
    check("units, 360 px: 'Chance at' picks the distance shown, still without sideways scrolling",
          shown[-1:] == ["p_13"] and page[0] <= page[1], "%s %s" % (shown, page))
    want, _ = cli_rows(binary, ["data/tow/Bretonnians.cat", "--distance", "6..14"])
    check("units, 360 px: the table still holds the CSV cell for cell", b.table() == want,
          "rows %d vs %d" % (len(b.table() or []), len(want)))
    heading = b.eval("document.getElementById('units-heading').textContent")
    check("units: columns every row shares are said once, in the heading",
          "Kingdom of Bretonnia (Warhammer The Old World)" in heading and "catalogue Kingdom of Bretonnia" in heading
          and "ruleset generic preset tow" in heading and "base (none)" in heading, heading)
    b.eval("(() => { const a = document.getElementById('units-all'); a.checked = true;"
           " a.dispatchEvent(new Event('change')); })()")
    # Every column, but those the page hides for carrying nothing (empty in
    # every row: web/js/columns.js says so above the table).
    carrying = b.eval("[...document.querySelectorAll('#results thead th')]"
                      ".filter(th => !th.hidden).map(th => th.dataset.column)")
    shown = b.eval(SHOWN)
    check("units, 360 px: 'Show all columns' shows every column that carries something",
          shown == carrying and len(shown) > 12, "%d shown of %d (%d carry something)"
          % (len(shown), len(want[0]), len(carrying)))
    b.eval("(() => { const a = document.getElementById('units-all'); a.checked = false;"
           " a.dispatchEvent(new Event('change')); })()")
    names = json.loads(b.eval("document.getElementById('units-chart').dataset.names"))
    legend = b.eval("document.getElementById('units-chart-legend').textContent")
    check("units chart, 360 px: every name told apart, flying rows in the legend",
          len(set(names)) == len(names) and "flying" in legend,
          "%d names, %d distinct; %s" % (len(names), len(set(names)), legend))
    width(b, 1280)


def sorting(b, site, check):
    b.open(site.url + LINK)
    b.wait()
    c = b.eval("[...document.querySelectorAll('#results thead th')]"
               ".findIndex(th => (th.dataset.column ?? th.textContent) === 'reach_75')")
    b.eval("document.querySelectorAll('#results thead th')[%d].querySelector('button').click()" % c)
    col = b.eval("[...document.querySelectorAll('#results tbody tr')].map(r => Number(r.cells[%d]"
                 ".dataset.value ?? r.cells[%d].textContent))" % (c, c))
    aria = b.eval("document.querySelectorAll('#results thead th')[%d].getAttribute('aria-sort')" % c)
    hash_ = b.eval("location.hash")
    check("units: a reach column's first tap sorts from high to low",
          aria == "descending" and col == sorted(col, reverse=True), "%s %s" % (aria, col[:5]))
    check("units: the link keeps the sort", "sort=reach_75%3Adesc" in hash_, hash_)
    b.open(site.url + hash_)
    b.wait()
    aria = b.eval("document.querySelectorAll('#results thead th')[%d].getAttribute('aria-sort')" % c)
    col2 = b.eval("[...document.querySelectorAll('#results tbody tr')].map(r => Number(r.cells[%d]"
                  ".dataset.value ?? r.cells[%d].textContent))" % (c, c))
    check("units: opening a sorted link restores the sort", aria == "descending" and col2 == col,
          str(aria))
    name = b.eval("[...document.querySelectorAll('#results thead th')]"
                  ".findIndex(th => (th.dataset.column ?? th.textContent) === 'name')")
    b.eval("document.querySelectorAll('#results thead th')[%d].querySelector('button').click()"
           % name)
    aria = b.eval("document.querySelectorAll('#results thead th')[%d].getAttribute('aria-sort')"
                  % name)
    check("units: a text column's first tap sorts from low to high", aria == "ascending", str(aria))


def dropped_stays(b, site, binary, check):
    path = os.path.join(ROOT, "tests/data/rosters/own/tow-bretonnia.ros")
    b.open(site.url + "#cmd=units")
    b.wait(("idle",))
    drop(b, [path])
    first = b.table()
    b.eval("document.body.dataset.state = 'running'")
    b.eval("document.getElementById('go').click()")
    state = b.wait()
    again = b.table()
    heading = b.eval("document.getElementById('units-heading')?.textContent ?? ''")
    check("units: a dropped roster survives pressing Run (the table is still the roster's)",
          state == "done" and first == again and first and "tow-bretonnia.ros" in heading,
          "%s, %s rows then %s; %s" % (state, len(first or []), len(again or []), heading))
    b.eval("(() => { const a = document.getElementById('units-army');"
           " a.value = 'Bretonnians'; a.dispatchEvent(new Event('change')); })()")
    b.eval("document.body.dataset.state = 'running'")
    b.eval("document.getElementById('go').click()")
    state = b.wait()
    check("units: picking an army makes it the source again",
          state == "done" and "source=tow%2FBretonnians" in b.eval("location.hash"),
          b.eval("location.hash"))


def other_game(b, site, check):
    b.open(site.url + "#cmd=units")
    b.wait(("idle",))
    state = drop(b, [os.path.join(ROOT, "tests/data/rosters/Necrons 10e.rosz")])
    notice = b.eval("document.getElementById('units-notice')?.textContent ?? ''")
    error_shown = b.eval("!document.getElementById('error').hidden")
    command_shown = b.eval("(() => { const c = document.querySelector('p.command');"
                           " return !!c.offsetParent; })()")
    bad = [w for w in ("mapping", "--", "sys-", "(id", "chargesim") if w in notice]
    check("units: a 40k list gets a notice in a player's words (games with unit tables, "
          "the Run tab's presets), naming no mapping, option or id",
          state == "error" and "Warhammer The Old World" in notice and "Run tab" in notice
          and "Warhammer 40,000" in notice and not bad, "%s; %s; %s" % (state, bad, notice))
    check("units: a 40k list's notice is no red error and shows no command line",
          not error_shown and not command_shown, "%s %s" % (error_shown, command_shown))


def bar_chart(b, site, check):
    """The Run tab's one-point bar chart on a phone: every bar named, the
    caption within the canvas."""
    width(b, 360)
    b.open(site.url + "#cmd=run&experiment.ruleset=generic&preset=tow&distance=8")
    b.wait()
    under = json.loads(b.eval("document.getElementById('chart').dataset.under"))
    w = b.eval("document.getElementById('chart').clientWidth")
    xs = b.eval("[...document.querySelectorAll('#results thead th')].map(th => th.dataset.column ?? th.textContent)"
                ".filter(h => h.startsWith('p_') && h !== 'p_success').map(h => h.slice(2))")
    texts = [u["text"] for u in under]
    cut = [u for u in under if u["left"] < 0 or u["right"] > w]
    check("bar chart, 360 px: every outcome's bar has its label, the caption is not cut",
          all(x in texts for x in xs) and "charged" in texts and not cut,
          "%s; cut %s" % (texts, cut))
    width(b, 1280)


def axe_both(b, site, check):
    axe_path = os.path.join(ROOT, "build-web", "npm", "node_modules", "axe-core", "axe.min.js")
    if not os.path.exists(axe_path):
        return check("units: axe-core", False, axe_path + " missing: make deps-web")
    with open(axe_path, encoding="utf-8") as f:
        axe = f.read()
    for w in (1280, 360):
        width(b, w)
        b.open(site.url + LINK)
        b.wait()
        found = axe_violations(b, axe)
        check("units tab at %d px: no serious or critical violation (axe-core)" % w, found == [],
              json.dumps(found))
    width(b, 1280)


def run(b, site, binary, check):
    for case in (lambda: phone(b, site, binary, check), lambda: sorting(b, site, check),
                 lambda: dropped_stays(b, site, binary, check), lambda: other_game(b, site, check),
                 lambda: bar_chart(b, site, check), lambda: axe_both(b, site, check)):
        try:
            case()
        except Exception as e:  # a case that could not run is a failure
            check("units (issue 52)", False, "%s: %s" % (type(e).__name__, e))
