#!/bin/sh
# Runs the threaded code paths of a ThreadSanitizer build of chargesim and
# fails on any race report. Usage: scripts/tsan.sh BIN
set -eu
bin=$1
dir=$(cd "$(dirname "$0")/.." && pwd)
export TSAN_OPTIONS="suppressions=$dir/scripts/tsan.supp halt_on_error=1 exitcode=66"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in 2 7; do
    "$bin" run "$dir/experiments/default.ini" --method mc --trials 20000 --threads $t -o "$tmp/mc.csv" --dist "$tmp/mc-dist.csv"
    "$bin" run "$dir/experiments/default.ini" --method conditional --trials 20000 --threads $t \
        --set distance='uniform(2,20)' -o "$tmp/cond.csv" --dist "$tmp/cond-dist.csv"
    "$bin" run "$dir/experiments/default.ini" --method mc --trials 5000 --precision 0.01 --threads $t -o "$tmp/prec.csv"
    "$bin" dice 3d6dl1 --trials 200000 --threads $t -o "$tmp/dice.csv"
done
echo "tsan: no data races reported (mc, conditional, --dist, --precision, dice on 2 and 7 threads)"
