#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""make bench-web: the web edition's speed in headless Chromium on this
machine (a benchmark, not a test: the figures depend on the machine and its
load). Each figure is the page's own document.body.dataset.ms, the
computation's time measured in the worker around the engine's call, the
median of 5 runs (of 3 and 1 for the rqmc runs), and for the Units tab also
the time from opening the link to the table (engine start included):
  - the 97 x 49 exact T9A threat map of experiments/map-t9a.ini (edition 3,
    Swiftstride, the default axes -24..24:0.5 by 0..24:0.5); target < 1 s
  - a 24-distance exact table (WHFB 8th, M 5, distance 1..24); target < 50 ms
  - The Old World's Bretonnians, the whole units table at 6..14 inches, the
    catalogue, its links and game system fetched and parsed; target < 2 s
  - experiments/t9a-random-approach.ini as the file sets it (16 points,
    drawn offset and angle, trials 20000, seed 904) under auto, which picks
    rqmc, to +-0.1 pp (experiment.precision=0.001), the page's run of
    `chargesim run experiments/t9a-random-approach.ini --precision 0.001`;
    target < 3 s. For scale, no target: the same from the page's default
    100000 trials (--precision adds rounds to the trials asked, so 4 times
    the layouts, 131072 a point, where 32768 already meet +-0.1 pp), and
    one of its points alone
  - web/chargesim.wasm with the page's JavaScript; target < 2.5 MB
Usage: tests/web/bench_web.py WEBDIR"""

import glob
import os
import statistics
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Site  # noqa: E402

CASES = [
    ("97 x 49 exact T9A threat map", "map",
     [("experiment.ruleset", "t9a"), ("experiment.seed", "2001"), ("edition", "3"),
      ("maximised", "1")], 1000.0, 5),
    ("24-distance exact table", "run",
     [("experiment.ruleset", "generic"), ("preset", "whfb8"), ("move", "5"),
      ("distance", "1..24")], 50.0, 5),
    ("Units: Bretonnians 6..14", "units",
     [("source", "tow/Bretonnians"), ("distance", "6..14")], 2000.0, 5),
    ("t9a-random-approach, rqmc +-0.1 pp", "run",
     [("experiment.ruleset", "t9a"), ("experiment.seed", "904"), ("experiment.trials", "20000"),
      ("edition", "3"), ("maximised", "0,1"), ("distance", "3..10"),
      ("offset", "uniform(-6, 6)"), ("angle", "uniform(-45, 45)"),
      ("experiment.precision", "0.001")], 3000.0, 3),
    ("  the same from 100000 trials", "run",
     [("experiment.ruleset", "t9a"), ("experiment.seed", "904"), ("edition", "3"),
      ("maximised", "0,1"), ("distance", "3..10"), ("offset", "uniform(-6, 6)"),
      ("angle", "uniform(-45, 45)"), ("experiment.precision", "0.001")], None, 1),
    ("  one point of it (maximised 1, 6 in)", "run",
     [("experiment.ruleset", "t9a"), ("experiment.seed", "904"), ("edition", "3"),
      ("maximised", "1"), ("distance", "6"), ("offset", "uniform(-6, 6)"),
      ("angle", "uniform(-45, 45)"), ("experiment.precision", "0.001")], None, 3),
]


def main():
    web = sys.argv[1]
    site = Site(web)
    b = Browser()
    try:
        for name, cmd, pairs, target, runs in CASES:
            url = site.url + "#cmd=" + cmd + "".join(
                "&%s=%s" % (urllib.parse.quote(k, safe=""), urllib.parse.quote(v, safe=""))
                for k, v in pairs)
            times, walls, rows = [], [], 0
            for _ in range(runs):
                start = time.time()
                b.open(url)
                if b.wait(timeout=900) != "done":
                    raise SystemExit("%s: %s" % (name, b.eval(
                        "document.getElementById('error').textContent")))
                walls.append(1000 * (time.time() - start))
                times.append(float(b.eval("document.body.dataset.ms")))
                rows = b.eval("document.querySelectorAll('#results tbody tr').length")
            med = statistics.median(times)
            verdict = ("  target < %g ms: %s" % (target, "met" if med < target else "NOT met")
                       if target else "")
            print("%-36s %8.1f ms (median of %d; min %.1f, max %.1f; %d rows)%s"
                  % (name, med, runs, min(times), max(times), rows, verdict))
            if cmd == "units":
                print("%-36s %8.1f ms (median of %d: opening the link to the table)"
                      % ("  the same, page load included", statistics.median(walls), runs))
    finally:
        b.close()
        site.close()
    wasm = os.path.getsize(os.path.join(web, "chargesim.wasm"))
    js = sum(os.path.getsize(f) for f in [os.path.join(web, "chargesim.js"),
                                           os.path.join(web, "worker.js")]
             + glob.glob(os.path.join(web, "js", "*.js")))
    print("%-36s %8d bytes (%.0f KB), JavaScript %d bytes (%.0f KB): %.2f MB  target < 2.5 MB: %s"
          % ("web/chargesim.wasm", wasm, wasm / 1024, js, js / 1024, (wasm + js) / 1e6,
             "met" if wasm + js < 2.5e6 else "NOT met"))


if __name__ == "__main__":
    main()
