#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/library.sh: the C library (issue 53), run by `make check`.
#   1. libchargesim.so exports the request API's names and nothing else
#      (nm -D --defined-only: cs_request_* and the version node), under its
#      soname libchargesim.so.0;
#   2. a staged install (make install DESTDIR=... PREFIX=/usr) holds the
#      library, its links, the static library, the headers, chargesim.pc
#      and the Python module;
#   3. docs/example.c builds against the stage with pkg-config alone
#      (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR into the stage), shared
#      and static, and prints what bin/chargesim prints for the same
#      request, byte for byte (dice 2d6kh1+d6 --exact; run
#      experiments/default.ini --method exact);
#   3b. one request per command, as tests/bindings/same.json lists them
#      (run, map, compare, dice, units; keys as the Python module takes
#      them, each made a request key by cs_request_key_of in the example):
#      the example's CSV is the bytes `chargesim ... -o FILE` writes
#      (tests/python/test_same.py and tests/js.sh hold Python and
#      JavaScript to the same file);
#   4. the installed Python module imports with Debian's python3 and gives
#      the same bytes;
#   5. make uninstall leaves nothing.
# LIB_BUILD is the build folder (build), LIB_MAKE the make command (the
# Makefile passes its own, so nothing is rebuilt); CS_BIN the binary; run from the
# repository root. Everything lives in one temporary folder, removed on exit.
set -eu
LC_ALL=C
export LC_ALL
unset MAKEFLAGS MAKELEVEL MFLAGS
build=${LIB_BUILD:-build}
make_cmd=${LIB_MAKE:-make --no-print-directory}
bin=${CS_BIN:-bin/chargesim}
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-library.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fails=0
fail() {
    echo "library test: FAIL: $*" >&2
    fails=$((fails + 1))
}

# 1. The exported names.
so=$build/libchargesim.so.0
[ -f "$so" ] || { echo "library test: $so: not built (make lib)" >&2; exit 1; }
others=$(nm -D --defined-only "$so" | awk '{ print $NF }' | grep -v -e '^cs_request_' -e '^CHARGESIM_0$' || true)
[ -z "$others" ] || fail "libchargesim.so exports more than the API: $(echo "$others" | tr '\n' ' ')"
nm -D --defined-only "$so" | grep -q ' cs_request_run@@CHARGESIM_0$' ||
    fail "libchargesim.so does not export cs_request_run"
readelf -d "$so" | grep -q 'SONAME.*\[libchargesim\.so\.0\]' || fail "the soname is not libchargesim.so.0"

# A library built with AddressSanitizer (make asan) needs its runtime first:
# the programs are linked with it, and python3 preloads it.
# The example is built with the library's own instrumentation (LIB_SAN: the
# build's SAN flags, --coverage or a sanitizer), which a static link needs.
san=${LIB_SAN:-}
preload=
if readelf -d "$so" | grep -q 'NEEDED.*libasan'; then
    san="$san -fsanitize=address"
    preload=$(cc -print-file-name=libasan.so)
    ASAN_OPTIONS=detect_leaks=0
    export ASAN_OPTIONS
fi

# 2. The staged install.
dest=$tmp/stage
$make_cmd install DESTDIR="$dest" PREFIX=/usr BUILD="$build" BIN="$bin" \
    >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; fail "make install exited"; exit 1; }
for f in lib/libchargesim.so.0.1.0 lib/libchargesim.a include/chargesim/request.h \
         include/chargesim/reqapi.h lib/pkgconfig/chargesim.pc \
         lib/python3/dist-packages/chargesim/__init__.py; do
    [ -f "$dest/usr/$f" ] || fail "the stage has no usr/$f"
done
[ "$(readlink "$dest/usr/lib/libchargesim.so.0")" = libchargesim.so.0.1.0 ] ||
    fail "usr/lib/libchargesim.so.0 is not a link to libchargesim.so.0.1.0"
[ "$(readlink "$dest/usr/lib/libchargesim.so")" = libchargesim.so.0 ] ||
    fail "usr/lib/libchargesim.so is not a link to libchargesim.so.0"

# 3. The example, with pkg-config alone, against the stage.
PKG_CONFIG_PATH=$dest/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest \
PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_ALLOW_SYSTEM_CFLAGS PKG_CONFIG_ALLOW_SYSTEM_LIBS
cflags=$(pkg-config --cflags chargesim) && libs=$(pkg-config --libs chargesim) &&
    slibs=$(pkg-config --static --libs chargesim) || { fail "pkg-config chargesim failed"; exit 1; }
# shellcheck disable=SC2086
cc -std=c17 -Wall -Wextra -Werror $san docs/example.c $cflags $libs -o "$tmp/example" 2>"$tmp/cc.log" ||
    fail "docs/example.c does not build with pkg-config: $(cat "$tmp/cc.log")"
# shellcheck disable=SC2086
cc -std=c17 -Wall -Wextra -Werror $san docs/example.c $cflags -Wl,-Bstatic -lchargesim -Wl,-Bdynamic \
    $(echo "$slibs" | sed 's/-lchargesim//') -o "$tmp/example-static" 2>"$tmp/ccs.log" ||
    fail "docs/example.c does not link statically with pkg-config --static: $(cat "$tmp/ccs.log")"
same() { # NAME EXAMPLE-ARGS -- CHARGESIM-ARGS
    name=$1
    shift
    n=0
    for a in "$@"; do [ "$a" = -- ] && break; n=$((n + 1)); done
    ex_args=$(printf '%s\n' "$@" | head -n "$n")
    cs_args=$(printf '%s\n' "$@" | tail -n +"$((n + 2))")
    for e in example example-static; do
        [ -x "$tmp/$e" ] || continue
        # shellcheck disable=SC2086
        (IFS='
'; LD_LIBRARY_PATH=$dest/usr/lib "$tmp/$e" $ex_args) >"$tmp/$e.out" 2>"$tmp/$e.err" ||
            fail "$e ($name) exited non-zero: $(cat "$tmp/$e.err")"
        # shellcheck disable=SC2086
        (IFS='
'; "$bin" $cs_args) >"$tmp/cli.out" 2>/dev/null || fail "chargesim ($name) exited non-zero"
        cmp -s "$tmp/$e.out" "$tmp/cli.out" || fail "$e ($name) differs from bin/chargesim"
        [ -s "$tmp/cli.out" ] || fail "chargesim ($name) printed nothing"
    done
}
same dice -- dice 2d6kh1+d6 --exact
same run run input=experiments/default.ini experiment.method=exact -- \
    run experiments/default.ini --method exact

# 3b. One request per command (tests/bindings/same.json) against -o's file.
# The lines: NAME, the command line's argument count and the example's,
# tab-separated, then each argument on a line of its own. units takes the
# mapping files from its caller (the command
# line finds them itself).
/usr/bin/python3 - tests/bindings/same.json >"$tmp/same.txt" <<'EOF'
import json, sys
for q in json.load(open(sys.argv[1]))["requests"]:
    ex = [q["cmd"]] + (["%s=%s" % tuple(q["operand"])] if q["operand"] else [])
    ex += ["%s=%s" % (k, v) for k, v in q["pairs"]]
    if q["cmd"] == "units":
        ex += ["mapping=experiments/mappings"]
    print("%s\t%d\t%d" % (q["cmd"], len(q["cli"]), len(ex)))
    print("\n".join(q["cli"] + ex))
EOF
[ "$(grep -c '	' "$tmp/same.txt")" -eq 5 ] || fail "tests/bindings/same.json: not five requests"
exec 3<"$tmp/same.txt"
while IFS='	' read -r name ncli nex <&3; do
    : >"$tmp/cli.args"
    : >"$tmp/ex.args"
    i=0
    while [ "$i" -lt "$ncli" ] && IFS= read -r a <&3; do printf '%s\n' "$a" >>"$tmp/cli.args"; i=$((i + 1)); done
    i=0
    while [ "$i" -lt "$nex" ] && IFS= read -r a <&3; do printf '%s\n' "$a" >>"$tmp/ex.args"; i=$((i + 1)); done
    rm -f "$tmp/same.csv"
    # shellcheck disable=SC2046
    (IFS='
'; "$bin" $(cat "$tmp/cli.args") -o "$tmp/same.csv") </dev/null >/dev/null 2>"$tmp/cli.err" ||
        fail "chargesim ($name, same.json) exited non-zero: $(cat "$tmp/cli.err")"
    [ -s "$tmp/same.csv" ] || fail "chargesim ($name, same.json) wrote no CSV"
    for e in example example-static; do
        [ -x "$tmp/$e" ] || continue
        # shellcheck disable=SC2046
        (IFS='
'; LD_LIBRARY_PATH=$dest/usr/lib "$tmp/$e" $(cat "$tmp/ex.args")) </dev/null >"$tmp/$e.out" 2>"$tmp/$e.err" ||
            fail "$e ($name, same.json) exited non-zero: $(cat "$tmp/$e.err")"
        cmp -s "$tmp/$e.out" "$tmp/same.csv" || fail "$e ($name, same.json) differs from chargesim -o"
        echo "library test: $e ($name): the bytes of chargesim -o"
    done
done
exec 3<&-

# 4. The installed Python module, with the staged library.
py=$dest/usr/lib/python3/dist-packages
(cd "$tmp" && LD_PRELOAD=$preload PYTHONPATH=$py CHARGESIM_LIBRARY=$dest/usr/lib/libchargesim.so.0 /usr/bin/python3 -c \
    'import sys, chargesim; sys.stdout.write(chargesim.dice("2d6kh1+d6", exact=True).to_csv())' \
    >"$tmp/py.out" 2>"$tmp/py.err") || fail "the installed module: $(cat "$tmp/py.err")"
"$bin" dice 2d6kh1+d6 --exact >"$tmp/cli.out"
cmp -s "$tmp/py.out" "$tmp/cli.out" || fail "the installed module's dice differs from bin/chargesim"

# 5. Uninstall leaves nothing (the folders make install made stay empty).
rm -rf "$py/chargesim/__pycache__"
$make_cmd uninstall DESTDIR="$dest" PREFIX=/usr BUILD="$build" BIN="$bin" \
    >"$tmp/uninstall.log" 2>&1 || fail "make uninstall exited non-zero"
left=$(cd "$dest" && find . \( -type f -o -type l \) | sort)
[ -z "$left" ] || fail "make uninstall left: $(echo "$left" | tr '\n' ' ')"

if [ "$fails" -gt 0 ]; then
    echo "library test: $fails failure(s)" >&2
    exit 1
fi
echo "library test: exports, staged install, the example with pkg-config (shared, static), Python: ok"
