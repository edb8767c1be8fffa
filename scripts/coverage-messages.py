#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Error messages no test reaches (issue 18, section 4), from gcovr's JSON.

Usage: scripts/coverage-messages.py build-cov/coverage.json [ROOT]

Prints per layer the line and branch figures, then every line of src/ that
sets an error message (cs_error_set, cs_cli_fail, a cs_diag, the fail()
helpers of dice.c, units_csv.c, units_ini.c, output.c) or prints to stderr
and that the suite never ran, with its file and line. Information, not a gate: the gate
is gcovr's --fail-under-line / --fail-under-branch in `make coverage`.
gcovr needs python3, so this script adds no dependency.
"""
import json
import os
import re
import sys

MESSAGE = re.compile(
    r"cs_error_set\(|cs_cli_fail\(|cs_cli_fail_err\(|\(cs_diag\)\{|diag->what =|"
    r"\bfail\((s|st|p), |fail_open\(|terrain_error\(|fprintf\(stderr")


def main():
    path = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else "."
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    layers = {}
    unreached = []
    total_messages = 0
    for entry in data["files"]:
        name = entry["file"]
        layer = name.split("/")[1] if name.startswith("src/") else "?"
        with open(os.path.join(root, name), encoding="utf-8") as src:
            text = src.read().split("\n")
        fig = layers.setdefault(layer, [0, 0, 0, 0])
        for line in entry["lines"]:
            if line.get("gcovr/noncode"):
                continue
            fig[0] += 1
            fig[1] += line["count"] > 0
            for b in line["branches"]:
                fig[2] += 1
                fig[3] += b["count"] > 0
            source = text[line["line_number"] - 1]
            if MESSAGE.search(source):
                total_messages += 1
                if line["count"] == 0:
                    unreached.append((name, line["line_number"], source.strip()))
    for layer in ("core", "rules", "sim", "io", "cli", "web"):
        if layer in layers:
            lt, lc, bt, bc = layers[layer]
            print(f"{layer:5} lines {100.0 * lc / max(lt, 1):5.1f}% ({lc}/{lt})  "
                  f"branches {100.0 * bc / max(bt, 1):5.1f}% ({bc}/{bt})")
    print(f"error messages: {total_messages - len(unreached)} of {total_messages} reached; "
          f"never reached:")
    for name, number, source in unreached:
        print(f"  {name}:{number}: {source[:100]}")


if __name__ == "__main__":
    main()
