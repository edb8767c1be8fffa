#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make layers: the shape of src/ (docs/ARCHITECTURE.md, "The intended shape"
# and "House rules"; issues 16 and 43), in two checks.
#
# 1. Includes. Every #include "chargesim/..." in src/ and include/ must
#    point down (or sideways) the layers
#        core < rules < sim < io:read < req < web < io:write < cli
#    sim is five floors, one a folder:
#        sim:model < sim:est < sim:sched < sim:runs < sim:tables
#    the experiment model, the estimators, the scheduler (with checkpoints),
#    what runs on it (compare, maps, replay, dice, units) and the tables.
#    io is two layers: its readers and builders (src/io/read/, src/io/units/:
#    input files, INI and experiment files, unit sources, mappings, the units
#    table in memory) and its writers (src/io/write/, src/io/draw/: the output
#    module, the table writers, CSVW, pictures). The web edition's layer, web
#    (src/web/, issue 31), stands beside cli: it may include core, rules, sim
#    and io's readers, never io's writers nor cli, and only web includes web.
#    A reader includes no writer, so a front end can read an experiment or a
#    catalogue and build its table without being able to write a file.
#    The request layer, req (src/req/, issue 51: request.h, the options of
#    each command, the table formatter), is the floor below both front
#    ends: it runs every command's steps on sim and io's readers and turns
#    a table into CSV, Markdown or LaTeX text in memory; the command line
#    and the page are mappings to and from it. io's writers keep only files.
#    Prints each violation as
#        file:line: X (layer) includes Y (layer)
# 2. Loops, when object files are given (make layers gives every object of
#    the build): for each object, `nm` lists the symbols it defines and the
#    ones it needs; a file calls another when it needs a symbol the other
#    defines. No files of src/ may call each other in a loop, directly or
#    through others. Prints each loop as
#        loop: src/X.c -> src/Y.c (cs_y_fn) -> src/X.c (cs_x_fn)
#    with every file of the loop's strongly connected set.
#
# Exits 1 if there is any violation. Usage:
#     scripts/layers.sh [ROOT [OBJECT...]]
# ROOT defaults to the repository this script sits in.
#
# The layer of a .c file is its folder, listed in FOLDERS below: a .c file
# in a folder not listed is an error. The layer of a header
# include/chargesim/X.h is the layer of the .c that implements it, src/**/X.c.
# A header without a .c of the same name must be listed in HEADERS below,
# with the files that implement it, so the whole mapping lives here; a header
# that is neither is an error, not a guess.
set -eu

# folder (under src/)  layer
FOLDERS='
core        core
rules       rules
sim/model   sim:model
sim/est     sim:est
sim/sched   sim:sched
sim/runs    sim:runs
sim/tables  sim:tables
io/read     io:read
io/units    io:read
io/write    io:write
io/draw     io:write
req         req
web         web
cli         cli
'

# header   layer   implemented by
HEADERS='
reach.h    core    header only: static inline cs_reaches, cs_reach_min_roll
geom.h     core    umbrella of the geom_*.h headers, src/core/geom_*.c
geom_vec.h core    header only: vector types and static inline helpers
result.h   sim:model header only: the types of the points and results of a run
estimator.h sim:est src/sim/est/est_registry.c, est_mc.c, est_cond.c, est_common.c, est_rqmc.c, est_pair.c
cli.h      cli     src/cli/common.c, args.c, ckptfile.c and the src/cli/cmd_*.c commands
unitsrc.h  io:read src/io/units/units_source.c, units_doc.c, units_resolve.c, units_csv.c, units_settle.c, units_ini.c, units_table.c
'

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[ $# -gt 0 ] && shift
objs_given=$#
cd "$root"

# Input to awk, one record per line: "F folder layer" and "H name layer" from
# the tables, "C path" for every .c, "E path" for every header; then the
# include lines as "I path:line:text" (grep -n output behind a tag).
status=0
{
    printf '%s\n' "$FOLDERS" | awk 'NF >= 2 { print "F", $1, $2 }'
    printf '%s\n' "$HEADERS" | awk 'NF >= 2 { print "H", $1, $2 }'
    find src -name '*.c' | LC_ALL=C sort | sed 's/^/C /'
    find include/chargesim -name '*.h' | LC_ALL=C sort | sed 's/^/E /'
    find src include -name '*.[ch]' | LC_ALL=C sort |
        xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"chargesim/' |
        sed 's/^/I /' || true
} | awk '
BEGIN {
    rank["core"] = 1; rank["rules"] = 2; rank["io:read"] = 4
    rank["sim:model"] = 3.1; rank["sim:est"] = 3.2; rank["sim:sched"] = 3.3
    rank["sim:runs"] = 3.4; rank["sim:tables"] = 3.5
    rank["req"] = 4.5; rank["web"] = 5; rank["io:write"] = 6; rank["cli"] = 7
    bad = 0
}
function base(p) { sub(/.*\//, "", p); return p }
function fail(msg) { print msg; bad = 1 }
$1 == "F" { folder[$2] = $3; next }
$1 == "H" { listed[$2] = $3; next }
$1 == "C" {
    dir = $2; sub(/^src\//, "", dir); sub(/\/[^\/]*$/, "", dir)
    if (!(dir in folder)) { fail($2 ": not in a folder of src/ that scripts/layers.sh " \
        "gives a layer (FOLDERS)"); next }
    layer = folder[dir]
    clayer[$2] = layer
    h = base($2); sub(/\.c$/, ".h", h)
    if ((h in impl) && impl[h] != layer)
        fail("include/chargesim/" h ": implemented in two layers (" impl[h] \
             " and " layer "); split the header")
    impl[h] = layer
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
        fail($2 ": no layer: no src/<folder>/" h " and not in HEADERS of scripts/layers.sh")
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
    if (rank[to] > rank[from] || (to == "web" && from != "web"))
        fail(file ":" line ": " base(file) " (" from ") includes " text " (" to ")")
    next
}
END {
    if (bad) { print "layers: includes must point down: core < rules < sim (model < est < sched " \
               "< runs < tables) < io:read < req < web < io:write < cli (web: never io:write nor cli)"; exit 1 }
    print "layers: every include points down (core < rules < sim (model < est < sched < runs " \
          "< tables) < io:read < req < web < io:write < cli)"
}' || status=1

[ "$objs_given" -gt 0 ] || exit "$status"

# Loops at object level. Records: "D symbol file" for each symbol an object
# defines, "U symbol file" for each it needs; the file is the object's
# source, its path from src/ on (build/src/sim/est/est_mc.o: src/sim/est/est_mc.c).
for o in "$@"; do
    [ -f "$o" ] || { echo "layers: $o: no such object (build it first)"; exit 1; }
    f=$(printf '%s\n' "$o" | sed 's,^.*/src/,src/,; s,\.o$,.c,')
    nm -g --defined-only "$o" | awk -v f="$f" 'NF >= 3 { print "D", $3, f }'
    nm -u "$o" | awk -v f="$f" 'NF >= 2 { print "U", $2, f }'
done | LC_ALL=C sort -s -k1,1 | awk '
$1 == "D" { if (!($2 in def)) def[$2] = $3; next }
$1 == "U" {
    if (!($2 in def) || def[$2] == $3) next
    e = $3 SUBSEP def[$2]
    if (!(e in edge)) { edge[e] = $2; nout[$3]++; out[$3, nout[$3]] = def[$2]; node[$3]; node[def[$2]] }
    next
}
# Breadth first from s; reach[s, t] for every t reached, and from[s, t]
# the file before t on a shortest path.
function walk(s,    head, tail, q, v, i, w) {
    head = 1; tail = 1; q[1] = s
    while (head <= tail) {
        v = q[head++]
        for (i = 1; i <= nout[v]; i++) {
            w = out[v, i]
            if ((s, w) in reach) continue
            reach[s, w] = 1; from[s, w] = v; q[++tail] = w
        }
    }
}
END {
    n = 0
    for (v in node) names[++n] = v
    # sorted, so the report is stable
    for (i = 2; i <= n; i++) { x = names[i]; for (j = i - 1; j >= 1 && names[j] > x; j--) names[j + 1] = names[j]; names[j + 1] = x }
    for (i = 1; i <= n; i++) walk(names[i])
    bad = 0
    for (i = 1; i <= n; i++) {
        s = names[i]
        if (!((s, s) in reach) || (s in done)) continue
        # the strongly connected set of s: every file s reaches that reaches s
        set = s; done[s] = 1
        for (j = 1; j <= n; j++) {
            t = names[j]
            if (t != s && ((s, t) in reach) && ((t, s) in reach)) { set = set ", " t; done[t] = 1 }
        }
        # one loop through s: the shortest path from s back to s
        path = s; t = s; k = 0
        do { p = from[s, t]; step[++k] = t; t = p } while (t != s && k < n)
        line = s
        for (j = k; j >= 1; j--) {
            a = (j == k) ? s : step[j + 1]
            line = line " -> " step[j] " (" edge[a, step[j]] ")"
        }
        print "loop: " line
        print "  the files that call each other: " set
        bad = 1
    }
    if (bad) { print "layers: files of src/ call each other in a loop (objects read with nm); " \
               "break it so the calls go one way"; exit 1 }
    print "layers: no files of src/ call each other in a loop (" n " files, objects read with nm)"
}' || status=1
exit "$status"
