# SPDX-License-Identifier: GPL-3.0-or-later
"""Columns that say something (issue 52), in headless Chromium: each header
cell names its CSV column (data-column, as bin/chargesim's CSV header) and
carries the core's description, at 360 and 1280 px; an exact run hides
trials and the interval and says so; the chooser hides a column; a
probability is shown as a percentage while data-value keeps the CSV's
fraction; every form field has a label and a description; the dice chart
shows P(X >= k) by default, the CLI's exact p summed; axe-core finds no
serious violation. Run alone with WEB_TESTS=columns."""

import csv
import io
import json
import os
from urllib.parse import quote

from browser import axe_violations
from test_players import PHONE, WIDE, width

# The page's tabs with a result each, and the same table's command line.
LINKS = {
    "run exact": ("run", [("experiment.ruleset", "t9a"), ("distance", "5..9")]),
    "run mc": ("run", [("experiment.ruleset", "generic"), ("distance", "6..8"),
                       ("experiment.method", "mc"), ("experiment.trials", "2000")]),
    "compare": ("compare", [("experiment.ruleset", "t9a"), ("distance", "6..8"),
                            ("b.charge_speed", "9")]),
    "map": ("map", [("experiment.ruleset", "t9a"), ("x", "-2..2:2"), ("y", "0..4:2")]),
    "dice": ("dice", [("expr", "2d6")]),
}

HEADERS = ("[...document.querySelectorAll('#results thead th')].map(th => ["
           " th.dataset.column, th.title,"
           " (document.getElementById(th.getAttribute('aria-describedby')) || {}).textContent,"
           " th.querySelector('.col-label') ? th.querySelector('.col-label').textContent : ''])")


def link(cmd, pairs):
    return "#" + "&".join(["cmd=" + cmd] + ["%s=%s" % (quote(k, safe=""), quote(v, safe=""))
                                            for k, v in pairs])


def csv_of(cli, cli_args, cmd, pairs):
    out, err, rc = cli(cli_args(cmd, pairs))
    if rc != 0:
        raise RuntimeError("chargesim %s: %s" % (cmd, err))
    return list(csv.reader(io.StringIO(out)))


def test_headers(b, site, check, cli, cli_args):
    """Every header cell: data-column the CLI's header, a description from
    the core (title and the accessible description), at both widths."""
    for w in (WIDE, PHONE):
        width(b, w)
        for name, (cmd, pairs) in LINKS.items():
            b.open(site.url + link(cmd, pairs))
            state = b.wait()
            heads = b.eval(HEADERS)
            want = csv_of(cli, cli_args, cmd, pairs)[0]
            names = [h[0] for h in heads]
            worded = all(h[1] and h[2] and h[3] for h in heads)
            check("%s at %d px: each header cell names its CSV column (data-column) and has the "
                  "core's label and description" % (name, w),
                  state == "done" and names == want and worded,
                  "state %s, page %r, CLI %r, unworded %r" % (
                      state, names, want, [h for h in heads if not (h[1] and h[2] and h[3])]))
    # The Units tab: its columns' words come with its answer too.
    b.open(site.url + "#cmd=units&source=tow/Bretonnians&distance=6..8")
    state = b.wait(timeout=300)
    heads = b.eval(HEADERS)
    reach = [h for h in heads if h[0] == "reach_75"]
    check("units: each header cell has the core's label and description (reach_75: 'reach 75%')",
          state == "done" and heads and all(h[1] and h[2] and h[3] for h in heads) and reach
          and reach[0][3] == "reach 75%", "state %s, %r" % (state, heads[:4]))
    width(b, WIDE)


def test_hidden(b, site, check, cli, cli_args):
    """An exact run hides trials, ci_low and ci_high and says so; a sampled
    one hides none of them; the chooser hides a column and keeps it hidden."""
    cmd, pairs = LINKS["run exact"]
    b.open(site.url + link(cmd, pairs))
    b.wait()
    shown = b.eval("[...document.querySelectorAll('#results thead th')]"
                   ".filter(th => !th.hidden).map(th => th.dataset.column)")
    line = b.eval("document.getElementById('columns-hidden').textContent")
    check("exact run: trials, ci_low and ci_high hidden, and a line says why",
          not {"trials", "ci_low", "ci_high"} & set(shown) and "p_success" in shown
          and "trials" in line and "ci_low" in line and "exact" in line,
          "shown %r, line %r" % (shown, line))
    cmd, pairs = LINKS["run mc"]
    b.open(site.url + link(cmd, pairs))
    b.wait()
    shown = b.eval("[...document.querySelectorAll('#results thead th')]"
                   ".filter(th => !th.hidden).map(th => th.dataset.column)")
    check("mc run: trials and the interval shown", {"trials", "ci_low", "ci_high"} <= set(shown),
          repr(shown))
    b.eval("(() => { const c = document.querySelector('#columns-chooser input[data-column=ci_high]');"
           " c.click(); return c.checked; })()")
    after = b.eval("[[...document.querySelectorAll('#results tr')]"
                   ".every(r => r.cells[[...document.querySelectorAll('#results thead th')]"
                   ".findIndex(th => th.dataset.column === 'ci_high')].hidden),"
                   " document.querySelector('#columns-help dd:not([hidden])') !== null]")
    check("the chooser hides a column (every cell of ci_high), the list of meanings follows",
          after == [True, True], repr(after))
    hash_ = b.eval("location.hash")
    check("the chooser's choice is in the link (cols=, every column but ci_high)",
          "cols=" in hash_ and "ci_high" not in hash_.split("cols=")[1].split(",") and
          "p_success" in hash_.split("cols=")[1].split(","), hash_)
    # A link with cols=: those columns alone, the pair never the engine's.
    cmd, pairs = LINKS["run exact"]
    b.open(site.url + link(cmd, pairs) + "&cols=distance,p_success")
    state = b.wait()
    shown = b.eval("[...document.querySelectorAll('#results thead th')]"
                   ".filter(th => !th.hidden).map(th => th.dataset.column)")
    command = b.eval("document.getElementById('command').textContent")
    check("a link's cols=distance,p_success shows those two columns; the command line has no cols",
          state == "done" and shown == ["distance", "p_success"] and "cols" not in command,
          "state %s, shown %r, command %r" % (state, shown, command))


def test_percent(b, site, check, cli, cli_args):
    """Probabilities shown as percentages, data-value the CSV's fraction."""
    cmd, pairs = LINKS["run exact"]
    b.open(site.url + link(cmd, pairs))
    b.wait()
    want = csv_of(cli, cli_args, cmd, pairs)
    c = want[0].index("p_success")
    cells = b.eval("(() => { const h = [...document.querySelectorAll('#results thead th')]"
                   ".findIndex(th => th.dataset.column === 'p_success');"
                   " return [...document.querySelectorAll('#results tbody tr')]"
                   ".map(r => [r.cells[h].dataset.value, r.cells[h].textContent]); })()")
    ok = len(cells) == len(want) - 1
    bad = []
    for (value, text), row in zip(cells, want[1:]):
        p = 100 * float(row[c])
        shown_ok = text.endswith("%") and (abs(float(text.strip("%<>")) - p) < 0.006 or
                                           (text.startswith("<") and 0 < p < 0.01))
        if value != row[c] or not shown_ok:
            bad.append((value, text, row[c]))
    check("p_success shown as a percentage, data-value the CLI's CSV cell",
          ok and not bad, "%d cells, bad %r" % (len(cells), bad[:3]))


def test_fields(b, site, check):
    """Every field of every tab's form: a label and a description."""
    bad = []
    for cmd, link_ in (("run", "#cmd=run&experiment.ruleset=t9a"), ("compare", "#cmd=compare"),
                       ("map", "#cmd=map&experiment.ruleset=t9a"), ("dice", "#cmd=dice")):
        b.open(site.url + link_)
        b.eval("new Promise(r => setTimeout(r, 300))")
        got = b.eval("[...document.querySelectorAll('#form-fields input[type=text]')]"
                     ".map(i => [i.name, i.getAttribute('aria-label') ||"
                     " (i.labels[0] || {}).textContent || '',"
                     " (document.getElementById(i.getAttribute('aria-describedby')) || {})"
                     ".textContent || ''])")
        if not got:
            bad.append((cmd, "no fields"))
        bad += [(cmd, g) for g in got if not g[1].strip() or not g[2].strip()]
    check("every form field has a label and a one-line description", not bad, repr(bad[:5]))
    words = b.eval("[...document.querySelectorAll('#glossary dt')].map(d => d.textContent)")
    check("the words used here listed (sweep point, rqmc, preset, Roll20 notation, mapping)",
          {"sweep point", "rqmc", "preset", "Roll20 notation", "mapping"} <= set(words or []),
          repr(words))


def test_dice(b, site, check, cli, cli_args):
    """The dice chart: at least k by default, the CLI's exact p summed."""
    cmd, pairs = LINKS["dice"]
    b.open(site.url + link(cmd, pairs))
    b.wait()
    want = csv_of(cli, cli_args, cmd, pairs)
    h = want[0]
    ps = [float(r[h.index("p")]) for r in want[1:]]
    tail = [sum(ps[i:]) for i in range(len(ps))]
    label = b.eval("document.getElementById('chart-legend').textContent")
    on = b.eval("(document.querySelector('input[name=dice-chart]:checked') || {}).value")
    # The chart's numbers: the p_at_least column it draws (the core's).
    drawn = b.eval("[...document.querySelectorAll('#results tbody tr')].map(r =>"
                   " Number(r.cells[[...document.querySelectorAll('#results thead th')]"
                   ".findIndex(th => th.dataset.column === 'p_at_least')].dataset.value))")
    close = len(drawn) == len(tail) and all(abs(a - t) < 1e-12 for a, t in zip(drawn, tail))
    check("dice chart: 'at least k' by default, P(X >= k) the CLI's exact p summed",
          on == "at least" and "\u2265" in label and close,
          "checked %r, legend %r, drawn %r, summed %r" % (on, label, drawn[:3], tail[:3]))
    b.eval("document.querySelector('input[name=dice-chart][value=exactly]').click()")
    label = b.eval("document.getElementById('chart-legend').textContent")
    check("dice chart: 'exactly k' on the toggle", "= k" in label and "\u2265" not in label,
          repr(label))


def test_axe(b, site, check, axe_path):
    if not os.path.exists(axe_path):
        return check("columns: accessibility (axe-core)", False, axe_path + " missing")
    with open(axe_path, encoding="utf-8") as f:
        axe = f.read()
    for w in (WIDE, PHONE):
        width(b, w)
        for name, (cmd, pairs) in LINKS.items():
            b.open(site.url + link(cmd, pairs))
            b.wait()
            b.eval("document.querySelectorAll('#columns-box details, #glossary')"
                   ".forEach(d => { d.open = true; }); 0")
            found = axe_violations(b, axe)
            check("columns: %s at %d px, the column list and chooser open: no serious "
                  "violation (axe-core)" % (name, w), found == [], json.dumps(found))
    width(b, WIDE)


def cases(check, cli, cli_args, axe_path):
    return [
        lambda b, site: test_headers(b, site, check, cli, cli_args),
        lambda b, site: test_hidden(b, site, check, cli, cli_args),
        lambda b, site: test_percent(b, site, check, cli, cli_args),
        lambda b, site: test_fields(b, site, check),
        lambda b, site: test_dice(b, site, check, cli, cli_args),
        lambda b, site: test_axe(b, site, check, axe_path),
    ]
