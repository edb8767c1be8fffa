#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/examples.sh: the examples are tests (issue 29), run by `make test`
# (`make examples`). The committed state of the repository is cloned into an
# empty temporary folder with nothing beside it, built there, and then:
#   1. every command of README.md's `sh` blocks runs from the clone's root and
#      must exit 0;
#   2. every command of the man page's EXAMPLES (docs/chargesim.1) runs there,
#      with the clone's bin/ first on PATH, and must exit 0;
#   3. every README.md block fenced `c` is compiled against the clone's
#      library (make lib: include/, build/libchargesim.so) and run, and every
#      block fenced `python` runs with Debian's /usr/bin/python3 and the
#      module make python stages (PYTHONPATH=build/python), from the clone's
#      root; each must exit 0 (issue 53);
#   4. `make results` runs there and must give results/ byte for byte: no
#      tracked file changes, no new file appears under results/.
#
# Which README blocks run (the rule, also stated at the top of the README's
# "Two commands"): a fenced block whose info string is exactly `sh` is run,
# one command at a time (a line ending in a backslash continues on the next;
# blank lines and # comments are skipped). A block fenced `sh norun` is shown,
# not run: machine preparation, several nodes, a batch scheduler, or what has
# a target of its own; the README says why beside it. Other fences (ini,
# text, ...) are never run. The one line of an `sh` block not run is
# `make test` itself, which is what runs this script: running it here would
# recurse. A heredoc cannot be run a line at a time, so one in an `sh` block
# is an error: write the file with printf, or mark the block norun.
#
# Usage: tests/examples.sh [ROOT] (default: the repository this script sits
# in). Uncommitted changes are not in the clone: commit first. Each command
# may take EXAMPLE_TIMEOUT seconds (default 900). Ends with the line
# "examples: N passed, N failed".
set -eu
LC_ALL=C
export LC_ALL
# The makes run here are not part of the make that runs this script.
unset MAKEFLAGS MAKELEVEL MFLAGS
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
# Each command's bound, times $CS_TEST_TIME_SCALE where an instrumented build
# runs slower (as every wait of the tests is scaled).
limit=$(awk -v s="${EXAMPLE_TIMEOUT:-900}" -v k="${CS_TEST_TIME_SCALE:-1}" \
    'BEGIN { if (k < 1) k = 1; printf "%d", s * k + 0.5 }')
cd "$root"
git rev-parse --git-dir >/dev/null 2>&1 ||
    { echo "examples: $root is not a git repository: this test clones the committed state" >&2; exit 1; }
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "examples: note: uncommitted changes to tracked files are not tested (the clone is of HEAD)" >&2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
work=$tmp/empty
mkdir "$work"
clone=$work/chargesim

passed=0
failed=0
pass() { passed=$((passed + 1)); printf "examples: ok: %s\n" "$*"; }
fail() { failed=$((failed + 1)); printf "examples: FAIL: %s\n" "$*" >&2; }

# The commands of README.md's `sh` blocks, one a line: "LINE<TAB>command".
readme_commands() {
    awk '
    function flush() { if (cmd != "") print start "\t" cmd; cmd = "" }
    /^```/ {
        if (fence) { flush(); fence = 0; run = 0; next }
        fence = 1; info = substr($0, 4); sub(/[ \t]+$/, "", info); run = (info == "sh"); next
    }
    !fence || !run { next }
    {
        line = $0
        if (cmd == "") {
            if (line ~ /^[ \t]*(#|$)/) next
            start = NR
        }
        if (line ~ /\\$/) { sub(/\\$/, "", line); cmd = cmd line " "; next }
        cmd = cmd line; flush()
    }
    END { if (fence) print NR "\tUNCLOSED" }' README.md
}

# README.md's blocks fenced exactly `c` or `python` (the language, $1), each
# written to DIR/LINE.EXT, LINE the fence's line; their lines, one a line.
readme_blocks() {
    awk -v lang="$1" -v dir="$2" -v ext="$3" '
    /^```/ {
        if (fence) { if (out) close(out); fence = 0; out = ""; next }
        fence = 1; info = substr($0, 4); sub(/[ \t]+$/, "", info)
        if (info == lang) { out = dir "/" NR "." ext; print NR; printf "" >out }
        next
    }
    fence && out { print >>out }' README.md
}

# The commands of the man page's EXAMPLES: the .nf/.fi displays between
# .SH EXAMPLES and the next .SH, roff escapes undone, continuations joined.
man_commands() {
    awk '
    /^\.SH/ { on = ($0 ~ /^\.SH "?EXAMPLES"?$/); next }
    !on { next }
    /^\.nf/ { disp = 1; cmd = ""; next }
    /^\.fi/ { disp = 0; next }
    !disp || /^\.(RS|RE)/ { next }
    {
        line = $0
        gsub(/\\-/, "-", line); gsub(/\\&/, "", line); gsub(/\\e/, "\\", line)
        if (cmd == "") start = NR
        if (line ~ /\\$/) { sub(/\\$/, "", line); cmd = cmd line " "; next }
        cmd = cmd line; print start "\t" cmd; cmd = ""
    }' docs/chargesim.1
}

# One command, from the clone's root, bounded in time; its output is kept
# for the failure message.
run_one() {
    where=$1 cmd=$2
    n=$((passed + failed + 1))
    if (cd "$clone" && PATH="$clone/bin:$PATH" timeout -k 10 "$limit" sh -c "$cmd") \
        </dev/null >"$tmp/out.$n" 2>&1; then
        pass "$where: $cmd"
    else
        rc=$?
        fail "$where: $cmd (exit $rc): $(tail -n 5 "$tmp/out.$n" | tr '\n' ' ')"
    fi
}

readme_commands >"$tmp/readme"
man_commands >"$tmp/man"
[ -s "$tmp/readme" ] || { echo "examples: no sh block found in README.md" >&2; exit 1; }
[ -s "$tmp/man" ] || { echo "examples: no command found in the man page's EXAMPLES" >&2; exit 1; }

# The clone, built as `make` builds it (make run and the examples rebuild
# nothing then).
git clone -q "$root" "$clone" || { echo "examples: git clone failed" >&2; exit 1; }
if (cd "$clone" && make -j2 -s >"$tmp/build.log" 2>&1); then
    pass "the clone builds ($(cd "$clone" && git rev-parse --short HEAD))"
else
    fail "the clone does not build: $(tail -n 5 "$tmp/build.log" | tr '\n' ' ')"
    echo "examples: $passed passed, $failed failed"
    exit 1
fi

tab=$(printf '\t')
while IFS=$tab read -r line cmd; do
    case $cmd in
        UNCLOSED) fail "README.md:$line: a fenced block is not closed"; continue ;;
        *'<<'*) fail "README.md:$line: a heredoc in an sh block cannot be run a line at a time: $cmd"; continue ;;
    esac
    # `make test` runs this script: not again from inside it.
    if printf '%s\n' "$cmd" | grep -Eq '^[[:space:]]*make[[:space:]]+test[[:space:]]*(#.*)?$'; then
        echo "examples: not run: README.md:$line: make test (it is what runs this test)"
        continue
    fi
    run_one "README.md:$line" "$cmd"
done <"$tmp/readme"

while IFS=$tab read -r line cmd; do
    run_one "docs/chargesim.1:$line" "$cmd"
done <"$tmp/man"

# The C and Python blocks, against the clone's library and staged module.
mkdir -p "$tmp/blocks"
readme_blocks c "$tmp/blocks" c >"$tmp/cblocks"
readme_blocks python "$tmp/blocks" py >"$tmp/pyblocks"
if [ -s "$tmp/cblocks" ] || [ -s "$tmp/pyblocks" ]; then
    if (cd "$clone" && make -j2 -s lib python >"$tmp/lib.log" 2>&1); then
        while read -r line; do
            run_one "README.md:$line (c)" "cc -std=c17 -Wall -Wextra -Werror -Iinclude \
                '$tmp/blocks/$line.c' -Lbuild -lchargesim -Wl,-rpath,'$clone/build' \
                -o '$tmp/blocks/$line' && '$tmp/blocks/$line'"
        done <"$tmp/cblocks"
        while read -r line; do
            run_one "README.md:$line (python)" \
                "PYTHONPATH='$clone/build/python' /usr/bin/python3 '$tmp/blocks/$line.py'"
        done <"$tmp/pyblocks"
    else
        fail "make lib python in the clone: $(tail -n 5 "$tmp/lib.log" | tr '\n' ' ')"
    fi
fi

# make results reproduces results/ byte for byte.
if (cd "$clone" && make -s results >"$tmp/results.log" 2>&1); then
    changed=$(cd "$clone" && git status --porcelain --untracked-files=all -- results/ &&
              git status --porcelain --untracked-files=no)
    if [ -z "$changed" ]; then
        pass "make results reproduces results/ byte for byte"
    else
        fail "make results changed: $(printf '%s\n' "$changed" | sort -u | tr '\n' ' ')"
    fi
else
    fail "make results exited non-zero: $(tail -n 5 "$tmp/results.log" | tr '\n' ' ')"
fi

echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
