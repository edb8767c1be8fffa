#!/bin/sh
# make layers: every #include "chargesim/..." in src/ and include/ must point
# down (or sideways) the layers core < rules < sim < io < cli
# (docs/ARCHITECTURE.md, "The intended shape" and "House rules"; issue 16).
# The web edition's layer, web (src/web/, issue 31), stands beside cli on
# sim: it may include core, rules and sim, and io's readers (the headers in
# IO_READERS below: experiment files, catalogues, units CSVs, mappings, the
# units table built in memory; issue 44), never io's writers (output, CSVW,
# table writers, pictures) nor cli, and only web includes web. Prints each violation as
#   file:line: X (layer) includes Y (layer)
# and exits 1 if there is any. Usage: scripts/layers.sh [ROOT] (default: the
# repository this script sits in).
#
# The layer of a .c file is its folder, src/<layer>/. The layer of a header
# include/chargesim/X.h is the layer of the .c that implements it, src/*/X.c.
# A header without a .c of the same name must be listed in HEADERS below,
# with the files that implement it, so the whole mapping lives here; a header
# that is neither is an error, not a guess.
set -eu

# header   layer   implemented by
HEADERS='
reach.h    core    header only: static inline cs_reaches, cs_reach_min_roll
geom.h     core    umbrella of the geom_*.h headers, src/core/geom_*.c
geom_vec.h core    header only: vector types and static inline helpers
estimator.h sim    src/sim/est_mc.c, est_cond.c, est_common.c, est_rqmc.c, est_pair.c
cli.h      cli     src/cli/common.c and the src/cli/cmd_*.c commands
unitsrc.h  io      src/io/units_source.c, units_resolve.c, units_csv.c, units_map.c, units_mapping.c, units_table.c
'

# io headers the web layer may include: readers, whose libraries are built
# for WebAssembly from Debian's sources (scripts/web-libs.sh).
IO_READERS='unitsrc.h infile.h inifile.h expfile.h'

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# Input to awk, one record per line: "H name layer" from the table, "C path"
# for every .c, "E path" for every header; then the include lines as
# "I path:line:text" (grep -n output behind a tag).
{
    printf '%s\n' "$HEADERS" | awk 'NF >= 2 { print "H", $1, $2 }'
    for h in $IO_READERS; do echo "R $h"; done
    find src -name '*.c' | sort | sed 's/^/C /'
    find include/chargesim -name '*.h' | sort | sed 's/^/E /'
    find src include -name '*.[ch]' | sort |
        xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"chargesim/' |
        sed 's/^/I /' || true
} | awk '
BEGIN {
    rank["core"] = 1; rank["rules"] = 2; rank["sim"] = 3; rank["io"] = 4; rank["cli"] = 5
    rank["web"] = 3.5   # on sim, below io: so io and cli are above it
    bad = 0
}
function base(p) { sub(/.*\//, "", p); return p }
function fail(msg) { print msg; bad = 1 }
$1 == "H" { listed[$2] = $3; next }
$1 == "R" { reader[$2] = 1; next }
$1 == "C" {
    n = split($2, part, "/")
    if (n != 3 || !(part[2] in rank)) { fail($2 ": not under src/<layer>/ (" \
        "core, rules, sim, io, cli, web)"); next }
    clayer[$2] = part[2]
    h = base($2); sub(/\.c$/, ".h", h)
    if ((h in impl) && impl[h] != part[2])
        fail("include/chargesim/" h ": implemented in two layers (" impl[h] \
             " and " part[2] "); split the header")
    impl[h] = part[2]
    next
}
$1 == "E" {
    h = base($2)
    if ((h in impl) && (h in listed))
        fail("scripts/layers.sh: " h " has a .c of its own; remove it from HEADERS")
    else if (h in impl) hlayer[h] = impl[h]
    else if (h in listed) {
        if (!(listed[h] in rank)) fail("scripts/layers.sh: " h ": unknown layer " listed[h])
        hlayer[h] = listed[h]
    } else
        fail($2 ": no layer: no src/<layer>/" h " and not in HEADERS of scripts/layers.sh")
    next
}
$1 == "I" {
    rec = substr($0, 3)
    i = index(rec, ":"); file = substr(rec, 1, i - 1); rest = substr(rec, i + 1)
    i = index(rest, ":"); line = substr(rest, 1, i - 1); text = substr(rest, i + 1)
    sub(/^[^"]*"chargesim\//, "", text); sub(/".*/, "", text)
    if (file ~ /\.c$/) from = clayer[file]; else from = hlayer[base(file)]
    if (from == "") next     # already reported above
    if (!(text in hlayer)) { fail(file ":" line ": " base(file) " includes " text \
                                  ", which is not a header under include/chargesim/"); next }
    to = hlayer[text]
    if (from == "web" && to == "io" && (text in reader)) next
    if (rank[to] > rank[from] || (to == "web" && from != "web"))
        fail(file ":" line ": " base(file) " (" from ") includes " text " (" to ")")
    next
}
END {
    if (bad) { print "layers: includes must point down: core < rules < sim < io < cli, " \
               "and web (beside cli) on sim with the io readers only"; exit 1 }
    print "layers: every include points down (core < rules < sim < io < cli; web on sim and the io readers)"
}'
