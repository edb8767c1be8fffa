#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/sizes.sh: the house's size limits (docs/ARCHITECTURE.md, House rules; issue 16), checked by
# `make check`: no file under src/ or include/ over 900 lines, no function
# over 100 lines. A function is what this code base writes as one: a line at
# column 0 that opens its body with `{` alone, to the `}` alone at column 0.
# Prints each excess as file:line: what, and fails.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
find src include -name '*.[ch]' | sort | xargs awk -v maxfile=900 -v maxfn=100 '
    FNR == 1 { if (prev != "" && lines > maxfile) { printf "%s: %d lines (at most %d)\n", prev, lines, maxfile; bad = 1 }
               prev = FILENAME; infn = 0 }
    { lines = FNR }
    /^\{$/ { infn = 1; start = FNR; name = last }
    /^\}/ && infn { n = FNR - start + 1; infn = 0
                    if (n > maxfn) { printf "%s:%d: %s is %d lines (at most %d)\n", FILENAME, start, name, n, maxfn; bad = 1 } }
    /^[A-Za-z_].*\(/ { last = $0; sub(/\(.*/, "", last); sub(/.*[ *]/, "", last) }
    END { if (lines > maxfile) { printf "%s: %d lines (at most %d)\n", prev, lines, maxfile; bad = 1 }
          if (bad) { print "sizes: files or functions over the limits (docs/ARCHITECTURE.md, House rules)"; exit 1 }
          print "sizes: no file over 900 lines, no function over 100" }'
