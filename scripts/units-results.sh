#!/bin/sh
# Unit tables for list-builders (issue 9): every unit of two T9A 2nd-edition
# armies and of the four ASOIAF factions, from the BattleScribe data in
# data/ (copied into the repository, each set's source named in its README),
# as CSV and Markdown under results/units/.
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
