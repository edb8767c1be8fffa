#!/usr/bin/python3
"""Builds the project's own rosters (issue 46) from the catalogues in data/,
as a list tool would export them: no public roster of The Old World, The
Ninth Age or A Song of Ice and Fire exists. Run from the repository root:

    /usr/bin/python3 tests/data/rosters/own/make_rosters.py

Each list is written in the three forms the tools export, with the elements
and attributes of the real exports in tests/data/rosters (BattleScribe's
roster schema, New Recruit's extra attributes `from` and `group`):
  NAME.ros   XML
  NAME.rosz  a zip of NAME.ros whose entry has a data descriptor (general
             purpose flag 0x808, sizes 0 in the local header), as
             BattleScribe writes it
  NAME.json  New Recruit's JSON: wrapper elements as arrays, attributes as
             members (number, cost values and revisions as numbers), a
             characteristic's text under "$text"

A selection is built from its catalogue entry as the list tool builds it:
the entry's profiles (its own, those its info links and info groups name),
its rules, its categories, its costs (a link's cost replacing its entry's)
times its number, and its children: those picked, and every entry the entry
must take (a `min` constraint on selections in scope parent), with their
minimum count times the parent's. A profile's name gets what the
unconditional `append` modifiers of its info link append (The Old World's
"Fly" + "(10)"); other modifiers are applied only where a list names one
(`modify`): this script is not a list tool, and says so.
The files are deterministic: ids are hashes of the selection's path.
"""
import copy
import hashlib
import io
import json
import os
import sys
import xml.etree.ElementTree as ET
import zipfile

NS = "http://www.battlescribe.net/schema/rosterSchema"
HERE = os.path.dirname(os.path.abspath(__file__))


def loc(tag):
    return tag.split("}")[-1]


def kids(e, name):
    return [c for c in e if loc(c.tag) == name]


def under(e, wrap, name):
    out = []
    for w in kids(e, wrap):
        out += kids(w, name)
    return out


def rid(*parts):
    """A New Recruit-looking id (lower-case base 36) from a path."""
    h = int(hashlib.sha1("/".join(parts).encode()).hexdigest(), 16)
    s = ""
    while len(s) < 17:
        h, d = divmod(h, 36)
        s += "0123456789abcdefghijklmnopqrstuvwxyz"[d]
    return s


class Data:
    """A catalogue, the catalogues it links and its game system, by id."""

    def __init__(self, cat):
        folder = os.path.dirname(cat)
        self.root = ET.parse(cat).getroot()
        self.docs = [self.root]
        roots = {}
        for f in sorted(os.listdir(folder)):
            if f.endswith((".cat", ".gst")):
                roots[ET.parse(os.path.join(folder, f)).getroot().get("id")] = f
        for link in under(self.root, "catalogueLinks", "catalogueLink"):
            self.docs.append(ET.parse(os.path.join(folder, roots[link.get("targetId")])).getroot())
        self.gst = ET.parse(os.path.join(folder, roots[self.root.get("gameSystemId")])).getroot()
        self.docs.append(self.gst)
        self.ids = {}
        for d in self.docs:
            for e in d.iter():
                if e.get("id"):
                    self.ids.setdefault(e.get("id"), e)

    def target(self, link):
        return self.ids[link.get("targetId")]


def min_count(*holders):
    for h in holders:
        if h is None:
            continue
        for k in under(h, "constraints", "constraint"):
            if (k.get("type"), k.get("field"), k.get("scope")) == ("min", "selections", "parent"):
                return int(float(k.get("value")))
    return 0


def children(data, e):
    """An entry's child choices: (node, entry, group) for entries and links,
    those in groups (and groups linked) with their group."""
    out = []

    def add(holder, group):
        for c in list(holder):
            t = loc(c.tag)
            if t in ("selectionEntries", "entryLinks", "selectionEntryGroups"):
                for n in c:
                    nt = loc(n.tag)
                    if nt == "selectionEntry":
                        out.append((n, n, group))
                    elif nt == "entryLink":
                        tgt = data.target(n)
                        if loc(tgt.tag) == "selectionEntryGroup":
                            add(tgt, (n, tgt))
                        else:
                            out.append((n, tgt, group))
                    elif nt == "selectionEntryGroup":
                        add(n, (None, n))

    add(e, None)
    return out


def shown_name(profile, link):
    """A profile's name as the list tool shows it: its own, then what each
    unconditional `append` modifier of the info link that brought it
    appends (The Old World: Fly + "(10)" is "Fly (10)")."""
    name = profile.get("name")
    for m in under(link, "modifiers", "modifier") if link is not None else []:
        if (m.get("type"), m.get("field")) == ("append", "name") and \
                not [c for c in m if loc(c.tag) in ("conditions", "conditionGroups")]:
            name += " " + m.get("value")
    return name


def profiles_of(data, e):
    """(profile element, the name the list tool shows) of an entry."""
    out = []
    for p in under(e, "profiles", "profile"):
        out.append((p, p.get("name")))
    for l in under(e, "infoLinks", "infoLink"):
        # A link the catalogue hides (shown only under conditions: the
        # Errantry Crusade's Crusader's Zeal) is not in the lists built here.
        if l.get("hidden") == "true":
            continue
        if l.get("type") == "profile":
            t = data.target(l)
            out.append((t, shown_name(t, l)))
        elif l.get("type") == "infoGroup":
            out += profiles_of(data, data.target(l))
    for g in under(e, "infoGroups", "infoGroup"):
        out += profiles_of(data, g)
    return out


def rules_of(data, e):
    out = list(under(e, "rules", "rule"))
    for l in under(e, "infoLinks", "infoLink"):
        if l.get("type") == "rule":
            out.append(data.target(l))
    return out


def char_text(k):
    return k.get("value") if k.get("value") is not None else (k.text or "")


def profile_el(p, name, modify):
    out = ET.Element("profile", {
        "id": p.get("id"), "name": name, "hidden": "false",
        "typeId": p.get("typeId") or p.get("profileTypeId") or "",
        "typeName": p.get("typeName") or p.get("profileTypeName") or "",
        "from": "entry"})
    chars = ET.SubElement(out, "characteristics")
    for k in under(p, "characteristics", "characteristic"):
        c = ET.SubElement(chars, "characteristic", {
            "name": k.get("name"), "typeId": k.get("typeId") or k.get("characteristicTypeId")})
        c.text = modify.get((p.get("name"), k.get("name")), char_text(k))
    return out


def cost_values(data, node, entry):
    costs = {}
    for holder in (entry, node):  # a link's cost replaces its entry's
        for k in under(holder, "costs", "cost"):
            costs[k.get("name")] = (k.get("typeId") or k.get("costTypeId"), float(k.get("value")))
    return costs


def find_choice(data, e, name):
    for node, entry, group in children(data, e):
        if node.get("name") == name or entry.get("name") == name:
            return node, entry, group
    raise SystemExit("make_rosters: no option `%s` under `%s`" % (name, e.get("name")))


def selection(data, node, entry, group, spec, number, path):
    """The roster's <selection> for one chosen entry (node: the entry or its
    link), with its children."""
    name = entry.get("name")
    path = path + [name]
    eid = entry.get("id") if node is entry else node.get("id") + "::" + entry.get("id")
    attrs = {"id": rid(*path), "name": name, "entryId": eid}
    if group is not None:
        gl, g = group
        attrs["entryGroupId"] = g.get("id") if gl is None else gl.get("id") + "::" + g.get("id")
    if spec.get("custom"):
        attrs["customName"] = spec["custom"]
    attrs["number"] = str(number)
    attrs["type"] = entry.get("type")
    attrs["from"] = "group" if group is not None else "entry"
    if group is not None:
        attrs["group"] = group[1].get("name")
    s = ET.Element("selection", attrs)
    rules = rules_of(data, entry)
    if rules:
        rs = ET.SubElement(s, "rules")
        for r in rules:
            el = ET.SubElement(rs, "rule", {"id": r.get("id"), "name": r.get("name"),
                                            "hidden": "false"})
            d = r.find("{*}description")
            ET.SubElement(el, "description").text = d.text if d is not None else ""
    profs = profiles_of(data, entry)
    if profs:
        ps = ET.SubElement(s, "profiles")
        for p, shown in profs:
            ps.append(profile_el(p, shown, spec.get("modify", {})))
    picks = {p["name"]: p for p in spec.get("picks", [])}
    chosen = []
    for c_node, c_entry, c_group in children(data, entry):
        n = min_count(c_node, c_entry) if c_group is None else 0
        if c_group is not None and min_count(c_group[0], c_group[1]) >= 1:
            default = c_group[1].get("defaultSelectionEntryId")
            if default in (c_node.get("id"), c_entry.get("id")):
                n = 1
        p = picks.pop(c_node.get("name"), None) or picks.pop(c_entry.get("name"), None)
        if p is not None:
            n = p.get("number", max(n, 1))
        if n > 0:
            chosen.append((c_node, c_entry, c_group, p or {}, n * (1 if p and "number" in p else number)))
    if picks:
        raise SystemExit("make_rosters: no option %s under `%s`" % (sorted(picks), name))
    if chosen:
        sels = ET.SubElement(s, "selections")
        for c_node, c_entry, c_group, p, n in chosen:
            sels.append(selection(data, c_node, c_entry, c_group, p, n, path))
    costs = cost_values(data, node, entry)
    cs = ET.SubElement(s, "costs")
    for cname, (tid, v) in sorted(costs.items()):
        ET.SubElement(cs, "cost", {"name": cname, "typeId": tid, "value": "%g" % (v * number)})
    # The categories the choice is filed under: its link's, then its entry's.
    cats = (under(node, "categoryLinks", "categoryLink") if node is not entry else []) + \
        under(entry, "categoryLinks", "categoryLink")
    if cats:
        ce = ET.SubElement(s, "categories")
        for k in cats:
            ET.SubElement(ce, "category", {"id": rid(*path, k.get("id")), "name": k.get("name"),
                                          "entryId": k.get("targetId"),
                                          "primary": k.get("primary") or "false"})
    return s


def root_entry(data, name, types=("unit", "model")):
    """A unit by name (the catalogue first, then what it links, then the
    game system); `types` widens it (a force-level upgrade)."""
    for d in data.docs:
        for e in d.iter():
            if loc(e.tag) in ("selectionEntry", "entryLink") and e.get("name") == name:
                if loc(e.tag) == "entryLink":
                    return e, data.target(e)
                if e.get("type") in types:
                    return e, e
    raise SystemExit("make_rosters: no unit `%s` in %s" % (name, data.root.get("name")))


def total(el, cname):
    return sum(float(k.get("value")) for k in el.iter()
               if loc(k.tag) == "cost" and k.get("name") == cname)


def roster(cat, list_name, units, cost, limit):
    data = Data(cat)
    gst, croot = data.gst, data.root
    r = ET.Element("roster", {
        "id": rid(list_name), "name": list_name, "battleScribeVersion": "2.03",
        "generatedBy": "https://newrecruit.eu", "gameSystemId": gst.get("id"),
        "gameSystemName": gst.get("name"), "gameSystemRevision": gst.get("revision"),
        "xmlns": NS})
    points_placeholder = ET.SubElement(r, "costs")
    lims = ET.SubElement(r, "costLimits")
    force = ET.SubElement(ET.SubElement(r, "forces"), "force", {
        "id": rid(list_name, "force"), "name": "Army", "entryId": rid(list_name, "forceEntry"),
        "catalogueId": croot.get("id"), "catalogueRevision": croot.get("revision"),
        "catalogueName": croot.get("name")})
    sels = ET.SubElement(force, "selections")
    for spec in units:
        node, entry = root_entry(data, spec["name"], spec.get("types", ("unit", "model")))
        sels.append(selection(data, node, entry, None, spec, spec.get("number", 1), [list_name]))
    points = total(force, cost)
    tid = next(k.get("typeId") for k in force.iter() if loc(k.tag) == "cost" and k.get("name") == cost)
    ET.SubElement(points_placeholder, "cost", {"name": cost, "typeId": tid, "value": "%g" % points})
    fc = ET.SubElement(force, "costs")
    ET.SubElement(fc, "cost", {"name": cost, "typeId": tid, "value": "%g" % points})
    ET.SubElement(lims, "costLimit", {"name": cost, "typeId": tid, "value": "%g" % limit})
    return r


NUMERIC = {"number", "value", "gameSystemRevision", "catalogueRevision", "battleScribeVersion"}


def to_json(el):
    """New Recruit's JSON of an element: wrapper children as arrays first,
    then the attributes, then "$text"."""
    out = {}
    for c in el:
        out[loc(c.tag)] = [to_json(g) for g in c]
    for k, v in el.attrib.items():
        if k in NUMERIC:
            f = float(v)
            out[k] = int(f) if f == int(f) and k != "battleScribeVersion" else f
        elif v in ("true", "false") and k in ("hidden", "primary"):
            out[k] = v == "true"
        else:
            out[k] = v
    if el.text and el.text.strip() and len(el) == 0:
        out["$text"] = el.text
    return out


class Unseekable:
    """A stream zipfile cannot seek: it then writes a data descriptor."""

    def __init__(self):
        self.buf = io.BytesIO()

    def write(self, b):
        return self.buf.write(b)

    def flush(self):
        pass


def write_all(stem, r):
    ET.indent(r)
    xml = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + ET.tostring(r, "utf-8")
    # ElementTree names the namespace attribute as given: keep it literal.
    with open(stem + ".ros", "wb") as f:
        f.write(xml + b"\n")
    out = Unseekable()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(os.path.basename(stem) + ".ros", (2026, 11, 27, 12, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w") as w:
            w.write(xml + b"\n")
    with open(stem + ".rosz", "wb") as f:
        f.write(out.buf.getvalue())
    with open(stem + ".json", "w", encoding="utf-8") as f:
        json.dump({"roster": to_json(r)}, f, ensure_ascii=False, indent=1)
        f.write("\n")


LISTS = [
    ("tow-bretonnia", "data/tow/Bretonnians.cat", "The Grail Vow", "pts", 2000, [
        {"name": "Duke", "picks": [
            {"name": "Duke", "picks": [{"name": "Lance"}, {"name": "Shield"},
                                       {"name": "Royal Pegasus"}]}]},
        {"name": "Mounted Knights of the Realm", "custom": "The Lances of Couronne", "picks": [
            {"name": "Mounted Knight of the Realm", "number": 6,
             "picks": [{"name": "The Knight's Vow", "number": 6}]},
            {"name": "Standard Bearer", "number": 1}]},
        {"name": "Paladin", "picks": [
            {"name": "Paladin", "picks": [{"name": "Flying Carpet"}]}]},
        {"name": "Men-At-Arms", "picks": [{"name": "Man-At-Arms", "number": 20}]},
        {"name": "Field Trebuchet"},
        {"name": "Pegasus Knights", "picks": [
            {"name": "Pegasus Knight", "number": 3,
             "picks": [{"name": "The Knight's Vow", "number": 3}]}]},
    ]),
    # The data's one option that changes M: a Slann's M is 4, not 2, in a
    # force with Renegades (Lizardmen.cat, a modifier of its profile link),
    # applied here as a list tool applies it.
    ("tow-lizardmen-renegades", "data/tow/Lizardmen.cat", "Renegade Slann", "pts", 1000, [
        {"name": "Renegades (Square Based)", "types": ("upgrade",)},
        {"name": "Slann Mage-Priests", "picks": [
            {"name": "Slann Mage-Priest", "modify": {("Slann Mage-Priest", "M"): "4"}}]},
    ]),
    ("t9a-sonnstahl", "data/bsdata-t9a-2nd/2nd-empireOfSonnstahl.cat", "Sunna's Shield", "pts",
     2000, [
        {"name": "Marshal"},
        {"name": "Heavy Infantry", "custom": "The Reichsgarde", "picks": [
            {"name": "Heavy Infantry", "number": 25}]},
        {"name": "Electoral Cavalry", "picks": [{"name": "Knight", "number": 6}]},
    ]),
    ("asoiaf-stark", "data/bsdata-asoiaf/House_Stark.cat", "Winterfell Levies", " Points", 40, [
        {"name": "Stark Sworn Swords", "custom": "The Greatjon's Own"},
        {"name": "Stark Outriders"},
        {"name": "House Umber Berserkers"},
    ]),
]


def main():
    root = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
    os.chdir(root)
    for stem, cat, name, cost, limit, units in LISTS:
        write_all(os.path.join(HERE, stem), roster(cat, name, units, cost, limit))
        print("wrote", os.path.relpath(os.path.join(HERE, stem)) + ".{ros,rosz,json}")


if __name__ == "__main__":
    sys.exit(main())
