#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/recipes.sh: the two recipes of docs/ARCHITECTURE.md ("Where to add
# things", issue 33) hold, run by `make check`. In a temporary folder:
#   - a new game: tests/recipes/coin.c plus the one line X(coin) added to a
#     copy of include/chargesim/registry.h;
#   - a new preset of generic: one row added to a copy of
#     src/rules/generic.c's PRESETS table;
# then a chargesim is linked from those three files and the library as it
# is ($BUILD/libchargesim.a, whose own registry and generic the new objects
# stand in for), and run: the game and the preset are listed, documented,
# refused where they should be, and give their exact numbers (mc within 5
# standard errors at a fixed seed). The copies differ from the originals by
# exactly that line and that row. Nothing is written outside the temporary
# folder, removed on exit.
#
# Usage: tests/recipes.sh BUILD, from the repository root; RECIPE_CC and
# RECIPE_LDLIBS are the Makefile's CC and LDLIBS (so a sanitizer or coverage
# build links as its library was built).
set -eu
LC_ALL=C
export LC_ALL
build=${1:?usage: tests/recipes.sh BUILD}
cc=${RECIPE_CC:-gcc}
ldlibs=${RECIPE_LDLIBS:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-recipes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fails=0
fail() {
    echo "recipes test: FAIL: $*" >&2
    fails=$((fails + 1))
}

# The game's line, after the last game and before the list's closing comment.
mkdir -p "$tmp/include/chargesim"
awk '/a new game: its line above this one/ { print "    X(coin)      /* tests/recipes/coin.c */   \\" }
     { print }' include/chargesim/registry.h >"$tmp/include/chargesim/registry.h"

# The preset's row, likewise before the table's closing comment.
cat >"$tmp/row" <<'EOF'
    X(d3, "D3 charge (recipes test)", "d3      D3 (no move)        0 (contact)  no limit",     \
      "a preset of tests/recipes.sh.",                                                          \
      NOSWIFT, NULL, "",                                                                        \
      .dice = "1d3", .dice_alone = true, .limit = LIMIT_NONE)                                   \
EOF
awk -v row="$tmp/row" '/a new preset: its row above this line/ { while ((getline l < row) > 0) print l }
     { print }' src/rules/generic.c >"$tmp/generic.c"

# The cost: one line added to the registry, one row to the table, nothing else.
diff include/chargesim/registry.h "$tmp/include/chargesim/registry.h" >"$tmp/registry.diff" || true
[ "$(grep -c '^[<>]' "$tmp/registry.diff")" = 1 ] && grep -q '^> *X(coin)' "$tmp/registry.diff" ||
    fail "the game is not one registry line: $(cat "$tmp/registry.diff")"
diff src/rules/generic.c "$tmp/generic.c" >"$tmp/generic.diff" || true
[ "$(grep -c '^<' "$tmp/generic.diff")" = 0 ] && [ "$(grep -c '^[0-9]' "$tmp/generic.diff")" = 1 ] ||
    fail "the preset is not one row of the table: $(cat "$tmp/generic.diff")"

# Three objects, the new header first on the include path, then the link.
flags="-std=c17 -O1 -Wall -Wextra -Wshadow -Wconversion -Wmissing-declarations -Wundef -Werror"
flags="$flags -D_POSIX_C_SOURCE=200809L -I$tmp/include -Iinclude"
for src in tests/recipes/coin.c src/rules/registry.c "$tmp/generic.c"; do
    obj=$tmp/$(basename "$src" .c).o
    $cc $flags -c "$src" -o "$obj" 2>"$tmp/cc.log" || { cat "$tmp/cc.log" >&2; fail "cc $src"; exit 1; }
done
# shellcheck disable=SC2086 # LDLIBS is a list of words
$cc -o "$tmp/chargesim" "$build/src/cli/main.o" "$tmp/coin.o" "$tmp/registry.o" "$tmp/generic.o" \
    "$build/libchargesim.a" $ldlibs 2>"$tmp/ld.log" || { cat "$tmp/ld.log" >&2; fail "link"; exit 1; }
bin=$tmp/chargesim

# The game: listed, documented, refused where its prepare says, exact, and mc within 5 sigma.
"$bin" rules | grep -q '^coin  *one die against a need' || fail "chargesim rules does not list coin"
"$bin" rules coin | grep -q 'faces of the die' || fail "chargesim rules coin lacks its parameters"
printf '[experiment]\nruleset = coin\ntrials = 200000\nseed = 5\n[params]\nneed = 1..6\n' \
    >"$tmp/coin.ini"
"$bin" run "$tmp/coin.ini" --set sides=4 --set need=5 >/dev/null 2>"$tmp/err" &&
    fail "need > sides was not refused"
grep -q 'need = 5: at most sides' "$tmp/err" || fail "the refusal: $(cat "$tmp/err")"
"$bin" run "$tmp/coin.ini" --method exact --quiet -o "$tmp/exact.csv" || fail "coin exact"
"$bin" run "$tmp/coin.ini" --method mc --quiet -o "$tmp/mc.csv" || fail "coin mc"
# need,trials,successes,p_success,...: exact (7 - need) / 6 to the 6 decimals printed.
awk -F, 'NR > 1 { e = (7 - $1) / 6; d = $4 - e; if (d < 0) d = -d; if (d > 5e-7) bad++; n++ }
         END { exit !(n == 6 && !bad) }' "$tmp/exact.csv" ||
    fail "coin exact is not (7 - need) / 6: $(cat "$tmp/exact.csv")"
awk -F, 'NR > 1 { e = (7 - $1) / 6; se = sqrt(e * (1 - e) / $2); d = $4 - e; if (d < 0) d = -d;
                  if (d > 5 * se + 5e-7) bad++; n++ }
         END { exit !(n == 6 && !bad) }' "$tmp/mc.csv" ||
    fail "coin mc is not within 5 standard errors of (7 - need) / 6: $(cat "$tmp/mc.csv")"

# The preset: offered, in the table, named in the table-built refusal, exact.
"$bin" rules generic | grep -q 'none|w40k|aos|tow|whfb8|d3' || fail "preset d3 is not offered"
"$bin" rules generic | grep -q '^  d3      D3 (no move)' || fail "preset d3 has no line in the table"
"$bin" rules generic | grep -q '^  d3: a preset of tests/recipes.sh' || fail "preset d3 has no source"
printf '[experiment]\nruleset = generic\ntrials = 1000\n[params]\npreset = d3\ndistance = 1..4\n' \
    >"$tmp/d3.ini"
"$bin" run "$tmp/d3.ini" --set move=1 >/dev/null 2>"$tmp/err" && fail "move with d3 was not refused"
grep -q 'w40k, aos and d3 charge on their dice alone' "$tmp/err" || fail "the refusal: $(cat "$tmp/err")"
"$bin" run "$tmp/d3.ini" --method exact --quiet -o "$tmp/d3.csv" || fail "d3 exact"
# distance,trials,successes,p_success: P(D3 >= d) = (4 - d) / 3.
awk -F, 'NR > 1 { e = (4 - $1) / 3; if (e > 1) e = 1; d = $4 - e; if (d < 0) d = -d; if (d > 5e-7) bad++; n++ }
         END { exit !(n == 4 && !bad) }' "$tmp/d3.csv" ||
    fail "preset d3 is not P(D3 >= distance): $(cat "$tmp/d3.csv")"

if [ "$fails" -ne 0 ]; then
    echo "recipes test: $fails failure(s)" >&2
    exit 1
fi
echo "recipes test: a new game (one file, one registry line) and a new preset (one row) run"
