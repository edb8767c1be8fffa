# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python module against the command line (issue 53): one case per
command byte for byte as CSV, errors (field and message), cancel (another
thread, a simulated Ctrl-C), two threads at once, progress, pandas.
Run from the repository root with PYTHONPATH at `make python`'s stage and
CS_BIN the binary (make check does both)."""
import os
import signal
import subprocess
import threading
import time

import pytest

import chargesim

ROOT = os.environ.get("CS_ROOT", os.getcwd())
BIN = os.environ.get("CS_BIN", os.path.join(ROOT, "bin", "chargesim"))
# A run long enough to cancel: minutes of sampling on 2 cores.
LONG = dict(method="mc", trials=10**9)
# The second a cancel may take, longer under a sanitizer (make asan).
SECOND = max(1.0, float(os.environ.get("CS_TEST_TIME_SCALE", "1")))


@pytest.fixture(autouse=True)
def _root(monkeypatch):
    monkeypatch.chdir(ROOT)


def cli(*args):
    """bin/chargesim's status, stdout and stderr."""
    p = subprocess.run([BIN, *args], capture_output=True, text=True, check=False)
    return p.returncode, p.stdout, p.stderr


def all_csv(t):
    return "".join(x.to_csv() for x in t.tables)


CASES = [
    ("run", lambda: chargesim.run("experiments/default.ini", method="exact"),
     ["run", "experiments/default.ini", "--method", "exact"]),
    ("map", lambda: chargesim.map("experiments/map-t9a.ini", x="0..24:8", y="0..24:8"),
     ["map", "experiments/map-t9a.ini", "--x", "0..24:8", "--y", "0..24:8"]),
    ("compare", lambda: chargesim.compare("experiments/compare-tow-move.ini", b={"move": 5}),
     ["compare", "experiments/compare-tow-move.ini", "--b", "move=5"]),
    ("dice", lambda: chargesim.dice("2d6kh1+d6", exact=True),
     ["dice", "2d6kh1+d6", "--exact"]),
    ("dice-mc", lambda: chargesim.dice("3d6dl1", {"trials": 20000, "seed": 7}),
     ["dice", "3d6dl1", "--trials", "20000", "--seed", "7"]),
    ("units", lambda: chargesim.units("data/tow/Bretonnians.cat", distance="4..20"),
     ["units", "data/tow/Bretonnians.cat", "--distance", "4..20", "--quiet"]),
]


@pytest.mark.parametrize("name,call,args", CASES, ids=[c[0] for c in CASES])
def test_same_bytes_as_the_command_line(name, call, args):
    t = call()
    rc, out, err = cli(*args)
    assert rc == 0, err
    assert out and all_csv(t) == out
    assert t.rows and len(t.columns) == len(t.rows[0])
    assert [c.name for c in t.columns] == out.splitlines()[0].split(",")
    assert t.provenance["version"] == chargesim.__version__


def test_table_metadata():
    t = chargesim.dice("2d6kh1+d6", exact=True)
    assert t.method == "exact"
    assert t.provenance["command_line"] == "chargesim dice 2d6kh1+d6 --exact"
    assert [c.name for c in t.columns] == ["value", "p", "p_at_least", "p_at_most", "p_fraction"]
    assert all(c.description for c in t.columns)
    # 2d6kh1+d6 = the higher of two d6 plus a d6: 2 only from (1,1),1.
    assert t.rows[0][0] == "2" and t.rows[0][-1] == "1/216"
    assert t.to_csv("md").startswith("|") or "value" in t.to_csv("md")
    u = chargesim.units("data/tow/Bretonnians.cat", distance="4..6")
    assert u.provenance["inputs"][0][0] == "data/tow/Bretonnians.cat"
    assert len(u.provenance["inputs"][0][1]) == 64


def test_dict_and_keywords_are_the_same_request():
    a = chargesim.run("experiments/default.ini", {"method": "exact", "distance": "6..8"})
    b = chargesim.run("experiments/default.ini", method="exact", distance="6..8")
    c = chargesim.run("experiments/default.ini", {"experiment.method": "exact"}, distance="6..8")
    assert all_csv(a) == all_csv(b) == all_csv(c)
    rc, out, _ = cli("run", "experiments/default.ini", "--method", "exact", "--set", "distance=6..8")
    assert rc == 0 and all_csv(a) == out


ERRORS = [
    (lambda: chargesim.run("experiments/default.ini", method="bogus"), "method",
     ["run", "experiments/default.ini", "--method", "bogus"]),
    (lambda: chargesim.dice("2d6q"), "expr", ["dice", "2d6q"]),
    (lambda: chargesim.run("experiments/no-such-file.ini"), "input",
     ["run", "experiments/no-such-file.ini"]),
    (lambda: chargesim.units("data/tow/Bretonnians.cat", distance="4..x"), "distance",
     ["units", "data/tow/Bretonnians.cat", "--distance", "4..x"]),
    (lambda: chargesim.dice("2d6", trials=0), "trials", ["dice", "2d6", "--trials", "0"]),
]


@pytest.mark.parametrize("call,field,args", ERRORS, ids=[e[1] for e in ERRORS])
def test_errors_name_the_field_and_say_what_the_command_line_says(call, field, args):
    with pytest.raises(chargesim.Error) as e:
        call()
    rc, _, err = cli(*args)
    assert rc == 2
    assert e.value.field == field
    assert e.value.status == "input"
    assert err == "chargesim %s: %s\n" % (args[0], e.value.message)


def test_no_expression_names_the_missing_key():
    with pytest.raises(chargesim.Error) as e:
        chargesim.dice()
    assert e.value.field == "expr"


def test_cancel_from_another_thread():
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    t0 = time.monotonic()
    with pytest.raises(chargesim.Cancelled):
        chargesim.run("experiments/default.ini", LONG, cancel=stop)
    assert time.monotonic() - t0 < 0.5 + SECOND
    # The library is usable at once after.
    assert chargesim.dice("2d6").rows


def test_ctrl_c_cancels_within_a_second():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    pid = os.getpid()
    threading.Timer(0.5, lambda: os.kill(pid, signal.SIGINT)).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        chargesim.run("experiments/default.ini", LONG)
    assert time.monotonic() - t0 < 0.5 + SECOND
    assert chargesim.dice("2d6").rows


def test_two_threads_at_once_and_the_gil_released():
    expect = {"run": all_csv(CASES[0][1]()), "dice": all_csv(CASES[4][1]())}
    got, ticks, done = {}, [0], threading.Event()

    def tick():  # runs only while the runs have released the GIL
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    def one(name, call):
        got[name] = all_csv(call())

    threads = [threading.Thread(target=one, args=("run", CASES[0][1])),
               threading.Thread(target=one, args=("dice", CASES[4][1]))]
    ticker = threading.Thread(target=tick)
    ticker.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    ticker.join()
    assert got == expect
    stop = threading.Event()
    threading.Timer(0.6, stop.set).start()
    ticks[0] = 0
    done.clear()
    ticker = threading.Thread(target=tick)
    ticker.start()
    with pytest.raises(chargesim.Cancelled):
        chargesim.run("experiments/default.ini", LONG, cancel=stop)
    done.set()
    ticker.join()
    assert ticks[0] > 50  # the other thread ran during the 0.6 s run


def test_progress_is_reported():
    seen = []
    chargesim.run("experiments/default.ini", {"method": "mc", "trials": 200000},
                  progress=lambda done, total: seen.append((done, total)))
    assert seen and all(0 <= d <= t for d, t in seen if t)


def test_to_pandas():
    pandas = pytest.importorskip("pandas")
    t = chargesim.dice("2d6kh1+d6", exact=True)
    df = t.to_pandas()
    assert isinstance(df, pandas.DataFrame)
    assert list(df.columns) == [c.name for c in t.columns]
    assert len(df) == len(t.rows)
    assert df["value"].dtype.kind == "i"
    assert abs(df["p"].sum() - 1.0) < 1e-12
    assert df.attrs["method"] == "exact"
    assert df.attrs["columns"]["p"]["description"] == t.columns[1].description


def test_compare_verdict_first_of_its_notes():
    """compare's verdict (issue 52) is the sentence the command line prints
    after its CSV."""
    t = chargesim.compare("experiments/compare-tow-move.ini", b={"move": 5})
    rc, _, err = cli("compare", "experiments/compare-tow-move.ini", "--b", "move=5")
    assert rc == 0 and t.notes[0] == err.strip().split("\n")[-1]
    assert t.notes[0].startswith("B reaches more often")


def test_api_version():
    assert chargesim.api_version[0] == 0 and chargesim.api_version[1] >= 1
