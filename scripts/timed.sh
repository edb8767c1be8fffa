#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# timed.sh FILE NAME COMMAND...: runs COMMAND, appends "SECONDS<TAB>NAME" to
# FILE (the test summary's times, scripts/test-summary.py) and exits with
# COMMAND's status.
file=$1 name=$2
shift 2
start=$(date +%s%N)
"$@"
rc=$?
end=$(date +%s%N)
printf '%s\t%s\n' "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')" \
    "$name" >>"$file"
exit $rc
