#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian packages chargesim needs, when any is missing.
# As root it runs apt-get; otherwise it prints the exact command and fails,
# so `make run` / `make test` never continue on a half-equipped machine.
set -eu
# Every tool the build and the tests use that a minimal Debian (debootstrap
# --variant=minbase) lacks: man-db for `man -l` in tests/install.sh, git for
# the clone of tests/examples.sh (issue 29). What such a system has already
# (coreutils' timeout, util-linux's prlimit and unshare, bsdutils' script,
# gzip, diffutils, mawk) is not listed. Debian's python3 runs tests/roster.py,
# which reads rosters with its own zipfile, ElementTree and json (issue 46).
# The Python module (issue 53) calls the library through python3-cffi; its
# tests run under python3-pytest, to_pandas needs python3-pandas, and the
# README's offline pip install a venv (python3-venv); python3-dev for a C
# extension of a program of the module's users (cffi's API mode).
pkgs="gcc make pkg-config libcsv-dev libinih-dev libcriterion-dev libxml2-dev gnuplot-nox
      libjansson-dev zlib1g-dev libcairo2-dev libgsl-dev libgmp-dev clang libomp-dev libclang-rt-14-dev gcovr
      man-db git python3 python3-cffi python3-dev python3-pytest python3-pandas python3-venv"
# Open MPI only when asked (MPI=1 scripts/deps.sh, make deps-mpi): the default
# build does not use it (issue 22). tests/mpi.sh finds and kills ranks with
# pgrep and ps (procps).
if [ "${MPI:-}" = 1 ]; then
    pkgs="$pkgs libopenmpi-dev openmpi-bin procps"
fi
# The web edition only when asked (WEB=1 scripts/deps.sh, make deps-web):
# emscripten builds it, headless Chromium runs its test over the DevTools
# protocol, driven from Debian's python3 with websocket-client (issue 31).
# The libraries it links are built from Debian's source packages
# (scripts/web-libs.sh, issue 44): dpkg-dev unpacks them, and autoconf,
# automake and libtool regenerate their build files as Debian's own build does.
if [ "${WEB:-}" = 1 ]; then
    pkgs="$pkgs emscripten chromium python3-websocket dpkg-dev autoconf automake libtool"
    # npm fetches the test-only axe-core (below); Debian's, where none is on PATH.
    command -v npm >/dev/null || pkgs="$pkgs npm"
fi
missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
# The web test's accessibility check (issue 45): axe-core, which Debian does
# not package, from the npm registry into build-web/npm (never committed),
# at one pinned version. A test-only tool: the site does not load it. So is
# TypeScript's compiler (issue 53): tests/js.sh compiles a program of the
# JavaScript package's API against its declarations (js/index.d.ts) with
# tsc --noEmit --strict. Both in one install, as npm prunes what a
# --no-save install of another package did not name.
AXE_VERSION=4.10.3
TS_VERSION=5.9.3
has() { # PACKAGE VERSION FILE
    [ -f "build-web/npm/node_modules/$1/$3" ] &&
        grep -q "\"version\": \"$2\"" "build-web/npm/node_modules/$1/package.json"
}
axe() {
    [ "${WEB:-}" = 1 ] || return 0
    has axe-core "$AXE_VERSION" axe.min.js && has typescript "$TS_VERSION" bin/tsc && return 0
    command -v npm >/dev/null || { echo "chargesim: make deps-web needs npm for axe-core and typescript" >&2; exit 1; }
    npm install --prefix build-web/npm --no-save --no-audit --no-fund "axe-core@$AXE_VERSION" \
        "typescript@$TS_VERSION" >&2
}
if [ -z "$missing" ]; then
    axe
    exit 0
fi
echo "chargesim: missing Debian packages:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing
    axe
else
    echo "run as root:  apt-get update && apt-get install -y$missing" >&2
    echo "(or: sudo apt-get install -y$missing), then run make again" >&2
    exit 1
fi
