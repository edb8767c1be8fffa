#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make testmap: tests/README.md maps every module to its tests (issue 51),
# so a newcomer finds the test of src/x/foo.c without searching, and the map
# cannot go stale. Checked by `make check`:
#   - every .c file under src/ has one row `| \`src/x/foo.c\` | ... |` in the
#     README's tables, and every row names a file that exists;
#   - a row names at least one test, and every test it names exists: a bare
#     test_NAME.c is tests/test_NAME.c, any other test is a path from the
#     root (tests/mpi.sh, tests/web/test_units.py);
#   - each suite named in parentheses after a test_NAME.c, `test_dice.c
#     (dice_parse, dice_exact)`, is a suite of that file: the first argument
#     of one of its Test(...) or TestSuite(...);
#   - every tests/test_*.c (but test_support.c, which only compiles the
#     helpers in) is named in some row.
# Prints each fault, one a line, and exits 1 if there is any.
# Usage: scripts/testmap.sh [ROOT] (default: the repository this script sits in).
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
doc=tests/README.md
[ -f "$doc" ] || { echo "testmap: $doc: no such file"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-testmap.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The table rows: "module<TAB>tests cell" for a module row, and every row's
# cells for the names of tests.
grep -E '^\|' "$doc" >"$tmp/rows" || true
sed -nE 's/^\| *`(src\/[^`]+)` *\| *(.*[^ ]) *\| *$/\1\t\2/p' "$tmp/rows" >"$tmp/modrows"

fail=0
say() {
    echo "testmap: $*"
    fail=1
}

# Every module has a row; every row's module exists, once.
find src -name '*.c' | LC_ALL=C sort >"$tmp/tree"
cut -f1 "$tmp/modrows" | LC_ALL=C sort >"$tmp/named"
LC_ALL=C comm -23 "$tmp/tree" "$tmp/named" | while read -r m; do
    echo "testmap: $doc has no row for $m (add it to \"Modules and their tests\")"
done >"$tmp/missing"
LC_ALL=C comm -13 "$tmp/tree" "$tmp/named" | LC_ALL=C sort -u | while read -r m; do
    echo "testmap: $doc has a row for $m, which does not exist"
done >>"$tmp/missing"
uniq -d "$tmp/named" | while read -r m; do
    echo "testmap: $doc has two rows for $m"
done >>"$tmp/missing"
if [ -s "$tmp/missing" ]; then
    cat "$tmp/missing"
    fail=1
fi

# Each module row names a test.
while IFS="$(printf '\t')" read -r m cell; do
    case $cell in
    *test_*.c* | *tests/*) ;;
    *) say "the row of $m names no test" ;;
    esac
done <"$tmp/modrows"

# Every test named in a row exists: test_NAME.c under tests/, and paths
# from the root. A path's last character is a letter or a digit.
grep -oE '(^|[ (|;])test_[a-z0-9_]+\.c' "$tmp/rows" | sed -E 's/^[ (|;]//' |
    LC_ALL=C sort -u >"$tmp/testfiles"
grep -oE 'tests/[A-Za-z0-9_./-]*[A-Za-z0-9]' "$tmp/rows" | LC_ALL=C sort -u >"$tmp/paths"
while read -r t; do
    [ -f "tests/$t" ] || say "$doc names $t, which is not in tests/"
done <"$tmp/testfiles"
while read -r p; do
    [ -e "$p" ] || say "$doc names $p, which does not exist"
done <"$tmp/paths"

# Each suite named after a test file is one of that file's suites.
grep -oE 'test_[a-z0-9_]+\.c \([a-z0-9_, ]+\)' "$tmp/rows" | LC_ALL=C sort -u |
    while read -r t suites; do
        [ -f "tests/$t" ] || continue
        for s in $(echo "$suites" | tr -d '()' | tr ',' ' '); do
            grep -qE "(Test|TestSuite)\\( *$s *[,)]" "tests/$t" ||
                echo "testmap: $doc names suite $s in $t, which has no such suite"
        done
    done >"$tmp/suites"
if [ -s "$tmp/suites" ]; then
    cat "$tmp/suites"
    fail=1
fi

# Every test file is named in a row.
for f in tests/test_*.c; do
    t=${f#tests/}
    [ "$t" = test_support.c ] && continue
    grep -qxF "$t" "$tmp/testfiles" || say "$doc names $t in no row"
done

if [ $fail = 0 ]; then
    echo "testmap: $doc maps every module under src/ ($(wc -l <"$tmp/tree")) to tests that exist"
fi
exit $fail
