#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-as-user.sh [USER]: run as root (CI), runs the Criterion suite as
# USER (default nobody), who is not root and may make no private mount
# namespace, over a copy of the built tree that USER may write: the suite
# must pass there too, its root-only cases skipped with their reason, never
# failing the run (issue 54: a warning once made Criterion exit 1 for every
# user but root). The copy keeps the build's times, so nothing is rebuilt.
set -eu
user=${1:-nobody}
[ "$(id -u)" = 0 ] || { echo "check-as-user: run as root (it switches to $user)"; exit 0; }
root=$(cd "$(dirname "$0")/.." && pwd)
copy=$(mktemp -d /tmp/chargesim-as-user.XXXXXX)
trap 'rm -rf "$copy"' EXIT
cp -a "$root/." "$copy/"
chown -R "$user" "$copy"
chmod 755 "$copy"
echo "check-as-user: the Criterion suite as $user, in $copy"
runuser -u "$user" -- env -C "$copy" HOME="$copy" \
    CS_BIN="$copy/bin/chargesim" CS_ROOT="$copy" ${CS_TEST_TIME_SCALE:+CS_TEST_TIME_SCALE=$CS_TEST_TIME_SCALE} \
    sh -c 'mkdir -p build/tests/user-run &&
           build/tests/run_tests --jobs 2 --json=build/tests/user-run/criterion.json \
             --xml=build/tests/user-run/criterion.xml; rc=$?
           /usr/bin/python3 scripts/test-summary.py build/tests/user-run; exit $rc'
