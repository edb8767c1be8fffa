#!/usr/bin/python3
"""make bench-web: the web edition's speed in headless Chromium on this
machine (a benchmark, not a test: the figures depend on the machine and its
load). Each figure is the page's own document.body.dataset.ms, the
computation's time measured in the worker around the engine's call, the
median of 5 runs:
  - the 97 x 49 exact T9A threat map of experiments/map-t9a.ini (edition 3,
    Swiftstride, the default axes -24..24:0.5 by 0..24:0.5); target < 1 s
  - a 24-distance exact table (WHFB 8th, M 5, distance 1..24); target < 50 ms
  - the size of web/chargesim.wasm; target < 1 MB
Usage: tests/web/bench_web.py WEBDIR"""

import os
import statistics
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Site  # noqa: E402

CASES = [
    ("97 x 49 exact T9A threat map", "map",
     [("experiment.ruleset", "t9a"), ("experiment.seed", "2001"), ("edition", "3"),
      ("maximised", "1")], 1000.0),
    ("24-distance exact table", "run",
     [("experiment.ruleset", "generic"), ("preset", "whfb8"), ("move", "5"),
      ("distance", "1..24")], 50.0),
]


def main():
    web = sys.argv[1]
    site = Site(web)
    b = Browser()
    try:
        for name, cmd, pairs, target in CASES:
            url = site.url + "#cmd=" + cmd + "".join(
                "&%s=%s" % (urllib.parse.quote(k, safe=""), urllib.parse.quote(v, safe=""))
                for k, v in pairs)
            times, rows = [], 0
            for _ in range(5):
                b.open(url)
                if b.wait() != "done":
                    raise SystemExit("%s: %s" % (name, b.eval(
                        "document.getElementById('error').textContent")))
                times.append(float(b.eval("document.body.dataset.ms")))
                rows = b.eval("document.querySelectorAll('#results tbody tr').length")
            med = statistics.median(times)
            print("%-32s %8.1f ms (median of 5; min %.1f, max %.1f; %d rows)  target < %g ms: %s"
                  % (name, med, min(times), max(times), rows, target,
                     "met" if med < target else "NOT met"))
    finally:
        b.close()
        site.close()
    size = os.path.getsize(os.path.join(web, "chargesim.wasm"))
    print("%-32s %8d bytes (%.0f KB)  target < 1 MB: %s"
          % ("web/chargesim.wasm", size, size / 1024, "met" if size < 1 << 20 else "NOT met"))


if __name__ == "__main__":
    main()
