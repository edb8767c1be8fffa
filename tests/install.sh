#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/install.sh: `make install` and `make uninstall` (issue 17.3), run by
# `make check`. Installs into a temporary DESTDIR with PREFIX=/usr, runs the
# installed binary, renders the man page with `man -l` and checks that it
# names every command and every option the --help texts list, tries the bash
# completion, then checks that `make uninstall` removes exactly the installed
# files and nothing else. A second install uses PREFIX alone. Everything lives
# under one temporary directory, removed on exit: nothing is left in /tmp.
#
# INSTALL_MAKE is the make command to use (the Makefile passes its own, with
# BIN and BUILD, so nothing is rebuilt); run from the repository root.
set -eu
LC_ALL=C
export LC_ALL
make_cmd=${INSTALL_MAKE:-make --no-print-directory}
root=$(pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fails=0
fail() {
    echo "install test: FAIL: $*" >&2
    fails=$((fails + 1))
}

# Files and symlinks under a root, relative, sorted.
files_under() {
    (cd "$1" && find . \( -type f -o -type l \) | sort)
}

dest=$tmp/root
mkdir -p "$dest/usr/bin" "$dest/usr/share/man/man1"
# A file of another package where chargesim installs: it must survive.
echo 'not ours' >"$dest/usr/bin/other-tool"
echo 'not ours' >"$dest/usr/share/man/man1/other-tool.1"
files_under "$dest" >"$tmp/before"

$make_cmd install DESTDIR="$dest" PREFIX=/usr >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; fail "make install exited $?"; exit 1; }

# Exactly these files are added.
{
    cat "$tmp/before"
    echo ./usr/bin/chargesim
    echo ./usr/share/man/man1/chargesim.1
    echo ./usr/share/bash-completion/completions/chargesim
    for m in "$root"/experiments/mappings/*.ini; do
        echo "./usr/share/chargesim/mappings/$(basename "$m")"
    done
    (cd "$root/data" && find . -type f) | sed 's|^\./|./usr/share/chargesim/data/|'
    # The C library, its headers and pkg-config file, the Python module
    # (issue 53; tests/library.sh builds against them).
    for f in libchargesim.so libchargesim.so.0 libchargesim.so.0.1.0 libchargesim.a \
             pkgconfig/chargesim.pc; do
        echo "./usr/lib/$f"
    done
    for h in request.h reqapi.h error.h table.h status.h; do
        echo "./usr/include/chargesim/$h"
    done
    for m in __init__.py _native.py _libpath.py; do
        echo "./usr/lib/python3/dist-packages/chargesim/$m"
    done
} | sort >"$tmp/expected"
files_under "$dest" >"$tmp/after"
cmp -s "$tmp/expected" "$tmp/after" ||
    fail "installed files differ from the expected list: $(diff "$tmp/expected" "$tmp/after" | tr '\n' ' ')"
[ -x "$dest/usr/bin/chargesim" ] || fail "the binary is not executable"

# The installed binary runs, away from the source tree.
bin=$dest/usr/bin/chargesim
(cd "$tmp" && "$bin" --help >"$tmp/help.txt") || fail "chargesim --help exited $?"
(cd "$tmp" && "$bin" dice 2d6) >"$tmp/dice.csv" || fail "chargesim dice exited $?"
grep -q '^7,0\.16666' "$tmp/dice.csv" || fail "chargesim dice 2d6: no p(7) = 1/6 row"
(cd "$tmp" && "$bin" rules coreheim >/dev/null) || fail "chargesim rules coreheim exited $?"
# The installed mappings serve `units` through CS_MAPPINGS.
(cd "$tmp" && CS_MAPPINGS="$dest/usr/share/chargesim/mappings" \
    "$bin" units "$root/tests/data/units/units.csv" --distance 4..6 --quiet \
    >"$tmp/units.csv" 2>/dev/null) || fail "chargesim units with the installed mappings exited $?"
grep -q '^units.csv,Footmen,generic,' "$tmp/units.csv" || fail "chargesim units: no Footmen row"
# A roster without New Recruit's group attributes, no catalogue beside it:
# its catalogue is the installed data's, so the Duke's Royal Pegasus is his
# mount, not a second model (issue 50).
sed 's/ group="[^"]*"//g' "$root/tests/data/rosters/own/tow-bretonnia.ros" >"$tmp/list.ros"
(cd "$tmp" && CS_MAPPINGS="$dest/usr/share/chargesim/mappings" \
    "$bin" units "$tmp/list.ros" --distance 10 --quiet >"$tmp/list.csv" 2>/dev/null) ||
    fail "chargesim units on a roster with the installed data exited $?"
grep -q ',Duke (on Royal Pegasus),' "$tmp/list.csv" ||
    fail "chargesim units: the installed data did not give the roster's catalogue"

# The man page renders without a warning and names every command and option.
page=$dest/usr/share/man/man1/chargesim.1
MANWIDTH=80 man --warnings -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" ||
    fail "man -l exited $?"
[ ! -s "$tmp/man.err" ] || fail "man -l warned: $(cat "$tmp/man.err")"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS 'EXIT STATUS' ENVIRONMENT FILES EXAMPLES; do
    grep -q "^$section" "$tmp/man.txt" || fail "the man page has no $section section"
done
for cmd in run compare dice rules units draw rerun map; do
    grep -q "^   $cmd " "$tmp/man.txt" || fail "the man page has no subsection for $cmd"
    grep -q "^  $cmd " "$tmp/help.txt" || fail "chargesim --help does not list $cmd"
    "$bin" "$cmd" --help >"$tmp/help-$cmd.txt" 2>&1 || fail "chargesim $cmd --help exited $?"
    # Every option the command's help lists (the lines starting with an
    # option) is an item of the command's subsection of the page.
    awk -v c="$cmd" '/^[A-Z]/ || /^   [a-z]/ { on = ($0 ~ "^   " c " ") } on' \
        "$tmp/man.txt" >"$tmp/man-$cmd.txt"
    for opt in $(awk '/^ +-/ { for (i = 1; i <= NF && $i ~ /^-/; i++) { sub(/,$/, "", $i); print $i } }' \
                 "$tmp/help-$cmd.txt" | sort -u); do
        grep -Eq -- "^       (-[a-z], )?$opt( |,|\$)" "$tmp/man-$cmd.txt" ||
            fail "the man page's $cmd section lacks the option $opt"
    done
done
for status in 0 1 2; do
    grep -q "^       $status  " "$tmp/man.txt" || fail "the man page's EXIT STATUS lacks $status"
done

# The bash completion completes commands, options and ruleset names.
comp=$dest/usr/share/bash-completion/completions/chargesim
if command -v bash >/dev/null; then
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" ru); COMP_CWORD=1; _chargesim
                   echo "${COMPREPLY[*]}"' sh "$comp" "$bin")
    [ "$got" = "run rules" ] || fail "completion of 'ru': '$got'"
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" rules co); COMP_CWORD=2; _chargesim
                   echo "${COMPREPLY[*]}"' sh "$comp" "$bin")
    [ "$got" = "coreheim" ] || fail "completion of 'rules co': '$got'"
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" run x.ini --me); COMP_CWORD=3; _chargesim
                   echo "${COMPREPLY[*]}"' sh "$comp" "$bin")
    [ "$got" = "--method" ] || fail "completion of 'run x.ini --me': '$got'"
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" run x.ini --format ""); COMP_CWORD=4; _chargesim
                   echo "${COMPREPLY[*]}"' sh "$comp" "$bin")
    [ "$got" = "csv md tex" ] || fail "completion of '--format': '$got'"
fi

# Uninstall removes exactly what was installed: the other package's files
# stay, chargesim's own directory goes.
$make_cmd uninstall DESTDIR="$dest" PREFIX=/usr >"$tmp/uninstall.log" 2>&1 ||
    { cat "$tmp/uninstall.log" >&2; fail "make uninstall exited $?"; }
files_under "$dest" >"$tmp/after-uninstall"
cmp -s "$tmp/before" "$tmp/after-uninstall" ||
    fail "after uninstall: $(diff "$tmp/before" "$tmp/after-uninstall" | tr '\n' ' ')"
[ ! -e "$dest/usr/share/chargesim" ] || fail "uninstall left usr/share/chargesim"

# PREFIX alone (no DESTDIR) installs under it, and uninstalls.
pfx=$tmp/prefix
$make_cmd install PREFIX="$pfx" >"$tmp/install2.log" 2>&1 || fail "make install PREFIX= exited $?"
[ -x "$pfx/bin/chargesim" ] && [ -f "$pfx/share/man/man1/chargesim.1" ] ||
    fail "make install PREFIX=$pfx: files missing"
$make_cmd uninstall PREFIX="$pfx" >"$tmp/uninstall2.log" 2>&1 || fail "make uninstall PREFIX= exited $?"
[ -z "$(files_under "$pfx")" ] || fail "make uninstall PREFIX=$pfx left: $(files_under "$pfx")"

if [ "$fails" -gt 0 ]; then
    echo "install test: $fails failure(s)" >&2
    exit 1
fi
echo "install test: make install/uninstall, the man page and the completion: ok"
