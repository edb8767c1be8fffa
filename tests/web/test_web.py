#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""make test-web: the web edition (web/, issue 31) in headless Chromium
against bin/chargesim. Each case opens a link and checks the page contract
(document.body.dataset.state busy, then done or error; #error; <table
id="results"> equal to the CSV of the same command, header row first;
document.body.dataset.ms):
  - per ruleset and per generic preset, a run whose table equals `chargesim
    run -` with the same overrides: exact results to every printed digit,
    sampled ones (same seed and method) within 1e-6 in every number, since
    the browser's libm may differ from glibc in the last bit;
  - a threat map, a comparison, a dice expression (exact and sampled);
  - drawn layouts under auto: the page runs rqmc, as the command line
    does, with its numbers (within 1e-6) for the same seed;
  - a bad value (state error, the command line's own message, beside its
    field), a crafted link whose value is markup (runs nothing, shows the
    refusal as text), a cancelled long run (the page works on), and one
    link opened twice (the same table);
  - the page as players use it (issue 45, tests/web/test_players.py):
    phone and desktop widths, the file:// message, compare's one unit,
    distinct chart series, explained outcomes, games by name, tabs that
    keep their state, the map's form, the long-run warning, messages,
    the Content-Security-Policy, axe-core's accessibility check of each
    tab, and a reload with the network off;
  - the Units tab (tests/web/test_units.py);
  - the result's export (tests/web/test_export.py): Download CSV and Copy
    Markdown equal the command line's -o and --format md, the chart's SVG
    and PNG carry their title and source line.
Usage: tests/web/test_web.py BIN WEBDIR. Prints one line per case and
'N passed, N failed'."""

import os
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Site, scaled  # noqa: E402
import test_players as players  # noqa: E402
import test_compare as compare_page  # noqa: E402
import test_units as test_units_mod  # noqa: E402
import test_columns as columns  # noqa: E402
import test_units_phone as units_phone_mod  # noqa: E402
import test_export  # noqa: E402
import test_waits as waits  # noqa: E402

BIN = WEBDIR = None
results = []


def fragment(cmd, pairs):
    return "#" + "&".join(["cmd=" + cmd] + ["%s=%s" % (urllib.parse.quote(k, safe=""),
                                                       urllib.parse.quote(v, safe=""))
                                            for k, v in pairs])


def cli(args):
    """bin/chargesim's stdout, stderr and exit status."""
    p = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=scaled(600),
                       stdin=subprocess.DEVNULL)
    return p.stdout, p.stderr, p.returncode


def cli_args(cmd, pairs):
    """The command line of a link, as the command line spells it."""
    args = [cmd] if cmd == "dice" else [cmd, "-"]
    for k, v in pairs:
        if cmd == "dice":
            args += [v] if k == "expr" else ["--" + k, v]
        elif k in ("x", "y", "success"):
            args += ["--" + k, v]
        elif cmd == "compare" and k.startswith("b."):
            args += ["--b", k[2:] + "=" + v]
        else:
            args += ["--set", k + "=" + v]
    return args + (["--quiet"] if cmd in ("run", "map", "compare") else [])


def csv_rows(text):
    # chargesim's CSVs here have no quoted fields (checked).
    assert '"' not in text, "a quoted CSV field"
    return [line.split(",") for line in text.rstrip("\n").split("\n")]


def same_table(page, csv, tolerance):
    """None when the page's table equals the CSV (numbers within tolerance),
    else where they differ."""
    if page is None or len(page) != len(csv):
        return "rows: page %s, CSV %d" % (None if page is None else len(page), len(csv))
    for r, (a, b) in enumerate(zip(page, csv)):
        if len(a) != len(b):
            return "row %d: %d cells, CSV %d" % (r, len(a), len(b))
        for c, (x, y) in enumerate(zip(a, b)):
            if x == y:
                continue
            try:
                if r > 0 and abs(float(x) - float(y)) <= tolerance:
                    continue
            except ValueError:
                pass
            return "row %d, column %s: page %r, CSV %r" % (r, csv[0][c], x, y)
    return None


def shown_number(cell):
    """A numeric cell as the page shows it: the CSV's text, or six decimals
    where it has more or an exponent (an exact value, written whole)."""
    whole, _, frac = cell.partition(".")
    if "e" in cell.lower() or len(frac) > 6:
        return "%.6f" % float(cell)
    return cell


def percent_text(cell):
    """A table's proportion as the page shows it in percent: shown_number's
    text with the point moved two places ("0.812500" reads "81.2500%")."""
    cell = shown_number(cell)
    sign = "-" if cell.startswith("-") else ""
    whole, _, frac = cell.lstrip("-").partition(".")
    frac = frac.ljust(2, "0")
    digits = (whole + frac[:2]).lstrip("0") or "0"
    return "%s%s%s%%" % (sign, digits, "." + frac[2:] if frac[2:] else "")


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("%s: %s%s" % ("ok" if ok else "FAIL", name, "" if ok else " -- " + detail), flush=True)


def page_state(b, url):
    b.open(url)
    state = b.wait()
    return state, b.eval("document.body.dataset.ms")


def against_cli(b, site, name, cmd, pairs, tolerance=0.0):
    state, ms = page_state(b, site.url + fragment(cmd, pairs))
    out, err, rc = cli(cli_args(cmd, pairs))
    if rc != 0:
        return check(name, False, "the command line failed: " + err)
    if state != "done":
        return check(name, False, "state %s: %s" % (state, b.eval(
            "document.getElementById('error').textContent")))
    diff = same_table(b.table(), csv_rows(out), tolerance)
    timed = ms is not None and float(ms) >= 0
    check(name, diff is None and timed, diff or "no dataset.ms")


RUNS = [
    # (name, pairs, tolerance): exact ones to every digit, sampled within 1e-6.
    ("t9a exact", [("experiment.ruleset", "t9a"), ("edition", "3"), ("distance", "3..12")], 0),
    ("t9a edition 2, sampled layouts", [
        ("experiment.ruleset", "t9a"), ("edition", "2"), ("offset", "uniform(-4,4)"),
        ("distance", "6..9"), ("experiment.method", "conditional"),
        ("experiment.trials", "4000"), ("experiment.seed", "7")], 1e-6),
    ("asoiaf exact", [("experiment.ruleset", "asoiaf"), ("speed", "6"),
                      ("distance", "2..12")], 0),
    ("asoiaf sampled (mc)", [("experiment.ruleset", "asoiaf"), ("distance", "4..8"),
                             ("experiment.method", "mc"), ("experiment.trials", "20000"),
                             ("experiment.seed", "5")], 1e-6),
    ("coreheim exact", [("experiment.ruleset", "coreheim"), ("distance", "4..10")], 0),
    ("coreheim misjudged distance (conditional)", [
        ("experiment.ruleset", "coreheim"), ("estimate_sd", "1"), ("distance", "4..10"),
        ("experiment.trials", "4000"), ("experiment.seed", "3")], 1e-6),
    ("sovl exact", [("experiment.ruleset", "sovl")], 0),
    ("sovl sampled (mc)", [("experiment.ruleset", "sovl"), ("experiment.method", "mc"),
                           ("experiment.trials", "8000"), ("experiment.seed", "9")], 1e-6),
    ("sovl_dice", [("experiment.ruleset", "sovl_dice")], 0),
    ("generic w40k", [("experiment.ruleset", "generic"), ("preset", "w40k"),
                      ("distance", "1..24")], 0),
    ("generic aos", [("experiment.ruleset", "generic"), ("preset", "aos"),
                     ("reroll", "none,failed,one_die"), ("distance", "2..12")], 0),
    ("generic tow", [("experiment.ruleset", "generic"), ("preset", "tow"), ("move", "4,5"),
                     ("swiftstride", "true"), ("distance", "5..18")], 0),
    ("generic whfb8", [("experiment.ruleset", "generic"), ("preset", "whfb8"), ("move", "3..10"),
                       ("distance", "1..24")], 0),
    ("generic none", [("experiment.ruleset", "generic"), ("preset", "none"), ("move", "2"),
                      ("dice", "3d6dl1"), ("distance", "4..16")], 0),
    ("generic whfb8 sampled (mc)", [
        ("experiment.ruleset", "generic"), ("preset", "whfb8"), ("move", "5"),
        ("distance", "6..10"), ("experiment.method", "mc"), ("experiment.trials", "20000"),
        ("experiment.seed", "11")], 1e-6),
]


def test_runs(b, site):
    for name, pairs, tol in RUNS:
        against_cli(b, site, "run: " + name, "run", pairs, tol)


def test_map_compare_dice(b, site):
    against_cli(b, site, "map: t9a with Swiftstride", "map", [
        ("experiment.ruleset", "t9a"), ("maximised", "1"), ("x", "-6..6:1"), ("y", "0..12:1")])
    # The value under the pointer: the cell's numbers as the table has them.
    box = b.eval("(() => { const r = document.getElementById('map').getBoundingClientRect();"
                 " return [r.left, r.top, r.width, r.height]; })()")
    shown = ""
    for k in range(1, 10):  # across the canvas until the pointer is over a cell
        b.call("Input.dispatchMouseEvent", type="mouseMoved", x=box[0] + box[2] * k / 20,
               y=box[1] + box[3] * 0.5)
        shown = b.eval("document.getElementById('map-readout').textContent")
        if shown:
            break
    cells = {tuple(r[:2]): r for r in b.table()[1:]}
    where = shown.split(":")[0].replace("x = ", "").replace(" y = ", "").split(",")
    row = cells.get(tuple(where))
    check("map: the value under the pointer is the cell's, in percent as the legend",
          row is not None and ("p_success " + percent_text(row[3])) in shown, repr(shown))
    against_cli(b, site, "compare: The Old World, M 5 against M 4", "compare", [
        ("experiment.ruleset", "generic"), ("preset", "tow"), ("move", "4"),
        ("distance", "6..12"), ("b.move", "5")])
    against_cli(b, site, "dice: 3d6dl1 exact", "dice", [("expr", "3d6dl1")])
    against_cli(b, site, "dice: 2d6 sampled", "dice", [("expr", "2d6"), ("trials", "10000"),
                                                       ("seed", "3")], 1e-6)


def test_rqmc(b, site):
    """Drawn layouts under auto: the page runs rqmc (GSL's Sobol points,
    built for WebAssembly from Debian's source) and gives the command
    line's numbers for the same seed."""
    pairs = [("experiment.ruleset", "t9a"), ("offset", "uniform(-4,4)"), ("distance", "6..9"),
             ("experiment.trials", "2000"), ("experiment.seed", "3")]
    against_cli(b, site, "run: drawn layouts under auto, rqmc as on the command line", "run",
                pairs, 1e-6)
    table = b.table() or [[]]
    method = [r[table[0].index("method")] for r in table[1:]] if "method" in table[0] else []
    check("run: auto picks rqmc in the page", method and all(m == "rqmc" for m in method),
          repr(method))


def test_units(b, site):
    test_units_mod.run(b, site, BIN, WEBDIR, check)


def test_units_phone(b, site):
    units_phone_mod.run(b, site, BIN, check)


def test_bad_value(b, site):
    pairs = [("experiment.ruleset", "t9a"), ("edition", "7"), ("distance", "3..12")]
    state, _ = page_state(b, site.url + fragment("run", pairs))
    _, err, rc = cli(cli_args("run", pairs))
    shown = b.eval("document.getElementById('error').textContent")
    beside = b.eval("document.querySelector('input[data-key=\"edition\"]')"
                    ".parentElement.querySelector('.field-error').textContent")
    check("a bad value: state error, the command line's message, beside its field",
          state == "error" and rc == 2 and shown == err.strip() and beside in err and beside,
          "state %s, page %r, beside %r, CLI %r" % (state, shown, beside, err))
    # Beside the field, the detail alone: the field says where, so no
    # "command line:" that the player never typed into.
    check("a field's error says what is wrong, not where (no 'command line:')",
          beside.startswith("edition = '7'") and "command line" not in beside, repr(beside))


def test_markup(b, site):
    markup = '<img src=x onerror="window.pwned=1"><b id=bold>x</b>'
    pairs = [("experiment.ruleset", "t9a"), ("edition", markup)]
    state, _ = page_state(b, site.url + fragment("run", pairs))
    shown = b.eval("document.getElementById('error').textContent")
    safe = b.eval("!document.querySelector('img') && !document.getElementById('bold') && "
                  "window.pwned === undefined")
    _, err, _ = cli(cli_args("run", pairs))
    check("a link whose value is markup: nothing runs, the refusal is text",
          state == "error" and safe and markup in shown and shown == err.strip(),
          "state %s, safe %s, shown %r" % (state, safe, shown))


def test_cancel(b, site):
    pairs = [("experiment.ruleset", "generic"), ("preset", "whfb8"), ("move", "5"),
             ("distance", "1..24"), ("experiment.method", "mc"),
             ("experiment.trials", "1000000000")]
    b.open(site.url + fragment("run", pairs))
    # A billion trials: the page stops to ask first (progress.js); run anyway.
    asked = b.wait(("asked",), timeout=60) == "asked"
    b.eval("document.getElementById('long-go').click()")
    busy = b.wait(("busy",), timeout=30) == "busy"
    b.eval("new Promise(r => { const t = () => document.getElementById('progress').value > 0"
           " ? r() : setTimeout(t, 20); t(); })")
    b.eval("document.getElementById('cancel').click()")
    state = b.wait(("cancelled", "done", "error"), timeout=30)
    # The player's cancel is a status, not an error (issue 52).
    shown = b.eval("document.getElementById('progress-text').textContent")
    # The page works on: the next link runs in a fresh engine.
    again = [("experiment.ruleset", "generic"), ("preset", "whfb8"), ("move", "5"),
             ("distance", "6..8")]
    b.eval("document.body.dataset.state = 'navigating'")  # not the cancelled run's state
    b.call("Page.navigate", url=site.url + fragment("run", again))
    after = b.wait(timeout=60)
    rows = len(b.table() or [])
    check("cancelling a long run, and the page works on",
          asked and busy and state == "cancelled" and "Cancelled" in shown and after == "done" and
          rows == 4, "asked %s, busy %s, state %s, %r, then %s with %d rows"
          % (asked, busy, state, shown, after, rows))


def test_twice(b, site):
    url = site.url + fragment("run", RUNS[1][1])
    b.open(url)
    b.wait()
    first = b.table()
    b.open(url)
    b.wait()
    second = b.table()
    check("a link opened twice gives the same table", first == second and first is not None,
          "%s then %s rows" % (len(first or []), len(second or [])))


def main():
    global BIN, WEBDIR
    BIN, WEBDIR = os.path.abspath(sys.argv[1]), sys.argv[2]
    site = Site(WEBDIR)
    b = Browser()
    axe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build-web",
                       "npm", "node_modules", "axe-core", "axe.min.js")
    # The page as players use it (issue 45): tests/web/test_players.py.
    pages = [
        lambda b, site: players.test_widths(b, site, check),
        lambda b, site: players.test_file(b, WEBDIR, check),
        lambda b, site: players.test_compare_unit(b, site, check),
        lambda b, site: players.test_series(b, site, check),
        lambda b, site: players.test_outcomes(b, site, check, cli),
        lambda b, site: players.test_games(b, site, check),
        lambda b, site: players.test_tabs(b, site, check),
        lambda b, site: players.test_map_form(b, site, check),
        lambda b, site: players.test_long_run(b, site, check),
        lambda b, site: players.test_messages(b, site, check, cli),
        lambda b, site: players.test_csp(b, site, check),
        lambda b, site: players.test_axe(b, site, check, axe),
        lambda b, site: players.test_offline(Browser, site, check),
    ] + columns.cases(check, cli, cli_args, axe)
    # The result's export (issue 52): tests/web/test_export.py.
    export_case = lambda b, site: test_export.run(b, site, BIN, check, players, axe)  # noqa: E731
    only = os.environ.get("WEB_TESTS")  # WEB_TESTS=players, columns, units, export, waits or methods: those alone
    # compare's verdict and layout (issue 52): tests/web/test_compare.py.
    compare_cases = [
        lambda b, site: compare_page.test_verdict(b, site, check, cli, fragment, cli_args),
        lambda b, site: compare_page.test_one_point(b, site, check, fragment),
        lambda b, site: compare_page.test_layout(b, site, check),
        lambda b, site: compare_page.test_axe(b, site, check, axe),
    ]
    # The waits (issue 52): tests/web/test_waits.py; the method field's facts
    # after a run and before one.
    methods_cases = [
        lambda b, site: waits.test_methods(b, site, check),
        lambda b, site: waits.test_facts_before_a_run(b, site, check, BIN),
    ]
    waiting = [
        lambda b, site: waits.test_question(Browser, site, check),
        lambda b, site: waits.test_suggestion(b, site, check),
        lambda b, site: waits.test_cancel(b, site, check),
        lambda b, site: waits.test_focus(b, site, check),
        lambda b, site: waits.test_about(b, site, check),
        lambda b, site: waits.test_presets(b, site, check),
    ] + methods_cases + [
        lambda b, site: waits.test_axe(b, site, check, axe),
        lambda b, site: waits.test_estimates(b, site, check),
    ]
    numbers = [test_runs, test_map_compare_dice, test_rqmc, test_bad_value, test_markup,
               test_cancel, test_twice, test_units, test_units_phone]
    try:
        offline_armies = lambda b, site: players.test_offline_armies(Browser, site, check, WEBDIR)  # noqa: E731
        pages.append(offline_armies)
        chosen = {"players": pages, "units": [test_units, test_units_phone, offline_armies],
                  "columns": columns.cases(check, cli, cli_args, axe),
                  "export": [export_case], "compare": compare_cases, "waits": waiting,
                  "methods": methods_cases}.get(
            only, numbers + pages + [export_case] + compare_cases + waiting)
        for test in chosen:
            try:
                test(b, site)
            except Exception as e:  # a case that could not run is a failure
                check(getattr(test, "__name__", "case"), False, "%s: %s" % (type(e).__name__, e))
    finally:
        b.close()
        site.close()
    passed = sum(results)
    print("web: %d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
