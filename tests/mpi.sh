#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 22: bin/chargesim-mpi writes the bytes bin/chargesim writes, on 1, 2
# and 3 ranks and 1 or 2 threads per rank, with and without --precision;
# a bad input on 3 ranks gives one message, exit 2 and no file; rank 0
# alone reads the inputs (the others need not see them); a rank killed
# mid-run ends the job with exit status 1 and no output nor temporary file;
# bin/chargesim has no MPI in it; --checkpoint on 2 ranks survives SIGKILL
# and SIGTERM. Usage: tests/mpi.sh BIN MPIBIN (run by
# make test-mpi).
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
# Every wait below, times $CS_TEST_TIME_SCALE (a whole number, at least 1),
# as the C tests scale theirs: a slow machine waits longer, never fails.
S=$(awk -v k="${CS_TEST_TIME_SCALE:-1}" 'BEGIN { k = int(k + 0.999); print (k < 1 ? 1 : k) }')
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# 1. The default binary stays free of MPI: no symbol, no library.
if nm "$BIN" | grep -Eq ' (P?MPI|ompi|opal)_'; then fail "bin/chargesim has MPI symbols"
elif ldd "$BIN" | grep -q libmpi; then fail "bin/chargesim links libmpi"
else pass "bin/chargesim: no MPI symbol nor library"; fi
deps=$(find "$ROOT"/build/src -name '*.d' 2>/dev/null)
# shellcheck disable=SC2086 # a list of files
if [ -n "$deps" ] && grep -El '(^| |/)mpi\.h' $deps >/dev/null 2>&1; then
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
DIST= same "compare conditional --precision" compare "$E" --b charge_speed=1 --method conditional --trials 400 --precision 0.01 --seed 6 --quiet
DIST= same "compare rqmc --precision" compare "$E" --b charge_speed=1 --trials 512 --precision 0.003 --seed 6 --quiet --format md
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

# 5. Rank 0 alone reads the inputs (issue 22): every rank starts in a
# directory of its own and only rank 0's holds the inputs, named relative
# to it. The others hold a FIFO in place of each input file: a rank that
# opened one would wait for a writer that never comes, and the job would
# not end (timeout). The job must write bin/chargesim's bytes (run in a
# copy of rank 0's directory with the same arguments), rank 0 alone
# writing. Covered: an experiment (its digest in the metadata and the
# note), a units CSV with a mapping directory, BattleScribe (a folder: the
# listing, the .gst found beside the .cat, the mapping named by
# CS_MAPPINGS) and rerun's metadata, a --dist table's too (the other ranks
# get a TMPDIR they cannot write in: they must make no directory for the
# summary rerun puts aside).
mkdir -p "$T/ref" "$T/rank0" "$T/rank1" "$T/rank2"
for d in "$T/ref" "$T/rank0"; do
    cp "$E" "$d/exp.ini"
    cp "$ROOT/tests/data/units/units.csv" "$d/units.csv"
    cp -r "$ROOT/tests/data/units/mappings" "$d/maps"
    mkdir "$d/bs" && cp "$ROOT/tests/data/units/new.cat" "$ROOT/tests/data/units/new.gst" "$d/bs/"
done
(cd "$T/ref" && "$BIN" run exp.ini --method mc --trials 2000 --seed 4 --quiet -o r.csv \
    --dist d.csv) && cp "$T/ref/r.csv-metadata.json" "$T/ref/d.csv-metadata.json" "$T/rank0/"
for d in "$T/rank1" "$T/rank2"; do
    mkdir "$d/maps" "$d/bs"
    for f in exp.ini units.csv r.csv-metadata.json d.csv-metadata.json maps/new.ini \
             maps/old.ini bs/new.cat bs/new.gst; do
        mkfifo "$d/$f"
    done
done
find "$T/rank1" "$T/rank2" | sort >"$T/decoys"
ranked() { # name, the files to compare, then the arguments after the binary
    name=$1 files=$2; shift 2
    (cd "$T/ref" && "$BIN" "$@") >"$T/ref.stdout" 2>"$T/ref.err"
    rc0=$?
    # A temporary directory only rank 0 can make: the others must not try.
    timeout -k 10 $((60 * S)) $MPIRUN -np 3 sh -c 'cd "$0/rank$OMPI_COMM_WORLD_RANK" &&
        { [ "$OMPI_COMM_WORLD_RANK" = 0 ] || export TMPDIR=/nonexistent/tmp; } && exec "$@"' \
        "$T" "$MPIBIN" "$@" >"$T/mpi.stdout" 2>"$T/mpi.err"
    rc=$?
    bad=
    for f in $files; do
        cmp -s "$T/ref/$f" "$T/rank0/$f" || bad="$bad $f"
        rm -f "$T/ref/$f" "$T/rank0/$f"
    done
    if [ "$rc" -ne "$rc0" ] || [ -n "$bad" ] || ! cmp -s "$T/ref.err" "$T/mpi.err" ||
       ! cmp -s "$T/ref.stdout" "$T/mpi.stdout"; then
        fail "$name: inputs on rank 0 only: exit $rc (bin/chargesim $rc0), differ:$bad"
        cat "$T/mpi.err"
    elif ! find "$T/rank1" "$T/rank2" ! -name only.ini | sort | cmp -s - "$T/decoys"; then
        fail "$name: a rank other than 0 wrote: $(find "$T/rank1" "$T/rank2" -type f)"
    else pass "$name: inputs on rank 0 only, 3 ranks: exit $rc, same bytes"; fi
}
ranked "run" "out.csv out.csv-metadata.json" \
    run exp.ini --method mc --trials 2000 --seed 4 --quiet -o out.csv
ranked "run md (digest in the note)" "out.md" \
    run exp.ini --trials 300 --seed 5 --quiet --format md -o out.md
ranked "units CSV" "u.csv u.csv-metadata.json" units units.csv --mapping maps -o u.csv
export CS_MAPPINGS=maps/new.ini
ranked "units BattleScribe folder" "b.csv b.csv-metadata.json" units bs -o b.csv
unset CS_MAPPINGS
ranked "rerun" "rr.csv rr.csv-metadata.json" rerun r.csv-metadata.json -o rr.csv
# (The distributions' metadata names rerun's private summary file: not compared.)
ranked "rerun --dist" "rd.csv" rerun d.csv-metadata.json -o rd.csv
ranked "missing experiment" "" run nothere.ini -o x.csv
# The file only on ranks 1 and 2: rank 0's verdict (cannot open), once.
cp "$E" "$T/rank1/only.ini" && cp "$E" "$T/rank2/only.ini"
ranked "experiment on the other ranks only" "" run only.ini -o x.csv
rm -f "$T/rank1/only.ini" "$T/rank2/only.ini"
if [ "$(wc -l <"$T/mpi.err")" -eq 1 ] && grep -q '^chargesim run: only.ini: cannot open' "$T/mpi.err"
then pass "experiment on ranks 1 and 2 only: rank 0's one message"
else fail "experiment on ranks 1 and 2 only: $(cat "$T/mpi.err")"; fi

# 6. A rank that dies ends the run with exit status 1 and no partial file:
# its process (the child of the supervisor bin/chargesim-mpi forks) killed
# by SIGKILL mid-run, rank 1 then rank 0; rank 0 holds the temporary files,
# which its supervisor removes. The job is over when mpirun has returned and
# none of its processes is left.
rank_pid() { # rank, a word of the command line: the pid of that rank
    for p in $(pgrep -f "$2"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1" ||
            continue
        pp=$(ps -o ppid= -p "$p" | tr -d ' ')
        [ "$(cat "/proc/$pp/comm" 2>/dev/null)" = chargesim-mpi ] && echo "$p" && return
    done
}
killed() { # rank, and "supervisor" to kill that rank's supervisor instead
    out="$T/outdir/long$1.csv"
    $MPIRUN -np 3 "$MPIBIN" run "$E" --method mc --trials 4000000 --threads 1 --quiet \
        -o "$out" 2>"$T/kill.err" &
    job=$!
    victim=
    for _ in $(seq $((200 * S))); do
        sleep 0.1
        victim=$(rank_pid "$1" "$out")
        # mid-run: rank 0 has opened its outputs (their temporaries exist)
        [ -n "$victim" ] && [ -n "$(ls -A "$T/outdir")" ] && break
    done
    [ -n "${2:-}" ] && [ -n "$victim" ] && victim=$(ps -o ppid= -p "$victim" | tr -d ' ')
    [ -n "$victim" ] && kill -KILL "$victim"
    wait "$job"
    rc=$?
    for _ in $(seq $((100 * S))); do
        pgrep -f "$out" >/dev/null || break
        sleep 0.1
    done
    what="rank $1${2:+'s supervisor}"
    if [ -z "$victim" ]; then fail "$what killed: its process not found"
    elif pgrep -f "$out" >/dev/null; then fail "$what killed: processes left"
    elif [ -n "$(ls -A "$T/outdir")" ]; then fail "$what killed: files left: $(ls -A "$T/outdir")"
    elif [ -n "${2:-}" ]; then
        # No process is left to turn this into status 1: mpirun's own status.
        if [ "$rc" -eq 0 ]; then fail "$what killed: exit 0"
        else pass "$what killed by SIGKILL mid-run: exit $rc, no file nor temporary left"; fi
    elif [ "$rc" -ne 1 ]; then fail "$what killed: exit $rc, expected 1"
    elif [ "$(grep -c "^chargesim: MPI rank $1 was killed by signal 9" "$T/kill.err")" -ne 1 ]; then
        fail "$what killed: not one line naming it:"; cat "$T/kill.err"
    else pass "$what killed by SIGKILL mid-run: exit 1, one line, no file nor temporary left"; fi
}
killed 1
killed 0
killed 0 supervisor

# 7. --checkpoint on 2 ranks (issue 34). The whole job (mpirun, the
# supervisors, the ranks: one session, started by setsid) is killed by
# SIGKILL after a random delay, 10 times, started again after each, then
# let finish: bin/chargesim's bytes for the same command, CSV and metadata.
# Then SIGTERM to rank 1 alone: the ranks agree to stop, rank 0 writes a
# last checkpoint and says how to go on, once; that checkpoint goes on under
# 3 ranks, and under bin/chargesim, to the same bytes; the file is removed.
CK="run $E --method mc --trials 60000 --precision 0.003 --threads 1 --quiet"
mkdir -p "$T/ck"
(cd "$T/ck" && "$BIN" $CK -o out.csv --checkpoint ck --checkpoint-every 0.05) &&
    mv "$T/ck/out.csv" "$T/ck/ref.csv" && mv "$T/ck/out.csv-metadata.json" "$T/ck/ref.json"
start=$(date +%s%N)
(cd "$T/ck" && $MPIRUN -np 2 "$MPIBIN" $CK -o out.csv --checkpoint ck --checkpoint-every 0.05)
whole=$(( ($(date +%s%N) - start) / 1000000 ))   # ms, uninterrupted on 2 ranks
rm -f "$T/ck/out.csv" "$T/ck/out.csv-metadata.json"
found=0
for i in $(seq 10); do
    (cd "$T/ck" && exec setsid $MPIRUN -np 2 "$MPIBIN" $CK -o out.csv --checkpoint ck \
        --checkpoint-every 0.05 2>/dev/null) &
    job=$!
    ms=$(( 400 + $(od -An -N2 -tu2 /dev/urandom) % (whole * 12 / 100 + 1) ))
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    sid=$(ps -o sid= -p "$job" 2>/dev/null | tr -d ' ')
    # setsid's child is mpirun: the session is its pid
    for p in $(ps -eo pid=,sid= | awk -v s="${sid:-x}" '$2 == s { print $1 }'); do
        kill -KILL "$p" 2>/dev/null
    done
    wait "$job" 2>/dev/null
    for _ in $(seq $((50 * S))); do
        [ -z "$(ps -eo sid= | awk -v s="${sid:-x}" '$1 == s')" ] && break
        sleep 0.1
    done
    [ -f "$T/ck/ck" ] && found=$((found + 1))
done
(cd "$T/ck" && $MPIRUN -np 2 "$MPIBIN" $CK -o out.csv --checkpoint ck --checkpoint-every 0.05 \
    2>"$T/ck.err")
rc=$?
if [ "$rc" -ne 0 ] || ! cmp -s "$T/ck/ref.csv" "$T/ck/out.csv" ||
   ! cmp -s "$T/ck/ref.json" "$T/ck/out.csv-metadata.json"; then
    fail "checkpoint, SIGKILL x 10 on 2 ranks: exit $rc, or not bin/chargesim's bytes"
    cat "$T/ck.err"
elif [ "$found" -eq 0 ]; then fail "checkpoint, SIGKILL x 10 on 2 ranks: no checkpoint found"
elif [ -f "$T/ck/ck" ]; then fail "checkpoint, SIGKILL x 10 on 2 ranks: the checkpoint stays"
else pass "checkpoint: whole job SIGKILLed 10 times on 2 ranks ($found with a checkpoint), resumed: bin/chargesim's bytes"; fi
rm -f "$T/ck/out.csv" "$T/ck/out.csv-metadata.json" "$T/ck/.ck."*
# SIGTERM to rank 1 alone (once rank 0 has opened its outputs, their
# temporaries exist: mid-run): the ranks agree to stop, and rank 0, which
# got no signal, writes the checkpoint and names the signal.
(cd "$T/ck" && exec $MPIRUN -np 2 "$MPIBIN" $CK -o term.csv --checkpoint ck 2>"$T/ck.err") &
job=$!
victim=
for _ in $(seq $((100 * S))); do
    victim=$(rank_pid 1 term.csv)
    [ -n "$victim" ] && ls -A "$T/ck" | grep -q '^\.term\.csv\.' && break
    sleep 0.1
done
sleep 0.2
[ -n "$victim" ] && kill -TERM "$victim"
wait "$job"
said=$(grep -c '^chargesim run: stopped by SIGTERM: the checkpoint ck is written' "$T/ck.err")
if [ ! -f "$T/ck/ck" ] || [ -f "$T/ck/term.csv" ] || [ "$said" -ne 1 ]; then
    fail "checkpoint, SIGTERM to rank 1 of 2: no checkpoint, an output, or not one message:"
    cat "$T/ck.err"
else
    cp "$T/ck/ck" "$T/ck/ck.saved"
    (cd "$T/ck" && $MPIRUN -np 3 "$MPIBIN" $CK -o out.csv --checkpoint ck 2>/dev/null)
    rc3=$?
    three=$(cmp -s "$T/ck/ref.csv" "$T/ck/out.csv" && echo same)
    rm -f "$T/ck/out.csv" && mv "$T/ck/ck.saved" "$T/ck/ck"
    (cd "$T/ck" && "$BIN" $CK -o out.csv --checkpoint ck 2>/dev/null)
    rc1=$?
    if [ "$rc3" -ne 0 ] || [ "$three" != same ] || [ "$rc1" -ne 0 ] ||
       ! cmp -s "$T/ck/ref.csv" "$T/ck/out.csv" || [ -f "$T/ck/ck" ]; then
        fail "checkpoint, SIGTERM on 2 ranks: going on under 3 ranks ($rc3) or bin/chargesim ($rc1) differs"
    else pass "checkpoint: SIGTERM to rank 1 of 2, rank 0's one message; goes on under 3 ranks and under bin/chargesim, same bytes"; fi
fi

[ "$fails" -eq 0 ] && echo "tests/mpi.sh: all passed" && exit 0
echo "tests/mpi.sh: $fails failed"
exit 1
