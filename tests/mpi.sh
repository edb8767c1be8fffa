#!/bin/sh
# Issue 22: bin/chargesim-mpi writes the bytes bin/chargesim writes, on 1, 2
# and 3 ranks and 1 or 2 threads per rank, with and without --precision;
# a bad input on 3 ranks gives one message, exit 2 and no file; a rank
# killed mid-run ends the job with no output file; bin/chargesim has no MPI
# in it. Usage: tests/mpi.sh BIN MPIBIN (run by make test-mpi).
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MPIBIN=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# Root in a container: Open MPI refuses to start without these. -q: no
# banner of mpirun's own when a rank ends with a non-zero status;
# --bind-to none: Open MPI binds a rank to one core, which would cap
# --threads 2 at 1 (and print a note bin/chargesim does not).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN="mpirun -q --oversubscribe --bind-to none"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# 1. The default binary stays free of MPI: no symbol, no library.
if nm "$BIN" | grep -Eq ' (P?MPI|ompi|opal)_'; then fail "bin/chargesim has MPI symbols"
elif ldd "$BIN" | grep -q libmpi; then fail "bin/chargesim links libmpi"
else pass "bin/chargesim: no MPI symbol nor library"; fi
if ls "$ROOT"/build/src/*/*.d >/dev/null 2>&1 &&
   grep -El '(^| |/)mpi\.h' "$ROOT"/build/src/*/*.d >/dev/null 2>&1; then
    fail "the default build includes mpi.h"
else pass "the default build never includes mpi.h"; fi

# 2. Byte for byte: a geometric experiment (random offset and angle) with
# --precision, mc and conditional, with --dist; dice sampled.
# Both binaries write to the same names with the same options: the
# provenance note of md and tex tables quotes the command line.
same() { # name, then the arguments after the binary
    name=$1; shift
    for th in 1 2; do
        # NOTH=1: a command without --threads (units), run once
        [ -n "${NOTH:-}" ] && [ "$th" -gt 1 ] && continue
        thr="--threads $th"; [ -n "${NOTH:-}" ] && thr=
        rm -f "$T/out" "$T/dist"
        "$BIN" "$@" $thr -o "$T/out" ${DIST:+--dist "$T/dist"} 2>"$T/ref.err"
        rc0=$?
        mv "$T/out" "$T/ref.out"
        [ -n "${DIST:-}" ] && mv "$T/dist" "$T/ref.dist"
        for np in 1 2 3; do
            [ "$np" -gt 1 ] && [ "$th" -gt 1 ] && continue  # 2 cores: enough
            rm -f "$T/out" "$T/dist"
            $MPIRUN -np "$np" "$MPIBIN" "$@" $thr -o "$T/out" \
                ${DIST:+--dist "$T/dist"} 2>"$T/mpi.err"
            rc=$?
            if [ "$rc" -ne "$rc0" ] || ! cmp -s "$T/ref.out" "$T/out" ||
               { [ -n "${DIST:-}" ] && ! cmp -s "$T/ref.dist" "$T/dist"; } ||
               ! cmp -s "$T/ref.err" "$T/mpi.err"; then
                fail "$name: $np ranks x $th threads differ from bin/chargesim (rc $rc vs $rc0)"
            else pass "$name: $np ranks x $th threads, same bytes"; fi
        done
    done
}
E=$ROOT/experiments/t9a-random-approach.ini
DIST=1 same "run mc --precision" run "$E" --method mc --trials 2000 --precision 0.02 --seed 7 --quiet
DIST=1 same "run conditional --precision" run "$E" --trials 500 --precision 0.004 --seed 3 --quiet
DIST= same "run mc" run "$E" --method mc --trials 30000 --seed 11 --quiet --format md --pivot distance:maximised
DIST=1 same "run exact --dist" run "$ROOT/experiments/coreheim-diving.ini" --trials 3000 --seed 2 --quiet
DIST= same "dice sampled" dice 3d6+2d10 --trials 300000 --seed 5
DIST= NOTH=1 same "units" units "$ROOT/tests/data/units/units.csv"
# rerun (a metadata file's run again): the same bytes on 3 ranks.
"$BIN" run "$E" --method mc --trials 2000 --seed 4 --quiet -o "$T/r.csv"
"$BIN" rerun "$T/r.csv-metadata.json" -o "$T/out" && mv "$T/out" "$T/ref.out"
$MPIRUN -np 3 "$MPIBIN" rerun "$T/r.csv-metadata.json" -o "$T/out"
if cmp -s "$T/ref.out" "$T/out"; then pass "rerun: 3 ranks, same bytes"
else fail "rerun: 3 ranks differ from bin/chargesim"; fi
# compare (paired variants) and map (threat maps, with the picture).
DIST= same "compare conditional --precision" compare "$E" --b charge_speed=1 --trials 400 --precision 0.01 --seed 6 --quiet
DIST= same "compare mc" compare "$E" --b charge_speed=1 --method mc --trials 20000 --seed 8 --quiet --format md
DIST= same "map" map "$ROOT/experiments/map-t9a.ini" --x -6..6:1 --y 0..12:1 --quiet
"$BIN" map "$ROOT/experiments/map-t9a.ini" --x -6..6:1 --y 0..12:1 --quiet --plot "$T/ref.png" -o "$T/ref.map"
$MPIRUN -np 3 "$MPIBIN" map "$ROOT/experiments/map-t9a.ini" --x -6..6:1 --y 0..12:1 --quiet --plot "$T/m.png" -o "$T/m.map"
if cmp -s "$T/ref.png" "$T/m.png" && cmp -s "$T/ref.map" "$T/m.map"; then pass "map with --plot: 3 ranks, same bytes"
else fail "map with --plot: 3 ranks differ from bin/chargesim"; fi

# 3. A bad experiment on 3 ranks: the message bin/chargesim gives, once;
# exit 2; no file.
printf '[experiment]\nruleset = t9a\ntrials = 100\nbogus = 1\n[params]\ndistance = 5\n' >"$T/bad.ini"
mkdir "$T/outdir"
"$BIN" run "$T/bad.ini" -o "$T/outdir/x.csv" 2>"$T/ref.err"
rc0=$?
$MPIRUN -np 3 "$MPIBIN" run "$T/bad.ini" -o "$T/outdir/x.csv" 2>"$T/mpi.err" >"$T/mpi.stdout"
rc=$?
if [ "$rc0" -ne 2 ] || [ "$rc" -ne 2 ]; then fail "bad experiment: exit $rc (bin/chargesim $rc0), expected 2"
elif ! cmp -s "$T/ref.err" "$T/mpi.err" || [ "$(wc -l <"$T/mpi.err")" -ne 1 ]; then
    fail "bad experiment: messages differ or not once:"; cat "$T/mpi.err"
elif [ -n "$(ls -A "$T/outdir")" ] || [ -s "$T/mpi.stdout" ]; then fail "bad experiment: files left"
else pass "bad experiment on 3 ranks: one message, exit 2, no file"; fi

# 4. An output only rank 0 checks (its directory is missing): rank 0's
# verdict ends every rank, once, with exit 2.
"$BIN" run "$E" --trials 100 -o "$T/nodir/x.csv" 2>"$T/ref.err"
rc0=$?
$MPIRUN -np 3 "$MPIBIN" run "$E" --trials 100 -o "$T/nodir/x.csv" 2>"$T/mpi.err"
rc=$?
if [ "$rc" -ne "$rc0" ] || [ "$rc" -ne 2 ] || ! cmp -s "$T/ref.err" "$T/mpi.err"; then
    fail "missing output directory: exit $rc (bin/chargesim $rc0)"; cat "$T/mpi.err"
else pass "missing output directory on 3 ranks: one message, exit 2"; fi

# 5. A rank killed mid-run: the job ends, not 0, no output nor temporary file.
$MPIRUN -np 3 "$MPIBIN" run "$E" --method mc --trials 4000000 --threads 1 --quiet \
    -o "$T/outdir/long.csv" 2>"$T/kill.err" &
job=$!
victim=
for _ in $(seq 100); do
    sleep 0.1
    for p in $(pgrep -f "chargesim-mpi run"); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
            victim=$p
        fi
    done
    [ -n "$victim" ] && break
done
sleep 0.5
[ -n "$victim" ] && kill -KILL "$victim"
wait "$job"
rc=$?
if [ -z "$victim" ]; then fail "rank killed: rank 1 not found"
elif [ "$rc" -eq 0 ]; then fail "rank killed: exit 0"
elif [ -n "$(ls -A "$T/outdir")" ]; then fail "rank killed: files left: $(ls -A "$T/outdir")"
else pass "rank 1 killed mid-run: exit $rc, no file left"; fi

[ "$fails" -eq 0 ] && echo "tests/mpi.sh: all passed" && exit 0
echo "tests/mpi.sh: $fails failed"
exit 1
