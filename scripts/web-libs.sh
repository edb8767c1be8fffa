#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The C libraries of the web edition, built for WebAssembly from Debian's
# own source packages with Debian's emscripten (issue 44).
#
#   scripts/web-libs.sh fetch   the sources, through a private apt
#                               configuration under $WEB_BUILD/apt (its own
#                               sources list with deb-src lines for the
#                               machine's suites and mirrors, its own lists
#                               and caches): the machine's apt is untouched
#   scripts/web-libs.sh build   each library into $WEB_BUILD/libs/prefix
#                               (static .a and headers)
#   scripts/web-libs.sh all     both (make deps-web runs fetch, make web all)
#
# $WEB_BUILD/libs/VERSIONS lists the source packages built from, one
# "name version" a line; make web copies it to web/SOURCES.txt and make
# test-web compares the two.
set -eu
WEB_BUILD=${WEB_BUILD:-build-web}
EMCC=${EMCC:-emcc}
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
# Node 20 runs emscripten 3.1.6's output (configure tests included) only
# without its experimental fetch.
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--no-experimental-fetch"
PACKAGES="libxml2 libcsv libinih gsl zlib jansson gmp"
top=$(pwd)
self=$top/scripts/web-libs.sh
apt="$top/$WEB_BUILD/apt"
libs="$top/$WEB_BUILD/libs"
prefix="$libs/prefix"

# deb-src lines for every deb entry of the machine's own configuration
# (deb822 .sources files and the one-line sources.list).
src_lines() {
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk '
            function flush() {
                if (deb && uris != "" && suites != "") {
                    n = split(uris, u, " "); m = split(suites, s, " ")
                    for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
                        printf "deb-src %s%s %s %s\n", key != "" ? "[signed-by=" key "] " : "", u[i], s[j], comps
                }
                deb = 0; uris = ""; suites = ""; comps = ""; key = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            { k = $1; sub(/:$/, "", k); $1 = ""; sub(/^ /, ""); v = $0 }
            k == "Types" { deb = (" " v " ") ~ / deb / }
            k == "URIs" { uris = v }
            k == "Suites" { suites = v }
            k == "Components" { comps = v }
            k == "Signed-By" { key = v }
            END { flush() }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        sed -n 's/^[ \t]*deb[ \t]/deb-src /p' "$f"
    done
}

# The options that point apt at a private configuration: $1 is its folder.
apt_opts() {
    echo "-o Dir::Etc::SourceList=$1/sources.list -o Dir::Etc::SourceParts=$1/sources.list.d" \
         "-o Dir::State::Lists=$1/lists -o Dir::Cache=$1/cache" \
         "-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=" \
         "-o APT::Sandbox::User=root -o Debug::NoLocking=1"
}

# A private apt configuration in folder $1 whose sources list is standard input.
setup() {
    mkdir -p "$1/sources.list.d" "$1/lists/partial" "$1/cache/archives/partial"
    sort -u > "$1/sources.list.new"
    [ -s "$1/sources.list.new" ] || { echo "web-libs: no deb entry in /etc/apt to mirror" >&2; exit 1; }
    mv "$1/sources.list.new" "$1/sources.list"
    # shellcheck disable=SC2046
    apt-get -qq $(apt_opts "$1") update
}

# The newest version of source package $2 in configuration $1, or nothing.
newest() {
    # shellcheck disable=SC2046
    apt-cache $(apt_opts "$1") showsrc "$2" 2>/dev/null | awk '/^Version:/ {print $2}' | sort -V | tail -1
}

# Fetches and unpacks source package $2 version $3 with configuration $1
# into $libs/src/$2-$3; false when the mirror does not serve it.
get() {
    d="$libs/src/$2-${3#*:}"
    [ -d "$d" ] && return 0
    rm -rf "$libs/src/tmp" && mkdir -p "$libs/src/tmp"
    # shellcheck disable=SC2046
    if ! (cd "$libs/src/tmp" && apt-get -qq $(apt_opts "$1") source "$2=$3" >/dev/null 2>&1); then
        rm -rf "$libs/src/tmp"
        return 1
    fi
    found=$(find "$libs/src/tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
    mv "$found" "$d"
    rm -rf "$libs/src/tmp"
}

# A security update or a point release can take a version's files off the
# mirror while the suite's index still names it (this machine's mirror
# serves no libinih 55 tarball). A package whose source cannot be fetched
# from the machine's suites comes from the next Debian release
# ($WEB_LIBS_FALLBACK, default trixie), the same mirror, and VERSIONS says so.
fetch() {
    command -v dpkg-source >/dev/null || { echo "web-libs: dpkg-source missing: make deps-web" >&2; exit 1; }
    mkdir -p "$libs/src"
    src_lines | setup "$apt"
    : > "$libs/VERSIONS.new"
    fallback_ready=
    for p in $PACKAGES; do
        v=$(newest "$apt" "$p")
        if [ -n "$v" ] && get "$apt" "$p" "$v"; then
            echo "$p $v" >> "$libs/VERSIONS.new"
            continue
        fi
        fb=${WEB_LIBS_FALLBACK:-trixie}
        if [ -z "$fallback_ready" ]; then
            awk -v fb="$fb" '{ for (i = 2; i < NF; i++) if ($i ~ /:\/\//) {
                    if ($(i + 1) ~ /-/) next; $(i + 1) = fb; print; next } }' "$apt/sources.list" \
                | setup "$apt/fallback"
            fallback_ready=1
        fi
        v=$(newest "$apt/fallback" "$p")
        if [ -z "$v" ] || ! get "$apt/fallback" "$p" "$v"; then
            echo "web-libs: the mirror serves no source of $p (tried the machine's suites and $fb)" >&2
            exit 1
        fi
        echo "web-libs: $p: the machine's suites' source is not on the mirror; $fb's $v instead" >&2
        echo "$p $v $fb" >> "$libs/VERSIONS.new"
    done
    mv "$libs/VERSIONS.new" "$libs/VERSIONS"
}

# The source folder of package $1, as fetched.
srcdir() {
    v=$(awk -v p="$1" '$1 == p {print $2}' "$libs/VERSIONS"); echo "$libs/src/$1-${v#*:}"
}

# Each library is built once per source version and version of this
# script (its recipes): a stamp names both.
stamp() {
    v=$(awk -v p="$1" '$1 == p {print $2}' "$libs/VERSIONS")
    echo "$libs/stamp-$1-${v#*:}-$(md5sum < "$self" | cut -c1-12)"
}

build_libxml2() {
    cd "$(srcdir libxml2)"
    # As Debian builds it (dh_autoreconf): its patches may touch configure.ac.
    # A tree built before (another recipe) is cleaned first.
    if [ -f Makefile ]; then make distclean >/dev/null 2>&1 || true; fi
    autoreconf -fi >/dev/null 2>&1
    # Only what the readers use (a DOM parse and the text reader): no HTML,
    # XPath, schemas, catalogues, writer, validation; the built-in ISO-8859
    # tables stay, as there is no iconv.
    emconfigure ./configure --host=wasm32 --prefix="$prefix" --disable-shared \
        --without-python --without-zlib --without-lzma --without-http --without-ftp \
        --without-threads --without-iconv --without-icu --without-modules \
        --without-html --without-xpath --without-xptr --without-c14n --without-catalog \
        --without-schemas --without-schematron --without-regexps --without-xinclude \
        --without-writer --without-legacy --without-debug --without-docbook \
        --without-valid >/dev/null
    emmake make -j2 libxml2.la >/dev/null
    cp .libs/libxml2.a "$prefix/lib/"
    rm -rf "$prefix/include/libxml2"
    mkdir -p "$prefix/include/libxml2/libxml"
    cp include/libxml/*.h "$prefix/include/libxml2/libxml/"
}

build_gsl() {
    cd "$(srcdir gsl)"
    emconfigure ./configure --host=i686-pc-linux-gnu --prefix="$prefix" --disable-shared >/dev/null
    emmake make -C gsl >/dev/null
    dirs="utils sys err complex specfunc qrng cdf randist rng"
    objs=""
    for d in $dirs; do
        emmake make -j2 -C "$d" "lib$d.la" >/dev/null 2>&1 || emmake make -j2 -C "$d" >/dev/null
        objs="$objs $(ls "$d"/.libs/*.o 2>/dev/null || true) $(ls "$d"/*.o 2>/dev/null | grep -v '/test' || true)"
    done
    rm -f "$prefix/lib/libgsl.a"
    # shellcheck disable=SC2086
    emar rcs "$prefix/lib/libgsl.a" $(printf '%s\n' $objs | sort -u)
    mkdir -p "$prefix/include/gsl"
    cp -L gsl/*.h "$prefix/include/gsl/"
}

build_zlib() {
    cd "$(srcdir zlib)"
    CHOST= emconfigure ./configure --static --prefix="$prefix" >/dev/null
    emmake make -j2 libz.a >/dev/null
    cp libz.a "$prefix/lib/"
    cp zlib.h zconf.h "$prefix/include/"
}

build_jansson() {
    cd "$(srcdir jansson)"
    [ -f configure ] || autoreconf -fi >/dev/null 2>&1
    emconfigure ./configure --host=wasm32 --prefix="$prefix" --disable-shared >/dev/null
    emmake make -j2 -C src libjansson.la >/dev/null
    cp src/.libs/libjansson.a "$prefix/lib/"
    cp src/jansson.h src/jansson_config.h "$prefix/include/"
}

# GMP (the exact fractions of `chargesim dice --exact`, issue 52) in plain C:
# no assembly, a generic host; its helper programs (gen-fac and the like)
# are built for the machine by CC_FOR_BUILD.
build_gmp() {
    cd "$(srcdir gmp)"
    if [ -f Makefile ]; then make distclean >/dev/null 2>&1 || true; fi
    # As Debian builds it (dh_autoreconf): its patches leave doc/ out of
    # configure.ac.
    autoreconf -fi >/dev/null 2>&1
    CC_FOR_BUILD=${CC_FOR_BUILD:-cc} emconfigure ./configure --host=none --prefix="$prefix" \
        --disable-shared --disable-assembly --disable-cxx >/dev/null
    # All of it: the tables gen-fib and its kind write (fib_table.h, ...)
    # are made before the library only by the whole build.
    emmake make -j2 >/dev/null
    cp .libs/libgmp.a "$prefix/lib/"
    cp gmp.h "$prefix/include/"
}

# libcsv and libinih are one .c each.
build_libcsv() {
    cd "$(srcdir libcsv)"
    "$EMCC" -O3 -c libcsv.c -o "$libs/libcsv.o"
    emar rcs "$prefix/lib/libcsv.a" "$libs/libcsv.o"
    cp csv.h "$prefix/include/"
}

build_libinih() {
    cd "$(srcdir libinih)"
    "$EMCC" -O3 -c ini.c -o "$libs/ini.o"
    emar rcs "$prefix/lib/libinih.a" "$libs/ini.o"
    cp ini.h "$prefix/include/"
}

build() {
    [ -f "$libs/VERSIONS" ] || fetch
    mkdir -p "$prefix/lib" "$prefix/include"
    for p in $PACKAGES; do
        s=$(stamp "$p")
        [ -f "$s" ] && continue
        echo "web-libs: building $p $(awk -v p="$p" '$1 == p {print $2}' "$libs/VERSIONS") for WebAssembly"
        (build_"$p")
        rm -f "$libs"/stamp-"$p"-*
        touch "$s"
    done
}

case "${1:-all}" in
fetch) fetch ;;
build) build ;;
all) fetch && build ;;
*) echo "usage: scripts/web-libs.sh fetch|build|all" >&2; exit 2 ;;
esac
