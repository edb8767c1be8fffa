#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make headers: every header says where its code lives (issue 33, point 4).
# A function or object a header include/chargesim/X.h declares is defined
# in src/<layer>/X.c (Lua's rule: one header per file), or in a file whose
# name the header's text gives (a header shared by several files, such as
# estimator.h, says which holds what). Prints each violation as
#   include/chargesim/X.h: NAME is defined in src/.../F.c, which it does not name
#   include/chargesim/X.h: NAME is declared but defined nowhere under src/
# and exits 1 if there is any. Usage: scripts/headers.sh [ROOT] (default:
# the repository this script sits in).
#
# What counts, read as text: a definition is a line of a .c under src/ that
# starts at its first column, is not static, a typedef or a declaration (no
# closing ';'), and names cs_NAME( or cs_NAME = ; a declaration is a line
# of a header that starts at its first column and names cs_NAME( (not
# static inline, a typedef or a macro), or an extern object cs_NAME;.
set -eu

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

{
    find src -name '*.c' | sort | while read -r f; do
        awk -v f="$f" '
            /^[A-Za-z]/ && !/^static/ && !/^typedef/ && !/;[[:space:]]*$/ {
                if (match($0, /cs_[a-z0-9_]+\(/)) print "D", substr($0, RSTART, RLENGTH - 1), f
                else if (match($0, /cs_[a-z0-9_]+ = /)) print "D", substr($0, RSTART, RLENGTH - 3), f
            }' "$f"
    done
    find include/chargesim -name '*.h' | sort | while read -r h; do
        awk -v h="$h" '
            /^[A-Za-z]/ && !/^static/ && !/^typedef/ {
                if (match($0, /cs_[a-z0-9_]+\(/)) print "H", substr($0, RSTART, RLENGTH - 1), h
                else if (/^extern/ && match($0, /cs_[a-z0-9_]+;/)) print "H", substr($0, RSTART, RLENGTH - 1), h
            }' "$h"
    done
} | sort -s -k1,1 | awk '
function base(p) { sub(/.*\//, "", p); return p }
$1 == "D" { def[$2] = $3; next }
$1 == "H" {
    h = $3; name = $2
    if (!(name in def)) { print h ": " name " is declared but defined nowhere under src/"; bad = 1; next }
    f = def[name]; own = base(h); sub(/\.h$/, ".c", own)
    if (base(f) == own) next
    if (!(h in text)) {
        text[h] = ""
        while ((getline line < h) > 0) text[h] = text[h] "\n" line
        close(h)
    }
    if (index(text[h], base(f))) next
    print h ": " name " is defined in " f ", which it does not name"; bad = 1
}
END {
    if (bad) { print "headers: a header names the files its code lives in, unless it is its own .c"; exit 1 }
    print "headers: every header holds its own .c or names the files its code lives in"
}'
