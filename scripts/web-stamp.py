#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The web edition's version stamp (issue 45, point 15): a hash of every
file of the site, written where the browser sees it, so that a release is
never half-loaded:
  - web/sw.js: VERSION (the service worker's cache is named after it, so a
    new release installs as a whole beside the old one) and SITE, the
    files it keeps (every file under web/ but sw.js itself and data/, whose
    catalogues are kept only when a player opens them);
  - web/index.html: the chargesim-version meta tag and the ?v= of the
    scripts and the style sheet it loads (past any HTTP cache); the engine
    worker and the engine take the same ?v= (js/engine.js, worker.js).
The hash is taken with the stamp itself blanked, so stamping twice changes
nothing. make web stamps; make test-web checks the stamp is current.
Usage: scripts/web-stamp.py WEBDIR [--check]"""

import hashlib
import os
import re
import sys

STAMPED = ("index.html", "sw.js")
TOKEN = re.compile(r"(chargesim-version\" content=\"|\?v=|const VERSION = ')([0-9a-f]{12})")


def site_files(web):
    out = []
    for root, dirs, files in os.walk(web):
        rel = os.path.relpath(root, web)
        if rel == "data" or rel.startswith("data" + os.sep):
            continue
        for f in files:
            path = os.path.normpath(os.path.join(rel, f)).replace(os.sep, "/")
            if path != "sw.js":
                out.append(path)
    return sorted(out)


def site_list(files):
    return "const SITE = [\n  './',\n" + "".join("  '%s',\n" % f for f in files) + "];"


def blank(text):
    return TOKEN.sub(lambda m: m.group(1) + "0" * 12, text)


def stamped(web):
    """{name: text} of the stamped files as they should be."""
    files = site_files(web)
    texts = {}
    for name in STAMPED:
        with open(os.path.join(web, name), encoding="utf-8") as f:
            texts[name] = f.read()
    texts["sw.js"] = re.sub(r"const SITE = \[.*?\];", lambda m: site_list(files), texts["sw.js"],
                            flags=re.S)
    h = hashlib.sha256()
    for name in files + ["sw.js"]:
        if name in texts:
            data = blank(texts[name]).encode("utf-8")
        else:
            with open(os.path.join(web, name), "rb") as f:
                data = f.read()
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    version = h.hexdigest()[:12]
    return {name: TOKEN.sub(lambda m: m.group(1) + version, blank(t)) for name, t in texts.items()}, version


def main():
    web = sys.argv[1]
    check = "--check" in sys.argv[2:]
    want, version = stamped(web)
    stale = []
    for name, text in want.items():
        path = os.path.join(web, name)
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                continue
        stale.append(name)
        if not check:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if check and stale:
        print("web-stamp: %s not stamped with the site's version %s: run make web and commit web/"
              % (", ".join(stale), version))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
