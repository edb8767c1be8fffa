#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Unit tables for list-builders (issues 9 and 32): every unit of two T9A
# 2nd-edition armies, of the four ASOIAF factions and of every catalogue of
# The Old World that holds units, from the BattleScribe data in data/
# (copied into the repository, each set's source named in its README), as
# CSV and Markdown under results/units/, and the chart of one Old World army's
# 75% reach by troop type (scripts/units-chart).
# Usage: scripts/units-results.sh [CHARGESIM]   (default bin/chargesim)
set -eu
bin=${1:-bin/chargesim}
data=data
out=results/units
mkdir -p "$out"

# table SOURCE NAME: NAME.csv and NAME.md (notes on units left out: NAME.notes)
table() {
    "$bin" units "$1" -o "$out/$2.csv" 2>"$out/$2.notes"
    "$bin" units "$1" --quiet --format md -o "$out/$2.md" 2>/dev/null
    echo "units: wrote $out/$2.csv, $out/$2.md ($(tail -n 1 "$out/$2.notes" | sed 's/^chargesim units: //'))"
}

if "$bin" rules t9a >/dev/null 2>&1; then
    for army in dreadElves warriorsOfTheDarkGods; do
        table "$data/bsdata-t9a-2nd/2nd-$army.cat" "t9a-2nd-$army"
    done
else
    echo "units: ruleset t9a is not built in: the T9A unit tables are skipped"
fi
for faction in House_Stark House_Lannister Nights_Watch Neutral; do
    table "$data/bsdata-asoiaf/$faction.cat" "asoiaf-$faction"
done

# The Old World: every catalogue; a library of items or spells holds no unit
# and gets no table (the command refuses an empty one: exit 2, nothing written).
for cat in "$data"/tow/*.cat; do
    base=$(basename "$cat" .cat)
    name="tow-$(printf '%s' "$base" | sed 's/[^A-Za-z0-9][^A-Za-z0-9]*/_/g; s/_$//')"
    if "$bin" units "$cat" -o "$out/$name.csv" 2>"$out/$name.notes"; then
        "$bin" units "$cat" --quiet --format md -o "$out/$name.md" 2>/dev/null
        echo "units: wrote $out/$name.csv, $out/$name.md ($(tail -n 1 "$out/$name.notes" | sed 's/^chargesim units: //'))"
    elif grep -q 'no rows to write' "$out/$name.notes"; then
        rm -f "$out/$name.notes" "$out/$name.md"
        echo "units: $cat holds no unit (a library): no table"
    else
        cat "$out/$name.notes" >&2
        exit 1
    fi
done
for ext in png svg; do
    "$(dirname "$0")/units-chart" "$out/tow-Bretonnians.csv" \
        --title "The Old World, Kingdom of Bretonnia: 75% charge reach of every unit, by troop type" \
        -o "$out/tow-Bretonnians-reach.$ext"
done
echo "units: wrote $out/tow-Bretonnians-reach.png and .svg"
