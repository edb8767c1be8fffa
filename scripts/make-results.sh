#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/make-results.sh: regenerate results/ from experiments/*.ini
# (`make results`; with file arguments, only those experiments).
#
# For each experiment file experiments/NAME.ini it writes
#   results/NAME.csv   the summary CSV (`chargesim run`, one row per sweep point)
#   results/NAME.md    a Markdown pivot table of p_success (%) when the
#                      experiment sweeps two keys or more, else the summary
#   results/NAME.png   the chart (scripts/plot), and results/NAME.svg
# and then results/README.md, the gallery linking them all.
#
# A threat-map experiment (issue 20), marked
#   ; results: map [map-x=LO..HI:STEP] [map-y=LO..HI:STEP]
# gets `chargesim map` instead: results/NAME.csv (one row per cell) and the
# picture results/NAME.png; no Markdown table, and no SVG (a cell is a
# rectangle of its own there: over a megabyte per map).
#
# Skipped: files without an [experiment] section (unit mappings and other
# data), files whose name contains "mapping", and files marked
#   ; results: skip
#
# Steering. A comment line in the experiment file,
#   ; results: pivot=ROW:COL x=KEY y=COL[,COL] group=KEY[,KEY] where=KEY=VALUE[,VALUE]
# (any of the words, in any order, `where` repeatable, `#` also starts a
# comment) chooses the Markdown table's rows and columns (pivot=none keeps the
# plain summary) and the chart's x axis, what it draws (p_success by default,
# p_<outcome> or mean_<metric> columns), its curves and its filters: they are
# scripts/plot's --x, --y, --group and --where. Words this script does not
# know are errors, so a typo never falls back silently. Without it:
#   pivot   columns `distance` when swept, else the second swept key of the
#           file; rows the other swept key with the most values (the first
#           of the file on a tie: `move:distance` as in `make run`); further
#           swept keys give one table per combination of their values;
#   chart   x `distance` when swept (else the numeric key with the most
#           values), one curve per combination of the other swept keys while
#           that makes at most 12 curves; keys beyond that are shown at their
#           first value (the gallery says so); with no swept key, the chart is
#           the distribution of the outcomes.
#
# Compare experiments. A steering line with the word `compare` and one or
# more `b=KEY=VALUE` words runs `chargesim compare EXP --b KEY=VALUE ...`
# instead: results/NAME.csv (one row per sweep point: p_success_a, _b,
# delta and its paired interval), results/NAME.md (--format md) and the
# diverging chart of delta against x= (default distance).
#
# Reproducible: the CSV and Markdown bytes depend only on the experiment
# files and the binary (fixed seeds, results independent of the thread
# count). The charts carry no date; SVG bytes depend on gnuplot's version,
# PNG pixels also on cairo and the DejaVu fonts: on another Debian release a
# chart may differ by its antialiasing while every number stays the same.
#
# Exit status: 0 done, 2 a bad experiment or steering line, 1 a tool failed.
set -eu
LC_ALL=C
export LC_ALL

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=bin/chargesim
plot=scripts/plot
out=results
[ -x "$bin" ] || { echo "make-results: $bin is missing: run make first" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-results.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

die() {
    echo "make-results: $*" >&2
    exit 2
}

full=1
if [ $# -gt 0 ]; then
    files=$*
    full=0
else
    files=$(ls experiments/*.ini 2>/dev/null || true)
fi

# A value of [experiment] (key = value; inline `;` comments removed).
ini_value() {
    awk -v want="$2" '
        /^[ \t]*\[/ { sec = $0; gsub(/[][ \t]/, "", sec); next }
        sec == "experiment" && /^[ \t]*[^;#]/ {
            eq = index($0, "=")
            if (!eq) next
            k = substr($0, 1, eq - 1); gsub(/^[ \t]+|[ \t]+$/, "", k)
            if (k != want) next
            v = substr($0, eq + 1); sub(/[ \t];.*$/, "", v); gsub(/^[ \t]+|[ \t]+$/, "", v)
            print v; exit
        }' "$1"
}

gallery="$tmp/gallery.md" index="$tmp/index.md"
: >"$gallery"
: >"$index"
n_done=0
for exp in $files; do
    name=$(basename "$exp" .ini)
    case $name in
    *mapping*) echo "make-results: skip $exp (a mapping)"; continue ;;
    esac
    if ! grep -q '^[ \t]*\[experiment\]' "$exp"; then
        echo "make-results: skip $exp (no [experiment] section)"
        continue
    fi

    # The steering words, checked one by one.
    pivot='' x='' y='' group='' skip=0 map=0 mapx='' mapy='' compare=0 bargs=''
    : >"$tmp/wheres"
    directives=$(awk '/^[;#][ \t]*results:/ { sub(/^[;#][ \t]*results:/, ""); print NR "\t" $0 }' "$exp")
    if [ -n "$directives" ]; then
        printf '%s\n' "$directives" >"$tmp/directives"
        set -f
        while IFS="$(printf '\t')" read -r line words; do
            for w in $words; do
                case $w in
                skip) skip=1 ;;
                map) map=1 ;;
                map-x=?*) mapx=${w#map-x=} ;;
                map-y=?*) mapy=${w#map-y=} ;;
                compare) compare=1 ;;
                b=?*=?*) bargs="$bargs --b ${w#b=}" ;;
                pivot=none) pivot=none ;;
                pivot=?*:?*) pivot=${w#pivot=} ;;
                x=?*) x=${w#x=} ;;
                y=?*) y=${w#y=} ;;
                group=?*) group=${w#group=} ;;
                where=?*=?*) printf '%s\n' "${w#where=}" >>"$tmp/wheres" ;;
                *) die "$exp:$line: unknown word '$w' in '; results:' (expected skip, map, map-x=, map-y=, compare, b=KEY=VALUE, pivot=ROW:COL, pivot=none, x=KEY, y=COL, group=KEY, where=KEY=VALUE)" ;;
                esac
            done
        done <"$tmp/directives"
        set +f
    fi
    if [ "$skip" = 1 ]; then
        echo "make-results: skip $exp (marked '; results: skip')"
        continue
    fi

    ruleset=$(ini_value "$exp" ruleset)
    description=$(ini_value "$exp" description)
    [ -n "$ruleset" ] || die "$exp: no ruleset in [experiment]"
    if [ "$map" = 1 ]; then
        [ -z "$pivot$x$y$group" ] && [ ! -s "$tmp/wheres" ] ||
            die "$exp: '; results: map' takes no pivot=, x=, y=, group= or where="
        set -- "$exp" --quiet
        [ -z "$mapx" ] || set -- "$@" --x "$mapx"
        [ -z "$mapy" ] || set -- "$@" --y "$mapy"
        echo "make-results: $exp (threat map)"
        "$bin" map "$@" -o "$out/$name.csv" --plot "$out/$name.png" || exit 1
        {
            printf '## %s\n\n' "$name"
            printf '%s (ruleset `%s`, threat map).\n\n' "${description:-$name}" "$ruleset"
            printf '![%s](%s.png)\n\n' "${description:-$name}" "$name"
            printf '[CSV](%s.csv) · [experiment](../%s)\n\n' "$name" "$exp"
            printf 'Reproduce: `%s map %s --plot %s.png`\n\n' "$bin" "$exp" "$name"
        } >>"$gallery"
        printf '| [%s](#%s) | `%s` | %s |\n' "$name" "$name" "$ruleset" "$(printf '%s' "${description:-$name}" | sed 's/|/\\|/g')" >>"$index"
        n_done=$((n_done + 1))
        continue
    fi
    echo "make-results: $exp"
    if [ "$compare" = 1 ]; then
        [ -n "$bargs" ] || die "$exp: '; results: compare' needs b=KEY=VALUE"
        set -f
        # shellcheck disable=SC2086 # the --b words, split on purpose
        "$bin" compare "$exp" $bargs --quiet -o "$out/$name.csv" || exit 1
        # shellcheck disable=SC2086
        "$bin" compare "$exp" $bargs --quiet --format md -o "$out/$name.md" || exit 1
        set +f
        md_cmd="$bin compare $exp$bargs --format md"
        title=${description:-$name}
        for ext in png svg; do
            "$plot" summary "$out/$name.csv" --x "${x:-distance}" --rules "$ruleset" --title "$title" \
                -o "$out/$name.$ext" ||
                die "$exp: the chart failed"
        done
        {
            printf '## %s\n\n' "$name"
            [ -z "$description" ] || printf '%s (ruleset `%s`; `chargesim compare`, B =%s).\n\n' "$description" "$ruleset" "$(printf '%s' "$bargs" | sed 's/ --b / /g')"
            printf '![%s](%s.png)\n\n' "$title" "$name"
            printf '[table](%s.md) · [CSV](%s.csv) · [SVG](%s.svg) · [experiment](../%s)\n\n' \
                "$name" "$name" "$name" "$exp"
            printf 'Reproduce: `%s`\n\n' "$md_cmd"
        } >>"$gallery"
        printf '| [%s](#%s) | `%s` | %s |\n' "$name" "$name" "$ruleset" "$(printf '%s' "${description:-$name}" | sed 's/|/\\|/g')" >>"$index"
        n_done=$((n_done + 1))
        continue
    fi
    "$bin" run "$exp" --quiet -o "$out/$name.csv" || exit 1

    # Swept keys (the columns before `trials`, but a KEY_label beside its
    # KEY: the [labels] of KEY): name, values, all numeric?
    awk -F ',' '
        NR == 1 {
            for (i = 1; i <= NF && $i != "trials"; i++) col[$i] = i
            for (i = 1; i <= NF && $i != "trials"; i++)
                if (!($i ~ /_label$/ && (substr($i, 1, length($i) - 6) in col))) {
                    key[++n] = $i; kc[n] = i
                }
            next
        }
        {
            for (i = 1; i <= n; i++) {
                v = $kc[i]
                if (!((i, v) in seen)) { seen[i, v] = 1; cnt[i]++; if (cnt[i] == 1) first[i] = v }
                if (v !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) text[i] = 1
            }
        }
        END { for (i = 1; i <= n; i++) printf "%s\t%d\t%d\t%s\n", key[i], cnt[i], text[i] ? 0 : 1, first[i] }' \
        "$out/$name.csv" >"$tmp/keys"
    n_sweep=$(wc -l <"$tmp/keys")

    # The Markdown table.
    if [ -z "$pivot" ] && [ "$n_sweep" -ge 2 ]; then
        pivot=$(awk -F '\t' '{ k[NR] = $1; n[NR] = $2; if ($1 == "distance") c = NR }
            END {
                if (!c) c = 2
                for (i = 1; i <= NR; i++) if (i != c && (!r || n[i] > n[r])) r = i
                print k[r] ":" k[c]
            }' "$tmp/keys")
    fi
    if [ -n "$pivot" ] && [ "$pivot" != none ]; then
        md_cmd="$bin run $exp --format md --pivot $pivot"
        "$bin" run "$exp" --quiet --format md --pivot "$pivot" -o "$out/$name.md" || exit 1
    else
        md_cmd="$bin run $exp --format md"
        "$bin" run "$exp" --quiet --format md -o "$out/$name.md" || exit 1
    fi

    # The chart.
    title=${description:-$name}
    caveat=
    if [ "$n_sweep" -eq 0 ]; then
        "$bin" run "$exp" --quiet --dist "$tmp/dist.csv" -o "$tmp/summary.csv" || exit 1
        set -- dist "$tmp/dist.csv" --metric outcome
        [ -z "$x$y$group" ] || die "$exp: x=, y= and group= need a swept key; this experiment sweeps none"
    else
        if [ -z "$x" ]; then
            x=$(awk -F '\t' '
                $1 == "distance" { d = $1 }
                $3 == 1 && $2 > best { best = $2; b = $1 }
                NR == 1 { f = $1 }
                END { print d != "" ? d : b != "" ? b : f }' "$tmp/keys")
        fi
        if [ -z "$group" ] && [ ! -s "$tmp/wheres" ]; then
            # Curves for the other keys while at most 12; the rest fixed.
            awk -F '\t' -v x="$x" -v fixed="$tmp/wheres" '
                $1 != x {
                    if (prod * $2 <= 12 || prod == 0 && $2 <= 12) {
                        g = g (g == "" ? "" : ",") $1; prod = (prod ? prod : 1) * $2
                    } else print $1 "=" $4 > fixed
                }
                END { print g }' "$tmp/keys" >"$tmp/group"
            group=$(cat "$tmp/group")
            [ ! -s "$tmp/wheres" ] || caveat=$(awk -F '=' '{ s = s (s == "" ? "" : ", ") $1 " = " $2 }
                END { print "The chart shows " s " only; the table and the CSV have every value." }' \
                "$tmp/wheres")
        fi
        set -- summary "$out/$name.csv" --x "$x"
        [ -z "$y" ] || set -- "$@" --y "$y"
        [ -z "$group" ] || set -- "$@" --group "$group"
    fi
    while IFS= read -r w; do
        set -- "$@" --where "$w"
    done <"$tmp/wheres"
    # The chart's title says which values it keeps.
    [ ! -s "$tmp/wheres" ] || title="$title ($(awk '{ i = index($0, "=")
        s = s (NR > 1 ? ", " : "") substr($0, 1, i - 1) " = " substr($0, i + 1) } END { print s }' \
        "$tmp/wheres"))"
    for ext in png svg; do
        "$plot" "$@" --rules "$ruleset" --title "$title" -o "$out/$name.$ext" ||
            die "$exp: the chart failed (steer it with a '; results:' line, see scripts/make-results.sh)"
    done

    {
        printf '## %s\n\n' "$name"
        [ -z "$description" ] || printf '%s (ruleset `%s`).\n\n' "$description" "$ruleset"
        [ -n "$description" ] || printf 'Ruleset `%s`.\n\n' "$ruleset"
        printf '![%s](%s.png)\n\n' "$title" "$name"
        [ -z "$caveat" ] || printf '%s\n\n' "$caveat"
        printf '[table](%s.md) · [CSV](%s.csv) · [SVG](%s.svg) · [experiment](../%s)\n\n' \
            "$name" "$name" "$name" "$exp"
        printf 'Reproduce: `%s`\n\n' "$md_cmd"
    } >>"$gallery"
    printf '| [%s](#%s) | `%s` | %s |\n' "$name" "$name" "$ruleset" "$(printf '%s' "${description:-$name}" | sed 's/|/\\|/g')" >>"$index"
    n_done=$((n_done + 1))
done

# The Old World's unit tables (scripts/units-results.sh): the chart of one
# army and a line per catalogue, in file name order.
tow_gallery() {
    printf '## The Old World: every army, unit by unit\n\n'
    printf 'Every unit of every catalogue of [data/tow](../data/tow/) (the community BattleScribe\n'
    printf 'data), through the mapping [tow.ini](../experiments/mappings/tow.ini): ruleset\n'
    printf '`generic`, preset `tow` (M + the highest of 2D6; Swiftstride adds a D6 to it), head-on,\n'
    printf 'exact. A character who may choose a mount has a row per choice, `Duke (on Hippogryph)`; a\n'
    printf 'unit that flies has a second row at its Fly (X), `(flying)`; a unit the data leaves no plain M\n'
    printf '(a dice move, two that differ) is left out, named in the notes with why.\n\n'
    printf '![The Old World, Kingdom of Bretonnia: 75%% charge reach by troop type](units/tow-Bretonnians-reach.png)\n\n'
    printf '[SVG](units/tow-Bretonnians-reach.svg) · chart: `scripts/units-chart results/units/tow-Bretonnians.csv -o reach.png`\n\n'
    printf '| catalogue | rows (a unit, or a unit on one mount) | table | notes |\n| --- | --- | --- | --- |\n'
    for md in "$out"/units/tow-*.md; do
        [ -e "$md" ] || continue
        n=$(basename "$md" .md)
        printf '| %s | %s | [md](units/%s.md) · [CSV](units/%s.csv) | [notes](units/%s.notes) |\n' \
            "$(sed -n '2p' "$out/units/$n.csv" | awk -F, '{ print $1 }' | sed 's/"//g')" \
            "$(tail -n 1 "$out/units/$n.notes" | sed 's/^chargesim units: //; s/ units in the table.*//')" \
            "$n" "$n" "$n"
    done
    printf '\nReproduce one: `bin/chargesim units data/tow/Bretonnians.cat --format md` (quote a\n'
    printf 'file name with spaces: `bin/chargesim units "data/tow/Dark Elves.cat"`).\n\n'
}

# Unit tables of real armies, from the BattleScribe data under data/, before
# the gallery, which lists The Old World's.
if [ "$full" = 1 ]; then
    "$(dirname "$0")/units-results.sh" "$bin"
fi

# The gallery, only for a full run (a partial run would drop experiments).
# Hand-written notes (what changed in the numbers and why) sit in the README
# between a line `<!-- notes -->` and a line `<!-- /notes -->`; they are kept,
# at the end of the README, after the results.
if [ "$full" = 1 ]; then
    if [ -f "$out/README.md" ]; then
        awk '/^<!-- notes -->$/ { on = 1 } on { print } /^<!-- \/notes -->$/ { on = 0 }' \
            "$out/README.md" >"$tmp/notes"
    else
        : >"$tmp/notes"
    fi
    {
        printf '# Results\n\n'
        printf 'Every experiment under [experiments/](../experiments/) run with its own\n'
        printf 'seed: a CSV (one row per sweep point), a Markdown table and a chart\n'
        printf '(PNG and SVG). Regenerate them all with `make results`\n'
        printf '(scripts/make-results.sh); the same sources give the same bytes.\n'
        printf 'Unless a chart says otherwise, percentages are the chance that the\n'
        printf 'charge succeeds as the ruleset defines it (`bin/chargesim rules NAME`\n'
        printf 'lists its outcomes); shaded bands and error bars are confidence\n'
        printf 'intervals where a value was sampled. An exact row (method `exact`)\n'
        printf 'leaves `trials` and `successes` empty: it enumerates every roll of\n'
        printf 'the dice and ran no trial, so it claims no count.'
        [ ! -s "$tmp/notes" ] || printf ' What changed in the numbers, and why:\n[at the end](#what-changed-and-why).'
        printf '\n\n'
        printf '| experiment | ruleset | question |\n| --- | --- | --- |\n'
        cat "$index"
        printf '\n'
        printf 'Per-unit charge tables of real armies (BattleScribe data from\n'
        printf '[data/](../data/)): [units/](units/), and The Old World'"'"'s [below](#the-old-world-every-army-unit-by-unit).\n\n'
        cat "$gallery"
        tow_gallery
        # The change notes last: a reader comes for the results.
        [ ! -s "$tmp/notes" ] || cat "$tmp/notes"
    } >"$tmp/README.md"
    mv -f "$tmp/README.md" "$out/README.md"
fi
echo "make-results: $n_done experiments written to $out/"
