#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make archdoc: docs/ARCHITECTURE.md is the map of the tree (issue 29), so it
# must name every file under src/ and include/ by its path from the root
# (`src/io/write/output.c`), and name no file that does not exist. Checked by
# `make check`. A new file (src/web/..., a new sim module, a units stage)
# needs its row in the doc's "Every file" tables; a removed one loses it.
#
# What counts as naming:
# - a path from the root starting src/ or include/ anywhere in the doc. It
#   must exist (a folder when it ends in /); a glob such as src/core/geom*.c
#   names nothing and is reported, since it cannot say which files it means;
# - a bare file name (`sched.c`, `reach.h`), which must be the name of a file
#   under src/, include/, tests/ or scripts/ (a system header written as
#   <stdio.h> is not one of ours and is not checked).
# scripts/layers.sh, whose table names the files implementing each header,
# is held to the second half too: it names no file that does not exist.
#
# Prints what is missing from and extra in the doc, one file a line, and
# exits 1 if anything is. Usage: scripts/archdoc.sh [ROOT] (default: the
# repository this script sits in).
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
doc=docs/ARCHITECTURE.md
[ -f "$doc" ] || { echo "archdoc: $doc: no such file"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-archdoc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

find src include -type f | LC_ALL=C sort >"$tmp/tree"
find src include tests scripts -type f | sed 's,.*/,,' | LC_ALL=C sort -u >"$tmp/names"

# Every path from the root the doc writes, with its line: "path line".
# A path stops at the first character a file name here never holds.
paths_in() {
    awk '{
        s = $0
        while (match(s, /(^|[^A-Za-z0-9_.\/-])(src|include)\/[A-Za-z0-9_.\/*-]*/)) {
            p = substr(s, RSTART, RLENGTH); sub(/^[^si]/, "", p); sub(/[.]+$/, "", p)
            print p, NR
            s = substr(s, RSTART + RLENGTH)
        }
    }' "$1"
}

# Every bare file name ending .c or .h (no slash before it, not <x.h>).
names_in() {
    awk '{
        s = $0
        while (match(s, /(^|[^A-Za-z0-9_.\/*<-])[A-Za-z0-9_]+\.[ch]([^A-Za-z0-9_]|$)/)) {
            p = substr(s, RSTART, RLENGTH)
            sub(/^[^A-Za-z0-9_]/, "", p); sub(/[^A-Za-z0-9_]$/, "", p)
            print p, NR
            s = substr(s, RSTART + RLENGTH - 1)
        }
    }' "$1"
}

bad=0
paths_in "$doc" >"$tmp/paths"
awk '{ print $1 }' "$tmp/paths" | LC_ALL=C sort -u >"$tmp/named"

# Missing: files of the tree the doc never names.
LC_ALL=C comm -23 "$tmp/tree" "$tmp/named" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
    echo "$doc: missing: these files under src/ and include/ are not named (add a row to \"Every file\"):"
    sed 's/^/  /' "$tmp/missing"
    bad=1
fi

# Extra: paths the doc names that do not exist (folders end in /).
: >"$tmp/extra"
while read -r p line; do
    case $p in
        */) [ -d "$p" ] || echo "  $p (line $line)" >>"$tmp/extra" ;;
        *) [ -f "$p" ] || echo "  $p (line $line)" >>"$tmp/extra" ;;
    esac
done <"$tmp/paths"
for f in "$doc" scripts/layers.sh; do
    names_in "$f" | while read -r n line; do
        grep -qxF "$n" "$tmp/names" || echo "  $n ($f line $line)"
    done
done >>"$tmp/extra"
if [ -s "$tmp/extra" ]; then
    echo "$doc: extra: these names are not files of the tree (remove them or fix the path):"
    cat "$tmp/extra"
    bad=1
fi

# Comments name files too: every path from the root that a file under src/
# or include/ writes (src/..., include/..., tests/..., scripts/..., docs/...,
# experiments/..., data/..., web/...) must exist (issue 51: paths left from
# before a move mislead). A pattern (a `*`) or a placeholder in capitals
# (experiments/mappings/NAME.ini, src/cli/cmd_NAME.c) names no one file and
# is passed over.
find src include -type f | LC_ALL=C sort | while read -r f; do
    awk -v f="$f" '{
        s = $0
        while (match(s, /(^|[^A-Za-z0-9_.\/-])(src|include|tests|scripts|docs|experiments|data|web)\/[A-Za-z0-9_.\/*-]*[A-Za-z0-9_*\/]/)) {
            p = substr(s, RSTART, RLENGTH); sub(/^[^a-z]/, "", p)
            print p, f ":" NR
            s = substr(s, RSTART + RLENGTH)
        }
    }' "$f"
done | while read -r p where; do
    case $p in *'*'*) continue ;; esac
    printf '%s\n' "$p" | grep -q '[A-Z][A-Z]' && continue
    [ -e "${p%/}" ] || echo "  $p ($where)"
done >"$tmp/stale"
if [ -s "$tmp/stale" ]; then
    echo "archdoc: comments name paths that do not exist (fix the path):"
    cat "$tmp/stale"
    bad=1
fi

if [ "$bad" -ne 0 ]; then
    echo "archdoc: docs/ARCHITECTURE.md must name every file under src/ and include/, and only files that exist; comments only paths that exist"
    exit 1
fi
echo "archdoc: docs/ARCHITECTURE.md names every file under src/ and include/ ($(wc -l <"$tmp/tree" | tr -d ' ')), and only files that exist; every path a comment names exists"
