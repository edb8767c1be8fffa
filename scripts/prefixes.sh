#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make headers, second half: every exported name names its file (issue 51,
# point 5). An object's exported symbols (nm -g --defined-only, as
# scripts/layers.sh reads them) that start cs_ must, for src/X/STEM.c, be
#     cs_STEM, or cs_STEM_...                  (output_x.c: cs_output_x_open)
#     cs_FAMILY_... where STEM begins FAMILY_  (units_cond.c: cs_units_...,
#                                               geom_dist.c: cs_geom_...)
# or be kept by a row of the table under "## Exported names" in
# docs/ARCHITECTURE.md:
#     | file | prefixes kept | why |
# where file is a path from the root (src/core/dice.c) or a folder ending in
# / (src/cli/: every file under it), and prefixes kept is a comma-separated
# list of `cs_x_` (every name it begins) or `cs_name` (that name alone).
# Prints each violation as
#     src/X/STEM.c: cs_NAME is not cs_STEM_..., a family STEM begins, or kept in docs/ARCHITECTURE.md
#     docs/ARCHITECTURE.md: Exported names: src/x.c keeps cs_y_, which no name of it needs
#     docs/ARCHITECTURE.md: Exported names: src/x.c is no file or folder
# and exits 1 if there is any. A row whose files none of the objects given
# is checked only for its path, so a run on a few objects (tests) does not
# call the others' rows stale. Usage: scripts/prefixes.sh ROOT [OBJECT...]
# (make headers gives every object of the build; none: nothing to read).
set -eu

root=$1
shift
cd "$root"
doc=docs/ARCHITECTURE.md
[ "$#" -gt 0 ] || { echo "prefixes: no objects given, no exported name read"; exit 0; }
[ -f "$doc" ] || { echo "prefixes: $doc: no such file"; exit 1; }
for o in "$@"; do
    [ -f "$o" ] || { echo "prefixes: $o: no such object (build it first)"; exit 1; }
done

{
    # The table's rows: "R file entry" for each prefix kept.
    awk '
        /^## / { inside = ($0 == "## Exported names"); next }
        inside && /^\|/ {
            n = split($0, c, "|")
            if (n < 4) next
            f = c[2]; gsub(/[` ]/, "", f)
            if (f == "file" || f ~ /^-+$/ || f ~ /^:?-+:?$/) next
            k = split(c[3], p, ",")
            for (i = 1; i <= k; i++) { e = p[i]; gsub(/[` ]/, "", e); if (e != "") print "R", f, e }
        }' "$doc"
    for o in "$@"; do
        f=$(printf '%s\n' "$o" | sed 's,^.*/src/,src/,; s,\.o$,.c,')
        nm -g --defined-only "$o" | awk -v f="$f" 'NF >= 3 && $3 ~ /^cs_/ { print "S", f, $3 }'
    done
} | awk -v doc="$doc" '
function covers(row, file) {
    return row == file || (row ~ /\/$/ && index(file, row) == 1)
}
function own(file, sym,    stem, n, parts, fam, i) {
    stem = file; sub(/.*\//, "", stem); sub(/\.c$/, "", stem)
    if (sym == "cs_" stem || index(sym, "cs_" stem "_") == 1) return 1
    n = split(stem, parts, "_"); fam = ""
    for (i = 1; i < n; i++) {
        fam = fam (i > 1 ? "_" : "") parts[i]
        if (index(sym, "cs_" fam "_") == 1) return 1
    }
    return 0
}
$1 == "R" { nr++; rfile[nr] = $2; rent[nr] = $3; next }
$1 == "S" {
    file = $2; sym = $3
    for (i = 1; i <= nr; i++) if (covers(rfile[i], file)) given[i] = 1
    if (own(file, sym)) next
    kept = 0
    for (i = 1; i <= nr; i++) {
        if (!covers(rfile[i], file)) continue
        e = rent[i]
        if (sym == e || (e ~ /_$/ && index(sym, e) == 1)) { used[i] = 1; kept = 1 }
    }
    if (!kept) {
        print file ": " sym " is not cs_STEM_..., a family STEM begins, or kept in " doc
        bad = 1
    }
}
END {
    for (i = 1; i <= nr; i++) {
        f = rfile[i]
        if (system("test -e \"" f "\"") != 0) {
            print doc ": Exported names: " f " is no file or folder"; bad = 1
        } else if (given[i] && !used[i]) {
            print doc ": Exported names: " f " keeps " rent[i] ", which no name of it needs"; bad = 1
        }
    }
    if (bad) {
        print "prefixes: an exported name names its file or its family; docs/ARCHITECTURE.md, " \
              "Exported names, lists the rest with why"
        exit 1
    }
    print "prefixes: every exported name names its file, its family or a kept exception"
}'
