# SPDX-License-Identifier: GPL-3.0-or-later
"""compare on the page (issue 52): its verdict in words is the command
line's sentence, a one-point compare's axis is scaled to its data, the A and
B columns of the form keep their headings on a phone, no header breaks
mid-word, and axe-core finds no serious violation. Each case takes the
shared Browser and Site of tests/web/test_web.py, its check(), and cli(args)
(bin/chargesim's stdout, stderr and exit status)."""

import json
import os

from browser import axe_violations  # noqa: E402

WIDE, PHONE = 1280, 360

# (link pairs, what the verdict must say): one with a difference, exact; one
# sampled, without (at 3″ both variants always reach: every interval holds 0).
VERDICT_LINKS = [
    ([("experiment.ruleset", "t9a"), ("distance", "6..10"), ("b.charge_speed", "9")],
     "B reaches more often"),
    ([("experiment.ruleset", "generic"), ("preset", "tow"), ("experiment.method", "mc"),
      ("experiment.trials", "4000"), ("move", "4"), ("distance", "2..3"), ("b.move", "5")],
     "No difference detected"),
]

ONE_POINT = [("experiment.ruleset", "t9a"), ("distance", "9"), ("b.charge_speed", "1")]

# Header cells whose words (split at spaces, and after "_") render on more
# than one line: a word broken mid-word.
BROKEN_HEADERS = r"""
(() => {
  const out = [];
  for (const th of document.querySelectorAll('table.params th, #results th')) {
    if (th.offsetParent === null) continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/[^\s_]+_?/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0)
          .map((x) => Math.round(x.top)));
        if (tops.size > 1) out.push(th.textContent);
      }
    }
  }
  return out;
})()
"""


def width(b, w):
    b.call("Emulation.setDeviceMetricsOverride", width=w, height=900, deviceScaleFactor=1,
           mobile=False)


def test_verdict(b, site, check, cli, fragment, cli_args):
    for pairs, says in VERDICT_LINKS:
        b.open(site.url + fragment("compare", pairs))
        state = b.wait()
        page = b.eval("document.getElementById('verdict').textContent")
        above = b.eval("document.getElementById('verdict').getBoundingClientRect().bottom <="
                       " document.getElementById('results').getBoundingClientRect().top")
        out, err, rc = cli(cli_args("compare", pairs))
        lines = err.strip().split("\n")
        check("compare's verdict on the page is the command line's sentence (%s)" % says,
              state == "done" and rc == 0 and page == lines[-1] and page.startswith(says)
              and above, "page %r (%s, above the table %s), cli %r (exit %d)"
              % (page, state, above, lines[-1], rc))


def test_one_point(b, site, check, fragment):
    b.open(site.url + fragment("compare", ONE_POINT))
    b.wait()
    got = b.eval("[document.getElementById('chart').dataset.yRange,"
                 " ...['delta', 'delta_lo', 'delta_hi'].map((h) => document.querySelector("
                 "'#results tbody tr').cells[[...document.querySelectorAll('#results th')]"
                 ".findIndex((t) => (t.dataset.column ?? t.textContent) === h)].dataset.value)]")
    lo_axis, hi_axis = (float(v) for v in got[0].split(","))
    d, lo, hi = (float(v) for v in got[1:])
    low, high = min(0.0, lo), max(0.0, hi)
    span = high - low
    check("a one-point compare's y axis is scaled to delta and its interval",
          lo_axis <= low and hi_axis >= high and (hi_axis - lo_axis) <= 1.31 * span + 0.0031
          and d > 0, "axis %s, delta %g [%g, %g]" % (got[0], d, lo, hi))


def test_layout(b, site, check):
    link = site.url + "#cmd=compare&experiment.ruleset=t9a&distance=6..10&b.charge_speed=9"
    for w in (PHONE, WIDE):
        width(b, w)
        b.open(link)
        b.wait()
        heads = b.eval("[...document.querySelectorAll('table.params thead th')]"
                       ".filter((t) => t.offsetParent !== null && t.getBoundingClientRect().width > 0)"
                       ".map((t) => [t.textContent, Math.round(t.getBoundingClientRect().left)])")
        cells = b.eval("[...document.querySelector('table.params tbody tr').querySelectorAll("
                       "'td.value')].map((c) => Math.round(c.getBoundingClientRect().left))")
        named = dict(heads)
        check("compare at %d px: the A and B columns have headings over them" % w,
              "A" in named and "B" in named and len(cells) == 2
              and abs(named["A"] - cells[0]) <= 12 and abs(named["B"] - cells[1]) <= 12,
              "headings %s, value cells at %s" % (heads, cells))
        broken = b.eval(BROKEN_HEADERS)
        check("compare at %d px: no header breaks mid-word" % w, broken == [], json.dumps(broken))
    width(b, WIDE)


def test_axe(b, site, check, axe_path):
    if not os.path.exists(axe_path):
        return check("compare: accessibility (axe-core)", False, axe_path + " missing")
    with open(axe_path, encoding="utf-8") as f:
        axe = f.read()
    for w in (WIDE, PHONE):
        width(b, w)
        b.open(site.url + "#cmd=compare&experiment.ruleset=t9a&distance=9&b.charge_speed=1")
        b.wait()
        found = axe_violations(b, axe)
        check("compare with its verdict at %d px: no serious or critical violation (axe-core)"
              % w, found == [], json.dumps(found))
    width(b, WIDE)
