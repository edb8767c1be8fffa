#!/usr/bin/python3
"""make web-screenshot: the README's pictures of the web edition, taken by
headless Chromium (tests/web/browser.py) from web/ as it stands: a run, and
the Units tab (issue 44) when a second file is named.
Usage: tests/web/screenshot.py WEBDIR OUT.png [UNITS.png]"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, Site  # noqa: E402

# The Old World, M 4 to 6 with Swiftstride, against the distance.
LINK = ("#cmd=run&experiment.ruleset=generic&preset=tow&move=4..6&swiftstride=true"
        "&distance=4..18")
# The Old World's Bretonnians, 6 to 14 inches.
UNITS = "#cmd=units&source=tow/Bretonnians&distance=6..14"


def main():
    site = Site(sys.argv[1])
    b = Browser(1200, 860)
    try:
        for link, out in zip((LINK, UNITS), sys.argv[2:4]):
            b.open(site.url + link)
            if b.wait() != "done":
                raise SystemExit(b.eval("document.getElementById('error').textContent"))
            b.screenshot(out)
    finally:
        b.close()
        site.close()


if __name__ == "__main__":
    main()
