#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The web edition's data (make web, issue 44): each catalogue folder of
data/ gzipped into the site, with an index the page reads to fetch only
what an army needs.

Usage: scripts/web-data.py OUTDIR DATADIR...

OUTDIR/<folder>/<file>.gz   each .cat and .gst of DATADIR, gzipped (no
                            name, no time: the same bytes every build)
OUTDIR/<folder>/README.md   the data's source and terms, as data/ has them
OUTDIR/mappings/<name>.ini.gz  experiments/mappings/*.ini
OUTDIR/index.json           {"games": [{"folder": "tow", "name": the game
                            system's name, "armies": [{"key": "Bretonnians",
                            "name": the catalogue's name, "id": its id
                            (a dropped roster's catalogueId names it),
                            "files": [repository
                            paths the army needs: itself, the catalogues it
                            links, their links in turn, and its game
                            system]}]}], "mappings": [repository paths],
                            "bytes": {repository path: its .gz's size}, so
                            that the page says what saving every army for
                            offline use costs (issue 52)}

An army is a catalogue that is not a library (library="true"). Which files
an army needs is found as the units reader finds them (src/io/units_source.c):
the game system whose id is the catalogue's gameSystemId, and each
catalogue beside it whose id a catalogueLink's targetId names, from every
catalogue opened."""

import glob
import gzip
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET


def local(tag):
    return tag.rsplit("}", 1)[-1]


def read(path):
    """(root id, root name, gameSystemId, is library, linked ids) of a file."""
    root = ET.parse(path).getroot()
    links = []
    for child in root:
        if local(child.tag) == "catalogueLinks":
            links += [l.get("targetId") for l in child if local(l.tag) == "catalogueLink"]
    return (root.get("id"), root.get("name"), root.get("gameSystemId"),
            root.get("library") == "true", links)


SIZES = {}  # repository path -> bytes of its .gz


def gz(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(src, "rb") as f:
        data = f.read()
    with open(dst, "wb") as out:
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as z:
            z.write(data)
    SIZES[src] = os.path.getsize(dst)


def game(outdir, folder):
    files = sorted(glob.glob(os.path.join(folder, "*.cat")) + glob.glob(os.path.join(folder, "*.gst")))
    info = {f: read(f) for f in files}
    by_id = {}
    for f in files:
        by_id.setdefault(info[f][0], f)
    systems = [f for f in files if f.endswith(".gst")]
    armies = []
    for f in files:
        fid, name, system, library, _ = info[f]
        if not f.endswith(".cat") or library:
            continue
        need, todo = [f], [f]
        while todo:
            for target in info[todo.pop(0)][4]:
                t = by_id.get(target)
                if t and t not in need:
                    need.append(t)
                    todo.append(t)
        need += [s for s in systems if info[s][0] == system]
        armies.append({"key": os.path.basename(f)[:-4], "name": name, "id": fid,
                       "files": need})
    for f in files:
        gz(f, os.path.join(outdir, os.path.basename(folder), os.path.basename(f) + ".gz"))
    # The data's own terms and source stay beside it.
    readme = os.path.join(folder, "README.md")
    if os.path.exists(readme):
        shutil.copyfile(readme, os.path.join(outdir, os.path.basename(folder), "README.md"))
    armies.sort(key=lambda a: a["name"].lower())
    names = [info[s][1] for s in systems]
    return {"folder": os.path.basename(folder), "name": names[0] if names else folder,
            "armies": armies}


def main():
    outdir, folders = sys.argv[1], sys.argv[2:]
    games = [game(outdir, f.rstrip("/")) for f in folders]
    mappings = sorted(glob.glob("experiments/mappings/*.ini"))
    for m in mappings:
        gz(m, os.path.join(outdir, "mappings", os.path.basename(m) + ".gz"))
    with open(os.path.join(outdir, "index.json"), "w") as f:
        json.dump({"games": games, "mappings": mappings, "bytes": SIZES}, f, indent=1,
                  sort_keys=True)
        f.write("\n")


main()
