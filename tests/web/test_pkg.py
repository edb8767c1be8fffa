#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The JavaScript package in a browser (issue 53): the tarball `npm pack`
made (make js-pack), unpacked as it is into a folder served on the loopback
beside the web build's catalogues, and a page that imports it in headless
Chromium (a Web Worker runs the engine):
  - its dice table is the CSV of `chargesim dice 2d6kh1+d6 --exact`, byte
    for byte, and its units table that of `chargesim units
    data/tow/Bretonnians.cat --distance 4..20`;
  - an aborted run rejects with an AbortError, and the next request works.
Run by tests/js.sh (make test-web). Usage: tests/web/test_pkg.py BIN TARBALL
DATA ROOT (ROOT: the repository, where the command line reads data/).
Prints one line per case and 'N passed, N failed'."""

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Site  # noqa: E402

PAGE = """<!doctype html>
<meta charset="utf-8">
<title>chargesim package</title>
<body data-state="busy">
<script type="module">
import {createChargesim} from './package/index.js';
const out = {};
try {
  const cs = await createChargesim({data: 'data/'});
  out.dice = (await cs.dice({expr: '2d6kh1+d6', exact: true})).toCSV();
  out.units = (await cs.units({game: 'tow', army: 'Bretonnians', distance: '4..20'})).toCSV();
  const ac = new AbortController();
  const long = cs.run({'experiment.ruleset': 'generic', preset: 'whfb8', move: '3..10',
                       distance: '1..24', 'experiment.method': 'mc',
                       'experiment.trials': 2000000000}, {signal: ac.signal});
  setTimeout(() => ac.abort(), 300);
  try {
    await long;
    out.aborted = 'not aborted';
  } catch (e) {
    out.aborted = e.name;
  }
  out.after = (await cs.dice({expr: 'd6', exact: true})).toCSV();
  document.body.dataset.state = 'done';
} catch (e) {
  out.error = String(e && e.stack || e);
  document.body.dataset.state = 'error';
}
window.out = out;
</script>
"""

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("pkg: %s: %s%s" % ("ok" if ok else "FAIL", name, "" if ok else " (%s)" % detail))


def cli(bin_, root, args):
    return subprocess.run([bin_] + args, cwd=root, capture_output=True, text=True).stdout


def main():
    bin_, tgz, data, root = (os.path.abspath(a) for a in sys.argv[1:5])
    site_dir = tempfile.mkdtemp(prefix="chargesim-pkg-")
    try:
        with tarfile.open(tgz) as t:
            t.extractall(site_dir)
        os.symlink(data, os.path.join(site_dir, "data"))
        with open(os.path.join(site_dir, "index.html"), "w") as f:
            f.write(PAGE)
        site = Site(site_dir)
        b = Browser()
        try:
            b.open(site.url + "index.html")
            state = b.wait(timeout=180)
            out = b.eval("window.out") or {}
        finally:
            b.close()
            site.close()
    finally:
        shutil.rmtree(site_dir, ignore_errors=True)
    check("a page imports the tarball's package", state == "done", out.get("error", state))
    check("its dice table is chargesim dice --exact's CSV, byte for byte",
          out.get("dice") == cli(bin_, root, ["dice", "2d6kh1+d6", "--exact"]))
    check("its units table is chargesim units' CSV, byte for byte",
          out.get("units") == cli(bin_, root, ["units", "data/tow/Bretonnians.cat",
                                               "--distance", "4..20"]))
    check("an aborted run rejects with an AbortError", out.get("aborted") == "AbortError",
          out.get("aborted"))
    check("the request after the abort works",
          out.get("after") == cli(bin_, root, ["dice", "d6", "--exact"]))
    passed = sum(results)
    print("pkg: %d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
