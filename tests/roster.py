#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/roster.py: `chargesim units` on rosters (issue 46), run by `make
check` with CS_BIN and CS_ROOT set (from the repository root).

  1. Every real export in tests/data/rosters opens: the Age of Sigmar 4.0
     ones give rows through the test mapping tests/data/rosters/mappings;
     the others, and all of them under the project's own mappings, give the
     game-system message (exit 2, the system named with its id, the
     systems covered listed).
  2. Each Age of Sigmar 4.0 roster is read here independently (zipfile,
     ElementTree, json): the units, their models, points and Move must be
     chargesim's rows, in order.
  3. Our own rosters (tests/data/rosters/own): the three forms of each list
     give byte-identical tables; each row, fliers' second rows included,
     has the type, profile, reach, p_ and mean_ columns of the catalogue's
     row for the same unit and mount (The Old World, T9A, ASOIAF), but
     where an option changed the profile, and then its note says what
     changed.
  4. Bad input: one chargesim message naming the file, exit status 2, no
     output, and nothing written beside the archive.
Prints one line per check; exits 1 at the first failure.
"""
import csv
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
import zlib

BIN = os.environ.get("CS_BIN", "bin/chargesim")
ROOT = os.environ.get("CS_ROOT", ".")
DATA = os.path.join(ROOT, "tests/data/rosters")
OWN = os.path.join(DATA, "own")
AOS4_MAP = os.path.join(DATA, "mappings/aos4.ini")
MAPS = os.path.join(ROOT, "experiments/mappings")
AOS4 = ["Belakor and Fiends.rosz", "Lots o'Letters.rosz",
        "newrecruit-aos4-kb-001-all-units.json", "newrecruit-aos4-sce-001-minimal.json"]
OTHERS = ["Khorne 2k AoS 3.ros", "Khorne 2k AoS 3.rosz", "MESBGMordor750WithTroll.rosz",
          "Necrons 10e.rosz", "NotZipped.rosz"]


def fail(msg):
    print("roster.py: FAIL: " + msg)
    sys.exit(1)


def run(*args, cwd=None):
    p = subprocess.run([BIN, "units", *args], capture_output=True, cwd=cwd)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


# ---- 2. an independent reading of a roster ----------------------------------


def load(path):
    """The roster's tree as (tag, attrs, text, children) tuples, whatever
    its form."""
    data = open(path, "rb").read()
    if data[:2] == b"PK":
        z = zipfile.ZipFile(io.BytesIO(data))
        data = z.read(z.namelist()[0])
    if data.lstrip()[:1] == b"{":
        def conv(tag, obj):
            attrs, kids, text = {}, [], None
            for k, v in obj.items():
                if k == "$text":
                    text = str(v)
                elif isinstance(v, list):
                    kids.append(("wrap:" + k, {}, None,
                                 [conv(k, x) for x in v if isinstance(x, dict)]))
                elif isinstance(v, dict):
                    kids.append(conv(k, v))
                elif v is not None:
                    attrs[k] = str(v)
            return (tag, attrs, text, kids)
        return conv("roster", json.loads(data)["roster"])

    def conv_xml(e):
        tag = e.tag.split("}")[-1]
        kids = [conv_xml(c) for c in e]
        if tag in ("forces", "selections", "profiles", "characteristics", "costs"):
            return ("wrap:" + tag, {}, None, kids)
        return (tag, dict(e.attrib), e.text, kids)
    return conv_xml(ET.fromstring(data))


def under(node, wrap):
    for k in node[3]:
        if k[0] == "wrap:" + wrap:
            yield from k[3]


def expected_units(path):
    """The units as the issue defines them: selections typed unit or model
    that no such selection holds, in forces at any depth; models: the
    numbers of model-typed parts, else its own; points: pts over its tree;
    Move: its profiles' Move."""
    out = []

    def unit(s):
        models, points, moves = 0, None, []
        stack = [s]
        while stack:
            x = stack.pop()
            for c in under(x, "costs"):
                if c[1].get("name") == "pts":
                    points = (points or 0.0) + float(c[1]["value"])
            for p in under(x, "profiles"):
                for ch in under(p, "characteristics"):
                    if ch[1].get("name") == "Move":
                        moves.append((ch[2] or "").strip())
            for c in under(x, "selections"):
                if c[1].get("type") == "model":
                    models += int(float(c[1].get("number", "1")))
                stack.append(c)
        name = s[1].get("customName") or s[1]["name"]
        own = int(float(s[1].get("number", "1")))
        out.append((name, models or own, points, moves))

    def sels(n):
        for s in under(n, "selections"):
            if s[1].get("type") in ("unit", "model"):
                unit(s)
            else:
                sels(s)

    def forces(n):
        for f in under(n, "forces"):
            sels(f)
            forces(f)
    forces(load(path))
    return out


def check_aos4():
    for f in AOS4:
        path = os.path.join(DATA, f)
        rc, out, err = run(path, "--mapping", AOS4_MAP, "--quiet")
        if rc != 0:
            fail("%s: exit %d: %s" % (f, rc, err))
        got = rows(out)
        want = []
        for name, models, points, moves in expected_units(path):
            digits = [m for m in moves if any(ch.isdigit() for ch in m)]
            if not digits:
                continue  # no Move (a manifestation that does not move): left out, noted
            want.append((name, models, points, digits[0].rstrip('"')))
        have = [(r["name"], int(r["models"]), float(r["points"]) if r["points"] else None,
                 r["move"]) for r in got]
        if have != want:
            fail("%s: chargesim lists\n  %s\nthe file holds\n  %s" % (f, have, want))
        print("roster.py: %s: %d units, their models, points and Move as the file holds"
              % (f, len(have)))


# ---- 1. every real export opens ---------------------------------------------


def check_all_open():
    for f in AOS4 + OTHERS:
        path = os.path.join(DATA, f)
        rc, out, err = run(path, "--mapping", AOS4_MAP)
        if f in AOS4:
            if rc != 0 or len(rows(out)) == 0:
                fail("%s: no rows with the test mapping (exit %d): %s" % (f, rc, err))
        rc2, out2, err2 = run(path, "--mapping", MAPS)
        for code, text, e in ([(rc, out, err)] if f not in AOS4 else []) + [(rc2, out2, err2)]:
            lines = e.strip().splitlines()
            if code != 2 or text or len(lines) != 1 or "no mapping for game system" not in e \
                    or path not in e or "the mappings cover:" not in e:
                fail("%s: expected the game-system message, got exit %d: %r" % (f, code, e))
        print("roster.py: %s opens: %s" % (f, lines[0][len("chargesim units: "):][:110]))


# ---- 3. our own rosters ---------------------------------------------------------


def catalogue_rows(cat):
    rc, out, err = run(os.path.join(ROOT, cat), "--quiet", "--mapping", MAPS)
    if rc != 0:
        fail("%s: exit %d: %s" % (cat, rc, err))
    return {r["name"]: r for r in rows(out)}


SAME = ["reach_50", "reach_75", "reach_90", "plus1_speed"]


def check_own():
    stems = sorted({f.rsplit(".", 1)[0] for f in os.listdir(OWN) if f.endswith(".ros")})
    for stem in stems:
        outs = []
        for form in ("ros", "rosz", "json"):
            rc, out, err = run(os.path.join(OWN, stem + "." + form), "--mapping", MAPS)
            if rc != 0:
                fail("%s.%s: exit %d: %s" % (stem, form, rc, err))
            outs.append(out)
        if not (outs[0] == outs[1] == outs[2]):
            fail("%s: the three forms give different tables" % stem)
        print("roster.py: %s: .ros, .rosz and .json give the same %d bytes" % (stem, len(outs[0])))
    # The publishable table: its heading names the list, its game system and
    # points, the ruleset and the mapping.
    rc, out, err = run(os.path.join(OWN, "tow-bretonnia.json"), "--mapping", MAPS, "--format", "md")
    root = ET.parse(os.path.join(OWN, "tow-bretonnia.ros")).getroot()
    total = float(root.find("{*}costs/{*}cost").get("value"))
    head = out.splitlines()[0] if out else ""
    want = "### Charge odds per unit, list `The Grail Vow`, Warhammer The Old World, %g pts " \
           "(generic preset tow, mapping tow.ini; method exact" % total
    if rc != 0 or not head.startswith(want):
        fail("the md heading does not name the list, system, points, ruleset and mapping: %r"
             % head)
    print("roster.py: --format md: " + head[4:])
    # Each row against the catalogue's row for the same unit and mount (the
    # roster names units by their custom names; names, models and points
    # may differ).
    checks = [
        ("tow-bretonnia", "data/tow/Bretonnians.cat", {
            "Duke (on Royal Pegasus)": "Duke (on Royal Pegasus)",
            "Duke (on Royal Pegasus, flying)": "Duke (on Royal Pegasus, flying)",
            "The Lances of Couronne (on Bretonnian Warhorse)": "Mounted Knights of the Realm",
            "Paladin": "Paladin (on foot)",
            "Men-At-Arms": "Men-At-Arms",
            "Field Trebuchet": "Field Trebuchet",
            "Pegasus Knights (on Barded Pegasus)": "Pegasus Knights",
            "Pegasus Knights (on Barded Pegasus, flying)": "Pegasus Knights (flying)"}, {}),
        ("t9a-sonnstahl", "data/bsdata-t9a-2nd/2nd-empireOfSonnstahl.cat", {
            "Marshal": "Marshal", "The Reichsgarde": "Heavy Infantry",
            "Electoral Cavalry": "Electoral Cavalry"}, {}),
        ("asoiaf-stark", "data/bsdata-asoiaf/House_Stark.cat", {
            "The Greatjon's Own": "Stark Sworn Swords", "Stark Outriders": "Stark Outriders",
            "House Umber Berserkers": "House Umber Berserkers"}, {}),
        # Its flying row is at Fly (X), which Renegades do not change.
        ("tow-lizardmen-renegades", "data/tow/Lizardmen.cat", {
            "Slann Mage-Priests (flying)": "Slann Mage-Priests (flying)"},
         {"Slann Mage-Priests": ("Slann Mage-Priests", "M of `Slann Mage-Priest` is `4` in the "
                                 "roster, `2` in the catalogue")}),
    ]
    for stem, cat, same, changed in checks:
        cat_rows = catalogue_rows(cat)
        rc, out, err = run(os.path.join(OWN, stem + ".rosz"), "--mapping", MAPS,
                           "--catalogue", os.path.join(ROOT, cat))
        if rc != 0:
            fail("%s with its catalogue: exit %d: %s" % (stem, rc, err))
        got = {r["name"]: r for r in rows(out)}
        if set(got) != set(same) | set(changed):
            fail("%s: rows %s" % (stem, sorted(got)))
        for name, cname in same.items():
            r, c = got[name], cat_rows[cname]
            cols = SAME + [k for k in r if k.startswith(("p_", "mean_"))]
            cols += [k for k in ("type", "move", "swiftstride", "advance_rate", "speed", "hit",
                                 "attack_dice") if k in r]
            diff = [k for k in cols if r[k] != c[k]]
            if diff:
                fail("%s: `%s` differs from the catalogue's `%s` in %s" % (stem, name, cname, diff))
        for name, (cname, note) in changed.items():
            r, c = got[name], cat_rows[cname]
            if r["reach_75"] == c["reach_75"] or note not in err or "`%s`" % name not in err:
                fail("%s: `%s` should differ from the catalogue with a note: %s" % (stem, name, err))
        print("roster.py: %s: %d rows have the catalogue rows' reach and p_, %d differ with a note"
              % (stem, len(same), len(changed)))
    # The catalogue found beside the roster (its catalogueId), as a
    # catalogue finds its game system.
    with tempfile.TemporaryDirectory() as top:
        tmp = os.path.join(top, "tow")
        os.mkdir(tmp)
        for f in os.listdir(os.path.join(ROOT, "data/tow")):
            os.symlink(os.path.abspath(os.path.join(ROOT, "data/tow", f)), os.path.join(tmp, f))
        shutil.copy(os.path.join(OWN, "tow-lizardmen-renegades.json"), tmp)
        rc, out, err = run(os.path.join(tmp, "tow-lizardmen-renegades.json"), "--mapping", MAPS)
        if rc != 0 or "in the catalogue" not in err:
            fail("the catalogue beside a roster is not found: exit %d: %s" % (rc, err))
        print("roster.py: the catalogue beside a roster is found by its id")


# ---- 4. bad input --------------------------------------------------------------------


def zip_bytes(entries, flag=0):
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    raw = bytearray(b.getvalue())
    if flag:
        # Sets the flag in the local and the central header of the one entry.
        for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            i = raw.find(sig)
            f = struct.unpack_from("<H", raw, i + off)[0]
            struct.pack_into("<H", raw, i + off, f | flag)
    return bytes(raw)


def lying_zip(payload, claim):
    """One deflated entry whose central directory claims `claim` bytes."""
    raw = bytearray(zip_bytes([("a.ros", payload)]))
    i = raw.find(b"PK\x01\x02")
    struct.pack_into("<I", raw, i + 24, claim)
    return bytes(raw)


def check_bad():
    ros = open(os.path.join(OWN, "tow-bretonnia.ros"), "rb").read()
    js = open(os.path.join(OWN, "tow-bretonnia.json"), "rb").read()
    bomb = zip_bytes([("bomb.ros", b"\0" * (17 << 20))])
    cases = [
        ("empty.rosz", zip_bytes([]), "a zip with no entry"),
        ("two.rosz", zip_bytes([("a.ros", ros), ("b.ros", ros)]), "a zip with 2 entries"),
        ("locked.rosz", zip_bytes([("a.ros", ros)], flag=1), "the zip entry is encrypted"),
        ("bomb.rosz", bomb, "claims 17825792 bytes, more than the 16777216"),
        ("liar.rosz", lying_zip(b"\0" * (1 << 20), 1000), "inflates past the 1000 bytes it claims"),
        ("cut.rosz", zip_bytes([("a.ros", ros)])[:-30], "a zip without its central directory"),
        ("cut.ros", ros[: len(ros) // 2], "malformed XML"),
        ("cut.json", js[: len(js) // 2], "malformed JSON"),
        ("notaroster.json", b'{"list": []}', "not a roster"),
        ("bad.ros", b"<catalogue/>", "is not a roster's <roster>"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, want in cases:
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(data)
            before = sorted(os.listdir(tmp))
            rc, out, err = run(path, "--mapping", MAPS)
            lines = err.strip().splitlines()
            if rc != 2 or out or len(lines) != 1 or want not in err or path not in err:
                fail("%s: expected exit 2 and one message with `%s`, got exit %d: %r"
                     % (name, want, rc, err))
            if sorted(os.listdir(tmp)) != before:
                fail("%s: files appeared beside it: %s" % (name, sorted(os.listdir(tmp))))
            print("roster.py: %s: %s" % (name, lines[0][len("chargesim units: "):][:100]))


def main():
    check_all_open()
    check_aos4()
    check_own()
    check_bad()
    print("roster.py: all passed")


if __name__ == "__main__":
    main()
