#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The test run's summary, printed by make check and make test: the tests
skipped and why, counted by reason in one place, and the ten slowest tests
with their times.

    test-summary.py DIR

DIR holds what the run left: criterion.json and criterion.xml (the
Criterion runner's reports, --json and --xml) and times.tsv (a line
"SECONDS<TAB>NAME" for each test script, scripts/timed.sh). A skip's reason
is its message up to the first colon ("a private mount namespace is not
permitted here: ..."), so the skips of one cause make one line. The summary
only reports: the runs' own exit statuses decide pass or fail.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET


def criterion_skips(path):
    """{reason: [suite::test, ...]} of the tests that skipped themselves."""
    skips = {}
    if not os.path.exists(path):
        return skips
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    for suite in report.get("test_suites", []):
        for test in suite.get("tests", []):
            if test.get("status") != "SKIPPED":
                continue
            message = " ".join(test.get("messages") or ["no reason given"])
            reason = message.split(":", 1)[0].strip()
            skips.setdefault(reason, []).append("%s::%s" % (suite["name"], test["name"]))
    return skips


def criterion_times(path):
    """[(seconds, suite::test)] of every Criterion test that ran."""
    times = []
    if not os.path.exists(path):
        return times
    for suite in ET.parse(path).getroot().iter("testsuite"):
        for case in suite.iter("testcase"):
            if case.get("status") == "SKIPPED":
                continue
            times.append((float(case.get("time", "0")),
                          "%s::%s" % (suite.get("name"), case.get("name"))))
    return times


def script_times(path):
    """[(seconds, name)] of the test scripts timed by scripts/timed.sh."""
    times = []
    if not os.path.exists(path):
        return times
    with open(path, encoding="utf-8") as f:
        for line in f:
            seconds, _, name = line.rstrip("\n").partition("\t")
            if name:
                times.append((float(seconds), name))
    return times


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test-summary.py DIR")
    run = sys.argv[1]
    skips = criterion_skips(os.path.join(run, "criterion.json"))
    times = criterion_times(os.path.join(run, "criterion.xml"))
    times += script_times(os.path.join(run, "times.tsv"))
    total = sum(len(v) for v in skips.values())
    print("test summary: %d skipped" % total)
    for reason, tests in sorted(skips.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print("  %d skipped: %s (%s)" % (len(tests), reason, ", ".join(sorted(tests))))
    if total:
        print("  (README.md, \"Tests that need root\", says how to run them)")
    print("the ten slowest tests:")
    for seconds, name in sorted(times, reverse=True)[:10]:
        print("  %8.2f s  %s" % (seconds, name))


if __name__ == "__main__":
    main()
