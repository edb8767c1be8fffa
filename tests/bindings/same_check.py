# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/js.sh's check of tests/bindings/same.mjs's tables: each NAME.csv
is the command line's file (CLI_DIR/NAME.csv, `chargesim ... -o`) byte for
byte, and NAME.json's header and rows are its cells as Python's csv module
reads them. Prints one line per table; exits 1 on a difference.
Usage: same_check.py CLI_DIR JS_DIR NAME..."""
import csv
import io
import json
import os
import sys


def main():
    cli_dir, js_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = False
    for name in names:
        with open(os.path.join(cli_dir, name + ".csv"), "rb") as f:
            want = f.read()
        with open(os.path.join(js_dir, name + ".csv"), "rb") as f:
            got = f.read()
        with open(os.path.join(js_dir, name + ".json"), encoding="utf-8") as f:
            table = json.load(f)
        cells = list(csv.reader(io.StringIO(want.decode("utf-8"), newline="")))
        same_cells = want and cells == [table["header"], *table["rows"]]
        if want and got == want and same_cells:
            print("js: ok: same.json %s: toCSV() = chargesim -o, byte for byte; rows = its cells" % name)
            continue
        failed = True
        print("js: FAIL: same.json %s: %s" % (name, "the cells differ" if not same_cells
                                             else "toCSV() differs from chargesim -o"),
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
