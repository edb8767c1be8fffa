#!/usr/bin/python3
"""make web-screenshot: the README's picture of the web edition, taken by
headless Chromium (tests/web/browser.py) from web/ as it stands.
Usage: tests/web/screenshot.py WEBDIR OUT.png"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Site  # noqa: E402

# The Old World, M 4 to 6 with Swiftstride, against the distance.
LINK = ("#cmd=run&experiment.ruleset=generic&preset=tow&move=4..6&swiftstride=true"
        "&distance=4..18")


def main():
    site = Site(sys.argv[1])
    b = Browser(1200, 860)
    try:
        b.open(site.url + LINK)
        if b.wait() != "done":
            raise SystemExit(b.eval("document.getElementById('error').textContent"))
        b.screenshot(sys.argv[2])
    finally:
        b.close()
        site.close()


if __name__ == "__main__":
    main()
