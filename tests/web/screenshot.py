#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""make web-screenshot: the README's pictures of the web edition, taken by
headless Chromium (tests/web/browser.py) from web/ as it stands: the run
tab at 1280 px, the same link at a phone's 360 px (the top of the page:
the form, the chart and its legend), and the Units tab (issue 44) at 1280 px.
Usage: tests/web/screenshot.py WEBDIR WIDE.png PHONE.png [UNITS.png]"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Site  # noqa: E402

# The Old World, M 4 to 6 with Swiftstride, against the distance.
LINK = ("#cmd=run&experiment.ruleset=generic&preset=tow&move=4..6&swiftstride=true"
        "&distance=4..18")
# The Old World's Bretonnians, 6 to 14 inches.
UNITS = "#cmd=units&source=tow/Bretonnians&distance=6..14"


def shoot(site, width, height, path, link=LINK):
    b = Browser(width, height)
    try:
        b.open(site.url + link)
        if b.wait() != "done":
            raise SystemExit(b.eval("document.getElementById('error').textContent"))
        b.screenshot(path)
    finally:
        b.close()


def main():
    site = Site(sys.argv[1])
    try:
        shoot(site, 1280, 900, sys.argv[2])
        shoot(site, 360, 780, sys.argv[3])
        if len(sys.argv) > 4:
            shoot(site, 1280, 900, sys.argv[4], UNITS)
    finally:
        site.close()


if __name__ == "__main__":
    main()
