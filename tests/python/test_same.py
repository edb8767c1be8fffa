# SPDX-License-Identifier: GPL-3.0-or-later
"""Same request, same numbers (issue 53): one request per command, as
tests/bindings/same.json lists them, through the Python module with the
keys as it takes them (an option's name or an override's key): its CSV is
the bytes `chargesim ... -o FILE` writes. tests/library.sh holds the C
example and tests/js.sh the JavaScript package to the same file."""
import json
import os
import subprocess

import pytest

import chargesim

ROOT = os.environ.get("CS_ROOT", os.getcwd())
BIN = os.environ.get("CS_BIN", os.path.join(ROOT, "bin", "chargesim"))
with open(os.path.join(ROOT, "tests", "bindings", "same.json"), encoding="utf-8") as f:
    REQUESTS = json.load(f)["requests"]


def test_one_request_per_command():
    assert sorted(q["cmd"] for q in REQUESTS) == ["compare", "dice", "map", "run", "units"]


@pytest.mark.parametrize("q", REQUESTS, ids=[q["cmd"] for q in REQUESTS])
def test_the_bytes_of_the_command_lines_file(q, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "cli.csv"
    p = subprocess.run([BIN, *q["cli"], "-o", str(out)], stdin=subprocess.DEVNULL,
                       capture_output=True, check=False)
    assert p.returncode == 0, p.stderr
    want = out.read_bytes()
    assert want
    call = getattr(chargesim, q["cmd"])
    # No operand: no input read, as the command line reads an empty one.
    operand = q["operand"][1] if q["operand"] else None
    t = call(operand, dict(q["pairs"]))
    assert "".join(x.to_csv() for x in t.tables).encode("utf-8") == want
