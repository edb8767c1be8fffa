#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make tsan: proves the ThreadSanitizer build can see a race in OpenMP code,
# then runs chargesim's threaded paths under it and fails on any report.
# Usage: scripts/tsan.sh BIN RACE
#   BIN   chargesim built with clang, -fopenmp=libomp, -fsanitize=thread
#   RACE  tests/tsan/race.c built the same way (a planted race)
#
# Why this setup (issue 16): gcc's libgomp is not instrumented, so TSan
# cannot see the barriers of an OpenMP region and reports false races on
# them; suppressing those (race:libgomp.so, or our own function names) also
# hides real races. LLVM's runtime ships Archer, an OpenMP tool that tells
# TSan about OpenMP's synchronisation (region fork and join, barriers,
# atomics, critical sections). ignore_noninstrumented_modules=1 drops the
# accesses made inside libomp, libcsv, libxml2 and libc, which are not
# instrumented. Nothing is suppressed: there is no suppressions file.
set -eu
bin=$1
race=$2
dir=$(cd "$(dirname "$0")/.." && pwd)
archer=${ARCHER:-/usr/lib/llvm-14/lib/libarcher.so}
if [ ! -r "$archer" ]; then
    echo "tsan: Archer not found at $archer (Debian: libomp-14-dev; or set ARCHER=path)" >&2
    exit 1
fi
export OMP_TOOL_LIBRARIES="$archer"
export TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 exitcode=66"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The planted race must be reported, and in our function: a build or an
#    environment that hides it (no Archer, a suppression) fails here.
status=0
ARCHER_OPTIONS=verbose=1 "$race" >"$tmp/race.out" 2>"$tmp/race.err" || status=$?
if [ "$status" -ne 66 ] || ! grep -q 'WARNING: ThreadSanitizer: data race' "$tmp/race.err" ||
    ! grep -q 'add_block' "$tmp/race.err"; then
    echo "tsan: the planted race in tests/tsan/race.c was NOT reported (exit $status):" >&2
    cat "$tmp/race.out" "$tmp/race.err" >&2
    echo "tsan: this build cannot see races, so a clean run below would prove nothing" >&2
    exit 1
fi
if ! grep -q 'Archer detected OpenMP application with TSan' "$tmp/race.out" "$tmp/race.err"; then
    echo "tsan: Archer did not load ($archer)" >&2
    exit 1
fi
echo "tsan: the planted race (tests/tsan/race.c, add_block) is reported"

# 2. The product's threaded paths must report nothing.
ini=$dir/experiments/default.ini
for t in 2 7; do
    "$bin" run "$ini" --method mc --trials 20000 --threads $t -o "$tmp/mc.csv" --dist "$tmp/mc-dist.csv"
    "$bin" run "$ini" --method conditional --trials 20000 --threads $t \
        --set distance='uniform(2,20)' -o "$tmp/cond.csv" --dist "$tmp/cond-dist.csv"
    "$bin" run "$dir/experiments/t9a-head-on-ed3.ini" --method exact --threads $t \
        -o "$tmp/exact.csv" --dist "$tmp/exact-dist.csv"
    "$bin" run "$ini" --method mc --trials 5000 --precision 0.01 --threads $t -o "$tmp/prec.csv"
    # rqmc: every thread reads the one Sobol point set, which --precision
    # grows between rounds.
    "$bin" run "$ini" --method rqmc --trials 4096 --precision 0.01 --threads $t \
        --set distance='uniform(2,20)' -o "$tmp/rqmc.csv"
    # compare's paired rqmc: A and B read the same point set, and B's
    # prepared points, from every thread.
    "$bin" compare "$dir/experiments/t9a-random-approach.ini" --b charge_speed=1 \
        --set maximised=0 --trials 2048 --precision 0.0005 --threads $t -o "$tmp/cmp-rqmc.csv"
    "$bin" compare "$ini" --b reroll=failed --method mc --trials 20000 \
        --set distance='uniform(2,20)' --threads $t -o "$tmp/cmp-mc.csv"
    "$bin" dice 3d6dl1 --trials 200000 --threads $t -o "$tmp/dice.csv"
    # A threat map with a drawn angle: every thread asks the map whether
    # each trial's target can stand (cs_sched_points.stands).
    for m in mc conditional rqmc; do
        "$bin" map "$dir/experiments/map-t9a.ini" --set 'angle=uniform(-45,45)' --method $m \
            --trials 512 --x -2..2:1 --y 0..3:1 --threads $t --quiet -o "$tmp/map.csv"
    done
    # --checkpoint (issue 34): threads take items in order under a lock and
    # stop taking them when a checkpoint is due (every 0.01 s here), then
    # the run goes on; and a run stopped by SIGTERM goes on from its file.
    "$bin" run "$ini" --method mc --trials 200000 --dist "$tmp/ck-dist.csv" --threads $t \
        --checkpoint "$tmp/ck" --checkpoint-every 0.01 --quiet -o "$tmp/ck.csv"
    # (Stopped once its output is open, that is mid-run; a run quick enough
    # to end first just ends: the stop is not what is tested here.)
    "$bin" run "$ini" --method mc --trials 8000000 --threads $t --checkpoint "$tmp/ck" \
        --quiet -o "$tmp/ck.csv" &
    job=$!
    for _ in $(seq 100); do
        ls -A "$tmp" | grep -q '^\.ck\.csv\.' && break
        sleep 0.1
    done
    sleep 0.5
    kill -TERM "$job" 2>/dev/null || true
    status=0
    wait "$job" || status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 143 ] || exit "$status"
    "$bin" run "$ini" --method mc --trials 8000000 --threads $t --checkpoint "$tmp/ck" \
        --quiet -o "$tmp/ck.csv"
done
echo "tsan: no data races reported (mc, conditional, exact, rqmc, --dist, --precision, compare, dice, map with drawn values, --checkpoint on 2 and 7 threads)"
